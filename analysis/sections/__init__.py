"""Report building blocks and the registry of game-specific report sections (one module per game).

A game module ``analysis/sections/<game>.py`` defines ``sections(run, threshold) -> list[Section]``
(``threshold``: the smallest win-rate effect that matters, in points) and may
define ``compare(runs) -> list[Section]`` for several runs of that game (e.g. 3, 4 and 5 players).
Sections skip a figure whose optional column is missing and say so; they never drop data silently.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Callable, Sequence, Union

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.load import Run

def _section_module(game: str) -> str | None:
    """``analysis.sections.<game>`` if the game has its own sections (found by name: no list of games here)."""
    name = f"{__name__}.{game}"
    return name if importlib.util.find_spec(name) is not None else None


@dataclass
class Table:
    """A display-ready table (cells already formatted) with a caption."""

    frame: pd.DataFrame
    caption: str


@dataclass
class Plot:
    """A figure with a file-name stem (unique within its section) and a caption."""

    name: str
    figure: Figure
    caption: str


Block = Union[str, Table, Plot]


@dataclass
class Section:
    """A titled part of a report: paragraphs (str), tables and plots in reading order."""

    title: str
    blocks: list[Block] = field(default_factory=list)


def game_sections(run: Run, threshold: float = 2.0) -> list[Section]:
    """The game's own sections, or a note when the game has none registered."""
    module = _section_module(run.game)
    if module is None:
        return [Section(f"{run.title}: game-specific analysis", [f"No specific sections are registered for '{run.game}'."])]
    return importlib.import_module(module).sections(run, threshold)


def turn_order(game: str) -> bool:
    """Whether the game's seats play in turn order (a module sets ``TURN_ORDER = False`` for simultaneous turns)."""
    module = _section_module(game)
    return bool(getattr(importlib.import_module(module), "TURN_ORDER", True)) if module else True


def game_comparison(runs: Sequence[Run]) -> list[Section]:
    """The game's own comparison sections across runs (empty when it defines none or games differ)."""
    games = {r.game for r in runs}
    module = _section_module(next(iter(games))) if len(games) == 1 else None
    compare = getattr(importlib.import_module(module), "compare", None) if module else None
    return compare(runs) if compare else []


def missing_columns(frame: pd.DataFrame, columns: Sequence[str]) -> list[str]:
    return [c for c in columns if c not in frame.columns]


def skip_note(what: str, missing: Sequence[str]) -> str:
    """The sentence shown in place of a figure whose columns are not in this run's logs."""
    return f"Skipped '{what}': column(s) {', '.join(missing)} not in this run's logs."


def flagged_rows(run: Run, flag: Callable[[pd.DataFrame], np.ndarray], columns: Sequence[str] = ()):
    """The run's player rows chunk by chunk as the association check reads them (``models.FLAG_COLUMNS``): the game's
    ``rounds`` and ``flag`` (a function of the chunk's player rows and ``columns``, whole games at a time) beside
    them; only the columns needed are read."""
    from analysis.models import FLAG_COLUMNS

    own = [c for c in FLAG_COLUMNS if c not in ("rounds", "flag")]

    def rows():
        for g, p in run.chunks(["rounds"], [*own, *columns]):
            yield p.assign(rounds=_per_row(g, p, "rounds"), flag=np.asarray(flag(p), bool))[list(FLAG_COLUMNS)]
    return rows


