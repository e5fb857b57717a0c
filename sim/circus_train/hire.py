"""Hiring talent in a city with the d6 and the $10 buy after a failure (CT-HIRE-*, CT-ADV-HIRE-1, CT-AMB-37).

One hire action is a short sequence of decisions, each an option list from ``hire_options`` played by
``hire_apply``: DECLARE the counters to try (one ADD per counter, then GO), ROLL them one at a time in the order
the player picks, and after a failed roll BUY it for $10 or PASS. After a failure the default reading
(``hire_adaptive``) drops what is left of the declared set and returns to DECLARE, where the player may stop (GO
with nothing declared) or pick new targets among the counters not yet rolled for in this action; the switch keeps
rolling the declared set to its end.
"""

from __future__ import annotations


from sim.circus_train.data import N_TYPES, SAM, Data
from sim.circus_train.events import hire_delta
from sim.circus_train.movement import owns_character
from sim.circus_train.points import change_rep, success_max
from sim.circus_train.roustabout import city_talent_count
from sim.circus_train.rules import R
from sim.circus_train.state import GS, LOC_CHAR_RESERVE, PL
from sim.core.jit import kernel
from sim.core.rng import randint

DECLARE, ROLL, BUY = 0, 1, 2  # GS.hire_phase
ADD, GO, ROLL_ONE, BUY_IT, PASS, SAM_TAKE, SAM_REP = 0, 1, 2, 3, 4, 5, 6  # option kinds (st.options[i, 0])


@kernel
def can_hire(st, p: int) -> bool:
    """Talent on p's city (CT-HIRE-1)."""
    return city_talent_count(st, st.pl[p, PL.city]) > 0


@kernel
def hire_begin(st) -> None:
    """Start a hire action: nothing declared or rolled yet."""
    for t in range(N_TYPES):
        st.tried[t] = 0
        st.plan[t] = 0
    st.g[GS.hire_rolled] = 0
    st.g[GS.hire_phase] = DECLARE
    st.g[GS.hire_failed] = -1


@kernel
def _free(st, c: int, t: int) -> int:
    """Counters of type t on city c neither declared nor already rolled for in this action."""
    return st.city_talent[c, t] - st.tried[t] - st.plan[t]


@kernel
def _declared(st) -> int:
    k = 0
    for t in range(N_TYPES):
        k += st.plan[t]
    return k


@kernel
def _put(st, n: int, kind: int, t: int) -> int:
    st.options[n, 0] = kind
    st.options[n, 1] = t
    return n + 1


@kernel
def hire_options(st, d: Data, p: int) -> int:
    """Fill ``st.options[i] = (kind, type)`` with p's legal hire steps (H6); return the count (0 = the action is
    over)."""
    c = st.pl[p, PL.city]
    phase = st.g[GS.hire_phase]
    n = 0
    if phase == BUY:
        t = st.g[GS.hire_failed]
        if st.pl[p, PL.money] >= st.rules[R.hire_buy_cost]:  # CT-HIRE-3
            n = _put(st, n, BUY_IT, t)
        return _put(st, n, PASS, t)
    if phase == DECLARE:
        for t in range(N_TYPES):
            if _free(st, c, t) > 0:
                n = _put(st, n, ADD, t)
        if _declared(st) > 0 or st.g[GS.hire_rolled] > 0:  # a non-empty set first; after a failure, stopping
            n = _put(st, n, GO, -1)
        return n
    for t in range(N_TYPES):  # ROLL
        if st.plan[t] > 0:
            n = _put(st, n, ROLL_ONE, t)
            if owns_character(st, d, p, SAM):  # CT-OPT-CHAR-8: one talent without a roll
                n = _put(st, n, SAM_TAKE, t)
    if n > 0 and sam_reputation_allowed(st, d, p):
        n = _put(st, n, SAM_REP, -1)
    return n


