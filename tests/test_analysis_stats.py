"""Tests of analysis.stats on synthetic results with known seat and strategy effects."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from analysis import stats
from analysis.verdicts import label
from sim.core.errors import PlaytestError
from tests.test_analysis_synth import make_frames


def _wilson_formula(k: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_wilson_matches_textbook_formula():
    for k, n in [(30, 100), (0, 50), (279, 1000), (12.5, 40)]:
        lo, hi = stats.wilson(k, n)
        elo, ehi = _wilson_formula(k, n)
        assert lo == pytest.approx(elo, abs=1e-12) and hi == pytest.approx(ehi, abs=1e-12)


def test_win_rates_use_win_share_sums():
    players = pd.DataFrame({"game_index": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "strategy": ["a", "b", "b", "a"],
                            "win_share": [0.5, 0.5, 1.0, 0.0]})
    t = stats.win_rates(players, "strategy")
    assert t.loc["a", "successes"] == 0.5 and t.loc["b", "successes"] == 1.5
    assert t.loc["b", "rate"] == 0.75 and t.loc["a", "expected"] == 0.5


def test_seat_advantage_detected_and_stated():
    _, players = make_frames("sea_trade", 4, 4000, ["a", "b", "c", "d"], seat_weights=[2.0, 1, 1, 1], seed=3)
    bal = stats.seat_balance(players)
    assert bal.table.loc[0, "significant"] and bal.p_value < 1e-6
    assert 0.36 < bal.table.loc[0, "rate"] < 0.44
    assert bal.verdict.startswith("Seat 1 (first player) wins") and ": large" in bal.verdict
    assert bal.table.loc[0, "label"] == "large" and "4,000 games" in bal.verdict


def test_equal_shares_no_effect_and_mde_stated():
    _, players = make_frames("sea_trade", 4, 4000, ["a", "b", "c", "d"], seed=4)
    bal = stats.seat_balance(players)
    assert not bal.table["significant"].any()
    # 4,000 games cannot show equivalence within 2 points (each seat's interval is about ±1.3 pts) ...
    assert set(bal.table["label"]) <= {"inconclusive", "negligible"}
    # ... but with a 5-point threshold every seat is shown to be negligible
    wide = stats.seat_balance(players, threshold=5.0)
    assert set(wide.table["label"]) == {"negligible"} and wide.verdict.startswith("every seat within ± 5 pts (negligible")


def test_seat_disadvantage_named():
    _, players = make_frames("sea_trade", 3, 6000, ["a", "b", "c"], seat_weights=[1, 1, 0.5], seed=5)
    bal = stats.seat_balance(players)
    assert "Seat 3 wins" in bal.verdict and bal.table.loc[2, "diff_pp"] < -2 and bal.table.loc[2, "label"] == "large"


def test_timeouts_lower_the_expected_share():
    _, players = make_frames("sea_trade", 4, 2000, ["a", "b", "c", "d"], no_winner=0.2, seed=6)
    bal = stats.seat_balance(players)
    assert bal.expected == pytest.approx(players["win_share"].sum() / len(players))
    assert 0.18 < bal.expected < 0.22 and not bal.table["significant"].any()


def test_sample_size_answers_the_labels_question():
    """Issue 21 item 4: the games the note advises give an 80% chance of the label, checked by drawing estimates;
    a true effect at the threshold can never be labelled large, and one above it needs the closed-form count."""
    from analysis.verdicts import Z90, games_to_label, label

    rng = np.random.default_rng(1)
    sd, threshold = 43.3, 2.0  # one seat-row's spread at a fair 25%
    for effect, want in ((3.0, "large"), (4.0, "large"), (0.0, "within"), (1.0, "within")):
        n = games_to_label(effect, sd, threshold, want)
        draws = rng.normal(effect, sd / math.sqrt(n), 40000)
        se = sd / math.sqrt(n)
        got = np.mean([label(x, se, threshold) in (("large",) if want == "large" else ("small", "negligible")) for x in draws])
        assert 0.79 < got < 0.81, (effect, want, n, got)
    closed = ((Z90 + 0.8416212335729143) * sd / (4.0 - threshold)) ** 2
    assert games_to_label(4.0, sd, threshold, "large") == pytest.approx(closed, rel=1e-3)
    assert games_to_label(2.0, sd, threshold, "large") is None and games_to_label(2.0, sd, threshold, "within") is None
    note = stats.sample_size_note(10_000, 2.0, sd)
    assert f"a true seat effect of 4 pts labelled large: {games_to_label(4.0, sd, 2.0, 'large'):,} games" in note
    assert "labelled negligible" in note and "Bonferroni" not in note


def test_ratings_and_head_to_head_rank_stronger_strategy_first():
    _, players = make_frames("sea_trade", 4, 3000, ["strong", "weak", "mid", "weak"],
                             strengths={"strong": 3.0, "mid": 1.5, "weak": 1.0}, seed=7)
    ratings, h2h = stats.strategy_ratings(players, n_boot=50)
    assert ratings["strategy"].tolist() == ["strong", "mid", "weak"]
    top = ratings.iloc[0]
    assert top["lo"] > 0 and top["lo"] <= top["rating"] <= top["hi"]
    m = stats.head_to_head_matrix(h2h)
    assert m.loc["strong", "weak"] > 0.6 and m.loc["strong", "weak"] + m.loc["weak", "strong"] == pytest.approx(1)
    row = h2h[(h2h.a == "strong") & (h2h.b == "weak")].iloc[0]
    assert row["lo"] < row["rate"] < row["hi"]
    # "weak" sits twice in every game: weak-vs-weak pairs carry no information and are not counted
    assert row["comparisons"] == 3000 * 2


def test_bradley_terry_recovers_known_strengths():
    true = np.log(np.array([4.0, 2.0, 1.0]))
    true -= true.mean()
    p = np.exp(true)
    c = np.full((3, 3), 100_000.0) - np.diag([100_000.0] * 3)
    w = c * p[:, None] / (p[:, None] + p[None, :])
    assert np.allclose(stats.bradley_terry(w, c), true, atol=1e-3)


def test_effect_size_is_statsmodels_cohens_h():
    assert stats.cohens_h(0.3, 0.25) == pytest.approx(2 * math.asin(math.sqrt(0.3)) - 2 * math.asin(math.sqrt(0.25)))


def test_labels_agree_with_statsmodels_equivalence_test():
    """'negligible'/'small' (equivalence shown) exactly when statsmodels' one-sample TOST rejects at 5%."""
    from statsmodels.stats.proportion import proportions_ztost

    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(500, 20000))
        k = int(rng.binomial(n, rng.uniform(0.2, 0.3)))
        p = k / n
        se = 100 * math.sqrt(p * (1 - p) / n)
        verdict = label(100 * (p - 0.25), se, 2.0)
        p_tost = proportions_ztost(k, n, 0.23, 0.27, prop_var="sample")[0]
        assert (verdict in ("negligible", "small")) == (p_tost < 0.05), (k, n, verdict, p_tost)


