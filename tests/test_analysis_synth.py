"""Synthetic run directories in the runner's log format (for analysis tests), and tests of analysis.load."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from analysis.load import Run, load_run
from sim.core.errors import PlaytestError
from sim.core.records import STANDARD_GAME
from sim.core.spec import get_game

SEA_GAME = ("turns", "plunders", "storms_played", "reshuffles", "trades")
SEA_PLAYER = ("start_market", "start_desired_dist", "gold_r10", "gold_r20", "cards_bought", "cards_sold",
              "sales_gold", "plunders_made", "times_plundered", "cargo_lost", "storms_played", "row_played",
              "wind_played", "pirate_moves", "trades", "max_hand")
BUS_END = ("time_collapse", "out_of_actions", "city_full", "out_of_actions+city_full", "time_collapse+city_full")


def _ranks(score: np.ndarray) -> np.ndarray:
    """1 + number of seats with a strictly higher score (shared ranks for ties)."""
    return 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)


def seat_pool(n_games: int, n_players: int, pool: list[str], seating: str, rng) -> np.ndarray:
    """[games, seats] strategy names: a random ordered selection of the pool per game, cyclic windows of it
    (the old --rotate), or the pool's names in every game (fixed; a short pool is repeated)."""
    k = len(pool)
    if seating == "random":
        order = np.argsort(rng.random((n_games, k)), axis=1)[:, :n_players]
    elif seating == "cyclic":
        order = (np.arange(n_games)[:, None] + np.arange(n_players)[None, :]) % k
    else:
        order = np.broadcast_to(np.arange(n_players) % k, (n_games, n_players))
    return np.asarray(pool)[order]


def make_frames(game: str, n_players: int, n_games: int, strategies: list[str], seat_weights=None,
                strengths=None, seating: str = "random", no_winner: float = 0.0, seed: int = 0,
                interactions=None, after=None, own: bool = True):
    """Games and players DataFrames where the player in seat s playing strategy k wins with odds
    seat_weights[s] * strengths[k] * interactions[(k, s)] * after[strategy seated just before].

    ``strategies`` is the pool (seated by ``seating``); ``after`` plants a neighbour effect. The game's own
    columns come from its record schema (Sea Trade's and Bus's with realistic ranges); ``own=False`` leaves
    them out (a run from before they existed).
    """
    rng = np.random.default_rng(seed)
    seat_w = np.ones(n_players) if seat_weights is None else np.asarray(seat_weights, float)
    names = sorted(set(strategies))
    strength = {s: 1.0 for s in names} if strengths is None else strengths
    gi = np.arange(n_games)
    strat = seat_pool(n_games, n_players, list(strategies), seating, rng)  # [G, n]
    odds = seat_w[None, :] * np.vectorize(strength.get)(strat)
    for (name, seat), factor in (interactions or {}).items():
        odds[:, seat] *= np.where(strat[:, seat] == name, factor, 1.0)
    if after:
        odds *= np.vectorize(lambda s: after.get(s, 1.0))(np.roll(strat, 1, axis=1))
    cum = np.cumsum(odds / odds.sum(axis=1, keepdims=True), axis=1)
    winner = (rng.random(n_games)[:, None] > cum).sum(axis=1)
    decided = rng.random(n_games) >= no_winner
    score = rng.integers(0, 20, size=(n_games, n_players))
    score[gi[decided], winner[decided]] = 25 + rng.integers(0, 5, size=decided.sum())
    rank = _ranks(score)
    won = ((rank == 1) & decided[:, None]).astype(np.int64)
    share = won / np.maximum(won.sum(axis=1, keepdims=True), 1)
    winner_seat = np.where(decided, winner, -1)
    rounds = rng.integers(5, 40, size=n_games) if game == "sea_trade" else rng.integers(5, 11, size=n_games)
    games = {"game_index": gi, "n_players": np.full(n_games, n_players), "rounds": rounds,
             "winner_seat": winner_seat, "decisions": rng.integers(50, 500, size=n_games)}
    players = {"game_index": np.repeat(gi, n_players), "seat": np.tile(np.arange(n_players), n_games),
               "strategy": strat.ravel(), "score": score.ravel(), "rank": rank.ravel(), "won": won.ravel(),
               "win_share": share.ravel()}
    if not own:
        labels = _end_reasons(game)
        games["end_reason"] = np.where(decided, labels[0], labels[-1])
    elif game == "sea_trade":
        games["end_reason"] = np.where(decided, "win", "timeout")
        for c in SEA_GAME:
            games[c] = rng.integers(0, 6, size=n_games)
        for c in SEA_PLAYER:
            players[c] = rng.integers(0, 6, size=n_games * n_players)
        players["max_hand"] = rng.integers(3, 20, size=n_games * n_players)
        players["gold_r10"] = rng.integers(0, 25, size=n_games * n_players)
    elif game == "bus":
        games.update(_bus_game_columns(rng, n_games, n_players, winner_seat))
        players.update(_bus_player_columns(rng, n_games, n_players))
    else:
        _schema_columns(game, rng, games, players, n_games * n_players, decided)
    return pd.DataFrame(games), pd.DataFrame(players)


