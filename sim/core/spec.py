"""The contract a game fulfils (``GameSpec``) and the one registry the runner, CLI, analysis and tests use.

A game package ``sim/<game>/`` defines ``SPEC = GameSpec(...)`` in its ``__init__``: its rules, schema,
strategies, record columns, state layout and hooks. Everything else (allocating the state, the chunk
loop, seeding, ranking, records, replay wiring, checked mode, snapshots) is the core's. The registry finds
games by scanning the subpackages of ``sim``: registering a game is creating its package.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

import sim
from sim.core import play as protocol
from sim.core.broken import BrokenGame, import_failure, kernel_errors
from sim.core.errors import PlaytestError
from sim.core.policy import P_PLAYOUTS, DecisionSchema, Strategy, StrategyRegistry, StrategyTable
from sim.core.records import STANDARD_GAME, STANDARD_PLAYER, Column
from sim.core.rules import check_fields
from sim.core.state import MC, M, StateLayout, build, common_arrays, new_snapshot
from sim.core.trace import NO_TRACE, new_trace


class ChunkResult(NamedTuple):
    """What ``play_chunk`` returns: integer records, one row per game and one per (game, seat)."""

    games: np.ndarray  # int64 (n_games, n_game_columns)
    players: np.ndarray  # int64 (n_games, n_players, n_player_columns)
    rollout_decisions: int = 0
    """Decisions settled by rollouts (main line only)."""
    playouts: int = 0
    """Playouts those decisions took."""


class Traced(NamedTuple):
    """One game played in trace mode, for the game's replay renderer."""

    events: np.ndarray  # int64 (n_events, EVENT_WIDTH): round, seat, type, a0..a4
    games: np.ndarray  # the game's record row
    players: np.ndarray  # its seats' record rows
    state: Any  # the final position (the handle)
    data: Any  # the game's static data handle (or None)
    rules: Any
    names: list[str]  # strategy name per seat
    game_index: int
    seed: int


