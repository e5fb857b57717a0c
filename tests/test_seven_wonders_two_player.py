"""The 2-player variant with the Free City (SW-2P-1 to SW-2P-5, SW-DEC-26, SW-DEC-17, BABEL-2P-1, BABEL-GP-16):
hand-built positions driving the kernel functions, and invariants over many checked 2-player games."""

from functools import lru_cache

import numpy as np
import pytest

from sim.core import play as protocol
from sim.core.policy import Strategy, StrategyRegistry
from sim.seven_wonders import SPEC, free_city
from sim.seven_wonders.babel import place_tile
from sim.seven_wonders.data import COL
from sim.seven_wonders.engine import play_turn, resolve_project
from sim.seven_wonders.payment import neighbour
from sim.seven_wonders.position import DATA, build, card, give_hand, position, stages, wonder
from sim.seven_wonders.projects import can_participate, reveal_project
from sim.seven_wonders.records import GC, PC
from sim.seven_wonders.rules import Rules
from sim.seven_wonders.scoring import per_element, resolve_military
from sim.seven_wonders.seats import FREE_CITY as FC
from sim.seven_wonders.setup import setup_game
from sim.seven_wonders.state import GS, ST
from sim.seven_wonders.turn import ACT, MODE, deal_age, end_turn, resolve_picks, seventh_card_seats
from strategies.seven_wonders import STRATEGIES

R = Rules().to_array()
BUILD, STAGE, SELL = ACT.build, ACT.stage, ACT.sell


def play(names, n_games, rules=Rules(), seed=1, check=False, seats=None, table=None):
    """Records of n_games 2-player games: seat s plays names[s] unless ``seats`` (strategy rows) is given."""
    table = table or SPEC.strategies.table(names)
    if seats is None:
        seats = np.tile(np.arange(2), (n_games, 1))
    return SPEC.play_chunk(rules, 2, seats, 0, n_games, seed, table, check=check)


@lru_cache(maxsize=None)
def checked_games():
    """2,000 checked 2-player games (both modules), styles and random mixed, seats drawn at random."""
    names = [s.name for s in STRATEGIES]
    rng = np.random.default_rng(5)
    seats = rng.integers(0, len(names), (2000, 2))
    return play(names, 2000, seats=seats, seed=9, check=True)


def paused(decisions: int, seed: int = 3):
    """A 2-player game (both modules, random seats, checked) stopped at the first turn start after ``decisions``
    decisions (at least 1: the tile draft's)."""
    st, data = SPEC.new_state(Rules(), 2)
    st.meta[protocol.M.check] = 1
    assert not protocol.play_until(st, data, seed, 0, np.zeros(2, np.int64), decisions)
    return st, data


def fc_position(holder_cards, own=0, pile=6, coins=0, boards=("Gizah", "Gizah", "Rhodos"), holder=0):
    """Age I, turn 7 - pile: the holder holds ``holder_cards`` (his own pick in slot ``own``), the Free City's pile
    ``pile`` Lumber Yards, its coins ``coins``."""
    st = position(2, boards=boards)
    st.g[GS.turn] = 7 - pile
    st.g[GS.fc_holder] = holder
    st.coins[FC] = coins
    give_hand(st, FC, *["Lumber Yard"] * pile)
    give_hand(st, holder, *holder_cards)
    st.pick[holder, 1] = own
    return st


def fc_uses(st, holder=0):
    """The Free City's listed uses as (action, card name, mode) triples."""
    n = free_city.fc_options(st, DATA, R, holder)
    return sorted((int(st.options[i, 0]), DATA.card_names[st.hand[FC, st.options[i, 1]]], int(st.options[i, 2]))
                  for i in range(n))


# ------------------------------------------------------------------------------------------------ SW-2P-1
def test_two_players_seat_the_free_city_between_them():
    """SW-2P-1 / SW-SETUP-4: three seats in a circle, each player's neighbours are the other player and the Free City;
    setup gives the Free City its own random board and 3 coins, and Babel tiles only to the players (BABEL-2P-1)."""
    st = position(2)
    assert st.g[GS.n] == 3
    assert {neighbour(st, 0, s) for s in (0, 1)} == {1, FC}
    assert {neighbour(st, 1, s) for s in (0, 1)} == {0, FC}
    assert {neighbour(st, FC, s) for s in (0, 1)} == {0, 1}
    for seed in range(20):
        st = position(2, seed=seed)
        setup_game(st, DATA, R)
        assert len(set(st.wonder.tolist())) == 3 and (st.coins == 3).all()
        assert (st.tile_pool[:2] >= 0).all() and (st.tile_pool[FC] == -1).all()


