"""7 Wonders + Babel on the core's round driver (sim/core/turns.py): a round is one game turn (BABEL-SEQ-1 order).

Setup: boards, sides and coins (SW-SETUP-1), the Babel tiles dealt (BABEL-SETUP-2), the tile draft (BABEL-SETUP-3)
and the start of Age I. Then each Age: the project revealed and the hands dealt (BABEL-GP-1, SW-SETUP-3); six turns
(every seat decides on its own hand and the start-of-turn state, then ``resolve_picks`` applies the picks together,
SW-TURN-4; Babylon B's 7th card and the last discards in turn 6, Halikarnassos, tile placement, passing); the project
resolution, military and the return of the tokens (BABEL-GP-9..12, SW-MIL-2). After Age III: scoring (SW-END-1) and
the ranking keys (total, then coins: SW-END-2). Every choice goes through ``sim.core.play.decide``; features are
filled only for a seat whose policy reads them. The driver may stop at the start of any turn (the Age's end and
the next Age's start close the round of its last turn). With two players the Free City is a third seat (SW-2P-1):
``two_player_picks`` replaces the turn's decisions (the holder's draw, both players' picks, then the holder's
choices for the Free City, free_city.py), and the records and ranking cover the players only.

Invariants asserted in checked mode: SW-INV-1 cards conserved (hands + cities + discard pile + cards under stages +
removed cards = cards dealt, after every turn and every Age); SW-INV-2 coins never negative; BABEL-INV-1
participation tokens all returned at the end of each Age; BABEL-INV-2 at most the board's slots visible, at most 3
tiles built per player and tiles built = tiles marked built.
"""

from __future__ import annotations


from sim.core.jit import kernel
from sim.core.play import checking, clear_features, decide, event, scored
from sim.core.state import M
from sim.core.turns import GOES_ON, bind_rounds
from sim.seven_wonders import babel, free_city, projects, setup, turn
from sim.seven_wonders.babel import effect_of
from sim.seven_wonders.data import COL, PENALTY, SCI_ANY, SPECIAL, TILE_KIND, Data
from sim.seven_wonders.events import EV
from sim.seven_wonders.payment import neighbour
from sim.seven_wonders.records import END_AGE_THREE, GC, PC
from sim.seven_wonders.rules import R
from sim.seven_wonders.schema import D, F
from sim.seven_wonders.scoring import SC, N_SC, per_element, resolve_military, science_points, score_player
from sim.seven_wonders.seats import fc_seat, players, seat_count
from sim.seven_wonders.state import GPREC, GS, LAYOUT, ST
from sim.seven_wonders.turn import ACT, MODE, PART_NONE


# ------------------------------------------------------------------------------------------------ features
@kernel
def science_gain(st, rules, p: int, sym: int) -> int:
    """Science VP p gains from one more symbol (0..2, or SCI_ANY a wild) (SW-SCI-1 / SW-SCI-2)."""
    c, g, t, w = st.science[p, 0], st.science[p, 1], st.science[p, 2], st.science[p, 3]
    vp = rules[R.science_set_vp] + st.gp_sci_set[p]
    before = science_points(c, g, t, w, vp)
    if sym == 0:
        c += 1
    elif sym == 1:
        g += 1
    elif sym == 2:
        t += 1
    else:
        w += 1
    return science_points(c, g, t, w, vp) - before


@kernel
def overtakes(st, p: int, gain: int) -> int:
    """Neighbours whose military strength p would reach or pass with ``gain`` more shields (from below or equal)."""
    k = 0
    if gain <= 0:
        return 0
    for side in range(2):
        q = neighbour(st, p, side)
        if st.shields[p] <= st.shields[q] < st.shields[p] + gain:
            k += 1
    return k