def test_proportion_table_and_describe():
    t = stats.proportion_table(pd.Series(["win"] * 90 + ["timeout"] * 10))
    assert t.loc["win", "count"] == 90 and t["share"].sum() == pytest.approx(1)
    assert t.loc["timeout", "lo"] < 0.1 < t.loc["timeout", "hi"]
    d = stats.describe(pd.Series(np.arange(101)))
    assert d["median"] == 50 and d["p5"] == 5 and d["mean_lo"] < 50 < d["mean_hi"]


def test_running_rate_interval_shrinks_and_covers():
    _, players = make_frames("sea_trade", 4, 4000, ["a", "b", "c", "d"], seed=8)
    curve = stats.running_rate(players)
    assert curve["games"].iloc[-1] == 4000
    width = curve["hi"] - curve["lo"]
    assert width.iloc[-1] < width.iloc[0] / 5 and (curve["lo"] <= curve["rate"]).all() and (curve["rate"] <= curve["hi"]).all()
    last = players[players["seat"] == 0]["win_share"].mean()
    assert curve["rate"].iloc[-1] == pytest.approx(last)


def test_end_reason_intervals_are_simultaneous_multinomial():
    from statsmodels.stats.proportion import multinomial_proportions_confint

    t = stats.proportion_table(pd.Series(["a"] * 50 + ["b"] * 30 + ["c"] * 20))
    ref = multinomial_proportions_confint([50, 30, 20], method="goodman")
    assert t.loc["a", "lo"] == pytest.approx(ref[0, 0]) and t.loc["c", "hi"] == pytest.approx(ref[2, 1])


