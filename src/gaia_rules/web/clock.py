"""The clock per decision: what a seat that lets it run out does (spec 1.17).

With ``gaia-rules serve --clock SECONDS``, a seat a person plays has that long for each
decision it is asked for. When the time runs out, the server takes the decision for it, as
[`timed_out`][gaia_rules.web.clock.timed_out] says, through the same path as any action (it
is stored, and pushed to every seat, like the seat's own): the seat declines where it may,
and otherwise the random bot decides, from the seat's view and legal actions alone, seeded
from the game's seed, the seat and the number of actions before it.
"""

from __future__ import annotations

from gaia_rules.actions import Action, DeclineObjectives, PassProtection
from gaia_rules.bots import RandomBot
from gaia_rules.cli.common import derive_seed
from gaia_rules.game import Game

__all__ = ["DECLINES", "timed_out"]

DECLINES = (PassProtection, DeclineObjectives)
"""The decisions a seat may decline, and declines when its clock runs out (spec 1.17)."""


def timed_out(game: Game, seat: int) -> Action:
    """The decision taken for ``seat`` (to decide now in ``game``) when its clock runs out:
    a decline among its legal actions if there is one, else the random bot's choice seeded
    from the game's seed, the seat and the number of actions so far (spec 1.17)."""
    legal = list(game.legal_actions())
    for action in legal:
        if isinstance(action, DECLINES):
            return action
    seed = derive_seed(game.seed, seat, len(game.actions))
    return RandomBot(seed).choose(game.view(seat), legal)
