"""The `playtest` command: games | strategies | rules | run | ab | sweep | balance | tune | harden | exploit | ladder |
report | replay | bench.

Bad input ends in one line on stderr naming the problem and the fix, with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import traceback
import threading
from pathlib import Path
from typing import Sequence

from sim.core.errors import PlaytestError, write_fault
from sim.core.fields import declared
from sim.core.spec import broken_games, game_names, get_game
from sim.study import SEATINGS, Mixture


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line, like every other playtest error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise PlaytestError(f"{message}; see `{self.prog} --help`")


def _strategy_list(text: str) -> list[str]:
    names = [s.strip() for s in text.split(",") if s.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"'{text}' names no strategy; give comma-separated names")
    return names


INT64_MAX = 2**63 - 1
"""No count or index of playtest goes beyond a signed 64-bit integer (the kernels' and the logs' type)."""


def _at_least(low: int):
    """An argparse type: an integer >= ``low`` and within 64 bits (the error names the bound)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if value > INT64_MAX:
            raise argparse.ArgumentTypeError(f"{text} does not fit in 64 bits; give at most 2**63-1")
        return value
    parse.__name__ = f"integer >= {low}"
    return parse


def _jobs(text: str) -> int:
    """Worker processes: a positive count, or -1 for every core."""
    value = _at_least(-1)(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be a positive number of workers or -1 for all cores, not 0")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return value


def _min_effect(text: str) -> str:
    """--min-effect: points of win rate ('2', '2pts') or a share of the fair rate ('10%'); checked here."""
    from analysis.verdicts import parse_min_effect

    try:
        parse_min_effect(text)
    except PlaytestError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _add_study_args(p: argparse.ArgumentParser, game_help: str = "game name (see `playtest games`)",
                    players_required: bool = True) -> None:
    p.add_argument("game", help=game_help)
    p.add_argument("--players", type=int, required=players_required, help="number of players")
    p.add_argument("--strategies", type=_strategy_list,
                   help="comma-separated strategy per seat, one for all seats, or a longer pool to seat from")
    p.add_argument("--strategy-file", help="JSON file of extra strategies to register before the run")
    p.add_argument("--population", metavar="FILE",
                   help="a population file (e.g. from `playtest harden`): every seat draws its strategy from its "
                        "mixture in every game (instead of --strategies and --seating)")
    p.add_argument("--seating", choices=SEATINGS,
                   help="who sits where: random per game (default when seats hold different strategies), "
                        "all orderings equally often, or fixed as listed")
    p.add_argument("--rotate", action="store_true", help="old name of --seating random")
    p.add_argument("--seed", type=int, default=0, help="run seed (game i derives its randomness from seed and i)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="FIELD=VALUE",
                   help="rules variant, e.g. --set win_gold=30 (repeatable)")


MIN_EFFECT_HELP = ("smallest effect that matters to you: points of win rate (default 2) or, with a %% sign, "
                   "a share of the fair rate (e.g. 10%%)")


def _add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=_at_least(1), required=True, help="number of games")
    p.add_argument("--jobs", type=_jobs, default=-1, help="worker processes (default: all cores)")
    p.add_argument("--out", help="run directory (default runs/<run-id>); re-run the same command to resume")
    p.add_argument("--backend", default="loky", choices=["loky", "dask"], help="joblib backend")
    p.add_argument("--scheduler", help="Dask scheduler address for --backend dask")
    p.add_argument("--chunk-size", type=_at_least(1), help="games per part file (default: the game's)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


UNTIL_RUN = ("add parts until the metric's 95%% interval (a sweep: of every variant's paired difference from the "
             "baseline) is narrower than W (points for rates, rounds for length); --games is then the maximum")
UNTIL_LADDER = ("add games to every level until the widest 95%% interval of the metric's level-to-level paired change "
                "is narrower than W (points for rates, rounds for length); --games is then the maximum per level, and "
                "re-running extends")


def _add_until_args(p: argparse.ArgumentParser, how: str = UNTIL_RUN, strategy: str = "NAME") -> None:
    p.add_argument("--until-ci", type=_positive_float, metavar="W", help=f"sequential stopping: {how}")
    p.add_argument("--metric", help="what --until-ci measures: seat1 (default; seatK for seat K), rounds, "
                                    f"end:REASON or strategy:{strategy}")


def _add_sweep_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vary", action="append", default=[], metavar="FIELD=v1,v2,...",
                   help="a grid axis: a rules field (as --set) or weights.STRATEGY.DECISION.FEATURE, with its values "
                        "(repeatable: the grid is every combination)")
    p.add_argument("--min-effect", type=_min_effect, default="2", help=MIN_EFFECT_HELP)


