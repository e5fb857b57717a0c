"""Policy kinds shared by every game, and the packing of named strategies into kernel tables.

A strategy is data plus a policy kind. Every game kernel funnels each decision through
:func:`choose`: it enumerates the legal options, fills one feature column per option (``features[f, i]``
is feature f of option i, so scoring runs along contiguous rows), and the seat's strategy picks an index.
``random`` picks uniformly; ``weights`` scores each option by a linear function of its features (weights per
decision type) and takes the best (ties broken at random), or samples a softmax when ``temperature > 0``;
``epsilon`` mixes in uniform exploration. Weights are plain data, so designers tune or sweep them without
recompiling the kernels. ``rollout`` (Monte Carlo over a base strategy, flat or by sequential halving,
:class:`RolloutStrategy`) is packed as its base's row plus the playout parameters; the core plays it
(sim/core/rollout.py).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Sequence

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.jit import kernel
from sim.core.names import namespace
from sim.core.rng import randint, uniform

TIE = 1e-12
"""Options scoring within this of the best are tied: the strategy picks one of them uniformly at random."""

POLICY_RANDOM = 0
POLICY_WEIGHTS = 1
POLICY_KINDS = {"random": POLICY_RANDOM, "weights": POLICY_WEIGHTS}
ROLLOUT = "rollout"
"""The kind of a :class:`RolloutStrategy`: its table row holds its base's kind, weights and parameters."""

# Columns of StrategyTable.params.
P_TEMPERATURE = 0
P_EPSILON = 1
P_PLAYOUTS = 2
"""Playouts per candidate option of a rollout strategy (0: not a rollout)."""
P_TOP = 3
"""How many of the base strategy's best options a rollout strategy tries."""
P_ALLOCATION = 4
"""How a rollout strategy spends its playouts: an index of ALLOCATIONS."""
N_PARAMS = 5

ALLOCATIONS = ("flat", "halving")
"""``flat``: ``playouts`` for every candidate. ``halving``: sequential halving (Karnin et al. 2013) with the same
budget, ``playouts`` x ``top`` in all, stopping once the leader cannot be caught (sim/core/rollout.py)."""
SHORT_ROLLOUT = re.compile(r"^(?P<base>.+)\+(?P<allocation>mc|sh)(?P<playouts>-?\d+)$")
"""The short forms of a rollout strategy over the base's top DEFAULT_TOP options: ``BASE+mcK`` is K playouts
of each (flat), ``BASE+shK`` sequential halving with the same budget (K x DEFAULT_TOP playouts at most)."""
SHORT_ALLOCATION = {"mc": "flat", "sh": "halving"}
DEFAULT_TOP = 4
MAX_PLAYOUTS = 100_000
"""Most playouts per option a rollout strategy may ask for: at this many one decision already takes minutes, and
the kernels read the count from a float64 table (exact only to 2**53), so a larger number is refused, not played."""
MAX_TOP = 1_000
"""Most options a rollout strategy may try (more than any decision of the games offers)."""
FILE_FORMAT = ("a JSON list of {name, description, kind, weights, temperature, epsilon} objects (a rollout: "
               "{name, kind: rollout, base, playouts, top, allocation})")


@dataclass(frozen=True)
class Strategy:
    """A named strategy: its policy kind and, for ``weights``, a weight per (decision, feature)."""

    name: str
    description: str
    kind: str = "weights"
    weights: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    temperature: float = 0.0
    epsilon: float = 0.0


@dataclass(frozen=True)
class RolloutStrategy(Strategy):
    """Monte Carlo over ``base``: at each decision, playouts of the base's ``top`` best options, every seat
    following its own base strategy; the best mean win share (score margin breaks ties) is played.
    ``allocation`` flat gives each option ``playouts``; halving spends at most ``playouts`` x ``top`` in all,
    most of them on the options still in contention."""

    kind: str = ROLLOUT
    base: str = ""
    playouts: int = 0
    top: int = DEFAULT_TOP
    allocation: str = "flat"


def definition(strategy: Strategy) -> dict[str, Any]:
    """A strategy's fields as a manifest records them (a flat rollout leaves out its default allocation, so
    the manifests of flat rollout runs read as before halving existed and still resume)."""
    out = dataclasses.asdict(strategy)
    if isinstance(strategy, RolloutStrategy) and strategy.allocation == "flat":
        del out["allocation"]
    return out


