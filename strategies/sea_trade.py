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
  hand_size      pirate: cards in hand (a big hand makes spending Wind cards cheap)
"""

from __future__ import annotations

from strategies.core import DecisionSchema, Strategy, StrategyRegistry

SCHEMA = DecisionSchema(
    decisions=("start_market", "sail", "buy", "sell", "offer", "accept", "pirate", "storm"),
    features=(
        "pass", "sale_gain", "buy_gain", "arrive_sell", "arrive_buy", "row_card", "wind_card", "steps",
        "danger", "cards", "gold", "regret", "win", "my_gain", "partner_gain", "partner_leader",
        "plunder_cards", "plunder_leader", "threat_gain", "guard", "blocks", "blocks_leader", "self_block",
        "sale_dist", "unblock", "hand_size",
    ),
)

_START = {"cards": 1.0, "sale_dist": -0.25}
_BUY = {"my_gain": 1.0, "gold": -0.05}
_SELL = {"gold": 1.0, "regret": -0.8, "win": 100.0}
_OFFER = {"pass": 0.2, "my_gain": 1.0, "partner_gain": 0.5, "partner_leader": -1.0}
_ACCEPT = {"pass": 0.1, "my_gain": 1.0, "partner_leader": -1.0}
_SAIL = {"sale_gain": 1.0, "buy_gain": 0.7, "arrive_sell": 0.3, "arrive_buy": 0.3,
         "row_card": -0.3, "wind_card": -0.2, "danger": -0.15}

TRADER = Strategy(
    "trader",
    "plans buy-sail-sell runs: sails its cards towards the best sale (or buy) market, buys full loads, "
    "sells at once; plays pirates and storms only for a rich plunder",
    weights={
        "start_market": _START, "sail": _SAIL, "buy": _BUY, "sell": _SELL, "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "plunder_cards": 1.0, "plunder_leader": 1.0, "guard": 0.3, "wind_card": -1.5,
                   "self_block": -1.0, "unblock": 2.0, "hand_size": 0.1, "threat_gain": 0.05},
        "storm": {"pass": 1.0, "blocks_leader": 0.8, "guard": 0.3, "self_block": -2.0, "unblock": 2.0},
    },
)

RAIDER = Strategy(
    "raider",
    "trades, but rows to save Wind cards for the pirates: hunts loaded ships, the gold leader first",
    weights={
        "start_market": _START,
        "sail": dict(_SAIL, row_card=-0.1, wind_card=-1.2),
        "buy": _BUY, "sell": _SELL, "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "plunder_cards": 1.5, "plunder_leader": 3.0, "threat_gain": 0.4, "guard": 0.3,
                   "wind_card": -0.3, "self_block": -0.5, "unblock": 2.0},
        "storm": {"pass": 0.5, "blocks_leader": 1.0, "blocks": 0.3, "guard": 0.5, "self_block": -2.0,
                  "unblock": 2.0},
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
                  "unblock": 2.0},
    },
)

BALANCED = Strategy(
    "balanced",
    "a trader that also plunders and blocks the gold leader when it is cheap",
    weights={
        "start_market": _START, "sail": dict(_SAIL, wind_card=-0.4, danger=-0.3), "buy": _BUY, "sell": _SELL,
        "offer": _OFFER, "accept": _ACCEPT,
        "pirate": {"pass": 0.0, "plunder_cards": 1.0, "plunder_leader": 2.0, "guard": 0.6, "blocks_leader": 0.3,
                   "wind_card": -0.8, "self_block": -1.0, "unblock": 2.0, "hand_size": 0.06},
        "storm": {"pass": 0.6, "blocks_leader": 1.0, "guard": 0.6, "self_block": -2.0, "unblock": 2.0},
    },
)

RANDOM = Strategy("random", "picks uniformly among the legal options of every decision", kind="random")

REGISTRY = StrategyRegistry("sea_trade", SCHEMA, [RANDOM, TRADER, RAIDER, BLOCKER, BALANCED])
