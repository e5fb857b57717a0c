"""Bus log schema: one row per game and one per (game, seat); names are the contract with analysis/."""

from __future__ import annotations

from sim.core.spec import Column

END_LABELS = ("time_collapse", "out_of_actions", "city_full", "out_of_actions+city_full", "time_collapse+city_full")
END_TIME = 0  # BUS-END-1
END_OUT = 1  # BUS-END-2
END_FULL = 2  # BUS-END-3
END_OUT_FULL = 3  # BUS-END-4: both at the same cleanup
END_TIME_FULL = 4  # BUS-END-4: time collapse after the city filled earlier that round
TIE_LABELS = ("none", "gems", "disc_stack", "shared")
ACT_KEYS = ("exp", "pax", "bld", "vroom")  # the multi-slot actions, in State.slot row order
SLOT_COLUMNS = 6  # cubes_<act>_0..5 (letters a..f); slots g, h (slots_per_action > 6) come at the end

_GAME = [
    ("rounds", "rounds played (BUS-ROUND-2: at most 10)"),
    ("end_reason", "which end condition(s) fired (BUS-END-1..4)"),
    ("winner_seat", "seat of the sole winner, -1 when the win is shared (BUS-SCORE-3)"),
    ("decisions", "strategy decisions taken (choose() calls with 2+ options)"),
    ("n_winners", "players sharing first place"),
    ("gems_taken", "clock gems taken"),
    ("last_gem_seat", "seat that took the last gem (time collapse), else -1"),
    *[(f"gem_round_{i}", f"round of the {i}. gem taken, -1 if not taken") for i in range(1, 6)],
    ("clock_stops", "times time was stopped (one gem each)"),
    ("buses_bought", "Buy a bus resolutions"),
    ("final_M", "maximum bus number at the end"),
    ("passengers_placed", "passengers put on stations by New passengers"),
    ("buildings_placed", "buildings on the board at the end (setup included)"),
    ("houses", "houses on the board at the end"),
    ("offices", "offices on the board at the end"),
    ("pubs", "pubs on the board at the end"),
    *[(f"zone_{z}_full_round", f"round zone {z.upper()} filled (0 = setup), -1 if never") for z in "abcd"],
    ("vroom_house", "Vrroomm! steps (rounds reaching step 6) with target House"),
    ("vroom_office", "Vrroomm! steps with target Office"),
    ("vroom_pub", "Vrroomm! steps with target Pub"),
    ("tie_break", "0 no tie for first, 1 decided by gems, 2 by disc stack, 3 shared"),
    ("cubes_placed", "action cubes placed by all players"),
    ("wasted_cubes", "cubes that did nothing: amount 0 or nothing possible, Vrroomm! with d=0, lost to time collapse"),
    *[(f"cubes_{a}_{k}", f"cubes placed on slot {'abcdef'[k]} of {a}") for a in ACT_KEYS for k in range(6)],
    ("cubes_bus", "cubes placed on Buy a bus"),
    ("cubes_clock", "cubes placed on Clock"),
    ("cubes_start", "cubes placed on Starting player"),
    ("short_seats_mask", "bitmask of seats with the 18-stick colours (BUS-AMB-21)"),
    ("delivered", "passengers delivered by all players"),
    ("delivered_from_station", "deliveries picked up at a train station"),
    ("final_clock", "clock type at the end: 0 House, 1 Office, 2 Pub"),
    *[(f"cubes_{a}_{k}", f"cubes placed on slot {'abcdefgh'[k]} of {a} (slots_per_action > 6)")
      for a in ACT_KEYS for k in range(6, 8)],
]
_PLAYER = [
    ("score", "final score = points - gems (BUS-SCORE-2)"),
    ("rank", "1 = best; shared for exact ties (BUS-SCORE-4)"),
    ("won", "1 for each player sharing first place"),
    ("points", "passengers delivered (score track, BUS-SCORE-1)"),
    ("gems", "clock gems taken (-1 point each)"),
    ("buses", "buses owned at the end"),
    ("delivered", "passengers delivered"),
    ("stick_limit", "sticks of the colour: 28 or 18 (BUS-COMP-3)"),
    ("sticks_used", "sticks on the board"),
    ("cubes_left", "action cubes not spent"),
    ("cubes_placed", "action cubes placed on the action board"),
    ("act_exp", "cubes on Line expansion"),
    ("act_bus", "cubes on Buy a bus"),
    ("act_pax", "cubes on New passengers"),
    ("act_bld", "cubes on New buildings"),
    ("act_clock", "cubes on Clock"),
    ("act_vroom", "cubes on Vrroomm!"),
    ("act_start", "cubes on Starting player"),
    ("wasted_cubes", "own cubes that did nothing (see games.wasted_cubes)"),
    ("loops_closed", "sticks that ended on an intersection already on the line (BUS-EXP-13)"),
    ("stations_on_line", "train stations touched by the line"),
    ("intersections_covered", "intersections touched by the line"),
    ("first_gem_round", "round of the first gem taken, -1 if none"),
    ("start_player_rounds", "rounds begun holding the starting-player bus"),
    ("exception1_sticks", "sticks laid on occupied streets under exception 1 (BUS-EXP-9)"),
    ("exception2_sticks", "sticks laid on occupied streets under exception 2 (BUS-EXP-10)"),
    ("points_reached_at", "scoring event count when the final points were reached (disc stack, 0 = never scored)"),
    ("loop_markers_paid", "cubes paid for loop markers (loop_marker_costs_cube, BUS-AMB-3)"),
]
GAME_COLUMNS = tuple(Column(n, d, END_LABELS if n == "end_reason" else ()) for n, d in _GAME)
PLAYER_COLUMNS = tuple(Column(n, d) for n, d in _PLAYER)
GAME_NAMES = tuple(c.name for c in GAME_COLUMNS)
PLAYER_NAMES = tuple(c.name for c in PLAYER_COLUMNS)
N_GAME = len(GAME_NAMES)
N_PLAYER = len(PLAYER_NAMES)

