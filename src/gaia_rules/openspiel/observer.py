"""What one seat of ``python_gaia`` observes: strings and tensors, built from its information-set
key ([`Game.information_set`][gaia_rules.game.Game.information_set], spec 1.16).

An observer honours OpenSpiel's ``IIGObservationType``:

* ``public_info``: what every seat is told (the world, the displays, the discard piles, the
  cards in front, the backs of the hands, the deck sizes, the decision; the log as no seat in
  particular saw it);
* ``private_info``: ``SINGLE_PLAYER`` adds what the seat alone is told (its hand, the stolen
  cards it sees, its own blind draws); ``NONE`` leaves it out; ``ALL_PLAYERS`` is not provided
  (an observer of every hand is no seat's), and asking for it raises ``ValueError``;
* ``perfect_recall``: the string adds the log (the key's), the tensor the *history*: every
  move of the game so far as the seat saw it, one number a move (below).

Every card is named by its face (a face id in a string, a class in a tensor), so two games that
differ only in which copies of a face are where give a seat equal strings and tensors.

**The tensor** is float32, filled in place in the observer's buffer (``observer.tensor``, which
``observer.dict`` hands to OpenSpiel as one piece; its named pieces are in
``observer.pieces``), never built as a Python list. Its pieces are
[`PIECES`][gaia_rules.openspiel.observer.PIECES], in order: the world as up to 48 tiles in
square order (each a row of `TILE_FIELDS`: its square's coordinates, land, tokens, its city's
needs, satisfaction and pawns by seat, and the marks of the pending decision), then counts and
one-hot fields as in [`gaia_rules.rl.observation`][gaia_rules.rl.observation] (card classes of
[`gaia_rules.rl.encoding`][gaia_rules.rl.encoding], seats counted from the observer), then,
for perfect recall only, ``history``: one number per move seen, in order, ``0`` after the
last. A move is ``1 + i`` for a player's action of index ``i``, ``-1 - c`` for a card of class
``c`` turned up or seen (``c`` from ``CARD_CLASSES`` on: an Objective's rank), and
``-1 - CHANCE_OUTCOMES`` for a card the seat was not shown. The history is there for perfect
recall (it gives back every move the seat saw); a learner reads the pieces before it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel

from gaia_rules.actions import KeepCard, PlayEarthquake, PlayTornado
from gaia_rules.cards import CityCard
from gaia_rules.decisions import (
    ChooseAction,
    ChooseBack,
    ChooseFeeding,
    ChoosePawnCities,
    ChooseProtection,
    PowerEffect,
)
from gaia_rules.events import (
    ActionTaken,
    CardDiscarded,
    CardDrawn,
    CardKept,
    CardStolen,
    DisplayRefilled,
    Event,
    StolenCardsSeen,
)
from gaia_rules.information import canonical_text, events_since
from gaia_rules.openspiel.chance import CHANCE_OUTCOMES
from gaia_rules.rl.encoding import (
    CARD_CLASSES,
    DECISIONS,
    LEVELS,
    MAX_OBJECTIVES,
    MAX_SEATS,
    ActionSpace,
    EncodingError,
)
from gaia_rules.table import Chain
from gaia_rules.views import View
from gaia_rules.vocabulary import ANIMALS, LANDS, CardKind, Need, Pos, Power

if TYPE_CHECKING:
    from gaia_rules.game import Game
    from gaia_rules.openspiel.game import GaiaState

__all__ = [
    "HIDDEN",
    "HISTORY",
    "PIECES",
    "TILES",
    "TILES_AT",
    "TILE_FIELDS",
    "VIEW_SIZE",
    "GaiaObserver",
    "MoveCodes",
    "PublicEntries",
    "city_needs",
    "dense",
    "inverse_frame",
    "private_part",
    "private_values",
    "public_entries",
    "public_part",
    "public_values",
    "seat_frame",
]

TILES: Final = 48
"""The most tiles a world holds (spec 2.1)."""
_NEEDS: tuple[Need, ...] = (*LANDS, ANIMALS)
TILE_FIELDS: tuple[str, ...] = (
    "tile",
    "x",
    "y",
    *(f"land:{land.value}" for land in LANDS),
    "animal tokens",
    *(f"city needs:{need.value}" for need in _NEEDS),
    "city satisfaction",
    *(f"pawns of seat +{k}" for k in range(MAX_SEATS)),
    "reached four",
    "named by the decision",
    "target of the waiting Power",
)
"""The fields of a tile's row: 1 for a tile, its square's ``x`` and ``y``, its land
(one-hot), the tokens on it, its city's needs and their count met, the pawns on it by seat
(counted from the observer), whether the city reached four needs (12.4), whether the
decision names it (a city to feed, to take pawns) and whether the Power waiting in a
Protection window targets it."""

_KINDS = tuple(CardKind)
_POWERS = tuple(Power)

HISTORY: Final = 5_000 + 512
"""How many moves the history holds: the game's bound on decisions
(`MAX_GAME_LENGTH`) and room for every card the deal, the decks and the Tornados turn up."""

HIDDEN: Final = -1 - CHANCE_OUTCOMES
"""The history's number for a card the seat was not shown."""

