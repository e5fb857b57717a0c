"""Bus rules on hand-built positions: setup, the action board, planning, each resolution step, cleanup and the end
of the game, driven through sim.bus.position and the engine's own kernel functions.

Seats play small purpose-built strategies (argmax over weights) so that a position's outcome is forced by the
rules, not by luck; Position gives seat i the i-th strategy of the table.
"""

import numpy as np
import pytest

from sim.bus import engine as E
from sim.bus import lines as L
from sim.bus import SPEC
from sim.bus import records as rc
from sim.bus.position import Position
from sim.bus.rules import Rules
from sim.bus.schema import SCHEMA
from sim.bus.state import A_BLD, A_BUS, A_CLOCK, A_EXP, A_PAX, A_START, A_VROOM, HOUSE, OFFICE, PUB
from sim.core.errors import PlaytestError
from strategies.bus import STRATEGIES
from sim.core.policy import StrategyRegistry
from sim.core.policy import Strategy
from sim.bus.state import GS, PL
from sim.core.state import M
from sim.core.turns import GOES_ON, next_round

RANDOM = STRATEGIES[0]


def plan(name, clock=None, **weights):
    """A strategy that plans by fixed action weights (pass 50: it passes as soon as BUS-PLAN-2 allows)."""
    w = {"plan_action": {"pass": 50.0, **weights}}
    if clock is not None:
        w["clock"] = {"stop": clock}
    return Strategy(name, name, weights=w)


def table(*strategies):
    """A strategy table whose row i is strategies[i] (random where None)."""
    named = [s if s is not None else RANDOM for s in strategies]
    unique = {s.name: s for s in named if s.name != "random"}
    return StrategyRegistry("bus", SCHEMA, (RANDOM, *unique.values())).table([s.name for s in named])


def traced(n, tbl=None, rules=Rules()):
    """A Position that records kernel events (the same event buffer replays use)."""
    return Position(n, rules, tbl, trace=5000)


def events(pos, etype=None):
    evs = [tuple(e) for e in pos.state.trace[: pos.state.meta[M.events]].tolist()]
    return [e for e in evs if etype is None or e[2] == etype]


def sticks_used(pos, p):
    return int(pos.state.pl[p, PL.limit] - pos.state.pl[p, PL.sticks])


def put_slots(pos, action, owners):
    """Owners of the slots a, b, ... of a multi-slot action, as if placed in that order (no cube taken)."""
    m = {A_EXP: 0, A_PAX: 1, A_BLD: 2, A_VROOM: 3}[action]
    pos.state.slot[m, :] = -1
    pos.state.slot[m, : len(owners)] = owners
    pos.state.nslot[m] = len(owners)


def fill_city_but_one(pos):
    """Fill every building space in zone order except the last zone-D space; return that space."""
    order = sorted(range(len(pos.board.sp_zone)), key=lambda sp: pos.board.sp_zone[sp])
    for sp in order[:-1]:
        E.put_building(pos.kb, pos.ks, sp, HOUSE)
    return order[-1]


# ----------------------------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_state_and_free_setup(n):
    """BUS-SETUP-2 (discs at 0, no gems), BUS-SETUP-3 (4 gems with 3 players, else 5), BUS-SETUP-4 (hand on House),
    BUS-SETUP-5 (a passenger on each central intersection, 11 in the supply), BUS-SETUP-6 (seat 0 holds the
    starting-player bus; 1 bus and 20 cubes each), BUS-COMP-11 (gems by player count). Then BUS-SETUP-11: setup
    placements are free and not M-based: with M raised to 3 beforehand, everyone still lays exactly 2 sticks and
    2 buildings, spends no cube and scores nothing."""
    pos = Position(n)
    g, pl = pos.state.g, pos.state.pl
    assert (pl[:n, PL.points] == 0).all() and (pl[:n, PL.gems] == 0).all()
    assert g[GS.gems] == (4 if n == 3 else 5) and g[GS.clock] == HOUSE
    central = list(pos.board.central)
    assert [int(pos.state.pax[c]) for c in central] == [1, 1, 1, 1] and pos.state.pax.sum() == 4
    assert g[GS.supply] == 11
    assert g[GS.start] == 0 and (pl[:n, PL.cubes] == 20).all() and (pl[:n, PL.buses] == 1).all()
    pos.set_buses(n - 1, 3)
    E.setup(pos.kb, pos.ks)
    assert (pl[:n, PL.cubes] == 20).all() and (pl[:n, PL.spent] == 0).all()
    assert (pl[:n, PL.points] == 0).all() and (pl[:n, PL.gems] == 0).all() and g[GS.gems] == (4 if n == 3 else 5)
    assert [sticks_used(pos, p) for p in range(n)] == [2] * n
    assert g[GS.built] == 2 * n
    assert all(pos.board.sp_zone[sp] == 0 for sp in np.flatnonzero(pos.state.bld >= 0))


