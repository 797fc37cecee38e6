"""The words of the game: lands, needs, sites, card backs, Powers and squares (spec 2, 3).

Everything here is an enum or a small frozen value, hashable and cheap to compare.

Hot path: a member named through its enum (``Power.SUN``, and the enums of `gaia_rules.rules`
alike) is an attribute look-up on the enum class at every use, and in CPython 3.11 the enum
metaclass defines ``__getattr__``, which slows every look-up on the class: about 80 ns,
interpreted or compiled, where a module constant is read in a few (3.12 dropped that
``__getattr__``). So the rules keep the members they read at every decision as module
constants (``_SUN: Final = Power.SUN``), and compare with those.
"""

from __future__ import annotations

import enum
from typing import NamedTuple, TypeAlias

__all__ = [
    "ANIMALS",
    "LANDS",
    "STAR",
    "Animals",
    "CardKind",
    "Land",
    "Need",
    "Pos",
    "Power",
    "Site",
    "Star",
]


class _Word(enum.Enum):
    """The base of the game's enums.

    Hot path: members are singletons that compare by identity, so they hash by identity
    too; Enum's own ``__hash__`` is a Python-level call, and the rules look lands and card
    backs up in dicts and sets on every decision.
    """

    __hash__ = object.__hash__


class Land(_Word):
    """The six lands of the land tiles and Nature cards (spec 2.1)."""

    DESERT = "desert"
    PLAIN = "plain"
    SWAMP = "swamp"
    SEA = "sea"
    MOUNTAIN = "mountain"
    FOREST = "forest"

    def __repr__(self) -> str:
        return f"Land.{self.name}"


LANDS: tuple[Land, ...] = tuple(Land)
"""The six lands in their canonical order."""


class Animals(_Word):
    """The animal need of a city card (spec 2.5a); its only member is ``ANIMALS``."""

    ANIMALS = "animals"

    def __repr__(self) -> str:
        return "ANIMALS"


class Star(_Word):
    """The star site of a City or Animal card (spec 2.5a, 2.5b); its only member is ``STAR``."""

    STAR = "star"

    def __repr__(self) -> str:
        return "STAR"


ANIMALS = Animals.ANIMALS
"""The animal need of a City card (spec 2.5a): a [`Need`][gaia_rules.vocabulary.Need] that is
not a land."""
STAR = Star.STAR
"""The star site of a City or Animal card (spec 2.5a, 2.5b): a
[`Site`][gaia_rules.vocabulary.Site] that is not a land."""

Need: TypeAlias = Land | Animals
"""A city's need: a land, or animals (spec 3.5)."""

Site: TypeAlias = Land | Star
"""Where a City or Animal card may go: a land, or the star (spec 9.1b, 9.2)."""


class CardKind(_Word):
    """The three card backs a player can hold (spec 2.4, 2.5, 2.7)."""

    NATURE = "nature"
    LIFE = "life"
    POWER = "power"

    def __repr__(self) -> str:
        return f"CardKind.{self.name}"


class Power(_Word):
    """The seven Powers (spec 2.7)."""

    SUN = "sun"
    RAIN = "rain"
    EARTHQUAKE = "earthquake"
    TORNADO = "tornado"
    PROTECTION = "protection"
    LIGHTNING = "lightning"
    ERUPTION = "eruption"

    def __repr__(self) -> str:
        return f"Power.{self.name}"


# Hot path: squares are dict keys everywhere in the rules. As a named tuple a square hashes,
# compares and orders in C, where a Python-level class pays a call for each.
class Pos(NamedTuple):
    """A square of the unbounded square grid (spec 3.1); the first tile goes at ``Pos(0, 0)``.

    An immutable named tuple of its two coordinates ``x`` and ``y``: it unpacks
    (``x, y = pos``), is hashable, and orders by x, then y. It prints as ``Pos(1, 2)``, and as
    ``1,2`` in the notation and in JSON.
    """

    x: int
    y: int

    def neighbours(self) -> tuple[Pos, Pos, Pos, Pos]:
        """The four orthogonal squares, never the diagonals (spec 3.1)."""
        # Hot path: memoised, because satisfaction, the free tiles and the frontier ask for
        # the same few dozen squares thousands of times per game.
        found = _NEIGHBOURS.get(self)
        if found is None:
            x, y = self.x, self.y
            found = _NEIGHBOURS[self] = (Pos(x, y - 1), Pos(x + 1, y), Pos(x, y + 1), Pos(x - 1, y))
        return found

    def __repr__(self) -> str:
        return f"Pos({self.x}, {self.y})"

    def __str__(self) -> str:
        return f"{self.x},{self.y}"


_NEIGHBOURS: dict[Pos, tuple[Pos, Pos, Pos, Pos]] = {}
"""The neighbours of every square asked about so far."""
