"""The report's compensation section: the points handicap per seat from a static re-scoring of the logged games
(``analysis.handicap``), the rules fields that would put a seat bonus into the game (``seatK_*``, e.g. Bus
``seatK_points`` BUS-SEAT-1, Sea Trade ``seatK_gold`` ST-SEAT-1), the commands that verify it by simulation, and,
when the report holds a run of the same games with the bonus, that verification: each seat's paired change.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np
import pandas as pd

from analysis import models, stats
from analysis.card import RunAnalysis, study_args
from analysis.handicap import rescored_shares
from analysis.metrics import mean_se
from analysis.sections import Section, Table, ci
from analysis.verdicts import Z95, finding
from sim.core.errors import PlaytestError
from sim.core.fields import FieldSpec
from sim.core.rules import field_specs
from sim.core.spec import get_game

MIN_PIVOTAL = 30
"""A seat's equalising handicap is identified only when at least this many games change hands within one point
of it; fewer, and the interval is set by a handful of near-ties."""
SEAT_FIELD = re.compile(r"seat(\d+)_\w+$")


def seat_fields(game: str) -> dict[int, FieldSpec]:
    """0-based seat -> the game's rules field that gives that seat a bonus (empty when the game has none, or is not
    registered here: logs of a game this version cannot play)."""
    try:
        specs = field_specs(get_game(game).rules_type)
    except PlaytestError:
        return {}
    return {int(m.group(1)) - 1: spec for name, spec in specs.items() if (m := SEAT_FIELD.match(name))}


def bonus(a: RunAnalysis) -> dict[int, int]:
    """The seat bonus the run was played with: seat -> value of its field (only those set above 0)."""
    rules = a.run.manifest.get("rules") or {}
    return {s: int(rules[f.name]) for s, f in seat_fields(a.run.game).items() if rules.get(f.name)}


def suggestion(a: RunAnalysis) -> tuple[dict[int, int] | None, str]:
    """The rules setting the whole-point handicap suggests (seat -> field value), or None and why not."""
    fields, h = seat_fields(a.run.game), a.handicap
    if not fields:
        return None, f"{a.run.title} has no seat-bonus rules field"
    if (h["pivotal"] < MIN_PIVOTAL).any():
        return None, "some seat's handicap is not identified, so search the rules instead"
    joint = dict(zip(h["seat"].astype(int), h["joint"].astype(int)))
    if joint.get(0, 0) != 0 or any(s not in fields for s in joint if s > 0):
        return None, "seat 1 would need a bonus, and the rules give seat 1 none"
    out = {s: v for s, v in joint.items() if s > 0}
    low = [s for s, v in out.items() if not (fields[s].ge or 0) <= v <= (fields[s].le or v)]
    if low:
        return None, (f"{', '.join(fields[s].name for s in low)} would leave {fields[low[0]].allowed}, so search "
                      "the rules instead")
    return out, ""


def commands(a: RunAnalysis, setting: dict[int, int] | None) -> str:
    """The commands that verify a suggested setting on the run's own games (same seed, seats and game count, so the
    report pairs the two runs game by game), or that search the rules for one when there is none."""
    fields = seat_fields(a.run.game)
    where = a.run.run_dir
    if setting is None:
        vary = " ".join(f"--vary {fields[s].name}" for s in sorted(fields) if s < a.run.n_players)
        return f"`playtest balance {a.run.game} {study_args(a.run)} {vary} --budget 200000 --out {where}-balance`"
    sets = " ".join(f"--set {fields[s].name}={v}" for s, v in sorted(setting.items()) if v)
    return (f"`playtest run {a.run.game} {study_args(a.run)} {sets} --games {a.run.n_games} --out {where}-compensated` "
            f"then `playtest report {where} {where}-compensated`")


def _handicap_row(a: RunAnalysis) -> dict:
    h = a.handicap
    alone = " · ".join(f"{r.seat + 1}: not identified ({r.pivotal:,} games within a point)"
                       if r.pivotal < MIN_PIVOTAL else
                       f"{r.seat + 1}: {r.handicap:+.1f} [{r.lo:+.1f}, {r.hi:+.1f}]" if np.isfinite(r.lo)
                       else f"{r.seat + 1}: n/a" for r in h.itertuples())
    joint = " · ".join(f"{r.seat + 1}: {int(r.joint):+d}" for r in h.itertuples())
    rates = ", ".join(f"{100 * x:.1f}" for x in h["joint_rate"])
    setting, why = suggestion(a)
    fields = seat_fields(a.run.game)
    if setting is not None:
        rule = " ".join(f"{fields[s].name}={v}" for s, v in sorted(setting.items()))
    else:
        rule = f"none ({why})" if fields else why
    return {"run": a.run.label, "points that equalise each seat alone [95% CI]": alone,
            "whole-point handicap for all seats": joint, "seat win rates with it (%)": rates, "as rules": rule}


def pairs(analyses: Sequence[RunAnalysis]) -> list[tuple[RunAnalysis, RunAnalysis]]:
    """(without, with) pairs of runs in the report that play the same games and differ only by a seat bonus."""
    out = []
    for b in analyses:
        if not bonus(b):
            continue
        fields = {f.name for f in seat_fields(b.run.game).values()}
        for a in analyses:
            if a is b or bonus(a) or a.run.game != b.run.game or not models.paired_runs(a.run, b.run):
                continue
            ra, rb = (x.run.manifest.get("rules") or {} for x in (a, b))
            if all(ra.get(k) == rb.get(k) for k in set(ra) | set(rb) if k not in fields):
                out.append((a, b))
                break
    return out


def verification(a: RunAnalysis, b: RunAnalysis) -> list:
    """Run ``b`` plays ``a``'s games with a seat bonus: each seat's win rate with it, its paired change from ``a``,
    and the simulated minus the static re-scoring's prediction (paired game by game: how far play reacted)."""
    given = bonus(b)
    offsets = np.array([given.get(s, 0) for s in range(a.run.n_players)], float)
    predicted = rescored_shares(a.run.players, offsets)
    pb = b.run.players.sort_values(["game_index", "seat"], kind="stable")
    actual = pb["win_share"].to_numpy(float).reshape(-1, b.run.n_players)
    games = np.sort(pb["game_index"].unique())
    effects = b.seat_findings()
    rows = []
    for s in range(a.run.n_players):
        rows_s = [x.run.players.loc[x.run.players["seat"] == s, ["game_index", "win_share"]] for x in (a, b)]
        change = models.run_change(*rows_s, "win_share", stats.seat_label(s), a.threshold)
        mean, se = mean_se(actual[:, s] - predicted[:, s], games)
        gap = finding(stats.seat_label(s), 100 * mean, 100 * se, a.threshold)
        rate, rate_se = mean_se(predicted[:, s], games)
        e = effects[s]
        rows.append({"seat": stats.seat_label(s), "bonus": given.get(s, 0),
                     "with the bonus, vs fair [95% CI]": f"{e.interval()} {e.label}",
                     f"change from {a.run.label}, paired [95% CI]": f"{change.interval()} {change.label}",
                     "static re-scoring predicted [95% CI]": ci(rate, rate - Z95 * rate_se, rate + Z95 * rate_se),
                     "simulated minus predicted, paired [95% CI]": f"{gap.interval()} {gap.label}"})
    off = [e for e in effects if e.label in ("large", "about the threshold")]
    unsure = [e for e in effects if e.label == "inconclusive"]
    parts = ([f"off the fair share: {'; '.join(f'{e.what} {e.interval()} {e.label}' for e in off)}"] if off else []) + (
        [f"not yet shown within the threshold (more games): {', '.join(e.what for e in unsure)}"] if unsure else [])
    verdict = " · ".join(parts) or ("every seat within the threshold of the fair share with the bonus ("
                                    + "/".join(sorted({e.label for e in effects})) + ")")
    return [f"Verification by simulation: {b.run.label} plays the games of {a.run.label} (same seed, seats and game "
            f"count) with {', '.join(f'{seat_fields(b.run.game)[s].name}={v}' for s, v in sorted(given.items()))}: "
            f"{verdict}.",
            Table(pd.DataFrame(rows), "Each seat with the bonus in the rules: its effect against the fair share, its "
                                      "change from the run without the bonus, and the simulated win rate minus what "
                                      "the static re-scoring of the run without it predicted (both paired game by "
                                      "game; a large gap means play reacted to the bonus).")]


