"""7 Wonders + Babel sections, in the order of the spec's balance-study list (SW-STUDY-1..8): neighbours, boards and
sides, score composition, economy, cards, the Babel tiles, the Great Projects, method; and, across runs, player
counts, the base game against base + Babel, and the sensitivity to the stand-in (secondary-source) data values.

Seat p's LEFT neighbour is seat (p + 1) % n and its RIGHT one (p - 1) % n (sim/seven_wonders/state.py). Only the
logged Parquet tables are read; the data files are opened for names and for the list of stand-in values only.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from analysis import plots, stats
from analysis.keep import kept
from analysis.load import Run
from analysis.models import association, cluster_ols, formula_fit, paired_runs, run_change, _deviation, _effects
from analysis.sections import (Block, Plot, Section, Table, ci, describe_display, missing_columns,
                               rate_display, skip_note)
from analysis.verdicts import Finding, finding
from sim.seven_wonders.data import COLORS, FILES, N_TILES, PACKAGED_DIR, REWARD_VALUE_KEY, load_data

TURN_ORDER = False
"""Every turn is simultaneous (SW-TURN-1): seats have no order, so seat charts say seat, not turn order."""
SOURCES = ("military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "babel", "projects")
"""Score categories in SW-END-1 order, then the Babel ones (BABEL-SCORE-1, BABEL-GP-15): the vp_ columns."""
VP = [f"vp_{s}" for s in SOURCES]
SIDES = ("A", "B")
TURNS = 18
"""Game turns: 3 Ages of 6 (SW-TURN-1); a tile never covered is active to the end of turn 18."""
STAND_IN = ("secondary source", "designed stand-in")
"""Data field statuses that are not the rulebook's: the values the sensitivity runs perturb."""


def _need(frame: pd.DataFrame, columns: Sequence[str], what: str, blocks: list[Block]) -> bool:
    """True when every column is present; otherwise append the skip note and return False."""
    miss = missing_columns(frame, columns)
    if miss:
        blocks.append(skip_note(what, miss))
    return not miss


def _data(run: Run):
    """The run's component data (its own --set data=DIR if it set one): names and stand-in values."""
    return load_data(run.manifest.get("rules", {}).get("data") or None)


def _findings_frame(rows: list[Finding], label: str) -> pd.DataFrame:
    return pd.DataFrame({label: [f.what for f in rows], "effect [95% CI]": [f.interval() for f in rows],
                         "label": [f.label for f in rows]})


def _rate_cell(k: float, n: int) -> str:
    lo, hi = stats.wilson(k, n)
    return ci(k / n, float(lo), float(hi)) if n else "n/a"


def _diff(what: str, a: np.ndarray, b: np.ndarray, threshold: float) -> Finding | None:
    """Mean of ``a`` minus mean of ``b`` (win shares of independent rows) in points, normal interval."""
    if len(a) < 2 or len(b) < 2:
        return None
    se = 100.0 * np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    return finding(what, 100.0 * (a.mean() - b.mean()), float(se), threshold)


# ---------------------------------------------------------------------------------------------------------------
# SW-STUDY-2: seats and neighbours (turns are simultaneous: a seat's neighbours are its whole interaction)


def neighbour_table(players: pd.DataFrame) -> pd.DataFrame:
    """Per player row: the strategy of its left neighbour (seat + 1) and right neighbour (seat - 1)."""
    n = int(players["seat"].max()) + 1
    strat = players["strategy"].astype(str).to_numpy().reshape(-1, n)
    return pd.DataFrame({"left": np.roll(strat, -1, axis=1).ravel(), "right": np.roll(strat, 1, axis=1).ravel()},
                        index=players.index)


POSITIONS = ("absent", "left", "right", "both sides", "across", "beside and across")
"""Where strategy X sits relative to a player: nowhere among the opponents; on exactly one side (and nowhere else);
on both sides; only at a seat not next to the player (across); next to and across from the player (a repeated X)."""
CONTRASTS = {"adjacent vs absent": ({"left": 0.5, "right": 0.5}, "absent"),
             "across vs absent": ({"across": 1.0}, "absent"),
             "adjacent vs across": ({"left": 0.5, "right": 0.5}, "across"),
             "left vs right": ({"left": 1.0}, "right")}
"""The named contrasts: 'adjacent' is one neighbour playing X (the mean of X on the left and X on the right)."""


def neighbour_positions(players: pd.DataFrame, strategy: str) -> np.ndarray:
    """Per player row: where ``strategy`` sits among its opponents (one of POSITIONS; three or more seats)."""
    n = int(players["seat"].max()) + 1
    x = (players["strategy"].astype(str).to_numpy() == strategy).reshape(-1, n)
    left, right = np.roll(x, -1, axis=1), np.roll(x, 1, axis=1)
    others = x.sum(axis=1, keepdims=True) - x - left - right
    across = others > 0
    side = np.where(left & right, "both sides", np.where(left, "left", np.where(right, "right", "")))
    pos = np.where(side == "", np.where(across, "across", "absent"),
                   np.where(across, "beside and across", side))
    return pos.ravel()


@kept
def neighbour_contrasts(players: pd.DataFrame, threshold: float) -> pd.DataFrame | None:
    """Per strategy X, the named contrasts of a player's win rate (points) by where X sits: win_share ~ C(seat, Sum)
    + C(strategy, Sum) + C(position of X, reference absent), game-clustered, aliased columns dropped. Random seating
    makes each a causal contrast; a contrast whose positions never occur is None (not identified)."""
    n = int(players["seat"].max()) + 1
    names = sorted(players["strategy"].astype(str).unique())
    if len(names) < 2 or n < 3:
        return None
    rows = []
    groups = players["game_index"].to_numpy()
    for x in names:
        pos = neighbour_positions(players, x)
        seen = set(pos)
        ref = "absent" if "absent" in seen else max(seen, key=lambda v: (pos == v).sum())
        frame = pd.DataFrame({"y": players["win_share"].to_numpy(float), "seat": players["seat"].to_numpy(),
                              "strategy": players["strategy"].astype(str).to_numpy(), "pos": pos})
        res, columns = formula_fit(f"y ~ C(seat, Sum) + C(strategy, Sum) + C(pos, Treatment('{ref}'))", frame, groups)
        coef = {c.split("[T.")[1].rstrip("]"): i for i, c in enumerate(columns) if c.startswith("C(pos")}
        row = {"strategy": x}
        for name, (plus, minus) in CONTRASTS.items():
            levels = [*plus, minus]
            if not all(v == ref or v in coef for v in levels):
                row[name] = None
                continue
            weights = np.zeros(len(columns))
            for v, w in plus.items():
                weights[coef[v]] += w if v != ref else 0.0
            if minus != ref:
                weights[coef[minus]] -= 1.0
            est = 100.0 * float(weights @ res.params)
            se = 100.0 * float(np.sqrt(max(weights @ res.cov_params() @ weights, 0.0)))
            row[name] = finding(f"{x}: {name}", est, se, threshold)
        rows.append(row)
    return pd.DataFrame(rows)


