"""Named Bus strategies: random plus heuristics a Bus player recognises; weights are data over the decisions
and features of sim/bus/schema.py."""

from __future__ import annotations

from sim.core.policy import Strategy

# Shared habits: where sticks, buildings, passengers and deliveries go when a strategy has no special view.
_STICK = {"st_new": 1.0, "st_pax": 0.8, "st_station": 1.2, "st_bld": 0.5, "st_space": 0.2, "st_future": 0.3,
          "st_toward": 0.4, "st_free": 0.5, "st_opp": -0.3, "st_loop": -0.8}
_SETUP_STICK = {"st_pax": 1.0, "st_station": 1.0, "st_bld": 0.6, "st_space": 0.3, "st_future": 0.3, "st_free": 1.0}
_BUILDING = {"bld_mine": 1.0, "bld_mine_only": 0.8, "bld_opp": -0.4, "bld_next": 0.8, "bld_after": 0.3,
             "bld_pax_here": -0.6}
_STATION = {"stn_mine": 1.0, "stn_opp": -0.5, "stn_pax": 0.1}
_CLOCK = {"stop": -1.0, "clock_gain": 1.0, "last_gem": -3.0, "end_win": 6.0, "lead": 0.0}
_FROM = {"from_opp": 0.5, "from_station": 0.2}
_TO = {"to_mine_only": 1.0, "to_opp": -0.3}
_PASS = {"pass": 0.3, "placed": 0.45, "cubes_left": -0.05}


def _weights(plan: dict, **over: dict) -> dict:
    """A full weight table: the shared habits, the strategy's planning weights, and any overrides."""
    table = {
        "plan_action": {**_PASS, **plan},
        "setup_building": dict(_BUILDING),
        "setup_stick": dict(_SETUP_STICK),
        "expand_stick": dict(_STICK),
        "passenger_station": dict(_STATION),
        "building": dict(_BUILDING),
        "clock": dict(_CLOCK),
        "delivery_from": dict(_FROM),
        "delivery_to": dict(_TO),
    }
    for decision, row in over.items():
        table[decision] = {**table[decision], **row}
    return table


_BASE_PLAN = {"vroom_est": 1.0, "act_bus": 0.6, "exp_effective": 0.15, "wasted": -3.0, "pax_effective": 0.15,
              "my_stations": 0.2, "bld_effective": 0.15, "act_clock": -0.9, "clock_gain": 0.9, "last_gem": -2.0,
              "end_win": 6.0, "start_gain": 0.25, "act_start": -0.1}

STRATEGIES = (
    Strategy("random", "uniform over the legal options at every decision", kind="random"),
    Strategy("balanced", "a bit of everything: grows the line, buys buses, drives when passengers wait",
             weights=_weights(_BASE_PLAN)),
    Strategy("commuter", "buses and Vrroomm!: buys early and drives every round there is someone to carry",
             weights=_weights({**_BASE_PLAN, "act_bus": 0.9, "vroom_est": 1.3, "bus_is_max": -0.2})),
    Strategy("expander", "network reach: long lines towards passengers, stations and free buildings",
             weights=_weights({**_BASE_PLAN, "exp_effective": 0.3, "act_bus": 0.4},
                              expand_stick={"st_toward": 0.8, "st_station": 1.6, "st_space": 0.4})),
    Strategy("builder", "buildings that feed its own line, of the type the clock will ask for",
             weights=_weights({**_BASE_PLAN, "bld_effective": 0.22, "exp_effective": 0.2},
                              building={"bld_mine": 1.5, "bld_mine_only": 1.2, "bld_next": 1.0},
                              setup_building={"bld_mine": 1.5, "bld_next": 1.0})),
    Strategy("clockmaster", "stops time when the current type favours its line, weighing the gem",
             weights=_weights({**_BASE_PLAN, "act_clock": -0.3, "clock_gain": 1.5, "end_win": 8.0, "last_gem": -1.0},
                              clock={"stop": -0.6, "clock_gain": 1.2, "lead": 0.1})),
)

DEFAULT_LINEUP = ("balanced", "commuter", "expander", "builder", "clockmaster")
