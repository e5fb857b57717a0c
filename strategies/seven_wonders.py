"""Named 7 Wonders + Babel strategies: random plus the styles a player recognises; weights are data over the
decisions and features of sim/seven_wonders/schema.py."""

from __future__ import annotations

from sim.core.policy import Strategy, style_weights

# Shared habits: sensible play where a style has no special view (a VP is worth about a VP, coins a third).
_BASE = {
    "tile_draft": {"td_bonus": 0.5, "td_free": 0.4, "td_trade_down": 0.2, "td_tax": -0.2, "td_block": -0.1},
    "turn": {"tu_build": 1.0, "tu_stage": 0.8, "tu_sell": -0.5, "tu_tile": 0.2, "tu_cost": -0.3, "tu_free": 0.5,
             "tu_vp": 1.0, "tu_shields": 0.5, "tu_science": 0.8, "tu_coins": 0.3, "tu_res": 0.7, "tu_guild": 1.0,
             "tu_mil": 1.2, "tu_commerce": 0.2, "tu_part": 0.4, "tu_tile_vp": 0.5, "tu_special": 0.5,
             "tu_chain": 0.3},
    "payment": {"pm_default": 0.1, "pm_to_leader": -0.5},
    "halikarnassos": {"ha_decline": -1.0, "ha_vp": 1.0, "ha_shields": 0.5, "ha_science": 0.8, "ha_coins": 0.3,
                      "ha_res": 0.3, "ha_guild": 1.0, "ha_part": 0.4},
    "penalty": {"pn_vp": -1.0, "pn_shields": -0.3, "pn_res": -0.5, "pn_defeat": 1.0},
    # Two players (SW-DEC-26): the Free City's shields aimed at the rival, not at me; its production to buy from;
    # its coins kept low; its purchases paid to me.
    "free_city": {"fc_build": 0.2, "fc_mil_rival": 1.5, "fc_mil_me": -1.5, "fc_res": 0.3, "fc_coins": -0.1,
                  "fc_cost": 0.1},
    "fc_payment": {"fp_to_me": 1.0, "fp_to_rival": -1.0},
}


def _weights(**over: dict) -> dict:
    """The shared habits with a style's changes per decision."""
    return style_weights(_BASE, **over)


STRATEGIES = (
    Strategy("random", "uniform over the legal options at every decision", kind="random"),
    Strategy("military", "red cards and shield stages: beats both neighbours in every Age",
             weights=_weights(turn={"tu_shields": 1.5, "tu_mil": 3.0, "tu_science": 0.3, "tu_vp": 0.7},
                              halikarnassos={"ha_shields": 1.5})),
    Strategy("science", "green cards and wild symbols: sets and squares of compasses, gears and tablets",
             weights=_weights(turn={"tu_science": 2.0, "tu_shields": 0.2, "tu_mil": 0.6, "tu_chain": 0.5},
                              halikarnassos={"ha_science": 2.0})),
    Strategy("civic", "blue cards: the most printed VP, chained for free where possible",
             weights=_weights(turn={"tu_vp": 2.0, "tu_free": 1.0, "tu_chain": 0.6, "tu_science": 0.4},
                              halikarnassos={"ha_vp": 2.0})),
    Strategy("commerce", "coins, trading posts and production; cheap builds, yellow VP late",
             weights=_weights(turn={"tu_coins": 0.8, "tu_commerce": 1.5, "tu_res": 1.2, "tu_cost": -0.6,
                                    "tu_guild": 1.3, "tu_sell": 0.0},
                              payment={"pm_default": 0.5})),
    Strategy("wonder", "builds every Wonder stage early, valuing the stages' special actions",
             weights=_weights(turn={"tu_stage": 3.0, "tu_special": 1.5, "tu_vp": 1.2, "tu_res": 1.0})),
    Strategy("babel", "the expansion: builds its three Babel tiles, keeps the helpful ones, joins every project",
             weights=_weights(tile_draft={"td_bonus": 1.0, "td_free": 1.0, "td_trade_down": 0.6, "td_tax": -0.6,
                                          "td_military": 0.2},
                              turn={"tu_tile": 1.5, "tu_tile_vp": 0.7, "tu_part": 2.5},
                              halikarnassos={"ha_part": 2.0})),
)

DEFAULT_LINEUP = ("military", "science", "civic", "commerce", "wonder", "babel")
