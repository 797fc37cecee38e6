"""The server's memory: every game in one SQLite file (the standard library's ``sqlite3``).

A game is stored as what set it up (players, rules, the bots' seats, the hashes of its
tokens) and its [`GameRecord`][gaia_rules.record.GameRecord] as JSON, kept current: each
accepted action is written in the same transaction as the game's new record, so the file
never holds an action without its record or a record without its actions. A server started
on the file replays every record and resumes every game exactly where it stood.

Tokens are stored as their SHA-256 hashes: the file alone does not let anyone into a seat.

Every call runs on one worker thread that owns the connection, so the event loop never
waits on the disk and SQLite never sees two threads. Actions that arrive while the disk is
busy are written together, each in a savepoint of its own, under one commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import attrs

__all__ = ["SPECTATOR", "Store", "StoredGame", "token_hash"]

SPECTATOR = -1
"""The seat number a spectator's token is stored under."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    players INTEGER NOT NULL,
    bots TEXT NOT NULL,          -- JSON: one bot name or null per seat
    record TEXT NOT NULL,        -- JSON: the GameRecord, current
    moves INTEGER NOT NULL,      -- how many actions the record holds
    over INTEGER NOT NULL        -- 1 once the game has ended
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,       -- SHA-256 of the token, in hex
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL        -- a seat, or -1 for the spectators' token
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    number INTEGER NOT NULL,     -- 0 for the first action
    action TEXT NOT NULL,        -- JSON, the wire format
    seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, number)
);
"""

T = TypeVar("T")


_Write = tuple[str, int, int, str, str, bool]
"""An accepted action to store: game, number, seat, action, the new record, whether over."""


def token_hash(token: str) -> str:
    """The hash a token is stored and looked up by."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.frozen
class StoredGame:
    """One game as the file holds it."""

    id: str
    players: int
    bots: tuple[str | None, ...]
    record: str
    moves: int
    tokens: dict[str, int]
    """Token hash to seat (``SPECTATOR`` for the spectators' token)."""


