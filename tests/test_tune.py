"""`playtest tune`: CMA-ES finds a much better strategy than a deliberately weak start, measures it on fresh
seeds, and writes a strategy file that `playtest run` accepts; bad input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.load import load_run
from sim.cli import main
from sim.core.policy import Strategy
from sim.core.spec import get_game
from sim.core.errors import PlaytestError
from sim.tune import plan_tune, read_tune, search

IDLER = Strategy("idler", "deliberately weak: passes whenever it may and spends cubes on the clock",
                 weights={"plan_action": {"pass": 2.0, "act_clock": 1.0, "act_bus": -1.0, "act_vroom": -1.0}})
TUNE = ["tune", "bus", "--players", "3", "--against", "random", "--start", "idler", "--decisions", "plan_action",
        "--budget", "12000", "--block", "200", "--popsize", "10", "--final-games", "1000", "--jobs", "1", "--quiet"]


@pytest.fixture(scope="module")
def idler_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("strategies") / "idler.json"
    path.write_text(json.dumps([IDLER.__dict__]))
    return path


@pytest.fixture(scope="module")
def tuned(idler_file, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tune") / "bus"
    assert main([*TUNE, "--strategy-file", str(idler_file), "--out", str(out)]) == 0
    return out


def test_tune_improves_a_weak_start_against_random(tuned):
    record = read_tune(tuned)
    assert len(record["history"]) == 12000 // (10 * 200)
    arm_a, arm_b = (load_run(tuned / d) for d in record["arms"])
    start = arm_a.players.loc[arm_a.players["strategy"] == "tuned-start", "win_share"].mean()
    best = arm_b.players.loc[arm_b.players["strategy"] == "tuned", "win_share"].mean()
    assert start < 0.1 and best > start + 0.2  # a third is the fair share: the idler almost never wins
    assert arm_a.manifest["seed"] == arm_b.manifest["seed"] == record["seed"] + 1  # fresh seeds, paired arms
    md = (tuned / "report" / "report.md").read_text()
    assert md.count("Yes: a strategy far above the field exists") == 1
    assert "What it does: action profile" in md and "act_exp" in md


def test_tuned_file_is_a_strategy_file_run_accepts(tuned, tmp_path, capsys):
    record = read_tune(tuned)
    written = json.loads((tuned / "tuned.json").read_text())[0]["weights"]
    assert [written[d][f] for d, f in record["params"]] == record["x_final"]
    out = tmp_path / "run"
    assert main(["run", "bus", "--players", "3", "--games", "200", "--strategies", "tuned,random,random", "--jobs", "1",
                 "--strategy-file", str(tuned / "tuned.json"), "--out", str(out), "--quiet"]) == 0
    assert "tuned" in set(load_run(out).players["strategy"].astype(str))


def test_search_is_reproducible_with_the_same_seed(idler_file, tuned, tmp_path):
    out = tmp_path / "again"
    assert main([*TUNE, "--strategy-file", str(idler_file), "--out", str(out)]) == 0
    assert read_tune(out)["x_final"] == read_tune(tuned)["x_final"]


@pytest.mark.parametrize("extra, needle", [
    (["--start", "nosuch"], "unknown strategy 'nosuch'"),
    (["--against", "random,random,random"], "3 strategies for the 2 other seats"),
    (["--budget", "1000"], "too small"),
    (["--name", "random"], "pick a new name"),
    (["--decisions", "plan_action,nosuch"], "unknown decision 'nosuch'"),
    (["--players", "9"], "3 to 5 players"),
])
def test_bad_tune_input_is_one_line_exit_2(extra, needle, idler_file, tmp_path, capsys):
    out = tmp_path / "t"
    assert main([*TUNE, "--strategy-file", str(idler_file), *extra, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0]
    assert not out.exists()


def test_start_defaults_to_the_first_weights_strategy_of_the_field():
    plan = plan_tune("bus", 4, ["random", "commuter"], 100_000, block=100)
    assert plan.start == "commuter" and plan.field == ("random", "commuter", "random")
    assert plan.x0 == tuple(get_game("bus").strategies.get("commuter").weights.get(d, {}).get(f, 0.0)
                            for d, f in plan.params)


def test_a_fixed_scale_search_keeps_its_softmax_start_mixing():
    """A best response to a fixed field sharpens a softmax start (its weights grow); at a fixed scale the
    searched weights keep the start's norm, so the member stays as random as its start."""
    registry = get_game("bus").strategies
    registry.register(Strategy("soft-idler", IDLER.description, "weights", IDLER.weights, temperature=0.5))
    norms = {}
    for fixed in (False, True):
        plan = plan_tune("bus", 3, ["random"], 1_800, start="soft-idler", name=f"soft-{fixed}",
                         decisions=["plan_action"], block=50, popsize=6, seed=3, fixed_scale=fixed)
        x = search(plan, progress=False)["x_final"]
        norms[fixed] = sum(v * v for v in x) ** 0.5
    start = sum(v * v for v in plan.x0) ** 0.5
    assert norms[True] == pytest.approx(start, rel=1e-3)
    assert abs(norms[False] - start) > 0.05 * start
    with pytest.raises(PlaytestError, match="--start commuter is greedy"):
        plan_tune("bus", 3, ["random"], 1_800, start="commuter", name="sharp", block=50, popsize=6, fixed_scale=True)


def test_a_probe_that_wins_every_game_keeps_an_interval():
    """400 games in one seat of three, all won: +66.7 pts over the fair share, and a Wilson interval below it
    (a normal interval would collapse to the point, as the Bus 3p rollout probe's once did)."""
    from types import SimpleNamespace

    import pandas as pd

    from analysis.tune import edge

    games = 400
    players = pd.DataFrame({"game_index": [g for g in range(games) for _ in range(3)],
                            "strategy": ["probe", "a", "b"] * games, "win_share": [1.0, 0.0, 0.0] * games})
    f = edge(SimpleNamespace(players=players), "probe", threshold=3.0)
    assert f.estimate == pytest.approx(100 * 2 / 3)
    assert f.lo < f.estimate - 0.5 and f.hi == pytest.approx(f.estimate) and f.se > 0
    assert f.label == "large"
