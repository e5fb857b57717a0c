"""Hardened populations (`playtest harden`): iterated best response in the spirit of PSRO (Lanctot et al., 2017).

Round 0 plays the pool's empirical game (every seat draws a member uniformly, analysis/metagame.py) and solves
it for a mixture, or with ``--from-population`` takes an earlier population's mixture as it stands. Each round
then

1. measures, in one seat against the mixture, each member of its support and the newest member (at most
   MAX_STARTS, the heaviest first): a member that gains against the mixture is itself a best response we found,
   and a sign that the meta-game was solved on a poor estimate of its payoffs;
2. tunes a best response to the mixture with the CMA-ES search of sim/tune.py on common random numbers (its
   seat drawn per game, the other seats drawn from the mixture), starting from the member that did best, and
   measures its gain over the fair share on fresh seeds; with ``--searches K`` (at most 3) K searches on their
   own seeds, the k-th from the k-th best member (one search's result is largely its luck: searches from one
   start on two seeds found +4.9 and +13.6 pts against one Bus mixture). The largest of the gains on fresh
   seeds (the searched ones, or a member's: each start plays its search's measuring games, so the best member
   is not judged on the games that chose it, where the largest of six noisy gains is biased up) is the round's
   estimate of the mixture's exploitability, with its 95% interval; the search that found most is the round's
   best response;
3. stops if the upper ends of all intervals are below ``--min-effect`` (no best response we found gains
   that much) in this round and in ``--confirm`` more measurements of the same mixture on fresh seeds (each
   passing measurement is followed by another, as the next round, until one fails or enough have passed), if
   the budget cannot pay for another round and the final probe, or if another round would end past
   ``--minutes``;
4. otherwise adds the best response and makes the next mixture with the ``--meta-solver``: ``nash`` plays the
   new members' empirical game (its games join the earlier rounds': the members do not change) and solves it;
   ``fictitious`` (fictitious play) averages round 0's solved mixture and every best response so far, each with
   weight 1/(r + 1) after round r, and plays no empirical game. The averaging solvers average the best response
   found: the searched one, or the member that gained more than every search on fresh seeds (its weight takes the
   step; a search that loses against the mixture would otherwise join it as prey). The solved mixture of a
   growing empirical game jumps from round to round (a best response to it opens a new direction, and the table
   near the mixture is noisy); the average moves by 1/(r + 1) and every best response keeps its weight, so what
   was exploited stays covered. ``forgetful`` is fictitious play that first drops every member measured this
   round whose gain against the mixture is below 0 with its whole interval: no member of a symmetric equilibrium
   loses against it, and a beaten member left in the average is prey a best response learns to take. ``linear``
   gives round r's best response weight r + 1 (early members fade); ``hedge`` first multiplies each measured
   member's weight by 2 ** (gain / 10 pts), so a member that keeps gaining against the average gains weight until
   it stops.

The population written is the last one measured (``--keep last``; a best response found after it is kept in its
round's directory, not added), or with ``--keep best`` the one whose exploitability interval reached lowest,
measured again on fresh seeds when it is not the last (the lowest of many noisy estimates is biased low). A
second, different probe then measures it: a rollout player (flat Monte Carlo over the mixture's heaviest member;
the rollout kind takes one base strategy, not a mixture) in one seat against the mixture. The budget counts every
logged game (search, measurements, empirical games, probe games; not the playouts inside a rollout).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from analysis.harden import gain, solve_runs, write_history_files
from analysis.verdicts import Finding, parse_min_effect
from sim.core.errors import PlaytestError, writable_dir
from sim.core.spec import get_game
from sim.logs import read_record, write_json
from sim.population import Population, load_population, population_data
from sim.runner import one_writer, run_study
from sim.study import known_strategies
from sim.tune import MAX_SEED, TunePlan, plan_tune, tune

POPULATION_FILE = "population.json"
HISTORY_FILE = "history.json"
SEED_STRIDE = 10
"""Round r's studies use seeds seed + 10 r + (0: the best member on fresh seeds, when no search started from
it; 1, 2: the search and its fresh measurement; 3: the empirical game; 4: the members' measurement; 5: the
rollout probe; 6, 7 and 8, 9: the second and third searches and their measurements), so no two studies share
games."""
SEARCH_STEPS = (1, 6, 8)
"""The seed step of each of a round's searches (its fresh measurement plays step + 1): at most three."""
SEARCH_SUFFIXES = ("", "b", "c")
"""What each of a round's searches adds to its best response's name (brR, brRb, brRc) and directory."""
MAX_STARTS = 6
"""Members measured against the mixture each round (candidate starts of the search)."""
META_SOLVERS = {
    "nash": "least best-member value in the empirical game (analysis/metagame.py)",
    "fictitious": "fictitious play: the average of round 0's solved mixture and every best response so far",
    "forgetful": "fictitious play whose members leave the average once they lose against it (the upper end of "
                 "their gain's 95% interval below 0)",
    "linear": "fictitious play with linear averaging: round r's best response weighs r + 1, round 0's mixture 1",
    "hedge": "linear averaging after multiplicative weights: each member measured this round has its weight "
             "multiplied by 2 ** (gain / HEDGE_DOUBLING_PTS) first",
}
"""``--meta-solver`` choices: how each round's mixture is made from the last."""
HEDGE_DOUBLING_PTS = 10.0
"""``hedge``: a member gaining this many points over the fair share against the mixture doubles its weight
before the average (one losing as much halves it). Averaging alone moves a member by 2/(r + 2) at most, so a
member that keeps gaining round after round stays under-weighted; the update (Hedge, Freund and Schapire 1997,
on the round's measured gains) lets the weights follow the gains, as replicator dynamics would."""
KEEP = ("last", "best")
"""``--keep`` choices: the last round's mixture, or the least exploitable round's (re-measured on fresh seeds)."""


