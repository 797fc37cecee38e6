"""The JSON Schema of the wire format (API.md): shipped up to date, and true of every payload.

The payloads are validated by the ``jsonschema`` package (draft 2020-12), as a front end
would validate them; its errors must name the member of a union and the field at fault.
One keyword is read as the standard says rather than as ``jsonschema`` does: a ``pattern``
is an ECMA-262 regular expression, whose ``$`` is the end of the text, where Python's also
matches before a final newline (so ``"1,1\\n"`` would pass for a square).
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
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import best_match

import gaia_rules as gr
from gaia_rules.events import StolenCardsSeen
from gaia_rules.limits import BOX_TILES, MAX_RECORD_ACTIONS
from gaia_rules.position import Position
from gaia_rules.schema import json_schema, render
from gaia_rules.serialization import JsonError, from_data, to_data

SCHEMA = json_schema()
REGENERATE = "python -m gaia_rules.schema > src/gaia_rules/schema.json"
DEFS: dict[str, Any] = SCHEMA["$defs"]


def _ecma_pattern(
    validator: Any, pattern: str, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """The ``pattern`` keyword with ECMA-262's ``$``: the end of the text, nothing else."""
    if validator.is_type(instance, "string") and not re.search(
        pattern.replace("$", r"\Z"), instance
    ):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


Validator: Any = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"pattern": _ecma_pattern}
)
WHOLE = Validator(SCHEMA)
"""Validates a payload of any kind: one of the entry points of the top-level ``oneOf``."""

_VALIDATORS: dict[str, Any] = {}


def validator(kind: str) -> Any:
    """A validator of the ``$defs`` entry ``kind`` alone."""
    if kind not in _VALIDATORS:
        schema = {"$schema": SCHEMA["$schema"], "$defs": DEFS, "$ref": f"#/$defs/{kind}"}
        _VALIDATORS[kind] = Validator(schema)
    return _VALIDATORS[kind]


def first_error(kind: str, data: Any) -> ValidationError | None:
    """The error ``jsonschema`` puts first (``best_match``), or ``None`` if ``data`` is a
    valid ``kind``."""
    error: ValidationError | None = best_match(validator(kind).iter_errors(data))
    return error


def trail(error: ValidationError, kind: str | None = None) -> list[str]:
    """The ``$defs`` entries the error's schema path goes through, from the root (of the
    whole schema, or of ``kind``) to the keyword that failed: ``jsonschema`` leaves each
    ``$ref`` out of the path, so each one is followed here."""
    node: Any = SCHEMA if kind is None else {"$ref": f"#/$defs/{kind}"}
    entered: list[str] = []
    for key in error.absolute_schema_path:
        while isinstance(node, dict) and "$ref" in node and key not in node:
            entered.append(node["$ref"].removeprefix("#/$defs/"))
            node = DEFS[entered[-1]]
        node = node[key]
    return entered


def member_of(error: ValidationError, kind: str) -> str:
    """The ``$defs`` entry whose keyword the error breaks."""
    return trail(error, kind)[-1]


def where(error: ValidationError) -> str:
    """The error's place in the payload, as ``actions/3/pos``."""
    return "/".join(str(part) for part in error.absolute_path)


def wire(value: object) -> Any:
    """What a front end receives: the value's JSON, read back."""
    return json.loads(json.dumps(to_data(value)))


DOCUMENTS = frozenset({"GameRecord", "GameState", "Manifest", "Position", "Rules", "View"})


def check(kind: str, data: Any, *, entry: bool = False) -> None:
    """``data`` validates as the ``$defs`` entry ``kind``; with ``entry``, it also validates
    against the whole schema: it is exactly one entry point."""
    error = first_error(kind, data)
    assert error is None, (
        f"{kind} does not validate: {where(error)} in {member_of(error, kind)}: "
        f"{error.message}\n"
        f"{json.dumps(data)[:2000]}"
    )
    if entry:
        assert WHOLE.is_valid(data), f"{kind} is not exactly one entry point: {data}"


