"""Which cards a seat has never been shown: for the tests that look for leaks in what a
server sent it."""

from __future__ import annotations

import gaia_rules as gr


def blind_to(
    game: gr.Game, seat: int | None, dealt: tuple[tuple[str, ...], ...] | None = None
) -> set[str]:
    """The cards in the decks, and the cards in other hands (every hand, for a spectator:
    ``None``) that were dealt or drawn blind, but the face ids. ``dealt`` is the deal's hands,
    if known.

    A card that changes hands unseen (a Tornado's) stays with a seat that knew it in a game
    of two; in a bigger game at the powers level this set misses such a card."""
    if dealt is None:
        dealt = gr.new_game(game.players, game.rules, game.seed, game.first_player).state.hands
    unseen = {card for other, hand in enumerate(dealt) if other != seat for card in hand}
    unseen |= {
        event.card
        for event in game.events
        if isinstance(event, gr.CardDrawn) and not event.from_display and event.player != seat
        if event.card is not None
    }
    full = game.state
    held = {card for other, hand in enumerate(full.hands) if other != seat for card in hand}
    hidden = (held & unseen) | {card for deck in full.decks.values() for card in deck}
    # a face id names a face, not a card, wherever a seat is told of one (spec 1.14): seen
    # outside the seat's hand it says nothing of where that very card is
    return hidden - set(game.rules.cards.face_ids.values())
