"""Circus Train mechanics on hand-built positions: calendar, hand cycle, movement, roustabout, performing,
two-week shows, hiring, Special Hire and wages. Each test names the rule IDs it checks."""

import itertools

import numpy as np
import pytest

from sim.circus_train import calendar as CAL
from sim.circus_train import cards as CA
from sim.circus_train import hire as H
from sim.circus_train import movement as M
from sim.circus_train import perform as PF
from sim.circus_train import roustabout as RB
from sim.circus_train import setup as SU
from sim.circus_train import special_hire as SH
from sim.circus_train import wages as W
from sim.circus_train.data import (ACROBAT, BASIC, BC, BIG_CAT, BILL, CANNONBALL, CLOWN, ELEPHANT, FAST, FREAK,
                                   HOLD, HORSE, OVERNIGHT_HIRE, OVERNIGHT_TRANSIT, PR, RAPID, REST,
                                   WAGE_TRANSIT, load_data)
from sim.circus_train.rules import Rules
from sim.circus_train.state import GS, LOC_BAG, LOC_BOARD, LOC_PLAYER, LOC_REMOVED, PL
from tests.circus_train_positions import n_players, new_state
from sim.core.rng import randint, seed_game

D = load_data()
CITY = {c: i for i, c in enumerate(D.city_ids)}


def game(n=4, seed=0, **changes):
    """A set-up supply (no counters on the board yet) with every train in Toronto; returns (state, data handle),
    the handles play passes to the kernels (the rules are the state's, ``st.rules``)."""
    st, d = new_state(Rules(**changes), n)
    seed_game(st.rng, 7, seed)
    SU.setup_supply(st, d)
    for p in range(n):
        st.pl[p, PL.city] = CITY["toronto"]
    return st, d


def counter(id_):
    return D.counter_ids.index(id_)


def put(st, city, id_):
    """Put a PR or Points counter on a city."""
    k = counter(id_)
    st.city_item[CITY[city]] = k
    st.ctr_where[k] = LOC_BOARD
    return k


def next_die(st):
    """The face the next d6 roll of ``st`` will show (the generator is not advanced)."""
    return 1 + randint(st.rng.copy(), 6)


def force_die(st, faces):
    """Re-seed st.rng so that the next rolls show ``faces`` (a tuple, searched over seeds)."""
    for s in range(100000):
        seed_game(st.rng, 99, s)
        probe = st.rng.copy()
        if all(1 + randint(probe, 6) == f for f in faces):
            seed_game(st.rng, 99, s)
            return
    raise AssertionError("no seed found")


# ----------------------------------------------------------------------------------------------- calendar

def test_ct_cal_1_months_and_weeks():
    """CT-CAL-1: six months of 4, 5, 4, 5, 5, 4 weeks (27); global weeks April 1-4, May 5-9, June 10-13,
    July 14-18, August 19-23, September 24-27; advance_week reports the month ends and the game end."""
    assert D.month_weeks.tolist() == [4, 5, 4, 5, 5, 4]
    st, d = game()
    ends = []
    for _ in range(27):
        r = CAL.advance_week(st, d)
        if r != CAL.WEEK:
            ends.append((int(st.g[GS.week]), r))
    assert ends == [(4, CAL.MONTH_END), (9, CAL.MONTH_END), (13, CAL.MONTH_END), (18, CAL.MONTH_END),
                    (23, CAL.MONTH_END), (27, CAL.GAME_END)]
    assert [CAL.is_long_month(d, m) for m in range(6)] == [False, True, False, True, True, False]


def test_ct_cal_2_seasons_quotas_prices():
    """CT-CAL-2 / CT-SPH-1: green April-May, yellow June-July, red August-September; quota 8/10/12 and Special
    Hire price $5/$10/$20 by the current week."""
    st, d = game()
    seen = []
    for w in range(27):
        st.g[GS.week] = w
        seen.append((CAL.season_of(st, d), CAL.quota(st, d), CAL.special_hire_price(st, d)))
    assert seen[0] == seen[8] == (0, 8, 5)
    assert seen[9] == seen[17] == (1, 10, 10)
    assert seen[18] == seen[26] == (2, 12, 20)


# ----------------------------------------------------------------------------------------------- cards

@pytest.mark.parametrize("n, changes, size", [
    (4, {}, 8), (3, {}, 8), (5, {}, 8), (2, {}, 7), (1, {}, 7), (4, {"advanced": True}, 9),
    (2, {"advanced": True}, 8), (4, {"simple_variant": True}, 7), (2, {"simple_variant": True}, 6)])
def test_ct_setup_4_deck_sizes(n, changes, size):
    """CT-SETUP-4 / CT-COMP-9 / CT-CARD-9 / CT-OPT-SIMPLE-1: basic 8 (1-2 players 7: no Overnight Hire), advanced
    +Rest, simple variant without Wage & Transit; the whole deck is the starting hand."""
    st, d = game(n, **changes)
    for p in range(n):
        assert CA.hand_size(st, p) == size and st.disc[p].sum() == 0
    assert (st.hand[0, OVERNIGHT_HIRE] == 1) == (n >= 3)
    assert (st.hand[0, REST] == 1) == bool(changes.get("advanced"))
    assert (st.hand[0, WAGE_TRANSIT] == 1) == (not changes.get("simple_variant"))