PIECES: tuple[tuple[str, int, bool], ...] = (
    ("seats in play", MAX_SEATS, False),
    ("level", len(LEVELS), False),
    ("tiles", TILES * len(TILE_FIELDS), False),
    ("hand", CARD_CLASSES, True),
    ("hand backs", MAX_SEATS * len(_KINDS), False),
    ("deck sizes", len(_KINDS), False),
    ("displays", CARD_CLASSES, False),
    ("discards", CARD_CLASSES, False),
    ("cards in front", MAX_SEATS * CARD_CLASSES, False),
    ("objectives revealed", MAX_OBJECTIVES, False),
    ("objective pawns", MAX_OBJECTIVES * MAX_SEATS, False),
    ("stolen backs", MAX_SEATS * len(_KINDS), False),
    ("stolen cards seen", MAX_SEATS * CARD_CLASSES, True),
    ("pawns in supply", MAX_SEATS, False),
    ("pawns per seat", 1, False),
    ("tile supply", len(LANDS), False),
    ("bank", 1, False),
    ("active seat", MAX_SEATS, False),
    ("seat to move", MAX_SEATS, False),
    ("decision", len(DECISIONS), False),
    ("action number", 2, False),
    ("Power player", MAX_SEATS, False),
    ("Power card against", CARD_CLASSES, False),
    ("waiting Power", len(_POWERS), False),
    ("Tornado victim", MAX_SEATS, False),
    ("chance to decide", 1, False),
    ("game over", 1, False),
    ("winner", MAX_SEATS, False),
)
"""The pieces of the tensor before the history: name, size, and whether it is private (the
seat's own; left at zero by an observer of public information only)."""

_AT: dict[str, int] = {}
_start = 0
for _name, _size, _ in PIECES:
    _AT[_name] = _start
    _start += _size
VIEW_SIZE: Final = _start
"""The size of the pieces before the history."""
PublicEntries = tuple[list[int], list[float], list[float]]
"""What `public_entries` returns."""
_LAND = {land: i for i, land in enumerate(LANDS)}
_KIND_INDEX = {kind: i for i, kind in enumerate(_KINDS)}
_NEED = {need: i for i, need in enumerate(_NEEDS)}
_W = len(TILE_FIELDS)
_F_LAND, _F_TOKENS = 3, 3 + len(LANDS)
_F_NEEDS = _F_TOKENS + 1
_F_MET = _F_NEEDS + len(_NEEDS)
_F_PAWNS = _F_MET + 1
_F_FOUR = _F_PAWNS + MAX_SEATS
_F_NAMED, _F_TARGET = _F_FOUR + 1, _F_FOUR + 2


def city_needs(space: ActionSpace) -> dict[str, tuple[int, ...]]:
    """The need fields of every City card of the space's manifest."""
    return {
        card: tuple(_NEED[need] for need in face.needs)
        for card, face in space.manifest.cards
        if isinstance(face, CityCard)
    }


def public_values(
    view: View, space: ActionSpace, needs: dict[str, tuple[int, ...]], chance: bool
) -> npt.NDArray[np.float32]:
    """The public pieces of a key's ``view``, every seat counted from seat 0: `seat_frame`
    turns them to another seat's frame. Computed once per moment and shared by every seat's
    tensor, since what is public is the same for all (the seat's own pieces are
    `private_values`). The array of `public_entries`."""
    return dense(public_entries(vars(view), space, needs, chance))


def dense(entries: PublicEntries) -> npt.NDArray[np.float32]:
    """`public_values` from its `public_entries`."""
    places, values, tiles = entries
    array = np.zeros(VIEW_SIZE, np.float32)
    array[_A_TILES : _A_TILES + len(tiles)] = tiles
    array[places] = values
    return array


