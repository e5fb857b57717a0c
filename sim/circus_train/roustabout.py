"""The Roustabout phase and the bag (CT-ROUST-*, CT-REPL-*, CT-LIMIT-*, CT-SEASON-1, CT-OPT-CHAR-2/3/12)."""

from __future__ import annotations


from sim.circus_train.calendar import quota
from sim.circus_train.data import BC, CHARACTER, N_TYPES, Data
from sim.circus_train.rules import R
from sim.circus_train.state import GS, LOC_BAG, LOC_BOARD, LOC_CHAR_RESERVE, LOC_REMOVED, PL
from sim.core.deck import discard_card, draw
from sim.core.jit import kernel
from sim.core.rng import randint
from sim.core.state import M


@kernel
def city_talent_count(st, c: int) -> int:
    """Talent counters in the city's group."""
    return talent_on(st.city_talent, c)


@kernel(inline="always")
def talent_on(city_talent, c: int) -> int:
    """Talent counters in row c of ``city_talent`` (city_talent_count for a loop that holds the array)."""
    k = 0
    for t in range(N_TYPES):
        k += city_talent[c, t]
    return k


@kernel
def is_occupied(st, c: int) -> bool:
    """A PR, a Points counter or talent on the city (CT-ROUST-1); a lone character counts only with
    ``lone_character_occupies`` (CT-AMB-9). Every term is evaluated, without branches: which holds is
    unpredictable, and occupied_count asks it of every city several times a week."""
    lone = (st.rules[R.lone_character_occupies] != 0) & (st.city_char[c] >= 0)
    return (st.city_item[c] >= 0) | (city_talent_count(st, c) > 0) | lone


@kernel
def occupied_count(st) -> int:
    """Occupied cities on the board (CT-ROUST-1)."""
    k = 0
    for c in range(st.city_item.shape[0]):
        if is_occupied(st, c):
            k += 1
    return k


@kernel
def draw_counter(st) -> int:
    """Take a random counter out of the bag; -1 when it is empty (CT-LIMIT-2)."""
    n = st.g[GS.bag_n]
    if n == 0:
        return -1
    i = randint(st.rng, n)
    k = st.bag[i]
    st.bag[i] = st.bag[n - 1]
    st.g[GS.bag_n] = n - 1
    return k


@kernel
def return_to_bag(st, k: int) -> None:
    """Put counter k back into the bag."""
    st.bag[st.g[GS.bag_n]] = k
    st.g[GS.bag_n] += 1
    st.ctr_where[k] = LOC_BAG


@kernel
def clear_city(st, c: int) -> None:
    """Remove what a city holds before a new counter replaces it (CT-REPL-2, CT-AMB-28/29): a PR or Points counter
    leaves the game and cancels every two-week show on it (CT-TWO-4), talent returns to the reserve, a character
    goes to the special-character reserve."""
    k = st.city_item[c]
    if k >= 0:
        st.ctr_where[k] = LOC_REMOVED
        st.city_item[c] = -1
        for p in range(st.meta[M.n_players]):
            if st.pl[p, PL.show] == k:
                st.pl[p, PL.show] = -1
    for t in range(N_TYPES):
        st.reserve[t] += st.city_talent[c, t]
        st.city_talent[c, t] = 0
    if st.city_char[c] >= 0:
        st.ctr_where[st.city_char[c]] = LOC_CHAR_RESERVE
        st.city_char[c] = -1


@kernel
def place_bankrupt_circus(st, d: Data, c: int, k: int) -> bool:
    """Put the BC's talents that are still in stock on the city; the BC leaves the game (CT-REPL-4, CT-LIMIT-1).
    Returns False when none of its talents was in stock."""
    placed = False
    for t in range(N_TYPES):
        m = min(d.ctr_talent[k, t], st.reserve[t])
        if m > 0:
            st.reserve[t] -= m
            st.city_talent[c, t] += m
            placed = True
    st.ctr_where[k] = LOC_REMOVED
    return placed


