"""The store on a PostgreSQL database (psycopg 3, async): for several server processes, on
one machine or many, serving the same games.

The tables are those of the SQLite store. An action is one ``INSERT``; its primary key (the
game, the action's number) and a unique index on (the game, its idempotency key) make two
processes that take the same move at once store it once: the second is told
[`MoveTakenError`][gaia_rules.web.store.MoveTakenError], reads what was stored, and answers from it.

In the same transaction the writer sends ``NOTIFY gaia_actions, '<game> <moves>'``: the
game's id and its number of actions, never a secret. Every process listens on one
connection of its own, and a process holding that game in memory reads the new actions
from the database and sends each of its seats its own share, as for an action of its own.
A notification is delivered only once its transaction has committed, so the rows are there
to read.

**A database restart** breaks every pooled connection at once. A statement that finds its
connection broken is sent again, once, on a new connection (made within
[`RECONNECT`][gaia_rules.web.store_postgres.RECONNECT] seconds, while the database comes
back): a request never fails for a connection that was broken before it began. A write whose
answer was lost with its connection is not taken twice: its retry finds the row it wrote
(the same seat, action and key at that number, or the same game) and answers as if the first
attempt had.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg
from psycopg import errors

from gaia_rules.web.store import (
    ABANDONED,
    ENDED,
    Listener,
    MoveTakenError,
    NewGame,
    StoredAction,
    StoredGame,
    StoreError,
)

__all__ = ["CHANNEL", "POOL", "RECONNECT", "PostgresStore"]

logger = logging.getLogger("gaia_rules.web")

CHANNEL = "gaia_actions"
"""The channel every process listens on."""

POOL = 8
"""Connections each process writes and reads through (the listener is one more: each process
holds ``POOL + 1`` connections of the database's ``max_connections``)."""

RECONNECT = 3.0
"""Seconds a statement whose connection broke waits for a new one (a database restarting)."""

T = TypeVar("T")

_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        creator TEXT NOT NULL,
        players INTEGER NOT NULL,
        bots TEXT NOT NULL,
        head TEXT NOT NULL,
        over BOOLEAN NOT NULL
    )""",
    # how the server ended the game (abandoned), if it did
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS ended TEXT",
    # the seconds per decision the game asked for (NULL: the server's --clock)
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS clock DOUBLE PRECISION",
    "CREATE INDEX IF NOT EXISTS games_in_play ON games (creator) WHERE NOT over",
    """CREATE TABLE IF NOT EXISTS tokens (
        hash TEXT PRIMARY KEY,
        game TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS tokens_of_game ON tokens (game)",
    """CREATE TABLE IF NOT EXISTS actions (
        game TEXT NOT NULL REFERENCES games(id),
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        key TEXT,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game, number)
    )""",
    "CREATE UNIQUE INDEX IF NOT EXISTS actions_by_key ON actions (game, key) WHERE key IS NOT NULL",
]

_Connection = psycopg.AsyncConnection[Any]


