"""A sweep: a grid of Rules variants or strategy weights run as one study on common random numbers.

Every variant is a normal resumable run (one directory each under the sweep directory) with the same seed,
seating and number of games, so game i of every variant starts from the same random numbers and seats the
same strategies in the same seats: differences between variants are paired game by game. ``sweep.json``
names the grid; ``playtest report SWEEP_DIR`` (analysis/sweep.py) compares the variants with the baseline.

A grid axis is ``FIELD=v1,v2,...`` where FIELD is a Rules field (as ``--set``) or
``weights.STRATEGY.DECISION.FEATURE`` (one weight of a named weights strategy; the strategy keeps its name
in the logs and the manifest records its weights in each variant).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from sim.core.errors import PlaytestError, writable_dir
from sim.core.policy import Strategy, StrategyRegistry
from sim.core.rules import apply_overrides
from sim.logs import atomic_path, write_json
from sim.runner import execute, first_size, games_held, grow_until, one_writer
from sim.study import Study

SWEEP_MANIFEST = "sweep.json"
WEIGHTS = "weights."


@dataclass(frozen=True)
class Axis:
    """One varied field and its values (as typed; each checked against the field's type)."""

    field: str
    values: tuple[str, ...]

    @property
    def is_weight(self) -> bool:
        return self.field.startswith(WEIGHTS)

    def weight_key(self) -> tuple[str, str, str]:
        """(strategy, decision, feature) of a ``weights.`` axis."""
        name, decision, feature = self.field[len(WEIGHTS):].rsplit(".", 2)
        return name, decision, feature


@dataclass(frozen=True)
class Variant:
    """One point of the grid: a value per axis."""

    name: str
    assignments: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        return ", ".join(f"{f}={v}" for f, v in self.assignments)

    @property
    def dir_name(self) -> str:
        slug = "_".join(f"{f.removeprefix(WEIGHTS)}={v}" for f, v in self.assignments)
        return f"{self.name}-{re.sub(r'[^A-Za-z0-9.=_-]+', '_', slug)[:80]}"

    def overrides(self) -> list[str]:
        return [f"{f}={v}" for f, v in self.assignments if not f.startswith(WEIGHTS)]


@dataclass(frozen=True)
class Sweep:
    """The base study (its n_games is the number, or with --until-ci the cap, of games per variant), the
    axes, the grid and which variant is the baseline."""

    base: Study
    axes: tuple[Axis, ...]
    variants: tuple[Variant, ...]
    baseline: int

    def strategies(self, variant: Variant) -> list[Strategy]:
        """The named strategies whose weights this variant changes, as they play in it."""
        registry = self.base.spec.strategies
        changed: dict[str, dict[str, dict[str, float]]] = {}
        for f, v in variant.assignments:
            if f.startswith(WEIGHTS):
                name, decision, feature = Axis(f, ()).weight_key()
                if name not in changed:
                    changed[name] = {d: dict(row) for d, row in registry.get(name).weights.items()}
                changed[name].setdefault(decision, {})[feature] = float(v)
        return [replace(registry.get(n), weights=w) for n, w in changed.items()]

    def study(self, variant: Variant, n_games: int | None = None) -> Study:
        """The variant's study: the base with its rules fields set (strategies: see ``playing``)."""
        over = [*self.base.overrides, *variant.overrides()]
        rules = apply_overrides(self.base.spec.rules_type(), over, self.base.game)
        return replace(self.base, rules=rules, overrides=tuple(over), n_games=n_games or self.base.n_games)

    def config(self) -> dict[str, Any]:
        """What must match for a resume: the base study (without its size) and the grid."""
        base = self.base.config()
        base.pop("n_games")
        base.pop("strategy_definitions")
        return {"kind": "sweep", **base, "max_games": self.base.n_games, "overrides": list(self.base.overrides),
                "axes": [{"field": a.field, "values": list(a.values)} for a in self.axes],
                "variants": [{"name": v.name, "dir": v.dir_name, "label": v.label, "assignments": dict(v.assignments)}
                             for v in self.variants],
                "baseline": self.baseline}

    def sweep_id(self) -> str:
        digest = hashlib.sha256(json.dumps(self.config(), sort_keys=True).encode()).hexdigest()[:8]
        b = self.base
        return f"sweep-{b.game}-{b.n_players}p-{b.n_games}g-seed{b.seed}-{digest}"


def parse_vary(items: Sequence[str]) -> list[Axis]:
    """``FIELD=v1,v2,...`` items -> axes (syntax only; ``plan_sweep`` checks names and values)."""
    axes: list[Axis] = []
    for item in items:
        if "=" not in item:
            raise PlaytestError(f"--vary '{item}' is not FIELD=v1,v2,...; write e.g. --vary win_gold=20,25,30")
        field, text = (s.strip() for s in item.split("=", 1))
        values = tuple(v.strip() for v in text.split(",") if v.strip())
        if not values:
            raise PlaytestError(f"--vary {field}= lists no values: the grid is empty; write e.g. --vary {field}=1,2,3")
        if len(set(values)) < len(values):
            raise PlaytestError(f"--vary {field} lists a value twice ({text}); list each value once")
        if field in (a.field for a in axes):
            raise PlaytestError(f"--vary {field} is given twice; put all its values in one --vary")
        axes.append(Axis(field, values))
    if not axes:
        raise PlaytestError("a sweep needs at least one --vary FIELD=v1,v2,...: the grid is empty")
    return axes


def _check_rules_axis(base: Study, axis: Axis) -> list[Any]:
    """Each value of a Rules axis, parsed to the field's type (one line naming a wrong field or value)."""
    fields = [f.name for f in dataclasses.fields(base.rules)]
    if axis.field not in fields:
        raise PlaytestError(f"--vary {axis.field}: unknown rules field for {base.game}; fields are {', '.join(fields)} "
                            f"(or weights.STRATEGY.DECISION.FEATURE for a strategy's weight)")
    if any(o.split("=", 1)[0].strip() == axis.field for o in base.overrides):
        raise PlaytestError(f"--vary {axis.field} and --set {axis.field} both set it; drop the --set")
    parsed = []
    for v in axis.values:
        try:
            parsed.append(getattr(apply_overrides(base.rules, [f"{axis.field}={v}"], base.game), axis.field))
        except PlaytestError as exc:
            raise PlaytestError(re.sub(r"^--set ", "--vary ", str(exc))) from None
    return parsed


def _check_weight_axis(base: Study, axis: Axis) -> list[float]:
    """Each value of a ``weights.`` axis as a float, after checking strategy, decision and feature."""
    registry = base.spec.strategies
    try:
        name, decision, feature = axis.weight_key()
    except ValueError:
        raise PlaytestError(f"--vary {axis.field}: write weights.STRATEGY.DECISION.FEATURE, "
                            f"e.g. weights.{base.lineup[0]}.{registry.schema.decisions[0]}.FEATURE") from None
    strategy = registry.get(name)
    if name not in base.lineup:
        raise PlaytestError(f"--vary {axis.field}: strategy '{name}' does not play in this study "
                            f"({', '.join(dict.fromkeys(base.lineup))}); add it to --strategies")
    if strategy.kind != "weights":
        raise PlaytestError(f"--vary {axis.field}: strategy '{name}' is of kind {strategy.kind} and has no weights; "
                            "vary a weights strategy")
    values = []
    for v in axis.values:
        try:
            values.append(float(v))
        except ValueError:
            raise PlaytestError(f"--vary {axis.field}={v}: '{v}' is not a number; give weights as numbers") from None
    probe = StrategyRegistry(base.game, registry.schema)
    probe.register(replace(strategy, weights={**strategy.weights, decision: {**strategy.weights.get(decision, {}),
                                                                             feature: values[0]}}))
    return values


def plan_sweep(base: Study, vary: Sequence[str]) -> Sweep:
    """Validate the grid against the base study and return the sweep (nothing is written).

    The baseline is the grid point where every axis holds the base value (the game's default or --set),
    if the grid has one; otherwise the first point. A grid of one point is refused: nothing to compare.
    """
    axes = parse_vary(vary)
    registry = base.spec.strategies
    current = []
    for axis in axes:
        if axis.is_weight:
            parsed = _check_weight_axis(base, axis)
            name, decision, feature = axis.weight_key()
            now = float(registry.get(name).weights.get(decision, {}).get(feature, 0.0))
        else:
            parsed = _check_rules_axis(base, axis)
            now = getattr(base.rules, axis.field)
        current.append([p == now for p in parsed])
    points = list(itertools.product(*(range(len(a.values)) for a in axes)))
    if len(points) < 2:
        raise PlaytestError("the grid has a single variant: nothing to compare; give --vary at least two values")
    variants = tuple(Variant(f"v{i:02d}", tuple((a.field, a.values[j]) for a, j in zip(axes, point)))
                     for i, point in enumerate(points))
    baseline = next((i for i, point in enumerate(points) if all(current[k][j] for k, j in enumerate(point))), 0)
    sweep = Sweep(base, tuple(axes), variants, baseline)
    for v in variants:  # every variant's rules must be playable (cross-field checks, data files)
        base.spec.validate(sweep.study(v).rules, base.n_players)
    return sweep


@contextlib.contextmanager
def playing(registry: StrategyRegistry, strategies: Sequence[Strategy]) -> Iterator[None]:
    """Register the variant's versions of some named strategies for the duration, then restore them."""
    saved = [registry.get(s.name) for s in strategies]
    try:
        for s in strategies:
            registry.register(s)
        yield
    finally:
        for s in saved:
            registry.register(s)


def _open_sweep(root: Path, sweep: Sweep) -> dict[str, Any]:
    """The sweep manifest to resume, or a new one; refuse a directory holding another sweep or a run."""
    config = sweep.config()
    manifest = read_matching(root / SWEEP_MANIFEST, config, "sweep")
    if manifest is None:
        if (root / "manifest.json").is_file():
            raise PlaytestError(f"{root} holds a run, not a sweep; pass another --out")
        return {**config, "n_games": 0, "complete": False}
    return manifest


def read_matching(path: Path, config: dict[str, Any], what: str) -> dict[str, Any] | None:
    """The JSON manifest at ``path`` to resume (None if there is none); one line if it is not valid JSON or
    holds another ``what`` (a key of ``config`` differs)."""
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text())
    except json.JSONDecodeError:
        raise PlaytestError(f"{path} is not valid JSON; delete that directory or pass another --out") from None
    for key, value in config.items():
        if manifest.get(key) != value:
            raise PlaytestError(f"{path.parent} holds a different {what} ({key} differs); pass another --out or "
                                "delete it")
    return manifest


