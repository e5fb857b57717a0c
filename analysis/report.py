"""Balance report: one self-contained HTML page (embedded PNGs) plus Markdown, per run or comparing runs."""

from __future__ import annotations

import base64
import html
import json
import re
from pathlib import Path
from typing import Sequence

import numpy as np
import pandas as pd

from analysis import models, plots, stats
from analysis.aggregate import chunks, counts_of, describe_counts, head_rows, keyed, value_counts
from analysis.card import (PLAYER_COLUMNS, RunAnalysis, analyse, card_details_section, card_section, design_sentence,
                           end_reasons, seat_verdict)
from analysis.compensation import compensation_section
from analysis.load import Run, load_run
from analysis.metrics import until_ci_note
from analysis.players import runs_phrase
from analysis.sections import Plot, Section, Table, ci, describe_display, game_comparison, game_sections, rate_display
from analysis.verdicts import DEFAULT_MIN_EFFECT, Finding, Ledger, fdr, finding, p_is
from sim.core.errors import PlaytestError, writable_dir
from sim.logs import atomic_path


def _finding_table(rows: list[Finding], label: str, names: list[str]) -> pd.DataFrame:
    return pd.DataFrame({label: names, "effect [95% CI]": [f.interval() for f in rows], "label": [f.label for f in rows]})


def _raw_seat_table(a: RunAnalysis) -> Table:
    """Raw win share per seat; labelled only when seat and strategy can be told apart."""
    bal, n = a.balance, a.run.n_games
    frame = rate_display(bal.table, "seat", [stats.seat_label(s) for s in bal.table.index])
    if a.design.status == "confounded":
        return Table(frame, f"Raw win share per seat ({n:,} games). Each strategy always sat in the same seat, so these "
                            "differences are as much the strategies' as the seats'; no seat effect is labelled.")
    return Table(frame.assign(label=bal.table["label"].to_numpy()),
                 f"Raw win share per seat (not adjusted), Wilson 95% intervals, Holm-corrected binomial tests ({n:,} games).")


def seat_section(a: RunAnalysis) -> Section:
    """Seats: the verdict, the design check, raw and adjusted seat rates."""
    run, bal = a.run, a.balance
    game0 = head_rows(run.rows("players", ["strategy"]), 1).sort_values("seat")
    blocks: list = [
        seat_verdict(a),
        f"Seats in game 0: {', '.join(f'{s + 1}: {x}' for s, x in zip(game0['seat'], game0['strategy'].astype(str)))}. "
        f"Seating: {run.manifest.get('seating') or ('cyclic rotation (old runs)' if run.manifest.get('rotate') else 'fixed')}; "
        f"pool: {', '.join(run.lineup)}.",
        design_sentence(a),
        f"Raw seat shares against equal shares: chi2 = {bal.chi2:.2f}, df = {bal.n_players - 1}, {p_is(bal.p_value)}; "
        f"Cohen's w = {bal.cohens_w:.3f}.",
        _raw_seat_table(a),
    ]
    if a.model is not None and a.design.status != "mirror":
        found = a.seat_findings()
        blocks.append(Table(_finding_table(found, "seat", [f.what for f in found]),
                            "Seat effect adjusted for strategy (OLS on win share, seat + strategy, errors clustered by game), "
                            "in points against the fair share."))
    d = a.design
    if d.status not in ("mirror",):
        counts = pd.DataFrame(d.seat_counts.to_numpy(), columns=[f"seat {c}" for c in d.seat_counts.columns])
        counts.insert(0, "strategy", [str(i) for i in d.seat_counts.index])
        blocks.append(Table(counts,
                            "Design check: games each strategy played in each seat."))
    if len(d.orders):
        blocks.append(Table(pd.DataFrame({"pair": d.orders["pair"], "meetings": [f"{m:,}" for m in d.orders["meetings"]],
                                          "first sits before second": [stats.pct(x) for x in d.orders["first sits before second"]]}),
                            "Design check: how often each pair met in each order (50% with a random seating)."))
    return Section("Seats and the seating design", blocks)


