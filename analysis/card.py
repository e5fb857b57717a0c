"""The one-screen balance card at the top of every report: seat advantage as a multiple of the fair
share for every run on one chart, the headline findings with their labels, best and worst strategy with
the interval on the gap, game length and end reasons, degenerate games with a replay command, and the
points handicap that would equalise the seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from analysis import models, plots, stats
from analysis.handicap import seat_handicaps
from analysis.load import Run
from analysis.sections import Plot, Section, Table, ci
from analysis.verdicts import MEANING, Finding, Threshold, finding, parse_min_effect

REPLAY_EXAMPLES = 3


@dataclass
class RunAnalysis:
    """Everything the card and the standard sections need from one run, computed once."""

    run: Run
    threshold: float  # points
    balance: stats.SeatBalance
    design: models.Design
    model: models.Model | None
    handicap: pd.DataFrame | None

    @property
    def fair(self) -> float:
        return self.balance.expected

    def seat_findings(self) -> list[Finding]:
        """Each seat's departure from the fair share: adjusted for strategy when the design allows."""
        if self.model is not None:
            return [finding(f"{stats.seat_label(int(r.seat))}", r.effect, r.se, self.threshold)
                    for r in self.model.seats.itertuples()]
        t = self.balance.table
        se = 100.0 * np.sqrt(t["rate"] * (1 - t["rate"]) / t["n"])
        return [finding(stats.seat_label(s), d, e, self.threshold) for s, d, e in zip(t.index, t["diff_pp"], se)]


def analyse(run: Run, min_effect: str | Threshold = "2") -> RunAnalysis:
    """Design check, seat balance, the seat + strategy model and the handicap for one run."""
    fair = stats.expected_share(run.players)
    threshold = parse_min_effect(min_effect).points(fair)
    balance = stats.seat_balance(run.players, threshold=threshold)
    design = models.design_check(run.players, run.lineup)
    model = models.fit_model(run.players, threshold) if design.separates else None
    handicap = seat_handicaps(run.players) if run.n_players > 1 and 0 < fair else None
    return RunAnalysis(run, threshold, balance, design, model, handicap)


def seat_verdict(a: RunAnalysis) -> str:
    """The seat verdict: from the adjusted model, or a plain statement that seat and strategy are confounded."""
    if a.design.status == "confounded":
        return ("Seat and strategy cannot be told apart: each strategy always sat in the same seat (fixed seating), "
                "so no seat advantage is reported. Re-run with --seating random.")
    found = a.seat_findings()
    big = [f for f in found if f.label in ("large", "inconclusive")]
    rest = [f for f in found if f not in big]
    parts = [f"{f.what} {f.interval()}: {f.label}" for f in sorted(big, key=lambda f: -abs(f.estimate))]
    if rest:
        parts.append(f"{'every seat' if not big else 'the other seats'} within ± {a.threshold:.3g} pts "
                     f"({' or '.join(sorted({f.label for f in rest}))})")
    adjusted = " (adjusted for strategy)" if a.model is not None and a.design.status != "mirror" else ""
    return f"Seat win rate against the fair {stats.pct(a.fair)}{adjusted}: " + "; ".join(parts) + "."


def design_sentence(a: RunAnalysis) -> str:
    d = a.design
    if d.status == "mirror":
        return "Mirror match (one strategy in every seat): seats are the only difference."
    if d.status == "passed":
        return "Design check passed: every strategy took every seat, met every other in both orders and had varied neighbours."
    return "Design check FAILED: " + "; ".join(d.problems) + ". Seat and strategy effects may be mixed up; re-run with --seating random."


def _headlines(a: RunAnalysis) -> list[dict]:
    """The findings of one run worth a line on the card, each with its label."""
    rows = [{"finding": f"{f.what} vs fair share", "estimate [95% CI]": f.interval(), "label": f.label}
            for f in a.seat_findings()] if a.design.status != "confounded" else []
    m = a.model
    if m is not None and m.best_gap is not None:
        for f in (m.best_gap, m.range_gap):
            rows.append({"finding": f.what, "estimate [95% CI]": f.interval(), "label": f.label})
        for key, what in (("interaction", "largest seat x strategy interaction"), ("neighbour", "largest neighbour effect")):
            diag = getattr(m, key)
            if diag.get("identified"):
                f = diag["largest"]
                rows.append({"finding": f"{what}: {f.what}", "estimate [95% CI]": f.interval(), "label": f.label})
    return rows


def _strategy_rows(a: RunAnalysis) -> dict:
    m = a.model
    if m is None or len(m.strategies) < 2:
        return {"best strategy": "n/a", "worst strategy": "n/a", "best minus runner-up": "n/a", "best minus worst": "n/a"}
    best, worst = m.strategies.iloc[0], m.strategies.iloc[-1]
    return {"best strategy": f"{best['strategy']} {best['effect']:+.1f} pts",
            "worst strategy": f"{worst['strategy']} {worst['effect']:+.1f} pts",
            "best minus runner-up": f"{m.best_gap.interval()} {m.best_gap.label}",
            "best minus worst": f"{m.range_gap.interval()} {m.range_gap.label}"}


