"""Kernel handles on struct-of-arrays state: one numba structref instead of a tuple of many arrays.

Passing a NamedTuple of ~30 arrays to an @njit function costs an atomic reference-count update per
array per call; a structref costs one. The arrays are shared, so the NamedTuple sees every change.
With JIT disabled (NUMBA_DISABLE_JIT=1, used by `playtest bench`) the NamedTuple itself is the handle,
since attribute access is the same in plain Python.
"""

from __future__ import annotations

import sys
from typing import Callable, NamedTuple

from numba import config, types
from numba.experimental import structref


def struct_handle(tuple_type: type[NamedTuple], name: str) -> Callable[[NamedTuple], object]:
    """Define a structref type over ``tuple_type``'s fields and return the function that wraps a value."""
    if config.DISABLE_JIT:
        return lambda value: value

    module = sys.modules[tuple_type.__module__]
    type_name = f"{name}Type"
    # The numba type lives in the NamedTuple's module under its own name so that the on-disk kernel
    # cache (cache=True) can pickle and find it again.
    numba_type = type(type_name, (types.StructRef,), {"__module__": module.__name__,
                                                       "preprocess_fields": _unliteral_fields})
    setattr(module, type_name, structref.register(numba_type))
    proxy = type(name, (structref.StructRefProxy,), {"__module__": module.__name__,
                                                     "__doc__": f"Kernel handle on a {tuple_type.__name__}."})
    setattr(module, name, proxy)
    structref.define_proxy(proxy, numba_type, list(tuple_type._fields))
    return lambda value: proxy(*value)


def _unliteral_fields(self, fields):
    """Store fields under their plain types (no literal values baked into the compiled type)."""
    return tuple((field, types.unliteral(typ)) for field, typ in fields)
