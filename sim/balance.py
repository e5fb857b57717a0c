"""Rules search toward a balance target: a race over a grid of rules variants on common random numbers.

Every variant of the grid is a normal resumable run under ``RACE/`` (sweep's variants: the same seed and seats,
so game i is paired across variants). The race plays the variants still in it to a doubling number of games and
asks a judge (analysis/balance.py: it reads the logs) which meet the objective, which fail it and which are still
open; it stops when none is open or the race budget is spent. The finalists and the rules as printed are then
re-measured on a fresh seed as a sweep under ``FINAL/`` (``playtest report DIR/final`` reads it). ``balance.json``
keeps the configuration and the race history; re-running the same command resumes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from sim.core.errors import PlaytestError, writable_dir
from sim.core.fields import SWEEP_POINTS
from sim.core.rules import field_specs
from sim.logs import write_json
from sim.runner import LOCK, WRITER, execute, games_held, one_writer
from sim.study import Study
from sim.sweep import Sweep, Variant, plan_sweep, read_matching, run_sweep

BALANCE_MANIFEST = "balance.json"
RACE, FINAL = "race", "final"
FINALISTS = 3
"""Most variants re-measured on fresh seeds (besides the rules as printed) with the half of the budget the race
leaves."""
FIRST_GAMES = 250
"""Games every variant plays in the race's first round (also the part size: the race grows by whole parts)."""
OBJECTIVES = ("seats", "strategies", "length=TARGET", "end:REASON=SHARE")
"""Objectives; several combine as constraints (every one must be met)."""

Judge = Callable[[dict[str, Path], int], dict[str, dict[str, Any]]]
"""(variant name -> run directory, games to read: the first n)  =>  variant name -> {"state": "meets" | "fails" | "open", "reason": str,
"score": float} (a lower score is closer to the objective)."""


@dataclass(frozen=True)
class Balance:
    """A planned search: the grid (a sweep whose baseline is the rules as printed), objective and budget."""

    sweep: Sweep
    objectives: tuple[str, ...]
    budget: int
    min_effect: str

    def config(self) -> dict[str, Any]:
        """What must match for a resume."""
        return {"kind": "balance", "objectives": list(self.objectives), "budget": self.budget,
                "min_effect": self.min_effect, "grid": self.sweep.config()}

    def balance_id(self) -> str:
        digest = hashlib.sha256(json.dumps(self.config(), sort_keys=True).encode()).hexdigest()[:8]
        b = self.sweep.base
        return f"balance-{b.game}-{b.n_players}p-{self.budget}g-seed{b.seed}-{digest}"


def vary_items(base: Study, vary: Sequence[str]) -> list[str]:
    """``FIELD`` (its declared sweep values), ``FIELD=lo..hi`` (every int, or SWEEP_POINTS floats, between) or
    ``FIELD=v1,v2,...`` -> sweep's ``FIELD=v1,v2,...`` (one line naming an unknown field or a value out of bounds)."""
    specs = field_specs(base.rules)
    out = []
    for item in vary:
        name, sep, text = (s.strip() for s in item.partition("="))
        spec = specs.get(name)
        if spec is None:
            raise PlaytestError(f"--vary {name}: unknown rules field for {base.game}; fields are {', '.join(specs)} "
                                f"(`playtest rules {base.game}` lists them with their bounds)")
        if sep and ".." not in text:
            out.append(item)
            continue
        if not sep:
            values: Sequence[Any] = spec.sweep_values()
        else:
            lo, hi = (_parse(spec, t) for t in text.split("..", 1))
            if spec.type not in (int, float) or lo >= hi:
                raise PlaytestError(f"--vary {name}={text}: a range lo..hi needs a number field and lo < hi; "
                                    f"allowed {spec.allowed}")
            values = (range(lo, hi + 1) if spec.type is int
                      else [lo + (hi - lo) * k / (SWEEP_POINTS - 1) for k in range(SWEEP_POINTS)])
        if len(values) < 1:
            raise PlaytestError(f"--vary {name} has no values to try by default; list them: --vary {name}=v1,v2")
        out.append(f"{name}={','.join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)}")
    return out


