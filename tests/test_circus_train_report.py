"""Circus Train report sections on a real small run, and their skip notes on a run without the game's columns."""

from analysis.load import load_run
from analysis.sections import Plot, Table
from analysis.sections import circus_train as S
from sim.runner import run_study
from tests.test_analysis_synth import write_run


def test_sections_on_a_real_run(tmp_path):
    """Start city (named), card usage and VP sources are tabulated from the logs, with the start-city plot."""
    run = load_run(run_study("circus_train", players=3, games=150, strategies=None, rotate=True, seed=2, jobs=1,
                             out=tmp_path / "r", overrides=(), progress=False))
    secs = S.sections(run)
    assert [s.title for s in secs] == ["Start city", "Action-card usage", "Sources of victory points"]
    tables = [b for s in secs for b in s.blocks if isinstance(b, Table)]
    assert set(tables[0].frame["start city"]) <= {"Winnipeg", "Toronto", "Montreal"}
    assert any(isinstance(b, Plot) for b in secs[0].blocks)
    assert len(tables) == 5


def test_sections_skip_missing_columns(tmp_path):
    """A run without the game's columns gets one skip note per section, never an error."""
    run = load_run(write_run(tmp_path / "s", game="circus_train", n_players=4, n_games=200))
    for sec in S.sections(run):
        assert len(sec.blocks) == 1 and sec.blocks[0].startswith("Skipped")
