"""Dominant-strategy search: CMA-ES over the weights of one seat's strategy, to maximise its win rate
against a field of named strategies.

The tuned seat starts from a named strategy (``--start``) and plays against the field seated at random in
every game, or, given a mixture (a population's weights over the field), takes one seat drawn per game while
the other seats draw their strategies from the mixture (a best response to a population, sim/harden.py). Each generation's candidates play the same block of games (common random numbers: same seeds,
same seats), in this process or joblib workers through the runner's chunk play, so CMA-ES ranks them on
differences the pairing makes sharp; generation g plays games g*block .. (g+1)*block-1 of the search seed.
The final strategy (the search distribution's mean, weights rounded to 4 significant digits) is written as
a strategy JSON file and measured on fresh seeds (seed + 1) in an A/B against its starting point
(``run_ab``: the same games with the start in the tuned seat), so the report gives its win rate against
the field with an interval and what the tuning changed.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import cma
import joblib
import numpy as np
from tqdm import tqdm

from sim.core.errors import PlaytestError, writable_dir
from sim.core.policy import DecisionSchema, Strategy, StrategyTable
from sim.core.spec import ChunkResult, get_game
from sim.logs import read_record, records_to_frames, write_json
from sim.runner import one_writer, play_part, run_ab
from sim.study import Mixture, Study, known_strategies, plan_study

TUNE_MANIFEST = "tune.json"
DIGITS = 4
"""Significant digits of the written weights (the final measurement plays the rounded weights)."""


MAX_SEED = 2**32 - 2
"""Largest search seed: CMA-ES seeds NumPy's legacy generator (0 .. 2**32-1) with seed + 1."""

@dataclass(frozen=True)
class TunePlan:
    """A validated search: who is tuned from what, against whom, over which weights, with what budget."""

    game: str
    n_players: int
    start: str
    name: str
    field: tuple[str, ...]
    params: tuple[tuple[str, str], ...]
    """(decision, feature) of every tuned weight: the features each chosen decision fills."""
    x0: tuple[float, ...]
    budget: int
    block: int
    popsize: int
    sigma: float
    seed: int
    final_games: int
    overrides: tuple[str, ...] = ()
    mixture: tuple[float, ...] = ()
    """Weights over ``field`` when the other seats draw from a population (empty: seated at random)."""
    fixed_scale: bool = False
    """Candidates keep the start's weight norm. A softmax player's randomness is set by its weights' scale
    (softmax(w.f / T) = softmax((w / T).f)), and a best response to a fixed mixture gains by sharpening to greedy:
    at a fixed scale the search must keep mixing (a search for mixed members, not a best response)."""

    @property
    def generations(self) -> int:
        return self.budget // (self.popsize * self.block)

    @property
    def start_copy(self) -> str:
        """The name the starting strategy plays under in the final A/B (the tuned seat of arm A)."""
        return f"{self.name}-start"

    def scaled(self, x: Sequence[float]) -> list[float]:
        """``x`` as the search plays it: rescaled to the start's norm with ``fixed_scale``, else as it is."""
        norm = math.hypot(*x)
        if not self.fixed_scale or norm == 0.0:
            return list(x)
        return [v * math.hypot(*self.x0) / norm for v in x]

    def strategy(self, x: Sequence[float], name: str | None = None) -> Strategy:
        """The start strategy with the tuned weights set to ``x``."""
        base = get_game(self.game).strategies.get(self.start)
        weights = {d: dict(row) for d, row in base.weights.items()}
        for (d, f), w in zip(self.params, x):
            weights.setdefault(d, {})[f] = float(w)
        what = (f"{self.start} as it started the tuning of {self.name}" if name else
                f"tuned by CMA-ES from {self.start} against {', '.join(self.field)}")
        return Strategy(name or self.name, what, "weights", weights, base.temperature, base.epsilon)

    def seat_draw(self) -> tuple[str | None, Mixture | None]:
        """(seating, mixture) of this search's studies: random seating, or the tuned seat (the lineup's
        first) against the field drawn from the mixture."""
        if not self.mixture:
            return "random", None
        return None, Mixture((0.0, *self.mixture), True, {"members": list(self.field), "weights": list(self.mixture)})

    def study(self, n_games: int, seed: int) -> Study:
        """Games of the tuned seat against the field, in parts of one block."""
        seating, mixture = self.seat_draw()
        return plan_study(self.game, self.n_players, n_games, [self.name, *self.field], seed=seed,
                          overrides=self.overrides, chunk_size=self.block, seating=seating, mixture=mixture)

    def config(self) -> dict[str, Any]:
        return {"kind": "tune", "game": self.game, "n_players": self.n_players, "start": self.start, "name": self.name,
                "start_copy": self.start_copy, "field": list(self.field), "params": [list(p) for p in self.params],
                "x0": list(self.x0),
                "budget": self.budget, "block": self.block, "popsize": self.popsize, "sigma": self.sigma,
                "seed": self.seed, "final_seed": self.seed + 1, "final_games": self.final_games,
                "overrides": list(self.overrides), **({"mixture": list(self.mixture)} if self.mixture else {}),
                **({"fixed_scale": True} if self.fixed_scale else {})}


