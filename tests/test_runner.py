"""The runner: seeding, seating, determinism across workers and backends, resume and refusal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import joblib
import numpy as np
import pytest

from sim.core.errors import PlaytestError
from sim.core.spec import game_names, get_game
from sim.runner import run_study
from sim.study import plan_study
from tests.conftest import assert_same_tables, read_tables, study_players

GAMES = game_names()
N = 1200
CHUNK = 300


def _run(game: str, out: Path, **kw) -> Path:
    """A study of N games at the game's default player count (its spec's, 4 where allowed)."""
    args = dict(players=study_players(get_game(game)), games=N, seating="random", seed=7, jobs=1, progress=False, chunk_size=CHUNK)
    args.update(kw)
    return run_study(game, out=out, **args)


@pytest.mark.parametrize("game", GAMES)
def test_jobs_do_not_change_logs(game, tmp_path):
    """Same seed on 1 worker and on 2 workers (different chunking too) gives identical tables."""
    one = _run(game, tmp_path / "one", jobs=1)
    two = _run(game, tmp_path / "two", jobs=2, chunk_size=CHUNK // 2 + 1)
    assert_same_tables(one, two)
    assert len(read_tables(one)["games"]) == N


@pytest.fixture(scope="module")
def dask_cluster():
    """One local Dask cluster (two worker processes) for every game's backend test: a cluster's start and its
    workers' imports cost seconds each time."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster


def test_a_run_with_one_part_plays_it_in_this_process(tmp_path, monkeypatch):
    """A study with fewer parts than cores starts no more workers than it has parts: one part on all cores
    (``jobs=-1``) plays here, without the seconds a worker takes to start and load the kernels."""
    import sim.runner

    pids = []
    play_part = sim.runner.play_part

    def spy(*args):
        pids.append(os.getpid())
        return play_part(*args)

    monkeypatch.setattr(sim.runner, "play_part", spy)
    _run("pig", tmp_path / "one", games=CHUNK, jobs=-1)
    assert pids == [os.getpid()]
    if joblib.cpu_count() > 1:
        _run("pig", tmp_path / "two", games=2 * CHUNK, jobs=-1)
        assert pids == [os.getpid()], "two parts on two cores play in worker processes"


@pytest.mark.parametrize("game", GAMES)
def test_dask_backend_matches_local(game, tmp_path, dask_cluster):
    """The Dask backend on a local cluster gives bit-identical tables to a local run."""
    local = _run(game, tmp_path / "local")
    remote = _run(game, tmp_path / "dask", backend="dask", scheduler=dask_cluster.scheduler_address, jobs=-1)
    assert_same_tables(local, remote)


def test_seed_changes_games(tmp_path):
    a = read_tables(_run("sea_trade", tmp_path / "a", games=300, seed=1))["players"]
    b = read_tables(_run("sea_trade", tmp_path / "b", games=300, seed=2))["players"]
    assert not a["score"].equals(b["score"])


POOL5 = ["balanced", "commuter", "expander", "builder", "clockmaster"]


def test_random_seating_is_a_pure_function_of_seed_and_game_index():
    """--seating random: any split of the games into chunks gives the same seats; another seed other seats."""
    study = plan_study("bus", 4, 6000, POOL5, seating="random", seed=3)
    whole = study.seats(0, 6000)
    assert (np.vstack([study.seats(0, 1234), study.seats(1234, 4766)]) == whole).all()
    assert not (plan_study("bus", 4, 6000, POOL5, seating="random", seed=4).seats(0, 6000) == whole).all()
    assert all(len(set(row)) == 4 for row in whole.tolist())


def test_random_seating_is_uniform_over_seats_orders_and_neighbours():
    """Each strategy takes each seat, each pair meets in both orders and neighbours vary (unlike rotation)."""
    seats = plan_study("bus", 4, 20000, POOL5, seating="random", seed=1).seats(0, 20000)
    for s in range(4):
        share = np.bincount(seats[:, s], minlength=5) / 20000
        assert np.abs(share - 0.2).max() < 0.015
    after = np.zeros((5, 5))
    np.add.at(after, (seats[:, :-1].ravel(), seats[:, 1:].ravel()), 1)
    shares = after / after.sum(axis=1, keepdims=True)
    assert np.abs(shares[~np.eye(5, dtype=bool)] - 0.25).max() < 0.02


def test_all_seating_plays_every_ordering_equally_often():
    study = plan_study("bus", 4, 2 * 120, POOL5, seating="all", seed=2)
    seats = study.seats(0, 240)
    rows = [tuple(r) for r in seats.tolist()]
    assert len(set(rows[:120])) == 120 and sorted(rows[:120]) == sorted(rows[120:])
    assert (np.vstack([study.seats(0, 77), study.seats(77, 163)]) == seats).all()


