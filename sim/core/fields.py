"""Rules fields that describe themselves: type, bounds or choices, rule ID and doc, declared once per field.

``clock_gems_45p: int = field(5, ge=1, le=20, rule="BUS-COMP-8", doc="gems on the clock with 4-5 players")``.
The core derives everything else from the declaration (``sim.core.rules``): the one-line validation, ``--set``
parsing, the kernel array and its ``R`` namespace, and the values a sweep or a rules search tries. A declared
range is a promise: every value in it is one the engine plays correctly (checked mode, bounds-checked fuzz).

Kernel mapping is explicit: ints as they are, bools as 0/1, a str with ``choices`` as its index, a str with
``encode`` as what that function returns (its array slot may be renamed with ``kernel``), a float as
``round(value * scale)`` (a float without ``scale`` is refused: never truncated in silence). Any other str (a path)
is read in Python only.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

from sim.core.errors import PlaytestError

TYPES = {"int": int, "bool": bool, "float": float, "str": str}
SWEEP_POINTS = 5
"""Values a numeric field's default sweep spreads across its bounds (the default is added when not among them)."""
_KEY = "playtest_rules"


@dataclass(frozen=True)
class FieldSpec:
    """One declared Rules field."""

    name: str
    type: type
    default: Any
    rule: str
    doc: str
    ge: float | None = None
    le: float | None = None
    choices: tuple[str, ...] | None = None
    kernel: str | None = None
    """Its slot name in the kernel array (None: not in the array)."""
    encode: Callable[[Any, int], int] | None = None
    """(rules, n_players) -> the int the kernels read, for a str field mapped by hand."""
    scale: int | None = None
    """A float field's fixed-point factor in the kernel array."""

    @property
    def allowed(self) -> str:
        """The allowed values as a designer writes them."""
        if self.type is bool:
            return "true or false"
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        if self.ge is not None:
            return f"{_num(self.ge)}..{_num(self.le)}"
        return f"any {self.type.__name__}"

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not allowed (None if it is): the field, the value, the allowed values, the rule."""
        kind = self.type
        if kind is bool:
            ok = isinstance(value, (bool, int)) and value in (0, 1)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool) and self.ge <= value <= self.le
        elif kind is float:
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
                  and self.ge <= value <= self.le)
        else:
            ok = isinstance(value, str) and (self.choices is None or value in self.choices)
        if ok:
            return None
        verb = "is outside" if kind in (int, float) else "is not"
        return f"{self.name}={value!r} {verb} {self.allowed} ({self.rule}: {self.doc})"

    def parse(self, text: str) -> Any:
        """``--set NAME=TEXT`` -> the field's value, checked against its bounds (one line on a bad value)."""
        kind = self.type
        try:
            if kind is bool:
                low = text.strip().lower()
                if low not in _BOOLS:
                    raise ValueError(text)
                value: Any = _BOOLS[low]
            elif kind is int:
                value = int(text.strip())
            elif kind is float:
                value = float(text.strip())
            else:
                value = text.strip() if self.choices is not None else text
        except ValueError:
            raise PlaytestError(f"--set {self.name}={text}: '{text}' is not a valid {kind.__name__}; give "
                                f"{self.allowed} ({self.rule}: {self.doc})") from None
        why = self.problem(value)
        if why is not None:
            raise PlaytestError(f"--set {why}; give {self.allowed}")
        return value

    def kernel_value(self, rules: Any, n_players: int) -> int:
        """The field's slot in the kernel array."""
        value = getattr(rules, self.name)
        if self.encode is not None:
            return int(self.encode(rules, n_players))
        if self.choices is not None:
            return self.choices.index(value)
        if self.type is float:
            return int(round(value * self.scale))
        return int(value)

    def sweep_values(self, points: int = SWEEP_POINTS) -> tuple[Any, ...]:
        """Values a sweep or a rules search tries by default: both bools, every choice, or ``points`` values spread
        over the bounds plus the default (empty for a free str such as a path)."""
        if self.type is bool:
            return (False, True)
        if self.choices is not None:
            return self.choices
        if self.type is str:
            return ()
        lo, hi = self.ge, self.le
        steps = [lo + (hi - lo) * k / max(points - 1, 1) for k in range(points)]
        if self.type is int:
            steps = [int(round(x)) for x in steps]
        return tuple(sorted(set(steps) | {self.default}))


_BOOLS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def field(default: Any, *, rule: str, doc: str, ge: float | None = None, le: float | None = None,
          choices: tuple[str, ...] | None = None, kernel: str | bool = True,
          encode: Callable[[Any, int], int] | None = None, scale: int | None = None) -> Any:
    """A Rules dataclass field with its declaration (see the module docstring); ``kernel=False`` keeps a numeric
    field out of the kernel array, ``kernel="name"`` renames its slot."""
    meta = dict(rule=rule, doc=doc, ge=ge, le=le, choices=tuple(choices) if choices else None, kernel=kernel,
                encode=encode, scale=scale)
    return dataclasses.field(default=default, metadata={_KEY: meta})


@cache
def declared(rules_type: type) -> tuple[FieldSpec, ...]:
    """Every field of a Rules dataclass as a FieldSpec, in field order; a declaration the core cannot derive from
    (no bounds on a number, a float without scale, a default outside its own bounds) raises TypeError."""
    out = []
    for f in dataclasses.fields(rules_type):
        meta = f.metadata.get(_KEY)
        if meta is None:
            raise TypeError(f"{rules_type.__qualname__}.{f.name}: declare it with sim.core.fields.field(...)")
        out.append(_spec(rules_type, f, meta))
    return tuple(out)


def _spec(rules_type: type, f: dataclasses.Field, meta: dict) -> FieldSpec:
    where = f"{rules_type.__qualname__}.{f.name}"
    kind = TYPES.get(f.type) if isinstance(f.type, str) else f.type
    if kind not in TYPES.values():
        raise TypeError(f"{where}: type {f.type} is not one of int, bool, float, str")
    numeric = kind in (int, float)
    if numeric != (meta["ge"] is not None and meta["le"] is not None):
        raise TypeError(f"{where}: a number declares both ge and le, nothing else does")
    if meta["choices"] is not None and kind is not str:
        raise TypeError(f"{where}: only a str field has choices")
    if not meta["rule"] or not meta["doc"]:
        raise TypeError(f"{where}: declare its rule ID and doc")
    kernel = meta["kernel"]
    mapped = kind is not str or meta["choices"] is not None or meta["encode"] is not None
    if kind is float and kernel and meta["scale"] is None:
        raise TypeError(f"{where}: a float field in the kernel array needs scale= (never truncated to int)")
    name = None if not (kernel and mapped) else (kernel if isinstance(kernel, str) else f.name)
    spec = FieldSpec(f.name, kind, f.default, meta["rule"], meta["doc"], meta["ge"], meta["le"], meta["choices"],
                     name, meta["encode"], meta["scale"])
    if spec.problem(f.default) is not None:
        raise TypeError(f"{where}: the default {f.default!r} is not {spec.allowed}")
    return spec
