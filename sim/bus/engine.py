"""Bus kernels: setup, planning, the seven actions in order, end conditions and scoring, a chunk per call."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.bus import records as rc
from sim.bus.data import Board
from sim.bus.lines import (KIND_EXC1, KIND_EXC2, has_free_street, lay_first_stick, legal_sticks, line_is_trail,
                           other_end, place_stick, stick_is_legal)
from sim.bus.rules import (R_CITY_FULL_NOW, R_CLOCK_ROUND1, R_CUBES, R_FIVE_BONUS, R_GEMS_3P, R_GEMS_45P,
                           R_PASSENGERS, R_SETUP_BUILDINGS, R_SHORT_MASK, R_SLOTS, R_START_PAX, R_STICKS_LONG,
                           R_STICKS_SHORT)
from sim.bus.schema import (W_BUILDING, W_CLOCK, W_DELIVERY, W_PLAN, W_STATION, W_STICK, WIDTH, D_BUILDING, D_CLOCK, D_EXPAND, D_FROM, D_PLAN, D_SETUP_BUILDING, D_SETUP_STICK,
                            D_STATION, D_TO, F_ACT_EXP, F_AMOUNT, F_BIAS, F_BLD_AFTER, F_BLD_EFFECTIVE, F_BLD_MINE,
                            F_BLD_MINE_ONLY, F_BLD_NEXT, F_BLD_NOW, F_BLD_OPP, F_BLD_PAX_HERE, F_BUS_BEHIND,
                            F_BUS_IS_MAX, F_CLOCK_GAIN, F_CUBES_LEFT, F_END_WIN, F_EXP_EFFECTIVE, F_FROM_OPP,
                            F_FROM_STATION, F_GEMS_LEFT, F_LAST_GEM, F_LEAD, F_MY_GEMS, F_MY_STATIONS, F_PASS,
                            F_PAX_EFFECTIVE, F_PLACED, F_ROUND, F_SLOT, F_ST_BLD, F_ST_FREE, F_ST_FUTURE, F_ST_LOOP,
                            F_ST_NEW, F_ST_OPP, F_ST_PAX, F_ST_SPACE, F_ST_STATION, F_ST_TOWARD, F_START_GAIN,
                            F_STN_MINE, F_STN_OPP, F_STN_PAX, F_STOP, F_TO_MINE_ONLY, F_TO_OPP, F_VROOM_EST,
                            F_WASTED)
from sim.bus.state import (A_BLD, A_BUS, A_CLOCK, A_EXP, A_PAX, A_START, A_VROOM, G_BOARD_PAX, G_BUILT,
                           G_BUSES_BOUGHT, G_CHECK, G_CITY_FULL, G_CLOCK, G_COUNTER, G_CUBES_BUS, G_DECISIONS,
                           G_DELIVERED, G_EMPTY, G_END_REASON, G_ENDED, G_FROM_STATION, G_GEM_ROUND, G_GEMS,
                           G_GEMS0, G_GEMS_TAKEN, G_LAST_GEM_SEAT, G_M, G_N, G_PAX_PLACED, G_ROUND, G_ROUND_CAP,
                           G_SHORT_MASK, G_START, G_SUPPLY, G_TIE_BREAK, G_TYPE_COUNT, G_VROOM_T, G_ZONE_EMPTY,
                           G_ZONE_FULL, MULTI_OF, N_ACTIONS, P_ACT, P_AT, P_BUSES, P_BUYS, P_CUBES, P_E0, P_ES0,
                           P_EXC1, P_EXC2, P_FIRST_GEM, P_GEMS, P_LIMIT, P_LOOPS, P_MARKERS, P_PASSED,
                           P_PLACED, P_PLAN_CUBES, P_POINTS, P_ROUND_DELIV, P_ROUND_VROOM, P_SPENT, P_START_ROUNDS,
                           P_STICKS, P_WASTED, SINGLE_OF, State)
from sim.core.ranking import rank_seats
from sim.core.rng import randint, seed_game
from sim.core.structs import borrow
from sim.core.trace import emit
from strategies.core import POLICY_RANDOM, choose

# Event types of the trace (rendered by sim/bus/replay.py).
E_SETUP_BLD = 1  # seat, space, type, intersection, zone
E_SETUP_STICK = 2  # seat, street, a, b
E_ROUND = 3  # start seat, M, clock, gems on clock, supply
E_PLAN = 4  # seat, action, slot
E_PASS = 5  # seat, forced
E_ACTION = 6  # seat, action, slot, amount
E_STICK = 7  # seat, street, from, to, kind, closes loop
E_BUS = 8  # seat, buses, M
E_PAX = 9  # seat, station, supply left
E_BLD = 10  # seat, space, type, intersection, zone
E_CLOCK = 11  # seat (-1 none), stopped, new clock, gems left
E_VROOM = 12  # seat, slot, d, buses, target type
E_DELIVER = 13  # seat, from, to, points
E_START = 14  # next start seat, taken (1) or passed on (0)
E_LINE = 15  # seat, end 0, end 1, sticks used, points
E_END = 16  # end reason code
E_SCORE = 17  # seat, points, gems, score, rank
E_CITY_FULL = 18  # seat that filled the last space


@njit(cache=True)
def ev(s: State, seat: int, etype: int, a0: int = 0, a1: int = 0, a2: int = 0, a3: int = 0, a4: int = 0) -> None:
    """Record an event when tracing (a zero-row trace buffer records nothing)."""
    if s.trace.shape[0] > 0:
        s.tn[0] = emit(s.trace, s.tn[0], s.g[G_ROUND], seat, etype, a0, a1, a2, a3, a4)


@njit(cache=True)
def pick(s: State, p: int, decision: int, n_opt: int) -> int:
    """The seat's strategy chooses among ``n_opt`` options whose features are filled (one option: no decision).

    Only the leading WIDTH[decision] features are scored: the rest are zero for this decision.
    """
    if n_opt <= 1:
        return 0
    s.g[G_DECISIONS] += 1
    return choose(s.skind, s.sparams, s.sweights, s.strat[p], decision, s.feat, 0, WIDTH[decision], n_opt, s.rng,
                  s.scores)


@njit(cache=True)
def scored(s: State, p: int) -> bool:
    """True when p's strategy reads features (a random policy does not, so the kernel skips filling them)."""
    return s.skind[s.strat[p]] != POLICY_RANDOM


@njit(cache=True)
def clear_features(s: State, n_opt: int, width: int) -> None:
    """Zero the first ``width`` features of the first ``n_opt`` options and set their bias feature."""
    feat = s.feat
    for f in range(width):
        for i in range(n_opt):
            feat[f, i] = 0.0
    for i in range(n_opt):
        feat[F_BIAS, i] = 1.0