def strategy_section(a: RunAnalysis) -> Section | None:
    """Strategies: adjusted effects (the one ranking used everywhere), ratings, head-to-head, fit diagnostics."""
    p, n = a.run.rows("players", PLAYER_COLUMNS), a.run.n_games
    strat = stats.win_rates(p, "strategy")
    if len(strat) < 2:
        return None
    blocks: list = []
    order = list(strat.index.astype(str))
    if a.model is not None:
        m = a.model
        order = list(m.strategies["strategy"])
        rows = [finding(s, e, se, a.threshold) for s, e, se in zip(m.strategies["strategy"], m.strategies["effect"], m.strategies["se"])]
        raw = strat.reindex(order)
        blocks += [
            f"Best strategy: {m.best_gap.what} {m.best_gap.interval()}: {m.best_gap.label}. "
            "Strategies are ranked everywhere in this report by this adjusted win rate.",
            Table(_finding_table(rows, "strategy", order).assign(**{"raw win rate [95% CI]": [ci(r, lo, hi) for r, lo, hi in
                                                                  zip(raw["rate"], raw["lo"], raw["hi"])]}),
                  "Win rate adjusted for seat, in points against the average strategy (game-clustered 95% intervals)."),
        ]
        sample = f" (first {models.DIAGNOSTIC_GAMES:,} games)" if n > models.DIAGNOSTIC_GAMES else ""
        inter = m.interaction
        if inter.get("identified"):
            f = inter["largest"]
            blocks.append(f"Seat x strategy interaction{sample}: Wald chi2 = {inter['chi2']:.1f}, {p_is(inter['p'])}; "
                          f"largest: {f.what} {f.interval()}, {f.label}.")
            if f.label == "large":
                top = inter["cells"].head(5)
                blocks.append(Table(pd.DataFrame({
                    "strategy": top["strategy"], "seat": top["seat"], "games": [f"{k:,}" for k in top["n"]],
                    "win rate": [stats.pct(r) for r in top["rate"]], "seat + strategy predicts": [stats.pct(r) for r in top["pred"]],
                    "departure": [f"{d:+.1f} pts" for d in top["departure"]]}),
                    "Screening: where seat + strategy does not add up, the 5 cells furthest from the model, picked by "
                    "their estimate (read these before the adjusted effects above, which average over seats)."))
        elif inter:
            blocks.append("Seat x strategy interaction: cannot be estimated with this seating design.")
        blocks += seat_by_strategy_blocks(a)
        nb = m.neighbour
        if nb.get("identified"):
            f = nb["largest"]
            blocks.append(f"Neighbour effect{sample} (the strategy seated just before a player rather than elsewhere at "
                          f"the table, the strategies it faces held fixed): Wald chi2 = {nb['chi2']:.1f}, {p_is(nb['p'])}; largest: {f.what} {f.interval()}, {f.label}."
                          + (" Who sits before whom matters here, so a fixed or rotated seating would bias strategy "
                             "comparisons." if f.label == "large" else ""))
        elif nb:
            blocks.append("Neighbour effect: cannot be estimated with this seating design.")
    else:
        blocks.append(Table(rate_display(strat, "strategy"), f"Raw win rate per strategy ({n:,} games); not adjusted for seat."))
    ratings, h2h = stats.strategy_ratings(p)
    ratings = ratings.set_index("strategy").reindex(order).reset_index()
    fit = models.rating_fit(ratings, h2h, stats.ELO, a.threshold)
    cyc = models.cycles(h2h)
    poor = fit[fit["poor fit"]]
    blocks += [
        Table(pd.DataFrame({"strategy": ratings["strategy"],
                            "rating [95% CI]": [f"{r:+.0f} [{lo:+.0f}, {hi:+.0f}]" for r, lo, hi in
                                                zip(ratings["rating"], ratings["lo"], ratings["hi"])],
                            "P(above average opponent)": [stats.pct(x) for x in ratings["p_beat_avg"]]}),
              "Bradley-Terry ratings (Elo scale, 0 = average) from who finished above whom; bootstrap over blocks of games."),
        ("Rating fit: " + ("intransitive cycles " + "; ".join(cyc) + ", so no single rating describes these strategies. "
                           if cyc else "no intransitive cycle. ")
         + (f"{len(poor)} pair(s) depart from the ratings' prediction by at least the threshold "
            f"(largest {poor.iloc[0]['a']} vs {poor.iloc[0]['b']}: {poor.iloc[0]['departure']:+.1f} pts)."
            if len(poor) else f"every pair within {a.threshold:.3g} pts of the ratings' prediction "
                              f"(largest departure {fit['departure'].abs().max():.1f} pts).")),
        Plot("head_to_head", plots.head_to_head(stats.head_to_head_matrix(h2h), n, order), "Head-to-head matrix, strongest first."),
    ]
    return Section("Strategies", blocks)


