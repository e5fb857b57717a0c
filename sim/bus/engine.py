"""Bus kernels: setup, planning, the seven actions in order, end conditions and scoring; the game's hooks."""

from __future__ import annotations

import numpy as np

from sim.bus import records as rc
from sim.bus.data import Board
from sim.bus.lines import (KIND_EXC1, KIND_EXC2, lay_first_stick, legal_sticks, line_is_trail,
                           other_end, place_stick, stick_is_legal)
from sim.bus.records import GC, PC
from sim.bus.rules import R
from sim.bus.schema import D, F
from sim.bus.state import (A_BLD, A_BUS, A_CLOCK, A_EXP, A_PAX, A_START, A_VROOM, GS, LAYOUT, MULTI_OF, N_ACTIONS, PF,
                           PL, SINGLE_OF, State)
from sim.core.jit import kernel
from sim.core.names import namespace
from sim.core.play import decide, event, scored
from sim.core.play import clear_features as zero_features  # Bus's own adds the bias feature
from sim.core.ranking import rank_seats
from sim.core.rng import randint
from sim.core.seats import seat_bonus
from sim.core.state import M
from sim.core.turns import GOES_ON, bind_rounds

EV = namespace("EV", (
    "setup_bld",  # seat, space, type, intersection, zone
    "setup_stick",  # seat, street, a, b
    "round",  # start seat, M, clock, gems on clock, supply
    "plan",  # seat, action, slot
    "pass",  # seat, forced
    "action",  # seat, action, slot, amount
    "stick",  # seat, street, from, to, kind, closes loop
    "bus",  # seat, buses, M
    "pax",  # seat, station, supply left
    "bld",  # seat, space, type, intersection, zone
    "clock",  # seat (-1 none), stopped, new clock, gems left
    "vroom",  # seat, slot, d, buses, target type
    "deliver",  # seat, from, to, points
    "start",  # next start seat, taken (1) or passed on (0)
    "line",  # seat, end 0, end 1, sticks used, points
    "end",  # end reason code
    "score",  # seat, points, gems, score, rank
    "city_full",  # seat that filled the last space
), start=1)
"""Trace event types (rendered by sim/bus/replay.py); the comments list each event's arguments."""


@kernel
def set_bias(s: State, n_opt: int) -> None:
    """Set the bias feature of the first ``n_opt`` options (a decision that writes all its other features)."""
    features = s.features  # a local: stores through the handle's field would reload it every step
    for i in range(n_opt):
        features[F.bias, i] = 1.0


@kernel
def clear_features(s: State, n_opt: int, decision: int) -> None:
    """Zero the features ``decision`` fills for the first ``n_opt`` options and set their bias feature."""
    zero_features(s, decision, n_opt)
    set_bias(s, n_opt)


@kernel
def opponents_at(s: State, p: int, x: int) -> int:
    """Number of other players whose line touches intersection x (BUS-AMB-28)."""
    own = s.own
    c = 0
    for q in range(s.meta[M.n_players]):
        if q != p and own[q, x] > 0:
            c += 1
    return c


@kernel
def score_of(s: State, p: int) -> int:
    """Points minus gems (BUS-SCORE-2) plus the seat's starting points (BUS-SEAT-1, 0 in the rulebook)."""
    return s.pl[p, PL.points] - s.pl[p, PL.gems] + seat_bonus(s.rules, R.seat2_points, p)


@kernel
def rank_score(s: State, p: int) -> int:
    """The first ranking key in half points: twice the score, plus 1 when the seat wins exact ties on it (BUS-SEAT-2,
    0 in the rulebook), so such a seat beats an equal score before gems and ties only another such seat."""
    return 2 * score_of(s, p) + seat_bonus(s.rules, R.seat2_wins_ties, p)


@kernel
def lead_of(s: State, p: int) -> int:
    """My score minus the best opponent score."""
    best = -(1 << 30)
    for q in range(s.meta[M.n_players]):
        if q != p and score_of(s, q) > best:
            best = score_of(s, q)
    return score_of(s, p) - best


@kernel
def line_want_room(s: State, p: int, t0: int, t1: int) -> tuple:
    """Σ want and Σ room over p's line if settling under type t0 now, then the same under t1 (BUS-VROOM-2):
    every caller weighs the clock's type now against the next one, so one pass over the board serves both."""
    own = s.own  # locals: the loop runs over every intersection
    cap = s.cap
    pax = s.pax
    w0 = r0 = w1 = r1 = 0
    for x in range(pax.shape[0]):
        if own[p, x] > 0:
            c = cap[x, t0]
            sat = min(pax[x], c)
            w0 += pax[x] - sat
            r0 += c - sat
            c = cap[x, t1]
            sat = min(pax[x], c)
            w1 += pax[x] - sat
            r1 += c - sat
    return w0, r0, w1, r1


@kernel
def delivery_count(s: State, p: int) -> int:
    """BUS-VROOM-6: d = min(buses, Σ want, Σ room) over p's line, using the settled want/room arrays."""
    own = s.own
    want = s.want
    room = s.room
    w = 0
    r = 0
    for x in range(want.shape[0]):
        if own[p, x] > 0:
            w += want[x]
            r += room[x]
    return min(s.pl[p, PL.buses], w, r)


@kernel
def settle(s: State, t: int) -> None:
    """BUS-VROOM-2 / BUS-AMB-13: one passenger per T-building is satisfied; the rest want to travel."""
    for x in range(s.pax.shape[0]):
        c = s.cap[x, t]
        sat = min(s.pax[x], c)
        s.want[x] = s.pax[x] - sat
        s.room[x] = c - sat


@kernel
def open_zone(s: State) -> int:
    """BUS-BLD-3: the lowest zone (A=0 .. D=3) with an empty space, -1 when the city is full."""
    for z in range(4):
        if s.g[GS.zone_empty + z] > 0:
            return z
    return -1


