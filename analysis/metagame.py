"""The empirical meta-game of a population and its solution, the meta-solver of PSRO (Lanctot et al., 2017).

Games in which every seat draws a member uniformly at random (a ``mixture`` study over the members) give, for
each member ``i`` and each multiset of the other seats' members, ``i``'s mean win share: a symmetric N-player
game over the members (random seating averages the seats out). Each cell is shrunk toward the member's mean
win share over all its games by ``PRIOR`` pseudo-games, so a profile that was rarely or never played leans on
what the member does elsewhere instead of on a handful of games.

The game is solved by projected replicator dynamics (open_spiel's ``projected_replicator_dynamics``, the
meta-solver of the PSRO paper): every seat starts from the uniform mixture and the dynamics' average over the
second half of the trajectory is the answer, which damps the cycling of rock-paper-scissors-like games.
Weights below ``FLOOR`` (the dynamics keep every member at a tiny exploration floor) are dropped.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from open_spiel.python.algorithms.projected_replicator_dynamics import projected_replicator_dynamics

PRIOR = 4.0
"""Pseudo-games at the member's overall mean added to every cell."""
PRD_ITERATIONS = 10_000
PRD_DT = 0.02
"""Steps and step size of the dynamics: 200 units of replicator time (payoffs are win shares, 0 to 1)."""
FLOOR = 1e-3
"""Smallest weight kept in a solved mixture (the rest are set to 0 and the weights renormalised)."""


def _profile_keys(others: np.ndarray, k: int) -> np.ndarray:
    """A number for each row's multiset of members (rows of member indices): the sorted row in base k."""
    ordered = np.sort(others, axis=1)
    return ordered @ (k ** np.arange(ordered.shape[1] - 1, -1, -1, dtype=np.int64))


def payoff_table(players: pd.DataFrame, members: Sequence[str]) -> np.ndarray:
    """``T[i, j1, ..., j(N-1)]``: member i's mean win share when the other seats hold members j (symmetric in
    the j's), from a players table (rows sorted by game and seat) of games among the members only."""
    n = int(players["seat"].max()) + 1
    k = len(members)
    index = {m: i for i, m in enumerate(members)}
    codes = players["strategy"].astype(str).map(index)
    if codes.isna().any():
        unknown = sorted(set(players["strategy"].astype(str)) - set(members))
        raise ValueError(f"games hold strategies outside the population: {unknown}")
    codes = codes.to_numpy(np.int64).reshape(-1, n)
    share = players["win_share"].to_numpy(float).reshape(-1, n)
    cells = k ** (n - 1)
    sums, counts = np.zeros(k * cells), np.zeros(k * cells)
    for seat in range(n):
        others = np.delete(codes, seat, axis=1)
        flat = codes[:, seat] * cells + _profile_keys(others, k)
        np.add.at(sums, flat, share[:, seat])
        np.add.at(counts, flat, 1.0)
    sums, counts = sums.reshape(k, cells), counts.reshape(k, cells)
    overall = sums.sum(axis=1) / np.maximum(counts.sum(axis=1), 1.0)
    overall[counts.sum(axis=1) == 0] = 1.0 / n
    shrunk = (sums + PRIOR * overall[:, None]) / (counts + PRIOR)
    grid = np.indices((k,) * (n - 1)).reshape(n - 1, -1).T
    return shrunk[:, _profile_keys(grid, k)].reshape((k,) * n)


def solve(table: np.ndarray) -> np.ndarray:
    """The symmetric mixture projected replicator dynamics reach on the meta-game ``table`` (payoff_table)."""
    n = table.ndim
    tensors = [np.moveaxis(table, 0, seat) for seat in range(n)]
    mixes = projected_replicator_dynamics(tensors, prd_iterations=PRD_ITERATIONS, prd_dt=PRD_DT,
                                          average_over_last_n_strategies=PRD_ITERATIONS // 2)
    x = np.mean(mixes, axis=0)
    x[x < FLOOR] = 0.0
    return x / x.sum()


def values_against(table: np.ndarray, mixture: np.ndarray) -> np.ndarray:
    """Each member's expected win share in the meta-game when every other seat draws from ``mixture``."""
    out = table
    for _ in range(table.ndim - 1):
        out = out @ mixture
    return out
