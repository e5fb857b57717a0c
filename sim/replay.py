"""Replaying a logged game from its run directory: the study exactly as the manifest records it (players,
strategies as they were defined, seating, seed, rules, population), and game i traced again.

A replay built from the manifest cannot disagree with the log through a mistyped flag; it can only differ if the
kernels changed since the run, which ``provenance_note`` says (the manifest's source digest and dirty flag).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Mapping

from sim.core.errors import PlaytestError
from sim.core.policy import ROLLOUT, strategy_from_json
from sim.core.spec import Traced, get_game
from sim.logs import MANIFEST, read_manifest
from sim.runner import kernel_digest
from sim.study import Mixture, Study, plan_study


def recorded_study(manifest: Mapping[str, Any], where: str = "the manifest") -> Study:
    """The study a manifest records; its strategy definitions are registered (replacing same-named ones) so the
    strategies play as they did in the run."""
    try:
        spec = get_game(manifest["game"])
        definitions = manifest.get("strategy_definitions", {}).values()
        for item in sorted(definitions, key=lambda d: d.get("kind") == ROLLOUT):  # a rollout's base first
            spec.strategies.register(strategy_from_json(dict(item)))
        population = manifest.get("population")
        mixture = None
        if population:
            focal = "focal" in population
            mixture = Mixture((*([0.0] if focal else []), *population["weights"]), focal, population)
        study = plan_study(manifest["game"], int(manifest["n_players"]), int(manifest["n_games"]),
                           list(manifest["strategies"]), seed=int(manifest["seed"]),
                           chunk_size=int(manifest["chunk_size"]),
                           seating=None if mixture else manifest["seating"], mixture=mixture)
        rules = spec.rules_type(**manifest["rules"])
    except (KeyError, TypeError, ValueError) as exc:
        raise PlaytestError(f"{where} does not describe a replayable run ({type(exc).__name__}: {exc}); replay with "
                            "the version that wrote it, or with `playtest replay GAME --players N ...` flags") from None
    spec.validate(rules, study.n_players)
    return dataclasses.replace(study, rules=rules, overrides=tuple(manifest.get("overrides") or ()))


def run_manifest(run_dir: str | Path) -> dict[str, Any]:
    """The manifest of a run directory (one line naming the problem if there is none)."""
    manifest = read_manifest(Path(run_dir))
    if manifest is None:
        raise PlaytestError(f"{Path(run_dir) / MANIFEST} not found; point at a run directory written by `playtest run`")
    return manifest


def trace_logged(run_dir: str | Path, game_index: int) -> Traced:
    """Game ``game_index`` of the run in ``run_dir``, played again in trace mode from the manifest alone."""
    manifest = run_manifest(run_dir)
    study = recorded_study(manifest, str(Path(run_dir) / MANIFEST))
    if not 0 <= game_index < study.n_games:
        raise PlaytestError(f"--game-index {game_index} is not a game of {run_dir} (it holds games 0 to "
                            f"{study.n_games - 1}); pick one of those")
    seat_row = study.seats(game_index, 1)[0]
    return study.spec.trace(study.rules, study.n_players, seat_row, game_index, study.seed, study.table(),
                            study.strategy_names())


def provenance_note(manifest: Mapping[str, Any]) -> str | None:
    """Why a replay may differ from the log (other kernels, or a run from a dirty tree), or None."""
    recorded = manifest.get("source_digest")
    if recorded is None:
        return "this run predates source digests: if the kernels changed since, the replay may differ from the log"
    if recorded != kernel_digest(manifest["game"]):
        return (f"the kernels changed since this run (source digest {recorded}, now {kernel_digest(manifest['game'])}"
                f"{', run from a dirty tree' if manifest.get('git_dirty') else ''}): the replay may differ from the "
                f"log; check out commit {manifest.get('git_commit')} to replay it exactly")
    return None
