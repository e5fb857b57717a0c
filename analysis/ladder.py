"""The strength-ladder report: what changes as play gets stronger, as paired differences between levels, with
the ladder's power; and seat advantage and strategy ranking at each level.

A ladder is one run per level (sim/ladder.py), every level on the same games, seeds and seats. Each level is
analysed as any run is (analysis.card.analyse). A change between two levels is never read off two labels: it is
the per-game difference of a metric (a seat's or a base strategy's win share, an end reason, game length)
between the levels, averaged with its interval clustered by game (analysis.metrics.paired_difference) and
labelled against the threshold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats as sps

from analysis import plots
from analysis.card import RunAnalysis, analyse
from analysis.load import Run, load_run
from analysis.metrics import Metric, Paired, paired_difference, parse_metric, until_ci_note
from analysis.players import base_name, players_phrase
from analysis.report import _write, state_tests
from analysis.sections import Plot, Section, Table
from analysis.stats import ALPHA, POWER
from analysis.verdicts import DEFAULT_MIN_EFFECT, Finding, current_ledger, fdr
from sim.core.errors import writable_dir
from sim.ladder import ladder_levels, read_ladder_manifest


@dataclass
class Level:
    """One strength level: its playouts per option and its run's analysis."""

    playouts: int
    analysis: RunAnalysis

    @property
    def name(self) -> str:
        return "base strategies" if self.playouts == 0 else f"{self.playouts} playouts"


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


MIN_BASE_GAMES = 50
"""A base strategy gets rows (its effect by level, its change between levels) only when it fills at least this
many seats: a normal interval for a win rate needs about 10 wins and 10 losses (10 expected wins at a five-player
fair share), and a population member drawn a handful of times gave "+66.7 pts [+1.3, +132.0]" or a zero-width
"+0.0 [+0.0, +0.0] negligible"."""


def tested_bases(run: Run) -> tuple[list[str], list[str]]:
    """The run's base strategies in lineup order, split into those filling at least MIN_BASE_GAMES seats and the
    rest (their games still count in every seat and end-reason row)."""
    seats = run.players["strategy"].astype(str).map(base_name).value_counts()
    bases = list(dict.fromkeys(base_name(s) for s in run.lineup))
    return ([b for b in bases if seats.get(b, 0) >= MIN_BASE_GAMES],
            [b for b in bases if seats.get(b, 0) < MIN_BASE_GAMES])


def strategy_frame(levels: Sequence[Level]) -> pd.DataFrame:
    """One row per (level, base strategy that fills MIN_BASE_GAMES seats): its effect adjusted for seat,
    interval, label and rank among those (1 = best); empty for a mirror ladder (one base)."""
    rows = []
    for lv in levels:
        model = lv.analysis.model
        if model is None or len(model.strategies) < 2:
            continue
        shown = set(tested_bases(lv.analysis.run)[0])
        table = model.strategies.sort_values("effect", ascending=False)
        table = table[table["strategy"].astype(str).map(base_name).isin(shown)].reset_index(drop=True)
        for rank, r in enumerate(table.itertuples(), start=1):
            rows.append({"playouts": lv.playouts, "strategy": base_name(str(r.strategy)), "effect": r.effect,
                         "lo": r.lo, "hi": r.hi, "label": r.label, "rank": rank})
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class LevelMetric(Metric):
    """A headline metric read the same way at every level: a strategy is named by its base, so
    ``strategy:expander`` is expander's win rate with the bases and expander+mcK's with K playouts."""

    def units(self, run: Run) -> pd.DataFrame:
        kind, _, arg = self.key.partition(":")
        if kind != "strategy":
            return super().units(run)
        p = run.players
        rows = p[p["strategy"].astype(str).map(base_name) == arg]
        return pd.DataFrame({"game_index": rows["game_index"].to_numpy(np.int64),
                             "seat": rows["seat"].to_numpy(np.int64), "value": rows["win_share"].to_numpy(float)})