@njit(cache=True)
def opponents_at(s: State, p: int, x: int) -> int:
    """Number of other players whose line touches intersection x (BUS-AMB-28)."""
    c = 0
    for q in range(s.g[G_N]):
        if q != p and s.own[q, x] > 0:
            c += 1
    return c


@njit(cache=True)
def score_of(s: State, p: int) -> int:
    return s.pl[p, P_POINTS] - s.pl[p, P_GEMS]


@njit(cache=True)
def lead_of(s: State, p: int) -> int:
    """My score minus the best opponent score."""
    best = -(1 << 30)
    for q in range(s.g[G_N]):
        if q != p and score_of(s, q) > best:
            best = score_of(s, q)
    return score_of(s, p) - best


@njit(cache=True)
def line_want_room(s: State, p: int, t: int) -> tuple:
    """Σ want and Σ room over p's line if settling under type t now (BUS-VROOM-2)."""
    w = 0
    r = 0
    for x in range(s.pax.shape[0]):
        if s.own[p, x] > 0:
            c = s.cap[x, t]
            sat = min(s.pax[x], c)
            w += s.pax[x] - sat
            r += c - sat
    return w, r


@njit(cache=True)
def delivery_count(s: State, p: int) -> int:
    """BUS-VROOM-6: d = min(buses, Σ want, Σ room) over p's line, using the settled want/room arrays."""
    w = 0
    r = 0
    for x in range(s.pax.shape[0]):
        if s.own[p, x] > 0:
            w += s.want[x]
            r += s.room[x]
    return min(s.pl[p, P_BUSES], w, r)


@njit(cache=True)
def settle(s: State, t: int) -> None:
    """BUS-VROOM-2 / BUS-AMB-13: one passenger per T-building is satisfied; the rest want to travel."""
    for x in range(s.pax.shape[0]):
        c = s.cap[x, t]
        sat = min(s.pax[x], c)
        s.want[x] = s.pax[x] - sat
        s.room[x] = c - sat


@njit(cache=True)
def open_zone(s: State) -> int:
    """BUS-BLD-3: the lowest zone (A=0 .. D=3) with an empty space, -1 when the city is full."""
    for z in range(4):
        if s.g[G_ZONE_EMPTY + z] > 0:
            return z
    return -1


@njit(cache=True)
def next_type(s: State) -> int:
    """The type the hand shows after time runs this round (BUS-CLOCK-4, BUS-AMB-10/11)."""
    return (s.g[G_CLOCK] + 1) % 3


@njit(cache=True)
def reset_game(b: Board, R: np.ndarray, s: State) -> None:
    """BUS-SETUP-1..6: colours, discs at 0, gems on the clock, hand on House, central passengers, seat 0 starts."""
    n = s.g[G_N]
    check = s.g[G_CHECK]
    s.g[:] = 0
    s.g[G_N] = n
    s.g[G_CHECK] = check
    s.pl[:, :] = 0
    s.occ[:] = 0
    s.own[:, :] = 0
    s.bld[:] = -1
    s.cap[:, :] = 0
    s.nbld[:] = 0
    s.pax[:] = 0
    s.slot[:, :] = -1
    s.nslot[:] = 0
    s.single[:] = -1
    s.slot_cubes[:, :] = 0
    s.tn[0] = 0
    mask = R[R_SHORT_MASK]
    if mask < 0:  # BUS-AMB-21: the 18-stick colours go to random seats
        mask = 0
        k = 0
        while k < n - 3:
            q = randint(s.rng, n)
            if not (mask >> q) & 1:
                mask |= np.int64(1) << q
                k += 1
    s.g[G_SHORT_MASK] = mask
    for p in range(n):
        limit = R[R_STICKS_SHORT] if (mask >> p) & 1 else R[R_STICKS_LONG]  # BUS-COMP-3
        s.pl[p, P_LIMIT] = limit
        s.pl[p, P_STICKS] = limit
        s.pl[p, P_CUBES] = R[R_CUBES]  # BUS-COMP-4 / BUS-SETUP-6: 21 cubes, one is the first bus
        s.pl[p, P_BUSES] = 1
        s.pl[p, P_E0] = -1
        s.pl[p, P_E0 + 1] = -1
        s.pl[p, P_ES0] = -1
        s.pl[p, P_ES0 + 1] = -1
        s.pl[p, P_FIRST_GEM] = -1
    gems = R[R_GEMS_3P] if n == 3 else R[R_GEMS_45P]  # BUS-SETUP-3
    s.g[G_GEMS] = gems
    s.g[G_GEMS0] = gems
    s.g[G_CLOCK] = 0  # BUS-SETUP-4: House
    s.g[G_START] = 0  # BUS-SETUP-6 / BUS-AMB-23: seat 0 is the drawn first player
    s.g[G_M] = 1
    s.g[G_LAST_GEM_SEAT] = -1
    s.g[G_END_REASON] = -1
    for i in range(5):
        s.g[G_GEM_ROUND + i] = -1
    placed = 0
    for c in b.central:  # BUS-SETUP-5
        s.pax[c] += R[R_START_PAX]
        placed += R[R_START_PAX]
    s.g[G_BOARD_PAX] = placed
    s.g[G_SUPPLY] = R[R_PASSENGERS] - placed
    s.g[G_EMPTY] = b.sp_inter.shape[0]
    for z in range(4):
        s.g[G_ZONE_EMPTY + z] = b.zone_n[z]
        s.g[G_ZONE_FULL + z] = -1 if b.zone_n[z] > 0 else 0
    total_slots = 4 * R[R_SLOTS] + 3
    s.g[G_ROUND_CAP] = (R[R_CUBES] + 1) // 2 if total_slots >= 2 * n else n * R[R_CUBES]


# ----------------------------------------------------------------------------------------------- buildings


@njit(cache=True)
def fill_building_features(s: State, p: int, n_opt: int) -> None:
    """Features of (space, type) options in s.opt[:, 0:2]; the expected target is the clock's next type."""
    clear_features(s, n_opt, W_BUILDING)
    t_next = next_type(s)
    for i in range(n_opt):
        x = s.opt[i, 2]
        t = s.opt[i, 1]
        mine = s.own[p, x] > 0
        opp = opponents_at(s, p, x)
        s.feat[F_BLD_MINE, i] = 1.0 if mine else 0.0
        s.feat[F_BLD_OPP, i] = opp
        s.feat[F_BLD_NEXT, i] = 1.0 if t == t_next else 0.0
        s.feat[F_BLD_NOW, i] = 1.0 if t == s.g[G_CLOCK] else 0.0
        s.feat[F_BLD_AFTER, i] = 1.0 if t == (t_next + 1) % 3 else 0.0
        s.feat[F_BLD_PAX_HERE, i] = s.pax[x] if t == t_next else 0.0
        s.feat[F_BLD_MINE_ONLY, i] = 1.0 if mine and opp == 0 else 0.0


