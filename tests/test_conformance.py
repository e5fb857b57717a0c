"""The game contract: every registered game passes the same checks (a game joins by registering).

Rule-ID tests stay per game (tests/test_<game>_*.py); here are the properties every simulator must have:
determinism across workers and chunkings, replays that replay, the same games with and without JIT, legal
option generators, invariants over many checked games, the record schema, snapshot/restore, the strategy
registry round trip, and one clear line for bad input.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main
from sim.core.records import STANDARD_GAME, STANDARD_PLAYER
from sim.core.spec import game_names, get_game
from sim.core.state import restore, save
from sim.core import play as protocol
from sim.logs import records_to_frames
from sim.runner import run_study
from tests.conftest import assert_same_tables, player_counts, study_players

GAMES = game_names()
ROOT = Path(__file__).resolve().parent.parent


def _players(spec) -> list[int]:
    """The player counts to check, from the game's spec (tests/conftest.py)."""
    return player_counts(spec)


def _lineup(spec, n: int) -> list[str]:
    """The game's default strategies cycled over n seats, with one random seat (every policy kind plays)."""
    names = [spec.default_lineup[s % len(spec.default_lineup)] for s in range(n)]
    names[-1] = "random"
    return names


def _seats(n_games: int, n: int, n_strats: int, seed: int = 0) -> np.ndarray:
    """Random strategy rows per (game, seat)."""
    return np.random.default_rng(seed).integers(0, n_strats, size=(n_games, n))


def _chunk(spec, n: int, first: int, n_games: int, seed: int, check: bool = False):
    names = _lineup(spec, n)
    table = spec.strategies.table(names)
    return spec.play_chunk(spec.rules_type(), n, _seats(first + n_games, n, len(names))[first:], first, n_games,
                           seed, table, check=check)


@pytest.mark.parametrize("game", GAMES)
def test_identical_logs_on_one_and_two_workers(game, tmp_path):
    """Game i draws its randomness from (seed, i) only: 1 worker and 2 workers write the same tables."""
    spec = get_game(game)
    n = _players(spec)[0]
    kw = dict(strategies=_lineup(spec, n), seed=5, progress=False, chunk_size=15)
    a = run_study(game, n, 45, jobs=1, out=tmp_path / "a", **kw)
    b = run_study(game, n, 45, jobs=2, out=tmp_path / "b", **kw)
    assert_same_tables(a, b)


@pytest.mark.parametrize("game", GAMES)
def test_chunk_size_does_not_change_games(game):
    """One chunk of 40 games equals chunks of 15 + 25 (nothing carries over from game to game)."""
    spec = get_game(game)
    n = _players(spec)[-1]
    whole = _chunk(spec, n, 10, 40, 3)
    a = _chunk(spec, n, 10, 15, 3)
    b = _chunk(spec, n, 25, 25, 3)
    assert np.array_equal(whole.games, np.concatenate([a.games, b.games]))
    assert np.array_equal(whole.players, np.concatenate([a.players, b.players]))


@pytest.mark.parametrize("game", GAMES)
def test_replay_is_the_logged_game(game):
    """`playtest replay` plays the logged game again: the same record rows, and a text naming every seat."""
    spec = get_game(game)
    n = study_players(spec)
    names = _lineup(spec, n)
    table = spec.strategies.table(names)
    seats = _seats(8, n, len(names), 1)
    logged = spec.play_chunk(spec.rules_type(), n, seats, 0, 8, 11, table)
    for i in (0, 7):
        traced = spec.trace(spec.rules_type(), n, seats[i], i, 11, table, names)
        assert np.array_equal(traced.games, logged.games[i])
        assert np.array_equal(traced.players, logged.players[i])
        assert len(traced.events) > 0
        text = spec.render(traced)
        assert all(names[s] in text for s in seats[i])


@pytest.mark.parametrize("game", GAMES)
def test_nojit_plays_the_same_games(game):
    """The kernels run identically as plain Python (NUMBA_DISABLE_JIT=1), which `playtest bench` relies on."""
    spec = get_game(game)
    n = spec.min_players
    code = (f"import numpy as np\nfrom sim.core.spec import get_game\nspec = get_game({game!r})\n"
            f"names = {_lineup(spec, n)!r}\n"
            f"r = spec.play_chunk(spec.rules_type(), {n}, np.array({_seats(2, n, n, 4).tolist()}), 7, 2, 3, "
            "spec.strategies.table(names), check=True)\n"
            "print(r.games.tolist(), r.players.tolist())")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.strip()
    r = spec.play_chunk(spec.rules_type(), n, _seats(2, n, n, 4), 7, 2, 3, spec.strategies.table(_lineup(spec, n)))
    assert out == f"{r.games.tolist()} {r.players.tolist()}"


@pytest.mark.parametrize("game", GAMES)
def test_option_generators_agree_with_rule_checks(game):
    """Every legal option is generated and every generated option is legal, on random positions."""
    spec = get_game(game)
    assert spec.check_options is not None, f"{game}: register check_options (the option/rule agreement check)"
    assert spec.check_options(2024) > 100


