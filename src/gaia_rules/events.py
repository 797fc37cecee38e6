"""Events: the typed record of every change a game goes through.

``game.apply(action)`` returns the events its action caused, and ``game.events`` is the
whole (omniscient) log. An event that carries a card hidden from some seats (a card drawn
from a deck) is redacted for them by ``game.events_for(seat)``.
"""

from __future__ import annotations

import enum
from typing import TypeAlias

import attrs

from gaia_rules.actions import Action
from gaia_rules.cards import CardId
from gaia_rules.vocabulary import CardKind, Land, Pos
from gaia_rules.wire import Wire

__all__ = [
    "ActionTaken",
    "AnimalsPlaced",
    "CardDiscarded",
    "CardDrawn",
    "CardKept",
    "CardStolen",
    "CityDiscarded",
    "CityPlaced",
    "CityTaken",
    "DisplayRefilled",
    "EndReason",
    "Event",
    "GameEnded",
    "NatureCardPlayed",
    "ObjectiveFulfilled",
    "PawnPlaced",
    "PawnReturned",
    "PowerCancelled",
    "PowerPlayed",
    "Result",
    "SatisfactionChanged",
    "StolenCardsSeen",
    "TilePlaced",
    "TileReplaced",
    "TilesSwapped",
    "TokensReturned",
    "TurnBegan",
]


class EndReason(enum.Enum):
    """Why a game ended (spec 15)."""

    ALL_PAWNS_PLACED = "all_pawns_placed"
    """A player placed his last pawn (spec 15.1)."""
    EXHAUSTION = "exhaustion"
    """A player chose to draw from an exhausted kind (spec 15.2)."""

    def __repr__(self) -> str:
        return f"EndReason.{self.name}"


@attrs.frozen
class Result(Wire):
    """How a game ended: the winner, why, the pawns each seat had placed, and who ended it."""

    winner: int
    reason: EndReason
    pawns_placed: tuple[int, ...]
    ended_by: int


@attrs.frozen
class TurnBegan(Wire):
    """A player's turn begins (spec 5.1)."""

    player: int


@attrs.frozen
class ActionTaken(Wire):
    """A decision was taken; ``by_engine`` when it had one option only (spec 5.4).

    ``action`` is ``None`` for the seats that may not know it (which card a thief keeps).
    """

    player: int
    action: Action | None
    by_engine: bool = False


@attrs.frozen
class CardDrawn(Wire):
    """A card went into a hand (spec 6.1). ``card`` is ``None`` for seats that may not see it."""

    player: int
    kind: CardKind
    card: CardId | None
    from_display: bool


@attrs.frozen
class DisplayRefilled(Wire):
    """A display slot was refilled from the top of its deck (spec 6.2)."""

    kind: CardKind
    card: CardId


@attrs.frozen
class CardDiscarded(Wire):
    """A card went from a hand to its discard pile without effect (spec 6.5)."""

    player: int
    card: CardId


@attrs.frozen
class NatureCardPlayed(Wire):
    """A Nature card went in front of its player (spec 7.3)."""

    player: int
    card: CardId


@attrs.frozen
class TilePlaced(Wire):
    """A tile from the tile supply went on a square (spec 7.2)."""

    pos: Pos
    land: Land


@attrs.frozen
class AnimalsPlaced(Wire):
    """Tokens went from the bank onto a tile (spec 9.1c); the Animal card was discarded."""

    player: int
    card: CardId
    pos: Pos
    count: int


@attrs.frozen
class TokensReturned(Wire):
    """Tokens went from a tile back to the bank (a feeding, spec 11.3)."""

    pos: Pos
    count: int


@attrs.frozen
class CityPlaced(Wire):
    """A City card went onto a free tile (spec 9.2)."""

    player: int
    card: CardId
    pos: Pos


@attrs.frozen
class SatisfactionChanged(Wire):
    """A city's satisfaction changed when a change was settled (spec 10.1)."""

    pos: Pos
    before: int
    after: int


@attrs.frozen
class CityDiscarded(Wire):
    """A city fell to 0 needs and was discarded; its tile is uncovered (spec 10.3)."""

    card: CardId
    pos: Pos


@attrs.frozen
class PawnPlaced(Wire):
    """A pawn went from its player's supply onto a city (spec 10.4)."""

    player: int
    pos: Pos


@attrs.frozen
class CityTaken(Wire):
    """A player raised a rival's city and took it: the rival's pawns returned (spec 12.1)."""

    player: int
    pos: Pos
    from_player: int


@attrs.frozen
class PawnReturned(Wire):
    """A pawn went from a city back to its player's supply (spec 10.3)."""

    player: int
    pos: Pos


@attrs.frozen
class ObjectiveFulfilled(Wire):
    """A player fulfilled an Objective: ``cards`` left his tableau, a pawn went on it (8.2)."""

    player: int
    objective: CardId
    cards: tuple[CardId, ...]


@attrs.frozen
class PowerPlayed(Wire):
    """A Power card went in front of its player (spec 13.2)."""

    player: int
    card: CardId


@attrs.frozen
class PowerCancelled(Wire):
    """``player`` played Protection ``card``: the effect of ``cancelled`` will not happen
    (spec 13.9)."""

    player: int
    card: CardId
    cancelled: CardId


@attrs.frozen
class TileReplaced(Wire):
    """A tile was replaced; the old one went back to the tile supply (spec 13.6)."""

    pos: Pos
    old: Land
    new: Land


@attrs.frozen
class TilesSwapped(Wire):
    """Two tiles swapped squares with everything on them (spec 13.7)."""

    first: Pos
    second: Pos


@attrs.frozen
class CardStolen(Wire):
    """The Tornado took a card of back ``kind`` from ``victim`` and set it aside face down
    (spec 13.8b). ``card`` is ``None`` for every seat but the victim's: the thief sees the
    stolen cards together once the last is taken (`StolenCardsSeen`)."""

    player: int
    victim: int
    kind: CardKind
    card: CardId | None


@attrs.frozen
class StolenCardsSeen(Wire):
    """The thief looks at the cards his Tornado took (spec 13.8c); ``cards`` is ``None`` for
    the other seats."""

    player: int
    cards: tuple[CardId, ...] | None


@attrs.frozen
class CardKept(Wire):
    """The thief kept a stolen card (spec 13.8c); ``card`` is ``None`` for the seats that may
    not see it (all but the thief and the player it was taken from)."""

    player: int
    from_player: int
    card: CardId | None


@attrs.frozen
class GameEnded(Wire):
    """The game is over (spec 15)."""

    result: Result


Event: TypeAlias = (
    TurnBegan
    | ActionTaken
    | CardDrawn
    | DisplayRefilled
    | CardDiscarded
    | NatureCardPlayed
    | TilePlaced
    | AnimalsPlaced
    | TokensReturned
    | CityPlaced
    | SatisfactionChanged
    | CityDiscarded
    | PawnPlaced
    | CityTaken
    | PawnReturned
    | ObjectiveFulfilled
    | PowerPlayed
    | PowerCancelled
    | TileReplaced
    | TilesSwapped
    | CardStolen
    | StolenCardsSeen
    | CardKept
    | GameEnded
)
"""Any event."""