def short_rollout(name: str) -> RolloutStrategy | None:
    """The rollout strategy a ``BASE+mcK`` or ``BASE+shK`` name stands for, or None if the name is not of that form."""
    m = SHORT_ROLLOUT.match(name)
    if m is None:
        return None
    base, k, allocation = m["base"], int(m["playouts"]), SHORT_ALLOCATION[m["allocation"]]
    if allocation == "flat":
        text = f"flat Monte Carlo over {base}: {k} playouts for each of its top {DEFAULT_TOP} options"
    else:
        text = (f"sequential halving over {base}'s top {DEFAULT_TOP} options: at most {k * DEFAULT_TOP} playouts "
                "per decision")
    return RolloutStrategy(name, text, base=base, playouts=k, allocation=allocation)


class StrategyTable(NamedTuple):
    """Strategies packed as arrays for the kernels: index ``i`` is the i-th strategy of a study."""

    kind: np.ndarray  # int64 (n_strategies,)
    params: np.ndarray  # float64 (n_strategies, N_PARAMS)
    weights: np.ndarray  # float64 (n_strategies, n_decisions, n_features)


@dataclass(frozen=True)
class DecisionSchema:
    """A game's decision types and option features, in kernel order.

    ``filled`` maps each decision to the features its options carry (None: all of them), exactly the ones
    the engine writes for it: a weight on any other feature would silently do nothing, so the registry
    refuses it and tuning does not search it. ``choose`` reads only the filled rows some strategy weighs.
    """

    decisions: tuple[str, ...]
    features: tuple[str, ...]
    filled: Mapping[str, tuple[str, ...]] | None = None

    @property
    def D(self) -> Any:
        """Decision name -> index, for kernels (``D.sail``)."""
        return namespace("D", self.decisions)

    @property
    def F(self) -> Any:
        """Feature name -> column, for kernels (``F.sale_gain``)."""
        return namespace("F", self.features)

    @classmethod
    def from_groups(cls, groups: Sequence[tuple[str, Sequence[str]]]) -> "DecisionSchema":
        """A schema from (decision, its features) pairs in kernel order: each decision fills its own
        contiguous run of feature columns."""
        return cls(tuple(name for name, _ in groups), tuple(f for _, feats in groups for f in feats),
                   {name: tuple(feats) for name, feats in groups})

    def span(self, decision: str) -> tuple[int, int]:
        """The feature columns [lo, hi) holding every feature ``decision`` fills."""
        cols = [self.features.index(f) for f in (self.filled or {}).get(decision, self.features)]
        return min(cols), max(cols) + 1

    def span_array(self) -> np.ndarray:
        """int64 (decisions, 2): each decision's span, for ``decide``."""
        return np.array([self.span(d) for d in self.decisions], dtype=np.int64).reshape(len(self.decisions), 2)


def style_weights(base: Mapping[str, Mapping[str, float]], **over: Mapping[str, float]) -> dict:
    """A style's weight table: the shared habits ``base`` (decision -> feature -> weight) with the style's
    changes per decision laid over them."""
    table = {k: dict(v) for k, v in base.items()}
    for decision, row in over.items():
        table[decision] = {**table.get(decision, {}), **row}
    return table