@kernel
def next_type(s: State) -> int:
    """The type the hand shows after time runs this round (BUS-CLOCK-4, BUS-AMB-10/11)."""
    return (s.g[GS.clock] + 1) % 3


@kernel
def reset_game(b: Board, s: State) -> None:
    """BUS-SETUP-1..6: colours, discs at 0, gems on the clock, hand on House, central passengers, seat 0 starts."""
    n = s.meta[M.n_players]
    s.g[:] = 0
    s.pl[:, :] = 0
    s.occ[:] = 0
    s.free[:] = b.deg
    s.own[:, :] = 0
    s.bld[:] = -1
    s.cap[:, :] = 0
    s.nbld[:] = 0
    s.pax[:] = 0
    s.slot[:, :] = -1
    s.nslot[:] = 0
    s.single[:] = -1
    s.slot_cubes[:, :] = 0
    mask = s.rules[R.short_seats_mask]
    if mask < 0:  # BUS-AMB-21: the 18-stick colours go to random seats
        mask = 0
        k = 0
        while k < n - 3:
            q = randint(s.rng, n)
            if not (mask >> q) & 1:
                mask |= np.int64(1) << q
                k += 1
    s.g[GS.short_mask] = mask
    for p in range(n):
        limit = s.rules[R.sticks_short] if (mask >> p) & 1 else s.rules[R.sticks_long]  # BUS-COMP-3
        s.pl[p, PL.limit] = limit
        s.pl[p, PL.sticks] = limit
        s.pl[p, PL.cubes] = s.rules[R.cubes]  # BUS-COMP-4 / BUS-SETUP-6: 21 cubes, one is the first bus
        s.pl[p, PL.buses] = 1
        s.pl[p, PL.e0] = -1
        s.pl[p, PL.e0 + 1] = -1
        s.pl[p, PL.es0] = -1
        s.pl[p, PL.es0 + 1] = -1
        s.pl[p, PL.first_gem] = -1
    gems = s.rules[R.clock_gems_3p] if n == 3 else s.rules[R.clock_gems_45p]  # BUS-SETUP-3
    s.g[GS.gems] = gems
    s.g[GS.gems0] = gems
    s.g[GS.clock] = 0  # BUS-SETUP-4: House
    s.g[GS.start] = 0  # BUS-SETUP-6 / BUS-AMB-23: seat 0 is the drawn first player
    s.g[GS.m] = 1
    s.g[GS.last_gem_seat] = -1
    s.g[GS.end_reason] = -1
    for i in range(5):
        s.g[GS.gem_round + i] = -1
    placed = 0
    for c in b.central:  # BUS-SETUP-5
        s.pax[c] += s.rules[R.start_passengers_per_central]
        placed += s.rules[R.start_passengers_per_central]
    s.g[GS.board_pax] = placed
    s.g[GS.supply] = s.rules[R.passengers] - placed
    s.g[GS.empty] = b.sp_inter.shape[0]
    for z in range(4):
        s.g[GS.zone_empty + z] = b.zone_n[z]
        s.g[GS.zone_full + z] = -1 if b.zone_n[z] > 0 else 0
    total_slots = 4 * s.rules[R.slots_per_action] + 3
    s.g[GS.round_cap] = (s.rules[R.cubes] + 1) // 2 if total_slots >= 2 * n else n * s.rules[R.cubes]


# ----------------------------------------------------------------------------------------------- buildings


@kernel
def fill_building_features(s: State, p: int, n_opt: int) -> None:
    """Features of (space, type) options in s.options[:, 0:2]; the expected target is the clock's next type.
    Every feature is written (nothing to clear), and the facts of an intersection are taken once for the three
    types ``build_one`` lists together there."""
    set_bias(s, n_opt)
    features = s.features  # locals: read once, not once per option
    options = s.options
    t_next = next_type(s)
    t_now = s.g[GS.clock]
    for j in range(0, n_opt, 3):
        x = options[j, 2]
        mine = s.own[p, x] > 0
        opp = opponents_at(s, p, x)
        pax_here = s.pax[x]
        for i in range(j, j + 3):
            t = options[i, 1]
            features[F.bld_mine, i] = 1.0 if mine else 0.0
            features[F.bld_opp, i] = opp
            features[F.bld_next, i] = 1.0 if t == t_next else 0.0
            features[F.bld_now, i] = 1.0 if t == t_now else 0.0
            features[F.bld_after, i] = 1.0 if t == (t_next + 1) % 3 else 0.0
            features[F.bld_pax_here, i] = pax_here if t == t_next else 0.0
            features[F.bld_mine_only, i] = 1.0 if mine and opp == 0 else 0.0


@kernel
def put_building(b: Board, s: State, space: int, t: int) -> None:
    """Place a building of type t on an empty space; track zone fill and BUS-BLD-4 / BUS-END-3 arming."""
    x = b.sp_inter[space]
    z = b.sp_zone[space]
    s.bld[space] = t
    s.cap[x, t] += 1
    s.nbld[x] += 1
    s.g[GS.empty] -= 1
    s.g[GS.built] += 1
    s.g[GS.type_count + t] += 1
    s.g[GS.zone_empty + z] -= 1
    if s.g[GS.zone_empty + z] == 0:
        s.g[GS.zone_full + z] = s.meta[M.round]
    if s.g[GS.empty] == 0:
        s.g[GS.city_full] = 1


