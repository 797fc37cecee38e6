"""Objectives: checking, fulfilling and declining them (spec 8)."""

from __future__ import annotations

from collections import Counter
from typing import Final

from gaia_rules.actions import Action, DeclineObjectives, FulfillObjective
from gaia_rules.cards import CardId, Face, NatureCard, Objective, PowerCard
from gaia_rules.decisions import ChooseObjective
from gaia_rules.drawing import power_cards
from gaia_rules.ending import win_if_supply_empty
from gaia_rules.events import ObjectiveFulfilled
from gaia_rules.refusal import Refusal
from gaia_rules.rules import Objectives
from gaia_rules.setup import MAX_PLAYERS
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Land

__all__ = ["check_objectives", "fulfil", "objective_options", "pictured_cards", "refuse_objective"]

# hot path: members as module constants (see `gaia_rules.vocabulary`)
_OPTIONAL: Final = Objectives.OPTIONAL
_NATURE: Final = CardKind.NATURE
_POWER: Final = CardKind.POWER


def available(table: Table) -> list[CardId]:
    """The revealed Objectives that carry no pawn (spec 3.9)."""
    return [o for o in table.objectives if o not in table.objective_pawns]


_CHECKS: Final = tuple(ChooseObjective(seat) for seat in range(MAX_PLAYERS))
"""Hot path: an Objective check follows every Nature card played, and the step is an
immutable value, so one instance per seat serves every check of every game."""


def check_objectives(table: Table, player: int) -> None:
    """Make an Objective check for ``player`` the next step (spec 8.3)."""
    table.steps.append(_CHECKS[player])


def pictured_cards(table: Table, player: int, objective: CardId) -> tuple[CardId, ...] | None:
    """The cards in front of ``player`` that fulfil ``objective``, or ``None`` (spec 8.1).

    For each pictured land, the earliest played Nature card of that land; for a Power
    Objective, the four earliest played Power cards.
    """
    face = table.cards.face(objective)
    assert isinstance(face, Objective)
    return _pictured(table, player, face)


def _pictured(table: Table, player: int, face: Objective) -> tuple[CardId, ...] | None:
    tableau = table.tableaux[player]
    if face.is_power:
        powers = power_cards(tableau)
        return tuple(powers[: face.powers]) if len(powers) >= face.powers else None
    wanted = list(face.lands)
    chosen: list[CardId] = []
    lands = table.cards._lands  # the manifest's own dict (`Manifest.land` without the call)
    for card in tableau:
        land = lands.get(card)
        if land in wanted:
            wanted.remove(land)
            chosen.append(card)
            if not wanted:
                return tuple(chosen)
    return None


def _fulfillable(table: Table, player: int) -> list[CardId]:
    """The available Objectives the cards in front of ``player`` fulfil (spec 8.1).

    Hot path: the Objectives are checked after every Nature card played; one that pictures
    more cards (2.6) than lie in front of the player cannot be fulfilled, and is not looked
    at further.
    """
    in_front = table.tableaux[player]
    lands: list[Land | None] | None = None  # of the cards in front, read once if needed
    fulfillable: list[CardId] = []
    pictured = _pictured_by(table.cards._faces)
    lands_of = table.cards._lands  # the manifest's own dict (`Manifest.land` without the call)
    for objective in available(table):
        count, powers, wanted = pictured[objective]
        if count > len(in_front):
            continue
        if powers:  # a Power Objective
            met = len(power_cards(in_front)) >= powers
        else:
            if lands is None:
                lands = [lands_of.get(card) for card in in_front]
            met = _all_among(wanted, lands)
        if met:
            fulfillable.append(objective)
    return fulfillable


_Pictures = dict[CardId, tuple[int, int, tuple[Land, ...]]]
"""What each Objective pictures (2.6): how many cards, how many of them Power cards, and the
lands of the Nature cards."""


class _Known:
    """What the Objectives of one manifest picture, and the faces it was read from."""

    __slots__ = ("faces", "pictures")

    def __init__(self) -> None:
        self.faces: object = None
        self.pictures: _Pictures = {}


