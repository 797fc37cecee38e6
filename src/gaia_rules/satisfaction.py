"""The one mechanism that settles every change to the world (spec 10, 12).

A rule that changes the world (a tile placed, animals placed or removed, a city placed,
every Power effect) does it in three steps:

1. it changes ``table.tiles``, ``table.tokens`` or ``table.cities`` and nothing else,
   leaving ``table.satisfaction`` as it was: that dict *is* the record of every city's
   satisfaction before the change (10.1a). A rule that moves a city (an Earthquake) moves
   its record with it, and a rule that removes one (Lightning, Eruption) calls
   :func:`discard_city`;
2. it calls :func:`settle` with the squares it touched and the player to credit;
3. :func:`settle` does the rest of 10.1: discards the cities that fell to 0 until none
   does, compares every city near the change with its record (net), settles the
   decreases, then credits the increases.

No rule moves a pawn on a city in any other way. The advanced rules (stealing, the four
needs, spec 12) are two branches here, not a second mechanism.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from gaia_rules import constructors
from gaia_rules.cards import CityCard
from gaia_rules.decisions import ChoosePawnCities
from gaia_rules.ending import win_if_supply_empty
from gaia_rules.events import (
    CityDiscarded,
    CityTaken,
    PawnReturned,
)
from gaia_rules.rules import FourNeedDrop, Level, Rules
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Pos
from gaia_rules.world import needs_met, neighbours

__all__ = ["discard_city", "pawn_counts", "pawns_wanted", "settle", "take_city"]

FOUR_NEEDS: Final = 4

# hot path: members as module constants (see `gaia_rules.vocabulary`)
_EMPTY_AT_TWO: Final = FourNeedDrop.EMPTY_AT_TWO
_ADVANCED: Final = Level.ADVANCED
_LIFE: Final = CardKind.LIFE


def _advanced(rules: Rules) -> bool:
    """``rules.advanced_rules``: stealing and four needs apply. Hot path: asked at about every
    third decision, where the property is interpreted code."""
    return rules.level >= _ADVANCED


def settle(table: Table, touched: Iterable[Pos], credited: int) -> None:
    """Settle one change that touched the squares ``touched`` (spec 10.1).

    ``credited`` is the player whose action or feeding caused the change (10.1f).
    """
    touched = tuple(touched)
    table.world_changed(touched)
    discarded: list[Pos] = []
    watch: set[Pos] = set()
    for square in touched:
        _watch_around(table, square, watch)
    if not watch:  # no city on or beside the change: no satisfaction moves
        return
    after: dict[Pos, int] = {}
    # (c) discard every city at 0, until none is: an uncovered tile can only raise others,
    # but the loop does not rely on that.
    faces = table.cards._faces  # the manifest's own dict (`Manifest.city` without the call)
    while watch:
        for pos in watch:
            city = faces[table.cities[pos]]
            assert isinstance(city, CityCard)
            after[pos] = needs_met(table, pos, city)
        watch = set()
        for pos in sorted((p for p, met in after.items() if met == 0)):
            discard_city(table, pos)
            discarded.append(pos)
            del after[pos]
            _watch_around(table, pos, watch)
        watch &= table.cities.keys()  # two neighbours may both have fallen to 0
    # (d) net comparison with the record, (e) decreases first, (f) then increases.
    raised: list[Pos] = []
    for pos in sorted(after):
        before, now = table.satisfaction.get(pos, 0), after[pos]
        table.satisfaction[pos] = now
        if now == before:
            continue
        table.cities_changed()
        table.emit(constructors.satisfaction_changed(pos, before, now))
        if now < before:
            _decrease(table, pos, now)
        else:
            raised.append(pos)
            if now == FOUR_NEEDS:
                table.reached_four.add(pos)
    if discarded:
        table.world_changed(discarded)
    if raised:
        _credit(table, credited, raised)


def _watch_around(table: Table, square: Pos, watch: set[Pos]) -> None:
    """Add the cities on ``square`` and its neighbours to ``watch``."""
    if square in table.cities:
        watch.add(square)
    for near in neighbours(square):
        if near in table.cities:
            watch.add(near)


def _return_pawns(table: Table, pos: Pos, count: int | None = None) -> None:
    """Return ``count`` pawns (all when ``None``) from a city to their owners (10.3, 12)."""
    pawns = table.pawns[pos]
    keep = 0 if count is None else len(pawns) - count
    for player in pawns[keep:]:
        table.supply[player] += 1
        table.emit(PawnReturned(player, pos))
    table.pawns[pos] = pawns[:keep]
    table.cities_changed()


def discard_city(table: Table, pos: Pos) -> None:
    """A city leaves the world: its pawns return, its card is discarded face up, its tile
    uncovers (spec 10.3; Lightning 14, Eruption 14)."""
    before = table.satisfaction.pop(pos, 0)
    if before:
        table.emit(constructors.satisfaction_changed(pos, before, 0))
    _return_pawns(table, pos)
    card = table.cities.pop(pos)
    del table.pawns[pos]
    table.cities_changed()
    table.reached_four.discard(pos)
    table.discard(_LIFE, card)
    table.emit(CityDiscarded(card, pos))


def _decrease(table: Table, pos: Pos, now: int) -> None:
    """A city below its record (spec 10.3, 12.4).

    At 1 need every pawn returns and the city stays, empty. In the basic game a city left at
    2 or more keeps its pawns. In the advanced game an owner's second pawn returns when the
    city falls below four needs, and under EMPTY_AT_TWO a city that reached four needs and
    has not been emptied since loses every pawn at two.
    """
    rules = table.rules
    empty_at_two = rules.four_need_drop is _EMPTY_AT_TWO
    if now <= 1 or (empty_at_two and now == 2 and pos in table.reached_four):
        _return_pawns(table, pos)
        table.reached_four.discard(pos)  # emptied: it must reach four again to count
    elif _advanced(rules) and len(table.pawns[pos]) > 1:
        _return_pawns(table, pos, len(table.pawns[pos]) - 1)


def pawns_wanted(table: Table, player: int, pos: Pos) -> int:
    """How many more pawns of ``player`` a city he raised takes (spec 10.4, 12.1, 12.3).

    One pawn per player per city; in the advanced game two at four needs. A rival owner's
    pawns do not count: they return when he takes the city (:func:`take_city`).
    """
    if pos not in table.cities:
        return 0
    advanced = _advanced(table.rules)
    target = 2 if advanced and table.satisfaction[pos] == FOUR_NEEDS else 1
    return max(0, target - table.pawns[pos].count(player))


def take_city(table: Table, player: int, pos: Pos, count: int) -> None:
    """Put ``count`` pawns of ``player`` on a city he raised; in the advanced game a rival
    owner's pawns return first (stealing, spec 12.1). Stops at once if he wins (15.1)."""
    rivals = tuple(p for p in table.pawns[pos] if p != player)
    if _advanced(table.rules) and rivals:
        _return_pawns(table, pos)  # a steal does not empty the city: its mark stays (12.4)
        table.emit(CityTaken(player, pos, rivals[0]))
    for _ in range(count):
        table.supply[player] -= 1
        table.pawns[pos] = (*table.pawns[pos], player)
        table.cities_changed()
        table.emit(constructors.pawn_placed(player, pos))
        if win_if_supply_empty(table, player):
            return


def _credit(table: Table, player: int, raised: list[Pos]) -> None:
    """The credited player must put his pawns on each city he raised (10.4, 12).

    With fewer pawns than those cities want he chooses where his last pawns go (10.5).
    """
    wanted = {pos: pawns_wanted(table, player, pos) for pos in raised}
    cities = [pos for pos in raised if wanted[pos]]
    if sum(wanted.values()) > table.supply[player]:
        table.steps.append(ChoosePawnCities(player, tuple(cities)))
        return
    for pos in cities:
        take_city(table, player, pos, wanted[pos])
        if table.result is not None:
            return


def pawn_counts(met: int, rules: Rules) -> range | tuple[int, ...]:
    """How many pawns a city with ``met`` needs met carries once every change is settled
    (spec 16.6): none below 2; in the basic game one or more (one per player); in the
    advanced game its owner's one pawn, two at four needs (12.3), and under EMPTY_AT_TWO a
    city at two needs may stand empty (12.4)."""
    if met < 2:
        return (0,)
    if not _advanced(rules):
        return range(1, 6)
    if met == FOUR_NEEDS:
        return (2,)
    if met == 2 and rules.four_need_drop is _EMPTY_AT_TWO:
        return (0, 1)
    return (1,)