def neighbours(run: Run, threshold: float) -> Section:
    """SW-STUDY-2: win rate by the left and right neighbours' strategies, raw, and the named contrasts."""
    p, n = run.players, run.n_games
    nb = neighbour_table(p)
    blocks: list[Block] = [
        "7 Wonders has no first player: every turn is simultaneous, and a player trades, fights and passes hands only "
        "with the two neighbours (SW-SETUP-4). Age I and III hands come from the right neighbour, Age II hands from "
        "the left one (SW-TURN-2). The seat table above is the standard one; here is what the neighbours do."]
    for side in ("left", "right"):
        t = stats.win_rates(p.assign(nb=nb[side].to_numpy()), "nb")
        blocks.append(Table(rate_display(t, f"{side} neighbour's strategy"),
                            f"Raw win rate of a player by the strategy of the {side} neighbour ({n:,} games)."))
    model = neighbour_contrasts(p, threshold)
    if model is None:
        blocks.append("Neighbour contrasts need at least two strategies and three seats.")
        return Section("Neighbours", blocks)
    cell = lambda f: f"{f.interval()} {f.label}" if f is not None else "not identified"  # noqa: E731
    blocks.append(Table(pd.DataFrame({"strategy X": model["strategy"],
                                      **{name: [cell(f) for f in model[name]] for name in CONTRASTS}}),
                        f"Named contrasts ({run.n_players} players): a player's win rate in points when strategy X sits "
                        "beside them (one neighbour plays X: the mean of X on the left and X on the right), across "
                        "the table (X plays but not next to them), or not at all (the reference: 'absent', X's seats "
                        "taken by the rest of the pool as the random seating draws them); left = seat + 1. Adjusted "
                        "for own seat and strategy, errors clustered by game; random seating makes each a causal "
                        "contrast. 'Not identified': that position never occurs (no seat across at 3 players, or X "
                        "at every table)."))
    found = [f for name in CONTRASTS for f in model[name] if f is not None]
    big = [f for f in found if f.label == "large"]
    blocks.append(("Large neighbour contrasts: " + "; ".join(f"{f.what} {f.interval()}" for f in big) + "."
                   if big else f"No neighbour contrast is labelled large (threshold {threshold:g} pts)."))
    cross = p.assign(left=nb["left"].to_numpy()).pivot_table(index="strategy", columns="left", values="win_share",
                                                             aggfunc="mean", observed=True)
    blocks.append(Plot("left_neighbour", plots.heatmap(cross, f"Win rate by own strategy and left neighbour ({n:,} games)",
                                                       "left neighbour's strategy", "own strategy", fmt="{:.0%}",
                                                       center=stats.expected_share(p), min_span=0.05),
                       "Raw cell means (a cell holds about 1/30 of the player rows)."))
    return Section("Neighbours", blocks)


# ---------------------------------------------------------------------------------------------------------------
# SW-STUDY-1: boards and sides


def board_labels(run: Run, p: pd.DataFrame) -> pd.Series:
    """'Name A' / 'Name B' per player row."""
    names = _data(run).wonder_names
    board = p["board"].to_numpy(np.int64)
    side = p["side"].to_numpy(np.int64)
    return pd.Series([f"{names[b]} {SIDES[s]}" for b, s in zip(board, side)], index=p.index)


def board_model(players: pd.DataFrame, label: pd.Series, threshold: float) -> pd.DataFrame | None:
    """Board-side effects (points against the average board-side) adjusted for seat and strategy
    (OLS on win share, deviation coded, game-clustered); None when a factor does not vary enough."""
    n = int(players["seat"].max()) + 1
    cat = pd.Categorical(label)
    strat = pd.Categorical(players["strategy"].astype(str))
    kb, ks = len(cat.categories), len(strat.categories)
    if kb < 2:
        return None
    seat = players["seat"].to_numpy(np.int64)
    x = np.column_stack([np.ones(len(players)), _deviation(seat, n),
                         *([_deviation(np.asarray(strat.codes, np.int64), ks)] if ks > 1 else []),
                         _deviation(np.asarray(cat.codes, np.int64), kb)])
    if np.linalg.matrix_rank(x.T @ x) < x.shape[1]:
        return None
    res = cluster_ols(players["win_share"].to_numpy(float), x, players["game_index"].to_numpy())
    first = x.shape[1] - (kb - 1)
    table, _, _ = _effects(res, slice(first, x.shape[1]), [str(c) for c in cat.categories], threshold, "board")
    return table


def boards(run: Run, threshold: float) -> Section:
    """SW-STUDY-1: win rate and score per board and side, raw and adjusted for seat and strategy."""
    p, n = run.players, run.n_games
    blocks: list[Block] = []
    if not _need(p, ("board", "side"), "board and side strength", blocks):
        return Section("Wonder boards and sides", blocks)
    label = board_labels(run, p)
    q = p.assign(board_side=label.to_numpy())
    t = stats.win_rates(q, "board_side")
    scores = stats.mean_table(q, "board_side", "score").reindex(t.index)
    frame = rate_display(t, "board and side")
    frame["mean score [95% CI]"] = [ci(m, lo, hi, percent=False) for m, lo, hi in
                                    zip(scores["mean"], scores["lo"], scores["hi"])]
    frame["score sd"] = [f"{s:.1f}" for s in scores["sd"]]
    adj = board_model(q, label, threshold)
    if adj is not None:
        adj = adj.set_index("level").reindex(t.index.astype(str))
        frame["adjusted effect [95% CI]"] = [f"{e:+.1f} pts [{lo:+.1f}, {hi:+.1f}]" for e, lo, hi in
                                             zip(adj["effect"], adj["lo"], adj["hi"])]
        frame["label"] = adj["label"].to_numpy()
    blocks += [Table(frame, f"Win rate and score per Wonder board and side ({n:,} games). Boards and sides are dealt "
                            "at random (SW-SETUP-1), so the raw rate is already fair; the adjusted effect (seat and "
                            "strategy held fixed, game-clustered) stands beside it."),
               Plot("boards", plots.rate_bars(t, f"Win rate per Wonder board and side ({n:,} games)", "board and side",
                                              expected=t["expected"].iloc[0]), "95% intervals; dashed: equal share.")]
    sides = p["side"].astype(int)
    if sides.nunique() > 1:
        st = stats.win_rates(p.assign(side_name=sides.map(lambda s: SIDES[s]).to_numpy()), "side_name")
        blocks.append(Table(rate_display(st, "side"), "Win rate by board side over all boards."))
    else:
        blocks.append(f"Every board played side {SIDES[int(sides.iloc[0])]} in this run (wonder_sides rule); "
                      "run with `--set wonder_sides=2` to compare sides.")
    return Section("Wonder boards and sides", blocks + _neighbour_boards(run, p))


