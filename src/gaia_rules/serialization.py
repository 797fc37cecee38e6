"""JSON for everything that crosses the API, through one cattrs converter.

[`to_data`][gaia_rules.serialization.to_data] and
[`from_data`][gaia_rules.serialization.from_data] turn library values into JSON-ready data
and back; [`to_json`][gaia_rules.serialization.to_json] and
[`from_json`][gaia_rules.serialization.from_json] do the same with text. The wire format:

- a square is the text ``"x,y"``, as in the notation, also as a dict key;
- an enum is its value (``"plain"``, ``"nature"``, ``"animals"``, ``"star"``);
- an action, an event and a decision carry a ``"type"`` key naming their class;
- ``Rules`` and ``Manifest`` have the forms of their own ``to_dict`` methods;
- documents (records, views, states, positions) carry ``"format"``:
  [`WIRE_FORMAT`][gaia_rules.serialization.WIRE_FORMAT].

Untrusted input never crashes the engine: anything wrong raises
[`JsonError`][gaia_rules.serialization.JsonError], which
names each faulty field by its path (``$.actions[3].pos``). Before anything is built from
it, the data is checked by the one rule for untrusted input (`gaia_rules.untrusted`, spec
1.10, 1.10a): every value of exactly its type (``"5"`` is not a seat, ``1.5`` is not a number
of tokens, ``1`` is not ``True``, a text is not a list), no collection longer than a game
can make it, in time linear in the data.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

import cattrs
from cattrs.strategies import configure_tagged_union

from gaia_rules import hooks
from gaia_rules.actiondata import ActionStructure
from gaia_rules.actions import Action, PowerPlay
from gaia_rules.decisions import Decision, Step
from gaia_rules.errors import GaiaRulesError, ManifestError, RulesError
from gaia_rules.events import Event
from gaia_rules.limits import MAX_DOCUMENT_CHARS, MAX_RECORD_CHARS
from gaia_rules.manifest import Manifest, parse_need, parse_site
from gaia_rules.rules import Rules
from gaia_rules.untrusted import SQUARE, data_problems
from gaia_rules.vocabulary import Need, Pos, Site

__all__ = [
    "WIRE_FORMAT",
    "JsonError",
    "converter",
    "from_data",
    "from_json",
    "register_check",
    "register_document",
    "register_own_format",
    "to_data",
    "to_json",
]

WIRE_FORMAT = 1
"""The version of the wire format; documents carry it, and a reader refuses another."""

T = TypeVar("T")


MAX_PROBLEMS = 20
"""How many faulty fields an error names; the rest are counted."""


class JsonError(GaiaRulesError, ValueError):
    """JSON that is not a value of the expected kind; ``problems`` says where and what.

    A [`GaiaRulesError`][gaia_rules.errors.GaiaRulesError] and a ``ValueError``.

    Attributes:
        problems (tuple[str, ...]): One line per faulty field, each naming it by its path,
            for example ``"expected a square as 'x,y', got '1;2' @ $.actions[3].pos"``; after
            ``MAX_PROBLEMS`` of them, one line counts the rest.
    """

    def __init__(self, problems: list[str]) -> None:
        if len(problems) > MAX_PROBLEMS:
            more = len(problems) - MAX_PROBLEMS
            problems = [*problems[:MAX_PROBLEMS], f"... and {more} more"]
        self.problems = tuple(problems)
        super().__init__("bad JSON: " + "; ".join(self.problems))


def _pos(value: Any, _: Any) -> Pos:
    if not isinstance(value, str) or not (match := SQUARE.fullmatch(value)):
        raise ValueError(f"expected a square as 'x,y', got {value!r}")
    return Pos(int(match.group(1)), int(match.group(2)))


def _described(exc: BaseException, kind: Any) -> str:
    """A problem in words: the library's own hooks say what they expected and got."""
    if isinstance(exc, ValueError | TypeError) and str(exc).startswith("expected "):
        return str(exc)
    if isinstance(exc, GaiaRulesError):  # a manifest's or rules' own reader says what is wrong
        return str(exc)
    return cattrs.v.format_exception(exc, kind)


def _strict(kind: type, name: str) -> Any:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not kind:  # bool is an int in Python, not on the wire
            raise TypeError(f"expected {name}, got {value!r}")
        return value

    return structure


def _need(value: Any, _: Any) -> Need:
    need = parse_need(value)
    if need is None:
        raise ValueError(f"expected a land or 'animals', got {value!r}")
    return need


def _site(value: Any, _: Any) -> Site:
    site = parse_site(value)
    if site is None:
        raise ValueError(f"expected a land or 'star', got {value!r}")
    return site


def _rules(value: Any, _: Any) -> Rules:
    return Rules.from_dict(value)


def _manifest(value: Any, _: Any) -> Manifest:
    return Manifest.from_dict(value)


_UNIONS: tuple[Any, ...] = (Action, Decision, Event, PowerPlay, Step)
"""The tagged unions, each member written with ``"type"``. A value is written as the first
union it belongs to (a Sun is an ``Action`` before it is a ``PowerPlay``)."""


