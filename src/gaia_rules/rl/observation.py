"""Observations and action masks as numpy arrays, built from one seat's view alone.

[`observation`][gaia_rules.rl.observation.observation] is a pure function of a
[`View`][gaia_rules.views.View]: it reads nothing else, so it can show nothing the seat may not
see (spec 1.5), and two games that differ only in cards hidden from the seat give the same
array. Seats are counted from the observing seat (0 is itself, 1 the next in play order), so
one network can play every seat.

The array is ``int8``, one dimension, in two parts:

* the **grid**: ``GRID x GRID x len(CHANNELS)`` values (``95 x 95 x 23``), row-major by
  ``y`` then ``x`` then channel, square ``(x, y)`` at row ``y + 47`` and column ``x + 47``
  (``observation[:GRID_SIZE].reshape(GRID, GRID, -1)`` gives the image);
* the **features** after it, section by section as
  [`FEATURES`][gaia_rules.rl.observation.FEATURES] lists them (name and size).

The layout is versioned with the action space
([`OBSERVATION_VERSION`][gaia_rules.rl.observation.OBSERVATION_VERSION]).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from gaia_rules.actions import PlayEarthquake, PlayTornado
from gaia_rules.cards import CityCard
from gaia_rules.decisions import (
    ChooseAction,
    ChooseBack,
    ChooseFeeding,
    ChoosePawnCities,
    ChooseProtection,
    PowerEffect,
)
from gaia_rules.determinize import determinize
from gaia_rules.information import InformationSet
from gaia_rules.rl.encoding import (
    ACTION_COUNT,
    CARD_CLASSES,
    DECISIONS,
    LEVELS,
    MAX_OBJECTIVES,
    MAX_SEATS,
    RADIUS,
    ActionSpace,
    action_space,
    square_index,
)
from gaia_rules.views import View
from gaia_rules.vocabulary import ANIMALS, LANDS, CardKind, Need, Power

__all__ = [
    "CHANNELS",
    "FEATURES",
    "GRID",
    "GRID_SIZE",
    "OBSERVATION_SIZE",
    "OBSERVATION_VERSION",
    "action_mask",
    "mask_from_view",
    "observation",
]

OBSERVATION_VERSION = 1
"""Bumped whenever a value of the observation changes meaning."""

GRID = 2 * RADIUS + 1
"""The grid's width and height: 95 squares, from -47 to 47."""

_NEEDS: tuple[Need, ...] = (*LANDS, ANIMALS)
CHANNELS: tuple[str, ...] = (
    *(f"land:{land.value}" for land in LANDS),
    "animal tokens",
    *(f"city needs:{need.value}" for need in _NEEDS),
    "city satisfaction",
    *(f"pawns of seat +{k}" for k in range(MAX_SEATS)),
    "reached four",
    "named by the decision",
    "target of the waiting Power",
)
"""The grid's channels, per square: the tile's land (one-hot), the animal tokens on it, the
needs of its city (one per need), how many needs are met, the pawns on the city by seat, whether
the city reached four needs (advanced, 12.4), whether the pending decision names it (the cities
to feed, to take pawns), and whether the Power waiting in a Protection window targets it."""
_C = len(CHANNELS)
_LAND_CHANNEL = {land: i for i, land in enumerate(LANDS)}
_TOKENS = len(LANDS)
_NEED_CHANNEL = {need: _TOKENS + 1 + i for i, need in enumerate(_NEEDS)}
_SATISFACTION = _TOKENS + 1 + len(_NEEDS)
_PAWNS = _SATISFACTION + 1
_REACHED_FOUR = _PAWNS + MAX_SEATS
_NAMED = _REACHED_FOUR + 1
_TARGET = _NAMED + 1
GRID_SIZE = GRID * GRID * _C

_KINDS = tuple(CardKind)
_KIND_INDEX = {kind: index for index, kind in enumerate(_KINDS)}

