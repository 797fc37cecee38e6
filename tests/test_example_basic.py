"""The illustrated example of the basic rules (EN, DE, FR, HU), rebuilt and checked step by step.

Yellow (seat 1) begins his turn. a) Feeding his bottom-left city (Lhasa) takes the last
token from the desert: the city falls to 1 need and his pawn returns. b) He plays a plain
next to the top-right city (Petra), raising it to 3 needs: his pawn joins Blue's. c) That
plain completes an Objective: four Nature cards are discarded and a pawn goes on it.
d) He plays Animals on the desert: Lhasa rises back to 2 and takes his pawn again.
Net: one pawn back, three placed.
"""

from __future__ import annotations

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder

BLUE, YELLOW = 0, 1
LHASA, PETRA = Pos(0, 1), Pos(2, 0)
DESERT, PLAIN = Pos(1, 1), Pos(2, 1)


def example() -> gr.Game:
    return (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(2, 0, Land.DESERT)
        .tile(3, 0, Land.SEA)
        .tile(0, 1, Land.MOUNTAIN)
        .tile(1, 1, Land.DESERT, animals=1)
        .city(0, 1, "C11", pawns=[YELLOW])  # Lhasa: desert, forest, animals, swamp
        .city(2, 0, "C03", pawns=[BLUE])  # Petra: mountain, plain, sea, forest
        .tableau(YELLOW, "N07", "N33", "N34")  # plain, forest, forest
        .hand(YELLOW, "N08", "A09")  # a plain; Animals on desert
        .objectives("O02", "O01", "O03", "O04")  # O02: two plains, two forests
        .turn(YELLOW)
        .to_game()
    )


@pytest.mark.clause("11.1", "11.2", "11.3", "10.1", "10.3", "5.4")
def test_a_feeding_takes_the_last_token_and_empties_the_city() -> None:
    game = example()
    fed = gr.Feed(YELLOW, LHASA, DESERT)
    assert game.events[:2] == (
        gr.TurnBegan(YELLOW),
        gr.ActionTaken(YELLOW, fed, by_engine=True),  # one city, one source: no choice
    )
    assert gr.TokensReturned(DESERT, 1) in game.events
    assert gr.SatisfactionChanged(LHASA, 2, 1) in game.events
    assert gr.PawnReturned(YELLOW, LHASA) in game.events
    state = game.state
    assert state.cities[LHASA].pawns == ()
    assert state.cities[LHASA].satisfaction == 1
    assert DESERT not in state.animals
    assert state.bank == 20
    assert state.supply[YELLOW] == 6
    assert game.decision == gr.ChooseAction(YELLOW, 1)


@pytest.mark.clause("7.2", "7.3", "10.4", "8.1", "8.2", "8.3")
def test_b_c_a_plain_raises_petra_and_completes_an_objective() -> None:
    game = example()
    events = game.apply(gr.PlayNature(YELLOW, "N08", PLAIN))
    assert gr.TilePlaced(PLAIN, Land.PLAIN) in events
    assert gr.SatisfactionChanged(PETRA, 2, 3) in events
    assert gr.PawnPlaced(YELLOW, PETRA) in events
    fulfilled = [e for e in events if isinstance(e, gr.ObjectiveFulfilled)]
    assert fulfilled == [gr.ObjectiveFulfilled(YELLOW, "O02", ("N07", "N33", "N34", "N08"))]
    # the pawn on the city comes before the Objective check (8.3)
    order = [type(e) for e in events]
    assert order.index(gr.PawnPlaced) < order.index(gr.ObjectiveFulfilled)
    state = game.state
    assert state.cities[PETRA].pawns == (BLUE, YELLOW)
    assert state.tableaux[YELLOW] == ()
    assert state.objective_pawns == {"O02": YELLOW}
    assert game.decision == gr.ChooseAction(YELLOW, 2)


@pytest.mark.clause("9.1", "9.1b", "9.1c", "10.4", "10.6")
def test_d_animals_on_the_desert_raise_lhasa_back() -> None:
    game = example()
    game.apply(gr.PlayNature(YELLOW, "N08", PLAIN))
    events = game.apply(gr.PlayAnimals(YELLOW, "A09", DESERT))
    assert gr.AnimalsPlaced(YELLOW, "A09", DESERT, 4) in events
    assert gr.SatisfactionChanged(LHASA, 1, 2) in events
    assert gr.PawnPlaced(YELLOW, LHASA) in events
    state = game.state
    assert state.cities[LHASA].pawns == (YELLOW,)
    assert state.animals[DESERT] == 4
    assert state.bank == 16


@pytest.mark.clause("10.1", "3.10")
def test_the_turn_in_sum_one_pawn_back_three_placed() -> None:
    game = example()
    before = 1  # Yellow's pawn on Lhasa
    game.apply(gr.PlayNature(YELLOW, "N08", PLAIN))
    game.apply(gr.PlayAnimals(YELLOW, "A09", DESERT))
    returned = sum(isinstance(e, gr.PawnReturned) and e.player == YELLOW for e in game.events)
    placed = sum(isinstance(e, gr.PawnPlaced) and e.player == YELLOW for e in game.events)
    objective = sum(isinstance(e, gr.ObjectiveFulfilled) for e in game.events)
    assert (returned, placed + objective) == (1, 3)
    assert game.state.supply[YELLOW] == 6 - (before - 1 + 3)
    # then Blue's turn begins
    assert game.active == BLUE
