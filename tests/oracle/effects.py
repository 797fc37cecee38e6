"""What each action does to the plain model, written from the spec.

Every change to the world goes through :func:`settle`, the oracle's reading of 10.1: record,
change, discard the cities at 0, compare counts, decreases, then increases with their pawns
(10.3, 10.4, 12.2-12.5). The oracle keeps its own record of the cities that reached four
needs and have not been emptied since (12.4), from the start of the game.

A Tornado's card is taken at random within its back (13.8b), drawn from the game's seed
(1.6): the oracle draws it itself (:func:`tornado_pick`, its own reading of the draw the
engine's notes to 1.6 and 1.13 describe), and :func:`apply_action` checks that the card the
engine's log says was taken is that one.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import gaia_rules as gr
from tests.oracle.legal import RAIN, SCORCHED, SUN, pawns_wanted, protection_asked
from tests.oracle.model import (
    FOUR,
    TOKENS_PER_ANIMAL_CARD,
    City,
    Plain,
    kind_of,
    needs_met,
    neighbours,
)

__all__ = ["Window", "apply_action", "power_effect", "settle", "tornado_pick"]


class OracleError(AssertionError):
    """The engine did something the oracle's reading of the spec does not allow."""


class Window:
    """A Power play waiting for its Protection window (13.9b): the seats still to ask."""

    def __init__(self, play: gr.PowerPlay, asked: list[int]) -> None:
        self.play = play
        self.asked = asked

    def __repr__(self) -> str:
        return f"Window({self.play!r}, asked={self.asked})"


# -- the end of the game (15.1-15.4) -------------------------------------------------------------


def _total(plain: Plain) -> int:
    return 6 if plain.players == 2 else 5


def _placed(plain: Plain) -> tuple[int, ...]:
    """Each player's pawns placed (3.10): his total less his supply, both pawns of a city
    with two counting (12.6)."""
    return tuple(_total(plain) - n for n in plain.supply)


def _win_if_empty(plain: Plain, seat: int) -> None:
    """15.1: a player whose supply is empty has placed all his pawns and wins at once."""
    if plain.result is None and plain.supply[seat] == 0:
        plain.result = gr.Result(seat, gr.EndReason.ALL_PAWNS_PLACED, _placed(plain), seat)


def _exhaustion_end(plain: Plain, seat: int) -> None:
    """15.2-15.4: most pawns placed; ties to the first after ``seat``, who counts last."""
    placed = _placed(plain)
    order = [(seat + k) % plain.players for k in range(1, plain.players + 1)]
    best = max(placed)
    winner = next(s for s in order if placed[s] == best)
    plain.result = gr.Result(winner, gr.EndReason.EXHAUSTION, placed, seat)


# -- settling a change (10.1-10.5, 12.2-12.5) ----------------------------------------------------


def _return_pawns(plain: Plain, city: City) -> None:
    for seat in city.pawns:
        plain.supply[seat] += 1
    city.pawns = []


def discard_city(plain: Plain, pos: gr.Pos) -> None:
    """The city leaves the world: pawns home, card face up on the Life discards (10.1(c))."""
    city = plain.cities.pop(pos)
    _return_pawns(plain, city)
    plain.discards.setdefault(gr.CardKind.LIFE, []).append(city.card)
    plain.reached_four.discard(city.card)


def take_city(plain: Plain, seat: int, pos: gr.Pos, count: int) -> None:
    """``seat`` puts ``count`` pawns on a city he raised; from the advanced level a rival's
    pawns return first (12.2)."""
    city = plain.cities[pos]
    if plain.level >= gr.Level.ADVANCED:
        for other in [s for s in city.pawns if s != seat]:
            city.pawns.remove(other)
            plain.supply[other] += 1
    city.pawns += [seat] * count
    plain.supply[seat] -= count


def settle(plain: Plain, change: Callable[[], None], credited: int) -> None:
    """One change, settled (10.1), credited to ``credited``."""
    record = {city.card: needs_met(plain, city.card, pos) for pos, city in plain.cities.items()}
    change()  # (b); a city it places is recorded at 0 (9.4)
    while True:  # (c)
        zeros = [pos for pos, city in plain.cities.items() if needs_met(plain, city.card, pos) == 0]
        if not zeros:
            break
        for pos in sorted(zeros):
            discard_city(plain, pos)
    lowered, raised = [], []
    for pos, city in sorted(plain.cities.items()):  # (d)
        now = needs_met(plain, city.card, pos)
        was = record.get(city.card, 0)
        city.satisfaction = now
        if now < was:
            lowered.append(pos)
        elif now > was:
            raised.append(pos)
    advanced = plain.level >= gr.Level.ADVANCED
    empty_at_two = advanced and plain.rules.four_need_drop is gr.FourNeedDrop.EMPTY_AT_TWO
    for pos in lowered:  # (e) 10.3, 12.4
        city = plain.cities[pos]
        at_two_after_four = city.satisfaction == 2 and city.card in plain.reached_four
        if city.satisfaction <= 1 or (empty_at_two and at_two_after_four):
            _return_pawns(plain, city)
        elif advanced and len(city.pawns) == 2:
            plain.supply[city.pawns.pop()] += 1
    wants = {pos: pawns_wanted(plain, credited, pos) for pos in raised}  # (f) 10.4, 12.5
    wants = {pos: n for pos, n in wants.items() if n > 0}
    if plain.supply[credited] >= sum(wants.values()):
        for pos, count in wants.items():
            take_city(plain, credited, pos, count)
    else:
        plain.waiting = list(wants)  # 10.5, 12.5: he chooses where his last pawns go
    for pos, city in plain.cities.items():  # 12.4: the record of four needs
        if city.satisfaction == FOUR:
            plain.reached_four.add(city.card)
        elif not city.pawns and pos not in plain.waiting:
            plain.reached_four.discard(city.card)
    _win_if_empty(plain, credited)


