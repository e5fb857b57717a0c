"""`playtest bench GAME --against REV`: this checkout's single-core speed against earlier commits', head to head.

This host's speed drifts by up to a half within an hour, so versions are compared only inside one run. Each
version plays in its own process (an earlier commit's sources extracted from git into a cache directory), all
warmed up, and they are asked in turn, in an order that rotates every repetition, to play the same games; the
figure is the median of the paired ratios. Each version also returns the SHA-1 of its record arrays, so the
run says whether the versions play the same games. With a population file this checkout plays the population
(every seat drawn from its mixture) and the commits play the lineup: a population's speed against the pool's,
now (``--against HEAD``) or at an earlier commit.
"""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from scipy import stats

from sim.core.errors import PlaytestError

PACKAGES = ("sim", "strategies", "analysis")
"""The source trees a version needs (pyproject's packages)."""
GAMES_PER_REP = 4_000
REPS = 10

CHILD = r"""
import hashlib, sys, time
import numpy as np
from sim.study import plan_study

game, players, seed, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
strategies = sys.argv[5].split(",") if sys.argv[5] != "-" else None
if len(sys.argv) > 6:  # a population: only this checkout is given one
    from sim.population import load_population
    population = load_population(game, sys.argv[6], players)
    study = plan_study(game, players, total, population.lineup(), seed=seed, mixture=population.mixture())
else:
    study = plan_study(game, players, total, strategies, seed=seed)
table = study.table()

def play(first, n):
    results, end = [], first + n
    t0 = time.perf_counter()
    while first < end:
        k = min(study.chunk_size, end - first)
        results.append(study.spec.play_chunk(study.rules, study.n_players, study.seats(first, k), first, k,
                                             study.seed, table))
        first += k
    seconds = time.perf_counter() - t0
    digest = hashlib.sha1()
    for r in results:
        digest.update(np.ascontiguousarray(r.games).tobytes())
        digest.update(np.ascontiguousarray(r.players).tobytes())
    return seconds, digest.hexdigest()

play(0, 1)
print("ready", flush=True)
for line in sys.stdin:
    first, n = map(int, line.split())
    print(*play(first, n), flush=True)
"""
"""The child's loop: plan the study, warm the kernels, then time each requested block of games (timing and
hashing apart, so the hash costs no version anything)."""


@dataclass
class Version:
    """One version in the race: its label, commit (None: this checkout as it stands) and source tree."""

    label: str
    commit: str | None
    tree: Path


def _git(repo: Path, *args: str) -> bytes:
    try:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        raise PlaytestError(f"git {' '.join(args)} failed in {repo}; --against needs a git checkout and a commit "
                            f"it knows (e.g. --against HEAD~3)") from None


def checkout_root() -> Path:
    """The directory holding this checkout's packages."""
    return Path(__file__).resolve().parents[1]


def extract(rev: str, cache: Path) -> Version:
    """The sources of commit ``rev``, extracted once into ``cache``/<sha> (kept, so numba's cache there lasts)."""
    repo = checkout_root()
    sha = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    tree = cache / sha
    if not (tree / ".complete").exists():
        archive = _git(repo, "archive", "--format=tar", sha, *PACKAGES)
        tree.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tree, filter="data")
        (tree / ".complete").touch()
    return Version(f"{rev} ({sha[:7]})", sha, tree)


class _Child:
    """A version's process: asked for a block of games, it answers with seconds and the records' SHA-1."""

    def __init__(self, version: Version, argv: Sequence[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(version.tree)}
        self.version = version
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD, *argv], cwd=version.tree, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def _line(self) -> str:
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read().strip().splitlines()
            raise PlaytestError(f"{self.version.label} failed: {err[-1] if err else 'no output'}; "
                                f"check that it knows this game and lineup")
        return line.strip()

    def ready(self) -> None:
        self._line()

    def play(self, first: int, n: int) -> tuple[float, str]:
        self.proc.stdin.write(f"{first} {n}\n")
        self.proc.stdin.flush()
        seconds, digest = self._line().split()
        return float(seconds), digest

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def _start(versions: Sequence[Version], argvs: Sequence[Sequence[str]]) -> list[_Child]:
    """One ready process per version, each with its own arguments (its kernels compiled or loaded)."""
    children = [_Child(v, argv) for v, argv in zip(versions, argvs)]
    try:
        for child in children:
            child.ready()
    except PlaytestError:
        _close(children)
        raise
    return children


