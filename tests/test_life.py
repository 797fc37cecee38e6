"""Animal and City cards (spec 9), free and covered tiles and needs (spec 3.3-3.5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder
from tests.strategies import Walk, walk_strategy


def offered(game: gr.Game, card: str) -> set[Pos]:
    return {
        a.pos
        for a in game.legal_actions()
        if isinstance(a, gr.PlayAnimals | gr.PlayCity) and a.card == card
    }


def refused_clause(game: gr.Game, action: gr.Action) -> str:
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(action)
    assert game.state == before
    return refused.value.clause


# -- Animals ---------------------------------------------------------------------------------


@pytest.mark.clause("9.1b", "3.3")
def test_animals_go_on_a_free_tile_of_their_land() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.FOREST, animals=2)
        .tile(2, 0, Land.PLAIN)
        .tile(0, 1, Land.FOREST)
        .tile(0, 2, Land.DESERT)
        .city(0, 1, "C16", pawns=[1])  # Thebes (star): desert, plain, forest, swamp
        .hand(0, "A01")  # forest animals
        .turn(0, 1)
        .to_game()
    )
    assert offered(game, "A01") == {Pos(0, 0)}
    assert refused_clause(game, gr.PlayAnimals(0, "A01", Pos(1, 0))) == "9.1b"  # animals
    assert refused_clause(game, gr.PlayAnimals(0, "A01", Pos(0, 1))) == "9.1b"  # a city
    assert refused_clause(game, gr.PlayAnimals(0, "A01", Pos(2, 0))) == "9.1b"  # plain
    assert refused_clause(game, gr.PlayAnimals(0, "A01", Pos(9, 9))) == "9.1b"  # no tile


@pytest.mark.clause("9.1b", "1.3")
@pytest.mark.parametrize("on_sea", [True, False])
def test_star_animals_go_on_any_land_and_on_sea_as_the_switch_says(on_sea: bool) -> None:
    game = (
        PositionBuilder(players=2, rules=gr.Rules.basic(star_animals_on_sea=on_sea))
        .tile(0, 0, Land.SEA)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(2, 0, Land.SWAMP)
        .hand(0, "A10")
        .turn(0, 1)
        .to_game()
    )
    land_squares = {Pos(1, 0), Pos(2, 0)}
    assert offered(game, "A10") == (land_squares | {Pos(0, 0)} if on_sea else land_squares)


@pytest.mark.clause("9.1a")
def test_animals_need_four_tokens_in_the_bank() -> None:
    builder = PositionBuilder(players=2)
    for x, tokens in enumerate((4, 4, 4, 4, 1)):
        builder.tile(x, 0, Land.PLAIN, animals=tokens)
    game = builder.tile(0, 1, Land.FOREST).hand(0, "A01").turn(0, 1).to_game()
    assert game.state.bank == 3
    assert not offered(game, "A01")
    assert refused_clause(game, gr.PlayAnimals(0, "A01", Pos(0, 1))) == "9.1a"


@pytest.mark.clause("9.1a", "11.3")
def test_animals_are_playable_again_once_a_feeding_brings_the_bank_back_to_four() -> None:
    builder = PositionBuilder(players=2)
    for x, tokens in enumerate((4, 4, 4, 4, 1)):
        builder.tile(x, 0, Land.PLAIN, animals=tokens)
    game = (
        builder.tile(0, 1, Land.FOREST)
        .tile(0, -1, Land.MOUNTAIN)
        .city(0, -1, "C09", pawns=[1])  # Cuzco: forest, plain, animals, desert
        .hand(0, "A01")
        .turn(0, 1)
        .to_game()
    )
    assert game.state.bank == 3
    assert not offered(game, "A01")
    game.apply(gr.DrawDeck(0, gr.CardKind.NATURE))
    game.apply(gr.DrawDeck(0, gr.CardKind.NATURE))  # seat 1 feeds Cuzco: a token goes back
    assert game.state.bank == 4
    game.apply(gr.DrawDeck(1, gr.CardKind.NATURE))
    game.apply(gr.DrawDeck(1, gr.CardKind.NATURE))
    assert game.to_move == 0
    assert offered(game, "A01") == {Pos(0, 1)}
    game.apply(gr.PlayAnimals(0, "A01", Pos(0, 1)))
    assert game.state.bank == 0


@pytest.mark.clause("9.1c", "3.4")
def test_four_tokens_from_the_bank_on_one_tile_and_the_card_discarded() -> None:
    game = PositionBuilder(players=2).tile(0, 0, Land.PLAIN).hand(0, "A03").turn(0, 1).to_game()
    game.apply(gr.PlayAnimals(0, "A03", Pos(0, 0)))
    state = game.state
    assert state.animals == {Pos(0, 0): 4}
    assert state.bank == 16
    assert state.discards[gr.CardKind.LIFE][-1] == "A03"
    assert "A03" not in state.hands[0]
    assert state.tiles[Pos(0, 0)] is Land.PLAIN  # tokens do not cover


# -- Cities ----------------------------------------------------------------------------------


def city_world(*cards: str, **extra: object) -> gr.Game:
    """A cross of lands around (0, 0): desert N, plain E, sea S, forest W, mountain centre."""
    builder = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(0, -1, Land.DESERT)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.FOREST)
        .hand(0, *cards)
        .turn(0, 1)
    )
    return builder.to_game()


@pytest.mark.clause("9.2", "9.2a", "9.3", "3.5")
def test_a_city_with_a_land_site_stands_only_on_that_land() -> None:
    # Cuzco (mountain): forest, plain, animals, desert -> 3 needs met at (0, 0)
    game = city_world("C09")
    assert offered(game, "C09") == {Pos(0, 0)}
    assert refused_clause(game, gr.PlayCity(0, "C09", Pos(1, 0))) == "9.2a"
    game.apply(gr.PlayCity(0, "C09", Pos(0, 0)))
    city = game.state.cities[Pos(0, 0)]
    assert (city.card, city.pawns, city.satisfaction) == ("C09", (0,), 3)


@pytest.mark.clause("9.2b")
def test_a_star_city_stands_on_any_land_but_sea() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.SEA)
        .tile(1, 0, Land.DESERT)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.FOREST)
        .hand(0, "C16")  # Thebes (star): desert, plain, forest, swamp
        .turn(0, 1)
        .to_game()
    )
    assert Pos(0, 0) not in offered(game, "C16")
    assert refused_clause(game, gr.PlayCity(0, "C16", Pos(0, 0))) == "9.2b"
    assert offered(game, "C16") == {Pos(1, 1)}  # the only square with 2 needs met


@pytest.mark.clause("9.2c", "2.5")
def test_venice_stands_only_on_sea() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.SEA)
        .tile(1, 0, Land.SEA)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.PLAIN)
        .hand(0, "C19")  # Venice (sea): sea, plain, animals, forest
        .turn(0, 1)
        .to_game()
    )
    assert offered(game, "C19") == {Pos(0, 0), Pos(1, 0)}
    assert refused_clause(game, gr.PlayCity(0, "C19", Pos(0, 1))) == "9.2c"


@pytest.mark.clause("9.3", "3.5")
def test_a_city_needs_two_needs_met_by_its_four_neighbours() -> None:
    # Petra (desert): mountain, plain, sea, forest. Only a plain next to it: 1 need.
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.PLAIN)
        .tile(1, 1, Land.MOUNTAIN)  # diagonal: does not count
        .tile(0, -1, Land.DESERT)  # its own land is not a need of Petra
        .hand(0, "C03")
        .turn(0, 1)
        .to_game()
    )
    assert not offered(game, "C03")
    assert refused_clause(game, gr.PlayCity(0, "C03", Pos(0, 0))) == "9.3"


@pytest.mark.clause("3.5")
def test_one_tile_with_animals_meets_its_land_need_and_the_animal_need() -> None:
    # Carthage (plain): sea, desert, animals, forest; one sea neighbour with animals = 2 needs
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.SEA, animals=2)
        .tile(2, 0, Land.SEA)
        .hand(0, "C04")
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayCity(0, "C04", Pos(0, 0)))
    assert game.state.cities[Pos(0, 0)].satisfaction == 2


@pytest.mark.clause("3.5", "3.6")
def test_two_neighbours_of_one_land_meet_that_need_once() -> None:
    # Troy (forest): plain, sea, mountain, animals; two plains and a sea around it
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .hand(0, "C12")
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayCity(0, "C12", Pos(0, 0)))
    assert game.state.cities[Pos(0, 0)].satisfaction == 2


@pytest.mark.clause("9.4", "3.4", "10.3")
def test_a_new_city_covers_its_tile_and_may_lower_its_neighbours() -> None:
    # Troy at (0, 0) meets plain (1, 0) and sea (0, 1): 2 needs, a pawn of seat 1.
    # Carthage (plain: sea, desert, animals, forest) goes on the plain (1, 0): Troy loses it.
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .tile(1, 1, Land.SEA)
        .tile(2, 0, Land.DESERT)
        .city(0, 0, "C12", pawns=[1])
        .hand(0, "C04")
        .turn(0, 1)
        .to_game()
    )
    events = game.apply(gr.PlayCity(0, "C04", Pos(1, 0)))
    assert gr.SatisfactionChanged(Pos(0, 0), 2, 1) in events
    assert gr.PawnReturned(1, Pos(0, 0)) in events
    assert gr.PawnPlaced(0, Pos(1, 0)) in events
    state = game.state
    assert state.cities[Pos(0, 0)].pawns == ()
    assert state.cities[Pos(1, 0)].pawns == (0,)
    assert state.supply == (5, 6)


@pytest.mark.clause("9.2", "3.3")
def test_a_city_needs_a_free_tile() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN, animals=1)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.FOREST)
        .hand(0, "C09")  # Cuzco (mountain): forest, plain, animals, desert
        .turn(0, 1)
        .to_game()
    )
    assert not offered(game, "C09")
    assert refused_clause(game, gr.PlayCity(0, "C09", Pos(0, 0))) == "9.2"
    assert refused_clause(game, gr.PlayCity(0, "C09", Pos(7, 7))) == "9.2"


# -- tokens: twenty, of one kind (2.2) ----------------------------------------------------------


def check_tokens(game: gr.Game) -> None:
    """Twenty tokens, in the world or the bank; a tile's tokens are a number and nothing else;
    and any token next to a city meets its animal need, whichever card brought it."""
    state = game.state
    assert sum(state.animals.values()) + state.bank == 20
    assert all(isinstance(count, int) and 1 <= count <= 4 for count in state.animals.values())
    for pos, city in state.cities.items():
        face = state.rules.cards.face(city.card)
        assert isinstance(face, gr.CityCard)
        ring = pos.neighbours()
        lands = {state.tiles[p] for p in ring if p in state.tiles and p not in state.cities}
        animals = any(state.animals.get(p, 0) for p in ring)
        met = sum(animals if need is gr.ANIMALS else need in lands for need in face.needs)
        assert city.satisfaction == met, (pos, city, met)


@pytest.mark.clause("2.2")
@settings(max_examples=30, deadline=None, derandomize=True)
@given(walk=walk_strategy(max_steps=300, prefer_plays=(0.5, 0.9)))
def test_twenty_tokens_of_one_kind_at_every_step(walk: Walk) -> None:
    walk.play(check_tokens)


@pytest.mark.clause("2.2")
def test_fish_feed_a_city_on_land_and_deer_a_city_by_the_sea() -> None:
    """The sea card's tokens (fish) meet a plain city's animal need and the forest card's
    (deer) a sea city's: a token is a token whatever it shows, and a feeding takes either."""
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.SEA)
        .tile(2, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .tile(1, 1, Land.SEA)
        .city(0, 0, "C04", pawns=[1])  # Carthage: sea, desert, animals, forest
        .city(1, 1, "C19", pawns=[1])  # Venice: sea, plain, animals, forest
        .hand(0, "A05", "A01")  # sea (fish), forest (deer)
        .turn(0, 1)
        .to_game()
    )
    game.apply(gr.PlayAnimals(0, "A01", Pos(0, 1)))  # deer next to Venice and Carthage
    state = game.state
    assert [state.cities[p].satisfaction for p in (Pos(0, 0), Pos(1, 1))] == [3, 3]
    assert [state.cities[p].pawns for p in (Pos(0, 0), Pos(1, 1))] == [(1, 0), (1, 0)]
    game.apply(gr.PlayAnimals(0, "A05", Pos(1, 0)))  # fish: the need is met already
    state = game.state
    assert [state.cities[p].satisfaction for p in (Pos(0, 0), Pos(1, 1))] == [3, 3]
    assert state.bank == 12
    feeds = {a for a in game.legal_actions() if isinstance(a, gr.Feed)}
    assert feeds == {
        gr.Feed(1, Pos(0, 0), Pos(1, 0)),
        gr.Feed(1, Pos(0, 0), Pos(0, 1)),
        gr.Feed(1, Pos(1, 1), Pos(1, 0)),
        gr.Feed(1, Pos(1, 1), Pos(0, 1)),
    }
