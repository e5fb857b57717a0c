"""Strength ladders: the level list; level-to-level changes as paired differences on synthetic levels with a
known answer; the ladder's power; --until-ci on a real ladder."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from analysis import ladder
from analysis.ladder import (POWER_Z, changes, headline, insert_ladders, ladder_section, ladder_sections,
                             ladder_width, load_ladder, most_played, power, sentences, write_ladder_report)
from analysis.players import base_name
from analysis.sections import Plot, Section, Table
from analysis.verdicts import fdr
from sim.core.errors import PlaytestError
from sim.ladder import LADDER_MANIFEST, level_dir, level_lineup, parse_levels, run_ladder
from tests.conftest import assert_same_tables, read_tables
from tests.test_analysis_synth import _write_part, write_run

POOL = ["trader", "raider", "blocker", "balanced"]
N_GAMES = 4000


def test_levels_parse_sorted_and_refuse_bad_lists():
    assert parse_levels("16,0,4") == [0, 4, 16]
    for text, needle in (("0,x", "whole numbers"), ("4,4", "repeats"), ("-1", "must be 0"), (",", "no strength")):
        with pytest.raises(PlaytestError, match=needle):
            parse_levels(text)
    assert level_lineup(["a", "b"], 0) == ["a", "b"] and level_lineup(["a", "b"], 8) == ["a+mc8", "b+mc8"]


def _edit_level(run_dir, edit) -> None:
    """Rewrite a synthetic level's parts with ``edit(games, players)`` applied (checksums updated)."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    for entry in manifest["parts"]:
        games = pd.read_parquet(run_dir / entry["games"]["file"])
        players = pd.read_parquet(run_dir / entry["players"]["file"])
        edit(games, players)
        entry["games"] = _write_part(run_dir / entry["games"]["file"], games)
        entry["players"] = _write_part(run_dir / entry["players"]["file"], players)
    (run_dir / "manifest.json").write_text(json.dumps(manifest))


def _seat1_wins_every_fifth_game(games: pd.DataFrame, players: pd.DataFrame) -> None:
    """The stronger level: the same games, except that seat 1 wins (alone) every game whose index is a
    multiple of 5, and every game lasts two rounds longer."""
    hit = players["game_index"] % 5 == 0
    players.loc[hit, "won"] = (players.loc[hit, "seat"] == 0).astype(players["won"].dtype)
    players.loc[hit, "win_share"] = players.loc[hit, "won"].astype(float)
    games.loc[games["game_index"] % 5 == 0, "winner_seat"] = 0
    games["rounds"] = games["rounds"] + 2


def _paired_ladder(tmp_path, edit=None):
    """Two levels on the same synthetic games and seats (seat 1 favoured at odds 1.5); ``edit`` plants a
    known change at 16 playouts."""
    for k in (0, 16):
        write_run(level_dir(tmp_path, k), n_players=4, n_games=N_GAMES, strategies=level_lineup(POOL, k),
                  seat_weights=[1.5, 1, 1, 1], seed=3)
    if edit:
        _edit_level(level_dir(tmp_path, 16), edit)
    return tmp_path


def test_a_level_change_is_the_mean_per_game_paired_difference(tmp_path):
    """Known answer: seat 1's change is the mean over games of its win share at 16 playouts less at 0, with the
    standard error of those per-game differences; the length change is exactly +2 rounds."""
    root = _paired_ladder(tmp_path, _seat1_wins_every_fifth_game)
    levels = load_ladder(root)
    found = {c.metric.key: c for c in changes(levels)}
    weak, strong = (lv.analysis.run.players for lv in levels)
    d = (strong[strong.seat == 0]["win_share"].to_numpy() - weak[weak.seat == 0]["win_share"].to_numpy())
    seat1 = found["seat1"].finding
    assert seat1.estimate == pytest.approx(100 * d.mean(), abs=1e-9)
    assert seat1.se == pytest.approx(100 * d.std(ddof=1) / math.sqrt(N_GAMES), rel=1e-3)
    assert seat1.label == "large" and seat1.lo > 0
    assert found["seat1"].paired.sd_paired < found["seat1"].paired.sd_unpaired * 0.6  # pairing bought precision
    rounds = found["rounds"].finding
    assert (rounds.estimate, rounds.lo, rounds.hi, rounds.label) == (pytest.approx(2.0), pytest.approx(2.0),
                                                                    pytest.approx(2.0), "large")
    lines = sentences(changes(levels))
    assert lines[0].startswith("Seat 1's win rate (first player) rises by ") and "paired over the same 4,000" in lines[0]
    assert any(s.startswith("Mean game length in rounds rises by 2.00 rounds") for s in lines), lines
    assert not any("shrinks" in s or "label" in s for s in lines)


