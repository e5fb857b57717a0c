"""Great Projects on hand-built positions (BABEL-GP-1..16, BABEL-TILE-GP, SW-DEC-5/18/19/20/21/22/25/27)."""

import pytest

from sim.core.rng import seed_game
from sim.core.spec import Traced
from sim.core.state import M
from sim.core.trace import new_trace
from sim.seven_wonders import SPEC
from sim.seven_wonders.data import COL, PENALTY, RES
from sim.seven_wonders.engine import resolve_project
from sim.seven_wonders.events import EV
from sim.seven_wonders.projects import (UNBEARABLE, apply_penalty, give_rewards, penalty_options, project_succeeds,
                                        return_tokens, reveal_project)
from sim.seven_wonders.rules import MAX_VICTORY, Rules
from sim.seven_wonders.state import GS
from sim.seven_wonders.turn import ACT, MODE, PART_COLOUR, PART_WILD, structure_cost
from sim.seven_wonders.position import DATA, build, card, give_hand, options, play, position

R = Rules().to_array()
BUILD, STAGE = ACT.build, ACT.stage


def project(st, name):
    """Reveal the named project with N - 1 tokens."""
    st.g[GS.gp] = DATA.project_names.index(name)
    st.g[GS.gp_tokens] = DATA.gp_tokens[st.g[GS.n]]
    st.g[GS.gp_reserve] = 0


def test_one_random_project_per_age_with_n_minus_one_tokens():
    """BABEL-GP-1: each Age reveals a project of that Age with N - 1 tokens; the module off reveals none."""
    st = position(5, seed=2)
    seen = set()
    for seed in range(40):
        seed_game(st.rng, seed, 0)
        for age in (1, 2, 3):
            reveal_project(st, DATA, R, age)
            assert DATA.gp_age[st.g[GS.gp]] == age and st.g[GS.gp_tokens] == 4
            seen.add(int(st.g[GS.gp]))
    assert len(seen) == 15
    reveal_project(st, DATA, Rules(great_projects=False).to_array(), 1)
    assert st.g[GS.gp] == -1


def test_participation_needs_the_colour_and_adds_its_cost():
    """BABEL-GP-2 / BABEL-GP-3, SW-DEC-25 (the rulebook example): during River Port (yellow) a Forum built with one own
    and
    one bought clay may participate for 2 more coins to the bank and a loom, bought too; a red card may not."""
    st = position(3, boards=("Babylon", "Halikarnassus", "Babylon"), coins=7)
    st.g[GS.age] = 2
    project(st, "River Port")
    give_hand(st, 0, "Forum", "Glassworks")
    opts = options(st, 0)
    assert (BUILD, 0, MODE.pay, PART_COLOUR) in opts and (BUILD, 1, MODE.pay, PART_COLOUR) not in opts
    assert structure_cost(st, DATA, R, 0, card("Forum"), MODE.pay, PART_COLOUR) == 2
    assert st.need[RES.clay] == 2 and st.need[RES.loom] == 1
    play(st, {0: (BUILD, 0, MODE.pay, PART_COLOUR)})
    assert st.coins[0] == 7 - 2 - 2 - 2 and st.gp_part[0] == 1 and st.g[GS.gp_tokens] == 1
    alt = Rules(river_port_coins=1).to_array()
    assert structure_cost(st, DATA, alt, 1, card("Forum"), MODE.pay, PART_COLOUR) == 1


def test_participation_once_per_turn_not_with_stages_and_not_after_the_last_token():
    """BABEL-GP-5 / BABEL-GP-7 / BABEL-GP-8: a stage never participates; no token left -> no participation; once per
    turn."""
    st = position(3, boards=("Halikarnassus",), coins=9)
    project(st, "Cranes")  # green, 1 coin
    give_hand(st, 0, "Apothecary")
    assert (BUILD, 0, MODE.pay, PART_COLOUR) in options(st, 0)
    assert all(o[3] == 0 for o in options(st, 0) if o[0] == STAGE)
    st.gp_took[0] = 1
    assert (BUILD, 0, MODE.pay, PART_COLOUR) not in options(st, 0)
    st.gp_took[0] = 0
    st.g[GS.gp_tokens] = 0
    assert (BUILD, 0, MODE.pay, PART_COLOUR) not in options(st, 0)


def test_free_builds_still_pay_participation_and_own_new_production_does_not():
    """BABEL-GP-4 / SW-DEC-22: a chain build may participate but pays the participation cost (Obelisk: 1 coin and a
    papyrus, bought); the card being built never supplies its own participation resources (a Caravansery cannot
    provide the stone Rampart Road asks)."""
    st = position(3, boards=("Gizah", "Ephesos"), coins=3)
    st.g[GS.age] = 2
    project(st, "Obelisk")
    build(st, 0, "Baths")
    give_hand(st, 0, "Aqueduct")
    assert (BUILD, 0, MODE.chain, PART_COLOUR) in options(st, 0)
    assert structure_cost(st, DATA, R, 0, card("Aqueduct"), MODE.chain, PART_COLOUR) == 1
    st.coins[0] = 2
    opts = options(st, 0)
    assert (BUILD, 0, MODE.chain, PART_COLOUR) not in opts and (BUILD, 0, MODE.chain, 0) in opts
    st = position(3, boards=("Olympia", "Babylon", "Babylon"), coins=5)
    st.g[GS.age] = 2
    project(st, "Rampart Road")  # yellow, 1 coin + 1 stone
    build(st, 0, "Lumber Yard")
    give_hand(st, 0, "Caravansery")
    opts = options(st, 0)
    assert (BUILD, 0, MODE.pay, 0) in opts and (BUILD, 0, MODE.pay, PART_COLOUR) not in opts