def _add_tune_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game name (see `playtest games`)")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--against", type=_strategy_list, required=True,
                   help="the field: strategies of the other seats (one for all, or one per other seat)")
    p.add_argument("--budget", type=_at_least(1), required=True, help="games the search may play")
    p.add_argument("--start", help="strategy to start from (default: the first weights strategy of --against)")
    p.add_argument("--name", default="tuned", help="name of the tuned strategy (default tuned)")
    p.add_argument("--decisions", type=_strategy_list, help="tune only these decisions' weights (default: all)")
    p.add_argument("--block", type=_at_least(1), default=500, help="games per candidate (default 500)")
    p.add_argument("--popsize", type=_at_least(2), help="candidates per generation (default: CMA-ES's 4 + 3 ln n)")
    p.add_argument("--sigma", type=_positive_float, default=0.5, help="initial step, in units of each weight's size")
    p.add_argument("--final-games", type=_at_least(1), default=10_000, help="fresh games measuring the result")
    p.add_argument("--strategy-file", help="JSON file of extra strategies to register first")
    p.add_argument("--seed", type=int, default=0, help="search seed (the final games use seed + 1)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="FIELD=VALUE", help="rules variant")
    p.add_argument("--jobs", type=_jobs, default=-1, help="worker processes (default: all cores)")
    p.add_argument("--out", help="output directory (default runs/tune-GAME-Np-NAME-seedS)")
    p.add_argument("--min-effect", type=_min_effect, default="2", help=MIN_EFFECT_HELP)
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_measure_args(p: argparse.ArgumentParser, out: str) -> None:
    """The flags a hardening round's measurement takes (`harden` and `exploit`)."""
    p.add_argument("game", help="game name (see `playtest games`)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="FIELD=VALUE",
                   help="rules variant every game plays (repeatable); run the population under the same --set")
    p.add_argument("--out", help=f"output directory (default {out})")
    p.add_argument("--jobs", type=_jobs, default=-1, help="worker processes (default: all cores)")
    p.add_argument("--search-games", type=_at_least(1), default=114_000,
                   help="games of each best-response search (default 114,000)")
    p.add_argument("--block", type=_at_least(1), default=500, help="games per search candidate (default 500)")
    p.add_argument("--popsize", type=_at_least(2), help="search candidates per generation (default: CMA-ES's)")
    p.add_argument("--final-games", type=_at_least(1), default=10_000,
                   help="fresh games measuring each best response (default 10,000)")
    p.add_argument("--searches", type=_at_least(1), default=1,
                   help="best-response searches per measurement, each on its own seed from the next best member; the "
                        "largest gain counts (default 1, at most 3)")
    p.add_argument("--member-games", type=_at_least(1), default=5_000,
                   help="games measuring each member against the mixture, the search's candidate starts (default 5,000)")
    p.add_argument("--min-effect", type=_min_effect, default="3",
                   help="the gain that exploits a mixture: harden stops when no best response's 95%% interval "
                        "reaches it (default 3 pts)")
    p.add_argument("--strategy-file", help="JSON file of extra strategies to register first")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_exploit_args(p: argparse.ArgumentParser) -> None:
    _add_measure_args(p, "runs/exploit-GAME-Np-seedS")
    p.add_argument("--population", required=True, help="the population file (e.g. from `playtest harden`)")
    p.add_argument("--players", type=int, help="number of players (default: the population file's)")
    p.add_argument("--seed", type=int, required=True,
                   help="a seed no earlier measurement used (the studies use seed + 11..14)")
    p.add_argument("--record", action="store_true",
                   help="add the measurement to the population file's remeasures (reports quote the largest)")


def _add_harden_args(p: argparse.ArgumentParser) -> None:
    _add_measure_args(p, "runs/harden-GAME-Np-seedS")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--pool", type=_strategy_list, default=[],
                   help="the starting strategies, comma-separated (with --from-population: strategies joining it at "
                        "weight 0, e.g. a probe's best response from --strategy-file)")
    p.add_argument("--from-population", metavar="FILE",
                   help="continue an earlier population: its members and weights are round 0's "
                        "(no empirical game), and new best responses continue its brK numbering")
    p.add_argument("--budget", type=_at_least(1), required=True,
                   help="games the hardening may play (searches, measurements, empirical games, probe)")
    p.add_argument("--seed", type=int, default=0, help="seed of round 0 (round r uses seed + 10 r + 0..9)")
    p.add_argument("--minutes", type=_positive_float,
                   help="wall-clock time the hardening may take besides --budget: it stops before a round would end "
                        "past it (judged by its longest round so far; the rollout probe comes after)")
    p.add_argument("--meta-games", type=_at_least(1), default=10_000,
                   help="games of each round's empirical game (default 10,000)")
    p.add_argument("--probe-playouts", type=_at_least(1), default=4, help="playouts of the rollout probe (default 4)")
    p.add_argument("--probe-games", type=_at_least(1), default=200, help="games of the rollout probe (default 200)")
    p.add_argument("--meta-solver", default="nash", choices=["nash", "fictitious", "forgetful", "linear", "hedge"],
                   help="how each round's mixture is made: nash (default: solve the members' empirical game), "
                        "fictitious (fictitious play: the average of the pool's solved mixture and every best "
                        "response so far, each 1/(r+1) after round r; no empirical game after round 0), forgetful "
                        "(fictitious play that drops the members measured to lose against the mixture), linear "
                        "(fictitious play whose round-r best response weighs r+1: early members fade) or hedge "
                        "(linear, after doubling the weight of each member measured to gain 10 pts against the "
                        "mixture, halving it at -10)")
    p.add_argument("--fixed-scale", action="store_true",
                   help="searches keep their start's weight norm, so softmax members stay mixed; their gains are then "
                        "no best response's (measure the population with `playtest exploit`)")
    p.add_argument("--confirm", type=_at_least(0), default=0,
                   help="fresh-seed measurements a mixture must pass again before the rule stops (default 0: one "
                        "search decides; a search from another seed can find more)")
    p.add_argument("--keep", default="last", choices=["last", "best"],
                   help="the population written: last (default: the last round's mixture) or best (the round whose "
                        "exploitability interval reached lowest, re-measured on fresh seeds if it is not the last)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="playtest", description="Monte Carlo balance analysis for board games.")
    parser.add_argument("--debug", action="store_true", help="on an error, show the whole traceback too")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sub.add_parser("games", help="list the games")

    p = sub.add_parser("strategies", help="list a game's strategies")
    p.add_argument("game")

    p = sub.add_parser("rules", help="list a game's rules fields: default, allowed values (--set), rule ID")
    p.add_argument("game")

    p = sub.add_parser("run", help="simulate a study and log every game")
    _add_study_args(p)
    _add_run_args(p)
    _add_until_args(p)

    p = sub.add_parser("ab", help="causal A/B: the same games with one strategy swapped for a variant")
    _add_study_args(p)
    _add_run_args(p)
    p.add_argument("--base", required=True, help="the strategy of the pool that arm B replaces")
    p.add_argument("--variant", required=True, help="the strategy that replaces it in arm B (e.g. from --strategy-file)")
    p.add_argument("--min-effect", type=_min_effect, default="2", help=MIN_EFFECT_HELP)

    p = sub.add_parser("sweep", help="a grid of rules variants or strategy weights, on common random numbers")
    _add_study_args(p)
    _add_run_args(p)
    _add_until_args(p)
    _add_sweep_args(p)

    p = sub.add_parser("balance", help="search rules variants toward a balance target (racing on common random "
                                       "numbers), then re-measure the finalists on fresh seeds")
    _add_study_args(p)
    p.add_argument("--objective", action="append", default=None,
                   help="seats: every seat's win rate within --min-effect of the fair share (default); strategies: no "
                        "strategy's win rate above the fair share by more than --min-effect; length=TARGET: mean "
                        "rounds within 5%% of TARGET; end:REASON=SHARE: that share (%%) of games ending by REASON "
                        "within --min-effect points. Repeat to combine as constraints (every one must be met)")
    p.add_argument("--vary", action="append", default=[], metavar="FIELD[=lo..hi|v1,v2,...]",
                   help="a rules field to search: a range, a list, or alone for its declared bounds (repeatable)")
    p.add_argument("--budget", type=_at_least(1), required=True, help="games the search may play in all")
    p.add_argument("--min-effect", type=_min_effect, default="2", help=MIN_EFFECT_HELP)
    p.add_argument("--jobs", type=_jobs, default=-1, help="worker processes (default: all cores)")
    p.add_argument("--out", help="search directory (default runs/<balance-id>); re-run the same command to resume")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = sub.add_parser("tune", help="search for a dominant strategy: CMA-ES over one seat's weights against a field")
    _add_tune_args(p)

    p = sub.add_parser("harden", help="grow a population by iterated best response (PSRO) until no best response "
                                      "we find gains --min-effect against its mixture")
    _add_harden_args(p)

    p = sub.add_parser("exploit", help="measure a population's exploitability again on a fresh seed (one "
                                       "hardening round: members, a best-response search, fresh games)")
    _add_exploit_args(p)

    p = sub.add_parser("report", help="write a balance report from one or more runs (or a sweep, tune or balance directory)")
    p.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR")
    p.add_argument("--out", type=Path, help="report directory (default RUN_DIR/report)")
    p.add_argument("--min-effect", type=_min_effect, default="2", help=MIN_EFFECT_HELP)
    p.add_argument("--ladder", type=Path, action="append", default=[], metavar="LADDER_DIR",
                   help="a `playtest ladder` directory to add to the report (repeatable)")
    p.add_argument("--strong", type=Path, action="append", default=[], metavar="POPULATION_RUN",
                   help="a run made with --population (e.g. a hardened population): the card compares it with the "
                        "report's run of the same game, players and rules (repeatable)")

    p = sub.add_parser("replay", help="print one game turn by turn: of a run directory (exactly as logged, from its "
                                      "manifest) or of the study the flags describe")
    _add_study_args(p, "a run directory, or a game name (with --players and the study's flags)", players_required=False)
    p.add_argument("--game-index", type=_at_least(0), default=0, help="which game of the run to replay")

    p = sub.add_parser("bench", help="measure games/s with and without JIT")
    p.add_argument("game")
    p.add_argument("--players", type=int)
    p.add_argument("--strategies", type=_strategy_list,
                   help="lineup to time (default: the game's pool), e.g. expander+mc16 for a rollout")
    p.add_argument("--games", type=_at_least(1), help="games to play (default 200,000; 100 with a rollout)")
    p.add_argument("--jobs", type=_jobs, default=-1)
    p.add_argument("--nojit-seconds", type=_positive_float, default=20.0, help="how long to time the no-JIT run")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--against", action="append", metavar="REV",
                   help="race this checkout against a commit (repeatable), head to head on one core: --games per "
                        "repetition (default 4,000)")
    p.add_argument("--population", metavar="FILE",
                   help="with --against: this checkout plays this population file's games and the commits the "
                        "lineup (--against HEAD: the population against the pool, both now)")
    p.add_argument("--reps", type=_at_least(2), default=10, help="repetitions of a head-to-head race")
    p.add_argument("--seed", type=_at_least(0), default=1, help="seed of a head-to-head race's games")

    _add_ladder_parser(sub)
    for p in sub.choices.values():  # --debug after the command too (SUPPRESS keeps the top-level value)
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def _register_file(game: str, path: str | None) -> None:
    if path:
        get_game(game).strategies.load_file(path)


