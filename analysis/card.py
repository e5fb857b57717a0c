"""The one-screen balance card at the top of every report: seat advantage as a multiple of the fair
share for every run on one chart, the headline findings with their labels, best and worst strategy with
the interval on the gap, game length and end reasons, degenerate games with a replay command, and the
points handicap that would equalise the seats.
"""

from __future__ import annotations

import shlex

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd

from analysis import models, plots, stats
from analysis.aggregate import counts_of, describe_counts, prefetch
from analysis.handicap import HANDICAP_GAMES, seat_handicaps
from analysis.load import Run
from analysis.players import runs_phrase
from analysis.sections import Plot, Section, Table, ci, turn_order
from analysis.verdicts import Finding, Threshold, finding, parse_min_effect
from sim.core.errors import PlaytestError
from sim.core.spec import get_game

REPLAY_EXAMPLES = 3


def rescoring(game: str) -> dict:
    """How the static re-scoring of ``game`` works: the finest seat compensation its rules carry (``step``, in
    points) and its tie columns (``ties``); whole points and the logged ranks for a game this version cannot play."""
    try:
        spec = get_game(game)
    except PlaytestError:
        return {"step": 1.0, "ties": ()}
    return {"step": spec.rules_type().seat_step(), "ties": spec.tie_columns}


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


    def seat_sd(self) -> float:
        """One game's standard deviation of a seat effect in points, as this run measured it (the seat findings'
        typical standard error times the square root of the games)."""
        se = float(np.median([f.se for f in self.seat_findings()]))
        return se * float(np.sqrt(self.run.n_games))


PLAYER_COLUMNS = ("game_index", "seat", "strategy", "win_share", "won", "score", "rank")
"""The player columns the standard analysis reads."""


def analyse(run: Run, min_effect: str | Threshold = "2") -> RunAnalysis:
    """Design check, seat balance, the seat + strategy model and the handicap for one run."""
    players = run.rows("players", PLAYER_COLUMNS)
    prefetch(players, (stats.rate_sums, "seat", "win_share"), (stats.rate_sums, "strategy", "win_share"),
             (stats.strategy_names,), (models.seat_count,))  # what the checks and the strategy section read, in one pass
    fair = stats.expected_share(players)
    threshold = parse_min_effect(min_effect).points(fair)
    balance = stats.seat_balance(players, threshold=threshold)
    population = run.manifest.get("population") or {}
    mixture = dict(zip(population["members"], population["weights"])) if population else None
    design = models.design_check(players, run.lineup, mixture=mixture, focal=population.get("focal"))
    model = models.fit_model(players, threshold) if design.separates else None
    handicap = (seat_handicaps(run.head(HANDICAP_GAMES).players, HANDICAP_GAMES, **rescoring(run.game))
                if run.n_players > 1 and 0 < fair else None)
    return RunAnalysis(run, threshold, balance, design, model, handicap)


def seat_verdict(a: RunAnalysis) -> str:
    """The seat verdict: from the adjusted model, or a plain statement that seat and strategy are confounded."""
    if a.design.status == "confounded":
        return ("Seat and strategy cannot be told apart: each strategy always sat in the same seat (fixed seating), "
                "so no seat advantage is reported. Re-run with --seating random.")
    found = a.seat_findings()
    big = [f for f in found if f.label in ("large", "about the threshold", "inconclusive")]
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
                flags.append(f"{what}: {_short(diag['largest'])} {diag['largest'].label}")
        row["largest departures from the model"] = " · ".join(flags) or "none estimable"
    row["design"] = "one player" if a.run.n_players == 1 else a.design.status
    return row