def _make_converter() -> cattrs.Converter:
    made = cattrs.Converter(forbid_extra_keys=True)
    made.register_unstructure_hook(Pos, str)
    made.register_structure_hook(Pos, _pos)
    made.register_structure_hook(int, _strict(int, "a whole number"))
    made.register_structure_hook(str, _strict(str, "a text"))
    made.register_structure_hook(bool, _strict(bool, "true or false"))
    made.register_unstructure_hook(Rules, Rules.to_dict)
    made.register_structure_hook(Rules, _rules)
    made.register_unstructure_hook(Manifest, Manifest.to_dict)
    made.register_structure_hook(Manifest, _manifest)
    made.register_structure_hook(Need, _need)
    made.register_structure_hook(Site, _site)
    for union in _UNIONS:
        configure_tagged_union(union, made, tag_name="type")
        optional = union | None
        made.register_structure_hook(optional, _optional_structure(made, union))
        made.register_unstructure_hook(optional, _optional_unstructure(made, union))
    made.register_structure_hook(Action, ActionStructure(made.get_structure_hook(Action)))
    made.register_unstructure_hook_factory(_is_fixed_tuple, partial(_fixed_tuple_as_list, made))
    return made


def _is_fixed_tuple(kind: Any) -> bool:
    """A tuple of a fixed number of values (``tuple[CardId, int]``), not ``tuple[X, ...]``."""
    args = typing.get_args(kind)
    return typing.get_origin(kind) is tuple and bool(args) and args[-1] is not Ellipsis


def _fixed_tuple_as_list(made: cattrs.Converter, kind: Any) -> Callable[[Any], list[Any]]:
    """A tuple of fixed values is a JSON array too: written as a list, as every other one."""
    hooks_of = [made.get_unstructure_hook(arg) for arg in typing.get_args(kind)]

    def unstructure(value: Any) -> list[Any]:
        return [hook(item) for hook, item in zip(hooks_of, value, strict=True)]

    return unstructure


def _optional_structure(made: cattrs.Converter, union: Any) -> Any:
    def structure(value: Any, _: Any) -> Any:
        return None if value is None else made.structure(value, union)

    return structure


def _optional_unstructure(made: cattrs.Converter, union: Any) -> Any:
    def unstructure(value: Any) -> Any:
        return None if value is None else made.unstructure(value, union)

    return unstructure


def union_of(cls: type) -> Any:
    """The first union ``cls`` belongs to (``Action``, ``Decision``, ``Event``, ...), or
    ``cls``."""
    for union in _UNIONS:
        if cls in typing.get_args(union):
            return union
    return cls


def _as(value: Any) -> Any:
    """The type to unstructure ``value`` as: its union, so that it carries its tag."""
    for union in _UNIONS:
        if isinstance(value, typing.get_args(union)):
            return union
    return type(value)


converter = _make_converter()
"""The one converter every JSON of the library goes through."""


def _is_format(value: Any, expected: int) -> bool:
    """A format version is that whole number, and ``true`` is not ``1``."""
    return type(value) is int and value == expected


_DOCUMENTS: dict[type, int] = {}
"""The classes whose JSON carries ``"format"`` (filled in by the modules that define them),
each with the longest JSON text a reader takes of it (1.10)."""


def register_document(cls: type, *, chars: int = MAX_DOCUMENT_CHARS) -> None:
    """Mark ``cls`` as a document: its JSON carries the wire format's version, and a reader
    refuses one longer than ``chars`` characters before parsing it (1.10)."""
    _DOCUMENTS[cls] = chars


_OWN_FORMATS: dict[type, frozenset[int]] = {}
"""The documents that keep a ``format`` field of their own, which their JSON's ``"format"``
is, with the versions a reader accepts (a record: 1 and 2)."""


def register_own_format(cls: type, formats: frozenset[int]) -> None:
    """Mark the document ``cls`` as keeping its own ``format`` field: its JSON's
    ``"format"`` is that field, and a reader accepts any of ``formats``."""
    _OWN_FORMATS[cls] = formats


def document_formats(cls: type) -> frozenset[int]:
    """The values of ``"format"`` a reader accepts for the document ``cls``."""
    return _OWN_FORMATS.get(cls, frozenset({WIRE_FORMAT}))


_CHECKS: dict[type, Callable[[Any], list[str]]] = {}
"""What a value read from JSON must satisfy beyond its shape, by class (filled in by the
modules that know how to check them)."""


def register_check(cls: type, check: Callable[[Any], list[str]]) -> None:
    """Check every ``cls`` value read from JSON with ``check``, which lists its problems."""
    _CHECKS[cls] = check


def to_data(value: Any) -> Any:
    """``value`` as JSON-ready data (dicts, lists, texts, numbers, booleans, ``None``).

    An action, a decision or an event carries its ``"type"``; a document carries
    ``"format"``. A value the wire format does not know is returned as it is.
    """
    data = converter.unstructure(value, _as(value))
    if isinstance(value, tuple(_DOCUMENTS)):
        data = {"format": WIRE_FORMAT, **data}
    return data