def _neighbour_boards(run: Run, p: pd.DataFrame) -> list[Block]:
    """Pairwise effect of neighbouring boards: win rate by own board and the left neighbour's board."""
    names = _data(run).wonder_names
    n = run.n_players
    board = p["board"].to_numpy(np.int64)
    left = np.roll(board.reshape(-1, n), -1, axis=1).ravel()
    cross = pd.DataFrame({"own": [names[b] for b in board], "left": [names[b] for b in left],
                          "y": p["win_share"].to_numpy(float)}).pivot_table(index="own", columns="left", values="y",
                                                                             aggfunc="mean")
    return [Plot("neighbour_boards", plots.heatmap(cross, f"Win rate by own board and left neighbour's board "
                                                          f"({run.n_games:,} games)", "left neighbour's board",
                                                   "own board", center=stats.expected_share(p), min_span=0.05),
                 "Raw cell means; a cell holds about 1/42 of the player rows (sides pooled).")]


# ---------------------------------------------------------------------------------------------------------------
# SW-STUDY-3 / 6 / 7: score composition, economy, cards


def score_composition(run: Run) -> Section:
    """SW-STUDY-3: mean VP by source (SW-END-1 order, then Babel) for all players, winners and the rest, and by
    strategy."""
    p, n = run.players, run.n_games
    blocks: list[Block] = []
    if not _need(p, VP, "score composition by source", blocks):
        return Section("Score composition", blocks)
    won = p["won"].to_numpy() > 0
    rows = []
    for s, c in zip(SOURCES, VP):
        row = {"source": s}
        for name, mask in (("all players", slice(None)), ("winners", won), ("others", ~won)):
            d = stats.describe(p.loc[mask, c])
            row[f"{name} [95% CI]"] = ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False)
        rows.append(row)
    total = stats.describe(p["score"])
    rows.append({"source": "total", "all players [95% CI]": ci(total["mean"], total["mean_lo"], total["mean_hi"],
                                                               percent=False),
                 "winners [95% CI]": "", "others [95% CI]": ""})
    by = p.groupby("strategy", observed=True)[VP].mean()
    by.columns = list(SOURCES)
    blocks += [Table(pd.DataFrame(rows), f"Mean VP per player and game by source, in the printed order of SW-END-1 "
                                         f"then the Babel categories ({n:,} games)."),
               Plot("sources_by_strategy", plots.heatmap(by, f"Mean VP by source and strategy ({n:,} games)",
                                                          "source", "strategy", fmt="{:.1f}", cmap="Blues",
                                                          center=None), "Where each strategy's points come from.")]
    return Section("Score composition", blocks)


ECONOMY = {"coins": "coins at the end", "traded_out": "coins paid to neighbours", "traded_in": "coins received from "
           "neighbours", "sold": "cards sold for 3 coins", "tile_discards": "cards given up for Babel tiles"}
CARDS = {"built": "structures built", "chain_builds": "free chain builds", "free_builds": "free builds (Olympia A, "
         "tokens)", "hali_builds": "built from the discard (Halikarnassos)", "seventh_played": "7th cards (Babylon B)",
         "stages": "Wonder stages"}


def _strategy_means(p: pd.DataFrame, columns: dict[str, str]) -> pd.DataFrame:
    """Mean [95% CI] of each column by strategy (one column per counter)."""
    out = pd.DataFrame({"strategy": sorted(p["strategy"].astype(str).unique())})
    for c, name in columns.items():
        t = stats.mean_table(p.assign(strategy=p["strategy"].astype(str)), "strategy", c).reindex(out["strategy"])
        out[name] = [ci(m, lo, hi, percent=False) for m, lo, hi in zip(t["mean"], t["lo"], t["hi"])]
    return out


def economy(run: Run) -> Section:
    """SW-STUDY-6: coin flows between neighbours, sales and coins kept, by strategy."""
    p, n = run.players, run.n_games
    blocks: list[Block] = []
    if _need(p, list(ECONOMY), "coin flows", blocks):
        blocks += [Table(_strategy_means(p, ECONOMY), f"Coins and trade per player and game by strategy, 95% "
                                                     f"intervals ({n:,} games)."),
                   Table(describe_display({v: stats.describe(p[c]) for c, v in ECONOMY.items()}),
                         "Distribution over all players.")]
        blocks.append("Payments to the bank (card costs, Babel taxes) and bank income (card and tile bonuses) are "
                      "not logged separately: the logs hold the neighbour flows and the coins kept.")
    return Section("Economy", blocks)


def cards(run: Run) -> Section:
    """SW-STUDY-7: structures by colour, chains and free builds by strategy (per-card picks are not logged)."""
    p, n = run.players, run.n_games
    blocks: list[Block] = []
    if _need(p, list(COLORS), "structures by colour", blocks):
        by = p.groupby("strategy", observed=True)[list(COLORS)].mean()
        blocks.append(Plot("colours", plots.heatmap(by, f"Structures by colour and strategy ({n:,} games)", "colour",
                                                    "strategy", fmt="{:.2f}", cmap="Blues", center=None),
                           "Mean structures of each colour in the city at the end."))
    if _need(p, list(CARDS), "chains and free builds", blocks):
        blocks.append(Table(_strategy_means(p, CARDS), "Builds per player and game by strategy, 95% intervals."))
    blocks.append("Per-card pick rates and VP per card are not in the logs (one row per player, not per card).")
    return Section("Cards, chains and stages", blocks)


# ---------------------------------------------------------------------------------------------------------------
# SW-STUDY-4: the Babel tiles


