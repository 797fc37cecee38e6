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
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from gaia_rules import flow
from gaia_rules.cards import (
    CardId,
    CityCard,
    NatureCard,
    Objective,
    PowerCard,
    kind_of,
)
from gaia_rules.decisions import BeginTurn, ChooseAction
from gaia_rules.drawing import HAND_LIMIT, POWER_LIMIT
from gaia_rules.errors import PositionError, RulesError
from gaia_rules.game import SUPPORTED_LEVELS, Game
from gaia_rules.life import city_may_stand_on
from gaia_rules.manifest import TILE_COUNTS
from gaia_rules.rules import Rules
from gaia_rules.satisfaction import pawn_counts
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
from gaia_rules.vocabulary import LANDS, CardKind, Land, Pos
from gaia_rules.wire import Wire
from gaia_rules.world import ORIGIN, needs_met, neighbours

__all__ = ["Position", "PositionBuilder"]


@attrs.frozen(hash=False)
class Position(Wire):
    """A complete table, frozen (see the module docstring).

    ``cities`` maps a square to its City card and the seats of the pawns on it; ``decks``
    list the top card first; ``turn_action`` is the number of the turn's next action (1
    or 2), or 0 for "the turn begins", which runs the feeding first.
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
        problems = _problems(self)
        if problems:
            raise PositionError(problems)
        table = table_of(self)
        flow.advance(table)
        return Game._from_table(table)

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of a game at the start of a turn or between its two actions.

        Args:
            game: A game whose pending decision is a turn's action
                ([`ChooseAction`][gaia_rules.decisions.ChooseAction]).

        Returns:
            The position; ``to_game()`` on it gives a game in the same state.

        Raises:
            PositionError: The game is over, or its pending decision is not a turn's action
                (a feeding, a discard, an Objective, a Protection window, ...).
        """
        state = game.state
        decision = state.decision
        if not isinstance(decision, ChooseAction):
            raise PositionError([f"a position is taken at a turn's action, not at {decision!r}"])
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
            turn_action=decision.number,
            first_player=state.first_player,
            seed=state.seed,
        )

    def _repr_svg_(self) -> str:
        """The world as SVG, for notebooks (`gaia_rules.svg.world_svg`)."""
        from gaia_rules.svg import world_svg  # noqa: PLC0415 (svg imports this module)

        return world_svg(self)


register_document(Position)


class PositionBuilder:
    """Write a [`Position`][gaia_rules.position.Position] briefly; every method returns the
    builder (see the module docstring).

    Whatever is not said is filled in as a setup would: the cards not placed anywhere are
    shuffled by ``seed`` into their decks, the displays filled from the tops of the decks,
    and ``players + 2`` Objectives revealed. A deck given with
    [`deck`][gaia_rules.position.PositionBuilder.deck] is taken as is, and the cards of its
    kind placed nowhere go to that kind's discard pile.

    Nothing is checked until [`build`][gaia_rules.position.PositionBuilder.build] (the number
    of players) and [`Position.to_game`][gaia_rules.position.Position.to_game] (everything
    else).

    Args:
        players: The number of seats, 2 to 5.
        rules: The rules; defaults to [`Rules.basic()`][gaia_rules.rules.Rules.basic].
        seed: The seed that shuffles the cards not placed, and the game's seed.
    """

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

    def tile(self, x: int, y: int, land: Land, animals: int = 0) -> PositionBuilder:
        """A tile at (x, y), with ``animals`` tokens on it."""
        self._tiles[Pos(x, y)] = land
        if animals:
            self._animals[Pos(x, y)] = animals
        return self

    def city(self, x: int, y: int, card: CardId, pawns: Iterable[int] = ()) -> PositionBuilder:
        """A city on the tile at (x, y), with pawns of the given seats on it."""
        self._cities[Pos(x, y)] = (card, tuple(sorted(pawns)))
        return self

    def hand(self, player: int, *cards: CardId) -> PositionBuilder:
        """The cards in a player's hand."""
        self._hands[player] = cards
        return self

    def tableau(self, player: int, *cards: CardId) -> PositionBuilder:
        """The cards in front of a player, oldest first."""
        self._tableaux[player] = cards
        return self

    def deck(self, kind: CardKind, *cards: CardId) -> PositionBuilder:
        """A deck, top card first, exactly as given."""
        self._decks[kind] = cards
        return self

    def display(self, kind: CardKind, *cards: CardId) -> PositionBuilder:
        """The face-up cards of a display."""
        self._displays[kind] = cards
        return self

    def discard_pile(self, kind: CardKind, *cards: CardId) -> PositionBuilder:
        """A discard pile."""
        self._discards[kind] = cards
        return self

    def objectives(
        self, *cards: CardId, fulfilled: Mapping[CardId, int] | None = None
    ) -> PositionBuilder:
        """The revealed Objectives, and the seat whose pawn stands on each fulfilled one."""
        self._objectives = cards
        self._objective_pawns = dict(fulfilled or {})
        return self

    def turn(self, player: int, action: int = 0, first_player: int = 0) -> PositionBuilder:
        """Whose turn it is: ``action`` 0 begins the turn (feeding first), 1 or 2 is the
        turn's next action."""
        self._active = player
        self._turn_action = action
        self._first_player = first_player
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
        )

    def to_game(self) -> Game:
        """Build the position and start a game there.

        Raises:
            PositionError: The position cannot be built, or could not arise in a game (see
                [`Position.to_game`][gaia_rules.position.Position.to_game]).
        """
        return self.build().to_game()