def test_two_players_use_the_three_player_cards_and_the_rest_is_the_pile():
    """SW-2P-1 / SW-SETUP-2: each Age holds the 3-player copies (21 cards, 5 guilds in Age III): 7 per player and 7
    face down as the Free City's pile."""
    st = position(2, seed=4)
    for age in (1, 2, 3):
        deal_age(st, DATA, R, age)
        dealt = st.hand[:, :7].ravel()
        assert (st.hand_n == 7).all() and (dealt >= 0).all() and (st.hand[:, 7:] == -1).all()
        counts = np.bincount(dealt, minlength=len(DATA.card_names))
        guild = DATA.card_color == COL.purple
        assert (counts[~guild] == np.where(DATA.card_age[~guild] == age, DATA.card_copies[~guild, 3], 0)).all()
        assert counts[guild].sum() == (5 if age == 3 else 0)


# ------------------------------------------------------------------------------------------------ SW-2P-2, SW-DEC-26
def test_free_city_card_starts_left_of_the_free_city_in_ages_one_and_three():
    """SW-DEC-26: Ages I and III start with the Free City card at seat 0 (whose right neighbour is the Free City),
    Age II at seat 1 (whose left neighbour it is)."""
    st = position(2)
    assert neighbour(st, 0, 1) == FC and neighbour(st, 1, 0) == FC
    for age, holder in ((1, 0), (2, 1), (3, 0)):
        st.g[GS.age] = age
        st.g[GS.fc_holder] = 1 - holder
        free_city.start_age(st)
        assert st.g[GS.fc_holder] == holder


def test_holder_draws_the_piles_top_card_then_hands_swap_and_control_passes():
    """SW-2P-2 / SW-DEC-26: the holder draws the pile's top card; at the turn end the two hands change places in
    every Age (SW-TURN-2 has no effect) and the other player holds the Free City card."""
    for age in (1, 2, 3):
        st = position(2, seed=age)
        deal_age(st, DATA, R, age)
        free_city.start_age(st)
        h = int(st.g[GS.fc_holder])
        top = st.hand[FC, 6]
        free_city.draw(st)
        assert st.hand_n[h] == 8 and st.hand[h, 7] == top and st.hand_n[FC] == 6 and st.hand_n[1 - h] == 7
        before = st.hand.copy()
        end_turn(st, DATA, R)
        assert (st.hand[0] == before[1]).all() and (st.hand[1] == before[0]).all() and (st.hand[FC] == before[FC]).all()
        assert st.g[GS.fc_holder] == 1 - h


@pytest.mark.parametrize("decisions", [1, 9, 30, 47])
def test_a_turn_plays_three_cards_from_two_hands(decisions):
    """SW-2P-2 / SW-2P-4 / SW-DEC-26 in a real game: the holder gives up two cards (his own and the Free City's), the
    other player one; the hands then swap, the pile shrinks by one and the other player holds the Free City card."""
    st, data = paused(decisions)
    h = int(st.g[GS.fc_holder])
    hands = [st.hand[p, :st.hand_n[p]].tolist() for p in range(3)]
    used = int(st.city_n[FC] + st.stages[FC] + st.stat[FC, ST.sold])
    last = st.g[GS.turn] == 6
    play_turn(st, data)
    if last:
        assert (st.hand_n == 0).all()
    else:
        assert st.hand_n[FC] == len(hands[FC]) - 1 and st.g[GS.fc_holder] == 1 - h
        assert st.hand_n[h] == len(hands[1 - h]) - 1 and st.hand_n[1 - h] == len(hands[h]) + 1 - 2
        assert set(st.hand[h, :st.hand_n[h]].tolist()) <= set(hands[1 - h])
        assert set(st.hand[1 - h, :st.hand_n[1 - h]].tolist()) <= set(hands[h]) | {hands[FC][-1]}
    assert 1 <= int(st.city_n[FC] + st.stages[FC] + st.stat[FC, ST.sold]) - used <= 2  # 2 with a Halikarnassos build


