"""The command line: every verb works, and bad input is one clear line with exit code 2, losing nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main
from sim.runner import run_study

PLAYTEST = [sys.executable, "-m", "sim.cli"]


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("playtest: error: ")
    return err[0]


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["run", "chess", "--players", "2", "--games", "10"], "unknown game 'chess'"),
        (["run", "sea_trade", "--players", "4", "--games", "10", "--strategies", "trader,nosuch,raider,random"],
         "unknown strategy 'nosuch'"),
        (["run", "sea_trade", "--players", "4", "--games", "10", "--set", "gold_rush=3"], "unknown rules field"),
        (["run", "sea_trade", "--players", "4", "--games", "10", "--set", "win_gold=lots"], "not a valid int"),
        (["run", "sea_trade", "--players", "7", "--games", "10"], "2 to 6 players, not 7"),
        (["run", "sea_trade", "--players", "1", "--games", "10"], "not 1"),
        (["run", "bus", "--players", "2", "--games", "10"], "3 to 5 players, not 2"),
        (["run", "bus", "--players", "6", "--games", "10"], "not 6"),
        (["run", "sea_trade", "--players", "4", "--games", "10", "--strategies", "trader,raider"],
         "2 strategies for 4 players"),
        (["run", "sea_trade", "--players", "2", "--games", "10", "--strategies", "trader,raider,blocker"],
         "longer pool"),
        (["strategies", "monopoly"], "unknown game 'monopoly'"),
        (["run", "bus", "--players", "4", "--games", "10", "--seed", "-3"], "--seed must be"),
        (["replay", "sea_trade", "--players", "3", "--seed", "1", "--game-index", "-1"], "--game-index"),
        (["run", "sea_trade", "--players", "four", "--games", "10"], "invalid int value"),
        (["frobnicate"], "invalid choice"),
        (["report", "/nonexistent/run"], "/nonexistent/run"),
    ],
)
def test_bad_input_is_one_line_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    assert needle in _error_line(capsys)


def test_console_script_prints_no_traceback(tmp_path):
    res = subprocess.run(PLAYTEST + ["run", "sea_trade", "--players", "9", "--games", "5", "--out",
                                     str(tmp_path / "x")], capture_output=True, text=True)
    assert res.returncode == 2
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_corrupt_part_report_fails_clearly_and_keeps_files(tmp_path, capsys):
    run = run_study("sea_trade", 3, 400, rotate=True, seed=1, jobs=1, out=tmp_path / "r", progress=False,
                    chunk_size=200)
    part = run / "games" / "part-00001.parquet"
    part.write_bytes(b"not parquet at all")
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 2
    assert "part-00001" in _error_line(capsys)
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("content, needle", [("{not json", "not readable JSON"),
                                              ('{"intersections": []}', "missing list 'streets'")])
def test_malformed_board_file_fails_before_anything_is_written(content, needle, tmp_path, capsys):
    board = tmp_path / "board.json"
    board.write_text(content)
    out = tmp_path / "run"
    assert main(["run", "bus", "--players", "4", "--games", "5", "--set", f"board={board}", "--out", str(out)]) == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


def test_malformed_strategy_file(tmp_path, capsys):
    bad = tmp_path / "s.json"
    bad.write_text("{not json")
    assert main(["run", "sea_trade", "--players", "2", "--games", "5", "--strategy-file", str(bad)]) == 2
    assert "malformed" in _error_line(capsys)


def test_user_strategy_from_file_runs_without_engine_change(tmp_path, capsys):
    """A designer adds a strategy as data (JSON) and plays it; the engine is untouched."""
    spec = [{"name": "hoarder", "description": "buys everything, sells late", "kind": "weights",
             "weights": {"buy": {"my_gain": 1.0}, "sell": {"gold": 1.0, "win": 100.0}}, "epsilon": 0.1}]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(spec))
    out = tmp_path / "run"
    assert main(["run", "sea_trade", "--players", "2", "--games", "50", "--strategies", "hoarder,trader",
                 "--strategy-file", str(path), "--out", str(out), "--quiet", "--jobs", "1"]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert "hoarder" in manifest["strategy_definitions"]


def test_games_and_strategies_list(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "sea_trade" in out and "bus" in out
    assert main(["strategies", "sea_trade"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert {"random", "trader", "raider", "blocker"} <= {line.split()[0] for line in lines if line.strip()}
    assert any(line.startswith("features") for line in lines)


@pytest.mark.parametrize("game, players", [("sea_trade", 3), ("bus", 4)])
def test_replay_prints_a_game(game, players, capsys):
    assert main(["replay", game, "--players", str(players), "--seed", "5", "--game-index", "2", "--rotate"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) > 20


def test_bench_json_fields():
    res = subprocess.run(PLAYTEST + ["bench", "sea_trade", "--players", "3", "--games", "2000", "--jobs", "1",
                                     "--nojit-seconds", "2", "--json"], capture_output=True, text=True, check=True)
    data = json.loads(res.stdout.strip().splitlines()[-1])
    for key in ("game", "players", "games", "games_per_s", "decisions_per_s", "compile_s", "nojit_games_per_s",
                "speedup"):
        assert key in data
    assert data["games_per_s"] > data["nojit_games_per_s"] > 0


def test_readme_strategy_example_is_valid(tmp_path):
    """The README's JSON strategy example registers against the real Sea Trade schema."""
    from sim.core.policy import StrategyRegistry
    from sim.core.spec import get_game

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = readme.split("```json", 1)[1].split("```", 1)[0]
    path = tmp_path / "cautious.json"
    path.write_text(block)
    assert StrategyRegistry("sea_trade", get_game("sea_trade").schema).load_file(path) == ["cautious"]
