"""Sea Trade strategies: the decision schema the engine fills and the registry of named play styles.

Features (facts the engine computes per option; all 0 when they do not apply to a decision):
  pass           1 for the stop / pass / decline option
  sale_gain      sail: steps closer to the best market for the current hold
  buy_gain       sail: steps closer to the best market to buy hand cards at
  arrive_sell    sail: gold the hold would fetch at the destination market
  arrive_buy     sail: cards that could be bought at the destination market
  row_card       1 if the option spends a Row card
  wind_card      1 if the option spends a Wind card
  steps          spaces moved
  danger         hold cards x (the option leaves the ship within 2 spaces of a pirate, outside a market)
  cards          buy: cards bought; sell: 1; start_market: cards of its commodity in hand
  gold           gold gained (negative when paying)
  regret         sell: how much more the card would likely fetch elsewhere (distance-discounted)
  win            sell: 1 if the sale reaches the winning gold
  my_gain        buy/offer/accept: estimated value gained by the deciding player
  partner_gain   offer/accept: estimated value gained by the other side of the exchange
  partner_leader offer/accept: 1 if the other side leads the opponents in gold
  plunder_cards  pirate: opponents' hold cards destroyed by the move
  plunder_leader pirate: 1 if the move plunders the gold leader
  threat_gain    pirate: change of opponents' cargo within 2 spaces of the pirate
  guard          pirate/storm: reduction of the pirate threat to the own hold
  blocks         pirate/storm: opponents whose shortest route to their target crosses the space
  blocks_leader  pirate/storm: 1 if the gold leader's route crosses the space
  self_block     pirate/storm: 1 if the own route crosses the space
  sale_dist      start_market: sea steps to the market most desiring this market's commodity
  unblock        pirate/storm: 1 if the move lifts a pirate or the storm off the own route while it is blocked
  hand_size      sail/pirate/storm: cards in hand on the options that spend one (a big hand makes cards cheap;
                 with no hand limit, strategies that never spend stall the game once every card is held)
"""

from __future__ import annotations

from strategies.core import DecisionSchema, Strategy, StrategyRegistry

FILLED = {
    "start_market": ("cards", "sale_dist"),
    "sail": ("pass", "sale_gain", "buy_gain", "arrive_sell", "arrive_buy", "row_card", "wind_card", "steps",
             "danger", "hand_size"),
    "buy": ("pass", "cards", "gold", "my_gain"),
    "sell": ("pass", "cards", "gold", "regret", "win"),
    "offer": ("pass", "my_gain", "partner_gain", "partner_leader"),
    "accept": ("pass", "my_gain", "partner_gain", "partner_leader"),
    "pirate": ("pass", "plunder_cards", "plunder_leader", "threat_gain", "guard", "blocks", "blocks_leader",
               "self_block", "unblock", "hand_size", "wind_card", "steps"),
    "storm": ("pass", "blocks", "blocks_leader", "self_block", "unblock", "guard", "hand_size"),
}
"""The features the engine fills per decision, for every option; the others are left stale and weigh 0 for it.
(A costly feature the deciding strategy weighs 0 may be left 0: it cannot change the pick.)"""

SCHEMA = DecisionSchema(
    decisions=("start_market", "sail", "buy", "sell", "offer", "accept", "pirate", "storm"),
    # Ordered so that the features each decision fills are one contiguous column span (see SPANS): the
    # engine scores only that span, which is exact since the other columns weigh 0 for it.
    features=(
        "sale_gain", "buy_gain", "arrive_sell", "arrive_buy", "row_card", "danger", "wind_card", "steps",
        "hand_size", "pass", "guard", "unblock", "blocks", "blocks_leader", "self_block", "plunder_cards",
        "plunder_leader", "threat_gain", "my_gain", "partner_gain", "partner_leader", "cards", "gold", "regret",
        "win", "sale_dist",
    ),
    filled=FILLED,
)

SPANS = tuple((min(SCHEMA.features.index(f) for f in FILLED[d]), 1 + max(SCHEMA.features.index(f) for f in FILLED[d]))
              for d in SCHEMA.decisions)
