"""`playtest bench`: games/s and decisions/s of a game's kernels, with and without JIT, in one run.

The no-JIT figure comes from a child process started with NUMBA_DISABLE_JIT=1 that plays the same
games through the same code as plain Python, so the speed-up compares like with like (one core each).
A lineup with rollout strategies also reports the cost of a rollout decision; its no-JIT speed-up is
measured on the base strategies (a rollout game takes minutes as plain Python).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any, Sequence

import joblib
import numpy as np

from sim.core.policy import RolloutStrategy
from sim.core.state import save_restore, snapshot_bytes
from sim.runner import play_part, warm_up
from sim.study import Study, plan_study

NOJIT_SECONDS = 20.0
ROLLOUT_GAMES = 100
"""Default games of a rollout bench (a four-player Bus game with every seat at 16 playouts takes about 1 s)."""
ROLLOUT_CHUNK = 10
SNAPSHOTS = 20_000
"""Save-and-restore pairs timed for the snapshot cost."""


def _decisions(study: Study, result) -> int:
    return int(np.asarray(result.games[:, study.spec.game_col("decisions")]).sum())


def _time_in_process(study: Study, n_games: int) -> tuple[float, int, int, int]:
    """Seconds, decisions, rollout decisions and playouts to play the first ``n_games`` games in this process."""
    table = study.table()
    t0 = time.perf_counter()
    first = 0
    decisions = rollouts = playouts = 0
    while first < n_games:
        n = min(study.chunk_size, n_games - first)
        result = study.spec.play_chunk(study.rules, study.n_players, study.seats(first, n), first, n,
                                       study.seed, table)
        decisions += _decisions(study, result)
        rollouts += result.rollout_decisions
        playouts += result.playouts
        first += n
    return time.perf_counter() - t0, decisions, rollouts, playouts


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


def snapshot_cost(study: Study) -> tuple[float, int]:
    """Microseconds of one save plus one restore of a position of the game (what every playout of a rollout
    pays once), and the bytes each copies."""
    spec = study.spec
    st, _ = spec.new_state(study.rules, study.n_players, study.table())
    snap = spec.new_snapshot(st)
    save_restore(st, snap, 1)  # compile or load
    t0 = time.perf_counter()
    save_restore(st, snap, SNAPSHOTS)
    return 1e6 * (time.perf_counter() - t0) / SNAPSHOTS, snapshot_bytes(spec.layout, st)


def nojit_rate(game: str, players: int, seconds: float, strategies: Sequence[str] | None = None) -> dict[str, float]:
    """Play games one by one as plain Python for about ``seconds``; run in a NUMBA_DISABLE_JIT child."""
    np.seterr(over="ignore")  # uint64 RNG arithmetic wraps on purpose
    study = plan_study(game, players, 1_000_000, strategies, rotate=True, chunk_size=1)
    table = study.table()
    t0 = time.perf_counter()
    games = decisions = 0
    while games < 2 or time.perf_counter() - t0 < seconds:
        _, result = play_part(study, table, games)
        decisions += _decisions(study, result)
        games += 1
    return {"games": games, "seconds": time.perf_counter() - t0, "decisions": decisions}


def _nojit_in_child(game: str, players: int, seconds: float, strategies: Sequence[str] | None) -> dict[str, float]:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    args = f"{game!r}, {players}, {seconds}, {list(strategies) if strategies else None!r}"
    code = f"import json, sim.bench as b; print(json.dumps(b.nojit_rate({args})))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _bases(study: Study) -> list[str] | None:
    """The lineup with every rollout strategy replaced by its base (None: the lineup has no rollout)."""
    registry = study.spec.strategies
    strategies = [registry.get(name) for name in study.lineup]
    if not any(isinstance(s, RolloutStrategy) for s in strategies):
        return None
    return [s.base if isinstance(s, RolloutStrategy) else s.name for s in strategies]


def run_bench(game: str, players: int | None = None, games: int | None = None, jobs: int = -1,
              nojit_seconds: float = NOJIT_SECONDS, strategies: Sequence[str] | None = None) -> dict[str, Any]:
    """Measure one game (the default lineup, or ``strategies``); return the figures ``playtest bench --json``
    prints (see BENCHMARKS.md)."""
    probe = plan_study(game, players or 4, 1)
    n_players = players or min(max(4, probe.spec.min_players), probe.spec.max_players)
    bases = _bases(plan_study(game, n_players, 1, strategies, rotate=True))
    games = games or (ROLLOUT_GAMES if bases else 200_000)
    study = plan_study(game, n_players, games, strategies, rotate=True, chunk_size=ROLLOUT_CHUNK if bases else None)
    compile_s = warm_up(study, study.table())
    single_games = min(games, 2 * study.chunk_size)
    single_s, single_dec, rollouts, playouts = _time_in_process(study, single_games)
    wall_s, decisions = _time_parallel(study, jobs)
    single_rate = single_games / single_s
    snapshot_us, snapshot_b = snapshot_cost(study)
    like, like_games, like_s = study, single_games, single_s
    if bases:  # the speed-up on the base strategies: JIT and no JIT play the same games
        like = plan_study(game, n_players, 2 * probe.spec.chunk_size, bases, rotate=True)
        warm_up(like, like.table())
        like_games = like.n_games
        like_s = _time_in_process(like, like_games)[0]
    nojit = _nojit_in_child(game, n_players, nojit_seconds, list(like.lineup))
    nojit_rate_ = nojit["games"] / nojit["seconds"]
    rollout = {}
    if bases:
        rollout = {
            "rollout_decisions_per_game": round(rollouts / single_games, 1),
            "playouts_per_rollout_decision": round(playouts / max(rollouts, 1), 1),
            "ms_per_rollout_decision": round(1000 * single_s / max(rollouts, 1), 3),
            "us_per_playout": round(1e6 * single_s / max(playouts, 1), 1),
            "speedup_lineup": list(like.lineup),
        }
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
        "speedup": round(like_games / like_s / nojit_rate_, 1),
        "million_games_s": round(1e6 * wall_s / games, 1),
        "us_per_snapshot": round(snapshot_us, 3),
        "snapshot_bytes": snapshot_b,
        **rollout,
    }


def _rate(x: float) -> str:
    """Games/s as text: whole numbers, or two decimals below 100 (rollouts)."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.2f}"


