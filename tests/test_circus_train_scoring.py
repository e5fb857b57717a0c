"""Circus Train end-of-month scoring, the catch-up steal, final scoring, the winner and solitaire results, with the
rulebook's worked examples. Each test names the rule IDs it checks."""

import numpy as np
import pytest

from sim.circus_train import final as F
from sim.circus_train import roustabout as RB
from sim.circus_train import scoring as S
from sim.circus_train import setup as SU
from sim.circus_train import wages as W
from sim.circus_train.data import ACROBAT, BIG_CAT, CLOWN, ELEPHANT, FREAK, HORSE, PR, WAGE_TRANSIT
from sim.circus_train.rules import Rules
from sim.circus_train.state import GS, PL
from tests.circus_train_positions import copy_position
from tests.test_circus_train_mechanics import D, game


def circus(st, p, **counts):
    st.own[p] = 0
    for name, k in counts.items():
        st.own[p, {"clown": CLOWN, "acrobat": ACROBAT, "freak": FREAK, "horse": HORSE, "big_cat": BIG_CAT,
                   "elephant": ELEPHANT}[name]] = k


def test_ct_score_month_5_barbara_frank_john():
    """CT-SCORE-MONTH-5 (rulebook example), CT-SCORE-MONTH-1: Barbara 4 elephants, 2 acrobats, 2 clowns; Frank 2
    elephants, 2 big cats, 3 clowns; John 1 freak, 2 acrobats, 2 clowns -> Barbara 4, Frank 5, John 0."""
    st, d = game(3)
    circus(st, 0, elephant=4, acrobat=2, clown=2)
    circus(st, 1, elephant=2, big_cat=2, clown=3)
    circus(st, 2, freak=1, acrobat=2, clown=2)
    S.most_talent(st, st.gain)
    assert st.gain.tolist() == [4, 5, 0]


@pytest.mark.parametrize("values, vp", [
    ([110, 90, 80], [7, 4, 2]), ([100, 100, 60], [5, 5, 2]), ([100, 80, 80], [7, 3, 3]),
    ([100, 90, 70, 70, 70], [7, 4, 1, 1, 1]), ([100, 100, 100], [4, 4, 4]), ([100, 100, 100, 100], [3, 3, 3, 3]),
    ([10, 50, 30, 40], [0, 7, 2, 4]), ([60, 60, 10, 10, 5], [5, 5, 1, 1, 0])])
def test_ct_score_month_2_best_performance_ties(values, vp):
    """CT-SCORE-MONTH-2 / CT-AMB-12 (rulebook example: a tie for first shares 7 + 4 = 11 -> 5 each, the next
    player takes 3rd's 2; players tied for 3rd get 1 each)."""
    out = np.zeros(len(values), dtype=np.int64)
    S.best_performance(np.array(values), len(values), Rules().to_array(), out, 7)
    assert out.tolist() == vp


def test_ct_score_month_3_two_players():
    """CT-SCORE-MONTH-3: with two players the higher marker takes 4, the other 0; a tie pays 2 each."""
    ra = Rules().to_array()
    out = np.zeros(2, dtype=np.int64)
    for values, vp in (([30, 12], [4, 0]), ([12, 30], [0, 4]), ([20, 20], [2, 2])):
        S.best_performance(np.array(values), 2, ra, out, 7)
        assert out.tolist() == vp


def test_ct_score_month_4_april_rule():
    """CT-SCORE-MONTH-4 / CT-AMB-11: at the end of April with 3+ players each player owning a PR scores 5 instead
    of any best-performance VP; most talent is scored as usual; from May the places pay again."""
    st, d = game(3)
    circus(st, 0, clown=3)
    circus(st, 1, clown=1)
    circus(st, 2, clown=1)
    st.pl[:, PL.n_pr] = [1, 0, 1]
    st.pl[:, PL.best] = [40, 10, 20]
    S.score_month(st, d, 0)
    assert st.pl[:, PL.vp].tolist() == [3 + 5, 0, 5]
    S.score_month(st, d, 1)
    assert st.pl[:, PL.vp].tolist() == [8 + 3 + 7, 0 + 2, 5 + 4]
    st2, d2 = game(3, april_rule=False)
    st2.pl[:, PL.best] = [40, 10, 20]
    S.score_month(st2, d2, 0)
    assert st2.pl[:, PL.vp].tolist() == [7, 2, 4]
    st3, d3 = game(3, april_keeps_lower_places=True)  # the literal reading: only the 7 is replaced
    st3.pl[:, PL.n_pr] = [1, 0, 1]
    st3.pl[:, PL.best] = [40, 10, 20]
    S.score_month(st3, d3, 0)
    assert st3.pl[:, PL.vp].tolist() == [5, 2, 5 + 4]


