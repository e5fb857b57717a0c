"""Drafting and the uses of a card on hand-built positions (SW-SETUP-2 / SW-SETUP-3, SW-TURN-*, SW-ACT-*, SW-CHAIN-*,
SW-COM-1, SW-WONDER-1..5)."""

import numpy as np
import pytest

from sim.seven_wonders.data import COL
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.state import GS
from sim.seven_wonders.turn import (ACT, MODE, apply_discard_build, deal_age, discard_build_options,
                                    discard_last_cards, end_turn, is_legal, pass_hands, seventh_card_options,
                                    seventh_card_seats)
from sim.seven_wonders.position import DATA, build, card, give_hand, options, play, position, stages

R = Rules().to_array()
BUILD, STAGE, SELL, TILE = ACT.build, ACT.stage, ACT.sell, ACT.tile


@pytest.mark.parametrize("n", [3, 5, 7])
def test_each_age_deals_seven_cards_from_the_right_deck(n):
    """SW-SETUP-2 / SW-SETUP-3: 7 cards to each player from the Age's deck; Age III holds N + 2 guilds."""
    st = position(n, seed=n)
    for age in (1, 2, 3):
        deal_age(st, DATA, R, age)
        dealt = st.hand[:n].ravel()
        assert (st.hand_n == 7).all() and (dealt >= 0).all()
        assert set(DATA.card_age[dealt]) == {age}
        counts = np.bincount(dealt, minlength=len(DATA.card_names))
        guild = DATA.card_color == COL.purple
        assert (counts[~guild] == np.where(DATA.card_age[~guild] == age, DATA.card_copies[~guild, n], 0)).all()
        assert counts[guild].sum() == (n + 2 if age == 3 else 0) and counts[guild].max() <= 1


def test_hands_pass_left_in_ages_one_and_three_right_in_two():
    """SW-TURN-2: left = to seat p + 1 (Age I, III); right = to seat p - 1 (Age II)."""
    st = position(4)
    st.hand[:, 0] = [10, 11, 12, 13]
    pass_hands(st, 0)
    assert st.hand[:, 0].tolist() == [13, 10, 11, 12]
    pass_hands(st, 1)
    pass_hands(st, 1)
    assert st.hand[:, 0].tolist() == [11, 12, 13, 10]
    st.g[GS.age] = 2
    st.g[GS.turn] = 1
    end_turn(st, DATA, R)
    assert st.hand[:, 0].tolist() == [12, 13, 10, 11]


def test_same_name_twice_is_never_legal():
    """SW-ACT-4: with an Age I Loom in the city, an Age II Loom can only be sold or used for a stage."""
    st = position(3)
    build(st, 0, "Loom")
    st.g[GS.age] = 2
    give_hand(st, 0, "Loom")
    assert {o[0] for o in options(st, 0)} <= {STAGE, SELL, TILE}
    assert not is_legal(st, DATA, R, 0, BUILD, 0, MODE.pay, 0)


def test_sell_pays_three_coins_after_the_turn_and_income_is_not_spendable_the_same_turn():
    """SW-ACT-3 / SW-TURN-4 / SW-DEC-2: selling gives 3 coins at the end of the turn; a neighbour's payment also
    arrives after all payments, so it cannot fund the receiver's own purchase that turn (legality is judged on the
    start-of-turn state)."""
    st = position(3, coins=0)
    st.coins[1] = 2
    build(st, 2, "Lumber Yard")
    give_hand(st, 0, "Altar")
    give_hand(st, 1, "Stockade")
    give_hand(st, 2, "Baths", "Clay Pit")  # Baths: Gizah's own stone; Clay Pit: 1 coin, and seat 2 has none
    assert (BUILD, 1, MODE.pay, 0) not in options(st, 2)  # the 2 coins seat 1 pays it arrive too late
    play(st, {0: (SELL, 0, 0, 0), 1: (BUILD, 0, MODE.pay, 0), 2: (BUILD, 0, MODE.pay, 0)})
    assert st.coins.tolist() == [3, 0, 2]


