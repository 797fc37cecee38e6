"""The one mechanism that settles every change to the world (spec 10), and pawns (3.7, 3.10)."""

from __future__ import annotations

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder
from gaia_rules.satisfaction import settle


@pytest.mark.clause("10.1", "10.3", "10.4", "10.1b", "10.1c")
def test_a_discarded_city_uncovers_its_tile_which_raises_a_third_city_for_the_placer() -> None:
    # Sparta (C10, mountain: plain, swamp, forest, sea) at (1, 0) meets only the plain at (0, 0).
    # Memphis (C06, plain: desert, swamp, sea, mountain) goes on that plain: Sparta falls to 0,
    # is discarded, and its mountain uncovers: Rome (C05, plain: forest, mountain, animals,
    # swamp) at (2, 0) rises from 1 (forest) to 2, credited to the placer.
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(2, 0, Land.PLAIN)
        .tile(3, 0, Land.FOREST)
        .tile(0, 1, Land.DESERT)
        .tile(0, -1, Land.SEA)
        .city(1, 0, "C10")
        .city(2, 0, "C05")
        .hand(0, "C06")
        .turn(0, 1)
        .to_game()
    )
    events = game.apply(gr.PlayCity(0, "C06", Pos(0, 0)))
    assert gr.SatisfactionChanged(Pos(1, 0), 1, 0) in events
    assert gr.CityDiscarded("C10", Pos(1, 0)) in events
    assert gr.SatisfactionChanged(Pos(2, 0), 1, 2) in events
    assert gr.PawnPlaced(0, Pos(0, 0)) in events
    assert gr.PawnPlaced(0, Pos(2, 0)) in events
    state = game.state
    assert Pos(1, 0) not in state.cities
    assert state.discards[gr.CardKind.LIFE][-1] == "C10"
    assert state.supply[0] == 4


def swap_world() -> gr.Game:
    """Thebes (C16, star: desert, plain, forest, swamp) on a mountain at (0, 0) meets the plain
    at (1, 0) and the desert at (0, 1): 2 needs, seat 1's pawn. Beyond the plain lies a sea."""
    return (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(2, 0, Land.FOREST)
        .tile(0, 1, Land.DESERT)
        .city(0, 0, "C16", pawns=[1])
        .turn(0, 1)
        .to_game()
    )


@pytest.mark.clause("10.1", "10.2", "10.1a", "10.1d")
def test_the_comparison_is_net_one_need_lost_and_another_met_is_no_change() -> None:
    game = swap_world()
    table = game._table
    # one change that swaps the plain (1, 0) and the forest (2, 0): Thebes loses its plain
    # need and meets its forest need; its count stays 2, so nothing happens to its pawn.
    table.tiles[Pos(1, 0)], table.tiles[Pos(2, 0)] = Land.FOREST, Land.PLAIN
    start = table.log_length
    settle(table, (Pos(1, 0), Pos(2, 0)), credited=0)
    assert table.log_length == start, "no event: the city did not change"
    assert game.state.cities[Pos(0, 0)].pawns == (1,)
    assert game.state.cities[Pos(0, 0)].satisfaction == 2


@pytest.mark.clause("10.1", "10.2")
def test_a_change_split_in_two_would_empty_the_city_one_change_does_not() -> None:
    game = swap_world()
    table = game._table
    table.tiles[Pos(1, 0)] = Land.SWAMP  # half of a swap, settled alone: 2 -> 2 (swamp need)
    settle(table, (Pos(1, 0),), credited=0)
    table.tiles[Pos(0, 1)] = Land.SEA  # the desert goes: 2 -> 1, the pawn returns
    settle(table, (Pos(0, 1),), credited=0)
    assert game.state.cities[Pos(0, 0)].pawns == ()
    assert game.state.cities[Pos(0, 0)].satisfaction == 1


@pytest.mark.clause("10.3", "3.7")
def test_a_decrease_to_one_empties_the_city_which_stays_and_has_no_owner() -> None:
    # Lhasa (C11, mountain: desert, forest, animals, swamp) meets desert and animals; seats 0
    # and 1 on it. Seat 0's feeding takes the last token: both pawns return.
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT, animals=1)
        .city(0, 0, "C11", pawns=[0, 1])
        .turn(0)
        .to_game()
    )
    assert gr.PawnReturned(0, Pos(0, 0)) in game.events
    assert gr.PawnReturned(1, Pos(0, 0)) in game.events
    city = game.state.cities[Pos(0, 0)]
    assert (city.pawns, city.satisfaction) == ((), 1)
    assert game.state.supply == (6, 6)