@pytest.mark.parametrize("game", GAMES)
def test_checked_random_games(game):
    """Hundreds of games in checked mode, every player count: every invariant holds after every step."""
    spec = get_game(game)
    for n in _players(spec):
        r = _chunk(spec, n, 0, 150, 8, check=True)
        assert r.games.shape == (150, len(spec.game_columns))


@pytest.mark.parametrize("game", GAMES)
def test_record_schema(game):
    """Standard columns first, every rank in 1..n, won on rank 1 only, win shares summing to 1 or 0."""
    spec = get_game(game)
    assert tuple(c.name for c in spec.game_columns[:4]) == STANDARD_GAME
    assert tuple(c.name for c in spec.player_columns[:3]) == STANDARD_PLAYER
    n = study_players(spec)
    r = _chunk(spec, n, 0, 60, 2)
    names = _lineup(spec, n)
    frames = records_to_frames(spec, r, 0, _seats(60, n, len(names)), names)
    games, players = frames["games"], frames["players"]
    assert list(games.columns[:2]) == ["game_index", "n_players"]
    assert set(games["end_reason"]) <= set(spec.game_columns[1].labels)
    assert players["rank"].between(1, n).all()
    assert (players.loc[players["won"] == 1, "rank"] == 1).all()
    shares = players.groupby("game_index")["win_share"].sum()
    assert np.isclose(shares, 1.0).sum() + np.isclose(shares, 0.0).sum() == len(shares)
    sole = games["winner_seat"] >= 0
    assert (players.groupby("game_index")["won"].sum()[sole.values] == 1).all()
    assert (r.games[:, spec.game_col("decisions")] > 0).all()


@pytest.mark.parametrize("game", GAMES)
def test_snapshot_and_restore(game):
    """Pause a game after k decisions, save it, play on; restore, play on again: both continuations are the
    game played straight through."""
    spec = get_game(game)
    n = study_players(spec)
    names = _lineup(spec, n)
    table = spec.strategies.table(names)
    seats = np.arange(n, dtype=np.int64) % len(names)
    st, data = spec.new_state(spec.rules_type(), n, table)
    snap = spec.new_snapshot(st)
    straight = spec.play_chunk(spec.rules_type(), n, seats[None, :], 3, 1, 21, table)
    for k in (1, 25, 120):
        if protocol.play_until(st, data, 21, 3, seats, k):
            continue  # over before k decisions
        assert st.games[spec.game_col("decisions")] >= k
        save(st, snap)
        protocol.play_rest(st, data)
        first = (st.games.copy(), st.players.copy())
        st.games[:] = -1  # scribble: restore must bring the position back
        restore(st, snap)
        protocol.play_rest(st, data)
        assert np.array_equal(first[0], st.games) and np.array_equal(first[1], st.players)
        assert np.array_equal(first[0], straight.games[0]) and np.array_equal(first[1], straight.players[0])


def test_a_paused_game_plays_in_the_chunk_kernel(monkeypatch):
    """play_until and play_rest run play_chunk's pause modes, the code play compiled, not kernels of their own
    (each compiled every hook of the game again)."""
    from sim.core.state import M

    spec = get_game("pig")
    table = spec.strategies.table(_lineup(spec, 2))
    st, data = spec.new_state(spec.rules_type(), 2, table)
    real, modes = protocol.play_chunk, []
    monkeypatch.setattr(protocol, "play_chunk", lambda *args: modes.append(args[-1]) or real(*args))
    assert not protocol.play_until(st, data, 1, 0, np.arange(2, dtype=np.int64), 3)
    protocol.play_rest(st, data)
    assert modes == [3, -1] and st.meta[M.ended] == 1


@pytest.mark.parametrize("game", GAMES)
def test_strategy_registry_round_trip(game, tmp_path):
    """Every named strategy survives JSON (the format `--strategy-file` reads) into the same kernel table, rollouts
    registered by earlier tests included."""
    spec = get_game(game)
    strategies = list(spec.strategies)
    path = tmp_path / "s.json"
    copies = [dict(dataclasses.asdict(s), name=s.name + "_copy") for s in strategies]
    for c in copies:  # a rollout registered by an earlier test (``BASE+mcK``) names its base's copy
        if "base" in c:
            c["base"] += "_copy"
    path.write_text(json.dumps(copies))
    from sim.core.policy import StrategyRegistry

    registry = StrategyRegistry(game, spec.schema)
    loaded = registry.load_file(path)
    a = spec.strategies.table([s.name for s in strategies])
    b = registry.table(loaded)
    assert np.array_equal(a.kind, b.kind) and np.array_equal(a.params, b.params)
    assert np.array_equal(a.weights, b.weights)
    assert set(spec.default_lineup) <= set(spec.strategies.names()) and "random" in spec.strategies.names()


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_is_one_line_exit_2(game, tmp_path, capsys):
    """A wrong player count, an unknown rules field, a bad rules value and a malformed data file each end in
    one line naming the problem, exit 2, and nothing written."""
    spec = get_game(game)
    out = tmp_path / "run"
    cases = [
        (["--players", str(spec.max_players + 1)], f"not {spec.max_players + 1}"),
        (["--players", str(spec.min_players - 1)], f"not {spec.min_players - 1}"),
        (["--set", "no_such_field=1"], "unknown rules field"),
    ]
    if spec.data_field:
        bad = tmp_path / "bad.json"
        bad.write_text("{ not json")
        cases.append((["--set", f"{spec.data_field}={bad}"], str(bad)))
        cases.append((["--set", f"{spec.data_field}={tmp_path / 'missing'}"], "missing"))
    for extra, needle in cases:
        argv = ["run", game, "--games", "3", "--out", str(out)]
        if "--players" not in extra:
            argv += ["--players", str(spec.min_players)]
        assert main(argv + extra) == 2, extra
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and needle in err[0], (extra, err)
        assert not out.exists()