@kernel
def card_value(st, d: Data, rules, p: int, c: int, f0: int, i: int) -> None:
    """The card-value block of structure c for p (schema.CARD_VALUE) into features f0.. of option i."""
    fe = st.features
    fe[f0, i] = d.card_vp[c]
    fe[f0 + 1, i] = d.card_shields[c]
    sym = d.card_science[c]
    fe[f0 + 2, i] = science_gain(st, rules, p, sym) if sym >= 0 else 0
    count = per_element(st, d, p, c) if d.card_pe_coins[c] != 0 or d.card_pe_vp[c] != 0 else 0
    fe[f0 + 3, i] = d.card_coins[c] + d.card_pe_coins[c] * count
    units = 1 if d.card_choice[c] != 0 else 0
    for r in range(d.card_prod.shape[1]):
        units += d.card_prod[c, r]
    fe[f0 + 4, i] = units
    fe[f0 + 5, i] = d.card_pe_vp[c] * count


@kernel
def stage_value(st, d: Data, rules, p: int, f0: int, i: int) -> None:
    """The card-value block of p's next Wonder stage into features f0.. of option i."""
    fe = st.features
    w, s, j = st.wonder[p], st.side[p], st.stages[p]
    fe[f0, i] = d.stage_vp[w, s, j]
    fe[f0 + 1, i] = d.stage_shields[w, s, j]
    fe[f0 + 2, i] = science_gain(st, rules, p, SCI_ANY) if d.stage_science[w, s, j] == SCI_ANY else 0
    fe[f0 + 3, i] = d.stage_coins[w, s, j]
    fe[f0 + 4, i] = 1 if d.stage_choice[w, s, j] != 0 else 0


@kernel
def fill_turn_features(st, d: Data, rules, p: int, n_opt: int) -> None:
    """Features of the uses of p's cards (turn decision)."""
    clear_features(st, D.turn, n_opt)
    fe = st.features
    first_stage = -1
    for i in range(n_opt):
        act = st.options[i, 0]
        c = st.hand[p, st.options[i, 1]]
        extra = st.options[i, 2]
        fe[F.tu_cost, i] = st.price[i]
        if act == ACT.build:
            fe[F.tu_build, i] = 1.0
            card_value(st, d, rules, p, c, F.tu_vp, i)
            fe[F.tu_mil, i] = overtakes(st, p, d.card_shields[c])
            fe[F.tu_free, i] = 1.0 if extra != MODE.pay else 0.0
            fe[F.tu_commerce, i] = 1.0 if d.card_color[c] == COL.yellow or d.card_discount[c] != 0 else 0.0
            fe[F.tu_part, i] = 1.0 if st.options[i, 3] != PART_NONE else 0.0
            fe[F.tu_chain, i] = d.card_next[c]
        elif act == ACT.stage:
            if first_stage < 0:  # every stage option of a turn has the same features
                first_stage = i
                fe[F.tu_stage, i] = 1.0
                stage_value(st, d, rules, p, F.tu_vp, i)
                w, s, j = st.wonder[p], st.side[p], st.stages[p]
                fe[F.tu_mil, i] = overtakes(st, p, d.stage_shields[w, s, j])
                fe[F.tu_special, i] = 1.0 if d.stage_special[w, s, j] != SPECIAL.none else 0.0
            else:
                for f in range(F.tu_build, F.tu_chain + 1):
                    fe[f, i] = fe[f, first_stage]
                fe[F.tu_cost, i] = st.price[i]
        elif act == ACT.sell:
            fe[F.tu_sell, i] = 1.0
            fe[F.tu_coins, i] = rules[R.discard_coins]
        else:
            fe[F.tu_tile, i] = 1.0
            k = st.tiles_built[p]
            fe[F.tu_tile_vp, i] = d.babel_vp[k + 1] - d.babel_vp[k]


