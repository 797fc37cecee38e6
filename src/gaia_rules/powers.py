"""Power cards: playing them, their effects, the Tornado and the Protection window (13, 14).

Playing a Power card puts it in front of its player and stacks three steps (spec 13.3):
the player's Objective check (bottom), the effect (:class:`PowerEffect`), and the
Protection window (top), which asks each other seat holding a Power card in turn. A
Protection removes the effect; otherwise the engine runs it as one change, settled by
:func:`~gaia_rules.satisfaction.settle` with the Power's player credited.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Final, TypeVar

from gaia_rules.actions import (
    Action,
    KeepCard,
    NameBack,
    PassProtection,
    PlayEarthquake,
    PlayEruption,
    PlayLightning,
    PlayRain,
    PlaySun,
    PlayTornado,
    PowerPlay,
    Protect,
)
from gaia_rules.cards import CardId, kind_of
from gaia_rules.copies import distinct
from gaia_rules.decisions import (
    ChooseBack,
    ChooseKeptCard,
    ChooseObjective,
    ChooseProtection,
    PowerEffect,
)
from gaia_rules.drawing import gain
from gaia_rules.events import (
    CardDiscarded,
    CardKept,
    CardStolen,
    PowerCancelled,
    PowerPlayed,
    StolenCardsSeen,
    TileReplaced,
    TilesSwapped,
    TokensReturned,
)
from gaia_rules.legal import Part
from gaia_rules.objectives import check_objectives
from gaia_rules.refusal import Refusal
from gaia_rules.rules import Level
from gaia_rules.satisfaction import discard_city, settle
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Land, Pos, Power
from gaia_rules.world import free_tiles, neighbours, tile_squares

__all__ = [
    "back_options",
    "keep_card",
    "keep_options",
    "left_of",
    "name_back",
    "pass_protection",
    "play_power",
    "power_options",
    "protect",
    "protection_asked",
    "protection_options",
    "refuse_play",
    "refuse_power",
    "run_effect",
    "tornado_victims",
]

V = TypeVar("V")

SUN: Final[dict[Land, Land]] = {Land.SWAMP: Land.PLAIN, Land.PLAIN: Land.DESERT}
"""Sun: a swamp becomes a plain, a plain a desert (spec 13.4)."""
RAIN: Final[dict[Land, Land]] = {Land.DESERT: Land.PLAIN, Land.PLAIN: Land.SWAMP}
"""Rain: a desert becomes a plain, a plain a swamp (spec 13.5)."""
SCORCHED: Final = (Land.PLAIN, Land.FOREST, Land.SWAMP)
"""The lands an Eruption turns into deserts around its mountain (spec 14.3c)."""

_PLAYS: Final[dict[Power, type[PowerPlay]]] = {
    Power.SUN: PlaySun,
    Power.RAIN: PlayRain,
    Power.EARTHQUAKE: PlayEarthquake,
    Power.TORNADO: PlayTornado,
    Power.LIGHTNING: PlayLightning,
    Power.ERUPTION: PlayEruption,
}


# hot path: members as module constants (see `gaia_rules.vocabulary`)
_POWERS: Final = Level.POWERS
_POWER_CARD: Final = CardKind.POWER
_MOUNTAIN: Final = Land.MOUNTAIN
_DESERT: Final = Land.DESERT
_SUN: Final = Power.SUN
_RAIN: Final = Power.RAIN
_EARTHQUAKE: Final = Power.EARTHQUAKE
_TORNADO: Final = Power.TORNADO
_LIGHTNING: Final = Power.LIGHTNING
_ERUPTION: Final = Power.ERUPTION
_PROTECTION: Final = Power.PROTECTION

# -- targets ----------------------------------------------------------------------------------


def replacement_targets(table: Table, changes: dict[Land, Land]) -> list[Pos]:
    """Tiles a Sun or Rain may replace: not under a city, of a land it changes, and with the
    new tile in the tile supply (spec 13.4, 13.5)."""
    # Hot path: a tile not under a city is free or carries tokens (3.3), so the free tiles
    # of the lands it changes, and the few tiles with tokens, are all there is to look at.
    tiles, supply, free = table.tiles, table.tile_supply, free_tiles(table)
    targets = [pos for land in changes if supply[changes[land]] > 0 for pos in free[land]]
    targets += [
        pos for pos in table.tokens if tiles[pos] in changes and supply[changes[tiles[pos]]] > 0
    ]
    targets.sort()
    return targets


def adjacent_pairs(table: Table) -> list[tuple[Pos, Pos]]:
    """Every two edge-adjacent tiles in play, the lower square first (spec 13.7); kept while
    the world holds as many tiles."""
    memo = table.world_memo()
    if memo.pairs is None:
        tiles = table.tiles
        memo.pairs = []
        for pos in tile_squares(table):
            _, east, south, _ = neighbours(pos)
            if east in tiles:
                memo.pairs.append((pos, east))
            if south in tiles:
                memo.pairs.append((pos, south))
    return memo.pairs


def _scorched(table: Table, mountain: Pos) -> list[Pos]:
    return [n for n in neighbours(mountain) if table.tiles.get(n) in SCORCHED]


def eruption_targets(table: Table) -> list[Pos]:
    """Mountains that may erupt: enough deserts for the replacements, and under
    ``eruption_on_city`` False no city on the mountain (spec 14.3a, 14.3d)."""
    return [
        pos
        for pos in tile_squares(table)
        if table.tiles[pos] is _MOUNTAIN
        and (table.rules.eruption_on_city or pos not in table.cities)
        and len(_scorched(table, pos)) <= table.tile_supply[_DESERT]
    ]


def power_options(table: Table, player: int, hand: tuple[CardId, ...] | None = None) -> list[Part]:
    """Every Power play of a turn's action (spec 13.2); never Protection (13.9a). As parts of
    the lazy legal actions. ``hand`` is the player's hand one card per face (`distinct`),
    when the caller has it already."""
    # Hot path: asked at every turn's action, so the level is compared here directly rather
    # than through the property ``Rules.with_powers``, which says the same.
    if table.rules.level < _POWERS:
        return []
    parts: list[Part] = []
    targets = table.world_memo().power_targets
    if hand is None:  # 1.12: one choice per face, the copy in the hand longest (1.13)
        hand = distinct(table.hands[player], table.cards.face_ids)
    powers = table.cards._powers  # hot path: the manifest's own dict (`Manifest.power`)
    for card in hand:
        power = powers.get(card)
        if power is None or power is _PROTECTION:
            continue
        # Hot path: a card's targets depend only on the world, kept until it changes
        found = targets.get(card)
        if found is None:
            found = targets[card] = _targets_of(table, power)
        parts.append((_builder(power, player, card), found))
    return parts


def _targets_of(table: Table, power: Power) -> list[Any]:
    """What a Power card may be played on now: squares, pairs of squares for an Earthquake,
    and one empty target for a Tornado (spec 13.4-13.8, 14.2, 14.3)."""
    if power is _SUN:
        return replacement_targets(table, SUN)
    if power is _RAIN:
        return replacement_targets(table, RAIN)
    if power is _EARTHQUAKE:
        return adjacent_pairs(table)
    if power is _TORNADO:
        return [None]
    if power is _LIGHTNING:
        return tile_squares(table)
    if power is _ERUPTION:
        return eruption_targets(table)
    return []


def _builder(power: Power, player: int, card: CardId) -> Callable[[Any], Action]:
    """The function that builds a play of this card on one of its targets."""
    if power is _EARTHQUAKE:
        return lambda pair: PlayEarthquake(player, card, pair[0], pair[1])
    if power is _TORNADO:
        return lambda _: PlayTornado(player, card)
    return partial(_PLAY_ON_SQUARE[power], player, card)


_PLAY_ON_SQUARE: Final[dict[Power, type[PlaySun | PlayRain | PlayLightning | PlayEruption]]] = {
    Power.SUN: PlaySun,
    Power.RAIN: PlayRain,
    Power.LIGHTNING: PlayLightning,
    Power.ERUPTION: PlayEruption,
}


def refuse_power(table: Table, action: PowerPlay) -> Refusal | None:
    """Why a Power play is not legal now, or ``None`` (spec 13, 14)."""
    if not table.rules.with_powers:
        return Refusal("13.1", "Power cards are not in play at this level")
    if action.card not in table.hands[action.player]:
        return Refusal("5.2", f"{action.card!r} is not in the hand of seat {action.player}")
    return refuse_play(table, action)


def refuse_play(table: Table, action: PowerPlay) -> Refusal | None:
    """Why ``action`` is not a play of its card on a target the world offers, or ``None``
    (spec 13.2, 13.4-13.8, 14.2, 14.3): the card is of the Power played, and the targets are
    ones it may take now. Its effect waits under the Protection window in a world that no
    step of the window changes, so this holds until the effect runs."""
    power = table.cards.power(action.card)
    if power is Power.PROTECTION:
        return Refusal("13.9a", "Protection is played only as a reaction to another's Power")
    if power is None or _PLAYS[power] is not type(action):
        return Refusal("13.2", f"{action.card} is not a {type(action).__name__[4:]} card")
    match action:
        case PlaySun(_, _, pos) | PlayRain(_, _, pos):
            changes, clause = (SUN, "13.4") if isinstance(action, PlaySun) else (RAIN, "13.5")
            if pos not in replacement_targets(table, changes):
                return Refusal(
                    clause,
                    f"{pos} is not a tile it can replace: a "
                    f"{' or '.join(land.value for land in changes)} in play, not under a city, "
                    "with its new tile in the tile supply",
                )
        case PlayEarthquake(_, _, first, second):
            if (first, second) not in adjacent_pairs(table):
                return Refusal(
                    "13.7",
                    f"{first} and {second} are not two edge-adjacent tiles in play named "
                    "lower square first",
                )
        case PlayLightning(_, _, pos):
            if not isinstance(pos, Pos) or pos not in table.tiles:
                return Refusal("14.2", f"there is no tile at {pos}")
        case PlayEruption(_, _, pos):
            if not isinstance(pos, Pos) or table.tiles.get(pos) is not Land.MOUNTAIN:
                return Refusal("14.3a", f"there is no mountain at {pos}")
            if pos in table.cities and not table.rules.eruption_on_city:
                return Refusal("14.3a", "a mountain under a city cannot erupt under these rules")
            if len(_scorched(table, pos)) > table.tile_supply[Land.DESERT]:
                return Refusal("14.3d", "not enough deserts in the tile supply")
    return None


# -- playing a Power card (spec 13.2, 13.3) ------------------------------------------------------


def play_power(table: Table, action: PowerPlay) -> None:
    """The card goes in front; then the Protection window, the effect, the Objective check."""
    player = action.player
    hand = list(table.hands[player])
    hand.remove(action.card)
    table.hands[player] = tuple(hand)
    table.put_in_front(player, action.card)
    table.emit(PowerPlayed(player, action.card))
    check_objectives(table, player)
    table.steps.append(PowerEffect(action))
    asked = protection_asked(table.hands, player)
    if asked:
        table.steps.append(ChooseProtection(asked[0], player, action.card, tuple(asked[1:])))


def left_of(seat: int, players: int) -> list[int]:
    """The other seats in seat order from ``seat``'s left (spec 1.4, 13.8a, 13.9b)."""
    return [(seat + k) % players for k in range(1, players)]


