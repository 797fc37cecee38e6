"""The games a server hosts: one [`Room`][gaia_rules.web.rooms.Room] per game, and the
[`Lobby`][gaia_rules.web.rooms.Lobby] that creates, stores, resumes and finds them.

Nothing here speaks HTTP. A room holds the only ``Game`` of its table; every action, a
person's or a bot's, goes through [`Lobby.submit`][gaia_rules.web.rooms.Lobby.submit],
which holds the room's lock, applies the action to a copy of the game, writes it and the
new record to the store, and only then puts the copy in the room's place: an action the
disk did not take is not taken, and two requests never interleave.

Bots play their seats here, each decision on a worker thread (a search can take a while and
the server keeps serving meanwhile), from their seat's view and the legal actions only, and
each is seeded from the game's seed, its seat and the number of actions before it, so a bot
decides the same after a restart as before it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
from typing import Any

from gaia_rules.actions import Action
from gaia_rules.bots import BOTS
from gaia_rules.cli.common import derive_seed
from gaia_rules.errors import GaiaRulesError, IllegalActionError
from gaia_rules.events import Event, Result
from gaia_rules.game import Game, new_game
from gaia_rules.record import GameRecord
from gaia_rules.rules import Rules
from gaia_rules.web.store import SPECTATOR, Store, token_hash

__all__ = ["Created", "Lobby", "Room", "WebError"]

logger = logging.getLogger("gaia_rules.web")


class WebError(Exception):
    """A request the server refuses: ``status`` is its HTTP status, ``kind`` a short
    name for programs, the message says why in words; ``clause`` is set when the rules
    refuse an action."""

    def __init__(self, status: int, kind: str, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        self.clause = clause

    def to_data(self) -> dict[str, Any]:
        """The error as the body of the response."""
        error: dict[str, Any] = {"status": self.status, "kind": self.kind, "message": self.message}
        if self.clause is not None:
            error["clause"] = self.clause
        return {"error": error}


class Room:
    """One game on the server, its bots, and who is waiting for news of it."""

    def __init__(self, game_id: str, game: Game, bots: tuple[str | None, ...]) -> None:
        self.id = game_id
        self.game = game
        self.bots = bots
        self.record = RecordText(game.record())
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        """Set (and replaced) whenever the game moves: a live stream waits on it."""
        self.bot_task: asyncio.Task[None] | None = None

    def notify(self) -> None:
        """Wake everyone waiting for news of this game."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    @property
    def bot_to_move(self) -> str | None:
        """The name of the bot whose seat is to move, if a bot's seat is."""
        seat = self.game.to_move
        return None if seat is None else self.bots[seat]


class RecordText:
    """A game's record as JSON text, kept current action by action.

    The server stores the whole record with every action; writing it with
    ``record.to_json()`` costs a pass over every action and the card manifest each time
    (half a millisecond by the end of a game), so the text is kept in two parts: the fixed
    head (rules, manifest, seats, seed) written once, and one text per action. Each action
    appends its own text; ``text()`` joins them. The tests read the stored text back with
    ``GameRecord.from_json`` and replay it.
    """

    def __init__(self, record: GameRecord) -> None:
        data = record.to_data()
        del data["actions"], data["result"]
        self.head = json.dumps(data, separators=(",", ":"))[:-1]  # without its closing brace
        self.actions = [action.to_json() for action in record.actions]

    def text(self, actions: list[str], result: Result | None) -> str:
        """The record with ``actions`` (texts) and ``result``."""
        ending = "null" if result is None else result.to_json()
        return f'{self.head},"actions":[{",".join(actions)}],"result":{ending}}}'


class Created:
    """What creating a game hands back: the room and the tokens, which exist only here."""

    def __init__(self, room: Room, seats: list[str | None], spectator: str) -> None:
        self.room = room
        self.seats = seats
        """One token per seat, ``None`` for a bot's seat."""
        self.spectator = spectator


