"""Power cards as actions (spec 13.1-13.8, 13.10) and the disasters (spec 14).

Powers: P01-06 Sun, P07-12 Rain, P13-15 Earthquake, P16-19 Tornado, P20-23 Protection,
P24-28 Lightning, P29-30 Eruption. O08 and O09 are the Power Objectives (any four Power
cards in front). Protection has its own tests (test_protection.py): here the other hands
hold no Power card unless a test needs one, so no Protection window opens and the effect
happens inside ``game.apply``.

Cities used (third-edition manifest): C01 Alexandria (desert: sea, plain, animals,
mountain), C05 Rome (plain: forest, mountain, animals, swamp), C10 Sparta (mountain: plain,
swamp, forest, sea), C11 Lhasa (mountain: desert, forest, animals, swamp), C12 Troy (forest:
plain, sea, mountain, animals), C16 Thebes (star: desert, plain, forest, swamp), C17 Nineveh
(star: animals, plain, mountain, sea).
"""

from __future__ import annotations

import pytest

import gaia_rules as gr
from gaia_rules import CardKind, Land, Pos
from gaia_rules.position import PositionBuilder

POWERS = gr.Rules.powers()
DISASTERS = gr.Rules.disasters()
NATURE_OBJECTIVES = ("O01", "O02", "O03", "O04", "O05", "O06", "O07")
POWER_PLAYS = (
    gr.PlaySun,
    gr.PlayRain,
    gr.PlayEarthquake,
    gr.PlayTornado,
    gr.PlayLightning,
    gr.PlayEruption,
)


def board(players: int = 2, rules: gr.Rules = POWERS, seed: int = 0) -> PositionBuilder:
    """A builder whose revealed Objectives are Nature Objectives only (none met here)."""
    return PositionBuilder(players=players, rules=rules, seed=seed).objectives(
        *NATURE_OBJECTIVES[: players + 2]
    )


def plays(game: gr.Game, card: str) -> set[gr.Action]:
    """The legal plays of one Power card."""
    return {a for a in game.legal_actions() if isinstance(a, POWER_PLAYS) and a.card == card}


def refused(game: gr.Game, action: gr.Action) -> str:
    """The clause that refuses ``action``; the game must be exactly as it was."""
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refusal:
        game.apply(action)
    assert game.state == before
    return refusal.value.clause


def play(game: gr.Game, action: gr.Action) -> tuple[gr.Event, ...]:
    """Apply an action that must be among the legal ones offered."""
    assert action in game.legal_actions(), action
    return game.apply(action)


def supply_change(before: gr.GameState, after: gr.GameState) -> dict[Land, int]:
    """How each land's tile supply changed (lands that did not change are left out)."""
    return {
        land: after.tile_supply[land] - before.tile_supply[land]
        for land in gr.LANDS
        if after.tile_supply[land] != before.tile_supply[land]
    }


# -- 13.2 / 13.3: playing a Power card ------------------------------------------------------------


@pytest.mark.clause("13.2", "13.3", "13.3a")
def test_a_played_power_card_leaves_the_hand_and_goes_in_front_before_its_effect() -> None:
    game = (
        board().tile(0, 0, Land.PLAIN).hand(0, "P01", "N33").tableau(0, "N07").turn(0, 1).to_game()
    )
    assert plays(game, "P01") == {gr.PlaySun(0, "P01", Pos(0, 0))}
    events = play(game, gr.PlaySun(0, "P01", Pos(0, 0)))
    played = events.index(gr.PowerPlayed(0, "P01"))
    assert played < events.index(gr.TileReplaced(Pos(0, 0), Land.PLAIN, Land.DESERT))
    state = game.state
    assert state.hands[0] == ("N33",)
    assert state.tableaux[0] == ("N07", "P01")
    assert "P01" not in state.discards[CardKind.POWER]
    assert state.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("13.2", "14.2", "8.1", "8.3")
def test_a_lightning_on_a_bare_tile_changes_nothing_and_still_completes_a_power_objective() -> None:
    game = (
        board(rules=DISASTERS)
        .objectives("O01", "O02", "O03", "O08")
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.SEA)
        .tableau(0, "P02", "P07", "P13")
        .hand(0, "P24")
        .turn(0, 1)
        .to_game()
    )
    before = game.state
    assert plays(game, "P24") == {
        gr.PlayLightning(0, "P24", Pos(0, 0)),
        gr.PlayLightning(0, "P24", Pos(1, 0)),
    }
    events = play(game, gr.PlayLightning(0, "P24", Pos(0, 0)))
    after = game.state
    assert (after.tiles, after.animals, after.cities, after.bank, after.tile_supply) == (
        before.tiles,
        before.animals,
        before.cities,
        before.bank,
        before.tile_supply,
    )
    assert gr.ObjectiveFulfilled(0, "O08", ("P02", "P07", "P13", "P24")) in events
    assert after.objective_pawns == {"O08": 0}
    assert after.tableaux[0] == ()
    assert after.supply[0] == before.supply[0] - 1


@pytest.mark.clause("13.2", "13.7", "8.1", "8.3")
def test_an_earthquake_of_two_alike_tiles_changes_nothing_and_still_counts() -> None:
    game = (
        board()
        .objectives("O01", "O02", "O03", "O09")
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.PLAIN)
        .tableau(0, "P01", "P07", "P16")
        .hand(0, "P13")
        .turn(0, 1)
        .to_game()
    )
    before = game.state
    assert plays(game, "P13") == {gr.PlayEarthquake(0, "P13", Pos(0, 0), Pos(1, 0))}
    events = play(game, gr.PlayEarthquake(0, "P13", Pos(0, 0), Pos(1, 0)))
    assert game.state.tiles == before.tiles
    assert gr.ObjectiveFulfilled(0, "O09", ("P01", "P07", "P16", "P13")) in events
    assert game.state.objective_pawns == {"O09": 0}


@pytest.mark.clause("13.2", "13.8d", "8.1", "8.3")
def test_a_tornado_with_every_other_hand_empty_has_no_effect_and_still_counts() -> None:
    game = (
        board(players=3)
        .objectives("O01", "O02", "O03", "O04", "O08")
        .tableau(0, "P01", "P07", "P13")
        .hand(0, "P16", "N01")
        .turn(0, 1)
        .to_game()
    )
    assert plays(game, "P16") == {gr.PlayTornado(0, "P16")}
    events = play(game, gr.PlayTornado(0, "P16"))
    assert not [e for e in events if isinstance(e, gr.CardStolen | gr.CardKept)]
    state = game.state
    assert state.hands == (("N01",), (), ())
    assert state.stolen == ()
    assert gr.ObjectiveFulfilled(0, "O08", ("P01", "P07", "P13", "P16")) in events
    assert state.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("13.2", "13.4", "10.3")