def tile_frame(games: pd.DataFrame, players: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, tile): who held it after the draft, whether it was first pick, builder, turn placed,
    turn covered and the turns it was active (BABEL-ACTIVE-1: from the end of the placing turn to the end of the
    covering turn, or of turn 18)."""
    n = int(players["seat"].max()) + 1
    held = np.zeros((len(games), N_TILES + 1), np.int64)
    first = np.zeros_like(held)
    rows = np.arange(len(games))
    for col in ("tile_a", "tile_b", "tile_c"):
        t = players[col].to_numpy(np.int64).reshape(-1, n)
        for s in range(n):
            held[rows, t[:, s]] += 1
            if col == "tile_a":
                first[rows, t[:, s]] += 1
    out = []
    for t in range(1, N_TILES + 1):
        placed = games[f"tile{t}_placed"].to_numpy(np.int64)
        covered = games[f"tile{t}_covered"].to_numpy(np.int64)
        active = np.where(placed > 0, np.where(covered > 0, covered, TURNS) - placed, 0)
        out.append(pd.DataFrame({"game_index": games["game_index"].to_numpy(), "tile": t, "held": held[:, t] > 0,
                                 "first_pick": first[:, t] > 0, "builder": games[f"tile{t}_builder"].to_numpy(),
                                 "placed": placed, "covered": covered > 0, "active": active}))
    return pd.concat(out, ignore_index=True)


def tile_activity(run: Run) -> pd.DataFrame:
    """Per tile: how often it is in play, kept first, built, covered; when it is placed and for how long active."""
    tf = tile_frame(run.games, run.players)
    labels = _data(run).tile_labels
    rows = []
    for t, g in tf.groupby("tile"):
        held, built = g[g["held"]], g[g["builder"] >= 0]
        nh, nb = len(held), len(built)
        act = stats.describe(built["active"]) if nb else None
        rows.append({"tile": f"{t} {labels[t - 1]}", "in play": _rate_cell(nh, len(g)),
                     "kept first [95% CI]": _rate_cell(int(held["first_pick"].sum()), nh) if nh else "n/a",
                     "built when in play": _rate_cell(nb, nh) if nh else "n/a",
                     "mean turn placed": f"{built['placed'].mean():.1f}" if nb else "n/a",
                     "covered when built": _rate_cell(int(built["covered"].sum()), nb) if nb else "n/a",
                     "turns active when built [95% CI]": ci(act["mean"], act["mean_lo"], act["mean_hi"],
                                                            percent=False) if nb else "n/a"})
    return pd.DataFrame(rows)


def tile_effects(run: Run, threshold: float) -> pd.DataFrame:
    """Per tile and strategy, on the players who did not build the tile: win rate in games where it was active
    for at least one turn minus games where it never was; crude (difference of means) and adjusted (OLS with
    seat, own strategy and the strategies present at the table, game-clustered), in points."""
    p, g = run.players, run.games
    n = run.n_players
    cat = pd.Categorical(p["strategy"].astype(str))
    names, k = [str(c) for c in cat.categories], len(cat.categories)
    own = np.asarray(cat.codes, np.int64)
    present = np.stack([(own.reshape(-1, n) == j).sum(axis=1) for j in range(k)], axis=1)
    opponents = np.repeat(present, n, axis=0) - (own[:, None] == np.arange(k)[None, :])
    seat = p["seat"].to_numpy(np.int64)
    base = np.column_stack([np.ones(len(p)), _deviation(seat, n), *([_deviation(own, k)] if k > 1 else []),
                            opponents[:, :-1]])
    y = p["win_share"].to_numpy(float)
    games_of = p["game_index"].to_numpy()
    rows = []
    for t in range(1, N_TILES + 1):
        placed = np.repeat(g[f"tile{t}_placed"].to_numpy(np.int64), n)
        covered = np.repeat(g[f"tile{t}_covered"].to_numpy(np.int64), n)
        builder = np.repeat(g[f"tile{t}_builder"].to_numpy(np.int64), n)
        active = (placed > 0) & (np.where(covered > 0, covered, TURNS) > placed)
        keep = builder != seat
        if active[keep].all() or not active[keep].any():
            continue
        inter = np.column_stack([active * (own == j) for j in range(k)]).astype(float)
        x = np.column_stack([base, inter])[keep]
        if np.linalg.matrix_rank(x.T @ x) < x.shape[1]:
            continue
        res = cluster_ols(y[keep], x, games_of[keep])
        for j, s in enumerate(names):
            m = keep & (own == j)
            crude = _diff("", y[m & active], y[m & ~active], threshold)
            col = base.shape[1] + j
            adj = finding("", 100 * res.params[col], 100 * res.bse[col], threshold)
            rows.append({"tile": t, "strategy": s, "games active": int((m & active).sum()),
                         "crude": crude.estimate if crude else np.nan, "crude_ci": crude.interval() if crude else "n/a",
                         "effect": adj.estimate, "se": adj.se, "lo": adj.lo, "hi": adj.hi, "label": adj.label})
    return pd.DataFrame(rows)


def tile_builders(run: Run, threshold: float) -> pd.DataFrame:
    """Per tile, in the games where it was built: the builder's win rate minus the other players', crude and
    adjusted for strategy and seat (analysis.models.association; game-clustered)."""
    p, g = run.players, run.games
    n = run.n_players
    rows = []
    for t in range(1, N_TILES + 1):
        builder = g[f"tile{t}_builder"].to_numpy(np.int64)
        built = np.repeat(builder >= 0, n)
        if built.sum() < 4 * n:
            continue
        sub = p[built]
        flag = np.repeat(builder[builder >= 0], n) == sub["seat"].to_numpy(np.int64)
        a = association(sub, g, flag, f"tile {t} builder minus others", threshold)
        if a is None:
            continue
        rows.append({"tile": t, "games built": int((builder >= 0).sum()),
                     "builder win rate": _rate_cell(float(sub.loc[flag, "win_share"].sum()), int(flag.sum())),
                     "crude": a.crude, "adjusted": a.adjusted})
    return pd.DataFrame(rows)


def _by_status(items: list[str]) -> str:
    """'field: status' items grouped as 'status: field, field; other: ...' ('none (rulebook)' when empty)."""
    groups: dict[str, list[str]] = {}
    other = []
    for item in items:
        field, _, status = item.partition(": ")
        if status in STAND_IN:
            groups.setdefault(status, []).append(field)
        else:
            other.append(item)
    return "; ".join([*other, *(f"{k}: {', '.join(v)}" for k, v in groups.items())]) or "none (rulebook)"


def _tile_stand_ins(data, t: int) -> str:
    """The non-rulebook data values tile ``t``'s effect rests on (from the loader's list)."""
    return _by_status([s.split(f"tile {t} ", 1)[1] for s in data.stand_ins if f"babel_tiles.json tile {t} " in s])


def tiles(run: Run, threshold: float) -> Section:
    """SW-STUDY-4: per tile activity, its effect on every other player by strategy while active, and on its builder;
    the value of 1/2/3 tiles built."""
    p, g, n = run.players, run.games, run.n_games
    blocks: list[Block] = []
    tile_cols = [f"tile{t}_{c}" for t in range(1, N_TILES + 1) for c in ("builder", "placed", "covered")]
    if not (_need(g, tile_cols, "Babel tiles", blocks) and _need(p, ("tile_a", "tile_b", "tile_c", "tiles_built"),
                                                                   "Babel tiles", blocks)):
        return Section("Babel tiles", blocks)
    if not (g["tiles_built"] > 0).any():
        return Section("Babel tiles", ["No Babel tile was built in this run (the Tower of Babel module is off: "
                                       f"babel_tower={run.manifest.get('rules', {}).get('babel_tower')})."])
    data = _data(run)
    labels = data.tile_labels
    activity = tile_activity(run)
    activity["rests on non-rulebook values"] = [_tile_stand_ins(data, t) for t in range(1, N_TILES + 1)]
    blocks.append(Table(activity, f"Each tile: dealt into play (3 per player of 24), kept as the first draft pick "
                                  f"(1/3 if picked at random), built, covered; turn placed (1..18) and turns active "
                                  f"after placement ({n:,} games; Wilson 95% intervals)."))
    eff = tile_effects(run, threshold)
    if len(eff):
        eff["tile_name"] = [f"{t} {labels[t - 1]}" for t in eff["tile"]]
        matrix = eff.pivot(index="tile_name", columns="strategy", values="effect").reindex(
            [f"{t} {labels[t - 1]}" for t in range(1, N_TILES + 1)]).dropna(how="all")
        blocks.append(Plot("tile_effects", plots.heatmap(matrix, f"Win-rate change of non-builders while a tile is "
                                                                 f"active, by strategy ({n:,} games)", "strategy",
                                                         "tile", fmt="{:+.1f}", center=0.0, min_span=3.0,
                                                         cbar_label="points (adjusted)"),
                           f"Screening ({len(eff)} tile x strategy cells): adjusted effect in points: games where the "
                           "tile was active at least one turn against "
                           "games where it never was, for the players who did not build it (seat, own strategy "
                           "and the strategies at the table held fixed; game-clustered). Where a tile was active, its "
                           "builder gave up a card for it, so the others share a small gain from that alone: compare "
                           "a cell with its row, not with 0."))
        shown = eff[eff["label"].isin(["large"])].sort_values("effect", key=abs, ascending=False)
        blocks.append(Table(pd.DataFrame({"tile": shown["tile_name"], "strategy": shown["strategy"],
                                          "player-games active": [f"{x:,}" for x in shown["games active"]],
                                          "crude [95% CI]": shown["crude_ci"],
                                          "adjusted [95% CI]": [f"{e:+.1f} pts [{lo:+.1f}, {hi:+.1f}]" for e, lo, hi
                                                                in zip(shown["effect"], shown["lo"], shown["hi"])],
                                          "label": shown["label"]}),
                            f"Screening: the tile x strategy cells (of {len(eff)}) whose effect on a strategy's win rate "
                            f"is labelled large against the threshold ({threshold:g} pts; labels at the report's "
                            "false-discovery cut-off), "
                            "adjusted beside crude. Every tile binds every player (BABEL-ACTIVE-1), but its activity "
                            "depends on who built it when: these are associations with the adjustment beside them, "
                            "not measured causes (`playtest ab` with a tile switched off would measure one).")
                      if len(shown) else f"No tile moves any strategy's win rate by the threshold ({threshold:g} pts) "
                                         f"after adjustment ({len(eff)} tile x strategy cells, labels: "
                                         f"{', '.join(f'{k} {v}' for k, v in eff['label'].value_counts().items())}).")
    bt = tile_builders(run, threshold)
    if len(bt):
        blocks.append(Table(pd.DataFrame({
            "tile": [f"{t} {labels[t - 1]}" for t in bt["tile"]], "games built": [f"{x:,}" for x in bt["games built"]],
            "builder win rate [95% CI]": bt["builder win rate"],
            "builder minus others, crude": [f.interval() for f in bt["crude"]],
            "adjusted for strategy and seat": [f.interval() if f else "n/a" for f in bt["adjusted"]],
            "label (adjusted)": [f.label if f else "n/a" for f in bt["adjusted"]]}),
            "The builder's win rate against the other players of the same games (game-clustered; strategy and seat "
            "adjusted beside crude): an association, not the tile's effect on its builder. Who builds a tile, and "
            "when, depends on the game so far; the builder also scores the Babel VP for its tiles (2/5/10 for 1/2/3, "
            "BABEL-SCORE-1), which the tile's rule has nothing to do with. `playtest ab` with the tile switched off "
            "would measure the tile."))
    t = stats.win_rates(p, "tiles_built")
    sc = stats.mean_table(p, "tiles_built", "score").reindex(t.index)
    frame = rate_display(t, "tiles built by the player")
    frame["mean score [95% CI]"] = [ci(m, lo, hi, percent=False) for m, lo, hi in zip(sc["mean"], sc["lo"], sc["hi"])]
    blocks.append(Table(frame, "Win rate and score by the number of tiles a player built (2 / 5 / 10 VP, "
                               "BABEL-SCORE-1): an association (tile builders are mostly the babel strategy)."))
    a = association(p, g, p["tiles_built"].to_numpy() > 0, "players who built a tile minus the rest", threshold)
    if a is not None:
        blocks.append(f"{a.crude.what}: {a.crude.interval()} crude ({a.crude.label}); adjusted for "
                      f"{a.adjusted_for}: {a.adjusted.interval() if a.adjusted else 'n/a'} "
                      f"({a.adjusted.label if a.adjusted else 'not estimable'}).")
    return Section("Babel tiles", blocks)


# ---------------------------------------------------------------------------------------------------------------
# SW-STUDY-5: Great Projects

GP_FIELDS = ("project", "success", "participants", "tokens", "penalised", "defeats")


def project_frame(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, Age) with a project: the logged gp{a}_* columns in long form."""
    out = []
    for age in (1, 2, 3):
        f = pd.DataFrame({c: games[f"gp{age}_{c}"].to_numpy(np.int64) for c in GP_FIELDS})
        out.append(f.assign(age=age, game_index=games["game_index"].to_numpy()))
    long = pd.concat(out, ignore_index=True)
    return long[long["project"] >= 0].reset_index(drop=True)


