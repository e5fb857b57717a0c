"""Bus (Splotter Spellen, 3rd edition): the GameSpec the runner plays (rules as read: docs/rules/bus.md)."""

from __future__ import annotations

from sim.bus.checks import check_options
from sim.bus.data import kernel_board, load_board
from sim.bus.engine import setup_game  # noqa: F401 (binds the game's hooks to its state type)
from sim.bus.records import GAME_COLUMNS, PLAYER_COLUMNS
from sim.bus.replay import render_game
from sim.bus.rules import Rules
from sim.bus.schema import SCHEMA
from sim.bus.state import LAYOUT, allocate, max_options
from sim.core.errors import PlaytestError
from sim.core.spec import GameSpec
from strategies.bus import DEFAULT_LINEUP, STRATEGIES


def check_rules(rules: Rules, n_players: int, board) -> None:
    """Rules that fit the rulebook's numbers but not this board or player count (one clear line each)."""
    rules.to_array(n_players)  # the 18-stick seats must fit the player count
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


SPEC = GameSpec(
    name="bus",
    title="Bus (Splotter Spellen, 3rd edition)",
    min_players=3,
    max_players=5,
    rules_type=Rules,
    schema=SCHEMA,
    strategy_list=STRATEGIES,
    default_lineup=DEFAULT_LINEUP,
    game_columns=GAME_COLUMNS,
    player_columns=PLAYER_COLUMNS,
    layout=LAYOUT,
    allocate=allocate,
    max_options=max_options,
    option_width=3,
    n_keys=3,
    rules_array=lambda rules, n_players: rules.to_array(n_players),
    render=render_game,
    load_data=lambda rules: kernel_board(load_board(rules.board)),
    check_rules=check_rules,
    check_options=check_options,
    data_field="board",
)
