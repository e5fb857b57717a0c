"""7 Wonders (1st edition) with both Babel modules: the GameSpec the runner plays (rules as read:
docs/rules/seven_wonders.md)."""

from __future__ import annotations

from sim.core.spec import GameSpec
from sim.seven_wonders.checks import check_options
from sim.seven_wonders.data import kernel_data
from sim.seven_wonders.engine import setup_game  # noqa: F401 (binds the game's hooks to its state type)
from sim.seven_wonders.records import GAME_COLUMNS, PLAYER_COLUMNS
from sim.seven_wonders.replay import render_game
from sim.seven_wonders.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, check_rules
from sim.seven_wonders.schema import SCHEMA
from sim.seven_wonders.state import LAYOUT, OPTION_WIDTH, allocate, max_options
from strategies.seven_wonders import DEFAULT_LINEUP, STRATEGIES

SPEC = GameSpec(
    name="seven_wonders",
    title="7 Wonders (1st edition) + Babel",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
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
    n_keys=2,
    render=render_game,
    load_data=lambda rules: kernel_data(rules.data or None),
    check_rules=check_rules,
    check_options=check_options,
    data_field="data",
)
