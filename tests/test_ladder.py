"""Strength ladders: the level list, and the report on synthetic levels with planted seat effects."""

from __future__ import annotations

import pytest

from analysis.ladder import flags, headline, insert_ladders, ladder_sections, load_ladder, write_ladder_report
from analysis.sections import Section
from sim.core.errors import PlaytestError
from sim.ladder import level_lineup, parse_levels
from tests.test_analysis_synth import write_run

POOL = ["trader", "raider", "blocker", "balanced"]


def test_levels_parse_sorted_and_refuse_bad_lists():
    assert parse_levels("16,0,4") == [0, 4, 16]
    for text, needle in (("0,x", "whole numbers"), ("4,4", "repeats"), ("-1", "must be 0"), (",", "no strength")):
        with pytest.raises(PlaytestError, match=needle):
            parse_levels(text)
    assert level_lineup(["a", "b"], 0) == ["a", "b"] and level_lineup(["a", "b"], 8) == ["a+mc8", "b+mc8"]


def _ladder(tmp_path, first_seat_odds: dict[int, float]):
    """Synthetic levels: seat 1 wins with the given odds (against 1 for the others) at each level."""
    for k, odds in first_seat_odds.items():
        write_run(tmp_path / f"playouts-{k}", n_players=4, n_games=6000, strategies=level_lineup(POOL, k),
                  seat_weights=[odds, 1, 1, 1], seed=k)
    return tmp_path


def test_a_first_seat_edge_that_fades_with_strength_is_flagged(tmp_path):
    """Seat 1 at +12 points with the bases and fair at 16 playouts: 'shrinks', large then negligible."""
    root = _ladder(tmp_path, {0: 1.8, 16: 1.0})
    levels = load_ladder(root)
    found = flags(levels)
    assert any(f.startswith("Seat 1's advantage shrinks from +") and "(large) with the base strategies" in f
               and "with 16 playouts" in f for f in found), found
    assert "Seat 1's advantage shrinks" in headline(levels)
    path, line = write_ladder_report(root, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert path.is_file() and "Seat effect against the fair share by strength" in text and line == headline(levels)


def test_a_steady_edge_is_not_flagged_and_the_ladder_follows_the_first_player_section(tmp_path):
    root = _ladder(tmp_path, {0: 1.8, 4: 1.8})
    levels = load_ladder(root)
    assert not [f for f in flags(levels) if f.startswith("Seat")]
    sections = [Section("Balance card"), Section("run: Seats"), Section("run: First player and the start"),
                Section("run: Clock")]
    titles = [s.title for s in insert_ladders(sections, ladder_sections([root]))]
    assert titles[3].startswith("Strength ladder") and titles[2] == "run: First player and the start"


def test_a_directory_without_levels_is_one_clear_error(tmp_path):
    with pytest.raises(PlaytestError, match="no ladder levels"):
        load_ladder(tmp_path)