@kernel
def fill_draft_features(st, d: Data, rules, p: int, n_opt: int) -> None:
    """Features of the tiles p may keep (tile_draft decision), from each tile's effect kind."""
    clear_features(st, D.tile_draft, n_opt)
    fe = st.features
    for i in range(n_opt):
        e = effect_of(rules, st.tile_pool[p, st.options[i, 0]])
        kind = d.tile_kind[e]
        if kind == TILE_KIND.tax_on_build:
            fe[F.td_tax, i] = 1.0
        elif kind == TILE_KIND.bonus_coins_on_build:
            fe[F.td_bonus, i] = 1.0
        elif (kind == TILE_KIND.ignore_resource_cost or kind == TILE_KIND.chain_from_neighbors
              or kind == TILE_KIND.free_resource_per_turn or kind == TILE_KIND.unlimited_production):
            fe[F.td_free, i] = 1.0
        elif (kind == TILE_KIND.disable_production or kind == TILE_KIND.disable_effects
              or kind == TILE_KIND.coins_instead_of_resources):
            fe[F.td_block, i] = 1.0
        elif kind == TILE_KIND.trade_price_delta:
            if d.tile_delta[e] > 0:
                fe[F.td_trade_up, i] = 1.0
            else:
                fe[F.td_trade_down, i] = 1.0
        else:
            fe[F.td_military, i] = 1.0


@kernel
def fill_hali_features(st, d: Data, rules, p: int, n_opt: int) -> None:
    """Features of the Halikarnassos builds (option 0 declines)."""
    clear_features(st, D.halikarnassos, n_opt)
    fe = st.features
    for i in range(n_opt):
        if st.options[i, 0] == turn.PICK_NONE:
            fe[F.ha_decline, i] = 1.0
            continue
        card_value(st, d, rules, p, st.discard[st.options[i, 1]], F.ha_vp, i)
        fe[F.ha_part, i] = 1.0 if st.options[i, 3] != PART_NONE else 0.0


@kernel
def fill_penalty_features(st, d: Data, rules, p: int, n_opt: int) -> None:
    """Features of the ways to bear a failed project's penalty."""
    clear_features(st, D.penalty, n_opt)
    fe = st.features
    kind = d.gp_penalty[st.g[GS.gp]]
    for i in range(n_opt):
        a = st.options[i, 0]
        if a == projects.UNBEARABLE:
            fe[F.pn_defeat, i] = d.gp_defeat[st.g[GS.age]]
        elif kind == PENALTY.lose_card and a >= 0:
            c = st.city[p, a]
            fe[F.pn_vp, i] = d.card_vp[c]
            fe[F.pn_shields, i] = d.card_shields[c]
            units = 1 if d.card_choice[c] != 0 else 0
            for r in range(d.card_prod.shape[1]):
                units += d.card_prod[c, r]
            fe[F.pn_res, i] = units
        elif kind == PENALTY.lose_victory_token:
            fe[F.pn_vp, i] = a + st.options[i, 1]


# ------------------------------------------------------------------------------------------------ decisions
@kernel
def choose_use(st, d: Data, p: int, n_opt: int) -> None:
    """p's turn decision over the n_opt listed uses, then the payment plan when two equally cheap plans pay the
    neighbours differently (SW-DEC-1), recorded as p's secret pick with the plan's payment (the plans computed here
    are not searched again)."""
    rules = st.rules
    if scored(st, p):
        fill_turn_features(st, d, rules, p, n_opt)
    i = decide(st, p, D.turn, n_opt)
    act = st.options[i, 0]
    default = turn.prefer_side(st, rules, p)
    if not ((act == ACT.build or act == ACT.stage) and st.price[i] > 0):
        turn.apply_paid(st, d, rules, p, i, default)
        return
    slot, extra, part = st.options[i, 1], st.options[i, 2], st.options[i, 3]
    total = 0
    for k in range(2):
        total = turn.price_with(st, d, rules, p, act, slot, extra, part, default if k == 0 else 1 - default)
        plan_coins(st, rules, p, k)
        if st.plan[0, 0] + st.plan[0, 1] == 0:
            break  # the cheapest plan pays the neighbours nothing: so does every equally cheap plan
    k = 0
    if st.plan[0, 0] + st.plan[0, 1] > 0 and st.plan[0, 0] != st.plan[1, 0]:
        if scored(st, p):
            clear_features(st, D.payment, 2)
            lead = 0 if st.vp_now[neighbour(st, p, 0)] > st.vp_now[neighbour(st, p, 1)] else 1
            for j in range(2):
                st.features[F.pm_default, j] = 1.0 if j == 0 else 0.0
                st.features[F.pm_to_leader, j] = st.plan[j, lead]
        # the options buffer holds the turn's uses: the two plans are decided on the feature rows alone
        k = decide(st, p, D.payment, 2)
    turn.record_pick(st, d, rules, p, i)
    record_plan(st, p, total, k)


