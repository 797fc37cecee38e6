"""A JSON Schema (draft 2020-12) of the wire format, generated from the classes.

Front ends in other languages validate what they send and receive against it, or generate
their types from it. [`json_schema`][gaia_rules.schema.json_schema] walks the attrs classes
and their type annotations and writes one schema with a ``$defs`` entry for every class,
enum and union that crosses the wire, following the rules of
[`gaia_rules.serialization`][gaia_rules.serialization]:

- a square (``Pos``) is the text ``"x,y"``, also as a key of an object;
- a card id is a letter N, C, A, P or O and two digits;
- an enum is its value; a need is a land or ``"animals"``, a site a land or ``"star"``;
- an ``Action``, a ``Decision`` and an ``Event`` are objects tagged ``"type": "<ClassName>"``;
  the schema of such a union reads the tag first and then checks the object against that one
  member (``if``/``then``), so a validator's error names the member and the field at fault;
- every whole number has the bounds the engine gives it: a seat is 0-4, ``players`` 2-5, a
  satisfaction 0-4, a count of tokens on a tile 1-4, and so on (``_INTEGERS``); every list
  with one entry per seat has 2 to 5 entries; and a document's collections are no larger
  than its reader accepts (spec 1.10: 48 squares in a world, 20,300 actions in a record);
- the documents (``GameRecord``, ``View``, ``GameState``, ``Position``) carry ``"format"``
  at their top level only: a position inside a record (its ``start``) is a ``NestedPosition``;
- ``Rules`` and ``Manifest`` have the forms of their own ``to_dict`` methods (written by hand
  here, and checked against ``to_dict`` when the schema is generated);
- no object may carry a key it does not define (the converter forbids extra keys).

A field with a default may be left out (the reader fills it in, and the schema gives the
default); the library itself always writes every field.

The schema ships as ``gaia_rules/schema.json``; regenerate it after changing a class:

    python -m gaia_rules.schema > src/gaia_rules/schema.json
"""

from __future__ import annotations

import enum
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from gaia_rules.actions import Action, PowerPlay
from gaia_rules.decisions import Decision, Step
from gaia_rules.events import Event
from gaia_rules.life import ANIMALS_PER_CARD
from gaia_rules.limits import WHOLE_NUMBERS
from gaia_rules.manifest import BOX_CARDS, MANIFEST_FORMAT, TILE_COUNTS, Edition, Manifest
from gaia_rules.position import Position
from gaia_rules.record import GameRecord
from gaia_rules.rules import MAX_LIGHTNINGS, RULES_FORMAT, Level, Rules
from gaia_rules.satisfaction import FOUR_NEEDS
from gaia_rules.serialization import (
    _DOCUMENTS,
    _OWN_FORMATS,
    WIRE_FORMAT,
    converter,
    document_formats,
)
from gaia_rules.setup import MAX_PLAYERS, MIN_PLAYERS, TOKENS, pawns_per_player
from gaia_rules.state import GameState
from gaia_rules.untrusted import most_entries
from gaia_rules.views import View
from gaia_rules.vocabulary import Land, Need, Pos, Power, Site

__all__ = [
    "CARD_ID_PATTERN",
    "DIALECT",
    "ENTRY_POINTS",
    "SQUARE_PATTERN",
    "json_schema",
    "main",
    "render",
]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SQUARE_PATTERN = r"^(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)$"
"""A square ``"x,y"``, as the converter reads it: no sign on 0, no leading zeros, no spaces."""
CARD_ID_PATTERN = r"^[NCAPO][0-9]{2}$"

ENTRY_POINTS = (
    "Action",
    "Decision",
    "Event",
    "GameRecord",
    "GameState",
    "Manifest",
    "Position",
    "Rules",
    "View",
)
"""The ``$defs`` a payload may be one of (the schema's top-level ``oneOf``)."""

