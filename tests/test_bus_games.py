"""Whole Bus games: invariants over many checked games, determinism, records, replays, trace audits of §3-§14."""

import numpy as np
import pytest

from sim.bus import SPEC
from sim.bus import engine as E
from sim.bus.records import END_LABELS
from sim.bus.rules import Rules
from sim.core.errors import PlaytestError

HEUR = ["balanced", "commuter", "expander", "builder", "clockmaster"]


def _run(names, n, games, seed=1, rules=Rules(), check=True, first=0):
    table = SPEC.strategies.table(names)
    seats = np.array([np.roll(np.arange(n) % len(names), i) for i in range(games)])
    r = SPEC.play_chunk(rules, n, seats, first, games, seed, table, check)
    return r.games, r.players, seats


col = SPEC.game_col
pcol = SPEC.player_col


@pytest.mark.parametrize("n", [3, 4, 5])
def test_invariants_random_games(n):
    """BUS-INV-1, BUS-INV-2, BUS-INV-3, BUS-INV-4, BUS-INV-5, BUS-INV-6, BUS-INV-7, BUS-INV-8 and BUS-SCORE-1 are
    asserted by the kernel's checked mode over 10,000 random games in total (3334 per player count), plus
    BUS-ROUND-2 (<= 10 rounds), BUS-COMP-8 / BUS-INV-4 (gems <= 4 or 5), BUS-SCORE-2 (score = points - gems),
    BUS-COMP-4 (cubes_left + placed + markers = 20), BUS-COMP-7 (passengers placed <= 11), BUS-AMB-31."""
    g, p, _ = _run(["random"], n, 3334, seed=n)
    assert g[:, col("rounds")].max() <= 10
    assert (g[:, col("gems_taken")] <= (4 if n == 3 else 5)).all()
    assert (p[:, :, pcol("score")] == p[:, :, pcol("points")] - p[:, :, pcol("gems")]).all()
    assert (p[:, :, pcol("cubes_left")] + p[:, :, pcol("cubes_placed")] + p[:, :, pcol("loop_markers_paid")]
            == 20).all()
    assert (g[:, col("passengers_placed")] <= 11).all()
    assert (p[:, :, pcol("sticks_used")] <= p[:, :, pcol("stick_limit")]).all()
    assert set(np.unique(g[:, col("end_reason")])) <= set(range(len(END_LABELS)))


def test_invariants_heuristic_games_all_flags():
    """BUS-INV-* in checked mode for heuristic play under every BUS-AMB flag variant (AMB-1 slots, AMB-3 loop
    cost, AMB-5 exception 1 per line, AMB-6 strict parallel, AMB-10 clock in round 1, AMB-17 city full at once,
    AMB-21 fixed short seats)."""
    variants = [Rules(), Rules(slots_per_action=3), Rules(slots_per_action=8), Rules(loop_marker_costs_cube=True),
                Rules(exception1_per_end=False), Rules(parallel_requires_end_stick=True),
                Rules(clock_advances_round_1=False), Rules(city_full_ends_at_once=True),
                Rules(short_colour_seats="1")]
    for rules in variants:
        g, p, _ = _run(HEUR[:4], 4, 150, rules=rules)
        assert (p[:, :, pcol("points")].sum(axis=1) == g[:, col("delivered")]).all()
    g, p, _ = _run(HEUR[:4], 4, 150, rules=Rules(short_colour_seats="1"))
    assert (p[:, 1, pcol("stick_limit")] == 18).all() and (p[:, 0, pcol("stick_limit")] == 28).all()


def test_heuristics_play_sensible_games():
    """Strategies score points and games end by the real end conditions (BUS-END-1..3), with heuristics far
    ahead of random play; each heuristic does what its name says."""
    g, p, seats = _run(HEUR, 5, 600, check=False)
    assert g[:, col("delivered")].mean() > 20
    ends = set(np.unique(g[:, col("end_reason")]))
    assert {1, 2} <= ends
    names = np.array(HEUR)[seats]
    act = {k: p[:, :, pcol(k)] for k in ("act_bus", "act_exp", "act_bld", "act_clock", "points")}
    assert act["act_bus"][names == "commuter"].mean() > act["act_bus"][names == "builder"].mean()
    assert act["act_exp"][names == "expander"].mean() > act["act_exp"][names == "commuter"].mean()
    assert act["act_bld"][names == "builder"].mean() > act["act_bld"][names == "expander"].mean()
    assert act["act_clock"][names == "clockmaster"].mean() > act["act_clock"][names == "balanced"].mean()
    gr, pr, _ = _run(["random"], 5, 600, check=False)
    assert p[:, :, pcol("points")].mean() > 3 * pr[:, :, pcol("points")].mean()