@kernel
def place_on_city(st, d: Data, c: int) -> None:
    """Draw counters for the (cleared) city until one stays (CT-REPL-3/4/5): a PR or Points counter as it is; a BC
    as its talents, or another draw if none is in stock; a character, then a second counter for the same city, and
    if that is a character too it goes back to the bag and nothing more is drawn."""
    chars = 0
    while True:
        k = draw_counter(st)
        if k < 0:
            return
        kind = d.ctr_kind[k]
        if kind == CHARACTER:
            if chars > 0:
                return_to_bag(st, k)
                return
            chars += 1
            st.city_char[c] = k
            st.ctr_where[k] = LOC_BOARD
            continue
        if kind == BC:
            if place_bankrupt_circus(st, d, c, k):
                return
            continue
        st.city_item[c] = k
        st.ctr_where[k] = LOC_BOARD
        return


@kernel
def next_destination(st, d: Data) -> int:
    """The city of the top Destination card, which goes to the discard pile (CT-REPL-1; the discard pile is
    reshuffled when the deck runs out, CT-LIMIT-3). Replenishing a city is this, then ``replace_contents``."""
    card = draw(st.dest, st.dest_n, st.dest_disc, st.rng)
    discard_card(st.dest_disc, st.dest_n, card)
    return d.dest_city[card]


@kernel
def replace_contents(st, d: Data, c: int) -> None:
    """The city's old contents are removed and counters drawn for it (CT-REPL-2..5)."""
    clear_city(st, c)
    place_on_city(st, d, c)


@kernel
def fill_to(st, d: Data, target: int) -> int:
    """Replenish while fewer than ``target`` cities are occupied and the bag holds counters (CT-ROUST-2,
    CT-LIMIT-2); return the number of cities replenished. The occupied count is taken once and then follows the
    one city each replenishment changes."""
    k = 0
    occupied = occupied_count(st)
    while occupied < target and st.g[GS.bag_n] > 0:
        c = next_destination(st, d)
        occupied -= 1 if is_occupied(st, c) else 0
        replace_contents(st, d, c)
        occupied += 1 if is_occupied(st, c) else 0
        k += 1
    return k


@kernel
def roustabout(st, d: Data) -> int:
    """Fill the board to the current month's quota, 8 / 10 / 12 (CT-ROUST-2; the same fill is the start-of-round
    safety net, CT-ROUST-4)."""
    return fill_to(st, d, quota(st, d))


@kernel
def retire_lone_characters(st) -> None:
    """A Special Character alone on a city goes to the special-character reserve (CT-OPT-CHAR-3, CT-TURN-3)."""
    for c in range(st.city_char.shape[0]):
        k = st.city_char[c]
        if k >= 0 and st.city_item[c] < 0 and city_talent_count(st, c) == 0:
            st.ctr_where[k] = LOC_CHAR_RESERVE
            st.city_char[c] = -1


@kernel
def fill_bag(st, d: Data, season: int) -> None:
    """The bag becomes the season's counters; characters only with the optional rule (CT-SETUP-5, CT-OPT-CHAR-1)."""
    st.g[GS.bag_n] = 0
    st.g[GS.bag_season] = season
    for k in range(d.ctr_kind.shape[0]):
        if d.ctr_season[k] == season and (d.ctr_kind[k] != CHARACTER or st.rules[R.special_characters]):
            return_to_bag(st, k)


@kernel
def change_season(st, d: Data) -> None:
    """End of May / July (CT-SEASON-1): the old bag's counters leave the game, undrawn characters go to the
    special-character reserve (CT-AMB-24); green characters still on the board go there too at the end of May
    (CT-OPT-CHAR-12; yellow ones only with ``character_yellow_window``, CT-AMB-40); the next season's counters
    fill the bag and the board is filled to the new quota at once (CT-AMB-10)."""
    old = st.g[GS.bag_season]
    for i in range(st.g[GS.bag_n]):
        k = st.bag[i]
        st.ctr_where[k] = LOC_CHAR_RESERVE if d.ctr_kind[k] == CHARACTER else LOC_REMOVED
    st.g[GS.bag_n] = 0
    if old == 0 or st.rules[R.character_yellow_window]:
        for c in range(st.city_char.shape[0]):
            k = st.city_char[c]
            if k >= 0 and d.ctr_season[k] == old:
                st.ctr_where[k] = LOC_CHAR_RESERVE
                st.city_char[c] = -1
    fill_bag(st, d, old + 1)
    roustabout(st, d)