@pytest.mark.clause("10.3")
def test_a_decrease_that_leaves_two_or_more_changes_nothing() -> None:
    # Lhasa meets desert, forest and animals (3); the last token goes: 3 -> 2, pawns stay.
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT, animals=1)
        .tile(-1, 0, Land.FOREST)
        .city(0, 0, "C11", pawns=[0, 1])
        .turn(0)
        .to_game()
    )
    assert gr.SatisfactionChanged(Pos(0, 0), 3, 2) in game.events
    assert game.state.cities[Pos(0, 0)].pawns == (0, 1)


def raise_world(players: int = 2) -> PositionBuilder:
    """A square (1, 0) between two cities that a sea would raise.

    Troy (C12, forest: plain, sea, mountain, animals) at (1, 1) meets the plain (0, 1) and the
    mountain (2, 1): 2 needs, seat 1's pawn. Venice (C19, sea: sea, plain, animals, forest) at
    (1, -1) meets the plain (0, -1) and the forest (2, -1): 2 needs, seat 0's pawn.
    """
    return (
        PositionBuilder(players=players)
        .tile(0, 0, Land.DESERT)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.FOREST)
        .tile(2, 1, Land.MOUNTAIN)
        .tile(0, -1, Land.PLAIN)
        .tile(1, -1, Land.SEA)
        .tile(2, -1, Land.FOREST)
        .city(1, 1, "C12", pawns=[1])
        .city(1, -1, "C19", pawns=[0])
        .hand(0, "N20")
        .turn(0, 1)
    )


@pytest.mark.clause("10.4")
def test_a_raise_puts_a_pawn_of_the_raiser_on_each_raised_city_beside_the_others() -> None:
    game = raise_world().to_game()
    events = game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))  # a sea between the two cities
    assert gr.SatisfactionChanged(Pos(1, 1), 2, 3) in events
    assert gr.SatisfactionChanged(Pos(1, -1), 2, 3) in events
    assert gr.PawnPlaced(0, Pos(1, 1)) in events
    assert gr.PawnPlaced(0, Pos(1, -1)) not in events  # he is on Venice already
    state = game.state
    assert state.cities[Pos(1, 1)].pawns == (1, 0)
    assert state.cities[Pos(1, -1)].pawns == (0,)
    assert state.supply == (4, 5)


@pytest.mark.clause("10.4", "10.1")
def test_a_raise_by_two_still_gives_one_pawn() -> None:
    # Carthage (C04, plain: sea, desert, animals, forest) goes on the plain X = (0, 0). Ur (C07,
    # swamp: plain, forest, animals, sea) at (1, 0) and Troy (C12, forest: plain, sea, mountain,
    # animals) at (0, 1) each meet only X's plain: both fall to 0 and are discarded, uncovering
    # a swamp and a forest next to Sparta (C10, mountain: plain, swamp, forest, sea) at (1, 1),
    # which met only the sea at (2, 1): 1 -> 3 in one change, and one pawn.
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.SWAMP)
        .tile(0, 1, Land.FOREST)
        .tile(1, 1, Land.MOUNTAIN)
        .tile(2, 1, Land.SEA)
        .tile(-1, 0, Land.SEA)
        .tile(0, -1, Land.DESERT)
        .city(1, 0, "C07")
        .city(0, 1, "C12")
        .city(1, 1, "C10")
        .hand(0, "C04")
        .turn(0, 1)
        .to_game()
    )
    events = game.apply(gr.PlayCity(0, "C04", Pos(0, 0)))
    assert gr.CityDiscarded("C07", Pos(1, 0)) in events
    assert gr.CityDiscarded("C12", Pos(0, 1)) in events
    assert gr.SatisfactionChanged(Pos(1, 1), 1, 3) in events
    placed = [e for e in events if isinstance(e, gr.PawnPlaced)]
    assert placed == [gr.PawnPlaced(0, Pos(0, 0)), gr.PawnPlaced(0, Pos(1, 1))]


def scarce_world() -> gr.Game:
    """Seat 0 (3 players, 5 pawns) has 4 pawns on Objectives and 1 in supply. Troy (C12) at
    (1, 1) and Venice (C19) at (1, -1) each meet only a plain: 1 need, empty. A sea at (1, 0)
    raises both to 2."""
    return (
        PositionBuilder(players=3)
        .tile(0, 0, Land.DESERT)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.FOREST)
        .tile(0, -1, Land.PLAIN)
        .tile(1, -1, Land.SEA)
        .city(1, 1, "C12")
        .city(1, -1, "C19")
        .hand(0, "N20")
        .objectives(
            "O01",
            "O02",
            "O03",
            "O04",
            "O05",
            fulfilled={o: 0 for o in ("O01", "O02", "O03", "O04")},
        )
        .turn(0, 1)
        .to_game()
    )


