"""The on-disk log of a run: Parquet part files written atomically, and the manifest that lists them."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.errors import PlaytestError
from sim.core.spec import ChunkResult, GameSpec

MANIFEST = "manifest.json"
TABLES = ("games", "players")


def part_name(table: str, part: int) -> str:
    return f"{table}/part-{part:05d}.parquet"


def records_to_frames(
    spec: GameSpec, result: ChunkResult, first_index: int, seats: np.ndarray, names: list[str]
) -> dict[str, pd.DataFrame]:
    """Turn a kernel's integer records into the `games` and `players` tables (README.md, "What a run writes")."""
    n_games, n_players, _ = result.players.shape
    game_index = np.arange(first_index, first_index + n_games, dtype=np.int64)
    games: dict[str, Any] = {"game_index": game_index, "n_players": np.full(n_games, n_players, np.int32)}
    for j, col in enumerate(spec.game_columns):
        values = result.games[:, j]
        games[col.name] = (
            pd.Categorical.from_codes(values, categories=list(col.labels)).astype(str)
            if col.labels
            else values.astype(np.int32)
        )
    won = result.players[:, :, spec.player_col("won")]
    n_won = won.sum(axis=1, keepdims=True)
    win_share = np.divide(won, n_won, out=np.zeros(won.shape, np.float64), where=n_won > 0)
    players: dict[str, Any] = {
        "game_index": np.repeat(game_index, n_players),
        "seat": np.tile(np.arange(n_players, dtype=np.int32), n_games),
        "strategy": np.asarray(names, dtype=object)[seats.ravel()],
        "win_share": win_share.ravel(),
    }
    for j, col in enumerate(spec.player_columns):
        players[col.name] = result.players[:, :, j].ravel().astype(np.int32)
    return {"games": pd.DataFrame(games), "players": pd.DataFrame(players)}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


TMP_PREFIX = "."
"""Files being written carry a leading dot (``.part-00000.parquet.tmp``): Parquet dataset readers (pyarrow, pandas,
Polars, DuckDB globbing ``*.parquet``) skip them, so a run stopped mid-write never breaks a reader of ``games/``."""


def temporary(final: Path) -> Path:
    """Where ``final`` is written before its rename: a hidden ``.NAME.tmp`` beside it."""
    return final.with_name(f"{TMP_PREFIX}{final.name}.tmp")


@contextlib.contextmanager
def atomic_path(final: Path) -> Iterator[Path]:
    """Yield a temporary path to write; rename it to ``final`` on success, remove it on any failure (a full disk,
    Ctrl-C), so ``final`` is whole or as it was."""
    tmp = temporary(final)
    try:
        yield tmp
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)


def write_json(path: Path, doc: Any, indent: int = 2) -> None:
    """Write a JSON record atomically: a reader (or a killed writer's successor) never sees half of it."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(doc, indent=indent))


def remove_temporaries(run_dir: Path) -> None:
    """Remove what a killed writer left half-written (its lock holder is gone: call under the run's lock)."""
    for table in TABLES:
        for path in (run_dir / table).glob(f"{TMP_PREFIX}*.tmp"):
            path.unlink(missing_ok=True)
    for path in run_dir.glob("*.tmp"):
        path.unlink(missing_ok=True)


def write_part(run_dir: Path, part: int, frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """Write both tables of one part under temporary names, then rename: a part is whole or absent."""
    entry: dict[str, Any] = {}
    try:
        for table in TABLES:
            final = run_dir / part_name(table, part)
            final.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(final) as tmp:
                pq.write_table(pa.Table.from_pandas(frames[table], preserve_index=False), tmp)
            entry[table] = {"file": part_name(table, part), "rows": len(frames[table]), "sha256": sha256(final)}
    except BaseException:  # a games file without its players file is no part: remove it
        for table in entry:
            (run_dir / part_name(table, part)).unlink(missing_ok=True)
        raise
    return entry


def part_is_intact(run_dir: Path, entry: dict[str, Any]) -> bool:
    """True when every file of a manifest part entry exists and matches its checksum."""
    for table in TABLES:
        path = run_dir / entry[table]["file"]
        if not path.is_file() or sha256(path) != entry[table]["sha256"]:
            return False
    return True


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    """The run's manifest, checked for shape (``check_manifest``), or None when the directory holds no run yet."""
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError, IsADirectoryError):
        raise PlaytestError(
            f"{path} is not valid JSON (corrupt manifest); delete {run_dir} and run the study again"
        ) from None
    check_manifest(manifest, path)
    return manifest


MANIFEST_TYPES: dict[str, type | tuple[type, ...]] = {
    "game": str, "title": str, "n_players": int, "n_games": int, "strategies": list, "strategy_definitions": dict,
    "seating": str, "seed": int, "chunk_size": int, "rules": dict, "complete": bool, "parts": list,
    "overrides": list, "source_digest": str}
"""The type of every manifest key a reader relies on (a key may be absent in old manifests; never of another type)."""
PART_TYPES = {"index": int, "first_game": int, "n_games": int}


def check_manifest(manifest: Any, path: Path) -> None:
    """Refuse, in one line, a hand-edited manifest a reader would trip over: not an object, a key of the wrong type,
    a strategy with no definition, a malformed part entry."""
    redo = f"restore it or delete {path.parent} and run the study again"
    if not isinstance(manifest, dict):
        raise PlaytestError(f"{path} holds a JSON {type(manifest).__name__}, not an object; {redo}")
    for key, kind in MANIFEST_TYPES.items():
        value = manifest.get(key)
        if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise PlaytestError(f"{path}: '{key}' must be of type {kind.__name__}, not {value!r}; {redo}")
    strategies = manifest.get("strategies") or []
    if not all(isinstance(s, str) for s in strategies):
        raise PlaytestError(f"{path}: 'strategies' must list strategy names; {redo}")
    known = manifest.get("strategy_definitions")
    unknown = [s for s in strategies if known is not None and s not in known]
    if unknown:
        raise PlaytestError(f"{path}: strategy '{unknown[0]}' has no entry in strategy_definitions; {redo}")
    for entry in manifest.get("parts") or []:
        if not isinstance(entry, dict) or any(not isinstance(entry.get(k), t) or isinstance(entry.get(k), bool)
                                              for k, t in PART_TYPES.items()) \
                or any(not isinstance(entry.get(t), dict) or not isinstance(entry[t].get("file"), str)
                       or not isinstance(entry[t].get("sha256"), str) for t in TABLES):
            raise PlaytestError(f"{path}: part entry {str(entry)[:60]} is malformed; {redo}")


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Replace the manifest atomically so a killed run never leaves half a manifest."""
    write_json(run_dir / MANIFEST, manifest)


def read_record(root: str | Path, name: str, verb: str) -> dict[str, Any]:
    """The JSON record ``name`` a `playtest VERB` wrote in ``root`` (one line naming the problem otherwise)."""
    path = Path(root) / name
    if not path.is_file():
        raise PlaytestError(f"{path} not found; point at a directory written by `playtest {verb}` (or re-run it)")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:
        raise PlaytestError(f"{path} is not valid JSON; re-run the same `playtest {verb}` command") from None
