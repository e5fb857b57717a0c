"""Validating loader for the 7 Wonders + Babel component files: JSON -> integer arrays for the kernels.

Four files: ``cards.json`` (Age I-III structures and guilds), ``wonders.json`` (7 boards, sides A and B),
``babel_tiles.json`` (the 24 Tower of Babel tiles) and ``great_projects.json`` (15 Great Projects). The packaged
copies live in ``sim/seven_wonders/data/``; ``load_data(DIR)`` reads a designer's directory instead, taking any
of the four files missing there from the packaged set. Every malformed file or field raises one PlaytestError
line naming the file, the field and the fix.

Encodings the kernels read (namespaces below): resources as indices 0..6 (RES) and bit masks over them;
colours 0..6 (COL); trade discounts as a 14-bit mask, bit ``side * 7 + resource`` (side 0 = left, 1 = right);
tile triggers as TR_* bits; a tile or project amount of AGE means "the current Age value".
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.names import namespace
from sim.core.structs import struct_handle
from sim.seven_wonders.rules import MAX_VICTORY  # token values 0..MAX_VICTORY index the tile-19 map

PACKAGED_DIR = Path(__file__).with_name("data")
FILES = ("cards.json", "wonders.json", "babel_tiles.json", "great_projects.json")

RESOURCES = ("wood", "stone", "clay", "ore", "glass", "papyrus", "loom")
RES = namespace("Res", RESOURCES)
N_RES = len(RESOURCES)
RAW_MASK = 0b0001111  # SW-RES-1: wood, stone, clay, ore
MAN_MASK = 0b1110000  # glass, papyrus, loom
COLORS = ("brown", "grey", "blue", "yellow", "red", "green", "purple")
COL = namespace("Col", COLORS)
SCIENCE = ("compass", "gear", "tablet")
SCI_ANY = 3  # a wild science symbol (SW-SCI-2)
SIDES = ("left", "right")

PE = namespace("PerElement", ["none", "cards", "wonder_stages", "defeat_tokens"])
SCOPE_SELF, SCOPE_LEFT, SCOPE_RIGHT = 1, 2, 4
SPECIAL = namespace("Special", ["none", "free_build_once_per_age", "build_from_discard", "play_seventh_card",
                                "copy_neighbor_guild"])

TILE_KIND = namespace("TileKind", ["tax_on_build", "ignore_resource_cost", "disable_production", "disable_effects",
                                   "bonus_coins_on_build", "chain_from_neighbors", "coins_instead_of_resources",
                                   "trade_price_delta", "free_resource_per_turn", "victory_token_map",
                                   "defeat_token_multiplier", "unlimited_production"])
TRIGGERS = ("red_structure", "blue_structure", "purple_structure", "chain_build", "wonder_stage", "structure")
TR = namespace("Trigger", TRIGGERS)  # bit i of a trigger mask = TRIGGERS[i]
APPLIES_TO = {"red_structures": "red_structure", "blue_structures": "blue_structure",
              "purple_structures": "purple_structure", "wonder_stages": "wonder_stage"}
AGE = -1  # an amount equal to the current Age value (1/2/3)

REWARD = namespace("Reward", ["coins", "shield_token", "victory_token", "wild_participation_token",
                              "free_build_token", "free_wonder_stage_token", "science_set_token", "guild_vp_token",
                              "wonder_vp_token"])
PENALTY = namespace("Penalty", ["lose_card", "lose_all_coins", "lose_victory_token", "lose_board_resource"])

MAX_PLAYERS = 8
MAX_STAGES = 4
MAX_CHAIN = 2
N_TILES = 24


class Data(NamedTuple):
    """The static card/board handle the kernels read: integer arrays only."""

    card_age: np.ndarray  # (n_cards,) 1..3
    card_color: np.ndarray  # (n_cards,) COL
    card_name: np.ndarray  # (n_cards,) name id: the Age I and II Loom share one (SW-ACT-4)
    card_copies: np.ndarray  # (n_cards, MAX_PLAYERS + 1) copies in an N-player deck; guilds 1 (SW-SETUP-2)
    card_cost_coins: np.ndarray  # (n_cards,)
    card_cost_res: np.ndarray  # (n_cards, N_RES)
    card_cost_units: np.ndarray  # (n_cards,) resource symbols in the cost (BABEL-TILE-8 / BABEL-TILE-23)
    card_chain: np.ndarray  # (n_cards, MAX_CHAIN) predecessor name ids, -1 padded (SW-CHAIN-1)
    card_prod: np.ndarray  # (n_cards, N_RES) fixed units produced (SW-RES-1 / SW-RES-2)
    card_choice: np.ndarray  # (n_cards,) resource mask of a one-of choice, 0 if none (SW-RES-2)
    card_sellable: np.ndarray  # (n_cards,) 1 if neighbours may buy its output (SW-RES-3)
    card_vp: np.ndarray  # (n_cards,)
    card_coins: np.ndarray  # (n_cards,) immediate coins (Tavern)
    card_shields: np.ndarray  # (n_cards,)
    card_science: np.ndarray  # (n_cards,) -1 none, 0..2 symbol, SCI_ANY wild
    card_discount: np.ndarray  # (n_cards,) 14-bit (side, resource) mask of 1-coin purchases (SW-TRADE-3)
    card_pe_kind: np.ndarray  # (n_cards,) PE: what a per-element effect counts
    card_pe_colors: np.ndarray  # (n_cards,) colour mask counted
    card_pe_scope: np.ndarray  # (n_cards,) SCOPE_* bits
    card_pe_coins: np.ndarray  # (n_cards,) coins per element, when built (SW-COM-1 / SW-COM-2)
    card_pe_vp: np.ndarray  # (n_cards,) VP per element at game end (SW-COM-2, SW-GUILD-1)
    card_next: np.ndarray  # (n_cards,) cards naming this card's name as a chain predecessor (strategy feature)
    card_output: np.ndarray  # (n_cards,) 1 if the card adds to a production view: units, a choice or a discount
    wonder_res: np.ndarray  # (n_wonders,) starting resource (SW-RES-1)
    wonder_n_stages: np.ndarray  # (n_wonders, 2) stages on sides A, B (SW-WONDER-1)
    stage_cost_coins: np.ndarray  # (n_wonders, 2, MAX_STAGES)
    stage_cost_res: np.ndarray  # (n_wonders, 2, MAX_STAGES, N_RES)
    stage_vp: np.ndarray  # (n_wonders, 2, MAX_STAGES)
    stage_coins: np.ndarray  # (n_wonders, 2, MAX_STAGES)
    stage_shields: np.ndarray  # (n_wonders, 2, MAX_STAGES)
    stage_science: np.ndarray  # (n_wonders, 2, MAX_STAGES) -1 or SCI_ANY
    stage_choice: np.ndarray  # (n_wonders, 2, MAX_STAGES) resource mask, owner only
    stage_discount: np.ndarray  # (n_wonders, 2, MAX_STAGES) like card_discount
    stage_special: np.ndarray  # (n_wonders, 2, MAX_STAGES) SPECIAL
    tile_kind: np.ndarray  # (N_TILES,) TILE_KIND
    tile_trigger: np.ndarray  # (N_TILES,) TR bits of the default effect
    tile_literal_trigger: np.ndarray  # (N_TILES,) TR bits under tax_tiles_literal (0 when none, SW-DEC-14)
    tile_amount: np.ndarray  # (N_TILES,) coins (AGE = Age value) or coins per resource symbol
    tile_res: np.ndarray  # (N_TILES,) resource mask (trade delta, free resource)
    tile_delta: np.ndarray  # (N_TILES,) price change per unit
    tile_vmap: np.ndarray  # (N_TILES, MAX_VICTORY + 1) Victory token value -> value taken (identity if none)
    tile_defeat_count: np.ndarray  # (N_TILES,) -1 Defeat tokens taken per token due (1 if none)
    tile_cards: np.ndarray  # (N_TILES, n_cards) 1 for the cards a tile names
    babel_slots: np.ndarray  # (MAX_PLAYERS + 1,) active slots per player count (BABEL-SETUP-1)
    babel_vp: np.ndarray  # (4,) VP for 0..3 tiles built (BABEL-SCORE-1)
    gp_age: np.ndarray  # (n_projects,)
    gp_color: np.ndarray  # (n_projects,) COL
    gp_cost_coins: np.ndarray  # (n_projects,)
    gp_cost_res: np.ndarray  # (n_projects, N_RES)
    gp_alt_coins: np.ndarray  # (n_projects,) coins of the alternative cost, -1 if none (SW-DEC-25)
    gp_reward: np.ndarray  # (n_projects,) REWARD
    gp_reward_value: np.ndarray  # (n_projects,) coins, shields, Victory value or VP per element
    gp_penalty: np.ndarray  # (n_projects,) PENALTY
    gp_penalty_color: np.ndarray  # (n_projects,) COL for lose_card, else -1
    gp_penalty_count: np.ndarray  # (n_projects,) Victory tokens lost (lose_victory_token)
    gp_tokens: np.ndarray  # (MAX_PLAYERS + 1,) participation tokens per player count (BABEL-GP-1)
    gp_defeat: np.ndarray  # (4,) Defeat token value (negative) for an unbearable penalty, by Age (BABEL-GP-11)


class LoadedData(Data):
    """A Data handle plus Python-only names for reports and replays (ignored by the kernels)."""

    card_names: tuple[str, ...]
    name_list: tuple[str, ...]  # name id -> name
    wonder_names: tuple[str, ...]
    tile_labels: tuple[str, ...]
    project_names: tuple[str, ...]
    stand_ins: tuple[str, ...]  # every value in use that is not from the rulebook or the verified base data
    files: tuple[str, ...]  # the four files read


class _File:
    """One JSON file under validation: every failure is one PlaytestError line naming file, field and fix."""

    def __init__(self, path: Path, custom: bool):
        self.path = path
        self.fix = "fix the file" + (" or drop --set data= to use the packaged data" if custom else "")
        try:
            self.doc = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise self.fail("file", f"is not readable JSON ({exc})") from None
        if not isinstance(self.doc, dict):
            raise self.fail("top level", "must be a JSON object")

    def fail(self, field: str, problem: str) -> PlaytestError:
        return PlaytestError(f"seven_wonders data '{self.path}': {field} {problem}; {self.fix}")

    def get(self, obj: Any, key: str, typ: type | tuple, where: str) -> Any:
        """``obj[key]`` checked for type (bool never passes as int)."""
        if not isinstance(obj, dict) or key not in obj:
            raise self.fail(f"{where}.{key}", "is missing")
        value = obj[key]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            name = typ.__name__ if isinstance(typ, type) else "/".join(t.__name__ for t in typ)
            raise self.fail(f"{where}.{key}", f"must be a {name}, got {value!r}")
        return value

    def count(self, obj: Any, key: str, where: str, low: int = 0, high: int = 99) -> int:
        value = self.get(obj, key, int, where)
        if not low <= value <= high:
            raise self.fail(f"{where}.{key}", f"= {value} must be between {low} and {high}")
        return value

    def choice(self, value: Any, allowed: tuple | dict, where: str) -> Any:
        if value not in allowed:
            raise self.fail(where, f"= {value!r} must be one of {', '.join(map(str, allowed))}")
        return value

    def resource(self, value: Any, where: str) -> int:
        return RESOURCES.index(self.choice(value, RESOURCES, where))

    def res_mask(self, values: Any, where: str) -> int:
        if isinstance(values, str) and values in ("raw", "manufactured"):
            return RAW_MASK if values == "raw" else MAN_MASK
        if not isinstance(values, list) or not values:
            raise self.fail(where, "must be a non-empty list of resources (or 'raw' / 'manufactured')")
        mask = 0
        for k, v in enumerate(values):
            mask |= 1 << self.resource(v, f"{where}[{k}]")
        return mask

    def cost(self, obj: Any, where: str) -> tuple[int, list[int]]:
        """A cost object {coins, resources: {name: units}} -> (coins, units per resource)."""
        cost = self.get(obj, "cost" if "cost" in obj else "participation_cost", dict, where)
        coins = self.count(cost, "coins", f"{where}.cost", 0, 20)
        res = self.get(cost, "resources", dict, f"{where}.cost")
        units = [0] * N_RES
        for name, n in res.items():
            r = self.resource(name, f"{where}.cost.resources")
            units[r] = self.count(res, name, f"{where}.cost.resources", 1, 9)
        return coins, units


def _z(*shape: int, fill: int = 0) -> np.ndarray:
    return np.full(shape, fill, dtype=np.int64)


def _discount_mask(f: _File, eff: dict, where: str) -> int:
    """SW-TRADE-3: a trade_discount effect -> (side, resource) bits; only the 1-coin price exists in the base game."""
    mask = f.res_mask(f.get(eff, "resources", list, where), f"{where}.resources")
    sides = f.get(eff, "neighbors", list, where)
    if f.get(eff, "price", int, where) != 1:
        raise f.fail(f"{where}.price", "must be 1 (the base game's only discounted price)")
    bits = 0
    for k, s in enumerate(sides):
        side = SIDES.index(f.choice(s, SIDES, f"{where}.neighbors[{k}]"))
        bits |= mask << (7 * side)
    return bits


class _Effects:
    """Columns filled from a list of effect objects (cards and Wonder stages share the effect vocabulary)."""

    def __init__(self, n: int, shape: tuple = ()):
        self.shape = (n, *shape)
        names = ("vp", "coins", "shields", "choice", "sellable", "discount", "pe_kind", "pe_colors", "pe_scope",
                 "pe_coins", "pe_vp", "special")
        for name in names:
            setattr(self, name, _z(*self.shape))
        self.science = _z(*self.shape, fill=-1)
        self.prod = _z(*self.shape, N_RES)

    def fill(self, f: _File, idx: tuple, effects: Any, where: str, allowed: tuple) -> None:
        if not isinstance(effects, list):
            raise f.fail(f"{where}.effects", "must be a list")
        for k, eff in enumerate(effects):
            w = f"{where}.effects[{k}]"
            kind = f.choice(f.get(eff, "type", str, w), allowed, f"{w}.type")
            if kind == "vp":
                self.vp[idx] += f.count(eff, "amount", w, 0, 20)
            elif kind == "coins":
                self.coins[idx] += f.count(eff, "amount", w, 0, 20)
            elif kind == "shields":
                self.shields[idx] += f.count(eff, "amount", w, 0, 10)
            elif kind == "science":
                sym = f.choice(f.get(eff, "symbol", str, w), (*SCIENCE, "any"), f"{w}.symbol")
                self.science[idx] = SCI_ANY if sym == "any" else SCIENCE.index(sym)
            elif kind == "produce":
                r = f.resource(f.get(eff, "resource", str, w), f"{w}.resource")
                self.prod[idx + (r,)] += f.count(eff, "amount", w, 1, 9)
                self.sellable[idx] = int(f.get(eff, "sellable", bool, w))
            elif kind == "produce_choice":
                self.choice[idx] = f.res_mask(f.get(eff, "options", list, w), f"{w}.options")
                self.sellable[idx] = int(f.get(eff, "sellable", bool, w))
            elif kind == "trade_discount":
                self.discount[idx] |= _discount_mask(f, eff, w)
            elif kind == "per_element":
                self._per_element(f, idx, eff, w)
            elif kind == "special":
                if self.special[idx]:
                    raise f.fail(w, "is a second special action on one stage; one per stage is supported")
                action = f.choice(f.get(eff, "action", str, w), SPECIAL._fields[1:], f"{w}.action")
                self.special[idx] = SPECIAL._fields.index(action)

    def _per_element(self, f: _File, idx: tuple, eff: dict, w: str) -> None:
        count = f.choice(f.get(eff, "count", str, w), PE._fields[1:], f"{w}.count")
        self.pe_kind[idx] = PE._fields.index(count)
        scope = 0
        for k, s in enumerate(f.get(eff, "scope", list, w)):
            scope |= {"self": SCOPE_SELF, "left": SCOPE_LEFT, "right": SCOPE_RIGHT}[
                f.choice(s, ("self", "left", "right"), f"{w}.scope[{k}]")]
        self.pe_scope[idx] = scope
        if count == "cards":
            for k, c in enumerate(f.get(eff, "colors", list, w)):
                self.pe_colors[idx] |= 1 << COLORS.index(f.choice(c, COLORS, f"{w}.colors[{k}]"))
        self.pe_coins[idx] = f.count(eff, "coins_each_immediate", w, 0, 9) if "coins_each_immediate" in eff else 0
        self.pe_vp[idx] = f.count(eff, "vp_each_end_of_game", w, 0, 9) if "vp_each_end_of_game" in eff else 0


CARD_EFFECTS = ("vp", "coins", "shields", "science", "produce", "produce_choice", "trade_discount", "per_element")
STAGE_EFFECTS = ("vp", "coins", "shields", "science", "produce", "produce_choice", "trade_discount", "special")


def _cards(f: _File) -> dict:
    """cards.json -> card arrays (SW-SETUP-2, SW-COST-1, SW-CHAIN-1 / SW-CHAIN-2, SW-RES, SW-COM, SW-GUILD)."""
    items = f.get(f.doc, "cards", list, "top level") + f.get(f.doc, "guilds", list, "top level")
    n = len(items)
    if n == 0:
        raise f.fail("cards", "is empty")
    names: list[str] = []
    card_names: list[str] = []
    for k, c in enumerate(items):
        name = f.get(c, "name", str, f"cards[{k}]")
        card_names.append(name)
        if name not in names:
            names.append(name)
    out = {key: _z(n) for key in ("card_age", "card_color", "card_name", "card_cost_coins", "card_cost_units")}
    out["card_copies"] = _z(n, MAX_PLAYERS + 1)
    out["card_cost_res"] = _z(n, N_RES)
    out["card_chain"] = _z(n, MAX_CHAIN, fill=-1)
    eff = _Effects(n)
    n_regular = len(f.doc["cards"])
    for k, c in enumerate(items):
        w = f"{'cards' if k < n_regular else 'guilds'}[{k if k < n_regular else k - n_regular}] ({card_names[k]})"
        out["card_age"][k] = f.count(c, "age", w, 1, 3)
        color = f.choice(f.get(c, "color", str, w), COLORS, f"{w}.color")
        out["card_color"][k] = COLORS.index(color)
        if (k >= n_regular) != (color == "purple"):
            raise f.fail(f"{w}.color", "must be purple exactly for the entries of 'guilds'")
        out["card_name"][k] = names.index(card_names[k])
        coins, units = f.cost(c, w)
        out["card_cost_coins"][k] = coins
        out["card_cost_res"][k] = units
        out["card_cost_units"][k] = sum(units)
        chain = f.get(c, "chain_from", list, w)
        if len(chain) > MAX_CHAIN:
            raise f.fail(f"{w}.chain_from", f"lists {len(chain)} predecessors; at most {MAX_CHAIN} are supported")
        for j, pred in enumerate(chain):
            if pred not in names:
                raise f.fail(f"{w}.chain_from[{j}]", f"= {pred!r} names no card in the file")
            out["card_chain"][k, j] = names.index(pred)
        if k < n_regular:
            thresholds = f.get(c, "copies_added_at_players", list, w)
            for j, t in enumerate(thresholds):
                if not isinstance(t, int) or isinstance(t, bool) or not 3 <= t <= MAX_PLAYERS:
                    raise f.fail(f"{w}.copies_added_at_players[{j}]", f"= {t!r} must be a player count 3..8")
            for p in range(MAX_PLAYERS + 1):
                out["card_copies"][k, p] = sum(1 for t in thresholds if t <= p)
        else:
            out["card_copies"][k, :] = 1
        eff.fill(f, (k,), c.get("effects"), w, CARD_EFFECTS)
    _check_decks(f, out)
    out.update(card_prod=eff.prod, card_choice=eff.choice, card_sellable=eff.sellable, card_vp=eff.vp,
               card_coins=eff.coins, card_shields=eff.shields, card_science=eff.science, card_discount=eff.discount,
               card_pe_kind=eff.pe_kind, card_pe_colors=eff.pe_colors, card_pe_scope=eff.pe_scope,
               card_pe_coins=eff.pe_coins, card_pe_vp=eff.pe_vp)
    return {"arrays": out, "card_names": tuple(card_names), "name_list": tuple(names)}


def _check_decks(f: _File, out: dict) -> None:
    """SW-SETUP-2: each Age deck must hold exactly 7 N cards for N = 3..7 (Age III: N + 2 guilds added)."""
    guild = out["card_color"] == COLORS.index("purple")
    if guild.sum() < MAX_PLAYERS + 1:
        raise f.fail("guilds", f"has {int(guild.sum())} entries; N + 2 guilds for 7 players need at least 9")
    for p in range(3, 8):
        for age in (1, 2, 3):
            in_age = (out["card_age"] == age) & ~guild
            size = int(out["card_copies"][in_age, p].sum()) + (p + 2 if age == 3 else 0)
            if size != 7 * p:
                raise f.fail("cards", f"give an Age {age} deck of {size} cards at {p} players; it must be {7 * p} "
                                      "(check copies_added_at_players)")


def _wonders(f: _File) -> dict:
    """wonders.json -> board arrays (SW-WONDER-1 / SW-WONDER-2, SW-RES-1)."""
    items = f.get(f.doc, "wonders", list, "top level")
    n = len(items)
    if n < 7:
        raise f.fail("wonders", f"has {n} boards; 7 players need at least 7")
    res = _z(n)
    n_stages = _z(n, 2)
    coins = _z(n, 2, MAX_STAGES)
    cost = _z(n, 2, MAX_STAGES, N_RES)
    eff = _Effects(n, (2, MAX_STAGES))
    names = []
    for k, wdr in enumerate(items):
        w = f"wonders[{k}]"
        names.append(f.get(wdr, "name", str, w))
        sides = f.get(wdr, "sides", dict, w)
        for s, side_name in enumerate("AB"):
            sd = f.get(sides, side_name, dict, f"{w}.sides")
            ws = f"{w}.sides.{side_name}"
            r = f.resource(f.get(sd, "starting_resource", str, ws), f"{ws}.starting_resource")
            if s == 1 and r != res[k]:
                raise f.fail(f"{ws}.starting_resource", "must equal side A's (one board, one resource)")
            res[k] = r
            stages = f.get(sd, "stages", list, ws)
            if not 1 <= len(stages) <= MAX_STAGES:
                raise f.fail(f"{ws}.stages", f"has {len(stages)} stages; 1 to {MAX_STAGES} are supported")
            n_stages[k, s] = len(stages)
            for j, st in enumerate(stages):
                wj = f"{ws}.stages[{j}]"
                if f.get(st, "stage", int, wj) != j + 1:
                    raise f.fail(f"{wj}.stage", f"must be {j + 1} (stages are listed in printed order)")
                coins[k, s, j], cost[k, s, j] = f.cost(st, wj)
                eff.fill(f, (k, s, j), st.get("effects"), wj, STAGE_EFFECTS)
                if eff.science[k, s, j] not in (-1, SCI_ANY):
                    raise f.fail(f"{wj}.effects", "may only give the wild science symbol 'any'")
                if eff.sellable[k, s, j]:
                    raise f.fail(f"{wj}.effects", "gives sellable production; stage production is not sellable "
                                                  "(SW-RES-3)")
    if eff.prod.any():
        raise f.fail("wonders", "a stage produces fixed units; only produce_choice is supported on stages")
    arrays = dict(wonder_res=res, wonder_n_stages=n_stages, stage_cost_coins=coins, stage_cost_res=cost,
                  stage_vp=eff.vp, stage_coins=eff.coins, stage_shields=eff.shields, stage_science=eff.science,
                  stage_choice=eff.choice, stage_discount=eff.discount, stage_special=eff.special)
    return {"arrays": arrays, "wonder_names": tuple(names)}


def _by_players(f: _File, obj: Any, where: str, low: int, high: int) -> np.ndarray:
    """A {"N": value} table for N = 3..7 (2 and 8 optional) -> array indexed by N."""
    if not isinstance(obj, dict):
        raise f.fail(where, "must be an object keyed by player count")
    out = _z(MAX_PLAYERS + 1)
    for p in range(2, MAX_PLAYERS + 1):
        if str(p) in obj:
            out[p] = f.count(obj, str(p), where, low, high)
        elif 3 <= p <= 7:
            raise f.fail(f"{where}.{p}", "is missing (3 to 7 players are played)")
    return out


def _amount(f: _File, eff: dict, where: str) -> int:
    value = eff.get("amount")
    if value == "age":
        return AGE
    return f.count(eff, "amount", where, 0, 20)


def _trigger_mask(f: _File, values: Any, where: str) -> int:
    if not isinstance(values, list) or not values:
        raise f.fail(where, f"must be a non-empty list of triggers ({', '.join(TRIGGERS)})")
    mask = 0
    for k, v in enumerate(values):
        mask |= 1 << TRIGGERS.index(f.choice(v, TRIGGERS, f"{where}[{k}]"))
    return mask


def _tiles(f: _File, name_list: tuple[str, ...], card_name: np.ndarray) -> dict:
    """babel_tiles.json -> tile arrays (BABEL-SETUP-1, BABEL-TILE-1..24, BABEL-SCORE-1)."""
    items = f.get(f.doc, "tiles", list, "top level")
    if len(items) != N_TILES:
        raise f.fail("tiles", f"has {len(items)} entries; the Tower of Babel has {N_TILES}")
    n_cards = card_name.shape[0]
    a = {key: _z(N_TILES) for key in ("tile_kind", "tile_trigger", "tile_literal_trigger", "tile_amount",
                                      "tile_res", "tile_delta")}
    a["tile_defeat_count"] = _z(N_TILES, fill=1)
    a["tile_vmap"] = np.tile(np.arange(MAX_VICTORY + 1, dtype=np.int64), (N_TILES, 1))
    a["tile_cards"] = _z(N_TILES, n_cards)
    labels: list[str] = [""] * N_TILES
    stand_ins: list[str] = []
    for k, t in enumerate(items):
        w = f"tiles[{k}]"
        num = f.count(t, "number", w, 1, N_TILES)
        if num != k + 1:
            raise f.fail(f"{w}.number", f"= {num} must be {k + 1} (tiles are listed 1..24 in order)")
        i = num - 1
        labels[i] = f.get(t, "label", str, w)
        eff = f.get(t, "effect", dict, w)
        we = f"{w}.effect"
        kind = f.choice(f.get(eff, "type", str, we), TILE_KIND._fields, f"{we}.type")
        a["tile_kind"][i] = TILE_KIND._fields.index(kind)
        if kind == "tax_on_build":
            a["tile_amount"][i] = _amount(f, eff, we)
            a["tile_trigger"][i] = _trigger_mask(f, eff.get("triggers"), f"{we}.triggers")
            lit = f.get(t, "literal_reading_effect", dict, w)
            a["tile_literal_trigger"][i] = _trigger_mask(f, lit.get("triggers"), f"{w}.literal_reading_effect.triggers")
        elif kind in ("ignore_resource_cost", "coins_instead_of_resources"):
            target = f.choice(f.get(eff, "applies_to", str, we), APPLIES_TO, f"{we}.applies_to")
            a["tile_trigger"][i] = 1 << TRIGGERS.index(APPLIES_TO[target])
            if kind == "coins_instead_of_resources":
                a["tile_amount"][i] = f.count(eff, "coins_per_resource", we, 0, 9)
        elif kind == "bonus_coins_on_build":
            a["tile_amount"][i] = _amount(f, eff, we)
            a["tile_trigger"][i] = _trigger_mask(f, [eff.get("trigger")], f"{we}.trigger")
        elif kind in ("disable_production", "disable_effects", "unlimited_production"):
            for j, cname in enumerate(f.get(eff, "cards", list, we)):
                if cname not in name_list:
                    raise f.fail(f"{we}.cards[{j}]", f"= {cname!r} names no card of cards.json")
                a["tile_cards"][i] |= (card_name == name_list.index(cname)).astype(np.int64)
        elif kind == "trade_price_delta":
            a["tile_res"][i] = f.res_mask(eff.get("resources"), f"{we}.resources")
            a["tile_delta"][i] = f.count(eff, "delta", we, -5, 5)
            if f.get(eff, "min_price", int, we) != 0:
                raise f.fail(f"{we}.min_price", "must be 0 (BABEL-TRADE-1)")
        elif kind == "free_resource_per_turn":
            a["tile_res"][i] = f.res_mask(f.get(eff, "options", list, we), f"{we}.options")
            if f.count(eff, "amount", we, 1, 1) != 1 or f.get(eff, "sellable", bool, we):
                raise f.fail(we, "must give one unsellable unit per turn")
        elif kind == "victory_token_map":
            vmap = f.get(eff, "map", dict, we)
            for src, dst in vmap.items():
                if not (src.isdigit() and 1 <= int(src) <= MAX_VICTORY and isinstance(dst, int)
                        and 0 <= dst <= int(src)):
                    raise f.fail(f"{we}.map.{src}", f"= {dst!r}: maps a token 1..{MAX_VICTORY} to a value 0..itself")
                a["tile_vmap"][i, int(src)] = dst
        elif kind == "defeat_token_multiplier":
            if f.get(eff, "token_value", int, we) != -1:
                raise f.fail(f"{we}.token_value", "must be -1 (BABEL-TILE-22 doubles -1 tokens)")
            a["tile_defeat_count"][i] = f.count(eff, "count", we, 1, 5)
        status = f.get(t, "status", dict, w)
        for field, value in status.items():
            f.choice(value, ("from rulebook", "secondary source", "designed stand-in"), f"{w}.status.{field}")
            if value != "from rulebook":
                stand_ins.append(f"babel_tiles.json tile {num} {field}: {value}")
    a["babel_slots"] = _by_players(f, f.get(f.doc, "board_slots", dict, "top level"), "board_slots", 1, 8)
    vp = f.get(f.doc, "end_scoring_vp_by_tiles_built", dict, "top level")
    a["babel_vp"] = np.array([f.count(vp, str(k), "end_scoring_vp_by_tiles_built", 0, 50) for k in range(4)],
                             dtype=np.int64)
    return {"arrays": a, "tile_labels": tuple(labels), "stand_ins": stand_ins}


REWARD_VALUE_KEY = {"coins": "value", "shield_token": "value", "victory_token": "value",
                    "science_set_token": "vp_per_set_of_3_different_symbols",
                    "guild_vp_token": "vp_per_guild_self_and_neighbors", "wonder_vp_token": "vp_per_own_wonder_stage"}


def _projects(f: _File) -> dict:
    """great_projects.json -> project arrays (BABEL-GP-1..16, SW-DEC-25)."""
    items = f.get(f.doc, "projects", list, "top level")
    n = len(items)
    a = {key: _z(n) for key in ("gp_age", "gp_color", "gp_cost_coins", "gp_reward", "gp_reward_value",
                                "gp_penalty", "gp_penalty_count")}
    a["gp_cost_res"] = _z(n, N_RES)
    a["gp_alt_coins"] = _z(n, fill=-1)
    a["gp_penalty_color"] = _z(n, fill=-1)
    names: list[str] = []
    stand_ins: list[str] = []
    for k, g in enumerate(items):
        w = f"projects[{k}]"
        names.append(f.get(g, "name", str, w))
        a["gp_age"][k] = f.count(g, "age", w, 1, 3)
        color = f.choice(f.get(g, "color", str, w), COLORS, f"{w}.color")
        if color == "grey":
            raise f.fail(f"{w}.color", "= 'grey': no project is grey (participation needs brown, blue, red, "
                                       "yellow, green or purple)")
        a["gp_color"][k] = COLORS.index(color)
        a["gp_cost_coins"][k], a["gp_cost_res"][k] = f.cost(g, w)
        if "participation_cost_alternative" in g:
            alt = f.get(g, "participation_cost_alternative", dict, w)
            a["gp_alt_coins"][k] = f.count(alt, "coins", f"{w}.participation_cost_alternative", 0, 20)
            stand_ins.append(f"great_projects.json {names[-1]} participation coins: {a['gp_cost_coins'][k]} "
                             f"(rulebook example) vs {a['gp_alt_coins'][k]} (secondary source), river_port_coins")
        rw = f.get(g, "reward_per_participation_token", dict, w)
        kind = f.choice(f.get(rw, "type", str, f"{w}.reward"), REWARD._fields, f"{w}.reward.type")
        a["gp_reward"][k] = REWARD._fields.index(kind)
        if kind in REWARD_VALUE_KEY:
            high = MAX_VICTORY if kind == "victory_token" else 30  # a token's value indexes st.victory
            a["gp_reward_value"][k] = f.count(rw, REWARD_VALUE_KEY[kind], f"{w}.reward", 1, high)
        pn = f.get(g, "penalty_if_failed", dict, w)
        kind = f.choice(f.get(pn, "type", str, f"{w}.penalty"), PENALTY._fields, f"{w}.penalty.type")
        a["gp_penalty"][k] = PENALTY._fields.index(kind)
        if kind == "lose_card":
            a["gp_penalty_color"][k] = COLORS.index(f.choice(f.get(pn, "color", str, f"{w}.penalty"), COLORS,
                                                             f"{w}.penalty.color"))
        if kind == "lose_victory_token":
            a["gp_penalty_count"][k] = f.count(pn, "count", f"{w}.penalty", 1, 5) if "count" in pn else 1
        status = f.get(g, "status", dict, w)
        for field, value in status.items():
            f.choice(value, ("from rulebook", "secondary source", "designed stand-in"), f"{w}.status.{field}")
            if value != "from rulebook":
                stand_ins.append(f"great_projects.json {names[-1]} {field}: {value}")
    for age in (1, 2, 3):
        if not (a["gp_age"] == age).any():
            raise f.fail("projects", f"has no Age {age} project; BABEL-GP-1 reveals one per Age")
    a["gp_tokens"] = _by_players(f, f.get(f.doc, "participation_tokens_by_players", dict, "top level"),
                                 "participation_tokens_by_players", 1, 10)
    dv = f.get(f.doc, "defeat_token_value_for_unpayable_penalty", dict, "top level")
    a["gp_defeat"] = _z(4)
    for age in (1, 2, 3):
        a["gp_defeat"][age] = f.count(dv, str(age), "defeat_token_value_for_unpayable_penalty", -9, -1)
    return {"arrays": a, "project_names": tuple(names), "stand_ins": stand_ins}


def _paths(path: str | Path | None) -> tuple[list[Path], bool]:
    if path is None or str(path) == "":
        return [PACKAGED_DIR / name for name in FILES], False
    d = Path(path)
    if not d.is_dir():
        raise PlaytestError(f"seven_wonders data directory '{d}' does not exist; pass a directory holding any of "
                            f"{', '.join(FILES)} with --set data=DIR")
    if not any((d / name).is_file() for name in FILES):
        raise PlaytestError(f"seven_wonders data directory '{d}' holds none of {', '.join(FILES)}; put the files you "
                            "changed there, or drop --set data= to play the packaged data")
    return [d / name if (d / name).exists() else PACKAGED_DIR / name for name in FILES], True


@functools.lru_cache(maxsize=8)
def _load(path: str) -> LoadedData:
    paths, custom = _paths(path)
    cf, wf, tf, gf = (_File(p, custom and p.parent != PACKAGED_DIR) for p in paths)
    cards = _cards(cf)
    wonders = _wonders(wf)
    tiles = _tiles(tf, cards["name_list"], cards["arrays"]["card_name"])
    projects = _projects(gf)
    arrays = {**cards["arrays"], **wonders["arrays"], **tiles["arrays"], **projects["arrays"]}
    chain = arrays["card_chain"]
    arrays["card_next"] = np.array([(chain == arrays["card_name"][c]).sum() for c in range(chain.shape[0])],
                                   dtype=np.int64)
    arrays["card_output"] = ((arrays["card_prod"].sum(axis=1) > 0) | (arrays["card_choice"] != 0)
                             | (arrays["card_discount"] != 0)).astype(np.int64)
    data = LoadedData(**{name: arrays[name] for name in Data._fields})
    data.card_names = cards["card_names"]
    data.name_list = cards["name_list"]
    data.wonder_names = wonders["wonder_names"]
    data.tile_labels = tiles["tile_labels"]
    data.project_names = projects["project_names"]
    data.stand_ins = tuple(tiles["stand_ins"] + projects["stand_ins"])
    data.files = tuple(str(p) for p in paths)
    return data


def load_data(path: str | Path | None = None) -> LoadedData:
    """The packaged data (``path`` None or ""), else a designer's directory (missing files packaged); cached."""
    return _load("" if path is None else str(path))


_wrap = struct_handle(Data, "SevenWondersDataRef")
NAMES = ("card_names", "name_list", "wonder_names", "tile_labels", "project_names", "stand_ins", "files")


@functools.lru_cache(maxsize=8)
def kernel_data(path: str | Path | None = None):
    """The loaded data as one kernel handle (a tuple of 55 arrays costs a reference count each per call; a borrowed
    handle costs nothing), with the Python-only names attached for replays, reports and tests."""
    loaded = load_data(path)
    handle = _wrap(Data(*loaded))
    if isinstance(handle, tuple):
        return loaded  # without JIT the handle is the tuple itself: the loaded one carries the names
    for name in NAMES:
        setattr(handle, name, getattr(loaded, name))
    return handle
