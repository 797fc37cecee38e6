"""Draws from a ``random.Random`` that search makes by the thousand: the same numbers its own
``shuffle`` and ``randrange`` make, as plain loops.

Hot path: a search samples a game per playout, shuffling each pool of hidden cards, and
plays random decisions in it. ``random.Random.shuffle`` and ``randrange`` are written in
Python in the standard library, so in the compiled build (``scripts/build_compiled.py``)
they were the largest part of a search left uncompiled. These functions repeat their
algorithm (``Lib/random.py``) for an exact ``random.Random``, so every seeded result stays
the same, and hand any other generator (a subclass may draw otherwise) to its own methods.
``tests/test_chance.py`` checks that the draws are the same on the Python it runs on.
"""

from __future__ import annotations

import random
from typing import Final, TypeVar

__all__ = ["below", "shuffle"]

T = TypeVar("T")

_RANDOM: Final = random.Random
"""Read as a C static compiled, where ``random.Random`` is a look-up in the module at each
draw."""


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: a whole number from 0 to ``n - 1``; ``n`` at least 1."""
    if type(rng) is not _RANDOM or n <= 0:
        return rng.randrange(n)
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: ``items`` put in a random order, in place."""
    if type(rng) is not _RANDOM:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    i = len(items) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
        i -= 1
