"""Dealing the cards a seat cannot see into a game that shows its view: the other hands, then
the stolen cards the seat cannot see, then the decks (see `gaia_rules.determinize`).

Hot path: a search deals a sample at every playout. This lives apart from `determinize`, whose
`Determinizer` and `determinize` are public and keep their docstrings, so that the compiled
build (``scripts/build_compiled.py``) compiles it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
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


def deal(view: View, hidden: Mapping[CardKind, Sequence[CardId]]) -> Dealt:
    """The hands, stolen cards and decks of a game showing ``view``, the hidden cards dealt
    from the front of ``hidden`` by back: the other hands, then the stolen cards, then the
    decks."""
    # Hot path: plain loops over positions in the pools, each field of the view read once;
    # compiled, generator expressions are objects of their own, `next` on an iterator is a
    # generic call, and each read of a field is an attribute look-up
    seat, own = view.seat, view.hand
    dealt: dict[CardKind, int] = {}  # how many cards of each back are dealt so far
    hands: list[tuple[CardId, ...]] = []
    for other, backs in enumerate(view.hand_backs):
        if other == seat:
            hands.append(own)
            continue
        hand: list[CardId] = []
        for back in backs:
            at = dealt.get(back, 0)
            hand.append(hidden[back][at])
            dealt[back] = at + 1
        hands.append(tuple(hand))
    stolen: list[tuple[CardId, int]] = []
    for back, source, seen in view.stolen:
        if seen is None:
            at = dealt.get(back, 0)
            stolen.append((hidden[back][at], source))
            dealt[back] = at + 1
        else:
            stolen.append((seen, source))
    sizes = view.deck_sizes
    decks: dict[CardKind, tuple[CardId, ...]] = {}
    for kind in _BACKS:
        size = sizes.get(kind, 0)
        at = dealt.get(kind, 0)
        # a back not in play has no pool
        decks[kind] = tuple(hidden[kind][at : at + size]) if size else ()
    return tuple(hands), tuple(stolen), decks


def deal_shuffled(view: View, pools: dict[CardKind, list[CardId]], rng: random.Random) -> Dealt:
    """`deal` from copies of ``pools``, each shuffled by ``rng`` in turn (``pools`` stay as
    they are)."""
    hidden: dict[CardKind, list[CardId]] = {}
    for kind, pool in pools.items():
        shuffled = pool.copy()
        shuffle(rng, shuffled)  # rng.shuffle(shuffled): see chance
        hidden[kind] = shuffled
    return deal(view, hidden)
