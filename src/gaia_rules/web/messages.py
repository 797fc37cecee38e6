"""What the server tells a seat, built in one place from that seat's share of the game only.

Every message about a game goes through [`state_message`][gaia_rules.web.messages.state_message]:
the seat's [`View`][gaia_rules.views.View], its events from ``game.events_for(seat)``, its
legal actions only when it is the seat to move, and the faces of the cards the message
names (never the whole manifest: a page learns the face of a card when it may see the card).
A spectator gets the public part of a view (no seat, no hand, no stolen card) and the log as
no seat in particular saw it.

Two keys present the game for the page, from public things only
([`gaia_rules.web.presentation`][gaia_rules.web.presentation]): ``standings``, the result
table once the game is over, and ``effect``, what the Power a Protection window waits on
would do.
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

__all__ = ["public_events", "public_view", "seat_events", "seat_view", "state_message"]

_NO_SEAT = -1
"""The seat a spectator's share is cut for: no seat at all, so every private card is hidden
(``views.log_for`` shows a seat only the cards it drew, stole, looked at or kept)."""


def public_view(game: Game) -> dict[str, Any]:
    """What every seat sees of ``game``, as data: a seat's view without ``seat`` and
    ``hand``, and with no stolen card's face. It is no seat's view, so it is not a
    [`View`][gaia_rules.views.View] document: it goes out as data, for a spectator's page."""
    data: dict[str, Any] = game.view(game.active).to_data()
    del data["seat"], data["hand"]
    data["stolen"] = [[kind, source, None] for kind, source, _ in data["stolen"]]
    return data


def public_events(game: Game) -> tuple[Event, ...]:
    """The event log as a spectator sees it: every card drawn blind, stolen, looked at or
    kept is blanked, whoever drew it."""
    return log_for(game.events, _NO_SEAT)


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
        "log": [describe(event) for event in fresh],
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
        # the world: public, the same for all; pictograms read alike in every language
        message["world"] = world_svg(game, size=64, pictograms=True)
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
