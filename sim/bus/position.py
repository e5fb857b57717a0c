"""Test hooks: hand-built Bus positions on the real board, driving the same kernel functions the games use."""

from __future__ import annotations

import numpy as np

from sim.bus import engine as E
from sim.bus import lines as L
from sim.bus.data import load_board
from sim.bus.rules import Rules
from sim.core.errors import PlaytestError
from sim.core.rng import seed_game
from sim.core.trace import new_trace
from sim.core.policy import StrategyTable
from sim.bus.state import GS, PL
from sim.core.state import M


class Position:
    """A game state after setup-free reset: lay lines, buildings and passengers by hand, then ask the rules.

    ``state`` is the kernel handle itself (its arrays are the state's memory), ``kb`` the board handle."""

    def __init__(self, n_players: int = 4, rules: Rules = Rules(), table: StrategyTable | None = None,
                 seed: int = 0, trace: int = 0):
        """``trace``: capacity of an event buffer (0: no events recorded)."""
        from sim.bus import SPEC  # late import: sim.bus imports the engine this module drives

        self.rules = rules
        self.board = load_board(rules.board)
        self.table = table if table is not None else SPEC.strategies.table(["random"] * n_players)
        self.ks, self.kb = SPEC.new_state(rules, n_players, self.table, new_trace(trace))
        self.state = self.ks
        self.state.seat_strat[:] = np.arange(n_players) % len(self.table.kind)
        seed_game(self.state.rng, seed, 0)
        E.reset_game(self.kb, self.ks)
        self.n = n_players

    # --- board lookups
    def street(self, a: int, b: int) -> int:
        """The street joining intersections a and b."""
        for k in range(len(self.board.st_a)):
            if {int(self.board.st_a[k]), int(self.board.st_b[k])} == {a, b}:
                return k
        raise PlaytestError(f"no street joins {a} and {b}")

    def ends(self, p: int) -> tuple[int, int]:
        return int(self.state.pl[p, PL.e0]), int(self.state.pl[p, PL.e0 + 1])

    # --- lines
    def line(self, p: int, path: list[int]) -> None:
        """Lay p's line along ``path`` (intersections), first stick then one stick per step, unchecked."""
        L.lay_first_stick(self.kb, self.ks, p, self.street(path[0], path[1]))
        for x, y in zip(path[1:], path[2:]):
            e = 0 if self.state.pl[p, PL.e0] == x else 1
            L.place_stick(self.kb, self.ks, p, e, self.street(x, y))

    def legal(self, p: int) -> set[tuple[int, int]]:
        """Legal next sticks of p as {(from intersection, to intersection)} (BUS-EXP-6..10)."""
        n = L.legal_sticks(self.kb, self.ks, p, self.state.options)
        out = set()
        for i in range(n):
            x = int(self.state.pl[p, PL.e0 + self.state.options[i, 0]])
            st = int(self.state.options[i, 1])
            out.add((x, int(L.other_end(self.kb, st, x))))
        return out

    def legal_kinds(self, p: int) -> dict[tuple[int, int], int]:
        """Like :meth:`legal`, with the rule that allows each stick (lines.KIND_*)."""
        n = L.legal_sticks(self.kb, self.ks, p, self.state.options)
        out = {}
        for i in range(n):
            x = int(self.state.pl[p, PL.e0 + self.state.options[i, 0]])
            st = int(self.state.options[i, 1])
            out[(x, int(L.other_end(self.kb, st, x)))] = int(self.state.options[i, 2])
        return out

    def is_legal(self, p: int, x: int, y: int) -> bool:
        """The independent per-move check (stick_is_legal) for a stick from end x to y."""
        e = 0 if self.state.pl[p, PL.e0] == x else 1
        if self.state.pl[p, PL.e0 + e] != x:
            return False
        return bool(L.stick_is_legal(self.kb, self.ks, p, e, self.street(x, y)))

    def extend(self, p: int, x: int, y: int) -> None:
        """Lay a stick from end x to y after checking it is legal."""
        if (x, y) not in self.legal(p):
            raise AssertionError(f"stick {x}->{y} is not legal for player {p}")
        e = 0 if self.state.pl[p, PL.e0] == x else 1
        L.place_stick(self.kb, self.ks, p, e, self.street(x, y))

    def is_trail(self, p: int) -> bool:
        return bool(L.line_is_trail(self.kb, self.ks, p))

    # --- city
    def build(self, x: int, t: int) -> int:
        """Put a building of type t on the first empty space of intersection x (any zone); return the space."""
        for sp in range(len(self.board.sp_inter)):
            if self.board.sp_inter[sp] == x and self.state.bld[sp] < 0:
                E.put_building(self.kb, self.ks, sp, t)
                return sp
        raise PlaytestError(f"intersection {x} has no empty building space")

    def passengers(self, x: int, count: int) -> None:
        """Move ``count`` passengers from the supply onto intersection x."""
        self.state.pax[x] += count
        self.state.g[E.GS.supply] -= count
        self.state.g[E.GS.board_pax] += count

    def clear_passengers(self) -> None:
        """Return every passenger to the supply (for examples that place their own)."""
        self.state.g[E.GS.supply] += int(self.state.pax.sum())
        self.state.g[E.GS.board_pax] = 0
        self.state.pax[:] = 0

    # --- actions and rules
    def set_buses(self, p: int, buses: int) -> None:
        self.state.pl[p, PL.buses] = buses
        self.state.g[GS.m] = int(self.state.pl[: self.n, PL.buses].max())

    def settle(self, t: int) -> None:
        E.settle(self.ks, t)

    def delivery_count(self, p: int) -> int:
        """d = min(buses, Σ want, Σ room) on p's line after :meth:`settle` (BUS-VROOM-6)."""
        return int(E.delivery_count(self.ks, p))

    def vroom(self, slots: list[int], t: int) -> list[int]:
        """Resolve a Vrroomm! step with the given slot owners under type t; return points gained per player."""
        before = self.state.pl[: self.n, PL.points].copy()
        self.state.g[GS.clock] = t
        self.state.slot[3, :] = -1
        for k, p in enumerate(slots):
            self.state.slot[3, k] = p
        self.state.nslot[3] = len(slots)
        E.resolve_vroom(self.kb, self.ks)
        return list(self.state.pl[: self.n, PL.points] - before)

    def open_zone(self) -> int:
        return int(E.open_zone(self.ks))

    def clock_step(self, owner: int = -1) -> bool:
        """Resolve step 5 with ``owner`` on the Clock slot (-1: nobody); True when the game ended."""
        self.state.single[1] = owner
        return bool(E.resolve_clock(self.ks))

    def set_round(self, rnd: int) -> None:
        self.state.meta[M.round] = rnd

    def score(self, p: int, points: int, gems: int, reached_at: int) -> None:
        self.state.pl[p, PL.points] = points
        self.state.pl[p, PL.gems] = gems
        self.state.pl[p, PL.at] = reached_at

    def ranking(self) -> tuple[list[int], int]:
        """Final ranks (BUS-SCORE-2..4) and the tie-break code (0 none, 1 gems, 2 disc stack, 3 shared)."""
        E.final_scoring(self.ks)
        return [int(r) for r in self.state.rank[: self.n]], int(self.state.g[E.GS.tie_break])

    @property
    def gems_on_clock(self) -> int:
        return int(self.state.g[GS.gems])

    @property
    def clock(self) -> int:
        return int(self.state.g[GS.clock])
