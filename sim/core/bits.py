"""Bit tricks for bitboards and small bit masks."""

from __future__ import annotations

import numpy as np
from sim.core.jit import kernel

_DEBRUIJN_MUL = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN[(((1 << _i) * 0x03F79D71B4CB0A89) & (2 ** 64 - 1)) >> 58] = _i
"""Bit index of a single set bit b: _DEBRUIJN[(b * _DEBRUIJN_MUL) >> 58]."""


@kernel(inline="always")
def lowest_bit(bits) -> int:
    """Index of the lowest set bit of a non-zero mask (up to 64 bits); loops over set bits with
    ``bits &= bits - 1`` visit them in ascending order."""
    b = np.uint64(bits)
    return _DEBRUIJN[((b & (~b + np.uint64(1))) * _DEBRUIJN_MUL) >> np.uint64(58)]


@kernel(inline="always")
def fill_bits(out, row: int, bits, value) -> None:
    """out[row, c] = value for every set bit c of the bitboard ``bits`` (a scatter over its cells)."""
    one = np.uint64(1)
    bits = np.uint64(bits)
    while bits != 0:
        out[row, lowest_bit(bits)] = value
        bits &= bits - one
