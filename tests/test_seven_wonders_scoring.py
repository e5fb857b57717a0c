"""Science, military and end-of-game scoring on hand-built positions (SW-SCI-*, SW-MIL-*, SW-COM-2, SW-GUILD-1,
SW-WONDER-6, SW-END-*, BABEL-SCORE-1, BABEL-TILE-19 / BABEL-TILE-22)."""

import itertools

import numpy as np

from sim.seven_wonders.babel import refresh_tiles
from sim.seven_wonders.rules import MAX_VICTORY, Rules
from sim.seven_wonders.scoring import (N_SC, SC, per_element, rank_keys, resolve_military, science_points,
                                       score_player, take_defeat, take_victory)
from sim.seven_wonders.position import DATA, build, card, position, stages

R = Rules().to_array()


def score(st, p, rules=R):
    out = np.zeros(N_SC, dtype=np.int64)
    score_player(st, DATA, rules, p, out)
    return {name: int(out[i]) for i, name in enumerate(SC._fields)}


def test_science_scoring_vectors():
    """SW-SCI-1: three of one symbol = 9; one set = 7 + 3 = 10; 2/2/2 = 12 + 14 = 26."""
    assert science_points(3, 0, 0, 0, 7) == 9
    assert science_points(1, 1, 1, 0, 7) == 10
    assert science_points(2, 2, 2, 0, 7) == 26
    assert science_points(0, 0, 0, 0, 7) == 0


def test_wild_symbols_are_placed_optimally():
    """SW-SCI-2 / SW-DEC-7: one wild with 1/1/0 completes a set (10, not 5); with 3/0/0 it joins the threes (16)."""
    assert science_points(1, 1, 0, 1, 7) == 10
    assert science_points(3, 0, 0, 1, 7) == 16
    assert science_points(3, 3, 2, 2, 7) == max(4 * 4 + 3 * 3 + 3 * 3 + 21, 3 * 3 + 3 * 3 + 4 * 4 + 21,
                                                 9 + 9 + 16 + 21, 25 + 9 + 4 + 14)


def test_wilds_match_brute_force_over_every_assignment():
    """SW-DEC-7: the optimum over all 3^k assignments, k <= 3, for every count up to 5 and both set values."""
    for c, g, t, w in itertools.product(range(5), range(5), range(5), range(4)):
        for set_vp in (7, 10):
            best = 0
            for assign in itertools.product(range(3), repeat=w):
                v = [c, g, t]
                for a in assign:
                    v[a] += 1
                best = max(best, sum(x * x for x in v) + set_vp * min(v))
            assert science_points(c, g, t, w, set_vp) == best


def test_military_each_neighbour_separately_with_age_values():
    """SW-MIL-1 / SW-MIL-2: shields compared with each neighbour; +1/+3/+5 by Age for the stronger, -1 for the weaker,
    nothing on a tie; a player takes 0-2 tokens per Age."""
    st = position(4)
    build(st, 0, "Barracks", "Stockade")  # 2
    build(st, 1, "Guard Tower")  # 1
    build(st, 3, "Stockade")  # 1 (seat 2 has 0)
    resolve_military(st, DATA, R, 1)
    assert st.victory[0, 1] == 2 and st.defeat_n[0] == 0
    assert st.victory[1, 1] == 1 and st.defeat_n[1] == 1  # beats seat 2, loses to seat 0
    assert st.defeat_n[2] == 2 and st.defeat_vp[2] == -2
    assert st.victory[3, 1] == 1 and st.defeat_n[3] == 1  # ties nobody: beats 2, loses to 0
    resolve_military(st, DATA, R, 3)
    assert st.victory[0, 5] == 2
    assert score(st, 0)["military"] == 2 + 10


def test_tile_19_downgrades_and_tile_22_doubles_defeats():
    """BABEL-TILE-19: +1 -> none, +3 -> +1, +5 -> +3; BABEL-TILE-22: a -1 Defeat becomes two -1 tokens, both
    counted for Strategists (SW-DEC-12); -2 tokens are not doubled."""
    st = position(3)
    st.babel_slot[0] = 18
    st.babel_slot[1] = 21
    refresh_tiles(st, DATA, R)
    for v in (1, 3, 5):
        take_victory(st, DATA, R, 0, v)
    assert st.victory[0].tolist() == [0, 1, 0, 1, 0, 0] + [0] * (MAX_VICTORY - 5)
    take_defeat(st, DATA, R, 1, 1)
    assert (st.defeat_n[1], st.defeat_vp[1]) == (2, -2)
    take_defeat(st, DATA, R, 1, 2)
    assert (st.defeat_n[1], st.defeat_vp[1]) == (3, -4)
    one = Rules(tile22_each_token_counts=False).to_array()
    take_defeat(st, DATA, one, 2, 1)
    assert (st.defeat_n[2], st.defeat_vp[2]) == (1, -2)