@kernel
def plan_coins(st, rules, p: int, k: int) -> None:
    """st.plan[k] = the coins p's purchase plan in st.buy pays the left and the right neighbour."""
    for s in range(2):
        st.plan[k, s] = 0
        for r in range(st.buy.shape[1]):
            st.plan[k, s] += st.buy[s, r] * turn.unit_price(st, rules, p, s, r)


@kernel
def record_plan(st, p: int, total: int, k: int) -> None:
    """p's payment of ``total`` coins recorded (st.paid: bank, left, right) with the neighbours' shares of plan k
    (st.plan), as ``turn.record_paid`` records a plan's."""
    st.paid[p, 1] = st.plan[k, 0]
    st.paid[p, 2] = st.plan[k, 1]
    st.paid[p, 0] = total - st.plan[k, 0] - st.plan[k, 1]


@kernel
def count_pick(st, d: Data, p: int) -> None:
    """Records and the trace for p's pick, before it resolves."""
    act, slot, extra, part = st.pick[p, 0], st.pick[p, 1], st.pick[p, 2], st.pick[p, 3]
    c = st.hand[p, slot]
    paid = st.paid[p, 0] + st.paid[p, 1] + st.paid[p, 2]
    event(st, p, EV.pick, act, c, extra, part, paid)
    count_trade(st, p)
    if act == ACT.build:
        st.stat[p, ST.built] += 1
        if extra == MODE.chain:
            st.stat[p, ST.chain_builds] += 1
        elif extra == MODE.olympia or extra == MODE.token:
            st.stat[p, ST.free_builds] += 1
        if part != PART_NONE:
            st.stat[p, ST.gp_tokens] += 1
    elif act == ACT.sell:
        st.stat[p, ST.sold] += 1
    elif act == ACT.tile:
        st.stat[p, ST.tile_discards] += 1


@kernel
def count_trade(st, p: int) -> None:
    """Records and the trace for the neighbours' share of p's recorded payment (st.paid): a turn's pick or a
    Halikarnassos build (SW-TRADE-1)."""
    if st.paid[p, 1] + st.paid[p, 2] > 0:
        event(st, p, EV.trade, st.paid[p, 1], st.paid[p, 2])
    st.stat[p, ST.traded_out] += st.paid[p, 1] + st.paid[p, 2]
    st.stat[neighbour(st, p, 0), ST.traded_in] += st.paid[p, 1]
    st.stat[neighbour(st, p, 1), ST.traded_in] += st.paid[p, 2]


