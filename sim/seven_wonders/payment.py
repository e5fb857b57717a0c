"""Production and the cheapest legal payment of a resource cost (SW-RES-*, SW-TRADE-*, SW-DEC-1, BABEL-TRADE-1).

A player covers a cost from his own fixed production, his one-of choice sources (choice cards, Forum, Caravansery,
Alexandria's stages, Babel tiles 17/18/21) and units bought from his two neighbours' sellable sources at a price per
(side, resource). Choice sources make this an assignment problem; it is solved exactly as a min-cost flow (source ->
choice unit -> resource -> sink, plus fixed-supply edges per side and resource) with successive shortest paths. Costs
are scaled so that among equally cheap plans the one buying the fewest units from the non-preferred side wins (the
SW-DEC-1 tie-break). Where only the coins are wanted (an option's price, ``trade_cost``) and the choice sources that
matter can be used in few ways, each way is tried instead (``cheapest_coins``): the same coins, without the flow.
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.seven_wonders.data import MAN_MASK, N_RES, RAW_MASK, TILE_KIND, Data
from sim.seven_wonders.rules import R
from sim.seven_wonders.state import MAX_CHOICE, TC_SLOTS, TE, GS, State

BIG = 1 << 20  # capacity of unlimited production (BABEL-TILE-20)
TIE = 32  # cost scale: one coin outweighs any tie-break count (a payment buys fewer than 32 units)
INF = 1 << 60
STRICT = 2  # cheapest_trade's ``prefer`` + STRICT: that side first whatever the price (SW-2P-4)
TC_HASH = 2654435769  # Knuth's multiplicative hash constant (2**32 / golden ratio): trade_cost's slot
STRICT_COST = 1 << 16  # flow cost of a unit from the other side under STRICT: above any plan's scaled coins
MAX_WAYS = 64  # cheapest_coins tries each way to use the choice units up to this many, else runs the flow
S_NODE = 0
T_NODE = 1
RES_NODE = 2  # resource r is node RES_NODE + r; choice units follow


@kernel
def neighbour(st: State, p: int, side: int) -> int:
    """SW-SETUP-4: side 0 = left = p + 1, side 1 = right = p - 1 (mod n)."""
    n = st.g[GS.n]
    return (p + 1) % n if side == 0 else (p + n - 1) % n


@kernel
def _tile_blocks(st: State, data: Data, kind: int, card: int) -> bool:
    """True if an active tile of ``kind`` names ``card`` (BABEL-TILE-3 / BABEL-TILE-4 / BABEL-TILE-20)."""
    for t in range(st.tile_on.shape[0]):
        if st.tile_on[t] and data.tile_kind[t] == kind and data.tile_cards[t, card]:
            return True
    return False


@kernel
def kind_on(st: State, kind: int) -> bool:
    """Whether an active tile has effect ``kind`` (BABEL-ACTIVE-1), from the summary ``refresh_tiles`` keeps: a
    question about a kind no active tile has needs no look at the tiles."""
    return (st.teff[TE.kinds] >> kind) & 1 != 0


@kernel
def _add_choice(st: State, p: int, mask: int, sellable: int) -> None:
    k = st.chc_n[p]
    if k < MAX_CHOICE:
        st.chc[p, k] = mask
        st.chc_sell[p, k] = sellable
        st.chc_n[p] = k + 1


@kernel
def refresh_production(st: State, data: Data, rules: np.ndarray, p: int) -> None:
    """Rebuild p's production view from his board, city, stages and the active tiles.

    SW-RES-1 / SW-RES-2 / SW-RES-3: the board's resource (gone after a lose-board penalty, SW-DEC-19), brown and grey
    cards (sellable), choice cards, Forum / Caravansery and stage choices (owner only), discounts (SW-TRADE-3).
    BABEL-TILE-3: multi-resource brown cards yield nothing (nor sell, SW-DEC-16 ``tile3_blocks_sale``); BABEL-TILE-4:
    trading cards lose discounts (and production, ``tile4_blocks_production``); BABEL-TILE-20: single brown cards become
    unlimited (sellable); BABEL-TILE-17 / BABEL-TILE-18 / BABEL-TILE-21: one free unit each.
    """
    _remember(st, p)
    for r in range(N_RES):
        st.prod[p, r] = 0
        st.sell[p, r] = 0
    st.unlimited[p] = 0
    st.chc_n[p] = 0
    st.disc[p] = 0
    _fill_production(st, data, rules, p)
    if _changed(st, p):
        st.pver[p] += 1  # p's own and neighbours' cached trade costs are stale (trade_cost)


@kernel
def _fill_production(st: State, data: Data, rules: np.ndarray, p: int) -> None:
    w = st.wonder[p]
    s = st.side[p]
    if st.board_lost[p] == 0:
        st.prod[p, data.wonder_res[w]] += 1
        st.sell[p, data.wonder_res[w]] += 1
    any_multi = kind_on(st, TILE_KIND.disable_production)
    any_trade = kind_on(st, TILE_KIND.disable_effects)
    any_unlimited = kind_on(st, TILE_KIND.unlimited_production)
    for i in range(st.city_n[p]):
        c = st.city[p, i]
        if not data.card_output[c]:
            continue  # no units, choice or discount: nothing to add, whatever the tiles
        multi_off = any_multi and _tile_blocks(st, data, TILE_KIND.disable_production, c)
        trade_off = any_trade and _tile_blocks(st, data, TILE_KIND.disable_effects, c)
        if any_unlimited and _tile_blocks(st, data, TILE_KIND.unlimited_production, c):
            for r in range(N_RES):
                if data.card_prod[c, r] > 0:
                    st.unlimited[p] |= 1 << r
        if not trade_off:
            st.disc[p] |= data.card_discount[c]
        if multi_off:
            if rules[R.tile3_blocks_sale]:
                continue
            for r in range(N_RES):  # the owner cannot use them; neighbours still buy (switch off)
                st.sell[p, r] += data.card_prod[c, r] * data.card_sellable[c]
            if data.card_choice[c] != 0 and data.card_sellable[c]:
                _add_choice(st, p, data.card_choice[c], 2)
            continue
        for r in range(N_RES):
            st.prod[p, r] += data.card_prod[c, r]
            st.sell[p, r] += data.card_prod[c, r] * data.card_sellable[c]
        if data.card_choice[c] != 0 and not (trade_off and rules[R.tile4_blocks_production]):
            _add_choice(st, p, data.card_choice[c], data.card_sellable[c])
    for j in range(st.stages[p]):
        if data.stage_choice[w, s, j] != 0:
            _add_choice(st, p, data.stage_choice[w, s, j], 0)
        st.disc[p] |= data.stage_discount[w, s, j]
    if kind_on(st, TILE_KIND.free_resource_per_turn):
        for t in range(st.tile_on.shape[0]):
            if st.tile_on[t] and data.tile_kind[t] == TILE_KIND.free_resource_per_turn:
                _add_choice(st, p, data.tile_res[t], 0)


@kernel
def _remember(st: State, p: int) -> None:
    """Copy p's production view into the scratch row pv_old (to tell whether a refresh changed it)."""
    k = 0
    for r in range(N_RES):
        st.pv_old[k] = st.prod[p, r]
        st.pv_old[k + 1] = st.sell[p, r]
        k += 2
    st.pv_old[k] = st.unlimited[p]
    st.pv_old[k + 1] = st.disc[p]
    st.pv_old[k + 2] = st.chc_n[p]
    k += 3
    for j in range(st.chc_n[p]):
        st.pv_old[k] = st.chc[p, j]
        st.pv_old[k + 1] = st.chc_sell[p, j]
        k += 2