def test_ct_card_1_hand_cycle():
    """CT-CARD-1: a played card goes to the discard pile; the last card of the hand brings the whole pile back at
    once, so no card repeats before the deck has cycled; hand + discard is always the deck (CT-STATE-3 item 4)."""
    st, d = game(4)
    rng = np.random.default_rng(1)
    deck = st.hand[0].copy()
    for cycle in range(3):
        played = np.zeros(8, dtype=np.int64)
        for i in range(8):
            n = CA.card_options(st, 0)
            assert n >= 1
            card = st.options[rng.integers(n), 0]
            CA.play_card(st, 0, card)
            played[card] += 1
            assert (st.hand[0] + st.disc[0] == deck).all()
        assert (played == deck).all() and (st.hand[0] == deck).all() and st.disc[0].sum() == 0


def test_ct_score_final_1b_cards_left_after_27_weeks():
    """CT-SCORE-FINAL-1b: 27 = 3 x 7 + 6 leaves one card in a 2-player hand; 27 = 3 x 8 + 3 leaves five with 3-5."""
    for n, left in ((2, 1), (4, 5)):
        st, d = game(n)
        for w in range(27):
            st.g[GS.week] = w
            CA.card_options(st, 0)
            CA.play_card(st, 0, st.options[0, 0])
        assert CA.hand_size(st, 0) == left


def test_ct_amb_20_rest_not_in_week_1():
    """CT-ADV-REST-1 / CT-AMB-20: Rest is not a legal play in week 1; from week 2 it is."""
    st, d = game(3, advanced=True)
    n = CA.card_options(st, 0)
    assert REST not in st.options[:n, 0] and not CA.card_is_playable(st, 0, REST)
    st.g[GS.week] = 1
    n = CA.card_options(st, 0)
    assert REST in st.options[:n, 0]


def test_ct_amb_23_forced_discard_refills_hand():
    """CT-STEAL-2 / CT-AMB-23: a robbed victim holding only Overnight Hire discards it and takes the pile back."""
    st, d = game(3)
    st.disc[1] = st.hand[1]
    st.disc[1, OVERNIGHT_HIRE] = 0
    st.hand[1] = 0
    st.hand[1, OVERNIGHT_HIRE] = 1
    assert CA.discard_overnight_hire(st, 1)
    assert CA.hand_size(st, 1) == 8 and st.disc[1].sum() == 0
    st.hand[1, OVERNIGHT_HIRE] = 0
    st.disc[1, OVERNIGHT_HIRE] = 1
    assert not CA.discard_overnight_hire(st, 1)


# ----------------------------------------------------------------------------------------------- movement

def _walk_ends(start, lo, hi):
    """Brute force: every (end, moved) reachable by walks of lo..hi steps."""
    out = set()
    if lo == 0:
        out.add((start, 0))
    frontier = {start}
    for step in range(1, hi + 1):
        frontier = {int(w) for v in frontier for w in D.adj[v, : D.deg[v]]}
        if step >= max(lo, 1):
            out |= {(c, 1) for c in frontier}
    return out


@pytest.mark.parametrize("card", [FAST, RAPID, OVERNIGHT_TRANSIT, BASIC, HOLD, OVERNIGHT_HIRE, WAGE_TRANSIT])
def test_ct_move_1_options_match_walks(card):
    """CT-MOVE-1, CT-MOVE-2, CT-MOVE-5, CT-CARD-2, CT-CARD-3, CT-CARD-4, CT-CARD-5, CT-CARD-6, CT-CARD-7, CT-CARD-8:
    from every city, the option generator equals brute-force walks of the card's
    range (revisits allowed; Basic Transit exactly 1 step) and the legality predicate agrees on every pair."""
    st, d = game(3)
    lo, hi = M.move_bounds(st, d, 0, card)
    assert (lo, hi) == {FAST: (0, 5), RAPID: (0, 3), BASIC: (1, 1), HOLD: (0, 0)}.get(card, (0, 2))
    for start in range(27):
        st.pl[0, PL.city] = start
        n = M.move_options(st, d, 0, lo, hi)
        got = {(int(a), int(b)) for a, b in st.options[:n, :2]}
        assert len(got) == n and got == _walk_ends(start, lo, hi)
        for c, moved in itertools.product(range(27), (0, 1)):
            assert M.move_is_legal(d, start, c, moved, lo, hi) == ((c, moved) in got)


def test_ct_opt_char_6_brakeman_bill():
    """CT-OPT-CHAR-6 / CT-AMB-25: Bill adds a step to every movement; Basic Transit becomes 1-2 steps, which allows
    a return trip."""
    st, d = game(3, special_characters=True)
    st.ctr_owner[D.char_counter[BILL]] = 0
    assert M.move_bounds(st, d, 0, FAST) == (0, 6) and M.move_bounds(st, d, 0, BASIC) == (1, 2)
    assert M.move_bounds(st, d, 1, FAST) == (0, 5)
    assert M.move_is_legal(d, 5, 5, True, 1, 2)