class StrategyRegistry:
    """The named strategies of one game, validated against its decision schema."""

    def __init__(self, game: str, schema: DecisionSchema, strategies: Sequence[Strategy] = ()):
        self.game = game
        self.schema = schema
        self._by_name: dict[str, Strategy] = {}
        for s in strategies:
            self.register(s)

    def register(self, strategy: Strategy) -> Strategy:
        """Add (or replace) a strategy after checking its kind, weight names and values."""
        _check_values(strategy)
        if strategy.kind == ROLLOUT:
            self._check_rollout(strategy)
        elif strategy.kind not in POLICY_KINDS:
            raise PlaytestError(
                f"strategy '{strategy.name}': unknown kind '{strategy.kind}'; use one of "
                f"{sorted([*POLICY_KINDS, ROLLOUT])}"
            )
        for decision, row in strategy.weights.items():
            if decision not in self.schema.decisions:
                raise PlaytestError(
                    f"strategy '{strategy.name}': unknown decision '{decision}' for {self.game}; "
                    f"decisions are {', '.join(self.schema.decisions)}"
                )
            facts = self.schema.filled[decision] if self.schema.filled else self.schema.features
            for feat in row:
                if feat not in self.schema.features:
                    raise PlaytestError(
                        f"strategy '{strategy.name}': unknown feature '{feat}' for {self.game}; "
                        f"features are {', '.join(self.schema.features)}"
                    )
                if feat not in facts:
                    raise PlaytestError(
                        f"strategy '{strategy.name}': feature '{feat}' is not a fact of decision '{decision}'; "
                        f"use one of {', '.join(facts)}"
                    )
        self._by_name[strategy.name] = strategy
        return strategy

    def _check_rollout(self, strategy: Strategy) -> None:
        """A rollout strategy names a known, non-rollout base and at least 1 playout of at least 2 options."""
        name = strategy.name
        if not isinstance(strategy, RolloutStrategy):
            raise PlaytestError(f"strategy '{name}': kind 'rollout' needs base, playouts and top fields")
        base = self._by_name.get(strategy.base) or short_rollout(strategy.base)
        if base is None:
            raise PlaytestError(
                f"rollout strategy '{name}': unknown base '{strategy.base}' for {self.game}; "
                f"use one of {', '.join(s.name for s in self if s.kind != ROLLOUT)}"
            )
        if base.kind == ROLLOUT:
            raise PlaytestError(
                f"rollout strategy '{name}': its base '{base.name}' is itself a rollout; use a random or weights base"
            )
        if strategy.allocation not in ALLOCATIONS:
            raise PlaytestError(f"rollout strategy '{name}': unknown allocation '{strategy.allocation}'; use one of "
                                f"{', '.join(ALLOCATIONS)}")
        for field_, low, high in (("playouts", 1, MAX_PLAYOUTS), ("top", 2, MAX_TOP)):
            value = getattr(strategy, field_)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise PlaytestError(f"rollout strategy '{name}': {field_} must be a whole number from {low} to "
                                    f"{high:,}, not {value!r}")

    def names(self) -> list[str]:
        return list(self._by_name)

    def get(self, name: str) -> Strategy:
        """The strategy named ``name``; a ``BASE+mcK`` name registers its rollout strategy on first use."""
        if name not in self._by_name:
            rollout = short_rollout(name)
            if rollout is not None:
                return self.register(rollout)
        try:
            return self._by_name[name]
        except KeyError:
            raise PlaytestError(
                f"unknown strategy '{name}' for {self.game}; choose from {', '.join(self._by_name)} "
                f"(see `playtest strategies {self.game}`)"
            ) from None

    def __iter__(self):
        return iter(self._by_name.values())

    def table(self, names: Sequence[str]) -> StrategyTable:
        """Pack the named strategies, in order, into arrays for the kernel."""
        n_dec, n_feat = len(self.schema.decisions), len(self.schema.features)
        kind = np.zeros(len(names), dtype=np.int64)
        params = np.zeros((len(names), N_PARAMS), dtype=np.float64)
        weights = np.zeros((len(names), n_dec, n_feat), dtype=np.float64)
        for i, name in enumerate(names):
            s = self.get(name)
            if isinstance(s, RolloutStrategy):  # the base's row, plus the playout parameters
                params[i, P_PLAYOUTS] = s.playouts
                params[i, P_TOP] = s.top
                params[i, P_ALLOCATION] = ALLOCATIONS.index(s.allocation)
                s = self.get(s.base)
            kind[i] = POLICY_KINDS[s.kind]
            params[i, P_TEMPERATURE] = s.temperature
            params[i, P_EPSILON] = s.epsilon
            for decision, row in s.weights.items():
                d = self.schema.decisions.index(decision)
                for feat, w in row.items():
                    weights[i, d, self.schema.features.index(feat)] = float(w)
        return StrategyTable(kind, params, weights)

    def load_file(self, path: str | Path) -> list[str]:
        """Register strategies from a JSON file (a list of Strategy fields); return their names."""
        where = f"strategy file '{path}'"
        try:
            items = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise PlaytestError(f"{where} not found; pass an existing JSON file") from None
        except IsADirectoryError:
            raise PlaytestError(f"{where} is a directory; pass a JSON file holding {FILE_FORMAT}") from None
        except UnicodeDecodeError:
            raise PlaytestError(f"{where} is not UTF-8 text; save it as UTF-8 JSON holding {FILE_FORMAT}") from None
        except json.JSONDecodeError as exc:
            raise PlaytestError(f"{where} is not valid JSON ({exc}); it must hold {FILE_FORMAT}") from None
        except OSError as exc:
            raise PlaytestError(f"{where} cannot be read ({exc.strerror}); pass a readable JSON file") from None
        if isinstance(items, dict):
            items = [items]
        if not isinstance(items, list) or not items:
            raise PlaytestError(f"{where} holds {type(items).__name__} {str(items)[:40]!r}; it must hold {FILE_FORMAT}")
        loaded = [strategy_from_json(item, where) for item in items]
        names = [s.name for s in loaded]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise PlaytestError(f"{where} defines '{twice[0]}' twice; give each strategy its own name")
        return [self.register(s).name for s in loaded]


