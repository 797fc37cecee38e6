"""The advanced rules: owners, stealing, four needs (spec 12), and the advanced illustrated
example of the rulebooks (EN, DE, FR, HU)."""

from __future__ import annotations

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder

BLUE, YELLOW, GREEN = 0, 1, 2
SEA, MOUNTAIN = Pos(0, 0), Pos(1, 0)
KYOTO, SPARTA, CARTHAGE = Pos(-1, 0), Pos(2, 0), Pos(1, 1)


def earthquake_example() -> gr.Game:
    """Green plays an Earthquake to swap the sea (with its fish) and the mountain.

    Kyoto (C14: mountain, sea, swamp, desert), Yellow's, meets the sea and a desert: 2.
    Sparta (C10: plain, swamp, forest, sea), Blue's, meets a plain and forests: 2.
    Carthage (C04: sea, desert, animals, forest), Green's, meets a desert, a forest and the
    animals on a plain: 3.
    """
    return (
        PositionBuilder(players=3, rules=gr.Rules.powers())
        .tile(0, 0, Land.SEA, animals=2)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(-1, 0, Land.FOREST)
        .tile(-1, -1, Land.DESERT)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(3, 0, Land.PLAIN)
        .tile(2, -1, Land.FOREST)
        .tile(1, 1, Land.PLAIN)
        .tile(0, 1, Land.DESERT)
        .tile(2, 1, Land.FOREST)
        .tile(1, 2, Land.PLAIN, animals=2)
        .city(-1, 0, "C14", pawns=[YELLOW])
        .city(2, 0, "C10", pawns=[BLUE])
        .city(1, 1, "C04", pawns=[GREEN])
        .hand(GREEN, "P13")
        .turn(GREEN, 1)
        .to_game()
    )


@pytest.mark.clause("12.1", "12.2", "12.3", "13.7", "10.1")
def test_the_advanced_illustrated_example() -> None:
    game = earthquake_example()
    events = game.apply(gr.PlayEarthquake(GREEN, "P13", SEA, MOUNTAIN))
    assert gr.TilesSwapped(SEA, MOUNTAIN) in events
    state = game.state
    assert state.tiles[SEA] is Land.MOUNTAIN and state.tiles[MOUNTAIN] is Land.SEA
    assert state.animals.get(MOUNTAIN) == 2 and SEA not in state.animals
    # Kyoto stays at 2 (sea swapped for mountain): still Yellow's, nothing happens
    assert not any(
        isinstance(e, gr.SatisfactionChanged | gr.PawnReturned | gr.PawnPlaced) and e.pos == KYOTO
        for e in events
    )
    assert state.cities[KYOTO].pawns == (YELLOW,)
    # Sparta rises from 2 to 3: Green steals it from Blue
    assert gr.SatisfactionChanged(SPARTA, 2, 3) in events
    assert gr.PawnReturned(BLUE, SPARTA) in events
    assert gr.CityTaken(GREEN, SPARTA, BLUE) in events
    assert state.cities[SPARTA].pawns == (GREEN,)
    # Carthage rises from 3 to 4: Green puts his second pawn on it
    assert gr.SatisfactionChanged(CARTHAGE, 3, 4) in events
    assert state.cities[CARTHAGE].pawns == (GREEN, GREEN)
    assert state.supply == (5, 4, 2)


def rival_city(owner: int, rules: gr.Rules | None = None) -> PositionBuilder:
    """Troy (C12, forest: plain, sea, mountain, animals) at (0, 0) meets the plain (-1, 0)
    and the mountain (0, -1): 2 needs, ``owner``'s. A sea at (1, 0) would raise it to 3."""
    return (
        PositionBuilder(players=3, rules=rules or gr.Rules.advanced())
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .city(0, 0, "C12", pawns=[owner])
        .hand(0, "N20", "A05", "N21")
        .turn(0, 1)
    )


@pytest.mark.clause("12.2")
def test_raising_a_rival_city_steals_it() -> None:
    game = rival_city(owner=1).to_game()
    events = game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))
    assert gr.CityTaken(0, Pos(0, 0), 1) in events
    assert game.state.cities[Pos(0, 0)].pawns == (0,)
    assert game.state.supply == (4, 5, 5)


@pytest.mark.clause("12.1", "12.2")
def test_ownership_is_having_pawns_so_the_builder_steals_back() -> None:
    # Seat 0 holds Troy (say he stole it from seat 1, who built it). Seat 1 raises it again
    # and takes it back: ownership is having pawns on it, not having built it.
    game = rival_city(owner=0).hand(1, "A06").to_game()
    game.apply(gr.DrawDeck(0, gr.CardKind.NATURE))
    game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))  # 2 -> 3, his own: nothing
    assert game.state.cities[Pos(0, 0)].pawns == (0,)
    game.apply(gr.PlayAnimals(1, "A06", Pos(1, 0)))  # animals: 3 -> 4 by seat 1
    assert game.state.cities[Pos(0, 0)].pawns == (1, 1)


@pytest.mark.clause("12.3")
def test_a_rival_who_brings_a_city_to_four_places_two() -> None:
    game = rival_city(owner=1).tile(1, 0, Land.SEA).to_game()  # Troy already at 3
    game.apply(gr.PlayAnimals(0, "A05", Pos(1, 0)))  # sea animals: 3 -> 4
    assert game.state.cities[Pos(0, 0)].pawns == (0, 0)
    assert game.state.supply == (3, 5, 5)


@pytest.mark.clause("12.3")
def test_an_owner_raising_his_city_to_four_adds_his_second_pawn() -> None:
    game = rival_city(owner=0).tile(1, 0, Land.SEA).to_game()
    game.apply(gr.PlayAnimals(0, "A05", Pos(1, 0)))
    assert game.state.cities[Pos(0, 0)].pawns == (0, 0)
    assert game.state.supply == (3, 5, 5)


