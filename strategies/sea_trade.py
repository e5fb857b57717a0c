"""Sea Trade strategies: named play styles as data (weights over the decisions and features of
sim/sea_trade/schema.py)."""

from __future__ import annotations

from sim.core.policy import Strategy

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

STRATEGIES = (RANDOM, TRADER, RAIDER, BLOCKER, BALANCED)
DEFAULT_LINEUP = ("trader", "raider", "blocker", "balanced")
