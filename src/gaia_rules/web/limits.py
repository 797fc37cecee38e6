"""What a server lets one client make it do: [`Limits`][gaia_rules.web.limits.Limits], each
a named setting with its default and its ``gaia-rules serve`` flag (the guide "Run a game
server" lists them in one table), and the counters that apply them.

Over a limit, a request is answered ``429 Too Many Requests`` with ``Retry-After`` (seconds),
and a WebSocket is closed with code 4429. An address is the client's as the server sees it:
behind a reverse proxy, start the server with ``--proxy`` naming the proxy, so that it reads
the client's address from ``X-Forwarded-For``. The rates and live counts are kept by each
server process (behind a load balancer spreading clients over N processes, a client may get
up to N times a rate); the games in play per address are counted in the store, for all.
"""

from __future__ import annotations

import math
import time

import attrs

__all__ = ["Counter", "Limits", "Rate"]


@attrs.frozen
class Limits:
    """The limits of a server (each with the flag that sets it)."""

    creations_per_minute: float = 20.0
    """Games one address may create a minute, in bursts of as many (``--creations``)."""
    games_per_address: int = 50
    """Games created by one address that may be in play at once (``--games-per-address``)."""
    bots_only_games: int = 2
    """Games of bots alone (no person seated) in play at once on a process; 0 refuses them
    (``--bots-only-games``)."""
    connections_per_token: int = 8
    """Live connections (WebSockets and streams) one token may hold open
    (``--connections-per-token``)."""
    connections_per_address: int = 64
    """Live connections one address may hold open (``--connections-per-address``)."""
    idle: float = 300.0
    """Seconds after which a game nobody uses leaves memory (``--idle``); it is read back
    from the store when next asked for."""
    header_timeout: float = 10.0
    """Seconds a client has to send a request's line and headers (``--header-timeout``)."""
    body_timeout: float = 10.0
    """Seconds a client has to send a request's body (``--body-timeout``)."""
    hello_timeout: float = 10.0
    """Seconds a WebSocket has to send its hello (``--hello-timeout``)."""
    max_body: int = 64 * 1024
    """The largest request body, in bytes."""
    bot_workers: int = 1
    """Worker processes for the bots' decisions; 0 decides on a thread (``--bot-workers``)."""
    bot_budget: float = 10.0
    """Seconds a bot's decision may take; past it the random bot decides (``--bot-budget``)."""
    abandon_after: float = 3600.0
    """Seconds with no action after which a game in play ends as abandoned: it takes no more
    actions, its seats are told, and it counts no more in its creator's games in play
    (``--abandon-after``; 0: never)."""
    clock: float = 0.0
    """Seconds a person's seat has for each decision; when they run out, the seat declines
    where it may, else the random bot decides for it (spec 1.17) (``--clock``; 0: no
    clock)."""
    requests_per_minute: float = 3000.0
    """Requests (of every route, WebSockets opened included) one address may make a minute,
    in bursts of ``requests_burst`` (``--requests``)."""
    requests_burst: int = 300
    """The burst of requests one address may make at once (``--requests-burst``)."""
    pending_per_address: int = 32
    """Connections of one address that have not sent a request's headers yet: the
    connections a client opens and leaves silent (``--pending-per-address``). Not counted
    for the proxies named with ``--proxy``, which cap their own."""


class Rate:
    """A token bucket per key: ``per_minute`` takes a minute, in bursts of ``burst`` (by
    default as many as a minute's)."""

    def __init__(self, per_minute: float, burst: float | None = None) -> None:
        self.per_second = per_minute / 60.0
        self.burst = max(1.0, per_minute if burst is None else burst)
        self._buckets: dict[str, tuple[float, float]] = {}

    def peek(self, key: str, now: float | None = None) -> int | None:
        """What [`take`][gaia_rules.web.limits.Rate.take] would answer, taking nothing."""
        now = time.monotonic() if now is None else now
        if self.per_second <= 0:
            return 60
        level, then = self._buckets.get(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.per_second)
        if level < 1.0:
            return max(1, math.ceil((1.0 - level) / self.per_second))
        return None

    def take(self, key: str, now: float | None = None) -> int | None:
        """Take one for ``key``: ``None`` if it may go now, else the whole seconds to wait."""
        now = time.monotonic() if now is None else now
        if self.per_second <= 0:
            return 60
        level, then = self._buckets.get(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.per_second)
        if level < 1.0:
            self._buckets[key] = (level, now)
            return max(1, math.ceil((1.0 - level) / self.per_second))
        self._buckets[key] = (level - 1.0, now)
        if len(self._buckets) > 10_000:  # forget the keys whose buckets are full again
            full = self.burst / self.per_second
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}
        return None


class Counter:
    """Live things per key, each key up to ``most``."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.counts: dict[str, int] = {}

    def enter(self, key: str) -> bool:
        """Count one more for ``key``, if it stays within ``most``; whether it did."""
        count = self.counts.get(key, 0)
        if count >= self.most:
            return False
        self.counts[key] = count + 1
        return True

    def leave(self, key: str) -> None:
        """Count one less for ``key``."""
        count = self.counts.get(key, 0) - 1
        if count <= 0:
            self.counts.pop(key, None)
        else:
            self.counts[key] = count
