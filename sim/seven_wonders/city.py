"""A player's city: placing and losing structures, building Wonder stages, and what they count toward."""

from __future__ import annotations


from sim.core.jit import kernel
from sim.seven_wonders.data import SCI_ANY, Data
from sim.seven_wonders.state import MAX_CITY, State


@kernel
def add_structure(st: State, data: Data, p: int, c: int) -> None:
    """SW-ACT-1: card c enters p's city: its name (SW-ACT-4, SW-CHAIN-1), colour, shields (SW-MIL-1) and
    science symbol (SW-SCI-1 / SW-SCI-2) count from now on. Coins and production are handled by the caller."""
    if st.city_n[p] < MAX_CITY:
        st.city[p, st.city_n[p]] = c
        st.city_n[p] += 1
    st.has_name[p, data.card_name[c]] = 1
    st.color_n[p, data.card_color[c]] += 1
    st.shields[p] += data.card_shields[c]
    sym = data.card_science[c]
    if sym >= 0:
        st.science[p, sym if sym < SCI_ANY else 3] += 1


@kernel
def remove_structure(st: State, data: Data, p: int, i: int) -> int:
    """Take the i-th structure out of p's city (BABEL-GP-14 lose-card penalty); return its card id."""
    c = st.city[p, i]
    for j in range(i, st.city_n[p] - 1):
        st.city[p, j] = st.city[p, j + 1]
    st.city_n[p] -= 1
    st.city[p, st.city_n[p]] = -1
    st.has_name[p, data.card_name[c]] = 0
    st.color_n[p, data.card_color[c]] -= 1
    st.shields[p] -= data.card_shields[c]
    sym = data.card_science[c]
    if sym >= 0:
        st.science[p, sym if sym < SCI_ANY else 3] -= 1
    return c


@kernel
def add_stage(st: State, data: Data, p: int) -> int:
    """SW-ACT-2 / SW-WONDER-1 / SW-WONDER-2: p's next stage is built; shields and the wild symbol count from now on.
    Returns the stage index. Its coins and special action are handled by the caller."""
    j = st.stages[p]
    w = st.wonder[p]
    s = st.side[p]
    st.stages[p] = j + 1
    st.shields[p] += data.stage_shields[w, s, j]
    if data.stage_science[w, s, j] == SCI_ANY:
        st.science[p, 3] += 1
    return j


@kernel
def count_cards(st: State, p: int, colors: int) -> int:
    """Structures in p's city whose colour is in the colour mask."""
    total = 0
    for k in range(7):
        if (colors >> k) & 1:
            total += st.color_n[p, k]
    return total