class Store:
    """The SQLite file of a server. Open it with ``await Store.open(path)``."""

    def __init__(self, path: Path | str, *, fsync: bool = False) -> None:
        self.path = str(path)
        self.fsync = fsync
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gaia-store")
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._queue: list[tuple[_Write, asyncio.Future[None]]] = []
        self._flushing = False

    @classmethod
    async def open(cls, path: Path | str, *, fsync: bool = False) -> Store:
        """Open (or create) the file and its tables; with ``fsync``, every commit waits
        until the disk has it (see `_connect`)."""
        store = cls(path, fsync=fsync)
        await store._run(store._connect)
        return store

    async def close(self) -> None:
        """Close the file; nothing is lost, every write was committed when it returned."""
        if self._db is not None:
            await self._run(self._db.close)
            self._db = None
        self._executor.shutdown(wait=True)

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    def _connect(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        # WAL: a commit appends to the log, and is in the file before it returns, so an
        # accepted action survives a killed server (NORMAL). With fsync (FULL) a commit also
        # waits for the disk itself, and survives a power cut too; it costs a disk's wait per
        # commit, which the group commit below shares among the games writing at once.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={'FULL' if self.fsync else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys=ON")
        db.executescript(_SCHEMA)
        self._db = db

    @property
    def _conn(self) -> sqlite3.Connection:
        assert self._db is not None, "the store is not open"
        return self._db

    # -- writes -------------------------------------------------------------------------------

    async def create(
        self, game: str, bots: tuple[str | None, ...], record: str, tokens: dict[str, int]
    ) -> None:
        """Store a new game with its first record and its tokens' hashes, in one transaction."""
        players = len(bots)

        def work() -> None:
            with _transaction(self._conn) as db:
                db.execute(
                    "INSERT INTO games (id, created, players, bots, record, moves, over) "
                    "VALUES (?, ?, ?, ?, ?, 0, 0)",
                    (game, time.time(), players, json.dumps(list(bots)), record),
                )
                db.executemany(
                    "INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                    [(hashed, game, seat) for hashed, seat in tokens.items()],
                )

        await self._run(work)

    async def add_action(
        self, game: str, number: int, seat: int, action: str, *, record: str, over: bool
    ) -> None:
        """Store an accepted action and the game's new record, in one transaction.

        Raises:
            sqlite3.Error: The write failed: nothing of it was stored.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._queue.append(((game, number, seat, action, record, over), future))
            start, self._flushing = not self._flushing, True
        if start:
            self._executor.submit(self._flush, asyncio.get_running_loop())
        await future

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Write the queued actions, as many as are waiting, with one commit (one wait for
        the disk) for all: with many games at once, the disk's wait is shared instead of
        queued. Each action is a savepoint of its own, so one that fails fails alone."""
        while True:
            with self._lock:
                batch, self._queue = self._queue, []
                if not batch:
                    self._flushing = False
                    return
            try:
                outcomes = self._write([item for item, _ in batch])
            except Exception as exc:  # never leave a request waiting for an answer
                outcomes = [sqlite3.Error(f"the store failed: {exc!r}")] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                loop.call_soon_threadsafe(_settle, future, outcome)

    def _write(self, batch: list[_Write]) -> list[sqlite3.Error | None]:
        db = self._conn
        outcomes: list[sqlite3.Error | None] = []
        try:
            with _transaction(db):
                for write in batch:
                    db.execute("SAVEPOINT action")
                    try:
                        _add_action(db, write)
                    except sqlite3.Error as exc:
                        db.execute("ROLLBACK TO action")
                        outcomes.append(exc)
                    else:
                        outcomes.append(None)
                    db.execute("RELEASE action")
        except sqlite3.Error as exc:  # the commit itself: nothing of the batch is stored
            return [exc] * len(batch)
        return outcomes

    # -- reads --------------------------------------------------------------------------------

    async def games(self) -> list[StoredGame]:
        """Every stored game, oldest first."""

        def work() -> list[StoredGame]:
            db = self._conn
            tokens: dict[str, dict[str, int]] = {}
            for hashed, game, seat in db.execute("SELECT hash, game, seat FROM tokens"):
                tokens.setdefault(game, {})[hashed] = seat
            rows = db.execute(
                "SELECT id, players, bots, record, moves FROM games ORDER BY created, id"
            )
            return [
                StoredGame(
                    id=game,
                    players=players,
                    bots=tuple(json.loads(bots)),
                    record=record,
                    moves=moves,
                    tokens=tokens.get(game, {}),
                )
                for game, players, bots, record, moves in rows
            ]

        return await self._run(work)

    async def actions(self, game: str) -> list[tuple[int, str]]:
        """The stored actions of ``game``: (seat, action JSON), oldest first."""

        def work() -> list[tuple[int, str]]:
            rows = self._conn.execute(
                "SELECT seat, action FROM actions WHERE game = ? ORDER BY number", (game,)
            )
            return [(seat, action) for seat, action in rows]

        return await self._run(work)


def _add_action(db: sqlite3.Connection, write: _Write) -> None:
    """The action's row and the game's new record; refused unless the game stands at the
    action's number (so an action is never stored twice, or out of order)."""
    game, number, seat, action, record, over = write
    db.execute(
        "INSERT INTO actions (game, number, action, seat, at) VALUES (?, ?, ?, ?, ?)",
        (game, number, action, seat, time.time()),
    )
    changed = db.execute(
        "UPDATE games SET record = ?, moves = ?, over = ? WHERE id = ? AND moves = ?",
        (record, number + 1, int(over), game, number),
    ).rowcount
    if changed != 1:
        raise sqlite3.IntegrityError(f"game {game} is not at action {number}")


def _settle(future: asyncio.Future[None], outcome: sqlite3.Error | None) -> None:
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
