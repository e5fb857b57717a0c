"""Circus Train game state (CT-STATE-1/2): the game's own fields as NumPy arrays sized for the player count.

Scalars live in ``g[GS.*]``, per-player scalars in ``pl[seat, PL.*]`` and the per-player counters the records
report in ``stat[seat, ST.*]``. The core adds the common fields: the player count (``meta[M.n_players]``), the
dice, bag and deck generator (``rng``) and the option rows every generator fills (``options``, OPTION_WIDTH wide).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sim.circus_train.data import N_CARDS, N_MONTHS, N_TYPES, Data
from sim.circus_train.rules import Rules
from sim.core.names import expand, namespace
from sim.core.state import compose

GS = namespace("GS", [
    "week",  # global week index 0..26 (CT-CAL-1); 27 once the game is over
    "first",  # first-player seat (CT-SETUP-7, CT-MONTH-1)
    "bag_n",  # counters in the bag
    "bag_season",  # season of the bag in use (CT-SEASON-1)
    "ended",  # 1 after final scoring
    "hire_rolled",  # rolls made in the current hire action (CT-HIRE-2)
    "hire_phase",  # hire.DECLARE / ROLL / BUY (CT-HIRE-2, CT-AMB-37)
    "hire_failed",  # type of the counter whose roll just failed (the $10 buy, CT-HIRE-3)
    "event",  # Event card whose month effect is in force, -1 none (CT-OPT-EVENT-2)
    "event_n",  # cards in the event deck (CT-OPT-EVENT-1)
    "event_next",  # index of the next card to reveal
    "events_revealed",  # engine: Event cards revealed
    "catchups",  # engine: catch-up steals that took a counter
    "fired_placed",  # engine: fired groups placed on a city
    "replacements",  # engine: cities replenished by Roustabout phases (CT-ROUST-2, CT-STAT-12)
    "bag_empty_week",  # engine: first week after whose Roustabout phase the bag was empty, 0 never (CT-STAT-12)
    "quota_short",  # engine: weeks that began with fewer occupied cities than the quota (CT-STAT-12)
    "first_setup",  # the first player drawn at setup (CT-SETUP-7): CT-SEAT-1 seats count from it
])
PL = namespace("PL", [
    "city",  # train position (-1 before CT-SETUP-13)
    "money",
    "vp",
    "best",  # Best Performance marker (CT-SETUP-2, CT-PERF-7)
    "n_pr",  # PR counters owned (CT-PERF-4, CT-SCORE-FINAL-6)
    "pr_base",  # sum of their base points (CT-PERF-4)
    "show",  # counter of the two-week show in progress, -1 none (CT-TWO-1)
    "rep",  # reputation index (CT-REP-1), advanced game
    "show_week",  # week the two-week show started (CT-TWO-2: it must complete on the very next turn)
    "show_level",  # level of the show as at its start (CT-AMB-6 switch)
    "refill_week",  # week the player last took the discard pile back (CT-SCORE-FINAL-1), -1 never
])
ST = namespace("ST", expand((
    ("start_city", 1),
    ("vp_talent", 1),  # VP from most talent at month ends (CT-SCORE-MONTH-1)
    ("vp_best", 1),  # VP from best performance / April at month ends (CT-SCORE-MONTH-2..4)
    ("vp_points", 1),  # VP from Points counters (CT-PTS-1)
    ("vp_final", 1),  # net VP of final scoring, taxes included (CT-SCORE-FINAL-*)
    ("performances", 1),
    ("shows_started", 1),
    ("perf_money", 1),  # money earned by performances
    ("hire_rolls", 1),
    ("hired", 1),  # counters hired by a roll, a buy or Smuggler Sam
    ("hire_buys", 1),  # $10 buys after a failed roll (CT-HIRE-3)
    ("steal_rolls", 1),
    ("stolen", 1),  # counters taken by Overnight Hire steals
    ("robbed", 1),  # counters lost to steals
    ("reserve_buys", 1),  # Special Hire buys from the reserve
    ("special_declined", 1),  # Special Hires declined with another choice open (CT-AMB-42)
    ("wages_paid", 1),
    ("fired", 1),  # counters released by wage payments
    ("catchups", 1),
    ("recruits", 1),
    ("replays", 1),
    ("pockets", 1),
    ("parades", 1),
    ("rest_rewards", 1),
    ("distance", 1),  # shortest-path steps between the cities left and reached by each movement (CT-STAT-12)
    ("dead_end_weeks", 1),  # weeks ended in a city with a single rail line (CT-STAT-12)
    ("points_taken", 1),  # Points counters claimed (CT-PTS-1, CT-STAT-12)
    ("card", N_CARDS),  # cards played (or replayed) per action card
    ("money_month", N_MONTHS),  # money at each month end, after scoring
    ("vp_month", N_MONTHS),  # VP at each month end, after scoring (CT-STAT-11 leader dynamics)
    ("start_talent", N_TYPES),  # talents of each type chosen at setup (CT-SETUP-8, CT-STAT-3)
    ("hired_type", N_TYPES),  # talents of each type hired or bought from the reserve (CT-STAT-5)
)))
"""Per-player counters for the records: ``stat[seat, ST.x]`` (``ST.card + c`` for card c)."""

# Where a Local News counter is (CT-STATE-3 item 2).
LOC_ASIDE, LOC_BAG, LOC_BOARD, LOC_PLAYER, LOC_REMOVED, LOC_CHAR_RESERVE = range(6)

MAX_OPTIONS = 512
"""Rows of the option buffer: the largest generator (steal targets of one victim: pairs of 7 types and 6
characters, or triples with ``steal_character_extra``) stays far below."""
OPTION_WIDTH = 4
"""Columns of an option row (a steal target set uses three)."""


class Fields(NamedTuple):
    """Circus Train's own arrays: board, circuses, hands, the bag and decks, hire and wage scratch."""

    g: np.ndarray  # int64 (len(GS),)
    pl: np.ndarray  # int64 (n, len(PL))
    stat: np.ndarray  # int64 (n, len(ST)) counters for the records
    own: np.ndarray  # int64 (n, 7) talent counters per type in each circus
    hand: np.ndarray  # int64 (n, 8) action cards in hand by card (CT-CARD-1)
    disc: np.ndarray  # int64 (n, 8) action cards in the discard pile
    city_item: np.ndarray  # int64 (n_city,) PR or Points counter on the city, -1 none (CT-STATE-1)
    city_talent: np.ndarray  # int64 (n_city, 7) talent group on the city
    city_char: np.ndarray  # int64 (n_city,) counter id of a Special Character on the city, -1 none
    reserve: np.ndarray  # int64 (7,) talent reserve
    ctr_where: np.ndarray  # int64 (n_ctr,) LOC_* of each Local News counter
    ctr_owner: np.ndarray  # int64 (n_ctr,) seat owning a PR or character counter, -1 none
    bag: np.ndarray  # int64 (n_ctr,) counter ids in the bag (first g[GS.bag_n] entries, unordered)
    dest: np.ndarray  # int64 (n_dest,) destination deck (top = last, see sim.core.deck)
    dest_disc: np.ndarray  # int64 (n_dest,) destination discard pile
    dest_n: np.ndarray  # int64 (2,) deck and discard sizes
    tried: np.ndarray  # int64 (7,) counters per type already rolled for in this hire (CT-AMB-37)
    plan: np.ndarray  # int64 (7,) counters declared and not yet rolled for (CT-HIRE-2) / kept set (CT-FIRE-1)
    fired: np.ndarray  # int64 (7,) talent fired by the last wage payment, waiting for a city (CT-FIRE-2)
    events: np.ndarray  # int64 (n_events,) the event deck, revealed in order (CT-OPT-EVENT-1)
    gain: np.ndarray  # int64 (n,) scoring scratch
    mark: np.ndarray  # int64 (n,) engine scratch: VP (solitaire: money) before a month's scoring or a final step
    rivals: np.ndarray  # int64 (n_city,) engine scratch: rival circuses' counters per city (features)
    near: np.ndarray  # int64 (3, longest move + 1) engine scratch: the most of each engine.NEAR_* within k steps
    asked: np.ndarray  # int64 (7,) engine scratch: requests on the board asking for each type (features)


