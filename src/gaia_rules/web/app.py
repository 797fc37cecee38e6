"""The ASGI application: the HTTP API, the live streams and the page, in one Starlette app.

Routes (the guide "Run a game server" documents each):

- ``GET /`` and ``GET /play/{game}``: the page (static files shipped in the package);
- ``POST /api/games``: create a game; one token per seat a person plays, one for spectators;
- ``GET /api/games/{game}``: the state for the token's seat;
- ``POST /api/games/{game}/actions``: an action of the token's seat, in the wire format;
- ``GET /api/games/{game}/stream``: the state, then every change, as newline-delimited JSON;
- ``WS /api/games/{game}/live``: the same over a WebSocket (the page uses it);
- ``GET /api/games/{game}/record``: the game's record, once the game is over;
- the page's own routes: ``GET /replay`` and ``/replay/{game}`` (the replay page), and the
  routes of ``gaia_rules.web.table`` (settings, card faces, Power previews),
  ``gaia_rules.web.replay`` (watching a game again) and ``gaia_rules.web.rematch``.

A token travels as ``Authorization: Bearer <token>`` (over the WebSocket, in its first
message). Every answer about a game is cut for the token's seat by
``gaia_rules.web.messages``; the library's ``game.state`` and ``game.events`` never leave.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gaia_rules.actions import Action
from gaia_rules.errors import GaiaRulesError
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_data
from gaia_rules.web import rematch, replay, table
from gaia_rules.web.messages import state_message
from gaia_rules.web.rooms import Lobby, Room, WebError
from gaia_rules.web.store import Store

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes (a custom card manifest fits easily)."""

KEEPALIVE = 20.0
"""Seconds between the empty lines that keep an idle stream open."""

AUTH_WAIT = 10.0
"""Seconds a WebSocket has to send its token."""

_PAGE = files("gaia_rules.web") / "static" / "index.html"

_SECURITY = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
_API = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def create_app(db: Path | str, *, fsync: bool = False, docs_url: str | None = None) -> Starlette:
    """The server's application, storing its games in the SQLite file ``db``.

    The file is opened at start-up (every stored game is replayed and resumed there) and
    closed at shutdown; ``app.state.lobby`` holds the games while it runs. An accepted
    action is in the file before the server answers, so it survives a killed server; with
    ``fsync`` the server also waits for the disk itself, so it survives a power cut.
    ``docs_url`` is where the page links the rules pages (see ``gaia_rules.web.table``).
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await Store.open(db, fsync=fsync)
        lobby = Lobby(store)
        await lobby.resume()
        app.state.lobby = lobby
        try:
            yield
        finally:
            await lobby.close()
            await store.close()

    routes = [
        Route("/", page),
        Route("/play/{game}", page),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game}", get_game),
        Route("/api/games/{game}/actions", post_action, methods=["POST"]),
        Route("/api/games/{game}/stream", stream),
        Route("/api/games/{game}/record", record),
        WebSocketRoute("/api/games/{game}/live", live),
        # the page's own: settings, card faces, previews, replays, rematches
        Route("/replay", page),
        Route("/replay/{game}", page),
        Route("/api/table", table.settings),
        Route("/api/faces", table.faces, methods=["POST"]),
        Route("/api/games/{game}/preview", table.preview),
        Route("/api/games/{game}/replay", replay.game_replay),
        Route("/api/replays", replay.post_record, methods=["POST"]),
        Route("/api/replays/{replay}", replay.record_replay),
        Route("/api/games/{game}/rematch", rematch.ask, methods=["POST"]),
        Route("/api/games/{game}/rematch", rematch.find),
        Mount("/static", StaticFiles(packages=[("gaia_rules.web", "static")]), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.docs_url = docs_url
    app.add_exception_handler(WebError, _web_error)  # type: ignore[arg-type]
    return app


# -- helpers -------------------------------------------------------------------------------


def _lobby(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=_API)


async def _web_error(request: Request, exc: WebError) -> Response:
    headers = dict(_API)
    if exc.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(exc.to_data(), status_code=exc.status, headers=headers)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _seat(request: Request) -> tuple[Room, int | None]:
    """The room named in the path and the seat the request's token opens in it."""
    lobby = _lobby(request)
    room = lobby.room(request.path_params["game"])
    return room, lobby.seat_of(room, _bearer(request))