@kernel
def halikarnassos(st, d: Data, p: int) -> None:
    """SW-WONDER-4: each pending build from the discard pile (or none), decided and played at once; the Free City's
    by the Free City card's holder (free_city decision, SW-2P-4)."""
    rules = st.rules
    while st.pending[p] > 0:
        if p == fc_seat(st):
            h = st.g[GS.fc_holder]
            n_opt = free_city.hali_options(st, d, rules)
            if scored(st, h):
                fill_hali_features(st, d, rules, p, n_opt)
                fill_fc_features(st, d, rules, h, n_opt, F.ha_vp)
            i = decide(st, h, D.free_city, n_opt)
        else:
            n_opt = turn.discard_build_options(st, d, rules, p)
            if scored(st, p):
                fill_hali_features(st, d, rules, p, n_opt)
            i = decide(st, p, D.halikarnassos, n_opt)
        c = -1 if st.options[i, 0] == turn.PICK_NONE else st.discard[st.options[i, 1]]
        part = st.options[i, 3]
        turn.apply_discard_build(st, d, rules, p, i)
        event(st, p, EV.hali, c, part, st.paid[p, 0] + st.paid[p, 1] + st.paid[p, 2])
        count_trade(st, p)
        if c >= 0:
            st.stat[p, ST.hali_builds] += 1
            st.stat[p, ST.built] += 1
            if part != PART_NONE:
                st.stat[p, ST.gp_tokens] += 1


@kernel
def play_turn(st, d: Data) -> None:
    """One turn (BABEL-SEQ-1): secret picks on the start-of-turn state, resolved together (SW-TURN-4); in the
    Age's last turn Babylon B's 7th card and the last discards (SW-WONDER-5, SW-TURN-3, SW-DEC-4); Halikarnassos;
    tiles placed and hands passed (end_turn)."""
    rules = st.rules
    n = st.g[GS.n]
    st.g[GS.game_turn] += 1
    event(st, -1, EV.turn, st.g[GS.age], st.g[GS.turn])
    if fc_seat(st) >= 0:
        two_player_picks(st, d)
    else:
        for p in range(n):
            choose_use(st, d, p, turn.turn_options(st, d, rules, p))
    for p in range(n):
        count_pick(st, d, p)
    turn.resolve_picks(st, d, rules)
    if st.g[GS.turn] == rules[R.turns_per_age]:
        seats = turn.seventh_card_seats(st, d)
        if seats:
            for p in range(n):
                if (seats >> p) & 1:
                    event(st, p, EV.seventh)
                    st.stat[p, ST.seventh_played] += 1
                    choose_use(st, d, p, turn.seventh_card_options(st, d, rules, p))
                    count_pick(st, d, p)
            turn.resolve_picks(st, d, rules)
        turn.discard_last_cards(st)
    for p in range(n):
        halikarnassos(st, d, p)
    turn.end_turn(st, d, rules)  # each tile placed is logged as it is placed (babel.place_tile)
    if checking(st):
        check_turn(st)


@kernel
def two_player_picks(st, d: Data) -> None:
    """SW-2P-2: the holder of the Free City card draws the pile's top card and picks his own card, the other player
    his; then the holder picks the Free City's card and use among his other cards (SW-2P-4) and, for a paid build,
    which players it buys from; all three picks resolve together."""
    rules = st.rules
    h = st.g[GS.fc_holder]
    free_city.draw(st)
    for p in range(2):
        choose_use(st, d, p, turn.turn_options(st, d, rules, p))
    fc = fc_seat(st)
    n_opt = free_city.fc_options(st, d, rules, h)
    if scored(st, h):
        fill_turn_features(st, d, rules, fc, n_opt)
        fill_fc_features(st, d, rules, h, n_opt, F.tu_vp)
    i = decide(st, h, D.free_city, n_opt)
    act, slot, extra = st.options[i, 0], st.options[i, 1], st.options[i, 2]
    prefer = turn.prefer_side(st, rules, fc)
    if (act == ACT.build or act == ACT.stage) and st.price[i] > 0:
        k = free_city.fc_plans(st, d, rules, h, act, slot, extra)
        if k > 1 and scored(st, h):
            clear_features(st, D.fc_payment, k)
            me = 0 if neighbour(st, fc, 0) == h else 1
            for j in range(k):
                st.features[F.fp_to_me, j] = st.options[j, 1 + me]
                st.features[F.fp_to_rival, j] = st.options[j, 2 - me]
        prefer = st.options[decide(st, h, D.fc_payment, k), 0]
    free_city.give_card(st, d, rules, h, act, slot, extra, prefer)


