"""Graph helpers over padded adjacency arrays: breadth-first distances without allocation."""

from __future__ import annotations

from collections import deque

import numpy as np
from sim.core.jit import kernel

UNREACHED = 1 << 30


@kernel
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


def hop_distances(nbrs: list[list[int]]) -> np.ndarray:
    """All-pairs hop counts of a small graph given as neighbour lists (-1: unreachable); for data loaders."""
    n = len(nbrs)
    dist = np.full((n, n), -1, dtype=np.int64)
    for s in range(n):
        dist[s, s] = 0
        queue = deque([s])
        while queue:
            v = queue.popleft()
            for w in nbrs[v]:
                if dist[s, w] < 0:
                    dist[s, w] = dist[s, v] + 1
                    queue.append(w)
    return dist