def public_entries(
    view: Mapping[str, Any], space: ActionSpace, needs: dict[str, tuple[int, ...]], chance: bool
) -> PublicEntries:
    """`public_values` as what a tensor's list is written from: the places that may hold
    something other than 0 (each once) and their values, but for the tiles' rows without
    their pawns, given as floats from their first place (``TILES_AT``; the same in every
    seat's frame: a seat's tensor copies them as one slice). ``view`` is a view's fields
    (``vars(view)``), or those every seat is told alike
    ([`public_fields`][gaia_rules.information.public_fields]).

    Hot path: written as two lists (a numpy array written place by place, or built from
    lists, cost more), the tiles' rows and the piles' counts kept while they are the same
    (`_tile_rows`, `_discard_counts`, `_front_counts`), and only the places that change
    with the moment found anew."""
    classes = space.card_class
    players = view["players"]
    at = [*_SEATS_AT[players], _A_LEVEL + LEVELS.index(view["rules"].level)]
    value = [1.0] * (players + 1)
    put_at, put = at.append, value.append
    decision = view["decision"]
    tiles, pawn_at, pawn_values, rows = _tile_rows(view, needs)
    at += pawn_at
    value += pawn_values
    if isinstance(decision, _NAMING_CITIES):
        for square in set(decision.cities):
            if square in rows:
                put_at(rows[square] + _F_NAMED)
                put(1.0)
    waiting = None
    for step in reversed(view["steps"]):
        if isinstance(step, PowerEffect):
            waiting = step.action
            break
    if waiting is not None:
        targets: set[Pos] = set()
        if isinstance(waiting, PlayEarthquake):
            targets = {waiting.first, waiting.second}
        elif not isinstance(waiting, PlayTornado):
            targets = {waiting.pos}
        for target in targets:
            if target in rows:
                put_at(rows[target] + _F_TARGET)
                put(1.0)
    for other, backs in enumerate(view["hand_backs"]):
        back_at, back_values = _back_counts(other, backs)
        at += back_at
        value += back_values
    shown_at, shown_values = _shown_counts(classes, tuple(view["displays"].values()))
    at += shown_at
    value += shown_values
    stolen = view["stolen"]
    if stolen:
        counts: dict[int, int] = {}
        for back, source, _ in stolen:
            place = _A_STOLEN_BACKS + source * _NKINDS + _KIND_INDEX[back]
            counts[place] = counts.get(place, 0) + 1
        at += counts.keys()
        value += map(float, counts.values())
    deck_sizes = view["deck_sizes"]
    for i, kind in enumerate(_KINDS):
        put_at(_A_DECK_SIZES + i)
        put(float(deck_sizes.get(kind, 0)))
    ranks = space.objective_rank
    for card in view["objectives"]:
        put_at(_A_OBJECTIVES + ranks[card])
        put(1.0)
    for card, owner in view["objective_pawns"].items():
        put_at(_A_OBJECTIVE_PAWNS + ranks[card] * MAX_SEATS + owner)
        put(1.0)
    for other, left in enumerate(view["supply"]):
        put_at(_A_SUPPLY + other)
        put(float(left))
    tile_supply = view["tile_supply"]
    at += (_A_TOTAL_PAWNS, *_TILE_SUPPLY_AT, _A_BANK, _A_ACTIVE + view["active"])
    value += (
        float(view["total_pawns"]),
        *[float(tile_supply.get(land, 0)) for land in LANDS],
        float(view["bank"]),
        1.0,
    )
    if decision is not None:
        at += (_A_TO_MOVE + decision.player, _A_DECISION + _DECISION_INDEX[type(decision)])
        value += (1.0, 1.0)
        match decision:
            case ChooseAction(_, number):
                put_at(_A_ACTION_NUMBER + number - 1)
                put(1.0)
            case ChooseProtection(_, power_player, against, _):
                at += (_A_POWER_PLAYER + power_player, _A_POWER_AGAINST + classes[against])
                value += (1.0, 1.0)
            case ChooseBack(_, victim, _):
                put_at(_A_TORNADO_VICTIM + victim)
                put(1.0)
    if waiting is not None:
        power = space.manifest.power(waiting.card)
        if power is not None:
            put_at(_A_WAITING + _POWERS.index(power))
            put(1.0)
    if chance:
        put_at(_A_CHANCE)
        put(1.0)
    if view["result"] is not None:
        at += (_A_GAME_OVER, _A_WINNER + view["result"].winner)
        value += (1.0, 1.0)
    pile_at, pile_values = _discard_counts(classes, tuple(view["discards"].values()))
    at += pile_at
    value += pile_values
    for other, cards in enumerate(view["tableaux"]):
        pile_at, pile_values = _front_counts(classes, other, cards)
        at += pile_at
        value += pile_values
    return at, value, tiles