@kernel
def build_one(b: Board, s: State, p: int, setup: bool) -> bool:
    """One building by p: setup -> any empty zone-A space (BUS-SETUP-7), else the open zone (BUS-BLD-2/3)."""
    z = 0 if setup else open_zone(s)
    if z < 0:
        return False  # BUS-BLD-4: no empty space left
    listed = s.scratch  # locals: stores through the handles' fields would reload them every step
    options = s.options
    bld = s.bld
    sp_inter = b.sp_inter
    sp_zone = b.sp_zone
    listed[:] = 0
    n = 0
    for sp in range(sp_inter.shape[0]):
        x = sp_inter[sp]
        if bld[sp] < 0 and sp_zone[sp] == z and listed[x] == 0:
            listed[x] = 1  # spaces of one zone at one intersection are interchangeable: list the first
            for t in range(3):
                options[n, 0] = sp
                options[n, 1] = t
                options[n, 2] = x
                n += 1
    if n == 0:
        return False
    i = 0
    if n > 1:
        if scored(s, p):
            fill_building_features(s, p, n)
        i = decide(s, p, D.setup_building if setup else D.building, n)
    sp = s.options[i, 0]
    t = s.options[i, 1]
    put_building(b, s, sp, t)
    event(s, p, EV.setup_bld if setup else EV.bld, sp, t, b.sp_inter[sp], b.sp_zone[sp])
    if s.g[GS.empty] == 0:
        event(s, p, EV.city_full)
    return True


# ----------------------------------------------------------------------------------------------- lines


@kernel
def list_targets(s: State, p: int) -> int:
    """List in ``s.scratch`` the intersections with passengers that p's line does not touch; return how many.
    A stick decision asks for the nearest of them from every option's new end: one scan of the board serves all."""
    pax = s.pax  # locals: the loop runs over every intersection
    own = s.own
    targets = s.scratch
    n = 0
    for z in range(pax.shape[0]):
        if pax[z] > 0 and own[p, z] == 0:
            targets[n] = z
            n += 1
    return n


@kernel
def nearest_target(b: Board, s: State, n_targets: int, v: int) -> int:
    """Hops from v to the nearest of the ``n_targets`` intersections ``list_targets`` listed (0 if none)."""
    dist = b.dist
    targets = s.scratch
    best = 1 << 20
    for k in range(n_targets):
        best = min(best, dist[v, targets[k]])
    return best if n_targets > 0 else 0


@kernel
def free_streets_at(s: State, x: int, skip: int) -> int:
    """Streets at x other than ``skip`` (a street at x) that hold no stick."""
    return s.free[x] - (1 if s.occ[skip] == 0 else 0)


@kernel
def fill_stick_features(b: Board, s: State, p: int, n_opt: int) -> None:
    """Features of (end, street) options: what the new end reaches, how free the street and its future are."""
    clear_features(s, n_opt, D.expand_stick)
    features = s.features  # locals: read once, not once per option
    options = s.options
    own = s.own
    occ = s.occ
    # The line's two ends: every option starts from one of them, so their distance to a target is taken once.
    n_targets = list_targets(s, p)
    near_end = (nearest_target(b, s, n_targets, s.pl[p, PL.e0]), nearest_target(b, s, n_targets, s.pl[p, PL.e0 + 1]))
    for i in range(n_opt):
        st = options[i, 1]
        e = options[i, 0]
        x = s.pl[p, PL.e0 + e]
        y = other_end(b, st, x)
        new = own[p, y] == 0
        m = occ[st]
        c = 0
        while m:
            c += m & 1
            m >>= 1
        features[F.st_free, i] = 1.0 if occ[st] == 0 else 0.0
        features[F.st_opp, i] = c
        features[F.st_future, i] = free_streets_at(s, y, st)
        features[F.st_toward, i] = near_end[e] - nearest_target(b, s, n_targets, y)
        if new:
            features[F.st_new, i] = 1.0
            features[F.st_pax, i] = s.pax[y]
            features[F.st_station, i] = b.is_station[y]
            features[F.st_bld, i] = s.nbld[y]
            features[F.st_space, i] = s.nspace[y] - s.nbld[y]
        else:
            features[F.st_loop, i] = 1.0


@kernel
def expand_one(b: Board, s: State, p: int) -> bool:
    """One stick from one end (BUS-EXP-4/5): False when no legal (end, street) exists or no stick is left."""
    n = legal_sticks(b, s, p, s.options)
    if n == 0:
        return False
    i = 0
    if n > 1:
        if scored(s, p):
            fill_stick_features(b, s, p, n)
        i = decide(s, p, D.expand_stick, n)
    e = s.options[i, 0]
    st = s.options[i, 1]
    kind = s.options[i, 2]
    if s.meta[M.check] and not stick_is_legal(b, s, p, e, st):
        raise AssertionError("BUS-INV-8: enumerated stick fails the legality check")
    x = s.pl[p, PL.e0 + e]
    closes = 1 if s.own[p, other_end(b, st, x)] > 0 else 0
    y = place_stick(b, s, p, e, st)
    if kind == KIND_EXC1:
        s.pl[p, PL.exc1] += 1
    elif kind == KIND_EXC2:
        s.pl[p, PL.exc2] += 1
    event(s, p, EV.stick, st, x, y, kind, closes)
    if s.meta[M.check] and not line_is_trail(b, s, p):
        raise AssertionError("BUS-INV-3: a line is not a single trail between its ends")
    return True


@kernel
def setup_first_stick(b: Board, s: State, p: int) -> None:
    """BUS-SETUP-8: any street, shared or not."""
    n_st = b.st_a.shape[0]
    clear_features(s, n_st, D.setup_stick)
    features = s.features  # locals: read once, not once per street
    occ = s.occ
    pax = s.pax
    nbld = s.nbld
    for st in range(n_st if scored(s, p) else 0):
        m = occ[st]
        c = 0
        while m:
            c += m & 1
            m >>= 1
        a = b.st_a[st]
        z = b.st_b[st]
        features[F.st_free, st] = 1.0 if c == 0 else 0.0
        features[F.st_opp, st] = c
        features[F.st_new, st] = 2.0
        features[F.st_pax, st] = pax[a] + pax[z]
        features[F.st_station, st] = b.is_station[a] + b.is_station[z]
        features[F.st_bld, st] = nbld[a] + nbld[z]
        features[F.st_space, st] = s.nspace[a] - nbld[a] + s.nspace[z] - nbld[z]
        features[F.st_future, st] = free_streets_at(s, a, st) + free_streets_at(s, z, st)
    st = decide(s, p, D.setup_stick, n_st)
    lay_first_stick(b, s, p, st)
    event(s, p, EV.setup_stick, st, b.st_a[st], b.st_b[st])


