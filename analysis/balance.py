"""The balance search's judge and answer: seat effects against the fair share, labelled by equivalence, and
the re-measured finalists' paired differences from the rules as printed.

The race's decisions (sim/balance.py) use per-variant 95% intervals without a multiplicity correction: they only
decide where games are spent. Every claim in the answer comes from the re-measure on a fresh seed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from analysis import stats
from analysis.load import Run, load_run
from analysis.metrics import LENGTH_EFFECT, Z95, headline_metrics, mean_se, parse_metric, study_like
from analysis.sweep import MetricRows, load_sweep, metric_rows
from analysis.verdicts import Finding, finding, parse_min_effect
from sim.balance import FINAL, read_balance

MEETS = ("negligible", "small")
"""Seat-effect labels inside ± the threshold by equivalence (TOST, 90% interval): the objective is met."""


@dataclass(frozen=True)
class Gaps:
    """How far a variant is from the objective: findings (estimate minus target) against one threshold."""

    threshold: float
    unit: str
    findings: list[Finding]

    @property
    def meets(self) -> bool:
        return all(f.label in MEETS for f in self.findings)

    @property
    def fails(self) -> bool:
        """Some 95% interval lies wholly beyond ± the threshold."""
        return any(abs(f.estimate) - Z95 * f.se >= self.threshold for f in self.findings)

    @property
    def worst(self) -> float:
        return max(abs(f.estimate) for f in self.findings)

    @property
    def worst_lo(self) -> float:
        """The least the largest gap can be (95% intervals)."""
        return max(max(0.0, abs(f.estimate) - Z95 * f.se) for f in self.findings)

    @property
    def worst_hi(self) -> float:
        return max(abs(f.estimate) + Z95 * f.se for f in self.findings)

    def text(self) -> str:
        d = 1 if self.unit == "pts" else 2
        return "; ".join(f"{f.what} {f.estimate:+.{d}f} {self.unit} [{f.lo:+.{d}f}, {f.hi:+.{d}f}] {f.label}"
                         for f in self.findings)


def seat_effects(run: Run, min_effect: str) -> Gaps:
    """Every seat's win share minus the fair share (pts), labelled against the --min-effect threshold."""
    players = run.players
    fair = stats.expected_share(players)
    threshold = parse_min_effect(min_effect).points(fair)
    out = []
    for seat, rows in players.groupby("seat", observed=True):
        mean, se = mean_se(rows["win_share"].to_numpy(dtype=float), rows["game_index"].to_numpy())
        out.append(finding(stats.seat_label(int(seat)), 100.0 * (mean - fair), 100.0 * se, threshold))
    return Gaps(threshold, "pts", out)


def length_gap(run: Run, target: float) -> Gaps:
    """Mean game length minus the target (rounds), labelled against 5% of the target."""
    mean, se = mean_se(run.games["rounds"].to_numpy(dtype=float), run.games["game_index"].to_numpy())
    threshold = LENGTH_EFFECT * target
    return Gaps(threshold, "rounds", [finding("mean length minus target", mean - target, se, threshold)])


def assessor(objective: str, min_effect: str) -> Callable[[Run], Gaps]:
    """The gaps ``--objective`` measures on a run (seats, or length=TARGET)."""
    if objective == "seats":
        return lambda run: seat_effects(run, min_effect)
    target = float(objective.split("=", 1)[1])
    return lambda run: length_gap(run, target)


def describe(objective: str, gaps: Gaps, fair: float) -> str:
    """The objective as a sentence."""
    if objective == "seats":
        return (f"every seat's win rate within ± {gaps.threshold:g} pts of the fair {100 * fair:.1f}% (equivalence: "
                "the 90% interval inside)")
    return (f"mean game length within ± {gaps.threshold:.3g} rounds (5%) of {objective.split('=', 1)[1]} "
            "(equivalence: the 90% interval inside)")


def judge(objective: str, min_effect: str) -> Callable[[dict[str, Path], int], dict[str, dict[str, Any]]]:
    """The race's judge: a variant fails once a gap is confidently beyond ± the threshold or its largest gap is
    confidently larger than the best variant's could be; it meets the objective once every gap is within ± the
    threshold by equivalence. Reads the first ``n`` games of each run."""
    assess = assessor(objective, min_effect)

    def verdicts(dirs: dict[str, Path], n: int) -> dict[str, dict[str, Any]]:
        gaps = {name: assess(_first(load_run(run_dir, games_columns=[], players_columns=[]), n))
                for name, run_dir in dirs.items()}
        best = min(gaps, key=lambda k: gaps[k].worst_hi)
        out = {}
        for name, g in gaps.items():
            state, reason = ("meets", "within ± the threshold") if g.meets else ("open", "")
            if g.fails:
                f = max(g.findings, key=lambda f: abs(f.estimate))
                state, reason = "fails", (f"{f.what} {f.estimate:+.1f} {g.unit} [{f.lo:+.1f}, {f.hi:+.1f}] beyond "
                                          f"± {g.threshold:.3g}")
            elif g.worst_lo > gaps[best].worst_hi:
                state, reason = "fails", (f"largest gap at least {g.worst_lo:.2f} {g.unit}, {best}'s at most "
                                          f"{gaps[best].worst_hi:.2f}")
            out[name] = {"state": state, "reason": reason, "score": g.worst}
        return out
    return verdicts


