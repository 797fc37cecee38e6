"""Gaïa as an OpenSpiel game (the ``openspiel`` extra): importing this registers ``python_gaia``.

    import pyspiel
    import gaia_rules.openspiel  # registers python_gaia

    game = pyspiel.load_game("python_gaia", {"players": 3, "level": "advanced"})

Parameters: ``players`` (2-5, default 2) and ``level`` (``basic``, ``advanced``, ``powers``,
``disasters``; default ``basic``).

**Chance is explicit.** Every random outcome of Gaïa is a card turned up or taken blind: each
card of the deal (spec 4.2-4.5), each draw from a deck and each refilled display slot (6.1,
6.2), each card a Tornado takes (13.8b). Each is a chance node, before the card is used, whose
outcomes are the *faces* the card can have, each with the share of its copies among the cards
it comes from ([`gaia_rules.openspiel.chance`][gaia_rules.openspiel.chance]): copies of one
face are one card (1.11). A player's action that draws waits until chance has decided its
cards. So a state never holds a card before it is drawn: a clone, which a perfect-information
searcher such as OpenSpiel's ``MCTSBot`` plays on, holds the hands as they are (as every
OpenSpiel game of hidden cards does) but not the order of any deck, and its chance nodes are
sampled afresh.

**Actions** are the indices of [`gaia_rules.rl.encoding`][gaia_rules.rl.encoding] (194,321
distinct actions); ``action_to_string`` says what each means. Copies of one face are one choice
(spec 1.12), so a decision lists each choice once.

**Observations** are built from the seat's information-set key
([`Game.information_set`][gaia_rules.game.Game.information_set], spec 1.16), so two games that
differ only in which copies of a face are where look the same to a seat, strings and tensors
alike. The observers honour ``IIGObservationType`` (public information, the seat's private
information, perfect recall; an observer of every seat's private information is not provided):
see [`gaia_rules.openspiel.observer`][gaia_rules.openspiel.observer]. The information state
string is the key's canonical JSON; the information state tensor is the view's pieces and the
history of every move the seat saw, written into numpy buffers.

**Saving**: a state pickles as the moves that made it, and ``pyspiel.serialize_game_and_state``
reads it back, at every level and player count (``pyspiel.random_sim_test(...,
serialize=True)`` passes).

**Resampling** (for IS-MCTS): ``resample_from_infostate`` deals the cards hidden from the seat
afresh with [`determinize`][gaia_rules.determinize.determinize]. The resampled state shows the
seat its own information state; every other seat is told there what no seat in particular was
told before, then what it is told in the sample. A resampled state has no history, so it cannot
be saved.
"""

from gaia_rules.openspiel.game import GAME_TYPE, GaiaGame, GaiaState
from gaia_rules.openspiel.observer import GaiaObserver

__all__ = ["GAME_TYPE", "GaiaGame", "GaiaObserver", "GaiaState"]