@kernel
def setup(b: Board, s: State) -> None:
    """BUS-SETUP-7..11: buildings in turn order, first sticks in turn order, second sticks in reverse order."""
    n = s.meta[M.n_players]
    for p in range(n):
        for _ in range(s.rules[R.setup_buildings]):
            build_one(b, s, p, True)
    for p in range(n):
        setup_first_stick(b, s, p)
    for p in range(n - 1, -1, -1):
        if not expand_one(b, s, p):  # BUS-SETUP-9 / BUS-AMB-4: mandatory
            raise AssertionError("BUS-SETUP-9: no legal second stick")


# ----------------------------------------------------------------------------------------------- planning


@kernel
def action_open(s: State, a: int) -> bool:
    """BUS-PLAN-6/7: a single slot is free, or a multi-slot action has a free letter (BUS-AMB-1)."""
    m = MULTI_OF[a]
    if m >= 0:
        return s.nslot[m] < s.rules[R.slots_per_action]
    return s.single[SINGLE_OF[a]] < 0


@kernel
def my_slots(s: State, m: int, p: int) -> int:
    c = 0
    for k in range(s.nslot[m]):
        if s.slot[m, k] == p:
            c += 1
    return c


@kernel
def would_win_alone(s: State, p: int, extra_gems: int) -> bool:
    """p ranks strictly first if the game ended now with ``extra_gems`` more gems for p (BUS-SCORE-2/3, BUS-SEAT-2)."""
    sp = rank_score(s, p) - 2 * extra_gems
    gp = s.pl[p, PL.gems] + extra_gems
    for q in range(s.meta[M.n_players]):
        if q == p:
            continue
        sq = rank_score(s, q)
        if sq > sp:
            return False
        if sq == sp:
            gq = s.pl[q, PL.gems]
            if gq > gp:
                return False
            if gq == gp and s.pl[q, PL.at] <= s.pl[p, PL.at]:
                return False
    return True


@kernel
def take_plan_facts(b: Board, s: State, p: int) -> None:
    """``s.plan_facts[p]`` at the start of a planning phase: placing cubes moves no passenger, building, stick,
    bus or point, so these facts hold for every planning decision of the phase."""
    facts = s.plan_facts
    t_now = s.g[GS.clock]
    t_next = next_type(s) if (s.meta[M.round] > 1 or s.rules[R.clock_advances_round_1]) else t_now
    w_now, r_now, w_next, r_next = line_want_room(s, p, t_now, t_next)
    facts[p, PF.want_now] = w_now
    facts[p, PF.room_now] = r_now
    facts[p, PF.want_next] = w_next
    facts[p, PF.room_next] = r_next
    facts[p, PF.lead] = lead_of(s, p)
    my_stations = 0
    for st in b.stations:
        if s.own[p, st] > 0:
            my_stations += 1
    facts[p, PF.stations] = my_stations


@kernel
def fill_plan_features(b: Board, s: State, p: int, n_opt: int) -> None:
    """Facts about each planning option (s.options[i, 0] = action, -1 = pass) for the current position."""
    clear_features(s, n_opt, D.plan_action)
    n = s.meta[M.n_players]
    big_m = s.g[GS.m]
    buses = s.pl[p, PL.buses]
    w_now = s.plan_facts[p, PF.want_now]
    r_now = s.plan_facts[p, PF.room_now]
    w_next = s.plan_facts[p, PF.want_next]
    r_next = s.plan_facts[p, PF.room_next]
    est_now = min(buses, w_now, r_now)
    est_next = min(buses, w_next, r_next)
    clock_mine = s.single[SINGLE_OF[A_CLOCK]] == p
    lead = s.plan_facts[p, PF.lead]
    my_stations = s.plan_facts[p, PF.stations]
    for i in range(n_opt):
        a = s.options[i, 0]
        f = s.features
        if a < 0:  # the context of stopping for this round lives on the pass option only
            f[F.pass_, i] = 1.0
            f[F.round, i] = s.meta[M.round]
            f[F.cubes_left, i] = s.pl[p, PL.cubes]
            f[F.placed, i] = s.pl[p, PL.placed]
            f[F.lead, i] = lead
            continue
        f[F.act_exp + a, i] = 1.0
        m = MULTI_OF[a]
        k = s.nslot[m] if m >= 0 else 0
        f[F.slot, i] = k
        if a == A_EXP:
            bonus = s.rules[R.five_player_bonus] if n == 5 else 0
            amt = max(0, big_m + bonus - k)
            f[F.amount, i] = amt
            f[F.wasted, i] = 1.0 if amt == 0 else 0.0
            f[F.exp_effective, i] = min(amt, s.pl[p, PL.sticks])
        elif a == A_BUS:
            f[F.bus_is_max, i] = 1.0 if buses == big_m else 0.0
            f[F.bus_behind, i] = big_m - buses
        elif a == A_PAX:
            amt = max(0, big_m - k)
            before = 0
            for j in range(k):
                before += max(0, big_m - j)
            f[F.amount, i] = amt
            f[F.wasted, i] = 1.0 if amt == 0 else 0.0
            f[F.pax_effective, i] = max(0, min(amt, s.g[GS.supply] - before))
            f[F.my_stations, i] = my_stations
        elif a == A_BLD:
            amt = max(0, big_m - k)
            f[F.amount, i] = amt
            f[F.wasted, i] = 1.0 if amt == 0 else 0.0
            f[F.bld_effective, i] = min(amt, s.g[GS.empty])
        elif a == A_CLOCK:
            f[F.clock_gain, i] = max(0, est_now - est_next)
            f[F.gems_left, i] = s.g[GS.gems]
            f[F.my_gems, i] = s.pl[p, PL.gems]
            if s.g[GS.gems] == 1:
                f[F.last_gem, i] = 1.0
                f[F.end_win, i] = 1.0 if would_win_alone(s, p, 1) else 0.0
        elif a == A_VROOM:
            used = buses * my_slots(s, 3, p)
            best_w, best_r = (w_now, r_now) if clock_mine and est_now > est_next else (w_next, r_next)
            f[F.vroom_est, i] = max(0, min(buses, best_w - used, best_r - used))
        elif a == A_START:
            f[F.start_gain, i] = 1.0 if (s.g[GS.start] + 1) % n != p else 0.0


