"""Players that choose actions for a seat: random, greedy, and a search for hidden cards.

- [`RandomBot`][gaia_rules.bots.RandomBot] chooses uniformly among the legal actions;
- [`GreedyBot`][gaia_rules.bots.greedy.GreedyBot] places pawns now, and otherwise keeps its
  options;
- [`SearchBot`][gaia_rules.bots.search.SearchBot] runs Monte Carlo playouts over games sampled
  from its view ([`determinize`][gaia_rules.determinize.determinize]);
- [`IsmctsBot`][gaia_rules.bots.ismcts.IsmctsBot] searches a tree of its seat's information
  sets over such games; ``strong`` is one at the budget
  [`STRONG`][gaia_rules.bots.ismcts.STRONG], the hardest bot of the table.

Every bot sees what its seat sees and nothing more:
[`Bot.choose`][gaia_rules.bots.Bot.choose] receives the seat's
[`View`][gaia_rules.views.View] and the legal actions, never the game itself, so a bot
cannot read another hand or the order of a deck. A bot draws every random choice from its own
seeded ``random.Random``, so a game between bots is reproducible from its seeds.

``BOTS`` names the bots the command line and the table offer: ``BOTS["greedy"](seed)`` makes
one, from the easiest to the hardest: ``random``, ``greedy``, ``search``, ``strong``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from gaia_rules.actions import Action
from gaia_rules.views import View

__all__ = ["BOTS", "Bot", "GreedyBot", "IsmctsBot", "RandomBot", "SearchBot", "strong_bot"]


class Bot(Protocol):
    """A player for one seat."""

    name: str
    """A short name for tables and summaries (``"random"``, ``"greedy"``, ...)."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (never empty): the seat's choice, knowing only ``view``."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return self._rng.choice(legal)


# imported here, after Bot and RandomBot: the bots below build on this module's names
from gaia_rules.bots.greedy import GreedyBot  # noqa: E402
from gaia_rules.bots.ismcts import IsmctsBot, strong_bot  # noqa: E402
from gaia_rules.bots.search import SearchBot  # noqa: E402

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
    "strong": strong_bot,
}
"""The bots by name, each made from a seed."""
