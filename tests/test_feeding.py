"""Hunting and feeding, before the turn's first action (spec 11)."""

from __future__ import annotations

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder

P, Q, R, S, U = Pos(0, 0), Pos(3, 0), Pos(6, 0), Pos(9, 0), Pos(6, -1)


def spec_example(feeding: gr.Feeding, r_tokens: int = 4) -> gr.Game:
    """The example of spec 11.2, seat 1 to begin his turn.

    P: Lhasa (C11: desert, forest, animals, swamp), seat 1 alone, fed from the forest (0, 1).
    Q: Cuzco (C09: forest, plain, animals, desert), seats 0 and 1, fed from (3, 1).
    R: Rome (C05: forest, mountain, animals, swamp), empty at 1 need, fed from (6, 1).
    S: Sparta (C10: plain, swamp, forest, sea), seat 1, no animal need.
    U: Ur (C07: plain, forest, animals, sea) above R, empty at 1 need (the sea at (5, -1)).
    """
    return (
        PositionBuilder(players=3, rules=gr.Rules.basic(feeding=feeding))
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.SEA)
        .tile(2, 0, Land.SEA)
        .tile(3, 0, Land.MOUNTAIN)
        .tile(4, 0, Land.SEA)
        .tile(5, 0, Land.SEA)
        .tile(6, 0, Land.PLAIN)
        .tile(7, 0, Land.DESERT)
        .tile(8, 0, Land.DESERT)
        .tile(9, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.FOREST, animals=4)
        .tile(3, 1, Land.FOREST, animals=4)
        .tile(6, 1, Land.DESERT, animals=r_tokens)
        .tile(9, 1, Land.FOREST)
        .tile(9, -1, Land.SEA)
        .tile(6, -1, Land.SWAMP)
        .tile(5, -1, Land.SEA)
        .city(0, 0, "C11", pawns=[1])
        .city(3, 0, "C09", pawns=[0, 1])
        .city(6, 0, "C05")
        .city(9, 0, "C10", pawns=[1])
        .city(6, -1, "C07")
        .turn(1)
        .to_game()
    )


@pytest.mark.clause("11.1", "11.2", "1.3")
@pytest.mark.parametrize(
    ("feeding", "fed"),
    [(gr.Feeding.PAWN_HOLDER, (P, Q)), (gr.Feeding.EVERY_CITY, (P, Q, R, U))],
)
def test_which_cities_are_fed(feeding: gr.Feeding, fed: tuple[Pos, ...]) -> None:
    game = spec_example(feeding)
    decision = game.decision
    assert isinstance(decision, gr.ChooseFeeding)
    assert decision.player == 1
    assert decision.cities == tuple(sorted(fed))
    # U has the animal need but no tokens next to it: listed, skipped (11.4)
    offered = {a.city for a in game.legal_actions() if isinstance(a, gr.Feed)}
    assert offered == set(fed) - {U}
    assert S not in offered


@pytest.mark.clause("11.1", "11.3", "5.2")
def test_every_listed_city_is_fed_once_then_the_two_actions_follow() -> None:
    game = spec_example(gr.Feeding.PAWN_HOLDER)
    events = game.apply(gr.Feed(1, Q, Pos(3, 1)))
    # one city and one source left: the engine feeds P, logged, before the first action
    assert gr.ActionTaken(1, gr.Feed(1, P, Pos(0, 1)), by_engine=True) in events
    assert game.decision == gr.ChooseAction(1, 1)
    assert game.state.animals[Pos(0, 1)] == 3
    assert game.state.animals[Pos(3, 1)] == 3
    assert game.state.bank == 20 - 12 + 2


@pytest.mark.clause("11.3", "10.2", "10.4")
def test_a_feeding_that_discards_a_city_credits_the_feeder_with_what_its_tile_raises() -> None:
    game = spec_example(gr.Feeding.EVERY_CITY, r_tokens=1)
    events = game.apply(gr.Feed(1, R, Pos(6, 1)))
    assert gr.CityDiscarded("C05", R) in events
    assert gr.SatisfactionChanged(U, 1, 2) in events  # the plain under Rome is uncovered
    assert gr.PawnPlaced(1, U) in events
    # still his feeding: P and Q remain, and U (listed from the start, no tokens next to it)
    assert game.decision == gr.ChooseFeeding(1, (P, Q, U))
    assert {a.city for a in game.legal_actions() if isinstance(a, gr.Feed)} == {P, Q}


@pytest.mark.clause("11.4")
def test_a_city_with_no_tokens_next_to_it_is_skipped_and_nothing_happens() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .city(0, 0, "C11", pawns=[0])  # Lhasa: desert and forest met, no tokens
        .turn(0)
        .to_game()
    )
    assert game.events == (gr.TurnBegan(0),)
    assert game.decision == gr.ChooseAction(0, 1)


