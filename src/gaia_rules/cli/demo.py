"""``gaia-rules demo``: a seeded game between bots, printed event by event, then the world."""

from __future__ import annotations

import argparse

from gaia_rules.cli.common import Console, bots_for, play_out, rules_from, split_bots
from gaia_rules.events import Event
from gaia_rules.game import new_game
from gaia_rules.text import describe, world_text

__all__ = ["run"]


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the game and print it; the bot of seat s is seeded from ``--seed`` and s."""
    names = split_bots(args.bots, args.players)
    game = new_game(players=args.players, rules=rules_from(args), seed=args.seed)
    console.print(
        f"Gaïa, {args.players} players, {args.level} rules, {args.edition} edition, "
        f"seed {args.seed}, bots {', '.join(names)}"
    )

    def show(events: tuple[Event, ...]) -> None:
        for event in events:
            console.print(describe(event))

    show(game.events)
    play_out(game, bots_for(names, args.seed), show)
    console.print()
    console.print(world_text(game.state))
    return 0
