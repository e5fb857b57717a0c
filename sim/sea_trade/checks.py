"""Sea Trade's self-check for the conformance suite: option generators against the independent rule predicates.

On random positions (pirates, storm and ships scattered over boards drawn by the rules, every card type in
hand), each move the generators list must pass its ``*_legal`` predicate and each move a predicate accepts
must be listed (ST-SAIL-1..5, ST-PIRACY-1..2, ST-TURN-5).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.play import start_game
from sim.sea_trade.engine import setup_game
from sim.sea_trade.moves import pirate_legal, pirate_options, sail_legal, sail_options, storm_legal, storm_options
from sim.sea_trade.rules import Rules
from sim.sea_trade.state import CARD_ROW, CARD_WIND0, LAND, SEA


@kernel
def scramble(st, seed_cells):
    """A random position: pirates, storm and ships on spaces drawn from ``seed_cells``, every card type in seat
    0's hand."""
    n = st.cell.shape[0]
    k = 0
    for p in range(st.pirate.shape[0]):
        st.pirate_at[st.pirate[p]] = -1
    for p in range(st.pirate.shape[0]):
        while True:
            c = seed_cells[k % seed_cells.shape[0]]
            k += 1
            if st.cell[c] == SEA and st.pirate_at[c] < 0:
                break
        st.pirate[p] = c
        st.pirate_at[c] = p
    st.storm[0] = -1
    c = seed_cells[k % seed_cells.shape[0]]
    k += 1
    if st.cell[c] == SEA and st.pirate_at[c] < 0:
        st.storm[0] = c
    for q in range(st.ship.shape[0]):
        while True:
            c = seed_cells[k % seed_cells.shape[0]]
            k += 1
            if st.cell[c] != LAND and c != st.storm[0]:
                break
        st.ship[q] = c
    for t in range(st.hand.shape[1]):
        st.hand[0, t] = 1
    if st.storm[0] >= 0:
        for q in range(st.ship.shape[0]):
            if st.ship[q] == st.storm[0]:
                st.storm[0] = -1
    return n


@kernel
def _disagreements(st) -> tuple:
    """(pairs where the generators and the predicates disagree, options listed), over sail, pirate and storm
    moves of seat 0."""
    listed_total = 0
    n = st.cell.shape[0]
    bad = 0
    k = sail_options(st, 0, 0)
    listed_total += k
    for card in range(CARD_ROW, CARD_WIND0 + 8):
        for to in range(n):
            listed = False
            for i in range(k):
                if st.options[i, 0] == card and st.options[i, 1] == to:
                    listed = True
            if listed != sail_legal(st, st.ship[0], card, to):
                bad += 1
    k = pirate_options(st, 0, 0)
    listed_total += k
    for p in range(st.pirate.shape[0]):
        for card in range(CARD_WIND0, CARD_WIND0 + 8):
            for to in range(n):
                listed = False
                for i in range(k):
                    if st.options[i, 0] == p and st.options[i, 1] == card and st.options[i, 2] == to:
                        listed = True
                if listed != pirate_legal(st, 0, p, card, to):
                    bad += 1
    k = storm_options(st, 0)
    listed_total += k
    for i in range(1, k):  # ascending cells (the order ties are broken in)
        if st.options[i, 0] <= st.options[i - 1, 0]:
            bad += 1
    for c in range(n):
        listed = False
        for i in range(k):
            if st.options[i, 0] == c:
                listed = True
        if listed != storm_legal(st, c):
            bad += 1
    return bad, listed_total




def check_options(seed: int, rules: Rules = Rules(), players: tuple[int, ...] = (2, 4, 6), positions: int = 150) -> int:
    """Options checked on ``positions`` random positions per player count; AssertionError on a disagreement."""
    from sim.sea_trade import SPEC  # late import: the package imports this module

    rng = np.random.default_rng(seed)
    checked = 0
    for n in players:
        st, data = SPEC.new_state(rules, n)
        for gi in range(positions):
            start_game(st, seed, gi, np.zeros(n, np.int64))
            setup_game(st, data)
            scramble(st, rng.integers(0, rules.grid_size ** 2, size=200))
            bad, listed = _disagreements(st)
            if bad:
                raise AssertionError(f"sea_trade: {bad} option/rule disagreements, {n} players, position {gi}")
            checked += listed
    return checked
