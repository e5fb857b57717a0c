"""Seat compensation as rules (ST-SEAT-1, BUS-SEAT-1, BUS-SEAT-2) and `playtest balance`: the race, refusals, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.bus import engine as E
from sim.bus.position import Position
from sim.bus.rules import Rules as BusRules
from sim.cli import main
from sim.core.errors import PlaytestError
from sim.sea_trade import SPEC as SEA_TRADE
from sim.sea_trade.rules import Rules as SeaRules
from tests.sea_trade_positions import new_state, setup_game

ST = ["balance", "sea_trade", "--players", "4", "--seed", "5", "--jobs", "1", "--quiet"]


def _error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_sea_trade_seat_gold_adds_to_each_seats_start():
    """ST-SEAT-1 / ST-SETUP-9: seat K starts with start_gold plus seatK_gold; seat 1 gets none."""
    st = new_state(SeaRules(seat2_gold=1, seat3_gold=2, seat4_gold=7), 4)
    setup_game(st, 3, 0)
    assert list(st.gold[:4]) == [10, 11, 12, 17]
    st = new_state(SeaRules(), 4)
    setup_game(st, 3, 0)
    assert list(st.gold[:4]) == [10, 10, 10, 10]


def test_sea_trade_seat_gold_must_leave_the_race_open():
    """ST-SEAT-1 / ST-END-1: a seat starting at win_gold or above is refused in one line."""
    with pytest.raises(PlaytestError, match="seatK_gold"):
        SEA_TRADE.validate(SeaRules(win_gold=20, seat3_gold=10), 4)
    SEA_TRADE.validate(SeaRules(win_gold=21, seat3_gold=10), 4)


def test_bus_seat_points_count_in_the_score_and_a_start_disc_is_lowest():
    """BUS-SEAT-1 / BUS-SCORE-2/3: seat K's starting points add to points - gems; in a tie the start disc, on the
    track since setup, is lowest unless it moved later."""
    pos = Position(4, BusRules(seat2_points=2, seat4_points=4))
    for p, (points, gems, at) in enumerate([(6, 0, 10), (5, 0, 3), (3, 0, 4), (1, 0, 5)]):
        pos.score(p, points, gems, at)
    assert pos.ranking() == ([2, 1, 4, 3], 0)  # seat 2: 5 + 2 = 7; seat 4: 1 + 4 = 5 > 3
    for p, (points, at) in enumerate([(2, 5), (0, 0), (0, 0), (0, 0)]):
        pos.score(p, points, 0, at)
    ranks, tie = pos.ranking()
    assert ranks[:2] == [3, 2] and ranks[3] == 1 and tie == 0  # seat 4 leads on its start alone
    pos = Position(4, BusRules(seat2_points=2))
    for p, (points, at) in enumerate([(2, 5), (0, 0), (0, 0), (0, 0)]):
        pos.score(p, points, 0, at)
    ranks, tie = pos.ranking()
    assert ranks[:2] == [2, 1] and tie == 2  # 2 = 0 + 2: seat 2's disc sat there first


def _tied(rules: BusRules, table) -> tuple[list[int], int]:
    pos = Position(4, rules)
    for p, (points, gems, at) in enumerate(table):
        pos.score(p, points, gems, at)
    return pos.ranking()


def test_bus_seat_tie_priority_wins_an_equal_score_before_gems_and_is_half_a_point():
    """BUS-SEAT-2 / BUS-SCORE-3: a seat that wins ties beats an equal final score before gems (tie-break code 4),
    still loses to one more point, and two such seats fall back to gems; the bots' "I would win alone" reads it."""
    # seat 1: 3 - 1 gem = 2; seat 4: 0 + 2 starting points = 2 with no gem; seats 2 and 3 trail
    table = [(3, 1, 9), (1, 0, 4), (0, 0, 0), (0, 0, 0)]
    assert _tied(BusRules(seat4_points=2), table) == ([1, 3, 4, 2], 1)  # the rulebook: seat 1's gem wins
    with_priority = BusRules(seat4_points=2, seat4_wins_ties=True)
    assert _tied(with_priority, table) == ([2, 3, 4, 1], 4)  # 2 + half a point > 2
    assert _tied(with_priority, [(4, 1, 9), *table[1:]]) == ([1, 3, 4, 2], 0)  # 3 > 2 + half a point
    both = BusRules(seat3_points=3, seat3_wins_ties=True, seat4_points=2, seat4_wins_ties=True)
    ranks, tie = _tied(both, [(3, 1, 9), (1, 0, 4), (0, 1, 0), (0, 0, 0)])  # seats 3 and 4 both at 2 and a half
    assert ranks == [3, 4, 1, 2] and tie == 1  # seat 3's gem
    for rules, alone in ((BusRules(seat4_points=2), True), (with_priority, False)):
        pos = Position(4, rules)
        for p, (points, gems, at) in enumerate([(3, 0, 9), *table[1:]]):
            pos.score(p, points, gems, at)
        assert E.would_win_alone(pos.ks, 0, 1) == alone  # seat 1 at 3 taking the last gem: 2, and the gem tie-break


