"""Circus Train setup, card actions, advanced turn options and Special Characters on hand-built positions.
Each test names the rule IDs it checks."""

import numpy as np

from sim.circus_train import actions as A
from sim.circus_train import advanced as ADV
from sim.circus_train import characters as CH
from sim.circus_train import final as F
from sim.circus_train import hire as H
from sim.circus_train import movement as M
from sim.circus_train import perform as PF
from sim.circus_train import roustabout as RB
from sim.circus_train import setup as SU
from sim.circus_train import special_hire as SH
from sim.circus_train import wages as W
from sim.circus_train.data import (ACROBAT, BASIC, BERTHA, BILL, CHARACTER, CLOWN, EDDIE, FAST, FREAK, HOLD, HORSE,
                                   OVERNIGHT_HIRE, OVERNIGHT_TRANSIT, RAPID, REST, RONALD, SAM, TED, WAGE_TRANSIT)
from sim.circus_train.state import GS, LOC_ASIDE, LOC_BAG, LOC_BOARD, LOC_CHAR_RESERVE, LOC_PLAYER, LOC_REMOVED, PL
from sim.circus_train.roustabout import return_to_bag
from sim.core.rng import seed_game
from sim.core.state import M as META
from tests.test_circus_train_mechanics import CITY, D, counter, force_die, game, put


# ----------------------------------------------------------------------------------------------- setup

