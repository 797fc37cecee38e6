"""Which clauses of the spec a followed game exercised, step by step.

A clause is exercised when the oracle compared the engine in a situation the clause governs:
a decision it rules was asked (its legal actions compared), an action it rules was taken
(its effects compared), a fact it states was checked. The tally is what
``scripts/oracle.py --coverage`` prints, and what the soak test reads to find a clause no
game exercised. Each function says only what it saw: a decrease is credited to 10.3 when a
city's satisfaction fell, 12.4b only when a city fell to two under EMPTY_AT_TWO after four,
an Eruption to 14.3d's boundary only when the deserts were exactly enough.

Some clauses no play can exercise, since they speak of the box, the manifest or of what the
other clauses achieve; they are listed, with the reason, in :data:`NOT_BY_PLAY`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import gaia_rules as gr
from tests.oracle.legal import SCORCHED, feeding_list
from tests.oracle.model import (
    FOUR,
    HAND_LIMIT,
    POWER_LIMIT,
    TOKENS_PER_ANIMAL_CARD,
    Plain,
    kind_of,
    neighbours,
)

__all__ = [
    "DEAL",
    "NOT_BY_PLAY",
    "Snapshot",
    "clauses_of_deal",
    "clauses_of_decision",
    "clauses_of_step",
    "snapshot",
    "state_problems",
]

NOT_BY_PLAY = {
    "1.15": "says what 1.13 and 1.14 achieve, for every pair of games that differ in which "
    "copies are where: a property of all games, not a situation of one (tests/test_secrecy.py "
    "checks it over pairs of games)",
    "1.15a": "says what ids can still tell a seat across two Tornados: a consequence of 1.14, "
    "not a rule a step applies (tests/test_secrecy.py)",
    "1.16": "the information-set key is read by searches, never by the rules of play "
    "(tests/test_views.py and the twin tests check it)",
    "2.8": "the faces printed on the cards: the manifest's content, which every game reads but "
    "no step applies (tests/test_manifest.py)",
    "2.9": "ids are stable across games and manifests: a property of the manifest, not of a "
    "step (tests/test_manifest.py)",
    "1.17": "a clock is the server's, which answers for a seat whose time ran out; a game of "
    "the engine alone has none (tests/test_web_host.py plays it out)",
    "13.11": "a quick pass is the table's answer for a seat, given after a delay; the engine "
    "still asks the window (tests/test_web_table_look.py drives it in the page)",
}
"""The clauses no game can exercise, with the reason and where they are checked."""

DEAL = (
    "1.1",
    "1.2",
    "1.3",
    "1.4",
    "1.6",
    "2.1",
    "2.2",
    "2.3",
    "2.4",
    "2.5",
    "2.6",
    "3.8",
    "4.1",
    "4.2",
    "4.3",
    "4.4",
    "4.5",
)
"""What the oracle checks of every deal (:func:`tests.oracle.setup.deal_problems`)."""


def clauses_of_deal(game: gr.Game) -> list[str]:
    """The clauses a fresh game's deal, checked by the oracle, exercised."""
    found = list(DEAL)
    rules = game.rules
    if rules.edition is gr.Edition.FIRST:
        found.append("2.5")
    if rules.level >= gr.Level.POWERS:
        found += ["2.7", "13.1"]
    if rules.level >= gr.Level.DISASTERS:
        found.append("14.1")
    if rules.level >= gr.Level.ADVANCED:
        found.append("12.1")
    return found


@dataclass(frozen=True)
class Snapshot:
    """What a step's clauses are read from, taken before the step: cheap copies only."""

    cities: dict[gr.Pos, tuple[gr.CardId, tuple[int, ...], int]]
    supply: tuple[int, ...]
    tile_supply: dict[gr.Land, int]
    bank: int
    decks: dict[gr.CardKind, int]
    hands: tuple[tuple[gr.CardId, ...], ...]
    stolen: tuple[tuple[gr.CardId, int], ...]
    reached_four: frozenset[gr.CardId]
    tiles: dict[gr.Pos, gr.Land]
    objectives_fulfilled: int


def snapshot(plain: Plain) -> Snapshot:
    return Snapshot(
        cities={pos: (c.card, tuple(c.pawns), c.satisfaction) for pos, c in plain.cities.items()},
        supply=tuple(plain.supply),
        tile_supply=dict(plain.tile_supply),
        bank=plain.bank,
        decks={kind: len(deck) for kind, deck in plain.decks.items()},
        hands=tuple(tuple(hand) for hand in plain.hands),
        stolen=tuple(plain.stolen),
        reached_four=frozenset(plain.reached_four),
        tiles=dict(plain.tiles),
        objectives_fulfilled=len(plain.objective_pawns),
    )


