"""Circus Train replays: a game's events (played again in trace mode by the core) rendered week by week."""

from __future__ import annotations

from sim.circus_train import advanced as ADV
from sim.circus_train import special_hire as SH
from sim.circus_train.data import CARDS, CHARACTERS, MONTHS, N_TYPES, TALENT_TYPES, load_data
from sim.circus_train.engine import EV
from sim.circus_train.final import FINAL_STEPS
from sim.circus_train.records import GC, SOLO_BANDS
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


def render_game(traced: Traced) -> str:
    """A readable week-by-week log of one game (the same kernel and seeds as the run that logged it)."""
    data = load_data(traced.rules.data or None)  # the names (the kernel handle holds only arrays)
    n_players = len(traced.names)
    names = [f"seat {p} ({traced.names[p]})" for p in range(n_players)]

    def city(c: int) -> str:
        return data.city_names[c] if 0 <= c < len(data.city_names) else "the reserve"

    def counter(k: int) -> str:
        return data.counter_ids[k]

    out = [f"Circus Train replay: game {traced.game_index}, seed {traced.seed}, {n_players} player(s)"]
    out += [f"  {names[p]}" for p in range(n_players)]
    unit = (lambda x: f"${x}") if n_players == 1 else (lambda x: f"{x} VP")  # solitaire scores in money

    def step_line(rows: list) -> str:
        """One final-scoring step: each seat whose score it changed, with the change and the new total."""
        moved = [f"{names[p]} {'+' if dx > 0 else '-'}{unit(abs(dx))} -> {unit(after)}"
                 for p, dx, after, _step in rows if dx != 0]
        return f"  {STEP_TEXT[rows[0][3]]}: " + ("; ".join(moved) if moved else "no change")

    out.append("== Setup ==")
    steps: list = []
    final_heading = False
    for _rnd, seat, et, a0, a1, a2, a3, a4 in traced.events.tolist():
        if et in (EV.taxes, EV.end_wages, EV.final_step) and not final_heading:
            out.append("== Final scoring ==")
            final_heading = True
        who = names[seat] if 0 <= seat < n_players else ""
        if et == EV.start_talent:
            out.append(f"  {who} takes a starting {_talent(a0)}")
        elif et == EV.start_city:
            out.append(f"  {who} starts in {city(a0)}")
        elif et == EV.week:
            quota = "quota met" if a2 else "the bag is empty"
            out.append(f"== Week {a0} == first player {names[a1]} ({quota})")
        elif et == EV.turn:
            if a0 == ADV.POCKET:
                out.append(f" {who} pockets wages: {a1} reputation step(s)")
            else:
                out.append(f" {who} {TURN_KIND[a0]} {_card(a1)}")
        elif et == EV.move:
            out.append(f"   moves {city(a0)} -> {city(a1)}" if a2 else f"   stays in {city(a0)}")
        elif et == EV.points:
            out.append(f"   claims a Points counter in {city(a1)}: {a0} VP")
        elif et == EV.recruit:
            out.append(f"   rolls {a1} to recruit {counter(a0)}: {'joins' if a2 else 'fails'}")
        elif et == EV.perform:
            best = ", a new best performance" if a3 else ""
            out.append(f"   performs {counter(a0)} in {city(a4)}: level {a1}, ${a2}{best}")
        elif et == EV.show_start:
            out.append(f"   starts the two-week show {counter(a0)} in {city(a1)}")
        elif et == EV.hire_roll:
            out.append(f"   rolls {a1} for {_a(a0)}: {'hired' if a2 else 'fails'}")
        elif et == EV.hire_buy:
            out.append(f"   buys the {_talent(a0)} for $10")
        elif et == EV.sam:
            out.append("   Smuggler Sam: " + (f"{_a(a0)} without a roll" if a0 >= 0 else "a reputation step"))
        elif et == EV.steal:
            out.append(f"   steals from {names[a0]}: {a2} of {a1} counter(s) taken")
        elif et == EV.reserve_buy:
            what = _talent(a1) if a0 == SH.BUY else CHARACTERS[a1].replace("_", " ").title()
            out.append(f"   buys {what} from the reserve for ${a2}")
        elif et == EV.wages:
            fired = f", {a1} counter(s) released" if a1 else ""
            times = f" (x{a2})" if a2 > 1 else ""
            out.append(f"   {who} pays ${a0} in wages{times}{fired}")
        elif et == EV.fired_city:
            out.append(f"   the fired talent goes to {city(a0)}" + (f" ({who} chooses)" if who else ""))
        elif et == EV.rest:
            out.append(f"   rests in Canada: {REST_TEXT[a0]}")
        elif et == EV.parade:
            out.append("   parades: " + ("a reputation step" if a0 else "VP"))
        elif et == EV.month:
            out.append(f"== End of {MONTHS[a0].capitalize()} ==")
        elif et == EV.month_vp:
            out.append(f"  {who}: {a0} VP for most talent, {a1} for performances (best performance or April), "
                       f"{a2} VP in all")
        elif et == EV.first_player:
            out.append(f"  the first-player marker passes to {names[a0]}")
        elif et == EV.catch_up:
            victim = names[a0] if a0 >= 0 else "nobody"
            out.append(f"  catch-up: {who} takes {_item(a1)} from {victim}")
        elif et == EV.event_card:
            choice = f"; {names[a1]} names {_item(a2)}" if a1 >= 0 else ""
            out.append(f"  Event card {a0} is revealed{choice}")
        elif et == EV.special_declined:
            out.append("   declines the Special Hire")
        elif et == EV.taxes:
            out.append(f"  taxes: {who} has Wage & Transit in hand: -{a0} VP -> {a1} VP, and double wages")
        elif et == EV.end_wages:
            out.append(f"  end-of-game wages: bill ${a0}, {who} pays ${a1} -> ${a2}")
        elif et == EV.final_step:
            steps.append((seat, a1, a2, a0))
            if len(steps) == n_players:
                out.append(step_line(steps))
                steps = []
        elif et == EV.final:
            band = f", {SOLO_BANDS[a4]}" if a4 >= 0 else ""
            out.append(f"  {who}: {a0} VP, ${a1}, best performance {a2}, {a3} requests{band}")
        elif et == EV.end:
            out.append("== Game over after September ==")
    winner = int(traced.games[GC.winner_seat])
    out.append(f"Winner: {names[winner]}" if winner >= 0 else "The win is shared.")
    return "\n".join(out)
