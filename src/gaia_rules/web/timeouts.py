"""A header timeout for uvicorn: [`timed_http`][gaia_rules.web.timeouts.timed_http].

uvicorn closes a keep-alive connection that stays idle between requests, but waits without
end for a request's line and headers once they have begun, or for the first request of a new
connection: a client that opens connections and sends a byte a minute holds them all. The
protocol class below gives every request ``seconds`` to send its line and headers, from the
connection's opening or the request's first byte; past that the server answers ``408
Request Timeout`` and closes the connection. (The body has its own timeout, in the
application: [`gaia_rules.web.app`][gaia_rules.web.app].)
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["timed_http"]

_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def timed_http(seconds: float) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with a header timeout of ``seconds`` (pass it as
    ``uvicorn.Config(http=...)``)."""

    class TimedHttpToolsProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.write(_TIMEOUT)
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            self._disarm()  # a keep-alive connection: uvicorn's keep-alive timeout holds now
            super().on_response_complete()

    return TimedHttpToolsProtocol
