"""`playtest harden`: the meta-solver on known games, the empirical meta-game, the stopping rule, determinism,
the population file it writes, and bad input."""

from __future__ import annotations

import json
import multiprocessing
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.harden import _mixtures
from analysis.metagame import payoff_table, solve, values_against
from analysis.players import players_phrase
from sim.cli import main
from analysis.verdicts import Finding
from sim.core.errors import PlaytestError
from sim.exploit import record_measurement
from sim.harden import HardenRun, plan_harden, read_history
from sim.population import Population

# A tiny hardening of three-player Bus: 2 search generations of 17 candidates (83 weights) x 20 games per round.
SMALL = ["harden", "bus", "--players", "3", "--pool", "balanced,commuter", "--search-games", "680", "--block", "20",
         "--final-games", "300", "--meta-games", "300", "--probe-games", "6", "--probe-playouts", "1",
         "--member-games", "50", "--quiet"]
ROUND = 6 * 50 + 680 + 2 * 300 + 300 + 300
"""The most one round costs: up to 6 members measured, the search, its two measuring arms, the best member on
fresh seeds (when no search started from it), the empirical game."""


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("playtest: error: ")
    return err[0]


def test_solver_gives_rock_paper_scissors_the_uniform_mixture_and_drops_a_dominated_strategy():
    """Win shares of a two-player rock-paper-scissors with a fourth strategy every other beats."""
    table = np.array([[.5, 0, 1, .9], [1, .5, 0, .9], [0, 1, .5, .9], [.1, .1, .1, .5]])
    x = solve(table)
    assert np.allclose(x, [1 / 3, 1 / 3, 1 / 3, 0], atol=0.01)
    assert np.allclose(values_against(table, x)[:3], 0.5, atol=0.01)


def test_solver_finds_the_equilibrium_of_a_biased_rock_paper_scissors():
    """Rock beats scissors by 2: the symmetric equilibrium of [[0,-1,2],[1,0,-1],[-2,1,0]] is (1/4, 1/2, 1/4)."""
    gain = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    assert np.allclose(solve(0.5 + gain / 4), [0.25, 0.5, 0.25], atol=0.03)


def test_solver_picks_the_dominant_strategy_of_a_three_player_game():
    """Three players, two strategies: strategy 0 wins more against every profile of the others."""
    table = np.empty((2, 2, 2))
    for a, b, c in np.ndindex(2, 2, 2):
        table[a, b, c] = (0.45 if a == 0 else 0.25) + 0.05 * (b + c)
    assert np.allclose(solve(table), [1, 0])


def _random_meta_game(k: int, n: int, seed: int) -> np.ndarray:
    """A symmetric n-player game over k members: each multiset of members splits one win at random."""
    rng = np.random.default_rng(seed)
    table, split = np.empty((k,) * n), {}
    for profile in np.ndindex(*(k,) * n):
        key = tuple(sorted(profile))
        if key not in split:
            members = sorted(set(key))
            shares = rng.dirichlet([0.3] * len(members))
            split[key] = {m: w / key.count(m) for m, w in zip(members, shares)}
        table[profile] = split[key][profile[0]]
    return table


def test_solver_reaches_an_equilibrium_where_replicator_dynamics_cycles():
    """A four-player meta-game in which the average of projected replicator dynamics leaves a member 4 pts above
    the fair share: the polished solve leaves none above it (every seat's value against a symmetric equilibrium
    is the fair share, 1/4)."""
    table = _random_meta_game(6, 4, seed=8)
    x = solve(table)
    assert x.sum() == pytest.approx(1.0) and (x >= 0).all()
    assert values_against(table, x).max() - 0.25 < 1e-3


