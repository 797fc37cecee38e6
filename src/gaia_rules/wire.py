"""``to_json()`` and ``from_json()`` as methods of the library's values.

A mixin, so that actions, events, views and states read and write themselves through the one
converter of `gaia_rules.serialization`. That module imports the values, so they reach it
through the functions it installs in `gaia_rules.hooks` (no import circle).
"""

from __future__ import annotations

from typing import Any, TypeVar

from gaia_rules import hooks

__all__ = ["Wire"]

W = TypeVar("W", bound="Wire")


class Wire:
    """Adds ``to_json``, ``to_data``, ``from_json`` and ``from_data`` to a value class."""

    __slots__ = ()

    def to_json(self) -> str:
        """This value as JSON text."""
        return hooks.to_json(self)

    def to_data(self) -> Any:
        """This value as JSON-ready data."""
        return hooks.to_data(self)

    @classmethod
    def from_json(cls: type[W], text: str | bytes) -> W:
        """Read a value of this class; [`JsonError`][gaia_rules.serialization.JsonError] if it is
        not one."""
        value: W = hooks.from_json(text, cls)
        return value

    @classmethod
    def from_data(cls: type[W], data: Any) -> W:
        """Read a value of this class from JSON-ready data."""
        value: W = hooks.from_data(data, cls)
        return value