@kernel
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
        s.g[GS.cubes_bus + SINGLE_OF[a]] += 1
    s.pl[p, PL.cubes] -= 1
    s.pl[p, PL.spent] += 1
    s.pl[p, PL.placed] += 1
    s.pl[p, PL.act + a] += 1
    return k


@kernel
def planning(b: Board, s: State) -> None:
    """BUS-PLAN-1..10: clockwise from the starting player, one cube or pass per turn until all passed."""
    n = s.meta[M.n_players]
    start = s.g[GS.start]
    for p in range(n):
        s.pl[p, PL.passed] = 0
        s.pl[p, PL.placed] = 0
        s.pl[p, PL.plan_cubes] = s.pl[p, PL.cubes]
        s.pl[p, PL.round_vroom] = 0
        s.pl[p, PL.round_deliv] = 0
    for p in range(n):
        if scored(s, p):
            take_plan_facts(b, s, p)
    s.pl[start, PL.start_rounds] += 1
    event(s, start, EV.round, start, s.g[GS.m], s.g[GS.clock], s.g[GS.gems], s.g[GS.supply])
    active = n
    cur = start
    while active > 0:  # BUS-PLAN-9 (and BUS-AMB-30: forced passes end a deadlock)
        p = cur
        cur = (cur + 1) % n
        if s.pl[p, PL.passed]:
            continue  # BUS-PLAN-3
        n_opt = 0
        if s.pl[p, PL.cubes] > 0:
            for a in range(N_ACTIONS):
                if action_open(s, a):
                    s.options[n_opt, 0] = a
                    n_opt += 1
        if n_opt == 0:  # BUS-PLAN-4 / BUS-AMB-19: no cube or no legal slot -> forced pass
            s.pl[p, PL.passed] = 1
            active -= 1
            event(s, p, EV.pass_, 1)
            continue
        if s.pl[p, PL.placed] >= 2:  # BUS-PLAN-2: pass allowed after two cubes (BUS-PLAN-5: no maximum)
            s.options[n_opt, 0] = -1
            n_opt += 1
        i = 0
        if n_opt > 1:
            if scored(s, p):
                fill_plan_features(b, s, p, n_opt)
            i = decide(s, p, D.plan_action, n_opt)
        a = s.options[i, 0]
        if a < 0:
            s.pl[p, PL.passed] = 1
            active -= 1
            event(s, p, EV.pass_, 0)
            continue
        k = place_cube(s, p, a)
        event(s, p, EV.plan, a, k)
    if s.meta[M.check] and 4 * s.rules[R.slots_per_action] + 3 >= 2 * n:
        for p in range(n):
            if s.pl[p, PL.plan_cubes] >= 2 and s.pl[p, PL.placed] < 2:
                raise AssertionError("BUS-INV-7: a player with 2+ cubes placed fewer than 2")


# ----------------------------------------------------------------------------------------------- resolution


@kernel
def waste(s: State, p: int) -> None:
    s.pl[p, PL.wasted] += 1


@kernel
def resolve_expansion(b: Board, s: State) -> None:
    """Action 1 (BUS-EXP-3..5, BUS-RES-2): last letter first, `a` last; M before this round's bus (BUS-AMB-24)."""
    n = s.meta[M.n_players]
    big_m = s.g[GS.m]
    bonus = s.rules[R.five_player_bonus] if n == 5 else 0  # BUS-EXP-3: 5 players, expansion only
    for k in range(s.nslot[0] - 1, -1, -1):
        p = s.slot[0, k]
        amt = max(0, big_m + bonus - k)
        event(s, p, EV.action, A_EXP, k, amt)
        laid = 0
        for _ in range(amt):
            if not expand_one(b, s, p):  # BUS-EXP-5 / BUS-AMB-29: stop when stuck or out of sticks
                break
            laid += 1
        if laid == 0:
            waste(s, p)


@kernel
def resolve_bus(s: State) -> None:
    """Action 2 (BUS-BUY-1..3): +1 bus; M rises at once (BUS-RES-4)."""
    p = s.single[SINGLE_OF[A_BUS]]
    if p < 0:
        return
    s.pl[p, PL.buses] += 1
    s.pl[p, PL.buys] += 1
    s.g[GS.buses_bought] += 1
    if s.pl[p, PL.buses] > s.g[GS.m]:
        s.g[GS.m] = s.pl[p, PL.buses]
    event(s, p, EV.bus, s.pl[p, PL.buses], s.g[GS.m])


@kernel
def resolve_passengers(b: Board, s: State) -> None:
    """Action 3 (BUS-PAX-1..4): `a` first, M - k passengers each onto a station of the player's choice."""
    n_st = b.stations.shape[0]
    for k in range(s.nslot[1]):
        p = s.slot[1, k]
        amt = max(0, s.g[GS.m] - k)
        event(s, p, EV.action, A_PAX, k, amt)
        placed = 0
        for _ in range(amt):
            if s.g[GS.supply] == 0:
                break  # BUS-PAX-4 / BUS-AMB-25
            i = 0
            if n_st > 1:
                clear_features(s, n_st, D.passenger_station)
                for j in range(n_st if scored(s, p) else 0):
                    st = b.stations[j]
                    s.features[F.stn_opp, j] = opponents_at(s, p, st)
                    s.features[F.stn_mine, j] = 1.0 if s.own[p, st] > 0 else 0.0
                    s.features[F.stn_pax, j] = s.pax[st]
                i = decide(s, p, D.passenger_station, n_st)
            st = b.stations[i]
            s.pax[st] += 1
            s.g[GS.supply] -= 1
            s.g[GS.board_pax] += 1
            s.g[GS.pax_placed] += 1
            placed += 1
            event(s, p, EV.pax, st, s.g[GS.supply])
        if placed == 0:
            waste(s, p)