FEATURES: tuple[tuple[str, int], ...] = (
    ("seats in play", MAX_SEATS),
    ("level", len(LEVELS)),
    ("hand", CARD_CLASSES),
    ("hand backs", MAX_SEATS * len(_KINDS)),
    ("deck sizes", len(_KINDS)),
    ("displays", CARD_CLASSES),
    ("discards", CARD_CLASSES),
    ("cards in front", MAX_SEATS * CARD_CLASSES),
    ("objectives revealed", MAX_OBJECTIVES),
    ("objective pawns", MAX_OBJECTIVES * MAX_SEATS),
    ("stolen backs", MAX_SEATS * len(_KINDS)),
    ("stolen cards seen", MAX_SEATS * CARD_CLASSES),
    ("pawns in supply", MAX_SEATS),
    ("pawns per seat", 1),
    ("tile supply", len(LANDS)),
    ("bank", 1),
    ("active seat", MAX_SEATS),
    ("seat to move", MAX_SEATS),
    ("decision", len(DECISIONS)),
    ("action number", 2),
    ("Power player", MAX_SEATS),
    ("Power card against", CARD_CLASSES),
    ("waiting Power", len(Power)),
    ("Tornado victim", MAX_SEATS),
    ("game over", 1),
    ("winner", MAX_SEATS),
)
"""The features after the grid: each section's name and size. Counts are counts (a hand's
cards by class, deck sizes, tokens in the bank); seats are one-hot, counted from the observing
seat; card classes are those of [`gaia_rules.rl.encoding`][gaia_rules.rl.encoding]. Sections
with "seat" in their layout are ``MAX_SEATS`` rows, seat +0 first."""


def _offsets() -> dict[str, int]:
    found: dict[str, int] = {}
    start = GRID_SIZE
    for name, size in FEATURES:
        found[name] = start
        start += size
    return found


_AT = _offsets()
OBSERVATION_SIZE = GRID_SIZE + sum(size for _, size in FEATURES)


@functools.lru_cache(maxsize=16)
def _city_needs(space: ActionSpace) -> dict[str, tuple[int, ...]]:
    """The need channels of every City card of the space's manifest (found by the space's
    identity: a manifest hashes its whole card list)."""
    return {
        card: tuple(_NEED_CHANNEL[need] for need in face.needs)
        for card, face in space.manifest.cards
        if isinstance(face, CityCard)
    }


def _cell(x: int, y: int) -> int:
    return ((y + RADIUS) * GRID + (x + RADIUS)) * _C


