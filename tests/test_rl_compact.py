"""The compact interface of the ``rl`` wing: action indices decoded and encoded as arrays,
and the observation of the world as planes over the occupied box."""

from __future__ import annotations

import random

import attrs
import pytest

pytest.importorskip("numpy")

import numpy as np

import gaia_rules as gr
from gaia_rules.determinize import determinize
from gaia_rules.rl.codec import KINDS, SQUARE_XY, decode, encode, square_numbers
from gaia_rules.rl.encoding import (
    ACTION_COUNT,
    BLOCKS,
    SQUARES,
    EncodingError,
    action_space,
    square_index,
)
from gaia_rules.rl.planes import (
    CHANNELS,
    COLUMNS,
    EXPANDED_CHANNELS,
    PLANES_SIZE,
    ROWS,
    cells,
    city_needs,
    expand,
    planes_observation,
    split,
)

LEVELS = ("basic", "advanced", "powers", "disasters")


def _states(players: tuple[int, ...] = (2, 3, 4, 5)) -> list[tuple[gr.Game, gr.View]]:
    """The game and the view of the seat to move at every decision of one random game per
    level and player count."""
    found = []
    for level in LEVELS:
        for count in players:
            game = gr.new_game(count, getattr(gr.Rules, level)(), seed=count + 10)
            rng = random.Random(count)
            while not game.is_over:
                seat = game.to_move
                assert seat is not None
                found.append((game.copy(), game.view(seat)))
                game.apply(rng.choice(game.legal_actions()))
    return found


STATES = _states()


def test_decode_and_encode_are_inverse_over_the_whole_space() -> None:
    every = np.arange(ACTION_COUNT)
    parts = decode(every)
    assert np.array_equal(encode(*parts), every)
    assert [KINDS[k] for k in parts.kind[[b.start for b in BLOCKS]]] == [b.name for b in BLOCKS]
    xy = SQUARE_XY.astype(np.int64)
    assert np.array_equal(square_numbers(xy[:, 0], xy[:, 1]), np.arange(SQUARES))
    assert square_numbers(48, 0) == -1 and square_numbers(-24, 24) == -1


def test_the_parts_are_what_the_action_names() -> None:
    checked = 0
    for game, view in STATES[::3]:
        space = action_space(view.rules)
        by_index = space.legal(game.legal_actions(), view.players, view.stolen)
        indices = np.fromiter(by_index, dtype=np.int64)
        parts = decode(indices)
        for i, index in enumerate(indices):
            action = by_index[int(index)]
            assert KINDS[parts.kind[i]] == type(action).__name__
            card = getattr(action, "card", None)
            if card is not None:
                assert parts.face[i] == space.card_class[card]
            pos = next(
                (getattr(action, n) for n in ("pos", "city", "first") if hasattr(action, n)),
                None,
            )
            assert parts.square[i] == (-1 if pos is None else square_index(pos))
            if isinstance(action, gr.NameBack):
                assert parts.seat[i] == (action.victim - action.player) % view.players
                assert parts.detail[i] == list(gr.CardKind).index(action.kind)
            if isinstance(action, gr.Feed):
                step = (action.source.x - action.city.x, action.source.y - action.city.y)
                assert parts.detail[i] == [(0, -1), (1, 0), (0, 1), (-1, 0)].index(step)
            checked += 1
    assert checked > 2000


def test_encode_refuses_parts_that_name_no_index() -> None:
    assert encode("PlayNature", face=3, square=5) == BLOCKS[10].start + 3 * SQUARES + 5
    assert list(encode(["DrawDeck", "NameBack"], detail=[1, 2], seat=[0, 2])) == [40, 99]
    for kind, parts in [
        ("PlayNature", {"face": 7, "square": 3}),  # a City card's class, not a land's
        ("PlayNature", {"face": 2}),  # no square
        ("DrawDeck", {"detail": 3}),  # three backs
        ("Feed", {"square": 0, "detail": 1, "face": 4}),  # feeding names no card
        ("NameBack", {"seat": 0, "detail": 0}),  # the victim is another seat
    ]:
        with pytest.raises(EncodingError, match="no action index has"):
            encode(kind, **parts)
    with pytest.raises(EncodingError, match="no kind of action 'Pass'"):
        encode("Pass")
    with pytest.raises(EncodingError, match="no action index -1"):
        decode([0, -1])
    with pytest.raises(EncodingError, match=f"no action index {ACTION_COUNT}"):
        decode(ACTION_COUNT)


