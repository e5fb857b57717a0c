"""Matplotlib figures a designer reads without the code: titles, units, 1/n reference lines, 95% error bars.

Figures are built on ``matplotlib.figure.Figure`` with the Agg canvas (never pyplot), so reports
leak no global state and notebooks keep their own backend.
"""

from __future__ import annotations

import io
import textwrap
from typing import Sequence

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analysis.aggregate import quantiles
from analysis.stats import SeatBalance, seat_label

LEGEND_WRAP = 100
"""Characters per legend line: a long variant label (several rules fields) wraps instead of leaving the figure."""
EXPECTED_STYLE = {"color": "tab:red", "linestyle": "--", "linewidth": 1.2}


def new_figure(width: float = 7.0, height: float = 4.0) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def to_png(fig: Figure, dpi: int = 100) -> bytes:
    """PNG bytes of a figure (for embedding in HTML or saving)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def _errors(table: pd.DataFrame, value: str, scale: float) -> np.ndarray:
    v = table[value].to_numpy(float)
    return np.clip(np.vstack([v - table["lo"].to_numpy(float), table["hi"].to_numpy(float) - v]) * scale, 0, None)


def rate_bars(table: pd.DataFrame, title: str, xlabel: str, ylabel: str = "win rate (%)",
              expected: float | None = None, labels: Sequence[str] | None = None, value: str = "rate",
              percent: bool = True) -> Figure:
    """Bars of a rate (or mean) per group with 95% error bars (lo/hi columns) and an expected-value line."""
    fig = new_figure(max(5.0, 0.9 * len(table) + 2.5), 4.0)
    ax = fig.add_subplot()
    scale = 100.0 if percent else 1.0
    names = [str(x) for x in (labels if labels is not None else table.index)]
    x = np.arange(len(table))
    ax.bar(x, table[value].to_numpy(float) * scale, color="tab:blue", alpha=0.75,
           yerr=_errors(table, value, scale), capsize=4, ecolor="black", label="observed, 95% interval")
    if expected is not None:
        ax.axhline(expected * scale, **EXPECTED_STYLE, label=f"expected with no effect ({expected * scale:.1f}{'%' if percent else ''})")
    long = max((len(line) for n in names for line in n.split("\n")), default=0) > 10
    ax.set_xticks(x, names, rotation=30 if long else 0, ha="right" if long else "center")
    top = np.nanmax(np.append(table["hi"].to_numpy(float) * scale, (expected or 0) * scale))
    if np.isfinite(top) and top > 0:
        ax.set_ylim(0 if np.nanmin(table["lo"].to_numpy(float)) >= 0 else None, top * 1.3)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper right", fontsize=8)
    if "n" in table.columns:
        for xi, n in zip(x, table["n"]):
            ax.annotate(f"n={int(n):,}", (xi, 0), xytext=(0, 3), textcoords="offset points", ha="center", fontsize=7,
                        color="black", bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
    return fig


def seat_win_rates(balance: SeatBalance, title: str | None = None) -> Figure:
    """Win rate per seat with Wilson 95% intervals against the equal-share line."""
    labels = [seat_label(s).replace(" (first player)", "\n(first)") for s in balance.table.index]
    return rate_bars(balance.table, title or f"Win rate by seat ({balance.n_games:,} games)", "seat (turn order)",
                     expected=balance.expected, labels=labels)


def strategy_win_rates(table: pd.DataFrame, n_games: int, title: str | None = None) -> Figure:
    """Win rate per strategy (share of seats it played that it won) with Wilson 95% intervals."""
    exp = float(table["expected"].iloc[0]) if "expected" in table.columns and len(table) else None
    return rate_bars(table, title or f"Win rate by strategy ({n_games:,} games)", "strategy", expected=exp)


def ratings_plot(ratings: pd.DataFrame, n_games: int) -> Figure:
    """Bradley-Terry ratings on the Elo scale with bootstrap 95% intervals (0 = average strategy)."""
    fig = new_figure(8.0, max(2.5, 0.5 * len(ratings) + 1.5))
    ax = fig.add_subplot()
    r = ratings.iloc[::-1]
    y = np.arange(len(r))
    err = np.clip(np.vstack([r["rating"] - r["lo"], r["hi"] - r["rating"]]).astype(float), 0, None)
    ax.errorbar(r["rating"], y, xerr=np.nan_to_num(err), fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0, **EXPECTED_STYLE, label="average strategy")
    ax.set_yticks(y, r["strategy"])
    ax.set_xlabel("rating (Elo points; +100 = finishes above the average strategy 64% of the time)")
    ax.set_title(f"Strategy ratings (Bradley-Terry, 95% bootstrap intervals, {n_games:,} games)")
    ax.legend(fontsize=8)
    return fig


def heatmap(matrix: pd.DataFrame, title: str, xlabel: str, ylabel: str, fmt: str = "{:.0%}",
            cmap: str = "RdBu", center: float | None = 0.5, min_span: float = 0.1, cbar_label: str = "") -> Figure:
    """Annotated matrix (e.g. head-to-head rates, cubes per action and slot); NaN cells left blank.

    With ``center`` the colour scale is symmetric around it and spans at least ``min_span``, so
    differences of a point or two do not look dramatic. Cell text is white on dark cells.
    """
    fig = new_figure(max(4.5, 0.9 * matrix.shape[1] + 3.0), max(3.0, 0.6 * matrix.shape[0] + 1.8))
    ax = fig.add_subplot()
    vals = matrix.to_numpy(float)
    finite = vals[np.isfinite(vals)]
    if center is not None and finite.size:
        span = max(abs(finite.max() - center), abs(finite.min() - center), min_span)
        vmin, vmax = center - span, center + span
    else:
        vmin, vmax = (min(0.0, finite.min()), finite.max()) if finite.size else (0, 1)
    im = ax.imshow(np.ma.masked_invalid(vals), cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(matrix.shape[1]), [str(c) for c in matrix.columns], rotation=30, ha="right")
    ax.set_yticks(range(matrix.shape[0]), [str(i) for i in matrix.index])
    for (i, j), v in np.ndenumerate(vals):
        if np.isfinite(v):
            r, g, b, _ = im.cmap(im.norm(v))
            dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    bar = fig.colorbar(im, ax=ax, shrink=0.8)
    bar.set_label(cbar_label)
    return fig


def head_to_head(matrix: pd.DataFrame, n_games: int, order: Sequence[str] | None = None) -> Figure:
    """Share of meetings in which the row strategy finished above the column strategy, strongest first."""
    if order is not None:
        keep = [s for s in order if s in matrix.index]
        matrix = matrix.reindex(index=keep, columns=keep)
    return heatmap(matrix, f"Head-to-head: row finishes above column ({n_games:,} games)",
                   "opponent strategy", "strategy (strongest first)",
                   cbar_label="share of meetings won by the row")


def count_histogram(values: pd.Series, title: str, xlabel: str, ylabel: str = "share of games (%)",
                    tail: float = 0.995) -> Figure:
    """Distribution of a whole-number quantity as the percentage at each value, with the median marked."""
    return count_histogram_counts(pd.Series(values).dropna().astype(float).value_counts(), title, xlabel, ylabel, tail)


def count_histogram_counts(counts: pd.Series, title: str, xlabel: str, ylabel: str = "share of games (%)",
                           tail: float = 0.995) -> Figure:
    """``count_histogram`` of the sample given as value -> count (so a run's parts need not be held at once).

    A long tail is gathered into one overflow bar ("N+") at the ``tail`` quantile, so a handful of
    extreme games do not stretch the axis.
    """
    fig = new_figure()
    ax = fig.add_subplot()
    counts = counts[counts > 0].sort_index()
    counts.index = counts.index.astype(float)
    v, c = counts.index.to_numpy(float), counts.to_numpy(np.int64)
    n = int(c.sum())
    cap = float(np.ceil(quantiles(v, c, [tail])[0])) + 1 if n else 0.0
    overflow = n and v[-1] > cap + 1
    shown = counts.groupby(np.minimum(v, cap)).sum() if overflow else counts
    colors = ["tab:orange" if overflow and x >= cap else "tab:blue" for x in shown.index]
    ax.bar(shown.index.to_numpy(float), 100.0 * shown.to_numpy() / max(n, 1), width=0.8, color=colors, alpha=0.75)
    if overflow:
        ax.annotate(f"{cap:g}+ (max {v[-1]:g})", (cap, 100.0 * shown.iloc[-1] / n), xytext=(4, 4),
                    textcoords="offset points", ha="right", fontsize=7)
    if n:
        median, mean = quantiles(v, c, [0.5])[0], float((v * c).sum() / n)
        ax.axvline(float(median), color="black", linestyle=":", label=f"median {median:g}, mean {mean:.2f}")
        ax.legend(fontsize=8)
    ax.set_title(title)
    ax.set_xlabel(xlabel + (f" (last bar: {cap:g} or more)" if overflow else ""))
    ax.set_ylabel(ylabel)
    return fig


def category_shares(table: pd.DataFrame, title: str, xlabel: str) -> Figure:
    """Share of each category (``proportion_table`` output) with Wilson 95% intervals."""
    t = table.rename(columns={"share": "rate", "count": "n"})
    return rate_bars(t, title, xlabel, ylabel="share of games (%)")


MIN_BIN = 200
"""Trend lines hide x values with fewer rows than this: their intervals are too wide to read."""


def line_with_band(table: pd.DataFrame, x: str, title: str, xlabel: str, ylabel: str, value: str = "rate",
                   percent: bool = True, expected: float | None = None, by: str | None = None,
                   min_n: int = MIN_BIN) -> Figure:
    """A rate or mean against an ordered x (round, distance...) with its 95% band; one line per ``by`` group.

    Points backed by fewer than ``min_n`` rows (column ``n``) are left out and the title says so.
    """
    fig = new_figure()
    ax = fig.add_subplot()
    scale = 100.0 if percent else 1.0
    if "n" in table.columns and (table["n"] < min_n).any():
        table = table[table["n"] >= min_n]
        title += f"\n(values with fewer than {min_n} player-games hidden)"
    groups = [(None, table)] if by is None else list(table.groupby(by, observed=True, sort=True))
    for name, g in groups:
        g = g.sort_values(x)
        ax.plot(g[x], g[value] * scale, marker="o", label=None if name is None else str(name))
        ax.fill_between(g[x].to_numpy(float), g["lo"].to_numpy(float) * scale, g["hi"].to_numpy(float) * scale, alpha=0.2)
    if expected is not None:
        ax.axhline(expected * scale, **EXPECTED_STYLE, label="expected with no effect")
    if by is not None or expected is not None:
        ax.legend(fontsize=8)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return fig


def seat_ratio(analyses: Sequence, turn_order: bool = True) -> Figure:
    """Seat win rate as a multiple of the fair share, one series per run, adjusted for strategy where possible, each
    with its own threshold band; ``turn_order`` False for simultaneous games (the axis is then seat, not order)."""
    fig = new_figure(8.0, 3.4)
    ax = fig.add_subplot()
    k = len(analyses)
    width = 0.6 / max(k, 1)
    n_seats = max((a.run.n_players for a in analyses), default=0)
    drawn_band = False
    for i, a in enumerate(analyses):
        fair = a.fair
        if fair <= 0 or a.design.status == "confounded":  # seat and strategy cannot be told apart: no seat series
            continue
        if a.model is not None:
            t = a.model.seats
            ratio, lo, hi = t["ratio"].to_numpy(), t["ratio_lo"].to_numpy(), t["ratio_hi"].to_numpy()
        else:
            t = a.balance.table
            ratio, lo, hi = (t["rate"] / fair).to_numpy(), (t["lo"] / fair).to_numpy(), (t["hi"] / fair).to_numpy()
        x = np.arange(len(ratio)) + (i - (k - 1) / 2) * width
        kind = "" if a.model is not None else " (raw)"
        bars = ax.errorbar(x, ratio, yerr=np.clip(np.vstack([ratio - lo, hi - ratio]), 0, None), fmt="o", capsize=3,
                           label=f"{a.run.label}{kind}")
        band = a.threshold / (100.0 * fair)  # this run's own threshold as a share of its own fair rate
        for xi in x:
            ax.fill_between([xi - width / 2, xi + width / 2], 1 - band, 1 + band, color=bars[0].get_color(),
                            alpha=0.15, linewidth=0, label=None if drawn_band else "± threshold (each run's own)")
            drawn_band = True
    ax.axhline(1.0, **EXPECTED_STYLE, label="fair share")
    ax.set_xticks(range(n_seats), [f"{s + 1}" + (" (first)" if s == 0 and turn_order else "") for s in range(n_seats)])
    ax.set_xlabel("seat (turn order)" if turn_order else "seat (turns are simultaneous: no first player)")
    ax.set_ylabel("win rate / fair share")
    ax.set_title("Seat advantage: win rate as a multiple of the fair share, 95% intervals")
    ax.legend(fontsize=8)
    return fig


def convergence(curve: pd.DataFrame, fair: float, title: str) -> Figure:
    """The running estimate of a win rate and its 95% interval after the first N games (from the data)."""
    fig = new_figure()
    ax = fig.add_subplot()
    ax.plot(curve["games"], 100.0 * curve["rate"], marker="o", label="estimate after N games")
    ax.fill_between(curve["games"].to_numpy(float), 100.0 * curve["lo"].to_numpy(float), 100.0 * curve["hi"].to_numpy(float),
                    alpha=0.25, label="95% interval")
    ax.axhline(100.0 * fair, **EXPECTED_STYLE, label=f"fair share ({100 * fair:.1f}%)")
    ax.set_xscale("log")
    ax.set_title(title)
    ax.set_xlabel("games played (log scale)")
    ax.set_ylabel("win rate (%)")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    return fig


def seat_gaps(labels: Sequence[str], findings: Sequence[Sequence], threshold: float) -> Figure:
    """Each seat's win rate minus the fair share (points, 95% intervals), one series per variant, the ± threshold
    shaded: the balance search's answer at a glance."""
    names = [textwrap.fill(label if i else f"{label} (rules as printed)", LEGEND_WRAP)
             for i, label in enumerate(labels)]
    ncol = 2 if all("\n" not in n and len(n) <= LEGEND_WRAP // 2 for n in names) else 1
    lines = sum(n.count("\n") + 1 for n in names) / ncol
    fig = new_figure(8.0, 4.5 + 0.22 * lines)
    ax = fig.add_subplot()
    k = len(labels)
    width = 0.7 / max(k, 1)
    n_seats = max((len(f) for f in findings), default=0)
    ax.axhspan(-threshold, threshold, color="tab:green", alpha=0.12, linewidth=0, label=f"± {threshold:g} pts")
    ax.axhline(0.0, **EXPECTED_STYLE, label="fair share")
    for i, (label, fs) in enumerate(zip(names, findings)):
        est = np.array([f.estimate for f in fs])
        lo, hi = np.array([f.lo for f in fs]), np.array([f.hi for f in fs])
        x = np.arange(len(fs)) + (i - (k - 1) / 2) * width
        ax.errorbar(x, est, yerr=np.clip(np.vstack([est - lo, hi - est]), 0, None), fmt="o", capsize=3,
                    label=label)
    ax.set_xticks(range(n_seats), [str(s + 1) for s in range(n_seats)])
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate minus fair share (pts)")
    ax.set_title("Seat effects on fresh seeds, 95% intervals")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=ncol)
    return fig
