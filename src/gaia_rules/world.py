"""The world: squares, neighbours, free tiles and city satisfaction (spec 3).

These are queries only; the changes to the world live with the rules that make them
and are all settled by :mod:`gaia_rules.satisfaction`.
"""

from __future__ import annotations

import functools
from typing import Final

from gaia_rules.cards import CityCard
from gaia_rules.squares import neighbours
from gaia_rules.table import Table
from gaia_rules.vocabulary import ANIMALS, LANDS, Land, Need, Pos

__all__ = [
    "NEED_BITS",
    "ORIGIN",
    "count_met",
    "free_tiles",
    "is_free",
    "need_bits",
    "needs_met",
    "neighbours",
    "offered",
    "offered_bits",
    "surroundings",
    "tile_squares",
]

ORIGIN: Final = Pos(0, 0)
"""Where the first tile of the game goes (spec 3.1, 7.2)."""


def tile_squares(table: Table) -> list[Pos]:
    """The squares that hold tiles, sorted (kept while the world holds as many tiles)."""
    memo = table.world_memo()
    if memo.tile_squares is None:
        memo.tile_squares = sorted(table.tiles)
    return memo.tile_squares


def is_free(table: Table, pos: Pos) -> bool:
    """A tile in play with no city and no animal tokens (spec 3.3)."""
    return pos in table.tiles and pos not in table.cities and pos not in table.tokens


def free_tiles(table: Table) -> dict[Land, frozenset[Pos]]:
    """The free tiles (3.3) of each land, kept with the world (see ``WorldMemo``)."""
    memo = table.world_memo()
    if memo.free is None:
        tiles = table.tiles
        memo.free = {
            land: frozenset(pos for pos in tiles if tiles[pos] is land and is_free(table, pos))
            for land in LANDS
        }
    return memo.free


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


_NEEDS: Final[tuple[Need, ...]] = (*LANDS, ANIMALS)
NEED_BITS: Final[dict[Need, int]] = {need: 1 << bit for bit, need in enumerate(_NEEDS)}
"""One bit per need, for counting the needs a square offers with integer operations."""


@functools.cache
def need_bits(needs: tuple[Need, ...]) -> int:
    """The bits of ``needs`` (``NEED_BITS``). Hot path: cached, as it is asked of the same
    few dozen City cards at every change of the world."""
    bits = 0
    for need in needs:
        bits |= NEED_BITS[need]
    return bits


_ANIMALS_BIT: Final = NEED_BITS[ANIMALS]


def offered_bits(table: Table, pos: Pos) -> int:
    """:func:`offered` as bits: ``(offered_bits(t, p) & need_bits(needs)).bit_count()`` is
    how many of ``needs`` a city at ``p`` would meet (spec 3.5).

    Hot path: spelled out with integer operations rather than through :func:`offered`,
    which builds two sets."""
    tiles, cities, tokens = table.tiles, table.cities, table.tokens
    bits = 0
    for square in neighbours(pos):
        land = tiles.get(square)
        if land is None:
            continue
        if square not in cities:
            bits |= NEED_BITS[land]
        if square in tokens:
            bits |= _ANIMALS_BIT
    return bits


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
    return (offered_bits(table, pos) & need_bits(city.needs)).bit_count()
