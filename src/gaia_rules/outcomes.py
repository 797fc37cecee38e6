"""Random outcomes decided outside the game: for explicit chance nodes (spec 1.5c, 1.6, 13.8b).

Every random outcome of a game comes from its seed (1.6): the order of the decks, fixed by
the shuffle, and the card a Tornado takes among the cards of the named back. A caller that
decides these outcomes itself, as OpenSpiel's explicit chance nodes do, arranges the game just
before the draw: `put_on_top` puts chosen cards of a deck on its top, in order, and
`impose_takes` names, for the next cards a Tornado takes, their places among the victim's
cards of the named back. The order of a deck is hidden from every seat (1.5c) and a Tornado's
card is drawn blind (13.8b), so no seat can tell an arranged game from one whose seed drew
the same outcomes: the views, the logs and the legal actions are those of such a game.

These functions change the game they are given. They are meant for a caller that holds the
whole game (an OpenSpiel state, a test), never for a seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from gaia_rules.cards import CardId
from gaia_rules.errors import GaiaRulesError
from gaia_rules.game import Game
from gaia_rules.vocabulary import CardKind

__all__ = ["deck", "impose_takes", "put_on_top"]


def deck(game: Game, kind: CardKind) -> tuple[CardId, ...]:
    """The cards of the deck of ``kind``, top first: the whole game's knowledge, no seat's."""
    return game._table.decks[kind]


def put_on_top(game: Game, kind: CardKind, cards: Sequence[CardId]) -> None:
    """Move ``cards``, which must be in the deck of ``kind``, to its top, in this order; the
    other cards keep their order under them.

    Raises:
        GaiaRulesError: a card is not in that deck, or is named twice.
    """
    table = game._table
    cards = list(cards)
    rest = list(table.decks[kind])
    for card in cards:
        if card not in rest:
            raise GaiaRulesError(f"{card!r} is not in the {kind.value} deck (once)")
        rest.remove(card)
    table.set_deck(kind, (*cards, *rest))


def impose_takes(game: Game, places: Sequence[int]) -> None:
    """Decide the cards the next Tornado takes: each of ``places`` is, for one theft in turn,
    the place of the card taken among the victim's cards of the named back, in the order his
    hand holds them (13.8b). A theft after these is drawn from the seed again.

    Raises:
        GaiaRulesError: a place is not a whole number from 0.
    """
    if any(type(place) is not int or place < 0 for place in places):
        raise GaiaRulesError(f"places: expected whole numbers from 0, got {list(places)!r}")
    game._table.imposed = tuple(places)
