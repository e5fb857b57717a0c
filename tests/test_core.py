"""Shared machinery: per-game seeding, the decision choke point, ranking, decks, graph distances, state handles."""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit, types

from sim.core.bits import lowest_bit
from sim.core.deck import discard_card, draw
from sim.core.graph import UNREACHED, bfs_distances
from sim.core.jit import kernel
from sim.core.ranking import rank_seats
from sim.core.rng import new_state, randint, seed_game, shuffle, uniform
from sim.core.structs import BORROWED, borrow, struct_handle
from sim.core.policy import DecisionSchema, Strategy, StrategyRegistry, choose, weighed_rows
from sim.core.errors import PlaytestError


def _stream(seed: int, game: int, n: int = 20) -> list[int]:
    s = new_state()
    seed_game(s, seed, game)
    return [randint(s, 1000) for _ in range(n)]


def test_seeding_depends_only_on_seed_and_game_index():
    assert _stream(1, 5) == _stream(1, 5)
    assert _stream(1, 5) != _stream(1, 6)
    assert _stream(1, 5) != _stream(2, 5)


def test_randint_and_uniform_are_uniform():
    s = new_state()
    seed_game(s, 3, 0)
    counts = np.bincount([randint(s, 6) for _ in range(60_000)], minlength=6)
    assert counts.min() > 9_500 and counts.max() < 10_500
    u = np.array([uniform(s) for _ in range(20_000)])
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.01


def test_shuffle_is_a_permutation():
    s = new_state()
    seed_game(s, 1, 1)
    a = np.arange(58)
    shuffle(s, a, 58)
    assert sorted(a.tolist()) == list(range(58)) and a.tolist() != list(range(58))


SCHEMA = DecisionSchema(("pick",), ("value", "risk"))


def _registry() -> StrategyRegistry:
    return StrategyRegistry("toy", SCHEMA, [
        Strategy("random", "uniform", "random"),
        Strategy("greedy", "max value", weights={"pick": {"value": 1.0}}),
        Strategy("soft", "softmax", weights={"pick": {"value": 1.0}}, temperature=1.0),
    ])


class _PolicyView(NamedTuple):
    """The common state fields ``choose`` reads, for a decision over hand-made features (span: columns 0..1)."""

    kind: np.ndarray
    params: np.ndarray
    weights: np.ndarray
    weighed: np.ndarray
    features: np.ndarray
    scores: np.ndarray
    rng: np.ndarray


def _view(table, feats, rng) -> _PolicyView:
    return _PolicyView(table.kind, table.params, table.weights, weighed_rows(table.weights, np.array([[0, 2]])), feats,
                       np.zeros(feats.shape[1]), rng)


def test_choose_weights_random_and_softmax():
    table = _registry().table(["random", "greedy", "soft"])
    feats = np.array([[1.0, 0.0], [3.0, 0.0], [2.0, 0.0]]).T.copy()  # features x options
    s = new_state()
    seed_game(s, 0, 0)
    picks = {k: np.bincount([choose(_view(table, feats, s), k, 0, 3)
                             for _ in range(6000)], minlength=3) for k in range(3)}
    assert picks[1].tolist() == [0, 6000, 0]
    assert picks[0].min() > 1800
    soft = picks[2] / 6000
    expected = np.exp([1.0, 3.0, 2.0]) / np.exp([1.0, 3.0, 2.0]).sum()
    assert np.allclose(soft, expected, atol=0.03)


def test_weighed_rows_are_the_rows_of_each_span_some_strategy_weighs():
    """Only these rows are cleared and scored: a row every strategy weighs 0, or outside the span, is left out."""
    weights = np.zeros((2, 2, 5))
    weights[0, 0, 1] = 1.0
    weights[1, 0, 3] = -2.0
    weights[0, 1, 4] = 0.5
    weights[1, 1, 0] = 7.0  # outside decision 1's span [2, 5): never read
    rows = weighed_rows(weights, np.array([[0, 4], [2, 5]]))
    assert rows[0, :3].tolist() == [2, 1, 3] and rows[1, :2].tolist() == [1, 4]
    assert not rows[0, 3:].any() and not rows[1, 2:].any()