@dataclass(frozen=True)
class GameSpec:
    """A registered game: what it brings to the core (rules, schema, strategies, records, state, hooks)."""

    name: str
    title: str
    min_players: int
    max_players: int
    rules_type: type
    """Frozen dataclass of the rulebook's numbers, each declared with ``sim.core.fields.field`` (bounds, rule ID,
    doc) on ``sim.core.rules.RulesFields``: the kernels read ``rules.to_array(n_players)`` through its ``R``."""
    schema: DecisionSchema
    strategy_list: Sequence[Strategy]
    default_lineup: tuple[str, ...]
    game_columns: tuple[Column, ...]
    """Built with ``sim.core.records.game_record``: the standard columns first."""
    player_columns: tuple[Column, ...]
    layout: StateLayout
    max_options: Callable[[Any, int, Any], int]
    """(rules, n_players, data) -> the most options any decision can list."""
    render: Callable[[Traced], str]
    """A played game's events as readable text (``playtest replay``): ``sim.core.replay.event_renderer`` renders
    a table of event texts."""
    allocate: Callable[[Any, int, Any], NamedTuple] | None = None
    """(rules, n_players, data) -> the game's own fields, allocated (the core adds the common ones); None for a
    game with no fields of its own (``compose(name, module=__name__)``)."""
    option_width: int = 1
    """Integers per row of ``options``."""
    n_keys: int = 1
    """Ranking keys per seat (most significant first, higher is better)."""
    load_data: Callable[[Any], Any] = lambda rules: None
    """rules -> the static data handle the kernels read (component tables), or None."""
    check_rules: Callable[[Any, int, Any], None] = lambda rules, n_players, data: None
    """(rules, n_players, data): the game's cross-field checks (each field's own bounds are declared and checked by
    the core): raise PlaytestError for rules that cannot be played together (one line, with the fix)."""
    prepare: Callable[[Any, Any], None] = lambda st, data: None
    """(handle, data): fill the state's fixed tables once per chunk (e.g. a grid's geometry)."""
    check_options: Callable[[int], int] | None = None
    """seed -> how many options on random positions the game's option generators and its independent rule
    predicates agreed on (raises AssertionError on a disagreement); run by the conformance suite.
    ``sim.core.checks.option_checker(name, scramble, compare)`` builds it from a position maker and a comparison."""
    data_field: str | None = None
    """The Rules field naming the component data files a designer may swap (``--set FIELD=PATH``), if any."""
    seat_order_column: str | None = None
    """A player column holding each player's place in turn order (0 = first), for a game that draws its first
    player at random: its seat compensation (``seatK_*``) counts seats in that order, and the compensation and
    balance analyses read seats from this column instead of the table position."""
    tie_columns: tuple[str, ...] = ()
    """Player columns that order seats tied on final score as the game's tie-breaks do, most significant first,
    higher wins ("-name": lower wins). The static re-scoring (``analysis.handicap``) orders the seats a handicap
    brings level by them; without them it falls back to the logged ranks, which also reflect the old scores."""
    chunk_size: int = 5_000
    """Games per part (one kernel call, one Parquet file per table). Small enough that the workers finish
    together: the last part of a run keeps one worker busy alone for a part's time (about 1 s here)."""

    def __post_init__(self) -> None:
        assert tuple(c.name for c in self.game_columns[:4]) == STANDARD_GAME, f"{self.name}: game_record()"
        assert tuple(c.name for c in self.player_columns[:3]) == STANDARD_PLAYER, f"{self.name}: player_record()"

    @cached_property
    def strategies(self) -> StrategyRegistry:
        """The game's named strategies, validated against its decision schema."""
        return StrategyRegistry(self.name, self.schema, self.strategy_list)

    def check_players(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise PlaytestError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {n_players}; "
                f"pass --players between {self.min_players} and {self.max_players}"
            )

    def game_col(self, name: str) -> int:
        return [c.name for c in self.game_columns].index(name)

    def player_col(self, name: str) -> int:
        return [c.name for c in self.player_columns].index(name)

    def validate(self, rules: Any, n_players: int) -> Any:
        """The one validation route: the player count, each field's declared bounds, the data the rules name, then
        the game's cross-field checks; return the data handle."""
        self.check_players(n_players)
        check_fields(rules, self.name)
        data = self.load_data(rules)
        self.check_rules(rules, n_players, data)
        return data

    def new_state(self, rules: Any, n_players: int, table: StrategyTable | None = None,
                  trace: np.ndarray = NO_TRACE) -> tuple[Any, Any]:
        """(state handle, data handle) for games of ``n_players`` under ``rules`` (all seats ``random`` without
        a table: handy for hand-built positions)."""
        data = self.validate(rules, n_players)
        if table is None:
            table = self.strategies.table(["random"])
        common = common_arrays(self, rules, n_players, data, table, trace)
        st = build(self.layout, common, self.allocate(rules, n_players, data) if self.allocate else None)
        with kernel_errors():
            self.prepare(st, data)
        return st, data

    def new_snapshot(self, st: Any) -> Any:
        """A handle to save positions of ``st`` into (``sim.core.state.save`` / ``restore``)."""
        return new_snapshot(self.layout, st)

    def play_chunk(self, rules: Any, n_players: int, seats: np.ndarray, first_index: int, n_games: int, seed: int,
                   table: StrategyTable, check: bool = False) -> ChunkResult:
        """Play games first_index .. first_index + n_games - 1 in one kernel call, game i seeded from
        (seed, i) with strategy rows ``seats[i]``; ``check`` asserts the game's invariants as it plays."""
        seats = np.ascontiguousarray(seats, dtype=np.int64)
        if seats.shape != (n_games, n_players):
            raise PlaytestError(f"{self.name}: seats must have shape ({n_games}, {n_players}), got {seats.shape}")
        if seats.size and (seats.min() < 0 or seats.max() >= len(table.kind)):
            raise PlaytestError(f"{self.name}: a seat names a strategy row outside the strategy table")
        st, data = self.new_state(rules, n_players, table)
        st.meta[M.check] = int(check)
        games = np.zeros((n_games, len(self.game_columns)), np.int64)
        players = np.zeros((n_games, n_players, len(self.player_columns)), np.int64)
        try:
            with kernel_errors():
                protocol.play_chunk(st, self._snapshot_for(st, table), data, seats, int(first_index), int(n_games),
                                    int(seed), games, players, 0)
        except AssertionError as exc:
            raise AssertionError(f"{self.name}, game {int(st.meta[M.game_index])}: {exc}") from None
        return ChunkResult(games, players, int(st.mc[MC.decisions]), int(st.mc[MC.playouts]))

    def _snapshot_for(self, st: Any, table: StrategyTable) -> Any:
        """The rollout driver's snapshot handle: a real one if a strategy is a rollout, else ``st`` (unused)."""
        return self.new_snapshot(st) if (table.params[:, P_PLAYOUTS] > 0).any() else st

    def trace(self, rules: Any, n_players: int, seat_row: np.ndarray, game_index: int, seed: int,
              table: StrategyTable, strategy_names: Sequence[str], capacity: int = 400_000) -> Traced:
        """Play one game of a run again in trace mode (checked), with the same kernels and seeds: a chunk of one
        game through ``play_chunk``, whose compiled code play already has (calling ``play_game`` from Python
        compiled every game's kernels a second time: 136 s of a cold Bus replay)."""
        st, data = self.new_state(rules, n_players, table, trace=new_trace(capacity))
        st.meta[M.check] = 1
        seats = np.ascontiguousarray(seat_row, dtype=np.int64)[:n_players].reshape(1, n_players)
        games = np.zeros((1, len(self.game_columns)), np.int64)
        players = np.zeros((1, n_players, len(self.player_columns)), np.int64)
        with kernel_errors():
            protocol.play_chunk(st, self._snapshot_for(st, table), data, seats, int(game_index), 1, int(seed), games,
                                players, 0)
        names = [strategy_names[int(i)] for i in seats[0]]
        return Traced(st.trace[: st.meta[M.events]].copy(), games[0], players[0], st, data, rules, names,
                      int(game_index), int(seed))

    def replay(self, rules: Any, n_players: int, seat_row: np.ndarray, game_index: int, seed: int,
               table: StrategyTable, strategy_names: Sequence[str]) -> str:
        """A readable log of game ``game_index`` of a run."""
        return self.render(self.trace(rules, n_players, seat_row, game_index, seed, table, strategy_names))


