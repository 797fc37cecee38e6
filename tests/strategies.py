"""Hypothesis strategies, random playouts and the invariants of spec 16, for property tests.

A random game is a *walk*: the players, the rules, the seed, the first player, how many
actions to play and the seed of a :class:`random.Random` that picks each action uniformly
among ``game.legal_actions()`` (or, with ``prefer_plays``, more often among the plays).
Hypothesis draws the walk (a handful of values it can shrink), never the hundreds of
individual choices, so a failing example prints as a short, exact recipe::

    Walk(players=3, rules=..., seed=17, first_player=2, steps=250, walk_seed=4)

:func:`check_invariants` asserts every invariant of spec 16 from ``game.state`` alone, and
recomputes the needs met of every city on its own (it never asks the engine's
satisfaction code), so a wrong count in the engine cannot hide behind itself.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

import attrs
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.position import Position

__all__ = [
    "ALL_BASIC_RULES",
    "BOX_TILES",
    "TOKENS",
    "InvariantChecker",
    "Walk",
    "candidate_actions",
    "check_invariants",
    "check_transition",
    "game_strategy",
    "mutated_actions",
    "needs_met",
    "pawns_per_player",
    "random_playout",
    "rules_strategy",
    "walk_strategy",
]

BOX_TILES: dict[gr.Land, int] = {
    gr.Land.DESERT: 10,
    gr.Land.PLAIN: 10,
    gr.Land.SWAMP: 7,
    gr.Land.SEA: 7,
    gr.Land.MOUNTAIN: 6,
    gr.Land.FOREST: 8,
}
"""The land tiles of the box (spec 2.1, 16.1), written out here rather than read from the engine."""

TOKENS = 20
"""The animal tokens of the box (spec 2.2, 16.3)."""

HAND_LIMIT = 6
POWER_LIMIT = 2
MAX_WALK = 400
SEED_BITS = 63

ALL_BASIC_RULES: tuple[gr.Rules, ...] = tuple(
    gr.Rules.basic(
        edition=edition,
        feeding=feeding,
        objectives=objectives,
        star_animals_on_sea=star_animals_on_sea,
    )
    for edition, feeding, objectives, star_animals_on_sea in itertools.product(
        gr.Edition, gr.Feeding, gr.Objectives, (True, False)
    )
)
"""The basic level at both editions and every combination of its three switches (16 rules)."""


def pawns_per_player(players: int) -> int:
    """6 pawns each with 2 players, 5 with 3-5 (spec 2.3, 16.4)."""
    return 6 if players == 2 else 5


# -- strategies --------------------------------------------------------------------------------


def rules_strategy() -> st.SearchStrategy[gr.Rules]:
    """The basic level, both editions, every combination of the three switches."""
    return st.builds(
        gr.Rules.basic,
        edition=st.sampled_from(gr.Edition),
        feeding=st.sampled_from(gr.Feeding),
        objectives=st.sampled_from(gr.Objectives),
        star_animals_on_sea=st.booleans(),
    )


@attrs.frozen
class Walk:
    """A reproducible random game: its setup and a seeded random walk of ``steps`` actions."""

    players: int
    rules: gr.Rules
    seed: int
    first_player: int
    steps: int
    walk_seed: int
    prefer_plays: float = 0.0
    """The chance of choosing among the plays (not the draws) when there are some: 0.0 is
    uniform; a higher value builds bigger worlds, with more cities and scarcer pawns."""

    def new_game(self) -> gr.Game:
        """The game before the walk."""
        return gr.new_game(
            players=self.players, rules=self.rules, seed=self.seed, first_player=self.first_player
        )

    def play(self, after_each: Callable[[gr.Game], None] | None = None) -> gr.Game:
        """The game after the walk (or at its end, if it ends first)."""
        game = self.new_game()
        if after_each is not None:
            after_each(game)
        rng = random.Random(self.walk_seed)
        random_playout(game, rng, self.steps, after_each, prefer_plays=self.prefer_plays)
        return game


@st.composite
def walk_strategy(
    draw: st.DrawFn,
    players: int | None = None,
    max_steps: int = MAX_WALK,
    prefer_plays: tuple[float, ...] = (0.0,),
) -> Walk:
    """A :class:`Walk`: 2-5 players (or ``players``), any basic rules, 0-``max_steps`` actions,
    uniformly random unless ``prefer_plays`` offers a bias towards plays."""
    seats = draw(st.integers(2, 5)) if players is None else players
    return Walk(
        players=seats,
        rules=draw(rules_strategy()),
        seed=draw(st.integers(0, 2**SEED_BITS - 1)),
        first_player=draw(st.integers(0, seats - 1)),
        steps=draw(st.integers(0, max_steps)),
        walk_seed=draw(st.integers(0, 2**32 - 1)),
        prefer_plays=draw(st.sampled_from(prefer_plays)),
    )


def game_strategy(
    players: int | None = None, max_steps: int = MAX_WALK
) -> st.SearchStrategy[gr.Game]:
    """A game after a random walk of 0-``max_steps`` uniformly random legal actions."""
    return walk_strategy(players=players, max_steps=max_steps).map(Walk.play)


def random_playout(
    game: gr.Game,
    rng: random.Random,
    max_steps: int,
    after_each: Callable[[gr.Game], None] | None = None,
    *,
    prefer_plays: float = 0.0,
) -> list[gr.Action]:
    """Apply up to ``max_steps`` uniformly random legal actions (fewer if the game ends).

    ``after_each`` is called with the game after every action. With ``prefer_plays`` > 0,
    that share of the choices is made among the plays only, when there are any. Returns the
    actions applied.
    """
    taken: list[gr.Action] = []
    while len(taken) < max_steps and not game.is_over:
        legal = game.legal_actions()
        if prefer_plays and rng.random() < prefer_plays:
            plays: list[gr.Action] = [
                a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)
            ]
            legal = plays or legal
        action = rng.choice(legal)
        game.apply(action)
        taken.append(action)
        if after_each is not None:
            after_each(game)
    return taken


# -- the invariants of spec 16 -----------------------------------------------------------------


def needs_met(state: gr.GameState, pos: gr.Pos) -> int:
    """The needs of the city at ``pos`` that its four orthogonal neighbours meet (spec 3.5, 3.6).

    A land need is met by a neighbour of that land that no city covers; the animal need by
    a neighbour carrying tokens; the city's own square never counts. Written independently
    of the engine on purpose.
    """
    city = state.rules.cards.face(state.cities[pos].card)
    assert isinstance(city, gr.CityCard)
    around = [gr.Pos(pos.x, pos.y - 1), gr.Pos(pos.x + 1, pos.y)]
    around += [gr.Pos(pos.x, pos.y + 1), gr.Pos(pos.x - 1, pos.y)]
    uncovered = {state.tiles[p] for p in around if p in state.tiles and p not in state.cities}
    animals = any(state.animals.get(p, 0) > 0 for p in around)
    met = 0
    for need in city.needs:
        if need is gr.ANIMALS:
            met += animals
        else:
            met += need in uncovered
    return met


def _kind_of_face(face: gr.Face) -> gr.CardKind | None:
    match face:
        case gr.NatureCard():
            return gr.CardKind.NATURE
        case gr.CityCard() | gr.AnimalCard():
            return gr.CardKind.LIFE
        case gr.PowerCard():
            return gr.CardKind.POWER
    return None


def _connected(squares: set[gr.Pos]) -> bool:
    start = gr.Pos(0, 0)
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for near in (
            gr.Pos(here.x, here.y - 1),
            gr.Pos(here.x + 1, here.y),
            gr.Pos(here.x, here.y + 1),
            gr.Pos(here.x - 1, here.y),
        ):
            if near in squares and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == squares


def check_invariants(game: gr.Game) -> None:
    """Assert every invariant of spec 16 (16.1-16.7, 16.9) and 5.4 on ``game.state``."""
    state = game.state
    manifest = state.rules.cards
    players = state.players

    # 5.4, 15: exactly one seat decides while the game is on, none once it is over
    assert (state.result is None) == (state.decision is not None) == (not game.is_over)
    assert state.to_move == (None if state.decision is None else state.decision.player)
    assert game.to_move == state.to_move
    assert state.to_move is None or 0 <= state.to_move < players

    # 16.1: tiles conserved per land
    in_world = Counter(state.tiles.values())
    for land, box in BOX_TILES.items():
        assert state.tile_supply[land] >= 0, f"16.1: negative {land} supply"
        assert in_world[land] + state.tile_supply[land] == box, (
            f"16.1: {in_world[land]} {land} tiles in the world and "
            f"{state.tile_supply[land]} in supply; the box has {box}"
        )

    # 16.2: every card of the manifest in exactly one place (and each place holds its kind)
    places: list[tuple[str, gr.CardId]] = []
    for kind in gr.CardKind:
        for label, piles in (
            ("deck", state.decks),
            ("display", state.displays),
            ("discards", state.discards),
        ):
            for card in piles.get(kind, ()):
                places.append((f"{kind.value} {label}", card))
                face = manifest.face(card)
                assert _kind_of_face(face) is kind, f"16.2: {card} in the {kind.value} {label}"
    for seat in range(players):
        places += [(f"hand {seat}", card) for card in state.hands[seat]]
        places += [(f"tableau {seat}", card) for card in state.tableaux[seat]]
        for card in state.tableaux[seat]:
            assert isinstance(manifest.face(card), gr.NatureCard | gr.PowerCard), card
    for pos, city in state.cities.items():
        places.append((f"city {pos}", city.card))
        assert isinstance(manifest.face(city.card), gr.CityCard), f"16.2: {city.card} at {pos}"
    places += [("objectives", card) for card in state.objectives]
    for card in state.objectives:
        assert isinstance(manifest.face(card), gr.Objective), f"16.2: {card} revealed"
    places += [("out of game", card) for card in state.out_of_game]
    where = Counter(card for _, card in places)
    doubled = {card: [p for p, c in places if c == card] for card, n in where.items() if n > 1}
    assert not doubled, f"16.2: cards in several places: {doubled}"
    in_box = {card for card, _ in manifest.cards}
    assert set(where) == in_box, (
        f"16.2: missing {sorted(in_box - set(where))}, unknown {sorted(set(where) - in_box)}"
    )

    # 16.3: tokens
    assert state.bank >= 0
    assert sum(state.animals.values()) + state.bank == TOKENS, "16.3: tokens not conserved"
    for pos, count in state.animals.items():
        assert 1 <= count <= 4, f"16.3: {count} tokens at {pos}"

    # 16.4: pawns
    total = pawns_per_player(players)
    assert state.total_pawns == total
    on_cities = Counter(seat for city in state.cities.values() for seat in city.pawns)
    on_objectives = Counter(state.objective_pawns.values())
    assert set(state.objective_pawns) <= set(state.objectives), "16.4: pawn on a hidden Objective"
    assert set(on_cities) | set(on_objectives) <= set(range(players)), "16.4: pawn of no seat"
    for seat in range(players):
        assert state.supply[seat] >= 0, f"16.4: seat {seat} supply {state.supply[seat]}"
        assert state.supply[seat] + on_cities[seat] + on_objectives[seat] == total, (
            f"16.4: seat {seat}: supply {state.supply[seat]} + cities {on_cities[seat]} + "
            f"Objectives {on_objectives[seat]} != {total}"
        )

    # 16.5: the world
    for pos in state.cities:
        assert pos in state.tiles, f"16.5: city at {pos} on no tile"
        assert pos not in state.animals, f"16.5: city and tokens at {pos}"
    for pos in state.animals:
        assert pos in state.tiles, f"16.5: tokens at {pos} on no tile"
    if state.tiles:
        assert _connected(set(state.tiles)), "16.5: the world is not one group containing (0, 0)"

    # 16.6: cities. A raised city waits empty while its raiser chooses where his last pawns
    # go (10.5), and may stay empty in the final position of a game won that way (15.1).
    waiting = (
        set(state.decision.cities) if isinstance(state.decision, gr.ChoosePawnCities) else set()
    )
    won = state.result is not None and state.result.reason is gr.EndReason.ALL_PAWNS_PLACED
    for pos, city in state.cities.items():
        met = needs_met(state, pos)
        assert met >= 1, f"16.6: the city at {pos} has 0 needs met"
        assert city.satisfaction == met, (
            f"16.6: the city at {pos} records {city.satisfaction} needs met; it has {met}"
        )
        if city.pawns:
            assert met >= 2, f"16.6: pawns {city.pawns} on the city at {pos} with {met} need met"
        if state.rules.level is gr.Level.BASIC:
            assert len(set(city.pawns)) == len(city.pawns), f"16.6: two pawns of one seat at {pos}"
            if met >= 2 and not city.pawns:
                assert pos in waiting or won, (
                    f"16.6: the city at {pos} has {met} needs met, no pawn"
                )

    # 16.7: hand limits between decisions
    discarding = (
        state.decision.player if isinstance(state.decision, gr.ChooseLimitDiscard) else None
    )
    for seat, hand in enumerate(state.hands):
        powers = sum(isinstance(manifest.face(card), gr.PowerCard) for card in hand)
        if seat == discarding:
            assert len(hand) <= HAND_LIMIT + 1 and powers <= POWER_LIMIT + 1, f"16.7: {hand}"
            assert len(hand) > HAND_LIMIT or powers > POWER_LIMIT, (
                f"6.5: seat {seat} is asked to discard from a hand within the limits"
            )
        else:
            assert len(hand) <= HAND_LIMIT, f"16.7: seat {seat} holds {len(hand)} cards"
            assert powers <= POWER_LIMIT, f"16.7: seat {seat} holds {powers} Power cards"

    # 16.9: the outcome
    if state.result is not None:
        result = state.result
        assert 0 <= result.winner < players and 0 <= result.ended_by < players
        placed = tuple(total - state.supply[seat] for seat in range(players))
        assert result.pawns_placed == placed, f"16.9: {result} but placed {placed}"
        if result.reason is gr.EndReason.ALL_PAWNS_PLACED:
            assert state.supply[result.winner] == 0, f"15.1: {result} with pawns in supply"
            assert result.ended_by == result.winner
            assert [seat for seat in range(players) if state.supply[seat] == 0] == [
                result.winner
            ], f"15.1: two empty supplies: {state.supply}"
        else:
            order = [(result.ended_by + k) % players for k in range(1, players + 1)]
            best = max(placed)
            expected = next(seat for seat in order if placed[seat] == best)
            assert result.winner == expected, f"15.3, 15.4: {result}; expected seat {expected}"


def _deck_measure(state: gr.GameState) -> int:
    """2 x (cards in decks and displays) + (cards in hands): falls with every action (15.5)."""
    piles = sum(len(p) for p in state.decks.values()) + sum(len(p) for p in state.displays.values())
    return 2 * piles + sum(len(hand) for hand in state.hands)


def check_transition(before: gr.GameState, after: gr.GameState) -> None:
    """What may never happen between two successive states of one game (16.4, 16.5, 15.5)."""
    # 16.4: a pawn on an Objective never leaves it
    for objective, seat in before.objective_pawns.items():
        assert after.objective_pawns.get(objective) == seat, f"16.4: {objective} lost its pawn"
    # 16.5: no square that holds a tile is ever emptied (and, at the basic level, never changes)
    for pos, land in before.tiles.items():
        assert pos in after.tiles, f"16.5: the tile at {pos} left the world"
        if before.rules.level is gr.Level.BASIC:
            assert after.tiles[pos] is land, f"the tile at {pos} changed at the basic level"
    # 6.2, 6.4, 15.5: no card returns to a deck, decks keep their order, discards only grow
    for kind, deck in before.decks.items():
        now = after.decks[kind]
        assert deck[len(deck) - len(now) :] == now, f"15.5: the {kind.value} deck changed order"
    for kind, pile in before.discards.items():
        assert after.discards[kind][: len(pile)] == pile, f"6.4: the {kind.value} discards changed"
    # 15.5: the measure falls with every turn action that does not end the game
    if isinstance(before.decision, gr.ChooseAction) and after.result is None:
        assert _deck_measure(after) < _deck_measure(before), "15.5: an action gained nothing"
    assert _deck_measure(after) <= _deck_measure(before), "15.5: the measure rose"


class InvariantChecker:
    """A walk's ``after_each``: :func:`check_invariants`, and :func:`check_transition` from
    the state it saw last."""

    def __init__(self) -> None:
        self.last: gr.GameState | None = None
        self.states = 0

    def __call__(self, game: gr.Game) -> None:
        check_invariants(game)
        state = game.state
        if self.last is not None:
            check_transition(self.last, state)
        self.last = state
        self.states += 1


# -- actions that must be refused, and the candidates of the exactness check ------------------


def _around(pos: gr.Pos) -> tuple[gr.Pos, ...]:
    return (
        gr.Pos(pos.x, pos.y - 1),
        gr.Pos(pos.x + 1, pos.y),
        gr.Pos(pos.x, pos.y + 1),
        gr.Pos(pos.x - 1, pos.y),
    )


def _shifted(action: gr.Action) -> Iterator[gr.Action]:
    """The action with one of its squares moved one step in each direction."""
    match action:
        case gr.PlayNature() | gr.PlayAnimals() | gr.PlayCity():
            for near in _around(action.pos):
                yield attrs.evolve(action, pos=near)
        case gr.Feed():
            for near in _around(action.city):
                yield attrs.evolve(action, city=near)
            for near in _around(action.source):
                yield attrs.evolve(action, source=near)
        case gr.PlaceCityPawn():
            for near in _around(action.city):
                yield attrs.evolve(action, city=near)


NO_SUCH_CARDS: tuple[gr.CardId, ...] = ("N99", "C99", "A99", "P99", "O99", "X01", "")
"""Card ids no manifest has."""


def _other_cards(state: gr.GameState, player: int) -> list[gr.CardId]:
    """Cards of the box the player does not hold, one per place, and cards that do not exist."""
    others: list[gr.CardId] = []
    for seat, hand in enumerate(state.hands):
        if seat != player:
            others += hand[:2]
    for piles in (state.decks, state.displays, state.discards):
        for pile in piles.values():
            others += pile[:1]
    for seat in range(state.players):
        others += state.tableaux[seat][:1]
    others += [city.card for city in list(state.cities.values())[:1]]
    others += state.objectives[:1] + state.out_of_game[:1]
    return [card for card in others if card not in state.hands[player]] + list(NO_SUCH_CARDS)


def _with_card(action: gr.Action, state: gr.GameState) -> Iterator[gr.Action]:
    """The action with its card replaced by one the player does not hold (or that is not there)."""
    match action:
        case gr.PlayNature() | gr.PlayAnimals() | gr.PlayCity() | gr.Discard():
            for card in _other_cards(state, action.player):
                yield attrs.evolve(action, card=card)
        case gr.DrawDisplay():
            shown = {c for display in state.displays.values() for c in display}
            for card in _other_cards(state, action.player):
                if card not in shown:
                    yield attrs.evolve(action, card=card)
        case gr.FulfillObjective():
            for card in (*state.out_of_game[:2], *state.hands[action.player][:1], "O99"):
                yield attrs.evolve(action, objective=card)


def _answering_other_decisions(game: gr.Game, player: int) -> list[gr.Action]:
    """One action of every type, for ``player``, built from the state (for type mutations)."""
    state = game.state
    hand = state.hands[player]
    card = hand[0] if hand else "N01"
    city = next(iter(state.cities), gr.Pos(0, 0))
    square = next(iter(state.tiles), gr.Pos(0, 0))
    return [
        gr.DrawDeck(player, gr.CardKind.NATURE),
        gr.DrawDeck(player, gr.CardKind.LIFE),
        *(gr.DrawDisplay(player, c) for c in state.displays.get(gr.CardKind.NATURE, ())[:1]),
        gr.PlayNature(player, card, square),
        gr.PlayAnimals(player, card, square),
        gr.PlayCity(player, card, square),
        *(gr.Feed(player, city, near) for near in _around(city)),
        gr.Discard(player, card),
        *(gr.FulfillObjective(player, o) for o in state.objectives),
        gr.DeclineObjectives(player),
        gr.PlaceCityPawn(player, city),
    ]


def other_seats_actions(game: gr.Game) -> list[gr.Action]:
    """The actions each other seat could take if its turn began now (at a turn's action only).

    Built by setting up the same position with another seat to move; ``[]`` at any other
    decision.
    """
    if not isinstance(game.decision, gr.ChooseAction):
        return []
    position = Position.from_game(game)
    found: list[gr.Action] = []
    for seat in range(game.players):
        if seat != game.to_move:
            other = attrs.evolve(position, active=seat, turn_action=1).to_game()
            found += other.legal_actions()
    return found


def mutated_actions(game: gr.Game, legal: Iterable[gr.Action] | None = None) -> list[object]:
    """Actions near the legal ones that should be refused (some may turn out legal: filter).

    The right action for every other seat; a card the player does not hold or that does not
    exist; a square one step off; an action that answers another decision; and the actions
    of the other seats, for themselves and as if the player to move took them.
    """
    if game.is_over:
        return [gr.DrawDeck(0, gr.CardKind.NATURE), gr.DeclineObjectives(0)]
    legal = game.legal_actions() if legal is None else list(legal)
    player = game.to_move
    assert player is not None
    state = game.state
    found: list[object] = []
    for action in legal:
        found += [
            attrs.evolve(action, player=seat) for seat in range(game.players) if seat != player
        ]
        found += _with_card(action, state)
        found += _shifted(action)
    found += _answering_other_decisions(game, player)
    for action in other_seats_actions(game):
        found += [action, attrs.evolve(action, player=player)]
    unique: dict[object, None] = dict.fromkeys(found)
    return list(unique)


def _bounding_box(state: gr.GameState) -> list[gr.Pos]:
    """Every square of the world's bounding box grown by one ((0, 0) and around if empty)."""
    xs = [pos.x for pos in state.tiles] or [0]
    ys = [pos.y for pos in state.tiles] or [0]
    return [
        gr.Pos(x, y)
        for x in range(min(xs) - 1, max(xs) + 2)
        for y in range(min(ys) - 1, max(ys) + 2)
    ]


def candidate_actions(game: gr.Game, seats: Iterable[int] | None = None) -> Iterator[gr.Action]:
    """A large set of actions (for ``seats``, default every seat), among them every legal one.

    Every card of the manifest on every square of the grown bounding box, for every action
    that takes a card and a square; every draw; every feeding of every square of the box from
    each neighbour; every discard; every Objective choice; every pawn placement.
    """
    state = game.state
    cards = [card for card, _ in state.rules.cards.cards] + ["N99"]
    squares = _bounding_box(state)
    for seat in range(state.players) if seats is None else seats:
        for cls in (gr.PlayNature, gr.PlayAnimals, gr.PlayCity):
            for card in cards:
                for pos in squares:
                    yield cls(seat, card, pos)
        for kind in gr.CardKind:
            yield gr.DrawDeck(seat, kind)
        for card in cards:
            yield gr.DrawDisplay(seat, card)
            yield gr.Discard(seat, card)
        for card in state.rules.cards.ids(gr.Objective):
            yield gr.FulfillObjective(seat, card)
        yield gr.DeclineObjectives(seat)
        for pos in squares:
            yield gr.PlaceCityPawn(seat, pos)
            for near in _around(pos):
                yield gr.Feed(seat, pos, near)
