"""What a hardening measured, read from its logs: a probe's gain over the fair share against a population,
the mixture that solves the empirical meta-game, and the round-by-round history as a table."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from analysis import plots
from analysis.load import load_run
from analysis.metagame import payoff_table, solve, values_against
from analysis.tune import edge
from analysis.verdicts import Finding


EXPLOITABILITY_PNG = "exploitability.png"
FIXED_SCALE = ("Searches keep their start's weight norm (--fixed-scale), so softmax members stay mixed: a "
               "search's gain is then no best response's, and `playtest exploit` measures the population with free "
               "searches. ")


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
    solver = "least best-member value over the simplex (SLSQP), from replicator dynamics, uniform and pure starts"
    return [float(w) for w in x], {"games": int(len(players) // n), "solver": solver,
                                   "best_member_gain_in_sample_pts": round(100 * (float(values.max()) - 1 / n), 3)}


def _interval(r: dict[str, float]) -> str:
    return f"{r['points']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}]"


def history_frame(summary: dict[str, Any]) -> pd.DataFrame:
    """One row per measured round: the population, its exploitability estimate (the larger of the searched
    best response's gain and the best member's), both gains, games and seconds."""
    rows = []
    total = summary["rounds"][0]["games"]
    for r in summary["rounds"][1:]:
        total += r["games"]
        mix = ", ".join(f"{m} {w:.0%}" for m, w in zip(r["members"], r["weights"]) if w > 0)
        member = _member(r) if "best_member" in r else f"{r['start']}: {_interval(r['start_gain'])}"
        rows.append({"round": r["round"], "mixture measured": mix,
                     "exploitability estimate, pts [95% CI]": _interval(r["exploitability"]),
                     "searched best response's gain": _searched(r),
                     "best member (search start): gain": member,
                     "added": r.get("added", f"- (round {r['remeasure_of']} re-measured)" if "remeasure_of" in r
                                    else "- (passed; measured again on fresh seeds)" if r.get("confirm_next")
                                    else "-"), "games": f"{r['games']:,}", "games so far": f"{total:,}",
                     "seconds": f"{r['seconds']:.0f}"})
    return pd.DataFrame(rows)


def _member(r: dict[str, Any]) -> str:
    """The best member's gain on fresh seeds; histories written before it was measured so took the gain on the
    games that chose the member (the largest of several noisy gains, biased up), and say so."""
    if "best_member_gain" in r:
        return f"{r['best_member']}: {_interval(r['best_member_gain'])}"
    return f"{r['best_member']}: {_interval(r['member_gains'][r['best_member']])} (on the games that chose it)"


def _searched(r: dict[str, Any]) -> str:
    """The round's searched gain; with several searches, the largest and the others beside it."""
    found = _interval(r.get("best_response_gain", r["exploitability"]))
    others = [s for s in r.get("searches", []) if s["best_response"] != r.get("best_response")]
    if not others:
        return found
    also = ", ".join(f"{s['best_response']} {s['points']:+.1f}" for s in others)
    return f"{found} ({r['best_response']}; also {also})"


def exploitability_figure(summary: dict[str, Any]) -> Figure:
    """Each round's best-response gain against the mixture it measured, with its 95% interval, and the
    --min-effect line the stopping rule compares the interval's upper end with."""
    fig = plots.new_figure()
    ax = fig.add_subplot()
    rounds = [r for r in summary["rounds"] if "exploitability" in r and "remeasure_of" not in r]
    again = [r for r in summary["rounds"] if "remeasure_of" in r]
    kept = f"round {again[0]['remeasure_of']}'s mixture (the population written), re-measured on fresh seeds" \
        if again else ""
    estimate = ("the larger gain of a fixed-scale search and the best member (95% interval)"
                if summary.get("fixed_scale") else "exploitability estimate (95% interval)")
    for group, style, label in ((rounds, "o-", estimate), (again, "s", kept)):
        if group:
            est, lo, hi = (np.array([r["exploitability"][k] for r in group]) for k in ("points", "lo", "hi"))
            ax.errorbar([r["round"] for r in group], est, yerr=[est - lo, hi - est], fmt=style, capsize=3,
                        label=label)
    ax.axhline(summary["threshold_pts"], **plots.EXPECTED_STYLE, label=f"--min-effect ({summary['threshold_pts']:g} pts)")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("round (round r measures the mixture solved after round r-1)")
    ax.set_ylabel("gain over the fair share (pts)")
    searcher = "a fixed-scale search" if summary.get("fixed_scale") else "a best response"
    ax.set_title(f"{summary['game']} {summary['n_players']}p: how far {searcher} exploits the mixture")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # whole rounds, few enough to read at 50 rounds
    ax.legend(fontsize=8)
    return fig