def strategy_from_json(item: Any, where: str = "a strategy definition") -> Strategy:
    """One strategy of a JSON file; a rollout's description may be left out (one line on a malformed item)."""
    if not isinstance(item, dict):
        raise PlaytestError(f"{where}: {str(item)[:40]!r} is not a strategy object; it must hold {FILE_FORMAT}")
    try:
        if item.get("kind") == ROLLOUT:
            item = {"description": f"flat Monte Carlo over {item.get('base')}", **item}
            return RolloutStrategy(**item)
        return Strategy(**item)
    except TypeError as exc:
        raise PlaytestError(f"{where}: a strategy definition is malformed ({exc}); it must hold {FILE_FORMAT}") from None


def _number(value: Any) -> bool:
    """A JSON number (not a bool, not a string)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_values(s: Strategy) -> None:
    """A strategy's fields hold what the kernels can play: a name, finite numeric weights, a temperature of at
    least 0 and an epsilon in [0, 1]; a rollout plays its base's weights, so weights of its own are refused."""
    if not isinstance(s.name, str) or not s.name.strip():
        raise PlaytestError(f"strategy name {s.name!r} is not a name; give each strategy a non-empty string name")
    where = f"strategy '{s.name}'"
    if not isinstance(s.description, str) or not isinstance(s.kind, str):
        raise PlaytestError(f"{where}: description and kind must be strings; see `playtest strategies GAME`")
    if not isinstance(s.weights, Mapping) or not all(isinstance(row, Mapping) for row in s.weights.values()):
        raise PlaytestError(f"{where}: weights must be an object of decision -> {{feature: number}}")
    for decision, row in s.weights.items():
        for feat, w in row.items():
            if not _number(w) or not math.isfinite(w):
                raise PlaytestError(f"{where}: weight {decision}.{feat} = {w!r} is not a finite number; give a number")
    if s.kind == ROLLOUT and s.weights:
        raise PlaytestError(f"{where}: a rollout plays its base's weights; move these weights to a weights strategy "
                            "and name it as the base")
    if not _number(s.temperature) or not 0 <= s.temperature < math.inf:
        raise PlaytestError(f"{where}: temperature {s.temperature!r} must be a finite number of at least 0 "
                            "(0: always the best option)")
    if not _number(s.epsilon) or not 0 <= s.epsilon <= 1:
        raise PlaytestError(f"{where}: epsilon {s.epsilon!r} must be a probability from 0 to 1")


def weighed_rows(weights: np.ndarray, spans: np.ndarray) -> np.ndarray:
    """int64 (decisions, 1 + features): per decision, how many feature rows of its span some strategy of the
    table weighs, then those rows in order. No other row is ever read (``weighed_scores``), so none other
    needs clearing or filling: in Bus's heuristic pool, 17 of the planning decision's 54."""
    rows = np.zeros((spans.shape[0], 1 + weights.shape[2]), np.int64)
    for d, (lo, hi) in enumerate(spans):
        used = lo + np.flatnonzero((weights[:, d, lo:hi] != 0.0).any(axis=0))
        rows[d, 0] = len(used)
        rows[d, 1:1 + len(used)] = used
    return rows


@kernel(inline="always")
def weighed_scores(weights: np.ndarray, strat: int, decision: int, features: np.ndarray, rows: np.ndarray,
                   n_opt: int, scores: np.ndarray) -> None:
    """scores[i] = option i's features dotted with the strategy's weights, over the decision's weighed rows
    (``weighed_rows``: ``rows[decision]``).

    Feature by feature over all options: each step is one contiguous, vectorisable row, and every option's
    sum is still added in feature order. A row no strategy weighs, or this one weighs 0, is skipped: it
    leaves every sum unchanged, and the features a decision does not fill (always weighted 0) are never read.
    """
    # Whole blocks of 8 options (within the buffers): vector code without a scalar tail. The extra scores
    # come from stale columns and are never read.
    width = min((n_opt + 7) & ~7, scores.shape[0], features.shape[1])
    if width == 8:
        _eight_scores(weights, strat, decision, features, rows, scores)
        return
    for i in range(width):
        scores[i] = 0.0
    for k in range(1, 1 + rows[decision, 0]):
        f = rows[decision, k]
        w = weights[strat, decision, f]
        if w != 0.0:
            for i in range(width):
                scores[i] += w * features[f, i]


