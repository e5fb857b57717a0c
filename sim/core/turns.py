"""Optional drivers of the round loop: the core plays the rounds, the game plays one turn (or one round).

A game whose rounds are "each seat in turn plays one turn" binds with :func:`bind_turns` instead of
``sim.core.play.bind`` and writes no ``play_on``. It supplies @njit hooks:

- ``turn(st, data, seat) -> int``: play the seat's turn; return the end reason (a code of its ``end_reasons``)
  if the game ended in it, else ``GOES_ON``;
- optional ``setup(st, data)``: set the game up (the core has seeded ``st.rng``, seated the strategies and cleared
  the records, scores included);
- optional ``first_seat(st, data) -> int``: the seat that opens the round (default 0; a rotating first player
  keeps it in the game's state); the others follow in seat order from it;
- optional ``round_start(st, data)``: before the first turn of a round (its number already in ``meta[M.round]``);
- optional ``round_end(st, data) -> int``: after the last turn of a round, the same convention as ``turn`` (e.g.
  a game that ends once a round is complete);
- optional ``check(st, data)``: checked mode, after every turn: raise AssertionError("XX-INV-n: ...");
- optional ``finish(st, data, reason)``: at the end, fill the game's own record columns (and the ranking keys,
  with ``rank_by_score=False``).

The driver owns the round loop and its cap (``cap``: the Rules slot of the round cap; the game then ends with
``timeout`` as its reason and no winner), the pause points (every turn start, so snapshots and rollouts work),
the turn order (``meta[M.seat]``: turns taken in the round), the ranking keys (by default one key per seat, its
``score``) and the end of the game. A game keeping its score in the ``score`` column as it plays needs no ``finish``.

A game that plays whole rounds at once (e.g. simultaneous planning, then resolution) binds with
:func:`bind_rounds`: its ``round(st, data) -> int`` plays one round by the same convention, with the same
``setup``, ``check`` (after every round), ``finish``, cap and ranking; the pause points are the round starts.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from numba.extending import overload

from sim.core.jit import kernel
from sim.core.play import bind, checking, end_game, paused, route
from sim.core.records import P
from sim.core.state import M, StateLayout

GOES_ON = -1
"""What a turn (or round) hook returns while the game goes on."""


class TurnHooks(NamedTuple):
    """A game's hooks and constants, as bound by :func:`bind_turns` or :func:`bind_rounds`."""

    turn: Callable
    first_seat: Callable
    round_start: Callable
    round_end: Callable
    check: Callable
    finish: Callable
    cap: int
    timeout: int
    rank_by_score: bool


_PY_HOOKS: dict[type, TurnHooks] = {}
"""Without JIT the state is a plain NamedTuple: its class -> the game's hooks."""


@kernel
def _nothing(st, data) -> None:
    """The default ``setup``, ``round_start`` and ``check``: nothing beyond what the core does."""


@kernel
def _seat_zero(st, data) -> int:
    """The default ``first_seat``: seat 0 opens every round."""
    return 0


@kernel
def _goes_on(st, data) -> int:
    """The default ``round_end``: the game goes on."""
    return GOES_ON


@kernel
def _no_finish(st, data, reason: int) -> None:
    """The default ``finish``: nothing beyond the score the game kept."""


def _hooks(st) -> TurnHooks:
    return _PY_HOOKS[type(st)]


def game_turn(st, data, seat: int) -> int:
    """Stub overloaded per game by :func:`bind_turns` (without JIT routed in Python)."""
    return _hooks(st).turn(st, data, seat)


def game_round(st, data) -> int:
    """Stub overloaded per game by :func:`bind_rounds`: its round hook (held in ``TurnHooks.turn``)."""
    return _hooks(st).turn(st, data)


def game_first_seat(st, data) -> int:
    return _hooks(st).first_seat(st, data)


def game_round_start(st, data) -> None:
    return _hooks(st).round_start(st, data)


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


def _route(layout: StateLayout, hooks: TurnHooks) -> None:
    """Overload the stubs above for states of this layout to call the game's hooks (and return its constants)."""
    _PY_HOOKS[layout.tuple_type] = hooks
    bound = layout.numba_types
    for stub, hook in ((game_turn, hooks.turn), (game_round, hooks.turn), (game_first_seat, hooks.first_seat),
                       (game_round_start, hooks.round_start), (game_round_end, hooks.round_end),
                       (game_check, hooks.check), (game_finish, hooks.finish)):
        route(stub, hook, bound)
    for stub, value in ((round_cap_slot, hooks.cap), (timeout_reason, hooks.timeout),
                        (ranks_by_score, hooks.rank_by_score)):
        _route_constant(stub, value, bound)


