"""Great Projects of Babel (BABEL-GP-*): the project of each Age, participation, success or failure before military,
rewards per participation token, penalties (with the owner's choices as decisions) and the Defeat token for a penalty
that cannot be borne."""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.rng import randint
from sim.seven_wonders.city import remove_structure
from sim.seven_wonders.data import PENALTY, REWARD, Data
from sim.seven_wonders.payment import refresh_production
from sim.seven_wonders.rules import R
from sim.seven_wonders.seats import fc_seat, players
from sim.seven_wonders.scoring import take_defeat, take_victory
from sim.seven_wonders.state import GS, State

NO_EFFECT = -1  # penalty option row: the penalty has nothing to take (lose_card without such a card)
UNBEARABLE = -2  # penalty option row: the penalty cannot be borne -> Defeat token (BABEL-GP-11)


@kernel
def reveal_project(st: State, data: Data, rules: np.ndarray, age: int) -> None:
    """BABEL-GP-1: before the hands are dealt, a random project of the Age is revealed with N - 1 tokens."""
    st.g[GS.gp] = -1
    if not rules[R.great_projects]:
        return
    count = 0
    for k in range(data.gp_age.shape[0]):
        if data.gp_age[k] == age:
            count += 1
    pick = randint(st.rng, count)
    for k in range(data.gp_age.shape[0]):
        if data.gp_age[k] == age:
            if pick == 0:
                st.g[GS.gp] = k
            pick -= 1
    st.g[GS.gp_tokens] = data.gp_tokens[players(st)]  # two players: 2 (BABEL-GP-16)
    st.g[GS.gp_reserve] = 0
    for p in range(st.g[GS.n]):
        st.gp_part[p] = 0


@kernel
def participation_coins(st: State, data: Data, rules: np.ndarray) -> int:
    """BABEL-GP-2 / BABEL-GP-3: the coin part of the participation cost; River Port's follows ``river_port_coins``
    (SW-DEC-25: the project with an alternative cost in the data)."""
    k = st.g[GS.gp]
    if data.gp_alt_coins[k] >= 0:
        return rules[R.river_port_coins]
    return data.gp_cost_coins[k]


@kernel
def can_participate(st: State, data: Data, rules: np.ndarray, p: int, color: int, wild: bool) -> bool:
    """BABEL-GP-2 / BABEL-GP-5 / BABEL-GP-7, SW-DEC-21: a structure of the project's colour (or any colour with a wild
    token) while the card still holds a token, once per turn. The Free City never participates (BABEL-GP-16)."""
    if (not rules[R.great_projects] or st.g[GS.gp] < 0 or st.g[GS.gp_tokens] <= 0 or st.gp_took[p]
            or p == fc_seat(st)):
        return False
    if wild:
        return st.gp_wild[p] > 0
    return data.gp_color[st.g[GS.gp]] == color


@kernel
def take_participation(st: State, p: int, wild: bool) -> None:
    """BABEL-GP-2 / BABEL-GP-6: p takes a token from the card, or from the reserve when several players emptied it in
    the same turn; a wild token is returned when used (BABEL-GP-13)."""
    if st.g[GS.gp_tokens] > 0:
        st.g[GS.gp_tokens] -= 1
    else:
        st.g[GS.gp_reserve] = 1  # a reserve token: remembered for SW-DEC-20
    st.gp_part[p] += 1
    st.gp_took[p] = 1
    if wild:
        st.gp_wild[p] -= 1


@kernel
def project_succeeds(st: State, rules: np.ndarray) -> bool:
    """BABEL-GP-9 / BABEL-GP-10, SW-DEC-20: success when no token remains on the card (reserve tokens taken in the last
    turn count as a success unless ``gp_overflow_success`` is off)."""
    if st.g[GS.gp_tokens] > 0:
        return False
    return rules[R.gp_overflow_success] == 1 or st.g[GS.gp_reserve] == 0


