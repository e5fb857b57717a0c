"""The fuzz gate: ``tests/fuzz_rules.py`` in a subprocess with numba's bounds checking on (``NUMBA_BOUNDSCHECK=1``
must be set before numba compiles anything). Bounds-checked kernels have cache directories of their own
(``sim.core.cache``), shared with the suite, which runs bounds-checked too (tests/conftest.py): the gate compiles
nothing the suite has compiled. ``FUZZ_EXAMPLES`` sets the budget per game: small here (``make test``), large in
``make fuzz``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GATE_EXAMPLES = 12
"""Examples per game in ``make test`` (about a minute of play once compiled)."""


def fuzz_env(examples: int) -> dict[str, str]:
    """The fuzz subprocess's environment: bounds checks on."""
    env = dict(os.environ)
    env.update(NUMBA_BOUNDSCHECK="1", FUZZ_EXAMPLES=str(examples),
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
