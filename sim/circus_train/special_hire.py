"""Special Hire from Overnight Hire (CT-SPH-1, CT-STEAL-*, CT-ADV-STEAL-1, CT-OPT-CHAR-5, CT-AMB-21/22/24)."""

from __future__ import annotations


from sim.circus_train.calendar import late_season, special_hire_price
from sim.circus_train.cards import discard_overnight_hire
from sim.circus_train.data import N_CHARS, N_TYPES, Data
from sim.circus_train.hire import can_hire
from sim.circus_train.points import success_max
from sim.circus_train.rules import R
from sim.circus_train.state import LOC_BOARD, LOC_CHAR_RESERVE, LOC_PLAYER, PL
from sim.core.jit import kernel
from sim.core.rng import randint
from sim.core.state import M

HIRE, STEAL, BUY, BUY_CHARACTER, DECLINE = 0, 1, 2, 3, 4  # st.options[i, 0] of special_hire_options
NONE = -1
"""Steal targets are 0..6 for a talent type and 7 + character index for a Special Character; NONE pads a row."""


@kernel
def _victim_items(st, d: Data, q: int) -> int:
    """Counters the thief could take from q: talent, and characters with the optional rule."""
    k = 0
    for t in range(N_TYPES):
        k += st.own[q, t]
    if st.rules[R.special_characters]:
        for ch in range(N_CHARS):
            if d.char_counter[ch] >= 0 and st.ctr_owner[d.char_counter[ch]] == q:
                k += 1
    return k


@kernel
def character_buyable(st, d: Data, p: int, ch: int) -> bool:
    """In August/September a character no opponent owns may be bought (CT-OPT-CHAR-5, CT-AMB-24): from the
    special-character reserve or (``character_buy_any``) from the board."""
    rules = st.rules
    k = d.char_counter[ch]
    if not rules[R.special_characters] or k < 0 or st.ctr_owner[k] >= 0:
        return False
    if st.ctr_where[k] == LOC_CHAR_RESERVE:
        return True
    return rules[R.character_buy_any] != 0 and st.ctr_where[k] == LOC_BOARD


@kernel
def special_hire_options(st, d: Data, p: int) -> int:
    """Fill ``st.options[i] = (kind, arg)`` with p's Special Hire choices (H7); return the count (CT-SPH-1).

    HIRE if the city has talent; STEAL from each opponent whose train shares the city and who owns something to
    take; BUY each talent type in the reserve at the month's price ($5 / $10 / $20) if p can pay; BUY_CHARACTER
    in August/September (optional rule); and always DECLINE, last: the Special Hire is optional, the card is
    spent all the same (CT-AMB-42)."""
    c = st.pl[p, PL.city]
    n = 0
    if can_hire(st, p):
        st.options[n, 0] = HIRE
        st.options[n, 1] = -1
        n += 1
    for q in range(st.meta[M.n_players]):
        if q != p and st.pl[q, PL.city] == c and _victim_items(st, d, q) > 0:
            st.options[n, 0] = STEAL
            st.options[n, 1] = q
            n += 1
    price = special_hire_price(st, d)
    if st.pl[p, PL.money] >= price:
        for t in range(N_TYPES):
            if st.reserve[t] > 0:
                st.options[n, 0] = BUY
                st.options[n, 1] = t
                n += 1
        if late_season(st, d):
            for ch in range(N_CHARS):
                if character_buyable(st, d, p, ch):
                    st.options[n, 0] = BUY_CHARACTER
                    st.options[n, 1] = ch
                    n += 1
    st.options[n, 0] = DECLINE
    st.options[n, 1] = -1
    return n + 1


@kernel
def _has(st, d: Data, q: int, item: int, used: int) -> bool:
    """q owns ``used + 1`` or more of ``item`` (a type, or 7 + character)."""
    if item < N_TYPES:
        return st.own[q, item] > used
    return used == 0 and st.ctr_owner[d.char_counter[item - N_TYPES]] == q