def _mixtures(summary: dict[str, Any]) -> str:
    """How each round's mixture was made (--meta-solver), in one sentence."""
    solver = summary.get("meta_solver", "nash")
    kept = (" The population written is the round whose exploitability interval reached lowest, re-measured on "
            "fresh seeds when it is not the last." if summary.get("keep") == "best" else "")
    start = summary.get("from_population")
    origin = (f" Round 0's mixture is the population of {start}, counted as the rounds its best responses' names "
              "give (the first new best response continues their numbering)." if start and solver != "nash" else "")
    tail = origin + kept
    if solver in ("linear", "hedge"):
        return ("Mixtures by fictitious play with linear averaging: round r's best response weighs r + 1 and round "
                "0's solved mixture 1, so after round r the newest takes 2/(r + 2) and early members fade; no "
                "empirical game is played after round 0."
                + (" Before each average, every member measured that round has its weight multiplied by 2 ** (gain "
                   "/ 10 pts) (Hedge: a member that keeps gaining against the mixture gains weight until it stops)."
                   if solver == "hedge" else "") + tail)
    if solver in ("fictitious", "forgetful"):
        return ("Mixtures by fictitious play: after round r the mixture averages round 0's solved mixture and the r "
                "best responses, each weighing 1/(r + 1); no empirical game is played after round 0."
                + (" Before each average, the members measured to lose against the mixture (their gain's 95% "
                   "interval below 0) leave it." if solver == "forgetful" else "") + tail)
    return "Mixtures solve the members' empirical game (every member in every seat, random seating)." + tail


def history_markdown(summary: dict[str, Any]) -> str:
    """history.md: what was hardened, why it stopped, the rounds and both probes."""
    frame = history_frame(summary)
    cells = lambda row: "| " + " | ".join(str(v) for v in row) + " |"  # noqa: E731
    table = [cells(frame.columns), "|" + "---|" * len(frame.columns), *(cells(r) for r in frame.itertuples(index=False))]
    e, probe = summary["exploitability"], summary.get("rollout_probe")
    confirm, searches = summary.get("confirm", 0), summary.get("searches", 1)
    why = {"converged": ("the best response's" if searches == 1 else f"each of the {searches} best responses' and "
                         "the best member's") + " 95% interval lies below --min-effect" + (
               f" in {confirm + 1} measurements of the mixture in a row, each on fresh seeds" if confirm else ""),
           "budget": "the budget could not pay for another round",
           "time": f"another round would have ended past --minutes {summary.get('minutes')}",
           "running": "still running (a checkpoint)"}[summary["stopped"]]
    final = next(r for r in summary["rounds"] if r.get("best_response") == e["best_response"])
    searched = "Fixed-scale search" if summary.get("fixed_scale") else "Tuned best response"
    mix = ", ".join(f"{m} {w:.1%}" for m, w in zip(final["members"], final["weights"]) if w > 0)
    return "\n".join([
        f"# Hardening {summary['game']}, {summary['n_players']} players, from "
        + (f"the population {summary['from_population']}" if summary.get("from_population")
           else ", ".join(summary["pool"])), "",
        f"{'Checkpoint' if summary['stopped'] == 'running' else 'Stopped'} after {len(summary['rounds']) - 1} "
        f"round(s): {why} ({summary['games_spent']:,} of {summary['budget']:,} games; --min-effect "
        f"{summary['min_effect']}).", "",
        f"Population written ({summary['population_file']}): {mix}.", "",
        f"Exploitability: {e['statement']}. {_estimate_by(e, final, searched)}: {_interval(e)} pts on "
        f"{e['measured_on_games']:,} fresh games" + (f"; rollout probe {probe['player']}: {_interval(probe)} pts on "
                                                     f"{probe['games']:,} games ({probe['note']})." if probe else "."),
        "",
        "Each round measures the mixture's members against it and tunes "
        + ("a best response from the best of them; the larger" if searches == 1 else
           f"{searches} best responses, each on its own seeds, from the best {searches} of them; the largest")
        + " gain over the fair share, on fresh seeds, is that mixture's exploitability estimate. "
        + (FIXED_SCALE if summary.get("fixed_scale") else "") + f"{_mixtures(summary)}", "",
        f"![Exploitability per round: the tuned best response's gain against the mixture, 95% intervals]"
        f"({EXPLOITABILITY_PNG})", "",
        *table, ""])



def _estimate_by(e: dict[str, Any], final: dict[str, Any], searched: str) -> str:
    """Who found the estimate of round ``final``: the tuned best response, or the member that gained more."""
    by_search = final.get("exploitability_from", final["best_response"]) == final["best_response"]
    return f"{searched} {final['best_response']}" if by_search else f"The best {e['probe']}"


def write_history_files(root: Path, summary: dict[str, Any]) -> None:
    """history.md and its figure, from a hardening's history (also re-makes them from history.json)."""
    (root / "history.md").write_text(history_markdown(summary))
    (root / EXPLOITABILITY_PNG).write_bytes(plots.to_png(exploitability_figure(summary)))
