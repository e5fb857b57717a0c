"""The option-check harness of the conformance suite: a game's option generators against its rule predicates.

A game gives ``scramble(st, data, rng)``, which makes a random position of a started game (``rng``: a NumPy
Generator), and ``compare(st, data) -> (disagreements, options checked)``, which lists the options (and their
features) with the game's kernels and tests each against predicates written independently of them. The harness
starts games at the smallest, a middle and the largest player count, and raises AssertionError naming the game,
the player count and the position on the first disagreement.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from sim.core.jit import kernel
from sim.core.play import game_setup, start_game


@kernel
def set_up(st, data, seed: int, game_index: int, seat_row) -> None:
    """A new game, set up by the game's own hook, before its first turn."""
    start_game(st, seed, game_index, seat_row)
    game_setup(st, data)


def option_checker(game: str, scramble: Callable[[Any, Any, np.random.Generator], None],
                   compare: Callable[[Any, Any], tuple[int, int]], positions: int = 150) -> Callable[[int], int]:
    """The ``check_options`` of a GameSpec: seed -> options checked on ``positions`` random positions per player
    count."""

    def check(seed: int) -> int:
        from sim.core.spec import get_game  # late: the game's package is importing this

        spec = get_game(game)
        rng = np.random.default_rng(seed)
        checked = 0
        for n in sorted({spec.min_players, (spec.min_players + spec.max_players) // 2, spec.max_players}):
            st, data = spec.new_state(spec.rules_type(), n)
            for i in range(positions):
                set_up(st, data, seed, i, np.zeros(n, np.int64))
                scramble(st, data, rng)
                bad, listed = compare(st, data)
                if bad:
                    raise AssertionError(f"{game}: {bad} option/rule disagreements, {n} players, position {i}")
                checked += listed
        return checked

    return check
