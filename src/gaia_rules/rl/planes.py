"""The compact observation: the world as planes over the occupied box, then the features.

[`planes_observation`][gaia_rules.rl.planes.planes_observation] is, like
[`observation`][gaia_rules.rl.observation.observation], a pure function of one seat's
[`View`][gaia_rules.views.View] (spec 1.5), with seats counted from the observing seat. Where
that layout draws the whole reach of the tiles (95 x 95 squares, 208 KB), this one draws only
the *occupied box*: the smallest rectangle holding every tile (before the first, the square
``(0, 0)`` where it goes), with a ring of one square around it (where a tile can be placed
next), on a canvas of ``ROWS x COLUMNS`` = 26 x 50 squares. The whole observation is
``PLANES_SIZE`` = 16,303 bytes.

**Why 26 x 50 holds every world.** The box holds 48 tiles, each placed next to one in play
(spec 2.1, 7.2), so a world of ``n`` tiles spans ``w`` columns and ``h`` rows with
``w + h <= n + 1 <= 49``. Laid with its longer side along the canvas' columns, the box and its
ring take at most ``24 + 2`` rows and ``48 + 2`` columns. A world taller than wide is
therefore **transposed** (its x along the rows, its y along the columns); the game has no
direction of its own, so this changes nothing a player could use, and the header says so.

The array is ``int8``, one dimension, in three parts:

* the **planes**, ``CHANNELS x ROWS x COLUMNS`` (``obs[:PLANES_CELLS].reshape(12, 26, 50)``;
  [`split`][gaia_rules.rl.planes.split] does it). The canvas square ``(row, column)`` is the
  world square ``(x0 + column, y0 + row)``, or ``(x0 + row, y0 + column)`` when transposed;
  squares past the box's ring are zero. Channels, per square: the tile's land (0 none, 1-6
  in ``LANDS`` order: a category, not a count), the animal tokens on it, the city on it (its
  City card's rank + 1, 0 none: a category), the city's satisfaction, the pawns on the city
  of seat +0 to +4 (5 channels), whether the city reached four needs (12.4), whether the
  pending decision names it (cities to feed, cities taking pawns), whether the Power waiting
  in a Protection window targets it;
* the **header** (5 values): ``x0``, ``y0``, whether the world is transposed, and how many
  rows and columns of the canvas the box and its ring use;
* the **features** of [`FEATURES`][gaia_rules.rl.observation.FEATURES], as the full
  observation has them (its hand, the others' backs, decks, displays, ...).

[`expand`][gaia_rules.rl.planes.expand] turns the two category channels into one-hot planes
(and the city into its needs) for a network; [`cells`][gaia_rules.rl.planes.cells] finds the
canvas square of any square an action names (every square a legal action names lies in the
box or its ring). The layout is versioned: [`PLANES_VERSION`][gaia_rules.rl.planes.PLANES_VERSION].
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from gaia_rules.actions import PlayEarthquake, PlayTornado
from gaia_rules.cards import CityCard
from gaia_rules.decisions import ChooseFeeding, ChoosePawnCities, PowerEffect
from gaia_rules.manifest import Manifest
from gaia_rules.rl.codec import SQUARE_XY
from gaia_rules.rl.encoding import MAX_CITIES, MAX_SEATS, EncodingError
from gaia_rules.rl.observation import GRID_SIZE, OBSERVATION_SIZE, observation
from gaia_rules.rules import Rules
from gaia_rules.views import View
from gaia_rules.vocabulary import ANIMALS, LANDS, Need, Pos

__all__ = [
    "CHANNELS",
    "COLUMNS",
    "EXPANDED_CHANNELS",
    "HEADER",
    "PLANES_CELLS",
    "PLANES_SIZE",
    "PLANES_VERSION",
    "ROWS",
    "Planes",
    "cells",
    "city_needs",
    "expand",
    "planes_observation",
    "split",
]

PLANES_VERSION = 1
"""Bumped whenever a value of the compact observation changes meaning."""

ROWS = 26
"""The canvas' rows: the shorter side of the largest box (24) and its ring."""
COLUMNS = 50
"""The canvas' columns: the longer side of the largest box (48) and its ring."""

