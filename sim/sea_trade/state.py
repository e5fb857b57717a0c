"""Sea Trade state as a struct of NumPy arrays (allocated once per chunk, reset per game) and its constants.

Cells are numbered ``row * grid_size + column`` with row 0 on the north edge. Cards are stored by type:
0..5 commodities (Silk, Obsidian, Grain, Oil, Wine, Spices), 6 Row, 7..14 Wind N, NE, E, SE, S, SW, W, NW,
15 Storm. Hands and holds are counts per card type, the deck and discard pile are arrays of card types.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.core.names import namespace
from sim.core.state import compose
from sim.sea_trade.rules import Rules

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

MISC = namespace("MISC", ("dist_dirty",))
"""Slots of ``State.misc``: the sea distances must be rebuilt (a pirate or the storm moved)."""

MK = namespace("MK", ("sea", "water", "not_e", "not_w", "built"))
"""Rows of ``State.masks`` (bitboards, grids up to 8x8): open sea (no land, no market: where the storm may go),
water (what a ship may cross: sea and markets), cells with an east / a west neighbour, and the open cells
``sea`` and ``layers`` were last built for (0: none yet on this board)."""

EV = namespace("EV", (
    "land",  # a0 cell
    "market",  # a0 market, a1 cell
    "pirate_start",  # a0 pirate, a1 cell
    "deal",  # a0 card
    "start",  # a0 market, a1 cell
    "draw",  # a0 card (-1: deck and discard empty)
    "reshuffle",  # a0 cards reshuffled
    "sail",  # a0 card, a1 from, a2 to, a3 steps
    "buy",  # a0 commodity, a1 cards, a2 gold paid, a3 gold after
    "sell",  # a0 commodity, a1 price, a2 gold after, a3 market
    "offer",  # a0 partner, a1 give, a2 get, a3 0 hold / 1 hand, a4 accepted
    "pirate",  # a0 pirate, a1 card, a2 from, a3 to
    "plunder",  # a0 victim, a1 cards lost, a2 cell
    "storm",  # a0 cell, a1 previous cell (-1 none)
    "end_turn",  # a0 gold, a1 hand size, a2 hold size, a3 cell
    "win",  # a0 gold
    "timeout",
), start=1)
"""Trace event types (rows of sim.core.trace: round, seat, type, a0..a4)."""


class Fields(NamedTuple):
    """Sea Trade's own state: board, ships, cards, distance tables and scratch (sized by ``allocate``)."""

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
    masks: np.ndarray  # uint64 (len(MK),): fixed bitboards of the grid and board (grids up to 8x8)
    layers: np.ndarray  # uint64 (6, N): bitboard of the cells d sea steps from market m (grids up to 8x8)
    ring: np.ndarray  # uint64 (N, g): bitboard of the cells at Chebyshev distance r from a cell (up to 8x8)
    start_dist: np.ndarray  # int64 (6,): land-only steps from market m to the market desiring its commodity
    target: np.ndarray  # int64 (P,): scratch route target per player
    target_dist: np.ndarray  # int64 (P,): scratch sea steps of each player to its target
    known_targets: np.ndarray  # int64 (P, 2): each player's sale and buy market, STALE once its inputs change
    cargo: np.ndarray  # int64 (P,): scratch of the pirate facts, each opponent's hold cards at sea
    misc: np.ndarray  # int64 (len(MISC),)


STATIC = ("cell", "market_at", "market_cell", "nbr", "adj", "king", "degree", "ring", "land_dist", "start_dist")
"""Fields fixed for a whole game once its board is drawn (a snapshot within a game shares them)."""

LAYOUT = compose("SeaTradeState", Fields, STATIC)
State = LAYOUT.tuple_type


def max_options(rules: Rules, n_players: int, data=None) -> int:
    """Upper bound on the options of any decision (storm cells, exchange offers, sail or pirate moves)."""
    cells = rules.grid_size ** 2
    moves = 8 + 8 * rules.wind_max_steps
    return max(cells + 1, (n_players - 1) * 60 + 1, moves + 1, rules.pirates * moves + 1, 16)


def allocate(rules: Rules, n_players: int, data=None) -> Fields:
    """Sea Trade's own arrays for games of ``n_players`` under ``rules`` (the geometry is filled by
    ``board.build_geometry`` once the handle exists)."""
    g = rules.grid_size
    n = g * g
    d = rules.deck_size()
    p = n_players
    return Fields(
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
        masks=np.zeros(len(MK), np.uint64),
        layers=np.zeros((N_MARKETS, n) if n <= BIT_CELLS else (1, 1), np.uint64),
        ring=np.zeros((n, g) if n <= BIT_CELLS else (1, 1), np.uint64),
        start_dist=np.zeros(N_MARKETS, np.int64),
        target=np.zeros(p, np.int64),
        target_dist=np.zeros(p, np.int64),
        known_targets=np.full((p, 2), STALE, np.int64),
        cargo=np.zeros(p, np.int64),
        misc=np.zeros(len(MISC), np.int64),
    )
