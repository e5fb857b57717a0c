"""The 7 Wonders + Babel component loader: packaged data compiled to arrays, a designer's directory, stand-ins,
and one clear PlaytestError line per malformed file or field."""

import json

import numpy as np
import pytest
from numba import njit

from sim.core.errors import PlaytestError
from sim.core.names import namespace
from sim.seven_wonders.data import (COL, PACKAGED_DIR, PENALTY, RAW_MASK, RES, REWARD, SCI_ANY, SPECIAL, TILE_KIND,
                                    TR, load_data)
from sim.seven_wonders import SPEC
from sim.seven_wonders.rules import MAX_VICTORY, R, Rules
from sim.seven_wonders.position import card, wonder

D = load_data()


def test_namespace_is_a_compile_time_constant_inside_njit():
    """sim.core.names: a NamedTuple of ints read as a global inside @njit."""
    NS = namespace("NS", ["a", "b", "c"])

    @njit
    def pick(x):
        return x[NS.c] + NS.b

    assert (NS.a, NS.b, NS.c) == (0, 1, 2)
    assert pick(np.array([5, 6, 7])) == 8


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_age_decks_hold_seven_cards_per_player(n):
    """SW-SETUP-2: copies by player-count threshold give 7 N cards per Age (Age III: N + 2 guilds added)."""
    guild = D.card_color == COL.purple
    for age in (1, 2, 3):
        size = D.card_copies[(D.card_age == age) & ~guild, n].sum() + (n + 2 if age == 3 else 0)
        assert size == 7 * n
    assert guild.sum() == 10


def test_cards_compile_costs_production_chains_and_effects():
    """SW-COST-1, SW-RES-1 / SW-RES-2 / SW-RES-3, SW-CHAIN-1 / SW-CHAIN-2, SW-TRADE-3, SW-COM-1 / SW-COM-2, SW-GUILD-1
    encodings of named cards."""
    pal = card("Palace")
    assert D.card_cost_res[pal].tolist() == [1] * 7 and D.card_cost_units[pal] == 7
    assert D.card_cost_coins[card("Clay Pit")] == 1
    assert D.card_choice[card("Clay Pit")] == (1 << RES.ore) | (1 << RES.clay) and D.card_sellable[card("Clay Pit")]
    assert D.card_choice[card("Caravansery")] == RAW_MASK and not D.card_sellable[card("Caravansery")]
    assert D.card_prod[card("Sawmill"), RES.wood] == 2
    forum = card("Forum")
    assert {D.name_list[x] for x in D.card_chain[forum] if x >= 0} == {"East Trading Post", "West Trading Post"}
    assert D.card_name[card("Loom", 1)] == D.card_name[card("Loom", 2)]  # SW-ACT-4: one name
    links = sum(int((D.card_chain[c] >= 0).sum()) for c in range(len(D.card_names)))
    assert links == 26  # SW-CHAIN-2 (Forum's two predecessors count as two links)
    assert D.card_discount[card("West Trading Post")] == RAW_MASK
    assert D.card_discount[card("East Trading Post")] == RAW_MASK << 7
    assert D.card_science[card("Scientists Guild")] == SCI_ANY
    lh = card("Lighthouse")
    assert D.card_pe_colors[lh] == 1 << COL.yellow and D.card_pe_coins[lh] == 1 and D.card_pe_vp[lh] == 1