def test_ct_move_2_return_trip_claim():
    """CT-MOVE-5 / CT-MOVE-3 / CT-PTS-1 / CT-AMB-4: a train parked in Buffalo when a 3-VP Points counter appears
    there. Hold or Fast Transit with 0 steps: no claim. Basic Transit: nothing to perform or hire, so the move is
    forced to Toronto or Rochester: no claim. Rapid Transit Buffalo -> Rochester -> Buffalo: +3 VP, the counter
    leaves the game and Buffalo is empty."""
    st, d = game(3)
    buf = CITY["buffalo"]
    st.pl[0, PL.city] = buf
    k = put(st, "buffalo", "Y13")
    assert D.ctr_points[k] == 3
    for card in (HOLD, FAST):
        lo, hi = M.move_bounds(st, d, 0, card)
        assert M.arrive(st, d, 0, buf, False) == 0 and st.city_item[buf] == k
    lo, hi = M.move_bounds(st, d, 0, BASIC)
    n = M.move_options(st, d, 0, lo, hi)
    assert {D.city_ids[c] for c in st.options[:n, 0]} == {"toronto", "rochester"}
    lo, hi = M.move_bounds(st, d, 0, RAPID)
    n = M.move_options(st, d, 0, lo, hi)
    assert {(buf, 0), (buf, 1)} <= {(int(a), int(b)) for a, b in st.options[:n, :2]}
    assert M.arrive(st, d, 0, buf, True) == 3
    assert st.pl[0, PL.vp] == 3 and st.city_item[buf] == -1 and st.ctr_where[k] == LOC_REMOVED


def test_ct_amb_4_switch_claim_without_step():
    """CT-AMB-4 switch (claim_requires_step=False): staying put on a Points counter claims it."""
    st, d = game(3, claim_requires_step=False)
    put(st, "toronto", "Y13")
    assert M.arrive(st, d, 0, CITY["toronto"], False) == 3


def test_ct_solo_9_points_counter_pays_money():
    """CT-SOLO-9 / CT-SOLO-5: in solitaire a 3-point counter (Y13) earns $15, no VP."""
    st, d = game(1)
    put(st, "buffalo", "Y13")
    M.arrive(st, d, 0, CITY["buffalo"], True)
    assert st.pl[0, PL.money] == 15 and st.pl[0, PL.vp] == 0


# ----------------------------------------------------------------------------------------------- roustabout

def test_ct_setup_9_opening_requests_and_fill():
    """CT-SETUP-9, CT-SETUP-10, CT-SETUP-11, CT-SETUP-12, CT-ROUST-1, CT-AMB-2, CT-SOLO-1: N opening PRs (solitaire
    1) on N different cities, one
    Destination card each however many non-PR counters go back into the bag; then the fill to 8 occupied cities;
    the used Destination cards are on the discard pile; nothing in Canada; talent conserved (CT-STATE-3)."""
    for seed in range(20):
        for n in (1, 3, 5):
            st, d = game(n, seed=seed)
            SU.opening_requests(st, d)
            prs = [c for c in range(27) if st.city_item[c] >= 0]
            assert len(prs) == n and all(D.ctr_kind[st.city_item[c]] == PR for c in prs)
            assert st.dest_n[1] == n and st.dest_n[0] == 24 - n
            RB.fill_to(st, d, 8)
            assert RB.occupied_count(st) == 8
            assert all(st.city_item[c] < 0 and st.city_talent[c].sum() == 0 for c in np.flatnonzero(D.is_start))
            assert (st.reserve + st.city_talent.sum(0) + st.own.sum(0) == D.talent_count).all()
            assert st.dest_n.sum() == 24


def test_ct_repl_2_replacement_removes_old_item():
    """CT-REPL-1, CT-REPL-2, CT-REPL-3, CT-AMB-28, CT-AMB-29, CT-TWO-4: a Destination card naming an occupied city
    removes its item first: a
    PR leaves the game and cancels the shows on it; talent returns to the reserve; the new counter is placed."""
    st, d = game(3)
    c_t = CITY["chicago"]
    c_pr = CITY["detroit"]
    st.reserve[HORSE] -= 2
    st.city_talent[c_t, HORSE] = 2
    k = put(st, "detroit", "R01")
    st.pl[1, PL.show] = k
    # The bag holds two Points counters: whatever is drawn is placed as it is (CT-REPL-3).
    pts = [counter("Y13"), counter("Y14")]
    st.bag[:2] = pts
    st.g[GS.bag_n] = 2
    st.dest[:2] = [int(np.flatnonzero(D.dest_city == c_pr)[0]), int(np.flatnonzero(D.dest_city == c_t)[0])]
    st.dest_n[0] = 2
    horses = st.reserve[HORSE]
    assert RB.next_destination(st, d) == c_t
    RB.replace_contents(st, d, c_t)
    assert st.reserve[HORSE] == horses + 2 and st.city_talent[c_t].sum() == 0 and st.city_item[c_t] in pts
    assert RB.next_destination(st, d) == c_pr
    RB.replace_contents(st, d, c_pr)
    assert st.ctr_where[k] == LOC_REMOVED and st.pl[1, PL.show] == -1 and st.city_item[c_pr] in pts
    assert st.dest_n.tolist() == [0, 2]


