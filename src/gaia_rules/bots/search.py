"""``SearchBot``: Monte Carlo search over the games its view allows.

A seat does not know the other hands or the order of the decks, so the bot does not search
one game: every playout starts from a fresh sample of the hidden cards consistent with its
view (a [`Determinizer`][gaia_rules.determinize.Determinizer]), so no playout knows more
than the seat does (determinized, or "information set", Monte Carlo). Within a budget of
``playouts``:

1. the candidates are the ``width`` legal actions that
   [`greedy_scores`][gaia_rules.bots.greedy.greedy_scores] ranks best in one sample (all
   of them when there are fewer): a playout spent on an action that gives pawns away is
   rarely worth it;
2. each playout picks a candidate by UCB1 (each candidate once, then the one whose mean
   plus exploration bonus is highest), samples a game, applies the candidate there, and
   lets every seat play uniformly random legal actions for ``horizon`` more decisions;
3. a playout is worth 1 if the seat has won, 0 if another seat has, and otherwise its pawn
   lead: ``0.5 + (own pawns placed - most placed by another seat) / (2 * pawns per seat)``.

The candidate with the best mean is chosen (the most visited among equals).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from gaia_rules.actions import Action
from gaia_rules.bots.greedy import greedy_scores
from gaia_rules.determinize import Determinizer
from gaia_rules.game import Game
from gaia_rules.playouts import bandit_playouts, seat_values
from gaia_rules.views import View

__all__ = ["SearchBot", "as_sampled", "greedy_candidates"]

EXPLORATION = math.sqrt(2)
"""The UCB1 exploration constant."""


class SearchBot:
    """Monte Carlo search over sampled games (see the module docstring).

    Args:
        seed: Seeds the bot's own generator: the samples, the playouts and its ties.
        playouts: The budget: playouts per decision (a decision with one legal action
            costs none).
        horizon: How many decisions a playout runs after the candidate before it is
            scored, unless the game ends first.
        width: How many of the greedy-best legal actions are searched.
    """

    name = "search"

    def __init__(
        self, seed: int = 0, playouts: int = 100, horizon: int = 8, width: int = 8
    ) -> None:
        if playouts < 1 or horizon < 0 or width < 1:
            raise ValueError("playouts and width must be at least 1, horizon at least 0")
        self._rng = random.Random(seed)
        self.playouts = playouts
        self.horizon = horizon
        self.width = width

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The candidate with the best mean playout value (see the module docstring)."""
        if len(legal) == 1:
            return legal[0]
        rng = self._rng
        sampler = Determinizer(view)
        candidates = greedy_candidates(sampler, view.seat, legal, self.width, rng)
        if len(candidates) == 1:
            return candidates[0]
        played = as_sampled(sampler, candidates)
        totals, visits = bandit_playouts(
            sampler.sample,
            played,
            seat=view.seat,
            rng=rng,
            playouts=self.playouts,
            horizon=self.horizon,
            exploration=EXPLORATION,
        )
        best = max(
            range(len(candidates)),
            key=lambda i: (totals[i] / visits[i] if visits[i] else -1.0, visits[i]),
        )
        return candidates[best]


def greedy_candidates(
    sampler: Determinizer, seat: int, legal: Sequence[Action], width: int, rng: random.Random
) -> list[Action]:
    """The ``width`` legal actions [`greedy_scores`][gaia_rules.bots.greedy.greedy_scores]
    ranks best for ``seat`` in one game ``sampler`` draws with ``rng`` (all of ``legal``
    when there are no more), the best first; equal scores in a random order of ``rng``, so
    that the cut does not favour the list's order."""
    if len(legal) <= width:
        return list(legal)
    scores = greedy_scores(sampler.sample(rng), seat, legal)
    ranked = sorted(
        zip(scores, legal, strict=True),
        key=lambda pair: (pair[0], rng.random()),
        reverse=True,
    )
    return [action for _, action in ranked[:width]]


def as_sampled(sampler: Determinizer, actions: Sequence[Action]) -> list[Action]:
    """Each of ``actions`` as the samples of ``sampler`` hold it among their legal actions
    (see [`Determinizer.legal_actions`][gaia_rules.determinize.Determinizer.legal_actions]):
    an equal action, which each sample takes without checking it again. An action that list
    does not hold is kept as it is (a sample checks it)."""
    shared = {action: action for action in sampler.legal_actions()}
    return [shared.get(action, action) for action in actions]


def playout_value(game: Game, seat: int) -> float:
    """The worth of ``game`` to ``seat``, from 0 (lost) to 1 (won): a game not over is worth
    ``0.5`` plus half the seat's pawn lead over the best other seat, as a share of a seat's
    pawns."""
    return seat_values(game)[seat]
