"""Circus Train report sections on a real small run, and their skip notes on a run without the game's columns."""

from analysis.load import load_run
from analysis.sections import Plot, Table
from analysis.sections import circus_train as S
from sim.runner import run_study
from tests.test_analysis_synth import write_run

TITLES = ["Stand-in data", "Seats: VP and months leading", "Start city", "Starting talents", "Action-card usage",
          "Talent types and winning (an association)", "Money curves", "Sources of victory points", "Performances and final scores",
          "Interaction", "Board and supply", "Leader dynamics"]


def test_sections_on_a_real_run(tmp_path):
    """Every basic-game section is built from the logs: the start cities are named and each section with a figure
    has its plot."""
    run = load_run(run_study("circus_train", players=3, games=150, strategies=None, rotate=True, seed=2, jobs=1,
                             out=tmp_path / "r", overrides=(), progress=False))
    secs = {s.title: s for s in S.sections(run)}
    assert list(secs) == TITLES
    city = [b for b in secs["Start city"].blocks if isinstance(b, Table)][0]
    assert set(city.frame["start city"]) <= {"Winnipeg", "Toronto", "Montreal"}
    for title in ("Start city", "Talent types and winning (an association)", "Money curves", "Leader dynamics"):
        assert any(isinstance(b, Plot) for b in secs[title].blocks), title
    # issue 21 item 8: measured at the end of the game, so title, table and plot say association and point to ab
    talent = secs["Talent types and winning (an association)"].blocks
    plot = next(b for b in talent if isinstance(b, Plot))
    assert "association" in plot.figure.axes[0].get_title() and "`playtest ab`" in plot.caption
    assert any(isinstance(b, Table) and "held horses are part of the score" in b.caption.lower() for b in talent)
    assert not any(isinstance(b, str) and b.startswith("Skipped") for s in secs.values() for b in s.blocks)


def test_sections_skip_missing_columns(tmp_path):
    """A run without the game's columns gets skip notes, never an error; the stand-in list needs no column."""
    run = load_run(write_run(tmp_path / "s", game="circus_train", n_players=4, n_games=200, own=False))
    for sec in S.sections(run)[1:]:
        assert any(isinstance(b, str) and b.startswith("Skipped") for b in sec.blocks), sec.title
