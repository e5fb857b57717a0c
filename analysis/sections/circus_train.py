"""Circus Train sections (rules §21, CT-STAT-*): stand-in data, seats, start city, starting talents, action cards,
the value of each talent type, money curves, VP sources, performances and final scores, interaction, board and
supply, leader dynamics, the advanced game and the optional rules, solitaire results; across runs: player counts,
the advanced game against the basic game and the sensitivity to a flipped rule or other data, paired by seed."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis import plots, stats
from analysis.load import Run, in_turn_order
from analysis.models import association, cluster_ols
from analysis.sections import (Block, Plot, Section, Table, ci, describe_display, mean_display, missing_columns,
                               rate_display, skip_note)
from analysis.verdicts import Finding, finding
from sim.circus_train.data import CARDS, MONTHS, TALENT_TYPES, load_data, stand_ins_in_use
from sim.circus_train.records import SOLO_BANDS
from sim.circus_train.rules import Rules
from sim.core.errors import PlaytestError

VP_SOURCES = {"vp_talent": "most talent (month ends)", "vp_best": "best performance / April (month ends)",
              "vp_points": "Points counters", "vp_final": "final scoring (net, taxes included)"}
OTHER = "other (advanced: replays, parades, releases; the VP floor)"
HELD = {t: f"{t}s" if not t.endswith("s") else t for t in TALENT_TYPES}
"""Talent type -> its end-of-game holding column."""
PAIR_LETTERS = {"acrobat": "A", "freak": "F", "horse": "H"}
"""CT-STAT-3 names the starting pairs by these letters (AA, AF, AH, FF, FH, HH)."""
LEAD_MONTHS = ("april", "june", "august")
"""CT-STAT-11: P(win | leading after April / June / August)."""
VP_CALIBRATION = 50
BEST_CALIBRATION = 100
"""CT-WIN-2: final VP usually below 50; best performances often above 100."""


def _need(frame: pd.DataFrame, columns: Sequence[str], what: str, blocks: list[Block]) -> bool:
    """True when every column is present; otherwise append the skip note and return False."""
    miss = missing_columns(frame, columns)
    if miss:
        blocks.append(skip_note(what, miss))
    return not miss


def _name(t: str) -> str:
    return t.replace("_", " ")


def _rules(run: Run) -> dict:
    return run.manifest.get("rules") or {}


def _city_names(run: Run) -> list[str]:
    """City names of the run's map (its own data directory if the run set one)."""
    return list(load_data(_rules(run).get("data") or None).city_names)


def _share(k: int, n: int, digits: int = 1) -> str:
    """'k of n = rate [95% Wilson]'."""
    if n == 0:
        return f"{k:,} of 0 = n/a"
    lo, hi = stats.wilson(k, n)
    return f"{k:,} of {n:,} = {ci(k / n, float(lo), float(hi), digits=digits)}"


def _mean_cells(frame: pd.DataFrame, by: str, cols: dict[str, str], digits: int = 2) -> pd.DataFrame:
    """One row per group of ``by``, one 'mean [95% CI]' cell per column (``cols``: column -> heading)."""
    out = None
    for col, head in cols.items():
        t = stats.mean_table(frame, by, col)
        cells = pd.DataFrame({by: [str(i) for i in t.index],
                              head: [ci(m, lo, hi, percent=False, digits=digits)
                                     for m, lo, hi in zip(t["mean"], t["lo"], t["hi"])]})
        out = cells if out is None else out.merge(cells, on=by)
    return out


def _association_rows(run: Run, groups: list[tuple[str, np.ndarray]], threshold: float
                      ) -> tuple[pd.DataFrame, list[Finding]]:
    """Per group of player rows: its win rate, and its win rate minus the other rows' in the same games, crude and
    adjusted for strategy, seat and game length (analysis.models.association); the adjusted findings for a plot."""
    p = run.players
    y = p["win_share"].to_numpy(float)
    rows, adjusted = [], []
    for what, flag in groups:
        flag = np.asarray(flag, bool)
        k = int(flag.sum())
        a = association(p, run.games, flag, what, threshold)
        row = {"group": what, "player-games": f"{k:,}"}
        if k:
            lo, hi = stats.wilson(y[flag].sum(), k)
            row["win rate [95% CI]"] = ci(y[flag].mean(), float(lo), float(hi))
        if a is None:
            row |= {"minus the rest, crude": "one group only", "adjusted": "n/a", "label (adjusted)": "n/a"}
        else:
            row |= {"minus the rest, crude": f"{a.crude.interval()} {a.crude.label}",
                    "adjusted": a.adjusted.interval() if a.adjusted else "not identified",
                    "label (adjusted)": a.adjusted.label if a.adjusted else
                    "none: the group does not vary within strategy x seat (confounded with strategy)"}
            if a.adjusted is not None:
                adjusted.append(a.adjusted)
        rows.append(row)
    return pd.DataFrame(rows).fillna("n/a"), adjusted


ADJUSTED_NOTE = ("Crude: the group's win rate minus the other players' in the same games (errors clustered by game). "
                 "Adjusted: the same difference within strata of strategy x seat x game length. Both are "
                 "associations: a strong position may lead to the holding; `playtest ab` measures a cause.")


def effect_plot(findings: Sequence[Finding], title: str, xlabel: str, threshold: float) -> Figure:
    """Effects in points with 95% intervals, one row each, against 0 and ± the threshold."""
    fig = plots.new_figure(10.0, max(2.5, 0.45 * len(findings) + 1.6))
    ax = fig.add_subplot()
    y = np.arange(len(findings))[::-1]
    est = np.array([f.estimate for f in findings])
    err = np.array([[f.estimate - f.lo for f in findings], [f.hi - f.estimate for f in findings]])
    ax.errorbar(est, y, xerr=np.clip(err, 0, None), fmt="o", capsize=4, color="tab:blue", label="estimate, 95% interval")
    ax.axvline(0, **plots.EXPECTED_STYLE, label="no difference")
    ax.axvspan(-threshold, threshold, color="grey", alpha=0.15, label=f"± {threshold:.3g} pts (threshold)")
    ax.set_yticks(y, [f.what.removesuffix(" (adjusted)") for f in findings])
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="best")
    return fig


