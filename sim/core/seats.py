"""Seat compensation in the kernels: the ``seatK_*`` rules fields (seat 2 up, seat 1 gets none) that give a seat a
start in the game's own currency; each game declares them in a row of its Rules (see docs/adding-a-game.md)."""

from __future__ import annotations

from sim.core.jit import kernel


@kernel
def seat_bonus(rules, seat2_slot: int, seat: int) -> int:
    """The start ``seat`` (0-based) gets: 0 for seat 1, else ``rules[seat2_slot + seat - 1]`` (the seatK_* fields
    sit in a row from seat 2's slot)."""
    return rules[seat2_slot + seat - 1] if seat > 0 else 0