def _project_stand_ins(data, name: str) -> str:
    return _by_status([s.split(f"{name} ", 1)[1] for s in data.stand_ins
                       if s.startswith(f"great_projects.json {name} ")])


def project_summary(run: Run) -> pd.DataFrame:
    """Per project: times drawn, success rate, participants and tokens per game, and how often its penalty hits a
    player (share of the players at the table who bore it or took a Defeat token instead), with 95% intervals."""
    pf = project_frame(run.games)
    names = _data(run).project_names
    n = run.n_players
    rows = []
    for k, g in pf.groupby("project"):
        d = len(g)
        part = stats.describe(g["participants"])
        hit = int(g["penalised"].sum())  # every non-participant of a failed project; Defeat tokens included
        rows.append({"project": names[k], "age": int(g["age"].iloc[0]), "games": d,
                     "success": float(g["success"].mean()), "success [95% CI]": _rate_cell(int(g["success"].sum()), d),
                     "participants per game [95% CI]": ci(part["mean"], part["mean_lo"], part["mean_hi"],
                                                          percent=False),
                     "tokens taken": f"{g['tokens'].mean():.2f}",
                     "penalty hits a player [95% CI]": _rate_cell(hit, d * n),
                     "of which Defeat tokens": _rate_cell(int(g["defeats"].sum()), hit) if hit else "n/a"})
    return pd.DataFrame(rows)


