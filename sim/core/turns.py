"""An optional turn driver for seat-order games: the core plays the rounds, the game plays one turn.

A game whose rounds are "each seat in order plays one turn" binds with :func:`bind_turns` instead of
``sim.core.play.bind`` and writes no ``play_on``. It supplies @njit hooks:

- ``turn(st, data, seat) -> int``: play the seat's turn; return the end reason (a code of its ``end_reasons``)
  if the game ended in it, else ``GOES_ON``;
- optional ``setup(st, data)``: set the game up (the core has seeded ``st.rng``, seated the strategies and cleared
  the records, scores included);
- optional ``round_end(st, data) -> int``: after the last seat's turn of a round, the same convention (e.g. a
  game that ends once a round is complete);
- optional ``check(st, data)``: checked mode, after every turn: raise AssertionError("XX-INV-n: ...");
- optional ``finish(st, data, reason)``: at the end, fill the game's own record columns (and the ranking keys,
  with ``rank_by_score=False``).

The driver owns the round loop and its cap (``cap``: the Rules slot of the round cap; the game then ends with
``timeout`` as its reason and no winner), the pause points (every turn start, so snapshots and rollouts work),
the next seat (``meta[M.seat]``), the ranking keys (by default one key per seat, its ``score``) and the end of the
game. A game keeping its score in the ``score`` column as it plays needs no ``finish``.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from numba import njit
from numba.extending import overload

from sim.core.play import bind, checking, end_game, paused
from sim.core.records import P
from sim.core.state import M, StateLayout

GOES_ON = -1
"""What a turn (or round end) hook returns while the game goes on."""


class TurnHooks(NamedTuple):
    """A game's turn hooks and constants, as bound by :func:`bind_turns`."""

    turn: Callable
    round_end: Callable
    check: Callable
    finish: Callable
    cap: int
    timeout: int
    rank_by_score: bool


_PY_HOOKS: dict[type, TurnHooks] = {}
"""Without JIT the state is a plain NamedTuple: its class -> the game's hooks."""


@njit(cache=True)
def _no_setup(st, data) -> None:
    """The default ``setup``: nothing beyond what the core does."""


@njit(cache=True)
def _goes_on(st, data) -> int:
    """The default ``round_end``: the game goes on."""
    return GOES_ON


@njit(cache=True)
def _nothing(st, data) -> None:
    """The default ``check``: no invariant of the game's own."""


@njit(cache=True)
def _no_finish(st, data, reason: int) -> None:
    """The default ``finish``: nothing beyond the score the game kept."""


def _hooks(st) -> TurnHooks:
    return _PY_HOOKS[type(st)]


def game_turn(st, data, seat: int) -> int:
    """Stub overloaded per game by :func:`bind_turns` (without JIT routed in Python)."""
    return _hooks(st).turn(st, data, seat)


def game_round_end(st, data) -> int:
    return _hooks(st).round_end(st, data)


def game_check(st, data) -> None:
    return _hooks(st).check(st, data)


def game_finish(st, data, reason: int) -> None:
    return _hooks(st).finish(st, data, reason)


def round_cap_slot(st) -> int:
    return _hooks(st).cap


def timeout_reason(st) -> int:
    return _hooks(st).timeout


def ranks_by_score(st) -> bool:
    return _hooks(st).rank_by_score


def bind_turns(layout: StateLayout, turn: Callable, *, setup: Callable = _no_setup, round_end: Callable = _goes_on,
               check: Callable = _nothing, finish: Callable = _no_finish, cap: int = -1, timeout: int = -1,
               rank_by_score: bool = True) -> None:
    """Play the game of this layout with :func:`play_turns`: the game's hooks as above; ``cap`` is the index of
    the round cap in the rules array (-1: no cap) and ``timeout`` the end reason of a game stopped by it."""
    hooks = TurnHooks(turn, round_end, check, finish, cap, timeout, rank_by_score)
    _PY_HOOKS[layout.tuple_type] = hooks
    bound = layout.numba_types

    @overload(game_turn)
    def _turn(st, data, seat):
        return (lambda st, data, seat: turn(st, data, seat)) if type(st) in bound else None

    @overload(game_round_end)
    def _round_end(st, data):
        return (lambda st, data: round_end(st, data)) if type(st) in bound else None

    @overload(game_check)
    def _check(st, data):
        return (lambda st, data: check(st, data)) if type(st) in bound else None

    @overload(game_finish)
    def _finish(st, data, reason):
        return (lambda st, data, reason: finish(st, data, reason)) if type(st) in bound else None

    @overload(round_cap_slot)
    def _cap(st):
        return (lambda st: cap) if type(st) in bound else None

    @overload(timeout_reason)
    def _timeout(st):
        return (lambda st: timeout) if type(st) in bound else None

    @overload(ranks_by_score)
    def _by_score(st):
        return (lambda st: rank_by_score) if type(st) in bound else None

    bind(layout, setup, play_turns)


@njit(cache=True)
def play_turns(st, data) -> None:
    """The ``play_on`` of a turn-driven game: rounds of turns in seat order from where the game stands, until a
    turn or round end ends it or the round cap is reached; returns at a turn start when paused."""
    meta = st.meta
    n = meta[M.n_players]
    cap_slot = round_cap_slot(st)
    while not paused(st):
        seat = meta[M.seat]
        if seat == 0:
            if cap_slot >= 0 and meta[M.round] == st.rules[cap_slot]:
                _over(st, data, timeout_reason(st), True)
                return
            meta[M.round] += 1
        reason = game_turn(st, data, seat)
        if checking(st):
            game_check(st, data)
        if reason == GOES_ON and seat == n - 1:
            reason = game_round_end(st, data)
        if reason != GOES_ON:
            _over(st, data, reason, False)
            return
        meta[M.seat] = (seat + 1) % n


@njit(cache=True)
def _over(st, data, reason: int, no_winner: bool) -> None:
    """The end: the game's own columns, the ranking keys (its scores unless it ranks otherwise), then the core's."""
    game_finish(st, data, reason)
    if ranks_by_score(st):
        for s in range(st.meta[M.n_players]):
            st.keys[s, 0] = st.players[s, P.score]
    end_game(st, reason, no_winner)
