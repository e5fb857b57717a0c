"""Pig kernels: one turn (PIG-TURN-*), the hold decision, the end of a round and the invariants; the core turn
driver (sim/core/turns.py) plays the rounds. The banked points live in the ``score`` column as the game goes."""

from __future__ import annotations


from sim.core.jit import kernel
from sim.core.options import decide_or_decline
from sim.core.play import clear_features, event
from sim.core.records import P
from sim.core.rng import randint
from sim.core.state import M, compose
from sim.core.turns import GOES_ON, bind_turns
from sim.pig.rules import R
from sim.pig.schema import END_TARGET, END_TIMEOUT, EV, PC, D, F


LAYOUT = compose("PigState", module=__name__)
"""Pig keeps no state of its own: the scores are the ``score`` column, the turn total is local to a turn."""


@kernel
def rival_best(st, seat: int) -> int:
    """The most points banked by a seat other than ``seat`` (-1: by any seat)."""
    best = 0
    for s in range(st.meta[M.n_players]):
        if s != seat:
            best = max(best, st.players[s, P.score])
    return best


@kernel
def hold_option(st, seat: int, total: int) -> None:
    """Option 0 of the hold decision: bank ``total``, with the facts a strategy weighs (schema.py)."""
    clear_features(st, D.hold, 1)
    score = st.players[seat, P.score]
    rival = rival_best(st, seat)
    st.features[F.turn, 0] = total
    st.features[F.reaches, 0] = 1.0 if score + total >= st.rules[R.target] else 0.0
    st.features[F.behind, 0] = rival - score
    st.features[F.rival_progress, 0] = 100.0 * rival / st.rules[R.target]


@kernel
def play_turn(st, data, seat: int) -> int:
    """PIG-TURN-1..4: roll until a 1 or a hold; END_TARGET if the hold reaches the target (PIG-END-1)."""
    players = st.players
    players[seat, PC.turns] += 1
    total = 0
    while True:
        face = 1 + randint(st.rng, st.rules[R.faces])  # PIG-TURN-1: the first roll is compulsory
        players[seat, PC.rolls] += 1
        if face == 1:  # PIG-TURN-3
            players[seat, PC.busts] += 1
            event(st, seat, EV.bust, total)
            return GOES_ON
        total += face
        event(st, seat, EV.roll, face, total)
        hold_option(st, seat, total)
        if decide_or_decline(st, seat, D.hold, 1, F.roll) == 0:  # PIG-TURN-2: hold, or roll again
            break
    players[seat, P.score] += total  # PIG-TURN-4
    players[seat, PC.best_turn] = max(players[seat, PC.best_turn], total)
    event(st, seat, EV.hold, total, players[seat, P.score])
    if players[seat, P.score] >= st.rules[R.target] and st.rules[R.equal_turns] == 0:
        return END_TARGET
    return GOES_ON


@kernel
def round_end(st, data) -> int:
    """PIG-END-2: with equal turns, the game ends after the round in which a seat reached the target."""
    if st.rules[R.equal_turns] != 0 and rival_best(st, -1) >= st.rules[R.target]:
        return END_TARGET
    return GOES_ON


@kernel
def check(st, data) -> None:
    """Checked mode, after every turn: PIG-INV-1 no negative score; PIG-INV-2 (first to the target wins at once) no
    second seat at the target."""
    reached = 0
    for s in range(st.meta[M.n_players]):
        if st.players[s, P.score] < 0:
            raise AssertionError("PIG-INV-1: a banked score is negative")
        reached += st.players[s, P.score] >= st.rules[R.target]
    if st.rules[R.equal_turns] == 0 and reached > 1:
        raise AssertionError("PIG-INV-2: two seats reached the target; the game should have ended at the first")


bind_turns(LAYOUT, play_turn, round_end=round_end, check=check, cap=R.round_cap, timeout=END_TIMEOUT)
