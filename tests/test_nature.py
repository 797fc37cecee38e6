"""Nature cards and tile placement (spec 7), on the square grid (spec 3.1, 3.2)."""

from __future__ import annotations

import random

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder


def squares_offered(game: gr.Game, card: str) -> set[Pos]:
    return {a.pos for a in game.legal_actions() if isinstance(a, gr.PlayNature) and a.card == card}


@pytest.mark.clause("7.2", "3.1")
def test_the_first_tile_goes_at_the_origin_whoever_plays_it() -> None:
    game = PositionBuilder(players=3).hand(2, "N20").turn(2, action=1).to_game()
    assert squares_offered(game, "N20") == {Pos(0, 0)}
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.PlayNature(2, "N20", Pos(1, 0)))
    assert refused.value.clause == "7.2"
    game.apply(gr.PlayNature(2, "N20", Pos(0, 0)))
    assert game.state.tiles == {Pos(0, 0): Land.SEA}


@pytest.mark.clause("7.2", "3.1", "3.2")
def test_a_tile_goes_on_any_empty_square_edge_adjacent_to_the_world() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(1, 1, Land.SEA)
        .hand(0, "N01")
        .turn(0, action=1)
        .to_game()
    )
    frontier = {Pos(0, -1), Pos(1, -1), Pos(2, 0), Pos(-1, 0), Pos(0, 1), Pos(2, 1), Pos(1, 2)}
    assert squares_offered(game, "N01") == frontier
    for square in (Pos(-1, -1), Pos(2, 2), Pos(1, 1), Pos(5, 5)):  # diagonal, taken, far
        with pytest.raises(gr.IllegalActionError) as refused:
            game.apply(gr.PlayNature(0, "N01", square))
        assert refused.value.clause == "7.2"


@pytest.mark.clause("7.2")
def test_the_world_may_have_holes_and_grows_without_limit() -> None:
    builder = PositionBuilder(players=2)
    ring = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
    for x, y in ring:
        builder.tile(x, y, Land.FOREST)
    game = builder.hand(0, "N27").turn(0, action=1).to_game()
    offered = squares_offered(game, "N27")
    assert Pos(1, 1) in offered  # the hole
    assert Pos(3, 0) in offered


@pytest.mark.clause("7.1")
def test_no_tile_of_its_land_left_means_the_nature_card_is_not_playable() -> None:
    builder = PositionBuilder(players=2)
    for x in range(5):  # all 5 swamp tiles? the box has 7: place all 7
        builder.tile(x, 0, Land.SWAMP)
    builder.tile(5, 0, Land.SWAMP).tile(6, 0, Land.SWAMP)
    game = builder.hand(0, "N15", "N07").turn(0, action=1).to_game()
    assert game.state.tile_supply[Land.SWAMP] == 0
    assert not squares_offered(game, "N15")
    assert squares_offered(game, "N07")
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.PlayNature(0, "N15", Pos(0, 1)))
    assert refused.value.clause == "7.1"


@pytest.mark.clause("7.3", "7.4")
def test_the_card_goes_in_front_and_the_tile_leaves_the_supply() -> None:
    game = PositionBuilder(players=2).tile(0, 0, Land.PLAIN).hand(0, "N33").turn(0, 1).to_game()
    events = game.apply(gr.PlayNature(0, "N33", Pos(0, 1)))
    assert events[1:3] == (gr.NatureCardPlayed(0, "N33"), gr.TilePlaced(Pos(0, 1), Land.FOREST))
    state = game.state
    assert state.tableaux[0] == ("N33",)
    assert "N33" not in state.hands[0]
    assert state.tile_supply[Land.FOREST] == 7


@pytest.mark.clause("7.1")
def test_a_card_that_is_not_nature_or_not_held_is_refused() -> None:
    game = PositionBuilder(players=2).tile(0, 0, Land.PLAIN).hand(0, "C01").turn(0, 1).to_game()
    for card, clause in (("C01", "7.1"), ("N01", "5.2")):
        with pytest.raises(gr.IllegalActionError) as refused:
            game.apply(gr.PlayNature(0, card, Pos(1, 0)))
        assert refused.value.clause == clause


X, A, B = Pos(1, 0), Pos(2, 0), Pos(1, 1)


def plain_next_to_two_cities(fulfilled: dict[str, int]) -> gr.Game:
    """Seat 0 is to play the plain N08 at X = (1, 0), whose plain is a need of two cities:
    A = Cuzco at (2, 0) (forest, plain, animals, desert), seat 1's, at 2 needs; and
    B = Thebes at (1, 1) (desert, plain, forest, swamp), empty at 1 need. In front of seat 0
    are a plain and two forests, so the plain card completes O02 (two plains, two forests)."""
    return (
        PositionBuilder(players=3)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(0, -1, Land.SEA)
        .tile(1, -1, Land.SEA)
        .tile(2, -1, Land.DESERT)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(3, 0, Land.FOREST)
        .tile(0, 1, Land.SWAMP)
        .tile(1, 1, Land.MOUNTAIN)
        .city(2, 0, "C09", pawns=[1])
        .city(1, 1, "C16")
        .tableau(0, "N07", "N33", "N34")
        .hand(0, "N08")
        .objectives("O01", "O02", "O03", "O04", "O07", fulfilled=fulfilled)
        .turn(0, 1)
        .to_game()
    )


