"""Circus Train balance study (rules §21, CT-STAT-*): each report section computes what its study rule asks, checked
on hand-built tables (known answers) and on small real runs; CT-WIN-2's calibration targets on a hand-built
performance and over real games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import stats
from analysis.load import Run, load_run
from analysis.report import build_sections
from analysis.sections import Plot, Table, ci
from analysis.sections import circus_train as S
from sim.circus_train import perform as PF
from sim.circus_train.data import CARDS, MONTHS, PR, TALENT_TYPES, load_data, stand_ins_in_use
from sim.circus_train.records import PLAYER_COLUMNS
from sim.circus_train.state import PL
from sim.runner import run_study
from tests.test_circus_train_mechanics import game

D = load_data()


def fake_run(players: dict, n_players: int, rules: dict | None = None, games: dict | None = None) -> Run:
    """A Run from hand-built columns: every Circus Train player column 0 unless given; win_share from ``won``."""
    n = len(next(iter(players.values())))
    cols = {c.name: np.zeros(n, np.int64) for c in PLAYER_COLUMNS}
    cols |= {"game_index": np.arange(n) // n_players, "seat": np.arange(n) % n_players,
             "turn_order": np.arange(n) % n_players, "strategy": np.array(["s"] * n), "won": np.zeros(n, np.int64)}
    cols |= {k: np.asarray(v) for k, v in players.items()}
    p = pd.DataFrame(cols)
    wins = p.groupby("game_index")["won"].transform("sum").to_numpy()
    p["win_share"] = np.where(p["won"] > 0, 1.0 / np.maximum(wins, 1), 0.0)
    p["rank"] = p["rank"].where(p["rank"] > 0, np.where(p["won"] > 0, 1, 2))
    gi = np.arange(n // n_players)
    g = pd.DataFrame({"game_index": gi, "n_players": n_players, "rounds": 27, "end_reason": "september",
                      "winner_seat": [int(np.flatnonzero(w)[0]) if w.sum() == 1 else -1
                                      for w in p["won"].to_numpy().reshape(-1, n_players)],
                      "decisions": 100, "catchups": 0} | (games or {}))
    manifest = {"game": "circus_train", "n_players": n_players, "strategies": sorted(set(p["strategy"])),
                "rules": rules or {}, "seed": 1, "seating": "random"}
    return Run(Path("fake"), manifest, g, p)


def tables(section) -> list[pd.DataFrame]:
    return [b.frame for b in section.blocks if isinstance(b, Table)]


def texts(section) -> str:
    return "\n".join(b for b in section.blocks if isinstance(b, str))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Small real runs: 4-player basic and advanced on one seed, and solitaire with two strategies."""
    root = tmp_path_factory.mktemp("ct_study")
    out = {}
    for name, players, sets, strategies in (("basic", 4, (), None), ("advanced", 4, ("advanced=true",), None),
                                            ("hire_fixed", 4, ("hire_adaptive=false",), None),
                                            ("solo", 1, (), ["showman", "miser"])):
        out[name] = load_run(run_study("circus_train", players=players, games=240, strategies=strategies,
                                       rotate=True, seed=3, jobs=1, out=root / name, overrides=sets,
                                       progress=False))
    return out


def test_ct_stat_1_seat_vp_and_months_led(runs):
    """CT-STAT-1: mean VP by seat with its normal interval, win rate by seat, and the uneven rotation (N = 4: seats
    1 and 2 lead two months each)."""
    run = runs["basic"]
    sec = S.seats(run)
    assert "seat 1: 2, seat 2: 2, seat 3: 1, seat 4: 1" in texts(sec) and "uneven" in texts(sec)
    t = tables(sec)[0]
    vp = run.players[run.players["turn_order"] == 0]["vp"].astype(float)  # seat 1 = first in turn order (CT-SEAT-1)
    half = 1.959964 * vp.std(ddof=1) / np.sqrt(len(vp))
    assert t.iloc[0]["mean VP [95% CI]"] == ci(vp.mean(), vp.mean() - half, vp.mean() + half, percent=False, digits=2)
    first = run.players.loc[run.players["turn_order"] == 0, "win_share"]
    lo, hi = stats.wilson(first.sum(), len(vp))
    assert t.iloc[0]["win rate [95% CI]"] == ci(first.mean(), float(lo), float(hi))
    assert "the rotation is even" in texts(S.seats(fake_run({"vp": [1, 2, 3, 4, 5, 6]}, 3)))


