"""Known truth planted in synthetic logs: the seating design check, the seat + strategy model, its fit
diagnostics (interactions, neighbours), adjusted associations, clustered differences, labels and handicaps.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

from analysis import models
from analysis.card import analyse, seat_verdict
from analysis.handicap import seat_handicaps
from analysis.verdicts import finding, fmt_p, label, parse_min_effect
from sim.core.errors import PlaytestError
from tests.test_analysis_synth import make_frames, make_run

POOL = ["a", "b", "c", "d"]
SEAT_W = [1.6, 1.0, 1.0, 0.8]
STRENGTH = {"a": 1.5, "b": 1.07, "c": 1.0, "d": 0.8}


def _truth(seat_w, strength) -> tuple[np.ndarray, dict]:
    """Exact seat and strategy win rates (points vs the mean) under a uniformly random seating of a 4-pool."""
    seat_rate, strat_rate = np.zeros(4), {k: 0.0 for k in strength}
    perms = list(itertools.permutations(POOL))
    for perm in perms:
        odds = np.array([seat_w[s] * strength[k] for s, k in enumerate(perm)])
        p = odds / odds.sum()
        seat_rate += p / len(perms)
        for s, k in enumerate(perm):
            strat_rate[k] += p[s] / len(perms)
    return 100 * (seat_rate - 0.25), {k: 100 * (v - 0.25) for k, v in strat_rate.items()}


def test_planted_seat_and_strategy_effects_are_recovered_and_labelled():
    _, players = make_frames("sea_trade", 4, 30000, POOL, seat_weights=SEAT_W, strengths=STRENGTH, seed=31)
    model = models.fit_model(players, threshold=2.0)
    seat_truth, strat_truth = _truth(SEAT_W, STRENGTH)
    for row in model.seats.itertuples():
        assert abs(row.effect - seat_truth[row.seat]) < 3 * row.se
    for row in model.strategies.itertuples():
        assert abs(row.effect - strat_truth[row.strategy]) < 3 * row.se
    seats = model.seats.set_index("seat")["label"]
    assert seats[0] == "large" and seats[3] == "large"  # about +12 and -5 points
    strategies = model.strategies.set_index("strategy")["label"]
    assert strategies["a"] == "large" and strategies["d"] == "large"
    assert model.strategies["strategy"].tolist()[0] == "a"
    assert model.best_gap.what.startswith("a minus runner-up") and model.best_gap.label == "large"


def test_no_effect_is_called_negligible_with_enough_games():
    _, players = make_frames("sea_trade", 4, 30000, POOL, seed=32)
    model = models.fit_model(players, threshold=2.0)
    labels = list(model.seats["label"]) + list(model.strategies["label"])
    assert set(labels) <= {"negligible", "small"} and labels.count("negligible") >= 6  # "small": a 5% false alarm


def test_a_small_real_effect_is_called_small():
    _, players = make_frames("sea_trade", 2, 200000, ["a", "b"], seat_weights=[1.04, 1.0], seed=33)
    model = models.fit_model(players, threshold=2.0)
    first = model.seats.set_index("seat").loc[0]
    assert 0.5 < first["effect"] < 1.5 and first["label"] == "small"


def test_planted_interaction_is_flagged_and_absent_one_is_not():
    _, players = make_frames("sea_trade", 4, 30000, POOL, interactions={("b", 0): 2.0}, seed=34)
    diag = models.fit_model(players, threshold=2.0).interaction
    assert diag["largest"].what.startswith("b in seat 1") and diag["largest"].label == "large" and diag["p"] < 1e-6
    _, players = make_frames("sea_trade", 4, 30000, POOL, seed=35)
    assert models.fit_model(players, threshold=2.0).interaction["largest"].label != "large"


def test_planted_neighbour_effect_is_flagged_and_absent_one_is_not():
    pool = ["a", "b", "c", "d", "e"]
    _, players = make_frames("sea_trade", 4, 30000, pool, after={"c": 0.4}, seed=36)
    diag = models.fit_model(players, threshold=2.0).neighbour
    top = diag["largest"]
    assert top.what == "seated just after c (rather than elsewhere at the table)" and top.estimate < -2
    assert top.label == "large"
    _, players = make_frames("sea_trade", 4, 30000, pool, strengths={s: 1.0 + (s == "a") for s in pool}, seed=37)
    diag = models.fit_model(players, threshold=2.0).neighbour
    assert diag["largest"].label in ("negligible", "small")  # a strong opponent is not mistaken for a neighbour


@pytest.mark.parametrize("game, n, pool", [("sea_trade", 4, ["trader", "raider", "random", "trader"]),
                                           ("bus", 5, ["a", "b", "c", "d", "e"])])
def test_a_neighbour_effect_is_identified_when_the_pool_fills_the_seats(game, n, pool):
    """Issue 21 item 2: the pool equals the seats (a fixed multiset, seated at random), so the opponents-present
    columns are aliased with own strategy; they are dropped and the planted effect of sitting just after the second
    strategy of the pool (odds x 1.8) is found and labelled large, where it used to read 'cannot be estimated'."""
    _, players = make_frames(game, n, 20000, pool, after={pool[1]: 1.8}, seed=48)
    diag = models.fit_model(players, threshold=2.0).neighbour
    assert diag["identified"] and diag["largest"].what.startswith(f"seated just after {pool[1]} ")
    assert diag["largest"].estimate > 2 and diag["largest"].label == "large" and diag["p"] < 1e-6


def test_a_neighbour_effect_is_not_identified_with_two_seats_only_when_truly_so():
    """With one strategy, or two seats (the seat before you is your only opponent), there is no neighbour contrast."""
    _, players = make_frames("sea_trade", 2, 2000, ["a", "b"], seed=49)
    assert models.fit_model(players, threshold=2.0).neighbour == {}


def test_cyclic_seating_fails_the_design_check_and_random_passes():
    pool = ["a", "b", "c", "d", "e"]
    _, cyclic = make_frames("sea_trade", 4, 20000, pool, seating="cyclic", seed=38)
    design = models.design_check(cyclic, pool)
    assert design.status == "failed"
    assert any("fixed order" in p for p in design.problems) and any("neighbours" in p for p in design.problems)
    _, rnd = make_frames("sea_trade", 4, 20000, pool, seating="random", seed=38)
    assert models.design_check(rnd, pool).status == "passed"


def test_fixed_mixed_lineup_is_confounded_and_says_so():
    run = make_run("sea_trade", n_players=4, n_games=3000, strategies=POOL, seating="fixed", seed=39)
    a = analyse(run)
    assert a.design.status == "confounded" and a.model is None
    assert seat_verdict(a).startswith("Seat and strategy cannot be told apart")
    mirror = analyse(make_run("sea_trade", n_players=4, n_games=3000, strategies=["a"], seating="fixed", seed=40))
    assert mirror.design.status == "mirror" and mirror.model is not None


def test_association_is_adjusted_for_the_confounder():
    """A behaviour that only the strong strategy shows: large crude difference, negligible once adjusted."""
    run = make_run("sea_trade", n_players=4, n_games=20000, strategies=POOL, strengths={"a": 2.0, "b": 1, "c": 1, "d": 1},
                   seed=41)
    p = run.players
    rng = np.random.default_rng(0)
    flag = (p["strategy"].astype(str).to_numpy() == "a") ^ (rng.random(len(p)) < 0.1)
    a = models.association(p, run.games, flag, "flagged minus the rest", threshold=2.0)
    assert a.crude.estimate > 10 and a.crude.label == "large"
    assert abs(a.adjusted.estimate) < 1.5 and a.adjusted.label in ("negligible", "small")
    assert a.odds_crude[0] > 2 and 0.8 < a.odds_adjusted[0] < 1.25


def test_same_game_differences_get_wider_clustered_intervals():
    """Two groups in the same games (one seat against the rest) are negatively correlated: the clustered
    interval is wider than the independent two-sample one."""
    _, players = make_frames("sea_trade", 4, 20000, POOL, seat_weights=[1.3, 1, 1, 1], seed=42)
    flag = players["seat"].to_numpy() == 0
    clustered = models.paired_difference(players, flag, "seat 1 minus the others", 2.0)
    y = players["win_share"].to_numpy()
    a, b = y[flag], y[~flag]
    independent = 100 * np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert clustered.se > 1.1 * independent
    assert clustered.estimate == pytest.approx(100 * (a.mean() - b.mean()))


def test_large_needs_the_interval_beyond_the_threshold_and_a_precise_effect_at_it_is_named():
    """Issue 21 item 4 on synthetic logs with a known answer. Seat 1 of 2 wins 52% (+2.0 pts, exactly the
    threshold): after 200,000 games it is 'about the threshold', not 'inconclusive: more games needed' for ever.
    Seat 1 at +2.9 pts over 3,000 games: the point estimate passes 2 but the 90% interval reaches below it, so it is
    not 'large'."""
    _, players = make_frames("sea_trade", 2, 200000, ["a", "b"], seat_weights=[0.52 / 0.48, 1.0], seed=44)
    first = models.fit_model(players, threshold=2.0).seats.set_index("seat").loc[0]
    assert 1.7 < first["effect"] < 2.3 and first["label"] == "about the threshold"
    _, players = make_frames("sea_trade", 2, 3000, ["a", "b"], seat_weights=[0.529 / 0.471, 1.0], seed=45)
    first = models.fit_model(players, threshold=2.0).seats.set_index("seat").loc[0]
    assert first["effect"] >= 2.0 and first["effect"] - 1.645 * first["se"] < 2.0 and first["label"] == "inconclusive"


def test_labels_thresholds_and_p_values():
    assert label(5.0, 0.5, 2.0) == "large"
    assert label(-0.4, 0.1, 2.0) == "small"
    assert label(0.1, 0.5, 2.0) == "negligible"
    assert label(1.0, 1.0, 2.0) == "inconclusive"
    assert label(1.6, 0.25, 2.0) == "about the threshold"  # precise, and the 90% interval reaches the threshold
    assert label(1.6, 0.6, 2.0) == "inconclusive"  # the same estimate, measured loosely
    assert label(2.3, 0.25, 2.0) == "about the threshold" and label(-2.3, 0.25, 2.0) == "about the threshold"
    assert label(2.5, 0.25, 2.0) == "large" and label(-2.5, 0.25, 2.0) == "large"  # 90% interval beyond ± 2
    f = finding("x", 3.0, 0.5, 2.0)
    assert f.interval() == "+3.0 pts [+2.0, +4.0]" and "pts" in f.sentence() and "%" not in f.sentence()
    assert fmt_p(0.0) == "< 1e-300" and fmt_p(1e-320) == "< 1e-300" and fmt_p(0.0123) == "0.0123"
    assert parse_min_effect("2").points(0.25) == 2.0 and parse_min_effect("3pts").points(0.25) == 3.0
    assert parse_min_effect("10%").points(0.25) == pytest.approx(2.5)
    for bad in ("0", "-1", "abc", "100", "nan", "inf"):
        with pytest.raises(PlaytestError, match="--min-effect"):
            parse_min_effect(bad)


def test_handicap_recovers_a_planted_score_bonus():
    """Seat 1 scores 3 more points on otherwise exchangeable scores: between -4 and -3 points equalise it
    (at exactly -3 it still wins the ties, which the game's tie-breaks gave it)."""
    rng = np.random.default_rng(43)
    g, n = 40000, 4
    score = rng.integers(0, 30, size=(g, n))
    score[:, 0] += 3
    rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    won = (rank == 1).astype(float)
    players = pd.DataFrame({"game_index": np.repeat(np.arange(g), n), "seat": np.tile(np.arange(n), g),
                            "score": score.ravel(), "rank": rank.ravel(), "win_share": (won / won.sum(1, keepdims=True)).ravel()})
    h = seat_handicaps(players, n_boot=40).set_index("seat")
    assert -4 < h.loc[0, "lo"] < h.loc[0, "handicap"] < h.loc[0, "hi"] < -3
    assert h.loc[0, "rate"] > 0.3
    gap = (h["rate"] - 0.25).abs().max()
    assert abs(h["joint_rate"] - 0.25).max() < gap / 3  # whole points equalise most of the gap


def test_labels_hold_the_false_discovery_rate_across_a_report():
    """Issue 21 item 5: 2,000 findings whose true effect is exactly the 2-pt threshold, each measured with a 0.6-pt
    standard error (so about 5% of them reach 'large' by chance at 5% each); the known answer is that none is beyond
    the threshold, so none is large, and the ledger's cut-off is statsmodels' Benjamini-Hochberg one."""
    from statsmodels.stats.multitest import multipletests

    from analysis.verdicts import fdr

    rng = np.random.default_rng(46)
    noise = rng.normal(2.0, 0.6, 2000)
    nominal = [label(x, 0.6, 2.0) for x in noise]
    assert nominal.count("large") > 60
    labels, ledger = fdr(lambda: [label(x, 0.6, 2.0) for x in noise])
    assert labels.count("large") == 0 and ledger.n_tested == 2000
    from scipy import stats as sps
    p = np.minimum(sps.norm.sf((np.abs(noise) - 2.0) / 0.6), sps.norm.sf((2.0 - np.abs(noise)) / 0.6))
    reject = multipletests(p, method="fdr_bh")[0]
    assert ledger.cutoff == pytest.approx(p[reject].max() if reject.any() else 0.0)
    assert "2,000 findings labelled" in ledger.sentence() and "Benjamini-Hochberg" in ledger.sentence()


def test_a_report_states_how_many_findings_it_labelled_and_labels_at_the_cutoff(tmp_path):
    """Issue 21 item 5 on synthetic logs: the card says how many findings the report labelled and at what cut-off,
    and every label printed is the label at that cut-off."""
    from analysis.report import build_sections, state_tests
    from analysis.verdicts import fdr

    run = make_run("sea_trade", n_players=4, n_games=3000, strategies=POOL, seat_weights=SEAT_W, strengths=STRENGTH,
                   seed=47)
    sections, ledger = fdr(lambda: build_sections([run]))
    card = state_tests(sections, ledger)[0]
    text = " ".join(b for b in card.blocks if isinstance(b, str))
    assert f"{ledger.n_tested:,} findings labelled" in text and ledger.n_tested > 20
    assert 0 < ledger.cutoff <= 0.05


def test_seat_advantage_per_strategy_is_tabled_and_checked_on_the_odds_scale():
    """Issue 21 item 6. Planted: strategy a's odds in seat 1 are x 3 beyond seat and strategy. The conditional logit
    recovers the double-centred log 3 for that cell (the known answer of deviation coding), and its cell in the
    seat x strategy table is a's win rate in seat 1. Without any planted interaction but with odds that multiply
    (seat 1 x 3, strategy a x 3), the linear model still departs in points where the logit sees none: a scale
    artefact."""
    from analysis.report import seat_by_strategy_blocks
    from analysis.sections import Table

    run = make_run("sea_trade", n_players=4, n_games=20000, strategies=POOL, interactions={("a", 0): 3.0}, seed=50)
    logit = models.seat_strategy_logit(run.players)
    cell = logit["cells"].set_index(["strategy", "seat"]).loc[("a", 1)]
    truth = np.log(3.0) * (1 - 1 / 4 - 1 / 4 + 1 / 16)
    assert cell["lo"] < truth < cell["hi"] and logit["p"] < 1e-6
    a = analyse(run)
    table = [b for b in seat_by_strategy_blocks(a) if isinstance(b, Table)][0].frame.set_index("strategy")
    p = run.players
    rate = p[(p["strategy"] == "a") & (p["seat"] == 0)]["win_share"].mean()
    assert table.loc["a", "Seat 1 (first player)"].startswith(f"{100 * rate:.1f}%")
    run = make_run("sea_trade", n_players=4, n_games=20000, strategies=POOL, seat_weights=[3, 1, 1, 1],
                   strengths={"a": 3.0, "b": 1.0, "c": 1.0, "d": 1.0}, seed=51)
    a = analyse(run, "1")
    check = [b for b in seat_by_strategy_blocks(a) if isinstance(b, Table)][-1].frame
    assert len(check) and set(check["reading"]) == {"scale artefact (none on the odds scale)"}


def test_one_winner_logit_is_statsmodels_conditional_logit_computed_over_all_games_at_once():
    """The vectorised log-likelihood and score give the library's fit: the same coefficients and standard errors
    (up to the numerical Hessian's rounding) as statsmodels' ConditionalLogit on games with one winner each; and
    a game without exactly one winner is refused."""
    import statsmodels.api as sm

    rng = np.random.default_rng(7)
    games, n, k = 1500, 4, 5
    x = rng.normal(size=(games * n, k))
    eta = (x @ rng.normal(scale=0.5, size=k)).reshape(games, n)
    prob = np.exp(eta) / np.exp(eta).sum(axis=1, keepdims=True)
    won = np.zeros((games, n))
    won[np.arange(games), [rng.choice(n, p=q) for q in prob]] = 1
    ours = models.OneWinnerLogit(won.ravel(), x, n).fit(disp=False, maxiter=200)
    theirs = sm.ConditionalLogit(won.ravel(), x, groups=np.repeat(np.arange(games), n)).fit(disp=False, maxiter=200)
    assert np.allclose(ours.params, theirs.params, rtol=0, atol=1e-8)
    assert np.allclose(ours.bse, theirs.bse, rtol=1e-5)
    won[0] = [1, 1, 0, 0]
    with pytest.raises(ValueError, match="exactly one winner"):
        models.OneWinnerLogit(won.ravel(), x, n)


def test_mantel_haenszel_interval_is_clustered_by_game():
    """Issue 21 item 12. A flag shared by every player of a game (say 'a long game'), one winner per game: flagged
    rows win exactly a quarter of the time in every game, so the odds ratio is exactly 1 with no uncertainty at all
    (the known answer); an interval treating rows as independent would be about ± 10% wide. A flag drawn per row
    keeps an interval close to the independent one."""
    from statsmodels.stats.contingency_tables import StratifiedTable

    run = make_run("sea_trade", n_players=4, n_games=6000, strategies=POOL, seat_weights=SEAT_W, seed=52)
    p = run.players
    flag = (p["game_index"].to_numpy() % 3 == 0)
    a = models.association(p, run.games, flag, "long game", threshold=2.0)
    ratio, lo, hi = a.odds_crude
    assert ratio == pytest.approx(1.0) and hi - lo < 1e-6
    rng = np.random.default_rng(53)
    flag = rng.random(len(p)) < 0.3
    a = models.association(p, run.games, flag, "random flag", threshold=2.0)
    won = p["won"].to_numpy() > 0
    t = np.array([[[(won & flag).sum()], [(~won & flag).sum()]], [[(won & ~flag).sum()], [(~won & ~flag).sum()]]], float)
    naive = StratifiedTable(t).oddsratio_pooled_confint()
    width = np.log(a.odds_crude[2]) - np.log(a.odds_crude[1])
    assert 0.7 < width / (np.log(naive[1]) - np.log(naive[0])) < 1.3


def test_seat_effects_of_two_player_counts_are_compared_as_a_difference():
    """Issue 21 item 3: 3 against 4 players, seat 1 planted at odds x 2 in both. The comparison prints seat 1's
    difference with an interval (the known answer: 3 players +50.0 - 33.3 = +16.7 pts, 4 players +40.0 - 25.0 = +15.0:
    a difference of -1.7 pts) rather than two labels to compare by eye."""
    from analysis.report import build_sections

    r3 = make_run("sea_trade", n_players=3, n_games=20000, strategies=["a", "b", "c"], seat_weights=[2, 1, 1], seed=54)
    r4 = make_run("sea_trade", n_players=4, n_games=20000, strategies=POOL, seat_weights=[2, 1, 1, 1], seed=55)
    r4.run_dir = r4.run_dir.with_name("four")
    sections = build_sections([r3, r4])
    comp = next(s for s in sections if s.title == "Comparison of runs")
    table = [b for b in comp.blocks if hasattr(b, "frame") and "label" in b.frame.columns][0].frame
    row = table.set_index("seat").loc["Seat 1 (first player)"]
    est, lo, hi = [float(x) for x in re.findall(r"[-+]\d+\.\d", row.iloc[1])]
    assert lo < -1.7 < hi and row["how"] == "independent runs"


def test_a_handicap_that_rests_on_a_few_near_ties_is_not_identified():
    """Issue 21 item 10: a race to a target, where the winner leads by 20 points or more in every game but 2: no
    handicap of a few points changes more than a couple of results, so seat 2's compensation is 'not identified'
    rather than an interval built on 2 games; with close games the same seat's handicap is identified."""
    from analysis.compensation import MIN_PIVOTAL

    rng = np.random.default_rng(56)
    g, n = 20000, 4
    for spread, identified in ((False, False), (True, True)):
        winner = rng.choice(n, g, p=[0.3, 0.25, 0.25, 0.2])
        score = rng.integers(0, 10, size=(g, n)) if not spread else rng.integers(0, 30, size=(g, n))
        if not spread:
            score[np.arange(g), winner] = 30 + rng.integers(0, 5, g)
            score[:2, :] = [[30, 30, 1, 1], [30, 30, 1, 1]]
        rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
        won = (rank == 1).astype(float)
        players = pd.DataFrame({"game_index": np.repeat(np.arange(g), n), "seat": np.tile(np.arange(n), g),
                                "score": score.ravel(), "rank": rank.ravel(),
                                "win_share": (won / won.sum(1, keepdims=True)).ravel()})
        h = seat_handicaps(players, n_boot=20).set_index("seat")
        assert (h.loc[1, "pivotal"] >= MIN_PIVOTAL) == identified, h.loc[1]


def test_rating_fit_lists_each_pair_once_in_the_ratings_order():
    """The head-to-head table has both orders of a pair; the fit counts the pair once ("a above b", a the one
    the ratings list first), largest departure first, ties in that order."""
    ratings = pd.DataFrame({"strategy": ["x", "y", "z"], "rating": [100.0, 0.0, -100.0]})
    rows = []
    for a, b, rate in (("x", "y", 0.70), ("x", "z", 0.64), ("y", "z", 0.70)):
        rows += [{"a": a, "b": b, "comparisons": 1000, "rate": rate, "lo": rate - 0.01, "hi": rate + 0.01},
                 {"a": b, "b": a, "comparisons": 1000, "rate": 1 - rate, "lo": 0.99 - rate, "hi": 1.01 - rate}]
    fit = models.rating_fit(ratings, pd.DataFrame(rows), 400.0, 2.0)
    assert list(zip(fit["a"], fit["b"])) == [("x", "y"), ("y", "z"), ("x", "z")]  # 13.8, 13.8, 1.8 pts
    assert fit["poor fit"].tolist() == [True, True, False]
    assert fit["departure"].iloc[0] == pytest.approx(fit["departure"].iloc[1])
