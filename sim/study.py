"""A study: which game, rules variant, player count and strategy seating; validated before anything runs.

Seating designs (who sits where in game i) depend only on (seed, game index), never on chunking:

- ``random``: each game seats a uniformly random ordered selection of the pool. Seat and strategy
  separate, and so do neighbours and the order in which two strategies play.
- ``all``: every ordered selection of the pool is played equally often (blocks of all orderings, each
  block in a random order); for pools with too many orderings, blocks of rotations of random orderings.
- ``fixed``: the lineup as given in every game (seat and strategy cannot be told apart when it mixes
  strategies).
- ``mixture``: a population (sim/population.py): every seat draws its strategy from the mixture's weights,
  independently, from (seed, game index, seat); with a focal strategy, that one takes one seat drawn
  uniformly per game and the others draw from the mixture (a best response or a probe against it).

Cyclic rotation alone (the former ``--rotate``) keeps every strategy next to the same neighbours, so
``--rotate`` now means ``random``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.rules import apply_overrides, rules_dict
from sim.core.spec import GameSpec, get_game
from sim.core.policy import RolloutStrategy, StrategyTable, definition


@dataclass(frozen=True)
class Mixture:
    """How a ``mixture`` study draws its seats: one weight per lineup entry (summing to 1), whether the
    first entry is a focal strategy (weight 0, one uniformly drawn seat per game), and the population's
    record (members, weights and, if measured, exploitability) that the manifest keeps."""

    weights: tuple[float, ...]
    focal: bool = False
    record: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def config(self, lineup: Sequence[str]) -> dict[str, Any]:
        """The manifest's ``population`` entry: members and weights as played (after any A/B swap)."""
        members = list(lineup[1:] if self.focal else lineup)
        weights = list(self.weights[1:] if self.focal else self.weights)
        extra = {k: v for k, v in self.record.items() if k not in ("members", "weights")}
        return {"members": members, "weights": weights, **({"focal": lineup[0]} if self.focal else {}), **extra}


