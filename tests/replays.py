"""Games the replay tests watch again: one that starts from a position (``GameRecord.start``),
so that a replay must rebuild the table from the position, not from a new deal; and one dealt
from a seed no JavaScript number holds, so that a page that parses its record replays another
game."""

from __future__ import annotations

import random

import gaia_rules as gr

BIG_SEED = 2**62 + 12345
"""4611686018427400249: above 2**53, so a double rounds it."""


def played_on(game: gr.Game, moves: int, seed: int) -> gr.Game:
    """``game`` after up to ``moves`` more random legal moves, drawn from ``seed``."""
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(list(game.legal_actions())))
    return game


def a_game_of_a_big_seed() -> gr.Game:
    """Eight moves of a 2-player basic game dealt from :data:`BIG_SEED`."""
    assert float(BIG_SEED) != BIG_SEED
    return played_on(gr.new_game(2, gr.Rules.basic(), BIG_SEED), 8, 5)


def an_eruption_from_a_position() -> gr.Game:
    """Two seats at the disasters level; seat 0 has just erupted the mountain beside Seat 1's
    city C04 (one pawn), which the Eruption destroys."""
    position = (
        gr.PositionBuilder(players=2, rules=gr.Rules.disasters())
        .tile(0, 0, gr.Land.MOUNTAIN)
        .tile(1, 0, gr.Land.PLAIN)
        .tile(2, 0, gr.Land.SEA)
        .tile(1, 1, gr.Land.FOREST)
        .city(1, 0, "C04", pawns=[1])
        .hand(0, "P29", "N01")
        .hand(1, "N02")
        .turn(0, 1)
        .build()
    )
    game = position.to_game()
    game.apply(gr.PlayEruption(0, "P29", gr.Pos(0, 0)))
    return game