def _parse(spec: Any, text: str) -> Any:
    try:
        return spec.parse(text)
    except PlaytestError as exc:
        raise PlaytestError(str(exc).replace("--set ", "--vary ", 1)) from None


def check_objectives(objectives: Sequence[str], end_reasons: Sequence[str]) -> None:
    """``seats``, ``strategies``, ``length=TARGET`` (mean rounds, positive) or ``end:REASON=SHARE`` (a known end
    reason, SHARE in percent within 0..100), each at most once; one line otherwise."""
    for objective in objectives:
        kind, sep, target = objective.partition("=")
        if kind.startswith("end:") and kind[4:] not in end_reasons:
            raise PlaytestError(f"--objective {objective}: unknown end reason {kind[4:]!r}; the game's end reasons are "
                                f"{', '.join(end_reasons)}")
        try:
            ok = objective in ("seats", "strategies") or (
                kind == "length" and sep and 0 < float(target) < float("inf")) or (
                kind.startswith("end:") and sep and 0 <= float(target) <= 100)
        except ValueError:
            ok = False
        if not ok:
            raise PlaytestError(f"--objective {objective}: use one of {', '.join(OBJECTIVES)} (e.g. length=12, "
                                "end:city_full=50 for 50% of games)")
    if len(set(o.partition("=")[0] for o in objectives)) < len(objectives):
        raise PlaytestError(f"--objective given twice for the same thing ({', '.join(objectives)}); give each once")


def plan_balance(base: Study, vary: Sequence[str], objectives: Sequence[str], budget: int, min_effect: str) -> Balance:
    """Validate the grid and objectives (nothing is written); the rules as printed join the grid as its baseline."""
    check_objectives(objectives, base.spec.game_columns[base.spec.game_col("end_reason")].labels)
    if not vary:
        raise PlaytestError("balance needs at least one --vary FIELD[=lo..hi|v1,v2,...]: nothing to search")
    if any(v.startswith("weights.") for v in vary):
        raise PlaytestError("balance searches rules fields only; vary strategy weights with `playtest sweep`")
    sweep = plan_sweep(base, vary_items(base, vary))
    printed = next((i for i, v in enumerate(sweep.variants) if sweep.study(v).rules == base.rules), None)
    if printed is None:
        values = tuple((a.field, _text(getattr(base.rules, a.field))) for a in sweep.axes)
        sweep = replace(sweep, variants=(*sweep.variants, Variant(f"v{len(sweep.variants):02d}", values)))
        printed = len(sweep.variants) - 1
    sweep = replace(sweep, baseline=printed)
    if budget < 2 * FIRST_GAMES * len(sweep.variants):
        raise PlaytestError(f"--budget {budget:,} is too small for {len(sweep.variants)} variants: give at least "
                            f"{2 * FIRST_GAMES * len(sweep.variants):,} games")
    return Balance(sweep, tuple(objectives), budget, min_effect)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _open(root: Path, balance: Balance) -> dict[str, Any]:
    """The search's manifest to resume (its race history is rebuilt as the race replays), or a new one."""
    config = balance.config()
    manifest = read_matching(root / BALANCE_MANIFEST, config, "balance search")
    if manifest is None:
        if any(p.name not in (LOCK, WRITER) for p in root.iterdir()):
            raise PlaytestError(f"{root} is not empty and holds no balance search; pass another --out")
        return {**config, "race": [], "complete": False}
    return {**manifest, "race": []}


def _save(root: Path, manifest: dict[str, Any]) -> None:
    write_json(root / BALANCE_MANIFEST, manifest)