@kernel
def _changed(st: State, p: int) -> bool:
    k = 0
    for r in range(N_RES):
        if st.pv_old[k] != st.prod[p, r] or st.pv_old[k + 1] != st.sell[p, r]:
            return True
        k += 2
    if st.pv_old[k] != st.unlimited[p] or st.pv_old[k + 1] != st.disc[p] or st.pv_old[k + 2] != st.chc_n[p]:
        return True
    k += 3
    for j in range(st.chc_n[p]):
        if st.pv_old[k] != st.chc[p, j] or st.pv_old[k + 1] != st.chc_sell[p, j]:
            return True
        k += 2
    return False


@kernel
def trade_cost(st: State, rules: np.ndarray, p: int) -> int:
    """The coins of ``cheapest_trade`` for ``st.need`` (no plan: ``cheapest_coins``), cached per player by need vector.

    The cost depends only on the need, p's production view and the neighbours' (SW-TRADE-*), and the trade-price
    tiles: an entry stays valid while the three players' production versions (``pver``, bumped only when a refresh
    changes a view, or by a tile placement) are those it was computed under. Prices, not plans: the tie-break side
    never changes the cost (SW-DEC-1). The slot is a multiplicative hash of all the need's digits (the key modulo
    the slots read only the last two resources' digits: most needs shared one slot).
    """
    key = 0
    for r in range(N_RES):
        if st.need[r] > 15:
            return cheapest_coins(st, rules, p)
        key = key * 16 + st.need[r]
    n = st.g[GS.n]
    stamp = st.pver[p] + (st.pver[(p + 1) % n] << 20) + (st.pver[(p + n - 1) % n] << 40)
    slot = (key * TC_HASH >> 26) & (TC_SLOTS - 1)
    if st.tc_key[p, slot] == key and st.tc_stamp[p, slot] == stamp:
        return st.tc_cost[p, slot]
    cost = cheapest_coins(st, rules, p)
    st.tc_key[p, slot] = key
    st.tc_stamp[p, slot] = stamp
    st.tc_cost[p, slot] = cost
    return cost


