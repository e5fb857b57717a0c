"""Sea Trade invariants over many games, option generators vs rule checks, determinism and game flow."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from sim.core.graph import bfs_distances
from sim.core.trace import new_trace
from sim.sea_trade import SPEC, play_chunk
from sim.sea_trade.board import FAR, ensure_dist, fill_steps
from sim.sea_trade.engine import (_obstacle_features, _set_targets, check_known_targets, known_sale_target,
                                  leader_gold, pirate_phase, play_game, setup_game)
from sim.sea_trade.moves import (check_invariants, pirate_legal, pirate_options, sail_legal, sail_options,
                                 storm_legal, storm_options)
from sim.sea_trade.rules import Rules
from sim.sea_trade.state import (CARD_ROW, CARD_WIND0, DESIRES, EV_END_TURN, F_BLOCKS, F_BLOCKS_LEADER,
                                 F_SELF_BLOCK, F_THREAT_GAIN, F_UNBLOCK, LAND, M_DIST_DIRTY, M_EVENTS, SEA, SELLS,
                                 new_state)
from tests.sea_trade_positions import named, table

# (lineup, games, rules): 10,400 games in all, every one checked after every turn.
MIXES = [
    (("random",) * 4, 1500, Rules(round_cap=40)),
    (("random", "trader", "raider", "blocker"), 2000, Rules()),
    (("trader",) * 4, 2000, Rules()),
    (("raider", "blocker"), 1500, Rules()),
    (("balanced", "random", "raider"), 1500, Rules(pirates=3, islands=14)),
    (("blocker", "trader", "raider", "balanced", "random"), 1000, Rules()),
    (("trader", "raider", "blocker", "balanced", "random", "trader"), 900, Rules(market_spacing=3)),
]


@pytest.mark.parametrize("lineup,n,rules", MIXES)
def test_invariants_hold_every_turn(lineup, n, rules):
    """58 cards conserved, gold >= 0, hold <= 6, ships off land and storm, pirates legal, at most one winner,
    winner >= win_gold (checked by the kernel after every turn with debug=True)."""
    p = len(lineup)
    seats = np.tile(np.arange(p), (n, 1))
    r = play_chunk(rules, p, seats, 0, n, 17, named(*lineup), debug=True)
    g = r.games
    wins = g[:, SPEC.game_col("end_reason")] == 0
    assert (r.players[:, :, SPEC.player_col("won")].sum(axis=1) == wins).all()
    assert (r.players[:, :, SPEC.player_col("score")] >= 0).all()


def test_invariant_check_can_fail():
    """The debug check really detects a lost card, an overfull hold, a ship on land and a stale cached market."""
    st = new_state(Rules(), 3)
    setup_game(st, 1, 0)
    assert check_invariants(st, 58) == 0
    st.hand[0, 0] += 1
    assert check_invariants(st, 58) == 1
    st.hand[0, 0] -= 1
    st.hold[1, 0] = 7
    st.piles[0] -= 7
    assert check_invariants(st, 58) == 3
    setup_game(st, 1, 0)
    st.ship[2] = int(np.flatnonzero(st.cell == LAND)[0])
    assert check_invariants(st, 58) == 4
    setup_game(st, 1, 0)
    ensure_dist(st)
    st.hold[0, :] = 0
    st.hold[0, SELLS[0]] = 2  # market 0 never buys these: the sale market is another one
    assert known_sale_target(st.rules, st.sea, st.land_dist, st.hold, st.ship, st.known_targets, 0) != 0
    assert check_known_targets(st) == 0
    st.hold[0, SELLS[0]] = 0
    st.hold[0, DESIRES[0]] = 2  # market 0 desires these, but the cache was not told (no forget_targets)
    assert check_known_targets(st) == 10


@njit(cache=True)
def _scramble(st, seed_cells):
    """Random position: pirates, storm and ships on random spaces, every card type in seat 0's hand."""
    n = st.cell.shape[0]
    k = 0
    for p in range(st.pirate.shape[0]):
        st.pirate_at[st.pirate[p]] = -1
    for p in range(st.pirate.shape[0]):
        while True:
            c = seed_cells[k % seed_cells.shape[0]]
            k += 1
            if st.cell[c] == SEA and st.pirate_at[c] < 0:
                break
        st.pirate[p] = c
        st.pirate_at[c] = p
    st.storm[0] = -1
    c = seed_cells[k % seed_cells.shape[0]]
    k += 1
    if st.cell[c] == SEA and st.pirate_at[c] < 0:
        st.storm[0] = c
    for q in range(st.ship.shape[0]):
        while True:
            c = seed_cells[k % seed_cells.shape[0]]
            k += 1
            if st.cell[c] != LAND and c != st.storm[0]:
                break
        st.ship[q] = c
    for t in range(st.hand.shape[1]):
        st.hand[0, t] = 1
    if st.storm[0] >= 0:
        for q in range(st.ship.shape[0]):
            if st.ship[q] == st.storm[0]:
                st.storm[0] = -1
    return n