def _end_reasons(game: str) -> tuple[str, ...]:
    """The game's end_reason labels (its record schema)."""
    return get_game(game).game_columns[STANDARD_GAME.index("end_reason")].labels


def _schema_columns(game: str, rng, games: dict, players: dict, n_rows: int, decided) -> None:
    """Every column of the game's record schema not set yet, built from it: labels drawn from a column's labels
    (end_reason: its first on a decided game, its last otherwise), 0 or 1 elsewhere (a valid count, flag and index
    into any table of a game's components: the schema declares no ranges)."""
    spec = get_game(game)
    n_games = len(decided)
    for c in spec.game_columns:
        if c.name == "end_reason":
            games[c.name] = np.where(decided, c.labels[0], c.labels[-1])
        elif c.name not in games:
            games[c.name] = (np.asarray(c.labels)[rng.integers(0, len(c.labels), n_games)] if c.labels
                             else rng.integers(0, 2, n_games))
    for c in spec.player_columns:
        if c.name not in players:
            players[c.name] = rng.integers(0, 2, n_rows)
    if spec.seat_order_column:  # a place in turn order from a random first player: a rotation of the seats
        n = n_rows // n_games
        first = rng.integers(0, n, n_games)
        players[spec.seat_order_column] = ((np.arange(n)[None, :] - first[:, None]) % n).ravel()


def _bus_game_columns(rng, n_games: int, n_players: int, winner_seat) -> dict:
    gems = 4 if n_players == 3 else 5
    taken = rng.integers(0, gems + 1, size=n_games)
    out = {"end_reason": np.where(taken == gems, BUS_END[0], np.array(BUS_END[1:])[rng.integers(0, 4, n_games)]),
           "n_winners": (winner_seat >= 0).astype(int), "gems_taken": taken,
           "last_gem_seat": np.where(taken == gems, rng.integers(0, n_players, n_games), -1)}
    for k in range(1, 6):
        out[f"gem_round_{k}"] = np.where(taken >= k, rng.integers(1, 11, n_games), -1)
    for c in ("clock_stops", "buses_bought", "final_M", "passengers_placed", "buildings_placed", "houses",
              "offices", "pubs", "vroom_house", "vroom_office", "vroom_pub", "cubes_placed", "wasted_cubes",
              "cubes_bus", "cubes_clock", "cubes_start"):
        out[c] = rng.integers(0, 10, n_games)
    for z in "abcd":
        out[f"zone_{z}_full_round"] = rng.integers(-1, 11, n_games)
    out["tie_break"] = rng.integers(0, 4, n_games)
    for a in ("exp", "pax", "bld", "vroom"):
        for k in range(6):
            out[f"cubes_{a}_{k}"] = rng.integers(0, 8, n_games)
    return out


def _bus_player_columns(rng, n_games: int, n_players: int) -> dict:
    n = n_games * n_players
    out = {c: rng.integers(0, 6, n) for c in (
        "points", "gems", "buses", "delivered", "sticks_used", "cubes_left", "cubes_placed", "act_exp", "act_bus",
        "act_pax", "act_bld", "act_clock", "act_vroom", "act_start", "wasted_cubes", "loops_closed",
        "stations_on_line", "intersections_covered", "start_player_rounds", "exception1_sticks",
        "exception2_sticks", "points_reached_at")}
    out["first_gem_round"] = rng.integers(-1, 11, n)
    limit = np.full((n_games, n_players), 28)
    for _ in range(n_players - 3):
        limit[np.arange(n_games), rng.integers(0, n_players, n_games)] = 18
    out["stick_limit"] = limit.ravel()
    return out