@dataclass(frozen=True)
class Study:
    """Everything that determines a run's logs, bit for bit."""

    game: str
    n_players: int
    n_games: int
    lineup: tuple[str, ...]
    seating: str
    seed: int
    rules: Any
    chunk_size: int
    overrides: tuple[str, ...] = ()
    """The --set arguments that made ``rules`` (recorded so a report can print a replay command)."""
    mixture: Mixture | None = None
    """With ``seating == "mixture"``: the weights each seat draws its strategy with."""

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    def strategy_names(self) -> list[str]:
        """The distinct strategies of the lineup, in first-seen order: the rows of the strategy table."""
        return list(dict.fromkeys(self.lineup))

    def table(self) -> StrategyTable:
        return self.spec.strategies.table(self.strategy_names())

    def seats(self, first_index: int, n_games: int) -> np.ndarray:
        """Strategy-table row per (game, seat) for games first_index .. first_index+n_games-1."""
        rows = np.array([self.strategy_names().index(s) for s in self.lineup], dtype=np.int64)
        idx = np.arange(first_index, first_index + n_games, dtype=np.int64)
        if self.seating == "fixed":
            order = np.broadcast_to(np.arange(self.n_players), (n_games, self.n_players))
        elif self.seating == "mixture":
            order = mixture_orders(self.seed, idx, self.mixture.weights, self.n_players, self.mixture.focal)
        elif self.seating == "random":
            order = random_orders(self.seed, idx, len(rows), self.n_players)
        else:
            order = balanced_orders(self.seed, idx, len(rows), self.n_players)
        return rows[order]

    def n_parts(self) -> int:
        return -(-self.n_games // self.chunk_size)

    def part_range(self, part: int) -> tuple[int, int]:
        """(first game index, number of games) of part ``part``."""
        first = part * self.chunk_size
        return first, min(self.chunk_size, self.n_games - first)

    def config(self) -> dict[str, Any]:
        """The manifest's description of the study (what must match for a resume)."""
        spec = self.spec
        population = {"population": self.mixture.config(self.lineup)} if self.mixture else {}
        return {
            "game": self.game,
            "title": spec.title,
            "n_players": self.n_players,
            "n_games": self.n_games,
            "strategies": list(self.lineup),
            "strategy_definitions": {
                n: definition(spec.strategies.get(n)) for n in self.strategy_names()
            },
            "seating": self.seating,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "rules": rules_dict(self.rules),
            **population,
        }

    def run_id(self) -> str:
        digest = hashlib.sha256(json.dumps(self.config(), sort_keys=True).encode()).hexdigest()[:8]
        return f"{self.game}-{self.n_players}p-{self.n_games}g-seed{self.seed}-{digest}"


SEATINGS = ("random", "all", "fixed")
MIXTURE = "mixture"
"""The seating of a population study (not a --seating choice: --population sets it)."""
ROLLOUT_CHUNK = 50
"""Default games per part when a strategy is a rollout (each game costs thousands of playouts)."""
MAX_GAMES = 10**10
"""Most games one run may hold: ten thousand million-game coffee breaks, far inside int64 game indices."""
MAX_PARTS = 1_000_000
"""Most part files one run may hold (the runner lists them all)."""
ALL_ORDERS_LIMIT = 40_320
"""Largest number of ordered selections ``all`` enumerates (8!); larger pools use blocks of rotations."""
_SALT = np.uint64(0x5EA7_1A6E_D00D_F00D)
"""Mixed into the seating keys so seats draw on a stream of their own, apart from the game's RNG."""
_MIXTURE_SALT = 0x3A7_0F_C0DE
_FOCAL_SALT = 0xF0CA1
"""XORed into the seed for the mixture's draws and the focal seat's, streams apart from the seating keys."""


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser over uint64 arrays (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def _keys(seed: int, index: np.ndarray, width: int) -> np.ndarray:
    """64 random bits per (index, column), a pure function of (seed, index, column)."""
    with np.errstate(over="ignore"):
        base = _mix(_mix(np.uint64(seed) ^ _SALT) ^ _mix(index.astype(np.uint64) * np.uint64(0xBF58476D1CE4E5B9)))
        return _mix(base[:, None] + np.arange(1, width + 1, dtype=np.uint64)[None, :])


def random_orders(seed: int, index: np.ndarray, pool: int, players: int) -> np.ndarray:
    """Per game, the pool positions seated in each seat: a uniformly random ordered selection."""
    return np.argsort(_keys(seed, index, pool), axis=1, kind="stable")[:, :players]


def mixture_orders(seed: int, index: np.ndarray, weights: Sequence[float], players: int,
                   focal: bool = False) -> np.ndarray:
    """Per game, the lineup position playing each seat: each seat draws from ``weights`` on its own key of
    (seed, game index, seat); with ``focal``, position 0 then takes one seat drawn uniformly per game."""
    cum = np.cumsum(np.asarray(weights, np.float64))
    u = (_keys(seed ^ _MIXTURE_SALT, index, players) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    last = int(np.flatnonzero(np.asarray(weights) > 0)[-1])
    order = np.minimum(np.searchsorted(cum / cum[-1], u, side="right"), last)
    if focal:
        seat = (_keys(seed ^ _FOCAL_SALT, index, 1)[:, 0] % np.uint64(players)).astype(np.int64)
        order[np.arange(len(index)), seat] = 0
    return order.astype(np.int64)


def balanced_orders(seed: int, index: np.ndarray, pool: int, players: int) -> np.ndarray:
    """Every ordered selection equally often: block b of games plays all of them in a random order.

    With more than ALL_ORDERS_LIMIT orderings a block is the ``pool`` rotations of one random ordering:
    each strategy takes each seat once per block and neighbours change from block to block.
    """
    n_orders = math.perm(pool, players)
    if n_orders <= ALL_ORDERS_LIMIT:
        orders = np.array(list(itertools.permutations(range(pool), players)), dtype=np.int64)
        block, pos = np.divmod(index, n_orders)
        return orders[_block_positions(seed, block, pos, n_orders)]
    block, pos = np.divmod(index, pool)
    base = random_orders(seed, block, pool, pool)
    return np.take_along_axis(base, (pos[:, None] + np.arange(players)[None, :]) % pool, axis=1)


def _block_positions(seed: int, block: np.ndarray, pos: np.ndarray, size: int) -> np.ndarray:
    """Position ``pos`` of a random permutation of range(size) drawn for each block."""
    blocks, which = np.unique(block, return_inverse=True)
    perms = np.argsort(_keys(seed ^ 0x0B10C, blocks, size), axis=1, kind="stable")
    return perms[which, pos]


def plan_study(
    game: str,
    players: int,
    games: int,
    strategies: Sequence[str] | None = None,
    rotate: bool = False,
    seed: int = 0,
    overrides: Sequence[str] = (),
    chunk_size: int | None = None,
    seating: str | None = None,
    mixture: Mixture | None = None,
) -> Study:
    """Validate the user's choices and return the study they describe.

    ``seating`` defaults to ``random`` when the seats hold different strategies (``rotate`` is its old
    name) and to ``fixed`` for a mirror match. A ``mixture`` (one weight per strategy) makes it a
    population study: seating ``mixture``.
    """
    spec = get_game(game)
    spec.check_players(players)
    if not 1 <= games <= MAX_GAMES:
        raise PlaytestError(f"--games must be from 1 to {MAX_GAMES:,}, not {games:,}; split a larger study into "
                            "runs with different --seed")
    if not 0 <= seed < 2**63:
        raise PlaytestError(f"--seed must be an integer from 0 to 2**63-1, not {seed}")
    if seating is not None and seating not in (*SEATINGS, MIXTURE):
        raise PlaytestError(f"unknown seating '{seating}'; use one of {', '.join(SEATINGS)}")
    if rotate and seating not in (None, "random"):
        raise PlaytestError(f"--rotate means --seating random; drop --rotate or --seating {seating}")
    names = list(strategies) if strategies else _default_lineup(spec.default_lineup, players, seating != "fixed")
    for name in names:
        spec.strategies.get(name)
    if mixture is not None:
        _check_mixture(names, mixture, seating, rotate)
        seating = MIXTURE
    elif seating == MIXTURE:
        raise PlaytestError("seating 'mixture' needs a population; pass --population FILE")
    elif len(names) == 1:
        names = names * players
    elif len(names) < players or (len(names) > players and seating == "fixed"):
        raise PlaytestError(
            f"--strategies lists {len(names)} strategies for {players} players; give one per seat, a single "
            f"name for all seats, or (with --seating random or all) a longer pool to draw each game's seats from"
        )
    if seating is None:
        seating = "random" if rotate or len(set(names)) > 1 else "fixed"
    rules = apply_overrides(spec.rules_type(), overrides, game)
    spec.validate(rules, players)
    rollout = any(isinstance(spec.strategies.get(n), RolloutStrategy) for n in names)
    size = chunk_size or (ROLLOUT_CHUNK if rollout else spec.chunk_size)
    if size < 1:
        raise PlaytestError(f"chunk size must be at least 1, not {size}")
    if -(-games // size) > MAX_PARTS:
        raise PlaytestError(f"--games {games:,} in parts of {size:,} makes more than {MAX_PARTS:,} part files; "
                            f"raise --chunk-size to at least {-(-games // MAX_PARTS):,}")
    return Study(game, players, games, tuple(names), seating, seed, rules, size, tuple(overrides), mixture)


def _check_mixture(names: Sequence[str], mixture: Mixture, seating: str | None, rotate: bool) -> None:
    """A population's lineup: distinct names, one weight each, and no other seating asked for."""
    if seating not in (None, MIXTURE) or rotate:
        raise PlaytestError("a population draws every seat from its mixture; drop --seating/--rotate or --population")
    if len(set(names)) < len(names):
        raise PlaytestError(f"a population names a strategy twice ({', '.join(names)}); list each member once")
    if len(mixture.weights) != len(names):
        raise PlaytestError(f"a population gives {len(mixture.weights)} weights for {len(names)} strategies; "
                            "give one weight per strategy")
    if not any(w > 0 for w in mixture.weights):
        raise PlaytestError("a population's weights are all 0; give at least one member a positive weight")


def known_strategies(game: str, players: int, names: Sequence[str], flag: str, example: str) -> list[str]:
    """The named strategies of ``game`` (checked, with the player count), refusing an empty list for ``flag``."""
    spec = get_game(game)
    spec.check_players(players)
    found = [spec.strategies.get(s).name for s in names]
    if not found:
        raise PlaytestError(f"{flag} names no strategy; give them comma-separated, e.g. {flag} {example}")
    return found


def _default_lineup(pool: Sequence[str], players: int, pooled: bool) -> list[str]:
    """The game's default pool (if it covers every seat) unless seats are fixed; else the first names, cycled."""
    if pooled and len(pool) >= players:
        return list(pool)
    return [pool[s % len(pool)] for s in range(players)]
