"""Circus Train on the core's turn driver (sim/core/turns.py): setup, turn and round hooks (CT-TURN-1b order).

Every choice a player makes goes through ``sim.core.play.decide`` after the options' features are written
(skipped for a random seat). A round is one week: the start-of-round safety fill (CT-ROUST-4), each player's turn
from the first player (CT-TURN-1: a card or an advanced turn option, its movement, its action, then the end of the
turn's shows and lone characters), the Roustabout phase (CT-ROUST-2) and the calendar (CT-ROUST-3); a month's end
scores, passes the first-player marker, runs the catch-up steal after a long month, reveals an Event card and
changes the season (CT-MONTH-1); September's end runs the taxes and final scoring (CT-SCORE-FINAL-*).
The driver keeps its place (the week is the round) and may stop at any turn start; the first player opens each
round (``first_seat``).
"""

from __future__ import annotations


from sim.circus_train import actions as A
from sim.circus_train import advanced as ADV
from sim.circus_train import hire as H
from sim.circus_train import special_hire as SH
from sim.circus_train import wages as W
from sim.circus_train.calendar import GAME_END, WEEK, advance_week, is_long_month, quota, special_hire_price
from sim.circus_train.cards import hand_size
from sim.circus_train.characters import can_recruit, recruit, ronald_options
from sim.circus_train.data import (BASIC, CHARACTER, CLOWN, EV_LEADER_LOSES, HOLD, N_TYPES, OVERNIGHT_HIRE,
                                   OVERNIGHT_TRANSIT, POINTS, PR, REP_TOP, REST, WAGE_TRANSIT, Data)
from sim.circus_train.events import event_apply, event_chooser, event_options, hire_delta, reveal_event
from sim.circus_train.final import (FINAL_STEPS, final_step, final_step_applies, ranking_keys, solo_band, taxed,
                                   taxes_begin)
from sim.circus_train.invariants import broken_invariant, quota_met
from sim.circus_train.movement import arrive, move_bounds, move_options
from sim.circus_train.perform import (end_turn_shows, famous_types, level_extra, owned_types, perform,
                                      performance_level, request_level, show_due, show_reserved_by_other)
from sim.circus_train.points import success_max
from sim.circus_train.records import END_SEPTEMBER, GC, PC
from sim.circus_train.roustabout import (change_season, city_talent_count, occupied_count, retire_lone_characters,
                                         roustabout, talent_on)
from sim.circus_train.rules import CHOICES, R
from sim.circus_train.schema import D, F
from sim.circus_train.scoring import (catch_up_options, catch_up_thief, most_talent, pass_first_player,
                                      score_month)
from sim.circus_train.setup import (place_train, setup_board, setup_supply, start_city_options, start_talent_options,
                                    take_start_talent)
from sim.circus_train.state import GS, LAYOUT, PL, ST
from sim.core.jit import kernel
from sim.core.names import namespace
from sim.core.play import checking, clear_features, decide, event, scored
from sim.core.state import M
from sim.core.turns import GOES_ON, bind_turns

EV = namespace("EV", (
    "start_talent",  # seat takes type a0
    "start_city",  # seat's train starts in city a0
    "week",  # a0 week (1-based), a1 first player, a2 occupied quota met (1) or bag empty (0)
    "turn",  # a0 ADV.PLAY / REPLAY / POCKET / EDDIE_REPLAY, a1 card or reputation steps
    "move",  # a0 from, a1 to, a2 moved
    "points",  # claims a Points counter: a0 VP, a1 city
    "recruit",  # a0 character counter, a1 die, a2 recruited
    "perform",  # a0 PR counter, a1 level, a2 money, a3 new best, a4 city
    "show_start",  # a0 PR counter, a1 city
    "hire_roll",  # a0 type, a1 die, a2 hired
    "hire_buy",  # a0 type
    "sam",  # Smuggler Sam: a0 type (-1: a reputation step)
    "steal",  # a0 victim, a1 counters tried, a2 counters taken
    "reserve_buy",  # a0 SH.BUY / BUY_CHARACTER, a1 type or character, a2 price
    "special_declined",  # Overnight Hire's Special Hire declined with a choice open (CT-AMB-42)
    "wages",  # a0 money paid, a1 counters released, a2 multiplier
    "fired_city",  # seat (the chooser) puts fired talent on city a0 (-1: the reserve)
    "rest",  # a0 ADV.REST_* reward
    "parade",  # a0 1 = reputation, 0 = VP
    "month",  # the end of month a0 (its scoring follows)
    "first_player",  # the first-player marker passes to a0
    "month_vp",  # a0 most-talent VP, a1 best-performance / April VP, a2 VP after
    "catch_up",  # a0 victim, a1 item (type, or 7 + character)
    "event_card",  # a0 Event card, a1 chooser, a2 chosen item (type, or 7 + character)
    "taxes",  # taxes of a 2-player game: a0 VP lost, a1 VP after (the doubled wages follow as "wages")
    "end_wages",  # solitaire end wages (CT-SOLO-6): a0 bill, a1 money paid, a2 money after
    "final_step",  # a final-scoring step (final.MOST_CLOWNS ..): a0 step, a1 change, a2 VP after (solitaire: $)
    "final",  # a0 VP, a1 money, a2 Best Performance, a3 PRs, a4 solitaire band
    "end",
))
"""Event types of a traced game (``sim.core.play.event``): seat, then a0..a4 as listed."""

POLICY = CHOICES["fired_city_policy"].index("policy")
MONEY_ONLY = CHOICES["solo_scoring"].index("money_only")


# ------------------------------------------------------------------------------------------------ features
NEAR_LEVEL, NEAR_TALENT, NEAR_RIVALS = range(3)
"""Rows of ``st.near``: performance level, talent counters, rival circuses' counters."""


