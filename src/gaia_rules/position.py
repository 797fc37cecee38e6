"""Positions: any mid-game situation, set up directly and validated (spec 16).

A [`Position`][gaia_rules.position.Position] is a complete, frozen description of a table:
the world, every hand, the cards in front of each player, the decks in order, the displays,
discard piles, Objectives, and whose turn it is. ``position.to_game()`` checks it against
every invariant a real game keeps and starts a [`Game`][gaia_rules.game.Game] there; a
position that could not arise raises [`PositionError`][gaia_rules.errors.PositionError]
listing every problem.

[`PositionBuilder`][gaia_rules.position.PositionBuilder] writes positions briefly: say what
matters, and the rest is filled in the way a setup would fill it (the remaining cards
shuffled by the seed):

    position = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT, animals=1)
        .tile(1, 0, Land.MOUNTAIN)
        .city(0, 1, "C01", pawns=[1])
        .hand(1, "N07", "A09")
        .turn(1)
        .build()
    )
    game = position.to_game()
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from gaia_rules import flow, hooks, powers
from gaia_rules.cards import (
    CardId,
    CityCard,
    NatureCard,
    Objective,
    PowerCard,
    kind_of,
)
from gaia_rules.decisions import (
    BeginTurn,
    ChooseAction,
    ChooseBack,
    ChooseFeeding,
    ChooseKeptCard,
    ChooseLimitDiscard,
    ChooseObjective,
    ChoosePawnCities,
    ChooseProtection,
    PowerEffect,
    Step,
)
from gaia_rules.drawing import HAND_LIMIT, POWER_LIMIT
from gaia_rules.errors import PositionError, RulesError
from gaia_rules.game import SUPPORTED_LEVELS, Game
from gaia_rules.invariants import violations
from gaia_rules.life import city_may_stand_on
from gaia_rules.manifest import TILE_COUNTS
from gaia_rules.powers import left_of, protection_asked, tornado_victims
from gaia_rules.rules import FourNeedDrop, Rules
from gaia_rules.satisfaction import pawn_counts, pawns_wanted
from gaia_rules.serialization import JsonError, register_document
from gaia_rules.setup import (
    DISPLAY_SIZES,
    TOKENS,
    cards_in_play,
    check_players,
    pawns_per_player,
    power_deck,
)
from gaia_rules.table import Table
from gaia_rules.untrusted import checked_arguments, value_problems
from gaia_rules.vocabulary import LANDS, CardKind, Land, Pos, Power
from gaia_rules.wire import Wire
from gaia_rules.world import ORIGIN, needs_met, neighbours

__all__ = ["Position", "PositionBuilder"]


_checked = checked_arguments(PositionError)
"""The builder's methods check their arguments by the rule for untrusted input (1.10a)."""


