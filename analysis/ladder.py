"""The strength-ladder report: seat advantage and strategy ranking against playing strength, and the headline
findings whose label changes as play gets stronger.

A ladder is one run per level (sim/ladder.py). Each level is analysed as any run is (analysis.card.analyse:
seat effects adjusted for strategy, strategy effects adjusted for seat, each labelled by size against the
threshold); this module lines the levels up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis import plots
from analysis.card import RunAnalysis, analyse
from analysis.load import Run, load_run
from analysis.report import _write
from analysis.sections import Plot, Section, Table
from analysis.verdicts import DEFAULT_MIN_EFFECT
from sim.core.errors import writable_dir
from sim.core.policy import SHORT_ROLLOUT
from sim.ladder import ladder_levels


@dataclass
class Level:
    """One strength level: its playouts per option and its run's analysis."""

    playouts: int
    analysis: RunAnalysis

    @property
    def name(self) -> str:
        return "base strategies" if self.playouts == 0 else f"{self.playouts} playouts"


def base_name(strategy: str) -> str:
    """'expander+mc16' -> 'expander' (a base's own name is unchanged)."""
    m = SHORT_ROLLOUT.match(strategy)
    return m["base"] if m else strategy


def load_ladder(root: str | Path, min_effect: str = DEFAULT_MIN_EFFECT) -> list[Level]:
    """Every level of the ladder under ``root``, analysed, weakest first."""
    return [Level(k, analyse(load_run(path), min_effect)) for k, path in ladder_levels(root)]


def seat_frame(levels: Sequence[Level]) -> pd.DataFrame:
    """One row per (level, seat): the seat's effect in points against the fair share, its interval and label."""
    rows = []
    for lv in levels:
        for seat, f in enumerate(lv.analysis.seat_findings()):
            rows.append({"playouts": lv.playouts, "seat": seat, "effect": f.estimate, "lo": f.lo, "hi": f.hi,
                         "label": f.label})
    return pd.DataFrame(rows)


def strategy_frame(levels: Sequence[Level]) -> pd.DataFrame:
    """One row per (level, base strategy): its effect adjusted for seat, interval, label and rank (1 = best);
    empty for a mirror ladder (one base)."""
    rows = []
    for lv in levels:
        model = lv.analysis.model
        if model is None or len(model.strategies) < 2:
            continue
        table = model.strategies.sort_values("effect", ascending=False).reset_index(drop=True)
        for rank, r in enumerate(table.itertuples(), start=1):
            rows.append({"playouts": lv.playouts, "strategy": base_name(str(r.strategy)), "effect": r.effect,
                         "lo": r.lo, "hi": r.hi, "label": r.label, "rank": rank})
    return pd.DataFrame(rows)


def _at(row: pd.Series) -> str:
    level = "the base strategies" if row["playouts"] == 0 else f"{int(row['playouts'])} playouts"
    return f"{row['effect']:+.1f} pts ({row['label']}) with {level}"


def _trend(first: pd.Series, last: pd.Series) -> str:
    """How an effect moves from the weakest level to the strongest: it reverses (both intervals exclude 0, on
    opposite sides), or its size shrinks or grows."""
    real = lambda r: r["lo"] > 0 or r["hi"] < 0  # noqa: E731
    if first["effect"] * last["effect"] < 0 and real(first) and real(last):
        return "reverses"
    if abs(last["effect"]) < abs(first["effect"]):
        return "shrinks"
    return "grows" if abs(last["effect"]) > abs(first["effect"]) else "changes"


def flags(levels: Sequence[Level]) -> list[str]:
    """A sentence for every headline finding whose label changes with strength: each seat's advantage, the
    best strategy, and each strategy's effect."""
    out = []
    seats = seat_frame(levels)
    for seat, rows in seats.groupby("seat"):
        if rows["label"].nunique() > 1:
            a, b = rows.iloc[0], rows.iloc[-1]
            out.append(f"Seat {seat + 1}'s advantage {_trend(a, b)} from {_at(a)} to {_at(b)} as "
                       f"play gets stronger (labels by level: {', '.join(rows['label'])}).")
    strat = strategy_frame(levels)
    if len(strat):
        best = strat[strat["rank"] == 1]
        if best["strategy"].nunique() > 1:
            out.append("The top of the strategy ranking changes with strength: " + "; ".join(
                f"{r.strategy} ({r.effect:+.1f} pts, {r.label}) with "
                f"{'the bases' if r.playouts == 0 else f'{r.playouts} playouts'}" for r in best.itertuples()) + ".")
        for name, rows in strat.groupby("strategy"):
            if rows["label"].nunique() > 1:
                a, b = rows.iloc[0], rows.iloc[-1]
                out.append(f"{name}'s effect {_trend(a, b)} from {_at(a)} to {_at(b)}.")
    return out


def headline(levels: Sequence[Level]) -> str:
    """One line: the first finding that changes with strength, or that none does."""
    found = flags(levels)
    names = ", ".join(str(lv.playouts) for lv in levels)
    if found:
        return f"Ladder at {names} playouts: " + found[0] + (f" ({len(found) - 1} more in the report.)" if len(found) > 1 else "")
    return f"Ladder at {names} playouts: no headline finding changes its label with strength."


def _cell(f: pd.Series) -> str:
    return f"{f['effect']:+.1f} [{f['lo']:+.1f}, {f['hi']:+.1f}] {f['label']}"


