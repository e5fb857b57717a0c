"""Statistics summed chunk by chunk (a run's Parquet parts, ``Run.chunks``): counts of distinct rows, exact
quantiles from counts, and game-clustered least squares from sufficient statistics. Memory holds one chunk and
the sums, never every game, and a frame in memory is one chunk, so both paths give the same numbers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps


def value_counts(frames: Iterable[pd.DataFrame], keys: Sequence[str], sort: bool = True) -> pd.DataFrame:
    """Each distinct combination of ``keys`` with its number of rows (column ``n``), over every frame, sorted (or
    in order of first appearance); categorical keys come back as strings (parts carry their own categories)."""
    keys = list(keys)
    pieces = []
    for f in frames:
        if not len(f):
            continue
        c = f.groupby(keys, observed=True, sort=False, dropna=False).size().reset_index(name="n")
        for k in keys:
            if isinstance(c[k].dtype, pd.CategoricalDtype):
                c[k] = c[k].astype(str)
        pieces.append(c)
    if not pieces:
        return pd.DataFrame({**{k: [] for k in keys}, "n": np.zeros(0, np.int64)})
    out = pd.concat(pieces, ignore_index=True).groupby(keys, sort=sort, dropna=False)["n"].sum().reset_index()
    out["n"] = out["n"].astype(np.int64)
    return out


def _lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """numpy's linear interpolation between neighbouring order statistics (the same rounding as np.quantile)."""
    d = b - a
    return np.where(t >= 0.5, b - d * (1 - t), a + d * t)


def quantiles(values: np.ndarray, counts: np.ndarray, qs: Sequence[float]) -> np.ndarray:
    """The ``qs`` quantiles (numpy's default 'linear' method) of the sample in which each of the sorted ``values``
    occurs ``counts`` times: exactly what np.quantile gives on the expanded sample, without expanding it."""
    n = int(counts.sum())
    qs = np.asarray(qs, float)
    virtual = (n - 1) * qs
    prev = np.floor(virtual).astype(np.int64)
    gamma = virtual - prev
    prev = np.clip(prev, 0, n - 1)
    nxt = np.clip(prev + 1, 0, n - 1)
    ends = np.cumsum(counts)  # order statistic i is values[searchsorted(ends, i, 'right')]
    at = lambda i: values[np.searchsorted(ends, i, side="right")]  # noqa: E731
    return _lerp(at(prev).astype(float), at(nxt).astype(float), gamma)


def describe_counts(counts: pd.Series, alpha: float = 0.05) -> pd.Series:
    """``stats.describe`` of the sample given as value -> count (NaN values left out): n, mean with its 95%
    interval, sd and the 5/25/50/75/95% quantiles, from the counts alone."""
    counts = counts[(counts > 0) & counts.index.notna()].sort_index()
    v = counts.index.to_numpy(float)
    c = counts.to_numpy(np.int64)
    n = int(c.sum())
    mean = float((v * c).sum() / n) if n else np.nan
    sd = float(np.sqrt((c * (v - mean) ** 2).sum() / (n - 1))) if n > 1 else np.nan
    half = sps.norm.ppf(1 - alpha / 2) * sd / np.sqrt(n) if n > 1 else np.nan
    q = quantiles(v, c, [0.05, 0.25, 0.5, 0.75, 0.95]) if n else [np.nan] * 5
    return pd.Series({"n": n, "mean": mean, "mean_lo": mean - half, "mean_hi": mean + half, "sd": sd,
                      "min": v[0] if n else np.nan, "p5": q[0], "p25": q[1], "median": q[2], "p75": q[3], "p95": q[4],
                      "max": v[-1] if n else np.nan})


def counts_of(frame: pd.DataFrame, value: str) -> pd.Series:
    """value -> count Series from a ``value_counts`` frame (summed over its other keys)."""
    return frame.groupby(value, sort=True)["n"].sum()


@dataclass
class ClusterFit:
    """OLS with errors clustered by game, as statsmodels computes it (cov_type='cluster': sandwich of the summed
    per-game scores, times G/(G-1) * (N-1)/(N-K)), from X'X, X'y and the per-game scores' outer products."""

    params: np.ndarray
    cov: np.ndarray
    nobs: int
    n_groups: int

    @property
    def bse(self) -> np.ndarray:
        return np.sqrt(np.clip(np.diag(self.cov), 0, None))

    def cov_params(self) -> np.ndarray:
        return self.cov

    def wald(self, r: np.ndarray) -> tuple[float, int, float]:
        """Chi-square Wald test that r @ params = 0: statistic, df (the rank of its covariance) and p-value."""
        rb = r @ self.params
        v = r @ self.cov @ r.T
        df = int(np.linalg.matrix_rank(v))
        chi2 = float(rb @ np.linalg.pinv(v) @ rb)
        return chi2, df, float(sps.chi2.sf(chi2, df))