@njit(cache=True)
def put_building(b: Board, s: State, space: int, t: int) -> None:
    """Place a building of type t on an empty space; track zone fill and BUS-BLD-4 / BUS-END-3 arming."""
    x = b.sp_inter[space]
    z = b.sp_zone[space]
    s.bld[space] = t
    s.cap[x, t] += 1
    s.nbld[x] += 1
    s.g[G_EMPTY] -= 1
    s.g[G_BUILT] += 1
    s.g[G_TYPE_COUNT + t] += 1
    s.g[G_ZONE_EMPTY + z] -= 1
    if s.g[G_ZONE_EMPTY + z] == 0:
        s.g[G_ZONE_FULL + z] = s.g[G_ROUND]
    if s.g[G_EMPTY] == 0:
        s.g[G_CITY_FULL] = 1


@njit(cache=True)
def build_one(b: Board, s: State, p: int, setup: bool) -> bool:
    """One building by p: setup -> any empty zone-A space (BUS-SETUP-7), else the open zone (BUS-BLD-2/3)."""
    z = 0 if setup else open_zone(s)
    if z < 0:
        return False  # BUS-BLD-4: no empty space left
    for x in range(s.scratch.shape[0]):
        s.scratch[x] = 0
    n = 0
    for sp in range(b.sp_inter.shape[0]):
        x = b.sp_inter[sp]
        if s.bld[sp] < 0 and b.sp_zone[sp] == z and s.scratch[x] == 0:
            s.scratch[x] = 1  # spaces of one zone at one intersection are interchangeable: list the first
            for t in range(3):
                s.opt[n, 0] = sp
                s.opt[n, 1] = t
                s.opt[n, 2] = b.sp_inter[sp]
                n += 1
    if n == 0:
        return False
    i = 0
    if n > 1:
        if scored(s, p):
            fill_building_features(s, p, n)
        i = pick(s, p, D_SETUP_BUILDING if setup else D_BUILDING, n)
    sp = s.opt[i, 0]
    t = s.opt[i, 1]
    put_building(b, s, sp, t)
    ev(s, p, E_SETUP_BLD if setup else E_BLD, sp, t, b.sp_inter[sp], b.sp_zone[sp])
    if s.g[G_EMPTY] == 0:
        ev(s, p, E_CITY_FULL)
    return True


# ----------------------------------------------------------------------------------------------- lines


@njit(cache=True)
def nearest_target(b: Board, s: State, p: int, v: int) -> int:
    """Hops from v to the nearest intersection with passengers that p's line does not touch (0 if none)."""
    best = 1 << 20
    for z in range(s.pax.shape[0]):
        if s.pax[z] > 0 and s.own[p, z] == 0 and b.dist[v, z] < best:
            best = b.dist[v, z]
    return best if best < (1 << 20) else 0


@njit(cache=True)
def free_streets_at(b: Board, s: State, x: int, skip: int) -> int:
    c = 0
    for j in range(b.deg[x]):
        st = b.inc_s[x, j]
        if st != skip and s.occ[st] == 0:
            c += 1
    return c


@njit(cache=True)
def fill_stick_features(b: Board, s: State, p: int, n_opt: int) -> None:
    """Features of (end, street) options: what the new end reaches, how free the street and its future are."""
    clear_features(s, n_opt, W_STICK)
    for i in range(n_opt):
        st = s.opt[i, 1]
        x = s.pl[p, P_E0 + s.opt[i, 0]]
        y = other_end(b, st, x)
        new = s.own[p, y] == 0
        m = s.occ[st]
        c = 0
        while m:
            c += m & 1
            m >>= 1
        s.feat[F_ST_FREE, i] = 1.0 if s.occ[st] == 0 else 0.0
        s.feat[F_ST_OPP, i] = c
        s.feat[F_ST_FUTURE, i] = free_streets_at(b, s, y, st)
        s.feat[F_ST_TOWARD, i] = nearest_target(b, s, p, x) - nearest_target(b, s, p, y)
        if new:
            s.feat[F_ST_NEW, i] = 1.0
            s.feat[F_ST_PAX, i] = s.pax[y]
            s.feat[F_ST_STATION, i] = b.is_station[y]
            s.feat[F_ST_BLD, i] = s.nbld[y]
            s.feat[F_ST_SPACE, i] = s.nspace[y] - s.nbld[y]
        else:
            s.feat[F_ST_LOOP, i] = 1.0


@njit(cache=True)
def expand_one(b: Board, R: np.ndarray, s: State, p: int) -> bool:
    """One stick from one end (BUS-EXP-4/5): False when no legal (end, street) exists or no stick is left."""
    n = legal_sticks(b, s, R, p, s.opt)
    if n == 0:
        return False
    i = 0
    if n > 1:
        if scored(s, p):
            fill_stick_features(b, s, p, n)
        i = pick(s, p, D_EXPAND, n)
    e = s.opt[i, 0]
    st = s.opt[i, 1]
    kind = s.opt[i, 2]
    if s.g[G_CHECK] and not stick_is_legal(b, s, R, p, e, st):
        raise AssertionError("BUS-INV-8: enumerated stick fails the legality check")
    x = s.pl[p, P_E0 + e]
    closes = 1 if s.own[p, other_end(b, st, x)] > 0 else 0
    y = place_stick(b, s, R, p, e, st)
    if kind == KIND_EXC1:
        s.pl[p, P_EXC1] += 1
    elif kind == KIND_EXC2:
        s.pl[p, P_EXC2] += 1
    ev(s, p, E_STICK, st, x, y, kind, closes)
    if s.g[G_CHECK] and not line_is_trail(b, s, p):
        raise AssertionError("BUS-INV-3: a line is not a single trail between its ends")
    return True