@dataclass(frozen=True)
class HardenPlan:
    """A validated hardening: game, players, starting pool, budget and the size of each step of a round."""

    game: str
    n_players: int
    pool: tuple[str, ...]
    budget: int
    min_effect: str
    seed: int
    search_games: int
    block: int
    popsize: int | None
    final_games: int
    meta_games: int
    probe_playouts: int
    probe_games: int
    member_games: int
    overrides: tuple[str, ...] = ()
    """The rules variant every game of the hardening plays (``--set``); the population holds under it."""
    meta_solver: str = "nash"
    keep: str = "last"
    confirm: int = 0
    """Fresh-seed measurements a mixture must pass again before the rule stops: one search's interval covers the
    fresh games' noise, not the search's own luck (a search from another seed can find a larger gain)."""
    searches: int = 1
    """Best-response searches per round (each on its own seed, from the next best member): the round's estimate
    is the largest gain, so one unlucky search no longer decides it."""
    fixed_scale: bool = False
    """Searches keep their start's weight norm, so softmax members stay mixed (sim/tune.py). Their gains are
    then no best response's: measure the population with `playtest exploit`, whose searches are free."""
    start_file: str | None = None
    """``--from-population``: an earlier population whose members are the pool and whose weights are round 0's
    mixture (no empirical game); the averaging meta-solvers count it as the rounds its members' names give."""
    start_weights: tuple[float, ...] | None = None
    """That population's weights, read once when the plan is checked."""
    minutes: float | None = None
    """``--minutes``: wall-clock time the hardening may take besides the budget; it stops before a round (and, with
    ``--keep best``, the re-measure after it) would end past it, judged by its longest round so far."""

    @property
    def fair(self) -> float:
        return 1.0 / self.n_players

    @property
    def threshold(self) -> float:
        """--min-effect in points of win rate."""
        return parse_min_effect(self.min_effect).points(self.fair)

    def measure_cost(self) -> int:
        """Games one round's measurement costs at most: the members, the searches and their fresh A/Bs (two arms),
        and the best member on fresh seeds when no search started from it."""
        return (MAX_STARTS * self.member_games + self.searches * (self.search_games + 2 * self.final_games)
                + self.final_games)

    def round_cost(self) -> int:
        """Games one more round costs at most: its measurement and, with the nash meta-solver, its empirical game."""
        return self.measure_cost() + (self.meta_games if self.meta_solver == "nash" else 0)

    def reserve(self) -> int:
        """Games kept back at the end: the rollout probe and, with ``--keep best``, a fresh re-measure."""
        return self.probe_games + (self.measure_cost() if self.keep == "best" else 0)

    def first_cost(self) -> int:
        """Games the smallest run costs: the pool's empirical game (none from a population), one measurement and
        the probe."""
        return (0 if self.start_weights else self.meta_games) + self.measure_cost() + self.probe_games

    @property
    def name_offset(self) -> int:
        """Round r's best response is named br(r + offset): a pool with members br1..brK (an earlier population)
        names its first best response br(K + 1)."""
        return next_round(self.pool) - 1

    @property
    def average_offset(self) -> int:
        """Rounds the averaging meta-solvers count before round 1: from ``--from-population`` its best responses'
        (a linear run's brK takes 2/(K + 2) as it did in the run that made it), otherwise none."""
        return self.name_offset if self.start_weights else 0

    def seed_of(self, round_: int, step: int) -> int:
        return self.seed + SEED_STRIDE * round_ + step

    def config(self) -> dict[str, Any]:
        return {"kind": "harden", "game": self.game, "n_players": self.n_players, "pool": list(self.pool),
                "budget": self.budget, "min_effect": self.min_effect, "threshold_pts": self.threshold,
                "seed": self.seed, "search_games": self.search_games, "block": self.block, "popsize": self.popsize,
                "final_games": self.final_games, "meta_games": self.meta_games,
                "probe_playouts": self.probe_playouts, "probe_games": self.probe_games,
                "member_games": self.member_games, "overrides": list(self.overrides),
                "meta_solver": self.meta_solver, "keep": self.keep, "confirm": self.confirm,
                "searches": self.searches, **({"fixed_scale": True} if self.fixed_scale else {}),
                **({"minutes": self.minutes} if self.minutes else {}),
                **({"from_population": self.start_file} if self.start_file else {})}


