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


LISTED_MEMBERS = 12
"""A mixture of more playing members than this names only those of 1% or more and sums the rest: a 59-member
Bus population listed in full buried the sentence it stood in."""


def _weights_text(population: Mapping[str, Any]) -> str:
    """'a 41%, b 0.2%': whole percents, one decimal below 1% so that a member that plays never reads 0%; past
    LISTED_MEMBERS playing members, those under 1% are one clause ('and 30 members under 1% each, 4.3% in all')."""
    playing = [(m, w) for m, w in zip(population["members"], population["weights"]) if w > 0]
    small = [w for _, w in playing if w < 0.01] if len(playing) > LISTED_MEMBERS else []
    named = [f"{m} {w:.0%}" if w >= 0.01 else f"{m} {w:.1%}" for m, w in playing if not small or w >= 0.01]
    rest = [f"and {len(small)} members under 1% each, {sum(small):.1%} in all"] if small else []
    return ", ".join(named + rest)


def tuned_measures(population: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The tuned probes' gains: the hardening's own, then each fresh-seed re-measure (`playtest exploit`)."""
    return [m for m in (population.get("exploitability"), *population.get("remeasures", [])) if m]


def largest_measure(population: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The tuned probe that gained most (None if none measured): the population's stated exploitability."""
    return max(tuned_measures(population), key=lambda m: m["points"], default=None)


def exploitability_clause(population: Mapping[str, Any]) -> str:
    """'exploitability +X pts [lo, hi] by PROBE; the rollout probe P gains +Y [lo, hi]': each probe's own gain, so
    a reader sees which one bounds it (a tuned best response and a rollout player can differ by tens of points).
    With re-measures on fresh seeds, X is the largest tuned gain and the others are listed beside it: one search's
    interval does not cover the luck of the search."""
    e, measures = largest_measure(population), tuned_measures(population)
    if not e:
        return "exploitability not measured"
    text = f"exploitability {e['points']:+.1f} pts [{e['lo']:+.1f}, {e['hi']:+.1f}]"
    text += f" by {e['probe']}" if e.get("probe") else ""
    if len(measures) > 1:
        gains = ", ".join(f"{m['points']:+.1f}" for m in measures)
        text += f" (the largest of {len(measures)} tuned measurements: {gains})"
    probe = population.get("rollout_probe")
    if probe:
        who = " ".join(x for x in ("the rollout probe", probe.get("player")) if x)
        text += f"; {who} gains {probe['points']:+.1f} [{probe['lo']:+.1f}, {probe['hi']:+.1f}]"
    return text


def population_phrase(population: Mapping[str, Any]) -> str:
    """'hardened population (members; exploitability ...)' or a population without a measure."""
    members = _weights_text(population)
    if not population.get("exploitability"):
        return f"population {members} (exploitability not measured)"
    return f"hardened population ({members}; {exploitability_clause(population)})"


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
