"""What one seat may see (spec 1.5): its view of the game and its redacted event log.

Every value a seat receives is defined here (a view is built by `gaia_rules.viewfields`,
which the compiled build compiles). A view holds the seat's own hand, the backs of
the other hands, deck sizes (never their order), and everything public; it never holds a
card hidden from its seat, not even in a private field.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from gaia_rules import hooks
from gaia_rules.actions import KeepCard
from gaia_rules.cards import CardId
from gaia_rules.decisions import Decision, Step
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDiscarded,
    CardDrawn,
    CardKept,
    CardStolen,
    Event,
    NatureCardPlayed,
    PowerCancelled,
    PowerPlayed,
    Result,
    StolenCardsSeen,
)
from gaia_rules.naming import FaceIds, faced_event
from gaia_rules.rules import Rules
from gaia_rules.state import CityState
from gaia_rules.table import Table
from gaia_rules.viewfields import backs_of, new_view
from gaia_rules.vocabulary import CardKind, Land, Pos
from gaia_rules.wire import Wire

__all__ = ["View", "backs_of", "kept_by", "log_for", "redact", "view_of"]


@attrs.frozen(hash=False, slots=False)
class View(Wire):
    """One seat's view of a game (spec 1.5)."""

    # Hot path: every bot, server request and RL step builds a view, and
    # `gaia_rules.viewfields.new_view` writes its fields straight into its ``__dict__``.
    # Unhashable, as the slotted class it was: it holds dicts, and equal views must not
    # hash apart (attrs leaves ``__hash__`` alone under ``hash=False``).
    __hash__ = None  # type: ignore[assignment]

    seat: int
    rules: Rules
    players: int
    first_player: int
    active: int
    to_move: int | None
    decision: Decision | None
    hand: tuple[CardId, ...]
    """The seat's own hand."""
    hand_backs: tuple[tuple[CardKind, ...], ...]
    """The backs of every hand, seat by seat (the seat's own included)."""
    deck_sizes: dict[CardKind, int]
    displays: dict[CardKind, tuple[CardId, ...]]
    discards: dict[CardKind, tuple[CardId, ...]]
    tiles: dict[Pos, Land]
    animals: dict[Pos, int]
    cities: dict[Pos, CityState]
    tile_supply: dict[Land, int]
    bank: int
    tableaux: tuple[tuple[CardId, ...], ...]
    objectives: tuple[CardId, ...]
    objective_pawns: dict[CardId, int]
    stolen: tuple[tuple[CardKind, int, CardId | None], ...]
    """The cards a Tornado holds: back, the seat it came from, and the card itself only for
    the thief and that seat (spec 13.8c)."""
    supply: tuple[int, ...]
    total_pawns: int
    result: Result | None
    steps: tuple[Step, ...]
    """The flow's pending steps, the top last: ``decision`` is the top one, and under it
    wait what it interrupted (the turn's action, a Power effect under its Protection window,
    the next turn). Every step follows from public plays (spec 5.4)."""
    reached_four: tuple[Pos, ...]
    """The cities that reached four needs and were not emptied since (advanced, spec 12.4)."""

    def _repr_svg_(self) -> str:
        """The world as SVG, for notebooks ([`world_svg`][gaia_rules.svg.world_svg])."""
        return hooks.world_svg(self)  # installed by gaia_rules.svg


def view_of(table: Table, seat: int) -> View:
    """The view of ``seat`` (spec 1.5), built by `gaia_rules.viewfields`."""
    return new_view(View, table, seat, CityState)


def redact(
    event: Event, seat: int, kept_from: int | None = None, face_ids: FaceIds | None = None
) -> Event:
    """``event`` as ``seat`` saw it (spec 1.5, 1.14, 13.8c).

    A face-down draw by another seat shows only its back; a card a Tornado took is seen by
    the seat it came from, and the thief sees them all at once when he looks; the card a
    thief keeps is seen by him and by the seat it came from (``kept_from``, named by the
    ``CardKept`` logged with the keep). With ``face_ids`` (the manifest's), every card the
    seat is not told the id of is named by its face id: the seat is told the id of a card only
    in the events that take a card into or out of its hand, and of the stolen cards it sees.
    """
    match event:
        case CardDrawn() if event.player != seat:
            if not event.from_display:
                return attrs.evolve(event, card=None)
        case CardStolen() if seat != event.victim:
            return attrs.evolve(event, card=None)
        case StolenCardsSeen() if seat != event.player:
            return attrs.evolve(event, cards=None)
        case CardKept() if seat not in (event.player, event.from_player):
            return attrs.evolve(event, card=None)
        case ActionTaken(action=KeepCard()):
            if seat not in (event.player, kept_from):
                return attrs.evolve(event, action=None)
            return event
        case CardStolen() | StolenCardsSeen() | CardKept():
            return event  # a stolen card the seat may see, by its id (1.14)
        case (
            ActionTaken() | CardDiscarded() | NatureCardPlayed() | AnimalsPlaced() | (PowerPlayed())
        ) if event.player == seat:
            return event  # a card out of its own hand, or into it (a face-up draw)
        case CardDrawn():
            return event  # its own draw
        case PowerCancelled() if event.player == seat and face_ids is not None:
            return attrs.evolve(event, cancelled=face_ids.get(event.cancelled, event.cancelled))
    return event if face_ids is None else faced_event(event, face_ids)


def log_for(
    events: tuple[Event, ...], seat: int, face_ids: FaceIds | None = None
) -> tuple[Event, ...]:
    """The log as ``seat`` saw it (spec 1.5, 1.14, 13.8c).

    Each event is redacted by itself, except a kept card's action: who may see it is told by
    the ``CardKept`` the engine logs right after it, with the seat the card came from. So a
    seat's log does not depend on what came before it, and a game restored from a position,
    whose log starts there, shows each seat the log of the game it was taken from. Without
    ``face_ids`` cards keep their own ids (only an omniscient reader may ask for that).
    """
    seen: list[Event] = []
    for index, event in enumerate(events):
        kept_from = None
        if isinstance(event, ActionTaken) and isinstance(event.action, KeepCard):
            kept_from = kept_by(events, index + 1, event.action.card)
        seen.append(redact(event, seat, kept_from, face_ids))
    return tuple(seen)


def kept_by(events: Sequence[Event], start: int, card: CardId) -> int | None:
    """The seat the kept ``card`` came from, as the ``CardKept`` that follows its action says."""
    for index in range(start, len(events)):
        event = events[index]
        if isinstance(event, CardKept):
            return event.from_player if event.card == card else None
    return None
