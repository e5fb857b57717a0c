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

from analysis.aggregate import chunks, codes_of, describe_counts, keyed, memoized, scan, value_counts
from analysis.keep import kept
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


class RateSums:
    """``rate_sums`` as an accumulator (``aggregate.scan``)."""

    def __init__(self, by: str, success: str) -> None:
        self.by, self.success, self.pieces = by, success, []

    def add(self, f: pd.DataFrame) -> None:
        key, y = keyed(f[self.by]), f[self.success].to_numpy(float)
        own = pd.DataFrame({"k": key, "y": y, "sq": y * y}).groupby("k")[["y", "sq"]].sum()
        own["n"] = pd.Series(key).value_counts()
        if "game_index" in f.columns:
            per = pd.DataFrame({"k": key, "g": f["game_index"].to_numpy(), "y": y}).groupby(["k", "g"])["y"].agg(["count", "sum"])
            c, s = per["count"].to_numpy(float), per["sum"].to_numpy()
            games = pd.DataFrame({"games": 1, "s2": s * s, "sc": s * c, "c2": c * c, "most": c},
                                 index=per.index.get_level_values(0)).groupby(level=0)
            own = own.join(games[["games", "s2", "sc", "c2"]].sum()).join(games["most"].max())
        self.pieces.append(own)

    def result(self) -> pd.DataFrame:
        pieces = self.pieces
        out = pd.concat(pieces).groupby(level=0, sort=True)
        out = out.sum().assign(most=out["most"].max()) if "most" in pieces[0] else out.sum()
        out.index.name = self.by
        return out.rename(columns={"y": "successes"})


@memoized(RateSums)
def rate_sums(rows, by: str, success: str) -> pd.DataFrame:
    """Per group of ``by``, summed chunk by chunk: rows ``n``, ``successes``, sum of squares ``sq`` and, per game in
    the group (when rows carry game_index), ``games``, the sums of squared game totals ``s2``, totals x rows ``sc``
    and squared rows ``c2``, and the most rows one game gives ``most``: what a game-clustered rate needs."""
    return scan(chunks(rows), RateSums(by, success))[0]


def rate_table(df, by: str, success: str, expected: float | None = None) -> pd.DataFrame:
    """Per group of ``by``: rows n, success sum, rate, Wilson 95% lo/hi, ± half-width, vs expected. Where a group
    holds several rows of one game the interval is clustered by game (Wilson on the effective sample size).
    ``df``: rows in memory or chunk by chunk (``aggregate.Rows``)."""
    for name in (by, success):
        if isinstance(df, pd.DataFrame) and name not in df.columns:
            raise PlaytestError(f"rate_table needs columns '{by}' and '{success}'; pass names present in the log")
    return rate_table_from(rate_sums(df, by, success), expected)


def rate_table_from(sums: pd.DataFrame, expected: float | None = None) -> pd.DataFrame:
    """``rate_table`` from ``rate_sums``."""
    g = pd.DataFrame({"n": sums["n"].astype(np.int64), "successes": sums["successes"].astype(float)}, index=sums.index)
    g["rate"] = g["successes"] / g["n"]
    deff = design_effect(sums, g["rate"]) if "games" in sums.columns else 1.0
    g["lo"], g["hi"] = wilson(g["successes"] / deff, g["n"] / deff)
    g["pm"] = (g["hi"] - g["lo"]) / 2.0
    if expected is not None:
        g["expected"] = expected
        g["diff_pp"] = 100.0 * (g["rate"] - expected)
    return g


def design_effect(sums: pd.DataFrame, rate: pd.Series) -> pd.Series | float:
    """Per group: the game-clustered variance of its rate over the variance if its rows were independent (1 where
    no game gives the group two rows). Dividing n by it gives the effective sample size for a Wilson interval."""
    if (sums["most"] <= 1).all():
        return 1.0
    n, games = sums["n"].astype(float), sums["games"].astype(float)
    resid = sums["s2"] - 2.0 * rate * sums["sc"] + rate ** 2 * sums["c2"]  # sum over games of (total - rate x rows)^2
    clustered = resid * games / (games - 1).clip(lower=1) / n ** 2
    iid = (sums["sq"] / n - rate ** 2).clip(lower=0) / n
    deff = (clustered / iid).where((iid > 0) & (games > 1) & (sums["most"] > 1), 1.0)
    return deff.clip(lower=1e-6).fillna(1.0)


