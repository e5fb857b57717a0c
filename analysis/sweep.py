"""The sweep report: each headline metric against the variant, with paired intervals on the difference from
the baseline (game i of a variant against game i of the baseline: the same seed and seats), a conclusion
labelled by size, and sample-size advice that shows what the pairing saves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis import plots, stats
from analysis.load import Run, load_run
from analysis.metrics import (Estimate, Metric, Paired, estimate, headline_metrics, paired_difference, parse_metric,
                              study_like, until_ci_note)
from analysis.sections import Plot, Section, Table
from analysis.verdicts import DEFAULT_MIN_EFFECT, fdr, parse_min_effect
from sim.core.errors import PlaytestError, writable_dir
from sim.sweep import read_sweep


@dataclass
class SweepRuns:
    """A finished sweep: its manifest and each variant's run (in grid order)."""

    root: Path
    manifest: dict
    runs: list[Run]

    @property
    def baseline(self) -> int:
        return int(self.manifest["baseline"])

    @property
    def labels(self) -> list[str]:
        return [v["label"] for v in self.manifest["variants"]]

    @property
    def ticks(self) -> list[str]:
        """Short x labels: the values alone (one axis) or joined by ' / ' (several)."""
        return [" / ".join(str(x) for x in v["assignments"].values()) for v in self.manifest["variants"]]

    @property
    def axis_title(self) -> str:
        return " / ".join(a["field"] for a in self.manifest["axes"])


def load_sweep(root: str | Path) -> SweepRuns:
    """Read sweep.json and every variant's logs (checksums verified), checking they hold the same games."""
    root = Path(root)
    manifest = read_sweep(root)
    runs = [load_run(root / v["dir"], games_columns=[], players_columns=[]) for v in manifest["variants"]]
    sizes = {r.n_games for r in runs}
    if len(sizes) > 1:
        raise PlaytestError(f"the variants of {root} hold different numbers of games ({sorted(sizes)}); "
                            "re-run the same `playtest sweep` command to finish them")
    seats = runs[0].players["strategy"].astype(str).to_numpy()
    for r in runs[1:]:
        if not (r.players["strategy"].astype(str).to_numpy() == seats).all():
            raise PlaytestError(f"{r.run_dir} seats other strategies than {runs[0].run_dir} in the same games; "
                                "its variants must share seed and seating: re-run it with `playtest sweep`")
    return SweepRuns(root, manifest, runs)


@dataclass
class MetricRows:
    """One metric across the variants: estimates, paired differences from the baseline, the threshold."""

    metric: Metric
    estimates: list[Estimate]
    paired: list[Paired | None]
    threshold: float


def metric_rows(metric: Metric, sweep: SweepRuns, points: float) -> MetricRows:
    """Estimate the metric in every variant and pair each with the baseline."""
    est = [estimate(metric, r) for r in sweep.runs]
    b = sweep.baseline
    threshold = metric.threshold(points, est[b].value)
    base = sweep.runs[b]
    paired = [None if i == b else paired_difference(metric, r, base, threshold, sweep.labels[i])
              for i, r in enumerate(sweep.runs)]
    return MetricRows(metric, est, paired, threshold)


def sweep_figure(rows: MetricRows, sweep: SweepRuns) -> Figure:
    """Two panels: the metric per variant with its 95% interval; the paired difference from the baseline with
    its 95% interval, zero and the ± threshold band."""
    m, b = rows.metric, sweep.baseline
    fig = plots.new_figure(max(6.0, 0.8 * len(sweep.runs) + 3.0), 6.0)
    top, bottom = fig.subplots(2, 1, sharex=True)
    x = np.arange(len(sweep.runs))
    v = np.array([e.value for e in rows.estimates])
    err = np.array([[e.value - e.lo for e in rows.estimates], [e.hi - e.value for e in rows.estimates]])
    top.errorbar(x, v, yerr=np.clip(err, 0, None), fmt="o-", capsize=4, color="tab:blue")
    top.plot([b], [v[b]], "s", color="tab:red", label=f"baseline ({sweep.ticks[b]})")
    top.set_ylabel("rate (%)" if m.rate else "rounds")
    top.set_title(f"{m.title} by variant\n({sweep.runs[0].n_games:,} games each, 95% intervals)")
    top.legend(fontsize=8)
    d = np.array([0.0 if p is None else p.finding.estimate for p in rows.paired])
    derr = np.array([[0.0 if p is None else p.finding.estimate - p.finding.lo for p in rows.paired],
                     [0.0 if p is None else p.finding.hi - p.finding.estimate for p in rows.paired]])
    bottom.axhspan(-rows.threshold, rows.threshold, color="0.85", label=f"± threshold ({rows.threshold:.3g} {m.unit})")
    bottom.axhline(0, color="black", linewidth=0.8)
    bottom.errorbar(x, d, yerr=derr, fmt="o", capsize=4, color="tab:purple", label="variant minus baseline (paired)")
    bottom.set_ylabel(f"difference ({m.unit})")
    bottom.set_xticks(x, sweep.ticks, rotation=30 if max(len(t) for t in sweep.ticks) > 8 else 0)
    bottom.set_xlabel(sweep.axis_title)
    bottom.legend(fontsize=8)
    return fig


