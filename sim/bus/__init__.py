"""Bus (Splotter Spellen, 3rd edition): the GameSpec the runner plays (rules as read: docs/rules/bus.md)."""

from __future__ import annotations

import numpy as np

from sim.bus.data import kernel_board, load_board
from sim.bus.engine import play_games
from sim.bus.records import GAME_COLUMNS, N_GAME, N_PLAYER, PLAYER_COLUMNS
from sim.bus.replay import replay
from sim.bus.rules import Rules
from sim.bus.state import G_CHECK, G_N, kernel_state, new_state
from sim.core.errors import PlaytestError
from sim.core.spec import ChunkResult, GameSpec
from strategies.core import StrategyTable


def prepare(rules: Rules, n_players: int):
    """Validate ``rules`` for ``n_players`` and return (board, rules array) for the kernels."""
    if not 3 <= n_players <= 5:
        raise PlaytestError(f"bus is played by 3 to 5 players, not {n_players}; pass --players between 3 and 5")
    r = rules.to_array(n_players)
    board = load_board(rules.board)
    need = n_players * rules.setup_buildings
    if board.zone_n[0] < need:
        raise PlaytestError(
            f"bus: zone A has {board.zone_n[0]} spaces but {n_players} players need {need} at setup; "
            "lower setup_buildings or use a bigger board"
        )
    if rules.start_passengers_per_central * len(board.central) > rules.passengers:
        raise PlaytestError(
            f"bus: {rules.start_passengers_per_central} start passengers on each of {len(board.central)} central "
            f"intersections exceed the {rules.passengers} passengers; lower start_passengers_per_central"
        )
    return board, r


def play_chunk(rules: Rules, n_players: int, seats: np.ndarray, first_index: int, n_games: int, seed: int,
               table: StrategyTable, check: bool = False) -> ChunkResult:
    """Play games first_index .. first_index + n_games - 1 (``check`` asserts the BUS-INV-* invariants)."""
    board, r = prepare(rules, n_players)
    seats = np.ascontiguousarray(seats, dtype=np.int64)
    if seats.shape != (n_games, n_players):
        raise PlaytestError(f"bus: seats must have shape ({n_games}, {n_players}), got {seats.shape}")
    if seats.size and (seats.min() < 0 or seats.max() >= len(table.kind)):
        raise PlaytestError("bus: a seat names a strategy row outside the strategy table")
    state = new_state(board, n_players, table)
    state.g[G_N] = n_players
    state.g[G_CHECK] = int(check)
    games = np.zeros((n_games, N_GAME), dtype=np.int64)
    players = np.zeros((n_games, n_players, N_PLAYER), dtype=np.int64)
    play_games(kernel_board(board), r, kernel_state(state), seats, int(first_index), int(n_games), int(seed), games,
               players)
    return ChunkResult(games, players)


def _make_spec() -> GameSpec:
    from strategies.bus import DEFAULT_LINEUP, REGISTRY  # imported late: strategies/bus.py reads sim.bus.schema

    return GameSpec(
        name="bus",
        title="Bus (Splotter Spellen, 3rd edition)",
        min_players=3,
        max_players=5,
        rules_type=Rules,
        strategies=REGISTRY,
        default_lineup=DEFAULT_LINEUP,
        game_columns=GAME_COLUMNS,
        player_columns=PLAYER_COLUMNS,
        play_chunk=play_chunk,
        replay=replay,
        check_rules=prepare,
    )


def __getattr__(name: str) -> GameSpec:
    """``sim.bus.SPEC`` is built on first access (PEP 562), which breaks the strategies <-> schema import cycle."""
    if name == "SPEC":
        spec = _make_spec()
        globals()["SPEC"] = spec
        return spec
    raise AttributeError(f"module 'sim.bus' has no attribute '{name}'")
