"""Tower of Babel on hand-built positions: the tile draft, placement, activity and every tile's effect
(BABEL-SETUP-*, BABEL-ACT-*, BABEL-PLACE-*, BABEL-ACTIVE-*, BABEL-TILE-1..24, BABEL-TRADE-1, BABEL-SCORE-1)."""

import numpy as np
import pytest

from sim.seven_wonders.babel import (deal_tiles, keep_tile, pass_tiles_right, place_due_tiles, refresh_tiles,
                                     tile_draft_options)
from sim.seven_wonders.data import RES
from sim.seven_wonders.payment import cheapest_trade, set_need, unit_price
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.state import GS
from sim.seven_wonders.turn import ACT, MODE, end_turn, stage_cost, structure_cost
from sim.seven_wonders.position import DATA, build, card, give_hand, options, play, position, stages

R = Rules().to_array()
BUILD, STAGE, SELL, TILE = ACT.build, ACT.stage, ACT.sell, ACT.tile


def activate(st, *numbers, rules=R):
    """Tiles (printed numbers) face up in slots 0.., then refreshed."""
    st.babel_slot[:] = -1
    for k, t in enumerate(numbers):
        st.babel_slot[k] = t - 1
    st.g[GS.babel_next] = len(numbers) % DATA.babel_slots[st.g[GS.n]]
    refresh_tiles(st, DATA, rules)


def cost(st, p, name, mode=MODE.pay, rules=R):
    """(bank coins, resource need) of building ``name`` for p."""
    coins = structure_cost(st, DATA, rules, p, card(name), mode, 0)
    return coins, st.need.copy()


def trade(st, p, **units):
    v = np.zeros(7, dtype=np.int64)
    for k, n in units.items():
        v[getattr(RES, k)] = n
    set_need(st, v)
    return cheapest_trade(st, R, p, 0)


def test_tile_draft_keep_one_pass_right_twice():
    """BABEL-SETUP-2 / BABEL-SETUP-3: 3 tiles dealt each; keep 1 and pass 2 to the right; keep 1 of the 2 received from
    the left
    and pass the last right; take the one received. Everyone ends with 3 different tiles."""
    st = position(4, seed=3)
    deal_tiles(st, R)
    dealt = st.tile_pool.copy()
    assert len(set(dealt.ravel())) == 12
    assert tile_draft_options(st, 0) == 3
    for p in range(4):
        keep_tile(st, p, 0)
    pass_tiles_right(st)
    assert set(st.tile_pool[0][st.tile_pool[0] >= 0]) == set(dealt[1, 1:])  # from the left (seat 1)
    for p in range(4):
        assert tile_draft_options(st, p) == 2
        keep_tile(st, p, int(st.options[0, 0]))
    pass_tiles_right(st)
    assert (st.tiles >= 0).all() and len(set(st.tiles.ravel())) == 12
    assert (st.tile_pool < 0).all()


def test_placement_order_and_covering_follow_the_rulebook_example():
    """BABEL-PLACE-2 / BABEL-PLACE-3 (the rulebook's example): three tiles placed on the 4-slot board; tiles 4 and 12
    built in
    the same turn are placed in number order: 4 fills the last free slot, 12 covers the first tile placed."""
    st = position(5)
    for t in (7, 20, 1):
        st.tile_due[0] = 1 << (t - 1)
        place_due_tiles(st, DATA, R)
    st.tile_due[3] = 1 << 11
    st.tile_due[1] = 1 << 3
    place_due_tiles(st, DATA, R)
    assert st.babel_slot.tolist() == [11, 19, 0, 3]
    assert st.tile_on[6] == 0 and st.tile_on[11] == 1 and st.tile_on.sum() == 4


def test_three_active_tiles_up_to_four_players_four_from_five():
    """BABEL-SETUP-1 / BABEL-ACTIVE-1: the 4th tile placed at 4 players covers the 1st; at 5 it does not."""
    for n, active in ((4, 3), (5, 4)):
        st = position(n)
        for t in (1, 2, 3, 4):
            st.tile_due[0] = 1 << (t - 1)
            place_due_tiles(st, DATA, R)
        assert st.tile_on.sum() == active and st.tile_on[0] == (n == 5)


