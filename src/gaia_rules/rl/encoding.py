"""The integer action space: every action any decision can offer has exactly one index.

The space is fixed for every game of a set of rules, versioned
([`ACTION_SPACE_VERSION`][gaia_rules.rl.encoding.ACTION_SPACE_VERSION]) and documented in the
guide "Train and evaluate agents", whose table is checked against
[`BLOCKS`][gaia_rules.rl.encoding.BLOCKS] by a test. Pure Python: no numpy.

**Squares.** The box holds 48 land tiles and every tile is placed edge-adjacent to one in play
(spec 2.1, 7.2), so no tile ever lies more than 47 steps from the first at ``Pos(0, 0)``: the
squares a tile can occupy are the diamond ``|x| + |y| <= 47``, 4,513 squares, numbered row by
row (``y`` from -47 to 47, then ``x`` upwards).

**Cards.** An action names a card by its *class*: a Nature card by its land, an Animal card by
its site, a Power card by its Power, a City card by its rank among the manifest's City cards in
id order (each city is unique). Cards of one class have equal faces, so playing, drawing or
discarding one or the other is the same move, which the engine lists once (spec 1.12): an index
names that one choice, and the environment plays the action the engine lists for it (the copy
that has been in the hand longest, or a face-up card by its face id, 1.13). A kept Tornado card
is named by its class *and* the seat it came from, since that seat learns which card was kept
(spec 13.8c). Objectives are named by their rank among the manifest's Objective cards.

**Seats** named by an action (a Tornado's victim, the seat a stolen card came from) are counted
from the seat acting: 1 is the next seat in play order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from gaia_rules.actions import (
    Action,
    DeclineObjectives,
    Discard,
    DrawDeck,
    DrawDisplay,
    Feed,
    FulfillObjective,
    KeepCard,
    NameBack,
    PassProtection,
    PlaceCityPawn,
    PlayAnimals,
    PlayCity,
    PlayEarthquake,
    PlayEruption,
    PlayLightning,
    PlayNature,
    PlayRain,
    PlaySun,
    PlayTornado,
    Protect,
)
from gaia_rules.cards import AnimalCard, CardId, CityCard, NatureCard, Objective, PowerCard
from gaia_rules.decisions import (
    ChooseAction,
    ChooseBack,
    ChooseFeeding,
    ChooseKeptCard,
    ChooseLimitDiscard,
    ChooseObjective,
    ChoosePawnCities,
    ChooseProtection,
    Decision,
)
from gaia_rules.errors import GaiaRulesError
from gaia_rules.manifest import Manifest
from gaia_rules.rules import Level, Rules
from gaia_rules.views import View
from gaia_rules.vocabulary import LANDS, STAR, CardKind, Pos, Power, Site

__all__ = [
    "ACTION_COUNT",
    "ACTION_SPACE_VERSION",
    "BLOCKS",
    "CARD_CLASSES",
    "DECISIONS",
    "LEVELS",
    "MAX_CITIES",
    "MAX_OBJECTIVES",
    "MAX_SEATS",
    "RADIUS",
    "SQUARES",
    "ActionSpace",
    "Block",
    "EncodingError",
    "action_space",
    "block_table",
    "class_name",
    "square_index",
    "square_of",
]

ACTION_SPACE_VERSION = 1
"""Bumped whenever an index changes meaning."""

RADIUS = 47
"""The farthest a tile can lie from the first, in steps: 48 tiles in a line."""

MAX_SEATS = 5
MAX_CITIES = 19
"""City cards in the largest box (third edition)."""
MAX_OBJECTIVES = 9

_SQUARES: list[Pos] = [
    Pos(x, y)
    for y in range(-RADIUS, RADIUS + 1)
    for x in range(-(RADIUS - abs(y)), RADIUS - abs(y) + 1)
]
_SQUARE_INDEX: dict[Pos, int] = {pos: index for index, pos in enumerate(_SQUARES)}
SQUARES = len(_SQUARES)
"""How many squares a tile can occupy: 4,513."""

_SITES: tuple[Site, ...] = (*LANDS, STAR)
_KINDS = tuple(CardKind)
_POWERS = tuple(Power)
DECISIONS: tuple[type[Decision], ...] = (
    ChooseAction,
    ChooseFeeding,
    ChooseLimitDiscard,
    ChooseObjective,
    ChoosePawnCities,
    ChooseProtection,
    ChooseBack,
    ChooseKeptCard,
)
"""The decisions in the order of the observations' one-hot ``decision`` piece
([`gaia_rules.rl.observation`][gaia_rules.rl.observation] and OpenSpiel's tensor)."""
LEVELS: tuple[Level, ...] = (Level.BASIC, Level.ADVANCED, Level.POWERS, Level.DISASTERS)
"""The levels in the order of the observations' one-hot ``level`` piece."""
CARD_CLASSES = len(LANDS) + MAX_CITIES + len(_SITES) + len(_POWERS)
"""Nature (6 lands), City (19 ranks), Animals (7 sites), Power (7 Powers): 39."""
_CITY_BASE = len(LANDS)
_ANIMAL_BASE = _CITY_BASE + MAX_CITIES
_POWER_BASE = _ANIMAL_BASE + len(_SITES)

# The four directions of Pos.neighbours (north, east, south, west), and the two of an
# Earthquake's second tile (east, south: the engine names the lower square first).
_FEED_DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))
_QUAKE_DIRECTIONS = ((1, 0), (0, 1))


