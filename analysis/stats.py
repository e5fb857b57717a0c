"""Balance statistics with honest uncertainty: Wilson intervals, seat tests, ratings, sample sizes."""

from __future__ import annotations

import math
from dataclasses import dataclass

import choix
import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import multinomial_proportions_confint, proportion_confint, proportion_effectsize

from analysis.verdicts import Z90, finding, games_to_label
from sim.core.errors import PlaytestError

ALPHA = 0.05
POWER = 0.8
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log Bradley-Terry strength."""


def seat_label(seat: int) -> str:
    """Seats are 0-based in the logs; designers count from 1 (seat 1 plays first)."""
    return f"Seat {int(seat) + 1}" + (" (first player)" if int(seat) == 0 else "")


def pct(x: float, digits: int = 1) -> str:
    return f"{100.0 * x:.{digits}f}%"


def wilson(successes, n, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (statsmodels); successes may be fractional win-share sums."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(np.minimum(s, safe), safe, alpha=alpha, method="wilson")
    bad = n <= 0
    return np.where(bad, np.nan, lo), np.where(bad, np.nan, hi)


def rate_table(df: pd.DataFrame, by: str, success: str, expected: float | None = None) -> pd.DataFrame:
    """Per group of ``by``: rows n, success sum, rate, Wilson 95% lo/hi, ± half-width, vs expected. Where a group
    holds several rows of one game the interval is clustered by game (Wilson on the effective sample size)."""
    if by not in df.columns or success not in df.columns:
        raise PlaytestError(f"rate_table needs columns '{by}' and '{success}'; pass names present in the log")
    g = df.groupby(by, observed=True, sort=True)[success].agg(["count", "sum"])
    g.columns = ["n", "successes"]
    g["successes"] = g["successes"].astype(float)
    g["rate"] = g["successes"] / g["n"]
    deff = design_effect(df, by, success, g["rate"]) if "game_index" in df.columns else 1.0
    g["lo"], g["hi"] = wilson(g["successes"] / deff, g["n"] / deff)
    g["pm"] = (g["hi"] - g["lo"]) / 2.0
    if expected is not None:
        g["expected"] = expected
        g["diff_pp"] = 100.0 * (g["rate"] - expected)
    return g


def design_effect(df: pd.DataFrame, by: str, value: str, rate: pd.Series) -> pd.Series | float:
    """Per group: the game-clustered variance of its rate over the variance if its rows were independent (1 where
    no game gives the group two rows). Dividing n by it gives the effective sample size for a Wilson interval."""
    per_game = df.groupby([by, "game_index"], observed=True)[value].agg(["count", "sum"])
    if (per_game["count"] <= 1).all():
        return 1.0
    group = per_game.index.get_level_values(0)
    resid = (per_game["sum"].to_numpy(float) - rate.reindex(group).to_numpy() * per_game["count"].to_numpy()) ** 2
    games = pd.Series(1, index=group).groupby(level=0, observed=True).sum().reindex(rate.index)
    n = df.groupby(by, observed=True)[value].count().reindex(rate.index)
    clustered = pd.Series(resid, index=group).groupby(level=0, observed=True).sum().reindex(rate.index) \
        * games / (games - 1).clip(lower=1) / n ** 2
    mean_sq = (df[value].astype(float) ** 2).groupby(df[by], observed=True).mean().reindex(rate.index)
    iid = (mean_sq - rate ** 2).clip(lower=0) / n
    shared = per_game["count"].groupby(level=0, observed=True).max().reindex(rate.index) > 1
    deff = (clustered / iid).where((iid > 0) & (games > 1) & shared, 1.0)
    return deff.clip(lower=1e-6).fillna(1.0)


def expected_share(players: pd.DataFrame) -> float:
    """Win share each seat would get with no seat effect: total share / player rows (1/n if every game has a winner)."""
    return float(players["win_share"].astype(float).sum() / len(players))


def win_rates(players: pd.DataFrame, by: str = "seat") -> pd.DataFrame:
    """Win rate (win_share per row) by seat, strategy or any player column, with Wilson 95% intervals."""
    return rate_table(players, by, "win_share", expected=expected_share(players))


def proportion_table(values: pd.Series, order: list | None = None) -> pd.DataFrame:
    """Counts and shares of each category (e.g. end reasons) with simultaneous 95% multinomial intervals
    (Goodman, statsmodels; Wilson when there is a single category)."""
    counts = values.value_counts(sort=False)
    counts = counts[counts > 0] if order is None else counts.reindex(order, fill_value=0)
    n = int(len(values))
    out = pd.DataFrame({"count": counts.astype(int)})
    out["share"] = out["count"] / n if n else np.nan
    if len(out) > 1 and n:
        ci = multinomial_proportions_confint(out["count"].to_numpy(), alpha=ALPHA, method="goodman")
        out["lo"], out["hi"] = ci[:, 0], ci[:, 1]
    else:
        out["lo"], out["hi"] = wilson(out["count"], np.full(len(out), n))
    return out.sort_values("count", ascending=False) if order is None else out


def mean_table(df: pd.DataFrame, by: str | list[str], value: str) -> pd.DataFrame:
    """Mean of ``value`` per group with a normal 95% interval (mean ± 1.96 SE) and the median."""
    g = df.groupby(by, observed=True, sort=True)[value]
    out = pd.DataFrame({"n": g.count(), "mean": g.mean(), "sd": g.std(ddof=1), "median": g.median()})
    se = out["sd"] / np.sqrt(out["n"])
    z = sps.norm.ppf(1 - ALPHA / 2)
    out["lo"], out["hi"] = out["mean"] - z * se, out["mean"] + z * se
    return out


def describe(values: pd.Series) -> pd.Series:
    """Distribution summary: n, mean with 95% interval, sd, and the 5/25/50/75/95% quantiles."""
    x = pd.Series(values, dtype=float).dropna()
    n = len(x)
    mean = float(x.mean()) if n else np.nan
    sd = float(x.std(ddof=1)) if n > 1 else np.nan
    half = sps.norm.ppf(1 - ALPHA / 2) * sd / math.sqrt(n) if n > 1 else np.nan
    q = x.quantile([0.05, 0.25, 0.5, 0.75, 0.95]) if n else pd.Series([np.nan] * 5)
    return pd.Series(
        {"n": n, "mean": mean, "mean_lo": mean - half, "mean_hi": mean + half, "sd": sd,
         "min": x.min() if n else np.nan, "p5": q.iloc[0], "p25": q.iloc[1], "median": q.iloc[2],
         "p75": q.iloc[3], "p95": q.iloc[4], "max": x.max() if n else np.nan}
    )


def winning_margin(players: pd.DataFrame) -> pd.Series:
    """Score of the best minus the second-best seat in each game, in game_index order."""
    n = int(players["seat"].max()) + 1
    if len(players) % n:
        raise PlaytestError(f"player rows ({len(players)}) are not a whole number of {n}-seat games; reload the run")
    s = np.sort(players.sort_values(["game_index", "seat"], kind="stable")["score"].to_numpy(np.int64).reshape(-1, n), axis=1)
    return pd.Series(s[:, -1] - s[:, -2] if n > 1 else s[:, -1], name="margin")


def cohens_h(p1: float, p2: float) -> float:
    """Effect size of a difference between two proportions (statsmodels' Cohen's h)."""
    return float(proportion_effectsize(p1, p2))


def sample_size_note(n_games: int, threshold: float, sd: float, what: str = "seat effect") -> str:
    """Plain-language advice that answers the labels' question: how many games a true effect of a given size
    needs to be labelled large, or negligible, with 80% probability (``sd``: one game's standard deviation of
    the effect, in points, as the run measured it)."""
    half = Z90 * sd / math.sqrt(n_games)
    needs = []
    for effect, want, name in ((2.0 * threshold, "large", "large"), (1.5 * threshold, "large", "large"),
                               (0.0, "within", "negligible"), (0.5 * threshold, "within", "negligible")):
        k = games_to_label(effect, sd, threshold, want, POWER)
        needs.append(f"a true {what} of {effect:g} pts labelled {name}: {k:,} games" if k else
                     f"a true {what} of {effect:g} pts labelled {name}: not reachable")
    return (f"With {n_games:,} games each {what} is measured to ± {half:.2f} pts (90% interval; about {sd:.0f} pts "
            f"of spread per game). Games needed for an 80% chance that, against the {threshold:.3g}-pt threshold, "
            + "; ".join(needs) + ". An effect near the threshold needs many more games, and ends 'about the threshold'.")


@dataclass
class SeatBalance:
    """Seat-balance test: per-seat table, chi-square against equal shares, Holm-corrected binomials, verdict."""

    table: pd.DataFrame
    n_games: int
    n_players: int
    expected: float
    chi2: float
    p_value: float
    cohens_w: float
    verdict: str
    threshold: float


def seat_balance(players: pd.DataFrame, alpha: float = ALPHA, threshold: float = 2.0) -> SeatBalance:
    """Does seat order matter? Chi-square over win shares, per-seat binomial tests (Holm) and a practical
    label per seat against ``threshold`` (win-rate points)."""
    n_players = int(players["seat"].max()) + 1
    n_games = int(players["game_index"].nunique())
    expected = expected_share(players)
    table = win_rates(players, "seat").reindex(range(n_players))
    obs = table["successes"].fillna(0.0).to_numpy()
    total = obs.sum()
    if total > 0:
        chi2, p = sps.chisquare(obs, np.full(n_players, total / n_players))
        w = math.sqrt(chi2 / total)
    else:
        chi2, p, w = 0.0, 1.0, 0.0
    raw = [sps.binomtest(int(round(s)), int(n), expected).pvalue if 0 < expected < 1 else 1.0
           for s, n in zip(obs, table["n"].fillna(0).astype(int))]
    table["p_value"] = raw
    reject, holm, _, _ = multipletests(raw, alpha=alpha, method="holm")
    table["p_holm"] = holm
    table["significant"] = reject
    se = 100.0 * np.sqrt(table["rate"] * (1 - table["rate"]) / table["n"])
    table["label"] = [finding("", d, e, threshold).label for d, e in zip(table["diff_pp"], se)]
    return SeatBalance(table, n_games, n_players, expected, float(chi2), float(p), w,
                       seat_verdict(table, n_games, expected, threshold), threshold)


def seat_verdict(table: pd.DataFrame, n_games: int, expected: float, threshold: float) -> str:
    """One sentence a designer can act on: each seat's departure from the fair share, labelled by size."""
    order = table.reindex(table["diff_pp"].abs().sort_values(ascending=False).index)
    big = order[order["label"].isin(["large", "about the threshold", "inconclusive"])]
    head = [f"{seat_label(s)} wins {pct(r['rate'])} [{100 * r['lo']:.1f}, {100 * r['hi']:.1f}], "
            f"{r['diff_pp']:+.1f} pts against the fair {pct(expected)}: {r['label']}" for s, r in big.iterrows()]
    rest = order[~order.index.isin(big.index)]
    if len(rest):
        labels = sorted(set(rest["label"]))
        head.append(f"{'every seat' if not len(big) else 'the other seats'} within ± {threshold:g} pts "
                    f"({' or '.join(labels)}; largest {rest['diff_pp'].abs().max():.1f} pts)")
    return "; ".join(head) + f" ({n_games:,} games; threshold {threshold:g} pts)."