def searched_weights(schema: DecisionSchema, decisions: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The (decision, feature) weights a search over ``decisions`` tunes: every feature each decision fills."""
    return tuple((d, f) for d in decisions for f in ((schema.filled or {}).get(d) or schema.features))


def plan_tune(game: str, players: int, against: Sequence[str], budget: int, *, start: str | None = None,
              name: str = "tuned", decisions: Sequence[str] | None = None, block: int = 500,
              popsize: int | None = None, sigma: float = 0.5, seed: int = 0, final_games: int = 10_000,
              overrides: Sequence[str] = (), mixture: Sequence[float] = (), fixed_scale: bool = False) -> TunePlan:
    """Check every choice (one clear line otherwise) and register the tuned strategy's name (as a copy of
    the start) so studies can seat it. ``start`` defaults to the first weights strategy of ``against``.
    ``mixture``: one weight per ``against`` strategy, the population the other seats draw from; ``fixed_scale``:
    keep the start's weight norm (see TunePlan)."""
    if not 0 <= seed <= MAX_SEED:
        raise PlaytestError(f"--seed must be from 0 to {MAX_SEED:,} (CMA-ES seeds NumPy with seed + 1, below 2**32), "
                            f"not {seed}")
    field = known_strategies(game, players, against, "--against", "random")
    spec = get_game(game)
    registry = spec.strategies
    if not mixture:
        if len(field) > players - 1:
            raise PlaytestError(f"--against lists {len(field)} strategies for the {players - 1} other seats; "
                                "give at most one per other seat")
        field = [field[i % len(field)] for i in range(players - 1)]
    if start is None:
        start = next((s for s in field if registry.get(s).kind == "weights"), "random")
    base = registry.get(start)
    if base.kind not in ("weights", "random"):
        raise PlaytestError(f"--start {start} is of kind {base.kind}; start from a weights strategy or random")
    builtin = {s.name for s in spec.strategy_list}
    if name in builtin or name in field or name == start:
        raise PlaytestError(f"--name {name} is already a strategy of this study; pick a new name for the tuned one")
    schema = registry.schema
    chosen = list(decisions) if decisions else list(schema.decisions)
    for d in chosen:
        if d not in schema.decisions:
            raise PlaytestError(f"--decisions: unknown decision '{d}' for {game}; "
                                f"decisions are {', '.join(schema.decisions)}")
    params = searched_weights(schema, chosen)
    start_w = base.weights if base.kind == "weights" else {}
    x0 = tuple(float(start_w.get(d, {}).get(f, 0.0)) for d, f in params)
    if fixed_scale and (base.temperature == 0.0 or not any(x0)):
        raise PlaytestError(f"--fixed-scale keeps the randomness of a softmax start, and --start {start} "
                            f"{'is greedy (temperature 0)' if any(x0) else 'has no tuned weights'}; start from a "
                            "weights strategy with a temperature, or drop --fixed-scale")
    lam = popsize or int(4 + 3 * math.log(len(params)))
    if lam < 2:
        raise PlaytestError(f"--popsize must be at least 2, not {lam}")
    if block < 1 or sigma <= 0 or final_games < 1:
        raise PlaytestError("--block, --sigma and --final-games must be positive")
    if budget < 2 * lam * block:
        raise PlaytestError(f"--budget {budget:,} games is too small: two generations of {lam} candidates x {block} "
                            f"games need {2 * lam * block:,}; raise --budget or lower --block or --popsize")
    plan = TunePlan(game, players, start, name, tuple(field), params, x0, budget, block, lam, sigma, seed, final_games,
                    tuple(overrides), tuple(float(w) for w in mixture), fixed_scale)
    registry.register(plan.strategy(x0))
    registry.register(plan.strategy(x0, plan.start_copy))
    plan.study(block, seed)  # rules and seats check out before anything runs
    return plan


