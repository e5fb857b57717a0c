"""Pig strategies as data: weights over the hold decision's features (sim/pig/schema.py).

A strategy holds when the hold option outscores rolling again: ``turn`` weighted 1 and ``roll`` weighted N - 0.5
is "hold at N"; ``reaches`` weighted high always takes a winning hold.
"""

from __future__ import annotations

from sim.core.policy import Strategy

HOLD20 = Strategy("hold20", "holds once the turn total reaches 20, or when holding wins",
                  weights={"hold": {"roll": 19.5, "turn": 1.0, "reaches": 1000.0}})
ADAPTIVE = Strategy("adaptive", "race-aware: holds at 21, later when behind (1 point per 8 behind) and as the leading "
                                "rival nears the target (1 point per 5% of it), and always when holding wins",
                    weights={"hold": {"roll": 20.5, "turn": 1.0, "reaches": 1000.0, "behind": -0.125,
                                      "rival_progress": -0.2}})
CAUTIOUS = Strategy("cautious", "holds once the turn total reaches 10, or when holding wins",
                    weights={"hold": {"roll": 9.5, "turn": 1.0, "reaches": 1000.0}})
RANDOM = Strategy("random", "holds or rolls again with even odds", kind="random")

STRATEGIES = (RANDOM, HOLD20, ADAPTIVE, CAUTIOUS)
DEFAULT_LINEUP = ("hold20", "adaptive", "cautious")