def test_ct_repl_4_bankrupt_circus_stock():
    """CT-REPL-4 / CT-LIMIT-1: a BC puts its in-stock talents on the city and leaves the game; with none in stock it
    leaves and another counter is drawn for the same city."""
    st, d = game(3)
    bc = counter("G16")  # freak + acrobat
    assert D.ctr_kind[bc] == BC
    c = CITY["albany"]
    st.reserve[FREAK] = 0
    assert RB.place_bankrupt_circus(st, d, c, bc)
    assert st.city_talent[c].tolist() == [0, 1, 0, 0, 0, 0, 0] and st.ctr_where[bc] == LOC_REMOVED
    st.reserve[ACROBAT] = 0
    st.city_talent[c] = 0
    assert not RB.place_bankrupt_circus(st, d, c, bc)
    # place_on_city draws again until something stays: a bag of [BC with nothing in stock, a PR].
    pr = counter("G01")
    st.bag[:2] = [bc, pr]
    st.g[GS.bag_n] = 2
    st.ctr_where[bc] = LOC_BAG
    for s in range(50):  # whichever order the draws come in, the PR ends on the city
        st.city_item[c] = -1
        st.bag[:2] = [bc, pr]
        st.g[GS.bag_n] = 2
        seed_game(st.rng, 5, s)
        RB.place_on_city(st, d, c)
        assert st.city_item[c] == pr


def test_ct_roust_2_quota_and_empty_bag():
    """CT-ROUST-2 / CT-LIMIT-2 / CT-SEASON-1 / CT-AMB-10: the fill reaches the month's quota; at the end of May the
    green bag's rest leaves the game, the yellow counters fill the bag and the board is filled to 10 at once; an
    empty bag stops the fill below the quota."""
    st, d = game(4, seed=3)
    SU.setup_board(st, d)
    assert RB.occupied_count(st) == 8
    st.g[GS.week] = 9
    RB.change_season(st, d)
    assert RB.occupied_count(st) == 10 and st.g[GS.bag_season] == 1
    assert all(st.ctr_where[k] != LOC_BAG for k in range(87) if D.ctr_season[k] == 0)
    st.g[GS.bag_n] = 0
    st.g[GS.week] = 18
    for c in range(27):
        RB.clear_city(st, c)
    assert RB.roustabout(st, d) == 0 and RB.occupied_count(st) == 0


def test_ct_limit_3_destination_reshuffle():
    """CT-LIMIT-3: with the Destination deck empty, the discard pile is shuffled into a new deck."""
    st, d = game(3)
    st.dest_disc[:24] = np.arange(24)
    st.dest_n[:] = [0, 24]
    assert RB.next_destination(st, d) >= 0 and st.dest_n[0] == 23 and st.dest_n[1] == 1


# ----------------------------------------------------------------------------------------------- performing

def test_ct_perf_9_richmond_example():
    """CT-PERF-9 (rulebook example), CT-PERF-2, CT-PERF-3, CT-PERF-4, CT-PERF-5: Richmond PR base 2, acrobats 5,
    cannonballs 3 (counter G21).
    1 acrobat -> 7; 1 acrobat + 1 cannonball -> 10 (each bonus once); with an earlier PR of base 2: 1 acrobat -> 9;
    1 acrobat + 3 cannonballs -> 15 (famous x2)."""
    st, d = game(3)
    k = counter("G21")
    st.own[0] = 0
    st.own[0, ACROBAT] = 1
    assert PF.performance_level(st, d, 0, k, -1) == 7
    st.own[0, CANNONBALL] = 1
    assert PF.performance_level(st, d, 0, k, -1) == 10
    st.own[0, CANNONBALL] = 2
    assert PF.performance_level(st, d, 0, k, -1) == 10  # 2 counters: still once, not famous
    st.own[0, CANNONBALL] = 0
    st.pl[0, PL.pr_base] = 2
    st.pl[0, PL.n_pr] = 1
    assert PF.performance_level(st, d, 0, k, -1) == 9
    st.own[0, CANNONBALL] = 3
    assert PF.performance_level(st, d, 0, k, -1) == 15
    st.own[0, CLOWN] = 5  # a type the PR does not ask for adds nothing
    assert PF.performance_level(st, d, 0, k, -1) == 15


def test_ct_perf_8_money_best_and_counter():
    """CT-PERF-1, CT-PERF-6, CT-PERF-7, CT-PERF-8, CT-AMB-31: anyone may perform; the PR goes to the performer's area
    and the city empties;
    the marker moves only when beaten; money by the counter's colour (green $5 even in August) plus $10 on a new
    best; the bank never runs out (60 notes are no limit)."""
    st, d = game(3)
    k = put(st, "richmond", "G21")
    st.pl[0, PL.city] = CITY["richmond"]
    st.own[0] = 0
    assert PF.can_perform(st, d, 0)
    st.g[GS.week] = 20
    assert PF.perform(st, d, 0, -1) == 2  # level 2 < marker 10
    assert st.pl[0, PL.best] == 10 and st.pl[0, PL.money] == 5
    assert st.city_item[CITY["richmond"]] == -1 and st.ctr_where[k] == LOC_PLAYER and st.ctr_owner[k] == 0
    assert st.pl[0, PL.n_pr] == 1 and st.pl[0, PL.pr_base] == 2
    yk = next(i for i in range(87) if D.ctr_season[i] == 1 and D.ctr_kind[i] == PR)
    st.city_item[CITY["richmond"]] = yk
    st.own[0, :] = 3
    level = PF.perform(st, d, 0, -1)
    assert level > 10 and st.pl[0, PL.best] == level and st.pl[0, PL.money] == 5 + 10 + 10
    st.pl[0, PL.money] = 1000
    st.city_item[CITY["richmond"]] = next(i for i in range(87) if D.ctr_season[i] == 2 and D.ctr_kind[i] == PR
                                          and not D.ctr_two_week[i])
    PF.perform(st, d, 0, -1)
    assert st.pl[0, PL.money] >= 1020


