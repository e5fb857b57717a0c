"""The balance card under strong play (`playtest report RUN --strong POPULATION_RUN`): a finding holds when the
difference between the population's estimate and the pool's is shown inside the threshold, and depends on the
players when it is large or flips sign; the difference has its own interval; a --strong run of another game,
player count or rules, or one not made with --population, is refused in one line."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from analysis.load import load_run
from analysis.strong import (DEPENDS, HOLDS, StrongPair, end_rows, exploitability_text, pair_strong, pairing,
                             seat_rows, strong_blocks, summary)
from sim.cli import main
from sim.core.errors import PlaytestError
from tests.test_analysis_synth import make_run, write_run

GAMES = 20_000
POOL = ["balanced", "commuter", "expander", "builder", "clockmaster"]
POPULATION = {"members": ["br5", "br6"], "weights": [0.4, 0.6],
              "exploitability": {"points": 10.4, "lo": 9.7, "hi": 11.1, "se": 0.34, "probe": "a tuned best response"},
              "rollout_probe": {"points": 71.0, "lo": 69.1, "hi": 72.9, "player": "br6+mc4"}}


def _pair(seat_weights_pool, seat_weights_strong, same_seed: bool = False) -> StrongPair:
    """A Bus 4p pool run and a population run with planted seat odds (seat 1 wins w / (w + 3) with weights w,1,1,1)."""
    pool = make_run("bus", 4, GAMES, POOL, seat_weights=seat_weights_pool, seed=11)
    strong = make_run("bus", 4, GAMES, ["br5", "br6"] * 2, seat_weights=seat_weights_strong, seed=12)
    strong.manifest.update(population=POPULATION, seating="mixture", seed=1 if same_seed else 2)
    return StrongPair(pool, strong)


def test_seat_effect_the_same_under_both_holds():
    rows = seat_rows(_pair([1.5, 1, 1, 1], [1.5, 1, 1, 1]), threshold=2.0)
    seat1 = rows[0]
    assert seat1.change.lo < 0 < seat1.change.hi  # the truth (no difference) is inside the interval
    assert seat1.change.label == "negligible" and seat1.verdict == HOLDS
    assert seat1.pool.startswith("+") and seat1.strong.startswith("+")  # 1.5 / 4.5 - 1/4 = +8.3 pts in both


def test_seat_effect_that_shrinks_depends_on_the_players_with_the_planted_difference_inside():
    pair = _pair([2, 1, 1, 1], [1, 1, 1, 1])
    seat1 = seat_rows(pair, threshold=2.0)[0]
    truth = 100 * (1 / 4 - 2 / 5)  # seat 1 wins 2/5 under the pool, 1/4 under the population: -15 pts
    assert seat1.change.lo < truth < seat1.change.hi
    assert seat1.change.label == "large" and seat1.verdict == DEPENDS
    # independent samples: the difference's standard error is the two runs' combined
    se = [100 * np.sqrt(p * (1 - p) / GAMES) for p in (2 / 5, 1 / 4)]
    assert seat1.change.se == pytest.approx(np.hypot(*se), rel=0.05)
    assert "independent samples (seeds 1 and 2)" == pairing(pair)
    text = summary(pair, seat_rows(pair, 2.0))
    assert text == ("**Strong play, 4 players** (hardened population: exploitability +10.4 pts [+9.7, +11.1]; "
                    "rollout probe +71.0): depends on the players: every seat.")
    caption = strong_blocks(pair, "2")[1].caption  # the probes by name, for the card's details
    assert "exploitability +10.4 pts [+9.7, +11.1] by a tuned best response" in caption
    assert "the rollout probe br6+mc4 gains +71.0" in caption


def test_a_sign_flip_depends_on_the_players_even_when_the_difference_is_not_large():
    # seat 1 +1.1 pts under the pool, -1.0 under the population: each inside a 3-pt threshold, opposite signs
    seat1 = seat_rows(_pair([1.06, 1, 1, 1], [0.945, 1, 1, 1]), threshold=3.0)[0]
    assert seat1.pool.startswith("+") and seat1.strong.startswith("-")
    assert seat1.change.label == "small" and seat1.verdict == DEPENDS


def test_end_reasons_compared_and_a_vanished_end_depends_on_the_players():
    pair = _pair([1, 1, 1, 1], [1, 1, 1, 1], same_seed=True)
    games = pair.strong.games
    games["end_reason"] = games["end_reason"].cat.add_categories(["late"])
    games.loc[games["end_reason"] == "time_collapse", "end_reason"] = "late"  # that end never fires any more
    rows = {r.what: r for r in end_rows(pair, threshold=2.0)}
    gone = rows["ends by time_collapse"]
    assert gone.verdict == DEPENDS and gone.strong.startswith("0.0%")
    share = (pair.pool.games["end_reason"] == "time_collapse").mean()
    assert gone.change.lo < -100 * share < gone.change.hi
    assert rows["ends by out_of_actions"].verdict == HOLDS
    assert pairing(pair).startswith("both runs use seed 1")


def test_card_states_the_largest_tuned_gain_when_the_population_was_re_measured():
    """A population re-measured by `playtest exploit` (its file's ``remeasures``): the card and the details
    caption state the largest tuned gain, not the hardening's own, and the caption lists every one."""
    pair = _pair([1, 1, 1, 1], [1, 1, 1, 1])
    again = [{"points": 15.3, "lo": 14.6, "hi": 16.0, "se": 0.35, "probe": "a search on seed 500"},
             {"points": 7.2, "lo": 6.6, "hi": 7.9, "se": 0.33, "probe": "a search on seed 600"}]
    pair.strong.manifest["population"] = {**POPULATION, "remeasures": again}
    assert summary(pair, seat_rows(pair, 2.0)).startswith(
        "**Strong play, 4 players** (hardened population: exploitability +15.3 pts [+14.6, +16.0], the largest of 3 "
        "tuned measurements; rollout probe +71.0)")
    caption = strong_blocks(pair, "2")[1].caption
    assert "exploitability +15.3 pts [+14.6, +16.0] by a search on seed 500 (the largest of 3 tuned measurements: " \
           "+10.4, +15.3, +7.2)" in caption


def test_exploitability_text_without_a_measure():
    assert exploitability_text({"members": ["a"], "weights": [1.0]}) == "population (exploitability not measured)"


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("strong")
    out = {"pool": write_run(root / "pool-4p", "bus", 4, 4000, POOL, seat_weights=[2, 1, 1, 1], seed=3),
           "pool-3p": write_run(root / "pool-3p", "bus", 3, 4000, POOL, seed=4)}
    for name, players, seed in (("pop-4p", 4, 5), ("pop-3p", 3, 6), ("pop-4p-rules", 4, 7)):
        path = write_run(root / name, "bus", players, 4000, ["br5", "br6"] * 2, seed=seed,
                         rules={"round_cap": 300} if name.endswith("rules") else None)
        manifest = json.loads((path / "manifest.json").read_text())
        manifest.update(population=POPULATION, seating="mixture", seed=2)
        (path / "manifest.json").write_text(json.dumps(manifest))
        out[name] = path
    return out


def test_report_with_strong_puts_the_comparison_on_the_card(written, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["report", str(written["pool"]), "--strong", str(written["pop-4p"]), "--out", str(out)]) == 0
    md = (out / "report.md").read_text()
    card = md.split("## ")[1]
    assert "**Strong play, 4 players** (hardened population: exploitability +10.4 pts" in card
    assert "each population's probes are under 'Card details'" in card
    assert "): depends on the players: every seat;" in card  # seat 1 planted at 2/5 in the pool, 1/4 in the other
    assert "population − pool [95% CI]" not in card  # the card stays one screen: the table is in its details
    details = md.split("## Card details")[1].split("\n## ")[0]
    assert "population − pool [95% CI]" in details
    assert load_run(written["pop-4p"]).manifest["population"]["exploitability"]["points"] == 10.4


def test_a_pool_run_older_than_a_rules_field_pairs_with_a_population_run_at_its_default(written, tmp_path):
    old, pop = tmp_path / "pool-older", tmp_path / "pop"
    shutil.copytree(written["pool"], old)
    shutil.copytree(written["pop-4p"], pop)

    def set_rules(run_dir: Path, rules: dict) -> None:
        manifest = json.loads((run_dir / "manifest.json").read_text())
        (run_dir / "manifest.json").write_text(json.dumps({**manifest, "rules": rules}))

    set_rules(old, {"round_cap": 200})  # made before seat2_wins_ties and the other later fields
    set_rules(pop, {**load_run(pop).rules, "seat2_wins_ties": False})
    assert [p.pool.run_dir for p in pair_strong([load_run(old)], [load_run(pop)])] == [old]
    set_rules(pop, {**load_run(pop).rules, "seat2_wins_ties": True})
    with pytest.raises(PlaytestError, match="seat2_wins_ties=False vs True"):
        pair_strong([load_run(old)], [load_run(pop)])


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("playtest: error: ")
    return err[0]


@pytest.mark.parametrize("strong, needle", [("pop-3p", "is bus with 3 players but the report's runs are bus 4p"),
                                            ("pop-4p-rules", "plays other rules than"),
                                            ("pool-3p", "was not made with --population")])
def test_bad_strong_run_is_one_line_exit_2_and_writes_nothing(written, strong, needle, tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["report", str(written["pool"]), "--strong", str(written[strong]), "--out", str(out)]) == 2
    assert needle in _error_line(capsys)
    assert not out.exists()


def test_seats_are_compared_only_where_the_pool_run_can_tell_seat_from_strategy():
    pair = _pair([1, 1, 1, 1], [1, 1, 1, 1])
    pair.pool.manifest["seating"] = "fixed"  # four different strategies, each always in its seat
    sentence, table = strong_blocks(pair, "2")
    assert not table.frame["finding"].str.startswith("Seat").any() and "Seats are left out" in table.caption
    pair.pool.manifest["strategies"] = ["balanced"] * 4  # a mirror match: seats are the only difference
    assert strong_blocks(pair, "2")[1].frame["finding"].str.startswith("Seat").sum() == 4
