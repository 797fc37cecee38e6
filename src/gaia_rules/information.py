"""The information-set key: what one seat has been told, every card named by its face (spec 1.16).

Copies of one face are the same card to every player (1.11). A seat's
[`View`][gaia_rules.views.View] and log already name every card outside its hand by its face
id (1.14); the key names the seat's own cards, and the stolen cards it sees, by their face ids
too. So two moments of two games give a seat equal keys exactly when it was shown the same
faces in the same order: the key splits what the seat can tell apart, and merges what it
cannot, such as two games that differ only in which copy of a mountain is in which hand.

A search keys its nodes on it, a cache its entries, a learning agent its observations:
[`InformationSet`][gaia_rules.information.InformationSet] is a frozen value, equal and hashed
by what it holds, that reads and writes JSON like every value of the library, and whose text
(``str(key)``) is its canonical JSON, stable across runs, machines and Python versions (it
changes only with the wire format).

Hot path: a search asks for keys at every node. The seat's log as the key names it is kept on
the table and extended by the events logged since it was last asked for (copies of a game
share what was found before they parted), each event with its text, so a key costs its view
and the events that are new.
"""

from __future__ import annotations

import json
from collections.abc import Container
from typing import TYPE_CHECKING, Any

import attrs

from gaia_rules import hooks
from gaia_rules.actions import KeepCard
from gaia_rules.cards import CardId
from gaia_rules.events import (
    ActionTaken,
    CityDiscarded,
    CityPlaced,
    CityTaken,
    Event,
    GameEnded,
    PawnPlaced,
    PawnReturned,
    SatisfactionChanged,
    TilePlaced,
    TileReplaced,
    TilesSwapped,
    TokensReturned,
    TurnBegan,
)
from gaia_rules.naming import faced, faced_event
from gaia_rules.table import Chain, Table
from gaia_rules.vocabulary import CardKind

if TYPE_CHECKING:
    from gaia_rules.game import Game
from gaia_rules import viewfields
from gaia_rules.state import CityState
from gaia_rules.viewfields import stolen_seen
from gaia_rules.views import View, kept_by, redact, view_of
from gaia_rules.wire import Wire

__all__ = [
    "InformationSet",
    "canonical_text",
    "events_since",
    "information_set_of",
    "keyed_events",
    "own_cards",
    "public_fields",
    "public_log",
]


def canonical_text(data: Any) -> str:
    """JSON-ready ``data`` as canonical text: keys sorted, no spaces, unicode as is."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@attrs.frozen(hash=False, slots=False)
class InformationSet(Wire):
    """What a seat has been told, every card by its face id (spec 1.16): equal for two
    moments the seat cannot tell apart, and only for those.

    Get one with [`Game.information_set`][gaia_rules.game.Game.information_set]. It is hashed
    by its text, so it keys a dict or a set; ``str(key)`` is that text, the canonical JSON of
    the value (keys sorted, no spaces), which ``from_json`` reads back.
    """

    seat: int
    """The seat whose information it is."""
    view: View
    """The seat's view (1.8), every card named by its face id: its own hand and the stolen
    cards it sees included."""
    events: tuple[Event, ...]
    """The seat's log as it saw it (1.5), every card named by its face id."""

    def text(self) -> str:
        """The canonical JSON of the key: ``str(key)``, found once."""
        found: str | None = self.__dict__.get("_text")
        if found is None:
            texts = self.event_texts()
            head = hooks.to_data(InformationSet(self.seat, self.view, ()))
            found = canonical_text(head).replace(
                '"events":[]', '"events":[' + ",".join(texts) + "]", 1
            )
            object.__setattr__(self, "_text", found)  # a cache of a frozen value
        return found

    def event_texts(self) -> tuple[str, ...]:
        """The canonical JSON of each event of the log, in order (the key's text holds them)."""
        texts: tuple[str, ...] | None = self.__dict__.get("_event_texts")
        if texts is None:
            log: _Keyed | None = self.__dict__.get("_log")
            if log is not None:
                texts = log.texts()
            else:
                texts = tuple(canonical_text(hooks.to_data(event)) for event in self.events)
            object.__setattr__(self, "_event_texts", texts)
        return texts

    def after(
        self, earlier: tuple[Event, ...], texts: tuple[str, ...] | None = None
    ) -> InformationSet:
        """This key with ``earlier`` events (and their ``texts``, if known) before its log: the
        key of a seat in a game that began where another left off, such as a game sampled from
        its view (the seat was told that game's log before)."""
        key = InformationSet(self.seat, self.view, earlier + self.events)
        if texts is not None:
            object.__setattr__(key, "_event_texts", texts + self.event_texts())
        return key

    def __str__(self) -> str:
        return self.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def __getstate__(self) -> dict[str, Any]:
        return {"seat": self.seat, "view": self.view, "events": self.events}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)


