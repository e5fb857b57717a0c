"""7 Wonders + Babel game state: the game's own fields as NumPy arrays (the core adds the common ones).

Seats sit in a circle; the LEFT neighbour of seat p is (p + 1) % n and the RIGHT one (p - 1) % n (SW-SETUP-4), so
passing to the left moves a hand from p to p + 1. Side index 0 is left, 1 is right, everywhere (discount bits,
payments, tile-7 chains).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.core.names import namespace
from sim.core.state import compose
from sim.core.trace import NO_TRACE
from sim.seven_wonders.data import MAX_VICTORY, N_RES, N_TILES, Data
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.seats import seat_count

MAX_CITY = 24  # at most 3 x 7 cards + 3 (Halikarnassos) structures
MAX_CHOICE = 16  # choice sources of one player: brown choice cards, Forum, Caravansery, stages, tiles 17/18/21
MAX_SCORE_ROW = 16  # at least len(scoring.SC)
MAX_OPT = 256  # option rows: 7 cards x (4 build modes x 3 participations + 2 stages + sale + 3 tiles) = 126 a turn;
# a Halikarnassos search lists each distinct discarded card with each participation
OPTION_WIDTH = 4  # option row: (action, hand slot, extra, participation)
TC_SLOTS = 64  # trade-cost cache entries per player (direct-mapped by need vector; a power of 2, masked)
PV_WIDTH = 2 * N_RES + 3 + 2 * MAX_CHOICE  # a production view: prod, sell, unlimited, disc, choices
FLOW_NODES = 2 + 3 * MAX_CHOICE + N_RES
FLOW_EDGES = 2 * (3 * MAX_CHOICE * (1 + N_RES) + 2 * N_RES + N_RES + 8)

GS = namespace("GS", ["n", "age", "turn", "deck_n", "discard_n", "removed_n", "babel_next", "babel_placed", "gp",
                      "gp_tokens", "gp_reserve", "tucked_n", "pile_before_last", "game_turn",
                      "fc_holder"])
"""Global fields: State.g[GS.*]. gp = the Age's project (-1 none), gp_tokens = tokens left on it, gp_reserve = 1
once a reserve token was taken (BABEL-GP-6, SW-DEC-20); removed_n = cards out of the game (SW-DEC-5); tucked_n =
cards under Wonder stages; pile_before_last = discard pile size before the Age's last cards were discarded, -1
before that (SW-DEC-4); game_turn = turns begun over the
game (1..18, the records' clock); fc_holder = the player holding the Free City card this turn (2 players, SW-DEC-26)."""

TE = namespace("TE", ["delta_raw", "delta_man", "kinds"])
"""Summary of the active tiles (State.teff[TE.*]), refreshed on placement: the trade-price deltas summed over tiles
9-12 (BABEL-TRADE-1), and bit k set while an active tile has effect kind k (TILE_KIND), so that a question about a
kind no active tile has is answered without a look at the tiles."""
N_TE = len(TE)

ST = namespace("ST", ["traded_out", "traded_in", "sold", "chain_builds", "free_builds", "hali_builds", "seventh_played",
                      "gp_tokens", "gp_success_tokens", "gp_penalties", "gp_defeats", "tile_discards", "built"])
"""Per-player counters for the records (State.stat[p, ST.*]): coins paid to / received from neighbours, cards sold,
chain builds, other free builds (Olympia, free-build token), Halikarnassos builds, Babylon B 7th cards played,
participation tokens taken, tokens held in successful projects, penalties borne, Defeat tokens from unbearable
penalties, cards discarded to build a tile, structures built."""
TREC = namespace("TREC", ["builder", "placed", "covered"])
"""Per tile records (State.tile_rec[t, TREC.*]): builder seat (-1 unbuilt), game turn placed and covered (0 never)."""
GPREC = namespace("GPREC", ["project", "success", "participants", "tokens", "penalised", "defeats"])
"""Per Age project records (State.gp_rec[age - 1, GPREC.*])."""


class Fields(NamedTuple):
    """7 Wonders + Babel's own arrays (allocated once per chunk, reset per game by setup.reset)."""

    g: np.ndarray  # int64 (len(GS),)
    coins: np.ndarray  # int64 (n,)
    wonder: np.ndarray  # int64 (n,) board index
    side: np.ndarray  # int64 (n,) 0 = A, 1 = B
    stages: np.ndarray  # int64 (n,) stages built (SW-WONDER-1)
    city: np.ndarray  # int64 (n, MAX_CITY) card ids of the structures built, in order
    city_n: np.ndarray  # int64 (n,)
    has_name: np.ndarray  # int64 (n, n_names) 1 if a structure of that name is in the city (SW-ACT-4, SW-CHAIN-1)
    color_n: np.ndarray  # int64 (n, 7) structures per colour
    shields: np.ndarray  # int64 (n,) military strength (SW-MIL-1, incl. Great Project shield tokens)
    science: np.ndarray  # int64 (n, 4) compass, gear, tablet, wild symbols (SW-SCI-1 / SW-SCI-2)
    victory: np.ndarray  # int64 (n, MAX_VICTORY + 1) Victory tokens held, by value
    defeat_n: np.ndarray  # int64 (n,) Defeat tokens held (Strategists Guild)
    defeat_vp: np.ndarray  # int64 (n,) their total value (<= 0)
    hand: np.ndarray  # int64 (n, hand_size (x 2 with two players)) card ids, -1 = empty; the Free City's: its pile
    hand_n: np.ndarray  # int64 (n,)
    deck: np.ndarray  # int64 (7 n,) the Age deck before dealing
    discard: np.ndarray  # int64 (3 * 7 n,) the common discard pile (SW-ACT-3, SW-WONDER-4)
    olympia_used: np.ndarray  # int64 (n,) Age in which Olympia A's free build was used (SW-WONDER-3)
    pending: np.ndarray  # int64 (n,) 1 when a Halikarnassos build from the discard is due (SW-WONDER-4)
    prod: np.ndarray  # int64 (n, N_RES) fixed units the owner can use each turn (SW-RES-1 / SW-RES-2)
    sell: np.ndarray  # int64 (n, N_RES) fixed units neighbours can buy (SW-RES-3)
    unlimited: np.ndarray  # int64 (n,) resource mask of unlimited production (BABEL-TILE-20), sellable
    chc: np.ndarray  # int64 (n, MAX_CHOICE) resource masks of one-unit choice sources
    chc_sell: np.ndarray  # int64 (n, MAX_CHOICE) 0 owner only, 1 owner and neighbours, 2 neighbours only
    chc_n: np.ndarray  # int64 (n,)
    disc: np.ndarray  # int64 (n,) 14-bit (side, resource) mask of 1-coin purchases (SW-TRADE-3)
    tiles: np.ndarray  # int64 (n, 3) Babel tiles held (0..23), -1 = none (BABEL-SETUP-3)
    tile_built: np.ndarray  # int64 (n, 3) 1 once built (BABEL-ACT-1)
    tiles_built: np.ndarray  # int64 (n,) tiles built (BABEL-SCORE-1)
    tile_due: np.ndarray  # int64 (n,) bit t set: tile t built this turn, placed at its end (BABEL-PLACE-1); two
    # with Babylon B's 7th card
    babel_slot: np.ndarray  # int64 (4,) visible tile per slot, -1 = empty (BABEL-PLACE-2)
    babel_age: np.ndarray  # int64 (4,) placement counter of each slot's tile (oldest is covered first)
    tile_on: np.ndarray  # int64 (N_TILES,) 1 while a tile's effect is active (BABEL-ACTIVE-1; by effect, SW-DEC-15)
    teff: np.ndarray  # int64 (N_TE,) summary of the active tiles
    gp_part: np.ndarray  # int64 (n,) participation tokens held this Age (BABEL-GP-2)
    gp_wild: np.ndarray  # int64 (n,) wild participation tokens (BABEL-GP-13)
    gp_free_build: np.ndarray  # int64 (n,) free-build tokens
    gp_free_stage: np.ndarray  # int64 (n,) free-stage tokens
    gp_sci_set: np.ndarray  # int64 (n,) science-set tokens, as VP per set of three symbols (3 each)
    gp_guild: np.ndarray  # int64 (n,) guild tokens, as VP per guild in own and neighbours' cities
    gp_wonder: np.ndarray  # int64 (n,) wonder tokens, as VP per own built stage
    gp_took: np.ndarray  # int64 (n,) 1 once p participated this turn (BABEL-GP-5)
    board_lost: np.ndarray  # int64 (n,) lose-board-resource penalties taken (SW-DEC-19)
    vp_now: np.ndarray  # int64 (n,) VP at the start of the turn (the SW-DEC-1 tie-break)
    score_row: np.ndarray  # int64 (MAX_SCORE_ROW,) scratch for one player's score by category
    tile_pool: np.ndarray  # int64 (n, 3) tiles in front of p during the tile draft, -1 = none (BABEL-SETUP-3)
    pick: np.ndarray  # int64 (n, 4) each seat's chosen option of this turn (action, hand slot, extra, part)
    paid: np.ndarray  # int64 (n, 3) payment of the chosen option: coins to the bank, to left, to right
    income: np.ndarray  # int64 (n,) coins due at the end of the turn (SW-TURN-4)
    pick_chain: np.ndarray  # int64 (n,) chain source of a chained pick: 1 own city, 2 a neighbour's (SW-DEC-11)
    pe_before: np.ndarray  # int64 (n,) per-element count before placement (commerce_counts_after_placement off)
    need: np.ndarray  # int64 (N_RES,) payment scratch: units still to cover
    buy: np.ndarray  # int64 (2, N_RES) payment result: units bought from left / right
    flow_head: np.ndarray  # int64 (FLOW_NODES,) min-cost-flow scratch (payment.py)
    flow_to: np.ndarray  # int64 (FLOW_EDGES,)
    flow_cap: np.ndarray  # int64 (FLOW_EDGES,)
    flow_cost: np.ndarray  # int64 (FLOW_EDGES,)
    flow_next: np.ndarray  # int64 (FLOW_EDGES,)
    flow_info: np.ndarray  # int64 (FLOW_EDGES,) side * 8 + resource of a purchase edge, -1 otherwise
    flow_dist: np.ndarray  # int64 (FLOW_NODES,)
    flow_prev: np.ndarray  # int64 (FLOW_NODES,)
    flow_queue: np.ndarray  # int64 (FLOW_NODES + 1,)
    flow_inq: np.ndarray  # int64 (FLOW_NODES,)
    units: np.ndarray  # int64 (3 MAX_CHOICE, 4) payment scratch: the choice units that matter (payment._collect_units)
    left: np.ndarray  # int64 (N_RES,) payment scratch: units still to cover in one way of using them
    offer: np.ndarray  # int64 (2, 2, N_RES) payment scratch: price and units on sale per side and resource
    stat: np.ndarray  # int64 (n, len(ST)) per-player counters for the records
    plan: np.ndarray  # int64 (2, 2) payment scratch: coins to (left, right) of the two tie plans (SW-DEC-1)
    tile_rec: np.ndarray  # int64 (N_TILES, len(TREC)) per tile: builder seat, game turn placed, game turn covered
    gp_rec: np.ndarray  # int64 (3, len(GPREC)) per Age: the project and its outcome (records)
    dealt: np.ndarray  # int64 (1,) cards dealt so far this game (SW-INV-1)
    price: np.ndarray  # int64 (MAX_OPT,) coins each listed turn option costs (bank + neighbours), for features
    pver: np.ndarray  # int64 (n,) production-view version of each player (payment.trade_cost)
    pv_old: np.ndarray  # int64 (PV_WIDTH,) scratch: a production view before a refresh
    tc_key: np.ndarray  # int64 (n, TC_SLOTS) trade-cost cache: packed need vector, -1 empty
    tc_stamp: np.ndarray  # int64 (n, TC_SLOTS) the three production versions the entry was computed under
    tc_cost: np.ndarray  # int64 (n, TC_SLOTS) the cheapest trade's coins (-1: no plan covers the need)



LAYOUT = compose("SevenWondersState", Fields)
State = LAYOUT.tuple_type


def max_options(rules: Rules, n_players: int, data: Data) -> int:
    """Rows of the option buffer (MAX_OPT)."""
    return MAX_OPT


def allocate(rules: Rules, n_players: int, data: Data) -> Fields:
    """The game's own arrays for an ``n_players`` game (values are set by setup, or by a test). Two players get a
    third seat, the Free City, whose hand row holds its draw pile and, while its card is chosen, the holder's other
    cards after it (free_city.py): rows twice as wide (SW-2P-1 / SW-2P-2)."""
    n = seat_count(n_players)
    hand = rules.hand_size * (2 if n_players == 2 else 1)
    n_names = int(data.card_name.max()) + 1
    z = lambda *shape: np.zeros(shape, dtype=np.int64)  # noqa: E731
    g = z(len(GS))
    g[GS.n] = n
    g[GS.gp] = -1
    g[GS.pile_before_last] = -1
    return Fields(
        g=g, coins=z(n), wonder=z(n), side=z(n), stages=z(n), city=z(n, MAX_CITY) - 1, city_n=z(n),
        has_name=z(n, n_names), color_n=z(n, 7), shields=z(n), science=z(n, 4), victory=z(n, MAX_VICTORY + 1),
        defeat_n=z(n), defeat_vp=z(n), hand=z(n, hand) - 1, hand_n=z(n), deck=z(7 * n) - 1,
        discard=z(3 * 7 * n) - 1, olympia_used=z(n), pending=z(n), prod=z(n, N_RES), sell=z(n, N_RES),
        unlimited=z(n), chc=z(n, MAX_CHOICE), chc_sell=z(n, MAX_CHOICE), chc_n=z(n), disc=z(n),
        tiles=z(n, 3) - 1, tile_built=z(n, 3), tiles_built=z(n), tile_due=z(n), babel_slot=z(4) - 1,
        babel_age=z(4), tile_on=z(N_TILES), teff=z(N_TE), gp_part=z(n), gp_wild=z(n), gp_free_build=z(n),
        gp_free_stage=z(n), gp_sci_set=z(n), gp_guild=z(n), gp_wonder=z(n), gp_took=z(n), board_lost=z(n),
        vp_now=z(n), score_row=z(MAX_SCORE_ROW), tile_pool=z(n, 3) - 1, pick=z(n, 4) - 1, paid=z(n, 3), income=z(n),
        pick_chain=z(n), pe_before=z(n), need=z(N_RES), buy=z(2, N_RES),
        flow_head=z(FLOW_NODES), flow_to=z(FLOW_EDGES), flow_cap=z(FLOW_EDGES), flow_cost=z(FLOW_EDGES),
        flow_next=z(FLOW_EDGES), flow_info=z(FLOW_EDGES), flow_dist=z(FLOW_NODES), flow_prev=z(FLOW_NODES),
        flow_queue=z(FLOW_NODES + 1), flow_inq=z(FLOW_NODES), units=z(3 * MAX_CHOICE, 4), left=z(N_RES),
        offer=z(2, 2, N_RES), stat=z(n, len(ST)), plan=z(2, 2),
        tile_rec=z(N_TILES, len(TREC)), gp_rec=z(3, len(GPREC)), dealt=z(1), price=z(MAX_OPT),
        pver=z(n), pv_old=z(PV_WIDTH), tc_key=z(n, TC_SLOTS) - 1, tc_stamp=z(n, TC_SLOTS), tc_cost=z(n, TC_SLOTS),
    )


def new_state(rules: Rules, n_players: int, table=None, trace: np.ndarray = NO_TRACE):
    """A kernel handle for hand-built positions and tests: the game's fields plus the core's (all seats random
    unless a strategy table is given; events logged into ``trace`` if it has rows)."""
    from sim.seven_wonders import SPEC

    return SPEC.new_state(rules, n_players, table, trace)[0]
