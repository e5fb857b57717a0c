"""Who sits in the circle: the players, and with two players the Free City as a third seat that is not a player
(SW-2P-1). Kernels loop over ``g[GS.n]`` seats for everything a neighbour sees (trade, military, counting effects)
and over ``players(st)`` for what only players do (decisions, Babel tiles, records, the ranking)."""

from __future__ import annotations


from sim.core.jit import kernel
from sim.core.state import M

FREE_CITY = 2
"""The Free City's seat in a 2-player game: seat 0's right and seat 1's left neighbour (SW-2P-1, SW-SETUP-4)."""


@kernel
def seat_count(n_players: int) -> int:
    """Seats in the circle: the players, plus the Free City when two play (SW-2P-1)."""
    return 3 if n_players == 2 else n_players


@kernel
def players(st) -> int:
    """The players (2-7): the seats that decide, score in the ranking and hold records."""
    return st.meta[M.n_players]


@kernel
def fc_seat(st) -> int:
    """The Free City's seat, -1 without one (3-7 players)."""
    return FREE_CITY if st.meta[M.n_players] == 2 else -1