def protection_asked(hands: Sequence[tuple[CardId, ...]], player: int) -> list[int]:
    """The seats a Protection window asks, in turn: each other seat holding a Power card,
    from the Power's player's left (spec 13.9b)."""
    return [
        seat
        for seat in left_of(player, len(hands))
        if any(kind_of(card) is _POWER_CARD for card in hands[seat])
    ]


def tornado_victims(hands: Sequence[tuple[CardId, ...]], thief: int) -> list[int]:
    """The seats a Tornado takes from, in turn: each other seat holding cards, from the
    thief's left (spec 13.8a)."""
    return [seat for seat in left_of(thief, len(hands)) if hands[seat]]


def protection_options(table: Table, decision: ChooseProtection) -> list[Action]:
    """Play one of his Protection cards, or pass (spec 13.9b, 13.9c)."""
    seat = decision.player
    powers = table.cards._powers  # the manifest's own dict (`Manifest.power` without the call)
    protections = [c for c in table.hands[seat] if powers.get(c) is _PROTECTION]
    # 1.12: one Protection, the copy that has been in the hand longest (1.13)
    return [*(Protect(seat, c) for c in protections[:1]), PassProtection(seat)]


def refuse_protect(table: Table, action: Protect) -> Refusal | None:
    """Why a Protection is not legal now, or ``None`` (spec 13.9)."""
    if action.card not in table.hands[action.player]:
        return Refusal("13.9a", f"{action.card!r} is not in the hand of seat {action.player}")
    if table.cards.power(action.card) is not Power.PROTECTION:
        return Refusal("13.9a", f"{action.card} is not a Protection card")
    return None


