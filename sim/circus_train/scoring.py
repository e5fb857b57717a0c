"""End-of-month scoring and the catch-up steal (CT-SCORE-MONTH-*, CT-CATCHUP-1, CT-ADV-CATCHUP-1, CT-MONTH-1)."""

from __future__ import annotations


from sim.circus_train.data import N_CHARS, N_TYPES, Data
from sim.circus_train.points import gain_vp
from sim.circus_train.rules import CHOICES, R
from sim.circus_train.state import GS, PL
from sim.core.jit import kernel
from sim.core.state import M

MONEY_ONLY = CHOICES["solo_scoring"].index("money_only")


@kernel
def most_talent(st, out) -> None:
    """out[p] = VP from most talent (CT-SCORE-MONTH-1): for each type, a player owning strictly more than every
    other player, and at least most_talent_min, scores that number; a tie for the most scores nothing. Alone (in
    solitaire) the player is always the most (CT-SCORE-MONTH-6). Characters never count."""
    n = st.meta[M.n_players]
    for p in range(n):
        out[p] = 0
    for t in range(N_TYPES):
        top = -1
        who = -1
        tie = False
        for p in range(n):
            k = st.own[p, t]
            if k > top:
                top = k
                who = p
                tie = False
            elif k == top:
                tie = True
        if not tie and top >= st.rules[R.most_talent_min]:
            out[who] += top


@kernel
def best_performance(values, n: int, rules, out, first: int) -> None:
    """out[p] = VP from the Best Performance markers ``values`` (CT-SCORE-MONTH-2/3); 1st place pays ``first``
    (``rules[R.best_vp_1]``, 7, except in April under ``april_keeps_lower_places``).

    Three or more players: places pay 7 / 4 / 2; tied players share the sum of the places they occupy, each
    taking the share rounded down, and the next player takes the next free place; players tied for 3rd get 1 each
    however many they are (CT-AMB-12). Two players: 4 to the higher marker, 2 each on a tie.
    """
    for p in range(n):
        out[p] = 0
    if n == 2:
        if values[0] == values[1]:
            out[0] = rules[R.best_vp_2p] // 2
            out[1] = rules[R.best_vp_2p] // 2
        else:
            out[0 if values[0] > values[1] else 1] = rules[R.best_vp_2p]
        return
    pay = (first, rules[R.best_vp_2], rules[R.best_vp_3])
    for p in range(n):
        above = 0
        tied = 0
        for q in range(n):
            if values[q] > values[p]:
                above += 1
            elif values[q] == values[p]:
                tied += 1
        if above >= 3:
            continue
        if above == 2 and tied > 1:
            out[p] = rules[R.best_third_tie_vp]
            continue
        total = 0
        for place in range(above, min(above + tied, 3)):
            total += pay[place]
        out[p] = total // tied


@kernel
def score_month(st, d: Data, month: int) -> None:
    """End-of-month scoring (CT-SCORE-MONTH-*): most talent; then best performance with 3+ players (April: 5 VP to
    each player owning a PR instead, CT-SCORE-MONTH-4, CT-AMB-11; with ``april_keeps_lower_places`` the 5 VP replace
    only the 1st place and the 2nd and 3rd places still pay) or the 2-player split; solitaire scores most talent
    only, in money (CT-SCORE-MONTH-6, CT-AMB-27); the simple variant scores nothing (CT-OPT-SIMPLE-1)."""
    rules = st.rules
    n = st.meta[M.n_players]
    if rules[R.simple_variant] or (n == 1 and rules[R.solo_scoring] == MONEY_ONLY):
        return
    most_talent(st, st.gain)
    for p in range(n):
        if st.gain[p] > 0:
            gain_vp(st, p, st.gain[p])
    if n == 1:
        return
    first = rules[R.best_vp_1]
    if month == 0 and n >= 3 and rules[R.april_rule]:
        for p in range(n):
            if st.pl[p, PL.n_pr] >= 1:
                gain_vp(st, p, rules[R.april_vp])
        if not rules[R.april_keeps_lower_places]:
            return
        first = 0
    best_performance(st.pl[:, PL.best], n, rules, st.gain, first)
    for p in range(n):
        if st.gain[p] > 0:
            gain_vp(st, p, st.gain[p])


@kernel
def pass_first_player(st) -> None:
    """The first-player marker passes one seat clockwise (CT-MONTH-1 step 2)."""
    st.g[GS.first] = (st.g[GS.first] + 1) % st.meta[M.n_players]


@kernel
def catch_up_thief(st) -> int:
    """After a long month: the one player with the fewest VP, or -1 on a tie for the fewest, in solitaire and in
    the simple variant (CT-CATCHUP-1, CT-OPT-SIMPLE-1)."""
    n = st.meta[M.n_players]
    if n == 1 or st.rules[R.simple_variant]:
        return -1
    low = st.pl[0, PL.vp]
    who = 0
    tie = False
    for p in range(1, n):
        v = st.pl[p, PL.vp]
        if v < low:
            low = v
            who = p
            tie = False
        elif v == low:
            tie = True
    return -1 if tie else who


@kernel
def catch_up_is_legal(st, d: Data, p: int, q: int, item: int) -> bool:
    """One counter (a talent type, or 7 + character with the optional rule) of another player q; advanced game:
    only from a player whose reputation is not above p's (CT-CATCHUP-1, CT-ADV-CATCHUP-1). item -1 = decline."""
    rules = st.rules
    if item == -1:
        return True
    if q == p or not 0 <= q < st.meta[M.n_players]:
        return False
    if rules[R.advanced] and st.pl[q, PL.rep] > st.pl[p, PL.rep]:
        return False
    if 0 <= item < N_TYPES:
        return st.own[q, item] > 0
    ch = item - N_TYPES
    return (rules[R.special_characters] != 0 and 0 <= ch < N_CHARS and d.char_counter[ch] >= 0
            and st.ctr_owner[d.char_counter[ch]] == q)


@kernel
def catch_up_options(st, d: Data, p: int) -> int:
    """Fill ``st.options[i] = (victim, item)`` with the thief's choices, first (-1, -1) to take nothing (H10)."""
    st.options[0, 0] = -1
    st.options[0, 1] = -1
    n = 1
    for q in range(st.meta[M.n_players]):
        for item in range(N_TYPES + N_CHARS):
            if q != p and catch_up_is_legal(st, d, p, q, item):
                st.options[n, 0] = q
                st.options[n, 1] = item
                n += 1
    return n


