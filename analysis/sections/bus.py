"""Bus sections (rules §17): starting player, clock gems, end conditions, actions, buses, 18-stick seats, city."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from analysis import plots, stats
from analysis.aggregate import Counts, chunks, counts_of, describe_counts, keyed, mapped, scan, value_counts
from analysis.card import PLAYER_COLUMNS
from analysis.load import Run
from analysis.models import adjusted_levels, paired_difference
from analysis.sections import (Block, Plot, Section, Table, association_blocks, ci, describe_display, mean_display,
                               rate_display, skip_note)

MULTI_SLOT = {"exp": "Line expansion", "pax": "New passengers", "bld": "New buildings", "vroom": "Vrroomm!"}
SINGLE_SLOT = {"bus": "Buy a bus", "clock": "Clock", "start": "Starting player"}
SLOTS = "abcdef"
PLAYER_ACTIONS = {"act_exp": "Line expansion", "act_bus": "Buy a bus", "act_pax": "New passengers",
                  "act_bld": "New buildings", "act_clock": "Clock", "act_vroom": "Vrroomm!", "act_start": "Starting player"}
TIE_BREAKS = ("none", "gems", "disc stack", "shared", "seat tie priority")
"""tie_break codes 0..3 (BUS-SCORE-3) and 4 (BUS-SEAT-2: only in runs that give a seat the tie priority)."""


def _need(run: Run, kind: str, columns: Sequence[str], what: str, blocks: list[Block]) -> bool:
    """True when every column is in the run's ``kind`` rows; otherwise append the skip note and return False."""
    miss = [c for c in columns if c not in run.columns(kind)]
    if miss:
        blocks.append(skip_note(what, miss))
    return not miss


def _rate_line(k: int, n: int, what: str) -> str:
    lo, hi = stats.wilson(k, n)
    return f"{what}: {k:,} of {n:,} = {ci(k / n, float(lo), float(hi)) if n else 'n/a'}."


def _players(run: Run, *columns: str):
    """The standard player columns and ``columns``, chunk by chunk (``aggregate.Rows``)."""
    return run.rows("players", [*PLAYER_COLUMNS, *columns])


def _by_seat(run: Run, value: str) -> pd.DataFrame:
    """mean_table of a player column by seat, seats counted from 1."""
    c = run.counts("players", ["seat", value])
    return stats.mean_table_counts(c.assign(seat_no=c["seat"] + 1).drop(columns="seat"), "seat_no", value)


def _describe(run: Run, kind: str, column: str) -> pd.Series:
    return describe_counts(counts_of(run.counts(kind, [column]), column))


def _count_each(run: Run, kind: str, columns: Sequence[str]) -> None:
    """Count each of ``columns`` (those in the run) in one pass, ahead of the ``_describe``/``_histogram`` that read
    them (``Run.counts_each``)."""
    run.counts_each(kind, [[c] for c in columns if c in run.columns(kind)])


def _histogram(run: Run, column: str) -> pd.Series:
    return counts_of(run.counts("games", [column]), column)


def _ends(run: Run) -> pd.Series:
    """Games per end reason."""
    return run.counts("games", ["end_reason"]).set_index("end_reason")["n"]


def starting_player(run: Run, threshold: float) -> Section:
    """§17.1-2: first-player score, rounds holding the starting-player bus, and taking the action."""
    n = run.n_games
    blocks: list[Block] = ["The win rate by seat (seat 1 = first player of round 1) is in 'Win rate by seat' above; "
                           "compare runs with 3, 4 and 5 players in the comparison section."]
    if _need(run, "players", ("points",), "points by seat", blocks):
        blocks.append(Table(mean_display(_by_seat(run, "points"), "seat", "points"), f"Passengers delivered by seat ({n:,} games)."))
    if _need(run, "players", ("start_player_rounds",), "win rate by rounds holding the starting-player bus", blocks):
        rows = _players(run, "start_player_rounds")
        t = stats.win_rates(rows, "start_player_rounds")
        frame = rate_display(t, "rounds as starting player")
        adj = adjusted_levels(rows, "start_player_rounds", "rounds holding", threshold)
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
    if _need(run, "players", ("act_start",), "win rate of starting-player takers", blocks):
        blocks += association_blocks(run, lambda p: p["act_start"].to_numpy() > 0, "players who took Starting player",
                                     "players who never did", threshold, ["act_start"])
    return Section("First player and the starting-player bus", blocks)