def _settled(before: Snapshot, plain: Plain, credited: int) -> list[str]:
    """10.1-10.6, 12.1-12.5 as the change just settled exercised them."""
    found = ["10.1", "10.1a", "10.1b", "10.1d", "10.2", "3.5", "3.6", "16.6"]
    advanced = plain.level >= gr.Level.ADVANCED
    empty_at_two = plain.rules.four_need_drop is gr.FourNeedDrop.EMPTY_AT_TWO
    for pos, (card, pawns, was) in before.cities.items():
        city = plain.cities.get(pos)
        if city is None or city.card != card:
            found += ["10.1c", "16.5"]
            if pawns:
                found += ["10.6", "3.10"]
            continue
        now = city.satisfaction
        if now < was:
            found += ["10.1e", "10.3"]
            if pawns and len(city.pawns) < len(pawns):
                found.append("10.6")
            if advanced and was == FOUR and len(pawns) == 2:
                found.append("12.4")
                if empty_at_two:
                    found += ["12.4b", "12.4c"]
                elif now in (2, 3):
                    found.append("12.4a")
            elif advanced and empty_at_two and card in before.reached_four and now == 2:
                found += ["12.4b", "12.4c"]
        elif now > was:
            found += ["10.1f", "10.4", "3.7"]
            if advanced:
                found.append("12.1")
                rivals = [seat for seat in pawns if seat != credited]
                if rivals and credited in city.pawns:
                    found.append("12.2")
                if now == FOUR and city.pawns.count(credited) == 2:
                    found.append("12.3")
                if empty_at_two and now == FOUR:
                    found.append("12.4c")
    for pos in plain.cities:
        if pos not in before.cities:
            found += ["9.4", "10.1d"]
    if plain.waiting:
        found += ["10.5"] + (["12.5"] if advanced else [])
    return found


def _ended(plain: Plain) -> list[str]:
    result = plain.result
    if result is None:
        return []
    if result.reason is gr.EndReason.ALL_PAWNS_PLACED:
        return ["15.1", "3.10"]
    placed = result.pawns_placed
    tied = placed.count(max(placed)) > 1
    return ["6.3", "15.2", "15.3", "3.10"] + (["15.4"] if tied else [])


def _copies(plain: Plain, cards: Sequence[gr.CardId]) -> bool:
    """Whether ``cards`` hold two copies of one face (1.11-1.13 then choose between them)."""
    faces = [plain.face(card) for card in cards]
    return len(set(faces)) < len(faces)