def seat_by_strategy_blocks(a: RunAnalysis) -> list:
    """The seat x strategy win-rate table, and the linear model's interaction cells checked against a conditional
    logit with games as strata (is a departure in points also one in odds, or an artefact of the scale?)."""
    cells = models.seat_strategy_table(a.run.rows("players", PLAYER_COLUMNS))
    frame = pd.DataFrame({(s, seat): ci(r.rate, r.lo, r.hi) for (s, seat), r in cells.iterrows()}, index=[0]).T
    frame = frame[0].unstack().reindex(list(a.model.strategies["strategy"]) if a.model is not None else None)
    frame.columns = [stats.seat_label(int(c)) for c in frame.columns]
    blocks: list = [Table(frame.reset_index(names="strategy").fillna("never sat here"),
                          "Win rate of each strategy in each seat (raw, Wilson 95% intervals; a strategy's seat "
                          "advantage is the difference along its row).")]
    inter = a.model.interaction if a.model is not None else {}
    if not inter.get("identified"):
        return blocks
    logit = models.seat_strategy_logit(a.run.head(models.DIAGNOSTIC_GAMES).players)
    if not logit.get("identified"):
        return blocks + ["Conditional logit check: the seating design does not identify seat x strategy odds."]
    blocks.append(f"Check on the odds scale (conditional logit of winning, games as strata, first {logit['games']:,} "
                  f"games with one winner): seat x strategy Wald chi2 = {logit['chi2']:.1f}, df = {logit['df']}, "
                  f"{p_is(logit['p'])}.")
    check = models.scale_check(inter["cells"], logit, a.threshold)
    if len(check):
        blocks.append(Table(check, "Screening: the linear model's cells at least the threshold from seat + strategy, "
                                   "each beside its odds multiplier from the conditional logit (1 = no interaction)."))
    return blocks


