"""Event types of a traced 7 Wonders + Babel game (``sim.core.play.event``), shared by the kernels that log them
(engine, tile placement) and the replay that reads them."""

from __future__ import annotations

from sim.core.names import namespace

EV = namespace("EV", (
    "board",  # seat gets board a0, side a1 (0 A, 1 B)
    "keep_tile",  # seat keeps tile a0 (0-based) in draft round a1
    "age",  # a0 Age, a1 project (-1 none), a2 tokens on it
    "turn",  # a0 Age, a1 turn of the Age
    "pick",  # seat: a0 action (turn.ACT), a1 card (-1 none), a2 extra, a3 participation, a4 coins paid
    "trade",  # seat pays a0 coins to the left neighbour and a1 to the right one
    "seventh",  # seat uses Babylon B's 7th card (the pick follows)
    "hali",  # seat builds card a0 from the discard pile (-1 declines), a1 participation, a2 coins paid
    "tile",  # the builder's tile a0 (0-based) placed in slot a1 at the end of the turn, covering tile a2 (-1 none)
    "project",  # a0 project, a1 success, a2 participants, a3 tokens taken
    "penalty",  # seat: a0 penalty kind, a1 option value (city index / token value / -2 unbearable), a2 second token
    "military",  # seat: a0 shields, a1 military VP after the Age
    "score",  # seat: a0 total, a1 coins
    "end",
))
"""Event types: seat, then a0..a4 as listed."""