def test_chain_builds_free_and_paying_stays_legal():
    """SW-CHAIN-1: with Baths in the city the Aqueduct (3 stone) is free; paying instead is another option."""
    st = position(3, coins=0)
    build(st, 0, "Baths", "Quarry")
    st.g[GS.age] = 2
    give_hand(st, 0, "Aqueduct")
    opts = options(st, 0)
    assert (BUILD, 0, MODE.chain, 0) in opts and (BUILD, 0, MODE.pay, 0) in opts
    give_hand(st, 1, "Aqueduct")
    assert (BUILD, 0, MODE.chain, 0) not in options(st, 1)  # no Baths, and no tile 7


def test_card_coin_costs_go_to_the_bank_and_purchases_to_the_neighbour():
    """SW-COST-1 / SW-TRADE-1: a Clay Pit costs 1 coin to the bank; a bought stone pays the seller 2 coins."""
    st = position(3, coins=3)
    give_hand(st, 0, "Clay Pit")
    give_hand(st, 1, "Baths")
    st.wonder[1] = 1  # Babylon: no stone; buys from seat 2 (left) or seat 0 (right), both Gizah
    from sim.seven_wonders.position import refresh
    refresh(st)
    play(st, {0: (BUILD, 0, MODE.pay, 0), 1: (BUILD, 0, MODE.pay, 0)})
    assert st.coins[0] + st.coins[2] == 3 - 1 + 3 + 2 and st.coins[1] == 1


def test_vineyard_counts_cards_placed_the_same_turn():
    """SW-COM-1 / SW-DEC-3: Vineyard counts the brown cards of the own and both neighbours' cities after all of the
    turn's cards are placed; with ``commerce_counts_after_placement`` off, before."""
    for after, coins in ((True, 3 + 3), (False, 3 + 2)):
        rules = Rules(commerce_counts_after_placement=after)
        st = position(3, rules=rules)
        build(st, 0, "Lumber Yard")
        build(st, 1, "Stone Pit")
        st.g[GS.age] = 2
        give_hand(st, 0, "Vineyard")
        give_hand(st, 1, "Sawmill")
        play(st, {0: (BUILD, 0, MODE.pay, 0), 1: (BUILD, 0, MODE.pay, 0)}, rules)
        assert st.coins[0] == coins


def test_tavern_gives_five_coins():
    """SW-COM-1: Tavern +5 coins."""
    st = position(4)
    give_hand(st, 0, "Tavern")
    play(st, {0: (BUILD, 0, MODE.pay, 0)})
    assert st.coins[0] == 8


def test_stages_in_order_each_once_with_their_effects():
    """SW-WONDER-1 / SW-WONDER-2 / SW-ACT-2: stages are built in order and only as many as printed (Rhodos B: 2);
    Rhodos B's
    stages give coins, shields and VP; the tucked card leaves the hand."""
    st = position(3, boards=("Rhodos",), sides="B", coins=10)
    build(st, 0, "Quarry", "Stone Pit", "Foundry", "Ore Vein")
    give_hand(st, 0, "Altar", "Theater")
    play(st, {0: (STAGE, 0, 0, 0)})
    assert (st.stages[0], st.coins[0], st.shields[0], st.hand_n[0]) == (1, 13, 1, 1)
    play(st, {0: (STAGE, 0, 0, 0)})
    assert (st.stages[0], st.coins[0], st.shields[0]) == (2, 17, 2)
    give_hand(st, 0, "Altar")
    assert all(o[0] != STAGE for o in options(st, 0))


def test_olympia_builds_one_structure_free_per_age():
    """SW-WONDER-3: Olympia A stage 2 lets a structure be built without its cost once per Age."""
    st = position(3, boards=("Olympia",), sides="A", coins=0)
    stages(st, 0, 2)
    give_hand(st, 0, "Palace")
    st.g[GS.age] = 3
    assert (BUILD, 0, MODE.olympia, 0) in options(st, 0)
    play(st, {0: (BUILD, 0, MODE.olympia, 0)})
    give_hand(st, 0, "Senate")
    assert (BUILD, 0, MODE.olympia, 0) not in options(st, 0)
    st.g[GS.age] = 4  # a new Age (any other Age value) restores it
    assert (BUILD, 0, MODE.olympia, 0) in options(st, 0)


