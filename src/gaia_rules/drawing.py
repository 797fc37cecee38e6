"""Drawing cards, displays, exhaustion and the hand limits (spec 6)."""

from __future__ import annotations

from functools import partial
from typing import Final

from gaia_rules import constructors
from gaia_rules.actions import Action, Discard, DrawDeck, DrawDisplay
from gaia_rules.cards import BACK_BY_LETTER, CardId, kind_of
from gaia_rules.copies import display_copy, distinct, in_display
from gaia_rules.decisions import ChooseLimitDiscard
from gaia_rules.ending import end_by_exhaustion
from gaia_rules.events import CardDiscarded
from gaia_rules.legal import Part
from gaia_rules.refusal import Refusal
from gaia_rules.rules import Level
from gaia_rules.setup import MAX_PLAYERS
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind

__all__ = [
    "HAND_LIMIT",
    "POWER_LIMIT",
    "discard_options",
    "draw",
    "draw_options",
    "kinds_in_play",
    "limit_discard",
    "refuse_discard",
    "refuse_draw",
    "two_draws",
]

_HELD_LETTERS: Final = "NCAP"
"""The id letters of the cards a hand can hold (Objectives never go in a hand)."""

HAND_LIMIT: Final = 6
POWER_LIMIT: Final = 2


# hot path: members as module constants (see `gaia_rules.vocabulary`)
_POWERS: Final = Level.POWERS

_WITHOUT_POWER: Final = (CardKind.NATURE, CardKind.LIFE)
_WITH_POWER: Final = (CardKind.NATURE, CardKind.LIFE, CardKind.POWER)


def kinds_in_play(table: Table) -> tuple[CardKind, ...]:
    """Nature and Life; Power from the powers level on (spec 6.1)."""
    # Hot path: asked at every turn's action, so the level is compared here directly rather
    # than through the property ``Rules.with_powers``, which says the same.
    return _WITH_POWER if table.rules.level >= _POWERS else _WITHOUT_POWER


def is_exhausted(table: Table, kind: CardKind) -> bool:
    """A kind whose deck and display are both empty (spec 6.3)."""
    return not table.decks[kind] and not table.displays[kind]


def draw_options(table: Table, player: int) -> list[Part]:
    """Every draw: each face-up card, and each deck that has cards or is exhausted (6.1, 6.3),
    as parts of the lazy legal actions."""
    parts: list[Part] = []
    from_display, from_deck = _DRAWS[player]
    decks, displays, shown = table.decks, table.displays, table.faces_shown
    for kind in kinds_in_play(table):
        # 1.12: one draw per face face up, named by its face id (1.14)
        parts.append((from_display, shown[kind]))
        if decks[kind] or not displays[kind]:
            parts.append((from_deck, _DECKS[kind]))
    return parts


def two_draws(table: Table) -> bool:
    """Whether :func:`draw_options` offers at least two draws, without building them (6.1,
    6.3). Hot path: asked at every turn's action, and the first display almost always
    answers."""
    count = 0
    for kind in kinds_in_play(table):
        display = table.displays[kind]
        shown = table.faces_shown[kind]  # one draw per face (1.12)
        count += len(shown) + (1 if table.decks[kind] or not display else 0)
        if count > 1:
            return True
    return False


_DRAWS: Final = tuple(
    (partial(constructors.draw_display, seat), partial(constructors.draw_deck, seat))
    for seat in range(MAX_PLAYERS)
)
"""The builders of each seat's draws. Hot path: asked at every turn's action, and the same
for every game."""

_DECKS: Final = {kind: (kind,) for kind in CardKind}
"""The target of a draw from each deck (one tuple for every turn's action)."""


