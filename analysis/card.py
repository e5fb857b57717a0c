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
from analysis.players import runs_phrase
from analysis.sections import Plot, Section, Table, ci
from analysis.verdicts import Finding, Threshold, finding, parse_min_effect

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
    population = run.manifest.get("population") or {}
    mixture = dict(zip(population["members"], population["weights"])) if population else None
    design = models.design_check(run.players, run.lineup, mixture=mixture, focal=population.get("focal"))
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


def _headline_row(a: RunAnalysis) -> dict:
    """One run's headline findings, each with its label, as the cells of one table row."""
    row = {"run": a.run.label}
    if a.run.n_players == 1:
        row["seats vs fair share"] = "one player: no seats to compare"
    elif a.design.status == "confounded":
        row["seats vs fair share"] = "cannot be told apart from strategy (fixed seating)"
    else:
        row["seats vs fair share"] = " · ".join(f"{f.what.split(' (')[0].replace('Seat ', '')}: {f.estimate:+.1f} {f.label}"
                                               for f in a.seat_findings())
    m = a.model
    if m is not None and m.best_gap is not None:
        for key, f in (("best minus runner-up", m.best_gap), ("best minus worst", m.range_gap)):
            row[key] = f"{f.what.replace(' minus runner-up ', ' − ').replace(' minus ', ' − ')}: {f.interval()} {f.label}"
        flags = []
        for key, what in (("interaction", "seat x strategy"), ("neighbour", "neighbour")):
            diag = getattr(m, key)
            if diag.get("identified"):
                f = diag["largest"]
                flags.append(f"{what}: {f.what.replace(' beyond seat + strategy', '')} {f.estimate:+.1f} {f.label}")
        row["largest departures from the model"] = " · ".join(flags) or "none estimable"
    row["design"] = a.design.status
    return row


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
    who = ("--population POPULATION.json" if m.get("population")
           else f"--strategies {','.join(run.lineup)} --seating {seating}")
    return (f"playtest replay {run.game} --players {run.n_players} --seed {m.get('seed', 0)} "
            f"{who}{sets} --game-index {int(game_index)}")


def length_and_ends(run: Run, shown: float = 0.005) -> dict:
    """Game length and the end reasons (those above ``shown`` of games; the rest summed) with intervals."""
    rounds = stats.describe(run.games["rounds"])
    ends = stats.proportion_table(run.games["end_reason"].astype(str))
    big = ends[ends["share"] >= shown]
    rest = ends["share"][ends["share"] < shown].sum()
    text = "; ".join(f"{k} {ci(r['share'], r['lo'], r['hi'])}" for k, r in big.iterrows())
    return {"run": run.label, "median rounds (90% range)": f"{rounds['median']:g} ({rounds['p5']:g}-{rounds['p95']:g})",
            "mean rounds [95% CI]": ci(rounds["mean"], rounds["mean_lo"], rounds["mean_hi"], percent=False, digits=2),
            "end reasons [95% CI]": text + (f"; other {stats.pct(rest, 2)}" if rest > 0 else "")}


def _handicap_row(a: RunAnalysis) -> dict | None:
    h = a.handicap
    if h is None:
        return None
    alone = " · ".join(f"{r.seat + 1}: {r.handicap:+.1f} [{r.lo:+.1f}, {r.hi:+.1f}]" if np.isfinite(r.lo)
                       else f"{r.seat + 1}: n/a" for r in h.itertuples())
    joint = " · ".join(f"{r.seat + 1}: {int(r.joint):+d}" for r in h.itertuples())
    rates = ", ".join(f"{100 * x:.1f}" for x in h["joint_rate"])
    return {"run": a.run.label, "points that equalise each seat alone [95% CI]": alone,
            "whole-point handicap for all seats": joint, "seat win rates with it (%)": rates}


def card_section(analyses: Sequence[RunAnalysis]) -> Section:
    """The balance card for one or several runs (e.g. 3, 4 and 5 players)."""
    thresholds = sorted({f"{a.threshold:.3g}" for a in analyses})
    blocks: list = [
        f"Labels against a threshold of {' / '.join(thresholds)} pts of win rate (--min-effect): **large** = real and at "
        "least the threshold; **small** = real, below it; **negligible** = shown to be below it; **inconclusive** = "
        "more games needed. Win rates adjusted: seats for strategy, strategies for seat.",
        Plot("seat_ratio", plots.seat_ratio(analyses),
             "Seat win rate as a multiple of the fair share (1 = fair), 95% intervals; grey band: ± the threshold. "
             f"Players: {runs_phrase([a.run.manifest for a in analyses])}."),
        Table(pd.DataFrame([_headline_row(a) for a in analyses]).fillna("n/a"),
              "Headline findings in win-rate points (seat: effect and label; gaps with 95% intervals)."),
        Table(pd.DataFrame([length_and_ends(a.run) for a in analyses]), "Game length and how games end."),
    ]
    for a in analyses:
        if a.design.status == "failed":
            blocks.append(f"**{a.run.label}**: {design_sentence(a)}")
    for a in analyses:
        examples, text = degenerate(a.run)
        more = f" (others: games {', '.join(str(int(i)) for i in examples.iloc[1:])})" if len(examples) > 1 else ""
        cmd = f" Replay one: `{replay_command(a.run, examples.iloc[0])}`{more}" if len(examples) else ""
        blocks.append(f"**{a.run.label}**: {text}.{cmd}")
    rows = [r for r in (_handicap_row(a) for a in analyses) if r]
    if rows:
        blocks.append(Table(pd.DataFrame(rows), "Compensation: points added to a seat's final score, from the logged "
                                                "scores (ties fall back to the game's tie-breaks); negative = a penalty."))
    return Section("Balance card", blocks)
