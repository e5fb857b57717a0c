"""Game state as one struct of NumPy arrays: the common fields the core owns, then the game's own.

A game declares its fields as a NamedTuple class and calls :func:`compose`; the core adds the fields every
game shares under one set of names (rules array, bookkeeping, RNG, the seats' strategies, option buffers,
record rows, ranking keys, trace) and builds the numba structref handle the kernels take. The core's
helpers (``sim.core.play``) read only the common fields, so they serve every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

import numpy as np
from numba import types
from numba.core import config
from numba.extending import overload

from sim.core.jit import kernel
from sim.core.names import namespace
from sim.core.policy import weighed_rows
from sim.core.rng import new_state as new_rng
from sim.core.structs import BORROWED, borrow, struct_handle
from sim.core.trace import NO_TRACE

COMMON_FIELDS = (
    ("rules", "int64 (n_rules,): the Rules numbers as the kernel reads them"),
    ("meta", "int64 (len(M),): per-game bookkeeping, indexed by M"),
    ("rng", "uint64 (4,): the game's generator, seeded from (run seed, game index)"),
    ("seat_strat", "int64 (P,): strategy-table row playing each seat"),
    ("kind", "int64 (strategies,): policy kind of each strategy"),
    ("params", "float64 (strategies, N_PARAMS): temperature, epsilon"),
    ("weights", "float64 (strategies, decisions, features)"),
    ("span", "int64 (decisions, 2): the feature columns [lo, hi) each decision fills"),
    ("weighed", "int64 (decisions, 1 + features): the rows of each span some strategy weighs (count, then rows)"),
    ("features", "float64 (features, feature_columns(max_options)): column i holds option i's features"),
    ("scores", "float64 (max_options,): scratch of choose()"),
    ("options", "int64 (max_options, option_width): the legal options of the decision at hand"),
    ("games", "int64 (game columns,): the record row of the game being played"),
    ("players", "int64 (P, player columns): the record rows of its seats"),
    ("keys", "int64 (P, n_keys): ranking keys, most significant first, higher is better"),
    ("rank", "int64 (P,): 1 = best, exact ties share"),
    ("trace", "int64 (events, EVENT_WIDTH): event buffer; zero rows = no tracing"),
    ("mc", "int64 (len(MC),): the rollout driver's bookkeeping, indexed by MC"),
    ("forced", "int64 (FORCED,): the rollout picks replayed since the last boundary"),
    ("cands", "int64 (max_options,): the candidate options of the rollout decision at hand, best first"),
    ("values", "float64 (max_options, 2): each candidate's total win share and score margin over its playouts"),
)
COMMON_NAMES = tuple(name for name, _ in COMMON_FIELDS)

M = namespace("M", ("n_players", "game_index", "check", "round", "events", "pause_at", "ended", "no_winner", "seat"))
"""Slots of ``meta``: player count, game index, checked mode (assert invariants), the round events are
stamped with, events written, pause after this many decisions (0: never), game over, nobody wins, and the
turns taken in the round at hand under the core turn driver (sim/core/turns.py; 0: a new round starts)."""

MC = namespace("MC", ("seed", "active", "playout", "n_forced", "count", "request", "seat", "n_cands", "decision_no",
                      "playout_no", "decisions", "playouts"))
"""Slots of ``mc``, the rollout driver's bookkeeping (sim/core/rollout.py): the run seed; whether the game has a
rollout seat; in a playout; rollout picks to replay and rollout decisions met since the last boundary; a decision
asking for a rollout, its seat and candidate count; the game's rollout decisions so far (seeds its playouts);
the playout at hand; the chunk's rollout decisions and playouts (for ``playtest bench``). It is outside ``meta``
because a snapshot must not restore it."""

FORCED = 4096
"""Most rollout decisions between two boundaries (turn or round starts) of any game."""

STATIC_COMMON = ("rules", "kind", "params", "weights", "span", "weighed", "features", "scores", "options", "trace",
                 "mc", "forced", "cands", "values")
"""Common fields a snapshot shares instead of copying: fixed for a whole chunk, the buffers of the decision at
hand (a position is saved at a boundary, between decisions) and the rollout driver's own. The decision buffers
are most of a state's bytes, and a rollout restores a position for every playout."""


