"""Hypothesis strategies, random playouts and the invariants of spec 16, for property tests.

A random game is a *walk*: the players, the rules, the seed, the first player, how many
actions to play and the seed of a :class:`random.Random` that picks each action uniformly
among ``game.legal_actions()`` (or, with ``prefer_plays``, more often among the plays).
Hypothesis draws the walk (a handful of values it can shrink), never the hundreds of
individual choices, so a failing example prints as a short, exact recipe::

    Walk(players=3, rules=..., seed=17, first_player=2, steps=250, walk_seed=4)

The rules are drawn from every level (basic, advanced, powers, disasters) and every switch.
:func:`check_invariants` asserts every invariant of spec 16 from ``game.state`` alone, at the
rules of the game's level, and recomputes the needs met of every city and the pawns a city
carries on its own (it never asks the engine's satisfaction code, nor its own checker), so a
wrong count in the engine cannot hide behind itself.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence

import attrs
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.position import Position
from tests.oracle.legal import RAIN, SCORCHED, SUN, legal_actions, power_plays
from tests.oracle.model import plain_of

__all__ = [
    "ADVANCED_RULES",
    "ALL_BASIC_RULES",
    "ALL_RULES",
    "BOX_POWERS",
    "BOX_TILES",
    "DISASTERS_RULES",
    "POWERS_RULES",
    "RAIN",
    "RULES_BY_LEVEL",
    "SCORCHED",
    "SUN",
    "TOKENS",
    "CityHistoryChecker",
    "InvariantChecker",
    "Walk",
    "around",
    "candidate_actions",
    "check_invariants",
    "check_power_options",
    "check_shown_options",
    "check_transition",
    "city_pawn_counts",
    "game_strategy",
    "holds_power",
    "left_of",
    "mutated_actions",
    "needs_met",
    "pawns_per_player",
    "power_deck_counts",
    "power_options",
    "random_playout",
    "rules_id",
    "rules_strategy",
    "same_choice",
    "spread",
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

BOX_POWERS: dict[gr.Power, int] = {
    gr.Power.SUN: 6,
    gr.Power.RAIN: 6,
    gr.Power.EARTHQUAKE: 3,
    gr.Power.TORNADO: 4,
    gr.Power.PROTECTION: 4,
    gr.Power.LIGHTNING: 5,
    gr.Power.ERUPTION: 2,
}
"""The Power cards of the box (spec 2.7): the first five types make the powers level's deck
of 23; the disasters level adds the 2 Eruptions and ``lightnings`` Lightnings (14.1)."""

DISASTER_POWERS = (gr.Power.LIGHTNING, gr.Power.ERUPTION)

TOKENS = 20
"""The animal tokens of the box (spec 2.2, 16.3)."""

HAND_LIMIT = 6
POWER_LIMIT = 2
FOUR_NEEDS = 4
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

_THIRD, _FIRST = gr.Edition.THIRD, gr.Edition.FIRST
_HOLDER, _EVERY = gr.Feeding.PAWN_HOLDER, gr.Feeding.EVERY_CITY
_MANDATORY, _OPTIONAL = gr.Objectives.MANDATORY, gr.Objectives.OPTIONAL
_KEEP, _EMPTY = gr.FourNeedDrop.KEEP_ONE, gr.FourNeedDrop.EMPTY_AT_TWO

ADVANCED_RULES: tuple[gr.Rules, ...] = tuple(
    gr.Rules.advanced(
        four_need_drop=drop,
        edition=edition,
        feeding=feeding,
        objectives=objectives,
        star_animals_on_sea=sea,
    )
    for drop, edition, feeding, objectives, sea in (
        (_KEEP, _THIRD, _HOLDER, _MANDATORY, True),
        (_EMPTY, _FIRST, _EVERY, _OPTIONAL, False),
        (_KEEP, _FIRST, _HOLDER, _OPTIONAL, False),
        (_EMPTY, _THIRD, _EVERY, _MANDATORY, True),
    )
)
"""The advanced level: both values of ``four_need_drop``, each with both editions and both
values of every basic switch."""

POWERS_RULES: tuple[gr.Rules, ...] = tuple(
    gr.Rules.powers(
        four_need_drop=drop,
        edition=edition,
        feeding=feeding,
        objectives=objectives,
        star_animals_on_sea=sea,
    )
    for drop, edition, feeding, objectives, sea in (
        (_KEEP, _FIRST, _EVERY, _OPTIONAL, True),
        (_EMPTY, _THIRD, _HOLDER, _MANDATORY, False),
        (_EMPTY, _FIRST, _HOLDER, _OPTIONAL, True),
        (_KEEP, _THIRD, _EVERY, _MANDATORY, False),
    )
)
"""The powers level, mixed as :data:`ADVANCED_RULES` are."""

DISASTERS_RULES: tuple[gr.Rules, ...] = tuple(
    gr.Rules.disasters(
        lightnings=lightnings,
        eruption_on_city=on_city,
        four_need_drop=drop,
        edition=edition,
        feeding=feeding,
        objectives=objectives,
        star_animals_on_sea=sea,
    )
    for lightnings, on_city, drop, edition, feeding, objectives, sea in (
        (5, True, _KEEP, _THIRD, _HOLDER, _MANDATORY, True),
        (2, False, _EMPTY, _FIRST, _EVERY, _OPTIONAL, False),
        (0, True, _EMPTY, _FIRST, _HOLDER, _MANDATORY, False),
        (5, False, _EMPTY, _THIRD, _EVERY, _OPTIONAL, True),
        (2, True, _KEEP, _THIRD, _EVERY, _MANDATORY, False),
        (0, False, _KEEP, _FIRST, _HOLDER, _OPTIONAL, True),
    )
)
"""The disasters level: ``lightnings`` 5, 2 and 0, each with ``eruption_on_city`` True and
False, mixed with both values of every other switch."""

RULES_BY_LEVEL: dict[gr.Level, tuple[gr.Rules, ...]] = {
    gr.Level.BASIC: ALL_BASIC_RULES,
    gr.Level.ADVANCED: ADVANCED_RULES,
    gr.Level.POWERS: POWERS_RULES,
    gr.Level.DISASTERS: DISASTERS_RULES,
}

ALL_RULES: tuple[gr.Rules, ...] = tuple(itertools.chain(*RULES_BY_LEVEL.values()))
"""Representative rule sets at every level (30): every basic combination, and at each higher
level every value of its own switches, mixed with the editions and the other switches."""

LEVELS: tuple[gr.Level, ...] = tuple(gr.Level)


def spread(index: int) -> tuple[int, gr.Rules]:
    """The player count and rules of the ``index``-th game of a sweep.

    Any 16 consecutive indices give every level at every player count (2-5); within a level,
    each block of 16 takes the next four of its rule sets, with a player count that shifts
    from block to block, so 16 x ``ceil(n / 4)`` games meet all ``n`` rule sets of a level.
    """
    players = 2 + index % 4
    level = LEVELS[(index // 4) % 4]
    sets = RULES_BY_LEVEL[level]
    block = index // 16
    return players, sets[(4 * block + (index + block) % 4) % len(sets)]


def rules_id(rules: gr.Rules) -> str:
    """A short name of a rule set for test ids: its level and every switch it has."""
    parts = [
        rules.level.name.lower(),
        rules.edition.value,
        rules.feeding.value,
        rules.objectives.value,
        "star_sea" if rules.star_animals_on_sea else "no_star_sea",
    ]
    if rules.level >= gr.Level.ADVANCED:
        parts.append(rules.four_need_drop.value)
    if rules.level >= gr.Level.DISASTERS:
        parts.append(f"lightnings{rules.lightnings}")
        parts.append("eruption_on_city" if rules.eruption_on_city else "no_eruption_on_city")
    return "-".join(parts)


def pawns_per_player(players: int) -> int:
    """6 pawns each with 2 players, 5 with 3-5 (spec 2.3, 16.4)."""
    return 6 if players == 2 else 5


def power_deck_counts(rules: gr.Rules) -> Counter[gr.Power]:
    """The Power cards in play at a level, by type (spec 2.7, 13.1, 14.1): none below the
    powers level; 23 at it; with disasters also the 2 Eruptions and ``lightnings``."""
    if rules.level < gr.Level.POWERS:
        return Counter()
    counts = Counter({p: n for p, n in BOX_POWERS.items() if p not in DISASTER_POWERS})
    if rules.level >= gr.Level.DISASTERS:
        counts[gr.Power.LIGHTNING] = rules.lightnings
        counts[gr.Power.ERUPTION] = BOX_POWERS[gr.Power.ERUPTION]
    return +counts


def city_pawn_counts(met: int, rules: gr.Rules, players: int) -> range:
    """How many pawns a city with ``met`` needs met may carry once a change is settled.

    Written from the spec, not from the engine: below 2 needs none (10.3); in the basic game
    one per player who raised it, at least one (10.4, 16.6); from the advanced level its
    owner's pawns only (12.1): two at four needs (12.3), one at three, and one at two, or
    none under EMPTY_AT_TWO once it has reached four needs and not been emptied since (12.4).
    """
    if met < 2:
        return range(0, 1)
    if rules.level is gr.Level.BASIC:
        return range(1, players + 1)
    if met == FOUR_NEEDS:
        return range(2, 3)
    if met == 2 and rules.four_need_drop is gr.FourNeedDrop.EMPTY_AT_TWO:
        return range(0, 2)
    return range(1, 2)


def left_of(seat: int, players: int) -> list[int]:
    """The other seats in seat order from ``seat``'s left (spec 1.4, 13.8, 13.9b)."""
    return [(seat + k) % players for k in range(1, players)]