def next_round(members: Sequence[str]) -> int:
    """1 + the largest K of the members named brK or brK plus a letter (another search of round K; 1 if none):
    the first round whose names are free."""
    rounds = (re.fullmatch(r"br(\d+)[a-z]?", m) for m in members)
    return 1 + max((int(r.group(1)) for r in rounds if r), default=0)


def plan_harden(game: str, players: int, pool: Sequence[str], budget: int, *, min_effect: str = "3", seed: int = 0,
                search_games: int = 114_000, block: int = 500, popsize: int | None = None,
                final_games: int = 10_000, meta_games: int = 10_000, probe_playouts: int = 4,
                probe_games: int = 200, member_games: int = 5_000, overrides: Sequence[str] = (),
                meta_solver: str = "nash", keep: str = "last", confirm: int = 0, searches: int = 1,
                fixed_scale: bool = False, from_population: str | None = None,
                minutes: float | None = None) -> HardenPlan:
    """Check every choice before anything runs (one line naming the problem and the fix otherwise)."""
    start_weights = None
    if from_population:  # --pool then names newcomers, joining at weight 0 (e.g. a probe's best response)
        start = load_population(game, from_population, players)
        again = sorted(set(pool) & set(start.members))
        if again:
            raise PlaytestError(f"--pool {again[0]} is already a member of {from_population}; with --from-population, "
                                "--pool lists only strategies joining it (at weight 0)")
        pool, start_weights = (*start.members, *pool), (*start.weights, *(0.0,) * len(pool))
    elif not pool:
        raise PlaytestError("--pool is required (the starting strategies, e.g. --pool balanced,commuter), or "
                            "--from-population FILE to continue an earlier population")
    names = known_strategies(game, players, pool, "--pool", "balanced,commuter")
    registry = get_game(game).strategies
    if len(set(names)) < len(names):
        raise PlaytestError(f"--pool lists a strategy twice ({', '.join(pool)}); list each once")
    for name in names:
        if registry.get(name).kind == "rollout":
            raise PlaytestError(f"--pool {name} is a rollout; a population holds random or weights strategies "
                                "(the rollout player is the second probe)")
    if not 0 <= seed <= MAX_SEED // 2:
        raise PlaytestError(f"--seed must be from 0 to {MAX_SEED // 2:,} (each round's search seeds CMA-ES, which "
                            f"takes seeds below 2**32), not {seed}")
    for flag, value in (("--search-games", search_games), ("--final-games", final_games),
                        ("--meta-games", meta_games), ("--probe-games", probe_games),
                        ("--probe-playouts", probe_playouts), ("--block", block), ("--member-games", member_games)):
        if value < 1:
            raise PlaytestError(f"{flag} must be at least 1, not {value}")
    if meta_solver not in META_SOLVERS:
        raise PlaytestError(f"--meta-solver {meta_solver!r} is unknown; choose {', '.join(META_SOLVERS)}")
    if keep not in KEEP:
        raise PlaytestError(f"--keep {keep!r} is unknown; choose {' or '.join(KEEP)}")
    if minutes is not None and not 0 < minutes < float("inf"):
        raise PlaytestError(f"--minutes must be a positive number of minutes, not {minutes}")
    if confirm < 0:
        raise PlaytestError(f"--confirm must be 0 or more, not {confirm}")
    if not 1 <= searches <= len(SEARCH_STEPS):
        raise PlaytestError(f"--searches must be from 1 to {len(SEARCH_STEPS)} (best-response searches per round, "
                            f"each on its own seed), not {searches}")
    parse_min_effect(min_effect)
    plan = HardenPlan(game, players, tuple(names), budget, min_effect, seed, search_games, block, popsize,
                      final_games, meta_games, probe_playouts, probe_games, member_games, tuple(overrides),
                      meta_solver, keep, confirm, searches, fixed_scale, str(from_population) if from_population else None,
                      start_weights, minutes)
    if budget < plan.first_cost():
        raise PlaytestError(
            f"--budget {budget:,} games is too small for one round: the pool's empirical game "
            f"({0 if start_weights else meta_games:,}), one "
            f"measurement (up to {MAX_STARTS} x {member_games:,} member games, {search_games:,} search + 2 x "
            f"{final_games:,} measuring games{f', {searches} times' if searches > 1 else ''}, {final_games:,} more "
            "for the best member) and the rollout probe "
            f"({probe_games:,}) need {plan.first_cost():,}; raise --budget or lower --search-games, --final-games, "
            "--meta-games, --member-games, --probe-games or --searches")
    _best_response(plan, Population(plan.pool, start_weights or (1.0 / len(names),) * len(names)), 1,
                   names[0])  # the search's checks
    return plan


