"""The server's answers without a server: the engine of a page that runs the library itself
(under Pyodide, in a Web Worker), answering the JSON the server's routes answer.

Nothing here speaks HTTP or imports Starlette: only the core and the web wing's message
builders ([`state_message`][gaia_rules.web.messages.state_message] and
``gaia_rules.web.presentation``), so the pure wheel runs it in a browser as it is. The worker
(``static/inbrowser/worker.js``) hands [`Engine.handle`][gaia_rules.web.inbrowser.Engine.handle]
one request as JSON text, ``{"op": ..., ...}``, and posts back its answer as JSON text:

- ``create`` ``{players, rules?, bots?, seed?, first_player?}``: a game; the answer of
  ``POST /api/games`` (``game``, ``seats``: ``seat``, ``bot``, ``token``; ``spectator``);
- ``open`` ``{record, bots?, game?}``: a game continued from a record (a game in progress kept by
  the page, or a pictured position of the docs: every seat a person's unless ``bots`` says);
- ``state`` ``{game, seat, since?, world?}``: the answer of ``GET /api/games/{game}``;
- ``apply`` ``{game, seat, move?, action}``: the answer of ``POST .../actions``;
- ``bot`` ``{game}``: one decision of the bot whose seat is to move, applied; the same
  answer, or ``{"ok": false}`` when no bot is to move (the worker asks again until then,
  so that the page hears of every move);
- ``preview`` ``{game, seat, action}``: the answer of ``GET .../preview``;
- ``record`` ``{game, force?, text?}``: the record's JSON data, once the game is over
  (``force``: before, for the page that keeps a game in progress in the browser's storage;
  ``text``: as ``{"text": ...}``, its JSON text, whose 63-bit seed JavaScript cannot hold);
- ``replay`` ``{record | game, step?, seat?}``: the answer of ``GET /api/replays/{replay}``;
- ``faces`` ``{rules?, lang?}``: the answer of ``POST /api/faces``;
- ``close`` ``{game}``: forget a game;
- ``board`` ``{game, since?}`` and ``attempt`` ``{game, card?, square?}``: a position tried
  in the docs, every seat the reader's: what there is to choose, and a card played on a
  square, legal or not (the rules refuse an illegal one with their words and clause).

A refusal is ``{"error": {"status", "kind", "message", "clause"?}}``, as the server's: the
same status and kind for the same mistake. Bots decide from their seat's view and the legal
actions only, from a seed derived from the game's seed, the seat and the move number, as the
server's bots do: a game played here and on a server with the same seed goes the same way.
"""

from __future__ import annotations

import collections
import json
import re
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from gaia_rules.actions import (
    Action,
    PlayAnimals,
    PlayCity,
    PlayEruption,
    PlayLightning,
    PlayNature,
    PlayRain,
    PlaySun,
    PowerPlay,
)
from gaia_rules.bots import BOTS
from gaia_rules.cards import AnimalCard, CityCard, NatureCard, PowerCard
from gaia_rules.cli.common import derive_seed
from gaia_rules.errors import GaiaRulesError, IllegalActionError
from gaia_rules.game import Game, new_game
from gaia_rules.notation import format_action
from gaia_rules.preview import power_preview
from gaia_rules.record import GameRecord
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_data
from gaia_rules.svg import world_svg
from gaia_rules.text import describe, face_words
from gaia_rules.vocabulary import Pos, Power
from gaia_rules.web.facesheet import face_sheet
from gaia_rules.web.messages import state_message
from gaia_rules.web.presentation import preview_data
from gaia_rules.web.refusal import WebError
from gaia_rules.web.replaying import Replay

__all__ = ["LANGUAGES", "Engine", "EngineError"]

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

LANGUAGES = ("en", "de", "fr", "hu")
"""The page's languages (as ``gaia_rules.web.table.LANGUAGES``)."""


EngineError = WebError
"""A request the engine refuses, with the status and kind the server gives the same mistake
(``clause``: the rule that refuses an action): the server's own error."""


