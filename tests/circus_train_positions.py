"""Circus Train states for hand-built positions: the game's state through the contract (``SPEC.new_state``)."""

from __future__ import annotations

from sim.circus_train import SPEC
from sim.circus_train.rules import Rules
from sim.core.state import M


def new_state(rules: Rules, n_players: int):
    """A zeroed state for ``n_players`` under ``rules`` (every seat random); set up with sim.circus_train.setup."""
    st, _data = SPEC.new_state(rules, n_players)
    return st


def n_players(st) -> int:
    return int(st.meta[M.n_players])


def copy_position(st):
    """An independent copy of a position (the fixed rules and strategy tables shared)."""
    return SPEC.new_snapshot(st)
