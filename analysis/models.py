"""Seat and strategy effects that are told apart: the seating design check, a seat + strategy model with
game-clustered errors (statsmodels), its fit diagnostics, and comparisons adjusted for confounders.

Every model here is a linear probability model of ``win_share`` on player rows (one row per game and
seat) fitted by statsmodels OLS with errors clustered by game: its coefficients are win-rate points,
and the clustering accounts for one player's win being another's loss in the same game.
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats as sps
from statsmodels.stats.contingency_tables import StratifiedTable
from statsmodels.tools.sm_exceptions import ValueWarning

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
    return sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})


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


def _codes(players: pd.DataFrame) -> tuple[np.ndarray, list[str], int]:
    """Strategy codes as a [games, seats] array (rows sorted by game and seat), the names and n seats."""
    n = int(players["seat"].max()) + 1
    cat = pd.Categorical(players["strategy"].astype(str))
    return np.asarray(cat.codes, np.int64).reshape(-1, n), [str(c) for c in cat.categories], n


def design_check(players: pd.DataFrame, pool: list[str] | None = None, alpha: float = 1e-3,
                 tolerance: float = 0.03, mixture: dict[str, float] | None = None, focal: str | None = None) -> Design:
    """Seat counts per strategy, how often each pair met in each order, and who sits after whom.

    A check fails when a share departs from what a uniformly random seating gives by more than
    ``tolerance`` and a test at level ``alpha`` agrees (so sampling noise in small runs does not fail it).
    With a ``mixture`` (a population: every seat drawn independently) the seat after any player holds
    each strategy with its mixture weight; with a ``focal`` strategy too (one uniformly drawn seat, the others
    from the mixture), the seat after another player holds the focal one with chance 1/(n-1).
    """
    codes, names, n = _codes(players)
    k = len(names)
    seat_counts = pd.crosstab(pd.Categorical.from_codes(codes.ravel(), names),
                              np.tile(np.arange(1, n + 1), len(codes)))
    seat_counts.index.name, seat_counts.columns.name = "strategy", "seat"
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
    before = np.zeros((k, k))
    for i, j in itertools.combinations(range(n), 2):
        np.add.at(before, (codes[:, i], codes[:, j]), 1)
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
    after = np.zeros((k, k))
    np.add.at(after, (codes.ravel(), np.roll(codes, -1, axis=1).ravel()), 1)
    composition = pd.Series(pool if pool else [names[c] for c in codes[0]]).value_counts()
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


def fit_model(players: pd.DataFrame, threshold: float) -> Model | None:
    """Fit win_share ~ seat + strategy (deviation coded) with game-clustered errors; None if not identified."""
    codes, names, n = _codes(players)
    g = len(codes)
    y = players["win_share"].to_numpy(float)
    seat = np.tile(np.arange(n), g)
    strat = codes.ravel()
    k = len(names)
    x = np.column_stack([np.ones(len(y)), _deviation(seat, n), _deviation(strat, k)])
    if not _full_rank(x):
        return None
    groups = np.repeat(np.arange(g), n)
    res = cluster_ols(y, x, groups)
    fair = float(y.mean())
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
    rows = min(g, DIAGNOSTIC_GAMES) * n
    interaction = _interaction(y[:rows], x[:rows], seat[:rows], strat[:rows], groups[:rows],
                               np.asarray(res.fittedvalues)[:rows], names, n, threshold)
    neighbour = _neighbour(y[:rows], x[:rows], codes[:rows // n], groups[:rows], names, n, threshold)
    return Model(fair, g, seats, strategies, best_gap, range_gap, interaction, neighbour)


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


def _neighbour(y, x, codes, groups, names, n, threshold) -> dict:
    """Does the strategy seated just before you (it plays just before you) change your win rate, beyond
    which strategies you face? Opponent counts per strategy are controlled for; the largest effect is labelled.
    """
    k = len(names)
    if k < 2 or n < 3:
        return {}
    own = codes.ravel()
    present = np.stack([(codes == j).sum(axis=1) for j in range(k)], axis=1)
    opponents = np.repeat(present, n, axis=0) - (own[:, None] == np.arange(k)[None, :])
    before = np.roll(codes, 1, axis=1).ravel()
    xn = np.column_stack([x, opponents[:, :-1], _deviation(before, k)])
    if not _full_rank(xn):
        return {"identified": False}
    res = cluster_ols(y, xn, groups)
    first = x.shape[1] + k - 1
    r = np.zeros((k - 1, xn.shape[1]))
    r[:, first:] = np.eye(k - 1)
    wald = res.wald_test(r, scalar=True, use_f=False)
    table, est, _ = _effects(res, slice(first, xn.shape[1]), names, threshold, "seated just after")
    top = table.iloc[int(np.abs(est).argmax())]
    largest = finding(f"seated just after {top['level']}", float(top["effect"]), float(top["se"]), threshold)
    return {"identified": True, "chi2": float(wald.statistic), "p": float(wald.pvalue), "table": table,
            "largest": largest}


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
    """Win rate of flagged player rows minus the rest, crude and adjusted for strategy, seat and game length.

    The adjusted difference compares flagged and other rows within each stratum of strategy x seat x
    game-length quarter (OLS on values centred within strata, i.e. a fixed effect per stratum, so the
    strata's own interactions are absorbed). Both differences have game-clustered errors (the groups share
    games); the Mantel-Haenszel odds ratio over the same strata stands beside the crude odds ratio.
    """
    flag = np.asarray(flag, bool)
    if flag.all() or not flag.any():
        return None
    y = players["win_share"].to_numpy(float)
    groups = players["game_index"].to_numpy()
    crude_res = cluster_ols(y, np.column_stack([np.ones(len(y)), flag]), groups)
    crude = finding(what, 100 * crude_res.params[1], 100 * crude_res.bse[1], threshold)
    rounds = players["game_index"].map(games.set_index("game_index")["rounds"]).to_numpy()
    quarters = pd.qcut(rounds, length_bins, labels=False, duplicates="drop")  # NaN when every game is as long (Circus Train, 7 Wonders)
    length = np.nan_to_num(np.asarray(quarters, float), nan=0.0).astype(np.int64)
    seat = players["seat"].to_numpy(np.int64)
    strat = pd.Categorical(players["strategy"].astype(str)).codes.astype(np.int64)
    strata = (strat * (seat.max() + 1) + seat) * (length.max() + 1) + length
    centred = pd.DataFrame({"s": strata, "y": y, "f": flag.astype(float)})
    centred[["y", "f"]] -= centred.groupby("s")[["y", "f"]].transform("mean")
    adjusted = None
    if centred["f"].abs().sum() > 0:
        res = cluster_ols(centred["y"].to_numpy(), centred[["f"]].to_numpy(), groups)
        adjusted = finding(what + " (adjusted)", 100 * res.params[0], 100 * res.bse[0], threshold)
    won = players["won"].to_numpy() > 0
    return Association(crude, adjusted, _odds(won, flag, np.zeros_like(strata)), _odds(won, flag, strata),
                       "strategy, seat and game length")


def _odds(won: np.ndarray, flag: np.ndarray, strata: np.ndarray) -> tuple[float, float, float] | None:
    """Mantel-Haenszel pooled odds ratio of winning (flag vs not) over strata, with its 95% interval."""
    frame = pd.DataFrame({"s": strata, "f": flag, "w": won})
    counts = frame.groupby(["s", "f", "w"]).size().unstack(["f", "w"], fill_value=0)
    tables = []
    for _, row in counts.iterrows():
        t = np.array([[row.get((True, True), 0), row.get((True, False), 0)],
                      [row.get((False, True), 0), row.get((False, False), 0)]], float)
        if t[0].sum() > 0 and t[1].sum() > 0:
            tables.append(t)
    if not tables:
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        st = StratifiedTable(np.dstack(tables))
        ratio, (lo, hi) = float(st.oddsratio_pooled), st.oddsratio_pooled_confint()
    return (ratio, float(lo), float(hi)) if np.isfinite([ratio, lo, hi]).all() else None


def paired_difference(players: pd.DataFrame, flag: np.ndarray, what: str, threshold: float) -> Finding | None:
    """Win rate of flagged rows minus the others, with a game-clustered interval (the groups share games)."""
    flag = np.asarray(flag, bool)
    if flag.all() or not flag.any():
        return None
    y = players["win_share"].to_numpy(float)
    res = cluster_ols(y, np.column_stack([np.ones(len(y)), flag]), players["game_index"].to_numpy())
    return finding(what, 100 * res.params[1], 100 * res.bse[1], threshold)


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
    """Observed head-to-head rates against the Bradley-Terry prediction, largest departure first (points)."""
    r = ratings.set_index("strategy")["rating"]
    pred = 1.0 / (1.0 + np.exp(-(h2h["a"].map(r).to_numpy() - h2h["b"].map(r).to_numpy()) / elo))
    out = h2h.assign(predicted=pred, departure=100.0 * (h2h["rate"].to_numpy() - pred))
    half = 50.0 * (out["hi"] - out["lo"])
    out["poor fit"] = (out["departure"].abs() >= threshold) & (out["departure"].abs() > half)
    return out.reindex(out["departure"].abs().sort_values(ascending=False).index).reset_index(drop=True)
