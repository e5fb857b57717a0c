"""Sea Trade replays: a game's events (played again in trace mode by the core) as a readable log."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.core.spec import Traced
from sim.sea_trade.state import CARD_NAMES, COMMODITIES, EV, MARKETS

MARKET_LETTERS = "REGPCK"
"""Board letters: Rome, Egypt, Greece, Persia, Carthage, Crete (K for Krete: C is Carthage)."""


def _cell(g: int, c: int) -> str:
    """Human coordinates: column letter a.. from the west, row number 1.. from the north (e.g. c4)."""
    return f"{chr(ord('a') + c % g)}{c // g + 1}"


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


def render_game(traced: Traced) -> str:
    """A replayed game as text: the board at the start, then every draw, move, trade, pirate and storm."""
    return render(traced.events, traced.rules.grid_size, traced.names, traced.game_index)


def render(events: np.ndarray, g: int, names: Sequence[str], game_index: int = 0) -> str:
    """Turn an event buffer into text (one line per event, the board after setup)."""
    land: set[int] = set()
    markets: dict[int, int] = {}
    pirates: dict[int, int] = {}
    out = [f"Sea Trade, game {game_index}: " + ", ".join(f"seat {s} = {n}" for s, n in enumerate(names))]
    hands: dict[int, list[str]] = {}
    ships: dict[int, int] = {}
    board_done = False
    for rnd, seat, et, a0, a1, a2, a3, a4 in events.tolist():
        who = f"seat {seat}"
        if et == EV.land:
            land.add(a0)
        elif et == EV.market:
            markets[a1] = a0
        elif et == EV.pirate_start:
            pirates[a0] = a1
        elif et == EV.deal:
            hands.setdefault(seat, []).append(CARD_NAMES[a0] if a0 >= 0 else "(none)")
        elif et == EV.start:
            ships[seat] = a1
            out.append(f"{who} starts in {MARKETS[a0]} ({_cell(g, a1)}) with hand: {', '.join(hands.get(seat, []))}")
        else:
            if not board_done:
                by_cell: dict[int, list[int]] = {}
                for s, c in ships.items():
                    by_cell.setdefault(c, []).append(s)
                out.append(board_text(g, land, markets, set(pirates.values()), by_cell))
                board_done = True
            if et == EV.round:
                out.append(f"--- round {a0}")
            elif et == EV.draw:
                out.append(f"{who} draws {CARD_NAMES[a0] if a0 >= 0 else 'nothing (deck and discard empty)'}")
            elif et == EV.reshuffle:
                out.append(f"{who}: deck empty, {a0} discarded cards reshuffled into a new deck")
            elif et == EV.sail:
                out.append(f"{who} plays {CARD_NAMES[a0]}: ship {_cell(g, a1)} -> {_cell(g, a2)} ({a3} step"
                           f"{'s' if a3 > 1 else ''})")
            elif et == EV.buy:
                out.append(f"{who} buys {a1} {COMMODITIES[a0]} for {a2} gold (gold {a3})")
            elif et == EV.sell:
                out.append(f"{who} sells 1 {COMMODITIES[a0]} in {MARKETS[a3]} for {a1} gold (gold {a2})")
            elif et == EV.offer:
                place = "hold" if a3 == 0 else "hand"
                verdict = "accepted" if a4 else "declined"
                out.append(f"{who} offers seat {a0} 1 {COMMODITIES[a1]} for 1 {COMMODITIES[a2]} ({place} to {place}):"
                           f" {verdict}")
            elif et == EV.pirate:
                pirates[a0] = a3
                out.append(f"{who} plays {CARD_NAMES[a1]} on pirate {a0}: {_cell(g, a2)} -> {_cell(g, a3)}")
            elif et == EV.plunder:
                out.append(f"    pirate plunders seat {a0} at {_cell(g, a2)}: {a1} hold card{'s' if a1 != 1 else ''}"
                           " discarded")
            elif et == EV.storm:
                prev = f", removed from {_cell(g, a1)}" if a1 >= 0 else ""
                out.append(f"{who} plays Storm on {_cell(g, a0)}{prev}")
            elif et == EV.end_turn:
                out.append(f"{who} ends the turn: gold {a0}, hand {a1}, hold {a2}, ship at {_cell(g, a3)}")
            elif et == EV.win:
                out.append(f"*** {who} reaches {a0} gold and wins in round {rnd}")
            elif et == EV.timeout:
                out.append(f"*** round cap reached in round {rnd}: timeout, nobody wins")
    return "\n".join(out)