def standard_sections(run: Run, a: RunAnalysis | None = None) -> list[Section]:
    """Seats, strategies, length and end reasons, scores and sample size for one run."""
    a = a or analyse(run)
    n = run.n_games
    lengths = run.counts("games", [c for c in ("rounds", "decisions") if c in run.columns("games")])
    rounds = describe_counts(counts_of(lengths, "rounds"))
    ends = end_reasons(run)
    if run.n_players == 1:  # solitaire: no seats or opponents; the game's sections judge the solo results
        out = [Section("Seats", ["One player per game: there are no seats or opponents to compare, so seat and "
                                 "strategy win rates are not reported; the game's own sections score solo play."])]
    else:
        out = [seat_section(a)]
    strategies = strategy_section(a) if run.n_players > 1 else None
    if strategies is not None:
        out.append(strategies)
    out.append(Section("Game length and end reasons", [
        Table(describe_display({"rounds": rounds, **({"decisions": describe_counts(counts_of(lengths, "decisions"))}
                                                     if "decisions" in lengths else {})}),
              f"Rounds and decisions per game ({n:,} games)."),
        Plot("rounds", plots.count_histogram_counts(counts_of(lengths, "rounds"), f"Rounds per game ({n:,} games)", "rounds"),
             "Distribution of game length."),
        Table(pd.DataFrame({"end reason": ends.index.astype(str), "games": [f"{c:,}" for c in ends["count"]],
                            "share [95% CI]": [ci(r["share"], r["lo"], r["hi"]) for _, r in ends.iterrows()]}),
              f"How games ended ({n:,} games; simultaneous multinomial 95% intervals)."),
    ]))
    scores = score_counts(run)
    out.append(Section("Scores", [
        Table(describe_display({str(k): describe_counts(v.set_index("score")["n"]) for k, v in
                                scores[scores["strategy"] != ""].groupby("strategy")}
                               | ({"winners": describe_counts(counts_of(scores[scores["won"]], "score")),
                                   "margin 1st-2nd": describe_counts(counts_of(scores[scores["strategy"] == ""], "score"))}
                                  if run.n_players > 1 else {})),
              f"Final score per strategy, of winners, and the margin between first and second ({n:,} games)."),
    ]))
    if run.n_players == 1:
        return out
    curve = stats.running_rate(run.rows("players", PLAYER_COLUMNS), seat=0)
    stopping = until_ci_note(run.manifest)
    out.append(Section("Sample size", [
        stats.sample_size_note(n, a.threshold, a.seat_sd()),
        *([stopping] if stopping else []),
        Plot("convergence", plots.convergence(curve, a.fair, "Seat 1's win rate as games accumulate"),
             "The running estimate and its 95% interval from the games played so far."),
    ]))
    return out


def score_counts(run: Run) -> pd.DataFrame:
    """Counts of (strategy, score, won) over player rows, and of each game's margin between first and second as
    rows with strategy "" (score: the margin), chunk by chunk."""
    def frames():
        for p in chunks(run.rows("players", ["strategy", "score", "won"])):
            yield pd.DataFrame({"strategy": keyed(p["strategy"]), "score": p["score"].to_numpy(), "won": p["won"].to_numpy() > 0})
            if run.n_players > 1:
                yield pd.DataFrame({"strategy": "", "score": stats.winning_margin(p).to_numpy(), "won": False})
    return value_counts(frames(), ["strategy", "score", "won"])


def comparison_sections(runs: Sequence[Run], analyses: Sequence[RunAnalysis] | None = None) -> list[Section]:
    """What differs between the runs, then the game's own comparison."""
    rules = [r.manifest.get("rules") or {} for r in runs]
    varied = sorted(k for k in set().union(*rules) if len({repr(x.get(k)) for x in rules}) > 1)
    rows = [{"run": r.label, "players": r.n_players, "games": f"{r.n_games:,}", "pool": ", ".join(r.lineup),
             "seating": r.manifest.get("seating") or ("cyclic (old)" if r.manifest.get("rotate") else "fixed"),
             "rules that differ": ", ".join(f"{k}={rule.get(k)}" for k in varied) or "same rules"}
            for r, rule in zip(runs, rules)]
    blocks: list = [Table(pd.DataFrame(rows), "The runs compared (the balance card above sums them up).")]
    if analyses is not None:
        blocks += seat_differences(analyses)
    return [Section("Comparison of runs", blocks)] + game_comparison(runs)


def seat_differences(analyses: Sequence[RunAnalysis]) -> list:
    """Each seat's effect (points against its run's fair share) in every run minus the first run's, with the
    interval on the difference: a change of label between two runs is not a finding, this difference is."""
    ref = analyses[0]
    if ref.run.n_players < 2 or ref.design.status == "confounded":
        return []
    base = {i: f for i, f in enumerate(ref.seat_findings())}
    rows = []
    for a in analyses[1:]:
        if a.run.n_players < 2 or a.design.status == "confounded":
            continue
        paired = models.paired_runs(ref.run, a.run)
        for i, f in enumerate(a.seat_findings()):
            if i not in base:
                continue
            if paired:  # the same deals and seats: the seat's win rate, game by game
                d = models.run_change(*(r.players.loc[r.players["seat"] == i, ["game_index", "win_share"]]
                                        for r in (ref.run, a.run)), "win_share", stats.seat_label(i), a.threshold)
            else:
                d = finding(stats.seat_label(i), f.estimate - base[i].estimate, float(np.hypot(f.se, base[i].se)),
                            a.threshold)
            rows.append({"run": a.run.label, "seat": stats.seat_label(i), f"minus {ref.run.label} [95% CI]": d.interval(),
                         "label": d.label, "how": "paired (same deals)" if paired else "independent runs"})
    if not rows:
        return []
    return [Table(pd.DataFrame(rows), f"Seat effects compared across runs: each seat's adjusted effect (points against "
                                      f"its run's fair share) minus the same seat's in {ref.run.label}, with the 95% interval on "
                                      "the difference (paired game by game where the runs share seed and game count).")]