@kernel
def unit_price(st: State, rules: np.ndarray, p: int, side: int, r: int) -> int:
    """Coins p pays the ``side`` neighbour per unit of r: 2, or 1 with a discount (SW-TRADE-1 / SW-TRADE-3), plus the
    active tiles 9-12's deltas, never below 0 (BABEL-TRADE-1)."""
    price = rules[R.trade_price]
    if (st.disc[p] >> (7 * side + r)) & 1:
        price = rules[R.discount_price]
    if (RAW_MASK >> r) & 1:
        price += st.teff[TE.delta_raw]
    if (MAN_MASK >> r) & 1:
        price += st.teff[TE.delta_man]
    return max(price, 0)


@kernel
def _edge(st: State, m: int, u: int, v: int, cap: int, cost: int, info: int) -> int:
    """Add edge u -> v and its residual twin; return the new edge count."""
    st.flow_to[m] = v
    st.flow_cap[m] = cap
    st.flow_cost[m] = cost
    st.flow_info[m] = info
    st.flow_next[m] = st.flow_head[u]
    st.flow_head[u] = m
    st.flow_to[m + 1] = u
    st.flow_cap[m + 1] = 0
    st.flow_cost[m + 1] = -cost
    st.flow_info[m + 1] = -1
    st.flow_next[m + 1] = st.flow_head[v]
    st.flow_head[v] = m + 1
    return m + 2


@kernel
def _shortest_path(st: State, n_nodes: int) -> int:
    """Bellman-Ford (queue form) from the source over residual edges; returns dist to the sink or INF. The arrays
    are read into locals once: a store through the handle's field reloads every field the loop reads."""
    dist, prev, inq, queue = st.flow_dist, st.flow_prev, st.flow_inq, st.flow_queue
    first, nxt, to, cap, cost = st.flow_head, st.flow_next, st.flow_to, st.flow_cap, st.flow_cost
    for v in range(n_nodes):
        dist[v] = INF
        prev[v] = -1
        inq[v] = 0
    size = n_nodes + 1
    head = 0
    tail = 0
    dist[S_NODE] = 0
    queue[tail] = S_NODE
    tail = (tail + 1) % size
    inq[S_NODE] = 1
    while head != tail:
        u = queue[head]
        head = (head + 1) % size
        inq[u] = 0
        e = first[u]
        while e >= 0:
            if cap[e] > 0:
                v = to[e]
                nd = dist[u] + cost[e]
                if nd < dist[v]:
                    dist[v] = nd
                    prev[v] = e
                    if inq[v] == 0:
                        inq[v] = 1
                        queue[tail] = v
                        tail = (tail + 1) % size
            e = nxt[e]
    return dist[T_NODE]