@kernel
def count_asked(st, d: Data) -> None:
    """st.asked[t] = requests on the board that ask for talent type t (CT-PERF-2), for every type at once: the
    cities' packed asks (data.asks_packed; 0 for a counter that is no PR) summed in one word. A decision weighs
    each option's type by it."""
    city_item = st.city_item
    asks = d.ctr_asks
    packed = 0
    for c in range(city_item.shape[0]):
        item = city_item[c]
        if item >= 0:
            packed += asks[item]
    for t in range(N_TYPES):
        st.asked[t] = packed >> 8 * t & 0xFF


@kernel
def fill_rivals(st, p: int) -> None:
    """st.rivals[c] = talent counters of the other circuses whose trains stand on city c (what Overnight Hire may
    steal), for every city at once."""
    rivals = st.rivals
    for c in range(rivals.shape[0]):
        rivals[c] = 0
    for q in range(st.meta[M.n_players]):
        c = st.pl[q, PL.city]
        if q != p and c >= 0:
            rivals[c] += owned(st, q)


@kernel(inline="always")
def player_part(st, d: Data, p: int) -> tuple:
    """p's part of every performance level, for request_level: (owned types, famous types, famous multiplier,
    extra points)."""
    return owned_types(st, p), famous_types(st, d, p, -1), st.rules[R.famous_multiplier], level_extra(st, d, p)


@kernel(inline="always")
def reach_at(st, d: Data, p: int, c: int, part: tuple) -> int:
    """The performance level p would score at city c's request, 0 where p may not perform; p's part given."""
    k = st.city_item[c]
    if k >= 0 and d.ctr_kind[k] == PR and not show_reserved_by_other(st, p, k):
        owned, famous, multiplier, extra = part
        return max(1, request_level(d.ctr_base[k], d.ctr_bonus[k], owned, famous, multiplier, extra))
    return 0


@kernel
def fill_near(st, d: Data, p: int) -> None:
    """st.near[what, k] = the most of ``what`` (NEAR_LEVEL, NEAR_TALENT, NEAR_RIVALS) over the cities within k
    steps of p's train (reach_at, st.rivals): one pass over the cities serves every turn option's allowance, and
    cities beyond the longest movement are skipped. The arrays are read into locals once: a store through the
    handle would make each later field read load the field again."""
    near = st.near
    rivals = st.rivals
    city_talent = st.city_talent
    dist = d.dist[st.pl[p, PL.city]]
    part = player_part(st, d, p)
    width = near.shape[1]
    for what in range(near.shape[0]):
        for k in range(width):
            near[what, k] = 0
    for c in range(dist.shape[0]):
        k = dist[c]
        if k < width:
            near[NEAR_LEVEL, k] = max(near[NEAR_LEVEL, k], reach_at(st, d, p, c, part))
            near[NEAR_TALENT, k] = max(near[NEAR_TALENT, k], talent_on(city_talent, c))
            near[NEAR_RIVALS, k] = max(near[NEAR_RIVALS, k], rivals[c])
    for what in range(near.shape[0]):
        for k in range(1, width):
            near[what, k] = max(near[what, k], near[what, k - 1])


@kernel(inline="always")
def best_within(st, hi: int, what: int) -> int:
    """The most of ``what`` over the cities within hi steps (st.near, filled for the turn; as wide as the longest
    movement)."""
    return st.near[what, hi]


@kernel
def fill_turn_features(st, d: Data, p: int, n_opt: int) -> None:
    """Features of the turn options (H3): what each card can reach, costs, wages. What every option shares is taken
    once; every feature of the span is written for every option (turn_row), so none is cleared first."""
    fill_rivals(st, p)
    fill_near(st, d, p)
    bill = W.wage_bill(st, d, p, 1)
    price = special_hire_price(st, d)
    in_hand = hand_size(st, p)
    money = st.pl[p, PL.money]
    best = st.pl[p, PL.best]
    completes_show = show_due(st, p) and st.near[NEAR_LEVEL, 0] > 0  # the level here
    pocket_money = st.rules[R.pocket_money]
    options = st.options
    for i in range(n_opt):
        kind = options[i, 0]
        if kind == ADV.POCKET:
            turn_row(st, i, pocket=options[i, 1] * pocket_money)
            continue
        card = options[i, 1]
        lo, hi = move_bounds(st, d, p, card)
        replay = 1.0 if kind == ADV.REPLAY else 0.0
        left = in_hand - (1 if kind == ADV.PLAY else 0)
        if card == OVERNIGHT_TRANSIT or card == HOLD or card == BASIC:
            reach = hi if card == OVERNIGHT_TRANSIT else 0
            level = best_within(st, reach, NEAR_LEVEL)
            turn_row(st, i, move=hi, replay=replay, hand_left=left, perform=level,
                     new_best=1.0 if level > best else 0.0, hire=best_within(st, reach, NEAR_TALENT),
                     show_due=1.0 if completes_show else 0.0)
        elif card == OVERNIGHT_HIRE:
            turn_row(st, i, move=hi, replay=replay, hand_left=left, steal=best_within(st, hi, NEAR_RIVALS),
                     hire=best_within(st, hi, NEAR_TALENT), buy=price if money >= price else 0)
        elif card == WAGE_TRANSIT:
            turn_row(st, i, move=hi, replay=replay, hand_left=left, wages=bill,
                     wage_short=1.0 if bill > money else 0.0)
        else:
            turn_row(st, i, move=hi, replay=replay, hand_left=left, rest=1.0 if card == REST else 0.0)


@kernel(inline="always")
def turn_row(st, i: int, perform=0.0, new_best=0.0, hire=0.0, steal=0.0, buy=0.0, wages=0.0, wage_short=0.0,
             move=0.0, rest=0.0, replay=0.0, pocket=0.0, hand_left=0.0, show_due=0.0) -> None:
    """Write every turn_option feature of option i (those not given are 0)."""
    fe = st.features
    fe[F.to_perform, i] = perform
    fe[F.to_new_best, i] = new_best
    fe[F.to_hire, i] = hire
    fe[F.to_steal, i] = steal
    fe[F.to_buy, i] = buy
    fe[F.to_wages, i] = wages
    fe[F.to_wage_short, i] = wage_short
    fe[F.to_move, i] = move
    fe[F.to_rest, i] = rest
    fe[F.to_replay, i] = replay
    fe[F.to_pocket, i] = pocket
    fe[F.to_hand_left, i] = hand_left
    fe[F.to_show_due, i] = show_due


