"""The playouts of the search bots: random play on from a sampled game, then what the game
is worth to each seat (see `gaia_rules.bots.search` and `gaia_rules.bots.ismcts`).

Hot path: a search spends most of its time in its playouts, so these functions call the
engine on the game's table at once (`flow.legal_actions`, `flow.carry_out`), where a bot's
loop went through `Game`'s methods at each decision, and the compiled build compiles them.
They draw the same random numbers, in the same order, as that loop did. SearchBot's whole
loop of playouts is here too (`bandit_playouts`), so that the compiled build runs it without
the interpreter between two playouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from gaia_rules import flow
from gaia_rules.actions import Action, FulfillObjective, PlaceCityPawn
from gaia_rules.chance import below
from gaia_rules.decisions import ChooseObjective, ChoosePawnCities
from gaia_rules.game import Game
from gaia_rules.setup import pawns_per_player

__all__ = ["bandit_playouts", "carry_out", "play_out", "seat_values"]

_PAWN_NOW: Final[tuple[type[PlaceCityPawn | FulfillObjective], ...]] = (
    PlaceCityPawn,
    FulfillObjective,
)
"""The actions that place a pawn at once: on a raised city (10.5) or on an Objective (8.1)."""
_PAWN_DECISIONS: Final[tuple[type[ChoosePawnCities | ChooseObjective], ...]] = (
    ChoosePawnCities,
    ChooseObjective,
)
"""The only decisions that offer an action of ``_PAWN_NOW``: at any other the playout draws
its random action from the lazy legal list without building the others."""


def play_out(game: Game, rng: random.Random, horizon: int, *, pawns_first: bool) -> None:
    """Play ``game`` on for ``horizon`` decisions (fewer if it ends), each a uniformly random
    legal action drawn with ``rng``; with ``pawns_first``, among the actions that place a
    pawn at once when the decision offers any."""
    table = game._table  # the engine's own calls: see the module docstring
    for _ in range(horizon):
        if table.result is not None:
            break
        legal = flow.legal_actions(table)
        pool: Sequence[Action] = legal
        if pawns_first and isinstance(table.decision, _PAWN_DECISIONS):
            now = [action for action in legal if isinstance(action, _PAWN_NOW)]
            pool = now or legal
        flow.carry_out(table, pool[below(rng, len(pool))])


def bandit_playouts(
    sample: Callable[[random.Random], Game],
    candidates: Sequence[Action],
    *,
    seat: int,
    rng: random.Random,
    playouts: int,
    horizon: int,
    exploration: float,
) -> tuple[list[float], list[int]]:
    """`SearchBot`'s search: ``playouts`` playouts, each of one of ``candidates`` (each once,
    then the one whose mean plus exploration bonus, UCB1, is highest), applied in a new
    ``sample`` and played on for ``horizon`` random decisions; the total value of each
    candidate's playouts to ``seat`` and how many it had."""
    visits = [0] * len(candidates)
    totals = [0.0] * len(candidates)
    for done in range(playouts):
        pick = done if done < len(candidates) else _best_bound(totals, visits, done, exploration)
        game = sample(rng)
        carry_out(game, candidates[pick])
        play_out(game, rng, horizon, pawns_first=False)
        totals[pick] += seat_values(game)[seat]
        visits[pick] += 1
    return totals, visits


def _best_bound(totals: list[float], visits: list[int], played: int, exploration: float) -> int:
    """The candidate whose mean plus exploration bonus (UCB1) is highest after ``played``
    playouts, the first among equals."""
    log_played = math.log(played)
    pick, best = 0, -math.inf
    for index in range(len(totals)):
        count = visits[index]
        bound = totals[index] / count + exploration * math.sqrt(log_played / count)
        if bound > best:
            pick, best = index, bound
    return pick


def carry_out(game: Game, action: Action) -> None:
    """``game.apply(action)`` without gathering the events (a playout never reads them)."""
    flow.carry_out(game._table, action)


def seat_values(game: Game) -> list[float]:
    """The worth of ``game`` to each seat, in seat order, from 0 (lost) to 1 (won): a game
    not over is worth ``0.5`` plus half the seat's pawn lead over the best other seat, as a
    share of a seat's pawns."""
    table = game._table
    players = table.players
    result = table.result
    if result is not None:
        return [1.0 if seat == result.winner else 0.0 for seat in range(players)]
    placed = [table.pawns_placed(seat) for seat in range(players)]
    scale = 2 * pawns_per_player(players)
    found = []
    for seat in range(players):
        best_other = max(placed[p] for p in range(players) if p != seat)
        found.append(0.5 + (placed[seat] - best_other) / scale)
    return found
