"""Bus decision types and option features: what the engine fills per option, what strategies weigh."""

from __future__ import annotations

from sim.core.policy import DecisionSchema

DECISIONS = (
    "plan_action",  # one cube on an action slot, or pass (BUS-PLAN-*)
    "setup_building",  # zone-A space and type (BUS-SETUP-7)
    "setup_stick",  # any street for the first stick (BUS-SETUP-8)
    "expand_stick",  # (end, street) from the legal set (BUS-EXP-*, BUS-SETUP-9)
    "passenger_station",  # which station gets the next passenger (BUS-PAX-2)
    "building",  # space in the open zone and type (BUS-BLD-2)
    "clock",  # let time run or stop it (BUS-CLOCK-2)
    "delivery_from",  # which waiting passenger's intersection (BUS-VROOM-6)
    "delivery_to",  # which empty target building's intersection (BUS-VROOM-6)
)

# Features: facts about one option (unused columns stay 0), grouped by the decision that fills them.
FEATURES = (
    "bias",  # always 1
    "bld_mine",  # building: its intersection is on my line
    "bld_opp",  # building: opponents' lines touching its intersection
    "bld_next",  # building: its type is the expected next Vrroomm! target
    "bld_now",  # building: its type is the type the clock shows now
    "bld_after",  # building: its type is the one after the next
    "bld_pax_here",  # building: passengers at its intersection, if its type is the expected target
    "bld_mine_only",  # building: on my line and on no opponent's
    "stn_opp",  # station: opponents' lines touching it
    "stn_mine",  # station: it is on my line
    "stn_pax",  # station: passengers already waiting there
    "from_station",  # delivery: the passenger waits at a station
    "from_opp",  # delivery: opponents' lines touching the pick-up intersection
    "to_opp",  # delivery: opponents' lines touching the drop-off intersection
    "to_mine_only",  # delivery: drop-off only on my line (the passenger stays mine next time)
    "st_free",  # stick: the street holds no stick
    "st_new",  # stick: it reaches an intersection not yet on my line
    "st_pax",  # stick: passengers at the new intersection (0 if already on my line)
    "st_station",  # stick: the new intersection is a station (0 if already on my line)
    "st_bld",  # stick: buildings at the new intersection (0 if already on my line)
    "st_space",  # stick: empty building spaces at the new intersection (0 if on my line)
    "st_future",  # stick: free streets leaving the new end (future moves)
    "st_toward",  # stick: hops gained towards the nearest passenger off my line
    "st_opp",  # stick: opponents with a stick on the street
    "st_loop",  # stick: the street closes a loop (the new end was already on my line)
    "stop",  # clock: the option is "stop time"
    "clock_gain",  # deliveries gained by stopping time (current type minus next type)
    "last_gem",  # stopping takes the last gem (ends the game)
    "end_win",  # stopping ends the game and I win alone
    "lead",  # my score minus the best opponent score (points - gems)
    "gems_left",  # gems still on the clock
    "my_gems",
    "pass",  # plan: the option is "pass"
    "act_exp",  # plan: one-hot action (7 columns in resolution order)
    "act_bus",
    "act_pax",
    "act_bld",
    "act_clock",
    "act_vroom",
    "act_start",
    "slot",  # slot index k (a = 0)
    "amount",  # what the slot gives at the current M (sticks, passengers, buildings)
    "wasted",  # 1 when an amount action's slot gives 0 at the current M
    "vroom_est",  # my deliveries for one more Vrroomm! at the expected target type
    "bus_is_max",  # buying a bus raises M (I hold the most buses)
    "bus_behind",  # M minus my buses
    "pax_effective",  # passengers the slot would really place (supply limited)
    "my_stations",  # stations on my line
    "exp_effective",  # sticks the slot would really give (limited by my sticks left)
    "bld_effective",  # buildings the slot would really place (limited by empty spaces)
    "start_gain",  # taking Starting player changes who starts next round
    "round",  # pass: current round (1-based)
    "cubes_left",  # pass: my action cubes left
    "placed",  # pass: cubes I placed this round
)


_BUILDING = ("bias", "bld_mine", "bld_opp", "bld_next", "bld_now", "bld_after", "bld_pax_here", "bld_mine_only")
_STICK = ("bias", "st_free", "st_new", "st_pax", "st_station", "st_bld", "st_space", "st_future", "st_opp")
_CLOCK = ("clock_gain", "last_gem", "end_win", "lead", "gems_left", "my_gems")

FILLED = {
    "plan_action": ("bias", *_CLOCK, "pass", "act_exp", "act_bus", "act_pax", "act_bld", "act_clock", "act_vroom",
                    "act_start", "slot", "amount", "wasted", "vroom_est", "bus_is_max", "bus_behind", "pax_effective",
                    "my_stations", "exp_effective", "bld_effective", "start_gain", "round", "cubes_left", "placed"),
    "setup_building": _BUILDING,
    "setup_stick": _STICK,
    "expand_stick": (*_STICK, "st_toward", "st_loop"),
    "passenger_station": ("bias", "stn_opp", "stn_mine", "stn_pax"),
    "building": _BUILDING,
    "clock": ("bias", "stop", *_CLOCK),
    "delivery_from": ("bias", "from_station", "from_opp"),
    "delivery_to": ("bias", "to_opp", "to_mine_only"),
}
"""The features each decision's options carry, exactly the ones the engine writes for it (the others stay 0 and
are never read: a weight on one is refused, and tuning does not search it)."""

SCHEMA = DecisionSchema(DECISIONS, FEATURES, FILLED)
D = SCHEMA.D
"""Decision name -> index (``D.expand_stick``)."""
F = SCHEMA.F
"""Feature name -> column (``F.st_new``)."""