def test_wonders_compile_both_sides_and_every_stage_effect():
    """SW-WONDER-1..6: stage counts (Gizah B 4, Rhodos B 2), specials, wild science, discounts, shields."""
    g, r, o, h, b, a = (wonder(x) for x in ("Gizah", "Rhodos", "Olympia", "Halikarnassus", "Babylon", "Alexandria"))
    assert D.wonder_n_stages[g].tolist() == [3, 4] and D.wonder_n_stages[r].tolist() == [3, 2]
    assert D.stage_special[o, 0, 1] == SPECIAL.free_build_once_per_age
    assert D.stage_special[o, 1, 2] == SPECIAL.copy_neighbor_guild
    assert D.stage_discount[o, 1, 0] == RAW_MASK | (RAW_MASK << 7)
    assert [D.stage_special[h, 1, j] for j in range(3)] == [SPECIAL.build_from_discard] * 3
    assert D.stage_vp[h, 1, 0] == 2 and D.stage_special[h, 0, 1] == SPECIAL.build_from_discard
    assert D.stage_special[b, 1, 1] == SPECIAL.play_seventh_card and D.stage_science[b, 0, 1] == SCI_ANY
    assert (D.stage_coins[r, 1, 0], D.stage_shields[r, 1, 0], D.stage_vp[r, 1, 0]) == (3, 1, 3)
    assert D.stage_choice[a, 1, 1] == 0b1110000 and D.wonder_res[a] == RES.glass


def test_babel_tiles_compile_every_effect():
    """BABEL-TILE-1..24, BABEL-SETUP-1, BABEL-SCORE-1: the tile table as the kernels read it."""
    assert [D.tile_trigger[t - 1] for t in (1, 6, 13, 16)] == [1 << TR.red_structure, 1 << TR.blue_structure,
                                                               1 << TR.chain_build, 1 << TR.wonder_stage]
    assert all(D.tile_literal_trigger[t - 1] == (1 << TR.structure) | (1 << TR.wonder_stage) for t in (1, 6, 13, 16))
    assert D.tile_kind[1] == TILE_KIND.ignore_resource_cost and D.tile_trigger[1] == 1 << TR.red_structure
    assert D.tile_kind[14] == TILE_KIND.ignore_resource_cost and D.tile_trigger[14] == 1 << TR.wonder_stage
    assert D.tile_cards[2].sum() == 10 and D.tile_cards[3].sum() == 5 and D.tile_cards[19].sum() == 4
    assert [D.tile_delta[t - 1] for t in (9, 10, 11, 12)] == [-1, 1, -1, 1]
    assert D.tile_vmap[18].tolist() == [0, 0, 2, 1, 4, 3] + list(range(6, MAX_VICTORY + 1))  # 6+ kept as they are
    assert D.tile_defeat_count[21] == 2
    assert D.tile_amount[23] == 5 and D.tile_amount[7] == 1
    assert D.babel_slots[3:8].tolist() == [3, 3, 4, 4, 4] and D.babel_vp.tolist() == [0, 2, 5, 10]


def test_great_projects_compile_costs_rewards_penalties():
    """BABEL-GP-1 / BABEL-GP-13 / BABEL-GP-14, SW-DEC-25: 5 projects per Age, N - 1 tokens, River Port's two costs."""
    assert np.bincount(D.gp_age)[1:].tolist() == [5, 5, 5]
    assert D.gp_tokens[3:8].tolist() == [2, 3, 4, 5, 6]
    rp = D.project_names.index("River Port")
    assert (D.gp_cost_coins[rp], D.gp_alt_coins[rp], D.gp_cost_res[rp, RES.loom]) == (2, 1, 1)
    wm = D.project_names.index("War Mirror")
    assert D.gp_reward[wm] == REWARD.victory_token and D.gp_reward_value[wm] == 3
    ta = D.project_names.index("Triumphal Arches")
    assert D.gp_penalty[ta] == PENALTY.lose_victory_token and D.gp_penalty_count[ta] == 2
    assert D.gp_penalty_color[D.project_names.index("Factory")] == COL.grey
    assert D.gp_defeat.tolist() == [0, -1, -2, -3]


def test_stand_ins_name_every_value_not_from_the_rulebook():
    """Reports must name the values resting on the secondary source: the loader lists them."""
    assert "babel_tiles.json tile 1 trigger: secondary source" in D.stand_ins
    assert any(s.startswith("great_projects.json River Port participation coins") for s in D.stand_ins)
    assert not any("tile 3 " in s for s in D.stand_ins)  # tile 3 is fully from the rulebook


