"""Final scoring, the winner and the solitaire result (CT-SCORE-FINAL-*, CT-ADV-FINAL-*, CT-WIN-1, CT-SOLO-6/8,
CT-OPT-SIMPLE-2). Taxes' wage payment (step 1) is a wage payment like any other (sim.circus_train.wages)."""

from __future__ import annotations


from sim.circus_train.data import CLOWN, N_TYPES, WAGE_TRANSIT, Data
from sim.circus_train.points import gain_vp, lose_vp
from sim.circus_train.rules import CHOICES, R
from sim.circus_train.state import GS, PL
from sim.circus_train.wages import PAID, pay_all_or_nothing_left, wage_begin
from sim.core.jit import kernel
from sim.core.state import M

MONEY_ONLY = CHOICES["solo_scoring"].index("money_only")
BOX = CHOICES["most_money_level"].index("box")
COLLAPSE, DEFEAT, DRAW, VICTORY, INCREDIBLE = range(5)  # solitaire result bands (CT-SOLO-8)
MOST_CLOWNS, NO_CLOWNS, NO_ANIMALS, MOST_MONEY, MOST_PERFORMANCES, TOP_REPUTATION = range(6)  # final steps, in order
FINAL_STEPS = 6


@kernel
def taxed(st, p: int) -> bool:
    """2-player taxes apply to p: Wage & Transit in hand, where a hand refilled by the last card of week 27 counts
    as empty (CT-SCORE-FINAL-1)."""
    if st.meta[M.n_players] != 2 or st.hand[p, WAGE_TRANSIT] == 0:
        return False
    return st.pl[p, PL.refill_week] != st.g[GS.week] - 1


@kernel
def taxes_begin(st, d: Data, p: int) -> int:
    """Taxes for a taxed player (CT-SCORE-FINAL-1): -3 VP, then double wages by the wage rule (PAID, or CHOOSE a
    kept set through sim.circus_train.wages, CT-AMB-14); with ``taxes_fire=False`` all the money goes if short."""
    rules = st.rules
    lose_vp(st, p, rules[R.taxes_vp])
    mult = rules[R.taxes_wage_multiplier]
    if rules[R.taxes_fire]:
        return wage_begin(st, d, p, mult)
    pay_all_or_nothing_left(st, d, p, mult)
    return PAID


@kernel
def _award_most(st, values) -> None:
    """+most_vp to a single player with the highest value, +most_shared_vp to each of several; nothing when the
    highest is 0 (CT-AMB-15)."""
    rules = st.rules
    n = st.meta[M.n_players]
    top = -1
    for p in range(n):
        top = max(top, values[p])
    if top <= 0 and rules[R.most_requires_positive]:
        return
    k = 0
    for p in range(n):
        if values[p] == top:
            k += 1
    for p in range(n):
        if values[p] == top:
            gain_vp(st, p, rules[R.most_vp] if k == 1 else rules[R.most_shared_vp])


@kernel
def money_eligible(st, d: Data, p: int) -> bool:
    """Advanced most money needs reputation 'at least level 5' (CT-ADV-FINAL-2, CT-AMB-17): a box whose range
    reaches 5 by default, the 5th box or higher with ``most_money_level="box"``."""
    rules = st.rules
    if not rules[R.advanced]:
        return True
    if rules[R.most_money_level] == BOX:
        return st.pl[p, PL.rep] >= rules[R.most_money_min_index]
    return d.rep_success[st.pl[p, PL.rep]] >= d.rep_meta[1]


@kernel
def final_step_applies(st, step: int) -> bool:
    """The final-scoring step is part of this game: none in the simple variant (CT-OPT-SIMPLE-1) or with
    ``solo_scoring="money_only"``; solitaire skips the "most" awards and most money by default (CT-AMB-27); the
    highest reputation only in the advanced game (CT-ADV-FINAL-1)."""
    rules = st.rules
    n = st.meta[M.n_players]
    if rules[R.simple_variant] or (n == 1 and rules[R.solo_scoring] == MONEY_ONLY):
        return False
    solo_awards = n > 1 or rules[R.solo_most_awards] != 0
    if step == MOST_CLOWNS or step == MOST_PERFORMANCES:
        return solo_awards
    if step == MOST_MONEY:
        return n > 1 or rules[R.solo_most_money] != 0
    if step == TOP_REPUTATION:
        return rules[R.advanced] != 0 and solo_awards
    return True