def test_player_count_rules():
    """BUS-COMP-11: 3 to 5 players only; the +1 line bonus (BUS-EXP-3) is for 5 players and Line expansion only."""
    for bad in (2, 6):
        with pytest.raises(PlaytestError, match="3 to 5"):
            SPEC.validate(Rules(), bad)
    for n, owed in ((3, 1), (4, 1), (5, 2)):
        pos = Position(n)
        pos.line(0, [6, 7])
        put_slots(pos, A_EXP, [0])
        put_slots(pos, A_PAX, [0])
        supply = pos.state.g[GS.supply]
        E.resolve_expansion(pos.kb, pos.ks)
        E.resolve_passengers(pos.kb, pos.ks)
        assert sticks_used(pos, 0) == 1 + owed
        assert supply - pos.state.g[GS.supply] == 1  # M = 1 passengers, no 5-player bonus


# ----------------------------------------------------------------------------------------------- action board


def test_action_board_slots():
    """BUS-COMP-2 / BUS-PLAN-6 / BUS-PLAN-7 / BUS-AMB-1: 7 actions; Buy a bus, Clock and Starting player hold one
    cube each, the four others six (a-f, filled in letter order): 27 cubes fill the board. The slot count follows
    slots_per_action."""
    for slots in (6, 3):
        pos = Position(4, Rules(slots_per_action=slots))
        placed = 0
        for a in range(7):
            letters = []
            while E.action_open(pos.ks, a):
                letters.append(int(E.place_cube(pos.ks, placed % 4, a)))
                placed += 1
            multi = a in (A_EXP, A_PAX, A_BLD, A_VROOM)
            assert letters == (list(range(slots)) if multi else [0])
        assert placed == 4 * slots + 3


# ----------------------------------------------------------------------------------------------- planning


def test_no_maximum_and_repeat_action():
    """BUS-PLAN-5: after two cubes a player may go on placing, several on one action: a player who never passes
    fills all 27 slots (6 on Line expansion) and only then is forced to pass. BUS-RES-6: the six Line expansion
    cubes then resolve as six separate slots (M - k each, last letter first), not one pooled amount."""
    keen = Strategy("keen", "never passes", weights={"plan_action": {"pass": -100.0, "act_exp": 1.0}})
    pos = traced(3, table(keen, None, None))
    pos.state.pl[0, PL.cubes] = 30
    pos.state.pl[1:3, PL.cubes] = 0
    E.planning(pos.kb, pos.ks)
    mine = [e for e in events(pos) if e[1] == 0 and e[2] in (E.EV.plan, E.EV.pass_)]
    assert [e[2] for e in mine] == [E.EV.plan] * 27 + [E.EV.pass_]
    assert mine[-1][3] == 1  # forced: no free slot
    assert [e[4] for e in mine if e[3] == A_EXP] == [0, 1, 2, 3, 4, 5]
    assert pos.state.pl[0, PL.cubes] == 3
    pos.line(0, [6, 7])
    pos.set_buses(1, 3)
    before = sticks_used(pos, 0)
    E.resolve_expansion(pos.kb, pos.ks)
    acts = [(e[4], e[5]) for e in events(pos, E.EV.action)]
    assert acts == [(5, 0), (4, 0), (3, 0), (2, 1), (1, 2), (0, 3)]
    assert sticks_used(pos, 0) - before == 6