# -- the Powers' effects (13.4-13.8, 14.2, 14.3) -------------------------------------------------


def _replace(plain: Plain, pos: gr.Pos, new: gr.Land) -> None:
    """A tile replaced by a Power goes back to its stack (13.6)."""
    old = plain.tiles[pos]
    plain.tile_supply[old] += 1
    plain.tile_supply[new] -= 1
    plain.tiles[pos] = new


def _clear(plain: Plain, pos: gr.Pos) -> None:
    """A Lightning's or an Eruption's tile loses its city and its tokens (14.2, 14.3c)."""
    if pos in plain.cities:
        discard_city(plain, pos)
    plain.bank += plain.tokens.pop(pos, 0)


def _swap(plain: Plain, first: gr.Pos, second: gr.Pos) -> None:
    """13.7: each tile takes its tokens and its city (with pawns and record) along."""
    plain.tiles[first], plain.tiles[second] = plain.tiles[second], plain.tiles[first]
    tokens = plain.tokens.pop(first, 0), plain.tokens.pop(second, 0)
    for pos, count in ((second, tokens[0]), (first, tokens[1])):
        if count:
            plain.tokens[pos] = count
    cities = plain.cities.pop(first, None), plain.cities.pop(second, None)
    for pos, city in ((second, cities[0]), (first, cities[1])):
        if city is not None:
            plain.cities[pos] = city


def power_effect(plain: Plain, play: gr.PowerPlay) -> None:
    """The effect of a Power no one cancelled, one change credited to its player (13.3)."""
    seat = play.player
    match play:
        case gr.PlaySun(pos=pos):
            settle(plain, lambda: _replace(plain, pos, SUN[plain.tiles[pos]]), seat)
        case gr.PlayRain(pos=pos):
            settle(plain, lambda: _replace(plain, pos, RAIN[plain.tiles[pos]]), seat)
        case gr.PlayEarthquake(first=first, second=second):
            settle(plain, lambda: _swap(plain, first, second), seat)
        case gr.PlayLightning(pos=pos):
            settle(plain, lambda: _clear(plain, pos), seat)
        case gr.PlayEruption(pos=pos):

            def erupt() -> None:
                around = [n for n in neighbours(pos) if n in plain.tiles]
                for square in [pos, *around]:
                    _clear(plain, square)
                for square in around:
                    if plain.tiles[square] in SCORCHED:
                        _replace(plain, square, gr.Land.DESERT)

            settle(plain, erupt, seat)
        case gr.PlayTornado():
            pass  # the thief's NameBack decisions follow (13.8)


# -- each action ---------------------------------------------------------------------------------


def _gain(plain: Plain, seat: int, card: gr.CardId) -> None:
    plain.hands[seat].append(card)


def _to_discards(plain: Plain, card: gr.CardId) -> None:
    plain.discards.setdefault(kind_of(plain.face(card)), []).append(card)


def _draw(plain: Plain, action: gr.DrawDisplay | gr.DrawDeck) -> None:
    seat = action.player
    if isinstance(action, gr.DrawDisplay):
        kind = kind_of(plain.face(action.card))
        display, deck = plain.displays[kind], plain.decks.get(kind, [])
        # 1.13: the leftmost card face up with the face the draw names
        slot = next(i for i, c in enumerate(display) if plain.face(c) == plain.face(action.card))
        card = display[slot]
        if deck:  # 6.2: refilled at once, in the same slot
            display[slot] = deck.pop(0)
        else:
            del display[slot]
        _gain(plain, seat, card)
        return
    deck = plain.decks.get(action.kind, [])
    if deck:
        _gain(plain, seat, deck.pop(0))
    else:
        _exhaustion_end(plain, seat)  # 6.3, 15.2


def _fulfil(plain: Plain, seat: int, objective: gr.CardId) -> None:
    """8.2: discard exactly the pictured cards, those in front longest first; a pawn on it."""
    face = plain.face(objective)
    assert isinstance(face, gr.Objective)
    tableau = plain.tableaux[seat]
    taken: list[gr.CardId] = []
    if face.is_power:
        taken = plain.power_cards(tableau)[: face.powers]
    else:
        for land in dict.fromkeys(face.lands):
            same = [c for c in tableau if plain.face(c) == gr.NatureCard(land)]
            taken += same[: face.lands.count(land)]
    for card in [c for c in tableau if c in taken]:
        tableau.remove(card)
        _to_discards(plain, card)
    plain.objective_pawns[objective] = seat
    plain.supply[seat] -= 1
    _win_if_empty(plain, seat)