@attrs.frozen(hash=False)
class Position(Wire):
    """A complete table, frozen (see the module docstring): every fact the game's future
    depends on (spec 1.9).

    ``cities`` maps a square to its City card and the seats of the pawns on it; ``decks``
    list the top card first; ``turn_action`` is the number of the turn's next action (1
    or 2), or 0 for "the turn begins", which runs the feeding first. At any other decision
    ``steps`` holds the flow's pending steps and ``turn_action`` is 0.
    """

    rules: Rules
    players: int
    tiles: Mapping[Pos, Land]
    animals: Mapping[Pos, int]
    cities: Mapping[Pos, tuple[CardId, tuple[int, ...]]]
    hands: tuple[tuple[CardId, ...], ...]
    tableaux: tuple[tuple[CardId, ...], ...]
    decks: Mapping[CardKind, tuple[CardId, ...]]
    displays: Mapping[CardKind, tuple[CardId, ...]]
    discards: Mapping[CardKind, tuple[CardId, ...]]
    objectives: tuple[CardId, ...]
    objective_pawns: Mapping[CardId, int]
    out_of_game: tuple[CardId, ...]
    active: int
    turn_action: int = 0
    first_player: int = 0
    seed: int = 0
    steps: tuple[Step, ...] = ()
    """The flow's pending steps, the top last, when they are more than a turn's action: a
    feeding under way, a Power in its Protection window, a Tornado half taken, a limit
    discard, ... (spec 1.9). Empty: the turn's action ``turn_action`` is the only one."""
    stolen: tuple[tuple[CardId, int], ...] = ()
    """The cards a Tornado has set aside, each with the seat it came from (spec 13.8b)."""
    reached_four: tuple[Pos, ...] = ()
    """The cities that reached four needs and were not emptied since (spec 12.4). A city at
    four needs now has always reached them, whether it is listed or not."""
    random_draws: int = 0
    """How many random draws the seed has made (spec 1.6): the next Tornado's card depends
    on it."""

    @classmethod
    def from_json(cls, text: str | bytes) -> Position:
        """Read a position from JSON text, as ``to_json()`` writes it.

        Only the shape is checked here; the position is validated when it becomes a game
        ([`to_game`][gaia_rules.position.Position.to_game]).

        Raises:
            PositionError: ``text`` is not JSON or not a position (a missing or unknown
                field, a wrong ``"format"``, a value of the wrong type); its ``problems``
                give the path of each faulty field.
        """
        try:
            return super().from_json(text)
        except JsonError as exc:
            raise PositionError(list(exc.problems)) from None

    @classmethod
    def from_data(cls, data: Any) -> Position:
        """Read a position from already-parsed JSON, as ``to_data()`` writes it.

        Raises:
            PositionError: as [`from_json`][gaia_rules.position.Position.from_json].
        """
        try:
            return super().from_data(data)
        except JsonError as exc:
            raise PositionError(list(exc.problems)) from None

    def to_game(self) -> Game:
        """Validate the position and start a game there.

        The position is checked against every invariant of spec 16 (each card in exactly one
        place, the world, the pawns, the satisfaction of each city, the limits), and against
        what a setup gives (the number of revealed Objectives, the Power cards of the level).
        The game then runs to its first real decision, as after any action: a turn that
        begins (``turn_action`` 0) starts with the feeding.

        Returns:
            A [`Game`][gaia_rules.game.Game] that goes on from this position.

        Raises:
            PositionError: The position could not arise in a game; its ``problems`` list
                every problem found, many naming the clause broken.
        """
        problems = position_problems(self)
        if problems:
            raise PositionError(problems)
        table = table_of(self)
        table.start = self
        flow.advance(table)
        game = Game._from_table(table)
        broken = violations(game)
        if broken:  # what the checks above cannot see, the invariants of a live game do
            raise PositionError(broken)
        return game

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of a game at any decision (spec 1.9).

        Args:
            game: A game that is not over.

        Returns:
            The position; ``to_game()`` on it gives the same game from there on: the same
            state, views and legal actions, and, given the same actions, the same events to
            the end, future random draws included. Between a turn's actions the pending step
            is written as ``turn_action``; at any other decision, as ``steps``.

        Raises:
            PositionError: The game is over: no decision is pending (spec 15).
        """
        state = game.state
        if state.decision is None:
            raise PositionError(["the game is over: a position is taken at a decision (15)"])
        steps, turn_action = state.steps, 0
        top = steps[-1]
        if len(steps) == 1 and isinstance(top, ChooseAction) and top.player == state.active:
            steps, turn_action = (), top.number
        return cls(
            rules=state.rules,
            players=state.players,
            tiles=state.tiles,
            animals=state.animals,
            cities={pos: (city.card, city.pawns) for pos, city in state.cities.items()},
            hands=state.hands,
            tableaux=state.tableaux,
            decks=state.decks,
            displays=state.displays,
            discards=state.discards,
            objectives=state.objectives,
            objective_pawns=state.objective_pawns,
            out_of_game=state.out_of_game,
            active=state.active,
            turn_action=turn_action,
            first_player=state.first_player,
            seed=state.seed,
            steps=steps,
            stolen=state.stolen,
            reached_four=state.reached_four,
            random_draws=state.random_draws,
        )

    def _repr_svg_(self) -> str:
        """The world as SVG, for notebooks (`gaia_rules.svg.world_svg`)."""
        return hooks.world_svg(self)  # installed by gaia_rules.svg


register_document(Position)


class PositionBuilder:
    """Write a [`Position`][gaia_rules.position.Position] briefly; every method returns the
    builder (see the module docstring).

    Whatever is not said is filled in as a setup would: the cards not placed anywhere are
    shuffled by ``seed`` into their decks, the displays filled from the tops of the decks,
    and ``players + 2`` Objectives revealed. A deck given with
    [`deck`][gaia_rules.position.PositionBuilder.deck] is taken as is, and the cards of its
    kind placed nowhere go to that kind's discard pile.

    A card is named by its id (``"C19"``) or, a City card, by its name (``"Venice"``, found
    with [`Manifest.named`][gaia_rules.manifest.Manifest.named]).

    Each method checks the types of its arguments at once, by the rule for untrusted input
    (spec 1.10a: a square's coordinates and a seat are ``int``, a land is a ``Land``, a card
    a ``str``, pawns a list or a tuple of seats), and raises
    [`PositionError`][gaia_rules.errors.PositionError] naming the argument. What the values
    mean is checked by [`build`][gaia_rules.position.PositionBuilder.build] (the number of
    players) and [`Position.to_game`][gaia_rules.position.Position.to_game] (everything
    else).

    Args:
        players: The number of seats, 2 to 5.
        rules: The rules; defaults to [`Rules.basic()`][gaia_rules.rules.Rules.basic].
        seed: The seed that shuffles the cards not placed, and the game's seed.
    """

    @_checked
    def __init__(self, players: int, rules: Rules | None = None, seed: int = 0) -> None:
        self._rules = Rules.basic() if rules is None else rules
        self._players = players
        self._seed = seed
        self._tiles: dict[Pos, Land] = {}
        self._animals: dict[Pos, int] = {}
        self._cities: dict[Pos, tuple[CardId, tuple[int, ...]]] = {}
        self._hands: dict[int, tuple[CardId, ...]] = {}
        self._tableaux: dict[int, tuple[CardId, ...]] = {}
        self._decks: dict[CardKind, tuple[CardId, ...]] = {}
        self._displays: dict[CardKind, tuple[CardId, ...]] = {}
        self._discards: dict[CardKind, tuple[CardId, ...]] = {}
        self._objectives: tuple[CardId, ...] | None = None
        self._objective_pawns: dict[CardId, int] = {}
        self._active = 0
        self._turn_action = 0
        self._first_player = 0
        self._steps: tuple[Step, ...] = ()
        self._stolen: list[tuple[CardId, int]] = []
        self._reached_four: list[Pos] = []
        self._random_draws = 0

    def _id(self, card: CardId) -> CardId:
        """A card named by its id, or a City card by its name (``"Venice"``)."""
        cards = self._rules.cards
        if card in cards or not isinstance(card, str):
            return card
        try:
            return cards.named(card)
        except KeyError:
            return card  # not a card: validation names it

    def _ids(self, cards: Iterable[CardId]) -> tuple[CardId, ...]:
        return tuple(self._id(card) for card in cards)

    @_checked
    def tile(self, x: int, y: int, land: Land, animals: int = 0) -> PositionBuilder:
        """A tile at (x, y), with ``animals`` tokens on it."""
        self._tiles[Pos(x, y)] = land
        if animals:
            self._animals[Pos(x, y)] = animals
        return self

    @_checked
    def city(self, x: int, y: int, card: CardId, pawns: Sequence[int] = ()) -> PositionBuilder:
        """A city on the tile at (x, y), with pawns of the given seats on it."""
        self._cities[Pos(x, y)] = (self._id(card), tuple(sorted(pawns)))
        return self

    @_checked
    def hand(self, player: int, *cards: CardId) -> PositionBuilder:
        """The cards in a player's hand."""
        self._hands[player] = self._ids(cards)
        return self

    @_checked
    def tableau(self, player: int, *cards: CardId) -> PositionBuilder:
        """The cards in front of a player, oldest first."""
        self._tableaux[player] = self._ids(cards)
        return self

    @_checked
    def deck(self, kind: CardKind, *cards: CardId) -> PositionBuilder:
        """A deck, top card first, exactly as given."""
        self._decks[kind] = self._ids(cards)
        return self

    @_checked
    def display(self, kind: CardKind, *cards: CardId) -> PositionBuilder:
        """The face-up cards of a display."""
        self._displays[kind] = self._ids(cards)
        return self

    @_checked
    def discard_pile(self, kind: CardKind, *cards: CardId) -> PositionBuilder:
        """A discard pile."""
        self._discards[kind] = self._ids(cards)
        return self

    @_checked
    def objectives(
        self, *cards: CardId, fulfilled: Mapping[CardId, int] | None = None
    ) -> PositionBuilder:
        """The revealed Objectives, and the seat whose pawn stands on each fulfilled one."""
        self._objectives = cards
        self._objective_pawns = dict(fulfilled or {})
        return self

    @_checked
    def turn(self, player: int, action: int = 0, first_player: int = 0) -> PositionBuilder:
        """Whose turn it is: ``action`` 0 begins the turn (feeding first), 1 or 2 is the
        turn's next action."""
        self._active = player
        self._turn_action = action
        self._first_player = first_player
        return self

    @_checked
    def steps(self, *steps: Step) -> PositionBuilder:
        """The flow's pending steps, the bottom first and the decision to take last, for a
        position in the middle of a turn: a feeding under way, a Power in its Protection
        window, a Tornado half taken, a limit discard, ... (spec 1.9). Give ``turn(player)``
        too, without its ``action``: the bottom step is that turn's next action, or, under
        the rest of its last action, the next seat's turn.

        For example, seat 1 asked whether it protects against the Sun seat 0 played with its
        first action: ``steps(ChooseAction(0, 2), ChooseObjective(0), PowerEffect(sun),
        ChooseProtection(1, 0, sun.card, ()))``, with the Sun card in front of seat 0.
        """
        self._steps = steps
        return self

    @_checked
    def set_aside(self, card: CardId, from_player: int) -> PositionBuilder:
        """A card a Tornado under way has taken from ``from_player`` (spec 13.8b)."""
        self._stolen.append((self._id(card), from_player))
        return self

    @_checked
    def reached_four(self, x: int, y: int) -> PositionBuilder:
        """The city at (x, y) reached four needs and was not emptied since (spec 12.4); a
        city at four needs now always has."""
        self._reached_four.append(Pos(x, y))
        return self

    @_checked
    def random_draws(self, count: int) -> PositionBuilder:
        """How many random draws the seed has made (spec 1.6), which fixes the next one."""
        self._random_draws = count
        return self

    def build(self) -> Position:
        """The position; validated when it becomes a game
        ([`Position.to_game`][gaia_rules.position.Position.to_game]).

        Raises:
            PositionError: ``players`` is not a whole number from 2 to 5, or the first
                player given to [`turn`][gaia_rules.position.PositionBuilder.turn] is not
                one of the seats.
        """
        rules, rng = self._rules, random.Random(self._seed)
        try:
            check_players(self._players, self._first_player)
        except RulesError as exc:
            raise PositionError([str(exc)]) from None
        cards = rules.cards
        placed: set[CardId] = set()
        for group in (
            *self._hands.values(),
            *self._tableaux.values(),
            *self._decks.values(),
            *self._displays.values(),
            *self._discards.values(),
            self._objectives or (),
            tuple(card for card, _ in self._cities.values()),
            tuple(card for card, _ in self._stolen),
        ):
            placed.update(group)
        decks, displays, discards = {}, {}, {}
        for kind, ids in cards_in_play(rules).items():
            rest = [card for card in ids if card not in placed]
            discards[kind] = self._discards.get(kind, ())
            if kind in self._decks:
                decks[kind] = self._decks[kind]
                discards[kind] = (*discards[kind], *rest)
                displays[kind] = self._displays.get(kind, ())
                continue
            rng.shuffle(rest)
            if kind in self._displays:
                displays[kind] = self._displays[kind]
            else:
                displays[kind] = tuple(rest[: DISPLAY_SIZES[kind]])
                rest = rest[DISPLAY_SIZES[kind] :]
            decks[kind] = tuple(rest)
        objectives = self._objectives
        if objectives is None:
            allowed = [
                o
                for o in cards.ids(Objective)
                if rules.with_powers or not _face_is_power_objective(rules, o)
            ]
            rng.shuffle(allowed)
            objectives = tuple(allowed[: self._players + 2])
        everywhere = set(placed) | {c for d in decks.values() for c in d}
        everywhere |= {c for d in displays.values() for c in d}
        everywhere |= {c for d in discards.values() for c in d} | set(objectives)
        out_of_game = tuple(sorted(card for card, _ in cards.cards if card not in everywhere))
        return Position(
            rules=rules,
            players=self._players,
            tiles=dict(self._tiles),
            animals=dict(self._animals),
            cities=dict(self._cities),
            hands=tuple(self._hands.get(p, ()) for p in range(self._players)),
            tableaux=tuple(self._tableaux.get(p, ()) for p in range(self._players)),
            decks=decks,
            displays=displays,
            discards=discards,
            objectives=objectives,
            objective_pawns=dict(self._objective_pawns),
            out_of_game=out_of_game,
            active=self._active,
            turn_action=self._turn_action,
            first_player=self._first_player,
            seed=self._seed,
            steps=self._steps,
            stolen=tuple(self._stolen),
            reached_four=tuple(self._reached_four),
            random_draws=self._random_draws,
        )

    def to_game(self) -> Game:
        """Build the position and start a game there.

        Raises:
            PositionError: The position cannot be built, or could not arise in a game (see
                [`Position.to_game`][gaia_rules.position.Position.to_game]).
        """
        return self.build().to_game()


