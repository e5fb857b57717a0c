"""Sea Trade replays: a game's events (played again in trace mode by the core) as the core's event log, with the
board drawn after the setup."""

from __future__ import annotations

from typing import NamedTuple, Sequence

from sim.core.replay import EventText, event_renderer
from sim.core.spec import Traced
from sim.sea_trade.state import CARD_NAMES, COMMODITIES, EV, MARKETS

MARKET_LETTERS = "REGPCK"
"""Board letters: Rome, Egypt, Greece, Persia, Carthage, Crete (K for Krete: C is Carthage)."""


def _cell(g: int, c: int) -> str:
    """Human coordinates: column letter a.. from the west, row number 1.. from the north (e.g. c4)."""
    return f"{chr(ord('a') + c % g)}{c // g + 1}"


def _card(c: int) -> str:
    return CARD_NAMES[c] if c >= 0 else "nothing (deck and discard empty)"


def board_text(g: int, land: set[int], markets: dict[int, int], pirates: set[int], ships: dict[int, list[int]],
               storm: int = -1) -> str:
    """ASCII board: # land, market letters, x pirate, * storm, digits = seats' ships, . sea; north up."""
    lines = ["    " + " ".join(chr(ord("a") + c) for c in range(g)) + "     (N up, E right)"]
    for r in range(g):
        row = []
        for col in range(g):
            c = r * g + col
            if c in land:
                row.append("#")
            elif c in markets:
                seats = ships.get(c, [])
                row.append(MARKET_LETTERS[markets[c]] if not seats else str(seats[0]))
            elif c in pirates:
                row.append("x")
            elif c == storm:
                row.append("*")
            elif c in ships:
                row.append(str(ships[c][0]))
            else:
                row.append(".")
        lines.append(f"{r + 1:>3} " + " ".join(row))
    legend = ", ".join(f"{MARKET_LETTERS[m]}={MARKETS[m]}" for m in range(len(MARKETS)))
    lines.append(f"    # land, x pirate, * storm, digits = ships (seat); {legend}")
    return "\n".join(lines)


class Start(NamedTuple):
    """What the texts look up: the grid size, the hands dealt, the last seat to start and the starting board."""

    g: int
    hands: dict[int, list[str]]
    last_seat: int
    board: str


def start(traced: Traced) -> Start:
    """The game's starting position, read from its setup events."""
    ev = traced.events
    g = traced.rules.grid_size

    def rows(kind: int) -> list[list[int]]:
        return ev[ev[:, 2] == kind].tolist()

    hands: dict[int, list[str]] = {}
    for row in rows(EV.deal):
        hands.setdefault(row[1], []).append(_card(row[3]))
    ships: dict[int, list[int]] = {}
    for row in rows(EV.start):
        ships.setdefault(row[4], []).append(row[1])
    board = board_text(g, {row[3] for row in rows(EV.land)}, {row[4]: row[3] for row in rows(EV.market)},
                       {row[4] for row in rows(EV.pirate_start)}, ships)
    return Start(g, hands, max(row[1] for row in rows(EV.start)), board)


def _start_text(ctx: Start, row: Sequence[int]) -> str:
    seat, market, cell = row[1], row[3], row[4]
    text = f"seat {seat} starts in {MARKETS[market]} ({_cell(ctx.g, cell)}) with hand: {', '.join(ctx.hands[seat])}"
    return text + "\n" + ctx.board if seat == ctx.last_seat else text


def _offer_text(ctx: Start, row: Sequence[int]) -> str:
    seat, partner, give, get, where, accepted = row[1], *row[3:8]
    place = "hold" if where == 0 else "hand"
    return (f"seat {seat} offers seat {partner} 1 {COMMODITIES[give]} for 1 {COMMODITIES[get]} ({place} to {place}):"
            f" {'accepted' if accepted else 'declined'}")


TEXTS: dict[int, EventText] = {
    EV.land: None, EV.market: None, EV.pirate_start: None, EV.deal: None,  # drawn on the board
    EV.start: _start_text,
    EV.draw: lambda ctx, r: f"seat {r[1]} draws {_card(r[3])}",
    EV.reshuffle: "{seat}: deck empty, {a0} discarded cards reshuffled into a new deck",
    EV.sail: lambda ctx, r: (f"seat {r[1]} plays {CARD_NAMES[r[3]]}: ship {_cell(ctx.g, r[4])} -> "
                             f"{_cell(ctx.g, r[5])} ({r[6]} step{'s' if r[6] > 1 else ''})"),
    EV.buy: lambda ctx, r: f"seat {r[1]} buys {r[4]} {COMMODITIES[r[3]]} for {r[5]} gold (gold {r[6]})",
    EV.sell: lambda ctx, r: (f"seat {r[1]} sells 1 {COMMODITIES[r[3]]} in {MARKETS[r[6]]} for {r[4]} gold "
                             f"(gold {r[5]})"),
    EV.offer: _offer_text,
    EV.pirate: lambda ctx, r: (f"seat {r[1]} plays {CARD_NAMES[r[4]]} on pirate {r[3]}: {_cell(ctx.g, r[5])} -> "
                               f"{_cell(ctx.g, r[6])}"),
    EV.plunder: lambda ctx, r: (f"    pirate plunders seat {r[3]} at {_cell(ctx.g, r[5])}: {r[4]} hold "
                                f"card{'s' if r[4] != 1 else ''} discarded"),
    EV.storm: lambda ctx, r: (f"seat {r[1]} plays Storm on {_cell(ctx.g, r[3])}"
                              + (f", removed from {_cell(ctx.g, r[4])}" if r[4] >= 0 else "")),
    EV.end_turn: lambda ctx, r: (f"seat {r[1]} ends the turn: gold {r[3]}, hand {r[4]}, hold {r[5]}, ship at "
                                 f"{_cell(ctx.g, r[6])}"),
    EV.win: "*** {seat} reaches {a0} gold and wins in round {round}",
    EV.timeout: "*** round cap reached in round {round}: timeout, nobody wins",
}
"""The log line of each event type (sim.core.replay): setup events are drawn on the board instead."""

render_game = event_renderer("Sea Trade", TEXTS, start)
"""A replayed game as text: the seating, the starting hands and board, then every draw, move, trade, pirate and
storm, round by round, and the final standings."""
