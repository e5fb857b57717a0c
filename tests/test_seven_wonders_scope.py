"""The edge of the simulated game: expansions and counts the spec puts out of scope are refused in one line."""

import pytest

from sim.cli import main


def _one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("playtest: error:")
    return err[0]


def test_eight_players_are_refused(capsys):
    """SW-DEC-24: 8 players is out of scope (the cards exist for 3-7), so a study of 8 is refused, not improvised."""
    assert main(["run", "seven_wonders", "--players", "8", "--games", "10"]) == 2
    assert "players" in _one_error_line(capsys)


@pytest.mark.parametrize("field", ["leaders", "cities", "armada", "edifice", "second_edition"])
def test_out_of_scope_expansions_are_not_rules_fields(field, capsys):
    """SW-DEC-24 and BABEL-EXP-1: Leaders (whose draft would precede the tile draft), Cities, Armada, Edifice and
    the 2nd edition are recorded only: no rules field switches them on, and asking for one names the problem."""
    assert main(["run", "seven_wonders", "--players", "4", "--games", "10", "--set", f"{field}=true"]) == 2
    assert field in _one_error_line(capsys)
