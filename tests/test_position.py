"""Positions: ``Position.from_game`` gives back the game, ``PositionBuilder`` writes positions,
and every impossible position is refused with a ``PositionError`` naming each fault (spec 16)."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import CardKind, Land, Pos
from gaia_rules.invariants import violations
from gaia_rules.position import Position, PositionBuilder

INVARIANTS = ("16.1", "16.2", "16.3", "16.4", "16.5", "16.6")
SPARTA, CUZCO, ATHENS, VENICE = "C10", "C09", "C15", "C19"
"""Sparta (mountain site): plain, swamp, forest, sea. Cuzco (mountain): forest, plain,
animals, desert. Athens (star): sea, forest, animals, mountain. Venice (sea)."""


def rules_for(seed: int) -> gr.Rules:
    return gr.Rules.basic(
        edition="first" if seed % 4 == 3 else "third",
        feeding="every_city" if seed % 3 == 0 else "pawn_holder",
        objectives="optional" if seed % 2 else "mandatory",
        star_animals_on_sea=seed % 5 != 1,
    )


def assert_same_game(game: gr.Game, rng: random.Random) -> None:
    """The position of ``game`` gives back a game with an equal state that plays on alike."""
    position = Position.from_game(game)
    again = position.to_game()
    assert again.state == game.state
    assert again.decision == game.decision
    legal = game.legal_actions()
    assert again.legal_actions() == legal
    action = rng.choice(legal)
    one, two = game.copy(), again
    assert one.apply(action) == two.apply(action)
    assert one.state == two.state


@pytest.mark.clause(*INVARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_every_turn_action_of_a_random_game_is_a_position(seed: int) -> None:
    game = gr.new_game(players=2 + seed % 4, rules=rules_for(seed), seed=seed)
    rng = random.Random(seed)
    positions = 0
    while not game.is_over:
        if isinstance(game.decision, gr.ChooseAction):
            assert_same_game(game, rng)
            positions += 1
        game.apply(rng.choice(game.legal_actions()))
    assert positions > 10


@pytest.mark.clause(*INVARIANTS)
@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**63 - 1),
    first_and_rules=st.tuples(st.integers(0, 4), st.integers(0, 59)),
    steps=st.integers(0, 300),
    walk=st.integers(0, 2**32),
)
def test_a_random_position_gives_back_its_game(
    players: int, seed: int, first_and_rules: tuple[int, int], steps: int, walk: int
) -> None:
    first, rules_seed = first_and_rules
    game = gr.new_game(
        players=players, rules=rules_for(rules_seed), seed=seed, first_player=first % players
    )
    rng = random.Random(walk)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    while not game.is_over and not isinstance(game.decision, gr.ChooseAction):
        game.apply(rng.choice(game.legal_actions()))
    assume(not game.is_over)
    assert_same_game(game, rng)


@pytest.mark.clause("1.9", "11.3")
def test_a_position_is_taken_in_the_middle_of_a_feeding() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.SWAMP, animals=1)
        .tile(0, 1, Land.DESERT, animals=1)
        .city(0, 0, CUZCO, pawns=[0])  # fed from one of two neighbours: a real choice
        .turn(0)
        .to_game()
    )
    assert isinstance(game.decision, gr.ChooseFeeding)
    position = Position.from_game(game)
    assert position.steps == (gr.ChooseAction(0, 1), game.decision)
    assert position.turn_action == 0
    restored = position.to_game()
    assert restored.state == game.state
    assert list(restored.legal_actions()) == list(game.legal_actions())
    source = restored.legal_actions()[0]
    assert restored.apply(source) == game.apply(source)


@pytest.mark.clause("1.9", "15.1")
def test_a_finished_game_has_no_position() -> None:
    game, rng = gr.new_game(players=2, seed=3), random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    with pytest.raises(gr.PositionError, match="over"):
        Position.from_game(game)


# -- the builder ---------------------------------------------------------------------------------


def base() -> PositionBuilder:
    """A valid position: Sparta at (0, 0) meets plain and swamp and carries seat 0's pawn."""
    return (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.SWAMP)
        .city(0, 0, SPARTA, pawns=[0])
        .hand(0, "N07", "N08")
        .hand(1, "A01")
        .turn(1)
    )


