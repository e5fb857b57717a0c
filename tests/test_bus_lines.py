"""Line-expansion rules (BUS-EXP-*, BUS-SETUP-8/9) on hand-built positions on the real board.

The rulebook's worked examples have pictures we cannot see; each test maps the text onto real intersections of
sim/bus/data/board.json (ids as in the file) and says how in its docstring.
"""

import json

import pytest

from sim.bus import engine as E
from sim.bus.checks import check_options
from sim.bus.data import load_board
from sim.bus.lines import KIND_EXC1, KIND_EXC2, KIND_FREE
from sim.bus.position import Position
from sim.bus.rules import Rules
from sim.bus.state import PL

BLUE, RED, YELLOW, GREEN = 0, 1, 2, 3


def test_board_matches_spec_counts():
    """BUS-COMP-1 / BUS-AMB-2: 36 intersections, 70 streets, 47 spaces (A12 B11 C9 D15), stations 10 and 25,
    central 14 15 20 21 with two A spaces each, every space on one intersection, stations without spaces."""
    b = load_board()
    assert len(b.deg) == 36 and len(b.st_a) == 70 and len(b.sp_inter) == 47
    assert list(b.zone_n) == [12, 11, 9, 15]
    assert list(b.stations) == [10, 25] and list(b.central) == [14, 15, 20, 21]
    for c in b.central:
        assert sorted(b.sp_zone[b.sp_inter == c]) == [0, 0]
    for st in b.stations:
        assert (b.sp_inter == st).sum() == 0
    packaged = json.load(open("sim/bus/data/board.json"))
    assert "source" in packaged and "notes" in packaged


def test_example_A_forced_turn():
    """Rulebook example A (BUS-EXP-8, BUS-EXP-6): blue's end at 8 (line 6-7-8); the two streets 8-1 and 8-2
    already carry red, whose line 0-1-8-2-3 runs through 8 (its ends are 0 and 3), so blue's only move at 8 is
    the one free street, 8-14 ('turn left')."""
    pos = Position(4)
    pos.line(BLUE, [6, 7, 8])
    pos.line(RED, [0, 1, 8, 2, 3])
    from_8 = {m for m in pos.legal(BLUE) if m[0] == 8}
    assert from_8 == {(8, 14)}
    assert not pos.is_legal(BLUE, 8, 1) and not pos.is_legal(BLUE, 8, 2)


def test_example_B_parallel_at_opponents_end_and_lost_when_it_moves():
    """Rulebook example B (BUS-EXP-10, BUS-AMB-6): blue's end B = 12 (line 6-5-12); yellow's line 20-19-12 ends
    at 12, so besides the free 12-13 and 12-18 blue may run alongside yellow on 12-19: three choices. If yellow,
    resolving first, extends 12 -> 13, its end leaves 12 and blue loses both 12-19 and 12-13."""
    pos = Position(4)
    pos.line(BLUE, [6, 5, 12])
    pos.line(YELLOW, [20, 19, 12])
    kinds = {m: k for m, k in pos.legal_kinds(BLUE).items() if m[0] == 12}
    assert kinds == {(12, 13): KIND_FREE, (12, 18): KIND_FREE, (12, 19): KIND_EXC2}
    pos.extend(YELLOW, 12, 13)
    assert {m for m in pos.legal(BLUE) if m[0] == 12} == {(12, 18)}


def test_example_C_both_streets_occupied_never_back_on_itself():
    """Rulebook example C (BUS-EXP-9, BUS-EXP-7, BUS-EXP-11): red's end at 3 (line 10-3); green's line 1-2-3-4-11
    runs through 3, so 3 has no free street: red may take either occupied street (exception 1), never its own
    street back to 10. A street may then hold any number of lines."""
    pos = Position(4)
    pos.line(RED, [10, 3])
    pos.line(GREEN, [1, 2, 3, 4, 11])
    kinds = {m: k for m, k in pos.legal_kinds(RED).items() if m[0] == 3}
    assert kinds == {(3, 2): KIND_EXC1, (3, 4): KIND_EXC1}
    assert not pos.is_legal(RED, 3, 10)
    pos.extend(RED, 3, 4)
    pos.line(YELLOW, [11, 4, 3])  # a third line on 3-4 is fine (BUS-AMB-27)
    assert bin(pos.state.occ[pos.street(3, 4)]).count("1") == 3


