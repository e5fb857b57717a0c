"""Hand-built Sea Trade positions, tiny strategy tables, and short names for the core calls the rule tests make."""

from __future__ import annotations

from typing import Iterable

import numpy as np

from sim.core import play as protocol
from sim.core.policy import Strategy, StrategyRegistry, StrategyTable
from sim.core.spec import ChunkResult
from sim.core.state import M
from sim.core.trace import NO_TRACE
from sim.sea_trade import SPEC
from sim.sea_trade import engine
from sim.sea_trade.board import set_board_masks
from sim.sea_trade.rules import Rules
from sim.sea_trade.schema import SCHEMA
from sim.sea_trade.state import LAND, MARKET, MISC, N_MARKETS, SEA, State

G = 8
# Default market spaces for hand-built boards: Rome a1, Egypt h1, Greece a8, Persia h8, Carthage d1, Crete d8.
MARKET_CELLS = (0, 7, 56, 63, 3, 59)


def cell(row: int, col: int) -> int:
    """Cell index of (row from the north, column from the west), both 0-based."""
    return row * G + col


def position(n_players: int = 2, land: Iterable[int] = (), markets: Iterable[int] = MARKET_CELLS,
             pirates: Iterable[int] = (), storm: int = -1, ships: Iterable[int] = (), rules: Rules = Rules(),
             table: StrategyTable | None = None) -> State:
    """A state with the given board, empty hands, holds, deck and discard, and start gold."""
    st = new_state(rules, n_players, table)
    st.cell[:] = SEA
    st.market_at[:] = -1
    st.pirate_at[:] = -1
    for c in land:
        st.cell[c] = LAND
    for m, c in enumerate(list(markets)[:N_MARKETS]):
        st.cell[c] = MARKET
        st.market_at[c] = m
        st.market_cell[m] = c
    pir = list(pirates) or [cell(4, 4), cell(4, 6)][: rules.pirates]
    for p, c in enumerate(pir):
        st.pirate[p] = c
        st.pirate_at[c] = p
    st.storm[0] = storm
    for s, c in enumerate(ships):
        st.ship[s] = c
    st.hand[:] = 0
    st.hold[:] = 0
    st.gold[:] = rules.start_gold
    st.piles[:] = 0
    st.seat_strat[:] = np.arange(n_players) % len(st.kind)
    set_board_masks(st)
    st.misc[MISC.dist_dirty] = 1
    st.land_dist[:] = 0
    return st


def options(st: State, k: int) -> set[tuple[int, ...]]:
    """The first k option rows as a set of tuples."""
    return {tuple(int(v) for v in st.options[i]) for i in range(k)}


def table(**weights: dict[str, float]) -> StrategyTable:
    """A one-strategy table with the given weights per decision (e.g. accept={"pass": -1})."""
    reg = StrategyRegistry("sea_trade", SCHEMA, [Strategy("test", "test", weights=weights)])
    return reg.table(["test"])


def named(*names: str) -> StrategyTable:
    return SPEC.strategies.table(list(names))


def new_state(rules: Rules = Rules(), n_players: int = 2, table: StrategyTable | None = None,
              trace: np.ndarray = NO_TRACE) -> State:
    """The kernel handle for games of ``n_players`` (every seat ``random`` without a table)."""
    return SPEC.new_state(rules, n_players, table, trace)[0]


def setup_game(st: State, seed: int, game_index: int) -> bool:
    """Start game ``game_index`` of a run seeded ``seed`` as the core driver does, then ST-SETUP-1..9."""
    protocol.start_game(st, seed, game_index, st.seat_strat.copy())
    engine.setup_game(st, None)
    return True


def play_game(st: State, game_index: int, seed: int, check: bool = False) -> None:
    """Play game ``game_index`` of a run seeded ``seed`` to its end in this state (``check``: assert invariants)."""
    st.meta[M.check] = int(check)
    protocol.play_until(st, None, seed, game_index, st.seat_strat.copy(), 0)


def events(st: State) -> np.ndarray:
    """The events a traced state recorded."""
    return st.trace[: st.meta[M.events]]


def play_chunk(rules: Rules, n_players: int, seats: np.ndarray, first: int, n: int, seed: int, table: StrategyTable,
               debug: bool = False) -> ChunkResult:
    return SPEC.play_chunk(rules, n_players, seats, first, n, seed, table, check=debug)