def test_ct_opt_simple_1_no_month_scoring():
    """CT-OPT-SIMPLE-1: the simple variant scores no month and no final VP, and has no catch-up steal."""
    st, d = game(3, simple_variant=True)
    circus(st, 0, clown=4)
    st.pl[:, PL.best] = [40, 10, 20]
    S.score_month(st, d, 1)
    F.final_scoring(st, d)
    assert st.pl[:, PL.vp].tolist() == [0, 0, 0] and S.catch_up_thief(st) == -1


def test_ct_month_1_first_player_passes():
    """CT-MONTH-1: the first-player marker passes one seat clockwise at each month end."""
    st, d = game(4)
    st.g[GS.first] = 3
    S.pass_first_player(st)
    assert st.g[GS.first] == 0


def test_ct_catchup_1_fewest_vp_takes_one():
    """CT-CATCHUP-1 / CT-AMB-38: only a sole fewest-VP player may take one talent of any opponent (or decline); a tie
    for the fewest skips; advanced: only from players with reputation not above theirs (CT-ADV-CATCHUP-1)."""
    st, d = game(3)
    st.pl[:, PL.vp] = [4, 2, 2]
    assert S.catch_up_thief(st) == -1
    st.pl[:, PL.vp] = [4, 1, 2]
    assert S.catch_up_thief(st) == 1
    circus(st, 0, elephant=1)
    circus(st, 2, clown=1)
    n = S.catch_up_options(st, d, 1)
    rows = {tuple(int(x) for x in r) for r in st.options[:n, :2]}
    assert rows == {(-1, -1), (0, ELEPHANT), (2, CLOWN)}
    sta, da = game(3, advanced=True)
    circus(sta, 0, elephant=1)
    circus(sta, 2, clown=1)
    sta.pl[:, PL.rep] = [7, 5, 5]
    n = S.catch_up_options(sta, da, 1)
    assert {tuple(int(x) for x in r) for r in sta.options[:n, :2]} == {(-1, -1), (2, CLOWN)}
    assert S.catch_up_thief(game(1)[0]) == -1


def test_ct_score_final_2_to_6_in_order():
    """CT-SCORE-FINAL-2, CT-SCORE-FINAL-3, CT-SCORE-FINAL-4, CT-SCORE-FINAL-5, CT-SCORE-FINAL-6, CT-VP-1, CT-AMB-13,
    CT-AMB-15: most clowns +5 (shared +2 each); no clowns -3; no
    animals -5 per missing type; most money +5 / +2 (needs > $0); most performances +5 / +2; losses stop at 0 in
    the printed order, so a later gain starts from 0."""
    st, d = game(3)
    circus(st, 0, clown=2, horse=1, big_cat=1, elephant=1)
    circus(st, 1, clown=2, horse=1)
    circus(st, 2, acrobat=1)
    st.pl[:, PL.vp] = [10, 10, 4]
    st.pl[:, PL.money] = [30, 5, 30]
    st.pl[:, PL.n_pr] = [3, 1, 0]
    F.final_scoring(st, d)
    # p0: +2 clowns, +2 money, +5 performances; p1: +2 clowns, -10 animals; p2: -3 -> 1, -15 -> 0, +2 money.
    assert st.pl[:, PL.vp].tolist() == [19, 2, 2]
    st2, d2 = game(3)
    st2.own[:] = 0
    st2.own[:, HORSE] = st2.own[:, BIG_CAT] = st2.own[:, ELEPHANT] = 1
    st2.pl[:, PL.vp] = 20
    F.final_scoring(st2, d2)  # no clowns anywhere, $0 everywhere, no PR: only the -3 each (CT-AMB-15)
    assert st2.pl[:, PL.vp].tolist() == [17, 17, 17]


