"""The one exception type the CLI turns into a single clear error line (exit code 2), and the output-directory
check every writer makes before any work."""

from __future__ import annotations

import os
from pathlib import Path


class PlaytestError(Exception):
    """Bad input from the user: the message names the problem and the fix."""


def writable_dir(path: str | Path) -> Path:
    """Create ``path`` (a directory) if needed and check it can be written, or say in one line why not."""
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise PlaytestError(f"{out} is not a directory; pass another --out") from None
    except PermissionError:
        raise PlaytestError(f"cannot create {out} (permission denied); pass a writable --out") from None
    if not os.access(out, os.W_OK):
        raise PlaytestError(f"{out} is not writable; pass a writable --out")
    return out
