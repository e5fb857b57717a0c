"""7 Wonders + Babel rules: every rulebook number, module switch and balance-relevant SW-DEC decision as a field."""

from __future__ import annotations

from dataclasses import dataclass

from sim.core.fields import field
from sim.core.rules import RulesFields, kernel_namespace, require

MIN_PLAYERS = 2  # two players add the Free City (SW-2P-1)
MAX_PLAYERS = 7
WONDER_SIDES = ("A", "B", "random")
MAX_VICTORY = 20
"""The largest Victory token value a rule (victory_age1..3) or a Great Project may give: it sizes the state's
token array and the tile-19 map (sim/seven_wonders/data.py, state.py), so every value the fields accept is held.
Two-token penalty options then number at most 20 * 21 / 2 = 210, inside the option buffer (state.MAX_OPT)."""
SEAT_COINS_MAX = 12
"""Most extra starting coins a seat may get (SW-SEAT-1: seat compensation, not in the rulebook): 4 treasury VP."""


@dataclass(frozen=True)
class Rules(RulesFields):
    """Defaults follow the first-edition rules and the Polish Babel rulebook (docs/rules/seven_wonders.md)."""

    start_coins: int = field(3, ge=0, le=50, rule="SW-SETUP-1", doc="coins each player starts with")
    wonder_sides: int = field(0, ge=0, le=2, rule="SW-SETUP-1", doc="0 = all side A, 1 = all side B, 2 = a random "
                                                                     "side per player")
    extra_guilds: int = field(2, ge=0, le=2, rule="SW-SETUP-2", doc="guilds beyond one per player in Age III")
    hand_size: int = field(7, ge=7, le=7, rule="SW-SETUP-3", doc="cards dealt per Age (fixed by the decks)")
    turns_per_age: int = field(6, ge=1, le=6, rule="SW-TURN-1", doc="turns per Age (the 7th card is discarded)")
    discard_coins: int = field(3, ge=0, le=20, rule="SW-ACT-3", doc="coins for discarding a card")
    trade_price: int = field(2, ge=0, le=9, rule="SW-TRADE-1", doc="coins per resource bought from a neighbour")
    discount_price: int = field(1, ge=0, le=9, rule="SW-TRADE-3", doc="the price with a trading post or market "
                                                                       "(at most trade_price)")
    victory_age1: int = field(1, ge=0, le=MAX_VICTORY, rule="SW-MIL-2", doc="the Age I Victory token")
    victory_age2: int = field(3, ge=0, le=MAX_VICTORY, rule="SW-MIL-2", doc="the Age II Victory token")
    victory_age3: int = field(5, ge=0, le=MAX_VICTORY, rule="SW-MIL-2", doc="the Age III Victory token")
    defeat_vp: int = field(1, ge=0, le=20, rule="SW-MIL-2", doc="a Defeat token is worth -defeat_vp")
    coins_per_vp: int = field(3, ge=1, le=99, rule="SW-END-1", doc="coins per treasury VP")
    science_set_vp: int = field(7, ge=0, le=50, rule="SW-SCI-1", doc="VP per set of three different symbols")
    babel_tower: bool = field(True, rule="BABEL-MOD-1", doc="the Tower of Babel module")
    great_projects: bool = field(True, rule="BABEL-MOD-1", doc="the Great Projects module")
    babel_tiles_dealt: int = field(3, ge=3, le=3, rule="BABEL-SETUP-2", doc="Babel tiles dealt to each player")
    trade_tie_prefers_fewer_vp: bool = field(True, rule="SW-DEC-1", doc="equal-cost plans pay the neighbour with "
                                                                        "fewer VP (else the left one)")
    commerce_counts_after_placement: bool = field(True, rule="SW-DEC-3", doc="Vineyard, Bazar and Age III yellow "
                                                                             "cards count this turn's cards")
    halikarnassos_sees_last_discards: bool = field(True, rule="SW-DEC-4", doc="a turn-6 stage may take the "
                                                                              "discarded 7th cards")
    gp_lost_card_to_discard: bool = field(False, rule="SW-DEC-5", doc="a card lost to a penalty goes to the "
                                                                      "discard (False: it leaves the game)")
    olympia_copy_from_copier_seat: bool = field(True, rule="SW-DEC-6", doc="the copied guild counts the copier's "
                                                                           "neighbours")
    seventh_card_any_action: bool = field(True, rule="SW-DEC-8", doc="Babylon B's 7th card may also build a "
                                                                     "Babel tile")
    coin_tiles_spare_free_builds: bool = field(True, rule="SW-DEC-10", doc="tiles 8/23 leave Olympia and "
                                                                           "free-build tokens free")
    neighbour_chain_counts_as_chain: bool = field(True, rule="SW-DEC-11", doc="a tile-7 chain is a chain for "
                                                                              "tiles 13/14 and GP-4")
    tile22_each_token_counts: bool = field(True, rule="SW-DEC-12", doc="both -1 tokens of tile 22 count for "
                                                                       "Strategists")
    tax_tiles_literal: bool = field(False, rule="SW-DEC-14", doc="every tax tile taxes every structure and stage")
    tiles_2_15_swapped: bool = field(False, rule="SW-DEC-15", doc="swap tiles 2 and 15 (sensitivity only)")
    tile3_blocks_sale: bool = field(True, rule="SW-DEC-16", doc="tile 3's cards cannot be bought from either")
    tile4_blocks_production: bool = field(True, rule="SW-DEC-16", doc="tile 4 also stops Forum / Caravansery "
                                                                      "production")
    gp_coin_penalty_fixed: int = field(0, ge=0, le=99, rule="SW-DEC-18", doc="0 = give all coins; k > 0 = give k "
                                                                             "coins (fewer = unbearable)")
    lose_board_twice_unbearable: bool = field(True, rule="SW-DEC-19", doc="a second lose-board penalty gives a "
                                                                          "Defeat token")
    gp_overflow_success: bool = field(True, rule="SW-DEC-20", doc="reserve tokens taken in the last turn make a "
                                                                  "success")
    river_port_coins: int = field(2, ge=0, le=9, rule="SW-DEC-25", doc="River Port participation coins (2 = the "
                                                                       "rulebook example, 1 = a secondary source)")
    gp_partial_victory_loss: bool = field(False, rule="SW-DEC-27", doc="lose the tokens held when fewer than "
                                                                       "required")
    data: str = field("", rule="SW-STUDY-5", doc='a designer\'s component directory ("" = the packaged files)')
    seat2_coins: int = field(0, ge=0, le=SEAT_COINS_MAX, rule="SW-SEAT-1", doc="extra starting coins for seat 2")
    seat3_coins: int = field(0, ge=0, le=SEAT_COINS_MAX, rule="SW-SEAT-1", doc="extra starting coins for seat 3")
    seat4_coins: int = field(0, ge=0, le=SEAT_COINS_MAX, rule="SW-SEAT-1", doc="extra starting coins for seat 4")
    seat5_coins: int = field(0, ge=0, le=SEAT_COINS_MAX, rule="SW-SEAT-1", doc="extra starting coins for seat 5")
    seat6_coins: int = field(0, ge=0, le=SEAT_COINS_MAX, rule="SW-SEAT-1", doc="extra starting coins for seat 6")
    seat7_coins: int = field(0, ge=0, le=SEAT_COINS_MAX, rule="SW-SEAT-1", doc="extra starting coins for seat 7")

    def seat_units_per_point(self) -> float:
        """SW-SEAT-1: a coin kept to the end is worth 1/coins_per_vp VP (SW-END-1), so a point is that many coins
        (a lower bound on a starting coin's worth: it can also buy)."""
        return float(self.coins_per_vp)


R = kernel_namespace(Rules)
"""Kernel indices into ``Rules.to_array()`` (the string field ``data`` is read by the loader, not the kernels)."""


def check_rules(rules: Rules, n_players: int, data: object) -> None:
    """The cross-field checks (each field's own bounds are declared)."""
    require("seven_wonders", [(rules.discount_price <= rules.trade_price, "discount_price must not exceed trade_price")])
