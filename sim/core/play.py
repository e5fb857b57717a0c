"""The game protocol the core owns: the chunk driver, per-game hooks, decisions, events, pauses, game end.

A game binds two @njit hooks to its state type with :func:`bind`:

- ``setup(st, data)``: set up a new game (the core has seeded ``st.rng`` from (seed, game index), seated the
  strategies and cleared the record rows);
- ``play_on(st, data)``: play from the current position to the end of the game, returning early at a
  boundary (a turn or round start) when :func:`paused` says so; at the end it fills the ranking keys, the
  scores and its own counters and calls :func:`end_game`.

A game played in seat order may instead supply one turn to the core's turn driver (sim/core/turns.py), whose
``play_on`` owns the round loop. The driver then ranks the seats and writes the standard columns. A game with a rollout seat is played by
:func:`play_rollouts` through the same two hooks (sim/core/rollout.py explains how). ``data`` is the game's
static handle (component tables) or None. The hooks are found by overloading the core stubs on the game's structref
type, which keeps numba's on-disk cache working (a game's function passed as an argument would not).
"""

from __future__ import annotations

import inspect
from typing import Callable

import numpy as np
from numba.extending import overload

from sim.core.jit import kernel
from sim.core.policy import P_ALLOCATION, P_PLAYOUTS, POLICY_RANDOM, choose
from sim.core.ranking import rank_seats
from sim.core.records import G, P
from sim.core.rng import seed_game
from sim.core.rollout import (best_candidate, decided, halving_rounds, outcome, rank_alive, rollout_pick,
                              round_playouts)
from sim.core.state import MC, M, StateLayout, restore, save
from sim.core.structs import borrow


# ------------------------------------------------------------------------------------------------ hooks
def game_setup(st, data) -> None:
    """Stub overloaded per game by :func:`bind` (without JIT, :func:`bind` routes it in Python)."""
    return _PY_HOOKS[type(st)][0](st, data)


def game_play_on(st, data) -> None:
    """Stub overloaded per game by :func:`bind`."""
    return _PY_HOOKS[type(st)][1](st, data)


_PY_HOOKS: dict[type, tuple[Callable, Callable]] = {}
"""Without JIT the state is a plain NamedTuple: its class -> the game's (setup, play_on)."""


def bind(layout: StateLayout, setup: Callable, play_on: Callable) -> None:
    """Make the core driver call ``setup`` and ``play_on`` for states of this layout."""
    _PY_HOOKS[layout.tuple_type] = (setup, play_on)
    route(game_setup, setup, layout.numba_types)
    route(game_play_on, play_on, layout.numba_types)


def route(stub: Callable, hook: Callable, state_types: tuple[type, ...]) -> None:
    """Overload ``stub`` with the game's @njit ``hook`` for states whose numba type is in ``state_types``.

    The overload compiles the hook's own Python function, not a wrapper calling it: numba emits a callee's whole
    linked code again in every separately compiled caller, so a wrapper would compile everything under the hook
    once more (about 3 s of Bus's cold compile per level). numba wants the overload's typing function to take
    the implementation's argument names: it is given the hook's signature. Cached on disk as the hook's own
    kernel is, so a kernel compiled later in another process (``play_until`` in a test) loads it. The cache
    entry is the hook's own (numba keys it by the function and signature), so it is compiled as the hook
    would be, with the wrapper that lets Python call it: without one, a test calling the hook from Python
    loaded the overload's entry and crashed.
    """
    impl = getattr(hook, "py_func", hook)

    def typing(*args):
        return impl if type(args[0]) in state_types else None

    typing.__signature__ = inspect.signature(impl)
    overload(stub, jit_options={"cache": True, "no_cpython_wrapper": False})(typing)


# ------------------------------------------------------------------------------------------------ helpers
@kernel(inline="always")
def decide(st, seat: int, decision: int, n_opt: int) -> int:
    """The choke point: the seat's strategy picks one of the ``n_opt`` options whose features are filled.

    One option is no decision (nothing is counted or drawn). Only the decision's feature span is scored:
    every other feature weighs 0 for it (the registry refuses such weights), so the pick is the same.
    A rollout strategy's decisions go to the rollout driver (sim/core/rollout.py).
    """
    if n_opt <= 1:
        return 0
    st.games[G.decisions] += 1
    strat = st.seat_strat[seat]
    if st.params[strat, P_PLAYOUTS] != 0.0:
        return rollout_pick(st, seat, strat, decision, n_opt)
    return choose(st, strat, decision, n_opt)