# ------------------------------------------------------------------------------------------------ one run
def stand_ins(run: Run) -> Section:
    """The designed stand-in values this run depends on (issue: reports name them), from the data loader."""
    r = _rules(run)
    data = load_data(r.get("data") or None)
    used = stand_ins_in_use(data, bool(r.get("advanced")), bool(r.get("event_cards")))
    where = f"the data directory {r['data']}" if r.get("data") else "the packaged component files"
    blocks: list[Block] = [f"This run read {where}. It depends on {len(used)} designed stand-in value(s): "
                           "placeholders where the real component is not public. Every figure below may move when "
                           "they are replaced; point `--set data=DIR` at the real files to redo the study."]
    if used:
        blocks.append(Table(pd.DataFrame({"stand-in in use": list(used)}), "Stand-ins this run depends on."))
    return Section("Stand-in data", blocks)


def seats(run: Run) -> Section:
    """CT-STAT-1: mean VP by seat beside the win rate, and how many months each seat leads; a seat is a place in
    turn order from the random first player (CT-SETUP-7), so the first player of month m is seat m mod N."""
    view = in_turn_order(run)
    p, n, blocks = view.players, run.n_players, []
    lead = np.bincount(np.arange(len(MONTHS)) % n, minlength=n)
    ordered = view is not run or n == 1
    if not ordered:
        blocks.append("These logs hold no turn_order column: seats are places at the table, and as the first player "
                      "is drawn at random (CT-SETUP-7) no seat leads a fixed month; re-run the study for seats in "
                      "turn order.")
    else:
        blocks.append("Seats are places in turn order from the first player drawn at random (CT-SETUP-7; the "
                      "players table's turn_order), so the first player of month m (0 = April) is seat m mod N "
                      "(CT-STAT-1): months led per seat "
                      + ", ".join(f"seat {s + 1}: {int(k)}" for s, k in enumerate(lead))
                      + ("; the rotation is uneven, so a seat effect mixes turn order with months led."
                         if lead.min() != lead.max() else "; the rotation is even."))
    if _need(p, ("vp",), "mean VP by seat", blocks):
        t = stats.mean_table(p.assign(seat_no=p["seat"] + 1), "seat_no", "vp")
        w = stats.win_rates(p, "seat")
        frame = mean_display(t, "seat", "VP").assign(**({
            "months leading": [str(int(lead[s])) for s in range(len(t))]} if ordered else {}), **{
            "win rate [95% CI]": [ci(r, lo, hi) for r, lo, hi in zip(w["rate"], w["lo"], w["hi"])]})
        where = "seat 1 leads April" if ordered else "seats at the table"
        blocks.append(Table(frame, f"Final VP and win rate by seat ({run.n_games:,} games; {where})."))
    return Section("Seats: VP and months leading", blocks)


def start_city(run: Run) -> Section:
    """CT-STAT-2: win rate and mean VP by start city, and which strategies choose which city (the city is chosen,
    so its rate mixes in its choosers': the strategy table stands beside it)."""
    p, n = run.players, run.n_games
    blocks: list[Block] = []
    if _need(p, ("start_city", "vp"), "win rate by start city", blocks):
        t = stats.win_rates(p, "start_city")
        names = _city_names(run)
        labels = [names[int(c)] if 0 <= int(c) < len(names) else str(c) for c in t.index]
        vp = stats.mean_table(p, "start_city", "vp").reindex(t.index)
        frame = rate_display(t, "start city", labels).assign(**{"mean VP [95% CI]": [
            ci(m, lo, hi, percent=False) for m, lo, hi in zip(vp["mean"], vp["lo"], vp["hi"])]})
        share = pd.crosstab(p["strategy"].astype(str), p["start_city"].map(
            lambda c: names[int(c)] if 0 <= int(c) < len(names) else str(c)), normalize="index")
        blocks += [Table(frame, f"Win rate and VP by start city ({n:,} games)."),
                   Plot("start_city", plots.rate_bars(t, f"Win rate by start city ({n:,} games)", "start city",
                                                      expected=t["expected"].iloc[0], labels=labels), "95% intervals."),
                   Table(share.map(stats.pct).rename_axis(columns=None).reset_index(),
                         "Start city chosen by each strategy (row shares): a city's rate mixes in its choosers'.")]
    return Section("Start city", blocks)


def pair_labels(players: pd.DataFrame) -> pd.Series:
    """The starting talents of each player as letters (AA, AF, AH, FF, FH, HH; CT-STAT-3), from start_<type>."""
    label = pd.Series("", index=players.index)
    for t in TALENT_TYPES:
        counts = players[f"start_{t}"].to_numpy(np.int64)
        if counts.any():
            letter = PAIR_LETTERS.get(t, t[0].upper())
            label = label + pd.Series(letter, index=players.index).str.repeat(counts.tolist())
    return label.replace("", "none")


def starting_talents(run: Run, threshold: float) -> Section:
    """CT-STAT-3: win rate by starting pair, with each pair against the rest, crude and adjusted."""
    p, blocks = run.players, []
    if _need(p, [f"start_{t}" for t in TALENT_TYPES], "win rate by starting talents", blocks):
        pair = pair_labels(p)
        t = stats.win_rates(p.assign(pair=pair.to_numpy()), "pair")
        rows, _ = _association_rows(run, [(f"{k}", (pair == k).to_numpy()) for k in t.index], threshold)
        choice = pd.crosstab(p["strategy"].astype(str), pair.to_numpy(), normalize="index")
        blocks += [Table(rate_display(t, "starting talents"),
                         f"Win rate by the two starting talents (A acrobat, F freak, H horse; {run.n_games:,} games)."),
                   Table(rows, "Each starting pair against the other players. " + ADJUSTED_NOTE),
                   Table(choice.map(stats.pct).rename_axis(columns=None).reset_index(),
                         "Starting pair chosen by each strategy (row shares).")]
    return Section("Starting talents", blocks)