def projects(run: Run, threshold: float) -> Section:
    """SW-STUDY-5: per Great Project success, participation and penalty; the free rider's payoff."""
    g, p, n = run.games, run.players, run.n_games
    blocks: list[Block] = []
    if not _need(g, [f"gp{a}_{c}" for a in (1, 2, 3) for c in GP_FIELDS], "Great Projects", blocks):
        return Section("Great Projects", blocks)
    pf = project_frame(g)
    if not len(pf):
        return Section("Great Projects", ["No Great Project in this run (the module is off: great_projects="
                                          f"{run.manifest.get('rules', {}).get('great_projects')})."])
    data = _data(run)
    summary = project_summary(run)
    summary["rests on non-rulebook values"] = [_project_stand_ins(data, name) for name in summary["project"]]
    blocks.append(Table(summary.drop(columns="success").assign(games=[f"{x:,}" for x in summary["games"]]),
                        f"Each Great Project ({n:,} games, one project per Age, BABEL-GP-1): success (no token left at "
                        "the end of the Age, BABEL-GP-9), participants, and the share of player-Ages hit by its "
                        "penalty (BABEL-GP-10/11). Wilson 95% intervals."))
    names = data.project_names
    per = stats.rate_table(pf.assign(name=[names[k] for k in pf["project"]]), "name", "success")
    per = per.reindex([x for x in summary["project"] if x in per.index])
    blocks.append(Plot("project_success", plots.rate_bars(per, f"Great Project success rate ({n:,} games)", "project",
                                                          ylabel="success rate (%)"), "95% intervals."))
    ages = stats.rate_table(pf, "age", "success")
    blocks.append("Success by Age: " + "; ".join(f"Age {a}: {ci(r.rate, r.lo, r.hi)}" for a, r in ages.iterrows()) + ".")
    if _need(p, ("gp_tokens",), "free riders", blocks):
        a = association(p, g, p["gp_tokens"].to_numpy() == 0, "players who never took a token minus the rest",
                        threshold)
        if a is not None:
            blocks.append(f"Free riders: {a.crude.what}: {a.crude.interval()} crude ({a.crude.label}); adjusted for "
                          f"{a.adjusted_for}: {a.adjusted.interval() if a.adjusted else 'n/a'} "
                          f"({a.adjusted.label if a.adjusted else 'not estimable'}). An association: the babel "
                          "strategy joins every project, so the adjustment for strategy matters here.")
        cols = {c: c.replace("_", " ") for c in ("gp_tokens", "gp_success_tokens", "gp_penalties", "gp_defeats",
                                                 "vp_projects") if c in p.columns}
        blocks.append(Table(_strategy_means(p, cols), "Participation, rewards and penalties per player and game by "
                                                      "strategy, 95% intervals."))
    return Section("Great Projects", blocks)


# ---------------------------------------------------------------------------------------------------------------
# SW-STUDY-8: method


def variance_explained(players: pd.DataFrame, factors: dict[str, pd.Series], n_boot: int = 40,
                       seed: int = 0) -> pd.DataFrame:
    """Share of the variance of the final score explained by each factor alone (eta squared: the variance of
    the group means over the total), with a 95% bootstrap interval over games."""
    score = players["score"].to_numpy(float)
    games = players["game_index"].to_numpy()
    uniq, inv = np.unique(games, return_inverse=True)
    rng = np.random.default_rng(seed)

    def eta(codes: np.ndarray, weights: np.ndarray) -> float:
        w = np.bincount(codes, weights=weights)
        m = np.bincount(codes, weights=weights * score) / np.where(w > 0, w, 1)
        mean = (weights * score).sum() / weights.sum()
        total = (weights * (score - mean) ** 2).sum()
        return float((w * (m - mean) ** 2).sum() / total) if total > 0 else np.nan

    rows = []
    for name, f in factors.items():
        codes = np.asarray(pd.Categorical(f.astype(str)).codes, np.int64)
        est = eta(codes, np.ones(len(score)))
        boot = [eta(codes, np.bincount(rng.integers(0, len(uniq), len(uniq)), minlength=len(uniq))[inv].astype(float))
                for _ in range(n_boot)]
        rows.append({"factor": name, "levels": int(codes.max()) + 1, "share": est,
                     "lo": float(np.percentile(boot, 2.5)), "hi": float(np.percentile(boot, 97.5))})
    return pd.DataFrame(rows)


def method(run: Run) -> Section:
    """SW-STUDY-8: seed, switches and stand-in values of the run, the variance explained by each factor, and the
    games a 1-point tile effect needs."""
    p, m, n = run.players, run.manifest, run.n_games
    rules = m.get("rules") or {}
    data = _data(run)
    blocks: list[Block] = [f"Run seed {m.get('seed')}, {n:,} games of {run.n_players} players, seating "
                           f"{m.get('seating') or 'fixed'}, pool {', '.join(run.lineup)}. Every Rules field, SW-DEC "
                           "switches included, is in the run's manifest.json:",
                           Table(pd.DataFrame({"rule": list(rules), "value": [str(v) for v in rules.values()]}),
                                 "The rules and switches of this run.")]
    items = [(f"tile {t} {data.tile_labels[t - 1]}", _tile_stand_ins(data, t)) for t in range(1, N_TILES + 1)]
    items += [(f"project {name}", _project_stand_ins(data, name)) for name in data.project_names]
    items = [(k, v) for k, v in items if v != "none (rulebook)"]
    blocks.append(Table(pd.DataFrame({"component": [k for k, _ in items], "fields not from the rulebook": [v for _, v in items]}),
                        f"Data values in use that the rulebook does not give ({len(data.stand_ins)} fields; from the "
                        f"data loader, data directory: {rules.get('data') or 'packaged'}). The Babel findings above "
                        "name the ones they rest on."))
    factors = {"strategy": p["strategy"], "seat": p["seat"]}
    if "board" in p.columns and "side" in p.columns:
        factors["board and side"] = p["board"].astype(str) + p["side"].astype(str)
    if "tiles_built" in p.columns:
        factors["tiles built"] = p["tiles_built"]
    ve = variance_explained(p, factors)
    blocks.append(Table(pd.DataFrame({"factor": ve["factor"], "levels": ve["levels"],
                                      "share of score variance [95% CI]": [ci(s, lo, hi) for s, lo, hi in
                                                                           zip(ve["share"], ve["lo"], ve["hi"])]}),
                        "Variance of the final score explained by each factor alone (eta squared; bootstrap over "
                        "games). Factors overlap (the babel strategy builds the tiles), so shares do not add up."))
    fair = stats.expected_share(p)
    z = 1.959964 + 0.841621
    rows = z ** 2 * fair * (1 - fair) * (1 / 0.3 + 1 / 0.7) / 0.01 ** 2
    per_game = len(p) / n / p["strategy"].nunique()
    blocks.append(f"Sample size: finding a 1-point change in one strategy's win rate while a tile is active (a tile is "
                  f"active in about 30% of games) 80% of the time at 5% needs about {rows:,.0f} player-games of "
                  f"that strategy, i.e. {rows / per_game:,.0f} games of this run's design ({n:,} played).")
    return Section("Method", blocks)


# ---------------------------------------------------------------------------------------------------------------
# Across runs: player counts, base game against base + Babel, stand-in sensitivity


