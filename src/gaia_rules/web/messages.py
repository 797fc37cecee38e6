"""What the server tells a seat, built in one place from that seat's share of the game only.

Every message about a game goes through [`state_message`][gaia_rules.web.messages.state_message]:
the seat's [`View`][gaia_rules.views.View], its events from ``game.events_for(seat)``, its
legal actions only when it is the seat to move, and the faces of the cards the message
names (never the whole manifest: a page learns the face of a card when it may see the card).
A spectator gets the public part of a view, built from an allow-list of the view's public
fields (``PUBLIC_FIELDS``: a field added to ``View`` reaches no spectator until it is named
there), with no stolen card's face, and the log as no seat in particular saw it.

The state message (every answer about a game, every live frame), key by key:

- ``type``: ``"state"``;
- ``game``: the game's id; ``bots``: one bot name or ``null`` per seat;
- ``seat``: the seat the message is cut for, ``null`` for a spectator;
- ``moves``: the move number, the count of actions taken so far (an action answers one);
- ``to_move``: the seat whose decision is pending, ``null`` once the game is over;
- ``over``: whether the game has ended;
- ``view``: the seat's view as data (a spectator's: the public view);
- ``since``: the index, in the seat's own log, of the first event in ``events``; a client
  holding ``n`` events that receives ``since > n`` has missed some and asks again with
  ``since=n``; ``since < n``: it drops the events it has already;
- ``events``: the seat's events from ``since`` on (a live frame after a connection's first
  carries only those of the latest change); ``log``: the same events in words;
- ``legal``: the seat's legal actions when it is to move, else ``null``;
- ``faces``: the face of each card the message names, by id;
- ``world``: the world as SVG: always in a connection's first frame, then only in a frame
  whose change altered the world (absent: unchanged); in a GET answer with ``?world=1``;
- ``standings`` (for the page, once the game is over): the result table, from public things
  only (``gaia_rules.web.presentation``): ``reason``, ``winner``, ``ended_by``,
  ``tie_break`` (whether the seat order after the ender decided between seats that placed
  as many pawns as the winner), ``tied``, and ``rows``, one per seat, the winner first:
  ``seat``, ``pawns_placed``, ``place``, ``winner``;
- ``effect`` (for the page, while a Protection is decided): what the Power waiting on the
  window would do, worked out from public things only and the same for every seat:
  ``action``, the ``squares`` it touches, the ``events`` it would cause, a Tornado's
  ``victims`` in turn.

An action's answer (``POST .../actions``) is ``{"ok": true, "moves", "to_move", "over",
"events"}``: the move number after it, and the events it caused as its seat saw them. A
refusal is ``{"error": {"status", "kind", "message", "clause"?}}``; a stale action's refusal
(409, ``kind`` ``"stale"``) adds ``"state"``: the state message of the seat now.
"""

from __future__ import annotations

import functools
from typing import Any

from gaia_rules.events import Event
from gaia_rules.game import Game
from gaia_rules.manifest import Manifest
from gaia_rules.svg import world_svg
from gaia_rules.text import describe
from gaia_rules.views import log_for
from gaia_rules.web.presentation import pending_effect, standings

__all__ = [
    "PUBLIC_FIELDS",
    "public_events",
    "public_view",
    "seat_events",
    "seat_view",
    "state_message",
]

PUBLIC_FIELDS = (
    "format",
    "rules",
    "players",
    "first_player",
    "active",
    "to_move",
    "decision",
    "hand_backs",
    "deck_sizes",
    "displays",
    "discards",
    "tiles",
    "animals",
    "cities",
    "tile_supply",
    "bank",
    "tableaux",
    "objectives",
    "objective_pawns",
    "stolen",
    "supply",
    "total_pawns",
    "result",
    "steps",
    "reached_four",
)
"""The keys of a [`View`][gaia_rules.views.View]'s data that every seat sees alike, and so
a spectator too (``stolen`` without the cards' faces): the wire format's ``format`` and the
public fields. ``seat`` and ``hand`` are not public; a field ``View`` gains is public only
once it is named here."""

_NO_SEAT = -1
"""The seat a spectator's share is cut for: no seat at all, so every private card is hidden
(``views.log_for`` shows a seat only the cards it drew, stole, looked at or kept)."""