@kernel
def cheapest_trade(st: State, rules: np.ndarray, p: int, prefer: int) -> int:
    """SW-DEC-1: the fewest coins p must pay neighbours to cover ``st.need``; -1 if no plan covers it.

    Own fixed units first, then own choice sources (free), then purchases under SW-TRADE-2 (each neighbour unit at most
    once per buyer; a neighbour's choice source gives one unit of the buyer's pick). Among the cheapest plans, the
    fewest units come from the side other than ``prefer`` (0 left, 1 right). ``prefer`` + STRICT puts that side first
    whatever the price: the fewest units from the other side, then the fewest coins (the Free City's controller
    choosing its sellers, SW-2P-4). The units bought are left in ``st.buy[side, r]``.
    """
    total = _deficits(st, p)
    if total == 0:
        return 0
    if not _choices_matter(st, p):
        return _separable_trade(st, rules, p, prefer)
    return _flow_trade(st, rules, p, prefer, total)


@kernel
def cheapest_coins(st: State, rules: np.ndarray, p: int) -> int:
    """The coins of ``cheapest_trade`` (any ``prefer`` below STRICT: the cheapest plans all cost the same), its plan
    not kept. When the choice sources that matter leave at most MAX_WAYS ways to use them, each way is tried
    (``_ways_coins``) instead of the flow: the same fewest coins, several times faster."""
    total = _deficits(st, p)
    if total == 0:
        return 0
    if not _choices_matter(st, p):
        return _separable_trade(st, rules, p, 0)
    n_units = _collect_units(st, p)
    if _ways(st, n_units) <= MAX_WAYS:
        _fill_offers(st, rules, p)
        return _ways_coins(st, n_units)
    return _flow_trade(st, rules, p, 0, total)


@kernel
def _deficits(st: State, p: int) -> int:
    """st.need less p's own fixed units (unlimited ones cover everything, BABEL-TILE-20), st.buy cleared; returns the
    units still to cover."""
    buy, need, prod, unlimited = st.buy, st.need, st.prod, st.unlimited[p]  # locals: each store reloads a field
    for s in range(2):
        for r in range(N_RES):
            buy[s, r] = 0
    total = 0
    for r in range(N_RES):
        d = need[r] - prod[p, r]
        if (unlimited >> r) & 1 or d < 0:
            d = 0
        need[r] = d  # from here on: the deficit after own fixed production
        total += d
    return total


@kernel
def _collect_units(st: State, p: int) -> int:
    """The choice units that could serve st.need into st.units rows (needed resources mask, seller side or -1 for
    p's own, how many needed resources it offers, its use): p's own usable ones and the neighbours' sellable ones,
    as the flow has them. Returns how many."""
    needed = 0
    for r in range(N_RES):
        if st.need[r] > 0:
            needed |= 1 << r
    units = st.units
    n = 0
    for k in range(st.chc_n[p]):
        if st.chc_sell[p, k] != 2 and st.chc[p, k] & needed:  # 2 = sellable only (tile 3, its sale switch off)
            n = _unit(units, n, st.chc[p, k] & needed, -1)
    for s in range(2):
        q = neighbour(st, p, s)
        for k in range(st.chc_n[q]):
            if st.chc_sell[q, k] != 0 and st.chc[q, k] & needed:
                n = _unit(units, n, st.chc[q, k] & needed, s)
    return n


@kernel
def _unit(units: np.ndarray, n: int, mask: int, side: int) -> int:
    """Row n of ``units``: a choice unit offering the resources in ``mask``, sold from ``side`` (-1: own), unused."""
    units[n, 0] = mask
    units[n, 1] = side
    units[n, 2] = 0
    for r in range(N_RES):
        units[n, 2] += (mask >> r) & 1
    units[n, 3] = 0
    return n + 1


@kernel
def _ways(st: State, n_units: int) -> int:
    """How many ways the collected units can be used (each one of its resources, or none), up to MAX_WAYS + 1."""
    ways = 1
    for i in range(n_units):
        ways *= st.units[i, 2] + 1
        if ways > MAX_WAYS:
            return MAX_WAYS + 1
    return ways