def _wide(players: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Per game arrays [games, seats] of strategy codes and ranks (players sorted by game, seat)."""
    n = int(players["seat"].max()) + 1
    if len(players) % n:
        raise PlaytestError(f"player rows ({len(players)}) are not a whole number of {n}-seat games; reload the run")
    p = players.sort_values(["game_index", "seat"], kind="stable")
    cat = pd.Categorical(p["strategy"].astype(str))
    codes = np.asarray(cat.codes, dtype=np.int64).reshape(-1, n)
    ranks = p["rank"].to_numpy(dtype=np.int64).reshape(-1, n)
    if not (p["seat"].to_numpy().reshape(-1, n) == np.arange(n)).all():
        raise PlaytestError("some games lack a seat row; reload the run with analysis.load.load_run")
    return codes, ranks, [str(c) for c in cat.categories]


def pairwise_counts(players: pd.DataFrame, n_blocks: int = 100, seed: int = 0) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Pairwise results between different strategies, per random block of games (for the block bootstrap).

    Returns names, W[block, a, b] = times a finished above b (exact ties count 1/2), N[block, a, b] = comparisons.
    """
    codes, ranks, names = _wide(players)
    s = len(names)
    g, n = codes.shape
    block = np.random.default_rng(seed).integers(0, n_blocks, size=g)
    size = n_blocks * s * s
    w = np.zeros(size)
    c = np.zeros(size)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = codes[:, i], codes[:, j]
            keep = a != b
            score = (ranks[:, i] < ranks[:, j]) + 0.5 * (ranks[:, i] == ranks[:, j])
            ab = (block * s + a) * s + b
            ba = (block * s + b) * s + a
            w += np.bincount(ab[keep], weights=score[keep], minlength=size)
            w += np.bincount(ba[keep], weights=1.0 - score[keep], minlength=size)
            c += np.bincount(ab[keep], minlength=size) + np.bincount(ba[keep], minlength=size)
    return names, w.reshape(n_blocks, s, s), c.reshape(n_blocks, s, s)


def bradley_terry(wins: np.ndarray, comparisons: np.ndarray) -> np.ndarray:
    """Log-strengths (mean 0) maximising the Bradley-Terry likelihood (choix; 1/2 pseudo-win per met pair)."""
    met = comparisons > 0
    counts = wins + 0.5 * met
    params = choix.ilsr_pairwise_dense(counts.astype(float), alpha=1e-9, max_iter=1000, tol=1e-12)
    return params - params.mean()


def strategy_ratings(players: pd.DataFrame, n_boot: int = 200, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Bradley-Terry ratings on the Elo scale (0 = average strategy) and the head-to-head matrix.

    Intervals are 95% percentile intervals of a bootstrap over 100 random blocks of games, so the
    correlation between comparisons made in the same game is respected.
    Ratings: strategy, rating, lo, hi, p_beat_avg (chance to finish above an average-rated opponent).
    Head-to-head (long form): a, b, comparisons, rate (a finished above b), lo, hi.
    """
    names, wb, cb = pairwise_counts(players, seed=seed)
    w, c = wb.sum(axis=0), cb.sum(axis=0)
    rating = ELO * bradley_terry(w, c)
    rng = np.random.default_rng(seed + 1)
    k = wb.shape[0]
    boot_r = np.empty((n_boot, len(names)))
    boot_h = np.empty((n_boot, len(names), len(names)))
    for b in range(n_boot):
        idx = rng.integers(0, k, size=k)
        bw, bc = wb[idx].sum(axis=0), cb[idx].sum(axis=0)
        boot_r[b] = ELO * bradley_terry(bw, bc)
        with np.errstate(invalid="ignore", divide="ignore"):
            boot_h[b] = bw / bc
    multi = len(names) > 1
    ratings = pd.DataFrame({
        "strategy": names,
        "rating": rating,
        "lo": np.percentile(boot_r, 2.5, axis=0) if multi else np.nan,
        "hi": np.percentile(boot_r, 97.5, axis=0) if multi else np.nan,
        "p_beat_avg": 1.0 / (1.0 + np.exp(-rating / ELO)),
        "comparisons": c.sum(axis=1).astype(np.int64),
    }).sort_values("rating", ascending=False, ignore_index=True)
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j and c[i, j] > 0:
                vals = boot_h[:, i, j][np.isfinite(boot_h[:, i, j])]
                rows.append({"a": a, "b": b, "comparisons": int(c[i, j]), "rate": w[i, j] / c[i, j],
                             "lo": np.percentile(vals, 2.5) if len(vals) else np.nan,
                             "hi": np.percentile(vals, 97.5) if len(vals) else np.nan})
    h2h = pd.DataFrame(rows, columns=["a", "b", "comparisons", "rate", "lo", "hi"])
    return ratings, h2h


def head_to_head_matrix(h2h: pd.DataFrame) -> pd.DataFrame:
    """Square matrix: row strategy finishes above column strategy this often (NaN where never met)."""
    return h2h.pivot(index="a", columns="b", values="rate")


def running_rate(players: pd.DataFrame, seat: int = 0, points: int = 12) -> pd.DataFrame:
    """One seat's win rate after the first N games with its Wilson 95% interval, N on a log grid (convergence)."""
    sub = players[players["seat"] == seat].sort_values("game_index")
    x = sub["win_share"].to_numpy(dtype=float)
    if len(x) < 2:
        return pd.DataFrame(columns=["games", "rate", "lo", "hi"])
    grid = np.unique(np.geomspace(min(100, len(x)), len(x), points).astype(int))
    wins = np.cumsum(x)[grid - 1]
    lo, hi = wilson(wins, grid)
    return pd.DataFrame({"games": grid, "rate": wins / grid, "lo": lo, "hi": hi})