def test_halikarnassos_builds_from_the_whole_discard_pile_for_free():
    """SW-WONDER-4: the stage's end-of-turn effect builds any card of the discard pile for free, never one the
    player holds (SW-ACT-4); declining is allowed."""
    st = position(3, boards=("Halikarnassus",), sides="B", coins=0)
    build(st, 0, "Altar")
    st.prod[0, 3] = 2
    for name in ("Palace", "Altar", "Palace"):
        st.discard[st.g[GS.discard_n]] = card(name)
        st.g[GS.discard_n] += 1
    give_hand(st, 0, "Theater")
    play(st, {0: (STAGE, 0, 0, 0)})
    assert st.pending[0] == 1
    n = discard_build_options(st, DATA, R, 0)
    rows = [tuple(st.options[i]) for i in range(n)]
    assert rows[0][0] == -1 and len(rows) == 2  # decline, or one Palace (Altar held; copies once)
    apply_discard_build(st, DATA, R, 0, 1)
    assert card("Palace") in st.city[0, : st.city_n[0]] and st.coins[0] == 0 and st.g[GS.discard_n] == 2
    assert st.pending[0] == 0


def test_babylon_b_plays_the_seventh_card():
    """SW-WONDER-5 / SW-TURN-3: with Babylon B stage 2, the last card of the Age may be used instead of being
    discarded; everybody else's last card is discarded without coins."""
    st = position(3, boards=("Babylon",), sides="B", coins=0)
    stages(st, 0, 2)
    st.g[GS.turn] = 6
    for p in range(3):
        give_hand(st, p, "Tavern")
    assert seventh_card_seats(st, DATA) == 1
    n = seventh_card_options(st, DATA, R, 0)
    assert (BUILD, 0, MODE.pay, 0) in [tuple(st.options[i]) for i in range(n)]
    play(st, {0: (BUILD, 0, MODE.pay, 0)})
    discard_last_cards(st)
    assert st.coins.tolist() == [5, 0, 0] and st.g[GS.discard_n] == 2


@pytest.mark.parametrize("sees", [True, False])
def test_halikarnassos_on_turn_six_may_take_the_discarded_last_cards(sees):
    """SW-DEC-4 / SW-TURN-3: a stage built on turn 6 resolves after the last cards are discarded, so Halikarnassos
    may build one of them; with ``halikarnassos_sees_last_discards`` off it may not."""
    rules = Rules(halikarnassos_sees_last_discards=sees)
    r = rules.to_array()
    st = position(3, boards=("Halikarnassus",), sides="B", coins=0, rules=rules)
    st.prod[0, 3] = 2
    st.g[GS.turn] = 6
    give_hand(st, 0, "Altar", "Tavern")
    give_hand(st, 1, "Theater", "Baths")
    play(st, {0: (STAGE, 0, 0, 0), 1: (SELL, 0, 0, 0)}, rules)
    discard_last_cards(st)
    n = discard_build_options(st, DATA, r, 0)
    names = {DATA.card_names[st.discard[st.options[i, 1]]] for i in range(1, n)}
    assert ("Tavern" in names) == sees and "Theater" in names


def test_babylon_seventh_card_may_build_a_babel_tile():
    """SW-DEC-8: Babylon B's 7th card may be used for any of the four actions, a Babel tile included; with
    ``seventh_card_any_action`` off the tile is not offered."""
    st = position(3, boards=("Babylon",), sides="B")
    stages(st, 0, 2)
    st.tiles[0] = [4, 9, 14]
    st.g[GS.turn] = 6
    give_hand(st, 0, "Altar")
    n = seventh_card_options(st, DATA, R, 0)
    assert any(st.options[i, 0] == TILE for i in range(n))
    n = seventh_card_options(st, DATA, Rules(seventh_card_any_action=False).to_array(), 0)
    assert n > 0 and not any(st.options[i, 0] == TILE for i in range(n))


