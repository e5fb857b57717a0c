"""The invariants of CT-STATE-3, checked on any state (for checked mode and tests)."""

from __future__ import annotations


from sim.circus_train.cards import deck_copies
from sim.circus_train.data import N_CARDS, N_TYPES, PR, Data
from sim.circus_train.roustabout import occupied_count
from sim.circus_train.calendar import quota
from sim.circus_train.state import GS, LOC_BAG, LOC_BOARD, LOC_PLAYER, PL
from sim.core.jit import kernel
from sim.core.state import M


@kernel
def broken_invariant(st, d: Data) -> int:
    """0 when CT-STATE-3 items 1-5 hold, else the number of the first broken item."""
    n = st.meta[M.n_players]
    for t in range(N_TYPES):  # 1: talent conserved per type
        k = st.reserve[t] + st.fired[t]
        for c in range(st.city_item.shape[0]):
            k += st.city_talent[c, t]
        for p in range(n):
            k += st.own[p, t]
        if k != d.talent_count[t] or st.reserve[t] < 0:
            return 1
    in_bag = 0  # 2: every counter where its location says
    for k in range(d.ctr_kind.shape[0]):
        w = st.ctr_where[k]
        if w == LOC_BAG:
            in_bag += 1
        elif w == LOC_BOARD:
            on = 0
            for c in range(st.city_item.shape[0]):
                on += (st.city_item[c] == k) + (st.city_char[c] == k)
            if on != 1:
                return 2
        elif w == LOC_PLAYER and st.ctr_owner[k] < 0:
            return 2
    if in_bag != st.g[GS.bag_n]:
        return 2
    for p in range(n):
        prs = 0
        for k in range(d.ctr_kind.shape[0]):
            if d.ctr_kind[k] == PR and st.ctr_owner[k] == p and st.ctr_where[k] == LOC_PLAYER:
                prs += 1
        if prs != st.pl[p, PL.n_pr]:
            return 2
    for c in range(st.city_item.shape[0]):  # 3: nothing in Canada
        if d.is_start[c] or not d.is_dest[c]:
            if st.city_item[c] >= 0 or st.city_char[c] >= 0:
                return 3
            for t in range(N_TYPES):
                if st.city_talent[c, t] != 0:
                    return 3
    for p in range(n):  # 4: hand + discard = the deck, hand never empty
        size = 0
        for card in range(N_CARDS):
            if st.hand[p, card] + st.disc[p, card] != deck_copies(d, st.rules, n, card) or st.hand[p, card] < 0:
                return 4
            size += st.hand[p, card]
        if size < 1:
            return 4
    for p in range(n):  # 5: VP, money, reputation in range
        if st.pl[p, PL.vp] < 0 or st.pl[p, PL.money] < 0 or not 0 <= st.pl[p, PL.rep] < d.rep_success.shape[0]:
            return 5
    return 0


@kernel
def quota_met(st, d: Data) -> bool:
    """CT-STATE-3 item 6: at the start of a round the occupied cities equal the quota unless the bag is empty."""
    return st.g[GS.bag_n] == 0 or occupied_count(st) == quota(st, d)