def test_wild_token_lets_any_colour_participate_and_is_returned():
    """BABEL-GP-13 / SW-DEC-21: a wild token participates with a structure of another colour, the cost still
    paid, and is used up."""
    st = position(3, coins=5)
    project(st, "Cranes")
    st.gp_wild[0] = 1
    give_hand(st, 0, "Altar")
    opts = options(st, 0)
    assert (BUILD, 0, MODE.pay, PART_WILD) in opts and (BUILD, 0, MODE.pay, PART_COLOUR) not in opts
    play(st, {0: (BUILD, 0, MODE.pay, PART_WILD)})
    assert st.gp_wild[0] == 0 and st.gp_part[0] == 1 and st.coins[0] == 4


def test_reserve_tokens_when_several_take_the_last_and_the_project_succeeds():
    """BABEL-GP-6 / SW-DEC-20: two players take the last token in one turn: both get one (one from the reserve);
    the project succeeds; with ``gp_overflow_success`` off it fails."""
    st = position(3, boards=("Halikarnassus", "Alexandria"), coins=5)
    project(st, "Cranes")
    st.g[GS.gp_tokens] = 1
    give_hand(st, 0, "Apothecary")
    give_hand(st, 1, "Workshop")
    play(st, {0: (BUILD, 0, MODE.pay, PART_COLOUR), 1: (BUILD, 0, MODE.pay, PART_COLOUR)})
    assert st.gp_part.tolist() == [1, 1, 0] and st.g[GS.gp_tokens] == 0
    assert project_succeeds(st, R)
    assert not project_succeeds(st, Rules(gp_overflow_success=False).to_array())


@pytest.mark.parametrize("name, field, per_token", [
    ("Rampart Road", "coins", 4), ("Obelisk", "shields", 1), ("Belvedere", "gp_free_stage", 1),
    ("Cranes", "gp_free_build", 1), ("Factory", "gp_wild", 1), ("Archives", "gp_sci_set", 3),
    ("Menagerie", "gp_guild", 1), ("Smelter", "gp_wonder", 1)])
def test_success_rewards_each_token(name, field, per_token):
    """BABEL-GP-9 / BABEL-GP-13: on success each participant gets the reward once per token held; others nothing."""
    st = position(3, coins=0)
    project(st, name)
    st.g[GS.gp_tokens] = 0
    st.gp_part[:] = [2, 0, 1]
    give_rewards(st, DATA, R)
    assert getattr(st, field).tolist() == [2 * per_token, 0, per_token]


def test_victory_rewards_follow_tile_19():
    """BABEL-GP-13 / BABEL-TILE-GP (the rulebook's War Mirror example): 2 tokens -> two +3 Victory tokens; with tile
    19 active they become +1 tokens."""
    st = position(3)
    project(st, "War Mirror")
    st.gp_part[0] = 2
    give_rewards(st, DATA, R)
    assert st.victory[0, 3] == 2
    st.babel_slot[0] = 18
    give_rewards(st, DATA, R)
    assert st.victory[0, 1] == 2


def test_failure_penalises_only_players_without_tokens():
    """BABEL-GP-10 / BABEL-GP-14 (the rulebook's Archives example): tokens left -> failure; the participant gets
    nothing, the
    others lose a blue card of their choice (or nothing without one)."""
    st = position(3)
    project(st, "Archives")
    st.gp_part[0] = 2
    build(st, 1, "Altar", "Baths", "Tavern")
    assert not project_succeeds(st, R)
    n = penalty_options(st, DATA, R, 1)
    assert sorted(int(st.options[i, 0]) for i in range(n)) == [0, 1]
    apply_penalty(st, DATA, R, 1, 1, 3)
    assert st.color_n[1, COL.blue] == 1 and st.g[GS.removed_n] == 1
    assert penalty_options(st, DATA, R, 2) == 1 and st.options[0, 0] == -1  # no blue card: no effect


def test_lost_card_to_discard_switch():
    """SW-DEC-5: with ``gp_lost_card_to_discard`` the lost card goes onto the discard pile."""
    rules = Rules(gp_lost_card_to_discard=True).to_array()
    st = position(3)
    project(st, "Belvedere")  # lose a red card
    build(st, 1, "Barracks")
    penalty_options(st, DATA, rules, 1)
    apply_penalty(st, DATA, rules, 1, 0, 1)
    assert st.g[GS.discard_n] == 1 and st.discard[0] == card("Barracks") and st.shields[1] == 0