@njit(cache=True)
def setup_first_stick(b: Board, s: State, p: int) -> None:
    """BUS-SETUP-8: any street, shared or not."""
    n_st = b.st_a.shape[0]
    clear_features(s, n_st, W_STICK)
    for st in range(n_st):
        if not scored(s, p):
            break
        m = s.occ[st]
        c = 0
        while m:
            c += m & 1
            m >>= 1
        s.feat[F_ST_FREE, st] = 1.0 if c == 0 else 0.0
        s.feat[F_ST_OPP, st] = c
        s.feat[F_ST_NEW, st] = 2.0
        for v in (b.st_a[st], b.st_b[st]):
            s.feat[F_ST_PAX, st] += s.pax[v]
            s.feat[F_ST_STATION, st] += b.is_station[v]
            s.feat[F_ST_BLD, st] += s.nbld[v]
            s.feat[F_ST_SPACE, st] += s.nspace[v] - s.nbld[v]
            s.feat[F_ST_FUTURE, st] += free_streets_at(b, s, v, st)
    st = pick(s, p, D_SETUP_STICK, n_st)
    lay_first_stick(b, s, p, st)
    ev(s, p, E_SETUP_STICK, st, b.st_a[st], b.st_b[st])


@njit(cache=True)
def setup(b: Board, R: np.ndarray, s: State) -> None:
    """BUS-SETUP-7..11: buildings in turn order, first sticks in turn order, second sticks in reverse order."""
    n = s.g[G_N]
    for p in range(n):
        for _ in range(R[R_SETUP_BUILDINGS]):
            build_one(b, s, p, True)
    for p in range(n):
        setup_first_stick(b, s, p)
    for p in range(n - 1, -1, -1):
        if not expand_one(b, R, s, p):  # BUS-SETUP-9 / BUS-AMB-4: mandatory
            raise AssertionError("BUS-SETUP-9: no legal second stick")


# ----------------------------------------------------------------------------------------------- planning


@njit(cache=True)
def action_open(R: np.ndarray, s: State, a: int) -> bool:
    """BUS-PLAN-6/7: a single slot is free, or a multi-slot action has a free letter (BUS-AMB-1)."""
    m = MULTI_OF[a]
    if m >= 0:
        return s.nslot[m] < R[R_SLOTS]
    return s.single[SINGLE_OF[a]] < 0


@njit(cache=True)
def my_slots(s: State, m: int, p: int) -> int:
    c = 0
    for k in range(s.nslot[m]):
        if s.slot[m, k] == p:
            c += 1
    return c


@njit(cache=True)
def would_win_alone(s: State, p: int, extra_gems: int) -> bool:
    """p ranks strictly first if the game ended now with ``extra_gems`` more gems for p (BUS-SCORE-2/3)."""
    sp = score_of(s, p) - extra_gems
    gp = s.pl[p, P_GEMS] + extra_gems
    for q in range(s.g[G_N]):
        if q == p:
            continue
        sq = score_of(s, q)
        if sq > sp:
            return False
        if sq == sp:
            gq = s.pl[q, P_GEMS]
            if gq > gp:
                return False
            if gq == gp and s.pl[q, P_AT] <= s.pl[p, P_AT]:
                return False
    return True


@njit(cache=True)
def fill_plan_features(b: Board, R: np.ndarray, s: State, p: int, n_opt: int) -> None:
    """Facts about each planning option (s.opt[i, 0] = action, -1 = pass) for the current position."""
    clear_features(s, n_opt, W_PLAN)
    n = s.g[G_N]
    big_m = s.g[G_M]
    buses = s.pl[p, P_BUSES]
    t_now = s.g[G_CLOCK]
    t_next = next_type(s) if (s.g[G_ROUND] > 1 or R[R_CLOCK_ROUND1]) else t_now
    w_now, r_now = line_want_room(s, p, t_now)
    w_next, r_next = line_want_room(s, p, t_next)
    est_now = min(buses, w_now, r_now)
    est_next = min(buses, w_next, r_next)
    clock_mine = s.single[SINGLE_OF[A_CLOCK]] == p
    lead = lead_of(s, p)
    my_stations = 0
    for st in b.stations:
        if s.own[p, st] > 0:
            my_stations += 1
    for i in range(n_opt):
        a = s.opt[i, 0]
        f = s.feat
        if a < 0:  # the context of stopping for this round lives on the pass option only
            f[F_PASS, i] = 1.0
            f[F_ROUND, i] = s.g[G_ROUND]
            f[F_CUBES_LEFT, i] = s.pl[p, P_CUBES]
            f[F_PLACED, i] = s.pl[p, P_PLACED]
            f[F_LEAD, i] = lead
            continue
        f[F_ACT_EXP + a, i] = 1.0
        m = MULTI_OF[a]
        k = s.nslot[m] if m >= 0 else 0
        f[F_SLOT, i] = k
        if a == A_EXP:
            bonus = R[R_FIVE_BONUS] if n == 5 else 0
            amt = max(0, big_m + bonus - k)
            f[F_AMOUNT, i] = amt
            f[F_WASTED, i] = 1.0 if amt == 0 else 0.0
            f[F_EXP_EFFECTIVE, i] = min(amt, s.pl[p, P_STICKS])
        elif a == A_BUS:
            f[F_BUS_IS_MAX, i] = 1.0 if buses == big_m else 0.0
            f[F_BUS_BEHIND, i] = big_m - buses
        elif a == A_PAX:
            amt = max(0, big_m - k)
            before = 0
            for j in range(k):
                before += max(0, big_m - j)
            f[F_AMOUNT, i] = amt
            f[F_WASTED, i] = 1.0 if amt == 0 else 0.0
            f[F_PAX_EFFECTIVE, i] = max(0, min(amt, s.g[G_SUPPLY] - before))
            f[F_MY_STATIONS, i] = my_stations
        elif a == A_BLD:
            amt = max(0, big_m - k)
            f[F_AMOUNT, i] = amt
            f[F_WASTED, i] = 1.0 if amt == 0 else 0.0
            f[F_BLD_EFFECTIVE, i] = min(amt, s.g[G_EMPTY])
        elif a == A_CLOCK:
            f[F_CLOCK_GAIN, i] = max(0, est_now - est_next)
            f[F_GEMS_LEFT, i] = s.g[G_GEMS]
            f[F_MY_GEMS, i] = s.pl[p, P_GEMS]
            if s.g[G_GEMS] == 1:
                f[F_LAST_GEM, i] = 1.0
                f[F_END_WIN, i] = 1.0 if would_win_alone(s, p, 1) else 0.0
        elif a == A_VROOM:
            used = buses * my_slots(s, 3, p)
            best_w, best_r = (w_now, r_now) if clock_mine and est_now > est_next else (w_next, r_next)
            f[F_VROOM_EST, i] = max(0, min(buses, best_w - used, best_r - used))
        elif a == A_START:
            f[F_START_GAIN, i] = 1.0 if (s.g[G_START] + 1) % n != p else 0.0


