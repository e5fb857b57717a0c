"""Bus replays: a game's events (played again in trace mode by the core) as the core's event log, under the
setup's and each round's planning and resolution headers."""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from sim.bus.data import ZONES
from sim.bus.engine import EV
from sim.bus.lines import KIND_EXC1, KIND_EXC2
from sim.bus.records import END_LABELS
from sim.bus.state import ACTION_NAMES, PL, TYPE_NAMES
from sim.core.replay import EventText, event_renderer, label, seat_labels
from sim.core.spec import Traced

LETTERS = "abcdefgh"
KIND_TEXT = {0: "free street", KIND_EXC1: "exception 1: no free street there", KIND_EXC2: "exception 2: shared end"}
UNITS = {0: "stick(s)", 2: "passenger(s)", 3: "building(s)"}
"""What an action's cubes owe, by action (Line expansion, New passengers, New buildings)."""


def _article(noun: str) -> str:
    """'a House', 'an Office'."""
    return ("an " if noun[0] in "AEIOU" else "a ") + noun


class Lookup(NamedTuple):
    """What the texts look up: the board (streets, stations), the seats and the setup header with their supplies."""

    board: Any
    seats: list[str]
    setup: str

    def who(self, seat: int) -> str:
        return label(self.seats, seat)

    def street(self, st: int) -> str:
        return f"street {st} ({self.board.st_a[st]}-{self.board.st_b[st]})"

    def place(self, x: int) -> str:
        return f"station {x}" if self.board.is_station[x] else f"intersection {x}"

    def building(self, row: Sequence[int]) -> str:
        """A building event's (seat, space, type, intersection, zone): "builds a Pub on space 3 (...)"."""
        space, kind, inter, zone = row[3:7]
        return (f"{self.who(row[1])} builds {_article(TYPE_NAMES[kind])} on space {space} ({self.place(inter)}, "
                f"zone {ZONES[zone]})")


def lookup(traced: Traced) -> Lookup:
    """The game's board and seats; each seat's sticks (its line's limit) head the setup."""
    seats = seat_labels(traced)
    limits = traced.state.pl[:, PL.limit]
    supplies = [f"  {seats[p]}: {limits[p]} sticks, 20 action cubes + 1 bus" for p in range(len(seats))]
    return Lookup(traced.data, seats, "\n".join(supplies + ["== Setup =="]))


def _slot(row: Sequence[int]) -> str:
    return f"slot {LETTERS[row[4]]}" if row[3] in (0, 2, 3, 5) else "its only slot"


def _stick(ctx: Lookup, row: Sequence[int]) -> str:
    street, start, end, kind, closes = row[3:8]
    loop = ", closes a loop" if closes else ""
    text = f"{ctx.who(row[1])} adds {ctx.street(street)} from {start} to {end} [{KIND_TEXT[kind]}{loop}]"
    return f"     {text}" if row[0] > 0 else f"  {text} (second stick)"


def _clock(ctx: Lookup, row: Sequence[int]) -> str:
    seat, stopped, hand, gems = row[1], row[3], row[4], row[5]
    if seat < 0:
        return f"  5. Clock: nobody took it; time runs, the hand moves to {TYPE_NAMES[hand]}"
    if stopped:
        return f"  5. Clock: {ctx.who(seat)} stops time and takes a gem ({gems} left); hand stays on {TYPE_NAMES[hand]}"
    return f"  5. Clock: {ctx.who(seat)} lets time run; the hand moves to {TYPE_NAMES[hand]}"


TEXTS: dict[int, EventText] = {
    EV.setup_bld: lambda ctx, r: f"  {ctx.building(r)}",
    EV.setup_stick: lambda ctx, r: f"  {ctx.who(r[1])} lays the first stick on {ctx.street(r[3])}",
    EV.round: lambda ctx, r: (f"== Round {r[0]} == starting player {ctx.who(r[3])}; M = {r[4]}; clock on "
                              f"{TYPE_NAMES[r[5]]}; {r[6]} gems on the clock; {r[7]} passengers in the supply"),
    EV.plan: lambda ctx, r: f"  {ctx.who(r[1])} puts a cube on {ACTION_NAMES[r[3]]}, {_slot(r)}",
    EV.pass_: lambda ctx, r: f"  {ctx.who(r[1])} passes" + (" (forced: no cube or no free slot)" if r[3] else ""),
    EV.action: lambda ctx, r: (f"  {r[3] + 1}. {ACTION_NAMES[r[3]]} slot {LETTERS[r[4]]}: {ctx.who(r[1])} owes "
                               f"{r[5]} {UNITS[r[3]]}"),
    EV.stick: _stick,
    EV.bus: lambda ctx, r: f"  2. Buy a bus: {ctx.who(r[1])} now has {r[3]} buses; M = {r[4]}",
    EV.pax: lambda ctx, r: f"     a passenger arrives at {ctx.place(r[3])} ({r[4]} left in the supply)",
    EV.bld: lambda ctx, r: f"     {ctx.building(r)}",
    EV.city_full: "     the last building space is filled: the game ends after this round",
    EV.clock: _clock,
    EV.vroom: lambda ctx, r: (f"  6. Vrroomm! slot {LETTERS[r[3]]} (passengers want {_article(TYPE_NAMES[r[6]])}): "
                              f"{ctx.who(r[1])} with {r[5]} bus(es) must deliver {r[4]}"),
    EV.deliver: lambda ctx, r: (f"     {ctx.who(r[1])} carries a passenger from {ctx.place(r[3])} to "
                                f"{ctx.place(r[4])}: {r[5]} points"),
    EV.start: lambda ctx, r: (f"  7. Starting player: {ctx.who(r[3])} took it and starts next round" if r[4] else
                              f"  7. Starting player: nobody took it; the bus passes to {ctx.who(r[3])}"),
    EV.line: lambda ctx, r: f"  line of {ctx.who(r[1])}: ends {r[3]} and {r[4]}, {r[5]} sticks, {r[6]} points",
    EV.end: lambda ctx, r: f"== Game over after round {r[0]}: {END_LABELS[r[3]]} ==",
    EV.score: lambda ctx, r: f"  {ctx.who(r[1])}: {r[3]} points - {r[4]} gems = {r[5]}, rank {r[6]}",
}
"""The log line of each event type (sim.core.replay)."""


def _setup(ctx: Lookup, row: Sequence[int]) -> str:
    return ctx.setup


def _phase(ctx: Lookup, row: Sequence[int]) -> str:
    """The second stick is laid in the setup; later sticks in a round's resolution."""
    return ctx.setup if row[0] == 0 else " Resolution:"


SECTIONS: dict[int, EventText] = {
    EV.setup_bld: _setup, EV.setup_stick: _setup, EV.stick: _phase, EV.plan: " Planning:", EV.pass_: " Planning:",
    **{kind: " Resolution:" for kind in (EV.action, EV.bus, EV.pax, EV.bld, EV.city_full, EV.clock, EV.vroom,
                                         EV.deliver, EV.start, EV.line, EV.end, EV.score)},
}
"""The headers (sim.core.replay): the setup (after each seat's supplies), then per round (its own event's line)
the planning and the resolution, which runs on to the end of the game."""

render_game = event_renderer("Bus", TEXTS, lookup, SECTIONS)
"""A replayed game as text: the seats' supplies and the setup, then each round's planning and resolution, the
lines and the final scores."""