def action_cards(run: Run) -> Section:
    """CT-STAT-4: cards played (or replayed) per player and game, by strategy, with 95% intervals."""
    p = run.players
    cols = [f"card_{c}" for c in CARDS]
    blocks: list[Block] = []
    if _need(p, cols, "action-card usage", blocks):
        present = [c for c in cols if p[c].any()]
        blocks.append(Table(_mean_cells(p, "strategy", {c: _name(c[5:]) for c in present}),
                            "Plays per player and game by strategy, mean [95% CI] (27 weeks, one card a week; "
                            "advanced replays included; cards never played are left out)."))
    return Section("Action-card usage", blocks)


def talent_value(run: Run, threshold: float) -> Section:
    """CT-STAT-5: per talent type, hires and holdings, and the win rate of holding >= 2 at the end or hiring >= 1,
    each against the rest, crude and adjusted for strategy, seat and game length."""
    p, blocks = run.players, []
    hired = [f"hired_{t}" for t in TALENT_TYPES]
    if not _need(p, hired + list(HELD.values()), "value of each talent type", blocks):
        return Section("Talent types and winning (an association)", blocks)
    wage = load_data(_rules(run).get("data") or None).wage
    rows = []
    for i, t in enumerate(TALENT_TYPES):
        h, k = stats.describe(p[f"hired_{t}"]), stats.describe(p[HELD[t]])
        rows.append({"talent": _name(t), "wage ($/month)": int(wage[i]),
                     "hired or bought per player [95% CI]": ci(h["mean"], h["mean_lo"], h["mean_hi"], percent=False),
                     "held at the end [95% CI]": ci(k["mean"], k["mean_lo"], k["mean_hi"], percent=False),
                     "players holding 2+ at the end": _share(int((p[HELD[t]] >= 2).sum()), len(p))})
    blocks.append(Table(pd.DataFrame(rows), f"Talent hired (roll, $10 buy, Smuggler Sam, reserve buy) and held at the "
                                            f"end, per player ({len(p):,} player-games)."))
    groups = [(f"{_name(t)}: 2+ held at the end", p[HELD[t]].to_numpy() >= 2) for t in TALENT_TYPES]
    groups += [(f"{_name(t)}: hired 1+", p[f"hired_{t}"].to_numpy() >= 1) for t in TALENT_TYPES]
    table, adjusted = _association_rows(run, groups, threshold)
    blocks.append(Table(table, "Win rate of players holding or hiring each type against the rest: an association "
                               "measured at the end of the game, not the value of a talent. Held horses are part of "
                               "the score, and only players who can pay the wages keep their talent, so a strong "
                               "position and holding talent go together; `playtest ab` (a strategy that hires a type "
                               "against one that does not) measures a cause. " + ADJUSTED_NOTE))
    if adjusted:
        blocks.append(Plot("talent_value", effect_plot(
            adjusted, f"Talent held or hired and winning: an association ({run.n_games:,} games)",
            "win rate of the group minus the rest (points), within strategy x seat", threshold),
            "Adjusted association of each talent type with winning, 95% intervals (clustered by game). Not the value "
            "of a talent: see the note above; `playtest ab` measures a cause."))
    return Section("Talent types and winning (an association)", blocks)


def money_curves(run: Run) -> Section:
    """CT-STAT-6: money at each month end by strategy (mean with 95% band), income and spending, firing."""
    p, blocks = run.players, []
    cols = [f"money_{m}" for m in MONTHS]
    if _need(p, cols, "money by month", blocks):
        long = pd.concat([p[["strategy"]].assign(month=i + 1, money=p[c].to_numpy()) for i, c in enumerate(cols)])
        t = stats.mean_table(long, ["strategy", "month"], "money").reset_index()
        wide = t.assign(cell=[ci(m, lo, hi, percent=False, digits=1) for m, lo, hi in zip(t["mean"], t["lo"], t["hi"])])
        wide = wide.pivot(index="strategy", columns="month", values="cell")
        wide.columns = [m.capitalize() for m in MONTHS]
        blocks += [Table(wide.reset_index(), "Money at each month end after its scoring, mean [95% CI] per player."),
                   Plot("money_curves", plots.line_with_band(
                       t, "month", f"Money at each month end by strategy ({run.n_games:,} games)",
                       "month (1 = April ... 6 = September; after the month's scoring)", "money ($)", value="mean",
                       percent=False, by="strategy"), "Mean money per player with its 95% band.")]
        q = long.groupby("month")["money"].quantile([0.1, 0.5, 0.9]).unstack()
        blocks.append(Table(pd.DataFrame({"month": [m.capitalize() for m in MONTHS],
                                          **{f"p{int(100 * k)}": [f"{v:g}" for v in q[k]] for k in q.columns}}),
                            "Money quantiles at each month end (all players)."))
    flows = {c: h for c, h in (("perf_money", "performance income"), ("wages_paid", "wages paid"),
                               ("hire_buys", "$10 buys (count)"), ("reserve_buys", "reserve buys (count)"),
                               ("special_declined", "Special Hires declined (count)"))
             if c in p.columns}
    if flows:
        blocks.append(Table(_mean_cells(p, "strategy", flows), "Income and spending per player and game, mean [95% CI]."))
    if _need(p, ("fired",), "firing for lack of money", blocks):
        t = stats.rate_table(p.assign(fired_any=(p["fired"] > 0).astype(float)), "strategy", "fired_any")
        blocks.append(Table(rate_display(t, "strategy", what="share who fired talent"),
                            "Players who had to release talent at a wage payment (CT-FIRE-1), by strategy."))
    return Section("Money curves", blocks)


def with_other(players: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, str]]:
    """Player rows with ``vp_other`` (final VP minus the logged sources: advanced replays, parades and releases,
    and the VP floor) and the source headings, ``vp_other`` included only where it is not always 0."""
    other = players["vp"].astype(np.int64) - sum(players[c].astype(np.int64) for c in VP_SOURCES)
    heads = dict(VP_SOURCES) | ({"vp_other": OTHER} if other.any() else {})
    return players.assign(vp_other=other.to_numpy()), heads


