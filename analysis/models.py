"""Seat and strategy effects that are told apart: the seating design check, a seat + strategy model with
game-clustered errors (statsmodels), its fit diagnostics, and comparisons adjusted for confounders.

Every model here is a linear probability model of ``win_share`` on player rows (one row per game and
seat) fitted by statsmodels OLS with errors clustered by game: its coefficients are win-rate points,
and the clustering accounts for one player's win being another's loss in the same game.
"""

from __future__ import annotations

import itertools
import re
import warnings
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
import pandas as pd
import patsy
from statsmodels.base import model as base
from statsmodels.discrete.conditional_models import ConditionalLogit
from statsmodels.regression.linear_model import OLS
from scipy import stats as sps
from scipy.special import logsumexp
from statsmodels.stats.contingency_tables import StratifiedTable
from statsmodels.tools.sm_exceptions import ValueWarning

from analysis.aggregate import (Accumulator, Counts, Gram, Mapped, Scores, chunks, cluster_fit, codes_of, gram, head_rows,
                                keyed, memoized, quantiles, scan, value_counts)
from analysis.keep import kept
from analysis.stats import strategy_names
from analysis.verdicts import Finding, finding

Z95 = float(sps.norm.ppf(0.975))
DIAGNOSTIC_GAMES = 250_000
"""The interaction and neighbour checks use the first this-many games (games are independent draws): larger
models on every row of a million-game run would need gigabytes for checks this sample already resolves."""


def _deviation(codes: np.ndarray, k: int) -> np.ndarray:
    """Sum-to-zero (deviation) coding of integer codes 0..k-1: k-1 columns; level k-1 is -1 everywhere."""
    out = np.zeros((len(codes), k - 1))
    for j in range(k - 1):
        out[:, j] = (codes == j).astype(float) - (codes == k - 1)
    return out


def _all_levels(k: int) -> np.ndarray:
    """Rows mapping the k-1 deviation coefficients to the k level effects (the last is minus their sum)."""
    return np.vstack([np.eye(k - 1), -np.ones((1, k - 1))]) if k > 1 else np.zeros((1, 0))


def cluster_ols(y: np.ndarray, x: np.ndarray, groups: np.ndarray):
    """statsmodels OLS with errors clustered by ``groups`` (the game of each player row)."""
    return OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})


def _full_rank(x: np.ndarray) -> bool:
    return np.linalg.matrix_rank(x.T @ x) == x.shape[1]


@dataclass
class Design:
    """How the seating spread strategies over seats, orders and neighbours; whether it passes."""

    status: str  # passed | failed | confounded | mirror
    seat_counts: pd.DataFrame  # strategy x seat
    orders: pd.DataFrame  # pair, meetings, share first, p
    neighbours: pd.DataFrame  # strategy, successor shares, p
    problems: list[str] = field(default_factory=list)

    @property
    def separates(self) -> bool:
        """Seat and strategy effects can be estimated apart (the model is identified)."""
        return self.status in ("passed", "failed", "mirror")


def _codes(players: pd.DataFrame, names: list[str] | None = None, n: int | None = None) -> tuple[np.ndarray, list[str], int]:
    """Strategy codes as a [games, seats] array (rows sorted by game and seat), the names (default: those present,
    sorted) and n seats."""
    n = n or int(players["seat"].max()) + 1
    codes, names = codes_of(players["strategy"], names)
    return codes.reshape(-1, n), names, n


class Seats:
    """The number of seats (largest seat + 1) as an accumulator."""

    def __init__(self) -> None:
        self.most: list[int] = []

    def add(self, f: pd.DataFrame) -> None:
        self.most += [int(f["seat"].max())] if len(f) else []

    def result(self) -> int:
        return int(max(self.most)) + 1


@memoized(Seats)
def seat_count(players) -> int:
    """The number of seats, over every chunk."""
    return scan(chunks(players), Seats())[0]


