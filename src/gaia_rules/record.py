"""Game records: everything needed to replay a game, and the replay that checks it.

A record is "parameters + history" (OpenSpiel's lesson): the rules with the card manifest,
the seed, the seats, the first player, and the actions the players took; the engine's own
single-option decisions are re-taken by the engine on replay. The library version that wrote
it and the final result ride along, so that a replay can say when it diverges.

A game that did not begin with a deal (one started from a position, or sampled from a view)
is recorded from the position it started from, as a chess PGN carries the FEN of its SetUp
tag: ``start`` holds it, and the replay starts there instead of dealing from the seed.
"""

from __future__ import annotations

from typing import Any

import attrs

from gaia_rules import hooks
from gaia_rules.actions import Action
from gaia_rules.errors import GaiaRulesError, IllegalActionError, RecordError
from gaia_rules.events import Result
from gaia_rules.game import Game, new_game
from gaia_rules.limits import MAX_RECORD_CHARS
from gaia_rules.manifest import Manifest
from gaia_rules.position import Position
from gaia_rules.rules import Rules
from gaia_rules.serialization import (
    JsonError,
    from_data,
    from_json,
    register_document,
    register_own_format,
)
from gaia_rules.untrusted import value_problems
from gaia_rules.wire import Wire

__all__ = ["RECORD_FORMAT", "RECORD_FORMATS", "GameRecord"]

RECORD_FORMAT = 2
"""The version of the records the library writes: 2 since copies of one face are one choice
(spec 1.12), which changed the events and the actions a record names."""
RECORD_FORMATS = frozenset({1, RECORD_FORMAT})
"""The versions a reader accepts. A record of format 1 names, in each action, the very copy
that moved; its replay moves that copy (see `GameRecord.format`)."""


@attrs.frozen
class GameRecord(Wire):
    """A whole game, replayable: ``game.record()`` writes one, `replay` reads it."""

    rules: Rules
    players: int
    seed: int
    first_player: int
    actions: tuple[Action, ...]
    manifest: Manifest
    """The faces of the cards played with, so that a record replays even if a later version
    ships other reconstructed faces."""
    library: str
    """The version of gaia-rules that wrote the record."""
    result: Result | None = None
    """How the game ended, if it had when the record was written."""
    start: Position | None = None
    """The position the game started from, or ``None`` for a game dealt from ``seed``. A
    record with a start has the start's rules, players, first player and seed."""
    format: int = attrs.field(default=RECORD_FORMAT)
    """The record's version, ``"format"`` in its JSON: 2 (`RECORD_FORMAT`) for the records
    this version writes; 1 for those written before copies of one face became one choice
    (spec 1.12). An action of a record of format 1 names the copy that moved, and its replay
    moves that copy, so that it gives back the game it recorded; a game replayed from it
    goes on that way, and its own record is of format 1 too."""

    @format.validator
    def _known_format(self, attribute: object, value: object) -> None:
        if type(value) is not int or value not in RECORD_FORMATS:
            raise RecordError(f"format: expected one of {sorted(RECORD_FORMATS)}, got {value!r}")

    def replay(self) -> Game:
        """Rebuild the game action by action, checking each one.

        The game is set up from the record's rules (played with the record's own
        ``manifest``), seed, players and first player, or started from its ``start``
        position, then every action is applied in turn; the engine re-takes its own
        single-option decisions.

        Returns:
            The [`Game`][gaia_rules.game.Game], after the last action.

        Raises:
            RecordError: A field of the record holds a value of the wrong type (spec
                1.10a: the actions a tuple of actions, the seed an ``int``, ...); the setup
                is refused (a bad number of players, first player or seed,
                a manifest of another edition than the rules, or a start position that is
                refused or disagrees with the record's parameters); an action does not apply
                (its ``index`` is set, and the message says why, with the clause); or the
                record has a result and the replay ends with another one (``index`` is the
                number of actions).
        """
        broken = value_problems(self, GameRecord)  # 1.10a: the types first, exactly
        if broken:
            raise RecordError(
                "bad record: "
                + "; ".join(f"{problem.where('record')}: {problem.message}" for problem in broken)
            )
        try:
            game = self._setup()
        except GaiaRulesError as exc:
            raise RecordError(f"the record's setup is refused: {exc}") from None
        if self.format == 1:  # its actions name the copies that moved (see format)
            game._table.named_copies = True
        for index, action in enumerate(self.actions):
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise RecordError(
                    f"action {index} ({action}) diverges: {exc}", index=index
                ) from None
        if self.result is not None and game.result != self.result:
            raise RecordError(
                f"the replay ends with {game.result}, the record says {self.result}",
                index=len(self.actions),
            )
        return game

    def _setup(self) -> Game:
        """The game before the record's first action."""
        rules = self.rules
        if rules.cards != self.manifest:
            rules = attrs.evolve(rules, manifest=self.manifest)
        start = self.start
        if start is None:
            return new_game(self.players, rules, self.seed, self.first_player)
        if not isinstance(start, Position):
            raise RecordError(f"start: expected a Position, got {type(start).__name__}")
        parameters = (start.rules, start.players, start.first_player, start.seed)
        if parameters != (rules, self.players, self.first_player, self.seed):
            raise RecordError(
                "start: the position's rules, players, first player and seed must be the "
                "record's own"
            )
        return start.to_game()

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text, as ``to_json()`` writes it.

        The actions are not checked here: [`replay`][gaia_rules.record.GameRecord.replay]
        checks them.

        Raises:
            RecordError: ``text`` is not JSON or not a record (a missing or unknown field, a
                wrong ``"format"``, a value of the wrong type, bad rules or manifest); the
                message gives the path of each faulty field.
        """
        try:
            return from_json(text, cls)
        except JsonError as exc:
            raise RecordError(f"bad record: {'; '.join(exc.problems)}") from None

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        """Read a record from JSON-ready data, as ``to_data()`` writes it.

        Raises:
            RecordError: ``data`` is not a record, as for
                [`from_json`][gaia_rules.record.GameRecord.from_json].
        """
        try:
            return from_data(data, cls)
        except JsonError as exc:
            raise RecordError(f"bad record: {'; '.join(exc.problems)}") from None


register_document(GameRecord, chars=MAX_RECORD_CHARS)
register_own_format(GameRecord, RECORD_FORMATS)
hooks.new_record = GameRecord