def compensation_section(analyses: Sequence[RunAnalysis]) -> Section | None:
    """The points handicap per seat as a static re-scoring, the rules setting that implements it, the commands
    that verify it by simulation, and the verification when the report holds a run with the bonus."""
    plain = [a for a in analyses if a.handicap is not None and not bonus(a)]
    if not plain:
        return None
    blocks: list = [
        "A static re-scoring: each seat's logged final score is moved by a handicap and the games re-ranked "
        "(ties fall back to the game's tie-breaks). Strategies do not react to the bonus, so this is a first guess "
        "to verify by simulation with the bonus in the rules, not a measured fix. A seat whose handicap rests on "
        f"fewer than {MIN_PIVOTAL} games decided within a point of it is 'not identified' (e.g. a race to a target, "
        "where final margins rarely come near 0).",
        Table(pd.DataFrame([_handicap_row(a) for a in plain]),
              "Points added to a seat's final score (negative = a penalty) that would bring it to the fair share "
              "alone, with a bootstrap 95% interval; a whole-point handicap for all seats at once with the win rates "
              "it gives; and the rules setting that puts it into the game, where the game has one."),
    ]
    for a in plain:
        if seat_fields(a.run.game):
            setting, _ = suggestion(a)
            what = "Verify it" if setting is not None else "No setting follows from the re-scoring; search for one"
            blocks.append(f"{what} ({a.run.label}): {commands(a, setting)}.")
    for a, b in pairs(analyses):
        blocks += verification(a, b)
    return Section("Compensation", blocks)
