"""The typed errors of gaia-rules: one base class, and one class per kind of bad input."""

from __future__ import annotations

__all__ = [
    "GaiaRulesError",
    "IllegalActionError",
    "ManifestError",
    "PositionError",
    "RecordError",
    "RulesError",
]


class GaiaRulesError(Exception):
    """The base class of every error gaia-rules raises on purpose."""


class IllegalActionError(GaiaRulesError):
    """An action that is not legal now; the game is exactly as it was before.

    ``clause`` is the id of the spec clause the action breaks (for example ``"7.1"``),
    and ``reason`` the readable explanation.
    """

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(f"{reason} (spec {clause})")
        self.clause = clause
        self.reason = reason


class RulesError(GaiaRulesError, ValueError):
    """A ``Rules`` value that cannot be played: an impossible combination or a bad switch."""


class ManifestError(GaiaRulesError, ValueError):
    """A card manifest that breaks the stated facts; ``problems`` lists every one found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"bad card manifest ({len(self.problems)} problem(s)):\n{lines}")


class PositionError(GaiaRulesError, ValueError):
    """A position that could not arise or breaks an invariant; ``problems`` lists each one."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"bad position ({len(self.problems)} problem(s)):\n{lines}")


class RecordError(GaiaRulesError, ValueError):
    """A game record that is malformed or does not replay; says where.

    ``index`` is the index of the first action that diverged, when one did.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
