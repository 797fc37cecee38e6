"""``IsmctsBot``: information-set Monte Carlo tree search, the hardest bot that ships.

A seat does not know the other hands nor the order of the decks, so the bot cannot search
the game's tree. It searches the tree of what it will be told instead (single-observer
information-set MCTS, Cowling, Powley and Whitehouse, 2012). Each iteration:

1. samples a game consistent with the seat's view
   ([`Determinizer`][gaia_rules.determinize.Determinizer]): the hidden cards dealt afresh,
   so no iteration knows more than the seat does;
2. walks down the tree in that game. A node is an information set of the searching seat:
   the key it was given at the root ([`InformationSet`][gaia_rules.information.InformationSet],
   spec 1.16) extended by the events it was told since
   (``gaia_rules.information.keyed_events``). Every sampled game starts from
   the root's view with an empty log, so within one search the log since the root names the
   key: two sampled games that differ only in what the seat cannot see reach the same node,
   and a node never splits on a hidden card. At each node the seat to move (the searcher or
   another) picks, among the actions legal in this sample, the one with the best UCB score
   for itself, its exploration counted over the iterations in which the action was
   available (an opponent's legal actions change with its sampled hand); an action is named
   by its card's face (spec 1.11), so copies of one face in sampled hands are one choice;
3. adds the first node it reaches that is not in the tree, then plays on for ``horizon``
   decisions with a cheap policy: an action that places a pawn at once
   ([`PlaceCityPawn`][gaia_rules.actions.PlaceCityPawn],
   [`FulfillObjective`][gaia_rules.actions.FulfillObjective]) when there is one, else a
   uniformly random one. Only a city's pawns and an Objective's decisions offer such an
   action, so at every other decision the random one is read from the lazy legal list
   without building the others;
4. scores the game reached for every seat as
   [`playout_value`][gaia_rules.bots.search.playout_value] does (1 won, 0 lost, otherwise
   the pawn lead) and adds each seat's score to the statistics of the
   actions that seat chose on the way down.

A root action that wins the game at once is played without a search (a playout scores a
win in a few decisions as it scores a win now). Otherwise, at the root only the ``width``
legal actions that
[`greedy_scores`][gaia_rules.bots.greedy.greedy_scores] ranks best in one sample are
searched, as [`SearchBot`][gaia_rules.bots.search.SearchBot] does. After ``iterations``
iterations the most visited root action is chosen (the better mean among equals). The
budget is a number of iterations, not a time, so the bot chooses the same action from the
same view and seed on every machine. ``cap`` bounds a decision's time all the same: the
search stops early when the thread has spent that many seconds of CPU time on it, which
other work on the machine does not count against it; at the budget of ``strong`` a
decision takes about a quarter of a second on average and its slowest at most 0.6 s on a
two-core machine of today (``benchmarks/strong_strength.py``), so the cap is a guard for a
slower machine, and only there do choices depend on speed.

The budget of ``strong`` spends its iterations on long playouts (32 decisions) rather than
many iterations: a playout of 8 decisions often ends with the same pawns on the table, and
scores about one half whatever the root action prepared (``benchmarks/playout_reach.py``);
at the same cost, 32 won seven games of ten against ``SearchBot`` where 8 won six (the guide
to bots gives the runs).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from gaia_rules.actions import Action
from gaia_rules.bots.search import as_sampled, greedy_candidates
from gaia_rules.cards import CardId
from gaia_rules.chance import below
from gaia_rules.determinize import Determinizer
from gaia_rules.game import Game
from gaia_rules.information import keyed_events
from gaia_rules.playouts import carry_out, play_out, seat_values
from gaia_rules.views import View

__all__ = ["STRONG", "IsmctsBot", "strong_bot", "values"]

EXPLORATION = 0.7
"""The UCB exploration constant (values lie between 0 and 1)."""

STRONG: Mapping[str, int] = {"iterations": 300, "horizon": 32, "width": 8}
"""The budget of ``strong``, the command line's and the table's hardest bot:
``ismcts:300:32:8``."""

CAP = 1.0
"""The seconds of CPU time a decision may take at most, whatever its budget."""


def _cpu_time() -> float:
    """The seconds of processor time this thread has used, so that other load on the machine
    does not count against the cap; where the platform keeps no clock per thread (Python in
    WebAssembly, as the docs site's table runs it), the process's, which is the same there."""
    clock = getattr(time, "thread_time", None)
    return float(clock()) if clock is not None else time.process_time()


def strong_bot(seed: int = 0) -> IsmctsBot:
    """``strong``: an [`IsmctsBot`][gaia_rules.bots.ismcts.IsmctsBot] at the budget
    [`STRONG`][gaia_rules.bots.ismcts.STRONG], named ``"strong"``; the same player as
    ``ismcts:300:32:8`` on the command line."""
    return IsmctsBot(seed, STRONG["iterations"], STRONG["horizon"], STRONG["width"], name="strong")


class _Node:
    """The statistics of one information set of the searcher: per action (named by its
    face), the visits, the iterations it was legal in, and the sum of the mover's scores."""

    __slots__ = ("available", "totals", "visits")

    def __init__(self) -> None:
        self.visits: dict[Any, int] = {}
        self.available: dict[Any, int] = {}
        self.totals: dict[Any, float] = {}


class IsmctsBot:
    """Information-set Monte Carlo tree search (see the module docstring).

    Args:
        seed: Seeds the bot's own generator: the samples, the playouts and its ties.
        iterations: The budget: iterations per decision (a decision with one legal action
            costs none).
        horizon: How many decisions a playout runs after the tree, unless the game ends.
        width: How many of the greedy-best legal actions are searched at the root.
        cap: The most seconds of the thread's CPU time a decision may take: the search
            stops there, even short of its budget (``None``: no cap).
    """

    name: str
    """``"ismcts"``, or ``"strong"`` for [`strong_bot`][gaia_rules.bots.ismcts.strong_bot]'s."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int = STRONG["iterations"],
        horizon: int = STRONG["horizon"],
        width: int = STRONG["width"],
        *,
        cap: float | None = CAP,
        name: str = "ismcts",
    ) -> None:
        if iterations < 1 or horizon < 0 or width < 1:
            raise ValueError("iterations and width must be at least 1, horizon at least 0")
        self.name = name
        self._rng = random.Random(seed)
        self.iterations = iterations
        self.cap = cap
        self.horizon = horizon
        self.width = width

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The most visited root action after the search (see the module docstring)."""
        if len(legal) == 1:
            return legal[0]
        rng = self._rng
        seat = view.seat
        sampler = Determinizer(view)
        face_ids = view.rules.cards.face_ids
        candidates = greedy_candidates(sampler, seat, legal, self.width, rng)
        if len(candidates) == 1:
            return candidates[0]
        playable = as_sampled(sampler, candidates)
        sample = sampler.sample(rng)
        for action, taken in zip(candidates, playable, strict=True):
            after = sample.copy()
            after.apply(taken)
            result = after.result
            if result is not None and result.winner == seat:
                return action
        names: dict[Action, Any] = {}
        root = _Node()
        tree: dict[tuple[Any, ...], _Node] = {}
        deadline = None if self.cap is None else _cpu_time() + self.cap
        for done in range(self.iterations):
            if deadline is not None and done % 16 == 15 and _cpu_time() > deadline:
                break
            game = sampler.sample(rng)
            path: list[tuple[_Node, int, Any]] = []
            node: _Node | None = root
            moves: Sequence[Action] = playable
            while node is not None and not game.is_over:
                mover = game.to_move
                assert mover is not None
                action, name = _select(node, moves, names, face_ids, rng)
                path.append((node, mover, name))
                carry_out(game, action)
                if game.is_over:
                    break
                key = keyed_events(game, seat)
                found = tree.get(key)
                if found is None:
                    tree[key] = _Node()  # the new leaf: the playout starts here
                    node = None
                else:
                    node = found
                    moves = game.legal_actions()
            scores = self._playout(game)
            for visited, mover, name in path:
                visited.visits[name] = visited.visits.get(name, 0) + 1
                visited.totals[name] = visited.totals.get(name, 0.0) + scores[mover]
        best = max(
            range(len(candidates)),
            key=lambda i: _rank(root, names.get(candidates[i])),
        )
        return candidates[best]

    def _playout(self, game: Game) -> list[float]:
        """Pawn-first play for ``horizon`` decisions after the tree, then the value of the
        game to each seat."""
        play_out(game, self._rng, self.horizon, pawns_first=True)
        return values(game)


def _select(
    node: _Node,
    moves: Sequence[Action],
    names: dict[Action, Any],
    face_ids: Mapping[CardId, CardId],
    rng: random.Random,
) -> tuple[Action, Any]:
    """The action of ``moves`` with the best UCB score at ``node`` (an untried one first, the
    first untried in a random order), and its name; counts each as available."""
    untried: list[tuple[Action, Any]] = []
    tried: list[tuple[Action, Any, int, int]] = []
    available = node.available
    visits = node.visits
    for action in moves:
        name = names.get(action)
        if name is None:
            name = names[action] = _name(action, face_ids)
        seen = available.get(name, 0) + 1
        available[name] = seen
        count = visits.get(name, 0)
        if count == 0:
            untried.append((action, name))
        elif not untried:
            tried.append((action, name, seen, count))
    if untried:
        return untried[below(rng, len(untried))]
    totals = node.totals
    best: tuple[Action, Any] | None = None
    best_score = -1.0
    for action, name, seen, count in tried:
        score = totals[name] / count + EXPLORATION * math.sqrt(math.log(seen) / count)
        if score > best_score:
            best, best_score = (action, name), score
    assert best is not None
    return best


def _name(action: Action, face_ids: Mapping[CardId, CardId]) -> Any:
    """The action as the tree names it: its card by its face, so that copies of one face in
    two sampled hands are one choice (spec 1.11)."""
    card = getattr(action, "card", None)
    if card is None:
        return action
    kind = type(action)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(
            field.name for field in attrs.fields(kind) if field.name != "card"
        )
    return (kind, face_ids.get(card, card), *(getattr(action, field) for field in fields))


_FIELDS: dict[type, tuple[str, ...]] = {}
"""The fields other than the card of each kind of action that names one, in order."""


def _rank(root: _Node, name: Any) -> tuple[int, float]:
    """A root action's rank: its visits, then its mean score."""
    if name is None:
        return (0, -1.0)
    count = root.visits.get(name, 0)
    return (count, root.totals.get(name, 0.0) / count if count else -1.0)


def values(game: Game) -> list[float]:
    """The worth of ``game`` to each seat, from 0 (lost) to 1 (won), as
    [`playout_value`][gaia_rules.bots.search.playout_value] finds it."""
    return seat_values(game)
