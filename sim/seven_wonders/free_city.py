"""The 2-player variant's Free City (SW-2P-1 to SW-2P-5, SW-DEC-26): a third seat in the circle that is not a player.

It has a board, coins, a city and military like a player and is both players' neighbour, but no hand: its row of
``st.hand`` holds its face-down draw pile (the 7 cards dealt to its seat, SW-2P-1). A turn, as the engine drives it:
  1. ``draw``: the holder of the Free City card (``g[GS.fc_holder]``) takes the pile's top card into his hand;
  2. the holder and the other player pick their own cards (the usual turn decision);
  3. ``fc_options``: the holder's other cards are laid after the pile as the Free City's candidates and every use
     SW-2P-4 allows is listed (it builds if it can; a card it can chain must be chained); the holder decides
     (the ``free_city`` decision), then among the seller plans (``fc_plans``, the ``fc_payment`` decision);
  4. ``give_card``: the card leaves the holder's hand for the Free City, whose pick resolves with the others;
  5. at the turn end the hands swap and the card changes hands (``turn.swap_hands``); turn 6 discards the pile's
     last card with the players' (SW-2P-5, ``turn.discard_last_cards``).
It never drafts, builds or scores Babel tiles, never joins a Great Project nor bears its penalty (BABEL-2P-1,
BABEL-GP-16); it takes part in military and is counted by neighbours' effects (SW-2P-3).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.seven_wonders.data import N_RES, Data
from sim.seven_wonders.payment import STRICT, neighbour, unit_price
from sim.seven_wonders.rules import R
from sim.seven_wonders.seats import FREE_CITY
from sim.seven_wonders.state import GS, State
from sim.seven_wonders.turn import ACT, MODE, apply_paid, discard_build_options, is_legal, options_from, prefer_side, \
    price_with


@kernel
def start_age(st: State) -> None:
    """SW-DEC-26: Ages I and III start with the Free City card at the player on its left (seat 0, whose right
    neighbour it is), Age II at the player on its right (seat 1)."""
    st.g[GS.fc_holder] = 1 if st.g[GS.age] == 2 else 0


@kernel
def draw(st: State) -> None:
    """SW-2P-2: the holder draws the top card of the Free City's pile into his own hand."""
    h = st.g[GS.fc_holder]
    top = st.hand_n[FREE_CITY] - 1
    st.hand[h, st.hand_n[h]] = st.hand[FREE_CITY, top]
    st.hand_n[h] += 1
    st.hand[FREE_CITY, top] = -1
    st.hand_n[FREE_CITY] = top


@kernel
def lay_candidates(st: State, h: int) -> int:
    """Copy the holder's cards except his own pick after the Free City's pile (slots base..); returns base (the pile
    size). ``clear_candidates`` takes them away."""
    base = st.hand_n[FREE_CITY]
    k = base
    for j in range(st.hand_n[h]):
        if j != st.pick[h, 1]:
            st.hand[FREE_CITY, k] = st.hand[h, j]
            k += 1
    st.hand_n[FREE_CITY] = k
    return base


@kernel
def clear_candidates(st: State, base: int) -> None:
    """Take the laid-out candidates away: the Free City's row holds its pile of ``base`` cards again."""
    for k in range(base, st.hand.shape[1]):
        st.hand[FREE_CITY, k] = -1
    st.hand_n[FREE_CITY] = base


@kernel
def fc_options(st: State, data: Data, rules: np.ndarray, h: int) -> int:
    """SW-2P-4: the Free City's uses of the cards left in h's hand after his own pick (laid after its pile: option
    rows name those slots). It may sell only if no card lets it build a structure or its next Wonder stage, and a card
    it can chain (SW-CHAIN-1) is built through the chain; the controller chooses the rest (Olympia's free build, which
    card, structure or stage). The candidates stay laid out until ``give_card``."""
    base = lay_candidates(st, h)
    n_opt = options_from(st, data, rules, FREE_CITY, base)
    builds = False
    chained = 0  # bit s: the card in slot s can be chained
    for i in range(n_opt):
        act = st.options[i, 0]
        builds = builds or act == ACT.build or act == ACT.stage
        if act == ACT.build and st.options[i, 2] == MODE.chain:
            chained |= 1 << st.options[i, 1]
    kept = 0
    for i in range(n_opt):
        act = st.options[i, 0]
        if act == ACT.sell and builds:
            continue
        if (chained >> st.options[i, 1]) & 1 and not (act == ACT.build and st.options[i, 2] == MODE.chain):
            continue
        for k in range(4):
            st.options[kept, k] = st.options[i, k]
        st.price[kept] = st.price[i]
        kept += 1
    return kept