def test_the_compact_observation_is_at_most_20_kb() -> None:
    assert PLANES_SIZE == len(CHANNELS) * ROWS * COLUMNS + 5 + 698 <= 20_000
    _, view = STATES[-1]
    assert planes_observation(view).nbytes == PLANES_SIZE


def test_the_planes_show_the_world_of_the_view() -> None:
    for game, view in STATES[::25]:
        seen = planes_observation(view)
        planes, header, features = split(seen)
        x0, y0, transposed, rows, columns = (int(v) for v in header)
        xs = [p.x for p in view.tiles] or [0]
        ys = [p.y for p in view.tiles] or [0]
        assert (x0, y0) == (min(xs) - 1, min(ys) - 1)
        width, height = max(xs) - min(xs) + 3, max(ys) - min(ys) + 3
        assert transposed == (height > width)
        assert (rows, columns) == ((width, height) if transposed else (height, width))
        squares = square_numbers([p.x for p in view.tiles], [p.y for p in view.tiles])
        r, c = cells(header, squares)
        lands = [list(gr.LANDS).index(land) + 1 for land in view.tiles.values()]
        assert list(planes[0][r, c]) == lands
        assert int((planes[0] > 0).sum()) == len(view.tiles)
        assert int(planes[1].sum()) == sum(view.animals.values())
        assert int((planes[2] > 0).sum()) == len(view.cities)
        for pos, city in view.cities.items():
            (row,), (column,) = cells(header, [square_index(pos)])
            assert planes[3, row, column] == city.satisfaction
            for k in range(view.players):
                seat = (view.seat + k) % view.players
                assert planes[4 + k, row, column] == city.pawns.count(seat)
        assert not planes[:, rows:, :].any() and not planes[:, :, columns:].any()
        assert features.size == 698
        assert game.view(view.seat) == view


@pytest.mark.clause("1.5")
def test_the_compact_observation_does_not_change_when_hidden_cards_are_dealt_again() -> None:
    differed = 0
    for game, view in STATES[::40]:
        seen = planes_observation(view)
        for sample in range(2):
            other = determinize(view, random.Random(sample))
            differed += other.state.hands != game.state.hands
            assert np.array_equal(planes_observation(other.view(view.seat)), seen)
    assert differed > 0


def test_every_square_a_legal_action_names_is_on_the_canvas() -> None:
    named = 0
    for game, view in STATES[::2]:
        space = action_space(view.rules)
        indices = np.fromiter(
            space.legal(game.legal_actions(), view.players, view.stolen), dtype=np.int64
        )
        squares = decode(indices).square
        squares = squares[squares >= 0]
        header = split(planes_observation(view)).header
        r, c = cells(header, squares)
        assert (r >= 0).all() and (c >= 0).all()
        assert (r < header[3]).all() and (c < header[4]).all()
        named += squares.size
    assert named > 1000


def test_a_line_of_48_tiles_fits_transposed_and_a_looser_world_is_refused() -> None:
    supply = gr.new_game(2, gr.Rules.basic(), seed=0).state.tile_supply
    box = [land for land, count in supply.items() for _ in range(count)]
    assert len(box) == 48
    line = gr.PositionBuilder(players=2)
    for y, land in enumerate(box):
        line = line.tile(0, y - 20, land)
    view = line.build().to_game().view(0)
    _, header, _ = split(planes_observation(view))
    assert list(header) == [-1, -21, 1, 3, 50]
    # a position refuses tiles that do not touch (spec 16); a view made by hand may hold them
    apart = attrs.evolve(view, tiles={gr.Pos(0, 0): gr.Land.SEA, gr.Pos(30, 30): gr.Land.SEA})
    with pytest.raises(EncodingError, match="does not fit"):
        planes_observation(apart)


def test_expand_spells_out_lands_and_city_needs() -> None:
    game, view = next((g, v) for g, v in reversed(STATES) if len(v.cities) >= 2)
    planes = split(planes_observation(view)).planes
    wide = expand(planes[None], view.rules)[0]
    assert wide.shape == (len(EXPANDED_CHANNELS), ROWS, COLUMNS) and wide.dtype == np.float32
    assert wide[:6].sum() == len(view.tiles)
    needs = city_needs(view.rules)
    assert not needs[0].any()
    for pos, city in view.cities.items():
        (row,), (column,) = cells(split(planes_observation(view)).header, [square_index(pos)])
        face = view.rules.cards.face(city.card)
        assert isinstance(face, gr.CityCard)
        assert wide[7:14, row, column].sum() == len(face.needs)
    assert game.is_over or game.to_move is not None