@dataclass(frozen=True)
class StateLayout:
    """A game's composed state type, how to allocate its own fields, and which of them are fixed per chunk."""

    tuple_type: type
    """NamedTuple class: the common fields, then the game's."""
    wrap: Callable[[Any], Any]
    """Builds the kernel handle (a structref) on a tuple of arrays (identity without JIT)."""
    static: tuple[str, ...]
    """Field names a snapshot shares (the common static ones and the game's fixed geometry or tables)."""
    numba_types: tuple[type, ...]
    """The handle's numba type classes (owned and borrowed): the core binds the game's hooks to these."""


_SNAPSHOT_STATIC: dict[type, tuple[str, ...]] = {}
"""Handle type class -> static field names, read by ``copy_state``'s overload."""


def compose(name: str, game_fields: type | None = None, static: tuple[str, ...] = (),
            module: str | None = None) -> StateLayout:
    """The state type of a game: common fields first, then ``game_fields`` (a NamedTuple class of arrays); a game
    with no fields of its own passes ``module=__name__`` (the module defining its kernels) instead."""
    own = tuple(game_fields._fields) if game_fields is not None else ()
    clash = set(COMMON_NAMES) & set(own)
    assert not clash, f"{name}: fields {sorted(clash)} are common fields the core owns"
    annotations = {n: np.ndarray for n in COMMON_NAMES + own}
    tuple_type = NamedTuple(name, list(annotations.items()))
    tuple_type.__module__ = module or game_fields.__module__
    doc = game_fields.__doc__ if game_fields is not None else None
    tuple_type.__doc__ = f"{doc or name}\n\nCommon fields (sim.core.state): {', '.join(COMMON_NAMES)}."
    wrap = struct_handle(tuple_type, f"{name}Ref")
    static_all = STATIC_COMMON + tuple(static)
    found: tuple[type, ...] = ()
    if not config.DISABLE_JIT:
        module = __import__(tuple_type.__module__, fromlist=["_"])
        owned = getattr(module, f"{name}RefType")
        found = (owned, BORROWED[owned])
        for cls in found:
            _SNAPSHOT_STATIC[cls] = static_all
    return StateLayout(tuple_type, wrap, static_all, found)


