"""The one rule by which the engine reads whatever comes from outside (spec 1.10, 1.10a).

Two kinds of input reach the engine from outside: JSON (text, or data already parsed) read
into a record, a position, a view, a state, an action, an event or a decision; and the
objects a caller hands over itself: an action to ``Game.apply`` or ``Game.is_legal``, a
``Position`` to ``to_game``, a ``View`` to ``determinize``, a record to ``replay``, the
arguments of the ``PositionBuilder``. Both are read by one rule, here, before the engine
builds or changes anything from them:

- **Exact types.** Each value must be of exactly the type its class declares: a whole
  number is an ``int``, never a ``bool`` or a ``float``; a text is a ``str``; a square is
  a `Pos` of two ``int``\\ s (the text ``"x,y"`` on the wire); a list is a list (a JSON
  array, a Python ``tuple``), never a text or another iterable; a map is a ``dict``; an
  enum value is a member of its enum (its value on the wire); a value of one of the
  library's classes is of that very class, never a subclass. Python compares a square
  equal to the plain tuple of its coordinates, ``True`` equal to ``1`` and ``1.0``
  equal to ``1``, so a looser check would let such values stand where a square or a seat
  belongs.
- **Bounded.** No collection holds more entries than any game can write (spec 1.10): at
  most the 48 squares of the box's tiles in a collection of squares, at most the 20,300
  actions of the longest record in a record's actions, at most 100 events for each of them
  in a seat's log, at most the 110 cards of the box in any other. A longer one is refused
  by its length, before its entries are looked at. No whole number lies outside the 64-bit
  range (a seat, a count, a seed: none goes beyond).
- **Linear.** Each value is looked at once, and no deeper than its type goes: the time
  taken is linear in the input, and bounded by the limits above whatever the input holds.

Every problem found is reported with the path of the value at fault (``$.actions[3].pos``
for JSON, ``action.pos`` for an object). The readers turn them into their own typed errors;
what the values *mean* (a card that is not in the box, a seat that is not in the game, a
square that is not open) is for the rules to check, once the types are known to be right.
"""

from __future__ import annotations

import enum
import functools
import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeVar

import attrs

from gaia_rules.actions import Action
from gaia_rules.errors import shown
from gaia_rules.events import Event
from gaia_rules.limits import (
    BOX_CARDS,
    BOX_TILES,
    EVENTS_PER_ACTION,
    MAX_RECORD_ACTIONS,
    WHOLE_NUMBERS,
)
from gaia_rules.manifest import Manifest
from gaia_rules.rules import Rules
from gaia_rules.vocabulary import Pos

__all__ = [
    "SQUARE",
    "Problem",
    "checked_arguments",
    "data_problems",
    "most_entries",
    "value_problems",
]

F = TypeVar("F", bound=Callable[..., Any])

_Chain = tuple[Any, Any] | None
"""Where a value stands, as a chain ``(where its container stands, its key)`` from the root
(``None``): built as the values are walked, read only to report a problem."""


class _Key:
    """A key of a map, in a path (printed ``[key]``, where a field prints ``.field``)."""

    __slots__ = ("key",)

    def __init__(self, key: object) -> None:
        self.key = key


_shown = shown
"""A value named in a problem, cut short, however large it is."""


@attrs.frozen
class Problem:
    """One way an input breaks the rule: where (``path``, from the root), what was wanted
    (``expected``: the type a leaf must have, or ``None``) and in words (``message``)."""

    path: tuple[object, ...]
    message: str
    expected: object = None

    def where(self, root: str = "$") -> str:
        """The path as text: ``$.actions[3].pos``, ``action.pos``, ``tiles[Pos(1, 0)]``."""
        parts = [root]
        for step in self.path:
            if isinstance(step, _Key):
                parts.append(f"[{_shown(step.key)}]")
            elif isinstance(step, int):
                parts.append(f"[{step}]")
            else:
                parts.append(f".{step}")
        return "".join(parts)


def _problem(at: _Chain, message: str, expected: object = None) -> Problem:
    path: list[object] = []
    while at is not None:
        at, step = at
        path.append(step)
    path.reverse()
    return Problem(tuple(path), message, expected)


_Check = Callable[[Any, _Chain, list[Problem]], None]
"""Checks a value standing at a place; appends each problem found to the list."""