def test_a_power_may_hit_its_own_players_city() -> None:
    # Seat 0's Nineveh at (0, 0) meets the plain (1, 0) and the sea (0, 1): 2 needs.
    game = (
        board()
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .city(0, 0, "C17", pawns=[0])
        .hand(0, "P01")
        .turn(0, 1)
        .to_game()
    )
    assert plays(game, "P01") == {gr.PlaySun(0, "P01", Pos(1, 0))}
    events = play(game, gr.PlaySun(0, "P01", Pos(1, 0)))
    assert gr.SatisfactionChanged(Pos(0, 0), 2, 1) in events
    assert gr.PawnReturned(0, Pos(0, 0)) in events
    assert game.state.cities[Pos(0, 0)] == gr.CityState("C17", (), 1)
    assert game.state.supply[0] == 6


@pytest.mark.clause("13.2")
def test_a_card_that_is_not_of_the_actions_power_is_refused() -> None:
    game = (
        board()
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.PLAIN)
        .hand(0, "P07", "P13", "N07")
        .turn(0, 1)
        .to_game()
    )
    assert refused(game, gr.PlaySun(0, "P07", Pos(0, 0))) == "13.2"  # a Rain
    assert refused(game, gr.PlayRain(0, "P13", Pos(0, 0))) == "13.2"  # an Earthquake
    assert refused(game, gr.PlayEarthquake(0, "P07", Pos(0, 0), Pos(1, 0))) == "13.2"
    assert refused(game, gr.PlayTornado(0, "P13")) == "13.2"
    assert refused(game, gr.PlayLightning(0, "P07", Pos(0, 0))) == "13.2"
    assert refused(game, gr.PlaySun(0, "N07", Pos(0, 0))) == "13.2"  # a Nature card


@pytest.mark.clause("13.2", "5.2")
def test_a_power_card_not_in_the_hand_is_refused() -> None:
    game = board().tile(0, 0, Land.PLAIN).hand(0, "P01").tableau(0, "P02").turn(0, 1).to_game()
    assert refused(game, gr.PlaySun(0, "P02", Pos(0, 0))) == "5.2"  # already in front
    assert refused(game, gr.PlaySun(0, "P03", Pos(0, 0))) == "5.2"  # in the deck or display
    assert refused(game, gr.PlayTornado(0, "P16")) == "5.2"
    assert plays(game, "P02") == set()


@pytest.mark.clause("13.3", "13.3c", "12.2", "12.4")
def test_power_example_a_a_sun_lowers_a_rivals_city_and_a_rain_raising_it_steals_it() -> None:
    # Seat 1's Nineveh at (0, 0) meets plain (1, 0), sea (0, 1) and mountain (-1, 0): 3 needs.
    game = (
        board()
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.MOUNTAIN)
        .city(0, 0, "C17", pawns=[1])
        .hand(0, "P01", "P07")
        .turn(0, 1)
        .to_game()
    )
    events = play(game, gr.PlaySun(0, "P01", Pos(1, 0)))
    assert gr.SatisfactionChanged(Pos(0, 0), 3, 2) in events
    assert game.state.cities[Pos(0, 0)] == gr.CityState("C17", (1,), 2)  # 3 -> 2 keeps one
    assert plays(game, "P07") == {gr.PlayRain(0, "P07", Pos(1, 0))}
    events = play(game, gr.PlayRain(0, "P07", Pos(1, 0)))
    assert gr.SatisfactionChanged(Pos(0, 0), 2, 3) in events
    assert gr.CityTaken(0, Pos(0, 0), 1) in events
    assert gr.PawnPlaced(0, Pos(0, 0)) in events
    state = game.state
    assert state.cities[Pos(0, 0)] == gr.CityState("C17", (0,), 3)
    assert state.supply == (5, 6)


@pytest.mark.clause("13.3", "13.3d", "8.3", "12.2")
def test_the_objective_check_comes_after_the_effect_is_settled() -> None:
    # Seat 1's Nineveh meets sea (0, 1) and mountain (-1, 0); the swamp (1, 0) becomes a plain.
    game = (
        board()
        .objectives("O01", "O02", "O03", "O08")
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.SWAMP)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.MOUNTAIN)
        .city(0, 0, "C17", pawns=[1])
        .tableau(0, "P02", "P08", "P13")
        .hand(0, "P01")
        .turn(0, 1)
        .to_game()
    )
    events = list(play(game, gr.PlaySun(0, "P01", Pos(1, 0))))
    replaced = events.index(gr.TileReplaced(Pos(1, 0), Land.SWAMP, Land.PLAIN))
    stolen = events.index(gr.CityTaken(0, Pos(0, 0), 1))
    placed = events.index(gr.PawnPlaced(0, Pos(0, 0)))
    fulfilled = events.index(gr.ObjectiveFulfilled(0, "O08", ("P02", "P08", "P13", "P01")))
    assert replaced < stolen < placed < fulfilled
    assert game.state.supply[0] == 4


# -- 13.4 Sun, 13.6 -------------------------------------------------------------------------------


def sun_rain_world(city: str, site: Land) -> PositionBuilder:
    """One tile of each land in a row at y = 0, and a city on a ``site`` tile at (5, 1) that
    meets only the mountain (5, 0)."""
    return (
        board()
        .tile(0, 0, Land.SWAMP if site is Land.PLAIN else Land.DESERT)
        .tile(1, 0, Land.PLAIN)
        .tile(2, 0, Land.DESERT if site is Land.PLAIN else Land.SWAMP)
        .tile(3, 0, Land.SEA)
        .tile(4, 0, Land.FOREST)
        .tile(5, 0, Land.MOUNTAIN)
        .tile(5, 1, site)
        .city(5, 1, city)
    )