@typing.overload
def from_data(data: Any, kind: type[T]) -> T: ...
@typing.overload
def from_data(data: Any, kind: Any) -> Any: ...
def from_data(data: Any, kind: Any) -> Any:
    """The value of type ``kind`` that ``data`` describes.

    Args:
        data: Already-parsed JSON (dicts, lists, texts, numbers, booleans, ``None``).
        kind: A class of the library (``GameRecord``, ``View``, ``Rules``, ``Pos``,
            ``PlayNature``, ...) or one of the unions ``Action``, ``Event``, ``Decision``.

    Raises:
        JsonError: ``data`` is not a value of type ``kind``: a missing, unknown or mistyped
            field, a wrong ``"type"`` tag or ``"format"``, bad rules or manifest, a key that
            is not a text, data nested too deeply. Nothing else escapes: the error's
            ``problems`` name each faulty field by its path.
    """
    union = union_of(kind) if isinstance(kind, type) else kind
    if union is not kind:  # a member of a union is written with its tag: read it so
        value = from_data(data, union)
        if not isinstance(value, kind):
            raise JsonError([f"$.type: expected {kind.__name__}, got {type(value).__name__}"])
        return value
    if isinstance(kind, type) and issubclass(kind, tuple(_DOCUMENTS)):
        if type(data) is not dict:
            raise JsonError(["$: expected a JSON object"])
        formats = document_formats(kind)
        if not any(_is_format(data.get("format"), wanted) for wanted in formats):
            expected = " or ".join(str(wanted) for wanted in sorted(formats))
            raise JsonError([f"$.format: expected {expected}, got {data.get('format')!r}"])
        if kind not in _OWN_FORMATS:
            data = {k: v for k, v in data.items() if k != "format"}
    # the one rule for untrusted input, before anything is built from the data (1.10a)
    broken = data_problems(data, kind)
    if broken:
        raise JsonError([f"{problem.message} @ {problem.where()}" for problem in broken])
    try:
        value = converter.structure(data, kind)
    except (RulesError, ManifestError) as exc:
        raise JsonError([f"$.rules: {exc}"]) from None
    except cattrs.BaseValidationError as exc:
        try:
            problems = cattrs.transform_error(exc, format_exception=_described)
        except Exception:  # a path cattrs itself cannot print: still a typed refusal
            problems = [f"$: {exc}"]
        raise JsonError(problems) from None
    except (RecursionError, MemoryError):
        raise JsonError(["$: nested too deeply"]) from None
    except Exception as exc:  # the boundary of untrusted input: nothing else escapes
        raise JsonError([f"$: {type(exc).__name__}: {exc}"]) from None
    check = _CHECKS.get(kind)
    if check is not None:
        try:
            problems = check(value)
        except Exception as exc:  # the boundary of untrusted input: nothing else escapes
            problems = [f"$: {type(exc).__name__}: {exc}"]
        if problems:
            raise JsonError(problems)
    return value


def to_json(value: Any) -> str:
    """``value`` as JSON text (compact, UTF-8 characters kept as they are).

    Raises:
        TypeError: ``value`` holds something the wire format does not know (from
            ``json.dumps``).
    """
    return json.dumps(to_data(value), ensure_ascii=False, separators=(",", ":"))


@typing.overload
def from_json(text: str | bytes, kind: type[T]) -> T: ...
@typing.overload
def from_json(text: str | bytes, kind: Any) -> Any: ...
def from_json(text: str | bytes, kind: Any) -> Any:
    """The value of type ``kind`` that the JSON ``text`` describes.

    Args:
        text: JSON text, as [`to_json`][gaia_rules.serialization.to_json] writes it.
        kind: As for [`from_data`][gaia_rules.serialization.from_data].

    Raises:
        JsonError: ``text`` is not JSON, or not the JSON of a value of type ``kind`` (see
            [`from_data`][gaia_rules.serialization.from_data]), or is longer than any such
            value can be (1.10: a record at most
            [`MAX_RECORD_CHARS`][gaia_rules.limits.MAX_RECORD_CHARS] characters, anything
            else at most [`MAX_DOCUMENT_CHARS`][gaia_rules.limits.MAX_DOCUMENT_CHARS]); that
            is refused before the text is parsed.
    """
    most = _DOCUMENTS.get(kind, MAX_DOCUMENT_CHARS)
    if isinstance(text, str | bytes) and len(text) > most:
        name = getattr(kind, "__name__", "value")
        raise JsonError([f"$: {len(text)} characters; a {name} has at most {most} (1.10)"])
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        raise JsonError([f"$: not JSON: {exc}"]) from None
    return from_data(data, kind)


def _register_documents() -> None:
    from gaia_rules.information import InformationSet  # noqa: PLC0415
    from gaia_rules.state import GameState  # noqa: PLC0415
    from gaia_rules.views import View  # noqa: PLC0415

    register_document(GameState)
    register_document(View)
    register_document(InformationSet, chars=MAX_RECORD_CHARS)


_register_documents()
hooks.to_data, hooks.to_json = to_data, to_json
hooks.from_data, hooks.from_json = from_data, from_json
