"""Game records: everything needed to replay a game, and the replay that checks it.

A record is "parameters + history" (OpenSpiel's lesson): the rules with the card manifest,
the seed, the seats, the first player, and the actions the players took; the engine's own
single-option decisions are re-taken by the engine on replay. The library version that wrote
it and the final result ride along, so that a replay can say when it diverges.
"""

from __future__ import annotations

from typing import Any

import attrs

from gaia_rules.actions import Action
from gaia_rules.errors import GaiaRulesError, IllegalActionError, RecordError
from gaia_rules.events import Result
from gaia_rules.manifest import Manifest
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_data, from_json, register_document
from gaia_rules.wire import Wire

__all__ = ["GameRecord"]


@attrs.frozen
class GameRecord(Wire):
    """A whole game, replayable: ``game.record()`` writes one, :meth:`replay` reads it."""

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

    def replay(self) -> Any:
        """Rebuild the game action by action, checking each one; returns the ``Game``.

        Raises :class:`~gaia_rules.errors.RecordError` at the first action that does not apply
        (naming its index and why), or when the result differs from the recorded one.
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
        """Read a record; a malformed one raises :class:`RecordError` saying where."""
        try:
            return from_json(text, cls)
        except JsonError as exc:
            raise RecordError(f"bad record: {'; '.join(exc.problems)}") from None

    @classmethod
    def from_data(cls, data: Any) -> GameRecord:
        """Read a record from JSON-ready data; :class:`RecordError` says where it is wrong."""
        try:
            return from_data(data, cls)
        except JsonError as exc:
            raise RecordError(f"bad record: {'; '.join(exc.problems)}") from None


register_document(GameRecord)
