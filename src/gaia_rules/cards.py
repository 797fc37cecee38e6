"""Card faces and card ids (spec 2.4-2.9).

A card is named by its stable id (``"N07"``, ``"C12"``, ``"A03"``, ``"P21"``, ``"O05"``);
what is printed on it is its face. Faces are frozen values: two Nature cards of the same
land have equal faces and different ids.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from gaia_rules import hooks
from gaia_rules.vocabulary import ANIMALS, CardKind, Land, Need, Power, Site

__all__ = [
    "BACK_BY_LETTER",
    "AnimalCard",
    "CardId",
    "CityCard",
    "Face",
    "NatureCard",
    "Objective",
    "PowerCard",
    "kind_of",
]

CardId: TypeAlias = str
"""A card's stable id: a letter (N, C, A, P, O) and a two-digit number."""


@attrs.frozen
class NatureCard:
    """A green Nature card: one land (spec 2.4)."""

    land: Land

    def _repr_svg_(self) -> str:
        """The face drawn as a card, for notebooks
        ([`face_svg`][gaia_rules.svg_cards.face_svg])."""
        return hooks.face_svg(self)  # installed by gaia_rules.svg_cards


@attrs.frozen
class CityCard:
    """A blue City card: a name, a site and four distinct needs (spec 2.5a)."""

    name: str
    site: Site
    needs: tuple[Need, ...]

    @property
    def needs_animals(self) -> bool:
        """Whether the animal need is one of its needs (spec 11.2)."""
        return ANIMALS in self.needs

    def _repr_svg_(self) -> str:
        """The face drawn as a card, for notebooks
        ([`face_svg`][gaia_rules.svg_cards.face_svg])."""
        return hooks.face_svg(self)  # installed by gaia_rules.svg_cards


@attrs.frozen
class AnimalCard:
    """A blue Animal card: the site its four tokens may go on (spec 2.5b)."""

    site: Site

    def _repr_svg_(self) -> str:
        """The face drawn as a card, for notebooks
        ([`face_svg`][gaia_rules.svg_cards.face_svg])."""
        return hooks.face_svg(self)  # installed by gaia_rules.svg_cards


@attrs.frozen
class PowerCard:
    """A red Power card (spec 2.7)."""

    power: Power

    def _repr_svg_(self) -> str:
        """The face drawn as a card, for notebooks
        ([`face_svg`][gaia_rules.svg_cards.face_svg])."""
        return hooks.face_svg(self)  # installed by gaia_rules.svg_cards


@attrs.frozen
class Objective:
    """An Objective card (spec 2.6).

    A Nature Objective pictures ``lands`` (two pairs, or one of each land); a Power Objective
    asks for ``powers`` Power cards of any kind (four).
    """

    lands: tuple[Land, ...] = ()
    powers: int = 0

    @property
    def is_power(self) -> bool:
        """Whether this is a Power Objective (spec 2.6)."""
        return self.powers > 0

    def _repr_svg_(self) -> str:
        """The face drawn as a card, for notebooks
        ([`face_svg`][gaia_rules.svg_cards.face_svg])."""
        return hooks.face_svg(self)  # installed by gaia_rules.svg_cards


Face: TypeAlias = NatureCard | CityCard | AnimalCard | PowerCard | Objective
"""What is printed on a card."""

BACK_BY_LETTER: dict[str, CardKind] = {
    "N": CardKind.NATURE,
    "C": CardKind.LIFE,
    "A": CardKind.LIFE,
    "P": CardKind.POWER,
}
"""The back of a card that can be held in a hand, by the letter of its id (spec 2.9): what
`kind_of` reads, for the compiled rules, where calling it is a call into interpreted code."""


def kind_of(card: CardId) -> CardKind:
    """The back of a card that can be held in a hand, read from its id (spec 2.9)."""
    return BACK_BY_LETTER[card[0]]
