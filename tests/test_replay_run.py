"""Runs that replay themselves: `playtest replay RUN_DIR --game-index i` rebuilds the study from the manifest alone
(players, strategies as defined then, seating, seed, rules, population), so game i plays again exactly as logged."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sim.cli import main
from sim.core.policy import Strategy
from sim.core.spec import get_game
from sim.replay import trace_logged
from sim.runner import _git_dirty, run_study
from sim.study import Mixture

GAME, PLAYERS = "sea_trade", 3
CUSTOM = Strategy("hoarder", "buys whenever it gains, sells for gold", weights={
    "buy": {"my_gain": 2.0, "pass": -1.0}, "sell": {"gold": 1.0}, "sail": {"sale_gain": 1.0, "buy_gain": 0.5}})


def _logged(run_dir, table: str, game_index: int) -> pd.DataFrame:
    frame = pd.read_parquet(run_dir / table)
    return frame[frame.game_index == game_index].sort_values("seat" if table == "players" else "game_index")


def _assert_replays(run_dir, game_index: int) -> None:
    """The traced game's records equal the logged ones, column by column (scores, ranks, winner and the rest)."""
    spec = get_game(GAME)
    traced = trace_logged(run_dir, game_index)
    players = _logged(run_dir, "players", game_index)
    assert list(traced.names) == players["strategy"].tolist()
    for j, col in enumerate(spec.player_columns):
        assert traced.players[:, j].tolist() == players[col.name].tolist(), col.name
    games = _logged(run_dir, "games", game_index).iloc[0]
    for j, col in enumerate(spec.game_columns):
        value = col.labels[traced.games[j]] if col.labels else traced.games[j]
        assert value == games[col.name], col.name


@pytest.fixture(scope="module")
def pool_run(tmp_path_factory):
    """A pool of four (one from outside the built-ins) seated at random, under a rules variant."""
    registry = get_game(GAME).strategies
    registry.register(CUSTOM)
    out = tmp_path_factory.mktemp("pool") / "run"
    run_study(GAME, PLAYERS, 24, ["trader", "raider", "hoarder", "random"], seed=11, jobs=1, out=out,
              overrides=["win_gold=25"], progress=False, chunk_size=8)
    registry._by_name.pop("hoarder")  # a fresh process would not know it: the manifest must bring it
    return out


def test_replay_of_a_run_dir_equals_the_logged_games(pool_run):
    for i in (0, 9, 23):
        _assert_replays(pool_run, i)
    assert "hoarder" in get_game(GAME).strategies.names()


def test_replay_of_a_population_run_equals_the_logged_games(tmp_path):
    mixture = Mixture((0.0, 0.7, 0.3), focal=True, record={"members": ["raider", "blocker"], "weights": [0.7, 0.3]})
    out = tmp_path / "run"
    run_study(GAME, PLAYERS, 12, ["trader", "raider", "blocker"], seed=3, jobs=1, out=out, progress=False,
              mixture=mixture)
    for i in (2, 11):
        _assert_replays(out, i)


def test_the_cli_replays_a_run_dir_and_refuses_study_flags(pool_run, capsys):
    assert main(["replay", str(pool_run), "--game-index", "9"]) == 0
    captured = capsys.readouterr()
    winner = _logged(pool_run, "players", 9).query("won == 1")["seat"].tolist()
    assert all(f"seat {s}" in captured.out for s in winner) and "wins" in captured.out
    assert main(["replay", str(pool_run), "--game-index", "9", "--players", "3"]) == 2
    assert "drop --players" in capsys.readouterr().err
    assert main(["replay", str(pool_run), "--game-index", "24"]) == 2
    assert "holds games 0 to 23" in capsys.readouterr().err


def test_manifest_records_the_kernel_digest_and_whether_the_tree_was_dirty(pool_run, tmp_path, monkeypatch):
    manifest = json.loads((pool_run / "manifest.json").read_text())
    assert isinstance(manifest["source_digest"], str) and len(manifest["source_digest"]) == 16
    assert manifest["git_dirty"] in (True, False, None)
    monkeypatch.setattr("sim.runner.SOURCES", tmp_path)  # not a git checkout: null, never an error
    assert _git_dirty() is None


def test_a_changed_kernel_digest_is_noted_on_replay(pool_run, tmp_path, capsys):
    manifest = json.loads((pool_run / "manifest.json").read_text())
    copy = tmp_path / "run"
    copy.mkdir()
    for table in ("games", "players"):
        (copy / table).symlink_to(pool_run / table)
    (copy / "manifest.json").write_text(json.dumps({**manifest, "source_digest": "0" * 16}))
    assert main(["replay", str(copy), "--game-index", "0"]) == 0
    assert "the kernels changed since this run (source digest 0000000000000000" in capsys.readouterr().err


def test_the_flag_form_still_replays(capsys):
    argv = ["replay", GAME, "--players", "3", "--seed", "2", "--strategies", "trader,raider,random", "--game-index", "1"]
    assert main(argv) == 0 and "seat 2" in capsys.readouterr().out
    assert main(["replay", GAME, "--game-index", "1"]) == 2
    assert "needs --players" in capsys.readouterr().err