def clauses_of_step(
    before: Snapshot,
    plain: Plain,
    taken: gr.Action,
    opened: object,
    window: object,
) -> list[str]:
    """The clauses ``taken`` exercised, from the model before (``before``) and after
    (``plain``) it; ``opened`` and ``window`` are the Protection windows before and after."""
    seat = taken.player
    found: list[str] = ["1.9", "16.1", "16.2", "16.3", "16.4", "16.5", "16.6", "16.7", "16.10"]
    effect: gr.Action | None = None
    match taken:
        case gr.DrawDeck(kind=kind):
            found += ["6.1", "5.2", "1.5c"]
            if before.decks.get(kind, 0) == 0:
                found += ["6.3", "15.2"]
        case gr.DrawDisplay():
            found += ["6.1", "6.2", "5.2", "1.5", "1.14"]
            if _copies(plain, plain.displays.get(kind_of(plain.face(taken.card)), [])):
                found += ["1.11", "1.12", "1.13"]
        case gr.PlayNature(pos=pos):
            found += ["7.1", "7.2", "7.3", "7.4", "3.1", "3.2", "5.2", "5.3", "8.3"]
            found += _settled(before, plain, seat)
            land = plain.tiles[pos]
            if plain.tile_supply[land] == 0:
                found.append("7.1")  # the last tile of its land
            if _copies(plain, before.hands[seat]):
                found += ["1.12", "1.13"]
        case gr.PlayAnimals(pos=pos):
            found += ["9.1", "9.1a", "9.1b", "9.1c", "3.3", "5.2", "6.4", "2.5b"]
            found += _settled(before, plain, seat)
            if plain.tiles[pos] is gr.Land.SEA:
                found += ["1.3"]
        case gr.PlayCity(pos=pos, card=card):
            found += ["9.2", "9.3", "3.3", "3.4", "5.2", "2.5a"]
            site = plain.face(card)
            assert isinstance(site, gr.CityCard)
            if site.site is gr.STAR:
                found.append("9.2b")
            elif site.site is gr.Land.SEA:
                found.append("9.2c")
            else:
                found.append("9.2a")
            found += _settled(before, plain, seat)
        case gr.Feed(city=city):
            found += ["11.3", "11.5", "5.3", "3.5"]
            found += _settled(before, plain, seat)
            if before.cities[city][1].count(seat) == 2:
                found.append("12.6")
        case gr.Discard(card=card):
            found += ["6.5", "6.5b", "6.4"]
            if isinstance(plain.face(card), gr.PowerCard):
                found.append("6.5a")
        case gr.FulfillObjective(objective=objective):
            found += ["8.1", "8.2", "3.9", "3.10", "8.5", "5.3", "6.4"]
            face = plain.face(objective)
            if isinstance(face, gr.Objective) and face.is_power:
                found.append("2.6")
        case gr.DeclineObjectives():
            found += ["8.4", "1.3"]
        case gr.PlaceCityPawn():
            found += ["10.5", "10.4"] + (["12.5"] if plain.level >= gr.Level.ADVANCED else [])
        case gr.Protect():
            found += ["13.9", "13.9a", "13.9d", "13.9e", "13.9f", "13.3"]
        case gr.PassProtection():
            found += ["13.9b"]
            if opened is not None and window is None:
                effect = getattr(opened, "play", None)
        case gr.NameBack(victim=victim, kind=kind):
            found += ["13.8", "13.8a", "13.8b", "1.6", "1.5d"]
            held = [c for c in before.hands[victim] if kind_of(plain.face(c)) is kind]
            if len(held) == 1:
                found.append("13.8b")  # one card of the back: no choice for the seed
        case gr.KeepCard():
            found += ["13.8c", "13.8d", "1.5d", "6.5b"]
            if len({source for _, source in before.stolen}) > 1:
                found.append("1.12a")
        case _ if isinstance(taken, gr.PowerPlay):
            found += ["13.1", "13.2", "13.3", "13.3a", "13.3b", "5.2", "8.3", "13.3d"]
            if window is None:
                effect = taken
            else:
                found += ["13.9b"]
    if effect is not None:
        found += _effect(before, plain, effect)
    if len(plain.objective_pawns) > before.objectives_fulfilled and isinstance(
        taken, gr.PlayNature | gr.PowerPlay | gr.Protect | gr.PassProtection
    ):
        found.append("8.3")
    found += _ended(plain)
    return found


def _effect(before: Snapshot, plain: Plain, play: gr.Action) -> list[str]:
    """A Power's effect, just carried out (13.3c)."""
    found = ["13.3c"]
    match play:
        case gr.PlaySun():
            found += ["13.4", "13.6", *_settled(before, plain, play.player)]
        case gr.PlayRain():
            found += ["13.5", "13.6", *_settled(before, plain, play.player)]
        case gr.PlayEarthquake():
            found += ["13.7", "3.1", *_settled(before, plain, play.player)]
        case gr.PlayLightning(pos=pos):
            found += ["14.2", *_settled(before, plain, play.player)]
            if pos in before.cities and len(before.cities) == 1:
                found.append("14.2")  # the last city of the world
        case gr.PlayEruption(pos=pos):
            found += ["14.3", "14.3a", "14.3b", "14.3c", "13.6"]
            found += _settled(before, plain, play.player)
            scorched = [n for n in neighbours(pos) if before.tiles.get(n) in SCORCHED]
            found.append("14.3d")
            if len(scorched) == before.tile_supply[gr.Land.DESERT]:
                found.append("14.3d")  # exactly enough deserts
        case gr.PlayTornado():
            found.append("13.8")
            others = [s for s in range(plain.players) if s != play.player]
            if any(not before.hands[s] for s in others):
                found.append("13.8d")
    return found