def design_check(players, pool: list[str] | None = None, alpha: float = 1e-3,
                 tolerance: float = 0.03, mixture: dict[str, float] | None = None, focal: str | None = None) -> Design:
    """Seat counts per strategy, how often each pair met in each order, and who sits after whom.

    A check fails when a share departs from what a uniformly random seating gives by more than
    ``tolerance`` and a test at level ``alpha`` agrees (so sampling noise in small runs does not fail it).
    With a ``mixture`` (a population: every seat drawn independently) the seat after any player holds
    each strategy with its mixture weight; with a ``focal`` strategy too (one uniformly drawn seat, the others
    from the mixture), the seat after another player holds the focal one with chance 1/(n-1).
    """
    names, _ = strategy_names(players)
    n, k = seat_count(players), len(names)
    counts, before, after, first = np.zeros((k, n), np.int64), np.zeros((k, k)), np.zeros((k, k)), None
    for chunk in chunks(players):
        codes, _, _ = _codes(chunk, names, n)
        first = codes[0] if first is None else first
        np.add.at(counts, (codes.ravel(), np.tile(np.arange(n), len(codes))), 1)
        for i, j in itertools.combinations(range(n), 2):
            np.add.at(before, (codes[:, i], codes[:, j]), 1)
        np.add.at(after, (codes.ravel(), np.roll(codes, -1, axis=1).ravel()), 1)
    seat_counts = pd.DataFrame(counts, index=pd.Index(names, name="strategy"),
                               columns=pd.Index(np.arange(1, n + 1), name="seat"))
    empty = pd.DataFrame()
    if k == 1:
        return Design("mirror", seat_counts, empty, empty)
    if (seat_counts.gt(0).sum(axis=1) == 1).all():
        return Design("confounded", seat_counts, empty, empty,
                      ["each strategy always sat in the same seat, so seat and strategy cannot be told apart"])
    problems = []
    shares = seat_counts.div(seat_counts.sum(axis=1), axis=0)
    chi2, p_seat, _, _ = sps.chi2_contingency(seat_counts.to_numpy())
    worst = float((shares - 1.0 / n).abs().to_numpy().max())
    if p_seat < alpha and worst > tolerance:
        problems.append(f"strategies do not take every seat equally often (a share is {100 * worst:.0f} pts off 1/{n})")
    rows = []
    for a, b in itertools.combinations(range(k), 2):
        first, second = before[a, b], before[b, a]
        if first + second == 0:
            continue
        share = first / (first + second)
        p = sps.binomtest(int(first), int(first + second), 0.5).pvalue
        rows.append({"pair": f"{names[a]} / {names[b]}", "meetings": int(first + second),
                     "first sits before second": share, "p": p})
    orders = pd.DataFrame(rows)
    bad = orders[(orders["p"] < alpha) & ((orders["first sits before second"] - 0.5).abs() > tolerance)]
    if len(bad):
        r = bad.iloc[int((bad["first sits before second"] - 0.5).abs().argmax())]
        problems.append(f"pairs meet in a fixed order ({r['pair']}: the first sits before the second in "
                        f"{100 * r['first sits before second']:.0f}% of their meetings, 50% expected)")
    composition = pd.Series(pool if pool else [names[c] for c in first]).value_counts()
    nb_rows = []
    for a in range(k):
        if mixture:
            after_a = mixture if focal in (None, names[a]) else \
                {**{m: w * (n - 2) / (n - 1) for m, w in mixture.items()}, focal: 1 / (n - 1)}
            weights = np.array([after_a.get(names[b], 0.0) for b in range(k)])
        else:
            weights = np.array([composition.get(names[b], 0) - (a == b) for b in range(k)], float).clip(min=0)
        total = after[a].sum()
        if total == 0 or weights.sum() == 0:
            continue
        expected = total * weights / weights.sum()
        ok = expected > 0
        stat = float((((after[a] - expected) ** 2)[ok] / expected[ok]).sum()) + float(after[a][~ok].sum() * 1e9)
        p = float(sps.chi2.sf(stat, max(int(ok.sum()) - 1, 1)))
        dev = float(np.abs(after[a] / total - expected / total).max())
        nb_rows.append({"strategy": names[a], **{f"then {names[b]}": after[a, b] / total for b in range(k)},
                        "p": p, "largest departure": dev})
    neighbours = pd.DataFrame(nb_rows)
    bad = neighbours[(neighbours["p"] < alpha) & (neighbours["largest departure"] > tolerance)]
    if len(bad):
        problems.append(f"each strategy keeps the same neighbours (e.g. who sits after {bad.iloc[0]['strategy']} "
                        f"is {100 * bad.iloc[0]['largest departure']:.0f} pts off a random seating)")
    return Design("failed" if problems else "passed", seat_counts, orders, neighbours, problems)


@dataclass
class Model:
    """Seat effects adjusted for strategy and strategy effects adjusted for seat, in win-rate points."""

    fair: float
    n_games: int
    seats: pd.DataFrame  # seat (0-based), effect, se, lo, hi, label, rate, ratio, ratio_lo, ratio_hi
    strategies: pd.DataFrame  # strategy, effect, se, lo, hi, label (best first)
    best_gap: Finding | None
    range_gap: Finding | None
    interaction: dict
    neighbour: dict