_SEATS_AT = tuple(tuple(_AT["seats in play"] + k for k in range(n)) for n in range(MAX_SEATS + 1))
"""The places of the seats in play, by their count."""
_A_LEVEL = _AT["level"]
_NAMING_CITIES = (ChooseFeeding, ChoosePawnCities)
"""The decisions that name cities (marked on the tiles' rows)."""
_A_HAND_BACKS, _A_DISPLAYS = _AT["hand backs"], _AT["displays"]
_A_DISCARDS, _A_FRONT = _AT["discards"], _AT["cards in front"]
_A_TILES: Final = _AT["tiles"]
TILES_AT: Final = _A_TILES
"""Where the tiles' rows begin."""
_A_STOLEN_BACKS, _A_DECK_SIZES = _AT["stolen backs"], _AT["deck sizes"]
_A_OBJECTIVES, _A_OBJECTIVE_PAWNS = _AT["objectives revealed"], _AT["objective pawns"]
_A_SUPPLY, _A_TOTAL_PAWNS, _A_BANK = _AT["pawns in supply"], _AT["pawns per seat"], _AT["bank"]
_TILE_SUPPLY_AT = tuple(_AT["tile supply"] + i for i in range(len(LANDS)))
_A_ACTIVE, _A_TO_MOVE, _A_DECISION = _AT["active seat"], _AT["seat to move"], _AT["decision"]
_A_ACTION_NUMBER, _A_POWER_PLAYER = _AT["action number"], _AT["Power player"]
_A_POWER_AGAINST, _A_WAITING = _AT["Power card against"], _AT["waiting Power"]
_A_TORNADO_VICTIM, _A_CHANCE = _AT["Tornado victim"], _AT["chance to decide"]
_A_GAME_OVER, _A_WINNER = _AT["game over"], _AT["winner"]
_NKINDS = len(_KINDS)
_DECISION_INDEX = {decision: i for i, decision in enumerate(DECISIONS)}


Places = list[int]
"""Places of the view's part of a tensor (a list: a numpy array built from a few dozen
places, joined and turned back into a list cost a tensor more than the list)."""


def _back_counts(seat: int, backs: tuple[CardKind, ...]) -> tuple[list[int], list[float]]:
    """The places of seat ``seat``'s hand backs in `public_values` and how many of each
    back it holds. Lists that may be shared: never change them.

    Hot path: a hand changes about once a turn of its seat, so the answer is kept by the
    seat and its backs (which `public_fields` gives as the same tuple for the same hand)."""
    found = _BACK_COUNTS.get((seat, backs))
    if found is None:
        counts: dict[int, int] = {}
        row = _A_HAND_BACKS + seat * _NKINDS
        for back in backs:
            counts[row + _KIND_INDEX[back]] = counts.get(row + _KIND_INDEX[back], 0) + 1
        if len(_BACK_COUNTS) >= _BACK_COUNTS_KEPT:
            _BACK_COUNTS.clear()
        found = _BACK_COUNTS[seat, backs] = (list(counts), list(map(float, counts.values())))
    return found


_BACK_COUNTS: dict[tuple[int, tuple[CardKind, ...]], tuple[list[int], list[float]]] = {}
"""`_back_counts` of the hands seen so far."""
_BACK_COUNTS_KEPT: Final = 4096


def _shown_counts(
    classes: dict[str, int], displays: tuple[tuple[str, ...], ...]
) -> tuple[list[int], list[float]]:
    """The places of the displays' cards in `public_values` and how many of each class they
    show. Lists that may be shared: never change them.

    Hot path: the displays change at most a few times a turn, so the last answer is kept
    and given again while they are the same (compared in C, the piles by identity first:
    the table replaces a pile whole)."""
    kept = _SHOWN[0]
    if kept is not None and kept[0] is classes and kept[1] == displays:
        found: tuple[list[int], list[float]] = kept[2]
        return found
    counts: dict[int, int] = {}
    for pile in displays:
        for card in pile:
            place = _A_DISPLAYS + classes[card]
            counts[place] = counts.get(place, 0) + 1
    found = (list(counts), list(map(float, counts.values())))
    _SHOWN[0] = (classes, displays, found)
    return found


_SHOWN: list[Any] = [None]
"""The last answer of `_shown_counts`, with what it was found from."""