@pytest.mark.clause("13.4", "13.6")
def test_a_sun_turns_a_swamp_into_a_plain_and_a_plain_into_a_desert() -> None:
    # Rome on the plain at (5, 1) meets the mountain only; that plain is under a city.
    game = sun_rain_world("C05", Land.PLAIN).hand(0, "P01", "P02").turn(0, 1).to_game()
    assert plays(game, "P01") == {
        gr.PlaySun(0, "P01", Pos(0, 0)),
        gr.PlaySun(0, "P01", Pos(1, 0)),
    }
    start = game.state
    events = play(game, gr.PlaySun(0, "P01", Pos(0, 0)))
    assert gr.TileReplaced(Pos(0, 0), Land.SWAMP, Land.PLAIN) in events
    middle = game.state
    assert middle.tiles[Pos(0, 0)] is Land.PLAIN
    assert supply_change(start, middle) == {Land.SWAMP: 1, Land.PLAIN: -1}
    assert plays(game, "P02") == {
        gr.PlaySun(0, "P02", Pos(0, 0)),
        gr.PlaySun(0, "P02", Pos(1, 0)),
    }
    events = play(game, gr.PlaySun(0, "P02", Pos(1, 0)))
    assert gr.TileReplaced(Pos(1, 0), Land.PLAIN, Land.DESERT) in events
    end = game.state
    assert end.tiles[Pos(1, 0)] is Land.DESERT
    assert supply_change(middle, end) == {Land.PLAIN: 1, Land.DESERT: -1}
    assert end.tableaux[0] == ("P01", "P02")


@pytest.mark.clause("13.4")
def test_a_sun_is_refused_under_a_city_and_on_a_desert_sea_forest_mountain_or_no_tile() -> None:
    game = sun_rain_world("C05", Land.PLAIN).hand(0, "P01").turn(0, 1).to_game()
    for x, y in ((5, 1), (2, 0), (3, 0), (4, 0), (5, 0), (9, 9)):
        assert refused(game, gr.PlaySun(0, "P01", Pos(x, y))) == "13.4", (x, y)


@pytest.mark.clause("13.4")
def test_a_sun_on_a_plain_is_refused_when_no_desert_is_left_in_the_tile_supply() -> None:
    builder = board()
    for x in range(10):
        builder.tile(x, 0, Land.DESERT)
    builder.tile(0, 1, Land.PLAIN).tile(1, 1, Land.SWAMP).hand(0, "P01").turn(0, 1)
    game = builder.to_game()
    assert game.state.tile_supply[Land.DESERT] == 0
    assert plays(game, "P01") == {gr.PlaySun(0, "P01", Pos(1, 1))}  # the swamp only
    assert refused(game, gr.PlaySun(0, "P01", Pos(0, 1))) == "13.4"


@pytest.mark.clause("13.4")
def test_the_tokens_on_a_tile_the_sun_replaces_stay_on_the_new_tile() -> None:
    game = (
        board()
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN, animals=2)
        .hand(0, "P01")
        .turn(0, 1)
        .to_game()
    )
    bank = game.state.bank
    events = play(game, gr.PlaySun(0, "P01", Pos(1, 0)))
    assert not [e for e in events if isinstance(e, gr.TokensReturned)]
    state = game.state
    assert state.tiles[Pos(1, 0)] is Land.DESERT
    assert state.animals == {Pos(1, 0): 2}
    assert state.bank == bank


@pytest.mark.clause("13.6", "13.3", "13.3c", "7.1")
def test_the_replaced_tile_returns_to_the_supply_and_its_nature_card_is_playable_again() -> None:
    builder = board()
    for x in range(7):
        builder.tile(x, 0, Land.SWAMP)
    game = builder.hand(0, "P01", "N15").turn(0, 1).to_game()
    assert game.state.tile_supply[Land.SWAMP] == 0
    assert not [a for a in game.legal_actions() if isinstance(a, gr.PlayNature)]
    assert refused(game, gr.PlayNature(0, "N15", Pos(0, 1))) == "7.1"
    play(game, gr.PlaySun(0, "P01", Pos(3, 0)))
    assert game.state.tile_supply[Land.SWAMP] == 1
    squares = {a.pos for a in game.legal_actions() if isinstance(a, gr.PlayNature)}
    assert Pos(0, 1) in squares
    play(game, gr.PlayNature(0, "N15", Pos(0, 1)))
    assert game.state.tiles[Pos(0, 1)] is Land.SWAMP
    assert game.state.tile_supply[Land.SWAMP] == 0


# -- 13.5 Rain ------------------------------------------------------------------------------------


@pytest.mark.clause("13.5", "13.6")
def test_a_rain_turns_a_desert_into_a_plain_and_a_plain_into_a_swamp_tokens_staying() -> None:
    # Alexandria on the desert at (5, 1) meets the mountain only; that desert is under a city.
    builder = sun_rain_world("C01", Land.DESERT)
    game = builder.tile(1, 0, Land.PLAIN, animals=1).hand(0, "P07", "P08").turn(0, 1).to_game()
    assert plays(game, "P07") == {
        gr.PlayRain(0, "P07", Pos(0, 0)),
        gr.PlayRain(0, "P07", Pos(1, 0)),
    }
    start = game.state
    events = play(game, gr.PlayRain(0, "P07", Pos(0, 0)))
    assert gr.TileReplaced(Pos(0, 0), Land.DESERT, Land.PLAIN) in events
    middle = game.state
    assert supply_change(start, middle) == {Land.DESERT: 1, Land.PLAIN: -1}
    assert plays(game, "P08") == {
        gr.PlayRain(0, "P08", Pos(0, 0)),
        gr.PlayRain(0, "P08", Pos(1, 0)),
    }
    events = play(game, gr.PlayRain(0, "P08", Pos(1, 0)))
    assert gr.TileReplaced(Pos(1, 0), Land.PLAIN, Land.SWAMP) in events
    end = game.state
    assert supply_change(middle, end) == {Land.PLAIN: 1, Land.SWAMP: -1}
    assert end.tiles[Pos(0, 0)] is Land.PLAIN
    assert end.tiles[Pos(1, 0)] is Land.SWAMP
    assert end.animals == {Pos(1, 0): 1}
    assert end.bank == start.bank


@pytest.mark.clause("13.5")
def test_a_rain_is_refused_under_a_city_and_on_a_swamp_sea_forest_mountain_or_no_tile() -> None:
    game = sun_rain_world("C01", Land.DESERT).hand(0, "P07").turn(0, 1).to_game()
    for x, y in ((5, 1), (2, 0), (3, 0), (4, 0), (5, 0), (9, 9)):
        assert refused(game, gr.PlayRain(0, "P07", Pos(x, y))) == "13.5", (x, y)


