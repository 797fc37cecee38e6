"""Action indices as numbers: what each index of the action space names, for whole arrays.

[`decode`][gaia_rules.rl.codec.decode] turns an array of indices into the parts each index
names, [`encode`][gaia_rules.rl.codec.encode] turns parts back into indices, both as numpy
arrays in one call, with no game, view or Python loop. A policy that scores each legal action
(``info["legal_actions"]``) from its parts needs nothing else.

Every index has five parts, ``-1`` (``0`` for ``seat``) where the action has no such part:

- ``kind``: the block of the action space, its number in
  [`KINDS`][gaia_rules.rl.codec.KINDS] (``PlayNature`` is 10);
- ``face``: the card class the action names, 0-38 (``class_name`` says which): the card
  drawn, discarded, kept or played, a Power card by its Power;
- ``square``: the square it names, a number of
  [`square_of`][gaia_rules.rl.encoding.square_of] (``SQUARE_XY[square]`` gives x and y):
  where a card goes, the first of an Earthquake's two tiles, the city fed or taking a pawn;
- ``seat``: the other seat it names, counted from the seat acting (1 to 4): a Tornado's
  victim, the seat a kept card came from;
- ``detail``: what is left: a back (``DrawDeck``, ``NameBack``: nature, life, power), an
  Objective's rank (``FulfillObjective``), the direction of an Earthquake's second tile (east,
  south) or of a feeding source (north, east, south, west).

``encode(decode(i)) == i`` for every index, and ``encode`` refuses parts that name no index.
The layout follows [`BLOCKS`][gaia_rules.rl.encoding.BLOCKS] and is versioned with the action
space ([`ACTION_SPACE_VERSION`][gaia_rules.rl.encoding.ACTION_SPACE_VERSION]). Needs numpy.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from gaia_rules.rl.encoding import (
    ACTION_COUNT,
    BLOCKS,
    CARD_CLASSES,
    MAX_CITIES,
    RADIUS,
    SQUARES,
    EncodingError,
    square_index,
    square_of,
)
from gaia_rules.vocabulary import LANDS, Pos, Power

__all__ = [
    "FACE_CITY",
    "FACE_NATURE",
    "KINDS",
    "SQUARE_XY",
    "Decoded",
    "decode",
    "encode",
    "kind_of",
    "square_numbers",
]

KINDS: tuple[str, ...] = tuple(block.name for block in BLOCKS)
"""The kinds of action, in index order: ``KINDS[kind]`` names the kind of ``decode``."""

FACE_NATURE = 0
"""The first card class of the Nature cards (one per land, in ``LANDS`` order)."""
FACE_CITY = len(LANDS)
"""The first card class of the City cards (one per rank)."""
_FACE_ANIMALS = FACE_CITY + MAX_CITIES
_FACE_POWER = _FACE_ANIMALS + len(LANDS) + 1


def _power_face(power: Power) -> int:
    return _FACE_POWER + tuple(Power).index(power)


SQUARE_XY: npt.NDArray[np.int8] = np.array(
    [tuple(square_of(i)) for i in range(SQUARES)], dtype=np.int8
).reshape(SQUARES, 2)
"""The x and y of every square number: ``SQUARE_XY[square]`` (read-only)."""
SQUARE_XY.flags.writeable = False

IntArray = npt.NDArray[np.int64]


class Decoded(NamedTuple):
    """The parts of an array of action indices (see the module docstring), each an ``int64``
    array of the indices' shape."""

    kind: IntArray
    face: IntArray
    square: IntArray
    seat: IntArray
    detail: IntArray


# How each block's index is made from the parts: start + Σ stride × (part - base). A part
# with stride 0 must be at its default (-1, or 0 for seat); ``encode`` checks every part by
# decoding its result again.
_FORMULAS: dict[str, dict[str, tuple[int, int]]] = {
    # part: (stride, base)
    "DrawDisplay": {"face": (1, 0)},
    "DrawDeck": {"detail": (1, 0)},
    "Discard": {"face": (1, 0)},
    "FulfillObjective": {"detail": (1, 0)},
    "DeclineObjectives": {},
    "PlayTornado": {},
    "Protect": {},
    "PassProtection": {},
    "NameBack": {"seat": (3, 1), "detail": (1, 0)},
    "KeepCard": {"seat": (CARD_CLASSES, 1), "face": (1, 0)},
    "PlayNature": {"face": (SQUARES, FACE_NATURE), "square": (1, 0)},
    "PlayAnimals": {"face": (SQUARES, _FACE_ANIMALS), "square": (1, 0)},
    "PlayCity": {"face": (SQUARES, FACE_CITY), "square": (1, 0)},
    "PlaySun": {"square": (1, 0)},
    "PlayRain": {"square": (1, 0)},
    "PlayLightning": {"square": (1, 0)},
    "PlayEruption": {"square": (1, 0)},
    "PlayEarthquake": {"detail": (SQUARES, 0), "square": (1, 0)},
    "Feed": {"detail": (SQUARES, 0), "square": (1, 0)},
    "PlaceCityPawn": {"square": (1, 0)},
}
_FIXED_FACE: dict[str, int] = {
    "PlayTornado": _power_face(Power.TORNADO),
    "Protect": _power_face(Power.PROTECTION),
    "PlaySun": _power_face(Power.SUN),
    "PlayRain": _power_face(Power.RAIN),
    "PlayLightning": _power_face(Power.LIGHTNING),
    "PlayEruption": _power_face(Power.ERUPTION),
    "PlayEarthquake": _power_face(Power.EARTHQUAKE),
}
"""The card class of the blocks that name one Power card, whose index does not carry it."""
_PARTS = ("face", "square", "seat", "detail")
_DEFAULT = {"face": -1, "square": -1, "seat": 0, "detail": -1}