# ------------------------------------------------------------------------------------------------ SW-2P-4
def test_free_city_discards_only_when_no_card_lets_it_build():
    """SW-2P-4: with no coins, Baths (stone to buy), Clay Pit (1 coin) and Stockade (wood) cannot be built, nor
    Rhodos's stage (2 wood): the Free City sells. A free Lumber Yard among the candidates forbids every sale."""
    st = fc_position(["Tavern", "Baths", "Clay Pit", "Stockade"])
    assert fc_uses(st) == sorted((SELL, name, 0) for name in ("Baths", "Clay Pit", "Stockade"))
    st = fc_position(["Tavern", "Baths", "Lumber Yard", "Stockade"])
    assert fc_uses(st) == [(BUILD, "Lumber Yard", MODE.pay)]


def test_free_city_never_receives_the_holders_own_card():
    """SW-2P-2 / SW-2P-4: the holder's own pick (slot ``own``) is not a candidate for the Free City."""
    st = fc_position(["Lumber Yard", "Baths"], own=0)
    assert {name for _, name, _ in fc_uses(st)} == {"Baths"}
    st = fc_position(["Lumber Yard", "Baths"], own=1)
    assert {name for _, name, _ in fc_uses(st)} == {"Lumber Yard"}


def test_free_city_builds_a_card_it_can_chain_through_the_chain():
    """SW-2P-4 / SW-CHAIN-1: holding Baths, the Free City given Aqueduct must build it free through the chain (not
    paid, not under a stage, not sold), here with coins to spare."""
    st = fc_position(["Lumber Yard", "Aqueduct", "Sawmill"], coins=9)
    st.g[GS.age] = 2
    give_hand(st, 0, "Lumber Yard", "Aqueduct", "Sawmill")
    build(st, FC, "Baths")
    uses = fc_uses(st)
    assert [u for u in uses if u[1] == "Aqueduct"] == [(BUILD, "Aqueduct", MODE.chain)]
    assert all(u[0] != SELL for u in uses) and any(u[1] == "Sawmill" for u in uses)


@pytest.mark.parametrize("coins, mode", [(2, MODE.chain), (1, MODE.pay)])
def test_free_city_that_cannot_pay_tile_13s_chain_tax_builds_by_the_normal_cost(coins, mode):
    """SW-2P-4 / BABEL-TILE-13 (a reading): tile 13 taxes a chain build 2 coins in Age II. With 2 coins the Free City
    must chain Aqueduct (from its Baths); with 1 it cannot pay the tax, so it may build Aqueduct by its normal cost
    (three stone from its Gizah board and Quarry) or under its Wonder stage, and may still not sell; the rule
    predicate agrees."""
    from sim.seven_wonders.babel import refresh_tiles

    st = fc_position(["Lumber Yard", "Aqueduct", "Sawmill"], coins=coins, boards=("Gizah", "Gizah", "Gizah"))
    st.g[GS.age] = 2
    give_hand(st, 0, "Lumber Yard", "Aqueduct", "Sawmill")
    build(st, FC, "Baths", "Quarry")
    st.babel_slot[0] = 12  # tile 13 face up
    refresh_tiles(st, DATA, R)
    uses = fc_uses(st)
    assert [u for u in uses if u[1] == "Aqueduct" and u[0] == BUILD] == [(BUILD, "Aqueduct", mode)]
    assert ((STAGE, "Aqueduct", 0) in uses) == (mode == MODE.pay)  # a chain card is chained, nothing else
    assert all(u[0] != SELL for u in uses)
    slot = next(s for s in range(st.hand_n[FC]) if st.hand[FC, s] == card("Aqueduct", 2))
    assert free_city.fc_is_legal(st, DATA, R, BUILD, slot, mode, 0)
    other = MODE.pay if mode == MODE.chain else MODE.chain
    assert not free_city.fc_is_legal(st, DATA, R, BUILD, slot, other, 0)


def test_free_city_options_agree_with_the_rule_predicate():
    """SW-2P-4: on random 2-player positions, ``fc_options`` lists exactly what ``fc_is_legal`` accepts."""
    from sim.seven_wonders.checks import check_free_city

    for decisions in (1, 5, 14, 23, 31, 40, 52):
        st, data = paused(decisions, seed=decisions)
        assert check_free_city(st, data, st.rules) > 0