def test_cubes_leave_at_once_and_one_cube_forces_a_pass():
    """BUS-PLAN-8: a cube leaves cubes_left when placed, so a never-passing player with 2 cubes is forced to pass
    right after its second; BUS-PLAN-4 / BUS-AMB-19: a player with one cube places it, then is forced to pass;
    with none it passes at once."""
    keen = Strategy("keen", "never passes", weights={"plan_action": {"pass": -100.0}})
    pos = traced(3, table(keen, None, None))
    pos.state.pl[:3, PL.cubes] = [2, 1, 1]
    E.place_cube(pos.ks, 2, A_CLOCK)  # seat 2's last cube leaves at once
    assert pos.state.pl[2, PL.cubes] == 0 and pos.state.pl[2, PL.spent] == 1
    pos.state.single[:] = -1
    E.planning(pos.kb, pos.ks)
    seq = {p: [(e[2], e[3]) for e in events(pos) if e[1] == p and e[2] in (E.EV.plan, E.EV.pass_)] for p in range(3)}
    assert [t for t, _ in seq[0]] == [E.EV.plan, E.EV.plan, E.EV.pass_] and seq[0][-1] == (E.EV.pass_, 1)
    assert [t for t, _ in seq[1]] == [E.EV.plan, E.EV.pass_] and seq[1][-1] == (E.EV.pass_, 1)
    assert seq[2] == [(E.EV.pass_, 1)]
    assert list(pos.state.pl[:3, PL.cubes]) == [0, 0, 0]


def test_no_free_slot_forces_pass_and_ends_a_deadlock():
    """BUS-PLAN-4 / BUS-AMB-30: with 3 free slots left and four players who must each place 2, the slots run out;
    everyone still holding cubes is then forced to pass and planning ends."""
    keen = Strategy("keen", "never passes", weights={"plan_action": {"pass": -100.0}})
    pos = traced(4, table(keen, keen, keen, keen))
    pos.state.pl[:4, PL.cubes] = 10
    for a, m in ((A_EXP, 4), (A_PAX, 6), (A_BLD, 6), (A_VROOM, 6)):
        put_slots(pos, a, [3] * m)
    pos.state.single[:2] = 3  # Buy a bus and Clock taken; Starting player free
    E.planning(pos.kb, pos.ks)
    plans = events(pos, E.EV.plan)
    passes = events(pos, E.EV.pass_)
    assert len(plans) == 3 and sorted(e[1] for e in passes) == [0, 1, 2, 3]
    assert all(e[3] == 1 for e in passes)  # all forced, although everyone still has cubes
    assert (pos.state.pl[:4, PL.cubes] > 0).all() and (pos.state.pl[:4, PL.passed] == 1).all()


def test_starting_bus_goes_to_a_player_without_cubes():
    """BUS-START-3 / BUS-AMB-20: the owner of the Starting-player slot gets the bus even with no cubes left; next
    round planning begins with that player, who passes at once (forced) and places nothing."""
    pos = traced(3)
    pos.state.g[GS.start] = 2
    pos.state.pl[1, PL.cubes] = 0
    pos.state.single[2] = 1
    E.resolve_start(pos.ks)
    assert pos.state.g[GS.start] == 1
    pos.state.single[:] = -1
    E.planning(pos.kb, pos.ks)
    evs = [e for e in events(pos) if e[2] in (E.EV.round, E.EV.plan, E.EV.pass_)]
    assert evs[0][2] == E.EV.round and evs[0][3] == 1
    assert evs[1][1] == 1 and evs[1][2] == E.EV.pass_ and evs[1][3] == 1
    assert pos.state.pl[1, PL.placed] == 0 and pos.state.pl[1, PL.cubes] == 0