def test_ct_stat_2_start_city_rate_and_vp(runs):
    """CT-STAT-2: win rate (Wilson) and mean VP by named start city, and the cities each strategy chooses."""
    run = runs["basic"]
    sec = S.start_city(run)
    t = tables(sec)[0]
    assert set(t["start city"]) <= {"Winnipeg", "Toronto", "Montreal"}
    p = run.players
    for _, row in t.iterrows():
        sub = p[p["start_city"] == D.city_names.index(row["start city"])]
        # several players of one game may share a city: the interval is clustered by game (stats.rate_table)
        deff = stats.design_effect(stats.rate_sums(sub, "start_city", "win_share"),
                                   sub.groupby("start_city")["win_share"].mean())
        lo, hi = (float(np.ravel(v)[0]) for v in stats.wilson(sub["win_share"].sum() / deff, len(sub) / deff))
        assert row["win rate [95% CI]"] == ci(sub["win_share"].mean(), lo, hi)
        assert row["mean VP [95% CI]"].startswith(f"{sub['vp'].mean():.1f} [")
    assert any(isinstance(b, Plot) for b in sec.blocks)
    shares = tables(sec)[1].set_index("strategy")
    assert set(shares.index) == set(p["strategy"].astype(str))


def test_ct_stat_3_starting_pairs():
    """CT-STAT-3: the six pairs are named AA .. HH from the setup choices; each pair's win rate has a Wilson
    interval; a pair that only one strategy picks gets no adjusted label (it cannot be told from the strategy)."""
    acro = np.array([2, 1, 1, 0, 0, 0] * 50)
    freak = np.array([0, 1, 0, 2, 1, 0] * 50)
    horse = np.array([0, 0, 1, 0, 1, 2] * 50)
    run = fake_run({"start_acrobat": acro, "start_freak": freak, "start_horse": horse,
                    "won": np.tile([1, 0], 150), "strategy": np.where(acro == 2, "a", "b")}, 2)
    assert list(S.pair_labels(run.players)[:6]) == ["AA", "AF", "AH", "FF", "FH", "HH"]
    sec = S.starting_talents(run, 2.0)
    rates = tables(sec)[0].set_index("starting talents")
    assert list(rates.index) == ["AA", "AF", "AH", "FF", "FH", "HH"]
    lo, hi = stats.wilson(50, 50)  # AA always sits in seat 1 of a game and wins
    assert rates.loc["AA", "win rate [95% CI]"] == ci(1.0, float(lo), float(hi))
    adjusted = tables(sec)[1].set_index("group")
    assert "confounded with strategy" in adjusted.loc["AA", "label (adjusted)"]  # only strategy a picks AA
    assert adjusted.loc["HH", "adjusted"] != "not identified"


def test_ct_stat_4_card_plays_per_strategy(runs):
    """CT-STAT-4: plays per card and strategy with intervals; in the basic game the plays add up to 27 a player."""
    run = runs["basic"]
    t = tables(S.action_cards(run))[0].set_index("strategy")
    p = run.players
    total = sum(p[f"card_{c}"].astype(int) for c in CARDS)
    assert (total == 27).all()
    s = t.index[0]
    m = p.loc[p["strategy"] == s, "card_basic_transit"].astype(float)
    assert t.loc[s, "basic transit"].startswith(f"{m.mean():.2f} [")


