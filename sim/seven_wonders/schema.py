"""7 Wonders + Babel decision types and option features: what the engine fills per option, what strategies weigh.

Each decision fills its own run of columns (``choose`` scores only that span). Babylon B's 7th card is a turn
decision (the same uses of a card, SW-WONDER-5). With two players the controller's choices for the Free City are
decisions of their own (``free_city``, ``fc_payment``: SW-DEC-26), taken by the holder's strategy. The card-value
block (vp, shields, science, coins, res, guild) is laid out the same way in ``turn``, ``halikarnassos`` and
``free_city`` so one helper fills them.
"""

from __future__ import annotations

from sim.core.policy import DecisionSchema

CARD_VALUE = ("vp", "shields", "science", "coins", "res", "guild")
"""The card-value block, in column order: VP printed (blue card or stage), shields, science score gained, coins
received this turn, resource units produced per turn, end VP of a per-element card (Age III yellow, guilds) counted
now."""

GROUPS = (
    ("tile_draft", (  # BABEL-SETUP-3: keep one tile of those in front of me
        "td_tax",  # a tax tile (1/6/13/16): every build it names pays the Age value
        "td_bonus",  # a subsidy tile (5/14/24): builds earn coins
        "td_free",  # a cost-waiving tile (2/7/15/17/18/20/21): free resources, chains or costs
        "td_block",  # a blocking tile (3/4/8/23): production, discounts or resource payment switched off
        "td_trade_up",  # trade gets dearer (10/12)
        "td_trade_down",  # trade gets cheaper (9/11)
        "td_military",  # military tokens change (19/22)
    )),
    ("turn", (  # SW-ACT-1..3, BABEL-ACT-1, BABEL-GP-2: a card from the hand and its use
        "tu_build",  # build the structure
        "tu_stage",  # build the next Wonder stage
        "tu_sell",  # discard for coins
        "tu_tile",  # discard to build a Babel tile
        "tu_cost",  # coins paid (bank and neighbours)
        "tu_free",  # a structure built for free (chain, Olympia, free-build token)
        *(f"tu_{v}" for v in CARD_VALUE),
        "tu_mil",  # neighbours this build overtakes (or draws with) in military strength
        "tu_commerce",  # a trading card or a yellow card
        "tu_part",  # takes a Great Project participation token
        "tu_tile_vp",  # Babel VP gained by this tile (BABEL-SCORE-1: 2, 5, 10)
        "tu_special",  # the stage has a special action (Halikarnassos, Olympia, Babylon, copy a guild)
        "tu_chain",  # cards that chain from this structure (SW-CHAIN-1)
    )),
    ("payment", (  # SW-DEC-1: two equally cheap plans that pay the neighbours differently
        "pm_default",  # the simulator's default plan (pay the neighbour with fewer VP, then the left one)
        "pm_to_leader",  # coins this plan pays the neighbour with more VP
    )),
    ("halikarnassos", (  # SW-WONDER-4: a card from the discard pile, built for free, or nothing
        "ha_decline",
        *(f"ha_{v}" for v in CARD_VALUE),
        "ha_part",  # takes a Great Project participation token
    )),
    ("penalty", (  # BABEL-GP-14: which card or tokens a failed project takes
        "pn_vp",  # VP lost (the card's printed VP or the tokens' values)
        "pn_shields",  # shields lost
        "pn_res",  # resource units per turn lost
        "pn_defeat",  # the Defeat token of an unbearable penalty (its VP)
    )),
    ("free_city", (  # SW-2P-2 / SW-2P-4: the holder's pick of the Free City's card and use (or its Halikarnassos build)
        "fc_build",  # it builds the structure
        "fc_stage",  # it builds its next Wonder stage
        "fc_sell",  # it discards for coins (only when it cannot build)
        "fc_cost",  # coins it pays (bank and neighbours)
        *(f"fc_{v}" for v in CARD_VALUE),  # the card-value block, for the Free City
        "fc_mil_me",  # 1 if its shields reach or pass the controller's (a Defeat token for him looms)
        "fc_mil_rival",  # 1 if its shields reach or pass the other player's
    )),
    ("fc_payment", (  # SW-2P-4: which players the Free City buys from, whatever the price
        "fp_to_me",  # coins the plan pays the controller
        "fp_to_rival",  # coins the plan pays the other player
    )),
)

SCHEMA = DecisionSchema.from_groups(GROUPS)
D = SCHEMA.D
"""Decision name -> index (``D.turn``)."""
F = SCHEMA.F
"""Feature name -> column (``F.tu_vp``)."""