@pytest.mark.clause("13.5")
def test_a_rain_is_refused_when_its_new_tile_is_not_in_the_tile_supply() -> None:
    swamps = board()
    for x in range(7):
        swamps.tile(x, 0, Land.SWAMP)
    swamps.tile(0, 1, Land.PLAIN).tile(1, 1, Land.DESERT).hand(0, "P07").turn(0, 1)
    no_swamp = swamps.to_game()
    assert plays(no_swamp, "P07") == {gr.PlayRain(0, "P07", Pos(1, 1))}  # the desert only
    assert refused(no_swamp, gr.PlayRain(0, "P07", Pos(0, 1))) == "13.5"

    plains = board()
    for x in range(10):
        plains.tile(x, 0, Land.PLAIN)
    plains.tile(0, 1, Land.DESERT).tile(1, 1, Land.SWAMP).hand(0, "P07").turn(0, 1)
    no_plain = plains.to_game()
    assert plays(no_plain, "P07") == {gr.PlayRain(0, "P07", Pos(x, 0)) for x in range(10)}
    assert refused(no_plain, gr.PlayRain(0, "P07", Pos(0, 1))) == "13.5"


# -- 13.7 Earthquake ------------------------------------------------------------------------------


def quake_world() -> gr.Game:
    """Seat 1's Troy on the forest (0, 0) meets the sea with 2 tokens at (1, 0) (sea and
    animals) and the plain (-1, 0): 3 needs. Seat 1's Nineveh on the desert (0, -1) meets the
    plain (1, -1) and the mountain (-1, -1): 2 needs; Troy covers (0, 0)."""
    return (
        board()
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.SEA, animals=2)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.DESERT)
        .tile(1, -1, Land.PLAIN)
        .tile(-1, -1, Land.MOUNTAIN)
        .city(0, 0, "C12", pawns=[1])
        .city(0, -1, "C17", pawns=[1])
        .hand(0, "P13")
        .turn(0, 1)
        .to_game()
    )


@pytest.mark.clause("13.7", "13.3", "12.2", "12.3")
def test_an_earthquake_swaps_two_neighbours_with_their_tokens_city_and_pawns() -> None:
    game = quake_world()
    pairs = [
        ((-1, -1), (-1, 0)),
        ((-1, -1), (0, -1)),
        ((-1, 0), (0, 0)),
        ((0, -1), (0, 0)),
        ((0, -1), (1, -1)),
        ((0, 0), (1, 0)),
        ((1, -1), (1, 0)),
    ]
    assert plays(game, "P13") == {gr.PlayEarthquake(0, "P13", Pos(*a), Pos(*b)) for a, b in pairs}
    events = play(game, gr.PlayEarthquake(0, "P13", Pos(0, 0), Pos(1, 0)))
    assert gr.TilesSwapped(Pos(0, 0), Pos(1, 0)) in events
    state = game.state
    assert state.tiles[Pos(0, 0)] is Land.SEA
    assert state.tiles[Pos(1, 0)] is Land.FOREST
    assert state.animals == {Pos(0, 0): 2}
    # Troy moved with its pawn; it now meets sea, animals and the plain (1, -1): still 3.
    assert state.cities[Pos(1, 0)] == gr.CityState("C12", (1,), 3)
    assert Pos(0, 0) not in state.cities
    # Nineveh now has the uncovered sea with tokens: 2 -> 4, stolen by seat 0 with 2 pawns.
    assert gr.SatisfactionChanged(Pos(0, -1), 2, 4) in events
    assert gr.CityTaken(0, Pos(0, -1), 1) in events
    assert state.cities[Pos(0, -1)] == gr.CityState("C17", (0, 0), 4)
    assert state.supply == (4, 5)


@pytest.mark.clause("13.7")
def test_an_earthquake_is_refused_on_diagonal_distant_missing_or_reversed_squares() -> None:
    game = quake_world()
    for first, second in (
        ((0, 0), (1, -1)),  # diagonal
        ((-1, 0), (1, 0)),  # two squares apart
        ((1, 0), (2, 0)),  # no tile at (2, 0)
        ((0, 1), (0, 0)),  # no tile at (0, 1)
        ((0, 0), (0, 0)),  # one tile
        ((1, 0), (0, 0)),  # neighbours, but the higher square first
        ((0, 0), (0, -1)),  # neighbours, but the higher square first
    ):
        action = gr.PlayEarthquake(0, "P13", Pos(*first), Pos(*second))
        assert refused(game, action) == "13.7", (first, second)


@pytest.mark.clause("13.7", "10.1", "10.2")
def test_a_city_that_loses_one_need_and_meets_another_keeps_its_pawn() -> None:
    # Seat 1's Nineveh on (0, 0) meets plain (1, 0) and sea (0, 1); the plain and the mountain
    # (2, 0) swap: it loses the plain and meets the mountain, 2 before and after.
    game = (
        board()
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.SEA)
        .city(0, 0, "C17", pawns=[1])
        .hand(0, "P13")
        .turn(0, 1)
        .to_game()
    )
    events = play(game, gr.PlayEarthquake(0, "P13", Pos(1, 0), Pos(2, 0)))
    assert game.state.tiles[Pos(1, 0)] is Land.MOUNTAIN
    assert not [e for e in events if isinstance(e, gr.SatisfactionChanged | gr.CityTaken)]
    assert game.state.cities[Pos(0, 0)] == gr.CityState("C17", (1,), 2)
    assert game.state.supply == (6, 5)


@pytest.mark.clause("13.7", "10.1")
def test_each_moved_city_is_compared_with_its_own_record_not_its_new_squares() -> None:
    # Seat 1's Thebes on (0, 0) meets desert, plain, forest on its left side (3); seat 1's
    # Nineveh on (1, 0) meets plain and the tokens of the swamp on its right side (2). They
    # swap: Thebes meets plain, forest, swamp (3) and Nineveh animals and plain (2). Compared
    # by square, (1, 0) would rise from 2 to 3 and (0, 0) fall from 3 to 2.
    game = (
        board()
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.DESERT)
        .tile(-1, 0, Land.DESERT, animals=1)
        .tile(0, 1, Land.PLAIN)
        .tile(0, -1, Land.FOREST)
        .tile(2, 0, Land.PLAIN)
        .tile(1, 1, Land.FOREST)
        .tile(1, -1, Land.SWAMP, animals=1)
        .city(0, 0, "C16", pawns=[1])
        .city(1, 0, "C17", pawns=[1])
        .hand(0, "P13")
        .turn(0, 1)
        .to_game()
    )
    events = play(game, gr.PlayEarthquake(0, "P13", Pos(0, 0), Pos(1, 0)))
    assert not [e for e in events if isinstance(e, gr.SatisfactionChanged | gr.PawnPlaced)]
    state = game.state
    assert state.cities == {
        Pos(0, 0): gr.CityState("C17", (1,), 2),
        Pos(1, 0): gr.CityState("C16", (1,), 3),
    }
    assert state.supply == (6, 4)


