"""Sea Trade rules on hand-built positions and small runs; every test names the ST-* rule it checks."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from sim.core.errors import PlaytestError
from sim.core.rules import apply_overrides
from sim.core.trace import new_trace
from sim.sea_trade import SPEC
from sim.sea_trade.board import FAR, ensure_dist
from sim.sea_trade.engine import offer_decision, sell_and_buy
from sim.sea_trade.moves import (apply_pirate, apply_sail, apply_sell, apply_storm, draw_card, max_buy, apply_buy,
                                 pirate_options, price, sail_legal, sail_options, ship_can_enter, storm_options)
from sim.sea_trade.rules import Rules
from sim.sea_trade.state import (CARD_ROW, CARD_STORM, CARD_WIND0, COMMODITIES, DESIRES, DIRECTIONS, LAND,
                                 MARKET, MARKETS, SEA, SELLS)
from sim.sea_trade.state import EV
from tests.sea_trade_positions import (cell, events, named, new_state, options, play_chunk, play_game, position,
                                      setup_game, table)

WIND = {d: CARD_WIND0 + i for i, d in enumerate(DIRECTIONS)}
SILK, OBSIDIAN, GRAIN, OIL, WINE, SPICES = range(6)
ROME, EGYPT, GREECE, PERSIA, CARTHAGE, CRETE = range(6)


def _games(names, n=200, rules=Rules(), seed=3, debug=True):
    p = len(names)
    seats = np.tile(np.arange(p), (n, 1))
    return play_chunk(rules, p, seats, 0, n, seed, named(*names), debug=debug)


def _col(name):
    return SPEC.game_col(name)


def _pcol(name):
    return SPEC.player_col(name)


# ----------------------------------------------------------------------------------------------- components
def test_board_and_pieces_ST_COMP_1_ST_COMP_2():
    """ST-COMP-1, ST-COMP-2: an 8x8 grid with 10 land, 6 markets, 2 pirates, at most one storm, one ship per player."""
    st = new_state(Rules(), 3)
    for gi in range(50):
        assert setup_game(st, 5, gi)
        assert st.cell.shape == (64,)
        assert (st.cell == LAND).sum() == 10 and (st.cell == MARKET).sum() == 6
        assert (st.pirate_at >= 0).sum() == 2 and st.storm[0] == -1
        assert len(st.ship) == 3


def test_market_table_ST_COMP_3():
    """ST-COMP-3: who sells and most desires what (Rome sells Wine, desires Silk, ...); each commodity once each."""
    table_ = {"Rome": ("Wine", "Silk"), "Egypt": ("Grain", "Obsidian"), "Greece": ("Oil", "Grain"),
              "Persia": ("Silk", "Oil"), "Carthage": ("Spices", "Wine"), "Crete": ("Obsidian", "Spices")}
    for m, name in enumerate(MARKETS):
        assert (COMMODITIES[SELLS[m]], COMMODITIES[DESIRES[m]]) == table_[name]
    assert sorted(SELLS) == list(range(6)) and sorted(DESIRES) == list(range(6))


def test_deck_composition_ST_COMP_4():
    """ST-COMP-4: 58 cards: 4 of each commodity, 6 Row, 3 of each of 8 winds, 4 Storm."""
    st = new_state(Rules(), 2)
    setup_game(st, 1, 0)
    counts = np.bincount(st.deck[: st.piles[0]], minlength=16) + st.hand.sum(axis=0)
    assert counts.sum() == 58 == Rules().deck_size()
    assert list(counts[:6]) == [4] * 6 and counts[CARD_ROW] == 6
    assert list(counts[CARD_WIND0:CARD_WIND0 + 8]) == [3] * 8 and counts[CARD_STORM] == 4


def test_player_count_ST_COMP_5():
    """ST-COMP-5: 2 to 6 players; 1 or 7 are refused with a clear error."""
    assert (SPEC.min_players, SPEC.max_players) == (2, 6)
    for p in (1, 7):
        with pytest.raises(PlaytestError):
            play_chunk(Rules(), p, np.zeros((1, p), np.int64), 0, 1, 1, named("random"))
    for p in (2, 6):
        r = play_chunk(Rules(), p, np.zeros((2, p), np.int64), 0, 2, 1, named("trader"), debug=True)
        assert r.players.shape[:2] == (2, p)


# ----------------------------------------------------------------------------------------------- setup
def _sea_components_join(cells, g=8):
    """Independent BFS: are all markets in one sea component (land blocks)?"""
    markets = [c for c in range(g * g) if cells[c] == MARKET]
    seen = {markets[0]}
    todo = deque([markets[0]])
    while todo:
        c = todo.popleft()
        r, k = divmod(c, g)
        for dr in (-1, 0, 1):
            for dk in (-1, 0, 1):
                rr, kk = r + dr, k + dk
                n = rr * g + kk
                if 0 <= rr < g and 0 <= kk < g and n not in seen and cells[n] != LAND:
                    seen.add(n)
                    todo.append(n)
    return all(m in seen for m in markets)


@pytest.mark.parametrize("islands,spacing", [(10, 2), (30, 2), (12, 3)])
def test_random_boards_ST_SETUP_1_to_4(islands, spacing):
    """ST-SETUP-1 islands on distinct spaces, ST-SETUP-2 markets spaced, ST-SETUP-3 all joined by sea (crowded
    boards are redrawn), ST-SETUP-4 pirates on distinct free sea spaces."""
    rules = Rules(islands=islands, market_spacing=spacing)
    st = new_state(rules, 4)
    for gi in range(150):
        assert setup_game(st, 11, gi)
        assert (st.cell == LAND).sum() == islands
        mc = list(st.market_cell)
        for a in range(6):
            assert st.cell[mc[a]] == MARKET and st.market_at[mc[a]] == a
            for b in range(a):
                assert max(abs(mc[a] // 8 - mc[b] // 8), abs(mc[a] % 8 - mc[b] % 8)) >= spacing
        assert _sea_components_join(st.cell)
        pir = list(st.pirate)
        assert len(set(pir)) == 2 and all(st.cell[c] == SEA for c in pir)


def test_compass_directions_ST_SETUP_5():
    """ST-SETUP-5: north is row - 1 (up), east is column + 1; NE combines both."""
    start = cell(4, 3)
    st = position(ships=[start, cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)])
    expect = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1), "NE": (-1, 1), "SW": (1, -1)}
    for d, (dr, dc) in expect.items():
        st.hand[0, :] = 0
        st.hand[0, WIND[d]] = 1
        k = sail_options(st, 0, 0)
        tos = {(o[1], o[2]) for o in options(st, k)}
        assert tos == {(cell(4 + dr, 3 + dc), 1), (cell(4 + 2 * dr, 3 + 2 * dc), 2)}, d


def test_deal_ST_SETUP_6_and_gold_ST_SETUP_9():
    """ST-SETUP-6: 5 cards to each player from the shuffled deck; ST-SETUP-9: 10 gold each (a rules field)."""
    for rules in (Rules(), Rules(start_gold=12, hand_start=4)):
        st = new_state(rules, 4)
        setup_game(st, 2, 0)
        assert list(st.hand.sum(axis=1)) == [rules.hand_start] * 4
        assert st.piles[0] == 58 - 4 * rules.hand_start
        assert list(st.gold) == [rules.start_gold] * 4


def test_turn_order_ST_SETUP_7():
    """ST-SETUP-7: seats play in order 0, 1, 2... every round (the runner randomises or rotates who sits where)."""
    rules = Rules(round_cap=3)
    st = new_state(rules, 3, named("random"), trace=new_trace(50_000))
    play_game(st, 4, 9, True)
    ev = events(st)
    draws = ev[ev[:, 2] == EV.draw]
    seq = [int(s) for s in draws[::3, 1]]  # three draws per turn
    assert seq[:9] == [0, 1, 2] * 3


def test_start_markets_differ_ST_SETUP_8():
    """ST-SETUP-8: ships start on markets, never two on the same one; the choice is made in turn order."""
    r = _games(["trader"] * 6, n=100)
    start = r.players[:, :, _pcol("start_market")]
    assert all(len(set(row)) == 6 for row in start)
    # With a strategy that wants its own commodity in hand, seat 0 gets the best market for its hand.
    st = new_state(Rules(), 2, table(start_market={"cards": 1.0}))
    for gi in range(30):
        setup_game(st, 8, gi)
        first = st.market_at[st.ship[0]]
        assert first >= 0 and st.hand[0, SELLS[first]] == max(st.hand[0, SELLS[m]] for m in range(6))
        assert st.market_at[st.ship[1]] not in (-1, first)


# ----------------------------------------------------------------------------------------------- turn
def test_draw_and_reshuffle_ST_TURN_1():
    """ST-TURN-1: draw from the deck; an empty deck takes the shuffled discard pile; both empty: draw nothing."""
    st = position()
    st.deck[0] = WINE
    st.piles[0] = 1
    for i, c in enumerate([OIL, OIL, CARD_ROW, CARD_STORM, SILK]):
        st.discard[i] = c
    st.piles[1] = 5
    drawn = [draw_card(st, 0) for _ in range(3)]
    assert drawn[0] == WINE and st.piles[1] == 0 and st.piles[0] == 3
    assert st.games[_col("reshuffles")] == 1 and st.hand[0].sum() == 3
    for _ in range(3):
        draw_card(st, 0)
    assert draw_card(st, 0) == -1 and st.hand[0].sum() == 6


def test_row_moves_ST_TURN_2_ST_SAIL_1():
    """ST-TURN-2 / ST-SAIL-1: a Row card moves exactly one space in any of the 8 directions."""
    st = position(ships=[cell(3, 3), cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)])
    st.hand[0, CARD_ROW] = 1
    k = sail_options(st, 0, 0)
    assert {o[1] for o in options(st, k)} == {cell(3 + dr, 3 + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                                              if (dr, dc) != (0, 0)}
    apply_sail(st, 0, CARD_ROW, cell(2, 4), 1)
    assert st.ship[0] == cell(2, 4) and st.hand[0, CARD_ROW] == 0


def test_wind_one_or_two_steps_ST_SAIL_2():
    """ST-SAIL-2: a Wind card moves 1 or 2 spaces, only in its direction."""
    st = position(ships=[cell(3, 3), cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)])
    st.hand[0, WIND["SE"]] = 1
    k = sail_options(st, 0, 0)
    assert {(o[1], o[2]) for o in options(st, k)} == {(cell(4, 4), 1), (cell(5, 5), 2)}
    assert not sail_legal(st, cell(3, 3), WIND["SE"], cell(4, 3))
    assert not sail_legal(st, cell(3, 3), WIND["SE"], cell(6, 6))


@pytest.mark.parametrize("blocker", ["land", "storm", "pirate"])
def test_blocked_spaces_ST_SAIL_3(blocker):
    """ST-SAIL-3: no entering or passing through land, the storm or a pirate."""
    block = cell(3, 4)
    kw = {"land": {"land": [block]}, "storm": {"storm": block},
          "pirate": {"pirates": [block, cell(7, 1)]}}[blocker]
    kw.setdefault("pirates", [cell(7, 1), cell(7, 2)])
    st = position(ships=[cell(3, 3), cell(7, 7)], **kw)
    st.hand[0, WIND["E"]] = 1
    st.hand[0, CARD_ROW] = 1
    k = sail_options(st, 0, 0)
    tos = {o[1] for o in options(st, k)}
    assert block not in tos and cell(3, 5) not in tos  # cannot pass through to the far side either
    assert not sail_legal(st, cell(3, 3), WIND["E"], cell(3, 5))
    assert not ship_can_enter(st, block)


def test_market_stops_ship_ST_SAIL_4():
    """ST-SAIL-4: a ship entering a market stops there (no 2-step past it) and may leave with a later card."""
    st = position(ships=[cell(0, 1), cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)])  # Carthage on d1 (0,3)
    st.hand[0, WIND["E"]] = 2
    k = sail_options(st, 0, 0)
    assert {o[1] for o in options(st, k)} == {cell(0, 2), cell(0, 3)}
    st.ship[0] = cell(0, 2)
    k = sail_options(st, 0, 0)
    assert {o[1] for o in options(st, k)} == {cell(0, 3)}  # the 2-step move would pass through the market
    assert not sail_legal(st, cell(0, 2), WIND["E"], cell(0, 4))
    apply_sail(st, 0, WIND["E"], cell(0, 3), 1)
    k = sail_options(st, 0, 0)
    assert {o[1] for o in options(st, k)} == {cell(0, 4), cell(0, 5)}  # leaves with the next card


def test_no_leaving_the_board_ST_SAIL_5():
    """ST-SAIL-5: at the edge, moves off the board do not exist."""
    st = position(ships=[cell(7, 0), cell(7, 7)], markets=(1, 5, 10, 13, 27, 30), pirates=[cell(3, 3), cell(3, 5)])
    st.hand[0, CARD_ROW] = 1
    st.hand[0, WIND["S"]] = 1
    st.hand[0, WIND["W"]] = 1
    k = sail_options(st, 0, 0)
    assert {o[1] for o in options(st, k)} == {cell(6, 0), cell(6, 1), cell(7, 1)}
    assert not sail_legal(st, cell(7, 0), WIND["S"], 64)


# ----------------------------------------------------------------------------------------------- trade
def test_ship_to_ship_exchange_ST_TRADE_1_ST_TURN_3():
    """ST-TRADE-1 / ST-TURN-3: adjacent ships (8-neighbourhood) exchange when both agree; not when far or refused."""
    offer_all = {"offer": {"pass": -10.0, "my_gain": 0.0}, "accept": {"pass": -10.0}}
    for partner_pos, accept, traded in [(cell(4, 3), True, True), (cell(3, 2), True, True), (cell(3, 3), True, True),
                                        (cell(3, 1), True, False), (cell(4, 3), False, False)]:
        weights = dict(offer_all)
        if not accept:
            weights = {"offer": {"pass": -10.0}, "accept": {"pass": 10.0}}
        st = position(ships=[cell(3, 3), partner_pos], pirates=[cell(7, 1), cell(7, 2)], table=table(**weights))
        st.hold[0, WINE] = 1
        st.hold[1, SILK] = 1
        offer_decision(st, 0)
        if traded:
            assert st.hold[0, SILK] == 1 and st.hold[1, WINE] == 1 and st.hold[0, WINE] == 0
            assert st.players[0, _pcol("trades")] == 1 and st.games[_col("trades")] == 1
        else:
            assert st.hold[0, WINE] == 1 and st.hold[1, SILK] == 1


def test_buying_ST_TRADE_2():
    """ST-TRADE-2: in a market, pay 1 gold per card of its own commodity moved from hand to hold, nothing else."""
    st = position(ships=[0, cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)])  # Rome sells Wine
    st.hand[0, WINE] = 3
    st.hand[0, SILK] = 2
    st.gold[0] = 2
    assert max_buy(st, 0) == 2  # gold limits
    apply_buy(st, 0, 2)
    assert st.hold[0, WINE] == 2 and st.hand[0, WINE] == 1 and st.gold[0] == 0 and st.hold[0, SILK] == 0
    st.ship[0] = cell(1, 1)
    st.gold[0] = 9
    assert max_buy(st, 0) == 0  # not in a market


def test_hold_limit_ST_TRADE_3():
    """ST-TRADE-3: the hold carries at most 6 cards (hold_size)."""
    st = position(ships=[0, cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)],
                  table=table(buy={"cards": 1.0}, sell={"pass": 1.0}))
    st.hand[0, WINE] = 4
    st.hold[0, OIL] = 5
    assert max_buy(st, 0) == 1
    sell_and_buy(st, 0)  # keeps its Oil, buys as much Wine as fits
    assert st.hold[0].sum() == 6 and st.hand[0, WINE] == 3
    assert max_buy(st, 0) == 0


def test_selling_prices_ST_TRADE_4():
    """ST-TRADE-4: a market refuses its own commodity, pays 3 for its most desired, 2 otherwise; cards discarded."""
    assert price(position(), ROME, WINE) == 0 and price(position(), ROME, SILK) == 3
    assert price(position(), ROME, OIL) == 2 and price(position(), CARTHAGE, WINE) == 3
    st = position(ships=[0, cell(7, 7)], pirates=[cell(7, 1), cell(7, 2)], table=table(sell={"gold": 1.0}))
    st.hold[0, WINE] = 2
    st.hold[0, SILK] = 1
    st.hold[0, GRAIN] = 1
    sell_and_buy(st, 0)  # sells everything Rome buys
    assert list(st.hold[0]) == [0, 0, 0, 0, 2, 0]
    assert st.gold[0] == 10 + 3 + 2 and st.piles[1] == 2
    assert sorted(st.discard[:2]) == [SILK, GRAIN]


def test_move_trade_move_ST_TRADE_5():
    """ST-TRADE-5: within one turn a ship sails, trades in a market, and sails on."""
    rules = Rules()
    st = new_state(rules, 4, named("trader"), trace=new_trace(200_000))
    found = False
    for gi in range(20):
        play_game(st, gi, 2, True)
        ev = events(st)
        turn = []
        for row in ev:
            if row[2] == EV.draw and turn and turn[-1] != EV.draw:
                turn = []
            turn.append(row[2])
            kinds = [t for t in turn if t in (EV.sail, EV.sell, EV.buy)]
            for i in range(1, len(kinds) - 1):
                if kinds[i] in (EV.sell, EV.buy) and kinds[i - 1] == EV.sail and EV.sail in kinds[i + 1:]:
                    found = True
        if found:
            break
    assert found


# ----------------------------------------------------------------------------------------------- piracy, storm
def test_pirate_moves_and_limits_ST_TURN_4_ST_PIRACY_1():
    """ST-TURN-4 / ST-PIRACY-1: Wind cards move pirates 1-2 spaces; never into markets, land, storm or a pirate."""
    st = position(ships=[cell(7, 7), cell(7, 6)], land=[cell(2, 5)], storm=cell(5, 4),
                  pirates=[cell(3, 4), cell(1, 4)], markets=(cell(3, 2), 7, 56, 63, 3, 59))
    for d in ("E", "W", "S", "N", "NE"):
        st.hand[0, WIND[d]] = 1
    k = pirate_options(st, 0, 0)
    mine = {(o[1], o[2]) for o in options(st, k) if o[0] == 0}
    assert (WIND["E"], cell(3, 5)) in mine and (WIND["E"], cell(3, 6)) in mine
    assert (WIND["W"], cell(3, 3)) in mine and (WIND["W"], cell(3, 2)) not in mine  # market
    assert (WIND["S"], cell(4, 4)) in mine and (WIND["S"], cell(5, 4)) not in mine  # storm
    assert (WIND["N"], cell(2, 4)) in mine and (WIND["N"], cell(1, 4)) not in mine  # other pirate
    assert (WIND["NE"], cell(2, 5)) not in mine  # land
    apply_pirate(st, 0, 0, WIND["E"], cell(3, 6))
    assert st.pirate[0] == cell(3, 6) and st.pirate_at[cell(3, 6)] == 0 and st.pirate_at[cell(3, 4)] == -1
    assert st.players[0, _pcol("pirate_moves")] == 1 and st.hand[0, WIND["E"]] == 0


def test_plunder_ST_PIRACY_2():
    """ST-PIRACY-2: a pirate entering another player's ship discards its whole hold and stops there."""
    st = position(n_players=3, ships=[cell(7, 7), cell(3, 5), cell(3, 5)], pirates=[cell(3, 4), cell(0, 0 + 6)])
    st.hold[1, SILK] = 2
    st.hold[1, OIL] = 1
    st.hold[2, WINE] = 1
    st.hand[0, WIND["E"]] = 1
    k = pirate_options(st, 0, 0)
    assert {o[2] for o in options(st, k) if o[0] == 0} == {cell(3, 5)}  # stops on the ships, no 2-step past them
    victims = apply_pirate(st, 0, 0, WIND["E"], cell(3, 5))
    assert victims == 2 and st.hold[1].sum() == 0 and st.hold[2].sum() == 0
    assert st.piles[1] == 5  # 4 cargo cards + the Wind card
    assert st.players[1, _pcol("cargo_lost")] == 3 and st.players[0, _pcol("plunders_made")] == 2
    # The active player's own ship is never plundered (rulebook: "another player's ship").
    st2 = position(ships=[cell(3, 5), cell(7, 7)], pirates=[cell(3, 4), cell(0, 6)])
    st2.hold[0, SILK] = 2
    st2.hand[0, WIND["E"]] = 1
    assert apply_pirate(st2, 0, 0, WIND["E"], cell(3, 5)) == 0 and st2.hold[0, SILK] == 2