def _scales(x0: Sequence[float]) -> list[float]:
    """Per-weight step scale: the start weight's size, at least the typical size of its non-zero weights."""
    nz = [abs(v) for v in x0 if v != 0.0]
    typical = float(np.median(nz)) if nz else 1.0
    return [max(abs(v), typical) for v in x0]


def _table(plan: TunePlan, base: StrategyTable, row: int, x: Sequence[float]) -> StrategyTable:
    """``base`` with the tuned row's weights set to ``x``."""
    schema = get_game(plan.game).strategies.schema
    weights = base.weights.copy()
    for (d, f), w in zip(plan.params, x):
        weights[row, schema.decisions.index(d), schema.features.index(f)] = w
    return StrategyTable(base.kind, base.params, weights)


def win_rate(study: Study, part: int, result: ChunkResult, name: str) -> float:
    """Mean win share of ``name``'s seats in one played part (the candidate's fitness)."""
    first, n = study.part_range(part)
    frames = records_to_frames(study.spec, result, first, study.seats(first, n), study.strategy_names())
    p = frames["players"]
    return float(p.loc[p["strategy"] == name, "win_share"].mean())


def search(plan: TunePlan, jobs: int = 1, progress: bool = True) -> dict[str, Any]:
    """Run CMA-ES for ``plan.generations`` generations; return the history and the final weights."""
    study = plan.study(plan.generations * plan.block, plan.seed)
    base = study.table()
    row = study.strategy_names().index(plan.name)
    es = cma.CMAEvolutionStrategy(list(plan.x0), plan.sigma, {
        "popsize": plan.popsize, "seed": plan.seed + 1, "CMA_stds": _scales(plan.x0), "verbose": -9})
    history = []
    with joblib.Parallel(n_jobs=jobs) as parallel, tqdm(total=plan.generations * plan.popsize * plan.block,
                                                        unit="games", unit_scale=True, disable=not progress,
                                                        desc=f"tune {plan.game}") as bar:
        for g in range(plan.generations):
            xs = es.ask()
            results = parallel(joblib.delayed(play_part)(study, _table(plan, base, row, plan.scaled(x)), g) for x in xs)
            fitness = [win_rate(study, g, r, plan.name) for _, r in results]
            es.tell(xs, [-f for f in fitness])
            history.append({"generation": g, "best": max(fitness), "mean": float(np.mean(fitness)),
                            "worst": min(fitness), "sigma": float(es.sigma)})
            bar.update(plan.popsize * plan.block)
    final = [float(f"{w:.{DIGITS}g}") for w in plan.scaled(es.result.xfavorite)]
    return {"history": history, "x_final": final}


def tune(plan: TunePlan, out: str | Path | None = None, jobs: int = 1, progress: bool = True) -> Path:
    """Search, write ``tuned.json`` (a strategy file `playtest run --strategy-file` accepts) and measure the
    result on fresh seeds in an A/B against the start; return the output directory (``tune.json`` records all)."""
    root = Path(out) if out else Path("runs") / f"tune-{plan.game}-{plan.n_players}p-{plan.name}-seed{plan.seed}"
    writable_dir(root)
    with one_writer(root):
        found = search(plan, jobs, progress)
        tuned = plan.strategy(found["x_final"])
        get_game(plan.game).strategies.register(tuned)
        strategy_file = root / "tuned.json"
        write_json(strategy_file, [dataclasses.asdict(tuned)])
        seating, mixture = plan.seat_draw()
        arm_a, arm_b = run_ab(plan.game, plan.n_players, plan.final_games, [plan.start_copy, *plan.field],
                              plan.start_copy, plan.name, seed=plan.seed + 1, seating=seating, jobs=jobs,
                              out=root / "final", overrides=plan.overrides, progress=progress, mixture=mixture)
        record = {**plan.config(), **found, "strategy_file": strategy_file.name,
                  "arms": [str(arm_a.relative_to(root)), str(arm_b.relative_to(root))]}
        write_json(root / TUNE_MANIFEST, record)
    return root


def read_tune(root: str | Path) -> dict[str, Any]:
    """The record of a finished search (one line naming the problem otherwise)."""
    return read_record(root, TUNE_MANIFEST, "tune")
