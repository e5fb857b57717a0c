"""Sea Trade kernels: decisions (options + features -> strategies.core.choose), turns, games and chunks.

Turn order is seat order (seat 0 plays first). ST-SETUP-7 (random turn order) is met by the runner, which
assigns strategies to seats at random or rotated per game; seat effects are what a study measures.

The kernels take the State through one structref handle (``state.kernel_state``, sim/core/structs.py): a
NamedTuple of ~40 arrays would cost a reference-count update per array on every helper call. Every kernel
reads the fields it uses into locals at entry, before any branch: a field read inside a branch or loop keeps
its reference-count pair (measured ~30 ns per read), one at entry is pruned (~1 ns).
"""

from __future__ import annotations

from numba import njit

from sim.core.graph import UNREACHED
from sim.core.ranking import rank_seats
from sim.core.rng import seed_game, shuffle
from sim.sea_trade.board import FAR, cheb, ensure_dist, generate_board, plan_steps, sea_steps
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
                                 F_STEPS, F_THREAT_GAIN, F_UNBLOCK, F_HAND_SIZE, F_WIN, F_WIND, LAND, M_ERROR_GAME,
                                 M_EVENTS, M_ROUND, M_WINNER, MARKET, RANDOM_KIND, SPAN_HI, SPAN_LO, N_COMMODITIES, N_MARKETS, SELLS, State)
from strategies.core import choose

GOLD_PER_STEP = 0.3
"""Value estimates discount a sale by this much gold per sea step to the market (about a turn's progress)."""
THREAT_RANGE = 2
"""A pirate within this many spaces (Chebyshev) can reach a ship with one Wind card: the danger radius."""
ERROR_BOARD = -1


# ----------------------------------------------------------------------------------------------- estimates
@njit(cache=True)
def _clear(st: State, i: int, decision: int) -> None:
    """Zero option i's feature columns of ``decision`` (its span: the only columns choose() reads for it)."""
    features = st.features
    for f in range(SPAN_LO[decision], SPAN_HI[decision]):
        features[i, f] = 0.0


@njit(cache=True)
def _decide(st: State, seat: int, decision: int, n_opt: int) -> int:
    """The seat's strategy picks one of n_opt >= 2 options (counted as a decision).

    Only the decision's feature span is scored: every other feature is 0 for it, so the score is the same.
    """
    features = st.features
    games = st.games
    rng = st.rng
    kind = st.kind
    params = st.params
    weights = st.weights
    seat_strat = st.seat_strat
    games[G_DECISIONS] += 1
    lo = SPAN_LO[decision]
    hi = SPAN_HI[decision]
    return choose(kind, params, weights[:, :, lo:hi], seat_strat[seat], decision, features[:, lo:hi],
                  n_opt, rng)


@njit(cache=True)
def _scored(st: State, seat: int) -> bool:
    """False when the seat's policy ignores features (random): the kernel then skips computing them."""
    kind = st.kind
    seat_strat = st.seat_strat
    return kind[seat_strat[seat]] != RANDOM_KIND


@njit(cache=True)
def leader_gold(st: State, viewer: int) -> int:
    """Most gold held by any player other than ``viewer``."""
    n_players = st.n_players
    gold = st.gold
    best = -1
    for q in range(n_players[0]):
        if q != viewer and gold[q] > best:
            best = gold[q]
    return best


@njit(cache=True)
def sale_target(st: State, q: int) -> int:
    """The market where q's hold fetches the most gold after the distance discount, or -1."""
    adj = st.adj
    degree = st.degree
    dist = st.dist
    land_dist = st.land_dist
    ship = st.ship
    hold = st.hold
    best = -1
    best_v = -1e18
    for m in range(N_MARKETS):
        v = 0.0
        for c in range(N_COMMODITIES):
            v += hold[q, c] * price(st, m, c)
        if v <= 0.0:
            continue
        d = plan_steps(dist, land_dist, adj, degree, m, ship[q])
        if d >= FAR:
            continue
        v -= GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@njit(cache=True)