def vp_sources(run: Run) -> Section:
    """CT-STAT-7: VP by source and strategy, and which sources decide the winner (winner minus runner-up)."""
    cols = list(VP_SOURCES)
    blocks: list[Block] = []
    if _need(run.players, cols + ["vp"], "sources of victory points", blocks):
        p, heads = with_other(run.players)
        blocks.append(Table(_mean_cells(p, "strategy", {**heads, "vp": "VP"}),
                            "Mean VP per player and game by source and strategy [95% CI]."))
        ranked = p[p["rank"] <= 2].sort_values(["game_index", "rank", "seat"])
        firsts = ranked.drop_duplicates("game_index", keep="first")
        seconds = ranked[~ranked.index.isin(firsts.index)].drop_duplicates("game_index", keep="first")
        both = firsts.merge(seconds, on="game_index", suffixes=("_1", "_2"))
        rows = []
        for c, name in heads.items():
            d = stats.describe(both[f"{c}_1"].astype(float) - both[f"{c}_2"].astype(float))
            rows.append({"source": name, "winner minus runner-up [95% CI]":
                         ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False), "games": f"{int(d['n']):,}"})
        blocks.append(Table(pd.DataFrame(rows), "Which sources decide the game: the first-placed player's VP from each "
                                                "source minus the second-placed player's, per game."))
    return Section("Sources of victory points", blocks)


def performances(run: Run) -> Section:
    """CT-STAT-8/9, CT-WIN-2: performances, the best performance, the final VP distribution and its calibration
    against the rulebook (final VP usually below 50; best performances often above 100)."""
    p, g, blocks = run.players, run.games, []
    if _need(p, ("performances", "shows_started", "best_performance"), "performance profile", blocks):
        blocks.append(Table(_mean_cells(p, "strategy", {"performances": "performances", "shows_started":
                                                        "two-week shows started", "best_performance":
                                                        "best performance"}, digits=1),
                            "Performances per player and game, mean [95% CI]."))
        blocks.append(f"Best performances above {BEST_CALIBRATION} (the rulebook: 'often'): "
                      f"{_share(int((p['best_performance'] > BEST_CALIBRATION).sum()), len(p))} of players; the "
                      f"game's best: {_share(int((p.groupby('game_index')['best_performance'].max() > BEST_CALIBRATION).sum()), run.n_games)} of games.")
        blocks.append(Plot("best_performance", plots.count_histogram(
            p["best_performance"], f"Best performance marker at the end ({len(p):,} player-games)", "best performance",
            "share of player-games (%)"), "The Best Performance marker starts at 10 (CT-SETUP-2)."))
    if _need(p, ("vp",), "final VP", blocks):
        winners = p[p["won"] > 0]
        blocks.append(f"Final VP below {VP_CALIBRATION} (the rulebook: 'usually'): "
                      f"{_share(int((p['vp'] < VP_CALIBRATION).sum()), len(p))} of players, "
                      f"{_share(int((winners['vp'] < VP_CALIBRATION).sum()), len(winners))} of winners.")
        shared = int((g["winner_seat"] < 0).sum())
        blocks.append(f"Shared wins (a tie on VP, best performance, money and PR counters, CT-WIN-1): "
                      f"{_share(shared, run.n_games, digits=2)} of games.")
        blocks.append(Table(describe_display({"final VP": stats.describe(p["vp"]),
                                              "winners' VP": stats.describe(winners["vp"])}),
                            f"Final VP distribution ({len(p):,} player-games)."))
        blocks.append(Plot("final_vp", plots.count_histogram(p["vp"], f"Final VP ({len(p):,} player-games)", "VP",
                                                            "share of player-games (%)"), "Final VP of every player."))
    return Section("Performances and final scores", blocks)


def interaction(run: Run, threshold: float) -> Section:
    """CT-STAT-10: steals attempted and succeeded, counters lost, catch-up steals and whether their makers win."""
    p, g, blocks = run.players, run.games, []
    cols = {"steal_rolls": "steal dice rolled", "stolen": "counters stolen", "robbed": "counters lost",
            "catchups": "catch-up steals made"}
    if _need(p, list(cols), "steals", blocks):
        blocks.append(Table(_mean_cells(p, "strategy", cols), "Steals per player and game, mean [95% CI]."))
        rolls = int(p["steal_rolls"].sum())
        blocks.append(f"Steal rolls that took a counter: {_share(int(p['stolen'].sum()), rolls)}.")
        if run.n_players > 1:
            table, _ = _association_rows(run, [("made a catch-up steal", p["catchups"].to_numpy() > 0),
                                               ("stole with Overnight Hire", p["stolen"].to_numpy() > 0),
                                               ("was robbed", p["robbed"].to_numpy() > 0)], threshold)
            blocks.append(Table(table, "Win rate of players by interaction against the rest. " + ADJUSTED_NOTE))
    if "catchups" in g.columns:
        blocks.append(f"Games with at least one catch-up steal (CT-CATCHUP-1): "
                      f"{_share(int((g['catchups'] > 0).sum()), run.n_games)}.")
    return Section("Interaction", blocks)


