"""Balance report: one self-contained HTML page (embedded PNGs) plus Markdown, per run or comparing runs."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path
from typing import Sequence

import pandas as pd

from analysis import plots, stats
from analysis.load import Run, load_run
from analysis.sections import (Plot, Section, Table, ci, describe_display, game_comparison, game_sections,
                               mean_display, rate_display)
from sim.core.errors import PlaytestError


def _best_strategy(run: Run, ratings: pd.DataFrame | None, strat: pd.DataFrame) -> str:
    """Name the strongest strategy with its interval, or say the lineup is a mirror match."""
    if ratings is None or len(ratings) < 2:
        return f"one strategy only ({', '.join(strat.index.astype(str))}): a mirror match, no ranking."
    top = ratings.iloc[0]
    row = strat.loc[top["strategy"]]
    clear = len(ratings) > 1 and top["lo"] > ratings.iloc[1]["hi"]
    return (f"{top['strategy']} (rating {top['rating']:+.0f} [{top['lo']:+.0f}, {top['hi']:+.0f}] Elo; "
            f"wins {ci(row['rate'], row['lo'], row['hi'])} of its seats)"
            + (", clearly ahead of the runner-up." if clear else "; its lead over the runner-up is within the uncertainty."))


def standard_sections(run: Run) -> list[Section]:
    """Summary, seats, strategies, length, end reasons, scores, ratings and sample size for one run."""
    g, p, n = run.games, run.players, run.n_games
    bal = stats.seat_balance(p)
    strat = stats.win_rates(p, "strategy")
    multi = len(strat) > 1
    ratings, h2h = stats.strategy_ratings(p) if multi else (None, None)
    rounds = stats.describe(g["rounds"])
    ends = stats.proportion_table(g["end_reason"].astype(str))
    timings = run.manifest.get("timings") or {}

    summary = Section(f"{run.title}: summary", [
        f"**Games:** {n:,} with {run.n_players} players (seed {run.manifest.get('seed')}).",
        f"**Lineup** (seat order of game 0{', rotated each game so seat and strategy separate' if run.manifest.get('rotate') else ''}): "
        f"{', '.join(run.lineup)}.",
        f"**Seat balance:** {bal.verdict}",
        f"**Best strategy:** {_best_strategy(run, ratings, strat)}",
        f"**Game length:** median {rounds['median']:g} rounds (mean {rounds['mean']:.2f} "
        f"[{rounds['mean_lo']:.2f}, {rounds['mean_hi']:.2f}]; 90% of games between {rounds['p5']:g} and {rounds['p95']:g}).",
        "**End reasons:** " + "; ".join(f"{k} {ci(r['share'], r['lo'], r['hi'])}" for k, r in ends.iterrows()) + ".",
        "All intervals are 95%. Seats are numbered from 1 (seat 1 plays first; it is seat 0 in the logs).",
    ] + ([f"Simulated at {timings['games_per_s']:,.0f} games/s ({timings.get('wall_s', float('nan')):.1f} s wall)."]
         if timings.get("games_per_s") else []))

    seats = Section("Win rate by seat", [
        bal.verdict,
        f"Chi-square test against equal win shares: chi2 = {bal.chi2:.2f}, df = {bal.n_players - 1}, "
        f"p = {bal.p_value:.3g}; effect size Cohen's w = {bal.cohens_w:.3f} (0.1 small, 0.3 medium). "
        f"Expected share per seat with no effect: {stats.pct(bal.expected)} (games without a winner lower it below 1/n).",
        Table(rate_display(bal.table, "seat", [stats.seat_label(s) for s in bal.table.index]),
              f"Win share per seat, Wilson 95% intervals, per-seat binomial tests Holm-corrected ({n:,} games)."),
        Plot("seat_win_rates", plots.seat_win_rates(bal), "Win rate by seat; dashed line: equal share."),
        Table(mean_display(stats.mean_table(p.assign(seat_no=p["seat"] + 1), "seat_no", "score"), "seat", "score"),
              f"Final score by seat ({n:,} games)."),
    ])

    strategies = Section("Win rate by strategy", [
        Table(rate_display(strat, "strategy"), f"Share of the seats each strategy played that it won ({n:,} games)."),
        Plot("strategy_win_rates", plots.strategy_win_rates(strat, n), "Win rate by strategy; dashed line: equal share."),
    ])

    length = Section("Game length", [
        Table(describe_display({"rounds": rounds, **({"decisions": stats.describe(g["decisions"])} if "decisions" in g else {})}),
              f"Rounds and decisions per game ({n:,} games)."),
        Plot("rounds", plots.count_histogram(g["rounds"], f"Rounds per game ({n:,} games)", "rounds"), "Distribution of game length."),
    ])

    end = Section("End reasons", [
        Table(pd.DataFrame({"end reason": ends.index.astype(str), "games": [f"{c:,}" for c in ends["count"]],
                            "share [95% CI]": [ci(r["share"], r["lo"], r["hi"]) for _, r in ends.iterrows()]}),
              f"How games ended ({n:,} games)."),
        Plot("end_reasons", plots.category_shares(ends, f"End reasons ({n:,} games)", "end reason"), "Share of games per end reason."),
        Table(mean_display(stats.mean_table(g.assign(end=g["end_reason"].astype(str)), "end", "rounds"), "end reason", "rounds"),
              "Game length by end reason."),
    ])

    margin = stats.winning_margin(p)
    scores = Section("Score distributions", [
        Table(describe_display({str(k): stats.describe(v["score"]) for k, v in p.groupby("strategy", observed=True)}
                               | {"winners": stats.describe(p.loc[p["won"] > 0, "score"]),
                                  "margin 1st-2nd": stats.describe(margin)}),
              f"Final score per strategy, of winners, and the margin between first and second ({n:,} games)."),
        Plot("scores", plots.box_by(p, "strategy", "score", f"Final score by strategy ({n:,} games)", "strategy", "final score"),
             "Boxes: quartiles; whiskers: 5-95%; triangle: mean."),
    ])

    out = [summary, seats, strategies, length, end, scores]
    if multi:
        out.append(Section("Strategy ratings and matchups", [
            "Bradley-Terry ratings from every pair of different strategies in each game (who finished above whom; "
            "exact ties count half), on the Elo scale (0 = average). Intervals: bootstrap over blocks of games.",
            Table(pd.DataFrame({"strategy": ratings["strategy"],
                                "rating [95% CI]": [f"{r:+.0f} [{lo:+.0f}, {hi:+.0f}]" for r, lo, hi in
                                                    zip(ratings["rating"], ratings["lo"], ratings["hi"])],
                                "P(above average opponent)": [stats.pct(x) for x in ratings["p_beat_avg"]],
                                "comparisons": [f"{c:,}" for c in ratings["comparisons"]]}),
                  f"Strategy ratings ({n:,} games)."),
            Plot("ratings", plots.ratings_plot(ratings, n), "Ratings with 95% intervals."),
            Table(pd.DataFrame({"strategy": h2h["a"], "opponent": h2h["b"], "meetings": [f"{c:,}" for c in h2h["comparisons"]],
                                "finishes above [95% CI]": [ci(r, lo, hi) for r, lo, hi in zip(h2h["rate"], h2h["lo"], h2h["hi"])]}),
                  "Head-to-head: in games containing both, how often the strategy finished above the opponent."),
            Plot("head_to_head", plots.head_to_head(stats.head_to_head_matrix(h2h), n), "Head-to-head matrix."),
        ]))
    curve = stats.standard_error_curve(p, seat=0)
    out.append(Section("Sample size", [
        stats.sample_size_note(n, run.n_players, p0=bal.expected if 0 < bal.expected < 1 else None),
        Plot("convergence", plots.standard_error_curve(curve, "Standard error of seat 1's win rate vs games"),
             "The standard error halves for every four-fold increase in games."),
    ]))
    return out


def _top_win_rate(players: pd.DataFrame) -> str:
    """Strategy with the highest win rate and its interval (cheap, for the comparison table)."""
    t = stats.win_rates(players, "strategy").sort_values("rate", ascending=False)
    top = t.iloc[0]
    return f"{t.index[0]} {ci(top['rate'], top['lo'], top['hi'])}"


def comparison_sections(runs: Sequence[Run]) -> list[Section]:
    """Seat advantage and headline metrics side by side for several runs."""
    bals = {r.label: stats.seat_balance(r.players) for r in runs}
    rules = [r.manifest.get("rules") or {} for r in runs]
    varied = sorted(k for k in set().union(*rules) if len({repr(x.get(k)) for x in rules}) > 1)
    rows = []
    for r, rule in zip(runs, rules):
        b = bals[r.label]
        first = b.table.loc[0]
        rounds = stats.describe(r.games["rounds"])
        ends = stats.proportion_table(r.games["end_reason"].astype(str))
        rows.append({"run": r.label, "players": r.n_players, "games": f"{r.n_games:,}",
                     "seat 1 win rate [95% CI]": ci(first["rate"], first["lo"], first["hi"]),
                     "expected": stats.pct(b.expected), "chi-square p": f"{b.p_value:.3g}",
                     "mean rounds [95% CI]": ci(rounds["mean"], rounds["mean_lo"], rounds["mean_hi"], percent=False),
                     "most common end": f"{ends.index[0]} {stats.pct(ends['share'].iloc[0])}",
                     "best strategy (win rate)": _top_win_rate(r.players),
                     "rules that differ": ", ".join(f"{k}={rule.get(k)}" for k in varied) or "same rules",
                     "verdict": b.verdict})
    seat_rows = []
    for label, b in bals.items():
        for s, t in b.table.iterrows():
            seat_rows.append({"run": label, "seat": stats.seat_label(s), "games": f"{b.n_games:,}",
                              "win rate [95% CI]": ci(t["rate"], t["lo"], t["hi"]), "vs expected": f"{t['diff_pp']:+.1f} pts"})
    return [Section("Comparison of runs", [
        Table(pd.DataFrame(rows), "Headline metrics per run (every rate with its 95% interval)."),
        Plot("seat_advantage", plots.compare_seat_advantage(bals), "Seat win rate minus equal share, per run."),
        Table(pd.DataFrame(seat_rows), "Win rate per seat and run."),
    ])] + game_comparison(runs)


def build_sections(runs: Sequence[Run]) -> list[Section]:
    """All sections: per run (standard + game-specific), then a comparison when there are several runs."""
    out: list[Section] = []
    for r in runs:
        prefix = f"{r.label}: " if len(runs) > 1 else ""
        for s in standard_sections(r) + game_sections(r):
            out.append(Section(prefix + s.title, s.blocks))
    if len(runs) > 1:
        out = comparison_sections(runs) + out
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def _md_table(frame: pd.DataFrame) -> str:
    cells = lambda row: "| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |"  # noqa: E731
    return "\n".join([cells(frame.columns), "|" + "---|" * len(frame.columns), *(cells(r) for r in frame.itertuples(index=False))])


def _html_text(text: str) -> str:
    return re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(text))


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.2em;font-size:.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}caption{caption-side:top;text-align:left;color:#555;padding:.3em 0}
img{max-width:100%}figure{margin:.5em 0 1.5em}figcaption{color:#555;font-size:.9em}h2{border-bottom:1px solid #ddd;margin-top:2em}
section.summary{background:#f5f8fc;padding:.5em 1.2em;border-radius:6px}"""