def test_storm_placement_ST_TURN_5():
    """ST-TURN-5: the storm goes on an empty sea space (no land, market, ship, pirate); the old one is removed."""
    st = position(ships=[cell(2, 2), cell(5, 5)], land=[cell(1, 1)], pirates=[cell(4, 4), cell(6, 6)], storm=cell(3, 3))
    k = storm_options(st, 0)
    spaces = {o[0] for o in options(st, k)}
    for bad in (cell(1, 1), 0, cell(2, 2), cell(4, 4), cell(3, 3)):
        assert bad not in spaces
    assert len(spaces) == 64 - 6 - 1 - 2 - 2 - 1
    st.hand[0, CARD_STORM] = 1
    apply_storm(st, 0, cell(2, 3))
    assert st.storm[0] == cell(2, 3) and ship_can_enter(st, cell(3, 3)) and not ship_can_enter(st, cell(2, 3))


def test_played_cards_discarded_ST_TURN_6():
    """ST-TURN-6: played Row, Wind and Storm cards go to the discard pile."""
    st = position(ships=[cell(3, 3), cell(7, 7)], pirates=[cell(5, 1), cell(7, 2)])
    st.hand[0, [CARD_ROW, WIND["N"], WIND["E"], CARD_STORM]] = 1
    apply_sail(st, 0, CARD_ROW, cell(3, 4), 1)
    apply_sail(st, 0, WIND["N"], cell(2, 4), 1)
    apply_pirate(st, 0, 0, WIND["E"], cell(5, 2))
    apply_storm(st, 0, cell(6, 6))
    assert sorted(st.discard[: st.piles[1]]) == sorted([CARD_ROW, WIND["N"], WIND["E"], CARD_STORM])
    assert st.hand[0].sum() == 0


