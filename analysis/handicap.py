"""Compensation: the points handicap per seat that would equalise win rates, from the logged scores.

A handicap of h points for seat s re-ranks every decided game as if s had scored h more (ties on the
new scores fall back to the game's own tie-breaks: its declared tie columns, ``GameSpec.tie_columns``, else the
logged ranks, which are right only between seats whose old scores were level too); games without a winner keep
none. For each seat alone, the equalising h is where its win rate crosses the fair share (interpolated
between whole points); its interval is a Poisson bootstrap over games.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from analysis.keep import kept

SPAN = 12
"""Handicaps searched: -SPAN .. +SPAN points."""
HANDICAP_GAMES = 200_000
"""Games the handicap search uses (the run's first; games are independent draws, so any prefix is a fair sample)."""
JOINT_GAMES = 50_000
"""Games the search for all seats at once uses (a step of the rules moves a seat far more than their noise)."""


def _matrices(players: pd.DataFrame, ties: Sequence[str] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """[games, seats] score, tie order (1 = wins a tie on score) and win share, games in index order. The tie order
    comes from the ``ties`` columns ("-name": lower wins) when the players hold them all, else the logged rank."""
    n = int(players["seat"].max()) + 1
    p = players.sort_values(["game_index", "seat"], kind="stable")
    names = [c.lstrip("-") for c in ties]
    if ties and all(c in p.columns for c in names):
        keys = [p[c].to_numpy(np.int64).reshape(-1, n) * (-1 if t.startswith("-") else 1) for c, t in zip(names, ties)]
        order = _tie_order(keys)
    else:
        order = p["rank"].to_numpy(np.int64).reshape(-1, n)
    return p["score"].to_numpy(np.int64).reshape(-1, n), order, p["win_share"].to_numpy(float).reshape(-1, n)


def _tie_order(keys: Sequence[np.ndarray]) -> np.ndarray:
    """[games, seats] competition rank by the key arrays compared in order (higher first; equal keys share)."""
    beaten = np.zeros(keys[0].shape + keys[0].shape[1:], bool)  # [game, seat a, seat b]: b beats a
    level = np.ones_like(beaten)
    for k in keys:
        a, b = k[:, :, None], k[:, None, :]
        beaten |= level & (b > a)
        level &= b == a
    return 1 + beaten.sum(axis=2)


def _key(points: np.ndarray, rank: np.ndarray, n: int) -> np.ndarray:
    """The ranking key of ``n`` seats: points in half-point steps first, the logged rank only within a step (half
    a point, e.g. BUS-SEAT-2's tie priority, outweighs any rank)."""
    return points * 2 * (n + 2) - rank


def _shares(score: np.ndarray, rank: np.ndarray, decided: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """[games, seats] win shares when each seat scores ``offsets`` more (ties broken by the logged ranks; half a
    point, e.g. BUS-SEAT-2's tie priority, outweighs any rank)."""
    n = rank.shape[1]
    key = _key(score + offsets[None, :], rank, n)
    best = key[:, 0].copy()  # column by column: numpy reduces a short row axis slowly
    for j in range(1, n):
        np.maximum(best, key[:, j], out=best)
    top = key == best[:, None]
    count = top[:, 0].astype(np.int64)
    for j in range(1, n):
        count += top[:, j]
    return np.where(decided[:, None], top / count[:, None], 0.0)


def _seat_wins(score: np.ndarray, rank: np.ndarray, decided: np.ndarray, seat: int, grid: np.ndarray) -> np.ndarray:
    """[games, grid] win share of ``seat`` when it alone scores each ``h`` of ``grid`` more: the column of
    ``_shares``, from the other seats' best key and its ties computed once."""
    n = rank.shape[1]
    others = [j for j in range(n) if j != seat]
    key = _key(score[:, others], rank[:, others], n)
    best = key.max(axis=1)
    tied = (key == best[:, None]).sum(axis=1)
    out = np.empty((len(score), len(grid)))
    for i, h in enumerate(grid):
        mine = _key(score[:, seat] + h, rank[:, seat], n)
        share = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (tied + 1), 0.0))
        out[:, i] = np.where(decided, share, 0.0)
    return out


def _crossing(rates: np.ndarray, fair: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Per row of ``rates`` (over the grid), the interpolated h where the rate reaches ``fair``."""
    out = np.full(len(rates), np.nan)
    for b, (r, f) in enumerate(zip(rates, fair)):
        above = np.nonzero(r >= f)[0]
        if len(above) == 0 or above[0] == 0:
            continue
        i = above[0]
        step = r[i] - r[i - 1]
        out[b] = grid[i - 1] + ((f - r[i - 1]) / step if step > 0 else 0.0)
    return out


@kept
def seat_handicaps(players: pd.DataFrame, max_games: int = HANDICAP_GAMES, n_boot: int = 60, seed: int = 0,
                   step: float = 1.0, ties: Sequence[str] = ()) -> pd.DataFrame:
    """Per seat: equalising handicap (points) with a 95% bootstrap interval, the whole-point rounding, the
    games whose result for the seat changes within a point of it ('pivotal': few means not identified), and a
    handicap for all seats at once in multiples of ``step`` (the finest the rules carry: 1, or half a point).

    Uses the first ``max_games`` games (games are independent draws, so any subset is a fair sample).
    """
    score, rank, won = (x[:max_games] for x in _matrices(players, ties))
    n = score.shape[1]
    decided = won.sum(axis=1) > 0
    g = len(score)
    weights = np.random.default_rng(seed).poisson(1.0, size=(n_boot, g)).astype(float)
    totals = weights.sum(axis=1)
    fair = won.sum() / won.size
    fair_b = (weights @ won.sum(axis=1)) / (totals * n)
    grid = np.arange(-SPAN, SPAN + 1, dtype=float)
    rows = []
    for s in range(n):
        wins = _seat_wins(score, rank, decided, s, grid)  # [games, grid]
        rate = wins.mean(axis=0)
        boot = (weights @ wins) / totals[:, None]
        est = _crossing(rate[None, :], np.array([fair]), grid)[0]
        draws = _crossing(boot, fair_b, grid)
        ok = np.isfinite(draws)
        lo, hi = (np.percentile(draws[ok], [2.5, 97.5]) if ok.mean() > 0.9 else (np.nan, np.nan))
        near = int(np.clip(np.round(est), -SPAN + 1, SPAN - 1)) + SPAN if np.isfinite(est) else None
        pivotal = int((wins[:, near - 1] != wins[:, near + 1]).sum()) if near is not None else 0
        rows.append({"seat": s, "rate": float(rate[SPAN]), "handicap": est, "lo": lo, "hi": hi,
                     "suggest": int(np.round(est)) if np.isfinite(est) else None, "pivotal": pivotal})
    table = pd.DataFrame(rows)
    joint, rates = _joint(score[:JOINT_GAMES], rank[:JOINT_GAMES], decided[:JOINT_GAMES], fair, step)
    table["joint"], table["joint_rate"] = joint, rates
    table.attrs.update(fair=fair, games=g)
    return table


def _joint(score: np.ndarray, rank: np.ndarray, decided: np.ndarray, fair: float, step: float = 1.0,
           sweeps: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Handicaps in multiples of ``step`` for all seats at once (seat 1 fixed at 0; only differences matter), chosen
    by coordinate search on the squared departures from the fair share, with a move of all other seats together
    (the only way to move seat 1, which one seat at a time can miss), and the win rates they give."""
    n = score.shape[1]

    def miss(trial: np.ndarray) -> float:
        return float(((_shares(score, rank, decided, trial).mean(axis=0) - fair) ** 2).sum())

    offsets = np.zeros(n)
    gap = miss(offsets)
    for _ in range(sweeps):
        for s in range(1, n):
            for h in np.arange(-SPAN, SPAN + step / 2, step):
                trial = offsets.copy()
                trial[s] = h
                if (m := miss(trial)) < gap - 1e-15:
                    offsets, gap = trial, m
        for shift in (step, -step):
            while True:
                trial = offsets.copy()
                trial[1:] += shift
                if np.abs(trial).max() > SPAN or (m := miss(trial)) >= gap - 1e-15:
                    break
                offsets, gap = trial, m
    return offsets, _shares(score, rank, decided, offsets).mean(axis=0)


def rescored_shares(players: pd.DataFrame, offsets: np.ndarray, ties: Sequence[str] = ()) -> np.ndarray:
    """[games, seats] win shares, games in index order, when each seat's logged score moves by ``offsets`` (the
    static re-scoring a seat bonus predicts if no one plays differently; ``ties``: the game's tie columns)."""
    score, rank, won = _matrices(players, ties)
    return _shares(score, rank, won.sum(axis=1) > 0, np.asarray(offsets, float))
