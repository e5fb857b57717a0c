"""The command line: every verb works, and bad input is one clear line with exit code 2, losing nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main
from sim.core.spec import get_game
from sim.core.state import snapshot_bytes
from sim.runner import run_study
from sim.study import plan_study

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
        (["run", "sea_trade", "--players", "2", "--games", "10", "--strategies", "trader,raider,blocker",
          "--seating", "fixed"], "longer pool"),
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


RUN = ["run", "bus", "--players", "4", "--games", "10"]
AB = ["ab", "bus", "--players", "4", "--games", "10", "--base", "balanced", "--variant", "random"]
SWEEP = ["sweep", "bus", "--players", "4", "--games", "10"]
TUNE = ["tune", "bus", "--players", "4", "--against", "random", "--budget", "100000"]
HARDEN = ["harden", "bus", "--players", "4", "--pool", "balanced,commuter", "--budget", "1000000"]
EXPLOIT = ["exploit", "bus", "--population", "/nonexistent.json"]
FILE = "/etc/hostname"
"""An existing file: not a directory, so not a usable --out."""

BALANCE = ["balance", "bus", "--players", "4", "--vary", "seat2_points=0,1", "--budget", "5000"]
BAD_FLAGS = [
    # flag, argv, what the one error line must say
    ("game", ["run", "chess", "--players", "4", "--games", "10"], "unknown game 'chess'"),
    ("--players", RUN[:2] + ["--players", "x", "--games", "10"], "invalid int value: 'x'"),
    ("--players", RUN[:2] + ["--players", "2", "--games", "10"], "3 to 5 players, not 2"),
    ("--strategies", RUN + ["--strategies", ","], "names no strategy"),
    ("--strategies", RUN + ["--strategies", "balanced,nosuch"], "unknown strategy 'nosuch'"),
    ("--strategy-file", RUN + ["--strategy-file", "/nonexistent.json"], "strategy file '/nonexistent.json' not found"),
    ("--seating", RUN + ["--seating", "cyclic"], "invalid choice: 'cyclic'"),
    ("--rotate", RUN + ["--rotate", "--seating", "fixed"], "--rotate means --seating random"),
    ("--seed", RUN + ["--seed", "-1"], "--seed must be an integer from 0 to 2**63-1"),
    ("--seed", RUN + ["--seed", str(2**63)], "--seed must be an integer from 0 to 2**63-1"),
    ("--seed", RUN + ["--seed", "1.5"], "invalid int value: '1.5'"),
    ("--set", RUN + ["--set", "board"], "is not FIELD=VALUE"),
    ("--set", RUN + ["--set", "nosuch=1"], "unknown rules field"),
    ("--games", RUN[:4] + ["--games", "0"], "argument --games: must be at least 1, not 0"),
    ("--games", RUN[:4] + ["--games", "ten"], "argument --games: 'ten' is not a whole number"),
    ("--jobs", RUN + ["--jobs", "0"], "argument --jobs: must be a positive number of workers or -1"),
    ("--jobs", RUN + ["--jobs", "-2"], "argument --jobs: must be at least -1, not -2"),
    ("--out", RUN + ["--out", FILE], f"{FILE} is not a directory; pass another --out"),
    ("--backend", RUN + ["--backend", "spark"], "invalid choice: 'spark'"),
    ("--backend", RUN + ["--backend", "dask"], "--backend dask needs --scheduler"),
    ("--scheduler", RUN + ["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler is only used with --backend dask"),
    ("--chunk-size", RUN + ["--chunk-size", "0"], "argument --chunk-size: must be at least 1, not 0"),
    ("--quiet", RUN + ["--quiet=yes"], "ignored explicit argument 'yes'"),
    ("--base", AB[:-4] + ["--base", "nosuch", "--variant", "random"], "--base nosuch is not in the lineup"),
    ("--variant", AB[:-2] + ["--variant", "commuter"], "--variant commuter is already in the lineup"),
    ("--variant", AB[:-2] + ["--variant", "nosuch"], "unknown strategy 'nosuch'"),
    ("--min-effect", AB + ["--min-effect", "0"], "--min-effect must be above 0 and below 100"),
    ("--min-effect", ["report", "/nonexistent/run", "--min-effect", "lots"], "'lots' is not a number"),
    ("--min-effect", ["report", "/nonexistent/run", "--min-effect", "150%"], "--min-effect must be above 0"),
    ("run_dirs", ["report", "/nonexistent/run"], "/nonexistent/run/manifest.json not found"),
    ("--out", ["report", "RUN", "--out", FILE], f"{FILE} is not a directory; pass another --out"),
    ("--game-index", ["replay", "bus", "--players", "4", "--game-index", "-1"], "argument --game-index: must be at least 0"),
    ("--game-index", ["replay", "bus", "--players", "4", "--game-index", "x"], "'x' is not a whole number"),
    ("game", ["replay", "/nonexistent/run"], "'/nonexistent/run' is neither a game"),
    ("--players", ["replay", "bus"], "replay bus needs --players N"),
    ("--debug", RUN + ["--debug=1"], "ignored explicit argument '1'"),
    ("game", ["bench", "chess"], "unknown game 'chess'"),
    ("--players", ["bench", "bus", "--players", "9"], "3 to 5 players, not 9"),
    ("--games", ["bench", "bus", "--games", "0"], "argument --games: must be at least 1"),
    ("--jobs", ["bench", "bus", "--jobs", "0"], "argument --jobs: must be a positive number"),
    ("--nojit-seconds", ["bench", "bus", "--nojit-seconds", "0"], "argument --nojit-seconds: must be a positive number"),
    ("--nojit-seconds", ["bench", "bus", "--nojit-seconds", "soon"], "'soon' is not a number"),
    ("--json", ["bench", "bus", "--json=1"], "ignored explicit argument '1'"),
    ("--against", ["bench", "pig", "--players", "2", "--against", "no-such-commit"], "--against needs a git checkout"),
    ("--reps", ["bench", "bus", "--against", "HEAD", "--reps", "1"], "argument --reps: must be at least 2"),
    ("--population", ["bench", "bus", "--population", "/nonexistent.json"], "add --against REV"),
    ("--population", ["bench", "bus", "--population", "/nonexistent.json", "--against", "HEAD"],
     "population file '/nonexistent.json' not found"),
    ("--playouts", ["ladder", "bus", "--players", "4", "--base", "balanced", "--playouts", "0,x", "--games", "3"],
     "whole numbers of playouts"),
    ("--until-ci", ["ladder", "bus", "--players", "4", "--base", "balanced", "--playouts", "0,4", "--games", "3",
                    "--until-ci", "-1"], "argument --until-ci: must be a positive number"),
    ("--metric", ["ladder", "bus", "--players", "4", "--base", "balanced,expander,builder,commuter", "--playouts", "0,4",
                  "--games", "3", "--until-ci", "2", "--metric", "strategy:clockmaster"],
     "--metric 'strategy:clockmaster' is not a metric"),
    ("--metric", ["ladder", "bus", "--players", "4", "--base", "balanced", "--playouts", "0,4", "--games", "3",
                  "--metric", "rounds"], "add --until-ci W or drop --metric"),
    ("--ladder", ["report", "RUN", "--ladder", "/nonexistent/ladder"], "/nonexistent/ladder holds no ladder levels"),
    ("--strong", ["report", "RUN", "--strong", "RUN"], "was not made with --population"),
    ("--base", ["ladder", "bus", "--players", "4", "--playouts", "0,4", "--games", "3"],
     "either --base LIST or --population FILE"),
    ("game", ["strategies", "chess"], "unknown game 'chess'"),
    ("game", ["rules", "chess"], "unknown game 'chess'"),
    ("command", ["frobnicate"], "invalid choice: 'frobnicate'"),
    ("--until-ci", RUN + ["--until-ci", "0"], "argument --until-ci: must be a positive number"),
    ("--metric", RUN + ["--until-ci", "2", "--metric", "seat7"], "--metric 'seat7' is not a metric of this study"),
    ("--metric", RUN + ["--metric", "seat1"], "add --until-ci W or drop --metric"),
    ("--vary", SWEEP + ["--vary", "nosuch=1,2"], "--vary nosuch: unknown rules field"),
    ("--vary", SWEEP + ["--vary", "cubes="], "the grid is empty"),
    ("--against", TUNE[:4] + ["--against", "nosuch", "--budget", "100000"], "unknown strategy 'nosuch'"),
    ("--budget", TUNE[:6] + ["--budget", "10"], "is too small"),
    ("--start", TUNE + ["--start", "nosuch"], "unknown strategy 'nosuch'"),
    ("--name", TUNE + ["--name", "random"], "pick a new name"),
    ("--decisions", TUNE + ["--decisions", "nosuch"], "unknown decision 'nosuch'"),
    ("--block", TUNE + ["--block", "0"], "argument --block: must be at least 1"),
    ("--popsize", TUNE + ["--popsize", "1"], "argument --popsize: must be at least 2"),
    ("--sigma", TUNE + ["--sigma", "-1"], "argument --sigma: must be a positive number"),
    ("--final-games", TUNE + ["--final-games", "0"], "argument --final-games: must be at least 1"),
    ("--population", RUN + ["--population", "/nonexistent.json"], "population file '/nonexistent.json' not found"),
    ("--pool", HARDEN[:4] + ["--pool", "balanced,nosuch", "--budget", "1000000"], "unknown strategy 'nosuch'"),
    ("--from-population", HARDEN[:4] + ["--from-population", "/nonexistent.json", "--budget", "1000000"],
     "population file '/nonexistent.json' not found"),
    ("--search-games", HARDEN + ["--search-games", "0"], "argument --search-games: must be at least 1"),
    ("--meta-games", HARDEN + ["--meta-games", "x"], "argument --meta-games: 'x' is not a whole number"),
    ("--probe-playouts", HARDEN + ["--probe-playouts", "0"], "argument --probe-playouts: must be at least 1"),
    ("--probe-games", HARDEN + ["--probe-games", "-5"], "argument --probe-games: must be at least 1"),
    ("--member-games", HARDEN + ["--member-games", "0"], "argument --member-games: must be at least 1"),
    ("--meta-solver", HARDEN + ["--meta-solver", "alpharank"], "argument --meta-solver: invalid choice: 'alpharank'"),
    ("--confirm", HARDEN + ["--confirm", "-1"], "argument --confirm: must be at least 0"),
    ("--keep", HARDEN + ["--keep", "first"], "argument --keep: invalid choice: 'first'"),
    ("--searches", HARDEN + ["--searches", "4"], "--searches must be from 1 to 3"),
    ("--minutes", HARDEN + ["--minutes", "0"], "argument --minutes: must be a positive number, not 0"),
    ("--fixed-scale", HARDEN + ["--fixed-scale=yes"], "ignored explicit argument 'yes'"),
    ("game", ["exploit", "chess", "--population", "p.json", "--seed", "1"], "unknown game 'chess'"),
    ("--population", EXPLOIT[:2] + ["--population", "/nonexistent.json", "--seed", "1"],
     "population file '/nonexistent.json' not found"),
    ("--seed", EXPLOIT + ["--seed", "x"], "argument --seed: invalid int value: 'x'"),
    ("--record", EXPLOIT + ["--seed", "1", "--record=yes"], "ignored explicit argument 'yes'"),
    ("--objective", BALANCE + ["--objective", "fun"], "--objective fun: use one of seats, strategies, length=TARGET"),
    ("--vary", BALANCE + ["--vary", "seat3_points=0..11"], "--vary seat3_points=11 is outside 0..10"),
    ("--budget", BALANCE[:-1] + ["10"], "--budget 10 is too small"),
]


@pytest.mark.parametrize("flag, argv, needle", BAD_FLAGS, ids=[f"{a[0]}-{f}-{i}" for i, (f, a, _) in enumerate(BAD_FLAGS)])
def test_every_flag_rejects_bad_values_in_one_line(flag, argv, needle, tmp_path, capsys, monkeypatch):
    """Every flag's invalid values: exit 2, one line naming the problem, and nothing written."""
    monkeypatch.chdir(tmp_path)
    argv = [str(tmp_path / "run") if a == "RUN" else a for a in argv]
    if "RUN" in [a for a in argv] or argv[:2] == ["report", str(tmp_path / "run")]:
        run_study("bus", 4, 20, jobs=1, out=tmp_path / "run", progress=False)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert main(argv) == 2
    assert needle in _error_line(capsys)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_bad_flag_table_covers_every_flag():
    """The table above names every option and positional of every verb: all flags are tested, not a sample."""
    from sim.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    covered = {f for f, _, _ in BAD_FLAGS}
    for verb, p in sub.choices.items():
        for action in p._actions:
            if action.dest == "help":
                continue
            name = action.option_strings[-1] if action.option_strings else action.dest
            assert name in covered, (verb, name)


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


