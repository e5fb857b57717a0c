"""Sea Trade sections: starting markets, pirates, storms, Row vs Wind, hand size, timeouts, gold curve."""

from __future__ import annotations

import pandas as pd

from analysis import plots, stats
from analysis.load import Run
from analysis.sections import (Block, Plot, Section, Table, association_blocks, ci, describe_display, mean_display,
                               missing_columns, rate_display, skip_note)

MARKETS = ("Rome", "Egypt", "Greece", "Persia", "Carthage", "Crete")
"""start_market codes 0..5 (ST-COMP-3 order)."""
GAME_COUNTERS = ("turns", "plunders", "storms_played", "reshuffles", "trades")


def _need(frame: pd.DataFrame, columns: tuple[str, ...], what: str, blocks: list[Block]) -> bool:
    """True when every column is present; otherwise append the skip note and return False."""
    miss = missing_columns(frame, columns)
    if miss:
        blocks.append(skip_note(what, miss))
    return not miss


def _with_rounds(run: Run) -> pd.DataFrame:
    """Player rows with their game's round count attached."""
    rounds = run.games.set_index("game_index")["rounds"]
    return run.players.assign(game_rounds=run.players["game_index"].map(rounds).to_numpy())


def starting_markets(run: Run) -> Section:
    """Win rate by starting market and by distance to the market that most desires its commodity."""
    p, n, blocks = run.players, run.n_games, []
    if _need(p, ("start_market",), "win rate by starting market", blocks):
        t = stats.win_rates(p, "start_market")
        labels = [MARKETS[int(i)] if 0 <= int(i) < len(MARKETS) else str(i) for i in t.index]
        blocks += [Table(rate_display(t, "starting market", labels), f"Win rate by starting market ({n:,} games)."),
                   Plot("start_market", plots.rate_bars(t, f"Win rate by starting market ({n:,} games)", "starting market",
                                                       expected=t["expected"].iloc[0], labels=labels),
                        "Win rate by starting market; dashed line: equal share.")]
        share = pd.crosstab(p["seat"] + 1, p["start_market"].map(lambda i: MARKETS[int(i)] if 0 <= int(i) < 6 else str(i)),
                            normalize="index")
        blocks.append(Table(share.map(stats.pct).reset_index(),
                            "Which market each seat picks (row shares; seat 1 picks first, ST-SETUP-8)."))
    if _need(p, ("start_desired_dist",), "win rate by distance to the desiring market", blocks):
        t = stats.win_rates(p, "start_desired_dist")
        blocks += [Table(rate_display(t, "sea distance to desiring market"), "Win rate by the starting market's distance "
                         "(in moves) to the market that most desires its commodity."),
                   Plot("desired_dist", plots.line_with_band(t.reset_index(), "start_desired_dist",
                                                             f"Win rate vs distance to the desiring market ({n:,} games)",
                                                             "distance (spaces)", "win rate (%)", expected=t["expected"].iloc[0]),
                        "Win rate by distance, 95% band.")]
    return Section("Starting-market advantage", blocks)


def pirates(run: Run, threshold: float) -> Section:
    """Plunders per game, cargo lost, and whether plunderers (or victims) win more."""
    g, p, n, blocks = run.games, run.players, run.n_games, []
    if _need(g, ("plunders",), "plunders per game", blocks):
        blocks.append(Plot("plunders", plots.count_histogram(g["plunders"], f"Plunders per game ({n:,} games)", "plunders"),
                           "Plunders per game (ST-PIRACY-2)."))
        hit = int((g["plunders"] > 0).sum())
        lo, hi = stats.wilson(hit, n)
        blocks.append(f"At least one plunder in {ci(hit / n, float(lo), float(hi))} of games.")
    if _need(p, ("cargo_lost", "times_plundered"), "cargo lost", blocks):
        victims = p[p["times_plundered"] > 0]
        blocks.append(Table(describe_display({"cargo lost per player": stats.describe(p["cargo_lost"]),
                                              "cargo lost per plundered player": stats.describe(victims["cargo_lost"]),
                                              "times plundered per player": stats.describe(p["times_plundered"])}),
                            f"Cargo cards lost to pirates ({len(p):,} player-games)."))
        blocks += association_blocks(run, p["times_plundered"].to_numpy() > 0, "plundered players",
                                     "players never plundered", threshold)
    if _need(p, ("plunders_made",), "win rate of plunderers", blocks):
        blocks += association_blocks(run, p["plunders_made"].to_numpy() > 0, "plunderers", "non-plunderers", threshold)
    return Section("Pirate impact", blocks)


