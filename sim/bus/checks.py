"""Bus's self-check for the conformance suite: the legal-stick enumerator against the per-move rule check.

On positions grown by random legal expansions (BUS-EXP-*), the set of (end, street) moves ``legal_sticks``
lists must equal the set ``stick_is_legal`` accepts street by street (BUS-INV-8), and every line stays one
trail (BUS-INV-3).
"""

from __future__ import annotations

import numpy as np

from sim.bus import lines as L
from sim.bus.position import Position

N_PLAYERS = 4


def check_options(seed: int, positions: int = 60) -> int:
    """Moves checked on ``positions`` random 4-player positions; AssertionError on a disagreement."""
    rng = np.random.default_rng(seed)
    checked = 0
    for trial in range(positions):
        pos = Position(N_PLAYERS, seed=trial)
        n_streets = len(pos.board.st_a)
        for p in range(N_PLAYERS):
            L.lay_first_stick(pos.kb, pos.ks, p, int(rng.integers(n_streets)))
        for _ in range(int(rng.integers(0, 25))):
            p = int(rng.integers(N_PLAYERS))
            legal = sorted(pos.legal(p))
            if legal:
                pos.extend(p, *legal[int(rng.integers(len(legal)))])
        for p in range(N_PLAYERS):
            enumerated = pos.legal(p)
            accepted = set()
            for e in range(2):
                x = pos.ends(p)[e]
                for street in range(n_streets):
                    if L.stick_is_legal(pos.kb, pos.ks, p, e, street):
                        accepted.add((x, int(L.other_end(pos.kb, street, x))))
            if enumerated != accepted or not pos.is_trail(p):
                raise AssertionError(f"bus: legal sticks of seat {p} disagree with the rule check (position {trial}): "
                                     f"listed only {enumerated - accepted}, accepted only {accepted - enumerated}")
            checked += len(accepted)
    return checked