def test_ab_verb_runs_both_arms_and_reports_the_change(tmp_path, capsys):
    """`playtest ab`: arm A with the base strategy, arm B with the variant from a file, same games; one answer."""
    weights = {d: dict(r) for d, r in get_game("bus").strategies.get("clockmaster").weights.items()}
    weights["clock"] = {"stop": -100.0}
    path = tmp_path / "noclock.json"
    path.write_text(json.dumps([{"name": "noclock", "description": "never stops the clock", "weights": weights}]))
    out = tmp_path / "ab"
    assert main(["ab", "bus", "--players", "4", "--games", "300", "--base", "clockmaster", "--variant", "noclock",
                 "--strategy-file", str(path), "--seed", "2", "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Playing noclock instead of clockmaster changes that player's win rate by ")
    assert " pts [" in printed and "300 paired games" in printed
    md = (out / "report" / "report.md").read_text()
    assert md.index("## A/B: what the variant changes") < md.index("## Balance card")
    a = json.loads((out / "A-clockmaster" / "manifest.json").read_text())
    b = json.loads((out / "B-noclock" / "manifest.json").read_text())
    assert a["seed"] == b["seed"] and a["seating"] == b["seating"] == "random"
    assert [s.replace("clockmaster", "noclock") for s in a["strategies"]] == b["strategies"]


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
    # the snapshot cost: a save and a restore copy every field a snapshot does not share
    study = plan_study("sea_trade", 3, 1)
    st, _ = study.spec.new_state(study.rules, 3, study.table())
    assert data["snapshot_bytes"] == snapshot_bytes(study.spec.layout, st) > st.meta.nbytes
    assert data["us_per_snapshot"] > 0
    # the speed-up is JIT over no JIT on one core each, the same lineup: the two rates it names
    assert data["speedup"] == pytest.approx(data["single_core_games_per_s"] / data["nojit_games_per_s"], rel=0.01)


def test_readme_strategy_example_is_valid(tmp_path):
    """The README's JSON strategy example registers against the real Sea Trade schema."""
    from sim.core.policy import StrategyRegistry
    from sim.core.spec import get_game

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = readme.split("```json", 1)[1].split("```", 1)[0]
    path = tmp_path / "cautious.json"
    path.write_text(block)
    assert StrategyRegistry("sea_trade", get_game("sea_trade").schema).load_file(path) == ["cautious"]
