"""Train movement over the rail graph (CT-MOVE-*, CT-CARD-2..8, CT-PTS-1).

A movement outcome is (end city, moved at least one step). Revisits are allowed, so with k >= 2 steps a train can
leave and come back (A -> B -> A): that return trip is a movement that ends in the start city and may claim a
counter there, unlike staying put (CT-MOVE-5).
"""

from __future__ import annotations


from sim.circus_train.data import BASIC, BILL, HOLD, POINTS, REST, Data
from sim.circus_train.events import move_cap
from sim.circus_train.points import gain_vp
from sim.circus_train.rules import R
from sim.circus_train.state import LOC_REMOVED, PL
from sim.core.jit import kernel


@kernel
def owns_character(st, d: Data, p: int, ch: int) -> bool:
    """p owns Special Character ``ch`` (optional rule, CT-OPT-CHAR-5)."""
    k = d.char_counter[ch]
    return st.rules[R.special_characters] != 0 and k >= 0 and st.ctr_owner[k] == p


@kernel
def move_bounds(st, d: Data, p: int, card: int) -> tuple:
    """(fewest, most) steps of ``card``'s movement: 0..printed range, Basic Transit's move exactly 1 (CT-CARD-5),
    Hold and Rest none; Brakeman Bill adds one step to the most (CT-OPT-CHAR-6, CT-AMB-25); an Event card may
    cap it."""
    if card == HOLD or card == REST:
        return 0, 0
    lo = 1 if card == BASIC else 0
    hi = d.card_move_max[card]
    if owns_character(st, d, p, BILL):
        hi += 1
    return lo, max(lo, move_cap(st, d, card, hi))


@kernel
def move_is_legal(d: Data, start: int, end: int, moved: bool, lo: int, hi: int) -> bool:
    """Can a walk of lo..hi steps from ``start`` end at ``end`` with ``moved`` as given (CT-MOVE-1/2/5)?"""
    if not moved:
        return end == start and lo == 0
    if hi < 1:
        return False
    if end == start:
        return hi >= 2  # out and back along any line (every city has one)
    return d.dist[start, end] <= hi


@kernel
def move_options(st, d: Data, p: int, lo: int, hi: int) -> int:
    """Fill ``st.options[i] = (end city, moved)`` with every movement outcome of lo..hi steps (H4); return the count.

    Every city at distance 1..hi (moved); the start city moved when hi >= 2 (return trip, CT-MOVE-5); the start
    city not moved when 0 steps are allowed.
    """
    start = st.pl[p, PL.city]
    options = st.options  # in a local: a store through the handle would reload it and d.dist each step
    dist = d.dist[start]
    n = 0
    if lo == 0:
        options[n, 0] = start
        options[n, 1] = 0
        n += 1
    if hi >= 2:
        options[n, 0] = start
        options[n, 1] = 1
        n += 1
    for c in range(dist.shape[0]):
        if c != start and 1 <= dist[c] <= hi:
            options[n, 0] = c
            options[n, 1] = 1
            n += 1
    return n


@kernel
def arrive(st, d: Data, p: int, city: int, moved: bool) -> int:
    """End a movement in ``city`` (CT-MOVE-3/4, CT-PTS-1); return the VP of a Points counter claimed (0 if none).

    Leaving the city of a two-week show cancels it (CT-MOVE-4, CT-TWO-4, CT-AMB-32). A Points counter goes to the
    first player who ends a movement of at least one step on it (CT-AMB-4; switch ``claim_requires_step=False``:
    also when staying).
    """
    if moved and st.pl[p, PL.show] >= 0:
        st.pl[p, PL.show] = -1
    st.pl[p, PL.city] = city
    k = st.city_item[city]
    if k >= 0 and d.ctr_kind[k] == POINTS and (moved or not st.rules[R.claim_requires_step]):
        st.city_item[city] = -1
        st.ctr_where[k] = LOC_REMOVED
        gain_vp(st, p, d.ctr_points[k])
        return d.ctr_points[k]
    return 0