class EncodingError(GaiaRulesError, ValueError):
    """An action or an index outside the action space (a square beyond the box's reach, a
    manifest with more cards of a face than the box, an index out of range)."""


def square_index(pos: Pos) -> int:
    """The number of a square within the diamond ``|x| + |y| <= 47``.

    Raises:
        EncodingError: the square lies beyond the reach of 48 tiles.
    """
    index = _SQUARE_INDEX.get(pos)
    if index is None:
        raise EncodingError(f"3.1: square {pos} lies beyond {RADIUS} steps from (0, 0)")
    return index


def square_of(index: int) -> Pos:
    """The square numbered ``index`` (the inverse of
    [`square_index`][gaia_rules.rl.encoding.square_index])."""
    if not 0 <= index < SQUARES:
        raise EncodingError(f"no square number {index}: expected 0 to {SQUARES - 1}")
    return _SQUARES[index]


@attrs.frozen
class Block:
    """One kind of action: its indices are ``start`` to ``start + size - 1``, laid out as
    ``shape`` (row-major) whose axes ``axes`` name."""

    name: str
    start: int
    shape: tuple[int, ...]
    axes: tuple[str, ...]

    @property
    def size(self) -> int:
        """How many indices the block holds."""
        return functools.reduce(lambda a, b: a * b, self.shape, 1)


_LAYOUT: tuple[tuple[str, tuple[int, ...], tuple[str, ...]], ...] = (
    ("DrawDisplay", (CARD_CLASSES,), ("card class",)),
    ("DrawDeck", (len(_KINDS),), ("back",)),
    ("Discard", (CARD_CLASSES,), ("card class",)),
    ("FulfillObjective", (MAX_OBJECTIVES,), ("objective rank",)),
    ("DeclineObjectives", (1,), ()),
    ("PlayTornado", (1,), ()),
    ("Protect", (1,), ()),
    ("PassProtection", (1,), ()),
    ("NameBack", (MAX_SEATS - 1, len(_KINDS)), ("victim (seats on)", "back")),
    ("KeepCard", (MAX_SEATS - 1, CARD_CLASSES), ("from (seats on)", "card class")),
    ("PlayNature", (len(LANDS), SQUARES), ("land", "square")),
    ("PlayAnimals", (len(_SITES), SQUARES), ("site", "square")),
    ("PlayCity", (MAX_CITIES, SQUARES), ("city rank", "square")),
    ("PlaySun", (SQUARES,), ("square",)),
    ("PlayRain", (SQUARES,), ("square",)),
    ("PlayLightning", (SQUARES,), ("square",)),
    ("PlayEruption", (SQUARES,), ("square",)),
    ("PlayEarthquake", (len(_QUAKE_DIRECTIONS), SQUARES), ("second tile (east, south)", "first")),
    ("Feed", (len(_FEED_DIRECTIONS), SQUARES), ("source (north, east, south, west)", "city")),
    ("PlaceCityPawn", (SQUARES,), ("city",)),
)


