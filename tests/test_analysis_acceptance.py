"""Issue 12's acceptance test: two studies that differ only in the order of --strategies give per-strategy win
rates, ratings and seat rates that agree within their intervals (the seating, not the order, decides who sits
where); and a causal A/B on common random numbers answers "what does this behaviour do for a player?".
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analysis import models, stats
from analysis.ab import ab_effects
from analysis.load import load_run
from sim.core.spec import get_game
from sim.runner import run_ab, run_study

POOL = ["balanced", "commuter", "expander", "builder", "clockmaster"]
GAMES = 6000
Z = 3.29
"""99.9% two-sided: about 20 comparisons are made, so a 95% criterion would fail one in three honest runs."""


def _estimates(run_dir):
    run = load_run(run_dir)
    p = run.players
    design = models.design_check(p, run.lineup)
    model = models.fit_model(p, threshold=2.0)
    raw = stats.win_rates(p, "strategy")
    ratings, _ = stats.strategy_ratings(p, n_boot=100)
    seats = stats.seat_balance(p).table
    return design, model, raw, ratings.set_index("strategy"), seats


def _agree(a: float, se_a: float, b: float, se_b: float) -> bool:
    return abs(a - b) <= Z * np.hypot(se_a, se_b)


@pytest.fixture(scope="module")
def two_orders(tmp_path_factory):
    root = tmp_path_factory.mktemp("order")
    out = []
    for name, lineup in (("forward", POOL), ("reversed", POOL[::-1])):
        out.append(run_study("bus", 4, GAMES, lineup, seed=11, jobs=1, out=root / name, progress=False))
    return out


def test_strategy_order_does_not_change_the_findings(two_orders):
    (da, ma, ra, ga, sa), (db, mb, rb, gb, sb) = (_estimates(d) for d in two_orders)
    assert da.status == db.status == "passed"
    sea, seb = ma.strategies.set_index("strategy"), mb.strategies.set_index("strategy")
    for s in POOL:
        assert _agree(sea.loc[s, "effect"], sea.loc[s, "se"], seb.loc[s, "effect"], seb.loc[s, "se"]), s
        raw_se = [np.sqrt(r.loc[s, "rate"] * (1 - r.loc[s, "rate"]) / r.loc[s, "n"]) for r in (ra, rb)]
        assert _agree(ra.loc[s, "rate"], raw_se[0], rb.loc[s, "rate"], raw_se[1]), s
        rating_se = [(g.loc[s, "hi"] - g.loc[s, "lo"]) / 3.92 for g in (ga, gb)]
        assert _agree(ga.loc[s, "rating"], rating_se[0], gb.loc[s, "rating"], rating_se[1]), s
    for seat in range(4):
        a, b = ma.seats.set_index("seat").loc[seat], mb.seats.set_index("seat").loc[seat]
        assert _agree(a["effect"], a["se"], b["effect"], b["se"]), seat
        se = [np.sqrt(t.loc[seat, "rate"] * (1 - t.loc[seat, "rate"]) / t.loc[seat, "n"]) for t in (sa, sb)]
        assert _agree(sa.loc[seat, "rate"], se[0], sb.loc[seat, "rate"], se[1]), seat
    assert sea.index[0] == seb.index[0]  # the same best strategy


def test_ab_on_common_random_numbers_measures_a_behaviour(tmp_path):
    """clockmaster with its clock weights at zero against clockmaster: same games, same seats, one change."""
    registry = get_game("bus").strategies
    base = registry.get("clockmaster")
    weights = {d: dict(row) for d, row in base.weights.items() if d != "clock"}
    registry.register(dataclasses.replace(base, name="clockmaster-noclock", weights=weights,
                                          description="clockmaster without its clock weights"))
    arm_a, arm_b = run_ab("bus", 4, 1500, POOL, "clockmaster", "clockmaster-noclock", seed=3, jobs=1,
                          out=tmp_path / "ab", progress=False)
    a, b = load_run(arm_a), load_run(arm_b)
    assert (a.players["seat"].to_numpy() == b.players["seat"].to_numpy()).all()
    swapped = a.players["strategy"].astype(str).to_numpy() == "clockmaster"
    assert (b.players["strategy"].astype(str).to_numpy()[swapped] == "clockmaster-noclock").all()
    t = ab_effects(a, b, "clockmaster", "clockmaster-noclock", threshold=2.0)
    main = t.iloc[0]
    assert main["seats"].startswith("the swapped seat") and main["n"] == swapped.sum()
    f = main["finding"]
    assert f.lo < f.estimate < f.hi and f.label in ("large", "small", "negligible", "inconclusive")
    assert f.estimate == pytest.approx(100 * (main["win rate B"] - main["win rate A"]))
    assert 0.0 < main["same result in both arms"] < 1.0  # common random numbers: many games end alike


def _cyclic_players(lineup: list[str], games: int):
    """The old --rotate: game i seats lineup entries i, i+1, ... (mod 5), played through the game's chunk API."""
    from sim.logs import records_to_frames
    from sim.study import plan_study

    study = plan_study("bus", 4, games, lineup, seed=11)
    names = study.strategy_names()
    rows = np.array([names.index(s) for s in study.lineup])
    seats = rows[(np.arange(4)[None, :] + np.arange(games)[:, None] % len(rows)) % len(rows)]
    result = study.spec.play_chunk(study.rules, 4, seats, 0, games, study.seed, study.table())
    return records_to_frames(study.spec, result, 0, seats, names)["players"]


def test_cyclic_rotation_fails_the_check_that_random_seating_passes():
    """The contrast: with the old cyclic rotation the order of --strategies moves win rates far beyond their
    intervals (each strategy keeps its neighbours), and the design check says so."""
    forward, backward = _cyclic_players(POOL, GAMES), _cyclic_players(POOL[::-1], GAMES)
    assert models.design_check(forward, POOL).status == "failed"
    a, b = stats.win_rates(forward, "strategy"), stats.win_rates(backward, "strategy")
    se = lambda t, s: np.sqrt(t.loc[s, "rate"] * (1 - t.loc[s, "rate"]) / t.loc[s, "n"])  # noqa: E731
    assert not all(_agree(a.loc[s, "rate"], se(a, s), b.loc[s, "rate"], se(b, s)) for s in POOL)