@njit(cache=True)
def _disagreements(st):
    """Count (move, target) pairs where the option generators and the rule predicates disagree."""
    n = st.cell.shape[0]
    bad = 0
    k = sail_options(st, 0, 0)
    for card in range(CARD_ROW, CARD_WIND0 + 8):
        for to in range(n):
            listed = False
            for i in range(k):
                if st.options[i, 0] == card and st.options[i, 1] == to:
                    listed = True
            if listed != sail_legal(st, st.ship[0], card, to):
                bad += 1
    k = pirate_options(st, 0, 0)
    for p in range(st.pirate.shape[0]):
        for card in range(CARD_WIND0, CARD_WIND0 + 8):
            for to in range(n):
                listed = False
                for i in range(k):
                    if st.options[i, 0] == p and st.options[i, 1] == card and st.options[i, 2] == to:
                        listed = True
                if listed != pirate_legal(st, 0, p, card, to):
                    bad += 1
    k = storm_options(st, 0)
    for i in range(1, k):  # ascending cells (the order ties are broken in)
        if st.options[i, 0] <= st.options[i - 1, 0]:
            bad += 1
    for c in range(n):
        listed = False
        for i in range(k):
            if st.options[i, 0] == c:
                listed = True
        if listed != storm_legal(st, c):
            bad += 1
    return bad


def test_option_generators_agree_with_rule_checks():
    """ST-SAIL-1..5, ST-PIRACY-1, ST-PIRACY-2, ST-TURN-5: generated options == the independent legality checks."""
    rng = np.random.default_rng(5)
    # 8x8 boards use bitboards where a 10x10 board uses tables: both must agree with the rules.
    for players, rules in ((2, Rules()), (4, Rules()), (6, Rules()), (4, Rules(grid_size=10, islands=14))):
        st = new_state(rules, players)
        for gi in range(150):
            setup_game(st, 3, gi)
            _scramble(st, rng.integers(0, rules.grid_size ** 2, size=200))
            assert _disagreements(st) == 0


def _reference_sea(st):
    """fill_steps over a plain queue BFS around land, pirates and the storm: the expected ``sea`` table."""
    n = st.cell.shape[0]
    ref = np.zeros((6, n), np.int64)
    sea = np.zeros((6, n), np.int64)
    blocked = (st.cell == LAND) | (st.pirate_at >= 0)
    if st.storm[0] >= 0:
        blocked[st.storm[0]] = True
    for m in range(6):
        bfs_distances(st.adj, st.degree, blocked, st.market_cell[m], ref[m], st.queue)
    fill_steps(ref, st.adj, st.degree, sea)
    return sea


def _assert_distances(st, where):
    """``sea`` equals the reference on water (land is FAR: no ship is ever there) and ``layers`` holds each
    market's cells layer by layer, ending in an empty layer."""
    sea = _reference_sea(st)
    water = st.cell != LAND
    assert np.array_equal(st.sea[:, water], sea[:, water]), where
    assert (st.sea[:, ~water] == FAR).all(), where
    for m in range(6):
        depth = int(sea[m][water & (sea[m] < FAR)].max())
        for d in range(depth + 2):
            cells = np.flatnonzero(water & (sea[m] == d))
            assert int(st.layers[m, d]) == sum(1 << int(c) for c in cells), (where, m, d)