def ladder_metrics(levels: Sequence[Level], key: str | None = None) -> list[LevelMetric]:
    """The metrics a ladder compares between levels: every seat's win rate, every base strategy's that fills
    MIN_BASE_GAMES seats (a pool), the share of each end reason seen at any level, and game length; or the one
    named ``key``."""
    runs = [lv.analysis.run for lv in levels]
    reasons = sorted(set().union(*(set(r.games["end_reason"].astype(str)) for r in runs)))
    bases = list(dict.fromkeys(base_name(s) for s in runs[0].lineup))
    tested = tested_bases(runs[0])[0]
    like = {"n_players": runs[0].n_players, "end_reasons": reasons, "strategies": bases}
    keys = [key] if key else [f"seat{k}" for k in range(1, runs[0].n_players + 1)] + (
        [f"strategy:{b}" for b in tested] if len(bases) > 1 else []) + [f"end:{r}" for r in reasons] + ["rounds"]
    return [LevelMetric(**vars(parse_metric(k, like))) for k in keys]


@dataclass(frozen=True)
class Change:
    """One metric's change from one level to a stronger one: the per-game paired difference (the same games,
    seeds and seats at both levels), its 95% interval clustered by game, and its label."""

    metric: LevelMetric
    weak: Level
    strong: Level
    paired: Paired

    @property
    def finding(self) -> Finding:
        return self.paired.finding

    @property
    def detectable(self) -> float:
        """The smallest change this comparison resolves: 80% power at 5% two-sided (display units)."""
        return POWER_Z * self.finding.se

    def sentence(self) -> str:
        """'Seat 1's win rate falls by 5.4 pts [-8.1, -2.7] from the base strategies to 16 playouts (large; ...)'."""
        f, m = self.finding, self.metric
        verb = "rises" if f.estimate > 0 else "falls"
        digits = 1 if m.rate else 2
        return (f"{m.title} {verb} by {abs(f.estimate):.{digits}f} {m.unit} [{f.lo:+.{digits}f}, {f.hi:+.{digits}f}] "
                f"from {_the(self.weak)} to {_the(self.strong)} ({f.label} against a threshold of "
                f"{f.threshold:.3g} {m.unit}; paired over the same {self.paired.n_games:,} games).")


def _the(level: Level) -> str:
    return "the base strategies" if level.playouts == 0 else level.name


POWER_Z = float(sps.norm.ppf(1 - ALPHA / 2) + sps.norm.ppf(POWER))
"""Standard errors in the smallest effect a test at 5% two-sided detects with 80% power (2.80)."""
RESOLVED = ("large", "small")
"""Labels of a change that is real (its 95% interval excludes 0): the only changes that get a sentence."""
PLOTTED_BASES = 8
"""At most this many bases get a line in the strategies plot (the most played; the table has every one)."""


def level_pairs(levels: Sequence[Level]) -> list[tuple[Level, Level]]:
    """The comparisons of a ladder: each level against the next stronger one, and the weakest against the
    strongest when there are more than two levels."""
    pairs = list(zip(levels[:-1], levels[1:]))
    return pairs + [(levels[0], levels[-1])] if len(levels) > 2 else pairs


def changes(levels: Sequence[Level], key: str | None = None) -> list[Change]:
    """Every ladder metric's (or the one named ``key``'s) paired change over every level pair."""
    out = []
    points = levels[0].analysis.threshold
    for metric in ladder_metrics(levels, key):
        for weak, strong in level_pairs(levels):
            base = weak.analysis.run
            threshold = metric.threshold(points, float(metric.units(base)["value"].mean()))
            out.append(Change(metric, weak, strong, paired_difference(metric, strong.analysis.run, base, threshold)))
    return out


@dataclass(frozen=True)
class Power:
    """What a ladder can resolve at its size: the smallest seat effect at one level and the smallest
    level-to-level change of a seat's win rate, each the largest over seats (and levels, level pairs)."""

    games: int
    seat_effect: float
    seat_change: float

    def sentence(self) -> str:
        change = (f" and a level-to-level change of a seat's win rate of {self.seat_change:.1f} pts"
                  if math.isfinite(self.seat_change) else "")
        return (f"At {self.games:,} games per level this ladder resolves a seat effect of {self.seat_effect:.1f} pts"
                f"{change} (80% power at 5% "
                f"two-sided: {POWER_Z:.2f} x the standard error, from the observed variance of the seat estimates and "
                "of the per-game paired differences; the largest over seats and levels). Smaller effects and changes "
                "may be real but go unresolved; the table below gives each comparison's own figure.")


def power(levels: Sequence[Level], found: Sequence[Change]) -> Power:
    """The ladder's power from its own data (see :class:`Power`)."""
    seat_se = max(f.se for lv in levels for f in lv.analysis.seat_findings())
    seat_changes = [c.detectable for c in found if c.metric.key.startswith("seat")]
    return Power(min(lv.analysis.run.n_games for lv in levels), POWER_Z * seat_se, max(seat_changes, default=math.nan))


