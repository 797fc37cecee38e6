"""Playing a Nature card: its tile goes into the world (spec 7)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from gaia_rules import constructors
from gaia_rules.actions import PlayNature
from gaia_rules.cards import CardId, NatureCard
from gaia_rules.copies import distinct
from gaia_rules.legal import Part
from gaia_rules.objectives import check_objectives
from gaia_rules.refusal import Refusal
from gaia_rules.satisfaction import settle
from gaia_rules.table import Table
from gaia_rules.vocabulary import Pos
from gaia_rules.world import ORIGIN, neighbours

__all__ = ["nature_options", "open_squares", "play_nature", "refuse_nature"]


def open_squares(table: Table) -> Iterable[Pos]:
    """Where a tile may go: (0, 0) for the first tile, then any frontier square (spec 7.2)."""
    return table.frontier if table.tiles else (ORIGIN,)


def nature_options(table: Table, player: int, hand: tuple[CardId, ...] | None = None) -> list[Part]:
    """Every Nature play: each card whose land is still in the tile supply, on each open
    square (spec 7.1, 7.2), as parts of the lazy legal actions. ``hand`` is the player's
    hand one card per face (`distinct`), when the caller has it already."""
    memo = table.world_memo()
    if memo.open is None:
        memo.open = sorted(open_squares(table))
    parts: list[Part] = []
    if hand is None:  # 1.12: one choice per face, the copy in the hand longest (1.13)
        hand = distinct(table.hands[player], table.cards.face_ids)
    # Hot path: the manifest's own dict of lands (`Manifest.land` without the call)
    lands, supply = table.cards._lands, table.tile_supply
    for card in hand:
        land = lands.get(card)
        if land is not None and supply[land] > 0:
            parts.append((partial(constructors.play_nature, player, card), memo.open))
    return parts


def refuse_nature(table: Table, action: PlayNature) -> Refusal | None:
    """Why a Nature play is not legal now, or ``None`` (spec 7.1, 7.2)."""
    if action.card not in table.hands[action.player]:
        return Refusal("5.2", f"{action.card!r} is not in the hand of seat {action.player}")
    face = table.cards.face(action.card)
    if not isinstance(face, NatureCard):
        return Refusal("7.1", f"{action.card} is not a Nature card")
    if table.tile_supply[face.land] == 0:
        return Refusal("7.1", f"no {face.land.value} tile is left in the tile supply")
    if not isinstance(action.pos, Pos) or action.pos not in open_squares(table):
        where = (
            "the first tile goes at (0, 0)"
            if not table.tiles
            else ("a tile goes on an empty square edge-adjacent to a tile in play")
        )
        return Refusal("7.2", f"{action.pos} is not open: {where}")
    return None


def play_nature(table: Table, action: PlayNature) -> None:
    """The card goes in front, its tile on the square; settle; then check Objectives (7.2-7.4)."""
    player, card, pos = action.player, action.card, action.pos
    face = table.cards._faces[card]  # the manifest's own dict (`Manifest.face` without the call)
    assert isinstance(face, NatureCard)
    hand = list(table.hands[player])
    hand.remove(card)
    table.hands[player] = tuple(hand)
    table.put_in_front(player, card)
    table.emit(constructors.nature_card_played(player, card))
    # 8.3: the Objective check follows the settled change, so it waits under it.
    check_objectives(table, player)
    table.tile_supply[face.land] -= 1
    table.tiles[pos] = face.land
    table.frontier.discard(pos)
    for near in neighbours(pos):
        if near not in table.tiles:
            table.frontier.add(near)
    table.emit(constructors.tile_placed(pos, face.land))
    settle(table, (pos,), credited=player)