LAYOUT = compose("CircusTrainState", Fields)
State = LAYOUT.tuple_type


def max_options(rules: Rules, n_players: int, data: Data) -> int:
    """Rows of the option buffer (see MAX_OPTIONS)."""
    return MAX_OPTIONS


def longest_move(data: Data) -> int:
    """The most steps a card's movement can allow: the longest printed allowance plus Brakeman Bill's step
    (CT-OPT-CHAR-6); an Event card only caps it."""
    return int(data.card_move_max.max()) + 1


def allocate(rules: Rules, n_players: int, data: Data) -> Fields:
    """Circus Train's own arrays for an ``n_players`` game on ``data``, zeroed (sim.circus_train.setup fills
    them)."""
    n_city = data.deg.shape[0]
    n_ctr = data.ctr_kind.shape[0]
    n_dest = data.dest_city.shape[0]
    z = np.zeros
    return Fields(
        g=z(len(GS), np.int64), pl=z((n_players, len(PL)), np.int64), stat=z((n_players, len(ST)), np.int64),
        own=z((n_players, N_TYPES), np.int64), hand=z((n_players, N_CARDS), np.int64),
        disc=z((n_players, N_CARDS), np.int64), city_item=np.full(n_city, -1, np.int64),
        city_talent=z((n_city, N_TYPES), np.int64), city_char=np.full(n_city, -1, np.int64),
        reserve=z(N_TYPES, np.int64), ctr_where=z(n_ctr, np.int64), ctr_owner=np.full(n_ctr, -1, np.int64),
        bag=z(n_ctr, np.int64), dest=z(n_dest, np.int64), dest_disc=z(n_dest, np.int64), dest_n=z(2, np.int64),
        tried=z(N_TYPES, np.int64), plan=z(N_TYPES, np.int64), fired=z(N_TYPES, np.int64),
        events=z(data.ev_effect.shape[0], np.int64), gain=z(n_players, np.int64), mark=z(n_players, np.int64),
        rivals=z(n_city, np.int64), near=z((3, longest_move(data) + 1), np.int64),
        asked=z(N_TYPES, np.int64),
    )
