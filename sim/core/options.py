"""Kernel helpers for the idioms every decision repeats: list an option, add the decline option, decide.

A decision lists its options in ``st.options`` (one row each, ``option_width`` integers) and fills their features
(``st.features[f, i]``: feature f of option i), then asks ``sim.core.play.decide``. Many decisions end with a
"decline" option (stop, pass, keep rolling) whose only feature is a 1 in one column: :func:`decide_or_decline`
adds it and decides in one call, returning -1 when the seat declines.
"""

from __future__ import annotations


from sim.core.jit import kernel
from sim.core.play import decide


@kernel(inline="always")
def add_option(st, k: int, a0: int, a1: int = 0, a2: int = 0, a3: int = 0) -> int:
    """Write option row ``k`` (its first ``option_width`` values of a0..a3) and return ``k + 1``, the next free row."""
    options = st.options
    width = options.shape[1]
    options[k, 0] = a0
    if width > 1:
        options[k, 1] = a1
    if width > 2:
        options[k, 2] = a2
    if width > 3:
        options[k, 3] = a3
    return k + 1


@kernel(inline="always")
def decline_option(st, decision: int, k: int, feature: int) -> int:
    """Make option ``k`` of ``decision`` the decline: every feature of the decision's span 0 but ``feature`` (1);
    return ``k + 1``."""
    features = st.features
    for f in range(st.span[decision, 0], st.span[decision, 1]):
        features[f, k] = 0.0
    features[feature, k] = 1.0
    return k + 1


@kernel(inline="always")
def decide_or_decline(st, seat: int, decision: int, k: int, feature: int) -> int:
    """Options 0..k-1 are listed and their features filled: add the decline option (``feature`` = 1) and let the
    seat's strategy pick; the option picked, or -1 for the decline."""
    decline_option(st, decision, k, feature)
    ch = decide(st, seat, decision, k + 1)
    return -1 if ch == k else ch
