"""Sea Trade kernels: decisions (options + features -> strategies.core.choose), turns, games and chunks.

Turn order is seat order (seat 0 plays first). ST-SETUP-7 (random turn order) is met by the runner, which
assigns strategies to seats at random or rotated per game; seat effects are what a study measures.

The kernels take the State through one structref handle (``state.kernel_state``, sim/core/structs.py), which
the chunk kernel borrows (the same memory under a type without reference counting, so field reads and calls
cost no count updates). Kernels read the fields they use into locals at entry and pass arrays, not the handle,
to helpers called in loops (a field is read once per decision, not once per option).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.bits import lowest_bit
from sim.core.graph import UNREACHED
from sim.core.ranking import rank_seats
from sim.core.rng import seed_game, shuffle
from sim.core.structs import borrow
from sim.sea_trade.board import FAR, ensure_dist, generate_board, plan_steps
from sim.sea_trade.moves import (apply_buy, apply_pirate, apply_sail, apply_sell, apply_storm, buy_limit,
                                 check_invariants, draw_card, ev, forget_targets, hand_sum, held_bits, held_winds,
                                 hold_sum, hold_value, market_price, pirate_options, sail_options, storm_options)
from sim.sea_trade.records import (END_TIMEOUT, END_WIN, G_DECISIONS, G_END, G_ROUNDS, G_TRADES, G_TURNS,
                                   G_WINNER, P_GOLD_R10, P_GOLD_R20, P_MAX_HAND, P_OFFERS, P_RANK, P_SCORE,
                                   P_START, P_START_DIST, P_TRADES, P_TURNS, P_WON)
from sim.sea_trade.rules import (R_BUY, R_COMMODITY_COPIES, R_DESIRED, R_DRAW, R_GRID, R_HAND_START, R_HOLD, R_SELL,
                                 R_ROUND_CAP, R_ROW_CARDS, R_START_GOLD, R_STORM_CARDS, R_WIN_GOLD, R_WIND_COPIES)
from sim.sea_trade.state import (BIT_CELLS, CARD_ROW, CARD_STORM, CARD_WIND0, D_ACCEPT, D_BUY, D_OFFER, D_PIRATE,
                                 D_SAIL, D_SELL, D_START, D_STORM, EV_DEAL, EV_DRAW, EV_END_TURN, EV_LAND,
                                 EV_MARKET, EV_OFFER, EV_PIRATE_START, EV_ROUND, EV_START, EV_TIMEOUT, EV_WIN,
                                 F_ARRIVE_BUY, F_ARRIVE_SELL, F_BLOCKS, F_BLOCKS_LEADER, F_BUY_GAIN, F_CARDS,
                                 F_DANGER, F_GOLD, F_GUARD, F_HAND_SIZE, F_MY_GAIN, F_PARTNER_GAIN,
                                 F_PARTNER_LEADER, F_PASS, F_PLUNDER_CARDS, F_PLUNDER_LEADER, F_REGRET, F_ROW,
                                 F_SALE_DIST, F_SALE_GAIN, F_SELF_BLOCK, F_STEPS, F_THREAT_GAIN, F_UNBLOCK, F_WIN,
                                 F_WIND, LAND, MARKET, M_DIST_DIRTY, M_ERROR_GAME, M_EVENTS, M_ROUND, M_WINNER,
                                 N_COMMODITIES, N_MARKETS, RANDOM_KIND, SELLS, SPAN_HI, SPAN_LO, STALE, State)
from strategies.core import choose

GOLD_PER_STEP = 0.3
"""Value estimates discount a sale by this much gold per sea step to the market (about a turn's progress)."""
THREAT_RANGE = 2
"""A pirate within this many spaces (Chebyshev) can reach a ship with one Wind card: the danger radius."""
ERROR_BOARD = -1
NOT_YET = -2
"""Sentinel for a target not computed yet (only needed when a partner is adjacent)."""


# ----------------------------------------------------------------------------------------------- estimates
# The helpers below take the arrays they read (not the handle): each decision reads the handle's fields once
# at its top and passes them down to the loops over options.
@njit(cache=True, inline="always")
def _pass_option(features, decision: int, k: int) -> None:
    """Option k of ``decision`` is the pass / stop / decline: pass = 1, its other features 0.

    Every decision writes each feature it fills (strategies.sea_trade.FILLED) for every option, so no
    feature is cleared per decision; the others keep stale values that choose() never reads (the registry
    admits weights only on filled features, and a zero weight is skipped).
    """
    for f in range(SPAN_LO[decision], SPAN_HI[decision]):
        features[f, k] = 0.0
    features[F_PASS, k] = 1.0


@njit(cache=True, inline="always")
def _decide(st: State, seat: int, decision: int, n_opt: int) -> int:
    """The seat's strategy picks one of n_opt >= 2 options (counted as a decision).

    Only the decision's feature span is scored: every other feature weighs 0 for it, so the pick is the same.
    """
    features = st.features
    scores = st.scores
    games = st.games
    rng = st.rng
    kind = st.kind
    params = st.params
    weights = st.weights
    seat_strat = st.seat_strat
    games[G_DECISIONS] += 1
    return choose(kind, params, weights, seat_strat[seat], decision, features, SPAN_LO[decision], SPAN_HI[decision],
                  n_opt, rng, scores)


@njit(cache=True, inline="always")
def _scored(kind, seat_strat, seat: int) -> bool:
    """False when the seat's policy ignores features (random): the kernel then skips computing them.

    Takes the handle's ``kind`` and ``seat_strat`` (read at the caller's entry): no call per decision.
    """
    return kind[seat_strat[seat]] != RANDOM_KIND


@njit(cache=True, inline="always")
def _uses(weights, seat_strat, seat: int, decision: int, feature: int) -> bool:
    """Whether the seat's strategy weighs ``feature`` in ``decision``: a feature it weighs 0 may be skipped (its
    value cannot change the pick), which spares the costly ones a strategy ignores."""
    return weights[seat_strat[seat], decision, feature] != 0.0


@njit(cache=True, inline="always")
def _weighs_rivals(weights, seat_strat, seat: int, decision: int) -> bool:
    """Whether the seat's strategy weighs blocking the others (blocks or blocks_leader) in ``decision``: only
    then are the other players' routes needed."""
    return (_uses(weights, seat_strat, seat, decision, F_BLOCKS)
            or _uses(weights, seat_strat, seat, decision, F_BLOCKS_LEADER))


@njit(cache=True, inline="always")
def leader_gold(gold, n: int, viewer: int) -> int:
    """Most gold held by any of the n players other than ``viewer``."""
    best = -1
    for q in range(n):
        if q != viewer and gold[q] > best:
            best = gold[q]
    return best


@njit(cache=True, inline="always")
def sale_target(rules, sea, land_dist, hold, q: int, at: int) -> int:
    """The market where q's hold fetches the most gold after the distance discount from its ship on ``at``, or -1."""
    desired = rules[R_DESIRED]
    normal = rules[R_SELL]
    total = hold_sum(hold, q)
    if total == 0:
        return -1
    best = -1
    best_v = -1e18
    for m in range(N_MARKETS):
        v = float(hold_value(desired, normal, hold, q, m, total))
        if v <= 0.0:
            continue
        d = plan_steps(sea, land_dist, m, at)
        if d >= FAR:
            continue
        v -= GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@njit(cache=True, inline="always")
def buy_target(rules, sea, land_dist, hand, hold, gold, q: int, at: int) -> int:
    """The market where q (ship on ``at``) can buy the most of its hand cards (distance-discounted), or -1."""
    room = rules[R_HOLD] - hold_sum(hold, q)
    afford = gold[q] // rules[R_BUY] if rules[R_BUY] > 0 else room
    if room <= 0 or afford <= 0:
        return -1
    best = -1
    best_v = -1e18
    for m in range(N_MARKETS):
        k = min(hand[q, SELLS[m]], room, afford)
        if k <= 0:
            continue
        d = plan_steps(sea, land_dist, m, at)
        if d >= FAR:
            continue
        v = k * (rules[R_DESIRED] - rules[R_BUY]) - GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@njit(cache=True, inline="always")
def known_sale_target(rules, sea, land_dist, hold, ship, known_targets, q: int) -> int:
    """``sale_target`` of q's ship, cached in ``known_targets`` until q's hold or ship or the distances change."""
    t = known_targets[q, 0]
    if t == STALE:
        t = sale_target(rules, sea, land_dist, hold, q, ship[q])
        known_targets[q, 0] = t
    return t


@njit(cache=True, inline="always")
def known_buy_target(rules, sea, land_dist, hand, hold, gold, ship, known_targets, q: int) -> int:
    """``buy_target`` of q's ship, cached like ``known_sale_target``."""
    t = known_targets[q, 1]
    if t == STALE:
        t = buy_target(rules, sea, land_dist, hand, hold, gold, q, ship[q])
        known_targets[q, 1] = t
    return t


@njit(cache=True)
def check_known_targets(st: State) -> int:
    """Invariant 10 (debug runs): 0 if every cached sale and buy market equals a fresh computation, else 10."""
    rules = st.rules
    sea = st.sea
    land_dist = st.land_dist
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    known_targets = st.known_targets
    if st.misc[M_DIST_DIRTY] != 0:
        return 0  # the next ensure_dist forgets them all
    for q in range(st.n_players[0]):
        t = known_targets[q, 0]
        if t != STALE and t != sale_target(rules, sea, land_dist, hold, q, ship[q]):
            return 10
        t = known_targets[q, 1]
        if t != STALE and t != buy_target(rules, sea, land_dist, hand, hold, gold, q, ship[q]):
            return 10
    return 0


@njit(cache=True, inline="always")
def best_value(desired: int, normal: int, sea, land_dist, at: int, c: int, exclude: int) -> float:
    """Best distance-discounted price a ship on ``at`` could get for one card of c at a market but ``exclude``."""
    best = 0.0
    for m in range(N_MARKETS):
        if m == exclude:
            continue
        p = market_price(desired, normal, m, c)
        if p == 0:
            continue
        d = plan_steps(sea, land_dist, m, at)
        if d >= FAR:
            continue
        v = p - GOLD_PER_STEP * d
        if v > best:
            best = v
    return best


@njit(cache=True, inline="always")
def _set_targets(rules, sea, land_dist, ship, hand, hold, gold, known_targets, target, target_dist, n: int,
                 seat: int, rivals: bool) -> None:
    """Refresh the route target and its current sea distance of the seat and, with ``rivals``, of every other
    player (for the blocking features).

    The route target is the sale market when carrying cargo, else the buy market (-1 if neither).
    """
    for q in range(n):
        if q != seat and not rivals:
            continue
        t = known_sale_target(rules, sea, land_dist, hold, ship, known_targets, q)
        if t < 0:
            t = known_buy_target(rules, sea, land_dist, hand, hold, gold, ship, known_targets, q)
        target[q] = t
        target_dist[q] = sea[t, ship[q]] if t >= 0 else FAR


@njit(cache=True, inline="always")
def _route_bits(layers, ring, t: int, s: int, d: int, g: int):
    """Bitboard of the spaces x != s with sea[t, x] + king[s, x] == d, i.e. on a shortest sea route of a ship
    on s to market t, d sea steps away: the BFS layer j of t meets the ring of radius d - j around s."""
    r = np.uint64(0)
    for j in range(max(0, d - g + 1), d + 1):
        r |= layers[t, j] & ring[s, d - j]
    return r & ~(np.uint64(1) << np.uint64(s))


@njit(cache=True, inline="always")
def _obstacle_features(features, options, pirate, k: int, placing: bool, storm: int, gold, ship, sea, land_dist,
                       king, layers, ring, bits: bool, g: int, target, target_dist, n: int, seat: int,
                       lead: int, rivals: bool) -> None:
    """Fill blocks / blocks_leader / self_block / unblock of options 0..k-1 that move an obstacle (needs
    ``_set_targets`` first): storm placements (cell, 0, 0, 0) from ``storm`` (-1: none yet) when ``placing``,
    else pirate moves (pirate, card, to, steps).

    blocks: space x lies on a shortest sea route of q's ship to its target (blocking x delays q), i.e.
    x != ship, sea[target, x] < FAR and sea[target, x] + king[ship, x] == sea[target, ship]. With ``bits``
    (grids up to 8x8) each route is one bitboard and the opponents' routes are counted in bit planes; else the
    condition is tested per option and player.
    unblock: moving the obstacle from ``frm`` to ``to`` clears the seat's cut or detoured route.
    Without ``rivals`` (the strategy weighs neither blocks nor blocks_leader) those two stay 0.
    """
    xcol = 0 if placing else 2
    one = np.uint64(1)
    if bits:
        own = np.uint64(0)
        leaders = np.uint64(0)
        ones = np.uint64(0)  # opponents' routes through x, as a 3-bit count: ones + 2 twos + 4 fours
        twos = np.uint64(0)
        fours = np.uint64(0)
        for q in range(n):
            tq = target[q]
            dq = target_dist[q]
            if (q != seat and not rivals) or tq < 0 or dq >= FAR:
                continue
            r = _route_bits(layers, ring, tq, ship[q], dq, g)
            if q == seat:
                own = r
                continue
            if gold[q] == lead:
                leaders |= r
            carry = ones & r
            ones ^= r
            fours |= twos & carry
            twos ^= carry
        for i in range(k):
            x = np.uint64(options[i, xcol])
            features[F_SELF_BLOCK, i] = float((own >> x) & one)
            features[F_BLOCKS, i] = float(((ones >> x) & one) + ((twos >> x) & one) * 2 + ((fours >> x) & one) * 4)
            features[F_BLOCKS_LEADER, i] = float((leaders >> x) & one)
            features[F_UNBLOCK, i] = 0.0
    else:
        for i in range(k):
            features[F_SELF_BLOCK, i] = 0.0
            features[F_BLOCKS, i] = 0.0
            features[F_BLOCKS_LEADER, i] = 0.0
            features[F_UNBLOCK, i] = 0.0
        for q in range(n):  # players outside, options inside: each player's route is read once per decision
            tq = target[q]
            sq = ship[q]
            dq = target_dist[q]
            if (q != seat and not rivals) or tq < 0 or dq >= FAR:
                continue
            leader = gold[q] == lead
            for i in range(k):
                x = options[i, xcol]
                sx = sea[tq, x]
                if x == sq or sx >= FAR or sx + king[sq, x] != dq:
                    continue
                if q == seat:
                    features[F_SELF_BLOCK, i] = 1.0
                else:
                    features[F_BLOCKS, i] += 1.0
                    if leader:
                        features[F_BLOCKS_LEADER, i] = 1.0
    t = target[seat]
    s = ship[seat]
    base = land_dist[t, s] if t >= 0 else UNREACHED
    if not (t >= 0 and base < UNREACHED and target_dist[seat] > base):
        return  # the seat's route is not detoured: nothing to unblock
    for i in range(k):
        frm = storm if placing else pirate[options[i, 0]]
        x = options[i, xcol]
        if frm >= 0 and frm != s and land_dist[t, frm] + king[s, frm] == base:
            if x == s or land_dist[t, x] + king[s, x] != base:
                features[F_UNBLOCK, i] = 1.0


@njit(cache=True, inline="always")
def _pirate_features(features, options, pirate, k: int, cell, ship, hold, gold, king, cargo, n: int, seat: int,
                     lead: int, hn: int, exposed: bool, threat: bool) -> None:
    """Fill plunder_cards / plunder_leader / threat_gain / guard of pirate moves 0..k-1 (pirate, card, to, steps).

    threat_gain: opponents' hold cards (ships outside markets) within THREAT_RANGE of the pirate after the move
    (not counting the ships it plunders) minus before it; left 0 without ``threat`` (a strategy that ignores it).
    ``cargo`` is scratch for each player's hold cards at risk: 0 for the seat and for a ship in a market (which no
    pirate enters).
    """
    for q in range(n):
        cargo[q] = hold_sum(hold, q) if q != seat and cell[ship[q]] != MARKET else 0
    me = ship[seat]
    for i in range(k):  # sums in registers; arithmetic on the conditions, not branches (unpredictable outcomes)
        frm = pirate[options[i, 0]]
        to = options[i, 2]
        plunder = 0
        leader_hit = False
        gain = 0
        for q in range(n):
            c = ship[q]
            hit = c == to
            plunder += cargo[q] * hit
            leader_hit |= hit & (q != seat) & (gold[q] == lead)
            if threat:
                near_after = (c != to) & (king[to, c] <= THREAT_RANGE)
                gain += cargo[q] * (int(near_after) - int(king[frm, c] <= THREAT_RANGE))
        features[F_PLUNDER_CARDS, i] = plunder
        features[F_PLUNDER_LEADER, i] = 1.0 if leader_hit else 0.0
        features[F_THREAT_GAIN, i] = gain
        guard = 0
        if exposed:
            guard = hn * (int(king[frm, me] <= THREAT_RANGE) - int(king[to, me] <= THREAT_RANGE))
        features[F_GUARD, i] = guard


# ----------------------------------------------------------------------------------------------- decisions
@njit(cache=True)
def choose_start_markets(st: State) -> None:
    """ST-SETUP-8: in turn order each player puts its ship on a market no one has taken."""
    rules = st.rules
    n_players = st.n_players
    market_cell = st.market_cell
    ship = st.ship
    hand = st.hand
    start_dist = st.start_dist
    features = st.features
    options = st.options
    players = st.players
    taken = 0
    for s in range(n_players[0]):
        k = 0
        for m in range(N_MARKETS):
            if taken & (1 << m):
                continue
            options[k, 0] = m
            features[F_CARDS, k] = min(hand[s, SELLS[m]], rules[R_HOLD])
            features[F_SALE_DIST, k] = min(start_dist[m], FAR)
            k += 1
        ch = _decide(st, s, D_START, k) if k > 1 else 0
        m = options[ch, 0]
        taken |= 1 << m
        ship[s] = market_cell[m]
        players[s, P_START] = m
        players[s, P_START_DIST] = min(start_dist[m], FAR)
        ev(st, s, EV_START, m, market_cell[m])


@njit(cache=True)
def sail_decision(st: State, seat: int) -> bool:
    """ST-TURN-2: offer every legal single-card move plus "stop"; apply the pick; False when stopping."""
    kind = st.kind
    seat_strat = st.seat_strat
    rules = st.rules
    cell = st.cell
    market_at = st.market_at
    pirate = st.pirate
    king = st.king
    sea = st.sea
    land_dist = st.land_dist
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    features = st.features
    options = st.options
    desired = rules[R_DESIRED]
    normal = rules[R_SELL]
    ensure_dist(st)
    k = sail_options(st, seat, 0)
    if k == 0:
        return False
    if not _scored(kind, seat_strat, seat):
        ch = _decide(st, seat, D_SAIL, k + 1)
        if ch == k:
            return False
        apply_sail(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
        return True
    frm = ship[seat]
    known_targets = st.known_targets
    ts = known_sale_target(rules, sea, land_dist, hold, ship, known_targets, seat)
    tb = known_buy_target(rules, sea, land_dist, hand, hold, gold, ship, known_targets, seat)
    ds0 = plan_steps(sea, land_dist, ts, frm) if ts >= 0 else 0
    db0 = plan_steps(sea, land_dist, tb, frm) if tb >= 0 else 0
    hn = hold_sum(hold, seat)
    hand_n = hand_sum(hand, seat)
    for i in range(k):
        card = options[i, 0]
        to = options[i, 1]
        features[F_SALE_GAIN, i] = ds0 - plan_steps(sea, land_dist, ts, to) if ts >= 0 else 0.0
        features[F_BUY_GAIN, i] = db0 - plan_steps(sea, land_dist, tb, to) if tb >= 0 else 0.0
        m = market_at[to]
        features[F_ARRIVE_SELL, i] = hold_value(desired, normal, hold, seat, m, hn) if m >= 0 else 0.0
        features[F_ARRIVE_BUY, i] = buy_limit(rules, hand, hold, gold, m, seat) if m >= 0 else 0.0
        features[F_ROW, i] = 1.0 if card == CARD_ROW else 0.0
        features[F_WIND, i] = 0.0 if card == CARD_ROW else 1.0
        features[F_STEPS, i] = options[i, 2]
        features[F_HAND_SIZE, i] = hand_n
        features[F_PASS, i] = 0.0
        features[F_DANGER, i] = 0.0
    _pass_option(features, D_SAIL, k)
    for i in range(k + 1 if hn > 0 else 0):  # (an empty hold risks nothing: danger stays 0)
        # danger: a ship ending on c (staying on frm for the pass row) could be plundered by a pirate's next
        # Wind card (within THREAT_RANGE, not in a market).
        c = options[i, 1] if i < k else frm
        near = False
        for p in range(pirate.shape[0]):  # no early exit: a fixed trip count, no branch to mispredict
            near |= king[c, pirate[p]] <= THREAT_RANGE
        features[F_DANGER, i] = hn if near and cell[c] != MARKET else 0.0
    ch = _decide(st, seat, D_SAIL, k + 1)
    if ch == k:
        return False
    apply_sail(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
    return True


@njit(cache=True)
def sell_and_buy(st: State, seat: int) -> bool:
    """ST-TRADE-4 then ST-TRADE-2 in a market: sell cards one by one, then buy; True on an instant win."""
    market_at = st.market_at
    ship = st.ship
    m = market_at[ship[seat]]
    if m < 0:
        return False
    return _trade(st, seat, m)


@njit(cache=True)
def _trade(st: State, seat: int, m: int) -> bool:
    """``sell_and_buy`` for a ship in market m (its own kernel: most stops are at sea and skip these reads)."""
    rules = st.rules
    sea = st.sea
    land_dist = st.land_dist
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    features = st.features
    options = st.options
    desired = rules[R_DESIRED]
    normal = rules[R_SELL]
    ensure_dist(st)
    while True:
        k = 0
        for c in range(N_COMMODITIES):
            p = market_price(desired, normal, m, c)
            if hold[seat, c] == 0 or p == 0:
                continue  # ST-TRADE-4: a market never buys its own commodity
            options[k, 0] = c
            features[F_CARDS, k] = 1.0
            features[F_GOLD, k] = p
            features[F_REGRET, k] = max(0.0, best_value(desired, normal, sea, land_dist, ship[seat], c, m) - p)
            features[F_WIN, k] = 1.0 if gold[seat] + p >= rules[R_WIN_GOLD] else 0.0
            features[F_PASS, k] = 0.0
            k += 1
        if k == 0:
            break
        _pass_option(features, D_SELL, k)
        ch = _decide(st, seat, D_SELL, k + 1)
        if ch == k:
            break
        if apply_sell(st, seat, options[ch, 0]):
            return True  # ST-END-1: checked after every sale
    kmax = buy_limit(rules, hand, hold, gold, m, seat)
    if kmax > 0:
        # Bought cards are worth their best price anywhere (the hold has no other use); routes decide where.
        value = rules[R_DESIRED] - rules[R_BUY]
        for j in range(kmax + 1):
            features[F_PASS, j] = 1.0 if j == 0 else 0.0
            features[F_CARDS, j] = j
            features[F_GOLD, j] = -j * rules[R_BUY]
            features[F_MY_GAIN, j] = j * value
        ch = _decide(st, seat, D_BUY, kmax + 1)
        if ch > 0:
            apply_buy(st, seat, ch)
    return False


@njit(cache=True, inline="always")
def _hold_gain(desired: int, normal: int, t: int, give: int, get: int) -> float:
    """Gain for a player heading to market t of swapping hold card ``give`` for ``get``."""
    if t < 0:
        return 0.0
    return float(market_price(desired, normal, t, get) - market_price(desired, normal, t, give))


@njit(cache=True, inline="always")
def _put_swaps(options, features, k: int, mine: int, theirs: int, q: int, where: int, hand, seat: int, tm: int,
               tq: int, desired: int, normal: int, lead: float) -> int:
    """Append as options from row k every swap of a seat's commodity in ``mine`` for a different one of q's in
    ``theirs`` (bit sets of the holds, ``where`` 0, or of the hands, 1) with its gains; return the next free row.

    Hold gains are price differences at each side's sale market (tm, tq); hand cards are worth more in sets (one
    market visit buys them all), so a hand swap gains by how much it evens out the receiver's hand.
    """
    mask_a = mine
    while mask_a != 0:
        a = lowest_bit(mask_a)
        mask_a &= mask_a - 1
        mask_b = theirs & ~(1 << a)
        while mask_b != 0:
            b = lowest_bit(mask_b)
            mask_b &= mask_b - 1
            options[k, 0] = q
            options[k, 1] = a
            options[k, 2] = b
            options[k, 3] = where
            if where == 0:
                features[F_MY_GAIN, k] = _hold_gain(desired, normal, tm, a, b)
                features[F_PARTNER_GAIN, k] = _hold_gain(desired, normal, tq, b, a)
            else:
                features[F_MY_GAIN, k] = 0.5 * (hand[seat, b] - hand[seat, a] + 1)
                features[F_PARTNER_GAIN, k] = 0.5 * (hand[q, a] - hand[q, b] + 1)
            features[F_PARTNER_LEADER, k] = lead
            features[F_PASS, k] = 0.0
            k += 1
    return k


@njit(cache=True)
def offer_decision(st: State, seat: int) -> None:
    """ST-TRADE-1: offer one 1-for-1 swap (hold-hold or hand-hand) to an adjacent ship; the partner accepts or not.

    Protocol (simulator decision): at each stop of its sail phase the active player may make one offer,
    chosen by its strategy among all 1-for-1 swaps of different commodities with every ship in its
    8-neighbourhood or space; the partner's strategy then accepts or declines it.
    """
    n_players = st.n_players
    ship = st.ship
    king = st.king
    me = ship[seat]
    for q in range(n_players[0]):
        if q != seat and king[me, ship[q]] <= 1:
            _offer(st, seat)
            return


@njit(cache=True)
def _offer(st: State, seat: int) -> None:
    """``offer_decision`` once a partner is adjacent (most stops have none and skip these reads)."""
    rules = st.rules
    n_players = st.n_players
    king = st.king
    sea = st.sea
    land_dist = st.land_dist
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    known_targets = st.known_targets
    features = st.features
    options = st.options
    games = st.games
    players = st.players
    desired = rules[R_DESIRED]
    normal = rules[R_SELL]
    n = n_players[0]
    me = ship[seat]
    ensure_dist(st)
    tm = NOT_YET
    k = 0
    for q in range(n):
        if q == seat or king[me, ship[q]] > 1:
            continue
        if tm == NOT_YET:
            tm = known_sale_target(rules, sea, land_dist, hold, ship, known_targets, seat)
        tq = known_sale_target(rules, sea, land_dist, hold, ship, known_targets, q)
        lead = 1.0 if gold[q] == leader_gold(gold, n, seat) else 0.0
        # Hold swaps, then hand swaps: pairs (a, b) of different commodities, a the seat's and b q's, from bit sets.
        k = _put_swaps(options, features, k, held_bits(hold, seat, 0, N_COMMODITIES),
                       held_bits(hold, q, 0, N_COMMODITIES), q, 0, hand, seat, tm, tq, desired, normal, lead)
        k = _put_swaps(options, features, k, held_bits(hand, seat, 0, N_COMMODITIES),
                       held_bits(hand, q, 0, N_COMMODITIES), q, 1, hand, seat, tm, tq, desired, normal, lead)
    if k == 0:
        return
    _pass_option(features, D_OFFER, k)
    ch = _decide(st, seat, D_OFFER, k + 1)
    if ch == k:
        return
    q = options[ch, 0]
    a = options[ch, 1]
    b = options[ch, 2]
    where = options[ch, 3]
    mine = features[F_MY_GAIN, ch]
    theirs = features[F_PARTNER_GAIN, ch]
    players[seat, P_OFFERS] += 1
    _pass_option(features, D_ACCEPT, 0)
    features[F_PASS, 1] = 0.0
    features[F_MY_GAIN, 1] = theirs
    features[F_PARTNER_GAIN, 1] = mine
    features[F_PARTNER_LEADER, 1] = 1.0 if gold[seat] == leader_gold(gold, n, q) else 0.0
    accepted = _decide(st, q, D_ACCEPT, 2) == 1
    ev(st, seat, EV_OFFER, q, a, b, where, 1 if accepted else 0)
    if not accepted:
        return
    forget_targets(known_targets, seat)
    forget_targets(known_targets, q)
    if where == 0:
        hold[seat, a] -= 1
        hold[q, a] += 1
        hold[q, b] -= 1
        hold[seat, b] += 1
    else:
        hand[seat, a] -= 1
        hand[q, a] += 1
        hand[q, b] -= 1
        hand[seat, b] += 1
    players[seat, P_TRADES] += 1
    players[q, P_TRADES] += 1
    games[G_TRADES] += 1


@njit(cache=True)
def pirate_phase(st: State, seat: int) -> None:
    """ST-TURN-4: move pirates with Wind cards, one card per decision, until the strategy passes."""
    hand = st.hand
    if held_winds(hand, seat) != 0:
        _pirate_moves(st, seat)


@njit(cache=True)
def _pirate_moves(st: State, seat: int) -> None:
    """``pirate_phase`` for a seat holding a Wind card (its own kernel: most turns skip these reads)."""
    kind = st.kind
    seat_strat = st.seat_strat
    weights = st.weights
    rules = st.rules
    n_players = st.n_players
    cell = st.cell
    pirate = st.pirate
    king = st.king
    land_dist = st.land_dist
    sea = st.sea
    layers = st.layers
    ring = st.ring
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    known_targets = st.known_targets
    target = st.target
    target_dist = st.target_dist
    features = st.features
    options = st.options
    n = n_players[0]
    g = rules[R_GRID]
    bits = cell.shape[0] <= BIT_CELLS
    scored = _scored(kind, seat_strat, seat)
    rivals = _weighs_rivals(weights, seat_strat, seat, D_PIRATE)
    threat = _uses(weights, seat_strat, seat, D_PIRATE, F_THREAT_GAIN)
    me = ship[seat]
    hn = hold_sum(hold, seat)
    exposed = hn > 0 and cell[me] != MARKET
    while held_winds(hand, seat) != 0:
        ensure_dist(st)
        k = pirate_options(st, seat, 0)
        if k == 0:
            return
        if not scored:
            ch = _decide(st, seat, D_PIRATE, k + 1)
            if ch == k:
                return
            apply_pirate(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
            continue
        _set_targets(rules, sea, land_dist, ship, hand, hold, gold, known_targets, target, target_dist, n, seat,
                     rivals)
        lead = leader_gold(gold, n, seat)
        hand_n = hand_sum(hand, seat)
        _pirate_features(features, options, pirate, k, cell, ship, hold, gold, king, st.cargo, n, seat, lead, hn,
                         exposed, threat)
        _obstacle_features(features, options, pirate, k, False, -1, gold, ship, sea, land_dist, king, layers, ring,
                           bits, g, target, target_dist, n, seat, lead, rivals)
        for i in range(k):
            features[F_HAND_SIZE, i] = hand_n
            features[F_WIND, i] = 1.0
            features[F_STEPS, i] = options[i, 3]
            features[F_PASS, i] = 0.0
        _pass_option(features, D_PIRATE, k)
        ch = _decide(st, seat, D_PIRATE, k + 1)
        if ch == k:
            return
        apply_pirate(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])


@njit(cache=True)
def storm_phase(st: State, seat: int) -> None:
    """ST-TURN-5: optionally play one Storm card onto an empty space (every empty space is an option)."""
    hand = st.hand
    if hand[seat, CARD_STORM] > 0:
        _storm_move(st, seat)


@njit(cache=True)
def _storm_move(st: State, seat: int) -> None:
    """``storm_phase`` for a seat holding a Storm card (its own kernel: most turns skip these reads)."""
    kind = st.kind
    seat_strat = st.seat_strat
    weights = st.weights
    rules = st.rules
    n_players = st.n_players
    cell = st.cell
    pirate_a = st.pirate
    king = st.king
    land_dist = st.land_dist
    sea = st.sea
    layers = st.layers
    ring = st.ring
    storm_a = st.storm
    ship_a = st.ship
    hand_a = st.hand
    hold = st.hold
    gold = st.gold
    known_targets = st.known_targets
    target = st.target
    target_dist = st.target_dist
    features = st.features
    options = st.options
    k = storm_options(st, 0)
    if k == 0:
        return
    if not _scored(kind, seat_strat, seat):
        ch = _decide(st, seat, D_STORM, k + 1)
        if ch < k:
            apply_storm(st, seat, options[ch, 0])
        return
    ensure_dist(st)
    n = n_players[0]
    rivals = _weighs_rivals(weights, seat_strat, seat, D_STORM)
    _set_targets(rules, sea, land_dist, ship_a, hand_a, hold, gold, known_targets, target, target_dist, n, seat,
                 rivals)
    g = rules[R_GRID]
    bits = cell.shape[0] <= BIT_CELLS
    me = ship_a[seat]
    hn = hold_sum(hold, seat)
    lead = leader_gold(gold, n, seat)
    hand_n = hand_sum(hand_a, seat)
    # A pirate two spaces away in a straight line reaches the ship through the middle space: guard it.
    mid0 = -1
    mid1 = -1
    if hn > 0 and cell[me] != MARKET:
        for p in range(pirate_a.shape[0]):
            pc = pirate_a[p]
            dr = me // g - pc // g
            dc = me % g - pc % g
            if max(abs(dr), abs(dc)) == 2 and dr % 2 == 0 and dc % 2 == 0:
                if mid0 < 0:
                    mid0 = pc + (dr // 2) * g + dc // 2
                else:
                    mid1 = pc + (dr // 2) * g + dc // 2
    _obstacle_features(features, options, pirate_a, k, True, storm_a[0], gold, ship_a, sea, land_dist, king,
                       layers, ring, bits, g, target, target_dist, n, seat, lead, rivals)
    for i in range(k):
        x = options[i, 0]
        features[F_GUARD, i] = hn if x == mid0 or x == mid1 else 0.0
        features[F_HAND_SIZE, i] = hand_n
        features[F_PASS, i] = 0.0
    _pass_option(features, D_STORM, k)
    ch = _decide(st, seat, D_STORM, k + 1)
    if ch < k:
        apply_storm(st, seat, options[ch, 0])


# ----------------------------------------------------------------------------------------------- turns, games
@njit(cache=True)
def play_turn(st: State, seat: int) -> bool:
    """One turn (ST-TURN-1..6); True if the seat won during it."""
    rules = st.rules
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    games = st.games
    players = st.players
    players[seat, P_TURNS] += 1
    games[G_TURNS] += 1
    for _ in range(rules[R_DRAW]):
        card = draw_card(st, seat)
        ev(st, seat, EV_DRAW, card)
    h = hand_sum(hand, seat)
    if h > players[seat, P_MAX_HAND]:
        players[seat, P_MAX_HAND] = h
    # ST-TRADE-5: trade at every stop of the sail phase (start included), then sail on or stop.
    while True:
        if sell_and_buy(st, seat):
            return True
        offer_decision(st, seat)
        if not sail_decision(st, seat):
            break
    pirate_phase(st, seat)
    storm_phase(st, seat)
    ev(st, seat, EV_END_TURN, gold[seat], hand_sum(hand, seat), hold_sum(hold, seat), ship[seat])
    return False


@njit(cache=True)
def setup_game(st: State, seed: int, game_index: int) -> bool:
    """ST-SETUP-1..9 for game ``game_index``; False if no legal board could be drawn."""
    rules = st.rules
    n_players = st.n_players
    cell = st.cell
    market_cell = st.market_cell
    pirate = st.pirate
    hand = st.hand
    hold = st.hold
    gold = st.gold
    deck_a = st.deck
    piles = st.piles
    games = st.games
    players = st.players
    misc = st.misc
    rng = st.rng
    seed_game(rng, seed, game_index)
    games[:] = 0
    players[:, :] = 0
    misc[M_EVENTS] = 0
    misc[M_ROUND] = 0
    misc[M_WINNER] = -1
    if generate_board(st) < 0:
        return False
    n = cell.shape[0]
    for c in range(n):
        if cell[c] == LAND:
            ev(st, -1, EV_LAND, c)
    for m in range(N_MARKETS):
        ev(st, -1, EV_MARKET, m, market_cell[m])
    for p in range(pirate.shape[0]):
        ev(st, -1, EV_PIRATE_START, p, pirate[p])
    # ST-COMP-4 / ST-SETUP-6: build and shuffle the deck, deal the starting hands.
    k = 0
    for c in range(N_COMMODITIES):
        for _ in range(rules[R_COMMODITY_COPIES]):
            deck_a[k] = c
            k += 1
    for _ in range(rules[R_ROW_CARDS]):
        deck_a[k] = CARD_ROW
        k += 1
    for d in range(8):
        for _ in range(rules[R_WIND_COPIES]):
            deck_a[k] = CARD_WIND0 + d
            k += 1
    for _ in range(rules[R_STORM_CARDS]):
        deck_a[k] = CARD_STORM
        k += 1
    piles[0] = k
    piles[1] = 0
    shuffle(rng, deck_a, k)
    hand[:, :] = 0
    hold[:, :] = 0
    for s in range(n_players[0]):
        gold[s] = rules[R_START_GOLD]  # ST-SETUP-9
        players[s, P_GOLD_R10] = -1
        players[s, P_GOLD_R20] = -1
        for _ in range(rules[R_HAND_START]):
            card = draw_card(st, s)
            ev(st, s, EV_DEAL, card)
    choose_start_markets(st)
    return True


@njit(cache=True)
def play_game(st: State, game_index: int, seed: int, debug: bool) -> int:
    """Play one whole game into st.games / st.players; 0 if fine, ERROR_BOARD, or an invariant code."""
    rules = st.rules
    n_players = st.n_players
    gold = st.gold
    deck = st.deck
    games = st.games
    players = st.players
    misc = st.misc
    keys = st.keys
    rank = st.rank
    if not setup_game(st, seed, game_index):
        return ERROR_BOARD
    n = n_players[0]
    deck_size = deck.shape[0]
    winner = -1
    rounds = 0
    for rnd in range(1, rules[R_ROUND_CAP] + 1):
        rounds = rnd
        misc[M_ROUND] = rnd
        ev(st, -1, EV_ROUND, rnd)
        for s in range(n):
            won = play_turn(st, s)
            if debug:
                code = check_invariants(st, deck_size)
                if code == 0:
                    code = check_known_targets(st)
                if code != 0:
                    return code
            if won:
                winner = s
                break
        if winner >= 0:
            break
        for s in range(n):
            if rnd == 10:
                players[s, P_GOLD_R10] = gold[s]
            if rnd == 20:
                players[s, P_GOLD_R20] = gold[s]
    misc[M_WINNER] = winner
    if winner >= 0:
        ev(st, winner, EV_WIN, gold[winner])
    else:
        ev(st, -1, EV_TIMEOUT)
    if debug:
        for s in range(n):
            rich = gold[s] >= rules[R_WIN_GOLD]
            if rich != (s == winner):
                return 9
    games[G_ROUNDS] = rounds
    games[G_END] = END_WIN if winner >= 0 else END_TIMEOUT
    games[G_WINNER] = winner
    for s in range(n):
        players[s, P_SCORE] = gold[s]
        players[s, P_WON] = 1 if s == winner else 0
        if players[s, P_GOLD_R10] < 0:
            players[s, P_GOLD_R10] = gold[s]
        if players[s, P_GOLD_R20] < 0:
            players[s, P_GOLD_R20] = gold[s]
        keys[s, 0] = 1 if s == winner else 0
        keys[s, 1] = gold[s]
    rank_seats(keys, n, rank)
    for s in range(n):
        players[s, P_RANK] = rank[s]
    return 0


@njit(cache=True)
def play_chunk_kernel(st: State, seats, first_index: int, n_games: int, seed: int, debug: bool,
                      games_out, players_out) -> int:
    """Play games first_index .. first_index+n_games-1 into the output arrays; 0 or the first error code."""
    st = borrow(st)
    n_players = st.n_players
    games_a = st.games
    players = st.players
    misc = st.misc
    seat_strat = st.seat_strat
    n = n_players[0]
    for i in range(n_games):
        for s in range(n):
            seat_strat[s] = seats[i, s]
        code = play_game(st, first_index + i, seed, debug)
        if code != 0:
            misc[M_ERROR_GAME] = first_index + i
            return code
        for j in range(games_a.shape[0]):
            games_out[i, j] = games_a[j]
        for s in range(n):
            for j in range(players.shape[1]):
                players_out[i, s, j] = players[s, j]
    return 0
