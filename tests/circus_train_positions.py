"""Circus Train states for hand-built positions: the game's state and data handles through the contract
(``SPEC.new_state``), the very handles play passes to the kernels."""

from __future__ import annotations

from sim.circus_train import SPEC
from sim.circus_train.rules import Rules
from sim.core.state import M


def new_state(rules: Rules, n_players: int):
    """(state, data handle): a zeroed state for ``n_players`` under ``rules`` (every seat random; the kernels read
    the rules from ``st.rules``) and the data handle to pass beside it; set up with sim.circus_train.setup."""
    return SPEC.new_state(rules, n_players)


def n_players(st) -> int:
    return int(st.meta[M.n_players])


def copy_position(st):
    """An independent copy of a position (the fixed rules and strategy tables shared)."""
    return SPEC.new_snapshot(st)
