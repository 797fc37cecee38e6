"""The embedded store: every game in one SQLite file (the standard library's ``sqlite3``).

Every call runs on one worker thread that owns the connection, so the event loop never
waits on the disk and SQLite never sees two threads. Actions that arrive while the disk is
busy are written together, each in a savepoint of its own, under one commit (a group commit:
with many games at once, the disk's wait is shared instead of queued).

One server process uses a file: several processes over the same games need
[`PostgresStore`][gaia_rules.web.store_postgres.PostgresStore], which tells each of them of
the others' actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from gaia_rules.web.store import (
    ABANDONED,
    Listener,
    MoveTakenError,
    NewGame,
    StoredAction,
    StoredGame,
    StoreError,
)

__all__ = ["SqliteStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    creator TEXT NOT NULL,       -- the address that created it
    players INTEGER NOT NULL,
    bots TEXT NOT NULL,          -- JSON: one bot name or null per seat
    head TEXT NOT NULL,          -- JSON: the GameRecord without its actions and result
    over INTEGER NOT NULL,       -- 1 once the game has ended
    ended TEXT,                  -- how the server ended it ('abandoned'), if it did
    clock REAL                   -- seconds per decision it asked for (NULL: the server's)
);
CREATE INDEX IF NOT EXISTS games_in_play ON games (creator) WHERE over = 0;
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,       -- SHA-256 of the token, in hex
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL        -- a seat, or -1 for the spectators' token
);
CREATE INDEX IF NOT EXISTS tokens_of_game ON tokens (game);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,     -- 0 for the first action
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,        -- JSON, the wire format
    key TEXT,                    -- the Idempotency-Key it came with, if any
    at REAL NOT NULL,
    PRIMARY KEY (game, number)
);
CREATE UNIQUE INDEX IF NOT EXISTS actions_by_key ON actions (game, key) WHERE key IS NOT NULL;
"""

T = TypeVar("T")

_Write = tuple[str, StoredAction, bool]
"""An accepted action to store: the game, the action, whether it ended the game."""


