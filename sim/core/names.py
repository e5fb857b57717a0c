"""Names as compile-time integer constants: ``namespace("R", ["a", "b"]).b == 1``, usable inside @njit.

numba treats a module-level NamedTuple instance of ints as a constant, so ``rules[R.grid_size]`` compiles to
a fixed index while the code still reads by name (and a new field never means renumbering by hand).
"""

from __future__ import annotations

from collections import namedtuple
from typing import NamedTuple, Sequence


def namespace(typename: str, names: Sequence[str]) -> NamedTuple:
    """A NamedTuple instance mapping each of ``names`` to its position 0..n-1."""
    cls = namedtuple(typename, list(names))
    return cls(*range(len(names)))