def test_ct_solo_3_performance_pays_level():
    """CT-SOLO-3 / CT-SOLO-2: a solitaire performance pays $1 per level point, no colour money, no new-best bonus;
    there is no VP and the Best Performance marker is not used."""
    st, d = game(1)
    put(st, "richmond", "G21")
    st.pl[0, PL.city] = CITY["richmond"]
    st.own[0] = 0
    st.own[0, ACROBAT] = 1
    assert PF.perform(st, d, 0, -1) == 7 and st.pl[0, PL.money] == 7
    assert st.pl[0, PL.vp] == 0 and st.pl[0, PL.best] == 10


def _two_week():
    return next(i for i in range(87) if D.ctr_two_week[i])


def test_ct_two_week_show_cycle():
    """CT-TWO-1, CT-TWO-2, CT-TWO-3, CT-TWO-4, CT-TWO-5, CT-AMB-5, CT-AMB-6: the first Perform starts the show (no
    score, PR stays); others may start a show
    on the same PR; completing it on the next turn scores with the talents owned then and cancels the other show;
    a turn spent otherwise abandons; leaving the city cancels."""
    st, d = game(3)
    k = _two_week()
    c = CITY["pittsburgh"]
    st.city_item[c] = k
    for p in (0, 1):
        st.pl[p, PL.city] = c
        assert PF.perform(st, d, p, -1) == -1 and st.pl[p, PL.show] == k
    assert st.city_item[c] == k and st.pl[0, PL.vp] == 0
    st.g[GS.week] = 1
    assert PF.show_due(st, 0)
    st.own[0, :] = 3  # talents bought between start and completion count (CT-AMB-6)
    expected = PF.performance_level(st, d, 0, k, -1)
    assert expected > D.ctr_base[k]
    assert PF.perform(st, d, 0, -1) == expected
    assert st.ctr_owner[k] == 0 and st.pl[0, PL.show] == -1 and st.pl[1, PL.show] == -1
    # Abandon: a show started in week 2 and not completed in week 3 ends with the turn.
    st.city_item[c] = k2 = next(i for i in range(87) if D.ctr_two_week[i] and i != k)
    st.pl[2, PL.city] = c
    st.g[GS.week] = 2
    PF.perform(st, d, 2, -1)
    st.g[GS.week] = 3
    PF.end_turn_shows(st, 2)
    assert st.pl[2, PL.show] == -1 and st.city_item[c] == k2
    # Cancel by leaving: a return trip leaves the city too.
    st.g[GS.week] = 4
    PF.perform(st, d, 2, -1)
    M.arrive(st, d, 2, c, True)
    assert st.pl[2, PL.show] == -1


def test_ct_amb_5_house_rule_reserves():
    """CT-AMB-5 switch (two_week_reserved): another player's show in progress blocks the PR."""
    st, d = game(3, two_week_reserved=True)
    k = _two_week()
    c = CITY["pittsburgh"]
    st.city_item[c] = k
    st.pl[0, PL.city] = st.pl[1, PL.city] = c
    PF.perform(st, d, 0, -1)
    assert not PF.can_perform(st, d, 1) and PF.can_perform(st, d, 0)


# ----------------------------------------------------------------------------------------------- hiring

def _hire_city(st, talents):
    c = CITY["chicago"]
    for t, k in talents.items():
        st.reserve[t] -= k
        st.city_talent[c, t] = k
    for p in range(n_players(st)):
        st.pl[p, PL.city] = c
    return c


def test_ct_hire_2_roll_success_and_buy_after_failure():
    """CT-HIRE-1, CT-HIRE-2, CT-HIRE-3, CT-HIRE-4: 1-4 hires at no cost; 5-6 fails, and right after it $10 buys the
    counter; the city empties
    when its group is gone."""
    st, d = game(3)
    c = _hire_city(st, {HORSE: 1, ELEPHANT: 1})
    assert H.can_hire(st, 0)
    H.hire_begin(st)
    n = H.hire_options(st, d, 0)
    assert {(int(a), int(b)) for a, b in st.options[:n, :2]} == {(H.ADD, HORSE), (H.ADD, ELEPHANT)}
    for kind, t in ((H.ADD, HORSE), (H.ADD, ELEPHANT), (H.GO, -1)):
        H.hire_apply(st, d, 0, kind, t)
    force_die(st, (3, 6))
    assert H.hire_apply(st, d, 0, H.ROLL_ONE, HORSE) == 3 and st.own[0, HORSE] == 1
    assert H.hire_apply(st, d, 0, H.ROLL_ONE, ELEPHANT) == 6 and st.own[0, ELEPHANT] == 0
    n = H.hire_options(st, d, 0)
    assert [int(x) for x in st.options[:n, 0]] == [H.PASS]  # $0: no buying
    st.pl[0, PL.money] = 12
    n = H.hire_options(st, d, 0)
    assert [int(x) for x in st.options[:n, 0]] == [H.BUY_IT, H.PASS]
    H.hire_apply(st, d, 0, H.BUY_IT, ELEPHANT)
    assert st.own[0, ELEPHANT] == 1 and st.pl[0, PL.money] == 2 and RB.city_talent_count(st, c) == 0
    assert not RB.is_occupied(st, c)