def pass_protection(table: Table, decision: ChooseProtection) -> None:
    """The next seat holding a Power card is asked, if any (spec 13.9b)."""
    if decision.later:
        table.steps.append(
            ChooseProtection(
                decision.later[0], decision.power_player, decision.against, decision.later[1:]
            )
        )


def protect(table: Table, decision: ChooseProtection, action: Protect) -> None:
    """Cancel the effect; both cards stay in front; the cancelled player's Objectives are
    checked first, then the protector's (spec 13.9e, 13.9f)."""
    seat = action.player
    hand = list(table.hands[seat])
    hand.remove(action.card)
    table.hands[seat] = tuple(hand)
    table.put_in_front(seat, action.card)
    table.emit(PowerCancelled(seat, action.card, decision.against))
    effect = table.steps.pop()
    check = table.steps.pop()
    assert isinstance(effect, PowerEffect) and isinstance(check, ChooseObjective)
    check_objectives(table, seat)
    table.steps.append(check)


# -- the effects (spec 13.4-13.8, 14.2, 14.3) ----------------------------------------------------


def run_effect(table: Table, step: PowerEffect) -> None:
    """Carry out a Power's effect: one change, credited to its player (spec 13.3c)."""
    action = step.action
    player = action.player
    match action:
        case PlaySun(_, _, pos) | PlayRain(_, _, pos):
            changes = SUN if isinstance(action, PlaySun) else RAIN
            _replace(table, pos, changes[table.tiles[pos]])
            settle(table, (pos,), credited=player)
        case PlayEarthquake(_, _, first, second):
            _swap(table, first, second)
            settle(table, (first, second), credited=player)
        case PlayTornado():
            _begin_tornado(table, player)
        case PlayLightning(_, _, pos):
            _clear(table, pos)
            settle(table, (pos,), credited=player)
        case PlayEruption(_, _, pos):
            affected = [pos, *(n for n in neighbours(pos) if n in table.tiles)]
            for square in affected:
                _clear(table, square)
            for square in _scorched(table, pos):
                _replace(table, square, Land.DESERT)
            settle(table, affected, credited=player)


