"""Circus Train Event cards (optional rule) with the stand-in deck: CT-OPT-EVENT-1, CT-OPT-EVENT-2, CT-OPT-EVENT-3,
CT-COMP-4, CT-AMB-34."""

import numpy as np

from sim.circus_train import events as E
from sim.circus_train import hire as H
from sim.circus_train import movement as M
from sim.circus_train import perform as PF
from sim.circus_train import wages as W
from sim.circus_train.data import BERTHA, CLOWN, EFFECTS, ELEPHANT, FAST, HORSE, N_TYPES, RAPID, TED
from sim.circus_train.invariants import broken_invariant
from sim.circus_train.state import GS, LOC_CHAR_RESERVE, LOC_PLAYER, PL
from tests.test_circus_train_mechanics import CITY, D, counter, force_die, game, put


def card(effect):
    """The first Event card with ``effect``."""
    return int(np.flatnonzero(D.ev_effect == EFFECTS.index(effect))[0])


def test_ct_opt_event_1_deck_of_five():
    """CT-OPT-EVENT-1 / CT-COMP-4 / CT-COMP-9: 26 Event cards; with the optional rule a deck of 5 distinct cards is
    dealt, never one whose train symbol needs more players; without it, no deck."""
    assert D.ev_effect.shape == (26,)
    for n in (1, 2, 3, 5):
        for seed in range(10):
            st, d = game(n, seed=seed, event_cards=True)
            deck = st.events[: st.g[GS.event_n]]
            assert st.g[GS.event_n] == 5 and len(set(deck.tolist())) == 5
            assert (D.ev_min_players[deck] <= n).all()
    st, d = game(3)
    assert st.g[GS.event_n] == 0 and E.reveal_event(st, d) == -1


def test_ct_opt_event_2_month_card_in_force_until_replaced():
    """CT-OPT-EVENT-2: a revealed month card stays in force until the next reveal; an immediate card acts at once
    and ends the previous month card; after five reveals the deck is used up."""
    st, d = game(3, event_cards=True)
    heat, school = card("wage_modifier"), card("each_player_gains_talent")
    st.events[:5] = [heat, school, heat, heat, heat]
    assert E.reveal_event(st, d) == heat and st.g[GS.event] == heat
    clowns = st.own[:, CLOWN].copy()
    assert E.reveal_event(st, d) == school and st.g[GS.event] == -1
    assert (st.own[:, CLOWN] == clowns + 1).all()
    for _ in range(3):
        E.reveal_event(st, d)
    assert st.g[GS.event] == heat and E.reveal_event(st, d) == -1 and st.g[GS.event] == -1


def test_ct_opt_event_3_stand_in_modifiers():
    """CT-OPT-EVENT-3 / CT-AMB-34 / CT-PERF-5: the month stand-ins change animal wages (+2), performance levels (-5,
    never below 0), performance money (+5), Fast Transit's range (3) and the hire roll (+1)."""
    st, d = game(3, event_cards=True)
    st.own[0] = [1, 0, 0, 1, 0, 0, 1]
    base_bill = W.wage_bill(st, d, 0, 1)
    st.g[GS.event] = card("wage_modifier")
    assert W.wage_bill(st, d, 0, 1) == base_bill + 4
    k = counter("G21")
    st.own[0] = 0
    st.own[0, 1] = 1
    st.g[GS.event] = card("performance_level_modifier")
    assert PF.performance_level(st, d, 0, k, -1) == 7 - 5
    st.g[GS.event] = card("performance_money_modifier")
    put(st, "richmond", "G21")
    st.pl[0, PL.city] = CITY["richmond"]
    PF.perform(st, d, 0, -1)
    assert st.pl[0, PL.money] == 5 + 5
    st.g[GS.event] = card("movement_cap")
    assert M.move_bounds(st, d, 0, FAST) == (0, 3) and M.move_bounds(st, d, 0, RAPID) == (0, 3)
    st.g[GS.event] = card("hire_success_modifier")
    c = CITY["chicago"]
    st.reserve[HORSE] -= 1
    st.city_talent[c, HORSE] = 1
    st.pl[0, PL.city] = c
    H.hire_begin(st)
    H.hire_apply(st, d, 0, H.ADD, HORSE)
    H.hire_apply(st, d, 0, H.GO, -1)
    force_die(st, (5,))
    H.hire_apply(st, d, 0, H.ROLL_ONE, HORSE)
    assert st.own[0, HORSE] == 1