def gems(run: Run, threshold: float) -> Section:
    """§17.3: gems per game, by seat and strategy, the round of each stop, gems vs winning, the last gem."""
    n = run.n_games
    blocks: list[Block] = []
    if _need(run, "games", ("gems_taken",), "gems per game", blocks):
        blocks += [Table(describe_display({"gems taken per game": _describe(run, "games", "gems_taken")}), f"Clock gems taken ({n:,} games)."),
                   Plot("gems_per_game", plots.count_histogram_counts(_histogram(run, "gems_taken"),
                                                                      f"Clock gems taken per game ({n:,} games)", "gems taken"),
                        "Each gem is -1 point and the first tie-breaker (BUS-SCORE-2/3).")]
    if _need(run, "players", ("gems",), "gems by seat and strategy", blocks):
        blocks += [Table(mean_display(_by_seat(run, "gems"), "seat", "gems"), "Gems per player by seat."),
                   Table(mean_display(stats.mean_table_counts(run.counts("players", ["strategy", "gems"]), "strategy", "gems"),
                                      "strategy", "gems"), "Gems per player by strategy.")]
        t = stats.win_rates(_players(run, "gems"), "gems")
        blocks += [Table(rate_display(t, "gems taken by the player"), "Win rate conditional on the gems a player took."),
                   Plot("win_by_gems", plots.rate_bars(t, f"Win rate by gems taken ({n:,} games)", "gems taken by the player",
                                                       expected=t["expected"].iloc[0]), "Win rate by gems taken; dashed: equal share.")]
        blocks += association_blocks(run, lambda p: p["gems"].to_numpy() > 0, "players who took a gem", "players who took none",
                                     threshold, ["gems"])
    cols = [f"gem_round_{k}" for k in range(1, 6)]
    present = [c for c in cols if c in run.columns("games")]
    if present:
        _count_each(run, "games", [*present, "clock_stops", "rounds", "gems_taken"])
        taken = {int(c.rsplit("_", 1)[1]): (lambda s: s[s.index >= 1])(_histogram(run, c)) for c in present}
        rows = []
        for k, counts in taken.items():
            if not counts.sum():
                continue
            lo, hi = stats.wilson(int(counts.sum()), n)
            d = describe_counts(counts)
            rows.append({"gem": f"gem {k}", "taken in [95% CI]": ci(counts.sum() / n, float(lo), float(hi)),
                         "mean round": f"{d['mean']:.2f}", "median round": f"{d['median']:g}"})
        blocks.append(Table(pd.DataFrame(rows), f"When each gem is taken ({n:,} games; gem k = the k-th stop of the game)."))
        pooled = pd.concat(list(taken.values())).groupby(level=0).sum()
        if pooled.sum():
            blocks.append(Plot("gem_rounds", plots.count_histogram_counts(pooled, f"Round in which gems are taken ({int(pooled.sum()):,} gems)",
                                                                          "round", "share of gems (%)"), "Rounds of the clock stops."))
    else:
        blocks.append(skip_note("round of each gem", cols))
    if _need(run, "games", ("clock_stops",), "share of rounds with time stopped", blocks):
        stops, rounds = _histogram(run, "clock_stops"), _histogram(run, "rounds")
        blocks.append(_rate_line(int((stops.index * stops).sum()), int((rounds.index * rounds).sum()), "Rounds in which time was stopped"))
    ends = _ends(run)
    blocks.append(_rate_line(int(ends[ends.index.str.startswith("time_collapse")].sum()), n,
                             "Games ended by the last gem (time collapse, BUS-END-1)"))
    if _need(run, "games", ("last_gem_seat",), "who takes the last gem", blocks):
        def takers():
            for g, p in run.chunks(["last_gem_seat"], ["win_share"]):
                last = g.loc[g["last_gem_seat"] >= 0, ["game_index", "last_gem_seat"]]
                yield p.merge(last, left_on=["game_index", "seat"], right_on=["game_index", "last_gem_seat"]).assign(all="last-gem taker")
        t = stats.rate_table(takers, "all", "win_share", expected=1.0 / run.n_players)
        if len(t):
            blocks.append(Table(rate_display(t, "player"), f"Win rate of the player who took the last gem ({int(t['n'].sum()):,} games)."))
    return Section("Clock and gems", blocks)