@pytest.mark.clause("13.7", "12.4", "12.4c")
def test_a_moved_city_takes_its_four_needs_record_with_it_under_empty_at_two() -> None:
    # Seat 1's Troy on the forest (0, 0) meets plain (-1, 0), the sea with tokens (0, 1) and the
    # mountain (0, -1): 4 needs, 2 pawns. Swapped with the desert (1, 0) it meets only the
    # plain (2, 0) and the sea (1, 1): it reached four and falls to 2, so it empties.
    game = (
        board(rules=gr.Rules.powers(four_need_drop=gr.FourNeedDrop.EMPTY_AT_TWO))
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA, animals=1)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .tile(2, 0, Land.PLAIN)
        .tile(1, 1, Land.SEA)
        .city(0, 0, "C12", pawns=[1, 1])
        .hand(0, "P13")
        .turn(0, 1)
        .to_game()
    )
    events = play(game, gr.PlayEarthquake(0, "P13", Pos(0, 0), Pos(1, 0)))
    assert gr.SatisfactionChanged(Pos(1, 0), 4, 2) in events
    assert events.count(gr.PawnReturned(1, Pos(1, 0))) == 2
    assert game.state.cities == {Pos(1, 0): gr.CityState("C12", (), 2)}
    assert game.state.supply == (6, 6)


# -- 13.8 Tornado ---------------------------------------------------------------------------------


@pytest.mark.clause("13.8", "13.8a", "13.8d", "13.10", "5.4")
def test_a_tornado_names_a_back_for_each_other_hand_in_seat_order_skipping_empty_hands() -> None:
    # Four players; seat 1 is the thief. Seat 2 shows two backs, seat 3 holds nothing, seat 0
    # shows one back only.
    game = board(players=4).hand(1, "P16").hand(2, "N07", "C01").hand(0, "A01").turn(1, 1).to_game()
    play(game, gr.PlayTornado(1, "P16"))
    assert game.decision == gr.ChooseBack(1, 2, (0,))
    assert set(game.legal_actions()) == {
        gr.NameBack(1, 2, CardKind.NATURE),
        gr.NameBack(1, 2, CardKind.LIFE),
    }
    assert refused(game, gr.NameBack(1, 2, CardKind.POWER)) == "13.8a"
    assert refused(game, gr.NameBack(1, 3, CardKind.NATURE)) == "13.8d"  # seat 3 holds nothing
    assert refused(game, gr.NameBack(1, 1, CardKind.POWER)) == "13.8a"  # the thief himself
    events = play(game, gr.NameBack(1, 2, CardKind.NATURE))
    assert gr.CardStolen(1, 2, CardKind.NATURE, "N07") in events
    assert gr.ActionTaken(1, gr.NameBack(1, 0, CardKind.LIFE), by_engine=True) in events
    assert gr.CardStolen(1, 0, CardKind.LIFE, "A01") in events
    assert not [e for e in game.events if isinstance(e, gr.CardStolen) and e.victim == 3]
    state = game.state
    assert state.decision == gr.ChooseKeptCard(1)
    assert state.stolen == (("N07", 2), ("A01", 0))
    assert state.hands == ((), (), ("C01",), ())


@pytest.mark.clause("13.8a", "13.8c", "13.8d", "6.5b")
def test_a_power_back_may_be_named_and_the_kept_card_fits_both_limits() -> None:
    # The thief holds 6 cards, 2 of them Power cards, one being the Tornado. The victim holds a
    # Power card, so he is asked about Protection first (and passes).
    game = (
        board()
        .hand(0, "P16", "P01", "N01", "N02", "C01", "A01")
        .hand(1, "N07", "P08")
        .turn(0, 1)
        .to_game()
    )
    play(game, gr.PlayTornado(0, "P16"))
    assert game.decision == gr.ChooseProtection(1, 0, "P16", ())
    play(game, gr.PassProtection(1))
    assert game.state.decision == gr.ChooseBack(0, 1, ())
    assert set(game.legal_actions()) == {
        gr.NameBack(0, 1, CardKind.NATURE),
        gr.NameBack(0, 1, CardKind.POWER),
    }
    events = play(game, gr.NameBack(0, 1, CardKind.POWER))
    assert gr.CardStolen(0, 1, CardKind.POWER, "P08") in events
    assert gr.ActionTaken(0, gr.KeepCard(0, "P08"), by_engine=True) in events  # one stolen
    state = game.state
    assert sorted(state.hands[0]) == ["A01", "C01", "N01", "N02", "P01", "P08"]
    assert state.hands[1] == ("N07",)
    assert state.decision == gr.ChooseAction(0, 2)  # 6 cards, 2 Powers: no limit discard


def steal_from_five(seed: int) -> tuple[str, tuple[gr.Event, ...]]:
    """Seat 1 holds five Nature cards; seat 0's Tornado takes one. The card kept, and events."""
    game = (
        board(seed=seed)
        .hand(0, "P16")
        .hand(1, "N07", "N08", "N09", "N33", "N34")
        .turn(0, 1)
        .to_game()
    )
    events = play(game, gr.PlayTornado(0, "P16"))
    kept = [e.card for e in events if isinstance(e, gr.CardKept)]
    assert len(kept) == 1 and kept[0] is not None
    return kept[0], events


@pytest.mark.clause("13.8b", "13.8c", "1.6", "5.4")
def test_the_card_taken_is_random_within_its_back_and_the_same_for_the_same_seed() -> None:
    card, events = steal_from_five(7)
    assert card in ("N07", "N08", "N09", "N33", "N34")
    assert gr.ActionTaken(0, gr.NameBack(0, 1, CardKind.NATURE), by_engine=True) in events
    assert gr.ActionTaken(0, gr.KeepCard(0, card), by_engine=True) in events
    assert steal_from_five(7)[0] == card  # same position, same seed: same card
    assert len({steal_from_five(seed)[0] for seed in range(20)}) > 1  # not a fixed card


def three_seat_tornado() -> gr.Game:
    """Seat 0 plays a Tornado; seat 1 holds N07, seat 2 holds C01: both taken by the engine."""
    game = board(players=3).hand(0, "P16", "N01").hand(1, "N07").hand(2, "C01").turn(0, 1).to_game()
    play(game, gr.PlayTornado(0, "P16"))
    return game


