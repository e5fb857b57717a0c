"""Flat Monte Carlo ("rollout") decisions: the part that runs inside ``decide``, and the scoring of playouts.

The driver (``play_rollouts`` in sim/core/play.py) plays a game with a rollout seat segment by segment, a
segment running from one boundary (the game's start, or a turn or round start where ``paused`` is checked)
to the next. It saves the position at each segment's start. The first time a pass over the segment meets a
rollout seat's decision that is not yet settled, :func:`rollout_pick` lists the base strategy's best options
(``cands``) and asks for a rollout (``request``); the game plays on to the boundary with base picks. For each
candidate the driver then plays ``playouts`` games to the end from the saved position, replaying the
segment's settled rollout picks (``forced``) and then the candidate, every seat on its base strategy. The
best candidate (:func:`best_candidate`) is settled and the segment is replayed, up to the next unsettled
decision or the boundary.

Randomness: after the candidate, a playout reseeds the game's generator from (run seed, game index, rollout
decision, playout): playout p meets the same dice for every candidate (common random numbers). The main line
gets its generator back with the saved position, so the logged game depends only on (seed, game index).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.policy import P_TOP, POLICY_RANDOM, TIE, choose, span_scores
from sim.core.records import P
from sim.core.rng import seed_playout, shuffle
from sim.core.state import M, MC


@njit(cache=True)
def rollout_pick(st, seat: int, strat: int, decision: int, n_opt: int) -> int:
    """The pick of rollout strategy ``strat`` at ``seat``: a settled (forced) pick when replaying, the base
    strategy's pick in a playout or outside the rollout driver, else a request for a rollout (see above)."""
    mc = st.mc
    if mc[MC.active] == 0:
        return choose(st, strat, decision, n_opt)
    c = mc[MC.count]
    mc[MC.count] = c + 1
    if c < mc[MC.n_forced]:
        if mc[MC.playout] != 0 and c + 1 == mc[MC.n_forced]:  # the candidate tried: the playout's own dice
            seed_playout(st.rng, mc[MC.seed], st.meta[M.game_index], mc[MC.decision_no], mc[MC.playout_no])
        return st.forced[c]
    if mc[MC.playout] != 0 or mc[MC.request] != 0:
        return choose(st, strat, decision, n_opt)
    mc[MC.request] = 1
    mc[MC.seat] = seat
    top_options(st, strat, decision, n_opt)
    return st.cands[0]


@njit(cache=True)
def top_options(st, strat: int, decision: int, n_opt: int) -> None:
    """``cands[:n_cands]``: the base strategy's ``top`` best options, best first (ties in random order; a
    random base: random options). Temperature and epsilon play no part: they are for the playouts."""
    cands = st.cands
    for i in range(n_opt):
        cands[i] = i
    shuffle(st.rng, cands, n_opt)
    m = min(int(st.params[strat, P_TOP]), n_opt)
    if st.kind[strat] != POLICY_RANDOM:
        scores = st.scores
        span_scores(st.weights, strat, decision, st.features, st.span[decision, 0], st.span[decision, 1], n_opt,
                    scores)
        for a in range(m):  # selection: the best of the rest moves to place a
            b = a
            for j in range(a + 1, n_opt):
                if scores[cands[j]] > scores[cands[b]] + TIE:
                    b = j
            cands[a], cands[b] = cands[b], cands[a]
    st.mc[MC.n_cands] = m


@njit(cache=True)
def outcome(st, seat: int) -> tuple[float, float]:
    """A finished playout from ``seat``'s view: its win share (1/k of a k-way shared win) and its score
    less the best other score."""
    n = st.meta[M.n_players]
    winners = 0
    best_other = -np.inf
    for s in range(n):
        winners += st.players[s, P.won]
        if s != seat:
            best_other = max(best_other, float(st.players[s, P.score]))
    share = st.players[seat, P.won] / winners if winners > 0 else 0.0
    return share, st.players[seat, P.score] - best_other


@njit(cache=True)
def best_candidate(st) -> int:
    """The option whose playouts gave the most win share (totals over equal counts), the score margin breaking
    ties, then the base strategy's order."""
    values = st.values
    best = 0
    for c in range(1, st.mc[MC.n_cands]):
        if values[c, 0] > values[best, 0] + TIE or (
                values[c, 0] >= values[best, 0] - TIE and values[c, 1] > values[best, 1] + TIE):
            best = c
    return st.cands[best]
