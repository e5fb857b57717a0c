"""Sea Trade state as a struct of NumPy arrays (allocated once per chunk, reset per game) and its constants.

Cells are numbered ``row * grid_size + column`` with row 0 on the north edge. Cards are stored by type:
0..5 commodities (Silk, Obsidian, Grain, Oil, Wine, Spices), 6 Row, 7..14 Wind N, NE, E, SE, S, SW, W, NW,
15 Storm. Hands and holds are counts per card type, the deck and discard pile are arrays of card types.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.core.rng import new_state as new_rng
from sim.core.structs import struct_handle
from sim.core.trace import NO_TRACE
from sim.sea_trade.records import N_GAME_COLUMNS, N_PLAYER_COLUMNS
from sim.sea_trade.rules import Rules
from strategies.core import StrategyTable
from strategies.core import POLICY_RANDOM
from strategies.sea_trade import REGISTRY, SCHEMA, SPANS

BIT_CELLS = 64
"""Grids up to 8x8 keep cell sets in uint64 bitboards (a BFS layer is a few shifts and ands); larger ones use
queues and tables."""

COMMODITIES = ("Silk", "Obsidian", "Grain", "Oil", "Wine", "Spices")
N_COMMODITIES = 6
CARD_ROW = 6
CARD_WIND0 = 7
CARD_STORM = 15
N_CARD_TYPES = 16
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIR_ROW = np.array([-1, -1, 0, 1, 1, 1, 0, -1], dtype=np.int64)
DIR_COL = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
CARD_NAMES = COMMODITIES + ("Row",) + tuple(f"Wind {d}" for d in DIRECTIONS) + ("Storm",)

# ST-COMP-3: market table (index = market id).
MARKETS = ("Rome", "Egypt", "Greece", "Persia", "Carthage", "Crete")
N_MARKETS = 6
SELLS = np.array([4, 2, 3, 0, 5, 1], dtype=np.int64)  # Wine, Grain, Oil, Silk, Spices, Obsidian
DESIRES = np.array([0, 1, 2, 3, 4, 5], dtype=np.int64)  # Silk, Obsidian, Grain, Oil, Wine, Spices

SEA = 0
LAND = 1
MARKET = 2

STALE = -2
"""A ``known_targets`` entry to recompute: the player's ship, hand, hold or gold, or the sea distances, changed."""

# misc[] slots.
M_DIST_DIRTY = 0
M_EVENTS = 1
M_ROUND = 2
M_WINNER = 3
M_ERROR = 4
M_ERROR_GAME = 5
N_MISC = 6

# Rows of State.masks (bitboards, grids up to 8x8).
MK_SEA = 0  # open sea spaces: no land, no market (where the storm may go)
MK_WATER = 1  # spaces a ship may cross: sea and markets
MK_NOT_E = 2  # spaces with an east neighbour
MK_NOT_W = 3  # spaces with a west neighbour
MK_BUILT = 4  # the open spaces ``sea`` and ``layers`` were built for (0: none yet on this board)
N_MASKS = 5

DECISIONS = SCHEMA.decisions
FEATURES = SCHEMA.features
D_START = DECISIONS.index("start_market")
D_SAIL = DECISIONS.index("sail")
D_BUY = DECISIONS.index("buy")
D_SELL = DECISIONS.index("sell")
D_OFFER = DECISIONS.index("offer")
D_ACCEPT = DECISIONS.index("accept")
D_PIRATE = DECISIONS.index("pirate")
D_STORM = DECISIONS.index("storm")
F_PASS = FEATURES.index("pass")
F_SALE_GAIN = FEATURES.index("sale_gain")
F_BUY_GAIN = FEATURES.index("buy_gain")
F_ARRIVE_SELL = FEATURES.index("arrive_sell")
F_ARRIVE_BUY = FEATURES.index("arrive_buy")
F_ROW = FEATURES.index("row_card")
F_WIND = FEATURES.index("wind_card")
F_STEPS = FEATURES.index("steps")
F_DANGER = FEATURES.index("danger")
F_CARDS = FEATURES.index("cards")
F_GOLD = FEATURES.index("gold")
F_REGRET = FEATURES.index("regret")
F_WIN = FEATURES.index("win")
F_MY_GAIN = FEATURES.index("my_gain")
F_PARTNER_GAIN = FEATURES.index("partner_gain")
F_PARTNER_LEADER = FEATURES.index("partner_leader")
F_PLUNDER_CARDS = FEATURES.index("plunder_cards")
F_PLUNDER_LEADER = FEATURES.index("plunder_leader")
F_THREAT_GAIN = FEATURES.index("threat_gain")
F_GUARD = FEATURES.index("guard")
F_BLOCKS = FEATURES.index("blocks")
F_BLOCKS_LEADER = FEATURES.index("blocks_leader")
F_SELF_BLOCK = FEATURES.index("self_block")
F_SALE_DIST = FEATURES.index("sale_dist")
F_UNBLOCK = FEATURES.index("unblock")
F_HAND_SIZE = FEATURES.index("hand_size")
N_FEATURES = len(FEATURES)
SPAN_LO = np.array([lo for lo, _ in SPANS], dtype=np.int64)
SPAN_HI = np.array([hi for _, hi in SPANS], dtype=np.int64)
RANDOM_KIND = POLICY_RANDOM

