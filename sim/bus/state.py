"""Bus game state as a struct of NumPy arrays (allocated once per chunk, reset per game)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.bus.data import Board
from sim.bus.rules import MAX_SLOTS
from sim.bus.schema import N_FEATURES
from sim.core.rng import new_state as new_rng
from sim.core.structs import struct_handle
from sim.core.trace import NO_TRACE
from strategies.core import StrategyTable

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

# Per-player fields: State.pl[seat, P_*].
P_CUBES = 0  # action cubes left (BUS-COMP-4)
P_BUSES = 1
P_STICKS = 2  # sticks left
P_LIMIT = 3  # 28 or 18 (BUS-COMP-3)
P_E0 = 4  # the two ends (BUS-EXP-2); -1 before the first stick
P_E1 = 5
P_ES0 = 6  # the street last placed at each end (strict exception 2, BUS-AMB-6)
P_ES1 = 7
P_POINTS = 8
P_GEMS = 9
P_AT = 10  # points_reached_at: event counter when the current points were reached (BUS-SCORE-3)
P_PASSED = 11
P_PLACED = 12  # cubes placed this round
P_SPENT = 13  # cubes gone from the supply (actions + paid loop markers)
P_ACT = 14  # 7 counters: cubes placed per action (P_ACT + A_*)
P_WASTED = 21
P_LOOPS = 22
P_EXC1 = 23
P_EXC2 = 24
P_FIRST_GEM = 25
P_START_ROUNDS = 26
P_BUYS = 27
P_MARKERS = 28
P_ROUND_VROOM = 29  # Vrroomm! cubes resolved this round
P_ROUND_DELIV = 30  # deliveries this round
P_PLAN_CUBES = 31  # cubes at the start of this round's planning
N_PL = 32

# Global fields: State.g[G_*].
G_N = 0
G_SUPPLY = 1
G_CLOCK = 2
G_GEMS = 3  # gems on the clock
G_GEMS0 = 4
G_START = 5
G_ROUND = 6
G_M = 7
G_COUNTER = 8  # scoring event counter (disc stack order)
G_CITY_FULL = 9  # BUS-END-3 armed
G_ENDED = 10
G_END_REASON = 11
G_DECISIONS = 12
G_LAST_GEM_SEAT = 13
G_BUSES_BOUGHT = 14
G_PAX_PLACED = 15
G_GEMS_TAKEN = 16
G_ZONE_FULL = 17  # 4 fields: round each zone filled
G_VROOM_T = 21  # 3 fields: Vrroomm! steps by target type
G_CUBES_BUS = 24
G_CUBES_CLOCK = 25
G_CUBES_START = 26
G_TIE_BREAK = 27
G_EMPTY = 28  # empty building spaces
G_BOARD_PAX = 29
G_GEM_ROUND = 30  # 5 fields: round of each gem taken
G_BUILT = 35  # buildings placed (setup included)
G_TYPE_COUNT = 36  # 3 fields: buildings per type
G_FROM_STATION = 39  # deliveries picked up at a station
G_DELIVERED = 40
G_ROUND_CAP = 41
G_SHORT_MASK = 42  # seats with the 18-stick colours this game (BUS-AMB-21)
G_ZONE_EMPTY = 43  # 4 fields: empty spaces per zone
G_CHECK = 47  # 1 = checked mode: assert the BUS-INV-* invariants while playing
N_G = 48


class State(NamedTuple):
    """All mutable arrays of one game; the kernel resets them between games."""

    pl: np.ndarray  # int64 (n, N_PL)
    g: np.ndarray  # int64 (N_G,)
    occ: np.ndarray  # int64 (n_streets,) bitmask of players with a stick on each street
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
    opt: np.ndarray  # int64 (max_options, 3) option scratch
    feat: np.ndarray  # float64 (N_FEATURES, max_options): column i holds option i's features
    scores: np.ndarray  # float64 (max_options,): scratch of strategies.core.choose
    scratch: np.ndarray  # int64 (n_inter,)
    strat: np.ndarray  # int64 (n,) strategy-table row of each seat this game
    keys: np.ndarray  # int64 (n, 3) ranking keys
    rank: np.ndarray  # int64 (n,)
    skind: np.ndarray  # StrategyTable.kind
    sparams: np.ndarray  # StrategyTable.params
    sweights: np.ndarray  # StrategyTable.weights
    rng: np.ndarray  # uint64 (4,)
    trace: np.ndarray  # int64 (capacity, EVENT_WIDTH); zero rows = no tracing
    tn: np.ndarray  # int64 (1,) events written


def new_state(board: Board, n_players: int, table: StrategyTable, trace: np.ndarray = NO_TRACE) -> State:
    """Allocate the buffers for ``n_players`` on ``board`` playing strategies from ``table``."""
    n_inter = board.deg.shape[0]
    n_st = board.st_a.shape[0]
    n_sp = board.sp_inter.shape[0]
    max_opt = max(3 * n_sp, n_st, 2 * board.inc_s.shape[1], N_ACTIONS + 1, n_inter, 2)
    nspace = np.zeros(n_inter, dtype=np.int64)
    for v in board.sp_inter:
        nspace[v] += 1
    z = np.zeros
    return State(
        pl=z((n_players, N_PL), np.int64), g=z(N_G, np.int64), occ=z(n_st, np.int64),
        own=z((n_players, n_inter), np.int64), bld=z(n_sp, np.int64), cap=z((n_inter, 3), np.int64),
        nbld=z(n_inter, np.int64), nspace=nspace, pax=z(n_inter, np.int64), want=z(n_inter, np.int64),
        room=z(n_inter, np.int64), slot=z((4, MAX_SLOTS), np.int64), nslot=z(4, np.int64),
        single=z(3, np.int64), slot_cubes=z((4, MAX_SLOTS), np.int64), opt=z((max_opt, 3), np.int64),
        feat=z((N_FEATURES, max_opt), np.float64), scores=z(max_opt, np.float64), scratch=z(n_inter, np.int64),
        strat=z(n_players, np.int64),
        keys=z((n_players, 3), np.int64), rank=z(n_players, np.int64), skind=table.kind,
        sparams=table.params, sweights=table.weights, rng=new_rng(), trace=trace, tn=z(1, np.int64),
    )


kernel_state = struct_handle(State, "StateRef")
"""Wrap a State's arrays for the kernels."""
