"""Headline metrics of a run as per-unit values, their intervals, and paired differences between runs.

A metric turns a run into units (one per game, or one per player row for a strategy's win rate) with a
value each; its estimate is the mean over units with a 95% interval, and the difference between two runs
of the same games (common random numbers: same seed, same seats) is paired unit by unit, its interval
clustered by game as in analysis/ab.py. ``--metric`` of ``playtest run/sweep --until-ci`` names one of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from analysis import stats
from analysis.load import Run
from analysis.models import cluster_ols
from analysis.verdicts import Finding, finding, games_to_label
from sim.core.errors import PlaytestError

DEFAULT_METRIC = "seat1"
LENGTH_EFFECT = 0.05
"""The smallest change of game length that matters: 5% of the baseline's mean length."""
MIN_UNTIL_GAMES = 1_000
"""--until-ci never stops before this many games: a tiny sample's interval can look narrow by chance
(a rare end reason not seen yet has a zero-width paired interval)."""
Z95 = float(sps.norm.ppf(0.975))


@dataclass(frozen=True)
class Metric:
    """One headline number of a run: ``key`` as typed after --metric, a title, and its unit."""

    key: str
    title: str
    rate: bool
    """A share (shown in %, differences in points) rather than a mean in the game's own unit (rounds)."""

    @property
    def unit(self) -> str:
        return "pts" if self.rate else "rounds"

    @property
    def scale(self) -> float:
        """Display units per unit value (points per proportion for rates)."""
        return 100.0 if self.rate else 1.0

    def units(self, run: Run) -> pd.DataFrame:
        """game_index, seat (-1 for a per-game metric) and value of every unit of ``run``."""
        g, p = run.games, run.players
        kind, _, arg = self.key.partition(":")
        if kind.startswith("seat"):
            rows = p[p["seat"] == int(kind[4:]) - 1]
            return _frame(rows["game_index"], rows["seat"], rows["win_share"])
        if kind == "strategy":
            rows = p[p["strategy"].astype(str) == arg]
            return _frame(rows["game_index"], rows["seat"], rows["win_share"])
        if kind == "end":
            return _frame(g["game_index"], -1, (g["end_reason"].astype(str) == arg).astype(float))
        return _frame(g["game_index"], -1, g["rounds"])

    def threshold(self, points: float, baseline: float) -> float:
        """The smallest change that matters, in display units: ``points`` for rates, 5% of the baseline's
        mean length for game length."""
        return points if self.rate else LENGTH_EFFECT * abs(baseline)

    def fmt(self, value: float) -> str:
        return f"{value:.1f}%" if self.rate else f"{value:.2f} rounds"

    def interval(self, f: Finding, unit: bool = True) -> str:
        """A difference and its 95% interval in this metric's unit ('+1.2 pts [+0.4, +2.0]')."""
        d = 1 if self.rate else 2
        return f"{f.estimate:+.{d}f}{' ' + self.unit if unit else ''} [{f.lo:+.{d}f}, {f.hi:+.{d}f}]"


def _frame(game_index, seat, value) -> pd.DataFrame:
    gi = np.asarray(game_index, dtype=np.int64)
    return pd.DataFrame({"game_index": gi, "seat": np.broadcast_to(np.asarray(seat, dtype=np.int64), gi.shape),
                         "value": np.asarray(value, dtype=float)})


def parse_metric(text: str, run_like: dict) -> Metric:
    """The metric named ``text`` for a study described by ``run_like`` (game, n_players, strategies and
    the end reasons it can log); one clear line naming the allowed forms otherwise."""
    key = text.strip()
    kind, sep, arg = key.partition(":")
    n = int(run_like["n_players"])
    if not sep and kind.startswith("seat") and kind[4:].isdigit() and 1 <= int(kind[4:]) <= n:
        k = int(kind[4:])
        return Metric(key, f"Seat {k}'s win rate" + (" (first player)" if k == 1 else ""), True)
    if not sep and kind == "rounds":
        return Metric(key, "Mean game length in rounds", False)
    if kind == "end" and arg in run_like["end_reasons"]:
        return Metric(key, f"Share of games ending by {arg}", True)
    if kind == "strategy" and arg in run_like["strategies"]:
        return Metric(key, f"{arg}'s win rate", True)
    allowed = [f"seat1..seat{n}", "rounds", *(f"end:{r}" for r in run_like["end_reasons"]),
               *(f"strategy:{s}" for s in dict.fromkeys(run_like["strategies"]))]
    raise PlaytestError(f"--metric '{text}' is not a metric of this study; use one of {', '.join(allowed)}")