def _blocks() -> tuple[Block, ...]:
    blocks: list[Block] = []
    start = 0
    for name, shape, axes in _LAYOUT:
        block = Block(name, start, shape, axes)
        blocks.append(block)
        start += block.size
    return tuple(blocks)


BLOCKS = _blocks()
"""The blocks of the space, one per kind of action, in index order."""
_START = {block.name: block.start for block in BLOCKS}
ACTION_COUNT = BLOCKS[-1].start + BLOCKS[-1].size
"""The size of the space: 194,321 indices."""


_CARD_ON_SQUARE = frozenset((PlayNature, PlayAnimals, PlayCity))
_PLAYS: dict[str, type[PlayNature | PlayAnimals | PlayCity]] = {
    "PlayNature": PlayNature,
    "PlayAnimals": PlayAnimals,
    "PlayCity": PlayCity,
}
_POWER_PLAYS: dict[str, tuple[type[PlaySun | PlayRain | PlayLightning | PlayEruption], Power]] = {
    "PlaySun": (PlaySun, Power.SUN),
    "PlayRain": (PlayRain, Power.RAIN),
    "PlayLightning": (PlayLightning, Power.LIGHTNING),
    "PlayEruption": (PlayEruption, Power.ERUPTION),
}


def _power_class(power: Power) -> int:
    return _POWER_BASE + _POWERS.index(power)


_POWER_ON_SQUARE: dict[type, int] = {
    kind: _START[kind.__name__] for kind in (PlaySun, PlayRain, PlayLightning, PlayEruption)
}


def _rank(ids: Sequence[CardId], limit: int, what: str) -> dict[CardId, int]:
    if len(ids) > limit:
        raise EncodingError(f"the manifest has {len(ids)} {what} cards; the space holds {limit}")
    return {card: rank for rank, card in enumerate(ids)}


