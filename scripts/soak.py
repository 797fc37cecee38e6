"""Soak run: many random games, every invariant of spec 16 checked after every step.

    python scripts/soak.py                  # 10,000 games, both editions, 2-5 players
    python scripts/soak.py --games 200      # the bounded sample CI runs

Games cycle through every player count, both editions and every combination of the basic
game's switches; each game's seed is its index, so any failure is reproduced by its line.
Prints a summary, and every failure with its game and step. Exits 1 if anything failed.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import gaia_rules as gr
from gaia_rules.invariants import violations

MAX_DECISIONS = 5_000

CONFIGS = [
    (
        players,
        gr.Rules.basic(
            edition=edition, feeding=feeding, objectives=objectives, star_animals_on_sea=sea
        ),
    )
    for players, edition, feeding, objectives, sea in itertools.product(
        (2, 3, 4, 5), gr.Edition, gr.Feeding, gr.Objectives, (True, False)
    )
]


def play(index: int) -> tuple[int, int, str, list[str]]:
    """Play game ``index``; returns (index, decisions, how it ended, failures)."""
    players, rules = CONFIGS[index % len(CONFIGS)]
    game = gr.new_game(players=players, rules=rules, seed=index)
    rng = random.Random(index)
    failures: list[str] = []
    decisions = 0
    while not game.is_over and decisions < MAX_DECISIONS:
        actions = game.legal_actions()
        if len(actions) < 2:
            failures.append(f"step {decisions}: a decision with {len(actions)} option(s) shown")
            break
        game.apply(rng.choice(actions))
        decisions += 1
        broken = violations(game)
        if broken:
            failures += [f"step {decisions}: {line}" for line in broken]
            break
    if not game.is_over:
        failures.append(f"not over after {decisions} decisions (spec 15.5)")
        return index, decisions, "unfinished", failures
    assert game.result is not None
    return index, decisions, game.result.reason.value, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    endings: Counter[str] = Counter()
    lengths: list[int] = []
    failed = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for index, decisions, ending, failures in pool.map(play, range(args.games), chunksize=25):
            endings[ending] += 1
            lengths.append(decisions)
            if failures:
                failed += 1
                players, rules = CONFIGS[index % len(CONFIGS)]
                print(f"game {index} ({players} players, {rules}):", file=sys.stderr)
                for line in failures[:10]:
                    print(f"    {line}", file=sys.stderr)
    seconds = time.perf_counter() - started
    lengths.sort()
    print(
        f"soak: {args.games} games, {sum(lengths)} decisions, {seconds:.1f} s "
        f"({sum(lengths) / seconds:,.0f} decisions/s with {args.jobs} job(s))"
    )
    print(f"  endings: {dict(sorted(endings.items()))}")
    print(
        f"  decisions per game: min {lengths[0]}, median {lengths[len(lengths) // 2]}, "
        f"max {lengths[-1]}"
    )
    print(f"  games with an invariant failure: {failed}")
    print(f"{args.games - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