def _best_response(plan: HardenPlan, population: Population, round_: int, start: str, k: int = 0) -> TunePlan:
    """The k-th CMA-ES search of round ``round_`` against ``population`` from ``start`` (a TunePlan; registers its
    names: brR, then brRb, brRc); a start that is not a weights strategy starts from zero weights."""
    if get_game(plan.game).strategies.get(start).kind != "weights":
        start = "random"
    try:
        return plan_tune(plan.game, plan.n_players, population.members, plan.search_games, start=start,
                         name=f"br{round_ + plan.name_offset}{SEARCH_SUFFIXES[k]}", block=plan.block,
                         popsize=plan.popsize, seed=plan.seed_of(round_, SEARCH_STEPS[k]),
                         final_games=plan.final_games, mixture=population.weights, overrides=plan.overrides,
                         fixed_scale=plan.fixed_scale)
    except PlaytestError as exc:
        raise PlaytestError(f"best-response search: {exc}".replace("--budget", "--search-games")) from None


def finding_record(f: Finding) -> dict[str, float]:
    """A gain as the JSON records keep it: points over the fair share, its 95% interval and standard error."""
    return {"points": round(f.estimate, 3), "lo": round(f.lo, 3), "hi": round(f.hi, 3), "se": round(f.se, 3)}


