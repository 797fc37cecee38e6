"""Gaïa as an OpenSpiel game (the ``openspiel`` extra): importing this registers ``python_gaia``.

    import pyspiel
    import gaia_rules.openspiel  # registers python_gaia

    game = pyspiel.load_game("python_gaia", {"players": 3, "level": "advanced"})

Parameters: ``players`` (2-5, default 2), ``level`` (``basic``, ``advanced``, ``powers``,
``disasters``; default ``basic``) and ``rng_seed`` (default 0), the seed of the game's own
random source.

**Chance.** Every random choice of a game of Gaïa flows from its seed (spec 1.6): the deal, and
later the card a Tornado takes. The game is therefore *sampled stochastic*, as OpenSpiel's
negotiation is: the first state is a chance node with a single outcome, and applying it deals a
game with a seed drawn from the game object's random source (seeded by ``rng_seed``, so a
sequence of games repeats). The shuffles are not spelled out as explicit chance nodes, which
would mean one node per card drawn and a deck order the engine keeps to itself.

**Actions** are the indices of [`gaia_rules.rl.encoding`][gaia_rules.rl.encoding]
(194,321 distinct actions); ``action_to_string`` says what each means.

**Observations** are built from the seat's [`View`][gaia_rules.views.View]: the observation
string is the view's JSON, the tensor the array of
[`gaia_rules.rl.observation`][gaia_rules.rl.observation] (as float32). The information state
string adds perfect recall: the game's log as the seat saw it
([`Game.events_for`][gaia_rules.game.Game.events_for]). The information state tensor is the
view's tensor: the view holds everything a seat may know of the present, but not the order of
the past.

**Resampling** (for IS-MCTS): ``resample_from_infostate`` deals the cards hidden from the seat
afresh with [`determinize`][gaia_rules.determinize.determinize]. A resampled state has no
history: its information state strings start from the real state's log as the resampling seat
saw it, and it cannot be serialized.
"""

from __future__ import annotations

from gaia_rules.openspiel.game import GAME_TYPE, GaiaGame, GaiaObserver, GaiaState

__all__ = ["GAME_TYPE", "GaiaGame", "GaiaObserver", "GaiaState"]