def test_payoff_table_is_each_members_mean_against_each_profile_of_the_others():
    """Games of three members in three seats, win shares known per (member, others): the table recovers them,
    symmetric in the other seats, with an unplayed profile pulled to the member's mean."""
    rng = np.random.default_rng(0)
    games = rng.integers(0, 2, size=(3000, 3))  # members 0 and 1 only: member 2 never plays
    strength = np.array([2.0, 1.0])
    share = strength[games] / strength[games].sum(axis=1, keepdims=True)
    players = pd.DataFrame({"game_index": np.repeat(np.arange(len(games)), 3), "seat": np.tile(np.arange(3), len(games)),
                            "strategy": np.array(["a", "b"])[games.ravel()], "win_share": share.ravel()})
    table = payoff_table(players, ["a", "b", "c"])
    assert table.shape == (3, 3, 3)
    assert table[0, 1, 1] == pytest.approx(0.5, abs=0.02)  # a against b, b: 2 / (2 + 1 + 1)
    assert table[1, 0, 1] == pytest.approx(0.25, abs=0.02)
    assert table[1, 0, 1] == table[1, 1, 0]
    assert table[0, 0, 2] == pytest.approx(table[0, 2, 0])
    assert table[2, 0, 0] == pytest.approx(1 / 3)  # no game at all: the fair share


@pytest.fixture(scope="module")
def hardened(tmp_path_factory) -> tuple[Path, Path]:
    """The same small hardening on 1 and on 2 workers, stopped by its budget after two measured rounds."""
    root = tmp_path_factory.mktemp("harden")
    budget = str(300 + 2 * ROUND + 6)
    for jobs in ("1", "2"):
        assert main([*SMALL, "--budget", budget, "--min-effect", "0.1", "--jobs", jobs, "--out",
                     str(root / jobs)]) == 0
    return root / "1", root / "2"


def test_hardening_is_the_same_on_1_and_2_workers(hardened):
    a, b = ((d / "population.json").read_text() for d in hardened)
    assert a == b
    ha, hb = (read_history(d) for d in hardened)
    assert [r["exploitability"] for r in ha["rounds"][1:]] == [r["exploitability"] for r in hb["rounds"][1:]]


def test_budget_stop_writes_the_last_measured_population_and_its_history(hardened, tmp_path, capsys):
    history = read_history(hardened[0])
    assert history["stopped"] == "budget"
    assert [r["round"] for r in history["rounds"]] == [0, 1, 2]
    assert history["rounds"][1]["added"] == "br1" and "added" not in history["rounds"][2]
    assert history["games_spent"] <= history["budget"]
    population = json.loads((hardened[0] / "population.json").read_text())
    assert [s if isinstance(s, str) else s["name"] for s in population["strategies"]] == \
        history["rounds"][2]["members"] == ["balanced", "commuter", "br1"]
    assert sum(population["weights"]) == pytest.approx(1)
    e = population["exploitability"]
    assert e["lo"] <= e["points"] <= e["hi"]
    assert "no best response we found (tuned searches, the members, the rollout probe) gains" in e["statement"]
    assert population["rollout_probe"]["player"].endswith("+mc1")
    for r in history["rounds"][1:]:
        assert r["exploitability"]["lo"] <= r["exploitability"]["points"] <= r["exploitability"]["hi"]
        # the larger of the searched gain and the best member's on fresh seeds: the search's start plays the
        # A/B's first arm, so the member chosen on the member games is judged on other games
        assert r["start"] == max(r["member_gains"], key=lambda m: r["member_gains"][m]["points"])
        assert r["best_member"] == r["start"] and r["best_member_gain"] == r["start_gain"] != \
            r["member_gains"][r["start"]]
        assert r["exploitability"]["points"] == max(r["best_response_gain"]["points"], r["start_gain"]["points"])
        assert r["seconds"] >= 0 and r["games"] > 0
    md = (hardened[0] / "history.md").read_text()
    assert "| round |" in md
    # the estimate is named by what found it: the tuned best response, or the member that gained more
    assert (f"Tuned best response {e['best_response']}: " in md) == e["probe"].startswith("CMA-ES")
    assert (f"The best {e['probe']}: " in md) == e["probe"].startswith("member")
    assert (hardened[0] / "exploitability.png").stat().st_size > 0
    out = tmp_path / "run"  # the file `run --population` accepts
    assert main(["run", "bus", "--players", "3", "--games", "50", "--jobs", "1", "--quiet", "--population",
                 str(hardened[0] / "population.json"), "--out", str(out)]) == 0
    assert json.loads((out / "manifest.json").read_text())["population"]["exploitability"] == e


