"""What one seat may see (spec 1.5): its view of the game and its redacted event log.

Every value a seat receives is built here. A view holds the seat's own hand, the backs of
the other hands, deck sizes (never their order), and everything public; it never holds a
card hidden from its seat, not even in a private field.
"""

from __future__ import annotations

import attrs

from gaia_rules.actions import KeepCard
from gaia_rules.cards import CardId, kind_of
from gaia_rules.decisions import ChooseKeptCard, Decision, Step
from gaia_rules.events import (
    ActionTaken,
    CardDrawn,
    CardKept,
    CardStolen,
    Event,
    Result,
    StolenCardsSeen,
)
from gaia_rules.rules import Rules
from gaia_rules.state import CityState, cities_of
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Land, Pos
from gaia_rules.wire import Wire

__all__ = ["View", "backs_of", "log_for", "redact", "view_of"]

_BACK_ORDER = list(CardKind)


@attrs.frozen(hash=False)
class View(Wire):
    """One seat's view of a game (spec 1.5)."""

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
        from gaia_rules.svg import world_svg  # noqa: PLC0415 (svg imports this module)

        return world_svg(self)


def view_of(table: Table, seat: int) -> View:
    """The view of ``seat`` (spec 1.5)."""
    decision = table.decision
    return View(
        seat=seat,
        rules=table.rules,
        players=table.players,
        first_player=table.first_player,
        active=table.active,
        to_move=None if decision is None else decision.player,
        decision=decision,
        hand=table.hands[seat],
        hand_backs=tuple(backs_of(hand) for hand in table.hands),
        deck_sizes={kind: len(deck) for kind, deck in table.decks.items()},
        displays=dict(table.displays),
        discards=dict(table.discards),
        tiles=dict(sorted(table.tiles.items())),
        animals=dict(sorted(table.tokens.items())),
        cities=cities_of(table),
        tile_supply=dict(table.tile_supply),
        bank=table.bank,
        tableaux=tuple(table.tableaux),
        objectives=table.objectives,
        objective_pawns=dict(table.objective_pawns),
        stolen=tuple(
            (kind_of(card), source, card if _sees_stolen(table, seat, source) else None)
            for card, source in table.stolen
        ),
        supply=tuple(table.supply),
        total_pawns=table.total_pawns,
        result=table.result,
        steps=tuple(table.steps),
        reached_four=tuple(sorted(table.reached_four)),
    )


def backs_of(hand: tuple[CardId, ...]) -> tuple[CardKind, ...]:
    """The backs of a hand, sorted by back: a seat learns how many cards of each back a hand
    holds, never the order they came in, which would tell which card left it (spec 1.5)."""
    return tuple(sorted((kind_of(card) for card in hand), key=_BACK_ORDER.index))


def _sees_stolen(table: Table, seat: int, source: int) -> bool:
    """A stolen card is seen by the seat it came from, and by the thief once every card is
    taken (spec 13.8c)."""
    decision = table.decision
    return seat == source or (isinstance(decision, ChooseKeptCard) and decision.player == seat)


def redact(event: Event, seat: int, kept_from: int | None = None) -> Event:
    """``event`` as ``seat`` saw it (spec 1.5, 13.8c): a face-down draw by another seat shows
    only its back; a card a Tornado took is seen by the seat it came from, and the thief sees
    them all at once when he looks; the card a thief keeps is seen by him and by the seat it
    came from (``kept_from``, the victim of the theft that preceded this keep)."""
    match event:
        case CardDrawn() if not event.from_display and event.player != seat:
            return attrs.evolve(event, card=None)
        case CardStolen() if seat != event.victim:
            return attrs.evolve(event, card=None)
        case StolenCardsSeen() if seat != event.player:
            return attrs.evolve(event, cards=None)
        case CardKept() if seat not in (event.player, event.from_player):
            return attrs.evolve(event, card=None)
        case ActionTaken(action=KeepCard()) if seat not in (event.player, kept_from):
            return attrs.evolve(event, action=None)
    return event


def log_for(events: tuple[Event, ...], seat: int) -> tuple[Event, ...]:
    """The log as ``seat`` saw it, read in order so that each kept card is judged by the
    theft that came just before it, never by a later one."""
    stolen_from: dict[str, int] = {}
    seen: list[Event] = []
    for event in events:
        kept_from = None
        if isinstance(event, CardStolen) and event.card is not None:
            stolen_from[event.card] = event.victim
        elif isinstance(event, ActionTaken) and isinstance(event.action, KeepCard):
            kept_from = stolen_from.get(event.action.card)
        seen.append(redact(event, seat, kept_from))
    return tuple(seen)