@pytest.mark.clause(*INVARIANTS, "16.7")
def test_the_base_position_is_valid_and_as_written() -> None:
    game = base().to_game()
    state = game.state
    assert state.tiles == {Pos(0, 0): Land.MOUNTAIN, Pos(1, 0): Land.PLAIN, Pos(-1, 0): Land.SWAMP}
    assert state.cities == {Pos(0, 0): gr.CityState(SPARTA, (0,), 2)}
    assert state.hands == (("N07", "N08"), ("A01",))
    assert state.supply == (5, 6)
    assert state.tile_supply[Land.MOUNTAIN] == 5
    assert state.bank == 20
    assert game.decision == gr.ChooseAction(1, 1)
    assert len(state.objectives) == 4
    # every card of the box is somewhere, once
    everywhere = [c for hand in state.hands for c in hand]
    for piles in (state.decks, state.displays, state.discards):
        everywhere += [c for pile in piles.values() for c in pile]
    everywhere += [*state.objectives, *state.out_of_game, SPARTA]
    assert sorted(everywhere) == sorted(card for card, _ in state.rules.cards.cards)


def problems_of(builder: PositionBuilder) -> tuple[str, ...]:
    with pytest.raises(gr.PositionError) as caught:
        builder.to_game()
    assert caught.value.problems
    assert isinstance(caught.value, gr.GaiaRulesError)
    for problem in caught.value.problems:
        assert problem in str(caught.value)
    return caught.value.problems


def has(problems: tuple[str, ...], *words: str) -> bool:
    return any(all(word in p for word in words) for p in problems)


@pytest.mark.clause("16.2")
def test_a_card_in_two_hands_is_refused() -> None:
    problems = problems_of(base().hand(1, "A01", "N07"))
    assert has(problems, "N07", "2 places", "16.2"), problems


@pytest.mark.clause("16.2")
def test_a_card_in_a_hand_and_a_display_is_refused() -> None:
    problems = problems_of(base().display(CardKind.NATURE, "N07", "N09", "N10"))
    assert has(problems, "N07", "16.2"), problems


@pytest.mark.clause("16.2")
def test_a_city_card_also_in_a_hand_is_refused() -> None:
    problems = problems_of(base().hand(1, SPARTA))
    assert has(problems, SPARTA, "16.2"), problems


@pytest.mark.clause("16.1")
def test_more_tiles_of_a_land_than_the_box_is_refused() -> None:
    builder = base()
    for y in range(1, 7):  # six more mountains: seven in all, the box has six
        builder.tile(0, -y, Land.MOUNTAIN)
    problems = problems_of(builder)
    assert has(problems, "7 mountain", "6"), problems
    # six in all is fine
    ok = base()
    for y in range(1, 6):
        ok.tile(0, -y, Land.MOUNTAIN)
    assert ok.to_game().state.tile_supply[Land.MOUNTAIN] == 0


@pytest.mark.clause("16.5", "3.3")
def test_tokens_on_a_citys_tile_are_refused() -> None:
    problems = problems_of(base().tile(0, 0, Land.MOUNTAIN, animals=2))
    assert has(problems, "0,0", "city and tokens", "16.5"), problems


@pytest.mark.clause("16.5")
def test_a_disconnected_world_is_refused() -> None:
    problems = problems_of(base().tile(5, 5, Land.DESERT))
    assert has(problems, "connected", "16.5"), problems


@pytest.mark.clause("16.5", "3.1")
def test_a_world_without_a_tile_at_the_origin_is_refused() -> None:
    builder = PositionBuilder(players=2).tile(1, 0, Land.DESERT).tile(2, 0, Land.PLAIN)
    problems = problems_of(builder)
    assert has(problems, "(0, 0)"), problems


@pytest.mark.clause("16.6", "10.1")
def test_a_city_with_no_need_met_is_refused() -> None:
    builder = PositionBuilder(players=2).tile(0, 0, Land.MOUNTAIN).tile(1, 0, Land.DESERT)
    problems = problems_of(builder.city(0, 0, SPARTA))
    assert has(problems, "0,0", "0 needs met", "16.6"), problems


@pytest.mark.clause("16.6")
def test_pawns_on_a_city_with_one_need_met_are_refused() -> None:
    builder = PositionBuilder(players=2).tile(0, 0, Land.MOUNTAIN).tile(1, 0, Land.PLAIN)
    problems = problems_of(builder.city(0, 0, SPARTA, pawns=[1]))
    assert has(problems, "0,0", "1 need met", "16.6"), problems
    # the same city without a pawn is a position
    ok = PositionBuilder(players=2).tile(0, 0, Land.MOUNTAIN).tile(1, 0, Land.PLAIN)
    assert ok.city(0, 0, SPARTA).to_game().state.cities[Pos(0, 0)].satisfaction == 1


@pytest.mark.clause("16.6")
def test_two_pawns_of_one_player_on_a_city_are_refused() -> None:
    problems = problems_of(base().city(0, 0, SPARTA, pawns=[0, 0]))
    assert has(problems, "two pawns of one player", "16.6"), problems
    # two players' pawns on one city are fine in the basic game
    assert base().city(0, 0, SPARTA, pawns=[0, 1]).to_game().state.supply == (5, 5)


