"""Playing a Life card: animals onto a free tile, or a city (spec 9)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

from gaia_rules import constructors
from gaia_rules.actions import PlayAnimals, PlayCity
from gaia_rules.cards import AnimalCard, CardId, CityCard
from gaia_rules.copies import distinct
from gaia_rules.legal import Part
from gaia_rules.refusal import Refusal
from gaia_rules.satisfaction import settle
from gaia_rules.table import Table
from gaia_rules.vocabulary import LANDS, STAR, CardKind, Land, Pos, Site
from gaia_rules.world import NEED_BITS, free_tiles, is_free, need_bits, needs_met, offered_bits

__all__ = [
    "ANIMALS_PER_CARD",
    "life_options",
    "play_animals",
    "play_city",
    "refuse_animals",
    "refuse_city",
]

ANIMALS_PER_CARD: Final = 4
MIN_NEEDS_TO_BUILD: Final = 2

# hot path: members as module constants (see `gaia_rules.vocabulary`)
_SEA: Final = Land.SEA
_LIFE: Final = CardKind.LIFE


def animals_may_go_on(table: Table, site: Site, land: Land) -> bool:
    """The card's land, or with a star any land (sea per ``star_animals_on_sea``) (9.1b)."""
    if site is STAR:
        return land is not _SEA or table.rules.star_animals_on_sea
    return site is land


def city_may_stand_on(site: Site, land: Land) -> bool:
    """A land site only on its land, a star on any land but sea, a sea site on sea (9.2)."""
    if site is STAR:
        return land is not _SEA
    return site is land


_SITES: Final[tuple[Site, ...]] = (*LANDS, STAR)
_CITY_LANDS: Final[dict[Site, tuple[Land, ...]]] = {
    site: tuple(land for land in LANDS if city_may_stand_on(site, land)) for site in _SITES
}
"""The lands a City card of each site may stand on (9.2), looked up in the hot path."""


def _animal_sites(table: Table, site: Site) -> list[Pos]:
    """The free tiles where an Animal card of ``site`` may go (9.1b), in square order; kept
    with the world, so each site is sorted out once per change."""
    sites = table.world_memo().sites
    found = sites.get(site)
    if found is None:
        free = free_tiles(table)
        found = sites[site] = sorted(
            pos for land in LANDS if animals_may_go_on(table, site, land) for pos in free[land]
        )
    return found


_LIFE_FACES: Final[tuple[type[AnimalCard | CityCard], ...]] = (AnimalCard, CityCard)

_LIFE_PLAYS: Final[dict[str, Callable[[int, CardId, Pos], PlayAnimals | PlayCity]]] = {
    "A": constructors.play_animals,
    "C": constructors.play_city,
}
"""The play of a Life card by the letter of its id: every manifest checks that an id's letter
is its face's (``A`` an Animal card, ``C`` a City card, spec 2.9)."""


def life_options(table: Table, player: int, hand: tuple[CardId, ...] | None = None) -> list[Part]:
    """Every Animal and City play (spec 9.1, 9.2, 9.3), as parts of the lazy legal actions.
    ``hand`` is the player's hand one card per face (`distinct`), when the caller has it
    already."""
    parts: list[Part] = []
    targets = table.world_memo().life_targets
    if hand is None:  # 1.12: one choice per face, the copy in the hand longest (1.13)
        hand = distinct(table.hands[player], table.cards.face_ids)
    for card in hand:
        # Hot path: the kind of card read from its id's letter, where the face's type cost
        # a call and two isinstance checks for each card of the hand at every turn's action
        builder = _LIFE_PLAYS.get(card[0])
        if builder is None:
            continue
        # Hot path: a card's squares depend only on the world, which changes far less often
        # than a turn's legal actions are asked for, so they are kept until it changes.
        found = targets.get(card)
        if found is None:
            face = table.cards._faces[card]  # `Manifest.face` without the call
            assert isinstance(face, _LIFE_FACES), card
            found = targets[card] = _squares_for(table, face)
        if found:
            parts.append((partial(builder, player, card), found))
    return parts


_ENOUGH: Final[tuple[bool, ...]] = tuple(
    bits.bit_count() >= MIN_NEEDS_TO_BUILD for bits in range(1 << len(NEED_BITS))
)
"""Whether the needs of these bits (`NEED_BITS`) are enough to build a city (9.3). Hot path:
one look-up for each free tile at each City card in hand at each change of the world, where
counting the bits cost a method call."""


