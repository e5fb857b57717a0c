"""The dominant-strategy report: does a strategy far above the field exist, what are its weights, and how
does it play (its action profile against the field's and against its starting point)?

The answer rests on the final A/B on fresh seeds (sim/tune.py): the tuned strategy's win rate in its seat
against the fair share, clustered by game, and the paired change from the start in the very same games.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis import plots, stats
from analysis.ab import ab_section
from analysis.load import Run, load_run
from analysis.players import players_phrase
from analysis.sections import Plot, Section, Table
from analysis.verdicts import DEFAULT_MIN_EFFECT, Z95, Finding, label, parse_min_effect
from sim.core.errors import writable_dir
from sim.core.records import STANDARD_PLAYER
from sim.tune import read_tune

PROFILE_ROWS = 12
"""Player counters shown in the action profile: the ones where the tuned seat departs most from the field."""


def edge(run_b: Run, name: str, threshold: float) -> Finding:
    """The strategy's win rate minus the fair share, in points, with a Wilson 95% interval clustered by game: at a
    win rate of 0 or 1 (a probe that wins every game) a normal interval would shrink to a point."""
    p = run_b.players
    rows = p[p["strategy"].astype(str) == name]
    fair = stats.expected_share(p)
    rate = stats.rate_table(rows.assign(player=name), "player", "win_share").iloc[0]
    estimate, lo, hi = (100 * (rate[k] - fair) for k in ("rate", "lo", "hi"))
    se = (hi - lo) / (2 * Z95)
    return Finding(f"{name} against the fair share", estimate, lo, hi, se, label(estimate, se, threshold), threshold)


def verdict(f: Finding, record: dict, rate: float) -> str:
    """Yes or no, in a sentence: is there a strategy far above this field?"""
    field = ", ".join(record["field"])
    games = f"{record['final_games']:,} fresh games"
    result = (f"{record['name']} wins {rate:.1f}% of its games against {field}, {f.interval()} against the fair "
              f"share ({f.label}; {games})")
    if f.label == "large" and f.estimate > 0:
        return f"Yes: a strategy far above the field exists. {result}."
    tail = ": it is still far below the field" if f.label == "large" else ""
    return f"No strategy far above the field was found within {record['budget']:,} search games: {result}{tail}."


def weights_table(record: dict) -> pd.DataFrame:
    """Each tuned weight: start, tuned and change, the largest changes first."""
    t = pd.DataFrame({"decision": [d for d, _ in record["params"]], "feature": [f for _, f in record["params"]],
                      "start": record["x0"], "tuned": record["x_final"]})
    t["change"] = t["tuned"] - t["start"]
    return t.reindex(t["change"].abs().sort_values(ascending=False).index).reset_index(drop=True)


def action_profile(run_a: Run, run_b: Run, name: str, start: str) -> pd.DataFrame:
    """Mean of every player counter for the tuned seat, the start in the same seats (arm A) and the field
    (arm B's other seats), ordered by how far the tuned seat departs from the field (in field SDs)."""
    a, b = run_a.players, run_b.players
    tuned = b["strategy"].astype(str) == name
    skip = {"game_index", "seat", "strategy", "rank", "won", "win_share", *STANDARD_PLAYER}
    cols = [c for c in b.columns if c not in skip and np.issubdtype(b[c].dtype, np.number)]
    rows = []
    for c in cols:
        field_sd = float(b.loc[~tuned, c].std()) or 1.0
        t, s, f = float(b.loc[tuned, c].mean()), float(a.loc[a["strategy"].astype(str) == start, c].mean()), \
            float(b.loc[~tuned, c].mean())
        rows.append({"counter": c, name: t, f"{start} (start)": s, "field": f, "departure (field SDs)": (t - f) / field_sd})
    out = pd.DataFrame(rows)
    return out.reindex(out["departure (field SDs)"].abs().sort_values(ascending=False).index).head(PROFILE_ROWS)


def history_figure(record: dict) -> Figure:
    """Best, mean and worst candidate win rate per generation (each generation on its own block of games)."""
    h = pd.DataFrame(record["history"])
    fig = plots.new_figure()
    ax = fig.add_subplot()
    ax.fill_between(h["generation"], 100 * h["worst"], 100 * h["best"], alpha=0.2, label="worst to best candidate")
    ax.plot(h["generation"], 100 * h["mean"], "o-", label="mean candidate")
    ax.axhline(100 / record["n_players"], **plots.EXPECTED_STYLE, label=f"fair share (1/{record['n_players']})")
    ax.set_xlabel(f"generation ({record['popsize']} candidates x {record['block']:,} games each)")
    ax.set_ylabel("win rate in the search games (%)")
    ax.set_title("CMA-ES search: candidates' win rate against the field")
    ax.legend(fontsize=8)
    return fig


def tune_sections(root: Path, min_effect: str = DEFAULT_MIN_EFFECT) -> tuple[list[Section], list[Run], str]:
    """The report's sections, the two final arms and the one-line answer."""
    record = read_tune(root)
    run_a, run_b = (load_run(root / d) for d in record["arms"])
    threshold = parse_min_effect(min_effect).points(stats.expected_share(run_b.players))
    f = edge(run_b, record["name"], threshold)
    rate = 100 * float(run_b.players.loc[run_b.players["strategy"].astype(str) == record["name"], "win_share"].mean())
    line = verdict(f, record, rate)
    ab, _ = ab_section(run_a, run_b, record["start_copy"], record["name"], min_effect)
    w = weights_table(record)
    shown = w[w["change"] != 0]
    card = Section("Dominant-strategy search", [
        line,
        f"Search: CMA-ES (the cma package) over {len(record['params'])} weights of {record['name']}, starting from "
        f"{record['start']}, {len(record['history'])} generations of {record['popsize']} candidates, each generation's "
        f"candidates on the same {record['block']:,} games (common random numbers), {record['budget']:,} games budget; "
        f"the result is the search distribution's mean, measured on fresh seeds (seed {record['final_seed']}).",
        f"Strategy file: {record['strategy_file']} (`playtest run {record['game']} --strategy-file "
        f"{root / record['strategy_file']} --strategies {record['name']},...`).",
        Plot("history", history_figure(record), "Win rate of the candidates per generation of the search "
             f"(players: {players_phrase(run_b.manifest)})."),
    ])
    weights = Section("What it does: weights", [
        Table(shown.head(30).round(4) if len(shown) else w.head(30).round(4),
              f"Tuned weights against the start ({record['start']}), the largest changes first "
              f"({len(shown)} of {len(w)} weights changed; the full set is in {record['strategy_file']})."),
    ])
    profile = Section("What it does: action profile", [
        Table(action_profile(run_a, run_b, record["name"], record["start_copy"]).round(3),
              f"Mean per player-game of the logged counters: {record['name']}, the start in the same seats and games "
              "(arm A), and the field; the counters where the tuned seat departs most from the field first."),
    ])
    return [card, ab, weights, profile], [run_a, run_b], line


def write_tune_report(root: str | Path, out: str | Path | None = None,
                      min_effect: str = DEFAULT_MIN_EFFECT) -> tuple[Path, str]:
    """Write TUNE_DIR/report (index.html, report.md, PNGs); return its index.html and the answer line."""
    from analysis.report import _write

    root = Path(root)
    sections, runs, line = tune_sections(root, min_effect)
    out = Path(out) if out else root / "report"
    writable_dir(out)
    record = read_tune(root)
    return _write(runs, sections, f"{runs[1].title}: dominant-strategy search for {record['name']}", out), line