def study_like(game: str, n_players: int, lineup: Sequence[str]) -> dict:
    """What ``parse_metric`` checks a name against: players, the lineup and the end reasons the game logs."""
    from sim.core.spec import get_game

    spec = get_game(game)
    return {"n_players": n_players, "strategies": list(lineup),
            "end_reasons": list(spec.game_columns[spec.game_col("end_reason")].labels)}


def headline_metrics(runs: Sequence[Run]) -> list[Metric]:
    """The sweep report's metrics: seat 1's win rate, game length, each end reason seen in any run, and
    each strategy's win rate when the lineup mixes strategies."""
    reasons = sorted(set().union(*(set(r.games["end_reason"].astype(str)) for r in runs)))
    names = list(dict.fromkeys(s for r in runs for s in r.lineup))
    like = {"n_players": runs[0].n_players, "end_reasons": reasons, "strategies": names}
    keys = ["seat1", "rounds", *(f"end:{r}" for r in reasons)]
    keys += [f"strategy:{s}" for s in names] if len(names) > 1 else []
    return [parse_metric(k, like) for k in keys]


@dataclass(frozen=True)
class Estimate:
    """A metric's value in display units with its 95% interval, over ``n`` games."""

    value: float
    lo: float
    hi: float
    n: int

    @property
    def width(self) -> float:
        return self.hi - self.lo

    def text(self, metric: Metric) -> str:
        digits = 1 if metric.rate else 2
        return f"{self.value:.{digits}f} [{self.lo:.{digits}f}, {self.hi:.{digits}f}]"


def estimate(metric: Metric, run: Run) -> Estimate:
    """The metric over the run: a Wilson interval for a per-game share (honest when the event is rare),
    else the mean with a normal interval clustered by game."""
    u = metric.units(run)
    n_games = int(u["game_index"].nunique())
    if metric.rate and ((u["seat"] < 0).all() or metric.key.startswith("seat")):
        lo, hi = stats.wilson(u["value"].sum(), len(u))
        mean = float(u["value"].mean())
        return Estimate(100 * mean, 100 * float(lo), 100 * float(hi), n_games)
    mean, se = mean_se(u["value"].to_numpy(), u["game_index"].to_numpy())
    return Estimate(metric.scale * mean, metric.scale * (mean - Z95 * se), metric.scale * (mean + Z95 * se), n_games)


def mean_se(values: np.ndarray, games: np.ndarray) -> tuple[float, float]:
    """Mean and its game-clustered standard error (statsmodels OLS on a constant, as in analysis/ab.py). The mean
    is numpy's, not the fit's: the fit's last bits vary with the row order and BLAS's threads, and a share such
    as 17/80 = 21.25 pts would print as 21.2 or 21.3 from the same logs."""
    if len(values) < 2:
        return float(values.mean()) if len(values) else math.nan, math.inf
    res = cluster_ols(values, np.ones((len(values), 1)), games)
    return float(values.mean()), float(res.bse[0])


@dataclass(frozen=True)
class Paired:
    """A paired difference (variant minus baseline) in display units, and what pairing bought."""

    finding: Finding
    n_games: int
    sd_paired: float
    """Standard deviation per game of the paired difference (display units): sets the games needed."""
    sd_unpaired: float
    """The same for two independent samples of games: what the difference would cost without common numbers."""

    def games_for(self, effect: float, threshold: float, want: str, paired: bool = True) -> int | None:
        """Games per variant for an 80% chance that a true difference of ``effect`` display units is labelled
        ``want`` ('large', or 'within' the threshold); None when no number of games can."""
        sd = self.sd_paired if paired else self.sd_unpaired
        return games_to_label(effect, sd, threshold, want, stats.POWER) if sd > 0 else None


