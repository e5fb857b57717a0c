"""Validating loader for the Circus Train component files (CT-COMP-*): JSON -> NumPy arrays for the kernels.

The packaged files (sim/circus_train/data/*.json) keep their sources and per-counter provenance. A designer's
own directory (``--set data=DIR``) may hold any of the six files; the ones it lacks come from the package. Every
problem is one PlaytestError line naming the file, the field and the fix. Talent types, action cards and months
are re-ordered to the fixed internal order below, because the rules name them (clowns, animals, Rest, April ...).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.graph import hop_distances
from sim.core.structs import struct_handle

PACKAGED = Path(__file__).with_name("data")
FILES = ("map.json", "counters.json", "talent.json", "calendar.json", "reputation.json", "cards.json")

TALENT_TYPES = ("clown", "acrobat", "freak", "horse", "human_cannonball", "big_cat", "elephant")
CLOWN, ACROBAT, FREAK, HORSE, CANNONBALL, BIG_CAT, ELEPHANT = range(7)
N_TYPES = 7

CARDS = ("fast_transit", "rapid_transit", "overnight_transit", "basic_transit", "hold", "overnight_hire",
         "wage_transit", "rest")
FAST, RAPID, OVERNIGHT_TRANSIT, BASIC, HOLD, OVERNIGHT_HIRE, WAGE_TRANSIT, REST = range(8)
N_CARDS = 8

MONTHS = ("april", "may", "june", "july", "august", "september")
SEASONS = ("green", "yellow", "red")
N_MONTHS = 6

KINDS = ("performance_request", "bankrupt_circus", "points", "special_character")
PR, BC, POINTS, CHARACTER = range(4)

EFFECTS = ("none", "wage_modifier", "performance_level_modifier", "performance_money_modifier", "movement_cap",
           "hire_success_modifier", "each_player_gains_talent", "money_to_fewest", "vp_to_most",
           "leader_loses_talent", "catchup_steal_roll")
(EV_NONE, EV_WAGE, EV_LEVEL, EV_MONEY, EV_MOVE_CAP, EV_HIRE, EV_GAIN_TALENT, EV_MONEY_FEWEST, EV_VP_MOST,
 EV_LEADER_LOSES, EV_RAID) = range(len(EFFECTS))
"""Effects of the (stand-in) Event cards (CT-OPT-EVENT-3, CT-AMB-34); sim.circus_train.events applies them."""

CHARACTERS = ("brakeman_bill", "ringmaster_ronald", "smuggler_sam", "engineer_eddie", "big_bertha", "trainer_ted")
BILL, RONALD, SAM, EDDIE, BERTHA, TED = range(6)
N_CHARS = 6


class Data(NamedTuple):
    """The static board, counters and cards as int64 arrays (the handle the kernels read)."""

    adj: np.ndarray  # (n_city, max_deg) neighbours, padded with -1 (CT-MOVE-1)
    deg: np.ndarray  # (n_city,)
    dist: np.ndarray  # (n_city, n_city) rail steps
    is_start: np.ndarray  # (n_city,) 1 for the Canadian start cities (CT-SETUP-13)
    is_dest: np.ndarray  # (n_city,) 1 for cities with a Destination card (CT-COMP-3)
    dest_city: np.ndarray  # (n_dest,) city of each Destination card
    wage: np.ndarray  # (7,) wage per counter by type (CT-WAGE-1)
    talent_count: np.ndarray  # (7,) counters per type (CT-COMP-6)
    is_animal: np.ndarray  # (7,) horses, big cats, elephants
    setup_choice: np.ndarray  # (7,) types a player may take at setup (CT-SETUP-8)
    ctr_season: np.ndarray  # (n_ctr,) 0 green, 1 yellow, 2 red
    ctr_kind: np.ndarray  # (n_ctr,) PR, BC, POINTS, CHARACTER
    ctr_base: np.ndarray  # (n_ctr,) PR base points
    ctr_two_week: np.ndarray  # (n_ctr,) 1 for a two-week show (CT-TWO-1)
    ctr_bonus: np.ndarray  # (n_ctr, 7) PR bonus per type, 0 = not asked for (CT-PERF-2)
    ctr_asks: np.ndarray  # (n_ctr,) the types a PR asks for, one byte per type (a request count adds these)
    ctr_talent: np.ndarray  # (n_ctr, 7) talent a BC puts on the board (CT-REPL-4)
    ctr_points: np.ndarray  # (n_ctr,) VP of a Points counter (CT-PTS-1)
    ctr_char: np.ndarray  # (n_ctr,) character index (BILL..TED) or -1
    char_counter: np.ndarray  # (6,) counter id of each character, -1 if the file lacks it
    card_copies: np.ndarray  # (8,) copies per player of each action card (CT-COMP-2)
    card_move_max: np.ndarray  # (8,) printed movement allowance (Basic Transit: 1, exactly)
    card_min_players: np.ndarray  # (8,) train symbol (CT-COMP-9)
    card_advanced: np.ndarray  # (8,) 1 for Rest (advanced game only)
    month_weeks: np.ndarray  # (6,) 4 or 5 (CT-CAL-1)
    month_season: np.ndarray  # (6,)
    month_quota: np.ndarray  # (6,) occupied-city quota (CT-ROUST-2)
    month_price: np.ndarray  # (6,) Special Hire reserve price (CT-SPH-1)
    month_bag_change: np.ndarray  # (6,) 1 after May and July (CT-SEASON-1)
    month_event: np.ndarray  # (6,) 1 when an Event card is revealed after the month (CT-OPT-EVENT-2)
    week_month: np.ndarray  # (n_weeks,) month of each global week (week 1 = index 0)
    week_last: np.ndarray  # (n_weeks,) 1 for the last week of a month
    season_money: np.ndarray  # (3,) money of a PR by its colour (CT-PERF-8)
    rep_success: np.ndarray  # (n_levels,) success_max per reputation box (CT-REP-1)
    rep_meta: np.ndarray  # (3,) start index, most-money success_max threshold, top index
    ev_effect: np.ndarray  # (n_events,) EV_* effect of each Event card (CT-OPT-EVENT-3)
    ev_month: np.ndarray  # (n_events,) 1 = lasts the month, 0 = applied at once
    ev_types: np.ndarray  # (n_events, 7) 1 for the talent types the card names
    ev_value: np.ndarray  # (n_events,) its number: delta, cap, amount, VP or success_max
    ev_card: np.ndarray  # (n_events,) the action card a movement cap applies to, -1 none
    ev_min_players: np.ndarray  # (n_events,) train symbol (CT-COMP-9)
    ev_deck_size: np.ndarray  # (1,) cards dealt into the event deck (CT-OPT-EVENT-1)


REP_START, REP_MONEY_MIN_SUCCESS, REP_TOP = range(3)

kernel_data = struct_handle(Data, "CircusDataRef")
"""Wrap the data's arrays in one handle for the kernels (a tuple of 40 arrays costs a reference count each per
call; a borrowed handle costs nothing)."""


class CircusData(Data):
    """Data plus Python-only names for reports and replays: ``city_ids``, ``city_names``, ``counter_ids``,
    ``event_cards`` (the raw stand-in event list), ``stand_ins`` (what in use is a designed stand-in), ``sources``
    (file -> its source field) and ``files`` (file -> the path it was read from)."""


def _fail(file: Path, problem: str, fix: str = "fix the file") -> PlaytestError:
    return PlaytestError(f"circus_train data '{file}': {problem}; {fix}")


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _fail(path, f"is not readable JSON ({exc})",
                    "fix the file or remove it to use the packaged one") from None
    if not isinstance(data, dict):
        raise _fail(path, "the top level must be a JSON object")
    return data


def _get(obj: Any, key: str, typ: type | tuple, file: Path, where: str) -> Any:
    """obj[key] checked against ``typ`` (bool is not accepted as an int)."""
    if not isinstance(obj, dict) or key not in obj:
        raise _fail(file, f"{where} lacks the field '{key}'", f"add '{key}'")
    val = obj[key]
    ok = isinstance(val, typ) and not (typ is int and isinstance(val, bool))
    if not ok:
        names = typ.__name__ if isinstance(typ, type) else "/".join(t.__name__ for t in typ)
        raise _fail(file, f"{where} field '{key}' is {val!r}, not a {names}", f"give '{key}' a {names} value")
    return val


def _nat(obj: Any, key: str, file: Path, where: str, lo: int = 0, hi: int = 1 << 30) -> int:
    val = _get(obj, key, int, file, where)
    if not lo <= val <= hi:
        raise _fail(file, f"{where} field '{key}' is {val}, outside {lo}..{hi}", f"give '{key}' a value in {lo}..{hi}")
    return val


def _list(obj: Any, key: str, file: Path, where: str = "the file") -> list:
    val = _get(obj, key, list, file, where)
    if not val:
        raise _fail(file, f"{where} field '{key}' is an empty list", f"list at least one entry under '{key}'")
    return val


def _map(raw: dict, f: Path) -> dict:
    cities = _list(raw, "cities", f)
    ids = []
    for i, c in enumerate(cities):
        cid = _get(c, "id", str, f, f"cities[{i}]")
        if cid in ids:
            raise _fail(f, f"cities[{i}] repeats the id '{cid}'", "give every city its own id")
        ids.append(cid)
        for k in ("start_city", "destination_card"):
            _get(c, k, bool, f, f"city '{cid}'")
    index = {c: i for i, c in enumerate(ids)}
    nbrs: list[list[int]] = [[] for _ in ids]
    seen = set()
    for k, e in enumerate(_list(raw, "edges", f)):
        if not (isinstance(e, list) and len(e) == 2 and all(x in index for x in e)) or e[0] == e[1]:
            raise _fail(f, f"edges[{k}] {e!r} must join two different known city ids", "name cities from 'cities'")
        key = frozenset(e)
        if key in seen:
            raise _fail(f, f"edges[{k}] {e!r} repeats a rail line", "list each line once")
        seen.add(key)
        a, b = index[e[0]], index[e[1]]
        nbrs[a].append(b)
        nbrs[b].append(a)
    n = len(ids)
    dist = hop_distances(nbrs)
    if (dist < 0).any():
        lost = ids[int(np.flatnonzero(dist[0] < 0)[0])]
        raise _fail(f, f"the rail graph is not connected ('{lost}' cannot be reached from '{ids[0]}')", "add a line")
    is_start = np.array([int(c["start_city"]) for c in cities], dtype=np.int64)
    is_dest = np.array([int(c["destination_card"]) for c in cities], dtype=np.int64)
    if not is_start.any():
        raise _fail(f, "no city has start_city: true", "mark the Canadian start cities")
    if (is_start & is_dest).any():
        raise _fail(f, "a start city also has a destination card", "start cities never receive counters (CT-COMP-3)")
    adj = np.full((n, max(len(x) for x in nbrs)), -1, dtype=np.int64)
    for v, ws in enumerate(nbrs):
        adj[v, : len(ws)] = ws
    return dict(ids=ids, names=[c.get("name", c["id"]) for c in cities], index=index, adj=adj,
                deg=np.array([len(x) for x in nbrs], dtype=np.int64), dist=dist, is_start=is_start, is_dest=is_dest)


def _talent(raw: dict, f: Path) -> dict:
    types = _list(raw, "types", f)
    got = {}
    for i, t in enumerate(types):
        tid = _get(t, "id", str, f, f"types[{i}]")
        if tid not in TALENT_TYPES or tid in got:
            raise _fail(f, f"types[{i}] id '{tid}' is unknown or repeated",
                        f"use each of {', '.join(TALENT_TYPES)} once")
        got[tid] = t
    if len(got) != N_TYPES:
        missing = [t for t in TALENT_TYPES if t not in got]
        raise _fail(f, f"talent types {missing} are missing", "list all 7 types")
    out = {k: np.zeros(N_TYPES, dtype=np.int64) for k in ("wage", "count", "animal", "choice")}
    for j, tid in enumerate(TALENT_TYPES):
        t = got[tid]
        out["wage"][j] = _nat(t, "wage", f, f"type '{tid}'", 0, 1000)
        out["count"][j] = _nat(t, "count", f, f"type '{tid}'", 0, 1000)
        out["animal"][j] = int(_get(t, "animal", bool, f, f"type '{tid}'"))
        out["choice"][j] = int(_get(t, "setup_choice", bool, f, f"type '{tid}'"))
    if not out["choice"].any():
        raise _fail(f, "no type has setup_choice: true", "mark the types a player may take at setup (CT-SETUP-8)")
    return out


def _counters(raw: dict, f: Path) -> dict:
    items = _list(raw, "counters", f)
    n = len(items)
    a = {k: np.zeros(n, dtype=np.int64) for k in ("season", "kind", "base", "two_week", "points")}
    a["char"] = np.full(n, -1, dtype=np.int64)
    bonus = np.zeros((n, N_TYPES), dtype=np.int64)
    talent = np.zeros((n, N_TYPES), dtype=np.int64)
    ids: list[str] = []
    for i, c in enumerate(items):
        cid = _get(c, "id", str, f, f"counters[{i}]")
        where = f"counter '{cid}'"
        if cid in ids:
            raise _fail(f, f"counters[{i}] repeats the id '{cid}'", "give every counter its own id")
        ids.append(cid)
        season = _get(c, "season", str, f, where)
        kind = _get(c, "kind", str, f, where)
        if season not in SEASONS:
            raise _fail(f, f"{where} has season '{season}'", f"use one of {', '.join(SEASONS)}")
        if kind not in KINDS:
            raise _fail(f, f"{where} has kind '{kind}'", f"use one of {', '.join(KINDS)}")
        a["season"][i] = SEASONS.index(season)
        a["kind"][i] = KINDS.index(kind)
        if kind == "performance_request":
            a["base"][i] = _nat(c, "base", f, where, 0, 1000)
            a["two_week"][i] = int(_get(c, "two_week", bool, f, where))
            b = _get(c, "bonus", dict, f, where)
            for t, v in b.items():
                if t not in TALENT_TYPES or not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                    raise _fail(f, f"{where} bonus '{t}': {v!r} is not a positive bonus for a talent type",
                                f"use types {', '.join(TALENT_TYPES)} with positive integers")
                bonus[i, TALENT_TYPES.index(t)] = v
        elif kind == "bankrupt_circus":
            for t in _list(c, "talents", f, where):
                if t not in TALENT_TYPES:
                    raise _fail(f, f"{where} talents name '{t}'", f"use types {', '.join(TALENT_TYPES)}")
                talent[i, TALENT_TYPES.index(t)] += 1
        elif kind == "points":
            a["points"][i] = _nat(c, "points", f, where, 1, 1000)
        else:
            if cid not in CHARACTERS:
                raise _fail(f, f"special character '{cid}' is unknown", f"the characters are {', '.join(CHARACTERS)}")
            a["char"][i] = CHARACTERS.index(cid)
    green_pr = int(((a["season"] == 0) & (a["kind"] == PR)).sum())
    if green_pr < 5:
        raise _fail(f, f"only {green_pr} green performance requests", "a 5-player setup needs 5 (CT-SETUP-9)")
    char_counter = np.full(N_CHARS, -1, dtype=np.int64)
    for i, ch in enumerate(a["char"]):
        if ch >= 0:
            char_counter[ch] = i
    return dict(ids=ids, bonus=bonus, talent=talent, char_counter=char_counter, **a)


def _calendar(raw: dict, f: Path, n_dest: int) -> dict:
    months = _list(raw, "months", f)
    if [m.get("id") if isinstance(m, dict) else None for m in months] != list(MONTHS):
        raise _fail(f, "months must be april..september in order", "keep the six months and change their fields")
    out = {k: np.zeros(N_MONTHS, dtype=np.int64) for k in ("weeks", "season", "quota", "price", "bag", "event")}
    for j, m in enumerate(months):
        where = f"month '{MONTHS[j]}'"
        out["weeks"][j] = _nat(m, "weeks", f, where, 1, 10)
        season = _get(m, "season", str, f, where)
        if season not in SEASONS:
            raise _fail(f, f"{where} has season '{season}'", f"use one of {', '.join(SEASONS)}")
        out["season"][j] = SEASONS.index(season)
        out["quota"][j] = _nat(m, "city_quota", f, where, 1, n_dest)
        out["price"][j] = _nat(m, "special_hire_price", f, where, 0, 1000)
        out["bag"][j] = int(_get(m, "bag_change_after", bool, f, where))
        out["event"][j] = int(_get(m, "event_card_after", bool, f, where))
    seasons = _list(raw, "seasons", f)
    money = np.zeros(3, dtype=np.int64)
    for s in seasons:
        sid = _get(s, "id", str, f, "seasons[]")
        if sid not in SEASONS:
            raise _fail(f, f"season '{sid}' is unknown", f"use {', '.join(SEASONS)}")
        money[SEASONS.index(sid)] = _nat(s, "performance_money", f, f"season '{sid}'", 0, 1000)
    week_month = np.repeat(np.arange(N_MONTHS, dtype=np.int64), out["weeks"])
    week_last = np.zeros(len(week_month), dtype=np.int64)
    week_last[np.cumsum(out["weeks"]) - 1] = 1
    return dict(week_month=week_month, week_last=week_last, money=money, **out)


def _reputation(raw: dict, f: Path) -> dict:
    levels = _list(raw, "levels", f)
    succ = np.array([_nat(x, "success_max", f, f"levels[{i}]", 1, 6) for i, x in enumerate(levels)], dtype=np.int64)
    start = _nat(raw, "start_index", f, "the file", 0, len(levels) - 1)
    money = _nat(raw, "most_money_min_success_max", f, "the file", 1, 6)
    return dict(success=succ, meta=np.array([start, money, len(levels) - 1], dtype=np.int64))


def _cards(raw: dict, f: Path, dest_ids: list[str], index: dict) -> dict:
    got = {}
    for i, c in enumerate(_list(raw, "action_cards", f)):
        cid = _get(c, "id", str, f, f"action_cards[{i}]")
        if cid not in CARDS or cid in got:
            raise _fail(f, f"action_cards[{i}] id '{cid}' is unknown or repeated",
                        f"use each of {', '.join(CARDS)} once")
        got[cid] = c
    if len(got) != N_CARDS:
        raise _fail(f, f"action cards {[c for c in CARDS if c not in got]} are missing", "list all 8 action cards")
    copies = np.zeros(N_CARDS, dtype=np.int64)
    move = np.zeros(N_CARDS, dtype=np.int64)
    minp = np.ones(N_CARDS, dtype=np.int64)
    adv = np.zeros(N_CARDS, dtype=np.int64)
    for j, cid in enumerate(CARDS):
        c = got[cid]
        copies[j] = _nat(c, "copies", f, f"card '{cid}'", 0, 5)
        move[j] = 1 if cid == "basic_transit" else _nat(c, "move_max", f, f"card '{cid}'", 0, 26)
        if "min_players" in c:
            minp[j] = _nat(c, "min_players", f, f"card '{cid}'", 1, 5)
        adv[j] = int(bool(c.get("advanced_only", False)))
    dests = _list(raw, "destination_cards", f)
    if sorted(dests) != sorted(dest_ids):
        raise _fail(f, "destination_cards differ from the map's destination cities",
                    "list exactly the cities with destination_card: true in map.json")
    events = _events(raw, f)
    return dict(copies=copies, move=move, minp=minp, adv=adv, dest=np.array([index[d] for d in dests], np.int64),
                events=events)


def _events(raw: dict, f: Path) -> dict:
    """Event cards: each names an effect from EFFECTS and its parameters (CT-OPT-EVENT-3)."""
    items = raw.get("event_cards", [])
    if not isinstance(items, list):
        raise _fail(f, "event_cards is not a list", "give a list of event cards")
    n = len(items)
    a = {k: np.zeros(n, dtype=np.int64) for k in ("effect", "month", "value", "minp")}
    a["card"] = np.full(n, -1, dtype=np.int64)
    types = np.zeros((n, N_TYPES), dtype=np.int64)
    for i, e in enumerate(items):
        eid = _get(e, "id", str, f, f"event_cards[{i}]")
        where = f"event card '{eid}'"
        effect = _get(e, "effect", str, f, where)
        if effect not in EFFECTS:
            raise _fail(f, f"{where} has effect '{effect}'", f"use one of {', '.join(EFFECTS)}")
        timing = _get(e, "timing", str, f, where)
        if timing not in ("month", "immediate"):
            raise _fail(f, f"{where} has timing '{timing}'", "use 'month' or 'immediate'")
        a["effect"][i] = EFFECTS.index(effect)
        a["month"][i] = int(timing == "month")
        a["minp"][i] = _nat(e, "min_players", f, where, 1, 5)
        params = _get(e, "params", dict, f, where)
        pw = f"{where} params"
        for t in params.get("types", [params["type"]] if "type" in params else []):
            if t not in TALENT_TYPES:
                raise _fail(f, f"{pw} name the talent type '{t}'", f"use types {', '.join(TALENT_TYPES)}")
            types[i, TALENT_TYPES.index(t)] = 1
        key = {"wage_modifier": "delta", "performance_level_modifier": "delta", "performance_money_modifier": "delta",
               "movement_cap": "max", "hire_success_modifier": "delta", "money_to_fewest": "amount",
               "vp_to_most": "vp", "catchup_steal_roll": "success_max"}.get(effect)
        if key is not None:
            a["value"][i] = _nat(params, key, f, pw, -100, 100)
        if effect == "movement_cap":
            card = _get(params, "card", str, f, pw)
            if card not in CARDS:
                raise _fail(f, f"{pw} name the card '{card}'", f"use one of {', '.join(CARDS)}")
            a["card"][i] = CARDS.index(card)
        if effect in ("wage_modifier", "each_player_gains_talent") and not types[i].any():
            raise _fail(f, f"{pw} name no talent type", "add 'types' (or 'type')")
    deck = raw.get("event_deck_in_play", 5)
    if not isinstance(deck, int) or isinstance(deck, bool) or not 0 <= deck <= n:
        raise _fail(f, f"event_deck_in_play is {deck!r}", f"give a count between 0 and {n}")
    return dict(items=items, types=types, deck=np.array([deck], dtype=np.int64), **a)


def asks_packed(bonus: np.ndarray) -> np.ndarray:
    """Per counter, byte t is 1 when it asks for type t (a bonus above 0): summing a board's words counts the
    requests asking for each type at once (engine.count_asked), as long as a byte stays below 256."""
    return ((bonus > 0).astype(np.int64) << (8 * np.arange(bonus.shape[1], dtype=np.int64))).sum(axis=1)


def _stand_ins(raws: dict[str, dict], counters: dict) -> tuple[str, ...]:
    """Every value in use that its file labels a designed stand-in (reports must name them)."""
    out = []
    stand = [cid for cid, c in zip(counters["ids"], raws["counters.json"]["counters"])
             if "stand-in" in str(c.get("provenance", ""))]
    if stand:
        out.append(f"counters.json: {len(stand)} designed stand-in counters ({', '.join(stand)})")
    for name in ("map.json", "talent.json", "calendar.json", "reputation.json", "cards.json"):
        src = raws[name].get("source", {})
        parts = src.items() if isinstance(src, dict) else [("source", src)]
        for key, val in parts:
            if "stand-in" in json.dumps(val):
                out.append(f"{name}: {key} ({val if isinstance(val, str) else 'see its source field'})")
    return tuple(out)


def stand_ins_in_use(data: CircusData, advanced: bool, event_cards: bool) -> tuple[str, ...]:
    """The stand-ins a run depends on: the reputation column only in the advanced game, the Event cards only with
    the optional rule."""
    skip = ([] if advanced else ["reputation.json"]) + ([] if event_cards else ["cards.json: event_cards"])
    return tuple(s for s in data.stand_ins if not any(s.startswith(k) for k in skip))


@functools.lru_cache(maxsize=8)
def load_data(path: str | None = None) -> CircusData:
    """The packaged component files, or a designer's directory ``path`` (files it lacks come from the package)."""
    paths = {name: PACKAGED / name for name in FILES}
    if path:
        d = Path(path)
        if not d.is_dir():
            raise PlaytestError(f"circus_train data directory '{path}' does not exist; "
                                f"pass a directory holding any of {', '.join(FILES)}")
        extra = sorted(p.name for p in d.glob("*.json") if p.name not in FILES)
        if extra:
            raise PlaytestError(f"circus_train data directory '{path}': unknown file {extra[0]}; "
                                f"the component files are {', '.join(FILES)}")
        own = {name: d / name for name in FILES if (d / name).is_file()}
        if not own:
            raise PlaytestError(f"circus_train data directory '{path}' holds none of {', '.join(FILES)}; "
                                "put the files to replace there")
        paths.update(own)
    raws = {name: _read(p) for name, p in paths.items()}
    for name, raw in raws.items():
        if "source" not in raw:
            raise _fail(paths[name], "lacks the field 'source'",
                        "say where the values come from (or 'designed stand-in')")
    m = _map(raws["map.json"], paths["map.json"])
    dest_ids = [c for c, flag in zip(m["ids"], m["is_dest"]) if flag]
    t = _talent(raws["talent.json"], paths["talent.json"])
    c = _counters(raws["counters.json"], paths["counters.json"])
    cal = _calendar(raws["calendar.json"], paths["calendar.json"], len(dest_ids))
    rep = _reputation(raws["reputation.json"], paths["reputation.json"])
    cards = _cards(raws["cards.json"], paths["cards.json"], dest_ids, m["index"])
    ev = cards["events"]
    out = CircusData(
        adj=m["adj"], deg=m["deg"], dist=m["dist"], is_start=m["is_start"], is_dest=m["is_dest"],
        dest_city=cards["dest"], wage=t["wage"], talent_count=t["count"], is_animal=t["animal"],
        setup_choice=t["choice"], ctr_season=c["season"], ctr_kind=c["kind"], ctr_base=c["base"],
        ctr_two_week=c["two_week"], ctr_bonus=c["bonus"], ctr_asks=asks_packed(c["bonus"]), ctr_talent=c["talent"],
        ctr_points=c["points"],
        ctr_char=c["char"], char_counter=c["char_counter"], card_copies=cards["copies"], card_move_max=cards["move"],
        card_min_players=cards["minp"], card_advanced=cards["adv"], month_weeks=cal["weeks"],
        month_season=cal["season"], month_quota=cal["quota"], month_price=cal["price"],
        month_bag_change=cal["bag"], month_event=cal["event"], week_month=cal["week_month"], week_last=cal["week_last"],
        season_money=cal["money"], rep_success=rep["success"], rep_meta=rep["meta"],
        ev_effect=ev["effect"], ev_month=ev["month"], ev_types=ev["types"], ev_value=ev["value"], ev_card=ev["card"],
        ev_min_players=ev["minp"], ev_deck_size=ev["deck"],
    )
    out.city_ids = tuple(m["ids"])
    out.city_names = tuple(m["names"])
    out.counter_ids = tuple(c["ids"])
    out.event_cards = tuple(ev["items"])
    out.stand_ins = _stand_ins(raws, c)
    out.sources = {name: raw["source"] for name, raw in raws.items()}
    out.files = {name: str(p) for name, p in paths.items()}
    return out