def most_entries(item: Any) -> int:
    """The most entries a collection of ``item`` values (or keyed by ``item``) holds in
    anything a game writes (spec 1.10)."""
    if item is Pos:
        return BOX_TILES  # 2.1: a world of 48 tiles at most
    if item == Action:
        return MAX_RECORD_ACTIONS  # 15.5: the longest record
    if item == Event:
        return EVENTS_PER_ACTION * MAX_RECORD_ACTIONS  # a seat's log of the longest record
    return BOX_CARDS  # 2.4-2.8: nothing else a game writes lists more than the box's cards


# -- the leaves -------------------------------------------------------------------------------

_WIRE_NAMES: Final[dict[type, str]] = {
    int: "a whole number",
    str: "a text",
    bool: "true or false",
    dict: "an object",
    list: "a list",
}
_VALUE_NAMES: Final[dict[type, str]] = {
    int: "a whole number (int)",
    str: "a text (str)",
    bool: "True or False",
    dict: "a dict",
    tuple: "a tuple",
}


def _exact(kind: type, name: str) -> _Check:
    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) is not kind:
            out.append(_problem(at, f"expected {name}, got {_shown(value)}", kind))

    _EXACT[check] = kind
    return check


_EXACT: dict[_Check, type] = {}
"""The checks that only compare a value's type with one type, and that type: the walk of
an object's fields makes that comparison itself (a call less per field)."""


_LOWEST, _HIGHEST = WHOLE_NUMBERS.start, WHOLE_NUMBERS.stop - 1


def _whole(name: str) -> _Check:
    """A whole number: an ``int`` (never a ``bool`` or a ``float``), within the range of
    every number a game writes (1.10)."""

    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) is not int:
            out.append(_problem(at, f"expected {name}, got {_shown(value)}", int))
        elif not _LOWEST <= value <= _HIGHEST:
            wanted = f"{name} from -2**63 to 2**63-1"
            out.append(_problem(at, f"expected {wanted}, got {_shown(value)}", int))

    return check


def _none(value: Any, at: _Chain, out: list[Problem]) -> None:
    if value is not None:
        out.append(_problem(at, f"expected null, got {_shown(value)}"))


SQUARE: Final = re.compile(r"(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)")
"""A square on the wire: ``"x,y"``, as in the notation (no sign on 0, no leading zero)."""


def _square_text(value: Any, at: _Chain, out: list[Problem]) -> None:
    if type(value) is str and (match := SQUARE.fullmatch(value)):
        if len(value) < _LONGEST_NUMBER:
            return
        try:  # Python reads whole numbers of at most 4300 digits
            int(match.group(1)), int(match.group(2))
        except ValueError:
            pass
        else:
            return
    out.append(_problem(at, f"expected a square as 'x,y', got {_shown(value)}", Pos))


_LONGEST_NUMBER: Final = 4300
"""Python reads whole numbers of at most this many digits (``sys.get_int_max_str_digits``)."""


def _square_value(value: Any, at: _Chain, out: list[Problem]) -> None:
    """A square as an object: a `Pos` whose coordinates are whole numbers (spec 3.1)."""
    if type(value) is not Pos or type(value[0]) is not int or type(value[1]) is not int:
        shown = _shown(value)
        out.append(
            _problem(at, f"expected a square, Pos(x, y) of two ints (3.1), got {shown}", Pos)
        )


def _enum_text(members: Sequence[type[enum.Enum]]) -> _Check:
    values = {member.value: member for cls in members for member in cls}
    names = sorted(str(value) for value in values)
    expected = members[0] if len(members) == 1 else tuple(members)

    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) is not str or value not in values:
            out.append(_problem(at, f"expected one of {names}, got {_shown(value)}", expected))

    return check


def _enum_value(members: Sequence[type[enum.Enum]]) -> _Check:
    allowed = frozenset(members)
    name = " or ".join(f"a {cls.__name__}" for cls in members)
    expected = members[0] if len(members) == 1 else tuple(members)

    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) not in allowed:
            out.append(_problem(at, f"expected {name}, got {_shown(value)}", expected))

    return check


# -- collections ------------------------------------------------------------------------------


def _sequence(item: _Check, containers: tuple[type, ...], name: str, most: int) -> _Check:
    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) not in containers:
            out.append(_problem(at, f"expected {name}, got {_shown(value)}", containers[0]))
            return
        entries = typing.cast("Sequence[Any]", value)
        if len(entries) > most:
            out.append(_problem(at, f"{len(entries)} entries, at most {most} (1.10)"))
            return
        for index, entry in enumerate(entries):
            item(entry, (at, index), out)

    return check