def _tile_rows(
    view: Mapping[str, Any], needs: dict[str, tuple[int, ...]]
) -> tuple[list[float], list[int], list[float], dict[Pos, int]]:
    """The tiles' rows of `public_values` (their lands, animals, cities and pawns): the
    rows from their first place without the pawns, as floats (the same in every seat's
    frame, which orders only the pawns by seat), the places and values of the pawns, and
    each square's row.

    Hot path: the rows cost most of a tensor, and the world changes at most once a turn, so
    the last answer is kept and given again while the view's world is the same (comparing
    the dicts is done in C, the city states mostly by identity: `city_states` keeps them)."""
    four = view["reached_four"]
    kept = _TILES[0]
    if (
        kept is not None
        and kept[0] is needs
        and (kept[1] is view["tiles"] or kept[1] == view["tiles"])
        and (kept[2] is view["animals"] or kept[2] == view["animals"])
        and (kept[3] is view["cities"] or kept[3] == view["cities"])
        and kept[4] == four
    ):
        found: tuple[list[float], list[int], list[float], dict[Pos, int]] = kept[5]
        return found
    floats: list[float] = []
    pawn_at: list[int] = []
    pawn_values: list[float] = []
    rows: dict[Pos, int] = {}
    animals_get, cities_get = view["animals"].get, view["cities"].get
    known = _ROWS
    if len(known) >= _ROWS_KEPT:
        known.clear()
    known_get = known.get
    row = _A_TILES - _W
    for pos, land in view["tiles"].items():
        row += _W
        rows[pos] = row
        city = cities_get(pos)
        if city is None:
            line = known_get((pos, land, animals_get(pos, 0)))
            if line is not None and line[0] is needs:
                floats += line[1]
                continue
            key: tuple[Any, ...] = (pos, land, animals_get(pos, 0))
        else:
            key = (pos, land, animals_get(pos, 0), city.card, city.satisfaction, pos in four)
            pawns = city.pawns
            for pawn_seat in set(pawns):
                pawn_at.append(row + _F_PAWNS + pawn_seat)
                pawn_values.append(float(pawns.count(pawn_seat)))
        line = known_get(key)
        if line is None or line[0] is not needs:
            line = known[key] = (needs, _tile_row(key, needs))
        floats += line[1]
    found = (floats, pawn_at, pawn_values, rows)
    _TILES[0] = (needs, view["tiles"], view["animals"], view["cities"], four, found)
    return found


def _tile_row(key: tuple[Any, ...], needs: dict[str, tuple[int, ...]]) -> tuple[float, ...]:
    """A tile's row without its pawns, from what `_tile_rows` keys it by: its square, land
    and tokens, and its city's card, satisfaction and whether it reached four needs."""
    pos, land, tokens = key[:3]
    row = [0.0] * _W
    row[0], row[1], row[2] = 1.0, float(pos.x), float(pos.y)
    row[_F_LAND + _LAND[land]] = 1.0
    if tokens:
        row[_F_TOKENS] = float(tokens)
    if len(key) > 3:
        card, satisfaction, four = key[3:]
        for need in needs[card]:
            row[_F_NEEDS + need] = 1.0
        row[_F_MET] = float(satisfaction)
        if four:
            row[_F_FOUR] = 1.0
    return tuple(row)


_ROWS: dict[tuple[Any, ...], tuple[dict[str, tuple[int, ...]], tuple[float, ...]]] = {}
"""`_tile_row` of the tiles seen so far, by what they hold, with the cities' needs it was
found with. Hot path: a change of the world changes a square or two, and building every
row again cost a tensor about a tenth."""
_ROWS_KEPT: Final = 8192


_TILES: list[Any] = [None]
"""The last answer of `_tile_rows`, with what it was found from."""


def _discard_counts(
    classes: dict[str, int], piles: tuple[tuple[str, ...], ...]
) -> tuple[Places, list[float]]:
    """The places of the discard piles' cards in `public_values` and how many of each class
    they hold. Lists that may be shared: never change them.

    Hot path: the discard piles grow to scores of cards and change about once a turn, so
    the last answer is kept and given again while the piles are the same (the comparison is
    by identity first, in C: the table replaces a pile whole)."""
    kept = _DISCARDS[0]
    if kept is not None and kept[0] is classes and kept[1] == piles:
        found: tuple[Places, list[float]] = kept[2]
        return found
    counts: dict[int, int] = {}
    get = counts.get
    for pile in piles:
        for card_class, count in _classes_in(pile, classes):
            place = _A_DISCARDS + card_class
            counts[place] = get(place, 0) + count
    found = (list(counts), list(map(float, counts.values())))
    _DISCARDS[0] = (classes, piles, found)
    return found


_DISCARDS: list[Any] = [None]
"""The last answer of `_discard_counts`, with what it was found from."""


def _front_counts(
    classes: dict[str, int], seat: int, cards: tuple[str, ...]
) -> tuple[Places, list[float]]:
    """The places of the cards in front of seat ``seat`` in `public_values` and how many of
    each class it holds. Lists that may be shared: never change them.

    Hot path: a seat's cards in front change about once a turn of its seat, and those of
    one seat at a time, so each seat's last answer is kept apart and given again while its
    pile is the same (by identity first: the table replaces a pile whole)."""
    kept = _FRONTS[seat]
    if kept is not None and kept[0] is classes and (kept[1] is cards or kept[1] == cards):
        found: tuple[Places, list[float]] = kept[2]
        return found
    row = _A_FRONT + seat * CARD_CLASSES
    pairs = _classes_in(cards, classes)
    found = ([row + card_class for card_class, _ in pairs], [float(n) for _, n in pairs])
    _FRONTS[seat] = (classes, cards, found)
    return found