def _lineup(args: argparse.Namespace) -> tuple[list[str] | None, Mixture | None]:
    """The strategies of a study and, with --population, the mixture every seat draws from."""
    from sim.population import load_population

    if not args.population:
        return args.strategies, None
    if args.strategies or args.seating or args.rotate:
        raise PlaytestError("--population draws every seat from its mixture; drop --strategies, --seating and "
                            "--rotate, or drop --population")
    population = load_population(args.game, args.population, args.players)
    return population.lineup(), population.mixture()


def _cmd_games(args: argparse.Namespace) -> None:
    for name in game_names():
        spec = get_game(name)
        print(f"{name:14s} {spec.title} ({spec.min_players}-{spec.max_players} players)")


def _cmd_strategies(args: argparse.Namespace) -> None:
    registry = get_game(args.game).strategies
    for s in registry:
        print(f"{s.name:14s} {s.description}")
    print(f"\ndecisions (weights keys): {', '.join(registry.schema.decisions)}")
    print(f"features (per option):    {', '.join(registry.schema.features)}")


def _cmd_rules(args: argparse.Namespace) -> None:
    for f in declared(get_game(args.game).rules_type):
        default = str(f.default).lower() if f.type is bool else repr(f.default) if f.type is str else f.default
        print(f"{f.name:34s} {default!s:>11s}  {f.allowed:28s} {f.rule:18s} {f.doc}")


