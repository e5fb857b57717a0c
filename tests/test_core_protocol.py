"""The protocol pieces the core owns for every game (issue 22 item 2): event texts and the replay they render, the
option helpers and the option-check harness. The turn driver is exercised through Pig (tests/test_pig_rules.py)
and the conformance suite (pauses, snapshots, rollouts)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from sim.core.checks import option_checker
from sim.core.options import add_option, decline_option
from sim.core.replay import event_texts, render_events
from sim.core.spec import Traced, get_game

PIG = get_game("pig")


def test_event_texts_number_the_events_and_render_them():
    """One declaration gives the codes (from 1, in order) and the texts; the log has the seating, a line per
    event, a marker per round and the final standings; an event without a text is refused by name."""
    ev, texts = event_texts(draw="{seat} draws {a0}", win=lambda names, row: f"{names[row[1]]} wins")
    assert (ev.draw, ev.win) == (1, 2) and texts[1] == "{seat} draws {a0}"
    events = np.array([[1, 0, 1, 7, 0, 0, 0, 0], [2, 1, 2, 0, 0, 0, 0, 0]])
    players = np.array([[3, 2, 0], [9, 1, 1]])
    traced = Traced(events, np.zeros(4), players, None, None, None, ["a", "b"], 5, 1)
    assert render_events(traced, "Toy", texts).splitlines() == [
        "Toy, game 5: seat 0 = a, seat 1 = b", "--- round 1", "seat 0 draws 7", "--- round 2", "b wins",
        "Final: seat 0 (a) score 3, rank 2, seat 1 (b) score 9, rank 1"]
    with pytest.raises(AssertionError, match="event type 2 has no text"):
        render_events(traced, "Toy", {1: texts[1]})


@njit(cache=True)
def _fill(st, decision, feature):
    k = add_option(st, 0, 5, 6, 7, 8)
    return decline_option(st, decision, k, feature)


def test_option_helpers_write_rows_and_the_decline():
    """add_option writes the first option_width values and returns the next row; decline_option zeroes the
    decision's span in its column but the one feature."""
    st, _ = PIG.new_state(PIG.rules_type(), 2)
    st.features[:, :] = 9.0
    F = PIG.schema.F
    assert _fill(st, PIG.schema.D.hold, F.roll) == 2
    assert st.options[0].tolist() == [5]
    assert st.features[:, 1].tolist() == [1.0 if f == F.roll else 0.0 for f in range(len(PIG.schema.features))]
    assert (st.features[:, 0] == 9.0).all()


def test_the_option_harness_names_game_players_and_position():
    """option_checker plays set-up positions at the spec's player counts and stops at the first disagreement."""
    counts = []
    check = option_checker("pig", lambda st, data, rng: counts.append(st.meta[0]), lambda st, data: (0, 1), 3)
    assert check(1) == 9 and sorted(set(counts)) == [2, 4, 6]
    bad = option_checker("pig", lambda st, data, rng: None, lambda st, data: (2, 1))
    with pytest.raises(AssertionError, match="pig: 2 option/rule disagreements, 2 players, position 0"):
        bad(1)


def test_event_texts_take_the_games_context_and_may_leave_an_event_out():
    """A callable text gets what the game's ``context(traced)`` returns (here a table of place names); None, as a
    text or returned by one, writes no line."""
    ev, texts = event_texts(deal=None, move=lambda ctx, row: ctx[row[3]] if row[3] else None)
    events = np.array([[0, 0, ev.deal, 0, 0, 0, 0, 0], [1, 0, ev.move, 1, 0, 0, 0, 0], [1, 1, ev.move, 0, 0, 0, 0, 0]])
    traced = Traced(events, np.zeros(4), np.array([[3, 2, 0], [9, 1, 1]]), None, None, None, ["a", "b"], 5, 1)
    lines = render_events(traced, "Toy", texts, context=lambda t: {1: f"{t.names[0]} sails to Rome"}).splitlines()
    assert lines[1:] == ["--- setup", "--- round 1", "a sails to Rome",
                         "Final: seat 0 (a) score 3, rank 2, seat 1 (b) score 9, rank 1"]


def test_sections_head_the_events_when_they_change():
    """A game's ``sections`` replace the round markers: a header is written before an event whose section differs
    from the last header written; an event type without a section stays under the last header. On a Pig game
    with a header per seat's turn for rolls and busts (holds have none), the headers are the changes of seat."""
    from sim.pig.schema import EV, EVENT_TEXTS

    names = ["hold20", "cautious"]
    traced = PIG.trace(PIG.rules_type(), 2, np.arange(2), 0, 3, PIG.strategies.table(names), names)
    turns = {EV.roll: "-- {seat}'s turn", EV.bust: lambda ctx, row: f"-- seat {row[1]}'s turn"}
    lines = render_events(traced, "Pig", EVENT_TEXTS, sections=turns).splitlines()
    plain = render_events(traced, "Pig", EVENT_TEXTS).splitlines()
    assert [line for line in lines if not line.startswith("-- ")] == [line for line in plain
                                                                        if not line.startswith("--- ")]
    expected, last = [], None
    for _rnd, seat, kind, *_ in traced.events.tolist():
        header = last if kind == EV.hold else f"-- seat {seat}'s turn"
        if header != last:
            expected.append(header)
            last = header
    assert len(expected) > 2 and [line for line in lines if line.startswith("-- ")] == expected
    for i, line in enumerate(lines):
        if line.startswith("-- "):
            assert lines[i + 1].startswith(line[3:9] + " rolls")
