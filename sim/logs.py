"""The on-disk log of a run: Parquet part files written atomically, and the manifest that lists them."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

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


def write_part(run_dir: Path, part: int, frames: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """Write both tables of one part under temporary names, then rename: a part is whole or absent."""
    entry: dict[str, Any] = {}
    for table in TABLES:
        final = run_dir / part_name(table, part)
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = final.with_suffix(".parquet.tmp")
        pq.write_table(pa.Table.from_pandas(frames[table], preserve_index=False), tmp)
        os.replace(tmp, final)
        entry[table] = {"file": part_name(table, part), "rows": len(frames[table]), "sha256": sha256(final)}
    return entry


def part_is_intact(run_dir: Path, entry: dict[str, Any]) -> bool:
    """True when every file of a manifest part entry exists and matches its checksum."""
    for table in TABLES:
        path = run_dir / entry[table]["file"]
        if not path.is_file() or sha256(path) != entry[table]["sha256"]:
            return False
    return True


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    """The run's manifest, or None when the directory holds no run yet."""
    path = run_dir / MANIFEST
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise PlaytestError(
            f"{path} is not valid JSON (corrupt manifest); delete {run_dir} and run the study again"
        ) from None


def write_manifest(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Replace the manifest atomically so a killed run never leaves half a manifest."""
    tmp = run_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=False))
    os.replace(tmp, run_dir / MANIFEST)


def read_record(root: str | Path, name: str, verb: str) -> dict[str, Any]:
    """The JSON record ``name`` a `playtest VERB` wrote in ``root`` (one line naming the problem otherwise)."""
    path = Path(root) / name
    if not path.is_file():
        raise PlaytestError(f"{path} not found; point at a directory written by `playtest {verb}` (or re-run it)")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:
        raise PlaytestError(f"{path} is not valid JSON; re-run the same `playtest {verb}` command") from None