def test_coin_penalty_and_the_defeat_token_when_it_cannot_be_borne():
    """BABEL-GP-11 / BABEL-GP-14, SW-DEC-18 (the rulebook's Age II example): all coins go to the bank; with no coins
    the player
    takes a Defeat token of -2 in Age II instead; a fixed-amount switch makes too few coins unbearable."""
    st = position(3, coins=0)
    st.coins[0] = 5
    project(st, "River Port")
    penalty_options(st, DATA, R, 0)
    apply_penalty(st, DATA, R, 0, 0, 2)
    assert st.coins[0] == 0 and st.defeat_n[0] == 0
    assert penalty_options(st, DATA, R, 1) == 1 and st.options[0, 0] == UNBEARABLE
    apply_penalty(st, DATA, R, 1, 0, 2)
    assert (st.defeat_n[1], st.defeat_vp[1]) == (1, -2)
    fixed = Rules(gp_coin_penalty_fixed=4).to_array()
    st.coins[2] = 3
    penalty_options(st, DATA, fixed, 2)
    assert st.options[0, 0] == UNBEARABLE


def test_lose_victory_tokens_of_choice_and_too_few_held():
    """BABEL-GP-14 / SW-DEC-27: Triumphal Arches takes 2 Victory tokens of the owner's choice; holding one, it cannot
    be borne (-3 Defeat token in Age III), or with ``gp_partial_victory_loss`` he loses the one."""
    st = position(3)
    project(st, "Triumphal Arches")
    st.victory[0, 1] = 1
    st.victory[0, 5] = 2
    n = penalty_options(st, DATA, R, 0)
    assert sorted((int(st.options[i, 0]), int(st.options[i, 1])) for i in range(n)) == [(1, 5), (5, 5)]
    apply_penalty(st, DATA, R, 0, [tuple(st.options[i, :2]) for i in range(n)].index((1, 5)), 3)
    assert st.victory[0].tolist() == [0, 0, 0, 0, 0, 1] + [0] * (MAX_VICTORY - 5)
    st.victory[1, 3] = 1
    penalty_options(st, DATA, R, 1)
    apply_penalty(st, DATA, R, 1, 0, 3)
    assert st.victory[1, 3] == 1 and st.defeat_vp[1] == -3
    partial = Rules(gp_partial_victory_loss=True).to_array()
    penalty_options(st, DATA, partial, 1)
    apply_penalty(st, DATA, partial, 1, 0, 3)
    assert st.victory[1, 3] == 0 and st.defeat_vp[1] == -3


def test_lose_board_resource_and_a_second_time():
    """BABEL-GP-14 / SW-DEC-19: the board's resource is gone for its owner and for sale; a second such penalty
    cannot be borne -> Defeat token (-1 in Age I, doubled by tile 22: BABEL-TILE-GP)."""
    st = position(3)
    project(st, "Double Walls")
    penalty_options(st, DATA, R, 1)
    apply_penalty(st, DATA, R, 1, 0, 1)
    assert st.prod[1, RES.stone] == 0 and st.sell[1, RES.stone] == 0 and st.board_lost[1] == 1
    st.babel_slot[0] = 21
    penalty_options(st, DATA, R, 1)
    assert st.options[0, 0] == UNBEARABLE
    apply_penalty(st, DATA, R, 1, 0, 1)
    assert (st.defeat_n[1], st.defeat_vp[1]) == (2, -2)


def test_tokens_return_after_resolution():
    """BABEL-GP-12 / BABEL-GP-15: participation tokens go back at the end of the Age; reward tokens stay."""
    st = position(3)
    project(st, "Obelisk")
    st.gp_part[:] = [1, 1, 0]
    st.g[GS.gp_tokens] = 0
    give_rewards(st, DATA, R)
    return_tokens(st)
    assert st.gp_part.sum() == 0 and st.g[GS.gp] == -1 and st.shields.tolist() == [1, 1, 0]


def test_both_victory_tokens_lost_are_traced_and_replayed():
    """BABEL-GP-14 / SW-DEC-27: Triumphal Arches fails; seat 0 gives up his +1 and +5 Victory tokens, and the trace
    and the replay show both (seats 1 and 2 hold none: a Defeat token each)."""
    st = position(3, trace=new_trace(100))
    st.g[GS.age] = 3
    project(st, "Triumphal Arches")
    st.victory[0, 1] = 1
    st.victory[0, 5] = 1
    resolve_project(st, DATA)
    assert st.victory[0].sum() == 0
    events = st.trace[: st.meta[M.events]].copy()
    penalties = events[events[:, 2] == EV.penalty]
    assert penalties[:, [1, 3, 4, 5]].tolist() == [[0, PENALTY.lose_victory_token, 1, 5],
                                                   [1, PENALTY.lose_victory_token, UNBEARABLE, 0],
                                                   [2, PENALTY.lose_victory_token, UNBEARABLE, 0]]
    text = SPEC.render(Traced(events, st.games, st.players, st, DATA, Rules(), ["random"] * 3, 0, 0))
    assert "seat 0 (random) loses Victory tokens worth 1 and 5" in text
