"""Circus Train replays: a game's events (played again in trace mode by the core) as the core's event log, week by
week, under the setup's and the final scoring's headers."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple, Sequence

from sim.circus_train import advanced as ADV
from sim.circus_train import special_hire as SH
from sim.circus_train.data import CARDS, CHARACTERS, MONTHS, N_TYPES, TALENT_TYPES, load_data
from sim.circus_train.engine import EV
from sim.circus_train.final import FINAL_STEPS
from sim.circus_train.records import SOLO_BANDS
from sim.core.replay import EventText, event_renderer, label, seat_labels
from sim.core.spec import Traced

TURN_KIND = {ADV.PLAY: "plays", ADV.REPLAY: "replays from the discard pile",
             ADV.EDDIE_REPLAY: "replays (Engineer Eddie)"}
REST_TEXT = {ADV.REST_CLOWN: "a clown", ADV.REST_ACROBAT: "an acrobat", ADV.REST_REPUTATION: "a reputation step"}
STEP_TEXT = ("most clowns", "no clowns", "no animals", "most money", "most performances", "highest reputation")
"""The final-scoring steps (final.MOST_CLOWNS ..), in printed order (CT-SCORE-FINAL-2..6, CT-ADV-FINAL-1)."""
assert len(STEP_TEXT) == FINAL_STEPS


def _card(c: int) -> str:
    return CARDS[c].replace("_", " ").title()


def _talent(t: int) -> str:
    return TALENT_TYPES[t].replace("_", " ")


def _a(t: int) -> str:
    """'a horse', 'an acrobat'."""
    name = _talent(t)
    return ("an " if name[0] in "aeiou" else "a ") + name


def _item(x: int) -> str:
    """A steal target: a talent type or 7 + a character."""
    if x < 0:
        return "nothing"
    return _talent(x) if x < N_TYPES else CHARACTERS[x - N_TYPES].replace("_", " ").title()


class Lookup(NamedTuple):
    """What the texts look up: the city and counter names, the seats, the score's unit (solitaire scores in
    money) and each final-scoring step's rows (seat, change, total), said once the last seat's row is read."""

    data: Any
    seats: list[str]
    unit: Callable[[int], str]
    steps: dict[int, list[tuple[int, int, int]]]

    def who(self, seat: int) -> str:
        return label(self.seats, seat)

    def city(self, c: int) -> str:
        return self.data.city_names[c] if 0 <= c < len(self.data.city_names) else "the reserve"

    def counter(self, k: int) -> str:
        return self.data.counter_ids[k]


def lookup(traced: Traced) -> Lookup:
    """The game's names (the kernel handle holds only arrays), seats, score unit and final-scoring steps."""
    unit = (lambda x: f"${x}") if len(traced.names) == 1 else (lambda x: f"{x} VP")
    steps: dict[int, list[tuple[int, int, int]]] = {}
    for row in traced.events[traced.events[:, 2] == EV.final_step].tolist():
        steps.setdefault(row[3], []).append((row[1], row[4], row[5]))
    return Lookup(load_data(traced.rules.data or None), seat_labels(traced), unit, steps)


def _final_step(ctx: Lookup, row: Sequence[int]) -> str | None:
    """One final-scoring step, at its last seat's row: each seat whose score it changed, with the change and the
    new total."""
    rows = ctx.steps[row[3]]
    if row[1] != rows[-1][0]:
        return None
    moved = [f"{ctx.who(p)} {'+' if dx > 0 else '-'}{ctx.unit(abs(dx))} -> {ctx.unit(after)}"
             for p, dx, after in rows if dx != 0]
    return f"  {STEP_TEXT[row[3]]}: " + ("; ".join(moved) if moved else "no change")


def _turn(ctx: Lookup, row: Sequence[int]) -> str:
    kind, what = row[3], row[4]
    if kind == ADV.POCKET:
        return f" {ctx.who(row[1])} pockets wages: {what} reputation step(s)"
    return f" {ctx.who(row[1])} {TURN_KIND[kind]} {_card(what)}"


def _reserve_buy(ctx: Lookup, row: Sequence[int]) -> str:
    kind, what, price = row[3:6]
    what_text = _talent(what) if kind == SH.BUY else CHARACTERS[what].replace("_", " ").title()
    return f"   buys {what_text} from the reserve for ${price}"


def _wages(ctx: Lookup, row: Sequence[int]) -> str:
    paid, released, times = row[3:6]
    fired = f", {released} counter(s) released" if released else ""
    times_text = f" (x{times})" if times > 1 else ""
    return f"   {ctx.who(row[1])} pays ${paid} in wages{times_text}{fired}"


