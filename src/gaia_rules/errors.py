"""The typed errors of gaia-rules: one base class, and one class per kind of bad input.

Catch [`GaiaRulesError`][gaia_rules.errors.GaiaRulesError] to catch every error the library
raises on purpose. Every class but the base is also a ``ValueError``, except
[`IllegalActionError`][gaia_rules.errors.IllegalActionError]: an illegal action is a refusal
of the rules, not a malformed value. The JSON reader's error,
[`JsonError`][gaia_rules.serialization.JsonError], and the notation's,
[`NotationError`][gaia_rules.notation.NotationError], live with their modules.
"""

from __future__ import annotations

import reprlib

__all__ = [
    "GaiaRulesError",
    "IllegalActionError",
    "ManifestError",
    "PositionError",
    "RecordError",
    "RulesError",
    "SeatError",
    "shown",
]

_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 60
_SHOWN.maxlevel = 3


def shown(value: object) -> str:
    """``repr(value)`` cut short, for an error message: bounded in length and in time however
    large or deep the value is (a caller's value is shown, never trusted)."""
    try:
        return _SHOWN.repr(value)
    except ValueError:  # Python writes no whole number of more than 4300 digits
        return "a whole number of more than 4300 digits"


class GaiaRulesError(Exception):
    """The base class of every error gaia-rules raises on purpose."""


class IllegalActionError(GaiaRulesError):
    """An action that is not legal now; the game is exactly as it was before (spec 1.7).

    Raised by [`Game.apply`][gaia_rules.game.Game.apply]. Its message is the reason followed
    by the clause, for example ``"... (spec 7.1)"``.

    Attributes:
        clause (str): The id of the spec clause the action breaks (for example ``"7.1"``).
        reason (str): The readable explanation, without the clause.
    """

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(f"{reason} (spec {clause})")
        self.clause = clause
        self.reason = reason


class RulesError(GaiaRulesError, ValueError):
    """A ``Rules`` value that cannot be played: an impossible combination or a bad switch.

    Also raised by [`new_game`][gaia_rules.game.new_game] for a bad number of players, first
    player or seed (spec 1.2, 1.3).
    """


class ManifestError(GaiaRulesError, ValueError):
    """A card manifest that breaks the stated facts; ``problems`` lists every one found.

    Raised when a [`Manifest`][gaia_rules.manifest.Manifest] is built or read (spec 2.4-2.9).

    Attributes:
        problems (tuple[str, ...]): One readable line per problem, each naming the card or
            the field.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"bad card manifest ({len(self.problems)} problem(s)):\n{lines}")


class PositionError(GaiaRulesError, ValueError):
    """A position that could not arise or breaks an invariant; ``problems`` lists each one.

    Raised by [`Position.to_game`][gaia_rules.position.Position.to_game] and the other
    readers and builders of positions (spec 16).

    Attributes:
        problems (tuple[str, ...]): One readable line per problem, many naming the clause
            broken.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"bad position ({len(self.problems)} problem(s)):\n{lines}")


class ViewError(PositionError):
    """A view that no game could show its seat; ``problems`` lists what does not add up.

    Raised by [`determinize`][gaia_rules.determinize.determinize] and
    [`Determinizer`][gaia_rules.determinize.Determinizer] (spec 1.5, 16). A view is a position
    seen from one seat, so this is a [`PositionError`][gaia_rules.errors.PositionError] too.

    Attributes:
        problems (tuple[str, ...]): One readable line per problem, many naming the clause
            broken.
    """

    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        self.args = (f"bad view ({len(self.problems)} problem(s)):\n{lines}",)


class RecordError(GaiaRulesError, ValueError):
    """A game record that is malformed or does not replay; says where.

    Raised by [`GameRecord.replay`][gaia_rules.record.GameRecord.replay] and the record's
    readers.

    Attributes:
        index (int | None): The index of the first action that diverged, when one did
            (the number of actions when only the result differs); ``None`` otherwise.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class SeatError(GaiaRulesError, ValueError):
    """A seat that is not one of the game's: not a whole number from 0 to ``players - 1``.

    Raised by [`Game.view`][gaia_rules.game.Game.view],
    [`Game.events_for`][gaia_rules.game.Game.events_for] and
    [`Game.pawns_placed`][gaia_rules.game.Game.pawns_placed].
    """
