"""The balance search's judge and answer: seat effects against the fair share, labelled by equivalence, and
the re-measured finalists' paired differences from the rules as printed.

The race's decisions (sim/balance.py) use per-variant 95% intervals without a multiplicity correction: they only
decide where games are spent. Every claim in the answer comes from the re-measure on a fresh seed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

import pandas as pd

from analysis import plots, stats
from analysis.load import Run, in_turn_order, load_run, seat_order_column
from analysis.players import players_phrase
from analysis.metrics import LENGTH_EFFECT, Z95, headline_metrics, mean_se, parse_metric, study_like
from analysis.sections import Plot, Section, Table
from analysis.sweep import MetricRows, SweepRuns, load_sweep, metric_rows
from analysis.verdicts import Z90, Finding, finding, parse_min_effect
from sim.balance import FINAL, read_balance
from sim.core.errors import writable_dir

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
        gaps = {name: assess(_first(in_turn_order(load_run(run_dir, games_columns=[], players_columns=[])), n))
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


def race_note(manifest: dict, dropped: bool = True) -> str:
    """What the race played, and what the full grid would have cost at the race's resolution and at the
    re-measure's; ``dropped``: also list each dropped variant and why."""
    n_var = len(manifest["grid"]["variants"])
    resolution = int(manifest["race_resolution"])
    spent = int(manifest["race_games"])
    full = n_var * resolution
    searched = spent + int(manifest["final_games"]) * (len(manifest["finalists"]) + 1)
    everything = n_var * int(manifest["final_games"])
    gone = [f"{_label(manifest, k)} after {r['games']:,} games: {why}" for r in manifest["race"]
            for k, why in r["dropped"].items()]
    return (f"Race: {len(manifest['race'])} round(s) over {n_var} variants, {spent:,} games, up to {resolution:,} "
            f"games per variant; the full grid at that resolution would take {full:,} games (racing saved "
            f"{full - spent:,}). The whole search played {searched:,} games; every variant at the re-measure's "
            f"{int(manifest['final_games']):,} games would take {everything:,}."
            + (" Dropped: " + ("; ".join(gone) or "none") + "." if dropped else ""))


@dataclass
class Answer:
    """A finished search read back: the re-measure, each run's objective gaps and paired headline rows."""

    manifest: dict
    final: SweepRuns
    gaps: list[list[Gaps]]
    rows: list[MetricRows]
    head: list[str]
    good: list[int]
    closest: int

    def verdict(self, i: int) -> str:
        return "meets the objective" if meets(self.gaps[i]) else "does not meet the objective"

    def conclusion(self) -> str:
        labels = self.final.labels
        if self.good:
            return "Answer: " + "; ".join(labels[i] for i in self.good) + " meet(s) the objective on fresh seeds."
        return (f"Answer: nothing in the grid meets the objective on fresh seeds; the closest is "
                f"{labels[self.closest]} (largest gap {score(self.gaps[self.closest]):.2f} times its threshold).")


def read_answer(root: str | Path) -> Answer:
    """The search's re-measure (seats in turn order where the first player is random) and its gaps."""
    manifest = read_balance(root)
    final = load_sweep(Path(root) / FINAL)
    final = replace(final, runs=[in_turn_order(r) for r in final.runs])
    base = final.runs[final.baseline]
    objectives = manifest["objectives"]
    gaps = [assessor(objectives, manifest["min_effect"])(r) for r in final.runs]
    fair = stats.expected_share(base.players)
    points = parse_min_effect(manifest["min_effect"]).points(fair)
    grid = manifest["grid"]
    wanted = "; and ".join(describe(o, g, fair) for o, g in zip(objectives, gaps[0]))
    head = [f"Balance search: {grid['game']} {grid['n_players']}p, objective {' and '.join(objectives)}: {wanted}; "
            f"players: {players_phrase(base.manifest)}, seated {grid['seating']}; the rules as printed: "
            f"{', '.join(grid['overrides']) or 'the rulebook defaults'}."
            + (" The first player is drawn at random, so a seat is a place in turn order counted from that player "
               "(as the seat compensation counts seats)." if seat_order_column(grid["game"]) else ""),
            race_note(manifest),
            f"Re-measured on a fresh seed ({manifest['final_seed']}), {base.n_games:,} games per variant, every "
            "variant on the same games; differences from the rules as printed are paired game by game "
            f"(95% intervals clustered by game, labelled against {points:g} pts for rates and 5% of the mean for "
            "length)."]
    like = study_like(base.game, base.n_players, base.lineup)
    metrics = [parse_metric(f"seat{k + 1}", like) for k in range(base.n_players)]
    metrics += [m for m in headline_metrics(final.runs) if m.key != "seat1"]
    rows = [metric_rows(m, final, points) for m in metrics]
    others = range(1, len(final.runs))
    good = [i for i in others if meets(gaps[i])]
    closest = min(others, key=lambda i: score(gaps[i]))
    return Answer(manifest, final, gaps, rows, head, good, closest)


def answer(root: str | Path) -> str:
    """The search's answer as plain text: objective, race, then each re-measured variant's gaps and its paired
    differences from the rules as printed (every seat's win rate, game length, end reasons)."""
    return answer_text(read_answer(root))


