"""Game records: everything needed to replay a game, and the replay that checks it.

A record is "parameters + history" (OpenSpiel's lesson): the rules with the card manifest,
the seed, the seats, the first player, and the actions the players took; the engine's own
single-option decisions are re-taken by the engine on replay. The library version that wrote
it and the final result ride along, so that a replay can say when it diverges.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from gaia_rules.actions import Action
from gaia_rules.errors import GaiaRulesError, IllegalActionError, RecordError
from gaia_rules.events import Result
from gaia_rules.manifest import Manifest
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_data, from_json, register_document
from gaia_rules.wire import Wire

if TYPE_CHECKING:  # game imports this module: the annotation only
    from gaia_rules.game import Game

__all__ = ["GameRecord"]


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

    def replay(self) -> Game:
        """Rebuild the game action by action, checking each one.

        The game is set up from the record's rules (played with the record's own
        ``manifest``), seed, players and first player, then every action is applied in turn;
        the engine re-takes its own single-option decisions.

        Returns:
            The [`Game`][gaia_rules.game.Game], after the last action.

        Raises:
            RecordError: The setup is refused (a bad number of players, first player or seed,
                or a manifest of another edition than the rules); an action does not apply
                (its ``index`` is set, and the message says why, with the clause); or the
                record has a result and the replay ends with another one (``index`` is the
                number of actions).
        """
        from gaia_rules.game import new_game  # noqa: PLC0415 (game imports this module)

        try:
            rules = self.rules
            if rules.cards != self.manifest:
                rules = attrs.evolve(rules, manifest=self.manifest)
            game = new_game(self.players, rules, self.seed, self.first_player)
        except GaiaRulesError as exc:
            raise RecordError(f"the record's setup is refused: {exc}") from None
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


register_document(GameRecord)
