"""numba's on-disk cache never runs stale code and recompiles only what changed: each package's kernels are cached
under a digest of the core's sources and its own (sim/core/cache.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SIM = Path(__file__).resolve().parent.parent / "sim"

KERNEL = '''
from sim.core import jit
from sim.toy.helper import bonus


@jit.kernel
def kernel(x):
    return x * 10 + bonus()
'''
HELPER = '''
from sim.core.jit import kernel


@kernel(inline="always")
def bonus():
    return {value}
'''


STRUCT = '''
from typing import NamedTuple
import numpy as np
from sim.core.structs import struct_handle


class Toy(NamedTuple):
    x: np.ndarray


wrap = struct_handle(Toy, "ToyRef")
handle_type = wrap(Toy(np.zeros(1)))._numba_type_.name  # the lent (borrowed) type Python passes
'''


def _copy_sim(tmp_path: Path) -> Path:
    """A copy of the sim package with two toy kernel packages: ``toy`` (a kernel inlining a helper from another
    file) and ``other``."""
    root = tmp_path / "copy"
    shutil.copytree(SIM, root / "sim", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("toy", "other"):
        (root / "sim" / name).mkdir()
        (root / "sim" / name / "__init__.py").write_text(KERNEL.replace("sim.toy", f"sim.{name}"))
        (root / "sim" / name / "helper.py").write_text(HELPER.format(value=1))
    return root


def _run(root: Path, cache: Path, code: str) -> list[str]:
    """What ``code`` prints, in a fresh process on the copy with its own cache root."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


PLAY = ("import sim.toy as t, sim.other as o; print(t.kernel(4), o.kernel(4), "
        "sum(t.kernel.stats.cache_hits.values()), sum(o.kernel.stats.cache_hits.values()))")


def test_editing_an_inlined_helper_recompiles_only_its_package(tmp_path):
    """A kernel inlines a helper from another file; numba alone would keep the old machine code after the helper
    changes (its cache only checks the kernel's own file). Keyed on its package's sources, the edit is seen at once,
    and the other package's kernels still load from the cache (editing one game does not recompile another)."""
    root, cache = _copy_sim(tmp_path), tmp_path / "cache"
    assert _run(root, cache, PLAY) == ["41", "41", "0", "0"]  # cold: both compile
    assert _run(root, cache, PLAY) == ["41", "41", "1", "1"]  # both load from the cache
    (root / "sim" / "toy" / "helper.py").write_text(HELPER.format(value=2))
    assert _run(root, cache, PLAY) == ["42", "41", "0", "1"]  # toy recompiles, other still loads
    assert sorted(p.name.split("-")[0] for p in cache.iterdir() if p.name.startswith(("toy", "other"))) == \
        ["other", "toy", "toy"]


def test_a_game_type_names_its_sources(tmp_path):
    """A core kernel compiled for a game's state type is cached under the core's sources only; the type's numba
    name carries the game package's digest, so editing the game changes the cached signature (no stale load)."""
    root, cache = _copy_sim(tmp_path), tmp_path / "cache"
    (root / "sim" / "toy" / "state.py").write_text(STRUCT)
    code = "import sim.toy.state as s; print(s.handle_type.startswith('numba.ToyRefBorrowedType'), s.handle_type.split('@')[1])"
    before = _run(root, cache, code)
    (root / "sim" / "toy" / "helper.py").write_text(HELPER.format(value=2))
    after = _run(root, cache, code)
    assert before[0] == after[0] == "True" and before[1] != after[1]


def test_top_level_modules_hold_no_kernels():
    """The cache key leaves out sim/*.py (runner, CLI, logs...), so none of them may define a kernel."""
    for path in SIM.glob("*.py"):
        text = path.read_text()
        assert "@kernel" not in text and "@njit" not in text and "numba.njit" not in text, path


def test_a_handle_is_built_by_a_constructor_from_the_disk_cache(tmp_path):
    """numba's own structref constructor is compiled anew in every process (about 10 s for 7 Wonders' state and
    data); the handles' constructor is a cached kernel, so a second process builds its handle compiling nothing."""
    root, cache = _copy_sim(tmp_path), tmp_path / "cache"
    (root / "sim" / "toy" / "state.py").write_text(STRUCT)
    code = ("import sim.toy.state; from sim.core.structs import filled; "
            "print(sum(filled.stats.cache_hits.values()), sum(filled.stats.cache_misses.values()))")
    assert _run(root, cache, code) == ["0", "1"]
    assert _run(root, cache, code) == ["1", "0"]


def test_a_handle_type_outside_sim_stays_out_of_the_cached_constructors_index(tmp_path):
    """A handle type defined outside sim (a test module's) is built by numba's own constructor: the cached one's
    index then names only sim's types, so a process where that module cannot be imported still loads it."""
    root, cache = _copy_sim(tmp_path), tmp_path / "cache"
    (root / "sim" / "toy" / "state.py").write_text(STRUCT)
    (root / "outside.py").write_text(STRUCT.replace("ToyRef", "OutsideRef"))
    _run(root, cache, "import outside, sim.toy.state")
    (root / "outside.py").unlink()
    code = "import sim.toy.state; from sim.core.structs import filled; print(sum(filled.stats.cache_hits.values()))"
    assert _run(root, cache, code) == ["1"]
