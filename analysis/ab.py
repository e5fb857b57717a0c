"""The causal A/B: two runs of the same games (same seed, same seats) that differ in one strategy.

Arm A seats ``base`` where arm B seats ``variant``; everything else, including each game's random
numbers, is common. The effect of the change on a player is the difference of that seat's win share
between the arms, paired game by game (common random numbers make the pairs agree where the change
does not matter, which narrows the interval); the interval is clustered by game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import stats
from analysis.load import Run
from analysis.models import cluster_ols
from analysis.sections import Section, Table
from analysis.verdicts import finding, parse_min_effect
from sim.core.errors import PlaytestError


def _paired(run_a: Run, run_b: Run) -> pd.DataFrame:
    """Player rows of both arms side by side, checked to be the same games and seats."""
    a, b = run_a.players, run_b.players
    if len(a) != len(b) or not (a["game_index"].to_numpy() == b["game_index"].to_numpy()).all():
        raise PlaytestError(f"{run_a.run_dir} and {run_b.run_dir} are not the same games; run both arms with `playtest ab`")
    return pd.DataFrame({"game_index": a["game_index"].to_numpy(), "seat": a["seat"].to_numpy(),
                         "a": a["strategy"].astype(str).to_numpy(), "b": b["strategy"].astype(str).to_numpy(),
                         "win_a": a["win_share"].to_numpy(float), "win_b": b["win_share"].to_numpy(float)})


def ab_effects(run_a: Run, run_b: Run, base: str, variant: str, threshold: float) -> pd.DataFrame:
    """Per group of seats (the swapped seat, then each other strategy): win rate in A, in B, and B minus A."""
    d = _paired(run_a, run_b)
    swapped = (d["a"] == base) & (d["b"] == variant)
    if not swapped.any():
        raise PlaytestError(f"no seat holds {base} in arm A and {variant} in arm B; check --base and --variant")
    if ((d["a"] != d["b"]) & ~swapped).any():
        raise PlaytestError("the arms differ in more than the swapped strategy; run both arms with `playtest ab`")
    groups = [(f"the swapped seat ({base} -> {variant})", swapped)]
    groups += [(f"opponents playing {s}", (d["a"] == s).to_numpy()) for s in sorted(set(d.loc[~swapped, "a"]))]
    rows = []
    for what, mask in groups:
        sub = d[np.asarray(mask)]
        diff = (sub["win_b"] - sub["win_a"]).to_numpy()
        res = cluster_ols(diff, np.ones((len(diff), 1)), sub["game_index"].to_numpy())
        f = finding(what, 100 * float(res.params[0]), 100 * float(res.bse[0]), threshold)
        agree = float(np.mean(sub["win_a"].to_numpy() == sub["win_b"].to_numpy()))
        rows.append({"seats": what, "n": len(sub), "win rate A": sub["win_a"].mean(), "win rate B": sub["win_b"].mean(),
                     "finding": f, "same result in both arms": agree})
    return pd.DataFrame(rows)


def ab_section(run_a: Run, run_b: Run, base: str, variant: str, min_effect: str = "2") -> tuple[Section, str]:
    """The A/B section for a report, and a one-line answer for the terminal."""
    fair = stats.expected_share(run_a.players)
    threshold = parse_min_effect(min_effect).points(fair)
    t = ab_effects(run_a, run_b, base, variant, threshold)
    main = t.iloc[0]["finding"]
    line = (f"Playing {variant} instead of {base} changes that player's win rate by {main.interval()} "
            f"({main.label}; {run_a.n_games:,} paired games, threshold {threshold:.3g} pts).")
    table = pd.DataFrame({
        "seats": t["seats"], "player-games": [f"{n:,}" for n in t["n"]],
        "win rate A": [stats.pct(x) for x in t["win rate A"]], "win rate B": [stats.pct(x) for x in t["win rate B"]],
        "B minus A [95% CI]": [f.interval() for f in t["finding"]], "label": [f.label for f in t["finding"]],
        "same result in both arms": [stats.pct(x) for x in t["same result in both arms"]]})
    return Section("A/B: what the variant changes", [
        line,
        f"Arm A: {run_a.label}; arm B: {run_b.label}. Both arms play the same games (seed {run_a.manifest.get('seed')}, "
        f"the same seats); only {base} is replaced by {variant}. Differences are paired by game and the intervals "
        "clustered by game. This is a cause, not an association: nothing else differs between the arms.",
        Table(table, "Win rate in each arm and the change, for the swapped seat and for each opponent strategy."),
    ]), line
