"""Bus game state as a struct of NumPy arrays (allocated once per chunk, reset per game)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.bus.data import Board
from sim.bus.rules import MAX_SLOTS
from sim.core.names import expand, namespace
from sim.core.state import compose

# Actions in resolution order (BUS-RES-1).
A_EXP = 0
A_BUS = 1
A_PAX = 2
A_BLD = 3
A_CLOCK = 4
A_VROOM = 5
A_START = 6
N_ACTIONS = 7
ACTION_NAMES = ("Line expansion", "Buy a bus", "New passengers", "New buildings", "Clock", "Vrroomm!",
                "Starting player")
# Row of each multi-slot action in State.slot, and of each single-slot action in State.single.
MULTI_OF = (0, -1, 1, 2, -1, 3, -1)
SINGLE_OF = (-1, 0, -1, -1, 1, -1, 2)

HOUSE = 0
OFFICE = 1
PUB = 2
TYPE_NAMES = ("House", "Office", "Pub")

PL = namespace("PL", expand((
    ("cubes", 1),  # action cubes left (BUS-COMP-4)
    ("buses", 1),
    ("sticks", 1),  # sticks left
    ("limit", 1),  # 28 or 18 (BUS-COMP-3)
    ("e0", 1),  # the two ends (BUS-EXP-2); -1 before the first stick
    ("e1", 1),
    ("es0", 1),  # the street last placed at each end (strict exception 2, BUS-AMB-6)
    ("es1", 1),
    ("points", 1),
    ("gems", 1),
    ("at", 1),  # points_reached_at: event counter when the current points were reached (BUS-SCORE-3)
    ("passed", 1),
    ("placed", 1),  # cubes placed this round
    ("spent", 1),  # cubes gone from the supply (actions + paid loop markers)
    ("act", 7),  # 7 counters: cubes placed per action (PL.act + A_*)
    ("wasted", 1),
    ("loops", 1),
    ("exc1", 1),
    ("exc2", 1),
    ("first_gem", 1),
    ("start_rounds", 1),
    ("buys", 1),
    ("markers", 1),
    ("round_vroom", 1),  # Vrroomm! cubes resolved this round
    ("round_deliv", 1),  # deliveries this round
    ("plan_cubes", 1),  # cubes at the start of this round's planning
)))
"""Per-player slots: ``State.pl[seat, PL.x]`` (a multi-slot field x spans PL.x, PL.x + 1, ...)."""

GS = namespace("GS", expand((
    ("supply", 1),
    ("clock", 1),
    ("gems", 1),  # gems on the clock
    ("gems0", 1),
    ("start", 1),
    ("m", 1),
    ("counter", 1),  # scoring event counter (disc stack order)
    ("city_full", 1),  # BUS-END-3 armed
    ("ended", 1),
    ("end_reason", 1),
    ("last_gem_seat", 1),
    ("buses_bought", 1),
    ("pax_placed", 1),
    ("gems_taken", 1),
    ("zone_full", 4),  # 4 fields: round each zone filled
    ("vroom_t", 3),  # 3 fields: Vrroomm! steps by target type
    ("cubes_bus", 1),
    ("cubes_clock", 1),
    ("cubes_start", 1),
    ("tie_break", 1),
    ("empty", 1),  # empty building spaces
    ("board_pax", 1),
    ("gem_round", 5),  # 5 fields: round of each gem taken
    ("built", 1),  # buildings placed (setup included)
    ("type_count", 3),  # 3 fields: buildings per type
    ("from_station", 1),  # deliveries picked up at a station
    ("delivered", 1),
    ("round_cap", 1),
    ("short_mask", 1),  # seats with the 18-stick colours this game (BUS-AMB-21)
    ("zone_empty", 4),  # 4 fields: empty spaces per zone
)))
"""Game slots: ``State.g[GS.x]``. Player count, round, checked mode and decisions are the core's (meta, games)."""

