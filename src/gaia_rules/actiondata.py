"""Actions read from JSON-ready data by hand, for the converter of `gaia_rules.serialization`.

A record holds one action per decision a player took, and reading them through the generic
tagged union of cattrs cost more than the rest of the record together. Each action class
here gets a reader that takes its fields straight from the dict, as strictly as the generic
path: a whole number is an ``int`` and never a ``bool``, a text is a ``str``, a square is
``"x,y"``, a back is its value, no field is missing and none is extra. Anything else is
handed to the generic path, which refuses it with the error that names the faulty field, so
a refusal reads the same whichever path saw the data first.
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import attrs

from gaia_rules.actions import Action
from gaia_rules.untrusted import SQUARE
from gaia_rules.vocabulary import CardKind, Pos

__all__ = ["SQUARE", "ActionStructure"]


class _NotPlainError(ValueError):
    """The data is not the plain form of an action: the generic path says why."""


def _whole(value: Any) -> int:
    if type(value) is not int:
        raise _NotPlainError
    return value


def _text(value: Any) -> str:
    if type(value) is not str:
        raise _NotPlainError
    return value


def _square(value: Any) -> Pos:
    if type(value) is not str or not (match := SQUARE.fullmatch(value)):
        raise _NotPlainError
    return Pos(int(match.group(1)), int(match.group(2)))


def _back(value: Any) -> CardKind:
    if type(value) is not str:
        raise _NotPlainError
    return CardKind(value)  # a ValueError for an unknown back


_READ_FIELD: dict[Any, Callable[[Any], Any]] = {
    int: _whole,
    str: _text,
    Pos: _square,
    CardKind: _back,
}


def _reader(cls: type[Action]) -> Callable[[dict[str, Any]], Action]:
    """The reader of one action class: its fields, in order, each by its own reader."""
    hints = typing.get_type_hints(cls)
    fields = tuple((field.name, _READ_FIELD[hints[field.name]]) for field in attrs.fields(cls))
    size = len(fields) + 1  # and "type"

    def read(data: dict[str, Any]) -> Action:
        if len(data) != size:
            raise _NotPlainError
        return cls(*[read_field(data[name]) for name, read_field in fields])

    return read


_READERS: dict[str, Callable[[dict[str, Any]], Action]] = {
    cls.__name__: _reader(cls) for cls in typing.get_args(Action)
}


class ActionStructure:
    """A structure hook for ``Action`` that reads plain actions by hand and hands anything
    else to ``generic``, the converter's own hook for the union."""

    def __init__(self, generic: Callable[[Any, Any], Any]) -> None:
        self.generic = generic

    def __call__(self, value: Any, kind: Any) -> Any:
        if type(value) is dict:
            tag = value.get("type")
            read = _READERS.get(tag) if type(tag) is str else None
            if read is not None:
                try:
                    return read(value)
                except (KeyError, ValueError):
                    pass
        return self.generic(value, kind)