async def _body(request: Request) -> Any:
    """The request's JSON body, read at most ``MAX_BODY`` bytes far.

    Raises:
        WebError: 413 for a larger body, 400 for one that is not JSON.
    """
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise WebError(413, "too_large", f"the body is over {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise WebError(413, "too_large", f"the body is over {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, RecursionError) as exc:
        raise WebError(400, "bad_request", f"the body is not JSON: {exc}") from None


def _int_param(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isdigit() or len(text) > 9:
        raise WebError(400, "bad_request", f"{name}: expected a whole number, got {text[:20]!r}")
    return int(text)


def _flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "") in ("1", "true", "yes")


# -- the page ------------------------------------------------------------------------------


async def page(request: Request) -> Response:
    """The page: the lobby at ``/``, a seat's table at ``/play/{game}#token``."""
    return Response(_PAGE.read_text("utf-8"), media_type="text/html", headers=_SECURITY)


# -- the API -------------------------------------------------------------------------------


async def create_game(request: Request) -> Response:
    """``POST /api/games``: set up a game, and hand out its tokens."""
    data = await _body(request)
    if not isinstance(data, dict):
        raise WebError(400, "bad_request", "expected a JSON object")
    unknown = sorted(set(data) - {"players", "rules", "bots", "seed", "first_player"})
    if unknown:
        raise WebError(400, "bad_request", f"unknown field(s) {unknown}")
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise WebError(400, "bad_request", f"players: expected a whole number, got {players!r}")
    bots = data.get("bots", [None] * players if 2 <= players <= 5 else [])
    if not isinstance(bots, list) or not all(b is None or isinstance(b, str) for b in bots):
        raise WebError(400, "bad_request", "bots: expected a list of bot names or nulls")
    seed = data.get("seed")
    first_player = data.get("first_player", 0)
    for name, value in (("seed", seed), ("first_player", first_player)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise WebError(400, "bad_request", f"{name}: expected a whole number, got {value!r}")
    try:
        rules = Rules.from_dict(data.get("rules", {"format": 1}))
    except GaiaRulesError as exc:
        raise WebError(400, "bad_request", str(exc)) from None
    created = await _lobby(request).create(players, rules, tuple(bots), seed, first_player)
    game_id = created.room.id
    seats = [
        {
            "seat": seat,
            "bot": created.room.bots[seat],
            "token": token,
            "url": None if token is None else f"/play/{game_id}#{token}",
        }
        for seat, token in enumerate(created.seats)
    ]
    spectator = {"token": created.spectator, "url": f"/play/{game_id}#{created.spectator}"}
    return _json({"game": game_id, "seats": seats, "spectator": spectator}, 201)


def _state(room: Room, seat: int | None, since: int, world: bool) -> dict[str, Any]:
    message = state_message(room.game, seat, since, world=world)
    message["game"] = room.id
    message["bots"] = list(room.bots)
    return message


async def get_game(request: Request) -> Response:
    """``GET /api/games/{game}?since=N&world=1``: the state for the token's seat."""
    room, seat = _seat(request)
    _lobby(request).kick(room)
    since = _int_param(request, "since", 0)
    return _json(_state(room, seat, since, _flag(request, "world")))


async def post_action(request: Request) -> Response:
    """``POST /api/games/{game}/actions``: the token's seat takes an action."""
    room, seat = _seat(request)
    data = await _body(request)
    try:
        action: Action = from_data(data, Action)
    except JsonError as exc:
        raise WebError(400, "bad_request", f"not an action: {'; '.join(exc.problems)}") from None
    events = await _lobby(request).submit(room, seat, action)
    assert seat is not None  # submit refuses spectators
    game = room.game
    seen = game.events_for(seat)[len(game.events) - len(events) :]
    return _json(
        {
            "ok": True,
            "moves": len(game.actions),
            "to_move": game.to_move,
            "over": game.is_over,
            "events": [event.to_data() for event in seen],
        }
    )


async def record(request: Request) -> Response:
    """``GET /api/games/{game}/record``: the record, once the game is over (before, it would
    tell the seed, and with it every hidden card)."""
    room, _ = _seat(request)
    if not room.game.is_over:
        raise WebError(
            409, "not_over", "the record is given when the game is over: it names every card"
        )
    return Response(room.game.record().to_json(), media_type="application/json", headers=_API)


# -- live ----------------------------------------------------------------------------------


async def _changes(
    lobby: Lobby, room: Room, seat: int | None, since: int, world: bool
) -> AsyncIterator[dict[str, Any] | None]:
    """The state, then a state after every change (``None`` when a keep-alive is due)."""
    while not lobby.closing:
        changed = room.changed
        message = _state(room, seat, since, world)
        since = message["since"] + len(message["events"])
        yield message
        while True:
            try:
                await asyncio.wait_for(changed.wait(), KEEPALIVE)
                break
            except TimeoutError:
                yield None


async def stream(request: Request) -> Response:
    """``GET /api/games/{game}/stream?since=N``: newline-delimited JSON, one state a line."""
    room, seat = _seat(request)
    lobby = _lobby(request)
    lobby.kick(room)
    since = _int_param(request, "since", 0)
    world = _flag(request, "world")

    async def lines() -> AsyncIterator[str]:
        async for message in _changes(lobby, room, seat, since, world):
            yield "\n" if message is None else json.dumps(message, separators=(",", ":")) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson", headers=_API)


async def live(websocket: WebSocket) -> None:
    """``WS /api/games/{game}/live``: send ``{"token": ..., "since": N}`` first; then every
    state of the game comes as a text message, with the world drawn."""
    await websocket.accept()
    lobby = _lobby(websocket)
    try:
        try:
            hello = json.loads(await asyncio.wait_for(websocket.receive_text(), AUTH_WAIT))
        except (ValueError, RecursionError):
            hello = None
        if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
            raise WebError(400, "bad_request", 'expected {"token": "...", "since": N}')
        since = hello.get("since", 0)
        if isinstance(since, bool) or not isinstance(since, int):
            raise WebError(400, "bad_request", "since: expected a whole number")
        room = lobby.room(websocket.path_params["game"])
        seat = lobby.seat_of(room, hello["token"])
    except WebError as exc:
        await websocket.send_json(exc.to_data())
        await websocket.close(code=4000 + exc.status)
        return
    except TimeoutError:
        await websocket.close(code=4408)
        return
    except WebSocketDisconnect:
        return
    lobby.kick(room)
    closed = asyncio.ensure_future(_until_closed(websocket))
    try:
        while not lobby.closing:
            changed = room.changed
            message = _state(room, seat, since, world=True)
            since = message["since"] + len(message["events"])
            await websocket.send_text(json.dumps(message, separators=(",", ":")))
            waiter = asyncio.ensure_future(changed.wait())
            await asyncio.wait((waiter, closed), return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if closed.done():
                return
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        closed.cancel()
    with contextlib.suppress(RuntimeError):
        await websocket.close()


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it goes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await websocket.receive_text()
