"""Guard against stale compiled kernels, and compile only what changed: numba's on-disk cache is keyed per game.

numba invalidates a cached function only when its own file changes. A kernel that inlines a helper from
another file, and the core driver that calls each game's hooks, would keep running old machine code after
that helper or hook is edited. So every kernel is cached in a directory named after a hash of the sources it
can reach (:class:`SourceTreeLocator`):

- a kernel of game ``g`` (a file under ``sim/g/``): the core's sources and ``g``'s, in ``<root>/g-<digest>``;
- a core kernel: the core's sources, in ``<root>/core-<digest>``;
- with numba's bounds checking on (the test suite), the same names ending in ``-boundscheck``. A core kernel compiled for a game is
  specialised on that game's state type, whose numba name carries the game's digest (:func:`package_digest`,
  read by sim/core/structs.py), so the game's edit changes the signature and the core kernel recompiles for
  that game alone.

Editing one game recompiles that game only; editing the core recompiles everything. The directories do not
depend on where the checkout lives, so two checkouts of the same sources share their kernels.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from functools import cache
from pathlib import Path

from numba.core import caching, config

SIM = Path(__file__).resolve().parents[1]
"""The ``sim`` package: its subpackages hold the kernels (``core`` and one per game)."""
CORE = "core"
KEEP = 3
"""Cache directories of other source versions of one package always kept (the newest)."""
MAX_AGE_DAYS = 7
"""Beyond the KEEP newest, other versions untouched for this long are removed."""


def source_digest(*packages: Path) -> str:
    """SHA-1 over the path (relative to ``sim``) and bytes of every .py file in ``packages``."""
    h = hashlib.sha1()
    for package in packages:
        for path in sorted(package.rglob("*.py")):
            h.update(path.relative_to(package.parent).as_posix().encode())
            h.update(b"\0")
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


@cache
def package_digest(package: str) -> str:
    """The digest of the sources a kernel of ``sim/<package>`` can reach: the core's, and the game's own."""
    if package == CORE:
        return source_digest(SIM / CORE)
    return source_digest(SIM / CORE, SIM / package)


def file_package(py_file: str) -> str | None:
    """The kernel package (``core`` or a game) holding the source file ``py_file``, else None."""
    try:
        parts = Path(py_file).resolve().relative_to(SIM).parts
    except ValueError:
        return None
    return parts[0] if len(parts) >= 2 and (SIM / parts[0]).is_dir() else None


def checked_suffix() -> str:
    """Bounds-checked kernels (``NUMBA_BOUNDSCHECK=1``) are other machine code under the same signatures (numba's
    cache index does not tell them apart): they live in directories of their own."""
    return "-boundscheck" if config.BOUNDSCHECK else ""


def cache_root() -> Path:
    """Where the versioned cache directories go: $NUMBA_CACHE_DIR if set, else the user's cache directory."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "playtest" / "numba"


_ROOT: list[Path] = []
"""The writable root chosen by :func:`configure` (cache_root, else a private temporary directory)."""


class SourceTreeLocator(caching.UserProvidedCacheLocator):
    """numba cache locator for files under ``sim/<package>/``: ``<root>/<package>-<digest>/<subdirectory>``."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        package = file_package(py_file)
        self._package_path = _ROOT[0] / f"{package}-{package_digest(package)}{checked_suffix()}"
        self._cache_path = str(self._package_path / Path(py_file).resolve().relative_to(SIM / package).parent)

    @classmethod
    def from_function(cls, py_func, py_file):
        """A locator for kernels under ``sim/<package>/``; None elsewhere (numba's own locators take over)."""
        if not _ROOT or file_package(py_file) is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        _prune(self._package_path)
        return self


def configure(package: Path) -> Path | None:
    """Route numba's cache for the kernels under ``package`` through :class:`SourceTreeLocator` (other files
    keep numba's per-file cache under the same root). Must run before any kernel is defined. None without JIT."""
    if config.DISABLE_JIT:
        return None
    assert package.resolve() == SIM, package
    root = cache_root()
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=root)
        probe.close()
    except OSError:
        root = Path(tempfile.gettempdir()) / f"playtest-numba-{os.getuid()}"
        root.mkdir(parents=True, exist_ok=True)
    _ROOT[:] = [root]
    config.CACHE_DIR = str(root / f"other{checked_suffix()}")
    config.CACHE_LOCATOR_CLASSES = (f"{__name__}.{SourceTreeLocator.__name__},UserProvidedCacheLocator,"
                                    "InTreeCacheLocator,UserWideCacheLocator")
    return root


@cache
def _prune(current: Path) -> None:
    """Remove other versions of ``current``'s package beyond the KEEP newest that are older than MAX_AGE_DAYS
    (another checkout of a different version may still be using a recent one). Once per directory."""
    package = current.name.split("-")[0]
    try:
        others = sorted((p for p in current.parent.glob(f"{package}-*")
                         if p.is_dir() and p != current and p.name.split("-")[0] == package
                         and p.name.endswith("-boundscheck") == bool(checked_suffix())),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        cutoff = time.time() - MAX_AGE_DAYS * 86400
        for old in others[KEEP:]:
            if old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return
