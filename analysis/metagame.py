"""The empirical meta-game of a population and its solution, the meta-solver of PSRO (Lanctot et al., 2017).

Games in which every seat draws a member uniformly at random (a ``mixture`` study over the members) give, for
each member ``i`` and each multiset of the other seats' members, ``i``'s mean win share: a symmetric N-player
game over the members (random seating averages the seats out). Each cell is shrunk toward the member's mean
win share over all its games by ``PRIOR`` pseudo-games, so a profile that was rarely or never played leans on
what the member does elsewhere instead of on a handful of games.

Win shares sum to 1 in every game, so when every seat draws from a mixture x each seat's expected share is 1/N,
and x is a symmetric equilibrium exactly when no member gains against it: ``max_i v_i(x) = 1/N``. The solver
minimises that largest value over the simplex (scipy's SLSQP on the epigraph, with the exact Jacobian of v) from
several starts and keeps the best: projected replicator dynamics' average (open_spiel's
``projected_replicator_dynamics``, the meta-solver of the PSRO paper), the uniform mixture and every member
alone. Replicator dynamics alone cycles in some 4-player meta-games (its average is then no equilibrium: a
member gained 17 pts against it in-sample in reports/harden-bus-4p/nash-run); the polished answer's in-sample gain is the
smallest any start reached, and is reported. Weights below ``FLOOR`` are dropped.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from open_spiel.python.algorithms.projected_replicator_dynamics import projected_replicator_dynamics
from scipy.optimize import minimize

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
    """The symmetric mixture of the meta-game ``table`` (payoff_table) against which the best member gains least."""
    n, k = table.ndim, table.shape[0]
    tensors = [np.moveaxis(table, 0, seat) for seat in range(n)]
    mixes = projected_replicator_dynamics(tensors, prd_iterations=PRD_ITERATIONS, prd_dt=PRD_DT,
                                          average_over_last_n_strategies=PRD_ITERATIONS // 2)
    starts = [np.mean(mixes, axis=0), np.full(k, 1.0 / k), *np.eye(k)]
    best = min((_floored(_polish(table, x0)) for x0 in starts), key=lambda x: values_against(table, x).max())
    return best


def _polish(table: np.ndarray, x0: np.ndarray) -> np.ndarray:
    """Minimise the best member's value against x over the simplex from ``x0`` (epigraph form: min t subject to
    v_i(x) <= t), or ``x0`` itself if that does better."""
    k = table.shape[0]
    z0 = np.append(x0, values_against(table, x0).max())
    constraints = [{"type": "ineq", "fun": lambda z: z[-1] - values_against(table, z[:-1]),
                    "jac": lambda z: np.hstack([-_jacobian(table, z[:-1]), np.ones((k, 1))])},
                   {"type": "eq", "fun": lambda z: z[:-1].sum() - 1.0,
                    "jac": lambda z: np.append(np.ones(k), 0.0)[None, :]}]
    res = minimize(lambda z: z[-1], z0, jac=lambda z: np.eye(k + 1)[-1], method="SLSQP", constraints=constraints,
                   bounds=[(0.0, 1.0)] * k + [(None, None)], options={"maxiter": 200, "ftol": 1e-10})
    x = np.clip(res.x[:-1], 0.0, None)
    x = x / x.sum() if x.sum() > 0 else x0
    return x if values_against(table, x).max() <= values_against(table, x0).max() else x0


def _jacobian(table: np.ndarray, mixture: np.ndarray) -> np.ndarray:
    """``d v_i / d x_j``: (N - 1) times the table contracted with the mixture on all but one other seat (the
    table is symmetric in the other seats)."""
    out = table
    for _ in range(table.ndim - 2):
        out = out @ mixture
    return (table.ndim - 1) * out


def _floored(x: np.ndarray) -> np.ndarray:
    """The mixture without weights below FLOOR, renormalised."""
    x = np.where(x < FLOOR, 0.0, x)
    return x / x.sum()


def values_against(table: np.ndarray, mixture: np.ndarray) -> np.ndarray:
    """Each member's expected win share in the meta-game when every other seat draws from ``mixture``."""
    out = table
    for _ in range(table.ndim - 1):
        out = out @ mixture
    return out