class _Keyed:
    """A seat's log as its key names it, up to one event of a table's log, and the text of
    each event, found when first asked for (`texts`)."""

    __slots__ = ("_texts", "events", "parent", "until")

    def __init__(
        self,
        until: Chain,
        events: tuple[Event, ...],
        parent: _Keyed | None,
    ) -> None:
        self.until = until
        """The table's log when it was found (newest first)."""
        self.events = events
        self.parent = parent
        """The log this one extends, whose texts it reuses."""
        self._texts: tuple[str, ...] | None = None

    def texts(self) -> tuple[str, ...]:
        """The canonical text of each event, the parent's reused (never changed, so copies of
        a game share them)."""
        line: list[_Keyed] = []
        keyed: _Keyed | None = self
        while keyed is not None and keyed._texts is None:
            line.append(keyed)
            keyed = keyed.parent
        texts = () if keyed is None or keyed._texts is None else keyed._texts
        for found in reversed(line):
            fresh = found.events[len(texts) :]
            texts += tuple(canonical_text(hooks.to_data(event)) for event in fresh)
            found._texts = texts
            found.parent = None  # its texts are kept: the chain above is no longer needed
        return texts


_NONE_YET = _Keyed(None, (), None)
_NONE_YET._texts = ()


def _keyed_log(table: Table, seat: int) -> _Keyed:
    """The seat's log as its key names it, extended from what was found before."""
    known: _Keyed = table.keyed.get(seat, _NONE_YET)
    if known.until is table.log:
        return known
    fresh: list[Event] = []
    chain = table.log
    while chain is not None and chain is not known.until:
        fresh.append(chain[0])  # type: ignore[arg-type]
        chain = chain[1]
    if chain is not known.until:  # another game's log: start afresh
        return _extend(table, seat, _NONE_YET, _items(table.log))
    fresh.reverse()
    return _extend(table, seat, known, fresh)


def _items(chain: Chain) -> list[Event]:
    found: list[Event] = []
    while chain is not None:
        found.append(chain[0])  # type: ignore[arg-type]
        chain = chain[1]
    found.reverse()
    return found


_PLAIN: frozenset[type] = frozenset(
    (
        TurnBegan,
        TilePlaced,
        TileReplaced,
        TilesSwapped,
        TokensReturned,
        SatisfactionChanged,
        PawnPlaced,
        PawnReturned,
        CityTaken,
        CityPlaced,
        CityDiscarded,
        GameEnded,
    )
)
"""The events that name no card but a city (its own face id, 1.11), which every seat is
told as they are (hot path: most of a log)."""


def _extend(table: Table, seat: int, known: _Keyed, fresh: list[Event]) -> _Keyed:
    """``known`` and the ``fresh`` events after it, as ``views.log_for`` redacts them: a kept
    card's action is judged by the ``CardKept`` logged with it, in the same step, so ``fresh``
    (whole steps) holds it."""
    face_ids = table.cards.face_ids
    events: list[Event] = []
    for index, event in enumerate(fresh):
        if type(event) in _PLAIN:  # no card in it: every seat sees it as it is
            events.append(event)
            continue
        kept_from = None
        if isinstance(event, ActionTaken) and isinstance(event.action, KeepCard):
            kept_from = kept_by(fresh, index + 1, event.action.card)
        events.append(faced_event(redact(event, seat, kept_from, face_ids), face_ids))
    found = _Keyed(table.log, known.events + tuple(events), known)
    table.keyed[seat] = found
    return found