def test_player_without_cubes_keeps_buses_line_and_score():
    """BUS-PLAN-10 / BUS-AMB-9: seat 1 has no cubes but 3 buses, a line and 5 points. Its buses still set M = 3
    for seat 0's two Line expansion slots this round (3 + 2 sticks); its line, points and buses are untouched."""
    explorer = plan("explorer", act_exp=10.0)
    pos = traced(3, table(explorer, None, None))
    pos.line(0, [6, 7])
    pos.line(1, [29, 30])
    pos.set_buses(1, 3)
    pos.state.pl[1, PL.points] = 5
    pos.state.pl[1:3, PL.cubes] = 0
    occ = pos.state.occ.copy()
    next_round(pos.ks, pos.kb)
    acts = [(e[1], e[3], e[4], e[5]) for e in events(pos, E.EV.action)]
    assert acts == [(0, A_EXP, 1, 2), (0, A_EXP, 0, 3)]
    assert sticks_used(pos, 0) == 1 + 5
    assert pos.state.g[GS.m] == 3 and pos.state.pl[1, PL.buses] == 3 and pos.state.pl[1, PL.points] == 5
    assert ((pos.state.occ & 0b10) == (occ & 0b10)).all()


# ----------------------------------------------------------------------------------------------- resolution


def test_wasted_slots_do_nothing_but_spend_the_cube():
    """BUS-RES-5: with M = 1, slot b of Line expansion, New passengers and New buildings gives 0: its owner adds
    nothing, the cube stays spent (cubes_left does not come back) and it counts as wasted; slot a gives 1."""
    pos = Position(3)
    pos.line(0, [6, 7])
    pos.line(1, [29, 30])
    for a in (A_EXP, A_PAX, A_BLD):
        E.place_cube(pos.ks, 0, a)
        E.place_cube(pos.ks, 1, a)
    supply, built = int(pos.state.g[GS.supply]), int(pos.state.g[GS.built])
    E.resolve_expansion(pos.kb, pos.ks)
    E.resolve_passengers(pos.kb, pos.ks)
    E.resolve_buildings(pos.kb, pos.ks)
    assert sticks_used(pos, 0) == 2 and sticks_used(pos, 1) == 1
    assert supply - pos.state.g[GS.supply] == 1 and pos.state.g[GS.built] - built == 1
    assert pos.state.pl[1, PL.wasted] == 3 and pos.state.pl[0, PL.wasted] == 0
    assert list(pos.state.pl[:2, PL.cubes]) == [17, 17]


def test_amounts_are_not_pooled():
    """BUS-RES-6: M = 2; seat 0 holds Line expansion slot b (owes 1, resolves first) but has no stick left, seat 1
    holds slot a (owes 2): seat 1 lays exactly 2, the shortfall of seat 0 goes to nobody. On New passengers, slot
    a (seat 0) places 2 and slot b (seat 1) 1, each on its own."""
    pos = traced(3)
    pos.line(0, [6, 7])
    pos.line(1, [29, 30])
    pos.set_buses(2, 2)
    pos.state.pl[0, PL.sticks] = 0
    put_slots(pos, A_EXP, [1, 0])
    put_slots(pos, A_PAX, [0, 1])
    E.resolve_expansion(pos.kb, pos.ks)
    assert [e[1] for e in events(pos, E.EV.stick)] == [1, 1]
    assert sticks_used(pos, 1) == 1 + 2 and pos.state.pl[0, PL.wasted] == 1
    E.resolve_passengers(pos.kb, pos.ks)
    assert [e[1] for e in events(pos, E.EV.pax)] == [0, 0, 1]


def test_full_effort_stick_by_stick_without_look_ahead():
    """BUS-RES-3 / BUS-EXP-5 / BUS-AMB-8: the owner must lay a stick whenever one is legal, one at a time, with no
    duty to maximise. M = 3. Seat 0 (line 29-25-30, slot b, owes 2) prefers closing a loop onto the dead end
    29: after that one stick both ends sit at 29 with no street left, so it stops at 1 although 2 were possible.
    Seat 1 (slot a, owes 3), with room, must lay all 3."""
    trap = Strategy("trap", "closes loops into dead ends", weights={"expand_stick": {"st_loop": 5.0,
                                                                                     "st_future": -1.0}})
    pos = Position(3, table=table(trap, None, None))
    pos.line(0, [29, 25, 30])
    pos.line(1, [6, 7])
    assert (30, 31) in pos.legal(0)  # a longer route existed
    pos.set_buses(2, 3)
    put_slots(pos, A_EXP, [1, 0])
    E.resolve_expansion(pos.kb, pos.ks)  # slot b (seat 0, owes 2) first, then slot a (seat 1, owes 3)
    assert pos.ends(0) == (29, 29) and pos.legal(0) == set() and sticks_used(pos, 0) == 3
    assert sticks_used(pos, 1) == 1 + 3