def test_refusals_are_one_line(capsys, tmp_path):
    """An unknown field, a value or range outside the declared bounds, or a too-small budget: exit 2, one line."""
    out = str(tmp_path / "b")
    for vary, words in (("seat7_gold=1", "unknown rules field"), ("seat2_gold=0..11", "outside 0..10 (ST-SEAT-1"),
                        ("seat2_gold=-1,2", "outside 0..10"), ("seat2_gold=3..1", "lo < hi")):
        assert main([*ST, "--vary", vary, "--budget", "5000", "--out", out]) == 2
        assert words in _error_line(capsys)
    assert main([*ST, "--vary", "seat2_gold=0..5", "--budget", "100", "--out", out]) == 2
    assert "too small" in _error_line(capsys)
    assert not Path(out).exists()


@pytest.fixture(scope="module")
def race(tmp_path_factory) -> Path:
    """Seat 2 at +0, +1 or +10 gold (ST-SEAT-1): +10 hands seat 2 most of the games."""
    out = tmp_path_factory.mktemp("balance") / "st"
    assert main([*ST, "--vary", "seat2_gold=0,1,10", "--budget", "3000", "--out", str(out)]) == 0
    return out


def test_the_unfair_variant_is_dropped_and_the_fairer_ones_are_re_measured(race):
    m = json.loads((race / "balance.json").read_text())
    labels = {v["name"]: v["label"] for v in m["grid"]["variants"]}
    dropped = {labels[k] for r in m["race"] for k in r["dropped"]}
    assert "seat2_gold=10" in dropped and "seat2_gold=0" not in dropped and "seat2_gold=1" not in dropped
    assert [labels[k] for k in m["finalists"]][0] == "seat2_gold=1"
    final = json.loads((race / "final" / "sweep.json").read_text())
    assert final["seed"] == 6 and final["variants"][0]["label"] == "seat2_gold=0"
    text = (race / "balance.md").read_text()
    assert "minus the rules as printed (paired)" in text and "racing saved" in text
    assert "mean game length in rounds" in text and "share of games ending by" in text


def test_resume_plays_nothing_more_and_a_different_search_is_refused(race, capsys):
    parts = sorted(p.stat().st_mtime_ns for p in race.rglob("*.parquet"))
    before = (race / "balance.md").read_text()
    assert main([*ST, "--vary", "seat2_gold=0,1,10", "--budget", "3000", "--out", str(race)]) == 0
    assert sorted(p.stat().st_mtime_ns for p in race.rglob("*.parquet")) == parts
    assert (race / "balance.md").read_text() == before
    capsys.readouterr()
    assert main([*ST, "--vary", "seat2_gold=0,2,10", "--budget", "3000", "--out", str(race)]) == 2
    assert "different balance search" in _error_line(capsys)


