"""Run a study: chunks of games over joblib (local processes or a Dask cluster), logged part by part.

Each part is a fixed range of game indices, and game i's randomness comes from (seed, i), so the logs
are identical whatever the number of workers or the backend. Re-running the same command resumes:
parts listed in the manifest with a good checksum are kept, the rest are (re)done.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import math
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import joblib
from filelock import FileLock, Timeout
from joblib.externals.loky.process_executor import TerminatedWorkerError
from tqdm import tqdm

from sim.core.cache import package_digest
from sim.core.errors import PlaytestError, writable_dir
from sim.core.spec import ChunkResult, get_game
from sim.logs import (part_is_intact, read_manifest, records_to_frames, remove_temporaries,
                      write_manifest, write_part)
from sim.study import Mixture, Study, plan_study
from sim.core.policy import StrategyTable

PACKAGES = ("playtest", "numba", "numpy", "pandas", "pyarrow", "joblib")
SOURCES = Path(__file__).resolve().parent
"""The sim package: the sources whose state a manifest records (commit, dirty tree, kernel digest)."""


def play_part(study: Study, table: StrategyTable, part: int, parent: int | None = None) -> tuple[int, ChunkResult]:
    """Play one part's games in this process (the unit of work sent to joblib workers); ``parent``: the pid of
    the run's main process, which this worker must not outlive (``die_with``)."""
    if parent is not None:
        die_with(parent)
    first, n = study.part_range(part)
    spec = get_game(study.game)
    return part, spec.play_chunk(study.rules, study.n_players, study.seats(first, n), first, n, study.seed, table)


_PR_SET_PDEATHSIG = 1


@functools.cache
def die_with(parent: int) -> None:
    """Make this worker process end when the run's main process ends, however it ends (SIGTERM, SIGKILL).

    On Linux the kernel does it: prctl(PR_SET_PDEATHSIG, SIGKILL) kills this process when its parent dies, even in
    the middle of a kernel call that holds the GIL (where a watchdog thread could not run); if the parent is
    already gone, exit now. loky starts its workers as children of the main process, so the parent is the run.
    Elsewhere nothing is set (loky's own check ends an idle worker; a busy one finishes its part first).
    """
    if os.getpid() == parent or not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def warm_up(study: Study, table: StrategyTable) -> float:
    """Compile (or load from cache) the game's kernels here, so workers find them cached; seconds taken."""
    t0 = time.perf_counter()
    spec = get_game(study.game)
    spec.play_chunk(study.rules, study.n_players, study.seats(0, 1), 0, 1, study.seed, table)
    return time.perf_counter() - t0


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for pkg in PACKAGES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[pkg] = metadata.version(pkg)
    return out


def _git_commit() -> str | None:
    try:
        res = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5, cwd=SOURCES)
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() or None


def _git_dirty() -> bool | None:
    """Whether the sources under sim/ (the code that plays) differ from the commit: ``git status`` of that
    directory; None outside a git checkout or when git cannot tell (never an error)."""
    try:
        res = subprocess.run(["git", "status", "--porcelain", "--", "."], capture_output=True, text=True, timeout=10,
                             cwd=SOURCES)
    except (OSError, subprocess.SubprocessError):
        return None
    return bool(res.stdout.strip()) if res.returncode == 0 else None


def kernel_digest(game: str) -> str:
    """The source digest the kernels of ``game`` are cached under (sim/core/cache.py: the core's sources and the
    game package's): which code played."""
    return package_digest(game)