def test_buy_a_bus_has_no_limit_and_one_slot():
    """BUS-BUY-1 / BUS-BUY-3: a player with 9 buses may still buy (no upper limit): buses 10, M 10, the cube is
    not returned. The single slot admits one cube per round in the whole game."""
    pos = Position(4)
    pos.set_buses(0, 9)
    assert E.action_open(pos.ks, A_BUS)
    E.place_cube(pos.ks, 0, A_BUS)
    assert not E.action_open(pos.ks, A_BUS)
    E.resolve_bus(pos.ks)
    assert pos.state.pl[0, PL.buses] == 10 and pos.state.g[GS.m] == 10 and pos.state.pl[0, PL.buys] == 1
    assert pos.state.pl[0, PL.cubes] == 19


def test_new_passengers_go_to_chosen_stations():
    """BUS-PAX-2 / BUS-PAX-3: each passenger goes to a station the acting player picks, whether or not its line
    touches one: seat 0 (line 6-7, no station) likes crowded stations and puts all 3 on station 25, where one
    waits; seat 1 likes empty ones and puts its 2 on station 10. Nothing else on the board changes. BUS-AMB-26:
    station passengers always want to travel (no buildings there)."""
    crowd = Strategy("crowd", "crowded stations", weights={"passenger_station": {"stn_pax": 1.0}})
    empty = Strategy("empty", "empty stations", weights={"passenger_station": {"stn_pax": -1.0}})
    pos = Position(3, table=table(crowd, empty, None))
    pos.clear_passengers()
    pos.passengers(25, 1)
    pos.line(0, [6, 7])
    pos.set_buses(2, 3)
    put_slots(pos, A_PAX, [0, 1])
    E.resolve_passengers(pos.kb, pos.ks)
    pax = pos.state.pax
    assert pax[25] == 4 and pax[10] == 2 and pax.sum() == 6 and pos.state.g[GS.supply] == 15 - 6
    for t in (HOUSE, OFFICE, PUB):
        pos.settle(t)
        assert pos.state.want[25] == 4 and pos.state.want[10] == 2


def test_passenger_supply_shortage():
    """BUS-PAX-4 / BUS-AMB-25: with 2 passengers left and M = 3, slot a places 2 (all there is) and slot b
    nothing; with an empty supply the action does nothing."""
    pos = Position(3)
    pos.set_buses(0, 3)
    pos.passengers(14, 9)  # 11 - 9 = 2 left in the supply
    put_slots(pos, A_PAX, [1, 2])
    E.resolve_passengers(pos.kb, pos.ks)
    assert pos.state.g[GS.supply] == 0 and pos.state.pax[pos.board.stations].sum() == 2
    assert pos.state.pl[2, PL.wasted] == 1 and pos.state.pl[1, PL.wasted] == 0
    E.resolve_passengers(pos.kb, pos.ks)
    assert pos.state.g[GS.supply] == 0 and pos.state.pax.sum() == 15


