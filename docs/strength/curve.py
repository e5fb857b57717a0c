"""Strength against cost of rollout players (docs/strength.md): one seat plays a rollout over the base, flat
(``BASE+mcK``) or by sequential halving (``BASE+shK``, the same budget at most), every other seat the base, seats
drawn at random per game; the same games (seed, seating) at every point, so flat and halving at the same K are
paired game by game.

    PYTHONPATH=. python docs/strength/curve.py bus 3 expander 300 --budgets 2,4,8

writes docs/strength/<game>-<n>p.csv (one row per point); ``curve.py --plot`` draws docs/strength/curve.png
from every CSV there. Games are played in this process on one core (timings include the machine's load).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.metrics import mean_se
from analysis.stats import wilson
from sim.study import plan_study

HERE = Path(__file__).resolve().parent
SEED = 11
CHUNK = 25


def play_point(game: str, n: int, base: str, name: str, games: int) -> tuple[dict, np.ndarray]:
    """One point: the rollout seat's per-game win share, cost and time over ``games`` games."""
    study = plan_study(game, n, games, [name] + [base] * (n - 1), seed=SEED, seating="random", chunk_size=CHUNK)
    table = study.table()
    spec = study.spec
    won_col = spec.player_col("won")
    shares, rollouts, playouts, seconds = [], 0, 0, 0.0
    for part in range(study.n_parts()):
        first, k = study.part_range(part)
        seats = study.seats(first, k)
        t0 = time.perf_counter()
        r = spec.play_chunk(study.rules, n, seats, first, k, study.seed, table)
        seconds += time.perf_counter() - t0
        won = r.players[:, :, won_col].astype(float)
        share = won / np.maximum(won.sum(axis=1, keepdims=True), 1.0)
        shares.append((share * (seats == 0)).sum(axis=1))
        rollouts += r.rollout_decisions
        playouts += r.playouts
    share = np.concatenate(shares)
    lo, hi = wilson(share.sum(), games)
    return {"game": game, "players": n, "base": base, "strategy": name, "games": games,
            "allocation": "halving" if "+sh" in name else "flat", "budget": int(name.rsplit("h" if "+sh" in name else "c", 1)[1]),
            "win_share": share.mean(), "lo": float(lo), "hi": float(hi), "fair": 1.0 / n,
            "playouts_per_decision": playouts / max(rollouts, 1), "decisions_per_game": rollouts / games,
            "ms_per_decision": 1000 * seconds / max(rollouts, 1), "s_per_game": seconds / games}, share


def plot(frames: list[pd.DataFrame]) -> None:
    """docs/strength/curve.png: win share above the fair share against playouts and milliseconds per decision,
    flat and halving, one row per study, 95% intervals."""
    from analysis import plots

    fig = plots.new_figure(10.0, 3.6 * len(frames))
    axes = fig.subplots(len(frames), 2, squeeze=False)
    for row, frame in zip(axes, frames):
        f0 = frame.iloc[0]
        for ax, x, label, line in ((row[0], "playouts_per_decision", "playouts per rollout decision (measured)", "-"),
                                   (row[1], "ms_per_decision", "ms per rollout decision (1 core, shared host)", "none")):
            for allocation, marker in (("flat", "o"), ("halving", "s")):
                d = frame[frame["allocation"] == allocation].sort_values("budget")
                y = 100 * (d["win_share"] - d["fair"])
                err = 100 * np.vstack([d["win_share"] - d["lo"], d["hi"] - d["win_share"]])
                ax.errorbar(d[x], y, yerr=err, marker=marker, capsize=3, linestyle=line,
                            label=f"{allocation} ({'+mcK' if allocation == 'flat' else '+shK'}, K = "
                                  f"{', '.join(map(str, d['budget']))})")
            ax.axhline(0.0, color="black", linewidth=0.8)
            ax.set_xscale("log", base=2)
            ax.set_xlabel(label)
            ax.set_ylabel("win share - fair share (pts)")
            ax.set_title(f"{f0['game']} {f0['players']}p: one rollout seat over {f0['base']} against {f0['base']}",
                         fontsize=9)
            ax.legend(fontsize=8, loc="lower right")
    (HERE / "curve.png").write_bytes(plots.to_png(fig))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?")
    ap.add_argument("players", type=int, nargs="?")
    ap.add_argument("base", nargs="?")
    ap.add_argument("games", type=int, nargs="?")
    ap.add_argument("--budgets", default="2,4,8")
    ap.add_argument("--plot", action="store_true", help="draw curve.png from every CSV here instead of playing")
    args = ap.parse_args()
    if args.plot:
        plot([pd.read_csv(p) for p in sorted(HERE.glob("*.csv"))])
        return
    rows, paired = [], []
    out = HERE / f"{args.game}-{args.players}p.csv"
    for k in (int(x) for x in args.budgets.split(",")):
        point = {}
        for form in ("mc", "sh"):
            row, share = play_point(args.game, args.players, args.base, f"{args.base}+{form}{k}", args.games)
            point[form] = share
            rows.append(row)
            print(row, flush=True)
            pd.DataFrame(rows).to_csv(out, index=False)
        mean, se = mean_se(point["sh"] - point["mc"], np.arange(args.games))
        paired.append({"budget": k, "halving_minus_flat": 100 * mean, "se": 100 * se})
        print(paired[-1], flush=True)
    frame = pd.DataFrame(rows)
    frame = frame.merge(pd.DataFrame(paired), on="budget")
    frame.to_csv(out, index=False)


if __name__ == "__main__":
    main()