def test_controller_chooses_the_free_citys_sellers_whatever_the_price():
    """SW-2P-4: the Free City needs a stone for Baths. Its West Trading Post makes seat 0's stone cost 1, seat 1's 2;
    the controller (seat 1) may still have it buy from him at 2 (SW-DEC-1 does not bind him)."""
    st = fc_position(["Tavern", "Baths"], own=0, coins=3, holder=1)
    build(st, FC, "West Trading Post")
    n = free_city.fc_options(st, DATA, R, 1)
    row = [i for i in range(n) if st.options[i, 0] == BUILD]
    assert len(row) == 1
    act, slot, extra = (int(x) for x in st.options[row[0], :3])
    k = free_city.fc_plans(st, DATA, R, 1, act, slot, extra)
    plans = {(int(st.options[j, 1]), int(st.options[j, 2])): int(st.options[j, 0]) for j in range(k)}
    assert set(plans) == {(1, 0), (0, 2)}  # (coins to left = seat 0, coins to right = seat 1)
    free_city.give_card(st, DATA, R, 1, act, slot, extra, plans[(0, 2)])
    assert st.hand_n[1] == 1 and DATA.card_names[st.hand[1, 0]] == "Tavern"
    resolve_picks(st, DATA, R)
    assert st.coins[FC] == 1 and st.coins[1] == 5 and st.coins[0] == 3
    assert st.city[FC, st.city_n[FC] - 1] == card("Baths")


# ------------------------------------------------------------------------------------------------ SW-2P-3
def test_free_city_is_a_full_neighbour_for_military_and_counting():
    """SW-2P-3: the Free City takes military tokens against both players and its cards count for a neighbour's
    Vineyard."""
    st = position(2)
    st.shields[:] = [1, 3, 2]
    resolve_military(st, DATA, R, 1)
    assert st.victory[FC, 1] == 1 and st.defeat_n[FC] == 1
    assert st.defeat_n[0] == 2 and st.victory[1, 1] == 2
    build(st, FC, "Lumber Yard", "Stone Pit")
    assert per_element(st, DATA, 0, card("Vineyard")) == 2


def test_free_city_scores_but_never_wins():
    """SW-2P-3 / SW-END-2: the ranking and the win are the two players' (the Free City's score is logged in the game
    record); some games are won by a player the Free City outscored."""
    r = checked_games()
    g, pl = r.games, r.players
    assert pl.shape[1] == 2 and set(np.unique(g[:, GC.winner_seat])) <= {-1, 0, 1}
    key = pl[:, :, PC.score] * 1000 + pl[:, :, PC.coins]
    best = key.max(axis=1, keepdims=True)
    assert ((pl[:, :, PC.won] == 1) == (key == best)).all()
    assert (g[:, GC.fc_board] >= 0).all() and (g[:, GC.fc_board] != pl[:, 0, PC.board]).all()
    assert (g[:, GC.fc_score] > pl[:, :, PC.score].max(axis=1)).any()


# ------------------------------------------------------------------------------------------------ SW-2P-5
def test_turn_six_discards_the_piles_last_card():
    """SW-2P-5 / SW-TURN-3: after turn 6 the players' last cards and the pile's last card are discarded: no hand and
    no pile is left."""
    st, data = paused(1)
    while st.g[GS.turn] < 6:
        play_turn(st, data)
    assert st.hand_n[FC] == 2
    last = int(st.hand[FC, 0])
    before = int((st.discard[:st.g[GS.discard_n]] == last).sum())
    play_turn(st, data)
    assert (st.hand_n == 0).all()
    assert (st.discard[:st.g[GS.discard_n]] == last).sum() >= before + 1


def test_free_city_with_babylon_b_does_not_play_the_piles_last_card():
    """SW-DEC-26 / SW-2P-5 (SW-WONDER-5): a player with Babylon B stage 2 uses his 7th card; the Free City with it does
    not (the pile's last card is discarded)."""
    st = position(2, boards=("Babylon", "Gizah", "Babylon"), sides="BAB")
    stages(st, 0, 2)
    stages(st, FC, 2)
    for p in range(3):
        give_hand(st, p, "Lumber Yard")
    assert seventh_card_seats(st, DATA) == 1


# ------------------------------------------------------------------------------------------------ Babel
def test_two_player_tower_cycles_over_two_slots():
    """BABEL-2P-1 / SW-DEC-17: a face-down tile holds the third slot for the whole game, so placement cycles over two
    slots and at most 2 tiles are active (with three players, three)."""
    st = position(2)
    for t in (4, 7, 11, 2):
        place_tile(st, DATA, t)
    assert st.babel_slot.tolist()[:3] == [11, 2, -1]
    st = position(3)
    for t in (4, 7, 11, 2):
        place_tile(st, DATA, t)
    assert st.babel_slot.tolist()[:3] == [2, 7, 11]


