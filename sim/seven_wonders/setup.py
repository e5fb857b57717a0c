"""Game setup and the Age frame (SW-SETUP-1, BABEL-SETUP-2, BABEL-GP-1, BABEL-SEQ-1).

An Age, as the engine drives it: ``start_age`` (project revealed, then hands dealt); six turns (turn.py); then
the Great Project resolution (``project_succeeds`` -> ``give_rewards``, or for each seat without a token
``penalty_options`` -> choose -> ``apply_penalty``), ``resolve_military`` (scoring.py) and ``return_tokens``
(projects.py), in that order (BABEL-GP-9, BABEL-SEQ-1).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.rng import randint, shuffle
from sim.core.seats import seat_bonus
from sim.seven_wonders.babel import deal_tiles, refresh_tiles
from sim.seven_wonders.data import Data
from sim.seven_wonders.projects import reveal_project
from sim.seven_wonders.rules import R
from sim.seven_wonders.seats import players
from sim.seven_wonders.state import GS, TREC, State
from sim.seven_wonders.turn import deal_age


@kernel
def reset(st: State) -> None:
    """Every game field back to its empty value (the arrays are reused from game to game)."""
    n = st.g[GS.n]
    st.g[:] = 0
    st.g[GS.n] = n
    st.g[GS.gp] = -1
    st.g[GS.pile_before_last] = -1
    for a in (st.coins, st.stages, st.city_n, st.shields, st.defeat_n, st.defeat_vp, st.hand_n, st.olympia_used,
              st.pending, st.unlimited, st.chc_n, st.disc, st.tiles_built, st.gp_part, st.gp_wild,
              st.gp_free_build, st.gp_free_stage, st.gp_sci_set, st.gp_guild, st.gp_wonder, st.gp_took,
              st.board_lost, st.vp_now, st.income, st.tile_due, st.pick_chain, st.pe_before, st.babel_age,
              st.tile_on, st.teff):
        a[:] = 0
    for a in (st.deck, st.discard, st.babel_slot):
        a[:] = -1
    for a in (st.city, st.hand, st.tiles, st.tile_pool, st.pick):
        a[:] = -1
    st.has_name[:] = 0
    st.color_n[:] = 0
    st.science[:] = 0
    st.victory[:] = 0
    st.tile_built[:] = 0
    st.stat[:] = 0
    st.gp_rec[:] = 0
    st.tile_rec[:] = 0
    st.tile_rec[:, TREC.builder] = -1
    st.dealt[0] = 0
    st.pver[:] = 0
    st.tc_key[:] = -1


@kernel
def setup_game(st: State, data: Data, rules: np.ndarray) -> None:
    """SW-SETUP-1: a different random board per seat, sides by ``wonder_sides`` (A, B, or random per player),
    3 coins each (plus a seat's compensation, SW-SEAT-1); then the Babel tiles are dealt for the draft
    (BABEL-SETUP-2) when the module is on."""
    reset(st)
    n = st.g[GS.n]
    boards = np.arange(data.wonder_res.shape[0])  # once per game
    shuffle(st.rng, boards, boards.shape[0])
    for p in range(n):
        st.wonder[p] = boards[p]
        sides = rules[R.wonder_sides]
        st.side[p] = randint(st.rng, 2) if sides == 2 else sides
        extra = seat_bonus(rules, R.seat2_coins, p) if p < players(st) else 0  # SW-SEAT-1, not the Free City
        st.coins[p] = rules[R.start_coins] + extra
    refresh_tiles(st, data, rules)
    if rules[R.babel_tower]:
        deal_tiles(st, rules)


@kernel
def start_age(st: State, data: Data, rules: np.ndarray, age: int) -> None:
    """BABEL-GP-1 then SW-SETUP-3: the Age's project is revealed before the hands are dealt."""
    reveal_project(st, data, rules, age)
    deal_age(st, data, rules, age)
