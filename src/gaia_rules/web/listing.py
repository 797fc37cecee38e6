"""Open games: games with seats for people nobody has taken yet, listed in the lobby for anyone
to join with one click, unless their creator kept them private.

Routes (registered in ``gaia_rules.web.app``):

- ``POST /api/games/{game}/listing``: the creator lists the game, with the body
  ``{"tokens": [...]}``, the tokens of the free seats (each must open a seat of this game
  that no bot plays); the request's own token must open a seat of the game;
- ``GET /api/games/open``: the games listed, each ``{"game", "players", "level", "free",
  "bots"}``: how many seats are free, never a token;
- ``POST /api/games/{game}/join``: takes one free seat of a listed game and answers
  ``{"seat", "url"}``, its link; that token leaves the listing, so no one else gets it
  (409 ``full`` when none is left).

The listing is kept in the server's memory: a restart forgets it (the games stay, and their
links work). A game leaves it once its last free seat is taken or the game is over.
"""

from __future__ import annotations

import collections
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gaia_rules.web.reading import json_body, seat_of
from gaia_rules.web.rooms import Lobby, WebError

__all__ = ["KEPT", "join", "list_game", "open_games"]

KEPT = 256
"""The games listed at once; the oldest listed leaves first."""

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


class _Listed:
    def __init__(self, players: int, level: str, bots: list[str | None]) -> None:
        self.players = players
        self.level = level
        self.bots = bots
        self.free: list[tuple[int, str]] = []  # (seat, token), in seat order


_listed: collections.OrderedDict[str, _Listed] = collections.OrderedDict()


async def list_game(request: Request) -> Response:
    """``POST /api/games/{game}/listing``: list a game and its free seats."""
    lobby, room, seat = await seat_of(request)
    if seat is None:
        raise WebError(403, "forbidden", "a seat of the game lists it, not a spectator")
    data = await json_body(request, 4096)
    tokens = data.get("tokens") if isinstance(data, dict) else None
    if not isinstance(tokens, list) or not tokens or not all(isinstance(t, str) for t in tokens):
        raise WebError(400, "bad_request", "tokens: expected a list of the free seats' tokens")
    listed = _Listed(room.game.players, room.game.rules.level.name.lower(), list(room.bots))
    for token in tokens:
        free = lobby.seat_of(room, token)
        if free is None or room.bots[free] is not None or free == seat:
            raise WebError(400, "bad_request", "tokens: each must open a free seat for a person")
        listed.free.append((free, token))
    listed.free.sort()
    _listed[room.id] = listed
    while len(_listed) > KEPT:
        _listed.popitem(last=False)
    return JSONResponse(
        {"game": room.id, "free": len(listed.free)}, status_code=201, headers=_HEADERS
    )


async def _still_open(lobby: Lobby, game: str) -> bool:
    try:
        room = await lobby.room(game)
    except WebError:
        return False
    return not room.game.is_over


async def open_games(request: Request) -> Response:
    """``GET /api/games/open``: the games listed, newest first, with their free seats counted."""
    lobby: Lobby = request.app.state.lobby
    games: list[dict[str, Any]] = []
    for game, listed in reversed(list(_listed.items())):
        if not listed.free or not await _still_open(lobby, game):
            _listed.pop(game, None)
            continue
        games.append(
            {
                "game": game,
                "players": listed.players,
                "level": listed.level,
                "free": len(listed.free),
                "bots": listed.bots,
            }
        )
    return JSONResponse({"games": games}, headers=_HEADERS)


async def join(request: Request) -> Response:
    """``POST /api/games/{game}/join``: take the first free seat of a listed game."""
    game = request.path_params["game"]
    listed = _listed.get(game)
    if listed is None:
        raise WebError(404, "not_found", f"no open game {game!r} on this server")
    if not listed.free or not await _still_open(request.app.state.lobby, game):
        _listed.pop(game, None)
        raise WebError(409, "full", "every seat of this game is taken")
    seat, token = listed.free.pop(0)
    if not listed.free:
        _listed.pop(game, None)
    return JSONResponse({"seat": seat, "url": f"/play/{game}#{token}"}, headers=_HEADERS)
