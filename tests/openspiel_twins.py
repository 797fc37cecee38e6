"""OpenSpiel states around given games, and every observer the game offers, for the twin
tests (``tests/test_twins.py``)."""

from __future__ import annotations

from typing import Any

import pyspiel

import gaia_rules as gr
import gaia_rules.openspiel  # registers python_gaia
from gaia_rules.openspiel import GaiaState

OBSERVATION_TYPES = [
    pyspiel.IIGObservationType(public_info=public, perfect_recall=recall, private_info=private)
    for public in (True, False)
    for recall in (False, True)
    for private in (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE)
]
"""Every observation type the game provides (all but every seat's private information)."""


def state_of(game: Any, held: gr.Game) -> GaiaState:
    """A state of ``game`` (``python_gaia``) playing ``held`` from where it is."""
    return GaiaState.from_game(game, held)


def observers(game: Any) -> list[Any]:
    """An observer of each type the game provides."""
    return [game.make_py_observer(obs_type) for obs_type in OBSERVATION_TYPES]
