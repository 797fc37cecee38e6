"""Dealing the cards a seat cannot see into a game that shows its view: the other hands, then
the stolen cards the seat cannot see, then the decks (see `gaia_rules.determinize`).

Hot path: a search deals a sample at every playout. This lives apart from `determinize`, whose
`Determinizer` and `determinize` are public and keep their docstrings, so that the compiled
build (``scripts/build_compiled.py``) compiles it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from gaia_rules.cards import CardId
from gaia_rules.chance import shuffle
from gaia_rules.views import View
from gaia_rules.vocabulary import CardKind

__all__ = ["Dealt", "deal", "deal_shuffled"]

Dealt = tuple[
    tuple[tuple[CardId, ...], ...],
    tuple[tuple[CardId, int], ...],
    dict[CardKind, tuple[CardId, ...]],
]
"""The hands, the stolen cards (each with the seat it came from) and the decks."""


_BACKS: Final = tuple(CardKind)
"""The backs in their order. Hot path: iterating the enum itself runs interpreted code at
every sample of a search."""


def deal(view: View, hidden: dict[CardKind, Iterator[CardId]]) -> Dealt:
    """The hands, stolen cards and decks of a game showing ``view``, the hidden cards dealt
    from ``hidden`` by back: the other hands, then the stolen cards, then the decks."""
    hands = tuple(
        view.hand if seat == view.seat else tuple(next(hidden[back]) for back in backs)
        for seat, backs in enumerate(view.hand_backs)
    )
    stolen = tuple(
        (card if card is not None else next(hidden[back]), source)
        for back, source, card in view.stolen
    )
    decks = {
        kind: tuple(next(hidden[kind]) for _ in range(view.deck_sizes.get(kind, 0)))
        for kind in _BACKS
    }
    return hands, stolen, decks


def deal_shuffled(view: View, pools: dict[CardKind, list[CardId]], rng: random.Random) -> Dealt:
    """`deal` from copies of ``pools``, each shuffled by ``rng`` in turn (``pools`` stay as
    they are)."""
    shuffled = {kind: pool.copy() for kind, pool in pools.items()}
    for pool in shuffled.values():
        shuffle(rng, pool)  # rng.shuffle(pool): see chance
    return deal(view, {kind: iter(pool) for kind, pool in shuffled.items()})