class PostgresStore:
    """A PostgreSQL database of a server. Open it with ``await PostgresStore.open(url)``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._idle: asyncio.Queue[_Connection] = asyncio.Queue()
        self._connections: list[_Connection] = []
        self._listener: _Connection | None = None
        self._listening: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, *, pool: int = POOL) -> PostgresStore:
        """Connect, and create the tables if they are not there.

        Raises:
            StoreError: The database cannot be reached.
        """
        store = cls(url)
        try:
            for _ in range(pool):
                connection = await store._connect()
                store._connections.append(connection)
                store._idle.put_nowait(connection)
            connection = store._connections[0]
            async with connection.transaction():
                # one process at a time creates the tables (CREATE IF NOT EXISTS races)
                await connection.execute("SELECT pg_advisory_xact_lock(7170)")
                for statement in _SCHEMA:
                    await connection.execute(statement)
        except (psycopg.Error, OSError) as exc:
            await store.close()
            raise StoreError(f"cannot open the database: {exc}") from None
        return store

    async def _connect(self) -> _Connection:
        return await psycopg.AsyncConnection.connect(self.url, autocommit=True)

    async def _reconnect(self, broken: _Connection) -> _Connection:
        """A new connection in the pool in place of ``broken``, made within ``RECONNECT``
        seconds.

        Raises:
            psycopg.OperationalError: The database did not come back in time.
        """
        with contextlib.suppress(psycopg.Error, OSError):
            await broken.close()
        deadline = time.monotonic() + RECONNECT
        pause = 0.05
        while True:
            try:
                connection = await self._connect()
            except (psycopg.OperationalError, OSError):
                if time.monotonic() + pause > deadline:
                    raise
                await asyncio.sleep(pause)
                pause = min(pause * 2, 0.5)
                continue
            if broken in self._connections:
                self._connections[self._connections.index(broken)] = connection
            else:
                self._connections.append(connection)
            return connection

    async def _run(self, work: Callable[[_Connection, bool], Awaitable[T]]) -> T:
        """``work(connection, retry)`` on a connection of the pool (autocommit: each
        statement is its own transaction). A connection found broken, before or by the
        work, is replaced, and the work done again on the new one with ``retry`` true (once).

        Raises:
            StoreError: The database could not be reached, or refused the work.
        """
        connection = await self._idle.get()
        try:
            if connection.closed or connection.broken:
                connection = await self._reconnect(connection)
            try:
                return await work(connection, False)
            except (psycopg.OperationalError, OSError):
                if not (connection.closed or connection.broken):
                    raise
                logger.warning("a database connection broke: the statement goes again")
            connection = await self._reconnect(connection)
            return await work(connection, True)
        except (psycopg.Error, OSError) as exc:
            raise StoreError(f"the store failed: {exc}") from None
        finally:
            self._idle.put_nowait(connection)

    async def close(self) -> None:
        """Close every connection."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
        for connection in [*self._connections, self._listener]:
            if connection is not None:
                with contextlib.suppress(psycopg.Error):
                    await connection.close()
        self._connections.clear()

    # Each call is one statement, so one round trip to the database (a busy machine schedules
    # the database's process late at every round trip: five of them made an action five times
    # slower than one).

    async def create(self, game: NewGame) -> None:
        """Store a new game with its head and its tokens' hashes, in one statement."""
        hashes, seats = list(game.tokens), list(game.tokens.values())

        async def work(connection: _Connection, retry: bool) -> None:
            try:
                await connection.execute(
                    "WITH game AS (INSERT INTO games (id, created, creator, players, bots, head, "
                    "over, clock) VALUES (%s, extract(epoch from now()), %s, %s, %s, %s, false, "
                    "%s) "
                    "RETURNING id) "
                    "INSERT INTO tokens (hash, game, seat) SELECT hash, game.id, seat "
                    "FROM game, unnest(%s::text[], %s::int[]) AS token(hash, seat)",
                    (
                        game.id,
                        game.creator,
                        game.players,
                        json.dumps(list(game.bots)),
                        game.head,
                        game.clock,
                        hashes,
                        seats,
                    ),
                )
            except errors.UniqueViolation:
                if not retry:
                    raise
                # the first attempt was stored, and its answer lost with its connection
                cursor = await connection.execute(
                    "SELECT 1 FROM games WHERE id = %s AND head = %s", (game.id, game.head)
                )
                if await cursor.fetchone() is None:
                    raise

        await self._run(work)

    async def append(self, game: str, action: StoredAction, *, over: bool) -> None:
        """Store an accepted action, and tell the other processes, in one statement (one
        transaction): the row is inserted only if the game has the action before it and
        the server has not ended it (its row held meanwhile, so that it is not ended under
        the action), the game is marked over if it ended, and the notification goes at
        commit.

        Raises:
            MoveTakenError: The game has an action at that number or with that key already,
                or none at the number before, or it was ended (abandoned).
            StoreError: Nothing was stored.
        """
        values = {
            "game": game,
            "number": action.number,
            "seat": action.seat,
            "action": action.action,
            "key": action.key,
            "over": over,
            "channel": CHANNEL,
            "notice": f"{game} {action.number + 1}",
        }

        async def work(connection: _Connection, retry: bool) -> None:
            try:
                cursor = await connection.execute(
                    "WITH live AS (SELECT id FROM games WHERE id = %(game)s AND ended IS NULL "
                    "FOR KEY SHARE), "
                    "added AS (INSERT INTO actions (game, number, seat, action, key, at) "
                    "SELECT %(game)s, %(number)s, %(seat)s, %(action)s, %(key)s, "
                    "extract(epoch from now()) FROM live WHERE %(number)s = 0 OR EXISTS "
                    "(SELECT 1 FROM actions WHERE game = %(game)s AND number = %(number)s - 1) "
                    "RETURNING number), "
                    "ended AS (UPDATE games SET over = true WHERE id = %(game)s AND %(over)s "
                    "AND EXISTS (SELECT 1 FROM added)) "
                    "SELECT pg_notify(%(channel)s, %(notice)s) FROM added",
                    values,
                )
                if await cursor.fetchone() is not None:
                    return
            except errors.UniqueViolation as exc:
                if not retry or not await _stored(connection, game, action):
                    taken = f"game {game}: action {action.number} or its key is taken: {exc}"
                    raise MoveTakenError(taken) from None
                return
            if not retry or not await _stored(connection, game, action):
                raise MoveTakenError(f"game {game} is not at action {action.number}, or ended")

        await self._run(work)

    async def load(self, game: str, after: int = 0) -> StoredGame | None:
        """The game with its actions from number ``after`` on; ``None`` if there is none."""

        async def work(connection: _Connection, retry: bool) -> Any:
            cursor = await connection.execute(
                "SELECT players, bots, head, "
                "(SELECT coalesce(json_agg(json_build_array(hash, seat)), '[]') "
                "FROM tokens WHERE game = %(game)s), "
                "(SELECT coalesce(json_agg(json_build_array(number, seat, action, key) "
                "ORDER BY number), '[]') FROM actions "
                "WHERE game = %(game)s AND number >= %(after)s), ended, clock "
                "FROM games WHERE id = %(game)s",
                {"game": game, "after": after},
            )
            return await cursor.fetchone()

        row = await self._run(work)
        if row is None:
            return None
        players, bots, head, tokens, actions, ended, clock = row
        return StoredGame(
            game,
            players,
            tuple(json.loads(bots)),
            head,
            {hashed: seat for hashed, seat in tokens},
            tuple(StoredAction(*entry) for entry in actions),
            ended,
            clock,
        )

    async def games_in_play(self, creator: str) -> int:
        """How many games ``creator`` created that have not ended."""

        async def work(connection: _Connection, retry: bool) -> int:
            cursor = await connection.execute(
                "SELECT count(*) FROM games WHERE creator = %s AND NOT over", (creator,)
            )
            row = await cursor.fetchone()
            assert row is not None
            return int(row[0])

        return await self._run(work)

    async def abandon(self, before: float) -> list[str]:
        """End as abandoned the games in play with no action since ``before``, and tell
        every process (``NOTIFY '<game> ended'``); their ids.

        In one transaction: the candidates' rows are locked (those an action is being
        stored in are skipped: they are in use), then, in a second statement that sees
        every action committed before the locks, those still idle are ended. An append
        holds its game's row (``FOR KEY SHARE``) while it stores, so a game gets its action
        or is ended, never both; two processes sweeping at once end each game once."""
        values = {"ended": ABANDONED, "before": before, "channel": CHANNEL}
        last = (
            "coalesce((SELECT at FROM actions WHERE game = games.id ORDER BY number DESC "
            "LIMIT 1), created) < %(before)s"
        )

        async def work(connection: _Connection, retry: bool) -> list[str]:
            async with connection.transaction():
                cursor = await connection.execute(
                    f"SELECT id FROM games WHERE NOT over AND {last} FOR UPDATE SKIP LOCKED",
                    values,
                )
                candidates = [row[0] for row in await cursor.fetchall()]
                if not candidates:
                    return []
                cursor = await connection.execute(
                    "WITH swept AS (UPDATE games SET over = true, ended = %(ended)s "
                    f"WHERE id = ANY(%(ids)s) AND NOT over AND {last} RETURNING id) "
                    "SELECT id, pg_notify(%(channel)s, id || ' ended') FROM swept",
                    {**values, "ids": candidates},
                )
                return [row[0] for row in await cursor.fetchall()]

        return await self._run(work)

    async def health(self) -> dict[str, object]:
        """The kind of store, its games in play and its connections, read from the
        database."""

        async def work(connection: _Connection, retry: bool) -> int:
            cursor = await connection.execute("SELECT count(*) FROM games WHERE NOT over")
            row = await cursor.fetchone()
            assert row is not None
            return int(row[0])

        in_play = await self._run(work)
        return {
            "kind": "postgresql",
            "in_play": in_play,
            "connections": len(self._connections) + (self._listener is not None),
            "listening": self._listener is not None and not self._listener.closed,
        }

    async def listen(self, listener: Listener) -> None:
        """Call ``listener(game, moves)`` for every action any process stores (this one's
        included: the room knows it has it), on a connection of its own, from now on."""
        self._listener = await self._connect()
        await self._listener.execute(f"LISTEN {CHANNEL}")
        self._listening = asyncio.get_running_loop().create_task(self._listen(listener))

    async def _listen(self, listener: Listener) -> None:
        while True:
            assert self._listener is not None
            try:
                async for notice in self._listener.notifies():
                    game, _, moves = notice.payload.partition(" ")
                    if moves.isascii() and moves.isdigit():
                        listener(game, int(moves))
                    elif moves == "ended":
                        listener(game, ENDED)
            except (psycopg.Error, OSError) as exc:
                # the database went away: listen again once it is back; the rooms catch up
                # at their next request or action (an append that finds its number taken
                # reads what it missed)
                logger.error("lost the notification connection: %s", exc)
                pause = 0.05
                while True:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 1.0)
                    with contextlib.suppress(psycopg.Error, OSError):
                        self._listener = await self._connect()
                        await self._listener.execute(f"LISTEN {CHANNEL}")
                        listener("", -1)  # everyone: you may have missed something
                        break


async def _stored(connection: _Connection, game: str, action: StoredAction) -> bool:
    """Whether the game holds ``action`` itself at its number (the same seat, action and
    key): a write that was stored though its answer was lost."""
    cursor = await connection.execute(
        "SELECT seat, action, key FROM actions WHERE game = %s AND number = %s",
        (game, action.number),
    )
    row = await cursor.fetchone()
    return row is not None and tuple(row) == (action.seat, action.action, action.key)