@kernel
def fill_destination_features(st, d: Data, p: int, n_opt: int) -> None:
    """Features of the movement outcomes (H4): request, talent, Points counter, rivals at each end city. Every
    feature of the span is written for every option, so none is cleared first; the levels are taken for the
    option cities only, the arrays are read into locals once (see fill_near)."""
    fill_rivals(st, p)
    part = player_part(st, d, p)
    fe = st.features
    options = st.options
    rivals = st.rivals
    city_item = st.city_item
    city_char = st.city_char
    best = st.pl[p, PL.best]
    in_show = st.pl[p, PL.show] >= 0
    claim_requires_step = st.rules[R.claim_requires_step]
    for i in range(n_opt):
        c = options[i, 0]
        moved = options[i, 1] != 0
        k = city_item[c]
        claims = k >= 0 and d.ctr_kind[k] == POINTS and (moved or not claim_requires_step)
        level = reach_at(st, d, p, c, part)
        fe[F.ds_perform, i] = level
        fe[F.ds_new_best, i] = 1.0 if level > best else 0.0
        fe[F.ds_talent, i] = talent_on(st.city_talent, c)
        fe[F.ds_points, i] = d.ctr_points[k] if claims else 0.0
        fe[F.ds_rivals, i] = rivals[c]
        fe[F.ds_stay, i] = 0.0 if moved else 1.0
        fe[F.ds_canada, i] = d.is_start[c]
        fe[F.ds_character, i] = 1.0 if city_char[c] >= 0 else 0.0
        fe[F.ds_show_lost, i] = 1.0 if moved and in_show else 0.0


@kernel
def fill_action_features(st, d: Data, p: int, n_opt: int) -> None:
    """Features of the actions after the movement (H5)."""
    clear_features(st, D.action, n_opt)
    c = st.pl[p, PL.city]
    k = st.city_item[c]
    level = 0
    if k >= 0 and d.ctr_kind[k] == PR:
        level = performance_level(st, d, p, k, -1)
    fe = st.features
    for i in range(n_opt):
        kind = st.options[i, 0]
        if kind == A.PERFORM:
            fe[F.ac_perform, i] = 1.0
            fe[F.ac_level, i] = level
            fe[F.ac_new_best, i] = 1.0 if level > st.pl[p, PL.best] else 0.0
        elif kind == A.HIRE:
            fe[F.ac_hire, i] = 1.0
            fe[F.ac_hire_talent, i] = city_talent_count(st, c)
        elif kind == A.NOTHING:
            fe[F.ac_nothing, i] = 1.0
        elif kind == A.MOVE:
            fe[F.ac_move, i] = 1.0
        elif kind == A.PARADE:
            fe[F.ac_parade, i] = 1.0


@kernel
def gains_majority(st, p: int, t: int) -> bool:
    """One more counter of type t makes p the sole owner of the most (CT-SCORE-MONTH-1)."""
    top = 0
    for q in range(st.meta[M.n_players]):
        if q != p:
            top = max(top, st.own[q, t])
    return st.own[p, t] <= top < st.own[p, t] + 1


@kernel
def fill_hire_features(st, d: Data, p: int, n_opt: int) -> None:
    """Features of the hire steps (H6): odds, wage, requests (st.asked, counted by do_hire), fame and majority of
    the counter's type. Every feature of the span is written for every option, so none is cleared first; the
    arrays are read into locals once (see fill_near)."""
    rules = st.rules
    odds = min(6, success_max(st, d, p, rules[R.hire_success_max]) + hire_delta(st, d))
    fe = st.features
    options = st.options
    asked = st.asked
    own = st.own[p]
    money = st.pl[p, PL.money]
    famous = rules[R.famous_threshold]
    for i in range(n_opt):
        kind = options[i, 0]
        t = options[i, 1]
        sam = kind == H.SAM_TAKE or kind == H.SAM_REP
        cost = rules[R.hire_buy_cost] if kind == H.BUY_IT else 0
        typed = t >= 0 and kind != H.PASS
        fe[F.hs_add, i] = 1.0 if kind == H.ADD else 0.0
        fe[F.hs_go, i] = 1.0 if kind == H.GO else 0.0
        fe[F.hs_roll, i] = 1.0 if kind == H.ROLL_ONE else 0.0
        fe[F.hs_buy, i] = 1.0 if kind == H.BUY_IT else 0.0
        fe[F.hs_pass, i] = 1.0 if kind == H.PASS else 0.0
        fe[F.hs_sam, i] = 1.0 if sam else 0.0
        if kind == H.ADD or kind == H.ROLL_ONE:
            fe[F.hs_odds, i] = odds
        else:  # a buy or Smuggler Sam is sure; stopping or passing rolls nothing
            fe[F.hs_odds, i] = 6.0 if kind == H.BUY_IT or sam else 0.0
        fe[F.hs_money_left, i] = (money - cost) / 10.0
        fe[F.hs_wage, i] = d.wage[t] if typed else 0.0
        fe[F.hs_asked, i] = asked[t] if typed else 0.0
        fe[F.hs_famous, i] = 1.0 if typed and own[t] + 1 == famous else 0.0
        fe[F.hs_majority, i] = 1.0 if typed and gains_majority(st, p, t) else 0.0
        fe[F.hs_animal_new, i] = 1.0 if typed and d.is_animal[t] and own[t] == 0 else 0.0