def test_data_handle_is_usable_inside_njit():
    @njit
    def total_vp(d):
        return d.card_vp.sum() + d.stage_vp.sum()

    assert total_vp(D) == int(D.card_vp.sum() + D.stage_vp.sum())


def test_rules_array_follows_the_namespace():
    """Rules.to_array is indexed by R; SPEC.validate names the bad field."""
    arr = Rules(river_port_coins=1, babel_tower=False).to_array()
    assert arr[R.river_port_coins] == 1 and arr[R.babel_tower] == 0 and arr[R.start_coins] == 3
    with pytest.raises(PlaytestError, match="trade_price"):
        SPEC.validate(Rules(trade_price=-1), 4)
    with pytest.raises(PlaytestError, match="discount_price"):
        SPEC.validate(Rules(trade_price=1, discount_price=2), 4)
    SPEC.validate(Rules(), 2)  # two players play with the Free City (SW-2P-1)
    with pytest.raises(PlaytestError, match="2 to 7"):
        SPEC.validate(Rules(), 1)


# ------------------------------------------------------------------------ designer directories, bad files

def _copy(tmp_path, edit=None, name="cards.json"):
    d = tmp_path / "sw"
    d.mkdir()
    doc = json.loads((PACKAGED_DIR / name).read_text())
    if edit:
        edit(doc)
    (d / name).write_text(json.dumps(doc))
    return d


def test_designer_directory_replaces_only_the_files_it_holds(tmp_path):
    def cheaper(doc):
        doc["projects"][5]["participation_cost"]["coins"] = 0
    d = _copy(tmp_path, cheaper, "great_projects.json")
    data = load_data(d)
    assert data.gp_cost_coins[5] == 0 and data.files[3].startswith(str(d))
    assert data.files[0] == str(PACKAGED_DIR / "cards.json")


@pytest.mark.parametrize("name, edit, message", [
    ("cards.json", lambda d: d["cards"][0]["cost"]["resources"].update(woood=1), "'woood' must be one of wood"),
    ("cards.json", lambda d: d["cards"][0].pop("age"), r"cards\[0\] \(Clay Pit\).age is missing"),
    ("cards.json", lambda d: d["cards"][3].update(copies_added_at_players=[3]), "Age 1 deck of"),
    ("cards.json", lambda d: d["cards"][40].update(chain_from=["Nowhere"]), "'Nowhere' names no card"),
    ("wonders.json", lambda d: d["wonders"][0]["sides"]["A"]["stages"][0].update(stage=2), "must be 1"),
    ("wonders.json", lambda d: d["wonders"].pop(), "7 players need at least 7"),
    ("babel_tiles.json", lambda d: d["tiles"][8]["effect"].update(min_price=-1), "BABEL-TRADE-1"),
    ("babel_tiles.json", lambda d: d["tiles"][2]["effect"]["cards"].append("Sawmil"), "'Sawmil' names no card"),
    ("babel_tiles.json", lambda d: d["tiles"].pop(), "has 23 entries"),
    ("great_projects.json", lambda d: d["projects"][0].update(color="grey"), "no project is grey"),
    ("great_projects.json", lambda d: d["projects"][0]["reward_per_participation_token"].update(type="gold"),
     "reward.type = 'gold'"),
    ("great_projects.json", lambda d: d["projects"][0]["status"].update(cost="guess"), "status.cost"),
])
def test_malformed_files_give_one_line_naming_file_field_and_fix(tmp_path, name, edit, message):
    d = _copy(tmp_path, edit, name)
    with pytest.raises(PlaytestError, match=message) as info:
        load_data(d)
    text = str(info.value)
    assert "\n" not in text and name in text and "drop --set data=" in text


def test_unreadable_json_and_missing_directory(tmp_path):
    d = tmp_path / "sw"
    d.mkdir()
    (d / "wonders.json").write_text("{not json")
    with pytest.raises(PlaytestError, match="wonders.json.*not readable JSON"):
        load_data(d)
    with pytest.raises(PlaytestError, match="does not exist"):
        load_data(tmp_path / "nowhere")