def _may_leave_the_game(rules: Rules, card: CardId) -> bool:
    """16.2 with 4.4 and 2.7: the only cards out of the game are the Objectives not revealed
    and the Power cards outside the level's Power deck."""
    face = rules.cards.face(card)
    if isinstance(face, Objective):
        return True
    return isinstance(face, PowerCard) and card not in power_deck(rules)


def _face_is_power_objective(rules: Rules, card: CardId) -> bool:
    face = rules.cards.face(card)
    return isinstance(face, Objective) and face.is_power


# -- validation (spec 16) ---------------------------------------------------------------------


def _problems(position: Position) -> list[str]:
    p = position
    problems: list[str] = []
    try:
        check_players(p.players, p.first_player)
    except RulesError as exc:
        return [str(exc)]
    if p.rules.level not in SUPPORTED_LEVELS:
        problems.append(f"the {p.rules.level.name.lower()} level is not yet supported")
    if not isinstance(p.active, int) or not 0 <= p.active < p.players:
        problems.append(f"active: no seat {p.active!r}")
    if p.turn_action not in (0, 1, 2):
        problems.append(f"turn_action: expected 0, 1 or 2, got {p.turn_action!r}")
    if len(p.hands) != p.players or len(p.tableaux) != p.players:
        problems.append("hands and tableaux: expected one per seat")
        return problems
    not_squares = [
        f"{name}: {square!r} is not a square, Pos(x, y) (spec 3.1)"
        for name, squares in (("tiles", p.tiles), ("animals", p.animals), ("cities", p.cities))
        for square in squares
        if not isinstance(square, Pos)
    ]
    if not_squares:
        return problems + not_squares
    cards = p.rules.cards
    # 16.2: every card in exactly one place, and each in a place of its kind
    places: list[tuple[str, CardId]] = []
    for seat, hand in enumerate(p.hands):
        places += [(f"hand of seat {seat}", c) for c in hand]
    for seat, tableau in enumerate(p.tableaux):
        places += [(f"in front of seat {seat}", c) for c in tableau]
    for label, piles in (("deck", p.decks), ("display", p.displays), ("discard pile", p.discards)):
        for kind, pile in piles.items():
            places += [(f"{kind.value} {label}", c) for c in pile]
    places += [("Objectives", c) for c in p.objectives]
    places += [(f"city at {pos}", card) for pos, (card, _) in p.cities.items()]
    places += [("out of the game", c) for c in p.out_of_game]
    unknown = [card for _, card in places if card not in cards]
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
    for where, card in places:
        face = cards.face(card)
        if where.startswith("hand") and isinstance(face, Objective):
            problems.append(f"{card}: an Objective cannot be in a hand")
        if where.startswith("in front") and not isinstance(face, NatureCard | PowerCard):
            problems.append(f"{card}: only Nature and Power cards go in front of a player")
        if where.startswith("city") and not isinstance(face, CityCard):
            problems.append(f"{card}: only a City card stands on a tile")
        if where == "Objectives" and not isinstance(face, Objective):
            problems.append(f"{card}: not an Objective card")
        if (
            isinstance(face, PowerCard)
            and card not in allowed_powers
            and where != "out of the game"
        ):
            problems.append(f"{card}: this Power card is not in play under these rules")
        if where == "out of the game" and not _may_leave_the_game(p.rules, card):
            problems.append(
                f"{card}: only unrevealed Objectives and Power cards outside the level's "
                "deck are out of the game (spec 16.2)"
            )
        revealed_power_objective = where == "Objectives" and _face_is_power_objective(p.rules, card)
        if revealed_power_objective and not p.rules.with_powers:
            problems.append(
                f"{card}: a Power Objective is revealed only from the powers level (4.4)"
            )
        for kind in CardKind:
            held = card[0] in "NCAP"
            if where.startswith(f"{kind.value} ") and (not held or kind_of(card) is not kind):
                problems.append(f"{card}: not a {kind.value} card ({where})")
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
    for seat, hand in enumerate(p.hands):
        powers = sum(1 for c in hand if c[0] == "P")
        if len(hand) > HAND_LIMIT or powers > POWER_LIMIT:
            problems.append(f"hand of seat {seat}: over the hand or Power limit (spec 16.7)")
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
        if not isinstance(count, int) or not 1 <= count <= 4:
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
        if not isinstance(seat, int) or not 0 <= seat < p.players:
            problems.append(f"{objective}: no seat {seat!r}")
    world = _world(p)
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
        if any(not isinstance(s, int) or not 0 <= s < p.players for s in pawns):
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
        if met >= 2 and len(pawns) not in pawn_counts(met, p.rules):
            problems.append(
                f"city at {pos}: {met} needs met and {len(pawns)} pawn(s), which no game "
                "reaches (16.6, 12.3)"
            )
    total = pawns_per_player(p.players)
    for seat in range(p.players):
        if placed_pawns[seat] >= total:
            problems.append(
                f"seat {seat} has placed {placed_pawns[seat]} of {total} pawns: the game is over"
            )
    return problems


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


def _world(p: Position) -> Table:
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
    table.reached_four = {pos for pos, met in table.satisfaction.items() if met == 4}
    table.active = p.active
    if p.turn_action == 0:
        table.steps = [BeginTurn(p.active)]
    else:
        table.steps = [ChooseAction(p.active, p.turn_action)]
    table.log, table.log_length, table.actions, table.result = None, 0, None, None
    table.random_draws = 0
    table.options = None
    table.stolen = ()
    return table