@kernel
def fill_special_features(st, d: Data, p: int, n_opt: int) -> None:
    """Features of the Special Hire choices (H7)."""
    clear_features(st, D.special_hire, n_opt)
    count_asked(st, d)
    price = special_hire_price(st, d)
    money = st.pl[p, PL.money]
    bill = W.wage_bill(st, d, p, 1)
    fe = st.features
    for i in range(n_opt):
        kind = st.options[i, 0]
        arg = st.options[i, 1]
        if kind == SH.HIRE:
            fe[F.sp_hire, i] = 1.0
        elif kind == SH.STEAL:
            fe[F.sp_steal, i] = 1.0
            fe[F.sp_victim_vp, i] = st.pl[arg, PL.vp] - st.pl[p, PL.vp]
            fe[F.sp_victim_counters, i] = owned(st, arg)
        elif kind == SH.DECLINE:
            fe[F.sp_decline, i] = 1.0
        else:
            fe[F.sp_buy, i] = 1.0
            fe[F.sp_price, i] = price
            if kind == SH.BUY:
                wage = W.unit_wage(st, d, p, arg, 1)
                fe[F.sp_asked, i] = st.asked[arg]
                fe[F.sp_wage, i] = wage
                fe[F.sp_wage_short, i] = 1.0 if money - price < bill + wage else 0.0
                fe[F.sp_famous, i] = 1.0 if st.own[p, arg] + 1 == st.rules[R.famous_threshold] else 0.0
                fe[F.sp_majority, i] = 1.0 if gains_majority(st, p, arg) else 0.0
                fe[F.sp_animal_new, i] = 1.0 if d.is_animal[arg] and st.own[p, arg] == 0 else 0.0
            else:
                fe[F.sp_character, i] = 1.0
                fe[F.sp_wage_short, i] = 1.0 if money - price < bill else 0.0


@kernel
def owned(st, q: int) -> int:
    """Talent counters in q's circus."""
    k = 0
    for t in range(N_TYPES):
        k += st.own[q, t]
    return k


@kernel
def fill_steal_features(st, d: Data, p: int, n_opt: int) -> None:
    """Features of the steal target sets (H7)."""
    clear_features(st, D.steal_target, n_opt)
    count_asked(st, d)
    fe = st.features
    for i in range(n_opt):
        for j in range(3):
            x = st.options[i, j]
            if x == SH.NONE:
                continue
            fe[F.sl_count, i] += 1.0
            if x >= N_TYPES:
                fe[F.sl_character, i] += 1.0
                continue
            fe[F.sl_asked, i] += st.asked[x]
            fe[F.sl_wage, i] += d.wage[x]
            if st.own[p, x] + 1 == st.rules[R.famous_threshold]:
                fe[F.sl_famous, i] += 1.0


@kernel
def fill_keep_features(st, d: Data, p: int, mult: int, n_opt: int) -> None:
    """Features of the wage choices (H8): keep one more counter of a type, or stop."""
    clear_features(st, D.wage_keep, n_opt)
    count_asked(st, d)
    fe = st.features
    for i in range(n_opt):
        if st.options[i, 0] == W.DONE:
            fe[F.wk_done, i] = 1.0
            continue
        t = st.options[i, 1]
        fe[F.wk_wage, i] = W.unit_wage(st, d, p, t, mult)
        fe[F.wk_asked, i] = st.asked[t]
        fe[F.wk_famous, i] = 1.0 if st.plan[t] < st.rules[R.famous_threshold] <= st.own[p, t] else 0.0
        fe[F.wk_last_animal, i] = 1.0 if d.is_animal[t] and st.plan[t] == 0 else 0.0
        fe[F.wk_clown, i] = 1.0 if t == CLOWN and st.plan[t] == 0 else 0.0


# ------------------------------------------------------------------------------------------------ choices
@kernel
def yes_no(st, p: int, decision: int, feature: int) -> bool:
    """A two-way choice: option 0 = no, option 1 = yes (the feature marks yes)."""
    st.options[0, 0] = 0
    st.options[1, 0] = 1
    if scored(st, p):
        clear_features(st, decision, 2)
        st.features[feature, 1] = 1.0
    return decide(st, p, decision, 2) == 1


@kernel
def move(st, d: Data, p: int, card: int) -> None:
    """The card's movement (CT-MOVE-*): pick an end city, arrive (Points counter), maybe recruit a character."""
    lo, hi = move_bounds(st, d, p, card)
    n_opt = move_options(st, d, p, lo, hi)
    if scored(st, p):
        fill_destination_features(st, d, p, n_opt)
    i = decide(st, p, D.destination, n_opt)
    city = st.options[i, 0]
    moved = st.options[i, 1] != 0
    start = st.pl[p, PL.city]
    vp = arrive(st, d, p, city, moved)
    event(st, p, EV.move, start, city, 1 if moved else 0)
    st.stat[p, ST.distance] += d.dist[start, city]
    if vp > 0:
        st.stat[p, ST.vp_points] += vp
        st.stat[p, ST.points_taken] += 1
        event(st, p, EV.points, vp, city)
    if can_recruit(st, d, p, moved) and yes_no(st, p, D.recruit, F.rc_yes):
        k = st.city_char[city]
        die = recruit(st, d, p)
        got = st.city_char[city] < 0
        st.stat[p, ST.recruits] += 1 if got else 0
        event(st, p, EV.recruit, k, die, 1 if got else 0)


@kernel
def do_perform(st, d: Data, p: int) -> None:
    """Perform at the request on p's city (CT-PERF-*), with Ringmaster Ronald's choice if p owns him."""
    n_opt = ronald_options(st, d, p)
    c = st.pl[p, PL.city]
    k = st.city_item[c]
    if n_opt > 1 and scored(st, p):
        clear_features(st, D.ronald, n_opt)
        for i in range(n_opt):
            st.features[F.ro_level, i] = performance_level(st, d, p, k, st.options[i, 0])
    ronald = st.options[decide(st, p, D.ronald, n_opt), 0]
    money = st.pl[p, PL.money]
    best = st.pl[p, PL.best]
    level = perform(st, d, p, ronald)
    if level < 0:
        st.stat[p, ST.shows_started] += 1
        event(st, p, EV.show_start, k, c)
        return
    gained = st.pl[p, PL.money] - money
    st.stat[p, ST.performances] += 1
    st.stat[p, ST.perf_money] += gained
    event(st, p, EV.perform, k, level, gained, 1 if st.pl[p, PL.best] > best else 0, c)