def format_bench(r: dict[str, Any]) -> str:
    """A short human-readable summary of a bench result."""
    rollout = []
    if "ms_per_rollout_decision" in r:
        rollout = [
            f"  rollouts (1 core): {r['ms_per_rollout_decision']:.2f} ms per rollout decision "
            f"({r['rollout_decisions_per_game']:.0f} per game, {r['playouts_per_rollout_decision']:.1f} playouts each, "
            f"{r['us_per_playout']:.0f} µs per playout)",
            f"  (the no-JIT speed-up below is measured on the base lineup {', '.join(r['speedup_lineup'])})",
        ]
    return "\n".join([
        f"{r['game']}, {r['players']} players, lineup {', '.join(r['strategies'])} (rotated)",
        f"  compile (or cache load): {r['compile_s']:.2f} s",
        f"  JIT, {r['jobs']} workers: {_rate(r['games_per_s'])} games/s, {r['decisions_per_s']:,.0f} decisions/s "
        f"({r['decisions_per_game']:.0f} decisions/game; {r['games']:,} games in {r['seconds']:.1f} s)",
        f"  JIT, 1 core: {_rate(r['single_core_games_per_s'])} games/s, {r['single_core_decisions_per_s']:,.0f} decisions/s",
        *rollout,
        f"  snapshot (1 core): {r['us_per_snapshot']:.2f} µs per save + restore ({r['snapshot_bytes']:,} bytes each way)",
        f"  no JIT, 1 core: {r['nojit_games_per_s']:.2f} games/s, {r['nojit_decisions_per_s']:,.0f} decisions/s "
        f"({r['nojit_games']} games)",
        f"  speed-up of JIT over no JIT (1 core each): {r['speedup']:,.0f}x",
        f"  1,000,000 games would take {r['million_games_s']:.0f} s",
    ])