def write_perturbed_data(out_dir: str | Path, step: int) -> list[str]:
    """Copy the packaged data to ``out_dir`` with every non-rulebook numeric Great Project value moved by ``step``
    (participation coins, reward values; floors 0 and 1); return the changes made. The tiles' non-rulebook
    fields are categorical assignments (triggers, resource kinds), swept by Rules switches instead (SW-DEC-14/15)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(PACKAGED_DIR / name, out / name)
    doc = json.loads((PACKAGED_DIR / "great_projects.json").read_text())
    changes = []
    for g in doc["projects"]:
        status = g["status"]
        if status.get("cost") in STAND_IN and g["participation_cost"]["coins"] + step >= 0:
            old = g["participation_cost"]["coins"]
            g["participation_cost"]["coins"] = old + step
            changes.append(f"{g['name']} participation coins {old} -> {old + step}")
        reward = g["reward_per_participation_token"]
        key = REWARD_VALUE_KEY.get(reward["type"])
        if status.get("reward") in STAND_IN and key in reward and reward[key] + step >= 1:
            changes.append(f"{g['name']} reward {reward['type']} {reward[key]} -> {reward[key] + step}")
            reward[key] += step
    (out / "great_projects.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False))
    return changes


def data_changes(run: Run) -> list[str]:
    """The Great Project values of the run's data directory that differ from the packaged ones."""
    src = (run.manifest.get("rules") or {}).get("data")
    if not src or not (Path(src) / "great_projects.json").is_file():
        return []
    mine = json.loads((Path(src) / "great_projects.json").read_text())["projects"]
    base = {g["name"]: g for g in json.loads((PACKAGED_DIR / "great_projects.json").read_text())["projects"]}
    out = []
    for g in mine:
        b = base.get(g["name"], {})
        was, now = b.get("participation_cost", {}), g.get("participation_cost", {})
        if was.get("coins") != now.get("coins"):
            out.append(f"{g['name']} coins {was.get('coins')} -> {now.get('coins')}")
        if was.get("resources") != now.get("resources"):
            out.append(f"{g['name']} resources {json.dumps(was.get('resources'))} -> {json.dumps(now.get('resources'))}")
        rw, rn = b.get("reward_per_participation_token", {}), g.get("reward_per_participation_token", {})
        for key in sorted(set(rw) | set(rn)):
            if rw.get(key) != rn.get(key):
                out.append(f"{g['name']} reward {key} {rw.get(key)} -> {rn.get(key)}")
        if b.get("penalty_if_failed") != g.get("penalty_if_failed"):
            out.append(f"{g['name']} penalty {json.dumps(b.get('penalty_if_failed'))} -> "
                       f"{json.dumps(g.get('penalty_if_failed'))}")
    return out


def _flags(run: Run) -> tuple[bool, bool]:
    rules = run.manifest.get("rules") or {}
    return bool(rules.get("babel_tower", True)), bool(rules.get("great_projects", True))


def _module_label(run: Run) -> str:
    tower, gp = _flags(run)
    return {(True, True): "base + Babel", (False, False): "base game"}.get((tower, gp),
                                                                        "Tower only" if tower else "Projects only")


def _spread(run: Run, threshold: float) -> dict[str, str]:
    """Balance figures of one run: largest seat departure, board-side range, score spread and margin."""
    p = run.players
    bal = stats.seat_balance(p, threshold=threshold)
    worst = bal.table.loc[bal.table["diff_pp"].abs().idxmax()]
    row = {"run": run.label, "modules": _module_label(run),
           "largest seat departure": f"{worst['diff_pp']:+.1f} pts (seat {int(worst.name) + 1}, {worst['label']})"}
    if "board" in p.columns:
        t = stats.win_rates(p.assign(b=board_labels(run, p).to_numpy()), "b")
        hi, lo = t["rate"].idxmax(), t["rate"].idxmin()
        row["strongest board-side [95% CI]"] = f"{hi} {ci(t.loc[hi, 'rate'], t.loc[hi, 'lo'], t.loc[hi, 'hi'])}"
        row["weakest board-side [95% CI]"] = f"{lo} {ci(t.loc[lo, 'rate'], t.loc[lo, 'lo'], t.loc[lo, 'hi'])}"
    s, mg = stats.describe(p["score"]), stats.describe(stats.winning_margin(p))
    row["mean score [95% CI]"] = ci(s["mean"], s["mean_lo"], s["mean_hi"], percent=False)
    row["score sd"] = f"{s['sd']:.2f}"
    row["margin 1st-2nd [95% CI]"] = ci(mg["mean"], mg["mean_lo"], mg["mean_hi"], percent=False)
    return row


def strategy_shift(a: Run, b: Run, threshold: float) -> list[Finding]:
    """Each strategy's win rate in run ``b`` minus run ``a``: paired game by game when the runs share seed and game
    count (analysis.models.run_change, clustered by game index)."""
    out = []
    for s in sorted(set(a.players["strategy"].astype(str)) & set(b.players["strategy"].astype(str))):
        rows = [r.players.loc[r.players["strategy"].astype(str) == s, ["game_index", "win_share"]] for r in (a, b)]
        f = run_change(*rows, "win_share", s, threshold)
        if f is not None:
            out.append(f)
    return out


def _pairing(a: Run, b: Run) -> str:
    return ("paired: both runs play the same deals (same seed and game count), so each difference is game by game"
            if paired_runs(a, b) else "independent runs (different seeds or game counts): re-run with the same "
                                      "--seed and --games to pair them")


def base_vs_babel(runs: Sequence[Run], threshold: float) -> Section | None:
    """Base game against base + Babel at the same player count: seats, strategies, boards, score spread."""
    for base in runs:
        full = [r for r in runs if r.n_players == base.n_players and _flags(r) == (True, True)
                and not (r.manifest.get("rules") or {}).get("data")]
        if _flags(base) == (False, False) and full:
            babel = full[0]
            break
    else:
        return None
    rates = {}
    for r in (base, babel):
        t = stats.win_rates(r.players, "strategy")
        rates[_module_label(r)] = [ci(x, lo, hi) for x, lo, hi in zip(t["rate"], t["lo"], t["hi"])]
        names = [str(i) for i in t.index]
    shift = strategy_shift(base, babel, threshold)
    frame = pd.DataFrame({"strategy": names, **rates}).merge(
        pd.DataFrame({"strategy": [f.what for f in shift], "Babel minus base": [f.interval() for f in shift],
                      "label": [f.label for f in shift]}), on="strategy", how="left")
    blocks: list[Block] = [
        Table(pd.DataFrame([_spread(base, threshold), _spread(babel, threshold)]),
              f"Balance with and without the expansion ({base.n_players} players; seat departures are raw, Holm-"
              "labelled; boards and sides dealt at random)."),
        Table(frame, "Strategy win rates (raw, seats random per game so seat and strategy separate) and the change "
                     f"Babel makes, in points with game-clustered 95% intervals ({_pairing(base, babel)})."),
    ]
    order = [str(x) for x in stats.win_rates(base.players, "strategy")["rate"].sort_values(ascending=False).index]
    new = [str(x) for x in stats.win_rates(babel.players, "strategy")["rate"].sort_values(ascending=False).index]
    blocks.append(f"Strategy order, base game: {' > '.join(order)}; with Babel: {' > '.join(new)}.")
    return Section("Base game against base + Babel", blocks)