def _margins(run: Run) -> pd.DataFrame:
    """Counts of (end reason, margin between first and second) over games, chunk by chunk."""
    def frames():
        for g, p in run.chunks(["end_reason"], ["score"]):
            yield pd.DataFrame({"end": g["end_reason"].astype(str).to_numpy(), "margin": stats.winning_margin(p).to_numpy()})
    return value_counts(frames(), ["end", "margin"])


def end_conditions(run: Run) -> Section:
    """§17.4-5: which end condition fires in which round, the score margin under each, the 10-round cap."""
    n = run.n_games
    c = run.counts("games", ["end_reason", "rounds"])
    share = c.pivot(index="end_reason", columns="rounds", values="n").fillna(0)
    share = share.div(share.sum(axis=1), axis=0)
    rounds = counts_of(c, "rounds")
    blocks: list[Block] = [Table(share.map(lambda x: f"{100 * x:.1f}%").reset_index().rename(columns={"end_reason": "end reason \\ round"}),
                                 "Round in which the game ends, per end condition (row shares)."),
                           _rate_line(int(rounds[rounds.index >= 10].sum()), n, "Games reaching the 10-round cap (BUS-ROUND-2)")]
    blocks.append(Table(mean_display(stats.mean_table_counts(_margins(run), "end", "margin"), "end reason", "margin (points)"),
                        "Score margin between first and second place under each end condition."))
    if _need(run, "games", ("tie_break",), "tie-break use", blocks):
        codes = _histogram(run, "tie_break")
        named = codes.groupby([TIE_BREAKS[int(k)] if 0 <= int(k) < len(TIE_BREAKS) else str(k)
                               for k in codes.index]).sum()
        t = stats.proportion_table_counts(named, [b for b in TIE_BREAKS if b in named.index or b != TIE_BREAKS[4]])
        blocks.append(Table(pd.DataFrame({"tie-break used": t.index, "games": [f"{c:,}" for c in t["count"]],
                                          "share [95% CI]": [ci(r["share"], r["lo"], r["hi"]) for _, r in t.iterrows()]}),
                            "How the winner was decided (BUS-SCORE-3)."))
    return Section("End conditions", blocks)


def actions(run: Run) -> Section:
    """§17.6: cubes per action and slot, actions by strategy, wasted cubes."""
    n = run.n_games
    blocks: list[Block] = []
    cols = [f"cubes_{a}_{k}" for a in MULTI_SLOT for k in range(6)] + [f"cubes_{a}" for a in SINGLE_SLOT]
    if _need(run, "games", cols, "cubes per action and slot", blocks):
        totals = sum(g[cols].sum().astype(np.int64) for g in chunks(run.rows("games", cols)))
        m = pd.DataFrame(np.nan, index=list(MULTI_SLOT.values()) + list(SINGLE_SLOT.values()), columns=list(SLOTS))
        for a, name in MULTI_SLOT.items():
            m.loc[name] = [totals[f"cubes_{a}_{k}"] / n for k in range(6)]
        for a, name in SINGLE_SLOT.items():
            m.loc[name, "a"] = totals[f"cubes_{a}"] / n
        blocks.append(Plot("slots", plots.heatmap(m, f"Cubes per game by action and slot ({n:,} games)", "slot", "action",
                                                  fmt="{:.2f}", cmap="Blues", center=None), "Mean cubes placed per game on each slot."))

        def per_game():
            for g in chunks(run.rows("games", cols)):
                yield pd.DataFrame({a: sum(g[f"cubes_{a}_{k}"].astype(np.int64) for k in range(6)) for a in MULTI_SLOT}
                                   | {a: g[f"cubes_{a}"].to_numpy() for a in SINGLE_SLOT})
        every = MULTI_SLOT | SINGLE_SLOT
        per_action = {name: describe_counts(counts_of(c, a)) for (a, name), c in
                      zip(every.items(), scan(per_game(), *(Counts([a]) for a in every)))}
        blocks.append(Table(describe_display(per_action), f"Cubes per game on each action ({n:,} games)."))
    present = {c: name for c, name in PLAYER_ACTIONS.items() if c in run.columns("players")}
    if present:
        sums = [(p.groupby(keyed(p["strategy"]))[list(present)].sum(), p.groupby(keyed(p["strategy"])).size())
                for p in chunks(run.rows("players", ["strategy", *present]))]
        total = pd.concat([s for s, _ in sums]).groupby(level=0).sum()
        by = total.div(pd.concat([c for _, c in sums]).groupby(level=0).sum(), axis=0).rename(columns=present)
        blocks.append(Plot("actions_by_strategy", plots.heatmap(by, f"Cubes per player-game by strategy and action ({n:,} games)",
                                                                "action", "strategy", fmt="{:.2f}", cmap="Blues", center=None),
                           "What each strategy spends its cubes on."))
    else:
        blocks.append(skip_note("actions by strategy", list(PLAYER_ACTIONS)))
    if _need(run, "players", ("wasted_cubes",), "wasted cubes", blocks):
        blocks.append(Table(mean_display(stats.mean_table_counts(run.counts("players", ["strategy", "wasted_cubes"]), "strategy",
                                                                 "wasted_cubes"), "strategy", "wasted cubes"),
                            "Cubes that did nothing (slot index >= M, or Vrroomm! with nothing to deliver)."))
    if _need(run, "players", ("cubes_left",), "cubes unspent at the end", blocks):
        blocks.append(Table(describe_display({"cubes left per player": _describe(run, "players", "cubes_left")}), "Cubes unspent at the end."))
    return Section("Action popularity", blocks)