def _first_run(race: Path):
    from analysis.load import load_run

    return load_run(race / "race" / json.loads((race / "balance.json").read_text())["grid"]["variants"][0]["dir"])


def test_length_objective_judges_the_mean_against_the_target(race, capsys):
    """--objective length=TARGET: within 5% of the target by equivalence, or confidently beyond it."""
    from analysis.balance import assessor, meets

    run = _first_run(race)
    mean = float(run.games["rounds"].mean())
    assert meets(assessor([f"length={mean}"], "2")(run))
    [far] = assessor([f"length={1.5 * mean}"], "2")(run)
    assert far.fails and not far.meets
    assert main([*ST, "--vary", "seat2_gold=0,1", "--objective", "length=soon", "--budget", "3000"]) == 2
    assert "length=TARGET" in _error_line(capsys)


def test_end_reason_objective_judges_the_share_against_the_target(race, capsys):
    """--objective end:REASON=SHARE: the share of games ending by REASON within --min-effect points of SHARE %."""
    from analysis.balance import assessor, meets

    run = _first_run(race)
    reason = run.games["end_reason"].astype(str).value_counts().index[0]
    share = 100 * float((run.games["end_reason"].astype(str) == reason).mean())
    assert meets(assessor([f"end:{reason}={share}"], "5")(run))
    [far] = assessor([f"end:{reason}={max(0.0, share - 40)}"], "5")(run)
    assert far.fails and not far.meets
    assert main([*ST, "--vary", "seat2_gold=0,1", "--objective", "end:nonsense=50", "--budget", "3000"]) == 2
    assert "unknown end reason" in _error_line(capsys)
    assert main([*ST, "--vary", "seat2_gold=0,1", "--objective", f"end:{reason}=120", "--budget", "3000"]) == 2
    assert "end:REASON=SHARE" in _error_line(capsys)


def test_strategies_objective_is_one_sided_and_objectives_combine_as_constraints(race, capsys):
    """--objective strategies: no strategy above the fair share by more than the threshold (a weak one is no
    failure); several objectives must all be met, and the score is the largest gap in thresholds."""
    from analysis.balance import assessor, meets, score

    run = _first_run(race)
    fair = 100 / 4
    edges = {s: 100 * float(r["win_share"].mean()) - fair for s, r in run.players.groupby(
        run.players["strategy"].astype(str), observed=True)}
    top = max(edges.values())
    [loose] = assessor(["strategies"], str(top + 15))(run)
    assert loose.meets and min(edges.values()) < -1  # a strategy far below the field does not fail it
    [tight] = assessor(["strategies"], "0.5")(run)
    assert tight.fails == (top > 3) and not tight.meets
    mean = float(run.games["rounds"].mean())
    both = assessor(["strategies", f"length={1.5 * mean}"], str(top + 15))(run)
    assert not meets(both) and score(both) == pytest.approx(max(g.worst / g.threshold for g in both))
    assert main([*ST, "--vary", "seat2_gold=0,1", "--objective", "seats", "--objective", "seats",
                 "--budget", "3000"]) == 2
    assert "given twice" in _error_line(capsys)


def test_the_answer_is_an_html_page_and_report_redraws_it(race, tmp_path, capsys):
    """balance writes DIR/report/index.html (the answer, the seat plot, one row per headline metric and the race);
    `playtest report DIR --out OUT` redraws it from the search directory alone."""
    page = (race / "report" / "index.html").read_text()
    assert "Balance search: the answer" in page and "How the search spent its games" in page
    assert "minus the rules as printed, paired" in page and "data:image/png;base64" in page
    assert main(["report", str(race), "--out", str(tmp_path / "page")]) == 0
    assert "Answer:" in capsys.readouterr().out and (tmp_path / "page" / "index.html").is_file()
