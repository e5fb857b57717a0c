"""Event cards, optional rule (CT-OPT-EVENT-1..3, CT-AMB-34). The real cards are not public: the packaged deck holds
13 parametric stand-in effects x 2 (data.EFFECTS). A "month" card stays in force until the next card is revealed
(the one revealed after August to the end of the game); an "immediate" card acts once when revealed.

Decisions taken for the stand-ins, whose texts leave them open: "money to the fewest" pays every player tied for the
fewest; "VP to the most" and the two leader/thief effects skip on a tie, as their ``tie`` parameters say.
"""

from __future__ import annotations


from sim.circus_train.data import (EV_GAIN_TALENT, EV_HIRE, EV_LEADER_LOSES, EV_LEVEL, EV_MONEY, EV_MONEY_FEWEST,
                                   EV_MOVE_CAP, EV_RAID, EV_VP_MOST, EV_WAGE, N_CHARS, N_TYPES, Data)
from sim.circus_train.points import gain_vp
from sim.circus_train.rules import R
from sim.circus_train.state import GS, LOC_CHAR_RESERVE, PL
from sim.core.jit import kernel
from sim.core.rng import randint, shuffle
from sim.core.state import M


@kernel
def setup_events(st, d: Data) -> None:
    """Shuffle the Event cards whose train symbol allows the player count and keep the first five face down
    (CT-OPT-EVENT-1); no deck without the optional rule."""
    st.g[GS.event] = -1
    st.g[GS.event_next] = 0
    st.g[GS.event_n] = 0
    if not st.rules[R.event_cards]:
        return
    m = 0
    for e in range(d.ev_effect.shape[0]):
        if d.ev_min_players[e] <= st.meta[M.n_players]:
            st.events[m] = e
            m += 1
    shuffle(st.rng, st.events, m)
    st.g[GS.event_n] = min(m, d.ev_deck_size[0])


@kernel
def month_effect(st, d: Data, effect: int) -> int:
    """The Event card in force if it has ``effect``, else -1."""
    e = st.g[GS.event]
    if e >= 0 and d.ev_effect[e] == effect:
        return e
    return -1


@kernel
def wage_delta(st, d: Data, t: int) -> int:
    """Wage change per counter of type t this month (stand-in 'wage_modifier')."""
    e = month_effect(st, d, EV_WAGE)
    return d.ev_value[e] if e >= 0 and d.ev_types[e, t] else 0


@kernel
def level_delta(st, d: Data) -> int:
    """Performance level change this month (CT-PERF-5's event modifiers)."""
    e = month_effect(st, d, EV_LEVEL)
    return d.ev_value[e] if e >= 0 else 0


@kernel
def money_delta(st, d: Data) -> int:
    """Change to a performance's colour money this month."""
    e = month_effect(st, d, EV_MONEY)
    return d.ev_value[e] if e >= 0 else 0


@kernel
def hire_delta(st, d: Data) -> int:
    """Change to the highest succeeding hire roll this month."""
    e = month_effect(st, d, EV_HIRE)
    return d.ev_value[e] if e >= 0 else 0


@kernel
def move_cap(st, d: Data, card: int, hi: int) -> int:
    """The movement allowance of ``card`` under a movement cap this month."""
    e = month_effect(st, d, EV_MOVE_CAP)
    if e >= 0 and d.ev_card[e] == card:
        return min(hi, d.ev_value[e])
    return hi


@kernel
def _unique(st, key: int, highest: bool) -> int:
    """The one player with the highest (or lowest) value of pl[:, key], -1 on a tie."""
    who = 0
    tie = False
    for p in range(1, st.meta[M.n_players]):
        a = st.pl[p, key]
        b = st.pl[who, key]
        if a == b:
            tie = True
        elif (a > b) == highest:
            who = p
            tie = False
    return -1 if tie else who