def test_example_D_no_parallel_when_ends_do_not_meet():
    """Rulebook example D (BUS-EXP-8, BUS-EXP-10): red's end at 5 (line 6-5); yellow's line 0-5-13-14 uses 5-0 and
    5-13 but ends at 0 and 14, not at 5; 5-12 is free, so red must follow it."""
    pos = Position(4)
    pos.line(RED, [6, 5])
    pos.line(YELLOW, [0, 5, 13, 14])
    assert {m for m in pos.legal(RED) if m[0] == 5} == {(5, 12)}
    assert not pos.is_legal(RED, 5, 0) and not pos.is_legal(RED, 5, 13)


def test_loop_example_closing_at_B():
    """Rulebook loop example, first way (BUS-EXP-13, BUS-EXP-2, BUS-INV-3): black's line 13-14-20 has ends A = 13
    and B = 20, which street 13-20 joins. Closing from A to B puts both ends on B: every next stick leaves B
    along one of the two 'b' streets (20-19, 20-21), and the line is still one trail."""
    pos = Position(4)
    pos.line(BLUE, [13, 14, 20])
    pos.extend(BLUE, 13, 20)
    assert pos.ends(BLUE) == (20, 20)
    assert pos.legal(BLUE) == {(20, 19), (20, 21)}
    assert pos.is_trail(BLUE)
    pos.extend(BLUE, 20, 19)
    assert sorted(pos.ends(BLUE)) == [19, 20] and pos.is_trail(BLUE)


def test_loop_example_closing_at_A():
    """Rulebook loop example, second way (BUS-EXP-13): closing from B = 20 to A = 13 puts both ends on A; the next
    stick must use one of the 'a' streets at 13 that are not black (13-5, 13-7, 13-12)."""
    pos = Position(4)
    pos.line(BLUE, [13, 14, 20])
    pos.extend(BLUE, 20, 13)
    assert pos.ends(BLUE) == (13, 13)
    assert pos.legal(BLUE) == {(13, 5), (13, 7), (13, 12)}


def test_loop_marker_cube_flag():
    """BUS-AMB-3 / BUS-COMP-4: closing a circuit costs no cube by default; with loop_marker_costs_cube it costs one."""
    for flag, cost in ((False, 0), (True, 1)):
        pos = Position(4, Rules(loop_marker_costs_cube=flag))
        pos.line(BLUE, [13, 14, 20])
        before = int(pos.state.pl[BLUE, PL.cubes])
        pos.extend(BLUE, 13, 20)
        assert before - int(pos.state.pl[BLUE, PL.cubes]) == cost


def test_closing_onto_mid_line_keeps_a_trail():
    """BUS-AMB-7 / BUS-EXP-12: line 7-13-14-8 closing 8 -> 7 onto the other end is a circuit; line 5-13-14-20 then
    20 -> 13 closes onto the middle: the moved end sits at 13, the other stays at 5, and the line is a trail."""
    pos = Position(4)
    pos.line(BLUE, [5, 13, 14, 20])
    pos.extend(BLUE, 20, 13)
    assert sorted(pos.ends(BLUE)) == [5, 13]
    assert pos.is_trail(BLUE)
    assert int(pos.state.pl[BLUE, PL.loops]) == 1


def test_branching_from_the_middle_is_illegal():
    """BUS-EXP-6 / BUS-EXP-1: sticks only leave from the two ends, never from a middle intersection."""
    pos = Position(4)
    pos.line(BLUE, [6, 7, 8, 14])
    assert all(x in (6, 14) for x, _ in pos.legal(BLUE))
    assert not pos.is_legal(BLUE, 7, 13)


def test_exception_1_is_judged_per_end_and_variant():
    """BUS-AMB-5 / BUS-EXP-9: end 3 has no free street (green runs 1-2-3-4-11) while the other end 17 has free
    streets: exception 1 still applies at 3 (per end). With exception1_per_end=False it does not."""
    pos = Position(4)
    pos.line(RED, [17, 10, 3])
    pos.line(GREEN, [1, 2, 3, 4, 11])
    assert {(3, 2), (3, 4)} <= pos.legal(RED)
    strict = Position(4, Rules(exception1_per_end=False))
    strict.line(RED, [17, 10, 3])
    strict.line(GREEN, [1, 2, 3, 4, 11])
    assert not {m for m in strict.legal(RED) if m[0] == 3}


