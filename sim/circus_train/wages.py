"""Wages and firing (CT-WAGE-*, CT-FIRE-*, CT-ADV-WAGE-1, CT-SOLO-4/6, CT-AMB-7/8/25/26/33).

A payment the player cannot meet (or, advanced, any payment) becomes a choice of the kept set, built one counter
at a time from ``keep_options``: a counter may be kept while its wage still fits the money left, and in the basic
game the choice ends only when nothing more fits, so every reachable kept set is affordable and maximal
(CT-FIRE-1, CT-AMB-7). The advanced game may stop at any time (voluntary release, CT-ADV-WAGE-1).
"""

from __future__ import annotations


from sim.circus_train.calendar import late_season
from sim.circus_train.data import ELEPHANT, N_TYPES, TED, Data
from sim.circus_train.events import wage_delta
from sim.circus_train.movement import owns_character
from sim.circus_train.points import change_rep, lose_vp
from sim.circus_train.roustabout import city_talent_count
from sim.circus_train.rules import CHOICES, R
from sim.circus_train.state import PL
from sim.core.jit import kernel
from sim.core.state import M

PAID, CHOOSE = 0, 1  # wage_begin results
KEEP, DONE = 0, 1  # keep_options kinds (st.options[i, 0])
SOLO_FARTHEST = CHOICES["solo_fired_city"].index("farthest")


@kernel
def unit_wage(st, d: Data, p: int, t: int, mult: int) -> int:
    """Wage of one counter of type t: table (+ an Event card's change) x 2 in solitaire (CT-WAGE-1, CT-SOLO-4), then
    Trainer Ted's $1 off per elephant (CT-AMB-25: solitaire $23), then x ``mult``: the 2-player taxes double the
    wage after Ted's reduction, 2 x $11 = $22 (CT-OPT-CHAR-11)."""
    rules = st.rules
    w = max(0, d.wage[t] + wage_delta(st, d, t))
    if st.meta[M.n_players] == 1:
        w *= rules[R.solo_wage_multiplier]
    if t == ELEPHANT and owns_character(st, d, p, TED):
        w = max(0, w - rules[R.ted_discount])
    return w * mult


@kernel
def wage_bill(st, d: Data, p: int, mult: int) -> int:
    """The whole bill for p's circus; characters earn nothing (CT-WAGE-1)."""
    bill = 0
    for t in range(N_TYPES):
        bill += st.own[p, t] * unit_wage(st, d, p, t, mult)
    return bill


@kernel
def kept_cost(st, d: Data, p: int, mult: int) -> int:
    """Wages of the kept set chosen so far (st.plan)."""
    cost = 0
    for t in range(N_TYPES):
        cost += st.plan[t] * unit_wage(st, d, p, t, mult)
    return cost


@kernel
def wage_begin(st, d: Data, p: int, mult: int) -> int:
    """Pay wages (CT-WAGE-2): a player who can pay the whole bill must (basic game) and PAID is returned;
    otherwise (or always in the advanced game) the kept set starts empty and CHOOSE is returned."""
    for t in range(N_TYPES):
        st.plan[t] = 0
        st.fired[t] = 0
    bill = wage_bill(st, d, p, mult)
    if st.pl[p, PL.money] >= bill and not st.rules[R.advanced]:
        st.pl[p, PL.money] -= bill
        return PAID
    return CHOOSE


@kernel
def keep_options(st, d: Data, p: int, mult: int) -> int:
    """Fill ``st.options[i] = (KEEP, type)`` for each type whose next counter still fits the money, and (DONE, -1)
    when nothing fits or in the advanced game (H8); return the count (always >= 1)."""
    left = st.pl[p, PL.money] - kept_cost(st, d, p, mult)
    n = 0
    for t in range(N_TYPES):
        if st.plan[t] < st.own[p, t] and unit_wage(st, d, p, t, mult) <= left:
            st.options[n, 0] = KEEP
            st.options[n, 1] = t
            n += 1
    if n == 0 or st.rules[R.advanced]:
        st.options[n, 0] = DONE
        st.options[n, 1] = -1
        n += 1
    return n