def effect_plot(frame: pd.DataFrame, key: str, names: dict, title: str, threshold: float) -> Figure:
    """Effect (points) against the playouts of each level, one line per seat or strategy, 95% intervals."""
    fig = plots.new_figure(7.0, 4.0)
    ax = fig.add_subplot()
    levels = sorted(frame["playouts"].unique())
    x = np.arange(len(levels))
    width = 0.08
    groups = list(dict.fromkeys(frame[key]))
    for i, g in enumerate(groups):
        rows = frame[frame[key] == g].set_index("playouts").reindex(levels)
        dx = (i - (len(groups) - 1) / 2) * width
        err = np.vstack([rows["effect"] - rows["lo"], rows["hi"] - rows["effect"]]).clip(0)
        ax.errorbar(x + dx, rows["effect"], yerr=err, marker="o", capsize=3, label=names.get(g, str(g)))
    ax.axhline(0.0, color="black", linewidth=0.8)
    ax.axhspan(-threshold, threshold, color="grey", alpha=0.15, label=f"± {threshold:.3g} pts threshold")
    ax.set_xticks(x, [f"{k}" if k else "0 (bases)" for k in levels])
    ax.set_xlabel("playouts per option (playing strength)")
    ax.set_ylabel("win-rate points against the fair share")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="best")
    return fig


def ladder_section(levels: Sequence[Level], title: str = "Strength ladder") -> Section:
    """The ladder: the findings that change with strength, then seat and strategy effects by level."""
    runs = [lv.analysis.run for lv in levels]
    threshold = levels[0].analysis.threshold
    found = flags(levels)
    lineup = ", ".join(dict.fromkeys(base_name(s) for s in runs[0].lineup))
    blocks: list = [
        f"The same study ({runs[0].n_players} players, {runs[0].n_games:,} games per level, pool {lineup}, the same "
        f"seeds and seating) at {len(levels)} strengths: the base strategies (0 playouts) and flat Monte Carlo over "
        "them, every seat trying its base's top 4 options with K playouts each (`BASE+mcK`). Effects are adjusted "
        "as in the rest of the report (seats for strategy, strategies for seat), in win-rate points.",
        " ".join(found) if found else "No headline finding changes its label with strength: every seat's and "
                                      "strategy's label is the same at every level.",
    ]
    seats = seat_frame(levels)
    wide = seats.assign(cell=[_cell(r) for _, r in seats.iterrows()]).pivot(index="playouts", columns="seat", values="cell")
    wide.columns = [f"seat {s + 1}" for s in wide.columns]
    blocks.append(Table(wide.reset_index(), "Seat effect against the fair share by strength (effect [95% CI] label)."))
    blocks.append(Plot("seats", effect_plot(seats, "seat", {s: f"seat {s + 1}" for s in seats["seat"].unique()},
                                            "Seat advantage against playing strength", threshold),
                       "Each seat's win-rate effect at each strength, 95% intervals; grey band: ± the threshold."))
    strat = strategy_frame(levels)
    if len(strat):
        wide = strat.assign(cell=[f"#{r['rank']} {_cell(r)}" for _, r in strat.iterrows()]).pivot(
            index="playouts", columns="strategy", values="cell")
        wide.columns.name = None
        blocks.append(Table(wide.reset_index(), "Strategy effect adjusted for seat, by strength (#rank, effect [95% CI] label)."))
        blocks.append(Plot("strategies", effect_plot(strat, "strategy", {}, "Strategy effects against playing strength",
                                                     threshold),
                           "Each base strategy's effect at each strength (as itself, then as rollouts over it)."))
    length = pd.DataFrame({"playouts": [lv.playouts for lv in levels],
                           "mean rounds": [f"{lv.analysis.run.games['rounds'].mean():.2f}" for lv in levels],
                           "games": [f"{lv.analysis.run.n_games:,}" for lv in levels]})
    blocks.append(Table(length, "Game length by strength."))
    return Section(title, blocks)


LADDER_AFTER = ("First player", "Balance card")
"""A ladder joins a balance report after the first section whose title starts with one of these (in order)."""


def ladder_sections(roots: Sequence[str | Path], min_effect: str = DEFAULT_MIN_EFFECT) -> list[Section]:
    """One section per ladder directory, for a balance report."""
    out = []
    for root in roots:
        levels = load_ladder(root, min_effect)
        run = levels[0].analysis.run
        out.append(ladder_section(levels, f"Strength ladder: {run.n_players} players, {run.n_games:,} games per level"))
    return out


def insert_ladders(sections: list[Section], ladders: list[Section]) -> list[Section]:
    """``sections`` with the ladder sections after the first-player section if the report has one (the ladder
    asks whether the seat advantage survives stronger play), else after the balance card."""
    if not ladders:
        return sections
    for key in LADDER_AFTER:
        at = next((i for i, s in enumerate(sections) if s.title.split(": ")[-1].startswith(key)), None)
        if at is not None:
            return sections[:at + 1] + ladders + sections[at + 1:]
    return sections + ladders


def write_ladder_report(root: str | Path, out_dir: str | Path, min_effect: str = DEFAULT_MIN_EFFECT) -> tuple[Path, str]:
    """The ladder report (index.html, report.md, PNGs) in ``out_dir``; returns its path and the headline line."""
    levels = load_ladder(root, min_effect)
    writable_dir(out_dir)
    runs: list[Run] = [lv.analysis.run for lv in levels]
    title = f"{runs[0].title} strength ladder ({runs[0].n_players} players)"
    return _write(runs, [ladder_section(levels)], title, out_dir), headline(levels)