def holds_power(state: gr.GameState, seat: int) -> bool:
    """Whether a seat's hand shows a Power back (spec 13.9b)."""
    return any(isinstance(state.rules.cards.face(c), gr.PowerCard) for c in state.hands[seat])


# -- strategies --------------------------------------------------------------------------------


@st.composite
def rules_strategy(draw: st.DrawFn, levels: tuple[gr.Level, ...] = LEVELS) -> gr.Rules:
    """Rules of any of ``levels`` (default every level), both editions, and every value of
    every switch the level has."""
    level = draw(st.sampled_from(levels))
    edition = draw(st.sampled_from(gr.Edition))
    feeding = draw(st.sampled_from(gr.Feeding))
    objectives = draw(st.sampled_from(gr.Objectives))
    sea = draw(st.booleans())
    drop = _KEEP
    if level >= gr.Level.ADVANCED:
        drop = draw(st.sampled_from(gr.FourNeedDrop))
    lightnings, on_city = 5, True
    if level >= gr.Level.DISASTERS:
        lightnings = draw(st.integers(0, 5))
        on_city = draw(st.booleans())
    return gr.Rules(
        level=level,
        edition=edition,
        feeding=feeding,
        objectives=objectives,
        star_animals_on_sea=sea,
        four_need_drop=drop,
        lightnings=lightnings,
        eruption_on_city=on_city,
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
    levels: tuple[gr.Level, ...] = LEVELS,
) -> Walk:
    """A :class:`Walk`: 2-5 players (or ``players``), rules of any of ``levels`` (default
    every level), 0-``max_steps`` actions, uniformly random unless ``prefer_plays`` offers a
    bias towards plays."""
    seats = draw(st.integers(2, 5)) if players is None else players
    return Walk(
        players=seats,
        rules=draw(rules_strategy(levels)),
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


@functools.cache
def games_at(kind: str, count: int = 3) -> tuple[gr.Game, ...]:
    """Seeded games stopped where a decision of ``kind`` (a class name: ``"ChooseKeptCard"``)
    is asked, at most one a game. They prefer plays to draws, so that pawns run short and
    every kind of decision comes; the games are shared, so copy one before playing on."""
    found: list[gr.Game] = []
    powers_only = kind in ("ChooseProtection", "ChooseKeptCard", "ChooseBack")
    for index in range(600):
        players, rules = spread(index)
        if powers_only and not rules.with_powers:
            continue
        game = gr.new_game(players=players, rules=rules, seed=40_000 + index)
        rng = random.Random(index)
        while not game.is_over and type(game.decision).__name__ != kind:
            random_playout(game, rng, 1, prefer_plays=0.9)
        if not game.is_over:
            found.append(game)
            if len(found) == count:
                return tuple(found)
    raise AssertionError(f"no {kind} in 600 games")


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


def check_shown_options(game: gr.Game, legal: Sequence[gr.Action] | None = None) -> None:
    """A decision reaches its player only with a real choice (5.4): two options or more,
    except the Protection decision, asked even when its one option is to pass (13.9c), and a
    limit discard, asked even when the cards it may discard are copies of one face (6.5c)."""
    legal = game.legal_actions() if legal is None else legal
    if game.is_over:
        assert legal == [], f"15.1: {legal} after the end"
        return
    if isinstance(game.decision, gr.ChooseProtection) and len(legal) == 1:
        assert legal == [gr.PassProtection(game.decision.player)], f"13.9c: {legal}"
        return
    if isinstance(game.decision, gr.ChooseLimitDiscard) and len(legal) == 1:
        return
    assert len(legal) >= 2, f"5.4: {game.decision} reached seat {game.to_move}: {legal}"


# -- the invariants of spec 16 -----------------------------------------------------------------


def around(pos: gr.Pos) -> tuple[gr.Pos, ...]:
    """The four orthogonal neighbours of a square, its neighbours (spec 3.1)."""
    return (
        gr.Pos(pos.x, pos.y - 1),
        gr.Pos(pos.x + 1, pos.y),
        gr.Pos(pos.x, pos.y + 1),
        gr.Pos(pos.x - 1, pos.y),
    )


def _corners(pos: gr.Pos) -> tuple[gr.Pos, ...]:
    """The four squares that touch ``pos`` only at a corner."""
    return tuple(gr.Pos(pos.x + dx, pos.y + dy) for dx in (-1, 1) for dy in (-1, 1))


def needs_met(state: gr.GameState, pos: gr.Pos) -> int:
    """The needs of the city at ``pos`` that its four orthogonal neighbours meet (spec 3.5, 3.6).

    A land need is met by a neighbour of that land that no city covers; the animal need by
    a neighbour carrying tokens; the city's own square never counts. Written independently
    of the engine on purpose.
    """
    city = state.rules.cards.face(state.cities[pos].card)
    assert isinstance(city, gr.CityCard)
    ring = around(pos)
    uncovered = {state.tiles[p] for p in ring if p in state.tiles and p not in state.cities}
    animals = any(state.animals.get(p, 0) > 0 for p in ring)
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
        for near in around(todo.pop()):
            if near in squares and near not in seen:
                seen.add(near)
                todo.append(near)
    return seen == squares


def _check_decision(state: gr.GameState) -> None:
    """Who decides (5.4, 13.10), and the Tornado and Protection windows seen from the state
    alone (13.8, 13.9b)."""
    decision, players, active = state.decision, state.players, state.active
    rules, manifest = state.rules, state.rules.cards
    if decision is not None and not isinstance(decision, gr.ChooseProtection | gr.ChooseObjective):
        assert decision.player == active, f"5.4: {decision} in seat {active}'s turn"
    if isinstance(decision, gr.ChooseObjective) and decision.player != active:
        assert rules.level >= gr.Level.POWERS, f"13.9f: {decision} out of turn below powers"
    # 13.8b: stolen cards lie aside only during a Tornado, before one is kept
    thief = decision.player if isinstance(decision, gr.ChooseBack | gr.ChooseKeptCard) else None
    if state.stolen:
        assert thief is not None, f"13.8b: cards set aside {state.stolen} at {decision}"
    if thief is not None:
        assert rules.level >= gr.Level.POWERS, f"13.1: {decision} below the powers level"
        order = left_of(thief, players)
        sources = [source for _, source in state.stolen]
        assert all(s in order for s in sources), f"13.8: a card stolen from the thief {sources}"
        assert sources == sorted(set(sources), key=order.index), f"13.8: taken in {sources}"
        holding = {seat for seat in order if state.hands[seat]}
        if isinstance(decision, gr.ChooseBack):
            victims = [decision.victim, *decision.later]
            assert decision.victim in order and state.hands[decision.victim], decision
            start = order.index(decision.victim)
            assert all(order.index(s) < start for s in sources), f"13.8: {sources} {decision}"
            expected = tuple(seat for seat in order[start + 1 :] if state.hands[seat])
            assert decision.later == expected, f"13.8: {decision}, seats holding cards {expected}"
            assert holding <= {*sources, *victims}, f"13.8d: {holding} not all robbed"
        else:
            assert len(state.stolen) >= 2, f"13.10: the engine keeps a lone card: {state.stolen}"
            assert holding <= set(sources), f"13.8d: seats {holding} holding cards not robbed"
    # 13.9b: the window asks the other seats holding a Power card, from the active player's left
    if isinstance(decision, gr.ChooseProtection):
        assert rules.level >= gr.Level.POWERS, f"13.1: {decision} below the powers level"
        assert decision.power_player == active, f"13.9b: {decision} in seat {active}'s turn"
        tableau = state.tableaux[active]
        assert tableau and tableau[-1] == decision.against, f"13.3: {decision}, {tableau}"
        against = manifest.face(decision.against)
        assert isinstance(against, gr.PowerCard), decision
        assert against.power is not gr.Power.PROTECTION, f"13.9d: {decision}"
        order = left_of(active, players)
        holders = [seat for seat in order if holds_power(state, seat)]
        assert decision.player in holders, f"13.9b: {decision}; Power holders {holders}"
        after = holders[holders.index(decision.player) + 1 :]
        assert decision.later == tuple(after), f"13.9b: {decision}; Power holders {holders}"


def check_invariants(game: gr.Game) -> None:
    """Assert every invariant of spec 16 (16.1-16.7, 16.9) and 5.4 on ``game.state``, at the
    rules of the game's level (12, 13, 14)."""
    state = game.state
    rules = state.rules
    manifest = rules.cards
    players = state.players
    level = rules.level

    # 5.4, 15: exactly one seat decides while the game is on, none once it is over
    assert (state.result is None) == (state.decision is not None) == (not game.is_over)
    assert state.to_move == (None if state.decision is None else state.decision.player)
    assert game.to_move == state.to_move
    assert state.to_move is None or 0 <= state.to_move < players
    _check_decision(state)

    # 16.1: tiles conserved per land (13.6: a replaced tile goes back to the supply)
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
            face = manifest.face(card)
            assert isinstance(face, gr.NatureCard | gr.PowerCard), f"16.2: {card} in front"
            assert isinstance(face, gr.NatureCard) or level >= gr.Level.POWERS, card
    for card, _ in state.stolen:  # 13.8b: a place of its own, held by no hand
        places.append(("set aside by a Tornado", card))
        assert _kind_of_face(manifest.face(card)) is not None, f"16.2: {card} stolen"
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
    # 16.2, 2.7, 13.1, 14.1: the level's Power deck, and Power Objectives only with it
    out = set(state.out_of_game)
    in_game = Counter(
        face.power
        for card, face in manifest.cards
        if isinstance(face, gr.PowerCard) and card not in out
    )
    assert in_game == power_deck_counts(rules), f"16.2: Power cards in the game {in_game}"
    lightnings = sorted(
        card
        for card, face in manifest.cards
        if isinstance(face, gr.PowerCard) and face.power is gr.Power.LIGHTNING
    )
    kept = [card for card in lightnings if card not in out]
    assert kept == lightnings[: len(kept)], f"14.1: the Lightnings in play are {kept}"
    if level < gr.Level.POWERS:
        for card, face in manifest.cards:
            if isinstance(face, gr.Objective) and face.is_power:
                assert card in out, f"13.1: Power Objective {card} in a game without Powers"

    # 16.10: a display is short of its slots (3 Nature, 2 Life, 2 Power) only once its deck
    # is empty
    for kind, slots in ((gr.CardKind.NATURE, 3), (gr.CardKind.LIFE, 2), (gr.CardKind.POWER, 2)):
        if len(state.displays.get(kind, ())) < slots:
            assert not state.decks.get(kind), f"16.10: an empty {kind.value} slot, deck not empty"

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

    # 16.6, 12.1-12.5: cities. A raised city waits (empty, or still its rival's, or short of
    # its second pawn) while its raiser chooses where his last pawns go (10.5, 12.5), and
    # may stay so in the final position of a game won that way (15.1).
    waiting = (
        set(state.decision.cities) if isinstance(state.decision, gr.ChoosePawnCities) else set()
    )
    won = state.result is not None and state.result.reason is gr.EndReason.ALL_PAWNS_PLACED
    for pos, city in state.cities.items():
        met = needs_met(state, pos)
        pawns = city.pawns
        assert met >= 1, f"16.6: the city at {pos} has 0 needs met"
        assert city.satisfaction == met, (
            f"16.6: the city at {pos} records {city.satisfaction} needs met; it has {met}"
        )
        if pawns:
            assert met >= 2, f"16.6: pawns {pawns} on the city at {pos} with {met} need met"
        counts = city_pawn_counts(met, rules, players)
        if level is gr.Level.BASIC:
            assert len(set(pawns)) == len(pawns), f"16.6: two pawns of one seat at {pos}"
        else:
            assert len(set(pawns)) <= 1, f"12.1: the city at {pos} has two owners: {pawns}"
            most = 2 if met == FOUR_NEEDS else 1
            assert len(pawns) <= most, f"12.3: {pawns} on the city at {pos} with {met} needs met"
        if pos not in waiting and not won:
            assert len(pawns) in counts, (
                f"16.6, 12.3, 12.4: the city at {pos} has {met} needs met and pawns {pawns} "
                f"({rules_id(rules)})"
            )

    # 16.7: the hand limit, and from the powers level the Power limit, between decisions
    discarding = (
        state.decision.player if isinstance(state.decision, gr.ChooseLimitDiscard) else None
    )
    for seat, hand in enumerate(state.hands):
        powers = sum(isinstance(manifest.face(card), gr.PowerCard) for card in hand)
        if level < gr.Level.POWERS:
            assert powers == 0, f"13.1: seat {seat} holds Power cards below the powers level"
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
        assert not state.stolen, f"16.9: the game ended with cards set aside {state.stolen}"
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
    """2 x (cards in decks and displays) + (cards in hands and set aside by a Tornado): falls
    with every action (15.5)."""
    piles = sum(len(p) for p in state.decks.values()) + sum(len(p) for p in state.displays.values())
    return 2 * piles + sum(len(hand) for hand in state.hands) + len(state.stolen)


SUN_AND_RAIN: frozenset[tuple[gr.Land, gr.Land]] = frozenset(
    {
        (gr.Land.SWAMP, gr.Land.PLAIN),
        (gr.Land.PLAIN, gr.Land.DESERT),
        (gr.Land.DESERT, gr.Land.PLAIN),
        (gr.Land.PLAIN, gr.Land.SWAMP),
    }
)
"""The replacements a Sun (13.4) or a Rain (13.5) makes, old land first."""


def _tile_change(before: gr.GameState, after: gr.GameState) -> str | None:
    """Why the lands of the squares in play changed as no one action may change them, or
    ``None``: below the powers level they never change; from it, one action makes one
    Sun or Rain replacement (13.4, 13.5), one Earthquake swap of two neighbours (13.7), or,
    with disasters, one Eruption that turns some neighbours of a mountain into deserts
    (14.3c)."""
    changed = {
        pos: (land, after.tiles[pos])
        for pos, land in before.tiles.items()
        if after.tiles[pos] is not land
    }
    if not changed:
        return None
    level = before.rules.level
    if level < gr.Level.POWERS:
        return f"tiles changed below the powers level: {changed}"
    squares = sorted(changed)
    if len(squares) == 1:
        pos = squares[0]
        if changed[pos] in SUN_AND_RAIN and pos not in before.cities:
            return None
    if len(squares) == 2:
        first, second = squares
        if second in around(first) and changed[first] == changed[second][::-1]:
            return None
    if level >= gr.Level.DISASTERS and all(
        old in SCORCHED and new is gr.Land.DESERT for old, new in changed.values()
    ):
        mountains = {
            near
            for pos in squares
            for near in around(pos)
            if before.tiles.get(near) is gr.Land.MOUNTAIN
            and after.tiles.get(near) is gr.Land.MOUNTAIN
        }
        if any(set(squares) <= set(around(mountain)) for mountain in mountains):
            return None
    return f"no one Power changes these tiles (old, new): {changed}"


def check_transition(before: gr.GameState, after: gr.GameState) -> None:
    """What may never happen between two successive states of one game (16.1, 16.4, 16.5,
    13.4-13.7, 14.3, 15.5)."""
    # 16.4: a pawn on an Objective never leaves it
    for objective, seat in before.objective_pawns.items():
        assert after.objective_pawns.get(objective) == seat, f"16.4: {objective} lost its pawn"
    # 16.2: what is out of the game stays out, and nothing joins it
    assert after.out_of_game == before.out_of_game, "16.2: the cards out of the game changed"
    # 16.5: no square that holds a tile is ever emptied, and one action adds at most one tile;
    # 16.1, 13.6: a tile in play changes only by a Sun, a Rain, an Earthquake or an Eruption
    for pos in before.tiles:
        assert pos in after.tiles, f"16.5: the tile at {pos} left the world"
    assert len(after.tiles) <= len(before.tiles) + 1, "7.2: two tiles placed by one action"
    why = _tile_change(before, after)
    assert why is None, why
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


class CityHistoryChecker:
    """A walk's ``after_each`` that follows every city, by its card, from state to state and
    checks what each change did to its pawns (10.3, 10.4, 12.2-12.4), which the state alone
    cannot show. It keeps its own record of whether a city has reached four needs and not
    been emptied since (12.4), and counts what it saw in :attr:`seen`.

    Within one step of the game a city may change twice (a turn's last action, then the
    next seat's feeding, which the engine may take by itself): the log says how many times
    (one ``SatisfactionChanged`` per settled change that moved it), and a city that changed
    twice is only checked where the result does not depend on the order, its record left
    unknown until it reaches four needs or is emptied again.
    """

    def __init__(self) -> None:
        self.last: gr.GameState | None = None
        self.logged = 0
        self.reached_four: dict[gr.CardId, bool | None] = {}
        self.seen: Counter[str] = Counter()

    def __call__(self, game: gr.Game) -> None:
        state, last = game.state, self.last
        events = game.events
        new, self.logged = events[self.logged :], len(events)
        self.last = state
        if last is None:
            return
        rules = state.rules
        advanced = rules.level >= gr.Level.ADVANCED
        empty_at_two = advanced and rules.four_need_drop is gr.FourNeedDrop.EMPTY_AT_TWO
        changes = Counter(e.pos for e in new if isinstance(e, gr.SatisfactionChanged))
        settled = state.result is None and not isinstance(state.decision, gr.ChoosePawnCities)
        credited = state.active if state.active == last.active else None
        before = {city.card: city for city in last.cities.values()}
        for pos, city in state.cities.items():
            card, pawns = city.card, city.pawns
            old = before.get(card)
            was, now = (old.satisfaction, old.pawns) if old else (0, ()), city.satisfaction
            (was_met, had), single = was, changes[pos] <= 1
            mark = self.reached_four.get(card, False)
            where = f"city {card} at {pos}: {was_met} -> {now} needs, pawns {had} -> {pawns}"
            if settled and single and now < was_met:
                if now <= 1:
                    assert pawns == (), f"10.3: {where}"
                elif now == 2 and empty_at_two and mark:
                    assert pawns == (), f"12.4 (EMPTY_AT_TWO, reached four): {where}"
                    self.seen["emptied at two after four"] += 1
                elif now == 2 and empty_at_two and mark is None:
                    self.seen["fell to two, record unknown"] += 1
                elif advanced:
                    assert pawns == had[:1], f"12.4: {where}"
                    if len(had) == 2:
                        self.seen[f"kept one pawn at {now} after four"] += 1
                else:
                    assert pawns == had, f"10.3: {where}"
            if settled and single and now > was_met and now >= 2 and credited is not None:
                if advanced:
                    expected = (credited,) * (2 if now == FOUR_NEEDS else 1)
                    assert pawns == expected, f"12.2, 12.3: credited seat {credited}: {where}"
                    if had and had[0] != credited:
                        self.seen["a city stolen"] += 1
                else:
                    assert credited in pawns and set(had) <= set(pawns), f"10.4: {where}"
            if now == FOUR_NEEDS:
                self.reached_four[card] = True
            elif settled and not pawns:
                self.reached_four[card] = False
            elif not single:
                self.reached_four[card] = None
            elif old is None:
                self.reached_four[card] = False


POWER_ACTIONS = (
    gr.PlaySun,
    gr.PlayRain,
    gr.PlayEarthquake,
    gr.PlayTornado,
    gr.PlayLightning,
    gr.PlayEruption,
    gr.Protect,
    gr.PassProtection,
    gr.NameBack,
    gr.KeepCard,
)
"""The actions of the powers and disasters levels."""


def power_options(state: gr.GameState) -> set[gr.Action]:
    """The legal actions of the pending decision that sections 13 and 14 decide, written from
    the spec rather than read from the engine (the oracle's, :mod:`tests.oracle.legal`): each
    Power in the hand of the player to act at every legal target (13.2, 13.4, 13.5, 13.7,
    13.8, 14.2, 14.3a, 14.3d), never a Protection (13.9a); the backs of the robbed hand
    (13.8a); the stolen cards (13.8c); and in a window each Protection card of the seat
    asked, and the pass (13.9b, 13.9c)."""
    decision = state.decision
    plain = plain_of(state)
    match decision:
        case gr.ChooseAction(player=seat):
            return power_plays(plain, seat)
        case gr.ChooseBack() | gr.ChooseKeptCard() | gr.ChooseProtection():
            return legal_actions(plain, decision)
    return set()


def check_power_options(game: gr.Game, legal: Sequence[gr.Action] | None = None) -> None:
    """The engine lists exactly the Power actions :func:`power_options` allows."""
    legal = game.legal_actions() if legal is None else legal
    listed = {action for action in legal if isinstance(action, POWER_ACTIONS)}
    expected = power_options(game.state)
    assert listed == expected, (
        f"at {game.decision}: listed but not allowed {sorted(map(repr, listed - expected))[:8]}; "
        f"allowed but not listed {sorted(map(repr, expected - listed))[:8]}"
    )


# -- actions that must be refused, and the candidates of the exactness check ------------------

_SQUARE_PLAYS = (gr.PlaySun, gr.PlayRain, gr.PlayLightning, gr.PlayEruption)
"""The Power plays that name one square (spec 13.4, 13.5, 14.2, 14.3)."""


def _shifted(action: gr.Action, players: int) -> Iterator[gr.Action]:
    """The action with one of its squares moved one step in each direction (an Earthquake's
    squares also swapped, or moved to a corner), or its seat or back named otherwise."""
    match action:
        case gr.PlayNature() | gr.PlayAnimals() | gr.PlayCity():
            for near in around(action.pos):
                yield attrs.evolve(action, pos=near)
        case gr.PlaySun() | gr.PlayRain() | gr.PlayLightning() | gr.PlayEruption():
            for near in around(action.pos):
                yield attrs.evolve(action, pos=near)
        case gr.PlayEarthquake():
            yield attrs.evolve(action, first=action.second, second=action.first)
            yield attrs.evolve(action, second=action.first)
            for near in (*around(action.first), *_corners(action.first)):
                yield attrs.evolve(action, second=near)
            for near in around(action.second):
                yield attrs.evolve(action, first=near)
        case gr.Feed():
            for near in around(action.city):
                yield attrs.evolve(action, city=near)
            for near in around(action.source):
                yield attrs.evolve(action, source=near)
        case gr.PlaceCityPawn():
            for near in around(action.city):
                yield attrs.evolve(action, city=near)
        case gr.NameBack():
            for victim in range(-1, players + 1):
                for kind in gr.CardKind:
                    yield attrs.evolve(action, victim=victim, kind=kind)


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
    others += [card for card, _ in state.stolen[:1]]
    return [card for card in others if card not in state.hands[player]] + list(NO_SUCH_CARDS)


def _with_card(action: gr.Action, state: gr.GameState) -> Iterator[gr.Action]:
    """The action with its card replaced by one the player does not hold (or that is not
    there), and a Power play or a Protection with another card of his own hand."""
    match action:
        case gr.PlayNature() | gr.PlayAnimals() | gr.PlayCity() | gr.Discard():
            for card in _other_cards(state, action.player):
                yield attrs.evolve(action, card=card)
        case (
            gr.PlaySun()
            | gr.PlayRain()
            | gr.PlayEarthquake()
            | gr.PlayTornado()
            | gr.PlayLightning()
            | gr.PlayEruption()
            | gr.Protect()
        ):
            for card in (*_other_cards(state, action.player), *state.hands[action.player]):
                yield attrs.evolve(action, card=card)
        case gr.KeepCard():
            stolen = {card for card, _ in state.stolen}
            for card in (*_other_cards(state, action.player), *state.hands[action.player]):
                if card not in stolen:
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
    power = next((c for c in hand if c.startswith("P")), "P01")
    city = next(iter(state.cities), gr.Pos(0, 0))
    square = next(iter(state.tiles), gr.Pos(0, 0))
    neighbour = next((n for n in around(square) if n in state.tiles), gr.Pos(1, 0))
    first, second = sorted((square, neighbour))
    victim = (player + 1) % state.players
    return [
        gr.DrawDeck(player, gr.CardKind.NATURE),
        gr.DrawDeck(player, gr.CardKind.LIFE),
        gr.DrawDeck(player, gr.CardKind.POWER),
        *(gr.DrawDisplay(player, c) for c in state.displays.get(gr.CardKind.NATURE, ())[:1]),
        gr.PlayNature(player, card, square),
        gr.PlayAnimals(player, card, square),
        gr.PlayCity(player, card, square),
        *(gr.Feed(player, city, near) for near in around(city)),
        gr.Discard(player, card),
        *(gr.FulfillObjective(player, o) for o in state.objectives),
        gr.DeclineObjectives(player),
        gr.PlaceCityPawn(player, city),
        *(cls(player, power, square) for cls in _SQUARE_PLAYS),
        gr.PlayEarthquake(player, power, first, second),
        gr.PlayTornado(player, power),
        gr.Protect(player, power),
        gr.PassProtection(player),
        *(gr.NameBack(player, victim, kind) for kind in gr.CardKind),
        gr.KeepCard(player, card),
        *(gr.KeepCard(player, c) for c, _ in state.stolen[:1]),
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


_FROM_HAND = (
    gr.PlayNature,
    gr.PlayAnimals,
    gr.PlayCity,
    gr.PlaySun,
    gr.PlayRain,
    gr.PlayEarthquake,
    gr.PlayTornado,
    gr.PlayLightning,
    gr.PlayEruption,
    gr.Protect,
    gr.Discard,
)
"""The actions that name a card of their player's hand."""


def same_choice(game: gr.Game, action: object) -> gr.Action | None:
    """The action ``legal_actions()`` lists for the choice ``action`` makes when it names
    another copy of a face in the same place (spec 1.12): a draw naming a card face up, or
    the face id of one, is listed by the face id; a card of the player's hand by the copy that
    has been there longest (1.13). ``None`` for any other action. Written from the spec,
    apart from the engine's own code."""
    state = game.state
    faces = state.rules.cards
    if type(action) is gr.DrawDisplay and isinstance(action.card, str):
        shown = [card for display in state.displays.values() for card in display]
        if action.card in shown or action.card in {faces.face_id(c) for c in shown}:
            return gr.DrawDisplay(action.player, faces.face_id(action.card))
        return None
    if type(action) in _FROM_HAND:
        player, card = action.player, action.card  # type: ignore[attr-defined]
        if not (type(player) is int and 0 <= player < game.players and type(card) is str):
            return None
        hand = state.hands[player]
        if card not in hand:
            return None
        first = next(c for c in hand if faces.face_id(c) == faces.face_id(card))
        listed: gr.Action = gr.from_data({**action.to_data(), "card": first}, gr.Action)  # type: ignore[attr-defined]
        return listed
    return None


def mutated_actions(game: gr.Game, legal: Iterable[gr.Action] | None = None) -> list[object]:
    """Actions near the legal ones that should be refused (some may turn out legal: filter).

    The right action for every other seat; a card the player does not hold, that does not
    exist or that is of another Power; a square one step off, an Earthquake's squares
    reversed or at a corner, a Tornado's back named for another seat or of another kind; an
    action that answers another decision; and the actions of the other seats, for themselves
    and as if the player to move took them.
    """
    if game.is_over:
        return [gr.DrawDeck(0, gr.CardKind.NATURE), gr.DeclineObjectives(0), gr.PassProtection(0)]
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
        found += _shifted(action, game.players)
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


def _face_key(face: gr.Face) -> object:
    """What a card must be to be played by an action: its face type, or its Power."""
    return face.power if isinstance(face, gr.PowerCard) else type(face)


_PLAYED_AS: dict[type, object] = {
    gr.PlayNature: gr.NatureCard,
    gr.PlayAnimals: gr.AnimalCard,
    gr.PlayCity: gr.CityCard,
    gr.PlaySun: gr.Power.SUN,
    gr.PlayRain: gr.Power.RAIN,
    gr.PlayLightning: gr.Power.LIGHTNING,
    gr.PlayEruption: gr.Power.ERUPTION,
    gr.PlayEarthquake: gr.Power.EARTHQUAKE,
}
"""The face or Power each play of a card on the world takes."""


def candidate_actions(game: gr.Game, seats: Iterable[int] | None = None) -> Iterator[gr.Action]:
    """A large set of actions (for ``seats``, default every seat), among them every legal one.

    For every play of a card on the world (a Nature, Animal or City card, a Sun, a Rain, a
    Lightning, an Eruption, an Earthquake): every card of the face or Power it takes, one
    card of every other face and Power, every card in the seat's hand or set aside by a
    Tornado, and cards of no manifest; each on every square of the grown bounding box, and
    for an Earthquake with the square itself, each of its four neighbours (so every two
    neighbours in both orders) and two of its corners. Every Tornado, Protection and kept
    card of every card; every pass; every back of every seat; every draw; every feeding of
    every square of the box from each neighbour; every discard; every Objective choice;
    every pawn placement.
    """
    state = game.state
    manifest = state.rules.cards
    cards = [card for card, _ in manifest.cards] + ["N99", "P99"]
    by_key: dict[object, list[gr.CardId]] = {}
    for card, face in manifest.cards:
        by_key.setdefault(_face_key(face), []).append(card)
    samples = [ids[0] for ids in by_key.values()] + list(NO_SUCH_CARDS[:5])
    samples += [card for card, _ in state.stolen]
    squares = _bounding_box(state)
    for seat in range(state.players) if seats is None else seats:
        for play, key in _PLAYED_AS.items():
            play_cards = dict.fromkeys([*by_key.get(key, []), *samples, *state.hands[seat]])
            for card in play_cards:
                for pos in squares:
                    if play is gr.PlayEarthquake:
                        for other in (pos, *around(pos), *_corners(pos)[2:]):
                            yield gr.PlayEarthquake(seat, card, pos, other)
                    else:
                        yield play(seat, card, pos)
        for kind in gr.CardKind:
            yield gr.DrawDeck(seat, kind)
        for card in cards:
            yield gr.DrawDisplay(seat, card)
            yield gr.Discard(seat, card)
            yield gr.PlayTornado(seat, card)
            yield gr.Protect(seat, card)
            yield gr.KeepCard(seat, card)
        yield gr.PassProtection(seat)
        for victim in range(state.players):
            for kind in gr.CardKind:
                yield gr.NameBack(seat, victim, kind)
        for card in manifest.ids(gr.Objective):
            yield gr.FulfillObjective(seat, card)
        yield gr.DeclineObjectives(seat)
        for pos in squares:
            yield gr.PlaceCityPawn(seat, pos)
            for near in around(pos):
                yield gr.Feed(seat, pos, near)
