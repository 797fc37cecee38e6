"""The gate every request and WebSocket passes: [`Gate`][gaia_rules.web.access.Gate], an
ASGI middleware that applies the rate of requests per address to every route, and writes
the access log.

**The rate.** Each address may make ``requests_per_minute`` requests (WebSockets opened
included), in bursts of ``requests_burst``; past it a request is answered ``429`` with
``Retry-After`` and a WebSocket is closed with 4429, before any route runs. (The creation of
games and the live connections have their own limits besides: see
[`Limits`][gaia_rules.web.limits.Limits].)

**The access log.** One line per request, on the logger ``gaia_rules.web.access``, as a JSON
object: ``time`` (UTC, ISO 8601), ``address``, ``method`` (``WS`` for a WebSocket),
``path``, ``status`` (a WebSocket's: 101 once accepted, else the HTTP status of its refusal;
and ``close``, the code it was closed with, if the server closed it), ``bytes`` (of the
response body, or of the frames sent), ``ms`` (from the request to its last byte or its
close). Nothing else: never a header (a token travels in ``Authorization``, or in a
WebSocket's first message), never the query (it is the client's to fill), never a body.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gaia_rules.web.limits import Rate

__all__ = ["ACCESS_LOGGER", "Gate"]

ACCESS_LOGGER = "gaia_rules.web.access"
"""The logger of the access log (a line per request, at ``INFO``)."""

_access = logging.getLogger(ACCESS_LOGGER)


class Gate:
    """``app`` behind the rate per address (``rate``; ``None``: none) and the access log."""

    def __init__(self, app: ASGIApp, rate: Rate | None) -> None:
        self.app = app
        self.rate = rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        client = scope.get("client")
        address = client[0] if client else ""
        entry: dict[str, Any] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "address": address,
            "method": scope.get("method", "GET") if kind == "http" else "WS",
            "path": scope.get("path", ""),
            "status": None,
            "bytes": 0,
        }

        async def counted(message: Message) -> None:
            what = message["type"]
            if what == "http.response.start":
                entry["status"] = message["status"]
            elif what == "http.response.body":
                entry["bytes"] += len(message.get("body", b""))
            elif what == "websocket.accept":
                entry["status"] = 101
            elif what == "websocket.send":
                entry["bytes"] += len(message.get("text") or message.get("bytes") or b"")
            elif what == "websocket.close":
                entry["close"] = message.get("code", 1000)
                if entry["status"] is None:
                    entry["status"] = 403  # closed before it was accepted: refused
            elif what == "websocket.http.response.start":
                entry["status"] = message["status"]
            await send(message)

        try:
            wait = self.rate.take(address) if self.rate is not None else None
            if wait is not None:
                await _refuse(kind, wait, receive, counted)
            else:
                await self.app(scope, receive, counted)
        finally:
            if entry["status"] is None:
                entry["status"] = 499 if kind == "http" else None  # the client went first
            entry["ms"] = round((time.monotonic() - started) * 1000, 1)
            if _access.isEnabledFor(logging.INFO):
                _access.info(json.dumps(entry, separators=(",", ":")))


async def _refuse(kind: str, wait: int, receive: Receive, send: Send) -> None:
    """Answer 429 with ``Retry-After`` (a WebSocket: accept it, send the error, close 4429)."""
    error = {
        "error": {
            "status": 429,
            "kind": "rate_limited",
            "message": "this address sends more requests than this server allows",
        }
    }
    body = json.dumps(error).encode()
    if kind == "websocket":
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": body.decode()})
        await send({"type": "websocket.close", "code": 4429})
        return
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(wait).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