def degenerate(run: Run) -> tuple[pd.Series, str]:
    """Games without a winner, timeouts and all-zero scores; a sentence with their share."""
    g, p = run.games, run.players
    n = run.n_players
    zero = p.sort_values(["game_index", "seat"])["score"].to_numpy().reshape(-1, n).max(axis=1) <= 0
    timeout = g["end_reason"].astype(str).str.contains("timeout").to_numpy()
    flag = (g["winner_seat"].to_numpy() < 0) | timeout | zero
    k = int(flag.sum())
    lo, hi = stats.wilson(k, run.n_games)
    text = (f"{k:,} of {run.n_games:,} games ({ci(k / run.n_games, float(lo), float(hi), digits=2)}) are degenerate: "
            f"{int(timeout.sum()):,} timeouts, {int((g['winner_seat'].to_numpy() < 0).sum()):,} without a winner, "
            f"{int(zero.sum()):,} with every score 0")
    return g.loc[flag, "game_index"].head(REPLAY_EXAMPLES), text


def replay_command(run: Run, game_index: int) -> str:
    """The `playtest replay` command that prints game ``game_index`` of this run turn by turn."""
    m = run.manifest
    seating = m.get("seating") or ("cyclic (an old run: replay it with the version that made it)" if m.get("rotate") else "fixed")
    sets = "".join(f" --set {o}" for o in m.get("overrides") or [])
    return (f"playtest replay {run.game} --players {run.n_players} --seed {m.get('seed', 0)} "
            f"--strategies {','.join(run.lineup)} --seating {seating}{sets} --game-index {int(game_index)}")


def length_and_ends(run: Run) -> dict:
    rounds = stats.describe(run.games["rounds"])
    ends = stats.proportion_table(run.games["end_reason"].astype(str))
    return {"run": run.label, "median rounds (90% range)": f"{rounds['median']:g} ({rounds['p5']:g}-{rounds['p95']:g})",
            "mean rounds [95% CI]": ci(rounds["mean"], rounds["mean_lo"], rounds["mean_hi"], percent=False, digits=2),
            "end reasons [95% CI]": "; ".join(f"{k} {ci(r['share'], r['lo'], r['hi'])}" for k, r in ends.iterrows())}


def _handicap_rows(a: RunAnalysis) -> list[dict]:
    h = a.handicap
    if h is None:
        return []
    rows = []
    for r in h.itertuples():
        alone = (f"{r.handicap:+.1f} [{r.lo:+.1f}, {r.hi:+.1f}]" if np.isfinite(r.handicap) and np.isfinite(r.lo)
                 else "beyond ±12 points or too noisy")
        rows.append({"run": a.run.label, "seat": stats.seat_label(r.seat), "win rate now": stats.pct(r.rate),
                     "points that equalise this seat alone [95% CI]": alone,
                     "whole-point handicap, all seats": f"{int(r.joint):+d}",
                     "win rate with it": stats.pct(r.joint_rate)})
    return rows


def card_section(analyses: Sequence[RunAnalysis]) -> Section:
    """The balance card for one or several runs (e.g. 3, 4 and 5 players)."""
    threshold_note = ", ".join(f"{a.run.label}: {a.threshold:.3g} pts" for a in analyses) if len(
        {round(a.threshold, 6) for a in analyses}) > 1 else f"{analyses[0].threshold:.3g} pts of win rate"
    blocks: list = [
        f"**Labels** (threshold {threshold_note}, set with --min-effect): "
        + "; ".join(f"**{k}** = {v}" for k, v in MEANING.items()) + ".",
    ]
    blocks += [f"**{a.run.label}** — {seat_verdict(a)} {design_sentence(a)}" for a in analyses]
    blocks.append(Plot("seat_ratio", plots.seat_ratio(analyses),
                       "Seat win rate as a multiple of the fair share (1 = fair), adjusted for strategy, 95% intervals; "
                       "the band is ± the threshold."))
    heads = [{"run": a.run.label, **row} for a in analyses for row in _headlines(a)]
    if heads:
        blocks.append(Table(pd.DataFrame(heads), "Headline findings in win-rate points, each with its label."))
    blocks.append(Table(pd.DataFrame([{"run": a.run.label, "players": a.run.n_players, **_strategy_rows(a)} for a in analyses]),
                        "Best and worst strategy (win rate adjusted for seat, vs the average strategy) and the interval on each gap."))
    blocks.append(Table(pd.DataFrame([length_and_ends(a.run) for a in analyses]), "Game length and how games end."))
    for a in analyses:
        examples, text = degenerate(a.run)
        cmd = f" Replay one: `{replay_command(a.run, examples.iloc[0])}`" if len(examples) else ""
        blocks.append(f"**{a.run.label}** — {text}.{cmd}")
    rows = [row for a in analyses for row in _handicap_rows(a)]
    if rows:
        blocks.append(Table(pd.DataFrame(rows), "Compensation: points added to a seat's final score (from the logged scores; "
                                                "ties fall back to the game's tie-breaks). Negative = a penalty."))
    return Section("Balance card", blocks)
