"""Shared fixtures: small studies run once per session and read back as DataFrames."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest


def read_tables(run_dir: Path) -> dict[str, pd.DataFrame]:
    """Both tables of a run, sorted so that runs can be compared row for row."""
    games = pd.read_parquet(run_dir / "games").sort_values("game_index").reset_index(drop=True)
    players = pd.read_parquet(run_dir / "players").sort_values(["game_index", "seat"]).reset_index(drop=True)
    return {"games": games, "players": players}


def player_counts(spec) -> list[int]:
    """The player counts a test of every game uses, from the game's spec: the smallest, the default study's (4
    where allowed) and the largest."""
    return sorted({spec.min_players, min(max(4, spec.min_players), spec.max_players), spec.max_players})


def study_players(spec) -> int:
    """The player count of a game's default study: 4 where the game allows it, else the nearest it does."""
    counts = player_counts(spec)
    return counts[1] if len(counts) > 1 else counts[0]


def assert_same_tables(a: Path, b: Path) -> None:
    ta, tb = read_tables(a), read_tables(b)
    for name in ta:
        pd.testing.assert_frame_equal(ta[name], tb[name])
