"""One-line diagnoses of broken game code: a game package that fails to import, a kernel numba cannot type.

A half-written game must not take the other games down with it, and a typo deep in a kernel must be found
without reading numba's nested report: each is named in one line (file:line: message); ``--debug`` shows
the whole traceback.
"""

from __future__ import annotations

import contextlib
import re
import traceback
from pathlib import Path
from typing import Iterator

from numba.core.errors import TypingError

from sim.core.errors import PlaytestError

ROOT = Path(__file__).resolve().parents[2]
"""The directory holding the ``sim`` package: locations are shown relative to it."""
_NUMBA_LOCATION = re.compile(r'File "([^"]+)", line (\d+)')
_LONG_TYPE = re.compile(r"(of type [\w.]+)\(.*")


class BrokenGame(PlaytestError):
    """A game's own code is broken (it fails to import, or a kernel does not compile): one line, file:line."""


def where(path: str | Path, line: int | None) -> str:
    """``path:line`` with ``path`` relative to the checkout when it lies inside it."""
    p = Path(path).resolve()
    with contextlib.suppress(ValueError):
        p = p.relative_to(ROOT)
    return f"{p.as_posix()}:{line}" if line is not None else p.as_posix()


def import_failure(package: str, exc: BaseException) -> str:
    """The line naming why ``sim.<package>`` failed to import: the failing line of the package's own code
    (the innermost frame inside it, else the innermost frame), the error type and its message."""
    if isinstance(exc, SyntaxError) and exc.filename:
        at = where(exc.filename, exc.lineno)
        message = exc.msg
    else:
        frames = traceback.extract_tb(exc.__traceback__)
        pkg_dir = (ROOT / "sim" / package).as_posix()
        own = [f for f in frames if Path(f.filename).resolve().as_posix().startswith(pkg_dir + "/")]
        frame = (own or frames)[-1] if frames else None
        at = where(frame.filename, frame.lineno) if frame else f"sim/{package}"
        message = str(exc).splitlines()[0] if str(exc) else ""
    return (f"game package sim/{package} failed to import: {at}: {type(exc).__name__}: {message}; fix it or move "
            f"it out of sim/ (the other games still work; --debug shows the traceback)")


def kernel_failure(exc: TypingError) -> str:
    """The line naming where numba failed to type a kernel: the innermost location of its nested report (the
    first one it prints) and the reason just above it, a long type shortened to its name."""
    text = str(exc)
    found = _NUMBA_LOCATION.search(text)
    above = [ln.strip() for ln in text[: found.start() if found else len(text)].splitlines()]
    reasons = [ln for ln in above if ln and not ln.startswith("Failed in ")]
    reason = _LONG_TYPE.sub(r"\1", reasons[-1] if found and reasons else (reasons or ["numba cannot type it"])[0])
    at = where(found.group(1), int(found.group(2))) if found else "a kernel"
    return f"{at}: {reason} (numba cannot compile this kernel; --debug shows numba's whole report)"


@contextlib.contextmanager
def kernel_errors() -> Iterator[None]:
    """Turn numba's typing failure of a game's kernels into a one-line BrokenGame (chained to numba's error)."""
    try:
        yield
    except TypingError as exc:
        raise BrokenGame(kernel_failure(exc)) from exc
