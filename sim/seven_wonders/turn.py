"""Drafting and the uses of a card: SW-SETUP-2 / SW-SETUP-3, SW-TURN-*, SW-ACT-*, SW-COST-*, SW-CHAIN-*, SW-WONDER-*,
SW-COM-1; the Babel tile action (BABEL-ACT-*), the build costs and subsidies of the tiles (BABEL-TILE-*) and Great
Project participation (BABEL-GP-2 to BABEL-GP-8).

A turn, as the engine drives it (BABEL-SEQ-1):
  1. every seat: ``turn_options`` -> choose -> ``apply_option`` (records the pick and its payment, planned on the
     start-of-turn state, SW-TURN-4 / SW-DEC-2);
  2. ``resolve_picks``: all payments, then all placements, then all income (SW-TURN-4, SW-DEC-3);
  3. last turn of an Age: Babylon B's 7th card (``seventh_card_seats``, then steps 1-2 for those seats with the other
     picks empty), then ``discard_last_cards`` (SW-TURN-3, SW-WONDER-5, SW-DEC-4);
  4. Halikarnassos: for each seat with ``st.pending``: ``discard_build_options`` -> choose -> ``apply_discard_build``
     (SW-WONDER-4; after step 3 so the 7th cards can be taken, ``halikarnassos_sees_last_discards``);
  5. ``end_turn``: Babel tiles placed in number order (BABEL-PLACE-1 / BABEL-PLACE-3), hands passed (SW-TURN-2).

Option rows (st.options): (action, hand slot, extra, participation). ``extra`` is the build mode (MODE) for a structure,
0/1 (free-stage token) for a stage, the tile index for a Babel tile. ``participation`` is 0 (none), 1 (colour match) or
2 (wild token).
"""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.names import namespace
from sim.core.rng import shuffle
from sim.seven_wonders.babel import active_kind, coins_for, coins_per_unit, place_due_tiles
from sim.seven_wonders.city import add_stage, add_structure
from sim.seven_wonders.data import COL, N_RES, SPECIAL, TILE_KIND, TR, Data
from sim.seven_wonders.payment import cheapest_trade, neighbour, refresh_production, trade_cost, unit_price
from sim.seven_wonders.projects import can_participate, participation_coins, take_participation
from sim.seven_wonders.rules import R
from sim.seven_wonders.scoring import SC, per_element, score_player
from sim.seven_wonders.seats import fc_seat, players
from sim.seven_wonders.state import MAX_OPT, GS, TREC, State

ACT = namespace("Act", ["build", "stage", "sell", "tile"])
MODE = namespace("Mode", ["pay", "chain", "olympia", "token", "discard"])
N_HAND_MODES = 4  # the modes open to a card from the hand; "discard" is Halikarnassos' build (SW-WONDER-4)
PART_NONE, PART_COLOUR, PART_WILD = 0, 1, 2
PICK_NONE = -1


# ------------------------------------------------------------------------------------------- dealing

@kernel
def deal_age(st: State, data: Data, rules: np.ndarray, age: int) -> None:
    """SW-SETUP-2 / SW-SETUP-3: the Age deck (every copy up to N; Age III: N + 2 random guilds), shuffled, 7 cards
    each. N counts seats: two players play the 3-player cards and the Free City's 7 are its pile (SW-2P-1)."""
    n = st.g[GS.n]
    k = 0
    if age == 3:
        for c in range(data.card_age.shape[0]):
            if data.card_color[c] == COL.purple:
                st.deck[k] = c
                k += 1
        shuffle(st.rng, st.deck, k)
        k = n + rules[R.extra_guilds]
    for c in range(data.card_age.shape[0]):
        if data.card_age[c] == age and data.card_color[c] != COL.purple:
            for _ in range(data.card_copies[c, n]):
                st.deck[k] = c
                k += 1
    shuffle(st.rng, st.deck, k)
    h = rules[R.hand_size]
    for p in range(n):
        for j in range(h):
            st.hand[p, j] = st.deck[p * h + j]
        st.hand_n[p] = h
    st.dealt[0] += n * h
    st.g[GS.age] = age
    st.g[GS.turn] = 1
    st.g[GS.pile_before_last] = -1
    refresh_vp(st, data, rules)