CHANNELS: tuple[str, ...] = (
    "land (0 none, 1-6)",
    "animal tokens",
    "city (rank + 1, 0 none)",
    "city satisfaction",
    *(f"pawns of seat +{k}" for k in range(MAX_SEATS)),
    "reached four",
    "named by the decision",
    "target of the waiting Power",
)
"""The planes' channels, in order (see the module docstring)."""
_LAND, _TOKENS, _CITY, _SATISFACTION, _PAWNS = 0, 1, 2, 3, 4
_REACHED_FOUR = _PAWNS + MAX_SEATS
_NAMED = _REACHED_FOUR + 1
_TARGET = _NAMED + 1

HEADER: tuple[str, ...] = ("x0", "y0", "transposed", "rows used", "columns used")
"""The header's values, in order."""

PLANES_CELLS = len(CHANNELS) * ROWS * COLUMNS
"""Where the header begins: 15,600 values of planes."""
_FEATURES_SIZE = OBSERVATION_SIZE - GRID_SIZE
PLANES_SIZE = PLANES_CELLS + len(HEADER) + _FEATURES_SIZE
"""The size of the compact observation."""

_NEEDS: tuple[Need, ...] = (*LANDS, ANIMALS)
EXPANDED_CHANNELS: tuple[str, ...] = (
    *(f"land:{land.value}" for land in LANDS),
    "animal tokens",
    *(f"city needs:{need.value}" for need in _NEEDS),
    *CHANNELS[_SATISFACTION:],
)
"""The channels of [`expand`][gaia_rules.rl.planes.expand]: the land one-hot, the tokens,
the city's needs (one per need), then the channels after the city as they are."""

_LAND_CODE = {land: code for code, land in enumerate(LANDS, 1)}


class Planes(NamedTuple):
    """The three parts of a compact observation (views into it, no copies)."""

    planes: npt.NDArray[np.int8]
    """``CHANNELS x ROWS x COLUMNS``, or with the batch axes in front."""
    header: npt.NDArray[np.int8]
    features: npt.NDArray[np.int8]


@functools.lru_cache(maxsize=8)
def _city_codes(manifest: Manifest) -> dict[str, int]:
    return {card: rank + 1 for rank, card in enumerate(manifest.ids(CityCard))}


def planes_observation(view: View) -> npt.NDArray[np.int8]:
    """The compact observation of ``view``'s seat (see the module docstring).

    Raises:
        EncodingError: the world does not fit the canvas, which only a position set up by
            hand can make (a world of tiles that do not touch).
    """
    seat, players = view.seat, view.players
    tiles = view.tiles
    # before the first tile, the box is the square it goes on (spec 7.2)
    xs = [pos.x for pos in tiles] or [0]
    ys = [pos.y for pos in tiles] or [0]
    x0, y0 = min(xs) - 1, min(ys) - 1
    width, height = max(xs) - x0 + 2, max(ys) - y0 + 2
    transposed = height > width
    rows, columns = (width, height) if transposed else (height, width)
    if rows > ROWS or columns > COLUMNS:
        raise EncodingError(
            f"a world of {width - 2} x {height - 2} squares does not fit the {ROWS - 2} x "
            f"{COLUMNS - 2} box of the compact observation; connected tiles always do"
        )
    array = np.zeros(PLANES_SIZE, dtype=np.int8)
    planes = array[:PLANES_CELLS].reshape(len(CHANNELS), ROWS, COLUMNS)
    at: list[int] = []
    value: list[int] = []
    add_at, add_value = at.append, value.append
    area = ROWS * COLUMNS

    def cell(pos: Pos) -> int:
        if transposed:
            return (pos.x - x0) * COLUMNS + (pos.y - y0)
        return (pos.y - y0) * COLUMNS + (pos.x - x0)

    for pos, land in tiles.items():
        add_at(cell(pos))  # channel 0
        add_value(_LAND_CODE[land])
    for pos, tokens in view.animals.items():
        add_at(_TOKENS * area + cell(pos))
        add_value(tokens)
    codes = _city_codes(view.rules.cards)
    for pos, city in view.cities.items():
        here = cell(pos)
        add_at(_CITY * area + here)
        add_value(codes[city.card])
        add_at(_SATISFACTION * area + here)
        add_value(city.satisfaction)
        for pawn_seat in set(city.pawns):
            add_at((_PAWNS + (pawn_seat - seat) % players) * area + here)
            add_value(city.pawns.count(pawn_seat))
    for pos in view.reached_four:
        add_at(_REACHED_FOUR * area + cell(pos))
        add_value(1)
    decision = view.decision
    if isinstance(decision, ChooseFeeding | ChoosePawnCities):
        for pos in decision.cities:
            add_at(_NAMED * area + cell(pos))
            add_value(1)
    waiting = next((s.action for s in reversed(view.steps) if isinstance(s, PowerEffect)), None)
    if waiting is not None and not isinstance(waiting, PlayTornado):
        targets = (
            [waiting.first, waiting.second]
            if isinstance(waiting, PlayEarthquake)
            else [waiting.pos]
        )
        for pos in targets:
            add_at(_TARGET * area + cell(pos))
            add_value(1)
    planes.reshape(-1)[at] = value
    header = array[PLANES_CELLS : PLANES_CELLS + len(HEADER)]
    header[:] = (x0, y0, int(transposed), rows, columns)
    array[PLANES_CELLS + len(HEADER) :] = observation(view)[GRID_SIZE:]
    return array


