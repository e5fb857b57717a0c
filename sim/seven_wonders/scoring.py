"""Military at each Age end, science with wild symbols, and the end-of-game score by category (SW-MIL-*, SW-SCI-*,
SW-COM-2, SW-GUILD-1, SW-WONDER-6, SW-END-*, BABEL-SCORE-1, BABEL-GP-13 / BABEL-GP-15)."""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.names import namespace
from sim.seven_wonders.babel import babel_vp, defeat_copies, victory_value
from sim.seven_wonders.city import count_cards
from sim.seven_wonders.data import COL, PE, SCI_ANY, SCOPE_LEFT, SCOPE_RIGHT, SCOPE_SELF, SPECIAL, Data
from sim.seven_wonders.payment import neighbour
from sim.seven_wonders.rules import R
from sim.seven_wonders.state import MAX_SCORE_ROW, GS, State

SC = namespace("Score", ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "babel",
                         "projects", "total"])
"""Score categories in SW-END-1 order, then Babel's (BABEL-SCORE-1, BABEL-GP-15); ``total`` last."""
N_SC = len(SC)
assert N_SC <= MAX_SCORE_ROW


@kernel
def science_points(c: int, g: int, t: int, wild: int, set_vp: int) -> int:
    """SW-SCI-1 / SW-SCI-2, SW-DEC-7: c^2 + g^2 + t^2 + set_vp * min(c, g, t), each wild symbol placed to maximise it
    (every split of the wilds over the three symbols is tried; the order of wilds does not matter)."""
    best = 0
    for a in range(wild + 1):
        for b in range(wild + 1 - a):
            x = c + a
            y = g + b
            z = t + wild - a - b
            value = x * x + y * y + z * z + set_vp * min(x, min(y, z))
            if value > best:
                best = value
    return best


@kernel
def take_victory(st: State, data: Data, rules: np.ndarray, p: int, value: int) -> None:
    """SW-MIL-2 / BABEL-GP-13: p takes a Victory token of ``value``, after tile 19 (a token mapped to 0 is not
    taken at all, SW-DEC-12)."""
    v = victory_value(st, data, rules, value)
    if v > 0:
        st.victory[p, v] += 1


@kernel
def take_defeat(st: State, data: Data, rules: np.ndarray, p: int, value: int) -> None:
    """SW-MIL-2 / BABEL-GP-11: p takes a Defeat token of -``value``; tile 22 doubles -1 tokens. With
    ``tile22_each_token_counts`` off the pair counts as one token for Strategists (SW-DEC-12)."""
    copies = defeat_copies(st, data, rules, value)
    st.defeat_vp[p] -= value * copies
    st.defeat_n[p] += copies if rules[R.tile22_each_token_counts] else 1


@kernel
def resolve_military(st: State, data: Data, rules: np.ndarray, age: int) -> None:
    """SW-MIL-2: each player compares strength with each neighbour: stronger takes the Age's Victory token
    (+1/+3/+5), weaker a -1 Defeat token, a tie nothing (0-2 tokens per player per Age)."""
    n = st.g[GS.n]
    win = rules[R.victory_age1 + age - 1]
    for p in range(n):
        for side in range(2):
            q = neighbour(st, p, side)
            if st.shields[p] > st.shields[q]:
                take_victory(st, data, rules, p, win)
            elif st.shields[p] < st.shields[q]:
                take_defeat(st, data, rules, p, rules[R.defeat_vp])


@kernel
def per_element(st: State, data: Data, p: int, c: int) -> int:
    """Elements counted by card c's per-element effect for p (SW-COM-1 / SW-COM-2, SW-GUILD-1): cards of its colours,
    built Wonder stages or Defeat tokens, over its scope (self, left, right)."""
    total = 0
    for side in range(3):
        bit = SCOPE_SELF if side == 2 else (SCOPE_LEFT if side == 0 else SCOPE_RIGHT)
        if not data.card_pe_scope[c] & bit:
            continue
        q = p if side == 2 else neighbour(st, p, side)
        kind = data.card_pe_kind[c]
        if kind == PE.cards:
            total += count_cards(st, q, data.card_pe_colors[c])
        elif kind == PE.wonder_stages:
            total += st.stages[q]
        elif kind == PE.defeat_tokens:
            total += st.defeat_n[q]
    return total


