"""Rare situations, sought rather than waited for: positions where a rare clause applies,
built with the ``PositionBuilder``, played into the situation and on to the end of the game
beside the oracle.

Random games meet some clauses once in hundreds of games, or never: an Eruption with exactly
as many deserts as it replaces (14.3d), a Tornado that finds one card of the back it names
(13.8b), the last pawn (15.1, 10.5), the last tile of a land (7.1), an empty deck (6.2, 6.3,
15.2-15.4), a Lightning on the last city (14.2), a limit discard with one choice (6.5c), a
fall from four needs (12.4a, 12.4b), a city with two pawns fed (12.6). Each position here
makes one of them happen at its first steps, so that every run of the oracle exercises it.
Each position also goes through its JSON and back before it is played (1.10), and each game
is replayed from its record at its end (16.8).

The Tornado's draws are also sampled on their own, many times, from one position whose
victim holds four cards of the named back: each draw is recomputed from the seed by the
oracle (13.8b, 1.6), and the places the engine took are tested for uniformity
(:func:`tests.oracle.chance.draw_uniformity`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import gaia_rules as gr
from gaia_rules import CardKind, Land, Pos
from gaia_rules.position import Position, PositionBuilder
from tests.oracle.follow import Disagreement, Follower, follow_game

__all__ = ["SCENARIOS", "Scenario", "play_scenario", "tornado_draws_sampled"]

MAX_STEPS = 5_000


@dataclass(frozen=True)
class Scenario:
    """A position, the actions that bring about its rare situation, and the clauses the
    situation is about."""

    name: str
    clauses: tuple[str, ...]
    build: Callable[[int], PositionBuilder]
    forced: tuple[gr.Action, ...]


def _eruption(seed: int, deserts_in_world: int) -> PositionBuilder:
    """A mountain with a plain, a forest and a swamp around it (three deserts to replace) and
    a sea; ``10 - deserts_in_world`` deserts left in the tile supply. Alexandria, beside the
    plain, loses its plain need and its pawn."""
    builder = (
        PositionBuilder(players=2, rules=gr.Rules.disasters(), seed=seed)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.FOREST)
        .tile(0, 1, Land.SWAMP)
        .tile(0, -1, Land.SEA)
        .tile(2, 1, Land.SEA)
        .city(2, 0, "C01", pawns=(1,))
    )
    builder.tile(2, 0, Land.DESERT)
    for x in range(3, 2 + deserts_in_world):
        builder.tile(x, 0, Land.DESERT)
    return builder.hand(0, "P29", "N01").hand(1, "N02", "C02").turn(0, action=1)


def _tornado_one_card(seed: int) -> PositionBuilder:
    """Seat 1 holds one Nature card among Life cards; seat 2's hand is empty (13.8d)."""
    return (
        PositionBuilder(players=3, rules=gr.Rules.powers(), seed=seed)
        .tile(0, 0, Land.PLAIN)
        .hand(0, "P16", "N03")
        .hand(1, "C03", "N04", "C04")
        .turn(0, action=1)
    )


def _last_pawn(seed: int) -> PositionBuilder:
    """Seat 0 has one pawn left (four on the Objectives, one on Carthage); his mountain
    raises two of seat 1's cities, which both want it (10.5), and placing it wins (15.1)."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.basic(), seed=seed)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.PLAIN)
        .tile(1, -1, Land.DESERT)
        .tile(2, -1, Land.PLAIN)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.SEA)
        .tile(-1, 1, Land.DESERT)
        .city(0, 0, "C01", pawns=(1,))
        .city(1, -1, "C03", pawns=(1,))
        .city(0, 1, "C04", pawns=(0,))
        .objectives(
            "O03", "O04", "O05", "O06", fulfilled=dict.fromkeys(("O03", "O04", "O05", "O06"), 0)
        )
        .hand(0, "N27", "N07")
        .hand(1, "N08", "C02")
        .turn(0, action=1)
    )


def _last_tile(seed: int) -> PositionBuilder:
    """Six seas in the world: seat 0 plays the last, and his second sea card cannot follow."""
    builder = PositionBuilder(players=2, rules=gr.Rules.basic(), seed=seed)
    for x in range(6):
        builder.tile(x, 0, Land.SEA)
    return builder.hand(0, "N20", "N21", "N01").hand(1, "N02", "C02").turn(0, action=1)


def _empty_deck(seed: int) -> PositionBuilder:
    """The Nature deck is empty with two cards face up; the Life deck and display are empty
    (the kind is exhausted). Seat 0 takes a Nature card (its slot stays empty, 6.2), then
    draws from the exhausted Life kind, which ends the game with both players at no pawn
    placed: the tie goes to seat 1, the first after him (15.2-15.4)."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.basic(), seed=seed)
        .tile(0, 0, Land.PLAIN)
        .deck(CardKind.NATURE)
        .display(CardKind.NATURE, "N01", "N02")
        .deck(CardKind.LIFE)
        .display(CardKind.LIFE)
        .hand(0, "N03")
        .hand(1, "N04")
        .turn(0, action=1)
    )