def _route_constant(stub: Callable, value, state_types: tuple[type, ...]) -> None:
    """Overload a stub of ``(st)`` for states of the numba types ``state_types`` to return ``value``, a
    compile-time constant."""
    @overload(stub)
    def _impl(st):
        return (lambda st: value) if type(st) in state_types else None


def bind_turns(layout: StateLayout, turn: Callable, *, setup: Callable = _nothing, first_seat: Callable = _seat_zero,
               round_start: Callable = _nothing, round_end: Callable = _goes_on, check: Callable = _nothing,
               finish: Callable = _no_finish, cap: int = -1, timeout: int = -1, rank_by_score: bool = True) -> None:
    """Play the game of this layout with :func:`play_turns`: the game's hooks as above; ``cap`` is the index of
    the round cap in the rules array (-1: no cap) and ``timeout`` the end reason of a game stopped by it."""
    _route(layout, TurnHooks(turn, first_seat, round_start, round_end, check, finish, cap, timeout, rank_by_score))
    bind(layout, setup, play_turns)


def bind_rounds(layout: StateLayout, play_round: Callable, *, setup: Callable = _nothing,
                check: Callable = _nothing, finish: Callable = _no_finish, cap: int = -1, timeout: int = -1,
                rank_by_score: bool = True) -> None:
    """Play the game of this layout with :func:`play_rounds`: ``play_round(st, data) -> int`` plays one whole
    round; the other hooks and constants as for :func:`bind_turns`."""
    _route(layout, TurnHooks(play_round, _seat_zero, _nothing, _goes_on, check, finish, cap, timeout,
                             rank_by_score))
    bind(layout, setup, play_rounds)


@kernel(inline="always")
def play_turns(st, data) -> None:
    """The ``play_on`` of a turn-driven game: rounds of turns in seat order from the round's first seat, from
    where the game stands, until a turn or round end ends it or the round cap is reached; returns at a turn start
    when paused."""
    meta = st.meta
    n = meta[M.n_players]
    while not paused(st):
        i = meta[M.seat]
        if i == 0:
            if _capped(st):
                _over(st, data, timeout_reason(st), True)
                return
            meta[M.round] += 1
            game_round_start(st, data)
        seat = turn_seat(st, data)
        reason = game_turn(st, data, seat)
        if checking(st):
            game_check(st, data)
        if reason == GOES_ON and i == n - 1:
            reason = game_round_end(st, data)
        if reason != GOES_ON:
            _over(st, data, reason, False)
            return
        meta[M.seat] = i + 1 if i + 1 < n else 0


@kernel(inline="always")
def turn_seat(st, data) -> int:
    """The seat whose turn it is under :func:`play_turns` (at the end, the seat whose turn ended the game): the
    round's first seat plus the turns taken in the round."""
    return (game_first_seat(st, data) + st.meta[M.seat]) % st.meta[M.n_players]


@kernel(inline="always")
def play_rounds(st, data) -> None:
    """The ``play_on`` of a round-driven game: whole rounds from where the game stands until one ends it or the
    round cap is reached; returns at a round start when paused."""
    while not paused(st):
        if _capped(st):
            _over(st, data, timeout_reason(st), True)
            return
        reason = next_round(st, data)
        if checking(st):
            game_check(st, data)
        if reason != GOES_ON:
            _over(st, data, reason, False)
            return


@kernel(inline="always")
def next_round(st, data) -> int:
    """One round of a round-driven game as :func:`play_rounds` plays it: the next round number, then the game's
    round; its end reason or GOES_ON (rule tests play a position's round with it)."""
    st.meta[M.round] += 1
    return game_round(st, data)


@kernel(inline="always")
def _capped(st) -> bool:
    """Whether the round cap (if the game has one) is reached at a round start."""
    cap_slot = round_cap_slot(st)
    return cap_slot >= 0 and st.meta[M.round] == st.rules[cap_slot]


@kernel(inline="always")
def _over(st, data, reason: int, no_winner: bool) -> None:
    """The end: the game's own columns, the ranking keys (its scores unless it ranks otherwise), then the core's."""
    game_finish(st, data, reason)
    if ranks_by_score(st):
        for s in range(st.meta[M.n_players]):
            st.keys[s, 0] = st.players[s, P.score]
    end_game(st, reason, no_winner)
