"""What is legal now, for every kind of decision, read from the spec and a plain model.

Each function returns a set: the oracle says nothing about the order in which the engine
lists its actions (the spec fixes none), only which actions it lists.
"""

from __future__ import annotations

from collections import Counter

import attrs

import gaia_rules as gr
from tests.oracle.model import (
    FOUR,
    POWER_LIMIT,
    TOKENS_PER_ANIMAL_CARD,
    Plain,
    kind_of,
    needs_met,
    neighbours,
)

__all__ = [
    "accepted_actions",
    "available_objectives",
    "feeding_list",
    "legal_actions",
    "meets",
    "pawns_wanted",
    "power_plays",
    "protection_asked",
]

SUN = {gr.Land.SWAMP: gr.Land.PLAIN, gr.Land.PLAIN: gr.Land.DESERT}
"""13.4: a swamp becomes a plain, a plain a desert."""
RAIN = {gr.Land.DESERT: gr.Land.PLAIN, gr.Land.PLAIN: gr.Land.SWAMP}
"""13.5: a desert becomes a plain, a plain a swamp."""
SCORCHED = frozenset({gr.Land.PLAIN, gr.Land.FOREST, gr.Land.SWAMP})
"""14.3c: the neighbours of an erupting mountain that become deserts."""


def legal_actions(
    plain: Plain, decision: gr.Decision, to_feed: list[gr.Pos] | None = None
) -> set[gr.Action]:
    """Every legal action of ``decision`` in the game ``plain`` models.

    ``to_feed`` is the oracle's own list of the cities still to be fed this turn (11.2); the
    decision's list is used when it is not given. The cities waiting for scarce pawns are
    ``plain.waiting`` when it is set, the decision's otherwise.
    """
    match decision:
        case gr.ChooseAction(player=seat):
            return (
                _draws(plain, seat)
                | _nature(plain, seat)
                | _life(plain, seat)
                | power_plays(plain, seat)
            )
        case gr.ChooseFeeding(player=seat, cities=cities):
            return _feeds(plain, seat, list(cities) if to_feed is None else to_feed)
        case gr.ChooseLimitDiscard(player=seat):
            return _limit_discards(plain, seat)
        case gr.ChooseObjective(player=seat):
            return _objectives(plain, seat)
        case gr.ChoosePawnCities(player=seat, cities=cities):
            waiting = plain.waiting or list(cities)
            return {
                gr.PlaceCityPawn(seat, pos) for pos in waiting if pawns_wanted(plain, seat, pos)
            }
        case gr.ChooseProtection(player=seat):
            protections = [
                card
                for card in plain.one_per_face(plain.hands[seat])
                if plain.face(card) == gr.PowerCard(gr.Power.PROTECTION)
            ]
            answers: set[gr.Action] = {gr.PassProtection(seat)}
            return answers | {gr.Protect(seat, c) for c in protections}
        case gr.ChooseBack(player=thief, victim=victim):
            return {gr.NameBack(thief, victim, kind_of(plain.face(c))) for c in plain.hands[victim]}
        case gr.ChooseKeptCard(player=thief):
            return {gr.KeepCard(thief, card) for card, _ in plain.stolen}
    raise AssertionError(f"no such decision: {decision!r}")


# -- a turn's action: draws (6.1-6.3) -----------------------------------------------------------


def _draws(plain: Plain, seat: int) -> set[gr.Action]:
    found: set[gr.Action] = set()
    for kind in plain.kinds_in_play():
        # 1.12: one draw per face face up, named by its face id (1.14)
        found |= {gr.DrawDisplay(seat, plain.face_id(c)) for c in plain.displays.get(kind, [])}
        deck, display = plain.decks.get(kind, []), plain.displays.get(kind, [])
        if deck or not display:  # the top of the deck, or an exhausted kind (6.3)
            found.add(gr.DrawDeck(seat, kind))
    return found


# -- Nature (7.1, 7.2) ---------------------------------------------------------------------------


