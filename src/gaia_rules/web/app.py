"""The ASGI application: the HTTP API, the live streams and the page, in one Starlette app.

Routes (the guide "Run a game server" documents each):

- ``GET /`` and ``GET /play/{game}``: the page (static files shipped in the package);
- ``POST /api/games``: create a game; one token per seat a person plays, one for spectators;
- ``GET /api/games/{game}``: the state for the token's seat;
- ``POST /api/games/{game}/actions``: an action of the token's seat, in the wire format,
  with the move number it answers (and an ``Idempotency-Key``, if the client likes);
- ``GET /api/games/{game}/stream``: the state, then every change, as newline-delimited JSON;
- ``WS /api/games/{game}/live``: the same over a WebSocket (the page uses it);
- ``GET /api/games/{game}/record``: the game's record, once the game is over;
- ``GET /api/health``: the store's state (503 when its database cannot be reached);
- the page's own routes: ``GET /replay`` and ``/replay/{game}`` (the replay page), and the
  routes of ``gaia_rules.web.table`` (settings, card faces, Power previews),
  ``gaia_rules.web.replay`` (watching a game again), ``gaia_rules.web.rematch``,
  ``gaia_rules.web.outcomes`` (what each play of a card would lead to) and
  ``gaia_rules.web.listing`` (the open games of the lobby).

A token travels as ``Authorization: Bearer <token>`` (over the WebSocket, in its first
message). Every answer about a game is cut for the token's seat by
``gaia_rules.web.messages``; the library's ``game.state`` and ``game.events`` never leave.
Every malformed request is answered with a 4xx and a body that says what is wrong, and every
malformed WebSocket hello with a close code (4400, 4401, 4403, ...): never a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
from collections.abc import AsyncIterator, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from gaia_rules.actions import Action
from gaia_rules.errors import GaiaRulesError
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_data
from gaia_rules.web import listing, outcomes, rematch, replay, table
from gaia_rules.web.access import Gate
from gaia_rules.web.botpool import BotPool
from gaia_rules.web.limits import Counter, Limits, Rate
from gaia_rules.web.rooms import Lobby, Room, WebError
from gaia_rules.web.store import StoreError, token_hash
from gaia_rules.web.stores import open_store

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = Limits().max_body
"""The largest request body accepted, in bytes (a custom card manifest fits easily)."""

MAX_CLOCK = 7 * 24 * 3600
"""The longest clock per decision a game may ask for, in seconds (a week)."""

KEEPALIVE = 20.0
"""Seconds between the empty lines that keep an idle stream open."""

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

_WHOLE = re.compile(r"[0-9]{1,9}")
"""A whole number as the server reads one: ASCII digits only (``str.isdigit`` would take
``²`` or ``٣``, which ``int`` refuses), at most nine of them."""

_PRINTABLE = re.compile(r"[\x20-\x7e]{1,128}")
"""An idempotency key, and any token worth looking up: 1-128 printable ASCII characters."""


class Limiter:
    """The counters that apply a server's [`Limits`][gaia_rules.web.limits.Limits]."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.creations = Rate(limits.creations_per_minute)
        self.by_token = Counter(limits.connections_per_token)
        self.by_address = Counter(limits.connections_per_address)