Design = Callable[[pd.DataFrame], tuple[np.ndarray, np.ndarray, np.ndarray]]
"""A chunk of rows -> (y, X, game of each row); rows of one game are contiguous and never split across chunks."""


def _game_sums(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Column sums of ``values`` over each run of equal ``groups`` (rows sorted by game)."""
    if not len(groups):
        return np.zeros((0, values.shape[1]))
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    return np.add.reduceat(values, starts, axis=0)


def gram(chunks: Callable[[], Iterable[pd.DataFrame]], design: Design) -> tuple[np.ndarray, np.ndarray, int, int]:
    """X'X, X'y, rows and games over every chunk (one pass)."""
    xtx = xty = None
    n = games = 0
    for chunk in chunks():
        y, x, g = design(chunk)
        if xtx is None:
            xtx, xty = np.zeros((x.shape[1], x.shape[1])), np.zeros(x.shape[1])
        xtx += x.T @ x
        xty += x.T @ y
        n += len(y)
        games += int(len(g) and 1 + np.count_nonzero(g[1:] != g[:-1]))
    return xtx, xty, n, games


def cluster_fit(chunks: Callable[[], Iterable[pd.DataFrame]], design: Design, keep: Sequence[int] | None = None,
                stats: tuple[np.ndarray, np.ndarray, int, int] | None = None) -> ClusterFit:
    """Game-clustered OLS over every chunk in two passes (coefficients, then the scores at them); ``keep``: the
    columns of X to use (e.g. ``independent_columns`` of the Gram matrix), ``stats``: a ``gram`` already summed."""
    xtx, xty, n, games = stats if stats is not None else gram(chunks, design)
    cols = np.arange(len(xty)) if keep is None else np.asarray(keep)
    xtx, xty = xtx[np.ix_(cols, cols)], xty[cols]
    inv = np.linalg.pinv(xtx)
    beta = inv @ xty
    meat = np.zeros_like(xtx)
    for chunk in chunks():
        y, x, g = design(chunk)
        x = x[:, cols]
        u = _game_sums(x * (y - x @ beta)[:, None], g)
        meat += u.T @ u
    k = len(cols)
    cov = inv @ meat @ inv * (games / (games - 1)) * ((n - 1) / (n - k))
    return ClusterFit(beta, cov, n, games)


Rows = "pd.DataFrame | Callable[[], Iterable[pd.DataFrame]]"
"""Rows of a run: a frame in memory, or a function that yields them anew chunk by chunk (whole games per chunk,
in game order), e.g. ``lambda: (p for _, p in run.chunks([], columns))``."""


def chunks(rows) -> Iterable[pd.DataFrame]:
    """The chunks of ``rows`` (a frame is one chunk)."""
    return [rows] if isinstance(rows, pd.DataFrame) else rows()


def keyed(values: pd.Series) -> np.ndarray:
    """A grouping key's values as plain numpy (categories as their strings, so chunks' categories agree)."""
    return values.astype(str).to_numpy() if isinstance(values.dtype, pd.CategoricalDtype) else values.to_numpy()


def head_rows(rows, n_games: int) -> pd.DataFrame:
    """The rows of the first ``n_games`` games (rows in game order), in memory: a fixed sample for a diagnostic."""
    taken, games = [], 0
    for f in chunks(rows):
        first = np.r_[True, f["game_index"].to_numpy()[1:] != f["game_index"].to_numpy()[:-1]] if len(f) else np.zeros(0, bool)
        upto = np.cumsum(first) + games
        taken.append(f[upto <= n_games])
        games = int(upto[-1]) if len(upto) else games
        if games >= n_games:
            break
    return taken[0] if len(taken) == 1 else pd.concat(taken, ignore_index=True)


def mapped(rows, fn: Callable[[pd.DataFrame], pd.DataFrame]):
    """``rows`` with ``fn`` applied to each chunk (to a frame in memory at once)."""
    if isinstance(rows, pd.DataFrame):
        return fn(rows)
    return lambda: (fn(c) for c in rows())