def refuse_draw(table: Table, action: DrawDisplay | DrawDeck) -> Refusal | None:
    """Why a draw is not legal now, or ``None`` (spec 6.1, 6.3)."""
    if isinstance(action, DrawDisplay):
        if not isinstance(action.card, str) or action.card not in table.cards:
            return Refusal("2.9", f"there is no card {action.card!r}")
        if action.card[0] not in _HELD_LETTERS:
            return Refusal("6.1", f"{action.card} is not a card that can be drawn")
        kind = kind_of(action.card)
        if kind not in kinds_in_play(table):
            return Refusal("6.1", f"{kind.value} cards are not in play at this level")
        if not in_display(table, action.card, table.displays[kind]):
            return Refusal("6.1", f"{action.card} is not face up in the {kind.value} display")
        return None
    if not isinstance(action.kind, CardKind):
        return Refusal("6.1", f"{action.kind!r} is not a card back (NATURE, LIFE or POWER)")
    if action.kind not in kinds_in_play(table):
        return Refusal("6.1", f"{action.kind.value} cards are not in play at this level")
    if not table.decks[action.kind] and table.displays[action.kind]:
        return Refusal(
            "6.3",
            f"the {action.kind.value} deck is empty but its display is not: take a face-up card",
        )
    return None


def draw(table: Table, action: DrawDisplay | DrawDeck) -> None:
    """Carry out a legal draw (spec 6.1-6.3, 6.5)."""
    player = action.player
    if isinstance(action, DrawDeck):
        kind = action.kind
        deck = table.decks[kind]
        if not deck:
            end_by_exhaustion(table, player)  # 6.3, 15.2
            return
        card = deck[0]
        table.set_deck(kind, deck[1:])
        table.emit(constructors.card_drawn(player, kind, card, False))
    else:
        kind = BACK_BY_LETTER[action.card[0]]  # `kind_of` without the call
        display = table.displays[kind]
        card = display_copy(table, action.card, display)  # 1.13: the leftmost copy
        deck = table.decks[kind]
        if deck:  # 6.2: the slot is refilled from the top of the deck
            refill = deck[0]
            table.set_deck(kind, deck[1:])
            table.set_display(kind, tuple(refill if c == card else c for c in display))
        else:  # 6.2: with an empty deck the slot stays empty
            table.set_display(kind, tuple(c for c in display if c != card))
        table.emit(constructors.card_drawn(player, kind, card, True))
        if deck:
            table.emit(constructors.display_refilled(kind, refill))
    gain(table, player, card)


def gain(table: Table, player: int, card: CardId) -> None:
    """A card goes into a hand; a limit broken means a discard decision (spec 6.5, 6.5b)."""
    table.hands[player] = (*table.hands[player], card)
    if over_a_limit(table, player):
        table.steps.append(ChooseLimitDiscard(player))


def power_cards(hand: tuple[CardId, ...]) -> list[CardId]:
    """The Power cards of a hand."""
    return [card for card in hand if card[0] == "P"]


def over_a_limit(table: Table, player: int) -> bool:
    """Whether a hand holds more than 6 cards or more than 2 Power cards (spec 6.5, 6.5a)."""
    hand = table.hands[player]
    return len(hand) > HAND_LIMIT or len(power_cards(hand)) > POWER_LIMIT


def discard_options(table: Table, player: int) -> list[Action]:
    """The cards that may be discarded: a Power card if the Power limit is broken (one Power
    discard then settles both limits), else any card of the hand (spec 6.5, 6.5a)."""
    if not over_a_limit(table, player):
        return []
    hand = table.hands[player]
    powers = power_cards(hand)
    candidates = tuple(powers) if len(powers) > POWER_LIMIT else hand
    # 1.12: one discard per face, the copy that has been in the hand longest (1.13)
    return [Discard(player, card) for card in distinct(candidates, table.cards.face_ids)]


def refuse_discard(table: Table, action: Discard) -> Refusal | None:
    """Why a limit discard is not legal now, or ``None`` (spec 6.5)."""
    hand = table.hands[action.player]
    if action.card not in hand:
        return Refusal("6.5", f"{action.card!r} is not in the hand of seat {action.player}")
    if len(power_cards(hand)) > POWER_LIMIT and action.card[0] != "P":
        return Refusal("6.5a", "over the Power limit, the discard must be a Power card")
    return None


def limit_discard(table: Table, action: Discard) -> None:
    """Discard a card face up without effect (spec 6.4, 6.5)."""
    hand = list(table.hands[action.player])
    hand.remove(action.card)
    table.hands[action.player] = tuple(hand)
    kind = BACK_BY_LETTER[action.card[0]]  # `kind_of` without the call
    table.discard(kind, action.card)
    table.emit(CardDiscarded(action.player, action.card))
    if over_a_limit(table, action.player):
        table.steps.append(ChooseLimitDiscard(action.player))