def _move_obstacle(st, rng):
    """Move a random pirate, or the storm, to a random free sea space (as a Wind or Storm card would)."""
    free = np.flatnonzero((st.cell == SEA) & (st.pirate_at < 0))
    free = free[free != st.storm[0]]
    to = int(rng.choice(free))
    p = int(rng.integers(0, st.pirate.shape[0] + 1))
    if p < st.pirate.shape[0]:
        st.pirate_at[st.pirate[p]] = -1
        st.pirate[p] = to
        st.pirate_at[to] = p
    else:
        st.storm[0] = to
    st.misc[M_DIST_DIRTY] = 1


def test_bitboard_distances_match_queue_bfs():
    """ST-SAIL-1, ST-SAIL-3, ST-SAIL-5: the bitboard step table (grids up to 8x8: ``sea`` and ``layers``)
    equals fill_steps over a plain queue BFS around land, pirates and the storm: built afresh on random
    positions of several grid sizes, and kept up to date (only changed entries rewritten) through runs of
    pirate and storm moves, one to three between rebuilds."""
    rng = np.random.default_rng(8)
    for grid in (8, 5, 7):
        rules = Rules(grid_size=grid, islands=grid + 2, market_spacing=1)
        st = new_state(rules, 3)
        n = grid * grid
        for gi in range(40):
            setup_game(st, 4, gi)
            _scramble(st, rng.integers(0, n, size=200))
            st.misc[M_DIST_DIRTY] = 1
            ensure_dist(st)
            _assert_distances(st, (grid, gi))
            for step in range(30):
                for _ in range(int(rng.integers(1, 4))):
                    _move_obstacle(st, rng)
                ensure_dist(st)
                _assert_distances(st, (grid, gi, step))


def _route_features(st, k, placing, seat, bits):
    """blocks / blocks_leader / self_block / unblock of options 0..k-1, by bitboards or by the table check."""
    n = st.ship.shape[0]
    _obstacle_features(st.features, st.options, st.pirate, k, placing, st.storm[0], st.gold, st.ship, st.sea,
                       st.land_dist, st.king, st.layers, st.ring, bits, int(st.rules[0]), st.target,
                       st.target_dist, n, seat, leader_gold(st.gold, n, seat), True)
    return st.features[[F_SELF_BLOCK, F_BLOCKS, F_BLOCKS_LEADER, F_UNBLOCK], :k].copy()


def test_bitboard_routes_match_table_check():
    """ST-SAIL-1, ST-SAIL-3: the route features on bitboards (BFS layers meeting Chebyshev rings, grids up to
    8x8) equal the per-option table check, for storm placements and pirate moves on random positions."""
    rng = np.random.default_rng(11)
    hits = 0
    for grid in (8, 5, 7):
        rules = Rules(grid_size=grid, islands=grid + 2, market_spacing=1)
        st = new_state(rules, 4)
        for gi in range(60):
            setup_game(st, 6, gi)
            _scramble(st, rng.integers(0, grid * grid, size=200))
            st.hold[:, :] = rng.integers(0, 2, st.hold.shape)
            st.gold[:] = rng.integers(0, 4, 4)  # ties for the gold lead are common
            st.misc[M_DIST_DIRTY] = 1
            ensure_dist(st)
            _set_targets(st.rules, st.sea, st.land_dist, st.ship, st.hand, st.hold, st.gold, st.known_targets,
                         st.target, st.target_dist, 4, 0, True)
            seat = gi % 4
            for placing, k in ((True, storm_options(st, 0)), (False, pirate_options(st, 0, 0))):
                fast = _route_features(st, k, placing, seat, True)
                slow = _route_features(st, k, placing, seat, False)
                assert np.array_equal(fast, slow), (grid, gi, placing)
                hits += int(fast[1].sum())
    assert hits > 100  # the positions do put options on routes


