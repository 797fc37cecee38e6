"""How far the strong bot's playouts see: how often one changes the pawns on the table.

    python benchmarks/playout_reach.py                        # horizons 8, 16 and 32
    python benchmarks/playout_reach.py --horizons 8,32 --positions 60

From ``--positions`` positions of two-player basic games (game ``i`` dealt with the seed
``i``, then 10 to 59 random decisions, their number drawn from the same seed), it samples the
hidden cards ``--playouts`` times from the view of the seat to move
([`Determinizer`][gaia_rules.determinize.Determinizer]) and runs the strong bot's playout
(a pawn when one can be placed, otherwise a random action) for each horizon. It prints, per
horizon, the share of playouts after which some seat has placed a pawn more, the share that
ended the game, and the spread of the seat's playout values at one position (their standard
deviation, averaged over the positions): a playout whose value is about one half whatever
happened cannot tell the actions apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence

import gaia_rules as gr
from gaia_rules.bots.ismcts import IsmctsBot, values
from gaia_rules.determinize import Determinizer


def positions(count: int) -> list[gr.Game]:
    """``count`` seeded two-player basic games, each a random 10 to 59 decisions in and not
    over."""
    found = []
    for seed in range(count):
        game = gr.new_game(2, gr.Rules.basic(), seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 60)):
            if game.is_over:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if not game.is_over:
            found.append(game)
    return found


def reach(games: Sequence[gr.Game], horizon: int, playouts: int) -> tuple[float, float, float]:
    """For one horizon: the share of playouts that changed the pawns placed, the share that
    ended the game, and the mean spread of the seat to move's values at a position."""
    changed = ended = run = 0
    spreads = []
    for index, game in enumerate(games):
        seat = game.to_move
        assert seat is not None
        sampler = Determinizer(game.view(seat))
        rng = random.Random(index)
        bot = IsmctsBot(index, iterations=1, horizon=horizon)
        found = []
        for _ in range(playouts):
            sample = sampler.sample(rng)
            before = [sample.pawns_placed(p) for p in range(sample.players)]
            bot._playout(sample)  # the playout itself, as a search runs it
            run += 1
            ended += sample.is_over
            changed += [sample.pawns_placed(p) for p in range(sample.players)] != before
            found.append(values(sample)[seat])
        spreads.append(statistics.pstdev(found))
    return changed / run, ended / run, statistics.mean(spreads)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--horizons", default="8,16,32", help="playout lengths (8,16,32)")
    parser.add_argument("--positions", type=int, default=30, help="positions (30)")
    parser.add_argument("--playouts", type=int, default=20, help="playouts a position (20)")
    args = parser.parse_args(argv)
    try:
        horizons = [int(part) for part in args.horizons.split(",")]
    except ValueError:
        parser.error(f"--horizons: whole numbers separated by commas, got {args.horizons!r}")
    if any(h < 0 for h in horizons) or args.positions < 1 or args.playouts < 1:
        parser.error("--horizons: 0 or more; --positions and --playouts: at least 1")
    games = positions(args.positions)
    print(
        f"{len(games)} positions of two-player basic games, {args.playouts} playouts each, "
        "from the view of the seat to move"
    )
    print(f"{'horizon':>8}{'pawns changed':>15}{'game ended':>12}{'value spread':>14}")
    for horizon in horizons:
        changed, ended, spread = reach(games, horizon, args.playouts)
        print(f"{horizon:>8}{changed:>15.0%}{ended:>12.0%}{spread:>14.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