def _face_is_power_objective(rules: Rules, card: CardId) -> bool:
    face = rules.cards.face(card)
    return isinstance(face, Objective) and face.is_power


# -- validation (spec 16) ---------------------------------------------------------------------


def position_problems(position: Position, *, over: bool = False) -> list[str]:
    """Every problem that keeps ``position`` from being one a game could reach (spec 16);
    ``over``: the position of a game that is over, whose pending steps lapsed (15.1)."""
    # 1.10a: the types first, exactly; nothing below reads a value of the wrong type
    broken = value_problems(position, Position)
    if broken:
        return [f"{problem.where('position')}: {problem.message}" for problem in broken]
    return typed_position_problems(position, over=over)


def typed_position_problems(position: Position, *, over: bool = False) -> list[str]:
    """`position_problems` of a position whose values are all of their types (spec 1.10a):
    one the library built from values it checked (a sample of a view it checked), so
    the type check is not made twice."""
    p = position
    problems: list[str] = []
    try:
        check_players(p.players, p.first_player)
    except RulesError as exc:
        return [str(exc)]
    if p.rules.level not in SUPPORTED_LEVELS:
        problems.append(f"the {p.rules.level.name.lower()} level is not yet supported")
    if not 0 <= p.active < p.players:
        problems.append(f"active: no seat {p.active!r}")
    if p.turn_action not in (0, 1, 2):
        problems.append(f"turn_action: expected 0, 1 or 2, got {p.turn_action!r}")
    if len(p.hands) != p.players or len(p.tableaux) != p.players:
        problems.append("hands and tableaux: expected one per seat")
        return problems
    cards = p.rules.cards
    # 16.2: every card in exactly one place, and each in a place of its kind
    places: list[tuple[str, CardId]] = []
    for seat, hand in enumerate(p.hands):
        label = f"hand of seat {seat}"
        places += [(label, c) for c in hand]
    for seat, tableau in enumerate(p.tableaux):
        label = f"in front of seat {seat}"
        places += [(label, c) for c in tableau]
    pile_kinds: dict[str, CardKind] = {}
    for name, piles in (("deck", p.decks), ("display", p.displays), ("discard pile", p.discards)):
        for kind, pile in piles.items():
            label = f"{kind.value} {name}"
            pile_kinds[label] = kind
            places += [(label, c) for c in pile]
    places += [("Objectives", c) for c in p.objectives]
    places += [(f"city at {pos}", card) for pos, (card, _) in p.cities.items()]
    places += [("out of the game", c) for c in p.out_of_game]
    places += [(f"set aside by a Tornado from seat {seat}", c) for c, seat in p.stolen]
    faces = cards._faces  # the manifest's own dict (`Manifest.face` without the calls)
    unknown = [card for _, card in places if card not in faces]
    problems += [f"{card!r}: no such card in the manifest (spec 2.9)" for card in unknown]
    counts = Counter(card for _, card in places)
    problems += [
        f"{card}: in {n} places (spec 16.2)" for card, n in sorted(counts.items()) if n > 1
    ]
    missing = sorted(card for card, _ in cards.cards if card not in counts)
    if missing:
        problems.append(f"cards in no place: {missing} (spec 16.2)")
    if unknown:
        return problems
    allowed_powers = set(power_deck(p.rules))
    placed_at = len(problems)
    # what each place is, read from its label once (the labels repeat from card to card)
    kinds_of_place: dict[str, tuple[bool, bool, bool]] = {}
    for where, card in places:
        face = faces[card]
        kinds = kinds_of_place.get(where)
        if kinds is None:
            kinds = kinds_of_place[where] = (
                where.startswith(("hand", "set aside")),
                where.startswith("in front"),
                where.startswith("city"),
            )
        held, in_front, on_a_tile = kinds
        if held and isinstance(face, Objective):
            problems.append(f"{card}: an Objective cannot be in a hand ({where})")
        if in_front and not isinstance(face, NatureCard | PowerCard):
            problems.append(f"{card}: only Nature and Power cards go in front of a player")
        if on_a_tile and not isinstance(face, CityCard):
            problems.append(f"{card}: only a City card stands on a tile")
        unused_power = isinstance(face, PowerCard) and card not in allowed_powers
        if where == "Objectives":
            if not isinstance(face, Objective):
                problems.append(f"{card}: not an Objective card")
            elif face.is_power and not p.rules.with_powers:
                problems.append(
                    f"{card}: a Power Objective is revealed only from the powers level (4.4)"
                )
        if where == "out of the game":
            # 16.2 with 4.4 and 2.7: the only cards out of the game are the Objectives not
            # revealed and the Power cards outside the level's Power deck
            if not (isinstance(face, Objective) or unused_power):
                problems.append(
                    f"{card}: only unrevealed Objectives and Power cards outside the level's "
                    "deck are out of the game (spec 16.2)"
                )
        elif unused_power:
            problems.append(f"{card}: this Power card is not in play under these rules")
        kind_here = pile_kinds.get(where)
        if kind_here is not None and (card[0] not in "NCAP" or kind_of(card) is not kind_here):
            problems.append(f"{card}: not a {kind_here.value} card ({where})")
    # the steps read the backs of the hands and what lies in front: only of sound places
    places_sound = len(problems) == placed_at
    # 4.4: players + 2 Objectives are revealed, for the whole game
    if len(p.objectives) != p.players + 2:
        problems.append(
            f"{len(p.objectives)} revealed Objectives; {p.players} players reveal "
            f"{p.players + 2} (4.4)"
        )
    # 3.8: a display holds at most its slots
    for kind, display in p.displays.items():
        slots = DISPLAY_SIZES.get(kind, 0)
        if len(display) > slots:
            problems.append(f"{kind.value} display: {len(display)} cards in {slots} slots (3.8)")
        elif len(display) < slots and p.decks.get(kind):
            problems.append(
                f"{kind.value} display: an empty slot while its deck holds cards (6.2, 16.10)"
            )
    top = p.steps[-1] if p.steps else None
    for seat, hand in enumerate(p.hands):
        powers = sum(1 for c in hand if c[0] == "P")
        beyond = len(hand) > HAND_LIMIT or powers > POWER_LIMIT
        if beyond and top != ChooseLimitDiscard(seat):
            problems.append(f"hand of seat {seat}: over the hand or Power limit (spec 16.7)")
        if not beyond and top == ChooseLimitDiscard(seat):
            problems.append(f"seat {seat} decides a limit discard, within its limits (6.5)")
    # 16.1, 16.3, 16.5: the world
    for land in LANDS:
        placed = sum(1 for value in p.tiles.values() if value is land)
        if placed > TILE_COUNTS[land]:
            problems.append(f"{placed} {land.value} tiles; the box has {TILE_COUNTS[land]}")
    if p.tiles and ORIGIN not in p.tiles:
        problems.append("the first tile of the game is at (0, 0), and tiles never leave (3.1)")
    if not _connected(set(p.tiles)):
        problems.append("the world is not one edge-connected group of tiles (spec 16.5)")
    for pos, count in p.animals.items():
        if pos not in p.tiles:
            problems.append(f"animals at {pos}: no tile there")
        if not 1 <= count <= 4:
            problems.append(f"animals at {pos}: a tile carries 1 to 4 tokens, got {count!r}")
        if pos in p.cities:
            problems.append(f"animals at {pos}: a tile never carries a city and tokens (16.5)")
    if sum(p.animals.values()) > TOKENS:
        problems.append(f"{sum(p.animals.values())} tokens in the world; there are {TOKENS}")
    # 16.4, 16.6: cities and pawns
    placed_pawns = Counter(seat for _, pawns in p.cities.values() for seat in pawns)
    placed_pawns.update(p.objective_pawns.values())
    for objective, seat in p.objective_pawns.items():
        if objective not in p.objectives:
            problems.append(f"{objective}: a pawn on an Objective that is not revealed")
        if not 0 <= seat < p.players:
            problems.append(f"{objective}: no seat {seat!r}")
    world = world_of(p)
    for pos, (card, pawns) in p.cities.items():
        under = p.tiles.get(pos)
        face = cards.face(card)
        if under is None:
            problems.append(f"city at {pos}: no tile there")
            continue
        if not isinstance(face, CityCard):
            continue
        if not city_may_stand_on(face.site, under):
            problems.append(f"city at {pos}: {face.name} cannot stand on {under.value} (9.2)")
        if any(not 0 <= s < p.players for s in pawns):
            problems.append(f"city at {pos}: pawns of seats that are not in the game")
        advanced = p.rules.advanced_rules
        if not advanced and len(set(pawns)) != len(pawns):
            problems.append(f"city at {pos}: two pawns of one player (spec 16.6)")
        if advanced and len(set(pawns)) > 1:
            problems.append(f"city at {pos}: pawns of two players; a city has one owner (12.1)")
        met = needs_met(world, pos, face)
        if met == 0:
            problems.append(f"city at {pos}: 0 needs met; it would be discarded (16.6)")
        if pawns and met < 2:
            problems.append(f"city at {pos}: pawns on a city with {met} need met (16.6)")
        # unsettled: the raised cities await their pawns (10.5), or the game ended (15.1)
        unsettled = over or (isinstance(top, ChoosePawnCities) and pos in top.cities)
        if met >= 2 and len(pawns) not in pawn_counts(met, p.rules) and not unsettled:
            problems.append(
                f"city at {pos}: {met} needs met and {len(pawns)} pawn(s), which no game "
                "reaches (16.6, 12.3)"
            )
    problems += _mark_problems(p, world)
    if over:
        return problems
    if places_sound:
        problems += _step_problems(p)
    total = pawns_per_player(p.players)
    for seat in range(p.players):
        if placed_pawns[seat] >= total:
            problems.append(
                f"seat {seat} has placed {placed_pawns[seat]} of {total} pawns: the game is over"
            )
    if not problems:  # the rest is read from the table the position gives, sound by now
        problems += _pending_problems(p)
    return problems