def test_pirate_features_follow_the_weights():
    """ST-TURN-4: the costly pirate facts (blocks, threat_gain) are filled for a strategy that weighs them and
    skipped (left 0) for one that weighs neither, which cannot change its pick."""
    rng = np.random.default_rng(12)
    watcher = table(pirate={"pass": 100.0, "blocks": 0.01, "threat_gain": 0.01})
    ignorer = table(pirate={"pass": 100.0})
    filled = 0
    for gi in range(40):
        cells = rng.integers(0, 64, size=200)
        holds = rng.integers(0, 3, (4, 6))
        for tab, weighs in ((watcher, True), (ignorer, False)):
            st = new_state(Rules(), 4, tab)
            setup_game(st, 7, gi)
            _scramble(st, cells)  # seat 0 holds every Wind card; the strategy passes at once
            st.hold[:, :] = holds
            pirate_phase(st, 0)
            k = pirate_options(st, 0, 0)
            blocks = st.features[F_BLOCKS, :k].copy()
            threat = st.features[F_THREAT_GAIN, :k].copy()
            if weighs:
                assert np.array_equal(blocks, _route_features(st, k, False, 0, True)[1]), gi
                filled += int(blocks.any()) + int(threat.any())
            else:
                assert not blocks.any() and not threat.any(), gi
    assert filled > 10


def test_chunking_does_not_change_games():
    """Game i depends only on (seed, i): one chunk of 60 equals chunks of 25 + 35."""
    t = named("trader", "raider", "blocker")
    seats = np.array([[0, 1, 2], [2, 0, 1], [1, 2, 0]] * 20)
    whole = play_chunk(Rules(), 3, seats, 100, 60, 9, t)
    a = play_chunk(Rules(), 3, seats[:25], 100, 25, 9, t)
    b = play_chunk(Rules(), 3, seats[25:], 125, 35, 9, t)
    assert np.array_equal(whole.games, np.concatenate([a.games, b.games]))
    assert np.array_equal(whole.players, np.concatenate([a.players, b.players]))


def test_replay_matches_the_logged_game():
    """The replay plays the same game as the chunk kernel: same winner and final gold per seat."""
    names = ["trader", "raider", "blocker", "random"]
    t = named(*names)
    seats = np.array([[3, 1, 0, 2]])
    r = play_chunk(Rules(), 4, seats, 41, 1, 5, t)
    text = SPEC.replay(Rules(), 4, seats[0], 41, 5, t, names)
    assert "seat 0 = random" in text and "a b c d e f g h" in text
    st = new_state(Rules(), 4, t, trace=new_trace(400_000))
    st.seat_strat[:] = seats[0]
    play_game(st, 41, 5, False)
    ev = st.trace[: st.misc[M_EVENTS]]
    assert list(st.gold) == list(r.players[0, :, SPEC.player_col("score")])
    last_gold = {}
    for row in ev[ev[:, 2] == EV_END_TURN]:
        last_gold[int(row[1])] = int(row[3])
    w = r.games[0, SPEC.game_col("winner_seat")]
    for s, gold in last_gold.items():
        if s != w:
            assert gold == st.gold[s]


def test_nojit_matches_jit():
    """The kernel runs identically with NUMBA_DISABLE_JIT=1 (slowly)."""
    code = ("import numpy as np\nfrom sim.sea_trade import play_chunk\nfrom sim.sea_trade.rules import Rules\n"
            "from strategies.sea_trade import REGISTRY\n"
            "r = play_chunk(Rules(), 2, np.array([[0, 1], [1, 0]]), 7, 2, 3, REGISTRY.table(['trader', 'raider']))\n"
            "print(r.games.tolist(), r.players.tolist())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=os.path.dirname(os.path.dirname(__file__))).stdout.strip()
    r = play_chunk(Rules(), 2, np.array([[0, 1], [1, 0]]), 7, 2, 3, named("trader", "raider"))
    assert out == f"{r.games.tolist()} {r.players.tolist()}"


def test_traders_finish_games():
    """Heuristic play ends games: trader-vs-trader games are mostly won well before the round cap."""
    r = play_chunk(Rules(), 4, np.zeros((500, 4), np.int64), 0, 500, 21, named("trader"))
    g = r.games
    assert (g[:, SPEC.game_col("end_reason")] == 0).mean() > 0.95
    assert np.median(g[:, SPEC.game_col("rounds")]) < 30