@pytest.mark.clause("11.5", "11.2")
def test_a_shared_city_is_fed_on_each_holders_turn_and_once_each_time() -> None:
    game = spec_example(gr.Feeding.PAWN_HOLDER)
    game.apply(gr.Feed(1, Q, Pos(3, 1)))  # and the engine feeds P
    game.apply(gr.DrawDeck(1, gr.CardKind.NATURE))
    game.apply(gr.DrawDeck(1, gr.CardKind.NATURE))
    game.apply(gr.DrawDeck(2, gr.CardKind.NATURE))  # seat 2 holds nothing: no feeding
    game.apply(gr.DrawDeck(2, gr.CardKind.NATURE))
    # seat 0 holds Q only: one city, one source, taken by the engine
    fed = [
        e for e in game.events if isinstance(e, gr.ActionTaken) and isinstance(e.action, gr.Feed)
    ]
    assert fed[-1] == gr.ActionTaken(0, gr.Feed(0, Q, Pos(3, 1)), by_engine=True)
    assert game.state.animals[Pos(3, 1)] == 2


@pytest.mark.clause("11.2")
def test_the_list_does_not_grow_with_a_city_that_gains_his_pawn_during_the_feeding() -> None:
    """Seat 0 feeds Carthage (1, 0) the last token of the desert T (0, 0). Troy (-1, 0), empty,
    had only its animal need met, by T: it falls to 0 and is discarded, uncovering its forest,
    which raises Ur (-2, 0) from 1 to 2 (forest, animals). Seat 0 puts his pawn on Ur, which
    needs animals and has 4 tokens next to it, but Ur was not on the list: it is not fed."""
    game = (
        PositionBuilder(players=2, rules=gr.Rules.basic(feeding=gr.Feeding.PAWN_HOLDER))
        .tile(-3, 0, Land.MOUNTAIN, animals=4)
        .tile(-2, 0, Land.SWAMP)
        .tile(-1, 0, Land.FOREST)
        .tile(0, 0, Land.DESERT, animals=1)
        .tile(1, 0, Land.PLAIN)
        .city(1, 0, "C04", pawns=[0])  # Carthage: sea, desert, animals, forest
        .city(-1, 0, "C12")  # Troy: plain, sea, mountain, animals
        .city(-2, 0, "C07")  # Ur: plain, forest, animals, sea
        .turn(0)
        .to_game()
    )
    fed = [e.action for e in game.events if isinstance(e, gr.ActionTaken)]
    assert fed == [gr.Feed(0, Pos(1, 0), Pos(0, 0))]  # one city listed: fed by the engine
    state = game.state
    assert Pos(-1, 0) not in state.cities
    assert state.cities[Pos(-2, 0)].pawns == (0,)
    assert state.cities[Pos(-2, 0)].satisfaction == 2
    assert state.animals == {Pos(-3, 0): 4}  # Ur's tokens untouched
    assert game.decision == gr.ChooseAction(0, 1)


@pytest.mark.clause("11.2", "11.4")
def test_a_listed_city_that_lost_his_pawn_is_passed_over_and_refused_as_not_to_be_fed() -> None:
    """Carthage (1, 0) and Lhasa (-1, 0) carry seat 0's pawn and share the desert T (0, 0)
    with its last token; Uruk (3, 0) has tokens on both sides. Fed Carthage from T, Lhasa
    falls to 1 and seat 0's pawn leaves it: it is passed over, and feeding it is refused as
    no longer on the list (11.2), whatever tokens it might find."""
    game = (
        PositionBuilder(players=2, rules=gr.Rules.basic(feeding=gr.Feeding.PAWN_HOLDER))
        .tile(-1, 0, Land.MOUNTAIN)
        .tile(0, 0, Land.DESERT, animals=1)
        .tile(1, 0, Land.PLAIN)
        .tile(2, 0, Land.SWAMP, animals=4)
        .tile(3, 0, Land.FOREST)
        .tile(4, 0, Land.MOUNTAIN, animals=4)
        .city(1, 0, "C04", pawns=[0])  # Carthage: sea, desert, animals, forest
        .city(-1, 0, "C11", pawns=[0])  # Lhasa: desert, forest, animals, swamp
        .city(3, 0, "C13", pawns=[0])  # Uruk: desert, swamp, animals, plain
        .turn(0)
        .to_game()
    )
    lhasa = Pos(-1, 0)
    assert isinstance(game.decision, gr.ChooseFeeding)
    assert lhasa in game.decision.cities
    game.apply(gr.Feed(0, Pos(1, 0), Pos(0, 0)))
    assert game.state.cities[lhasa].pawns == ()
    assert game.state.cities[lhasa].satisfaction == 1
    decision = game.decision
    assert isinstance(decision, gr.ChooseFeeding)
    assert set(game.legal_actions()) == {
        gr.Feed(0, Pos(3, 0), Pos(2, 0)),
        gr.Feed(0, Pos(3, 0), Pos(4, 0)),
    }
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.Feed(0, lhasa, Pos(0, 0)))
    assert refused.value.clause == "11.2"
    assert game.state == before
    game.apply(gr.Feed(0, Pos(3, 0), Pos(4, 0)))
    assert game.to_move == 0
    assert isinstance(game.decision, gr.ChooseAction)
