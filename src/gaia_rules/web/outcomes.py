"""What each play of a Nature, Animal or City card the seat may make now would lead to, shown
on the squares before the player chooses one: an Objective fulfilled (or offered, under
optional Objectives), the game won, a city's needs met.

Route (registered in ``gaia_rules.web.app``):

- ``GET /api/games/{game}/outcomes``: for the token's seat, when it decides an action, one
  entry per legal play of a card on a square: ``{"action", "objectives", "pawns", "city",
  "ends"}``.

Like a Power's preview ([`power_preview`][gaia_rules.preview.power_preview]), each play is
carried out on a game sampled from the seat's view
([`determinize`][gaia_rules.determinize.determinize]), whose hidden cards are made up: what it
returns reads only what the seat may see (the world, the cards in front of each player, the
Objectives, the supplies), and the events are cut at the next turn, before any card is drawn.
"""

from __future__ import annotations

import random
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gaia_rules.actions import Action, PlayAnimals, PlayCity, PlayNature
from gaia_rules.decisions import ChooseAction, ChooseObjective
from gaia_rules.determinize import determinize
from gaia_rules.events import CityPlaced, GameEnded, ObjectiveFulfilled, PawnPlaced, TurnBegan
from gaia_rules.game import Game
from gaia_rules.web.reading import seat_of
from gaia_rules.web.refusal import WebError

__all__ = ["outcome", "outcomes", "play_outcomes"]

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_SAMPLE_SEED = 0
"""The hidden cards of the sampled game: any will do, since a play never reads them."""

_PLAYS = (PlayNature, PlayAnimals, PlayCity)


def outcome(sampled: Game, seat: int, action: Action) -> dict[str, Any]:
    """What ``action`` leads to on ``sampled`` (left unchanged), up to the next turn."""
    game = sampled.copy()
    events = game.apply(action)
    objectives: list[str] = []
    pawns = 0
    ends: dict[str, Any] | None = None
    for event in events:
        if isinstance(event, TurnBegan):
            break
        if isinstance(event, ObjectiveFulfilled) and event.player == seat:
            objectives.append(str(event.objective))
        elif isinstance(event, PawnPlaced) and event.player == seat:
            pawns += 1
        elif isinstance(event, GameEnded):
            ends = {"winner": event.result.winner, "reason": event.result.reason.value}
    offered = isinstance(game.decision, ChooseObjective) and game.decision.player == seat
    city: dict[str, Any] | None = None
    if isinstance(action, PlayCity) and any(isinstance(e, CityPlaced) for e in events):
        placed = game.view(seat).to_data()["cities"].get(str(action.pos))
        if placed is not None:
            city = {"pos": str(action.pos), "satisfaction": placed["satisfaction"]}
    return {
        "action": action.to_data(),
        "objectives": objectives,
        "offered": offered,
        "pawns": pawns,
        "city": city,
        "ends": ends,
    }


def play_outcomes(game: Game, seat: int) -> list[dict[str, Any]]:
    """The outcome of each play of a card on a square ``seat`` may make now, from its view."""
    if not isinstance(game.decision, ChooseAction) or game.decision.player != seat:
        return []
    sampled = determinize(game.view(seat), random.Random(_SAMPLE_SEED))
    return [
        outcome(sampled, seat, action)
        for action in sampled.legal_actions()
        if isinstance(action, _PLAYS)
    ]


async def outcomes(request: Request) -> Response:
    """``GET /api/games/{game}/outcomes``: what each play of the token's seat would lead to."""
    _, room, seat = await seat_of(request)
    if seat is None:
        raise WebError(403, "forbidden", "a spectator plays no card")
    game = room.game
    return JSONResponse(
        {"moves": len(game.actions), "plays": play_outcomes(game, seat)}, headers=_HEADERS
    )
