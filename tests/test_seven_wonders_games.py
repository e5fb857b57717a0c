"""Random checked games through the mechanics, in the order the engine will drive them (BABEL-SEQ-1): the option
generators against the legality predicate on every position met, and the invariants (cards conserved, coins >= 0,
participation tokens returned at each Age end). The driver here is a test harness, not the engine."""

import numpy as np
import pytest

from sim.core.rng import randint, seed_game
from sim.seven_wonders import babel, projects, scoring, setup, turn
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.scoring import N_SC, SC
from sim.seven_wonders.state import GS, new_state
from sim.seven_wonders.position import DATA


def pick(st, n_opt):
    return int(randint(st.rng, n_opt))


def check_generator(st, r, p):
    """Every (action, slot, extra, participation) is generated iff the predicate says it is legal."""
    n = turn.turn_options(st, DATA, r, p)
    generated = {tuple(int(x) for x in st.options[i]) for i in range(n)}
    legal = set()
    for act in range(len(turn.ACT)):
        for slot in range(-1, st.hand_n[p] + 1):
            for extra in range(-1, 5):
                for part in range(3):
                    if turn.is_legal(st, DATA, r, p, act, slot, extra, part):
                        legal.add((act, slot, extra, part))
    assert generated == legal
    return n


def check_draft(st, p):
    n = babel.tile_draft_options(st, p)
    assert {int(st.options[i, 0]) for i in range(n)} == {j for j in range(-1, 4) if babel.keep_is_legal(st, p, j)}
    return n


def check_discard_build(st, r, p):
    """Generated (card, participation) pairs == the predicate's (copies of one card give one option)."""
    n = turn.discard_build_options(st, DATA, r, p)
    opt = st.options
    generated = {(int(st.discard[opt[i, 1]]) if opt[i, 1] >= 0 else -1, int(opt[i, 3])) for i in range(n)}
    legal = {(int(st.discard[i]) if i >= 0 else -1, part) for i in range(-2, st.g[GS.discard_n] + 1)
             for part in range(-1, 4) if turn.discard_build_is_legal(st, DATA, r, p, i, part)}
    assert generated == legal
    return n


def check_penalty(st, r, p):
    n = projects.penalty_options(st, DATA, r, p)
    generated = {(int(st.options[i, 0]), int(st.options[i, 1])) for i in range(n)}
    legal = {(a, b) for a in range(-3, 25) for b in range(-1, 7) if projects.penalty_is_legal(st, DATA, r, p, a, b)}
    assert generated == legal
    return n


def cards_in_play(st, n):
    return int(st.hand_n[:n].sum() + st.city_n[:n].sum() + st.g[GS.discard_n] + st.g[GS.tucked_n] + st.g[GS.removed_n])


def play_game(n, seed, rules, check=False):
    """One random game; returns the final score rows."""
    r = rules.to_array()
    st = new_state(rules, n)
    seed_game(st.rng, seed, 0)
    setup.setup_game(st, DATA, r)
    if rules.babel_tower:
        for _ in range(2):
            for p in range(n):
                k = check_draft(st, p) if check else babel.tile_draft_options(st, p)
                babel.keep_tile(st, p, int(st.options[pick(st, k), 0]))
            babel.pass_tiles_right(st)
        assert (st.tiles[:n] >= 0).all()
    for age in (1, 2, 3):
        setup.start_age(st, DATA, r, age)
        for t in range(rules.turns_per_age):
            for p in range(n):
                k = check_generator(st, r, p) if check else turn.turn_options(st, DATA, r, p)
                assert k >= 1
                turn.apply_option(st, DATA, r, p, pick(st, k))
            turn.resolve_picks(st, DATA, r)
            if t == rules.turns_per_age - 1:
                seats = turn.seventh_card_seats(st, DATA)
                if seats:
                    for p in range(n):
                        if (seats >> p) & 1:
                            turn.apply_option(st, DATA, r, p, pick(st, turn.seventh_card_options(st, DATA, r, p)))
                    turn.resolve_picks(st, DATA, r)
                turn.discard_last_cards(st)
            for p in range(n):
                while st.pending[p] > 0:
                    k = check_discard_build(st, r, p) if check else turn.discard_build_options(st, DATA, r, p)
                    turn.apply_discard_build(st, DATA, r, p, pick(st, k))
            turn.end_turn(st, DATA, r)
            assert (st.coins[:n] >= 0).all(), "coins >= 0"
            assert cards_in_play(st, n) == 7 * n * age, "cards conserved"
        if st.g[GS.gp] >= 0:
            if projects.project_succeeds(st, r):
                projects.give_rewards(st, DATA, r)
            else:
                for p in range(n):
                    if st.gp_part[p] == 0:
                        k = check_penalty(st, r, p) if check else projects.penalty_options(st, DATA, r, p)
                        projects.apply_penalty(st, DATA, r, p, pick(st, k), age)
        scoring.resolve_military(st, DATA, r, age)
        projects.return_tokens(st)
        assert st.gp_part[:n].sum() == 0, "participation tokens returned"
        assert cards_in_play(st, n) == 7 * n * age
    out = np.zeros((n, N_SC), dtype=np.int64)
    for p in range(n):
        scoring.score_player(st, DATA, r, p, out[p])
    return st, out


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_random_games_generator_matches_predicate_and_invariants_hold(n):
    """SW-TURN-1 / SW-TURN-3, SW-ACT-1 / SW-ACT-2 / SW-ACT-3 / SW-ACT-4, BABEL-ACT-1 / BABEL-ACT-2, BABEL-SEQ-1:
    checked random games with both modules; every decision's generator (card use, tile draft, Halikarnassos,
    penalty) against its predicate."""
    for seed in range(3):
        st, out = play_game(n, seed, Rules(), check=True)
        assert (out[:, SC.total] == out[:, : SC.total].sum(axis=1)).all()


@pytest.mark.parametrize("rules", [Rules(babel_tower=False, great_projects=False), Rules(wonder_sides=2),
                                   Rules(tax_tiles_literal=True, tiles_2_15_swapped=True),
                                   Rules(gp_lost_card_to_discard=True, commerce_counts_after_placement=False)])
def test_random_games_under_switches(rules):
    """BABEL-MOD-1 and the SW-DEC switches: games complete with the invariants for each setting."""
    for seed in range(6):
        play_game(4, 100 + seed, rules)


def test_many_random_games_keep_the_invariants():
    """Cards conserved per Age, coins never negative, tokens returned: 150 random 3-7 player games."""
    totals = []
    for seed in range(150):
        st, out = play_game(3 + seed % 5, 1000 + seed, Rules(), check=seed % 10 == 0)
        totals.append(out[:, SC.total].mean())
    assert 5 < np.mean(totals) < 80