def _pending_problems(p: Position) -> list[str]:
    """What the pending steps fixed, checked against the world by the rules themselves, as
    strictly as the world is (spec 1.9, 10.5, 13.3): the Power effect waiting under its
    Protection window is a play the world allows, and the raised cities waiting for the
    last pawns are raised cities that take one, more than the player's pawns can fill."""
    table = table_of(p)
    problems: list[str] = []
    for index, step in enumerate(p.steps):
        where = f"steps[{index}]: {step!r}"
        if isinstance(step, PowerEffect):
            refused = powers.refuse_play(table, step.action)
            if refused is not None:
                problems.append(f"{where}: {refused.reason} ({refused.clause})")
        elif isinstance(step, ChoosePawnCities):
            problems += [f"{where}: {problem}" for problem in _raised_problems(table, step)]
    return problems


def _raised_problems(table: Table, step: ChoosePawnCities) -> list[str]:
    """10.5, 12.5: the raised cities still waiting for the player's last pawns."""
    player, cities = step.player, step.cities
    if len(set(cities)) != len(cities):
        return ["a raised city is listed once (10.5)"]
    wanted = 0
    for pos in cities:
        met = table.satisfaction[pos]
        more = pawns_wanted(table, player, pos)
        if met < 2 or more == 0:
            return [
                f"the city at {pos} meets {met} need(s) and takes no pawn of seat {player}: "
                "only a city raised to two needs or more waits for a pawn (10.4, 10.5)"
            ]
        wanted += more
    if not 0 < table.supply[player] < wanted:
        return [
            f"seat {player} has {table.supply[player]} pawn(s) for {wanted} wanted: he "
            "chooses only when he has some, and fewer than his raised cities take (10.5, 12.5)"
        ]
    return []


