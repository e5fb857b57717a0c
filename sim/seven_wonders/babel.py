"""Tower of Babel (BABEL-SETUP-*, BABEL-ACT-*, BABEL-PLACE-*, BABEL-ACTIVE-*, BABEL-TILE-*): the tile draft, the
placement at turn end, which tiles are active, and the questions the other rules ask the active tiles.

At most 4 tiles are active, so every question loops over the visible slots. A tile's effect is read from the data
through ``effect_of`` (which applies the SW-DEC-15 swap of tiles 2 and 15) and its trigger through ``trigger_of`` (which
applies the SW-DEC-14 literal reading of the tax tiles).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.play import event
from sim.core.rng import shuffle
from sim.seven_wonders.data import AGE, MAN_MASK, N_TILES, RAW_MASK, TILE_KIND, Data
from sim.seven_wonders.events import EV
from sim.seven_wonders.payment import kind_on, refresh_production
from sim.seven_wonders.rules import R
from sim.seven_wonders.seats import players
from sim.seven_wonders.state import N_TE, TE, TREC, GS, State

N_SLOTS = 4


@kernel
def effect_of(rules: np.ndarray, t: int) -> int:
    """The tile whose printed effect tile t carries: 2 <-> 15 under ``tiles_2_15_swapped`` (SW-DEC-15)."""
    if rules[R.tiles_2_15_swapped]:
        if t == 1:
            return 14
        if t == 14:
            return 1
    return t


@kernel
def trigger_of(data: Data, rules: np.ndarray, t: int) -> int:
    """TR bits of tile t's effect; a tax tile reads its literal trigger under ``tax_tiles_literal`` (SW-DEC-14)."""
    e = effect_of(rules, t)
    if rules[R.tax_tiles_literal] and data.tile_kind[e] == TILE_KIND.tax_on_build:
        return data.tile_literal_trigger[e]
    return data.tile_trigger[e]


@kernel
def _amount(data: Data, e: int, age: int) -> int:
    return age if data.tile_amount[e] == AGE else data.tile_amount[e]


@kernel
def active_kind(st: State, data: Data, rules: np.ndarray, kind: int, triggers: int) -> int:
    """Active tiles of ``kind`` whose trigger meets ``triggers`` (any bit; 0 = ignore triggers) (BABEL-ACTIVE-1)."""
    if not kind_on(st, kind):
        return 0
    count = 0
    for k in range(N_SLOTS):
        t = st.babel_slot[k]
        if t >= 0 and data.tile_kind[effect_of(rules, t)] == kind:
            if triggers == 0 or trigger_of(data, rules, t) & triggers:
                count += 1
    return count


@kernel
def coins_for(st: State, data: Data, rules: np.ndarray, kind: int, triggers: int, age: int) -> int:
    """Sum of the amounts of the active tiles of ``kind`` met by ``triggers``: taxes (BABEL-TILE-1 / BABEL-TILE-6 /
    BABEL-TILE-13 / BABEL-TILE-16, one per tile, SW-DEC-9) and subsidies (BABEL-TILE-5 / BABEL-TILE-14 /
    BABEL-TILE-24)."""
    if not kind_on(st, kind):
        return 0
    total = 0
    for k in range(N_SLOTS):
        t = st.babel_slot[k]
        if t >= 0:
            e = effect_of(rules, t)
            if data.tile_kind[e] == kind and trigger_of(data, rules, t) & triggers:
                total += _amount(data, e, age)
    return total


@kernel
def coins_per_unit(st: State, data: Data, rules: np.ndarray, triggers: int) -> int:
    """BABEL-TILE-8 / BABEL-TILE-23: coins per resource symbol when an active tile forbids resources for this build,
    else -1."""
    if not kind_on(st, TILE_KIND.coins_instead_of_resources):
        return -1
    for k in range(N_SLOTS):
        t = st.babel_slot[k]
        if t >= 0:
            e = effect_of(rules, t)
            if data.tile_kind[e] == TILE_KIND.coins_instead_of_resources and data.tile_trigger[e] & triggers:
                return data.tile_amount[e]
    return -1


@kernel
def victory_value(st: State, data: Data, rules: np.ndarray, value: int) -> int:
    """BABEL-TILE-19 (and BABEL-TILE-GP): the Victory token actually taken for one worth ``value``."""
    for k in range(N_SLOTS):
        t = st.babel_slot[k]
        if t >= 0:
            e = effect_of(rules, t)
            if data.tile_kind[e] == TILE_KIND.victory_token_map and value < data.tile_vmap.shape[1]:
                value = data.tile_vmap[e, value]
    return value


@kernel
def defeat_copies(st: State, data: Data, rules: np.ndarray, value: int) -> int:
    """BABEL-TILE-22 (and BABEL-TILE-GP): how many Defeat tokens a player takes for one worth -``value``."""
    copies = 1
    if value == 1:
        for k in range(N_SLOTS):
            t = st.babel_slot[k]
            if t >= 0:
                e = effect_of(rules, t)
                if data.tile_kind[e] == TILE_KIND.defeat_token_multiplier:
                    copies *= data.tile_defeat_count[e]
    return copies