class Checker:
    """Checks the values of a game as they come: each distinct action, event and decision
    once (they are small frozen values that recur), every document each time."""

    def __init__(self) -> None:
        self.seen: set[object] = set()
        self.count = 0
        self.decisions: set[type] = set()
        """The kinds of decision at which the documents were checked."""

    def first_at(self, decision: object) -> bool:
        """Whether this is the first moment of the game at a decision of this kind."""
        kind = type(decision)
        if kind in self.decisions:
            return False
        self.decisions.add(kind)
        return True

    def __call__(self, kind: str, value: object) -> None:
        if kind not in DOCUMENTS:
            if value in self.seen:
                return
            self.seen.add(value)
        self.count += 1
        check(kind, wire(value), entry=self.count % 10 == 1)


_SCHEMA_MAPS = ("$defs", "properties")
_SCHEMA_LISTS = ("prefixItems", "anyOf", "oneOf", "allOf")
_SCHEMAS = ("items", "additionalProperties", "propertyNames", "if", "then", "else", "not")


def subschemas(schema: Any, at: str = "#") -> Iterator[tuple[Any, str]]:
    """Every schema inside ``schema``, itself first, with its JSON pointer."""
    yield schema, at
    if not isinstance(schema, dict):
        return
    for key in _SCHEMA_MAPS:
        for name, each in schema.get(key, {}).items():
            yield from subschemas(each, f"{at}/{key}/{name}")
    for key in _SCHEMA_LISTS:
        for index, each in enumerate(schema.get(key, ())):
            yield from subschemas(each, f"{at}/{key}/{index}")
    for key in _SCHEMAS:
        if key in schema:
            yield from subschemas(schema[key], f"{at}/{key}")


# -- the shipped schema ------------------------------------------------------------------


@pytest.mark.clause("1.5")
def test_the_shipped_schema_is_the_generated_one() -> None:
    shipped = resources.files("gaia_rules").joinpath("schema.json").read_text(encoding="utf-8")
    assert shipped == render(SCHEMA), (
        f"src/gaia_rules/schema.json is out of date with the classes: run `{REGENERATE}`"
    )


UNIONS: dict[str, Any] = {
    "Action": gr.Action,
    "Decision": gr.Decision,
    "Event": gr.Event,
    "PowerPlay": gr.PowerPlay,
    "Step": gr.Step,
}


