"""How the fuzz suite changes real input: mutations of JSON data, and twists of objects.

A mutation of JSON data changes one place of a real payload and leaves the payload itself as
it was (the containers on the way to the place are copied): a key deleted or added, a value
replaced by a random one or by another JSON type, a text where a list belongs and a list
where a text does, nesting thousands of levels deep, numbers of thousands of digits, NaN and
Infinity, unicode look-alikes, a card moved from one place to another. :func:`render` writes
the result as JSON text, expanding markers into what Python's ``json`` could not write.

A twist of an object changes one value inside an action, position, view or record (its
fields, and theirs) into one Python compares equal to it or one of another type: a square
whose coordinates are floats or booleans, a seat that is ``True``, a tuple given as a list or
a text, a dict keyed by plain tuples, an instance of a subclass, ``None``.
"""

from __future__ import annotations

import enum
import json
import math
import random
import re
from typing import Any

import attrs

import gaia_rules as gr

__all__ = [
    "CARD_ID",
    "CARD_IDS",
    "KEYS",
    "TRICKY_TEXTS",
    "look_alikes",
    "mutate",
    "random_json",
    "random_scalar",
    "render",
    "retyped",
    "twist",
]

CARD_IDS = tuple(card for card, _ in gr.Manifest.builtin(gr.Edition.THIRD).cards)
CARD_ID = re.compile(r"[NCAPO][0-9]{2}")
TRICKY_TEXTS = (
    *CARD_IDS[::7],
    "N00",
    "N41",
    "P99",
    "n01",
    "0,0",
    "-0,0",
    "00,1",
    "1,2,3",
    "٣,٤",
    "１,２",
    "𝟏,𝟐",
    "0,0\u200b",
    "■",
    "\u0000",
    "nature",
    "life",
    "power",
    "plain",
    "star",
    "animals",
    "basic",
    "disasters",
    "third",
    "first",
    "DrawDeck",
    "KeepCard",
    "CardStolen",
    "ChooseAction",
    "PlaySun",
    "PowerEffect",
)
KEYS = (
    "type",
    "format",
    "player",
    "card",
    "kind",
    "pos",
    "rules",
    "actions",
    "seed",
    "players",
    "hands",
    "decks",
    "steps",
    "level",
    "edition",
    "manifest",
    "cards",
    "id",
    "result",
)


def random_scalar(rng: random.Random) -> Any:
    """A JSON scalar: null, a boolean, a small or a huge number, a float, a short text, or a
    text that means something to some reader."""
    match rng.randrange(7):
        case 0:
            return None
        case 1:
            return rng.random() < 0.5
        case 2:
            return rng.randint(-10, 10)
        case 3:
            return rng.randint(-(2**70), 2**70)
        case 4:
            return rng.choice([0.5, -1.0, 1e308, -0.0, 3.0, math.nan, math.inf])
        case 5:
            return "".join(rng.choice("aZ0 ,-_.■é\u0000") for _ in range(rng.randrange(8)))
    return rng.choice(TRICKY_TEXTS)


def random_json(rng: random.Random, depth: int = 3) -> Any:
    """A random JSON value: a scalar, or a list or an object of up to 5 random values."""
    shape = rng.randrange(4) if depth else 0
    if shape == 1:
        return [random_json(rng, depth - 1) for _ in range(rng.randrange(6))]
    if shape == 2:
        keys = [rng.choice(KEYS) if rng.random() < 0.7 else random_scalar(rng) for _ in range(5)]
        return {str(k): random_json(rng, depth - 1) for k in keys[: rng.randrange(6)]}
    return random_scalar(rng)


MARKER = re.compile(r'"@@(deep-list|deep-dict|huge|negative|long-text)-([0-9]+)@@"')
OPERATIONS = (
    "delete",
    "add",
    "replace",
    "retype",
    "text-for-list",
    "deep",
    "huge",
    "nan",
    "unicode",
    "card",
    "nudge",
    "duplicate",
)