def test_unchanged_levels_give_no_sentence_whatever_their_labels(tmp_path):
    """Identical games at both levels: every change is exactly 0 and negligible, so no change is reported,
    though each level's seat labels come from separate estimates."""
    levels = load_ladder(_paired_ladder(tmp_path))
    found = changes(levels)
    assert {c.finding.label for c in found} == {"negligible"} and all(c.finding.estimate == 0 for c in found)
    lines = sentences(found)
    assert len(lines) == 1 and lines[0].startswith("No level-to-level change is resolved")
    assert "No level-to-level change is resolved" in headline(levels)


def test_the_ladder_opens_with_its_power(tmp_path):
    """The power sentence: 2.80 standard errors (80% power at 5% two-sided) of the worst seat estimate and of
    the worst seat change, from the observed variance."""
    levels = load_ladder(_paired_ladder(tmp_path, _seat1_wins_every_fifth_game))
    assert POWER_Z == pytest.approx(sps.norm.ppf(0.975) + sps.norm.ppf(0.8))
    p = power(levels, changes(levels))
    weak, strong = (lv.analysis.run.players for lv in levels)
    worst = max(np.std(strong[strong.seat == s]["win_share"].to_numpy() - weak[weak.seat == s]["win_share"].to_numpy(),
                       ddof=1) for s in range(4))
    assert p.seat_change == pytest.approx(POWER_Z * 100 * worst / math.sqrt(N_GAMES), rel=1e-3)
    assert p.seat_effect == pytest.approx(POWER_Z * max(f.se for lv in levels for f in lv.analysis.seat_findings()))
    section = ladder_section(levels)
    assert section.blocks[1] == p.sentence() and f"At {N_GAMES:,} games per level" in section.blocks[1]
    table = next(b for b in section.blocks if isinstance(b, Table))
    assert {"change [95% CI]", "label", "resolves"} <= set(table.frame.columns)
    assert {"Seat 1's win rate (first player)", "Mean game length in rounds", "trader's win rate"} <= set(table.frame["metric"])


def test_a_ladder_of_many_bases_plots_only_the_most_played(tmp_path, monkeypatch):
    """A population of dozens of members would drown the strategies plot: it draws the PLOTTED_BASES bases that
    fill the most seats, and its caption says so; the table keeps every base."""
    levels = load_ladder(_paired_ladder(tmp_path))
    monkeypatch.setattr(ladder, "PLOTTED_BASES", 2)
    section = ladder_section(levels)
    plot = next(b for b in section.blocks if isinstance(b, Plot) and b.name == "strategies")
    seated = levels[0].analysis.run.players["strategy"].astype(str).map(base_name).value_counts()
    top = sorted(seated.index, key=lambda b: (-seated[b], b))[:2]  # the most seated; ties by name
    assert most_played(levels[0].analysis.run, 2) == top
    assert f"The 2 most played of the {len(POOL)} bases" in plot.caption
    drawn = [t.get_text() for t in plot.figure.axes[0].get_legend().get_texts()]
    assert sorted(t for t in drawn if "threshold" not in t) == sorted(top) and len(drawn) == 3  # and the band
    table = next(b for b in section.blocks if isinstance(b, Table) and "Strategy effect" in b.caption)
    assert set(POOL) <= set(table.frame.columns)


def test_a_base_filling_too_few_seats_gets_no_rows_and_a_sentence_says_so(tmp_path, monkeypatch):
    """A population member drawn a handful of times gave "+66.7 pts [+1.3, +132.0]": a base filling fewer than
    MIN_BASE_GAMES seats gets no change or effect row, and the section names it; one filling exactly that many
    keeps its rows."""
    levels = load_ladder(_paired_ladder(tmp_path))
    seated = levels[0].analysis.run.players["strategy"].astype(str).map(base_name).value_counts()
    rare = min(seated.index, key=lambda b: (seated[b], b))
    monkeypatch.setattr(ladder, "MIN_BASE_GAMES", int(seated[rare]))
    assert f"{rare}'s win rate" in {c.metric.title for c in ladder.changes(levels)}
    monkeypatch.setattr(ladder, "MIN_BASE_GAMES", int(seated[rare]) + 1)
    few = [b for b in seated.index if seated[b] <= seated[rare]]
    titles = {c.metric.title for c in ladder.changes(levels)}
    assert not any(f"{b}'s win rate" in titles for b in few) and "Seat 1's win rate (first player)" in titles
    assert not set(few) & set(ladder.strategy_frame(levels)["strategy"]) if len(few) < len(POOL) else \
        ladder.strategy_frame(levels).empty
    text = " ".join(b for b in ladder_section(levels).blocks if isinstance(b, str))
    assert f"{len(few)} of {len(POOL)} base strategies ({', '.join(b for b in POOL if b in few)}) filled fewer than " \
        f"{int(seated[rare]) + 1} seats each" in text