def test_the_tile_action_discards_the_card_for_a_tile_placed_at_turn_end():
    """BABEL-ACT-1 / BABEL-ACT-2, BABEL-ACTIVE-2, BABEL-SCORE-1: the card goes to the discard pile for no coins; the
    tile
    is placed at the end of the turn and binds nobody during it; 3 tiles at most; module off = no tile action."""
    st = position(3, coins=0)
    st.tiles[0] = [1, 5, 8]  # tiles 2, 6, 9
    give_hand(st, 0, "Altar")
    give_hand(st, 1, "Stockade")  # needs a wood nobody has: tile 2 would waive it, but not this turn
    assert (BUILD, 0, MODE.pay, 0) not in options(st, 1)
    play(st, {0: (TILE, 0, 0, 0)})
    assert st.coins[0] == 0 and st.g[GS.discard_n] == 1 and st.tiles_built[0] == 1 and st.tile_on[1] == 0
    end_turn(st, DATA, R)
    assert st.tile_on[1] == 1
    give_hand(st, 1, "Stockade")
    assert (BUILD, 0, MODE.pay, 0) in options(st, 1)
    st.tile_built[0] = 1
    give_hand(st, 0, "Altar")
    assert all(o[0] != TILE for o in options(st, 0))
    st.tile_built[0] = [1, 0, 0]
    assert all(o[0] != TILE for o in options(st, 0, Rules(babel_tower=False)))


@pytest.mark.parametrize("tile, name, stage", [(1, "Stockade", False), (6, "Altar", False), (16, None, True)])
def test_tax_tiles_charge_the_age_value_for_their_build(tile, name, stage):
    """BABEL-TILE-1 / BABEL-TILE-6 / BABEL-TILE-16, SW-DEC-14: tile 1 taxes red structures, 6 blue ones, 16 Wonder
    stages: the Age value
    to the bank; other builds are untaxed."""
    st = position(3)
    st.g[GS.age] = 2
    activate(st, tile)
    if stage:
        assert stage_cost(st, DATA, R, 0, 0) == 2
        assert cost(st, 0, "Altar")[0] == 0
    else:
        assert cost(st, 0, name)[0] == 2
        assert cost(st, 0, "Tavern")[0] == 0
        assert stage_cost(st, DATA, R, 0, 0) == 0


def test_tile_13_taxes_chain_builds_only_and_unpayable_taxes_make_the_build_illegal():
    """BABEL-TILE-13 / SW-DEC-9: a chain build pays the Age value; paying the printed cost instead is untaxed; a
    player who cannot pay the tax cannot chain."""
    st = position(3, coins=0)
    st.g[GS.age] = 2
    build(st, 0, "Baths", "Quarry")
    activate(st, 13)
    assert cost(st, 0, "Aqueduct", MODE.chain)[0] == 2 and cost(st, 0, "Aqueduct")[0] == 0
    give_hand(st, 0, "Aqueduct")
    opts = options(st, 0)
    assert (BUILD, 0, MODE.chain, 0) not in opts and (BUILD, 0, MODE.pay, 0) in opts


def test_literal_tax_reading_taxes_every_build_once_per_tile():
    """SW-DEC-14 ``tax_tiles_literal``: every active tax tile taxes every structure and stage (here 2 tiles)."""
    rules = Rules(tax_tiles_literal=True).to_array()
    st = position(3)
    st.g[GS.age] = 3
    activate(st, 1, 6, rules=rules)
    assert cost(st, 0, "Tavern", rules=rules)[0] == 6
    assert stage_cost(st, DATA, rules, 0, 0) == 6


def test_tile_2_waives_red_resources_and_tile_15_stage_resources():
    """BABEL-TILE-2 / BABEL-TILE-15 / SW-DEC-15: red structures and Wonder stages without their resource cost
    (coins in a cost stay due); the swap switch exchanges the two effects."""
    st = position(3)
    st.g[GS.age] = 3
    activate(st, 2)
    assert cost(st, 0, "Arsenal")[1].sum() == 0 and cost(st, 0, "Palace")[1].sum() == 7
    stage_cost(st, DATA, R, 0, 0)
    assert st.need.sum() == 2
    activate(st, 15)
    stage_cost(st, DATA, R, 0, 0)
    assert st.need.sum() == 0 and cost(st, 0, "Arsenal")[1].sum() == 4
    swapped = Rules(tiles_2_15_swapped=True).to_array()
    activate(st, 2, rules=swapped)
    stage_cost(st, DATA, swapped, 0, 0)
    assert st.need.sum() == 0 and cost(st, 0, "Arsenal", rules=swapped)[1].sum() == 4


def test_tile_3_silences_double_and_two_type_brown_cards():
    """BABEL-TILE-3 / SW-DEC-16: Sawmill and Timber Yard yield nothing for the owner nor for sale; a Lumber Yard
    still works; they can still be built."""
    st = position(3, boards=("Babylon", "Ephesos", "Alexandria"))
    build(st, 0, "Sawmill", "Timber Yard", "Lumber Yard")
    activate(st, 3)
    assert trade(st, 0, wood=1) == 0 and trade(st, 0, wood=2) == -1 and trade(st, 0, stone=1) == -1
    assert trade(st, 1, wood=2) == -1 and trade(st, 1, wood=1) == 2
    give_hand(st, 1, "Sawmill")
    st.g[GS.age] = 2
    assert (BUILD, 0, MODE.pay, 0) in options(st, 1)