def board_and_supply(run: Run) -> Section:
    """CT-STAT-12: cities replenished per week, weeks short of the quota, the week the bag ran out, Points counters
    claimed, distance travelled and weeks ended in a dead-end city (one rail line)."""
    g, p, n, blocks = run.games, run.players, run.n_games, []
    if _need(g, ("replacements", "quota_short_weeks", "bag_empty_week", "bag_left"), "board and supply", blocks):
        weeks = g["rounds"].astype(float)
        blocks.append(Table(describe_display({"cities replenished per week":
                                              stats.describe((g["replacements"] / weeks).round(2)),
                                              "weeks short of the quota": stats.describe(g["quota_short_weeks"]),
                                              "counters left in the bag at the end": stats.describe(g["bag_left"])}),
                            f"Board and bag per game ({n:,} games; quotas 8 / 10 / 12 by season, CT-ROUST-2)."))
        empty = g.loc[g["bag_empty_week"] > 0, "bag_empty_week"]
        blocks.append(f"Games in which the bag in use ran out after a Roustabout phase: {_share(len(empty), n, 2)}"
                      + (f"; median week {empty.median():g}." if len(empty) else "."))
    cols = {"distance": "steps travelled", "dead_end_weeks": "weeks in a dead-end city", "points_taken":
            "Points counters claimed"}
    if _need(p, list(cols), "movement and Points counters", blocks):
        blocks.append(Table(_mean_cells(p, "strategy", cols), "Movement per player and game, mean [95% CI] (steps: the "
                                                              "shortest path between the cities left and reached)."))
        k = int(p["dead_end_weeks"].sum())
        data = load_data(_rules(run).get("data") or None)
        ends = ", ".join(name for name, deg in zip(data.city_names, data.deg) if deg == 1)
        blocks.append(f"Player-weeks ended in a dead-end city ({ends}): "
                      f"{_share(k, int(g['rounds'].sum()) * run.n_players)}.")
    return Section("Board and supply", blocks)


def _sole_leaders(run: Run) -> np.ndarray:
    """[games, months] the seat with the most VP after each month end, -1 when the most is shared."""
    p = run.players.sort_values(["game_index", "seat"])
    n = run.n_players
    vp = np.stack([p[f"vp_{m}"].to_numpy(np.int64).reshape(-1, n) for m in MONTHS], axis=1)  # [G, months, seats]
    top = vp.max(axis=2, keepdims=True)
    sole = (vp == top).sum(axis=2) == 1
    return np.where(sole, vp.argmax(axis=2), -1)


def leader_dynamics(run: Run) -> Section:
    """CT-STAT-11: P(win | sole leader after each month) with Wilson intervals, and lead changes per game."""
    p, blocks = run.players, []
    if run.n_players < 2 or not _need(p, [f"vp_{m}" for m in MONTHS], "leader dynamics", blocks):
        return Section("Leader dynamics", blocks or ["One player: no leader to follow."])
    lead = _sole_leaders(run)
    share = p.sort_values(["game_index", "seat"])["win_share"].to_numpy(float).reshape(-1, run.n_players)
    rows = []
    for i, m in enumerate(MONTHS):
        has = lead[:, i] >= 0
        k = share[np.flatnonzero(has), lead[has, i]].sum()
        lo, hi = stats.wilson(k, int(has.sum()))
        rows.append({"month": i + 1, "name": m.capitalize(), "n": int(has.sum()), "rate": k / max(has.sum(), 1),
                     "lo": float(lo), "hi": float(hi)})
    t = pd.DataFrame(rows)
    fair = stats.expected_share(p)
    blocks.append(Table(pd.DataFrame({
        "after": t["name"], "games with a sole leader": [f"{n:,}" for n in t["n"]],
        "P(leader wins) [95% CI]": [ci(r, lo, hi) for r, lo, hi in zip(t["rate"], t["lo"], t["hi"])],
        "vs the fair share": [f"{100 * (r - fair):+.1f} pts" for r in t["rate"]]}),
        f"How often the sole VP leader after each month end wins (fair share {stats.pct(fair)}); "
        + ", ".join(f"after {m.capitalize()}" for m in LEAD_MONTHS) + " are the rule's checkpoints."))
    blocks.append(Plot("leader", plots.line_with_band(t, "month", f"P(win | sole leader after the month) "
                                                                  f"({run.n_games:,} games)",
                                                      "month (1 = April ... 6 = September)", "win rate (%)",
                                                      expected=fair), "95% band; dashed: the fair share."))
    last = np.full(len(lead), -1)
    changes = np.zeros(len(lead), np.int64)
    for i in range(len(MONTHS)):
        cur = lead[:, i]
        changes += (cur >= 0) & (last >= 0) & (cur != last)
        last = np.where(cur >= 0, cur, last)
    d = stats.describe(pd.Series(changes))
    blocks.append(f"Lead changes per game (a new sole leader at a month end): mean "
                  f"{ci(d['mean'], d['mean_lo'], d['mean_hi'], percent=False, digits=2)}, median {d['median']:g}, "
                  f"max {d['max']:g}.")
    return Section("Leader dynamics", blocks)


def advanced_game(run: Run, threshold: float) -> Section:
    """CT-STAT-14: reputation at the end, replays, pocketing, parades and Rest rewards by strategy, and pocketing's
    association with winning (crude and adjusted)."""
    p, blocks = run.players, []
    cols = {"reputation": "reputation box (0-7)", "replays": "replays", "pockets": "pocketings", "parades": "parades",
            "rest_rewards": "Rest rewards"}
    if _need(p, list(cols), "advanced-game actions", blocks):
        blocks.append(Table(_mean_cells(p, "strategy", cols), "Advanced-game actions per player and game, mean [95% CI]."))
        groups = [(f"{h}: 1+", p[c].to_numpy() > 0) for c, h in cols.items() if c != "reputation"]
        table, _ = _association_rows(run, groups, threshold)
        blocks.append(Table(table, "Win rate of players who used each advanced action against the rest. " + ADJUSTED_NOTE))
    return Section("Advanced game", blocks)


def special_characters(run: Run, threshold: float) -> Section:
    """CT-STAT-15: win rate by Special Characters owned, and owning one against the rest (crude and adjusted)."""
    p, blocks = run.players, []
    if _need(p, ("characters", "recruits"), "Special Characters", blocks):
        t = stats.win_rates(p, "characters")
        table, _ = _association_rows(run, [("owns a character at the end", p["characters"].to_numpy() > 0),
                                           ("recruited a character", p["recruits"].to_numpy() > 0)], threshold)
        blocks += [Table(rate_display(t, "characters owned at the end"), "Win rate by Special Characters owned."),
                   Table(table, "Owners against the rest. " + ADJUSTED_NOTE)]
    return Section("Special Characters (optional rule)", blocks)