@kernel
def do_hire(st, d: Data, p: int) -> None:
    """One hire action (CT-HIRE-*): declare, roll, buy after a failure, until the action is over. The requests per
    type are counted once (st.asked): hiring moves no request."""
    H.hire_begin(st)
    if scored(st, p):
        count_asked(st, d)
    while not H.hire_over(st):
        n_opt = H.hire_options(st, d, p)
        if n_opt == 0:
            break
        if scored(st, p):
            fill_hire_features(st, d, p, n_opt)
        i = decide(st, p, D.hire_step, n_opt)
        kind = st.options[i, 0]
        t = st.options[i, 1]
        owned = st.own[p, t] if t >= 0 else 0
        die = H.hire_apply(st, d, p, kind, t)
        got = t >= 0 and st.own[p, t] > owned
        st.stat[p, ST.hired] += 1 if got else 0
        if got:
            st.stat[p, ST.hired_type + t] += 1
        if kind == H.ROLL_ONE:
            st.stat[p, ST.hire_rolls] += 1
            event(st, p, EV.hire_roll, t, die, 1 if got else 0)
        elif kind == H.BUY_IT:
            st.stat[p, ST.hire_buys] += 1
            event(st, p, EV.hire_buy, t)
        elif kind == H.SAM_TAKE or kind == H.SAM_REP:
            event(st, p, EV.sam, t)


@kernel
def special_hire(st, d: Data, p: int) -> None:
    """Special Hire (CT-SPH-1): hire, steal from a rival on the city, buy from the reserve, or decline
    (CT-AMB-42)."""
    n_opt = SH.special_hire_options(st, d, p)
    if n_opt > 1 and scored(st, p):
        fill_special_features(st, d, p, n_opt)
    i = decide(st, p, D.special_hire, n_opt)
    kind = st.options[i, 0]
    arg = st.options[i, 1]
    if kind == SH.DECLINE:
        if n_opt > 1:
            st.stat[p, ST.special_declined] += 1
            event(st, p, EV.special_declined)
        return
    if kind == SH.HIRE:
        do_hire(st, d, p)
    elif kind == SH.STEAL:
        n_opt = SH.steal_options(st, d, p, arg)
        if scored(st, p):
            fill_steal_features(st, d, p, n_opt)
        j = decide(st, p, D.steal_target, n_opt)
        a = st.options[j, 0]
        b = st.options[j, 1]
        c = st.options[j, 2]
        tried = 1 + (1 if b != SH.NONE else 0) + (1 if c != SH.NONE else 0)
        got = SH.steal(st, d, p, arg, a, b, c)
        st.stat[p, ST.steal_rolls] += tried
        st.stat[p, ST.stolen] += got
        st.stat[arg, ST.robbed] += got
        event(st, p, EV.steal, arg, tried, got)
    else:
        price = special_hire_price(st, d)
        SH.buy(st, d, p, kind, arg)
        st.stat[p, ST.reserve_buys] += 1
        if kind == SH.BUY:
            st.stat[p, ST.hired_type + arg] += 1
        event(st, p, EV.reserve_buy, kind, arg, price)


@kernel
def pay_wages(st, d: Data, p: int, mult: int, begun: int, money: int) -> None:
    """Finish a wage payment begun with ``begun`` (W.PAID or W.CHOOSE) by a player who had ``money`` before it:
    choose the kept set, release the rest, and (basic game) place the fired talent on a city (CT-WAGE-*,
    CT-FIRE-*, CT-ADV-WAGE-1)."""
    released = 0
    if begun == W.CHOOSE:
        while True:
            n_opt = W.keep_options(st, d, p, mult)
            if scored(st, p):
                fill_keep_features(st, d, p, mult, n_opt)
            i = decide(st, p, D.wage_keep, n_opt)
            kind = st.options[i, 0]
            t = st.options[i, 1]
            released = W.keep_apply(st, d, p, mult, kind, t)
            if kind == W.DONE:
                break
    st.stat[p, ST.fired] += released
    if released > 0 and not st.rules[R.advanced]:
        place_fired_talent(st, d, p)
    paid = money - st.pl[p, PL.money]
    st.stat[p, ST.wages_paid] += paid
    event(st, p, EV.wages, paid, released, mult)


@kernel
def place_fired_talent(st, d: Data, firer: int) -> None:
    """Fired talent goes to a city holding talent, placed by the player on the firer's right (CT-FIRE-2/3): the
    nearest city by default, or that player's strategy with ``fired_city_policy="policy"`` (CT-AMB-33)."""
    n_opt = W.fired_city_options(st)
    chooser = W.fired_chooser(st, firer)
    if n_opt == 0:
        W.place_fired(st, -1)
        event(st, chooser, EV.fired_city, -1)
        return
    if chooser < 0 or n_opt == 1 or st.rules[R.fired_city_policy] != POLICY:
        city = W.fired_city_default(st, d, chooser, firer, n_opt)
    else:
        if scored(st, chooser):
            clear_features(st, D.fired_city, n_opt)
            for i in range(n_opt):
                c = st.options[i, 0]
                st.features[F.fc_near_me, i] = -d.dist[st.pl[chooser, PL.city], c]
                st.features[F.fc_near_firer, i] = -d.dist[st.pl[firer, PL.city], c]
        city = st.options[decide(st, chooser, D.fired_city, n_opt), 0]
    W.place_fired(st, city)
    st.g[GS.fired_placed] += 1
    event(st, chooser, EV.fired_city, city)


@kernel
def wages(st, d: Data, p: int) -> None:
    """Wage & Transit's payment (CT-WAGE-2)."""
    money = st.pl[p, PL.money]
    pay_wages(st, d, p, 1, W.wage_begin(st, d, p, 1), money)


