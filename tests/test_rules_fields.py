"""Self-describing Rules fields (sim.core.fields): declarations the core derives validation, --set parsing, the
kernel array, the R namespace and sweep values from; every game's fields declared and checked by one route."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from sim.core.errors import PlaytestError
from sim.core.fields import declared, field
from sim.core.rules import RulesFields, apply_overrides, check_fields, kernel_namespace, sweep_values
from sim.core.spec import games

GAMES = sorted(games())


def _seats(x: int) -> int:
    return 7 if x == 1 else -1


@dataclass(frozen=True)
class Toy(RulesFields):
    gems: int = field(5, ge=1, le=20, rule="TOY-1", doc="gems on the clock")
    share: float = field(0.75, ge=0.0, le=1.0, scale=1000, rule="TOY-2", doc="a fraction")
    open_board: bool = field(True, rule="TOY-3", doc="an open board")
    mode: str = field("b", choices=("a", "b", "c"), rule="TOY-4", doc="a mode")
    seats: str = field("", rule="TOY-5", doc="seats as text", kernel="seat_mask", encode=lambda r, n: n * 10)
    board: str = field("", rule="TOY-6", doc="a path")


def test_the_kernel_array_maps_each_type_explicitly():
    """Ints as they are, bools 0/1, a choice as its index, a float scaled (never truncated), an encoded str under its
    own slot name; a path is not in the array."""
    R = kernel_namespace(Toy)
    assert R._fields == ("gems", "share", "open_board", "mode", "seat_mask")
    arr = Toy(share=0.4375, mode="c").to_array(3)
    assert arr.dtype == np.int64
    assert arr[R.gems] == 5 and arr[R.share] == 438 and arr[R.open_board] == 1 and arr[R.mode] == 2
    assert arr[R.seat_mask] == 30


def test_a_declaration_the_core_cannot_derive_from_is_refused():
    """A float in the array without scale, a number without bounds, a default outside its bounds, an undeclared
    field: each fails when the class is first used, naming the field."""
    @dataclass(frozen=True)
    class NoScale(RulesFields):
        x: float = field(0.5, ge=0.0, le=1.0, rule="T", doc="d")

    @dataclass(frozen=True)
    class NoBounds(RulesFields):
        x: int = field(3, rule="T", doc="d")

    @dataclass(frozen=True)
    class BadDefault(RulesFields):
        x: int = field(30, ge=0, le=20, rule="T", doc="d")

    @dataclass(frozen=True)
    class Undeclared(RulesFields):
        x: int = 3

    for cls, words in ((NoScale, "scale"), (NoBounds, "ge and le"), (BadDefault, "default 30"),
                       (Undeclared, "declare it with")):
        with pytest.raises(TypeError, match=words):
            declared(cls)


@pytest.mark.parametrize("text, words", [
    ("gems=21", "gems=21 is outside 1..20 (TOY-1: gems on the clock)"),
    ("gems=" + "9" * 30, "is outside 1..20"),
    ("gems=lots", "'lots' is not a valid int; give 1..20"),
    ("gems=2.5", "is not a valid int"),
    ("share=nan", "share=nan is outside 0..1"),
    ("share=inf", "is outside 0..1"),
    ("open_board=maybe", "is not a valid bool; give true or false"),
    ("mode=d", "mode='d' is not one of a, b, c (TOY-4"),
    ("colour=3", "unknown rules field for toy"),
    ("gems", "is not FIELD=VALUE"),
])
def test_set_refuses_a_bad_value_in_one_line_naming_field_value_range_and_rule(text, words):
    with pytest.raises(PlaytestError) as exc:
        apply_overrides(Toy(), [text], "toy")
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_set_parses_each_type():
    rules = apply_overrides(Toy(), ["gems=20", "share=0.1", "open_board=off", "mode=a", "board=/x y"], "toy")
    assert (rules.gems, rules.share, rules.open_board, rules.mode, rules.board) == (20, 0.1, False, "a", "/x y")


def test_sweep_values_span_the_bounds_and_keep_the_default():
    values = sweep_values(Toy)
    assert values["gems"] == (1, 5, 6, 10, 15, 20)  # 1, 5.75, 10.5, 15.25, 20 rounded, and the default
    assert values["share"] == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert values["open_board"] == (False, True) and values["mode"] == ("a", "b", "c")
    assert "board" not in values and "seats" not in values


@pytest.mark.parametrize("game", GAMES)
def test_every_field_of_every_game_is_declared_and_its_sweep_values_parse(game):
    """Each field has a type, bounds or choices, a rule ID and a doc; each default sweep value round-trips through
    --set and passes the field checks; the defaults pass the whole route for every player count."""
    spec = games()[game]
    for f in declared(spec.rules_type):
        assert f.rule and f.doc
        for v in f.sweep_values():
            text = str(v).lower() if isinstance(v, bool) else str(v)
            rules = apply_overrides(spec.rules_type(), [f"{f.name}={text}"], game)
            assert getattr(rules, f.name) == v
            check_fields(rules, game)
    for n in range(spec.min_players, spec.max_players + 1):
        spec.validate(spec.rules_type(), n)


@pytest.mark.parametrize("game", GAMES)
def test_one_route_refuses_a_field_out_of_bounds(game):
    """GameSpec.validate checks every declared bound (a Rules built in code, not only --set)."""
    spec = games()[game]
    f = next(f for f in declared(spec.rules_type) if f.type is int)
    with pytest.raises(PlaytestError, match=f"{f.name}={int(f.le) + 1} is outside"):
        spec.validate(spec.rules_type(**{f.name: int(f.le) + 1}), spec.min_players)


def test_seven_wonders_victory_tokens_are_bounded_by_the_state_array():
    """SW-MIL-2: the Victory fields' bound is the constant that sizes the token array (no second number)."""
    from sim.seven_wonders.rules import MAX_VICTORY, Rules
    from sim.seven_wonders.state import allocate
    from sim.seven_wonders.data import kernel_data

    bounds = {f.name: f.le for f in declared(Rules) if f.name.startswith("victory_age")}
    assert bounds == {f"victory_age{a}": MAX_VICTORY for a in (1, 2, 3)}
    assert allocate(Rules(), 4, kernel_data()).victory.shape[1] == MAX_VICTORY + 1


def test_circus_train_fill_start_is_bounded_by_the_first_quota():
    """CT-SETUP-10 / CT-STATE-3: fill_start above the first month's quota is refused (it broke the invariant)."""
    from sim.circus_train import SPEC
    from sim.circus_train.rules import Rules

    with pytest.raises(PlaytestError, match="fill_start=9 is outside 0..8"):
        SPEC.validate(Rules(fill_start=9), 3)
    with pytest.raises(PlaytestError, match="steal_max"):
        SPEC.validate(Rules(steal_max=3, steal_character_extra=True), 3)
    SPEC.validate(Rules(fill_start=0, steal_max=3), 3)


def test_playtest_rules_lists_each_field_with_its_range_and_rule(capsys):
    from sim.cli import main

    assert main(["rules", "bus"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("clock_gems_45p"))
    assert "5" in line and "1..20" in line and "BUS-SETUP-3" in line
