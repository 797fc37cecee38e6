"""The end of the game: the immediate win, the exhaustion end and its tie-break (spec 15)."""

from __future__ import annotations

from gaia_rules.events import EndReason, GameEnded, Result
from gaia_rules.table import Table

__all__ = ["end_by_exhaustion", "win_if_supply_empty"]


def win_if_supply_empty(table: Table, player: int) -> bool:
    """A player whose supply is empty wins at once; the rest of the turn lapses (spec 15.1)."""
    if table.result is not None or table.supply[player] > 0:
        return table.result is not None
    _finish(table, player, EndReason.ALL_PAWNS_PLACED, ended_by=player)
    return True


def end_by_exhaustion(table: Table, ender: int) -> None:
    """``ender`` chose to draw from an exhausted kind (spec 15.2).

    The most pawns placed wins (15.3); among tied players the first in seat order after
    the ender wins, the ender counting last (15.4).
    """
    placed = [table.pawns_placed(p) for p in range(table.players)]
    best = max(placed)
    order = [(ender + step) % table.players for step in range(1, table.players + 1)]
    winner = next(p for p in order if placed[p] == best)
    _finish(table, winner, EndReason.EXHAUSTION, ended_by=ender)


def _finish(table: Table, winner: int, reason: EndReason, ended_by: int) -> None:
    placed = tuple(table.pawns_placed(p) for p in range(table.players))
    table.result = Result(winner=winner, reason=reason, pawns_placed=placed, ended_by=ended_by)
    table.steps.clear()
    table.emit(GameEnded(table.result))
