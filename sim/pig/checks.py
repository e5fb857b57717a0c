"""Pig's option check: the hold decision's options and features against the rules, written apart from the kernel."""

from __future__ import annotations

import numpy as np

from sim.core.records import P
from sim.pig.engine import hold_option
from sim.pig.rules import R
from sim.pig.schema import F


def scramble(st, data, rng: np.random.Generator) -> None:
    """Random banked scores below the target."""
    st.players[:, P.score] = rng.integers(0, st.rules[R.target], size=st.players.shape[0])


def compare(st, data) -> tuple[int, int]:
    """(features that disagree with the rules, options checked) for every seat and turn totals 2..40."""
    bad = 0
    scores = st.players[:, P.score].copy()
    target = st.rules[R.target]
    for seat in range(len(scores)):
        rival = max(np.delete(scores, seat))
        for total in range(2, 41):
            hold_option(st, seat, total)
            want = {F.roll: 0, F.turn: total, F.reaches: scores[seat] + total >= target,
                    F.behind: rival - scores[seat], F.rival_progress: 100 * rival / target}
            bad += sum(not np.isclose(st.features[f, 0], v) for f, v in want.items())
    return bad, 2 * len(scores) * 39