def create_app(
    db: Path | str,
    *,
    fsync: bool = False,
    limits: Limits | None = None,
    origins: Sequence[str] = (),
    docs_url: str | None = None,
) -> Starlette:
    """The server's application, storing its games in ``db``: the path of a SQLite file, or
    a ``postgresql://`` URL.

    The store is opened at start-up (nothing is read: a game is loaded when it is first
    asked for) and closed at shutdown; ``app.state.lobby`` holds the games in memory while
    it runs. An accepted action is stored before the server answers, so it survives a killed
    server; with ``fsync`` a SQLite store also waits for the disk itself, so it survives a
    power cut. ``limits`` are the server's limits (the defaults of
    [`Limits`][gaia_rules.web.limits.Limits] if not given); ``origins`` the pages of other
    origins (``https://example.org``) allowed to open its WebSocket, besides its own.
    ``docs_url`` is where the page links the rules pages (see ``gaia_rules.web.table``).
    """
    limits = limits if limits is not None else Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await open_store(db, fsync=fsync)
        pool = BotPool(workers=limits.bot_workers, budget=limits.bot_budget)
        lobby = Lobby(
            store,
            pool,
            idle=limits.idle,
            bots_only=limits.bots_only_games,
            abandon_after=limits.abandon_after,
            clock=limits.clock,
        )
        await lobby.start()
        app.state.lobby = lobby
        app.state.limiter = Limiter(limits)
        app.state.origins = frozenset(origin.rstrip("/").lower() for origin in origins)
        try:
            yield
        finally:
            await lobby.close()
            await store.close()

    routes = [
        Route("/", page),
        Route("/play/{game}", page),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/open", listing.open_games),
        Route("/api/games/{game}", get_game),
        Route("/api/games/{game}/actions", post_action, methods=["POST"]),
        Route("/api/games/{game}/stream", stream),
        Route("/api/games/{game}/record", record),
        Route("/api/health", health),
        WebSocketRoute("/api/games/{game}/live", live),
        # the page's own: settings, card faces, previews, replays, rematches
        Route("/replay", page),
        Route("/replay/{game}", page),
        Route("/api/table", table.settings),
        Route("/api/faces", table.faces, methods=["POST"]),
        Route("/api/games/{game}/preview", table.preview),
        Route("/api/games/{game}/outcomes", outcomes.outcomes),
        Route("/api/games/{game}/listing", listing.list_game, methods=["POST"]),
        Route("/api/games/{game}/join", listing.join, methods=["POST"]),
        Route("/api/games/{game}/replay", replay.game_replay),
        Route("/api/replays", replay.post_record, methods=["POST"]),
        Route("/api/replays/{replay}", replay.record_replay),
        Route("/api/games/{game}/rematch", rematch.ask, methods=["POST"]),
        Route("/api/games/{game}/rematch", rematch.find),
        Mount("/static", StaticFiles(packages=[("gaia_rules.web", "static")]), name="static"),
    ]
    rate = Rate(limits.requests_per_minute, limits.requests_burst)
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Gate, rate=rate)])
    app.state.docs_url = docs_url
    app.add_exception_handler(WebError, _web_error)  # type: ignore[arg-type]
    return app


# -- helpers -------------------------------------------------------------------------------