def _squares_for(table: Table, face: AnimalCard | CityCard) -> list[Pos]:
    """Where an Animal card (9.1) or a City card (9.2, 9.3) may be played now."""
    if isinstance(face, AnimalCard):
        if table.bank < ANIMALS_PER_CARD:
            return []
        return _animal_sites(table, face.site)
    # Hot path: only the free tiles of the lands the city may stand on are looked at, and
    # the needs each offers are kept as bits, so each is judged with integer operations.
    free = free_tiles(table)
    offered = table.world_memo().offered
    needs = need_bits(face.needs)
    squares: list[Pos] = []
    for land in _CITY_LANDS[face.site]:
        for pos in free[land]:
            bits = offered.get(pos)
            if bits is None:  # found once per world: the value depends on the world alone
                bits = offered[pos] = offered_bits(table, pos)
            if _ENOUGH[bits & needs]:
                squares.append(pos)
    squares.sort()
    return squares


def _in_hand(table: Table, player: int, card: CardId) -> Refusal | None:
    if card not in table.hands[player]:
        return Refusal("5.2", f"{card!r} is not in the hand of seat {player}")
    return None


def refuse_animals(table: Table, action: PlayAnimals) -> Refusal | None:
    """Why an Animal play is not legal now, or ``None`` (spec 9.1)."""
    refusal = _in_hand(table, action.player, action.card)
    if refusal:
        return refusal
    face = table.cards.face(action.card)
    if not isinstance(face, AnimalCard):
        return Refusal("9.1", f"{action.card} is not an Animal card")
    if table.bank < ANIMALS_PER_CARD:
        return Refusal("9.1a", f"the bank holds {table.bank} tokens; an Animal card needs 4")
    if not isinstance(action.pos, Pos) or not is_free(table, action.pos):
        return Refusal("9.1b", f"{action.pos} is not a free tile (a tile with no city, no animals)")
    land = table.tiles[action.pos]
    if not animals_may_go_on(table, face.site, land):
        if face.site is STAR:
            return Refusal("9.1b", "star animals may not go on sea under these rules")
        return Refusal("9.1b", f"these animals go on {face.site.value}, not {land.value}")
    return None


def play_animals(table: Table, action: PlayAnimals) -> None:
    """Four tokens from the bank onto the tile, the card discarded; settle (spec 9.1c)."""
    player, card, pos = action.player, action.card, action.pos
    hand = list(table.hands[player])
    hand.remove(card)
    table.hands[player] = tuple(hand)
    table.discard(_LIFE, card)
    table.bank -= ANIMALS_PER_CARD
    table.tokens[pos] = ANIMALS_PER_CARD
    table.emit(constructors.animals_placed(player, card, pos, ANIMALS_PER_CARD))
    settle(table, (pos,), credited=player)


def refuse_city(table: Table, action: PlayCity) -> Refusal | None:
    """Why a City play is not legal now, or ``None`` (spec 9.2, 9.3)."""
    refusal = _in_hand(table, action.player, action.card)
    if refusal:
        return refusal
    face = table.cards.face(action.card)
    if not isinstance(face, CityCard):
        return Refusal("9.2", f"{action.card} is not a City card")
    if not isinstance(action.pos, Pos) or not is_free(table, action.pos):
        return Refusal("9.2", f"{action.pos} is not a free tile (a tile with no city, no animals)")
    land = table.tiles[action.pos]
    if not city_may_stand_on(face.site, land):
        if face.site is STAR:
            return Refusal("9.2b", "a star city may stand on any land but sea")
        if face.site is Land.SEA:
            return Refusal("9.2c", f"{face.name} stands only on sea")
        return Refusal("9.2a", f"{face.name} stands only on {face.site.value}, not {land.value}")
    met = needs_met(table, action.pos, face)
    if met < MIN_NEEDS_TO_BUILD:
        return Refusal("9.3", f"{face.name} would have {met} need(s) met there; it needs 2")
    return None


def play_city(table: Table, action: PlayCity) -> None:
    """The city goes on the tile and covers it; settle, which credits its pawn (9.4)."""
    player, card, pos = action.player, action.card, action.pos
    hand = list(table.hands[player])
    hand.remove(card)
    table.hands[player] = tuple(hand)
    table.cities[pos] = card
    table.pawns[pos] = ()
    table.cities_changed()
    table.emit(constructors.city_placed(player, card, pos))
    settle(table, (pos,), credited=player)
