"""Statistics summed chunk by chunk (a run's Parquet parts, ``Run.chunks``): counts of distinct rows, exact
quantiles from counts, and game-clustered least squares from sufficient statistics. Memory holds one chunk and
the sums, never every game, and a frame in memory is one chunk, so both paths give the same numbers.

Each statistic is an accumulator (``add`` a chunk, then ``result``), so independent ones share a pass (``scan``),
and a statistic of a stored run's rows (a ``Stream``) is computed once per report (``memoized``, ``prefetch``):
reading and decoding the parts is most of a streamed report's cost."""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Protocol, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps


class Accumulator(Protocol):
    """A statistic summed chunk by chunk: ``add`` each chunk in order, then ``result``. Several fed by one ``scan``
    share a pass over the parts (each part read and decoded once for all of them)."""

    def add(self, chunk: pd.DataFrame) -> None: ...

    def result(self) -> Any: ...


def scan(frames: Iterable[pd.DataFrame], *accumulators: Accumulator) -> list:
    """Feed every frame to each accumulator in turn (one pass for them all); their results, in order."""
    for f in frames:
        for a in accumulators:
            a.add(f)
    return [a.result() for a in accumulators]


class Mapped:
    """An accumulator fed ``fn(chunk)`` instead of the chunk (e.g. a column derived from the chunk's rows)."""

    def __init__(self, fn: Callable[[pd.DataFrame], pd.DataFrame], inner: Accumulator) -> None:
        self.fn, self.inner = fn, inner

    def add(self, chunk: pd.DataFrame) -> None:
        self.inner.add(self.fn(chunk))

    def result(self) -> Any:
        return self.inner.result()


class Counts:
    """``value_counts`` as an accumulator."""

    def __init__(self, keys: Sequence[str], sort: bool = True) -> None:
        self.keys, self.sort, self.pieces = list(keys), sort, []

    def add(self, f: pd.DataFrame) -> None:
        if not len(f):
            return
        c = f.groupby(self.keys, observed=True, sort=False, dropna=False).size().reset_index(name="n")
        for k in self.keys:
            if isinstance(c[k].dtype, pd.CategoricalDtype):
                c[k] = c[k].astype(str)
        self.pieces.append(c)

    def result(self) -> pd.DataFrame:
        keys = self.keys
        if not self.pieces:
            return pd.DataFrame({**{k: [] for k in keys}, "n": np.zeros(0, np.int64)})
        out = pd.concat(self.pieces, ignore_index=True).groupby(keys, sort=self.sort, dropna=False)["n"].sum().reset_index()
        out["n"] = out["n"].astype(np.int64)
        return out


def value_counts(frames: Iterable[pd.DataFrame], keys: Sequence[str], sort: bool = True) -> pd.DataFrame:
    """Each distinct combination of ``keys`` with its number of rows (column ``n``), over every frame, sorted (or
    in order of first appearance); categorical keys come back as strings (parts carry their own categories)."""
    return scan(frames, Counts(keys, sort))[0]


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


class Gram:
    """X'X, X'y, rows and games of a design, as an accumulator (``gram``)."""

    def __init__(self, design: Design) -> None:
        self.design, self.xtx, self.xty, self.n, self.games = design, None, None, 0, 0

    def add(self, chunk: pd.DataFrame) -> None:
        y, x, g = self.design(chunk)
        if self.xtx is None:
            self.xtx, self.xty = np.zeros((x.shape[1], x.shape[1])), np.zeros(x.shape[1])
        self.xtx += x.T @ x
        self.xty += x.T @ y
        self.n += len(y)
        self.games += int(len(g) and 1 + np.count_nonzero(g[1:] != g[:-1]))

    def result(self) -> tuple[np.ndarray, np.ndarray, int, int]:
        return self.xtx, self.xty, self.n, self.games


def gram(chunks: Callable[[], Iterable[pd.DataFrame]], design: Design) -> tuple[np.ndarray, np.ndarray, int, int]:
    """X'X, X'y, rows and games over every chunk (one pass)."""
    return scan(chunks(), Gram(design))[0]


class Scores:
    """The second pass of ``cluster_fit`` as an accumulator: the coefficients from a ``gram``'s sums (``keep``: the
    columns of X to use), then the per-game scores' outer products at them; ``result`` is the ``ClusterFit``."""

    def __init__(self, design: Design, stats: tuple[np.ndarray, np.ndarray, int, int],
                 keep: Sequence[int] | None = None) -> None:
        xtx, xty, self.n, self.games = stats
        self.cols = np.arange(len(xty)) if keep is None else np.asarray(keep)
        xtx, xty = xtx[np.ix_(self.cols, self.cols)], xty[self.cols]
        self.design, self.inv = design, np.linalg.pinv(xtx)
        self.beta = self.inv @ xty
        self.meat = np.zeros_like(xtx)

    def add(self, chunk: pd.DataFrame) -> None:
        y, x, g = self.design(chunk)
        x = x[:, self.cols]
        u = _game_sums(x * (y - x @ self.beta)[:, None], g)
        self.meat += u.T @ u

    def result(self) -> ClusterFit:
        k, n, games = len(self.cols), self.n, self.games
        cov = self.inv @ self.meat @ self.inv * (games / (games - 1)) * ((n - 1) / (n - k))
        return ClusterFit(self.beta, cov, n, games)