@pytest.mark.clause("12.3", "9.4")
def test_a_city_placed_with_four_needs_met_takes_two_pawns() -> None:
    game = (
        PositionBuilder(players=2, rules=gr.Rules.advanced())
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.SEA, animals=3)
        .hand(0, "C12")
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayCity(0, "C12", Pos(0, 0)))
    assert game.state.cities[Pos(0, 0)].pawns == (0, 0)


@pytest.mark.clause("12.3")
def test_an_owner_raising_his_city_to_three_places_nothing() -> None:
    game = rival_city(owner=0).to_game()
    events = game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))
    assert not any(isinstance(e, gr.PawnPlaced) for e in events)
    assert game.state.cities[Pos(0, 0)].pawns == (0,)


def four_need_city(drop: gr.FourNeedDrop, *powers: str) -> gr.Game:
    """Troy (C12: plain, sea, mountain, animals) at (0, 0) with all four needs met and seat 1's
    two pawns: the plain (-1, 0), the mountain (0, -1), and the sea (1, 0) carrying the
    animals, so that sea and animals come from one tile. A desert lies beyond the sea."""
    return (
        PositionBuilder(players=2, rules=gr.Rules.disasters(four_need_drop=drop))
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.SEA, animals=3)
        .tile(2, 0, Land.DESERT)
        .city(0, 0, "C12", pawns=[1, 1])
        .hand(0, *powers)
        .turn(0, 1)
        .to_game()
    )


TROY = Pos(0, 0)


@pytest.mark.clause("12.4", "12.4a", "12.4b", "14.2")
@pytest.mark.parametrize("drop", list(gr.FourNeedDrop))
def test_falling_from_four_to_three_keeps_one_pawn(drop: gr.FourNeedDrop) -> None:
    game = four_need_city(drop, "P24")
    game.apply(gr.PlayLightning(0, "P24", Pos(1, 0)))  # the animals go: 4 -> 3
    assert game.state.cities[TROY].satisfaction == 3
    assert game.state.cities[TROY].pawns == (1,)
    assert game.state.supply[1] == 5


KEPT = [(gr.FourNeedDrop.KEEP_ONE, (1,)), (gr.FourNeedDrop.EMPTY_AT_TWO, ())]


@pytest.mark.clause("12.4", "12.4a", "12.4b", "1.3", "13.7")
@pytest.mark.parametrize(("drop", "left"), KEPT)
def test_falling_from_four_to_two_in_one_change_follows_the_switch(
    drop: gr.FourNeedDrop, left: tuple[int, ...]
) -> None:
    game = four_need_city(drop, "P13")
    game.apply(gr.PlayEarthquake(0, "P13", Pos(1, 0), Pos(2, 0)))  # sea and animals leave
    assert game.state.cities[TROY].satisfaction == 2
    assert game.state.cities[TROY].pawns == left


@pytest.mark.clause("12.4", "12.4a", "12.4b", "12.4c", "13.4")
@pytest.mark.parametrize(("drop", "left"), KEPT)
def test_falling_from_four_to_two_by_steps_follows_the_switch(
    drop: gr.FourNeedDrop, left: tuple[int, ...]
) -> None:
    game = four_need_city(drop, "P24", "P01")
    game.apply(gr.PlayLightning(0, "P24", Pos(1, 0)))  # 4 -> 3: one pawn stays
    game.apply(gr.PlaySun(0, "P01", Pos(-1, 0)))  # the plain becomes a desert: 3 -> 2
    assert game.state.cities[TROY].satisfaction == 2
    assert game.state.cities[TROY].pawns == left


@pytest.mark.clause("12.4")
@pytest.mark.parametrize("drop", list(gr.FourNeedDrop))
def test_at_one_need_the_basic_rule_empties_the_city(drop: gr.FourNeedDrop) -> None:
    game = four_need_city(drop, "P13", "P01")
    game.apply(gr.PlayEarthquake(0, "P13", Pos(1, 0), Pos(2, 0)))  # 4 -> 2
    game.apply(gr.PlaySun(0, "P01", Pos(-1, 0)))  # 2 -> 1
    assert game.state.cities[TROY].satisfaction == 1
    assert game.state.cities[TROY].pawns == ()
    assert game.state.supply[1] == 6


@pytest.mark.clause("12.5", "15.1")
def test_a_city_that_wants_two_pawns_takes_the_last_one_and_the_player_wins() -> None:
    objectives = ("O01", "O02", "O03", "O04")
    game = (
        rival_city(owner=1)
        .tile(1, 0, Land.SEA)
        .objectives(*objectives, "O05", fulfilled={o: 0 for o in objectives})
        .to_game()
    )
    assert game.state.supply[0] == 1
    game.apply(gr.PlayAnimals(0, "A05", Pos(1, 0)))  # 3 -> 4: wants two, one left
    assert game.is_over
    assert game.result is not None and game.result.winner == 0
    assert game.state.cities[Pos(0, 0)].pawns == (0,)
    assert game.state.supply[1] == 5  # the rival's pawn returned


@pytest.mark.clause("12.6", "11.5")
def test_a_city_with_two_pawns_of_the_active_player_is_fed_once() -> None:
    game = (
        PositionBuilder(players=2, rules=gr.Rules.advanced())
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.SEA, animals=3)
        .city(0, 0, "C12", pawns=[0, 0])
        .turn(0)
        .to_game()
    )
    fed = [e for e in game.events if isinstance(e, gr.TokensReturned)]
    assert fed == [gr.TokensReturned(Pos(1, 0), 1)]
    assert game.state.animals[Pos(1, 0)] == 2
