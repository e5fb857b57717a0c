"""The balance search's judge and answer: seat effects against the fair share, labelled by equivalence, and
the re-measured finalists' paired differences from the rules as printed.

The race's decisions (sim/balance.py) use per-variant 95% intervals without a multiplicity correction: they only
decide where games are spent. Every claim in the answer comes from the re-measure on a fresh seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from analysis import stats
from analysis.load import Run, load_run
from analysis.metrics import Z95, headline_metrics, mean_se, parse_metric, study_like
from analysis.sweep import MetricRows, load_sweep, metric_rows
from analysis.verdicts import Finding, finding, parse_min_effect
from sim.balance import FINAL, read_balance

MEETS = ("negligible", "small")
"""Seat-effect labels inside ± the threshold by equivalence (TOST, 90% interval): the objective is met."""


@dataclass(frozen=True)
class Seats:
    """Each seat's win rate minus the fair share (pts), as findings against the threshold."""

    fair: float
    threshold: float
    findings: list[Finding]

    @property
    def meets(self) -> bool:
        return all(f.label in MEETS for f in self.findings)

    @property
    def fails(self) -> bool:
        """Some seat's 95% interval lies wholly beyond ± the threshold."""
        return any(abs(f.estimate) - Z95 * f.se >= self.threshold for f in self.findings)

    @property
    def worst(self) -> float:
        return max(abs(f.estimate) for f in self.findings)

    @property
    def worst_lo(self) -> float:
        """The least the worst seat's distance from fair can be (95% intervals)."""
        return max(max(0.0, abs(f.estimate) - Z95 * f.se) for f in self.findings)

    @property
    def worst_hi(self) -> float:
        return max(abs(f.estimate) + Z95 * f.se for f in self.findings)

    def text(self) -> str:
        return "; ".join(f"{f.what} {f.interval()} {f.label}" for f in self.findings)


def seat_effects(players: pd.DataFrame, min_effect: str) -> Seats:
    """Every seat's win share minus the fair share, with its standard error, labelled against the threshold."""
    fair = stats.expected_share(players)
    threshold = parse_min_effect(min_effect).points(fair)
    out = []
    for seat, rows in players.groupby("seat", observed=True):
        mean, se = mean_se(rows["win_share"].to_numpy(dtype=float), rows["game_index"].to_numpy())
        out.append(finding(stats.seat_label(int(seat)), 100.0 * (mean - fair), 100.0 * se, threshold))
    return Seats(fair, threshold, out)


def judge_seats(min_effect: str) -> Callable[[dict[str, Path], int], dict[str, dict[str, Any]]]:
    """The race's judge for ``--objective seats``: a variant fails once a seat is confidently beyond ± the
    threshold or its worst seat is confidently farther from fair than the best variant's could be; it meets
    the objective once every seat is within ± the threshold by equivalence."""
    def judge(dirs: dict[str, Path], n: int) -> dict[str, dict[str, Any]]:
        seats = {}
        for name, run_dir in dirs.items():
            players = load_run(run_dir, games_columns=[], players_columns=[]).players
            seats[name] = seat_effects(players[players["game_index"] < n], min_effect)
        best = min(seats, key=lambda k: seats[k].worst_hi)
        out = {}
        for name, s in seats.items():
            state, reason = ("meets", "every seat within ± the threshold") if s.meets else ("open", "")
            if s.fails:
                f = max(s.findings, key=lambda f: abs(f.estimate))
                state, reason = "fails", f"{f.what} {f.interval()} beyond ± {s.threshold:g} pts"
            elif s.worst_lo > seats[best].worst_hi:
                state, reason = "fails", (f"worst seat at least {s.worst_lo:.1f} pts from fair, {best} at most "
                                          f"{seats[best].worst_hi:.1f}")
            out[name] = {"state": state, "reason": reason, "score": s.worst}
        return out
    return judge


