"""Pig's rules (docs/rules/pig.md): every PIG-* rule ID is cited by a test that fails if the rule is broken."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sim.core.errors import PlaytestError
from sim.core.policy import Strategy, StrategyRegistry
from sim.core.spec import get_game
from sim.pig.engine import check, hold_option
from sim.pig.schema import EV, F, SCHEMA

SPEC = get_game("pig")
COL = {c.name: i for i, c in enumerate(SPEC.player_columns)}
NAMES = ["hold20", "adaptive", "cautious", "random"]
ROLLER = Strategy("roller", "never holds", weights={"hold": {"roll": 1.0}})


def _rules(**changes):
    return dataclasses.replace(SPEC.rules_type(), **changes)


def _traces(n: int, games: int, rules=None, names=NAMES, table=None):
    """Traced games of n seats (strategy rows rotating over the names)."""
    rules = rules or SPEC.rules_type()
    table = table or SPEC.strategies.table(names)
    return [SPEC.trace(rules, n, (np.arange(n) + i) % len(names), i, 7, table, names) for i in range(games)]


def _turns(events: np.ndarray) -> list[tuple[int, list[list[int]]]]:
    """The events split into turns: (seat, its events); a turn ends with a bust or a hold."""
    turns, current = [], []
    for row in events.tolist():
        current.append(row)
        if row[2] in (EV.bust, EV.hold):
            turns.append((row[1], current))
            current = []
    assert not current
    return turns


def test_players_scores_and_seat_order():
    """PIG-SETUP-1: 2 to 6 players, all at 0, turns in seat order from seat 0, round after round."""
    for n in (1, 7):
        with pytest.raises(PlaytestError, match=f"not {n}"):
            SPEC.validate(SPEC.rules_type(), n)
    for traced in _traces(3, 20):
        seats = [seat for seat, _ in _turns(traced.events)]
        assert seats == [k % 3 for k in range(len(seats))]
        first = traced.events[0]
        assert first[0] == 1 and first[1] == 0
        rounds = [row[0] for seat, rows in _turns(traced.events) for row in rows[:1]]
        assert rounds == [1 + k // 3 for k in range(len(seats))]


def test_a_turn_starts_with_a_roll_of_the_die():
    """PIG-TURN-1: every turn opens with a roll (no hold on 0), of a die with `faces` faces."""
    for faces in (2, 6, 20):
        seen = set()
        for traced in _traces(2, 10, _rules(faces=faces)):
            for _, rows in _turns(traced.events):
                assert rows[0][2] in (EV.roll, EV.bust)
                seen.update(r[3] for r in rows if r[2] == EV.roll)
            p = traced.players
            assert (p[:, COL["rolls"]] >= p[:, COL["turns"]]).all()
        assert seen == set(range(2, faces + 1))


def test_rolls_add_up_and_the_player_rolls_again_or_holds():
    """PIG-TURN-2: each roll of 2..faces adds to the turn total; after it the seat rolls again or holds."""
    for traced in _traces(4, 10):
        for _, rows in _turns(traced.events):
            total = 0
            for r in rows:
                if r[2] == EV.roll:
                    total += r[3]
                    assert 2 <= r[3] <= 6 and r[4] == total
            assert rows[-1][2] == EV.bust or rows[-1][3] == total
        assert traced.games[SPEC.game_col("decisions")] == sum(1 for r in traced.events.tolist() if r[2] == EV.roll)


def test_a_one_ends_the_turn_and_loses_its_total():
    """PIG-TURN-3: a 1 ends the turn at once and the turn total is lost: the score is what the holds banked."""
    busts = 0
    for traced in _traces(2, 20):
        banked = np.zeros(2, np.int64)
        for seat, rows in _turns(traced.events):
            assert all(r[2] == EV.roll for r in rows[:-1])
            if rows[-1][2] == EV.bust:
                busts += 1
                assert rows[-1][3] == sum(r[3] for r in rows[:-1])
            else:
                banked[seat] += rows[-1][3]
        assert (traced.players[:, 0] == banked).all()
        assert traced.players[:, COL["busts"]].sum() == sum(1 for r in traced.events.tolist() if r[2] == EV.bust)
    assert busts > 0


def test_a_hold_banks_the_turn_total():
    """PIG-TURN-4: a hold adds the turn total to the score; hold20 (a strategy as data) holds from 20 on, and
    earlier only when the hold reaches the target."""
    holds = 0
    for traced in _traces(2, 20, names=["hold20", "cautious"]):
        banked = [0, 0]
        for seat, rows in _turns(traced.events):
            threshold = 20 if traced.names[seat] == "hold20" else 10
            for r, after in zip(rows, rows[1:]):
                if after[2] != EV.hold:  # rolled again
                    assert r[4] < threshold and banked[seat] + r[4] < 100
            if rows[-1][2] == EV.hold:
                holds += 1
                assert rows[-1][4] == banked[seat] + rows[-1][3]
                assert rows[-1][3] >= threshold or rows[-1][4] >= 100
                banked[seat] = rows[-1][4]
        assert banked == traced.players[:, 0].tolist()
    assert holds > 0


def test_first_to_the_target_wins_at_once():
    """PIG-END-1: the hold that reaches the target ends the game: that seat wins alone, no later seat plays."""
    for traced in _traces(4, 30, _rules(target=25)):
        scores = traced.players[:, 0]
        winner = traced.games[SPEC.game_col("winner_seat")]
        assert winner >= 0 and scores[winner] >= 25 and (np.delete(scores, winner) < 25).all()
        last = traced.events[-1]
        assert last[2] == EV.hold and last[1] == winner
        turns = traced.players[:, COL["turns"]]
        assert (turns[: winner + 1] == turns[winner]).all() and (turns[winner + 1:] == turns[winner] - 1).all()
        assert traced.players[winner, COL["rank"]] == 1 and traced.players[:, COL["won"]].sum() == 1


def test_equal_turns_completes_the_round_and_shares_ties():
    """PIG-END-2: with equal_turns the round is played out; the most points win, every tied seat a winner."""
    shared = 0
    for traced in _traces(4, 40, _rules(target=20, equal_turns=True)):
        turns = traced.players[:, COL["turns"]]
        assert (turns == turns[0]).all()
        scores = traced.players[:, 0]
        assert scores.max() >= 20
        won = traced.players[:, COL["won"]]
        assert (won == (scores == scores.max())).all()
        shared += won.sum() > 1
        assert traced.games[SPEC.game_col("winner_seat")] == (-1 if won.sum() > 1 else int(np.argmax(scores)))
    assert shared > 0


def test_the_round_cap_stops_a_game_without_a_winner():
    """PIG-END-3: at round_cap the game stops as a timeout: nobody wins, the rounds are the cap."""
    table = StrategyRegistry("pig", SCHEMA, [ROLLER]).table(["roller"])
    r = SPEC.play_chunk(_rules(round_cap=7), 3, np.zeros((5, 3), np.int64), 0, 5, 1, table, check=True)
    assert (r.games[:, SPEC.game_col("end_reason")] == 1).all() and (r.games[:, SPEC.game_col("rounds")] == 7).all()
    assert (r.players[:, :, COL["won"]] == 0).all() and (r.players[:, :, COL["turns"]] == 7).all()


def test_seats_rank_by_score_and_equal_scores_share():
    """PIG-RANK-1: rank 1 is the most points; equal scores share a rank (e.g. 0-0 after a timeout)."""
    for traced in _traces(5, 20):
        scores, rank = traced.players[:, 0], traced.players[:, COL["rank"]]
        assert (rank == 1 + (scores[None, :] > scores[:, None]).sum(axis=1)).all()
    table = StrategyRegistry("pig", SCHEMA, [ROLLER]).table(["roller"])
    r = SPEC.play_chunk(_rules(round_cap=2), 2, np.zeros((1, 2), np.int64), 0, 1, 1, table)
    assert (r.players[0, :, COL["rank"]] == 1).all()


def test_checked_mode_catches_broken_invariants():
    """PIG-INV-1 (no negative score) and PIG-INV-2 (no second seat at the target) raise in checked mode."""
    st, data = SPEC.new_state(SPEC.rules_type(), 3)
    st.players[:, 0] = [100, 100, 3]
    with pytest.raises(AssertionError, match="PIG-INV-2"):
        check(st, data)
    st.players[:, 0] = [10, -1, 3]
    with pytest.raises(AssertionError, match="PIG-INV-1"):
        check(st, data)


def test_hold_features_on_a_hand_built_position():
    """PIG-TURN-2 (the facts a strategy weighs): turn total, reaching the target, points behind the leading
    rival and its progress."""
    st, _ = SPEC.new_state(_rules(target=50), 3)
    st.players[:, 0] = [30, 40, 10]
    hold_option(st, 0, 20)
    f = st.features[:, 0]
    assert (f[F.roll], f[F.turn], f[F.reaches], f[F.behind], f[F.rival_progress]) == (0, 20, 1, 10, 80)
    hold_option(st, 2, 5)
    assert (st.features[F.reaches, 0], st.features[F.behind, 0]) == (0, 30)
