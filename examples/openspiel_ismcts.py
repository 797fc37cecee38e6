"""OpenSpiel's IS-MCTS against a bot of gaia-rules, on the ``python_gaia`` game.

    pip install 'gaia-rules[openspiel]'
    python examples/openspiel_ismcts.py --games 4 --simulations 50 --bot greedy

IS-MCTS (information set Monte Carlo tree search, OpenSpiel's
``open_spiel.python.algorithms.ismcts``) samples the cards hidden from its seat with the game's
``resample_from_infostate`` and searches the samples with random rollouts, its nodes keyed by
the information state string (the seat's information-set key). The deal and every card drawn
are chance nodes, sampled here from their outcomes. The two players swap seats every game; the
seed of every random choice comes from ``--seed``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import gaia_rules.openspiel  # noqa: F401 (registers python_gaia)
from gaia_rules.bots import BOTS
from gaia_rules.openspiel import GaiaState


def play(games: int, simulations: int, bot_name: str, level: str, seed: int) -> list[int]:
    """Play ``games`` two-player games; return the winner of each as 0 (IS-MCTS) or 1 (bot)."""
    game = pyspiel.load_game("python_gaia", {"players": 2, "level": level})
    winners = []
    for number in range(games):
        rng = np.random.RandomState(seed + number)
        chance = np.random.RandomState(seed + 1000 + number)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        searcher = ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng
        )
        ours = BOTS[bot_name](seed + number)
        searcher_seat = number % 2
        state = game.new_initial_state()
        assert isinstance(state, GaiaState)
        while not state.is_terminal():
            if state.is_chance_node():  # the deal, and every card drawn: chance decides
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(chance.choice(outcomes, p=chances)))
                continue
            seat = state.current_player()
            if seat == searcher_seat:
                action = searcher.step(state)
            else:
                view = state.game.view(seat)
                action = state.action_index(ours.choose(view, state.game.legal_actions()))
            state.apply_action(action)
        returns = state.returns()
        winner = int(returns.index(1.0))
        winners.append(0 if winner == searcher_seat else 1)
        print(
            f"game {number}: IS-MCTS in seat {searcher_seat}, "
            f"{'IS-MCTS' if winner == searcher_seat else bot_name} wins",
            flush=True,
        )
    return winners


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=30, help="IS-MCTS simulations per move")
    parser.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    parser.add_argument("--level", default="basic")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    winners = play(args.games, args.simulations, args.bot, args.level, args.seed)
    print(f"IS-MCTS won {winners.count(0)} of {len(winners)} games against {args.bot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