def render(data: Any, ascii_only: bool = False) -> str:
    """JSON text of ``data``, with its markers expanded into text that Python's ``json`` could
    not write: nesting thousands of levels deep, numbers of thousands of digits, texts of
    hundreds of thousands of characters."""

    def expand(match: re.Match[str]) -> str:
        kind, size = match.group(1), int(match.group(2))
        if kind == "deep-list":
            return "[" * size + "0" + "]" * size
        if kind == "deep-dict":
            return '{"a":' * size + "0" + "}" * size
        if kind == "long-text":
            return '"' + "N01" * (size // 3) + '"'
        return ("-" if kind == "negative" else "") + "9" * size

    return MARKER.sub(expand, json.dumps(data, ensure_ascii=ascii_only))


def retyped(rng: random.Random, value: Any) -> Any:
    """``value`` as another JSON type, or in another form of its own type."""
    if isinstance(value, bool):
        options: list[Any] = [int(value), str(value).lower(), None]
    elif isinstance(value, int):
        options = [str(value), float(value), value != 0, [value], -value - 1]
    elif isinstance(value, float):
        options = [int(value) if math.isfinite(value) else 0, str(value)]
    elif isinstance(value, str):
        options = [
            [value],
            {"value": value},
            value.upper(),
            value.lower(),
            value[1:],
            0,
            list(value),
        ]
    elif isinstance(value, list):
        options = [
            dict(enumerate(map(str, value))),
            value[:1],
            value * 2,
            None,
            {},
            "",
            "".join(map(str, value)),
        ]
    elif isinstance(value, dict):
        options = [list(value.values()), list(value), None, [], ""]
    else:
        options = [0, "", [], {}, False]
    return rng.choice(options)


def _at(data: Any, path: list[Any]) -> Any:
    for key in path:
        data = data[key]
    return data


def _with(data: Any, path: list[Any], change: Any) -> Any:
    """``data`` with ``change(container)`` done to a copy of the container at ``path``; the
    containers on the way are copied, ``data`` is left as it was."""
    if not path:
        return change(data)
    head, rest = path[0], path[1:]
    copy: Any = list(data) if isinstance(data, list) else dict(data)
    copy[head] = _with(data[head], rest, change)
    return copy


def _copy(container: Any) -> Any:
    return list(container) if isinstance(container, list) else dict(container)


def _card_piles(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every list of card ids in ``data``: hands, decks, displays, discard piles,
    tableaux and the other places of a position, a view or a state."""
    piles: list[tuple[Any, ...]] = []
    if isinstance(data, list):
        if data and all(isinstance(c, str) and CARD_ID.fullmatch(c) for c in data):
            piles.append(path)
        for index, value in enumerate(data):
            piles += _card_piles(value, (*path, index))
    elif isinstance(data, dict):
        for key, value in data.items():
            piles += _card_piles(value, (*path, key))
    return piles


def _move_a_card(rng: random.Random, data: Any) -> Any | None:
    """``data`` with a card moved from one place to another (a mutation that keeps the JSON
    well typed); ``None`` when it has no place of cards."""
    piles = _card_piles(data)
    if not piles:
        return None
    source, target = list(rng.choice(piles)), list(rng.choice(piles))
    card = rng.choice(_at(data, source))
    other = rng.choice(CARD_IDS) if rng.random() < 0.5 else None  # another card in its place

    def take(container: Any) -> Any:
        kept = [c for c in container if c != card]
        return kept if other is None else [*kept, other]

    moved = _with(data, source, take)
    at = rng.randint(0, len(_at(moved, target)))
    return _with(moved, target, lambda container: [*container[:at], card, *container[at:]])


def look_alikes(text: str) -> list[str]:
    """Texts that look like ``text`` and are not: another character added, digits of other
    scripts, a zero-width space, a full-width comma."""
    return [
        text + "■",
        text.translate(str.maketrans("0123456789", "０１２３４５６７８９")),
        text.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
        "\u200b" + text,
        text.replace(",", "，"),
    ]


def mutate(rng: random.Random, data: Any) -> Any:
    """``data`` with one mutation at a random place in it (``data`` is left as it was)."""
    if rng.randrange(4) == 0:
        moved = _move_a_card(rng, data)
        if moved is not None:
            return moved
    path: list[Any] = []
    node = data
    while isinstance(node, dict | list) and node and rng.randrange(5) > 0:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append(key)
        node = node[key]
    operation = rng.choice(OPERATIONS)
    if not path:
        if operation == "add" and isinstance(data, dict):
            return {**data, rng.choice(KEYS): random_json(rng)}
        return random_json(rng) if operation == "replace" else retyped(rng, data)
    return _with(data, path[:-1], lambda container: _changed(rng, container, path[-1], operation))


def _changed(rng: random.Random, container: Any, key: Any, operation: str) -> Any:
    """A copy of ``container`` with ``operation`` done at ``key``."""
    value = container[key]
    copy = _copy(container)
    match operation:
        case "delete":
            del copy[key]
        case "add":
            if isinstance(value, dict):
                copy[key] = {**value, rng.choice(KEYS): random_json(rng)}
            elif isinstance(value, list):
                at = rng.randint(0, len(value))
                copy[key] = [*value[:at], random_json(rng), *value[at:]]
            elif isinstance(copy, dict):
                copy[rng.choice(KEYS)] = random_json(rng)
            else:
                copy.insert(rng.randint(0, len(copy)), random_json(rng))
        case "replace":
            copy[key] = random_json(rng)
        case "retype":
            copy[key] = retyped(rng, value)
        case "text-for-list":
            size = rng.choice([0, 3, 200_000])
            copy[key] = f"@@long-text-{size}@@" if size else ""
        case "deep":
            shape = rng.choice(["deep-list", "deep-dict"])
            copy[key] = f"@@{shape}-{rng.choice([30, 900, 3000, 50000])}@@"
        case "huge":
            sign = rng.choice(["huge", "negative"])
            copy[key] = f"@@{sign}-{rng.choice([19, 40, 400, 4300, 4301, 20000])}@@"
        case "nan":
            copy[key] = rng.choice([math.nan, math.inf, -math.inf, 1e308, -0.0])
        case "unicode":
            copy[key] = rng.choice(look_alikes(value if isinstance(value, str) else str(value)))
        case "card":
            copy[key] = rng.choice(CARD_IDS)
        case "duplicate":
            copy[key] = value * rng.choice([2, 50]) if isinstance(value, list) else [value]
        case _:  # nudge a number
            if isinstance(value, int) and not isinstance(value, bool):
                copy[key] = value + rng.choice([-1, 1, -7, 100, 2**63])
            else:
                copy[key] = random_scalar(rng)
    return copy


# -- twists of objects ----------------------------------------------------------------------------


class _Text(str):
    """A text that is not exactly a ``str``."""

    __slots__ = ()


class _Number(int):
    """A whole number that is not exactly an ``int``."""

    __slots__ = ()


_SUBCLASSES: dict[type, Any] = {}


def _subclass(cls: type) -> Any:
    """A subclass of one of the library's attrs classes, with nothing of its own (made
    once per class)."""
    if cls not in _SUBCLASSES:
        _SUBCLASSES[cls] = attrs.frozen(type(f"Not{cls.__name__}", (cls,), {}), hash=False)
    return _SUBCLASSES[cls]


_OPAQUE = (gr.Rules, gr.Manifest)
"""Values twisted whole, never inside (their constructors check their fields)."""


def _twisted_leaf(rng: random.Random, value: Any) -> Any:
    """One value in place of ``value``: equal to it in Python, or of another type."""
    if isinstance(value, bool):
        options: list[Any] = [int(value), "true" if value else "", None, _Number(value)]
    elif isinstance(value, enum.Enum):
        options = [value.value, value.name, None, *(m for m in gr.Land if m is not value)][:6]
        options.append(gr.CardKind.NATURE if not isinstance(value, gr.CardKind) else gr.Land.SEA)
    elif isinstance(value, int):
        options = [
            float(value),
            value == 1,
            str(value),
            _Number(value),
            -value - 1,
            2**70,
            None,
            value + 0j,
        ]
    elif isinstance(value, str):
        options = [_Text(value), value.encode(), [value], None, value.lower(), value + "x", "", 7]
    elif isinstance(value, gr.Pos):
        x, y = value
        near: list[tuple[Any, Any]] = [
            (float(x), y),
            (x, -0.0) if y == 0 else (x, float(y)),
            (bool(x % 2), y),
            (_Number(x), y),
        ]
        options = [*(gr.Pos(*square) for square in near), (x, y), [x, y], f"{x},{y}"]
    elif isinstance(value, tuple):
        options = [list(value), value[:-1], value * 2, "", str(value), None, (*value, None)]
    elif isinstance(value, dict):
        options = [
            list(value.items()),
            None,
            {},
            {str(k): v for k, v in value.items()},
            tuple(value),
        ]
        if value and all(isinstance(k, gr.Pos) for k in value):
            options.append({(k.x, k.y): v for k, v in value.items()})
    elif attrs.has(type(value)) and not isinstance(value, _OPAQUE):
        fields = attrs.astuple(value, recurse=False)
        derived = _subclass(type(value))
        options = [derived(*fields), None, attrs.asdict(value, recurse=False)]
    elif isinstance(value, _OPAQUE):
        options = [value.to_dict(), None, "basic"]
    else:
        options = [0, "", (), None]
    return rng.choice(options)


def _parts(value: Any) -> list[tuple[Any, Any]]:
    """The places inside ``value`` a twist may go: (key, value inside)."""
    if isinstance(value, (*_OPAQUE, gr.Pos, enum.Enum, str, int)):
        return []
    if attrs.has(type(value)):
        return [(field.name, getattr(value, field.name)) for field in attrs.fields(type(value))]
    if isinstance(value, tuple):
        return list(enumerate(value))
    if isinstance(value, dict):
        return [(("key", key), key) for key in value] + [
            (("value", key), v) for key, v in value.items()
        ]
    return []


def _rebuilt(value: Any, key: Any, inner: Any) -> Any:
    """``value`` with its part ``key`` replaced by ``inner``."""
    if attrs.has(type(value)):
        return attrs.evolve(value, **{key: inner})
    if isinstance(value, tuple):
        return (*value[:key], inner, *value[key + 1 :])
    side, at = key
    if side == "value":
        return {**value, at: inner}
    return {(inner if k == at else k): v for k, v in value.items()}


def twist(rng: random.Random, value: Any, *, inside: bool = False) -> Any:
    """``value`` with one value inside it twisted (see the module docstring); ``inside``:
    never ``value`` itself, when it has anything inside."""
    parts = _parts(value)
    if not parts or (not inside and rng.randrange(5) == 0):
        return _twisted_leaf(rng, value)
    key, inner = rng.choice(parts)
    try:
        return _rebuilt(value, key, twist(rng, inner))
    except (TypeError, ValueError, gr.GaiaRulesError):  # a constructor that checks refused it
        return value if inside else _twisted_leaf(rng, value)