@kernel
def clear_features(st, decision: int, n_opt: int) -> None:
    """Zero the decision's weighed feature rows (the only ones ever read: ``weighed_rows``) for its first
    ``n_opt`` options, before the game fills the features its options have; name the decision then decided,
    whose strategies' rows these are. The buffer is read into a local once: a store through the handle's field
    would reload the field every step, keeping the loop from becoming one fill per row (it took a quarter of
    Bus's time)."""
    features = st.features
    rows = st.weighed
    for k in range(1, 1 + rows[decision, 0]):
        f = rows[decision, k]
        for i in range(n_opt):
            features[f, i] = 0.0


@kernel(inline="always")
def scored(st, seat: int) -> bool:
    """False when the seat's policy ignores features (random): the game may skip computing them."""
    return st.kind[st.seat_strat[seat]] != POLICY_RANDOM


@kernel(inline="always")
def uses(st, seat: int, decision: int, feature: int) -> bool:
    """Whether the seat's strategy weighs ``feature`` in ``decision``: a feature weighed 0 may be skipped."""
    return st.weights[st.seat_strat[seat], decision, feature] != 0.0


@kernel(inline="always")
def event(st, seat: int, etype: int, a0: int = 0, a1: int = 0, a2: int = 0, a3: int = 0, a4: int = 0) -> None:
    """Record one event, stamped with the current round, when tracing (a zero-row buffer: nothing)."""
    trace = st.trace
    n = st.meta[M.events]
    if n < trace.shape[0]:  # a zero-row buffer (no tracing) or a full one records nothing
        trace[n, 0] = st.meta[M.round]
        trace[n, 1] = seat
        trace[n, 2] = etype
        trace[n, 3] = a0
        trace[n, 4] = a1
        trace[n, 5] = a2
        trace[n, 6] = a3
        trace[n, 7] = a4
        st.meta[M.events] = n + 1


@kernel(inline="always")
def checking(st) -> bool:
    """Checked mode: the game asserts its invariants (AssertionError("XX-INV-n: ...")) as it plays."""
    return st.meta[M.check] != 0


@kernel(inline="always")
def paused(st) -> bool:
    """True at a boundary once the game has taken the decisions it was asked to pause after."""
    return st.meta[M.pause_at] > 0 and st.games[G.decisions] >= st.meta[M.pause_at]


@kernel(inline="always")
def n_players(st) -> int:
    return st.meta[M.n_players]


@kernel
def end_game(st, reason: int, no_winner: bool = False) -> None:
    """The game is over: why (an end_reason code), and whether nobody wins (e.g. a timeout).

    ``rounds`` is the current round. Unless ``no_winner``, every seat ranked first wins (a tie shares).
    """
    st.games[G.end_reason] = reason
    st.games[G.rounds] = st.meta[M.round]
    st.meta[M.ended] = 1
    st.meta[M.no_winner] = 1 if no_winner else 0


# ------------------------------------------------------------------------------------------------ driver
@kernel
def start_game(st, seed: int, game_index: int, seat_row) -> None:
    """Seed the game's generator from (seed, game index), seat the strategies, clear the records."""
    meta = st.meta
    seed_game(st.rng, seed, game_index)
    for s in range(meta[M.n_players]):
        st.seat_strat[s] = seat_row[s]
    st.games[:] = 0
    st.players[:, :] = 0
    meta[M.game_index] = game_index
    meta[M.round] = 0
    meta[M.events] = 0
    meta[M.ended] = 0
    meta[M.no_winner] = 0
    meta[M.seat] = 0


@kernel
def finish_game(st) -> None:
    """Rank the seats by their keys and write rank, won and winner_seat."""
    n = st.meta[M.n_players]
    rank_seats(st.keys, n, st.rank)
    winners = 0
    winner = -1
    for s in range(n):
        won = st.rank[s] == 1 and st.meta[M.no_winner] == 0
        st.players[s, P.rank] = st.rank[s]
        st.players[s, P.won] = 1 if won else 0
        if won:
            winners += 1
            winner = s
    st.games[G.winner_seat] = winner if winners == 1 else -1


