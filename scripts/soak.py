"""Soak run: many random games, every invariant of spec 16 checked after every step.

    python scripts/soak.py                  # 10,000 games
    python scripts/soak.py --games 200      # the bounded sample CI runs

Games cycle through every player count, every level, both editions and every value of every
switch; each game's seed is its index, so any failure is reproduced by its line.
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
SHOWN_FAILURES = 20


def _configs() -> list[tuple[int, gr.Rules]]:
    """Every player count, level, edition and switch value, in combinations that cycle so
    that any 1,000 consecutive games meet each value many times."""
    configs = []
    for players, level, edition, feeding, objectives, sea, drop, (
        lightnings,
        on_city,
    ) in itertools.product(
        (2, 3, 4, 5),
        gr.Level,
        gr.Edition,
        gr.Feeding,
        gr.Objectives,
        (True, False),
        gr.FourNeedDrop,
        ((5, True), (2, False)),
    ):
        if level < gr.Level.ADVANCED and drop is not gr.FourNeedDrop.KEEP_ONE:
            continue
        if level < gr.Level.DISASTERS and (lightnings, on_city) != (5, True):
            continue
        switches: dict[str, object] = {
            "edition": edition,
            "feeding": feeding,
            "objectives": objectives,
            "star_animals_on_sea": sea,
        }
        if level >= gr.Level.ADVANCED:
            switches["four_need_drop"] = drop
        if level >= gr.Level.DISASTERS:
            switches.update(lightnings=lightnings, eruption_on_city=on_city)
        configs.append((players, gr.Rules(level=level, **switches)))
    random.Random(0).shuffle(configs)
    return configs


CONFIGS = _configs()


def play(index: int) -> tuple[int, int, str, list[str]]:
    """Play game ``index``; returns (index, decisions, how it ended, failures)."""
    try:
        return _play(index)
    except Exception as exc:  # a crash is a failure of this game, reported with the others
        return index, 0, "crashed", [f"{type(exc).__name__}: {exc}"]


def _play(index: int) -> tuple[int, int, str, list[str]]:
    players, rules = CONFIGS[index % len(CONFIGS)]
    game = gr.new_game(players=players, rules=rules, seed=index)
    rng = random.Random(index)
    failures: list[str] = []
    decisions = 0
    while not game.is_over and decisions < MAX_DECISIONS:
        actions = game.legal_actions()
        # asked even with one option: a Protection window (13.9c) and a limit discard (6.5c)
        always_asked = isinstance(game.decision, gr.ChooseProtection | gr.ChooseLimitDiscard)
        if len(actions) < (1 if always_asked else 2):
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
                if failed <= SHOWN_FAILURES:
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
    print(f"  configurations: {len(CONFIGS)} (players x level x edition x switches)")
    print(
        f"  decisions per game: min {lengths[0]}, median {lengths[len(lengths) // 2]}, "
        f"max {lengths[-1]}"
    )
    print(f"  games with an invariant failure: {failed}")
    print(f"{args.games - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
