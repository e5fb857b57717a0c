"""The rules fuzz: hypothesis draws rules variants from every game's declared field ranges, player counts and
lineups, and plays them in checked mode (the game's invariants assert as it plays).

Not collected by the suite on its own: ``tests/test_fuzz_gate.py`` (``make test``) and ``make fuzz`` run it in a
subprocess with ``NUMBA_BOUNDSCHECK=1`` (bounds-checked kernels are cached apart from the others), so that every
array access of every kernel is bounds-checked. ``FUZZ_EXAMPLES`` is the budget per game, ``FUZZ_RANDOM=1`` draws fresh examples (the
gate is derandomized, so a pass is reproducible), ``FUZZ_ROLLOUTS=1`` adds rollout seats (another compile).
With 7 Wonders' old token array (MAX_VICTORY = 5 in data.py against victory_age* up to 20) the gate's budget fails
with "IndexError: index is out of bounds", shrunk to victory_age1=6 in a two-player game.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as hs
from numba import njit
from numba.core import config

from sim.core.errors import PlaytestError
from sim.core.fields import FieldSpec, declared
from sim.core.policy import RolloutStrategy
from sim.core.spec import GameSpec, games

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "20"))
RANDOM = os.environ.get("FUZZ_RANDOM") == "1"
ROLLOUTS = os.environ.get("FUZZ_ROLLOUTS") == "1"
GAMES_PER_EXAMPLE = 2
MAX_CHANGED = 6
"""Fields changed at once: few enough that most variants pass the cross-field checks, enough to combine."""

FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not RANDOM, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])


def values(f: FieldSpec) -> hs.SearchStrategy[Any]:
    """Any value the field declares (hypothesis favours the bounds)."""
    if f.type is bool:
        return hs.booleans()
    if f.choices is not None:
        return hs.sampled_from(f.choices)
    if f.type is int:
        return hs.integers(int(f.ge), int(f.le))
    return hs.floats(f.ge, f.le, allow_nan=False)


def variable(spec: GameSpec) -> list[FieldSpec]:
    """The fields a variant may change: every declared one with more than one value (paths stay default)."""
    return [f for f in declared(spec.rules_type) if len(f.sweep_values()) > 1]


def lineup_pool(spec: GameSpec) -> list[str]:
    """Every shipped strategy (a rollout over the last of them with FUZZ_ROLLOUTS), whatever other tests
    registered."""
    names = [s.name for s in spec.strategy_list if not isinstance(s, RolloutStrategy)]
    return names + ([f"{names[-1]}+mc2"] if ROLLOUTS else [])


@hs.composite
def variants(draw: Any, spec: GameSpec) -> tuple[dict[str, Any], int, list[str], int]:
    """(changed fields, player count, one strategy per seat, seed)."""
    chosen = draw(hs.lists(hs.sampled_from(variable(spec)), max_size=MAX_CHANGED, unique_by=lambda f: f.name))
    changes = {f.name: draw(values(f)) for f in chosen}
    n = draw(hs.integers(spec.min_players, spec.max_players))
    lineup = draw(hs.lists(hs.sampled_from(lineup_pool(spec)), min_size=n, max_size=n))
    return changes, n, lineup, draw(hs.integers(0, 2**32 - 1))


def test_bounds_checking_is_on():
    """The gate's premise: kernels here are compiled with bounds checks, so a write past an array's end raises."""
    assert config.BOUNDSCHECK

    @njit(cache=False)
    def poke(a, i):
        a[i] = 1

    with pytest.raises(IndexError):
        poke(np.zeros(6, np.int64), 20)


@pytest.mark.parametrize("game", sorted(games()))
def test_every_declared_rules_variant_plays_checked(game):
    """Any rules variant inside the declared ranges that the game's cross-field checks accept plays to the end in
    checked mode with bounds-checked kernels, and the core's records hold: ranks 1..n, winners ranked first."""
    spec = games()[game]

    @FUZZ
    @given(variants(spec))
    def play(variant):
        changes, n, lineup, seed = variant
        rules = spec.rules_type(**changes)
        try:
            spec.validate(rules, n)
        except PlaytestError:
            assume(False)
        table = spec.strategies.table(lineup)
        seats = np.tile(np.arange(n), (GAMES_PER_EXAMPLE, 1))
        r = spec.play_chunk(rules, n, seats, 0, GAMES_PER_EXAMPLE, seed, table, check=True)
        rank, won = r.players[:, :, spec.player_col("rank")], r.players[:, :, spec.player_col("won")]
        assert ((rank >= 1) & (rank <= n)).all() and (rank.min(axis=1) == 1).all()
        assert set(np.unique(won)) <= {0, 1} and (rank[won == 1] == 1).all()

    play()
