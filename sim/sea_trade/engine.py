"""Sea Trade kernels: decisions (options + features -> strategies.core.choose), turns, games and chunks.

Turn order is seat order (seat 0 plays first). ST-SETUP-7 (random turn order) is met by the runner, which
assigns strategies to seats at random or rotated per game; seat effects are what a study measures.

All Sea Trade kernels are compiled with ``_nrt=False``: they never allocate, and Numba's reference counting
of every array in the State struct on each helper call made them ~20x slower.
"""

from __future__ import annotations

from numba import njit

from sim.core.graph import UNREACHED
from sim.core.ranking import rank_seats
from sim.core.rng import seed_game, shuffle
from sim.sea_trade.board import (FAR, cheb, ensure_dist, generate_board, route_dist,
                                 ship_dist)
from sim.sea_trade.moves import (apply_buy, apply_pirate, apply_sail, apply_sell, apply_storm, check_invariants,
                                 draw_card, ev, hand_count, hold_count, max_buy, pirate_options, price,
                                 sail_options, storm_options)
from sim.sea_trade.records import (END_TIMEOUT, END_WIN, G_DECISIONS, G_END, G_ROUNDS, G_TRADES, G_TURNS,
                                   G_WINNER, P_GOLD_R10, P_GOLD_R20, P_MAX_HAND, P_OFFERS, P_RANK, P_SCORE,
                                   P_START, P_START_DIST, P_TRADES, P_TURNS, P_WON)
from sim.sea_trade.rules import (R_BUY, R_COMMODITY_COPIES, R_DESIRED, R_DRAW, R_GRID, R_HAND_START, R_HOLD,
                                 R_ROUND_CAP, R_ROW_CARDS, R_START_GOLD, R_STORM_CARDS, R_WIN_GOLD, R_WIND_COPIES)
from sim.sea_trade.state import (CARD_ROW, CARD_STORM, CARD_WIND0, D_ACCEPT, D_BUY, D_OFFER, D_PIRATE, D_SAIL,
                                 D_SELL, D_START, D_STORM, EV_DEAL, EV_DRAW, EV_END_TURN, EV_LAND, EV_MARKET,
                                 EV_OFFER, EV_PIRATE_START, EV_ROUND, EV_START, EV_TIMEOUT, EV_WIN, F_ARRIVE_BUY,
                                 F_ARRIVE_SELL, F_BLOCKS, F_BLOCKS_LEADER, F_BUY_GAIN, F_CARDS, F_DANGER, F_GOLD,
                                 F_GUARD, F_MY_GAIN, F_PARTNER_GAIN, F_PARTNER_LEADER, F_PASS, F_PLUNDER_CARDS,
                                 F_PLUNDER_LEADER, F_REGRET, F_ROW, F_SALE_DIST, F_SALE_GAIN, F_SELF_BLOCK,
                                 F_STEPS, F_THREAT_GAIN, F_UNBLOCK, F_HAND_SIZE, F_WIN, F_WIND, LAND, M_ERROR_GAME, M_EVENTS, M_ROUND, M_WINNER,
                                 MARKET, N_COMMODITIES, N_MARKETS, SELLS, State)
from strategies.core import choose

GOLD_PER_STEP = 0.3
"""Value estimates discount a sale by this much gold per sea step to the market (about a turn's progress)."""
THREAT_RANGE = 2
"""A pirate within this many spaces (Chebyshev) can reach a ship with one Wind card: the danger radius."""
ERROR_BOARD = -1


# ----------------------------------------------------------------------------------------------- estimates
@njit(cache=True, _nrt=False)
def _clear(st: State, i: int) -> None:
    """Zero the feature row of option i."""
    for f in range(st.features.shape[1]):
        st.features[i, f] = 0.0


@njit(cache=True, _nrt=False)
def _decide(st: State, seat: int, decision: int, n_opt: int) -> int:
    """The seat's strategy picks one of n_opt >= 2 options (counted as a decision)."""
    st.games[G_DECISIONS] += 1
    return choose(st.kind, st.params, st.weights, st.seat_strat[seat], decision, st.features, n_opt, st.rng)