def _lightning(seed: int) -> PositionBuilder:
    """One city in the world, seat 1's: seat 0's Lightning discards it."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.disasters(), seed=seed)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.PLAIN)
        .city(0, 0, "C01", pawns=(1,))
        .hand(0, "P24", "N03")
        .hand(1, "N04", "C02")
        .turn(0, action=1)
    )


def _one_choice_discard(seed: int) -> PositionBuilder:
    """Seat 0 holds two Suns and takes a third: the Power limit's discard offers one choice,
    and is asked all the same (6.5a, 6.5c)."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.powers(), seed=seed)
        .tile(0, 0, Land.PLAIN)
        .display(CardKind.POWER, "P03", "P07")
        .hand(0, "P01", "P02", "N03")
        .hand(1, "N04")
        .turn(0, action=1)
    )


def _four_needs(rules: gr.Rules, seed: int, *, forest: bool) -> PositionBuilder:
    """Sparta on a mountain with a plain, a swamp, a sea and (``forest``) a forest around it,
    seat 1's; seat 0's Sun turns the plain into a desert."""
    builder = (
        PositionBuilder(players=2, rules=rules, seed=seed)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.SWAMP)
        .tile(0, -1, Land.SEA)
        .tile(0, 1, Land.FOREST if forest else Land.DESERT)
        .city(0, 0, "C10", pawns=(1, 1) if forest else (1,))
        .reached_four(0, 0)
        .hand(0, "P01", "N03")
        .hand(1, "N04")
        .turn(0, action=1)
    )
    return builder


def _protection(seed: int) -> PositionBuilder:
    """Seat 0 plays a Sun and seat 1 protects against it (13.9, 13.9f)."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.powers(), seed=seed)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.SWAMP)
        .hand(0, "P01", "N03")
        .hand(1, "P20", "N04")
        .turn(0, action=1)
    )


def _two_pawns_fed(seed: int) -> PositionBuilder:
    """Seat 0 begins his turn owning Alexandria with two pawns at four needs: fed once
    (11.5, 12.6)."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.advanced(), seed=seed)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, 1, Land.MOUNTAIN)
        .tile(0, -1, Land.PLAIN, animals=4)
        .city(0, 0, "C01", pawns=(0, 0))
        .reached_four(0, 0)
        .hand(0, "N03")
        .hand(1, "N04")
        .turn(0)
    )


SUN_EAST = gr.PlaySun(0, "P01", Pos(1, 0))