# Trace event types (rows of sim.core.trace: round, seat, type, a0..a4).
EV_LAND = 1  # a0 cell
EV_MARKET = 2  # a0 market, a1 cell
EV_PIRATE_START = 3  # a0 pirate, a1 cell
EV_DEAL = 4  # a0 card
EV_START = 5  # a0 market, a1 cell
EV_DRAW = 6  # a0 card (-1: deck and discard empty)
EV_RESHUFFLE = 7  # a0 cards reshuffled
EV_SAIL = 8  # a0 card, a1 from, a2 to, a3 steps
EV_BUY = 9  # a0 commodity, a1 cards, a2 gold paid, a3 gold after
EV_SELL = 10  # a0 commodity, a1 price, a2 gold after, a3 market
EV_OFFER = 11  # a0 partner, a1 give, a2 get, a3 0 hold / 1 hand, a4 accepted
EV_PIRATE = 12  # a0 pirate, a1 card, a2 from, a3 to
EV_PLUNDER = 13  # a0 victim, a1 cards lost, a2 cell
EV_STORM = 14  # a0 cell, a1 previous cell (-1 none)
EV_END_TURN = 15  # a0 gold, a1 hand size, a2 hold size, a3 cell
EV_WIN = 16  # a0 gold
EV_TIMEOUT = 17
EV_ROUND = 18


class State(NamedTuple):
    """Every array one game needs; ``new_state`` sizes them from the rules and player count."""

    rules: np.ndarray  # int64 rule numbers (Rules.to_array)
    n_players: np.ndarray  # int64 (1,)
    cell: np.ndarray  # int64 (N,): SEA, LAND or MARKET
    market_at: np.ndarray  # int64 (N,): market id or -1
    market_cell: np.ndarray  # int64 (6,)
    pirate: np.ndarray  # int64 (pirates,): cell of each pirate
    pirate_at: np.ndarray  # int64 (N,): pirate index or -1
    storm: np.ndarray  # int64 (1,): storm cell or -1
    ship: np.ndarray  # int64 (P,): cell of each player's ship
    hand: np.ndarray  # int64 (P, 16): cards in hand by type
    hold: np.ndarray  # int64 (P, 6): commodity cards in the hold
    gold: np.ndarray  # int64 (P,)
    deck: np.ndarray  # int64 (deck_size,): deck[piles[0]-1] is the top card
    discard: np.ndarray  # int64 (deck_size,)
    piles: np.ndarray  # int64 (2,): deck size, discard size
    nbr: np.ndarray  # int64 (N, 8): neighbour in each direction or -1 off the board
    adj: np.ndarray  # int64 (N, 8): neighbours packed for BFS
    king: np.ndarray  # int16 (N, N): Chebyshev distance between cells (precomputed: no divisions in loops)
    degree: np.ndarray  # int64 (N,)
    blocked: np.ndarray  # bool (N,): BFS scratch
    queue: np.ndarray  # int64 (N,): BFS / candidate scratch
    dist: np.ndarray  # int32 (6, N): BFS scratch of grids over 8x8 (steps around land, storm and pirates)
    land_dist: np.ndarray  # int32 (6, N): sea steps to each market around land only (fixed per board)
    sea: np.ndarray  # int32 (6, N): sea steps of every water cell to each market (refreshed by ensure_dist)
    masks: np.ndarray  # uint64 (N_MASKS,): fixed bitboards of the grid and board (MK_*; grids up to 8x8)
    layers: np.ndarray  # uint64 (6, N): bitboard of the cells d sea steps from market m (grids up to 8x8)
    ring: np.ndarray  # uint64 (N, g): bitboard of the cells at Chebyshev distance r from a cell (up to 8x8)
    start_dist: np.ndarray  # int64 (6,): land-only steps from market m to the market desiring its commodity
    target: np.ndarray  # int64 (P,): scratch route target per player
    target_dist: np.ndarray  # int64 (P,): scratch sea steps of each player to its target
    known_targets: np.ndarray  # int64 (P, 2): each player's sale and buy market, STALE once its inputs change
    cargo: np.ndarray  # int64 (P,): scratch of the pirate facts, each opponent's hold cards at sea
    features: np.ndarray  # float64 (N_FEATURES, max_options): column i holds option i's features
    scores: np.ndarray  # float64 (max_options,): scratch of strategies.core.choose
    options: np.ndarray  # int64 (max_options, 4)
    games: np.ndarray  # int64 (N_GAME_COLUMNS,): counters of the current game
    players: np.ndarray  # int64 (P, N_PLAYER_COLUMNS): counters of the current game
    misc: np.ndarray  # int64 (N_MISC,)
    keys: np.ndarray  # int64 (P, 2): ranking keys (is winner, gold)
    rank: np.ndarray  # int64 (P,)
    rng: np.ndarray  # uint64 (4,)
    trace: np.ndarray  # int64 (events, 8); zero rows = no tracing
    kind: np.ndarray  # int64 (strategies,): StrategyTable.kind
    params: np.ndarray  # float64 (strategies, N_PARAMS): StrategyTable.params
    weights: np.ndarray  # float64 (strategies, decisions, features): StrategyTable.weights
    seat_strat: np.ndarray  # int64 (P,): table row playing each seat in the current game