@kernel
def refresh_vp(st: State, data: Data, rules: np.ndarray) -> None:
    """Each seat's current total (the SW-DEC-1 tie-break: pay the neighbour with fewer VP)."""
    for p in range(st.g[GS.n]):
        score_player(st, data, rules, p, st.score_row)
        st.vp_now[p] = st.score_row[SC.total]


# ------------------------------------------------------------------------------------------- costs

@kernel
def chain_source(st: State, data: Data, rules: np.ndarray, p: int, c: int) -> int:
    """SW-CHAIN-1: 1 if p holds a predecessor of c; 2 if only a neighbour does and tile 7 is active (BABEL-TILE-7); 0
    otherwise."""
    neighbours = active_kind(st, data, rules, TILE_KIND.chain_from_neighbors, 0) > 0
    found = 0
    for j in range(data.card_chain.shape[1]):
        name = data.card_chain[c, j]
        if name < 0:
            continue
        if st.has_name[p, name]:
            return 1
        if neighbours and (st.has_name[neighbour(st, p, 0), name] or st.has_name[neighbour(st, p, 1), name]):
            found = 2
    return found


@kernel
def _has_special(st: State, data: Data, p: int, special: int) -> bool:
    for j in range(st.stages[p]):
        if data.stage_special[st.wonder[p], st.side[p], j] == special:
            return True
    return False


@kernel
def build_triggers(data: Data, rules: np.ndarray, c: int, chain: int) -> int:
    """TR bits met by building structure c (BABEL-TILE-1/5/6/13/14/24; a tile-7 chain is a chain unless
    ``neighbour_chain_counts_as_chain`` is off, SW-DEC-11)."""
    bits = 1 << TR.structure
    col = data.card_color[c]
    if col == COL.red:
        bits |= 1 << TR.red_structure
    elif col == COL.blue:
        bits |= 1 << TR.blue_structure
    elif col == COL.purple:
        bits |= 1 << TR.purple_structure
    if chain == 1 or (chain == 2 and rules[R.neighbour_chain_counts_as_chain]):
        bits |= 1 << TR.chain_build
    return bits


@kernel
def build_mode(st: State, data: Data, rules: np.ndarray, p: int, c: int, mode: int) -> int:
    """Whether p may build structure c in ``mode`` at all, whatever it costs: -1 if not (Olympia's free build used
    this Age or not built, SW-WONDER-3; no free-build token, BABEL-GP-13; no chain source, SW-CHAIN-1), else the
    chain source (``chain_source``; 0 in any other mode)."""
    if mode == MODE.olympia and (st.olympia_used[p] == st.g[GS.age]
                                 or not _has_special(st, data, p, SPECIAL.free_build_once_per_age)):
        return -1
    if mode == MODE.token and st.gp_free_build[p] <= 0:
        return -1
    if mode == MODE.chain:
        chain = chain_source(st, data, rules, p, c)
        return chain if chain > 0 else -1
    return 0


