"""Card piles as arrays: a deck with a discard pile that reshuffles when the deck runs out."""

from __future__ import annotations

import numpy as np

from sim.core.jit import kernel
from sim.core.rng import shuffle


@kernel
def draw(deck: np.ndarray, counts: np.ndarray, discard: np.ndarray, rng: np.ndarray) -> int:
    """Draw the top card; when the deck is empty, shuffle the discard pile into a new deck first.

    ``counts[0]`` is the deck size (top = ``deck[counts[0]-1]``), ``counts[1]`` the discard size.
    Returns -1 when both piles are empty.
    """
    if counts[0] == 0:
        if counts[1] == 0:
            return -1
        for i in range(counts[1]):
            deck[i] = discard[i]
        counts[0] = counts[1]
        counts[1] = 0
        shuffle(rng, deck, counts[0])
    counts[0] -= 1
    return deck[counts[0]]


@kernel(inline="always")
def discard_card(discard: np.ndarray, counts: np.ndarray, card: int) -> None:
    """Put ``card`` on the discard pile."""
    discard[counts[1]] = card
    counts[1] += 1
