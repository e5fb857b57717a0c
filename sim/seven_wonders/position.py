"""Test hooks: hand-built 7 Wonders positions (boards, cities, hands and coins set by name), driving the same kernel
functions the games use."""

from __future__ import annotations

import numpy as np

from sim.core.rng import seed_game
from sim.core.trace import NO_TRACE
from sim.seven_wonders.city import add_stage, add_structure
from sim.seven_wonders.data import kernel_data
from sim.seven_wonders.payment import refresh_production
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.state import GS, State, new_state
from sim.seven_wonders.turn import apply_option, resolve_picks, turn_options

DATA = kernel_data()


def card(name: str, age: int | None = None) -> int:
    """Card id by name (the first Age holding it unless ``age`` is given)."""
    for i, n in enumerate(DATA.card_names):
        if n == name and (age is None or DATA.card_age[i] == age):
            return i
    raise KeyError(name)


def wonder(name: str) -> int:
    return DATA.wonder_names.index(name)


def position(n: int = 3, boards: tuple = (), sides: str = "", coins: int = 3, rules: Rules = Rules(),
             seed: int = 0, table=None, trace: np.ndarray = NO_TRACE) -> State:
    """An n-player state: board i = boards[i] (default Gizah for all; with n = 2 the Free City is seat 2), side
    letters, equal coins, empty cities, Age I turn 1, no tiles, no project; seats play ``table``'s strategies
    (default random) and log events into ``trace`` (default none)."""
    st = new_state(rules, n, table, trace)
    seed_game(st.rng, seed, 0)
    st.g[GS.age] = 1
    st.g[GS.turn] = 1
    st.g[GS.gp] = -1
    for p in range(st.g[GS.n]):
        st.wonder[p] = wonder(boards[p]) if p < len(boards) else wonder("Gizah")
        st.side[p] = "AB".index(sides[p]) if p < len(sides) else 0
        st.coins[p] = coins
    refresh(st, rules)
    return st


def refresh(st: State, rules: Rules = Rules()) -> None:
    """Recompute every player's production view."""
    for p in range(st.g[GS.n]):
        refresh_production(st, DATA, rules.to_array(), p)


def build(st: State, p: int, *names: str, rules: Rules = Rules()) -> None:
    """Put the named structures into p's city (no payment, no income)."""
    for name in names:
        add_structure(st, DATA, p, card(name))
    refresh(st, rules)


def stages(st: State, p: int, k: int, rules: Rules = Rules()) -> None:
    """Build p's next k Wonder stages (no payment, no income)."""
    for _ in range(k):
        add_stage(st, DATA, p)
    refresh(st, rules)


def give_hand(st: State, p: int, *names: str) -> None:
    """p's hand becomes the named cards (Age of the current Age when a name exists in several)."""
    age = int(st.g[GS.age])
    st.hand[p, :] = -1
    for j, name in enumerate(names):
        try:
            st.hand[p, j] = card(name, age)
        except KeyError:
            st.hand[p, j] = card(name)
    st.hand_n[p] = len(names)


def options(st: State, p: int, rules: Rules = Rules()) -> list[tuple]:
    """p's legal options as (action, slot, extra, participation) tuples."""
    n = turn_options(st, DATA, rules.to_array(), p)
    return [tuple(int(x) for x in st.options[i]) for i in range(n)]


def play(st: State, picks: dict, rules: Rules = Rules()) -> None:
    """Each seat in ``picks`` plays its (action, slot, extra, participation) option, which must be legal; then the
    turn's picks resolve together (SW-TURN-4)."""
    r = rules.to_array()
    for p, choice in picks.items():
        legal = options(st, p, rules)
        assert tuple(choice) in legal, f"seat {p}: {choice} not among {legal}"
        st.options[0] = choice
        apply_option(st, DATA, r, p, 0)
    resolve_picks(st, DATA, r)