def band_table(players: pd.DataFrame) -> pd.DataFrame:
    """Long table: strategy, band, n, share with simultaneous 95% intervals (Goodman) per strategy (CT-SOLO-8)."""
    rows = []
    for s, grp in players.groupby(players["strategy"].astype(str)):
        t = stats.proportion_table(grp["solo_band"].map(
            lambda b: SOLO_BANDS[int(b)] if 0 <= int(b) < len(SOLO_BANDS) else "n/a"), list(SOLO_BANDS))
        for band, r in t.iterrows():
            rows.append({"strategy": s, "band": band, "n": len(grp), "count": int(r["count"]), "rate": r["share"],
                         "lo": r["lo"], "hi": r["hi"]})
    return pd.DataFrame(rows)


def band_plot(t: pd.DataFrame, title: str) -> Figure:
    """Grouped bars: share of games in each success band per strategy, with 95% error bars."""
    fig = plots.new_figure(8.5, 4.2)
    ax = fig.add_subplot()
    strategies = list(dict.fromkeys(t["strategy"]))
    width = 0.8 / max(len(strategies), 1)
    x = np.arange(len(SOLO_BANDS))
    for i, s in enumerate(strategies):
        sub = t[t["strategy"] == s].set_index("band").reindex(list(SOLO_BANDS))
        v = 100 * sub["rate"].to_numpy(float)
        err = np.clip(np.vstack([v - 100 * sub["lo"].to_numpy(float), 100 * sub["hi"].to_numpy(float) - v]), 0, None)
        ax.bar(x + (i - (len(strategies) - 1) / 2) * width, v, width, yerr=err, capsize=3, label=s, alpha=0.85)
    ax.set_xticks(x, list(SOLO_BANDS))
    ax.set_xlabel("success table band (CT-SOLO-8, from the final money: collapse below \\$100 ... incredible above \\$220)")
    ax.set_ylabel("share of games (%)")
    ax.set_title(title)
    ax.legend(fontsize=8, title="strategy")
    return fig


def solitaire(run: Run) -> Section:
    """CT-SOLO-8, CT-STAT-13: the success-table band distribution per strategy with simultaneous 95% intervals,
    and the final money."""
    p, blocks = run.players, []
    if _need(p, ("solo_band", "money"), "solitaire success table", blocks):
        t = band_table(p)
        wide = t.assign(cell=[ci(r, lo, hi) for r, lo, hi in zip(t["rate"], t["lo"], t["hi"])])
        wide = wide.pivot(index="strategy", columns="band", values="cell")[list(SOLO_BANDS)]
        n = t.drop_duplicates("strategy").set_index("strategy")["n"]
        wide.insert(0, "games", [f"{int(n[s]):,}" for s in wide.index])
        blocks += [Table(wide.reset_index(), "Share of solitaire games in each band of the success table per strategy "
                                             "(simultaneous 95% intervals per strategy)."),
                   Plot("solo_bands", band_plot(t, f"Solitaire success table by strategy ({run.n_games:,} games)"),
                        "Share of games per band with 95% intervals; bands from the final money (CT-SOLO-8)."),
                   Table(mean_display(stats.mean_table(p, "strategy", "money"), "strategy", "final money ($)"),
                         "Final money (the solitaire score, CT-SOLO-2)."),
                   f"Rules thresholds: {Rules().solo_band_defeat} / {Rules().solo_band_draw} / "
                   f"{Rules().solo_band_victory} / {Rules().solo_band_incredible} dollars (defaults; a run's own "
                   "--set values are in its manifest)."]
    return Section("Solitaire success table", blocks)


def sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """Every Circus Train section for one run, in the order of the rules' study list (§21)."""
    if run.n_players == 1:
        return [stand_ins(run), solitaire(run), money_curves(run), action_cards(run)]
    r = _rules(run)
    out = [stand_ins(run), seats(run), start_city(run), starting_talents(run, threshold), action_cards(run),
           talent_value(run, threshold), money_curves(run), vp_sources(run), performances(run),
           interaction(run, threshold), board_and_supply(run), leader_dynamics(run)]
    if r.get("advanced"):
        out.append(advanced_game(run, threshold))
    if r.get("special_characters"):
        out.append(special_characters(run, threshold))
    return out


# ------------------------------------------------------------------------------------------------ across runs
def _mode(run: Run) -> str:
    r = _rules(run)
    flags = [k for k in ("advanced", "special_characters", "event_cards", "simple_variant") if r.get(k)]
    return "+".join(flags) or "basic"


def stand_ins_across(runs: Sequence[Run]) -> Section:
    """Every stand-in any run depends on, and which runs depend on it."""
    uses: dict[str, list[str]] = {}
    for r in runs:
        rules = _rules(r)
        for s in stand_ins_in_use(load_data(rules.get("data") or None), bool(rules.get("advanced")),
                                  bool(rules.get("event_cards"))):
            uses.setdefault(s, []).append(r.run_dir.name)
    blocks: list[Block] = ["The numbers in this report depend on these designed stand-ins (placeholders where the "
                           "real component values are not public); replace them with `--set data=DIR`."]
    if uses:
        blocks.append(Table(pd.DataFrame({"stand-in in use": list(uses), "runs": [", ".join(v) for v in uses.values()]}),
                            "Stand-in data and the runs that depend on it."))
    return Section("Stand-in data", blocks)