def feature_columns(max_options: int) -> int:
    """Columns of the features buffer: at least ``max_options``, in whole cache lines of 8 floats, and an odd
    number of lines, so that consecutive feature rows fall in different sets of the L1 cache. With 512 columns
    every row of Circus Train's began 4 KiB after the last: all decisions' first options shared one set and
    evicted each other."""
    lines = -(-max_options // 8)
    return 8 * (lines + 1 - lines % 2)


def common_arrays(spec: Any, rules: Any, n_players: int, data: Any, table: Any,
                  trace: np.ndarray = NO_TRACE) -> dict[str, np.ndarray]:
    """Allocate the common fields of ``spec``'s game (a GameSpec) for ``n_players`` seats."""
    meta = np.zeros(len(M), np.int64)
    meta[M.n_players] = n_players
    max_options = spec.max_options(rules, n_players, data)
    return dict(
        rules=np.ascontiguousarray(rules.to_array(n_players), dtype=np.int64), meta=meta, rng=new_rng(),
        seat_strat=np.zeros(n_players, np.int64),
        kind=np.ascontiguousarray(table.kind, dtype=np.int64),
        params=np.ascontiguousarray(table.params, dtype=np.float64),
        weights=np.ascontiguousarray(table.weights, dtype=np.float64),
        span=spec.schema.span_array(),
        weighed=weighed_rows(np.asarray(table.weights), spec.schema.span_array()),
        features=np.zeros((len(spec.schema.features), feature_columns(max_options)), np.float64),
        scores=np.zeros(max_options, np.float64),
        options=np.zeros((max_options, spec.option_width), np.int64),
        games=np.zeros(len(spec.game_columns), np.int64),
        players=np.zeros((n_players, len(spec.player_columns)), np.int64),
        keys=np.zeros((n_players, spec.n_keys), np.int64), rank=np.zeros(n_players, np.int64), trace=trace,
        mc=np.zeros(len(MC), np.int64), forced=np.zeros(FORCED, np.int64), cands=np.zeros(max_options, np.int64),
        values=np.zeros((max_options, 2), np.float64),
    )


def build(layout: StateLayout, common: dict[str, np.ndarray], own: Any) -> Any:
    """The kernel handle on the common arrays plus the game's own (a NamedTuple of the game's fields, or None)."""
    return layout.wrap(layout.tuple_type(**common, **(own._asdict() if own is not None else {})))


def new_snapshot(layout: StateLayout, handle: Any) -> Any:
    """A second handle of the same shapes to save positions into: static fields shared, the rest copied."""
    fields = layout.tuple_type._fields
    return layout.wrap(layout.tuple_type(**{f: getattr(handle, f) if f in layout.static else getattr(handle, f).copy()
                                            for f in fields}))


def copy_state(dst, src) -> None:
    """Copy every non-static field of ``src`` into ``dst`` (same game, same shapes): save and restore.

    Without JIT (the state is then the NamedTuple itself) this Python body runs; compiled, the overload below
    unrolls the same copies per field. Python code calls it through :func:`save` and :func:`restore`.
    """
    for field in type(src)._fields:
        if field not in STATIC_COMMON:
            getattr(dst, field)[...] = getattr(src, field)


@overload(copy_state)
def _copy_state_impl(dst, src):
    static = _SNAPSHOT_STATIC.get(type(src))
    if static is None:
        return None
    fields = [f for f in src.field_dict if f not in static]
    lines = ["def impl(dst, src):"] + [f"    _copy(dst.{f}, src.{f})" for f in fields] + ["    return None"]
    scope: dict[str, Any] = {"_copy": _copy_array}
    exec("\n".join(lines), scope)  # one statement per field: numba cannot loop over a struct's fields
    return scope["impl"]


def _copy_array(dst, src) -> None:
    """dst[...] = src for two arrays of one shape (compiled: an element loop over their flat views)."""
    dst[...] = src


@overload(_copy_array)
def _copy_array_impl(dst, src):
    if not isinstance(dst, types.Array):
        return None

    def impl(dst, src):
        a = dst.reshape(-1)
        b = src.reshape(-1)
        for i in range(b.shape[0]):
            a[i] = b[i]
    return impl


@kernel
def save(st, snap) -> None:
    """Save the position of ``st`` into ``snap`` (a handle from :func:`new_snapshot`)."""
    copy_state(snap, st)


@kernel
def restore(st, snap) -> None:
    """Put the position saved in ``snap`` back into ``st``."""
    copy_state(st, snap)


@kernel
def save_restore(st, snap, n: int) -> None:
    """Save the position of ``st`` and put it back, ``n`` times: what a rollout pays per playout (the bench).
    Through borrowed handles, as the rollout driver copies them (sim/core/play.py ``play_chunk``)."""
    st = borrow(st)
    snap = borrow(snap)
    for _ in range(n):
        save(st, snap)
        restore(st, snap)


def snapshot_bytes(layout: StateLayout, handle: Any) -> int:
    """Bytes a save (or a restore) copies: the fields of ``handle`` a snapshot does not share."""
    return sum(getattr(handle, f).nbytes for f in layout.tuple_type._fields if f not in layout.static)

