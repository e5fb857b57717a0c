"""Does a finding hold for strong players? The card's rows comparing a run of the heuristic pool with a run of
the same game, player count and rules under a hardened population (`playtest report RUN --strong POP_RUN`):
each seat's effect and each end reason's share under both, the difference (population minus pool) with its
interval and label, and whether the finding holds or depends on the players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import pandas as pd

from analysis import models, stats
from analysis.load import Run
from analysis.sections import Section, Table, ci
from analysis.players import exploitability_clause, largest_measure, tuned_measures
from analysis.verdicts import Finding, parse_min_effect
from sim.core.errors import PlaytestError

SHOWN = 0.005
"""End reasons below this share in both runs are left out of the card (the report's tables keep them)."""
SEATINGS = ("random", "balanced", "mixture")
"""Seatings under which a seat's raw win rate is a seat effect (every strategy sits everywhere alike; so does a
mirror match in any seating)."""
HOLDS, DEPENDS, ABOUT, OPEN = ("holds", "depends on the players", "moves by about the threshold",
                               "more games needed")


@dataclass(frozen=True)
class StrongPair:
    """A run of the heuristic pool and a run of the same study under a population."""

    pool: Run
    strong: Run


@dataclass(frozen=True)
class Row:
    """One finding under both sets of players: the two estimates, their difference and the verdict."""

    what: str
    pool: str
    strong: str
    change: Finding
    verdict: str


def pair_strong(runs: Sequence[Run], strong: Sequence[Run]) -> list[StrongPair]:
    """Match each population run to the report's pool run of the same game, player count and rules; one line
    naming the problem otherwise."""
    pairs = []
    for s in strong:
        where = f"--strong {s.run_dir}"
        if not s.manifest.get("population"):
            raise PlaytestError(f"{where} was not made with --population; pass a run of `playtest run {s.game} "
                                f"--players {s.n_players} --population FILE`")
        same = [r for r in runs if r.game == s.game and r.n_players == s.n_players]
        if not same:
            have = ", ".join(sorted({f"{r.game} {r.n_players}p" for r in runs}))
            raise PlaytestError(f"{where} is {s.game} with {s.n_players} players but the report's runs are {have}; "
                                "pass a population run of the same game and player count as one of them")
        ruled = [r for r in same if r.rules == s.rules]
        if not ruled:
            raise PlaytestError(f"{where} plays other rules than {same[0].run_dir} ({_rules_diff(same[0], s)}); "
                                "run the population with the pool run's --set options")
        pool = ruled[0]
        if pool.manifest.get("population"):
            raise PlaytestError(f"{where}: its match {pool.run_dir} is itself a population run; --strong compares a "
                                "population with the heuristic pool, so report a pool run beside it")
        pairs.append(StrongPair(pool, s))
    return pairs


def _rules_diff(a: Run, b: Run) -> str:
    ra, rb = a.rules, b.rules
    keys = sorted(k for k in set(ra) | set(rb) if ra.get(k) != rb.get(k))
    return ", ".join(f"{k}={ra.get(k)} vs {rb.get(k)}" for k in keys[:3])


def exploitability_text(population: Mapping[str, Any]) -> str:
    """'hardened population (exploitability +X pts [lo, hi] by a tuned best response; rollout probe ...)'."""
    if not population.get("exploitability"):
        return "population (exploitability not measured)"
    return f"hardened population ({exploitability_clause(population)})"


def pairing(pair: StrongPair) -> str:
    """How the two samples relate: the same seed gives game i the same random setup in both runs."""
    a, b = (r.manifest.get("seed") for r in (pair.pool, pair.strong))
    if a is not None and a == b:
        return (f"both runs use seed {a}, so game i draws the same setup in each: paired by game, errors clustered "
                "by game")
    return f"independent samples (seeds {a} and {b})"


def _seat_values(run: Run, seat: int) -> pd.DataFrame:
    """Seat ``seat``'s win share minus the run's fair share, one row per game."""
    p = run.players
    rows = p.loc[p["seat"] == seat, ["game_index", "win_share"]]
    return pd.DataFrame({"game_index": rows["game_index"].to_numpy(),
                         "value": rows["win_share"].to_numpy(float) - stats.expected_share(p)})


def _end_values(run: Run, reason: str) -> pd.DataFrame:
    g = run.games
    return pd.DataFrame({"game_index": g["game_index"].to_numpy(),
                         "value": (g["end_reason"].astype(str) == reason).to_numpy(float)})


def _verdict(change: Finding, flipped: bool = False) -> str:
    """Holds when the difference is shown inside the threshold; depends on the players when it is large or the
    finding changes sign (both intervals exclude 0, on opposite sides)."""
    if change.label == "large" or flipped:
        return DEPENDS
    return {"small": HOLDS, "negligible": HOLDS, "about the threshold": ABOUT}.get(change.label, OPEN)


def seat_rows(pair: StrongPair, threshold: float) -> list[Row]:
    """Each seat's raw effect (win rate minus the fair share, Wilson interval) under both sets of players and
    the difference."""
    tables = [stats.win_rates(r.players, "seat") for r in (pair.pool, pair.strong)]
    rows = []
    for seat in range(pair.pool.n_players):
        name = stats.seat_label(seat)
        (fa, ca), (fb, cb) = (_seat_cell(t, seat) for t in tables)
        change = models.run_change(*(_seat_values(r, seat) for r in (pair.pool, pair.strong)), "value", name, threshold)
        flipped = (fa[0] > 0 and fb[1] < 0) or (fa[1] < 0 and fb[0] > 0)
        rows.append(Row(name, ca, cb, change, _verdict(change, flipped)))
    return rows


def _seat_cell(table: pd.DataFrame, seat: int) -> tuple[tuple[float, float], str]:
    """A seat's effect interval (lo, hi in points) and its cell '+15.4 [+14.7, +16.1]'."""
    r = table.loc[seat]
    lo, hi = 100 * (r["lo"] - r["expected"]), 100 * (r["hi"] - r["expected"])
    return (lo, hi), f"{r['diff_pp']:+.1f} [{lo:+.1f}, {hi:+.1f}]"


def end_rows(pair: StrongPair, threshold: float) -> list[Row]:
    """Each end reason's share of games (those above ``SHOWN`` in either run) under both and the difference."""
    shares = [r.games["end_reason"].astype(str).value_counts(normalize=True) for r in (pair.pool, pair.strong)]
    reasons = [k for k in pd.concat(shares, axis=1).fillna(0).max(axis=1).sort_values(ascending=False).index
               if max(s.get(k, 0.0) for s in shares) >= SHOWN]
    rows = []
    for reason in reasons:
        a, b = (_end_values(r, reason) for r in (pair.pool, pair.strong))
        cells = []
        for frame in (a, b):
            k, n = float(frame["value"].sum()), len(frame)
            lo, hi = stats.wilson(k, n)
            cells.append(ci(k / n, float(lo), float(hi)))
        change = models.run_change(a, b, "value", f"games ending by {reason}", threshold)
        rows.append(Row(f"ends by {reason}", *cells, change, _verdict(change)))
    return rows


def _listing(rows: Sequence[Row], n_seats: int) -> str:
    """'every seat, ends by a, b' or 'seats 1, 3': the findings of one verdict, short enough for the card."""
    seats = [r.what.split()[1] for r in rows if r.what.startswith("Seat ")]
    ends = [r.what.removeprefix("ends by ") for r in rows if r.what.startswith("ends by ")]
    bits = []
    if seats:
        plural = "s" if len(seats) > 1 else ""
        bits.append("every seat" if len(seats) == n_seats else f"seat{plural} {', '.join(seats)}")
    if ends:
        bits.append(f"ends by {', '.join(ends)}")
    return ", ".join(bits)


def _card_population(population: Mapping[str, Any]) -> str:
    """'hardened population: exploitability +X pts [lo, hi], rollout probe +Y': the card's short form (the
    probes' names and the rollout probe's interval are in the details table's caption)."""
    e, n = largest_measure(population), len(tuned_measures(population))
    if not e:
        return "population, exploitability not measured"
    searches = f", the largest of {n} tuned measurements" if n > 1 else ""
    probe = population.get("rollout_probe")
    return (f"hardened population: exploitability {e['points']:+.1f} pts [{e['lo']:+.1f}, {e['hi']:+.1f}]{searches}"
            + (f"; rollout probe {probe['points']:+.1f}" if probe else ""))


def summary(pair: StrongPair, rows: Sequence[Row]) -> str:
    """The card's sentence: which findings hold under the population and which depend on the players (the
    numbers are in the table of the card's details)."""
    parts = []
    for verdict in (HOLDS, DEPENDS, ABOUT, OPEN):
        chosen = [r for r in rows if r.verdict == verdict]
        if chosen:
            parts.append(f"{verdict}: {_listing(chosen, pair.pool.n_players)}")
    population = _card_population(pair.strong.manifest["population"])
    return f"**Strong play, {pair.pool.n_players} players** ({population}): " + "; ".join(parts) + "."


def strong_blocks(pair: StrongPair, min_effect: str) -> tuple[str, Table]:
    """The sentence (for the balance card) and the table (for its details) of one pair."""
    threshold = parse_min_effect(min_effect).points(stats.expected_share(pair.pool.players))
    seated = pair.pool.manifest.get("seating") in SEATINGS or len(set(pair.pool.lineup)) == 1
    rows = (seat_rows(pair, threshold) if seated else []) + end_rows(pair, threshold)
    frame = pd.DataFrame([{"finding": r.what, f"heuristic pool ({pair.pool.run_dir.name})": r.pool,
                           f"population ({pair.strong.run_dir.name})": r.strong,
                           "population − pool [95% CI]": r.change.interval(), "label": r.change.label,
                           "verdict": r.verdict} for r in rows])
    note = "" if seated else " Seats are left out: the pool run's seating ties strategies to seats."
    population = exploitability_text(pair.strong.manifest["population"])
    return (summary(pair, rows),
            Table(frame, f"Strong play, {pair.pool.n_players} players. Heuristic pool ({pair.pool.n_games:,} games, "
                         f"seating {pair.pool.manifest.get('seating')}) and {population} ({pair.strong.n_games:,} "
                         "games, each seat drawn from its mixture): a seat's win rate minus the fair share in points "
                         f"(raw), an end reason's share of games; 95% intervals. The difference: {pairing(pair)}. "
                         f"Holds = the difference is shown inside ± {threshold:.3g} pts; depends on the players = it "
                         "is large, or the seat effect changes sign." + note))


def insert_strong(sections: list[Section], pairs: Sequence[StrongPair], min_effect: str) -> list[Section]:
    """The balance card (the first section) with each pair's sentence, and 'Card details' with each pair's table:
    the card stays one screen."""
    if not pairs:
        return sections
    blocks = [strong_blocks(pair, min_effect) for pair in pairs]
    where = "The strong-play numbers and each population's probes are under 'Card details'."
    out = []
    for section in sections:
        if section is sections[0]:
            section = Section(section.title, section.blocks + [sentence for sentence, _ in blocks] + [where])
        elif section.title == "Card details":
            section = Section(section.title, section.blocks + [table for _, table in blocks])
        out.append(section)
    return out
