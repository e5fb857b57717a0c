"""A study: which game, rules variant, player count and strategy seating; validated before anything runs."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.rules import apply_overrides, rules_dict
from sim.core.spec import GameSpec, get_game
from sim.core.policy import StrategyTable


@dataclass(frozen=True)
class Study:
    """Everything that determines a run's logs, bit for bit."""

    game: str
    n_players: int
    n_games: int
    lineup: tuple[str, ...]
    rotate: bool
    seed: int
    rules: Any
    chunk_size: int

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    def strategy_names(self) -> list[str]:
        """The distinct strategies of the lineup, in first-seen order: the rows of the strategy table."""
        return list(dict.fromkeys(self.lineup))

    def table(self) -> StrategyTable:
        return self.spec.strategies.table(self.strategy_names())

    def seats(self, first_index: int, n_games: int) -> np.ndarray:
        """Strategy-table row per (game, seat).

        Without ``rotate`` every game seats the lineup as given. With ``rotate`` game i seats lineup
        entries i, i+1, ... (mod the lineup's length): each strategy plays each seat equally often, and a
        lineup longer than the player count is a pool from which every game seats a different selection.
        """
        rows = np.array([self.strategy_names().index(s) for s in self.lineup], dtype=np.int64)
        idx = np.arange(first_index, first_index + n_games, dtype=np.int64)[:, None]
        shift = idx % len(rows) if self.rotate else np.zeros_like(idx)
        return rows[(np.arange(self.n_players)[None, :] + shift) % len(rows)]

    def n_parts(self) -> int:
        return -(-self.n_games // self.chunk_size)

    def part_range(self, part: int) -> tuple[int, int]:
        """(first game index, number of games) of part ``part``."""
        first = part * self.chunk_size
        return first, min(self.chunk_size, self.n_games - first)

    def config(self) -> dict[str, Any]:
        """The manifest's description of the study (what must match for a resume)."""
        spec = self.spec
        return {
            "game": self.game,
            "title": spec.title,
            "n_players": self.n_players,
            "n_games": self.n_games,
            "strategies": list(self.lineup),
            "strategy_definitions": {
                n: dataclasses.asdict(spec.strategies.get(n)) for n in self.strategy_names()
            },
            "rotate": self.rotate,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "rules": rules_dict(self.rules),
        }

    def run_id(self) -> str:
        digest = hashlib.sha256(json.dumps(self.config(), sort_keys=True).encode()).hexdigest()[:8]
        return f"{self.game}-{self.n_players}p-{self.n_games}g-seed{self.seed}-{digest}"


def plan_study(
    game: str,
    players: int,
    games: int,
    strategies: Sequence[str] | None = None,
    rotate: bool = False,
    seed: int = 0,
    overrides: Sequence[str] = (),
    chunk_size: int | None = None,
) -> Study:
    """Validate the user's choices and return the study they describe."""
    spec = get_game(game)
    spec.check_players(players)
    if games < 1:
        raise PlaytestError(f"--games must be at least 1, not {games}")
    if not 0 <= seed < 2**63:
        raise PlaytestError(f"--seed must be an integer from 0 to 2**63-1, not {seed}")
    names = list(strategies) if strategies else _default_lineup(spec.default_lineup, players, rotate)
    for name in names:
        spec.strategies.get(name)
    if len(names) == 1:
        names = names * players
    elif len(names) < players or (len(names) > players and not rotate):
        raise PlaytestError(
            f"--strategies lists {len(names)} strategies for {players} players; give one per seat, a single "
            f"name for all seats, or (with --rotate) a longer pool to draw each game's seats from"
        )
    rules = apply_overrides(spec.rules_type(), overrides, game)
    spec.validate(rules, players)
    size = chunk_size or spec.chunk_size
    if size < 1:
        raise PlaytestError(f"chunk size must be at least 1, not {size}")
    return Study(game, players, games, tuple(names), rotate, seed, rules, size)


def _default_lineup(pool: Sequence[str], players: int, rotate: bool) -> list[str]:
    """The game's default pool when rotating (if it covers every seat); else the first names, cycled."""
    if rotate and len(pool) >= players:
        return list(pool)
    return [pool[s % len(pool)] for s in range(players)]