def test_stopping_rule_stops_when_the_interval_lies_below_min_effect(tmp_path):
    """With --min-effect 99 pts neither the searched best response's interval nor the best member's reaches it:
    one round, stopped as converged, though the budget would pay for more. Every game of it, the rollout probe's
    too, plays the --set rules variant."""
    out = tmp_path / "h"
    assert main([*SMALL, "--budget", str(10 * ROUND), "--min-effect", "99", "--jobs", "1", "--set", "clock_gems_3p=6",
                 "--out", str(out)]) == 0
    manifests = list(out.rglob("manifest.json"))
    assert len(manifests) >= 4  # the empirical game, a member, the search's fresh arms, the probe
    assert all(json.loads(m.read_text())["overrides"] == ["clock_gems_3p=6"] for m in manifests)
    history = read_history(out)
    assert history["overrides"] == ["clock_gems_3p=6"]
    assert history["stopped"] == "converged"
    assert len(history["rounds"]) == 2 and history["rounds"][1]["exploitability"]["hi"] < 99
    assert all(g["hi"] < 99 for g in history["rounds"][1]["members_fresh"].values())
    assert history["games_spent"] < 2 * ROUND


def test_a_best_member_no_search_started_from_is_measured_on_its_own_fresh_seeds(tmp_path, monkeypatch):
    """A member that is not a weights strategy cannot start a search (it starts from zero weights), so when it
    gained most on the member games it plays --final-games fresh games of its own (seed step 0), and that gain,
    not the one on the games that chose it, is the best member's."""
    plan = plan_harden("bus", 3, ["random", "balanced"], 1_000_000, search_games=680, block=20, final_games=200,
                       member_games=50)
    run = HardenRun(plan, tmp_path, 1, False)
    chosen = {"random": _finding(4, 6), "balanced": _finding(-6, -4)}
    monkeypatch.setattr(run, "member_gains", lambda population, round_: chosen)
    (_, found, what), _, member, _ = run.measured_round(Population(("random", "balanced"), (0.5, 0.5)), 1)
    assert what["searches"][0]["start"] == "random" and "start_gain" not in what
    assert what["best_member"] == "random" and list(what["members_fresh"]) == ["random"]
    fresh = tmp_path / "round-01" / "members-fresh" / "random"
    assert json.loads((fresh / "manifest.json").read_text())["seed"] == plan.seed_of(1, 0)
    assert member.estimate != chosen["random"].estimate
    assert what["best_member_gain"]["points"] == round(member.estimate, 3)
    assert run.spent == 680 + 2 * 200 + 200  # the search, its two arms, the fresh games (the members are stubbed)


def test_minutes_stop_a_hardening_before_a_round_would_end_past_them(tmp_path):
    """--minutes: with a budget for many rounds and a time too short for a second, the first round is measured
    and the hardening stops for time (the rollout probe still measures the population), and says so."""
    out = tmp_path / "t"
    assert main([*SMALL, "--budget", str(10 * ROUND), "--min-effect", "0.1", "--minutes", "0.001", "--jobs", "1",
                 "--meta-solver", "hedge", "--out", str(out)]) == 0
    history = read_history(out)
    assert history["stopped"] == "time" and history["minutes"] == 0.001
    assert [r["round"] for r in history["rounds"]] == [0, 1] and "rollout_probe" in history
    assert "another round would have ended past --minutes 0.001" in (out / "history.md").read_text()


def test_fictitious_meta_solver_averages_the_best_responses_and_plays_no_empirical_game(tmp_path):
    """--meta-solver fictitious: after round r the mixture is (r x_r + br_r) / (r + 1), so every best response
    keeps an equal share; no empirical game is played after round 0, and a round costs no meta games."""
    out = tmp_path / "fp"
    assert main([*SMALL, "--budget", str(300 + 3 * (ROUND - 300) + 6), "--min-effect", "0.1", "--jobs", "1",
                 "--meta-solver", "fictitious", "--out", str(out)]) == 0
    history = read_history(out)
    assert history["meta_solver"] == "fictitious"
    rounds = history["rounds"]
    assert len(rounds) >= 4  # round 0 and at least three measured rounds: no round pays for meta games
    for r, (now, nxt) in enumerate(zip(rounds[1:], rounds[2:]), start=1):
        assert now["added"] == now["best_found"]  # the search's, or a member that gained more
        assert now["added"] == (now["best_response"] if now["exploitability_from"] == now["best_response"]
                                else now["best_member"])
        shares = [w * r / (r + 1) for w in now["weights"]]
        if now["added"] in now["members"]:
            assert nxt["members"] == now["members"]
            shares[now["members"].index(now["added"])] += 1 / (r + 1)
        else:
            assert nxt["members"] == [*now["members"], now["added"]]
            shares.append(1 / (r + 1))
        assert nxt["weights"] == pytest.approx(shares)
        assert now["meta_game"]["games"] == 0
    assert [p.parent.name for p in out.glob("round-*/meta")] == ["round-00"]
    assert history["games_spent"] <= history["budget"]
    population = json.loads((out / "population.json").read_text())
    assert population["weights"] == pytest.approx(rounds[-1]["weights"])
    with pytest.raises(PlaytestError, match="--meta-solver 'replicator' is unknown; choose nash, fictitious, forget"):
        plan_harden("bus", 3, ["balanced", "commuter"], 100_000, meta_solver="replicator")