_FRONTS: list[Any] = [None] * MAX_SEATS
"""The last answer of `_front_counts` for each seat, with what it was found from."""


def _classes_in(pile: tuple[str, ...], classes: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """How many cards of each class ``pile`` holds (a card without a class left out).

    Hot path: a pile changes by a card or two at a time and grows to scores of cards, so
    the answer is kept by the pile (a tuple) with the classes it was found with."""
    found = _PILE_CLASSES.get(pile)
    if found is not None and found[0] is classes:
        return found[1]
    counts: dict[int, int] = {}
    for card in pile:
        if card in classes:
            counts[classes[card]] = counts.get(classes[card], 0) + 1
    if len(_PILE_CLASSES) >= _PILE_CLASSES_KEPT:
        _PILE_CLASSES.clear()
    answer = tuple(counts.items())
    _PILE_CLASSES[pile] = (classes, answer)
    return answer


_PILE_CLASSES: dict[tuple[str, ...], tuple[dict[str, int], tuple[tuple[int, int], ...]]] = {}
"""`_classes_in` of the piles seen so far."""
_PILE_CLASSES_KEPT: Final = 4096


_SEAT_ROWS: tuple[tuple[int, int], ...] = tuple(
    (_AT[name], width)
    for name, width in (
        ("hand backs", len(_KINDS)),
        ("cards in front", CARD_CLASSES),
        ("stolen backs", len(_KINDS)),
        ("pawns in supply", 1),
        ("active seat", 1),
        ("seat to move", 1),
        ("Power player", 1),
        ("Tornado victim", 1),
        ("winner", 1),
    )
)
"""The pieces laid out seat by seat (a row each), and the width of a row."""


def seat_frame(values: npt.NDArray[np.float32], seat: int, players: int) -> None:
    """Turn the public pieces ``values`` (in place) from seat 0's frame to ``seat``'s: seat
    ``seat + k`` becomes seat ``+k`` (`public_values`)."""
    if seat != 0:
        values[:] = values[_frame(seat, players)]


@functools.lru_cache(maxsize=MAX_SEATS * MAX_SEATS)
def _frame(seat: int, players: int) -> npt.NDArray[np.intp]:
    """The places, in seat 0's frame, of the public pieces in ``seat``'s: a permutation that
    turns each piece laid out seat by seat (`_SEAT_ROWS`, the Objectives' pawns, the pawns on
    each tile) by ``seat`` among the ``players`` seats."""
    order = np.arange(VIEW_SIZE)
    for start, width in _SEAT_ROWS:
        rows = order[start : start + players * width].reshape(players, width)
        rows[:] = np.roll(rows, -seat, axis=0)
    pawns = order[_AT["objective pawns"] : _AT["objective pawns"] + MAX_OBJECTIVES * MAX_SEATS]
    by_seat = pawns.reshape(MAX_OBJECTIVES, MAX_SEATS)[:, :players]
    by_seat[:] = np.roll(by_seat, -seat, axis=1)
    tiles = order[_AT["tiles"] : _AT["tiles"] + TILES * _W].reshape(TILES, _W)
    on_tiles = tiles[:, _F_PAWNS : _F_PAWNS + players]
    on_tiles[:] = np.roll(on_tiles, -seat, axis=1)
    order.flags.writeable = False
    return order


@functools.lru_cache(maxsize=MAX_SEATS * MAX_SEATS)
def inverse_frame(seat: int, players: int) -> tuple[int, ...]:
    """Where each place of seat 0's frame goes in ``seat``'s: the inverse of `_frame`, as a
    tuple (a tensor looks up a few dozen places in it, one by one)."""
    order = _frame(seat, players)
    inverse = np.empty_like(order)
    inverse[order] = np.arange(len(order))
    return tuple(inverse.tolist())


def private_values(
    hand: Sequence[str],
    stolen: Sequence[tuple[CardKind, int, str | None]],
    seat: int,
    players: int,
    space: ActionSpace,
) -> tuple[list[int], list[float]]:
    """The places and values of what only a key's seat is told: its ``hand``, and the
    ``stolen`` cards it sees (by the seat they came from, counted from it). Lists that may be
    shared: never change them.

    Hot path: a hand changes about once a turn of its seat, so without stolen cards (most
    moments) the answer is kept by the hand (a tuple of face ids) and its manifest."""
    if not stolen and isinstance(hand, tuple):
        found = _HANDS.get(hand)
        if found is not None and found[0] is space:
            return found[1]
    classes = space.card_class
    counts: dict[int, int] = {}
    for card in hand:
        place = _A_HAND + classes[card]
        counts[place] = counts.get(place, 0) + 1
    for _, source, seen in stolen:
        if seen is not None:
            offset = (source - seat) % players
            place = _AT["stolen cards seen"] + offset * CARD_CLASSES + classes[seen]
            counts[place] = counts.get(place, 0) + 1
    answer = (list(counts), list(map(float, counts.values())))
    if not stolen and isinstance(hand, tuple):
        if len(_HANDS) >= _HANDS_KEPT:
            _HANDS.clear()
        _HANDS[hand] = (space, answer)
    return answer


_HANDS: dict[tuple[str, ...], tuple[ActionSpace, tuple[list[int], list[float]]]] = {}
"""`private_values` of the hands seen without stolen cards, with the space they hold for."""
_HANDS_KEPT: Final = 4096
_A_HAND: Final = _AT["hand"]


class MoveCodes:
    """One seat's history (see the module docstring), found event by event as its log grows:
    each decision a player took, and each card turned up or seen. What follows from them (a
    tile placed, a pawn) is left out, since the moves give it back. An event gives the same
    count of numbers whoever sees it, so the histories of the seat and of no seat in
    particular line up, and what differs between them is the seat's own.

    Hot path: a tensor is asked of every seat at every step of an environment, so the numbers
    are kept as a list of floats (what a tensor's list is written from), written once each,
    and found from the events as the engine
    logged them (`events_since`): a number names a card by its class, the same for every
    copy of a face, so only what the seat may not see is redacted here (as `redact` does:
    another seat's face-down draw, a stolen card, a kept one), where renaming each event for
    the seat's key cost a call about a third."""

    __slots__ = ("codes", "key", "players", "seat", "space", "start", "stolen", "until")

    def __init__(
        self, space: ActionSpace, players: int, seat: int, before: Sequence[int] = ()
    ) -> None:
        self.space = space
        self.players = players
        self.key = (space, players)
        """What an action's index depends on (`_ENCODED`)."""
        self.seat = seat
        """The seat (-1: no seat in particular)."""
        self.until: Chain = None
        """The game's log as far as it is read."""
        self.codes = [float(code) for code in before]
        """The numbers, ``before`` (the deal) first."""
        self.start = len(before)
        self.stolen = 0
        """The cards a Tornado has taken since the thief last looked."""

    def copy(self) -> MoveCodes:
        new = MoveCodes.__new__(MoveCodes)
        new.space, new.players, new.key, new.seat = self.space, self.players, self.key, self.seat
        new.until, new.start = self.until, self.start
        new.codes, new.stolen = self.codes.copy(), self.stolen
        return new

    def read(self, game: Game) -> list[float]:
        """The history, once the events ``game`` logged since the last read are read: the
        list held (never change it), which the next read may extend."""
        found = events_since(game, self.until, _CODED)
        if found is None:  # another game's log: read it from its start
            del self.codes[self.start :]
            self.stolen = 0
            found = events_since(game, None, _CODED)
            assert found is not None
        self.until, events = found
        if events:
            codes = self._codes(events)
            end = len(self.codes) + len(codes)
            if end > HISTORY:
                raise EncodingError(f"{end} moves: the history holds {HISTORY}")
            self.codes += map(float, codes)
        return self.codes

    def _codes(self, events: Sequence[Event]) -> list[int]:
        space, players, seat = self.space, self.players, self.seat
        classes = space.card_class
        codes: list[int] = []
        put = codes.append
        for event in events:  # of the types of `_CODED` alone
            kind = type(event)
            if kind is ActionTaken:
                taken: ActionTaken = event  # type: ignore[assignment]
                action = taken.action
                # a kept card: CardKept says it, and whose
                if action is not None and not taken.by_engine and not isinstance(action, KeepCard):
                    known = _ENCODED.get(id(taken))
                    if known is None or known[0] is not taken or known[1] != self.key:
                        if len(_ENCODED) >= _ENCODED_KEPT:
                            _ENCODED.clear()
                        code = space.encode(action, players)
                        known = _ENCODED[id(taken)] = (taken, self.key, code)
                    put(1 + known[2])
            elif kind is CardDrawn:
                drawn: CardDrawn = event  # type: ignore[assignment]
                if not drawn.from_display:
                    card = drawn.card if drawn.player == seat else None
                    put(HIDDEN if card is None else -1 - classes[card])
            elif kind is DisplayRefilled or kind is CardDiscarded:
                shown: DisplayRefilled | CardDiscarded = event  # type: ignore[assignment]
                put(-1 - classes[shown.card])
            elif kind is CardStolen:
                stolen: CardStolen = event  # type: ignore[assignment]
                card = stolen.card if stolen.victim == seat else None
                put(HIDDEN if card is None else -1 - classes[card])
                self.stolen += 1
            elif kind is StolenCardsSeen:
                seen: StolenCardsSeen = event  # type: ignore[assignment]
                cards = seen.cards if seen.player == seat else None
                if cards is None:
                    codes += [HIDDEN] * self.stolen
                else:
                    codes += [-1 - classes[card] for card in cards]
                self.stolen = 0
            elif kind is CardKept:
                kept: CardKept = event  # type: ignore[assignment]
                thief, source = kept.player, kept.from_player
                card = kept.card if seat in (thief, source) else None
                if card is None:
                    put(HIDDEN - (source - thief) % players)
                else:
                    put(1 + space.encode_keep(KeepCard(thief, card), source, players))
        return codes


_ENCODED: dict[int, tuple[ActionTaken, tuple[ActionSpace, int], int]] = {}
"""The index of each action logged, by the event's identity (the event kept with it, so an
id is never taken for another's, and the space and the count of seats it was encoded for):
every seat's history reads the same events (copies of a game share their log), and encoding
an action cost more than looking it up."""
_ENCODED_KEPT: Final = 4096


_CODED: Final = frozenset(
    (ActionTaken, CardDrawn, DisplayRefilled, CardDiscarded, CardStolen, StolenCardsSeen, CardKept)
)
"""The events a number stands for; the others (most of a log: tiles, pawns, turns) are
skipped first."""


class GaiaObserver:
    """What one seat observes, as OpenSpiel's Python observers give it (see the module
    docstring): ``set_from`` fills ``tensor`` in place, ``string_from`` returns a string."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_gaia provides no observation of every seat's private information"
            )
        self.public = bool(obs_type.public_info)
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(obs_type.perfect_recall)
        size = VIEW_SIZE + (HISTORY if self.perfect_recall else 0)
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        """What OpenSpiel copies out: the whole tensor, as one piece (OpenSpiel copies each
        piece apart, and one piece costs a fraction of many)."""
        self.recalled = 0
        """How many moves the history holds after the last ``set_from`` (the rest is 0)."""
        self.pieces: dict[str, npt.NDArray[np.float32]] = {}
        """The named pieces of ``tensor`` (`PIECES`, and ``history``), each a view into it."""
        if self.public or self.private:
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}
            start = 0
            for name, piece, _ in PIECES:
                self.pieces[name] = self.tensor[start : start + piece]
                start += piece
            self.pieces["tiles"] = self.pieces["tiles"].reshape(TILES, _W)
            if self.perfect_recall:
                self.pieces["history"] = self.tensor[VIEW_SIZE:]

    def __repr__(self) -> str:
        return (
            f"GaiaObserver(public={self.public}, private={self.private}, "
            f"perfect_recall={self.perfect_recall})"
        )

    def set_from(self, state: GaiaState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` observes in ``state``."""
        tensor = self.tensor
        if tensor is None:
            return
        own = state.own_cards(player)
        if own is None:  # the deal goes on: nothing but the history yet
            tensor.fill(0)
        else:
            view = tensor[:VIEW_SIZE]
            pygame = state.pygame()
            players = pygame.players
            if self.public:  # turned to the seat's frame as it is copied: one pass, not two
                np.take(state.public_values(), _frame(player, players), out=view)
            else:
                view.fill(0)
            if self.private:
                hand, stolen = own
                at, value = private_values(hand, stolen, player, players, pygame.space)
                view[at] = value
        if self.perfect_recall:
            history = tensor[VIEW_SIZE:]
            codes = state.history_codes(player, self.public, self.private)
            history[: len(codes)] = codes
            history[len(codes) :] = 0
            self.recalled = len(codes)

    def string_from(self, state: GaiaState, player: int) -> str:
        """What ``player`` observes in ``state``, as text (see the module docstring)."""
        if not (self.public or self.private):
            return ""
        return state.observation_text(player, self.public, self.private, self.perfect_recall)


def public_part(view_data: dict[str, Any]) -> dict[str, Any]:
    """A key's view as data, without what only its seat is told."""
    data = {k: v for k, v in view_data.items() if k not in ("seat", "hand")}
    data["stolen"] = [[back, source, None] for back, source, _ in view_data["stolen"]]
    return data


def private_part(view_data: dict[str, Any]) -> dict[str, Any]:
    """What only a key's seat is told in its view: its hand and the stolen cards it sees."""
    return {
        "seat": view_data["seat"],
        "hand": view_data["hand"],
        "stolen": [[back, source, card] for back, source, card in view_data["stolen"] if card],
    }


def texts(values: Sequence[Any]) -> str:
    """Canonical texts of JSON-ready ``values``, joined as a JSON list."""
    return "[" + ",".join(canonical_text(value) for value in values) + "]"