def test_ct_stat_5_talent_value_adjusted_beside_crude():
    """CT-STAT-5: holding a type is compared with the rest crude and adjusted; a holding that only marks the
    winning strategy (no effect within strategies) is large crude but not large once adjusted."""
    rng = np.random.default_rng(0)
    g = 4000
    strat = np.where(rng.random((g, 2)).argsort(axis=1) == 0, "a", "b")  # one a and one b per game
    a_wins = rng.random(g) < 0.8
    won = np.where(strat == "a", a_wins[:, None], ~a_wins[:, None]).astype(int).ravel()
    horses = np.where(strat.ravel() == "a", rng.random(2 * g) < 0.9, rng.random(2 * g) < 0.1).astype(int) * 2
    run = fake_run({"strategy": strat.ravel(), "won": won, "horses": horses, "hired_horse": horses}, 2)
    sec = S.talent_value(run, 2.0)
    summary, assoc = tables(sec)[:2]
    assert list(summary["talent"]) == [t.replace("_", " ") for t in TALENT_TYPES]
    row = assoc.set_index("group").loc["horse: 2+ held at the end"]
    assert row["minus the rest, crude"].endswith("large")
    assert row["label (adjusted)"] != "large"
    est = float(row["adjusted"].split(" pts")[0])
    assert abs(est) < 3.0
    assert any(isinstance(b, Plot) for b in sec.blocks)


def test_ct_stat_6_money_by_month():
    """CT-STAT-6: money at each month end per strategy, mean with its normal 95% interval, the figure, and the
    share of players who fired talent (Wilson)."""
    n = 40
    money = {f"money_{m}": np.arange(n) + 10 * i for i, m in enumerate(MONTHS)}
    run = fake_run(money | {"fired": np.array([1, 0, 0, 0] * 10), "won": np.array([1, 0] * 20)}, 2)
    sec = S.money_curves(run)
    wide = tables(sec)[0].set_index("strategy")
    x = np.arange(n, dtype=float) + 50
    half = 1.959964 * x.std(ddof=1) / np.sqrt(n)
    assert wide.loc["s", "September"] == ci(x.mean(), x.mean() - half, x.mean() + half, percent=False, digits=1)
    assert any(isinstance(b, Plot) and b.name == "money_curves" for b in sec.blocks)
    fired = tables(sec)[-1]
    rows = run.players.assign(fired_any=(run.players["fired"] > 0).astype(float))
    deff = stats.design_effect(stats.rate_sums(rows, "strategy", "fired_any"),
                               rows.groupby("strategy")["fired_any"].mean())
    lo, hi = stats.wilson(10 / deff, 40 / deff)  # both players of a game are 's': clustered by game
    lo, hi = (float(np.ravel(v)[0]) for v in (lo, hi))
    assert fired.iloc[0]["share who fired talent [95% CI]"] == ci(0.25, lo, hi)


def test_ct_stat_7_sources_deciding_the_winner():
    """CT-STAT-7: the winner's VP from each source minus the runner-up's, per game; VP the sources do not explain
    (advanced costs, the floor) shown as 'other'."""
    run = fake_run({"vp_talent": [10, 4, 0, 6, 2, 2], "vp_best": [7, 7, 4, 0, 9, 1], "vp_points": [0] * 6,
                    "vp_final": [0] * 6, "vp": [17, 11, 4, 6, 11, 0], "rank": [1, 2, 3, 2, 1, 3],
                    "won": [1, 0, 0, 0, 1, 0]}, 3)
    sec = S.vp_sources(run)
    decide = tables(sec)[1].set_index("source")
    assert decide.loc["most talent (month ends)", "winner minus runner-up [95% CI]"].startswith("1.0 [")  # +6 and -4
    assert decide.loc["best performance / April (month ends)", "winner minus runner-up [95% CI]"].startswith("4.5 [")
    assert S.OTHER in decide.index  # player 5: 2 + 1 = 3 VP of sources, 0 VP (floor)