@kernel
def resolve_buildings(b: Board, s: State) -> bool:
    """Action 4 (BUS-BLD-1..4): last letter first; zone order checked before each building.

    Returns True when the city filled and ``city_full_ends_at_once`` ends the game now (BUS-AMB-17 variant).
    """
    for k in range(s.nslot[2] - 1, -1, -1):
        p = s.slot[2, k]
        amt = max(0, s.g[GS.m] - k)
        event(s, p, EV.action, A_BLD, k, amt)
        built = 0
        for _ in range(amt):
            if not build_one(b, s, p, False):
                break
            built += 1
        if built == 0:
            waste(s, p)
        if s.rules[R.city_full_ends_at_once] and s.g[GS.city_full]:
            for j in range(k - 1, -1, -1):
                waste(s, s.slot[2, j])
            return True
    return False


@kernel
def resolve_clock(s: State) -> bool:
    """Action 5 (BUS-CLOCK-1..5): optional stop (take a gem, hand stays), else the hand advances.

    Returns True when the last gem was taken: the game ends at once (BUS-END-1, BUS-AMB-12).
    """
    p = s.single[SINGLE_OF[A_CLOCK]]
    stop = False
    if p >= 0:
        clear_features(s, 2, D.clock)
        c = my_slots(s, 3, p)
        t_now = s.g[GS.clock]
        moves = s.meta[M.round] > 1 or s.rules[R.clock_advances_round_1]
        t_run = next_type(s) if moves else t_now
        w0, r0, w1, r1 = line_want_room(s, p, t_now, t_run)
        cap_d = s.pl[p, PL.buses] * c
        last = s.g[GS.gems] == 1
        s.features[F.stop, 1] = 1.0
        s.features[F.clock_gain, 1] = min(cap_d, w0, r0) - min(cap_d, w1, r1)
        s.features[F.last_gem, 1] = 1.0 if last else 0.0
        s.features[F.end_win, 1] = 1.0 if last and would_win_alone(s, p, 1) else 0.0
        s.features[F.my_gems, 1] = s.pl[p, PL.gems]
        s.features[F.lead, 1] = lead_of(s, p)
        s.features[F.gems_left, 1] = s.g[GS.gems]
        stop = decide(s, p, D.clock, 2) == 1
    if stop:  # BUS-CLOCK-3
        s.pl[p, PL.gems] += 1
        s.g[GS.gems] -= 1
        if s.g[GS.gems_taken] < 5:
            s.g[GS.gem_round + s.g[GS.gems_taken]] = s.meta[M.round]
        s.g[GS.gems_taken] += 1
        if s.pl[p, PL.first_gem] < 0:
            s.pl[p, PL.first_gem] = s.meta[M.round]
        event(s, p, EV.clock, 1, s.g[GS.clock], s.g[GS.gems])
        if s.g[GS.gems] == 0:
            s.g[GS.last_gem_seat] = p
            return True
        return False
    if s.meta[M.round] > 1 or s.rules[R.clock_advances_round_1]:  # BUS-CLOCK-4 / BUS-AMB-10
        s.g[GS.clock] = next_type(s)
    event(s, p, EV.clock, 0, s.g[GS.clock], s.g[GS.gems])
    return False


@kernel
def deliver_one(b: Board, s: State, p: int) -> None:
    """BUS-VROOM-5: p picks a wanting passenger on its line and an empty target building on its line."""
    own = s.own  # locals: the listings run over every intersection
    want = s.want
    room = s.room
    options = s.options
    n_i = want.shape[0]
    n = 0
    for x in range(n_i):
        if own[p, x] > 0 and want[x] > 0:
            options[n, 0] = x
            n += 1
    i = 0
    if n > 1:
        clear_features(s, n, D.delivery_from)
        for j in range(n if scored(s, p) else 0):
            x = s.options[j, 0]
            s.features[F.from_station, j] = b.is_station[x]
            s.features[F.from_opp, j] = opponents_at(s, p, x)
        i = decide(s, p, D.delivery_from, n)
    x = s.options[i, 0]
    n = 0
    for y in range(n_i):
        if own[p, y] > 0 and room[y] > 0:
            options[n, 0] = y
            n += 1
    i = 0
    if n > 1:
        clear_features(s, n, D.delivery_to)
        for j in range(n if scored(s, p) else 0):
            y = s.options[j, 0]
            opp = opponents_at(s, p, y)
            s.features[F.to_opp, j] = opp
            s.features[F.to_mine_only, j] = 1.0 if opp == 0 else 0.0
        i = decide(s, p, D.delivery_to, n)
    y = s.options[i, 0]
    s.pax[x] -= 1
    s.want[x] -= 1
    s.pax[y] += 1
    s.room[y] -= 1  # BUS-VROOM-8: the delivered passenger is satisfied for the rest of this step
    s.pl[p, PL.points] += 1  # BUS-VROOM-7
    s.g[GS.counter] += 1
    s.pl[p, PL.at] = s.g[GS.counter]
    s.g[GS.delivered] += 1
    s.pl[p, PL.round_deliv] += 1
    if b.is_station[x]:
        s.g[GS.from_station] += 1
    event(s, p, EV.deliver, x, y, s.pl[p, PL.points])