@pytest.mark.clause("1.5")
def test_the_schema_is_well_formed() -> None:
    Draft202012Validator.check_schema(SCHEMA)  # against the draft's own meta-schema
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for name in ("Action", "Event", "Decision", "View", "GameState", "GameRecord", "Position"):
        assert name in DEFS
    assert {"Rules", "Manifest", "Pos", "CardId", "Need", "Site"} <= set(DEFS)
    for node, at in subschemas(SCHEMA):
        if not isinstance(node, dict):
            continue
        if "$ref" in node:
            assert node["$ref"].removeprefix("#/$defs/") in DEFS, f"{at}: {node['$ref']}"
        # a union's tag and its tests read one key; the members forbid every other
        if "properties" in node and "allOf" not in node and not at.endswith("/if"):
            assert node["additionalProperties"] is False, f"{at} allows extra keys"


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("name", list(UNIONS))
def test_a_union_reads_the_tag_then_checks_that_member(name: str) -> None:
    """Each member is checked when, and only when, the tag names it; the tag is required and
    one of the members' names; each member requires its own tag."""
    union = DEFS[name]
    tags = [cls.__name__ for cls in typing.get_args(UNIONS[name])]
    assert union["required"] == ["type"]
    assert union["properties"] == {"type": {"enum": tags}}
    assert "oneOf" not in union and "anyOf" not in union
    assert [branch["if"] for branch in union["allOf"]] == [
        {"properties": {"type": {"const": tag}}, "required": ["type"]} for tag in tags
    ]
    assert [branch["then"] for branch in union["allOf"]] == [
        {"$ref": f"#/$defs/{tag}"} for tag in tags
    ]
    for tag in tags:
        assert DEFS[tag]["properties"]["type"] == {"const": tag}
        assert DEFS[tag]["required"][0] == "type"
    everything = [
        cls.__name__
        for union in ("Action", "Decision", "Event")
        for cls in typing.get_args(UNIONS[union])
    ]
    assert len(everything) == len(set(everything)), "two tagged classes share a tag"


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
    # Views, states and positions are large: every seat's at a sample of moments, at the
    # first decision of each kind in the game (a feeding, a Protection window, a limit
    # discard, ...), and while a Tornado is under way (when a view's ``stolen`` holds cards,
    # some of them hidden).
    tornado = isinstance(decision, gr.ChooseBack | gr.ChooseKeptCard | gr.ChooseProtection)
    moment = step % 10 == 0 or tornado or check_value.first_at(decision)
    if moment or game.is_over:
        for seat in range(game.players):
            check_value("View", game.view(seat))
        check_value("GameState", game.state)
    if moment and decision is not None:
        check_value("Position", Position.from_game(game))


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("level", list(PRESETS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_every_payload_of_a_random_game_validates(level: str, players: int, seed: int) -> None:
    """Every legal action, every event of the full log and of each seat's log, every
    decision, views, states and positions along the way (at every kind of decision), and
    the record, validate; so does the record of a game started from a mid-game position."""
    check_value = Checker()
    game = gr.new_game(players, rules=PRESETS[level](), seed=seed)
    rng = random.Random(seed)
    step = 0
    middle: Position | None = None
    _check_moment(game, step, check_value)
    while not game.is_over:
        legal = game.legal_actions()
        for action in legal:
            check_value("Action", action)
        game.apply(rng.choice(legal))
        step += 1
        _check_moment(game, step, check_value)
        if middle is None and step >= 20 and not game.is_over:
            middle = Position.from_game(game)
    for event in game.events:
        check_value("Event", event)
    for seat in range(players):
        for event in game.events_for(seat):
            check_value("Event", event)
    check_value("GameRecord", game.record())
    if middle is not None:
        resumed = middle.to_game()
        for _ in range(10):
            if resumed.is_over:
                break
            resumed.apply(rng.choice(resumed.legal_actions()))
        record = resumed.record()
        assert record.start is not None
        check_value("GameRecord", record)


@pytest.mark.clause("1.5")
def test_redacted_and_rare_values_validate() -> None:
    """Every field a seat's log may blank out validates as null; and the values random
    games at the presets seldom reach (optional Objectives, scarce last pawns, the highest
    seat, a Tornado's steps) validate."""
    sun = gr.PlaySun(player=4, card="P01", pos=gr.Pos(0, 0))
    values: list[tuple[str, object]] = [
        ("Event", gr.CardDrawn(player=1, kind=gr.CardKind.NATURE, card=None, from_display=False)),
        ("Event", gr.CardStolen(player=0, victim=1, kind=gr.CardKind.LIFE, card=None)),
        ("Event", StolenCardsSeen(player=0, cards=None)),
        ("Event", gr.CardKept(player=0, from_player=1, card=None)),
        ("Event", gr.ActionTaken(player=0, action=None)),
        ("Event", gr.ActionTaken(player=2, action=gr.KeepCard(2, "P07"), by_engine=True)),
        ("Event", gr.TokensReturned(pos=gr.Pos(0, 0), count=1)),
        ("Event", gr.SatisfactionChanged(pos=gr.Pos(0, 0), before=4, after=0)),
        ("Action", gr.DeclineObjectives(player=1)),
        ("Action", gr.PlaceCityPawn(player=1, city=gr.Pos(-12, 0))),
        ("Action", gr.NameBack(player=4, victim=0, kind=gr.CardKind.POWER)),
        ("Decision", gr.ChoosePawnCities(player=1, cities=(gr.Pos(0, 0), gr.Pos(-1, 10)))),
        ("Decision", gr.ChooseProtection(player=0, power_player=4, against="P01", later=(1, 3))),
        ("Decision", gr.ChooseBack(player=4, victim=3, later=(0, 1, 2))),
        ("Decision", gr.ChooseAction(player=4, number=2)),
    ]
    for kind, value in values:
        check(kind, wire(value), entry=True)
    check("Step", wire(gr.PowerEffect(sun)))
    check("Step", wire(gr.BeginTurn(4)))


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


# -- what is not the wire format does not validate, and the error says where ---------------


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
        "Decision": wire(gr.ChooseProtection(player=1, power_player=0, against="P01", later=())),
        "View": wire(game.view(0)),
        "GameState": wire(game.state),
        "GameRecord": wire(game.record()),
        "Position": wire(Position.from_game(game)),
    }


class Spoilt(typing.NamedTuple):
    what: str
    kind: str
    payload: Any
    at: str
    """Where the first error is, as ``actions/3/pos``."""
    member: str
    """The ``$defs`` entry whose keyword the first error breaks."""
    refused: bool
    """Whether the library refuses the payload too, when it reads it or plays from it."""


def _spoiled(base: dict[str, Any]) -> list[Spoilt]:
    """Each spoilt payload, where its first error is, and whether the library refuses it
    too. The schema is the canonical form: where the reader is more lenient (any case for
    the names of the rules' switches) or leaves a check to the engine (whether an action's
    card id names a card), only the schema is asked."""
    view = base["View"]
    city = next(iter(view["cities"]))
    tile = next(iter(view["tiles"]))
    actions = base["GameRecord"]["actions"]
    nature = next(i for i, a in enumerate(actions) if a["type"] == "PlayNature")
    out: list[Spoilt] = []

    def spoil(
        what: str,
        kind: str,
        change: Callable[[Any], None],
        at: str,
        member: str,
        *,
        refused: bool = True,
    ) -> None:
        payload = copy.deepcopy(base[kind])
        change(payload)
        out.append(Spoilt(what, kind, payload, at, member, refused))

    spoil("an extra key on an action", "Action", lambda a: a.update(extra=1), "", "PlayNature")
    spoil("an extra key on a view", "View", lambda v: v.update(extra=1), "", "View")
    spoil(
        "an extra key in a city",
        "View",
        lambda v: v["cities"][city].update(extra=1),
        f"cities/{city}",
        "CityState",
    )
    spoil(
        "an extra key in the rules",
        "View",
        lambda v: v["rules"].update(extra=1),
        "rules",
        "Rules",
    )
    spoil(
        "an extra key in a manifest card",
        "GameRecord",
        lambda r: r["manifest"]["cards"][0].update(extra=1),
        "manifest/cards/0",
        "ManifestCard",
    )
    for square in ("1,01", "01,1", "-0,0", "1, 1", "1,1\n", "1;1", "1,", "(1,1)"):
        spoil(f"the square {square!r}", "Action", _square_at(square), "pos", "Pos")
        spoil(f"the square {square!r} as a key", "View", _square_key(square, tile), "tiles", "Pos")
    spoil(
        "a square in a record's action",
        "GameRecord",
        lambda r: r["actions"][nature].update(pos="1,01"),
        f"actions/{nature}/pos",
        "Pos",
    )
    spoil(
        "a seat in a record's action",
        "GameRecord",
        lambda r: r["actions"][nature].update(player=5),
        f"actions/{nature}/player",
        "PlayNature",
    )
    spoil("a wrong type tag", "Action", lambda a: a.update(type="PlayNatures"), "type", "Action")
    spoil(
        "an event's tag on an action",
        "Action",
        lambda a: a.update(type="CardDrawn"),
        "type",
        "Action",
    )
    spoil(
        "an action's tag on an event",
        "Event",
        lambda e: e.update(type="PlayNature"),
        "type",
        "Event",
    )
    spoil("no type tag", "Action", lambda a: a.pop("type"), "", "Action")
    spoil("a string seat", "Action", lambda a: a.update(player="0"), "player", "PlayNature")
    spoil("a boolean seat", "Action", lambda a: a.update(player=False), "player", "PlayNature")
    spoil("a fractional seat", "Action", lambda a: a.update(player=0.5), "player", "PlayNature")
    spoil("a string seat in a view", "View", lambda v: v.update(seat="0"), "seat", "View")
    spoil(
        "a string pawn in a city",
        "View",
        lambda v: v["cities"][city]["pawns"].append("1"),
        f"cities/{city}/pawns/{len(view['cities'][city]['pawns'])}",
        "CityState",
    )
    spoil(
        "a bad card id",
        "Action",
        lambda a: a.update(card="N7"),
        "card",
        "CardId",
        refused=False,
    )
    spoil(
        "a bad card id as a key",
        "View",
        lambda v: v["objective_pawns"].update(X01=0),
        "objective_pawns",
        "CardId",
    )
    spoil(
        "a bad land",
        "View",
        lambda v: v["tiles"].update({tile: "lava"}),
        f"tiles/{tile}",
        "Land",
    )
    spoil(
        "a bad kind as a key",
        "View",
        lambda v: v["deck_sizes"].update(blue=1),
        "deck_sizes",
        "CardKind",
    )
    spoil("a card drawn as a number", "Event", lambda e: e.update(card=7), "card", "CardDrawn")
    spoil("a missing field", "Event", lambda e: e.pop("from_display"), "", "CardDrawn")
    spoil("no format", "View", lambda v: v.pop("format"), "", "View")
    spoil("format 3", "GameRecord", lambda r: r.update(format=3), "format", "GameRecord")
    spoil("format 2", "View", lambda v: v.update(format=2), "format", "View")
    spoil(
        "format true",
        "Position",
        lambda p: p.update(format=True),
        "format",
        "Position",
    )
    spoil(
        "a stolen card without its seat",
        "View",
        lambda v: v.update(stolen=[["life", None]]),
        "stolen/0",
        "View",
    )
    spoil(
        "a city of three parts",
        "Position",
        lambda p: p["cities"][city].append(0),
        f"cities/{city}",
        "Position",
    )
    spoil(
        "eleven lightnings",
        "View",
        lambda v: v["rules"].update(lightnings=11),
        "rules/lightnings",
        "Rules",
    )
    spoil(
        "a level as a number",
        "GameRecord",
        lambda r: r["rules"].update(level=3),
        "rules/level",
        "Level",
    )
    spoil(
        "a city with a repeated need",
        "GameRecord",
        _repeat_need,
        f"manifest/cards/{_first_city(base['GameRecord'])}",
        "ManifestCard",
    )
    spoil(
        "a level in capitals",
        "GameRecord",
        lambda r: r["rules"].update(level="BASIC"),
        "rules/level",
        "Level",
        refused=False,
    )
    out += _out_of_bounds(base, spoil, city, tile)
    return out


def _out_of_bounds(
    base: dict[str, Any], spoil: Callable[..., None], city: str, tile: str
) -> list[Spoilt]:
    """Whole numbers beyond what the engine allows (the seats 0-4 of at most five players,
    2-5 players, ...), each refused by the schema, and by the reader where it can tell
    (a seat 5 is refused by the engine as no seat of the game, not by the reader)."""
    seats = (
        ("an action's player 5", "Action", lambda a: a.update(player=5), "player", "PlayNature"),
        ("an action's player -1", "Action", lambda a: a.update(player=-1), "player", "PlayNature"),
        ("a view's seat 5", "View", lambda v: v.update(seat=5), "seat", "View"),
        ("a view's active 5", "View", lambda v: v.update(active=5), "active", "View"),
        ("a view's to_move 5", "View", lambda v: v.update(to_move=5), "to_move", "View"),
        (
            "a pawn of seat 5",
            "View",
            lambda v: v["cities"][city]["pawns"].append(5),
            f"cities/{city}/pawns/{len(base['View']['cities'][city]['pawns'])}",
            "CityState",
        ),
        (
            "a pawn of seat 5 in a position",
            "Position",
            lambda p: p["cities"][city][1].append(5),
            f"cities/{city}/1/{len(base['Position']['cities'][city][1])}",
            "Position",
        ),
        (
            "a pawn of seat 5 on an Objective",
            "Position",
            lambda p: p["objective_pawns"].update({p["objectives"][0]: 5}),
            f"objective_pawns/{base['Position']['objectives'][0]}",
            "Position",
        ),
        (
            "a card stolen from seat 5",
            "Position",
            lambda p: p.update(stolen=[["N01", 5]]),
            "stolen/0/1",
            "Position",
        ),
        (
            "a Protection asked of seat 5 later",
            "Decision",
            lambda d: d.update(later=[5]),
            "later/0",
            "ChooseProtection",
        ),
        (
            "a Protection against seat 7's Power",
            "Decision",
            lambda d: d.update(power_player=7),
            "power_player",
            "ChooseProtection",
        ),
        (
            "a first player 5",
            "GameRecord",
            lambda r: r.update(first_player=5),
            "first_player",
            "GameRecord",
        ),
    )
    counts = (
        ("6 players", "GameRecord", lambda r: r.update(players=6), "players", "GameRecord"),
        ("1 player", "Position", lambda p: p.update(players=1), "players", "Position"),
        ("turn action 3", "Position", lambda p: p.update(turn_action=3), "turn_action", "Position"),
        ("a bank of 21 tokens", "View", lambda v: v.update(bank=21), "bank", "View"),
        ("a bank of -1 tokens", "GameState", lambda s: s.update(bank=-1), "bank", "GameState"),
        (
            "five tokens on a tile",
            "Position",
            lambda p: p["animals"].update({tile: 5}),
            f"animals/{tile}",
            "Position",
        ),
        (
            "no token on a tile",
            "View",
            lambda v: v["animals"].update({tile: 0}),
            f"animals/{tile}",
            "View",
        ),
        (
            "a satisfaction of 5",
            "View",
            lambda v: v["cities"][city].update(satisfaction=5),
            f"cities/{city}/satisfaction",
            "CityState",
        ),
        ("a supply of -1", "View", lambda v: v["supply"].__setitem__(0, -1), "supply/0", "View"),
        (
            "a deck of -1",
            "View",
            lambda v: v["deck_sizes"].update(nature=-1),
            "deck_sizes/nature",
            "View",
        ),
        (
            "-1 random draws",
            "Position",
            lambda p: p.update(random_draws=-1),
            "random_draws",
            "Position",
        ),
        (
            "a tile supply of -1",
            "GameState",
            lambda s: s["tile_supply"].update(sea=-1),
            "tile_supply/sea",
            "GameState",
        ),
        ("7 total pawns", "View", lambda v: v.update(total_pawns=7), "total_pawns", "View"),
        ("six hands", "Position", lambda p: p.update(hands=[[]] * 6), "hands", "Position"),
        ("one tableau", "GameState", lambda s: s.update(tableaux=[[]]), "tableaux", "GameState"),
        ("49 tiles", "View", _tiles(BOX_TILES + 1), "tiles", "View"),
    )
    # Where the library does not read the value (a state, a decision), or refuses it only
    # when an action is applied, or refuses it first for another reason (a card set aside
    # with no Tornado under way), only the schema is asked.
    unread = {
        "an action's player 5",
        "an action's player -1",
        "a Protection asked of seat 5 later",
        "a Protection against seat 7's Power",
        "a bank of -1 tokens",
        "a tile supply of -1",
        "one tableau",
        "a card stolen from seat 5",
    }
    out: list[Spoilt] = []
    for what, kind, change, at, member in (*seats, *counts):
        payload = copy.deepcopy(base[kind])
        change(payload)
        out.append(Spoilt(what, kind, payload, at, member, refused=what not in unread))
    return out


def _tiles(count: int) -> Callable[[Any], None]:
    def change(view: Any) -> None:
        view["tiles"] = {f"{x},0": "sea" for x in range(count)}

    return change


def _square_at(square: str) -> Callable[[Any], None]:
    def change(action: Any) -> None:
        action["pos"] = square

    return change


def _square_key(square: str, tile: str) -> Callable[[Any], None]:
    def change(view: Any) -> None:
        view["tiles"][square] = view["tiles"].pop(tile)

    return change


def _first_city(record: Any) -> int:
    return next(i for i, c in enumerate(record["manifest"]["cards"]) if "city" in c)


def _repeat_need(record: Any) -> None:
    city = record["manifest"]["cards"][_first_city(record)]
    city["needs"][1] = city["needs"][0]


def library_refuses(kind: str, payload: Any) -> bool:
    """Whether the library refuses ``payload`` when it reads it, or, for a position or a
    record, when it starts a game from it."""
    try:
        value = from_data(payload, READERS[kind])
        if isinstance(value, Position):
            value.to_game()
        elif isinstance(value, gr.GameRecord):
            value.replay()
    except (JsonError, gr.PositionError, gr.RecordError):
        return True
    return False


READERS: dict[str, Any] = {
    "Action": gr.Action,
    "Event": gr.Event,
    "Decision": gr.Decision,
    "View": gr.View,
    "GameState": gr.GameState,
    "GameRecord": gr.GameRecord,
    "Position": Position,
}


@pytest.mark.clause("1.7", "1.10")
def test_what_is_not_the_wire_format_does_not_validate() -> None:
    """Each spoilt payload is refused by the schema, whose first error names the member and
    the field at fault; and by the library's reader too, unless the reader leaves it to the
    engine."""
    base = _base()
    for kind, payload in base.items():
        check(kind, payload, entry=True)
    for spoilt in _spoiled(base):
        error = first_error(spoilt.kind, spoilt.payload)
        assert error is not None, f"{spoilt.what} validates as {spoilt.kind}"
        found = (where(error), member_of(error, spoilt.kind))
        assert found == (spoilt.at, spoilt.member), (
            f"{spoilt.what}: the first error is at {found}: {error.message}"
        )
        assert not WHOLE.is_valid(spoilt.payload), f"{spoilt.what} validates as an entry point"
        if spoilt.refused:
            assert library_refuses(spoilt.kind, spoilt.payload), f"the library takes {spoilt.what}"


@pytest.mark.clause("1.5")
def test_an_error_inside_a_record_names_the_action_and_its_field() -> None:
    """A front end validating a record learns which action is wrong, which member of the
    union it is, and which field: not only that no member matched."""
    record = _base()["GameRecord"]
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "PlayNature")
    record["actions"][index]["pos"] = "1,01"
    for kind in ("GameRecord", None):
        validate = WHOLE if kind is None else validator(kind)
        error = best_match(validate.iter_errors(record))
        assert error is not None
        assert where(error) == f"actions/{index}/pos"
        assert error.message == f"'1,01' does not match {DEFS['Pos']['pattern']!r}"
        assert trail(error, kind) == ["GameRecord", "Action", "PlayNature", "Pos"]
    # the same inside a nullable union: an event's action
    taken = wire(gr.ActionTaken(player=0, action=gr.PlayNature(0, "N01", gr.Pos(0, 1))))
    taken["action"]["player"] = 5
    error = first_error("Event", taken)
    assert error is not None
    assert where(error) == "action/player"
    assert error.message == "5 is greater than the maximum of 4"
    assert trail(error, "Event") == ["Event", "ActionTaken", "Action", "PlayNature"]


