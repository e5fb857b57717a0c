"""Event logs for replays: kernels append fixed-width integer rows to a preallocated buffer."""

from __future__ import annotations

import numpy as np
from numba import njit

EVENT_WIDTH = 8
"""Columns of an event row: round, seat, event type, then up to five integer arguments."""


def new_trace(capacity: int = 200_000) -> np.ndarray:
    """An event buffer; a kernel given a zero-row buffer records nothing (the fast path)."""
    return np.zeros((capacity, EVENT_WIDTH), dtype=np.int64)


NO_TRACE = np.zeros((0, EVENT_WIDTH), dtype=np.int64)


@njit(cache=True)
def emit(trace: np.ndarray, n: int, rnd: int, seat: int, etype: int,
         a0: int = 0, a1: int = 0, a2: int = 0, a3: int = 0, a4: int = 0) -> int:
    """Append one event if the buffer has room; return the new event count."""
    if n >= trace.shape[0]:
        return n
    trace[n, 0] = rnd
    trace[n, 1] = seat
    trace[n, 2] = etype
    trace[n, 3] = a0
    trace[n, 4] = a1
    trace[n, 5] = a2
    trace[n, 6] = a3
    trace[n, 7] = a4
    return n + 1
