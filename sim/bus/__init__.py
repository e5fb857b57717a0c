"""Bus (Splotter Spellen, 3rd edition): the GameSpec the runner plays (rules as read: docs/rules/bus.md)."""

from __future__ import annotations

from sim.bus.checks import check_options
from sim.bus.data import kernel_board, load_board
from sim.bus.engine import setup_game  # noqa: F401 (binds the game's hooks to its state type)
from sim.bus.records import GAME_COLUMNS, PLAYER_COLUMNS
from sim.bus.replay import render_game
from sim.bus.rules import Rules, check_rules
from sim.bus.schema import SCHEMA
from sim.bus.state import LAYOUT, allocate, max_options
from sim.core.spec import GameSpec
from strategies.bus import DEFAULT_LINEUP, STRATEGIES


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
    tie_columns=("gems", "-points_reached_at"),  # BUS-SCORE-3: more gems, then the lowest disc
    render=render_game,
    load_data=lambda rules: kernel_board(load_board(rules.board)),
    check_rules=check_rules,
    check_options=check_options,
    data_field="board",
)