@njit(cache=True, _nrt=False)
def leader_gold(st: State, viewer: int) -> int:
    """Most gold held by any player other than ``viewer``."""
    best = -1
    for q in range(st.n_players[0]):
        if q != viewer and st.gold[q] > best:
            best = st.gold[q]
    return best


@njit(cache=True, _nrt=False)
def sale_target(st: State, q: int) -> int:
    """The market where q's hold fetches the most gold after the distance discount, or -1."""
    best = -1
    best_v = -1e18
    for m in range(N_MARKETS):
        v = 0.0
        for c in range(N_COMMODITIES):
            v += st.hold[q, c] * price(st, m, c)
        if v <= 0.0:
            continue
        d = route_dist(st, m, st.ship[q])
        if d >= FAR:
            continue
        v -= GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@njit(cache=True, _nrt=False)
def buy_target(st: State, q: int) -> int:
    """The market where q can buy the most of its hand cards (distance-discounted), or -1."""
    room = st.rules[R_HOLD] - hold_count(st, q)
    afford = st.gold[q] // st.rules[R_BUY] if st.rules[R_BUY] > 0 else room
    if room <= 0 or afford <= 0:
        return -1
    best = -1
    best_v = -1e18
    for m in range(N_MARKETS):
        k = min(st.hand[q, SELLS[m]], room, afford)
        if k <= 0:
            continue
        d = route_dist(st, m, st.ship[q])
        if d >= FAR:
            continue
        v = k * (st.rules[R_DESIRED] - st.rules[R_BUY]) - GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@njit(cache=True, _nrt=False)
def route_target(st: State, q: int) -> int:
    """Where q is heading: its sale market when carrying cargo, else its buy market (-1 if neither)."""
    t = sale_target(st, q)
    return t if t >= 0 else buy_target(st, q)


@njit(cache=True, _nrt=False)
def best_value(st: State, q: int, c: int, exclude: int) -> float:
    """Best distance-discounted price q could get for one card of c at a market other than ``exclude``."""
    best = 0.0
    for m in range(N_MARKETS):
        if m == exclude:
            continue
        p = price(st, m, c)
        if p == 0:
            continue
        d = route_dist(st, m, st.ship[q])
        if d >= FAR:
            continue
        v = p - GOLD_PER_STEP * d
        if v > best:
            best = v
    return best


@njit(cache=True, _nrt=False)
def danger(st: State, c: int) -> int:
    """1 if a ship on c could be plundered by a pirate's next Wind card (within THREAT_RANGE, not a market)."""
    if st.cell[c] == MARKET:
        return 0
    for p in range(st.pirate.shape[0]):
        if cheb(st, c, st.pirate[p]) <= THREAT_RANGE:
            return 1
    return 0


@njit(cache=True, _nrt=False)
def _set_targets(st: State) -> None:
    """Refresh every player's route target and its current sea distance (for the blocking features)."""
    for q in range(st.n_players[0]):
        t = route_target(st, q)
        st.target[q] = t
        st.target_dist[q] = ship_dist(st, t, st.ship[q]) if t >= 0 else FAR


@njit(cache=True, _nrt=False)
def on_route(st: State, q: int, x: int) -> bool:
    """True if space x lies on a shortest sea route of q's ship to its target (blocking x delays q).

    Needs ``_set_targets`` first.
    """
    t = st.target[q]
    s = st.ship[q]
    if t < 0 or x == s or st.target_dist[q] >= FAR or st.dist[t, x] >= UNREACHED:
        return False
    return st.dist[t, x] + cheb(st, s, x) == st.target_dist[q]


