"""Bus sections (rules §17): starting player, clock gems, end conditions, actions, buses, 18-stick seats, city."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from analysis import plots, stats
from analysis.load import Run
from analysis.models import adjusted_levels, paired_difference
from analysis.sections import (Block, Plot, Section, Table, association_blocks, ci, describe_display, mean_display,
                               missing_columns, rate_display, skip_note)

MULTI_SLOT = {"exp": "Line expansion", "pax": "New passengers", "bld": "New buildings", "vroom": "Vrroomm!"}
SINGLE_SLOT = {"bus": "Buy a bus", "clock": "Clock", "start": "Starting player"}
SLOTS = "abcdef"
PLAYER_ACTIONS = {"act_exp": "Line expansion", "act_bus": "Buy a bus", "act_pax": "New passengers",
                  "act_bld": "New buildings", "act_clock": "Clock", "act_vroom": "Vrroomm!", "act_start": "Starting player"}
TIE_BREAKS = ("none", "gems", "disc stack", "shared")
"""tie_break codes 0..3 (BUS-SCORE-3)."""


def _need(frame: pd.DataFrame, columns: Sequence[str], what: str, blocks: list[Block]) -> bool:
    """True when every column is present; otherwise append the skip note and return False."""
    miss = missing_columns(frame, columns)
    if miss:
        blocks.append(skip_note(what, miss))
    return not miss


def _rate_line(k: int, n: int, what: str) -> str:
    lo, hi = stats.wilson(k, n)
    return f"{what}: {k:,} of {n:,} = {ci(k / n, float(lo), float(hi)) if n else 'n/a'}."


def starting_player(run: Run, threshold: float) -> Section:
    """§17.1-2: first-player score, rounds holding the starting-player bus, and taking the action."""
    p, n = run.players, run.n_games
    blocks: list[Block] = ["The win rate by seat (seat 1 = first player of round 1) is in 'Win rate by seat' above; "
                           "compare runs with 3, 4 and 5 players in the comparison section."]
    if _need(p, ("points",), "points by seat", blocks):
        blocks.append(Table(mean_display(stats.mean_table(p.assign(seat_no=p["seat"] + 1), "seat_no", "points"), "seat", "points"),
                            f"Passengers delivered by seat ({n:,} games)."))
    if _need(p, ("start_player_rounds",), "win rate by rounds holding the starting-player bus", blocks):
        t = stats.win_rates(p, "start_player_rounds")
        frame = rate_display(t, "rounds as starting player")
        adj = adjusted_levels(p, "start_player_rounds", "rounds holding", threshold)
        if adj is not None:
            cells = {r.level: r.adjusted for r in adj.itertuples()}
            frame["adjusted for seat and strategy, vs 0 rounds [95% CI]"] = [
                f"{cells[k].interval()} {cells[k].label}" if cells.get(k) is not None else
                ("reference" if k == t.index[0] else "not identified") for k in t.index]
        blocks += [Table(frame, "Win rate by the number of rounds the player held the starting-player bus: raw, and "
                                "adjusted for seat and strategy (most long holders sit in seat 1, so the raw column is "
                                "largely the seat's). An association: `playtest ab` measures a cause."),
                   Plot("start_rounds", plots.line_with_band(t.reset_index(), "start_player_rounds",
                                                             f"Win rate by rounds as starting player ({n:,} games)",
                                                             "rounds holding the starting-player bus", "win rate (%)",
                                                             expected=t["expected"].iloc[0]), "95% band.")]
    if _need(p, ("act_start",), "win rate of starting-player takers", blocks):
        blocks += association_blocks(run, p["act_start"].to_numpy() > 0, "players who took Starting player",
                                     "players who never did", threshold)
    return Section("First player and the starting-player bus", blocks)


def gems(run: Run, threshold: float) -> Section:
    """§17.3: gems per game, by seat and strategy, the round of each stop, gems vs winning, the last gem."""
    g, p, n = run.games, run.players, run.n_games
    blocks: list[Block] = []
    if _need(g, ("gems_taken",), "gems per game", blocks):
        blocks += [Table(describe_display({"gems taken per game": stats.describe(g["gems_taken"])}), f"Clock gems taken ({n:,} games)."),
                   Plot("gems_per_game", plots.count_histogram(g["gems_taken"], f"Clock gems taken per game ({n:,} games)", "gems taken"),
                        "Each gem is -1 point and the first tie-breaker (BUS-SCORE-2/3).")]
    if _need(p, ("gems",), "gems by seat and strategy", blocks):
        blocks += [Table(mean_display(stats.mean_table(p.assign(seat_no=p["seat"] + 1), "seat_no", "gems"), "seat", "gems"), "Gems per player by seat."),
                   Table(mean_display(stats.mean_table(p, "strategy", "gems"), "strategy", "gems"), "Gems per player by strategy.")]
        t = stats.win_rates(p, "gems")
        blocks += [Table(rate_display(t, "gems taken by the player"), "Win rate conditional on the gems a player took."),
                   Plot("win_by_gems", plots.rate_bars(t, f"Win rate by gems taken ({n:,} games)", "gems taken by the player",
                                                       expected=t["expected"].iloc[0]), "Win rate by gems taken; dashed: equal share.")]
        blocks += association_blocks(run, p["gems"].to_numpy() > 0, "players who took a gem", "players who took none", threshold)
    cols = [f"gem_round_{k}" for k in range(1, 6)]
    present = [c for c in cols if c in g.columns]
    if present:
        taken = pd.concat([pd.DataFrame({"gem": int(c.rsplit("_", 1)[1]), "round": g[c].to_numpy()}) for c in present])
        taken = taken[taken["round"] >= 1]
        rows = []
        for k, grp in taken.groupby("gem"):
            lo, hi = stats.wilson(len(grp), n)
            rows.append({"gem": f"gem {k}", "taken in [95% CI]": ci(len(grp) / n, float(lo), float(hi)),
                         "mean round": f"{grp['round'].mean():.2f}", "median round": f"{grp['round'].median():g}"})
        blocks.append(Table(pd.DataFrame(rows), f"When each gem is taken ({n:,} games; gem k = the k-th stop of the game)."))
        if len(taken):
            blocks.append(Plot("gem_rounds", plots.count_histogram(taken["round"], f"Round in which gems are taken ({len(taken):,} gems)",
                                                                   "round", "share of gems (%)"), "Rounds of the clock stops."))
    else:
        blocks.append(skip_note("round of each gem", cols))
    if _need(g, ("clock_stops",), "share of rounds with time stopped", blocks):
        blocks.append(_rate_line(int(g["clock_stops"].sum()), int(g["rounds"].sum()), "Rounds in which time was stopped"))
    ends = g["end_reason"].astype(str)
    blocks.append(_rate_line(int(ends.str.startswith("time_collapse").sum()), n, "Games ended by the last gem (time collapse, BUS-END-1)"))
    if _need(g, ("last_gem_seat",), "who takes the last gem", blocks):
        last = g.loc[g["last_gem_seat"] >= 0, ["game_index", "last_gem_seat"]]
        takers = p.merge(last, left_on=["game_index", "seat"], right_on=["game_index", "last_gem_seat"])
        if len(takers):
            t = stats.rate_table(takers.assign(all="last-gem taker"), "all", "win_share", expected=1.0 / run.n_players)
            blocks.append(Table(rate_display(t, "player"), f"Win rate of the player who took the last gem ({len(takers):,} games)."))
    return Section("Clock and gems", blocks)


def end_conditions(run: Run) -> Section:
    """§17.4-5: which end condition fires in which round, the score margin under each, the 10-round cap."""
    g, p, n = run.games, run.players, run.n_games
    ends = g["end_reason"].astype(str)
    share = pd.crosstab(ends, g["rounds"], normalize="index")
    blocks: list[Block] = [Table(share.map(lambda x: f"{100 * x:.1f}%").reset_index().rename(columns={"end_reason": "end reason \\ round"}),
                                 "Round in which the game ends, per end condition (row shares)."),
                           _rate_line(int((g["rounds"] >= 10).sum()), n, "Games reaching the 10-round cap (BUS-ROUND-2)")]
    margin = pd.DataFrame({"end": ends.to_numpy(), "margin": stats.winning_margin(p).to_numpy()})
    blocks.append(Table(mean_display(stats.mean_table(margin, "end", "margin"), "end reason", "margin (points)"),
                        "Score margin between first and second place under each end condition."))
    if _need(g, ("tie_break",), "tie-break use", blocks):
        t = stats.proportion_table(g["tie_break"].map(lambda c: TIE_BREAKS[int(c)] if 0 <= int(c) < 4 else str(c)), list(TIE_BREAKS))
        blocks.append(Table(pd.DataFrame({"tie-break used": t.index, "games": [f"{c:,}" for c in t["count"]],
                                          "share [95% CI]": [ci(r["share"], r["lo"], r["hi"]) for _, r in t.iterrows()]}),
                            "How the winner was decided (BUS-SCORE-3)."))
    return Section("End conditions", blocks)


def actions(run: Run) -> Section:
    """§17.6: cubes per action and slot, actions by strategy, wasted cubes."""
    g, p, n = run.games, run.players, run.n_games
    blocks: list[Block] = []
    cols = [f"cubes_{a}_{k}" for a in MULTI_SLOT for k in range(6)] + [f"cubes_{a}" for a in SINGLE_SLOT]
    if _need(g, cols, "cubes per action and slot", blocks):
        m = pd.DataFrame(np.nan, index=list(MULTI_SLOT.values()) + list(SINGLE_SLOT.values()), columns=list(SLOTS))
        for a, name in MULTI_SLOT.items():
            m.loc[name] = [g[f"cubes_{a}_{k}"].mean() for k in range(6)]
        for a, name in SINGLE_SLOT.items():
            m.loc[name, "a"] = g[f"cubes_{a}"].mean()
        blocks.append(Plot("slots", plots.heatmap(m, f"Cubes per game by action and slot ({n:,} games)", "slot", "action",
                                                  fmt="{:.2f}", cmap="Blues", center=None), "Mean cubes placed per game on each slot."))
        per_action = {name: stats.describe(sum(g[f"cubes_{a}_{k}"].astype(np.int64) for k in range(6))) for a, name in MULTI_SLOT.items()}
        per_action |= {name: stats.describe(g[f"cubes_{a}"]) for a, name in SINGLE_SLOT.items()}
        blocks.append(Table(describe_display(per_action), f"Cubes per game on each action ({n:,} games)."))
    present = {c: name for c, name in PLAYER_ACTIONS.items() if c in p.columns}
    if present:
        by = p.groupby("strategy", observed=True)[list(present)].mean().rename(columns=present)
        blocks.append(Plot("actions_by_strategy", plots.heatmap(by, f"Cubes per player-game by strategy and action ({n:,} games)",
                                                                "action", "strategy", fmt="{:.2f}", cmap="Blues", center=None),
                           "What each strategy spends its cubes on."))
    else:
        blocks.append(skip_note("actions by strategy", list(PLAYER_ACTIONS)))
    if _need(p, ("wasted_cubes",), "wasted cubes", blocks):
        blocks.append(Table(mean_display(stats.mean_table(p, "strategy", "wasted_cubes"), "strategy", "wasted cubes"),
                            "Cubes that did nothing (slot index >= M, or Vrroomm! with nothing to deliver)."))
    if _need(p, ("cubes_left",), "cubes unspent at the end", blocks):
        blocks.append(Table(describe_display({"cubes left per player": stats.describe(p["cubes_left"])}), "Cubes unspent at the end."))
    return Section("Action popularity", blocks)


def buses(run: Run, threshold: float) -> Section:
    """§17.7: buses bought, final M, and whether buses predict winning."""
    g, p, n = run.games, run.players, run.n_games
    blocks: list[Block] = []
    rows = {c: stats.describe(g[c]) for c in ("buses_bought", "final_M") if c in g.columns}
    if rows:
        blocks.append(Table(describe_display(rows), f"Buses bought per game and the final maximum bus number M ({n:,} games)."))
    if _need(g, ("buses_bought",), "buses bought per game", blocks):
        blocks.append(Plot("buses_bought", plots.count_histogram(g["buses_bought"], f"Buses bought per game ({n:,} games)", "buses bought"),
                           "Buy a bus resolutions per game."))
    if _need(p, ("buses",), "win rate by buses", blocks):
        t = stats.win_rates(p, "buses")
        blocks += [Table(rate_display(t, "buses owned at the end"), "Win rate by buses owned."),
                   Plot("win_by_buses", plots.rate_bars(t, f"Win rate by buses owned ({n:,} games)", "buses owned at the end",
                                                        expected=t["expected"].iloc[0]), "Dashed: equal share.")]
        most = p["buses"].to_numpy() == p.groupby("game_index")["buses"].transform("max").to_numpy()
        blocks += association_blocks(run, most, "players with the most buses (ties included)", "the others", threshold)
    return Section("Buses and M", blocks)


def short_sticks(run: Run, threshold: float) -> Section:
    """§17.8 / BUS-AMB-21: the 18-stick seats' handicap in 4-5 player games."""
    p, blocks = run.players, []
    if run.n_players < 4:
        blocks.append("All seats have 28 sticks in a 3-player game (BUS-COMP-3): no handicap to measure.")
    elif _need(p, ("stick_limit",), "18-stick handicap", blocks):
        short = p["stick_limit"].to_numpy() < 28
        t = stats.win_rates(p.assign(group=np.where(short, "18-stick players", "28-stick players")), "group")
        d = paired_difference(p, short, "18-stick minus 28-stick players", threshold)
        text = (f"{d.what}: {d.interval()} ({d.label}); the interval is clustered by game, since both groups sit at "
                "the same tables. Seats hold the 18-stick budget by the rules, so this is a seat effect (BUS-AMB-21)."
                if d else "Only one stick budget present; no comparison possible.")
        blocks += [Table(rate_display(t, "group"), f"Win rate by stick budget ({run.n_games:,} games)."), text,
                   Plot("sticks", plots.rate_bars(t, f"Win rate by stick budget ({run.n_games:,} games)", "stick budget",
                                                  expected=t["expected"].iloc[0]), "Dashed: equal share.")]
        if "sticks_used" in p.columns:
            for label, mask in (("18-stick players", short), ("28-stick players", ~short)):
                blocks.append(_rate_line(int((p.loc[mask, "sticks_used"] >= p.loc[mask, "stick_limit"]).sum()), int(mask.sum()),
                                         f"{label} who ran out of sticks"))
    lines = [c for c in ("sticks_used", "loops_closed", "stations_on_line", "intersections_covered",
                         "exception1_sticks", "exception2_sticks") if c in p.columns]
    if lines:
        blocks.append(Table(describe_display({c: stats.describe(p[c]) for c in lines}), "Line statistics per player-game."))
    return Section("18-stick seats and lines", blocks)