def test_tile_4_suspends_trading_cards_but_not_their_chains():
    """BABEL-TILE-4 / SW-DEC-16: no Trading Post discount, no Forum production; Forum still chains from a Trading
    Post."""
    st = position(3, boards=("Babylon",))
    build(st, 0, "East Trading Post", "Marketplace", "Caravansery")
    activate(st, 4)
    assert unit_price(st, R, 0, 1, RES.stone) == 2 and unit_price(st, R, 0, 0, RES.glass) == 2
    assert trade(st, 0, wood=1) == -1
    st.g[GS.age] = 2
    assert cost(st, 0, "Forum", MODE.chain)[0] == 0


@pytest.mark.parametrize("tile, name, age, coins", [(5, "Altar", 1, 1), (5, "Temple", 2, 2), (24, "Workers Guild", 3,
5)])
def test_subsidy_tiles_pay_on_the_build(tile, name, age, coins):
    """BABEL-TILE-5 / BABEL-TILE-24: a blue structure earns the Age value, a guild 5 coins, from the bank."""
    st = position(3, coins=20)
    st.g[GS.age] = age
    st.prod[0] = 5
    activate(st, tile)
    st.prod[0] = 5
    give_hand(st, 0, name)
    before = st.coins[0]
    play(st, {0: (BUILD, 0, MODE.pay, 0)})
    assert st.coins[0] == before + coins


def test_tile_14_pays_chain_builds_and_tile_7_chains_from_neighbours():
    """BABEL-TILE-7 / BABEL-TILE-14 / SW-DEC-11: a School next door lets Academy be chained (the rulebook's example);
    the chain build earns the Age value under tile 14, unless the switch says a neighbour chain is no chain."""
    for counts, coins in ((True, 3), (False, 0)):
        rules = Rules(neighbour_chain_counts_as_chain=counts)
        st = position(3, coins=0, rules=rules)
        st.g[GS.age] = 3
        build(st, 1, "School")
        give_hand(st, 0, "Academy")
        assert (BUILD, 0, MODE.chain, 0) not in options(st, 0, rules)
        activate(st, 7, 14, rules=rules.to_array())
        play(st, {0: (BUILD, 0, MODE.chain, 0)}, rules)
        assert st.coins[0] == coins


def test_tiles_8_and_23_replace_resources_by_coins():
    """BABEL-TILE-8 / BABEL-TILE-23: Pantheon = 6 coins, Traders Guild = 3 coins to the bank, no resources; a
    chain build stays free; Olympia's free build stays free (SW-DEC-10)."""
    st = position(3, coins=10)
    st.g[GS.age] = 3
    activate(st, 8, 23)
    coins, need = cost(st, 0, "Pantheon")
    assert coins == 6 and need.sum() == 0
    assert cost(st, 0, "Traders Guild")[0] == 3
    build(st, 0, "Temple")
    assert cost(st, 0, "Pantheon", MODE.chain)[0] == 0
    st2 = position(3, boards=("Olympia",), coins=0)
    stages(st2, 0, 2)
    st2.g[GS.age] = 3
    activate(st2, 8)
    assert cost(st2, 0, "Palace", MODE.olympia)[0] == 0
    strict = Rules(coin_tiles_spare_free_builds=False).to_array()
    assert structure_cost(st2, DATA, strict, 0, card("Palace"), MODE.olympia, 0) == 7


@pytest.mark.parametrize("tile, res, delta", [(9, RES.glass, -1), (10, RES.loom, 1), (11, RES.ore, -1),
                                              (12, RES.wood, 1)])
def test_price_tiles_change_the_unit_price(tile, res, delta):
    """BABEL-TILE-9 / BABEL-TILE-10 / BABEL-TILE-11 / BABEL-TILE-12 / BABEL-TRADE-1: manufactured (9, 10) or raw (11,
    12) units cost 1 less or more."""
    st = position(3)
    activate(st, tile)
    assert unit_price(st, R, 0, 0, res) == 2 + delta
    other = RES.wood if res >= 4 else RES.glass
    assert unit_price(st, R, 0, 0, other) == 2