@kernel
def science_of(st: State, rules: np.ndarray, p: int, extra_wild: int) -> int:
    """p's science score with ``extra_wild`` more wild symbols; Great Project science-set tokens add their VP per
    set of three different symbols (BABEL-GP-13, SW-SCI-2)."""
    return science_points(st.science[p, 0], st.science[p, 1], st.science[p, 2], st.science[p, 3] + extra_wild,
                          rules[R.science_set_vp] + st.gp_sci_set[p])


@kernel
def _olympia_copy(st: State, data: Data, rules: np.ndarray, p: int) -> tuple:
    """SW-WONDER-6 / SW-DEC-6: the neighbour's guild worth most to p: (its guild VP, its extra wild symbols).
    A copied guild counts from p's seat (or its owner's with ``olympia_copy_from_copier_seat`` off)."""
    base = science_of(st, rules, p, 0)
    gain_wild = science_of(st, rules, p, 1) - base
    best_gain = 0
    best_vp = 0
    best_wild = 0
    for side in range(2):
        q = neighbour(st, p, side)
        for i in range(st.city_n[q]):
            c = st.city[q, i]
            if data.card_color[c] != COL.purple:
                continue
            if data.card_science[c] == SCI_ANY:
                if gain_wild > best_gain:
                    best_gain, best_vp, best_wild = gain_wild, 0, 1
                continue
            seat = p if rules[R.olympia_copy_from_copier_seat] else q
            vp = data.card_pe_vp[c] * per_element(st, data, seat, c)
            if seat == p and data.card_pe_scope[c] & SCOPE_SELF and (data.card_pe_colors[c] >> COL.purple) & 1:
                vp += data.card_pe_vp[c]  # as if in p's city: Shipowners counts itself
            if vp > best_gain:
                best_gain, best_vp, best_wild = vp, vp, 0
    return best_vp, best_wild


@kernel
def score_player(st: State, data: Data, rules: np.ndarray, p: int, out: np.ndarray) -> None:
    """SW-END-1: p's score by category into ``out`` (indexed by SC). Military = Victory and Defeat tokens (Great
    Project tokens included, BABEL-GP-15); Wonder = stage VP; civilian = blue VP; commercial = Age III yellow per
    element; guilds (Scientists through science); Babel tiles (BABEL-SCORE-1); project guild / wonder tokens."""
    for k in range(N_SC):
        out[k] = 0
    for v in range(st.victory.shape[1]):
        out[SC.military] += v * st.victory[p, v]
    out[SC.military] += st.defeat_vp[p]
    out[SC.treasury] = st.coins[p] // rules[R.coins_per_vp]
    w = st.wonder[p]
    s = st.side[p]
    copy_wild = 0
    for j in range(st.stages[p]):
        out[SC.wonder] += data.stage_vp[w, s, j]
        if data.stage_special[w, s, j] == SPECIAL.copy_neighbor_guild:
            vp, copy_wild = _olympia_copy(st, data, rules, p)
            out[SC.guilds] += vp
    for i in range(st.city_n[p]):
        c = st.city[p, i]
        col = data.card_color[c]
        if col == COL.blue:
            out[SC.civilian] += data.card_vp[c]
        elif col == COL.yellow:
            out[SC.commercial] += data.card_pe_vp[c] * per_element(st, data, p, c)
        elif col == COL.purple:
            out[SC.guilds] += data.card_pe_vp[c] * per_element(st, data, p, c)
    out[SC.science] = science_of(st, rules, p, copy_wild)
    if rules[R.babel_tower]:
        out[SC.babel] = babel_vp(st, data, p)
    guilds = st.color_n[p, COL.purple]
    for side in range(2):
        guilds += st.color_n[neighbour(st, p, side), COL.purple]
    out[SC.projects] = st.gp_guild[p] * guilds + st.gp_wonder[p] * st.stages[p]
    for k in range(N_SC - 1):
        out[SC.total] += out[k]


@kernel
def rank_keys(st: State, data: Data, rules: np.ndarray, keys: np.ndarray, scratch: np.ndarray) -> None:
    """SW-END-2: keys[p] = (total, coins): highest total wins, then most coins; equal keys share the victory."""
    for p in range(st.g[GS.n]):
        score_player(st, data, rules, p, scratch)
        keys[p, 0] = scratch[SC.total]
        keys[p, 1] = st.coins[p]