def observation(view: View | InformationSet) -> npt.NDArray[np.int8]:
    """The observation of ``view``'s seat, read from the view alone (see the module docstring),
    or from an information-set key's view (spec 1.16), which names every card by its face: both
    give the same array, since a card's class is its face's.

    Raises:
        EncodingError: the view's world reaches beyond the box (a position set up by hand).
    """
    if isinstance(view, InformationSet):
        view = view.view
    space = action_space(view.rules)
    classes = space.card_class
    seat, players = view.seat, view.players
    at: list[int] = []
    value: list[int] = []
    add_at, add_value = at.append, value.append

    def rel(other: int) -> int:
        return (other - seat) % players

    # -- the grid
    for pos, land in view.tiles.items():
        x, y = pos
        if abs(x) + abs(y) > RADIUS:
            square_index(pos)  # raises, naming the square
        add_at(_cell(x, y) + _LAND_CHANNEL[land])
        add_value(1)
    for (x, y), tokens in view.animals.items():
        add_at(_cell(x, y) + _TOKENS)
        add_value(tokens)
    needs = _city_needs(space)
    for (x, y), city in view.cities.items():
        base = _cell(x, y)
        for channel in needs[city.card]:
            add_at(base + channel)
            add_value(1)
        add_at(base + _SATISFACTION)
        add_value(city.satisfaction)
        for pawn_seat in set(city.pawns):
            add_at(base + _PAWNS + rel(pawn_seat))
            add_value(city.pawns.count(pawn_seat))
    for x, y in view.reached_four:
        add_at(_cell(x, y) + _REACHED_FOUR)
        add_value(1)
    decision = view.decision
    if isinstance(decision, ChooseFeeding | ChoosePawnCities):
        for x, y in decision.cities:
            add_at(_cell(x, y) + _NAMED)
            add_value(1)
    waiting = next((s.action for s in reversed(view.steps) if isinstance(s, PowerEffect)), None)
    if waiting is not None:
        match waiting:
            case PlayEarthquake():
                squares = [waiting.first, waiting.second]
            case PlayTornado():
                squares = []
            case _:
                squares = [waiting.pos]
        for x, y in squares:
            add_at(_cell(x, y) + _TARGET)
            add_value(1)

    # -- the features
    for k in range(players):
        add_at(_AT["seats in play"] + k)
        add_value(1)
    add_at(_AT["level"] + LEVELS.index(view.rules.level))
    add_value(1)
    # Hot path: the cards of every pile are counted in one pass (Counter counts in C).
    hand_at, displays_at, discards_at = _AT["hand"], _AT["displays"], _AT["discards"]
    counted = [hand_at + classes[c] for c in view.hand]
    for other, backs in enumerate(view.hand_backs):
        base = _AT["hand backs"] + rel(other) * len(_KINDS)
        counted += [base + _KIND_INDEX[back] for back in backs]
    for pile in view.displays.values():
        counted += [displays_at + classes[c] for c in pile]
    for pile in view.discards.values():
        counted += [discards_at + classes[c] for c in pile if c in classes]
    for other, cards in enumerate(view.tableaux):
        base = _AT["cards in front"] + rel(other) * CARD_CLASSES
        counted += [base + classes[c] for c in cards if c in classes]
    counts = Counter(counted)
    at += counts.keys()
    value += counts.values()
    for i, kind in enumerate(_KINDS):
        add_at(_AT["deck sizes"] + i)
        add_value(view.deck_sizes.get(kind, 0))
    ranks = space.objective_rank
    for card in view.objectives:
        add_at(_AT["objectives revealed"] + ranks[card])
        add_value(1)
    for card, owner in view.objective_pawns.items():
        add_at(_AT["objective pawns"] + ranks[card] * MAX_SEATS + rel(owner))
        add_value(1)
    for back, source, stolen in view.stolen:
        add_at(_AT["stolen backs"] + rel(source) * len(_KINDS) + _KINDS.index(back))
        add_value(1)
        if stolen is not None:
            add_at(_AT["stolen cards seen"] + rel(source) * CARD_CLASSES + classes[stolen])
            add_value(1)
    for other, left in enumerate(view.supply):
        add_at(_AT["pawns in supply"] + rel(other))
        add_value(left)
    add_at(_AT["pawns per seat"])
    add_value(view.total_pawns)
    for i, land in enumerate(LANDS):
        add_at(_AT["tile supply"] + i)
        add_value(view.tile_supply.get(land, 0))
    add_at(_AT["bank"])
    add_value(view.bank)
    add_at(_AT["active seat"] + rel(view.active))
    add_value(1)
    if decision is not None:
        add_at(_AT["seat to move"] + rel(decision.player))
        add_value(1)
        add_at(_AT["decision"] + DECISIONS.index(type(decision)))
        add_value(1)
        match decision:
            case ChooseAction(_, number):
                add_at(_AT["action number"] + number - 1)
                add_value(1)
            case ChooseProtection(_, power_player, against, _):
                add_at(_AT["Power player"] + rel(power_player))
                add_value(1)
                add_at(_AT["Power card against"] + classes[against])
                add_value(1)
            case ChooseBack(_, victim, _):
                add_at(_AT["Tornado victim"] + rel(victim))
                add_value(1)
    if waiting is not None:
        power = view.rules.cards.power(waiting.card)
        if power is not None:
            add_at(_AT["waiting Power"] + tuple(Power).index(power))
            add_value(1)
    if view.result is not None:
        add_at(_AT["game over"])
        add_value(1)
        add_at(_AT["winner"] + rel(view.result.winner))
        add_value(1)

    array = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    # Hot path: one numpy call for every value (a Python loop of item assignments costs
    # several times more). Indices never repeat, except counts summed by ``_count`` first.
    array[at] = value
    return array


def action_mask(indices: Iterable[int]) -> npt.NDArray[np.int8]:
    """A mask of the whole action space with a 1 at each of ``indices``."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    mask[list(indices)] = 1
    return mask


def mask_from_view(view: View, space: ActionSpace | None = None) -> npt.NDArray[np.int8]:
    """The legal actions of ``view``'s seat as a mask, from the view alone: all zeros unless
    the seat is to move.

    The seat's legal actions depend only on what it sees (its hand, the backs of the others,
    the public table), so any game consistent with the view offers the same ones: this asks
    one built by [`determinize`][gaia_rules.determinize.determinize] (with a fixed random
    source; which one does not matter). The environment reads its own game's legal actions
    instead, which is cheaper and, as the tests check, the same mask.
    """
    if view.to_move != view.seat:
        return np.zeros(ACTION_COUNT, dtype=np.int8)
    space = space or action_space(view.rules)
    game = determinize(view, random.Random(0))
    return action_mask(space.legal(game.legal_actions(), view.players, view.stolen))
