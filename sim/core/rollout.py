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

Allocation: ``flat`` plays ``playouts`` for every candidate. ``halving`` is sequential halving (Karnin, Koren
and Somekh 2013) on a budget of ``playouts`` x candidates: round r of R = ceil(log2 m) gives every candidate
still in play ``budget // (alive * R)`` more playouts (at least one), then keeps the better half
(:func:`rank_alive`). It stops as soon as the leader is ahead of every other candidate in play by more win share
than that candidate could still gain (:func:`decided`): the pick is then the one the full budget would make,
so a decision between clearly different options stops early.

Randomness: after the candidate, a playout reseeds the game's generator from (run seed, game index, rollout
decision, playout): playout p meets the same dice for every candidate (common random numbers), under either
allocation. The main line
gets its generator back with the saved position, so the logged game depends only on (seed, game index).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.policy import P_TOP, POLICY_RANDOM, TIE, choose, weighed_scores
from sim.core.records import P
from sim.core.rng import seed_playout, shuffle
from sim.core.state import M, MC


@kernel
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


@kernel
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
        weighed_scores(st.weights, strat, decision, st.features, st.weighed, n_opt, scores)
        for a in range(m):  # selection: the best of the rest moves to place a
            b = a
            for j in range(a + 1, n_opt):
                if scores[cands[j]] > scores[cands[b]] + TIE:
                    b = j
            cands[a], cands[b] = cands[b], cands[a]
    st.mc[MC.n_cands] = m


@kernel
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


@kernel(inline="always")
def better(values: np.ndarray, a: int, b: int) -> bool:
    """Candidate ``a``'s playouts beat ``b``'s (totals over equal counts): more win share, else more margin."""
    return values[a, 0] > values[b, 0] + TIE or (values[a, 0] >= values[b, 0] - TIE and values[a, 1] > values[b, 1] + TIE)


@kernel
def best_candidate(st, n: int) -> int:
    """Of the first ``n`` candidates, the option whose playouts gave the most win share, the score margin
    breaking ties, then the order of ``cands``."""
    best = 0
    for c in range(1, n):
        if better(st.values, c, best):
            best = c
    return st.cands[best]


@kernel
def halving_rounds(n: int) -> int:
    """ceil(log2 n): the rounds of sequential halving over ``n`` candidates."""
    r = 0
    while (1 << r) < n:
        r += 1
    return r


@kernel
def round_playouts(budget: int, alive: int, rounds: int) -> int:
    """Playouts each of ``alive`` candidates gets in a round of sequential halving (at least one)."""
    return max(1, budget // (alive * rounds))


@kernel
def rank_alive(st, alive: int) -> None:
    """Sort the first ``alive`` candidates (``cands`` with their ``values``) best first, ties keeping their order."""
    cands, values = st.cands, st.values
    for i in range(1, alive):
        j = i
        while j > 0 and better(values, j, j - 1):
            cands[j], cands[j - 1] = cands[j - 1], cands[j]
            for v in range(2):
                values[j, v], values[j - 1, v] = values[j - 1, v], values[j, v]
            j -= 1


@kernel
def decided(st, alive: int, left: int) -> bool:
    """Whether one of the first ``alive`` candidates leads every other by more win share than ``left`` more
    playouts (each worth at most 1) could make up: it would be the pick whatever they gave."""
    values = st.values
    lead = 0
    for c in range(1, alive):
        if values[c, 0] > values[lead, 0]:
            lead = c
    for c in range(alive):
        if c != lead and values[lead, 0] - values[c, 0] <= left + TIE:
            return False
    return True