def _check_backend(args: argparse.Namespace) -> None:
    if args.scheduler and args.backend != "dask":
        raise PlaytestError("--scheduler is only used with --backend dask; add --backend dask or drop --scheduler")


def _cmd_run(args: argparse.Namespace) -> None:
    from sim.runner import run_study

    _check_backend(args)
    _register_file(args.game, args.strategy_file)
    if args.until_ci or args.metric:
        return _run_until(args)
    strategies, mixture = _lineup(args)
    run_dir = run_study(args.game, args.players, args.games, strategies, rotate=args.rotate, seed=args.seed,
                        jobs=args.jobs, out=args.out, overrides=args.overrides, backend=args.backend,
                        scheduler=args.scheduler, progress=not args.quiet, chunk_size=args.chunk_size,
                        seating=args.seating, mixture=mixture)
    print(f"logs written to {run_dir}; next: playtest report {run_dir}")


def _cmd_ab(args: argparse.Namespace) -> None:
    from analysis.report import write_ab_report
    from sim.runner import run_ab

    _check_backend(args)
    if args.rotate and args.seating not in (None, "random"):
        raise PlaytestError(f"--rotate means --seating random; drop --rotate or --seating {args.seating}")
    _register_file(args.game, args.strategy_file)
    strategies, mixture = _lineup(args)
    arm_a, arm_b = run_ab(args.game, args.players, args.games, strategies, args.base, args.variant,
                          seed=args.seed, seating=args.seating or ("random" if args.rotate else None),
                          jobs=args.jobs, out=args.out, overrides=args.overrides, backend=args.backend,
                          scheduler=args.scheduler, progress=not args.quiet, chunk_size=args.chunk_size,
                          mixture=mixture)
    path, line = write_ab_report(arm_a, arm_b, args.base, args.variant, arm_a.parent / "report", args.min_effect)
    print(line)
    print(f"report written to {path}")