def player_counts(runs: Sequence[Run]) -> Section:
    """CT-STAT-13: headline statistics by player count and mode, with 95% intervals."""
    rows = []
    for r in sorted(runs, key=lambda r: (r.n_players, _mode(r))):
        p, g = r.players, r.games
        row = {"run": r.run_dir.name, "players": r.n_players, "mode": _mode(r), "games": f"{r.n_games:,}"}
        for col, head in (("vp", "VP per player"), ("performances", "performances per player"),
                          ("best_performance", "best performance"), ("money", "final money")):
            if col in p.columns and (r.n_players > 1 or col in ("performances", "money")):
                d = stats.describe(p[col])
                row[f"{head} [95% CI]"] = ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False, digits=1)
        if r.n_players > 1 and "vp" in p.columns:
            lo, hi = stats.wilson(int((p["vp"] < VP_CALIBRATION).sum()), len(p))
            row[f"VP < {VP_CALIBRATION} [95% CI]"] = ci(float((p["vp"] < VP_CALIBRATION).mean()), float(lo), float(hi))
            k = int((g["catchups"] > 0).sum()) if "catchups" in g.columns else 0
            lo, hi = stats.wilson(k, r.n_games)
            row["games with a catch-up steal [95% CI]"] = ci(k / r.n_games, float(lo), float(hi))
        rows.append(row)
    return Section("Circus Train across player counts", [Table(pd.DataFrame(rows).fillna("n/a"),
                                                               "Headline statistics per run (95% intervals).")])


def pairs(runs: Sequence[Run], flag: str = "advanced") -> list[tuple[Run, Run]]:
    """(without, with) ``flag`` pairs of runs that share players, seed, lineup and seating: the same seats in the
    same game indices, so games pair by index."""
    def key(r: Run) -> tuple:
        m = r.manifest
        return r.n_players, m.get("seed"), tuple(r.lineup), m.get("seating")
    out = []
    for r in (r for r in runs if _rules(r).get(flag)):
        match = [b for b in runs if key(b) == key(r) and set(rule_differences(b, r)) == {flag}]
        out += [(match[0], r)] if match else []
    return out


def _rate_cell(win_share: pd.Series) -> str:
    lo, hi = stats.wilson(float(win_share.sum()), len(win_share))
    return ci(float(win_share.mean()), float(lo), float(hi))


def _mean_cell(values: pd.Series) -> str:
    d = stats.describe(values)
    return ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False, digits=2)


def _paired_rows(base: Run, adv: Run) -> pd.DataFrame:
    """Player rows of the common games of both runs, side by side (same game index and seat = same strategy)."""
    cols = ["game_index", "seat", "strategy", "win_share", *VP_SOURCES, "vp_other", "vp"]
    pb = with_other(base.players)[0] if "vp" in base.players.columns else base.players
    pa = with_other(adv.players)[0] if "vp" in adv.players.columns else adv.players
    a = pb[[c for c in cols if c in pb.columns]]
    b = pa[[c for c in cols if c in pa.columns]]
    both = a.merge(b, on=["game_index", "seat"], suffixes=("_b", "_a"))
    if not (both["strategy_b"].astype(str) == both["strategy_a"].astype(str)).all():
        raise PlaytestError(f"{base.run_dir} and {adv.run_dir} seat different strategies in the same games; "
                            "run both with the same --seed, --strategies and --seating")
    return both


def _paired_effect(both: pd.DataFrame, mask: np.ndarray, col: str, what: str, threshold: float,
                   scale: float = 100.0) -> Finding:
    """Mean of advanced minus basic over the masked rows, with errors clustered by game."""
    sub = both[mask]
    diff = (sub[f"{col}_a"].astype(float) - sub[f"{col}_b"].astype(float)).to_numpy()
    res = cluster_ols(diff, np.ones((len(diff), 1)), sub["game_index"].to_numpy())
    return finding(what, scale * float(res.params[0]), scale * float(res.bse[0]), threshold)


def paired_comparison(base: Run, var: Run, names: tuple[str, str], threshold: float = 2.0
                      ) -> tuple[list[Block], pd.DataFrame]:
    """Blocks comparing two runs of the same games (same seed, lineup and seating): seat and strategy win rates,
    VP sources and decisions, each with the paired difference ``names[1]`` minus ``names[0]`` (same game index and
    seat, errors clustered by game); and the paired rows."""
    b, v = names
    both = _paired_rows(base, var)
    n = both["game_index"].nunique()
    diff = f"{v} minus {b}"
    blocks: list[Block] = [
        f"Paired design: {base.run_dir.name} ({b}) and {var.run_dir.name} ({v}) share the seed, the lineup and the "
        f"seating, so game i seats the same strategies in both; {n:,} common games. Differences are {diff} in the "
        "same game and seat, with errors clustered by game. The game always lasts 27 weeks (CT-CAL-1), so length is "
        "measured in decisions."]
    seat_rows, findings = [], []
    for seat in range(base.n_players):
        mask = (both["seat"] == seat).to_numpy()
        f = _paired_effect(both, mask, "win_share", f"seat {seat + 1}", threshold)
        findings.append(f)
        seat_rows.append({"seat": seat + 1, f"{b} win rate [95% CI]": _rate_cell(both.loc[mask, "win_share_b"]),
                          f"{v} win rate [95% CI]": _rate_cell(both.loc[mask, "win_share_a"]),
                          f"{diff} [95% CI]": f.interval(), "label": f.label})
    blocks.append(Table(pd.DataFrame(seat_rows), f"Seat win rates in both runs ({n:,} paired games)."))
    strat_rows = []
    rank_b = both.groupby("strategy_b", observed=True)["win_share_b"].mean().rank(ascending=False)
    rank_a = both.groupby("strategy_a", observed=True)["win_share_a"].mean().rank(ascending=False)
    for name in sorted(both["strategy_b"].astype(str).unique()):
        mask = (both["strategy_b"].astype(str) == name).to_numpy()
        f = _paired_effect(both, mask, "win_share", name, threshold)
        findings.append(f)
        strat_rows.append({"strategy": name, f"{b} win rate [95% CI] (rank)":
                           f"{_rate_cell(both.loc[mask, 'win_share_b'])} ({int(rank_b[name])})",
                           f"{v} win rate [95% CI] (rank)":
                           f"{_rate_cell(both.loc[mask, 'win_share_a'])} ({int(rank_a[name])})",
                           f"{diff} [95% CI]": f.interval(), "label": f.label})
    blocks.append(Table(pd.DataFrame(strat_rows), "Strategy win rates and ranks in both runs (raw rates; the seating "
                                                  "is random, so seats balance out)."))
    blocks.append(Plot("paired", effect_plot(
        findings, f"{diff.capitalize()} win rate, paired by game ({n:,} games)",
        "win-rate difference (points): seats first, then strategies", threshold),
        "Paired differences with 95% intervals clustered by game."))
    vp_rows = []
    for c, name in [*VP_SOURCES.items(), ("vp_other", OTHER), ("vp", "final VP")]:
        if f"{c}_a" in both.columns and (both[f"{c}_a"].any() or both[f"{c}_b"].any()):
            f = _paired_effect(both, np.ones(len(both), bool), c, name, threshold, scale=1.0)
            vp_rows.append({"source": name, f"{b} [95% CI]": _mean_cell(both[f"{c}_b"]),
                            f"{v} [95% CI]": _mean_cell(both[f"{c}_a"]),
                            f"{diff} (VP) [95% CI]": f"{f.estimate:+.2f} [{f.lo:+.2f}, {f.hi:+.2f}]"})
    blocks.append(Table(pd.DataFrame(vp_rows), "Mean VP per player by source in both runs, and the paired difference."))
    dec = base.games[["game_index", "decisions"]].merge(var.games[["game_index", "decisions"]], on="game_index",
                                                        suffixes=("_b", "_a"))
    d = stats.describe(dec["decisions_a"].astype(float) - dec["decisions_b"].astype(float))
    blocks.append(f"Decisions per game: {b} {dec['decisions_b'].mean():.1f}, {v} {dec['decisions_a'].mean():.1f}; "
                  f"paired difference {ci(d['mean'], d['mean_lo'], d['mean_hi'], percent=False, digits=1)}.")
    return blocks, both