# The steps between a game's hooks and play_chunk (play_game, play_rollouts, evaluate*, playout, play_segment) are
# inlined: numba emits a callee's whole linked code again into every separately compiled caller, so each of them
# compiled as its own function cost one more compile of the whole game (about 7 s of 7 Wonders' cold compile each).
@kernel(inline="always")
def play_game(st, snap, data, seed: int, game_index: int, seat_row: np.ndarray) -> None:
    """Play game ``game_index`` of the run seeded with ``seed`` from start to end and rank it; ``snap`` (a
    snapshot handle, or ``st`` itself when no strategy is a rollout) holds the rollout driver's positions."""
    start_game(st, seed, game_index, seat_row)
    if rolling(st):
        st.mc[MC.seed] = seed
        play_rollouts(st, snap, data)
    else:
        game_setup(st, data)
        game_play_on(st, data)
    finish_game(st)


@kernel
def play_chunk(st, snap, data, seats: np.ndarray, first_index: int, n_games: int, seed: int,
               games_out: np.ndarray, players_out: np.ndarray, pause_at: int) -> None:
    """Play games first_index .. first_index + n_games - 1 into the record arrays (one row per game / seat);
    ``pause_at`` 0 plays each to its end.

    ``pause_at`` > 0 starts each game and stops it at the first boundary after that many decisions, -1 plays a
    paused game on (:func:`play_until`, :func:`play_rest`): one kernel holds the whole game, so a position is
    played by the code play compiled, not by two more compiles of every hook (15 s of CPU in a cold 7 Wonders)."""
    st = borrow(st)
    snap = borrow(snap)
    data = borrow(data)
    n = st.meta[M.n_players]
    for i in range(n_games):
        if pause_at == 0:
            play_game(st, snap, data, seed, first_index + i, seats[i])
        else:
            play_paused(st, data, seed, first_index + i, seats[i], pause_at)
        for j in range(st.games.shape[0]):
            games_out[i, j] = st.games[j]
        for s in range(n):
            for j in range(st.players.shape[1]):
                players_out[i, s, j] = st.players[s, j]


@kernel(inline="always")
def play_paused(st, data, seed: int, game_index: int, seat_row: np.ndarray, pause_at: int) -> None:
    """Start a game and play it to the first boundary after ``pause_at`` decisions (``pause_at`` -1: play the
    paused game at hand on to its end); rank it if it ended."""
    if pause_at > 0:
        start_game(st, seed, game_index, seat_row)
        st.meta[M.pause_at] = pause_at
        game_setup(st, data)
        if not (st.meta[M.ended] or paused(st)):
            game_play_on(st, data)
    else:
        st.meta[M.pause_at] = 0
        game_play_on(st, data)
    st.meta[M.pause_at] = 0
    if st.meta[M.ended]:
        finish_game(st)


def play_until(st, data, seed: int, game_index: int, seat_row: np.ndarray, pause_at: int) -> bool:
    """Start a game and play it until the first boundary after ``pause_at`` decisions (0: to the end);
    True if it ended. Snapshots and rollouts start from such a position."""
    _play_one(st, data, seed, game_index, seat_row, pause_at if pause_at > 0 else 1 << 62)
    return st.meta[M.ended] != 0


def play_rest(st, data) -> None:
    """Play a paused (or restored) game to its end and rank it."""
    _play_one(st, data, 0, int(st.meta[M.game_index]), st.seat_strat, -1)


def _play_one(st, data, seed: int, game_index: int, seat_row: np.ndarray, pause_at: int) -> None:
    """One game through :func:`play_chunk`'s pause modes, its records left in ``st``."""
    n = int(st.meta[M.n_players])
    seats = np.ascontiguousarray(seat_row, dtype=np.int64)[:n].reshape(1, n)
    games = np.zeros((1, st.games.shape[0]), np.int64)
    players = np.zeros((1, n, st.players.shape[1]), np.int64)
    play_chunk(st, st, data, seats, int(game_index), 1, int(seed), games, players, int(pause_at))


# ------------------------------------------------------------------------------------------------ rollouts
@kernel
def rolling(st) -> bool:
    """Whether a seat of the game at hand plays a rollout strategy."""
    for s in range(st.meta[M.n_players]):
        if st.params[st.seat_strat[s], P_PLAYOUTS] != 0.0:
            return True
    return False