class ActionSpace:
    """The action space of games played with one card manifest (build it with
    [`action_space`][gaia_rules.rl.encoding.action_space]).

    ``size`` indices, the same for every level and player count; ``encode`` gives an action's
    index, ``legal`` maps the indices of a decision's legal actions to the actions.
    """

    blocks: tuple[Block, ...] = BLOCKS
    size: int = ACTION_COUNT
    version: int = ACTION_SPACE_VERSION

    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest
        classes: dict[CardId, int] = {}
        city_rank = _rank(manifest.ids(CityCard), MAX_CITIES, "City")
        self.objective_rank = _rank(manifest.ids(Objective), MAX_OBJECTIVES, "Objective")
        for card, face in manifest.cards:
            match face:
                case NatureCard(land):
                    classes[card] = LANDS.index(land)
                case CityCard():
                    classes[card] = _CITY_BASE + city_rank[card]
                case AnimalCard(site):
                    classes[card] = _ANIMAL_BASE + _SITES.index(site)
                case PowerCard(power):
                    classes[card] = _POWER_BASE + _POWERS.index(power)
        self.card_class = classes
        """The class of every card that can be held (see the module docstring)."""
        self._play_base: dict[CardId, int] = {}
        """Where the plays of each Nature, Animal and City card on a square begin."""
        for card, card_class in classes.items():
            if card_class < _CITY_BASE:
                self._play_base[card] = _START["PlayNature"] + card_class * SQUARES
            elif card_class < _ANIMAL_BASE:
                self._play_base[card] = _START["PlayCity"] + (card_class - _CITY_BASE) * SQUARES
            elif card_class < _POWER_BASE:
                row = card_class - _ANIMAL_BASE
                self._play_base[card] = _START["PlayAnimals"] + row * SQUARES
        self._encoders: dict[type, Callable[[Action], int]] = {
            DrawDisplay: self._draw_display,
            DrawDeck: self._draw_deck,
            Discard: self._discard,
            FulfillObjective: self._fulfil,
            DeclineObjectives: lambda _: _START["DeclineObjectives"],
            PlayTornado: lambda _: _START["PlayTornado"],
            Protect: lambda _: _START["Protect"],
            PassProtection: lambda _: _START["PassProtection"],
            PlayNature: self._on_square,
            PlayAnimals: self._on_square,
            PlayCity: self._on_square,
            PlaySun: self._power_on_square,
            PlayRain: self._power_on_square,
            PlayLightning: self._power_on_square,
            PlayEruption: self._power_on_square,
            PlayEarthquake: self._earthquake,
            Feed: self._feed,
            PlaceCityPawn: self._pawn,
        }

    # -- encoding ----------------------------------------------------------------------

    def encode(self, action: Action, players: int) -> int:
        """The index of ``action`` in a game of ``players`` seats.

        Raises:
            EncodingError: the action names a square beyond the box's reach or a card the
                manifest does not hold.
        """
        match action:
            case NameBack(player, victim, kind):
                offset = (victim - player) % players
                return _START["NameBack"] + (offset - 1) * len(_KINDS) + _KINDS.index(kind)
            case KeepCard():
                raise EncodingError("a kept card needs its source: use encode_keep")
        try:
            return self._encoders[type(action)](action)
        except KeyError:
            raise EncodingError(f"{action!r} is not an action this space knows") from None

    def encode_keep(self, action: KeepCard, source: int, players: int) -> int:
        """The index of keeping a stolen card that came from seat ``source``."""
        offset = (source - action.player) % players
        return _START["KeepCard"] + (offset - 1) * CARD_CLASSES + self._class(action.card)

    def legal(
        self,
        actions: Iterable[Action],
        players: int,
        stolen: Sequence[tuple[object, int, CardId | None]] = (),
    ) -> dict[int, Action]:
        """The index of each of a decision's legal ``actions``, mapped to the action: the
        first listed where several share an index (cards of one class). ``stolen`` is the
        view's ``stolen`` (back, source, card), needed when the decision is a kept card."""
        found: dict[int, Action] = {}
        source = {card: seat for _, seat, card in stolen if card is not None}
        play_base, on_square, squares = self._play_base, _POWER_ON_SQUARE, _SQUARE_INDEX
        for action in actions:
            # Hot path: asked at every step of an environment, over every legal action. The
            # plays on a square, most of a turn's actions, are two dict lookups; anything
            # else, or a square or card out of the space, goes through ``encode``.
            kind = type(action)
            index: int | None = None
            if kind in _CARD_ON_SQUARE:
                base = play_base.get(action.card)  # type: ignore[union-attr]
                square = squares.get(action.pos)  # type: ignore[union-attr]
                if base is not None and square is not None:
                    index = base + square
            elif kind in on_square:
                square = squares.get(action.pos)  # type: ignore[union-attr]
                if square is not None:
                    index = on_square[kind] + square
            elif kind is KeepCard:
                assert isinstance(action, KeepCard)
                if action.card not in source:
                    raise EncodingError(f"{action}: the stolen cards do not say where it came from")
                index = self.encode_keep(action, source[action.card], players)
            if index is None:
                index = self.encode(action, players)
            if index not in found:
                found[index] = action
        return found

    def decode(self, index: int, view: View) -> Action:
        """The action index ``index`` stands for, taken by ``view``'s seat: where cards of one
        class share the index, the first of them in the engine's order (the seat's hand, the
        display, the stolen cards). The inverse of ``encode`` on the seat's legal actions;
        whether the action is legal now is for the game to say.

        Raises:
            EncodingError: the index is out of range, or names a card of a class the seat
                does not hold (or see on the display, or among the stolen cards).
        """
        if not 0 <= index < ACTION_COUNT:
            raise EncodingError(f"no action index {index}: expected 0 to {ACTION_COUNT - 1}")
        block = next(b for b in reversed(BLOCKS) if b.start <= index)
        rest, player = index - block.start, view.seat
        match block.name:
            case "DrawDisplay":
                shown = [card for pile in view.displays.values() for card in pile]
                return DrawDisplay(player, self._first(rest, shown, index))
            case "DrawDeck":
                return DrawDeck(player, _KINDS[rest])
            case "Discard":
                return Discard(player, self._first(rest, view.hand, index))
            case "FulfillObjective":
                ids = self.manifest.ids(Objective)
                if rest >= len(ids):
                    raise EncodingError(f"no Objective of rank {rest} in this box")
                return FulfillObjective(player, ids[rest])
            case "DeclineObjectives":
                return DeclineObjectives(player)
            case "PlayTornado":
                return PlayTornado(
                    player, self._first(_power_class(Power.TORNADO), view.hand, index)
                )
            case "Protect":
                return Protect(
                    player, self._first(_power_class(Power.PROTECTION), view.hand, index)
                )
            case "PassProtection":
                return PassProtection(player)
            case "NameBack":
                offset, kind = divmod(rest, len(_KINDS))
                return NameBack(player, (player + offset + 1) % view.players, _KINDS[kind])
            case "KeepCard":
                offset, card_class = divmod(rest, CARD_CLASSES)
                source = (player + offset + 1) % view.players
                held = [card for _, seat, card in view.stolen if seat == source and card]
                return KeepCard(player, self._first(card_class, held, index))
            case "PlayNature" | "PlayAnimals" | "PlayCity":
                row, square = divmod(rest, SQUARES)
                base = {"PlayNature": 0, "PlayCity": _CITY_BASE, "PlayAnimals": _ANIMAL_BASE}
                card = self._first(base[block.name] + row, view.hand, index)
                play = _PLAYS[block.name]
                return play(player, card, _SQUARES[square])
            case "PlaySun" | "PlayRain" | "PlayLightning" | "PlayEruption":
                power_play = _POWER_PLAYS[block.name]
                card = self._first(_power_class(power_play[1]), view.hand, index)
                return power_play[0](player, card, _SQUARES[rest])
            case "PlayEarthquake":
                way, square = divmod(rest, SQUARES)
                first = _SQUARES[square]
                dx, dy = _QUAKE_DIRECTIONS[way]
                card = self._first(_power_class(Power.EARTHQUAKE), view.hand, index)
                return PlayEarthquake(player, card, first, Pos(first.x + dx, first.y + dy))
            case "Feed":
                way, square = divmod(rest, SQUARES)
                city = _SQUARES[square]
                dx, dy = _FEED_DIRECTIONS[way]
                return Feed(player, city, Pos(city.x + dx, city.y + dy))
        assert block.name == "PlaceCityPawn", block
        return PlaceCityPawn(player, _SQUARES[rest])

    def _first(self, card_class: int, cards: Iterable[CardId], index: int) -> CardId:
        """The first of ``cards`` of class ``card_class``."""
        classes = self.card_class
        for card in cards:
            if classes.get(card) == card_class:
                return card
        raise EncodingError(
            f"action index {index} ({self.describe(index)}) names a card the seat does not have"
        )

    def describe(self, index: int) -> str:
        """What index ``index`` means, for people: ``"PlayNature land=plain square=2,-1"``."""
        if not 0 <= index < ACTION_COUNT:
            raise EncodingError(f"no action index {index}: expected 0 to {ACTION_COUNT - 1}")
        block = next(b for b in reversed(BLOCKS) if b.start <= index)
        rest = index - block.start
        coordinates: list[int] = []
        for extent in reversed(block.shape):
            coordinates.append(rest % extent)
            rest //= extent
        coordinates.reverse()
        words = [block.name]
        for axis, value in zip(block.axes, coordinates, strict=False):
            words.append(f"{axis.split(' (')[0].replace(' ', '_')}={self._name(axis, value)}")
        return " ".join(words)

    # -- the encoders, one per action type -----------------------------------------------

    def _class(self, card: CardId) -> int:
        found = self.card_class.get(card)
        if found is None:
            raise EncodingError(f"card {card!r} is not a card of the manifest that can be held")
        return found

    def _draw_display(self, action: Action) -> int:
        assert isinstance(action, DrawDisplay)
        return _START["DrawDisplay"] + self._class(action.card)

    def _draw_deck(self, action: Action) -> int:
        assert isinstance(action, DrawDeck)
        return _START["DrawDeck"] + _KINDS.index(action.kind)

    def _discard(self, action: Action) -> int:
        assert isinstance(action, Discard)
        return _START["Discard"] + self._class(action.card)

    def _fulfil(self, action: Action) -> int:
        assert isinstance(action, FulfillObjective)
        rank = self.objective_rank.get(action.objective)
        if rank is None:
            raise EncodingError(f"{action.objective!r} is not an Objective of the manifest")
        return _START["FulfillObjective"] + rank

    def _on_square(self, action: Action) -> int:
        assert isinstance(action, PlayNature | PlayAnimals | PlayCity)
        card_class = self._class(action.card)
        if isinstance(action, PlayNature):
            row = card_class
        elif isinstance(action, PlayCity):
            row = card_class - _CITY_BASE
        else:
            row = card_class - _ANIMAL_BASE
        return _START[type(action).__name__] + row * SQUARES + square_index(action.pos)

    def _power_on_square(self, action: Action) -> int:
        assert isinstance(action, PlaySun | PlayRain | PlayLightning | PlayEruption)
        return _START[type(action).__name__] + square_index(action.pos)

    def _earthquake(self, action: Action) -> int:
        assert isinstance(action, PlayEarthquake)
        step = (action.second.x - action.first.x, action.second.y - action.first.y)
        if step not in _QUAKE_DIRECTIONS:
            raise EncodingError(f"{action}: the second tile is not east or south of the first")
        return (
            _START["PlayEarthquake"]
            + _QUAKE_DIRECTIONS.index(step) * SQUARES
            + square_index(action.first)
        )

    def _feed(self, action: Action) -> int:
        assert isinstance(action, Feed)
        step = (action.source.x - action.city.x, action.source.y - action.city.y)
        if step not in _FEED_DIRECTIONS:
            raise EncodingError(f"{action}: the source is not a neighbour of the city")
        return _START["Feed"] + _FEED_DIRECTIONS.index(step) * SQUARES + square_index(action.city)

    def _pawn(self, action: Action) -> int:
        assert isinstance(action, PlaceCityPawn)
        return _START["PlaceCityPawn"] + square_index(action.city)

    def _name(self, axis: str, value: int) -> str:
        if axis in ("square", "city", "first"):
            return str(square_of(value))
        if axis == "card class":
            return class_name(self.manifest, value)
        if axis == "land":
            return str(LANDS[value].value)
        if axis == "site":
            return str(_SITES[value].value)
        if axis == "back":
            return str(_KINDS[value].value)
        if axis == "city rank":
            ids = self.manifest.ids(CityCard)
            return ids[value] if value < len(ids) else f"(rank {value}, not in this box)"
        if axis == "objective rank":
            ids = self.manifest.ids(Objective)
            return ids[value] if value < len(ids) else f"(rank {value}, not in this box)"
        if axis.startswith(("victim", "from")):
            return f"+{value + 1}"
        if axis.startswith("second"):
            return ("east", "south")[value]
        if axis.startswith("source"):
            return ("north", "east", "south", "west")[value]
        return str(value)