def test_seeds_change_games():
    """BUS-AMB-31 / BUS-AMB-23: the same seed gives the same records, another seed other games (chunking and worker
    counts are covered for every game by tests/test_conformance.py)."""
    g1, p1, _ = _run(HEUR[:4], 4, 60, seed=9, check=False)
    g2, p2, _ = _run(HEUR[:4], 4, 60, seed=9, check=False)
    assert (g1 == g2).all() and (p1 == p2).all()
    g3, _, _ = _run(HEUR[:4], 4, 60, seed=10, check=False)
    assert not (g3 == g1).all()


def test_short_colours_random_seats():
    """BUS-COMP-3 / BUS-AMB-21 / BUS-SETUP-1: 3 players all have 28 sticks; with 4 (5) players one (two) random
    seats get 18, recorded per game in short_seats_mask."""
    for n, k in ((3, 0), (4, 1), (5, 2)):
        g, p, _ = _run(["random"], n, 300, check=False)
        short = (p[:, :, pcol("stick_limit")] == 18)
        assert (short.sum(axis=1) == k).all()
        assert ((p[:, :, pcol("stick_limit")] == 28) | short).all()
        if k:
            assert len(np.unique(g[:, col("short_seats_mask")])) > 1
            masks = (short * (1 << np.arange(n))).sum(axis=1)
            assert (masks == g[:, col("short_seats_mask")]).all()


