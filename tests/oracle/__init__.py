"""An independent oracle for the engine, the "perft" of gaia-rules.

A second, deliberately plain implementation of two questions, written from ``spec/`` and
reading only the public ``GameState`` (``game.state``), the ``Rules`` and the card faces of
the manifest; it never calls the engine's rule modules:

- what is legal now, for every kind of decision (:func:`tests.oracle.legal.legal_actions`);
- what an action does to the tiles, tokens, cities and their pawns, the cards and the pawn
  supplies (:mod:`tests.oracle.effects`), its changes settled by the oracle's own reading of
  section 10, a Tornado's card drawn again from the seed (13.8b, 1.6).

What it cannot see it checks by replaying states: games sampled from a seat's view
(:mod:`tests.oracle.chance`, 1.8). Rare situations are built as positions and played from
(:mod:`tests.oracle.rare`), and every step is tallied by the clauses it exercised
(:mod:`tests.oracle.coverage`).

:class:`tests.oracle.follow.Follower` plays a game beside the engine and compares the two
at every decision and after every action. It is a test-support package, not shipped in
the wheel.
"""

from tests.oracle.follow import EFFECT, FLOW, LEGAL, SAMPLE, Disagreement, Follower, follow_game
from tests.oracle.legal import legal_actions
from tests.oracle.model import Plain, plain_of

__all__ = [
    "EFFECT",
    "FLOW",
    "LEGAL",
    "SAMPLE",
    "Disagreement",
    "Follower",
    "Plain",
    "follow_game",
    "legal_actions",
    "plain_of",
]