def _most_buses(p: pd.DataFrame) -> np.ndarray:
    """Player rows holding their game's most buses (ties included)."""
    return p["buses"].to_numpy() == p.groupby("game_index")["buses"].transform("max").to_numpy()


def buses(run: Run, threshold: float) -> Section:
    """§17.7: buses bought, final M, and whether buses predict winning."""
    n = run.n_games
    blocks: list[Block] = []
    _count_each(run, "games", ("buses_bought", "final_M"))
    rows = {c: _describe(run, "games", c) for c in ("buses_bought", "final_M") if c in run.columns("games")}
    if rows:
        blocks.append(Table(describe_display(rows), f"Buses bought per game and the final maximum bus number M ({n:,} games)."))
    if _need(run, "games", ("buses_bought",), "buses bought per game", blocks):
        blocks.append(Plot("buses_bought", plots.count_histogram_counts(_histogram(run, "buses_bought"), f"Buses bought per game ({n:,} games)",
                                                                        "buses bought"), "Buy a bus resolutions per game."))
    if _need(run, "players", ("buses",), "win rate by buses", blocks):
        t = stats.win_rates(_players(run, "buses"), "buses")
        blocks += [Table(rate_display(t, "buses owned at the end"), "Win rate by buses owned."),
                   Plot("win_by_buses", plots.rate_bars(t, f"Win rate by buses owned ({n:,} games)", "buses owned at the end",
                                                        expected=t["expected"].iloc[0]), "Dashed: equal share.")]
        blocks += association_blocks(run, _most_buses, "players with the most buses (ties included)", "the others", threshold,
                                     ["buses"])
    return Section("Buses and M", blocks)


def _short(p: pd.DataFrame) -> np.ndarray:
    """Player rows with the 18-stick budget (BUS-AMB-21)."""
    return p["stick_limit"].to_numpy() < 28


def short_sticks(run: Run, threshold: float) -> Section:
    """§17.8 / BUS-AMB-21: the 18-stick seats' handicap in 4-5 player games."""
    blocks: list[Block] = []
    if run.n_players < 4:
        blocks.append("All seats have 28 sticks in a 3-player game (BUS-COMP-3): no handicap to measure.")
    elif _need(run, "players", ("stick_limit",), "18-stick handicap", blocks):
        rows = _players(run, "stick_limit")
        t = stats.win_rates(mapped(rows, lambda p: p.assign(group=np.where(_short(p), "18-stick players", "28-stick players"))), "group")
        d = paired_difference(rows, _short, "18-stick minus 28-stick players", threshold)
        text = (f"{d.what}: {d.interval()} ({d.label}); the interval is clustered by game, since both groups sit at "
                "the same tables. Seats hold the 18-stick budget by the rules, so this is a seat effect (BUS-AMB-21)."
                if d else "Only one stick budget present; no comparison possible.")
        blocks += [Table(rate_display(t, "group"), f"Win rate by stick budget ({run.n_games:,} games)."), text,
                   Plot("sticks", plots.rate_bars(t, f"Win rate by stick budget ({run.n_games:,} games)", "stick budget",
                                                  expected=t["expected"].iloc[0]), "Dashed: equal share.")]
        if "sticks_used" in run.columns("players"):
            c = run.counts("players", ["stick_limit", "sticks_used"])
            out = c["sticks_used"] >= c["stick_limit"]
            for label, mask in (("18-stick players", c["stick_limit"] < 28), ("28-stick players", c["stick_limit"] >= 28)):
                blocks.append(_rate_line(int(c.loc[mask & out, "n"].sum()), int(c.loc[mask, "n"].sum()), f"{label} who ran out of sticks"))
    lines = [c for c in ("sticks_used", "loops_closed", "stations_on_line", "intersections_covered",
                         "exception1_sticks", "exception2_sticks") if c in run.columns("players")]
    if lines:
        _count_each(run, "players", lines)
        blocks.append(Table(describe_display({c: _describe(run, "players", c) for c in lines}), "Line statistics per player-game."))
    return Section("18-stick seats and lines", blocks)


