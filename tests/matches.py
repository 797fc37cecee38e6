"""Games between bots, each asked with its own seat's view only, every choice checked legal."""

from __future__ import annotations

import gaia_rules as gr
from gaia_rules.bots import Bot


def play(bots: list[Bot], rules: gr.Rules, seed: int, limit: int = 10_000) -> gr.Game:
    """A game between ``bots`` (one per seat), each asked with its seat's view only."""
    game = gr.new_game(players=len(bots), rules=rules, seed=seed)
    for _ in range(limit):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        action = bots[seat].choose(game.view(seat), legal)
        assert action in legal
        game.apply(action)
    return game
