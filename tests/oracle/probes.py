"""Actions near the legal ones, to ask the engine whether it would take them (spec 1.7).

Comparing the engine's list with the oracle's shows what the engine offers; an engine can
also take an action it does not offer, when its check of an action it is handed is not the
rule it lists by. So the oracle also hands the engine actions that are almost legal, and
checks that ``is_legal`` takes exactly those the oracle allows: each card in the mover's hand
on every square around the world (diagonals and holes included), every pair of squares an
Earthquake could name around it, every feeding and pawn around the cities, every card of a
hand to discard or keep, every back of every seat.
"""

from __future__ import annotations

import gaia_rules as gr
from tests.oracle.model import Plain

__all__ = ["probe_actions"]

_AROUND = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
"""The eight squares around a square: its neighbours and its diagonals."""


def _ring(plain: Plain) -> list[gr.Pos]:
    """Every tile, and every square touching one at an edge or a corner; (0, 0) and its
    ring when the world is empty."""
    tiles = set(plain.tiles) or {gr.Pos(0, 0)}
    found = set(tiles)
    for x, y in tiles:
        found.update(gr.Pos(x + dx, y + dy) for dx, dy in _AROUND)
    return sorted(found)


def _turn_probes(plain: Plain, seat: int) -> list[gr.Action]:
    ring = _ring(plain)
    probes: list[gr.Action] = []
    faces: dict[object, gr.CardId] = {}
    for card in plain.hands[seat]:
        faces.setdefault(plain.face(card), card)  # one card of each face: copies are alike
    for face, card in faces.items():
        match face:
            case gr.NatureCard():
                probes += [gr.PlayNature(seat, card, pos) for pos in ring]
            case gr.CityCard():
                probes += [gr.PlayCity(seat, card, pos) for pos in ring]
            case gr.AnimalCard():
                probes += [gr.PlayAnimals(seat, card, pos) for pos in ring]
            case gr.PowerCard(power=gr.Power.EARTHQUAKE):
                probes += [
                    gr.PlayEarthquake(seat, card, pos, gr.Pos(pos.x + dx, pos.y + dy))
                    for pos in plain.tiles
                    for dx, dy in _AROUND
                ]
            case gr.PowerCard(power=gr.Power.TORNADO | gr.Power.PROTECTION):
                probes += [gr.PlayTornado(seat, card)]
            case gr.PowerCard():
                plays = (gr.PlaySun, gr.PlayRain, gr.PlayLightning, gr.PlayEruption)
                probes += [play(seat, card, pos) for play in plays for pos in ring]
    shown = [card for display in plain.displays.values() for card in display]
    probes += [gr.DrawDisplay(seat, card) for card in shown]
    probes += [gr.DrawDeck(seat, kind) for kind in gr.CardKind]
    return probes


def probe_actions(plain: Plain, decision: gr.Decision) -> list[gr.Action]:
    """Actions for ``decision`` near the legal ones (see the module docstring)."""
    seat = decision.player
    match decision:
        case gr.ChooseAction():
            return _turn_probes(plain, seat)
        case gr.ChooseFeeding():
            return [
                gr.Feed(seat, city, gr.Pos(city.x + dx, city.y + dy))
                for city in plain.cities
                for dx, dy in _AROUND
            ]
        case gr.ChoosePawnCities():
            return [gr.PlaceCityPawn(seat, pos) for pos in _ring(plain)]
        case gr.ChooseLimitDiscard():
            return [gr.Discard(seat, card) for hand in plain.hands for card in hand]
        case gr.ChooseObjective():
            return [
                *(gr.FulfillObjective(seat, objective) for objective in plain.objectives),
                gr.DeclineObjectives(seat),
            ]
        case gr.ChooseProtection():
            return [
                *(gr.Protect(seat, card) for hand in plain.hands for card in hand),
                gr.PassProtection(seat),
            ]
        case gr.ChooseBack():
            return [
                gr.NameBack(seat, victim, kind)
                for victim in range(plain.players)
                for kind in gr.CardKind
            ]
        case gr.ChooseKeptCard():
            cards = [card for hand in plain.hands for card in hand]
            return [gr.KeepCard(seat, card) for card in [*cards, *(c for c, _ in plain.stolen)]]
    raise AssertionError(f"no such decision: {decision!r}")
