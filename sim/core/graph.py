"""Graph helpers over padded adjacency arrays: breadth-first distances without allocation."""

from __future__ import annotations

import numpy as np
from numba import njit

UNREACHED = 1 << 30


@njit(cache=True)
def bfs_distances(adj: np.ndarray, degree: np.ndarray, blocked: np.ndarray, source: int,
                  dist: np.ndarray, queue: np.ndarray) -> None:
    """Fill ``dist`` with hop counts from ``source`` avoiding ``blocked`` nodes (the source may be blocked).

    ``adj[v, :degree[v]]`` lists v's neighbours; ``queue`` is scratch space of at least len(dist).
    Unreached nodes get ``UNREACHED``.
    """
    for v in range(dist.shape[0]):
        dist[v] = UNREACHED
    dist[source] = 0
    head = 0
    tail = 0
    queue[tail] = source
    tail += 1
    while head < tail:
        v = queue[head]
        head += 1
        for k in range(degree[v]):
            w = adj[v, k]
            if dist[w] == UNREACHED and not blocked[w]:
                dist[w] = dist[v] + 1
                queue[tail] = w
                tail += 1