def test_all_seating_with_a_large_pool_balances_seats_in_blocks():
    """A pool whose orderings are too many to enumerate: blocks of rotations of random orderings."""
    from sim.study import ALL_ORDERS_LIMIT, balanced_orders

    assert 10 * 9 * 8 * 7 * 6 * 5 > ALL_ORDERS_LIMIT
    out = balanced_orders(5, np.arange(1000), 10, 6)
    for s in range(6):
        assert np.bincount(out[:, s], minlength=10).tolist() == [100] * 10
    assert len({tuple(r) for r in out.tolist()}) > 500


def test_fixed_seating_and_defaults():
    fixed = plan_study("sea_trade", 4, 10, ["trader", "raider", "blocker", "random"], seating="fixed").seats(0, 10)
    assert (fixed == fixed[0]).all() and fixed[0].tolist() == [0, 1, 2, 3]
    assert plan_study("sea_trade", 4, 10, ["trader", "raider", "blocker", "random"]).seating == "random"
    assert plan_study("sea_trade", 4, 10, ["trader"]).seating == "fixed"
    assert plan_study("bus", 4, 10, POOL5, rotate=True).seating == "random"  # --rotate is a synonym
    assert plan_study("bus", 4, 10).lineup == tuple(POOL5)
    with pytest.raises(PlaytestError, match="longer pool"):
        plan_study("bus", 3, 10, ["balanced", "commuter", "expander", "builder"], seating="fixed")
    with pytest.raises(PlaytestError, match="unknown seating 'cyclic'"):
        plan_study("bus", 3, 10, seating="cyclic")
    with pytest.raises(PlaytestError, match="--rotate means --seating random"):
        plan_study("bus", 3, 10, rotate=True, seating="fixed")


def test_killed_run_resumes_to_identical_logs(tmp_path):
    """Kill a run midway (SIGKILL), re-run the same command: the logs equal an uninterrupted run's."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "sim.cli", "run", "sea_trade", "--players", "4", "--games", "6000", "--rotate",
           "--seed", "3", "--jobs", "1", "--chunk-size", "200", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline:
        manifest = out / "manifest.json"
        if manifest.exists() and len(json.loads(manifest.read_text())["parts"]) >= 2:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done = json.loads((out / "manifest.json").read_text())
    assert not done["complete"] and 2 <= len(done["parts"]) < 30
    subprocess.run(cmd, check=True)
    whole = run_study("sea_trade", 4, 6000, rotate=True, seed=3, jobs=2, out=tmp_path / "whole", progress=False,
                      chunk_size=1000)
    assert_same_tables(out, whole)
    assert json.loads((out / "manifest.json").read_text())["complete"]


def test_corrupt_part_is_redone(tmp_path):
    run = _run("sea_trade", tmp_path / "r", games=600)
    before = read_tables(run)
    part = run / "players" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:-40])
    _run("sea_trade", run, games=600)
    after = read_tables(run)
    for name in before:
        assert before[name].equals(after[name])


def test_other_study_in_same_dir_is_refused(tmp_path):
    run = _run("sea_trade", tmp_path / "r", games=300)
    files = sorted(p.name for p in run.rglob("*"))
    with pytest.raises(PlaytestError, match="different study"):
        _run("sea_trade", run, games=300, seed=8)
    assert sorted(p.name for p in run.rglob("*")) == files


def test_a_second_writer_is_refused_in_one_line_naming_the_first(tmp_path):
    """Two `playtest run` into one directory: the second exits 2 naming the first process; nothing is lost."""
    out = tmp_path / "busy"
    cmd = [sys.executable, "-m", "sim.cli", "run", "sea_trade", "--players", "3", "--games", "20000", "--seed", "5",
           "--jobs", "1", "--chunk-size", "500", "--quiet", "--out", str(out)]
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and not (out / "manifest.json").exists():
        time.sleep(0.05)
    second = subprocess.run(cmd, capture_output=True, text=True)
    still_running = first.poll() is None
    first.wait()
    assert still_running, "the first run finished before the second started; make it longer"
    assert second.returncode == 2 and "Traceback" not in second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and f"is being written by playtest process {first.pid}" in lines[0], lines
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and len(manifest["parts"]) == 40
    assert len(read_tables(out)["games"]) == 20000
    assert not (out / ".playtest.writer").exists()


def test_lock_is_released_after_a_failed_run(tmp_path):
    """A run refused inside the lock (another study in the directory) leaves the directory free to resume."""
    from sim.runner import one_writer

    run = _run("sea_trade", tmp_path / "r", games=300)
    with pytest.raises(PlaytestError, match="different study"):
        _run("sea_trade", run, games=300, seed=8)
    with one_writer(run):
        with pytest.raises(PlaytestError, match="is being written by playtest process"):
            _run("sea_trade", run, games=300)
    _run("sea_trade", run, games=300)