def test_building_type_and_space_are_the_players_choice():
    """BUS-BLD-2: the builder chooses the type and the empty space (in the open zone). A seat that likes its own
    line and the current type builds a House (hand on House) on its line 8-14-15, or a Pub when the hand is on
    Pub; a seat that avoids its line 9-14 and wants the next type builds an Office elsewhere."""
    mine = Strategy("mine", "own line, current type", weights={"building": {"bld_mine": 5.0, "bld_now": 3.0}})
    away = Strategy("away", "off line, next type", weights={"building": {"bld_mine": -5.0, "bld_next": 3.0}})
    pos = Position(3, table=table(mine, away, None))
    pos.line(0, [8, 14, 15])
    pos.line(1, [9, 14])
    for p, clock, on, typ in ((0, HOUSE, {14, 15}, HOUSE), (0, PUB, {14, 15}, PUB), (1, HOUSE, None, OFFICE)):
        pos.state.g[GS.clock] = clock
        before = pos.state.bld.copy()
        assert E.build_one(pos.kb, pos.ks, p, False)
        sp = int(np.flatnonzero(pos.state.bld != before)[0])
        x = int(pos.board.sp_inter[sp])
        assert pos.state.bld[sp] == typ and pos.board.sp_zone[sp] == 0
        assert x in on if on else x not in (9, 14)


def test_buildings_belong_to_no_one():
    """BUS-BLD-5: seat 0 builds a House at 14 (on its line 8-14); seat 1, whose line 13-14 also reaches 14,
    delivers a passenger into it and scores; the builder gains nothing."""
    mine = Strategy("mine", "own line, current type", weights={"building": {"bld_mine": 5.0, "bld_now": 3.0}})
    pos = Position(3, table=table(mine, None, None))
    pos.clear_passengers()
    pos.line(0, [8, 14])
    pos.line(1, [13, 14])
    assert E.build_one(pos.kb, pos.ks, 0, False)
    assert pos.state.cap[14, HOUSE] == 1
    pos.passengers(13, 1)
    assert pos.vroom([1], HOUSE) == [0, 1, 0]
    assert pos.state.pax[14] == 1


def test_building_supply_is_unlimited():
    """BUS-COMP-6 / BUS-AMB-15: no type runs out: a player who always builds Houses fills all 47 spaces with
    Houses; only the spaces limit building (BUS-BLD-4)."""
    houses = Strategy("houses", "always the current type", weights={"building": {"bld_now": 5.0}})
    pos = Position(3, table=table(houses, None, None))
    for _ in range(47):
        assert E.build_one(pos.kb, pos.ks, 0, False)
    assert (pos.state.bld == HOUSE).all()
    assert not E.build_one(pos.kb, pos.ks, 0, False) and pos.state.g[GS.city_full] == 1


def test_vroom_reaches_only_the_owners_line():
    """BUS-VROOM-4: a bus drives only on its owner's sticks. Seat 0 (line 13-14-15, empty House at 14) cannot
    fetch the passenger at 16; seat 1 (line 15-16) reaches the passenger but no House; lines touching at 15 do not
    help. Once seat 0 extends to 16, it delivers 16 -> 14."""
    pos = Position(3)
    pos.clear_passengers()
    pos.line(0, [13, 14, 15])
    pos.line(1, [15, 16])
    pos.build(14, HOUSE)
    pos.passengers(16, 1)
    pos.settle(HOUSE)
    assert pos.delivery_count(0) == 0 and pos.delivery_count(1) == 0
    assert pos.vroom([0, 1], HOUSE) == [0, 0, 0]
    pos.extend(0, 15, 16)
    assert pos.vroom([0], HOUSE) == [1, 0, 0]
    assert pos.state.pax[16] == 0 and pos.state.pax[14] == 1


def test_vroom_points_are_scored_one_by_one():
    """BUS-VROOM-7: each delivery gives +1 at once and stamps points_reached_at: slot a (seat 0, 2 buses) delivers
    twice, then slot b (seat 1) once; seat 0's disc reached 2 at the 2nd scoring event, seat 1's 1 at the 3rd."""
    pos = Position(3)
    pos.clear_passengers()
    pos.line(0, [13, 14])
    pos.line(1, [19, 12])
    pos.build(14, HOUSE)
    pos.build(14, HOUSE)
    pos.build(12, HOUSE)
    pos.passengers(13, 2)
    pos.passengers(19, 1)
    pos.set_buses(0, 2)
    assert pos.vroom([0, 1], HOUSE) == [2, 1, 0]
    assert pos.state.g[GS.counter] == 3
    assert pos.state.pl[0, PL.at] == 2 and pos.state.pl[1, PL.at] == 3 and pos.state.pl[2, PL.at] == 0


