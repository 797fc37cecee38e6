"""The JSON Schema of the wire format (API.md): shipped up to date, and true of every payload.

The schema is checked by a small validator written here for the subset of JSON Schema
(draft 2020-12) that :mod:`gaia_rules.schema` emits, so that no third-party library is
needed; a test makes sure the generator emits no keyword this validator would ignore.
"""

from __future__ import annotations

import copy
import json
import random
import re
import typing
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.events import StolenCardsSeen
from gaia_rules.position import Position
from gaia_rules.schema import json_schema, render
from gaia_rules.serialization import JsonError, from_data, to_data

SCHEMA = json_schema()
REGENERATE = "python -m gaia_rules.schema > src/gaia_rules/schema.json"

# -- a validator for the subset the generator emits ----------------------------------------

ANNOTATIONS = frozenset({"$schema", "$defs", "title", "description", "default"})
ASSERTIONS = frozenset(
    {
        "$ref",
        "type",
        "enum",
        "const",
        "pattern",
        "minLength",
        "minimum",
        "maximum",
        "required",
        "properties",
        "additionalProperties",
        "propertyNames",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "uniqueItems",
        "anyOf",
        "oneOf",
    }
)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TYPES: dict[str, Callable[[Any], bool]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    # As the standard says: 1.0 is an integer (the library's reader is stricter than that).
    "integer": lambda v: _number(v) and float(v).is_integer(),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: ``true`` is not ``1``, ``1.0`` is ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if _number(a) and _number(b):
        return bool(a == b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


_RESOLVED: dict[str, Any] = {}
"""The targets of the references of :data:`SCHEMA`."""
_PATTERNS: dict[str, re.Pattern[str]] = {}


def _resolve(root: dict[str, Any], ref: str) -> Any:
    if root is not SCHEMA:
        return _pointer(root, ref)
    if ref not in _RESOLVED:
        _RESOLVED[ref] = _pointer(root, ref)
    return _RESOLVED[ref]


def _pointer(root: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#"), f"only local references are emitted, got {ref}"
    target: Any = root
    for part in ref[1:].split("/")[1:]:
        key = part.replace("~1", "/").replace("~0", "~")
        target = target[int(key)] if isinstance(target, list) else target[key]
    return target


def _matches(pattern: str, text: str) -> bool:
    # ECMA-262's $ is the end of the text; Python's also matches before a final newline.
    if pattern not in _PATTERNS:
        _PATTERNS[pattern] = re.compile(pattern.replace("$", r"\Z"))
    return _PATTERNS[pattern].search(text) is not None


def errors(value: Any, schema: Any, root: dict[str, Any], path: str = "$") -> Iterator[str]:
    """Every way ``value`` breaks ``schema`` (lazily: the first one comes first)."""
    if schema is True:
        return
    if schema is False:
        yield f"{path}: nothing is allowed here"
        return
    if "$ref" in schema:
        yield from errors(value, _resolve(root, schema["$ref"]), root, path)
    if "type" in schema and not _TYPES[schema["type"]](value):
        yield f"{path}: expected {schema['type']}, got {value!r}"
        return
    if "const" in schema and not _equal(value, schema["const"]):
        yield f"{path}: expected {schema['const']!r}, got {value!r}"
    if "enum" in schema and not any(_equal(value, v) for v in schema["enum"]):
        yield f"{path}: expected one of {schema['enum']}, got {value!r}"
    if isinstance(value, str):
        if "pattern" in schema and not _matches(schema["pattern"], value):
            yield f"{path}: {value!r} does not match {schema['pattern']}"
        if len(value) < schema.get("minLength", 0):
            yield f"{path}: {value!r} is too short"
    if _number(value):
        if "minimum" in schema and value < schema["minimum"]:
            yield f"{path}: {value} is below {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            yield f"{path}: {value} is above {schema['maximum']}"
    if isinstance(value, dict):
        yield from _object_errors(value, schema, root, path)
    if isinstance(value, list):
        yield from _array_errors(value, schema, root, path)
    if "anyOf" in schema and not any(valid(value, s, root) for s in schema["anyOf"]):
        yield f"{path}: matches none of {schema['anyOf']}"
    if "oneOf" in schema:
        matched = 0
        for branch in schema["oneOf"]:
            matched += valid(value, branch, root)
            if matched > 1:
                break
        if matched != 1:
            yield f"{path}: matches {matched} of {len(schema['oneOf'])} branches of oneOf"


def _object_errors(
    value: dict[str, Any], schema: Any, root: dict[str, Any], path: str
) -> Iterator[str]:
    for key in schema.get("required", ()):
        if key not in value:
            yield f"{path}: missing {key!r}"
    if "propertyNames" in schema:
        for key in value:
            yield from errors(key, schema["propertyNames"], root, f"{path}.{key} (key)")
    properties = schema.get("properties", {})
    for key, sub in properties.items():  # in the schema's order: a tag's const comes first
        if key in value:
            yield from errors(value[key], sub, root, f"{path}.{key}")
    if "additionalProperties" in schema:
        for key, item in value.items():
            if key not in properties:
                yield from errors(item, schema["additionalProperties"], root, f"{path}.{key}")


def _array_errors(value: list[Any], schema: Any, root: dict[str, Any], path: str) -> Iterator[str]:
    prefix = schema.get("prefixItems", [])
    for index, item in enumerate(value):
        if index < len(prefix):
            yield from errors(item, prefix[index], root, f"{path}[{index}]")
        elif "items" in schema:
            yield from errors(item, schema["items"], root, f"{path}[{index}]")
    if len(value) < schema.get("minItems", 0):
        yield f"{path}: fewer than {schema['minItems']} items"
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        yield f"{path}: more than {schema['maxItems']} items"
    if schema.get("uniqueItems"):
        for i, first in enumerate(value):
            if any(_equal(first, second) for second in value[i + 1 :]):
                yield f"{path}: {first!r} appears twice"


def valid(value: Any, schema: Any, root: dict[str, Any] = SCHEMA) -> bool:
    return next(errors(value, schema, root), None) is None


def wire(value: object) -> Any:
    """What a front end receives: the value's JSON, read back."""
    return json.loads(json.dumps(to_data(value)))


DOCUMENTS = frozenset({"GameRecord", "GameState", "Manifest", "Position", "Rules", "View"})


def check(kind: str, data: Any, *, entry: bool = False) -> None:
    """``data`` validates as the ``$defs`` entry ``kind``; with ``entry`` (or for a
    document), it also validates against the whole schema: it is exactly one entry point.
    (Actions, events and decisions are told apart by their disjoint tags, checked once.)"""
    found = list(errors(data, {"$ref": f"#/$defs/{kind}"}, SCHEMA))
    assert not found, f"{kind} does not validate: {found[:5]}\n{json.dumps(data)[:2000]}"
    if entry or kind in DOCUMENTS:
        assert valid(data, SCHEMA), f"{kind} is not exactly one entry point: {data}"


class Checker:
    """Checks the values of a game as they come: each distinct action, event and decision
    once (they are small frozen values that recur), every document each time."""

    def __init__(self) -> None:
        self.seen: set[object] = set()
        self.count = 0

    def __call__(self, kind: str, value: object) -> None:
        if kind not in DOCUMENTS:
            if value in self.seen:
                return
            self.seen.add(value)
        self.count += 1
        check(kind, wire(value), entry=self.count % 10 == 1)


def _keywords(schema: Any, where: str = "#") -> Iterator[tuple[str, str]]:
    if isinstance(schema, bool):
        return
    assert isinstance(schema, dict), f"{where}: a schema is an object or a boolean"
    for key, sub in schema.items():
        yield key, where
        if key in ("$defs", "properties"):
            for name, each in sub.items():
                yield from _keywords(each, f"{where}/{key}/{name}")
        elif key in ("prefixItems", "anyOf", "oneOf"):
            for index, each in enumerate(sub):
                yield from _keywords(each, f"{where}/{key}/{index}")
        elif key in ("items", "additionalProperties", "propertyNames"):
            yield from _keywords(sub, f"{where}/{key}")


# -- the shipped schema ------------------------------------------------------------------


@pytest.mark.clause("1.5")
def test_the_shipped_schema_is_the_generated_one() -> None:
    shipped = resources.files("gaia_rules").joinpath("schema.json").read_text(encoding="utf-8")
    assert shipped == render(SCHEMA), (
        f"src/gaia_rules/schema.json is out of date with the classes: run `{REGENERATE}`"
    )


@pytest.mark.clause("1.5")
def test_the_schema_is_well_formed() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    defs = SCHEMA["$defs"]
    for name in ("Action", "Event", "Decision", "View", "GameState", "GameRecord", "Position"):
        assert name in defs
    assert {"Rules", "Manifest", "Pos", "CardId", "Need", "Site"} <= set(defs)
    unknown = {(k, w) for k, w in _keywords(SCHEMA) if k not in ANNOTATIONS | ASSERTIONS}
    assert not unknown, f"keywords this test's validator does not know: {sorted(unknown)}"
    for key, where in _keywords(SCHEMA):
        if key == "properties":
            node = _resolve(SCHEMA, where)
            assert node["additionalProperties"] is False, f"{where} allows extra keys"
        if key == "$ref":
            _resolve(SCHEMA, _resolve(SCHEMA, where)["$ref"])  # every reference resolves
    unions = {"Action": gr.Action, "Decision": gr.Decision, "Event": gr.Event}
    for name, union in unions.items():
        members = [defs[m["$ref"].rsplit("/", 1)[-1]] for m in defs[name]["oneOf"]]
        tags = [m["properties"]["type"]["const"] for m in members]
        assert tags == [cls.__name__ for cls in typing.get_args(union)]
        assert all(m["required"][0] == "type" for m in members)
    tags = [cls.__name__ for union in unions.values() for cls in typing.get_args(union)]
    assert len(tags) == len(set(tags)), "two tagged classes share a tag"


# -- every payload of random games validates ----------------------------------------------

PRESETS: dict[str, Callable[[], gr.Rules]] = {
    "basic": gr.Rules.basic,
    "advanced": gr.Rules.advanced,
    "powers": gr.Rules.powers,
    "disasters": gr.Rules.disasters,
}


def _check_moment(game: gr.Game, step: int, check_value: Checker) -> None:
    decision = game.decision
    if decision is not None:
        check_value("Decision", decision)
    # Views and states are large: every seat's at a sample of moments, and whenever a
    # Tornado is under way (when a view's ``stolen`` holds cards, some of them hidden).
    tornado = isinstance(decision, gr.ChooseBack | gr.ChooseKeptCard | gr.ChooseProtection)
    if step % 10 == 0 or tornado or game.is_over:
        for seat in range(game.players):
            check_value("View", game.view(seat))
        check_value("GameState", game.state)
    if isinstance(decision, gr.ChooseAction) and step % 10 == 0:
        check_value("Position", Position.from_game(game))


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("level", list(PRESETS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_every_payload_of_a_random_game_validates(level: str, players: int, seed: int) -> None:
    """Every legal action, every event of the full log and of each seat's log, every
    decision, views and states along the way, positions and the record, validate."""
    check_value = Checker()
    game = gr.new_game(players, rules=PRESETS[level](), seed=seed)
    rng = random.Random(seed)
    step = 0
    _check_moment(game, step, check_value)
    while not game.is_over:
        legal = game.legal_actions()
        for action in legal:
            check_value("Action", action)
        game.apply(rng.choice(legal))
        step += 1
        _check_moment(game, step, check_value)
    for event in game.events:
        check_value("Event", event)
    for seat in range(players):
        for event in game.events_for(seat):
            check_value("Event", event)
    check_value("GameRecord", game.record())


@pytest.mark.clause("1.5")
def test_redacted_and_rare_values_validate() -> None:
    """Every field a seat's log may blank out validates as null; and the values random
    games at the presets seldom reach (optional Objectives, scarce last pawns) validate."""
    values: list[tuple[str, object]] = [
        ("Event", gr.CardDrawn(player=1, kind=gr.CardKind.NATURE, card=None, from_display=False)),
        ("Event", gr.CardStolen(player=0, victim=1, kind=gr.CardKind.LIFE, card=None)),
        ("Event", StolenCardsSeen(player=0, cards=None)),
        ("Event", gr.CardKept(player=0, from_player=1, card=None)),
        ("Event", gr.ActionTaken(player=0, action=None)),
        ("Event", gr.ActionTaken(player=2, action=gr.KeepCard(2, "P07"), by_engine=True)),
        ("Action", gr.DeclineObjectives(player=1)),
        ("Action", gr.PlaceCityPawn(player=1, city=gr.Pos(-12, 0))),
        ("Decision", gr.ChoosePawnCities(player=1, cities=(gr.Pos(0, 0), gr.Pos(-1, 10)))),
    ]
    for kind, value in values:
        check(kind, wire(value), entry=True)


@pytest.mark.clause("1.5")
def test_rules_and_manifests_validate() -> None:
    first = gr.Manifest.builtin(gr.Edition.FIRST)
    rules = [
        *(preset() for preset in PRESETS.values()),
        gr.Rules.advanced(four_need_drop=gr.FourNeedDrop.EMPTY_AT_TWO, feeding="every_city"),
        gr.Rules.disasters(lightnings=0, eruption_on_city=False, objectives="optional"),
        gr.Rules.basic(edition=gr.Edition.FIRST, manifest=first, star_animals_on_sea=False),
    ]
    for each in rules:
        check("Rules", wire(each))
    for edition in gr.Edition:
        check("Manifest", wire(gr.Manifest.builtin(edition)))
        shipped = resources.files("gaia_rules.manifests").joinpath(f"{edition.value}.json")
        check("Manifest", json.loads(shipped.read_text(encoding="utf-8")))
    game = gr.new_game(2, rules=rules[-1], seed=3)
    check("GameRecord", wire(game.record()))


# -- what is not the wire format does not validate -----------------------------------------


def _base() -> dict[str, Any]:
    """Valid payloads to spoil, one per kind."""
    game = gr.new_game(2, rules=gr.Rules.powers(), seed=11)
    rng = random.Random(11)
    while not game.state.cities and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    while not isinstance(game.decision, gr.ChooseAction):
        game.apply(rng.choice(game.legal_actions()))
    return {
        "Action": wire(gr.PlayNature(player=0, card="N07", pos=gr.Pos(1, -2))),
        "Event": wire(gr.CardDrawn(0, gr.CardKind.LIFE, "C03", from_display=True)),
        "View": wire(game.view(0)),
        "GameRecord": wire(game.record()),
        "Position": wire(Position.from_game(game)),
    }


def _spoiled(base: dict[str, Any]) -> list[tuple[str, str, Any, bool]]:
    """(what, kind, payload, whether the library's reader refuses it too) for each spoilt
    payload. The schema is the canonical form: where the reader is more lenient (any case for
    the names of the rules' switches) or leaves a check to the engine (whether a card id names
    a card), only the schema is asked."""
    view = base["View"]
    city = next(iter(view["cities"]))
    tile = next(iter(view["tiles"]))
    out: list[tuple[str, str, Any, bool]] = []

    def spoil(what: str, kind: str, change: Callable[[Any], None], *, refused: bool = True) -> None:
        payload = copy.deepcopy(base[kind])
        change(payload)
        out.append((what, kind, payload, refused))

    spoil("an extra key on an action", "Action", lambda a: a.update(extra=1))
    spoil("an extra key on a view", "View", lambda v: v.update(extra=1))
    spoil("an extra key in a city", "View", lambda v: v["cities"][city].update(extra=1))
    spoil("an extra key in the rules", "View", lambda v: v["rules"].update(extra=1))
    spoil(
        "an extra key in a manifest card",
        "GameRecord",
        lambda r: r["manifest"]["cards"][0].update(extra=1),
    )
    for square in ("1,01", "01,1", "-0,0", "1, 1", "1,1\n", "1;1", "1,", "(1,1)"):
        spoil(f"the square {square!r}", "Action", _square_at(square))
        spoil(f"the square {square!r} as a key", "View", _square_key(square, tile))
    spoil("a wrong type tag", "Action", lambda a: a.update(type="PlayNatures"))
    spoil("an event's tag on an action", "Action", lambda a: a.update(type="CardDrawn"))
    spoil("an action's tag on an event", "Event", lambda e: e.update(type="PlayNature"))
    spoil("no type tag", "Action", lambda a: a.pop("type"))
    spoil("a string seat", "Action", lambda a: a.update(player="0"))
    spoil("a boolean seat", "Action", lambda a: a.update(player=False))
    spoil("a fractional seat", "Action", lambda a: a.update(player=0.5))
    spoil("a string seat in a view", "View", lambda v: v.update(seat="0"))
    spoil("a string pawn in a city", "View", lambda v: v["cities"][city]["pawns"].append("1"))
    spoil("a bad card id", "Action", lambda a: a.update(card="N7"), refused=False)
    spoil(
        "a bad card id as a key",
        "View",
        lambda v: v["objective_pawns"].update(X01=0),
        refused=False,
    )
    spoil("a bad land", "View", lambda v: v["tiles"].update({tile: "lava"}))
    spoil("a bad kind as a key", "View", lambda v: v["deck_sizes"].update(blue=1))
    spoil("a card drawn as a number", "Event", lambda e: e.update(card=7))
    spoil("a missing field", "Event", lambda e: e.pop("from_display"))
    spoil("no format", "View", lambda v: v.pop("format"))
    spoil("format 2", "GameRecord", lambda r: r.update(format=2))
    spoil("format true", "Position", lambda p: p.update(format=True), refused=False)
    spoil("a stolen card without its seat", "View", lambda v: v.update(stolen=[["life", None]]))
    spoil("a city of three parts", "Position", lambda p: p["cities"][city].append(0))
    spoil("eleven lightnings", "View", lambda v: v["rules"].update(lightnings=11))
    spoil("a level as a number", "GameRecord", lambda r: r["rules"].update(level=3))
    spoil("a city with a repeated need", "GameRecord", _repeat_need)
    spoil(
        "a level in capitals",
        "GameRecord",
        lambda r: r["rules"].update(level="BASIC"),
        refused=False,
    )
    return out


def _square_at(square: str) -> Callable[[Any], None]:
    def change(action: Any) -> None:
        action["pos"] = square

    return change


def _square_key(square: str, tile: str) -> Callable[[Any], None]:
    def change(view: Any) -> None:
        view["tiles"][square] = view["tiles"].pop(tile)

    return change


def _repeat_need(record: Any) -> None:
    city = next(c for c in record["manifest"]["cards"] if "city" in c)
    city["needs"][1] = city["needs"][0]


@pytest.mark.clause("1.7")
def test_what_is_not_the_wire_format_does_not_validate() -> None:
    base = _base()
    for kind, payload in base.items():
        check(kind, payload, entry=True)
    kinds = {"Action": gr.Action, "Event": gr.Event, "View": gr.View}
    kinds |= {"GameRecord": gr.GameRecord, "Position": Position}
    for what, kind, payload, refused in _spoiled(base):
        assert not valid(payload, {"$ref": f"#/$defs/{kind}"}), f"{what} validates as {kind}"
        assert not valid(payload, SCHEMA), f"{what} validates as some entry point"
        if refused:
            with pytest.raises(JsonError):
                from_data(payload, kinds[kind])