def _per_row(games: pd.DataFrame, players: pd.DataFrame, column: str) -> np.ndarray:
    """A game column beside each player row (rows of the same games, sorted by game): repeated seat by seat when
    every game has the same number of rows, else looked up by game_index."""
    g, p = games["game_index"].to_numpy(), players["game_index"].to_numpy()
    if len(g) and len(p) % len(g) == 0 and np.array_equal(np.repeat(g, len(p) // len(g)), p):
        return np.repeat(games[column].to_numpy(), len(p) // len(g))
    return players["game_index"].map(games.set_index("game_index")[column]).to_numpy()


def association_blocks(run: Run, flag, yes: str, no: str, threshold: float, columns: Sequence[str] = ()) -> list[Block]:
    """Win rates of two groups of player rows, their difference from the same games (game-clustered), and the
    comparison adjusted for strategy, seat and game length beside it: an association is never shown alone.
    ``flag``: one value per row of ``run.players``, or a function of a chunk of player rows (with ``columns``)."""
    from analysis import stats
    from analysis.models import association, association_rows

    if callable(flag):  # streamed: the flag of each chunk's player rows; the win rates in the comparison's first pass
        groups = stats.RateSums("flag", "win_share")  # summed by the flag, then named: no string per row
        a = association_rows(flagged_rows(run, flag, columns), f"{yes} minus {no}", threshold, also=[groups])
        sums = groups.result().rename(index={False: no, True: yes}).sort_index()
        t = stats.win_rates_from(sums.rename_axis("group"))
    else:
        p = run.players
        t = stats.win_rates(p.assign(group=np.where(flag, yes, no)), "group")
        a = association(p, run.games, flag, f"{yes} minus {no}", threshold)
    blocks: list[Block] = [Table(rate_display(t, "group"), f"Win rate of {yes} and {no} ({run.n_games:,} games).")]
    if a is None:
        return blocks + [f"Only one group present ({yes} / {no}); no comparison possible."]
    text = f"{a.crude.what}: {a.crude.interval()} in the same games ({a.crude.label}); "
    if a.adjusted is not None:
        text += f"adjusted for {a.adjusted_for}: {a.adjusted.interval()} ({a.adjusted.label})"
    else:
        text += f"no adjusted comparison possible ({a.adjusted_for} do not vary)"
    if a.odds_crude and a.odds_adjusted:
        oc, oa = a.odds_crude, a.odds_adjusted
        text += (f". Odds ratio of winning {oc[0]:.2f} [{oc[1]:.2f}, {oc[2]:.2f}] crude, "
                 f"{oa[0]:.2f} [{oa[1]:.2f}, {oa[2]:.2f}] Mantel-Haenszel over strategy x seat x length strata (intervals jackknifed over blocks of games)")
    blocks.append(text + ". An association, not a cause: a strong position may invite the behaviour; "
                         "`playtest ab` measures a cause.")
    return blocks


def ci(rate: float, lo: float, hi: float, percent: bool = True, digits: int = 1) -> str:
    """'27.9% [27.6, 28.2]' (or plain numbers when ``percent`` is False)."""
    if pd.isna(rate):
        return "n/a"
    if percent:
        return f"{100 * rate:.{digits}f}% [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"
    return f"{rate:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def rate_display(table: pd.DataFrame, label: str, labels: Sequence[str] | None = None, what: str = "win rate") -> pd.DataFrame:
    """Format a ``stats.rate_table`` for a report: n, rate with 95% interval, difference to expected."""
    out = pd.DataFrame({label: [str(x) for x in (labels if labels is not None else table.index)]})
    out["n"] = [f"{int(n):,}" for n in table["n"]]
    out[f"{what} [95% CI]"] = [ci(r, lo, hi) for r, lo, hi in zip(table["rate"], table["lo"], table["hi"])]
    if "expected" in table.columns:
        out["vs expected"] = [f"{d:+.1f} pts" for d in table["diff_pp"]]
    if "p_holm" in table.columns:
        from analysis.verdicts import fmt_p

        out["p (Holm)"] = [fmt_p(p) for p in table["p_holm"]]
    return out


def mean_display(table: pd.DataFrame, label: str, what: str, digits: int = 2) -> pd.DataFrame:
    """Format a ``stats.mean_table``: n, mean with 95% interval, median."""
    out = pd.DataFrame({label: [str(x) for x in table.index]})
    out["n"] = [f"{int(n):,}" for n in table["n"]]
    out[f"mean {what} [95% CI]"] = [ci(m, lo, hi, percent=False, digits=digits)
                                    for m, lo, hi in zip(table["mean"], table["lo"], table["hi"])]
    out["median"] = [f"{m:g}" for m in table["median"]]
    return out


def describe_display(rows: dict[str, pd.Series], digits: int = 2) -> pd.DataFrame:
    """Format several ``stats.describe`` results (one row each): mean [CI], sd and quantiles."""
    out = []
    for name, d in rows.items():
        out.append({"": name, "n": f"{int(d['n']):,}",
                    "mean [95% CI]": ci(d["mean"], d["mean_lo"], d["mean_hi"], percent=False, digits=digits),
                    "sd": f"{d['sd']:.{digits}f}",
                    **{k: f"{d[k]:g}" for k in ("min", "p5", "p25", "median", "p75", "p95", "max")}})
    return pd.DataFrame(out)
