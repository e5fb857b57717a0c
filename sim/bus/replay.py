"""Bus replays: a game's events (played again in trace mode by the core) rendered round by round."""

from __future__ import annotations

from sim.bus import engine as E
from sim.bus.data import ZONES
from sim.bus.lines import KIND_EXC1, KIND_EXC2
from sim.bus.records import END_LABELS, GC
from sim.bus.state import ACTION_NAMES, PL, TYPE_NAMES
from sim.core.spec import Traced

LETTERS = "abcdefgh"
KIND_TEXT = {0: "free street", KIND_EXC1: "exception 1: no free street there", KIND_EXC2: "exception 2: shared end"}


def _article(noun: str) -> str:
    """'a House', 'an Office'."""
    return ("an " if noun[0] in "AEIOU" else "a ") + noun


def render_game(traced: Traced) -> str:
    """A readable turn-by-turn log of one game (the same kernel and seeds as the run that logged it)."""
    events, game, board = traced.events, traced.games, traced.data
    limits = traced.state.pl[:, PL.limit]
    n_players = len(traced.names)
    game_index, seed = traced.game_index, traced.seed
    names = [f"seat {p} ({traced.names[p]})" for p in range(n_players)]

    def street(st: int) -> str:
        return f"street {st} ({board.st_a[st]}-{board.st_b[st]})"

    def place(x: int) -> str:
        return f"station {x}" if board.is_station[x] else f"intersection {x}"

    out = [f"Bus replay: game {game_index}, seed {seed}, {n_players} players (seat 0 drew the first-player cube)"]
    out += [f"  {names[p]}: {limits[p]} sticks, 20 action cubes + 1 bus" for p in range(n_players)]
    out.append("== Setup ==")
    last_round = -1
    planning = False
    for rnd, seat, et, a0, a1, a2, a3, a4 in events.tolist():
        who = names[seat] if 0 <= seat < n_players else ""
        if planning and et not in (E.EV.round, E.EV.plan, E.EV.pass_):
            planning = False
            out.append(" Resolution:")
        if et == E.EV.setup_bld:
            out.append(f"  {who} builds {_article(TYPE_NAMES[a1])} on space {a0} ({place(a2)}, zone {ZONES[a3]})")
        elif et == E.EV.setup_stick:
            out.append(f"  {who} lays the first stick on {street(a0)}")
        elif et == E.EV.round:
            if rnd != last_round:
                last_round = rnd
                out.append(f"== Round {rnd} == starting player {names[a0]}; M = {a1}; clock on {TYPE_NAMES[a2]}; "
                           f"{a3} gems on the clock; {a4} passengers in the supply")
                out.append(" Planning:")
                planning = True
        elif et == E.EV.plan:
            slot = f"slot {LETTERS[a1]}" if a0 in (0, 2, 3, 5) else "its only slot"
            out.append(f"  {who} puts a cube on {ACTION_NAMES[a0]}, {slot}")
        elif et == E.EV.pass_:
            out.append(f"  {who} passes" + (" (forced: no cube or no free slot)" if a0 else ""))
        elif et == E.EV.action:
            unit = {0: "stick(s)", 2: "passenger(s)", 3: "building(s)"}[a0]
            out.append(f"  {a0 + 1}. {ACTION_NAMES[a0]} slot {LETTERS[a1]}: {who} owes {a2} {unit}")
        elif et == E.EV.stick:
            loop = ", closes a loop" if a4 else ""
            text = f"{who} adds {street(a0)} from {a1} to {a2} [{KIND_TEXT[a3]}{loop}]"
            out.append(f"     {text}" if rnd > 0 else f"  {text} (second stick)")
        elif et == E.EV.bus:
            out.append(f"  2. Buy a bus: {who} now has {a0} buses; M = {a1}")
        elif et == E.EV.pax:
            out.append(f"     a passenger arrives at {place(a0)} ({a1} left in the supply)")
        elif et == E.EV.bld:
            out.append(f"     {who} builds {_article(TYPE_NAMES[a1])} on space {a0} ({place(a2)}, zone {ZONES[a3]})")
        elif et == E.EV.city_full:
            out.append("     the last building space is filled: the game ends after this round")
        elif et == E.EV.clock:
            if seat < 0:
                out.append(f"  5. Clock: nobody took it; time runs, the hand moves to {TYPE_NAMES[a1]}")
            elif a0:
                out.append(f"  5. Clock: {who} stops time and takes a gem ({a2} left); hand stays on {TYPE_NAMES[a1]}")
            else:
                out.append(f"  5. Clock: {who} lets time run; the hand moves to {TYPE_NAMES[a1]}")
        elif et == E.EV.vroom:
            want = _article(TYPE_NAMES[a3])
            out.append(f"  6. Vrroomm! slot {LETTERS[a0]} (passengers want {want}): {who} with {a2} bus(es) must deliver {a1}")
        elif et == E.EV.deliver:
            out.append(f"     {who} carries a passenger from {place(a0)} to {place(a1)}: {a2} points")
        elif et == E.EV.start:
            if a1:
                out.append(f"  7. Starting player: {names[a0]} took it and starts next round")
            else:
                out.append(f"  7. Starting player: nobody took it; the bus passes to {names[a0]}")
        elif et == E.EV.line:
            out.append(f"  line of {who}: ends {a0} and {a1}, {a2} sticks, {a3} points")
        elif et == E.EV.end:
            out.append(f"== Game over after round {rnd}: {END_LABELS[a0]} ==")
        elif et == E.EV.score:
            out.append(f"  {who}: {a0} points - {a1} gems = {a2}, rank {a3}")
    winner = int(game[GC.winner_seat])
    out.append(f"Winner: {names[winner]}" if winner >= 0 else "The win is shared.")
    return "\n".join(out)