@kernel
def hire_step_is_legal(st, d: Data, p: int, kind: int, t: int) -> bool:
    """Independent check of one hire step against CT-HIRE-2/3 and CT-AMB-37."""
    c = st.pl[p, PL.city]
    phase = st.g[GS.hire_phase]
    if phase == BUY:
        if t != st.g[GS.hire_failed]:
            return False
        return kind == PASS or (kind == BUY_IT and st.pl[p, PL.money] >= st.rules[R.hire_buy_cost])
    if phase == DECLARE:
        if kind == ADD:
            return 0 <= t < N_TYPES and _free(st, c, t) > 0
        return kind == GO and t == -1 and (_declared(st) > 0 or st.g[GS.hire_rolled] > 0)
    if kind == SAM_REP:
        return t == -1 and sam_reputation_allowed(st, d, p) and _declared(st) > 0
    if kind == ROLL_ONE or kind == SAM_TAKE:
        if not (0 <= t < N_TYPES and st.plan[t] > 0):
            return False
        return kind == ROLL_ONE or owns_character(st, d, p, SAM)
    return False


@kernel
def _take(st, p: int, c: int, t: int) -> None:
    st.city_talent[c, t] -= 1
    st.own[p, t] += 1


@kernel
def _after_roll(st) -> None:
    """Next phase once a counter is settled: more declared counters -> ROLL, else the action is over."""
    st.g[GS.hire_phase] = ROLL if _declared(st) > 0 else -1


@kernel
def _retire_sam(st, d: Data) -> None:
    k = d.char_counter[SAM]
    st.ctr_owner[k] = -1
    st.ctr_where[k] = LOC_CHAR_RESERVE


@kernel
def sam_reputation_allowed(st, d: Data, p: int) -> bool:
    """Advanced game: Sam's owner may use him for +1 reputation step at any time of their turn; the rulebook puts
    no timing condition on this use, unlike the free hire (CT-OPT-CHAR-8)."""
    return st.rules[R.advanced] != 0 and owns_character(st, d, p, SAM)


@kernel
def use_sam_reputation(st, d: Data, p: int) -> None:
    """+1 reputation step, then Sam goes to the special-character reserve (CT-OPT-CHAR-8)."""
    _retire_sam(st, d)
    change_rep(st, d, p, 1)


@kernel
def hire_apply(st, d: Data, p: int, kind: int, t: int) -> int:
    """Play one hire step; return the die rolled (0 when none was rolled).

    A roll of 1..success_max (basic 1-4, advanced the reputation box, CT-ADV-HIRE-1) hires the counter at no cost;
    a higher roll fails and opens the BUY step (CT-HIRE-2); an Event card may move the success limit. A failure
    ends the declared set in the adaptive reading (CT-AMB-37); a GO with nothing declared ends the action.
    """
    rules = st.rules
    c = st.pl[p, PL.city]
    if kind == ADD:
        st.plan[t] += 1
        return 0
    if kind == GO:
        st.g[GS.hire_phase] = ROLL if _declared(st) > 0 else -1
        return 0
    if kind == SAM_REP:
        use_sam_reputation(st, d, p)
        return 0
    if kind == SAM_TAKE:
        _retire_sam(st, d)
        st.plan[t] -= 1
        _take(st, p, c, t)
        _after_roll(st)
        return 0
    if kind == ROLL_ONE:
        st.plan[t] -= 1
        st.g[GS.hire_rolled] += 1
        die = 1 + randint(st.rng, 6)
        if die <= success_max(st, d, p, rules[R.hire_success_max]) + hire_delta(st, d):
            _take(st, p, c, t)
            _after_roll(st)
        else:
            st.g[GS.hire_phase] = BUY
            st.g[GS.hire_failed] = t
        return die
    # BUY_IT or PASS after a failure
    if kind == BUY_IT:
        st.pl[p, PL.money] -= rules[R.hire_buy_cost]
        _take(st, p, c, t)
    else:
        st.tried[t] += 1
    st.g[GS.hire_failed] = -1
    if rules[R.hire_adaptive]:
        for u in range(N_TYPES):
            st.plan[u] = 0
        st.g[GS.hire_phase] = DECLARE
    else:
        _after_roll(st)
    return 0


@kernel
def hire_over(st) -> bool:
    """The hire action has ended."""
    return st.g[GS.hire_phase] < 0