def test_ct_opt_event_3_immediate_stand_ins():
    """CT-OPT-EVENT-3: money to the fewest performers (ties all paid), VP to the sole best performer (tie: nobody),
    the sole VP leader returns a talent of their choice, the sole last player raids the leader with a 1-4 roll."""
    st, d = game(3, event_cards=True)
    st.pl[:, PL.n_pr] = [2, 0, 0]
    st.events[:4] = [card("money_to_fewest"), card("vp_to_most"), card("vp_to_most"), card("leader_loses_talent")]
    st.g[GS.event_n] = 4
    E.reveal_event(st, d)
    assert st.pl[:, PL.money].tolist() == [0, 10, 10]
    st.pl[:, PL.best] = [30, 30, 10]
    E.reveal_event(st, d)
    assert st.pl[:, PL.vp].tolist() == [0, 0, 0]
    st.pl[:, PL.best] = [30, 40, 10]
    E.reveal_event(st, d)
    assert st.pl[:, PL.vp].tolist() == [0, 2, 0]
    e = E.reveal_event(st, d)
    st.own[1, ELEPHANT] = 1
    assert E.event_chooser(st, d, e) == 1
    n = E.event_options(st, d, e, 1)
    assert sorted(st.options[:n, 0].tolist()) == [CLOWN, ELEPHANT]
    E.event_apply(st, d, e, 1, ELEPHANT)
    assert st.own[1, ELEPHANT] == 0
    raid = card("catchup_steal_roll")
    st.pl[:, PL.vp] = [0, 5, 3]
    assert E.event_chooser(st, d, raid) == 0
    force_die(st, (4,))
    E.event_apply(st, d, raid, 0, CLOWN)
    assert st.own[0, CLOWN] == 2 and st.own[1, CLOWN] == 0
    st.pl[:, PL.vp] = [0, 0, 3]
    assert E.event_chooser(st, d, raid) == -1


def _owns(st, p, ch):
    st.ctr_owner[D.char_counter[ch]] = p
    st.ctr_where[D.char_counter[ch]] = LOC_PLAYER


def test_ct_opt_char_5_characters_count_as_talent_for_events():
    """CT-OPT-CHAR-5: for Event cards a Special Character counts as talent ("anche per gli effetti delle Carte
    Evento"): a leader owning only a character must give one up (it goes to the special-character reserve), and a
    raid can take the leader's character."""
    st, d = game(3, event_cards=True, special_characters=True)
    st.reserve += st.own.sum(axis=0)
    st.own[:] = 0
    st.pl[:, PL.vp] = [0, 5, 3]
    _owns(st, 1, TED)  # a yellow character: set aside at setup, not in the bag
    lose = card("leader_loses_talent")
    assert E.event_chooser(st, d, lose) == 1
    n = E.event_options(st, d, lose, 1)
    assert st.options[:n, 0].tolist() == [N_TYPES + TED]
    E.event_apply(st, d, lose, 1, N_TYPES + TED)
    k = D.char_counter[TED]
    assert st.ctr_owner[k] == -1 and st.ctr_where[k] == LOC_CHAR_RESERVE
    assert broken_invariant(st, d) == 0
    st.own[1, CLOWN] = 1
    st.reserve[CLOWN] -= 1
    _owns(st, 1, BERTHA)
    raid = card("catchup_steal_roll")
    assert E.event_chooser(st, d, raid) == 0
    n = E.event_options(st, d, raid, 0)
    assert sorted(st.options[:n, 0].tolist()) == [CLOWN, N_TYPES + BERTHA]
    force_die(st, (1,))
    E.event_apply(st, d, raid, 0, N_TYPES + BERTHA)
    assert st.ctr_owner[D.char_counter[BERTHA]] == 0 and st.own[1, CLOWN] == 1
    assert broken_invariant(st, d) == 0
