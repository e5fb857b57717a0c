"""Record columns: the standard ones every game logs (owned by the core) and a game's own, with namespaces.

A game lists only its own columns; ``game_record``/``player_record`` put the standard ones first, so the
kernels address every column through one generated namespace (``GC.rounds``, ``PC.cargo_lost``) and the
core writes rank, won and winner_seat itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from sim.core.names import namespace


@dataclass(frozen=True)
class Column:
    """One integer column of a record table; ``labels`` maps codes to strings (e.g. end_reason)."""

    name: str
    description: str
    labels: tuple[str, ...] = ()


STANDARD_GAME = ("rounds", "end_reason", "winner_seat", "decisions")
"""Every games table starts with these (the runner, analysis and reports rely on them)."""
STANDARD_PLAYER = ("score", "rank", "won")
"""Every players table starts with these; the core ranks the seats and writes rank and won."""

G = namespace("G", STANDARD_GAME)
"""Standard game columns, for core kernels (a game's own namespace extends it)."""
P = namespace("P", STANDARD_PLAYER)
"""Standard player columns, for core kernels."""


def game_record(end_reasons: Sequence[str], descriptions: dict[str, str], own: Sequence[Column]) -> tuple[Column, ...]:
    """The games table: the standard columns (described per game) followed by the game's own."""
    std = (
        Column("rounds", descriptions.get("rounds", "rounds played")),
        Column("end_reason", descriptions.get("end_reason", "why the game ended"), tuple(end_reasons)),
        Column("winner_seat", descriptions.get("winner_seat", "seat of the sole winner, -1 if none or shared")),
        Column("decisions", "strategy decisions taken (choose() calls with 2+ legal options)"),
    )
    return std + tuple(own)


def player_record(descriptions: dict[str, str], own: Sequence[Column]) -> tuple[Column, ...]:
    """The players table: score, rank, won (described per game) followed by the game's own columns."""
    std = (
        Column("score", descriptions.get("score", "final score")),
        Column("rank", descriptions.get("rank", "1 = best; exact ties share a rank")),
        Column("won", descriptions.get("won", "1 for each winner (a shared win counts for every sharer)")),
    )
    return std + tuple(own)


def columns_namespace(typename: str, columns: Sequence[Column]) -> Any:
    """Column name -> index, for kernels (``GC.plunders``)."""
    return namespace(typename, [c.name for c in columns])