def test_vroom_with_nothing_to_deliver():
    """BUS-VROOM-9 / BUS-AMB-14: Vrroomm! may be planned although nobody waits; it resolves with d = 0, scores
    nothing, counts as wasted, and the cube stays spent."""
    pos = Position(3)
    pos.clear_passengers()
    pos.line(0, [13, 14])
    pos.build(14, HOUSE)
    assert E.action_open(pos.ks, A_VROOM)
    E.place_cube(pos.ks, 0, A_VROOM)
    E.resolve_vroom(pos.kb, pos.ks)
    assert pos.state.pl[0, PL.points] == 0 and pos.state.pl[0, PL.wasted] == 1 and pos.state.pl[0, PL.cubes] == 19


def test_sticks_are_never_removed_or_moved():
    """BUS-EXP-15: over random legal extensions, every street a player held stays held, and only the end that
    moved changes (BUS-EXP-12)."""
    rng = np.random.default_rng(2)
    for trial in range(15):
        pos = Position(4, seed=trial)
        for p in range(4):
            L.lay_first_stick(pos.kb, pos.ks, p, int(rng.integers(70)))
        for _ in range(40):
            p = int(rng.integers(4))
            legal = sorted(pos.legal(p))
            if not legal:
                continue
            x, y = legal[int(rng.integers(len(legal)))]
            occ, ends = pos.state.occ.copy(), pos.ends(p)
            pos.extend(p, x, y)
            assert ((pos.state.occ & occ) == occ).all()
            assert int((pos.state.occ != occ).sum()) == 1
            other = ends[1] if ends[0] == x else ends[0]
            assert sorted(pos.ends(p)) == sorted((y, other))


# ----------------------------------------------------------------------------------------------- round and end


def test_cleanup_and_the_next_round():
    """BUS-ROUND-1 (planning, then resolution, then cleanup), BUS-CLEAN-1 (cubes leave the board; the bought bus
    stays), BUS-CLEAN-2 (passed flags and placed counters cleared, round + 1), BUS-CLEAN-3 (no end condition: the
    next round starts with planning), BUS-BUY-1 / BUS-BUY-3 (one bus per round, kept). Seat 0 takes Buy a bus and
    Starting player, seats 1 and 2 Vrroomm!; all pass as soon as they have placed two."""
    buyer = plan("buyer", act_bus=10.0, act_start=9.0)
    driver = plan("driver", act_vroom=10.0)
    pos = traced(3, table(buyer, driver, driver))
    for rnd in (1, 2):
        assert next_round(pos.ks, pos.kb) == GOES_ON
        assert pos.state.meta[M.round] == rnd and pos.state.g[GS.end_reason] == -1
        assert (pos.state.nslot == 0).all() and (pos.state.slot == -1).all() and (pos.state.single == -1).all()
        assert pos.state.pl[0, PL.buses] == 1 + rnd and pos.state.g[GS.m] == 1 + rnd
        assert list(pos.state.pl[:3, PL.cubes]) == [20 - 2 * rnd] * 3
    for rnd in (1, 2):
        evs = [e for e in events(pos) if e[0] == rnd]
        kinds = [e[2] for e in evs]
        assert kinds[0] == E.EV.round
        last_plan = max(i for i, k in enumerate(kinds) if k in (E.EV.plan, E.EV.pass_))
        first_res = min(i for i, k in enumerate(kinds) if k in (E.EV.bus, E.EV.clock, E.EV.vroom, E.EV.start))
        first_line = kinds.index(E.EV.line)
        assert last_plan < first_res < first_line and all(k == E.EV.line for k in kinds[first_line:])
        plans = [(e[1], e[3], e[4]) for e in evs if e[2] == E.EV.plan]
        assert sorted(plans) == [(0, A_BUS, 0), (0, A_START, 0), (1, A_VROOM, 0), (1, A_VROOM, 2),
                                 (2, A_VROOM, 1), (2, A_VROOM, 3)]
        assert kinds.count(E.EV.bus) == 1


