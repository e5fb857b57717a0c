"""Sea Trade rule actions and checks on the state arrays: callable on hand-built positions by the tests.

Each ``*_options`` generator enumerates legal moves into ``st.options``; each ``*_legal`` predicate re-derives
legality independently from coordinates, so the tests can check that both agree on random positions.
"""

from __future__ import annotations

import numpy as np

from sim.core.bits import lowest_bit
from sim.core.deck import discard_card, draw
from sim.core.jit import kernel
from sim.core.play import event
from sim.core.state import M
from sim.sea_trade.board import king_distance, without_obstacles
from sim.sea_trade.state import (BIT_CELLS, CARD_ROW, CARD_STORM, CARD_WIND0, DESIRES, DIR_COL, DIR_ROW, LAND, MARKET,
                                 N_COMMODITIES, SEA, SELLS, STALE, State)
from sim.sea_trade.records import GC, PC
from sim.sea_trade.rules import R
from sim.sea_trade.state import EV, MISC, MK


@kernel(inline="always")
def hold_sum(hold, seat: int) -> int:
    """Commodity cards in the seat's hold."""
    s = 0
    for c in range(N_COMMODITIES):
        s += hold[seat, c]
    return s


@kernel(inline="always")
def hand_sum(hand, seat: int) -> int:
    """Cards in the seat's hand."""
    s = 0
    for c in range(hand.shape[1]):
        s += hand[seat, c]
    return s


@kernel
def ship_at(st: State, c: int, exclude: int) -> int:
    """Number of player ships on cell c, not counting seat ``exclude`` (-1: count all)."""
    ship = st.ship
    k = 0
    for q in range(st.meta[M.n_players]):
        if q != exclude and ship[q] == c:
            k += 1
    return k


@kernel
def ship_can_enter(st: State, c: int) -> bool:
    """ST-SAIL-3: a ship may not enter land, the storm or a pirate ship's space."""
    cell = st.cell
    pirate_at = st.pirate_at
    storm = st.storm
    return cell[c] != LAND and c != storm[0] and pirate_at[c] < 0


@kernel(inline="always")
def held_bits(counts, q: int, first: int, n: int) -> int:
    """Which of the n card types first..first+n-1 q has at least one of in ``counts`` (a hand or a hold), as bits
    (bit i: type first + i), for loops over held types only: iterated with lowest_bit in ascending order, like
    a loop over all n that skips the others."""
    held = 0
    for i in range(n):
        held |= (counts[q, first + i] > 0) << i
    return held


@kernel(inline="always")
def held_winds(hand, seat: int) -> int:
    """The Wind directions in the seat's hand as bits (bit d: a Wind d card)."""
    return held_bits(hand, seat, CARD_WIND0, 8)


@kernel(inline="always")
def forget_targets(known_targets, q: int) -> None:
    """Player q's ship, hand, hold or gold changed: its cached sale and buy markets must be recomputed."""
    known_targets[q, 0] = STALE
    known_targets[q, 1] = STALE


@kernel
def sail_options(st: State, seat: int, k: int) -> int:
    """Append the seat's legal sail moves as (card, to, steps, direction) from option row k; return the end row.

    ST-SAIL-1 Row: one step in any of 8 directions. ST-SAIL-2 Wind X: 1..wind_max_steps steps in X only.
    ST-SAIL-3 no entering or passing blocked spaces; ST-SAIL-4 a move ends on entering a market;
    ST-SAIL-5 ``nbr`` is -1 off the board, so leaving it is impossible.
    """
    rules = st.rules
    cell = st.cell
    ship = st.ship
    hand = st.hand
    nbr = st.nbr
    options = st.options
    pirate_at = st.pirate_at
    storm_c = st.storm[0]
    frm = ship[seat]
    if hand[seat, CARD_ROW] > 0:
        for d in range(8):
            to = nbr[frm, d]
            legal = (to >= 0) & (cell[to] != LAND) & (to != storm_c) & (pirate_at[to] < 0)  # ST-SAIL-3
            k = _put_option(options, k, legal, CARD_ROW, to, 1, d)
    wmax = rules[R.wind_max_steps]
    dirs = held_winds(hand, seat)
    while dirs != 0:
        d = lowest_bit(dirs)
        dirs &= dirs - 1
        c = frm
        on = True  # the ship can still move on along d
        for steps in range(1, wmax + 1):
            c = nbr[c, d]
            on = on & (c >= 0) & (cell[c] != LAND) & (c != storm_c) & (pirate_at[c] < 0)  # ST-SAIL-3
            k = _put_option(options, k, on, CARD_WIND0 + d, c, steps, d)
            on = on & (cell[c] != MARKET)  # ST-SAIL-4: a move ends on entering a market
    return k