def run_balance(balance: Balance, judge: Judge, out: str | Path | None = None, **kw: Any) -> Path:
    """Race the grid into ``out`` (default runs/<balance-id>), then re-measure the finalists and the rules as
    printed on a fresh seed; resumes what is there. ``kw``: jobs, backend, scheduler, progress (as ``execute``)."""
    root = Path(out) if out else Path("runs") / balance.balance_id()
    writable_dir(root)
    with one_writer(root):
        manifest = _open(root, balance)
        _save(root, manifest)
        sweep = balance.sweep
        verdicts = _race(balance, root, judge, balance.budget // 2, manifest, kw)
        finalists = _finalists(verdicts, sweep)
        final_games = _whole((balance.budget - manifest["race_games"]) // (len(finalists) + 1))
        manifest["finalists"] = [v.name for v in finalists]
        _save(root, manifest)
        fresh = replace(sweep.base, seed=sweep.base.seed + 1, n_games=final_games)
        remeasure = replace(sweep, base=fresh, variants=(sweep.variants[sweep.baseline], *finalists), baseline=0)
        run_sweep(remeasure, root / FINAL, **kw)
        manifest.update(complete=True, final_games=final_games, final_seed=fresh.seed)
        _save(root, manifest)
    return root


def _whole(n: int) -> int:
    """``n`` rounded down to whole race parts (at least one part)."""
    return max(FIRST_GAMES, n - n % FIRST_GAMES)


def _race(balance: Balance, root: Path, judge: Judge, race_budget: int, manifest: dict[str, Any],
          kw: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Successive rounds at FIRST_GAMES, then doubling: play the open variants, judge, drop what fails; stop when
    nothing is open, the race budget is spent or no more variants are left than the re-measure takes."""
    sweep = balance.sweep
    alive = {v.name: v for v in sweep.variants}
    verdicts: dict[str, dict[str, Any]] = {}
    held = dict.fromkeys(alive, 0)
    n, spent = FIRST_GAMES, 0
    while True:
        open_ = [v for v in alive.values() if verdicts.get(v.name, {}).get("state", "open") == "open"]
        cost = sum(n - held[v.name] for v in open_)
        contenders = sum(k != sweep.variants[sweep.baseline].name for k in alive)
        if not open_ or (spent and (spent + cost > race_budget or contenders <= FINALISTS)):
            break  # every survivor is re-measured anyway: the rest of the budget goes to fresh seeds
        for v in open_:
            run_dir = root / RACE / v.dir_name
            if games_held(run_dir, sweep.study(v, n)) < n:  # a resumed search may hold more: judged on the first n
                execute(sweep.study(v, n), run_dir, grow=True, **kw)
            held[v.name] = n
        spent += cost
        judged = judge({v.name: root / RACE / v.dir_name for v in alive.values()}, n)
        verdicts.update({v.name: judged[v.name] for v in open_})  # a variant that met the objective keeps it
        dropped = {v.name: judged[v.name]["reason"] for v in open_ if judged[v.name]["state"] == "fails"}
        manifest["race"].append({"games": n, "played": cost, "open": [v.name for v in open_], "dropped": dropped,
                                 "meets": [v.name for v in open_ if judged[v.name]["state"] == "meets"]})
        manifest["race_games"] = spent
        manifest["race_resolution"] = n
        _save(root, manifest)
        for k in dropped:
            alive.pop(k)
        n *= 2
    manifest["race_alive"] = list(alive)
    return {k: verdicts[k] | {"alive": k in alive} for k in verdicts}


def _finalists(verdicts: dict[str, dict[str, Any]], sweep: Sweep) -> list[Variant]:
    """Up to FINALISTS of the variants still in the race other than the rules as printed (those meeting the
    objective first, then by the judge's score); if none is left, the closest of all."""
    base = sweep.variants[sweep.baseline].name
    others = sorted((k for k in verdicts if k != base),
                    key=lambda k: (verdicts[k]["state"] != "meets", verdicts[k]["score"]))
    alive = [k for k in others if verdicts[k]["alive"]]
    by_name = {v.name: v for v in sweep.variants}
    return [by_name[k] for k in (alive[:FINALISTS] or others[:1])]


def read_balance(root: str | Path) -> dict[str, Any]:
    """The manifest of a finished balance search (one line naming the problem otherwise)."""
    path = Path(root) / BALANCE_MANIFEST
    if not path.is_file():
        raise PlaytestError(f"{path} not found; point at a directory written by `playtest balance`")
    manifest = json.loads(path.read_text())
    if not manifest.get("complete"):
        raise PlaytestError(f"balance search {root} is incomplete; re-run the same `playtest balance` command")
    return manifest