SCENARIOS = (
    Scenario(
        "an Eruption with exactly enough deserts",
        ("14.3d", "14.3", "14.3c"),
        lambda seed: _eruption(seed, 7),
        (gr.PlayEruption(0, "P29", Pos(0, 0)),),
    ),
    Scenario(
        "an Eruption one desert short",
        ("14.3d",),
        lambda seed: _eruption(seed, 8),
        (),
    ),
    Scenario(
        "a Tornado with one card of the back named, and an empty hand skipped",
        ("13.8b", "13.8d", "13.8a"),
        _tornado_one_card,
        (gr.PlayTornado(0, "P16"), gr.NameBack(0, 1, CardKind.NATURE)),
    ),
    Scenario(
        "the last pawn, wanted by two cities",
        ("15.1", "10.5"),
        _last_pawn,
        (gr.PlayNature(0, "N27", Pos(0, -1)),),
    ),
    Scenario(
        "the last tile of a land",
        ("7.1",),
        _last_tile,
        (gr.PlayNature(0, "N20", Pos(6, 0)),),
    ),
    Scenario(
        "an empty deck and an exhausted kind",
        ("6.2", "6.3", "15.2", "15.3", "15.4", "16.10"),
        _empty_deck,
        (gr.DrawDisplay(0, "N01"), gr.DrawDeck(0, CardKind.LIFE)),
    ),
    Scenario(
        "a Lightning on the last city",
        ("14.2",),
        _lightning,
        (gr.PlayLightning(0, "P24", Pos(0, 0)),),
    ),
    Scenario(
        "a limit discard with one choice",
        ("6.5a", "6.5c"),
        _one_choice_discard,
        (gr.DrawDisplay(0, "P03"),),
    ),
    Scenario(
        "a fall from four needs to three, KEEP_ONE",
        ("12.4", "12.4a"),
        lambda seed: _four_needs(gr.Rules.powers(), seed, forest=True),
        (SUN_EAST,),
    ),
    Scenario(
        "a fall to two after four needs, EMPTY_AT_TWO",
        ("12.4b", "12.4c"),
        lambda seed: _four_needs(
            gr.Rules.powers(four_need_drop=gr.FourNeedDrop.EMPTY_AT_TWO), seed, forest=False
        ),
        (SUN_EAST,),
    ),
    Scenario(
        "a Protection",
        ("13.9", "13.9e", "13.9f"),
        _protection,
        (SUN_EAST, gr.Protect(1, "P20")),
    ),
    Scenario(
        "a city with two pawns fed",
        ("11.5", "12.6"),
        _two_pawns_fed,
        (),
    ),
)
"""Every rare situation, in the order the oracle plays them."""


def _game_of(position: Position) -> gr.Game:
    """The game of ``position``, read back from its JSON first (1.10, 1.10a)."""
    read = Position.from_json(position.to_json())
    if read != position:
        raise AssertionError("1.10: a position read back from its JSON is another position")
    return read.to_game()


def play_scenario(scenario: Scenario, seed: int, *, sampling: int = 0) -> Follower:
    """Play ``scenario`` from its position (built with ``seed``), its forced actions first,
    then random legal actions to the end, beside the oracle; the game is then replayed from
    its record and must end in the same state (16.8)."""
    game = _game_of(scenario.build(seed).build())
    follower = follow_game(
        game,
        random.Random(seed),
        MAX_STEPS,
        prefer_plays=0.5,
        sampling=sampling,
        forced=scenario.forced,
    )
    follower.exercised.update(("1.10", "1.10a", "1.9"))
    if game.is_over:
        follower.exercised["15.5"] += 1
        if game.record().replay().state != game.state:
            raise AssertionError("16.8: the record replays to another state")
        follower.exercised["16.8"] += 1
    missing = [clause for clause in scenario.clauses if clause not in follower.exercised]
    if missing:
        raise AssertionError(f"{scenario.name}: the game did not exercise {missing}")
    return follower


def tornado_draws_sampled(seeds: range) -> tuple[list[tuple[int, int]], list[str]]:
    """The places the engine's Tornado took among the four Nature cards of seat 1's hand,
    one game per seed, read from its log (so that their frequencies test the engine, whatever
    the oracle says of each); and the disagreements of the oracle, which draws each card
    again from the seed as it follows the game (13.8b, 1.6)."""
    draws: list[tuple[int, int]] = []
    found: list[str] = []
    hand = ("N04", "N07", "N20", "N27")
    for seed in seeds:
        game = _game_of(
            PositionBuilder(players=2, rules=gr.Rules.powers(), seed=seed)
            .tile(0, 0, Land.PLAIN)
            .hand(0, "P16", "N03")
            .hand(1, *hand)
            .turn(0, action=1)
            .build()
        )
        try:
            follow_game(game, random.Random(seed), 0, forced=(gr.PlayTornado(0, "P16"),))
        except Disagreement as disagreement:
            found.append(f"seed {seed}: {disagreement}")
        taken = [e.card for e in game.events if isinstance(e, gr.CardStolen)]
        draws += [(len(hand), hand.index(card)) for card in taken if card in hand]
    return draws, found