def buy_target(st: State, q: int) -> int:
    """The market where q can buy the most of its hand cards (distance-discounted), or -1."""
    rules = st.rules
    adj = st.adj
    degree = st.degree
    dist = st.dist
    land_dist = st.land_dist
    ship = st.ship
    hand = st.hand
    gold = st.gold
    room = rules[R_HOLD] - hold_count(st, q)
    afford = gold[q] // rules[R_BUY] if rules[R_BUY] > 0 else room
    if room <= 0 or afford <= 0:
        return -1
    best = -1
    best_v = -1e18
    for m in range(N_MARKETS):
        k = min(hand[q, SELLS[m]], room, afford)
        if k <= 0:
            continue
        d = plan_steps(dist, land_dist, adj, degree, m, ship[q])
        if d >= FAR:
            continue
        v = k * (rules[R_DESIRED] - rules[R_BUY]) - GOLD_PER_STEP * d
        if v > best_v:
            best_v = v
            best = m
    return best


@njit(cache=True)
def route_target(st: State, q: int) -> int:
    """Where q is heading: its sale market when carrying cargo, else its buy market (-1 if neither)."""
    t = sale_target(st, q)
    return t if t >= 0 else buy_target(st, q)


@njit(cache=True)
def best_value(st: State, q: int, c: int, exclude: int) -> float:
    """Best distance-discounted price q could get for one card of c at a market other than ``exclude``."""
    adj = st.adj
    degree = st.degree
    dist = st.dist
    land_dist = st.land_dist
    ship = st.ship
    best = 0.0
    for m in range(N_MARKETS):
        if m == exclude:
            continue
        p = price(st, m, c)
        if p == 0:
            continue
        d = plan_steps(dist, land_dist, adj, degree, m, ship[q])
        if d >= FAR:
            continue
        v = p - GOLD_PER_STEP * d
        if v > best:
            best = v
    return best


@njit(cache=True)
def danger(st: State, c: int) -> int:
    """1 if a ship on c could be plundered by a pirate's next Wind card (within THREAT_RANGE, not a market)."""
    cell = st.cell
    pirate = st.pirate
    if cell[c] == MARKET:
        return 0
    for p in range(pirate.shape[0]):
        if cheb(st, c, pirate[p]) <= THREAT_RANGE:
            return 1
    return 0


@njit(cache=True)
def _set_targets(st: State) -> None:
    """Refresh every player's route target and its current sea distance (for the blocking features)."""
    n_players = st.n_players
    adj = st.adj
    degree = st.degree
    dist = st.dist
    ship = st.ship
    target = st.target
    target_dist = st.target_dist
    for q in range(n_players[0]):
        t = route_target(st, q)
        target[q] = t
        target_dist[q] = sea_steps(dist, adj, degree, t, ship[q]) if t >= 0 else FAR


@njit(cache=True)
def on_route(st: State, q: int, x: int) -> bool:
    """True if space x lies on a shortest sea route of q's ship to its target (blocking x delays q).

    Needs ``_set_targets`` first.
    """
    ship = st.ship
    dist = st.dist
    target = st.target
    target_dist = st.target_dist
    t = target[q]
    s = ship[q]
    if t < 0 or x == s or target_dist[q] >= FAR or dist[t, x] >= UNREACHED:
        return False
    return dist[t, x] + cheb(st, s, x) == target_dist[q]


@njit(cache=True)
def _unblock(st: State, seat: int, frm: int, to: int) -> float:
    """1.0 if moving an obstacle from ``frm`` to ``to`` clears the seat's cut or detoured route."""
    ship = st.ship
    land_dist = st.land_dist
    target = st.target
    target_dist = st.target_dist
    t = target[seat]
    if t < 0:
        return 0.0
    s = ship[seat]
    base = land_dist[t, s]
    if base >= UNREACHED or target_dist[seat] <= base:
        return 0.0
    if frm != s and land_dist[t, frm] + cheb(st, s, frm) == base:
        if to == s or land_dist[t, to] + cheb(st, s, to) != base:
            return 1.0
    return 0.0


