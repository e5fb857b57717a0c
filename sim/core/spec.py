"""The contract every game module fulfils, and the registry the runner and CLI look games up in."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from sim.core.errors import PlaytestError
from strategies.core import StrategyRegistry, StrategyTable


@dataclass(frozen=True)
class Column:
    """One integer column of a record table; ``labels`` maps codes to strings (e.g. end_reason)."""

    name: str
    description: str
    labels: tuple[str, ...] = ()


class ChunkResult(NamedTuple):
    """What ``play_chunk`` returns: integer records, one row per game and one per (game, seat).

    ``games[i]`` follows ``GameSpec.game_columns``; ``players[i, seat]`` follows
    ``GameSpec.player_columns``. Required game columns: rounds, end_reason, winner_seat, decisions.
    Required player columns: score, rank, won (1 for each winner, so ties share the win).
    """

    games: np.ndarray  # int64 (n_games, n_game_columns)
    players: np.ndarray  # int64 (n_games, n_players, n_player_columns)


PlayChunk = Callable[[Any, int, np.ndarray, int, int, int, StrategyTable], ChunkResult]
"""play_chunk(rules, n_players, seats, first_index, n_games, seed, table) -> ChunkResult.

``seats[i, s]`` is the strategy-table row playing seat ``s`` in game ``first_index + i``; the body
is one @njit call that plays all ``n_games`` games, game i seeded from (seed, first_index + i).
"""

Replay = Callable[[Any, int, np.ndarray, int, int, StrategyTable, Sequence[str]], str]
"""replay(rules, n_players, seat_row, game_index, seed, table, strategy_names) -> readable text."""

REQUIRED_GAME_COLUMNS = ("rounds", "end_reason", "winner_seat", "decisions")
REQUIRED_PLAYER_COLUMNS = ("score", "rank", "won")


@dataclass(frozen=True)
class GameSpec:
    """A registered game: its rules defaults, strategies, record schema and kernels."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules_type: type
    strategies: StrategyRegistry
    default_lineup: tuple[str, ...]
    game_columns: tuple[Column, ...]
    player_columns: tuple[Column, ...]
    play_chunk: PlayChunk
    replay: Replay
    chunk_size: int = 5_000
    """Games per part (one kernel call, one Parquet file per table). Small enough that the workers finish
    together: the last part of a run keeps one worker busy alone for a part's time (about 1 s here)."""
    check_rules: Callable[[Any, int], Any] | None = None
    """Optional check of rules against the player count and data files, run before anything is written."""

    def __post_init__(self) -> None:
        names = [c.name for c in self.game_columns]
        assert all(c in names for c in REQUIRED_GAME_COLUMNS), f"{self.name}: missing game columns"
        pnames = [c.name for c in self.player_columns]
        assert all(c in pnames for c in REQUIRED_PLAYER_COLUMNS), f"{self.name}: missing player columns"

    def check_players(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise PlaytestError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {n_players}; "
                f"pass --players between {self.min_players} and {self.max_players}"
            )

    def game_col(self, name: str) -> int:
        return [c.name for c in self.game_columns].index(name)

    def player_col(self, name: str) -> int:
        return [c.name for c in self.player_columns].index(name)


GAME_MODULES = {"sea_trade": "sim.sea_trade", "bus": "sim.bus"}
"""Game name -> module whose ``SPEC`` attribute is its GameSpec (imported on first use)."""


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> GameSpec:
    """Look a game up by name, importing its module on first use."""
    if name not in GAME_MODULES:
        raise PlaytestError(f"unknown game '{name}'; choose from {', '.join(GAME_MODULES)} (see `playtest games`)")
    return importlib.import_module(GAME_MODULES[name]).SPEC