@kernel(inline="always")
def play_rollouts(st, snap, data) -> None:
    """Play a started game to its end segment by segment, settling each rollout decision by its playouts
    (sim/core/rollout.py). The first segment is the setup; a segment ends at the first boundary after at least
    one decision."""
    mc = st.mc
    mc[MC.active] = 1
    mc[MC.decision_no] = 0
    setup = True
    save(st, snap)
    while True:
        mc[MC.n_forced] = 0
        while True:  # passes over the segment until one meets no unsettled rollout decision
            mc[MC.count] = 0
            mc[MC.request] = 0
            st.meta[M.pause_at] = st.games[G.decisions] + 1
            play_segment(st, data, setup)
            if mc[MC.request] == 0:
                break
            n_forced = mc[MC.n_forced]
            if n_forced == st.forced.shape[0]:
                raise AssertionError("rollout: more rollout decisions between two boundaries than sim.core.state.FORCED")
            st.forced[n_forced] = evaluate(st, snap, data, setup)
            mc[MC.n_forced] = n_forced + 1
            restore(st, snap)
        if st.meta[M.ended] != 0:
            break
        setup = False
        save(st, snap)
    mc[MC.active] = 0
    st.meta[M.pause_at] = 0


@kernel(inline="always")
def play_segment(st, data, setup: bool) -> None:
    """The setup, or play from a boundary to the next pause or the end."""
    if setup:
        game_setup(st, data)
    elif st.meta[M.ended] == 0:
        game_play_on(st, data)


@kernel(inline="always")
def evaluate(st, snap, data, setup: bool) -> int:
    """Play the requesting seat's playouts from the segment's saved position (the settled picks, then a
    candidate option, then every seat's base strategy to the end), flat or by sequential halving; the best option."""
    mc = st.mc
    strat = st.seat_strat[mc[MC.seat]]
    k = int(st.params[strat, P_PLAYOUTS])
    n_forced = mc[MC.n_forced]
    mc[MC.playout] = 1
    mc[MC.n_forced] = n_forced + 1
    if st.params[strat, P_ALLOCATION] == 0.0:
        best = evaluate_flat(st, snap, data, setup, n_forced, k)
    else:
        best = evaluate_halving(st, snap, data, setup, n_forced, k)
    mc[MC.playout] = 0
    mc[MC.n_forced] = n_forced
    mc[MC.decision_no] += 1
    mc[MC.decisions] += 1
    return best


@kernel(inline="always")
def evaluate_flat(st, snap, data, setup: bool, n_forced: int, k: int) -> int:
    """Flat Monte Carlo: ``k`` playouts for every candidate."""
    n = st.mc[MC.n_cands]
    for c in range(n):
        st.values[c, 0] = 0.0
        st.values[c, 1] = 0.0
        for p in range(k):
            playout(st, snap, data, setup, n_forced, c, p)
    st.mc[MC.playouts] += k * n
    return best_candidate(st, n)


@kernel(inline="always")
def evaluate_halving(st, snap, data, setup: bool, n_forced: int, k: int) -> int:
    """Sequential halving on a budget of ``k`` playouts per candidate, stopping once the leader is decided
    (sim/core/rollout.py)."""
    mc = st.mc
    alive = mc[MC.n_cands]
    for c in range(alive):
        st.values[c, 0] = 0.0
        st.values[c, 1] = 0.0
    budget = k * alive
    rounds = halving_rounds(alive)
    done = 0  # playouts each candidate in play has had
    for r in range(rounds):
        per = round_playouts(budget, alive, rounds)
        later = 0  # playouts a candidate still in play after this round could get in the rounds after it
        left = alive
        for r2 in range(r + 1, rounds):
            left = (left + 1) // 2
            later += round_playouts(budget, left, rounds)
        for p in range(done, done + per):
            for c in range(alive):
                playout(st, snap, data, setup, n_forced, c, p)
            mc[MC.playouts] += alive
            if decided(st, alive, done + per - 1 - p + later):
                return best_candidate(st, alive)
        done += per
        if r + 1 < rounds:
            rank_alive(st, alive)
            alive = (alive + 1) // 2
    return best_candidate(st, alive)


@kernel(inline="always")
def playout(st, snap, data, setup: bool, n_forced: int, c: int, p: int) -> None:
    """Playout ``p`` of candidate ``c``: from the saved position, the settled picks and the candidate, then
    every seat's base strategy to the end; its win share and margin for the requesting seat go to ``values[c]``."""
    restore(st, snap)
    st.forced[n_forced] = st.cands[c]
    st.mc[MC.count] = 0
    st.mc[MC.playout_no] = p
    st.meta[M.pause_at] = 0
    play_segment(st, data, setup)
    play_segment(st, data, False)
    finish_game(st)
    share, margin = outcome(st, st.mc[MC.seat])
    st.values[c, 0] += share
    st.values[c, 1] += margin
