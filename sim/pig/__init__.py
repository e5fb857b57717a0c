"""Pig, the dice game: roll a die as often as you dare, a 1 loses the turn, hold to bank; first to 100 wins.

The reference game of the contract (docs/adding-a-game.md); how the simulator reads the rules: docs/rules/pig.md.
"""

from __future__ import annotations

from sim.core.checks import option_checker
from sim.core.replay import event_renderer
from sim.core.spec import GameSpec
from sim.pig.checks import compare, scramble
from sim.pig.engine import LAYOUT
from sim.pig.rules import Rules
from sim.pig.schema import EVENT_TEXTS, GAME_COLUMNS, PLAYER_COLUMNS, SCHEMA
from strategies.pig import DEFAULT_LINEUP, STRATEGIES

SPEC = GameSpec(
    name="pig", title="Pig", min_players=2, max_players=6, rules_type=Rules, schema=SCHEMA,
    strategy_list=STRATEGIES, default_lineup=DEFAULT_LINEUP, game_columns=GAME_COLUMNS, player_columns=PLAYER_COLUMNS,
    layout=LAYOUT, max_options=lambda rules, n_players, data: 2, render=event_renderer("Pig", EVENT_TEXTS),
    check_options=option_checker("pig", scramble, compare),
)