@kernel
def reveal_event(st, d: Data) -> int:
    """Reveal the next Event card after the first-player marker passed (CT-OPT-EVENT-2): a month card comes into
    force, replacing the last one; an immediate card replaces it too and its effect without choices is applied now.
    Returns the card, or -1 when the deck is used up."""
    if st.g[GS.event_next] >= st.g[GS.event_n]:
        st.g[GS.event] = -1
        return -1
    e = st.events[st.g[GS.event_next]]
    st.g[GS.event_next] += 1
    st.g[GS.event] = e if d.ev_month[e] else -1
    n = st.meta[M.n_players]
    eff = d.ev_effect[e]
    if eff == EV_GAIN_TALENT:
        for i in range(n):
            p = (st.g[GS.first] + i) % n
            for t in range(N_TYPES):
                if d.ev_types[e, t] and st.reserve[t] > 0:
                    st.reserve[t] -= 1
                    st.own[p, t] += 1
    elif eff == EV_MONEY_FEWEST:
        low = st.pl[0, PL.n_pr]
        for p in range(n):
            low = min(low, st.pl[p, PL.n_pr])
        for p in range(n):
            if st.pl[p, PL.n_pr] == low:
                st.pl[p, PL.money] += d.ev_value[e]
    elif eff == EV_VP_MOST:
        p = _unique(st, PL.best, True)
        if p >= 0:
            gain_vp(st, p, d.ev_value[e])
    return e


@kernel
def event_chooser(st, d: Data, e: int) -> int:
    """Who chooses for an immediate card with a choice: the sole VP leader for 'leader loses talent', the sole
    fewest-VP player for 'raid'; -1 when nobody (a tie, no talent to take, or another effect)."""
    eff = d.ev_effect[e]
    if eff == EV_LEADER_LOSES:
        p = _unique(st, PL.vp, True)
        return p if p >= 0 and event_options(st, d, e, p) > 0 else -1
    if eff == EV_RAID:
        thief = _unique(st, PL.vp, False)
        victim = _unique(st, PL.vp, True)
        if thief < 0 or victim < 0 or thief == victim:
            return -1
        return thief if event_options(st, d, e, thief) > 0 else -1
    return -1


@kernel
def event_options(st, d: Data, e: int, chooser: int) -> int:
    """Fill ``st.options[i, 0]`` with the counters the chooser may pick: their own for 'leader loses talent', the
    leader's for 'raid'; a talent type (0..6) or 7 + a Special Character, who counts as talent for Event cards
    (CT-OPT-CHAR-5: "anche per gli effetti delle Carte Evento"). Return the count."""
    owner = chooser if d.ev_effect[e] == EV_LEADER_LOSES else _unique(st, PL.vp, True)
    n = 0
    if owner < 0:
        return 0
    for t in range(N_TYPES):
        if st.own[owner, t] > 0:
            st.options[n, 0] = t
            n += 1
    for ch in range(N_CHARS):
        k = d.char_counter[ch]
        if k >= 0 and st.ctr_owner[k] == owner:
            st.options[n, 0] = N_TYPES + ch
            n += 1
    return n


@kernel
def event_apply(st, d: Data, e: int, chooser: int, item: int) -> int:
    """Carry out the chosen counter (a type, or 7 + a character): the leader returns it to the reserve (a character
    to the special-character reserve), or the thief rolls and takes it from the leader on 1..success_max. Returns
    the die (0 when none is rolled)."""
    if d.ev_effect[e] == EV_LEADER_LOSES:
        if item < N_TYPES:
            st.own[chooser, item] -= 1
            st.reserve[item] += 1
        else:
            k = d.char_counter[item - N_TYPES]
            st.ctr_owner[k] = -1
            st.ctr_where[k] = LOC_CHAR_RESERVE
        return 0
    victim = _unique(st, PL.vp, True)
    die = 1 + randint(st.rng, 6)
    if die <= d.ev_value[e]:
        if item < N_TYPES:
            st.own[victim, item] -= 1
            st.own[chooser, item] += 1
        else:
            st.ctr_owner[d.char_counter[item - N_TYPES]] = chooser
    return die