@njit(cache=True)
def place_cube(s: State, p: int, a: int) -> int:
    """BUS-PLAN-6/7/8: take the next letter (or the single slot); return the slot index."""
    m = MULTI_OF[a]
    k = 0
    if m >= 0:
        k = s.nslot[m]
        s.slot[m, k] = p
        s.nslot[m] += 1
        s.slot_cubes[m, k] += 1
    else:
        s.single[SINGLE_OF[a]] = p
        s.g[G_CUBES_BUS + SINGLE_OF[a]] += 1
    s.pl[p, P_CUBES] -= 1
    s.pl[p, P_SPENT] += 1
    s.pl[p, P_PLACED] += 1
    s.pl[p, P_ACT + a] += 1
    return k


@njit(cache=True)
def planning(b: Board, R: np.ndarray, s: State) -> None:
    """BUS-PLAN-1..10: clockwise from the starting player, one cube or pass per turn until all passed."""
    n = s.g[G_N]
    start = s.g[G_START]
    for p in range(n):
        s.pl[p, P_PASSED] = 0
        s.pl[p, P_PLACED] = 0
        s.pl[p, P_PLAN_CUBES] = s.pl[p, P_CUBES]
        s.pl[p, P_ROUND_VROOM] = 0
        s.pl[p, P_ROUND_DELIV] = 0
    s.pl[start, P_START_ROUNDS] += 1
    ev(s, start, E_ROUND, start, s.g[G_M], s.g[G_CLOCK], s.g[G_GEMS], s.g[G_SUPPLY])
    active = n
    cur = start
    while active > 0:  # BUS-PLAN-9 (and BUS-AMB-30: forced passes end a deadlock)
        p = cur
        cur = (cur + 1) % n
        if s.pl[p, P_PASSED]:
            continue  # BUS-PLAN-3
        n_opt = 0
        if s.pl[p, P_CUBES] > 0:
            for a in range(N_ACTIONS):
                if action_open(R, s, a):
                    s.opt[n_opt, 0] = a
                    n_opt += 1
        if n_opt == 0:  # BUS-PLAN-4 / BUS-AMB-19: no cube or no legal slot -> forced pass
            s.pl[p, P_PASSED] = 1
            active -= 1
            ev(s, p, E_PASS, 1)
            continue
        if s.pl[p, P_PLACED] >= 2:  # BUS-PLAN-2: pass allowed after two cubes (BUS-PLAN-5: no maximum)
            s.opt[n_opt, 0] = -1
            n_opt += 1
        i = 0
        if n_opt > 1:
            if scored(s, p):
                fill_plan_features(b, R, s, p, n_opt)
            i = pick(s, p, D_PLAN, n_opt)
        a = s.opt[i, 0]
        if a < 0:
            s.pl[p, P_PASSED] = 1
            active -= 1
            ev(s, p, E_PASS, 0)
            continue
        k = place_cube(s, p, a)
        ev(s, p, E_PLAN, a, k)
    if s.g[G_CHECK] and 4 * R[R_SLOTS] + 3 >= 2 * n:
        for p in range(n):
            if s.pl[p, P_PLAN_CUBES] >= 2 and s.pl[p, P_PLACED] < 2:
                raise AssertionError("BUS-INV-7: a player with 2+ cubes placed fewer than 2")


# ----------------------------------------------------------------------------------------------- resolution


@njit(cache=True)
def waste(s: State, p: int) -> None:
    s.pl[p, P_WASTED] += 1


@njit(cache=True)
def resolve_expansion(b: Board, R: np.ndarray, s: State) -> None:
    """Action 1 (BUS-EXP-3..5, BUS-RES-2): last letter first, `a` last; M before this round's bus (BUS-AMB-24)."""
    n = s.g[G_N]
    big_m = s.g[G_M]
    bonus = R[R_FIVE_BONUS] if n == 5 else 0  # BUS-EXP-3: 5 players, expansion only
    for k in range(s.nslot[0] - 1, -1, -1):
        p = s.slot[0, k]
        amt = max(0, big_m + bonus - k)
        ev(s, p, E_ACTION, A_EXP, k, amt)
        laid = 0
        for _ in range(amt):
            if not expand_one(b, R, s, p):  # BUS-EXP-5 / BUS-AMB-29: stop when stuck or out of sticks
                break
            laid += 1
        if laid == 0:
            waste(s, p)


@njit(cache=True)
def resolve_bus(s: State) -> None:
    """Action 2 (BUS-BUY-1..3): +1 bus; M rises at once (BUS-RES-4)."""
    p = s.single[SINGLE_OF[A_BUS]]
    if p < 0:
        return
    s.pl[p, P_BUSES] += 1
    s.pl[p, P_BUYS] += 1
    s.g[G_BUSES_BOUGHT] += 1
    if s.pl[p, P_BUSES] > s.g[G_M]:
        s.g[G_M] = s.pl[p, P_BUSES]
    ev(s, p, E_BUS, s.pl[p, P_BUSES], s.g[G_M])


@njit(cache=True)
def resolve_passengers(b: Board, s: State) -> None:
    """Action 3 (BUS-PAX-1..4): `a` first, M - k passengers each onto a station of the player's choice."""
    n_st = b.stations.shape[0]
    for k in range(s.nslot[1]):
        p = s.slot[1, k]
        amt = max(0, s.g[G_M] - k)
        ev(s, p, E_ACTION, A_PAX, k, amt)
        placed = 0
        for _ in range(amt):
            if s.g[G_SUPPLY] == 0:
                break  # BUS-PAX-4 / BUS-AMB-25
            i = 0
            if n_st > 1:
                clear_features(s, n_st, W_STATION)
                for j in range(n_st if scored(s, p) else 0):
                    st = b.stations[j]
                    s.feat[F_STN_OPP, j] = opponents_at(s, p, st)
                    s.feat[F_STN_MINE, j] = 1.0 if s.own[p, st] > 0 else 0.0
                    s.feat[F_STN_PAX, j] = s.pax[st]
                i = pick(s, p, D_STATION, n_st)
            st = b.stations[i]
            s.pax[st] += 1
            s.g[G_SUPPLY] -= 1
            s.g[G_BOARD_PAX] += 1
            s.g[G_PAX_PLACED] += 1
            placed += 1
            ev(s, p, E_PAX, st, s.g[G_SUPPLY])
        if placed == 0:
            waste(s, p)