def _until(args: argparse.Namespace, study) -> tuple[str, dict]:
    """The --until-ci metric, checked against the study, and the note the manifest keeps."""
    from analysis.metrics import DEFAULT_METRIC, parse_metric, study_like

    if not args.until_ci:
        raise PlaytestError("--metric is what --until-ci measures; add --until-ci W or drop --metric")
    metric = parse_metric(args.metric or DEFAULT_METRIC, study_like(study.game, study.n_players, study.lineup))
    return metric.key, {"metric": metric.key, "unit": metric.unit}


def _run_until(args: argparse.Namespace) -> None:
    """`playtest run --until-ci W`: one run grown part by part until the metric's interval is narrow enough."""
    from analysis.metrics import MIN_UNTIL_GAMES, until_ci_note
    from analysis.sweep import run_width
    from sim.logs import read_manifest
    from sim.runner import execute_until
    from sim.study import plan_study

    strategies, mixture = _lineup(args)
    study = plan_study(args.game, args.players, args.games, strategies, args.rotate, args.seed, args.overrides,
                       args.chunk_size, args.seating, mixture)
    key, note = _until(args, study)
    run_dir = Path(args.out) if args.out else Path("runs") / f"{study.run_id()}-until"
    execute_until(study, run_dir, run_width(key), args.until_ci, note, MIN_UNTIL_GAMES, jobs=args.jobs,
                  backend=args.backend, scheduler=args.scheduler, progress=not args.quiet)
    print(until_ci_note(read_manifest(run_dir)))
    print(f"logs written to {run_dir}; next: playtest report {run_dir}")


def _cmd_sweep(args: argparse.Namespace) -> None:
    from analysis.metrics import MIN_UNTIL_GAMES
    from analysis.sweep import sweep_width, write_sweep_report
    from sim.study import plan_study
    from sim.sweep import plan_sweep, run_sweep

    _check_backend(args)
    _register_file(args.game, args.strategy_file)
    strategies, mixture = _lineup(args)
    base = plan_study(args.game, args.players, args.games, strategies, args.rotate, args.seed, args.overrides,
                      args.chunk_size, args.seating, mixture)
    sweep = plan_sweep(base, args.vary)
    until = None
    if args.until_ci or args.metric:
        key, note = _until(args, base)
        until = (args.until_ci, sweep_width(key), note)
    root = run_sweep(sweep, args.out, until=until, min_games=MIN_UNTIL_GAMES, jobs=args.jobs, backend=args.backend,
                     scheduler=args.scheduler, progress=not args.quiet)
    path, line = write_sweep_report(root, root / "report", args.min_effect)
    print(line)
    print(f"report written to {path}")


