"""Sea Trade kernels: decisions (options + features -> sim.core.play.decide), turns and the game's hooks.

Turn order is seat order (seat 0 plays first). ST-SETUP-7 (random turn order) is met by the runner, which
seats the strategies at random per game; seat effects are what a study measures.

The core driver (sim/core/play.py) passes a borrowed handle (sim/core/structs.py): field reads and calls
cost no reference counts. Helpers take the handle; the decisions and the feature helpers whose loops run
per option and player read the fields they loop over into locals once at the top, so a field is read once
per decision, not once per option. Four phases keep a cheap guard apart from the work (sell_and_buy, offer,
pirate and storm): most calls stop at the guard, and merging each pair measured 2% slower head to head.
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit
from sim.core.errors import PlaytestError
from sim.core.graph import UNREACHED
from sim.core.jit import kernel
from sim.core.play import checking, decide, event, scored, uses
from sim.core.rng import shuffle
from sim.core.seats import seat_bonus
from sim.core.state import M
from sim.core.turns import GOES_ON, bind_turns, turn_seat
from sim.sea_trade.board import FAR, ensure_dist, generate_board, plan_steps
from sim.sea_trade.moves import (INVARIANTS, apply_buy, apply_pirate, apply_sail, apply_sell, apply_storm, buy_limit,
                                 check_invariants, draw_card, forget_targets, hand_sum, held_bits, held_winds, hold_sum,
                                 hold_value, market_price, pirate_options, sail_options, storm_options)
from sim.sea_trade.records import END_TIMEOUT, END_WIN, GC, PC
from sim.sea_trade.rules import R
from sim.sea_trade.schema import D, F
from sim.sea_trade.state import (BIT_CELLS, CARD_ROW, CARD_STORM, CARD_WIND0, EV, LAND, LAYOUT, MARKET, MISC,
                                 N_COMMODITIES, N_MARKETS, SELLS, STALE, State)

GOLD_PER_STEP = 0.3
"""Value estimates discount a sale by this much gold per sea step to the market (about a turn's progress)."""
THREAT_RANGE = 2
"""A pirate within this many spaces (Chebyshev) can reach a ship with one Wind card: the danger radius."""
NOT_YET = -2
"""Sentinel for a target not computed yet (only needed when a partner is adjacent)."""


# ----------------------------------------------------------------------------------------------- estimates
# The helpers below take the arrays they read (not the handle): each decision reads the handle's fields once
# at its top and passes them down to the loops over options.
@kernel(inline="always")
def _pass_option(st, decision: int, k: int) -> None:
    """Option k of ``decision`` is the pass / stop / decline: pass = 1, its other features 0.

    Every decision writes each feature it fills (strategies.sea_trade.FILLED) for every option, so no
    feature is cleared per decision; the others keep stale values that choose() never reads (the registry
    admits weights only on filled features, and a zero weight is skipped).
    """
    features = st.features
    for f in range(st.span[decision, 0], st.span[decision, 1]):
        features[f, k] = 0.0
    features[F.pass_, k] = 1.0


@kernel(inline="always")
def _weighs_rivals(st: State, seat: int, decision: int) -> bool:
    """Whether the seat's strategy weighs blocking the others (blocks or blocks_leader) in ``decision``: only
    then are the other players' routes needed."""
    return uses(st, seat, decision, F.blocks) or uses(st, seat, decision, F.blocks_leader)


@kernel(inline="always")
def leader_gold(gold, n: int, viewer: int) -> int:
    """Most gold held by any of the n players other than ``viewer``."""
    best = -1
    for q in range(n):
        if q != viewer and gold[q] > best:
            best = gold[q]
    return best


@kernel(inline="always")
def sale_target(rules, sea, land_dist, hold, q: int, at: int) -> int:
    """The market where q's hold fetches the most gold after the distance discount from its ship on ``at``, or -1."""
    desired = rules[R.desired_price]
    normal = rules[R.sell_price]
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


@kernel(inline="always")
def buy_target(rules, sea, land_dist, hand, hold, gold, q: int, at: int) -> int:
    """The market where q (ship on ``at``) can buy the most of its hand cards (distance-discounted), or -1."""
    room = rules[R.hold_size] - hold_sum(hold, q)
    afford = gold[q] // rules[R.buy_price] if rules[R.buy_price] > 0 else room
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
        v = k * (rules[R.desired_price] - rules[R.buy_price]) - GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@kernel(inline="always")
def known_sale_target(st: State, q: int) -> int:
    """``sale_target`` of q's ship, cached in ``known_targets`` until q's hold or ship or the distances change."""
    t = st.known_targets[q, 0]
    if t == STALE:
        t = sale_target(st.rules, st.sea, st.land_dist, st.hold, q, st.ship[q])
        st.known_targets[q, 0] = t
    return t


@kernel(inline="always")
def known_buy_target(st: State, q: int) -> int:
    """``buy_target`` of q's ship, cached like ``known_sale_target``."""
    t = st.known_targets[q, 1]
    if t == STALE:
        t = buy_target(st.rules, st.sea, st.land_dist, st.hand, st.hold, st.gold, q, st.ship[q])
        st.known_targets[q, 1] = t
    return t


@kernel
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
    if st.misc[MISC.dist_dirty] != 0:
        return 0  # the next ensure_dist forgets them all
    for q in range(st.meta[M.n_players]):
        t = known_targets[q, 0]
        if t != STALE and t != sale_target(rules, sea, land_dist, hold, q, ship[q]):
            return 10
        t = known_targets[q, 1]
        if t != STALE and t != buy_target(rules, sea, land_dist, hand, hold, gold, q, ship[q]):
            return 10
    return 0


@kernel(inline="always")
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


@kernel(inline="always")
def _set_targets(st: State, seat: int, rivals: bool) -> None:
    """Refresh the route target and its current sea distance of the seat and, with ``rivals``, of every other
    player (for the blocking features).

    The route target is the sale market when carrying cargo, else the buy market (-1 if neither).
    """
    for q in range(st.meta[M.n_players]):
        if q != seat and not rivals:
            continue
        t = known_sale_target(st, q)
        if t < 0:
            t = known_buy_target(st, q)
        st.target[q] = t
        st.target_dist[q] = st.sea[t, st.ship[q]] if t >= 0 else FAR


@kernel(inline="always")
def _route_bits(layers, ring, t: int, s: int, d: int, g: int):
    """Bitboard of the spaces x != s with sea[t, x] + king[s, x] == d, i.e. on a shortest sea route of a ship
    on s to market t, d sea steps away: the BFS layer j of t meets the ring of radius d - j around s."""
    r = np.uint64(0)
    for j in range(max(0, d - g + 1), d + 1):
        r |= layers[t, j] & ring[s, d - j]
    return r & ~(np.uint64(1) << np.uint64(s))


@kernel(inline="always")
def _obstacle_features(st: State, k: int, placing: bool, seat: int, lead: int, rivals: bool, bits: bool) -> None:
    """Fill blocks / blocks_leader / self_block / unblock of options 0..k-1 that move an obstacle (needs
    ``_set_targets`` first): storm placements (cell, 0, 0, 0) from the storm's space (-1: none yet) when
    ``placing``, else pirate moves (pirate, card, to, steps).

    blocks: space x lies on a shortest sea route of q's ship to its target (blocking x delays q), i.e.
    x != ship, sea[target, x] < FAR and sea[target, x] + king[ship, x] == sea[target, ship]. With ``bits``
    (grids up to 8x8: ``st.cell.shape[0] <= BIT_CELLS``; the tests also run the table path there) each route is
    one bitboard and the opponents' routes are counted in bit planes; else the
    condition is tested per option and player.
    unblock: moving the obstacle from ``frm`` to ``to`` clears the seat's cut or detoured route.
    Without ``rivals`` (the strategy weighs neither blocks nor blocks_leader) those two stay 0.
    """
    features = st.features  # locals: the loops below run per option and player
    options = st.options
    pirate = st.pirate
    gold = st.gold
    ship = st.ship
    sea = st.sea
    land_dist = st.land_dist
    king = st.king
    target = st.target
    target_dist = st.target_dist
    storm = st.storm[0] if placing else -1
    n = st.meta[M.n_players]
    g = st.rules[R.grid_size]
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
            r = _route_bits(st.layers, st.ring, tq, ship[q], dq, g)
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
            features[F.self_block, i] = float((own >> x) & one)
            features[F.blocks, i] = float(((ones >> x) & one) + ((twos >> x) & one) * 2 + ((fours >> x) & one) * 4)
            features[F.blocks_leader, i] = float((leaders >> x) & one)
            features[F.unblock, i] = 0.0
    else:
        for i in range(k):
            features[F.self_block, i] = 0.0
            features[F.blocks, i] = 0.0
            features[F.blocks_leader, i] = 0.0
            features[F.unblock, i] = 0.0
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
                    features[F.self_block, i] = 1.0
                else:
                    features[F.blocks, i] += 1.0
                    if leader:
                        features[F.blocks_leader, i] = 1.0
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
                features[F.unblock, i] = 1.0


@kernel(inline="always")
def _pirate_features(st: State, k: int, seat: int, lead: int, hn: int, exposed: bool, threat: bool) -> None:
    """Fill plunder_cards / plunder_leader / threat_gain / guard of pirate moves 0..k-1 (pirate, card, to, steps).

    threat_gain: opponents' hold cards (ships outside markets) within THREAT_RANGE of the pirate after the move
    (not counting the ships it plunders) minus before it; left 0 without ``threat`` (a strategy that ignores it).
    ``cargo`` is scratch for each player's hold cards at risk: 0 for the seat and for a ship in a market (which no
    pirate enters).
    """
    features = st.features  # locals: the loops below run per option and player
    options = st.options
    pirate = st.pirate
    cell = st.cell
    ship = st.ship
    hold = st.hold
    gold = st.gold
    king = st.king
    cargo = st.cargo
    n = st.meta[M.n_players]
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
        features[F.plunder_cards, i] = plunder
        features[F.plunder_leader, i] = 1.0 if leader_hit else 0.0
        features[F.threat_gain, i] = gain
        guard = 0
        if exposed:
            guard = hn * (int(king[frm, me] <= THREAT_RANGE) - int(king[to, me] <= THREAT_RANGE))
        features[F.guard, i] = guard


# ----------------------------------------------------------------------------------------------- decisions
@kernel
def choose_start_markets(st: State) -> None:
    """ST-SETUP-8: in turn order each player puts its ship on a market no one has taken."""
    rules = st.rules
    market_cell = st.market_cell
    ship = st.ship
    hand = st.hand
    start_dist = st.start_dist
    features = st.features
    options = st.options
    players = st.players
    taken = 0
    for s in range(st.meta[M.n_players]):
        k = 0
        for m in range(N_MARKETS):
            if taken & (1 << m):
                continue
            options[k, 0] = m
            features[F.cards, k] = min(hand[s, SELLS[m]], rules[R.hold_size])
            features[F.sale_dist, k] = min(start_dist[m], FAR)
            k += 1
        ch = decide(st, s, D.start_market, k) if k > 1 else 0
        m = options[ch, 0]
        taken |= 1 << m
        ship[s] = market_cell[m]
        players[s, PC.start_market] = m
        players[s, PC.start_desired_dist] = min(start_dist[m], FAR)
        event(st, s, EV.start, m, market_cell[m])


@kernel
def sail_decision(st: State, seat: int) -> bool:
    """ST-TURN-2: offer every legal single-card move plus "stop"; apply the pick; False when stopping."""
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
    desired = rules[R.desired_price]
    normal = rules[R.sell_price]
    ensure_dist(st)
    k = sail_options(st, seat, 0)
    if k == 0:
        return False
    if not scored(st, seat):
        ch = decide(st, seat, D.sail, k + 1)
        if ch == k:
            return False
        apply_sail(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
        return True
    frm = ship[seat]
    ts = known_sale_target(st, seat)
    tb = known_buy_target(st, seat)
    ds0 = plan_steps(sea, land_dist, ts, frm) if ts >= 0 else 0
    db0 = plan_steps(sea, land_dist, tb, frm) if tb >= 0 else 0
    hn = hold_sum(hold, seat)
    hand_n = hand_sum(hand, seat)
    for i in range(k):
        card = options[i, 0]
        to = options[i, 1]
        features[F.sale_gain, i] = ds0 - plan_steps(sea, land_dist, ts, to) if ts >= 0 else 0.0
        features[F.buy_gain, i] = db0 - plan_steps(sea, land_dist, tb, to) if tb >= 0 else 0.0
        m = market_at[to]
        features[F.arrive_sell, i] = hold_value(desired, normal, hold, seat, m, hn) if m >= 0 else 0.0
        features[F.arrive_buy, i] = buy_limit(rules, hand, hold, gold, m, seat) if m >= 0 else 0.0
        features[F.row_card, i] = 1.0 if card == CARD_ROW else 0.0
        features[F.wind_card, i] = 0.0 if card == CARD_ROW else 1.0
        features[F.steps, i] = options[i, 2]
        features[F.hand_size, i] = hand_n
        features[F.pass_, i] = 0.0
        features[F.danger, i] = 0.0
    _pass_option(st, D.sail, k)
    for i in range(k + 1 if hn > 0 else 0):  # (an empty hold risks nothing: danger stays 0)
        # danger: a ship ending on c (staying on frm for the pass row) could be plundered by a pirate's next
        # Wind card (within THREAT_RANGE, not in a market).
        c = options[i, 1] if i < k else frm
        near = False
        for p in range(pirate.shape[0]):  # no early exit: a fixed trip count, no branch to mispredict
            near |= king[c, pirate[p]] <= THREAT_RANGE
        features[F.danger, i] = hn if near and cell[c] != MARKET else 0.0
    ch = decide(st, seat, D.sail, k + 1)
    if ch == k:
        return False
    apply_sail(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
    return True


@kernel
def sell_and_buy(st: State, seat: int) -> bool:
    """ST-TRADE-4 then ST-TRADE-2 in a market: sell cards one by one, then buy; True on an instant win."""
    market_at = st.market_at
    ship = st.ship
    m = market_at[ship[seat]]
    if m < 0:
        return False
    return _trade(st, seat, m)


@kernel
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
    desired = rules[R.desired_price]
    normal = rules[R.sell_price]
    ensure_dist(st)
    while True:
        k = 0
        for c in range(N_COMMODITIES):
            p = market_price(desired, normal, m, c)
            if hold[seat, c] == 0 or p == 0:
                continue  # ST-TRADE-4: a market never buys its own commodity
            options[k, 0] = c
            features[F.cards, k] = 1.0
            features[F.gold, k] = p
            features[F.regret, k] = max(0.0, best_value(desired, normal, sea, land_dist, ship[seat], c, m) - p)
            features[F.win, k] = 1.0 if gold[seat] + p >= rules[R.win_gold] else 0.0
            features[F.pass_, k] = 0.0
            k += 1
        if k == 0:
            break
        _pass_option(st, D.sell, k)
        ch = decide(st, seat, D.sell, k + 1)
        if ch == k:
            break
        if apply_sell(st, seat, options[ch, 0]):
            return True  # ST-END-1: checked after every sale
    kmax = buy_limit(rules, hand, hold, gold, m, seat)
    if kmax > 0:
        # Bought cards are worth their best price anywhere (the hold has no other use); routes decide where.
        value = rules[R.desired_price] - rules[R.buy_price]
        for j in range(kmax + 1):
            features[F.pass_, j] = 1.0 if j == 0 else 0.0
            features[F.cards, j] = j
            features[F.gold, j] = -j * rules[R.buy_price]
            features[F.my_gain, j] = j * value
        ch = decide(st, seat, D.buy, kmax + 1)
        if ch > 0:
            apply_buy(st, seat, ch)
    return False


@kernel(inline="always")
def _hold_gain(desired: int, normal: int, t: int, give: int, get: int) -> float:
    """Gain for a player heading to market t of swapping hold card ``give`` for ``get``."""
    if t < 0:
        return 0.0
    return float(market_price(desired, normal, t, get) - market_price(desired, normal, t, give))


@kernel(inline="always")
def _put_swaps(st: State, k: int, seat: int, q: int, where: int, tm: int, tq: int, lead: float) -> int:
    """Append as options from row k every swap of one of the seat's commodities for a different one of q's, in
    their holds (``where`` 0) or hands (1), with its gains; return the next free row.

    Hold gains are price differences at each side's sale market (tm, tq); hand cards are worth more in sets (one
    market visit buys them all), so a hand swap gains by how much it evens out the receiver's hand.
    """
    options = st.options
    features = st.features
    hand = st.hand
    cards = st.hold if where == 0 else hand
    desired = st.rules[R.desired_price]
    normal = st.rules[R.sell_price]
    theirs = held_bits(cards, q, 0, N_COMMODITIES)
    mask_a = held_bits(cards, seat, 0, N_COMMODITIES)
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
                features[F.my_gain, k] = _hold_gain(desired, normal, tm, a, b)
                features[F.partner_gain, k] = _hold_gain(desired, normal, tq, b, a)
            else:
                features[F.my_gain, k] = 0.5 * (hand[seat, b] - hand[seat, a] + 1)
                features[F.partner_gain, k] = 0.5 * (hand[q, a] - hand[q, b] + 1)
            features[F.partner_leader, k] = lead
            features[F.pass_, k] = 0.0
            k += 1
    return k


@kernel
def offer_decision(st: State, seat: int) -> None:
    """ST-TRADE-1: offer one 1-for-1 swap (hold-hold or hand-hand) to an adjacent ship; the partner accepts or not.

    Protocol (simulator decision): at each stop of its sail phase the active player may make one offer,
    chosen by its strategy among all 1-for-1 swaps of different commodities with every ship in its
    8-neighbourhood or space; the partner's strategy then accepts or declines it.
    """
    ship = st.ship
    king = st.king
    me = ship[seat]
    for q in range(st.meta[M.n_players]):
        if q != seat and king[me, ship[q]] <= 1:
            _offer(st, seat)
            return


@kernel
def _offer(st: State, seat: int) -> None:
    """``offer_decision`` once a partner is adjacent (most stops have none and skip these reads)."""
    king = st.king
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    known_targets = st.known_targets
    features = st.features
    options = st.options
    games = st.games
    players = st.players
    n = st.meta[M.n_players]
    me = ship[seat]
    ensure_dist(st)
    tm = NOT_YET
    k = 0
    for q in range(n):
        if q == seat or king[me, ship[q]] > 1:
            continue
        if tm == NOT_YET:
            tm = known_sale_target(st, seat)
        tq = known_sale_target(st, q)
        lead = 1.0 if gold[q] == leader_gold(gold, n, seat) else 0.0
        # Hold swaps, then hand swaps: pairs (a, b) of different commodities, a the seat's and b q's, from bit sets.
        k = _put_swaps(st, k, seat, q, 0, tm, tq, lead)
        k = _put_swaps(st, k, seat, q, 1, tm, tq, lead)
    if k == 0:
        return
    _pass_option(st, D.offer, k)
    ch = decide(st, seat, D.offer, k + 1)
    if ch == k:
        return
    q = options[ch, 0]
    a = options[ch, 1]
    b = options[ch, 2]
    where = options[ch, 3]
    mine = features[F.my_gain, ch]
    theirs = features[F.partner_gain, ch]
    players[seat, PC.offers] += 1
    _pass_option(st, D.accept, 0)
    features[F.pass_, 1] = 0.0
    features[F.my_gain, 1] = theirs
    features[F.partner_gain, 1] = mine
    features[F.partner_leader, 1] = 1.0 if gold[seat] == leader_gold(gold, n, q) else 0.0
    accepted = decide(st, q, D.accept, 2) == 1
    event(st, seat, EV.offer, q, a, b, where, 1 if accepted else 0)
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
    players[seat, PC.trades] += 1
    players[q, PC.trades] += 1
    games[GC.trades] += 1


@kernel
def pirate_phase(st: State, seat: int) -> None:
    """ST-TURN-4: move pirates with Wind cards, one card per decision, until the strategy passes."""
    hand = st.hand
    if held_winds(hand, seat) != 0:
        _pirate_moves(st, seat)


@kernel
def _pirate_moves(st: State, seat: int) -> None:
    """``pirate_phase`` for a seat holding a Wind card (its own kernel: most turns skip these reads)."""
    cell = st.cell
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    features = st.features
    options = st.options
    n = st.meta[M.n_players]
    rank_options = scored(st, seat)
    rivals = _weighs_rivals(st, seat, D.pirate)
    threat = uses(st, seat, D.pirate, F.threat_gain)
    me = ship[seat]
    hn = hold_sum(hold, seat)
    exposed = hn > 0 and cell[me] != MARKET
    while held_winds(hand, seat) != 0:
        ensure_dist(st)
        k = pirate_options(st, seat, 0)
        if k == 0:
            return
        if not rank_options:
            ch = decide(st, seat, D.pirate, k + 1)
            if ch == k:
                return
            apply_pirate(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
            continue
        _set_targets(st, seat, rivals)
        lead = leader_gold(gold, n, seat)
        hand_n = hand_sum(hand, seat)
        _pirate_features(st, k, seat, lead, hn, exposed, threat)
        _obstacle_features(st, k, False, seat, lead, rivals, st.cell.shape[0] <= BIT_CELLS)
        for i in range(k):
            features[F.hand_size, i] = hand_n
            features[F.wind_card, i] = 1.0
            features[F.steps, i] = options[i, 3]
            features[F.pass_, i] = 0.0
        _pass_option(st, D.pirate, k)
        ch = decide(st, seat, D.pirate, k + 1)
        if ch == k:
            return
        apply_pirate(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])


@kernel
def storm_phase(st: State, seat: int) -> None:
    """ST-TURN-5: optionally play one Storm card onto an empty space (every empty space is an option)."""
    hand = st.hand
    if hand[seat, CARD_STORM] > 0:
        _storm_move(st, seat)


@kernel
def _storm_move(st: State, seat: int) -> None:
    """``storm_phase`` for a seat holding a Storm card (its own kernel: most turns skip these reads)."""
    rules = st.rules
    cell = st.cell
    pirate_a = st.pirate
    ship_a = st.ship
    hand_a = st.hand
    hold = st.hold
    gold = st.gold
    features = st.features
    options = st.options
    k = storm_options(st, 0)
    if k == 0:
        return
    if not scored(st, seat):
        ch = decide(st, seat, D.storm, k + 1)
        if ch < k:
            apply_storm(st, seat, options[ch, 0])
        return
    ensure_dist(st)
    n = st.meta[M.n_players]
    rivals = _weighs_rivals(st, seat, D.storm)
    _set_targets(st, seat, rivals)
    g = rules[R.grid_size]
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
    _obstacle_features(st, k, True, seat, lead, rivals, st.cell.shape[0] <= BIT_CELLS)
    for i in range(k):
        x = options[i, 0]
        features[F.guard, i] = hn if x == mid0 or x == mid1 else 0.0
        features[F.hand_size, i] = hand_n
        features[F.pass_, i] = 0.0
    _pass_option(st, D.storm, k)
    ch = decide(st, seat, D.storm, k + 1)
    if ch < k:
        apply_storm(st, seat, options[ch, 0])


# ----------------------------------------------------------------------------------------------- turns, games
@kernel
def play_turn(st: State, data, seat: int) -> int:
    """One turn (ST-TURN-1..6); END_WIN if the seat reached the winning gold during it (ST-END-1), else GOES_ON."""
    rules = st.rules
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    games = st.games
    players = st.players
    players[seat, PC.turns] += 1
    games[GC.turns] += 1
    for _ in range(rules[R.draw_count]):
        card = draw_card(st, seat)
        event(st, seat, EV.draw, card)
    h = hand_sum(hand, seat)
    if h > players[seat, PC.max_hand]:
        players[seat, PC.max_hand] = h
    # ST-TRADE-5: trade at every stop of the sail phase (start included), then sail on or stop.
    while True:
        if sell_and_buy(st, seat):
            return END_WIN
        offer_decision(st, seat)
        if not sail_decision(st, seat):
            break
    pirate_phase(st, seat)
    storm_phase(st, seat)
    event(st, seat, EV.end_turn, gold[seat], hand_sum(hand, seat), hold_sum(hold, seat), ship[seat])
    return GOES_ON


@kernel
def setup_game(st: State, data) -> None:
    """ST-SETUP-1..9 (hook: the core has seeded the generator, seated the strategies and cleared the records)."""
    rules = st.rules
    cell = st.cell
    market_cell = st.market_cell
    pirate = st.pirate
    hand = st.hand
    hold = st.hold
    gold = st.gold
    deck_a = st.deck
    piles = st.piles
    players = st.players
    rng = st.rng
    if generate_board(st) < 0:
        raise PlaytestError("sea_trade: no board with all markets joined by sea was found; "
                            "lower --set islands or --set market_spacing")
    n = cell.shape[0]
    for c in range(n):
        if cell[c] == LAND:
            event(st, -1, EV.land, c)
    for m in range(N_MARKETS):
        event(st, -1, EV.market, m, market_cell[m])
    for p in range(pirate.shape[0]):
        event(st, -1, EV.pirate_start, p, pirate[p])
    # ST-COMP-4 / ST-SETUP-6: build and shuffle the deck, deal the starting hands.
    k = 0
    for c in range(N_COMMODITIES):
        for _ in range(rules[R.commodity_copies]):
            deck_a[k] = c
            k += 1
    for _ in range(rules[R.row_cards]):
        deck_a[k] = CARD_ROW
        k += 1
    for d in range(8):
        for _ in range(rules[R.wind_copies]):
            deck_a[k] = CARD_WIND0 + d
            k += 1
    for _ in range(rules[R.storm_cards]):
        deck_a[k] = CARD_STORM
        k += 1
    piles[0] = k
    piles[1] = 0
    shuffle(rng, deck_a, k)
    hand[:, :] = 0
    hold[:, :] = 0
    for s in range(st.meta[M.n_players]):
        gold[s] = rules[R.start_gold] + seat_bonus(rules, R.seat2_gold, s)  # ST-SETUP-9, ST-SEAT-1 (0 by the rulebook)
        players[s, PC.gold_r10] = -1
        players[s, PC.gold_r20] = -1
        for _ in range(rules[R.hand_start]):
            card = draw_card(st, s)
            event(st, s, EV.deal, card)
    choose_start_markets(st)


@kernel
def round_end(st: State, data) -> int:
    """Record each seat's gold after rounds 10 and 20 (gold_r10, gold_r20); the game goes on."""
    rnd = st.meta[M.round]
    if rnd == 10 or rnd == 20:
        col = PC.gold_r10 if rnd == 10 else PC.gold_r20
        for q in range(st.meta[M.n_players]):
            st.players[q, col] = st.gold[q]
    return GOES_ON


@kernel
def finish(st: State, data, reason: int) -> None:
    """End of the game: ST-END-1 (the seat whose turn it was reached the winning gold) or ST-END-2 (the round cap,
    nobody wins). Ranked by (is the winner, gold); gold is the score."""
    gold = st.gold
    players = st.players
    n = st.meta[M.n_players]
    winner = turn_seat(st, data) if reason == END_WIN else -1
    if winner >= 0:
        event(st, winner, EV.win, gold[winner])
    else:
        event(st, -1, EV.timeout)
    if checking(st):
        for s in range(n):
            if (gold[s] >= st.rules[R.win_gold]) != (s == winner):
                raise AssertionError(INVARIANTS[9])
    for s in range(n):
        players[s, PC.score] = gold[s]
        if players[s, PC.gold_r10] < 0:
            players[s, PC.gold_r10] = gold[s]
        if players[s, PC.gold_r20] < 0:
            players[s, PC.gold_r20] = gold[s]
        st.keys[s, 0] = 1 if s == winner else 0
        st.keys[s, 1] = gold[s]


@kernel
def assert_invariants(st: State, data) -> None:
    """Checked mode, after every turn: raise AssertionError("ST-INV-n: ...") for the first broken invariant."""
    code = check_invariants(st, st.deck.shape[0])
    if code == 0:
        code = check_known_targets(st)
    if code != 0:
        raise AssertionError(INVARIANTS[code])


bind_turns(LAYOUT, play_turn, setup=setup_game, round_end=round_end, check=assert_invariants, finish=finish,
           cap=R.round_cap, timeout=END_TIMEOUT, rank_by_score=False)
