"""The project's @njit: a kernel compiles once per argument type, not once per constant it is called with.

numba types a constant argument as a literal (``Literal[int](2)``), and a jitted function called from compiled
code is compiled once per literal it meets: 7 Wonders' ``_put(st, FREE_CITY, ...)`` and ``_put(st, h, ...)``
were two compilations of the whole pricing code below it, and constant action codes made nine. ``kernel``
types such a call by the arguments' plain types, so each kernel is compiled once per game. Branches on a
constant argument are still folded by LLVM where it inlines the callee.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from numba.core import config, types
from numba.core.registry import CPUDispatcher

F = TypeVar("F", bound=Callable)


class _PlainDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, typing calls from compiled code by the arguments' non-literal types."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(t) for k, t in kws.items()})


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