@kernel
def structure_cost(st: State, data: Data, rules: np.ndarray, p: int, c: int, mode: int, part: int) -> int:
    """Coins due to the bank for building c in ``mode`` with participation ``part``; the resources to cover are left in
    st.need. -1 when the mode is not available. One combined payment (SW-DEC-9):

    pay: the printed cost (SW-COST-1); tile 2 waives a red card's resources (BABEL-TILE-2); tiles 8/23 turn a blue
    card's / guild's resources into 1 coin each (BABEL-TILE-8 / BABEL-TILE-23). chain: free (SW-CHAIN-1, BABEL-TILE-7).
    olympia: free once per Age (SW-WONDER-3). token: free with a free-build token (BABEL-GP-13). discard: free from the
    discard pile (SW-WONDER-4; the caller checks the pending stage). Free builds stay free under tiles 8/23 unless
    ``coin_tiles_spare_free_builds`` is off (SW-DEC-10). Every mode adds the tax tiles met (BABEL-TILE-1 / BABEL-TILE-6
    / BABEL-TILE-13 / BABEL-TILE-16) and the participation cost (BABEL-GP-2 / BABEL-GP-3 / BABEL-GP-4).
    """
    age = st.g[GS.age]
    for r in range(N_RES):
        st.need[r] = 0
    coins = 0
    chain = build_mode(st, data, rules, p, c, mode)
    if chain < 0:
        return -1  # checked first: most modes are unavailable, and the tile questions below cost more
    per_unit = coins_per_unit(st, data, rules, build_triggers(data, rules, c, 0))
    if mode == MODE.pay:
        coins = data.card_cost_coins[c]
        if per_unit >= 0:
            coins += per_unit * data.card_cost_units[c]
        elif active_kind(st, data, rules, TILE_KIND.ignore_resource_cost, build_triggers(data, rules, c, 0)) == 0:
            for r in range(N_RES):
                st.need[r] = data.card_cost_res[c, r]
    free = mode == MODE.olympia or mode == MODE.token or mode == MODE.discard
    if free and per_unit >= 0 and not rules[R.coin_tiles_spare_free_builds]:
        coins += per_unit * data.card_cost_units[c]
    coins += coins_for(st, data, rules, TILE_KIND.tax_on_build, build_triggers(data, rules, c, chain), age)
    if part != PART_NONE:
        if not can_participate(st, data, rules, p, data.card_color[c], part == PART_WILD):
            return -1
        coins += participation_coins(st, data, rules)
        for r in range(N_RES):
            st.need[r] += data.gp_cost_res[st.g[GS.gp], r]
    return coins


@kernel
def stage_cost(st: State, data: Data, rules: np.ndarray, p: int, token: int) -> int:
    """Coins due to the bank for p's next Wonder stage (SW-ACT-2, SW-WONDER-1); resources in st.need; -1 if no stage is
    left. Tile 15 or a free-stage token waives the resources, never the coins (BABEL-TILE-15, BABEL-GP-13); tax tile 16
    adds the Age value (BABEL-TILE-16)."""
    w = st.wonder[p]
    s = st.side[p]
    j = st.stages[p]
    for r in range(N_RES):
        st.need[r] = 0
    if j >= data.wonder_n_stages[w, s] or (token and st.gp_free_stage[p] <= 0):
        return -1
    stage_bit = 1 << TR.wonder_stage
    if not token and active_kind(st, data, rules, TILE_KIND.ignore_resource_cost, stage_bit) == 0:
        for r in range(N_RES):
            st.need[r] = data.stage_cost_res[w, s, j, r]
    return data.stage_cost_coins[w, s, j] + coins_for(st, data, rules, TILE_KIND.tax_on_build, stage_bit,
                                                      st.g[GS.age])


@kernel
def prefer_side(st: State, rules: np.ndarray, p: int) -> int:
    """SW-DEC-1: among equally cheap plans pay the neighbour with fewer VP, then the left one."""
    if rules[R.trade_tie_prefers_fewer_vp] and st.vp_now[neighbour(st, p, 1)] < st.vp_now[neighbour(st, p, 0)]:
        return 1
    return 0


@kernel
def option_price(st: State, data: Data, rules: np.ndarray, p: int, act: int, slot: int, extra: int,
                 part: int) -> int:
    """Total coins the option costs p (bank + neighbours), or -1 if it is not legal to pay (SW-COST-1, SW-TRADE-4:
    coins held at the start of the turn). The trade part comes from p's cache (``trade_cost``); ``price_with``
    computes the plan itself."""
    return _price(st, data, rules, p, act, slot, extra, part, -1)


@kernel
def price_with(st: State, data: Data, rules: np.ndarray, p: int, act: int, slot: int, extra: int, part: int,
               prefer: int) -> int:
    """``option_price`` with the purchase plan left in st.buy: ``prefer`` (0 left, 1 right) is the neighbour paid
    first among equally cheap plans (SW-DEC-1: the default side, or the one the player chose)."""
    return _price(st, data, rules, p, act, slot, extra, part, prefer)


