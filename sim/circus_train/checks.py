"""Circus Train's self-check for the conformance suite: option generators against the rule predicates.

Positions come from random games paused after a random number of decisions (every variant's mechanics in play).
At each, for every seat: the movement outcomes of every card equal the (end, moved) pairs ``move_is_legal``
accepts (CT-MOVE-1/2/5); the hire steps equal the steps ``hire_step_is_legal`` accepts, at every phase of a hire
(CT-HIRE-2/3, CT-AMB-37); the turn options, the actions of every card, the steal target sets and the catch-up
choices pass their predicates; and every kept set reachable through ``keep_options`` is affordable and (basic
game) maximal (CT-FIRE-1, CT-AMB-7).
"""

from __future__ import annotations

import numpy as np

from sim.circus_train import actions as A
from sim.circus_train import advanced as ADV
from sim.circus_train import hire as H
from sim.circus_train import special_hire as SH
from sim.circus_train import wages as W
from sim.circus_train.data import N_CARDS, N_CHARS, N_TYPES
from sim.circus_train.movement import move_bounds, move_is_legal, move_options
from sim.circus_train.rules import Rules
from sim.circus_train.scoring import catch_up_is_legal, catch_up_options
from sim.circus_train.state import GS, PL
from sim.core import play as protocol
from sim.core.jit import kernel
from sim.core.rng import randint
from sim.core.state import M


@kernel
def listed(st, n_opt: int, a: int, b: int, width: int) -> bool:
    """(a, b) (or a alone when width is 1) is among the first n_opt option rows."""
    for i in range(n_opt):
        if st.options[i, 0] == a and (width == 1 or st.options[i, 1] == b):
            return True
    return False


@kernel
def check_moves(st, d, p: int) -> int:
    start = st.pl[p, PL.city]
    checked = 0
    for card in range(N_CARDS):
        lo, hi = move_bounds(st, d, p, card)
        n_opt = move_options(st, d, p, lo, hi)
        for c in range(d.deg.shape[0]):
            for moved in range(2):
                if move_is_legal(d, start, c, moved == 1, lo, hi) != listed(st, n_opt, c, moved, 2):
                    raise AssertionError("circus_train: movement options disagree with move_is_legal (CT-MOVE-1)")
                checked += 1
    return checked


@kernel
def check_turn_and_actions(st, d, p: int) -> int:
    checked = 0
    n_opt = ADV.turn_options(st, d, p)
    for i in range(n_opt):
        if not ADV.turn_option_is_legal(st, d, p, st.options[i, 0], st.options[i, 1]):
            raise AssertionError("circus_train: a listed turn option is illegal (H3)")
        checked += 1
    for card in range(N_CARDS):
        n_opt = A.action_options(st, d, p, card)
        for kind in range(7):
            if A.action_is_legal(st, d, p, card, kind) != listed(st, n_opt, kind, 0, 1):
                raise AssertionError("circus_train: actions disagree with action_is_legal (H5)")
            checked += 1
    return checked


@kernel
def check_hire(st, d, p: int) -> int:
    """Walk one random hire action, comparing the listed steps with the predicate at every step."""
    checked = 0
    H.hire_begin(st)
    for _ in range(30):
        if H.hire_over(st):
            break
        n_opt = H.hire_options(st, d, p)
        for kind in range(7):
            for t in range(-1, N_TYPES):
                if H.hire_step_is_legal(st, d, p, kind, t) != listed(st, n_opt, kind, t, 2):
                    raise AssertionError("circus_train: hire steps disagree with hire_step_is_legal (CT-HIRE-2)")
                checked += 1
        if n_opt == 0:
            break
        i = randint(st.rng, n_opt)
        H.hire_apply(st, d, p, st.options[i, 0], st.options[i, 1])
    return checked


@kernel
def check_steals(st, d, p: int) -> int:
    checked = 0
    for q in range(st.meta[M.n_players]):
        if q == p or st.pl[q, PL.city] != st.pl[p, PL.city]:
            continue
        n_opt = SH.steal_options(st, d, p, q)
        for i in range(n_opt):
            if not SH.steal_is_legal(st, d, p, q, st.options[i, 0], st.options[i, 1], st.options[i, 2]):
                raise AssertionError("circus_train: a listed steal target set is illegal (CT-STEAL-1)")
            checked += 1
    n_opt = catch_up_options(st, d, p)
    for q in range(-1, st.meta[M.n_players]):
        for item in range(-1, N_TYPES + N_CHARS):
            if q < 0 and item >= 0:
                continue
            legal = catch_up_is_legal(st, d, p, q, item) if item >= 0 else q == -1
            if legal != listed(st, n_opt, q, item, 2):
                raise AssertionError("circus_train: catch-up choices disagree with catch_up_is_legal (CT-CATCHUP-1)")
            checked += 1
    return checked


@kernel
def check_wages(st, d, p: int) -> int:
    """A random walk through the kept-set choice ends in a legal kept set (the payment is made: run it last)."""
    if W.wage_begin(st, d, p, 1) != W.CHOOSE:
        return 0
    for _ in range(200):
        n_opt = W.keep_options(st, d, p, 1)
        i = randint(st.rng, n_opt)
        if st.options[i, 0] == W.DONE:
            if not W.kept_set_is_legal(st, d, p, 1, st.plan):
                raise AssertionError("circus_train: keep_options reached an illegal kept set (CT-FIRE-1)")
            return 1
        W.keep_apply(st, d, p, 1, st.options[i, 0], st.options[i, 1])
    raise AssertionError("circus_train: the kept-set choice does not end")


@kernel
def check_position(st, d) -> int:
    n = st.meta[M.n_players]
    checked = 0
    for p in range(n):
        checked += check_moves(st, d, p)
        checked += check_turn_and_actions(st, d, p)
        checked += check_steals(st, d, p)
    for p in range(n):
        checked += check_hire(st, d, p)
    for p in range(n):
        checked += check_wages(st, d, p)
    return checked


VARIANTS = (Rules(), Rules(advanced=True), Rules(special_characters=True, event_cards=True),
            Rules(advanced=True, special_characters=True, steal_character_extra=True))


def check_options(seed: int, positions: int = 24) -> int:
    """Options checked on ``positions`` random positions (2-5 players, every variant); AssertionError on a
    disagreement."""
    from sim.circus_train import SPEC

    rng = np.random.default_rng(seed)
    checked = 0
    for trial in range(positions):
        rules = VARIANTS[trial % len(VARIANTS)]
        n = int(rng.integers(2, 6))
        st, data = SPEC.new_state(rules, n)
        seats = np.zeros(n, np.int64)
        if protocol.play_until(st, data, seed, trial, seats, int(rng.integers(1, 400))):
            continue
        if st.g[GS.week] >= 27:
            continue
        checked += int(check_position(st, data))
    return checked