def _change(rows: MetricRows, i: int, sweep: SweepRuns) -> str:
    f = rows.paired[i].finding
    return f"{sweep.labels[i]}: {rows.metric.interval(f)}, {f.label}"


def _largest(rows: MetricRows) -> int:
    """The variant whose paired difference from the baseline is largest."""
    return max((i for i, p in enumerate(rows.paired) if p is not None), key=lambda i: abs(rows.paired[i].finding.estimate))


def summary(all_rows: list[MetricRows], sweep: SweepRuns) -> str:
    """The sweep's answer in one paragraph: which metrics move by the threshold (with the largest change),
    and what seat 1's win rate and game length do."""
    moved = [r for r in all_rows if any(p is not None and p.finding.label == "large" for p in r.paired)]
    head = f"Conclusion: varying {sweep.axis_title} (baseline {sweep.labels[sweep.baseline]}) "
    if moved:
        head += "changes " + "; ".join(f"{r.metric.title.lower()} (largest {_change(r, _largest(r), sweep)})"
                                      for r in moved) + "."
    else:
        head += "changes no headline metric by the threshold or more."
    steady = [r for r in all_rows[:2] if r not in moved]
    if steady:
        head += " " + " ".join(f"{r.metric.title} stays within ± {r.threshold:.3g} {r.metric.unit} "
                               f"({' / '.join(sorted({p.finding.label for p in r.paired if p is not None}))})."
                               for r in steady)
    return head


def conclusion(rows: MetricRows, sweep: SweepRuns) -> str:
    """One plain sentence: the metric at the baseline and how each variant moves it, labelled by size."""
    m, b = rows.metric, sweep.baseline
    others = [i for i in range(len(sweep.runs)) if i != b]
    big = [i for i in others if rows.paired[i].finding.label == "large"]
    labels = sorted({rows.paired[i].finding.label for i in others})
    head = f"{m.title}: {m.fmt(rows.estimates[b].value)} at the baseline ({sweep.labels[b]})"
    if big:
        return head + "; changes of at least the threshold: " + "; ".join(_change(rows, i, sweep) for i in big) + (
            f" (others {', '.join(sorted({rows.paired[i].finding.label for i in others if i not in big}))})"
            if len(big) < len(others) else "") + "."
    return head + f"; no variant moves it by {rows.threshold:.3g} {m.unit} or more ({' / '.join(labels)})."


def _table(rows: MetricRows, sweep: SweepRuns) -> pd.DataFrame:
    m = rows.metric
    return pd.DataFrame({
        "variant": [f"{lab}{' (baseline)' if i == sweep.baseline else ''}" for i, lab in enumerate(sweep.labels)],
        f"{m.title} [95% CI]": [e.text(m) for e in rows.estimates],
        f"minus baseline, paired ({m.unit}) [95% CI]": ["" if p is None else m.interval(p.finding, unit=False)
                                                       for p in rows.paired],
        "label": ["" if p is None else p.finding.label for p in rows.paired],
    })


def sample_size_advice(rows: MetricRows) -> str:
    """The games per variant that give each variant an 80% chance of the right label: a true change of twice the
    threshold labelled large, no change labelled negligible; sized on the variant whose paired differences spread
    most (a median over the variants would promise too much for the others), with and without the pairing."""
    pairs = [p for p in rows.paired if p is not None]
    if not any(p.sd_paired > 0 for p in pairs):
        return (f"Sample size: every variant gives {rows.metric.title.lower()} exactly as the baseline does in every game "
                "here, so no number of games would show a difference.")
    worst = max(pairs, key=lambda p: p.sd_paired)
    t, unit = rows.threshold, rows.metric.unit
    cells = []
    for effect, want, name in ((2 * t, "large", "large"), (0.0, "within", "negligible")):
        paired, alone = worst.games_for(effect, t, want), worst.games_for(effect, t, want, paired=False)
        cells.append(f"a true change of {effect:.3g} {unit} labelled {name}: {paired:,} games per variant"
                     + (f" (without common random numbers {alone:,})" if alone and alone > paired else ""))
    return (f"Sample size, for an 80% chance that each variant gets the right label against the {t:.3g}-{unit} "
            f"threshold (sized on the variant whose paired differences spread most, {worst.sd_paired:.3g} {unit} per "
            f"game; {worst.n_games:,} games played): " + "; ".join(cells) + ". Each label's test at 5%: where the "
            "report's Benjamini-Hochberg cut-off is lower, allow more.")