@kernel
def _price(st: State, data: Data, rules: np.ndarray, p: int, act: int, slot: int, extra: int, part: int,
           prefer: int) -> int:
    c = st.hand[p, slot]
    if act == ACT.build:
        bank = structure_cost(st, data, rules, p, c, extra, part)
    elif act == ACT.stage:
        bank = stage_cost(st, data, rules, p, extra)
    else:
        return 0
    if bank < 0 or bank > st.coins[p]:
        return -1
    trade = trade_cost(st, rules, p) if prefer < 0 else cheapest_trade(st, rules, p, prefer)
    if trade < 0 or bank + trade > st.coins[p]:
        return -1
    return bank + trade


# ------------------------------------------------------------------------------------------- options

@kernel
def is_legal(st: State, data: Data, rules: np.ndarray, p: int, act: int, slot: int, extra: int, part: int) -> bool:
    """Legality predicate for one option (checked independently of ``turn_options``'s enumeration)."""
    if slot < 0 or slot >= st.hand_n[p]:
        return False
    c = st.hand[p, slot]
    if act == ACT.sell:
        return extra == 0 and part == 0  # SW-ACT-3: always legal
    if act == ACT.tile:  # BABEL-ACT-1 / BABEL-ACT-2: an own unbuilt tile, module on
        return (rules[R.babel_tower] == 1 and part == 0 and 0 <= extra < 3 and st.tiles[p, extra] >= 0
                and st.tile_built[p, extra] == 0)
    if act == ACT.stage:
        return part == 0 and (extra == 0 or extra == 1) and option_price(st, data, rules, p, act, slot, extra, 0) >= 0
    if act != ACT.build or extra < 0 or extra >= N_HAND_MODES or part < 0 or part > 2:
        return False
    if st.has_name[p, data.card_name[c]]:
        return False  # SW-ACT-4
    return option_price(st, data, rules, p, act, slot, extra, part) >= 0


@kernel
def _put(st: State, n_opt: int, act: int, slot: int, extra: int, part: int, price: int = 0) -> int:
    st.price[n_opt] = price
    st.options[n_opt, 0] = act
    st.options[n_opt, 1] = slot
    st.options[n_opt, 2] = extra
    st.options[n_opt, 3] = part
    return n_opt + 1


@kernel
def turn_options(st: State, data: Data, rules: np.ndarray, p: int) -> int:
    """Every legal use of every card in p's hand, into st.options; returns the count (never 0: selling is legal).

    Per card: build it in each available mode (pay / chain / Olympia / free-build token), each with or without Great
    Project participation; the next Wonder stage (paid, or with a free-stage token); sell it; discard it for each
    unbuilt Babel tile. Identical cards in the hand give identical options.
    """
    return options_from(st, data, rules, p, 0)


@kernel
def options_from(st: State, data: Data, rules: np.ndarray, p: int, first: int) -> int:
    """``turn_options`` for the cards in p's hand slots first.. only (the Free City's candidate cards sit after its
    pile, SW-2P-4)."""
    n_opt = 0
    stage0 = option_price(st, data, rules, p, ACT.stage, first, 0, 0) if st.hand_n[p] > first else -1
    stage1 = option_price(st, data, rules, p, ACT.stage, first, 1, 0) if st.hand_n[p] > first else -1
    for slot in range(first, st.hand_n[p]):
        c = st.hand[p, slot]
        if not st.has_name[p, data.card_name[c]]:
            for mode in range(N_HAND_MODES):
                if build_mode(st, data, rules, p, c, mode) < 0:
                    continue  # closed with every participation: spares three calls of the pricing below
                for part in range(3):
                    if part != PART_NONE and not can_participate(st, data, rules, p, data.card_color[c],
                                                                 part == PART_WILD):
                        continue  # spares the payment search: structure_cost would refuse it
                    price = option_price(st, data, rules, p, ACT.build, slot, mode, part) if n_opt < MAX_OPT else -1
                    if price >= 0:
                        n_opt = _put(st, n_opt, ACT.build, slot, mode, part, price)
        for token in range(2):  # the stage's price does not depend on the card tucked (SW-ACT-2)
            price = stage0 if token == 0 else stage1
            if price >= 0 and n_opt < MAX_OPT:
                n_opt = _put(st, n_opt, ACT.stage, slot, token, 0, price)
        if n_opt < MAX_OPT:
            n_opt = _put(st, n_opt, ACT.sell, slot, 0, 0)
        if rules[R.babel_tower]:
            for k in range(3):
                if st.tiles[p, k] >= 0 and st.tile_built[p, k] == 0 and n_opt < MAX_OPT:
                    n_opt = _put(st, n_opt, ACT.tile, slot, k, 0)
    return n_opt