def _first(run: Run, n: int) -> Run:
    """The run's first ``n`` games (a resumed search may hold more than the race round judged)."""
    return replace(run, games=run.games[run.games["game_index"] < n],
                   players=run.players[run.players["game_index"] < n])


def _label(manifest: dict, name: str) -> str:
    v = next(v for v in manifest["grid"]["variants"] if v["name"] == name)
    return f"{name} ({v['label']})"


def race_note(manifest: dict) -> str:
    """What the race played, and what the full grid would have cost at the race's resolution and at the
    re-measure's."""
    n_var = len(manifest["grid"]["variants"])
    resolution = int(manifest["race_resolution"])
    spent = int(manifest["race_games"])
    full = n_var * resolution
    searched = spent + int(manifest["final_games"]) * (len(manifest["finalists"]) + 1)
    everything = n_var * int(manifest["final_games"])
    dropped = [f"{_label(manifest, k)} after {r['games']:,} games: {why}" for r in manifest["race"]
               for k, why in r["dropped"].items()]
    return (f"Race: {len(manifest['race'])} round(s) over {n_var} variants, {spent:,} games, up to {resolution:,} "
            f"games per variant; the full grid at that resolution would take {full:,} games (racing saved "
            f"{full - spent:,}). The whole search played {searched:,} games; every variant at the re-measure's "
            f"{int(manifest['final_games']):,} games would take {everything:,}. Dropped: "
            + ("; ".join(dropped) if dropped else "none") + ".")


def answer(root: str | Path) -> str:
    """The search's answer as plain text: objective, race, then each re-measured variant's gaps and its paired
    differences from the rules as printed (every seat's win rate, game length, end reasons)."""
    manifest = read_balance(root)
    final = load_sweep(Path(root) / FINAL)
    base = final.runs[final.baseline]
    objective = manifest["objective"]
    gaps = [assessor(objective, manifest["min_effect"])(r) for r in final.runs]
    fair = stats.expected_share(base.players)
    points = parse_min_effect(manifest["min_effect"]).points(fair)
    grid = manifest["grid"]
    head = [f"Balance search: {grid['game']} {grid['n_players']}p, objective {objective}: "
            f"{describe(objective, gaps[0], fair)}; pool {', '.join(grid['strategies'])} seated {grid['seating']}; the "
            f"rules as printed: {', '.join(grid['overrides']) or 'the rulebook defaults'}.",
            race_note(manifest),
            f"Re-measured on a fresh seed ({manifest['final_seed']}), {base.n_games:,} games per variant, every "
            "variant on the same games; differences from the rules as printed are paired game by game "
            f"(95% intervals clustered by game, labelled against {points:g} pts for rates and 5% of the mean for "
            "length)."]
    like = study_like(base.game, base.n_players, base.lineup)
    metrics = [parse_metric(f"seat{k + 1}", like) for k in range(base.n_players)]
    metrics += [m for m in headline_metrics(final.runs) if m.key != "seat1"]
    rows = [metric_rows(m, final, points) for m in metrics]
    body = [f"Rules as printed ({final.labels[0]}): {gaps[0].text()}; mean length {_length(base):.2f} rounds."]
    for i in range(1, len(final.runs)):
        verdict = "meets the objective" if gaps[i].meets else "does not meet the objective"
        body.append(f"{final.manifest['variants'][i]['name']} ({final.labels[i]}) {verdict}: {gaps[i].text()}.")
        body.append("    minus the rules as printed (paired): " + "; ".join(_paired(r, i) for r in rows) + ".")
    good = [i for i in range(1, len(final.runs)) if gaps[i].meets]
    if good:
        end = "Answer: " + "; ".join(final.labels[i] for i in good) + " meet(s) the objective on fresh seeds."
    else:
        closest = min(range(1, len(final.runs)), key=lambda i: gaps[i].worst)
        end = (f"Answer: nothing in the grid meets the objective on fresh seeds; the closest is {final.labels[closest]} "
               f"(largest gap {gaps[closest].worst:.2f} {gaps[closest].unit}).")
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
