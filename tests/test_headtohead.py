"""The head-to-head race of `playtest bench --against`: its ratios and its same-games check."""

import json

import numpy as np
import pytest

from sim.headtohead import format_head_to_head, head_to_head, ratio_summary


def test_ratio_summary_is_the_old_versions_seconds_over_the_new():
    """A version twice as fast takes half the seconds: its ratio is 2, however the repetitions vary."""
    new = np.array([1.0, 2.0, 4.0])
    summary = ratio_summary(new, 2 * new)
    assert summary["median"] == summary["min"] == summary["max"] == pytest.approx(2.0)
    assert summary["lo"] == summary["geo_mean"] == summary["hi"] == pytest.approx(2.0)
    spread = ratio_summary(np.ones(4), np.array([1.0, 1.5, 2.0, 3.0]))
    assert spread["median"] == pytest.approx(1.75) and spread["lo"] < spread["geo_mean"] < spread["hi"]


def test_a_race_against_the_checked_out_commit_plays_the_same_games(tmp_path):
    """HEAD extracted from git plays the same Pig games as this checkout, block by block, in its own process."""
    race = head_to_head("pig", 2, ["HEAD"], games=300, reps=2, cache=tmp_path)
    assert [v["label"] for v in race["versions"]][0] == "this checkout"
    (versus,) = race["against"].values()
    assert versus["same_games"] is True
    assert all(v["games_per_s_median"] > 0 for v in race["versions"])
    assert (tmp_path / race["versions"][1]["commit"] / "sim" / "pig").is_dir()


def test_a_population_races_the_pool_of_a_commit(tmp_path):
    """With a population file, this checkout plays the population's games and HEAD the pool: other games (the
    records differ), each version timed."""
    population = tmp_path / "population.json"
    population.write_text(json.dumps({"game": "pig", "players": 2, "strategies": ["cautious", "hold20"],
                                      "weights": [0.25, 0.75]}))
    race = head_to_head("pig", 2, ["HEAD"], games=300, reps=2, cache=tmp_path / "versions",
                        population=str(population))
    assert race["versions"][0]["label"] == f"this checkout, population {population}"
    (versus,) = race["against"].values()
    assert versus["same_games"] is False
    assert "the commits play the default pool" in format_head_to_head(race)
