"""Sea Trade rule actions and checks on the state arrays: callable on hand-built positions by the tests.

Each ``*_options`` generator enumerates legal moves into ``st.options``; each ``*_legal`` predicate re-derives
legality independently from coordinates, so the tests can check that both agree on random positions.
"""

from __future__ import annotations

from numba import njit

from sim.core.deck import discard_card, draw
from sim.core.trace import emit
from sim.sea_trade.board import king_distance
from sim.sea_trade.records import (G_PLUNDERS, G_RESHUFFLES, G_STORMS, P_BOUGHT, P_CARGO_LOST, P_PIRATE_MOVES,
                                   P_PLUNDERED, P_PLUNDERS_MADE, P_ROW, P_SALES_GOLD, P_SOLD, P_STORMS, P_WIND)
from sim.sea_trade.rules import (R_BUY, R_DESIRED, R_GRID, R_HOLD, R_SELL, R_WIN_GOLD, R_WIND_STEPS)
from sim.sea_trade.state import (CARD_ROW, CARD_STORM, CARD_WIND0, DESIRES, DIR_COL, DIR_ROW, EV_BUY, EV_PIRATE,
                                 EV_PLUNDER, EV_RESHUFFLE, EV_SAIL, EV_SELL, EV_STORM, LAND, M_DIST_DIRTY,
                                 M_EVENTS, M_ROUND, MARKET, N_COMMODITIES, SEA, SELLS, State)


@njit(cache=True, _nrt=False)
def ev(st: State, seat: int, etype: int, a0: int = 0, a1: int = 0, a2: int = 0, a3: int = 0, a4: int = 0) -> None:
    """Record one trace event when tracing (zero-row trace buffer: nothing, the fast path)."""
    if st.trace.shape[0] > 0:
        st.misc[M_EVENTS] = emit(st.trace, st.misc[M_EVENTS], st.misc[M_ROUND], seat, etype, a0, a1, a2, a3, a4)


@njit(cache=True, _nrt=False)
def hold_count(st: State, seat: int) -> int:
    """Commodity cards in the seat's hold."""
    s = 0
    for c in range(N_COMMODITIES):
        s += st.hold[seat, c]
    return s


@njit(cache=True, _nrt=False)
def hand_count(st: State, seat: int) -> int:
    """Cards in the seat's hand."""
    s = 0
    for c in range(st.hand.shape[1]):
        s += st.hand[seat, c]
    return s


@njit(cache=True, _nrt=False)
def ship_at(st: State, c: int, exclude: int) -> int:
    """Number of player ships on cell c, not counting seat ``exclude`` (-1: count all)."""
    k = 0
    for q in range(st.n_players[0]):
        if q != exclude and st.ship[q] == c:
            k += 1
    return k


@njit(cache=True, _nrt=False)
def ship_can_enter(st: State, c: int) -> bool:
    """ST-SAIL-3: a ship may not enter land, the storm or a pirate ship's space."""
    return st.cell[c] != LAND and c != st.storm[0] and st.pirate_at[c] < 0


@njit(cache=True, _nrt=False)
def pirate_can_enter(st: State, c: int) -> bool:
    """ST-PIRACY-1: a pirate may not enter a market, land, the storm or another pirate's space."""
    return st.cell[c] == SEA and c != st.storm[0] and st.pirate_at[c] < 0


@njit(cache=True, _nrt=False)
def sail_options(st: State, seat: int, k: int) -> int:
    """Append the seat's legal sail moves as (card, to, steps, direction) from option row k; return the end row.

    ST-SAIL-1 Row: one step in any of 8 directions. ST-SAIL-2 Wind X: 1..wind_max_steps steps in X only.
    ST-SAIL-3 no entering or passing blocked spaces; ST-SAIL-4 a move ends on entering a market;
    ST-SAIL-5 ``nbr`` is -1 off the board, so leaving it is impossible.
    """
    frm = st.ship[seat]
    if st.hand[seat, CARD_ROW] > 0:
        for d in range(8):
            to = st.nbr[frm, d]
            if to >= 0 and ship_can_enter(st, to):
                st.options[k, 0] = CARD_ROW
                st.options[k, 1] = to
                st.options[k, 2] = 1
                st.options[k, 3] = d
                k += 1
    wmax = st.rules[R_WIND_STEPS]
    for d in range(8):
        card = CARD_WIND0 + d
        if st.hand[seat, card] == 0:
            continue
        c = frm
        for steps in range(1, wmax + 1):
            c = st.nbr[c, d]
            if c < 0 or not ship_can_enter(st, c):
                break
            st.options[k, 0] = card
            st.options[k, 1] = c
            st.options[k, 2] = steps
            st.options[k, 3] = d
            k += 1
            if st.cell[c] == MARKET:
                break
    return k