def split(obs: npt.NDArray[np.int8]) -> Planes:
    """The planes, header and features of a compact observation, or of a batch of them (any
    leading axes)."""
    lead = obs.shape[:-1]
    return Planes(
        obs[..., :PLANES_CELLS].reshape(*lead, len(CHANNELS), ROWS, COLUMNS),
        obs[..., PLANES_CELLS : PLANES_CELLS + len(HEADER)],
        obs[..., PLANES_CELLS + len(HEADER) :],
    )


def cells(
    header: npt.NDArray[np.int8], squares: npt.ArrayLike
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The canvas row and column of each of ``squares`` (square numbers, as
    [`decode`][gaia_rules.rl.codec.decode] gives them) in the observation of ``header``;
    ``-1`` for both where the square is off the canvas or the number is ``-1``. A batch of
    headers (``N x 5``) goes with a batch of squares (``N x L``)."""
    numbers = np.asarray(squares, dtype=np.int64)
    xy = SQUARE_XY[np.clip(numbers, 0, None)].astype(np.int64)
    head = np.asarray(header, dtype=np.int64)[..., None, :]
    if numbers.ndim < head.ndim - 1:
        head = head[..., 0, :]
    dx, dy = xy[..., 0] - head[..., 0], xy[..., 1] - head[..., 1]
    transposed = head[..., 2] != 0
    row = np.where(transposed, dx, dy)
    column = np.where(transposed, dy, dx)
    inside = (numbers >= 0) & (row >= 0) & (row < ROWS) & (column >= 0) & (column < COLUMNS)
    return np.where(inside, row, -1), np.where(inside, column, -1)


@functools.lru_cache(maxsize=8)
def city_needs(rules: Rules | Manifest) -> npt.NDArray[np.int8]:
    """The needs of each city code of the planes, one row per code (row 0, no city, is
    zeros), one column per need (``LANDS``, then animals): ``city_needs(rules)[code]``."""
    manifest = rules if isinstance(rules, Manifest) else rules.cards
    table = np.zeros((MAX_CITIES + 1, len(_NEEDS)), dtype=np.int8)
    for card, code in _city_codes(manifest).items():
        face = manifest.face(card)
        assert isinstance(face, CityCard)
        for need in face.needs:
            table[code, _NEEDS.index(need)] = 1
    table.flags.writeable = False
    return table


def expand(planes: npt.NDArray[np.int8], rules: Rules | Manifest) -> npt.NDArray[np.float32]:
    """The planes with their categories spelt out, as ``float32`` for a network: the land
    one-hot, the tokens, the needs of the city on each square, then the channels after the
    city ([`EXPANDED_CHANNELS`][gaia_rules.rl.planes.EXPANDED_CHANNELS]). Any leading axes
    are kept: ``(..., 12, 26, 50)`` gives ``(..., 23, 26, 50)``."""
    land = planes[..., _LAND, :, :].astype(np.int64)
    one_hot = (land[..., None, :, :] == np.arange(1, len(LANDS) + 1)[:, None, None]).astype(
        np.float32
    )
    needs = np.moveaxis(city_needs(rules)[planes[..., _CITY, :, :].astype(np.int64)], -1, -3)
    return np.concatenate(
        [
            one_hot,
            planes[..., _TOKENS : _TOKENS + 1, :, :].astype(np.float32),
            needs.astype(np.float32),
            planes[..., _SATISFACTION:, :, :].astype(np.float32),
        ],
        axis=-3,
    )