def class_name(manifest: Manifest, card_class: int) -> str:
    """A card class for people: ``nature:plain``, ``city:C03``, ``animals:star``, ``power:sun``."""
    if card_class < _CITY_BASE:
        return f"nature:{LANDS[card_class].value}"
    if card_class < _ANIMAL_BASE:
        ids = manifest.ids(CityCard)
        rank = card_class - _CITY_BASE
        return f"city:{ids[rank]}" if rank < len(ids) else f"city:(rank {rank})"
    if card_class < _POWER_BASE:
        return f"animals:{_SITES[card_class - _ANIMAL_BASE].value}"
    return f"power:{_POWERS[card_class - _POWER_BASE].value}"


_SPACES: dict[int, tuple[Manifest, ActionSpace]] = {}
"""The spaces built so far, by the identity of their manifest (kept alive here)."""


def action_space(rules: Rules | Manifest) -> ActionSpace:
    """The action space of games played by ``rules`` (or with that card manifest), shared."""
    manifest = rules if isinstance(rules, Manifest) else rules.cards
    # Hot path: asked at every observation. A manifest hashes its whole card list, so the
    # spaces are found by the manifest's identity, then by equality for a new equal copy.
    found = _SPACES.get(id(manifest))
    if found is not None and found[0] is manifest:
        return found[1]
    space = next((s for m, s in _SPACES.values() if m == manifest), None) or ActionSpace(manifest)
    _SPACES[id(manifest)] = (manifest, space)
    return space


def block_table() -> Mapping[str, Block]:
    """Every block by action name, in index order."""
    return {block.name: block for block in BLOCKS}
