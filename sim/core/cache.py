"""Guard against stale compiled kernels: numba's on-disk cache lives in a directory keyed on the sources.

numba invalidates a cached function only when its own file changes. A kernel that inlines a helper from
another file, and the core driver that calls each game's hooks, would keep running old machine code after
that helper or hook is edited. So the cache directory is named after a hash of every source file under
the game and core packages: any edit there (or an upgrade of playtest) starts a fresh cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path

from numba.core import config

KEEP = 3
"""Cache directories of other source versions always kept (the newest)."""
MAX_AGE_DAYS = 7
"""Beyond the KEEP newest, other versions untouched for this long are removed."""


def source_digest(package: Path) -> str:
    """SHA-1 over the path and bytes of every .py file in ``package``'s subpackages (the kernel sources).

    The package's own top-level modules (runner, CLI, logs, study, bench) hold no kernels and are left out,
    so editing them does not cost a recompile.
    """
    h = hashlib.sha1()
    for path in sorted(package.glob("*/**/*.py")):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_root() -> Path:
    """Where the versioned cache directories go: $NUMBA_CACHE_DIR if set, else the user's cache directory."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "playtest" / "numba"


def configure(package: Path) -> Path | None:
    """Point numba's cache at ``<cache root>/<source digest>`` (a temporary directory if that is not
    writable); prune old versions. Must run before any kernel is defined. None without JIT."""
    if config.DISABLE_JIT:
        return None
    digest = source_digest(package)
    path = cache_root() / digest
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=path)
        probe.close()
    except OSError:
        path = Path(tempfile.gettempdir()) / f"playtest-numba-{os.getuid()}" / digest
        path.mkdir(parents=True, exist_ok=True)
    config.CACHE_DIR = str(path)
    _prune(path)
    return path


def _prune(current: Path) -> None:
    """Remove sibling versions of ``current`` beyond the KEEP newest that are older than MAX_AGE_DAYS
    (another checkout of a different version may still be using a recent one)."""
    try:
        others = sorted((p for p in current.parent.iterdir() if p.is_dir() and p != current),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        cutoff = time.time() - MAX_AGE_DAYS * 86400
        for old in others[KEEP:]:
            if old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return