@kernel
def take_action(st, d: Data, p: int, card: int) -> None:
    """What the card does after its movement (H5): perform, hire, Basic Transit's step, parade, Special Hire,
    wages."""
    n_opt = A.action_options(st, d, p, card)
    if n_opt == 0:
        return
    if scored(st, p):
        fill_action_features(st, d, p, n_opt)
    act = st.options[decide(st, p, D.action, n_opt), 0]
    if act == A.PERFORM:
        do_perform(st, d, p)
    elif act == A.HIRE:
        do_hire(st, d, p)
    elif act == A.MOVE:
        move(st, d, p, BASIC)
    elif act == A.PARADE:
        st.options[0, 0] = 0
        st.options[1, 0] = 1
        if scored(st, p):
            clear_features(st, D.parade_reward, 2)
            st.features[F.pa_vp, 0] = 1.0
            st.features[F.pa_rep, 1] = 1.0
        rep = decide(st, p, D.parade_reward, 2) == 1
        ADV.parade(st, d, p, rep)
        st.stat[p, ST.parades] += 1
        event(st, p, EV.parade, 1 if rep else 0)
    elif act == A.SPECIAL_HIRE:
        special_hire(st, d, p)
    elif act == A.WAGES:
        wages(st, d, p)


@kernel
def rest(st, d: Data, p: int) -> None:
    """Rest in Canada (CT-ADV-REST-1): a clown, an acrobat or a reputation step."""
    n_opt = ADV.rest_options(st, d, p)
    if n_opt == 0:
        return
    if scored(st, p):
        clear_features(st, D.rest_reward, n_opt)
        for i in range(n_opt):
            if st.options[i, 0] == ADV.REST_REPUTATION:
                st.features[F.rr_rep, i] = 1.0
            else:
                st.features[F.rr_talent, i] = 1.0
    reward = st.options[decide(st, p, D.rest_reward, n_opt), 0]
    ADV.rest_apply(st, d, p, reward)
    st.stat[p, ST.rest_rewards] += 1
    event(st, p, EV.rest, reward)


@kernel
def sam_reputation(st, d: Data, p: int) -> None:
    """Advanced game, at the start of the owner's turn: use Smuggler Sam for +1 reputation step, or keep him
    (CT-OPT-CHAR-8: no timing condition; the hire action offers the same use mid-hire)."""
    st.options[0, 0] = 0
    st.options[1, 0] = 1
    if scored(st, p):
        clear_features(st, D.sam_reputation, 2)
        st.features[F.sr_yes, 1] = 1.0
        st.features[F.sr_gain, 1] = 1.0 if st.pl[p, PL.rep] < d.rep_meta[REP_TOP] else 0.0
        st.features[F.sr_last_week, 1] = 1.0 if st.g[GS.week] == d.week_month.shape[0] - 1 else 0.0
    if decide(st, p, D.sam_reputation, 2) == 1:
        H.use_sam_reputation(st, d, p)
        event(st, p, EV.sam, -1)


@kernel
def play_turn(st, d: Data, p: int) -> None:
    """One player's turn (CT-TURN-1b): Smuggler Sam's reputation step if wanted, a turn option, the card's
    movement, Rest's reward, its action, then the shows and lone characters at the end of the turn (CT-TWO-3,
    CT-OPT-CHAR-3)."""
    if H.sam_reputation_allowed(st, d, p):
        sam_reputation(st, d, p)
    n_opt = ADV.turn_options(st, d, p)
    if scored(st, p):
        fill_turn_features(st, d, p, n_opt)
    i = decide(st, p, D.turn_option, n_opt)
    kind = st.options[i, 0]
    arg = st.options[i, 1]
    card = ADV.apply_turn_option(st, d, p, kind, arg)
    event(st, p, EV.turn, kind, arg)
    if kind == ADV.POCKET:
        st.stat[p, ST.pockets] += 1
    elif kind != ADV.PLAY:
        st.stat[p, ST.replays] += 1
    if card >= 0:
        st.stat[p, ST.card + card] += 1
        if A.moves_first(card):
            move(st, d, p, card)
        if card == REST:
            rest(st, d, p)
        take_action(st, d, p, card)
    end_turn_shows(st, p)
    retire_lone_characters(st)
    if checking(st):
        assert_invariants(st, d)


# ------------------------------------------------------------------------------------------------ checks
@kernel
def assert_invariants(st, d: Data) -> None:
    """Checked mode: CT-STATE-3 items 1-5 after every turn and month end."""
    bad = broken_invariant(st, d)
    if bad == 1:
        raise AssertionError("CT-STATE-3.1: talent is not conserved across reserve, cities and circuses")
    if bad == 2:
        raise AssertionError("CT-STATE-3.2: a Local News counter is not where its location says")
    if bad == 3:
        raise AssertionError("CT-STATE-3.3: something lies on a Canadian or non-destination city")
    if bad == 4:
        raise AssertionError("CT-STATE-3.4: a hand and discard pile are not the deck, or a hand is empty")
    if bad == 5:
        raise AssertionError("CT-STATE-3.5: VP, money or reputation out of range")


# ------------------------------------------------------------------------------------------------ month end
@kernel
def month_scoring(st, d: Data, month: int) -> None:
    """Score the month (CT-SCORE-MONTH-*), splitting the VP into most talent and best performance (or April) for
    the records; in solitaire the most-talent VP are paid as money (CT-SOLO-5) and recorded as VP."""
    rules = st.rules
    n = st.meta[M.n_players]
    money_only = n == 1 and rules[R.solo_scoring] == MONEY_ONLY
    for p in range(n):
        st.mark[p] = st.pl[p, PL.vp]
    score_month(st, d, month)
    for p in range(n):
        st.gain[p] = 0
    if not rules[R.simple_variant] and not money_only:
        most_talent(st, st.gain)  # the same awards again (talent did not change): the most-talent part
    for p in range(n):
        talent = st.gain[p]
        best = st.pl[p, PL.vp] - st.mark[p] - (talent if n > 1 else 0)
        st.stat[p, ST.vp_talent] += talent
        st.stat[p, ST.vp_best] += best
        event(st, p, EV.month_vp, talent, best, st.pl[p, PL.vp])


