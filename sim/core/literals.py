"""Constants passed on as plain values, so that a jitted callee compiles one specialisation, not one per constant.

numba types a constant argument as a literal (``Literal[int](2)``) and compiles a called @njit function once per
such type: ``decide(st, seat, 2, n)`` and ``decide(st, seat, 0, n)`` would each compile the whole rollout driver
again. Passing ``plain(decision)`` on gives every call the same signature.
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic, overload


def plain(value):
    """``value`` itself (without JIT, and in compiled code under its non-literal type)."""
    return value


@intrinsic
def _plain(typingctx, value):
    """``value`` cast to its non-literal type."""
    target = types.unliteral(value)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], target)

    return target(value), codegen


@overload(plain)
def _plain_impl(value):
    return lambda value: _plain(value)