def _fixed(items: Sequence[_Check], container: type, name: str) -> _Check:
    size = len(items)

    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        entries: Sequence[Any] = value
        if type(value) is not container or len(entries) != size:
            wanted = f"{name} of {size} entries"
            out.append(_problem(at, f"expected {wanted}, got {_shown(value)}", container))
            return
        for index, (entry, item) in enumerate(zip(entries, items, strict=True)):
            item(entry, (at, index), out)

    return check


def _mapping(key: _Check, item: _Check, name: str, most: int) -> _Check:
    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) is not dict:
            out.append(_problem(at, f"expected {name}, got {_shown(value)}", dict))
            return
        if len(value) > most:
            out.append(_problem(at, f"{len(value)} entries, at most {most} (1.10)"))
            return
        for entry_key, entry in value.items():
            where = (at, _Key(entry_key))
            key(entry_key, where, out)
            item(entry, where, out)

    return check


def _optional(inner: _Check) -> _Check:
    def check(value: Any, at: _Chain, out: list[Problem]) -> None:
        if value is not None:
            inner(value, at, out)

    return check


# -- the library's classes --------------------------------------------------------------------


def _fields(cls: type, wire: bool, tagged: bool) -> _Check:
    """An attrs class: on the wire an object of its fields (and its ``"type"`` when it is a
    member of a tagged union), none missing but those with defaults, none extra; as an
    object, an instance of exactly this class whose every field holds its type."""
    hints = typing.get_type_hints(cls)
    fields = []
    for field in attrs.fields(cls):
        check = _checker(hints[field.name], wire)
        # Hot path: a record's actions and a view's fields are read here; a field of one
        # exact type is compared inline, and its check called only to report a problem.
        exact = _EXACT.get(check)
        if hints[field.name] is int:  # compared inline too, with its range
            exact = int
        fields.append((field.name, exact, check, field.default is attrs.NOTHING))
    if not wire:
        name = f"a {cls.__name__}"

        def check_value(value: Any, at: _Chain, out: list[Problem]) -> None:
            if type(value) is not cls:
                what = f"got {_shown(value)}"
                if isinstance(value, cls):
                    what = f"got an instance of {type(value).__name__}, a subclass"
                out.append(_problem(at, f"expected {name}, {what}", cls))
                return
            for field_name, exact, check_field, _ in fields:
                item = getattr(value, field_name)
                if exact is None or type(item) is not exact or _out_of_range(exact, item):
                    check_field(item, (at, field_name), out)

        return check_value

    names = {field_name for field_name, _, _, _ in fields}
    if tagged:
        names.add("type")

    def check_data(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) is not dict:
            out.append(_problem(at, f"expected an object, got {_shown(value)}", dict))
            return
        if not names.issuperset(value):
            extra = [key for key in value if key not in names]
            shown = ", ".join(_shown(key) for key in extra[:5])
            more = f" and {len(extra) - 5} more" if len(extra) > 5 else ""
            out.append(_problem(at, f"extra fields found ({shown}{more})"))
        for field_name, exact, check_field, required in fields:
            if field_name in value:
                item = value[field_name]
                if exact is None or type(item) is not exact or _out_of_range(exact, item):
                    check_field(item, (at, field_name), out)
            elif required:
                out.append(_problem((at, field_name), "required field missing"))

    return check_data


def _out_of_range(exact: type, item: Any) -> bool:
    return exact is int and not _LOWEST <= item <= _HIGHEST


def _union(members: Sequence[type], wire: bool) -> _Check:
    """A union of the library's classes: on the wire tagged with ``"type"``, the name of
    its class; as an object, an instance of exactly one of them."""
    checks = {cls: _fields(cls, wire, tagged=True) for cls in members}
    names = sorted(cls.__name__ for cls in members)
    if not wire:

        def check_value(value: Any, at: _Chain, out: list[Problem]) -> None:
            check = checks.get(type(value))
            if check is None:
                what = f"got {_shown(value)}"
                if isinstance(value, tuple(members)):
                    what = f"got an instance of {type(value).__name__}, a subclass"
                out.append(_problem(at, f"expected one of {names}, {what}", tuple(members)))
                return
            check(value, at, out)

        return check_value

    by_name = {cls.__name__: check for cls, check in checks.items()}
    listed = ", ".join(map(repr, names[:4]))
    if len(names) > 4:
        listed = f"{', '.join(map(repr, names[:3]))}, ... ({len(names)} names)"

    def check_data(value: Any, at: _Chain, out: list[Problem]) -> None:
        if type(value) is not dict:
            out.append(_problem(at, f"expected an object tagged with 'type', got {_shown(value)}"))
            return
        tag = value.get("type")
        check = by_name.get(tag) if type(tag) is str else None
        if check is None:
            out.append(_problem((at, "type"), f"expected one of {listed}, got {_shown(tag)}"))
            return
        check(value, at, out)

    return check_data