@kernel
def catch_up(st, d: Data) -> None:
    """After a long month the sole last player may take one counter from a rival (CT-CATCHUP-1)."""
    thief = catch_up_thief(st)
    if thief < 0:
        return
    n_opt = catch_up_options(st, d, thief)
    if scored(st, thief):
        clear_features(st, D.catch_up, n_opt)
        count_asked(st, d)
        for i in range(n_opt):
            q = st.options[i, 0]
            item = st.options[i, 1]
            if item < 0:
                continue
            st.features[F.cu_take, i] = 1.0
            st.features[F.cu_victim_vp, i] = st.pl[q, PL.vp]
            if item < N_TYPES:
                st.features[F.cu_wage, i] = d.wage[item]
                st.features[F.cu_asked, i] = st.asked[item]
    i = decide(st, thief, D.catch_up, n_opt)
    q = st.options[i, 0]
    item = st.options[i, 1]
    if item >= 0:
        SH.take_counter(st, d, thief, q, item)
        st.stat[thief, ST.catchups] += 1
        st.stat[q, ST.robbed] += 1
        st.g[GS.catchups] += 1
    event(st, thief, EV.catch_up, q, item)


@kernel
def reveal(st, d: Data) -> None:
    """Reveal the month's Event card and carry out its choice, if any (CT-OPT-EVENT-2/3)."""
    e = reveal_event(st, d)
    if e < 0:
        return
    st.g[GS.events_revealed] += 1
    chooser = event_chooser(st, d, e)
    t = -1
    if chooser >= 0:
        n_opt = event_options(st, d, e, chooser)
        if scored(st, chooser):
            clear_features(st, D.event_choice, n_opt)
            for i in range(n_opt):
                u = st.options[i, 0]
                if u < N_TYPES:
                    st.features[F.ev_owned, i] = st.own[chooser, u]
                    st.features[F.ev_wage, i] = d.wage[u]
                else:  # a Special Character counts as talent for Event cards (CT-OPT-CHAR-5)
                    st.features[F.ev_character, i] = -1.0 if d.ev_effect[e] == EV_LEADER_LOSES else 1.0
        t = st.options[decide(st, chooser, D.event_choice, n_opt), 0]
        event_apply(st, d, e, chooser, t)
    event(st, chooser, EV.event_card, e, chooser, t)


@kernel
def month_end(st, d: Data, month: int) -> None:
    """The end of a month (CT-MONTH-1): scoring, the first-player marker, the catch-up steal after a long month,
    the Event card, the change of season."""
    n = st.meta[M.n_players]
    event(st, -1, EV.month, month)
    month_scoring(st, d, month)
    pass_first_player(st)
    event(st, -1, EV.first_player, st.g[GS.first])
    if is_long_month(d, month):
        catch_up(st, d)
    if st.rules[R.event_cards] and d.month_event[month]:
        reveal(st, d)
    if d.month_bag_change[month]:
        change_season(st, d)
    for p in range(n):
        st.stat[p, ST.money_month + month] = st.pl[p, PL.money]
        st.stat[p, ST.vp_month + month] = st.pl[p, PL.vp]
    if checking(st):
        assert_invariants(st, d)


@kernel
def final_points(st, p: int) -> int:
    """What final scoring changes: VP, or money in solitaire (CT-SOLO-5/6)."""
    return st.pl[p, PL.money] if st.meta[M.n_players] == 1 else st.pl[p, PL.vp]


@kernel
def game_end(st, d: Data, reason: int) -> None:
    """Hook, at the end of September: taxes (2 players, CT-SCORE-FINAL-1), the solitaire end wages (CT-SOLO-6),
    final scoring, the keys and the records (the core's turn driver then ends the game)."""
    n = st.meta[M.n_players]
    for p in range(n):
        st.stat[p, ST.vp_final] -= final_points(st, p)
    for p in range(n):
        if taxed(st, p):
            vp = st.pl[p, PL.vp]
            money = st.pl[p, PL.money]
            begun = taxes_begin(st, d, p)
            event(st, p, EV.taxes, vp - st.pl[p, PL.vp], st.pl[p, PL.vp])
            pay_wages(st, d, p, st.rules[R.taxes_wage_multiplier], begun, money)
    if n == 1:
        money = st.pl[0, PL.money]
        bill = W.wage_bill(st, d, 0, 1)
        W.pay_all_or_nothing_left(st, d, 0, 1)
        st.stat[0, ST.wages_paid] += money - st.pl[0, PL.money]
        event(st, 0, EV.end_wages, bill, money - st.pl[0, PL.money], st.pl[0, PL.money])
    for step in range(FINAL_STEPS):
        if final_step_applies(st, step):
            for p in range(n):
                st.mark[p] = final_points(st, p)
            final_step(st, d, step)
            for p in range(n):
                event(st, p, EV.final_step, step, final_points(st, p) - st.mark[p], final_points(st, p))
    st.g[GS.ended] = 1
    for p in range(n):
        st.stat[p, ST.vp_final] += final_points(st, p)
    if checking(st):
        assert_invariants(st, d)
    ranking_keys(st, st.keys)
    record_game(st, d)


