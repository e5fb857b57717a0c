"""Practical verdicts: every finding labelled large, small, negligible or inconclusive against the
designer's threshold (``--min-effect``), not by its p-value alone; and the number formats they print in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as sps

from sim.core.errors import PlaytestError

DEFAULT_MIN_EFFECT = "2"
LABELS = ("large", "small", "negligible", "inconclusive")
MEANING = {
    "large": "at least the threshold, and real (the 95% interval excludes 0)",
    "small": "real but smaller than the threshold (the 90% interval lies inside ± the threshold)",
    "negligible": "no effect found and equivalence shown (the 90% interval lies inside ± the threshold)",
    "inconclusive": "the data cannot tell whether it reaches the threshold: more games needed",
}


@dataclass(frozen=True)
class Threshold:
    """The smallest effect that matters: points of win rate, or a share of the fair rate."""

    value: float
    relative: bool

    def points(self, fair: float) -> float:
        """The threshold in win-rate points for a fair rate ``fair`` (a proportion)."""
        return self.value * 100.0 * fair if self.relative else self.value

    def describe(self, fair: float | None = None) -> str:
        if not self.relative:
            return f"{self.value:g} pts"
        tail = f" = {self.points(fair):.2f} pts" if fair is not None else ""
        return f"{100 * self.value:g}% of the fair rate{tail}"


def parse_min_effect(text: str | float | Threshold) -> Threshold:
    """'2' or '2pts' -> 2 points; '10%' -> 10% of the fair rate. Refuses anything not positive."""
    if isinstance(text, Threshold):
        return text
    raw = str(text).strip().lower()
    relative = raw.endswith("%")
    number = raw.rstrip("%").removesuffix("pts").removesuffix("pt").strip()
    try:
        value = float(number)
    except ValueError:
        raise PlaytestError(f"--min-effect '{text}' is not a number; give points (e.g. 2) or a share of the "
                            "fair rate (e.g. 10%)") from None
    if not (math.isfinite(value) and 0 < value < 100):
        raise PlaytestError(f"--min-effect must be above 0 and below 100, not '{text}'")
    return Threshold(value / 100.0 if relative else value, relative)


@dataclass(frozen=True)
class Finding:
    """An estimate in points with its 95% interval, its standard error and its practical label."""

    what: str
    estimate: float
    lo: float
    hi: float
    se: float
    label: str
    threshold: float

    def interval(self) -> str:
        return f"{self.estimate:+.1f} pts [{self.lo:+.1f}, {self.hi:+.1f}]"

    def sentence(self) -> str:
        return f"{self.what}: {self.interval()}, {self.label} (threshold {self.threshold:g} pts)."


def label(estimate: float, se: float, threshold: float) -> str:
    """large / small / negligible / inconclusive for an effect in points with standard error ``se``.

    Equivalence is the two one-sided tests at 5% (TOST): the 90% interval lies inside ± threshold.
    """
    if not (math.isfinite(estimate) and math.isfinite(se)):
        return "inconclusive"
    z95, z90 = sps.norm.ppf(0.975), sps.norm.ppf(0.95)
    real = abs(estimate) > z95 * se
    inside = abs(estimate) + z90 * se < threshold
    if real and abs(estimate) >= threshold:
        return "large"
    if inside:
        return "small" if real else "negligible"
    return "inconclusive"


def finding(what: str, estimate: float, se: float, threshold: float) -> Finding:
    """A Finding from an estimate (points) and its standard error, with the normal 95% interval."""
    z = sps.norm.ppf(0.975)
    return Finding(what, estimate, estimate - z * se, estimate + z * se, se, label(estimate, se, threshold), threshold)


def fmt_p(p: float) -> str:
    """A p-value as text; one that underflows prints as '< 1e-300', never 0."""
    if p is None or not math.isfinite(p):
        return "n/a"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.3g}"


def p_is(p: float) -> str:
    """'p = 0.0123', or 'p < 1e-300' when the value underflows."""
    text = fmt_p(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def pts(x: float, digits: int = 1) -> str:
    """A difference of rates (a proportion) in points: '+1.3 pts'."""
    return f"{100.0 * x:+.{digits}f} pts"