@kernel
def fill_fc_features(st, d: Data, rules, h: int, n_opt: int, value0: int) -> None:
    """Features of the Free City's options for its controller h (free_city decision): the use, its cost, the
    card-value block already filled from ``value0`` on (turn or halikarnassos features, for the Free City), and
    which player its new shields reach."""
    clear_features(st, D.free_city, n_opt)
    fe = st.features
    fc = fc_seat(st)
    for i in range(n_opt):
        act = st.options[i, 0]
        fe[F.fc_build, i] = 1.0 if act == ACT.build else 0.0
        fe[F.fc_stage, i] = 1.0 if act == ACT.stage else 0.0
        fe[F.fc_sell, i] = 1.0 if act == ACT.sell else 0.0
        fe[F.fc_cost, i] = st.price[i] if value0 == F.tu_vp else 0.0
        for k in range(6):
            fe[F.fc_vp + k, i] = fe[value0 + k, i]
        gain = int(fe[value0 + 1, i])
        if gain > 0:
            for q in range(2):
                if st.shields[fc] <= st.shields[q] < st.shields[fc] + gain:
                    fe[F.fc_mil_me if q == h else F.fc_mil_rival, i] = 1.0


# ------------------------------------------------------------------------------------------------ invariants
@kernel
def check_turn(st) -> None:
    """SW-INV-1 (cards conserved) and SW-INV-2 (coins >= 0) after a turn."""
    n = st.g[GS.n]
    cards = st.g[GS.discard_n] + st.g[GS.tucked_n] + st.g[GS.removed_n]
    for p in range(n):
        cards += st.hand_n[p] + st.city_n[p]
        if st.coins[p] < 0:
            raise AssertionError("SW-INV-2: a player's coins went below 0 (SW-TRADE-4)")
    if cards != st.dealt[0]:
        raise AssertionError("SW-INV-1: cards not conserved (hands + cities + discards + stages + removed != dealt)")


@kernel
def check_age_end(st, d: Data) -> None:
    """BABEL-INV-1 (tokens returned) and BABEL-INV-2 (tiles) at the end of an Age, with SW-INV-1 / SW-INV-2."""
    check_turn(st)
    n = st.g[GS.n]
    for p in range(n):
        if st.gp_part[p] != 0 or st.gp_took[p] != 0:
            raise AssertionError("BABEL-INV-1: participation tokens not returned at the end of the Age (BABEL-GP-12)")
        built = st.tile_built[p, 0] + st.tile_built[p, 1] + st.tile_built[p, 2]
        if built != st.tiles_built[p] or built > 3:
            raise AssertionError("BABEL-INV-2: tiles built disagree with the tiles marked built (BABEL-ACT-2)")
    if st.g[GS.gp] != -1 or st.g[GS.gp_tokens] != 0:
        raise AssertionError("BABEL-INV-1: the project still holds tokens after the Age (BABEL-GP-12)")
    visible = 0
    for k in range(st.babel_slot.shape[0]):
        if st.babel_slot[k] >= 0:
            visible += 1
    if visible > d.babel_slots[players(st)]:
        raise AssertionError("BABEL-INV-2: more tiles visible than the board's slots (BABEL-ACTIVE-1)")


# ------------------------------------------------------------------------------------------------ phases
@kernel
def tile_draft(st, d: Data) -> None:
    """BABEL-SETUP-3: keep 1 of 3, pass right; keep 1 of 2, pass right; take the last (the players only:
    BABEL-2P-1)."""
    rules = st.rules
    n = players(st)
    for rnd in range(2):
        for p in range(n):
            n_opt = babel.tile_draft_options(st, p)
            if scored(st, p):
                fill_draft_features(st, d, rules, p, n_opt)
            j = st.options[decide(st, p, D.tile_draft, n_opt), 0]
            event(st, p, EV.keep_tile, st.tile_pool[p, j], rnd)
            babel.keep_tile(st, p, j)
        babel.pass_tiles_right(st)