def test_ct_score_final_1_taxes():
    """CT-SCORE-FINAL-1 / CT-AMB-14: with two players, Wage & Transit in hand costs 3 VP and double wages by the wage
    rule; a hand refilled by week 27's last card counts as empty; never with 3+ players."""
    st, d = game(2)
    st.g[GS.week] = 27
    st.hand[:] = 0
    st.hand[0, WAGE_TRANSIT] = 1
    st.hand[1, WAGE_TRANSIT] = 1
    st.pl[1, PL.refill_week] = 26
    assert F.taxed(st, 0) and not F.taxed(st, 1)
    circus(st, 0, clown=1, horse=1)
    st.pl[0, PL.vp] = 5
    st.pl[0, PL.money] = 20
    assert F.taxes_begin(st, d, 0) == W.PAID and st.pl[0, PL.vp] == 2 and st.pl[0, PL.money] == 6
    st.pl[0, PL.money] = 10
    assert F.taxes_begin(st, d, 0) == W.CHOOSE  # $14 bill, $10: the horse ($12 doubled) cannot be kept
    n = W.keep_options(st, d, 0, 2)
    assert [tuple(int(x) for x in st.options[i, :2]) for i in range(n)] == [(W.KEEP, CLOWN)]
    W.keep_apply(st, d, 0, 2, W.KEEP, CLOWN)
    n = W.keep_options(st, d, 0, 2)
    assert [tuple(int(x) for x in st.options[i, :2]) for i in range(n)] == [(W.DONE, -1)]
    assert W.keep_apply(st, d, 0, 2, W.DONE, -1) == 1 and st.pl[0, PL.money] == 8 and st.fired[HORSE] == 1
    stb, db = game(2, taxes_fire=False)
    circus(stb, 0, clown=1, horse=1)
    stb.pl[0, PL.money] = 10
    assert F.taxes_begin(stb, db, 0) == W.PAID and stb.pl[0, PL.money] == 0 and stb.own[0, HORSE] == 1
    assert not F.taxed(game(3)[0], 0)


def test_ct_adv_final_highest_reputation_and_money_level():
    """CT-ADV-FINAL-1, CT-ADV-FINAL-2, CT-SCORE-FINAL-7, CT-AMB-17, CT-AMB-39: highest reputation +5 (shared +2);
    most money only for a
    box whose range reaches 5 (the 'box' reading: index >= 4); an ineligible richest player blocks the award unless
    switched."""
    for level, blocks, expect in (("dice", True, [0, 0, 0]), ("box", True, [5, 0, 0]),
                                  ("dice", False, [0, 5, 0])):
        st, d = game(3, advanced=True, most_money_level=level, most_money_ineligible_blocks=blocks)
        st.own[:] = 0
        st.own[:, CLOWN] = 1
        st.own[:, HORSE] = st.own[:, BIG_CAT] = st.own[:, ELEPHANT] = 1
        st.pl[:, PL.money] = [50, 40, 0]
        st.pl[:, PL.rep] = [4, 6, 7]
        st.pl[:, PL.vp] = 0
        F.most_money(st, d)
        assert st.pl[:, PL.vp].tolist() == expect
    st, d = game(3, advanced=True)
    st.own[:] = 1
    st.pl[:, PL.rep] = [7, 6, 7]
    st.pl[:, PL.vp] = 10
    F.final_scoring(st, d)  # clowns shared +2, reputation shared +2 for seats 0 and 2
    assert st.pl[:, PL.vp].tolist() == [14, 12, 14]


