"""Bus rules variants: every rulebook number and every balance-relevant BUS-AMB decision as a declared field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.errors import PlaytestError
from sim.core.fields import field
from sim.core.rules import RulesFields, kernel_namespace

MAX_SLOTS = 8
"""Upper bound of ``slots_per_action`` (the state's slot arrays and the record columns hold letters a..h)."""
MAX_SEATS = 5
SEAT_POINTS_MAX = 10
"""Most starting points a seat may get (BUS-SEAT-1: seat compensation, not in the rulebook)."""
WINS_TIES = "wins exact ties on final score, before gems (half a point)"
"""BUS-SEAT-2: the tie priority, the half point of seat compensation (not in the rulebook)."""


def short_seats(text: str) -> tuple[int, ...]:
    """The fixed 18-stick seats of a ``short_colour_seats`` value ("" -> (), drawn at random per game)."""
    text = text.strip()
    if not text:
        return ()
    try:
        seats = tuple(int(x) for x in text.replace(";", ",").split(",") if x.strip())
    except ValueError:
        raise PlaytestError(f"bus rules: short_colour_seats='{text}' is not a comma list of seats; "
                            "write e.g. --set short_colour_seats=1,3") from None
    if len(set(seats)) != len(seats) or any(not 0 <= s < MAX_SEATS for s in seats) or len(seats) > 2:
        raise PlaytestError(f"bus rules: short_colour_seats='{text}' must name at most 2 different seats between 0 "
                            f"and {MAX_SEATS - 1}; write e.g. --set short_colour_seats=1,3")
    return seats


def short_seats_mask(rules: Any, n_players: int) -> int:
    """The kernel's ``short_seats_mask``: the 18-stick seats as a bitmask, -1 = drawn at random per game."""
    seats = short_seats(rules.short_colour_seats)
    if seats:
        return sum(1 << s for s in seats)
    return 0 if n_players == 3 else -1


@dataclass(frozen=True)
class Rules(RulesFields):
    """Bus (3rd edition) numbers and decisions; defaults follow docs/rules/bus.md."""

    sticks_long: int = field(28, ge=2, le=100, rule="BUS-COMP-3", doc="sticks of the three long colours "
                                                                       "(two are placed at setup)")
    sticks_short: int = field(18, ge=2, le=100, rule="BUS-COMP-3", doc="sticks of the two short colours")
    cubes: int = field(20, ge=1, le=200, rule="BUS-COMP-4", doc="action cubes (21 per colour, one is the first bus)")
    passengers: int = field(15, ge=0, le=200, rule="BUS-COMP-7", doc="passengers in the game")
    start_passengers_per_central: int = field(1, ge=0, le=10, rule="BUS-SETUP-5",
                                              doc="passengers on each central intersection at setup")
    clock_gems_3p: int = field(4, ge=1, le=20, rule="BUS-SETUP-3", doc="gems on the clock with 3 players")
    clock_gems_45p: int = field(5, ge=1, le=20, rule="BUS-SETUP-3", doc="gems on the clock with 4 or 5 players")
    slots_per_action: int = field(6, ge=1, le=MAX_SLOTS, rule="BUS-AMB-1", doc="slots of each multi-slot action")
    loop_marker_costs_cube: bool = field(False, rule="BUS-AMB-3", doc="a loop marker costs a cube")
    parallel_requires_end_stick: bool = field(False, rule="BUS-AMB-6", doc="strict exception 2: a parallel "
                                                                           "street needs an end stick")
    short_colour_seats: str = field("", rule="BUS-AMB-21", doc='the 18-stick seats, e.g. "1,3" ("" = random '
                                    "per game)", kernel="short_seats_mask", encode=short_seats_mask)
    five_player_bonus: int = field(1, ge=0, le=5, rule="BUS-EXP-3",
                                   doc="extra sticks per expansion slot with 5 players")
    setup_buildings: int = field(2, ge=0, le=2, rule="BUS-SETUP-7", doc="buildings each player places at setup "
                                                                         "(zone A holds 12 spaces)")
    clock_advances_round_1: bool = field(True, rule="BUS-AMB-10", doc="the clock hand moves in round 1 too")
    city_full_ends_at_once: bool = field(False, rule="BUS-AMB-17", doc="a full city ends the game at once "
                                                                       "(False: at the end of that round)")
    exception1_per_end: bool = field(True, rule="BUS-AMB-5", doc="exception 1 applies per line end (False: only "
                                                                 "when no end has a free street)")
    board: str = field("", rule="BUS-AMB-2", doc='the map ("" = the packaged board.json, else a path)')
    seat2_points: int = field(0, ge=0, le=SEAT_POINTS_MAX, rule="BUS-SEAT-1", doc="starting points for seat 2")
    seat3_points: int = field(0, ge=0, le=SEAT_POINTS_MAX, rule="BUS-SEAT-1", doc="starting points for seat 3")
    seat4_points: int = field(0, ge=0, le=SEAT_POINTS_MAX, rule="BUS-SEAT-1", doc="starting points for seat 4")
    seat5_points: int = field(0, ge=0, le=SEAT_POINTS_MAX, rule="BUS-SEAT-1", doc="starting points for seat 5")
    seat2_wins_ties: bool = field(False, rule="BUS-SEAT-2", doc=f"seat 2 {WINS_TIES}")
    seat3_wins_ties: bool = field(False, rule="BUS-SEAT-2", doc=f"seat 3 {WINS_TIES}")
    seat4_wins_ties: bool = field(False, rule="BUS-SEAT-2", doc=f"seat 4 {WINS_TIES}")
    seat5_wins_ties: bool = field(False, rule="BUS-SEAT-2", doc=f"seat 5 {WINS_TIES}")

    def seat_units_per_point(self) -> float:
        """BUS-SEAT-1: the starting points are points."""
        return 1.0

    def seat_fractions(self) -> dict[str, float]:
        """BUS-SEAT-2: winning exact ties on final score (before gems) is worth half a point."""
        return {"wins_ties": 0.5}

    def gems(self, n_players: int) -> int:
        """Gems on the clock at setup (BUS-SETUP-3)."""
        return self.clock_gems_3p if n_players == 3 else self.clock_gems_45p


R = kernel_namespace(Rules)
"""The kernel's rules array (``Rules.to_array``): the numeric fields, and ``short_seats_mask`` (the 18-stick
seats as a bitmask, -1 = drawn at random per game) in place of the text field."""


def check_rules(rules: Rules, n_players: int, board: Any) -> None:
    """Rules that fit each field's bounds but not each other, this board or the player count (one line each)."""
    seats = short_seats(rules.short_colour_seats)
    n_short = n_players - 3  # BUS-COMP-3: 3 long colours, the rest are short
    if seats and (len(seats) != n_short or any(s >= n_players for s in seats)):
        raise PlaytestError(f"bus rules: short_colour_seats='{rules.short_colour_seats}' must name exactly "
                            f"{n_short} seat(s) below {n_players} in a {n_players}-player game; fix it or leave it "
                            "empty")
    need = n_players * rules.setup_buildings
    if board.zone_n[0] < need:
        raise PlaytestError(f"bus: zone A has {board.zone_n[0]} spaces but {n_players} players need {need} at "
                            "setup; lower setup_buildings or use a bigger board")
    if rules.start_passengers_per_central * len(board.central) > rules.passengers:
        raise PlaytestError(
            f"bus: {rules.start_passengers_per_central} start passengers on each of {len(board.central)} central "
            f"intersections exceed the {rules.passengers} passengers; lower start_passengers_per_central"
        )