@pytest.mark.clause("10.5", "15.1")
def test_with_fewer_pawns_than_raised_cities_the_player_chooses_and_wins() -> None:
    game = scarce_world()
    assert game.state.supply[0] == 1
    game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))
    assert game.decision == gr.ChoosePawnCities(0, (Pos(1, -1), Pos(1, 1)))
    assert set(game.legal_actions()) == {
        gr.PlaceCityPawn(0, Pos(1, -1)),
        gr.PlaceCityPawn(0, Pos(1, 1)),
    }
    game.apply(gr.PlaceCityPawn(0, Pos(1, 1)))
    assert game.is_over
    assert game.result == gr.Result(0, gr.EndReason.ALL_PAWNS_PLACED, (5, 0, 0), ended_by=0)
    assert game.state.cities[Pos(1, -1)].pawns == ()
    assert game.legal_actions() == []


@pytest.mark.clause("10.5")
def test_with_enough_pawns_the_player_is_not_asked() -> None:
    game = raise_world().city(1, 1, "C12", pawns=[1]).to_game()
    game.apply(gr.PlayNature(0, "N20", Pos(1, 0)))
    assert not any(
        isinstance(e, gr.ActionTaken) and isinstance(e.action, gr.PlaceCityPawn)
        for e in game.events
    )


@pytest.mark.clause("10.6", "3.7")
def test_a_returned_pawn_can_be_placed_again_and_an_empty_city_taken_by_its_raiser() -> None:
    # Lhasa (C11, mountain: desert, forest, animals, swamp), seat 1's pawn, meets the desert and
    # the animals at (1, 0). Seat 0 feeds nothing; seat 1 feeds and empties it (his pawn returns)
    # ... here seat 0 raises it again: a forest at (-1, 0).
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .city(0, 0, "C11")
        .hand(0, "N33")
        .turn(0, 1)
        .to_game()
    )
    assert game.state.cities[Pos(0, 0)].pawns == ()
    game.apply(gr.PlayNature(0, "N33", Pos(-1, 0)))
    assert game.state.cities[Pos(0, 0)].pawns == (0,)


@pytest.mark.clause("3.10", "15.3")
def test_pawns_placed_count_cities_and_objectives() -> None:
    game = scarce_world()
    state = game.state
    assert state.supply == (1, 5, 5)
    assert game._table.pawns_placed(0) == 4


@pytest.mark.clause("10.1", "13.7", "10.1c")
def test_two_neighbouring_cities_falling_to_zero_in_one_change_are_both_discarded() -> None:
    # Ur (C07, swamp: plain, forest, animals, sea) at (0, 1) meets only the plain (0, 0);
    # Athens (C15, star: sea, forest, animals, mountain) at (1, 1) meets only the mountain
    # (1, 0). An Earthquake swaps plain and mountain: each city now sees the land it does not
    # need, both fall to 0 together and both are discarded.
    game = (
        PositionBuilder(players=2, rules=gr.Rules.powers())
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.SWAMP)
        .tile(1, 1, Land.DESERT)
        .city(0, 1, "C07")
        .city(1, 1, "C15")
        .hand(0, "P13")
        .turn(0, 1)
        .to_game()
    )
    events = game.apply(gr.PlayEarthquake(0, "P13", Pos(0, 0), Pos(1, 0)))
    assert gr.CityDiscarded("C07", Pos(0, 1)) in events
    assert gr.CityDiscarded("C15", Pos(1, 1)) in events
    assert game.state.cities == {}


@pytest.mark.clause("10.1", "10.1e", "10.1f", "10.3", "10.4")
def test_a_change_settles_its_decreases_before_its_increases() -> None:
    # Sparta (C10, mountain: plain, swamp, forest, sea) at (0, 0) meets the plain (1, 0) and
    # the forest (-1, 0), with seat 0's pawn. Memphis (C06, plain: desert, swamp, sea,
    # mountain) at (2, 0) meets only the sea (3, 0), empty. A Sun turns the plain into a
    # desert: Sparta falls to 1 and seat 0's pawn returns; Memphis rises to 2 and seat 0
    # places a pawn. The return comes first.
    game = (
        PositionBuilder(players=2, rules=gr.Rules.powers())
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.FOREST)
        .tile(2, 0, Land.PLAIN)
        .tile(3, 0, Land.SEA)
        .city(0, 0, "C10", pawns=[0])
        .city(2, 0, "C06")
        .hand(0, "P01")
        .turn(0, 1)
        .to_game()
    )
    events = list(game.apply(gr.PlaySun(0, "P01", Pos(1, 0))))
    returned = events.index(gr.PawnReturned(0, Pos(0, 0)))
    placed = events.index(gr.PawnPlaced(0, Pos(2, 0)))
    assert returned < placed
    assert game.state.cities[Pos(0, 0)].pawns == ()
    assert game.state.cities[Pos(2, 0)].pawns == (0,)
