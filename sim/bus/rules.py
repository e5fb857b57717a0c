"""Bus rules variants: every rulebook number and every balance-relevant BUS-AMB decision as a named field."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.names import namespace

R = namespace("R", (
    "sticks_long", "sticks_short", "cubes", "passengers", "start_passengers_per_central", "clock_gems_3p",
    "clock_gems_45p", "slots_per_action", "loop_marker_costs_cube", "parallel_requires_end_stick",
    "five_player_bonus", "setup_buildings", "short_seats_mask", "clock_advances_round_1", "city_full_ends_at_once",
    "exception1_per_end",
))
"""The kernel's rules array (``Rules.to_array``): the numeric fields, and ``short_seats_mask`` (the 18-stick
seats as a bitmask, -1 = drawn at random per game) in place of the text field."""

MAX_SLOTS = 8
"""Upper bound of ``slots_per_action`` (record columns exist for letters a..h)."""


@dataclass(frozen=True)
class Rules:
    """Bus (3rd edition) numbers and decisions; defaults follow docs/rules/bus.md."""

    sticks_long: int = 28  # BUS-COMP-3: three colours with 28 sticks
    sticks_short: int = 18  # BUS-COMP-3: two colours with 18 sticks
    cubes: int = 20  # BUS-COMP-4: 21 per colour, one becomes the first bus
    passengers: int = 15  # BUS-COMP-7
    start_passengers_per_central: int = 1  # BUS-SETUP-5: one on each central intersection
    clock_gems_3p: int = 4  # BUS-COMP-8 / BUS-SETUP-3
    clock_gems_45p: int = 5  # BUS-COMP-8 / BUS-SETUP-3
    slots_per_action: int = 6  # BUS-AMB-1
    loop_marker_costs_cube: bool = False  # BUS-AMB-3
    parallel_requires_end_stick: bool = False  # BUS-AMB-6 (strict exception 2)
    short_colour_seats: str = ""  # BUS-AMB-21: "" = random seats per game, else e.g. "1,3"
    five_player_bonus: int = 1  # BUS-EXP-3: extra sticks per expansion slot with 5 players
    setup_buildings: int = 2  # BUS-SETUP-7
    clock_advances_round_1: bool = True  # BUS-AMB-10: the hand moves in round 1 too
    city_full_ends_at_once: bool = False  # BUS-AMB-17: False = end of the round the city filled
    exception1_per_end: bool = True  # BUS-AMB-5: False = only when no end has a free street
    board: str = ""  # BUS-AMB-2: "" = packaged board.json, else a path to another map

    def validate(self) -> None:
        """Raise PlaytestError naming the first impossible value."""
        checks = [
            (self.sticks_long >= 2, "sticks_long must be at least 2 (two sticks are placed at setup)"),
            (self.sticks_short >= 2, "sticks_short must be at least 2 (two sticks are placed at setup)"),
            (1 <= self.cubes <= 200, "cubes must be between 1 and 200"),
            (self.passengers >= 0, "passengers must be >= 0"),
            (self.start_passengers_per_central >= 0, "start_passengers_per_central must be >= 0"),
            (1 <= self.clock_gems_3p <= 20, "clock_gems_3p must be between 1 and 20"),
            (1 <= self.clock_gems_45p <= 20, "clock_gems_45p must be between 1 and 20"),
            (1 <= self.slots_per_action <= MAX_SLOTS, f"slots_per_action must be between 1 and {MAX_SLOTS}"),
            (0 <= self.five_player_bonus <= 5, "five_player_bonus must be between 0 and 5"),
            (0 <= self.setup_buildings <= 2, "setup_buildings must be 0, 1 or 2 (zone A holds 12 spaces)"),
        ]
        for ok, msg in checks:
            if not ok:
                raise PlaytestError(f"bus rules: {msg}; fix the --set value")
        self.short_seats()

    def short_seats(self) -> tuple[int, ...]:
        """The fixed 18-stick seats of ``short_colour_seats`` ("" -> (), drawn at random per game)."""
        text = self.short_colour_seats.strip()
        if not text:
            return ()
        try:
            seats = tuple(int(x) for x in text.replace(";", ",").split(",") if x.strip())
        except ValueError:
            raise PlaytestError(
                f"bus rules: short_colour_seats='{self.short_colour_seats}' is not a comma list of seats; "
                "write e.g. --set short_colour_seats=1,3"
            ) from None
        if len(set(seats)) != len(seats) or any(not 0 <= s < 5 for s in seats) or len(seats) > 2:
            raise PlaytestError(
                f"bus rules: short_colour_seats='{self.short_colour_seats}' must name at most 2 different "
                "seats between 0 and 4; write e.g. --set short_colour_seats=1,3"
            )
        return seats

    def gems(self, n_players: int) -> int:
        """Gems on the clock at setup (BUS-SETUP-3)."""
        return self.clock_gems_3p if n_players == 3 else self.clock_gems_45p

    def to_array(self, n_players: int) -> np.ndarray:
        """The kernel view: an int64 array indexed by ``R`` (checked for ``n_players``)."""
        self.validate()
        seats = self.short_seats()
        n_short = n_players - 3  # BUS-COMP-3: 3 long colours, the rest are short
        mask = -1
        if seats:
            if len(seats) != n_short or any(s >= n_players for s in seats):
                raise PlaytestError(
                    f"bus rules: short_colour_seats='{self.short_colour_seats}' must name exactly {n_short} "
                    f"seat(s) below {n_players} in a {n_players}-player game; fix it or leave it empty"
                )
            mask = sum(1 << s for s in seats)
        elif n_short == 0:
            mask = 0
        values = {f: mask if f == "short_seats_mask" else int(getattr(self, f)) for f in R._fields}
        return np.array([values[f] for f in R._fields], dtype=np.int64)