def tornado_pick(plain: Plain, victim: int, kind: gr.CardKind) -> gr.CardId:
    """The card the next random draw takes from ``victim``'s hand for the back ``kind``
    (13.8b, 1.6, 1.13): the ``n``-th draw since the setup reads the source seeded with the
    text ``gaia-rules/<seed>/<n>``, which picks a place below the number of cards of that
    back, counted in the order the hand received them. Counts the draw."""
    candidates = [card for card in plain.hands[victim] if kind_of(plain.face(card)) is kind]
    if not candidates:
        raise OracleError(f"13.8a: no {kind.value} card in seat {victim}'s hand")
    plain.random_draws += 1
    source = random.Random(f"gaia-rules/{plain.seed}/{plain.random_draws}")
    place = source.randrange(len(candidates))
    plain.last_draw = (len(candidates), place)
    return candidates[place]


def apply_action(
    plain: Plain,
    action: gr.Action,
    window: Window | None,
    stolen_card: gr.CardId | None = None,
) -> Window | None:
    """Carry out ``action`` on ``plain``; returns the Protection window left open, if any."""
    seat = action.player
    match action:
        case gr.DrawDisplay() | gr.DrawDeck():
            _draw(plain, action)
        case gr.PlayNature(card=card, pos=pos):
            land = plain.face(card)
            assert isinstance(land, gr.NatureCard)
            plain.hands[seat].remove(card)

            def place_tile() -> None:
                plain.tiles[pos] = land.land
                plain.tile_supply[land.land] -= 1

            settle(plain, place_tile, seat)  # 7.4
            plain.tableaux[seat].append(card)  # 7.3
        case gr.PlayAnimals(card=card, pos=pos):
            plain.hands[seat].remove(card)

            def place_tokens() -> None:
                plain.bank -= TOKENS_PER_ANIMAL_CARD
                plain.tokens[pos] = TOKENS_PER_ANIMAL_CARD

            _to_discards(plain, card)  # 9.1c
            settle(plain, place_tokens, seat)
        case gr.PlayCity(card=card, pos=pos):
            plain.hands[seat].remove(card)
            settle(plain, lambda: plain.cities.__setitem__(pos, City(card, [], 0)), seat)  # 9.4
        case gr.Feed(source=source):

            def remove_token() -> None:
                plain.tokens[source] -= 1
                if not plain.tokens[source]:
                    del plain.tokens[source]
                plain.bank += 1

            settle(plain, remove_token, seat)  # 11.3
        case gr.Discard(card=card):
            plain.hands[seat].remove(card)
            _to_discards(plain, card)  # 6.5
        case gr.FulfillObjective(objective=objective):
            _fulfil(plain, seat, objective)
        case gr.DeclineObjectives():
            pass
        case gr.PlaceCityPawn(city=pos):
            want = pawns_wanted(plain, seat, pos)
            take_city(plain, seat, pos, min(want, plain.supply[seat]))
            plain.waiting.remove(pos)
            _win_if_empty(plain, seat)
        case (
            gr.PlaySun()
            | gr.PlayRain()
            | gr.PlayEarthquake()
            | gr.PlayLightning()
            | (gr.PlayEruption() | gr.PlayTornado())
        ):
            plain.hands[seat].remove(action.card)
            plain.tableaux[seat].append(action.card)  # 13.2: in front before its effect
            asked = protection_asked(plain, seat)
            if asked:
                return Window(action, asked)
            power_effect(plain, action)
        case gr.Protect(card=card):
            plain.hands[seat].remove(card)
            plain.tableaux[seat].append(card)  # 13.9e; the effect is cancelled
            return None
        case gr.PassProtection():
            assert window is not None
            window.asked.pop(0)
            if window.asked:
                return window
            power_effect(plain, window.play)
            return None
        case gr.NameBack(victim=victim, kind=kind):
            if stolen_card is None or stolen_card not in plain.hands[victim]:
                raise OracleError(f"13.8b: {stolen_card} taken, not in seat {victim}'s hand")
            if kind_of(plain.face(stolen_card)) is not kind:
                raise OracleError(f"13.8b: {stolen_card} taken for the back {kind}")
            drawn = tornado_pick(plain, victim, kind)
            if stolen_card != drawn:
                count, place = plain.last_draw or (0, 0)
                raise OracleError(
                    f"13.8b, 1.6: draw {plain.random_draws} of the seed takes place {place} of "
                    f"the {count} {kind.value} card(s) of seat {victim}, {drawn}; the engine "
                    f"took {stolen_card}"
                )
            plain.hands[victim].remove(stolen_card)
            plain.stolen.append((stolen_card, victim))
        case gr.KeepCard(card=card):
            for other, _ in plain.stolen:  # 13.8c: keep one, discard the rest
                if other != card:
                    _to_discards(plain, other)
            plain.stolen = []
            _gain(plain, seat, card)
    return window
