"""Populations as data (`--population FILE`): each seat's strategy drawn from the mixture by (seed, game index,
seat), logs identical on any worker count, the manifest and the reports naming the players, and bad
population files refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analysis.load import load_run
from analysis.players import players_phrase
from sim.cli import main
from sim.study import mixture_orders
from tests.conftest import assert_same_tables

LAZY = {"name": "lazy", "description": "passes whenever it may", "kind": "weights",
        "weights": {"plan_action": {"pass": 1.0}}}
POPULATION = {"game": "bus", "players": 3, "strategies": ["balanced", "commuter", LAZY], "weights": [0.5, 0.3, 0.2],
              "exploitability": {"points": 2.5, "lo": 1.0, "hi": 4.0, "se": 0.75, "bound_pts": 4.0}}
RUN = ["run", "bus", "--players", "3", "--games", "400", "--chunk-size", "100", "--quiet"]


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("playtest: error: ")
    return err[0]


@pytest.fixture(scope="module")
def population_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("population") / "population.json"
    path.write_text(json.dumps(POPULATION))
    return path


@pytest.fixture(scope="module")
def runs(population_file, tmp_path_factory) -> tuple[Path, Path]:
    """The same population study on 1 and on 2 workers."""
    root = tmp_path_factory.mktemp("runs")
    for jobs in ("1", "2"):
        assert main([*RUN, "--population", str(population_file), "--jobs", jobs, "--out", str(root / jobs)]) == 0
    return root / "1", root / "2"


def test_mixture_draw_matches_the_weights_seat_by_seat():
    """Each seat draws each member with its weight (within 4 standard errors); a zero weight is never drawn."""
    weights = [0.5, 0.0, 0.3, 0.2]
    order = mixture_orders(7, np.arange(40_000), weights, 4)
    for seat in range(4):
        freq = np.bincount(order[:, seat], minlength=4) / len(order)
        se = np.sqrt(np.array(weights) * (1 - np.array(weights)) / len(order))
        assert np.all(np.abs(freq - weights) <= 4 * se + 1e-12), (seat, freq)
    assert not (order == 1).any()
    same = (order[:, 0] == order[:, 1]).mean()  # seats independent: P(same) = sum of squared weights
    assert abs(same - sum(w * w for w in weights)) < 0.01


def test_mixture_draw_depends_on_seed_and_game_index_only():
    """Drawing games 0..999 at once or in two chunks gives the same seats; another seed, other seats."""
    w = [0.25, 0.25, 0.5]
    whole = mixture_orders(3, np.arange(1000), w, 5)
    parts = np.vstack([mixture_orders(3, np.arange(0, 400), w, 5), mixture_orders(3, np.arange(400, 1000), w, 5)])
    assert np.array_equal(whole, parts)
    assert not np.array_equal(whole, mixture_orders(4, np.arange(1000), w, 5))


def test_focal_strategy_takes_exactly_one_uniform_seat():
    """A focal strategy (a best response or a probe) sits in one seat per game, each seat equally often."""
    order = mixture_orders(1, np.arange(20_000), [0.0, 0.6, 0.4], 4, focal=True)
    assert ((order == 0).sum(axis=1) == 1).all()
    seats = np.bincount(np.argmax(order == 0, axis=1), minlength=4) / len(order)
    assert np.all(np.abs(seats - 0.25) < 0.015)


def test_population_run_is_identical_on_1_and_2_workers(runs):
    assert_same_tables(*runs)


def test_manifest_and_players_table_name_the_members(runs):
    run = load_run(runs[0])
    population = run.manifest["population"]
    assert population["members"] == ["balanced", "commuter", "lazy"]
    assert population["weights"] == [0.5, 0.3, 0.2]
    assert population["exploitability"]["points"] == 2.5
    assert run.manifest["seating"] == "mixture"
    assert run.manifest["strategy_definitions"]["lazy"]["weights"] == LAZY["weights"]
    shares = run.players["strategy"].astype(str).value_counts(normalize=True)
    assert set(shares.index) == {"balanced", "commuter", "lazy"}
    assert abs(shares["balanced"] - 0.5) < 0.05


def test_report_says_which_players_its_findings_describe(runs, tmp_path, capsys):
    assert main(["report", str(runs[0]), "--out", str(tmp_path / "report")]) == 0
    md = (tmp_path / "report" / "report.md").read_text()
    assert "Players: hardened population (balanced 50%, commuter 30%, lazy 20%; exploitability +2.5 pts " \
           "[+1.0, +4.0]" in md
    assert "Design check passed" in md  # the neighbour check expects the mixture, not a pool without replacement


def test_players_phrase_names_pool_population_and_rollouts():
    pool = {"game": "bus", "strategies": ["balanced", "commuter"], "strategy_definitions": {}}
    assert players_phrase(pool) == "heuristic pool (balanced, commuter)"
    tuned = {"game": "bus", "strategies": ["balanced", "commuter", "br1"], "strategy_definitions": {
        "balanced": {"name": "balanced", "weights": {}}, "br1": {"name": "br1", "weights": {}}}}
    assert players_phrase(tuned) == "balanced, br1 against the heuristic pool (commuter)"  # an edited balanced
    rollouts = {"strategies": ["balanced+mc4", "commuter+mc4"], "strategy_definitions": {
        "balanced+mc4": {"kind": "rollout", "base": "balanced", "playouts": 4},
        "commuter+mc4": {"kind": "rollout", "base": "commuter", "playouts": 4}}}
    assert players_phrase(rollouts) == "rollouts over balanced, commuter (4 playouts)"
    unmeasured = {"population": {"members": ["a", "b"], "weights": [0.75, 0.25]}}
    assert players_phrase(unmeasured) == "population a 75%, b 25% (exploitability not measured)"
    many = {"population": {"members": [f"m{i}" for i in range(14)], "weights": [0.45, 0.45, *[0.1 / 12] * 12]}}
    assert players_phrase(many) == ("population m0 45%, m1 45%, and 12 members under 1% each, 10.0% in all "
                                    "(exploitability not measured)")  # past 12 members, the light ones summed


def test_population_phrase_names_each_probe_with_its_own_gain():
    measured = {"members": ["a", "b"], "weights": [0.998, 0.002],
                "exploitability": {"points": 10.4, "lo": 9.7, "hi": 11.1, "probe": "CMA-ES best response br9",
                                   "bound_pts": 72.9},
                "rollout_probe": {"points": 71.0, "lo": 69.1, "hi": 72.9, "player": "a+mc4"}}
    assert players_phrase({"population": measured}) == (
        "hardened population (a 100%, b 0.2%; exploitability +10.4 pts [+9.7, +11.1] by CMA-ES best response br9; "
        "the rollout probe a+mc4 gains +71.0 [+69.1, +72.9])")


def test_ab_under_a_population_swaps_one_member_in_the_same_seats(population_file, tmp_path, capsys):
    out = tmp_path / "ab"
    assert main(["ab", "bus", "--players", "3", "--games", "200", "--chunk-size", "100", "--jobs", "1", "--quiet",
                 "--population", str(population_file), "--base", "lazy", "--variant", "expander",
                 "--out", str(out)]) == 0
    a, b = (load_run(d).players for d in sorted(out.glob("[AB]-*")))
    lazy = a["strategy"].astype(str) == "lazy"
    assert lazy.any()
    assert (b.loc[lazy, "strategy"].astype(str) == "expander").all()
    assert (a.loc[~lazy, "strategy"].astype(str) == b.loc[~lazy, "strategy"].astype(str)).all()
    assert load_run(sorted(out.glob("B-*"))[0]).manifest["population"]["members"] == ["balanced", "commuter",
                                                                                      "expander"]


def test_sweep_under_a_population(population_file, tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main(["sweep", "bus", "--players", "3", "--games", "100", "--jobs", "1", "--quiet", "--population",
                 str(population_file), "--vary", "weights.lazy.plan_action.pass=1,2", "--out", str(out)]) == 0
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["seating"] == "mixture" and manifest["population"]["members"] == ["balanced", "commuter", "lazy"]


def _bad(tmp_path: Path, content) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


BAD = [
    ("{not json", "is not valid JSON"),
    ([0.5, 0.5], "lacks a non-empty 'strategies' list"),
    ({"strategies": ["balanced", "commuter"]}, "'weights' must be a list of numbers"),
    ({"strategies": ["balanced", "commuter"], "weights": [1.2, -0.2]}, "weight -0.2 is negative"),
    ({"strategies": ["balanced", "commuter"], "weights": [0.5, 0.4]}, "the weights sum to 0.9, not 1"),
    ({"strategies": ["balanced", "commuter"], "weights": [1.0]}, "1 weights for 2 strategies"),
    ({"strategies": ["balanced", "nosuch"], "weights": [0.5, 0.5]}, "unknown strategy 'nosuch'"),
    ({"strategies": ["balanced", "balanced"], "weights": [0.5, 0.5]}, "names a strategy twice"),
    ({"strategies": ["balanced", {"name": "x", "colour": "red"}], "weights": [0.5, 0.5]}, "definition is malformed"),
    ({"game": "sea_trade", "strategies": ["trader"], "weights": [1]}, "a population for sea_trade, not bus"),
    ({"players": 5, "strategies": ["balanced"], "weights": [1]}, "made for 5 players, not 3"),
]


@pytest.mark.parametrize("content, needle", BAD, ids=[n for _, n in BAD])
def test_bad_population_file_is_one_line_exit_2_and_writes_nothing(content, needle, tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*RUN, "--jobs", "1", "--population", str(_bad(tmp_path, content)), "--out", str(out)]) == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


def test_population_excludes_strategies_and_seating(population_file, tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*RUN, "--population", str(population_file), "--strategies", "balanced", "--out", str(out)]) == 2
    assert "drop --strategies" in _error_line(capsys)
    assert not out.exists()