def test_exception_2_needs_every_occupant_and_strict_variant():
    """BUS-EXP-10 / BUS-AMB-6: to run alongside two lines on a street, both must end at X. With
    parallel_requires_end_stick the street must be the one that ends there, not any street at X."""
    pos = Position(4)
    pos.line(BLUE, [6, 5, 12])
    pos.line(YELLOW, [20, 19, 12])
    pos.line(GREEN, [26, 19, 12])  # green shares 19-12 and ends at 12 as well
    assert (12, 19) in pos.legal(BLUE)
    pos2 = Position(4)
    pos2.line(BLUE, [6, 5, 12])
    pos2.line(YELLOW, [20, 19, 12])
    pos2.line(GREEN, [25, 19, 12, 13])  # green on 19-12 but ends at 25 and 13
    assert (12, 19) not in pos2.legal(BLUE)
    # Yellow ends at 12 through 19-12; its other street at 12 would be 12-18 in this line: 18-12-19-20.
    loose = Position(4)
    loose.line(BLUE, [6, 5, 12])
    loose.line(YELLOW, [18, 12, 19, 20])
    loose.extend(YELLOW, 20, 21)
    loose.extend(YELLOW, 18, 24)
    assert (12, 19) not in loose.legal(BLUE)  # yellow's ends are 21 and 24: none at 12
    # Yellow 9-16-17-10-16 closes onto its middle at 16: ends 9 and 16, the stick ending at 16 is 10-16.
    # Blue arrives at 16 from 15 (free streets 16-22, 16-23 remain).
    for strict, expected in ((False, {22, 23, 9, 10, 17}), (True, {22, 23, 10})):
        pos3 = Position(4, Rules(parallel_requires_end_stick=strict))
        pos3.line(YELLOW, [9, 16, 17, 10, 16])
        pos3.line(BLUE, [14, 15, 16])
        assert {y for x, y in pos3.legal(BLUE) if x == 16} == expected


def test_dead_ends_and_stick_limit():
    """BUS-EXP-14 / BUS-EXP-5 / BUS-COMP-3 / BUS-AMB-29: an end with no non-own street has no move; a player with
    no sticks left has no move at all."""
    pos = Position(4)
    pos.line(BLUE, [24, 18, 25, 24])  # triangle 24-18-25 closed at 24 (degree 2): both ends at 24, dead
    assert pos.ends(BLUE) == (24, 24)
    assert pos.legal(BLUE) == set()
    pos.line(RED, [6, 7])
    assert pos.legal(RED)
    pos.state.pl[RED, PL.sticks] = 0
    assert pos.legal(RED) == set()


def test_enumerator_agrees_with_rule_check_on_random_positions():
    """BUS-INV-8 / BUS-EXP-4: on positions grown by random legal moves, the enumerated legal set equals the set of
    (end, street) pairs the independent per-move check accepts (sim/bus/checks.py, also run by the conformance
    suite; here on other positions)."""
    assert check_options(3, positions=40) > 100


def test_setup_second_stick_follows_expansion_rules():
    """BUS-SETUP-8 / BUS-SETUP-9 / BUS-AMB-4: the first stick may share a street; the second (mandatory) one obeys
    §5.3: here seat 1 starts on 14-15 next to seat 0's 15-21 ... verified on traced games in test_bus_games."""
    pos = Position(3)
    pos.line(0, [15, 21])
    pos.line(1, [21, 15])  # first sticks may share a street
    assert pos.state.occ[pos.street(15, 21)] == 0b11
    # Seat 1's second stick: from 15 or 21, free streets first; seat 0 ends at both 15 and 21 so parallel is fine too
    assert all(pos.is_legal(1, x, y) for x, y in pos.legal(1))
    assert (15, 21) not in pos.legal(1)


def test_free_street_counts_follow_the_sticks():
    """BUS-EXP-8's F(X), kept per intersection as sticks are laid, equals a recount of the streets there that hold
    no stick, a street shared by two lines leaving the count once; checked mode catches a count out of step."""
    pos = Position()
    pos.line(BLUE, [14, 15, 16])
    pos.line(RED, [15, 16])
    b, s = pos.board, pos.state
    for x in range(len(b.deg)):
        assert s.free[x] == sum(s.occ[b.inc_s[x, j]] == 0 for j in range(b.deg[x]))
    assert s.free[16] == b.deg[16] - 1 and s.free[15] == b.deg[15] - 2
    s.free[16] += 1
    with pytest.raises(AssertionError, match="BUS-EXP-8"):
        E.check_invariants(pos.ks, pos.kb)