@pytest.mark.clause("13.8b", "13.8c", "6.4", "5.4")
def test_the_thief_keeps_exactly_one_stolen_card_and_discards_the_rest_face_up() -> None:
    game = three_seat_tornado()
    state = game.state
    assert state.decision == gr.ChooseKeptCard(0)
    assert state.stolen == (("N07", 1), ("C01", 2))
    assert state.hands == (("N01",), (), ())  # the stolen cards are in no hand yet
    assert set(game.legal_actions()) == {gr.KeepCard(0, "N07"), gr.KeepCard(0, "C01")}
    assert refused(game, gr.KeepCard(0, "N01")) == "13.8c"  # his own card
    assert refused(game, gr.KeepCard(0, "N08")) == "13.8c"
    assert refused(game, gr.DrawDeck(0, CardKind.NATURE)) == "5.4"  # keeping none: no such move
    events = play(game, gr.KeepCard(0, "C01"))
    assert gr.CardKept(0, 2, "C01") in events
    assert gr.CardDiscarded(0, "N07") in events
    state = game.state
    assert state.hands == (("N01", "C01"), (), ())
    assert state.discards[CardKind.NATURE][-1] == "N07"
    assert "C01" not in state.discards[CardKind.LIFE]
    assert state.stolen == ()
    assert state.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("13.8c", "1.5")
def test_a_third_seat_never_sees_a_stolen_card_in_its_view_or_its_events() -> None:
    game = three_seat_tornado()
    assert game.view(0).stolen == ((CardKind.NATURE, 1, "N07"), (CardKind.LIFE, 2, "C01"))
    assert game.view(1).stolen == ((CardKind.NATURE, 1, "N07"), (CardKind.LIFE, 2, None))
    assert game.view(2).stolen == ((CardKind.NATURE, 1, None), (CardKind.LIFE, 2, "C01"))
    play(game, gr.KeepCard(0, "C01"))
    seen_by_1 = game.events_for(1)
    assert gr.CardStolen(0, 1, CardKind.NATURE, "N07") in seen_by_1
    assert gr.CardStolen(0, 2, CardKind.LIFE, None) in seen_by_1
    assert gr.CardKept(0, 2, None) in seen_by_1
    assert gr.CardDiscarded(0, "N07") in seen_by_1  # discards are face up
    assert "C01" not in repr(seen_by_1)  # no event at all shows him the kept card
    seen_by_2 = game.events_for(2)
    assert gr.CardStolen(0, 1, CardKind.NATURE, None) in seen_by_2
    assert gr.CardStolen(0, 2, CardKind.LIFE, "C01") in seen_by_2
    assert gr.CardKept(0, 2, "C01") in seen_by_2
    assert gr.CardKept(0, 2, "C01") in game.events_for(0)


def tornado_between_two_backs() -> gr.Game:
    """Seat 0's Tornado has taken a Nature card from seat 1; seat 2's back is still to name."""
    game = (
        board(players=3)
        .hand(0, "P16")
        .hand(1, "N07", "C01")
        .hand(2, "N08", "A01")
        .turn(0, 1)
        .to_game()
    )
    play(game, gr.PlayTornado(0, "P16"))
    play(game, gr.NameBack(0, 1, CardKind.NATURE))
    assert game.decision == gr.ChooseBack(0, 2, ())
    return game


@pytest.mark.clause("13.8c", "1.5")
def test_the_thief_does_not_see_a_stolen_card_in_his_view_before_the_last_is_taken() -> None:
    game = tornado_between_two_backs()
    assert game.view(1).stolen == ((CardKind.NATURE, 1, "N07"),)  # its owner knew it
    assert game.view(0).stolen == ((CardKind.NATURE, 1, None),)


@pytest.mark.clause("13.8c", "1.5")
def test_the_thief_does_not_see_a_stolen_card_in_his_events_before_the_last_is_taken() -> None:
    game = tornado_between_two_backs()
    seen_by_thief = game.events_for(0)
    assert [e for e in seen_by_thief if isinstance(e, gr.CardStolen)] == [
        gr.CardStolen(0, 1, CardKind.NATURE, None)
    ]
    assert "N07" not in repr(seen_by_thief)
    play(game, gr.NameBack(0, 2, CardKind.LIFE))  # the last card: now he looks at both
    assert game.view(0).stolen == ((CardKind.NATURE, 1, "N07"), (CardKind.LIFE, 2, "A01"))
    assert "N07" in repr(game.events_for(0)) and "A01" in repr(game.events_for(0))
    assert "N07" not in repr(game.events_for(2))


# -- 14.1 the disasters deck ----------------------------------------------------------------------


def powers_in_play(state: gr.GameState) -> set[str]:
    cards = {*state.decks[CardKind.POWER], *state.displays[CardKind.POWER]}
    cards |= {*state.discards[CardKind.POWER]}
    cards |= {c for hand in state.hands for c in hand if c.startswith("P")}
    return cards


@pytest.mark.clause("14.1", "2.7", "13.1")
@pytest.mark.parametrize("lightnings", [0, 1, 2, 3, 4, 5])
def test_the_disasters_deck_holds_two_eruptions_and_the_lowest_lightnings(lightnings: int) -> None:
    state = gr.new_game(2, gr.Rules.disasters(lightnings=lightnings), seed=3).state
    base = {f"P{n:02}" for n in range(1, 24)}
    chosen = {f"P{n:02}" for n in range(24, 24 + lightnings)}
    assert powers_in_play(state) == base | chosen | {"P29", "P30"}
    left_out = {f"P{n:02}" for n in range(24 + lightnings, 29)}
    assert left_out <= set(state.out_of_game)


@pytest.mark.clause("14.1", "13.1")
def test_the_powers_level_has_no_lightning_and_no_eruption() -> None:
    state = gr.new_game(2, POWERS, seed=3).state
    assert powers_in_play(state) == {f"P{n:02}" for n in range(1, 24)}
    assert {f"P{n:02}" for n in range(24, 31)} <= set(state.out_of_game)


# -- 14.2 Lightning -------------------------------------------------------------------------------