def test_ct_stat_8_performance_profile():
    """CT-STAT-8: performances per player with intervals, and the share of best performances above 100 (Wilson)."""
    best = np.array([120, 50, 30, 101, 100, 10, 200, 20])
    run = fake_run({"best_performance": best, "performances": np.arange(8), "won": [1, 0] * 4}, 2)
    sec = S.performances(run)
    lo, hi = stats.wilson(3, 8)
    assert f"3 of 8 = {ci(3 / 8, float(lo), float(hi))} of players" in texts(sec)
    assert tables(sec)[0].iloc[0]["performances"].startswith("3.5 [")


def test_ct_stat_9_final_score_shape():
    """CT-STAT-9: the share of final VP below 50 (players and winners, Wilson) and of shared wins."""
    run = fake_run({"vp": [60, 40, 30, 30, 49, 50], "won": [1, 0, 1, 1, 1, 0]}, 2)
    sec = S.performances(run)
    lo, hi = stats.wilson(4, 6)
    assert f"4 of 6 = {ci(4 / 6, float(lo), float(hi))} of players" in texts(sec)
    assert "Shared wins" in texts(sec) and "1 of 3 = " in texts(sec)  # game 2: both players share the win


def test_ct_stat_10_steal_success_and_interaction(runs):
    """CT-STAT-10: steal rolls that took a counter (Wilson over all rolls), steals per strategy, and stealers
    against the rest with the adjusted comparison."""
    run = runs["basic"]
    sec = S.interaction(run, 2.0)
    p = run.players
    k, n = int(p["stolen"].sum()), int(p["steal_rolls"].sum())
    lo, hi = stats.wilson(k, n)
    assert f"{k:,} of {n:,} = {ci(k / n, float(lo), float(hi))}" in texts(sec)
    assoc = tables(sec)[1]
    assert list(assoc["group"]) == ["made a catch-up steal", "stole with Overnight Hire", "was robbed"]
    assert {"minus the rest, crude", "adjusted", "label (adjusted)"} <= set(assoc.columns)


def test_ct_stat_11_leader_dynamics():
    """CT-STAT-11: P(win | sole leader after each month) with Wilson intervals; shared leads are left out; lead
    changes count new sole leaders."""
    vp = {f"vp_{m}": [0, 0] * 4 for m in MONTHS}
    vp["vp_april"] = [5, 0, 5, 0, 5, 0, 3, 3]  # seat 1 leads games 0-2, game 3 is tied
    vp["vp_june"] = [5, 9, 5, 0, 5, 0, 3, 3]  # game 0: seat 2 takes the lead
    run = fake_run(vp | {"won": [1, 0, 1, 0, 0, 1, 1, 0]}, 2)
    sec = S.leader_dynamics(run)
    t = tables(sec)[0].set_index("after")
    lo, hi = stats.wilson(2, 3)
    assert t.loc["April", "games with a sole leader"] == "3"
    assert t.loc["April", "P(leader wins) [95% CI]"] == ci(2 / 3, float(lo), float(hi))
    assert t.loc["June", "P(leader wins) [95% CI]"].startswith("33.3%")
    assert "mean 0.25 [" in texts(sec)  # one change in four games


def test_ct_stat_12_board_and_supply():
    """CT-STAT-12: cities replenished per week, the share of games whose bag ran out (Wilson), movement per
    strategy and the share of player-weeks ended in a dead-end city."""
    run = fake_run({"distance": [30, 20, 10, 0], "dead_end_weeks": [27, 0, 0, 0], "points_taken": [1, 0, 0, 0],
                    "won": [1, 0, 1, 0]}, 2,
                   games={"replacements": [54, 27], "quota_short_weeks": [0, 2], "bag_empty_week": [0, 20],
                          "bag_left": [5, 0]})
    sec = S.board_and_supply(run)
    board = tables(sec)[0].set_index("")
    assert board.loc["cities replenished per week", "mean [95% CI]"].startswith("1.50 [")
    lo, hi = stats.wilson(1, 2)
    assert f"1 of 2 = {ci(0.5, float(lo), float(hi), digits=2)}; median week 20." in texts(sec)
    lo, hi = stats.wilson(27, 108)
    assert f"27 of 108 = {ci(0.25, float(lo), float(hi))}" in texts(sec)
    assert "Richmond" in texts(sec)
    assert tables(sec)[1].iloc[0]["steps travelled"].startswith("15.00 [")


