"""Load a run directory (manifest + checksummed Parquet parts) into compact pandas DataFrames."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Hashable, Iterator, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from pandas.api.types import union_categoricals

from analysis.aggregate import Counts, Stream, chunks, scan, value_counts
from sim.core.errors import PlaytestError
from sim.logs import MANIFEST, sha256
from sim.logs import read_manifest as logs_read_manifest

REDO = "re-run the same `playtest run` command to redo it"
GAME_REQUIRED = ("game_index", "n_players", "rounds", "end_reason", "winner_seat")
PLAYER_REQUIRED = ("game_index", "seat", "strategy", "score", "rank", "won", "win_share")
MANIFEST_REQUIRED = ("game", "n_players", "strategies", "n_games", "parts")


CHUNK_GAMES = 100_000
"""Games per chunk when a run is streamed: parts are read a few at a time, so memory holds one chunk."""


class Run:
    """One run: its manifest, one row per game (``games``) and one per (game, seat) (``players``).

    A run opened by ``load_run`` keeps its rows in their checked Parquet parts: ``chunks`` streams them part by part
    (whole games, in game order), so statistics summed over parts need memory for one part only; ``games`` and
    ``players`` read every part into one frame the first time a section asks for it."""

    def __init__(self, run_dir: str | Path, manifest: dict[str, Any], games: pd.DataFrame | None = None,
                 players: pd.DataFrame | None = None, parts: Sequence[dict[str, Any]] = (),
                 columns: dict[str, list[str] | None] | None = None) -> None:
        self.run_dir = Path(run_dir)
        self.manifest = manifest
        self._frames: dict[str, pd.DataFrame | None] = {"games": games, "players": players}
        self._parts = list(parts)
        self._columns = columns or {"games": None, "players": None}
        self._schema: dict[str, list[str]] = {}
        self.memo: dict = {}
        """Statistics of the stored rows, each computed in one pass (``aggregate.memoized``, ``Run.cached``)."""

    def _frame(self, kind: str) -> pd.DataFrame:
        frame = self._frames[kind]
        if frame is None:
            frame = _sorted(kind, _read_parts(self.run_dir, self._parts, kind, self._columns[kind]))
            self._frames[kind] = frame
        return frame

    @property
    def games(self) -> pd.DataFrame:
        return self._frame("games")

    @games.setter
    def games(self, frame: pd.DataFrame) -> None:
        self._frames["games"] = frame
        self.memo.clear()

    @property
    def players(self) -> pd.DataFrame:
        return self._frame("players")

    @players.setter
    def players(self, frame: pd.DataFrame) -> None:
        self._frames["players"] = frame
        self.memo.clear()

    @property
    def stored(self) -> bool:
        """Whether the rows are streamed from the parts (not yet read into frames)."""
        return bool(self._parts) and self._frames["games"] is None and self._frames["players"] is None

    def chunks(self, games_columns: Sequence[str] | None = None,
               players_columns: Sequence[str] | None = None) -> Iterator[tuple[pd.DataFrame, pd.DataFrame]]:
        """(games, players) of whole games in game order, rows sorted by (game_index[, seat]): one part at a time for
        a stored run, one chunk for a run in memory. ``None`` reads every column; game_index (and seat) always come."""
        gcols = None if games_columns is None else list(dict.fromkeys(["game_index", *games_columns]))
        pcols = None if players_columns is None else list(dict.fromkeys(["game_index", "seat", *players_columns]))
        if not self.stored:
            yield _sorted("games", _pick(self.games, gcols)), _sorted("players", _pick(self.players, pcols))
            return
        yield from zip(self._stream("games", gcols), self._stream("players", pcols))

    def _stream(self, kind: str, columns: list[str] | None) -> Iterator[pd.DataFrame]:
        """The ``kind`` rows of a stored run, CHUNK_GAMES games at a time (whole parts), sorted."""
        batch: list[pd.DataFrame] = []
        games = 0
        for i, entry in enumerate(self._parts):
            batch.append(_part_frame(self.run_dir, entry, kind, _wanted(columns, self._columns[kind]), self._names(kind)))
            games += int(entry[kind].get("rows", len(batch[-1]))) // (1 if kind == "games" else self.n_players)
            if games >= CHUNK_GAMES or i == len(self._parts) - 1:
                yield _sorted(kind, _concat(batch))
                batch, games = [], 0

    def _names(self, kind: str) -> list[str]:
        """Every column of the ``kind`` parts (the same in each part: ``load_run`` checked), read once."""
        if kind not in self._schema:
            self._schema[kind] = pq.read_schema(self.run_dir / self._parts[0][kind]["file"]).names
        return self._schema[kind]

    def columns(self, kind: str) -> list[str]:
        """The columns of the ``kind`` rows ("games" or "players"), without reading them."""
        if not self.stored:
            return list(self._frame(kind).columns)
        return [c for c in self._names(kind) if self._columns[kind] is None or c in self._columns[kind]]

    def counts(self, kind: str, keys: Sequence[str], sort: bool = True) -> pd.DataFrame:
        """``aggregate.value_counts`` of the ``kind`` rows over ``keys``, chunk by chunk (once per report)."""
        return self.cached(("counts", kind, tuple(keys), sort), lambda: value_counts(chunks(self.rows(kind, keys)), keys, sort))

    def counts_each(self, kind: str, keysets: Sequence[Sequence[str]], sort: bool = True) -> list[pd.DataFrame]:
        """``counts`` of the ``kind`` rows over each set of keys, those not yet counted in one pass together."""
        keysets = [list(k) for k in keysets]
        todo = {tuple(k): k for k in keysets if ("counts", kind, tuple(k), sort) not in self.memo}
        if self.stored and len(todo) > 1:
            columns = list(dict.fromkeys(c for k in todo.values() for c in k))
            found = scan(chunks(self.rows(kind, columns)), *(Counts(k, sort) for k in todo.values()))
            self.memo.update({("counts", kind, key, sort): c for key, c in zip(todo, found)})
        return [self.counts(kind, k, sort) for k in keysets]

    def cached(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """``compute()``, a statistic of the rows, computed once for a stored run (then copied from its memo)."""
        if not self.stored:
            return compute()
        if key not in self.memo:
            self.memo[key] = compute()
        return copy.deepcopy(self.memo[key])

    def rows(self, kind: str, columns: Sequence[str]):
        """The ``kind`` rows ("games" or "players") as ``aggregate.Rows``: the frame of a run in memory, else a
        ``Stream`` of ``columns`` chunk by chunk."""
        if not self.stored:
            return self._frame(kind)
        keys = ["game_index"] if kind == "games" else ["game_index", "seat"]
        columns = list(dict.fromkeys([*keys, *columns]))
        return Stream(lambda: self._stream(kind, columns), (kind, tuple(columns)), self.memo)

    def head(self, n_games: int) -> "Run":
        """The run's first ``n_games`` games in memory (games are independent draws, so any prefix is a fair
        sample): for the diagnostics that fit larger models on a fixed sample."""
        if not self.stored:
            g, p = self.games, self.players
            if len(g) <= n_games:
                return self
            last = g["game_index"].iloc[n_games - 1]
            return Run(self.run_dir, self.manifest, g[g["game_index"] <= last].reset_index(drop=True),
                       p[p["game_index"] <= last].reset_index(drop=True))
        pieces: list[tuple[pd.DataFrame, pd.DataFrame]] = []
        count = 0
        for g, p in self.chunks():
            pieces.append((g, p))
            count += len(g)
            if count >= n_games:
                break
        g = _concat([x for x, _ in pieces]).head(n_games)
        p = _concat([y for _, y in pieces])
        return Run(self.run_dir, self.manifest, g, p[p["game_index"] <= g["game_index"].iloc[-1]].reset_index(drop=True))

    @property
    def game(self) -> str:
        return str(self.manifest["game"])

    @property
    def rules(self) -> dict[str, Any]:
        """The rules the run played: its manifest's, completed with the game's defaults for fields added after the
        run was made (a new field's default is the rules as printed, so the older run played it)."""
        from sim.core.rules import rules_dict
        from sim.core.spec import get_game

        stored = self.manifest.get("rules") or {}
        try:
            defaults = rules_dict(get_game(self.game).rules_type())
        except PlaytestError:
            return dict(stored)
        return {**defaults, **stored}

    @property
    def title(self) -> str:
        return str(self.manifest.get("title") or self.game)

    @property
    def n_players(self) -> int:
        return int(self.manifest["n_players"])

    @property
    def n_games(self) -> int:
        return int(self.manifest["n_games"]) if self.stored else len(self.games)

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


def _categorical(col: pa.ChunkedArray) -> pd.Categorical:
    """A string column as the Categorical ``pd.Categorical(col.to_pandas())`` gives (categories sorted, missing as
    -1), built from the column's dictionary so that no Python string is made per row (the hot part of a read)."""
    col = (col if pa.types.is_dictionary(col.type) else pc.dictionary_encode(col)).unify_dictionaries()
    if not col.num_chunks:
        return pd.Categorical(col.to_pandas())
    values = col.chunk(0).dictionary.to_numpy(zero_copy_only=False)
    index = np.concatenate([c.indices.fill_null(-1).to_numpy(zero_copy_only=False) for c in col.chunks]).astype(np.int64)
    used = np.flatnonzero(np.bincount(index[index >= 0], minlength=len(values)))
    order = used[np.argsort(values[used], kind="stable")]
    code = np.full(len(values) + 1, -1, np.int64)  # the last entry maps a missing value (-1) to -1
    code[order] = np.arange(len(order))
    return pd.Categorical.from_codes(code[index], categories=pd.Index(values[order]))


def _table_columns(table: pa.Table) -> dict[str, Any]:
    """Arrow table -> per-column compact arrays (ints downcast, strings categorical)."""
    out: dict[str, Any] = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_string(col.type) or pa.types.is_large_string(col.type) or pa.types.is_dictionary(col.type):
            out[name] = _categorical(col)
        elif pa.types.is_integer(col.type):
            if col.null_count:
                raise PlaytestError(f"column {name} has missing values; {REDO}")
            out[name] = _compact_int(col.to_numpy())
        elif pa.types.is_boolean(col.type):
            out[name] = pc.cast(col, pa.int8()).to_numpy()
        else:
            out[name] = col.to_numpy()
    return out


def _part_frame(run_dir: Path, entry: dict[str, Any], kind: str, columns: Sequence[str] | None,
                names: Sequence[str] | None = None) -> pd.DataFrame:
    """One part (already checksummed) as a compact frame, its row count checked against the manifest; ``names``: the
    part's columns when known (every part of a checked run has the same), saving a read of its schema. Strings are
    read as dictionaries (``_categorical``), on one thread (a part is small: Arrow's pool costs more than it saves)."""
    path = run_dir / entry[kind]["file"]
    try:
        names = pq.read_schema(path).names if names is None else names
        wanted = list(names) if columns is None else [c for c in columns if c in names]
        table = pq.ParquetFile(path, read_dictionary=wanted).read(columns=wanted, use_threads=False)
    except (pa.ArrowException, OSError) as exc:
        raise PlaytestError(f"{path} cannot be read as Parquet ({exc}); {REDO}") from exc
    rows = entry[kind].get("rows")
    if rows is not None and table.num_rows != int(rows):
        raise PlaytestError(f"{path} has {table.num_rows} rows, manifest says {rows}; {REDO}")
    return pd.DataFrame(_table_columns(table))


def _concat(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Frames of one kind end to end (categories united), refusing parts whose columns differ."""
    names = list(frames[0].columns)
    if any(list(f.columns) != names for f in frames[1:]):
        raise PlaytestError(f"parts have different columns; {REDO} in a fresh directory")
    data: dict[str, Any] = {}
    for name in names:
        parts = [f[name].array if isinstance(f[name].dtype, pd.CategoricalDtype) else f[name].to_numpy() for f in frames]
        if isinstance(parts[0], pd.Categorical):
            data[name] = union_categoricals(parts) if len(parts) > 1 else parts[0]
        else:
            data[name] = np.concatenate(parts)
    return pd.DataFrame(data)


def _read_parts(run_dir: Path, parts: Sequence[dict[str, Any]], kind: str, columns: Sequence[str] | None) -> pd.DataFrame:
    """Read and concatenate every checked part of one kind (games or players)."""
    if not parts:
        raise PlaytestError(f"{run_dir / 'manifest.json'} lists no parts; {REDO}")
    return _concat([_part_frame(run_dir, entry, kind, columns) for entry in parts])


def _sorted(kind: str, frame: pd.DataFrame) -> pd.DataFrame:
    keys = ["game_index"] if kind == "games" else [c for c in ("game_index", "seat") if c in frame.columns]
    return frame.sort_values(keys, kind="stable", ignore_index=True)


def _pick(frame: pd.DataFrame, columns: Sequence[str] | None) -> pd.DataFrame:
    return frame if columns is None else frame[[c for c in columns if c in frame.columns]]


def _wanted(columns: Sequence[str] | None, loaded: Sequence[str] | None) -> list[str] | None:
    """Columns to read from a part: those asked for, within those the run was opened with."""
    if columns is None:
        return None if loaded is None else list(loaded)
    return [c for c in columns if loaded is None or c in loaded]


def _check_parts(run_dir: Path, manifest: dict[str, Any], gcols: Sequence[str] | None,
                 pcols: Sequence[str] | None) -> list[dict[str, Any]]:
    """Every part present with its checksum, the required columns there, row counts and game ranges consistent with
    the manifest (never silently drop data); the parts in game order."""
    parts = list(manifest["parts"])
    if not parts:
        raise PlaytestError(f"{run_dir / 'manifest.json'} lists no parts; {REDO}")
    for entry in parts:
        for kind in ("games", "players"):
            _checked_part(run_dir, entry, kind)
    for kind, required, cols in (("games", GAME_REQUIRED, gcols), ("players", PLAYER_REQUIRED, pcols)):
        path = run_dir / parts[0][kind]["file"]
        try:
            names = pq.read_schema(path).names
        except (pa.ArrowException, OSError) as exc:
            raise PlaytestError(f"{path} cannot be read as Parquet ({exc}); {REDO}") from exc
        missing = [c for c in required if c not in names]
        if missing:
            raise PlaytestError(f"{run_dir}/{kind} parts lack column(s) {', '.join(missing)}; {REDO} with this version")
    for kind in ("games", "players"):
        names = {tuple(pq.read_schema(run_dir / entry[kind]["file"]).names) for entry in parts}
        if len(names) > 1:
            raise PlaytestError(f"{run_dir}/{kind} parts have different columns; {REDO} in a fresh directory")
    n_games, n_players = int(manifest["n_games"]), int(manifest["n_players"])
    ranges = []
    for entry in parts:
        g = pq.read_table(run_dir / entry["games"]["file"], columns=["game_index"]).column(0).to_numpy()
        if len(np.unique(g)) != len(g):
            raise PlaytestError(f"{run_dir} has duplicate game_index values (overlapping parts); {REDO} in a fresh directory")
        ranges.append((int(g.min()) if len(g) else 0, int(g.max()) if len(g) else -1, len(g), entry))
        if int(entry["players"].get("rows", len(g) * n_players)) != len(g) * n_players:
            raise PlaytestError(f"{run_dir} holds {entry['players']['rows']} player rows in a part of {len(g)} games, "
                                f"expected {len(g)} x {n_players}; {REDO}")
    ranges.sort(key=lambda r: r[0])
    total = sum(r[2] for r in ranges)
    if total != n_games:
        raise PlaytestError(f"{run_dir} holds {total} games but the manifest says {n_games}; {REDO}")
    if any(a[1] >= b[0] for a, b in zip(ranges, ranges[1:]) if a[2] and b[2]):
        raise PlaytestError(f"{run_dir} has duplicate game_index values (overlapping parts); {REDO} in a fresh directory")
    return [r[3] for r in ranges]


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
    """Open a run after verifying every part's checksum, columns and row counts; optionally only some extra columns.

    The rows stay in the parts until asked for (``Run.chunks`` part by part, ``Run.games``/``Run.players`` whole),
    sorted by (game_index[, seat]). Integer counters use the smallest dtype that holds them and strings are
    categorical, so a part takes a few MB and 1M games x 4 players, read whole, a few hundred MB.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    order = [c for c in [seat_order_column(manifest["game"])] if c]  # the seat analyses need it (in_turn_order)
    gcols = None if games_columns is None else list(dict.fromkeys([*GAME_REQUIRED, *games_columns]))
    pcols = None if players_columns is None else list(dict.fromkeys([*PLAYER_REQUIRED, *players_columns, *order]))
    _check_game(run_dir, manifest)
    parts = _check_parts(run_dir, manifest, gcols, pcols)
    return Run(run_dir, manifest, parts=parts, columns={"games": gcols, "players": pcols})


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
