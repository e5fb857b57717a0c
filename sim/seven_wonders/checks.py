"""7 Wonders + Babel's self-check for the conformance suite: option generators against the rule predicates.

Positions come from random games paused at the start of a random turn (both modules and several switches in play).
At each, for every seat: the uses listed by ``turn_options`` are exactly the (action, slot, extra, participation)
rows ``is_legal`` accepts (SW-ACT-*, SW-COST-*, SW-CHAIN-*, BABEL-ACT-*, BABEL-GP-2..8); the tiles listed by the
draft are those ``keep_is_legal`` accepts (BABEL-SETUP-3); with a Halikarnassos build pending, the discard-pile
builds equal those ``discard_build_is_legal`` accepts (SW-WONDER-4); with a project in play, the penalty options
equal those ``penalty_is_legal`` accepts (BABEL-GP-14). In 2-player positions the holder of the Free City card draws
and keeps a card, and the Free City's uses listed by ``fc_options`` are exactly those ``fc_is_legal`` accepts
(SW-2P-4).
"""

from __future__ import annotations

import numpy as np

from sim.core import play as protocol
from sim.core.jit import kernel
from sim.core.state import M
from sim.seven_wonders import babel, free_city, projects, turn
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.state import GS


@kernel
def listed(st, n_opt: int, a: int, b: int, c: int, e: int) -> bool:
    """(a, b, c, e) is among the first n_opt option rows."""
    for i in range(n_opt):
        if st.options[i, 0] == a and st.options[i, 1] == b and st.options[i, 2] == c and st.options[i, 3] == e:
            return True
    return False


@kernel
def check_turn(st, d, rules, p: int) -> int:
    n_opt = turn.turn_options(st, d, rules, p)
    checked = 0
    for act in range(4):
        for slot in range(-1, st.hand_n[p] + 1):
            for extra in range(-1, 6):
                for part in range(-1, 4):
                    legal = turn.is_legal(st, d, rules, p, act, slot, extra, part)
                    if legal != listed(st, n_opt, act, slot, extra, part):
                        raise AssertionError("seven_wonders: turn_options disagrees with is_legal (SW-ACT-1)")
                    checked += 1
    return checked


@kernel
def check_penalty(st, d, rules, p: int) -> int:
    n_opt = projects.penalty_options(st, d, rules, p)
    checked = 0
    for a in range(-3, 25):
        for b in range(-1, 7):
            in_list = False
            for i in range(n_opt):
                if st.options[i, 0] == a and st.options[i, 1] == b:
                    in_list = True
            if projects.penalty_is_legal(st, d, rules, p, a, b) != in_list:
                raise AssertionError("seven_wonders: penalty_options disagrees with penalty_is_legal (BABEL-GP-14)")
            checked += 1
    return checked


@kernel
def check_hali(st, d, rules, p: int) -> int:
    """With a build pending: every listed pile build is legal and every legal (card, participation) is listed."""
    st.pending[p] += 1
    n_opt = turn.discard_build_options(st, d, rules, p)
    checked = 0
    for i in range(-1, st.g[GS.discard_n]):
        for part in range(3):
            legal = turn.discard_build_is_legal(st, d, rules, p, i, part)
            found = False
            for k in range(n_opt):
                same = (st.options[k, 1] == -1) if i == -1 else (
                    st.options[k, 1] >= 0 and st.discard[st.options[k, 1]] == st.discard[i])
                if same and st.options[k, 3] == part:
                    found = True
            if legal != found:
                raise AssertionError("seven_wonders: discard_build_options disagrees with its predicate (SW-WONDER-4)")
            checked += 1
    st.pending[p] -= 1
    return checked


@kernel
def check_free_city(st, d, rules) -> int:
    """SW-2P-4 at a 2-player turn start: the holder draws and keeps his first card; the Free City's listed uses of his
    other cards are exactly the legal ones (the position is thrown away afterwards)."""
    h = st.g[GS.fc_holder]
    free_city.draw(st)
    st.pick[h, 1] = 0
    n_opt = free_city.fc_options(st, d, rules, h)
    checked = 0
    for act in range(4):
        for slot in range(-1, st.hand_n[free_city.FREE_CITY] + 1):
            for extra in range(-1, 6):
                for part in range(-1, 4):
                    legal = free_city.fc_is_legal(st, d, rules, act, slot, extra, part)
                    if legal != listed(st, n_opt, act, slot, extra, part):
                        raise AssertionError("seven_wonders: fc_options disagrees with fc_is_legal (SW-2P-4)")
                    checked += 1
    return checked


@kernel
def check_position(st, d) -> int:
    rules = st.rules
    checked = 0
    for p in range(st.g[GS.n]):
        checked += check_turn(st, d, rules, p)
        checked += check_hali(st, d, rules, p)
        if st.g[GS.gp] >= 0:
            checked += check_penalty(st, d, rules, p)
        for j in range(-1, 4):
            in_pool = False
            for i in range(babel.tile_draft_options(st, p)):
                in_pool = in_pool or st.options[i, 0] == j
            if babel.keep_is_legal(st, p, j) != in_pool:
                raise AssertionError("seven_wonders: tile_draft_options disagrees with keep_is_legal (BABEL-SETUP-3)")
            checked += 1
    if st.meta[M.n_players] == 2:
        checked += check_free_city(st, d, rules)
    return checked


VARIANTS = (Rules(), Rules(wonder_sides=1), Rules(wonder_sides=2, tax_tiles_literal=True),
            Rules(babel_tower=False), Rules(gp_lost_card_to_discard=True, tiles_2_15_swapped=True))


def check_options(seed: int, positions: int = 20) -> int:
    """Options checked on ``positions`` random positions (2-7 players, several variants); AssertionError on a
    disagreement."""
    from sim.seven_wonders import SPEC

    rng = np.random.default_rng(seed)
    checked = 0
    for trial in range(positions):
        rules = VARIANTS[trial % len(VARIANTS)]
        n = int(rng.integers(2, 8))
        st, data = SPEC.new_state(rules, n)
        seats = np.zeros(n, np.int64)
        if protocol.play_until(st, data, seed, trial, seats, int(rng.integers(1, 12 * n * 3))):
            continue
        checked += int(check_position(st, data))
    return checked
