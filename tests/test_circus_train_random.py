"""Random play through the Circus Train mechanics in the order of CT-TURN-1b, checking the CT-STATE-3 invariants
after every turn and every round. The driver below is a test harness for the rule modules (random choices at every
option list), not the engine: the lead wires the same calls into the core's game loop."""

import numpy as np
import pytest

from sim.circus_train import actions as A
from sim.circus_train import advanced as ADV
from sim.circus_train import calendar as CAL
from sim.circus_train import characters as CH
from sim.circus_train import events as EV
from sim.circus_train import final as F
from sim.circus_train import hire as H
from sim.circus_train import movement as M
from sim.circus_train import perform as PF
from sim.circus_train import roustabout as RB
from sim.circus_train import scoring as S
from sim.circus_train import setup as SU
from sim.circus_train import special_hire as SH
from sim.circus_train import wages as W
from sim.circus_train.data import BASIC, REST, load_data
from sim.circus_train.invariants import broken_invariant, quota_met
from sim.circus_train.rules import Rules
from sim.circus_train.state import GS, PL
from tests.circus_train_positions import n_players, new_state
from sim.core.rng import seed_game

D = load_data()


class Driver:
    """Plays one game with random choices (uniform, except that moves to occupied cities and Perform/Hire are
    favoured so that every mechanic is reached), asserting invariants as it goes; counts what happened."""

    def __init__(self, n, seed, **changes):
        self.rules = Rules(**changes)
        self.st, self.d = new_state(self.rules, n)
        seed_game(self.st.rng, 11, seed)
        self.rng = np.random.default_rng(seed)
        self.seen = {"perform": 0, "show_start": 0, "hire": 0, "steal": 0, "fired": 0, "catchup": 0, "replay": 0,
                     "pocket": 0, "recruit": 0, "parade": 0, "rest_reward": 0, "event": 0}

    def pick(self, n):
        assert n >= 1
        return int(self.rng.integers(n))

    def check(self, where):
        bad = broken_invariant(self.st, self.d)
        assert bad == 0, f"CT-STATE-3 item {bad} broken after {where}"

    def setup(self):
        st, d = self.st, self.d
        SU.setup_supply(st, d)
        n = n_players(st)
        for i in range(n):
            p = (st.g[GS.first] + i) % n
            for _ in range(self.rules.start_choice_talents):
                k = SU.start_talent_options(st, d)
                SU.take_start_talent(st, p, st.options[self.pick(k), 0])
        SU.setup_board(st, d)
        for i in range(n):
            p = (st.g[GS.first] + i) % n
            k = SU.start_city_options(st, d)
            SU.place_train(st, d, p, st.options[self.pick(k), 0])
        self.check("setup")

    def move(self, p, card):
        st, d = self.st, self.d
        lo, hi = M.move_bounds(st, d, p, card)
        k = M.move_options(st, d, p, lo, hi)
        busy = [i for i in range(k) if RB.is_occupied(st, st.options[i, 0])]
        i = busy[self.pick(len(busy))] if busy and self.rng.random() < 0.7 else self.pick(k)
        city, moved = st.options[i, :2]
        assert M.move_is_legal(d, st.pl[p, PL.city], city, moved, lo, hi)
        M.arrive(st, d, p, city, bool(moved))
        if CH.can_recruit(st, d, p, bool(moved)) and self.rng.random() < 0.8:
            CH.recruit(st, d, p)
            self.seen["recruit"] += 1

    def hire(self, p):
        st, d = self.st, self.d
        H.hire_begin(st)
        while not H.hire_over(st):
            k = H.hire_options(st, d, p)
            if k == 0:
                break
            kind, t = st.options[self.pick(k), :2]
            assert H.hire_step_is_legal(st, d, p, kind, t)
            H.hire_apply(st, d, p, kind, t)
        self.seen["hire"] += 1

    def wages(self, p, mult, begin=None):
        st, d = self.st, self.d
        res = W.wage_begin(st, d, p, mult) if begin is None else begin
        if res == W.CHOOSE:
            while True:
                k = W.keep_options(st, d, p, mult)
                kind, t = st.options[self.pick(k), :2]
                if kind == W.DONE:
                    assert W.kept_set_is_legal(st, d, p, mult, st.plan.copy())
                    released = W.keep_apply(st, d, p, mult, kind, t)
                    break
                W.keep_apply(st, d, p, mult, kind, t)
            if released and not self.rules.advanced:
                self.seen["fired"] += 1
                k = W.fired_city_options(st)
                chooser = W.fired_chooser(st, p)
                if k == 0:
                    W.place_fired(st, -1)
                elif chooser < 0 or k == 1:
                    W.place_fired(st, W.fired_city_default(st, d, chooser, p, k))
                else:
                    W.place_fired(st, st.options[self.pick(k), 0])

    def special_hire(self, p):
        st, d = self.st, self.d
        k = SH.special_hire_options(st, d, p)
        kind, arg = st.options[self.pick(k), :2]
        if kind == SH.DECLINE:
            return
        if kind == SH.HIRE:
            self.hire(p)
        elif kind == SH.STEAL:
            k = SH.steal_options(st, d, p, arg)
            a, b, c = st.options[self.pick(k), :3]
            SH.steal(st, d, p, arg, a, b, c)
            self.seen["steal"] += 1
        else:
            SH.buy(st, d, p, kind, arg)

    def turn(self, p):
        st, d = self.st, self.d
        assert st.hand[p].sum() >= 1
        if H.sam_reputation_allowed(st, d, p) and self.pick(3) == 0:  # CT-OPT-CHAR-8, at the turn's start
            H.use_sam_reputation(st, d, p)
        k = ADV.turn_options(st, d, p)
        kind, arg = st.options[self.pick(k), :2]
        assert ADV.turn_option_is_legal(st, d, p, kind, arg)
        self.seen["replay"] += kind in (ADV.REPLAY, ADV.EDDIE_REPLAY)
        self.seen["pocket"] += kind == ADV.POCKET
        card = ADV.apply_turn_option(st, d, p, kind, arg)
        if card >= 0:
            if A.moves_first(card):
                self.move(p, card)
            if card == REST:
                k = ADV.rest_options(st, d, p)
                if k:
                    ADV.rest_apply(st, d, p, st.options[self.pick(k), 0])
                    self.seen["rest_reward"] += 1
            k = A.action_options(st, d, p, card)
            if card == BASIC:
                assert k >= 1  # CT-AMB-30: never a pass
            if k:
                acts = [int(x) for x in st.options[:k, 0]]
                wanted = [a for a in acts if a in (A.PERFORM, A.HIRE)]
                act = wanted[self.pick(len(wanted))] if wanted and self.rng.random() < 0.7 else acts[self.pick(k)]
                if act == A.PERFORM:
                    k = CH.ronald_options(st, d, p)
                    level = PF.perform(st, d, p, st.options[self.pick(k), 0])
                    self.seen["perform" if level >= 0 else "show_start"] += 1
                elif act == A.HIRE:
                    self.hire(p)
                elif act == A.MOVE:
                    self.move(p, BASIC)
                elif act == A.PARADE:
                    ADV.parade(st, d, p, bool(self.rng.integers(2)))
                    self.seen["parade"] += 1
                elif act == A.SPECIAL_HIRE:
                    self.special_hire(p)
                elif act == A.WAGES:
                    self.wages(p, 1)
        PF.end_turn_shows(st, p)
        RB.retire_lone_characters(st)
        self.check(f"turn of seat {p} in week {st.g[GS.week] + 1}")

    def month_end(self, result):
        st, d = self.st, self.d
        month = D.week_month[st.g[GS.week] - 1]
        S.score_month(st, d, month)
        S.pass_first_player(st)
        if CAL.is_long_month(d, month):
            thief = S.catch_up_thief(st)
            if thief >= 0:
                k = S.catch_up_options(st, d, thief)
                q, item = st.options[self.pick(k), :2]
                assert S.catch_up_is_legal(st, d, thief, q, item)
                if item >= 0:
                    SH.take_counter(st, d, thief, q, item)
                    self.seen["catchup"] += 1
        if self.rules.event_cards and D.month_event[month]:
            e = EV.reveal_event(st, d)
            chooser = EV.event_chooser(st, d, e) if e >= 0 else -1
            if chooser >= 0:
                k = EV.event_options(st, d, e, chooser)
                EV.event_apply(st, d, e, chooser, st.options[self.pick(k), 0])
            self.seen["event"] += e >= 0
        if D.month_bag_change[month]:
            RB.change_season(st, d)
        if result == CAL.GAME_END:
            n = n_players(st)
            for p in range(n):
                if F.taxed(st, p):
                    self.wages(p, self.rules.taxes_wage_multiplier, F.taxes_begin(st, d, p))
            if n == 1:
                W.pay_all_or_nothing_left(st, d, 0, 1)
            F.final_scoring(st, d)
        self.check(f"end of month {month}")

    def play(self):
        self.setup()
        st, d = self.st, self.d
        n = n_players(st)
        while True:
            RB.roustabout(st, d)
            assert quota_met(st, d), "CT-STATE-3 item 6"
            for i in range(n):
                self.turn((st.g[GS.first] + i) % n)
            RB.roustabout(st, d)
            result = CAL.advance_week(st, d)
            if result != CAL.WEEK:
                self.month_end(result)
            if result == CAL.GAME_END:
                return self