@njit(cache=True, _nrt=False)
def _unblock(st: State, seat: int, frm: int, to: int) -> float:
    """1.0 if moving an obstacle from ``frm`` to ``to`` clears the seat's cut or detoured route."""
    t = st.target[seat]
    if t < 0:
        return 0.0
    s = st.ship[seat]
    base = st.land_dist[t, s]
    if base >= UNREACHED or st.target_dist[seat] <= base:
        return 0.0
    if frm != s and st.land_dist[t, frm] + cheb(st, s, frm) == base:
        if to == s or st.land_dist[t, to] + cheb(st, s, to) != base:
            return 1.0
    return 0.0


@njit(cache=True, _nrt=False)
def _block_features(st: State, seat: int, i: int, x: int, lead: int) -> None:
    """Fill blocks / blocks_leader / self_block of option i for an obstacle placed on x (never a market)."""
    for q in range(st.n_players[0]):
        if on_route(st, q, x):
            if q == seat:
                st.features[i, F_SELF_BLOCK] = 1.0
            else:
                st.features[i, F_BLOCKS] += 1.0
                if st.gold[q] == lead:
                    st.features[i, F_BLOCKS_LEADER] = 1.0


# ----------------------------------------------------------------------------------------------- decisions
@njit(cache=True, _nrt=False)
def choose_start_markets(st: State) -> None:
    """ST-SETUP-8: in turn order each player puts its ship on a market no one has taken."""
    taken = 0
    for s in range(st.n_players[0]):
        k = 0
        for m in range(N_MARKETS):
            if taken & (1 << m):
                continue
            _clear(st, k)
            st.options[k, 0] = m
            st.features[k, F_CARDS] = min(st.hand[s, SELLS[m]], st.rules[R_HOLD])
            st.features[k, F_SALE_DIST] = min(st.start_dist[m], FAR)
            k += 1
        ch = _decide(st, s, D_START, k) if k > 1 else 0
        m = st.options[ch, 0]
        taken |= 1 << m
        st.ship[s] = st.market_cell[m]
        st.players[s, P_START] = m
        st.players[s, P_START_DIST] = min(st.start_dist[m], FAR)
        ev(st, s, EV_START, m, st.market_cell[m])


@njit(cache=True, _nrt=False)
def sail_decision(st: State, seat: int) -> bool:
    """ST-TURN-2: offer every legal single-card move plus "stop"; apply the pick; False when stopping."""
    ensure_dist(st)
    k = sail_options(st, seat, 0)
    if k == 0:
        return False
    frm = st.ship[seat]
    ts = sale_target(st, seat)
    tb = buy_target(st, seat)
    ds0 = route_dist(st, ts, frm) if ts >= 0 else 0
    db0 = route_dist(st, tb, frm) if tb >= 0 else 0
    hn = hold_count(st, seat)
    for i in range(k):
        _clear(st, i)
        card = st.options[i, 0]
        to = st.options[i, 1]
        if ts >= 0:
            st.features[i, F_SALE_GAIN] = ds0 - route_dist(st, ts, to)
        if tb >= 0:
            st.features[i, F_BUY_GAIN] = db0 - route_dist(st, tb, to)
        m = st.market_at[to]
        if m >= 0:
            v = 0
            for c in range(N_COMMODITIES):
                v += st.hold[seat, c] * price(st, m, c)
            st.features[i, F_ARRIVE_SELL] = v
            ship = st.ship[seat]
            st.ship[seat] = to
            st.features[i, F_ARRIVE_BUY] = max_buy(st, seat)
            st.ship[seat] = ship
        if card == CARD_ROW:
            st.features[i, F_ROW] = 1.0
        else:
            st.features[i, F_WIND] = 1.0
        st.features[i, F_STEPS] = st.options[i, 2]
        st.features[i, F_DANGER] = hn * danger(st, to)
    _clear(st, k)
    st.features[k, F_PASS] = 1.0
    st.features[k, F_DANGER] = hn * danger(st, frm)
    ch = _decide(st, seat, D_SAIL, k + 1)
    if ch == k:
        return False
    apply_sail(st, seat, st.options[ch, 0], st.options[ch, 1], st.options[ch, 2])
    return True