class Lobby:
    """Every game of a server, the tokens that open their seats, and the store behind them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._tokens: dict[str, tuple[str, int]] = {}
        """Token hash to (game, seat); ``SPECTATOR`` is the spectators' seat."""
        self.closing = False

    # -- start-up and shutdown ------------------------------------------------------------

    async def resume(self) -> None:
        """Replay every stored game and let the bots whose seats are to move play on."""
        for stored in await self.store.games():
            try:
                game = GameRecord.from_json(stored.record).replay()
            except GaiaRulesError as exc:
                logger.error("game %s does not replay and is not served: %s", stored.id, exc)
                continue
            if len(game.actions) != stored.moves:
                logger.error("game %s: the record and the store disagree", stored.id)
                continue
            room = Room(stored.id, game, stored.bots)
            self.rooms[stored.id] = room
            for hashed, seat in stored.tokens.items():
                self._tokens[hashed] = (stored.id, seat)
            self.kick(room)

    async def close(self) -> None:
        """Stop the bots and wake every live stream so that it ends."""
        self.closing = True
        tasks = [room.bot_task for room in self.rooms.values() if room.bot_task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for room in self.rooms.values():
            room.notify()

    # -- games ------------------------------------------------------------------------------

    async def create(
        self,
        players: int,
        rules: Rules,
        bots: tuple[str | None, ...],
        seed: int | None = None,
        first_player: int = 0,
    ) -> Created:
        """Set up and store a new game; one token per seat a person plays, and one for the
        spectators.

        Raises:
            WebError: 400 when the game cannot be set up (the message says why).
        """
        try:
            game = new_game(players, rules, seed, first_player)
        except GaiaRulesError as exc:
            raise WebError(400, "bad_request", str(exc)) from None
        if len(bots) != players:
            wrong = f"bots: expected {players} entries, one per seat, got {len(bots)}"
            raise WebError(400, "bad_request", wrong)
        for seat, name in enumerate(bots):
            if name is not None and name not in BOTS:
                raise WebError(
                    400,
                    "bad_request",
                    f"bots[{seat}]: no bot {name!r}; the bots are {', '.join(sorted(BOTS))}",
                )
        game_id = secrets.token_urlsafe(9)
        tokens = [None if name is not None else secrets.token_urlsafe(24) for name in bots]
        spectator = secrets.token_urlsafe(24)
        hashes = {token_hash(t): seat for seat, t in enumerate(tokens) if t is not None}
        hashes[token_hash(spectator)] = SPECTATOR
        try:
            await self.store.create(game_id, bots, game.record().to_json(), hashes)
        except sqlite3.Error as exc:
            raise _unsaved(exc) from None
        room = Room(game_id, game, bots)
        self.rooms[game_id] = room
        for hashed, seat in hashes.items():
            self._tokens[hashed] = (game_id, seat)
        self.kick(room)
        return Created(room, tokens, spectator)

    def room(self, game_id: str) -> Room:
        """The room of a game.

        Raises:
            WebError: 404 when there is no such game.
        """
        room = self.rooms.get(game_id)
        if room is None:
            raise WebError(404, "not_found", f"no game {game_id!r} on this server")
        return room

    def seat_of(self, room: Room, token: str | None) -> int | None:
        """The seat ``token`` opens in ``room``: a seat, or ``None`` for a spectator.

        Raises:
            WebError: 401 without a token; 403 for a token that opens nothing here (an
                unknown token, or one of another game).
        """
        if not token:
            raise WebError(401, "unauthorized", "a seat's or a spectator's token is required")
        found = self._tokens.get(token_hash(token))
        if found is None or found[0] != room.id:
            raise WebError(403, "forbidden", "this token opens no seat of this game")
        seat = found[1]
        return None if seat == SPECTATOR else seat

    # -- actions ------------------------------------------------------------------------------

    async def submit(self, room: Room, seat: int | None, action: Action) -> tuple[Event, ...]:
        """Apply ``action``, sent by ``seat``, and store it; the events it caused.

        Raises:
            WebError: 403 if a spectator acts or a seat acts for another; 409 if the rules
                refuse the action (the message and clause are the engine's); 503 if it
                could not be stored (then it was not taken either). In every case the game
                is as it was.
        """
        if seat is None:
            raise WebError(403, "forbidden", "a spectator cannot act")
        if action.player != seat:
            raise WebError(403, "forbidden", f"seat {seat} cannot act for seat {action.player}")
        async with room.lock:
            trial = room.game.copy()
            try:
                events = trial.apply(action)
            except IllegalActionError as exc:
                raise WebError(409, "illegal", str(exc), exc.clause) from None
            number = len(room.record.actions)
            text = action.to_json()
            actions = [*room.record.actions, text]
            try:
                await self.store.add_action(
                    room.id,
                    number,
                    seat,
                    text,
                    record=room.record.text(actions, trial.result),
                    over=trial.is_over,
                )
            except sqlite3.Error as exc:
                raise _unsaved(exc) from None
            room.record.actions = actions
            room.game = trial
            room.notify()
        self.kick(room)
        return events

    # -- bots ---------------------------------------------------------------------------------

    def kick(self, room: Room) -> None:
        """Let the bots play ``room`` if a bot's seat is to move and none is playing yet."""
        if self.closing or room.bot_to_move is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._play_bots(room))

    async def _play_bots(self, room: Room) -> None:
        """Play the bots' seats until a person's seat is to move or the game ends."""
        while not self.closing:
            game = room.game
            name = room.bot_to_move
            seat = game.to_move
            if name is None or seat is None:
                return
            bot = BOTS[name](derive_seed(game.seed, seat, len(game.actions)))
            view, legal = game.view(seat), list(game.legal_actions())
            try:
                action = await asyncio.to_thread(bot.choose, view, legal)
                await self.submit(room, seat, action)
            except Exception:
                # the store failed, or (never yet) the game moved while the bot thought, or
                # the bot failed: stop here; the next request to the room starts it again
                logger.exception("bot %s in game %s, seat %d", name, room.id, seat)
                return


def _unsaved(exc: sqlite3.Error) -> WebError:
    logger.error("could not store: %s", exc)
    return WebError(503, "unsaved", "the server could not store this; nothing was changed")
