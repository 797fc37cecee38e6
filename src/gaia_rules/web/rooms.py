"""The games a server holds in memory: one [`Room`][gaia_rules.web.rooms.Room] per game, and
the [`Lobby`][gaia_rules.web.rooms.Lobby] that creates, loads, evicts and plays them.

Nothing here speaks HTTP. A room holds the only ``Game`` of its table in this process; every
action, a person's or a bot's, goes through [`Lobby.submit`][gaia_rules.web.rooms.Lobby.submit],
which holds the room's lock, applies the action to a copy of the game, appends it to the
store, and only then puts the copy in the room's place: an action the store did not take is
not taken, and two requests never interleave.

**Exactly once.** An action may carry the move number it answers and an idempotency key.
A stale move number, or a key used before with another action, is refused (409 ``stale``);
a retry of an accepted action (the same key, or the same move number and the same action)
answers what the first answer said, and takes nothing. Several processes over one database
agree through the store: the second append at a move number is refused there
([`MoveTakenError`][gaia_rules.web.store.MoveTakenError]), and its process reads what was
stored and judges the request again.

**Memory.** A game is loaded when it is first asked for (its head and its actions, replayed)
and evicted when it has been idle (no request, no live connection, no bot thinking) for a
while; start-up reads nothing.

**Fan-out.** After a change, the frame for each seat (and the spectators') is built once,
when its first connection asks, and every connection of that seat sends the same text; the
world is drawn once per change and sent only when it changed.

**Bots** play their seats from their seat's view and the legal actions only, in the
[`BotPool`][gaia_rules.web.botpool.BotPool]'s worker processes; each decision is seeded from
the game's seed, its seat and the number of actions before it, so a bot decides the same
after a restart as before it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import Any

from gaia_rules.actions import Action
from gaia_rules.bots import BOTS
from gaia_rules.cli.common import derive_seed
from gaia_rules.errors import GaiaRulesError, IllegalActionError
from gaia_rules.game import Game, new_game
from gaia_rules.record import GameRecord
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_json
from gaia_rules.svg import world_svg
from gaia_rules.web.botpool import BotPool
from gaia_rules.web.clock import timed_out
from gaia_rules.web.messages import state_message
from gaia_rules.web.refusal import WebError
from gaia_rules.web.store import (
    ABANDONED,
    ENDED,
    SPECTATOR,
    MoveTakenError,
    NewGame,
    Store,
    StoredAction,
    StoredGame,
    StoreError,
    token_hash,
)

__all__ = ["Created", "Lobby", "Room", "WebError"]

logger = logging.getLogger("gaia_rules.web")


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class Room:
    """One game in memory, its bots, and who is watching it.

    ``ends[n]`` is the length of the game's event log after ``n`` actions (every seat's log
    is as long as the game's: a seat sees a blank where it may not see), ``texts[n]`` the
    stored JSON of action ``n`` and ``seats[n]`` who took it.
    """

    def __init__(
        self, game_id: str, game: Game, bots: tuple[str | None, ...], tokens: dict[str, int]
    ) -> None:
        self.id = game_id
        self.game = game
        self.bots = bots
        self.tokens = tokens
        """Token hash to seat (``SPECTATOR`` for the spectators')."""
        self.ends = [len(game.events)]
        self.texts: list[str] = []
        self.seats: list[int] = []
        self.after: list[tuple[int | None, bool]] = []
        """Who was to move, and whether the game was over, after each action."""
        self.keys: dict[str, int] = {}
        """Idempotency key to the number of the action it came with."""
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        """Set (and replaced) whenever the game moves: a live connection waits on it."""
        self.bot_task: asyncio.Task[None] | None = None
        self.clock_task: asyncio.Task[None] | None = None
        """Waits for the clock of the decision asked at move ``clock_at`` to run out."""
        self.clock_at = -1
        self.clock = 0.0
        """Seconds a person's seat has for the decision asked now (0: no clock)."""
        self.own_clock: float | None = None
        """Seconds per decision this game asked for at its creation (``None``: the
        server's)."""
        self.deadline: float | None = None
        """When the decision asked now times out (``time.monotonic()``), if it can."""
        self.watchers = 0
        """Live connections open on this room."""
        self.used = time.monotonic()
        self._frames: dict[tuple[int | None, int, bool], str] = {}
        self._frames_at = 0
        self._world = ""
        self._world_moves = -1
        self._world_changed = 0
        """The move number at which the world was last seen to change."""
        self.heard = 0
        """The largest move number the other processes said the game reached."""
        self.ended: str | None = None
        """How the server ended the game, if it did (``"abandoned"``): it takes no more
        actions, and its messages say ``over`` and ``ended``."""
        self.version = 0
        """Counts the changes a live connection is sent: each action, and the game's end
        by the server."""

    @property
    def moves(self) -> int:
        """The move number: how many actions were taken."""
        return len(self.texts)

    @property
    def stale(self) -> bool:
        """Another process stored actions this room has not read yet."""
        return self.heard > self.moves

    @property
    def over(self) -> bool:
        """The game is over: the rules ended it, or the server did."""
        return self.game.is_over or self.ended is not None

    @property
    def bot_to_move(self) -> str | None:
        """The name of the bot whose seat is to move, if a bot's seat is."""
        seat = self.game.to_move
        if self.ended is not None:
            return None
        return None if seat is None else self.bots[seat]

    @property
    def bots_only(self) -> bool:
        """Every seat is a bot's."""
        return all(name is not None for name in self.bots)

    def take(self, game: Game, action: StoredAction) -> None:
        """Put ``game`` in the room's place: the game after ``action``, which was stored."""
        self.game = game
        self.ends.append(len(game.events))
        self.texts.append(action.action)
        self.seats.append(action.seat)
        self.after.append((game.to_move, game.is_over))
        if action.key is not None:
            self.keys[action.key] = action.number
        self.version += 1

    def end(self, how: str) -> None:
        """The server ended the game (``how``: ``"abandoned"``); every live connection is
        sent its state, which says so."""
        if self.ended is None and not self.game.is_over:
            self.ended = how
            self.version += 1
            self.notify()

    def notify(self) -> None:
        """Wake everyone waiting for news of this game."""
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    def answer(self, number: int) -> dict[str, Any]:
        """The answer to action ``number``: the move number after it, who was then to move,
        whether the game was over, and the events it caused as its seat saw them. The same
        every time it is asked (the answer to a retry is the first answer)."""
        seat = self.seats[number]
        to_move, over = self.after[number]
        seen = self.game.events_for(seat)[self.ends[number] : self.ends[number + 1]]
        return {
            "ok": True,
            "moves": number + 1,
            "to_move": to_move,
            "over": over,
            "events": [event.to_data() for event in seen],
        }

    # -- messages -------------------------------------------------------------------------

    def world(self) -> str:
        """The world as SVG, drawn once per change (public: the same for every seat)."""
        if self._world_moves != self.moves:
            drawn = world_svg(
                self.game, size=64, pictograms=True
            )  # pictograms: alike in every language
            if drawn != self._world:
                self._world = drawn
                self._world_changed = self.moves
            self._world_moves = self.moves
        return self._world

    def state(self, seat: int | None, since: int, *, world: bool) -> dict[str, Any]:
        """The state message for ``seat`` with its events from index ``since``."""
        message = state_message(self.game, seat, since)
        message["game"] = self.id
        message["bots"] = list(self.bots)
        if self.ended is not None:
            message["over"] = True
            message["ended"] = self.ended
            message["legal"] = None
        elif self.deadline is not None:
            left = max(0.0, self.deadline - time.monotonic())
            message["clock"] = {"seconds": self.clock, "left": round(left, 1)}
        if world:
            message["world"] = self.world()
        return message

    def frame(self, seat: int | None, moves: int, *, world: bool) -> str:
        """The live frame that brings a connection of ``seat`` that has the state at move
        ``moves`` to now: the events since then, and the world if it changed since.

        Built once per change for each seat and kind, and the same text sent to every
        connection that asks for it."""
        if self._frames_at != self.version:
            self._frames.clear()
            self._frames_at = self.version
        if world:
            self.world()  # drawn now, if the game moved since it was last drawn
        drawn = world and self._world_changed > moves
        key = (seat, moves, drawn)
        text = self._frames.get(key)
        if text is None:
            text = _dumps(self.state(seat, self.ends[moves], world=drawn))
            self._frames[key] = text
        return text


class Created:
    """What creating a game hands back: the room and the tokens, which exist only here."""

    def __init__(self, room: Room, seats: list[str | None], spectator: str) -> None:
        self.room = room
        self.seats = seats
        """One token per seat, ``None`` for a bot's seat."""
        self.spectator = spectator


class Lobby:
    """The games of a server in memory, the store behind them, and the bots' pool.

    ``idle``: seconds after which a game nobody uses is evicted from memory (it is loaded
    again when next asked for). ``bots_only``: how many games of bots alone may be in play
    in memory at once (0: none may be created). ``abandon_after``: seconds with no action
    after which a game in play ends as abandoned (0: never), in memory or not. ``clock``:
    seconds a person's seat has for each decision (0: no clock; spec 1.17), counted while
    the game is in memory.
    """

    def __init__(
        self,
        store: Store,
        pool: BotPool | None = None,
        *,
        idle: float = 300.0,
        bots_only: int = 2,
        abandon_after: float = 3600.0,
        clock: float = 0.0,
    ) -> None:
        self.store = store
        self.pool = pool if pool is not None else BotPool(workers=0)
        self.idle = idle
        self.bots_only = bots_only
        self.abandon_after = abandon_after
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._refreshing: set[str] = set()
        self._missed: set[str] = set()
        """Games another process moved while they were being loaded here."""
        self._evicting: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self.closing = False

    # -- start-up and shutdown ------------------------------------------------------------

    async def start(self) -> None:
        """Listen for the other processes' actions and start evicting idle games (nothing is
        read: a game is loaded when it is first asked for)."""
        await self.store.listen(self._heard)
        self._evicting = asyncio.get_running_loop().create_task(self._evict_idle())
        if self.abandon_after > 0:
            self._sweeping = asyncio.get_running_loop().create_task(self._sweep())

    async def close(self) -> None:
        """Stop the bots and the eviction, and wake every live connection so that it ends."""
        self.closing = True
        tasks = [room.bot_task for room in self.rooms.values() if room.bot_task is not None]
        tasks += [room.clock_task for room in self.rooms.values() if room.clock_task is not None]
        if self._evicting is not None:
            tasks.append(self._evicting)
        if self._sweeping is not None:
            tasks.append(self._sweeping)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for room in self.rooms.values():
            room.notify()
        await self.pool.close()

    # -- games ------------------------------------------------------------------------------

    async def create(
        self,
        players: int,
        rules: Rules,
        bots: tuple[str | None, ...],
        seed: int | None = None,
        first_player: int = 0,
        *,
        creator: str = "",
        clock: float | None = None,
    ) -> Created:
        """Set up and store a new game; one token per seat a person plays, and one for the
        spectators.

        Raises:
            WebError: 400 when the game cannot be set up (the message says why); 429 when
                it is a game of bots alone and as many are in play as allowed; 503 when it
                could not be stored.
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
        if all(name is not None for name in bots):
            playing = sum(1 for room in self.rooms.values() if room.bots_only and not room.over)
            if playing >= self.bots_only:
                raise WebError(
                    429,
                    "too_many",
                    f"{playing} games of bots alone are in play, as many as this server "
                    "allows: seat a person, or come back when one has ended",
                    retry_after=60,
                )
        game_id = secrets.token_urlsafe(9)
        tokens = [None if name is not None else secrets.token_urlsafe(24) for name in bots]
        spectator = secrets.token_urlsafe(24)
        hashes = {token_hash(t): seat for seat, t in enumerate(tokens) if t is not None}
        hashes[token_hash(spectator)] = SPECTATOR
        data = game.record().to_data()
        del data["actions"], data["result"]
        head = _dumps(data)
        try:
            await self.store.create(NewGame(game_id, players, bots, head, hashes, creator, clock))
        except StoreError as exc:
            raise _unsaved(exc) from None
        room = Room(game_id, game, bots, hashes)
        room.own_clock = clock
        self.rooms[game_id] = room
        self.kick(room)
        return Created(room, tokens, spectator)

    async def room(self, game_id: str, *, moves: int = 0) -> Room:
        """The room of a game, loaded from the store if it is not in memory; read again
        from the store if it is at fewer than ``moves`` actions (a client that knows of an
        action another process took: read-your-writes across processes).

        Raises:
            WebError: 404 when there is no such game; 503 when the store cannot be read.
        """
        room = self.rooms.get(game_id)
        if room is None:
            loading = self._loading.get(game_id)
            if loading is None:
                loading = asyncio.get_running_loop().create_future()
                self._loading[game_id] = loading
                try:
                    loading.set_result(await self._load(game_id))
                except BaseException as exc:
                    loading.set_exception(exc)
                    loading.exception()  # retrieved: the waiters below re-raise it
                finally:
                    del self._loading[game_id]
            room = await asyncio.shield(loading)
            if room is None:
                raise WebError(404, "not_found", f"no game {game_id!r} on this server")
        room.used = time.monotonic()
        if moves > room.moves:
            room.heard = max(room.heard, moves)
        if room.stale:
            await self.refresh(room)
        self.kick(room)
        return room

    async def _load(self, game_id: str) -> Room | None:
        if len(game_id) > 64 or not game_id.isascii():
            return None
        try:
            stored = await self.store.load(game_id)
        except StoreError as exc:
            raise _unreadable(exc) from None
        if stored is None:
            return None
        try:
            head = stored.head[:-1] + ',"actions":[],"result":null}'
            game = GameRecord.from_json(head).replay()
        except GaiaRulesError as exc:
            logger.error("game %s does not set up and is not served: %s", game_id, exc)
            raise WebError(500, "broken", f"game {game_id} cannot be read back") from None
        room = Room(game_id, game, stored.bots, stored.tokens)
        self._replay(room, stored)
        room.ended = stored.ended
        room.own_clock = stored.clock
        self.rooms[game_id] = room
        if game_id in self._missed:
            self._missed.discard(game_id)
            room.heard = room.moves + 1  # read again: what was heard may be past what was read
        return room

    def _replay(self, room: Room, stored: StoredGame) -> None:
        """Take the stored actions the room has not taken yet, checking each one."""
        game = room.game.copy()
        for action in stored.actions:
            if action.number < room.moves:
                continue
            try:
                game.apply(from_json(action.action, Action))
            except (GaiaRulesError, JsonError) as exc:
                logger.error(
                    "game %s: stored action %d does not apply: %s", room.id, action.number, exc
                )
                raise WebError(500, "broken", f"game {room.id} cannot be read back") from None
            room.take(game, action)
            game = game.copy()

    def seat_of(self, room: Room, token: str | None) -> int | None:
        """The seat ``token`` opens in ``room``: a seat, or ``None`` for a spectator.

        Raises:
            WebError: 401 without a token; 403 for a token that opens nothing here (an
                unknown token, or one of another game).
        """
        if not token:
            raise WebError(401, "unauthorized", "a seat's or a spectator's token is required")
        seat = room.tokens.get(token_hash(token))
        if seat is None:
            raise WebError(403, "forbidden", "this token opens no seat of this game")
        return None if seat == SPECTATOR else seat

    # -- actions ------------------------------------------------------------------------------

    async def submit(
        self,
        room: Room,
        seat: int | None,
        action: Action,
        *,
        move: int | None = None,
        key: str | None = None,
        person: bool = True,
    ) -> dict[str, Any]:
        """Apply ``action``, sent by ``seat`` in answer to move number ``move`` (``None``: to
        whatever the game stands at) with idempotency key ``key``, and store it; the answer.
        ``person``: a request sent it (it keeps the game in memory), not a bot or the clock.

        Raises:
            WebError: 403 if a spectator acts or a seat acts for another; 409 ``stale`` if
                ``move`` is not the move number now, or ``key`` came with another action
                (with the seat's state now), ``illegal`` if the rules refuse the action (the
                message and clause are the engine's); 503 if it could not be stored (then
                it was not taken either). In every case the game is as it was.
        """
        if seat is None:
            raise WebError(403, "forbidden", "a spectator cannot act")
        if action.player != seat:
            raise WebError(403, "forbidden", f"seat {seat} cannot act for seat {action.player}")
        text = action.to_json()
        async with room.lock:
            for _ in range(5):
                if move is not None and move > room.moves:
                    # the client knows of actions this process has not read yet (taken
                    # through another process): read them before judging
                    await self._catch_up(room)
                if room.ended is not None:
                    raise WebError(
                        409, "abandoned", "this game has ended: nobody acted in it for too long"
                    )
                done = self._judge(room, seat, text, move, key)
                if done is not None:
                    return room.answer(done)
                trial = room.game.copy()
                try:
                    trial.apply(action)
                except IllegalActionError as exc:
                    raise WebError(409, "illegal", str(exc), exc.clause) from None
                stored = StoredAction(room.moves, seat, text, key)
                try:
                    await self.store.append(room.id, stored, over=trial.is_over)
                except MoveTakenError:
                    # another process took this move first: read what it stored, judge again
                    await self._catch_up(room)
                    continue
                except StoreError as exc:
                    raise _unsaved(exc) from None
                room.take(trial, stored)
                room.notify()
                break
            else:
                raise WebError(503, "busy", "the game moved on too fast to judge this; try again")
        if person:
            room.used = time.monotonic()
        self._refresh_if_stale(room)  # another process's action, heard while this one was stored
        self.kick(room)
        return room.answer(stored.number)

    def _judge(
        self, room: Room, seat: int, text: str, move: int | None, key: str | None
    ) -> int | None:
        """The number of the accepted action this request repeats, ``None`` if it is a new
        one to try.

        Raises:
            WebError: 409 ``stale``: the key came with another action, or the move number
                is not the game's and the action at it is not this one.
        """
        repeated: int | None = None
        if key is not None and key in room.keys:
            repeated = room.keys[key]
            if (room.seats[repeated], room.texts[repeated]) != (seat, text) or (
                move is not None and move != repeated
            ):
                raise self._stale(room, seat, "this Idempotency-Key came with another action")
            return repeated
        if move is None or move == room.moves:
            return None
        if 0 <= move < room.moves and (room.seats[move], room.texts[move]) == (seat, text):
            return move
        raise self._stale(
            room,
            seat,
            f"this action answers move {move}, and the game is at move {room.moves}",
        )

    def _stale(self, room: Room, seat: int, why: str) -> WebError:
        return WebError(409, "stale", why, state=room.state(seat, 0, world=False))

    async def _catch_up(self, room: Room) -> None:
        """Read and take the actions another process stored (with the room's lock held)."""
        heard = room.heard
        try:
            stored = await self.store.load(room.id, after=room.moves)
        except StoreError as exc:
            raise _unreadable(exc) from None
        if stored is not None and stored.actions:
            self._replay(room, stored)
            room.notify()
        if stored is not None and stored.ended is not None:
            room.end(stored.ended)
        if room.heard == heard:  # nothing new heard while reading: the store had it all
            room.heard = min(room.heard, room.moves)

    async def refresh(self, room: Room) -> None:
        """Bring ``room`` up to what the store holds."""
        async with room.lock:
            await self._catch_up(room)
        self._refresh_if_stale(room)
        self.kick(room)

    def _heard(self, game_id: str, moves: int) -> None:
        """A process (perhaps this one) stored an action of ``game_id``: it has ``moves``
        actions now (an empty id: anything may have changed, everywhere)."""
        if game_id in self._loading:
            self._missed.add(game_id)
        rooms = list(self.rooms.values()) if not game_id else [self.rooms.get(game_id)]
        for room in rooms:
            if room is not None:
                known = moves if game_id and moves != ENDED else room.moves + 1
                room.heard = max(room.heard, known)
                self._refresh_if_stale(room)

    def _refresh_if_stale(self, room: Room) -> None:
        """Read what the other processes stored, unless a request holds the room (this
        process's own append is heard before it is taken: the holder looks again when it
        is done) or a reading is on its way."""
        if room.stale and not room.lock.locked() and room.id not in self._refreshing:
            self._refreshing.add(room.id)
            asyncio.get_running_loop().create_task(self._refresh_heard(room))

    async def _refresh_heard(self, room: Room) -> None:
        try:
            await self.refresh(room)
        except WebError as exc:
            logger.error("game %s: could not read the other processes' actions: %s", room.id, exc)
        finally:
            self._refreshing.discard(room.id)

    # -- abandoned games --------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Every little while, end the games nobody acted in for ``abandon_after`` seconds."""
        while True:
            await asyncio.sleep(max(0.05, min(self.abandon_after / 4, 30.0)))
            await self.abandon()

    async def abandon(self) -> list[str]:
        """End as abandoned every game in play (in memory or not) with no action for
        ``abandon_after`` seconds; their ids. The seats of those in memory are sent their
        state, which says ``ended: "abandoned"``; another process holding one hears of it
        from the store."""
        if self.abandon_after <= 0:
            return []
        try:
            ended = await self.store.abandon(time.time() - self.abandon_after)
        except StoreError as exc:
            logger.error("could not end the abandoned games: %s", exc)
            return []
        for game_id in ended:
            room = self.rooms.get(game_id)
            if room is not None:
                room.end(ABANDONED)
        return ended

    # -- memory -------------------------------------------------------------------------------

    async def _evict_idle(self) -> None:
        """Every little while, forget the games nobody used for ``idle`` seconds."""
        while True:
            await asyncio.sleep(max(0.05, min(self.idle / 4, 30.0)))
            self.evict(time.monotonic() - self.idle)

    def evict(self, before: float) -> list[str]:
        """Forget the games last used before ``before`` (``time.monotonic()``) that nobody
        watches, no bot plays and no request holds; their ids."""
        gone = [
            room.id
            for room in self.rooms.values()
            if room.used < before
            and room.watchers == 0
            and not room.lock.locked()
            and (room.bot_task is None or room.bot_task.done())
        ]
        for game_id in gone:
            room = self.rooms.pop(game_id)
            if room.clock_task is not None:
                room.clock_task.cancel()
        return gone

    # -- bots ---------------------------------------------------------------------------------

    def kick(self, room: Room) -> None:
        """Let the bots play ``room`` if a bot's seat is to move and none is playing yet;
        else wind the clock of the person's seat to move, if there is a clock."""
        self._wind(room)
        if self.closing or room.bot_to_move is None:
            return
        if room.bot_task is None or room.bot_task.done():
            room.bot_task = asyncio.get_running_loop().create_task(self._play_bots(room))

    def _wind(self, room: Room) -> None:
        """Start the clock of the decision asked now, if a person's seat is asked one and
        its clock is not running yet; stop a clock whose decision was taken."""
        seat = room.game.to_move
        person = seat is not None and room.bots[seat] is None and not room.over
        running = room.clock_task is not None and not room.clock_task.done()
        if running and room.clock_at == room.moves and person:
            return
        if running and room.clock_task is not asyncio.current_task():
            assert room.clock_task is not None
            room.clock_task.cancel()
        room.clock_task, room.deadline = None, None
        clock = self.clock if room.own_clock is None else room.own_clock
        if clock <= 0 or self.closing or not person:
            return
        room.clock, room.clock_at = clock, room.moves
        room.deadline = time.monotonic() + clock
        room.clock_task = asyncio.get_running_loop().create_task(self._time_out(room, room.moves))

    async def _time_out(self, room: Room, moves: int) -> None:
        """When the clock runs out on the decision asked at move ``moves``, take it for the
        seat (spec 1.17), as any action is taken: stored, then pushed."""
        await asyncio.sleep(room.clock)
        seat = room.game.to_move
        if room.moves != moves or room.over or seat is None or room.bots[seat] is not None:
            return
        action = timed_out(room.game, seat)
        logger.info("game %s, seat %d: the clock ran out at move %d", room.id, seat, moves)
        try:
            await self.submit(room, seat, action, move=moves, person=False)
        except WebError as exc:
            if exc.kind not in ("stale", "abandoned"):  # the seat (or another process) acted
                logger.error("game %s: the clock's decision failed: %s", room.id, exc.message)

    async def _play_bots(self, room: Room) -> None:
        """Play the bots' seats until a person's seat is to move or the game ends."""
        while not self.closing:
            game = room.game
            name = room.bot_to_move
            seat = game.to_move
            if name is None or seat is None:
                return
            moves = room.moves
            seed = derive_seed(game.seed, seat, len(game.actions))
            try:
                legal = list(game.legal_actions())
                action = await self.pool.decide(name, seed, game.view(seat), legal)
                await self.submit(room, seat, action, move=moves, person=False)
            except WebError as exc:
                if exc.kind == "stale":  # another process moved first: think again
                    continue
                if exc.kind == "abandoned":  # ended meanwhile: nothing more to play
                    return
                logger.error("bot %s in game %s, seat %d: %s", name, room.id, seat, exc.message)
                return
            except Exception:
                # the bot failed, or the store did: stop here; the next request to the room
                # starts it again
                logger.exception("bot %s in game %s, seat %d", name, room.id, seat)
                return


def _unsaved(exc: Exception) -> WebError:
    logger.error("could not store: %s", exc)
    return WebError(503, "unsaved", "the server could not store this; nothing was changed")


def _unreadable(exc: Exception) -> WebError:
    logger.error("could not read the store: %s", exc)
    return WebError(503, "unavailable", "the server could not read its games; try again")