def test_ct_amb_37_adaptive_hire():
    """CT-AMB-37: after a failure the player may stop, or pick new targets among counters not yet rolled for in
    this action (the failed one cannot be retried); after a success the declared set goes on; the switch
    (hire_adaptive=False) rolls the whole declared set."""
    st, d = game(3)
    _hire_city(st, {CLOWN: 2, BIG_CAT: 1})
    H.hire_begin(st)
    H.hire_apply(st, d, 0, H.ADD, CLOWN)
    H.hire_apply(st, d, 0, H.GO, -1)
    force_die(st, (5,))
    H.hire_apply(st, d, 0, H.ROLL_ONE, CLOWN)
    H.hire_apply(st, d, 0, H.PASS, CLOWN)
    n = H.hire_options(st, d, 0)
    assert {(int(a), int(b)) for a, b in st.options[:n, :2]} == {(H.ADD, CLOWN), (H.ADD, BIG_CAT), (H.GO, -1)}
    H.hire_apply(st, d, 0, H.ADD, CLOWN)
    n = H.hire_options(st, d, 0)
    assert (H.ADD, CLOWN) not in {(int(a), int(b)) for a, b in st.options[:n, :2]}  # the failed clown stays out
    H.hire_apply(st, d, 0, H.GO, -1)
    force_die(st, (1,))
    H.hire_apply(st, d, 0, H.ROLL_ONE, CLOWN)
    assert H.hire_over(st) and st.own[0, CLOWN] == 2
    # Switch: the declared set is rolled to its end even after a failure, with no new targets.
    st2, d2 = game(3, hire_adaptive=False)
    _hire_city(st2, {CLOWN: 2})
    H.hire_begin(st2)
    for kind in (H.ADD, H.ADD, H.GO):
        H.hire_apply(st2, d2, 0, kind, CLOWN)
    force_die(st2, (6,))
    H.hire_apply(st2, d2, 0, H.ROLL_ONE, CLOWN)
    H.hire_apply(st2, d2, 0, H.PASS, CLOWN)
    n = H.hire_options(st2, d2, 0)
    assert [(int(a), int(b)) for a, b in st2.options[:n, :2]] == [(H.ROLL_ONE, CLOWN)]


def test_ct_hire_generator_matches_predicate():
    """CT-HIRE-2: on random hire positions the option generator lists exactly the steps the predicate allows."""
    rng = np.random.default_rng(4)
    for trial in range(60):
        st, d = game(3, seed=trial, hire_adaptive=bool(trial % 2))
        _hire_city(st, {t: int(rng.integers(0, 3)) for t in range(7)} | {CLOWN: 1})
        st.pl[0, PL.money] = int(rng.integers(0, 25))
        H.hire_begin(st)
        while not H.hire_over(st):
            n = H.hire_options(st, d, 0)
            opts = {(int(a), int(b)) for a, b in st.options[:n, :2]}
            for kind in range(5):
                for t in range(-1, 7):
                    assert H.hire_step_is_legal(st, d, 0, kind, t) == ((kind, t) in opts)
            if n == 0:
                break
            kind, t = st.options[rng.integers(n), :2]
            H.hire_apply(st, d, 0, kind, t)
        assert (st.reserve + st.city_talent.sum(0) + st.own.sum(0) == D.talent_count).all()


def test_ct_adv_hire_1_reputation_range():
    """CT-ADV-HIRE-1 / CT-REP-1, CT-REP-2, CT-REP-4: advanced hiring succeeds on 1..success_max of the reputation box
    (start box
    index 6: 1-5)."""
    st, d = game(3, advanced=True)
    assert st.pl[0, PL.rep] == 6 and D.rep_success[6] == 5
    _hire_city(st, {CLOWN: 1})
    H.hire_begin(st)
    H.hire_apply(st, d, 0, H.ADD, CLOWN)
    H.hire_apply(st, d, 0, H.GO, -1)
    force_die(st, (5,))
    H.hire_apply(st, d, 0, H.ROLL_ONE, CLOWN)
    assert st.own[0, CLOWN] == 2
    st.pl[1, PL.rep] = 0  # bottom box: only a 1
    _hire_city(st, {HORSE: 1})
    H.hire_begin(st)
    H.hire_apply(st, d, 1, H.ADD, HORSE)
    H.hire_apply(st, d, 1, H.GO, -1)
    force_die(st, (2,))
    H.hire_apply(st, d, 1, H.ROLL_ONE, HORSE)
    assert st.own[1, HORSE] == 0 and st.g[GS.hire_phase] == H.BUY


# ----------------------------------------------------------------------------------------------- special hire

def test_ct_sph_1_options_and_buy_price():
    """CT-SPH-1 / CT-AMB-22: hire where talent is, steal from opponents in the city, buy one reserve talent at the
    month's price ($5 April/May, $20 August/September)."""
    st, d = game(3)
    _hire_city(st, {CLOWN: 1})
    st.pl[2, PL.city] = CITY["boston"]
    st.pl[0, PL.money] = 5
    n = SH.special_hire_options(st, d, 0)
    kinds = [(int(a), int(b)) for a, b in st.options[:n, :2]]
    assert (SH.HIRE, -1) in kinds and (SH.STEAL, 1) in kinds and (SH.STEAL, 2) not in kinds
    assert {b for a, b in kinds if a == SH.BUY} == set(range(7))
    SH.buy(st, d, 0, SH.BUY, ELEPHANT)
    assert st.own[0, ELEPHANT] == 1 and st.pl[0, PL.money] == 0
    st.g[GS.week] = 20
    st.pl[0, PL.money] = 19
    n = SH.special_hire_options(st, d, 0)
    assert all(st.options[i, 0] != SH.BUY for i in range(n))