_TAGGED_UNIONS: dict[str, Any] = {
    "Action": Action,
    "Decision": Decision,
    "Event": Event,
    "PowerPlay": PowerPlay,
    "Step": Step,
}
_ENUM_UNIONS: dict[str, Any] = {"Need": Need, "Site": Site}
_ROOTS: tuple[type, ...] = (GameRecord, GameState, Position, View)

_SEAT = (0, MAX_PLAYERS - 1)
_MOST_PAWNS = pawns_per_player(MIN_PLAYERS)

_INTEGERS: dict[str, tuple[int | None, int | None]] = {
    # a seat (spec 1.1); the ints inside ``later``, a city's ``pawns``, ``objective_pawns``,
    # a Tornado's ``stolen`` cards and a Position's ``cities`` are seats too
    **dict.fromkeys(
        (
            "player",
            "seat",
            "active",
            "first_player",
            "to_move",
            "victim",
            "power_player",
            "winner",
            "ended_by",
            "from_player",
            "later",
            "pawns",
            "objective_pawns",
            "stolen",
            "cities",
        ),
        _SEAT,
    ),
    "players": (MIN_PLAYERS, MAX_PLAYERS),  # 1.1
    "number": (1, 2),  # ChooseAction: the turn's first or second action (5.2)
    "turn_action": (0, 2),  # Position: 0 for "the turn begins", else the action (5.2)
    **dict.fromkeys(("satisfaction", "before", "after"), (0, FOUR_NEEDS)),  # needs met (10.1)
    # the tokens on one tile (9.1c, 16.5), placed or returned together
    **dict.fromkeys(("animals", "count"), (1, ANIMALS_PER_CARD)),
    "bank": (0, TOKENS),  # 2.2
    **dict.fromkeys(("supply", "pawns_placed"), (0, _MOST_PAWNS)),  # 2.3
    "total_pawns": (pawns_per_player(MAX_PLAYERS), _MOST_PAWNS),  # 2.3
    "deck_sizes": (0, BOX_CARDS),
    "tile_supply": (0, max(TILE_COUNTS.values())),  # 2.1
    "random_draws": (0, WHOLE_NUMBERS.stop - 1),  # 1.6, 1.10
    "seed": (WHOLE_NUMBERS.start, WHOLE_NUMBERS.stop - 1),  # 1.6, 1.10
}
"""The bounds (minimum, maximum; ``None`` for none) of every whole number in a field of
this name, wherever it stands in the field (a list's items, a map's values). Every field
holding a whole number is listed here: the generator refuses one that is not."""

_PER_SEAT = frozenset({"hands", "tableaux", "hand_backs", "supply", "pawns_placed"})
"""The lists with one entry per seat: 2 to 5 entries (spec 1.1)."""

_DESCRIPTIONS = {
    "Action": 'Any action: an object tagged with "type", the name of its class.',
    "Decision": 'Any decision: an object tagged with "type", the name of its class.',
    "Event": 'Any event: an object tagged with "type", the name of its class.',
    "PowerPlay": 'The play of a Power card: an action tagged with "type".',
    "Step": (
        "A step of the flow: a decision, a turn about to begin (BeginTurn) or a Power effect "
        'waiting for its Protection window (PowerEffect), tagged with "type".'
    ),
    "CardId": "A card's stable id: a letter (N, C, A, P, O) and a two-digit number.",
    "Pos": 'A square of the grid as the text "x,y" (the first tile is at "0,0").',
    "Need": 'A city\'s need: a land, or "animals" (spec 3.5).',
    "Site": 'Where a City or Animal card may go: a land, or "star" (spec 9.1b, 9.2).',
    "Level": "The rule level (spec 1.2), written as its lower-case name.",
}


class _CardId:
    """Stands for ``CardId`` while annotations are resolved: at run time the alias is ``str``,
    which would lose the card-id pattern."""


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


_ROLE = re.compile(r":[a-z]+:`(~?)([^`]+)`")


