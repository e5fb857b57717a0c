"""Sea Trade (WarpSpawn "PST"): trade commodities around a random Mediterranean of islands, pirates and storms."""

from __future__ import annotations

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.spec import ChunkResult, GameSpec
from sim.sea_trade.engine import ERROR_BOARD, play_chunk_kernel
from sim.sea_trade.moves import INVARIANTS
from sim.sea_trade.records import GAME_COLUMNS, N_GAME_COLUMNS, N_PLAYER_COLUMNS, PLAYER_COLUMNS
from sim.sea_trade.replay import replay
from sim.sea_trade.rules import Rules
from sim.sea_trade.state import M_ERROR_GAME, N_MARKETS, new_state
from strategies.core import StrategyTable
from strategies.sea_trade import REGISTRY


def play_chunk(rules: Rules, n_players: int, seats: np.ndarray, first_index: int, n_games: int, seed: int,
               table: StrategyTable, debug: bool = False) -> ChunkResult:
    """Play games first_index .. first_index+n_games-1 in one kernel call (``debug`` asserts invariants)."""
    rules.validate()
    if not 2 <= n_players <= N_MARKETS:
        raise PlaytestError(f"sea_trade needs 2 to {N_MARKETS} players (one start market each), not {n_players}; "
                            "pass --players 2..6")
    seats = np.ascontiguousarray(seats, dtype=np.int64).reshape(n_games, n_players)
    st = new_state(rules, n_players, table)
    games = np.zeros((n_games, N_GAME_COLUMNS), np.int64)
    players = np.zeros((n_games, n_players, N_PLAYER_COLUMNS), np.int64)
    code = play_chunk_kernel(st, seats, first_index, n_games, seed, debug, games, players)
    if code == ERROR_BOARD:
        raise PlaytestError("sea_trade: no board with all markets joined by sea was found; "
                            "lower --set islands or --set market_spacing")
    if code != 0:
        raise AssertionError(f"sea_trade invariant broken in game {st.misc[M_ERROR_GAME]}: {INVARIANTS[code]}")
    return ChunkResult(games, players)


SPEC = GameSpec(
    name="sea_trade",
    title="Sea Trade",
    min_players=2,
    max_players=N_MARKETS,
    rules_type=Rules,
    strategies=REGISTRY,
    default_lineup=("trader", "raider", "blocker", "balanced"),
    game_columns=GAME_COLUMNS,
    player_columns=PLAYER_COLUMNS,
    play_chunk=play_chunk,
    replay=replay,
)