def test_two_player_tiles_over_many_games():
    """BABEL-2P-1: the draft runs between the two players (3 tiles each, 6 different), only players build tiles, and a
    tile is covered whenever more than 2 have been built."""
    r = checked_games()
    g, pl = r.games, r.players
    tiles = pl[:, :, PC.tile_a:PC.tile_c + 1].reshape(len(g), 6)
    assert (tiles >= 1).all() and all(len(set(row)) == 6 for row in tiles.tolist())
    builders = g[:, GC.tile1_builder:GC.tile24_covered + 1:3]
    covered = g[:, GC.tile1_covered:GC.tile24_covered + 1:3]
    assert set(np.unique(builders)) <= {-1, 0, 1}
    assert ((covered > 0).sum(axis=1) == np.maximum(0, g[:, GC.tiles_built] - 2)).all()
    assert (g[:, GC.tiles_built] > 2).any()


def test_free_city_never_joins_nor_suffers_a_great_project():
    """BABEL-GP-16: 2 participation tokens per Age; the Free City cannot participate even with a matching card, and a
    failed Rampart Road (give all coins) takes the players' coins, never the Free City's."""
    st = position(2, coins=5)
    reveal_project(st, DATA, R, 1)
    assert st.g[GS.gp_tokens] == 2
    st.g[GS.gp] = DATA.project_names.index("Rampart Road")
    st.g[GS.gp_tokens] = 2
    yellow = DATA.gp_color[st.g[GS.gp]]
    assert can_participate(st, DATA, R, 0, yellow, False) and not can_participate(st, DATA, R, FC, yellow, False)
    resolve_project(st, DATA)
    assert st.coins.tolist() == [0, 0, 5]


def test_free_city_holds_no_project_tokens_over_many_games():
    """BABEL-GP-16: at most the two players are penalised or participate in an Age; project counters stay within two
    players."""
    g = checked_games().games
    for a in range(3):
        base = GC.gp1_project + 6 * a
        assert (g[:, base + 2] <= 2).all() and (g[:, base + 4] <= 2).all()


# ------------------------------------------------------------------------------------------------ games
def test_checked_two_player_games_keep_the_invariants():
    """SW-INV-1 / SW-INV-2 / BABEL-INV-1 / BABEL-INV-2 over 2,000 checked 2-player games (the pile counts as the Free
    City's hand); each game has 18 turns and the Free City uses a card every turn (SW-2P-2), a 19th+ only through
    Halikarnassos."""
    g = checked_games().games
    assert (g[:, GC.rounds] == 18).all()
    used = g[:, GC.fc_built] + g[:, GC.fc_sold] + g[:, GC.fc_stages]
    hali = g[:, GC.fc_board] == wonder("Halikarnassus")
    assert (used[~hali] == 18).all() and (used[hali] >= 18).all()
    assert (g[:, GC.fc_sold] <= 18).all() and (g[:, GC.fc_score] > 0).all()


def test_the_holders_strategy_makes_the_free_citys_choices():
    """SW-DEC-26: the Free City's sellers are the holder's decision (fc_payment). A strategy that has it buy from
    himself against one that has it buy from the other player: the first collects clearly more coins from trade, seats
    swapped half the time."""
    base = {k: dict(v) for k, v in next(s for s in STRATEGIES if s.name == "civic").weights.items()}
    me = Strategy("me", "", weights={**base, "fc_payment": {"fp_to_me": 10.0}})
    other = Strategy("them", "", weights={**base, "fc_payment": {"fp_to_rival": 10.0, "fp_to_me": -10.0}})
    table = StrategyRegistry("seven_wonders", SPEC.schema, [me, other]).table(["me", "them"])
    seats = np.tile(np.arange(2), (600, 1))
    seats[300:] = seats[300:, ::-1]
    r = play(None, 600, seats=seats, table=table, seed=4)
    got = np.where(seats == 0, r.players[:, :, PC.traded_in], 0).sum() - \
        np.where(seats == 1, r.players[:, :, PC.traded_in], 0).sum()
    assert got / 600 > 0.8  # about 1.5 coins a game (standard error 0.26); two "me" seats: about 0


def test_replay_names_the_free_city():
    """SW-2P-1: a replayed 2-player game shows the Free City's board, picks and score."""
    table = SPEC.strategies.table(["random", "babel"])
    text = SPEC.replay(Rules(), 2, np.array([0, 1]), 2, 5, table, ["random", "babel"])
    assert "the Free City:" in text and "the Free City builds" in text