def _audit(events, n, rules=Rules()):
    """Replay the rules over a trace; raise AssertionError at the first event that breaks one."""
    rounds = {}
    for ev in events:
        rounds.setdefault(int(ev[0]), []).append(ev)
    setup = rounds.pop(0)
    blds = [e for e in setup if e[2] == E.EV.setup_bld]
    firsts = [e for e in setup if e[2] == E.EV.setup_stick]
    seconds = [e for e in setup if e[2] == E.EV.stick]
    assert [int(e[1]) for e in blds] == [p for p in range(n) for _ in range(2)]  # BUS-SETUP-7
    assert all(e[6] == 0 for e in blds)  # zone A
    assert [int(e[1]) for e in firsts] == list(range(n))  # BUS-SETUP-8
    assert [int(e[1]) for e in seconds] == list(range(n - 1, -1, -1))  # BUS-SETUP-9
    big_m = 1
    clock = 0
    gems = 4 if n == 3 else 5
    start = 0
    for rnd in sorted(rounds):
        evs = rounds[rnd]
        head = evs[0]
        assert head[2] == E.EV.round and head[3] == start and head[4] == big_m and head[5] == clock  # BUS-PLAN-1
        plans = [e for e in evs if e[2] in (E.EV.plan, E.EV.pass_)]
        passed, placed, order = set(), [0] * n, []
        slots = {0: 0, 2: 0, 3: 0, 5: 0}
        singles = set()
        expected = start
        for e in plans:
            seat = int(e[1])
            while expected in passed:
                expected = (expected + 1) % n
            assert seat == expected  # BUS-PLAN-1 clockwise, BUS-PLAN-3 passed players skipped
            expected = (expected + 1) % n
            if e[2] == E.EV.pass_:
                assert e[3] == 1 or placed[seat] >= 2  # BUS-PLAN-2: no voluntary pass before two cubes
                passed.add(seat)
            else:
                a, k = int(e[3]), int(e[4])
                if a in slots:
                    assert k == slots[a] and k < rules.slots_per_action  # BUS-PLAN-7 letter order, BUS-AMB-1
                    slots[a] += 1
                else:
                    assert a not in singles  # BUS-PLAN-6
                    singles.add(a)
                placed[seat] += 1
                order.append((seat, a, k))
        assert len(passed) == n  # BUS-PLAN-9
        res = [e for e in evs if e[2] in (E.EV.action, E.EV.bus, E.EV.clock, E.EV.vroom, E.EV.start)]
        acts = [int(e[3]) if e[2] == E.EV.action else {E.EV.bus: 1, E.EV.clock: 4, E.EV.vroom: 5, E.EV.start: 6}[int(e[2])]
                for e in res]
        assert acts == sorted(acts)  # BUS-RES-1: actions in order 1..7
        exp_slots = [int(e[4]) for e in res if e[2] == E.EV.action and e[3] == 0]
        assert exp_slots == list(range(slots[0] - 1, -1, -1))  # BUS-RES-2 expansion reverse
        bld_slots = [int(e[4]) for e in res if e[2] == E.EV.action and e[3] == 3]
        assert bld_slots == list(range(slots[3] - 1, -1, -1))[: len(bld_slots)]  # BUS-RES-2 buildings reverse
        pax_slots = [int(e[4]) for e in res if e[2] == E.EV.action and e[3] == 2]
        assert pax_slots == list(range(slots[2]))  # BUS-RES-2 passengers forward
        vroom_slots = [int(e[3]) for e in res if e[2] == E.EV.vroom]
        assert vroom_slots in (list(range(slots[5])), [])  # BUS-RES-2 Vrroomm! forward (or lost, BUS-END-1)
        bonus = 1 if n == 5 else 0
        cur_m = big_m
        for e in evs:
            if e[2] == E.EV.action and e[3] == 0:
                assert e[5] == max(0, big_m + bonus - e[4])  # BUS-EXP-3, BUS-AMB-24: M before the purchase
            elif e[2] == E.EV.bus:
                cur_m = max(cur_m, int(e[4]))
                assert e[4] == cur_m  # BUS-RES-4 / BUS-BUY-2
            elif e[2] == E.EV.action and e[3] in (2, 3):
                assert e[5] == max(0, cur_m - e[4])  # BUS-PAX-1 / BUS-BLD-1 with the raised M
        big_m = cur_m
        clocks = [e for e in evs if e[2] == E.EV.clock]
        assert len(clocks) <= 1
        if clocks:  # BUS-CLOCK-1 runs every round that reaches step 5
            c = clocks[0]
            if c[3]:
                gems -= 1
                assert c[5] == gems and c[4] == clock  # BUS-CLOCK-3: hand stays
            else:
                clock = (clock + 1) % 3  # BUS-CLOCK-4 / BUS-AMB-10 / BUS-AMB-11
                assert c[4] == clock
        for e in evs:
            if e[2] == E.EV.vroom:
                assert e[6] == clock  # BUS-CLOCK-5 / BUS-VROOM-1
                assert e[4] <= e[5]  # BUS-VROOM-5: at most one passenger per bus
        starts = [e for e in evs if e[2] == E.EV.start]
        if starts:
            s = starts[0]
            if s[4]:
                assert (s[1], 6, 0) in order  # BUS-START-1
            else:
                assert s[3] == (start + 1) % n and 6 not in singles  # BUS-START-2
            start = int(s[3])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_trace_audit(n):
    """Trace audit over traced games of mixed strategies: BUS-SETUP-7, BUS-SETUP-8, BUS-SETUP-9, BUS-SETUP-10,
    BUS-PLAN-1, BUS-PLAN-2, BUS-PLAN-3, BUS-PLAN-6, BUS-PLAN-7, BUS-PLAN-9, BUS-RES-1, BUS-RES-2, BUS-RES-4,
    BUS-EXP-3, BUS-AMB-24, BUS-BUY-2, BUS-PAX-1, BUS-BLD-1, BUS-CLOCK-1, BUS-CLOCK-3, BUS-CLOCK-4, BUS-CLOCK-5,
    BUS-VROOM-1, BUS-VROOM-5, BUS-START-1, BUS-START-2."""
    names = ["random"] + HEUR
    table = SPEC.strategies.table(names)
    for gi in range(40):
        seat_row = np.array([(gi + s) % len(names) for s in range(n)])
        _audit(SPEC.trace(Rules(), n, seat_row, gi, 5, table, names).events, n)


