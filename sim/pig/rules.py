"""Pig's rules variants: every number and every ambiguity decision is a declared field (docs/rules/pig.md)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.core.fields import field
from sim.core.rules import RulesFields, kernel_namespace


@dataclass(frozen=True)
class Rules(RulesFields):
    """The numbers of Pig; the kernels read them through ``to_array`` and ``R``."""

    target: int = field(100, ge=1, le=1000, rule="PIG-END-1", doc="banked points that win")
    faces: int = field(6, ge=2, le=20, rule="PIG-TURN-1", doc="faces of the die (1 is the bust face)")
    equal_turns: bool = field(False, rule="PIG-END-2", doc="once a seat reaches the target, the round is completed "
                                                             "and the most points win (ties share)")
    round_cap: int = field(1000, ge=1, le=100_000, rule="PIG-END-3", doc="rounds before a game stops as a timeout")


R = kernel_namespace(Rules)
"""Rules field -> index in ``to_array`` (``rules[R.target]``)."""