@pytest.mark.clause("16.7", "6.5")
def test_a_hand_of_seven_is_refused() -> None:
    seven = [f"N0{n}" for n in range(1, 8)]
    problems = problems_of(base().hand(0, *seven))
    assert has(problems, "seat 0", "16.7"), problems
    assert base().hand(0, *seven[:6]).to_game().state.hands[0] == tuple(seven[:6])


@pytest.mark.clause("9.2", "9.2a")
def test_a_city_on_the_wrong_land_is_refused() -> None:
    builder = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.SWAMP)
    )
    problems = problems_of(builder.city(0, 0, SPARTA))
    assert has(problems, "Sparta", "desert", "9.2"), problems


@pytest.mark.clause("9.2", "9.2b", "9.2c")
def test_a_star_city_on_sea_and_venice_on_land_are_refused() -> None:
    star_on_sea = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.SEA)
        .tile(1, 0, Land.FOREST)
        .tile(-1, 0, Land.MOUNTAIN)
        .city(0, 0, ATHENS)
    )
    assert has(problems_of(star_on_sea), "Athens", "sea", "9.2")
    venice_on_land = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.PLAIN)
        .city(0, 0, VENICE)
    )
    assert has(problems_of(venice_on_land), "Venice", "forest", "9.2")
    venice_on_sea = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.SEA)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.PLAIN)
        .city(0, 0, VENICE, pawns=[0])  # sea and plain met
    )
    assert venice_on_sea.to_game().state.cities[Pos(0, 0)].card == VENICE


@pytest.mark.clause("16.4", "15.1")
def test_a_seat_that_has_placed_every_pawn_is_refused() -> None:
    objectives = ("O01", "O02", "O03", "O04", "O05")

    def builder(city_pawn: int) -> PositionBuilder:
        return (
            PositionBuilder(players=3)
            .tile(0, 0, Land.MOUNTAIN)
            .tile(1, 0, Land.PLAIN)
            .tile(-1, 0, Land.SWAMP)
            .city(0, 0, SPARTA, pawns=[city_pawn])
            .objectives(*objectives, fulfilled={o: 0 for o in objectives[:4]})
        )

    problems = problems_of(builder(0))  # 4 Objectives + 1 city: all 5 of seat 0's pawns
    assert has(problems, "seat 0", "5 of 5"), problems
    assert builder(1).to_game().state.supply == (1, 4, 5)


@pytest.mark.clause("16.1", "16.2", "16.5", "16.6", "16.7")
def test_several_faults_are_all_listed() -> None:
    builder = base().hand(0, *(f"N0{n}" for n in range(1, 8))).hand(1, "N01")
    for y in range(1, 7):
        builder.tile(0, -y, Land.MOUNTAIN)
    builder.tile(9, 9, Land.FOREST)
    builder.city(0, 0, SPARTA, pawns=[0, 0])
    problems = problems_of(builder)
    assert has(problems, "N01", "2 places"), problems
    assert has(problems, "16.7"), problems
    assert has(problems, "7 mountain"), problems
    assert has(problems, "connected"), problems
    assert has(problems, "two pawns of one player"), problems
    assert len(problems) >= 5


@pytest.mark.clause("16.2", "16.6")
def test_city_faults_are_listed_alongside_card_faults() -> None:
    """A PositionError lists every problem: a card in two places must not hide a city with
    0 needs met or pawns on a city with 1 need met."""
    builder = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)  # Sparta meets nothing
        .tile(2, 0, Land.MOUNTAIN)
        .tile(3, 0, Land.SWAMP)
        .city(0, 0, SPARTA)
        .city(2, 0, CUZCO, pawns=[1])  # Cuzco meets only the desert
        .hand(0, "N07")
        .hand(1, "N07")
    )
    problems = problems_of(builder)
    assert has(problems, "N07", "2 places"), problems
    assert has(problems, "0,0", "0 needs met"), problems
    assert has(problems, "2,0", "1 need met"), problems


@pytest.mark.clause("16.10", "6.2")
def test_an_empty_display_slot_with_cards_in_the_deck_is_refused() -> None:
    problems = problems_of(base().deck(CardKind.LIFE, "C10", "C11").display(CardKind.LIFE, "C12"))
    assert has(problems, "life display", "empty slot", "16.10"), problems


@pytest.mark.clause("16.10", "6.2")
def test_a_short_display_is_accepted_once_its_deck_is_empty() -> None:
    game = base().deck(CardKind.LIFE).display(CardKind.LIFE, "C12").to_game()
    assert game.state.displays[CardKind.LIFE] == ("C12",)
    assert violations(game) == []
