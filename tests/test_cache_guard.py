"""numba's on-disk cache never runs stale code: the cache directory is keyed on the kernel sources (sim/core/cache.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SIM = Path(__file__).resolve().parent.parent / "sim"

KERNEL = '''
from numba import njit
from sim.toy.helper import bonus


@njit(cache=True)
def kernel(x):
    return x * 10 + bonus()
'''
HELPER = '''
from numba import njit


@njit(cache=True, inline="always")
def bonus():
    return {value}
'''


def _run(root: Path, cache: Path) -> tuple[str, str]:
    """The toy kernel's result and the cache directory it used, in a fresh process."""
    code = "import sim, sim.toy as t; print(t.kernel(4), sim.NUMBA_CACHE)"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
    result, where = out.stdout.split()
    return result, where


def test_editing_an_inlined_helper_recompiles(tmp_path):
    """A kernel inlines a helper from another file; numba alone would keep the old machine code after the helper
    changes (its cache only checks the kernel's own file). Keyed on the sources, the edit is seen at once."""
    root = tmp_path / "copy"
    shutil.copytree(SIM, root / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    toy = root / "sim" / "toy"
    toy.mkdir()
    (toy / "__init__.py").write_text(KERNEL)
    (toy / "helper.py").write_text(HELPER.format(value=1))
    cache = tmp_path / "cache"
    first, dir1 = _run(root, cache)
    again, dir2 = _run(root, cache)
    assert (first, again) == ("41", "41") and dir1 == dir2  # the second run loads the cache
    assert any(Path(dir1).rglob("*.nbi"))
    (toy / "helper.py").write_text(HELPER.format(value=2))
    after, dir3 = _run(root, cache)
    assert after == "42" and dir3 != dir1


def test_top_level_modules_hold_no_kernels():
    """The cache key leaves out sim/*.py (runner, CLI, logs...), so none of them may define a kernel."""
    for path in SIM.glob("*.py"):
        assert "@njit" not in path.read_text() and "numba.njit" not in path.read_text(), path
