"""Actions: every choice a player makes, as a frozen value naming its player (spec 5.4).

Each action names the seat that takes it, so a server can refuse an action sent for the
wrong seat. ``str(action)`` is its notation (see
[`gaia_rules.notation`][gaia_rules.notation]).
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from gaia_rules import hooks
from gaia_rules.cards import CardId
from gaia_rules.vocabulary import CardKind, Pos
from gaia_rules.wire import Wire

__all__ = [
    "Action",
    "DeclineObjectives",
    "Discard",
    "DrawDeck",
    "DrawDisplay",
    "Feed",
    "FulfillObjective",
    "KeepCard",
    "NameBack",
    "PassProtection",
    "PlaceCityPawn",
    "PlayAnimals",
    "PlayCity",
    "PlayEarthquake",
    "PlayEruption",
    "PlayLightning",
    "PlayNature",
    "PlayRain",
    "PlaySun",
    "PlayTornado",
    "PowerPlay",
    "Protect",
]


class _Notated(Wire):
    """Gives every action its notation as ``str(action)``, and its JSON."""

    __slots__ = ()

    def __str__(self) -> str:
        return hooks.format_action(self)  # type: ignore[arg-type]  # installed by notation


@attrs.frozen
class DrawDisplay(_Notated):
    """Take a face-up card from its display (spec 6.1)."""

    player: int
    card: CardId


@attrs.frozen
class DrawDeck(_Notated):
    """Draw the top card of a deck, or end the game by drawing from an exhausted kind (6.1, 6.3)."""

    player: int
    kind: CardKind


@attrs.frozen
class PlayNature(_Notated):
    """Play a Nature card and put its tile on a square (spec 7)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class PlayAnimals(_Notated):
    """Play an Animal card: four tokens on a free tile (spec 9.1)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class PlayCity(_Notated):
    """Play a City card on a free tile (spec 9.2, 9.3)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class Feed(_Notated):
    """Feed the city at ``city`` one token from its neighbour ``source`` (spec 11.3)."""

    player: int
    city: Pos
    source: Pos


@attrs.frozen
class Discard(_Notated):
    """Discard a card from hand to meet the hand or Power limit (spec 6.5)."""

    player: int
    card: CardId


@attrs.frozen
class FulfillObjective(_Notated):
    """Fulfil an available Objective with the cards in front of the player (spec 8.2)."""

    player: int
    objective: CardId


@attrs.frozen
class DeclineObjectives(_Notated):
    """Decline the Objectives offered now (only with optional Objectives, spec 8.4)."""

    player: int


@attrs.frozen
class PlaceCityPawn(_Notated):
    """Put one of the player's last pawns on a city he raised (spec 10.5)."""

    player: int
    city: Pos


@attrs.frozen
class PlaySun(_Notated):
    """Play a Sun on a tile: swamp to plain, or plain to desert (spec 13.4)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class PlayRain(_Notated):
    """Play a Rain on a tile: desert to plain, or plain to swamp (spec 13.5)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class PlayEarthquake(_Notated):
    """Play an Earthquake: swap two edge-adjacent tiles, ``first`` before ``second`` (13.7)."""

    player: int
    card: CardId
    first: Pos
    second: Pos


@attrs.frozen
class PlayTornado(_Notated):
    """Play a Tornado: steal a card from each other player holding cards (spec 13.8)."""

    player: int
    card: CardId


@attrs.frozen
class PlayLightning(_Notated):
    """Play a Lightning on a tile: its city and tokens go (spec 14.2)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class PlayEruption(_Notated):
    """Play an Eruption on a mountain (spec 14.3)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class Protect(_Notated):
    """Play Protection out of turn and cancel the Power just played (spec 13.9)."""

    player: int
    card: CardId


@attrs.frozen
class PassProtection(_Notated):
    """Let the Power just played take effect (spec 13.9b, 13.9c)."""

    player: int


@attrs.frozen
class NameBack(_Notated):
    """Name the back of the card the Tornado takes from ``victim`` (spec 13.8a)."""

    player: int
    victim: int
    kind: CardKind


@attrs.frozen
class KeepCard(_Notated):
    """Keep one of the cards stolen by the Tornado; the rest are discarded (spec 13.8c)."""

    player: int
    card: CardId


PowerPlay: TypeAlias = (
    PlaySun | PlayRain | PlayEarthquake | PlayTornado | PlayLightning | PlayEruption
)
"""Playing a Power card as a turn's action."""

Action: TypeAlias = (
    DrawDisplay
    | DrawDeck
    | PlayNature
    | PlayAnimals
    | PlayCity
    | Feed
    | Discard
    | FulfillObjective
    | DeclineObjectives
    | PlaceCityPawn
    | PlaySun
    | PlayRain
    | PlayEarthquake
    | PlayTornado
    | PlayLightning
    | PlayEruption
    | Protect
    | PassProtection
    | NameBack
    | KeepCard
)
"""Any action."""
