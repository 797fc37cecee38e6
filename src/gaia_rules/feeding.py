"""Hunting and feeding, before the turn's first action (spec 11)."""

from __future__ import annotations

from typing import Final

from gaia_rules import constructors
from gaia_rules.actions import Action, Feed
from gaia_rules.decisions import ChooseFeeding
from gaia_rules.refusal import Refusal
from gaia_rules.rules import Feeding
from gaia_rules.satisfaction import settle
from gaia_rules.table import Table
from gaia_rules.vocabulary import Pos
from gaia_rules.world import neighbours

__all__ = ["begin_feeding", "feed", "feeding_options", "refuse_feed"]

# hot path: members as module constants (see `gaia_rules.vocabulary`)
_EVERY_CITY: Final = Feeding.EVERY_CITY


def _qualifies(table: Table, player: int, pos: Pos) -> bool:
    """A city with the animal need that this player feeds (spec 11.2)."""
    card = table.cities.get(pos)
    # hot path: the manifest's own set (`Manifest.needs_animals` without the call)
    if card is None or card not in table.cards._needing_animals:
        return False
    return table.rules.feeding is _EVERY_CITY or player in table.pawns[pos]


def begin_feeding(table: Table, player: int) -> None:
    """Fix the list of cities to feed this turn (spec 11.1, 11.2)."""
    cities = tuple(sorted(pos for pos in table.cities if _qualifies(table, player, pos)))
    if cities:
        table.steps.append(constructors.choose_feeding(player, cities))


def _sources(table: Table, city: Pos) -> list[Pos]:
    """The neighbours of a city that carry tokens (spec 11.3)."""
    return [near for near in neighbours(city) if near in table.tokens]


def feeding_options(table: Table, decision: ChooseFeeding) -> list[Action]:
    """Each city still to be fed that still qualifies, from each neighbour with tokens; a city
    with no tokens next to it is skipped (spec 11.2-11.4)."""
    player = decision.player
    return [
        constructors.feed(player, city, source)
        for city in decision.cities
        if _qualifies(table, player, city)
        for source in _sources(table, city)
    ]


def refuse_feed(table: Table, decision: ChooseFeeding, action: Feed) -> Refusal | None:
    """Why a feeding is not legal now, or ``None`` (spec 11.2, 11.3)."""
    if action.city not in decision.cities or not _qualifies(table, action.player, action.city):
        return Refusal("11.2", f"there is no city at {action.city} to feed this turn")
    if action.source not in _sources(table, action.city):
        return Refusal("11.3", f"{action.source} is not a neighbour of {action.city} with tokens")
    return None


def feed(table: Table, decision: ChooseFeeding, action: Feed) -> None:
    """One token from the source back to the bank; that removal is one change (spec 11.3)."""
    remaining = tuple(city for city in decision.cities if city != action.city)
    if remaining:
        table.steps.append(constructors.choose_feeding(decision.player, remaining))
    left = table.tokens[action.source] - 1
    if left:
        table.tokens[action.source] = left
    else:
        del table.tokens[action.source]
    table.bank += 1
    table.emit(constructors.tokens_returned(action.source, 1))
    settle(table, (action.source,), credited=action.player)
