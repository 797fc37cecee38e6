"""What the engine keeps about the world between decisions is checked against the world.

The free tiles, the needs they offer, the open squares, the squares holding tiles and the
adjacent pairs are kept while the world stands and patched square by square when it changes
(3.1, 3.3, 3.5, 7.2, 13.7). ``gaia_rules.invariants.violations`` compares every kept value
with the world; these tests show that comparison catches each kind of wrong bookkeeping, so
that the soak runs and the invariant sweeps, which find none, mean something.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

import gaia_rules as gr
from gaia_rules import life, nature, powers, world
from gaia_rules.invariants import violations
from gaia_rules.table import WorldMemo


def _fill(game: gr.Game) -> None:
    """Ask for every value the engine keeps about the world, so that each is kept."""
    table = game._table
    nature.nature_options(table, 0)
    world.tile_squares(table)
    powers.adjacent_pairs(table)
    for card in table.cards.ids(gr.CityCard):
        life._squares_for(table, table.cards.city(card))
    game.view(0)  # the tiles and animals as views show them


def _mid_game(seed: int = 3) -> gr.Game:
    """A powers game some way in, with every kept value of its world filled in."""
    game = gr.new_game(4, gr.Rules.powers(), seed=seed)
    rng = random.Random(seed)
    while len(game.state.tiles) < 12:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    _fill(game)
    return game


def _memo(game: gr.Game) -> WorldMemo:
    memo = game._table.memo
    assert memo is not None
    return memo


def test_a_mid_game_keeps_every_value_and_all_agree_with_the_world() -> None:
    game = _mid_game()
    memo = _memo(game)
    assert memo.open and memo.tile_squares and memo.pairs and memo.offered
    assert memo.view_tiles and memo.view_animals is not None and memo.view_cities
    assert memo.free and any(memo.free.values())
    assert violations(game) == []


def _drop_an_open_square(memo: WorldMemo) -> None:
    assert memo.open is not None
    memo.open = memo.open[1:]


def _miscount_the_tiles(memo: WorldMemo) -> None:
    memo.tile_count += 1


def _drop_a_tile_square(memo: WorldMemo) -> None:
    assert memo.tile_squares is not None
    memo.tile_squares = memo.tile_squares[1:]


def _drop_a_pair(memo: WorldMemo) -> None:
    assert memo.pairs is not None
    memo.pairs = memo.pairs[1:]


def _swap_two_pairs(memo: WorldMemo) -> None:
    assert memo.pairs is not None
    memo.pairs = [memo.pairs[1], memo.pairs[0], *memo.pairs[2:]]


def _a_free_tile(memo: WorldMemo) -> tuple[gr.Land, gr.Pos]:
    assert memo.free is not None
    return next((land, pos) for land, squares in memo.free.items() for pos in squares)


def _change_a_free_land(memo: WorldMemo) -> None:
    land, pos = _a_free_tile(memo)
    other = gr.Land.SEA if land is not gr.Land.SEA else gr.Land.PLAIN
    assert memo.free is not None
    memo.free = {**memo.free, land: memo.free[land] - {pos}, other: memo.free[other] | {pos}}


def _drop_a_free_tile(memo: WorldMemo) -> None:
    land, pos = _a_free_tile(memo)
    assert memo.free is not None
    memo.free = {**memo.free, land: memo.free[land] - {pos}}


def _flip_an_offered_need(memo: WorldMemo) -> None:
    pos, bits = next(iter(memo.offered.items()))
    memo.offered = {**memo.offered, pos: bits ^ 1}


def _offer_on_a_square_that_is_not_free(memo: WorldMemo) -> None:
    memo.offered = {**memo.offered, gr.Pos(1000, 1000): 0}


def _reorder_the_view_tiles(memo: WorldMemo) -> None:
    assert memo.view_tiles is not None
    memo.view_tiles = dict(reversed(memo.view_tiles.items()))


def _change_a_view_tile(memo: WorldMemo) -> None:
    assert memo.view_tiles is not None
    pos, land = next(iter(memo.view_tiles.items()))
    other = next(other for other in gr.Land if other is not land)
    memo.view_tiles = {**memo.view_tiles, pos: other}


def _drop_a_view_animal(memo: WorldMemo) -> None:
    memo.view_animals = {}


def _raise_a_view_city(memo: WorldMemo) -> None:
    assert memo.view_cities is not None
    pawns, cities = memo.view_cities
    pos, city = next(iter(cities.items()))
    raised = attrs.evolve(city, satisfaction=city.satisfaction % 4 + 1)
    memo.view_cities = (pawns, {**cities, pos: raised})


@pytest.mark.parametrize(
    ("corrupt", "clause"),
    [
        (_drop_an_open_square, "7.2"),
        (_miscount_the_tiles, "3.1"),
        (_drop_a_tile_square, "3.1"),
        (_drop_a_pair, "13.7"),
        (_swap_two_pairs, "13.7"),
        (_change_a_free_land, "3.3"),
        (_drop_a_free_tile, "3.3"),
        (_flip_an_offered_need, "3.5"),
        (_offer_on_a_square_that_is_not_free, "3.5"),
        (_reorder_the_view_tiles, "3.1"),
        (_change_a_view_tile, "3.1"),
        (_raise_a_view_city, "3.6"),
        (_drop_a_view_animal, "3.1"),
    ],
)
def test_wrong_bookkeeping_is_reported_with_its_clause(
    corrupt: Callable[[WorldMemo], None], clause: str
) -> None:
    game = _mid_game()
    corrupt(_memo(game))
    found = violations(game)
    assert found, "the corrupted memo went unnoticed"
    assert any(v.startswith(f"{clause}:") for v in found), found


def test_a_copy_changing_its_world_leaves_the_memo_it_shared_untouched() -> None:
    game = _mid_game()
    before = _memo(game)
    kept = (list(before.open or ()), dict(before.free or {}), dict(before.offered))
    other = game.copy()
    rng = random.Random(5)
    for _ in range(30):
        if other.is_over:
            break
        actions = other.legal_actions()
        other.apply(actions[rng.randrange(len(actions))])
    assert _memo(game) is before
    assert (list(before.open or ()), dict(before.free or {}), dict(before.offered)) == kept
    assert violations(game) == []
    assert violations(other) == []


@pytest.mark.parametrize("level", ["basic", "advanced", "powers", "disasters"])
@pytest.mark.parametrize("seed", range(3))
def test_every_kept_value_patched_through_a_whole_game_agrees_with_the_world(
    level: str, seed: int
) -> None:
    # Every value is asked for before every decision, so every change of the world patches
    # all of them (where a playout would patch only those its decisions asked for).
    game = gr.new_game(3, getattr(gr.Rules, level)(), seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        _fill(game)
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        assert violations(game) == [], (level, seed, game.actions[-1])
