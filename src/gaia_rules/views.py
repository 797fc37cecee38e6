"""What one seat may see (spec 1.5): its view of the game and its redacted event log.

Every value a seat receives is built here. A view holds the seat's own hand, the backs of
the other hands, deck sizes (never their order), and everything public; it never holds a
card hidden from its seat, not even in a private field.
"""

from __future__ import annotations

import attrs

from gaia_rules import hooks
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

_BACK_RANK = {back: rank for rank, back in enumerate(CardKind)}
"""The order of the backs in a hand's backs: the order of `CardKind`."""


@attrs.frozen(hash=False, slots=False)
class View(Wire):
    """One seat's view of a game (spec 1.5)."""

    # Hot path: every bot, server request and RL step builds a view. A frozen class with a
    # ``__dict__`` is built in half the time of a slotted one (attrs writes its fields
    # straight into the dict instead of calling ``object.__setattr__`` for each of 26).
    # Unhashable, as the slotted one was: it holds dicts, and equal views must not hash apart.
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
    """The view of ``seat`` (spec 1.5)."""
    # Hot path: a bot, a server or an RL step builds a view at every decision. What is
    # derived from the world alone is sorted once per world (kept in its memo, copied into
    # each view; the cities for the pawns they hold), the backs of a hand are looked up by
    # the hand, and the view is built positionally, in the order of its fields: keywords
    # cost more than the rest together.
    decision = table.decision
    memo = table.world_memo()
    tiles = memo.view_tiles
    if tiles is None:
        tiles = memo.view_tiles = dict(sorted(table.tiles.items()))
    animals = memo.view_animals
    if animals is None:
        animals = memo.view_animals = dict(sorted(table.tokens.items()))
    pawns = tuple(table.pawns.items())
    kept = memo.view_cities
    if kept is None or kept[0] != pawns:
        kept = memo.view_cities = (pawns, cities_of(table))
    stolen = table.stolen
    return View(
        seat,
        table.rules,
        table.players,
        table.first_player,
        table.active,
        None if decision is None else decision.player,
        decision,
        table.hands[seat],
        tuple(map(_known_backs, table.hands)),
        {kind: len(deck) for kind, deck in table.decks.items()},
        table.displays.copy(),
        table.discards.copy(),
        tiles.copy(),
        animals.copy(),
        kept[1].copy(),
        table.tile_supply.copy(),
        table.bank,
        tuple(table.tableaux),
        table.objectives,
        table.objective_pawns.copy(),
        tuple(
            (kind_of(card), source, card if _sees_stolen(table, seat, source) else None)
            for card, source in stolen
        )
        if stolen
        else (),
        tuple(table.supply),
        table.total_pawns,
        table.result,
        tuple(table.steps),
        tuple(sorted(table.reached_four)) if table.reached_four else (),
    )


_BACKS: dict[tuple[CardId, ...], tuple[CardKind, ...]] = {}
"""The backs of the hands seen so far (see `_known_backs`)."""
_BACKS_KEPT = 4096
"""How many hands `_BACKS` keeps before it starts afresh."""


def backs_of(hand: tuple[CardId, ...]) -> tuple[CardKind, ...]:
    """The backs of a hand, sorted by back: a seat learns how many cards of each back a hand
    holds, never the order they came in, which would tell which card left it (spec 1.5)."""
    kinds = [kind_of(card) for card in hand]
    kinds.sort(key=_BACK_RANK.__getitem__)
    return tuple(kinds)


def _known_backs(hand: tuple[CardId, ...]) -> tuple[CardKind, ...]:
    """`backs_of` a hand of the engine's own.

    Hot path: every view asks this of every hand, and hands change about once a turn, so
    the answer is looked up by the hand (a pure function of it; the table is bounded)."""
    found = _BACKS.get(hand)
    if found is None:
        if len(_BACKS) >= _BACKS_KEPT:
            _BACKS.clear()
        found = _BACKS[hand] = backs_of(hand)
    return found


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