def test_choose_breaks_ties_at_random():
    """Options tied for the best score are picked uniformly; a unique best costs no random draw."""
    table = _registry().table(["greedy"])
    feats = np.array([[2.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 0.0], [0.0, 0.0]]).T.copy()  # features x options
    s = new_state()
    seed_game(s, 0, 0)
    picks = np.bincount([choose(_view(table, feats, s), 0, 0, 5)
                         for _ in range(6000)], minlength=5)
    assert picks[1] == 0 and picks[4] == 0
    assert picks[[0, 2, 3]].min() > 1800
    feats[0, 3] = 2.5
    before = s.copy()
    assert choose(_view(table, feats, s), 0, 0, 5) == 3
    assert np.array_equal(s, before)


def test_registry_rejects_unknown_names():
    reg = _registry()
    with pytest.raises(PlaytestError, match="unknown feature"):
        reg.register(Strategy("bad", "x", weights={"pick": {"nosuch": 1.0}}))
    with pytest.raises(PlaytestError, match="unknown decision"):
        reg.register(Strategy("bad", "x", weights={"nosuch": {"value": 1.0}}))
    with pytest.raises(PlaytestError, match="unknown strategy"):
        reg.get("nosuch")


def test_registry_rejects_weights_a_decision_never_fills():
    """A weight on a feature the decision's options never carry would do nothing: refused with the valid list."""
    schema = DecisionSchema(("pick", "drop"), ("value", "risk"), {"pick": ("value",), "drop": ("value", "risk")})
    reg = StrategyRegistry("toy", schema)
    reg.register(Strategy("ok", "x", weights={"drop": {"risk": 1.0}}))
    with pytest.raises(PlaytestError, match="not a fact of decision 'pick'; use one of value"):
        reg.register(Strategy("bad", "x", weights={"pick": {"risk": 1.0}}))


def test_rank_seats_shares_exact_ties():
    keys = np.array([[5, 1], [7, 0], [5, 1], [5, 0]], dtype=np.int64)
    rank = np.zeros(4, dtype=np.int64)
    rank_seats(keys, 4, rank)
    assert rank.tolist() == [2, 1, 2, 4]


def test_deck_reshuffles_discard_when_empty():
    s = new_state()
    seed_game(s, 0, 0)
    deck = np.zeros(5, np.int64)
    discard = np.zeros(5, np.int64)
    counts = np.array([2, 0], np.int64)
    deck[:2] = [10, 11]
    assert draw(deck, counts, discard, s) == 11 and draw(deck, counts, discard, s) == 10
    for c in (1, 2, 3):
        discard_card(discard, counts, c)
    drawn = sorted(draw(deck, counts, discard, s) for _ in range(3))
    assert drawn == [1, 2, 3] and counts.tolist() == [0, 0]
    assert draw(deck, counts, discard, s) == -1


def test_bfs_distances_avoid_blocked_nodes():
    # path graph 0-1-2-3 plus shortcut 0-3 through blocked node 4
    adj = np.array([[1, 4], [0, 2], [1, 3], [2, 4], [0, 3]], dtype=np.int64)
    deg = np.array([2, 2, 2, 2, 2], dtype=np.int64)
    blocked = np.array([0, 0, 0, 0, 1], dtype=np.bool_)
    dist = np.zeros(5, np.int64)
    queue = np.zeros(5, np.int64)
    bfs_distances(adj, deg, blocked, 0, dist, queue)
    assert dist.tolist() == [0, 1, 2, 3, UNREACHED]


class _Pair(NamedTuple):
    counts: np.ndarray
    weights: np.ndarray


_pair_handle = struct_handle(_Pair, "PairRef")


@njit
def _bump_borrowed(handle, k: int) -> int:
    view = borrow(handle)
    counts = view.counts
    for i in range(k):
        counts[i % counts.shape[0]] += 1
    view.weights[1, 2] = 7.5
    return counts.sum() + view.weights.shape[1]


