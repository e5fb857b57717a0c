"""Practical verdicts: every finding labelled large, about the threshold, small, negligible or inconclusive
against the designer's threshold (``--min-effect``) from its 90% interval, not by its p-value alone; the games a
label needs; and the number formats they print in.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Callable, TypeVar

import numpy as np

from scipy import stats as sps
from scipy.special import ndtr  # the normal cdf that sps.norm.cdf/sf call, without their ~0.1 ms per call
from scipy.optimize import brentq
from statsmodels.stats.multitest import multipletests

from sim.core.errors import PlaytestError

DEFAULT_MIN_EFFECT = "2"
ALPHA = 0.05
T = TypeVar("T")
NUMERIC_ZERO = 1e-9
LABELS = ("large", "about the threshold", "small", "negligible", "inconclusive")
MEANING = {
    "large": "beyond the threshold (the whole 90% interval lies beyond ± the threshold)",
    "about the threshold": "measured precisely (90% interval within ± a quarter of the threshold) and straddling it",
    "small": "real but smaller than the threshold (the 90% interval lies inside ± the threshold, the 95% one excludes 0)",
    "negligible": "no effect found and equivalence shown (the 90% interval lies inside ± the threshold)",
    "inconclusive": "the data cannot tell whether it reaches the threshold: more games needed",
}
Z95 = float(sps.norm.ppf(0.975))
Z90 = float(sps.norm.ppf(0.95))
PRECISE = 0.25
"""An interval straddling the threshold is 'about the threshold' when its 90% half-width is at most this share of
the threshold: more games would only move the label across a line the effect sits on."""


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


def _claim_p(estimate: float, se: float, threshold: float) -> tuple[float, float, float]:
    """p-values of the three claims a label can make: beyond the threshold (one-sided), inside it (TOST) and
    different from 0 (two-sided). Below ``NUMERIC_ZERO`` pts a size or standard error is rounding, not data."""
    size = abs(estimate) if abs(estimate) > NUMERIC_ZERO else 0.0
    se = se if se > NUMERIC_ZERO else 0.0
    beyond = float(ndtr((threshold - size) / se)) if se > 0 else float(size < threshold)
    inside = float(ndtr((size - threshold) / se)) if se > 0 else float(size >= threshold)
    real = float(2 * ndtr(-size / se)) if se > 0 else float(size == 0)
    return beyond, inside, real


def label(estimate: float, se: float, threshold: float) -> str:
    """The label of an effect in points with standard error ``se``, read off its 90% interval (symmetric: large
    needs the whole interval beyond ± threshold, as negligible needs it inside, i.e. one-sided tests at 5%).

    Inside ``fdr()`` each test runs at the report's Benjamini-Hochberg cut-off instead of 5%."""
    if not (math.isfinite(estimate) and math.isfinite(se)):
        return "inconclusive"
    beyond, inside, real = _claim_p(estimate, se, threshold)
    ledger = current_ledger()
    level = ALPHA if ledger is None else ledger.level(min(beyond, inside))
    if beyond <= level:
        return "large"
    if inside <= level:
        return "small" if real <= level else "negligible"
    return "about the threshold" if Z90 * se <= PRECISE * threshold else "inconclusive"


@dataclass
class Ledger:
    """The findings a report labels: pass 1 records each one's p-value (its nearer claim: beyond or inside the
    threshold), ``settle`` finds the Benjamini-Hochberg cut-off over them, pass 2 labels at that cut-off."""

    p_values: list[float] = field(default_factory=list)
    cutoff: float | None = None
    n_tested: int = 0
    kept: dict = field(default_factory=dict)
    """Statistics computed in pass 1, taken again in pass 2 (``analysis.keep``)."""

    def level(self, p: float) -> float:
        """The level a claim is tested at: 5% while recording, the report's cut-off once settled."""
        if self.cutoff is None:
            self.p_values.append(p)
            return ALPHA
        return self.cutoff

    def settle(self) -> bool:
        """Fix the cut-off (the largest p-value BH rejects at 5%, or 0); True if any label changes with it."""
        p = np.asarray(self.p_values, float)
        self.n_tested = len(p)
        reject = multipletests(p, alpha=ALPHA, method="fdr_bh")[0] if len(p) else np.zeros(0, bool)
        self.cutoff = float(p[reject].max()) if reject.any() else 0.0
        return bool(((p > self.cutoff) & (p <= ALPHA)).any())

    def sentence(self) -> str:
        return (f"{self.n_tested:,} findings labelled, holding the false discovery rate at 5% across them "
                f"(Benjamini-Hochberg: each label's test passes at p ≤ {fmt_p(self.cutoff)}, not 5%). Tables marked "
                "'screening' pick cells by their estimate: leads, not findings.")


_LEDGER: ContextVar[Ledger | None] = ContextVar("playtest_fdr_ledger", default=None)


def current_ledger() -> Ledger | None:
    """The ledger of the ``fdr`` call running, if any."""
    return _LEDGER.get()


def claim_level_p(f: Finding) -> float | None:
    """The p-value ``label`` records for ``f`` (its nearer claim), None when it records none (a non-finite estimate)."""
    if not (math.isfinite(f.estimate) and math.isfinite(f.se)):
        return None
    return min(_claim_p(f.estimate, f.se, f.threshold)[:2])


def fdr(build: Callable[[], T]) -> tuple[T, Ledger]:
    """Run ``build`` (which labels findings) twice if needed: once to collect every finding's p-value, then again
    with the Benjamini-Hochberg cut-off when it changes any label. Returns the result and the ledger."""
    ledger = Ledger()
    token = _LEDGER.set(ledger)
    try:
        out = build()
        if ledger.settle():
            out = build()
    finally:
        _LEDGER.reset(token)
    return out, ledger


def label_power(effect: float, se: float, threshold: float, want: str) -> float:
    """Probability that a true ``effect`` measured with standard error ``se`` is labelled ``want``
    ('large', or 'negligible' / 'small' together as 'within')."""
    if want == "large":
        return float(ndtr((effect - threshold) / se - Z90) + ndtr((-threshold - effect) / se - Z90))
    if want == "within":
        return float(max(ndtr((threshold - effect) / se - Z90) - ndtr((-threshold - effect) / se + Z90), 0.0))
    raise PlaytestError(f"label_power wants 'large' or 'within', not '{want}'")


def games_to_label(effect: float, sd: float, threshold: float, want: str, power: float = 0.8) -> int | None:
    """Games needed so a true ``effect`` (points) is labelled ``want`` ('large' or 'within' the threshold) with
    probability ``power``, when one game gives a standard deviation ``sd`` (points); None if no number of games can."""
    if (want == "large" and abs(effect) <= threshold) or (want == "within" and abs(effect) >= threshold) or not sd > 0:
        return None
    f = lambda log_n: label_power(effect, sd / math.exp(0.5 * log_n), threshold, want) - power  # noqa: E731
    hi = 1.0
    while f(hi) < 0:
        hi *= 2
        if hi > 200:
            return None
    return int(math.ceil(math.exp(brentq(f, 0.0, hi, xtol=1e-6)) - 1e-9)) if f(0.0) < 0 else 1


def finding(what: str, estimate: float, se: float, threshold: float) -> Finding:
    """A Finding from an estimate (points) and its standard error, with the normal 95% interval."""
    return Finding(what, estimate, estimate - Z95 * se, estimate + Z95 * se, se, label(estimate, se, threshold), threshold)


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