def _label(manifest: dict, name: str) -> str:
    v = next(v for v in manifest["grid"]["variants"] if v["name"] == name)
    return f"{name} ({v['label']})"


def race_note(manifest: dict) -> str:
    """What the race played, and what the full grid would have cost at the same resolution."""
    n_var = len(manifest["grid"]["variants"])
    resolution = int(manifest["race_resolution"])
    spent = int(manifest["race_games"])
    full = n_var * resolution
    dropped = [f"{_label(manifest, k)} after {r['games']:,} games: {why}" for r in manifest["race"]
               for k, why in r["dropped"].items()]
    return (f"Race: {len(manifest['race'])} round(s) over {n_var} variants, {spent:,} games, up to {resolution:,} "
            f"games per variant; the full grid at that resolution would take {full:,} games (racing saved "
            f"{full - spent:,}, {100 * (full - spent) / full:.0f}%). Dropped: "
            + ("; ".join(dropped) if dropped else "none") + ".")


def answer(root: str | Path) -> str:
    """The search's answer as plain text: objective, race, then each re-measured variant's seat effects and
    paired differences from the rules as printed (seat win rates, game length, end reasons)."""
    manifest = read_balance(root)
    final = load_sweep(Path(root) / FINAL)
    base = final.runs[final.baseline]
    min_effect = manifest["min_effect"]
    seats = [seat_effects(r.players, min_effect) for r in final.runs]
    s0 = seats[0]
    grid = manifest["grid"]
    head = [f"Balance search: {grid['game']} {grid['n_players']}p, objective seats: every seat's win rate within "
            f"± {s0.threshold:g} pts of the fair {100 * s0.fair:.1f}% (equivalence: the 90% interval inside), pool "
            f"{', '.join(grid['strategies'])} seated {grid['seating']}.", race_note(manifest),
            f"Re-measured on a fresh seed ({manifest['final_seed']}), {base.n_games:,} games per variant, every "
            "variant on the same games; differences from the rules as printed are paired game by game "
            "(95% intervals clustered by game, labelled against the threshold; length: 5% of its mean)."]
    like = study_like(base.game, base.n_players, base.lineup)
    keys = [f"seat{k + 1}" for k in range(base.n_players)]
    metrics = [parse_metric(k, like) for k in keys] + [m for m in headline_metrics(final.runs) if m.key != "seat1"]
    rows = [metric_rows(m, final, s0.threshold) for m in metrics]
    body = [f"Rules as printed ({final.labels[0]}): {s0.text()}; mean length {_length(base):.2f} rounds."]
    for i in range(1, len(final.runs)):
        verdict = "meets the objective" if seats[i].meets else "does not meet the objective"
        body.append(f"{final.manifest['variants'][i]['name']} ({final.labels[i]}) {verdict}: {seats[i].text()}.")
        body.append("    minus the rules as printed (paired): " + "; ".join(_paired(r, i) for r in rows) + ".")
    good = [i for i in range(1, len(final.runs)) if seats[i].meets]
    if good:
        end = "Answer: " + ", ".join(final.labels[i] for i in good) + " meet(s) the objective on fresh seeds."
    else:
        closest = min(range(1, len(final.runs)), key=lambda i: seats[i].worst)
        end = (f"Answer: nothing in the grid meets the objective on fresh seeds; the closest is {final.labels[closest]} "
               f"(worst seat {seats[closest].worst:.1f} pts from fair).")
    return "\n".join([*head, *body, end])


def _length(run: Run) -> float:
    return float(np.mean(run.games["rounds"]))


def _paired(rows: MetricRows, i: int) -> str:
    f = rows.paired[i].finding
    return f"{rows.metric.title.lower()} {rows.metric.interval(f)} {f.label}"


def write_answer(root: str | Path) -> tuple[Path, str]:
    """Write balance.md next to balance.json; return its path and the text."""
    text = answer(root)
    path = Path(root) / "balance.md"
    path.write_text(text + "\n")
    return path, text
