"""Bus log schema: one row per game and one per (game, seat); names are the contract with analysis/."""

from __future__ import annotations

from sim.core.records import Column, columns_namespace, game_record, player_record

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
    ("tie_break", "0 no tie for first, 1 decided by gems, 2 by disc stack, 3 shared, 4 by a seat's tie priority "
                  "(BUS-SEAT-2)"),
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
    ("score", "final score = points - gems (BUS-SCORE-2) + the seat's starting points (BUS-SEAT-1)"),
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
GAME_COLUMNS = game_record(END_LABELS, dict(_GAME[:4]), [Column(n, d) for n, d in _GAME[4:]])
PLAYER_COLUMNS = player_record(dict(_PLAYER[:3]), [Column(n, d) for n, d in _PLAYER[3:]])
GC = columns_namespace("GC", GAME_COLUMNS)
"""Game column -> index (``st.games[GC.gems_taken]``; ``GC.cubes_exp_0 + 6 * m + k`` for slot k of action m)."""
PC = columns_namespace("PC", PLAYER_COLUMNS)
"""Player column -> index (``st.players[p, PC.act_exp + a]`` for action a)."""
