"""Sequential stopping (`--until-ci W`): parts are added until the metric's interval is narrower than W."""

from __future__ import annotations

import json

import pytest

from analysis.load import load_run
from analysis.metrics import estimate, parse_metric, study_like
from analysis.sweep import load_sweep, metric_rows
from sim.cli import main
from sim.runner import next_size

RUN = ["run", "bus", "--players", "3", "--chunk-size", "500", "--jobs", "1", "--quiet", "--seed", "4"]


def _until(run_dir) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())["until_ci"]


def test_next_size_grows_in_whole_parts_towards_the_target():
    assert next_size(1000, 4.0, 2.0, 500, 100_000) == 4000  # 4x the games halve the width; at most 4x per step
    assert next_size(1000, 2.2, 2.0, 500, 100_000) == 1500  # (2.2/2)^2 * 1.1 = 1.33 -> whole parts
    assert next_size(1000, 2.01, 2.0, 500, 100_000) == 1500  # always at least one part more
    assert next_size(1000, 9.0, 2.0, 500, 2_300) == 2_300  # never beyond the cap


def test_run_stops_once_the_interval_is_narrow(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*RUN, "--games", "50000", "--until-ci", "5", "--out", str(out)]) == 0
    u = _until(out)
    assert u["reached"] and u["achieved"] < 5 and u["metric"] == "seat1"
    run = load_run(out)
    assert run.n_games == u["games"] < 50_000 and run.n_games % 500 == 0
    width = estimate(parse_metric("seat1", study_like("bus", 3, run.lineup)), run).width
    assert width == pytest.approx(u["achieved"]) and width < 5
    # the interval was still too wide one step earlier: the run did not play more than it needed
    shorter = tmp_path / "shorter"
    assert main([*RUN, "--games", str(run.n_games - 500), "--out", str(shorter)]) == 0
    assert estimate(parse_metric("seat1", study_like("bus", 3, run.lineup)), load_run(shorter)).width >= 5
    assert "stopped at" in capsys.readouterr().out


def test_tighter_target_extends_the_same_run_and_cap_is_reported(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*RUN, "--games", "20000", "--until-ci", "8", "--metric", "rounds", "--out", str(out)]) == 0
    first = json.loads((out / "manifest.json").read_text())["parts"]
    assert _until(out)["reached"] and _until(out)["unit"] == "rounds"
    assert main([*RUN, "--games", "3000", "--until-ci", "0.01", "--metric", "rounds", "--out", str(out)]) == 0
    u = _until(out)
    assert not u["reached"] and u["games"] == 3000 == u["cap"]
    grown = json.loads((out / "manifest.json").read_text())["parts"]
    assert grown[:len(first)] == first and len(grown) == 6  # the first parts are kept, not replayed
    assert load_run(out).n_games == 3000
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 0
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "reached the cap of 3,000 games" in md and "labelled large: " in md and "labelled negligible: " in md
    capsys.readouterr()
    assert main([*RUN, "--games", "1000", "--until-ci", "1", "--out", str(out)]) == 2
    assert "more than --games" in capsys.readouterr().err


def test_sweep_until_ci_grows_every_variant_together(tmp_path):
    out = tmp_path / "sweep"
    assert main(["sweep", "bus", "--players", "4", "--games", "20000", "--chunk-size", "500", "--jobs", "1", "--quiet",
                 "--vary", "clock_gems_45p=3,5", "--until-ci", "3", "--metric", "end:time_collapse",
                 "--out", str(out)]) == 0
    sweep = load_sweep(out)
    u = sweep.manifest["until_ci"]
    assert u["reached"] and {r.n_games for r in sweep.runs} == {u["games"]}
    rows = metric_rows(parse_metric("end:time_collapse", study_like("bus", 4, sweep.runs[0].lineup)), sweep, 2.0)
    paired = [p for p in rows.paired if p is not None][0]
    width = paired.finding.hi - paired.finding.lo
    assert width == pytest.approx(u["achieved"]) and width < 3
    assert "Sequential stopping" in (out / "report" / "report.md").read_text()
