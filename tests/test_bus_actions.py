"""Action rules on hand-built positions: Vrroomm! (rulebook example), settling, zones, clock, ranking."""

from sim.bus import SPEC
from sim.bus.position import Position
from sim.bus.rules import Rules
from sim.bus.state import HOUSE, OFFICE, PUB
from sim.bus.state import GS, PL

YELLOW, GREEN, BLUE = 0, 1, 2


def test_vroom_rulebook_example():
    """Rulebook Vrroomm! example (BUS-VROOM-1..8, BUS-AMB-13, BUS-AMB-28), mapped onto the real board: target Office.
    Yellow (3 buses) line 3-2-8: D = 3 (passenger, no office), E = 2 (passenger in its own office), C = 8 (empty
    office) -> only D can travel: 1 point, D -> C. Green (2 buses) line 10-9-14-8: 2 passengers at station 10,
    A = 14 office taken by its passenger, C now full, B = 9 one empty office -> 1 point, station -> B. Blue (1 bus)
    line 22-23-17-16: F = 23 (2), G = 22 (1) waiting, 3 empty offices at 16 and 17 -> 1 point."""
    pos = Position(3)
    pos.clear_passengers()
    pos.line(YELLOW, [3, 2, 8])
    pos.line(GREEN, [10, 9, 14, 8])
    pos.line(BLUE, [22, 23, 17, 16])
    for x in (2, 8, 14, 9, 16, 16, 17):
        pos.build(x, OFFICE)
    for x, k in ((3, 1), (2, 1), (14, 1), (10, 2), (23, 2), (22, 1)):
        pos.passengers(x, k)
    pos.set_buses(YELLOW, 3)
    pos.set_buses(GREEN, 2)
    pos.set_buses(BLUE, 1)
    gained = pos.vroom([YELLOW, GREEN, BLUE], OFFICE)
    assert gained == [1, 1, 1]
    pax = pos.state.pax
    assert pax[3] == 0 and pax[8] == 1  # D -> C
    assert pax[10] == 1 and pax[9] == 1  # station -> B
    assert pax[2] == 1 and pax[14] == 1  # satisfied passengers stay (BUS-VROOM-8)
    assert pax.sum() == 8  # BUS-INV-1: nobody leaves the board


def test_vroom_count_hints():
    """BUS-VROOM-6 test hints: 3 buses, 1 wanting passenger, 5 empty targets -> d = 1; 1 bus -> d <= 1;
    a building filled by slot a cannot be used by slot b (BUS-VROOM-3/5/8, BUS-INV-6)."""
    pos = Position(3)
    pos.clear_passengers()
    pos.line(YELLOW, [12, 13, 14, 20, 19])
    for x in (12, 13, 14, 14, 20):
        pos.build(x, PUB)
    pos.passengers(19, 1)
    pos.set_buses(YELLOW, 3)
    pos.settle(PUB)
    assert pos.delivery_count(YELLOW) == 1
    pos2 = Position(3)
    pos2.clear_passengers()
    pos2.line(YELLOW, [13, 14, 15])
    pos2.line(GREEN, [13, 14, 9])
    pos2.build(13, HOUSE)
    pos2.passengers(15, 1)
    pos2.passengers(9, 1)
    assert pos2.vroom([YELLOW, GREEN], HOUSE) == [1, 0, 0]  # green finds the only house full


def test_settling_one_passenger_per_building():
    """BUS-VROOM-2: at an intersection with 2 passengers and 1 house, one is settled and one wants to travel."""
    pos = Position(3)
    pos.clear_passengers()
    pos.build(9, HOUSE)
    pos.passengers(9, 2)
    pos.settle(HOUSE)
    assert pos.state.want[9] == 1 and pos.state.room[9] == 0
    pos.settle(OFFICE)
    assert pos.state.want[9] == 2 and pos.state.room[9] == 0


def test_zone_order():
    """BUS-BLD-3 / BUS-AMB-16 / BUS-BLD-4: B opens only when A is full, and so on; a full city has no zone."""
    pos = Position(3)
    assert pos.open_zone() == 0
    for sp in range(47):
        if pos.board.sp_zone[sp] == 0:
            pos.build(int(pos.board.sp_inter[sp]), HOUSE)
    assert pos.open_zone() == 1
    while pos.open_zone() >= 0:
        z = pos.open_zone()
        sp = next(s for s in range(47) if pos.board.sp_zone[s] == z and pos.state.bld[s] < 0)
        pos.build(int(pos.board.sp_inter[sp]), PUB)
    assert pos.state.g[GS.city_full] == 1  # BUS-END-3 armed


def test_clock_run_stop_and_last_gem():
    """BUS-CLOCK-2/3/4, BUS-AMB-10/11/12, BUS-END-1: nobody -> House->Office->Pub->House; stopping keeps the hand and
    takes a gem; the last gem ends the game. With clock_advances_round_1=False the hand stays in round 1."""
    pos = Position(4)
    pos.set_round(1)
    for expected in (OFFICE, PUB, HOUSE):
        assert not pos.clock_step(-1)
        assert pos.clock == expected
    stopper = Position(4, table=SPEC.strategies.table(["random"]))
    stopper.set_round(2)
    ended = False
    steps = 0
    while not ended and steps < 200:
        before = stopper.clock
        gems = stopper.gems_on_clock
        ended = stopper.clock_step(0)
        steps += 1
        if stopper.gems_on_clock < gems:
            assert stopper.clock == before
    assert ended and stopper.gems_on_clock == 0 and int(stopper.state.pl[0, PL.gems]) == 5
    frozen = Position(4, Rules(clock_advances_round_1=False))
    frozen.set_round(1)
    frozen.clock_step(-1)
    assert frozen.clock == HOUSE


def test_ranking_tie_breaks():
    """BUS-SCORE-2/3/4, BUS-AMB-22, BUS-AMB-32: score = points - gems; ties go to more gems, then the disc lowest in
    the stack (earliest to reach the final points), else shared ranks."""
    pos = Position(4)
    pos.score(0, 6, 1, 10)
    pos.score(1, 5, 0, 3)
    pos.score(2, 3, 0, 4)
    pos.score(3, 2, 0, 5)
    assert pos.ranking() == ([1, 2, 3, 4], 1)
    pos.score(0, 6, 1, 10)
    pos.score(1, 5, 0, 3)
    ranks, tie = pos.ranking()
    assert ranks[0] == 1 and ranks[1] == 2 and tie == 1  # 5-1 = 5-0: more gems wins
    pos.score(0, 5, 0, 10)
    pos.score(1, 5, 0, 3)
    ranks, tie = pos.ranking()
    assert ranks[:2] == [2, 1] and tie == 2  # seat 1 reached 5 first: lowest disc
    for p in range(4):
        pos.score(p, 0, 0, 0)
    ranks, tie = pos.ranking()
    assert ranks == [1, 1, 1, 1] and tie == 3