def advanced_vs_basic(base: Run, adv: Run, threshold: float = 2.0) -> Section:
    """CT-STAT-14: the advanced game against the basic game on the same seeds: seat advantage, game length, VP
    sources and the strategy ranking, each with the paired difference (advanced minus basic)."""
    blocks, _ = paired_comparison(base, adv, ("basic", "advanced"), threshold)
    return Section(f"Advanced against basic game ({base.n_players} players)", blocks)


def rule_differences(base: Run, var: Run) -> dict[str, tuple]:
    """Rules fields (the data directory included) whose values differ between two runs: field -> (base, variant)."""
    a, b = _rules(base), _rules(var)
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


def variants(runs: Sequence[Run]) -> list[tuple[Run, Run]]:
    """(base, variant) pairs for the sensitivity study (CT-STAT-17): runs on the same seeds as an earlier-listed run
    that differ from it in rules other than the advanced flag (a flipped CT-AMB flag, a data directory)."""
    def key(r: Run) -> tuple:
        m = r.manifest
        return r.n_players, m.get("seed"), tuple(r.lineup), m.get("seating"), bool(_rules(r).get("advanced"))
    first: dict[tuple, Run] = {}
    out = []
    for r in runs:
        k = key(r)
        if k not in first:
            first[k] = r
        elif rule_differences(first[k], r):
            out.append((first[k], r))
    return out


def _conclusions(base: Run, var: Run, both: pd.DataFrame, threshold: float) -> pd.DataFrame:
    """The headline conclusions of each run and whether the variant keeps them."""
    def seat_labels(r: Run) -> str:
        t = stats.seat_balance(r.players[r.players["game_index"].isin(both["game_index"].unique())],
                               threshold=threshold).table
        big = [f"seat {int(s) + 1} {d:+.1f} pts" for s, d, lab in zip(t.index, t["diff_pp"], t["label"])
               if lab == "large"]
        return ", ".join(big) or "no seat effect of the threshold's size"
    def order(col: str, side: str) -> list[str]:
        return list(both.groupby(f"strategy_{side}", observed=True)[col].mean().sort_values(ascending=False)
                    .index.astype(str))
    vp_b, vp_a = both["vp_b"].astype(float), both["vp_a"].astype(float)
    rows = [("strategy ranking (raw win rate)", " > ".join(order("win_share_b", "b")),
             " > ".join(order("win_share_a", "a"))),
            ("best strategy", order("win_share_b", "b")[0], order("win_share_a", "a")[0]),
            ("large seat effects (raw, paired games)", seat_labels(base), seat_labels(var)),
            (f"final VP usually below {VP_CALIBRATION} (CT-WIN-2)", stats.pct((vp_b < VP_CALIBRATION).mean()),
             stats.pct((vp_a < VP_CALIBRATION).mean()))]
    out = pd.DataFrame(rows, columns=["conclusion", "base", "variant"])
    same = [b == a for _, b, a in rows[:3]] + [(vp_b < VP_CALIBRATION).mean() > 0.5 and (vp_a < VP_CALIBRATION).mean() > 0.5]
    out["survives"] = ["yes" if k else "no" for k in same]
    return out


def sensitivity(base: Run, var: Run, threshold: float = 2.0) -> Section:
    """CT-STAT-17: a run with a flipped CT-AMB flag or other data against its base run on the same seeds: the
    paired differences and which headline conclusions survive."""
    diffs = rule_differences(base, var)
    what = ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in diffs.items())
    blocks, both = paired_comparison(base, var, ("base", "variant"), threshold)
    blocks.insert(0, f"Sensitivity (CT-STAT-17): the variant changes {what}.")
    blocks.insert(1, Table(_conclusions(base, var, both, threshold),
                           "Headline conclusions in the base and the variant run, and whether they survive."))
    return Section(f"Sensitivity: {what} ({base.n_players} players)", blocks)


def compare(runs: Sequence[Run]) -> list[Section]:
    """Circus Train across runs: the stand-ins, player counts, every basic/advanced pair on the same seeds, and every
    sensitivity variant (another rule or data directory on the same seeds)."""
    return ([stand_ins_across(runs), player_counts(runs)] + [advanced_vs_basic(b, a) for b, a in pairs(runs)]
            + [sensitivity(b, v) for b, v in variants(runs)])
