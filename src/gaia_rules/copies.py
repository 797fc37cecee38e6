"""Copies of one face: one choice, and which copy moves (spec 1.12, 1.13).

Copies of one face are the same card to the rules and to every player (1.11). A choice
between copies of one face in one place is one choice: the legal actions list it once
(`distinct`), an action naming another copy of that face in the same place is that choice
(`listed` turns it into the listed action), and the engine moves the copy 1.13 names: from a
hand, the one that has been there longest (`first_copy`); from a display, the leftmost one
(`display_copy`). Both look at the order the cards came to their place, never at their ids.

A game replayed from a record written before 1.12 (format 1) keeps that record's meaning: the
copy its actions name is the one that moves (``Table.named_copies``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Final

import attrs

from gaia_rules.actions import (
    Action,
    Discard,
    DrawDisplay,
    PlayAnimals,
    PlayCity,
    PlayEarthquake,
    PlayEruption,
    PlayLightning,
    PlayNature,
    PlayRain,
    PlaySun,
    PlayTornado,
    Protect,
)
from gaia_rules.cards import CardId
from gaia_rules.table import Table

__all__ = ["display_copy", "distinct", "first_copy", "in_display", "listed"]

_FROM_HAND: Final = (
    PlayNature,
    PlayAnimals,
    PlayCity,
    PlaySun,
    PlayRain,
    PlayEarthquake,
    PlayTornado,
    PlayLightning,
    PlayEruption,
    Protect,
    Discard,
)
"""The actions that move a card of their player's hand, which they name."""


def distinct(cards: tuple[CardId, ...], face_ids: Mapping[CardId, CardId]) -> tuple[CardId, ...]:
    """The first copy of each face among ``cards``, in their order (spec 1.12, 1.13).

    Hot path: asked of the hand at every turn's action (once, for its Nature, Life and Power
    cards: `flow.options`), and a hand changes about once a turn, so the answer is kept by
    the cards (a pure function of them, for one manifest's face ids: the table is cleared
    when the face ids change, which only tests and other editions do). The last answer is
    kept apart and found by identity, without hashing the hand, for a caller that asks of
    the same tuple again; and a hand holding no two copies of a face (most hands) is its
    own answer."""
    known = _DISTINCT
    if cards is known.last and known.face_ids is face_ids:
        return known.last_found  # the hand asked of just before (the same tuple)
    if known.face_ids is not face_ids or len(known.found) >= _DISTINCT_KEPT:
        known.start(face_ids)
    # Most hands hold no two copies of a face and are their own answer. Only a card whose
    # face has other copies can meet its face again, so only those are looked up, and the
    # loop stops at the first face met twice. Compiled, the loop runs in C, where the set's
    # `isdisjoint` and `set(map(face_ids.__getitem__, cards))` it replaces were generic calls.
    copied = known.copied
    faces: set[CardId] = set()
    own = True
    for card in cards:
        if card in copied:
            face = face_ids[card]
            if face in faces:
                own = False
                break
            faces.add(face)
    if own:
        found = cards
    else:
        kept = known.found.get(cards)
        if kept is None:
            seen: set[CardId] = set()
            firsts: list[CardId] = []
            for card in cards:
                face = face_ids[card]
                if face not in seen:
                    seen.add(face)
                    firsts.append(card)
            kept = known.found[cards] = tuple(firsts)
        found = kept
    known.last, known.last_found = cards, found
    return found


class _Known:
    """The answers of `distinct` kept so far, and the face ids they hold for."""

    __slots__ = ("copied", "face_ids", "found", "last", "last_found")

    def __init__(self) -> None:
        self.face_ids: Mapping[CardId, CardId] | None = None
        self.copied: frozenset[CardId] = frozenset()
        self.found: dict[tuple[CardId, ...], tuple[CardId, ...]] = {}
        self.last: tuple[CardId, ...] | None = None
        self.last_found: tuple[CardId, ...] = ()

    def start(self, face_ids: Mapping[CardId, CardId]) -> None:
        """Start afresh for ``face_ids``: no answer kept, and the cards whose face has
        another copy found."""
        copies = Counter(face_ids.values())
        self.face_ids, self.found, self.last = face_ids, {}, None
        self.copied = frozenset(card for card, face in face_ids.items() if copies[face] > 1)


_DISTINCT: Final = _Known()
_DISTINCT_KEPT: Final = 8192


def first_copy(
    cards: Iterable[CardId], card: CardId, face_ids: Mapping[CardId, CardId]
) -> CardId | None:
    """The first of ``cards`` with the face of ``card``, or ``None`` (spec 1.13)."""
    face = face_ids.get(card)
    for held in cards:
        if face_ids[held] == face:
            return held
    return None


def in_display(table: Table, card: CardId, display: tuple[CardId, ...]) -> bool:
    """Whether a draw naming ``card`` takes a card of ``display``: ``card`` is face up there,
    or is the face id of a card face up there (spec 1.12)."""
    if card in display:
        return True
    face_ids = table.cards.face_ids
    return any(face_ids[shown] == card for shown in display)


def display_copy(table: Table, card: CardId, display: tuple[CardId, ...]) -> CardId:
    """The card a legal draw naming ``card`` takes from ``display``: the leftmost copy of its
    face (spec 1.13), or, replaying a record of format 1, ``card`` itself."""
    if table.named_copies and card in display:
        return card
    found = first_copy(display, card, table.cards.face_ids)
    assert found is not None, card
    return found


def listed(table: Table, action: Action) -> Action:
    """The legal action listed for the choice ``action`` makes (spec 1.12): a draw from a
    display named by the face id, a card of a hand by the copy that moves (1.13). Replaying a
    record of format 1, an action naming a card of a hand stays as it is."""
    if type(action) is DrawDisplay:
        if table.named_copies and any(action.card in d for d in table.displays.values()):
            return action
        face = table.cards.face_ids[action.card]
        return action if face == action.card else DrawDisplay(action.player, face)
    if isinstance(action, _FROM_HAND) and not table.named_copies:
        card: CardId = action.card
        copy = first_copy(table.hands[action.player], card, table.cards.face_ids)
        if copy is not None and copy != card:
            return attrs.evolve(action, card=copy)
    return action