_handle = struct_handle(State, "StateRef")


def kernel_state(value: State) -> State:
    """Wrap a State's arrays in the single structref handle the kernels take (the State itself without JIT).

    The handle also carries the arrays as Python attributes (the same memory), so tests and the replay read
    and edit a position through the object they pass to the kernels.
    """
    handle = _handle(value)
    if handle is not value:
        for name, array in zip(State._fields, value):
            setattr(handle, name, array)
    return handle


def max_options(rules: Rules, n_players: int) -> int:
    """Upper bound on the options of any decision (storm cells, exchange offers, sail or pirate moves)."""
    cells = rules.grid_size ** 2
    moves = 8 + 8 * rules.wind_max_steps
    return max(cells + 1, (n_players - 1) * 60 + 1, moves + 1, rules.pirates * moves + 1, 16)


def new_state(rules: Rules, n_players: int, table: StrategyTable | None = None,
              trace: np.ndarray = NO_TRACE) -> State:
    """Allocate the arrays for games of ``n_players`` under ``rules``, fill the fixed grid geometry, and return
    the kernel handle on them (``kernel_state``: one structref, read and written like the State itself).

    Without a ``table`` every seat plays the ``random`` policy (handy for hand-built test positions).
    """
    if table is None:
        table = REGISTRY.table(["random"])
    g = rules.grid_size
    n = g * g
    k = max_options(rules, n_players)
    d = rules.deck_size()
    p = n_players
    st = kernel_state(State(
        rules=rules.to_array(),
        n_players=np.array([p], dtype=np.int64),
        cell=np.zeros(n, np.int64),
        market_at=np.full(n, -1, np.int64),
        market_cell=np.zeros(N_MARKETS, np.int64),
        pirate=np.zeros(rules.pirates, np.int64),
        pirate_at=np.full(n, -1, np.int64),
        storm=np.full(1, -1, np.int64),
        ship=np.zeros(p, np.int64),
        hand=np.zeros((p, N_CARD_TYPES), np.int64),
        hold=np.zeros((p, N_COMMODITIES), np.int64),
        gold=np.zeros(p, np.int64),
        deck=np.zeros(d, np.int64),
        discard=np.zeros(d, np.int64),
        piles=np.zeros(2, np.int64),
        nbr=np.full((n, 8), -1, np.int64),
        adj=np.zeros((n, 8), np.int64),
        king=np.zeros((n, n), np.int16),
        degree=np.zeros(n, np.int64),
        blocked=np.zeros(n, np.bool_),
        queue=np.zeros(max(n, d), np.int64),
        dist=np.zeros((N_MARKETS, n), np.int32),
        land_dist=np.zeros((N_MARKETS, n), np.int32),
        sea=np.zeros((N_MARKETS, n), np.int32),
        masks=np.zeros(N_MASKS, np.uint64),
        layers=np.zeros((N_MARKETS, n) if n <= BIT_CELLS else (1, 1), np.uint64),
        ring=np.zeros((n, g) if n <= BIT_CELLS else (1, 1), np.uint64),
        start_dist=np.zeros(N_MARKETS, np.int64),
        target=np.zeros(p, np.int64),
        target_dist=np.zeros(p, np.int64),
        known_targets=np.full((p, 2), STALE, np.int64),
        cargo=np.zeros(p, np.int64),
        features=np.zeros((N_FEATURES, k), np.float64),
        scores=np.zeros(k, np.float64),
        options=np.zeros((k, 4), np.int64),
        games=np.zeros(N_GAME_COLUMNS, np.int64),
        players=np.zeros((p, N_PLAYER_COLUMNS), np.int64),
        misc=np.zeros(N_MISC, np.int64),
        keys=np.zeros((p, 2), np.int64),
        rank=np.zeros(p, np.int64),
        rng=new_rng(),
        trace=trace,
        kind=np.ascontiguousarray(table.kind, dtype=np.int64),
        params=np.ascontiguousarray(table.params, dtype=np.float64),
        weights=np.ascontiguousarray(table.weights, dtype=np.float64),
        seat_strat=np.zeros(p, np.int64),
    ))
    from sim.sea_trade.board import build_geometry  # noqa: PLC0415 (board imports this module)

    build_geometry(st)
    return st
