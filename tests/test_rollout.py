"""Rollout allocation: sequential halving against flat Monte Carlo on a bandit with known means.

The drivers' Python bodies (``py_func``) run with the playout replaced by a draw from a known distribution:
playout p of option o wins when u_p < mean[o], u_p the same for every option (common random numbers, as in
the kernels). The kernels' own determinism and replays are contract tests (tests/test_conformance.py).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from sim.core import play, rollout
from sim.core.policy import short_rollout
from sim.core.spec import get_game
from sim.core.state import MC

M_CANDS = 4


class Bandit:
    """Playouts with known win rates per option; counts each option's playouts."""

    def __init__(self, means, seed: int = 0):
        self.means = np.asarray(means, float)
        self.u = np.random.default_rng(seed).random(10_000)
        self.margin = np.random.default_rng(seed + 1).normal(size=10_000)
        self.count = np.zeros(len(means), int)

    def playout(self, st, snap, data, setup, n_forced, c, p):
        option = st.cands[c]
        self.count[option] += 1
        st.values[c, 0] += float(self.u[p] < self.means[option])
        st.values[c, 1] += self.margin[p]


def _state(n: int):
    mc = np.zeros(len(MC), np.int64)
    mc[MC.n_cands] = n
    return SimpleNamespace(mc=mc, cands=np.arange(n, dtype=np.int64), values=np.zeros((n, 2)))


@pytest.fixture
def python_drivers(monkeypatch):
    """The allocation drivers as Python, calling a bandit's playout."""
    for name in ("halving_rounds", "round_playouts", "rank_alive", "decided", "best_candidate"):
        monkeypatch.setattr(play, name, getattr(rollout, name).py_func)

    def run(allocation: str, means, k: int, seed: int = 0, stop: bool = True):
        bandit = Bandit(means, seed)
        monkeypatch.setattr(play, "playout", bandit.playout)
        if not stop:
            monkeypatch.setattr(play, "decided", lambda st, alive, left: False)
        st = _state(len(means))
        driver = play.evaluate_halving if allocation == "halving" else play.evaluate_flat
        pick = driver.py_func(st, None, None, False, 0, k)
        if not stop:
            monkeypatch.setattr(play, "decided", rollout.decided.py_func)
        return pick, bandit.count, int(st.mc[MC.playouts])
    return run


def test_halving_spends_less_on_a_dominated_option_and_picks_what_flat_picks(python_drivers):
    """Clearly different options: flat gives each 16 playouts; halving gives the worst fewer, the best the most,
    never more than flat's budget in all, and both pick the best option."""
    means = [0.15, 0.9, 0.4, 0.1]
    pick_flat, flat, used_flat = python_drivers("flat", means, 16)
    pick_sh, sh, used_sh = python_drivers("halving", means, 16)
    assert pick_flat == pick_sh == 1
    assert list(flat) == [16] * 4 and used_flat == 64
    assert sh[3] < sh[1] and sh[0] < sh[1] and sh.sum() == used_sh <= 64
    assert sh[1] == sh.max()


def test_halving_stops_early_when_the_leader_cannot_be_caught(python_drivers):
    """Option 2 always wins and the rest never: the leader is decided before the budget is spent, and the pick
    is the one the full budget makes."""
    means = [0.0, 0.0, 1.0, 0.0]
    pick, count, used = python_drivers("halving", means, 8)
    full_pick, full, full_used = python_drivers("halving", means, 8, stop=False)
    assert pick == full_pick == 2 and full_used == 32 and used < full_used and count.sum() == used


@pytest.mark.parametrize("seed", range(40))
def test_the_early_stop_never_changes_the_pick(python_drivers, seed):
    """On random bandits (close or not), stopping once the leader is decided picks what the full budget picks."""
    rng = np.random.default_rng(seed)
    means = rng.random(M_CANDS) if seed % 2 else np.round(rng.random(M_CANDS), 1)
    assert python_drivers("halving", means, 6, seed)[0] == python_drivers("halving", means, 6, seed, stop=False)[0]


def test_halving_schedule_spends_the_flat_budget():
    """Budget k x m over ceil(log2 m) rounds: 4 options at k = 8 play 4 each, then 2 play 8 more (32 in all)."""
    assert [rollout.halving_rounds(n) for n in (2, 3, 4, 5, 8)] == [1, 2, 2, 3, 3]
    assert rollout.round_playouts(32, 4, 2) == 4 and rollout.round_playouts(32, 2, 2) == 8
    assert rollout.round_playouts(4, 4, 2) == 1  # never 0


def test_short_forms_declare_the_allocation():
    """``BASE+shK`` is halving on K x top playouts; ``BASE+mcK`` stays flat, and a flat rollout's manifest
    definition reads as before halving existed (flat rollout runs resume)."""
    from sim.core.policy import ALLOCATIONS, P_ALLOCATION, definition

    sh, mc = short_rollout("expander+sh8"), short_rollout("expander+mc8")
    assert (sh.allocation, sh.playouts, sh.base) == ("halving", 8, "expander") and mc.allocation == "flat"
    assert "allocation" not in definition(mc) and definition(sh)["allocation"] == "halving"
    spec = get_game("bus")
    table = spec.strategies.table(["expander+sh8", "expander+mc8"])
    assert list(table.params[:, P_ALLOCATION]) == [ALLOCATIONS.index("halving"), 0]
    assert np.array_equal(table.weights[0], table.weights[1])


STRONGER = [("bus", 3, "balanced", "balanced+mc4", 45), ("sea_trade", 2, "trader", "trader+mc8", 60)]
"""Where a rollout is measured stronger than its base (docs/strength.md: Bus 3p balanced+mc4 77% [72, 81] of
games against a fair 33%; Sea Trade 2p trader+mc8 72% [67, 77] against 50%, while trader+mc2 is not stronger
there, 44% [39, 50]). Strength is per game and per budget, never part of the contract."""


@pytest.mark.parametrize("game, n, base, rollout, games", STRONGER)
def test_rollout_beats_its_base_where_measured(game, n, base, rollout, games):
    """The rollout seat (seat i mod n in game i) against its base in every other seat: its win share's 95%
    interval lies above the fair share."""
    from analysis.stats import wilson

    spec = get_game(game)
    seats = np.ones((games, n), np.int64)
    seats[np.arange(games), np.arange(games) % n] = 0
    r = spec.play_chunk(spec.rules_type(), n, seats, 0, games, 17, spec.strategies.table([rollout, base]))
    won = r.players[:, :, spec.player_col("won")].astype(float)
    share = won / np.maximum(won.sum(axis=1, keepdims=True), 1.0)
    lo, _ = wilson(share[seats == 0].sum(), games)
    assert lo > 1.0 / n, share[seats == 0].mean()


def test_an_unknown_allocation_is_refused_in_one_line(tmp_path):
    """A rollout file naming an allocation other than flat or halving: one clear error naming both."""
    from sim.core.errors import PlaytestError

    path = tmp_path / "s.json"
    path.write_text('[{"name": "greedy", "kind": "rollout", "base": "balanced", "playouts": 4, "allocation": "ucb"}]')
    with pytest.raises(PlaytestError, match="unknown allocation 'ucb'; use one of flat, halving"):
        get_game("bus").strategies.load_file(path)