def _finding(lo: float, hi: float) -> Finding:
    return Finding("gain", (lo + hi) / 2, lo, hi, (hi - lo) / 3.92, "", 2.0)


def test_forgetful_play_drops_the_members_that_lose_against_the_mixture_before_averaging(tmp_path):
    """--meta-solver forgetful: a member whose whole interval lies below 0 leaves the mixture (no member of a
    symmetric equilibrium loses against it); one whose interval reaches 0, or that was not measured, stays; the
    newest best response then takes 1/(r + 1) as in fictitious play."""
    plan = plan_harden("bus", 3, ["balanced", "commuter"], 1_000_000, meta_solver="forgetful")
    run = HardenRun(plan, tmp_path, 1, False)
    mix = Population(("balanced", "commuter", "br1", "br2"), (0.1, 0.2, 0.3, 0.4))
    gains = {"balanced": _finding(-9, -1), "commuter": _finding(-3, 0.5), "br1": _finding(-12, -4)}
    nxt, info = run.fictitious(mix, "br3", 3, gains)
    assert info["dropped"] == ["balanced", "br1"]
    assert nxt.members == ("balanced", "commuter", "br1", "br2", "br3")
    assert nxt.weights == pytest.approx([0, 0.75 * 0.2 / 0.6, 0, 0.75 * 0.4 / 0.6, 0.25])
    every = {m: _finding(-9, -1) for m in mix.members}  # a mixture of losers only: nobody is dropped
    assert run.fictitious(mix, "br3", 3, every)[0].weights == pytest.approx([0.075, 0.15, 0.225, 0.3, 0.25])
    plain = HardenRun(replace(plan, meta_solver="fictitious"), tmp_path, 1, False)
    assert plain.fictitious(mix, "br3", 3, gains)[0].weights == pytest.approx([0.075, 0.15, 0.225, 0.3, 0.25])


def test_linear_averaging_weighs_round_r_best_response_r_plus_1(tmp_path):
    """--meta-solver linear: the newest best response takes 2/(r + 2) after round r, so over the rounds round
    0's mixture keeps weight 1 and br_k weight k + 1 (early members, the prey of later best responses, fade);
    fictitious play from the same start keeps them equal."""
    plan = plan_harden("bus", 3, ["balanced", "commuter"], 1_000_000, meta_solver="linear")
    run = HardenRun(plan, tmp_path, 1, False)
    mix = Population(("balanced", "commuter"), (0.25, 0.75))
    for r in range(1, 4):
        mix, info = run.fictitious(mix, f"br{r}", r, {})
    assert info["games"] == 0 and info["solver"].startswith("fictitious play with linear averaging")
    assert mix.members == ("balanced", "commuter", "br1", "br2", "br3")
    assert mix.weights == pytest.approx([0.25 / 10, 0.75 / 10, 2 / 10, 3 / 10, 4 / 10])
    plain = HardenRun(replace(plan, meta_solver="fictitious"), tmp_path, 1, False)
    mix = Population(("balanced", "commuter"), (0.25, 0.75))
    for r in range(1, 4):
        mix = plain.fictitious(mix, f"br{r}", r, {})[0]
    assert mix.weights == pytest.approx([0.25 / 4, 0.75 / 4, 1 / 4, 1 / 4, 1 / 4])
    assert "linear averaging" in _mixtures({"meta_solver": "linear"})