@kernel
def give_rewards(st: State, data: Data, rules: np.ndarray) -> None:
    """BABEL-GP-9 / BABEL-GP-13: each participant receives the reward once per participation token held."""
    k = st.g[GS.gp]
    kind = data.gp_reward[k]
    v = data.gp_reward_value[k]
    for p in range(st.g[GS.n]):
        t = st.gp_part[p]
        if t == 0:
            continue
        if kind == REWARD.coins:
            st.coins[p] += v * t
        elif kind == REWARD.shield_token:
            st.shields[p] += v * t
        elif kind == REWARD.victory_token:
            for _ in range(t):
                take_victory(st, data, rules, p, v)  # tile 19 applies (BABEL-TILE-GP)
        elif kind == REWARD.wild_participation_token:
            st.gp_wild[p] += t
        elif kind == REWARD.free_build_token:
            st.gp_free_build[p] += t
        elif kind == REWARD.free_wonder_stage_token:
            st.gp_free_stage[p] += t
        elif kind == REWARD.science_set_token:
            st.gp_sci_set[p] += v * t
        elif kind == REWARD.guild_vp_token:
            st.gp_guild[p] += v * t
        elif kind == REWARD.wonder_vp_token:
            st.gp_wonder[p] += v * t


@kernel
def _victory_held(st: State, p: int) -> int:
    total = 0
    for v in range(1, st.victory.shape[1]):
        total += st.victory[p, v]
    return total


@kernel
def penalty_options(st: State, data: Data, rules: np.ndarray, p: int) -> int:
    """BABEL-GP-10 / BABEL-GP-14: p's ways to bear the failed project's penalty (p holds no token), into st.options.

    lose_card: one option per own structure of the colour (owner picks; none -> NO_EFFECT); lose_victory_token: one
    option per choice of token values (opt[i, 0..1], SW-DEC-27 when fewer are held); coins and board penalties have one
    option. A penalty that cannot be borne gives the single option UNBEARABLE (BABEL-GP-11).
    """
    k = st.g[GS.gp]
    kind = data.gp_penalty[k]
    n_opt = 0
    options = st.options  # read once: a store through the handle's field reloads it on every row (1% of a game)
    for i in range(options.shape[0]):
        options[i, 1] = 0
    if kind == PENALTY.lose_card:
        for i in range(st.city_n[p]):
            if data.card_color[st.city[p, i]] == data.gp_penalty_color[k]:
                st.options[n_opt, 0] = i
                n_opt += 1
        if n_opt == 0:
            st.options[0, 0] = NO_EFFECT
            n_opt = 1
    elif kind == PENALTY.lose_victory_token:
        need = data.gp_penalty_count[k]
        held = _victory_held(st, p)
        if held == 0 or (held < need and not rules[R.gp_partial_victory_loss]):
            st.options[0, 0] = UNBEARABLE
            return 1
        need = min(need, held)
        for a in range(1, st.victory.shape[1]):
            if st.victory[p, a] == 0:
                continue
            if need == 1:
                st.options[n_opt, 0] = a
                st.options[n_opt, 1] = 0
                n_opt += 1
                continue
            for b in range(a, st.victory.shape[1]):
                if st.victory[p, b] - (1 if b == a else 0) > 0:
                    st.options[n_opt, 0] = a
                    st.options[n_opt, 1] = b
                    n_opt += 1
    elif kind == PENALTY.lose_all_coins:
        fixed = rules[R.gp_coin_penalty_fixed]
        st.options[0, 0] = 0 if (st.coins[p] > 0 if fixed == 0 else st.coins[p] >= fixed) else UNBEARABLE
        n_opt = 1
    elif kind == PENALTY.lose_board_resource:
        st.options[0, 0] = UNBEARABLE if st.board_lost[p] > 0 and rules[R.lose_board_twice_unbearable] else 0
        n_opt = 1
    return n_opt