def clauses_of_decision(
    plain: Plain, decision: gr.Decision, listed: Sequence[gr.Action]
) -> list[str]:
    """The clauses a decision, its legal actions compared with the oracle's, exercised."""
    found = ["5.4", "16.9"]  # 1.7 is counted by the probes the engine refuses
    seat = decision.player
    hand = plain.hands[seat]
    match decision:
        case gr.ChooseAction():
            found += ["5.1", "5.2", "5.5", "3.2", "6.1"]
            if _copies(plain, hand):
                found += ["1.11", "1.12", "1.13"]
            for card in hand:
                face = plain.face(card)
                if isinstance(face, gr.NatureCard) and plain.tile_supply[face.land] == 0:
                    found.append("7.1")
                if isinstance(face, gr.AnimalCard) and plain.bank < 4:
                    found.append("9.1a")
                if isinstance(face, gr.PowerCard):
                    found += ["13.2", "13.9a"]
                    if face.power is gr.Power.ERUPTION:
                        found += _eruption_targets(plain)
            if any(not plain.decks.get(k) and not plain.displays.get(k) for k in plain.decks):
                found.append("6.3")
        case gr.ChooseFeeding(cities=cities):
            found += ["11.1", "11.2", "5.2"]
            if set(cities) != set(feeding_list(plain, seat)):
                found.append("11.4")
            for pos in cities:
                if pos in plain.cities and not any(plain.tokens.get(n) for n in neighbours(pos)):
                    found.append("11.4")
        case gr.ChooseLimitDiscard():
            found += ["6.5", "6.5b"]
            if len(hand) > HAND_LIMIT:
                found.append("6.5")
            if len(plain.power_cards(hand)) > POWER_LIMIT:
                found.append("6.5a")
            if len(listed) == 1:
                found.append("6.5c")
        case gr.ChooseObjective():
            found += ["8.1", "8.3", "8.4"]
        case gr.ChoosePawnCities():
            found += ["10.5"] + (["12.5"] if plain.level >= gr.Level.ADVANCED else [])
        case gr.ChooseProtection():
            found += ["13.9", "13.9b", "13.10", "13.3b"]
            if not any(plain.face(c) == gr.PowerCard(gr.Power.PROTECTION) for c in hand):
                found.append("13.9c")
        case gr.ChooseBack():
            found += ["13.8", "13.8a", "13.10"]
        case gr.ChooseKeptCard():
            found += ["13.8c", "13.10"]
            if len({source for _, source in plain.stolen}) > 1:
                found.append("1.12a")
    return found


def _eruption_targets(plain: Plain) -> list[str]:
    """14.3a, 14.3d: a mountain the seat could erupt on, or could not for want of deserts."""
    found = []
    deserts = plain.tile_supply[gr.Land.DESERT]
    for pos, land in plain.tiles.items():
        if land is gr.Land.MOUNTAIN:
            found.append("14.3a")
            scorched = sum(1 for n in neighbours(pos) if plain.tiles.get(n) in SCORCHED)
            if scorched in (deserts, deserts + 1):  # the boundary of 14.3d, on either side
                found.append("14.3d")
    return found


TOKENS = 20
"""2.2."""
DISPLAY = {gr.CardKind.NATURE: 3, gr.CardKind.LIFE: 2, gr.CardKind.POWER: 2}
"""4.2, 4.3, 13.1: the slots of each display."""


def state_problems(state: gr.GameState) -> list[str]:
    """What section 16 says always holds, read plainly from the engine's state after a step
    (the oracle's own statement of 16.2-16.7 and 16.10)."""
    problems: list[str] = []
    places: Counter[gr.CardId] = Counter(state.out_of_game)
    for pile in (
        *state.decks.values(),
        *state.displays.values(),
        *state.discards.values(),
        *state.hands,
        *state.tableaux,
        state.objectives,
    ):
        places.update(pile)
    places.update(city.card for city in state.cities.values())
    places.update(card for card, _ in state.stolen)
    box = Counter(card for card, _ in state.rules.cards.cards)
    if places != box:
        problems.append(f"16.2: cards not in exactly one place: {(places - box) + (box - places)}")
    tokens = sum(state.animals.values())
    if tokens + state.bank != TOKENS or any(
        not 0 <= n <= TOKENS_PER_ANIMAL_CARD for n in state.animals.values()
    ):
        problems.append(f"16.3: {tokens} tokens in the world, {state.bank} in the bank")
    for seat in range(state.players):
        on_cities = sum(city.pawns.count(seat) for city in state.cities.values())
        on_objectives = sum(1 for s in state.objective_pawns.values() if s == seat)
        if state.supply[seat] + on_cities + on_objectives != state.total_pawns:
            problems.append(f"16.4: seat {seat}'s pawns do not add up")
    for pos, city in state.cities.items():
        if pos not in state.tiles or state.animals.get(pos, 0):
            problems.append(f"16.5: the city at {pos} stands on no free tile")
        if city.satisfaction == 0 or (city.pawns and city.satisfaction < 2):
            problems.append(f"16.6: the city at {pos} at {city.satisfaction} with {city.pawns}")
    if not isinstance(state.decision, gr.ChooseLimitDiscard):
        for seat, hand in enumerate(state.hands):
            powers = sum(
                1 for card in hand if isinstance(state.rules.cards.face(card), gr.PowerCard)
            )
            if len(hand) > HAND_LIMIT or powers > POWER_LIMIT:
                problems.append(f"16.7: seat {seat} holds {len(hand)} cards, {powers} Power")
    for kind, display in state.displays.items():
        if len(display) < DISPLAY[kind] and state.decks.get(kind):
            problems.append(f"16.10: the {kind.value} display has an empty slot, its deck cards")
    return problems
