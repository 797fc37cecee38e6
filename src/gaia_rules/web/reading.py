"""Reading a request for the page's own routes (faces, previews, replays, rematches): its
token, a whole number in its query, its JSON body, each refused with a 4xx that says why."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from starlette.requests import Request

from gaia_rules.web.rooms import Lobby, Room, WebError

__all__ = ["LIMIT", "json_body", "seat_of", "whole_number"]

LIMIT = 64 * 1024
"""The largest body read, in bytes: a record of a long game with its own manifest fits."""

_DIGITS = frozenset("0123456789")
_PRINTABLE = re.compile(r"[\x20-\x7e]{1,128}")
"""A token worth looking up: 1-128 printable ASCII characters (as the server reads one)."""


async def seat_of(request: Request) -> tuple[Lobby, Room, int | None]:
    """The lobby, the room the path names and the seat the request's bearer token opens in it
    (``None``: the spectators').

    Raises:
        WebError: 401 without a token, 403 for a token of no seat here, 404 for no game.
    """
    lobby: Lobby = request.app.state.lobby
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    given = token.strip() if scheme.lower() == "bearer" else ""
    if not given:
        raise WebError(401, "unauthorized", "a seat's or a spectator's token is required")
    room = await lobby.room(request.path_params["game"])
    if not _PRINTABLE.fullmatch(given):
        raise WebError(403, "forbidden", "this token opens no seat of this game")
    return lobby, room, lobby.seat_of(room, given)


def whole_number(request: Request, name: str, default: int) -> int:
    """The query parameter ``name`` as a whole number of ASCII digits, or ``default``.

    Raises:
        WebError: 400 for anything but up to 9 ASCII digits.
    """
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text or len(text) > 9 or not set(text) <= _DIGITS:
        raise WebError(400, "bad_request", f"{name}: expected a whole number, got {text[:20]!r}")
    return int(text)


async def json_body(request: Request, limit: int = LIMIT) -> Any:
    """The request's JSON body, declared ``application/json``, read at most ``limit`` bytes
    far, within the server's body timeout.

    Raises:
        WebError: 415 for a body of another type, 413 for a larger body, 408 for one that
            does not come in time, 400 for one that is not JSON.
    """
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":
        raise WebError(415, "unsupported_media_type", "expected a body of application/json")
    limiter = getattr(request.app.state, "limiter", None)
    timeout = limiter.limits.body_timeout if limiter is not None else None
    size = 0
    chunks: list[bytes] = []
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise WebError(413, "too_large", f"the body is over {limit} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise WebError(408, "timeout", "the body did not come in time") from None
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, RecursionError) as exc:
        raise WebError(400, "bad_request", f"the body is not JSON: {exc}") from None
