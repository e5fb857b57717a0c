"""Strength ladders (`playtest ladder`): one study per strength level, from the base strategies (0 playouts)
up through flat Monte Carlo over them (every seat ``BASE+mcK``).

Every level plays the same game indices with the same seed and seating, so the levels differ only in how
well the seats play. Each level is an ordinary run (logged, resumable) under ``OUT/playouts-K``;
analysis/ladder.py reads them back. With ``--until-ci`` every level grows together, part by part, until the
widest level-to-level interval of the chosen metric is narrow enough (``ladder.json`` records how it stopped).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Sequence

from sim.core.errors import PlaytestError, writable_dir
from sim.logs import write_json
from sim.runner import execute, first_size, games_held, grow_until, one_writer
from sim.study import Mixture, plan_study

LEVEL_PREFIX = "playouts-"
LADDER_MANIFEST = "ladder.json"


def parse_levels(text: str) -> list[int]:
    """'0,4,16' -> [0, 4, 16]: whole numbers of playouts, at least 0, each once."""
    try:
        levels = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise PlaytestError(f"'{text}' is not a comma-separated list of whole numbers of playouts (e.g. 0,4,16)") from None
    if not levels:
        raise PlaytestError("no strength level given; pass playouts per level, e.g. 0,4,16")
    if min(levels) < 0:
        raise PlaytestError(f"playouts must be 0 (the base strategies) or more, not {min(levels)}")
    if len(set(levels)) < len(levels):
        raise PlaytestError(f"'{text}' repeats a level; give each number of playouts once")
    return sorted(levels)


def level_lineup(bases: Sequence[str], playouts: int) -> list[str]:
    """The lineup of a level: the bases at 0 playouts, else every base as a rollout over it."""
    return [b if playouts == 0 else f"{b}+mc{playouts}" for b in bases]


def level_dir(root: Path, playouts: int) -> Path:
    return root / f"{LEVEL_PREFIX}{playouts}"


def level_mixture(mixture: Mixture | None, playouts: int) -> Mixture | None:
    """A population's draw at a level: the same weights; above 0 playouts its record says the seats roll out."""
    if mixture is None or playouts == 0:
        return mixture
    return replace(mixture, record={**mixture.record, "playouts": playouts})


def run_ladder(game: str, players: int, bases: Sequence[str], levels: Sequence[int], games: int, *, seed: int = 0,
               out: str | Path | None = None, overrides: Sequence[str] = (),
               until: tuple[float, Callable[[Path], float], dict[str, Any]] | None = None, min_games: int = 1_000,
               mixture: Mixture | None = None, **kw: Any) -> Path:
    """Plan every level (refusing bad input before anything runs), then run them weakest first; return the
    ladder's directory. ``until`` = (target, width_of(ladder_dir), note): sequential stopping, every level
    growing together (``games`` is the cap, the first step at least ``min_games``) until ``width_of`` is
    narrower than the target. Re-running with more games extends every level, with or without ``until``. With a
    ``mixture`` (a population) every seat draws its base from it, the same draw at every level. ``kw`` passes jobs,
    backend, scheduler, progress and chunk_size to ``execute``."""
    if not levels:
        raise PlaytestError("no strength level given; pass playouts per level, e.g. 0,4,16")
    chunk = kw.pop("chunk_size", None)
    studies = [plan_study(game, players, games, level_lineup(bases, k), False, seed, overrides, chunk,
                          mixture=level_mixture(mixture, k)) for k in levels]
    root = Path(out) if out else Path("runs") / f"ladder-{studies[0].run_id()}-{'-'.join(map(str, levels))}"

    def play(n: int) -> None:  # a level holding fewer games (a ladder grown by --until-ci) is extended
        for k, study in zip(levels, studies):
            execute(replace(study, n_games=n), level_dir(root, k), grow=True, **kw)

    if until is None:
        play(games)
        return root
    target, width_of, note = until
    writable_dir(root)
    with one_writer(root):
        held = max(games_held(level_dir(root, k), study) for k, study in zip(levels, studies))
        fine = min(studies, key=lambda s: s.chunk_size)  # steps of the rollout levels' parts, not the bases' big ones
        start = max(held, first_size(fine, min_games))
        stopped = grow_until(play, lambda: width_of(root), target, fine.chunk_size, games, start)
        write_json(root / LADDER_MANIFEST, {"levels": list(levels), "until_ci": {**note, **stopped}})
    return root


def read_ladder_manifest(root: str | Path) -> dict[str, Any]:
    """The ladder's own record (how --until-ci stopped), or {} for a fixed-size ladder."""
    path = Path(root) / LADDER_MANIFEST
    return json.loads(path.read_text()) if path.is_file() else {}


def ladder_levels(root: str | Path) -> list[tuple[int, Path]]:
    """(playouts, run directory) of each level found under a ladder directory, weakest first."""
    root = Path(root)
    found = []
    for path in root.glob(f"{LEVEL_PREFIX}*"):
        suffix = path.name[len(LEVEL_PREFIX):]
        if path.is_dir() and suffix.isdigit():
            found.append((int(suffix), path))
    if not found:
        raise PlaytestError(f"{root} holds no ladder levels ({LEVEL_PREFIX}K directories); run `playtest ladder` first")
    return sorted(found)