def test_records_columns_and_ranks():
    """BUS-SCORE-2/3/4 and the records contract: rank 1 = best with shared ranks, won for each rank-1 seat,
    winner_seat -1 when shared, n_winners, tie_break codes, gem rounds and last gem seat consistent."""
    g, p, _ = _run(HEUR[:4] + ["random"], 5, 400, check=False)
    rank = p[:, :, pcol("rank")]
    won = p[:, :, pcol("won")]
    assert ((rank == 1) == (won == 1)).all()
    nw = won.sum(axis=1)
    assert (nw == g[:, col("n_winners")]).all()
    assert ((nw == 1) == (g[:, col("winner_seat")] >= 0)).all()
    assert ((g[:, col("tie_break")] == 3) == (nw > 1)).all()
    score = p[:, :, pcol("score")]
    for i in range(len(g)):
        order = np.argsort(-score[i], kind="stable")
        assert (np.diff(score[i][order]) <= 0).all()
        assert (rank[i][score[i] > score[i].min()] <= rank[i][score[i] == score[i].min()].min()).all()
    taken = g[:, col("gems_taken")]
    for i in range(len(g)):
        rounds = g[i, col("gem_round_1"):col("gem_round_5") + 1]
        assert (rounds[:taken[i]] >= 1).all() and (rounds[taken[i]:] == -1).all()
        assert (np.diff(rounds[:taken[i]]) >= 0).all()
        if g[i, col("end_reason")] in (0, 4):
            assert g[i, col("last_gem_seat")] >= 0 and taken[i] == 5
    slot_cols = [f"cubes_{a}_{k}" for a in ("exp", "pax", "bld", "vroom") for k in range(6)]
    total = sum(g[:, col(c)] for c in slot_cols) + g[:, col("cubes_bus")] + g[:, col("cubes_clock")] + \
        g[:, col("cubes_start")]
    assert (total == g[:, col("cubes_placed")]).all()


def test_replay_is_readable():
    """Replay mentions the setup, planning, each resolved action, lines, the clock, deliveries and the end; the
    planning and resolution headers come once per round, each after the round's own line."""
    table = SPEC.strategies.table(HEUR[:4])
    text = SPEC.replay(Rules(), 4, np.arange(4), 2, 3, table, HEUR[:4])
    for needle in ("== Setup ==", "lays the first stick", "Planning:", "Resolution:", "Line expansion slot",
                   "5. Clock", "line of seat", "== Game over", "points -", "Final: seat 0"):
        assert needle in text
    lines = text.splitlines()
    rounds = [i for i, line in enumerate(lines) if line.startswith("== Round ")]
    assert len(rounds) > 1
    for start, end in zip(rounds, rounds[1:] + [len(lines)]):
        headers = [line for line in lines[start + 1:end] if line in (" Planning:", " Resolution:")]
        assert lines[start + 1] == " Planning:" and headers == [" Planning:", " Resolution:"]


def test_rules_validation_and_board_loader(tmp_path):
    """SPEC.validate and the board loader reject bad input with one-line PlaytestErrors (BUS-AMB-2 --set board)."""
    with pytest.raises(PlaytestError, match="slots_per_action"):
        SPEC.validate(Rules(slots_per_action=0), 4)
    with pytest.raises(PlaytestError, match="short_colour_seats"):
        SPEC.validate(Rules(short_colour_seats="1,3"), 4)
    with pytest.raises(PlaytestError, match="not found"):
        SPEC.play_chunk(Rules(board=str(tmp_path / "missing.json")), 4, np.zeros((1, 4), int), 0, 1, 1,
                   SPEC.strategies.table(["random"]))
    bad = tmp_path / "bad.json"
    bad.write_text('{"intersections": [{"id": 0}, {"id": 1}, {"id": 2}], "streets": [[0, 1], [1, 1]], '
                   '"building_spaces": []}')
    with pytest.raises(PlaytestError, match="street 1"):
        SPEC.play_chunk(Rules(board=str(bad)), 4, np.zeros((1, 4), int), 0, 1, 1, SPEC.strategies.table(["random"]))
    with pytest.raises(PlaytestError, match="3 to 5"):
        SPEC.play_chunk(Rules(), 6, np.zeros((1, 6), int), 0, 1, 1, SPEC.strategies.table(["random"]))