def test_commercial_and_guild_end_scoring():
    """SW-COM-2 / SW-GUILD-1: Lighthouse counts yellow cards including itself; Chamber of Commerce 2 per grey;
    Workers Guild 1 per brown card of the neighbours only; Builders Guild counts stages of all three."""
    st = position(3)
    build(st, 0, "Lighthouse", "Tavern", "Chamber of Commerce", "Press", "Workers Guild", "Builders Guild",
          "Lumber Yard")
    build(st, 1, "Stone Pit", "Clay Pool")
    build(st, 2, "Ore Vein")
    stages(st, 0, 1)
    stages(st, 1, 2)
    s = score(st, 0)
    assert s["commercial"] == 3 * 1 + 1 * 2
    assert s["guilds"] == 3 + 3
    assert s["wonder"] == 3 and s["treasury"] == 1


def test_strategists_and_spies_count_the_neighbours_only():
    """SW-GUILD-1: Strategists = Defeat tokens of the neighbours; Spies = their red cards."""
    st = position(3)
    build(st, 0, "Strategists Guild", "Spies Guild", "Barracks")
    build(st, 1, "Stockade")
    st.defeat_n[1] = 2
    st.defeat_n[2] = 1
    st.defeat_n[0] = 5
    assert score(st, 0)["guilds"] == 3 + 1


def test_scientists_guild_and_babylon_wilds_score_in_science():
    """SW-SCI-2: the Scientists Guild and Babylon A stage 2 each give a wild symbol."""
    st = position(3, boards=("Babylon",), sides="A")
    build(st, 0, "Apothecary", "Workshop", "Scientists Guild")
    stages(st, 0, 2)
    assert score(st, 0)["science"] == 1 + 1 + 4 + 7  # 1/1/2 with a set: wilds make the tablet pair


def test_olympia_b_copies_the_best_neighbour_guild_from_its_own_seat():
    """SW-WONDER-6 / SW-DEC-6: Olympia B stage 3 scores the best guild of a neighbour as if in the own city:
    Spies Guild counting Olympia's own neighbours' red cards."""
    st = position(3, boards=("Olympia",), sides="B")
    stages(st, 0, 3)
    build(st, 1, "Spies Guild", "Barracks", "Stockade")
    build(st, 2, "Guard Tower")
    assert score(st, 0)["guilds"] == 3  # seat 0's neighbours hold 3 red cards
    other = Rules(olympia_copy_from_copier_seat=False).to_array()
    assert score(st, 0, other)["guilds"] == 1  # from seat 1: its neighbours 0 and 2 hold 1 red card


def test_babel_tiles_score_2_5_10():
    """BABEL-SCORE-1: 1/2/3 tiles built score 2/5/10; nothing with the module off."""
    st = position(3)
    for k, vp in enumerate((0, 2, 5, 10)):
        st.tiles_built[0] = k
        assert score(st, 0)["babel"] == vp
    assert score(st, 0, Rules(babel_tower=False).to_array())["babel"] == 0


def test_ranking_keys_break_ties_by_coins():
    """SW-END-1 / SW-END-2: totals sum the categories; equal totals are ranked by coins left."""
    st = position(3, coins=0)
    st.coins[:] = [5, 3, 4]  # treasury 1/1/1
    keys = np.zeros((3, 2), dtype=np.int64)
    rank_keys(st, DATA, R, keys, np.zeros(N_SC, dtype=np.int64))
    assert keys[:, 0].tolist() == [1, 1, 1] and keys[:, 1].tolist() == [5, 3, 4]


def test_per_element_scopes():
    """SW-COM-1: Vineyard counts brown cards in the own and both neighbours' cities."""
    st = position(3)
    build(st, 0, "Lumber Yard")
    build(st, 1, "Stone Pit", "Clay Pool")
    build(st, 2, "Ore Vein")
    assert per_element(st, DATA, 0, card("Vineyard")) == 4
