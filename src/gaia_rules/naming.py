"""How a seat is told of cards: by its own id or by its face id (spec 1.11, 1.14).

Copies of one face are the same card to every player, and a card's id is the engine's
bookkeeping. A seat is told the id of a card only while the card is in its hand, for the
stolen cards it may see, and in the events that take a card into or out of its hand; every
other card it is told of by its *face id*, the lowest id with that face
([`Manifest.face_id`][gaia_rules.manifest.Manifest.face_id]). This module renames actions,
steps, piles and events by face ids; `gaia_rules.viewfields` and `gaia_rules.views` call it
for what a seat receives, and `gaia_rules.information` for the information-set key, which
names every card by its face id.

Hot path: every view renames the displays, discard piles and cards in front, so the renaming
of a pile is a comprehension over the manifest's dict of face ids, and actions and steps
that name no card are returned as they are.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from gaia_rules.actions import Action, FulfillObjective
from gaia_rules.cards import CardId
from gaia_rules.decisions import ChooseProtection, PowerEffect, Step
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDiscarded,
    CardDrawn,
    CardKept,
    CardStolen,
    DisplayRefilled,
    Event,
    NatureCardPlayed,
    ObjectiveFulfilled,
    PowerCancelled,
    PowerPlayed,
    StolenCardsSeen,
)

__all__ = ["FaceIds", "faced", "faced_action", "faced_event", "faced_step"]

FaceIds = Mapping[CardId, CardId]
"""Each card's face id, by card id (a manifest's ``face_ids``)."""


def faced(cards: tuple[CardId, ...], face_ids: FaceIds) -> tuple[CardId, ...]:
    """``cards`` named by their face ids, in the same order."""
    return tuple([face_ids[card] for card in cards])


def faced_action(action: Action, face_ids: FaceIds) -> Action:
    """``action`` with the card it names (if any) named by its face id. An Objective is its
    own face id (spec 1.11), so ``FulfillObjective`` stays as it is."""
    card = getattr(action, "card", None)
    if card is None or isinstance(action, FulfillObjective):
        return action
    face = face_ids.get(card, card)
    return action if face == card else attrs.evolve(action, card=face)


def faced_step(step: Step, face_ids: FaceIds) -> Step:
    """``step`` with the Power card it waits on named by its face id: the card is in front of
    its player, where every seat is told its face id (spec 1.14)."""
    if isinstance(step, ChooseProtection):
        face = face_ids.get(step.against, step.against)
        return step if face == step.against else attrs.evolve(step, against=face)
    if isinstance(step, PowerEffect):
        action = faced_action(step.action, face_ids)
        return step if action is step.action else PowerEffect(action)  # type: ignore[arg-type]
    return step


def faced_event(event: Event, face_ids: FaceIds) -> Event:
    """``event`` with every card it names named by its face id."""
    match event:
        case ActionTaken(action=action) if action is not None:
            renamed = faced_action(action, face_ids)
            return event if renamed is action else attrs.evolve(event, action=renamed)
        case (
            CardDrawn(card=card)
            | DisplayRefilled(card=card)
            | CardDiscarded(card=card)
            | NatureCardPlayed(card=card)
            | AnimalsPlaced(card=card)
            | PowerPlayed(card=card)
            | CardStolen(card=card)
            | CardKept(card=card)
        ) if card is not None:
            face = face_ids.get(card, card)
            return event if face == card else attrs.evolve(event, card=face)
        case ObjectiveFulfilled(cards=cards):
            return attrs.evolve(event, cards=faced(cards, face_ids))
        case StolenCardsSeen(cards=cards) if cards is not None:
            return attrs.evolve(event, cards=faced(cards, face_ids))
        case PowerCancelled(card=card, cancelled=cancelled):
            return attrs.evolve(
                event,
                card=face_ids.get(card, card),
                cancelled=face_ids.get(cancelled, cancelled),
            )
    return event