def test_ct_amb_42_special_hire_may_be_declined():
    """CT-SPH-1 / CT-CARD-7 / CT-AMB-42: the Special Hire is optional ("Puoi effettuare un'Assunzione Speciale"):
    declining is always listed, last, beside hire, steal and buy; with nothing else open it is the only choice."""
    st, d = game(3)
    _hire_city(st, {CLOWN: 1})
    st.pl[0, PL.money] = 5
    n = SH.special_hire_options(st, d, 0)
    assert (int(st.options[n - 1, 0]), int(st.options[n - 1, 1])) == (SH.DECLINE, -1)
    assert sum(st.options[i, 0] == SH.DECLINE for i in range(n)) == 1 and n > 2
    st, d = game(3)
    st.pl[0, PL.city] = CITY["boston"]  # no talent, no rival, no money
    n = SH.special_hire_options(st, d, 0)
    assert n == 1 and st.options[0, 0] == SH.DECLINE


def test_ct_steal_1_and_2():
    """CT-STEAL-1, CT-STEAL-2, CT-AMB-21: up to two counters of one opponent in the city, 1-4 each; a successful
    steal makes
    the victim discard Overnight Hire from hand."""
    st, d = game(3)
    st.own[1] = [1, 2, 0, 0, 0, 0, 1]
    n = SH.steal_options(st, d, 0, 1)
    rows = {tuple(int(x) for x in r) for r in st.options[:n, :3]}
    assert (CLOWN, -1, -1) in rows and (ACROBAT, ACROBAT, -1) in rows and (CLOWN, CLOWN, -1) not in rows
    assert all(r[2] == -1 for r in rows) and len(rows) == 3 + 4  # singles C, A, E; pairs CA, CE, AA, AE
    force_die(st, (4, 5))
    assert SH.steal(st, d, 0, 1, ACROBAT, ELEPHANT, -1) == 1
    assert st.own[0, ACROBAT] == 1 and st.own[1, ELEPHANT] == 1
    assert st.hand[1, OVERNIGHT_HIRE] == 0 and st.disc[1, OVERNIGHT_HIRE] == 1
    force_die(st, (6,))
    st.hand[1, OVERNIGHT_HIRE], st.disc[1, OVERNIGHT_HIRE] = 1, 0
    assert SH.steal(st, d, 0, 1, CLOWN, -1, -1) == 0 and st.hand[1, OVERNIGHT_HIRE] == 1


def test_ct_adv_steal_1_reputation_modifier():
    """CT-ADV-STEAL-1 / CT-REP-4: the thief's box decides; a victim with the higher reputation adds +1 to each roll
    (so a 5 fails from the start box)."""
    st, d = game(3, advanced=True)
    st.own[1, HORSE] = 1
    st.pl[1, PL.rep] = 7
    force_die(st, (5,))
    assert SH.steal(st, d, 0, 1, HORSE, -1, -1) == 0
    st.pl[1, PL.rep] = 6
    force_die(st, (5,))
    assert SH.steal(st, d, 0, 1, HORSE, -1, -1) == 1


def test_ct_amb_21_character_steal_limits():
    """CT-AMB-21 / CT-OPT-CHAR-5: with characters, at most one character among the two counters; the switch allows
    two talents plus a character."""
    for extra, triple in ((False, False), (True, True)):
        st, d = game(3, special_characters=True, steal_character_extra=extra)
        st.own[1, CLOWN] = 2
        st.ctr_owner[D.char_counter[BILL]] = 1
        n = SH.steal_options(st, d, 0, 1)
        rows = {tuple(int(x) for x in r) for r in st.options[:n, :3]}
        assert (CLOWN, 7 + BILL, -1) in rows
        assert ((CLOWN, CLOWN, 7 + BILL) in rows) == triple
        assert not any(r.count(7 + BILL) > 1 for r in rows)


# ----------------------------------------------------------------------------------------------- wages

def _kept_sets(st, d, p, mult=1):
    """Every kept set reachable through keep_options (depth-first over copies of the choice state)."""
    out = set()

    def walk(plan):
        st.plan[:] = plan
        n = W.keep_options(st, d, p, mult)
        opts = [tuple(int(x) for x in st.options[i, :2]) for i in range(n)]
        for kind, t in opts:
            if kind == W.DONE:
                out.add(tuple(int(x) for x in plan))
            else:
                nxt = plan.copy()
                nxt[t] += 1
                walk(nxt)

    walk(np.zeros(7, dtype=np.int64))
    return out