@contextlib.contextmanager
def _backend(backend: str, scheduler: str | None, jobs: int) -> Iterator[int]:
    """Yield the n_jobs to use inside the chosen joblib backend: for loky a count of processes (``-1``: one per
    core), so that a run with fewer parts than cores starts no more workers than it has parts."""
    if backend == "loky":
        with joblib.parallel_config(backend="loky"):
            yield joblib.effective_n_jobs(jobs)
    elif backend == "dask":
        try:
            from dask.distributed import Client
        except ImportError:
            raise PlaytestError("the dask backend needs dask.distributed; pip install 'playtest[dask]'") from None
        if not scheduler:
            raise PlaytestError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
        try:
            client = Client(scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise PlaytestError(f"cannot reach the Dask scheduler at {scheduler} ({exc}); start it or fix --scheduler") from None
        try:
            with joblib.parallel_config(backend="dask"):
                yield -1
        finally:
            client.close()
    else:
        raise PlaytestError(f"unknown backend '{backend}'; use loky or dask")


LOCK = ".playtest.lock"
WRITER = ".playtest.writer"
"""The lock that lets one process at a time write a run directory, and the note naming that process."""


def check_scheduler(backend: str, scheduler: str | None) -> None:
    """Refuse a malformed Dask scheduler address before anything is written (reaching it is checked on use)."""
    if backend != "dask" or not scheduler:
        return
    try:
        from distributed.comm import parse_address, parse_host_port
    except ImportError:
        return
    try:
        scheme, location = parse_address(scheduler)
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except (ValueError, TypeError) as exc:
        raise PlaytestError(f"--scheduler '{scheduler}' is not a Dask address ({exc}); give e.g. "
                            "tcp://127.0.0.1:8786") from None


@contextlib.contextmanager
def one_writer(run_dir: Path) -> Iterator[None]:
    """Hold the run directory's lock for this process; refuse, naming the holder, if another has it."""
    lock = FileLock(run_dir / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        note = run_dir / WRITER
        who = note.read_text().strip() if note.is_file() else "another process"
        raise PlaytestError(
            f"{run_dir} is being written by {who}; wait for it to finish (then re-run to resume) or pass another --out"
        ) from None
    note = run_dir / WRITER
    try:
        since = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        note.write_text(f"playtest process {os.getpid()} on {socket.gethostname()} (since {since})\n")
        yield
    finally:
        note.unlink(missing_ok=True)
        lock.release()


def _open_run(run_dir: Path, study: Study, grow: bool = False) -> dict[str, Any]:
    """Load a matching manifest to resume, or start a new one; refuse a directory holding another study.

    With ``grow`` (sequential stopping) the manifest may hold fewer games of the same study: its parts
    whose game range is unchanged are kept and the run is extended to ``study.n_games``.
    """
    config = study.config()
    manifest = read_manifest(run_dir)
    if manifest is None:
        return {**config, "complete": False, "parts": []}
    for key, value in config.items():
        if key != "title" and manifest.get(key) != value and not (grow and key == "n_games"):
            raise PlaytestError(
                f"{run_dir} holds a different study ({key} differs); pass another --out or delete that directory"
            )
    recorded, current = manifest.get("source_digest"), kernel_digest(study.game)
    if recorded is not None and recorded != current and not manifest.get("complete"):
        raise PlaytestError(f"{run_dir} was played by other {study.game} sources (digest {recorded}, now {current}); "
                            "resuming would mix two engines: pass another --out or delete that directory")
    if grow:
        if int(manifest["n_games"]) > study.n_games:
            raise PlaytestError(f"{run_dir} already holds {manifest['n_games']:,} games, more than --games "
                                f"{study.n_games:,}; raise --games or pass another --out")
        same = [e for e in manifest["parts"] if e["index"] < study.n_parts()
                and (e.get("first_game"), e.get("n_games")) == study.part_range(e["index"])]
        manifest.update(n_games=study.n_games, parts=same)
    return manifest


def games_held(run_dir: Path, study: Study) -> int:
    """Games a run directory already holds of ``study`` (any size), 0 for a new directory: where a
    sequential run resumes."""
    manifest = read_manifest(run_dir)
    if manifest is None:
        return 0
    _open_run(run_dir, replace(study, n_games=max(study.n_games, int(manifest["n_games"]))), grow=True)
    return int(manifest["n_games"])


def execute(study: Study, run_dir: Path, jobs: int = -1, backend: str = "loky",
            scheduler: str | None = None, progress: bool = True, grow: bool = False) -> Path:
    """Play every missing part of ``study`` into ``run_dir`` and complete its manifest (one writer at a time).

    ``grow``: the directory may hold a smaller run of the same study, which is extended (see ``_open_run``).
    """
    check_scheduler(backend, scheduler)
    writable_dir(run_dir)
    with one_writer(run_dir):
        return _execute(study, run_dir, jobs, backend, scheduler, progress, grow)


def _execute(study: Study, run_dir: Path, jobs: int, backend: str, scheduler: str | None,
             progress: bool, grow: bool = False) -> Path:
    """The body of ``execute``, run while this process holds the directory's lock."""
    manifest = _open_run(run_dir, study, grow)
    remove_temporaries(run_dir)
    kept = {e["index"]: e for e in manifest["parts"] if part_is_intact(run_dir, e)}
    redo = sorted({e["index"] for e in manifest["parts"]} - set(kept))
    if redo:
        tqdm.write(f"playtest: redoing {len(redo)} part(s) whose files are missing or fail their checksum: {redo}")
    todo = [p for p in range(study.n_parts()) if p not in kept]
    manifest.update(parts=sorted(kept.values(), key=lambda e: e["index"]), complete=not todo)
    if todo:  # what plays now is recorded; a complete run keeps the record of the code that played it
        manifest.update(versions=_versions(), git_commit=_git_commit(), overrides=list(study.overrides),
                        git_dirty=_git_dirty(), source_digest=kernel_digest(study.game))
    write_manifest(run_dir, manifest)
    if not todo:
        return run_dir
    table = study.table()
    names = study.strategy_names()
    compile_s = warm_up(study, table)
    t0 = time.perf_counter()
    spec = study.spec
    n_todo = sum(study.part_range(p)[1] for p in todo)
    with tqdm(total=n_todo, unit="games", unit_scale=True, disable=not progress, desc=study.game,
              smoothing=0.1) as bar, _backend(backend, scheduler, jobs) as n_jobs:
        parallel = joblib.Parallel(n_jobs=min(n_jobs, len(todo)) if n_jobs > 0 else n_jobs,
                                   return_as="generator_unordered")
        parent = os.getpid()
        for part, result in _worker_faults(parallel(joblib.delayed(play_part)(study, table, p, parent) for p in todo)):
            first, n = study.part_range(part)
            frames = records_to_frames(spec, result, first, study.seats(first, n), names)
            entry = {"index": part, "first_game": first, "n_games": n, **write_part(run_dir, part, frames)}
            manifest["parts"] = sorted(manifest["parts"] + [entry], key=lambda e: e["index"])
            write_manifest(run_dir, manifest)
            bar.update(n)
    wall = time.perf_counter() - t0
    manifest.update(complete=True, timings={"compile_s": round(compile_s, 3), "wall_s": round(wall, 3),
                                            "games_per_s": round(n_todo / wall, 1), "games_timed": n_todo})
    write_manifest(run_dir, manifest)
    return run_dir


def _worker_faults(results: Iterator[Any]) -> Iterator[Any]:
    """The workers' results; a worker that died (killed, out of memory) ends the run in one line (the parts
    already written are kept)."""
    try:
        yield from results
    except TerminatedWorkerError as exc:
        cause = re.search(r"\{([^}]*)\}", str(exc))
        raise PlaytestError(f"a worker process died ({cause[1] if cause else 'killed'}); the parts written so far "
                            "are kept: re-run the same command to resume (with fewer --jobs if memory ran out)") from None


def run_study(
    game: str,
    players: int,
    games: int,
    strategies: Sequence[str] | None = None,
    *,
    rotate: bool = False,
    seed: int = 0,
    jobs: int = -1,
    out: str | Path | None = None,
    overrides: Sequence[str] = (),
    backend: str = "loky",
    scheduler: str | None = None,
    progress: bool = True,
    chunk_size: int | None = None,
    seating: str | None = None,
    mixture: Mixture | None = None,
) -> Path:
    """Plan and run a study; return its run directory (default ``runs/<run-id>``).

    ``seating`` is random, all or fixed (see sim.study); ``rotate=True`` is the old name of random; a
    ``mixture`` draws every seat from a population's weights.
    """
    if jobs == 0 or jobs < -1:
        raise PlaytestError(f"--jobs must be a positive number of worker processes or -1 for all cores, not {jobs}")
    if backend == "dask" and not scheduler:
        raise PlaytestError("--backend dask needs --scheduler ADDRESS (e.g. tcp://127.0.0.1:8786)")
    study = plan_study(game, players, games, strategies, rotate, seed, overrides, chunk_size, seating, mixture)
    run_dir = Path(out) if out else Path("runs") / study.run_id()
    return execute(study, run_dir, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress)



def next_size(n: int, width: float, target: float, step: int, cap: int) -> int:
    """The next size of a sequential run: enough games for an interval of ``width`` (shrinking as
    1/sqrt(games)) to reach ``target`` with 10% to spare, at least one part more and at most four times
    as many games, in whole parts of ``step`` games, never beyond ``cap``."""
    want = n * (width / target) ** 2 * 1.1 if math.isfinite(width) else 4 * n
    want = min(max(want, n + step), 4 * n)
    return min(cap, step * math.ceil(want / step))


def grow_until(play: Callable[[int], None], width: Callable[[], float], target: float, step: int, cap: int,
               start: int) -> dict[str, Any]:
    """Sequential stopping: ``play(n)`` games, measure the interval's ``width()``, and grow (``next_size``)
    until it is narrower than ``target`` or ``cap`` games are played; returns what happened."""
    n = min(cap, start)
    while True:
        play(n)
        achieved = float(width())
        if achieved < target or n >= cap:
            return {"games": n, "achieved": achieved, "reached": achieved < target, "cap": cap, "target": target}
        n = next_size(n, achieved, target, step, cap)


def first_size(study: Study, min_games: int) -> int:
    """The first step of a sequential run: whole parts holding at least ``min_games`` games (up to the cap)."""
    return min(study.n_games, study.chunk_size * math.ceil(min_games / study.chunk_size))


def execute_until(study: Study, run_dir: Path, width_of: Callable[[Path], float], target: float,
                  note: dict[str, Any], min_games: int, **kw: Any) -> Path:
    """``execute`` with sequential stopping: ``study.n_games`` is the cap; parts are added until
    ``width_of(run_dir)`` (the 95% interval of the chosen metric) is narrower than ``target``. Resumes
    like ``execute``; the manifest records how it stopped under ``until_ci`` (with ``note``: metric, unit).
    ``kw``: jobs, backend, scheduler, progress."""
    check_scheduler(kw.get("backend", "loky"), kw.get("scheduler"))
    writable_dir(run_dir)
    with one_writer(run_dir):
        start = max(games_held(run_dir, study), first_size(study, min_games))
        opts = {"jobs": -1, "backend": "loky", "scheduler": None, "progress": True, **kw}
        out = grow_until(lambda n: _execute(replace(study, n_games=n), run_dir, opts["jobs"], opts["backend"],
                                            opts["scheduler"], opts["progress"], grow=True),
                         lambda: width_of(run_dir), target, study.chunk_size, study.n_games, start)
        manifest = read_manifest(run_dir)
        manifest["until_ci"] = {**note, **out}
        write_manifest(run_dir, manifest)
    return run_dir



def run_ab(
    game: str,
    players: int,
    games: int,
    strategies: Sequence[str] | None,
    base: str,
    variant: str,
    seed: int = 0,
    seating: str | None = None,
    jobs: int = -1,
    out: str | Path | None = None,
    **kw: Any,
) -> tuple[Path, Path]:
    """A causal A/B on common random numbers: arm A plays the pool, arm B the same games with ``base``
    replaced by ``variant`` in the same seats (same seed, same seating); returns both run directories.
    ``kw`` passes overrides, backend, scheduler, progress, chunk_size and mixture (a population: the
    variant takes the base's weight) through to ``run_study``.
    """
    study = plan_study(game, players, games, strategies, False, seed, kw.get("overrides", ()),
                       kw.get("chunk_size"), seating, kw.get("mixture"))
    study.spec.strategies.get(variant)
    if base not in study.lineup:
        raise PlaytestError(f"--base {base} is not in the lineup ({', '.join(study.lineup)}); pick one of them")
    if variant in study.lineup:
        raise PlaytestError(f"--variant {variant} is already in the lineup; arm B must differ from arm A in one strategy")
    swapped = [variant if s == base else s for s in study.lineup]
    root = Path(out) if out else Path("runs") / f"ab-{study.run_id()}-{base}-vs-{variant}"
    arms = []
    for arm, lineup in (("A", list(study.lineup)), ("B", swapped)):
        name = f"{arm}-{base if arm == 'A' else variant}"
        arms.append(run_study(game, players, games, lineup, seed=seed, jobs=jobs, out=root / name,
                              seating=study.seating, **kw))
    return arms[0], arms[1]