def test_from_population_continues_an_earlier_population_where_its_averaging_left_off(hardened, tmp_path):
    """--from-population: round 0 is the file's mixture as it stands (no empirical game, no games spent), the first
    new best response continues the file's brK numbering, and linear averaging counts the file as K rounds: br2
    takes 2/(2 + 2) of the next mixture, as it would have in the run that made br1. --pool beside it names
    newcomers, at weight 0."""
    start = hardened[0] / "population.json"
    first = json.loads(start.read_text())
    out = tmp_path / "more"
    argv = [*(a for a in SMALL if a not in ("--pool", "balanced,commuter")), "--from-population", str(start),
            "--budget", str(2 * (ROUND - 300) + 6), "--min-effect", "0.1", "--meta-solver", "linear", "--jobs", "1",
            "--out", str(out)]
    assert main(argv) == 0
    history = read_history(out)
    zero, one = history["rounds"][:2]
    assert zero["weights"] == pytest.approx(first["weights"]) and zero["meta_game"] == {"games": 0, "from": str(start)}
    assert not list(out.glob("round-*/meta")) and history["from_population"] == str(start)
    assert one["best_response"] == one["added"] == "br2"
    assert one["next_weights"] == pytest.approx([w / 2 for w in first["weights"]] + [0.5])
    assert f"from the population {start}" in (out / "history.md").read_text()
    joined = plan_harden("bus", 3, ["clockmaster"], 1_000_000, from_population=str(start))
    names = [m if isinstance(m, str) else m["name"] for m in first["strategies"]]
    assert joined.pool == (*names, "clockmaster")
    assert joined.start_weights == pytest.approx([*first["weights"], 0.0])
    with pytest.raises(PlaytestError, match="--pool balanced is already a member"):
        plan_harden("bus", 3, ["balanced"], 100_000, from_population=str(start))
    with pytest.raises(PlaytestError, match="--pool is required"):
        plan_harden("bus", 3, [], 100_000)
    with pytest.raises(PlaytestError, match="was made for 3 players, not 4"):
        plan_harden("bus", 4, [], 100_000, from_population=str(start))


def test_hedge_scales_each_measured_member_by_its_gain_before_the_linear_average(tmp_path):
    """--meta-solver hedge: a member measured to gain 10 pts doubles its weight and one losing 10 pts halves it,
    unmeasured members keep theirs, and the newest best response then takes 2/(r + 2) as in linear averaging; so a
    member that keeps gaining against the average is no longer held to its averaging share."""
    plan = plan_harden("bus", 3, ["balanced", "commuter"], 1_000_000, meta_solver="hedge")
    run = HardenRun(plan, tmp_path, 1, False)
    mix = Population(("balanced", "commuter", "br1"), (0.25, 0.25, 0.5))
    gains = {"balanced": _finding(5, 15), "commuter": _finding(-15, -5)}
    nxt, info = run.fictitious(mix, "br2", 2, gains)
    assert info["factors"] == {"balanced": 2.0, "commuter": 0.5}
    scaled = np.array([0.5, 0.125, 0.5])
    assert nxt.weights == pytest.approx([*(0.5 * scaled / scaled.sum()), 0.5])
    assert run.fictitious(mix, "br2", 2, {})[0].weights == pytest.approx([0.125, 0.125, 0.25, 0.5])
    again = run.fictitious(mix, "br1", 2, {})[0]  # a member that gained more than the search takes the step
    assert again.members == mix.members and again.weights == pytest.approx([0.125, 0.125, 0.75])
    assert "multiplied by 2 ** (gain / 10 pts)" in _mixtures({"meta_solver": "hedge"})


