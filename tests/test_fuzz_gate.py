"""The fuzz gate: ``tests/fuzz_rules.py`` in a subprocess with numba's bounds checking on (``NUMBA_BOUNDSCHECK=1``
must be set before numba compiles anything) and a kernel cache of its own, keyed on the sources like the normal one
(``sim.core.cache``): the bounds-checked kernels neither replace nor reuse the normal ones, and compile once per
source version. ``FUZZ_EXAMPLES`` sets the budget per game: small here (``make test``), large in ``make fuzz``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sim.core.cache import cache_root

ROOT = Path(__file__).resolve().parents[1]
GATE_EXAMPLES = 12
"""Examples per game in ``make test`` (about a minute of play once compiled)."""


def fuzz_env(examples: int) -> dict[str, str]:
    """The fuzz subprocess's environment: bounds checks on, its own cache root beside the normal one."""
    env = dict(os.environ)
    env.update(NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=f"{cache_root()}-boundscheck", FUZZ_EXAMPLES=str(examples),
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p))
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def test_rules_fuzz_bounds_checked():
    """Every game: rules variants drawn from the declared ranges, player counts and lineups, played checked with
    bounds-checked kernels (fails on an index past an array's end, as 7 Wonders' victory_age 6..20 did)."""
    examples = int(os.environ.get("FUZZ_EXAMPLES", GATE_EXAMPLES))
    cmd = [sys.executable, "-m", "pytest", str(ROOT / "tests" / "fuzz_rules.py"), "-x", "-q", "-p", "no:cacheprovider",
           "-p", "no:xdist"]
    done = subprocess.run(cmd, cwd=ROOT, env=fuzz_env(examples), capture_output=True, text=True, timeout=4 * 3600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
