"""Circus Train component data (CT-COMP-*): the packaged files load, and each kind of malformation in a designer's
directory gives one clear PlaytestError line naming the file and the field."""

import json
import shutil

import numpy as np
import pytest
from numba import njit

from sim.circus_train.data import (BASIC, CLOWN, ELEPHANT, OVERNIGHT_HIRE, PACKAGED, PR, REST, TALENT_TYPES,
                                   load_data, stand_ins_in_use)
from sim.circus_train import SPEC
from sim.circus_train.rules import R, Rules
from sim.core.errors import PlaytestError
from sim.core.names import namespace


def test_ct_comp_packaged_data_counts():
    """CT-COMP-1, CT-COMP-2, CT-COMP-3, CT-COMP-5, CT-COMP-6: 27 cities (3 start, 24 destination), 30 lines, diameter
    10; 9 action cards per player;
    87 Local News counters with 6 characters; 66 talent counters in 7 types; 27 weeks."""
    d = load_data()
    assert d.deg.shape == (27,) and d.deg.sum() == 60 and d.dist.max() == 10
    assert d.is_start.sum() == 3 and d.is_dest.sum() == 24 and d.dest_city.shape == (24,)
    assert d.card_copies.sum() == 9 and d.card_copies[BASIC] == 2
    assert d.card_min_players[OVERNIGHT_HIRE] == 3 and d.card_advanced[REST] == 1
    assert d.ctr_kind.shape == (87,) and (d.char_counter >= 0).all()
    assert d.talent_count.sum() == 66 and d.wage[CLOWN] == 1 and d.wage[ELEPHANT] == 12
    assert d.week_month.shape == (27,) and d.season_money.tolist() == [5, 10, 20]
    assert sorted(d.city_names[i] for i in np.flatnonzero(d.is_start)) == ["Montreal", "Toronto", "Winnipeg"]


def test_ct_comp_5_richmond_counter_and_sources():
    """CT-COMP-5 / CT-PERF-9: counter G21 carries the Richmond example's values; every file names its source."""
    d = load_data()
    g21 = d.counter_ids.index("G21")
    assert d.ctr_kind[g21] == PR and d.ctr_base[g21] == 2
    assert {TALENT_TYPES[t]: int(v) for t, v in enumerate(d.ctr_bonus[g21]) if v} == {
        "acrobat": 5, "human_cannonball": 3}
    assert set(d.sources) == {"map.json", "counters.json", "talent.json", "calendar.json", "reputation.json",
                              "cards.json"}


def test_ct_amb_36_stand_ins_listed():
    """CT-AMB-34, CT-AMB-35, CT-AMB-36: the stand-ins are listed (20 counters, the talent split, the 2nd-edition
    reputation column,
    the event cards); a run names only those it uses (the column in the advanced game, the events with the rule)."""
    d = load_data()
    text = "\n".join(d.stand_ins)
    assert "20 designed stand-in counters" in text and "G21" in text
    assert "talent.json" in text and "reputation.json" in text and "cards.json" in text
    basic = "\n".join(stand_ins_in_use(d, advanced=False, event_cards=False))
    assert "counters.json" in basic and "reputation.json" not in basic and "event_cards" not in basic
    full = stand_ins_in_use(d, advanced=True, event_cards=True)
    assert full == d.stand_ins


@pytest.fixture
def designer(tmp_path):
    """A designer's directory holding a copy of counters.json and talent.json to break."""
    for name in ("counters.json", "talent.json"):
        shutil.copy(PACKAGED / name, tmp_path / name)
    return tmp_path


def _edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_designer_directory_replaces_only_its_files(designer):
    """--set data=DIR: a file in DIR replaces the packaged one (here the talent split), the rest stay packaged."""
    def uniform(t):
        for x in t["types"]:
            x["count"] = 9
        t["source"] = {"counts": "designer's own count"}
    _edit(designer / "talent.json", uniform)
    d = load_data(str(designer))
    assert d.talent_count.tolist() == [9] * 7
    assert d.files["map.json"].startswith(str(PACKAGED)) and d.files["talent.json"] == str(designer / "talent.json")
    assert not any(s.startswith("talent.json") for s in d.stand_ins)


def _one_line(exc):
    msg = str(exc.value)
    assert "\n" not in msg and "circus_train data" in msg
    return msg