@njit(cache=True, _nrt=False)
def sell_and_buy(st: State, seat: int) -> bool:
    """ST-TRADE-4 then ST-TRADE-2 in a market: sell cards one by one, then buy; True on an instant win."""
    m = st.market_at[st.ship[seat]]
    if m < 0:
        return False
    ensure_dist(st)
    while True:
        k = 0
        for c in range(N_COMMODITIES):
            p = price(st, m, c)
            if st.hold[seat, c] == 0 or p == 0:
                continue  # ST-TRADE-4: a market never buys its own commodity
            _clear(st, k)
            st.options[k, 0] = c
            st.features[k, F_CARDS] = 1.0
            st.features[k, F_GOLD] = p
            st.features[k, F_REGRET] = max(0.0, best_value(st, seat, c, m) - p)
            st.features[k, F_WIN] = 1.0 if st.gold[seat] + p >= st.rules[R_WIN_GOLD] else 0.0
            k += 1
        if k == 0:
            break
        _clear(st, k)
        st.features[k, F_PASS] = 1.0
        ch = _decide(st, seat, D_SELL, k + 1)
        if ch == k:
            break
        if apply_sell(st, seat, st.options[ch, 0]):
            return True  # ST-END-1: checked after every sale
    kmax = max_buy(st, seat)
    if kmax > 0:
        # Bought cards are worth their best price anywhere (the hold has no other use); routes decide where.
        value = st.rules[R_DESIRED] - st.rules[R_BUY]
        for j in range(kmax + 1):
            _clear(st, j)
            st.features[j, F_PASS] = 1.0 if j == 0 else 0.0
            st.features[j, F_CARDS] = j
            st.features[j, F_GOLD] = -j * st.rules[R_BUY]
            st.features[j, F_MY_GAIN] = j * value
        ch = _decide(st, seat, D_BUY, kmax + 1)
        if ch > 0:
            apply_buy(st, seat, ch)
    return False


@njit(cache=True, _nrt=False)
def _hold_gain(st: State, t: int, give: int, get: int) -> float:
    """Gain for a player heading to market t of swapping hold card ``give`` for ``get``."""
    if t < 0:
        return 0.0
    return float(price(st, t, get) - price(st, t, give))


@njit(cache=True, _nrt=False)
def offer_decision(st: State, seat: int) -> None:
    """ST-TRADE-1: offer one 1-for-1 swap (hold-hold or hand-hand) to an adjacent ship; the partner accepts or not.

    Protocol (simulator decision): at each stop of its sail phase the active player may make one offer,
    chosen by its strategy among all 1-for-1 swaps of different commodities with every ship in its
    8-neighbourhood or space; the partner's strategy then accepts or declines it.
    """
    me = st.ship[seat]
    ensure_dist(st)
    tm = sale_target(st, seat)
    k = 0
    for q in range(st.n_players[0]):
        if q == seat or cheb(st, me, st.ship[q]) > 1:
            continue
        tq = sale_target(st, q)
        lead = 1.0 if st.gold[q] == leader_gold(st, seat) else 0.0
        for a in range(N_COMMODITIES):
            for b in range(N_COMMODITIES):
                if a == b:
                    continue
                for where in range(2):
                    if where == 0:
                        if st.hold[seat, a] == 0 or st.hold[q, b] == 0:
                            continue
                        mine = _hold_gain(st, tm, a, b)
                        theirs = _hold_gain(st, tq, b, a)
                    else:
                        if st.hand[seat, a] == 0 or st.hand[q, b] == 0:
                            continue
                        # Hand cards are worth more in sets: one market visit buys them all.
                        mine = 0.5 * (st.hand[seat, b] - st.hand[seat, a] + 1)
                        theirs = 0.5 * (st.hand[q, a] - st.hand[q, b] + 1)
                    _clear(st, k)
                    st.options[k, 0] = q
                    st.options[k, 1] = a
                    st.options[k, 2] = b
                    st.options[k, 3] = where
                    st.features[k, F_MY_GAIN] = mine
                    st.features[k, F_PARTNER_GAIN] = theirs
                    st.features[k, F_PARTNER_LEADER] = lead
                    k += 1
    if k == 0:
        return
    _clear(st, k)
    st.features[k, F_PASS] = 1.0
    ch = _decide(st, seat, D_OFFER, k + 1)
    if ch == k:
        return
    q = st.options[ch, 0]
    a = st.options[ch, 1]
    b = st.options[ch, 2]
    where = st.options[ch, 3]
    mine = st.features[ch, F_MY_GAIN]
    theirs = st.features[ch, F_PARTNER_GAIN]
    st.players[seat, P_OFFERS] += 1
    _clear(st, 0)
    _clear(st, 1)
    st.features[0, F_PASS] = 1.0
    st.features[1, F_MY_GAIN] = theirs
    st.features[1, F_PARTNER_GAIN] = mine
    st.features[1, F_PARTNER_LEADER] = 1.0 if st.gold[seat] == leader_gold(st, q) else 0.0
    accepted = _decide(st, q, D_ACCEPT, 2) == 1
    ev(st, seat, EV_OFFER, q, a, b, where, 1 if accepted else 0)
    if not accepted:
        return
    if where == 0:
        st.hold[seat, a] -= 1
        st.hold[q, a] += 1
        st.hold[q, b] -= 1
        st.hold[seat, b] += 1
    else:
        st.hand[seat, a] -= 1
        st.hand[q, a] += 1
        st.hand[q, b] -= 1
        st.hand[seat, b] += 1
    st.players[seat, P_TRADES] += 1
    st.players[q, P_TRADES] += 1
    st.games[G_TRADES] += 1