def build_sections(runs: Sequence[Run], min_effect: str = DEFAULT_MIN_EFFECT) -> list[Section]:
    """The balance card, the comparison (several runs), then each run's standard and game sections."""
    analyses = [analyse(r, min_effect) for r in runs]
    out: list[Section] = [card_section(analyses), card_details_section(analyses)]
    compensation = compensation_section(analyses)
    out += [compensation] if compensation is not None else []
    if len(runs) > 1:
        out += comparison_sections(runs, analyses)
    for r, a in zip(runs, analyses):
        prefix = f"{r.label}: " if len(runs) > 1 else ""
        for s in standard_sections(r, a) + game_sections(r, a.threshold):
            out.append(Section(prefix + s.title, s.blocks))
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60]


def _md_table(frame: pd.DataFrame) -> str:
    cells = lambda row: "| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |"  # noqa: E731
    return "\n".join([cells(frame.columns), "|" + "---|" * len(frame.columns), *(cells(r) for r in frame.itertuples(index=False))])


def _html_text(text: str) -> str:
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", html.escape(text))
    return re.sub(r"`(.+?)`", r"<code>\1</code>", out)


CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.2em;font-size:.9em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}caption{caption-side:top;text-align:left;color:#555;padding:.3em 0}
img{max-width:100%}figure{margin:.5em 0 1.5em}figcaption{color:#555;font-size:.9em}h2{border-bottom:1px solid #ddd;margin-top:2em}
section.card{background:#f5f8fc;padding:.2em 1.2em;border-radius:6px;border:1px solid #c9d6e8;font-size:.92em}
section.card img{max-width:560px}section.card p{margin:.4em 0}section.card h2{margin-top:.4em}
section.card table{margin:.3em 0 .6em}section.card figure{margin:.3em 0 .6em}
section.balance{display:grid;grid-template-columns:1fr 500px;column-gap:1.2em;align-content:start}
section.balance>*{grid-column:1/-1}section.balance>p{grid-column:1}
section.balance>figure{grid-column:2;grid-row:2/span 9;align-self:start}section.balance figure img{max-width:100%}
code{background:#eef;padding:1px 4px;border-radius:3px;font-size:.9em}"""


def _load(run_dirs: Sequence[str | Path]) -> list[Run]:
    if not run_dirs:
        raise PlaytestError("no run directory given; pass one or more runs/<run-id> directories")
    runs = [load_run(d) for d in run_dirs]
    games = list(dict.fromkeys(r.game for r in runs))
    if len(games) > 1:
        raise PlaytestError(f"these runs are of different games ({', '.join(games)}); a report compares runs of one "
                            "game: report each game's runs apart")
    labels = [r.label for r in runs]
    if len(set(labels)) < len(labels):
        raise PlaytestError("two runs share a directory name; give each run its own directory name to compare them")
    return runs


def write_report(run_dirs: Sequence[str | Path], out_dir: str | Path, min_effect: str = DEFAULT_MIN_EFFECT,
                 ladders: Sequence[str | Path] = (), strong: Sequence[str | Path] = ()) -> Path:
    """Load the runs, build every section, write out_dir/index.html, report.md and the PNGs; return index.html.
    ``ladders``: strength-ladder directories (`playtest ladder`) whose sections join the report; ``strong``: runs
    under a population, each compared on the card with the report's run of the same game and player count."""
    from analysis.ladder import insert_ladders, ladder_sections
    from analysis.strong import insert_strong, pair_strong

    runs = _load(run_dirs)
    pairs = pair_strong(runs, [load_run(d) for d in strong])
    sections, ledger = fdr(lambda: insert_strong(insert_ladders(build_sections(runs, min_effect),
                                                                ladder_sections(ladders, min_effect)), pairs, min_effect))
    writable_dir(out_dir)  # after the ladders are read: a bad --ladder leaves nothing behind
    title = " vs ".join(dict.fromkeys(r.title for r in runs)) + " balance report"
    return _write(runs, state_tests(sections, ledger), title, out_dir)


def write_ab_report(dir_a: Path, dir_b: Path, base: str, variant: str, out_dir: str | Path,
                    min_effect: str = DEFAULT_MIN_EFFECT) -> tuple[Path, str]:
    """The A/B report: the causal effect of playing ``variant`` instead of ``base``, then both arms' cards."""
    from analysis.ab import ab_section

    runs = _load([dir_a, dir_b])
    writable_dir(out_dir)

    def build() -> tuple[list[Section], str]:
        section, line = ab_section(runs[0], runs[1], base, variant, min_effect)
        analyses = [analyse(r, min_effect) for r in runs]
        return [section, card_section(analyses), card_details_section(analyses)] + comparison_sections(runs), line

    (sections, line), ledger = fdr(build)
    title = f"{runs[0].title} A/B: {base} vs {variant}"
    return _write(runs, state_tests(sections, ledger), title, out_dir), line


def state_tests(sections: list[Section], ledger: Ledger) -> list[Section]:
    """Say, on the report's first section (its card), how many findings were labelled and at what cut-off."""
    first = sections[0]
    return [Section(first.title, first.blocks[:1] + [ledger.sentence()] + first.blocks[1:])] + sections[1:]


OWNED = ".playtest-report.json"
"""The record, in a report directory, of the figures the last report wrote there: the only files a later report
may remove (a designer's own PNGs in that directory are never touched)."""


def _replace_figures(out: Path, written: set[str]) -> None:
    """Delete the figures the previous report in ``out`` recorded as its own that this one did not write, then
    record this one's: a report re-written into its directory references only its own figures."""
    record = out / OWNED
    try:
        previous = json.loads(record.read_text()).get("figures", [])
    except (OSError, ValueError, AttributeError):
        previous = []
    for name in previous:
        if isinstance(name, str) and name not in written and FIGURE.fullmatch(name):
            (out / name).unlink(missing_ok=True)
    with atomic_path(record) as tmp:
        tmp.write_text(json.dumps({"figures": sorted(written)}, indent=1))


FIGURE = re.compile(r"[0-9]{2}-[^/\\]+\.png")
"""The name of a report's figure, ``NN-section-plot.png`` (a recorded name of any other form is not removed)."""


def _write(runs: Sequence[Run], sections: list[Section], title: str, out_dir: str | Path) -> Path:
    """Write out_dir/index.html, report.md and the PNGs of ``sections``; return index.html."""
    labels = [r.label for r in runs]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    total = sum(r.n_games for r in runs)
    who = f"Players: {runs_phrase([r.manifest for r in runs])}."
    listed = "each listed in the card" if len(runs) > 2 else ", ".join(labels)
    md = [f"# {title}", "", f"{len(runs)} run(s), {total:,} games in all: {listed}.", "", who, ""]
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p>{len(runs)} run(s), {total:,} games in all: {html.escape(listed)}.</p>",
            f"<p><strong>{html.escape(who)}</strong></p>"]
    used: set[str] = set()
    for si, sec in enumerate(sections):
        md += [f"## {sec.title}", ""]
        cls = {"Balance card": ' class="card balance"', "A/B: what the variant changes": ' class="card"'}.get(sec.title, "")
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
    _replace_figures(out, used)
    index = out / "index.html"
    index.write_text(f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
                     f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>")
    return index
