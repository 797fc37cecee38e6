"""The full oracle run: many random games, the engine compared with the independent oracle of
``tests/oracle`` at every decision (its legal actions) and after every action (its effects,
and the decision that comes next).

    python scripts/oracle.py                   # 1,000 games
    python scripts/oracle.py --games 200       # the bounded sample CI runs

Games cycle through every player count, every level, both editions and every value of every
switch (the soak run's configurations), a third of them played uniformly at random, the rest
preferring plays to draws (bigger worlds, scarcer pawns); each game's seed is its index, so
any disagreement is reproduced by its line. Prints the decisions compared, by kind, and
every disagreement. Exits 1 if there is one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

# the oracle lives with the tests (it is not shipped), and the configurations with the soak run
sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from soak import CONFIGS  # noqa: E402
from tests.oracle import Disagreement, follow_game  # noqa: E402

import gaia_rules as gr  # noqa: E402

MAX_DECISIONS = 5_000
SHOWN = 20
PREFER_PLAYS = (0.0, 0.5, 0.9)


def play(index: int) -> tuple[int, Counter[str], int, str | None]:
    """Follow game ``index`` to its end; returns (index, decisions compared by kind, actions
    compared, the disagreement found or ``None``)."""
    players, rules = CONFIGS[index % len(CONFIGS)]
    game = gr.new_game(players=players, rules=rules, seed=index, first_player=index % players)
    rng = random.Random(index)
    prefer = PREFER_PLAYS[index % len(PREFER_PLAYS)]
    try:
        follower = follow_game(game, rng, MAX_DECISIONS, prefer_plays=prefer)
    except Disagreement as found:
        return index, Counter(), 0, str(found)
    except Exception as exc:  # a crash is a failure of this game, reported with the others
        return index, Counter(), 0, f"{type(exc).__name__}: {exc}"
    if not game.is_over:
        return index, Counter(follower.kinds), follower.taken, "the game did not end (15.5)"
    return index, Counter(follower.kinds), follower.taken, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    kinds: Counter[str] = Counter()
    taken = failed = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for index, compared, actions, found in pool.map(play, range(args.games), chunksize=10):
            kinds += compared
            taken += actions
            if found is not None:
                failed += 1
                if failed <= SHOWN:
                    players, rules = CONFIGS[index % len(CONFIGS)]
                    print(f"game {index} ({players} players, {rules}):", file=sys.stderr)
                    print(f"    {found[:2000]}", file=sys.stderr)
    seconds = time.perf_counter() - started
    print(
        f"oracle: {args.games} games, {sum(kinds.values())} decisions' legal actions and "
        f"{taken} decisions' effects compared, {seconds:.1f} s with {args.jobs} job(s)"
    )
    print(f"  decisions by kind: {dict(kinds.most_common())}")
    print(f"{args.games - failed} agreed, {failed} disagreed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
