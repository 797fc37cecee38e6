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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from psycopg import errors

from gaia_rules.web.store import (
    Listener,
    MoveTakenError,
    NewGame,
    StoredAction,
    StoredGame,
    StoreError,
)

__all__ = ["CHANNEL", "PostgresStore"]

logger = logging.getLogger("gaia_rules.web")

CHANNEL = "gaia_actions"
"""The channel every process listens on."""

POOL = 8
"""Connections each process writes and reads through (the listener is one more)."""

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
            async with store._connection() as connection, connection.transaction():
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

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[_Connection]:
        """A connection of the pool (autocommit: each statement is its own transaction); a
        broken one is replaced."""
        connection = await self._idle.get()
        try:
            if connection.closed:
                self._connections.remove(connection)
                connection = await self._connect()
                self._connections.append(connection)
            yield connection
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
        try:
            async with self._connection() as connection:
                await connection.execute(
                    "WITH game AS (INSERT INTO games (id, created, creator, players, bots, head, "
                    "over) VALUES (%s, extract(epoch from now()), %s, %s, %s, %s, false) "
                    "RETURNING id) "
                    "INSERT INTO tokens (hash, game, seat) SELECT hash, game.id, seat "
                    "FROM game, unnest(%s::text[], %s::int[]) AS token(hash, seat)",
                    (
                        game.id,
                        game.creator,
                        game.players,
                        json.dumps(list(game.bots)),
                        game.head,
                        hashes,
                        seats,
                    ),
                )
        except (psycopg.Error, OSError) as exc:
            raise StoreError(f"the store failed: {exc}") from None

    async def append(self, game: str, action: StoredAction, *, over: bool) -> None:
        """Store an accepted action, and tell the other processes, in one statement (one
        transaction): the row is inserted only if the game has the action before it, the
        game is marked over if it ended, and the notification goes at commit.

        Raises:
            MoveTakenError: The game has an action at that number or with that key already,
                or none at the number before.
            StoreError: Nothing was stored.
        """
        try:
            async with self._connection() as connection:
                cursor = await connection.execute(
                    "WITH added AS (INSERT INTO actions (game, number, seat, action, key, at) "
                    "SELECT %(game)s, %(number)s, %(seat)s, %(action)s, %(key)s, "
                    "extract(epoch from now()) WHERE %(number)s = 0 OR EXISTS (SELECT 1 FROM "
                    "actions WHERE game = %(game)s AND number = %(number)s - 1) RETURNING number), "
                    "ended AS (UPDATE games SET over = true WHERE id = %(game)s AND %(over)s "
                    "AND EXISTS (SELECT 1 FROM added)) "
                    "SELECT pg_notify(%(channel)s, %(notice)s) FROM added",
                    {
                        "game": game,
                        "number": action.number,
                        "seat": action.seat,
                        "action": action.action,
                        "key": action.key,
                        "over": over,
                        "channel": CHANNEL,
                        "notice": f"{game} {action.number + 1}",
                    },
                )
                if await cursor.fetchone() is None:
                    raise MoveTakenError(f"game {game} is not at action {action.number}")
        except errors.UniqueViolation as exc:
            taken = f"game {game}: action {action.number} or its key is taken: {exc}"
            raise MoveTakenError(taken) from None
        except (psycopg.Error, OSError) as exc:
            raise StoreError(f"the store failed: {exc}") from None

    async def load(self, game: str, after: int = 0) -> StoredGame | None:
        """The game with its actions from number ``after`` on; ``None`` if there is none."""
        try:
            async with self._connection() as connection:
                cursor = await connection.execute(
                    "SELECT players, bots, head, "
                    "(SELECT coalesce(json_agg(json_build_array(hash, seat)), '[]') "
                    "FROM tokens WHERE game = %(game)s), "
                    "(SELECT coalesce(json_agg(json_build_array(number, seat, action, key) "
                    "ORDER BY number), '[]') FROM actions "
                    "WHERE game = %(game)s AND number >= %(after)s) "
                    "FROM games WHERE id = %(game)s",
                    {"game": game, "after": after},
                )
                row = await cursor.fetchone()
        except (psycopg.Error, OSError) as exc:
            raise StoreError(f"the store failed: {exc}") from None
        if row is None:
            return None
        players, bots, head, tokens, actions = row
        return StoredGame(
            game,
            players,
            tuple(json.loads(bots)),
            head,
            {hashed: seat for hashed, seat in tokens},
            tuple(StoredAction(*entry) for entry in actions),
        )

    async def games_in_play(self, creator: str) -> int:
        """How many games ``creator`` created that have not ended."""
        try:
            async with self._connection() as connection:
                cursor = await connection.execute(
                    "SELECT count(*) FROM games WHERE creator = %s AND NOT over", (creator,)
                )
                row = await cursor.fetchone()
        except (psycopg.Error, OSError) as exc:
            raise StoreError(f"the store failed: {exc}") from None
        assert row is not None
        return int(row[0])

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
            except (psycopg.Error, OSError) as exc:
                # the database went away: listen again once it is back; the rooms catch up
                # at their next request or action (an append that finds its number taken
                # reads what it missed)
                logger.error("lost the notification connection: %s", exc)
                while True:
                    await asyncio.sleep(1.0)
                    with contextlib.suppress(psycopg.Error, OSError):
                        self._listener = await self._connect()
                        await self._listener.execute(f"LISTEN {CHANNEL}")
                        listener("", -1)  # everyone: you may have missed something
                        break