@pytest.mark.parametrize("cubes,ends", [((2, 0, 0), True), ((3, 0, 0), True), ((20, 20, 0), False)])
def test_out_of_actions_at_cleanup(cubes, ends):
    """BUS-END-2 / BUS-AMB-18 / BUS-CLEAN-3: at cleanup the game ends when at most one player still has cubes,
    including nobody (2 cubes, both placed); with two players holding cubes the next round follows."""
    lazy = plan("lazy")
    pos = traced(3, table(lazy, lazy, lazy))
    pos.state.pl[:3, PL.cubes] = cubes
    assert (next_round(pos.ks, pos.kb) != GOES_ON) == ends
    assert pos.state.g[GS.end_reason] == (rc.END_OUT if ends else -1)
    if not ends:
        next_round(pos.ks, pos.kb)
        second = [e[2] for e in events(pos) if e[0] == 2]
        assert second[:2] == [E.EV.round, E.EV.plan]


@pytest.mark.parametrize("city_full", [True, False])
def test_last_gem_ends_the_game_at_once(city_full):
    """BUS-AMB-12 / BUS-END-1 / BUS-END-4: seat 0 takes the Clock and the last gem. The game ends at once: no
    Vrroomm!, no Starting player, no cleanup check (only seat 0 has cubes, yet the cause is time collapse); the
    taker still has the gem. If the city filled earlier that round, that is recorded as the secondary flag."""
    stopper = plan("stopper", clock=10.0, act_clock=10.0, act_bld=8.0, act_vroom=7.0)
    pos = traced(3, table(stopper, None, None))
    pos.state.pl[1:3, PL.cubes] = 0
    pos.state.g[GS.gems] = 1
    if city_full:
        fill_city_but_one(pos)
    assert next_round(pos.ks, pos.kb) != GOES_ON
    assert pos.state.g[GS.end_reason] == (rc.END_TIME_FULL if city_full else rc.END_TIME)
    kinds = [e[2] for e in events(pos)]
    assert kinds[-1] == E.EV.clock and events(pos, E.EV.clock)[0][3] == 1
    assert E.EV.vroom not in kinds and E.EV.start not in kinds and E.EV.line not in kinds
    assert (E.EV.city_full in kinds) == city_full
    assert pos.state.pl[0, PL.gems] == 1 and pos.state.g[GS.gems] == 0


@pytest.mark.parametrize("others_have_cubes", [True, False])
def test_city_full_ends_at_the_end_of_the_round(others_have_cubes):
    """BUS-AMB-17 / BUS-END-3 / BUS-END-4: seat 0 (M = 2) holds New buildings slots a and b; slot b fills the last
    space, slot a then builds nothing. The rest of the round still resolves (Clock, seat 1's Vrroomm!, Starting
    player, cleanup) and the game ends after it: city_full, or out_of_actions+city_full when seat 0 alone still
    has cubes."""
    builder = plan("builder2", clock=-10.0, act_bld=10.0)
    starter = plan("starter", act_start=10.0, act_vroom=9.0)
    pos = traced(3, table(builder, starter, None))
    pos.set_buses(0, 2)
    pos.state.pl[2, PL.cubes] = 0
    if not others_have_cubes:
        pos.state.pl[1, PL.cubes] = 0
    last = fill_city_but_one(pos)
    assert next_round(pos.ks, pos.kb) != GOES_ON
    assert pos.state.bld[last] >= 0
    acts = [(e[4], e[5]) for e in events(pos, E.EV.action)]
    assert acts == [(1, 1), (0, 2)] and len(events(pos, E.EV.bld)) == 1 and pos.state.pl[0, PL.wasted] >= 1
    kinds = [e[2] for e in events(pos)]
    after = kinds[kinds.index(E.EV.city_full):]
    assert E.EV.clock in after and E.EV.start in after and after.count(E.EV.line) == 3
    if others_have_cubes:
        assert [e[1] for e in events(pos, E.EV.vroom)] == [1] and events(pos, E.EV.start)[0][3:5] == (1, 1)
        assert pos.state.g[GS.end_reason] == rc.END_FULL
    else:
        assert pos.state.g[GS.end_reason] == rc.END_OUT_FULL