PF = namespace("PF", ("want_now", "room_now", "want_next", "room_next", "lead", "stations"))
"""Slots of ``State.plan_facts[seat]``: what a seat's planning options are judged by that no cube placement
changes (Σ want and room on its line under the clock's type now and next, its lead, its stations)."""


class Fields(NamedTuple):
    """Bus's own state: lines, buildings, passengers, the action board and per-player slots."""

    pl: np.ndarray  # int64 (n, len(PL))
    g: np.ndarray  # int64 (len(GS),)
    occ: np.ndarray  # int64 (n_streets,) bitmask of players with a stick on each street
    free: np.ndarray  # int64 (n_inter,) streets at each intersection that hold no stick, kept as sticks are laid
    own: np.ndarray  # int64 (n, n_inter) own sticks touching each intersection (>0: on the line)
    bld: np.ndarray  # int64 (n_spaces,) -1 empty, else building type
    cap: np.ndarray  # int64 (n_inter, 3) buildings of each type per intersection
    nbld: np.ndarray  # int64 (n_inter,) buildings per intersection
    nspace: np.ndarray  # int64 (n_inter,) building spaces per intersection (constant)
    pax: np.ndarray  # int64 (n_inter,) passengers per intersection
    want: np.ndarray  # int64 (n_inter,) Vrroomm! scratch (BUS-VROOM-2)
    room: np.ndarray  # int64 (n_inter,)
    slot: np.ndarray  # int64 (4, MAX_SLOTS) owner of each multi-slot action slot, -1 empty
    nslot: np.ndarray  # int64 (4,) occupied slots per multi-slot action
    single: np.ndarray  # int64 (3,) owner of Buy a bus / Clock / Starting player, -1 empty
    slot_cubes: np.ndarray  # int64 (4, MAX_SLOTS) cubes placed per slot letter over the game
    scratch: np.ndarray  # int64 (n_inter,)
    prev: np.ndarray  # int64 (3,): board passengers, M and empty spaces after the last checked round (BUS-INV-*)
    plan_facts: np.ndarray  # int64 (n, len(PF)): each seat's planning facts, taken once per planning phase


LAYOUT = compose("BusState", Fields, ("nspace",))
State = LAYOUT.tuple_type


def max_options(rules, n_players: int, board: Board) -> int:
    """The most options any decision lists: building spaces x types, streets, a line's two ends, actions."""
    n_inter = board.deg.shape[0]
    n_sp = board.sp_inter.shape[0]
    return max(3 * n_sp, board.st_a.shape[0], 2 * board.inc_s.shape[1], N_ACTIONS + 1, n_inter, 2)


def allocate(rules, n_players: int, board: Board) -> Fields:
    """Bus's own arrays for ``n_players`` on ``board``."""
    n_inter = board.deg.shape[0]
    n_st = board.st_a.shape[0]
    n_sp = board.sp_inter.shape[0]
    nspace = np.zeros(n_inter, dtype=np.int64)
    for v in board.sp_inter:
        nspace[v] += 1
    z = np.zeros
    return Fields(
        pl=z((n_players, len(PL)), np.int64), g=z(len(GS), np.int64), occ=z(n_st, np.int64), free=z(n_inter, np.int64),
        own=z((n_players, n_inter), np.int64), bld=z(n_sp, np.int64), cap=z((n_inter, 3), np.int64),
        nbld=z(n_inter, np.int64), nspace=nspace, pax=z(n_inter, np.int64), want=z(n_inter, np.int64),
        room=z(n_inter, np.int64), slot=z((4, MAX_SLOTS), np.int64), nslot=z(4, np.int64),
        single=z(3, np.int64), slot_cubes=z((4, MAX_SLOTS), np.int64), scratch=z(n_inter, np.int64),
        prev=z(3, np.int64), plan_facts=z((n_players, len(PF)), np.int64),
    )
