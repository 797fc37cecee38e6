"""The server's memory, behind one small async interface: [`Store`][gaia_rules.web.store.Store].

Two stores implement it, and one test suite runs against both:

- [`SqliteStore`][gaia_rules.web.store_sqlite.SqliteStore]: a SQLite file, the embedded
  default (one server process);
- [`PostgresStore`][gaia_rules.web.store_postgres.PostgresStore]: a PostgreSQL database
  (psycopg 3), for several server processes over the same games; each process learns of the
  others' actions through PostgreSQL's LISTEN/NOTIFY.

A game is stored as what set it up (its seats, bots, the head of its
[`GameRecord`][gaia_rules.record.GameRecord]: rules, manifest, seed, first player, and the
hashes of its tokens), written once, and its actions, one appended row each: the record is
assembled from them when it is asked for. Two appends at the same move number, or with the
same idempotency key, cannot both be stored: the second raises
[`MoveTakenError`][gaia_rules.web.store.MoveTakenError], whichever process sent it, so an
action is taken once.

Tokens are stored as their SHA-256 hashes: the database alone does not let anyone into a seat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Protocol

import attrs

__all__ = [
    "ABANDONED",
    "ENDED",
    "SPECTATOR",
    "MoveTakenError",
    "NewGame",
    "Store",
    "StoreError",
    "StoredAction",
    "StoredGame",
    "token_hash",
]

SPECTATOR = -1
"""The seat number a spectator's token is stored under."""

ABANDONED = "abandoned"
"""How a game ended that nobody acted in for the server's ``--abandon-after`` seconds (the
store's ``ended`` column; a game the rules ended has none)."""

ENDED = -2
"""The move number a [`Listener`][gaia_rules.web.store.Listener] is told for a game that
another process ended (abandoned): read it again."""


def token_hash(token: str) -> str:
    """The hash a token is stored and looked up by (of its UTF-8 bytes; a text that is not
    valid Unicode, a lone surrogate say, is hashed from its escaped form and so opens
    nothing)."""
    return hashlib.sha256(token.encode("utf-8", "backslashreplace")).hexdigest()


@attrs.frozen
class StoredAction:
    """One accepted action as stored: its number in the game (0 for the first), the seat that
    took it, the action as JSON (the wire format), and the idempotency key it came with."""

    number: int
    seat: int
    action: str
    key: str | None = None


@attrs.frozen
class NewGame:
    """What a new game is stored with."""

    id: str
    players: int
    bots: tuple[str | None, ...]
    head: str
    """The game's record as JSON without its ``actions`` and ``result``: a JSON object's
    text with the two keys left out."""
    tokens: dict[str, int]
    """Token hash to seat (``SPECTATOR`` for the spectators' token)."""
    creator: str
    """The address that created it (for the limit of games in play per address)."""
    clock: float | None = None
    """Seconds per decision this game asked for (``None``: the server's ``--clock``)."""


@attrs.frozen
class StoredGame:
    """One game as the store holds it: its set-up and its actions from some number on."""

    id: str
    players: int
    bots: tuple[str | None, ...]
    head: str
    tokens: dict[str, int]
    actions: tuple[StoredAction, ...]
    ended: str | None = None
    """How the server ended the game, if it did ([`ABANDONED`][gaia_rules.web.store.ABANDONED]);
    ``None`` for a game in play, or one the rules ended."""
    clock: float | None = None
    """Seconds per decision the game asked for (``None``: the server's ``--clock``)."""

    def record_text(self) -> str:
        """The game's record as JSON, assembled from the head and the actions (of a game
        loaded from its first action)."""
        actions = ",".join(stored.action for stored in self.actions)
        return f'{self.head[:-1]},"actions":[{actions}],"result":null}}'


class MoveTakenError(Exception):
    """The game already has an action at this number, or one with this idempotency key:
    another request (perhaps through another server process) took it first. Nothing was
    written."""


class StoreError(Exception):
    """The store could not write or read (a full disk, a lost database connection). Nothing
    was written."""


Listener = Callable[[str, int], None]
"""Told ``(game, moves)`` when another process stored an action: the game's id and its
number of actions now; or ``(game, ENDED)`` when a process ended the game (abandoned). Ids
and numbers only: never a secret."""


class Store(Protocol):
    """What the server needs of its memory. Every method is atomic: it does all it says, or
    raises and does nothing."""

    async def create(self, game: NewGame) -> None:
        """Store a new game, its head and its tokens' hashes.

        Raises:
            StoreError: Nothing was stored.
        """
        ...

    async def load(self, game: str, after: int = 0) -> StoredGame | None:
        """The game ``game`` with its actions numbered ``after`` and later, oldest first;
        ``None`` when there is no such game.

        Raises:
            StoreError: The store could not be read.
        """
        ...

    async def append(self, game: str, action: StoredAction, *, over: bool) -> None:
        """Store ``action`` as the game's action ``action.number``; ``over``: it ended the game.

        Raises:
            MoveTakenError: The game already has an action at that number, or with that key,
                or the server ended it (abandoned).
            StoreError: Nothing was stored.
        """
        ...

    async def abandon(self, before: float) -> list[str]:
        """End as [`ABANDONED`][gaia_rules.web.store.ABANDONED] every game in play whose last
        action (or creation) came before ``before`` (seconds since the epoch); their ids. A
        game ended so is over: it counts no more in its creator's games in play, and takes
        no more actions. Atomic per game against ``append``: a game gets an action or is
        abandoned, never both.

        Raises:
            StoreError: Nothing was changed.
        """
        ...

    async def health(self) -> dict[str, object]:
        """The store's state, read from the database itself (one round trip): its ``kind``
        and the games ``in_play``.

        Raises:
            StoreError: The database cannot be reached.
        """
        ...

    async def games_in_play(self, creator: str) -> int:
        """How many games ``creator`` created that have not ended."""
        ...

    async def listen(self, listener: Listener) -> None:
        """Call ``listener`` whenever another process appends an action (a store that only
        one process uses never calls it)."""
        ...

    async def close(self) -> None:
        """Close the store; nothing is lost: every write was stored when it returned."""
        ...