@njit(cache=True)
def _block_features(st: State, seat: int, i: int, x: int, lead: int) -> None:
    """Fill blocks / blocks_leader / self_block of option i for an obstacle placed on x (never a market)."""
    n_players = st.n_players
    gold = st.gold
    features = st.features
    for q in range(n_players[0]):
        if on_route(st, q, x):
            if q == seat:
                features[i, F_SELF_BLOCK] = 1.0
            else:
                features[i, F_BLOCKS] += 1.0
                if gold[q] == lead:
                    features[i, F_BLOCKS_LEADER] = 1.0


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
            _clear(st, k, D_START)
            options[k, 0] = m
            features[k, F_CARDS] = min(hand[s, SELLS[m]], rules[R_HOLD])
            features[k, F_SALE_DIST] = min(start_dist[m], FAR)
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
    market_at = st.market_at
    adj = st.adj
    degree = st.degree
    dist = st.dist
    land_dist = st.land_dist
    ship_a = st.ship
    hold = st.hold
    features = st.features
    options = st.options
    ensure_dist(st)
    k = sail_options(st, seat, 0)
    if k == 0:
        return False
    if not _scored(st, seat):
        ch = _decide(st, seat, D_SAIL, k + 1)
        if ch == k:
            return False
        apply_sail(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
        return True
    frm = ship_a[seat]
    ts = sale_target(st, seat)
    tb = buy_target(st, seat)
    ds0 = plan_steps(dist, land_dist, adj, degree, ts, frm) if ts >= 0 else 0
    db0 = plan_steps(dist, land_dist, adj, degree, tb, frm) if tb >= 0 else 0
    hn = hold_count(st, seat)
    hand = hand_count(st, seat)
    for i in range(k):
        _clear(st, i, D_SAIL)
        card = options[i, 0]
        to = options[i, 1]
        if ts >= 0:
            features[i, F_SALE_GAIN] = ds0 - plan_steps(dist, land_dist, adj, degree, ts, to)
        if tb >= 0:
            features[i, F_BUY_GAIN] = db0 - plan_steps(dist, land_dist, adj, degree, tb, to)
        m = market_at[to]
        if m >= 0:
            v = 0
            for c in range(N_COMMODITIES):
                v += hold[seat, c] * price(st, m, c)
            features[i, F_ARRIVE_SELL] = v
            ship = ship_a[seat]
            ship_a[seat] = to
            features[i, F_ARRIVE_BUY] = max_buy(st, seat)
            ship_a[seat] = ship
        if card == CARD_ROW:
            features[i, F_ROW] = 1.0
        else:
            features[i, F_WIND] = 1.0
        features[i, F_STEPS] = options[i, 2]
        features[i, F_DANGER] = hn * danger(st, to)
        features[i, F_HAND_SIZE] = hand
    _clear(st, k, D_SAIL)
    features[k, F_PASS] = 1.0
    features[k, F_DANGER] = hn * danger(st, frm)
    ch = _decide(st, seat, D_SAIL, k + 1)
    if ch == k:
        return False
    apply_sail(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
    return True


@njit(cache=True)
def sell_and_buy(st: State, seat: int) -> bool:
    """ST-TRADE-4 then ST-TRADE-2 in a market: sell cards one by one, then buy; True on an instant win."""
    rules = st.rules
    market_at = st.market_at
    ship = st.ship
    hold_a = st.hold
    gold = st.gold
    features = st.features
    options = st.options
    m = market_at[ship[seat]]
    if m < 0:
        return False
    ensure_dist(st)
    while True:
        k = 0
        for c in range(N_COMMODITIES):
            p = price(st, m, c)
            if hold_a[seat, c] == 0 or p == 0:
                continue  # ST-TRADE-4: a market never buys its own commodity
            _clear(st, k, D_SELL)
            options[k, 0] = c
            features[k, F_CARDS] = 1.0
            features[k, F_GOLD] = p
            features[k, F_REGRET] = max(0.0, best_value(st, seat, c, m) - p)
            features[k, F_WIN] = 1.0 if gold[seat] + p >= rules[R_WIN_GOLD] else 0.0
            k += 1
        if k == 0:
            break
        _clear(st, k, D_SELL)
        features[k, F_PASS] = 1.0
        ch = _decide(st, seat, D_SELL, k + 1)
        if ch == k:
            break
        if apply_sell(st, seat, options[ch, 0]):
            return True  # ST-END-1: checked after every sale
    kmax = max_buy(st, seat)
    if kmax > 0:
        # Bought cards are worth their best price anywhere (the hold has no other use); routes decide where.
        value = rules[R_DESIRED] - rules[R_BUY]
        for j in range(kmax + 1):
            _clear(st, j, D_BUY)
            features[j, F_PASS] = 1.0 if j == 0 else 0.0
            features[j, F_CARDS] = j
            features[j, F_GOLD] = -j * rules[R_BUY]
            features[j, F_MY_GAIN] = j * value
        ch = _decide(st, seat, D_BUY, kmax + 1)
        if ch > 0:
            apply_buy(st, seat, ch)
    return False


@njit(cache=True)
def _hold_gain(st: State, t: int, give: int, get: int) -> float:
    """Gain for a player heading to market t of swapping hold card ``give`` for ``get``."""
    if t < 0:
        return 0.0
    return float(price(st, t, get) - price(st, t, give))


@njit(cache=True)
def offer_decision(st: State, seat: int) -> None:
    """ST-TRADE-1: offer one 1-for-1 swap (hold-hold or hand-hand) to an adjacent ship; the partner accepts or not.

    Protocol (simulator decision): at each stop of its sail phase the active player may make one offer,
    chosen by its strategy among all 1-for-1 swaps of different commodities with every ship in its
    8-neighbourhood or space; the partner's strategy then accepts or declines it.
    """
    n_players = st.n_players
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    features = st.features
    options = st.options
    games = st.games
    players = st.players
    me = ship[seat]
    ensure_dist(st)
    tm = sale_target(st, seat)
    k = 0
    for q in range(n_players[0]):
        if q == seat or cheb(st, me, ship[q]) > 1:
            continue
        tq = sale_target(st, q)
        lead = 1.0 if gold[q] == leader_gold(st, seat) else 0.0
        for a in range(N_COMMODITIES):
            for b in range(N_COMMODITIES):
                if a == b:
                    continue
                for where in range(2):
                    if where == 0:
                        if hold[seat, a] == 0 or hold[q, b] == 0:
                            continue
                        mine = _hold_gain(st, tm, a, b)
                        theirs = _hold_gain(st, tq, b, a)
                    else:
                        if hand[seat, a] == 0 or hand[q, b] == 0:
                            continue
                        # Hand cards are worth more in sets: one market visit buys them all.
                        mine = 0.5 * (hand[seat, b] - hand[seat, a] + 1)
                        theirs = 0.5 * (hand[q, a] - hand[q, b] + 1)
                    _clear(st, k, D_OFFER)
                    options[k, 0] = q
                    options[k, 1] = a
                    options[k, 2] = b
                    options[k, 3] = where
                    features[k, F_MY_GAIN] = mine
                    features[k, F_PARTNER_GAIN] = theirs
                    features[k, F_PARTNER_LEADER] = lead
                    k += 1
    if k == 0:
        return
    _clear(st, k, D_OFFER)
    features[k, F_PASS] = 1.0
    ch = _decide(st, seat, D_OFFER, k + 1)
    if ch == k:
        return
    q = options[ch, 0]
    a = options[ch, 1]
    b = options[ch, 2]
    where = options[ch, 3]
    mine = features[ch, F_MY_GAIN]
    theirs = features[ch, F_PARTNER_GAIN]
    players[seat, P_OFFERS] += 1
    _clear(st, 0, D_ACCEPT)
    _clear(st, 1, D_ACCEPT)
    features[0, F_PASS] = 1.0
    features[1, F_MY_GAIN] = theirs
    features[1, F_PARTNER_GAIN] = mine
    features[1, F_PARTNER_LEADER] = 1.0 if gold[seat] == leader_gold(st, q) else 0.0
    accepted = _decide(st, q, D_ACCEPT, 2) == 1
    ev(st, seat, EV_OFFER, q, a, b, where, 1 if accepted else 0)
    if not accepted:
        return
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
def _has_wind(st: State, seat: int) -> bool:
    hand = st.hand
    for d in range(8):
        if hand[seat, CARD_WIND0 + d] > 0:
            return True
    return False


@njit(cache=True)
def _cargo_threat(st: State, seat: int, x: int, skip: int) -> float:
    """Opponents' hold cards (ships outside markets, not on ``skip``) within THREAT_RANGE of space x."""
    n_players = st.n_players
    cell = st.cell
    ship = st.ship
    s = 0.0
    for q in range(n_players[0]):
        c = ship[q]
        if q == seat or c == skip or cell[c] == MARKET:
            continue
        if cheb(st, x, c) <= THREAT_RANGE:
            s += hold_count(st, q)
    return s


@njit(cache=True)
def pirate_phase(st: State, seat: int) -> None:
    """ST-TURN-4: move pirates with Wind cards, one card per decision, until the strategy passes."""
    n_players = st.n_players
    cell = st.cell
    pirate = st.pirate
    ship = st.ship
    gold = st.gold
    features = st.features
    options = st.options
    me = ship[seat]
    hn = hold_count(st, seat)
    exposed = hn > 0 and cell[me] != MARKET
    while _has_wind(st, seat):
        ensure_dist(st)
        k = pirate_options(st, seat, 0)
        if k == 0:
            return
        if not _scored(st, seat):
            ch = _decide(st, seat, D_PIRATE, k + 1)
            if ch == k:
                return
            apply_pirate(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])
            continue
        _set_targets(st)
        lead = leader_gold(st, seat)
        hand = hand_count(st, seat)
        for i in range(k):
            _clear(st, i, D_PIRATE)
            frm = pirate[options[i, 0]]
            to = options[i, 2]
            for q in range(n_players[0]):
                if q != seat and ship[q] == to:
                    features[i, F_PLUNDER_CARDS] += hold_count(st, q)
                    if gold[q] == lead:
                        features[i, F_PLUNDER_LEADER] = 1.0
            features[i, F_THREAT_GAIN] = _cargo_threat(st, seat, to, to) - _cargo_threat(st, seat, frm, -1)
            if exposed:
                before = 1 if cheb(st, frm, me) <= THREAT_RANGE else 0
                after = 1 if cheb(st, to, me) <= THREAT_RANGE else 0
                features[i, F_GUARD] = hn * (before - after)
            _block_features(st, seat, i, to, lead)
            features[i, F_UNBLOCK] = _unblock(st, seat, frm, to)
            features[i, F_HAND_SIZE] = hand
            features[i, F_WIND] = 1.0
            features[i, F_STEPS] = options[i, 3]
        _clear(st, k, D_PIRATE)
        features[k, F_PASS] = 1.0
        ch = _decide(st, seat, D_PIRATE, k + 1)
        if ch == k:
            return
        apply_pirate(st, seat, options[ch, 0], options[ch, 1], options[ch, 2])


@njit(cache=True)
def storm_phase(st: State, seat: int) -> None:
    """ST-TURN-5: optionally play one Storm card onto an empty space (every empty space is an option)."""
    rules = st.rules
    cell = st.cell
    pirate_a = st.pirate
    storm_a = st.storm
    ship_a = st.ship
    hand_a = st.hand
    features = st.features
    options = st.options
    if hand_a[seat, CARD_STORM] == 0:
        return
    k = storm_options(st, 0)
    if k == 0:
        return
    if not _scored(st, seat):
        ch = _decide(st, seat, D_STORM, k + 1)
        if ch < k:
            apply_storm(st, seat, options[ch, 0])
        return
    ensure_dist(st)
    _set_targets(st)
    g = rules[R_GRID]
    me = ship_a[seat]
    hn = hold_count(st, seat)
    lead = leader_gold(st, seat)
    hand = hand_count(st, seat)
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
    storm = storm_a[0]
    feats = features
    opts = options
    lo = SPAN_LO[D_STORM]
    hi = SPAN_HI[D_STORM]
    for i in range(k):
        for f in range(lo, hi):
            feats[i, f] = 0.0
        x = opts[i, 0]
        _block_features(st, seat, i, x, lead)
        if storm >= 0:
            feats[i, F_UNBLOCK] = _unblock(st, seat, storm, x)
        if x == mid0 or x == mid1:
            feats[i, F_GUARD] = hn
        feats[i, F_HAND_SIZE] = hand
    _clear(st, k, D_STORM)
    feats[k, F_PASS] = 1.0
    ch = _decide(st, seat, D_STORM, k + 1)
    if ch < k:
        apply_storm(st, seat, opts[ch, 0])


# ----------------------------------------------------------------------------------------------- turns, games
@njit(cache=True)
def play_turn(st: State, seat: int) -> bool:
    """One turn (ST-TURN-1..6); True if the seat won during it."""
    rules = st.rules
    ship = st.ship
    gold = st.gold
    games = st.games
    players = st.players
    players[seat, P_TURNS] += 1
    games[G_TURNS] += 1
    for _ in range(rules[R_DRAW]):
        card = draw_card(st, seat)
        ev(st, seat, EV_DRAW, card)
    h = hand_count(st, seat)
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
    ev(st, seat, EV_END_TURN, gold[seat], hand_count(st, seat), hold_count(st, seat), ship[seat])
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