@kernel
def apply_option(st: State, data: Data, rules: np.ndarray, p: int, i: int) -> None:
    """Record option i as p's secret pick with its payment (bank, left, right), planned on the start-of-turn state
    (SW-TURN-1 / SW-TURN-4, SW-DEC-2); nothing moves until ``resolve_picks``."""
    apply_paid(st, data, rules, p, i, prefer_side(st, rules, p))


@kernel
def apply_paid(st: State, data: Data, rules: np.ndarray, p: int, i: int, prefer: int) -> None:
    """``apply_option`` with the payment plan's tie-break side given (SW-DEC-1: the player's choice)."""
    record_pick(st, data, rules, p, i)
    act = st.options[i, 0]
    total = 0
    if act == ACT.build or act == ACT.stage:
        total = price_with(st, data, rules, p, act, st.options[i, 1], st.options[i, 2], st.options[i, 3], prefer)
    record_paid(st, rules, p, total)


@kernel
def record_pick(st: State, data: Data, rules: np.ndarray, p: int, i: int) -> None:
    """Option i as p's secret pick, with its chain source (SW-DEC-11); its payment is recorded apart (st.paid)."""
    for k in range(4):
        st.pick[p, k] = st.options[i, k]
    st.pick_chain[p] = 0
    if st.options[i, 0] == ACT.build and st.options[i, 2] == MODE.chain:
        st.pick_chain[p] = chain_source(st, data, rules, p, st.hand[p, st.options[i, 1]])


@kernel
def record_paid(st: State, rules: np.ndarray, p: int, total: int) -> None:
    """p's payment of ``total`` coins as (bank, left, right) in st.paid, the neighbours' shares from the purchase
    plan in st.buy (0 coins: nothing bought, whatever st.buy holds)."""
    for k in range(3):
        st.paid[p, k] = 0
    if total > 0:
        for s in range(2):
            for r in range(N_RES):
                st.paid[p, 1 + s] += st.buy[s, r] * unit_price(st, rules, p, s, r)
    st.paid[p, 0] = total - st.paid[p, 1] - st.paid[p, 2]


@kernel
def pay(st: State, p: int) -> None:
    """SW-TURN-4 (1): p pays his recorded payment (st.paid); the neighbours' shares wait in st.income."""
    st.coins[p] -= st.paid[p, 0] + st.paid[p, 1] + st.paid[p, 2]
    st.income[neighbour(st, p, 0)] += st.paid[p, 1]
    st.income[neighbour(st, p, 1)] += st.paid[p, 2]


# ------------------------------------------------------------------------------------------- resolution

@kernel
def _take_from_hand(st: State, p: int, slot: int) -> int:
    c = st.hand[p, slot]
    last = st.hand_n[p] - 1
    st.hand[p, slot] = st.hand[p, last]
    st.hand[p, last] = -1
    st.hand_n[p] = last
    return c


@kernel
def _to_discard(st: State, c: int) -> None:
    st.discard[st.g[GS.discard_n]] = c
    st.g[GS.discard_n] += 1


@kernel
def _self_counted(data: Data, c: int) -> int:
    """1 if card c counts itself in its own per-element effect (Lighthouse)."""
    return 1 if data.card_pe_scope[c] & 1 and (data.card_pe_colors[c] >> data.card_color[c]) & 1 else 0