def test_free_resource_tiles_give_one_unit_each_for_the_owner_only():
    """BABEL-TILE-17 / BABEL-TILE-18 / BABEL-TILE-21: one wood-or-stone, one ore-or-clay, one manufactured unit per
    turn for each player,
    not sellable."""
    st = position(3, boards=("Babylon", "Babylon", "Babylon"))
    activate(st, 17, 18, 21)
    assert trade(st, 0, wood=1, ore=1, loom=1) == 0
    assert trade(st, 0, wood=1, stone=1) == -1  # tile 17 gives one of the two, and nobody sells stone
    assert trade(st, 0, wood=1, clay=2, loom=1) == 0 and trade(st, 0, clay=3) == 2
    assert trade(st, 0, ore=2) == -1 and trade(st, 0, glass=2) == -1  # the neighbours' free units are not for sale


def test_tile_20_makes_single_brown_cards_unlimited_and_sellable_per_unit():
    """BABEL-TILE-20 / SW-DEC-16: a Lumber Yard produces any number of wood, neighbours buy any number at the unit
    price; the board's own resource is not unlimited."""
    st = position(3)
    build(st, 1, "Lumber Yard")
    activate(st, 20)
    assert trade(st, 1, wood=5) == 0
    assert trade(st, 0, wood=4) == 8
    assert trade(st, 1, stone=2) == 2


def test_tiles_19_and_22_on_military():
    """BABEL-TILE-19 / BABEL-TILE-22 at an Age end: +3 becomes +1 and -1 becomes two -1 tokens."""
    from sim.seven_wonders.scoring import resolve_military
    st = position(3)
    build(st, 0, "Barracks")
    activate(st, 19, 22)
    resolve_military(st, DATA, R, 2)
    assert st.victory[0, 1] == 2 and st.defeat_n[1] == 2 and st.defeat_vp[2] == -2


def test_a_tile_built_in_the_last_turn_binds_the_age_end():
    """BABEL-PLACE-1 / BABEL-ACTIVE-2 / SW-DEC-13: tiles are placed at the very end of the turn, after income; a tile
    built in the Age's last turn is active for that Age's military (tile 22 doubles the Defeat token)."""
    from sim.seven_wonders.scoring import resolve_military
    st = position(3, coins=0)
    st.tiles[1] = [21, 0, 1]
    st.g[GS.turn] = 6
    build(st, 0, "Barracks")
    give_hand(st, 1, "Altar")
    play(st, {1: (TILE, 0, 0, 0)})
    assert st.tile_on[21] == 0 and st.coins[1] == 0
    end_turn(st, DATA, R)
    assert st.tile_on[21] == 1
    resolve_military(st, DATA, R, 1)
    assert st.defeat_n[1] == 2 and st.defeat_n[2] == 2


def test_two_tiles_of_one_player_in_one_turn_are_both_placed():
    """BABEL-PLACE-3 / SW-DEC-8: Babylon B builds a tile on turn 6 and another with its 7th card; both are placed at
    the end of the turn, in number order."""
    from sim.seven_wonders.turn import seventh_card_options
    st = position(5, boards=("Babylon",), sides="B")
    stages(st, 0, 2)
    st.tiles[0] = [20, 2, 9]
    st.g[GS.turn] = 6
    give_hand(st, 0, "Altar", "Theater")
    play(st, {0: (TILE, 0, 0, 0)})
    n = seventh_card_options(st, DATA, R, 0)
    assert (TILE, 0, 1, 0) in [tuple(st.options[i]) for i in range(n)]
    play(st, {0: (TILE, 0, 1, 0)})
    end_turn(st, DATA, R)
    assert st.babel_slot.tolist() == [2, 20, -1, -1] and st.tiles_built[0] == 2


def test_tile_3_and_4_switches():
    """SW-DEC-16: with ``tile3_blocks_sale`` off the owner still cannot use a Sawmill under tile 3 but a neighbour
    can buy its wood; with ``tile4_blocks_production`` off a Forum still produces under tile 4 (discounts stay off)."""
    rules = Rules(tile3_blocks_sale=False, tile4_blocks_production=False)
    r = rules.to_array()
    st = position(3, boards=("Babylon", "Ephesos", "Alexandria"), rules=rules)
    build(st, 0, "Sawmill", "Forum", "West Trading Post", rules=rules)
    activate(st, 3, 4, rules=r)
    set_need(st, np.array([1, 0, 0, 0, 0, 0, 0]))
    assert cheapest_trade(st, r, 0, 0) == -1
    set_need(st, np.array([2, 0, 0, 0, 0, 0, 0]))
    assert cheapest_trade(st, r, 2, 0) == 4  # seat 0 is seat 2's left neighbour
    set_need(st, np.array([0, 0, 0, 0, 0, 0, 1]))
    assert cheapest_trade(st, r, 0, 0) == 0
    assert unit_price(st, r, 0, 0, RES.wood) == 2