def _mark_problems(p: Position, world: Table) -> list[str]:
    """The reached-four marks (12.4) and the count of random draws (1.6)."""
    problems: list[str] = []
    if p.random_draws < 0:
        problems.append(f"random_draws: expected a whole number from 0, got {p.random_draws!r}")
    empty_at_two = p.rules.four_need_drop is FourNeedDrop.EMPTY_AT_TWO
    for pos in p.reached_four:
        if pos not in p.cities:
            problems.append(f"reached_four: no city at {pos!r} (12.4)")
            continue
        face = p.rules.cards.face(p.cities[pos][0])
        met = needs_met(world, pos, face) if isinstance(face, CityCard) else 0
        if met < 2 or (empty_at_two and met == 2):
            problems.append(
                f"reached_four: the city at {pos} has {met} needs met; falling there "
                "emptied it, and an emptied city must reach four again (12.4)"
            )
    return problems


_SEATS: dict[type, tuple[str, ...]] = {
    ChooseAction: ("player",),
    ChooseFeeding: ("player",),
    ChooseLimitDiscard: ("player",),
    ChooseObjective: ("player",),
    ChoosePawnCities: ("player",),
    ChooseProtection: ("player", "power_player"),
    ChooseBack: ("player", "victim"),
    ChooseKeptCard: ("player",),
    BeginTurn: ("player",),
    PowerEffect: (),
}
"""The fields of each step that name one seat."""