def test_pooled_rows_of_one_game_get_a_game_clustered_interval():
    """Issue 21 item 12: 'trader' sits twice in every game, and when one trader wins the other cannot, so the two
    rows are dependent. The known answer is the game-clustered standard error of the pooled rate (statsmodels OLS on
    a constant, clustered by game); the independent-rows Wilson interval is visibly wider. A strategy with one row
    per game keeps its plain Wilson interval."""
    from analysis.metrics import mean_se

    _, players = make_frames("sea_trade", 4, 6000, ["trader", "raider", "random", "trader"], seat_weights=[3, 1, 1, 1],
                             seed=9)
    t = stats.win_rates(players, "strategy")
    rows = players[players["strategy"] == "trader"]
    _, se = mean_se(rows["win_share"].to_numpy(), rows["game_index"].to_numpy())
    half = (t.loc["trader", "hi"] - t.loc["trader", "lo"]) / 2
    assert half == pytest.approx(1.96 * se, rel=0.03)
    lo, hi = stats.wilson(t.loc["trader", "successes"], t.loc["trader", "n"])
    assert (hi - lo) / 2 > 1.15 * half
    lo, hi = stats.wilson(t.loc["raider", "successes"], t.loc["raider", "n"])
    assert t.loc["raider", "lo"] == pytest.approx(float(lo)) and t.loc["raider", "hi"] == pytest.approx(float(hi))


def test_a_clustered_mean_is_the_exact_mean_whatever_the_row_order():
    """The same logs give the same report: 17 wins in 80 games is 21.25 pts, which prints as 21.2 (half to even),
    not 21.2 or 21.3 by the last bit of a regression fit that moves with the row order and BLAS's threads."""
    from analysis.metrics import mean_se

    wins = np.array([1.0] * 17 + [0.0] * 63)
    games = np.arange(80)
    mean, se = mean_se(wins, games)
    assert mean == 17 / 80 and f"{100 * mean:.1f}" == "21.2"
    rng = np.random.default_rng(3)
    for _ in range(20):
        order = rng.permutation(80)
        assert mean_se(wins[order], games[order])[0] == mean
    assert se == pytest.approx(math.sqrt(wins.var(ddof=1) / 80), rel=1e-9)


def test_paired_rare_end_reason_interval_cannot_collapse_and_covers():
    """Issue 21 item 11. Two runs of the same games where a rare end reason happens in the same 4 of 3,000 games
    of both (no discordant game): the paired difference is 0, and its Newcombe interval keeps a width (the
    clustered one was '+0.0 [+0.0, +0.0]', which stopped --until-ci at once). Known answer by simulation: the
    interval covers a true paired difference of +1 pt in at least 93% of 400 draws."""
    from analysis.metrics import newcombe_paired, paired_difference, parse_metric
    from tests.test_analysis_synth import make_run

    base = make_run("sea_trade", n_players=4, n_games=3000, strategies=["a", "b", "c", "d"], seed=10)
    reasons = np.array(["win"] * 3000, dtype=object)
    reasons[[5, 700, 1400, 2100]] = "timeout"
    base.games["end_reason"] = pd.Categorical(reasons)
    variant = make_run("sea_trade", n_players=4, n_games=3000, strategies=["a", "b", "c", "d"], seed=10)
    variant.games["end_reason"] = pd.Categorical(reasons)
    metric = parse_metric("end:timeout", {"n_players": 4, "strategies": ["a"], "end_reasons": ["win", "timeout"]})
    f = paired_difference(metric, variant, base, 2.0).finding
    assert f.estimate == 0 and f.lo < -0.05 and f.hi > 0.05
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(400):
        b = rng.random(2000) < 0.03
        v = b.copy()
        flip = rng.random(2000)
        v[~b & (flip < 0.01 / 0.97)] = True  # +1 pt: 1% of games gain the event
        d, lo, hi = newcombe_paired(b, v)
        hits += lo <= 0.01 <= hi
    assert hits / 400 >= 0.93


