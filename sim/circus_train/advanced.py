"""Turn options of the advanced game and Engineer Eddie: play, replay a discard, pocket wages (CT-ADV-TURN-1,
CT-ADV-REPLAY-1, CT-ADV-POCKET-1, CT-SOLO-7, CT-OPT-CHAR-9); Rest in Canada and Parades (CT-ADV-REST-1,
CT-ADV-PARADE-1)."""

from __future__ import annotations


from sim.circus_train.calendar import late_season
from sim.circus_train.cards import card_is_playable, play_card
from sim.circus_train.data import ACROBAT, CLOWN, EDDIE, N_CARDS, REST, Data
from sim.circus_train.movement import owns_character
from sim.circus_train.points import change_rep, gain_vp, lose_vp
from sim.circus_train.rules import R
from sim.circus_train.state import GS, LOC_CHAR_RESERVE, PL
from sim.core.jit import kernel
from sim.core.state import M

PLAY, REPLAY, POCKET, EDDIE_REPLAY = 0, 1, 2, 3  # st.options[i, 0] of turn_options; st.options[i, 1] = card or k
REST_CLOWN, REST_ACROBAT, REST_REPUTATION = 0, 1, 2  # rest_options


@kernel
def _replayable(st, p: int, card: int) -> bool:
    """A discarded card that could be carried out now (Rest never in week 1, CT-AMB-20)."""
    if st.disc[p, card] <= 0:
        return False
    return not (card == REST and st.g[GS.week] == 0 and not st.rules[R.rest_week_1])


@kernel
def replay_affordable(st, d: Data, p: int) -> bool:
    """The replay cost can be paid (CT-ADV-REPLAY-1, CT-AMB-18, CT-SOLO-7): April-July 2 reputation steps without
    going below the bottom box; August-September 4 VP at any score; solitaire $20 and 2 steps in every month."""
    rules = st.rules
    steps_ok = st.pl[p, PL.rep] >= rules[R.replay_rep_cost]
    if st.meta[M.n_players] == 1:
        return steps_ok and st.pl[p, PL.money] >= rules[R.solo_replay_money]
    return True if late_season(st, d) else steps_ok


@kernel
def pocket_allowed(st, d: Data, p: int, k: int) -> bool:
    """Pocket k x $5 for k reputation steps: April-July, never in solitaire, 1 <= k <= the steps above the bottom
    box (CT-ADV-POCKET-1, CT-AMB-19)."""
    return (st.rules[R.advanced] != 0 and st.meta[M.n_players] > 1 and not late_season(st, d)
            and 1 <= k <= st.pl[p, PL.rep])


@kernel
def turn_option_is_legal(st, d: Data, p: int, kind: int, arg: int) -> bool:
    """Independent check of a turn option (H3)."""
    if kind == PLAY:
        return 0 <= arg < N_CARDS and card_is_playable(st, p, arg)
    if kind == REPLAY:
        return (st.rules[R.advanced] != 0 and 0 <= arg < N_CARDS and _replayable(st, p, arg)
                and replay_affordable(st, d, p))
    if kind == EDDIE_REPLAY:
        return 0 <= arg < N_CARDS and owns_character(st, d, p, EDDIE) and _replayable(st, p, arg)
    if kind == POCKET:
        return pocket_allowed(st, d, p, arg)
    return False


@kernel
def turn_options(st, d: Data, p: int) -> int:
    """Fill ``st.options[i] = (kind, card or k)`` with p's turn options (H3): a card from hand; advanced: a replay from
    the discard pile or pocketing k x $5; with Engineer Eddie, a free replay. Return the count."""
    n = 0
    for kind in (PLAY, REPLAY, EDDIE_REPLAY):
        for c in range(N_CARDS):
            if turn_option_is_legal(st, d, p, kind, c):
                st.options[n, 0] = kind
                st.options[n, 1] = c
                n += 1
    for k in range(1, st.pl[p, PL.rep] + 1):
        if pocket_allowed(st, d, p, k):
            st.options[n, 0] = POCKET
            st.options[n, 1] = k
            n += 1
    return n


@kernel
def apply_turn_option(st, d: Data, p: int, kind: int, arg: int) -> int:
    """Take a turn option; return the card whose action follows (-1 after pocketing). A replayed card stays in the
    discard pile and the hand is unchanged; Eddie goes to the special-character reserve after his free replay."""
    rules = st.rules
    if kind == PLAY:
        play_card(st, p, arg)
        return arg
    if kind == POCKET:
        st.pl[p, PL.money] += arg * rules[R.pocket_money]
        change_rep(st, d, p, -arg)
        return -1
    if kind == EDDIE_REPLAY:
        k = d.char_counter[EDDIE]
        st.ctr_owner[k] = -1
        st.ctr_where[k] = LOC_CHAR_RESERVE
        return arg
    if st.meta[M.n_players] == 1:
        st.pl[p, PL.money] -= rules[R.solo_replay_money]
        change_rep(st, d, p, -rules[R.replay_rep_cost])
    elif late_season(st, d):
        lose_vp(st, p, rules[R.replay_vp_cost])
    else:
        change_rep(st, d, p, -rules[R.replay_rep_cost])
    return arg


@kernel
def rest_options(st, d: Data, p: int) -> int:
    """Fill ``st.options[i, 0]`` with the Rest-in-Canada rewards (H12): a free clown or acrobat from the reserve, or +1
    reputation step; none outside Canada or in the basic game (CT-ADV-REST-1)."""
    if not st.rules[R.advanced] or not d.is_start[st.pl[p, PL.city]]:
        return 0
    n = 0
    if st.reserve[CLOWN] > 0:
        st.options[n, 0] = REST_CLOWN
        n += 1
    if st.reserve[ACROBAT] > 0:
        st.options[n, 0] = REST_ACROBAT
        n += 1
    st.options[n, 0] = REST_REPUTATION
    return n + 1


@kernel
def rest_apply(st, d: Data, p: int, reward: int) -> None:
    """Take a Rest-in-Canada reward (CT-ADV-REST-1)."""
    if reward == REST_REPUTATION:
        change_rep(st, d, p, 1)
        return
    t = CLOWN if reward == REST_CLOWN else ACROBAT
    st.reserve[t] -= 1
    st.own[p, t] += 1


@kernel
def parade(st, d: Data, p: int, reputation: bool) -> None:
    """A Parade with a Basic Transit card: pay $10, then +1 reputation step or +2 VP (CT-ADV-PARADE-1; solitaire:
    the VP as money, CT-SOLO-5)."""
    rules = st.rules
    st.pl[p, PL.money] -= rules[R.parade_cost]
    if reputation:
        change_rep(st, d, p, 1)
    else:
        gain_vp(st, p, rules[R.parade_vp])