def sentences(found: Sequence[Change]) -> list[str]:
    """A sentence for every resolved change (real: large or small), largest first; then one for the rest."""
    if not found:
        return ["A ladder of one level compares nothing: add a level (e.g. --playouts 0,4)."]
    real = sorted((c for c in found if c.finding.label in RESOLVED),
                  key=lambda c: (c.finding.label != "large", -abs(c.finding.estimate) / max(c.finding.threshold, 1e-9)))
    out = [c.sentence() for c in real]
    rest = [c for c in found if c.finding.label not in RESOLVED]
    if rest:
        counts = pd.Series([c.finding.label for c in rest]).value_counts()
        what = " and ".join(f"{n} {label}" for label, n in counts.items())
        out.append(f"{'No' if not real else 'No other'} level-to-level change is resolved: {what} (a negligible change "
                   "is shown to lie inside ± the threshold; an inconclusive one needs more games). "
                   + _multiplicity(len(found)))
    return out


def _multiplicity(n: int) -> str:
    """How the labels of ``n`` comparisons were tested: at the report's false discovery rate inside ``fdr``."""
    if current_ledger() is not None:
        return (f"The labels of these {n} comparisons hold the false discovery rate at 5% with every other finding of "
                "the report (Benjamini-Hochberg; its cut-off is on the first section).")
    return (f"Each comparison is tested at 5%: of these {n}, about {ALPHA * n:.1f} would look real by chance alone if "
            "nothing changed.")


def most_played(run: Run, k: int) -> list[str]:
    """The ``k`` bases that fill the most seats in ``run`` (a population's heaviest members; ties by name)."""
    seats = run.players["strategy"].astype(str).map(base_name).value_counts()
    return sorted(seats.index, key=lambda b: (-seats[b], b))[:k]


def headline(levels: Sequence[Level]) -> str:
    """One line: the ladder's largest resolved change, or that none is resolved, with its power."""
    found = changes(levels)
    names = ", ".join(str(lv.playouts) for lv in levels)
    lines = sentences(found)
    p = power(levels, found)
    reach = f"(resolves seat effects of {p.seat_effect:.1f} pts, seat changes of {p.seat_change:.1f} pts)"
    reach = reach if math.isfinite(p.seat_change) else f"(resolves seat effects of {p.seat_effect:.1f} pts)"
    return f"Ladder at {names} playouts {reach}: " + lines[0]


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


def change_table(found: Sequence[Change]) -> pd.DataFrame:
    """One row per (metric, level pair): the paired difference, its interval and label, and the smallest
    change that comparison resolves."""
    return pd.DataFrame([{
        "metric": c.metric.title, "from": c.weak.name, "to": c.strong.name,
        "change [95% CI]": c.metric.interval(c.finding), "label": c.finding.label,
        "resolves": f"{c.detectable:.{1 if c.metric.rate else 2}f} {c.metric.unit}"} for c in found])


def _untested(run: Run) -> list[str]:
    """A sentence naming the base strategies too rarely played for rows of their own (none if every one is)."""
    tested, few = tested_bases(run)
    if not few or len(tested) + len(few) < 2:
        return []
    names = ", ".join(few[:6]) + (f" and {len(few) - 6} more" if len(few) > 6 else "")
    return [f"{len(few)} of {len(tested) + len(few)} base strategies ({names}) filled fewer than {MIN_BASE_GAMES} "
            "seats each: too few for an interval of their own, so they get no rows; their games count in every "
            "seat, end-reason and length row."]