@njit(cache=True, _nrt=False)
def _has_wind(st: State, seat: int) -> bool:
    for d in range(8):
        if st.hand[seat, CARD_WIND0 + d] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def _cargo_threat(st: State, seat: int, x: int, skip: int) -> float:
    """Opponents' hold cards (ships outside markets, not on ``skip``) within THREAT_RANGE of space x."""
    s = 0.0
    for q in range(st.n_players[0]):
        c = st.ship[q]
        if q == seat or c == skip or st.cell[c] == MARKET:
            continue
        if cheb(st, x, c) <= THREAT_RANGE:
            s += hold_count(st, q)
    return s


@njit(cache=True, _nrt=False)
def pirate_phase(st: State, seat: int) -> None:
    """ST-TURN-4: move pirates with Wind cards, one card per decision, until the strategy passes."""
    me = st.ship[seat]
    hn = hold_count(st, seat)
    exposed = hn > 0 and st.cell[me] != MARKET
    while _has_wind(st, seat):
        ensure_dist(st)
        k = pirate_options(st, seat, 0)
        if k == 0:
            return
        _set_targets(st)
        lead = leader_gold(st, seat)
        hand = hand_count(st, seat)
        for i in range(k):
            _clear(st, i)
            frm = st.pirate[st.options[i, 0]]
            to = st.options[i, 2]
            for q in range(st.n_players[0]):
                if q != seat and st.ship[q] == to:
                    st.features[i, F_PLUNDER_CARDS] += hold_count(st, q)
                    if st.gold[q] == lead:
                        st.features[i, F_PLUNDER_LEADER] = 1.0
            st.features[i, F_THREAT_GAIN] = _cargo_threat(st, seat, to, to) - _cargo_threat(st, seat, frm, -1)
            if exposed:
                before = 1 if cheb(st, frm, me) <= THREAT_RANGE else 0
                after = 1 if cheb(st, to, me) <= THREAT_RANGE else 0
                st.features[i, F_GUARD] = hn * (before - after)
            _block_features(st, seat, i, to, lead)
            st.features[i, F_UNBLOCK] = _unblock(st, seat, frm, to)
            st.features[i, F_HAND_SIZE] = hand
            st.features[i, F_WIND] = 1.0
            st.features[i, F_STEPS] = st.options[i, 3]
        _clear(st, k)
        st.features[k, F_PASS] = 1.0
        ch = _decide(st, seat, D_PIRATE, k + 1)
        if ch == k:
            return
        apply_pirate(st, seat, st.options[ch, 0], st.options[ch, 1], st.options[ch, 2])