# -- types to checks --------------------------------------------------------------------------


def _is_enum(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, enum.Enum)


@functools.cache
def _checker(hint: Any, wire: bool) -> _Check:
    """The check of a value declared ``hint``, on the wire or as an object (kept per type)."""
    names = _WIRE_NAMES if wire else _VALUE_NAMES
    if hint is None or hint is type(None):
        return _none
    if hint is int:
        return _whole(names[int])
    if hint in (bool, str):
        return _exact(hint, names[hint])
    if hint is Pos:
        return _square_text if wire else _square_value
    if _is_enum(hint):
        return _enum_text([hint]) if wire else _enum_value([hint])
    if hint in (Rules, Manifest):  # read and checked by their own readers
        return _exact(dict, "an object") if wire else _exact(hint, f"a {hint.__name__}")
    if attrs.has(hint):
        return _fields(hint, wire, tagged=False)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        members = [arg for arg in args if arg is not type(None)]
        if all(_is_enum(arg) for arg in members):
            inner = _enum_text(members) if wire else _enum_value(members)
        elif len(members) == 1:
            inner = _checker(members[0], wire)
        elif all(attrs.has(arg) for arg in members):
            inner = _union(members, wire)
        else:
            raise TypeError(f"no rule for {hint!r}")
        return _optional(inner) if len(members) < len(args) else inner
    container, name = (list, names[list]) if wire else (tuple, names[tuple])
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(_checker(args[0], wire), (container,), name, most_entries(args[0]))
        return _fixed([_checker(arg, wire) for arg in args], container, name)
    if origin is Sequence and not wire:  # an argument a caller may give as a list or a tuple
        item = args[0]
        return _sequence(
            _checker(item, wire), (list, tuple), "a list or a tuple", most_entries(item)
        )
    if origin in (dict, Mapping):
        key, item = args
        return _mapping(_checker(key, wire), _checker(item, wire), names[dict], most_entries(key))
    raise TypeError(f"no rule for {hint!r}")


def data_problems(data: Any, kind: Any) -> list[Problem]:
    """Every way parsed JSON ``data`` breaks the rule for a value of ``kind`` (a class of
    the library, or one of the unions ``Action``, ``Event``, ``Decision``, ``Step``); none
    for data that may be read as one.

    Raises:
        TypeError: ``kind`` is not a type this rule knows (a mistake of the caller's).
    """
    found: list[Problem] = []
    _checker(kind, True)(data, None, found)
    return found


def value_problems(value: Any, kind: Any) -> list[Problem]:
    """Every way the object ``value`` breaks the rule for a value of ``kind``; none for a
    value the engine may take as one.

    Raises:
        TypeError: ``kind`` is not a type this rule knows (a mistake of the caller's).
    """
    found: list[Problem] = []
    _checker(kind, False)(value, None, found)
    return found


def checked_arguments(error: Callable[[list[str]], Exception]) -> Callable[[F], F]:
    """Check the arguments of the function it decorates by the rule, each against its
    annotation, before the function runs, and raise ``error(problems)`` if one breaks it.

    The arguments named in ``*args`` are checked one by one. ``self``, and arguments
    annotated with a type the rule does not know, are left to the function.
    """

    def decorate(function: F) -> F:
        signature = inspect.signature(function)

        @functools.cache
        def checks() -> dict[str, tuple[bool, _Check]]:
            hints = typing.get_type_hints(function)
            found: dict[str, tuple[bool, _Check]] = {}
            for name, parameter in signature.parameters.items():
                if name not in hints:
                    continue
                try:
                    check = _checker(hints[name], False)
                except TypeError:
                    continue  # not a type the rule knows: the function checks it
                found[name] = (parameter.kind is inspect.Parameter.VAR_POSITIONAL, check)
            return found

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise error([f"{function.__name__}: {exc}"]) from None
            problems: list[Problem] = []
            for name, value in bound.arguments.items():
                found = checks().get(name)
                if found is None:
                    continue
                variadic, check = found
                if variadic:
                    for index, entry in enumerate(value):
                        check(entry, ((None, name), index), problems)
                else:
                    check(value, (None, name), problems)
            if problems:
                raise error([f"{p.where(function.__name__)}: {p.message}" for p in problems])
            return function(*args, **kwargs)

        return typing.cast(F, wrapper)

    return decorate
