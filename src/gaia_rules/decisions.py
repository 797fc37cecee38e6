"""Decisions: what the player to move is deciding now (spec 5.4).

At every moment of a game that is not over exactly one decision is pending, and it names
the seat that takes it. The engine keeps the pending decisions on a stack (the game's
flow); the top one is ``game.decision``.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from gaia_rules.actions import PowerPlay
from gaia_rules.cards import CardId
from gaia_rules.vocabulary import Pos
from gaia_rules.wire import Wire

__all__ = [
    "BeginTurn",
    "ChooseAction",
    "ChooseBack",
    "ChooseFeeding",
    "ChooseKeptCard",
    "ChooseLimitDiscard",
    "ChooseObjective",
    "ChoosePawnCities",
    "ChooseProtection",
    "Decision",
    "PowerEffect",
    "Step",
]


@attrs.frozen
class ChooseAction(Wire):
    """The turn's next action, a draw or a play: ``number`` is 1 or 2 (spec 5.2)."""

    player: int
    number: int


@attrs.frozen
class ChooseFeeding(Wire):
    """Which city to feed next, and from which neighbour (spec 11.3).

    ``cities`` are the cities still to be fed this turn, fixed when the feeding began.
    """

    player: int
    cities: tuple[Pos, ...]


@attrs.frozen
class ChooseLimitDiscard(Wire):
    """Which card to discard after gaining one over the hand or Power limit (spec 6.5)."""

    player: int


@attrs.frozen
class ChooseObjective(Wire):
    """Which Objective to fulfil (spec 8.4); with optional Objectives, whether to."""

    player: int


@attrs.frozen
class ChoosePawnCities(Wire):
    """Where a player's last pawns go among the cities he raised (spec 10.5)."""

    player: int
    cities: tuple[Pos, ...]


@attrs.frozen
class ChooseProtection(Wire):
    """Whether to play Protection against the Power card ``against`` just played by
    ``power_player`` (spec 13.9b). ``later`` are the seats to be asked after this one.

    Asked of every other seat holding a Power card, even one that can only pass: being
    asked must reveal nothing (13.9c), so the engine never answers it alone.
    """

    player: int
    power_player: int
    against: CardId
    later: tuple[int, ...]


@attrs.frozen
class ChooseBack(Wire):
    """Which back of ``victim``'s hand the Tornado takes a card from (spec 13.8a)."""

    player: int
    victim: int
    later: tuple[int, ...]


@attrs.frozen
class ChooseKeptCard(Wire):
    """Which stolen card to keep (spec 13.8c). The stolen cards are in the table's
    ``stolen`` place, seen by the thief only; a decision never carries a hidden card."""

    player: int


Decision: TypeAlias = (
    ChooseAction
    | ChooseFeeding
    | ChooseLimitDiscard
    | ChooseObjective
    | ChoosePawnCities
    | ChooseProtection
    | ChooseBack
    | ChooseKeptCard
)
"""Any decision."""


@attrs.frozen
class BeginTurn(Wire):
    """Not a decision: the engine's own step that begins a seat's turn (spec 5.1, 11.1)."""

    player: int


@attrs.frozen
class PowerEffect(Wire):
    """Not a decision: the effect of a Power card, waiting under its Protection window
    (spec 13.3). It is removed when a Protection cancels it."""

    action: PowerPlay


Step: TypeAlias = Decision | BeginTurn | PowerEffect
"""What the flow's stack holds: the pending decisions, turns about to begin, and Power
effects waiting for their Protection window. Every step follows from public plays, so a
seat's view shows them all (spec 1.5)."""