def ladder_section(levels: Sequence[Level], title: str = "Strength ladder", note: str | None = None) -> Section:
    """The ladder: its power, the level-to-level changes it resolves (paired differences), then seat and
    strategy effects by level."""
    runs = [lv.analysis.run for lv in levels]
    threshold = levels[0].analysis.threshold
    found = changes(levels)
    lineup = ", ".join(dict.fromkeys(base_name(s) for s in runs[0].lineup))
    who = ("the hardened population" if runs[0].manifest.get("population") else f"the pool {lineup}") + \
        " at 0 playouts, every seat rolling out over its base above"
    blocks: list = [
        f"The same study ({runs[0].n_players} players, {runs[0].n_games:,} games per level, pool {lineup}, the same "
        f"seeds and seating) at {len(levels)} strengths: the base strategies (0 playouts) and flat Monte Carlo over "
        "them, every seat trying its base's top 4 options with K playouts each (`BASE+mcK`). Players: "
        f"{players_phrase(runs[0].manifest)} at level 0, rollouts over it above. A change between levels is the per-game paired difference (same "
        "games, seeds and seats), its 95% interval clustered by game, labelled against the threshold.",
        power(levels, found).sentence(),
        *([note] if note else []),
        *_untested(runs[0]),
        *sentences(found),
        Table(change_table(found), "Level-to-level changes, paired over the same games and seats (difference of the "
                                   "stronger level minus the weaker, 95% CI clustered by game, label; resolves: the "
                                   "smallest change that comparison detects with 80% power at 5% two-sided)."),
    ]
    seats = seat_frame(levels)
    wide = seats.assign(cell=[_cell(r) for _, r in seats.iterrows()]).pivot(index="playouts", columns="seat", values="cell")
    wide.columns = [f"seat {s + 1}" for s in wide.columns]
    blocks.append(Table(wide.reset_index(), "Seat effect against the fair share at each level (effect [95% CI] label); "
                                            "compare levels with the paired changes above, not with these labels."))
    blocks.append(Plot("seats", effect_plot(seats, "seat", {s: f"seat {s + 1}" for s in seats["seat"].unique()},
                                            "Seat advantage against playing strength", threshold),
                       f"Each seat's win-rate effect at each strength, 95% intervals; grey band: ± the threshold. Players: "
                       f"{who}."))
    strat = strategy_frame(levels)
    if len(strat):
        wide = strat.assign(cell=[f"#{r['rank']} {_cell(r)}" for _, r in strat.iterrows()]).pivot(
            index="playouts", columns="strategy", values="cell")
        wide.columns.name = None
        blocks.append(Table(wide.reset_index(), "Strategy effect adjusted for seat, by strength (#rank, effect [95% CI] label)."))
        bases, shown = strat["strategy"].unique(), most_played(runs[0], PLOTTED_BASES)
        which = f" The {len(shown)} most played of the {len(bases)} bases in the table above." \
            if len(shown) < len(bases) else ""
        blocks.append(Plot("strategies", effect_plot(strat[strat["strategy"].isin(shown)], "strategy", {},
                                                     "Strategy effects against playing strength", threshold),
                           "Each base strategy's effect at each strength (as itself, then as rollouts over it)."
                           f"{which} Players: {who}."))
    length = pd.DataFrame({"playouts": [lv.playouts for lv in levels],
                           "mean rounds": [f"{lv.analysis.run.games['rounds'].mean():.2f}" for lv in levels],
                           "games": [f"{lv.analysis.run.n_games:,}" for lv in levels]})
    blocks.append(Table(length, "Game length by strength."))
    return Section(title, blocks)


LADDER_AFTER = ("First player", "Balance card")
"""A ladder joins a balance report after the first section whose title starts with one of these (in order)."""


def ladder_width(key: str) -> Callable[[Path], float]:
    """--until-ci for a ladder: the widest 95% interval, over the level pairs, of the metric's paired change."""
    def width(root: Path) -> float:
        return max(c.finding.hi - c.finding.lo for c in changes(load_ladder(root), key))
    return width


def stopping_note(root: str | Path) -> str | None:
    """How a ladder made with --until-ci stopped (None for a fixed-size ladder)."""
    note = until_ci_note(read_ladder_manifest(root))
    return note and note.replace("its interval was", "the widest level-to-level interval was")


def ladder_sections(roots: Sequence[str | Path], min_effect: str = DEFAULT_MIN_EFFECT) -> list[Section]:
    """One section per ladder directory, for a balance report."""
    out = []
    for root in roots:
        levels = load_ladder(root, min_effect)
        run = levels[0].analysis.run
        out.append(ladder_section(levels, f"Strength ladder: {run.n_players} players, {run.n_games:,} games per level",
                                  stopping_note(root)))
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
    def build() -> tuple[list[Level], list[Section], str]:
        levels = load_ladder(root, min_effect)
        return levels, [ladder_section(levels, note=stopping_note(root))], headline(levels)

    (levels, sections, line), ledger = fdr(build)  # many comparisons: labels at the false discovery rate
    writable_dir(out_dir)
    runs: list[Run] = [lv.analysis.run for lv in levels]
    title = f"{runs[0].title} strength ladder ({runs[0].n_players} players)"
    return _write(runs, state_tests(sections, ledger), title, out_dir), line