def _bad(message: str) -> EngineError:
    return EngineError(400, "bad_request", message)


def _whole(data: Mapping[str, Any], name: str, default: int | None) -> int | None:
    value = data.get(name, default)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise _bad(f"{name}: expected a whole number, got {value!r}")
    return value


def _seat(data: Mapping[str, Any], players: int) -> int | None:
    seat = data.get("seat")
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise _bad(f"seat: 0 to {players - 1} or null, not {seat!r}")
    return seat


def _action(data: Any) -> Action:
    try:
        action: Action = from_data(data, Action)
    except JsonError as exc:
        raise _bad(f"not an action: {'; '.join(exc.problems)}") from None
    return action


def _rules(data: Mapping[str, Any]) -> Rules:
    try:
        return Rules.from_dict(data.get("rules", {"format": 1}))
    except GaiaRulesError as exc:
        raise _bad(f"rules: {exc}") from None


def _bots(names: Any, players: int) -> tuple[str | None, ...]:
    if names is None:
        return (None,) * players
    if not isinstance(names, list) or not all(n is None or isinstance(n, str) for n in names):
        raise _bad("bots: expected a list of bot names or nulls")
    if len(names) != players:
        raise _bad(f"bots: one per seat ({players}), not {len(names)}")
    for seat, name in enumerate(names):
        if name is not None and name not in BOTS:
            raise _bad(f"bots[{seat}]: no bot {name!r}; the bots are {', '.join(sorted(BOTS))}")
    return tuple(names)


class _Local:
    """One game of the page, and its bots."""

    def __init__(self, game_id: str, game: Game, bots: tuple[str | None, ...]) -> None:
        self.id = game_id
        self.game = game
        self.bots = bots

    def state(self, seat: int | None, since: int, world: bool) -> dict[str, Any]:
        message = state_message(self.game, seat, since)
        message["game"] = self.id
        message["bots"] = list(self.bots)
        if world:
            message["world"] = world_svg(self.game, size=64, pictograms=True)
        return message

    def created(self) -> dict[str, Any]:
        seats = [
            {
                "seat": seat,
                "bot": bot,
                "token": None if bot is not None else f"{self.id}.{seat}",
                "url": None,
            }
            for seat, bot in enumerate(self.bots)
        ]
        return {
            "game": self.id,
            "seats": seats,
            "spectator": {"token": f"{self.id}.spectator", "url": None},
            "players": self.game.players,
            "moves": len(self.game.actions),
            "to_move": self.game.to_move,
            "over": self.game.is_over,
        }