def _step_problems(p: Position) -> list[str]:
    """The pending steps (spec 1.9, 5.4): each well formed, and each one the flow could have
    stacked there. What the rules would decide at each step is checked by playing on."""
    if not p.steps:
        return []
    if p.turn_action != 0:
        return ["steps and turn_action: give the turn's action by one of them, not both"]
    problems: list[str] = []
    for index, step in enumerate(p.steps):
        where = f"steps[{index}]"
        if type(step) not in _SEATS:
            problems.append(f"{where}: {step!r} is not a step of the flow (5.4)")
            continue
        seats = [getattr(step, name) for name in _SEATS[type(step)]]
        seats += list(getattr(step, "later", ()))
        if isinstance(step, PowerEffect):
            seats.append(step.action.player)
        bad = [seat for seat in seats if not 0 <= seat < p.players]
        if bad:
            problems.append(f"{where}: no seat {bad[0]!r} in a {p.players}-player game (1.1)")
            continue
        problems += [f"{where}: {problem}" for problem in _step_fits(p, index, step)]
    if problems:
        return problems
    if not isinstance(p.steps[0], ChooseAction | BeginTurn):
        problems.append("steps: the bottom step is the turn's action or the next turn (5.2)")
    if isinstance(p.steps[-1], PowerEffect):
        problems.append("steps: the top step must be a decision or a turn that begins (5.4)")
    if p.stolen and not any(isinstance(step, ChooseKeptCard) for step in p.steps):
        problems.append("stolen: cards are set aside only while a Tornado is under way (13.8)")
    problems += [
        f"stolen: {card} was taken from seat {seat!r}, not another seat of the game (13.8a)"
        for card, seat in p.stolen
        if not 0 <= seat < p.players or seat == p.active
    ]
    if problems:
        return problems
    return _window_problems(p, p.steps[-1])