@kernel(inline="always")
def _eight_scores(weights: np.ndarray, strat: int, decision: int, features: np.ndarray, rows: np.ndarray,
                  scores: np.ndarray) -> None:
    """``weighed_scores`` for at most eight options (most decisions: Bus's planning has eight): the eight sums
    stay in registers instead of being loaded and stored once per row. The same products added in the same
    order: the same scores, bit for bit."""
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    for k in range(1, 1 + rows[decision, 0]):
        f = rows[decision, k]
        w = weights[strat, decision, f]
        if w != 0.0:
            s0 += w * features[f, 0]
            s1 += w * features[f, 1]
            s2 += w * features[f, 2]
            s3 += w * features[f, 3]
            s4 += w * features[f, 4]
            s5 += w * features[f, 5]
            s6 += w * features[f, 6]
            s7 += w * features[f, 7]
    scores[0] = s0
    scores[1] = s1
    scores[2] = s2
    scores[3] = s3
    scores[4] = s4
    scores[5] = s5
    scores[6] = s6
    scores[7] = s7


@kernel(inline="always")
def choose(st, strat: int, decision: int, n_opt: int) -> int:
    """The decision choke point: the index of the option that strategy ``strat`` picks among options
    0..n_opt-1 of ``decision``.

    ``st`` is any state with the common fields (sim/core/state.py): the strategy table (``kind``,
    ``params``, ``weights``), the option buffers (``features``: n_features x options; ``scores``: scratch of
    at least n_opt floats), the rows each decision's strategies weigh (``weighed``) and the game's generator
    (``rng``). Only those rows are scored: a feature the decision does not fill weighs 0 for it (the registry
    refuses such weights) and zero weights are skipped, so a stale value is never read and the pick is the
    same as over all features. Inlined into every decision site, like weighed_scores.
    """
    kind = st.kind
    params = st.params
    rng = st.rng
    scores = st.scores
    if n_opt <= 1:
        return 0
    if kind[strat] == POLICY_RANDOM or (params[strat, P_EPSILON] > 0.0 and uniform(rng) < params[strat, P_EPSILON]):
        return randint(rng, n_opt)
    temperature = params[strat, P_TEMPERATURE]
    weighed_scores(st.weights, strat, decision, st.features, st.weighed, n_opt, scores)
    best_score = -np.inf
    for i in range(n_opt):
        best_score = max(best_score, scores[i])
    if temperature > 0.0:
        return softmax_pick(scores, n_opt, best_score, temperature, rng)
    return tied_pick(scores, n_opt, best_score - TIE, rng)


@kernel(inline="always")
def tied_pick(scores: np.ndarray, n_opt: int, floor: float, rng: np.ndarray) -> int:
    """A uniformly random one of the options scoring at least ``floor`` (the best score less TIE): one
    random draw, and only when there is a tie (the many-way ties of options alike are common: storm
    placements, equivalent moves)."""
    ties = 0
    first = 0
    for i in range(n_opt):  # counted without branches: which options tie is unpredictable
        tie = scores[i] >= floor
        first = i if tie and ties == 0 else first
        ties += tie
    if ties == 1:
        return first
    r = randint(rng, ties)
    for i in range(first, n_opt):
        if scores[i] >= floor:
            if r == 0:
                return i
            r -= 1
    return first  # not reached (r < ties); numba needs a return on every path


@kernel
def softmax_pick(scores: np.ndarray, n_opt: int, best_score: float, temperature: float, rng: np.ndarray) -> int:
    """Sample option i with probability proportional to exp(scores[i] / temperature) (``choose`` with a
    temperature; a call, not inlined: the greedy strategies keep only the short greedy code in every decision).
    Each option's exp is taken once and kept in ``scores`` (scratch) for the second pass: the same sums, the
    same pick."""
    total = 0.0
    for i in range(n_opt):
        e = np.exp((scores[i] - best_score) / temperature)
        scores[i] = e
        total += e
    target = uniform(rng) * total
    acc = 0.0
    for i in range(n_opt):
        acc += scores[i]
        if acc >= target:
            return i
    return n_opt - 1
