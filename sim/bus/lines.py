"""Line-expansion legality and stick placement (BUS-EXP-*): adjacency arrays plus per-street player bitmasks."""

from __future__ import annotations

import numpy as np

from sim.bus.data import Board
from sim.bus.state import State
from sim.bus.rules import R
from sim.bus.state import PL
from sim.core.jit import kernel
from sim.core.state import M

KIND_FREE = 0  # BUS-EXP-8: a street with no stick
KIND_EXC1 = 1  # BUS-EXP-9: exception 1, no free street at this end
KIND_EXC2 = 2  # BUS-EXP-10: exception 2, every occupant has an end here


@kernel
def other_end(b: Board, street: int, x: int) -> int:
    """The intersection across ``street`` from ``x``."""
    return b.st_b[street] if b.st_a[street] == x else b.st_a[street]


@kernel
def has_free_street(s: State, x: int) -> bool:
    """F(X) is not empty: some street at x holds no stick of anyone (BUS-EXP-8)."""
    return s.free[x] > 0


@kernel
def occupy(b: Board, s: State, p: int, street: int) -> None:
    """p's stick on ``street``; a street that was free leaves the free count of both its intersections."""
    if s.occ[street] == 0:
        s.free[b.st_a[street]] -= 1
        s.free[b.st_b[street]] -= 1
    s.occ[street] |= np.int64(1) << p


@kernel
def occupants_end_here(s: State, street: int, x: int) -> bool:
    """BUS-EXP-10 / BUS-AMB-6: every player on ``street`` has an end at x (strict: that end's last stick is it)."""
    m = s.occ[street]
    for q in range(s.meta[M.n_players]):
        if (m >> q) & 1:
            ok = False
            for e in range(2):
                strict = s.rules[R.parallel_requires_end_stick] != 0
                if s.pl[q, PL.e0 + e] == x and (not strict or s.pl[q, PL.es0 + e] == street):
                    ok = True
            if not ok:
                return False
    return True


@kernel
def legal_sticks(b: Board, s: State, p: int, opt: np.ndarray) -> int:
    """Fill ``opt[i] = (end, street, kind)`` with every legal next stick of player p; return the count.

    Legal set (BUS-EXP-6..11): s touches an end X (EXP-6), holds no stick of p (EXP-7), and is free
    (EXP-8), or X has no free street (EXP-9, exception 1, judged per end by BUS-AMB-5), or every
    occupant of s has an end at X (EXP-10, exception 2). A closed circuit (both ends at one
    intersection, BUS-EXP-13) lists its moves once. No sticks left -> no move (BUS-COMP-3).
    """
    n = 0
    if s.pl[p, PL.sticks] <= 0 or s.pl[p, PL.e0] < 0:
        return 0
    bit = np.int64(1) << p
    e0 = s.pl[p, PL.e0]
    e1 = s.pl[p, PL.e0 + 1]
    n_ends = 1 if e0 == e1 else 2
    free_any = has_free_street(s, e0) or has_free_street(s, e1)
    for e in range(n_ends):
        x = s.pl[p, PL.e0 + e]
        free_here = has_free_street(s, x)
        exc1 = (not free_here) if s.rules[R.exception1_per_end] else (not free_any)
        for j in range(b.deg[x]):
            st = b.inc_s[x, j]
            m = s.occ[st]
            if m & bit:
                continue  # BUS-EXP-7: never double your own street
            kind = -1
            if m == 0:
                kind = KIND_FREE
            elif exc1:
                kind = KIND_EXC1
            elif occupants_end_here(s, st, x):
                kind = KIND_EXC2
            if kind >= 0:
                opt[n, 0] = e
                opt[n, 1] = st
                opt[n, 2] = kind
                n += 1
    return n