@kernel
def penalty_is_legal(st: State, data: Data, rules: np.ndarray, p: int, a: int, b: int) -> bool:
    """Predicate for one way (a, b) of bearing the failed project's penalty (BABEL-GP-10 / BABEL-GP-11 /
    BABEL-GP-14): a city index of the colour (or NO_EFFECT without one), one or two Victory token values (b = 0 for
    one), or the single outcome of the coin and board penalties (0, or UNBEARABLE)."""
    k = st.g[GS.gp]
    kind = data.gp_penalty[k]
    if b != 0 and not (kind == PENALTY.lose_victory_token and data.gp_penalty_count[k] > 1):
        return False
    if kind == PENALTY.lose_card:
        color = data.gp_penalty_color[k]
        if st.color_n[p, color] == 0:
            return a == NO_EFFECT
        return 0 <= a < st.city_n[p] and data.card_color[st.city[p, a]] == color
    if kind == PENALTY.lose_victory_token:
        held = _victory_held(st, p)
        need = data.gp_penalty_count[k]
        if held == 0 or (held < need and not rules[R.gp_partial_victory_loss]):
            return a == UNBEARABLE and b == 0
        if min(need, held) == 1:
            return 1 <= a < st.victory.shape[1] and b == 0 and st.victory[p, a] > 0
        if not 1 <= a <= b < st.victory.shape[1]:
            return False
        return st.victory[p, a] > 0 and st.victory[p, b] - (1 if a == b else 0) > 0
    if kind == PENALTY.lose_all_coins:
        fixed = rules[R.gp_coin_penalty_fixed]
        bearable = st.coins[p] > 0 if fixed == 0 else st.coins[p] >= fixed
        return a == (0 if bearable else UNBEARABLE)
    bearable = st.board_lost[p] == 0 or not rules[R.lose_board_twice_unbearable]
    return a == (0 if bearable else UNBEARABLE)


@kernel
def apply_penalty(st: State, data: Data, rules: np.ndarray, p: int, i: int, age: int) -> None:
    """Bear penalty option i of ``penalty_options`` (BABEL-GP-10 / BABEL-GP-11 / BABEL-GP-14, SW-DEC-5 / SW-DEC-18 /
    SW-DEC-19 / SW-DEC-27)."""
    k = st.g[GS.gp]
    kind = data.gp_penalty[k]
    if st.options[i, 0] == UNBEARABLE:
        take_defeat(st, data, rules, p, -data.gp_defeat[age])  # tile 22 applies (BABEL-TILE-GP)
        return
    if kind == PENALTY.lose_card:
        if st.options[i, 0] == NO_EFFECT:
            return
        c = remove_structure(st, data, p, st.options[i, 0])
        if rules[R.gp_lost_card_to_discard]:
            st.discard[st.g[GS.discard_n]] = c
            st.g[GS.discard_n] += 1
        else:
            st.g[GS.removed_n] += 1
        refresh_production(st, data, rules, p)
    elif kind == PENALTY.lose_victory_token:
        st.victory[p, st.options[i, 0]] -= 1
        if st.options[i, 1] > 0:
            st.victory[p, st.options[i, 1]] -= 1
    elif kind == PENALTY.lose_all_coins:
        fixed = rules[R.gp_coin_penalty_fixed]
        st.coins[p] = 0 if fixed == 0 else st.coins[p] - fixed
    elif kind == PENALTY.lose_board_resource:
        st.board_lost[p] += 1  # SW-DEC-19: the board's resource is gone for the owner and for sale
        refresh_production(st, data, rules, p)


@kernel
def return_tokens(st: State) -> None:
    """BABEL-GP-12: after resolution every participation token goes back; nothing carries over."""
    for p in range(st.g[GS.n]):
        st.gp_part[p] = 0
    st.g[GS.gp] = -1
    st.g[GS.gp_tokens] = 0
    st.g[GS.gp_reserve] = 0
