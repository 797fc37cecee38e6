"""A game the replay tests watch again: it starts from a position (``GameRecord.start``), so a
replay must rebuild the table from the position, not from a new deal."""

from __future__ import annotations

import gaia_rules as gr


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
