"""Special Characters (optional rule): recruiting on arrival and Ringmaster Ronald's choice (CT-OPT-CHAR-4/7/12).
Their other powers live where they act: Bill in movement, Sam in hire, Eddie in advanced, Bertha in perform, Ted
in wages; drawing them in roustabout."""

from __future__ import annotations


from sim.circus_train.calendar import season_of
from sim.circus_train.data import ACROBAT, CLOWN, RONALD, Data
from sim.circus_train.movement import owns_character
from sim.circus_train.points import success_max
from sim.circus_train.rules import R
from sim.circus_train.state import LOC_PLAYER, PL
from sim.core.jit import kernel
from sim.core.rng import randint


@kernel
def can_recruit(st, d: Data, p: int, moved: bool) -> bool:
    """A character stands on the city where p's movement of at least one step ended (CT-OPT-CHAR-4, CT-AMB-4);
    green characters only in April-May (CT-OPT-CHAR-12), yellow ones only in June-July with
    ``character_yellow_window`` (CT-AMB-40)."""
    rules = st.rules
    k = st.city_char[st.pl[p, PL.city]]
    if not rules[R.special_characters] or k < 0 or not (moved or not rules[R.claim_requires_step]):
        return False
    season = season_of(st, d)
    if d.ctr_season[k] == 0:
        return season == 0
    if rules[R.character_yellow_window]:
        return season == 1
    return True


@kernel
def recruit(st, d: Data, p: int) -> int:
    """One recruiting roll: 1-4 (advanced: the reputation box) and the character joins p (CT-OPT-CHAR-4).
    Returns the die."""
    c = st.pl[p, PL.city]
    die = 1 + randint(st.rng, 6)
    if die <= success_max(st, d, p, st.rules[R.hire_success_max]):
        k = st.city_char[c]
        st.city_char[c] = -1
        st.ctr_owner[k] = p
        st.ctr_where[k] = LOC_PLAYER
    return die


@kernel
def ronald_options(st, d: Data, p: int) -> int:
    """Fill ``st.options[i, 0]`` with Ringmaster Ronald's choices for a performance (H13): -1 (not used), and clowns or
    acrobats if p owns at least one (CT-OPT-CHAR-7). Return the count."""
    st.options[0, 0] = -1
    n = 1
    if owns_character(st, d, p, RONALD):
        for t in (CLOWN, ACROBAT):
            if st.own[p, t] >= 1:
                st.options[n, 0] = t
                n += 1
    return n