def _lobby(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _limiter(request: Request | WebSocket) -> Limiter:
    limiter: Limiter = request.app.state.limiter
    return limiter


def _address(request: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded)."""
    return request.client.host if request.client is not None else ""


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=_API)


async def _web_error(request: Request, exc: WebError) -> Response:
    headers = dict(_API)
    if exc.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if exc.retry_after is not None:
        headers["Retry-After"] = str(exc.retry_after)
    return JSONResponse(exc.to_data(), status_code=exc.status, headers=headers)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _token_text(token: str | None) -> str | None:
    """The token if it is one worth looking up, else ``""`` (it opens nothing)."""
    if token is None:
        return None
    return token if _PRINTABLE.fullmatch(token) else ""


async def _seat(request: Request, *, moves: int = 0) -> tuple[Room, int | None]:
    """The room named in the path (at ``moves`` or later) and the seat the request's token
    opens in it."""
    lobby = _lobby(request)
    token = _token_text(_bearer(request))
    if token is None:
        raise WebError(401, "unauthorized", "a seat's or a spectator's token is required")
    room = await lobby.room(request.path_params["game"], moves=moves)
    return room, lobby.seat_of(room, token)


def whole_number(text: str | None, name: str) -> int | None:
    """``text`` read as a whole number by the strict ASCII rule; ``None`` for no text.

    Raises:
        WebError: 400 for anything else.
    """
    if text is None:
        return None
    if not _WHOLE.fullmatch(text):
        raise WebError(400, "bad_request", f"{name}: expected a whole number, got {text[:20]!r}")
    return int(text)


async def _body(request: Request) -> Any:
    """The request's JSON body, read at most ``max_body`` bytes far within ``body_timeout``.

    Raises:
        WebError: 415 when it is not declared ``application/json``, 413 for a larger body,
            408 for one that does not come in time, 400 for one that is not JSON.
    """
    limits = _limiter(request).limits
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media != "application/json":
        raise WebError(
            415,
            "unsupported_media_type",
            "expected a body of Content-Type application/json",
        )
    too_large = WebError(413, "too_large", f"the body is over {limits.max_body} bytes")
    declared = request.headers.get("content-length")
    if declared is not None and (not _WHOLE.fullmatch(declared) or int(declared) > limits.max_body):
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(limits.body_timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limits.max_body:
                    raise too_large
                chunks.append(chunk)
    except TimeoutError:
        raise WebError(
            408, "timeout", f"the body did not come within {limits.body_timeout:g} s"
        ) from None
    try:
        return json.loads(b"".join(chunks))
    except (ValueError, RecursionError) as exc:
        raise WebError(400, "bad_request", f"the body is not JSON: {exc}") from None


def _flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "") in ("1", "true", "yes")


# -- the page ------------------------------------------------------------------------------


@functools.cache
def _page_text() -> str:
    return _PAGE.read_text("utf-8")


async def page(request: Request) -> Response:
    """The page: the lobby at ``/``, a seat's table at ``/play/{game}#token``."""
    return Response(_page_text(), media_type="text/html", headers=_SECURITY)


# -- the API -------------------------------------------------------------------------------


async def create_game(request: Request) -> Response:
    """``POST /api/games``: set up a game, and hand out its tokens."""
    limiter = _limiter(request)
    address = _address(request)

    def over_the_rate(wait: int | None) -> None:
        if wait is not None:
            raise WebError(
                429,
                "rate_limited",
                f"this address may create {limiter.limits.creations_per_minute:g} games a minute",
                retry_after=wait,
            )

    # a creation counts once it is made: one refused (a body too large, not JSON, not a
    # game that can be set up) takes nothing from the address's rate
    over_the_rate(limiter.creations.peek(address))
    data = await _body(request)
    if not isinstance(data, dict):
        raise WebError(400, "bad_request", "expected a JSON object")
    unknown = sorted(set(data) - {"players", "rules", "bots", "seed", "first_player", "clock"})
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
    clock = data.get("clock")
    if clock is not None and (
        isinstance(clock, bool) or not isinstance(clock, int | float) or not 0 <= clock <= MAX_CLOCK
    ):
        raise WebError(
            400, "bad_request", f"clock: expected seconds from 0 to {MAX_CLOCK}, got {clock!r}"
        )
    try:
        rules = Rules.from_dict(data.get("rules", {"format": 1}))
    except GaiaRulesError as exc:
        raise WebError(400, "bad_request", str(exc)) from None
    lobby = _lobby(request)
    try:
        in_play = await lobby.store.games_in_play(address)
    except StoreError:
        raise WebError(503, "unavailable", "the server could not read its games") from None
    if in_play >= limiter.limits.games_per_address:
        raise WebError(
            429,
            "too_many",
            f"this address has {in_play} games in play, as many as this server allows",
            retry_after=60,
        )
    over_the_rate(limiter.creations.peek(address))  # again: others may have come meanwhile
    created = await lobby.create(
        players,
        rules,
        tuple(bots),
        seed,
        first_player,
        creator=address,
        clock=None if clock is None else float(clock),
    )
    limiter.creations.take(address)
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


async def get_game(request: Request) -> Response:
    """``GET /api/games/{game}?since=N&world=1&moves=M``: the state for the token's seat;
    with ``moves``, at that move number or later (read from the store if this process has
    not seen it yet: an action answered by another process)."""
    moves = whole_number(request.query_params.get("moves"), "moves") or 0
    room, seat = await _seat(request, moves=moves)
    since = whole_number(request.query_params.get("since"), "since") or 0
    return _json(room.state(seat, since, world=_flag(request, "world")))


def _action_request(data: Any) -> tuple[Action, int | None]:
    """The action a POST carries and the move number it answers (``None``: a bare action)."""
    move: Any = None
    if isinstance(data, dict) and "action" in data and "type" not in data:
        unknown = sorted(set(data) - {"move", "action"})
        if unknown:
            raise WebError(400, "bad_request", f"unknown field(s) {unknown}")
        move = data.get("move")
        if move is not None and (isinstance(move, bool) or not isinstance(move, int) or move < 0):
            raise WebError(400, "bad_request", f"move: expected a move number, got {move!r}")
        data = data["action"]
    try:
        action: Action = from_data(data, Action)
    except JsonError as exc:
        raise WebError(400, "bad_request", f"not an action: {'; '.join(exc.problems)}") from None
    return action, move


async def post_action(request: Request) -> Response:
    """``POST /api/games/{game}/actions``: the token's seat takes an action.

    The body is ``{"move": N, "action": ...}`` (or the bare action, with no precondition);
    the header ``Idempotency-Key`` may name the attempt. A stale move number, or a key used
    with another action, is refused with 409 and the seat's state; a retry of an accepted
    action answers what its first answer said."""
    room, seat = await _seat(request)
    key = request.headers.get("idempotency-key")
    if key is not None and not _PRINTABLE.fullmatch(key):
        raise WebError(
            400, "bad_request", "Idempotency-Key: expected 1-128 printable ASCII characters"
        )
    action, move = _action_request(await _body(request))
    answer = await _lobby(request).submit(room, seat, action, move=move, key=key)
    return _json(answer)


async def record(request: Request) -> Response:
    """``GET /api/games/{game}/record``: the record, once the game is over (before, it would
    tell the seed, and with it every hidden card)."""
    room, _ = await _seat(request)
    if not room.over:
        raise WebError(
            409, "not_over", "the record is given when the game is over: it names every card"
        )
    headers = dict(_API)
    if room.ended is not None:  # a record with no result: the server ended the game
        headers["Gaia-Ended"] = room.ended
    return Response(room.game.record().to_json(), media_type="application/json", headers=headers)


async def health(request: Request) -> Response:
    """``GET /api/health``: 200 with the store's state (read from its database) and the
    games in this process's memory; 503 when the database cannot be reached."""
    lobby = _lobby(request)
    try:
        store = await lobby.store.health()
    except StoreError as exc:
        return _json({"ok": False, "store": {"error": str(exc)}}, 503)
    return _json({"ok": True, "store": store, "in_memory": len(lobby.rooms)})


# -- live ----------------------------------------------------------------------------------


class _Watch:
    """A live connection's place in the limits and in its room: counted while it lasts,
    per address from its opening (a WebSocket that has not sent its hello yet included),
    per token and in its room once it is known."""

    def __init__(self, limiter: Limiter, address: str) -> None:
        self.limiter = limiter
        self.address = address
        self.counted = False
        self.token: str | None = None
        self.room: Room | None = None

    def arrive(self) -> None:
        """Count the connection in for its address, or raise 429."""
        if not self.limiter.by_address.enter(self.address):
            raise WebError(
                429,
                "too_many",
                "this address holds as many live connections as allowed",
                retry_after=10,
            )
        self.counted = True

    def enter(self, room: Room, token: str) -> None:
        """Count the connection in for ``token`` and in ``room``, or raise 429."""
        if not self.counted:
            self.arrive()
        hashed = token_hash(token)
        if not self.limiter.by_token.enter(hashed):
            raise WebError(
                429,
                "too_many",
                "this token holds as many live connections as allowed",
                retry_after=10,
            )
        self.token = hashed
        self.room = room
        room.watchers += 1

    def leave(self) -> None:
        """Count the connection out of everything it was counted in (once)."""
        if self.counted:
            self.limiter.by_address.leave(self.address)
            self.counted = False
        if self.token is not None:
            self.limiter.by_token.leave(self.token)
            self.token = None
        if self.room is not None:
            self.room.watchers -= 1
            self.room = None


async def stream(request: Request) -> Response:
    """``GET /api/games/{game}/stream?since=N``: newline-delimited JSON, one state a line."""
    room, seat = await _seat(request)
    lobby = _lobby(request)
    since = whole_number(request.query_params.get("since"), "since") or 0
    world = _flag(request, "world")
    watch = _Watch(_limiter(request), _address(request))
    try:
        watch.enter(room, _bearer(request) or "")
    except WebError:
        watch.leave()
        raise

    async def lines() -> AsyncIterator[str]:
        try:
            changed = room.changed
            moves, version = room.moves, room.version
            yield json.dumps(room.state(seat, since, world=world), separators=(",", ":")) + "\n"
            while not lobby.closing:
                try:
                    await asyncio.wait_for(changed.wait(), KEEPALIVE)
                except TimeoutError:
                    yield "\n"
                    continue
                changed = room.changed
                if room.version != version:
                    text = room.frame(seat, moves, world=world)
                    moves, version = room.moves, room.version
                    yield text + "\n"
        finally:
            watch.leave()

    # the generator's ``finally`` does not run if the response is dropped before it starts:
    # the background task counts the connection out then (``leave`` does it once)
    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers=_API,
        background=BackgroundTask(watch.leave),
    )