# ----------------------------------------------------------------------------------------------- end
def test_instant_win_ST_END_1():
    """ST-END-1: the first sale reaching 25 gold wins at once: later seats skip that round, nobody else is rich."""
    st = position(ships=[0, cell(7, 7)], pirates=[cell(5, 1), cell(7, 2)])
    st.gold[0] = 22
    st.hold[0, OIL] = 1
    assert not apply_sell(st, 0, OIL)  # 24
    st.hold[0, SILK] = 1
    assert apply_sell(st, 0, SILK)  # 27
    for win_gold in (25, 30):
        r = _games(["trader"] * 3, n=150, rules=Rules(win_gold=win_gold))
        g, p = r.games, r.players
        for i in np.flatnonzero(g[:, _col("end_reason")] == 0):
            w = g[i, _col("winner_seat")]
            assert p[i, w, _pcol("score")] >= win_gold
            assert (p[i, :, _pcol("score")] >= win_gold).sum() == 1
            turns = p[i, :, _pcol("turns")]
            rounds = g[i, _col("rounds")]
            assert list(turns) == [rounds if s <= w else rounds - 1 for s in range(3)]
            assert p[i, w, _pcol("rank")] == 1 and p[i, :, _pcol("won")].sum() == 1


def test_round_cap_timeout_ST_END_2():
    """ST-END-2: at the round cap the game ends without a winner and is logged as a timeout."""
    r = _games(["trader", "random"], n=50, rules=Rules(round_cap=3))
    g, p = r.games, r.players
    assert (g[:, _col("rounds")] <= 3).all()
    timeouts = g[:, _col("end_reason")] == 1
    assert timeouts.any()
    assert (g[timeouts, _col("winner_seat")] == -1).all() and (p[timeouts, :, _pcol("won")] == 0).all()
    assert (g[timeouts, _col("rounds")] == 3).all()