def city(run: Run) -> Section:
    """§17.10: when each zone fills, and building types."""
    g, n = run.games, run.n_games
    rows = []
    for z in "abcd":
        c = f"zone_{z}_full_round"
        if c in g.columns:
            filled = g.loc[g[c] >= 1, c]
            lo, hi = stats.wilson(len(filled), n)
            rows.append({"zone": z.upper(), "filled in [95% CI]": ci(len(filled) / n, float(lo), float(hi)),
                         "mean round when filled": f"{filled.mean():.2f}" if len(filled) else "n/a"})
    blocks: list[Block] = [Table(pd.DataFrame(rows), f"When each zone fills ({n:,} games).")] if rows else [
        skip_note("zone fill rounds", [f"zone_{z}_full_round" for z in "abcd"])]
    kinds = {c: stats.describe(g[c]) for c in ("houses", "offices", "pubs", "buildings_placed", "passengers_placed",
                                               "vroom_house", "vroom_office", "vroom_pub") if c in g.columns}
    if kinds:
        blocks.append(Table(describe_display(kinds), "Buildings, passengers and Vrroomm! targets per game."))
    return Section("City growth", blocks)


def sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """Every Bus section, in the order of the rules' balance-study list (§17)."""
    return [starting_player(run, threshold), gems(run, threshold), end_conditions(run), actions(run),
            buses(run, threshold), short_sticks(run, threshold), city(run)]