@kernel
def _fill_offers(st: State, rules: np.ndarray, p: int) -> None:
    """st.offer[0, s, r] = p's price per unit of r from side s, st.offer[1, s, r] = the units that side sells him
    (BIG when unlimited), for each resource st.need still asks for: the fixed facts every way reads."""
    offer = st.offer
    for r in range(N_RES):
        if st.need[r] > 0:
            for s in range(2):
                q = neighbour(st, p, s)
                offer[0, s, r] = unit_price(st, rules, p, s, r)
                offer[1, s, r] = BIG if (st.unlimited[q] >> r) & 1 else st.sell[q, r]


@kernel
def _ways_coins(st: State, n_units: int) -> int:
    """The fewest coins over every way to use the collected choice units, the rest bought resource by resource
    (``_way_coins``); -1 if no way covers st.need. Exact: once the units' uses are fixed, the purchases are separable
    and the cheaper side first is cheapest."""
    units = st.units
    best = -1
    while True:
        coins = _way_coins(st, n_units)
        if coins >= 0 and (best < 0 or coins < best):
            best = coins
        i = 0  # the next way: count the uses up like digits
        while i < n_units:
            units[i, 3] += 1
            if units[i, 3] <= units[i, 2]:
                break
            units[i, 3] = 0
            i += 1
        if i == n_units:
            return best


@kernel
def _way_coins(st: State, n_units: int) -> int:
    """The coins of covering st.need with the collected units used as st.units says (use j: the j-th resource of its
    mask, 0 none) and the rest bought cheaper side first (st.offer); -1 if that cannot cover it, or if a unit serves a
    resource already covered (the way without that use costs no more). Arrays in locals: this runs for every way."""
    units, left, offer = st.units, st.left, st.offer
    for r in range(N_RES):
        left[r] = st.need[r]
    coins = 0
    for i in range(n_units):
        j = units[i, 3]
        if j == 0:
            continue
        r = _nth_resource(units[i, 0], j)
        if left[r] == 0:
            return -1
        left[r] -= 1
        if units[i, 1] >= 0:
            coins += offer[0, units[i, 1], r]
    for r in range(N_RES):
        d = left[r]
        if d == 0:
            continue
        first = 0 if offer[0, 0, r] <= offer[0, 1, r] else 1
        for k in range(2):
            s = first if k == 0 else 1 - first
            take = min(offer[1, s, r], d)
            coins += take * offer[0, s, r]
            d -= take
        if d > 0:
            return -1
    return coins


@kernel
def _nth_resource(mask: int, j: int) -> int:
    """The j-th (from 1) resource in ``mask``."""
    for r in range(N_RES):
        if (mask >> r) & 1:
            j -= 1
            if j == 0:
                return r
    return -1


