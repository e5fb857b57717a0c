"""The project's @njit: a kernel compiles once per argument type, not once per constant it is called with.

numba types a constant argument as a literal (``Literal[int](2)``), and a jitted function called from compiled
code is compiled once per literal it meets: 7 Wonders' ``_put(st, FREE_CITY, ...)`` and ``_put(st, h, ...)``
were two compilations of the whole pricing code below it, and constant action codes made nine. ``kernel``
types such a call by the arguments' plain types, so each kernel is compiled once per game. Branches on a
constant argument are still folded by LLVM where it inlines the callee.

In the bounds-checked build (the test suite) a kernel compiled for a compiled caller is optimised once, in its
caller's module (:func:`_optimized_once`).
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from numba.core import codegen, config, types
from numba.core.registry import CPUDispatcher

F = TypeVar("F", bound=Callable)

_typing = threading.local()
"""``depth``: how many compiled callers are typing a call to a kernel in this thread (0: a call from Python)."""


class _PlainDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, typing calls from compiled code by the arguments' non-literal types."""

    def get_call_template(self, args, kws):
        depth = getattr(_typing, "depth", 0)
        _typing.depth = depth + 1
        try:
            return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                             {k: types.unliteral(t) for k, t in kws.items()})
        finally:
            _typing.depth = depth


def _optimized_once(optimize: Callable) -> Callable:
    """numba runs LLVM's module optimisation on every compiled function's module with its callees linked in,
    then again on each caller's, so a kernel n calls deep is optimised n times. In the bounds-checked build
    (the test suite) a kernel compiled for a compiled caller skips it: the caller's module, callees linked in,
    is still optimised whole (the top kernel's, which is the code that runs). A 7 Wonders cold compile takes
    about a fifth less CPU. The unchecked build keeps numba's way (its speed is the benchmarks')."""

    def final_module(library) -> None:
        if config.BOUNDSCHECK and getattr(_typing, "depth", 0):
            return
        optimize(library)

    final_module.__wrapped__ = optimize
    return final_module


if not hasattr(codegen.CPUCodeLibrary._optimize_final_module, "__wrapped__"):
    codegen.CPUCodeLibrary._optimize_final_module = _optimized_once(codegen.CPUCodeLibrary._optimize_final_module)


def kernel(func: F | None = None, *, inline: str = "never") -> F | Callable[[F], F]:
    """``@njit(cache=True)`` (or with ``inline="always"``) whose compiled calls ignore constant values.

    With JIT disabled (NUMBA_DISABLE_JIT=1, `playtest bench`'s plain-Python figure) the function itself.
    """

    def wrap(f: F) -> F:
        if config.DISABLE_JIT:
            return f
        dispatcher = _PlainDispatcher(py_func=f, locals={},
                                      targetoptions={"nopython": True, "boundscheck": None, "inline": inline})
        dispatcher.enable_caching()
        return dispatcher

    return wrap if func is None else wrap(func)
