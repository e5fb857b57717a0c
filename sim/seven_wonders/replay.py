"""7 Wonders + Babel replays: a game's events (played again in trace mode by the core) as the core's event log,
turn by turn."""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from sim.core.replay import EventText, event_renderer, label, seat_labels
from sim.core.spec import Traced
from sim.seven_wonders.data import PENALTY, kernel_data
from sim.seven_wonders.events import EV
from sim.seven_wonders.projects import NO_EFFECT, UNBEARABLE
from sim.seven_wonders.turn import ACT, MODE

MODE_TEXT = {MODE.pay: "", MODE.chain: " free through a chain", MODE.olympia: " free (Olympia)",
             MODE.token: " free (free-build token)"}
PART_TEXT = {0: "", 1: ", joining the Great Project", 2: ", joining the Great Project with a wild token"}


class Lookup(NamedTuple):
    """What the texts look up: the names of the cards, boards, tiles and projects, and of every seat."""

    data: Any
    seats: list[str]

    def card(self, c: int) -> str:
        return self.data.card_names[c] if 0 <= c < len(self.data.card_names) else "?"

    def tile(self, t: int) -> str:
        return self.data.tile_labels[t] if 0 <= t < len(self.data.tile_labels) else f"tile {t + 1}"

    def who(self, seat: int) -> str:
        return label(self.seats, seat)


def lookup(traced: Traced) -> Lookup:
    """The game's names (they ride on the data handle) and its seats, the Free City third in a 2-player game."""
    seats = seat_labels(traced) + (["the Free City"] if len(traced.names) == 2 else [])
    return Lookup(kernel_data(traced.rules.data or None), seats)


def _pick(ctx: Lookup, row: Sequence[int]) -> str | None:
    """A played card: built (a discard-mode build is the 7th card's discard: no line), a stage, sold or a tile."""
    who, (action, card, extra, part, coins) = ctx.who(row[1]), row[3:8]
    cost = f" for {coins} coins" if coins else ""
    if action == ACT.build:
        if extra == MODE.discard:
            return None
        if extra != MODE.pay and coins:
            cost = f", paying {coins} coins of taxes and participation"
        return f"  {who} builds {ctx.card(card)}{MODE_TEXT[extra]}{cost}{PART_TEXT[part]}"
    if action == ACT.stage:
        token = " with a free-stage token" if extra else ""
        return f"  {who} builds a Wonder stage with {ctx.card(card)}{token}{cost}"
    if action == ACT.sell:
        return f"  {who} discards {ctx.card(card)} for 3 coins"
    return f"  {who} discards {ctx.card(card)} to build Babel tile {extra + 1} of their three"


def _hali(ctx: Lookup, row: Sequence[int]) -> str:
    card, part, coins = row[3:6]
    cost = f", paying {coins} coins of taxes and participation" if coins else ""
    text = f"builds {ctx.card(card)} from the discard pile{cost}{PART_TEXT[part]}" if card >= 0 else "builds nothing"
    return f"  {ctx.who(row[1])} (Halikarnassos) {text}"


def _penalty(ctx: Lookup, row: Sequence[int]) -> str:
    kind, value, second = row[3:6]
    if value == UNBEARABLE:
        text = "cannot bear the penalty: a Defeat token"
    elif value == NO_EFFECT:
        text = "has nothing the penalty takes"
    elif kind == PENALTY.lose_card:
        text = "loses a structure"
    elif kind == PENALTY.lose_victory_token:
        text = f"loses Victory tokens worth {value} and {second}" if second else f"loses a Victory token worth {value}"
    elif kind == PENALTY.lose_all_coins:
        text = "gives all coins to the bank"
    else:
        text = "loses the board's resource"
    return f"  {ctx.who(row[1])} {text}"


TEXTS: dict[int, EventText] = {
    EV.board: lambda ctx, r: f"  {ctx.who(r[1])}: {ctx.data.wonder_names[r[3]]} side {'AB'[r[4]]}",
    EV.keep_tile: lambda ctx, r: f"  {ctx.who(r[1])} keeps Babel tile {ctx.tile(r[3])} (draft round {r[4] + 1})",
    EV.age: lambda ctx, r: (f"== Age {r[3]} == Great Project: "
                            f"{ctx.data.project_names[r[4]] if r[4] >= 0 else 'none'} ({r[5]} tokens)"),
    EV.turn: "-- Age {a0}, turn {a1} --",
    EV.pick: _pick,
    EV.trade: "    pays {a0} to the left neighbour, {a1} to the right",
    EV.seventh: lambda ctx, r: f"  {ctx.who(r[1])} uses the 7th card (Babylon B)",
    EV.hali: _hali,
    EV.tile: lambda ctx, r: (f"  Babel tile {ctx.tile(r[3])} placed in slot {r[4] + 1} (built by {ctx.who(r[1])})"
                             + (f", covering Babel tile {ctx.tile(r[5])}" if r[5] >= 0 else "")),
    EV.project: lambda ctx, r: (f"== Great Project {ctx.data.project_names[r[3]]} "
                                f"{'succeeds' if r[4] else 'fails'}: {r[5]} participant(s), {r[6]} token(s)"),
    EV.penalty: _penalty,
    EV.military: lambda ctx, r: f"  {ctx.who(r[1])}: strength {r[3]}, military VP {r[4]}",
    EV.score: lambda ctx, r: f"  {ctx.who(r[1])}: {r[3]} VP, {r[4]} coins",
    EV.end: "== End of the game ==",
}
"""The log line of each event type (sim.core.replay)."""

render_game = event_renderer("7 Wonders + Babel", TEXTS, lookup)
"""A replayed game as text: boards, the tile draft, then every Age's project, turns, picks, trades, tiles, project
outcome and military, and the final scores."""
