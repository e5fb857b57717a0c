"""The balance search's judge and answer: seat effects against the fair share, labelled by equivalence, and
the re-measured finalists' paired differences from the rules as printed.

The race's decisions (sim/balance.py) use per-variant 95% intervals without a multiplicity correction: they only
decide where games are spent. Every claim in the answer comes from the re-measure on a fresh seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from analysis import stats
from analysis.load import Run, load_run
from analysis.players import players_phrase
from analysis.metrics import LENGTH_EFFECT, Z95, headline_metrics, mean_se, parse_metric, study_like
from analysis.sweep import MetricRows, load_sweep, metric_rows
from analysis.verdicts import Z90, Finding, finding, parse_min_effect
from sim.balance import FINAL, read_balance

MEETS = ("negligible", "small")
"""Seat-effect labels inside ± the threshold by equivalence (TOST, 90% interval): the objective is met."""


@dataclass(frozen=True)
class Gaps:
    """How far a variant is from one objective: findings (estimate minus target) against one threshold. Two-sided
    (every gap within ± the threshold) unless ``one_sided`` (no gap above the threshold: ``strategies``)."""

    threshold: float
    unit: str
    findings: list[Finding]
    one_sided: bool = False

    def _size(self, f: Finding, z: float) -> float:
        """The gap's size at the interval's end ``z`` standard errors further out (negative z: nearer)."""
        centre = f.estimate if self.one_sided else abs(f.estimate)
        return max(0.0, centre + z * f.se)

    @property
    def meets(self) -> bool:
        """Every gap inside the threshold by equivalence (the 90% interval's outer end inside)."""
        if self.one_sided:
            return all(self._size(f, Z90) < self.threshold for f in self.findings)
        return all(f.label in MEETS for f in self.findings)

    @property
    def fails(self) -> bool:
        """Some 95% interval lies wholly beyond the threshold."""
        return any(self._size(f, -Z95) >= self.threshold for f in self.findings)

    @property
    def worst(self) -> float:
        return max(self._size(f, 0.0) for f in self.findings)

    @property
    def worst_lo(self) -> float:
        """The least the largest gap can be (95% intervals)."""
        return max(self._size(f, -Z95) for f in self.findings)

    @property
    def worst_hi(self) -> float:
        return max(self._size(f, Z95) for f in self.findings)

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


def strategy_edges(run: Run, min_effect: str) -> Gaps:
    """Every strategy's win share minus the fair share (pts, clustered by game): none may exceed the threshold."""
    players = run.players
    fair = stats.expected_share(players)
    threshold = parse_min_effect(min_effect).points(fair)
    out = []
    for name, rows in players.groupby(players["strategy"].astype(str), observed=True):
        mean, se = mean_se(rows["win_share"].to_numpy(dtype=float), rows["game_index"].to_numpy())
        out.append(finding(name, 100.0 * (mean - fair), 100.0 * se, threshold))
    return Gaps(threshold, "pts", out, one_sided=True)


def length_gap(run: Run, target: float) -> Gaps:
    """Mean game length minus the target (rounds), labelled against 5% of the target."""
    mean, se = mean_se(run.games["rounds"].to_numpy(dtype=float), run.games["game_index"].to_numpy())
    threshold = LENGTH_EFFECT * target
    return Gaps(threshold, "rounds", [finding("mean length minus target", mean - target, se, threshold)])


def end_gap(run: Run, reason: str, share: float, min_effect: str) -> Gaps:
    """The share of games ending by ``reason`` minus the target share (pts), against the --min-effect points."""
    ended = (run.games["end_reason"].astype(str) == reason).to_numpy(dtype=float)
    mean, se = mean_se(ended, run.games["game_index"].to_numpy())
    threshold = parse_min_effect(min_effect).points(stats.expected_share(run.players))
    return Gaps(threshold, "pts", [finding(f"games ending by {reason} minus {share:g}%", 100.0 * mean - share,
                                           100.0 * se, threshold)])


def assessor(objectives: Sequence[str], min_effect: str) -> Callable[[Run], list[Gaps]]:
    """The gaps each ``--objective`` measures on a run (seats, strategies, length=TARGET, end:REASON=SHARE)."""
    parts = [_one(o, min_effect) for o in objectives]
    return lambda run: [part(run) for part in parts]


def _one(objective: str, min_effect: str) -> Callable[[Run], Gaps]:
    if objective == "seats":
        return lambda run: seat_effects(run, min_effect)
    if objective == "strategies":
        return lambda run: strategy_edges(run, min_effect)
    if objective.startswith("end:"):
        reason, share = objective[4:].split("=", 1)
        return lambda run: end_gap(run, reason, float(share), min_effect)
    target = float(objective.split("=", 1)[1])
    return lambda run: length_gap(run, target)


def describe(objective: str, gaps: Gaps, fair: float) -> str:
    """One objective as a sentence."""
    if objective == "seats":
        return (f"every seat's win rate within ± {gaps.threshold:g} pts of the fair {100 * fair:.1f}% (equivalence: "
                "the 90% interval inside)")
    if objective == "strategies":
        return (f"no strategy's win rate more than {gaps.threshold:g} pts above the fair {100 * fair:.1f}% (the 90% "
                "interval's upper end below)")
    if objective.startswith("end:"):
        reason, share = objective[4:].split("=", 1)
        return (f"the share of games ending by {reason} within ± {gaps.threshold:g} pts of {share}% (equivalence: "
                "the 90% interval inside)")
    return (f"mean game length within ± {gaps.threshold:.3g} rounds (5%) of {objective.split('=', 1)[1]} "
            "(equivalence: the 90% interval inside)")


def meets(gaps: Sequence[Gaps]) -> bool:
    """Every objective met (objectives combine as constraints)."""
    return all(g.meets for g in gaps)


def score(gaps: Sequence[Gaps], at: str = "worst") -> float:
    """The largest gap over all objectives, in units of its own threshold (lower is closer)."""
    return max(getattr(g, at) / g.threshold for g in gaps)


def judge(objectives: Sequence[str], min_effect: str) -> Callable[[dict[str, Path], int], dict[str, dict[str, Any]]]:
    """The race's judge: a variant fails once a gap is confidently beyond its threshold or its largest gap (in
    thresholds, over all objectives) is confidently larger than the best variant's could be; it meets the
    objectives once every gap is inside its threshold by equivalence. Reads the first ``n`` games of each run."""
    assess = assessor(objectives, min_effect)

    def verdicts(dirs: dict[str, Path], n: int) -> dict[str, dict[str, Any]]:
        gaps = {name: assess(_first(load_run(run_dir, games_columns=[], players_columns=[]), n))
                for name, run_dir in dirs.items()}
        best = min(gaps, key=lambda k: score(gaps[k], "worst_hi"))
        out = {}
        for name, gs in gaps.items():
            state, reason = ("meets", "within every threshold") if meets(gs) else ("open", "")
            failed = [g for g in gs if g.fails]
            if failed:
                g = failed[0]
                f = max(g.findings, key=lambda f: g._size(f, 0.0))
                state, reason = "fails", (f"{f.what} {f.estimate:+.1f} {g.unit} [{f.lo:+.1f}, {f.hi:+.1f}] beyond "
                                          f"{'' if g.one_sided else '± '}{g.threshold:.3g}")
            elif score(gs, "worst_lo") > score(gaps[best], "worst_hi"):
                state, reason = "fails", (f"largest gap at least {score(gs, 'worst_lo'):.2f} thresholds, {best}'s at "
                                          f"most {score(gaps[best], 'worst_hi'):.2f}")
            out[name] = {"state": state, "reason": reason, "score": score(gs)}
        return out
    return verdicts


def _first(run: Run, n: int) -> Run:
    """The run's first ``n`` games (a resumed search may hold more than the race round judged)."""
    return Run(run.run_dir, run.manifest, run.games[run.games["game_index"] < n],
               run.players[run.players["game_index"] < n])


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
    objectives = manifest["objectives"]
    gaps = [assessor(objectives, manifest["min_effect"])(r) for r in final.runs]
    fair = stats.expected_share(base.players)
    points = parse_min_effect(manifest["min_effect"]).points(fair)
    grid = manifest["grid"]
    wanted = "; and ".join(describe(o, g, fair) for o, g in zip(objectives, gaps[0]))
    head = [f"Balance search: {grid['game']} {grid['n_players']}p, objective {' and '.join(objectives)}: {wanted}; "
            f"players: {players_phrase(base.manifest)}, seated {grid['seating']}; the rules as printed: "
            f"{', '.join(grid['overrides']) or 'the rulebook defaults'}.",
            race_note(manifest),
            f"Re-measured on a fresh seed ({manifest['final_seed']}), {base.n_games:,} games per variant, every "
            "variant on the same games; differences from the rules as printed are paired game by game "
            f"(95% intervals clustered by game, labelled against {points:g} pts for rates and 5% of the mean for "
            "length)."]
    like = study_like(base.game, base.n_players, base.lineup)
    metrics = [parse_metric(f"seat{k + 1}", like) for k in range(base.n_players)]
    metrics += [m for m in headline_metrics(final.runs) if m.key != "seat1"]
    rows = [metric_rows(m, final, points) for m in metrics]
    body = [f"Rules as printed ({final.labels[0]}): {_texts(gaps[0])}; mean length {_length(base):.2f} rounds."]
    for i in range(1, len(final.runs)):
        verdict = "meets the objective" if meets(gaps[i]) else "does not meet the objective"
        body.append(f"{final.manifest['variants'][i]['name']} ({final.labels[i]}) {verdict}: {_texts(gaps[i])}.")
        body.append("    minus the rules as printed (paired): " + "; ".join(_paired(r, i) for r in rows) + ".")
    good = [i for i in range(1, len(final.runs)) if meets(gaps[i])]
    if good:
        end = "Answer: " + "; ".join(final.labels[i] for i in good) + " meet(s) the objective on fresh seeds."
    else:
        closest = min(range(1, len(final.runs)), key=lambda i: score(gaps[i]))
        end = (f"Answer: nothing in the grid meets the objective on fresh seeds; the closest is {final.labels[closest]} "
               f"(largest gap {score(gaps[closest]):.2f} times its threshold).")
    return "\n".join([*head, *body, end])


def _texts(gaps: Sequence[Gaps]) -> str:
    return "; ".join(g.text() for g in gaps)


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