@pytest.mark.clause("14.2", "13.3", "10.3", "12.2")
def test_power_example_b_a_lightning_discards_a_city_whose_tile_raises_another() -> None:
    # Seat 0's Troy on the forest (0, 0) meets plain (1, 0) and sea (-1, 0). Seat 1's Rome on
    # the plain (0, 1) meets mountain (1, 1) and swamp (-1, 1); it needs the covered forest.
    game = (
        board(players=3, rules=DISASTERS)
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(-1, 0, Land.SEA)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.MOUNTAIN)
        .tile(-1, 1, Land.SWAMP)
        .city(0, 0, "C12", pawns=[0])
        .city(0, 1, "C05", pawns=[1])
        .hand(2, "P24")
        .turn(2, 1)
        .to_game()
    )
    squares = [(0, 0), (1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1)]
    assert plays(game, "P24") == {gr.PlayLightning(2, "P24", Pos(*s)) for s in squares}
    events = play(game, gr.PlayLightning(2, "P24", Pos(0, 0)))
    assert gr.CityDiscarded("C12", Pos(0, 0)) in events
    assert gr.PawnReturned(0, Pos(0, 0)) in events
    assert gr.SatisfactionChanged(Pos(0, 1), 2, 3) in events
    assert gr.CityTaken(2, Pos(0, 1), 1) in events
    assert gr.PawnPlaced(2, Pos(0, 1)) in events
    state = game.state
    assert state.tiles[Pos(0, 0)] is Land.FOREST  # the tile itself stays
    assert Pos(0, 0) not in state.cities
    assert state.discards[CardKind.LIFE][-1] == "C12"
    assert state.cities[Pos(0, 1)] == gr.CityState("C05", (2,), 3)
    assert state.supply == (5, 5, 4)


@pytest.mark.clause("14.2", "10.3")
def test_a_lightning_returns_the_tokens_of_its_tile_to_the_bank() -> None:
    # Seat 1's Nineveh on (0, 0) meets the sea with tokens (1, 0) (sea, animals) and the plain
    # (0, 1): 3 needs. The tokens go: 3 -> 2, and seat 1 keeps his pawn.
    game = (
        board(rules=DISASTERS)
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.SEA, animals=3)
        .tile(0, 1, Land.PLAIN)
        .city(0, 0, "C17", pawns=[1])
        .hand(0, "P24")
        .turn(0, 1)
        .to_game()
    )
    bank = game.state.bank
    events = play(game, gr.PlayLightning(0, "P24", Pos(1, 0)))
    assert gr.TokensReturned(Pos(1, 0), 3) in events
    assert gr.SatisfactionChanged(Pos(0, 0), 3, 2) in events
    state = game.state
    assert state.bank == bank + 3
    assert state.animals == {}
    assert state.tiles[Pos(1, 0)] is Land.SEA
    assert state.cities[Pos(0, 0)] == gr.CityState("C17", (1,), 2)


@pytest.mark.clause("14.2")
def test_a_lightning_is_refused_where_there_is_no_tile() -> None:
    game = board(rules=DISASTERS).tile(0, 0, Land.SEA).hand(0, "P24").turn(0, 1).to_game()
    assert plays(game, "P24") == {gr.PlayLightning(0, "P24", Pos(0, 0))}
    for x, y in ((1, 0), (0, -1), (7, 7)):
        assert refused(game, gr.PlayLightning(0, "P24", Pos(x, y))) == "14.2"


# -- 14.3 Eruption --------------------------------------------------------------------------------


@pytest.mark.clause("14.3", "14.3a", "14.3b", "14.3c", "13.6", "12.2")
def test_an_eruption_clears_the_mountain_and_its_neighbours_and_scorches_them() -> None:
    # The example of 14.3c. Seat 1's Rome on the plain (1, 0) meets the mountain and the swamp
    # (1, 1). Seat 3's Lhasa on the mountain (2, 0) meets forest (3, 0) and swamp (2, 1). The
    # plain (-1, 1) with a token and the swamp (1, 1) touch the mountain at a corner only.
    game = (
        board(players=4, rules=DISASTERS)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.FOREST, animals=2)
        .tile(-1, 0, Land.SEA)
        .tile(1, 1, Land.SWAMP)
        .tile(-1, 1, Land.PLAIN, animals=1)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(3, 0, Land.FOREST)
        .tile(2, 1, Land.SWAMP)
        .city(1, 0, "C05", pawns=[1])
        .city(2, 0, "C11", pawns=[3])
        .hand(2, "P29")
        .turn(2, 1)
        .to_game()
    )
    assert plays(game, "P29") == {
        gr.PlayEruption(2, "P29", Pos(0, 0)),
        gr.PlayEruption(2, "P29", Pos(2, 0)),
    }
    before = game.state
    events = play(game, gr.PlayEruption(2, "P29", Pos(0, 0)))
    assert gr.CityDiscarded("C05", Pos(1, 0)) in events
    assert gr.PawnReturned(1, Pos(1, 0)) in events
    assert gr.TokensReturned(Pos(0, 1), 2) in events
    assert {e for e in events if isinstance(e, gr.TileReplaced)} == {
        gr.TileReplaced(Pos(1, 0), Land.PLAIN, Land.DESERT),
        gr.TileReplaced(Pos(0, 1), Land.FOREST, Land.DESERT),
    }
    # Lhasa meets the uncovered desert: 2 -> 3, credited to seat 2, who steals it.
    assert gr.SatisfactionChanged(Pos(2, 0), 2, 3) in events
    assert gr.CityTaken(2, Pos(2, 0), 3) in events
    state = game.state
    assert state.tiles[Pos(0, 0)] is Land.MOUNTAIN
    assert state.tiles[Pos(-1, 0)] is Land.SEA
    assert state.tiles[Pos(1, 1)] is Land.SWAMP
    assert state.tiles[Pos(-1, 1)] is Land.PLAIN
    assert state.animals == {Pos(-1, 1): 1}
    assert state.cities == {Pos(2, 0): gr.CityState("C11", (2,), 3)}
    assert supply_change(before, state) == {Land.DESERT: -2, Land.PLAIN: 1, Land.FOREST: 1}
    assert state.bank == before.bank + 2
    assert state.supply == (5, 5, 4, 5)