# ------------------------------------------------------------------------------------------------ rollouts
def _rollout_players(spec) -> int:
    """Head-to-head rollout checks: the fewest players a game allows, at least two."""
    return max(2, spec.min_players)


def _rollout_seats(n_games: int, n: int) -> np.ndarray:
    """Strategy row 0 (the rollout) in seat i mod n of game i, row 1 (its base) in every other seat."""
    seats = np.ones((n_games, n), np.int64)
    seats[np.arange(n_games), np.arange(n_games) % n] = 0
    return seats


@pytest.mark.parametrize("game", GAMES)
def test_rollout_logs_identical_on_one_and_two_workers_and_replayed(game, tmp_path):
    """A rollout seat's randomness comes from (seed, game index) only, flat or halving: 1 and 2 workers write
    the same tables, and `playtest replay` plays the logged rollout game again."""
    spec = get_game(game)
    n = _rollout_players(spec)
    base = spec.default_lineup[0]
    lineup = [f"{base}+mc2", base]
    kw = dict(strategies=[f"{base}+sh2"] + lineup + [base] * (n - 2), seed=5, progress=False, chunk_size=2,
              seating="random")
    a = run_study(game, n, 4, jobs=1, out=tmp_path / "a", **kw)
    b = run_study(game, n, 4, jobs=2, out=tmp_path / "b", **kw)
    assert_same_tables(a, b)
    table = spec.strategies.table(lineup)
    seats = _rollout_seats(1, n)
    logged = spec.play_chunk(spec.rules_type(), n, seats, 3, 1, 9, table)
    assert logged.rollout_decisions > 0 and logged.playouts >= 2 * logged.rollout_decisions
    halving = spec.play_chunk(spec.rules_type(), n, seats, 3, 1, 9, spec.strategies.table([f"{base}+sh2", base]))
    assert 0 < halving.playouts <= 2 * 4 * halving.rollout_decisions  # never more than flat's budget
    traced = spec.trace(spec.rules_type(), n, seats[0], 3, 9, table, lineup)
    assert np.array_equal(traced.games, logged.games[0]) and np.array_equal(traced.players, logged.players[0])


@pytest.mark.parametrize("game", GAMES)
def test_rollout_bad_input_is_one_line_exit_2(game, tmp_path, capsys):
    """A rollout with 0 playouts, an unknown base, a rollout base, or a ladder level below 0: one line, exit 2."""
    spec = get_game(game)
    base = spec.default_lineup[0]
    bad = tmp_path / "s.json"
    bad.write_text(json.dumps([{"name": "deep", "kind": "rollout", "base": f"{base}+mc2", "playouts": 2}]))
    out = tmp_path / "run"
    cases = [
        (["run", "--strategies", f"{base}+mc0"], "playouts must be a whole number from 1"),
        (["run", "--strategies", "nobody+mc4"], "unknown base 'nobody'"),
        (["run", "--strategy-file", str(bad), "--strategies", "deep"], "is itself a rollout"),
        (["ladder", "--base", base, "--playouts", "0,-4"], "playouts must be 0"),
        (["bench", "--strategies", f"{base}+mc0"], "from 1 to 100,000"),
    ]
    for (verb, *extra), needle in cases:
        argv = [verb, game, "--players", str(_rollout_players(spec)), *extra]
        if verb != "bench":
            argv += ["--games", "3", "--out", str(out)]
        assert main(argv) == 2, extra
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and needle in err[0], (extra, err)
        assert not out.exists()


def test_rollout_strategy_file_and_short_form_pack_alike(tmp_path):
    """The JSON form of a rollout strategy (the issue's example) and the short form pack into the same row:
    the base's kind and weights plus the playouts and top."""
    from sim.core.policy import P_PLAYOUTS, P_TOP

    spec = get_game(GAMES[0])
    base = spec.default_lineup[0]
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"name": "strong", "kind": "rollout", "base": base, "playouts": 16, "top": 4}))
    spec.strategies.load_file(path)
    a, b, c = (spec.strategies.table([name]) for name in ("strong", f"{base}+mc16", base))
    assert np.array_equal(a.params, b.params) and np.array_equal(a.weights, c.weights) and a.kind[0] == c.kind[0]
    assert a.params[0, P_PLAYOUTS] == 16 and a.params[0, P_TOP] == 4 and c.params[0, P_PLAYOUTS] == 0