def _nature(plain: Plain, seat: int) -> set[gr.Action]:
    squares = plain.frontier() if plain.tiles else {gr.Pos(0, 0)}
    found: set[gr.Action] = set()
    for card in plain.one_per_face(plain.hands[seat]):
        face = plain.face(card)
        if isinstance(face, gr.NatureCard) and plain.tile_supply[face.land] > 0:
            found |= {gr.PlayNature(seat, card, pos) for pos in squares}
    return found


# -- Life (9.1-9.3) ------------------------------------------------------------------------------


def _site_allows(site: gr.Site, land: gr.Land, *, star_on_sea: bool) -> bool:
    if site is gr.STAR:
        return star_on_sea or land is not gr.Land.SEA
    return site is land


def _life(plain: Plain, seat: int) -> set[gr.Action]:
    found: set[gr.Action] = set()
    free = [pos for pos in plain.tiles if plain.is_free(pos)]
    for card in plain.one_per_face(plain.hands[seat]):
        face = plain.face(card)
        if isinstance(face, gr.AnimalCard) and plain.bank >= TOKENS_PER_ANIMAL_CARD:
            sea = plain.rules.star_animals_on_sea
            for pos in free:
                if _site_allows(face.site, plain.tiles[pos], star_on_sea=sea):
                    found.add(gr.PlayAnimals(seat, card, pos))
        if isinstance(face, gr.CityCard):
            for pos in free:
                # 9.2b: a star city never stands on sea; 9.2c: a sea site only on sea
                suits = _site_allows(face.site, plain.tiles[pos], star_on_sea=False)
                if suits and needs_met(plain, card, pos) >= 2:  # 9.3
                    found.add(gr.PlayCity(seat, card, pos))
    return found


# -- Powers (13.2-13.9a, 14.2, 14.3) -------------------------------------------------------------


def power_plays(plain: Plain, seat: int) -> set[gr.Action]:
    """Every Power card of ``seat``'s hand at every legal target, as a turn's action."""
    if plain.level < gr.Level.POWERS:
        return set()
    found: set[gr.Action] = set()
    tiles, supply = plain.tiles, plain.tile_supply
    for card in plain.one_per_face(plain.hands[seat]):
        face = plain.face(card)
        if not isinstance(face, gr.PowerCard):
            continue
        power = face.power
        if power is gr.Power.TORNADO:
            found.add(gr.PlayTornado(seat, card))
        for pos, land in tiles.items():
            bare = pos not in plain.cities
            if power is gr.Power.SUN and bare and land in SUN and supply[SUN[land]] > 0:
                found.add(gr.PlaySun(seat, card, pos))
            if power is gr.Power.RAIN and bare and land in RAIN and supply[RAIN[land]] > 0:
                found.add(gr.PlayRain(seat, card, pos))
            if power is gr.Power.EARTHQUAKE:
                for other in neighbours(pos):
                    if other in tiles and pos < other:  # named lower first (13.7)
                        found.add(gr.PlayEarthquake(seat, card, pos, other))
            if power is gr.Power.LIGHTNING:
                found.add(gr.PlayLightning(seat, card, pos))
            if power is gr.Power.ERUPTION and land is gr.Land.MOUNTAIN:
                if not bare and not plain.rules.eruption_on_city:
                    continue
                scorched = [n for n in neighbours(pos) if tiles.get(n) in SCORCHED]
                if supply[gr.Land.DESERT] >= len(scorched):
                    found.add(gr.PlayEruption(seat, card, pos))
        # Protection is never an action (13.9a)
    return found


def protection_asked(plain: Plain, power_player: int) -> list[int]:
    """The seats a Protection window asks, in order (13.9b): every other seat holding a
    Power card, from the Power's player's left."""
    order = [(power_player + k) % plain.players for k in range(1, plain.players)]
    return [seat for seat in order if plain.power_cards(plain.hands[seat])]


# -- the feeding (11.2-11.4) ---------------------------------------------------------------------


def still_fed(plain: Plain, seat: int, pos: gr.Pos) -> bool:
    """Whether a listed city still qualifies when its turn comes (11.2)."""
    if pos not in plain.cities:
        return False
    if plain.rules.feeding is gr.Feeding.PAWN_HOLDER:
        return seat in plain.cities[pos].pawns
    return True


