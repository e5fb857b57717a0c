"""Rules variants: every rulebook number is a dataclass field; ``--set FIELD=VALUE`` overrides it."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterable

from sim.core.errors import PlaytestError


def _parse(value: str, typ: type, field: str) -> Any:
    try:
        if typ is bool:
            low = value.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        return typ(value)
    except ValueError:
        raise PlaytestError(
            f"--set {field}={value}: '{value}' is not a valid {typ.__name__}; give a {typ.__name__} value"
        ) from None


def apply_overrides(rules: Any, assignments: Iterable[str], game: str) -> Any:
    """Return ``rules`` with each ``FIELD=VALUE`` applied, parsed to the field's declared type."""
    fields = {f.name: f for f in dataclasses.fields(rules)}
    changes: dict[str, Any] = {}
    for item in assignments:
        if "=" not in item:
            raise PlaytestError(f"--set '{item}' is not FIELD=VALUE; write e.g. --set win_gold=30")
        name, value = item.split("=", 1)
        name = name.strip()
        if name not in fields:
            raise PlaytestError(
                f"--set {name}: unknown rules field for {game}; "
                f"fields are {', '.join(fields)}"
            )
        typ = type(getattr(rules, name))
        changes[name] = _parse(value, typ, name)
    new = dataclasses.replace(rules, **changes)
    check = getattr(new, "validate", None)
    if check is not None:
        check()
    return new


def rules_dict(rules: Any) -> dict[str, Any]:
    """All fields of a Rules object, for the manifest."""
    return dataclasses.asdict(rules)
