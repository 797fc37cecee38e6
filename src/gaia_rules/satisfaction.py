"""The one mechanism that settles every change to the world (spec 10).

A rule that changes the world (a tile placed, animals placed or removed, a city placed,
and later every Power effect) does it in three steps:

1. it changes ``table.tiles``, ``table.tokens`` or ``table.cities`` and nothing else,
   leaving ``table.satisfaction`` as it was: that dict *is* the record of every city's
   satisfaction before the change (10.1a);
2. it calls :func:`settle` with the squares it touched and the player to credit;
3. :func:`settle` does the rest of 10.1: discards the cities that fell to 0 until none
   does, compares every city near the change with its record (net), settles the
   decreases, then credits the increases.

No rule moves a pawn on a city, or discards a city, in any other way.
"""

from __future__ import annotations

from collections.abc import Iterable

from gaia_rules.decisions import ChoosePawnCities
from gaia_rules.ending import win_if_supply_empty
from gaia_rules.events import CityDiscarded, PawnPlaced, PawnReturned, SatisfactionChanged
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Pos
from gaia_rules.world import needs_met, neighbours

__all__ = ["cities_taking_a_pawn", "place_pawn", "settle"]


def settle(table: Table, touched: Iterable[Pos], credited: int) -> None:
    """Settle one change that touched the squares ``touched`` (spec 10.1).

    ``credited`` is the player whose action or feeding caused the change (10.1f).
    """
    watch: set[Pos] = set()
    for square in touched:
        _watch_around(table, square, watch)
    after: dict[Pos, int] = {}
    # (c) discard every city at 0, until none is: an uncovered tile can only raise others,
    # but the loop does not rely on that.
    while watch:
        for pos in watch:
            after[pos] = needs_met(table, pos, table.cards.city(table.cities[pos]))
        watch = set()
        for pos in sorted(p for p, met in after.items() if met == 0):
            _discard_city(table, pos, table.satisfaction.get(pos, 0))
            del after[pos]
            _watch_around(table, pos, watch)
    # (d) net comparison with the record, (e) decreases first, (f) then increases.
    raised: list[Pos] = []
    for pos in sorted(after):
        before, now = table.satisfaction.get(pos, 0), after[pos]
        table.satisfaction[pos] = now
        if now == before:
            continue
        table.emit(SatisfactionChanged(pos, before, now))
        if now < before:
            _decrease(table, pos, now)
        else:
            raised.append(pos)
    if raised:
        _credit(table, credited, raised)


def _watch_around(table: Table, square: Pos, watch: set[Pos]) -> None:
    """Add the cities on ``square`` and its neighbours to ``watch``."""
    if square in table.cities:
        watch.add(square)
    for near in neighbours(square):
        if near in table.cities:
            watch.add(near)


def _return_pawns(table: Table, pos: Pos) -> None:
    for player in table.pawns[pos]:
        table.supply[player] += 1
        table.emit(PawnReturned(player, pos))
    table.pawns[pos] = ()


def _discard_city(table: Table, pos: Pos, before: int) -> None:
    """A city at 0 needs: its pawns return, it is discarded, its tile uncovers (10.3)."""
    table.emit(SatisfactionChanged(pos, before, 0))
    _return_pawns(table, pos)
    card = table.cities.pop(pos)
    del table.pawns[pos]
    table.satisfaction.pop(pos, None)
    table.discards[CardKind.LIFE] += (card,)
    table.emit(CityDiscarded(card, pos))


def _decrease(table: Table, pos: Pos, now: int) -> None:
    """At 1 need every pawn returns and the city stays, empty; at 2 or more nothing (10.3)."""
    if now <= 1:
        _return_pawns(table, pos)


def cities_taking_a_pawn(table: Table, player: int, cities: Iterable[Pos]) -> list[Pos]:
    """The raised cities that would take a pawn of ``player``: one per player per city (10.4)."""
    return [pos for pos in cities if pos in table.cities and player not in table.pawns[pos]]


def place_pawn(table: Table, player: int, pos: Pos) -> None:
    """Put a pawn of ``player`` from his supply on the city at ``pos`` (10.4)."""
    table.supply[player] -= 1
    table.pawns[pos] = (*table.pawns[pos], player)
    table.emit(PawnPlaced(player, pos))


def _credit(table: Table, player: int, raised: list[Pos]) -> None:
    """The credited player must put a pawn on each city he raised (10.4).

    With fewer pawns than such cities he chooses where his last pawns go (10.5).
    """
    cities = cities_taking_a_pawn(table, player, raised)
    if len(cities) > table.supply[player]:
        table.steps.append(ChoosePawnCities(player, tuple(cities)))
        return
    for pos in cities:
        place_pawn(table, player, pos)
        if win_if_supply_empty(table, player):
            return
