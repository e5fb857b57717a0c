"""The one exception type the CLI turns into a single clear error line (exit code 2), the output-directory
check every writer makes before any work, and the translation of a failed write (full disk, read-only
filesystem) into that line."""

from __future__ import annotations

import errno
import os
from pathlib import Path


class PlaytestError(Exception):
    """Bad input from the user: the message names the problem and the fix."""


WRITE_FAULTS = {errno.ENOSPC: "free some space", errno.EDQUOT: "free some space (disk quota)",
                errno.EFBIG: "free some space", errno.EROFS: "pass an --out on a writable filesystem",
                errno.EACCES: "pass a writable --out", errno.EPERM: "pass a writable --out"}
"""Errors of a write that the user fixes (not a bug of ours), and the fix to name."""


def writable_dir(path: str | Path) -> Path:
    """Create ``path`` (a directory) if needed and check it can be written, or say in one line why not."""
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise PlaytestError(f"{out} is not a directory; pass another --out") from None
    except PermissionError:
        raise PlaytestError(f"cannot create {out} (permission denied); pass a writable --out") from None
    except OSError as exc:
        raise PlaytestError(f"cannot create {out} ({exc.strerror}); pass an --out in a writable directory") from None
    if not os.access(out, os.W_OK):
        raise PlaytestError(f"{out} is not writable; pass a writable --out")
    return out


def write_fault(exc: OSError) -> PlaytestError | None:
    """The one-line error for a write the user can fix (full disk, read-only filesystem, no permission), else None.
    Every file playtest writes goes temporary -> rename, so what was written before the fault is kept."""
    fix = WRITE_FAULTS.get(exc.errno or 0)
    if fix is None:
        return None
    where = f" {exc.filename}" if exc.filename else ""
    return PlaytestError(f"cannot write{where} ({exc.strerror or os.strerror(exc.errno)}); {fix}, then re-run the "
                         "same command to resume (what was written is kept)")
