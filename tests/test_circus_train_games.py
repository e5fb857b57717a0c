"""Whole Circus Train games on the core's loop: the calendar runs out, the records add up, the styles play as named."""

import numpy as np
import pandas as pd
import pytest

from sim.circus_train import SPEC
from sim.circus_train.rules import Rules

STYLES = ["showman", "collector", "miser", "raider", "random"]


def _frame(rules: Rules, n: int, n_games: int, names: list[str], seed: int = 1) -> pd.DataFrame:
    """One row per (game, seat) with the strategy name, seats drawn at random from ``names``."""
    table = SPEC.strategies.table(names)
    rng = np.random.default_rng(seed)
    seats = np.array([rng.permutation(len(names))[:n] if n <= len(names) else rng.integers(0, len(names), n)
                      for _ in range(n_games)], dtype=np.int64)
    r = SPEC.play_chunk(rules, n, seats, 0, n_games, seed, table)
    cols = [c.name for c in SPEC.player_columns]
    df = pd.DataFrame(r.players.reshape(-1, len(cols)), columns=cols)
    df["strategy"] = [names[i] for i in seats.reshape(-1)]
    for col in ("rounds", "weeks"):
        df[col] = np.repeat(r.games[:, SPEC.game_col(col)], n)
    return df


@pytest.mark.parametrize("changes", [{}, {"advanced": True}, {"special_characters": True, "event_cards": True},
                                     {"simple_variant": True}])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_ct_cal_1_games_last_27_weeks(n, changes):
    """CT-CAL-1, CT-SCORE-FINAL-0: every game, at every player count and variant, plays the 27 weeks and ends
    after September; scores are the VP (money in solitaire, CT-SOLO-2)."""
    df = _frame(Rules(**changes), n, 20, STYLES)
    assert (df["rounds"] == 27).all() and (df["weeks"] == 27).all()
    if n == 1:
        assert (df["score"] == df["money"]).all() and df["solo_band"].between(0, 4).all()
    elif not changes.get("simple_variant"):
        assert (df["score"] == df["vp"]).all() and (df["solo_band"] == -1).all()


def test_ct_vp_sources_add_up():
    """CT-SCORE-MONTH-*, CT-PTS-1, CT-SCORE-FINAL-*: in the basic game every VP comes from most talent, best
    performance, Points counters or final scoring, so the recorded sources add up to the VP."""
    df = _frame(Rules(), 4, 200, STYLES)
    assert (df["vp"] == df["vp_talent"] + df["vp_best"] + df["vp_points"] + df["vp_final"]).all()
    assert (df["vp_best"] > 0).any() and (df["vp_talent"] > 0).any()


def test_ct_card_1_one_card_a_week():
    """CT-CARD-1, CT-SETUP-4, CT-STEAL-2: one card a turn for the 27 weeks (the basic game has no replays or
    Rest); a hand cycles through the deck, so every card but Overnight Hire (a robbed player discards it unplayed)
    is played at least three times."""
    df = _frame(Rules(), 4, 100, STYLES)
    cards = [c for c in df.columns if c.startswith("card_")]
    assert (df[cards].sum(axis=1) == 27).all()
    assert (df["card_rest"] == 0).all()
    assert (df[[c for c in cards if c not in ("card_rest", "card_overnight_hire")]].min(axis=1) >= 3).all()


def test_styles_play_as_named():
    """The four styles do what their names say against each other (400 four-player games): the showman performs
    most and holds the best marker, the miser keeps the most money, the raider steals most, the collector hires
    most and wins most-talent VP; every style beats random."""
    df = _frame(Rules(), 4, 400, STYLES)
    m = df.groupby("strategy").mean(numeric_only=True)
    others = lambda s: m.drop(index=s)  # noqa: E731
    assert m.loc["showman", "performances"] > others("showman")["performances"].max()
    assert m.loc["showman", "best_performance"] > others("showman")["best_performance"].max()
    assert m.loc["miser", "money"] > others("miser")["money"].max()
    assert m.loc["raider", "stolen"] > others("raider")["stolen"].max()
    assert m.loc["collector", "hired"] > others("collector")["hired"].max()
    assert m.loc["collector", "vp_talent"] > others("collector")["vp_talent"].max()
    for style in STYLES[:4]:
        assert m.loc[style, "vp"] > m.loc["random", "vp"]


def test_replay_tells_the_logged_game():
    """The replay text shows each month's scoring: its most-talent and best-performance VP add up to the logged
    VP sources of every seat (CT-SCORE-MONTH-1/2), and the game ends after September."""
    import re

    names = STYLES[:3]
    table = SPEC.strategies.table(names)
    traced = SPEC.trace(Rules(), 3, np.arange(3), 4, 7, table, names)
    text = SPEC.render(traced)
    assert "== End of September ==" in text and "== Game over after September ==" in text
    for s in range(3):
        rows = re.findall(rf"seat {s} \(\w+\): (\d+) VP for most talent, (\d+) for performances", text)
        assert len(rows) == 6
        assert sum(int(a) for a, _ in rows) == traced.players[s, SPEC.player_col("vp_talent")]
        assert sum(int(b) for _, b in rows) == traced.players[s, SPEC.player_col("vp_best")]


