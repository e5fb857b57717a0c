"""Sea Trade (WarpSpawn "PST"): trade commodities around a random Mediterranean of islands, pirates and storms.

How the simulator reads the rulebook: docs/rules/sea_trade.md.
"""

from __future__ import annotations

from sim.core.spec import GameSpec
from sim.sea_trade.board import build_geometry
from sim.sea_trade.checks import check_options
from sim.sea_trade.engine import setup_game  # noqa: F401 (binds the game's hooks to its state type)
from sim.sea_trade.records import GAME_COLUMNS, PLAYER_COLUMNS
from sim.sea_trade.replay import render_game
from sim.sea_trade.rules import Rules, check_rules
from sim.sea_trade.schema import SCHEMA
from sim.sea_trade.state import LAYOUT, N_MARKETS, allocate, max_options
from strategies.sea_trade import DEFAULT_LINEUP, STRATEGIES

SPEC = GameSpec(
    name="sea_trade",
    title="Sea Trade",
    min_players=2,
    max_players=N_MARKETS,
    rules_type=Rules,
    schema=SCHEMA,
    strategy_list=STRATEGIES,
    default_lineup=DEFAULT_LINEUP,
    game_columns=GAME_COLUMNS,
    player_columns=PLAYER_COLUMNS,
    layout=LAYOUT,
    allocate=allocate,
    max_options=max_options,
    option_width=4,
    n_keys=2,
    render=render_game,
    check_rules=check_rules,
    prepare=lambda st, data: build_geometry(st),
    check_options=check_options,
)