@kernel
def stick_is_legal(b: Board, s: State, p: int, e: int, street: int) -> bool:
    """Independent per-move check of BUS-EXP-6..10 (used by checked mode, BUS-INV-8, and tests)."""
    if s.pl[p, PL.sticks] <= 0:
        return False
    x = s.pl[p, PL.e0 + e]
    if x < 0 or (b.st_a[street] != x and b.st_b[street] != x):
        return False  # BUS-EXP-6: only from an end
    if (s.occ[street] >> p) & 1:
        return False  # BUS-EXP-7
    if s.occ[street] == 0:
        return True  # BUS-EXP-8
    if s.rules[R.exception1_per_end]:
        no_free = not has_free_street(s, x)
    else:
        no_free = not (has_free_street(s, s.pl[p, PL.e0]) or has_free_street(s, s.pl[p, PL.e0 + 1]))
    if no_free:
        return True  # BUS-EXP-9
    return occupants_end_here(s, street, x)  # BUS-EXP-10


@kernel
def lay_first_stick(b: Board, s: State, p: int, street: int) -> None:
    """BUS-SETUP-8: the line becomes this street; its ends are the street's two intersections."""
    a = b.st_a[street]
    c = b.st_b[street]
    occupy(b, s, p, street)
    s.own[p, a] += 1
    s.own[p, c] += 1
    s.pl[p, PL.sticks] -= 1
    s.pl[p, PL.e0] = a
    s.pl[p, PL.e0 + 1] = c
    s.pl[p, PL.es0] = street
    s.pl[p, PL.es0 + 1] = street


@kernel
def place_stick(b: Board, s: State, p: int, e: int, street: int) -> int:
    """Lay one stick from end e (BUS-EXP-12/13); return the new end. Closing a loop keeps the end at Y.

    A closed circuit (the new end equals the other end) takes a loop-marker cube only when
    ``loop_marker_costs_cube`` is set (BUS-AMB-3, BUS-COMP-4).
    """
    x = s.pl[p, PL.e0 + e]
    y = other_end(b, street, x)
    closes = s.own[p, y] > 0
    occupy(b, s, p, street)
    s.own[p, x] += 1
    s.own[p, y] += 1
    s.pl[p, PL.sticks] -= 1
    s.pl[p, PL.e0 + e] = y
    s.pl[p, PL.es0 + e] = street
    if closes:
        s.pl[p, PL.loops] += 1
        if y == s.pl[p, PL.e0 + 1 - e] and s.rules[R.loop_marker_costs_cube] and s.pl[p, PL.cubes] > 0:
            s.pl[p, PL.cubes] -= 1
            s.pl[p, PL.spent] += 1
            s.pl[p, PL.markers] += 1
    return y


@kernel
def line_is_trail(b: Board, s: State, p: int) -> bool:
    """BUS-INV-3 by Euler: own streets connected, odd-degree intersections exactly the two ends (none if equal)."""
    e0 = s.pl[p, PL.e0]
    e1 = s.pl[p, PL.e0 + 1]
    n_inter = b.deg.shape[0]
    bit = np.int64(1) << p
    for v in range(n_inter):
        d = 0
        for j in range(b.deg[v]):
            if s.occ[b.inc_s[v, j]] & bit:
                d += 1
        if d != s.own[p, v]:
            return False
        odd = d % 2 == 1
        should = (v == e0 or v == e1) and e0 != e1
        if odd != should:
            return False
    if s.own[p, e0] == 0:
        return False
    seen = s.scratch
    for v in range(n_inter):
        seen[v] = 0
    # Depth-first walk over own streets from e0 (checked mode only, so the stack may allocate).
    stack = np.empty(n_inter, dtype=np.int64)
    top = 0
    stack[top] = e0
    top += 1
    seen[e0] = 1
    while top > 0:
        top -= 1
        v = stack[top]
        for j in range(b.deg[v]):
            if s.occ[b.inc_s[v, j]] & bit:
                w = b.inc_o[v, j]
                if seen[w] == 0:
                    seen[w] = 1
                    stack[top] = w
                    top += 1
    for v in range(n_inter):
        if s.own[p, v] > 0 and seen[v] == 0:
            return False
    return True
