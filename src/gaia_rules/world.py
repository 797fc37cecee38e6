"""The world: squares, neighbours, free tiles and city satisfaction (spec 3).

These are queries only; the changes to the world live with the rules that make them
and are all settled by :mod:`gaia_rules.satisfaction`.
"""

from __future__ import annotations

from collections.abc import Iterable

from gaia_rules.cards import CityCard
from gaia_rules.table import Table
from gaia_rules.vocabulary import ANIMALS, LANDS, Land, Need, Pos

__all__ = [
    "NEED_BITS",
    "ORIGIN",
    "count_met",
    "is_free",
    "need_bits",
    "needs_met",
    "neighbours",
    "offered",
    "offered_bits",
    "surroundings",
]

ORIGIN = Pos(0, 0)
"""Where the first tile of the game goes (spec 3.1, 7.2)."""

neighbours = Pos.neighbours
"""The four orthogonal squares of a square (spec 3.1): ``neighbours(pos)`` is
``pos.neighbours()``."""


def is_free(table: Table, pos: Pos) -> bool:
    """A tile in play with no city and no animal tokens (spec 3.3)."""
    return pos in table.tiles and pos not in table.cities and pos not in table.tokens


def surroundings(table: Table, pos: Pos) -> tuple[set[Land], bool]:
    """What the four neighbours of ``pos`` offer a city there: the uncovered lands, and whether
    any carries tokens (spec 3.5). The city's own square never counts."""
    tiles, cities, tokens = table.tiles, table.cities, table.tokens
    lands: set[Land] = set()
    animals = False
    for square in neighbours(pos):
        land = tiles.get(square)
        if land is None:
            continue
        if square not in cities:
            lands.add(land)
        if square in tokens:
            animals = True
    return lands, animals


def offered(table: Table, pos: Pos) -> frozenset[Need]:
    """Every need the four neighbours of ``pos`` would meet for a city there (spec 3.5):
    the uncovered lands, and ``ANIMALS`` when a neighbour carries tokens. A city's needs
    are distinct (2.5a), so it meets ``len(offered & needs)`` of them."""
    lands, animals = surroundings(table, pos)
    return frozenset((*lands, ANIMALS) if animals else lands)


_NEEDS: tuple[Need, ...] = (*LANDS, ANIMALS)
NEED_BITS: dict[Need, int] = {need: 1 << bit for bit, need in enumerate(_NEEDS)}
"""One bit per need, for counting the needs a square offers with integer operations."""


def need_bits(needs: Iterable[Need]) -> int:
    """The bits of ``needs`` (``NEED_BITS``)."""
    bits = 0
    for need in needs:
        bits |= NEED_BITS[need]
    return bits


def offered_bits(table: Table, pos: Pos) -> int:
    """:func:`offered` as bits: ``(offered_bits(t, p) & need_bits(needs)).bit_count()`` is
    how many of ``needs`` a city at ``p`` would meet (spec 3.5)."""
    lands, animals = surroundings(table, pos)
    return need_bits((*lands, ANIMALS) if animals else lands)


def count_met(needs: tuple[Need, ...], lands: set[Land], animals: bool) -> int:
    """How many of ``needs`` the given surroundings meet (spec 3.5, 3.6)."""
    met = 0
    for need in needs:
        if need is ANIMALS:
            met += animals
        elif need in lands:
            met += 1
    return met


def needs_met(table: Table, pos: Pos, city: CityCard) -> int:
    """How many of ``city``'s needs its four neighbours meet if it stands at ``pos`` (3.5, 3.6).

    A land need is met by an uncovered neighbour of that land, the animal need by a
    neighbour carrying tokens; the city's own square never counts.
    """
    lands, animals = surroundings(table, pos)
    return count_met(city.needs, lands, animals)