@njit(cache=True)
def resolve_buildings(b: Board, R: np.ndarray, s: State) -> bool:
    """Action 4 (BUS-BLD-1..4): last letter first; zone order checked before each building.

    Returns True when the city filled and ``city_full_ends_at_once`` ends the game now (BUS-AMB-17 variant).
    """
    for k in range(s.nslot[2] - 1, -1, -1):
        p = s.slot[2, k]
        amt = max(0, s.g[G_M] - k)
        ev(s, p, E_ACTION, A_BLD, k, amt)
        built = 0
        for _ in range(amt):
            if not build_one(b, s, p, False):
                break
            built += 1
        if built == 0:
            waste(s, p)
        if R[R_CITY_FULL_NOW] and s.g[G_CITY_FULL]:
            for j in range(k - 1, -1, -1):
                waste(s, s.slot[2, j])
            return True
    return False


@njit(cache=True)
def resolve_clock(R: np.ndarray, s: State) -> bool:
    """Action 5 (BUS-CLOCK-1..5): optional stop (take a gem, hand stays), else the hand advances.

    Returns True when the last gem was taken: the game ends at once (BUS-END-1, BUS-AMB-12).
    """
    p = s.single[SINGLE_OF[A_CLOCK]]
    stop = False
    if p >= 0:
        clear_features(s, 2, W_CLOCK)
        c = my_slots(s, 3, p)
        t_now = s.g[G_CLOCK]
        moves = s.g[G_ROUND] > 1 or R[R_CLOCK_ROUND1]
        t_run = next_type(s) if moves else t_now
        w0, r0 = line_want_room(s, p, t_now)
        w1, r1 = line_want_room(s, p, t_run)
        cap_d = s.pl[p, P_BUSES] * c
        last = s.g[G_GEMS] == 1
        s.feat[F_STOP, 1] = 1.0
        s.feat[F_CLOCK_GAIN, 1] = min(cap_d, w0, r0) - min(cap_d, w1, r1)
        s.feat[F_LAST_GEM, 1] = 1.0 if last else 0.0
        s.feat[F_END_WIN, 1] = 1.0 if last and would_win_alone(s, p, 1) else 0.0
        s.feat[F_MY_GEMS, 1] = s.pl[p, P_GEMS]
        s.feat[F_LEAD, 1] = lead_of(s, p)
        s.feat[F_GEMS_LEFT, 1] = s.g[G_GEMS]
        stop = pick(s, p, D_CLOCK, 2) == 1
    if stop:  # BUS-CLOCK-3
        s.pl[p, P_GEMS] += 1
        s.g[G_GEMS] -= 1
        if s.g[G_GEMS_TAKEN] < 5:
            s.g[G_GEM_ROUND + s.g[G_GEMS_TAKEN]] = s.g[G_ROUND]
        s.g[G_GEMS_TAKEN] += 1
        if s.pl[p, P_FIRST_GEM] < 0:
            s.pl[p, P_FIRST_GEM] = s.g[G_ROUND]
        ev(s, p, E_CLOCK, 1, s.g[G_CLOCK], s.g[G_GEMS])
        if s.g[G_GEMS] == 0:
            s.g[G_LAST_GEM_SEAT] = p
            return True
        return False
    if s.g[G_ROUND] > 1 or R[R_CLOCK_ROUND1]:  # BUS-CLOCK-4 / BUS-AMB-10
        s.g[G_CLOCK] = next_type(s)
    ev(s, p, E_CLOCK, 0, s.g[G_CLOCK], s.g[G_GEMS])
    return False


@njit(cache=True)
def deliver_one(b: Board, s: State, p: int) -> None:
    """BUS-VROOM-5: p picks a wanting passenger on its line and an empty target building on its line."""
    n_i = s.pax.shape[0]
    n = 0
    for x in range(n_i):
        if s.own[p, x] > 0 and s.want[x] > 0:
            s.opt[n, 0] = x
            n += 1
    i = 0
    if n > 1:
        clear_features(s, n, W_DELIVERY)
        for j in range(n if scored(s, p) else 0):
            x = s.opt[j, 0]
            s.feat[F_FROM_STATION, j] = b.is_station[x]
            s.feat[F_FROM_OPP, j] = opponents_at(s, p, x)
        i = pick(s, p, D_FROM, n)
    x = s.opt[i, 0]
    n = 0
    for y in range(n_i):
        if s.own[p, y] > 0 and s.room[y] > 0:
            s.opt[n, 0] = y
            n += 1
    i = 0
    if n > 1:
        clear_features(s, n, W_DELIVERY)
        for j in range(n if scored(s, p) else 0):
            y = s.opt[j, 0]
            opp = opponents_at(s, p, y)
            s.feat[F_TO_OPP, j] = opp
            s.feat[F_TO_MINE_ONLY, j] = 1.0 if opp == 0 else 0.0
        i = pick(s, p, D_TO, n)
    y = s.opt[i, 0]
    s.pax[x] -= 1
    s.want[x] -= 1
    s.pax[y] += 1
    s.room[y] -= 1  # BUS-VROOM-8: the delivered passenger is satisfied for the rest of this step
    s.pl[p, P_POINTS] += 1  # BUS-VROOM-7
    s.g[G_COUNTER] += 1
    s.pl[p, P_AT] = s.g[G_COUNTER]
    s.g[G_DELIVERED] += 1
    s.pl[p, P_ROUND_DELIV] += 1
    if b.is_station[x]:
        s.g[G_FROM_STATION] += 1
    ev(s, p, E_DELIVER, x, y, s.pl[p, P_POINTS])


@njit(cache=True)
def resolve_vroom(b: Board, s: State) -> None:
    """Action 6 (BUS-VROOM-1..9): settle under T once, then `a` first, each slot delivers exactly d."""
    t = s.g[G_CLOCK]
    s.g[G_VROOM_T + t] += 1
    settle(s, t)
    for k in range(s.nslot[3]):
        p = s.slot[3, k]
        d = delivery_count(s, p)
        ev(s, p, E_VROOM, k, d, s.pl[p, P_BUSES], t)
        s.pl[p, P_ROUND_VROOM] += 1
        if d == 0:
            waste(s, p)  # BUS-VROOM-9 / BUS-AMB-14
        for _ in range(d):
            deliver_one(b, s, p)
    if s.g[G_CHECK]:
        for p in range(s.g[G_N]):
            if s.pl[p, P_ROUND_DELIV] > s.pl[p, P_BUSES] * s.pl[p, P_ROUND_VROOM]:
                raise AssertionError("BUS-INV-6: more deliveries than buses x Vrroomm! cubes")
        for x in range(s.pax.shape[0]):
            if s.pax[x] - s.want[x] > s.cap[x, t]:
                raise AssertionError("BUS-INV-6: more settled passengers than target buildings")