@kernel
def record_game(st, d: Data) -> None:
    """Each seat's score (VP; money in solitaire; the Best Performance marker in the simple variant) and the game's
    own columns."""
    rules = st.rules
    n = st.meta[M.n_players]
    for p in range(n):
        out = st.players[p]
        if n == 1:
            out[PC.score] = st.pl[p, PL.money]
        elif rules[R.simple_variant]:
            out[PC.score] = st.pl[p, PL.best]
        else:
            out[PC.score] = st.pl[p, PL.vp]
        out[PC.vp] = st.pl[p, PL.vp]
        out[PC.money] = st.pl[p, PL.money]
        out[PC.best_performance] = st.pl[p, PL.best]
        out[PC.requests] = st.pl[p, PL.n_pr]
        out[PC.reputation] = st.pl[p, PL.rep] if rules[R.advanced] else -1
        out[PC.solo_band] = solo_band(rules, st.pl[p, PL.money]) if n == 1 else -1
        talent = 0
        for t in range(N_TYPES):
            out[PC.clowns + t] = st.own[p, t]
            talent += st.own[p, t]
        out[PC.talent] = talent
        chars = 0
        for k in range(st.ctr_owner.shape[0]):
            if st.ctr_owner[k] == p and d.ctr_kind[k] == CHARACTER:
                chars += 1
        out[PC.characters] = chars
        out[PC.turn_order] = (p - st.g[GS.first_setup]) % n
        for j in range(st.stat.shape[1]):
            out[PC.start_city + j] = st.stat[p, j]
    g = st.games
    g[GC.weeks] = st.g[GS.week]
    g[GC.catchups] = st.g[GS.catchups]
    g[GC.events_revealed] = st.g[GS.events_revealed]
    g[GC.fired_groups] = st.g[GS.fired_placed]
    g[GC.bag_left] = st.g[GS.bag_n]
    g[GC.replacements] = st.g[GS.replacements]
    g[GC.bag_empty_week] = st.g[GS.bag_empty_week]
    g[GC.quota_short_weeks] = st.g[GS.quota_short]
    g[GC.solo_band] = solo_band(rules, st.pl[0, PL.money]) if n == 1 else -1
    for p in range(n):
        event(st, p, EV.final, st.pl[p, PL.vp], st.pl[p, PL.money], st.pl[p, PL.best], st.pl[p, PL.n_pr],
              g[GC.solo_band])
    event(st, -1, EV.end)


# ------------------------------------------------------------------------------------------------ hooks
@kernel
def setup_game(st, d: Data) -> None:
    """Hook: the basic setup (CT-SETUP-1..13) with the players' choices of starting talent and start city."""
    n = st.meta[M.n_players]
    st.g[:] = 0
    st.stat[:, :] = 0
    st.fired[:] = 0
    st.plan[:] = 0
    st.tried[:] = 0
    setup_supply(st, d)
    for i in range(n):
        p = (st.g[GS.first] + i) % n
        for _ in range(st.rules[R.start_choice_talents]):
            n_opt = start_talent_options(st, d)
            if n_opt == 0:
                break
            if scored(st, p):
                clear_features(st, D.start_talent, n_opt)
                count_asked(st, d)
                for j in range(n_opt):
                    t = st.options[j, 0]
                    st.features[F.st_wage, j] = d.wage[t]
                    st.features[F.st_animal, j] = d.is_animal[t]
                    st.features[F.st_have, j] = st.own[p, t]
                    st.features[F.st_asked, j] = st.asked[t]
            t = st.options[decide(st, p, D.start_talent, n_opt), 0]
            take_start_talent(st, p, t)
            st.stat[p, ST.start_talent + t] += 1
            event(st, p, EV.start_talent, t)
    setup_board(st, d)
    for i in range(n):
        p = (st.g[GS.first] + i) % n
        n_opt = start_city_options(st, d)
        if scored(st, p):
            clear_features(st, D.start_city, n_opt)
            for j in range(n_opt):
                c = st.options[j, 0]
                for x in range(st.city_item.shape[0]):
                    if d.dist[c, x] <= 3:
                        k = st.city_item[x]
                        if k >= 0 and d.ctr_kind[k] == PR:
                            st.features[F.sc_requests, j] += 1.0
                        st.features[F.sc_talent, j] += city_talent_count(st, x)
                for q in range(n):
                    if st.pl[q, PL.city] == c:
                        st.features[F.sc_rivals, j] += 1.0
        c = st.options[decide(st, p, D.start_city, n_opt), 0]
        place_train(st, d, p, c)
        st.stat[p, ST.start_city] = c
        event(st, p, EV.start_city, c)
    if checking(st):
        assert_invariants(st, d)


@kernel
def first_seat(st, d: Data) -> int:
    """Hook: the first player opens the week (CT-TURN-1)."""
    return st.g[GS.first]


@kernel
def week_start(st, d: Data) -> None:
    """Hook: the start-of-round safety net (CT-ROUST-4), then the week's quota check."""
    st.g[GS.replacements] += roustabout(st, d)
    met = quota_met(st, d)
    st.g[GS.quota_short] += 1 if occupied_count(st) < quota(st, d) else 0
    if checking(st) and not met:
        raise AssertionError("CT-STATE-3.6: the occupied cities miss the quota with counters in the bag")
    event(st, -1, EV.week, st.g[GS.week] + 1, st.g[GS.first], 1 if met else 0)


@kernel
def turn(st, d: Data, p: int) -> int:
    """Hook: one player's turn (CT-TURN-1b), counting the weeks it ends in a dead end; the game goes on."""
    play_turn(st, d, p)
    if d.deg[st.pl[p, PL.city]] == 1:
        st.stat[p, ST.dead_end_weeks] += 1
    return GOES_ON


@kernel
def week_end(st, d: Data) -> int:
    """Hook: the Roustabout phase (CT-ROUST-2), the calendar (CT-ROUST-3) and a month's end; END_SEPTEMBER once
    September is over."""
    st.g[GS.replacements] += roustabout(st, d)
    if st.g[GS.bag_n] == 0 and st.g[GS.bag_empty_week] == 0:
        st.g[GS.bag_empty_week] = st.g[GS.week] + 1
    if checking(st) and not quota_met(st, d):
        raise AssertionError("CT-STATE-3.6: the Roustabout phase left the quota unmet with counters in the bag")
    result = advance_week(st, d)
    if result != WEEK:
        month_end(st, d, d.week_month[st.g[GS.week] - 1])
    return END_SEPTEMBER if result == GAME_END else GOES_ON


bind_turns(LAYOUT, turn, setup=setup_game, first_seat=first_seat, round_start=week_start, round_end=week_end,
           finish=game_end, rank_by_score=False)