def feeding_list(plain: Plain, seat: int) -> list[gr.Pos]:
    """The cities ``seat`` feeds this turn, listed when his feeding starts (11.2): those with
    the animal need and, under PAWN_HOLDER, one of his pawns."""
    listed = []
    for pos, city in plain.cities.items():
        face = plain.face(city.card)
        assert isinstance(face, gr.CityCard)
        if gr.ANIMALS in face.needs and still_fed(plain, seat, pos):
            listed.append(pos)
    return listed


def _feeds(plain: Plain, seat: int, cities: list[gr.Pos]) -> set[gr.Action]:
    found: set[gr.Action] = set()
    for pos in cities:
        if still_fed(plain, seat, pos):
            for near in neighbours(pos):
                if plain.tokens.get(near, 0) > 0:
                    found.add(gr.Feed(seat, pos, near))
    return found


# -- the limits (6.5, 6.5a) ----------------------------------------------------------------------


def _limit_discards(plain: Plain, seat: int) -> set[gr.Action]:
    hand = plain.hands[seat]
    powers = plain.power_cards(hand)
    if len(powers) > POWER_LIMIT:
        return {gr.Discard(seat, card) for card in plain.one_per_face(powers)}
    return {gr.Discard(seat, card) for card in plain.one_per_face(hand)}


# -- Objectives (3.9, 8.1, 8.4) ------------------------------------------------------------------


def available_objectives(plain: Plain) -> list[gr.CardId]:
    """Revealed and carrying no pawn (3.9)."""
    return [card for card in plain.objectives if card not in plain.objective_pawns]


def meets(plain: Plain, seat: int, objective: gr.CardId) -> bool:
    """Whether the cards in front of ``seat`` include every card ``objective`` pictures (8.1)."""
    face = plain.face(objective)
    assert isinstance(face, gr.Objective)
    tableau = plain.tableaux[seat]
    if face.is_power:
        return len(plain.power_cards(tableau)) >= face.powers
    lands: Counter[gr.Land] = Counter()
    for card in tableau:
        card_face = plain.face(card)
        if isinstance(card_face, gr.NatureCard):
            lands[card_face.land] += 1
    wanted = Counter(face.lands)
    return all(lands[land] >= n for land, n in wanted.items())


def _objectives(plain: Plain, seat: int) -> set[gr.Action]:
    found: set[gr.Action] = {
        gr.FulfillObjective(seat, card)
        for card in available_objectives(plain)
        if meets(plain, seat, card)
    }
    if plain.rules.objectives is gr.Objectives.OPTIONAL:
        found.add(gr.DeclineObjectives(seat))
    return found


# -- scarce pawns (10.5, 12.5) -------------------------------------------------------------------


def pawns_wanted(plain: Plain, seat: int, pos: gr.Pos) -> int:
    """How many pawns a raised city wants from ``seat`` (10.4, 12.5): one in the basic game
    unless his pawn is there; from the advanced level two at four needs and one otherwise,
    less his pawns already on it."""
    city = plain.cities[pos]
    mine = city.pawns.count(seat)
    if plain.level is gr.Level.BASIC:
        return 0 if mine else 1
    return (2 if needs_met(plain, city.card, pos) == FOUR else 1) - mine


def accepted_actions(plain: Plain, decision: gr.Decision, legal: set[gr.Action]) -> set[gr.Action]:
    """The actions the engine takes at ``decision``: the ``legal`` ones it lists, and each of
    them naming another copy of its card's face in the same place, which is the same choice
    (1.12): in the player's hand, or face up in the display its card is drawn from."""
    seat = decision.player
    found = set(legal)
    for action in legal:
        card = getattr(action, "card", None)
        if card is None or isinstance(action, gr.KeepCard):  # stolen cards: 1.12a
            continue
        if isinstance(action, gr.DrawDisplay):
            place = plain.displays.get(kind_of(plain.face(card)), [])
        else:
            place = plain.hands[seat]
        face = plain.face(card)
        found |= {
            attrs.evolve(action, card=other)  # type: ignore[arg-type]  # has a card: above
            for other in place
            if plain.face(other) == face
        }
    return found