@njit(cache=True)
def resolve_start(s: State) -> None:
    """Action 7 (BUS-START-1..3): the slot's owner starts next round, else the bus passes clockwise."""
    p = s.single[SINGLE_OF[A_START]]
    if p >= 0:
        s.g[G_START] = p
        ev(s, p, E_START, p, 1)
    else:
        s.g[G_START] = (s.g[G_START] + 1) % s.g[G_N]
        ev(s, -1, E_START, s.g[G_START], 0)


@njit(cache=True)
def lose_remaining(s: State) -> None:
    """BUS-END-1: cubes on Vrroomm! and Starting player of the collapsing round never resolve (counted wasted)."""
    for k in range(s.nslot[3]):
        waste(s, s.slot[3, k])
    if s.single[SINGLE_OF[A_START]] >= 0:
        waste(s, s.single[SINGLE_OF[A_START]])


@njit(cache=True)
def play_round(b: Board, R: np.ndarray, s: State) -> bool:
    """One round (BUS-ROUND-1): planning, resolution 1..7 (BUS-RES-1), cleanup; True when the game ended."""
    s.g[G_ROUND] += 1
    if s.g[G_ROUND] > s.g[G_ROUND_CAP]:
        raise AssertionError("BUS-ROUND-2: the game exceeded its round cap")
    planning(b, R, s)
    resolve_expansion(b, R, s)
    resolve_bus(s)
    resolve_passengers(b, s)
    if resolve_buildings(b, R, s):
        lose_remaining(s)
        s.g[G_END_REASON] = rc.END_FULL
        return True
    if resolve_clock(R, s):
        lose_remaining(s)
        s.g[G_END_REASON] = rc.END_TIME_FULL if s.g[G_CITY_FULL] else rc.END_TIME  # BUS-END-4
        return True
    resolve_vroom(b, s)
    resolve_start(s)
    # Cleanup (BUS-CLEAN-1..3): cubes off the board, then the end-of-round checks.
    s.slot[:, :] = -1
    s.nslot[:] = 0
    s.single[:] = -1
    for p in range(s.g[G_N]):
        ev(s, p, E_LINE, s.pl[p, P_E0], s.pl[p, P_E0 + 1], s.pl[p, P_LIMIT] - s.pl[p, P_STICKS],
           s.pl[p, P_POINTS])
    with_cubes = 0
    for p in range(s.g[G_N]):
        if s.pl[p, P_CUBES] > 0:
            with_cubes += 1
    out = with_cubes <= 1  # BUS-END-2 / BUS-AMB-18
    full = s.g[G_CITY_FULL] == 1  # BUS-END-3 / BUS-AMB-17
    if out and full:
        s.g[G_END_REASON] = rc.END_OUT_FULL
    elif out:
        s.g[G_END_REASON] = rc.END_OUT
    elif full:
        s.g[G_END_REASON] = rc.END_FULL
    return out or full


@njit(cache=True)
def check_invariants(b: Board, R: np.ndarray, s: State, prev: np.ndarray) -> None:
    """BUS-INV-1..5 after a round; ``prev`` holds (board passengers, M, empty spaces) of the round before."""
    n = s.g[G_N]
    on_board = 0
    for x in range(s.pax.shape[0]):
        on_board += s.pax[x]
    if on_board + s.g[G_SUPPLY] != R[R_PASSENGERS] or on_board < prev[0] or on_board != s.g[G_BOARD_PAX]:
        raise AssertionError("BUS-INV-1: passengers not conserved or left the board")
    gems = s.g[G_GEMS]
    delivered = 0
    for p in range(n):
        if s.pl[p, P_CUBES] + s.pl[p, P_SPENT] != R[R_CUBES] or s.pl[p, P_CUBES] < 0:
            raise AssertionError("BUS-INV-2: cubes not conserved")
        if s.pl[p, P_BUSES] != 1 + s.pl[p, P_BUYS]:
            raise AssertionError("BUS-INV-2: buses != 1 + buys")
        if s.pl[p, P_STICKS] < 0 or not line_is_trail(b, s, p):
            raise AssertionError("BUS-INV-3: line is not one trail or sticks over the limit")
        used = 0
        for st in range(s.occ.shape[0]):
            used += (s.occ[st] >> p) & 1
        if used != s.pl[p, P_LIMIT] - s.pl[p, P_STICKS]:
            raise AssertionError("BUS-INV-3: sticks on the board != sticks used")
        gems += s.pl[p, P_GEMS]
        delivered += s.pl[p, P_POINTS]
    if delivered != s.g[G_DELIVERED]:
        raise AssertionError("BUS-SCORE-1: points moved other than by deliveries")
    if gems != s.g[G_GEMS0]:
        raise AssertionError("BUS-INV-4: gems not conserved")
    if s.g[G_M] < prev[1]:
        raise AssertionError("BUS-INV-4: M decreased")
    if s.g[G_EMPTY] > prev[2]:
        raise AssertionError("BUS-INV-5: empty spaces increased")
    for z in range(1, 4):
        filled = b.zone_n[z] - s.g[G_ZONE_EMPTY + z]
        for lower in range(z):
            if filled > 0 and s.g[G_ZONE_EMPTY + lower] > 0:
                raise AssertionError("BUS-INV-5: a higher zone filled before a lower one")
    prev[0] = on_board
    prev[1] = s.g[G_M]
    prev[2] = s.g[G_EMPTY]


@njit(cache=True)
def final_scoring(s: State) -> None:
    """BUS-SCORE-2..4: points - gems, then more gems, then lowest disc (earliest final points), else shared."""
    n = s.g[G_N]
    for p in range(n):
        s.keys[p, 0] = score_of(s, p)
        s.keys[p, 1] = s.pl[p, P_GEMS]
        s.keys[p, 2] = -s.pl[p, P_AT]
    rank_seats(s.keys, n, s.rank)
    best = -(1 << 30)
    for p in range(n):
        best = max(best, s.keys[p, 0])
    tied = 0
    best_g = -1
    for p in range(n):
        if s.keys[p, 0] == best:
            tied += 1
            best_g = max(best_g, s.keys[p, 1])
    tie = 0
    if tied > 1:
        n_g = 0
        best_at = -(1 << 40)
        for p in range(n):
            if s.keys[p, 0] == best and s.keys[p, 1] == best_g:
                n_g += 1
                best_at = max(best_at, s.keys[p, 2])
        tie = 1
        if n_g > 1:
            n_at = 0
            for p in range(n):
                if s.keys[p, 0] == best and s.keys[p, 1] == best_g and s.keys[p, 2] == best_at:
                    n_at += 1
            tie = 2 if n_at == 1 else 3
    s.g[G_TIE_BREAK] = tie
    for p in range(n):
        ev(s, p, E_SCORE, s.pl[p, P_POINTS], s.pl[p, P_GEMS], score_of(s, p), s.rank[p])