@kernel
def _structure_income(st: State, data: Data, rules: np.ndarray, p: int, c: int, chain: int) -> int:
    """Coins a new structure brings at the end of the turn: its own coins (SW-COM-1) and the subsidy tiles met
    (BABEL-TILE-5 / BABEL-TILE-14 / BABEL-TILE-24, active at the build, SW-DEC-13); per-element coins are added by the
    caller."""
    return data.card_coins[c] + coins_for(st, data, rules, TILE_KIND.bonus_coins_on_build,
                                          build_triggers(data, rules, c, chain), st.g[GS.age])


@kernel
def resolve_picks(st: State, data: Data, rules: np.ndarray) -> None:
    """SW-TURN-4: (1) every payment, with start-of-turn coins; (2) every card placed (city, under the Wonder, discard
    pile); (3) all income: sales, card and stage coins, per-element coins counted after all placements (SW-DEC-3; before
    them with ``commerce_counts_after_placement`` off), tile subsidies, neighbours' coins. Production and discounts of
    the new cards serve from the next payment on."""
    n = st.g[GS.n]
    age = st.g[GS.age]
    for p in range(n):
        st.income[p] = 0
    for p in range(n):
        if st.pick[p, 0] == PICK_NONE:
            continue
        pay(st, p)
        if st.pick[p, 0] == ACT.build:
            c = st.hand[p, st.pick[p, 1]]
            st.pe_before[p] = per_element(st, data, p, c) + _self_counted(data, c)
    for p in range(n):
        act = st.pick[p, 0]
        if act == PICK_NONE:
            continue
        extra = st.pick[p, 2]
        c = _take_from_hand(st, p, st.pick[p, 1])
        if act == ACT.build:
            add_structure(st, data, p, c)
            if extra == MODE.olympia:
                st.olympia_used[p] = age
            elif extra == MODE.token:
                st.gp_free_build[p] -= 1
            if st.pick[p, 3] != PART_NONE:
                take_participation(st, p, st.pick[p, 3] == PART_WILD)
            st.income[p] += _structure_income(st, data, rules, p, c, st.pick_chain[p])
        elif act == ACT.stage:
            j = add_stage(st, data, p)
            st.g[GS.tucked_n] += 1
            if extra == 1:
                st.gp_free_stage[p] -= 1
            st.income[p] += data.stage_coins[st.wonder[p], st.side[p], j]
            if data.stage_special[st.wonder[p], st.side[p], j] == SPECIAL.build_from_discard:
                st.pending[p] += 1
        elif act == ACT.sell:
            _to_discard(st, c)
            st.income[p] += rules[R.discard_coins]
        elif act == ACT.tile:
            _to_discard(st, c)  # BABEL-ACT-1: discarded, no coins
            st.tile_rec[st.tiles[p, extra], TREC.builder] = p
            st.tile_built[p, extra] = 1
            st.tiles_built[p] += 1
            st.tile_due[p] |= 1 << st.tiles[p, extra]
    for p in range(n):
        if st.pick[p, 0] == ACT.build:
            c = st.city[p, st.city_n[p] - 1]
            count = per_element(st, data, p, c) if rules[R.commerce_counts_after_placement] else st.pe_before[p]
            st.income[p] += data.card_pe_coins[c] * count
    for p in range(n):
        st.coins[p] += st.income[p]
        st.income[p] = 0
        if _adds_output(st, data, p):
            refresh_production(st, data, rules, p)  # nothing else changes a player's production view
        st.pick[p, 0] = PICK_NONE


@kernel
def _adds_output(st: State, data: Data, p: int) -> bool:
    """Whether what p's pick just placed adds to his production view (a structure with output, a stage with a choice
    or a discount): the view is current before it, so only then can a refresh change it."""
    act = st.pick[p, 0]
    if act == ACT.build:
        return data.card_output[st.city[p, st.city_n[p] - 1]] != 0
    if act == ACT.stage:
        w, s, j = st.wonder[p], st.side[p], st.stages[p] - 1
        return data.stage_choice[w, s, j] != 0 or data.stage_discount[w, s, j] != 0
    return False


