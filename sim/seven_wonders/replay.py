"""7 Wonders + Babel replays: a game's events (played again in trace mode by the core) rendered turn by turn."""

from __future__ import annotations

from sim.core.spec import Traced
from sim.seven_wonders.data import PENALTY, kernel_data
from sim.seven_wonders.events import EV
from sim.seven_wonders.projects import NO_EFFECT, UNBEARABLE
from sim.seven_wonders.turn import ACT, MODE

MODE_TEXT = {MODE.pay: "", MODE.chain: " free through a chain", MODE.olympia: " free (Olympia)",
             MODE.token: " free (free-build token)"}
PART_TEXT = {0: "", 1: ", joining the Great Project", 2: ", joining the Great Project with a wild token"}


def render_game(traced: Traced) -> str:
    """A readable turn-by-turn log of one game (the same kernel and seeds as the run that logged it)."""
    data = kernel_data(traced.rules.data or None)  # the names ride on the handle
    n = len(traced.names)
    names = [f"seat {p} ({traced.names[p]})" for p in range(n)] + (["the Free City"] if n == 2 else [])

    def card(c: int) -> str:
        return data.card_names[c] if 0 <= c < len(data.card_names) else "?"

    def tile(t: int) -> str:
        return data.tile_labels[t] if 0 <= t < len(data.tile_labels) else f"tile {t + 1}"

    out = [f"7 Wonders + Babel replay: game {traced.game_index}, seed {traced.seed}, {n} players"]
    out.append("== Setup ==")
    for _rnd, seat, et, a0, a1, a2, a3, a4 in traced.events.tolist():
        who = names[seat] if 0 <= seat < len(names) else ""
        if et == EV.board:
            out.append(f"  {who}: {data.wonder_names[a0]} side {'AB'[a1]}")
        elif et == EV.keep_tile:
            out.append(f"  {who} keeps Babel tile {tile(a0)} (draft round {a1 + 1})")
        elif et == EV.age:
            project = data.project_names[a1] if a1 >= 0 else "none"
            out.append(f"== Age {a0} == Great Project: {project} ({a2} tokens)")
        elif et == EV.turn:
            out.append(f"-- Age {a0}, turn {a1} --")
        elif et == EV.pick:
            cost = f" for {a4} coins" if a4 else ""
            if a0 == ACT.build:
                if a2 == MODE.discard:
                    continue
                if a2 != MODE.pay and a4:
                    cost = f", paying {a4} coins of taxes and participation"
                out.append(f"  {who} builds {card(a1)}{MODE_TEXT[a2]}{cost}{PART_TEXT[a3]}")
            elif a0 == ACT.stage:
                token = " with a free-stage token" if a2 else ""
                out.append(f"  {who} builds a Wonder stage with {card(a1)}{token}{cost}")
            elif a0 == ACT.sell:
                out.append(f"  {who} discards {card(a1)} for 3 coins")
            else:
                out.append(f"  {who} discards {card(a1)} to build Babel tile {a2 + 1} of their three")
        elif et == EV.trade:
            out.append(f"    pays {a0} to the left neighbour, {a1} to the right")
        elif et == EV.seventh:
            out.append(f"  {who} uses the 7th card (Babylon B)")
        elif et == EV.hali:
            cost = f", paying {a2} coins of taxes and participation" if a2 else ""
            text = f"builds {card(a0)} from the discard pile{cost}{PART_TEXT[a1]}" if a0 >= 0 else "builds nothing"
            out.append(f"  {who} (Halikarnassos) {text}")
        elif et == EV.tile:
            covers = f", covering Babel tile {tile(a2)}" if a2 >= 0 else ""
            out.append(f"  Babel tile {tile(a0)} placed in slot {a1 + 1} (built by {who}){covers}")
        elif et == EV.project:
            outcome = "succeeds" if a1 else "fails"
            out.append(f"== Great Project {data.project_names[a0]} {outcome}: {a2} participant(s), {a3} token(s)")
        elif et == EV.penalty:
            if a1 == UNBEARABLE:
                text = "cannot bear the penalty: a Defeat token"
            elif a1 == NO_EFFECT:
                text = "has nothing the penalty takes"
            elif a0 == PENALTY.lose_card:
                text = "loses a structure"
            elif a0 == PENALTY.lose_victory_token:
                text = f"loses Victory tokens worth {a1} and {a2}" if a2 else f"loses a Victory token worth {a1}"
            elif a0 == PENALTY.lose_all_coins:
                text = "gives all coins to the bank"
            else:
                text = "loses the board's resource"
            out.append(f"  {who} {text}")
        elif et == EV.military:
            out.append(f"  {who}: strength {a0}, military VP {a1}")
        elif et == EV.score:
            out.append(f"  {who}: {a0} VP, {a1} coins")
        elif et == EV.end:
            out.append("== End of the game ==")
    return "\n".join(out)