def expected_share(players) -> float:
    """Win share each seat would get with no seat effect: total share / player rows (1/n if every game has a winner)."""
    if isinstance(players, pd.DataFrame):
        return float(players["win_share"].astype(float).sum() / len(players))
    sums = rate_sums(players, "seat", "win_share")
    return float(sums["successes"].sum() / sums["n"].sum())


def win_rates(players, by: str = "seat") -> pd.DataFrame:
    """Win rate (win_share per row) by seat, strategy or any player column, with Wilson 95% intervals."""
    if isinstance(players, pd.DataFrame):
        return rate_table(players, by, "win_share", expected=expected_share(players))
    return win_rates_from(rate_sums(players, by, "win_share"))


def win_rates_from(sums: pd.DataFrame) -> pd.DataFrame:
    """``win_rates`` from the ``rate_sums`` of win_share."""
    return rate_table_from(sums, float(sums["successes"].sum() / sums["n"].sum()))


def proportion_table(values: pd.Series, order: list | None = None) -> pd.DataFrame:
    """Counts and shares of each category (e.g. end reasons) with simultaneous 95% multinomial intervals
    (Goodman, statsmodels; Wilson when there is a single category)."""
    return proportion_table_counts(values.value_counts(sort=False), order)


def proportion_table_counts(counts: pd.Series, order: list | None = None) -> pd.DataFrame:
    """``proportion_table`` from category -> count, categories in order of first appearance."""
    n = int(counts.sum())
    counts = counts[counts > 0] if order is None else counts.reindex(order, fill_value=0)
    out = pd.DataFrame({"count": counts.astype(int)})
    out["share"] = out["count"] / n if n else np.nan
    if len(out) > 1 and n:
        ci = multinomial_proportions_confint(out["count"].to_numpy(), alpha=ALPHA, method="goodman")
        out["lo"], out["hi"] = ci[:, 0], ci[:, 1]
    else:
        out["lo"], out["hi"] = wilson(out["count"], np.full(len(out), n))
    return out.sort_values("count", ascending=False) if order is None else out


def mean_table(df, by: str | list[str], value: str) -> pd.DataFrame:
    """Mean of ``value`` per group with a normal 95% interval (mean ± 1.96 SE) and the median (``df``: rows in
    memory or chunk by chunk)."""
    return mean_table_counts(value_counts(chunks(df), [*([by] if isinstance(by, str) else by), value]), by, value)


def mean_table_counts(counts: pd.DataFrame, by: str | list[str], value: str) -> pd.DataFrame:
    """``mean_table`` from the ``aggregate.value_counts`` of by + value."""
    keys = [by] if isinstance(by, str) else list(by)
    rows = {k: describe_counts(grp.set_index(value)["n"]) for k, grp in counts.groupby(keys if len(keys) > 1 else keys[0])}
    out = pd.DataFrame({"n": [int(d["n"]) for d in rows.values()], "mean": [d["mean"] for d in rows.values()],
                        "sd": [d["sd"] for d in rows.values()], "median": [d["median"] for d in rows.values()]},
                       index=pd.Index(list(rows), name=keys[0]) if len(keys) == 1 else
                       pd.MultiIndex.from_tuples(list(rows), names=keys))
    se = out["sd"] / np.sqrt(out["n"])
    z = sps.norm.ppf(1 - ALPHA / 2)
    out["lo"], out["hi"] = out["mean"] - z * se, out["mean"] + z * se
    return out


def describe(values: pd.Series) -> pd.Series:
    """Distribution summary: n, mean with 95% interval, sd, and the 5/25/50/75/95% quantiles."""
    return describe_counts(pd.Series(values, dtype=float).value_counts())


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


