"""What a hardening measured, read from its logs: a probe's gain over the fair share against a population,
the mixture that solves the empirical meta-game, and the round-by-round history as a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import pandas as pd

from analysis.load import load_run
from analysis.metagame import payoff_table, solve, values_against
from analysis.tune import edge
from analysis.verdicts import Finding


def gain(run_dir: Path, name: str, threshold: float) -> Finding:
    """``name``'s win share in its seat minus the fair share, in points (one seat per game)."""
    return edge(load_run(run_dir, games_columns=[], players_columns=[]), name, threshold)


def solve_runs(run_dirs: Sequence[Path], members: Sequence[str]) -> tuple[list[float], dict[str, Any]]:
    """The mixture solving the members' empirical game (every run's games among them), and how well it
    does in that game: the best member's gain against it (in-sample, in points)."""
    players = pd.concat([load_run(d, games_columns=[], players_columns=[]).players for d in run_dirs],
                        ignore_index=True)
    table = payoff_table(players, members)
    x = solve(table)
    values = values_against(table, x)
    n = table.ndim
    return [float(w) for w in x], {"games": int(len(players) // n), "solver": "open_spiel projected replicator dynamics",
                                   "best_member_gain_in_sample_pts": round(100 * (float(values.max()) - 1 / n), 3)}


def _interval(r: dict[str, float]) -> str:
    return f"{r['points']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}]"


def history_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """One row per measured round: the population, its exploitability estimate, games and seconds."""
    rows = []
    total = summary["rounds"][0]["games"]
    for r in summary["rounds"][1:]:
        total += r["games"]
        mix = ", ".join(f"{m} {w:.0%}" for m, w in zip(r["members"], r["weights"]) if w > 0)
        rows.append({"round": r["round"], "mixture measured": mix,
                     "best response's gain, pts [95% CI]": _interval(r["exploitability"]),
                     "start's gain, pts [95% CI]": _interval(r["start_gain"]),
                     "added": r.get("added", "-"), "games": f"{r['games']:,}", "games so far": f"{total:,}",
                     "seconds": f"{r['seconds']:.0f}"})
    return pd.DataFrame(rows)


def history_markdown(summary: dict[str, Any]) -> str:
    """history.md: what was hardened, why it stopped, the rounds and both probes."""
    frame = history_frame(summary)
    cells = lambda row: "| " + " | ".join(str(v) for v in row) + " |"  # noqa: E731
    table = [cells(frame.columns), "|" + "---|" * len(frame.columns), *(cells(r) for r in frame.itertuples(index=False))]
    e, probe = summary["exploitability"], summary.get("rollout_probe")
    why = {"converged": "the best response's 95% interval lies below --min-effect",
           "budget": "the budget could not pay for another round",
           "running": "still running (a checkpoint)"}[summary["stopped"]]
    final = next(r for r in summary["rounds"] if r.get("best_response") == e["best_response"])
    mix = ", ".join(f"{m} {w:.1%}" for m, w in zip(final["members"], final["weights"]) if w > 0)
    return "\n".join([
        f"# Hardening {summary['game']}, {summary['n_players']} players, from {', '.join(summary['pool'])}", "",
        f"{'Checkpoint' if summary['stopped'] == 'running' else 'Stopped'} after {len(summary['rounds']) - 1} "
        f"round(s): {why} ({summary['games_spent']:,} of {summary['budget']:,} games; --min-effect "
        f"{summary['min_effect']}).", "",
        f"Population written ({summary['population_file']}): {mix}.", "",
        f"Exploitability: {e['statement']}. Tuned best response {final['best_response']}: {_interval(e)} pts on "
        f"{e['measured_on_games']:,} fresh games" + (f"; rollout probe {probe['player']}: {_interval(probe)} pts on "
                                                     f"{probe['games']:,} games ({probe['note']})." if probe else "."),
        "",
        "Each round tunes a best response to the mixture it measures; its gain over the fair share on fresh seeds "
        "is that mixture's exploitability estimate. 'start' is the member the search started from, in the same "
        "seats and games.", "",
        *table, ""])