def _event_card(ctx: Lookup, row: Sequence[int]) -> str:
    card, chooser, item = row[3:6]
    choice = f"; {ctx.who(chooser)} names {_item(item)}" if chooser >= 0 else ""
    return f"  Event card {card} is revealed{choice}"


TEXTS: dict[int, EventText] = {
    EV.start_talent: lambda ctx, r: f"  {ctx.who(r[1])} takes a starting {_talent(r[3])}",
    EV.start_city: lambda ctx, r: f"  {ctx.who(r[1])} starts in {ctx.city(r[3])}",
    EV.week: lambda ctx, r: (f"== Week {r[3]} == first player {ctx.who(r[4])} "
                             f"({'quota met' if r[5] else 'the bag is empty'})"),
    EV.turn: _turn,
    EV.move: lambda ctx, r: (f"   moves {ctx.city(r[3])} -> {ctx.city(r[4])}" if r[5] else
                             f"   stays in {ctx.city(r[3])}"),
    EV.points: lambda ctx, r: f"   claims a Points counter in {ctx.city(r[4])}: {r[3]} VP",
    EV.recruit: lambda ctx, r: f"   rolls {r[4]} to recruit {ctx.counter(r[3])}: {'joins' if r[5] else 'fails'}",
    EV.perform: lambda ctx, r: (f"   performs {ctx.counter(r[3])} in {ctx.city(r[7])}: level {r[4]}, ${r[5]}"
                                + (", a new best performance" if r[6] else "")),
    EV.show_start: lambda ctx, r: f"   starts the two-week show {ctx.counter(r[3])} in {ctx.city(r[4])}",
    EV.hire_roll: lambda ctx, r: f"   rolls {r[4]} for {_a(r[3])}: {'hired' if r[5] else 'fails'}",
    EV.hire_buy: lambda ctx, r: f"   buys the {_talent(r[3])} for $10",
    EV.sam: lambda ctx, r: "   Smuggler Sam: " + (f"{_a(r[3])} without a roll" if r[3] >= 0 else "a reputation step"),
    EV.steal: lambda ctx, r: f"   steals from {ctx.who(r[3])}: {r[5]} of {r[4]} counter(s) taken",
    EV.reserve_buy: _reserve_buy,
    EV.special_declined: "   declines the Special Hire",
    EV.wages: _wages,
    EV.fired_city: lambda ctx, r: (f"   the fired talent goes to {ctx.city(r[3])}"
                                   + (f" ({ctx.who(r[1])} chooses)" if ctx.who(r[1]) else "")),
    EV.rest: lambda ctx, r: f"   rests in Canada: {REST_TEXT[r[3]]}",
    EV.parade: lambda ctx, r: "   parades: " + ("a reputation step" if r[3] else "VP"),
    EV.month: lambda ctx, r: f"== End of {MONTHS[r[3]].capitalize()} ==",
    EV.first_player: lambda ctx, r: f"  the first-player marker passes to {ctx.who(r[3])}",
    EV.month_vp: lambda ctx, r: (f"  {ctx.who(r[1])}: {r[3]} VP for most talent, {r[4]} for performances (best "
                                 f"performance or April), {r[5]} VP in all"),
    EV.catch_up: lambda ctx, r: (f"  catch-up: {ctx.who(r[1])} takes {_item(r[4])} from "
                                 f"{ctx.who(r[3]) if r[3] >= 0 else 'nobody'}"),
    EV.event_card: _event_card,
    EV.taxes: lambda ctx, r: (f"  taxes: {ctx.who(r[1])} has Wage & Transit in hand: -{r[3]} VP -> {r[4]} VP, and "
                              "double wages"),
    EV.end_wages: lambda ctx, r: f"  end-of-game wages: bill ${r[3]}, {ctx.who(r[1])} pays ${r[4]} -> ${r[5]}",
    EV.final_step: _final_step,
    EV.final: lambda ctx, r: (f"  {ctx.who(r[1])}: {r[3]} VP, ${r[4]}, best performance {r[5]}, {r[6]} requests"
                              + (f", {SOLO_BANDS[r[7]]}" if r[7] >= 0 else "")),
    EV.end: "== Game over after September ==",
}
"""The log line of each event type (sim.core.replay)."""

SECTIONS: dict[int, EventText] = {
    EV.start_talent: "== Setup ==", EV.start_city: "== Setup ==",
    EV.taxes: "== Final scoring ==", EV.end_wages: "== Final scoring ==", EV.final_step: "== Final scoring ==",
}
"""The headers (sim.core.replay) the events do not write themselves: the setup and the final scoring; the weeks
and the months' ends are events of their own."""

render_game = event_renderer("Circus Train", TEXTS, lookup, SECTIONS)
"""A replayed game as text: the starting talent and cities, every turn week by week, each month's scoring, the
final scoring step by step and the final standings."""
