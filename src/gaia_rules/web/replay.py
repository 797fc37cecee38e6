"""Watching a game again: a finished game of the server, or any record a person drops on the
page (a game dealt from its seed or one started from a position), step by step, as any seat
saw it, or with every hand shown once the game is over.

Routes (registered in ``gaia_rules.web.app``):

- ``GET /api/games/{game}/replay?step=N&seat=S``: the game at step ``N`` (the number of
  actions taken, 0 to all of them), as seat ``S`` saw it (a seat, ``spectator``, or
  ``all`` for every hand); for a game of this server that is over (before, it would show
  what the seats may not see), with any of its tokens;
- ``POST /api/replays``: a record (its JSON) to watch; the answer names it (``replay``,
  the record's digest) with its number of steps;
- ``GET /api/replays/{replay}?step=N&seat=S``: that record at step ``N``. A record not
  watched for a while is forgotten (404, ``kind`` "expired"): post it again.

Each answer is a state message ([`state_message`][gaia_rules.web.messages.state_message]) of
the game at that step for that seat, with ``type`` "replay", no legal actions, and
``replay``: ``steps`` (how many actions the record holds), ``step``, ``seat``,
``turns`` (each turn's first step and its player), ``over`` (whether the record's game
ended) and ``last`` (the index in ``events`` of the first event of the step's action, to
show what it changed). With ``seat=all`` the log is the whole one and ``hands`` lists every
hand; it is given only once the record's game is over. A record is replayed once, and a
copy of its game kept every few steps, so stepping back and forth is quick.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gaia_rules.errors import RecordError
from gaia_rules.record import GameRecord
from gaia_rules.web.reading import json_body, seat_of, whole_number
from gaia_rules.web.refusal import WebError
from gaia_rules.web.replaying import ALL, CHECKPOINT, SPECTATOR, Replay

__all__ = ["CHECKPOINT", "KEPT", "Replay", "game_replay", "post_record", "record_replay"]

KEPT = 16
"""The records kept replayed at once; the least recently watched is forgotten first."""

BODY_LIMIT = 1024 * 1024
"""The largest record accepted, in bytes (a long five-player game with its manifest is
about 40 KB)."""

_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


_replays: collections.OrderedDict[str, Replay] = collections.OrderedDict()


def _kept(key: str) -> Replay | None:
    found = _replays.get(key)
    if found is not None:
        _replays.move_to_end(key)
    return found


def _keep(key: str, replay: Replay) -> Replay:
    _replays[key] = replay
    _replays.move_to_end(key)
    while len(_replays) > KEPT:
        _replays.popitem(last=False)
    return replay


def _seat_param(request: Request, players: int, default: int | str) -> int | str:
    text = request.query_params.get("seat")
    if text is None:
        return default
    if text in (ALL, SPECTATOR):
        return text
    if text.isascii() and text.isdigit() and int(text) < players:
        return int(text)
    raise WebError(400, "bad_request", f"seat: 0 to {players - 1}, spectator or all")


async def game_replay(request: Request) -> Response:
    """``GET /api/games/{game}/replay?step=N&seat=S``: a finished game of this server."""
    _, room, seat = await seat_of(request)
    game = room.game
    if not room.over:  # ended by its rules, or abandoned
        raise WebError(409, "not_over", "a game is watched again once it is over")
    key = f"game {room.id} {len(game.actions)}"
    replay = _kept(key) or _keep(key, await asyncio.to_thread(Replay, game.record()))
    step = whole_number(request, "step", replay.steps)
    chosen = _seat_param(request, replay.players, SPECTATOR if seat is None else seat)
    message = replay.message(step, chosen)
    message["game"] = room.id
    message["bots"] = list(room.bots)
    return JSONResponse(message, headers=_HEADERS)


async def post_record(request: Request) -> Response:
    """``POST /api/replays``: a record to watch; its name and number of steps."""
    data = await json_body(request, BODY_LIMIT)
    try:
        record = GameRecord.from_data(data)
    except RecordError as exc:
        raise WebError(400, "bad_record", str(exc)) from None
    text = record.to_json()
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
    replay = _kept(key) or _keep(key, await asyncio.to_thread(Replay, record))
    answer = {
        "replay": key,
        "steps": replay.steps,
        "players": replay.players,
        "over": replay.over,
        "turns": [list(turn) for turn in replay.turns],
    }
    return JSONResponse(answer, status_code=201, headers=_HEADERS)


async def record_replay(request: Request) -> Response:
    """``GET /api/replays/{replay}?step=N&seat=S``: a posted record at one step."""
    replay = _kept(request.path_params["replay"])
    if replay is None:
        raise WebError(404, "expired", "this record is no longer kept: post it again")
    step = whole_number(request, "step", replay.steps)
    chosen = _seat_param(request, replay.players, ALL if replay.over else SPECTATOR)
    return JSONResponse(replay.message(step, chosen), headers=_HEADERS)