def test_ct_stat_13_player_counts_and_solitaire_bands(runs):
    """CT-STAT-13: headline statistics per player count (solitaire included) and the solitaire success-table bands
    per strategy with simultaneous intervals that match analysis.stats.proportion_table."""
    sec = S.player_counts(list(runs.values()))
    t = tables(sec)[0].set_index("run")
    assert sorted(t["players"]) == [1, 4, 4, 4]
    assert t.loc["solo", "VP per player [95% CI]"] == "n/a"  # solitaire scores money, not VP
    solo = runs["solo"]
    sol = S.solitaire(solo)
    bands = tables(sol)[0].set_index("strategy")
    sub = solo.players[solo.players["strategy"] == "miser"]
    expect = stats.proportion_table(sub["solo_band"].map(lambda b: S.SOLO_BANDS[int(b)]), list(S.SOLO_BANDS))
    r = expect.loc["victory"]
    assert bands.loc["miser", "victory"] == ci(r["share"], r["lo"], r["hi"])
    assert any(isinstance(b, Plot) and b.name == "solo_bands" for b in sol.blocks)


def test_ct_stat_14_advanced_against_basic_paired(runs):
    """CT-STAT-14: the advanced section appears for advanced runs only; the advanced run pairs with the basic run of
    the same seed, and each paired difference is the mean of (advanced - basic) over the same games and seats."""
    base, adv = runs["basic"], runs["advanced"]
    names = [s.title for s in S.sections(adv)]
    assert "Advanced game" in names and "Advanced game" not in [s.title for s in S.sections(base)]
    assert S.pairs(list(runs.values())) == [(base, adv)]  # not the hire_fixed run: it differs in more
    sec = S.advanced_vs_basic(base, adv)
    seats = tables(sec)[0]
    pb = base.players[base.players["seat"] == 0]["win_share"].to_numpy()
    pa = adv.players[adv.players["seat"] == 0]["win_share"].to_numpy()
    assert seats.iloc[0]["advanced minus basic [95% CI]"].startswith(f"{100 * (pa - pb).mean():+.1f} pts")
    vp = tables(sec)[2].set_index("source")
    d = adv.players["vp"].astype(float).mean() - base.players["vp"].astype(float).mean()
    assert vp.loc["final VP", "advanced minus basic (VP) [95% CI]"].startswith(f"{d:+.2f} [")
    assert any(isinstance(b, Plot) for b in sec.blocks)


def test_ct_stat_15_special_characters_section():
    """CT-STAT-15: with the Special Characters rule on, owners' win rate against the rest (crude and adjusted)."""
    chars = np.array([1, 0] * 100)
    run = fake_run({"characters": chars, "recruits": chars, "won": [1, 0] * 100}, 2,
                   rules={"special_characters": True})
    secs = {s.title: s for s in S.sections(run)}
    sec = secs["Special Characters (optional rule)"]
    assert tables(sec)[1].iloc[0]["minus the rest, crude"].startswith("+100.0 pts")
    assert "Special Characters (optional rule)" not in [s.title for s in S.sections(fake_run({"vp": [1, 2]}, 2))]