def write_report(run_dirs: Sequence[str | Path], out_dir: str | Path) -> Path:
    """Load the runs, build every section, write out_dir/index.html, report.md and the PNGs; return index.html."""
    if not run_dirs:
        raise PlaytestError("no run directory given; pass one or more runs/<run-id> directories")
    runs = [load_run(d) for d in run_dirs]
    labels = [r.label for r in runs]
    if len(set(labels)) < len(labels):
        raise PlaytestError("two runs share a directory name; give each run its own directory name to compare them")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sections = build_sections(runs)
    title = " vs ".join(dict.fromkeys(r.title for r in runs)) + " balance report"
    total = sum(r.n_games for r in runs)
    md = [f"# {title}", "", f"{len(runs)} run(s), {total:,} games in all: " + ", ".join(labels) + ".", ""]
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p>{len(runs)} run(s), {total:,} games in all: {html.escape(', '.join(labels))}.</p>"]
    used: set[str] = set()
    for si, sec in enumerate(sections):
        md += [f"## {sec.title}", ""]
        cls = ' class="summary"' if sec.title.endswith("summary") else ""
        body.append(f"<section{cls}><h2>{html.escape(sec.title)}</h2>")
        for block in sec.blocks:
            if isinstance(block, str):
                md += [block, ""]
                body.append(f"<p>{_html_text(block)}</p>")
            elif isinstance(block, Table):
                md += [f"*{block.caption}*", "", _md_table(block.frame), ""]
                table = block.frame.to_html(index=False, border=0, escape=True)
                cut = table.index(">") + 1
                body.append(f"{table[:cut]}<caption>{html.escape(block.caption)}</caption>{table[cut:]}")
            elif isinstance(block, Plot):
                name = f"{si:02d}-{_slug(sec.title)}-{block.name}.png"
                assert name not in used, name
                used.add(name)
                png = plots.to_png(block.figure)
                (out / name).write_bytes(png)
                md += [f"![{block.caption}]({name})", "", f"*{block.caption}*", ""]
                b64 = base64.b64encode(png).decode("ascii")
                body.append(f'<figure><img alt="{html.escape(block.caption)}" src="data:image/png;base64,{b64}">'
                            f"<figcaption>{html.escape(block.caption)}</figcaption></figure>")
        body.append("</section>")
    (out / "report.md").write_text("\n".join(md))
    index = out / "index.html"
    index.write_text(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
                     f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    return index