def test_ct_setup_1_to_7_supply():
    """CT-SETUP-1, CT-SETUP-2, CT-SETUP-3, CT-SETUP-5, CT-SETUP-6, CT-SETUP-7, CT-COMP-7, CT-COMP-8, CT-AMB-1,
    CT-STATE-1, CT-STATE-2: one clown and $0 each, VP 0, Best Performance 10,
    week 1 of April, reputation on the start box (CT-REP-2); the green counters in the bag (characters only with the
    optional rule), yellow and red set aside; the reserve holds the rest of the 66; a random first player."""
    for chars in (False, True):
        st, d = game(4, special_characters=chars)
        assert st.own[:, CLOWN].tolist() == [1] * 4 and st.own.sum() == 4
        assert (st.pl[:, PL.money] == 0).all() and (st.pl[:, PL.vp] == 0).all() and (st.pl[:, PL.best] == 10).all()
        assert (st.pl[:, PL.rep] == 6).all() and st.g[GS.week] == 0
        in_bag = {D.counter_ids[k] for k in st.bag[: st.g[GS.bag_n]]}
        green = {D.counter_ids[k] for k in range(87) if D.ctr_season[k] == 0
                 and (chars or D.ctr_kind[k] != CHARACTER)}
        assert in_bag == green
        assert all(st.ctr_where[k] == LOC_ASIDE for k in range(87) if D.ctr_season[k] > 0
                   and (chars or D.ctr_kind[k] != CHARACTER))
        assert chars or all(st.ctr_where[k] == LOC_REMOVED for k in range(87) if D.ctr_kind[k] == CHARACTER)
        assert st.reserve.sum() == 66 - 4 and st.dest_n[0] == 24
    firsts = {int(game(4, seed=s)[0].g[GS.first]) for s in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_ct_setup_8_starting_talent_choices():
    """CT-SETUP-8: each player takes 2 of acrobat, freak, horse (the same type twice allowed); a type that ran out
    cannot be chosen."""
    st, d = game(5)
    n = SU.start_talent_options(st, d)
    assert sorted(st.options[:n, 0].tolist()) == [ACROBAT, FREAK, HORSE]
    SU.take_start_talent(st, 0, HORSE)
    SU.take_start_talent(st, 0, HORSE)
    assert st.own[0, HORSE] == 2
    st.reserve[FREAK] = 0
    n = SU.start_talent_options(st, d)
    assert sorted(st.options[:n, 0].tolist()) == [ACROBAT, HORSE] and not SU.start_talent_is_legal(st, d, FREAK)


def test_ct_setup_13_start_cities():
    """CT-SETUP-13: trains start in Winnipeg, Toronto or Montreal, and may share a city."""
    st, d = game(3)
    n = SU.start_city_options(st, d)
    assert sorted(D.city_ids[c] for c in st.options[:n, 0]) == ["montreal", "toronto", "winnipeg"]
    for p in range(3):
        SU.place_train(st, d, p, CITY["montreal"])
    assert (st.pl[:, PL.city] == CITY["montreal"]).all()


# ----------------------------------------------------------------------------------------------- card actions

def _acts(st, d, p, card):
    n = A.action_options(st, d, p, card)
    return sorted(int(x) for x in st.options[:n, 0])


def test_ct_card_actions_by_card():
    """CT-CARD-2, CT-CARD-3, CT-CARD-4, CT-CARD-5, CT-CARD-6, CT-CARD-7, CT-CARD-8, CT-CARD-10, CT-AMB-3, CT-AMB-30:
    on a PR city, Overnight Transit and Hold offer Perform or
    nothing, Basic Transit Perform or its move (never nothing); on a talent city Hire instead; Fast and Rapid
    Transit are movement only; Overnight Hire leads to Special Hire, Wage & Transit to wages; never Perform and
    Hire together."""
    st, d = game(3)
    put(st, "richmond", "G21")
    st.pl[0, PL.city] = CITY["richmond"]
    assert _acts(st, d, 0, OVERNIGHT_TRANSIT) == [A.PERFORM, A.NOTHING] == _acts(st, d, 0, HOLD)
    assert _acts(st, d, 0, BASIC) == [A.PERFORM, A.MOVE]
    assert _acts(st, d, 0, FAST) == [] == _acts(st, d, 0, RAPID)
    assert _acts(st, d, 0, OVERNIGHT_HIRE) == [A.SPECIAL_HIRE] and _acts(st, d, 0, WAGE_TRANSIT) == [A.WAGES]
    st.pl[0, PL.city] = CITY["chicago"]
    st.city_talent[CITY["chicago"], HORSE] = 1
    assert _acts(st, d, 0, HOLD) == [A.HIRE, A.NOTHING] and _acts(st, d, 0, BASIC) == [A.HIRE, A.MOVE]
    st.pl[0, PL.city] = CITY["boston"]
    assert _acts(st, d, 0, BASIC) == [A.MOVE] and _acts(st, d, 0, HOLD) == [A.NOTHING]
    assert A.moves_first(OVERNIGHT_TRANSIT) and not A.moves_first(BASIC) and not A.moves_first(HOLD)
    assert _acts(st, d, 0, REST) == []


def test_ct_two_2_complete_without_moving():
    """CT-TWO-2 / CT-MOVE-4 / CT-AMB-32: the show is completed by a Perform/Hire card played without leaving:
    Overnight Transit with 0 steps keeps it (and offers Perform); any step away cancels it."""
    st, d = game(3)
    k = next(i for i in range(87) if D.ctr_two_week[i])
    c = CITY["pittsburgh"]
    st.city_item[c] = k
    st.pl[0, PL.city] = c
    PF.perform(st, d, 0, -1)
    st.g[GS.week] = 1
    M.arrive(st, d, 0, c, False)
    assert st.pl[0, PL.show] == k and A.PERFORM in _acts(st, d, 0, OVERNIGHT_TRANSIT)
    M.arrive(st, d, 0, CITY["columbus"], True)
    assert st.pl[0, PL.show] == -1


def test_ct_hire_4_5_group_empties_no_limit():
    """CT-HIRE-4 / CT-HIRE-5 / CT-AMB-3: hiring the last counter leaves the city unoccupied; a circus holds any
    number of talents; the card's Hire is then spent (no Perform in the same action)."""
    st, d = game(3, hire_success_max=6)
    c = CITY["chicago"]
    st.reserve[CLOWN] -= 1
    st.city_talent[c, CLOWN] = 1
    st.pl[0, PL.city] = c
    st.own[0, HORSE] = 40
    H.hire_begin(st)
    H.hire_apply(st, d, 0, H.ADD, CLOWN)
    H.hire_apply(st, d, 0, H.GO, -1)
    H.hire_apply(st, d, 0, H.ROLL_ONE, CLOWN)
    assert H.hire_over(st) and not RB.is_occupied(st, c) and st.own[0, CLOWN] == 2


# ----------------------------------------------------------------------------------------------- advanced game

def _turns(st, d, p):
    n = ADV.turn_options(st, d, p)
    return {(int(a), int(b)) for a, b in st.options[:n, :2]}


def test_ct_adv_turn_1_options():
    """CT-ADV-TURN-1 / CT-ADV-REPLAY-1 / CT-ADV-POCKET-1 / CT-AMB-19: a card from hand, a replay of any discarded card
    (2 reputation steps in April-July), or pocketing k x $5 for 1 <= k <= the steps above the bottom box; the
    basic game offers only cards from hand."""
    st, d = game(3, advanced=True)
    st.g[GS.week] = 3
    CA_play = ADV.apply_turn_option(st, d, 0, ADV.PLAY, FAST)
    assert CA_play == FAST
    opts = _turns(st, d, 0)
    assert (ADV.REPLAY, FAST) in opts and {k for kind, k in opts if kind == ADV.POCKET} == set(range(1, 7))
    assert ADV.apply_turn_option(st, d, 0, ADV.REPLAY, FAST) == FAST
    assert st.pl[0, PL.rep] == 4 and st.disc[0, FAST] == 1 and st.hand[0].sum() == 8
    ADV.apply_turn_option(st, d, 0, ADV.POCKET, 3)
    assert st.pl[0, PL.money] == 15 and st.pl[0, PL.rep] == 1
    opts = _turns(st, d, 0)
    assert (ADV.REPLAY, FAST) not in opts and {k for kind, k in opts if kind == ADV.POCKET} == {1}
    st.pl[0, PL.rep] = 0
    assert not any(kind == ADV.POCKET for kind, k in _turns(st, d, 0))
    stb, db = game(3)
    stb.disc[0, FAST], stb.hand[0, FAST] = 1, 0
    assert {kind for kind, k in _turns(stb, db, 0)} == {ADV.PLAY}


def test_ct_amb_18_late_replay_costs_vp():
    """CT-ADV-REPLAY-1 / CT-AMB-18 / CT-REP-3: in August-September a replay costs 4 VP instead, allowed below 4 VP
    (clamped at 0), even at the bottom reputation box; pocketing is not allowed then."""
    st, d = game(3, advanced=True)
    st.g[GS.week] = 20
    st.hand[0, HOLD], st.disc[0, HOLD] = 0, 1
    st.pl[0, PL.rep] = 0
    st.pl[0, PL.vp] = 3
    opts = _turns(st, d, 0)
    assert (ADV.REPLAY, HOLD) in opts and not any(kind == ADV.POCKET for kind, k in opts)
    ADV.apply_turn_option(st, d, 0, ADV.REPLAY, HOLD)
    assert st.pl[0, PL.vp] == 0 and st.pl[0, PL.rep] == 0


def test_ct_solo_7_and_9_advanced_solitaire_replay():
    """CT-SOLO-7 / CT-SOLO-9 (worked test): advanced solitaire replay costs $20 and 2 reputation steps in every
    month: $35 at index 6 -> $15 at index 4; not with $19, nor at index 1; no pocketing in solitaire."""
    st, d = game(1, advanced=True)
    st.hand[0, HOLD], st.disc[0, HOLD] = 0, 1
    for week in (2, 20):
        st.g[GS.week] = week
        st.pl[0, PL.money] = 35
        st.pl[0, PL.rep] = 6
        assert (ADV.REPLAY, HOLD) in _turns(st, d, 0)
        assert not any(kind == ADV.POCKET for kind, k in _turns(st, d, 0))
        ADV.apply_turn_option(st, d, 0, ADV.REPLAY, HOLD)
        assert st.pl[0, PL.money] == 15 and st.pl[0, PL.rep] == 4
    st.pl[0, PL.money] = 19
    assert (ADV.REPLAY, HOLD) not in _turns(st, d, 0)
    st.pl[0, PL.money] = 50
    st.pl[0, PL.rep] = 1
    assert (ADV.REPLAY, HOLD) not in _turns(st, d, 0)


def test_ct_adv_rest_1_canada():
    """CT-ADV-REST-1 / CT-REP-3: Rest in a Canadian city offers a free clown, a free acrobat or +1 reputation step
    (no effect at the top box); elsewhere nothing."""
    st, d = game(3, advanced=True)
    st.pl[0, PL.city] = CITY["winnipeg"]
    n = ADV.rest_options(st, d, 0)
    assert sorted(st.options[:n, 0].tolist()) == [ADV.REST_CLOWN, ADV.REST_ACROBAT, ADV.REST_REPUTATION]
    ADV.rest_apply(st, d, 0, ADV.REST_ACROBAT)
    assert st.own[0, ACROBAT] == 1
    st.pl[0, PL.rep] = 7
    ADV.rest_apply(st, d, 0, ADV.REST_REPUTATION)
    assert st.pl[0, PL.rep] == 7
    st.pl[0, PL.city] = CITY["chicago"]
    assert ADV.rest_options(st, d, 0) == 0
    stb, db = game(3)
    stb.pl[0, PL.city] = CITY["winnipeg"]
    assert ADV.rest_options(stb, db, 0) == 0


def test_ct_adv_parade_1():
    """CT-ADV-PARADE-1: Basic Transit may parade for $10 (not with less): +1 reputation step or +2 VP."""
    st, d = game(3, advanced=True)
    st.pl[0, PL.city] = CITY["boston"]
    st.pl[0, PL.money] = 9
    assert A.PARADE not in _acts(st, d, 0, BASIC)
    st.pl[0, PL.money] = 20
    assert A.PARADE in _acts(st, d, 0, BASIC) and A.PARADE not in _acts(st, d, 0, HOLD)
    ADV.parade(st, d, 0, False)
    ADV.parade(st, d, 0, True)
    assert st.pl[0, PL.vp] == 2 and st.pl[0, PL.rep] == 7 and st.pl[0, PL.money] == 0


# ----------------------------------------------------------------------------------------------- special characters

def _owns(st, p, ch):
    st.ctr_owner[D.char_counter[ch]] = p
    st.ctr_where[D.char_counter[ch]] = LOC_PLAYER


def test_ct_opt_char_1_2_bags_and_pairing():
    """CT-OPT-CHAR-1 / CT-OPT-CHAR-2 / CT-REPL-5: Bill, Ronald, Sam, Eddie are green, Bertha and Ted yellow; a drawn
    character is placed with a second counter for the same city; a second character goes back into the bag and
    stands alone."""
    assert [int(D.ctr_season[D.char_counter[ch]]) for ch in range(6)] == [0, 0, 0, 0, 1, 1]
    st, d = game(3, special_characters=True)
    c = CITY["albany"]
    bill, ron, pr = D.char_counter[BILL], D.char_counter[RONALD], counter("G01")
    paired = 0
    for s in range(30):
        RB.clear_city(st, c)
        st.city_item[c] = -1
        st.bag[:2] = [bill, pr]
        st.g[GS.bag_n] = 2
        st.ctr_where[[bill, pr]] = LOC_BAG
        seed_game(st.rng, 3, s)
        RB.place_on_city(st, d, c)
        assert st.city_item[c] == pr
        if st.city_char[c] == bill:  # drawn first: paired with the next counter
            paired += 1
            assert st.g[GS.bag_n] == 0
        else:  # the PR came first and stays alone; Bill waits in the bag
            assert st.g[GS.bag_n] == 1 and st.bag[0] == bill
    assert 0 < paired < 30
    st.city_item[c] = -1
    st.ctr_where[pr] = LOC_REMOVED
    RB.clear_city(st, c)
    st.bag[:2] = [bill, ron]
    st.g[GS.bag_n] = 2
    st.ctr_where[[bill, ron]] = LOC_BAG
    RB.place_on_city(st, d, c)
    assert st.city_char[c] in (bill, ron) and st.g[GS.bag_n] == 1 and st.ctr_where[st.bag[0]] == LOC_BAG


def test_ct_opt_char_3_lone_character_retires():
    """CT-OPT-CHAR-3 / CT-TURN-3 / CT-AMB-9: a character alone on a city goes to the reserve at the end of a turn;
    a lone character does not make its city occupied (switch: it does)."""
    for occupies in (False, True):
        st, d = game(3, special_characters=True, lone_character_occupies=occupies)
        c = CITY["albany"]
        k = D.char_counter[SAM]
        st.city_char[c] = k
        st.ctr_where[k] = LOC_BOARD
        assert RB.is_occupied(st, c) == occupies
        RB.retire_lone_characters(st)
        assert st.city_char[c] == -1 and st.ctr_where[k] == LOC_CHAR_RESERVE


def test_ct_opt_char_4_recruit_on_arrival():
    """CT-OPT-CHAR-4 / CT-OPT-CHAR-12: ending a movement of at least one step on a character's city allows one roll,
    1-4 recruits; staying put does not; green characters only in April-May."""
    st, d = game(3, special_characters=True)
    c = CITY["albany"]
    k = D.char_counter[RONALD]
    st.city_char[c] = k
    st.ctr_where[k] = LOC_BOARD
    st.pl[0, PL.city] = c
    assert not CH.can_recruit(st, d, 0, False) and CH.can_recruit(st, d, 0, True)
    force_die(st, (5,))
    CH.recruit(st, d, 0)
    assert st.city_char[c] == k
    force_die(st, (4,))
    CH.recruit(st, d, 0)
    assert st.ctr_owner[k] == 0 and st.city_char[c] == -1
    k2 = D.char_counter[SAM]
    st.city_char[c] = k2
    st.g[GS.week] = 9  # June
    assert not CH.can_recruit(st, d, 0, True)


def test_ct_opt_char_12_green_characters_leave_at_end_of_may():
    """CT-OPT-CHAR-12 / CT-SEASON-1 / CT-AMB-24 / CT-AMB-40: at the end of May a green character on the board and the
    undrawn ones go to the special-character reserve; in August a character nobody owns can be bought for $20 from
    the reserve or the board (CT-OPT-CHAR-5); an owned one cannot."""
    st, d = game(3, special_characters=True)
    c = CITY["albany"]
    k = D.char_counter[EDDIE]
    st.city_char[c] = k
    st.ctr_where[k] = LOC_BOARD
    st.g[GS.bag_n] = 0
    for ch in (BILL, SAM):
        return_to_bag(st, D.char_counter[ch])
    st.g[GS.week] = 9
    RB.change_season(st, d)
    assert st.city_char[c] == -1 and st.ctr_where[k] == LOC_CHAR_RESERVE
    assert st.ctr_where[D.char_counter[BILL]] == LOC_CHAR_RESERVE == st.ctr_where[D.char_counter[SAM]]
    st.g[GS.week] = 20
    st.pl[0, PL.money] = 20
    bertha = D.char_counter[BERTHA]
    st.city_char[CITY["boston"]] = bertha
    st.ctr_where[bertha] = LOC_BOARD
    _owns(st, 1, TED)
    n = SH.special_hire_options(st, d, 0)
    buyable = {int(b) for a, b in st.options[:n, :2] if a == SH.BUY_CHARACTER}
    assert EDDIE in buyable and BERTHA in buyable and TED not in buyable
    SH.buy(st, d, 0, SH.BUY_CHARACTER, BERTHA)
    assert st.ctr_owner[bertha] == 0 and st.city_char[CITY["boston"]] == -1 and st.pl[0, PL.money] == 0
    st.g[GS.week] = 12
    st.pl[0, PL.money] = 20
    n = SH.special_hire_options(st, d, 0)
    assert not any(st.options[i, 0] == SH.BUY_CHARACTER for i in range(n))


def test_ct_opt_char_7_10_11_ronald_bertha_ted():
    """CT-OPT-CHAR-7 / CT-OPT-CHAR-10 / CT-OPT-CHAR-11: Ronald makes owned clowns or acrobats famous for one
    performance; Bertha adds 10 to every performance; Ted takes $1 off each elephant's wage."""
    st, d = game(3, special_characters=True)
    k = counter("G01")  # clowns 5, acrobats 5
    st.own[0] = 0
    st.own[0, CLOWN] = 1
    st.own[0, ACROBAT] = 1
    base = D.ctr_base[k]
    assert PF.performance_level(st, d, 0, k, CLOWN) == base + 10  # no Ronald: not famous
    _owns(st, 0, RONALD)
    n = CH.ronald_options(st, d, 0)
    assert sorted(st.options[:n, 0].tolist()) == [-1, CLOWN, ACROBAT]
    assert PF.performance_level(st, d, 0, k, CLOWN) == base + 15
    _owns(st, 0, BERTHA)
    assert PF.performance_level(st, d, 0, k, -1) == base + 20
    st.own[1] = 0
    st.own[1, 6] = 3
    _owns(st, 1, TED)
    assert W.wage_bill(st, d, 1, 1) == 33


def test_ct_opt_char_8_smuggler_sam():
    """CT-OPT-CHAR-8: Sam takes one declared talent without a roll, then goes to the reserve; advanced: or +1
    reputation step instead."""
    st, d = game(3, special_characters=True, advanced=True)
    c = CITY["chicago"]
    st.reserve[HORSE] -= 1
    st.city_talent[c, HORSE] = 1
    st.pl[0, PL.city] = c
    st.pl[0, PL.rep] = 4
    _owns(st, 0, SAM)
    H.hire_begin(st)
    H.hire_apply(st, d, 0, H.ADD, HORSE)
    H.hire_apply(st, d, 0, H.GO, -1)
    n = H.hire_options(st, d, 0)
    listed = {(int(a), int(b)) for a, b in st.options[:n, :2]}
    assert listed == {(H.ROLL_ONE, HORSE), (H.SAM_TAKE, HORSE), (H.SAM_REP, -1)}
    H.hire_apply(st, d, 0, H.SAM_TAKE, HORSE)
    assert st.own[0, HORSE] == 1 and st.ctr_where[D.char_counter[SAM]] == LOC_CHAR_RESERVE and H.hire_over(st)


def test_ct_opt_char_9_engineer_eddie():
    """CT-OPT-CHAR-9: Eddie replays a discarded card at no cost, once, in the basic game too; then he goes to the
    reserve and the card stays discarded."""
    st, d = game(3, special_characters=True)
    st.hand[0, HOLD], st.disc[0, HOLD] = 0, 1
    assert (ADV.EDDIE_REPLAY, HOLD) not in _turns(st, d, 0)
    _owns(st, 0, EDDIE)
    assert (ADV.EDDIE_REPLAY, HOLD) in _turns(st, d, 0)
    assert ADV.apply_turn_option(st, d, 0, ADV.EDDIE_REPLAY, HOLD) == HOLD
    assert st.disc[0, HOLD] == 1 and st.ctr_owner[D.char_counter[EDDIE]] == -1 and st.pl[0, PL.rep] == 6
    assert (ADV.EDDIE_REPLAY, HOLD) not in _turns(st, d, 0)


def test_ct_turn_options_generator_matches_predicate():
    """CT-ADV-TURN-1: on random advanced positions the turn-option generator lists exactly what the predicate
    allows."""
    rng = np.random.default_rng(2)
    for trial in range(40):
        st, d = game(int(rng.integers(1, 6)), seed=trial, advanced=True, special_characters=True)
        st.g[GS.week] = int(rng.integers(0, 27))
        st.pl[0, PL.rep] = int(rng.integers(0, 8))
        st.pl[0, PL.money] = int(rng.integers(0, 40))
        for c in range(8):
            moved = int(rng.integers(0, st.hand[0, c] + 1))
            st.hand[0, c] -= moved
            st.disc[0, c] += moved
        if st.hand[0].sum() == 0:
            st.hand[0, HOLD], st.disc[0, HOLD] = 1, st.disc[0, HOLD] - 1
        if rng.random() < 0.5:
            _owns(st, 0, EDDIE)
        opts = _turns(st, d, 0)
        for kind in range(4):
            for arg in range(-1, 9):
                assert ADV.turn_option_is_legal(st, d, 0, kind, arg) == ((kind, arg) in opts)


def test_ct_opt_char_11_taxes_double_after_ted():
    """CT-OPT-CHAR-11 / CT-SCORE-FINAL-1 / CT-AMB-25: the 2-player taxes ("il doppio dei salari") double the wage after
    Trainer Ted's $1: 2 x $11 = $22 per elephant, not 2 x 12 - 1; Wage & Transit pays $11, solitaire $23."""
    st, d = game(2, special_characters=True)
    st.own[0] = 0
    st.own[0, 6] = 2
    _owns(st, 0, TED)
    assert W.unit_wage(st, d, 0, 6, 1) == 11
    assert W.unit_wage(st, d, 0, 6, 2) == 22 and W.wage_bill(st, d, 0, 2) == 44
    st.pl[0, PL.money] = 50
    st.hand[0, WAGE_TRANSIT] = 1
    st.pl[0, PL.refill_week] = -1
    st.g[GS.week] = 27
    st.pl[0, PL.vp] = 10
    assert F.taxed(st, 0) and F.taxes_begin(st, d, 0) == W.PAID
    assert st.pl[0, PL.money] == 50 - 44 and st.pl[0, PL.vp] == 7
    solo, d1 = game(1, special_characters=True)
    solo.own[0, 6] = 1
    _owns(solo, 0, TED)
    assert W.unit_wage(solo, d1, 0, 6, 1) == 23


def test_ct_opt_char_8_sam_reputation_at_any_turn():
    """CT-OPT-CHAR-8: in the advanced game Sam's +1 reputation use has no timing condition: it is offered at the start
    of the owner's turn, outside any hire (not only mid-hire), and the engine's turn takes it; never in the basic
    game."""
    from sim.circus_train import SPEC
    from sim.circus_train import engine as E
    from sim.circus_train.rules import Rules
    from sim.circus_train.schema import SCHEMA
    from sim.core import play as protocol
    from sim.core.policy import Strategy, StrategyRegistry
    from strategies.circus_train import _weights

    st, d = game(3, special_characters=True, advanced=True)
    st.pl[0, PL.rep] = 3
    assert not H.sam_reputation_allowed(st, d, 0)
    _owns(st, 0, SAM)
    assert H.hire_over(st) or st.g[GS.hire_phase] == 0  # no hire under way
    assert H.sam_reputation_allowed(st, d, 0)
    H.use_sam_reputation(st, d, 0)
    assert st.pl[0, PL.rep] == 4 and st.ctr_where[D.char_counter[SAM]] == LOC_CHAR_RESERVE
    basic, db = game(3, special_characters=True)
    _owns(basic, 0, SAM)
    assert not H.sam_reputation_allowed(basic, db, 0)

    keen = Strategy("keen", "uses Sam for reputation at once, never for a free hire",
                    weights=_weights(sam_reputation={"sr_yes": 10.0}, hire_step={"hs_sam": -100.0}))
    table = StrategyRegistry("circus_train", SCHEMA, [keen]).table(["keen"])
    rules = Rules(advanced=True, special_characters=True)
    for index in range(3):
        st, data = SPEC.new_state(rules, 3, table)
        assert not protocol.play_until(st, data, 3, index, np.zeros(3, np.int64), 20 + 7 * index)
        p = (st.g[GS.first] + st.meta[META.seat]) % 3  # the turn driver: turns taken in the round
        k = D.char_counter[SAM]
        for c in range(st.city_char.shape[0]):
            if st.city_char[c] == k:
                st.city_char[c] = -1
        _owns(st, p, SAM)
        st.pl[p, PL.rep] = min(st.pl[p, PL.rep], 5)
        rep = st.pl[p, PL.rep]
        E.sam_reputation(st, data, p)
        assert st.ctr_where[k] == LOC_CHAR_RESERVE and st.pl[p, PL.rep] == rep + 1
        _owns(st, p, SAM)
        E.play_turn(st, data, p)
        assert st.ctr_owner[k] == -1 and st.ctr_where[k] == LOC_CHAR_RESERVE