def _window_problems(p: Position, top: Step) -> list[str]:
    """The decision asked now, and the Tornado or Protection window it may stand in, as the
    flow opens them (5.4, 13.8, 13.9b): who is asked, and who is still to be."""
    if isinstance(top, BeginTurn | PowerEffect):
        return []
    powers_step = isinstance(top, ChooseProtection | ChooseBack | ChooseKeptCard)
    if powers_step and not p.rules.with_powers:
        return [f"{top!r}: Power cards are played only from the powers level (13.1)"]
    if not isinstance(top, ChooseProtection | ChooseObjective) and top.player != p.active:
        return [f"{top!r}: only the active seat decides this in its turn (5.4)"]
    if isinstance(top, ChooseObjective) and top.player != p.active and not p.rules.with_powers:
        return [f"{top!r}: out of turn only after a Protection (13.9f)"]
    if isinstance(top, ChooseProtection):
        return _protection_problems(p, top)
    if isinstance(top, ChooseBack | ChooseKeptCard):
        return _tornado_problems(p, top)
    return []


def _protection_problems(p: Position, top: ChooseProtection) -> list[str]:
    """13.9b: the window asks, from the Power's player's left, each other seat holding a
    Power card, once; ``later`` are those after the seat asked now."""
    face = p.rules.cards.face(top.against)
    if not isinstance(face, PowerCard) or face.power is Power.PROTECTION:
        return [f"{top!r}: a Protection answers a Power card other than Protection (13.9d)"]
    if p.tableaux[p.active][-1:] != (top.against,):
        return [f"{top!r}: the Power card played is the last in front of its player (13.3)"]
    holders = protection_asked(p.hands, p.active)  # no hand changes while it is open
    if top.player not in holders or (top.player, *top.later) != tuple(
        holders[holders.index(top.player) :]
    ):
        return [
            f"{top!r}: the seats holding a Power card are {holders}; each is asked in turn "
            "from the Power's player's left (13.9b)"
        ]
    return []


def _tornado_problems(p: Position, top: ChooseBack | ChooseKeptCard) -> list[str]:
    """13.8a-b: the Tornado takes from each other seat holding cards, from the thief's left,
    one at a time; a lone card set aside is kept by the engine itself (13.10)."""
    order = left_of(top.player, p.players)
    sources = [seat for _, seat in p.stolen]
    holding = set(tornado_victims(p.hands, top.player))
    if sources != sorted(set(sources), key=order.index):
        return [f"stolen: taken from seats {sources}, once each from the thief's left (13.8a)"]
    if isinstance(top, ChooseBack):
        start = order.index(top.victim)
        following = tuple(s for s in tornado_victims(p.hands, top.player) if order.index(s) > start)
        if any(order.index(seat) > start for seat in sources) or top.later != following:
            return [f"{top!r}: the seats still to be robbed are {following} (13.8a)"]
        if not holding <= {*sources, top.victim, *top.later}:
            return [f"{top!r}: every seat holding cards is robbed once (13.8a)"]
    elif len(p.stolen) < 2 or not holding <= set(sources):
        return [
            f"{top!r}: the thief chooses among two or more cards, one from each seat that "
            "held cards (13.8c, 13.10)"
        ]
    return []