@kernel
def resolve_vroom(b: Board, s: State) -> None:
    """Action 6 (BUS-VROOM-1..9): settle under T once, then `a` first, each slot delivers exactly d."""
    t = s.g[GS.clock]
    s.g[GS.vroom_t + t] += 1
    settle(s, t)
    for k in range(s.nslot[3]):
        p = s.slot[3, k]
        d = delivery_count(s, p)
        event(s, p, EV.vroom, k, d, s.pl[p, PL.buses], t)
        s.pl[p, PL.round_vroom] += 1
        if d == 0:
            waste(s, p)  # BUS-VROOM-9 / BUS-AMB-14
        for _ in range(d):
            deliver_one(b, s, p)
    if s.meta[M.check]:
        for p in range(s.meta[M.n_players]):
            if s.pl[p, PL.round_deliv] > s.pl[p, PL.buses] * s.pl[p, PL.round_vroom]:
                raise AssertionError("BUS-INV-6: more deliveries than buses x Vrroomm! cubes")
        for x in range(s.pax.shape[0]):
            if s.pax[x] - s.want[x] > s.cap[x, t]:
                raise AssertionError("BUS-INV-6: more settled passengers than target buildings")


@kernel
def resolve_start(s: State) -> None:
    """Action 7 (BUS-START-1..3): the slot's owner starts next round, else the bus passes clockwise."""
    p = s.single[SINGLE_OF[A_START]]
    if p >= 0:
        s.g[GS.start] = p
        event(s, p, EV.start, p, 1)
    else:
        s.g[GS.start] = (s.g[GS.start] + 1) % s.meta[M.n_players]
        event(s, -1, EV.start, s.g[GS.start], 0)


@kernel
def lose_remaining(s: State) -> None:
    """BUS-END-1: cubes on Vrroomm! and Starting player of the collapsing round never resolve (counted wasted)."""
    for k in range(s.nslot[3]):
        waste(s, s.slot[3, k])
    if s.single[SINGLE_OF[A_START]] >= 0:
        waste(s, s.single[SINGLE_OF[A_START]])


@kernel
def play_round(s: State, b: Board) -> int:
    """Hook: one round (BUS-ROUND-1): planning, resolution 1..7 (BUS-RES-1), cleanup; the end reason when the
    game ended (BUS-END-*), else GOES_ON. The core's round driver has numbered the round (BUS-CLEAN-2)."""
    if s.meta[M.round] > s.g[GS.round_cap]:
        raise AssertionError("BUS-ROUND-2: the game exceeded its round cap")
    planning(b, s)
    resolve_expansion(b, s)
    resolve_bus(s)
    resolve_passengers(b, s)
    if resolve_buildings(b, s):
        lose_remaining(s)
        s.g[GS.end_reason] = rc.END_FULL
        return rc.END_FULL
    if resolve_clock(s):
        lose_remaining(s)
        s.g[GS.end_reason] = rc.END_TIME_FULL if s.g[GS.city_full] else rc.END_TIME  # BUS-END-4
        return s.g[GS.end_reason]
    resolve_vroom(b, s)
    resolve_start(s)
    # Cleanup (BUS-CLEAN-1..3): cubes off the board, then the end-of-round checks.
    s.slot[:, :] = -1
    s.nslot[:] = 0
    s.single[:] = -1
    for p in range(s.meta[M.n_players]):
        event(s, p, EV.line, s.pl[p, PL.e0], s.pl[p, PL.e0 + 1], s.pl[p, PL.limit] - s.pl[p, PL.sticks],
           s.pl[p, PL.points])
    with_cubes = 0
    for p in range(s.meta[M.n_players]):
        if s.pl[p, PL.cubes] > 0:
            with_cubes += 1
    out = with_cubes <= 1  # BUS-END-2 / BUS-AMB-18
    full = s.g[GS.city_full] == 1  # BUS-END-3 / BUS-AMB-17
    if out and full:
        s.g[GS.end_reason] = rc.END_OUT_FULL
    elif out:
        s.g[GS.end_reason] = rc.END_OUT
    elif full:
        s.g[GS.end_reason] = rc.END_FULL
    return s.g[GS.end_reason] if out or full else GOES_ON


@kernel
def check_invariants(s: State, b: Board) -> None:
    """BUS-INV-1..5 after a round; ``s.prev`` holds (board passengers, M, empty spaces) of the round before."""
    prev = s.prev
    n = s.meta[M.n_players]
    on_board = 0
    for x in range(s.pax.shape[0]):
        on_board += s.pax[x]
    if on_board + s.g[GS.supply] != s.rules[R.passengers] or on_board < prev[0] or on_board != s.g[GS.board_pax]:
        raise AssertionError("BUS-INV-1: passengers not conserved or left the board")
    for x in range(s.free.shape[0]):
        free = 0
        for j in range(b.deg[x]):
            free += 1 if s.occ[b.inc_s[x, j]] == 0 else 0
        if free != s.free[x]:
            raise AssertionError("BUS-EXP-8: the free-street count of an intersection is out of step with its sticks")
    gems = s.g[GS.gems]
    delivered = 0
    for p in range(n):
        if s.pl[p, PL.cubes] + s.pl[p, PL.spent] != s.rules[R.cubes] or s.pl[p, PL.cubes] < 0:
            raise AssertionError("BUS-INV-2: cubes not conserved")
        if s.pl[p, PL.buses] != 1 + s.pl[p, PL.buys]:
            raise AssertionError("BUS-INV-2: buses != 1 + buys")
        if s.pl[p, PL.sticks] < 0 or not line_is_trail(b, s, p):
            raise AssertionError("BUS-INV-3: line is not one trail or sticks over the limit")
        used = 0
        for st in range(s.occ.shape[0]):
            used += (s.occ[st] >> p) & 1
        if used != s.pl[p, PL.limit] - s.pl[p, PL.sticks]:
            raise AssertionError("BUS-INV-3: sticks on the board != sticks used")
        gems += s.pl[p, PL.gems]
        delivered += s.pl[p, PL.points]
    if delivered != s.g[GS.delivered]:
        raise AssertionError("BUS-SCORE-1: points moved other than by deliveries")
    if gems != s.g[GS.gems0]:
        raise AssertionError("BUS-INV-4: gems not conserved")
    if s.g[GS.m] < prev[1]:
        raise AssertionError("BUS-INV-4: M decreased")
    if s.g[GS.empty] > prev[2]:
        raise AssertionError("BUS-INV-5: empty spaces increased")
    for z in range(1, 4):
        filled = b.zone_n[z] - s.g[GS.zone_empty + z]
        for lower in range(z):
            if filled > 0 and s.g[GS.zone_empty + lower] > 0:
                raise AssertionError("BUS-INV-5: a higher zone filled before a lower one")
    prev[0] = on_board
    prev[1] = s.g[GS.m]
    prev[2] = s.g[GS.empty]


