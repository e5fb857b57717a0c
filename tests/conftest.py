"""Shared fixtures: small studies run once per session and read back as DataFrames.

The suite runs with numba's bounds checking on (``NUMBA_BOUNDSCHECK=1`` unless set otherwise, before numba is
imported): every test then also checks that no kernel indexes past an array's end, and the rules fuzz gate
(tests/test_fuzz_gate.py) reuses the suite's kernels instead of compiling every game a second time.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_BOUNDSCHECK", "1")

from pathlib import Path  # noqa: E402

import pandas as pd  # noqa: E402
import pytest  # noqa: E402


def read_tables(run_dir: Path) -> dict[str, pd.DataFrame]:
    """Both tables of a run, sorted so that runs can be compared row for row."""
    games = pd.read_parquet(run_dir / "games").sort_values("game_index").reset_index(drop=True)
    players = pd.read_parquet(run_dir / "players").sort_values(["game_index", "seat"]).reset_index(drop=True)
    return {"games": games, "players": players}


def player_counts(spec) -> list[int]:
    """The player counts a test of every game uses, from the game's spec: the smallest, the default study's (4
    where allowed) and the largest."""
    return sorted({spec.min_players, min(max(4, spec.min_players), spec.max_players), spec.max_players})


def study_players(spec) -> int:
    """The player count of a game's default study: 4 where the game allows it, else the nearest it does."""
    counts = player_counts(spec)
    return counts[1] if len(counts) > 1 else counts[0]


def assert_same_tables(a: Path, b: Path) -> None:
    ta, tb = read_tables(a), read_tables(b)
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name])


# ------------------------------------------------------------------------------------------- compile once per game
WARM_GROUPS = (("seven_wonders", "sea_trade"), ("circus_train", "bus", "pig"))
"""Games compiled together in one warm-up process, two processes at once (about equal compile times)."""
WARM = '''
import sys, tempfile
from sim.cli import main
from sim.core.spec import get_game
for game in sys.argv[1:]:
    spec = get_game(game)
    players = str(min(max(4, spec.min_players), spec.max_players))
    with tempfile.TemporaryDirectory() as out:
        main(["run", game, "--players", players, "--games", "1", "--quiet", "--out", out + "/run"])
'''


def _warm_up_kernels() -> None:
    """Compile (or load) every game's kernels once, two processes at once, before the test workers start: each
    worker would otherwise compile the same games cold side by side (a replay plays through the same compiled
    ``play_chunk``). Any game the groups miss compiles in a worker."""
    import subprocess
    import sys

    from sim.core.spec import games

    known = set(games())
    groups = [[g for g in group if g in known] for group in WARM_GROUPS]
    groups[-1] += sorted(known - {g for group in WARM_GROUPS for g in group})
    procs = [subprocess.Popen([sys.executable, "-c", WARM, *group], stdout=subprocess.DEVNULL) for group in groups]
    for proc in procs:
        proc.wait()


def pytest_configure(config: pytest.Config) -> None:
    """On the controller of a parallel run (``pytest -n``), warm the kernel cache first."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _warm_up_kernels()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The fuzz gate last: by then the suite has compiled (and cached) every game's bounds-checked kernels."""
    items.sort(key=lambda item: item.path.name == "test_fuzz_gate.py")