def newcombe_paired(base: np.ndarray, variant: np.ndarray) -> tuple[float, float, float]:
    """Difference of two paired proportions (variant minus base, one 0/1 pair per game) with Newcombe's hybrid
    score interval (1998, method 10): built from the two Wilson intervals, so it cannot collapse to a point
    when no game is discordant or the event is rare."""
    n = len(base)
    b, v = base.astype(bool), variant.astype(bool)
    n11, n10, n01, n00 = (b & v).sum(), (b & ~v).sum(), (~b & v).sum(), (~b & ~v).sum()
    p1, p2 = (n11 + n01) / n, (n11 + n10) / n  # variant, base
    (l1, u1), (l2, u2) = [(float(x[0]), float(x[1])) for x in (stats.wilson(n11 + n01, n), stats.wilson(n11 + n10, n))]
    a = float(n11) * n00 - float(n10) * n01
    a = a - n / 2 if a > n / 2 else (0.0 if a >= 0 else a)
    denom = math.sqrt(float(n11 + n01) * (n10 + n00) * (n11 + n10) * (n01 + n00))
    phi = a / denom if denom > 0 else 0.0
    d = p1 - p2
    lo = d - math.sqrt(max((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
    hi = d + math.sqrt(max((u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2, 0.0))
    return d, lo, hi


def paired_difference(metric: Metric, run: Run, base: Run, threshold: float, what: str = "") -> Paired:
    """``run`` minus ``base`` on ``metric``, unit by unit (same game, same seat), clustered by game; a per-game
    share (an end reason) gets Newcombe's interval for paired proportions instead."""
    a, b = metric.units(base), metric.units(run)
    if len(a) != len(b) or not (a["game_index"].to_numpy() == b["game_index"].to_numpy()).all() \
            or not (a["seat"].to_numpy() == b["seat"].to_numpy()).all():
        raise PlaytestError(f"{run.run_dir} and {base.run_dir} are not the same games and seats for {metric.key}; "
                            "run every variant with the same seed, seating and games (`playtest sweep` does)")
    games = a["game_index"].to_numpy()
    diff = b["value"].to_numpy() - a["value"].to_numpy()
    mean, se = mean_se(diff, games)
    n_games = int(len(np.unique(games)))
    name = what or metric.title
    if metric.rate and (a["seat"] < 0).all():
        d, lo, hi = newcombe_paired(a["value"].to_numpy(), b["value"].to_numpy())
        se_band = (hi - lo) / (2 * Z95)
        f = finding(name, metric.scale * d, metric.scale * se_band, threshold)
        f = Finding(f.what, f.estimate, metric.scale * lo, metric.scale * hi, f.se, f.label, f.threshold)
    else:
        f = finding(name, metric.scale * mean, metric.scale * se, threshold)
    per_game = metric.scale * se * math.sqrt(n_games)
    _, se_a = mean_se(a["value"].to_numpy(), games)
    _, se_b = mean_se(b["value"].to_numpy(), games)
    unpaired = metric.scale * math.sqrt(se_a ** 2 + se_b ** 2) * math.sqrt(n_games)
    return Paired(f, n_games, per_game, unpaired)


def until_ci_note(manifest: dict) -> str | None:
    """A sentence on how a run (or sweep) made with --until-ci stopped, or None for a fixed-size run."""
    u = manifest.get("until_ci")
    if not u:
        return None
    why = (f"its interval was {u['achieved']:.3g} {u['unit']} wide, narrower than the target {u['target']:g}"
           if u.get("reached") else
           f"it reached the cap of {u['cap']:,} games with the interval still {u['achieved']:.3g} {u['unit']} wide "
           f"(target {u['target']:g}); re-run with a larger --games to go on")
    return (f"Sequential stopping (--until-ci {u['target']:g} --metric {u['metric']}): stopped at {u['games']:,} "
            f"games: {why}.")
