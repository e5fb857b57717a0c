"""Which players a report's findings describe, in one phrase: the heuristic pool, a hardened population (with
its exploitability), or rollouts over what. Read from a run's manifest only."""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from sim.core.errors import PlaytestError
from sim.core.policy import SHORT_ROLLOUT


def base_name(strategy: str) -> str:
    """'expander+mc16' -> 'expander' (a base's own name is unchanged)."""
    m = SHORT_ROLLOUT.match(strategy)
    return m["base"] if m else strategy


def _weights_text(population: Mapping[str, Any]) -> str:
    return ", ".join(f"{m} {w:.0%}" for m, w in zip(population["members"], population["weights"]) if w > 0)


def population_phrase(population: Mapping[str, Any]) -> str:
    """'hardened population (exploitability +X pts [lo, hi]; members)' or a population without a measure."""
    e = population.get("exploitability")
    members = _weights_text(population)
    if not e:
        return f"population {members} (exploitability not measured)"
    return (f"hardened population ({members}; exploitability {e['points']:+.1f} pts [{e['lo']:+.1f}, {e['hi']:+.1f}]: "
            f"no best response we found gains more than {e.get('bound_pts', e['hi']):.1f} pts)")


def players_phrase(manifest: Mapping[str, Any]) -> str:
    """The players of one run: a population, rollouts over bases, or a pool of named strategies."""
    defs = manifest.get("strategy_definitions") or {}
    population = manifest.get("population")
    if population:
        focal = population.get("focal")
        text = population_phrase(population)
        if population.get("playouts"):  # a ladder level: every seat rolls out over the base it drew
            bases = {**population, "members": [base_name(m) for m in population["members"]]}
            text = f"rollouts over the {population_phrase(bases)} ({population['playouts']} playouts)"
        return f"{focal} in one seat against the {text}" if focal else text
    names = list(dict.fromkeys(str(s) for s in manifest.get("strategies", [])))
    rollouts = {n: d for n, d in defs.items() if d.get("kind") == "rollout"}
    if rollouts:
        bases = ", ".join(dict.fromkeys(d["base"] for d in rollouts.values()))
        playouts = "/".join(str(k) for k in sorted({int(d["playouts"]) for d in rollouts.values()}))
        others = [n for n in names if n not in rollouts]
        return f"rollouts over {bases} ({playouts} playouts)" + (f" with {', '.join(others)}" if others else "")
    own = _heuristics(manifest)
    heuristics = [n for n in names if n in own]
    others = [n for n in names if n not in own]
    pool = f"heuristic pool ({', '.join(heuristics)})"
    if not others:
        return pool
    return f"{', '.join(others)} against the {pool}" if heuristics else \
        f"strategies {', '.join(others)} (not the game's own heuristics)"


def _heuristics(manifest: Mapping[str, Any]) -> set[str]:
    """The game's own named strategies that played as shipped (a tuned or edited copy is not one)."""
    from sim.core.spec import get_game

    defs = manifest.get("strategy_definitions") or {}
    try:
        shipped = {s.name: dataclasses.asdict(s) for s in get_game(str(manifest.get("game"))).strategy_list}
    except PlaytestError:
        return set()
    return {n for n, d in shipped.items() if defs.get(n, d) == d}

def runs_phrase(manifests: list[Mapping[str, Any]]) -> str:
    """The players of several runs: one phrase if they agree, else one per run."""
    phrases = list(dict.fromkeys(players_phrase(m) for m in manifests))
    return phrases[0] if len(phrases) == 1 else "; ".join(phrases)