@kernel
def final_step(st, d: Data, step: int) -> None:
    """One step of final scoring (CT-SCORE-FINAL-2..6, CT-ADV-FINAL-1); each loss stops at 0 VP (CT-VP-1) and
    solitaire pays in money (CT-SOLO-5/6)."""
    rules = st.rules
    n = st.meta[M.n_players]
    v = st.gain
    if step == MOST_CLOWNS:
        for p in range(n):
            v[p] = st.own[p, CLOWN]
        _award_most(st, v)
    elif step == NO_CLOWNS:
        for p in range(n):
            if st.own[p, CLOWN] == 0:
                lose_vp(st, p, rules[R.no_clown_vp])
    elif step == NO_ANIMALS:
        for p in range(n):
            missing = 0
            for t in range(N_TYPES):
                if d.is_animal[t] and st.own[p, t] == 0:
                    missing += 1
            if missing > 0:
                lose_vp(st, p, missing * rules[R.no_animal_vp])
    elif step == MOST_MONEY:
        most_money(st, d)
    elif step == MOST_PERFORMANCES:
        for p in range(n):
            v[p] = st.pl[p, PL.n_pr]
        _award_most(st, v)
    else:
        for p in range(n):
            v[p] = st.pl[p, PL.rep] + 1  # every box counts, even the bottom one
        _award_most(st, v)


@kernel
def final_scoring(st, d: Data) -> None:
    """Steps 2-7 of final scoring in printed order, after the taxes' wage payment (CT-SCORE-FINAL-0..7): most
    clowns, no clowns, no animals, most money, most performances, advanced highest reputation."""
    for step in range(FINAL_STEPS):
        if final_step_applies(st, step):
            final_step(st, d, step)


@kernel
def most_money(st, d: Data) -> None:
    """Most money (CT-SCORE-FINAL-5, CT-ADV-FINAL-2, CT-AMB-39): the richest are found among all players and each
    eligible one is paid; by default an ineligible richest player blocks the award, the switch pays the richest
    eligible player(s)."""
    rules = st.rules
    n = st.meta[M.n_players]
    v = st.gain
    for p in range(n):
        v[p] = st.pl[p, PL.money]
        if not money_eligible(st, d, p) and not rules[R.most_money_ineligible_blocks]:
            v[p] = -1
    top = -1
    for p in range(n):
        top = max(top, v[p])
    if top <= 0 and rules[R.most_requires_positive]:
        return
    k = 0
    for p in range(n):
        if v[p] == top:
            k += 1
    for p in range(n):
        if v[p] == top and money_eligible(st, d, p):
            gain_vp(st, p, rules[R.most_vp] if k == 1 else rules[R.most_shared_vp])


@kernel
def ranking_keys(st, keys) -> None:
    """keys[p] = the winner order, compared left to right, higher first (CT-WIN-1): VP, Best Performance marker,
    money, PR counters; equal keys share the win (CT-AMB-16). Simple variant: the marker, then (CT-AMB-41) money and
    PR counters (CT-OPT-SIMPLE-2). Solitaire: money (CT-SOLO-2)."""
    rules = st.rules
    for p in range(st.meta[M.n_players]):
        for j in range(4):
            keys[p, j] = 0
        if st.meta[M.n_players] == 1:
            keys[p, 0] = st.pl[p, PL.money]
        elif rules[R.simple_variant]:
            keys[p, 0] = st.pl[p, PL.best]
            if rules[R.simple_tiebreak]:
                keys[p, 1] = st.pl[p, PL.money]
                keys[p, 2] = st.pl[p, PL.n_pr]
        else:
            keys[p, 0] = st.pl[p, PL.vp]
            keys[p, 1] = st.pl[p, PL.best]
            keys[p, 2] = st.pl[p, PL.money]
            keys[p, 3] = st.pl[p, PL.n_pr]


@kernel
def solo_band(rules, money: int) -> int:
    """Solitaire result: collapse < $100, defeat $100-140, draw $141-180, victory $181-220, incredible > $220
    (CT-SOLO-8)."""
    if money < rules[R.solo_band_defeat]:
        return COLLAPSE
    if money < rules[R.solo_band_draw]:
        return DEFEAT
    if money < rules[R.solo_band_victory]:
        return DRAW
    if money < rules[R.solo_band_incredible]:
        return VICTORY
    return INCREDIBLE