def _write_part(path: Path, df: pd.DataFrame) -> dict:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), path)
    return {"file": str(path.relative_to(path.parent.parent)), "rows": len(df),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def default_lineup(n_players: int) -> list[str]:
    return (["trader", "raider", "random", "trader"] + ["random"] * 2)[:n_players]


def make_run(game: str = "sea_trade", n_players: int = 4, n_games: int = 2000, strategies: list[str] | None = None,
             **kw) -> Run:
    """An in-memory Run (no files) shaped like load_run's output."""
    strategies = strategies or default_lineup(n_players)
    games, players = make_frames(game, n_players, n_games, strategies, **kw)
    players["strategy"] = players["strategy"].astype("category")
    games["end_reason"] = games["end_reason"].astype("category")
    manifest = {"game": game, "title": game, "n_players": n_players, "strategies": strategies, "n_games": n_games,
                "seating": kw.get("seating", "random"), "seed": 1, "rules": {}, "parts": []}
    return Run(Path(f"synthetic-{game}-{n_players}p"), manifest, games, players)


def write_run(run_dir: Path, game: str = "sea_trade", n_players: int = 4, n_games: int = 4000,
              strategies: list[str] | None = None, n_parts: int = 2, drop: tuple[str, ...] = (),
              rules: dict | None = None, **kw) -> Path:
    """Write a complete run directory (manifest + parts) like sim/runner.py does; ``drop`` removes columns."""
    strategies = strategies or default_lineup(n_players)
    games, players = make_frames(game, n_players, n_games, strategies, **kw)
    games = games.drop(columns=[c for c in drop if c in games.columns])
    players = players.drop(columns=[c for c in drop if c in players.columns])
    run_dir = Path(run_dir)
    bounds = np.linspace(0, n_games, n_parts + 1).astype(int)
    parts = []
    for i, (a, b) in enumerate(zip(bounds[:-1], bounds[1:])):
        g = games[(games.game_index >= a) & (games.game_index < b)]
        p = players[(players.game_index >= a) & (players.game_index < b)]
        parts.append({"index": i, "first_game": int(a), "n_games": int(b - a),
                      "games": _write_part(run_dir / "games" / f"part-{i:05d}.parquet", g),
                      "players": _write_part(run_dir / "players" / f"part-{i:05d}.parquet", p)})
    manifest = {"game": game, "title": get_game(game).title,
                "n_players": n_players, "rules": rules or {"round_cap": 200}, "strategies": strategies, "seating": kw.get("seating", "random"),
                "seed": 1, "n_games": n_games, "chunk_size": int(bounds[1]), "versions": {}, "git_commit": "x",
                "timings": {"wall_s": 1.0, "games_per_s": float(n_games)}, "complete": True, "parts": parts}
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    return run_dir


def test_load_round_trips_all_rows_and_columns(tmp_path):
    run_dir = write_run(tmp_path / "r", n_games=1000, n_parts=3)
    run = load_run(run_dir)
    assert run.n_games == 1000 and len(run.players) == 4000
    assert run.games["game_index"].tolist() == list(range(1000))
    assert {"start_market", "max_hand", "win_share"} <= set(run.players.columns)
    assert run.players["score"].dtype.itemsize == 1  # compact dtypes
    assert set(run.players["strategy"].cat.categories) == {"trader", "raider", "random"}
    src = pq.read_table(run_dir / "players" / "part-00001.parquet").to_pandas()
    merged = run.players.merge(src, on=["game_index", "seat"], suffixes=("", "_src"))
    assert len(merged) == len(src) and (merged["score"] == merged["score_src"]).all()


def test_load_selected_columns_keeps_required(tmp_path):
    run = load_run(write_run(tmp_path / "r", n_games=200), games_columns=["plunders"], players_columns=["gold_r10"])
    assert set(run.players.columns) == {"game_index", "seat", "strategy", "score", "rank", "won", "win_share", "gold_r10"}
    assert "plunders" in run.games.columns and "trades" not in run.games.columns


def test_corrupt_part_raises(tmp_path):
    run_dir = write_run(tmp_path / "r", n_games=200)
    part = run_dir / "players" / "part-00001.parquet"
    data = bytearray(part.read_bytes())
    data[100] ^= 0xFF
    part.write_bytes(bytes(data))
    with pytest.raises(PlaytestError, match=r"part-00001.parquet is corrupt.*re-run"):
        load_run(run_dir)


def test_missing_part_and_manifest_raise(tmp_path):
    run_dir = write_run(tmp_path / "r", n_games=200)
    (run_dir / "games" / "part-00000.parquet").unlink()
    with pytest.raises(PlaytestError, match="part-00000.parquet is missing"):
        load_run(run_dir)
    with pytest.raises(PlaytestError, match="manifest.json not found"):
        load_run(tmp_path / "nowhere")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "manifest.json").write_text("{not json")
    with pytest.raises(PlaytestError, match="not valid JSON"):
        load_run(tmp_path / "bad")


def test_incomplete_or_short_run_raises(tmp_path):
    run_dir = write_run(tmp_path / "r", n_games=200)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["n_games"] = 300
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(PlaytestError, match="holds 200 games but the manifest says 300"):
        load_run(run_dir)
    manifest["complete"] = False
    (run_dir / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(PlaytestError, match="incomplete"):
        load_run(run_dir)