@njit(cache=True, _nrt=False)
def storm_phase(st: State, seat: int) -> None:
    """ST-TURN-5: optionally play one Storm card onto an empty space."""
    if st.hand[seat, CARD_STORM] == 0:
        return
    ensure_dist(st)
    k = storm_options(st, 0)
    if k == 0:
        return
    _set_targets(st)
    g = st.rules[R_GRID]
    me = st.ship[seat]
    hn = hold_count(st, seat)
    lead = leader_gold(st, seat)
    # A pirate two spaces away in a straight line reaches the ship through the middle space: guard it.
    mid0 = -1
    mid1 = -1
    if hn > 0 and st.cell[me] != MARKET:
        for p in range(st.pirate.shape[0]):
            pc = st.pirate[p]
            dr = me // g - pc // g
            dc = me % g - pc % g
            if max(abs(dr), abs(dc)) == 2 and dr % 2 == 0 and dc % 2 == 0:
                if mid0 < 0:
                    mid0 = pc + (dr // 2) * g + dc // 2
                else:
                    mid1 = pc + (dr // 2) * g + dc // 2
    for i in range(k):
        _clear(st, i)
        x = st.options[i, 0]
        _block_features(st, seat, i, x, lead)
        if st.storm[0] >= 0:
            st.features[i, F_UNBLOCK] = _unblock(st, seat, st.storm[0], x)
        if x == mid0 or x == mid1:
            st.features[i, F_GUARD] = hn
    _clear(st, k)
    st.features[k, F_PASS] = 1.0
    ch = _decide(st, seat, D_STORM, k + 1)
    if ch < k:
        apply_storm(st, seat, st.options[ch, 0])


# ----------------------------------------------------------------------------------------------- turns, games
@njit(cache=True, _nrt=False)
def play_turn(st: State, seat: int) -> bool:
    """One turn (ST-TURN-1..6); True if the seat won during it."""
    st.players[seat, P_TURNS] += 1
    st.games[G_TURNS] += 1
    for _ in range(st.rules[R_DRAW]):
        card = draw_card(st, seat)
        ev(st, seat, EV_DRAW, card)
    h = hand_count(st, seat)
    if h > st.players[seat, P_MAX_HAND]:
        st.players[seat, P_MAX_HAND] = h
    # ST-TRADE-5: trade at every stop of the sail phase (start included), then sail on or stop.
    while True:
        if sell_and_buy(st, seat):
            return True
        offer_decision(st, seat)
        if not sail_decision(st, seat):
            break
    pirate_phase(st, seat)
    storm_phase(st, seat)
    ev(st, seat, EV_END_TURN, st.gold[seat], hand_count(st, seat), hold_count(st, seat), st.ship[seat])
    return False


@njit(cache=True, _nrt=False)
def setup_game(st: State, seed: int, game_index: int) -> bool:
    """ST-SETUP-1..9 for game ``game_index``; False if no legal board could be drawn."""
    seed_game(st.rng, seed, game_index)
    st.games[:] = 0
    st.players[:, :] = 0
    st.misc[M_EVENTS] = 0
    st.misc[M_ROUND] = 0
    st.misc[M_WINNER] = -1
    if generate_board(st) < 0:
        return False
    n = st.cell.shape[0]
    for c in range(n):
        if st.cell[c] == LAND:
            ev(st, -1, EV_LAND, c)
    for m in range(N_MARKETS):
        ev(st, -1, EV_MARKET, m, st.market_cell[m])
    for p in range(st.pirate.shape[0]):
        ev(st, -1, EV_PIRATE_START, p, st.pirate[p])
    # ST-COMP-4 / ST-SETUP-6: build and shuffle the deck, deal the starting hands.
    k = 0
    for c in range(N_COMMODITIES):
        for _ in range(st.rules[R_COMMODITY_COPIES]):
            st.deck[k] = c
            k += 1
    for _ in range(st.rules[R_ROW_CARDS]):
        st.deck[k] = CARD_ROW
        k += 1
    for d in range(8):
        for _ in range(st.rules[R_WIND_COPIES]):
            st.deck[k] = CARD_WIND0 + d
            k += 1
    for _ in range(st.rules[R_STORM_CARDS]):
        st.deck[k] = CARD_STORM
        k += 1
    st.piles[0] = k
    st.piles[1] = 0
    shuffle(st.rng, st.deck, k)
    st.hand[:, :] = 0
    st.hold[:, :] = 0
    for s in range(st.n_players[0]):
        st.gold[s] = st.rules[R_START_GOLD]  # ST-SETUP-9
        st.players[s, P_GOLD_R10] = -1
        st.players[s, P_GOLD_R20] = -1
        for _ in range(st.rules[R_HAND_START]):
            card = draw_card(st, s)
            ev(st, s, EV_DEAL, card)
    choose_start_markets(st)
    return True


@njit(cache=True, _nrt=False)
def play_game(st: State, game_index: int, seed: int, debug: bool) -> int:
    """Play one whole game into st.games / st.players; 0 if fine, ERROR_BOARD, or an invariant code."""
    if not setup_game(st, seed, game_index):
        return ERROR_BOARD
    n = st.n_players[0]
    deck_size = st.deck.shape[0]
    winner = -1
    rounds = 0
    for rnd in range(1, st.rules[R_ROUND_CAP] + 1):
        rounds = rnd
        st.misc[M_ROUND] = rnd
        ev(st, -1, EV_ROUND, rnd)
        for s in range(n):
            won = play_turn(st, s)
            if debug:
                code = check_invariants(st, deck_size)
                if code != 0:
                    return code
            if won:
                winner = s
                break
        if winner >= 0:
            break
        for s in range(n):
            if rnd == 10:
                st.players[s, P_GOLD_R10] = st.gold[s]
            if rnd == 20:
                st.players[s, P_GOLD_R20] = st.gold[s]
    st.misc[M_WINNER] = winner
    if winner >= 0:
        ev(st, winner, EV_WIN, st.gold[winner])
    else:
        ev(st, -1, EV_TIMEOUT)
    if debug:
        for s in range(n):
            rich = st.gold[s] >= st.rules[R_WIN_GOLD]
            if rich != (s == winner):
                return 9
    st.games[G_ROUNDS] = rounds
    st.games[G_END] = END_WIN if winner >= 0 else END_TIMEOUT
    st.games[G_WINNER] = winner
    for s in range(n):
        st.players[s, P_SCORE] = st.gold[s]
        st.players[s, P_WON] = 1 if s == winner else 0
        if st.players[s, P_GOLD_R10] < 0:
            st.players[s, P_GOLD_R10] = st.gold[s]
        if st.players[s, P_GOLD_R20] < 0:
            st.players[s, P_GOLD_R20] = st.gold[s]
        st.keys[s, 0] = 1 if s == winner else 0
        st.keys[s, 1] = st.gold[s]
    rank_seats(st.keys, n, st.rank)
    for s in range(n):
        st.players[s, P_RANK] = st.rank[s]
    return 0


@njit(cache=True, _nrt=False)
def play_chunk_kernel(st: State, seats, first_index: int, n_games: int, seed: int, debug: bool,
                      games_out, players_out) -> int:
    """Play games first_index .. first_index+n_games-1 into the output arrays; 0 or the first error code."""
    n = st.n_players[0]
    for i in range(n_games):
        for s in range(n):
            st.seat_strat[s] = seats[i, s]
        code = play_game(st, first_index + i, seed, debug)
        if code != 0:
            st.misc[M_ERROR_GAME] = first_index + i
            return code
        for j in range(st.games.shape[0]):
            games_out[i, j] = st.games[j]
        for s in range(n):
            for j in range(st.players.shape[1]):
                players_out[i, s, j] = st.players[s, j]
    return 0