def test_keep_best_writes_the_least_exploitable_round_re_measured_on_fresh_seeds(tmp_path):
    """--keep best: the population written is the round whose exploitability interval reached lowest; when that
    is not the last round it is measured again on the next round's (unused) seeds, and that measurement is the
    exploitability the population states. The budget keeps a measurement back for it."""
    out = tmp_path / "best"
    budget = 300 + 4 * (ROUND - 300) + 6
    assert main([*SMALL, "--budget", str(budget), "--min-effect", "0.1", "--jobs", "1", "--seed", "1",
                 "--meta-solver", "forgetful", "--keep", "best", "--out", str(out)]) == 0
    history = read_history(out)
    assert history["keep"] == "best" and history["games_spent"] <= budget
    measured = [r for r in history["rounds"][1:] if "remeasure_of" not in r]
    assert len(measured) >= 2
    best = min(measured, key=lambda r: r["exploitability"]["hi"])
    population = json.loads((out / "population.json").read_text())
    names = [m if isinstance(m, str) else m["name"] for m in population["strategies"]]
    assert population["weights"] == pytest.approx(best["weights"]) and names == best["members"]
    assert best is not measured[-1]  # on this seed the lowest interval is an earlier round's
    again = history["rounds"][-1]
    assert again["remeasure_of"] == best["round"] and again["round"] == measured[-1]["round"] + 1
    assert again["weights"] == best["weights"] and "added" not in again
    assert again["best_response"] != best["best_response"]  # a fresh search, on fresh seeds
    assert population["exploitability"]["points"] == again["exploitability"]["points"]
    for r in measured[:-1]:
        dropped = r["meta_game"].get("dropped", [])
        assert all(r["member_gains"][m]["hi"] < 0 for m in dropped)
        assert all(w == 0 for m, w in zip(r["next_members"], r["next_weights"]) if m in dropped)
    assert "re-measured" in (out / "history.md").read_text()


def test_confirm_measures_a_passing_mixture_again_on_fresh_seeds_before_stopping(tmp_path):
    """--confirm 1: a round whose intervals pass the rule is followed by another measurement of the same mixture
    (the next round's seeds: a new search); the hardening stops only when that one passes too. At a 99-pt
    threshold every measurement passes, so it stops after exactly two measured rounds of one mixture."""
    out = tmp_path / "confirm"
    assert main([*SMALL, "--budget", "100000", "--min-effect", "99", "--jobs", "1", "--confirm", "1",
                 "--out", str(out)]) == 0
    history = read_history(out)
    assert history["stopped"] == "converged" and history["confirm"] == 1
    first, second = history["rounds"][1:]
    assert first["confirm_next"] and "added" not in first and "confirm_next" not in second
    assert second["weights"] == first["weights"] and second["members"] == first["members"]
    assert second["best_response"] == "br2" != first["best_response"]
    assert "in 2 measurements of the mixture in a row" in (out / "history.md").read_text()
    with pytest.raises(PlaytestError, match="--confirm must be 0 or more"):
        plan_harden("bus", 3, ["balanced", "commuter"], 100_000, confirm=-1)


def test_fixed_scale_searches_keep_softmax_members_mixing_and_say_so(tmp_path):
    """--fixed-scale: a round's search keeps its start's weight norm (the member stays as random as its softmax
    start), and the history calls its gain a fixed-scale search's, not a best response's."""
    from sim.core.spec import get_game

    registry = get_game("bus").strategies
    soft = [{**registry.get(n).__dict__, "name": f"{n}-soft", "temperature": 0.5} for n in ("balanced", "commuter")]
    strategies = tmp_path / "soft.json"
    strategies.write_text(json.dumps(soft))
    out = tmp_path / "fixed"
    argv = [*SMALL, "--pool", "balanced-soft,commuter-soft", "--strategy-file", str(strategies), "--fixed-scale",
            "--budget", "100000", "--min-effect", "99", "--jobs", "1", "--out", str(out)]
    assert main(argv) == 0
    tuned = json.loads((out / "round-01" / "best-response" / "tune.json").read_text())
    start = np.hypot.reduce(tuned["x0"])
    assert tuned["fixed_scale"] and np.hypot.reduce(tuned["x_final"]) == pytest.approx(start, rel=1e-3)
    md = (out / "history.md").read_text()
    assert "no best response we found (fixed-scale searches, the members, the rollout probe) gains" in md
    assert "(--fixed-scale)" in md


