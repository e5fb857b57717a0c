"""7 Wonders + Babel rules: every rulebook number, module switch and balance-relevant SW-DEC decision as a field."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.names import namespace

MIN_PLAYERS = 2  # two players add the Free City (SW-2P-1)
MAX_PLAYERS = 7
WONDER_SIDES = ("A", "B", "random")
MAX_VICTORY = 20
"""The largest Victory token value a rule (victory_age1..3) or a Great Project may give: it sizes the state's
token array and the tile-19 map (sim/seven_wonders/data.py, state.py), so every value the fields accept is held.
Two-token penalty options then number at most 20 * 21 / 2 = 210, inside the option buffer (state.MAX_OPT)."""


@dataclass(frozen=True)
class Rules:
    """Defaults follow the first-edition rules and the Polish Babel rulebook (docs/rules/seven_wonders.md)."""

    start_coins: int = 3  # SW-SETUP-1
    wonder_sides: int = 0  # SW-SETUP-1: 0 = all side A, 1 = all side B, 2 = random side per player
    extra_guilds: int = 2  # SW-SETUP-2: N + 2 guilds in the Age III deck
    hand_size: int = 7  # SW-SETUP-3
    turns_per_age: int = 6  # SW-TURN-1 (the last card of turn 6 is discarded, SW-TURN-3)
    discard_coins: int = 3  # SW-ACT-3
    trade_price: int = 2  # SW-TRADE-1
    discount_price: int = 1  # SW-TRADE-3
    victory_age1: int = 1  # SW-MIL-2
    victory_age2: int = 3  # SW-MIL-2
    victory_age3: int = 5  # SW-MIL-2
    defeat_vp: int = 1  # SW-MIL-2: a Defeat token is worth -defeat_vp
    coins_per_vp: int = 3  # SW-END-1: treasury floor(coins / 3)
    science_set_vp: int = 7  # SW-SCI-1
    babel_tower: bool = True  # BABEL-MOD-1: the Tower of Babel module
    great_projects: bool = True  # BABEL-MOD-1: the Great Projects module
    babel_tiles_dealt: int = 3  # BABEL-SETUP-2 / BABEL-ACT-2
    trade_tie_prefers_fewer_vp: bool = True  # SW-DEC-1: equal-cost plans pay the neighbour with fewer VP (else left)
    commerce_counts_after_placement: bool = True  # SW-DEC-3: Vineyard/Bazar/Age III yellow count this turn's cards
    halikarnassos_sees_last_discards: bool = True  # SW-DEC-4: a turn-6 stage may take the discarded 7th cards
    gp_lost_card_to_discard: bool = False  # SW-DEC-5: False = a card lost to a penalty leaves the game
    olympia_copy_from_copier_seat: bool = True  # SW-DEC-6: the copied guild counts the copier's neighbours
    seventh_card_any_action: bool = True  # SW-DEC-8: Babylon B's 7th card may also build a Babel tile
    coin_tiles_spare_free_builds: bool = True  # SW-DEC-10: tiles 8/23 leave Olympia / free-build tokens free
    neighbour_chain_counts_as_chain: bool = True  # SW-DEC-11: a tile-7 chain is a chain for tiles 13/14, GP-4
    tile22_each_token_counts: bool = True  # SW-DEC-12: both -1 tokens of tile 22 count for Strategists
    tax_tiles_literal: bool = False  # SW-DEC-14: True = every tax tile taxes every structure and stage
    tiles_2_15_swapped: bool = False  # SW-DEC-15: sensitivity only
    tile3_blocks_sale: bool = True  # SW-DEC-16: tile 3's cards cannot be bought from either
    tile4_blocks_production: bool = True  # SW-DEC-16: tile 4 also stops Forum / Caravansery production
    gp_coin_penalty_fixed: int = 0  # SW-DEC-18: 0 = give all coins; k > 0 = give k coins (fewer = unbearable)
    lose_board_twice_unbearable: bool = True  # SW-DEC-19: a second lose-board penalty -> Defeat token
    gp_overflow_success: bool = True  # SW-DEC-20: reserve tokens taken in the last turn make a success
    river_port_coins: int = 2  # SW-DEC-25: 2 = rulebook example, 1 = secondary source
    gp_partial_victory_loss: bool = False  # SW-DEC-27: True = lose the tokens held when fewer than required
    data: str = ""  # --set data=DIR: a designer's component directory ("" = the packaged files)

    def validate(self, n_players: int | None = None) -> None:
        """Raise PlaytestError naming the first impossible value (for an ``n_players`` game when given)."""
        if n_players is not None and not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
            raise PlaytestError(f"seven_wonders: {n_players} players is not supported; play {MIN_PLAYERS} to "
                                f"{MAX_PLAYERS} players (two play with the Free City, SW-2P-1)")
        bounds = {"start_coins": (0, 50), "wonder_sides": (0, 2), "extra_guilds": (0, 2), "hand_size": (7, 7),
                  "turns_per_age": (1, 6), "discard_coins": (0, 20), "trade_price": (0, 9),
                  "discount_price": (0, 9), "victory_age1": (0, MAX_VICTORY),
                  "victory_age2": (0, MAX_VICTORY), "victory_age3": (0, MAX_VICTORY), "defeat_vp": (0, 20), "coins_per_vp": (1, 99),
                  "science_set_vp": (0, 50), "babel_tiles_dealt": (3, 3), "gp_coin_penalty_fixed": (0, 99),
                  "river_port_coins": (0, 9)}
        for name, (low, high) in bounds.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise PlaytestError(f"seven_wonders rules: {name}={value} must be between {low} and {high}; "
                                    f"fix the --set value")
        if self.discount_price > self.trade_price:
            raise PlaytestError("seven_wonders rules: discount_price must not exceed trade_price; fix the --set value")

    def to_array(self) -> np.ndarray:
        """The kernel view: the numeric fields (bools as 0/1) in field order, indexed by ``R``."""
        return np.array([int(getattr(self, name)) for name in R._fields], dtype=np.int64)


R = namespace("R", [f.name for f in fields(Rules) if f.type in ("int", "bool")])
"""Kernel indices into ``Rules.to_array()`` (the string field ``data`` is read by the loader, not the kernels)."""