def test_ct_turn_1_each_week_from_the_first_player():
    """CT-TURN-1 / CT-MONTH-1: every week each seat takes one turn, clockwise from the first player (who opens the
    week in the core's turn driver); the marker passes one seat at each month end, so the opener changes."""
    from sim.circus_train.engine import EV

    n = 4
    names = STYLES[:n]
    traced = SPEC.trace(Rules(), n, np.arange(n), 2, 9, SPEC.strategies.table(names), names)
    ev = traced.events
    weeks = ev[ev[:, 2] == EV.week]
    assert len(weeks) == 27 and list(weeks[:, 3]) == list(range(1, 28))
    for week, first in zip(weeks[:, 3], weeks[:, 4]):
        turns = ev[(ev[:, 2] == EV.turn) & (ev[:, 0] == week), 1]
        assert list(turns) == [(first + i) % n for i in range(n)], week
    assert len(set(weeks[:, 4].tolist())) > 1


@pytest.mark.parametrize("corrupt, item", [("reserve", "CT-STATE-3.1"), ("money", "CT-STATE-3.5")])
def test_checked_mode_reports_a_broken_invariant(corrupt, item):
    """Checked mode asserts CT-STATE-3 as it plays: a position corrupted mid-game (a talent counter from nowhere,
    negative money) stops the game with the invariant's ID."""
    from sim.core import play as protocol
    from sim.core.state import M
    from sim.circus_train.state import PL

    st, data = SPEC.new_state(Rules(), 3, SPEC.strategies.table(STYLES[:3]))
    assert not protocol.play_until(st, data, 5, 0, np.arange(3), 40)
    st.meta[M.check] = 1
    if corrupt == "reserve":
        st.reserve[0] += 1
    else:
        st.pl[0, PL.money] = -1
    with pytest.raises(AssertionError, match=item):
        protocol.play_rest(st, data)


def test_ct_amb_42_overnight_hire_declined_and_styles_decline_bad_buys():
    """CT-SPH-1 / CT-CARD-7 / CT-AMB-42: a player may decline the Special Hire after Overnight Hire; the card is
    spent all the same. A style that always declines plays Overnight Hire but never buys, steals or hires with it;
    in the default line-up the miser, who refuses a buy that leaves it short of its wages, declines most often."""
    from sim.circus_train.schema import SCHEMA
    from sim.core.policy import Strategy, StrategyRegistry
    from strategies.circus_train import _weights

    shy = Strategy("shy", "declines every Special Hire", weights=_weights(special_hire={"sp_decline": 100.0}))
    table = StrategyRegistry("circus_train", SCHEMA, [shy]).table(["shy"])
    r = SPEC.play_chunk(Rules(), 4, np.zeros((30, 4), np.int64), 0, 30, 3, table)
    cols = [c.name for c in SPEC.player_columns]
    df = pd.DataFrame(r.players.reshape(-1, len(cols)), columns=cols)
    assert df["card_overnight_hire"].sum() > 0 and df["special_declined"].sum() > 0
    assert df["reserve_buys"].sum() == 0 and df["stolen"].sum() == 0
    df = _frame(Rules(), 4, 300, STYLES[:4])
    m = df.groupby("strategy")[["reserve_buys", "special_declined", "card_overnight_hire"]].sum()
    declined = m["special_declined"] / m["card_overnight_hire"]
    assert declined.idxmax() == "miser" and declined["miser"] > 2 * declined.drop(index="miser").max()
    assert m.loc["miser", "reserve_buys"] > 0


def _steps(text: str, seat: int) -> list[int]:
    """The signed changes of one seat on the final-scoring step lines of a replay."""
    import re

    out = []
    for line in text.splitlines():
        if re.match(r"  (most clowns|no clowns|no animals|most money|most performances|highest reputation): ", line):
            for sign, amount in re.findall(rf"seat {seat} \(\w+\) ([+-])\$?(\d+)", line):
                out.append(int(amount) * (1 if sign == "+" else -1))
    return out


def test_ct_score_final_replay_shows_every_step():
    """CT-SCORE-FINAL-1..6 / CT-SOLO-6: the replay shows the final score line by line: the 2-player taxes' -3 VP and
    doubled wages, each final-scoring step with its amount, the solitaire end wages; the amounts add up to the
    logged net change at final scoring (``vp_final``)."""
    import re

    names = STYLES[:2]
    table = SPEC.strategies.table(names)
    taxed = 0
    for index in range(12):
        traced = SPEC.trace(Rules(), 2, np.arange(2), index, 5, table, names)
        text = SPEC.render(traced)
        assert "== Final scoring ==" in text
        for step in ("most clowns", "no clowns", "no animals", "most money", "most performances"):
            assert f"\n  {step}: " in text
        for s in range(2):
            tax = re.findall(rf"taxes: seat {s} \(\w+\) has Wage & Transit in hand: -(\d+) VP", text)
            taxed += len(tax)
            change = sum(_steps(text, s)) - sum(int(x) for x in tax)
            assert change == traced.players[s, SPEC.player_col("vp_final")]
    assert taxed > 0
    traced = SPEC.trace(Rules(), 1, np.arange(1), 0, 5, SPEC.strategies.table(["showman"]), ["showman"])
    text = SPEC.render(traced)
    paid = re.findall(r"end-of-game wages: bill \$(\d+), seat 0 \(\w+\) pays \$(\d+) -> \$(\d+)", text)
    assert len(paid) == 1
    change = sum(_steps(text, 0)) - int(paid[0][1])
    assert change == traced.players[0, SPEC.player_col("vp_final")]
    assert "\n  most clowns: " in text and "\n  most money: " not in text  # CT-AMB-27: solitaire skips most money