def public_view(game: Game) -> dict[str, Any]:
    """What every seat sees of ``game``, as data: the ``PUBLIC_FIELDS`` of a seat's view,
    with no stolen card's face. It is no seat's view, so it is not a
    [`View`][gaia_rules.views.View] document: it goes out as data, for a spectator's page."""
    seats: dict[str, Any] = game.view(game.active).to_data()
    data = {name: seats[name] for name in PUBLIC_FIELDS}
    data["stolen"] = [[kind, source, None] for kind, source, _ in data["stolen"]]
    return data


def public_events(game: Game) -> tuple[Event, ...]:
    """The event log as a spectator sees it: every card drawn blind, stolen, looked at or
    kept is blanked, whoever drew it."""
    return log_for(game.events, _NO_SEAT, game.rules.cards.face_ids)


def seat_view(game: Game, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` as data, or the public view for a spectator (``None``)."""
    return public_view(game) if seat is None else game.view(seat).to_data()


def seat_events(game: Game, seat: int | None) -> tuple[Event, ...]:
    """The log of ``seat``, or the public log for a spectator (``None``)."""
    return public_events(game) if seat is None else game.events_for(seat)


def state_message(
    game: Game, seat: int | None, since: int = 0, *, world: bool = False
) -> dict[str, Any]:
    """The state of ``game`` for ``seat`` (``None``: a spectator), with its events from
    index ``since`` of its log.

    Keys: ``seat``, ``moves`` (actions taken so far), ``to_move``, ``over``, ``view``,
    ``events`` (event data), ``log`` (the same events in words), ``since`` (the index of
    the first of them), ``legal`` (the seat's legal actions when it is to move, else
    ``null``), ``faces`` (each named card's face, as in a manifest) and, with ``world``,
    ``world`` (the world as SVG).

    Presentation keys, present only when they apply: ``standings`` once the game is over
    (the result table: ``reason``, ``winner``, ``ended_by``, ``tie_break`` (whether the
    seat order after the ender decided between seats with as many pawns placed), ``tied``
    and ``rows``, one per seat, the winner first: ``seat``, ``pawns_placed``, ``place``,
    ``winner``); ``effect`` while a Protection is being decided (what the Power waiting on
    it would do, the same for every seat: ``action``, ``squares`` it touches, ``events``
    it would cause, ``victims`` of a Tornado, in turn).
    """
    view = seat_view(game, seat)
    log = seat_events(game, seat)
    since = min(max(since, 0), len(log))
    fresh = log[since:]
    legal = None
    if seat is not None and game.to_move == seat:
        legal = [action.to_data() for action in game.legal_actions()]
    message: dict[str, Any] = {
        "type": "state",
        "seat": seat,
        "moves": len(game.actions),
        "to_move": game.to_move,
        "over": game.is_over,
        "view": view,
        "since": since,
        "events": [event.to_data() for event in fresh],
        "log": [describe(event, game.rules.cards, seat) for event in fresh],
        "legal": legal,
    }
    if game.result is not None:
        message["standings"] = standings(game.result)
    effect = pending_effect(game, seat)
    if effect is not None:
        message["effect"] = effect
    # every card a legal action names is in the view (a hand, a display, the Objectives, the
    # stolen cards), and an effect names only cities in play: the faces of the view, the
    # events and the effect are all the message needs
    named = (message["view"], message["events"], effect)
    message["faces"] = faces_named(game.rules.cards, named)
    if world:
        message["world"] = world_svg(game, size=64, pictograms=True)  # public: the same for all
    return message


@functools.lru_cache(maxsize=8)
def _faces(manifest: Manifest) -> dict[str, Any]:
    """Each card's face as the manifest's JSON writes it, by card id."""
    cards: list[dict[str, Any]] = manifest.to_dict()["cards"]
    return {entry["id"]: entry for entry in cards}


def faces_named(manifest: Manifest, data: Any) -> dict[str, Any]:
    """The faces of the cards ``data`` names (in any text, key or value), by id."""
    faces = _faces(manifest)
    named: dict[str, Any] = {}
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in faces:
                named[item] = faces[item]
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return dict(sorted(named.items()))
