"""`playtest sweep`: the grid, common random numbers across variants, resume, the report, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from analysis.sweep import load_sweep, sweep_sections, write_sweep_report
from sim.cli import main
from sim.core.errors import PlaytestError
from sim.study import plan_study
from sim.sweep import plan_sweep, run_sweep
from tests.conftest import read_tables

BUS = ["sweep", "bus", "--players", "4", "--games", "300", "--chunk-size", "100", "--jobs", "1", "--quiet"]


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("playtest: error: ")
    return err[0]


@pytest.mark.parametrize("extra, needle", [
    (["--vary", "gold_rush=1,2"], "--vary gold_rush: unknown rules field"),
    (["--vary", "clock_gems_45p="], "the grid is empty"),
    ([], "at least one --vary"),
    (["--vary", "clock_gems_45p=3,lots"], "--vary clock_gems_45p=lots: 'lots' is not a valid int"),
    (["--vary", "clock_gems_45p=4"], "single variant"),
    (["--vary", "clock_gems_45p=3,3"], "a value twice"),
    (["--vary", "clock_gems_45p=3,4", "--vary", "clock_gems_45p=5,6"], "given twice"),
    (["--vary", "clock_gems_45p=0,4"], "clock_gems_45p=0 is outside 1..20"),
    (["--vary", "clock_gems_45p=3,4", "--set", "clock_gems_45p=5"], "drop the --set"),
    (["--vary", "weights.nosuch.plan_action.act_bus=1,2"], "unknown strategy 'nosuch'"),
    (["--vary", "weights.balanced.nodecision.act_bus=1,2"], "unknown decision 'nodecision'"),
    (["--vary", "weights.balanced.plan_action.nofeature=1,2"], "unknown feature 'nofeature'"),
    (["--vary", "weights.balanced.clock.act_bus=1,2"], "not a fact of decision 'clock'"),
    (["--vary", "weights.balanced.plan_action.act_bus=1,x"], "'x' is not a number"),
    (["--vary", "weights.balanced.act_bus=1,2"], "weights.STRATEGY.DECISION.FEATURE"),
    (["--strategies", "random,balanced,commuter,expander", "--vary", "weights.random.plan_action.act_bus=1,2"],
     "has no weights"),
    (["--strategies", "balanced", "--vary", "weights.commuter.plan_action.act_bus=1,2"], "does not play"),
    (["--vary", "clock_gems_45p=3,4", "--metric", "seat1"], "add --until-ci"),
    (["--vary", "clock_gems_45p=3,4", "--until-ci", "2", "--metric", "seat9"], "use one of seat1..seat4"),
    (["--vary", "clock_gems_45p=3,4", "--until-ci", "2", "--metric", "end:nosuch"], "end:time_collapse"),
])
def test_bad_grid_is_one_line_exit_2_and_writes_nothing(extra, needle, capsys, tmp_path):
    out = tmp_path / "sweep"
    assert main([*BUS, *extra, "--out", str(out)]) == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


def _players(root: Path) -> list[pd.DataFrame]:
    m = json.loads((root / "sweep.json").read_text())
    return [read_tables(root / v["dir"])["players"] for v in m["variants"]]


@pytest.fixture(scope="module")
def bus_sweep(tmp_path_factory) -> Path:
    """A sweep whose axis does not touch four-player games (clock_gems_3p) beside one that does."""
    out = tmp_path_factory.mktemp("sweep") / "bus"
    assert main([*BUS, "--vary", "clock_gems_3p=2,4", "--vary", "clock_gems_45p=3,5", "--out", str(out)]) == 0
    return out


def test_variants_play_the_same_games_and_seats(bus_sweep):
    """Common random numbers: every variant seats the same strategies in the same seats in game i, and
    variants that differ only in a field four-player games never read play identical games."""
    m = json.loads((bus_sweep / "sweep.json").read_text())
    labels = [v["label"] for v in m["variants"]]
    assert labels == ["clock_gems_3p=2, clock_gems_45p=3", "clock_gems_3p=2, clock_gems_45p=5",
                      "clock_gems_3p=4, clock_gems_45p=3", "clock_gems_3p=4, clock_gems_45p=5"]
    assert m["baseline"] == 3  # the defaults (4 and 5) are in the grid
    p = _players(bus_sweep)
    for other in p[1:]:
        pd.testing.assert_frame_equal(p[0][["game_index", "seat", "strategy"]], other[["game_index", "seat", "strategy"]])
    pd.testing.assert_frame_equal(p[0], p[2])  # clock_gems_3p does not matter with 4 players: same seeds, same games
    pd.testing.assert_frame_equal(p[1], p[3])
    assert not p[0]["score"].equals(p[1]["score"])  # 3 gems against 5 does change games


def test_sweep_resumes_and_redoes_a_lost_part(bus_sweep, tmp_path, capsys):
    before = _players(bus_sweep)
    m = json.loads((bus_sweep / "sweep.json").read_text())
    victim = bus_sweep / m["variants"][1]["dir"] / "players" / "part-00001.parquet"
    victim.unlink()
    assert main([*BUS, "--vary", "clock_gems_3p=2,4", "--vary", "clock_gems_45p=3,5", "--out", str(bus_sweep)]) == 0
    assert victim.is_file()
    for a, b in zip(before, _players(bus_sweep)):
        pd.testing.assert_frame_equal(a, b)
    capsys.readouterr()
    assert main([*BUS, "--vary", "clock_gems_45p=3,6", "--out", str(bus_sweep)]) == 2
    assert "holds a different sweep" in _error_line(capsys)


def test_sweep_report_pairs_each_variant_with_the_baseline(bus_sweep, tmp_path):
    path, line = write_sweep_report(bus_sweep, tmp_path / "report")
    assert line.startswith("Conclusion: varying clock_gems_3p / clock_gems_45p (baseline clock_gems_3p=4, clock_gems_45p=5)")
    md = (tmp_path / "report" / "report.md").read_text()
    assert "minus baseline, paired" in md and "Sample size, for an 80% chance that each variant gets the right label" in md
    assert len(list((tmp_path / "report").glob("*.png"))) >= 3
    sweep = load_sweep(bus_sweep)
    sections = sweep_sections(sweep)
    seat1 = next(s for s in sections if s.title.startswith("Seat 1"))
    table = next(b for b in seat1.blocks if hasattr(b, "frame")).frame
    # the variant identical to the baseline in four-player games differs from it by exactly 0, negligible
    same = table[table["variant"] == "clock_gems_3p=2, clock_gems_45p=5"].iloc[0]
    assert same.iloc[2] == "+0.0 [+0.0, +0.0]" and same["label"] == "negligible"


def test_report_verb_on_a_sweep_directory(bus_sweep, tmp_path, capsys):
    assert main(["report", str(bus_sweep), "--out", str(tmp_path / "r")]) == 0
    assert "Conclusion: varying" in capsys.readouterr().out
    assert (tmp_path / "r" / "index.html").is_file()
    assert main(["report", str(bus_sweep), str(bus_sweep / "v00-clock_gems_3p=2_clock_gems_45p=3")]) == 2
    assert "holds a sweep, not a run; report it alone" in _error_line(capsys)


def test_weights_sweep_keeps_the_strategy_name_and_records_its_weights(tmp_path):
    base = plan_study("bus", 3, 200, ["balanced", "commuter", "random"], seed=2, chunk_size=100, seating="random")
    sweep = plan_sweep(base, ["weights.balanced.plan_action.act_bus=0.6,3.0"])
    assert sweep.baseline == 0  # balanced's own weight is 0.6
    root = run_sweep(sweep, tmp_path / "w", jobs=1, progress=False)
    defs = [json.loads((root / v.dir_name / "manifest.json").read_text())["strategy_definitions"]["balanced"]
            for v in sweep.variants]
    assert [d["weights"]["plan_action"]["act_bus"] for d in defs] == [0.6, 3.0]
    assert base.spec.strategies.get("balanced").weights["plan_action"]["act_bus"] == 0.6  # restored after the sweep
    p = _players(root)
    assert set(p[1]["strategy"]) == {"balanced", "commuter", "random"}
    buses = [v.loc[v["strategy"] == "balanced", "act_bus"].mean() for v in p]
    assert buses[1] > buses[0]  # a larger weight on the bus action buys more buses


def test_plan_sweep_checks_cross_field_rules():
    base = plan_study("sea_trade", 3, 10)
    with pytest.raises(PlaytestError, match="win_gold must be greater than start_gold"):
        plan_sweep(base, [f"win_gold=1,{base.rules.win_gold}"])