def compare(runs: Sequence[Run]) -> list[Section]:
    """Bus across runs (e.g. 3, 4 and 5 players): gems, last-gem endings, rounds, 18-stick handicap."""
    rows, gem_rows = [], []
    for r in runs:
        g, p, n = r.games, r.players, r.n_games
        k = int(g["end_reason"].astype(str).str.startswith("time_collapse").sum())
        lo, hi = stats.wilson(k, n)
        rounds = stats.describe(g["rounds"])
        row = {"run": r.label, "players": r.n_players, "games": f"{n:,}",
               "mean rounds [95% CI]": ci(rounds["mean"], rounds["mean_lo"], rounds["mean_hi"], percent=False, digits=2),
               "ended by last gem [95% CI]": ci(k / n, float(lo), float(hi))}
        if "gems_taken" in g.columns:
            d = stats.describe(g["gems_taken"])
            row["gems per game [95% CI]"] = ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False, digits=2)
            gem_rows.append({"run": r.label, "n": n, "mean": d["mean"], "lo": d["mean_lo"], "hi": d["mean_hi"]})
        if r.n_players >= 4 and "stick_limit" in p.columns:
            short = p["stick_limit"].to_numpy() < 28
            d = paired_difference(p, short, "18-stick minus 28-stick", 2.0)
            if d is not None:
                row["18-stick minus 28-stick win rate (game-clustered)"] = d.interval()
        rows.append(row)
    blocks: list[Block] = [Table(pd.DataFrame(rows).fillna("n/a"), "Bus metrics per run (95% intervals).")]
    if gem_rows:
        t = pd.DataFrame(gem_rows).set_index("run")
        blocks.append(Plot("gems_per_run", plots.rate_bars(t, "Clock gems taken per game, per run", "run", ylabel="gems per game",
                                                          value="mean", percent=False), "Mean with 95% interval."))
    return [Section("Bus across runs", blocks)]
