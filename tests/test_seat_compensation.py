"""Seat compensation in Circus Train (CT-SEAT-1: money by turn order from the random first player) and 7 Wonders
(SW-SEAT-1: coins by table seat), and the compensation section's setting for them (rules' exchange rate)."""

from __future__ import annotations

import numpy as np

from analysis.card import analyse
from analysis.compensation import compensation_section
from analysis.load import in_turn_order
from sim.circus_train import SPEC as CIRCUS_TRAIN
from sim.circus_train import setup as ct_setup
from sim.circus_train.rules import Rules as CircusRules
from sim.circus_train.state import GS, PL
from sim.core.rng import seed_game
from sim.seven_wonders import setup as sw_setup
from sim.seven_wonders.position import DATA as SW_DATA
from sim.seven_wonders.rules import Rules as WondersRules
from sim.seven_wonders.state import new_state as sw_state
from tests.circus_train_positions import new_state as ct_state
from tests.test_compensation import _close_run, _text, _with_scores


def _ct_start_money(rules: CircusRules, n: int, seed: int) -> tuple[int, list[int]]:
    st, data = ct_state(rules, n)
    seed_game(st.rng, 7, seed)
    ct_setup.setup_supply(st, data)
    return int(st.g[GS.first]), [int(st.pl[p, PL.money]) for p in range(n)]


def test_circus_train_seat_money_follows_turn_order_from_the_random_first_player():
    """CT-SEAT-1 / CT-SETUP-7: the player K-th in turn order from the first player starts with seatK_money more;
    the first player gets none, whoever sits where; by default everyone starts with start_money (CT-SETUP-1)."""
    rules = CircusRules(start_money=1, seat2_money=3, seat3_money=5, seat4_money=20)
    firsts = set()
    for seed in range(12):
        first, money = _ct_start_money(rules, 4, seed)
        firsts.add(first)
        assert [money[(first + i) % 4] for i in range(4)] == [1, 4, 6, 21], (seed, first, money)
    assert len(firsts) > 1  # the first player is drawn, so table seats get different amounts
    assert _ct_start_money(CircusRules(), 4, 0)[1] == [0, 0, 0, 0]


def test_circus_train_logs_each_players_place_in_turn_order_and_the_analysis_reads_seats_from_it():
    """CT-SEAT-1 / CT-SETUP-7: `turn_order` holds each player's place from the first player drawn at setup, a
    permutation of 0..N-1 in every game, and the first player differs between games."""
    rules = CircusRules(seat3_money=20)
    table = CIRCUS_TRAIN.strategies.table(["showman", "collector", "miser", "raider"])
    seats = np.tile(np.arange(4), (60, 1))
    chunk = CIRCUS_TRAIN.play_chunk(rules, 4, seats, 0, 60, 11, table)
    col = CIRCUS_TRAIN.player_col("turn_order")
    order = chunk.players[:, :, col]
    assert (np.sort(order, axis=1) == np.arange(4)).all()
    assert len({tuple(row) for row in order}) > 1  # different first players


def test_seven_wonders_seat_coins_go_to_table_seats_and_not_to_the_free_city():
    """SW-SEAT-1 / SW-SETUP-1: seat K starts with start_coins plus seatK_coins; seat 1 gets none; with two players
    the Free City (a third seat, no player) starts with start_coins alone."""
    rules = WondersRules(seat2_coins=2, seat3_coins=7, seat4_coins=12)
    st = sw_state(rules, 4)
    seed_game(st.rng, 3, 0)
    sw_setup.setup_game(st, SW_DATA, rules.to_array())
    assert list(st.coins[:4]) == [3, 5, 10, 15]
    st = sw_state(rules, 2)
    seed_game(st.rng, 3, 0)
    sw_setup.setup_game(st, SW_DATA, rules.to_array())
    assert list(st.coins[:3]) == [3, 5, 3]
    st = sw_state(WondersRules(), 4)
    seed_game(st.rng, 3, 0)
    sw_setup.setup_game(st, SW_DATA, WondersRules().to_array())
    assert list(st.coins[:4]) == [3, 3, 3, 3]


def _as(game: str, run, **rules):
    return type(run)(run.run_dir, dict(run.manifest, game=game, rules={**run.manifest["rules"], **rules}),
                     run.games, run.players)


def test_seven_wonders_setting_is_the_points_handicap_at_coins_per_vp():
    """SW-SEAT-1 / SW-END-1: the whole-point handicap becomes seatK_coins = coins_per_vp coins a point."""
    base = _close_run()
    for per_vp in (3, 2):
        a = analyse(_as("seven_wonders", base, coins_per_vp=per_vp))
        joint = a.handicap["joint"].astype(int).tolist()
        text = _text(compensation_section([a]))
        sets = " ".join(f"--set seat{k + 1}_coins={per_vp * j}" for k, j in enumerate(joint) if k)
        assert f"playtest run seven_wonders --players 4 --seed 1 --strategies a,b,c,d --seating random {sets}" in text


def test_circus_train_seats_are_read_in_turn_order_and_money_has_no_exchange_rate():
    """CT-SEAT-1: the edge belongs to the first in turn order, not to a table seat; the section measures seats in
    turn order, says so, suggests no money setting (no rulebook rate from VP to money) and names the search over
    seat2_money..seat4_money."""
    base = _close_run()
    rng = np.random.default_rng(5)
    first = rng.integers(0, 4, base.n_games)
    p = base.players.sort_values(["game_index", "seat"]).copy()
    score = p["score"].to_numpy().reshape(-1, 4)
    score = score[np.arange(len(score))[:, None], (np.arange(4)[None, :] - first[:, None]) % 4]
    run = _with_scores(_as("circus_train", base), score, np.tile(np.arange(4), (len(score), 1)))
    order = (np.arange(4)[None, :] - first[:, None]) % 4
    run.players["turn_order"] = order.ravel()
    table = analyse(run).handicap["joint"].astype(int).tolist()
    turn = analyse(in_turn_order(run)).handicap["joint"].astype(int).tolist()
    assert max(map(abs, table)) <= 1 and turn[0] == 0 and all(2 <= j <= 4 for j in turn[1:]), (table, turn)
    text = _text(compensation_section([analyse(run)]))
    assert "a place in turn order counted from that player" in text
    assert "no exchange rate from points to money" in text and "--set seat2_money" not in text
    assert "--vary seat2_money --vary seat3_money --vary seat4_money --budget" in text
