"""The ``gaia-rules`` command (also ``python -m gaia_rules``).

``gaia-rules demo`` plays a seeded game between random players and prints every event in
the action notation, then the final world.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from gaia_rules.errors import GaiaRulesError
from gaia_rules.game import new_game
from gaia_rules.rules import Edition, Level, Rules
from gaia_rules.text import describe, world_text

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    rules = Rules(level=Level[args.level.upper()], edition=Edition[args.edition.upper()])
    game = new_game(players=args.players, rules=rules, seed=args.seed)
    chooser = random.Random(args.seed)
    print(
        f"Gaïa, {args.players} players, {args.level} rules, {args.edition} edition, "
        f"seed {args.seed}"
    )
    for event in game.events:
        print(describe(event))
    while not game.is_over:
        action = chooser.choice(game.legal_actions())
        for event in game.apply(action):
            print(describe(event))
    print()
    print(world_text(game.state))
    return 0


def _schema(args: argparse.Namespace) -> int:
    from gaia_rules.schema import render  # noqa: PLC0415 (only this command needs it)

    sys.stdout.write(render())
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gaia-rules", description="The rules engine for the card-and-tile game Gaïa."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="play a seeded game between random players and print it",
        description="Play a seeded game between random players; print its events and the "
        "final world.",
    )
    demo.add_argument("--players", type=int, default=4, choices=range(2, 6), metavar="2-5")
    demo.add_argument("--seed", type=int, default=2024)
    demo.add_argument("--level", choices=[level.name.lower() for level in Level], default="basic")
    demo.add_argument("--edition", choices=[e.value for e in Edition], default="third")
    demo.set_defaults(run=_demo)
    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of the wire format",
        description="Print the JSON Schema of the wire format (actions, events, decisions, "
        "views, states, positions, records, rules, manifests).",
    )
    schema.set_defaults(run=_schema)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except GaiaRulesError as exc:
        print(f"gaia-rules: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
