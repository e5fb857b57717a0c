"""Counter-based seeding and a small xoshiro256** generator for @njit kernels.

Every game derives its own generator state from ``(run seed, game index)`` through SplitMix64, so
results never depend on chunk size, worker count or backend. The state is a 4-element uint64
array owned by the kernel (allocated once per chunk, re-seeded per game).
"""

from __future__ import annotations

import numpy as np
from numba import uint64
from sim.core.jit import kernel

STATE_SIZE = 4

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_MIX1 = uint64(0xBF58476D1CE4E5B9)
_MIX2 = uint64(0x94D049BB133111EB)
_PLAYOUT_SALT = uint64(0x5EED_0F_C0FFEE)


@kernel(inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    """One SplitMix64 output for input ``x`` (a bijective 64-bit mixer)."""
    z = uint64(x) + _GOLDEN
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return z ^ (z >> uint64(31))


@kernel
def seed_game(state: np.ndarray, seed: int, game_index: int) -> None:
    """Fill ``state`` for game ``game_index`` of the run seeded with ``seed``."""
    _fill(state, splitmix64(uint64(seed)) ^ splitmix64(uint64(game_index) * _MIX1 + uint64(1)))


@kernel
def seed_playout(state: np.ndarray, seed: int, game_index: int, decision: int, playout: int) -> None:
    """Fill ``state`` for playout ``playout`` of rollout decision ``decision`` of a game: a stream of its own,
    the same for every option the decision tries (common random numbers)."""
    x = splitmix64(uint64(seed)) ^ splitmix64(uint64(game_index) * _MIX1 + uint64(1))
    _fill(state, x ^ splitmix64((uint64(decision) << uint64(20)) + uint64(playout) + _PLAYOUT_SALT))


@kernel
def _fill(state: np.ndarray, x: np.uint64) -> None:
    """The four words of a generator state from one 64-bit key (never all zero)."""
    for i in range(STATE_SIZE):
        x = splitmix64(x + uint64(i))
        state[i] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


@kernel(inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << uint64(k)) | (x >> uint64(64 - k))


@kernel
def next_u64(state: np.ndarray) -> np.uint64:
    """Advance xoshiro256** and return 64 random bits."""
    result = _rotl(state[1] * uint64(5), 7) * uint64(9)
    t = state[1] << uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@kernel
def randint(state: np.ndarray, n: int) -> int:
    """Uniform integer in ``[0, n)`` (Lemire's multiply-shift; bias below 2**-32 for small n)."""
    return np.int64((next_u64(state) >> uint64(32)) * uint64(n) >> uint64(32))


@kernel
def uniform(state: np.ndarray) -> float:
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return float(next_u64(state) >> uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def shuffle(state: np.ndarray, arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of the first ``n`` entries of ``arr`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


def new_state() -> np.ndarray:
    """A fresh, unseeded generator state buffer."""
    return np.zeros(STATE_SIZE, dtype=np.uint64)