def test_sweep_sample_size_is_sized_on_the_variant_that_spreads_most():
    """Issue 21 item 11: the advice answers the labels' question for every variant, so it is sized on the variant
    with the widest paired spread (the median over variants promised too few games for the rest)."""
    from analysis.metrics import Paired, parse_metric
    from analysis.sweep import MetricRows, sample_size_advice
    from analysis.verdicts import finding, games_to_label

    metric = parse_metric("seat1", {"n_players": 4, "strategies": ["a"], "end_reasons": ["win"]})
    pairs = [Paired(finding("x", 0.0, 0.1, 2.0), 10_000, sd, 60.0) for sd in (5.0, 6.0, 60.0)]
    text = sample_size_advice(MetricRows(metric, [], [None, *pairs], 2.0))
    assert f"labelled large: {games_to_label(4.0, 60.0, 2.0, 'large'):,} games per variant" in text
    assert f"labelled negligible: {games_to_label(0.0, 60.0, 2.0, 'within'):,} games per variant" in text


def _paired_strategy_runs(n: int, effect: float, rng) -> tuple:
    """Two runs of the same n games (common random numbers, 30% of games redrawn in the variant): strategy a sits in
    seats 1 and 3, b in 2 and 4, one winner per game; the variant raises a's win rate per row by ``effect`` pts."""
    from analysis.load import Run

    base = np.full(4, 0.25)
    variant = base + np.array([1, -1, 1, -1]) * effect / 100
    u = rng.random(n)
    u2 = np.where(rng.random(n) < 0.3, rng.random(n), u)
    runs = []
    for p, draw in ((base, u), (variant, u2)):
        winner = np.minimum(np.searchsorted(np.cumsum(p), draw, side="right"), 3)
        players = pd.DataFrame({"game_index": np.repeat(np.arange(n), 4), "seat": np.tile(np.arange(4), n),
                                "strategy": np.tile(["a", "b", "a", "b"], n),
                                "win_share": (np.arange(4)[None, :] == winner[:, None]).astype(float).ravel()})
        runs.append(Run(Path(f"r{len(runs)}"), {"n_players": 4}, pd.DataFrame({"game_index": np.arange(n)}), players))
    return runs


def test_sweep_games_needed_give_the_promised_power_on_clustered_paired_rates():
    """Issue 21 item 11. The games a paired difference of rates needs (rows clustered by game: strategy a holds two
    seats of every game) follow n = ((z_0.95 + z_0.80) sd / (effect - threshold))^2 for 'large' (the 90% interval
    must clear the threshold) and n = ((z_0.95 + z_0.90) sd / threshold)^2 for 'negligible' at no effect (both ends
    of the interval inside: 2 Phi(threshold / se - z_0.95) - 1 = 0.8), with sd the
    per-game spread of the paired difference. Known answer by simulation: sized on a 4,000-game pilot, 300 fresh
    studies of that many games label a true +4 pts 'large', and a true 0 'negligible' or 'small', about 80% of the
    time (the old median-based advice sized on a 1-pt significance test was ~10x off in games)."""
    from analysis.metrics import paired_difference, parse_metric
    from analysis.verdicts import Z90

    rng = np.random.default_rng(2111)
    metric = parse_metric("strategy:a", {"n_players": 4, "strategies": ["a", "b"], "end_reasons": ["x"]})
    z80, z90 = float(sps.norm.ppf(0.8)), float(sps.norm.ppf(0.9))
    for effect, want, closed, hits in ((4.0, "large", lambda sd: (sd * (Z90 + z80) / 2.0) ** 2, {"large"}),
                                       (0.0, "within", lambda sd: (sd * (Z90 + z90) / 2.0) ** 2, {"negligible", "small"})):
        base, variant = _paired_strategy_runs(4000, effect, rng)
        pilot = paired_difference(metric, variant, base, 2.0)
        n = pilot.games_for(effect, 2.0, want)
        assert n == pytest.approx(closed(pilot.sd_paired), rel=0.02)
        labels = [paired_difference(metric, *reversed(_paired_strategy_runs(n, effect, rng)), 2.0).finding.label
                  for _ in range(300)]
        power = np.mean([x in hits for x in labels])
        assert 0.72 <= power <= 0.88, (effect, n, power)