def _step_fits(p: Position, index: int, step: Step) -> list[str]:
    """Whether one step could stand at ``index`` of the flow's stack."""
    active, bottom = p.active, index == 0
    below = p.steps[index - 1] if index else None
    match step:
        case ChooseAction():
            if not bottom or step.player != active or step.number not in (1, 2):
                return [f"{step!r}: only the active seat's action 1 or 2, at the bottom (5.2)"]
        case BeginTurn():
            alone = len(p.steps) == 1
            following = active if alone else (active + 1) % p.players
            if not bottom or step.player != following:
                return [
                    f"{step!r}: a turn begins at the bottom of the steps, for the active seat "
                    "or, under the rest of its last action, for the next seat (5.5)"
                ]
        case ChooseFeeding():
            if step.player != active or below != ChooseAction(active, 1):
                return [f"{step!r}: the active seat feeds before its first action (11.1)"]
        case ChoosePawnCities():
            if index != len(p.steps) - 1:
                return [f"{step!r}: the raised cities are settled before any other step (10.5)"]
            if not all(pos in p.cities for pos in step.cities):
                return [f"{step!r}: every raised city stands in the world (10.5)"]
        case PowerEffect():
            play = step.action
            above = p.steps[index + 1] if index + 1 < len(p.steps) else None
            if play.player != active:
                return [f"{step!r}: the effect of a Power the active seat played (13.3)"]
            if p.tableaux[active][-1:] != (play.card,) or below != ChooseObjective(active):
                return [
                    f"{step!r}: the Power card goes in front of its player, and the effect "
                    "waits over his Objective check (13.3)"
                ]
            if not isinstance(above, ChooseProtection) or above.against != play.card:
                return [f"{step!r}: an effect waits only under its Protection window (13.9b)"]
        case ChooseProtection():
            asked = (step.player, *step.later)
            if (
                step.power_player != active
                or not isinstance(below, PowerEffect)
                or below.action.card != step.against
                or active in asked
                or len(set(asked)) != len(asked)
            ):
                return [
                    f"{step!r}: each other seat is asked once, over the effect of the Power "
                    "the active seat played (13.9b)"
                ]
            if not any(card[:1] == "P" for card in p.hands[step.player]):
                return [f"{step!r}: only a seat holding a Power card is asked (13.9b)"]
        case ChooseBack():
            victims = (step.victim, *step.later)
            if (
                step.player != active
                or below != ChooseKeptCard(active)
                or active in victims
                or len(set(victims)) != len(victims)
            ):
                return [f"{step!r}: the active seat's Tornado takes from each other seat (13.8a)"]
            if not p.hands[step.victim]:
                return [f"{step!r}: a Tornado takes only from a seat holding cards (13.8a)"]
        case ChooseKeptCard():
            if step.player != active:
                return [f"{step!r}: the active seat keeps a card of its Tornado (13.8c)"]
            if index == len(p.steps) - 1 and not p.stolen:
                return [f"{step!r}: no card is set aside to keep (13.8c)"]
    return []


def _connected(squares: set[Pos]) -> bool:
    if not squares:
        return True
    start = next(iter(squares))
    seen, todo = {start}, [start]
    while todo:
        for near in neighbours(todo.pop()):
            if near in squares and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(squares)


def world_of(p: Position) -> Table:
    """Only the world of a position: enough to count the needs each city meets (3.5)."""
    world = Table.__new__(Table)
    world.tiles = dict(p.tiles)
    world.tokens = dict(p.animals)
    world.cities = {pos: card for pos, (card, _) in p.cities.items()}
    return world


def table_of(p: Position) -> Table:
    """The table of a position, unchecked, its flow at the turn's action (or its start)."""
    table = Table.__new__(Table)
    table.rules, table.cards, table.players = p.rules, p.rules.cards, p.players
    table.first_player, table.seed = p.first_player, p.seed
    table.tiles = dict(p.tiles)
    table.tokens = dict(p.animals)
    table.cities = {pos: card for pos, (card, _) in p.cities.items()}
    table.pawns = {pos: pawns for pos, (_, pawns) in p.cities.items()}
    table.cities_changed()
    table.memo = None
    table.frontier = {
        near for pos in table.tiles for near in neighbours(pos) if near not in table.tiles
    }
    table.tile_supply = {
        land: TILE_COUNTS[land] - sum(1 for v in table.tiles.values() if v is land)
        for land in LANDS
    }
    table.bank = TOKENS - sum(table.tokens.values())
    table.decks = {kind: tuple(p.decks.get(kind, ())) for kind in CardKind}
    table.displays = {kind: tuple(p.displays.get(kind, ())) for kind in CardKind}
    table.discards = {kind: tuple(p.discards.get(kind, ())) for kind in CardKind}
    table.hands = [tuple(hand) for hand in p.hands]
    table.tableaux = [tuple(tableau) for tableau in p.tableaux]
    table.name_piles()
    table.objectives = tuple(p.objectives)
    table.objective_pawns = dict(p.objective_pawns)
    table.out_of_game = tuple(p.out_of_game)
    table.total_pawns = pawns_per_player(p.players)
    placed = Counter(seat for pawns in table.pawns.values() for seat in pawns)
    placed.update(table.objective_pawns.values())
    table.supply = [table.total_pawns - placed[seat] for seat in range(p.players)]
    table.satisfaction = {
        pos: needs_met(table, pos, table.cards.city(card)) for pos, card in table.cities.items()
    }
    at_four = {pos for pos, met in table.satisfaction.items() if met == 4}
    table.reached_four = at_four | set(p.reached_four)
    table.active = p.active
    if p.steps:
        table.steps = list(p.steps)
    elif p.turn_action == 0:
        table.steps = [BeginTurn(p.active)]
    else:
        table.steps = [ChooseAction(p.active, p.turn_action)]
    table.log, table.log_length, table.actions, table.result = None, 0, None, None
    table.random_draws = p.random_draws
    table.named_copies = False
    table.imposed = ()
    table.keyed = {}
    table.options = None
    table.stolen = tuple(p.stolen)
    table.start = None
    return table