def test_borrowed_handle_views_the_owners_arrays():
    """A kernel's borrow(handle) sees the owner's arrays (shapes, dtypes) and its writes land in them."""
    pair = _Pair(np.zeros(3, np.int64), np.zeros((2, 4)))
    assert _bump_borrowed(_pair_handle(pair), 7) == 7 + 4
    assert pair.counts.tolist() == [3, 2, 2]
    assert pair.weights[1, 2] == 7.5 and pair.weights.sum() == 7.5


def test_a_handle_passed_from_python_is_lent():
    """A kernel called from Python gets the handle under its borrowed type (so tests on hand-built positions run
    the kernels play compiled), and the call leaves the handle's reference count as it was."""
    handle = _pair_handle(_Pair(np.zeros(3, np.int64), np.zeros((2, 4))))
    before = handle._meminfo.refcount
    for _ in range(50):
        _bump_borrowed(handle, 1)
    assert handle._meminfo.refcount == before
    assert {type(sig[0]) for sig in _bump_borrowed.signatures} == {BORROWED[type(handle._type)]}
    assert handle._numba_type_ == _bump_borrowed.signatures[0][0]  # the dispatcher's fast path finds the kernel


def test_lowest_bit_walks_set_bits_in_ascending_order():
    """lowest_bit finds every bit of a 64-bit mask, and the ``bits &= bits - 1`` walk visits them in order."""
    assert [lowest_bit(np.uint64(1) << np.uint64(i)) for i in range(64)] == list(range(64))

    @njit
    def walk(mask):
        out = []
        bits = mask
        while bits != 0:
            out.append(lowest_bit(bits))
            bits &= bits - 1
        return out

    assert walk(0b1011_0010) == [1, 4, 5, 7]
    assert walk(1 << 62 | 0b101) == [0, 2, 62]


@kernel
def _twice(x):
    return 2 * x


@kernel
def _calls_with_constants() -> int:
    return _twice(2) + _twice(3) + _twice(True) + _twice(np.int64(4))


def test_a_kernel_compiles_once_per_type_not_per_constant():
    """Called from compiled code with constants, a ``kernel`` compiles one specialisation per plain type (numba
    alone types a constant argument as a literal and compiles the callee once per value)."""
    assert _calls_with_constants() == 20
    typed = [_twice.get_call_template((types.literal(c),), {})[2] for c in (2, 3, True)]  # how a caller types it
    assert typed == [(types.int64,), (types.int64,), (types.boolean,)]
    assert sorted(str(t) for sig in _twice.signatures for t in sig) == ["bool", "int64"]


@kernel
def _leaf(a):
    return a[0] + a[-1]


@kernel
def _middle(a):
    return _leaf(a) * 3


@kernel
def _top(a):
    return _middle(a) + 1


def test_the_checked_build_optimises_a_called_kernel_only_in_its_callers_module():
    """Bounds-checked (the suite's build), a kernel compiled for a compiled caller keeps its callee's call in its own
    module, which only the top kernel's optimisation inlines; unchecked, numba optimises every module."""
    from numba.core import config

    for compiled in (_leaf, _middle, _top):
        compiled._cache.flush()  # compiled in this process: a kernel loaded from the cache has no module to read
    assert _top(np.arange(4)) == 10
    middle = _middle.inspect_llvm(_middle.signatures[0])
    top = _top.inspect_llvm(_top.signatures[0])
    calls_leaf = re.compile(r"call .*_leaf")
    assert bool(calls_leaf.search(middle)) == bool(config.BOUNDSCHECK)
    assert not calls_leaf.search(top) and not re.search(r"call .*_middle", top)


@pytest.mark.parametrize("max_options", [1, 8, 16, 100, 256, 512, 520])
def test_feature_rows_start_an_odd_number_of_cache_lines_apart(max_options):
    """Every option has a column, and consecutive feature rows fall in different L1 sets (512 columns did not)."""
    from sim.core.state import feature_columns

    width = feature_columns(max_options)
    assert width >= max_options and width % 8 == 0 and (width // 8) % 2 == 1