class HardenRun:
    """One hardening in progress: its directory, the games spent, the empirical games so far, the history."""

    def __init__(self, plan: HardenPlan, root: Path, jobs: int, progress: bool):
        self.plan, self.root, self.jobs, self.progress = plan, root, jobs, progress
        self.spent = 0
        self.meta_dirs: list[Path] = []
        self.history: list[dict[str, Any]] = []
        self.last_gains: dict[str, Finding] = {}
        self.measured_in: dict[str, int] = {}
        """The round each member was last measured in: ``forgetful`` measures, among equal weights, the member
        measured longest ago first, so every member of a long average is checked in turn."""

    def empirical_game(self, members: Sequence[str], round_: int) -> tuple[Population, dict[str, Any]]:
        """Play the members' empirical game for this round and solve every round's games for the mixture."""
        p = self.plan
        uniform = Population(tuple(members), (1.0 / len(members),) * len(members))
        out = self.root / f"round-{round_:02d}" / "meta"
        run_study(p.game, p.n_players, p.meta_games, uniform.lineup(), seed=p.seed_of(round_, 3), jobs=self.jobs,
                  out=out, progress=self.progress, mixture=uniform.mixture(), overrides=p.overrides)
        self.meta_dirs.append(out)
        self.spent += p.meta_games
        weights, info = solve_runs(self.meta_dirs, members)
        return Population(tuple(members), tuple(weights)), info

    def fictitious(self, population: Population, newest: str, round_: int,
                   gains: dict[str, Finding]) -> tuple[Population, dict[str, Any]]:
        """Fictitious play: after round ``round_`` the mixture is (round_ x_round_ + newest) / (round_ + 1), the
        average of round 0's solved mixture and the ``round_`` best responses; ``forgetful`` first drops from
        x_round_ the members that lost against it this round (``gains``), unless none would be left; ``linear``
        gives the newest 2 / (round_ + 2) instead, and ``hedge`` does so after scaling each measured member's
        weight by 2 ** (gain / HEDGE_DOUBLING_PTS)."""
        info: dict[str, Any] = {"games": 0, "solver": META_SOLVERS[self.plan.meta_solver]}
        weights = list(population.weights)
        if self.plan.meta_solver == "hedge":
            factors = {m: 2.0 ** (gains[m].estimate / HEDGE_DOUBLING_PTS) for m in population.members if m in gains}
            weights = [w * factors.get(m, 1.0) for m, w in zip(population.members, weights)]
            info["factors"] = {m: round(f, 4) for m, f in factors.items()}
        if self.plan.meta_solver == "forgetful":
            beaten = [i for i, m in enumerate(population.members) if m in gains and gains[m].hi < 0]
            if len(beaten) < sum(w > 0 for w in weights):
                for i in beaten:
                    weights[i] = 0.0
                info["dropped"] = [population.members[i] for i in beaten if population.weights[i] > 0]
        r = round_ + self.plan.average_offset
        step = 2.0 / (r + 2) if self.plan.meta_solver in ("linear", "hedge") else 1.0 / (r + 1)
        keep = (1.0 - step) / sum(weights)
        weights = [w * keep for w in weights]
        members = population.members
        if newest in members:  # a member gained more than every search: it is the best response we found
            weights[members.index(newest)] += step
        else:
            members, weights = (*members, newest), [*weights, step]
        total = sum(weights)
        return Population(members, tuple(w / total for w in weights)), info

    def member_gains(self, population: Population, round_: int) -> dict[str, Finding]:
        """Each support member and the newest member (the heaviest MAX_STARTS) in one seat against the mixture."""
        p = self.plan
        forgetful = p.meta_solver == "forgetful"

        def key(i: int) -> tuple[float, int]:
            """Heaviest first; the forgetful solver's equal weights go longest-unmeasured first."""
            if not forgetful:
                return -population.weights[i], 0
            return -round(population.weights[i], 9), self.measured_in.get(population.members[i], -1)
        order = sorted(range(len(population.members)), key=key)
        chosen = [population.members[-1], *(population.members[i] for i in order if population.weights[i] > 0)]
        gains = {}
        for member in list(dict.fromkeys(chosen))[:MAX_STARTS]:
            self.measured_in[member] = round_
            gains[member] = self.in_one_seat(population, member, round_, p.member_games, 4)
        return gains

    def in_one_seat(self, population: Population, member: str, round_: int, games: int, step: int,
                    fresh: bool = False) -> Finding:
        """``member`` in one seat against ``population`` for ``games`` games on round ``round_``'s seed step
        ``step`` (the run in round-RR/members/MEMBER, or members-fresh/ when ``fresh``): its gain over the fair
        share."""
        p = self.plan
        registry = get_game(p.game).strategies
        tag = "-fresh" if fresh else ""
        copy = registry.register(replace(registry.get(member), name=f"{member}@r{round_}{tag}",
                                         description=f"{member}, measured against the round {round_} mixture"))
        out = self.root / f"round-{round_:02d}" / f"members{tag}" / member
        run_study(p.game, p.n_players, games, population.lineup(copy.name), seed=p.seed_of(round_, step),
                  jobs=self.jobs, out=out, progress=self.progress, mixture=population.mixture(copy.name),
                  overrides=p.overrides)
        self.spent += games
        return gain(out, copy.name, p.threshold)

    def search(self, population: Population, round_: int, start: str,
               k: int) -> tuple[TunePlan, Finding, Finding | None]:
        """Round ``round_``'s k-th best-response search from ``start``, measured on fresh seeds: (its plan, its
        gain, ``start``'s gain on the same games; None when the search started from zero weights instead)."""
        plan = _best_response(self.plan, population, round_, start, k)
        where = self.root / f"round-{round_:02d}" / "-".join(filter(None, ("best-response", SEARCH_SUFFIXES[k])))
        root = tune(plan, where, jobs=self.jobs, progress=self.progress)
        self.spent += plan.generations * plan.popsize * plan.block + 2 * plan.final_games
        record = json.loads((root / "tune.json").read_text())
        started = gain(root / record["arms"][0], plan.start_copy, self.plan.threshold)
        own = get_game(self.plan.game).strategies.get(start).kind == "weights"  # else zero weights started
        return plan, gain(root / record["arms"][1], plan.name, self.plan.threshold), started if own else None

    def measure(self, population: Population, round_: int) -> tuple[str, list[Finding], Finding, dict[str, Any]]:
        """Measure the members against ``population``, tune round ``round_``'s best responses from the best of
        them and measure them on fresh seeds; (the name of the search that gained most, every search's gain,
        largest first, the best member's gain on fresh seeds, the record). A search's start plays its A/B's
        first arm, so the members it starts from are measured on fresh seeds there; the best member is measured
        on its own fresh seeds only when no search started from it (a start that is not a weights strategy)."""
        members = self.last_gains = self.member_gains(population, round_)
        ranked = sorted(members, key=lambda m: -members[m].estimate)
        searches = sorted((self.search(population, round_, ranked[k % len(ranked)], k)
                           for k in range(self.plan.searches)), key=lambda s: -s[1].estimate)
        fresh = {q.start: s for q, _, s in searches if s is not None}
        if ranked[0] not in fresh:  # on its own fresh seeds: its gain on the games that chose it is biased up
            fresh[ranked[0]] = self.in_one_seat(population, ranked[0], round_, self.plan.final_games, 0,
                                                fresh=True)
        best = max(fresh, key=lambda m: fresh[m].estimate)
        plan, _, start = searches[0]
        what = {"best_response": plan.name, "start": plan.start, "search_games": plan.generations * plan.popsize *
                plan.block, "measured_on_games": plan.final_games,
                **({"start_gain": finding_record(start)} if start is not None else {}),
                "best_member": best, "best_member_gain": finding_record(fresh[best]),
                "members_fresh": {m: finding_record(f) for m, f in fresh.items()},
                "member_gains": {m: finding_record(f) for m, f in members.items()},
                "searches": [{"best_response": q.name, "start": q.start, "seed": q.seed, **finding_record(f)}
                             for q, f, _ in searches]}
        return plan.name, [f for _, f, _ in searches], fresh[best], what

    def measured_round(self, population: Population, round_: int) -> tuple[
            tuple[Population, Finding, dict[str, Any]], list[Finding], Finding, dict[str, Any]]:
        """Measure ``population`` as round ``round_``: (population, exploitability estimate, record), every
        searched best response's gain (largest first), the best member's gain on fresh seeds, and the round's
        history entry."""
        name, searches, member, what = self.measure(population, round_)
        searched = searches[0]
        found = searched if searched.estimate >= member.estimate else member
        what["exploitability_from"] = name if found is searched else f"member {what['best_member']}"
        what["best_found"] = name if found is searched else what["best_member"]
        entry = {"round": round_, "members": list(population.members), "weights": list(population.weights),
                 "exploitability": finding_record(found), "best_response_gain": finding_record(searched), **what}
        return (population, found, what), searches, member, entry

    def probe(self, population: Population) -> tuple[str, Finding]:
        """The rollout player over the mixture's heaviest member, in one seat against the mixture."""
        p = self.plan
        name = f"{population.top()}+mc{p.probe_playouts}"
        out = self.root / "rollout-probe"
        run_study(p.game, p.n_players, p.probe_games, population.lineup(name), seed=p.seed_of(0, 5), jobs=self.jobs,
                  out=out, progress=self.progress, mixture=population.mixture(name), overrides=p.overrides)
        self.spent += p.probe_games
        return name, gain(out, name, p.threshold)


