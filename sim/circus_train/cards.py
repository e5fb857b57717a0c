"""The action-card hand cycle (CT-SETUP-4, CT-CARD-1, CT-STEAL-2 / CT-AMB-23)."""

from __future__ import annotations


from sim.circus_train.data import N_CARDS, OVERNIGHT_HIRE, REST, WAGE_TRANSIT, Data
from sim.circus_train.rules import R
from sim.circus_train.state import GS, PL
from sim.core.jit import kernel
from sim.core.state import M


@kernel
def deck_copies(d: Data, rules, n_players: int, card: int) -> int:
    """Copies of ``card`` in each player's deck (CT-SETUP-4): Rest only in the advanced game (CT-CARD-9), cards
    whose train symbol needs more players removed (Overnight Hire below 3, CT-COMP-9), Wage & Transit removed in
    the simple variant (CT-OPT-SIMPLE-1)."""
    if d.card_advanced[card] and not rules[R.advanced]:
        return 0
    if d.card_min_players[card] > n_players:
        return 0
    if card == WAGE_TRANSIT and rules[R.simple_variant]:
        return 0
    return d.card_copies[card]


@kernel
def deal_decks(st, d: Data) -> None:
    """Every player's whole deck is the starting hand; the discard piles are empty (CT-SETUP-4)."""
    n = st.meta[M.n_players]
    for p in range(n):
        for c in range(N_CARDS):
            st.hand[p, c] = deck_copies(d, st.rules, n, c)
            st.disc[p, c] = 0
        st.pl[p, PL.refill_week] = -1


@kernel
def hand_size(st, p: int) -> int:
    """Cards in p's hand."""
    k = 0
    for c in range(N_CARDS):
        k += st.hand[p, c]
    return k


@kernel
def _take_back_discards(st, p: int) -> None:
    """The discard pile becomes the new hand (CT-CARD-1)."""
    for c in range(N_CARDS):
        st.hand[p, c] += st.disc[p, c]
        st.disc[p, c] = 0
    st.pl[p, PL.refill_week] = st.g[GS.week]


@kernel
def card_is_playable(st, p: int, card: int) -> bool:
    """Legality of playing ``card`` from hand: held, and Rest never in week 1 (CT-ADV-REST-1, CT-AMB-20)."""
    if st.hand[p, card] <= 0:
        return False
    if card == REST and st.g[GS.week] == 0 and not st.rules[R.rest_week_1]:
        return False
    return True


@kernel
def card_options(st, p: int) -> int:
    """Fill ``st.options[i, 0]`` with each distinct playable card in hand (H3); return the count."""
    n = 0
    for c in range(N_CARDS):
        if card_is_playable(st, p, c):
            st.options[n, 0] = c
            n += 1
    return n


@kernel
def play_card(st, p: int, card: int) -> None:
    """Move ``card`` from hand to discard; an emptied hand takes the whole discard pile back at once (CT-CARD-1)."""
    st.hand[p, card] -= 1
    st.disc[p, card] += 1
    if hand_size(st, p) == 0:
        _take_back_discards(st, p)


@kernel
def discard_overnight_hire(st, p: int) -> bool:
    """A robbed victim discards Overnight Hire from hand (CT-STEAL-2); an emptied hand is refilled at once
    (CT-AMB-23). Returns whether a card was discarded."""
    if st.hand[p, OVERNIGHT_HIRE] <= 0:
        return False
    st.hand[p, OVERNIGHT_HIRE] -= 1
    st.disc[p, OVERNIGHT_HIRE] += 1
    if hand_size(st, p) == 0:
        _take_back_discards(st, p)
    return True