class Engine:
    """The games of one page, answering requests as the server's routes do."""

    def __init__(self) -> None:
        self.games: dict[str, _Local] = {}
        self._replays: collections.OrderedDict[str, Replay] = collections.OrderedDict()
        self._ops: dict[str, Callable[[Mapping[str, Any]], Any]] = {
            "create": self.create,
            "open": self.open,
            "state": self.state,
            "apply": self.apply,
            "bot": self.bot,
            "preview": self.preview,
            "record": self.record,
            "replay": self.replay,
            "faces": self.faces,
            "close": self.close,
            "board": self.board,
            "attempt": self.attempt,
            "bots": lambda _: sorted(BOTS),
        }

    def handle(self, text: str) -> str:
        """Answer one request (JSON text ``{"op": ..., ...}``) with JSON text: the answer,
        or ``{"error": ...}`` for anything refused. Never raises for bad input."""
        try:
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise _bad(f"the request is not JSON: {exc}") from None
            if not isinstance(data, dict) or not isinstance(data.get("op"), str):
                raise _bad('expected {"op": "...", ...}')
            op = self._ops.get(data["op"])
            if op is None:
                raise EngineError(404, "not_found", f"no operation {data['op']!r}")
            answer = op(data)
        except EngineError as exc:
            answer = exc.to_data()
        return json.dumps(answer, separators=(",", ":"))

    # -- games ----------------------------------------------------------------------------

    def _local(self, data: Mapping[str, Any]) -> _Local:
        game_id = data.get("game")
        local = self.games.get(game_id) if isinstance(game_id, str) else None
        if local is None:
            raise EngineError(404, "not_found", f"no game {game_id!r}")
        return local

    def _keep(self, game: Game, bots: tuple[str | None, ...], game_id: Any = None) -> _Local:
        if game_id is None:
            game_id = secrets.token_hex(6)
        if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
            raise _bad(f"game: 1-32 letters, digits, - or _, not {game_id!r}")
        local = _Local(game_id, game, bots)
        self.games[local.id] = local
        return local

    def create(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A new game: ``players`` (2-5), ``rules``, ``bots`` (one name or null a seat),
        ``seed``, ``first_player``."""
        players = _whole(data, "players", None)
        if players is None or not 2 <= players <= 5:
            raise _bad(f"players: 2 to 5, not {data.get('players')!r}")
        bots = _bots(data.get("bots"), players)
        seed = _whole(data, "seed", None)
        first = _whole(data, "first_player", 0) or 0
        try:
            game = new_game(players, _rules(data), seed, first)
        except GaiaRulesError as exc:
            raise _bad(str(exc)) from None
        return self._keep(game, bots).created()

    def open(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A game continued from ``record`` (its JSON data), with ``bots`` in some seats,
        under the id ``game`` if given (a game the page kept, opened again after a reload)."""
        try:
            record = _record(data.get("record"))
            game = record.replay()
        except GaiaRulesError as exc:
            raise EngineError(400, "bad_record", str(exc), getattr(exc, "clause", None)) from None
        bots = _bots(data.get("bots"), game.players)
        return self._keep(game, bots, data.get("game")).created()

    def close(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Forget a game."""
        self.games.pop(self._local(data).id)
        return {"ok": True}

    def state(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The state message of ``game`` for ``seat`` (null: a spectator)."""
        local = self._local(data)
        since = _whole(data, "since", 0) or 0
        return local.state(_seat(data, local.game.players), since, bool(data.get("world")))

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """``seat``'s ``action`` answering move ``move``: the server's answer to it."""
        local = self._local(data)
        seat = _seat(data, local.game.players)
        action = _action(data.get("action"))
        move = _whole(data, "move", None)
        if seat is None:
            raise EngineError(403, "forbidden", "a spectator cannot act")
        if action.player != seat:
            raise EngineError(403, "forbidden", f"seat {seat} cannot act for seat {action.player}")
        return self._take(local, seat, action, move)

    def _take(self, local: _Local, seat: int, action: Action, move: int | None) -> dict[str, Any]:
        game = local.game
        moves = len(game.actions)
        if move is not None and move != moves:
            error = EngineError(
                409, "stale", f"this action answers move {move}, and the game is at move {moves}"
            )
            error.state = local.state(seat, 0, False)
            raise error
        trial = game.copy()
        before = len(trial.events)
        try:
            trial.apply(action)
        except IllegalActionError as exc:
            raise EngineError(409, "illegal", str(exc), exc.clause) from None
        except GaiaRulesError as exc:
            raise EngineError(409, "over", str(exc)) from None
        local.game = trial
        seen = trial.events_for(seat)[before:]
        return {
            "ok": True,
            "moves": moves + 1,
            "to_move": trial.to_move,
            "over": trial.is_over,
            "events": [event.to_data() for event in seen],
            "seat": seat,
        }

    def bot(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """One decision of the bot to move, if a bot's seat is to move."""
        local = self._local(data)
        game = local.game
        seat = game.to_move
        name = None if seat is None else local.bots[seat]
        if seat is None or name is None:
            return {"ok": False, "to_move": seat, "over": game.is_over}
        seed = derive_seed(game.seed, seat, len(game.actions))
        action = BOTS[name](seed).choose(game.view(seat), list(game.legal_actions()))
        return self._take(local, seat, action, None)

    def preview(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """What ``seat``'s Power play ``action`` would do, from its view."""
        local = self._local(data)
        seat = _seat(data, local.game.players)
        if seat is None:
            raise EngineError(403, "forbidden", "a spectator plays no Power")
        action = _action(data.get("action"))
        if not isinstance(action, PowerPlay):
            raise _bad(f"{type(action).__name__} is not a Power play")
        try:
            found = power_preview(local.game.view(seat), action)
        except IllegalActionError as exc:
            raise EngineError(409, "illegal", str(exc), exc.clause) from None
        except GaiaRulesError as exc:
            raise EngineError(409, "over", str(exc)) from None
        return {"moves": len(local.game.actions), **preview_data(found)}

    def record(self, data: Mapping[str, Any]) -> Any:
        """The record of ``game`` as data, once it is over (``force``: before, to keep);
        with ``text``, ``{"text": <its JSON>}``: a seed is a 63-bit number, which JavaScript's
        numbers do not hold, so a page keeps a record as the text it was given."""
        local = self._local(data)
        if not local.game.is_over and not data.get("force"):
            raise EngineError(
                409, "not_over", "the record is given when the game is over: it names every card"
            )
        text = local.game.record().to_json()
        return {"text": text} if data.get("text") else json.loads(text)

    # -- a position to try (the docs' live examples) ----------------------------------------

    def board(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """What a reader trying a position sees, every seat theirs: the world with the squares
        of the legal actions outlined, the hand of the seat to move, each legal action with
        its words, its card and its squares, and the events since the position in words."""
        local = self._local(data)
        game = local.game
        seat = game.to_move
        since = _whole(data, "since", 0) or 0
        choices: list[dict[str, Any]] = []
        outlined: set[Pos] = set()
        if seat is not None:
            for action in game.legal_actions():
                squares = _squares(action)
                outlined.update(squares)
                card = getattr(action, "card", None)
                choices.append(
                    {
                        "action": action.to_data(),
                        "words": _action_words(game, action),
                        "card": card,
                        "squares": [str(square) for square in squares],
                    }
                )
        hand = [] if seat is None else list(game.view(seat).hand)
        events = game.events[since:]
        return {
            "game": local.id,
            "moves": len(game.actions),
            "to_move": seat,
            "over": game.is_over,
            "decision": None if game.decision is None else type(game.decision).__name__,
            "world": world_svg(game, size=64, pictograms=True, highlight=sorted(outlined)),
            "hand": [{"card": card, "words": face_words(game.rules.cards, card)} for card in hand],
            "choices": choices,
            "events": len(game.events),
            "log": [describe(event, game.rules.cards) for event in events],
        }

    def attempt(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The seat to move plays ``card`` (from its hand) on ``square`` (``"x,y"``), or
        ``square`` alone: the legal action that does it if there is one, else the play the
        card's kind makes, which the rules refuse with their words and clause."""
        local = self._local(data)
        game = local.game
        seat = game.to_move
        if seat is None:
            raise EngineError(409, "over", "the game is over")
        card = data.get("card")
        square = data.get("square")
        if card is not None and not isinstance(card, str):
            raise _bad(f"card: expected a card id, got {card!r}")
        try:
            pos = None if square is None else _pos(square)
        except ValueError:
            raise _bad(f"square: expected x,y, got {square!r}") from None
        for action in game.legal_actions():
            squares = _squares(action)
            same_card = getattr(action, "card", None) == card
            if same_card and (pos in squares if pos is not None else not squares):
                return self._take(local, seat, action, None)
        play = _play(game, seat, card, pos)
        if play is None:
            raise EngineError(
                409, "illegal", "nothing to do with that: choose a card, then a square"
            )
        return self._take(local, seat, play, None)

    # -- replays and faces ----------------------------------------------------------------

    def replay(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The record ``record`` (or the finished ``game``) at ``step`` as ``seat`` (a seat,
        ``spectator`` or ``all``) saw it: the answer of ``GET /api/replays/{replay}``."""
        if "game" in data:
            local = self._local(data)
            if not local.game.is_over:
                raise EngineError(409, "not_over", "a game is watched again once it is over")
            text = local.game.record().to_json()
        else:
            given = data.get("record")
            text = given if isinstance(given, str) else json.dumps(given, sort_keys=True)
        replay = self._replays.get(text)
        if replay is None:
            try:
                replay = Replay(_record(text))
            except GaiaRulesError as exc:
                raise EngineError(400, "bad_record", str(exc)) from None
            self._replays[text] = replay
            while len(self._replays) > 4:
                self._replays.popitem(last=False)
        self._replays.move_to_end(text)
        step = _whole(data, "step", replay.steps)
        if step is None or not 0 <= step <= replay.steps:
            raise _bad(f"step: 0 to {replay.steps}, not {data.get('step')!r}")
        seat = data.get("seat")
        if seat is None:
            seat = "all" if replay.over else "spectator"
        if seat not in ("all", "spectator") and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < replay.players
        ):
            raise _bad(f"seat: 0 to {replay.players - 1}, spectator or all")
        if seat == "all" and not replay.over:
            raise EngineError(409, "not_over", "every hand is shown once the game is over")
        message = replay.message(step, seat)
        if "game" in data:
            message["game"] = data["game"]
            message["bots"] = list(self.games[data["game"]].bots)
        return message

    def faces(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Every face of the rules' cards and the three backs, drawn in ``lang``."""
        lang = data.get("lang", "en")
        if lang not in LANGUAGES:
            raise _bad(f"lang: one of {', '.join(LANGUAGES)}, not {lang!r}")
        return face_sheet(_rules(data).cards, str(lang))


_SQUARE_FIELDS = ("pos", "first", "second", "city", "source")

_SQUARE = re.compile(r"(-?[0-9]{1,4}),(-?[0-9]{1,4})")


def _pos(text: object) -> Pos:
    """A square written ``x,y``; ``ValueError`` for anything else."""
    match = _SQUARE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(text)
    return Pos(int(match[1]), int(match[2]))


_PLAYS: dict[object, Callable[..., Action]] = {
    NatureCard: PlayNature,
    AnimalCard: PlayAnimals,
    CityCard: PlayCity,
    Power.SUN: PlaySun,
    Power.RAIN: PlayRain,
    Power.LIGHTNING: PlayLightning,
    Power.ERUPTION: PlayEruption,
}
"""The play a card's kind makes on a square."""


def _squares(action: Action) -> list[Pos]:
    """The squares an action names."""
    found = [getattr(action, name, None) for name in _SQUARE_FIELDS]
    return [square for square in found if isinstance(square, Pos)]


def _play(game: Game, seat: int, card: str | None, pos: Pos | None) -> Action | None:
    """The play of ``card`` on ``pos`` its kind makes, legal or not (``None``: no such play)."""
    if card is None or pos is None:
        return None
    try:
        face = game.rules.cards.face(card)
    except (GaiaRulesError, KeyError):
        raise _bad(f"card: no card {card!r}") from None
    kind = face.power if isinstance(face, PowerCard) else type(face)
    play = _PLAYS.get(kind)
    return None if play is None else play(seat, card, pos)


def _action_words(game: Game, action: Action) -> str:
    """An action in words: its notation (without its seat: the seat to move takes it), each
    card named by its face."""
    text = format_action(action).partition(": ")[2]
    card = getattr(action, "card", None)
    if isinstance(card, str):
        text = text.replace(card, face_words(game.rules.cards, card))
    return text


def _record(given: Any) -> GameRecord:
    """A record given as its JSON text (as a page keeps one) or as data."""
    if isinstance(given, str):
        return GameRecord.from_json(given)
    return GameRecord.from_data(given)