def harden(plan: HardenPlan, out: str | Path | None = None, jobs: int = 1, progress: bool = True) -> Path:
    """Grow the population round by round (see the module docstring); write population.json and history.json
    (and history.md) in the output directory, which is returned."""
    root = Path(out) if out else Path("runs") / f"harden-{plan.game}-{plan.n_players}p-seed{plan.seed}"
    writable_dir(root)
    with one_writer(root):
        run = HardenRun(plan, root, jobs, progress)
        t0 = time.perf_counter()
        if plan.start_weights:
            population, info = Population(plan.pool, plan.start_weights), {"games": 0, "from": plan.start_file}
        else:
            population, info = run.empirical_game(plan.pool, 0)
        run.history.append({"round": 0, "members": list(population.members), "weights": list(population.weights),
                            "meta_game": info, "games": run.spent, "seconds": round(time.perf_counter() - t0, 1)})
        measured, best, stop, round_, passes = None, None, "budget", 1, 0
        started, longest = time.perf_counter(), 0.0
        while True:
            t0, before = time.perf_counter(), run.spent
            measured, searches, member, entry = run.measured_round(population, round_)
            if best is None or measured[1].hi < best[1].hi:
                best, best_round = measured, round_
            passed = all(f.hi < plan.threshold for f in (*searches, member))
            passes = passes + 1 if passed else 0
            done = True
            longest = max(longest, time.perf_counter() - t0)
            if passes > plan.confirm:
                stop = "converged"
            elif run.spent + plan.round_cost() + plan.reserve() > plan.budget:
                stop = "budget"
            elif plan.minutes and time.perf_counter() - started + longest * (2 if plan.keep == "best" else 1) \
                    > 60 * plan.minutes:
                stop = "time"
            elif passed:  # the rule held on one search: measure the same mixture again, on the next round's seeds
                done = False
                entry.update(confirm_next=True)
            else:
                done = False
                added = entry["best_response"] if plan.meta_solver == "nash" else entry["best_found"]
                population, info = (run.fictitious(population, added, round_, run.last_gains)
                                    if plan.meta_solver != "nash"
                                    else run.empirical_game([*population.members, added], round_))
                entry.update(added=added, next_members=list(population.members),
                             next_weights=list(population.weights), meta_game=info)
            entry.update(games=run.spent - before, seconds=round(time.perf_counter() - t0, 1))
            run.history.append(entry)
            kept = best if plan.keep == "best" else measured
            _write(plan, root, run, kept, stop if done else "running")  # a checkpoint per round
            if done:
                break
            round_ += 1
        if plan.keep == "best" and stop != "converged" and best is not measured:
            t0, before = time.perf_counter(), run.spent
            measured, _, _, entry = run.measured_round(best[0], round_ + 1)
            entry.update(remeasure_of=best_round, games=run.spent - before,
                         seconds=round(time.perf_counter() - t0, 1))
            run.history.append(entry)
        t0 = time.perf_counter()
        probe = run.probe(measured[0])
        _write(plan, root, run, measured, stop, (*probe, time.perf_counter() - t0))
    return root


