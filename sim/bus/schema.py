"""Bus decision types and option features (the DecisionSchema shared by the kernel and strategies/bus.py)."""

from __future__ import annotations

from strategies.core import DecisionSchema

# Decisions, in kernel order.
D_PLAN = 0  # plan_action: one cube on an action slot, or pass (BUS-PLAN-*)
D_SETUP_BUILDING = 1  # setup_building: zone-A space and type (BUS-SETUP-7)
D_SETUP_STICK = 2  # setup_stick: any street for the first stick (BUS-SETUP-8)
D_EXPAND = 3  # expand_stick: (end, street) from the legal set (BUS-EXP-*, BUS-SETUP-9)
D_STATION = 4  # passenger_station: which station gets the next passenger (BUS-PAX-2)
D_BUILDING = 5  # building: space in the open zone and type (BUS-BLD-2)
D_CLOCK = 6  # clock: let time run or stop it (BUS-CLOCK-2)
D_FROM = 7  # delivery_from: which waiting passenger's intersection (BUS-VROOM-6)
D_TO = 8  # delivery_to: which empty target building's intersection (BUS-VROOM-6)
DECISIONS = ("plan_action", "setup_building", "setup_stick", "expand_stick", "passenger_station", "building",
             "clock", "delivery_from", "delivery_to")

# Features: facts about one option (unused columns stay 0). Grouped by decision so that a decision scores
# only the leading W_* columns it uses (building first: it has the most options per decision).
F_BIAS = 0  # always 1
F_BLD_MINE = 1  # building: its intersection is on my line
F_BLD_OPP = 2  # building: opponents' lines touching its intersection
F_BLD_NEXT = 3  # building: its type is the expected next Vrroomm! target
F_BLD_NOW = 4  # building: its type is the type the clock shows now
F_BLD_AFTER = 5  # building: its type is the one after the next
F_BLD_PAX_HERE = 6  # building: passengers at its intersection, if its type is the expected target
F_BLD_MINE_ONLY = 7  # building: on my line and on no opponent's
W_BUILDING = 8
F_STN_OPP = 8  # station: opponents' lines touching it
F_STN_MINE = 9  # station: it is on my line
F_STN_PAX = 10  # station: passengers already waiting there
W_STATION = 11
F_FROM_STATION = 11  # delivery: the passenger waits at a station
F_FROM_OPP = 12  # delivery: opponents' lines touching the pick-up intersection
F_TO_OPP = 13  # delivery: opponents' lines touching the drop-off intersection
F_TO_MINE_ONLY = 14  # delivery: drop-off only on my line (the passenger stays mine next time)
W_DELIVERY = 15
F_ST_FREE = 15  # stick: the street holds no stick
F_ST_NEW = 16  # stick: it reaches an intersection not yet on my line
F_ST_PAX = 17  # stick: passengers at the new intersection (0 if already on my line)
F_ST_STATION = 18  # stick: the new intersection is a station (0 if already on my line)
F_ST_BLD = 19  # stick: buildings at the new intersection (0 if already on my line)
F_ST_SPACE = 20  # stick: empty building spaces at the new intersection (0 if on my line)
F_ST_FUTURE = 21  # stick: free streets leaving the new end (future moves)
F_ST_TOWARD = 22  # stick: hops gained towards the nearest passenger off my line
F_ST_OPP = 23  # stick: opponents with a stick on the street
F_ST_LOOP = 24  # stick: the street closes a loop (the new end was already on my line)
W_STICK = 25
F_STOP = 25  # clock: the option is "stop time"
F_CLOCK_GAIN = 26  # deliveries gained by stopping time (current type minus next type)
F_LAST_GEM = 27  # stopping takes the last gem (ends the game)
F_END_WIN = 28  # stopping ends the game and I win alone
F_LEAD = 29  # my score minus the best opponent score (points - gems)
F_GEMS_LEFT = 30  # gems still on the clock
F_MY_GEMS = 31
W_CLOCK = 32
F_PASS = 32  # plan: the option is "pass"
F_ACT_EXP = 33  # plan: one-hot action (7 columns in resolution order)
F_ACT_BUS = 34
F_ACT_PAX = 35
F_ACT_BLD = 36
F_ACT_CLOCK = 37
F_ACT_VROOM = 38
F_ACT_START = 39
F_SLOT = 40  # slot index k (a = 0)
F_AMOUNT = 41  # what the slot gives at the current M (sticks, passengers, buildings)
F_WASTED = 42  # 1 when an amount action's slot gives 0 at the current M
F_VROOM_EST = 43  # my deliveries for one more Vrroomm! at the expected target type
F_BUS_IS_MAX = 44  # buying a bus raises M (I hold the most buses)
F_BUS_BEHIND = 45  # M minus my buses
F_PAX_EFFECTIVE = 46  # passengers the slot would really place (supply limited)
F_MY_STATIONS = 47  # stations on my line
F_EXP_EFFECTIVE = 48  # sticks the slot would really give (limited by my sticks left)
F_BLD_EFFECTIVE = 49  # buildings the slot would really place (limited by empty spaces)
F_START_GAIN = 50  # taking Starting player changes who starts next round
F_ROUND = 51  # pass: current round (1-based)
F_CUBES_LEFT = 52  # pass: my action cubes left
F_PLACED = 53  # pass: cubes I placed this round
FEATURES = (
    "bias", "bld_mine", "bld_opp", "bld_next", "bld_now", "bld_after", "bld_pax_here", "bld_mine_only",
    "stn_opp", "stn_mine", "stn_pax", "from_station", "from_opp", "to_opp", "to_mine_only",
    "st_free", "st_new", "st_pax", "st_station", "st_bld", "st_space", "st_future", "st_toward", "st_opp",
    "st_loop", "stop", "clock_gain", "last_gem", "end_win", "lead", "gems_left", "my_gems",
    "pass", "act_exp", "act_bus", "act_pax", "act_bld", "act_clock", "act_vroom", "act_start", "slot",
    "amount", "wasted", "vroom_est", "bus_is_max", "bus_behind", "pax_effective", "my_stations",
    "exp_effective", "bld_effective", "start_gain", "round", "cubes_left", "placed",
)
N_FEATURES = len(FEATURES)
W_PLAN = N_FEATURES
assert FEATURES.index("placed") == F_PLACED and FEATURES.index("st_free") == F_ST_FREE
assert FEATURES.index("pass") == F_PASS and FEATURES.index("stop") == F_STOP
# Columns each decision may weigh (the kernel scores only these leading columns).
WIDTH = (W_PLAN, W_BUILDING, W_STICK, W_STICK, W_STATION, W_BUILDING, W_CLOCK, W_DELIVERY, W_DELIVERY)

SCHEMA = DecisionSchema(DECISIONS, FEATURES, {d: FEATURES[:w] for d, w in zip(DECISIONS, WIDTH)})