def public_log(game: Game) -> tuple[tuple[Event, ...], tuple[str, ...]]:
    """The log of ``game`` as no seat in particular saw it (a spectator's), every card by its
    face id, and the canonical text of each event: what every seat was told."""
    log = _keyed_log(game._table, _NO_SEAT)
    return log.events, log.texts()


def own_cards(
    game: Game, seat: int
) -> tuple[tuple[CardId, ...], tuple[tuple[CardKind, int, CardId | None], ...]]:
    """What only ``seat`` is told in its key's view, by face id, without building the view:
    its hand, and the stolen cards as its ``View.stolen`` shows them (back, the seat each came
    from, and the card where it is shown). Hot path: a tensor of the key reads only these,
    and its log."""
    table = game._table
    face_ids = table.cards.face_ids
    hand = faced(table.hands[seat], face_ids)
    if not table.stolen:  # most moments: no generator to build and run
        return hand, ()
    stolen = tuple(
        (back, source, None if card is None else face_ids[card])
        for back, source, card in stolen_seen(table, seat)
    )
    return hand, stolen


def keyed_events(game: Game, seat: int) -> tuple[Event, ...]:
    """The log of ``seat``'s key, without building its view (see `own_cards`)."""
    return _keyed_log(game._table, seat).events


def public_fields(game: Game) -> dict[str, object]:
    """The fields of a view that every seat is told alike, without building a view, each
    the table's own (`gaia_rules.viewfields.public_fields`: read them, never change them)."""
    return viewfields.public_fields(game._table, CityState)


def events_since(
    game: Game, since: Chain, kinds: Container[type[Event]] | None = None
) -> tuple[Chain, list[Event]] | None:
    """The events ``game`` logged after its log was ``since`` (a log this function returned
    before, or ``None``: the whole log), oldest first, with its log now; ``None`` when
    ``since`` is not a part of its log (another game's). Every card as the engine logged it:
    for a reader that redacts and renames what it needs (a seat's tensor, which asks only a
    few fields of a few events, where a key's log renames every event). With ``kinds``,
    only the events of those types (the exact type: a reader's filter, in the same walk)."""
    log = game._table.log
    fresh: list[Event] = []
    chain = log
    if kinds is None:
        while chain is not since:
            if chain is None:
                return None
            fresh.append(chain[0])  # type: ignore[arg-type]
            chain = chain[1]
    else:
        while chain is not since:
            if chain is None:
                return None
            event = chain[0]
            if type(event) in kinds:
                fresh.append(event)  # type: ignore[arg-type]
            chain = chain[1]
    fresh.reverse()
    return log, fresh


_NO_SEAT = -1
"""The seat the public log is cut for: none, so every private card is hidden."""


def information_set_of(table: Table, seat: int) -> InformationSet:
    """The information-set key of ``seat`` at this moment of ``table`` (spec 1.16)."""
    face_ids = table.cards.face_ids
    view = view_of(table, seat)
    fields = dict(view.__dict__)
    fields["hand"] = faced(view.hand, face_ids)
    if view.stolen:
        fields["stolen"] = tuple(
            (back, source, None if card is None else face_ids[card])
            for back, source, card in view.stolen
        )
    keyed_view = object.__new__(View)
    object.__setattr__(keyed_view, "__dict__", fields)  # View is frozen; its fields, renamed
    log = _keyed_log(table, seat)
    key = InformationSet(seat, keyed_view, log.events)
    object.__setattr__(key, "_log", log)  # its texts, found when first asked for
    return key