def storms(run: Run, threshold: float) -> Section:
    """Storm card usage per game and per player, and the win rate of players who play storms."""
    g, p, n, blocks = run.games, run.players, run.n_games, []
    if _need(g, ("storms_played",), "storms per game", blocks):
        blocks.append(Plot("storms", plots.count_histogram(g["storms_played"], f"Storm cards played per game ({n:,} games)",
                                                           "storm cards"), "Storm cards played per game (ST-TURN-5)."))
    if _need(p, ("storms_played",), "win rate of storm players", blocks):
        blocks += association_blocks(run, p["storms_played"].to_numpy() > 0, "storm players",
                                     "players who never played a storm", threshold)
    return Section("Storm usage", blocks)


def sailing_cards(run: Run) -> Section:
    """Row against Wind cards: how many each strategy plays, and what winners play."""
    p, blocks = run.players, []
    if _need(p, ("row_played", "wind_played"), "Row vs Wind usage", blocks):
        long = pd.concat([p[["strategy", "won"]].assign(card="Row", played=p["row_played"].to_numpy()),
                          p[["strategy", "won"]].assign(card="Wind", played=p["wind_played"].to_numpy())])
        by_strat = stats.mean_table(long, ["strategy", "card"], "played")
        by_strat.index = [f"{s} / {c}" for s, c in by_strat.index]
        blocks.append(Table(mean_display(by_strat, "strategy / card", "cards per game"), "Row and Wind cards played per player-game."))
        win = stats.mean_table(long.assign(result=long["won"].map(lambda w: "winners" if w > 0 else "others")), ["card", "result"], "played")
        win.index = [f"{c}: {r}" for c, r in win.index]
        blocks += [Table(mean_display(win, "card: players", "cards per game"), "Cards played by winners against the other players."),
                   Plot("row_wind", plots.rate_bars(win, "Row and Wind cards played per game, winners vs others", "card: players",
                                                    ylabel="cards per player-game", value="mean", percent=False),
                        "Mean cards per player-game with 95% intervals.")]
    return Section("Row vs Wind cards", blocks)


def hand_size(run: Run) -> Section:
    """Largest hand each player held (the rules have no hand limit)."""
    p, blocks = run.players, []
    if _need(p, ("max_hand",), "hand size", blocks):
        blocks += [Plot("max_hand", plots.count_histogram(p["max_hand"], f"Largest hand per player ({len(p):,} player-games)",
                                                          "cards in hand", "share of player-games (%)"), "Largest hand held during the game."),
                   Table(mean_display(stats.mean_table(p, "strategy", "max_hand"), "strategy", "largest hand"), "Largest hand by strategy.")]
    return Section("Hand size", blocks)


def timeouts(run: Run) -> Section:
    """How often the round limit ends a game without a winner (ST-END-2): never dropped, always reported."""
    g, n = run.games, run.n_games
    k = int((g["end_reason"].astype(str) == "timeout").sum())
    lo, hi = stats.wilson(k, n)
    limit = {key: v for key, v in (run.manifest.get("rules") or {}).items() if "round" in key or "turn" in key}
    blocks: list[Block] = [f"{k:,} of {n:,} games hit the round limit{f' ({limit})' if limit else ''}: "
                           f"{ci(k / n, float(lo), float(hi), digits=2)}. Timeouts have no winner; they lower every win rate."]
    present = [c for c in GAME_COUNTERS if c in g.columns]
    if present:
        blocks.append(Table(describe_display({c: stats.describe(g[c]) for c in present}), f"Per-game counters ({n:,} games)."))
    return Section("Timeouts and game counters", blocks)


def gold_curve(run: Run) -> Section:
    """Gold after rounds 10 and 20 (games that lasted that long), and how early gold predicts winning."""
    p, blocks = _with_rounds(run), []
    for col, r in (("gold_r10", 10), ("gold_r20", 20)):
        if not _need(p, (col,), f"gold after round {r}", blocks):
            continue
        sub = p[p["game_rounds"] >= r]
        if sub.empty:
            blocks.append(f"No game lasted {r} rounds, so gold after round {r} is not shown.")
            continue
        blocks.append(Table(mean_display(stats.mean_table(sub, "strategy", col), "strategy", f"gold after round {r}"),
                            f"Gold after round {r}, by strategy ({sub['game_index'].nunique():,} games that lasted {r}+ rounds)."))
        binned = sub.assign(gold=(sub[col] // 5 * 5).clip(upper=25))
        t = stats.win_rates(binned, "gold")
        blocks.append(Plot(col, plots.line_with_band(t.reset_index(), "gold",
                                                     f"Win rate by gold after round {r} ({sub['game_index'].nunique():,} games)",
                                                     f"gold after round {r} (bins of 5; 25 = 25+)", "win rate (%)",
                                                     expected=t["expected"].iloc[0]),
                           f"How well gold after round {r} predicts the winner."))
    return Section("Gold curve", blocks)


def sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """Every Sea Trade section, in the order of the rules' balance-study list."""
    return [starting_markets(run), pirates(run, threshold), storms(run, threshold), sailing_cards(run), hand_size(run),
            timeouts(run), gold_curve(run)]