@njit(cache=True)
def play_game(b: Board, R: np.ndarray, s: State) -> None:
    """One whole game from setup to final scoring (state already seeded and strategies assigned)."""
    reset_game(b, R, s)
    setup(b, R, s)
    prev = np.zeros(3, dtype=np.int64)
    prev[2] = s.g[G_EMPTY]
    while True:
        ended = play_round(b, R, s)
        if s.g[G_CHECK]:
            check_invariants(b, R, s, prev)
        if ended:
            break
    s.g[G_ENDED] = 1
    ev(s, -1, E_END, s.g[G_END_REASON])
    final_scoring(s)


@njit(cache=True)
def write_records(b: Board, s: State, gout: np.ndarray, pout: np.ndarray) -> None:
    """Copy one finished game into its record rows (column order of sim/bus/records.py)."""
    n = s.g[G_N]
    winners = 0
    winner = -1
    for p in range(n):
        if s.rank[p] == 1:
            winners += 1
            winner = p
    gout[rc.GC_ROUNDS] = s.g[G_ROUND]
    gout[rc.GC_END] = s.g[G_END_REASON]
    gout[rc.GC_WINNER] = winner if winners == 1 else -1
    gout[rc.GC_DECISIONS] = s.g[G_DECISIONS]
    gout[rc.GC_N_WINNERS] = winners
    gout[rc.GC_GEMS_TAKEN] = s.g[G_GEMS_TAKEN]
    gout[rc.GC_LAST_GEM] = s.g[G_LAST_GEM_SEAT]
    for i in range(5):
        gout[rc.GC_GEM_ROUND + i] = s.g[G_GEM_ROUND + i]
    gout[rc.GC_CLOCK_STOPS] = s.g[G_GEMS_TAKEN]
    gout[rc.GC_BUSES_BOUGHT] = s.g[G_BUSES_BOUGHT]
    gout[rc.GC_FINAL_M] = s.g[G_M]
    gout[rc.GC_PAX_PLACED] = s.g[G_PAX_PLACED]
    gout[rc.GC_BUILT] = s.g[G_BUILT]
    for t in range(3):
        gout[rc.GC_HOUSES + t] = s.g[G_TYPE_COUNT + t]
        gout[rc.GC_VROOM_T + t] = s.g[G_VROOM_T + t]
    for z in range(4):
        gout[rc.GC_ZONE_FULL + z] = s.g[G_ZONE_FULL + z]
    gout[rc.GC_TIE] = s.g[G_TIE_BREAK]
    cubes = 0
    wasted = 0
    for p in range(n):
        for a in range(N_ACTIONS):
            cubes += s.pl[p, P_ACT + a]
        wasted += s.pl[p, P_WASTED]
    gout[rc.GC_CUBES] = cubes
    gout[rc.GC_WASTED] = wasted
    for m in range(4):
        for k in range(6):
            gout[rc.GC_SLOT + 6 * m + k] = s.slot_cubes[m, k]
        for k in range(6, 8):
            gout[rc.GC_SLOT_EXTRA + 2 * m + k - 6] = s.slot_cubes[m, k]
    for i in range(3):
        gout[rc.GC_CUBES_BUS + i] = s.g[G_CUBES_BUS + i]
    gout[rc.GC_SHORT] = s.g[G_SHORT_MASK]
    gout[rc.GC_DELIVERED] = s.g[G_DELIVERED]
    gout[rc.GC_FROM_STATION] = s.g[G_FROM_STATION]
    gout[rc.GC_FINAL_CLOCK] = s.g[G_CLOCK]
    for p in range(n):
        row = pout[p]
        row[rc.PC_SCORE] = score_of(s, p)
        row[rc.PC_RANK] = s.rank[p]
        row[rc.PC_WON] = 1 if s.rank[p] == 1 else 0
        row[rc.PC_POINTS] = s.pl[p, P_POINTS]
        row[rc.PC_GEMS] = s.pl[p, P_GEMS]
        row[rc.PC_BUSES] = s.pl[p, P_BUSES]
        row[rc.PC_DELIVERED] = s.pl[p, P_POINTS]
        row[rc.PC_LIMIT] = s.pl[p, P_LIMIT]
        row[rc.PC_STICKS_USED] = s.pl[p, P_LIMIT] - s.pl[p, P_STICKS]
        row[rc.PC_CUBES_LEFT] = s.pl[p, P_CUBES]
        placed = 0
        for a in range(N_ACTIONS):
            row[rc.PC_ACT + a] = s.pl[p, P_ACT + a]
            placed += s.pl[p, P_ACT + a]
        row[rc.PC_CUBES_PLACED] = placed
        row[rc.PC_WASTED] = s.pl[p, P_WASTED]
        row[rc.PC_LOOPS] = s.pl[p, P_LOOPS]
        stations = 0
        for st in b.stations:
            if s.own[p, st] > 0:
                stations += 1
        covered = 0
        for x in range(s.pax.shape[0]):
            if s.own[p, x] > 0:
                covered += 1
        row[rc.PC_STATIONS] = stations
        row[rc.PC_COVERED] = covered
        row[rc.PC_FIRST_GEM] = s.pl[p, P_FIRST_GEM]
        row[rc.PC_START_ROUNDS] = s.pl[p, P_START_ROUNDS]
        row[rc.PC_EXC1] = s.pl[p, P_EXC1]
        row[rc.PC_EXC2] = s.pl[p, P_EXC2]
        row[rc.PC_AT] = s.pl[p, P_AT]
        row[rc.PC_MARKERS] = s.pl[p, P_MARKERS]


@njit(cache=True)
def play_games(b: Board, R: np.ndarray, s: State, seats: np.ndarray, first_index: int, n_games: int, seed: int,
               games_out: np.ndarray, players_out: np.ndarray) -> None:
    """Play ``n_games`` games; game i is seeded from (seed, first_index + i) and uses strategy rows seats[i]."""
    b = borrow(b)
    s = borrow(s)
    n = s.g[G_N]
    for i in range(n_games):
        seed_game(s.rng, seed, first_index + i)
        for p in range(n):
            s.strat[p] = seats[i, p]
        play_game(b, R, s)
        write_records(b, s, games_out[i], players_out[i])