def cluster_fit(chunks: Callable[[], Iterable[pd.DataFrame]], design: Design, keep: Sequence[int] | None = None,
                stats: tuple[np.ndarray, np.ndarray, int, int] | None = None) -> ClusterFit:
    """Game-clustered OLS over every chunk in two passes (coefficients, then the scores at them); ``keep``: the
    columns of X to use (e.g. ``independent_columns`` of the Gram matrix), ``stats``: a ``gram`` already summed."""
    return scan(chunks(), Scores(design, stats if stats is not None else gram(chunks, design), keep))[0]


class Stream:
    """Rows of a stored run, chunk by chunk: calling it yields them anew (``Rows``). It carries a key (what is read)
    and its run's memo, so a ``memoized`` statistic of the same rows is computed in one pass per report."""

    def __init__(self, source: Callable[[], Iterable[pd.DataFrame]], key: Hashable, memo: dict) -> None:
        self._source, self.key, self.memo = source, key, memo

    def __call__(self) -> Iterable[pd.DataFrame]:
        return self._source()


def memoized(accumulator: Callable[..., Accumulator]) -> Callable[[Callable], Callable]:
    """Decorate ``fn(rows, *args)``, the result of ``accumulator(*args)`` fed every chunk of ``rows``: computed once
    per ``Stream`` key and arguments (the run's memo keeps it and hands out copies), or ahead, sharing one pass
    with others (``prefetch``); rows in memory, or a plain function of chunks, are computed each time."""
    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(rows, *args):
            if not isinstance(rows, Stream):
                return fn(rows, *args)
            key = wrapper.memo_key(rows, args)
            if key not in rows.memo:
                rows.memo[key] = fn(rows, *args)
            return copy.deepcopy(rows.memo[key])
        wrapper.memo_key = lambda rows, args: (fn.__module__, fn.__qualname__, rows.key, tuple(args))
        wrapper.accumulator = accumulator
        return wrapper
    return decorate


def prefetch(rows, *calls: tuple) -> None:
    """Compute the ``memoized`` statistics ``calls`` of a ``Stream`` (each ``(fn, *args)``) that its memo lacks, in one
    pass together, so that the calls which follow find them there; nothing for rows in memory."""
    if not isinstance(rows, Stream):
        return
    todo = {}
    for fn, *args in calls:
        key = fn.memo_key(rows, args)
        if key not in rows.memo:
            todo[key] = fn.accumulator(*args)
    rows.memo.update(zip(todo, scan(rows(), *todo.values())) if todo else ())


Rows = "pd.DataFrame | Callable[[], Iterable[pd.DataFrame]]"
"""Rows of a run: a frame in memory, or a function that yields them anew chunk by chunk (whole games per chunk,
in game order), e.g. ``lambda: (p for _, p in run.chunks([], columns))``."""


def chunks(rows) -> Iterable[pd.DataFrame]:
    """The chunks of ``rows`` (a frame is one chunk)."""
    return [rows] if isinstance(rows, pd.DataFrame) else rows()


def keyed(values: pd.Series) -> np.ndarray:
    """A grouping key's values as plain numpy (categories as their strings, so chunks' categories agree)."""
    if not isinstance(values.dtype, pd.CategoricalDtype):
        return values.to_numpy()
    cat = values.array
    if cat.codes.size and cat.codes.min() < 0:  # a missing value: as astype(str) spells it
        return values.astype(str).to_numpy()
    return cat.categories.astype(str).to_numpy()[cat.codes]  # each category's string once, not once per row


def codes_of(values: pd.Series, names: Sequence[str] | None = None) -> tuple[np.ndarray, list[str]]:
    """Codes (int64, -1 for a value not in ``names``) of the values read as strings, and ``names`` (default: the
    values present, sorted): ``pd.Categorical(values.astype(str), categories=names)`` without a string per row."""
    if not isinstance(values.dtype, pd.CategoricalDtype) or (values.array.codes.size and values.array.codes.min() < 0):
        cat = pd.Categorical(values.astype(str), categories=names)
        return np.asarray(cat.codes, np.int64), [str(c) for c in cat.categories]
    cat = values.array
    own = cat.categories.astype(str)
    if names is None:
        names = sorted(own[np.unique(cat.codes)])
    lookup = pd.Index(list(names)).get_indexer(own)
    return lookup.astype(np.int64)[cat.codes], [str(c) for c in names]


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