# ----------------------------------------------------------------------------------------------- rules fields
def test_rules_overrides_and_validation():
    """--set win_gold=30 works; impossible values raise PlaytestError naming the field, through the one validation
    route (declared bounds on --set, cross-field checks such as win_gold above start_gold in SPEC.validate)."""
    r = apply_overrides(Rules(), ["win_gold=30", "islands=12"], "sea_trade")
    assert r.win_gold == 30 and r.islands == 12
    for bad in (["win_gold=5"], ["markets=5"], ["islands=60"], ["market_spacing=5"], ["hold_size=0"]):
        with pytest.raises(PlaytestError):
            SPEC.validate(apply_overrides(Rules(), bad, "sea_trade"), 4)


def test_distances_follow_obstacles():
    """Planning distances see pirates (ST-SAIL-3) and are recomputed after a pirate moves."""
    st = position(ships=[cell(0, 1), cell(7, 7)], land=[cell(1, 0), cell(1, 1), cell(1, 2)],
                  pirates=[cell(0, 2), cell(7, 1)])
    ensure_dist(st)
    assert st.sea[CARTHAGE, cell(0, 1)] == FAR  # the pirate on c1 seals the corner
    st.hand[1, WIND["S"]] = 1
    apply_pirate(st, 1, 0, WIND["S"], cell(1, 2) + 8)
    ensure_dist(st)
    assert st.sea[CARTHAGE, cell(0, 1)] == 2