@pytest.mark.parametrize("change, words", [
    (lambda c: c["counters"][0].update(kind="clown_car"), ["counters.json", "G01", "kind"]),
    (lambda c: c["counters"][0].update(season="blue"), ["G01", "season 'blue'"]),
    (lambda c: c["counters"][0].update(base="two"), ["G01", "'base'", "not a int"]),
    (lambda c: c["counters"][0]["bonus"].update(tiger=3), ["G01", "bonus 'tiger'"]),
    (lambda c: c["counters"][1].update(id="G01"), ["repeats the id 'G01'"]),
    (lambda c: c["counters"][0].pop("two_week"), ["G01", "lacks the field 'two_week'"]),
    (lambda c: c.pop("source"), ["lacks the field 'source'"]),
])
def test_malformed_counters_one_line(designer, change, words):
    """Each malformed counter field gives one line naming the file, the counter and the field."""
    _edit(designer / "counters.json", change)
    with pytest.raises(PlaytestError) as exc:
        load_data(str(designer))
    msg = _one_line(exc)
    for w in words:
        assert w in msg


def test_malformed_json_map_calendar_cards(tmp_path):
    """Unreadable JSON, a disconnected map, a bad calendar and a wrong destination list each give one line."""
    (tmp_path / "talent.json").write_text("{not json")
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "talent.json" in _one_line(exc) and "not readable JSON" in str(exc.value)
    (tmp_path / "talent.json").unlink()
    m = json.loads((PACKAGED / "map.json").read_text())
    m["edges"] = [e for e in m["edges"] if "omaha" not in e]
    (tmp_path / "map.json").write_text(json.dumps(m))
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "not connected" in _one_line(exc) and "omaha" in str(exc.value)
    (tmp_path / "map.json").unlink()
    cal = json.loads((PACKAGED / "calendar.json").read_text())
    cal["months"][2]["city_quota"] = 40
    (tmp_path / "calendar.json").write_text(json.dumps(cal))
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "month 'june'" in _one_line(exc) and "city_quota" in str(exc.value)
    (tmp_path / "calendar.json").unlink()
    cards = json.loads((PACKAGED / "cards.json").read_text())
    cards["destination_cards"] = cards["destination_cards"][:-1]
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "destination_cards" in _one_line(exc)


def test_malformed_event_card_one_line(tmp_path):
    """CT-OPT-EVENT-3 / CT-AMB-34: an Event card with an unknown effect or a bad parameter gives one line."""
    cards = json.loads((PACKAGED / "cards.json").read_text())
    cards["event_cards"][0]["effect"] = "tornado"
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "heat_wave_1" in _one_line(exc) and "effect 'tornado'" in str(exc.value)
    cards["event_cards"][0]["effect"] = "movement_cap"
    cards["event_cards"][0]["params"] = {"card": "jet_plane", "max": 3}
    (tmp_path / "cards.json").write_text(json.dumps(cards))
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "jet_plane" in _one_line(exc)


def test_bad_directory_one_line(tmp_path):
    """A missing directory, an empty one and an unknown file name each give one line with the fix."""
    for path in (tmp_path / "nope", tmp_path):
        with pytest.raises(PlaytestError) as exc:
            load_data(str(path))
        assert "map.json" in str(exc.value)
    (tmp_path / "counter.json").write_text("{}")
    with pytest.raises(PlaytestError) as exc:
        load_data(str(tmp_path))
    assert "unknown file counter.json" in str(exc.value)


def test_rules_validate_and_array():
    """Rules: one line per bad field; to_array holds every field in order, indexed by the R namespace in @njit."""
    with pytest.raises(PlaytestError, match="solo_scoring"):
        SPEC.validate(Rules(solo_scoring="cash"), 1)
    with pytest.raises(PlaytestError, match="1 to 5"):
        SPEC.validate(Rules(), 6)
    with pytest.raises(PlaytestError, match="simple_variant"):
        SPEC.validate(Rules(simple_variant=True, event_cards=True), 3)
    with pytest.raises(PlaytestError, match="hire_success_max"):
        SPEC.validate(Rules(hire_success_max=7), 3)
    arr = Rules(famous_threshold=4, solo_scoring="money_only", advanced=True).to_array()

    @njit(cache=False)
    def read(a):
        return a[R.famous_threshold] * 100 + a[R.solo_scoring] * 10 + a[R.advanced]

    assert read(arr) == 411


def test_names_namespace_in_njit():
    """sim.core.names.namespace: names -> 0..n-1, constant inside @njit."""
    N = namespace("N", ["a", "b", "c"])
    assert (N.a, N.b, N.c) == (0, 1, 2)

    @njit(cache=False)
    def pick(x):
        return x[N.c]

    assert pick(np.array([5, 6, 7])) == 7