def _replace(table: Table, pos: Pos, new: Land) -> None:
    """A tile from the supply replaces the one at ``pos``, which returns to it (13.6)."""
    old = table.tiles[pos]
    table.tile_supply[old] += 1
    table.tile_supply[new] -= 1
    table.tiles[pos] = new
    table.emit(TileReplaced(pos, old, new))


def _swap(table: Table, first: Pos, second: Pos) -> None:
    """Two tiles change squares with their tokens, city, pawns and the city's satisfaction
    record, so the comparison of 10.1 is made city by city (spec 13.7)."""
    _swap_in(table.tiles, first, second)
    _swap_in(table.tokens, first, second)
    _swap_in(table.cities, first, second)
    _swap_in(table.pawns, first, second)
    _swap_in(table.satisfaction, first, second)
    table.cities_changed()
    four = {second if p == first else first if p == second else p for p in table.reached_four}
    table.reached_four = four
    table.emit(TilesSwapped(first, second))


def _swap_in(place: dict[Pos, V], first: Pos, second: Pos) -> None:
    """Whatever ``place`` holds on the two squares changes squares."""
    moved: dict[Pos, V] = {}
    if first in place:
        moved[second] = place.pop(first)
    if second in place:
        moved[first] = place.pop(second)
    place.update(moved)