def _save(root: Path, manifest: dict[str, Any]) -> None:
    write_json(root / SWEEP_MANIFEST, manifest)


def run_sweep(sweep: Sweep, out: str | Path | None = None, *,
              until: tuple[float, Callable[[Path], float], dict[str, Any]] | None = None,
              min_games: int = 1_000, **kw: Any) -> Path:
    """Play every variant into ``out`` (default runs/<sweep-id>), resuming what is there; return the
    sweep directory. ``until`` = (target, width_of(sweep_dir), note): sequential stopping, all variants
    growing together until ``width_of`` is narrower than the target (the base's n_games is the cap).
    ``kw``: jobs, backend, scheduler, progress (as ``execute``)."""
    root = Path(out) if out else Path("runs") / sweep.sweep_id()
    writable_dir(root)
    with one_writer(root):
        manifest = _open_sweep(root, sweep)
        _save(root, manifest)
        registry = sweep.base.spec.strategies

        def play(n: int) -> None:
            manifest.update(complete=False)
            _save(root, manifest)
            for v in sweep.variants:
                with playing(registry, sweep.strategies(v)):
                    execute(sweep.study(v, n), root / v.dir_name, grow=until is not None, **kw)
            manifest.update(n_games=n, complete=True)
            _save(root, manifest)

        if until is None:
            play(sweep.base.n_games)
        else:
            target, width_of, note = until
            held = 0
            for v in sweep.variants:
                with playing(registry, sweep.strategies(v)):
                    held = max(held, games_held(root / v.dir_name, sweep.study(v)))
            start = max(held, first_size(sweep.base, min_games))
            manifest["until_ci"] = {**note, **grow_until(play, lambda: width_of(root), target, sweep.base.chunk_size,
                                                         sweep.base.n_games, start)}
            _save(root, manifest)
    return root


def read_sweep(root: str | Path) -> dict[str, Any]:
    """The manifest of a finished sweep directory (one line naming the problem otherwise)."""
    path = Path(root) / SWEEP_MANIFEST
    if not path.is_file():
        raise PlaytestError(f"{path} not found; point at a directory written by `playtest sweep`")
    try:
        manifest = json.loads(path.read_text())
    except json.JSONDecodeError:
        raise PlaytestError(f"{path} is not valid JSON; re-run the same `playtest sweep` command") from None
    if not manifest.get("complete"):
        raise PlaytestError(f"sweep {root} is incomplete; re-run the same `playtest sweep` command to finish it")
    return manifest
