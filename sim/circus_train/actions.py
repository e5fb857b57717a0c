"""What a played card lets the player do after its movement (CT-CARD-2..10, CT-AMB-3, CT-AMB-30, H5).

Fast and Rapid Transit are movement only. Overnight Transit and Hold then offer Perform, Hire or nothing; Basic
Transit offers its 1-step move, Perform, Hire or (advanced) a Parade, never nothing; Overnight Hire leads to Special
Hire and Wage & Transit to the wage payment, both compulsory; Rest does nothing (its Canadian reward is in
sim.circus_train.advanced). Perform and Hire are never both in one action.
"""

from __future__ import annotations


from sim.circus_train.data import BASIC, FAST, HOLD, OVERNIGHT_HIRE, OVERNIGHT_TRANSIT, RAPID, WAGE_TRANSIT, Data
from sim.circus_train.hire import can_hire
from sim.circus_train.perform import can_perform
from sim.circus_train.rules import R
from sim.circus_train.state import PL
from sim.core.jit import kernel

PERFORM, HIRE, NOTHING, MOVE, PARADE, SPECIAL_HIRE, WAGES = range(7)  # st.options[i, 0] of action_options


@kernel
def moves_first(card: int) -> bool:
    """Cards whose optional movement comes before the rest of the action (CT-CARD-2/3/4/7/8)."""
    return card == FAST or card == RAPID or card == OVERNIGHT_TRANSIT or card == OVERNIGHT_HIRE or card == WAGE_TRANSIT


@kernel
def parade_allowed(st, p: int) -> bool:
    """A Parade needs the advanced game and $10 (CT-ADV-PARADE-1)."""
    rules = st.rules
    return rules[R.advanced] != 0 and st.pl[p, PL.money] >= rules[R.parade_cost]


@kernel
def action_is_legal(st, d: Data, p: int, card: int, kind: int) -> bool:
    """Is ``kind`` a legal next action for ``card`` (after its movement, for the cards that move first)?"""
    if kind == PERFORM or kind == HIRE:
        if not (card == OVERNIGHT_TRANSIT or card == HOLD or card == BASIC):
            return False
        return can_perform(st, d, p) if kind == PERFORM else can_hire(st, p)
    if kind == NOTHING:
        return card == OVERNIGHT_TRANSIT or card == HOLD  # CT-AMB-30: may decline; Basic Transit never passes
    if kind == MOVE:
        return card == BASIC
    if kind == PARADE:
        return card == BASIC and parade_allowed(st, p)
    if kind == SPECIAL_HIRE:
        return card == OVERNIGHT_HIRE
    if kind == WAGES:
        return card == WAGE_TRANSIT
    return False


@kernel
def action_options(st, d: Data, p: int, card: int) -> int:
    """Fill ``st.options[i, 0]`` with the legal next actions of ``card`` (H5); return the count (0: the card's action is
    complete, as after Fast or Rapid Transit's move, or Rest)."""
    n = 0
    for kind in range(7):
        if action_is_legal(st, d, p, card, kind):
            st.options[n, 0] = kind
            n += 1
    return n


