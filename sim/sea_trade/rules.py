"""Sea Trade rules variants: every rulebook number is a named field (defaults and rule IDs: docs/rules/sea_trade.md)."""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.names import namespace

N_COMMODITIES = 6
N_WIND_DIRECTIONS = 8


@dataclass(frozen=True)
class Rules:
    """Numbers of the Sea Trade rulebook; the kernels read them through :meth:`to_array`."""

    grid_size: int = 8  # ST-COMP-1: 8 x 8 board
    islands: int = 10  # ST-COMP-2 / ST-SETUP-1: land markers
    markets: int = 6  # ST-COMP-3: the fixed market table (must stay 6)
    market_spacing: int = 2  # ST-SETUP-2: minimum Chebyshev distance between markets
    pirates: int = 2  # ST-COMP-2 / ST-SETUP-4: pirate ships
    commodity_copies: int = 4  # ST-COMP-4: cards per commodity
    row_cards: int = 6  # ST-COMP-4
    wind_copies: int = 3  # ST-COMP-4: cards per wind direction (8 directions)
    storm_cards: int = 4  # ST-COMP-4
    hand_start: int = 5  # ST-SETUP-6: cards dealt to each player
    draw_count: int = 3  # ST-TURN-1: cards drawn in the wind phase
    wind_max_steps: int = 2  # ST-SAIL-2 / ST-TURN-4: a wind card moves 1 or 2 spaces
    hold_size: int = 6  # ST-TRADE-3: hold capacity
    buy_price: int = 1  # ST-TRADE-2: gold per card bought
    sell_price: int = 2  # ST-TRADE-4: price for any commodity but the most desired
    desired_price: int = 3  # ST-TRADE-4: price for the market's most-desired commodity
    start_gold: int = 10  # ST-SETUP-9
    win_gold: int = 25  # ST-END-1
    round_cap: int = 200  # ST-END-2: rounds before a game ends as a timeout

    def deck_size(self) -> int:
        """Cards in the shared deck (58 by default, ST-COMP-4)."""
        return (N_COMMODITIES * self.commodity_copies + self.row_cards
                + N_WIND_DIRECTIONS * self.wind_copies + self.storm_cards)

    def validate(self) -> None:
        """Raise PlaytestError naming the first impossible value."""
        cells = self.grid_size * self.grid_size
        per_side = -(-self.grid_size // max(self.market_spacing, 1))
        checks = [
            (3 <= self.grid_size <= 16, "grid_size must be between 3 and 16"),
            (self.markets == 6, "markets must be 6 (the market table of ST-COMP-3 has exactly 6 markets)"),
            (self.islands >= 0 and self.pirates >= 0, "islands and pirates must be >= 0"),
            (self.islands + self.markets + self.pirates + 1 <= cells,
             f"islands + markets + pirates + 1 storm must fit the {cells} spaces of the grid"),
            (self.islands <= cells // 2, f"islands must be at most half the board ({cells // 2}) "
                                         "so that markets can be joined by sea"),
            (self.market_spacing >= 1, "market_spacing must be >= 1"),
            (per_side * per_side >= self.markets,
             f"market_spacing {self.market_spacing} leaves no room for 6 markets on a {self.grid_size}-grid"),
            (min(self.commodity_copies, self.row_cards, self.wind_copies, self.storm_cards) >= 0,
             "card counts must be >= 0"),
            (self.deck_size() >= 1, "the deck must hold at least one card"),
            (self.hand_start >= 0 and self.draw_count >= 0, "hand_start and draw_count must be >= 0"),
            (1 <= self.wind_max_steps < self.grid_size, "wind_max_steps must be between 1 and grid_size - 1"),
            (self.hold_size >= 1, "hold_size must be >= 1"),
            (self.buy_price >= 0, "buy_price must be >= 0"),
            (self.sell_price >= 1 and self.desired_price >= 1, "sell_price and desired_price must be >= 1"),
            (self.start_gold >= 0, "start_gold must be >= 0"),
            (self.win_gold > self.start_gold, "win_gold must be greater than start_gold"),
            (1 <= self.round_cap <= 100_000, "round_cap must be between 1 and 100000"),
        ]
        for ok, msg in checks:
            if not ok:
                raise PlaytestError(f"sea_trade rules: {msg}; fix the --set value")

    def to_array(self) -> np.ndarray:
        """The rule numbers as int64, indexed by the R_* constants (field order)."""
        return np.array(astuple(self), dtype=np.int64)


R = namespace("R", [f.name for f in fields(Rules)])
"""Rules field -> index in ``to_array`` (``rules[R.win_gold]``)."""