@pytest.mark.clause("7.4", "8.3")
def test_the_tile_raises_its_cities_for_its_player_and_then_his_objectives_are_checked() -> None:
    game = plain_next_to_two_cities({})
    before = game.state
    events = game.apply(gr.PlayNature(0, "N08", X))
    state = game.state
    # the raises, both credited to seat 0, who puts his pawn beside seat 1's and on B
    assert [state.cities[p].satisfaction for p in (A, B)] == [3, 2]
    assert sorted(state.cities[A].pawns) == [0, 1]
    assert state.cities[B].pawns == (0,)
    changes = [e for e in events if isinstance(e, gr.SatisfactionChanged)]
    assert {(e.pos, e.before, e.after) for e in changes} == {(A, 2, 3), (B, 1, 2)}
    assert all(e.after > e.before for e in changes)  # no city lowered
    # then the Objective check: O02 fulfilled after every pawn of the settlement is placed
    placed = [i for i, e in enumerate(events) if isinstance(e, gr.PawnPlaced)]
    done = [i for i, e in enumerate(events) if isinstance(e, gr.ObjectiveFulfilled)]
    assert len(placed) == 2 and len(done) == 1 and max(placed) < done[0], events
    assert state.objective_pawns == {"O02": 0}
    assert state.supply[0] == before.supply[0] - 3


@pytest.mark.clause("7.4", "8.3", "15.1")
def test_a_tile_that_places_his_last_pawns_wins_before_his_objectives_are_checked() -> None:
    """Seat 0 has two pawns left and the tile raises two cities: he places both and wins at
    once; the Objective his card completes is never checked. Checked first, it would take a
    pawn and leave him one short for the cities (10.5)."""
    game = plain_next_to_two_cities({"O01": 0, "O03": 0, "O04": 0})
    assert game.state.supply[0] == 2
    game.apply(gr.PlayNature(0, "N08", X))
    assert game.result == gr.Result(0, gr.EndReason.ALL_PAWNS_PLACED, (5, 1, 0), ended_by=0)
    state = game.state
    assert "O02" not in state.objective_pawns
    assert state.tableaux[0] == ("N07", "N33", "N34", "N08")
    assert state.cities[B].pawns == (0,)


def _open_squares(tiles: set[Pos]) -> set[Pos]:
    """7.2 read plainly: (0, 0) first; then every empty square sharing an edge with a tile."""
    if not tiles:
        return {Pos(0, 0)}
    return {
        Pos(x + dx, y + dy)
        for x, y in tiles
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if Pos(x + dx, y + dy) not in tiles
    }


@pytest.mark.clause("7.2", "3.1", "3.2")
@pytest.mark.parametrize("seed", range(3))
def test_tiles_played_one_by_one_open_only_their_edge_neighbours(seed: int) -> None:
    """The world reached by playing, not built: after each tile a player puts down, a Nature
    card goes on exactly the empty squares edge-adjacent to the world, never diagonally
    beside the tile just played, whether the engine lists it or is asked to apply it. The
    squares are those of the box around the world, one square beyond it on every side."""
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=300 + seed)
    rng = random.Random(seed)
    tiles_played = 0
    while not game.is_over and tiles_played < 25:
        legal = game.legal_actions()
        natures = [a for a in legal if isinstance(a, gr.PlayNature)]
        if isinstance(game.decision, gr.ChooseAction) and natures:
            tiles = set(game.state.tiles)
            expected = _open_squares(tiles)
            xs = [p.x for p in tiles] or [0]
            ys = [p.y for p in tiles] or [0]
            box = [
                Pos(x, y)
                for x in range(min(xs) - 2, max(xs) + 3)
                for y in range(min(ys) - 2, max(ys) + 3)
            ]
            card = natures[0].card
            assert squares_offered(game, card) == expected
            probe = game.copy()
            for square in box:
                action = gr.PlayNature(natures[0].player, card, square)
                if square in expected:
                    assert game.is_legal(action), square
                    continue
                assert not game.is_legal(action), square
                with pytest.raises(gr.IllegalActionError) as refused:
                    probe.apply(action)
                assert refused.value.clause == "7.2"
            game.apply(rng.choice(natures))
            tiles_played += 1
        else:
            game.apply(rng.choice(legal))
    assert tiles_played >= 15  # a world of many shapes, whichever seed ends the game first