def sweep_sections(sweep: SweepRuns, min_effect: str = DEFAULT_MIN_EFFECT) -> list[Section]:
    """The conclusion, then a figure and table per headline metric, then sample size."""
    fair = stats.expected_share(sweep.runs[sweep.baseline].players)
    points = parse_min_effect(min_effect).points(fair)
    all_rows = [metric_rows(m, sweep, points) for m in headline_metrics(sweep.runs)]
    n = sweep.runs[0].n_games
    mf = sweep.manifest
    grid = pd.DataFrame({"variant": [v["name"] for v in mf["variants"]], "settings": sweep.labels,
                         "directory": [v["dir"] for v in mf["variants"]], "games": [f"{r.n_games:,}" for r in sweep.runs]})
    card = [summary(all_rows, sweep), *(conclusion(r, sweep) for r in all_rows),
            f"{len(sweep.runs)} variants x {n:,} games, seed {mf['seed']}, {mf['n_players']} players, pool "
            f"{', '.join(mf['strategies'])} seated {mf['seating']}. Every variant plays the same games (same seed, same "
            "seats: common random numbers), so each difference is paired game by game and its interval clustered by "
            f"game. Thresholds: {points:.3g} pts for rates, 5% of the baseline's length for game length.",
            Table(grid, "The grid (each variant is a normal run: `playtest report SWEEP/DIR` gives its full report).")]
    note = until_ci_note(mf)
    if note:
        card.append(note)
    out = [Section("Sweep: what the variants change", card)]
    for i, rows in enumerate(all_rows):
        out.append(Section(rows.metric.title, [
            conclusion(rows, sweep),
            Plot(f"m{i:02d}", sweep_figure(rows, sweep),
                 f"{rows.metric.title} per variant (top) and the paired difference from the baseline (bottom)."),
            Table(_table(rows, sweep), f"{rows.metric.title}: each variant and its paired difference from the baseline."),
        ]))
    out.append(Section("Sample size", [sample_size_advice(all_rows[0])]))
    return out


def write_sweep_report(root: str | Path, out: str | Path | None = None,
                       min_effect: str = DEFAULT_MIN_EFFECT) -> tuple[Path, str]:
    """Write the sweep report (index.html, report.md, PNGs) to ``out`` (default SWEEP/report); return its
    index.html and the one-line conclusion."""
    from analysis.report import _write, state_tests

    sweep = load_sweep(root)
    out = Path(out) if out else sweep.root / "report"
    writable_dir(out)
    sections, ledger = fdr(lambda: sweep_sections(sweep, min_effect))
    title = f"{sweep.runs[0].title} sweep over {sweep.axis_title}"
    return _write(sweep.runs, state_tests(sections, ledger), title, out), str(sections[0].blocks[0])


def sweep_width(metric_key: str) -> Callable[[Path], float]:
    """--until-ci for a sweep: the widest 95% interval, over the variants, of the metric's paired difference
    from the baseline (display units)."""
    def width(root: Path) -> float:
        manifest = read_sweep(root)
        runs = [load_run(root / v["dir"], games_columns=[], players_columns=[]) for v in manifest["variants"]]
        sweep = SweepRuns(root, manifest, runs)
        metric = parse_metric(metric_key, study_like(runs[0].game, runs[0].n_players, runs[0].lineup))
        rows = metric_rows(metric, sweep, 1.0)
        return max(p.finding.hi - p.finding.lo for p in rows.paired if p is not None)
    return width


def run_width(metric_key: str) -> Callable[[Path], float]:
    """--until-ci for a run: the width of the metric's 95% interval (display units)."""
    def width(run_dir: Path) -> float:
        run = load_run(run_dir, games_columns=[], players_columns=[])
        return estimate(parse_metric(metric_key, study_like(run.game, run.n_players, run.lineup)), run).width
    return width

