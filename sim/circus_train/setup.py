"""Basic game setup (CT-SETUP-1..13): supply, decks, bag, starting talent, opening requests, start cities."""

from __future__ import annotations


from sim.circus_train.cards import deal_decks
from sim.circus_train.data import CHARACTER, CLOWN, N_TYPES, PR, Data
from sim.circus_train.events import setup_events
from sim.circus_train.roustabout import clear_city, draw_counter, fill_bag, fill_to, return_to_bag
from sim.circus_train.rules import R
from sim.circus_train.state import GS, LOC_ASIDE, LOC_BOARD, LOC_REMOVED, PL
from sim.core.deck import discard_card, draw
from sim.core.jit import kernel
from sim.core.rng import randint, shuffle
from sim.core.seats import seat_bonus
from sim.core.state import M


@kernel
def setup_supply(st, d: Data) -> None:
    """Everything before the players' choices (CT-SETUP-1..7): reserve, one clown and $0 each, VP 0, Best
    Performance 10, reputation on the start box, decks dealt, green bag, shuffled Destination deck, week 1, a
    random first player, each seat's compensation in money (CT-SEAT-1), and the Event deck with the optional rule
    (CT-OPT-EVENT-1)."""
    rules = st.rules
    n = st.meta[M.n_players]
    for t in range(N_TYPES):
        st.reserve[t] = d.talent_count[t]
    for p in range(n):
        for t in range(N_TYPES):
            st.own[p, t] = 0
        take = min(rules[R.start_clowns], st.reserve[CLOWN])
        st.own[p, CLOWN] = take
        st.reserve[CLOWN] -= take
        st.pl[p, PL.city] = -1
        st.pl[p, PL.money] = rules[R.start_money]
        st.pl[p, PL.vp] = 0
        st.pl[p, PL.best] = rules[R.best_start]
        st.pl[p, PL.n_pr] = 0
        st.pl[p, PL.pr_base] = 0
        st.pl[p, PL.show] = -1
        st.pl[p, PL.show_week] = -1
        st.pl[p, PL.rep] = d.rep_meta[0]
    deal_decks(st, d)
    for c in range(st.city_item.shape[0]):
        st.city_item[c] = -1
        st.city_char[c] = -1
        for t in range(N_TYPES):
            st.city_talent[c, t] = 0
    for k in range(st.ctr_where.shape[0]):
        st.ctr_where[k] = LOC_ASIDE if d.ctr_kind[k] != CHARACTER or rules[R.special_characters] else LOC_REMOVED
        st.ctr_owner[k] = -1
    fill_bag(st, d, 0)
    nd = d.dest_city.shape[0]
    for i in range(nd):
        st.dest[i] = i
    st.dest_n[0] = nd
    st.dest_n[1] = 0
    shuffle(st.rng, st.dest, nd)
    st.g[GS.week] = 0
    st.g[GS.ended] = 0
    st.g[GS.first] = randint(st.rng, n)
    st.g[GS.first_setup] = st.g[GS.first]
    for i in range(n):  # CT-SEAT-1: seat i + 1 is the (i + 1)-th in turn order from the random first player
        st.pl[(st.g[GS.first] + i) % n, PL.money] += seat_bonus(rules, R.seat2_money, i)
    setup_events(st, d)


@kernel
def start_talent_is_legal(st, d: Data, t: int) -> bool:
    """A starting talent is an acrobat, freak or horse still in the reserve (CT-SETUP-8)."""
    return d.setup_choice[t] != 0 and st.reserve[t] > 0


@kernel
def start_talent_options(st, d: Data) -> int:
    """Fill ``st.options[i, 0]`` with the types a player may take as a starting talent (H1); return the count."""
    n = 0
    for t in range(N_TYPES):
        if start_talent_is_legal(st, d, t):
            st.options[n, 0] = t
            n += 1
    return n


@kernel
def take_start_talent(st, p: int, t: int) -> None:
    """One starting talent from the reserve into p's circus (CT-SETUP-8)."""
    st.reserve[t] -= 1
    st.own[p, t] += 1


@kernel
def opening_requests(st, d: Data) -> None:
    """One PR per player, each on a fresh Destination card's city: counters are drawn until a PR comes up and every
    other counter goes straight back into the bag, the same card waiting (CT-SETUP-9, CT-AMB-2). Solitaire: 1."""
    placed = 0
    while placed < st.meta[M.n_players]:
        card = draw(st.dest, st.dest_n, st.dest_disc, st.rng)
        c = d.dest_city[card]
        while True:
            k = draw_counter(st)
            if d.ctr_kind[k] == PR:
                break
            return_to_bag(st, k)
        clear_city(st, c)
        st.city_item[c] = k
        st.ctr_where[k] = LOC_BOARD
        discard_card(st.dest_disc, st.dest_n, card)
        placed += 1


@kernel
def setup_board(st, d: Data) -> None:
    """Opening requests, then the fill to 8 occupied cities with any counters (CT-SETUP-9..12)."""
    opening_requests(st, d)
    fill_to(st, d, st.rules[R.fill_start])


@kernel
def start_city_options(st, d: Data) -> int:
    """Fill ``st.options[i, 0]`` with the start cities: Winnipeg, Toronto, Montreal (H2, CT-SETUP-13)."""
    n = 0
    for c in range(d.is_start.shape[0]):
        if d.is_start[c]:
            st.options[n, 0] = c
            n += 1
    return n


@kernel
def place_train(st, d: Data, p: int, c: int) -> None:
    """Put p's train on a start city; trains may share cities (CT-SETUP-13)."""
    assert d.is_start[c]
    st.pl[p, PL.city] = c
