"""A record replayed once, to be shown at any step as any seat saw it: the part of watching a
game again that the server (``gaia_rules.web.replay``) and the engine in the page
(``gaia_rules.web.inbrowser``) share, free of the server's own libraries."""

from __future__ import annotations

from typing import Any

import attrs

from gaia_rules.errors import GaiaRulesError, IllegalActionError
from gaia_rules.events import TurnBegan
from gaia_rules.game import Game
from gaia_rules.record import GameRecord
from gaia_rules.web.messages import faces_named, state_message
from gaia_rules.web.refusal import WebError

__all__ = ["ALL", "CHECKPOINT", "SPECTATOR", "Replay"]

CHECKPOINT = 16
"""A copy of the game is kept every this many steps: a step costs at most that many actions."""

ALL = "all"
"""The seat that sees every hand (once the game is over)."""
SPECTATOR = "spectator"
"""The seat that sees only what is public."""


class Replay:
    """A record replayed once: its game at every step, rebuilt from the nearest copy."""

    def __init__(self, record: GameRecord) -> None:
        try:
            game = attrs.evolve(record, actions=(), result=None).replay()
        except GaiaRulesError as exc:
            raise WebError(400, "bad_record", str(exc)) from None
        self.players = game.players
        # the turn under way at the start (a position may start in the middle of one)
        self.turns: list[tuple[int, int]] = [(0, game.active)]
        self.copies: list[Game] = [game.copy()]
        self.actions = record.actions
        for index, action in enumerate(record.actions):
            try:
                events = game.apply(action)
            except IllegalActionError as exc:
                raise WebError(
                    400, "bad_record", f"action {index} ({action}) diverges: {exc}", exc.clause
                ) from None
            self.turns += [(index + 1, e.player) for e in events if isinstance(e, TurnBegan)]
            if (index + 1) % CHECKPOINT == 0:
                self.copies.append(game.copy())
        if record.result is not None and game.result != record.result:
            raise WebError(400, "bad_record", f"the replay ends with {game.result}")
        self.steps = len(record.actions)
        self.over = game.is_over

    def at(self, step: int) -> Game:
        """The game after ``step`` actions (a new game: change it at will)."""
        game = self.copies[step // CHECKPOINT].copy()
        for action in self.actions[step // CHECKPOINT * CHECKPOINT : step]:
            game.apply(action)
        return game

    def message(self, step: int, seat: int | str) -> dict[str, Any]:
        """The state message of the game at ``step`` for ``seat`` (a seat, ``spectator`` or
        ``all``), with the replay's own keys.

        Raises:
            WebError: 400 for a step or seat out of range, 409 for ``all`` before the end.
        """
        if not 0 <= step <= self.steps:
            raise WebError(400, "bad_request", f"step: 0 to {self.steps}, not {step}")
        if seat == ALL and not self.over:
            raise WebError(409, "not_over", "every hand is shown once the game is over")
        game = self.at(step)
        before = self.at(step - 1) if step else None
        who = None if seat in (ALL, SPECTATOR) else int(seat)
        message = state_message(game, who, 0, world=True)
        message["type"] = "replay"
        message["legal"] = None
        last = 0 if before is None else _log_length(before, seat)
        if seat == ALL:
            message["events"] = [event.to_data() for event in game.events]
            hands = [list(hand) for hand in game.state.hands]
            message["hands"] = hands
            named = (message["view"], message["events"], hands)
            message["faces"] = faces_named(game.rules.cards, named)
        message["log"] = []  # the page words the events itself
        message["replay"] = {
            "steps": self.steps,
            "step": step,
            "seat": seat,
            "players": self.players,
            "turns": [list(turn) for turn in self.turns],
            "over": self.over,
            "last": last,
        }
        return message


def _log_length(game: Game, seat: int | str) -> int:
    if seat == ALL:
        return len(game.events)
    if seat == SPECTATOR:
        return len(state_message(game, None)["events"])
    return len(game.events_for(int(seat)))