def city(run: Run) -> Section:
    """§17.10: when each zone fills, and building types."""
    n = run.n_games
    kinds = ("houses", "offices", "pubs", "buildings_placed", "passengers_placed", "vroom_house", "vroom_office", "vroom_pub")
    _count_each(run, "games", [*(f"zone_{z}_full_round" for z in "abcd"), *kinds])
    rows = []
    for z in "abcd":
        c = f"zone_{z}_full_round"
        if c in run.columns("games"):
            filled = (lambda s: s[s.index >= 1])(_histogram(run, c))
            k = int(filled.sum())
            lo, hi = stats.wilson(k, n)
            rows.append({"zone": z.upper(), "filled in [95% CI]": ci(k / n, float(lo), float(hi)),
                         "mean round when filled": f"{describe_counts(filled)['mean']:.2f}" if k else "n/a"})
    blocks: list[Block] = [Table(pd.DataFrame(rows), f"When each zone fills ({n:,} games).")] if rows else [
        skip_note("zone fill rounds", [f"zone_{z}_full_round" for z in "abcd"])]
    described = {c: _describe(run, "games", c) for c in kinds if c in run.columns("games")}
    if described:
        blocks.append(Table(describe_display(described), "Buildings, passengers and Vrroomm! targets per game."))
    return Section("City growth", blocks)


def sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """Every Bus section, in the order of the rules' balance-study list (§17)."""
    return [starting_player(run, threshold), gems(run, threshold), end_conditions(run), actions(run),
            buses(run, threshold), short_sticks(run, threshold), city(run)]


def compare(runs: Sequence[Run]) -> list[Section]:
    """Bus across runs (e.g. 3, 4 and 5 players): gems, last-gem endings, rounds, 18-stick handicap."""
    rows, gem_rows = [], []
    for r in runs:
        n = r.n_games
        ends = _ends(r)
        k = int(ends[ends.index.str.startswith("time_collapse")].sum())
        lo, hi = stats.wilson(k, n)
        rounds = _describe(r, "games", "rounds")
        row = {"run": r.label, "players": r.n_players, "games": f"{n:,}",
               "mean rounds [95% CI]": ci(rounds["mean"], rounds["mean_lo"], rounds["mean_hi"], percent=False, digits=2),
               "ended by last gem [95% CI]": ci(k / n, float(lo), float(hi))}
        if "gems_taken" in r.columns("games"):
            d = _describe(r, "games", "gems_taken")
            row["gems per game [95% CI]"] = ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False, digits=2)
            gem_rows.append({"run": r.label, "n": n, "mean": d["mean"], "lo": d["mean_lo"], "hi": d["mean_hi"]})
        if r.n_players >= 4 and "stick_limit" in r.columns("players"):
            d = paired_difference(_players(r, "stick_limit"), _short, "18-stick minus 28-stick", 2.0)
            if d is not None:
                row["18-stick minus 28-stick win rate (game-clustered)"] = d.interval()
        rows.append(row)
    blocks: list[Block] = [Table(pd.DataFrame(rows).fillna("n/a"), "Bus metrics per run (95% intervals).")]
    if gem_rows:
        t = pd.DataFrame(gem_rows).set_index("run")
        blocks.append(Plot("gems_per_run", plots.rate_bars(t, "Clock gems taken per game, per run", "run", ylabel="gems per game",
                                                          value="mean", percent=False), "Mean with 95% interval."))
    return [Section("Bus across runs", blocks)]