@kernel
def fc_is_legal(st: State, data: Data, rules: np.ndarray, act: int, slot: int, extra: int, part: int) -> bool:
    """Predicate for SW-2P-4 with the candidates laid out (``lay_candidates``): the use is legal for the Free City
    (``turn.is_legal``), it sells only when no candidate builds a structure or a stage, and it chains a card it can
    chain."""
    base = _base(st, rules)
    if slot < base or not is_legal(st, data, rules, FREE_CITY, act, slot, extra, part):
        return False
    if act == ACT.sell:
        for s in range(base, st.hand_n[FREE_CITY]):
            for mode in range(4):
                if is_legal(st, data, rules, FREE_CITY, ACT.build, s, mode, 0):
                    return False
            if is_legal(st, data, rules, FREE_CITY, ACT.stage, s, 0, 0):
                return False
    chain = is_legal(st, data, rules, FREE_CITY, ACT.build, slot, MODE.chain, 0)
    return not chain or (act == ACT.build and extra == MODE.chain)


@kernel
def _base(st: State, rules: np.ndarray) -> int:
    """The pile's size after this turn's draw (7 cards dealt, one drawn per turn): the first candidate's slot."""
    return rules[R.hand_size] - st.g[GS.turn]


@kernel
def fc_plans(st: State, data: Data, rules: np.ndarray, h: int, act: int, slot: int, extra: int) -> int:
    """SW-2P-4: the seller plans the controller may choose for a paid Free City build, into st.options rows
    (prefer code, coins to left, coins to right), distinct and affordable: the cheapest (SW-DEC-1's default side),
    then buying from the controller first and from the other player first, whatever the price. Returns the count."""
    n = 0
    for k in range(3):
        if k == 0:
            prefer = prefer_side(st, rules, FREE_CITY)
        else:
            side = 0 if neighbour(st, FREE_CITY, 0) == h else 1
            prefer = STRICT + (side if k == 1 else 1 - side)
        if price_with(st, data, rules, FREE_CITY, act, slot, extra, 0, prefer) < 0:
            continue
        left = 0
        right = 0
        for r in range(N_RES):
            left += st.buy[0, r] * unit_price(st, rules, FREE_CITY, 0, r)
            right += st.buy[1, r] * unit_price(st, rules, FREE_CITY, 1, r)
        same = False
        for j in range(n):
            same = same or (st.options[j, 1] == left and st.options[j, 2] == right)
        if not same:
            st.options[n, 0] = prefer
            st.options[n, 1] = left
            st.options[n, 2] = right
            n += 1
    return n


@kernel
def give_card(st: State, data: Data, rules: np.ndarray, h: int, act: int, slot: int, extra: int,
              prefer: int) -> None:
    """Play the chosen use: the candidate card leaves h's hand for the Free City, its pick and payment (the chosen
    seller plan) are recorded and resolve with the players' (SW-TURN-4)."""
    base = _base(st, rules)
    k = slot - base
    j = -1
    for s in range(st.hand_n[h]):
        if s != st.pick[h, 1]:
            if k == 0:
                j = s
            k -= 1
    c = st.hand[h, j]
    clear_candidates(st, base)
    last = st.hand_n[h] - 1
    st.hand[h, j] = st.hand[h, last]
    st.hand[h, last] = -1
    st.hand_n[h] = last
    if st.pick[h, 1] == last:
        st.pick[h, 1] = j  # the holder's own card moved into the freed slot
    st.hand[FREE_CITY, base] = c
    st.hand_n[FREE_CITY] = base + 1
    st.options[0, 0] = act
    st.options[0, 1] = base
    st.options[0, 2] = extra
    st.options[0, 3] = 0
    apply_paid(st, data, rules, FREE_CITY, 0, prefer)


@kernel
def hali_options(st: State, data: Data, rules: np.ndarray) -> int:
    """SW-WONDER-4 for the Free City: its builds from the discard pile, the controller choosing which; like its card
    (SW-2P-4) it declines only when nothing can be built (a simulator decision, docs/rules/seven_wonders.md)."""
    n_opt = discard_build_options(st, data, rules, FREE_CITY)
    if n_opt <= 1:
        return n_opt
    for i in range(1, n_opt):
        for k in range(4):
            st.options[i - 1, k] = st.options[i, k]
    return n_opt - 1