def test_ct_win_1_tie_breaks():
    """CT-WIN-1 / CT-AMB-16: VP, then the Best Performance marker, then money, then PR counters; the simple variant
    ranks by the marker (CT-OPT-SIMPLE-2, CT-AMB-41)."""
    st, d = game(3)
    st.pl[:, PL.vp] = [20, 20, 20]
    st.pl[:, PL.best] = [50, 60, 60]
    st.pl[:, PL.money] = [99, 10, 10]
    st.pl[:, PL.n_pr] = [0, 2, 3]
    keys = np.zeros((3, 4), dtype=np.int64)
    F.ranking_keys(st, keys)
    order = sorted(range(3), key=lambda p: tuple(keys[p]), reverse=True)
    assert order == [2, 1, 0]
    sts, ds = game(3, simple_variant=True)
    sts.pl[:, PL.best] = [70, 60, 60]
    F.ranking_keys(sts, keys)
    assert keys[0, 0] == 70 and keys[0, 1] == sts.pl[0, PL.money]


@pytest.mark.parametrize("money, band", [(99, F.COLLAPSE), (100, F.DEFEAT), (140, F.DEFEAT), (141, F.DRAW),
                                         (180, F.DRAW), (181, F.VICTORY), (220, F.VICTORY), (221, F.INCREDIBLE)])
def test_ct_solo_8_result_bands(money, band):
    """CT-SOLO-8: < $100 collapse, $100-140 defeat, $141-180 draw, $181-220 victory, > $220 incredible success."""
    assert F.solo_band(Rules().to_array(), money) == band


def _solo(money, scoring="rulebook", **counts):
    st, d = game(1, solo_scoring=scoring)
    circus(st, 0, **counts)
    st.pl[0, PL.money] = money
    return st, d


@pytest.mark.parametrize("scoring, expect", [("rulebook", (25, 40, 25, 50)), ("money_only", (0, 40, 10, 0))])
def test_ct_solo_10_worked_scoring(scoring, expect):
    """CT-SOLO-10 (worked test), CT-SCORE-MONTH-6, CT-SOLO-4, CT-SOLO-5, CT-SOLO-6, CT-AMB-26, CT-AMB-27: (a) month
    end with 3 elephants, 2
    clowns, 1 acrobat -> +$25; (b) $40, 1 clown, 1 horse, 3 PRs -> $40; (c) $10, nothing, 2 PRs -> $25; (d) $10
    before September's month end, 2 horses, 1 clown, 1 big cat, 1 elephant, 1 PR -> +$10, end wages $74 -> $0,
    then -> $50. money_only: +$0, $40, $10, $0."""
    st, d = _solo(0, scoring, elephant=3, clown=2, acrobat=1)
    S.score_month(st, d, 5)
    assert st.pl[0, PL.money] == expect[0]
    st, d = _solo(40, scoring, clown=1, horse=1)
    st.pl[0, PL.n_pr] = 3
    F.final_scoring(st, d)
    assert st.pl[0, PL.money] == expect[1]
    st, d = _solo(10, scoring)
    st.pl[0, PL.n_pr] = 2
    F.final_scoring(st, d)
    assert st.pl[0, PL.money] == expect[2]
    st, d = _solo(10, scoring, horse=2, clown=1, big_cat=1, elephant=1)
    st.pl[0, PL.n_pr] = 1
    S.score_month(st, d, 5)
    assert W.wage_bill(st, d, 0, 1) == 74
    W.pay_all_or_nothing_left(st, d, 0, 1)
    F.final_scoring(st, d)
    assert st.pl[0, PL.money] == expect[3] and st.pl[0, PL.vp] == 0


def test_ct_roust_5_last_fill_cannot_change_result():
    """CT-ROUST-5: the board fill after week 27 cannot change the result: final scoring reads circuses, money and
    markers, never the board."""
    st, d = game(4, seed=5)
    SU.setup_board(st, d)
    st.own[:, HORSE] = [0, 1, 2, 3]
    st.pl[:, PL.money] = [5, 0, 7, 7]
    st.g[GS.week] = 26
    for c in range(27):
        if st.city_item[c] >= 0 and D.ctr_kind[st.city_item[c]] == PR:
            RB.clear_city(st, c)
    other = copy_position(st)
    RB.roustabout(other, d)
    assert RB.occupied_count(other) > RB.occupied_count(st)
    F.final_scoring(st, d)
    F.final_scoring(other, d)
    assert (st.pl == other.pl).all()
