"""Sea Trade invariants over many games, option generators vs rule checks, distance tables and game flow
(determinism, chunking and no-JIT runs are checked for every game by tests/test_conformance.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.graph import bfs_distances
from sim.core.trace import new_trace
from sim.sea_trade import SPEC
from sim.sea_trade.board import FAR, ensure_dist, fill_steps
from sim.sea_trade.checks import check_options, scramble
from sim.sea_trade.engine import (_obstacle_features, _set_targets, check_known_targets, known_sale_target,
                                  leader_gold, pirate_phase)
from sim.sea_trade.moves import check_invariants, pirate_options, storm_options
from sim.sea_trade.rules import Rules
from sim.sea_trade.state import DESIRES, LAND, SEA, SELLS
from sim.sea_trade.schema import F
from sim.sea_trade.state import EV, MISC
from tests.sea_trade_positions import events, named, new_state, play_chunk, play_game, setup_game, table

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
    assert known_sale_target(st, 0) != 0
    assert check_known_targets(st) == 0
    st.hold[0, SELLS[0]] = 0
    st.hold[0, DESIRES[0]] = 2  # market 0 desires these, but the cache was not told (no forget_targets)
    assert check_known_targets(st) == 10


def test_option_generators_agree_with_rule_checks():
    """ST-SAIL-1..5, ST-PIRACY-1, ST-PIRACY-2, ST-TURN-5: generated options == the independent legality checks
    (the conformance suite runs the default boards; here also a 10x10 board, which uses tables, not bitboards)."""
    assert check_options(5, Rules(grid_size=10, islands=14), players=(4,)) > 1000


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
    st.misc[MISC.dist_dirty] = 1


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
            scramble(st, rng.integers(0, n, size=200))
            st.misc[MISC.dist_dirty] = 1
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
    _obstacle_features(st, k, placing, seat, leader_gold(st.gold, n, seat), True, bits)
    return st.features[[F.self_block, F.blocks, F.blocks_leader, F.unblock], :k].copy()


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
            scramble(st, rng.integers(0, grid * grid, size=200))
            st.hold[:, :] = rng.integers(0, 2, st.hold.shape)
            st.gold[:] = rng.integers(0, 4, 4)  # ties for the gold lead are common
            st.misc[MISC.dist_dirty] = 1
            ensure_dist(st)
            _set_targets(st, 0, True)
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
            scramble(st, cells)  # seat 0 holds every Wind card; the strategy passes at once
            st.hold[:, :] = holds
            pirate_phase(st, 0)
            k = pirate_options(st, 0, 0)
            blocks = st.features[F.blocks, :k].copy()
            threat = st.features[F.threat_gain, :k].copy()
            if weighs:
                assert np.array_equal(blocks, _route_features(st, k, False, 0, True)[1]), gi
                filled += int(blocks.any()) + int(threat.any())
            else:
                assert not blocks.any() and not threat.any(), gi
    assert filled > 10


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
    ev = events(st)
    assert list(st.gold) == list(r.players[0, :, SPEC.player_col("score")])
    last_gold = {}
    for row in ev[ev[:, 2] == EV.end_turn]:
        last_gold[int(row[1])] = int(row[3])
    w = r.games[0, SPEC.game_col("winner_seat")]
    for s, gold in last_gold.items():
        if s != w:
            assert gold == st.gold[s]


def test_traders_finish_games():
    """Heuristic play ends games: trader-vs-trader games are mostly won well before the round cap."""
    r = play_chunk(Rules(), 4, np.zeros((500, 4), np.int64), 0, 500, 21, named("trader"))
    g = r.games
    assert (g[:, SPEC.game_col("end_reason")] == 0).mean() > 0.95
    assert np.median(g[:, SPEC.game_col("rounds")]) < 30