_KNOWN: Final = _Known()


def _pictured_by(faces: dict[CardId, Face]) -> _Pictures:
    """What each Objective among ``faces`` (a manifest's) pictures. Hot path: read from the
    faces once per manifest, where the check read each face's fields at every Nature card
    played (an attribute look-up each, compiled: the faces are interpreted classes)."""
    known = _KNOWN
    if known.faces is not faces:
        known.pictures = {
            card: (len(face.lands) + face.powers, face.powers, face.lands)
            for card, face in faces.items()
            if isinstance(face, Objective)
        }
        known.faces = faces
    return known.pictures


def _all_among(wanted: tuple[Land, ...], lands: list[Land | None]) -> bool:
    """Whether ``lands`` holds every land of ``wanted``, as many times as it is wanted: the
    test :func:`pictured_cards` makes, without picking the cards. Hot path: asking
    ``pictured_cards`` here instead measured 3% more per decision."""
    left = lands.copy()
    for land in wanted:
        if land not in left:
            return False
        left.remove(land)
    return True


def _all_together(table: Table, player: int, objectives: list[CardId]) -> bool:
    """Whether the cards in front suffice for all of these Objectives at once."""
    lands: Counter[object] = Counter()
    powers = 0
    for objective in objectives:
        face = table.cards.face(objective)
        assert isinstance(face, Objective)
        lands.update(face.lands)
        powers += face.powers
    have: Counter[object] = Counter()
    held_powers = 0
    for card in table.tableaux[player]:
        face = table.cards.face(card)
        if isinstance(face, NatureCard):
            have[face.land] += 1
        elif isinstance(face, PowerCard):
            held_powers += 1
    return not (lands - have) and held_powers >= powers


def objective_options(table: Table, decision: ChooseObjective) -> list[Action]:
    """What the player may do at an Objective check (spec 8.4).

    Mandatory: fulfil one of the fulfillable Objectives; when all of them can be fulfilled
    together the order changes nothing, so only the first is offered (and the engine takes
    it). Optional: fulfil one, or decline them all.
    """
    player = decision.player
    fulfillable = _fulfillable(table, player)
    if not fulfillable:
        return []
    if table.rules.objectives is _OPTIONAL:
        options: list[Action] = [FulfillObjective(player, o) for o in fulfillable]
        return [*options, DeclineObjectives(player)]
    if _all_together(table, player, fulfillable):
        return [FulfillObjective(player, fulfillable[0])]
    return [FulfillObjective(player, o) for o in fulfillable]


def refuse_objective(
    table: Table, decision: ChooseObjective, action: FulfillObjective | DeclineObjectives
) -> Refusal | None:
    """Why an Objective choice is not legal now, or ``None`` (spec 8.1, 8.4)."""
    if isinstance(action, DeclineObjectives):
        if table.rules.objectives is not Objectives.OPTIONAL:
            return Refusal("8.4", "Objectives are mandatory under these rules")
        return None
    if action.objective not in available(table):
        return Refusal("8.1", f"{action.objective!r} is not an available Objective")
    if pictured_cards(table, action.player, action.objective) is None:
        return Refusal("8.1", f"the cards in front do not fulfil {action.objective}")
    if action not in objective_options(table, decision):
        return Refusal("8.4", "fulfil the Objectives in the order offered")
    return None


def fulfil(table: Table, action: FulfillObjective) -> None:
    """Discard the pictured cards, put a pawn on the Objective; check again (spec 8.2)."""
    player, objective = action.player, action.objective
    cards = pictured_cards(table, player, objective)
    assert cards is not None
    tableau = list(table.tableaux[player])
    for card in cards:
        tableau.remove(card)
        kind = _NATURE if card[0] == "N" else _POWER
        table.discard(kind, card)
    table.set_tableau(player, tuple(tableau))
    table.supply[player] -= 1
    table.objective_pawns[objective] = player
    table.emit(ObjectiveFulfilled(player, objective, cards))
    if not win_if_supply_empty(table, player):
        check_objectives(table, player)