@kernel(inline="always")
def _put_option(options, k: int, legal: bool, a: int, b: int, c: int, d: int) -> int:
    """Write option row k = (a, b, c, d) and return the next free row: k + 1 if ``legal``, else k (the row is
    scratch for the next candidate). Enumerating without a branch per candidate spares the mispredictions of
    branches whose outcomes follow the board; ``max_options`` counts every candidate, so the rows exist.

    A candidate past the board edge has cell -1: its table reads wrap to the last cell, harmlessly, since it is
    never legal.
    """
    options[k, 0] = a
    options[k, 1] = b
    options[k, 2] = c
    options[k, 3] = d
    return k + legal


@kernel
def _line_steps(g: int, frm: int, to: int, d: int) -> int:
    """k if ``to`` is exactly k >= 1 steps from ``frm`` in direction d, else 0."""
    dr = to // g - frm // g
    dc = to % g - frm % g
    k = abs(dr) if abs(dr) > abs(dc) else abs(dc)
    if k == 0 or dr != k * DIR_ROW[d] or dc != k * DIR_COL[d]:
        return 0
    return k


@kernel
def sail_legal(st: State, frm: int, card: int, to: int) -> bool:
    """Rule check, independent of ``sail_options``: may a ship on ``frm`` play ``card`` to end on ``to``?"""
    rules = st.rules
    cell = st.cell
    g = rules[R.grid_size]
    if to < 0 or to >= g * g:
        return False  # ST-SAIL-5
    if card == CARD_ROW:
        return king_distance(g, frm, to) == 1 and ship_can_enter(st, to)  # ST-SAIL-1, ST-SAIL-3
    if card < CARD_WIND0 or card >= CARD_WIND0 + 8:
        return False
    d = card - CARD_WIND0
    k = _line_steps(g, frm, to, d)
    if k == 0 or k > rules[R.wind_max_steps]:
        return False  # ST-SAIL-2
    for i in range(1, k + 1):
        c = (frm // g + i * DIR_ROW[d]) * g + frm % g + i * DIR_COL[d]
        if not ship_can_enter(st, c):
            return False  # ST-SAIL-3: entering or passing through
        if i < k and cell[c] == MARKET:
            return False  # ST-SAIL-4: the move must have stopped here
    return True


@kernel
def apply_sail(st: State, seat: int, card: int, to: int, steps: int) -> None:
    """Play a Row or Wind card to move the seat's ship (ST-TURN-2); the card goes to the discard (ST-TURN-6)."""
    ship = st.ship
    hand = st.hand
    discard = st.discard
    piles = st.piles
    players = st.players
    event(st, seat, EV.sail, card, ship[seat], to, steps)
    forget_targets(st.known_targets, seat)
    hand[seat, card] -= 1
    discard_card(discard, piles, card)
    ship[seat] = to
    if card == CARD_ROW:
        players[seat, PC.row_played] += 1
    else:
        players[seat, PC.wind_played] += 1


@kernel
def pirate_options(st: State, seat: int, k: int) -> int:
    """Append legal pirate moves as (pirate, card, to, steps) from row k; return the end row (ST-TURN-4).

    ST-PIRACY-1 blocked spaces end the line; ST-PIRACY-2 entering another player's ship ends the move there.
    """
    rules = st.rules
    pirate = st.pirate
    hand = st.hand
    nbr = st.nbr
    options = st.options
    cell = st.cell
    pirate_at = st.pirate_at
    storm_c = st.storm[0]
    ship = st.ship
    n = st.meta[M.n_players]
    wmax = rules[R.wind_max_steps]
    held = held_winds(hand, seat)
    for p in range(pirate.shape[0]):
        dirs = held
        while dirs != 0:
            d = lowest_bit(dirs)
            dirs &= dirs - 1
            c = pirate[p]
            on = True  # the pirate can still move on along d
            for steps in range(1, wmax + 1):
                c = nbr[c, d]
                on = on & (c >= 0) & (cell[c] == SEA) & (c != storm_c) & (pirate_at[c] < 0)  # ST-PIRACY-1
                k = _put_option(options, k, on, p, CARD_WIND0 + d, c, steps)
                for q in range(n):
                    on = on & ((q == seat) | (ship[q] != c))  # ST-PIRACY-2: it stops on another player's ship
    return k


@kernel
def pirate_legal(st: State, seat: int, p: int, card: int, to: int) -> bool:
    """Rule check, independent of ``pirate_options``: may ``seat`` play ``card`` to move pirate p onto ``to``?"""
    rules = st.rules
    cell = st.cell
    pirate = st.pirate
    pirate_at = st.pirate_at
    storm = st.storm
    g = rules[R.grid_size]
    if card < CARD_WIND0 or card >= CARD_WIND0 + 8 or to < 0 or to >= g * g:
        return False
    frm = pirate[p]
    d = card - CARD_WIND0
    k = _line_steps(g, frm, to, d)
    if k == 0 or k > rules[R.wind_max_steps]:
        return False
    for i in range(1, k + 1):
        c = (frm // g + i * DIR_ROW[d]) * g + frm % g + i * DIR_COL[d]
        if cell[c] != SEA or c == storm[0] or pirate_at[c] >= 0:
            return False  # ST-PIRACY-1
        if i < k and ship_at(st, c, seat) > 0:
            return False  # ST-PIRACY-2: it would have stopped on that ship
    return True


@kernel
def apply_pirate(st: State, seat: int, p: int, card: int, to: int) -> int:
    """Move pirate p with a Wind card; plunder every other player's ship on ``to``; return ships plundered.

    ST-PIRACY-2: a plundered ship's whole hold goes to the discard pile and the pirate stops there. Following
    the rulebook ("la Nave di un altro giocatore"), the active player's own ship is never plundered.
    """
    pirate = st.pirate
    pirate_at = st.pirate_at
    ship = st.ship
    hand = st.hand
    hold = st.hold
    discard = st.discard
    piles = st.piles
    games = st.games
    players = st.players
    misc = st.misc
    frm = pirate[p]
    event(st, seat, EV.pirate, p, card, frm, to)
    hand[seat, card] -= 1
    discard_card(discard, piles, card)
    pirate_at[frm] = -1
    pirate_at[to] = p
    pirate[p] = to
    players[seat, PC.pirate_moves] += 1
    misc[MISC.dist_dirty] = 1
    victims = 0
    for q in range(st.meta[M.n_players]):
        if q == seat or ship[q] != to:
            continue
        lost = 0
        for c in range(N_COMMODITIES):
            for _ in range(hold[q, c]):
                discard_card(discard, piles, c)
            lost += hold[q, c]
            hold[q, c] = 0
        event(st, seat, EV.plunder, q, lost, to)
        forget_targets(st.known_targets, q)
        players[q, PC.times_plundered] += 1
        players[q, PC.cargo_lost] += lost
        players[seat, PC.plunders_made] += 1
        games[GC.plunders] += 1
        victims += 1
    return victims


@kernel
def storm_options(st: State, k: int) -> int:
    """Append every space the storm may be placed on (ST-TURN-5) as (cell, 0, 0, 0); return the end row.

    In ascending cell order; on grids up to 8x8 from the open-sea bitboard less pirates, ships and the storm.
    """
    cell = st.cell
    pirate = st.pirate
    pirate_at = st.pirate_at
    storm = st.storm
    ship = st.ship
    blocked = st.blocked
    options = st.options
    n = cell.shape[0]
    if n <= BIT_CELLS:
        one = np.uint64(1)
        free = without_obstacles(st.masks[MK.sea], pirate, storm[0])
        for q in range(st.meta[M.n_players]):
            free &= ~(one << np.uint64(ship[q]))
        while free != 0:
            options[k, 0] = lowest_bit(free)
            options[k, 1] = 0
            options[k, 2] = 0
            options[k, 3] = 0
            k += 1
            free &= free - one
        return k
    for c in range(n):
        blocked[c] = cell[c] != SEA or pirate_at[c] >= 0
    for q in range(st.meta[M.n_players]):
        blocked[ship[q]] = True
    if storm[0] >= 0:
        blocked[storm[0]] = True
    for c in range(n):
        if not blocked[c]:
            options[k, 0] = c
            options[k, 1] = 0
            options[k, 2] = 0
            options[k, 3] = 0
            k += 1
    return k


@kernel
def storm_legal(st: State, c: int) -> bool:
    """Rule check: an empty space (no land, market, ship, pirate; not the current storm) can take the storm."""
    cell = st.cell
    pirate_at = st.pirate_at
    storm = st.storm
    if c < 0 or c >= cell.shape[0] or c == storm[0]:
        return False
    return cell[c] == SEA and pirate_at[c] < 0 and ship_at(st, c, -1) == 0


@kernel
def apply_storm(st: State, seat: int, c: int) -> None:
    """Play a Storm card: the storm moves to c, the previous one is removed (ST-TURN-5, ST-TURN-6)."""
    storm = st.storm
    hand = st.hand
    discard = st.discard
    piles = st.piles
    games = st.games
    players = st.players
    misc = st.misc
    event(st, seat, EV.storm, c, storm[0])
    hand[seat, CARD_STORM] -= 1
    discard_card(discard, piles, CARD_STORM)
    storm[0] = c
    players[seat, PC.storms_played] += 1
    games[GC.storms_played] += 1
    misc[MISC.dist_dirty] = 1


@kernel
def price(st: State, m: int, c: int) -> int:
    """ST-TRADE-4: what market m pays for commodity c: 0 (refused) for its own, desired or normal price."""
    rules = st.rules
    return market_price(rules[R.desired_price], rules[R.sell_price], m, c)


@kernel(inline="always")
def market_price(desired: int, normal: int, m: int, c: int) -> int:
    """``price`` from the two price rules as numbers (no array argument: free to call in loops; ST-TRADE-4)."""
    if SELLS[m] == c:
        return 0
    if DESIRES[m] == c:
        return desired
    return normal


@kernel(inline="always")
def hold_value(desired: int, normal: int, hold, q: int, m: int, total: int) -> int:
    """Gold q's whole hold (``total`` cards) fetches at market m: ``market_price`` summed per card, in O(1)
    (the market pays nothing for its own commodity, ``desired`` for the one it desires, ``normal`` otherwise)."""
    own = hold[q, SELLS[m]]
    wanted = hold[q, DESIRES[m]]
    return normal * (total - own - wanted) + desired * wanted


@kernel
def market_here(st: State, seat: int) -> int:
    """The market the seat's ship is in, or -1."""
    market_at = st.market_at
    ship = st.ship
    return market_at[ship[seat]]


@kernel
def max_buy(st: State, seat: int) -> int:
    """ST-TRADE-2/3: cards of the market's own commodity the seat can buy now (hand, hold room, gold)."""
    rules = st.rules
    hand = st.hand
    hold = st.hold
    gold = st.gold
    market_at = st.market_at
    ship = st.ship
    return buy_limit(rules, hand, hold, gold, market_at[ship[seat]], seat)


@kernel(inline="always")
def buy_limit(rules, hand, hold, gold, m: int, seat: int) -> int:
    """``max_buy`` on the arrays, for the seat's ship in market m (-1: none): ST-TRADE-2/3."""
    if m < 0:
        return 0
    k = hand[seat, SELLS[m]]
    room = rules[R.hold_size] - hold_sum(hold, seat)
    if room < k:
        k = room
    if rules[R.buy_price] > 0:
        afford = gold[seat] // rules[R.buy_price]
        if afford < k:
            k = afford
    return k if k > 0 else 0


@kernel
def apply_buy(st: State, seat: int, k: int) -> None:
    """Pay buy_price per card to move k cards of the market's commodity from hand to hold (ST-TRADE-2)."""
    rules = st.rules
    hand = st.hand
    hold = st.hold
    gold = st.gold
    players = st.players
    c = SELLS[market_here(st, seat)]
    cost = k * rules[R.buy_price]
    hand[seat, c] -= k
    hold[seat, c] += k
    gold[seat] -= cost
    forget_targets(st.known_targets, seat)
    players[seat, PC.cards_bought] += k
    event(st, seat, EV.buy, c, k, cost, gold[seat])


@kernel
def apply_sell(st: State, seat: int, c: int) -> bool:
    """Sell one hold card of commodity c here (ST-TRADE-4, card to discard); True if it wins (ST-END-1)."""
    rules = st.rules
    hold = st.hold
    gold = st.gold
    discard = st.discard
    piles = st.piles
    players = st.players
    m = market_here(st, seat)
    gain = market_price(rules[R.desired_price], rules[R.sell_price], m, c)
    hold[seat, c] -= 1
    discard_card(discard, piles, c)
    gold[seat] += gain
    forget_targets(st.known_targets, seat)
    players[seat, PC.cards_sold] += 1
    players[seat, PC.sales_gold] += gain
    event(st, seat, EV.sell, c, gain, gold[seat], m)
    return gold[seat] >= rules[R.win_gold]


@kernel
def draw_card(st: State, seat: int) -> int:
    """ST-TURN-1: draw one card into the seat's hand, reshuffling the discard pile when the deck is empty."""
    hand = st.hand
    deck = st.deck
    discard = st.discard
    piles = st.piles
    games = st.games
    rng = st.rng
    if piles[0] == 0 and piles[1] > 0:
        games[GC.reshuffles] += 1
        event(st, seat, EV.reshuffle, piles[1])
    card = draw(deck, piles, discard, rng)
    if card >= 0:
        hand[seat, card] += 1
        forget_targets(st.known_targets, seat)
    return card


@kernel
def card_total(st: State) -> int:
    """Cards in deck, discard pile, hands and holds (58 by default: conservation invariant)."""
    piles = st.piles
    s = piles[0] + piles[1]
    for q in range(st.meta[M.n_players]):
        s += hand_sum(st.hand, q) + hold_sum(st.hold, q)
    return s


@kernel
def check_invariants(st: State, deck_size: int) -> int:
    """0 if the position is consistent, else a code naming the first broken invariant (see INVARIANTS)."""
    rules = st.rules
    cell = st.cell
    pirate = st.pirate
    pirate_at = st.pirate_at
    storm = st.storm
    ship = st.ship
    hand = st.hand
    hold = st.hold
    gold = st.gold
    if card_total(st) != deck_size:
        return 1
    n = st.meta[M.n_players]
    for q in range(n):
        if gold[q] < 0:
            return 2
        if hold_sum(st.hold, q) > rules[R.hold_size]:
            return 3
        c = ship[q]
        if cell[c] == LAND or c == storm[0]:
            return 4
        for t in range(hand.shape[1]):
            if hand[q, t] < 0:
                return 5
        for t in range(N_COMMODITIES):
            if hold[q, t] < 0:
                return 5
    for p in range(pirate.shape[0]):
        c = pirate[p]
        if cell[c] != SEA or pirate_at[c] != p or c == storm[0]:
            return 6
    if storm[0] >= 0 and cell[storm[0]] != SEA:
        return 7
    rich = 0
    for q in range(n):
        if gold[q] >= rules[R.win_gold]:
            rich += 1
    if rich > 1:
        return 8
    return 0


INVARIANTS = (
    "",
    "ST-INV-1: cards not conserved across deck, discard, hands and holds",
    "ST-INV-2: negative gold",
    "ST-INV-3: hold over capacity",
    "ST-INV-4: ship on land or on the storm",
    "ST-INV-5: negative card count",
    "ST-INV-6: pirate on a market, land, the storm or out of sync",
    "ST-INV-7: storm on land or a market",
    "ST-INV-8: more than one player at the winning gold",
    "ST-INV-9: winner below the winning gold, or a game without a winner while a player had it",
    "ST-INV-10: a cached sale or buy market differs from a fresh computation (a change without forget_targets)",
)
"""Message of each code ``check_invariants`` returns (checked mode raises AssertionError with it)."""