"""Per decision, the [lo, hi) feature columns holding all its filled features (what choose() scores)."""

_START = {"cards": 1.0, "sale_dist": -0.25}
_BUY = {"my_gain": 1.0, "gold": -0.05}
_SELL = {"gold": 1.0, "regret": -0.8, "win": 100.0}
_OFFER = {"pass": 0.2, "my_gain": 1.0, "partner_gain": 0.5, "partner_leader": -1.0}
_ACCEPT = {"pass": 0.1, "my_gain": 1.0, "partner_leader": -1.0}
_SAIL = {"sale_gain": 1.0, "buy_gain": 0.7, "arrive_sell": 0.3, "arrive_buy": 0.3,
         "row_card": -0.3, "wind_card": -0.2, "danger": -0.15, "hand_size": 0.015}

TRADER = Strategy(
    "trader",
    "plans buy-sail-sell runs: sails its cards towards the best sale (or buy) market, buys full loads, "
    "sells at once; plays pirates and storms only for a rich plunder",
    weights={
        "start_market": _START, "sail": _SAIL, "buy": _BUY, "sell": _SELL, "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "plunder_cards": 1.0, "plunder_leader": 1.0, "guard": 0.3, "wind_card": -1.5,
                   "self_block": -1.0, "unblock": 2.0, "hand_size": 0.1, "threat_gain": 0.05},
        "storm": {"pass": 1.0, "blocks_leader": 0.8, "guard": 0.3, "self_block": -2.0, "unblock": 2.0,
                  "hand_size": 0.08},
    },
)

RAIDER = Strategy(
    "raider",
    "trades, but rows to save Wind cards for the pirates: hunts loaded ships, the gold leader first",
    weights={
        "start_market": _START,
        "sail": dict(_SAIL, row_card=-0.1, wind_card=-1.2, hand_size=0.01),
        "buy": _BUY, "sell": _SELL, "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "plunder_cards": 1.5, "plunder_leader": 3.0, "threat_gain": 0.4, "guard": 0.3,
                   "wind_card": -0.3, "self_block": -0.5, "unblock": 2.0, "hand_size": 0.03},
        "storm": {"pass": 0.5, "blocks_leader": 1.0, "blocks": 0.3, "guard": 0.5, "self_block": -2.0,
                  "unblock": 2.0, "hand_size": 0.04},
    },
)

BLOCKER = Strategy(
    "blocker",
    "trades, and plays storms and pirates defensively: blocks opponents' routes to their sale markets "
    "and keeps pirates away from its own cargo",
    weights={
        "start_market": _START, "sail": dict(_SAIL, danger=-0.4), "buy": _BUY, "sell": _SELL,
        "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "blocks": 0.6, "blocks_leader": 0.8, "guard": 1.0, "plunder_cards": 0.5,
                   "plunder_leader": 0.5, "wind_card": -0.9, "self_block": -1.5, "unblock": 2.0,
                   "hand_size": 0.05},
        "storm": {"pass": 0.4, "blocks": 1.0, "blocks_leader": 1.2, "guard": 1.0, "self_block": -2.0,
                  "unblock": 2.0, "hand_size": 0.035},
    },
)

BALANCED = Strategy(
    "balanced",
    "a trader that also plunders and blocks the gold leader when it is cheap",
    weights={
        "start_market": _START, "sail": dict(_SAIL, wind_card=-0.4, danger=-0.3, hand_size=0.02), "buy": _BUY,
        "sell": _SELL,
        "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "plunder_cards": 1.0, "plunder_leader": 2.0, "guard": 0.6, "blocks_leader": 0.3,
                   "wind_card": -0.8, "self_block": -1.0, "unblock": 2.0, "hand_size": 0.06},
        "storm": {"pass": 0.6, "blocks_leader": 1.0, "guard": 0.6, "self_block": -2.0, "unblock": 2.0,
                  "hand_size": 0.05},
    },
)

RANDOM = Strategy("random", "picks uniformly among the legal options of every decision", kind="random")

REGISTRY = StrategyRegistry("sea_trade", SCHEMA, [RANDOM, TRADER, RAIDER, BLOCKER, BALANCED])