def _close(children: Sequence[_Child]) -> None:
    for child in children:
        child.close()


def ratio_summary(new_s: np.ndarray, old_s: np.ndarray) -> dict[str, float]:
    """Speed of the new version over the old, per paired repetition: the median, the range, and the geometric
    mean with its 95% t-interval (on the log ratios)."""
    ratios = old_s / new_s
    logs = np.log(ratios)
    half = stats.t.ppf(0.975, len(logs) - 1) * logs.std(ddof=1) / math.sqrt(len(logs)) if len(logs) > 1 else math.nan
    return {"median": float(np.median(ratios)), "min": float(ratios.min()), "max": float(ratios.max()),
            "geo_mean": float(np.exp(logs.mean())), "lo": float(np.exp(logs.mean() - half)),
            "hi": float(np.exp(logs.mean() + half))}


def head_to_head(game: str, players: int, against: Sequence[str], games: int = GAMES_PER_REP, reps: int = REPS,
                 seed: int = 1, strategies: Sequence[str] | None = None, cache: Path | None = None,
                 population: str | None = None) -> dict[str, Any]:
    """Race this checkout against the commits ``against`` on the same games (with ``population``, this checkout
    plays that population's games instead), one process each, asked in turn."""
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "playtest" / "versions"
    here = f"this checkout, population {population}" if population else "this checkout"
    versions = [Version(here, None, checkout_root()), *(extract(rev, cache) for rev in against)]
    argv = [game, str(players), str(seed), str(games * (reps + 1)), ",".join(strategies) if strategies else "-"]
    argvs = [[*argv, str(Path(population).resolve())] if population else argv, *([argv] * len(against))]
    # compile into numba's cache first: a process that had compiled its kernels ran ~15% slower than one that
    # loaded them (an A/A race of one commit against itself gave 1.155)
    _close(_start(versions, argvs))
    children = _start(versions, argvs)
    load_before = os.getloadavg()[0]
    try:
        seconds = np.zeros((reps, len(children)))
        digests: list[set[str]] = [set() for _ in children]
        for rep in range(reps):
            shift = rep % len(children)
            for k in [*range(shift, len(children)), *range(shift)]:
                seconds[rep, k], digest = children[k].play(1 + rep * games, games)
                digests[k].add(digest)
    finally:
        _close(children)
    return {
        "game": game, "players": players, "games_per_rep": games, "reps": reps, "seed": seed,
        "population": population, "strategies": list(strategies) if strategies else None,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "versions": [{"label": v.label, "commit": v.commit,
                      "games_per_s_median": round(float(np.median(games / seconds[:, k])), 1)}
                     for k, v in enumerate(versions)],
        "against": {v.label: {**{key: round(x, 3) for key, x in ratio_summary(seconds[:, 0], seconds[:, k]).items()},
                              "same_games": digests[k] == digests[0]}
                    for k, v in enumerate(versions) if k},
    }


def format_head_to_head(r: dict[str, Any]) -> str:
    """The race as a few lines of text."""
    lines = [f"{r['game']}, {r['players']} players: {r['reps']} repetitions of {r['games_per_rep']:,} games, one "
             f"process per version asked in turn (load average {r['load_average'][0]} -> {r['load_average'][1]})"]
    lines += [f"  {v['label']}: {v['games_per_s_median']:,.0f} games/s (median)" for v in r["versions"]]
    if r.get("population"):
        lines.append(f"  (this checkout plays the population {r['population']}; the commits play "
                     f"{'the lineup' if r.get('strategies') else 'the default pool'})")
    for label, s in r["against"].items():
        same = ("the same games" if s["same_games"] else
                "other games (a population against a lineup)" if r.get("population") else
                "DIFFERENT games (records differ)")
        lines.append(f"  this checkout / {label}: median {s['median']:.3f} [range {s['min']:.3f}, {s['max']:.3f}], "
                     f"geometric mean {s['geo_mean']:.3f} [95% CI {s['lo']:.3f}, {s['hi']:.3f}]; {same}")
    return "\n".join(lines)