async def _hello(websocket: WebSocket, wait: float) -> tuple[str, int]:
    """The first frame of a WebSocket: ``{"token": "...", "since": N}``, as text or as UTF-8
    bytes; the token and ``since``.

    Raises:
        WebError: 400 for anything else; 401 for a token that cannot be one.
        TimeoutError: Nothing came in time.
        WebSocketDisconnect: The client went.
    """
    message = await asyncio.wait_for(websocket.receive(), wait)
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raw = message.get("bytes") or b""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = None
    try:
        hello = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        hello = None
    if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
        raise WebError(400, "bad_request", 'expected {"token": "...", "since": N}')
    since = hello.get("since", 0)
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise WebError(400, "bad_request", "since: expected a whole number")
    token = _token_text(hello["token"])
    if not token:
        raise WebError(401, "unauthorized", "this token opens no seat of this game")
    return token, since


def _same_origin(websocket: WebSocket) -> bool:
    """The page that opens the WebSocket is the server's own (or an allowed one); a client
    that sends no ``Origin`` (not a browser) is let through."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    allowed: frozenset[str] = websocket.app.state.origins
    if origin.rstrip("/").lower() in allowed:
        return True
    try:
        return urlsplit(origin).netloc.lower() == websocket.headers.get("host", "").lower()
    except ValueError:
        return False


async def live(websocket: WebSocket) -> None:
    """``WS /api/games/{game}/live``: send ``{"token": ..., "since": N}`` first; then every
    state of the game comes as a text message: the first whole, with the world drawn, each
    later one with the events of its change, and the world when it changed."""
    await websocket.accept()
    lobby = _lobby(websocket)
    limiter = _limiter(websocket)
    watch = _Watch(limiter, _address(websocket))
    try:
        try:
            if not _same_origin(websocket):
                raise WebError(403, "forbidden", "this page's origin may not open a game")
            watch.arrive()  # counted before its hello: silent sockets are live connections too
            token, since = await _hello(websocket, limiter.limits.hello_timeout)
            room = await lobby.room(websocket.path_params["game"])
            try:
                seat = lobby.seat_of(room, token)
            except WebError as exc:
                raise WebError(401, "unauthorized", exc.message) from None
            watch.enter(room, token)
        except WebError as exc:
            await websocket.send_json(exc.to_data())
            await websocket.close(code=4000 + exc.status if exc.status < 500 else 1011)
            return
        except TimeoutError:
            await websocket.close(code=4408)
            return
        except WebSocketDisconnect:
            return
        await _follow(websocket, lobby, room, seat, since)
    finally:
        watch.leave()


async def _follow(
    websocket: WebSocket, lobby: Lobby, room: Room, seat: int | None, since: int
) -> None:
    """Send the state, then a frame after every change, until either side goes."""
    closed = asyncio.ensure_future(_until_closed(websocket))
    try:
        changed = room.changed
        moves, version = room.moves, room.version
        first = room.state(seat, since, world=True)
        await websocket.send_text(json.dumps(first, separators=(",", ":")))
        while not lobby.closing:
            waiter = asyncio.ensure_future(changed.wait())
            await asyncio.wait((waiter, closed), return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if closed.done():
                return
            changed = room.changed
            if room.version != version:
                text = room.frame(seat, moves, world=True)
                moves, version = room.moves, room.version
                await websocket.send_text(text)
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
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