@pytest.mark.parametrize("changes", [{}, {"advanced": True}, {"special_characters": True},
                                     {"advanced": True, "special_characters": True}, {"simple_variant": True},
                                     {"hire_adaptive": False, "two_week_reserved": True},
                                     {"event_cards": True, "special_characters": True, "steal_character_extra": True}])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_ct_state_3_random_games_keep_invariants(n, changes):
    """CT-STATE-3 items 1-6, CT-TURN-1, CT-TURN-1b, CT-ROUST-3, CT-ROUST-4, CT-SCORE-FINAL-0: random games of every
    player count and mode run the 27 weeks with talent and counters conserved, hands cycling, money, VP and
    reputation in range and the quota met at the start of every round; events of each kind happen; five Event cards
    are revealed, after April..August (CT-OPT-EVENT-2)."""
    seen = {}
    for seed in range(4):
        drv = Driver(n, seed, **changes).play()
        assert drv.st.g[GS.week] == 27
        for key, v in drv.seen.items():
            seen[key] = seen.get(key, 0) + v
    assert seen["perform"] > 0 and (seen["hire"] > 0 or n == 1)
    if n >= 3:
        assert seen["steal"] + seen["catchup"] > 0
    if changes.get("event_cards"):
        assert seen["event"] == 4 * 5
    if changes.get("advanced") and n > 1:
        assert seen["replay"] > 0 and seen["pocket"] > 0 and seen["parade"] > 0