def test_searches_measure_a_mixture_with_several_best_responses_and_the_largest_gain_counts(tmp_path):
    """--searches 2: each round tunes a second best response on its own seeds (named brRb, from the next best
    member), the round's estimate is the largest gain, and the rule stops only when every interval lies below
    --min-effect: just above the largest upper end it converges, just below it the budget stops it."""
    budget = str(300 + 6 * 50 + 2 * (680 + 2 * 300) + 300 + 6)  # the empirical game, one round, the probe
    runs = {}
    for name, min_effect in (("above", "99"), ("below", None)):
        if min_effect is None:
            first = read_history(runs["above"])["rounds"][1]
            upper = max([s["hi"] for s in first["searches"]] + [first["best_member_gain"]["hi"]])
            min_effect = f"{upper - 0.01:.3f}"
        runs[name] = tmp_path / name
        assert main([*SMALL, "--budget", budget, "--min-effect", min_effect, "--jobs", "1", "--searches", "2",
                     "--out", str(runs[name])]) == 0
    above, below = (read_history(runs[k]) for k in ("above", "below"))
    assert above["searches"] == 2 and above["stopped"] == "converged" and below["stopped"] == "budget"
    r = above["rounds"][1]
    assert sorted(s["best_response"] for s in r["searches"]) == ["br1", "br1b"]
    assert {s["seed"] for s in r["searches"]} == {above["seed"] + 11, above["seed"] + 16}  # round 1: steps 1 and 6
    assert (runs["above"] / "round-01" / "best-response-b" / "tune.json").exists()
    largest = max(r["searches"], key=lambda s: s["points"])
    assert r["best_response"] == largest["best_response"] and r["best_response_gain"]["points"] == largest["points"]
    assert set(r["members_fresh"]) == {s["start"] for s in r["searches"]}  # each start measured on fresh seeds
    member = max(g["points"] for g in r["members_fresh"].values())
    assert r["best_member_gain"]["points"] == member
    assert r["exploitability"]["points"] == max(largest["points"], member)
    assert below["rounds"][1]["searches"] == r["searches"]  # the same searches: only the rule's threshold moved
    with pytest.raises(PlaytestError, match="--searches must be from 1 to 3"):
        plan_harden("bus", 3, ["balanced", "commuter"], 100_000, searches=0)


@pytest.mark.parametrize("extra, needle", [
    (["--budget", "1000"], "--budget 1,000 games is too small for one round"),
    (["--budget", "100000", "--pool", "balanced,nosuch"], "unknown strategy 'nosuch'"),
    (["--budget", "100000", "--pool", "balanced,balanced"], "lists a strategy twice"),
    (["--budget", "100000", "--pool", "balanced,commuter+mc4"], "is a rollout"),
    (["--budget", "100000", "--search-games", "100"], "best-response search: --search-games 100 games is too small"),
    (["--budget", "100000", "--set", "nosuch=1"], "nosuch"),
    (["--budget", "100000", "--meta-solver", "alpharank"], "--meta-solver"),
    (["--budget", "100000", "--keep", "first"], "--keep"),
    (["--budget", "100000", "--fixed-scale"], "--fixed-scale keeps the randomness of a softmax start"),
])
def test_bad_harden_input_is_one_line_exit_2_and_writes_nothing(extra, needle, tmp_path, capsys):
    out = tmp_path / "h"
    assert main([*SMALL, *extra, "--jobs", "1", "--out", str(out)]) == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


EXPLOIT = ["--search-games", "680", "--block", "20", "--final-games", "300", "--member-games", "50", "--jobs", "1",
           "--quiet"]


def test_exploit_re_measures_a_population_on_a_fresh_seed_and_reports_quote_the_largest(hardened, tmp_path):
    """`playtest exploit --record` adds one round's measurement to the file (a twin run replaces, not adds); the
    report's players phrase states the largest tuned gain and lists every one."""
    path = tmp_path / "population.json"
    path.write_text((hardened[0] / "population.json").read_text())
    for seed, out in (("7", "a"), ("7", "b"), ("8", "c")):
        assert main(["exploit", "bus", "--population", str(path), "--seed", seed, *EXPLOIT, "--record",
                     "--out", str(tmp_path / out)]) == 0
    data = json.loads(path.read_text())
    first, again = data["remeasures"]
    assert [first["seed"], again["seed"]] == [7, 8]
    assert first["best_response"] == "br2"  # br1 is a member: the search takes the next free name
    assert first == {**json.loads((tmp_path / "a" / "exploit.json").read_text())["measurement"]}
    assert first["points"] != again["points"] and first["lo"] <= first["points"] <= first["hi"]
    assert first["points"] == max(first["searched"]["points"], first["best_member_gain"]["points"])
    out = tmp_path / "run"
    assert main(["run", "bus", "--players", "3", "--games", "20", "--jobs", "1", "--quiet", "--population",
                 str(path), "--out", str(out)]) == 0
    phrase = players_phrase(json.loads((out / "manifest.json").read_text()))
    gains = [data["exploitability"]["points"], first["points"], again["points"]]
    assert f"exploitability {max(gains):+.1f} pts" in phrase
    assert f"the largest of 3 tuned measurements: {', '.join(f'{g:+.1f}' for g in gains)}" in phrase


