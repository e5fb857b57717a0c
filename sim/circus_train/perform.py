"""Performing (CT-PERF-*) and two-week shows (CT-TWO-*)."""

from __future__ import annotations


from sim.circus_train.data import BERTHA, N_TYPES, PR, RONALD, Data
from sim.circus_train.events import level_delta, money_delta
from sim.circus_train.movement import owns_character
from sim.circus_train.rules import R
from sim.circus_train.state import GS, LOC_PLAYER, PL
from sim.core.jit import kernel
from sim.core.state import M


@kernel
def performance_level(st, d: Data, p: int, k: int, ronald_type: int) -> int:
    """Level of p performing PR ``k`` (CT-PERF-2..5): base, plus each asked-for type's bonus once if p owns one of
    that type, doubled when p owns famous_threshold or more (or it is Ringmaster Ronald's chosen type, clowns or
    acrobats, CT-OPT-CHAR-7), plus the bases of p's earlier PRs, plus Big Bertha's 10 (CT-OPT-CHAR-10), plus an
    Event card's change; never below 0. ``ronald_type`` is -1 when Ronald is not used."""
    return request_level(d.ctr_base[k], d.ctr_bonus[k], owned_types(st, p), famous_types(st, d, p, ronald_type),
                         st.rules[R.famous_multiplier], level_extra(st, d, p))


@kernel(inline="always")
def request_level(base: int, bonus, owned: int, famous: int, multiplier: int, extra: int) -> int:
    """Level of a PR of ``base`` points and per-type ``bonus`` (0: not asked for) for a circus owning the types of
    bit set ``owned``, those of ``famous`` times ``multiplier``, plus ``extra`` (see performance_level). Split off
    so a feature pass over every request takes p's part once; without branches, as which types count is
    unpredictable."""
    level = base + extra
    for t in range(N_TYPES):
        level += bonus[t] * (owned >> t & 1) * (1 + (multiplier - 1) * (famous >> t & 1))
    return max(0, level)


@kernel
def owned_types(st, p: int) -> int:
    """Bit set of the talent types p owns a counter of."""
    bits = 0
    for t in range(N_TYPES):
        if st.own[p, t] >= 1:
            bits |= 1 << t
    return bits


@kernel
def famous_types(st, d: Data, p: int, ronald_type: int) -> int:
    """Bit set of the types whose bonus p doubles: famous_threshold or more counters (CT-PERF-3), or Ringmaster
    Ronald's chosen type (CT-OPT-CHAR-7)."""
    bits = 0
    for t in range(N_TYPES):
        if st.own[p, t] >= st.rules[R.famous_threshold]:
            bits |= 1 << t
    if ronald_type >= 0 and owns_character(st, d, p, RONALD):
        bits |= 1 << ronald_type
    return bits


@kernel
def level_extra(st, d: Data, p: int) -> int:
    """What every performance of p adds to the request's own points: the bases of p's earlier PRs (CT-PERF-4),
    an Event card's change (CT-PERF-5) and Big Bertha's bonus (CT-OPT-CHAR-10)."""
    extra = st.pl[p, PL.pr_base] + level_delta(st, d)
    if owns_character(st, d, p, BERTHA):
        extra += st.rules[R.bertha_bonus]
    return extra


@kernel
def show_reserved_by_other(st, p: int, k: int) -> bool:
    """House rule ``two_week_reserved`` (CT-AMB-5): another player's show in progress holds the PR."""
    if not st.rules[R.two_week_reserved]:
        return False
    for q in range(st.meta[M.n_players]):
        if q != p and st.pl[q, PL.show] == k:
            return True
    return False


@kernel
def can_perform(st, d: Data, p: int) -> bool:
    """A PR on p's city that p may perform (CT-PERF-1): any player, with any talent; a two-week show may be
    completed only on the turn right after it started (CT-TWO-2)."""
    k = st.city_item[st.pl[p, PL.city]]
    if k < 0 or d.ctr_kind[k] != PR or show_reserved_by_other(st, p, k):
        return False
    return True


@kernel
def perform(st, d: Data, p: int, ronald_type: int) -> int:
    """Perform at the PR on p's city; return the level scored, or -1 when this starts a two-week show.

    Two-week PR not yet started by p: the show starts and nothing scores (CT-TWO-1, CT-TWO-5: not reserved).
    Otherwise the level is scored (CT-PERF-5; a completed show counts the talents and PRs owned now, CT-AMB-6),
    the PR goes to p (CT-PERF-6) and cancels every other show on it (CT-TWO-4), the Best Performance marker rises
    if beaten (CT-PERF-7), and p earns the PR colour's money plus $10 for a new best (CT-PERF-8); in solitaire $1
    per level point instead (CT-SOLO-3).
    """
    rules = st.rules
    c = st.pl[p, PL.city]
    k = st.city_item[c]
    if d.ctr_two_week[k] and st.pl[p, PL.show] != k:
        st.pl[p, PL.show] = k
        st.pl[p, PL.show_week] = st.g[GS.week]
        st.pl[p, PL.show_level] = performance_level(st, d, p, k, ronald_type)
        return -1
    level = performance_level(st, d, p, k, ronald_type)
    if d.ctr_two_week[k] and not rules[R.two_week_score_at_completion]:
        level = st.pl[p, PL.show_level]
    st.city_item[c] = -1
    st.ctr_where[k] = LOC_PLAYER
    st.ctr_owner[k] = p
    st.pl[p, PL.n_pr] += 1
    st.pl[p, PL.pr_base] += d.ctr_base[k]
    for q in range(st.meta[M.n_players]):
        if st.pl[q, PL.show] == k:
            st.pl[q, PL.show] = -1
    if st.meta[M.n_players] == 1:
        st.pl[p, PL.money] += level
        return level
    money = max(0, d.season_money[d.ctr_season[k]] + money_delta(st, d))
    if level > st.pl[p, PL.best]:
        st.pl[p, PL.best] = level
        money += rules[R.new_best_money]
    st.pl[p, PL.money] += money
    return level


@kernel
def show_due(st, p: int) -> bool:
    """p started a two-week show last week: this turn must complete it or it is abandoned (CT-TWO-2/3)."""
    return st.pl[p, PL.show] >= 0 and st.pl[p, PL.show_week] == st.g[GS.week] - 1


@kernel
def end_turn_shows(st, p: int) -> None:
    """After p's turn: a show started on an earlier turn and not completed now is abandoned; the PR stays on the
    board (CT-TWO-3)."""
    if st.pl[p, PL.show] >= 0 and st.pl[p, PL.show_week] < st.g[GS.week]:
        st.pl[p, PL.show] = -1