@njit(cache=True, _nrt=False)
def _line_steps(g: int, frm: int, to: int, d: int) -> int:
    """k if ``to`` is exactly k >= 1 steps from ``frm`` in direction d, else 0."""
    dr = to // g - frm // g
    dc = to % g - frm % g
    k = abs(dr) if abs(dr) > abs(dc) else abs(dc)
    if k == 0 or dr != k * DIR_ROW[d] or dc != k * DIR_COL[d]:
        return 0
    return k


@njit(cache=True, _nrt=False)
def sail_legal(st: State, frm: int, card: int, to: int) -> bool:
    """Rule check, independent of ``sail_options``: may a ship on ``frm`` play ``card`` to end on ``to``?"""
    g = st.rules[R_GRID]
    if to < 0 or to >= g * g:
        return False  # ST-SAIL-5
    if card == CARD_ROW:
        return king_distance(g, frm, to) == 1 and ship_can_enter(st, to)  # ST-SAIL-1, ST-SAIL-3
    if card < CARD_WIND0 or card >= CARD_WIND0 + 8:
        return False
    d = card - CARD_WIND0
    k = _line_steps(g, frm, to, d)
    if k == 0 or k > st.rules[R_WIND_STEPS]:
        return False  # ST-SAIL-2
    for i in range(1, k + 1):
        c = (frm // g + i * DIR_ROW[d]) * g + frm % g + i * DIR_COL[d]
        if not ship_can_enter(st, c):
            return False  # ST-SAIL-3: entering or passing through
        if i < k and st.cell[c] == MARKET:
            return False  # ST-SAIL-4: the move must have stopped here
    return True


@njit(cache=True, _nrt=False)
def apply_sail(st: State, seat: int, card: int, to: int, steps: int) -> None:
    """Play a Row or Wind card to move the seat's ship (ST-TURN-2); the card goes to the discard (ST-TURN-6)."""
    ev(st, seat, EV_SAIL, card, st.ship[seat], to, steps)
    st.hand[seat, card] -= 1
    discard_card(st.discard, st.piles, card)
    st.ship[seat] = to
    if card == CARD_ROW:
        st.players[seat, P_ROW] += 1
    else:
        st.players[seat, P_WIND] += 1


@njit(cache=True, _nrt=False)
def pirate_options(st: State, seat: int, k: int) -> int:
    """Append legal pirate moves as (pirate, card, to, steps) from row k; return the end row (ST-TURN-4).

    ST-PIRACY-1 blocked spaces end the line; ST-PIRACY-2 entering another player's ship ends the move there.
    """
    wmax = st.rules[R_WIND_STEPS]
    for p in range(st.pirate.shape[0]):
        for d in range(8):
            card = CARD_WIND0 + d
            if st.hand[seat, card] == 0:
                continue
            c = st.pirate[p]
            for steps in range(1, wmax + 1):
                c = st.nbr[c, d]
                if c < 0 or not pirate_can_enter(st, c):
                    break
                st.options[k, 0] = p
                st.options[k, 1] = card
                st.options[k, 2] = c
                st.options[k, 3] = steps
                k += 1
                if ship_at(st, c, seat) > 0:
                    break
    return k


@njit(cache=True, _nrt=False)
def pirate_legal(st: State, seat: int, p: int, card: int, to: int) -> bool:
    """Rule check, independent of ``pirate_options``: may ``seat`` play ``card`` to move pirate p onto ``to``?"""
    g = st.rules[R_GRID]
    if card < CARD_WIND0 or card >= CARD_WIND0 + 8 or to < 0 or to >= g * g:
        return False
    frm = st.pirate[p]
    d = card - CARD_WIND0
    k = _line_steps(g, frm, to, d)
    if k == 0 or k > st.rules[R_WIND_STEPS]:
        return False
    for i in range(1, k + 1):
        c = (frm // g + i * DIR_ROW[d]) * g + frm % g + i * DIR_COL[d]
        if st.cell[c] != SEA or c == st.storm[0] or st.pirate_at[c] >= 0:
            return False  # ST-PIRACY-1
        if i < k and ship_at(st, c, seat) > 0:
            return False  # ST-PIRACY-2: it would have stopped on that ship
    return True


@njit(cache=True, _nrt=False)
def apply_pirate(st: State, seat: int, p: int, card: int, to: int) -> int:
    """Move pirate p with a Wind card; plunder every other player's ship on ``to``; return ships plundered.

    ST-PIRACY-2: a plundered ship's whole hold goes to the discard pile and the pirate stops there. Following
    the rulebook ("la Nave di un altro giocatore"), the active player's own ship is never plundered.
    """
    frm = st.pirate[p]
    ev(st, seat, EV_PIRATE, p, card, frm, to)
    st.hand[seat, card] -= 1
    discard_card(st.discard, st.piles, card)
    st.pirate_at[frm] = -1
    st.pirate_at[to] = p
    st.pirate[p] = to
    st.players[seat, P_PIRATE_MOVES] += 1
    st.misc[M_DIST_DIRTY] = 1
    victims = 0
    for q in range(st.n_players[0]):
        if q == seat or st.ship[q] != to:
            continue
        lost = 0
        for c in range(N_COMMODITIES):
            for _ in range(st.hold[q, c]):
                discard_card(st.discard, st.piles, c)
            lost += st.hold[q, c]
            st.hold[q, c] = 0
        ev(st, seat, EV_PLUNDER, q, lost, to)
        st.players[q, P_PLUNDERED] += 1
        st.players[q, P_CARGO_LOST] += lost
        st.players[seat, P_PLUNDERS_MADE] += 1
        st.games[G_PLUNDERS] += 1
        victims += 1
    return victims


@njit(cache=True, _nrt=False)
def storm_options(st: State, k: int) -> int:
    """Append every space the storm may be placed on (ST-TURN-5) as (cell, 0, 0, 0); return the end row."""
    n = st.cell.shape[0]
    for c in range(n):
        st.blocked[c] = st.cell[c] != SEA or st.pirate_at[c] >= 0
    for q in range(st.n_players[0]):
        st.blocked[st.ship[q]] = True
    if st.storm[0] >= 0:
        st.blocked[st.storm[0]] = True
    for c in range(n):
        if not st.blocked[c]:
            st.options[k, 0] = c
            st.options[k, 1] = 0
            st.options[k, 2] = 0
            st.options[k, 3] = 0
            k += 1
    return k


@njit(cache=True, _nrt=False)
def storm_legal(st: State, c: int) -> bool:
    """Rule check: an empty space (no land, market, ship, pirate; not the current storm) can take the storm."""
    if c < 0 or c >= st.cell.shape[0] or c == st.storm[0]:
        return False
    return st.cell[c] == SEA and st.pirate_at[c] < 0 and ship_at(st, c, -1) == 0


@njit(cache=True, _nrt=False)
def apply_storm(st: State, seat: int, c: int) -> None:
    """Play a Storm card: the storm moves to c, the previous one is removed (ST-TURN-5, ST-TURN-6)."""
    ev(st, seat, EV_STORM, c, st.storm[0])
    st.hand[seat, CARD_STORM] -= 1
    discard_card(st.discard, st.piles, CARD_STORM)
    st.storm[0] = c
    st.players[seat, P_STORMS] += 1
    st.games[G_STORMS] += 1
    st.misc[M_DIST_DIRTY] = 1


@njit(cache=True, _nrt=False)
def price(st: State, m: int, c: int) -> int:
    """ST-TRADE-4: what market m pays for commodity c: 0 (refused) for its own, desired or normal price."""
    if SELLS[m] == c:
        return 0
    if DESIRES[m] == c:
        return st.rules[R_DESIRED]
    return st.rules[R_SELL]


@njit(cache=True, _nrt=False)
def market_here(st: State, seat: int) -> int:
    """The market the seat's ship is in, or -1."""
    return st.market_at[st.ship[seat]]


@njit(cache=True, _nrt=False)
def max_buy(st: State, seat: int) -> int:
    """ST-TRADE-2/3: cards of the market's own commodity the seat can buy now (hand, hold room, gold)."""
    m = market_here(st, seat)
    if m < 0:
        return 0
    k = st.hand[seat, SELLS[m]]
    room = st.rules[R_HOLD] - hold_count(st, seat)
    if room < k:
        k = room
    if st.rules[R_BUY] > 0:
        afford = st.gold[seat] // st.rules[R_BUY]
        if afford < k:
            k = afford
    return k if k > 0 else 0


@njit(cache=True, _nrt=False)
def apply_buy(st: State, seat: int, k: int) -> None:
    """Pay buy_price per card to move k cards of the market's commodity from hand to hold (ST-TRADE-2)."""
    c = SELLS[market_here(st, seat)]
    cost = k * st.rules[R_BUY]
    st.hand[seat, c] -= k
    st.hold[seat, c] += k
    st.gold[seat] -= cost
    st.players[seat, P_BOUGHT] += k
    ev(st, seat, EV_BUY, c, k, cost, st.gold[seat])


@njit(cache=True, _nrt=False)
def apply_sell(st: State, seat: int, c: int) -> bool:
    """Sell one hold card of commodity c here (ST-TRADE-4, card to discard); True if it wins (ST-END-1)."""
    m = market_here(st, seat)
    gain = price(st, m, c)
    st.hold[seat, c] -= 1
    discard_card(st.discard, st.piles, c)
    st.gold[seat] += gain
    st.players[seat, P_SOLD] += 1
    st.players[seat, P_SALES_GOLD] += gain
    ev(st, seat, EV_SELL, c, gain, st.gold[seat], m)
    return st.gold[seat] >= st.rules[R_WIN_GOLD]


@njit(cache=True, _nrt=False)
def draw_card(st: State, seat: int) -> int:
    """ST-TURN-1: draw one card into the seat's hand, reshuffling the discard pile when the deck is empty."""
    if st.piles[0] == 0 and st.piles[1] > 0:
        st.games[G_RESHUFFLES] += 1
        ev(st, seat, EV_RESHUFFLE, st.piles[1])
    card = draw(st.deck, st.piles, st.discard, st.rng)
    if card >= 0:
        st.hand[seat, card] += 1
    return card


@njit(cache=True, _nrt=False)
def card_total(st: State) -> int:
    """Cards in deck, discard pile, hands and holds (58 by default: conservation invariant)."""
    s = st.piles[0] + st.piles[1]
    for q in range(st.n_players[0]):
        s += hand_count(st, q) + hold_count(st, q)
    return s


@njit(cache=True, _nrt=False)
def check_invariants(st: State, deck_size: int) -> int:
    """0 if the position is consistent, else a code naming the first broken invariant (see INVARIANTS)."""
    if card_total(st) != deck_size:
        return 1
    n = st.n_players[0]
    for q in range(n):
        if st.gold[q] < 0:
            return 2
        if hold_count(st, q) > st.rules[R_HOLD]:
            return 3
        c = st.ship[q]
        if st.cell[c] == LAND or c == st.storm[0]:
            return 4
        for t in range(st.hand.shape[1]):
            if st.hand[q, t] < 0:
                return 5
        for t in range(N_COMMODITIES):
            if st.hold[q, t] < 0:
                return 5
    for p in range(st.pirate.shape[0]):
        c = st.pirate[p]
        if st.cell[c] != SEA or st.pirate_at[c] != p or c == st.storm[0]:
            return 6
    if st.storm[0] >= 0 and st.cell[st.storm[0]] != SEA:
        return 7
    rich = 0
    for q in range(n):
        if st.gold[q] >= st.rules[R_WIN_GOLD]:
            rich += 1
    if rich > 1:
        return 8
    return 0


INVARIANTS = {
    1: "cards not conserved across deck, discard, hands and holds",
    2: "negative gold",
    3: "hold over capacity",
    4: "ship on land or on the storm",
    5: "negative card count",
    6: "pirate on a market, land, the storm or out of sync",
    7: "storm on land or a market",
    8: "more than one player at the winning gold",
    9: "winner below the winning gold, or a game without a winner while a player had it",
}
