"""Hand-built 7 Wonders positions for the rule tests: a state with boards, cities and coins set by name."""

from __future__ import annotations

from sim.seven_wonders.city import add_stage, add_structure
from sim.seven_wonders.data import load_data
from sim.seven_wonders.payment import refresh_production
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.state import State, new_state

DATA = load_data()


def card(name: str, age: int | None = None) -> int:
    """Card id by name (the first Age holding it unless ``age`` is given)."""
    for i, n in enumerate(DATA.card_names):
        if n == name and (age is None or DATA.card_age[i] == age):
            return i
    raise KeyError(name)


def wonder(name: str) -> int:
    return DATA.wonder_names.index(name)


def position(n: int = 3, boards: tuple = (), sides: str = "", coins: int = 3, rules: Rules = Rules()) -> State:
    """An n-player state: board i = boards[i] (default Gizah for all), side letters, equal coins, empty cities."""
    st = new_state(rules, DATA, n)
    for p in range(n):
        st.wonder[p] = wonder(boards[p]) if p < len(boards) else wonder("Gizah")
        st.side[p] = "AB".index(sides[p]) if p < len(sides) else 0
        st.coins[p] = coins
    refresh(st, rules)
    return st


def refresh(st: State, rules: Rules = Rules()) -> None:
    """Recompute every player's production view."""
    for p in range(st.g[0]):
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