@kernel
def seventh_card_seats(st: State, data: Data) -> int:
    """SW-WONDER-5: bit p set when p may use his last card this Age (Babylon B stage 2 built, one card left). Never
    the Free City: its pile's last card is discarded (SW-2P-5, SW-DEC-26)."""
    bits = 0
    for p in range(players(st)):
        if st.hand_n[p] == 1 and _has_special(st, data, p, SPECIAL.play_seventh_card):
            bits |= 1 << p
    return bits


@kernel
def seventh_card_options(st: State, data: Data, rules: np.ndarray, p: int) -> int:
    """SW-WONDER-5 / SW-DEC-8: the uses of Babylon B's 7th card (all four actions, a tile only with
    ``seventh_card_any_action``)."""
    n_opt = turn_options(st, data, rules, p)
    if rules[R.seventh_card_any_action]:
        return n_opt
    kept = 0
    for i in range(n_opt):
        if st.options[i, 0] != ACT.tile:
            for k in range(4):
                st.options[kept, k] = st.options[i, k]
            st.price[kept] = st.price[i]  # the turn features and the payment decision read each row's price
            kept += 1
    return kept


@kernel
def discard_last_cards(st: State) -> None:
    """SW-TURN-3: the card left after turn 6 is discarded face down without compensation."""
    st.g[GS.pile_before_last] = st.g[GS.discard_n]
    for p in range(st.g[GS.n]):
        while st.hand_n[p] > 0:
            _to_discard(st, _take_from_hand(st, p, 0))


@kernel
def discard_build_options(st: State, data: Data, rules: np.ndarray, p: int) -> int:
    """SW-WONDER-4: the structures p may build for free from the whole discard pile (not one he holds, SW-ACT-4), each
    with or without participation (BABEL-GP-4 / BABEL-GP-8); option 0 declines. Rows: (build, pile index, discard,
    participation); taxes and participation are still paid (BABEL-TILE-1 / BABEL-TILE-6, SW-DEC-9). The cards discarded
    at the Age's end are in the pile unless ``halikarnassos_sees_last_discards`` is off (SW-DEC-4)."""
    n_opt = _put(st, 0, PICK_NONE, -1, 0, 0)
    for i in range(_visible_pile(st, rules)):
        c = st.discard[i]
        if st.has_name[p, data.card_name[c]]:
            continue
        duplicate = False
        for j in range(i):
            if st.discard[j] == c:
                duplicate = True
        if duplicate:
            continue
        for part in range(3):
            if n_opt < MAX_OPT and _discard_price(st, data, rules, p, c, part) >= 0:
                n_opt = _put(st, n_opt, ACT.build, i, MODE.discard, part)
    return n_opt


@kernel
def _visible_pile(st: State, rules: np.ndarray) -> int:
    """How much of the discard pile Halikarnassos may search (SW-DEC-4)."""
    if not rules[R.halikarnassos_sees_last_discards] and st.g[GS.pile_before_last] >= 0:
        return st.g[GS.pile_before_last]
    return st.g[GS.discard_n]


@kernel
def discard_build_is_legal(st: State, data: Data, rules: np.ndarray, p: int, i: int, part: int) -> bool:
    """Predicate for SW-WONDER-4: with a build pending, declining (i = -1) or building pile card i for free, never a
    name p holds (SW-ACT-4), if the taxes and participation can be paid."""
    if st.pending[p] <= 0 or part < 0 or part > 2:
        return False
    if i == -1:
        return part == 0
    if i < 0 or i >= _visible_pile(st, rules) or st.has_name[p, data.card_name[st.discard[i]]]:
        return False
    return _discard_price(st, data, rules, p, st.discard[i], part) >= 0


@kernel
def _discard_price(st: State, data: Data, rules: np.ndarray, p: int, c: int, part: int) -> int:
    bank = structure_cost(st, data, rules, p, c, MODE.discard, part)
    if bank < 0:
        return -1
    trade = cheapest_trade(st, rules, p, prefer_side(st, rules, p))
    if trade < 0 or bank + trade > st.coins[p]:
        return -1
    return bank + trade