def _write(plan: HardenPlan, root: Path, run: HardenRun, measured: tuple[Population, Finding, dict[str, Any]],
           stop: str, probe: tuple[str, Finding, float] | None = None) -> None:
    """population.json (the population ``--keep`` chose: a file `run --population` accepts), history.json and
    history.md; before the rollout probe has played (a checkpoint), without it."""
    population, found, what = measured
    bound = max(found.hi, probe[1].hi) if probe else found.hi
    n = len(what["searches"])
    of_searches = f" (the largest gain of {n} searches)" if n > 1 else ""
    searched = "fixed-scale CMA-ES search" if plan.fixed_scale else "CMA-ES best response"
    exploitability = {**finding_record(found), "best_response": what["best_response"],
                      "probe": (f"{searched} {what['best_response']}{of_searches}"
                                if what["exploitability_from"] == what["best_response"] else
                                f"{what['exploitability_from']} on fresh seeds (it gained more than the "
                                f"{'best of the searches' if n > 1 else 'search'}, {what['best_response']})"),
                      "measured_on_games": plan.final_games,
                      "statement": f"no best response we found ({'fixed-scale' if plan.fixed_scale else 'tuned'} "
                                   f"searches, the members{', the rollout probe' if probe else ''}) gains "
                                   f"more than {bound:.1f} pts over the fair share "
                                   "against this mixture (upper end of the 95% interval of "
                                   f"{'both probes' if probe else 'the tuned best response; rollout probe not yet run'})",
                      "bound_pts": round(bound, 3)}
    record: dict[str, Any] = {"exploitability": exploitability}
    if probe:
        name, f, seconds = probe
        record["rollout_probe"] = {
            **finding_record(f), "player": name, "games": plan.probe_games,
            "note": f"flat Monte Carlo ({plan.probe_playouts} playouts per candidate) over the mixture's heaviest "
                    f"member {name.rsplit('+mc', 1)[0]}: the rollout kind takes one base strategy, not a mixture; in "
                    "its playouts the other seats play the members actually drawn"}
    data = population_data(plan.game, plan.n_players, population.members, population.weights, **record)
    write_json(root / POPULATION_FILE, data)
    summary = {**plan.config(), "stopped": stop, "games_spent": run.spent, "rounds": run.history,
               "population_file": POPULATION_FILE, **record,
               **({"rollout_probe_seconds": round(probe[2], 1)} if probe else {})}
    write_json(root / HISTORY_FILE, summary)
    write_history_files(root, summary)


def read_history(root: str | Path) -> dict[str, Any]:
    """The history of a hardening (one line naming the problem otherwise)."""
    return read_record(root, HISTORY_FILE, "harden")