@functools.cache
def _tables() -> dict[str, npt.NDArray[np.int16]]:
    """The five parts of every index of the space, built once (about 2 MB)."""
    tables = {
        part: np.full(ACTION_COUNT, default, dtype=np.int16) for part, default in _DEFAULT.items()
    }
    tables["kind"] = np.empty(ACTION_COUNT, dtype=np.int16)
    for kind, block in enumerate(BLOCKS):
        span = slice(block.start, block.start + block.size)
        tables["kind"][span] = kind
        offsets = np.arange(block.size)
        for part, (stride, base) in sorted(
            _FORMULAS[block.name].items(), key=lambda item: -item[1][0]
        ):
            tables[part][span] = offsets // stride + base
            offsets = offsets % stride
        if block.name in _FIXED_FACE:
            tables["face"][span] = _FIXED_FACE[block.name]
    for table in tables.values():
        table.flags.writeable = False
    return tables


def decode(indices: npt.ArrayLike) -> Decoded:
    """The parts of each of ``indices`` (any shape; see the module docstring).

    Raises:
        EncodingError: an index is outside the action space.
    """
    array = np.asarray(indices, dtype=np.int64)
    if array.size and (array.min() < 0 or array.max() >= ACTION_COUNT):
        bad = array[(array < 0) | (array >= ACTION_COUNT)].flat[0]
        raise EncodingError(f"no action index {bad}: expected 0 to {ACTION_COUNT - 1}")
    tables = _tables()
    return Decoded(*(tables[part][array].astype(np.int64) for part in ("kind", *_PARTS)))


def encode(
    kind: npt.ArrayLike,
    face: npt.ArrayLike = -1,
    square: npt.ArrayLike = -1,
    seat: npt.ArrayLike = 0,
    detail: npt.ArrayLike = -1,
) -> IntArray:
    """The indices made of these parts (arrays broadcast together; a kind may be given by its
    name). The inverse of [`decode`][gaia_rules.rl.codec.decode].

    Raises:
        EncodingError: the parts name no index (a part the kind does not have, or out of its
            range), naming the first such entry.
    """
    kinds = np.asarray(kind_of(kind), dtype=np.int64)
    parts = {
        "face": np.asarray(face, dtype=np.int64),
        "square": np.asarray(square, dtype=np.int64),
        "seat": np.asarray(seat, dtype=np.int64),
        "detail": np.asarray(detail, dtype=np.int64),
    }
    kinds, *arrays = np.broadcast_arrays(kinds, *parts.values())
    parts = dict(zip(_PARTS, arrays, strict=True))
    if kinds.size and (kinds.min() < 0 or kinds.max() >= len(BLOCKS)):
        raise EncodingError(f"no kind of action numbered {kinds.min()} or {kinds.max()}")
    index = np.zeros(kinds.shape, dtype=np.int64)
    for number, block in enumerate(BLOCKS):
        chosen = kinds == number
        if not chosen.any():
            continue
        value = np.full(int(chosen.sum()), block.start, dtype=np.int64)
        for part, (stride, base) in _FORMULAS[block.name].items():
            value += stride * (parts[part][chosen] - base)
        index[chosen] = value
    inside = (index >= 0) & (index < ACTION_COUNT)
    again = decode(np.where(inside, index, 0))
    same = inside & (again.kind == kinds)
    for part in _PARTS:
        same &= getattr(again, part) == parts[part]
    if not same.all():
        at = tuple(int(i) for i in np.argwhere(~same)[0])
        given = ", ".join(f"{p}={int(parts[p][at])}" for p in _PARTS)
        raise EncodingError(
            f"no action index has kind={KINDS[int(kinds[at])]} and {given} "
            "(a part the kind does not have is -1, a seat 0)"
        )
    return index


def kind_of(kind: Any) -> Any:
    """A kind's number from its name (``"PlayNature"`` gives 10); numbers pass through."""
    if isinstance(kind, str):
        if kind not in KINDS:
            raise EncodingError(f"no kind of action {kind!r}: the kinds are {', '.join(KINDS)}")
        return KINDS.index(kind)
    array = np.asarray(kind)
    if array.dtype.kind in "US":
        return np.vectorize(kind_of, otypes=[np.int64])(array)
    return kind


def square_numbers(x: npt.ArrayLike, y: npt.ArrayLike) -> IntArray:
    """The square number of each ``(x, y)`` (the inverse of
    [`SQUARE_XY`][gaia_rules.rl.codec.SQUARE_XY]), ``-1`` for a square beyond the reach of
    the box's tiles."""
    xs, ys = np.broadcast_arrays(np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64))
    radius = RADIUS
    inside = np.abs(xs) + np.abs(ys) <= radius
    # rows y = -R..R hold 2(R - |y|) + 1 squares each; the first square of row y comes after
    # every square of the rows above it
    before = _ROW_START[np.clip(ys + radius, 0, 2 * radius)]
    number = before + xs + (radius - np.abs(ys))
    return np.where(inside, number, -1)


_ROW_START = np.array(
    [square_index(Pos(-(RADIUS - abs(y)), y)) for y in range(-RADIUS, RADIUS + 1)], dtype=np.int64
)
