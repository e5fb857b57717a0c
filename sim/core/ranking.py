"""Final standings shared by every game: lexicographic ranking with shared ranks for exact ties."""

from __future__ import annotations

import numpy as np
from sim.core.jit import kernel


@kernel
def _beats(keys: np.ndarray, a: int, b: int) -> int:
    """+1 if seat a ranks above seat b, -1 if below, 0 for an exact tie (keys: higher is better)."""
    for k in range(keys.shape[1]):
        if keys[a, k] > keys[b, k]:
            return 1
        if keys[a, k] < keys[b, k]:
            return -1
    return 0


@kernel
def rank_seats(keys: np.ndarray, n_players: int, rank: np.ndarray) -> None:
    """Rank 1 = best; seats with identical key rows share a rank (competition ranking, 1-2-2-4).

    ``keys[s]`` holds seat s's ordering keys, most significant first, each "higher is better"
    (negate a key where lower wins, e.g. the time a score was reached).
    """
    for a in range(n_players):
        r = 1
        for b in range(n_players):
            if b != a and _beats(keys, b, a) > 0:
                r += 1
        rank[a] = r