@kernel
def steal_is_legal(st, d: Data, p: int, q: int, a: int, b: int, c: int) -> bool:
    """Independent check of a steal target set (CT-STEAL-1, CT-AMB-21): q shares p's city; 1..steal_max talents
    and at most one character among them (switch ``steal_character_extra``: up to steal_max talents plus one
    character), each owned by q; rows list targets in non-decreasing order, padded with NONE."""
    rules = st.rules
    if q == p or not 0 <= q < st.meta[M.n_players] or st.pl[q, PL.city] != st.pl[p, PL.city]:
        return False
    items = (a, b, c)
    talents = 0
    chars = 0
    last = -1
    for i in range(3):
        x = items[i]
        if x == NONE:
            continue
        if x < last or x >= N_TYPES + N_CHARS or x < 0:
            return False
        used = 0
        for j in range(i):
            if items[j] == x:
                used += 1
        if not _has(st, d, q, x, used):
            return False
        if x >= N_TYPES:
            if not rules[R.special_characters]:
                return False
            chars += 1
        else:
            talents += 1
        last = x
    if talents + chars == 0 or chars > 1:
        return False
    if rules[R.steal_character_extra]:
        return talents <= rules[R.steal_max]
    return talents + chars <= rules[R.steal_max]


@kernel
def steal_options(st, d: Data, p: int, q: int) -> int:
    """Fill ``st.options[i] = (a, b, c)`` with every legal target set for stealing from q (H7); return the count."""
    top = N_TYPES + (N_CHARS if st.rules[R.special_characters] else 0)
    n = 0
    for a in range(top):
        if not _has(st, d, q, a, 0):  # every set holding an item q lacks is illegal: skip them unchecked
            continue
        for b in range(NONE, top):
            if b != NONE and (b < a or not _has(st, d, q, b, 1 if b == a else 0)):
                continue
            for c in range(NONE, top):
                if (c != NONE and (b == NONE or c < b)) or n >= st.options.shape[0]:
                    continue
                if steal_is_legal(st, d, p, q, a, b, c):
                    st.options[n, 0] = a
                    st.options[n, 1] = b
                    st.options[n, 2] = c
                    n += 1
    return n


@kernel
def steal(st, d: Data, p: int, q: int, a: int, b: int, c: int) -> int:
    """Roll once per target; 1..success_max moves it to p, no buying (CT-STEAL-1). Advanced: the thief's
    reputation box, +1 to each roll if the victim's reputation is higher (CT-ADV-STEAL-1, CT-REP-4). If anything
    was stolen the victim discards Overnight Hire from hand (CT-STEAL-2). Returns the number stolen."""
    rules = st.rules
    smax = success_max(st, d, p, rules[R.steal_success_max])
    mod = 0
    if rules[R.advanced] and st.pl[q, PL.rep] > st.pl[p, PL.rep]:
        mod = rules[R.steal_rep_bonus]
    items = (a, b, c)
    got = 0
    for i in range(3):
        x = items[i]
        if x == NONE:
            continue
        die = 1 + randint(st.rng, 6)
        if 1 <= die + mod <= smax:
            got += 1
            take_counter(st, d, p, q, x)
    if got > 0:
        discard_overnight_hire(st, q)
    return got


@kernel
def take_counter(st, d: Data, p: int, q: int, item: int) -> None:
    """Move one counter (a talent type, or 7 + character) from q's circus to p's (steals, CT-CATCHUP-1)."""
    if item < N_TYPES:
        st.own[q, item] -= 1
        st.own[p, item] += 1
    else:
        st.ctr_owner[d.char_counter[item - N_TYPES]] = p


@kernel
def buy(st, d: Data, p: int, kind: int, arg: int) -> None:
    """Buy one talent of type ``arg`` from the reserve, or (BUY_CHARACTER) character ``arg``, at the month's price
    (CT-SPH-1 option 3, CT-AMB-22: exactly one counter)."""
    st.pl[p, PL.money] -= special_hire_price(st, d)
    if kind == BUY:
        st.reserve[arg] -= 1
        st.own[p, arg] += 1
        return
    k = d.char_counter[arg]
    for city in range(st.city_char.shape[0]):
        if st.city_char[city] == k:
            st.city_char[city] = -1
    st.ctr_where[k] = LOC_PLAYER
    st.ctr_owner[k] = p