@pytest.mark.clause("14.3b", "14.3c", "14.3a")
def test_an_eruption_clears_tokens_but_leaves_seas_deserts_and_mountains_their_land() -> None:
    game = (
        board(rules=DISASTERS)
        .tile(0, 0, Land.MOUNTAIN, animals=1)
        .tile(1, 0, Land.DESERT, animals=2)
        .tile(-1, 0, Land.MOUNTAIN, animals=1)
        .tile(0, 1, Land.SEA, animals=3)
        .tile(0, -1, Land.SWAMP, animals=1)
        .hand(0, "P30")
        .turn(0, 1)
        .to_game()
    )
    before = game.state
    assert plays(game, "P30") == {
        gr.PlayEruption(0, "P30", Pos(0, 0)),
        gr.PlayEruption(0, "P30", Pos(-1, 0)),
    }
    events = play(game, gr.PlayEruption(0, "P30", Pos(0, 0)))
    assert [e for e in events if isinstance(e, gr.TileReplaced)] == [
        gr.TileReplaced(Pos(0, -1), Land.SWAMP, Land.DESERT)
    ]
    state = game.state
    assert state.tiles == {
        Pos(0, 0): Land.MOUNTAIN,
        Pos(1, 0): Land.DESERT,
        Pos(-1, 0): Land.MOUNTAIN,
        Pos(0, 1): Land.SEA,
        Pos(0, -1): Land.DESERT,
    }
    assert state.animals == {}
    assert state.bank == before.bank + 8


@pytest.mark.clause("14.3a")
def test_an_eruption_is_refused_where_there_is_no_mountain() -> None:
    game = (
        board(rules=DISASTERS)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .hand(0, "P29")
        .turn(0, 1)
        .to_game()
    )
    assert plays(game, "P29") == {gr.PlayEruption(0, "P29", Pos(0, 0))}
    for x, y in ((1, 0), (0, 1), (0, -1), (5, 5)):
        assert refused(game, gr.PlayEruption(0, "P29", Pos(x, y))) == "14.3a", (x, y)


@pytest.mark.clause("14.3d")
def test_an_eruption_needs_a_desert_in_supply_for_every_tile_it_replaces() -> None:
    # All ten deserts in play: the mountain (0, 1), next to a plain, cannot erupt; the
    # mountain (5, 1), with nothing to replace, can.
    builder = board(rules=DISASTERS)
    for x in range(10):
        builder.tile(x, 0, Land.DESERT)
    game = (
        builder.tile(0, 1, Land.MOUNTAIN)
        .tile(0, 2, Land.PLAIN)
        .tile(5, 1, Land.MOUNTAIN)
        .hand(0, "P29")
        .turn(0, 1)
        .to_game()
    )
    assert plays(game, "P29") == {gr.PlayEruption(0, "P29", Pos(5, 1))}
    assert refused(game, gr.PlayEruption(0, "P29", Pos(0, 1))) == "14.3d"
    play(game, gr.PlayEruption(0, "P29", Pos(5, 1)))
    assert game.state.tile_supply[Land.DESERT] == 0


@pytest.mark.clause("14.3d", "14.3c")
def test_an_eruption_with_exactly_enough_deserts_is_played_and_uses_them_all() -> None:
    builder = board(rules=DISASTERS)
    for x in range(1, 9):
        builder.tile(-x, 0, Land.DESERT)
    game = (
        builder.tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.FOREST)
        .hand(0, "P29")
        .turn(0, 1)
        .to_game()
    )
    assert game.state.tile_supply[Land.DESERT] == 2
    assert plays(game, "P29") == {gr.PlayEruption(0, "P29", Pos(0, 0))}
    play(game, gr.PlayEruption(0, "P29", Pos(0, 0)))
    state = game.state
    assert state.tile_supply[Land.DESERT] == 0
    assert state.tiles[Pos(1, 0)] is Land.DESERT and state.tiles[Pos(0, 1)] is Land.DESERT


def lhasa_on_a_mountain(rules: gr.Rules) -> gr.Game:
    """Seat 1's Lhasa on the mountain (0, 0) meets the desert (1, 0) and the forest (0, 1)."""
    return (
        board(rules=rules)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .city(0, 0, "C11", pawns=[1])
        .hand(0, "P29")
        .turn(0, 1)
        .to_game()
    )


@pytest.mark.clause("14.3a")
def test_without_eruption_on_city_a_mountain_under_a_city_cannot_erupt() -> None:
    game = lhasa_on_a_mountain(gr.Rules.disasters(eruption_on_city=False))
    assert plays(game, "P29") == set()
    assert refused(game, gr.PlayEruption(0, "P29", Pos(0, 0))) == "14.3a"


@pytest.mark.clause("14.3a", "14.3c")
def test_with_eruption_on_city_the_city_on_the_mountain_is_destroyed() -> None:
    game = lhasa_on_a_mountain(DISASTERS)
    assert plays(game, "P29") == {gr.PlayEruption(0, "P29", Pos(0, 0))}
    events = play(game, gr.PlayEruption(0, "P29", Pos(0, 0)))
    assert gr.CityDiscarded("C11", Pos(0, 0)) in events
    assert gr.PawnReturned(1, Pos(0, 0)) in events
    state = game.state
    assert state.cities == {}
    assert state.discards[CardKind.LIFE][-1] == "C11"
    assert state.tiles == {
        Pos(0, 0): Land.MOUNTAIN,
        Pos(1, 0): Land.DESERT,
        Pos(0, 1): Land.DESERT,
    }
    assert state.supply == (6, 6)


@pytest.mark.clause("14.3c", "10.2", "10.1")
def test_the_whole_eruption_is_one_change_an_uncovered_plain_turned_desert_raises_nothing() -> None:
    # Seat 1's Rome on the plain (1, 0) meets the mountain (0, 0) and the forest (1, 1). Seat
    # 1's Sparta on the mountain (2, 0) meets swamp (3, 0) and sea (2, 1); it needs a plain, not
    # a desert. The eruption discards Rome and turns its plain into a desert in one change:
    # Sparta stays at 2. Clearing and replacing as two changes would let seat 0 steal it.
    game = (
        board(rules=DISASTERS)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(1, 1, Land.FOREST)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(3, 0, Land.SWAMP)
        .tile(2, 1, Land.SEA)
        .city(1, 0, "C05", pawns=[1])
        .city(2, 0, "C10", pawns=[1])
        .hand(0, "P29")
        .turn(0, 1)
        .to_game()
    )
    events = play(game, gr.PlayEruption(0, "P29", Pos(0, 0)))
    assert gr.CityDiscarded("C05", Pos(1, 0)) in events
    assert not [e for e in events if isinstance(e, gr.CityTaken | gr.PawnPlaced)]
    assert not [e for e in events if isinstance(e, gr.SatisfactionChanged) and e.pos == Pos(2, 0)]
    state = game.state
    assert state.tiles[Pos(1, 0)] is Land.DESERT
    assert state.cities == {Pos(2, 0): gr.CityState("C10", (1,), 2)}
    assert state.supply == (6, 5)
