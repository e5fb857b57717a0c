"""Rules variants: every rulebook number is a declared dataclass field (``sim.core.fields``); from the declarations
come the field checks, ``--set FIELD=VALUE`` parsing, the kernel array and its ``R`` namespace, and sweep values.

A game's Rules class subclasses ``RulesFields`` and declares each field with ``field(...)``; its cross-field
checks (and those that need the player count or the data) are its GameSpec's ``check_rules``. The one validation
route is ``GameSpec.validate``: players, then fields, then data, then the game's cross-field checks.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.fields import FieldSpec, declared
from sim.core.names import namespace


class RulesFields:
    """Base of a game's frozen Rules dataclass: the kernel view of its declared fields."""

    def to_array(self, n_players: int = 0) -> np.ndarray:
        """The int64 array the kernels read, indexed by the game's ``R`` (``kernel_namespace``)."""
        return kernel_array(self, n_players)

    def seat_units_per_point(self) -> float | None:
        """Units of the game's seat-compensation fields (``seatK_*``) worth one point of final score, or None when
        the rulebook gives no exchange rate; the compensation section turns a points handicap into a setting by it."""
        return None

    def seat_fractions(self) -> dict[str, float]:
        """Seat-compensation rows worth a fixed part of a point, by field suffix (a bool ``seatK_<suffix>`` per
        seat beside the ``seatK_*`` row in the game's currency), e.g. a tie priority worth half a point; none here."""
        return {}

    def seat_step(self) -> float:
        """The finest seat compensation the rules carry, in points: the smallest fractional row, else 1."""
        return min([1.0, *self.seat_fractions().values()])


def field_specs(rules: Any) -> dict[str, FieldSpec]:
    """Name -> declaration of every field of a Rules object or class."""
    return {f.name: f for f in declared(rules if isinstance(rules, type) else type(rules))}


def check_fields(rules: Any, game: str) -> None:
    """Raise PlaytestError (one line: field, value, allowed values, rule, fix) for the first field out of bounds."""
    for spec in declared(type(rules)):
        why = spec.problem(getattr(rules, spec.name))
        if why is not None:
            raise PlaytestError(f"{game} rules: {why}; use --set {spec.name}=VALUE with {spec.allowed}")


def require(game: str, checks: Iterable[tuple[bool, str]]) -> None:
    """A game's cross-field checks: raise PlaytestError with the first failing (ok, message) pair's message."""
    for ok, msg in checks:
        if not ok:
            raise PlaytestError(f"{game} rules: {msg}; fix the --set value")


def kernel_namespace(rules_type: type) -> Any:
    """The ``R`` namespace: kernel slot name -> index into ``to_array`` (a compile-time constant in @njit)."""
    return namespace("R", [s.kernel for s in declared(rules_type) if s.kernel is not None])


def kernel_array(rules: Any, n_players: int) -> np.ndarray:
    """The kernel slots of ``rules`` as int64, in ``R`` order (bools 0/1, choices as indices, floats scaled)."""
    values = [s.kernel_value(rules, n_players) for s in declared(type(rules)) if s.kernel is not None]
    return np.array(values, dtype=np.int64)


def sweep_values(rules_type: type) -> dict[str, tuple[Any, ...]]:
    """Field -> the values a sweep or a rules search tries by default (fields with a single value are left out)."""
    out = {s.name: s.sweep_values() for s in declared(rules_type)}
    return {name: values for name, values in out.items() if len(values) > 1}


def apply_overrides(rules: Any, assignments: Iterable[str], game: str) -> Any:
    """Return ``rules`` with each ``FIELD=VALUE`` applied, parsed and bounded by the field's declaration."""
    specs = field_specs(rules)
    changes: dict[str, Any] = {}
    for item in assignments:
        if "=" not in item:
            raise PlaytestError(f"--set '{item}' is not FIELD=VALUE; write e.g. --set {next(iter(specs))}=VALUE")
        name, value = item.split("=", 1)
        name = name.strip()
        if name not in specs:
            raise PlaytestError(f"--set {name}: unknown rules field for {game}; fields are {', '.join(specs)}")
        changes[name] = specs[name].parse(value)
    return dataclasses.replace(rules, **changes)


def rules_dict(rules: Any) -> dict[str, Any]:
    """All fields of a Rules object, for the manifest."""
    return dataclasses.asdict(rules)