def seat_balance(players, alpha: float = ALPHA, threshold: float = 2.0) -> SeatBalance:
    """Does seat order matter? Chi-square over win shares, per-seat binomial tests (Holm) and a practical
    label per seat against ``threshold`` (win-rate points)."""
    sums = rate_sums(players, "seat", "win_share")
    n_players = int(sums.index.max()) + 1
    n_games = int(sums["games"].max())
    expected = float(sums["successes"].sum() / sums["n"].sum()) if not isinstance(players, pd.DataFrame) \
        else expected_share(players)
    table = rate_table_from(sums, expected).reindex(range(n_players))
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


def _wide(players: pd.DataFrame, names: list[str] | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Per game arrays [games, seats] of strategy codes (into ``names``, default the strategies present, sorted)
    and ranks (players sorted by game, seat)."""
    n = int(players["seat"].max()) + 1
    if len(players) % n:
        raise PlaytestError(f"player rows ({len(players)}) are not a whole number of {n}-seat games; reload the run")
    p = players.sort_values(["game_index", "seat"], kind="stable")
    codes, names = codes_of(p["strategy"], names)
    codes = codes.reshape(-1, n)
    ranks = p["rank"].to_numpy(dtype=np.int64).reshape(-1, n)
    if not (p["seat"].to_numpy().reshape(-1, n) == np.arange(n)).all():
        raise PlaytestError("some games lack a seat row; reload the run with analysis.load.load_run")
    return codes, ranks, names


class StrategyNames:
    """``strategy_names`` as an accumulator."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.games = 0

    def add(self, f: pd.DataFrame) -> None:
        self.names.update(str(s) for s in pd.unique(keyed(f["strategy"])))
        self.games += int(f["game_index"].nunique())

    def result(self) -> tuple[list[str], int]:
        return sorted(self.names), self.games


@memoized(StrategyNames)
def strategy_names(players) -> tuple[list[str], int]:
    """The strategies present (sorted) and the number of games, over every chunk (one pass)."""
    return scan(chunks(players), StrategyNames())[0]


def pairwise_counts(players, n_blocks: int = 100, seed: int = 0) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Pairwise results between different strategies, per random block of games (for the block bootstrap).

    Returns names, W[block, a, b] = times a finished above b (exact ties count 1/2), N[block, a, b] = comparisons.
    ``players``: rows in memory or chunk by chunk; the blocks are drawn once for every game, in game order.
    """
    names, games = strategy_names(players)
    s = len(names)
    blocks = np.random.default_rng(seed).integers(0, n_blocks, size=games).astype(np.int16)
    size = n_blocks * s * s
    w = np.zeros(size)
    c = np.zeros(size)
    first = 0
    for chunk in chunks(players):
        codes, ranks, _ = _wide(chunk, names)
        g, n = codes.shape
        block = blocks[first:first + g].astype(np.int64)
        first += g
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


@kept
def strategy_ratings(players, n_boot: int = 200, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
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


def running_rate(players, seat: int = 0, points: int = 12) -> pd.DataFrame:
    """One seat's win rate after the first N games with its Wilson 95% interval, N on a log grid (convergence);
    ``players``: rows in memory or chunk by chunk (in game order)."""
    n = sum(int((f["seat"] == seat).sum()) for f in chunks(players))
    if n < 2:
        return pd.DataFrame(columns=["games", "rate", "lo", "hi"])
    grid = np.unique(np.geomspace(min(100, n), n, points).astype(int))
    wins, total, done = [], 0.0, 0
    for f in chunks(players):
        x = f.loc[f["seat"] == seat].sort_values("game_index")["win_share"].to_numpy(dtype=float)
        run = np.cumsum(np.concatenate([[total], x]))[1:]  # one running sum, in the order a single cumsum takes
        inside = grid[(grid > done) & (grid <= done + len(x))]
        wins.extend(run[inside - done - 1])
        done += len(x)
        total = run[-1] if len(run) else total
    wins = np.asarray(wins)
    lo, hi = wilson(wins, grid)
    return pd.DataFrame({"games": grid, "rate": wins / grid, "lo": lo, "hi": hi})
