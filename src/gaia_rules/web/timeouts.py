"""A header timeout for uvicorn, and a cap on silent connections per address:
[`timed_http`][gaia_rules.web.timeouts.timed_http].

uvicorn closes a keep-alive connection that stays idle between requests, but waits without
end for a request's line and headers once they have begun, or for the first request of a new
connection: a client that opens connections and sends a byte a minute holds them all. The
protocol class below gives every request ``seconds`` to send its line and headers, from the
connection's opening or the request's first byte; past that the server answers ``408
Request Timeout`` and closes the connection. (The body has its own timeout, in the
application: [`gaia_rules.web.app`][gaia_rules.web.app].)

It also counts, per client address, the connections that have not yet sent a request's
headers (opened and silent, or sending them slowly): past ``pending`` of them, a new one is
answered ``429 Too Many Requests`` with ``Retry-After`` and closed at once, so that one
address cannot hold thousands of sockets, each for the header timeout. The addresses of
trusted proxies are not counted (every client comes through them; they cap their own).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["timed_http"]

_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\nretry-after: 10\r\ncontent-length: 0\r\n"
    b"connection: close\r\n\r\n"
)


def timed_http(
    seconds: float, *, pending: int = 0, trusted: frozenset[str] = frozenset()
) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with a header timeout of ``seconds`` and at most
    ``pending`` connections per address (0: no cap) that have not sent their headers yet,
    the ``trusted`` addresses (or ``*``: all) apart (pass it as ``uvicorn.Config(http=...)``)."""
    silent: dict[str, int] = {}
    """Per address, its connections waiting for a request's headers."""

    class TimedHttpToolsProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _counted: str | None = None

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)
            self._count()

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            self._uncount()

        def _count(self) -> None:
            if self._counted is not None or pending <= 0 or "*" in trusted:
                return
            peer = self.transport.get_extra_info("peername")
            address = str(peer[0]) if peer else ""
            if address in trusted:
                return
            if silent.get(address, 0) >= pending:
                if not self.transport.is_closing():
                    self.transport.write(_TOO_MANY)
                    self.transport.close()
                return
            silent[address] = silent.get(address, 0) + 1
            self._counted = address

        def _uncount(self) -> None:
            address, self._counted = self._counted, None
            if address is not None:
                left = silent.get(address, 1) - 1
                if left > 0:
                    silent[address] = left
                else:
                    silent.pop(address, None)

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