def _doc(obj: object) -> str | None:
    """An object's own docstring (never one inherited from a base class), cleaned, with its
    reStructuredText roles and literals written as Markdown code (and Python's None as the
    wire's null)."""
    doc = vars(obj).get("__doc__") if hasattr(obj, "__dict__") else None
    if not isinstance(doc, str):
        return None
    text = _ROLE.sub(lambda m: f"``{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}``", doc)
    return inspect.cleandoc(text).replace("``", "`").replace("`None`", "`null`")


def _described(schema: dict[str, Any], description: str | None) -> dict[str, Any]:
    return schema if description is None else {"description": description, **schema}


class _Generator:
    """Builds the ``$defs`` of the schema, one class, enum or union at a time."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}
        self.owners: dict[str, object] = {}
        self.bounded: set[str] = set()
        """The names of the fields whose whole numbers were bounded."""
        self.tags: dict[type, str] = {
            member: name
            for name, union in _TAGGED_UNIONS.items()
            for member in typing.get_args(union)
        }

    # -- $defs ---------------------------------------------------------------------------

    def define(self, name: str, owner: object, build: Callable[[], dict[str, Any]]) -> str:
        """Add the definition ``name`` (built once) and return its name."""
        if name in self.owners:
            if self.owners[name] is not owner:
                raise TypeError(f"two different types are both named {name!r} on the wire")
            return name
        self.owners[name] = owner
        self.defs[name] = {}  # reserved first: a class may refer to itself
        self.defs[name] = build()
        return name

    def enum_def(self, cls: type[enum.Enum]) -> str:
        def build() -> dict[str, Any]:
            values = [member.value for member in cls]
            if not all(isinstance(value, str) for value in values):
                raise TypeError(f"{cls.__name__}: only enums of texts have a wire form here")
            return _described({"type": "string", "enum": values}, _doc(cls))

        return self.define(cls.__name__, cls, build)

    def enum_union_def(self, name: str, union: Any) -> str:
        def build() -> dict[str, Any]:
            values = [member.value for cls in typing.get_args(union) for member in cls]
            return _described({"type": "string", "enum": values}, _DESCRIPTIONS[name])

        return self.define(name, union, build)

    def tagged_union_def(self, name: str, union: Any) -> str:
        """A union of tagged classes: its tag names a member, and the object is then checked
        against that member alone, so that an error names the member and its field (where a
        ``oneOf`` could only say that no member matched)."""

        def build() -> dict[str, Any]:
            tags = [self.class_def(cls) for cls in typing.get_args(union)]
            dispatch = [
                {
                    "if": {"properties": {"type": {"const": tag}}, "required": ["type"]},
                    "then": _ref(tag),
                }
                for tag in tags
            ]
            schema = {
                "type": "object",
                "properties": {"type": {"enum": tags}},
                "required": ["type"],
                "allOf": dispatch,
            }
            return _described(schema, _DESCRIPTIONS[name])

        return self.define(name, union, build)

    def class_def(self, cls: type) -> str:
        return self.define(cls.__name__, cls, lambda: self.object_schema(cls))

    def nested_document_def(self, cls: type) -> str:
        """A document inside another (a record's ``start`` position): only the top level of
        a document carries ``format``, so this one has the document's fields alone."""

        def build() -> dict[str, Any]:
            schema = self.object_schema(cls, nested=True)
            description = (
                f"A {cls.__name__} inside another document: its fields without `format`, "
                "which only the outer document carries."
            )
            return {**schema, "description": description}

        return self.define(f"Nested{cls.__name__}", cls, build)

    def object_schema(self, cls: type, *, nested: bool = False) -> dict[str, Any]:
        """An attrs class as an object: its fields, its ``type`` tag if it is a member of a
        tagged union, and ``format`` if it is a document (and not ``nested`` in another)."""
        hints = typing.get_type_hints(cls, localns={"CardId": _CardId})
        properties: dict[str, Any] = {}
        required: list[str] = []
        tag = self.tags.get(cls)
        if tag is not None:
            properties["type"] = {"const": cls.__name__}
            required.append("type")
        own_format = cls in _OWN_FORMATS
        if issubclass(cls, tuple(_DOCUMENTS)) and not nested:
            formats = sorted(document_formats(cls))
            properties["format"] = {"const": formats[0]} if len(formats) == 1 else {"enum": formats}
            required.append("format")
        for field in attrs.fields(cls):
            where = f"{cls.__name__}.{field.name}"
            if own_format and field.name == "format":
                continue  # the document's "format", above
            if not field.init or field.name.startswith("_"):
                raise TypeError(f"{where}: no wire form for this field")
            schema, bounded = _bounded(self.schema_of(hints[field.name], where), field.name, where)
            if bounded:
                self.bounded.add(field.name)
            if field.name in _PER_SEAT:
                schema = {**schema, "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS}
            if field.default is attrs.NOTHING:
                required.append(field.name)
            elif not isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
                schema = {**schema, "default": converter.unstructure(field.default)}
            properties[field.name] = schema
        return _described(
            {
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            },
            _doc(cls),
        )

    # -- types ---------------------------------------------------------------------------

    def schema_of(self, hint: Any, where: str) -> dict[str, Any]:
        """The schema of a value annotated ``hint`` (``where`` names it in errors)."""
        if hint is _CardId:
            return _ref(self.define("CardId", _CardId, _card_id_schema))
        if hint is Pos:
            return _ref(self.define("Pos", Pos, _pos_schema))
        if hint is Rules:
            return _ref(self.define("Rules", Rules, self.rules_schema))
        if hint is Manifest:
            return _ref(self.define("Manifest", Manifest, self.manifest_schema))
        if hint is None or hint is type(None):
            return {"type": "null"}
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return {"type": "integer"}
        if hint is str:
            return {"type": "string"}
        if _is_enum(hint):
            return _ref(self.enum_def(hint))
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            return self.union_schema(args, where)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:  # with the reader's limit (1.10)
                items = self.schema_of(args[0], where)
                return {"type": "array", "items": items, "maxItems": most_entries(args[0])}
            return {
                "type": "array",
                "prefixItems": [self.schema_of(arg, where) for arg in args],
                "items": False,
                "minItems": len(args),
            }
        if origin in (dict, Mapping):
            key, value = args
            schema: dict[str, Any] = {"type": "object"}
            if key is not str:
                if not (key in (_CardId, Pos) or _is_enum(key)):
                    raise TypeError(f"{where}: no wire form for keys of type {key!r}")
                schema["propertyNames"] = self.schema_of(key, where)
            schema["additionalProperties"] = self.schema_of(value, where)
            schema["maxProperties"] = most_entries(key)  # the reader's limit (1.10)
            return schema
        if attrs.has(hint):
            if hint in self.tags:
                raise TypeError(
                    f"{where}: {hint.__name__} outside its union {self.tags[hint]} has no tag"
                )
            if issubclass(hint, tuple(_DOCUMENTS)):
                return _ref(self.nested_document_def(hint))
            return _ref(self.class_def(hint))
        raise TypeError(f"{where}: no wire form for {hint!r}")

    def union_schema(self, args: tuple[Any, ...], where: str) -> dict[str, Any]:
        """``X | None`` (``X`` a type or one of the named unions) as ``anyOf``."""
        present = tuple(arg for arg in args if arg is not type(None))
        inner: dict[str, Any] | None = None
        for name, union in _TAGGED_UNIONS.items():
            if set(present) == set(typing.get_args(union)):
                inner = _ref(self.tagged_union_def(name, union))
        for name, union in _ENUM_UNIONS.items():
            if set(present) == set(typing.get_args(union)):
                inner = _ref(self.enum_union_def(name, union))
        if inner is None:
            if len(present) != 1:
                raise TypeError(f"{where}: no wire form for the union of {present!r}")
            inner = self.schema_of(present[0], where)
        if len(present) == len(args):
            return inner
        return {"anyOf": [inner, {"type": "null"}]}

    # -- Rules and Manifest: the forms of their own to_dict ------------------------------

    def rules_schema(self) -> dict[str, Any]:
        level = self.define("Level", "Rules.level", _level_schema)  # not Level's values
        properties: dict[str, Any] = {
            "format": {"const": RULES_FORMAT},
            "level": _ref(level),
            "edition": _ref(self.enum_def(Edition)),
            "feeding": _ref(self.enum_def(_enum_of(Rules, "feeding"))),
            "star_animals_on_sea": {"type": "boolean"},
            "objectives": _ref(self.enum_def(_enum_of(Rules, "objectives"))),
            "four_need_drop": _ref(self.enum_def(_enum_of(Rules, "four_need_drop"))),
            "lightnings": {"type": "integer", "minimum": 0, "maximum": MAX_LIGHTNINGS},
            "eruption_on_city": {"type": "boolean"},
            "manifest": {"anyOf": [_ref("Manifest"), {"type": "null"}]},
        }
        self.define("Manifest", Manifest, self.manifest_schema)
        defaults = Rules().to_dict()
        if set(properties) != set(defaults):
            raise TypeError(
                f"the Rules schema has {sorted(properties)}, Rules.to_dict() {sorted(defaults)}"
            )
        for name, default in defaults.items():
            if name != "format":
                properties[name] = {**properties[name], "default": default}
        return _described(
            {
                "type": "object",
                "properties": properties,
                "required": ["format"],
                "additionalProperties": False,
            },
            _doc(Rules),
        )

    def manifest_schema(self) -> dict[str, Any]:
        land, need = _ref(self.enum_def(Land)), _ref(self.enum_union_def("Need", Need))
        site, power = _ref(self.enum_union_def("Site", Site)), _ref(self.enum_def(Power))
        faces: dict[str, tuple[str, str, dict[str, Any]]] = {
            "NatureCardEntry": ("N", "A Nature card: its land.", {"nature": land}),
            "CityCardEntry": (
                "C",
                "A City card: its name, site and four distinct needs.",
                {
                    "city": {"type": "string", "minLength": 1},
                    "site": site,
                    "needs": {
                        "type": "array",
                        "items": need,
                        "minItems": 4,
                        "maxItems": 4,
                        "uniqueItems": True,
                    },
                },
            ),
            "AnimalCardEntry": ("A", "An Animal card: its site.", {"animals": site}),
            "PowerCardEntry": ("P", "A Power card: its Power.", {"power": power}),
            "NatureObjectiveEntry": (
                "O",
                "A Nature Objective: the lands it pictures.",
                {"objective": {"type": "array", "items": land}},
            ),
            "PowerObjectiveEntry": (
                "O",
                "A Power Objective: how many Power cards it asks for.",
                {"objective_powers": {"type": "integer"}},
            ),
        }
        entries = []
        for name, (letter, description, fields) in faces.items():
            properties = {"id": {"type": "string", "pattern": f"^{letter}[0-9]{{2}}$"}, **fields}
            schema = {
                "description": description,
                "type": "object",
                "properties": properties,
                "required": list(properties),
                "additionalProperties": False,
            }
            entries.append(_ref(self.define(name, name, _given(schema))))
        card = self.define(
            "ManifestCard",
            "ManifestCard",
            lambda: {"description": "One card of a manifest: its id and face.", "oneOf": entries},
        )
        return _described(
            {
                "type": "object",
                "properties": {
                    "format": {"const": MANIFEST_FORMAT},
                    "edition": _ref(self.enum_def(Edition)),
                    "reconstructed": {"type": "array", "items": {"type": "string"}, "default": []},
                    "note": {
                        "type": "string",
                        "description": "Free text for people; read and ignored.",
                    },
                    "cards": {"type": "array", "items": _ref(card), "maxItems": BOX_CARDS},
                },
                "required": ["format", "edition", "cards"],
                "additionalProperties": False,
            },
            _doc(Manifest),
        )


def _bounded(schema: dict[str, Any], name: str, where: str) -> tuple[dict[str, Any], bool]:
    """``schema`` of the field ``name`` with the bounds ``_INTEGERS`` gives each of its whole
    numbers (the field's own schema only: a ``$ref`` is bounded where it is defined), and
    whether it holds any."""
    found = False

    def bound(node: Any) -> Any:
        nonlocal found
        if isinstance(node, list):
            return [bound(each) for each in node]
        if not isinstance(node, dict):
            return node
        if node.get("type") != "integer":
            return {key: bound(value) for key, value in node.items()}
        found = True
        if name not in _INTEGERS:
            raise TypeError(f"{where}: a whole number without bounds: add it to _INTEGERS")
        minimum, maximum = _INTEGERS[name]
        limits = {"minimum": minimum, "maximum": maximum}
        return {**node, **{key: value for key, value in limits.items() if value is not None}}

    bounded = bound(schema)
    return typing.cast(dict[str, Any], bounded), found


def _given(schema: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    return lambda: schema


def _is_enum(hint: Any) -> typing.TypeGuard[type[enum.Enum]]:
    return isinstance(hint, type) and issubclass(hint, enum.Enum)


def _enum_of(cls: type, name: str) -> type[enum.Enum]:
    hint = typing.get_type_hints(cls)[name]
    if not _is_enum(hint):
        raise TypeError(f"{cls.__name__}.{name} is not an enum")
    return hint


def _card_id_schema() -> dict[str, Any]:
    return {"description": _DESCRIPTIONS["CardId"], "type": "string", "pattern": CARD_ID_PATTERN}


def _pos_schema() -> dict[str, Any]:
    return {"description": _DESCRIPTIONS["Pos"], "type": "string", "pattern": SQUARE_PATTERN}


def _level_schema() -> dict[str, Any]:
    names = [level.name.lower() for level in Level]
    return {"description": _DESCRIPTIONS["Level"], "type": "string", "enum": names}


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the wire format, as a new dict each call."""
    generator = _Generator()
    for name, union in _TAGGED_UNIONS.items():
        generator.tagged_union_def(name, union)
    for cls in _ROOTS:
        generator.class_def(cls)
    generator.schema_of(Rules, "Rules")
    generator.schema_of(Manifest, "Manifest")
    missing = [name for name in ENTRY_POINTS if name not in generator.defs]
    if missing:  # pragma: no cover - a guard on this module's own lists
        raise TypeError(f"entry points without a definition: {missing}")
    unused = sorted(set(_INTEGERS) - generator.bounded)
    if unused:  # pragma: no cover - a guard on this module's own lists
        raise TypeError(f"_INTEGERS names fields without whole numbers: {unused}")
    return {
        "$schema": DIALECT,
        "title": f"gaia-rules wire format {WIRE_FORMAT}",
        "description": (
            "The JSON of gaia-rules (gaia_rules.serialization): actions, decisions and events "
            'tagged with "type"; records, views, states and positions carrying "format"; '
            "rules and card manifests. A payload is one of the entry points of the top-level "
            '"oneOf"; validate a known kind against "#/$defs/<Kind>".'
        ),
        "oneOf": [_ref(name) for name in ENTRY_POINTS],
        "$defs": dict(sorted(generator.defs.items())),
    }


def render(schema: dict[str, Any] | None = None) -> str:
    """The schema as the text of ``schema.json``: sorted keys, indent 2, ASCII, final newline."""
    schema = json_schema() if schema is None else schema
    return json.dumps(schema, sort_keys=True, indent=2, ensure_ascii=True) + "\n"


def main() -> None:
    """Print the schema (``python -m gaia_rules.schema > src/gaia_rules/schema.json``)."""
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
