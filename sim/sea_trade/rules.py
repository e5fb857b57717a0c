"""Sea Trade rules variants: every rulebook number is a named field (defaults and rule IDs: docs/rules/sea_trade.md)."""

from __future__ import annotations

from dataclasses import dataclass

from sim.core.fields import field
from sim.core.rules import RulesFields, kernel_namespace, require

N_COMMODITIES = 6
N_WIND_DIRECTIONS = 8
SEAT_GOLD_MAX = 10
"""Most extra starting gold a seat may get (ST-SEAT-1: seat compensation, not in the rulebook)."""


@dataclass(frozen=True)
class Rules(RulesFields):
    """Numbers of the Sea Trade rulebook; the kernels read them through ``to_array`` and ``R``."""

    grid_size: int = field(8, ge=3, le=16, rule="ST-COMP-1", doc="the board is grid_size x grid_size")
    islands: int = field(10, ge=0, le=128, rule="ST-COMP-2", doc="land markers (at most half the board)")
    markets: int = field(6, ge=6, le=6, rule="ST-COMP-3", doc="the fixed market table has exactly 6 markets")
    market_spacing: int = field(2, ge=1, le=8, rule="ST-SETUP-2", doc="least Chebyshev distance between markets")
    pirates: int = field(2, ge=0, le=20, rule="ST-SETUP-4", doc="pirate ships")
    commodity_copies: int = field(4, ge=0, le=20, rule="ST-COMP-4", doc="cards per commodity")
    row_cards: int = field(6, ge=0, le=20, rule="ST-COMP-4", doc="row cards in the deck")
    wind_copies: int = field(3, ge=0, le=20, rule="ST-COMP-4", doc="cards per wind direction (8 directions)")
    storm_cards: int = field(4, ge=0, le=20, rule="ST-COMP-4", doc="storm cards in the deck")
    hand_start: int = field(5, ge=0, le=30, rule="ST-SETUP-6", doc="cards dealt to each player")
    draw_count: int = field(3, ge=0, le=10, rule="ST-TURN-1", doc="cards drawn in the wind phase")
    wind_max_steps: int = field(2, ge=1, le=15, rule="ST-SAIL-2", doc="spaces a wind card moves, at most")
    hold_size: int = field(6, ge=1, le=30, rule="ST-TRADE-3", doc="hold capacity")
    buy_price: int = field(1, ge=0, le=20, rule="ST-TRADE-2", doc="gold per card bought")
    sell_price: int = field(2, ge=1, le=20, rule="ST-TRADE-4", doc="price of any commodity but the most desired")
    desired_price: int = field(3, ge=1, le=20, rule="ST-TRADE-4", doc="price of the market's most-desired commodity")
    start_gold: int = field(10, ge=0, le=100, rule="ST-SETUP-9", doc="gold each player starts with")
    win_gold: int = field(25, ge=1, le=200, rule="ST-END-1", doc="gold that wins (above start_gold)")
    round_cap: int = field(200, ge=1, le=100_000, rule="ST-END-2", doc="rounds before a game ends as a timeout")
    seat2_gold: int = field(0, ge=0, le=SEAT_GOLD_MAX, rule="ST-SEAT-1", doc="extra starting gold for seat 2")
    seat3_gold: int = field(0, ge=0, le=SEAT_GOLD_MAX, rule="ST-SEAT-1", doc="extra starting gold for seat 3")
    seat4_gold: int = field(0, ge=0, le=SEAT_GOLD_MAX, rule="ST-SEAT-1", doc="extra starting gold for seat 4")
    seat5_gold: int = field(0, ge=0, le=SEAT_GOLD_MAX, rule="ST-SEAT-1", doc="extra starting gold for seat 5")
    seat6_gold: int = field(0, ge=0, le=SEAT_GOLD_MAX, rule="ST-SEAT-1", doc="extra starting gold for seat 6")

    def seat_gold(self) -> tuple[int, ...]:
        """Extra starting gold per seat, seat 1 first (ST-SEAT-1: seat 1 gets none)."""
        return (0, self.seat2_gold, self.seat3_gold, self.seat4_gold, self.seat5_gold, self.seat6_gold)

    def seat_units_per_point(self) -> float:
        """ST-SEAT-1: the score is the gold."""
        return 1.0

    def deck_size(self) -> int:
        """Cards in the shared deck (58 by default, ST-COMP-4)."""
        return (N_COMMODITIES * self.commodity_copies + self.row_cards
                + N_WIND_DIRECTIONS * self.wind_copies + self.storm_cards)


def check_rules(rules: Rules, n_players: int, data: object) -> None:
    """The cross-field checks (each field's own bounds are declared): raise PlaytestError on the first."""
    cells = rules.grid_size * rules.grid_size
    per_side = -(-rules.grid_size // rules.market_spacing)
    checks = [
        (rules.islands + rules.markets + rules.pirates + 1 <= cells,
         f"islands + markets + pirates + 1 storm must fit the {cells} spaces of the grid"),
        (rules.islands <= cells // 2, f"islands must be at most half the board ({cells // 2}) "
                                     "so that markets can be joined by sea"),
        (per_side * per_side >= rules.markets,
         f"market_spacing {rules.market_spacing} leaves no room for 6 markets on a {rules.grid_size}-grid"),
        (rules.deck_size() >= 1, "the deck must hold at least one card"),
        (rules.wind_max_steps < rules.grid_size, "wind_max_steps must be below grid_size"),
        (rules.win_gold > rules.start_gold, "win_gold must be greater than start_gold"),
        (rules.win_gold > rules.start_gold + max(rules.seat_gold()),
         "win_gold must be greater than start_gold plus every seat's extra gold (seatK_gold)"),
    ]
    require("sea_trade", checks)


R = kernel_namespace(Rules)
"""Rules field -> index in ``to_array`` (``rules[R.win_gold]``)."""