def test_ct_stat_16_strategy_landscape_in_the_report(runs):
    """CT-STAT-16: a Circus Train report ranks the strategies and shows the head-to-head matrix of every pair."""
    secs = {s.title: s for s in build_sections([runs["basic"]])}
    strat = secs["Strategies"]
    assert any(isinstance(b, Plot) and b.name == "head_to_head" for b in strat.blocks)
    ratings = [t for t in tables(strat) if "rating [95% CI]" in t.columns][0]
    assert set(ratings["strategy"]) == set(runs["basic"].players["strategy"].astype(str))


def test_ct_stat_17_sensitivity_to_a_flipped_decision(runs):
    """CT-STAT-17: a run with a flipped CT-AMB flag on the base run's seeds is found as a variant, compared game by
    game, and each headline conclusion is marked as surviving or not."""
    base, var = runs["basic"], runs["hire_fixed"]
    assert S.variants(list(runs.values())) == [(base, var)]
    assert S.rule_differences(base, var) == {"hire_adaptive": (True, False)}
    sec = S.sensitivity(base, var)
    assert "hire_adaptive: True -> False" in sec.title
    concl = tables(sec)[0].set_index("conclusion")
    order_b = concl.loc["strategy ranking (raw win rate)", "base"]
    order_v = concl.loc["strategy ranking (raw win rate)", "variant"]
    assert concl.loc["strategy ranking (raw win rate)", "survives"] == ("yes" if order_b == order_v else "no")
    best = base.players.groupby("strategy", observed=True)["win_share"].mean().idxmax()
    assert concl.loc["best strategy", "base"] == best
    seats = tables(sec)[1]
    pb = base.players[base.players["seat"] == 1]["win_share"].to_numpy()
    pv = var.players[var.players["seat"] == 1]["win_share"].to_numpy()
    assert seats.iloc[1]["variant minus base [95% CI]"].startswith(f"{100 * (pv - pb).mean():+.1f} pts")


def test_reports_name_the_stand_ins(runs):
    """The report lists the stand-ins each run depends on (the reputation column only in the advanced game)."""
    for name, run in runs.items():
        rules = run.manifest["rules"]
        expect = stand_ins_in_use(D, bool(rules.get("advanced")), bool(rules.get("event_cards")))
        sec = S.stand_ins(run)
        assert list(tables(sec)[0]["stand-in in use"]) == list(expect)
    across = tables(S.stand_ins_across(list(runs.values())))[0].set_index("stand-in in use")
    rep = [s for s in across.index if s.startswith("reputation.json")]
    assert rep and across.loc[rep[0], "runs"] == "advanced"


def test_ct_win_2_best_performance_over_100_hand_built():
    """CT-WIN-2 (calibration: best performances often exceed 100): a September PR performed with every asked type
    famous (3+) and five earlier PRs' bases scores above 100; the same PR with one talent and no earlier PRs does
    not."""
    st, d = game(3)
    k = max((i for i in range(len(D.ctr_kind)) if D.ctr_kind[i] == PR and D.ctr_season[i] == 2),
            key=lambda i: int(D.ctr_base[i] + D.ctr_bonus[i].sum()))
    st.own[0] = 0
    st.own[0, int(np.argmax(D.ctr_bonus[k]))] = 1
    low = PF.performance_level(st, d, 0, k, -1)
    st.own[0] = 3
    st.pl[0, PL.n_pr] = 5
    st.pl[0, PL.pr_base] = 5 * 6
    high = PF.performance_level(st, d, 0, k, -1)
    assert low < 100 < high
    assert high == D.ctr_base[k] + 2 * D.ctr_bonus[k].sum() + 30


def test_ct_win_2_calibration_over_games(runs):
    """CT-WIN-2 (calibration over real games): final VP are usually below 50 and best performances above 100 are
    common, as the performance section reports them."""
    run = runs["basic"]
    p = run.players
    assert (p["vp"] < 50).mean() > 0.5
    assert (p.groupby("game_index")["best_performance"].max() > 100).mean() > 0.05
    text = texts(S.performances(run))
    assert "Final VP below 50" in text and "Best performances above 100" in text
