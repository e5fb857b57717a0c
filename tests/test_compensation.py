"""The report's compensation section (issue 21 item 10): a static re-scoring, the seat-bonus rules field that
implements it (BUS-SEAT-1 seatK_points with BUS-SEAT-2's half point seatK_wins_ties, ST-SEAT-1 seatK_gold), the
commands that verify it, and the paired
verification when the report holds the run with the bonus."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import pandas as pd

from analysis.card import analyse
from analysis.compensation import compensation_section, seat_fields
from analysis.handicap import rescored_shares
from analysis.load import Run
from sim.bus import SPEC as BUS
from tests.test_analysis_synth import make_run


def _close_run(n_games: int = 6000, seed: int = 3) -> Run:
    """Bus-shaped logs where seat 1 scores 3 points more on average and scores are close (0-29 plus the edge), so a
    points handicap is identified; ranks break score ties by seat."""
    run = make_run("bus", n_players=4, n_games=n_games, strategies=["a", "b", "c", "d"], seed=seed)
    rng = np.random.default_rng(seed)
    score = rng.integers(0, 30, size=(n_games, 4)) + np.array([3, 0, 0, 0])
    return _with_scores(run, score, np.tile(np.arange(4), (n_games, 1)))


def _with_scores(run: Run, score: np.ndarray, tie: np.ndarray, name: str | None = None, rules: dict | None = None) -> Run:
    """``run`` with new final scores (ties broken by ``tie``, lower first), ranks and win shares."""
    order = np.lexsort((tie, -score), axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, score.shape[1] + 1)[None, :].repeat(len(score), 0), axis=1)
    p = run.players.sort_values(["game_index", "seat"]).copy()
    p["score"], p["rank"] = score.ravel(), rank.ravel()
    p["gems"], p["points_reached_at"] = 0, tie.ravel()  # Bus's tie columns (BUS-SCORE-3) agree with ``tie``
    p["won"] = (rank == 1).astype(np.int64).ravel()
    p["win_share"] = p["won"].astype(float)
    manifest = dict(run.manifest, rules={**run.manifest["rules"], **(rules or {})})
    return Run(Path(name) if name else run.run_dir, manifest, run.games, p)


def _text(section) -> str:
    return " ".join(b if isinstance(b, str) else b.frame.to_string() for b in section.blocks)


def test_bus_handicap_names_its_rules_setting_and_the_paired_commands_that_verify_it():
    """BUS-SEAT-1 / BUS-SEAT-2: seat 1's 3-point edge, with every score tie going to seat 1, gives handicaps in half
    points the rules can carry (seatK_points = the whole points, seatK_wins_ties = the half); the section says the
    re-scoring is static and prints the run and report commands on the run's own seed, seats and game count."""
    a = analyse(_close_run())
    assert sorted(f.name for f in seat_fields("bus").values()) == [f"seat{k}_points" for k in range(2, 6)]
    text = _text(compensation_section([a]))
    joint = a.handicap["joint"].tolist()
    assert joint[0] == 0 and all(2 <= j <= 4 and 2 * j == int(2 * j) for j in joint[1:]), joint
    assert any(j % 1 for j in joint), joint  # ties all go to seat 1, so the others need the half point
    sets = " ".join(f"--set seat{k + 1}_points={int(j)}" + (f" --set seat{k + 1}_wins_ties=true" if j % 1 else "")
                    for k, j in enumerate(joint) if k)
    assert "static re-scoring" in text.lower() and "do not react" in text
    assert (f"`playtest run bus --players 4 --seed 1 --strategies a,b,c,d --seating random {sets} --games 6000 "
            f"--out synthetic-bus-4p-compensated` then `playtest report synthetic-bus-4p synthetic-bus-4p-compensated`"
            ) in text


def test_a_race_without_near_ties_is_not_identified_and_points_to_the_balance_search():
    """ST-SEAT-1: in a race (the winner leads by 6 or more in every synthetic Sea Trade game) no handicap is
    identified, so no seatK_gold value is suggested; the section names the search over seat2_gold..seat4_gold."""
    a = analyse(make_run("sea_trade", n_players=4, n_games=3000, seed=4))
    text = _text(compensation_section([a]))
    assert "not identified" in text and "--set seat2_gold" not in text
    assert "`playtest balance sea_trade --players 4 --seed 1" in text
    assert "--vary seat2_gold --vary seat3_gold --vary seat4_gold --budget" in text and "seat5_gold" not in text


