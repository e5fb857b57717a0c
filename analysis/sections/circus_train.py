"""Circus Train sections: the start city, action-card usage and the sources of victory points.

(Not yet listed in ``analysis.sections.SECTION_MODULES``: registering it there is the analysis owner's edit.)
"""

from __future__ import annotations

from typing import Sequence

import pandas as pd

from analysis import plots, stats
from analysis.load import Run
from analysis.sections import Block, Plot, Section, Table, mean_display, missing_columns, rate_display, skip_note
from sim.circus_train.data import CARDS, load_data

VP_SOURCES = {"vp_talent": "most talent (month ends)", "vp_best": "best performance / April (month ends)",
              "vp_points": "Points counters", "vp_final": "final scoring (net, taxes included)"}


def _need(frame: pd.DataFrame, columns: Sequence[str], what: str, blocks: list[Block]) -> bool:
    """True when every column is present; otherwise append the skip note and return False."""
    miss = missing_columns(frame, columns)
    if miss:
        blocks.append(skip_note(what, miss))
    return not miss


def _city_names(run: Run) -> list[str]:
    """City names of the run's map (its own data directory if the run set one)."""
    return list(load_data(run.manifest.get("rules", {}).get("data") or None).city_names)


def start_city(run: Run) -> Section:
    """CT-SETUP-13: win rate by start city, and which strategies choose which city (an association: the adjusted
    comparison is the strategy table beside it)."""
    p, n = run.players, run.n_games
    blocks: list[Block] = []
    if _need(p, ("start_city",), "win rate by start city", blocks):
        t = stats.win_rates(p, "start_city")
        names = _city_names(run)
        labels = [names[int(c)] if 0 <= int(c) < len(names) else str(c) for c in t.index]
        blocks += [Table(rate_display(t, "start city", labels), f"Win rate by start city ({n:,} games)."),
                   Plot("start_city", plots.rate_bars(t, f"Win rate by start city ({n:,} games)", "start city",
                                                      expected=t["expected"].iloc[0]), "95% intervals."),
                   Table(mean_display(stats.mean_table(p, "strategy", "start_city"), "strategy", "start city index"),
                         "Start city index by strategy: the cities are chosen, so a city's rate mixes in its choosers'."
                         )]
    return Section("Start city", blocks)


def action_cards(run: Run) -> Section:
    """CT-CARD-*: cards played (or replayed) per player and game, by strategy."""
    p = run.players
    cols = [f"card_{c}" for c in CARDS]
    blocks: list[Block] = []
    if _need(p, cols, "action-card usage", blocks):
        table = p.groupby("strategy")[cols].mean().round(2)
        table.columns = [c.replace("_", " ") for c in CARDS]
        blocks.append(Table(table.reset_index(), "Mean plays per player and game by strategy (27 weeks, one card a "
                                                 "week; advanced replays included)."))
    return Section("Action-card usage", blocks)


def vp_sources(run: Run) -> Section:
    """CT-SCORE-MONTH-*, CT-PTS-1, CT-SCORE-FINAL-*: where the VP come from, by strategy and for winners."""
    p = run.players
    cols = list(VP_SOURCES)
    blocks: list[Block] = []
    if _need(p, cols + ["vp"], "sources of victory points", blocks):
        table = p.groupby("strategy")[cols + ["vp"]].mean().round(2)
        table.columns = list(VP_SOURCES.values()) + ["VP"]
        blocks.append(Table(table.reset_index(), "Mean VP per player and game by source and strategy."))
        won = p[p["won"] == 1][cols].mean().round(2)
        lost = p[p["won"] == 0][cols].mean().round(2)
        blocks.append(Table(pd.DataFrame({"source": list(VP_SOURCES.values()), "winners": won.values,
                                          "others": lost.values}), "Mean VP by source, winners against the rest."))
    return Section("Sources of victory points", blocks)


def sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """Every Circus Train section (``threshold``, the designer's --min-effect in pts, is not used by them yet)."""
    return [start_city(run), action_cards(run), vp_sources(run)]