@kernel
def apply_discard_build(st: State, data: Data, rules: np.ndarray, p: int, i: int) -> None:
    """Play option i of ``discard_build_options`` at once: pay, build, collect (SW-WONDER-4). The payment (taxes and
    participation, its resources bought by the default SW-DEC-1 plan) is recorded in st.paid as a pick's is
    (``record_paid``), for the records and the trace; declining records nothing paid."""
    st.pending[p] -= 1
    total = 0
    if st.options[i, 0] != PICK_NONE:
        total = _discard_price(st, data, rules, p, st.discard[st.options[i, 1]], st.options[i, 3])
    record_paid(st, rules, p, total)
    if st.options[i, 0] == PICK_NONE:
        return
    k = st.options[i, 1]
    c = st.discard[k]
    part = st.options[i, 3]
    pay(st, p)
    for s in range(2):
        q = neighbour(st, p, s)
        st.coins[q] += st.income[q]  # the build is played at once: so are its payments
        st.income[q] = 0
    last = st.g[GS.discard_n] - 1
    st.discard[k] = st.discard[last]
    st.discard[last] = -1
    st.g[GS.discard_n] = last
    add_structure(st, data, p, c)
    if part != PART_NONE:
        take_participation(st, p, part == PART_WILD)
    st.coins[p] += _structure_income(st, data, rules, p, c, 0) + data.card_pe_coins[c] * per_element(st, data, p, c)
    refresh_production(st, data, rules, p)


@kernel
def end_turn(st: State, data: Data, rules: np.ndarray) -> None:
    """BABEL-PLACE-1 / BABEL-PLACE-3 then SW-TURN-1 / SW-TURN-2: tiles built this turn are placed in number order, hands
    pass (left in Ages I and III, right in Age II) unless the Age is over, and the next turn begins. Two players swap
    hands instead, and the Free City card goes with its holder's (SW-2P-2)."""
    place_due_tiles(st, data, rules)
    n = st.g[GS.n]
    for p in range(n):
        st.gp_took[p] = 0
    if st.g[GS.turn] < rules[R.turns_per_age]:
        if fc_seat(st) >= 0:
            swap_hands(st)
        else:
            pass_hands(st, 0 if st.g[GS.age] != 2 else 1)
    st.g[GS.turn] += 1
    refresh_vp(st, data, rules)


@kernel
def pass_hands(st: State, side: int) -> None:
    """SW-TURN-2: every hand moves to the ``side`` neighbour (0 = left: p -> p + 1; 1 = right: p -> p - 1)."""
    n = st.g[GS.n]
    for k in range(st.hand.shape[1]):
        if side == 0:
            tmp = st.hand[n - 1, k]
            for q in range(n - 1, 0, -1):
                st.hand[q, k] = st.hand[q - 1, k]
            st.hand[0, k] = tmp
        else:
            tmp = st.hand[0, k]
            for q in range(n - 1):
                st.hand[q, k] = st.hand[q + 1, k]
            st.hand[n - 1, k] = tmp
    if side == 0:
        tmp = st.hand_n[n - 1]
        for q in range(n - 1, 0, -1):
            st.hand_n[q] = st.hand_n[q - 1]
        st.hand_n[0] = tmp
    else:
        tmp = st.hand_n[0]
        for q in range(n - 1):
            st.hand_n[q] = st.hand_n[q + 1]
        st.hand_n[n - 1] = tmp


@kernel
def swap_hands(st: State) -> None:
    """SW-2P-2: the two players' hands change places; the Free City card travels with its holder's, so the other
    player controls the Free City next turn."""
    for k in range(st.hand.shape[1]):
        st.hand[0, k], st.hand[1, k] = st.hand[1, k], st.hand[0, k]
    st.hand_n[0], st.hand_n[1] = st.hand_n[1], st.hand_n[0]
    st.g[GS.fc_holder] = 1 - st.g[GS.fc_holder]