def _effects(res, cols: slice, names: list, threshold: float, what: str) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Level effects (points) of one deviation-coded factor, with clustered SEs and labels."""
    k = len(names)
    lmat = np.zeros((k, len(res.params)))
    lmat[:, cols] = _all_levels(k)
    est = 100.0 * lmat @ res.params
    cov = 1e4 * lmat @ res.cov_params() @ lmat.T
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    rows = [finding(f"{what} {name}", e, s, threshold) for name, e, s in zip(names, est, se)]
    table = pd.DataFrame({"level": names, "effect": est, "se": se, "lo": [f.lo for f in rows],
                          "hi": [f.hi for f in rows], "label": [f.label for f in rows]})
    return table, est, cov


def _gap(what: str, est: np.ndarray, cov: np.ndarray, i: int, j: int, threshold: float) -> Finding:
    """Finding for the difference of two level effects, from the model's clustered covariance."""
    var = cov[i, i] + cov[j, j] - 2 * cov[i, j]
    return finding(what, float(est[i] - est[j]), float(np.sqrt(max(var, 0.0))), threshold)


def _seat_strategy_design(names: list[str], n: int):
    """Chunk -> (win_share, [1, seat, strategy] deviation coded, game of each row)."""
    def design(chunk: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        codes, _, _ = _codes(chunk, names, n)
        seat = np.tile(np.arange(n), len(codes))
        x = np.column_stack([np.ones(len(seat)), _deviation(seat, n), _deviation(codes.ravel(), len(names))])
        return chunk["win_share"].to_numpy(float), x, chunk["game_index"].to_numpy()
    return design


def fit_model(players, threshold: float) -> Model | None:
    """Fit win_share ~ seat + strategy (deviation coded) with game-clustered errors on every row, from sufficient
    statistics (``players``: rows in memory or chunk by chunk); the interaction and neighbour checks on the first
    DIAGNOSTIC_GAMES games. None if not identified."""
    names, g = strategy_names(players)
    n, k = seat_count(players), len(names)
    design = _seat_strategy_design(names, n)
    sums = gram(lambda: chunks(players), design)
    if np.linalg.matrix_rank(sums[0]) != sums[0].shape[1]:
        return None
    res = cluster_fit(lambda: chunks(players), design, stats=sums)
    fair = float(sums[1][0] / sums[2])
    seats, _, _ = _effects(res, slice(1, n), [f"{s + 1}" for s in range(n)], threshold, "seat")
    seats["seat"] = np.arange(n)
    seats["rate"] = fair + seats["effect"] / 100.0
    seats["ratio"] = seats["rate"] / fair if fair > 0 else np.nan
    seats["ratio_lo"] = (fair + seats["lo"] / 100.0) / fair if fair > 0 else np.nan
    seats["ratio_hi"] = (fair + seats["hi"] / 100.0) / fair if fair > 0 else np.nan
    strategies, est, cov = _effects(res, slice(n, n + k - 1), names, threshold, "strategy")
    order = np.argsort(-est, kind="stable")
    strategies = strategies.iloc[order].rename(columns={"level": "strategy"}).reset_index(drop=True)
    best_gap = range_gap = None
    if k > 1:
        best_gap = _gap(f"{names[order[0]]} minus runner-up {names[order[1]]}", est, cov, order[0], order[1], threshold)
        range_gap = _gap(f"{names[order[0]]} minus {names[order[-1]]}", est, cov, order[0], order[-1], threshold)
    head = head_rows(players, DIAGNOSTIC_GAMES)
    y, x, groups = design(head)
    codes, _, _ = _codes(head, names, n)
    seat, strat = np.tile(np.arange(n), len(codes)), codes.ravel()
    interaction = _interaction(y, x, seat, strat, groups, x @ res.params, names, n, threshold)
    neighbour = _neighbour(y, codes, groups, names, n, threshold)
    return Model(fair, g, seats, strategies, best_gap, range_gap, interaction, neighbour)


@kept
def _interaction(y, x, seat, strat, groups, pred, names, n, threshold) -> dict:
    """Wald test of seat x strategy interactions, and the cells furthest from the additive model."""
    k = len(names)
    if k < 2:
        return {}
    ds, dk = _deviation(seat, n), _deviation(strat, k)
    inter = np.column_stack([ds[:, i] * dk[:, j] for i in range(n - 1) for j in range(k - 1)])
    xi = np.column_stack([x, inter])
    if not _full_rank(xi):
        return {"identified": False}
    full = cluster_ols(y, xi, groups)
    r = np.zeros((inter.shape[1], xi.shape[1]))
    r[:, x.shape[1]:] = np.eye(inter.shape[1])
    with warnings.catch_warnings():  # a constraint the design cannot inform only lowers the test's df
        warnings.simplefilter("ignore", ValueWarning)
        wald = full.wald_test(r, scalar=True, use_f=False)
    cells = (pd.DataFrame({"seat": seat + 1, "strategy": np.asarray(names)[strat], "y": y, "pred": pred})
             .groupby(["strategy", "seat"]).agg(n=("y", "size"), rate=("y", "mean"), pred=("pred", "mean")).reset_index())
    cells["departure"] = 100.0 * (cells["rate"] - cells["pred"])
    cells["se"] = 100.0 * np.sqrt(cells["rate"] * (1 - cells["rate"]) / cells["n"]).clip(lower=1e-9)
    cells = cells.reindex(cells["departure"].abs().sort_values(ascending=False).index).reset_index(drop=True)
    top = cells.iloc[0]
    largest = finding(f"{top['strategy']} in seat {top['seat']} beyond seat + strategy", float(top["departure"]),
                      float(top["se"]), threshold)
    return {"identified": True, "chi2": float(wald.statistic), "df": int(r.shape[0]), "p": float(wald.pvalue),
            "cells": cells, "largest": largest}


def independent_columns(x: np.ndarray, tol: float = 1e-9) -> list[int]:
    """Indices of the columns of ``x`` that are not linear combinations of earlier ones (aliased columns dropped,
    in order), from the Gram matrix so a million-row design costs one product."""
    return independent_columns_of(x.T @ x, tol)


def independent_columns_of(gram: np.ndarray, tol: float = 1e-9) -> list[int]:
    """``independent_columns`` from the Gram matrix X'X."""
    keep: list[int] = []
    for j in range(gram.shape[0]):
        resid = gram[j, j]
        if keep:
            resid -= gram[j, keep] @ np.linalg.lstsq(gram[np.ix_(keep, keep)], gram[keep, j], rcond=None)[0]
        if resid > tol * max(gram[j, j], 1e-300):
            keep.append(j)
    return keep


def formula_fit(formula: str, data: pd.DataFrame, groups: np.ndarray):
    """OLS of a patsy formula on ``data`` with game-clustered errors, after dropping columns aliased with earlier
    ones (e.g. opponents-present counts that the lineup fixes). Returns the fit and its column names. Factors are
    handed to patsy as pandas categoricals of their sorted values (the levels patsy would find), which spares it
    checking every value of a plain column for a missing one; no value counts as missing, so that no row is
    dropped out of line with ``groups`` (the frames are built here, without gaps)."""
    factors = set(re.findall(r"C\((\w+)", formula))
    data = data.assign(**{c: pd.Categorical(data[c]) for c in factors})
    y, x = patsy.dmatrices(formula, data, return_type="dataframe", NA_action=patsy.NAAction(NA_types=[]))
    keep = independent_columns(x.to_numpy())
    res = cluster_ols(y.to_numpy().ravel(), x.iloc[:, keep].to_numpy(), groups)
    return res, [str(x.columns[j]) for j in keep]


def _neighbour(y, codes, groups, names, n, threshold) -> dict:
    """Does the strategy seated just before you (it plays just before you) change your win rate, rather than
    sitting elsewhere at the table? win_share ~ C(seat, Sum) + C(strategy, Sum) + opponents present per strategy +
    C(before, Sum); aliased columns are dropped, so 'not identified' means the design truly cannot tell."""
    k = len(names)
    if k < 2 or n < 3:
        return {}
    own = codes.ravel()
    present = np.stack([(codes == j).sum(axis=1) for j in range(k)], axis=1)
    opponents = np.repeat(present, n, axis=0) - (own[:, None] == np.arange(k)[None, :])
    frame = pd.DataFrame({"y": y, "seat": np.tile(np.arange(n), len(codes)), "strategy": own,
                          "before": np.roll(codes, 1, axis=1).ravel(),
                          **{f"opp{j}": opponents[:, j] for j in range(k)}})
    formula = "y ~ C(seat, Sum) + C(strategy, Sum) + " + " + ".join(f"opp{j}" for j in range(k)) + " + C(before, Sum)"
    res, columns = formula_fit(formula, frame, groups)
    block = [i for i, c in enumerate(columns) if c.startswith("C(before")]
    if len(block) < k - 1:
        return {"identified": False}
    r = np.zeros((k - 1, len(columns)))
    r[np.arange(k - 1), block] = 1.0
    wald = res.wald_test(r, scalar=True, use_f=False)
    table, est, _ = _effects(res, slice(block[0], block[-1] + 1), names, threshold, "seated just after")
    top = table.iloc[int(np.abs(est).argmax())]
    largest = finding(f"seated just after {top['level']} (rather than elsewhere at the table)", float(top["effect"]),
                      float(top["se"]), threshold)
    return {"identified": True, "chi2": float(wald.statistic), "p": float(wald.pvalue), "table": table,
            "largest": largest}


LOGIT_GAMES = 20_000
"""The conditional logit check uses the first this-many games with a single winner: this sample already resolves
interactions of the threshold's size."""


class OneWinnerLogit(ConditionalLogit):
    """statsmodels' ConditionalLogit for games of ``n`` consecutive rows with exactly one winner, its
    log-likelihood and score summed over all games at once: P(row i wins | one winner) = exp(x_i b) / sum over its
    game. The library walks the games one by one in Python (its recursion serves any number of 1s per group),
    which made this fit over a third of a report's CPU; the fit, the Hessian and the tests stay the library's."""

    def __init__(self, won: np.ndarray, x: np.ndarray, n: int):
        # The library's set-up without its split of the rows into per-game lists (a Python loop over the games,
        # four times the fit's own time at 20,000 games): only the counts the fit reports are kept.
        base.LikelihoodModel.__init__(self, won, x, missing="none", groups=np.repeat(np.arange(len(won) // n), n))
        if self.data.const_idx is not None:
            raise ValueError("Conditional models should not have an intercept in the design matrix")
        self._x3 = self.exog.reshape(-1, n, self.exog.shape[1])
        y = self.endog.reshape(-1, n)
        if not (y.sum(axis=1) == 1).all():
            raise ValueError("every game needs exactly one winner")
        self.k_params = self.K = self.exog.shape[1]
        self.nobs, self._n_groups, self._groupsize = len(won), len(y), [n]
        self._xy_sum = np.einsum("gn,gnp->p", y, self._x3)

    def loglike(self, params):
        return float(self._xy_sum @ params - logsumexp(self._x3 @ params, axis=1).sum())

    def score(self, params):
        eta = self._x3 @ params
        prob = np.exp(eta - logsumexp(eta, axis=1, keepdims=True))
        return self._xy_sum - np.einsum("gn,gnp->p", prob, self._x3)


def seat_strategy_table(players) -> pd.DataFrame:
    """Win rate of each strategy in each seat with its Wilson 95% interval (one row per game in a cell)."""
    from analysis.stats import wilson

    c = value_counts(chunks(players), ["strategy", "seat", "win_share"])
    g = c.assign(sum=c["n"] * c["win_share"]).groupby(["strategy", "seat"]).agg(count=("n", "sum"), sum=("sum", "sum"))
    lo, hi = wilson(g["sum"], g["count"])
    return pd.DataFrame({"n": g["count"], "rate": g["sum"] / g["count"], "lo": lo, "hi": hi}, index=g.index)


@kept
def seat_strategy_logit(players: pd.DataFrame, max_games: int = LOGIT_GAMES) -> dict:
    """Seat x strategy interactions on the odds scale: a conditional logit of winning (OneWinnerLogit,
    games as strata, so P(this player wins | one winner) = exp(x b) / sum over the table) on seat, strategy and their
    interactions (deviation coded). Each cell's interaction is its odds multiplier beyond seat and strategy; the Wald
    test asks whether any is not 1. Games with shared wins are left out (the model needs one winner)."""
    codes, names, n = _codes(players)
    k = len(names)
    if k < 2 or n < 2:
        return {}
    won = players["win_share"].to_numpy(float).reshape(-1, n)
    single = np.flatnonzero(np.isclose(won.max(axis=1), 1.0))[:max_games]
    seat = np.tile(np.arange(n), len(single))
    strat = codes[single].ravel()
    ds, dk = _deviation(seat, n), _deviation(strat, k)
    inter = np.column_stack([ds[:, i] * dk[:, j] for i in range(n - 1) for j in range(k - 1)])
    x = np.column_stack([ds, dk, inter])
    if independent_columns(x) != list(range(x.shape[1])):
        return {"identified": False}
    try:
        res = OneWinnerLogit(won[single].ravel(), x, n).fit(disp=False, maxiter=200)
    except (ValueError, np.linalg.LinAlgError):  # singular information, e.g. a strategy never winning in a seat
        return {"identified": False}
    if res.normalized_cov_params is None or not np.isfinite(res.normalized_cov_params).all():
        return {"identified": False}
    first = (n - 1) + (k - 1)
    r = np.zeros((inter.shape[1], x.shape[1]))
    r[:, first:] = np.eye(inter.shape[1])
    wald = res.wald_test(r, scalar=True)
    cells = np.kron(_all_levels(n), _all_levels(k))  # [seat, strategy] rows -> interaction coefficients
    lmat = np.zeros((n * k, x.shape[1]))
    lmat[:, first:] = cells
    est = lmat @ res.params
    se = np.sqrt(np.clip(np.diag(lmat @ res.cov_params() @ lmat.T), 0, None))
    table = pd.DataFrame({"seat": np.repeat(np.arange(n) + 1, k), "strategy": np.tile(names, n), "log_or": est,
                          "lo": est - Z95 * se, "hi": est + Z95 * se})
    return {"identified": True, "games": len(single), "chi2": float(np.asarray(wald.statistic).ravel()[0]),
            "df": int(r.shape[0]), "p": float(wald.pvalue), "cells": table}


def scale_check(lpm_cells: pd.DataFrame, logit: dict, threshold: float) -> pd.DataFrame:
    """The linear model's cells furthest from seat + strategy, each beside its odds multiplier from the conditional
    logit: a departure in points with no departure in odds (interval around 1) is a scale artefact (odds that
    multiply add up unevenly in points), not an interaction."""
    odds = logit["cells"].set_index(["strategy", "seat"])
    top = lpm_cells[lpm_cells["departure"].abs() >= threshold].head(8)
    rows = []
    for r in top.itertuples():
        o = odds.loc[(r.strategy, r.seat)]
        real = o["lo"] > 0 or o["hi"] < 0
        rows.append({"strategy": r.strategy, "seat": r.seat, "departure (points, linear model)": f"{r.departure:+.1f}",
                     "odds multiplier beyond seat and strategy [95% CI]":
                         f"{np.exp(o['log_or']):.2f} [{np.exp(o['lo']):.2f}, {np.exp(o['hi']):.2f}]",
                     "reading": "interaction on both scales" if real else "scale artefact (none on the odds scale)"})
    return pd.DataFrame(rows)


@dataclass
class Association:
    """A group difference within the same games: crude and adjusted (points, clustered), and odds ratios."""

    crude: Finding
    adjusted: Finding | None
    odds_crude: tuple[float, float, float] | None
    odds_adjusted: tuple[float, float, float] | None
    adjusted_for: str


def association(players: pd.DataFrame, games: pd.DataFrame, flag: np.ndarray, what: str, threshold: float,
                length_bins: int = 4) -> Association | None:
    """``association_rows`` of player rows in memory, ``flag`` one value per row."""
    rows = players[["game_index", "seat", "strategy", "win_share", "won"]].assign(
        rounds=players["game_index"].map(games.set_index("game_index")["rounds"]).to_numpy(), flag=np.asarray(flag, bool))
    return association_rows(rows, what, threshold, length_bins)


FLAG_COLUMNS = ("game_index", "seat", "strategy", "win_share", "won", "rounds", "flag")
"""The columns ``association_rows`` reads from each chunk (rounds: the game's; flag: the player row's)."""


@kept
def association_rows(rows, what: str, threshold: float, length_bins: int = 4,
                     also: Sequence[Accumulator] = ()) -> Association | None:
    """Win rate of flagged player rows minus the rest, crude and adjusted for strategy, seat and game length
    (``rows``: in memory or chunk by chunk, with FLAG_COLUMNS), in four passes; ``also``: a caller's accumulators of
    the same rows, fed in the first.

    The adjusted difference compares flagged and other rows within each stratum of strategy x seat x
    game-length quarter (OLS on values centred within strata, i.e. a fixed effect per stratum, so the
    strata's own interactions are absorbed). Both differences have game-clustered errors (the groups share
    games); the Mantel-Haenszel odds ratio over the same strata stands beside the crude odds ratio.
    """
    def crude_design(chunk: pd.DataFrame):
        f = chunk["flag"].to_numpy(float)
        return chunk["win_share"].to_numpy(float), np.column_stack([np.ones(len(f)), f]), chunk["game_index"].to_numpy()

    spread, crude_sums, *_ = scan(chunks(rows), Counts(["flag", "rounds", "seat", "strategy"]), Gram(crude_design), *also)
    flagged = spread.loc[spread["flag"].astype(bool), "n"].sum()
    if flagged in (0, spread["n"].sum()):
        return None
    lengths = spread.groupby("rounds")["n"].sum()
    qs = np.linspace(0, 1, length_bins + 1)
    np.putmask(qs, length_bins * qs != np.arange(length_bins + 1), np.nextafter(qs, 1))  # as pd.qcut takes them
    bins = quantiles(lengths.index.to_numpy(), lengths.to_numpy(), qs)
    names = sorted(spread["strategy"].astype(str).unique())
    seats = int(spread["seat"].max()) + 1

    def quarter(r: np.ndarray) -> np.ndarray:  # NaN when every game is as long (Circus Train, 7 Wonders)
        return np.nan_to_num(np.asarray(pd.cut(r, bins, labels=False, include_lowest=True, duplicates="drop"), float),
                             nan=0.0).astype(np.int64)

    lmax = int(quarter(lengths.index.to_numpy()).max()) + 1

    def strata(chunk: pd.DataFrame) -> np.ndarray:
        strat = codes_of(chunk["strategy"], names)[0]
        return (strat * seats + chunk["seat"].to_numpy(np.int64)) * lmax + quarter(chunk["rounds"].to_numpy())

    def cell(c: pd.DataFrame) -> pd.DataFrame:
        return pd.DataFrame({"b": c["game_index"].to_numpy() % JACKKNIFE_BLOCKS, "s": strata(c), "f": c["flag"].to_numpy(bool),
                             "w": c["won"].to_numpy() > 0, "y": c["win_share"].to_numpy(float)})

    crude_res, cells = scan(chunks(rows), Scores(crude_design, crude_sums), Mapped(cell, Counts(["b", "s", "f", "w", "y"])))
    crude = finding(what, 100 * crude_res.params[1], 100 * crude_res.bse[1], threshold)
    sums = cells.assign(y=cells["y"] * cells["n"], f=cells["f"] * cells["n"]).groupby("s")[["n", "y", "f"]].sum()
    means = sums[["y", "f"]].div(sums["n"], axis=0)

    def centred_design(chunk: pd.DataFrame):
        s = strata(chunk)
        f = chunk["flag"].to_numpy(float) - means["f"].reindex(s).to_numpy()
        y = chunk["win_share"].to_numpy(float) - means["y"].reindex(s).to_numpy()
        return y, f[:, None], chunk["game_index"].to_numpy()

    adjusted = None
    centred = gram(lambda: chunks(rows), centred_design)
    if centred[0][0, 0] > 0:
        res = cluster_fit(lambda: chunks(rows), centred_design, stats=centred)
        adjusted = finding(what + " (adjusted)", 100 * res.params[0], 100 * res.bse[0], threshold)
    counts = cells.groupby(["b", "s", "f", "w"])["n"].sum()
    unstratified = pd.concat({0: counts.groupby(["b", "f", "w"]).sum()}, names=["s"]).reorder_levels(["b", "s", "f", "w"])
    return Association(crude, adjusted, _odds(unstratified.sort_index()), _odds(counts), "strategy, seat and game length")


JACKKNIFE_BLOCKS = 20
"""Blocks of games (by game index) the Mantel-Haenszel interval is jackknifed over, so it is clustered by game."""


def _odds(counts: pd.Series) -> tuple[float, float, float] | None:
    """Mantel-Haenszel pooled odds ratio of winning (flag vs not) over strata (statsmodels), with a 95% interval
    from a delete-one-block jackknife over blocks of games (rows of one game are not independent); ``counts``:
    rows per (block, stratum, flag, won)."""
    counts = counts.unstack(["f", "w"], fill_value=0)
    cells = np.stack([counts.get((f, w), pd.Series(0, index=counts.index)).to_numpy(float)
                      for f, w in ((True, True), (True, False), (False, True), (False, False))], axis=1)
    per_block = pd.DataFrame(cells, index=counts.index)

    def pooled(rows: pd.DataFrame) -> float:
        t = rows.groupby(level="s").sum().to_numpy()
        t = t[(t[:, 0] + t[:, 1] > 0) & (t[:, 2] + t[:, 3] > 0)]
        if not len(t):
            return np.nan
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(StratifiedTable(t.reshape(-1, 2, 2).transpose(1, 2, 0)).oddsratio_pooled)

    ratio = pooled(per_block)
    blocks = per_block.index.get_level_values("b")
    leave = np.log([pooled(per_block[blocks != k]) for k in np.unique(blocks)])
    if not (np.isfinite(ratio) and ratio > 0 and np.isfinite(leave).all() and len(leave) > 1):
        return None
    se = float(np.sqrt((len(leave) - 1) / len(leave) * ((leave - leave.mean()) ** 2).sum()))
    return ratio, float(np.exp(np.log(ratio) - Z95 * se)), float(np.exp(np.log(ratio) + Z95 * se))


@kept
def paired_difference(players, flag, what: str, threshold: float) -> Finding | None:
    """Win rate of flagged rows minus the others, with a game-clustered interval (the groups share games).
    ``players``: rows in memory with ``flag`` one value per row, or ``flag`` a function of a chunk of rows."""
    rows, flag_of = players, flag
    if not callable(flag):
        rows, flag_of = players.assign(_flag=np.asarray(flag, bool)), (lambda c: c["_flag"].to_numpy(bool))

    def design(chunk: pd.DataFrame):
        f = flag_of(chunk).astype(float)
        return chunk["win_share"].to_numpy(float), np.column_stack([np.ones(len(f)), f]), chunk["game_index"].to_numpy()

    xtx, xty, n, games = gram(lambda: chunks(rows), design)
    if xtx[1, 1] in (0, n):
        return None
    res = cluster_fit(lambda: chunks(rows), design, stats=(xtx, xty, n, games))
    return finding(what, 100 * res.params[1], 100 * res.bse[1], threshold)


@kept
def adjusted_levels(players, column: str, what: str, threshold: float) -> pd.DataFrame | None:
    """Win rate at each level of a player column minus its lowest level, adjusted for seat and strategy (win_share ~
    C(column) + C(seat) + C(strategy), game-clustered, aliased columns dropped): the raw table's companion when the
    column follows the seat (e.g. rounds holding the starting-player bus). None for one level. ``players``: rows in
    memory or chunk by chunk."""
    spread = value_counts(chunks(players), [column, "seat", "strategy"])
    levels = sorted(spread[column].unique())
    if len(levels) < 2:
        return None
    seats, names = sorted(spread["seat"].unique()), sorted(spread["strategy"].astype(str).unique())

    def design(chunk: pd.DataFrame):
        lv, seat, strat = chunk[column].to_numpy(), chunk["seat"].to_numpy(), keyed(chunk["strategy"])
        x = np.column_stack([np.ones(len(lv))] + [lv == v for v in levels[1:]] + [seat == s for s in seats[1:]]
                            + [strat == s for s in names[1:]]).astype(float)
        return chunk["win_share"].to_numpy(float), x, chunk["game_index"].to_numpy()

    stats = gram(lambda: chunks(players), design)
    keep = independent_columns_of(stats[0])
    res = cluster_fit(lambda: chunks(players), design, keep=keep, stats=stats)
    columns = list(keep)
    rows = []
    for i, lv in enumerate(levels[1:], start=1):
        f = (finding(f"{what} {lv} minus {levels[0]}", 100 * res.params[columns.index(i)], 100 * res.bse[columns.index(i)],
                     threshold) if i in columns else None)
        rows.append({"level": lv, "adjusted": f})
    return pd.DataFrame(rows)


def run_change(a: pd.DataFrame, b: pd.DataFrame, value: str, what: str, threshold: float, flag: str | None = None,
               strata: str | None = None) -> Finding | None:
    """Run ``b`` minus run ``a`` on one estimate, from one fit on both runs' rows with errors clustered by game index:
    when the runs share seed and game count, game i is the same deal in both and the difference is paired; otherwise
    the clustering costs nothing. Without ``flag``: the mean of ``value``; with it: the flag's effect (flagged minus
    the rest) centred within ``strata``, as in ``association``."""
    rows = pd.concat([a.assign(_run=0.0), b.assign(_run=1.0)], ignore_index=True)
    if not len(a) or not len(b):
        return None
    y = rows[value].to_numpy(float)
    games = rows["game_index"].to_numpy()
    if flag is None:
        res = cluster_ols(y, np.column_stack([np.ones(len(y)), rows["_run"].to_numpy()]), games)
        return finding(what, 100 * res.params[1], 100 * res.bse[1], threshold)
    key = rows["_run"].astype(str) + "/" + (rows[strata].astype(str) if strata else "")
    centred = pd.DataFrame({"k": key, "y": y, "f": rows[flag].to_numpy(float)})
    centred[["y", "f"]] -= centred.groupby("k")[["y", "f"]].transform("mean")
    run = rows["_run"].to_numpy()
    x = np.column_stack([centred["f"] * (1 - run), centred["f"] * run])
    if not (np.abs(x).sum(axis=0) > 0).all():
        return None
    res = cluster_ols(centred["y"].to_numpy(), x, games)
    w = np.array([-1.0, 1.0])
    return finding(what, 100 * float(w @ res.params), 100 * float(np.sqrt(max(w @ res.cov_params() @ w, 0.0))), threshold)


def paired_runs(a, b) -> bool:
    """The runs play the same deals: same seed, game count, lineup and seating (common random numbers)."""
    keys = ("seed", "n_games", "strategies", "seating", "n_players")
    return all(a.manifest.get(k) == b.manifest.get(k) for k in keys)


def cycles(h2h: pd.DataFrame) -> list[str]:
    """Intransitive triples a > b > c > a where every head-to-head interval excludes one half."""
    beats = {(r.a, r.b) for r in h2h.itertuples() if r.lo > 0.5}
    names = sorted(set(h2h["a"]))
    out = []
    for a, b, c in itertools.permutations(names, 3):
        if a == min(a, b, c) and {(a, b), (b, c), (c, a)} <= beats:
            out.append(f"{a} > {b} > {c} > {a}")
    return out


def rating_fit(ratings: pd.DataFrame, h2h: pd.DataFrame, elo: float, threshold: float) -> pd.DataFrame:
    """Observed head-to-head rates against the Bradley-Terry prediction, largest departure first (points).

    Each pair once, as "a finished above b" with a listed before b in ``ratings`` (the head-to-head table has
    both orders, which would count every pair twice); ties keep that order."""
    r = ratings.set_index("strategy")["rating"]
    rank = pd.Series(np.arange(len(ratings)), index=ratings["strategy"])
    h2h = h2h[h2h["a"].map(rank).to_numpy() < h2h["b"].map(rank).to_numpy()]
    pred = 1.0 / (1.0 + np.exp(-(h2h["a"].map(r).to_numpy() - h2h["b"].map(r).to_numpy()) / elo))
    out = h2h.assign(predicted=pred, departure=100.0 * (h2h["rate"].to_numpy() - pred))
    half = 50.0 * (out["hi"] - out["lo"])
    out["poor fit"] = (out["departure"].abs() >= threshold) & (out["departure"].abs() > half)
    order = out["departure"].abs().sort_values(ascending=False, kind="stable").index
    return out.reindex(order).reset_index(drop=True)