# -------------------------------------------------------------------------------------------------- registry
def _discover() -> tuple[dict[str, GameSpec], dict[str, BrokenGame]]:
    """Every subpackage of ``sim`` that defines ``SPEC`` is a game (``sim.core`` is not); a package that fails
    to import is set aside with its one-line diagnosis, so the other games keep working."""
    found, broken = {}, {}
    for info in pkgutil.iter_modules(sim.__path__):
        if info.ispkg and info.name != "core":
            try:
                module = importlib.import_module(f"sim.{info.name}")
            except Exception as exc:  # any error of a half-written game: named, not fatal to the others
                broken[info.name] = BrokenGame(import_failure(info.name, exc))
                broken[info.name].__cause__ = exc
                continue
            spec = getattr(module, "SPEC", None)
            if isinstance(spec, GameSpec):
                found[spec.name] = spec
    return dict(sorted(found.items())), broken


_GAMES: dict[str, GameSpec] = {}
_BROKEN: dict[str, BrokenGame] = {}


def games() -> dict[str, GameSpec]:
    """Name -> GameSpec of every registered game (found once, on first use)."""
    if not _GAMES and not _BROKEN:
        found, broken = _discover()
        _GAMES.update(found)
        _BROKEN.update(broken)
    return _GAMES


def broken_games() -> dict[str, BrokenGame]:
    """Package name -> why it failed to import (one line; the import error is its ``__cause__``)."""
    games()
    return dict(_BROKEN)


def game_names() -> list[str]:
    return list(games())


def get_game(name: str) -> GameSpec:
    """Look a game up by name (a broken game's package name raises its one-line diagnosis)."""
    found = games()
    if name in _BROKEN:
        raise BrokenGame(str(_BROKEN[name])) from _BROKEN[name].__cause__
    if name not in found:
        raise PlaytestError(f"unknown game '{name}'; choose from {', '.join(found)} (see `playtest games`)")
    return found[name]