class SqliteStore:
    """The SQLite file of a server. Open it with ``await SqliteStore.open(path)``."""

    def __init__(self, path: Path | str, *, fsync: bool = False) -> None:
        self.path = str(path)
        self.fsync = fsync
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gaia-store")
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._queue: list[tuple[_Write, asyncio.Future[None]]] = []
        self._flushing = False

    @classmethod
    async def open(cls, path: Path | str, *, fsync: bool = False) -> SqliteStore:
        """Open (or create) the file and its tables; with ``fsync``, every commit waits
        until the disk has it (see `_connect`).

        Raises:
            StoreError: The file cannot be opened, or holds another layout.
        """
        store = cls(path, fsync=fsync)
        try:
            await store._run(store._connect)
        except sqlite3.Error as exc:
            store._executor.shutdown(wait=False)
            raise StoreError(f"cannot open {store.path}: {exc}") from None
        return store

    async def close(self) -> None:
        """Close the file; nothing is lost, every write was committed when it returned."""
        if self._db is not None:
            await self._run(self._db.close)
            self._db = None
        self._executor.shutdown(wait=True)

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    async def _call(self, work: Callable[[], T]) -> T:
        try:
            return await self._run(work)
        except sqlite3.Error as exc:
            raise StoreError(f"the store failed: {exc}") from None

    def _connect(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        if columns and "head" not in columns:
            db.close()
            raise sqlite3.DatabaseError(
                "the file was written by an earlier, unreleased layout (a record per game); "
                "start the server on a new file"
            )
        # WAL: a commit appends to the log, and is in the file before it returns, so an
        # accepted action survives a killed server (NORMAL). With fsync (FULL) a commit also
        # waits for the disk itself, and survives a power cut too; it costs a disk's wait per
        # commit, which the group commit shares among the games writing at once.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={'FULL' if self.fsync else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys=ON")
        if columns and "ended" not in columns:  # a file of the layout before abandonment
            db.execute("ALTER TABLE games ADD COLUMN ended TEXT")
        if columns and "clock" not in columns:  # a file of the layout before the clock
            db.execute("ALTER TABLE games ADD COLUMN clock REAL")
        db.executescript(_SCHEMA)
        self._db = db

    @property
    def _conn(self) -> sqlite3.Connection:
        assert self._db is not None, "the store is not open"
        return self._db

    # -- writes -------------------------------------------------------------------------------

    async def create(self, game: NewGame) -> None:
        """Store a new game with its head and its tokens' hashes, in one transaction."""

        def work() -> None:
            with _transaction(self._conn) as db:
                db.execute(
                    "INSERT INTO games (id, created, creator, players, bots, head, over, clock) "
                    "VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                    (
                        game.id,
                        time.time(),
                        game.creator,
                        game.players,
                        json.dumps(list(game.bots)),
                        game.head,
                        game.clock,
                    ),
                )
                db.executemany(
                    "INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                    [(hashed, game.id, seat) for hashed, seat in game.tokens.items()],
                )

        await self._call(work)

    async def append(self, game: str, action: StoredAction, *, over: bool) -> None:
        """Store an accepted action: one row (and, for the last action, the game's mark).

        Raises:
            MoveTakenError: The game has an action at that number or with that key already, or none
                at the number before.
            StoreError: The write failed: nothing of it was stored.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._queue.append(((game, action, over), future))
            start, self._flushing = not self._flushing, True
        if start:
            self._executor.submit(self._flush, asyncio.get_running_loop())
        await future

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write the queued actions, as many as are waiting, with one commit for all. Each
        action is a savepoint of its own, so one that fails fails alone."""
        while True:
            with self._lock:
                batch, self._queue = self._queue, []
                if not batch:
                    self._flushing = False
                    return
            try:
                outcomes = self._write([item for item, _ in batch])
            except Exception as exc:  # never leave a request waiting for an answer
                failed = StoreError(f"the store failed: {exc!r}")
                outcomes = [failed] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                loop.call_soon_threadsafe(_settle, future, outcome)

    def _write(self, batch: list[_Write]) -> list[Exception | None]:
        db = self._conn
        outcomes: list[Exception | None] = []
        try:
            with _transaction(db):
                for write in batch:
                    db.execute("SAVEPOINT action")
                    try:
                        _append(db, write)
                    except (sqlite3.Error, MoveTakenError) as exc:
                        db.execute("ROLLBACK TO action")
                        failed = StoreError(f"the store failed: {exc}")
                        outcomes.append(exc if isinstance(exc, MoveTakenError) else failed)
                    else:
                        outcomes.append(None)
                    db.execute("RELEASE action")
        except sqlite3.Error as exc:  # the commit itself: nothing of the batch is stored
            return [StoreError(f"the store failed: {exc}")] * len(batch)
        return outcomes

    # -- reads --------------------------------------------------------------------------------

    async def load(self, game: str, after: int = 0) -> StoredGame | None:
        """The game with its actions from number ``after`` on; ``None`` if there is none."""

        def work() -> StoredGame | None:
            db = self._conn
            row = db.execute(
                "SELECT players, bots, head, ended, clock FROM games WHERE id = ?", (game,)
            ).fetchone()
            if row is None:
                return None
            players, bots, head, ended, clock = row
            tokens = dict(db.execute("SELECT hash, seat FROM tokens WHERE game = ?", (game,)))
            actions = tuple(
                StoredAction(number, seat, action, key)
                for number, seat, action, key in db.execute(
                    "SELECT number, seat, action, key FROM actions "
                    "WHERE game = ? AND number >= ? ORDER BY number",
                    (game, after),
                )
            )
            return StoredGame(
                game, players, tuple(json.loads(bots)), head, tokens, actions, ended, clock
            )

        return await self._call(work)

    async def abandon(self, before: float) -> list[str]:
        """End as abandoned the games in play with no action since ``before``; their ids."""

        def work() -> list[str]:
            with _transaction(self._conn) as db:
                rows = db.execute(
                    "UPDATE games SET over = 1, ended = ? WHERE over = 0 AND coalesce("
                    "(SELECT at FROM actions WHERE game = games.id ORDER BY number DESC LIMIT 1), "
                    "created) < ? RETURNING id",
                    (ABANDONED, before),
                ).fetchall()
            return [game for (game,) in rows]

        return await self._call(work)

    async def health(self) -> dict[str, object]:
        """The kind of store and its games in play, read from the file."""

        def work() -> dict[str, object]:
            (count,) = self._conn.execute("SELECT count(*) FROM games WHERE over = 0").fetchone()
            return {"kind": "sqlite", "in_play": int(count)}

        return await self._call(work)

    async def games_in_play(self, creator: str) -> int:
        """How many games ``creator`` created that have not ended."""

        def work() -> int:
            (count,) = self._conn.execute(
                "SELECT count(*) FROM games WHERE creator = ? AND over = 0", (creator,)
            ).fetchone()
            return int(count)

        return await self._call(work)

    async def listen(self, listener: Listener) -> None:
        """Nothing to listen to: one process uses the file."""


def _append(db: sqlite3.Connection, write: _Write) -> None:
    """The action's row; refused unless the game stands at the action's number (so an
    action is never stored twice, or out of order), its key is new in the game, and the
    server has not ended it (abandoned)."""
    game, action, over = write
    ended = db.execute("SELECT ended FROM games WHERE id = ?", (game,)).fetchone()
    if ended is not None and ended[0] is not None:
        raise MoveTakenError(f"game {game} has ended: {ended[0]}")
    if action.number > 0:
        before = db.execute(
            "SELECT 1 FROM actions WHERE game = ? AND number = ?", (game, action.number - 1)
        ).fetchone()
        if before is None:
            raise MoveTakenError(f"game {game} is not at action {action.number}")
    try:
        db.execute(
            "INSERT INTO actions (game, number, seat, action, key, at) VALUES (?, ?, ?, ?, ?, ?)",
            (game, action.number, action.seat, action.action, action.key, time.time()),
        )
    except sqlite3.IntegrityError as exc:
        taken = f"game {game}: action {action.number} or its key is taken: {exc}"
        raise MoveTakenError(taken) from None
    if over:
        db.execute("UPDATE games SET over = 1 WHERE id = ?", (game,))


def _settle(future: asyncio.Future[None], outcome: Exception | None) -> None:
    if future.done():  # its request went away meanwhile
        return
    if outcome is None:
        future.set_result(None)
    else:
        future.set_exception(outcome)


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``; if anything in it fails, the commit included,
    ``ROLLBACK``, so a failed write leaves nothing behind."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
