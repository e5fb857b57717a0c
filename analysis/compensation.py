"""The report's compensation section: the points handicap per seat from a static re-scoring of the logged games
(``analysis.handicap``), the rules fields that would put a seat bonus into the game (``seatK_*``: Bus
``seatK_points`` BUS-SEAT-1, Sea Trade ``seatK_gold`` ST-SEAT-1, 7 Wonders ``seatK_coins`` SW-SEAT-1, Circus Train
``seatK_money`` CT-SEAT-1; a game may add rows worth a fixed part of a point, ``Rules.seat_fractions``: Bus
``seatK_wins_ties`` BUS-SEAT-2, half a point), the setting the handicap converts to at the rules' exchange rate
(``Rules.seat_units_per_point``), the commands that verify it by simulation, and, when the report holds a run of the
same games with the bonus, that verification: each seat's paired change. A game whose first player is random
(Circus Train) counts its seats in turn order from that player (``analysis.load.in_turn_order``).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Sequence

import numpy as np
import pandas as pd

from analysis import models, stats
from analysis.card import RunAnalysis, analyse, rescoring, study_args
from analysis.handicap import rescored_shares
from analysis.load import in_turn_order
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


def _levers(game: str) -> tuple[list[tuple[int, FieldSpec]], dict[str, float]]:
    """Every (0-based seat, seatK_* field) of the game, and its rows worth a fixed part of a point (by suffix);
    empty for a game that is not registered here (logs of a game this version cannot play)."""
    try:
        spec = get_game(game)
    except PlaytestError:
        return [], {}
    seats = [(int(m.group(1)) - 1, f) for name, f in field_specs(spec.rules_type).items()
             if (m := SEAT_FIELD.match(name))]
    return seats, spec.rules_type().seat_fractions()


def _suffix(f: FieldSpec) -> str:
    return f.name.split("_", 1)[1]


def seat_fields(game: str) -> dict[int, FieldSpec]:
    """0-based seat -> the game's rules field that gives that seat a bonus in the game's currency (empty when the
    game has none); rows worth a fixed part of a point (``Rules.seat_fractions``) are not among them."""
    seats, parts = _levers(game)
    return {s: f for s, f in seats if _suffix(f) not in parts}


def bonus(a: RunAnalysis) -> dict[int, float]:
    """The seat bonus the run was played with: seat -> its start in the currency field's units, a fractional row
    (e.g. BUS-SEAT-2's half point) added at the rules' exchange rate (only seats with a bonus)."""
    rules = a.run.manifest.get("rules") or {}
    seats, parts = _levers(a.run.game)
    rate = units_per_point(a) if parts else 1.0
    out: dict[int, float] = {}
    for s, f in seats:
        value = rules.get(f.name)
        if value:
            part = parts.get(_suffix(f))
            out[s] = out.get(s, 0.0) + (float(value) if part is None else part * (rate or 1.0))
    return out


def bonus_settings(a: RunAnalysis) -> str:
    """The run's seat-bonus fields as ``name=value`` (those set)."""
    rules = a.run.manifest.get("rules") or {}
    return ", ".join(_setting(f.name, rules[f.name]) for _, f in _levers(a.run.game)[0] if rules.get(f.name))


def units_per_point(a: RunAnalysis) -> float | None:
    """How many units of the run's seat-bonus fields make one point of final score under its rules (None: the
    rulebook gives no exchange rate, e.g. Circus Train's money)."""
    spec = get_game(a.run.game)
    names = {f.name for f in dataclasses.fields(spec.rules_type)}
    given = {k: v for k, v in (a.run.manifest.get("rules") or {}).items() if k in names}
    return spec.rules_type(**given).seat_units_per_point()


def suggestion(a: RunAnalysis) -> tuple[dict[str, int | bool] | None, str]:
    """The rules setting the handicap for all seats suggests (field -> value, seat by seat: its whole points at the
    rules' exchange rate, rounded, and the fractional rows that make up the rest), or None and why not."""
    fields, h = seat_fields(a.run.game), a.handicap
    if not fields:
        return None, f"{a.run.title} has no seat-bonus rules field"
    if (h["pivotal"] < MIN_PIVOTAL).any():
        return None, "some seat's handicap is not identified, so search the rules instead"
    joint = dict(zip(h["seat"].astype(int), h["joint"].astype(float)))
    if joint.get(0, 0) != 0 or any(s not in fields for s in joint if s > 0):
        return None, "seat 1 would need a bonus, and the rules give seat 1 none"
    rate = units_per_point(a)
    if rate is None:
        unit = next(iter(fields.values())).name.split("_", 1)[1]
        return None, f"the rulebook gives no exchange rate from points to {unit}, so search the rules instead"
    whole = {s: int(np.floor(v + 1e-9)) for s, v in joint.items() if s > 0}
    units = {s: int(round(v * rate)) for s, v in whole.items()}
    low = [s for s, v in units.items() if not (fields[s].ge or 0) <= v <= (fields[s].le or v)]
    if low:
        return None, (f"{', '.join(fields[s].name for s in low)} would leave {fields[low[0]].allowed}, so search "
                      "the rules instead")
    out: dict[str, int | bool] = {}
    parts = _levers(a.run.game)[1]
    for s, v in units.items():
        out[fields[s].name] = v
        rest = joint[s] - whole[s]
        for suffix, worth in sorted(parts.items(), key=lambda kv: -kv[1]):
            if rest >= worth - 1e-9:
                out[f"seat{s + 1}_{suffix}"] = True
                rest -= worth
    return out, ""


def _setting(name: str, value: int | bool) -> str:
    return f"{name}={str(value).lower()}"


def commands(a: RunAnalysis, setting: dict[str, int | bool] | None) -> str:
    """The commands that verify a suggested setting on the run's own games (same seed, seats and game count, so the
    report pairs the two runs game by game), or that search the rules for one when there is none."""
    fields = seat_fields(a.run.game)
    where = a.run.run_dir
    if setting is None:
        vary = " ".join(f"--vary {fields[s].name}" for s in sorted(fields) if s < a.run.n_players)
        return f"`playtest balance {a.run.game} {study_args(a.run)} {vary} --budget 200000 --out {where}-balance`"
    sets = " ".join(f"--set {_setting(k, v)}" for k, v in setting.items() if v)
    return (f"`playtest run {a.run.game} {study_args(a.run)} {sets} --games {a.run.n_games} --out {where}-compensated` "
            f"then `playtest report {where} {where}-compensated`")


def _handicap_row(a: RunAnalysis) -> dict:
    h = a.handicap
    alone = " · ".join(f"{r.seat + 1}: not identified ({r.pivotal:,} games within a point)"
                       if r.pivotal < MIN_PIVOTAL else
                       f"{r.seat + 1}: {r.handicap:+.1f} [{r.lo:+.1f}, {r.hi:+.1f}]" if np.isfinite(r.lo)
                       else f"{r.seat + 1}: n/a" for r in h.itertuples())
    joint = " · ".join(f"{r.seat + 1}: {r.joint:+g}" for r in h.itertuples())
    rates = ", ".join(f"{100 * x:.1f}" for x in h["joint_rate"])
    setting, why = suggestion(a)
    if setting is not None:
        rule = " ".join(_setting(k, v) for k, v in setting.items())
    else:
        rule = f"none ({why})" if seat_fields(a.run.game) else why
    return {"run": a.run.label, "points that equalise each seat alone [95% CI]": alone,
            "handicap for all seats (points, in the rules' steps)": joint,
            "seat win rates with it (%)": rates, "as rules": rule}


def pairs(analyses: Sequence[RunAnalysis]) -> list[tuple[RunAnalysis, RunAnalysis]]:
    """(without, with) pairs of runs in the report that play the same games and differ only by a seat bonus."""
    out = []
    for b in analyses:
        if not bonus(b):
            continue
        fields = {f.name for _, f in _levers(b.run.game)[0]}
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
    predicted = rescored_shares(a.run.players, offsets, rescoring(a.run.game)["ties"])
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
        rows.append({"seat": stats.seat_label(s), "bonus": f"{given.get(s, 0):g}",
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
            f"count) with {bonus_settings(b)}: "
            f"{verdict}.",
            Table(pd.DataFrame(rows), "Each seat with the bonus in the rules: its effect against the fair share, its "
                                      "change from the run without the bonus, and the simulated win rate minus what "
                                      "the static re-scoring of the run without it predicted (both paired game by "
                                      "game; a large gap means play reacted to the bonus).")]


def _turn_order(a: RunAnalysis) -> RunAnalysis:
    """``a`` with seats as places in turn order when its game draws the first player at random (CT-SEAT-1)."""
    view = in_turn_order(a.run)
    return a if view is a.run else analyse(view, str(a.threshold))


def compensation_section(analyses: Sequence[RunAnalysis]) -> Section | None:
    """The points handicap per seat as a static re-scoring, the rules setting that implements it, the commands
    that verify it by simulation, and the verification when the report holds a run with the bonus."""
    viewed = [_turn_order(a) for a in analyses]
    plain = [a for a in viewed if a.handicap is not None and not bonus(a)]
    if not plain:
        return None
    ordered = sorted({a.run.title for a, b in zip(viewed, analyses) if a is not b})
    blocks: list = [
        "A static re-scoring: each seat's logged final score is moved by a handicap and the games re-ranked "
        "(ties fall back to the game's tie-breaks). Strategies do not react to the bonus, so this is a first guess "
        "to verify by simulation with the bonus in the rules, not a measured fix. A seat whose handicap rests on "
        f"fewer than {MIN_PIVOTAL} games decided within a point of it is 'not identified' (e.g. a race to a target, "
        "where final margins rarely come near 0).",
        Table(pd.DataFrame([_handicap_row(a) for a in plain]),
              "Points added to a seat's final score (negative = a penalty) that would bring it to the fair share "
              "alone, with a bootstrap 95% interval; a handicap for all seats at once in the finest step the rules "
              "carry (whole points; half points in Bus, whose tie priority BUS-SEAT-2 is worth half a point) with "
              "the win rates it gives; and the rules setting that puts it into the game, where the game has one (the "
              "points at the rules' exchange rate: Bus points and Sea Trade gold 1:1, 7 Wonders coins_per_vp coins a "
              "point; Circus Train's money has none)."),
    ]
    if ordered:
        blocks.insert(0, f"{', '.join(ordered)}: the first player is drawn at random, so here a seat is a place in "
                         "turn order counted from that player (the seat compensation counts seats so), not a place at "
                         "the table.")
    for a in plain:
        if seat_fields(a.run.game):
            setting, _ = suggestion(a)
            what = "Verify it" if setting is not None else "No setting follows from the re-scoring; search for one"
            blocks.append(f"{what} ({a.run.label}): {commands(a, setting)}.")
    for a, b in pairs(viewed):
        blocks += verification(a, b)
    return Section("Compensation", blocks)
