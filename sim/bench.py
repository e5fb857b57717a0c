"""`playtest bench`: games/s and decisions/s of a game's kernels, with and without JIT, in one run.

The no-JIT figure comes from a child process started with NUMBA_DISABLE_JIT=1 that plays the same
games through the same code as plain Python, so the speed-up compares like with like (one core each).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import joblib
import numpy as np

from sim.runner import play_part, warm_up
from sim.study import Study, plan_study

NOJIT_SECONDS = 20.0


def _decisions(study: Study, result) -> int:
    return int(np.asarray(result.games[:, study.spec.game_col("decisions")]).sum())


def _time_in_process(study: Study, n_games: int) -> tuple[float, int]:
    """Seconds and decisions to play the first ``n_games`` games in this process."""
    table = study.table()
    t0 = time.perf_counter()
    first = 0
    decisions = 0
    while first < n_games:
        n = min(study.chunk_size, n_games - first)
        result = study.spec.play_chunk(study.rules, study.n_players, study.seats(first, n), first, n,
                                       study.seed, table)
        decisions += _decisions(study, result)
        first += n
    return time.perf_counter() - t0, decisions


def _time_parallel(study: Study, jobs: int) -> tuple[float, int]:
    """Seconds and decisions to play the whole study over joblib workers (no logging).

    The worker pool is started and has loaded the compiled kernels before the clock starts (loky reuses
    its workers between calls), so start-up counts with compilation, not with the games.
    """
    table = study.table()
    workers = joblib.cpu_count() if jobs == -1 else jobs
    joblib.Parallel(n_jobs=jobs)(joblib.delayed(warm_up)(study, table) for _ in range(workers))
    t0 = time.perf_counter()
    results = joblib.Parallel(n_jobs=jobs)(joblib.delayed(play_part)(study, table, p) for p in range(study.n_parts()))
    return time.perf_counter() - t0, sum(_decisions(study, r) for _, r in results)


def nojit_rate(game: str, players: int, seconds: float) -> dict[str, float]:
    """Play games one by one as plain Python for about ``seconds``; run in a NUMBA_DISABLE_JIT child."""
    np.seterr(over="ignore")  # uint64 RNG arithmetic wraps on purpose
    study = plan_study(game, players, 1_000_000, rotate=True, chunk_size=1)
    table = study.table()
    t0 = time.perf_counter()
    games = decisions = 0
    while games < 2 or time.perf_counter() - t0 < seconds:
        _, result = play_part(study, table, games)
        decisions += _decisions(study, result)
        games += 1
    return {"games": games, "seconds": time.perf_counter() - t0, "decisions": decisions}


def _nojit_in_child(game: str, players: int, seconds: float) -> dict[str, float]:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    code = f"import json, sim.bench as b; print(json.dumps(b.nojit_rate({game!r}, {players}, {seconds})))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_bench(game: str, players: int | None = None, games: int = 200_000, jobs: int = -1,
              nojit_seconds: float = NOJIT_SECONDS) -> dict[str, Any]:
    """Measure one game; return the figures ``playtest bench --json`` prints (see BENCHMARKS.md)."""
    probe = plan_study(game, players or 4, 1)
    n_players = players or min(max(4, probe.spec.min_players), probe.spec.max_players)
    study = plan_study(game, n_players, games, rotate=True)
    compile_s = warm_up(study, study.table())
    single_games = min(games, 2 * study.chunk_size)
    single_s, single_dec = _time_in_process(study, single_games)
    wall_s, decisions = _time_parallel(study, jobs)
    nojit = _nojit_in_child(game, n_players, nojit_seconds)
    single_rate = single_games / single_s
    nojit_rate_ = nojit["games"] / nojit["seconds"]
    return {
        "game": game,
        "players": n_players,
        "strategies": list(study.lineup),
        "games": games,
        "jobs": joblib.cpu_count() if jobs == -1 else jobs,
        "seconds": round(wall_s, 3),
        "games_per_s": round(games / wall_s, 1),
        "decisions_per_s": round(decisions / wall_s, 1),
        "decisions_per_game": round(decisions / games, 1),
        "compile_s": round(compile_s, 3),
        "single_core_games_per_s": round(single_rate, 1),
        "single_core_decisions_per_s": round(single_dec / single_s, 1),
        "nojit_games_per_s": round(nojit_rate_, 3),
        "nojit_decisions_per_s": round(nojit["decisions"] / nojit["seconds"], 1),
        "nojit_games": nojit["games"],
        "speedup": round(single_rate / nojit_rate_, 1),
        "million_games_s": round(1e6 * wall_s / games, 1),
    }


def format_bench(r: dict[str, Any]) -> str:
    """A short human-readable summary of a bench result."""
    return "\n".join([
        f"{r['game']}, {r['players']} players, lineup {', '.join(r['strategies'])} (rotated)",
        f"  compile (or cache load): {r['compile_s']:.2f} s",
        f"  JIT, {r['jobs']} workers: {r['games_per_s']:,.0f} games/s, {r['decisions_per_s']:,.0f} decisions/s "
        f"({r['decisions_per_game']:.0f} decisions/game; {r['games']:,} games in {r['seconds']:.1f} s)",
        f"  JIT, 1 core: {r['single_core_games_per_s']:,.0f} games/s, {r['single_core_decisions_per_s']:,.0f} decisions/s",
        f"  no JIT, 1 core: {r['nojit_games_per_s']:.2f} games/s, {r['nojit_decisions_per_s']:,.0f} decisions/s "
        f"({r['nojit_games']} games)",
        f"  speed-up of JIT over no JIT (1 core each): {r['speedup']:,.0f}x",
        f"  1,000,000 games would take {r['million_games_s']:.0f} s",
    ])