def _cmd_balance(args: argparse.Namespace) -> None:
    from analysis.balance import judge, write_answer
    from sim.balance import FIRST_GAMES, plan_balance, run_balance
    from sim.study import plan_study

    _register_file(args.game, args.strategy_file)
    strategies, mixture = _lineup(args)
    base = plan_study(args.game, args.players, args.budget, strategies, args.rotate, args.seed, args.overrides,
                      FIRST_GAMES, args.seating, mixture)
    objectives = args.objective or ["seats"]
    balance = plan_balance(base, args.vary, objectives, args.budget, args.min_effect)
    root = run_balance(balance, judge(objectives, args.min_effect), args.out, jobs=args.jobs, progress=not args.quiet)
    path, text = write_answer(root)
    print(text)
    print(f"answer written to {path} (and balance.md); every variant's run is under {root}")


def _cmd_tune(args: argparse.Namespace) -> None:
    from analysis.tune import write_tune_report
    from sim.tune import plan_tune, tune

    _register_file(args.game, args.strategy_file)
    plan = plan_tune(args.game, args.players, args.against, args.budget, start=args.start, name=args.name,
                     decisions=args.decisions, block=args.block, popsize=args.popsize, sigma=args.sigma,
                     seed=args.seed, final_games=args.final_games, overrides=args.overrides)
    root = tune(plan, args.out, jobs=args.jobs, progress=not args.quiet)
    path, line = write_tune_report(root, root / "report", args.min_effect)
    print(line)
    print(f"strategy file: {root / 'tuned.json'}; report written to {path}")


def _cmd_harden(args: argparse.Namespace) -> None:
    from sim.harden import HISTORY_FILE, POPULATION_FILE, harden, plan_harden, read_history

    _register_file(args.game, args.strategy_file)
    plan = plan_harden(args.game, args.players, args.pool, args.budget, min_effect=args.min_effect, seed=args.seed,
                       search_games=args.search_games, block=args.block, popsize=args.popsize,
                       final_games=args.final_games, meta_games=args.meta_games, probe_playouts=args.probe_playouts,
                       probe_games=args.probe_games, member_games=args.member_games, overrides=args.overrides,
                       meta_solver=args.meta_solver, keep=args.keep, confirm=args.confirm,
                       searches=args.searches, fixed_scale=args.fixed_scale,
                       from_population=args.from_population, minutes=args.minutes)
    root = harden(plan, args.out, jobs=args.jobs, progress=not args.quiet)
    summary = read_history(root)
    print(f"{summary['exploitability']['statement']} ({summary['stopped']} after {len(summary['rounds']) - 1} "
          f"round(s), {summary['games_spent']:,} games)")
    rules = "".join(f" --set {o}" for o in args.overrides)
    print(f"population: {root / POPULATION_FILE} (playtest run {args.game} --players {args.players}{rules} --population "
          f"{root / POPULATION_FILE} ...); history: {root / HISTORY_FILE}, {root / 'history.md'}")


def _cmd_exploit(args: argparse.Namespace) -> None:
    from sim.exploit import exploit

    _register_file(args.game, args.strategy_file)
    m = exploit(args.game, args.population, seed=args.seed, players=args.players, search_games=args.search_games,
                final_games=args.final_games, member_games=args.member_games, block=args.block,
                popsize=args.popsize, min_effect=args.min_effect, overrides=args.overrides, searches=args.searches,
                record=args.record,
                out=args.out, jobs=args.jobs, progress=not args.quiet)
    print(f"{m['probe']} gains {m['points']:+.1f} pts [{m['lo']:+.1f}, {m['hi']:+.1f}] over the fair share against "
          f"the mixture ({m['games']:,} games)" + (f"; recorded in {args.population}" if args.record else ""))


