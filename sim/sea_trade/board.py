"""Sea Trade board: grid geometry, random setup with rejection (ST-SETUP-1..4) and sea distances to markets."""

from __future__ import annotations

from numba import njit

from sim.core.graph import UNREACHED, bfs_distances
from sim.core.rng import randint
from sim.sea_trade.rules import R_GRID, R_ISLANDS, R_PIRATES, R_SPACING
from sim.sea_trade.state import (DESIRES, DIR_COL, DIR_ROW, LAND, M_DIST_DIRTY, MARKET, N_MARKETS, SEA, SELLS,
                                 State)

MAX_BOARD_ATTEMPTS = 100_000
FAR = 99
"""Distance used for an unreachable market in features and records."""
BLOCKED_PENALTY = 6
"""Extra steps assumed for a market whose sea routes are all cut by pirates or the storm."""


@njit(cache=True, _nrt=False)
def king_distance(g: int, a: int, b: int) -> int:
    """Chebyshev (king-move) distance between cells a and b on a g-wide grid, from coordinates."""
    dr = abs(a // g - b // g)
    dc = abs(a % g - b % g)
    return dr if dr > dc else dc


@njit(cache=True, _nrt=False)
def cheb(st: State, a: int, b: int) -> int:
    """Chebyshev distance between cells a and b (table lookup)."""
    return st.king[a, b]


@njit(cache=True, _nrt=False)
def build_geometry(st: State) -> None:
    """Fill the direction table ``nbr`` and the BFS adjacency (8-neighbourhood; ST-SAIL-1, ST-SAIL-5)."""
    g = st.rules[R_GRID]
    for c in range(g * g):
        r, col = c // g, c % g
        st.degree[c] = 0
        for d in range(8):
            rr, cc = r + DIR_ROW[d], col + DIR_COL[d]
            if 0 <= rr < g and 0 <= cc < g:
                st.nbr[c, d] = rr * g + cc
                st.adj[c, st.degree[c]] = rr * g + cc
                st.degree[c] += 1
            else:
                st.nbr[c, d] = -1
        for b in range(g * g):
            st.king[c, b] = king_distance(g, c, b)


@njit(cache=True, _nrt=False)
def _try_board(st: State) -> bool:
    """One random draw of islands and markets; False if spacing or sea reachability fails."""
    g = st.rules[R_GRID]
    n = g * g
    spacing = st.rules[R_SPACING]
    for c in range(n):
        st.cell[c] = SEA
        st.market_at[c] = -1
        st.queue[c] = c
    # ST-SETUP-1: islands on distinct random spaces (partial Fisher-Yates over the cells).
    for i in range(st.rules[R_ISLANDS]):
        j = i + randint(st.rng, n - i)
        st.queue[i], st.queue[j] = st.queue[j], st.queue[i]
        st.cell[st.queue[i]] = LAND
    # ST-SETUP-2: markets on free spaces at Chebyshev distance >= market_spacing from each other.
    for m in range(N_MARKETS):
        k = 0
        for c in range(n):
            if st.cell[c] != SEA:
                continue
            ok = True
            for q in range(m):
                if cheb(st, c, st.market_cell[q]) < spacing:
                    ok = False
                    break
            if ok:
                st.queue[k] = c
                k += 1
        if k == 0:
            return False
        c = st.queue[randint(st.rng, k)]
        st.cell[c] = MARKET
        st.market_at[c] = m
        st.market_cell[m] = c
    # ST-SETUP-3: every market reachable by sea from every other (land blocks; markets can be crossed).
    # Sea adjacency is symmetric, so all markets reachable from market 0 means all pairs are joined.
    for c in range(n):
        st.blocked[c] = st.cell[c] == LAND
    bfs_distances(st.adj, st.degree, st.blocked, st.market_cell[0], st.land_dist[0], st.queue)
    for m in range(1, N_MARKETS):
        if st.land_dist[0, st.market_cell[m]] >= UNREACHED:
            return False
    for m in range(1, N_MARKETS):
        bfs_distances(st.adj, st.degree, st.blocked, st.market_cell[m], st.land_dist[m], st.queue)
    return True


@njit(cache=True, _nrt=False)
def generate_board(st: State) -> int:
    """Draw a legal board (ST-SETUP-1..4), set ``start_dist``; return the attempts used (-1: none legal)."""
    g = st.rules[R_GRID]
    n = g * g
    attempt = 1
    while not _try_board(st):
        attempt += 1
        if attempt > MAX_BOARD_ATTEMPTS:
            return -1
    for m in range(N_MARKETS):
        # The market most desiring commodity c is the one whose DESIRES entry is c.
        for k in range(N_MARKETS):
            if DESIRES[k] == SELLS[m]:
                st.start_dist[m] = st.land_dist[k, st.market_cell[m]]
    # ST-SETUP-4: pirates on distinct random free sea spaces.
    for c in range(n):
        st.pirate_at[c] = -1
    st.storm[0] = -1
    for p in range(st.rules[R_PIRATES]):
        k = 0
        for c in range(n):
            if st.cell[c] == SEA and st.pirate_at[c] < 0:
                st.queue[k] = c
                k += 1
        c = st.queue[randint(st.rng, k)]
        st.pirate[p] = c
        st.pirate_at[c] = p
    st.misc[M_DIST_DIRTY] = 1
    return attempt


@njit(cache=True, _nrt=False)
def ensure_dist(st: State) -> None:
    """Recompute the sea distances to every market if a pirate or the storm moved (ST-SAIL-3 obstacles)."""
    if st.misc[M_DIST_DIRTY] == 0:
        return
    n = st.cell.shape[0]
    for c in range(n):
        st.blocked[c] = st.cell[c] == LAND or st.pirate_at[c] >= 0
    if st.storm[0] >= 0:
        st.blocked[st.storm[0]] = True
    for m in range(N_MARKETS):
        bfs_distances(st.adj, st.degree, st.blocked, st.market_cell[m], st.dist[m], st.queue)
    st.misc[M_DIST_DIRTY] = 0


@njit(cache=True, _nrt=False)
def route_dist(st: State, m: int, c: int) -> int:
    """Steps from c to market m for planning: by sea if open, else around land only plus BLOCKED_PENALTY.

    A route cut by pirates or the storm still points the ship towards its market (the blockade may move).
    """
    d = ship_dist(st, m, c)
    if d < FAR:
        return d
    e = st.land_dist[m, c]
    return e + BLOCKED_PENALTY if e < UNREACHED else FAR


@njit(cache=True, _nrt=False)
def ship_dist(st: State, m: int, c: int) -> int:
    """Sea steps from cell c to market m (FAR if cut off); a ship sharing a pirate's space leaves it first."""
    d = st.dist[m, c]
    if d < UNREACHED:
        return d
    best = UNREACHED
    for k in range(st.degree[c]):
        e = st.dist[m, st.adj[c, k]]
        if e < best:
            best = e
    if best >= UNREACHED or best + 1 > FAR:
        return FAR
    return best + 1