@kernel
def refresh_tiles(st: State, data: Data, rules: np.ndarray) -> None:
    """Recompute tile_on, the kinds active, the trade deltas (BABEL-TILE-9 / BABEL-TILE-10 / BABEL-TILE-11 /
    BABEL-TILE-12) and every production view (BABEL-TILE-3/4/17/18/20/21)."""
    for t in range(N_TILES):
        st.tile_on[t] = 0
    for k in range(N_TE):
        st.teff[k] = 0
    for k in range(N_SLOTS):
        t = st.babel_slot[k]
        if t >= 0:
            e = effect_of(rules, t)
            st.tile_on[e] = 1  # production reads tile_on by effect
            st.teff[TE.kinds] |= 1 << data.tile_kind[e]
            if data.tile_kind[e] == TILE_KIND.trade_price_delta:
                if data.tile_res[e] & RAW_MASK:
                    st.teff[TE.delta_raw] += data.tile_delta[e]
                if data.tile_res[e] & MAN_MASK:
                    st.teff[TE.delta_man] += data.tile_delta[e]
    for p in range(st.g[GS.n]):
        refresh_production(st, data, rules, p)
        st.pver[p] += 1  # trade prices may have changed (tiles 9-12): every cached trade cost is stale


@kernel
def place_tile(st: State, data: Data, t: int) -> None:
    """BABEL-PLACE-2: the first tile fills the starting slot, later ones the next slot clockwise; when every slot is
    full the next tile covers the earliest-placed visible tile (slots cycle, so that is the next one). Slots by player
    count: with two players the face-down tile keeps the third slot, so placement cycles over two (BABEL-2P-1,
    SW-DEC-17). Each placement is traced with the tile it covers."""
    n_slots = data.babel_slots[players(st)]
    k = st.g[GS.babel_next]
    covered = st.babel_slot[k]
    if covered >= 0:
        st.tile_rec[covered, TREC.covered] = st.g[GS.game_turn]
    event(st, st.tile_rec[t, TREC.builder], EV.tile, t, k, covered)  # here: a tile may be covered in its own turn
    st.tile_rec[t, TREC.placed] = st.g[GS.game_turn]
    st.babel_slot[k] = t
    st.babel_age[k] = st.g[GS.babel_placed]
    st.g[GS.babel_placed] += 1
    st.g[GS.babel_next] = (k + 1) % n_slots


@kernel
def place_due_tiles(st: State, data: Data, rules: np.ndarray) -> int:
    """BABEL-PLACE-1 / BABEL-PLACE-3: at the very end of a turn, place the tiles built this turn in ascending printed
    number, then refresh what is active (BABEL-ACTIVE-2). Returns the number placed."""
    placed = 0
    n = st.g[GS.n]
    for t in range(N_TILES):
        for p in range(n):
            if (st.tile_due[p] >> t) & 1:
                place_tile(st, data, t)
                st.tile_due[p] &= ~(1 << t)
                placed += 1
    if placed:
        refresh_tiles(st, data, rules)
    return placed


@kernel
def deal_tiles(st: State, rules: np.ndarray) -> None:
    """BABEL-SETUP-2: shuffle the 24 tiles and deal 3 face down to each player; the rest stay unseen. The Free City
    receives none (BABEL-2P-1)."""
    n = players(st)
    order = np.arange(N_TILES)  # setup only, once per game
    shuffle(st.rng, order, N_TILES)
    for p in range(n):
        for j in range(3):
            st.tile_pool[p, j] = order[3 * p + j]
            st.tiles[p, j] = -1
            st.tile_built[p, j] = 0
        st.tiles_built[p] = 0


@kernel
def tile_draft_options(st: State, p: int) -> int:
    """BABEL-SETUP-3: the tiles in front of p to keep (option i = pool position); returns how many."""
    n_opt = 0
    for j in range(3):
        if st.tile_pool[p, j] >= 0:
            st.options[n_opt, 0] = j
            n_opt += 1
    return n_opt


@kernel
def keep_is_legal(st: State, p: int, j: int) -> bool:
    """Predicate for BABEL-SETUP-3: pool position j holds a tile in front of p."""
    return 0 <= j < 3 and st.tile_pool[p, j] >= 0


@kernel
def keep_tile(st: State, p: int, j: int) -> None:
    """BABEL-SETUP-3: p secretly keeps the tile at pool position j."""
    k = 0
    while st.tiles[p, k] >= 0:
        k += 1
    st.tiles[p, k] = st.tile_pool[p, j]
    st.tile_pool[p, j] = -1


@kernel
def pass_tiles_right(st: State) -> None:
    """BABEL-SETUP-3: every pool goes to the right neighbour (each player receives from his left); a pool of one tile is
    then taken as the third tile. The circle is the players': with two, each passes to the other (BABEL-2P-1)."""
    n = players(st)
    first = st.tile_pool[0].copy()  # setup only
    for p in range(n - 1):
        for j in range(3):
            st.tile_pool[p, j] = st.tile_pool[p + 1, j]
    for j in range(3):
        st.tile_pool[n - 1, j] = first[j]
    for p in range(n):
        left = 0
        for j in range(3):
            if st.tile_pool[p, j] >= 0:
                left += 1
        if left == 1:
            for j in range(3):
                if st.tile_pool[p, j] >= 0:
                    keep_tile(st, p, j)


@kernel
def babel_vp(st: State, data: Data, p: int) -> int:
    """BABEL-SCORE-1: 2 / 5 / 10 VP for 1 / 2 / 3 tiles built."""
    return data.babel_vp[st.tiles_built[p]]