def _flags(games: pd.DataFrame, players: pd.DataFrame, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per game of one chunk, in game order: timeout, no winner, every score 0, and several winners (a shared
    victory)."""
    zero = players["score"].to_numpy().reshape(-1, n).max(axis=1) <= 0
    winners = (players["win_share"].to_numpy(float).reshape(-1, n) > 0).sum(axis=1)
    timeout = games["end_reason"].astype(str).str.contains("timeout").to_numpy()
    return timeout, winners == 0, zero, winners > 1


@dataclass
class Degenerate:
    """Degenerate games of a run (timeouts, no winner, every score 0) and shared victories, with examples."""

    timeouts: int
    no_winner: int
    zero: int
    degenerate: int
    shared: int
    examples: pd.Series


def count_degenerate(run: Run) -> Degenerate:
    """Count the flags chunk by chunk, keeping the first REPLAY_EXAMPLES degenerate games (once per run)."""
    return run.cached(("degenerate",), lambda: _count_degenerate(run))


def _count_degenerate(run: Run) -> Degenerate:
    """One pass over the end reasons, scores and win shares."""
    totals = np.zeros(5, np.int64)
    examples: list[int] = []
    for g, p in run.chunks(["end_reason"], ["score", "win_share"]):
        timeout, none, zero, several = _flags(g, p, run.n_players)
        flag = timeout | none | zero
        totals += [timeout.sum(), none.sum(), zero.sum(), flag.sum(), several.sum()]
        examples += list(g.loc[flag, "game_index"].head(REPLAY_EXAMPLES - len(examples)))
    return Degenerate(*map(int, totals), pd.Series(examples, name="game_index", dtype=np.int64))


def degenerate(run: Run) -> tuple[pd.Series, dict]:
    """Games without a winner, timeouts and all-zero scores (degenerate), and shared victories (a tie the rules
    leave standing: a rule outcome, counted apart); the example games and one table row."""
    d = count_degenerate(run)
    k, shared = d.degenerate, d.shared
    lo, hi = stats.wilson(k, run.n_games)
    slo, shi = stats.wilson(shared, run.n_games)
    row = {"run": run.label, "degenerate games [95% CI]": f"{k:,}: {ci(k / run.n_games, float(lo), float(hi), digits=2)}",
           "timeouts / no winner / every score 0": f"{d.timeouts:,} / {d.no_winner:,} / {d.zero:,}",
           "shared victories (a rule outcome) [95% CI]": f"{shared:,}: {ci(shared / run.n_games, float(slo), float(shi), digits=2)}"}
    return d.examples, row


def study_args(run: Run) -> str:
    """The command-line study of ``run``: players, seed, who plays and how they sit, and its --set overrides."""
    m = run.manifest
    seating = m.get("seating") or ("cyclic (an old run: replay it with the version that made it)" if m.get("rotate") else "fixed")
    sets = "".join(f" --set {o}" for o in m.get("overrides") or [])
    who = ("--population POPULATION.json" if m.get("population")
           else f"--strategies {','.join(run.lineup)} --seating {seating}")
    return f"--players {run.n_players} --seed {m.get('seed', 0)} {who}{sets}"


def replay_command(run: Run, game_index: int) -> str:
    """The `playtest replay` command that prints game ``game_index`` of this run turn by turn (the run directory's
    manifest gives players, strategies, seating, seed, rules and population: exact by construction)."""
    return f"playtest replay {shlex.quote(str(run.run_dir))} --game-index {int(game_index)}"


def end_reasons(run: Run) -> pd.DataFrame:
    """``stats.proportion_table`` of the end reasons, in order of first appearance as in memory."""
    counts = run.counts("games", ["end_reason"], sort=False)
    return stats.proportion_table_counts(counts.set_index("end_reason")["n"])


def length_and_ends(run: Run, shown: float = 0.005) -> dict:
    """Game length and the end reasons (those above ``shown`` of games; the rest summed) with intervals."""
    rounds = describe_counts(counts_of(run.counts("games", ["rounds"]), "rounds"))
    ends = end_reasons(run)
    big = ends[ends["share"] >= shown]
    rest = ends["share"][ends["share"] < shown].sum()
    text = "; ".join(f"{k} {ci(r['share'], r['lo'], r['hi'])}" for k, r in big.iterrows())
    return {"run": run.label, "median rounds (90% range)": f"{rounds['median']:g} ({rounds['p5']:g}-{rounds['p95']:g})",
            "mean rounds [95% CI]": ci(rounds["mean"], rounds["mean_lo"], rounds["mean_hi"], percent=False, digits=2),
            "end reasons [95% CI]": text + (f"; other {stats.pct(rest, 2)}" if rest > 0 else "")}


def takeaway(analyses: Sequence[RunAnalysis]) -> str:
    """The report's first sentence: the largest seat departure across runs as a multiple of the fair share, and the
    best strategy with where its edge comes from."""
    runs = [a for a in analyses if a.run.n_players > 1 and a.design.status != "confounded"]
    title = analyses[0].run.title.split(" (")[0]
    if not runs:
        return f"**{title}: one player or a fixed seating, so there is no seat or strategy balance to sum up.**"
    worst = []
    for a in runs:
        f = max(a.seat_findings(), key=lambda f: abs(f.estimate))
        worst.append((a, f))
    seat = max(worst, key=lambda af: abs(af[1].estimate))[1].what.split(" (")[0]
    ratios = [1 + f.estimate / (100 * a.fair) for a, f in worst if f.what.split(" (")[0] == seat]
    big = any(f.label == "large" for _, f in worst)
    counts = sorted({a.run.n_players for a, f in worst if f.what.split(" (")[0] == seat or not big})
    where = f"at {'-'.join(str(c) for c in (counts[0], counts[-1]) if c) if len(counts) > 1 else counts[0]} players"
    span = f"{min(ratios):.2f}" if len(ratios) == 1 or abs(max(ratios) - min(ratios)) < 0.05 else \
        f"{min(ratios):.2f}-{max(ratios):.2f}"
    within = all(f.label in ("negligible", "small") for a, _ in worst for f in a.seat_findings())
    text = (f"{seat.lower()} wins {span}x the fair share {where}" if big else
            f"every seat is within the threshold of the fair share {where}" if within else
            f"no seat is shown to depart from the fair share by the threshold {where} (some need more games)")
    a0 = max(runs, key=lambda a: a.run.n_games)
    m = a0.model
    if m is not None and m.best_gap is not None:
        best = m.strategies["strategy"].iloc[0]
        text += f"; {best} is the strongest strategy ({m.best_gap.estimate:+.1f} pts over the next, {m.best_gap.label})"
        top = m.interaction.get("largest") if m.interaction.get("identified") else None
        if top is not None and top.label == "large" and top.what.startswith(f"{best} in seat"):
            text += f", above all in {top.what.split(' in ')[1].split(' beyond')[0]}"
    return f"**{title}: {text}.**"


def _compact_row(a: RunAnalysis) -> dict:
    """One run in one table row of the card: its largest seat effect, the strongest strategy's edge, any departure
    from seat + strategy labelled large, how games end, and the design (the details follow the card)."""
    row = {"run": a.run.label}
    seat = "seat furthest from fair (pts)"
    if a.run.n_players == 1:
        row[seat] = "one player: no seats"
    elif a.design.status == "confounded":
        row[seat] = "confounded with strategy (fixed seating)"
    else:
        found = a.seat_findings()
        top = max(found, key=lambda f: abs(f.estimate))
        rest = sorted({f.label for f in found if f is not top})
        row[seat] = (f"{top.what.split(' (')[0].lower()} {top.interval().replace(' pts', '')} {top.label}"
                     + (f"; others {'/'.join(rest)}" if rest else ""))
    m = a.model
    if m is not None and m.best_gap is not None:
        g = m.best_gap
        row["strongest (pts over the next)"] = f"{g.what.split(' minus ')[0]} {g.interval().replace(' pts', '')} {g.label}"
        flags = [f"{what}: {_short(getattr(m, key)['largest'])}" for key, what in
                 (("interaction", "seat x strategy"), ("neighbour", "neighbour"))
                 if getattr(m, key).get("identified") and getattr(m, key)["largest"].label == "large"]
        row["large beyond seat + strategy"] = " · ".join(flags) or "none"
    row["how games end (%) [95% CI]"] = _ends_cell(a.run)
    row["design"] = "one player" if a.run.n_players == 1 else a.design.status
    return row


def _short(f: Finding) -> str:
    """A departure from seat + strategy as a cell: what and its estimate (the estimand is in the caption)."""
    what = f.what.replace(" beyond seat + strategy", "").replace(" (rather than elsewhere at the table)", "")
    return f"{what} {f.estimate:+.1f}"


def _ends_cell(run: Run, shown: int = 2) -> str:
    """The ``shown`` commonest end reasons with their intervals (the rest summed), and the degenerate games."""
    ends = end_reasons(run).sort_values("share", ascending=False)
    text = " · ".join(f"{k} {100 * r['share']:.0f}% [{100 * r['lo']:.0f}, {100 * r['hi']:.0f}]"
                      for k, r in ends.head(shown).iterrows())
    rest = float(ends["share"].iloc[shown:].sum())
    k = count_degenerate(run).degenerate
    return text + (f" · other {100 * rest:.0f}%" if len(ends) > shown else "") + f"; {k:,} degenerate"


def card_section(analyses: Sequence[RunAnalysis]) -> Section:
    """The balance card for one or several runs (e.g. 3, 4 and 5 players): one screen at 1280x1000, one table row
    per run; the details (every seat, both gaps, lengths, end reasons, degenerate games) follow in
    ``card_details_section``."""
    thresholds = sorted({f"{a.threshold:.3g}" for a in analyses})
    blocks: list = [
        takeaway(analyses),
        f"Labels against {' / '.join(thresholds)} pts of win rate (--min-effect), from the 90% interval: **large** = "
        "beyond it · **about the threshold** = precise, straddling it · **small** = real, inside it · **negligible** "
        "= shown inside it · **inconclusive** = more games needed. Seats adjusted for strategy, strategies for seat.",
        Plot("seat_ratio", plots.seat_ratio(analyses, turn_order(analyses[0].run.game)),
             "Seat win rate as a multiple of the fair share (1 = fair), 95% intervals; shaded: ± each run's threshold. "
             f"Players: {runs_phrase([a.run.manifest for a in analyses])}."),
        Table(pd.DataFrame([_compact_row(a) for a in analyses]).fillna("n/a"),
              "Each run in win-rate points with 95% intervals: the seat furthest from the fair share, the strongest "
              "strategy's edge over the next, departures from seat + strategy labelled large (neighbour: the strategy "
              "seated just before a player rather than elsewhere at the table), and how games end. Every seat and gap "
              "follows under 'Card details'."),
    ]
    blocks += [f"**{a.run.label}**: {design_sentence(a)}" for a in analyses if a.design.status == "failed"]
    return Section("Balance card", blocks)


def card_details_section(analyses: Sequence[RunAnalysis]) -> Section:
    """What the card sums up, run by run: every seat, both strategy gaps, the largest departures from the model,
    game length, end reasons, degenerate games and a replay command for one."""
    blocks: list = [
        Table(pd.DataFrame([_headline_row(a) for a in analyses]).fillna("n/a"),
              "Headline findings in win-rate points (seat: effect and label; gaps with 95% intervals; neighbour: the "
              "strategy seated just before a player rather than elsewhere at the table)."),
        Table(pd.DataFrame([length_and_ends(a.run) | degenerate(a.run)[1] for a in analyses]),
              "Game length, how games end, and degenerate games (timeouts, no winner, every score 0)."),
    ]
    replays = [(a, degenerate(a.run)[0]) for a in analyses]
    replays = [(a, ex) for a, ex in replays if len(ex)]
    if replays:
        a, ex = replays[0]
        blocks.append(f"Replay a degenerate game ({a.run.label}): `{replay_command(a.run, ex.iloc[0])}`")
    return Section("Card details", blocks)