@kernel
def _flow_trade(st: State, rules: np.ndarray, p: int, prefer: int, total: int) -> int:
    """``cheapest_trade`` as a min-cost flow, for the ``total`` units of st.need when choice sources matter."""
    first = st.flow_head
    for v in range(RES_NODE + N_RES + 3 * MAX_CHOICE):
        first[v] = -1
    m = 0
    for r in range(N_RES):
        if st.need[r] > 0:
            m = _edge(st, m, RES_NODE + r, T_NODE, st.need[r], 0, -1)
    node = RES_NODE + N_RES
    for k in range(st.chc_n[p]):  # own choice sources: free
        mask = st.chc[p, k]
        useful = False
        for r in range(N_RES):
            if (mask >> r) & 1 and st.need[r] > 0:
                useful = True
        if useful and st.chc_sell[p, k] != 2:  # 2 = sellable only (tile 3 with its sale switch off)
            m = _edge(st, m, S_NODE, node, 1, 0, -1)
            for r in range(N_RES):
                if (mask >> r) & 1 and st.need[r] > 0:
                    m = _edge(st, m, node, RES_NODE + r, 1, 0, -1)
            node += 1
    for s in range(2):
        q = neighbour(st, p, s)
        tie = 0 if s == prefer % STRICT else (1 if prefer < STRICT else STRICT_COST)
        for r in range(N_RES):
            if st.need[r] == 0:
                continue
            cap = BIG if (st.unlimited[q] >> r) & 1 else st.sell[q, r]
            if cap > 0:
                m = _edge(st, m, S_NODE, RES_NODE + r, cap, unit_price(st, rules, p, s, r) * TIE + tie, 8 * s + r)
        for k in range(st.chc_n[q]):
            if st.chc_sell[q, k] == 0:
                continue
            mask = st.chc[q, k]
            added = False
            for r in range(N_RES):
                if (mask >> r) & 1 and st.need[r] > 0:
                    if not added:
                        m = _edge(st, m, S_NODE, node, 1, 0, -1)
                        added = True
                    m = _edge(st, m, node, RES_NODE + r, 1, unit_price(st, rules, p, s, r) * TIE + tie, 8 * s + r)
            if added:
                node += 1
    flow = 0
    while flow < total:
        if _shortest_path(st, node) >= INF:
            return -1
        flow += _augment(st, total - flow)
    coins = 0
    for e in range(0, m, 2):
        info = st.flow_info[e]
        if info >= 0:
            used = st.flow_cap[e + 1]
            s = info // 8
            r = info % 8
            st.buy[s, r] += used
            coins += used * unit_price(st, rules, p, s, r)
    return coins


@kernel
def _augment(st: State, most: int) -> int:
    """Push as much flow as the shortest path found allows (at most ``most``); returns the amount pushed."""
    prev, to, cap = st.flow_prev, st.flow_to, st.flow_cap
    push = most
    v = T_NODE
    while v != S_NODE:
        e = prev[v]
        push = min(push, cap[e])
        v = to[e ^ 1]
    v = T_NODE
    while v != S_NODE:
        e = prev[v]
        cap[e] -= push
        cap[e ^ 1] += push
        v = to[e ^ 1]
    return push


@kernel
def _choices_matter(st: State, p: int) -> bool:
    """True if a choice source (p's own, or a neighbour's sellable one) offers a resource still needed: only then is
    the payment an assignment problem."""
    needed = 0
    for r in range(N_RES):
        if st.need[r] > 0:
            needed |= 1 << r
    for k in range(st.chc_n[p]):
        if st.chc_sell[p, k] != 2 and st.chc[p, k] & needed:
            return True
    for s in range(2):
        q = neighbour(st, p, s)
        for k in range(st.chc_n[q]):
            if st.chc_sell[q, k] != 0 and st.chc[q, k] & needed:
                return True
    return False


@kernel
def _separable_trade(st: State, rules: np.ndarray, p: int, prefer: int) -> int:
    """``cheapest_trade`` when no choice source is involved: each resource is bought on its own, cheaper side first and
    the preferred side first at equal prices (the same plan the flow finds, SW-DEC-1); under STRICT the preferred
    side first at any price."""
    coins = 0
    for r in range(N_RES):
        d = st.need[r]
        if d == 0:
            continue
        first = prefer % STRICT
        if prefer < STRICT and unit_price(st, rules, p, 1 - prefer, r) < unit_price(st, rules, p, prefer, r):
            first = 1 - prefer
        for k in range(2):
            s = first if k == 0 else 1 - first
            q = neighbour(st, p, s)
            cap = BIG if (st.unlimited[q] >> r) & 1 else st.sell[q, r]
            take = min(cap, d)
            if take > 0:
                st.buy[s, r] += take
                coins += take * unit_price(st, rules, p, s, r)
                d -= take
        if d > 0:
            return -1
    return coins


@kernel
def set_need(st: State, cost: np.ndarray) -> None:
    """st.need = cost (a resource vector)."""
    for r in range(N_RES):
        st.need[r] = cost[r]


@kernel
def can_pay(st: State, rules: np.ndarray, p: int, coins_due: int) -> bool:
    """Legality: st.need can be covered and the trade plus ``coins_due`` fits p's coins (SW-COST-1, SW-TRADE-4)."""
    trade = cheapest_trade(st, rules, p, 0)
    return trade >= 0 and trade + coins_due <= st.coins[p]
