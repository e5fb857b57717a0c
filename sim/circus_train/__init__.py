"""Circus Train (Victory Point Games, 2nd edition): the GameSpec the runner plays (rules as read:
docs/rules/circus_train.md)."""

from __future__ import annotations

from sim.circus_train.checks import check_options
from sim.circus_train.data import kernel_data, load_data
from sim.circus_train.engine import setup_game  # noqa: F401 (binds the game's hooks to its state type)
from sim.circus_train.records import GAME_COLUMNS, PLAYER_COLUMNS
from sim.circus_train.replay import render_game
from sim.circus_train.rules import Rules, check_rules
from sim.circus_train.schema import SCHEMA
from sim.circus_train.state import LAYOUT, OPTION_WIDTH, allocate, max_options
from sim.core.spec import GameSpec
from strategies.circus_train import DEFAULT_LINEUP, STRATEGIES

SPEC = GameSpec(
    name="circus_train",
    title="Circus Train (Victory Point Games, 2nd edition)",
    min_players=1,
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
    option_width=OPTION_WIDTH,
    n_keys=4,
    render=render_game,
    load_data=lambda rules: kernel_data(load_data(rules.data or None)),
    check_rules=check_rules,
    check_options=check_options,
    data_field="data",
    seat_order_column="turn_order",
)
