"""The global invariants of spec 16, checked on a live game.

:func:`violations` lists every broken invariant, each with its clause; an empty list means
the game is sound. The soak script runs it after every step of thousands of games, and a
front end may run it while debugging. It reads the game's full state, and recomputes each
city's satisfaction from the world rather than trusting the engine's running count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from gaia_rules.cards import Objective, PowerCard, kind_of
from gaia_rules.decisions import ChooseKeptCard, ChooseLimitDiscard, ChoosePawnCities
from gaia_rules.drawing import HAND_LIMIT, POWER_LIMIT
from gaia_rules.game import Game
from gaia_rules.manifest import TILE_COUNTS
from gaia_rules.nature import open_squares
from gaia_rules.rules import FourNeedDrop
from gaia_rules.satisfaction import pawn_counts
from gaia_rules.setup import DISPLAY_SIZES, TOKENS, power_deck
from gaia_rules.state import GameState, cities_of
from gaia_rules.vocabulary import ANIMALS, LANDS, CardKind, Land, Need, Pos
from gaia_rules.world import NEED_BITS, is_free, offered

__all__ = ["violations"]


def violations(game: Game) -> list[str]:
    """Every invariant of spec 16 that ``game`` breaks now, as ``"16.x: what"`` lines."""
    state = game.state
    found: list[str] = []
    # 16.1 tiles
    for land in LANDS:
        in_world = sum(1 for value in state.tiles.values() if value is land)
        if in_world + state.tile_supply[land] != TILE_COUNTS[land]:
            found.append(
                f"16.1: {land.value}: {in_world} in the world, {state.tile_supply[land]} in supply"
            )
    # 16.2 cards
    places = [c for hand in state.hands for c in hand]
    places += [c for tableau in state.tableaux for c in tableau]
    for piles in (state.decks, state.displays, state.discards):
        places += [c for pile in piles.values() for c in pile]
    places += [city.card for city in state.cities.values()]
    places += [*state.objectives, *state.out_of_game]
    places += [card for card, _ in state.stolen]
    counts = Counter(places)
    every = [card for card, _ in state.rules.cards.cards]
    found += [f"16.2: {c} is in {counts[c]} places" for c in every if counts[c] != 1]
    found += [f"16.2: {c} is not a card of the manifest" for c in counts if c not in every]
    level_powers = set(power_deck(state.rules))
    for card in state.out_of_game:
        face = state.rules.cards.face(card)
        unused_power = isinstance(face, PowerCard) and card not in level_powers
        if not (isinstance(face, Objective) or unused_power):
            found.append(f"16.2: {card} is out of the game")
    if len(state.objectives) != state.players + 2:
        found.append(f"16.2: {len(state.objectives)} revealed Objectives")
    for kind, display in state.displays.items():
        if len(display) > DISPLAY_SIZES[kind]:
            found.append(f"16.2: {len(display)} cards in the {kind.value} display")
        elif len(display) < DISPLAY_SIZES[kind] and state.decks[kind]:
            found.append(f"16.10: an empty slot in the {kind.value} display, its deck not empty")
    # 16.3 tokens
    if sum(state.animals.values()) + state.bank != TOKENS:
        found.append(
            f"16.3: {sum(state.animals.values())} tokens in the world, {state.bank} in the bank"
        )
    found += [f"16.3: {n} tokens on {p}" for p, n in state.animals.items() if not 1 <= n <= 4]
    # 16.4 pawns
    for seat in range(state.players):
        on_cities = sum(city.pawns.count(seat) for city in state.cities.values())
        on_objectives = sum(1 for s in state.objective_pawns.values() if s == seat)
        if state.supply[seat] + on_cities + on_objectives != state.total_pawns:
            found.append(
                f"16.4: seat {seat}: {state.supply[seat]} + {on_cities} + "
                f"{on_objectives} != {state.total_pawns}"
            )
    # 16.5 the world
    found += [f"16.5: {p} carries a city and tokens" for p in state.animals if p in state.cities]
    found += [f"16.5: {p} has a city but no tile" for p in state.cities if p not in state.tiles]
    found += [f"16.5: {p} has tokens but no tile" for p in state.animals if p not in state.tiles]
    if state.tiles and not _connected(set(state.tiles)):
        found.append("16.5: the world is not edge-connected")
    if state.tiles and Pos(0, 0) not in state.tiles:
        found.append("16.5: no tile at (0, 0)")
    # 16.6 satisfaction and pawns (12.1-12.4 in the advanced game)
    advanced = state.rules.advanced_rules
    settled = state.result is None and not isinstance(state.decision, ChoosePawnCities)
    for pos, city in state.cities.items():
        met = _needs_met(
            state.tiles,
            state.animals,
            set(state.cities),
            pos,
            state.rules.cards.city(city.card).needs,
        )
        if met != city.satisfaction:
            found.append(f"16.6: city on {pos} counts {city.satisfaction} needs, has {met}")
        if met == 0:
            found.append(f"16.6: city on {pos} has 0 needs met")
        if city.pawns and met < 2:
            found.append(f"16.6: city on {pos} has pawns and {met} need(s) met")
        if not advanced and len(set(city.pawns)) != len(city.pawns):
            found.append(f"16.6: city on {pos} has two pawns of one player")
        if advanced and len(set(city.pawns)) > 1:
            found.append(f"12.1: city on {pos} has pawns of two players {city.pawns}")
        if settled and len(city.pawns) not in pawn_counts(met, state.rules):
            found.append(f"16.6: city on {pos} has {met} needs met and pawns {city.pawns}")
    # 16.7 limits
    for seat, hand in enumerate(state.hands):
        powers = sum(1 for c in hand if kind_of(c) is CardKind.POWER)
        if (len(hand) > HAND_LIMIT or powers > POWER_LIMIT) and state.decision != (
            ChooseLimitDiscard(seat)
        ):
            found.append(f"16.7: seat {seat} holds {len(hand)} cards, {powers} Power")
    found += _state_disagreements(state)
    found += _memo_disagreements(game)
    return found


def _state_disagreements(state: GameState) -> list[str]:
    """The parts of the state that only the flow sees (1.9) agree with the table: the
    reached-four marks stand on cities that can carry them (12.4), cards are set aside only
    during a Tornado (13.8), and the count of random draws is a count (1.6)."""
    found: list[str] = []
    empty_at_two = state.rules.four_need_drop is FourNeedDrop.EMPTY_AT_TWO
    for pos in state.reached_four:
        city = state.cities.get(pos)
        if city is None:
            found.append(f"1.9: a reached-four mark on {pos}, where no city stands")
        elif city.satisfaction < 2 or (empty_at_two and city.satisfaction == 2):
            found.append(f"12.4: the city on {pos} keeps its mark at {city.satisfaction} needs")
    found += [
        f"12.4: the city on {pos} has four needs met and no reached-four mark"
        for pos, city in state.cities.items()
        if city.satisfaction == 4 and pos not in state.reached_four
    ]
    tornado = any(isinstance(step, ChooseKeptCard) for step in state.steps)
    if state.result is None and state.stolen and not tornado:
        found.append("13.8: cards are set aside with no Tornado under way")
    if isinstance(state.decision, ChooseKeptCard) and not state.stolen:
        found.append("13.8c: a card to keep is asked for, and none is set aside")
    if state.random_draws < 0:
        found.append(f"1.6: {state.random_draws} random draws")
    return found


def _memo_disagreements(game: Game) -> list[str]:
    """What the engine derived from the world and kept (the open squares, the free tiles,
    their lands and surroundings) must be what the world says now (7.2, 3.3, 3.5): the kept
    values are updated square by square as the world changes, so this checks that
    bookkeeping."""
    table = game._table  # the engine's own state: this check is about its bookkeeping
    memo = table.memo
    if memo is None:
        return []
    found: list[str] = []
    if memo.open is not None and memo.open != sorted(open_squares(table)):
        found.append(f"7.2: open squares kept as {memo.open}, the world has others")
    if memo.tile_count != len(table.tiles):
        found.append(f"3.1: kept for {memo.tile_count} tiles, the world has {len(table.tiles)}")
    if memo.tile_squares is not None and memo.tile_squares != sorted(table.tiles):
        found.append(f"3.1: tile squares kept as {memo.tile_squares}, the world has others")
    pairs = [  # in the order Earthquakes are offered: by the lower square, east first
        (pos, near)
        for pos in sorted(table.tiles)
        for near in (Pos(pos.x + 1, pos.y), Pos(pos.x, pos.y + 1))
        if near in table.tiles
    ]
    if memo.pairs is not None and memo.pairs != pairs:
        found.append(f"13.7: adjacent tiles kept as {memo.pairs}, the world has others")
    free = {
        land: frozenset(
            pos for pos in table.tiles if table.tiles[pos] is land and is_free(table, pos)
        )
        for land in LANDS
    }
    if memo.free is not None and memo.free != free:
        found.append(f"3.3: free tiles kept as {memo.free}, the world has {free}")
    if memo.view_tiles is not None and list(memo.view_tiles.items()) != sorted(table.tiles.items()):
        found.append("3.1: the tiles kept for views are not the world's, in square order")
    if memo.view_animals is not None and list(memo.view_animals.items()) != sorted(
        table.tokens.items()
    ):
        found.append("3.1: the animals kept for views are not the world's, in square order")
    if (
        memo.view_cities is not None
        and memo.view_cities[0] is table.city_token
        and list(memo.view_cities[1].items()) != list(cities_of(table).items())
    ):
        found.append("3.6: the cities kept for views are not the world's, in square order")
    if not memo.offered.keys() <= set().union(*free.values()):
        found.append("3.5: the needs offered are kept for other tiles than the free ones")
    for pos, kept in memo.offered.items():
        now = sum(NEED_BITS[need] for need in offered(table, pos))
        if kept != now:
            found.append(f"3.5: needs offered at {pos} kept as {kept:b}, the world: {now:b}")
    return found


def _needs_met(
    tiles: Mapping[Pos, Land],
    animals: Mapping[Pos, int],
    covered: set[Pos],
    pos: Pos,
    needs: tuple[Need, ...],
) -> int:
    lands: set[Land] = set()
    tokens = False
    x, y = pos.x, pos.y
    for near in (Pos(x, y - 1), Pos(x + 1, y), Pos(x, y + 1), Pos(x - 1, y)):
        if near in tiles:
            if near not in covered:
                lands.add(tiles[near])
            tokens = tokens or near in animals
    return sum(1 for need in needs if (tokens if need is ANIMALS else need in lands))


def _connected(squares: set[Pos]) -> bool:
    start = next(iter(squares))
    seen, todo = {start}, [start]
    while todo:
        pos = todo.pop()
        for near in (
            Pos(pos.x, pos.y - 1),
            Pos(pos.x + 1, pos.y),
            Pos(pos.x, pos.y + 1),
            Pos(pos.x - 1, pos.y),
        ):
            if near in squares and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(squares)