def _clear(table: Table, pos: Pos) -> None:
    """A tile loses its city (discarded, pawns to their owners) and its tokens (14.2)."""
    if pos in table.cities:
        discard_city(table, pos)
    tokens = table.tokens.pop(pos, 0)
    if tokens:
        table.bank += tokens
        table.emit(TokensReturned(pos, tokens))


# -- the Tornado (spec 13.8) ---------------------------------------------------------------------


def _begin_tornado(table: Table, thief: int) -> None:
    victims = tornado_victims(table.hands, thief)
    if victims:
        table.steps.append(ChooseKeptCard(thief))
        table.steps.append(ChooseBack(thief, victims[0], tuple(victims[1:])))


def back_options(table: Table, decision: ChooseBack) -> list[Action]:
    """The backs in the victim's hand (spec 13.8a)."""
    kinds = {kind_of(c) for c in table.hands[decision.victim]}
    return [NameBack(decision.player, decision.victim, k) for k in CardKind if k in kinds]


def name_back(table: Table, decision: ChooseBack, action: NameBack) -> None:
    """A card of that back leaves the victim's hand at random, drawn from the seed (13.8b)."""
    if decision.later:
        table.steps.append(ChooseBack(decision.player, decision.later[0], decision.later[1:]))
    hand = list(table.hands[action.victim])
    candidates = [c for c in hand if kind_of(c) is action.kind]
    if table.imposed:  # decided outside, as an explicit chance outcome (gaia_rules.outcomes)
        index, table.imposed = table.imposed[0], table.imposed[1:]
        table.random_draws += 1
    else:
        index = _random(table).randrange(len(candidates))
    card = candidates[index]
    hand.remove(card)
    table.hands[action.victim] = tuple(hand)
    table.stolen = (*table.stolen, (card, action.victim))
    table.emit(CardStolen(action.player, action.victim, action.kind, card))
    if not decision.later:  # the last card is taken: the thief looks at them all (13.8c)
        table.emit(StolenCardsSeen(action.player, tuple(c for c, _ in table.stolen)))


def keep_options(table: Table, decision: ChooseKeptCard) -> list[Action]:
    """One of the stolen cards (spec 13.8c)."""
    return [KeepCard(decision.player, card) for card, _ in table.stolen]


def keep_card(table: Table, action: KeepCard) -> None:
    """The kept card goes into the thief's hand, a gain under the limits (13.8d); the rest are
    discarded face up without effect (13.8c)."""
    stolen, table.stolen = table.stolen, ()
    source = next(victim for card, victim in stolen if card == action.card)
    table.emit(CardKept(action.player, source, action.card))
    for card, _ in stolen:
        if card != action.card:
            table.discard(kind_of(card), card)
            table.emit(CardDiscarded(action.player, card))
    gain(table, action.player, action.card)


def _random(table: Table) -> random.Random:
    """The next random source of this game: its seed and how many draws came before (1.6).

    A string seed is hashed with SHA-512 by :mod:`random`, the same on every platform and
    Python version; keeping only a counter keeps :meth:`Table.copy` cheap.
    """
    table.random_draws += 1
    return random.Random(f"gaia-rules/{table.seed}/{table.random_draws}")