def test_the_ladder_report_and_its_place_in_a_balance_report(tmp_path):
    root = _paired_ladder(tmp_path / "ladder", _seat1_wins_every_fifth_game)
    path, line = write_ladder_report(root, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert path.is_file() and "Level-to-level changes, paired" in text
    assert line == fdr(lambda: headline(load_ladder(root)))[0]  # labelled at the report's false discovery rate
    assert "holding the false discovery rate at 5%" in text and "would look real by chance" not in text
    assert "± the threshold. Players: the pool " in text  # every figure states the players behind it
    assert "Seat 1's win rate (first player) rises by" in line
    sections = [Section("Balance card"), Section("run: Seats"), Section("run: First player and the start"),
                Section("run: Clock")]
    titles = [s.title for s in insert_ladders(sections, ladder_sections([root]))]
    assert titles[3].startswith("Strength ladder") and titles[2] == "run: First player and the start"


def test_a_directory_without_levels_is_one_clear_error(tmp_path):
    with pytest.raises(PlaytestError, match="no ladder levels"):
        load_ladder(tmp_path)


def test_until_ci_grows_every_level_until_the_widest_change_is_narrow(tmp_path):
    """Sea Trade 2p, levels 0 and 1 playout: a wide target stops at the first step; a narrow one runs to the
    cap, re-running with a larger cap extends it, and the levels hold the games a fixed-size ladder plays."""
    kw = dict(seed=4, jobs=1, progress=False, chunk_size=5, min_games=5)
    note = {"metric": "seat1", "unit": "pts"}
    wide = run_ladder("sea_trade", 2, ["trader"], [0, 1], 15, out=tmp_path / "wide",
                      until=(1000.0, ladder_width("seat1"), note), **kw)
    stop = json.loads((wide / LADDER_MANIFEST).read_text())["until_ci"]
    assert stop["games"] == 5 and stop["reached"] and len(read_tables(level_dir(wide, 1))["games"]) == 5
    narrow = tmp_path / "narrow"
    for cap in (10, 15):
        run_ladder("sea_trade", 2, ["trader"], [0, 1], cap, out=narrow, until=(0.01, ladder_width("seat1"), note), **kw)
        stop = json.loads((narrow / LADDER_MANIFEST).read_text())["until_ci"]
        assert stop["games"] == cap and not stop["reached"]
        assert stop["achieved"] == pytest.approx(ladder_width("seat1")(narrow))
    fixed = run_ladder("sea_trade", 2, ["trader"], [0, 1], 15, out=tmp_path / "fixed", seed=4, jobs=1, progress=False,
                       chunk_size=5)
    for k in (0, 1):
        assert_same_tables(level_dir(narrow, k), level_dir(fixed, k))
    assert "Sequential stopping (--until-ci 0.01 --metric seat1): stopped at 15 games" in ladder_sections([narrow])[0].blocks[2]


def test_a_one_level_ladder_says_it_compares_nothing(tmp_path):
    write_run(level_dir(tmp_path, 4), n_players=4, n_games=500, strategies=level_lineup(POOL, 4), seed=1)
    levels = load_ladder(tmp_path)
    assert sentences(changes(levels)) == ["A ladder of one level compares nothing: add a level (e.g. --playouts 0,4)."]
    assert "compares nothing" in headline(levels) and "level-to-level" not in power(levels, []).sentence()[:80]


def test_a_ladder_under_a_population_draws_the_same_bases_at_every_level(tmp_path, capsys):
    from analysis.load import load_run
    from analysis.players import players_phrase
    from sim.cli import main

    population = tmp_path / "population.json"
    population.write_text(json.dumps({"game": "sea_trade", "players": 2, "strategies": ["trader", "raider", "blocker"],
                                      "weights": [0.6, 0.4, 0.0],
                                      "exploitability": {"points": 4.0, "lo": 2.0, "hi": 6.0, "se": 1.0}}))
    root = tmp_path / "ladder"
    args = ["ladder", "sea_trade", "--players", "2", "--playouts", "0,1", "--games", "10", "--chunk-size", "5",
            "--seed", "3", "--jobs", "1", "--quiet", "--out", str(root)]
    assert main([*args, "--population", str(population)]) == 0
    weak, strong = (load_run(level_dir(root, k)) for k in (0, 1))
    assert weak.manifest["population"]["members"] == ["trader", "raider"]  # the member of weight 0 is left out
    bases = strong.players["strategy"].astype(str).str.replace("+mc1", "", regex=False)
    assert (bases.to_numpy() == weak.players["strategy"].astype(str).to_numpy()).all()
    assert players_phrase(strong.manifest).startswith("rollouts over the hardened population (trader 60%, raider 40%")
    text = (root / "report" / "report.md").read_text()
    assert "Players: hardened population (trader 60%" in text
    assert "Players: the hardened population at 0 playouts, every seat rolling out over its base above." in text
    capsys.readouterr()
    assert main([*args, "--population", str(population), "--base", "trader"]) == 2
    assert "either --base LIST or --population FILE" in capsys.readouterr().err