def test_a_search_over_other_weights_is_another_measurement(tmp_path):
    """Re-recording a seed replaces its twin, but not a measurement whose searches tuned other weights (Bus before
    its decisions declared only the features they write: 193 weights, now 83): both stay, and reports quote the
    larger."""
    path = tmp_path / "population.json"
    path.write_text(json.dumps({"strategies": [], "weights": []}))
    sizes = {"seed": 500, "search_games": 1, "measured_on_games": 1, "overrides": [], "n_searches": 3}
    record_measurement(path, {**sizes, "points": 2.9})  # recorded before weights_searched existed
    record_measurement(path, {**sizes, "points": 3.0, "weights_searched": 83})
    record_measurement(path, {**sizes, "points": 3.2, "weights_searched": 83})
    assert [m["points"] for m in json.loads(path.read_text())["remeasures"]] == [2.9, 3.2]


def _record_seeds(path: str, seeds: range, start: float) -> None:
    time.sleep(max(0.0, start - time.time()))  # all together, once every process is up
    for seed in seeds:
        record_measurement(Path(path), {"seed": seed, "search_games": 1, "measured_on_games": 1, "overrides": [],
                                    "n_searches": 1})


def test_probes_recording_at_once_keep_every_record(tmp_path):
    """Probes on several seeds run at the same time and each records into the population file: none loses
    another's measurement (each reads and rewrites the file under one lock)."""
    path = tmp_path / "population.json"
    path.write_text(json.dumps({"strategies": [], "weights": []}))
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        start = time.time() + 3.0
        pool.starmap(_record_seeds, [(str(path), range(k, 300, 3), start) for k in range(3)])
    assert sorted(m["seed"] for m in json.loads(path.read_text())["remeasures"]) == list(range(300))


def test_exploit_with_two_searches_states_the_larger_gain_and_what_found_it(hardened, tmp_path):
    out = tmp_path / "e"
    assert main(["exploit", "bus", "--population", str(hardened[0] / "population.json"), "--seed", "9", *EXPLOIT,
                 "--searches", "2", "--out", str(out)]) == 0
    m = json.loads((out / "exploit.json").read_text())["measurement"]
    assert m["n_searches"] == 2
    assert sorted(s["best_response"] for s in m["searches"]) == ["br2", "br2b"]
    assert m["searched"]["points"] == max(s["points"] for s in m["searches"])
    assert m["points"] == max(m["searched"]["points"], m["best_member_gain"]["points"])
    assert "the largest of 2 CMA-ES best responses searched on seed 9" in m["probe"] or m["probe"].startswith("member")


@pytest.mark.parametrize("args, needle", [
    (["--population", "nosuch.json", "--seed", "1"], "not found"),
    (["--population", "POP", "--seed", "1", "--players", "4"], "made for 3 players"),
    (["--population", "POP", "--seed", "-1"], "--seed must be"),
    (["--population", "POP", "--seed", "1", "--search-games", "100"], "--search-games 100 games is too small"),
])
def test_bad_exploit_input_is_one_line_exit_2_and_writes_nothing(args, needle, hardened, tmp_path, capsys):
    path = tmp_path / "population.json"
    before = (hardened[0] / "population.json").read_text()
    path.write_text(before)
    out = tmp_path / "e"
    argv = ["exploit", "bus", *EXPLOIT, *(str(path) if a == "POP" else a for a in args), "--record", "--out", str(out)]
    assert main(argv) == 2
    assert needle in _error_line(capsys)
    assert not out.exists() and path.read_text() == before