@kernel
def final_scoring(s: State) -> None:
    """BUS-SCORE-2..4: points - gems, then more gems, then lowest disc (earliest final points), else shared; a seat
    that wins ties (BUS-SEAT-2) beats an equal score first (tie-break code 4 when that alone decided first place)."""
    n = s.meta[M.n_players]
    for p in range(n):
        s.keys[p, 0] = rank_score(s, p)
        s.keys[p, 1] = s.pl[p, PL.gems]
        s.keys[p, 2] = -s.pl[p, PL.at]
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
    else:
        for p in range(n):
            if s.keys[p, 0] == best - 1 and (best & 1) == 1:  # the same score, no tie priority
                tie = 4
    s.g[GS.tie_break] = tie
    for p in range(n):
        event(s, p, EV.score, s.pl[p, PL.points], s.pl[p, PL.gems], score_of(s, p), s.rank[p])


@kernel
def setup_game(s: State, b: Board) -> None:
    """Hook: a new game up to the first round (the core has seeded the generator and seated the strategies)."""
    reset_game(b, s)
    setup(b, s)
    s.prev[:] = 0
    s.prev[2] = s.g[GS.empty]


@kernel
def game_over(s: State, b: Board, reason: int) -> None:
    """Hook, at the end: final scoring (the ranking keys) and the records (the core's round driver ends the game)."""
    s.g[GS.ended] = 1
    event(s, -1, EV.end, reason)
    final_scoring(s)
    record_game(b, s)


@kernel
def record_game(b: Board, s: State) -> None:
    """Bus's own record columns of a finished game, and each seat's score (the core adds the standard ones)."""
    gout = s.games
    pout = s.players
    n = s.meta[M.n_players]
    winners = 0
    for p in range(n):
        if s.rank[p] == 1:
            winners += 1
    gout[GC.n_winners] = winners
    gout[GC.gems_taken] = s.g[GS.gems_taken]
    gout[GC.last_gem_seat] = s.g[GS.last_gem_seat]
    for i in range(5):
        gout[GC.gem_round_1 + i] = s.g[GS.gem_round + i]
    gout[GC.clock_stops] = s.g[GS.gems_taken]
    gout[GC.buses_bought] = s.g[GS.buses_bought]
    gout[GC.final_M] = s.g[GS.m]
    gout[GC.passengers_placed] = s.g[GS.pax_placed]
    gout[GC.buildings_placed] = s.g[GS.built]
    for t in range(3):
        gout[GC.houses + t] = s.g[GS.type_count + t]
        gout[GC.vroom_house + t] = s.g[GS.vroom_t + t]
    for z in range(4):
        gout[GC.zone_a_full_round + z] = s.g[GS.zone_full + z]
    gout[GC.tie_break] = s.g[GS.tie_break]
    cubes = 0
    wasted = 0
    for p in range(n):
        for a in range(N_ACTIONS):
            cubes += s.pl[p, PL.act + a]
        wasted += s.pl[p, PL.wasted]
    gout[GC.cubes_placed] = cubes
    gout[GC.wasted_cubes] = wasted
    for m in range(4):
        for k in range(6):
            gout[GC.cubes_exp_0 + 6 * m + k] = s.slot_cubes[m, k]
        for k in range(6, 8):
            gout[GC.cubes_exp_6 + 2 * m + k - 6] = s.slot_cubes[m, k]
    for i in range(3):
        gout[GC.cubes_bus + i] = s.g[GS.cubes_bus + i]
    gout[GC.short_seats_mask] = s.g[GS.short_mask]
    gout[GC.delivered] = s.g[GS.delivered]
    gout[GC.delivered_from_station] = s.g[GS.from_station]
    gout[GC.final_clock] = s.g[GS.clock]
    for p in range(n):
        row = pout[p]
        row[PC.score] = score_of(s, p)
        row[PC.points] = s.pl[p, PL.points]
        row[PC.gems] = s.pl[p, PL.gems]
        row[PC.buses] = s.pl[p, PL.buses]
        row[PC.delivered] = s.pl[p, PL.points]
        row[PC.stick_limit] = s.pl[p, PL.limit]
        row[PC.sticks_used] = s.pl[p, PL.limit] - s.pl[p, PL.sticks]
        row[PC.cubes_left] = s.pl[p, PL.cubes]
        placed = 0
        for a in range(N_ACTIONS):
            row[PC.act_exp + a] = s.pl[p, PL.act + a]
            placed += s.pl[p, PL.act + a]
        row[PC.cubes_placed] = placed
        row[PC.wasted_cubes] = s.pl[p, PL.wasted]
        row[PC.loops_closed] = s.pl[p, PL.loops]
        stations = 0
        for st in b.stations:
            if s.own[p, st] > 0:
                stations += 1
        covered = 0
        for x in range(s.pax.shape[0]):
            if s.own[p, x] > 0:
                covered += 1
        row[PC.stations_on_line] = stations
        row[PC.intersections_covered] = covered
        row[PC.first_gem_round] = s.pl[p, PL.first_gem]
        row[PC.start_player_rounds] = s.pl[p, PL.start_rounds]
        row[PC.exception1_sticks] = s.pl[p, PL.exc1]
        row[PC.exception2_sticks] = s.pl[p, PL.exc2]
        row[PC.points_reached_at] = s.pl[p, PL.at]
        row[PC.loop_markers_paid] = s.pl[p, PL.markers]


bind_rounds(LAYOUT, play_round, setup=setup_game, check=check_invariants, finish=game_over, rank_by_score=False)
