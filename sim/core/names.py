"""Generated namespaces: names -> consecutive ints, as NamedTuple instances that @njit code reads as constants.

``R = namespace("R", ["grid_size", "islands"])`` gives ``R.grid_size == 0``, ``R.islands == 1``; a kernel
indexes ``rules[R.islands]`` and numba folds the global NamedTuple into a constant. No hand-numbered lists.
A name that is a Python keyword gets a trailing underscore (the feature "pass" is ``F.pass_``).
"""

from __future__ import annotations

import keyword
from collections import namedtuple
from typing import Any, Iterable, Sequence


def namespace(typename: str, names: Sequence[str], start: int = 0) -> Any:
    """A NamedTuple instance mapping each name to its position (plus ``start``)."""
    names = list(names)
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"namespace {typename}: duplicate names {dup}")
    cls = namedtuple(typename, [n + "_" if keyword.iskeyword(n) else n for n in names])
    return cls(*range(start, start + len(names)))


def expand(groups: Iterable[tuple[str, int]]) -> list[str]:
    """Names for fields that span several slots: ("zone_full", 4) -> zone_full, zone_full_1, .. zone_full_3.

    The first slot keeps the bare name, so ``NS.zone_full + k`` addresses slot k.
    """
    out: list[str] = []
    for name, width in groups:
        out.append(name)
        out.extend(f"{name}_{k}" for k in range(1, width))
    return out