def test_verification_pairs_the_run_with_the_bonus_and_measures_how_far_play_reacted():
    """Known answers. A run with seatK_points (and BUS-SEAT-2 half points) whose games are the first run's re-scored by the bonus (nobody plays
    differently) shows every seat's simulated minus predicted win rate exactly 0, negligible; one where seat 1
    also takes 10% of the other games (play reacted) shows seat 1 about +7.5 pts above the prediction, large."""
    base = _close_run()
    a = analyse(base)
    joint = a.handicap["joint"].to_numpy(float)
    p = base.players.sort_values(["game_index", "seat"])
    score, rank = p["score"].to_numpy().reshape(-1, 4), p["rank"].to_numpy().reshape(-1, 4)
    rules = {f"seat{k + 1}_points": int(j) for k, j in enumerate(joint) if k}
    rules.update({f"seat{k + 1}_wins_ties": True for k, j in enumerate(joint) if j % 1})  # BUS-SEAT-2: + 0.5
    static = _with_scores(base, score + joint, rank, "bus-4p-compensated", rules)
    section = compensation_section([a, analyse(static)])
    table = [b for b in section.blocks if not isinstance(b, str)][-1].frame
    gap = table["simulated minus predicted, paired [95% CI]"]
    assert (gap == "+0.0 pts [+0.0, +0.0] negligible").all(), gap
    assert "Verification by simulation: bus-4p-compensated" in _text(section)

    rng = np.random.default_rng(9)
    shifted = (score + joint).copy()
    steal = rng.random(len(score)) < 0.10
    shifted[steal, 0] = shifted[steal].max(axis=1) + 1
    reacted = _with_scores(base, shifted, rank, "bus-4p-compensated", rules)
    table = [b for b in compensation_section([a, analyse(reacted)]).blocks if not isinstance(b, str)][-1].frame
    est = float(table["simulated minus predicted, paired [95% CI]"].iloc[0].split()[0])
    assert 6.0 < est < 9.0 and table["simulated minus predicted, paired [95% CI]"].iloc[0].endswith("large")


def test_a_run_that_differs_by_more_than_the_bonus_is_not_a_verification():
    """Only a run of the same games whose rules differ by the seat fields alone is paired as the verification."""
    base = _close_run(n_games=3000)
    p = base.players.sort_values(["game_index", "seat"])
    other = _with_scores(base, p["score"].to_numpy().reshape(-1, 4), p["rank"].to_numpy().reshape(-1, 4),
                         "bus-4p-other", {"seat2_points": 2, "cubes": 18})
    text = _text(compensation_section([analyse(base), analyse(other)]))
    assert "Verification by simulation" not in text


def test_a_tie_the_bonus_creates_goes_by_the_games_tie_breaks_not_the_old_ranks():
    """BUS-SCORE-3 / BUS-SEAT-1 / BUS-SEAT-2: seat 4's 2 starting points bring its 5 level with seat 1's 7; Bus's tie
    columns (more gems, then the lower disc: seat 4 reached its points first) give seat 4 the game, where the logged
    ranks (seat 1 first on the old scores) would not; half a point more for seat 1 wins it back."""
    players = pd.DataFrame({"game_index": 0, "seat": range(4), "score": [7, 4, 2, 5], "rank": [1, 3, 4, 2],
                            "win_share": [1.0, 0, 0, 0], "gems": 0, "points_reached_at": [16, 20, 5, 10]})
    assert BUS.tie_columns == ("gems", "-points_reached_at")
    offsets = np.array([0, 0, 0, 2.0])
    assert rescored_shares(players, offsets, BUS.tie_columns)[0].tolist() == [0, 0, 0, 1]
    assert rescored_shares(players, offsets)[0].tolist() == [1, 0, 0, 0]  # the logged ranks' guess
    assert rescored_shares(players, offsets + [0.5, 0, 0, 0], BUS.tie_columns)[0].tolist() == [1, 0, 0, 0]
    players["gems"] = [1, 0, 0, 0]  # more gems comes before the disc
    assert rescored_shares(players, offsets, BUS.tie_columns)[0].tolist() == [1, 0, 0, 0]