def test_setup_deals_distinct_boards_sides_coins_and_tiles():
    """SW-SETUP-1 / BABEL-SETUP-2: a different board per seat, sides all A, all B or random per player, 3 coins
    each; with the Tower, 3 different tiles dealt to each seat for the draft."""
    from sim.seven_wonders.setup import setup_game
    for sides in (0, 1, 2):
        rules = Rules(wonder_sides=sides)
        st = position(7, seed=sides, rules=rules)
        setup_game(st, DATA, rules.to_array())
        assert sorted(st.wonder.tolist()) == list(range(7)) and (st.coins == 3).all()
        if sides < 2:
            assert (st.side == sides).all()
        else:
            assert 0 < st.side.sum() < 7
        assert len(set(st.tile_pool.ravel())) == 21 and (st.tile_pool >= 0).all()


def test_equal_cost_purchases_pay_the_neighbour_with_fewer_vp():
    """SW-DEC-1: both neighbours sell stone at 2; the one with fewer VP is paid (then the left one); with
    ``trade_tie_prefers_fewer_vp`` off, always the left one."""
    from sim.seven_wonders.turn import prefer_side
    st = position(3)
    st.vp_now[:] = [0, 5, 2]  # left of 0 is seat 1, right is seat 2
    assert prefer_side(st, R, 0) == 1
    assert prefer_side(st, Rules(trade_tie_prefers_fewer_vp=False).to_array(), 0) == 0
    st.vp_now[:] = [0, 2, 2]
    assert prefer_side(st, R, 0) == 0
    give_hand(st, 0, "Baths", "Altar")
    st.vp_now[:] = [0, 5, 2]
    st.prod[0, 1] = 0  # no own stone: one must be bought
    st.wonder[0] = 1
    from sim.seven_wonders.position import refresh
    refresh(st)
    play(st, {0: (BUILD, 0, MODE.pay, 0)})
    assert st.coins.tolist() == [1, 3, 5]


def test_halikarnassos_purchases_are_paid_recorded_and_traced():
    """SW-WONDER-4 / SW-TRADE-1 / BABEL-GP-4: Halikarnassos builds Stockade from the discard pile and joins War Mirror
    (2 coins + a glass): the glass is bought from the left neighbour (Alexandria) for 2. The coins move, the records
    count them (traded_out / traded_in) and the trace shows the build's coins and the purchase, as for a pick."""
    from sim.core.policy import Strategy, StrategyRegistry
    from sim.core.state import M
    from sim.core.trace import new_trace
    from sim.seven_wonders import SPEC
    from sim.seven_wonders.engine import halikarnassos
    from sim.seven_wonders.events import EV
    from sim.seven_wonders.state import ST

    joiner = Strategy("joiner", "", weights={"halikarnassos": {"ha_part": 10.0, "ha_decline": -10.0}})
    table = StrategyRegistry("seven_wonders", SPEC.schema, [joiner]).table(["joiner"])
    st = position(3, boards=("Halikarnassus", "Alexandria", "Gizah"), coins=5, table=table, trace=new_trace(50))
    st.g[GS.age] = 2
    st.g[GS.gp] = DATA.project_names.index("War Mirror")
    st.g[GS.gp_tokens] = 2
    st.discard[0] = card("Stockade")
    st.g[GS.discard_n] = 1
    st.pending[0] = 1
    halikarnassos(st, DATA, 0)
    assert st.city[0, st.city_n[0] - 1] == card("Stockade") and st.gp_part[0] == 1
    assert st.coins[:3].tolist() == [1, 7, 5]  # 5 each: 2 to the bank, 2 to the left
    assert st.stat[0, ST.traded_out] == 2 and st.stat[1, ST.traded_in] == 2 and st.stat[2, ST.traded_in] == 0
    events = st.trace[: st.meta[M.events], 1:6].tolist()
    assert events == [[0, EV.hali, card("Stockade"), 1, 4], [0, EV.trade, 2, 0, 0]]