def test_ct_fire_1b_maximal_kept_sets():
    """CT-FIRE-1b (test vector), CT-FIRE-1, CT-AMB-7: $13 and clown, acrobat, horse, elephant (bill $22): the kept
    sets are exactly {elephant, clown} and {horse, acrobat, clown}; {horse, acrobat}, {elephant} and everything are
    refused by the predicate."""
    st, d = game(3)
    st.own[0] = [1, 1, 0, 1, 0, 0, 1]
    st.pl[0, PL.money] = 13
    assert W.wage_bill(st, d, 0, 1) == 22 and W.wage_begin(st, d, 0, 1) == W.CHOOSE
    want = {(1, 0, 0, 0, 0, 0, 1), (1, 1, 0, 1, 0, 0, 0)}
    assert _kept_sets(st, d, 0) == want
    for kept in itertools.product(*(range(k + 1) for k in st.own[0])):
        assert W.kept_set_is_legal(st, d, 0, 1, np.array(kept)) == (kept in want)
    st.plan[:] = [1, 1, 0, 1, 0, 0, 0]
    assert W.keep_apply(st, d, 0, 1, W.DONE, -1) == 1
    assert st.pl[0, PL.money] == 3 and st.fired[ELEPHANT] == 1 and st.own[0, ELEPHANT] == 0


def test_ct_wage_2_must_pay_when_able():
    """CT-WAGE-1, CT-WAGE-2: the whole bill is paid when the money covers it (no voluntary firing in the basic game);
    solitaire doubles it (CT-SOLO-4); Trainer Ted takes $1 off each elephant after doubling (CT-AMB-25)."""
    st, d = game(3)
    st.own[0] = [2, 1, 1, 1, 1, 1, 1]
    st.pl[0, PL.money] = 60
    assert W.wage_begin(st, d, 0, 1) == W.PAID and st.pl[0, PL.money] == 60 - 47
    st1, d1 = game(1, special_characters=True)
    st1.own[0] = [0, 0, 0, 0, 0, 0, 2]
    assert W.wage_bill(st1, d1, 0, 1) == 48
    st1.ctr_owner[D.char_counter[5]] = 0
    assert W.wage_bill(st1, d1, 0, 1) == 46


def test_ct_fire_2_fired_talent_placement():
    """CT-FIRE-2, CT-FIRE-3, CT-TURN-2, CT-AMB-33: one talent city -> it; several -> the firer's right-hand neighbour
    picks
    (the one decision another player takes during a turn; default: nearest to the chooser, ties farthest from the
    firer); none -> the reserve; solitaire: the player (CT-AMB-8)."""
    st, d = game(4)
    st.fired[:] = [0, 0, 0, 0, 0, 0, 1]
    assert W.fired_city_options(st) == 0
    reserve = st.reserve[ELEPHANT]
    W.place_fired(st, -1)
    assert st.reserve[ELEPHANT] == reserve + 1
    for city in ("boston", "omaha", "buffalo"):
        st.city_talent[CITY[city], CLOWN] = 1
    n = W.fired_city_options(st)
    assert n == 3 and W.fired_chooser(st, 0) == 3 and W.fired_chooser(st, 2) == 1
    st.pl[3, PL.city] = CITY["albany"]
    st.pl[0, PL.city] = CITY["rochester"]
    assert D.city_ids[W.fired_city_default(st, d, 3, 0, n)] == "boston"
    st.fired[CLOWN] = 2
    W.place_fired(st, CITY["boston"])
    assert st.city_talent[CITY["boston"], CLOWN] == 3 and st.fired.sum() == 0
    st1, d1 = game(1)
    assert W.fired_chooser(st1, 0) == 0
    st2, d2 = game(1, solo_fired_city="farthest")
    assert W.fired_chooser(st2, 0) == -1


def test_ct_adv_wage_1_voluntary_release():
    """CT-ADV-WAGE-1: advanced wages may release any talent; released talent goes to the reserve and costs one
    reputation step each in April-July, 3 VP each in August-September (not below 0)."""
    st, d = game(3, advanced=True)
    st.own[0] = [1, 1, 0, 0, 0, 0, 0]
    st.pl[0, PL.money] = 100
    assert W.wage_begin(st, d, 0, 1) == W.CHOOSE
    assert (W.DONE, -1) in {tuple(int(x) for x in st.options[i, :2]) for i in range(W.keep_options(st, d, 0, 1))}
    st.plan[:] = [1, 0, 0, 0, 0, 0, 0]
    before = st.reserve[ACROBAT]
    assert W.keep_apply(st, d, 0, 1, W.DONE, -1) == 1
    assert st.reserve[ACROBAT] == before + 1 and st.pl[0, PL.rep] == 5 and st.pl[0, PL.money] == 99
    st.g[GS.week] = 20
    st.pl[0, PL.vp] = 2
    W.wage_begin(st, d, 0, 1)
    assert W.keep_apply(st, d, 0, 1, W.DONE, -1) == 1 and st.pl[0, PL.vp] == 0


def test_ct_amb_6_switch_scores_as_at_start():
    """CT-AMB-6 switch (two_week_score_at_completion=False): the show scores the level as it stood at its start."""
    st, d = game(3, two_week_score_at_completion=False)
    k = _two_week()
    c = CITY["pittsburgh"]
    st.city_item[c] = k
    st.pl[0, PL.city] = c
    PF.perform(st, d, 0, -1)
    at_start = PF.performance_level(st, d, 0, k, -1)
    st.g[GS.week] = 1
    st.own[0, :] = 3
    assert PF.performance_level(st, d, 0, k, -1) > at_start
    assert PF.perform(st, d, 0, -1) == at_start
