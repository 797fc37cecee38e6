"""A rematch: the same seats, the same rules and bots, a new deal, once a game is over.

Routes (registered in ``gaia_rules.web.app``):

- ``POST /api/games/{game}/rematch``: any seat of a finished game (not a spectator) asks
  for the rematch; the first ask sets it up, every later one finds it. The next seat
  after the previous game's first player begins.
- ``GET /api/games/{game}/rematch``: the rematch, if one was set up (404 before).

Either answers ``{"game": <the new game>, "url": <the link of the token's own seat in it>}``,
so every person of the old game finds their own seat of the new one with the token they hold,
and no one learns another's link (a spectator gets the spectators' link). The new links are
kept in the server's memory: after a restart the rematch is offered again.
"""

from __future__ import annotations

import asyncio
import collections

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gaia_rules.web.reading import seat_of
from gaia_rules.web.rooms import Created, Lobby, Room, WebError

__all__ = ["KEPT", "ask", "find"]

KEPT = 1024
"""The rematches remembered at once; the oldest is forgotten first."""

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}

_rematches: collections.OrderedDict[str, Created] = collections.OrderedDict()
_locks: dict[str, asyncio.Lock] = {}


def _answer(room: Room, created: Created, seat: int | None) -> dict[str, object]:
    new = created.room.id
    token = created.spectator if seat is None else created.seats[seat]
    return {"game": new, "url": f"/play/{new}#{token}", "of": room.id}


async def _set_up(lobby: Lobby, room: Room, address: str) -> Created:
    game = room.game
    first = (game.first_player + 1) % game.players
    created = await lobby.create(game.players, game.rules, room.bots, None, first, creator=address)
    _rematches[room.id] = created
    while len(_rematches) > KEPT:
        _rematches.popitem(last=False)
    return created


async def ask(request: Request) -> Response:
    """``POST /api/games/{game}/rematch``: set up the rematch (once) and join it."""
    lobby, room, seat = await seat_of(request)
    if seat is None:
        raise WebError(403, "forbidden", "a spectator cannot ask for a rematch")
    if not room.game.is_over:
        raise WebError(409, "not_over", "a rematch is played once the game is over")
    lock = _locks.setdefault(room.id, asyncio.Lock())
    async with lock:
        address = request.client.host if request.client is not None else ""
        created = _rematches.get(room.id) or await _set_up(lobby, room, address)
    _locks.pop(room.id, None)
    return JSONResponse(_answer(room, created, seat), status_code=201, headers=_HEADERS)


async def find(request: Request) -> Response:
    """``GET /api/games/{game}/rematch``: the rematch, once some seat has asked for it."""
    _, room, seat = await seat_of(request)
    created = _rematches.get(room.id)
    if created is None:
        raise WebError(404, "no_rematch", "no rematch of this game yet")
    return JSONResponse(_answer(room, created, seat), headers=_HEADERS)