@kernel
def resolve_project(st, d: Data) -> None:
    """BABEL-GP-9 / BABEL-GP-10 / BABEL-GP-11: success -> rewards per token; failure -> each player without a token
    bears the penalty (choosing how, where the penalty leaves a choice) or takes the Defeat token."""
    rules = st.rules
    n = st.g[GS.n]
    age = st.g[GS.age]
    k = st.g[GS.gp]
    rec = age - 1
    participants = 0
    tokens = 0
    for p in range(n):
        tokens += st.gp_part[p]
        if st.gp_part[p] > 0:
            participants += 1
    st.gp_rec[rec, GPREC.project] = k
    st.gp_rec[rec, GPREC.participants] = participants
    st.gp_rec[rec, GPREC.tokens] = tokens
    success = projects.project_succeeds(st, rules)
    event(st, -1, EV.project, k, 1 if success else 0, participants, tokens)
    if success:
        st.gp_rec[rec, GPREC.success] = 1
        for p in range(n):
            st.stat[p, ST.gp_success_tokens] += st.gp_part[p]
        projects.give_rewards(st, d, rules)
        return
    for p in range(players(st)):  # the Free City never bears a penalty (BABEL-GP-16)
        if st.gp_part[p] != 0:
            continue
        n_opt = projects.penalty_options(st, d, rules, p)
        if scored(st, p):
            fill_penalty_features(st, d, rules, p, n_opt)
        i = decide(st, p, D.penalty, n_opt)
        event(st, p, EV.penalty, d.gp_penalty[k], st.options[i, 0], st.options[i, 1])
        st.gp_rec[rec, GPREC.penalised] += 1
        st.stat[p, ST.gp_penalties] += 1
        if st.options[i, 0] == projects.UNBEARABLE:
            st.gp_rec[rec, GPREC.defeats] += 1
            st.stat[p, ST.gp_defeats] += 1
        projects.apply_penalty(st, d, rules, p, i, age)


@kernel
def age_end(st, d: Data) -> None:
    """BABEL-SEQ-1: project resolution, then military (SW-MIL-2), then the tokens return (BABEL-GP-12)."""
    rules = st.rules
    age = st.g[GS.age]
    if st.g[GS.gp] >= 0:
        resolve_project(st, d)
    else:
        st.gp_rec[age - 1, GPREC.project] = -1
    resolve_military(st, d, rules, age)
    for p in range(st.g[GS.n]):
        mil = st.defeat_vp[p]
        for v in range(st.victory.shape[1]):
            mil += v * st.victory[p, v]
        event(st, p, EV.military, st.shields[p], mil)
    projects.return_tokens(st)
    for p in range(st.g[GS.n]):
        st.gp_took[p] = 0
    if checking(st):
        check_age_end(st, d)