def _cmd_report(args: argparse.Namespace) -> None:
    from analysis.balance import write_balance_report
    from analysis.report import write_report
    from analysis.sweep import write_sweep_report
    from analysis.tune import write_tune_report
    from sim.balance import BALANCE_MANIFEST
    from sim.sweep import SWEEP_MANIFEST
    from sim.tune import TUNE_MANIFEST

    first = args.run_dirs[0]
    for manifest, writer in ((BALANCE_MANIFEST, write_balance_report), (SWEEP_MANIFEST, write_sweep_report),
                             (TUNE_MANIFEST, write_tune_report)):
        if (first / manifest).is_file():
            if len(args.run_dirs) > 1 or args.strong:
                raise PlaytestError(f"{first} holds a {manifest.removesuffix('.json')}, not a run; report it alone "
                                    "(without --strong)")
            path, line = writer(first, args.out, args.min_effect)
            print(line)
            print(f"report written to {path}")
            return
    out = args.out or args.run_dirs[0] / "report"
    path = write_report(list(args.run_dirs), out, min_effect=args.min_effect, ladders=args.ladder, strong=args.strong)
    print(f"report written to {path}")


REPLAY_FLAGS = ("players", "strategies", "strategy_file", "population", "seating", "rotate", "overrides")
"""Study flags a run directory's manifest already answers (--seed's default 0 cannot be told from absent)."""


def _cmd_replay(args: argparse.Namespace) -> None:
    if args.game not in game_names():
        if Path(args.game).is_dir():
            return _replay_run(args)
        raise PlaytestError(f"'{args.game}' is neither a game ({', '.join(game_names())}) nor a run directory; "
                            "pass a run directory, or a game with --players and the run's flags")
    if args.players is None:
        raise PlaytestError(f"replay {args.game} needs --players N and the run's flags; or pass the run directory")
    from sim.study import plan_study

    _register_file(args.game, args.strategy_file)
    strategies, mixture = _lineup(args)
    study = plan_study(args.game, args.players, args.game_index + 1, strategies, args.rotate, args.seed,
                       args.overrides, seating=args.seating, mixture=mixture)
    seat_row = study.seats(args.game_index, 1)[0]
    print(study.spec.replay(study.rules, study.n_players, seat_row, args.game_index, study.seed, study.table(),
                            study.strategy_names()))


def _replay_run(args: argparse.Namespace) -> None:
    """`playtest replay RUN_DIR --game-index i`: everything else from the run's manifest."""
    from sim.replay import provenance_note, run_manifest, trace_logged

    given = [f"--{name.replace('_', '-')}" for name in REPLAY_FLAGS if getattr(args, name)] + \
            (["--seed"] if args.seed else [])
    if given:
        raise PlaytestError(f"{args.game} is a run directory: its manifest gives the players, strategies, seating, "
                            f"seed and rules; drop {', '.join(given)}")
    manifest = run_manifest(args.game)
    traced = trace_logged(args.game, args.game_index)
    note = provenance_note(manifest)
    if note:
        print(f"playtest: note: {note}", file=sys.stderr)
    print(get_game(manifest["game"]).render(traced))


def _cmd_bench(args: argparse.Namespace) -> None:
    from sim.bench import format_bench, run_bench

    spec = get_game(args.game)
    if args.players is not None:
        spec.check_players(args.players)
    if args.population and not args.against:
        raise PlaytestError("--population races a population against the pool; add --against REV (--against HEAD: "
                            "this commit's pool)")
    if args.against:
        from sim.headtohead import GAMES_PER_REP, format_head_to_head, head_to_head
        from sim.population import load_population

        if args.population:
            load_population(args.game, args.population, args.players or 4)
        result = head_to_head(args.game, args.players or 4, args.against, args.games or GAMES_PER_REP, args.reps,
                              args.seed, args.strategies, population=args.population)
        print(json.dumps(result) if args.json else format_head_to_head(result))
        return
    result = run_bench(args.game, args.players, args.games, args.jobs, args.nojit_seconds, args.strategies)
    print(json.dumps(result) if args.json else format_bench(result))


