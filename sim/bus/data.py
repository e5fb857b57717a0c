"""Validating loader for a Bus city map (BUS-COMP-1, BUS-AMB-2): JSON -> padded NumPy arrays for the kernels."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import NamedTuple

import numpy as np

from sim.core.errors import PlaytestError
from sim.core.graph import hop_distances
from sim.core.structs import struct_handle

PACKAGED_BOARD = Path(__file__).with_name("data") / "board.json"
ZONES = "ABCD"


class Board(NamedTuple):
    """A city map as arrays: streets, incidence lists, building spaces, stations and hop distances."""

    st_a: np.ndarray  # int64 (n_streets,) first intersection of each street
    st_b: np.ndarray  # int64 (n_streets,) second intersection
    inc_s: np.ndarray  # int64 (n_inter, max_deg) streets at each intersection (padded with -1)
    inc_o: np.ndarray  # int64 (n_inter, max_deg) the intersection across each of those streets
    deg: np.ndarray  # int64 (n_inter,)
    sp_inter: np.ndarray  # int64 (n_spaces,) intersection of each building space
    sp_zone: np.ndarray  # int64 (n_spaces,) 0..3 for zones A..D
    zone_n: np.ndarray  # int64 (4,) spaces per zone
    is_station: np.ndarray  # int64 (n_inter,) 1 for train stations
    stations: np.ndarray  # int64 (n_stations,)
    central: np.ndarray  # int64 (n_central,)
    dist: np.ndarray  # int64 (n_inter, n_inter) street hops


kernel_board = struct_handle(Board, "BoardRef")
"""Wrap a Board's arrays for the kernels."""


def _fail(path: Path, problem: str) -> PlaytestError:
    return PlaytestError(f"bus board '{path}': {problem}; fix the file or pass --set board= for the packaged map")


def _parse(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise PlaytestError(f"bus board '{path}' not found; pass an existing JSON file with --set board=PATH") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _fail(path, f"is not readable JSON ({exc})") from None
    if not isinstance(data, dict):
        raise _fail(path, "top level must be an object with intersections, streets and building_spaces")
    for key in ("intersections", "streets", "building_spaces"):
        if not isinstance(data.get(key), list):
            raise _fail(path, f"missing list '{key}'")
    return data


def build_board(data: dict, path: Path) -> Board:
    """Validate a parsed map and pack it; every problem raises PlaytestError naming ``path``."""
    inters = data["intersections"]
    n = len(inters)
    if n < 3:
        raise _fail(path, f"needs at least 3 intersections, has {n}")
    station = np.zeros(n, dtype=np.int64)
    central: list[int] = []
    for i, item in enumerate(inters):
        if not isinstance(item, dict) or item.get("id") != i:
            raise _fail(path, f"intersection #{i} must be an object with id {i} (ids are 0..n-1 in order)")
        station[i] = 1 if item.get("station") else 0
        if item.get("central"):
            central.append(i)
    streets = data["streets"]
    seen: set[tuple[int, int]] = set()
    nbrs: list[list[int]] = [[] for _ in range(n)]
    inc: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k, st in enumerate(streets):
        if not (isinstance(st, list) and len(st) == 2 and all(isinstance(v, int) for v in st)):
            raise _fail(path, f"street {k} must be a pair of intersection ids")
        a, b = st
        if not (0 <= a < n and 0 <= b < n) or a == b:
            raise _fail(path, f"street {k} {st} must join two different existing intersections")
        key = (min(a, b), max(a, b))
        if key in seen:
            raise _fail(path, f"street {k} {st} duplicates another street")
        seen.add(key)
        nbrs[a].append(b)
        nbrs[b].append(a)
        inc[a].append((k, b))
        inc[b].append((k, a))
    for v in range(n):
        if len(inc[v]) < 2:
            raise _fail(path, f"intersection {v} has {len(inc[v])} street(s); every intersection needs at least 2")
    dist = hop_distances(nbrs)
    if (dist < 0).any():
        raise _fail(path, "the street graph is not connected")
    spaces = data["building_spaces"]
    sp_inter = np.zeros(len(spaces), dtype=np.int64)
    sp_zone = np.zeros(len(spaces), dtype=np.int64)
    per_inter = np.zeros(n, dtype=np.int64)
    for k, sp in enumerate(spaces):
        if not isinstance(sp, dict) or sp.get("id") != k:
            raise _fail(path, f"building space #{k} must be an object with id {k}")
        v, zone = sp.get("intersection"), sp.get("zone")
        if not isinstance(v, int) or not 0 <= v < n:
            raise _fail(path, f"building space {k} names intersection {v!r}, which does not exist")
        if zone not in ZONES or not isinstance(zone, str) or len(zone) != 1:
            raise _fail(path, f"building space {k} has zone {zone!r}; zones are A, B, C, D")
        if station[v]:
            raise _fail(path, f"building space {k} sits on station {v}; stations hold no buildings")
        sp_inter[k] = v
        sp_zone[k] = ZONES.index(zone)
        per_inter[v] += 1
    if int(station.sum()) < 1:
        raise _fail(path, "needs at least one train station (new passengers arrive there)")
    if not central:
        raise _fail(path, "needs at least one central intersection (starting passengers)")
    zone_n = np.array([int((sp_zone == z).sum()) for z in range(4)], dtype=np.int64)
    if zone_n[0] < 2:
        raise _fail(path, "zone A needs at least 2 building spaces (setup buildings)")
    max_deg = max(len(x) for x in inc)
    inc_s = np.full((n, max_deg), -1, dtype=np.int64)
    inc_o = np.full((n, max_deg), -1, dtype=np.int64)
    deg = np.zeros(n, dtype=np.int64)
    for v in range(n):
        deg[v] = len(inc[v])
        for j, (k, w) in enumerate(inc[v]):
            inc_s[v, j] = k
            inc_o[v, j] = w
    st = np.array(streets, dtype=np.int64).reshape(-1, 2)
    return Board(
        st_a=st[:, 0].copy(), st_b=st[:, 1].copy(), inc_s=inc_s, inc_o=inc_o, deg=deg,
        sp_inter=sp_inter, sp_zone=sp_zone, zone_n=zone_n, is_station=station,
        stations=np.flatnonzero(station).astype(np.int64), central=np.array(central, dtype=np.int64), dist=dist,
    )


@functools.lru_cache(maxsize=8)
def load_board(path: str = "") -> Board:
    """The packaged map for ``""``, else the validated map at ``path`` (cached per path)."""
    p = Path(path) if path else PACKAGED_BOARD
    return build_board(_parse(p), p)


def board_meta(path: str = "") -> dict:
    """The raw JSON (names, positions, source notes) for replays and reports."""
    return _parse(Path(path) if path else PACKAGED_BOARD)
