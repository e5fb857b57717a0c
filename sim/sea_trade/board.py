"""Sea Trade board: grid geometry, random setup with rejection (ST-SETUP-1..4) and sea distances to markets."""

from __future__ import annotations

import numpy as np

from sim.core.bits import fill_bits
from sim.core.graph import UNREACHED, bfs_distances
from sim.core.jit import kernel
from sim.core.rng import randint
from sim.sea_trade.state import BIT_CELLS, DESIRES, DIR_COL, DIR_ROW, LAND, MARKET, N_MARKETS, SEA, SELLS, STALE, State
from sim.sea_trade.rules import R
from sim.sea_trade.state import MISC, MK

MAX_BOARD_ATTEMPTS = 100_000
FAR = 99
"""Distance used for an unreachable market in features and records."""
BLOCKED_PENALTY = 6
"""Extra steps assumed for a market whose sea routes are all cut by pirates or the storm."""
@kernel
def king_distance(g: int, a: int, b: int) -> int:
    """Chebyshev (king-move) distance between cells a and b on a g-wide grid, from coordinates."""
    dr = abs(a // g - b // g)
    dc = abs(a % g - b % g)
    return dr if dr > dc else dc


@kernel
def build_geometry(st: State) -> None:
    """Fill the direction table ``nbr`` and the BFS adjacency (8-neighbourhood; ST-SAIL-1, ST-SAIL-5)."""
    rules = st.rules
    nbr = st.nbr
    adj = st.adj
    king = st.king
    ring = st.ring
    masks = st.masks
    degree = st.degree
    g = rules[R.grid_size]
    bits = g * g <= BIT_CELLS
    if bits:
        masks[MK.not_e], masks[MK.not_w] = _edge_masks(g)
    for c in range(g * g):
        r, col = c // g, c % g
        degree[c] = 0
        for d in range(8):
            rr, cc = r + DIR_ROW[d], col + DIR_COL[d]
            if 0 <= rr < g and 0 <= cc < g:
                nbr[c, d] = rr * g + cc
                adj[c, degree[c]] = rr * g + cc
                degree[c] += 1
            else:
                nbr[c, d] = -1
        for b in range(g * g):
            king[c, b] = king_distance(g, c, b)
            if bits:
                ring[c, king[c, b]] |= np.uint64(1) << np.uint64(b)


@kernel
def _try_board(st: State) -> bool:
    """One random draw of islands and markets; False if spacing or sea reachability fails."""
    rules = st.rules
    cell = st.cell
    market_at = st.market_at
    market_cell = st.market_cell
    blocked = st.blocked
    queue = st.queue
    land_dist = st.land_dist
    king = st.king
    rng = st.rng
    g = rules[R.grid_size]
    n = g * g
    spacing = rules[R.market_spacing]
    for c in range(n):
        cell[c] = SEA
        market_at[c] = -1
        queue[c] = c
    # ST-SETUP-1: islands on distinct random spaces (partial Fisher-Yates over the cells).
    for i in range(rules[R.islands]):
        j = i + randint(rng, n - i)
        queue[i], queue[j] = queue[j], queue[i]
        cell[queue[i]] = LAND
    # ST-SETUP-2: markets on free spaces at Chebyshev distance >= market_spacing from each other.
    for m in range(N_MARKETS):
        k = 0
        for c in range(n):
            if cell[c] != SEA:
                continue
            ok = True
            for q in range(m):
                if king[c, market_cell[q]] < spacing:
                    ok = False
                    break
            if ok:
                queue[k] = c
                k += 1
        if k == 0:
            return False
        c = queue[randint(rng, k)]
        cell[c] = MARKET
        market_at[c] = m
        market_cell[m] = c
    # ST-SETUP-3: every market reachable by sea from every other (land blocks; markets can be crossed).
    # Sea adjacency is symmetric, so all markets reachable from market 0 means all pairs are joined.
    for c in range(n):
        blocked[c] = cell[c] == LAND
    market_distances(st, land_dist, 0, 1)
    for m in range(1, N_MARKETS):
        if land_dist[0, market_cell[m]] >= UNREACHED:
            return False
    market_distances(st, land_dist, 1, N_MARKETS)
    return True


@kernel
def generate_board(st: State) -> int:
    """Draw a legal board (ST-SETUP-1..4), set ``start_dist``; return the attempts used (-1: none legal)."""
    rules = st.rules
    cell = st.cell
    market_cell = st.market_cell
    pirate = st.pirate
    pirate_at = st.pirate_at
    storm = st.storm
    queue = st.queue
    land_dist = st.land_dist
    start_dist = st.start_dist
    misc = st.misc
    rng = st.rng
    g = rules[R.grid_size]
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
                start_dist[m] = land_dist[k, market_cell[m]]
    # ST-SETUP-4: pirates on distinct random free sea spaces.
    for c in range(n):
        pirate_at[c] = -1
    storm[0] = -1
    for p in range(rules[R.pirates]):
        k = 0
        for c in range(n):
            if cell[c] == SEA and pirate_at[c] < 0:
                queue[k] = c
                k += 1
        c = queue[randint(rng, k)]
        pirate[p] = c
        pirate_at[c] = p
    set_board_masks(st)
    misc[MISC.dist_dirty] = 1
    return attempt


@kernel
def set_board_masks(st: State) -> None:
    """The open-sea and water bitboards of the board in ``st.cell`` (grids up to 8x8; call after editing cells)."""
    cell = st.cell
    masks = st.masks
    n = cell.shape[0]
    if n > BIT_CELLS:
        return
    masks[MK.sea] = 0
    masks[MK.water] = 0
    masks[MK.built] = 0
    for c in range(n):
        if cell[c] != LAND:
            masks[MK.water] |= np.uint64(1) << np.uint64(c)
            if cell[c] == SEA:
                masks[MK.sea] |= np.uint64(1) << np.uint64(c)


@kernel(inline="always")
def ensure_dist(st: State) -> None:
    """Recompute the sea distances to every market (``sea``, ``layers``) if a pirate or the storm moved
    (ST-SAIL-3 obstacles)."""
    misc = st.misc
    if misc[MISC.dist_dirty] != 0:
        _rebuild_dist(st)


@kernel
def _rebuild_dist(st: State) -> None:
    """``ensure_dist``'s rebuild: blocked = land, pirates and the storm; BFS from every market; step tables."""
    cell = st.cell
    pirate_at = st.pirate_at
    storm = st.storm
    adj = st.adj
    degree = st.degree
    blocked = st.blocked
    dist = st.dist
    sea = st.sea
    misc = st.misc
    n = cell.shape[0]
    if n <= BIT_CELLS:
        _bit_step_tables(st)
    else:
        for c in range(n):
            blocked[c] = cell[c] == LAND or pirate_at[c] >= 0
        if storm[0] >= 0:
            blocked[storm[0]] = True
        market_distances(st, dist, 0, N_MARKETS)
        fill_steps(dist, adj, degree, sea)
    known_targets = st.known_targets
    known_targets[:, :] = STALE  # the players' best markets depend on the distances
    misc[MISC.dist_dirty] = 0


@kernel
def market_distances(st: State, out, first: int, last: int) -> None:
    """Fill out[m] for markets first..last-1: steps from market m to every cell avoiding ``st.blocked``.

    Equal to sim.core.graph.bfs_distances (8-neighbourhood, ST-SAIL-1/ST-SAIL-5), on bitboards when n <= 64.
    """
    rules = st.rules
    cell = st.cell
    market_cell = st.market_cell
    adj = st.adj
    degree = st.degree
    blocked = st.blocked
    queue = st.queue
    n = cell.shape[0]
    if n > BIT_CELLS:
        for m in range(first, last):
            bfs_distances(adj, degree, blocked, market_cell[m], out[m], queue)
        return
    g = rules[R.grid_size]
    open_bits, not_e, not_w = _bit_masks(blocked, g)
    for m in range(first, last):
        _bit_bfs(open_bits, not_e, not_w, g, market_cell[m], out, m)


@kernel(inline="always")
def plan_steps(sea, land_dist, m: int, c: int) -> int:
    """Steps a ship on c plans to market m: by sea when open, else the land-only steps plus BLOCKED_PENALTY
    (FAR if none), so the ship still heads for its market (the blockade may move)."""
    d = sea[m, c]
    if d < FAR:
        return d
    land = land_dist[m, c]
    return land + BLOCKED_PENALTY if land < UNREACHED else FAR


@kernel
def _bit_step_tables(st: State) -> None:
    """``sea`` and ``layers`` of every market by bitboard BFS (grids up to 8x8), from scratch on a new board
    (``MK.built`` 0) and else writing only the entries that changed since the last build.

    The same ``sea`` on water as market_distances + fill_steps: a blocked space first touched at layer d of the
    BFS is d sea steps away (the ship steps off it onto a layer d-1 space). Land is FAR (no ship is on land).
    """
    masks = st.masks
    fresh = masks[MK.built] == 0
    open_bits = without_obstacles(masks[MK.water], st.pirate, st.storm[0])
    for m in range(N_MARKETS):
        _sea_layers(st, m, open_bits, fresh)
    masks[MK.built] = open_bits


@kernel(inline="always")
def _sea_layers(st: State, m: int, open_bits, fresh: bool) -> None:
    """BFS from market m's space over the water cells, stepping on from the ``open_bits`` ones:
    layers[m, d] = the cells d steps away (then a 0 layer), sea[m, c] = d, FAR for the cells never touched.

    Unless ``fresh``, the old layers (up to their 0) are the last build's, so a cell keeps its entry where it
    stays on its layer: only the cells that moved between layers are written, a few per pirate or storm move.
    """
    masks = st.masks  # locals: read once, the BFS loop below runs a dozen layers
    water = masks[MK.water]
    not_e = masks[MK.not_e]
    not_w = masks[MK.not_w]
    g = st.rules[R.grid_size]
    source = st.market_cell[m]
    sea = st.sea
    layers = st.layers
    one = np.uint64(1)
    n_layers = layers.shape[1]
    seen = one << np.uint64(source)
    old_seen = seen
    old_on = not fresh  # old layers remain to be read (until their terminating 0)
    if fresh:
        sea[m, source] = 0
    layers[m, 0] = seen
    front = seen
    d = 0
    while True:
        nb = _neighbours(front, not_e, not_w, g) & water & ~seen
        if nb == 0:
            break
        d += 1
        old = np.uint64(0)
        if old_on:
            old = layers[m, d]
            old_on = old != 0
            old_seen |= old
        layers[m, d] = nb
        seen |= nb
        front = nb & open_bits
        fill_bits(sea, m, nb & ~old, d)  # the cells that moved to this layer
    j = d + 1
    while old_on and j < n_layers:  # old layers beyond the new last one: cells now cut off
        old = layers[m, j]
        old_on = old != 0
        old_seen |= old
        j += 1
    if d + 1 < n_layers:
        layers[m, d + 1] = 0
    fill_bits(sea, m, (not_e | not_w) & ~seen if fresh else old_seen & ~seen, FAR)  # cut off


@kernel(inline="always")
def _neighbours(front, not_e, not_w, g: int):
    """Bitboard of the 8-neighbourhoods of the cells in ``front`` on a g x g grid (with ``not_e``/``not_w``, the
    cells having an east / a west neighbour); may include ``front`` itself."""
    one = np.uint64(1)
    s = np.uint64(g)
    row = front | ((front & not_e) << one) | ((front & not_w) >> one)  # each cell with its east and west
    return row | (row << s) | (row >> s)  # ... and the rows above and below


@kernel(inline="always")
def without_obstacles(bits, pirate, storm: int):
    """The bitboard ``bits`` less the pirates' spaces and the storm's (-1: none)."""
    one = np.uint64(1)
    for p in range(pirate.shape[0]):
        bits &= ~(one << np.uint64(pirate[p]))
    if storm >= 0:
        bits &= ~(one << np.uint64(storm))
    return bits


@kernel
def _edge_masks(g: int):
    """Bitboards of the cells with an east / a west neighbour on a g x g grid."""
    one = np.uint64(1)
    n = g * g
    full = (one << np.uint64(n - 1) << one) - one if n < BIT_CELLS else ~np.uint64(0)
    not_e = full
    not_w = full
    for r in range(g):
        not_e &= ~(one << np.uint64(r * g + g - 1))
        not_w &= ~(one << np.uint64(r * g))
    return not_e, not_w


@kernel
def _bit_masks(blocked, g: int):
    """Bitboards of the cells not ``blocked`` and of the cells with an east / a west neighbour (g x g grid)."""
    one = np.uint64(1)
    not_e, not_w = _edge_masks(g)
    open_bits = np.uint64(0)
    for c in range(g * g):
        if not blocked[c]:
            open_bits |= one << np.uint64(c)
    return open_bits, not_e, not_w


@kernel
def _bit_bfs(open_bits, not_e, not_w, g: int, source: int, out, row: int) -> None:
    """Bitboard BFS from ``source`` (which may be blocked) through the cells set in ``open_bits``:
    out[row] = steps to every cell (UNREACHED where none)."""
    for v in range(out.shape[1]):
        out[row, v] = UNREACHED
    out[row, source] = 0
    one = np.uint64(1)
    seen = one << np.uint64(source)
    front = seen
    d = 0
    while True:
        front = _neighbours(front, not_e, not_w, g) & open_bits & ~seen
        if front == 0:
            return
        d += 1
        seen |= front
        fill_bits(out, row, front, d)


@kernel
def fill_steps(dist, adj, degree, sea) -> None:
    """Tabulate, for every market m and cell c, sea[m, c]: sea steps to m (FAR if cut off; a ship sharing a
    pirate's space leaves it first), from the BFS distances ``dist`` (grids over 8x8; smaller ones get the same
    table from ``_bit_step_tables``).

    One pass per distance rebuild: the decisions then read a table entry instead of calling a helper per lookup.
    """
    for m in range(dist.shape[0]):
        for c in range(dist.shape[1]):
            d = dist[m, c]
            if d >= UNREACHED:
                # A ship on a blocked space (a pirate's) steps off it first.
                best = UNREACHED
                for k in range(degree[c]):
                    e = dist[m, adj[c, k]]
                    if e < best:
                        best = e
                d = FAR if best >= UNREACHED or best + 1 > FAR else best + 1
            sea[m, c] = d