# ------------------------------------------------------------------------------------------------ ladder
def _levels(text: str) -> list[int]:
    """--playouts: comma-separated playouts per strength level (0: the base strategies)."""
    from sim.ladder import parse_levels

    try:
        return parse_levels(text)
    except PlaytestError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_ladder_parser(sub) -> None:
    p = sub.add_parser("ladder", help="the same study at several strengths (rollout playouts)")
    p.add_argument("game", help="game name (see `playtest games`)")
    p.add_argument("--players", type=int, required=True, help="number of players")
    p.add_argument("--base", type=_strategy_list,
                   help="the base strategies: one for every seat, or a pool of at least --players to seat from")
    p.add_argument("--population", metavar="FILE",
                   help="instead of --base: a population file; every seat draws its base from the mixture (members "
                        "of weight 0 left out), the same draw at every level")
    p.add_argument("--playouts", type=_levels, required=True,
                   help="playouts per option at each level, e.g. 0,4,16 (0: the bases; K: every seat BASE+mcK)")
    p.add_argument("--strategy-file", help="JSON file of extra strategies to register first")
    p.add_argument("--seed", type=int, default=0, help="run seed (every level plays the same seeds and seating)")
    p.add_argument("--set", dest="overrides", action="append", default=[], metavar="FIELD=VALUE",
                   help="rules variant (repeatable)")
    p.add_argument("--min-effect", type=_min_effect, default="2", help=MIN_EFFECT_HELP)
    _add_run_args(p)
    _add_until_args(p, UNTIL_LADDER, "BASE")


def _ladder_bases(args: argparse.Namespace) -> tuple[list[str], Mixture | None]:
    """The ladder's bases: --base, or a population's members of positive weight with their mixture."""
    from sim.population import load_population

    if bool(args.base) == bool(args.population):
        raise PlaytestError("give the ladder's players with either --base LIST or --population FILE (one of them)")
    if not args.population:
        return args.base, None
    population = load_population(args.game, args.population, args.players)
    kept = [(m, w) for m, w in zip(population.members, population.weights) if w > 0]
    record = {"members": [m for m, _ in kept], "weights": [w for _, w in kept], **population.record}
    return [m for m, _ in kept], Mixture(tuple(w for _, w in kept), False, record)


def _cmd_ladder(args: argparse.Namespace) -> None:
    from analysis.ladder import ladder_width, write_ladder_report
    from analysis.metrics import MIN_UNTIL_GAMES
    from sim.ladder import run_ladder
    from sim.study import plan_study

    _check_backend(args)
    _register_file(args.game, args.strategy_file)
    bases, mixture = _ladder_bases(args)
    until = None
    if args.until_ci or args.metric:
        key, note = _until(args, plan_study(args.game, args.players, 1, bases, seed=args.seed,
                                            overrides=args.overrides, mixture=mixture))
        until = (args.until_ci, ladder_width(key), note)
    root = run_ladder(args.game, args.players, bases, args.playouts, args.games, seed=args.seed, jobs=args.jobs,
                      out=args.out, overrides=args.overrides, until=until, min_games=MIN_UNTIL_GAMES, mixture=mixture,
                      backend=args.backend, scheduler=args.scheduler, progress=not args.quiet,
                      chunk_size=args.chunk_size)
    path, line = write_ladder_report(root, root / "report", args.min_effect)
    print(line)
    print(f"ladder runs in {root}; report written to {path}")


COMMANDS = {"games": _cmd_games, "strategies": _cmd_strategies, "rules": _cmd_rules, "run": _cmd_run, "ab": _cmd_ab,
            "report": _cmd_report, "replay": _cmd_replay, "bench": _cmd_bench, "sweep": _cmd_sweep, "tune": _cmd_tune,
            "balance": _cmd_balance, "ladder": _cmd_ladder, "harden": _cmd_harden,
            "exploit": _cmd_exploit}


def _warn_broken(args: argparse.Namespace) -> None:
    """One line on stderr per game package that fails to import, unless the command names it (then it is the
    error); with --debug, its traceback too."""
    for package, problem in broken_games().items():
        if getattr(args, "game", None) != package:
            print(f"playtest: warning: {problem}", file=sys.stderr)
            if args.debug:
                traceback.print_exception(problem.__cause__)


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM ends a run as Ctrl-C does: temporary files are removed, the lock released, workers stopped."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    debug = False
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        args = build_parser().parse_args(argv)
        debug = args.debug
        _warn_broken(args)
        COMMANDS[args.command](args)
    except PlaytestError as exc:
        print(f"playtest: error: {exc}", file=sys.stderr)
        if debug:
            traceback.print_exception(exc)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        sys.stderr.close()
        return 0
    except OSError as exc:  # a full disk or a read-only filesystem, met while writing
        fault = write_fault(exc)
        if fault is None:
            raise
        print(f"playtest: error: {fault}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("playtest: interrupted; re-run the same command to resume", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
