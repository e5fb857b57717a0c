"""Sea Trade replays: play one game in trace mode (same kernel) and render its events as a readable log."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.trace import new_trace
from sim.sea_trade.engine import play_game
from sim.sea_trade.rules import Rules
from sim.sea_trade.state import (CARD_NAMES, COMMODITIES, EV_BUY, EV_DEAL, EV_DRAW, EV_END_TURN, EV_LAND,
                                 EV_MARKET, EV_OFFER, EV_PIRATE, EV_PIRATE_START, EV_PLUNDER, EV_RESHUFFLE,
                                 EV_ROUND, EV_SAIL, EV_SELL, EV_START, EV_STORM, EV_TIMEOUT, EV_WIN, M_EVENTS,
                                 MARKETS, new_state)
from strategies.core import StrategyTable

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


def replay(rules: Rules, n_players: int, seat_row: np.ndarray, game_index: int, seed: int, table: StrategyTable,
           strategy_names: Sequence[str]) -> str:
    """Replay game ``game_index`` of a run: board at the start, then every draw, move, trade, pirate and storm."""
    rules.validate()
    if not 2 <= n_players <= len(MARKETS):
        raise PlaytestError(f"sea_trade needs 2 to 6 players, not {n_players}; pass --players 2..6")
    st = new_state(rules, n_players, table, trace=new_trace(400_000))
    st.seat_strat[:] = np.asarray(seat_row, dtype=np.int64)[:n_players]
    play_game(st, game_index, seed, False)
    events = st.trace[: st.misc[M_EVENTS]]
    names = [strategy_names[int(i)] for i in st.seat_strat]
    return render(events, rules.grid_size, names, game_index)


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
        if et == EV_LAND:
            land.add(a0)
        elif et == EV_MARKET:
            markets[a1] = a0
        elif et == EV_PIRATE_START:
            pirates[a0] = a1
        elif et == EV_DEAL:
            hands.setdefault(seat, []).append(CARD_NAMES[a0] if a0 >= 0 else "(none)")
        elif et == EV_START:
            ships[seat] = a1
            out.append(f"{who} starts in {MARKETS[a0]} ({_cell(g, a1)}) with hand: {', '.join(hands.get(seat, []))}")
        else:
            if not board_done:
                by_cell: dict[int, list[int]] = {}
                for s, c in ships.items():
                    by_cell.setdefault(c, []).append(s)
                out.append(board_text(g, land, markets, set(pirates.values()), by_cell))
                board_done = True
            if et == EV_ROUND:
                out.append(f"--- round {a0}")
            elif et == EV_DRAW:
                out.append(f"{who} draws {CARD_NAMES[a0] if a0 >= 0 else 'nothing (deck and discard empty)'}")
            elif et == EV_RESHUFFLE:
                out.append(f"{who}: deck empty, {a0} discarded cards reshuffled into a new deck")
            elif et == EV_SAIL:
                out.append(f"{who} plays {CARD_NAMES[a0]}: ship {_cell(g, a1)} -> {_cell(g, a2)} ({a3} step"
                           f"{'s' if a3 > 1 else ''})")
            elif et == EV_BUY:
                out.append(f"{who} buys {a1} {COMMODITIES[a0]} for {a2} gold (gold {a3})")
            elif et == EV_SELL:
                out.append(f"{who} sells 1 {COMMODITIES[a0]} in {MARKETS[a3]} for {a1} gold (gold {a2})")
            elif et == EV_OFFER:
                place = "hold" if a3 == 0 else "hand"
                verdict = "accepted" if a4 else "declined"
                out.append(f"{who} offers seat {a0} 1 {COMMODITIES[a1]} for 1 {COMMODITIES[a2]} ({place} to {place}):"
                           f" {verdict}")
            elif et == EV_PIRATE:
                pirates[a0] = a3
                out.append(f"{who} plays {CARD_NAMES[a1]} on pirate {a0}: {_cell(g, a2)} -> {_cell(g, a3)}")
            elif et == EV_PLUNDER:
                out.append(f"    pirate plunders seat {a0} at {_cell(g, a2)}: {a1} hold card{'s' if a1 != 1 else ''}"
                           " discarded")
            elif et == EV_STORM:
                prev = f", removed from {_cell(g, a1)}" if a1 >= 0 else ""
                out.append(f"{who} plays Storm on {_cell(g, a0)}{prev}")
            elif et == EV_END_TURN:
                out.append(f"{who} ends the turn: gold {a0}, hand {a1}, hold {a2}, ship at {_cell(g, a3)}")
            elif et == EV_WIN:
                out.append(f"*** {who} reaches {a0} gold and wins in round {rnd}")
            elif et == EV_TIMEOUT:
                out.append(f"*** round cap reached in round {rnd}: timeout, nobody wins")
    return "\n".join(out)