GC_ROUNDS = GAME_NAMES.index("rounds")
GC_END = GAME_NAMES.index("end_reason")
GC_WINNER = GAME_NAMES.index("winner_seat")
GC_DECISIONS = GAME_NAMES.index("decisions")
GC_N_WINNERS = GAME_NAMES.index("n_winners")
GC_GEMS_TAKEN = GAME_NAMES.index("gems_taken")
GC_LAST_GEM = GAME_NAMES.index("last_gem_seat")
GC_GEM_ROUND = GAME_NAMES.index("gem_round_1")
GC_CLOCK_STOPS = GAME_NAMES.index("clock_stops")
GC_BUSES_BOUGHT = GAME_NAMES.index("buses_bought")
GC_FINAL_M = GAME_NAMES.index("final_M")
GC_PAX_PLACED = GAME_NAMES.index("passengers_placed")
GC_BUILT = GAME_NAMES.index("buildings_placed")
GC_HOUSES = GAME_NAMES.index("houses")
GC_ZONE_FULL = GAME_NAMES.index("zone_a_full_round")
GC_VROOM_T = GAME_NAMES.index("vroom_house")
GC_TIE = GAME_NAMES.index("tie_break")
GC_CUBES = GAME_NAMES.index("cubes_placed")
GC_WASTED = GAME_NAMES.index("wasted_cubes")
GC_SLOT = GAME_NAMES.index("cubes_exp_0")
GC_CUBES_BUS = GAME_NAMES.index("cubes_bus")
GC_SHORT = GAME_NAMES.index("short_seats_mask")
GC_DELIVERED = GAME_NAMES.index("delivered")
GC_FROM_STATION = GAME_NAMES.index("delivered_from_station")
GC_FINAL_CLOCK = GAME_NAMES.index("final_clock")
GC_SLOT_EXTRA = GAME_NAMES.index("cubes_exp_6")

PC_SCORE = 0
PC_RANK = 1
PC_WON = 2
PC_POINTS = 3
PC_GEMS = 4
PC_BUSES = 5
PC_DELIVERED = 6
PC_LIMIT = 7
PC_STICKS_USED = 8
PC_CUBES_LEFT = 9
PC_CUBES_PLACED = 10
PC_ACT = 11  # 7 columns in action order
PC_WASTED = 18
PC_LOOPS = 19
PC_STATIONS = 20
PC_COVERED = 21
PC_FIRST_GEM = 22
PC_START_ROUNDS = 23
PC_EXC1 = 24
PC_EXC2 = 25
PC_AT = 26
PC_MARKERS = 27
assert PLAYER_NAMES[PC_ACT] == "act_exp" and PLAYER_NAMES[PC_MARKERS] == "loop_markers_paid"
assert GAME_NAMES[GC_SLOT + 23] == "cubes_vroom_5" and GAME_NAMES[GC_CUBES_BUS + 2] == "cubes_start"
