"""Event logs for replays: kernels append fixed-width integer rows (``sim.core.play.event``) to a preallocated
buffer."""

from __future__ import annotations

import numpy as np

EVENT_WIDTH = 8
"""Columns of an event row: round, seat, event type, then up to five integer arguments."""


def new_trace(capacity: int = 200_000) -> np.ndarray:
    """An event buffer; a kernel given a zero-row buffer records nothing (the fast path)."""
    return np.zeros((capacity, EVENT_WIDTH), dtype=np.int64)


NO_TRACE = np.zeros((0, EVENT_WIDTH), dtype=np.int64)