def answer_text(a: Answer) -> str:
    """``answer`` from an Answer already read."""
    final = a.final
    body = [f"Rules as printed ({final.labels[0]}): {_texts(a.gaps[0])}; mean length "
            f"{_length(final.runs[0]):.2f} rounds."]
    for i in range(1, len(final.runs)):
        body.append(f"{final.manifest['variants'][i]['name']} ({final.labels[i]}) {a.verdict(i)}: "
                    f"{_texts(a.gaps[i])}.")
        body.append("    minus the rules as printed (paired): " + "; ".join(_paired(r, i) for r in a.rows) + ".")
    return "\n".join([*a.head, *body, a.conclusion()])


def _texts(gaps: Sequence[Gaps]) -> str:
    return "; ".join(g.text() for g in gaps)


def _length(run: Run) -> float:
    return float(np.mean(run.games["rounds"]))


def _paired(rows: MetricRows, i: int) -> str:
    f = rows.paired[i].finding
    return f"{rows.metric.title.lower()} {rows.metric.interval(f)} {f.label}"


def balance_sections(a: Answer) -> list[Section]:
    """The answer as report sections: the conclusion with each variant's seat effects drawn and its paired
    differences tabled, then the race and the re-measure's design."""
    final, n = a.final, len(a.final.runs)
    fair = stats.expected_share(final.runs[0].players)
    seats = [seat_effects(r, a.manifest["min_effect"]) for r in final.runs]
    threshold = seats[0].threshold
    players = players_phrase(final.runs[0].manifest)
    columns = [f"{final.labels[0]} (rules as printed)"] + [f"{final.labels[i]} minus the rules as printed, paired"
                                                           for i in range(1, n)]
    lines = {"objective": ["baseline"] + [a.verdict(i) for i in range(1, n)],
             "largest gap, in thresholds [95% CI]": [
                 f"{score(g):.2f} [{score(g, 'worst_lo'):.2f}, {score(g, 'worst_hi'):.2f}]" for g in a.gaps]}
    lines.update({f"{seats[0].findings[k].what} minus the fair share": [
        f"{g.findings[k].interval()} {g.findings[k].label}" for g in seats] for k in range(len(seats[0].findings))})
    lines.update({r.metric.title: [r.estimates[0].text(r.metric)] + [
        f"{r.metric.interval(r.paired[i].finding)} {r.paired[i].finding.label}" for i in range(1, n)] for r in a.rows})
    table = pd.DataFrame([[k, *v] for k, v in lines.items()], columns=["headline metric", *columns])
    answer = Section("Balance search: the answer", [
        f"**{a.conclusion()}**", a.head[0],
        Plot("seats", plots.seat_gaps(final.labels, [g.findings for g in seats], threshold),
             f"Each seat's win rate minus the fair {100 * fair:.1f}% (points, 95% intervals) on the re-measure's "
             f"fresh seed, {final.runs[0].n_games:,} games per variant on the same games; shaded: ± {threshold:g} "
             f"pts. Players: {players}."),
        Table(table, "Each variant's seats against the fair share (95% intervals, labelled by equivalence). The "
                     "rules as printed: each headline metric's value [95% CI]. Each finalist: its largest gap from "
                     "the objective in units of its threshold, and its paired difference from the rules as printed "
                     "for every headline metric (95% intervals clustered by game; labels against "
                     f"{threshold:g} pts for rates, 5% of the mean for length). Players: {players}."),
    ])
    race = pd.DataFrame([{
        "games per variant": f"{r['games']:,}", "games played": f"{r['played']:,}",
        "open": ", ".join(_label(a.manifest, k) for k in r["open"]),
        "met the objective": ", ".join(_label(a.manifest, k) for k in r["meets"]) or "none",
        "dropped (why)": "; ".join(f"{_label(a.manifest, k)}: {why}" for k, why in r["dropped"].items()) or "none"}
        for r in a.manifest["race"]])
    how = Section("How the search spent its games", [
        race_note(a.manifest, dropped=False), a.head[2],
        Table(race, "The race on common random numbers (per-variant 95% intervals, no multiplicity correction: they "
                    "only decide where games go; every claim above comes from the fresh seed)."),
        f"Every variant's run is under {a.final.root.parent / 'race'}; the re-measure is a sweep under "
        f"{a.final.root} (`playtest report {a.final.root}` draws it).",
    ])
    return [answer, how]


def write_answer(root: str | Path, out: str | Path | None = None) -> tuple[Path, str]:
    """Write balance.md next to balance.json and the HTML page (index.html, report.md, the PNG) into ``out``
    (default ROOT/report); return the page's path and the text answer."""
    from analysis.report import _write

    out = Path(out) if out else Path(root) / "report"
    writable_dir(out)
    a = read_answer(root)
    text = answer_text(a)
    (Path(root) / "balance.md").write_text(text + "\n")
    grid = a.manifest["grid"]
    title = f"{a.final.runs[0].title} {grid['n_players']}p: balance search ({' and '.join(a.manifest['objectives'])})"
    return _write(a.final.runs, balance_sections(a), title, out), text


def write_balance_report(root: str | Path, out: str | Path | None = None, min_effect: str = "") -> tuple[Path, str]:
    """`playtest report BALANCE_DIR`: the HTML answer (the search's own --min-effect judges it, not ``min_effect``);
    return the page and the answer's last line."""
    index, text = write_answer(root, out)
    return index, text.splitlines()[-1]
