"""Populations as data: a set of strategies and the mixture weights with which every seat draws one of them.

A population file is one JSON object (``playtest harden`` writes one; ``--population FILE`` reads it):

    {"game": "bus", "players": 4,
     "strategies": ["balanced", {"name": "br1", "kind": "weights", "weights": {...}}, ...],
     "weights": [0.4, 0.6],
     "exploitability": {...}}

``strategies`` holds names of the game's strategies or full definitions (as ``--strategy-file`` takes);
``weights`` one non-negative weight per strategy, summing to 1. ``game`` and ``players`` are checked when
present; every other field (``exploitability``, ``rollout_probe``) is the population's record, kept in the
manifest of every run that plays it.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from sim.core.errors import PlaytestError
from sim.core.policy import strategy_from_json
from sim.core.spec import get_game
from sim.study import Mixture

SUM_TOLERANCE = 1e-6
"""How far the weights may sum from 1 (rounding in a hand-written file)."""
FORMAT = ('a JSON object {"strategies": [names or definitions], "weights": [one per strategy, summing to 1]}; '
          "see docs/strength.md")


@dataclass(frozen=True)
class Population:
    """Members (registered strategy names), their weights and the file's record."""

    members: tuple[str, ...]
    weights: tuple[float, ...]
    record: Mapping[str, Any] = field(default_factory=dict, compare=False)
    players: int | None = None
    """The number of players the file says it was made for (None: it does not say)."""

    def lineup(self, focal: str | None = None) -> list[str]:
        """The study lineup: the members, after the focal strategy if there is one."""
        return [*([focal] if focal else []), *self.members]

    def mixture(self, focal: str | None = None) -> Mixture:
        """The seat draw of a study of this population (a focal strategy takes one seat, weight 0)."""
        record = {"members": list(self.members), "weights": list(self.weights), **self.record}
        return Mixture((*([0.0] if focal else []), *self.weights), focal is not None, record)

    def top(self) -> str:
        """The member with the largest weight (the first of a tie)."""
        return self.members[max(range(len(self.weights)), key=lambda i: (self.weights[i], -i))]


def check_weights(weights: Sequence[Any], n: int, where: str) -> tuple[float, ...]:
    """Weights as floats after checking count, sign and sum (one line naming the problem otherwise)."""
    if not isinstance(weights, list) or not all(isinstance(w, (int, float)) and not isinstance(w, bool)
                                                 for w in weights):
        raise PlaytestError(f"{where}: 'weights' must be a list of numbers; {FORMAT}")
    if len(weights) != n:
        raise PlaytestError(f"{where}: {len(weights)} weights for {n} strategies; give one weight per strategy")
    if any(not math.isfinite(w) or w < 0 for w in weights):
        bad = next(w for w in weights if not math.isfinite(w) or w < 0)
        raise PlaytestError(f"{where}: weight {bad} is negative or not finite; weights are probabilities (0 to 1)")
    total = float(sum(weights))
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise PlaytestError(f"{where}: the weights sum to {total:.6g}, not 1; scale them so they sum to 1")
    return tuple(float(w) for w in weights)


def load_population(game: str, path: str | Path, players: int | None = None) -> Population:
    """Read, check and register a population file for ``game``; nothing is written."""
    where = f"population file '{path}'"
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise PlaytestError(f"{where} not found; pass an existing JSON file (`playtest harden` writes one)") from None
    except (json.JSONDecodeError, UnicodeDecodeError, IsADirectoryError) as exc:
        raise PlaytestError(f"{where} is not valid JSON ({exc}); it must hold {FORMAT}") from None
    if not isinstance(data, dict) or not isinstance(data.get("strategies"), list) or not data["strategies"]:
        raise PlaytestError(f"{where} is malformed: it lacks a non-empty 'strategies' list; it must hold {FORMAT}")
    if data.get("game", game) != game:
        raise PlaytestError(f"{where} is a population for {data['game']}, not {game}; pass a {game} population")
    if players is not None and data.get("players", players) != players:
        raise PlaytestError(f"{where} was made for {data['players']} players, not {players}; pass --players "
                            f"{data['players']} or a population for {players} players")
    weights = check_weights(data.get("weights"), len(data["strategies"]), where)
    registry = get_game(game).strategies
    members = []
    for item in data["strategies"]:
        if isinstance(item, str):
            members.append(_known(registry, item, where))
        elif isinstance(item, dict):
            members.append(registry.register(strategy_from_json(item, where)).name)
        else:
            raise PlaytestError(f"{where}: {item!r} is neither a strategy name nor a definition; {FORMAT}")
    if len(set(members)) < len(members):
        raise PlaytestError(f"{where} names a strategy twice; list each member once (add their weights)")
    record = {k: v for k, v in data.items() if k not in ("strategies", "weights", "game", "players")}
    return Population(tuple(members), weights, record, data.get("players"))


def _known(registry, name: str, where: str) -> str:
    """A member given by name: the game must know it."""
    try:
        return registry.get(name).name
    except PlaytestError as exc:
        raise PlaytestError(f"{where}: {exc}") from None


def population_data(game: str, players: int, members: Sequence[str], weights: Sequence[float],
                    **record: Any) -> dict[str, Any]:
    """The JSON object of a population file: the game's own strategies by name, the others in full."""
    spec = get_game(game)
    builtin = {s.name: s for s in spec.strategy_list}
    items: list[Any] = []
    for name in members:
        s = spec.strategies.get(name)
        items.append(name if builtin.get(name) == s else dataclasses.asdict(s))
    return {"game": game, "players": players, "strategies": items, "weights": [float(w) for w in weights], **record}