@kernel
def final_scoring(st, d: Data, reason: int) -> None:
    """SW-END-1 / SW-END-2: each player's score by source, the ranking keys (total, then coins) and the records; the
    Free City's score goes to the game record only: it never wins (SW-2P-3)."""
    rules = st.rules
    n = players(st)
    row = st.score_row
    for p in range(n):
        score_player(st, d, rules, p, row)
        pl = st.players[p]
        pl[PC.score] = row[SC.total]
        for k in range(N_SC - 1):
            pl[PC.vp_military + k] = row[k]
        st.keys[p, 0] = row[SC.total]
        st.keys[p, 1] = st.coins[p]
        pl[PC.coins] = st.coins[p]
        pl[PC.board] = st.wonder[p]
        pl[PC.side] = st.side[p]
        pl[PC.stages] = st.stages[p]
        for col in range(7):
            pl[PC.brown + col] = st.color_n[p, col]
        pl[PC.shields] = st.shields[p]
        victories = 0
        for v in range(1, st.victory.shape[1]):
            victories += st.victory[p, v]
        pl[PC.victory_tokens] = victories
        pl[PC.defeat_tokens] = st.defeat_n[p]
        pl[PC.tiles_built] = st.tiles_built[p]
        for j in range(3):
            pl[PC.tile_a + j] = st.tiles[p, j] + 1
        for k in range(st.stat.shape[1]):
            pl[PC.traded_out + k] = st.stat[p, k]
        event(st, p, EV.score, row[SC.total], st.coins[p])
    g = st.games
    free_city_record(st, d, g)
    built = 0
    for p in range(n):
        built += st.tiles_built[p]
    g[GC.tiles_built] = built
    g[GC.cards_removed] = st.g[GS.removed_n]
    for t in range(st.tile_rec.shape[0]):
        for k in range(3):
            g[GC.tile1_builder + 3 * t + k] = st.tile_rec[t, k]
    for a in range(3):
        for k in range(st.gp_rec.shape[1]):
            g[GC.gp1_project + 6 * a + k] = st.gp_rec[a, k]
    event(st, -1, EV.end)


@kernel
def free_city_record(st, d: Data, g) -> None:
    """The Free City's columns of the game record (SW-2P-3): its board, score and what it did; -1 / 0 without one."""
    fc = fc_seat(st)
    g[GC.fc_board] = -1
    if fc < 0:
        return
    row = st.score_row
    score_player(st, d, st.rules, fc, row)
    g[GC.fc_board] = st.wonder[fc]
    g[GC.fc_side] = st.side[fc]
    g[GC.fc_score] = row[SC.total]
    g[GC.fc_military] = row[SC.military]
    g[GC.fc_coins] = st.coins[fc]
    g[GC.fc_stages] = st.stages[fc]
    g[GC.fc_built] = st.stat[fc, ST.built]
    g[GC.fc_sold] = st.stat[fc, ST.sold]
    g[GC.fc_shields] = st.shields[fc]
    event(st, fc, EV.score, row[SC.total], st.coins[fc])


# ------------------------------------------------------------------------------------------------ hooks
@kernel
def start_age(st, d: Data) -> None:
    """The Age's project revealed and its hands dealt (BABEL-GP-1, SW-SETUP-3)."""
    setup.start_age(st, d, st.rules, st.g[GS.age])
    if fc_seat(st) >= 0:
        free_city.start_age(st)
    event(st, -1, EV.age, st.g[GS.age], st.g[GS.gp], st.g[GS.gp_tokens])


@kernel
def setup_game(st, d: Data) -> None:
    """SW-SETUP-1 and BABEL-SETUP-2: boards, sides, coins and the tiles dealt; the tile draft (BABEL-SETUP-3) and
    the start of Age I."""
    st.g[GS.n] = seat_count(st.meta[M.n_players])
    setup.setup_game(st, d, st.rules)
    for p in range(st.g[GS.n]):
        event(st, p, EV.board, st.wonder[p], st.side[p])
    st.g[GS.age] = 1
    if st.rules[R.babel_tower]:
        tile_draft(st, d)
    start_age(st, d)


@kernel
def play_round(st, d: Data) -> int:
    """One game turn; after the Age's last, the Age's end and the next Age's start, or END_AGE_THREE."""
    play_turn(st, d)
    if st.g[GS.turn] <= st.rules[R.turns_per_age]:
        return GOES_ON
    age_end(st, d)
    if st.g[GS.age] == 3:
        return END_AGE_THREE
    st.g[GS.age] += 1
    start_age(st, d)
    return GOES_ON


bind_rounds(LAYOUT, play_round, setup=setup_game, finish=final_scoring, rank_by_score=False)
