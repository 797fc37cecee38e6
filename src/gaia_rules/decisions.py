"""Decisions: what the player to move is deciding now (spec 5.4).

At every moment of a game that is not over exactly one decision is pending, and it names
the seat that takes it. The engine keeps the pending decisions on a stack (the game's
flow); the top one is ``game.decision``.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from gaia_rules.vocabulary import Pos

__all__ = [
    "ChooseAction",
    "ChooseFeeding",
    "ChooseLimitDiscard",
    "ChooseObjective",
    "ChoosePawnCities",
    "Decision",
]


@attrs.frozen
class ChooseAction:
    """The turn's next action, a draw or a play: ``number`` is 1 or 2 (spec 5.2)."""

    player: int
    number: int


@attrs.frozen
class ChooseFeeding:
    """Which city to feed next, and from which neighbour (spec 11.3).

    ``cities`` are the cities still to be fed this turn, fixed when the feeding began.
    """

    player: int
    cities: tuple[Pos, ...]


@attrs.frozen
class ChooseLimitDiscard:
    """Which card to discard after gaining one over the hand or Power limit (spec 6.5)."""

    player: int


@attrs.frozen
class ChooseObjective:
    """Which Objective to fulfil (spec 8.4); with optional Objectives, whether to."""

    player: int


@attrs.frozen
class ChoosePawnCities:
    """Where a player's last pawns go among the cities he raised (spec 10.5)."""

    player: int
    cities: tuple[Pos, ...]


Decision: TypeAlias = (
    ChooseAction | ChooseFeeding | ChooseLimitDiscard | ChooseObjective | ChoosePawnCities
)
"""Any decision."""


@attrs.frozen
class BeginTurn:
    """Not a decision: the engine's own step that begins a seat's turn (spec 5.1, 11.1)."""

    player: int


Step: TypeAlias = Decision | BeginTurn
"""What the flow's stack holds: the pending decisions, and turns about to begin."""