def stand_in_sensitivity(runs: Sequence[Run], threshold: float) -> Section | None:
    """Per-project and per-tile findings across runs whose data differ only in stand-in values."""
    ref = [r for r in runs if not (r.manifest.get("rules") or {}).get("data") and _flags(r) == (True, True)]
    varied = [r for r in runs if (r.manifest.get("rules") or {}).get("data")]
    if not ref or not varied:
        return None
    ref = [r for r in ref if r.n_players == varied[0].n_players][:1] or ref[:1]
    group = ref + [r for r in varied if r.n_players == ref[0].n_players]
    blocks: list[Block] = []
    for r in group[1:]:
        ch = data_changes(r)
        blocks.append(f"{r.label}: " + ("; ".join(ch) if ch else "data directory identical in the project values") + ".")
    proj = None
    for r in group:
        s = project_summary(r)[["project", "success [95% CI]", "penalty hits a player [95% CI]"]]
        s.columns = ["project"] + [f"{r.run_dir.name}: {c}" for c in s.columns[1:]]
        proj = s if proj is None else proj.merge(s, on="project", how="outer")
    if proj is not None:
        order = [x for x in _data(group[0]).project_names if x in set(proj["project"])]
        proj = proj.set_index("project").reindex(order).reset_index()
        proj["rests on non-rulebook values"] = [_project_stand_ins(_data(group[0]), n) for n in proj["project"]]
        blocks.append(Table(proj, "Great Project success and penalty rates with the packaged values and with each "
                                  "perturbed data set (95% intervals)."))
    labels = _data(group[0]).tile_labels
    data0 = _data(group[0])
    for r in group[1:]:
        rows = []
        for t in range(1, N_TILES + 1):
            f = run_change(_tile_rows(group[0], t), _tile_rows(r, t), "win_share", f"tile {t} {labels[t - 1]}",
                           threshold, flag="builder", strata="stratum")
            if f is not None:
                rows.append((f, "tile", _tile_stand_ins(data0, t)))
        names = data0.project_names
        pa, pb = project_frame(group[0].games), project_frame(r.games)
        for k in sorted(set(pa["project"]) & set(pb["project"])):
            f = run_change(pa[pa["project"] == k], pb[pb["project"] == k], "success", f"{names[k]} success", threshold)
            if f is not None:
                rows.append((f, "project", _project_stand_ins(data0, names[k])))
        big = [f.what for f, _, _ in rows if f.label == "large"]
        blocks.append(Table(pd.DataFrame({
            "finding": [f.what for f, _, _ in rows], "kind": [k for _, k, _ in rows],
            f"{r.run_dir.name} minus packaged [95% CI]": [f.interval() for f, _, _ in rows],
            "label": [f.label for f, _, _ in rows], "rests on non-rulebook values": [x for _, _, x in rows]}),
            f"{r.run_dir.name} against the packaged data ({group[0].run_dir.name}): each tile's builder-minus-others "
            "effect (adjusted for strategy and seat) and each project's success rate, as a difference with its "
            f"interval, game-clustered ({_pairing(group[0], r)}). Only a difference labelled large is a sensitivity; "
            "a change of label between two separately labelled estimates is not."))
        blocks.append(f"{r.run_dir.name}: " + (f"{len(big)} finding(s) move by a large amount: {', '.join(big)}."
                                               if big else "no tile or project finding moves by a large amount."))
        shift = strategy_shift(group[0], r, threshold)
        blocks.append(f"{r.run_dir.name} minus {group[0].run_dir.name}, strategy win rates: "
                      + "; ".join(f"{f.what} {f.interval()} {f.label}" for f in shift) + ".")
    return Section("Sensitivity to the stand-in values", blocks)


def _tile_rows(run: Run, t: int) -> pd.DataFrame:
    """Player rows of the games where tile ``t`` was built: game, win share, builder flag, strategy x seat."""
    p, n = run.players, run.n_players
    builder = run.games[f"tile{t}_builder"].to_numpy(np.int64)
    built = np.repeat(builder >= 0, n)
    sub = p[built]
    flag = np.repeat(builder[builder >= 0], n) == sub["seat"].to_numpy(np.int64)
    return pd.DataFrame({"game_index": sub["game_index"].to_numpy(), "win_share": sub["win_share"].to_numpy(float),
                         "builder": flag.astype(float),
                         "stratum": sub["strategy"].astype(str).to_numpy() + "/" + sub["seat"].astype(str).to_numpy()})


def player_counts(runs: Sequence[Run]) -> Section | None:
    """Babel across player counts (3 tower slots up to 4 players, 4 from 5, BABEL-SETUP-1): tiles, projects."""
    runs = [r for r in runs if _flags(r) == (True, True) and not (r.manifest.get("rules") or {}).get("data")]
    if len({r.n_players for r in runs}) < 2:
        return None
    rows = []
    for r in sorted(runs, key=lambda r: r.n_players):
        g, n = r.games, r.n_games
        row = {"run": r.label, "players": r.n_players}
        if "tiles_built" in g.columns:
            d = stats.describe(g["tiles_built"])
            row["tiles built per game [95% CI]"] = ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False)
            tf = tile_frame(g, r.players)
            built = tf[tf["builder"] >= 0]
            row["built tiles covered [95% CI]"] = _rate_cell(int(built["covered"].sum()), len(built)) if len(built) else "n/a"
        if "gp1_success" in g.columns:
            pf = project_frame(g)
            row["projects succeeding [95% CI]"] = _rate_cell(int(pf["success"].sum()), len(pf)) if len(pf) else "n/a"
        s = stats.describe(r.players["score"])
        row["mean score [95% CI]"] = ci(s["mean"], s["mean_lo"], s["mean_hi"], percent=False)
        rows.append(row)
    return Section("7 Wonders + Babel across player counts", [
        Table(pd.DataFrame(rows), "Per run: tiles built and covered (a 3-slot tower up to 4 players, 4 slots from 5, "
                                  "BABEL-SETUP-1), Great Project success and the mean score (95% intervals).")])


def compare(runs: Sequence[Run], threshold: float = 2.0) -> list[Section]:
    """The comparisons the runs allow: player counts, base against Babel, and the stand-in sensitivity."""
    return [s for s in (player_counts(runs), base_vs_babel(runs, threshold), stand_in_sensitivity(runs, threshold))
            if s is not None]


def sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """Every 7 Wonders + Babel section, in the order of SW-STUDY-1..8 (SW-STUDY-2's neighbours first: seats are
    simultaneous, so neighbours are the seat question)."""
    return [neighbours(run, threshold), boards(run, threshold), score_composition(run), economy(run), cards(run),
            tiles(run, threshold), projects(run, threshold), method(run)]