@pytest.mark.clause("1.5", "16.8")
def test_a_record_that_starts_from_a_position_validates() -> None:
    """A record's ``start`` is a position without ``format``, which only the record's top
    level carries: the schema says so, as the reader does."""
    game = gr.new_game(3, rules=gr.Rules.powers(), seed=5)
    rng = random.Random(5)
    for _ in range(12):
        game.apply(rng.choice(game.legal_actions()))
    resumed = Position.from_game(game).to_game()
    for _ in range(6):
        resumed.apply(rng.choice(resumed.legal_actions()))
    record = wire(resumed.record())
    assert "format" in record and "format" not in record["start"]
    check("GameRecord", record, entry=True)
    record["start"] = {"format": 1, **record["start"]}
    error = first_error("GameRecord", record)
    assert error is not None
    assert (where(error), trail(error, "GameRecord")) == ("start", ["GameRecord", "NestedPosition"])
    assert library_refuses("GameRecord", record)


@pytest.mark.clause("1.10")
def test_a_record_lists_at_most_the_actions_its_reader_accepts() -> None:
    """20,300 actions validate, 20,301 do not (spec 1.10). Checking twenty thousand actions
    against the union takes seconds, so the record is checked here against its schema with
    only the items of ``actions`` left unchecked (every other test checks actions)."""
    record_schema = DEFS["GameRecord"]
    actions = record_schema["properties"]["actions"]
    assert actions["maxItems"] == MAX_RECORD_ACTIONS
    assert actions["items"] == {"$ref": "#/$defs/Action"}
    unchecked = {key: value for key, value in actions.items() if key != "items"}
    properties = {**record_schema["properties"], "actions": unchecked}
    lenient = {**DEFS, "GameRecord": {**record_schema, "properties": properties}}
    schema = {"$schema": SCHEMA["$schema"], "$defs": lenient, "$ref": "#/$defs/GameRecord"}
    record = _base()["GameRecord"]
    pass_protection = {"type": "PassProtection", "player": 1}
    record["actions"] = [pass_protection] * MAX_RECORD_ACTIONS
    assert Validator(schema).is_valid(record)
    record["actions"].append(pass_protection)
    error = best_match(Validator(schema).iter_errors(record))
    assert error is not None
    assert (where(error), error.validator) == ("actions", "maxItems")
    with pytest.raises(gr.RecordError, match=r"1\.10"):
        gr.GameRecord.from_data(record)