@kernel
def kept_set_is_legal(st, d: Data, p: int, mult: int, kept) -> bool:
    """Independent check of a final kept set (counts per type): owned, affordable, and in the basic game maximal
    (no fired counter could still be paid) (CT-FIRE-1, CT-AMB-7)."""
    cost = 0
    for t in range(N_TYPES):
        if kept[t] < 0 or kept[t] > st.own[p, t]:
            return False
        cost += kept[t] * unit_wage(st, d, p, t, mult)
    left = st.pl[p, PL.money] - cost
    if left < 0:
        return False
    if st.rules[R.advanced]:
        return True
    for t in range(N_TYPES):
        if kept[t] < st.own[p, t] and unit_wage(st, d, p, t, mult) <= left:
            return False
    return True


@kernel
def keep_apply(st, d: Data, p: int, mult: int, kind: int, t: int) -> int:
    """Keep one more counter of type t, or (DONE) pay for the kept set and release the rest; return the number of
    counters released (0 while choosing). Basic game: the fired counters wait in ``st.fired`` for a city
    (CT-FIRE-2). Advanced game: they return to the reserve and each costs 1 reputation step in April-July or 3 VP
    in August-September (CT-ADV-WAGE-1)."""
    rules = st.rules
    if kind == KEEP:
        st.plan[t] += 1
        return 0
    st.pl[p, PL.money] -= kept_cost(st, d, p, mult)
    released = 0
    for u in range(N_TYPES):
        gone = st.own[p, u] - st.plan[u]
        released += gone
        st.own[p, u] = st.plan[u]
        if rules[R.advanced]:
            st.reserve[u] += gone
        else:
            st.fired[u] += gone
    if rules[R.advanced] and released > 0:
        if late_season(st, d):
            lose_vp(st, p, released * rules[R.wage_release_vp])
        else:
            change_rep(st, d, p, -released)
    return released


@kernel
def fired_city_options(st) -> int:
    """Fill ``st.options[i, 0]`` with the cities whose talent group may receive fired talent (H9): every city holding
    talent (CT-FIRE-2; a lone character's city too with ``lone_character_occupies``, CT-AMB-9); return the count."""
    n = 0
    for c in range(st.city_item.shape[0]):
        if city_talent_count(st, c) > 0 or (st.rules[R.lone_character_occupies] and st.city_char[c] >= 0):
            st.options[n, 0] = c
            n += 1
    return n


@kernel
def fired_chooser(st, firer: int) -> int:
    """Who places fired talent among several cities: the player on the firer's right (CT-FIRE-2/3); in solitaire
    the player (CT-AMB-8), or -1 when ``solo_fired_city`` lets the engine pick the farthest city."""
    n = st.meta[M.n_players]
    if n == 1:
        return -1 if st.rules[R.solo_fired_city] == SOLO_FARTHEST else firer
    return (firer - 1 + n) % n


@kernel
def fired_city_default(st, d: Data, chooser: int, firer: int, n_opt: int) -> int:
    """Default choice among the first ``n_opt`` option cities: nearest to the chooser's train, ties farthest from
    the firer's, then the lowest index (CT-AMB-33); with no chooser, the city farthest from the firer (CT-AMB-8
    switch)."""
    best = -1
    for i in range(n_opt):
        c = st.options[i, 0]
        if best < 0:
            best = c
            continue
        far_c = d.dist[st.pl[firer, PL.city], c]
        far_b = d.dist[st.pl[firer, PL.city], best]
        if chooser < 0:
            if far_c > far_b:
                best = c
            continue
        near_c = d.dist[st.pl[chooser, PL.city], c]
        near_b = d.dist[st.pl[chooser, PL.city], best]
        if near_c < near_b or (near_c == near_b and far_c > far_b):
            best = c
    return best


@kernel
def place_fired(st, c: int) -> None:
    """Fired talent joins city c's group as one group; c = -1 (no talent on the board) -> the reserve (CT-FIRE-2)."""
    for t in range(N_TYPES):
        if c >= 0:
            st.city_talent[c, t] += st.fired[t]
        else:
            st.reserve[t] += st.fired[t]
        st.fired[t] = 0


@kernel
def pay_all_or_nothing_left(st, d: Data, p: int, mult: int) -> None:
    """Pay the whole bill, or all the money if it is short, firing nobody: the solitaire end wages (CT-SOLO-6,
    CT-AMB-26) and the old reading of unpayable taxes (``taxes_fire=False``, CT-AMB-14)."""
    st.pl[p, PL.money] = max(0, st.pl[p, PL.money] - wage_bill(st, d, p, mult))
