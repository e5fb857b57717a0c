"""Load a run directory (manifest + checksummed Parquet parts) into compact pandas DataFrames."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pandas.api.types import union_categoricals

from sim.core.errors import PlaytestError
from sim.logs import MANIFEST, sha256
from sim.logs import read_manifest as logs_read_manifest

REDO = "re-run the same `playtest run` command to redo it"
GAME_REQUIRED = ("game_index", "n_players", "rounds", "end_reason", "winner_seat")
PLAYER_REQUIRED = ("game_index", "seat", "strategy", "score", "rank", "won", "win_share")
MANIFEST_REQUIRED = ("game", "n_players", "strategies", "n_games", "parts")


@dataclass
class Run:
    """One run: its manifest, one row per game, one row per (game, seat)."""

    run_dir: Path
    manifest: dict[str, Any]
    games: pd.DataFrame
    players: pd.DataFrame

    @property
    def game(self) -> str:
        return str(self.manifest["game"])

    @property
    def title(self) -> str:
        return str(self.manifest.get("title") or self.game)

    @property
    def n_players(self) -> int:
        return int(self.manifest["n_players"])

    @property
    def n_games(self) -> int:
        return len(self.games)

    @property
    def lineup(self) -> list[str]:
        return [str(s) for s in self.manifest["strategies"]]

    @property
    def label(self) -> str:
        """Short name telling runs apart in a comparison: directory name, players and games."""
        return f"{self.run_dir.name} ({self.n_players}p, {self.n_games:,} games)"


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """Parse runs/<id>/manifest.json (through the runner's reader) and sanity-check it for analysis."""
    path = run_dir / MANIFEST
    manifest = logs_read_manifest(run_dir) if run_dir.is_dir() else None
    if manifest is None:
        raise PlaytestError(f"{path} not found; point at a run directory written by `playtest run` (or {REDO})")
    missing = [k for k in MANIFEST_REQUIRED if k not in manifest]
    if missing:
        raise PlaytestError(f"{path} lacks {', '.join(missing)}; {REDO}")
    if manifest.get("complete") is False:
        raise PlaytestError(f"run {run_dir} is incomplete (manifest says complete: false); {REDO} and finish it")
    return manifest


def _checked_part(run_dir: Path, entry: dict[str, Any], kind: str) -> Path:
    """Path of one part after checking that it exists and matches the manifest's checksum."""
    try:
        rel, digest = entry[kind]["file"], entry[kind]["sha256"]
    except (KeyError, TypeError) as exc:
        raise PlaytestError(f"{run_dir / 'manifest.json'}: part {entry.get('index')} has no {kind} file entry; {REDO}") from exc
    path = run_dir / rel
    if not path.is_file():
        raise PlaytestError(f"{path} is missing; {REDO}")
    if sha256(path) != digest:
        raise PlaytestError(f"{path} is corrupt (sha256 differs from the manifest); {REDO}")
    return path


def _compact_int(values: np.ndarray) -> np.ndarray:
    """Smallest signed integer dtype that holds every value (logs store int64; most counters fit int8)."""
    if values.size == 0:
        return values.astype(np.int8)
    lo, hi = int(values.min()), int(values.max())
    for dtype in (np.int8, np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= lo and hi <= info.max:
            return values.astype(dtype)
    return values.astype(np.int64)


def _table_columns(table: pa.Table) -> dict[str, Any]:
    """Arrow table -> per-column compact arrays (ints downcast, strings categorical)."""
    out: dict[str, Any] = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_string(col.type) or pa.types.is_large_string(col.type) or pa.types.is_dictionary(col.type):
            out[name] = pd.Categorical(col.to_pandas())
        elif pa.types.is_integer(col.type):
            if col.null_count:
                raise PlaytestError(f"column {name} has missing values; {REDO}")
            out[name] = _compact_int(col.to_numpy())
        elif pa.types.is_boolean(col.type):
            out[name] = pc.cast(col, pa.int8()).to_numpy()
        else:
            out[name] = col.to_numpy()
    return out


def _read_parts(run_dir: Path, manifest: dict[str, Any], kind: str, columns: Sequence[str] | None) -> pd.DataFrame:
    """Read and concatenate every checked part of one kind (games or players)."""
    pieces: list[dict[str, Any]] = []
    for entry in manifest["parts"]:
        path = _checked_part(run_dir, entry, kind)
        try:
            schema = pq.read_schema(path)
            wanted = None if columns is None else [c for c in columns if c in schema.names]
            table = pq.read_table(path, columns=wanted)
        except (pa.ArrowException, OSError) as exc:
            raise PlaytestError(f"{path} cannot be read as Parquet ({exc}); {REDO}") from exc
        rows = entry[kind].get("rows")
        if rows is not None and table.num_rows != int(rows):
            raise PlaytestError(f"{path} has {table.num_rows} rows, manifest says {rows}; {REDO}")
        pieces.append(_table_columns(table))
    if not pieces:
        raise PlaytestError(f"{run_dir / 'manifest.json'} lists no parts; {REDO}")
    names = list(pieces[0])
    for piece in pieces[1:]:
        if list(piece) != names:
            raise PlaytestError(f"{run_dir}/{kind} parts have different columns; {REDO} in a fresh directory")
    data: dict[str, Any] = {}
    for name in names:
        parts = [p[name] for p in pieces]
        if isinstance(parts[0], pd.Categorical):
            data[name] = union_categoricals(parts) if len(parts) > 1 else parts[0]
        else:
            data[name] = np.concatenate(parts)
    return pd.DataFrame(data)


def _check_frames(run_dir: Path, manifest: dict[str, Any], games: pd.DataFrame, players: pd.DataFrame) -> None:
    """Columns present and game/player rows consistent with the manifest: never silently drop data."""
    for kind, frame, required in (("games", games, GAME_REQUIRED), ("players", players, PLAYER_REQUIRED)):
        missing = [c for c in required if c not in frame.columns]
        if missing:
            raise PlaytestError(f"{run_dir}/{kind} parts lack column(s) {', '.join(missing)}; {REDO} with this version")
    n_games, n_players = int(manifest["n_games"]), int(manifest["n_players"])
    if len(games) != n_games:
        raise PlaytestError(f"{run_dir} holds {len(games)} games but the manifest says {n_games}; {REDO}")
    if len(players) != n_games * n_players:
        raise PlaytestError(f"{run_dir} holds {len(players)} player rows, expected {n_games} x {n_players}; {REDO}")
    if games["game_index"].duplicated().any():
        raise PlaytestError(f"{run_dir} has duplicate game_index values (overlapping parts); {REDO} in a fresh directory")


BASE_COLUMNS = {"games": ("game_index", "n_players"), "players": ("game_index", "seat", "strategy", "win_share")}
"""Columns every game's logs hold beside its own (sim/logs.py ``records_to_frames``)."""


def _check_game(run_dir: Path, manifest: dict[str, Any]) -> None:
    """The logs are the named game's: no column the game does not write (a manifest whose game was edited, or
    parts of another game). Older logs may lack a newer column; that is handled where the column is used."""
    from sim.core.spec import game_names, get_game

    if manifest["game"] not in game_names():  # a game this version does not know: its standard sections only
        return
    spec = get_game(manifest["game"])
    for kind, own in (("games", spec.game_columns), ("players", spec.player_columns)):
        if not manifest["parts"]:
            return
        path = _checked_part(run_dir, manifest["parts"][0], kind)
        try:
            names = pq.read_schema(path).names
        except (pa.ArrowException, OSError) as exc:
            raise PlaytestError(f"{path} cannot be read as Parquet ({exc}); {REDO}") from exc
        alien = sorted(set(names) - {c.name for c in own} - set(BASE_COLUMNS[kind]))
        if alien:
            raise PlaytestError(f"{run_dir}: the manifest says {manifest['game']}, but its {kind} logs hold "
                                f"{', '.join(alien[:3])}, which {manifest['game']} does not write; restore the "
                                "manifest's game or re-run the study")


def load_run(
    run_dir: str | Path,
    games_columns: Sequence[str] | None = None,
    players_columns: Sequence[str] | None = None,
) -> Run:
    """Load a run after verifying every part's checksum; optionally read only some extra columns.

    Rows come back sorted by (game_index[, seat]). Integer counters use the smallest dtype that
    holds them and strings are categorical, so 1M games x 4 players fit in a few hundred MB.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    order = [c for c in [seat_order_column(manifest["game"])] if c]  # the seat analyses need it (in_turn_order)
    gcols = None if games_columns is None else list(dict.fromkeys([*GAME_REQUIRED, *games_columns]))
    pcols = None if players_columns is None else list(dict.fromkeys([*PLAYER_REQUIRED, *players_columns, *order]))
    _check_game(run_dir, manifest)
    games = _read_parts(run_dir, manifest, "games", gcols)
    players = _read_parts(run_dir, manifest, "players", pcols)
    _check_frames(run_dir, manifest, games, players)
    games = games.sort_values("game_index", kind="stable", ignore_index=True)
    players = players.sort_values(["game_index", "seat"], kind="stable", ignore_index=True)
    return Run(run_dir=run_dir, manifest=manifest, games=games, players=players)


def seat_order_column(game: str) -> str | None:
    """The player column giving each player's place in turn order, for a game that draws its first player at random
    (``GameSpec.seat_order_column``); None for any other game, or one this version does not know."""
    from sim.core.spec import game_names, get_game

    return get_game(game).seat_order_column if game in game_names() else None


def in_turn_order(run: Run) -> Run:
    """``run`` with each player's seat read as its place in turn order (and the winner's seat likewise), for a game
    whose first player is random: its seat compensation (``seatK_*``) counts seats in that order. Any other run, or
    logs older than the column, come back as they are."""
    column = seat_order_column(run.game)
    if column is None or column not in run.players.columns:
        return run
    p = run.players
    n = run.n_players
    if not ((p[column] >= 0) & (p[column] < n)).all() or (p.groupby("game_index")[column].nunique() != n).any():
        raise PlaytestError(f"{run.run_dir}: {column} is not each player's place in turn order in every game; "
                            f"{REDO}")
    players = p.assign(seat=p[column].astype(p["seat"].dtype)).sort_values(
        ["game_index", "seat"], kind="stable", ignore_index=True)
    order = pd.Series(p[column].to_numpy(np.int64), index=pd.MultiIndex.from_arrays(
        [p["game_index"].to_numpy(np.int64), p["seat"].to_numpy(np.int64)]))
    games = run.games
    won = games["winner_seat"].to_numpy(np.int64)
    keys = pd.MultiIndex.from_arrays([games["game_index"].to_numpy(np.int64), np.maximum(won, 0)])
    games = games.assign(winner_seat=np.where(won >= 0, order.reindex(keys).to_numpy(), won).astype(np.int64))
    return Run(run_dir=run.run_dir, manifest=run.manifest, games=games, players=players)
