"""``to_json()`` and ``from_json()`` as methods of the library's values.

A mixin, so that actions, events, views and states read and write themselves through the one
converter of `gaia_rules.serialization`, imported late because that module imports
theirs.
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["Wire"]

W = TypeVar("W", bound="Wire")


class Wire:
    """Adds ``to_json``, ``to_data``, ``from_json`` and ``from_data`` to a value class."""

    __slots__ = ()

    def to_json(self) -> str:
        """This value as JSON text."""
        from gaia_rules.serialization import to_json  # noqa: PLC0415

        return to_json(self)

    def to_data(self) -> Any:
        """This value as JSON-ready data."""
        from gaia_rules.serialization import to_data  # noqa: PLC0415

        return to_data(self)

    @classmethod
    def from_json(cls: type[W], text: str | bytes) -> W:
        """Read a value of this class; [`JsonError`][gaia_rules.serialization.JsonError] if it is
        not one."""
        from gaia_rules.serialization import from_json  # noqa: PLC0415

        return from_json(text, cls)

    @classmethod
    def from_data(cls: type[W], data: Any) -> W:
        """Read a value of this class from JSON-ready data."""
        from gaia_rules.serialization import from_data  # noqa: PLC0415

        return from_data(data, cls)
