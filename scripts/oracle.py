"""The full oracle run: many random games, the engine compared with the independent oracle of
``tests/oracle`` at every decision (its legal actions) and after every action (its effects,
and the decision that comes next).

    python scripts/oracle.py                   # 1,000 games
    python scripts/oracle.py --games 200       # the bounded sample CI runs
    python scripts/oracle.py --coverage        # and how often each clause was exercised

Games cycle through every player count, every level, both editions and every value of every
switch (the soak run's configurations), a third of them played uniformly at random, the rest
preferring plays to draws (bigger worlds, scarcer pawns); each game's seed is its index, so
any disagreement is reproduced by its line. Every run also plays the rare situations of
``tests/oracle/rare.py`` from their positions (an Eruption with exactly enough deserts, a
Tornado finding one card of a back, the last pawn, ...), and a Tornado's draw from one
position under many seeds. What the oracle cannot see it checks by replaying states: each
Tornado's card is drawn again from the seed by the oracle (13.8b, 1.6), and the places of
all the draws are tested for uniformity (a chi-square at p = 0.001); every ``--sampling``-th
decision, and whenever a thief chooses the stolen card he keeps (from his view and his
victims'), a game sampled from a seat's view (``determinize``) is checked against the view
and the seat's log (1.8).

Prints the decisions compared, by kind, and every disagreement. Exits 1 if there is one, if
the draws are not uniform, or (``--coverage``, which prints how often the games exercised
each clause of ``spec/``) if a clause was not exercised, but those no play can exercise
(``tests.oracle.coverage.NOT_BY_PLAY``, each with its reason).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

# the oracle lives with the tests (it is not shipped), and the configurations with the soak run
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from soak import CONFIGS  # noqa: E402
from tests.oracle import Disagreement, Follower, follow_game  # noqa: E402
from tests.oracle.chance import critical_value, draw_uniformity  # noqa: E402
from tests.oracle.coverage import NOT_BY_PLAY  # noqa: E402
from tests.oracle.rare import SCENARIOS, play_scenario, tornado_draws_sampled  # noqa: E402
from tests.spec_clauses import spec_clauses  # noqa: E402

import gaia_rules as gr  # noqa: E402

MAX_DECISIONS = 5_000
SHOWN = 20
PREFER_PLAYS = (0.0, 0.5, 0.9)
TORNADO_SEEDS = 200
"""The seeds of the Tornado position whose draws are sampled on their own (four cards of the
named back: 50 expected at each place)."""
TORNADO_CHUNK = 50


@dataclass
class Played:
    """What one task of the run found: a game, a rare situation or a chunk of draws."""

    name: str
    kinds: Counter[str] = field(default_factory=Counter)
    taken: int = 0
    samples: int = 0
    draws: list[tuple[int, int]] = field(default_factory=list)
    exercised: Counter[str] = field(default_factory=Counter)
    found: str | None = None

    def read(self, follower: Follower) -> None:
        self.kinds = Counter(follower.kinds)
        self.taken = follower.taken
        self.samples = follower.samples
        self.draws = list(follower.draws)
        self.exercised = Counter(follower.exercised)


def play(task: tuple[str, int, int]) -> Played:
    """Follow one task to its end: ``("game", index, sampling)``, the seeded game ``index``;
    ``("rare", index, sampling)``, the rare situation ``index``; ``("tornado", start,
    stop)``, the Tornado position under the seeds from ``start`` to ``stop``."""
    what, index, arg = task
    try:
        if what == "tornado":
            played = Played(f"the Tornado's draws, seeds {index} to {arg - 1}")
            played.draws, found = tornado_draws_sampled(range(index, arg))
            played.exercised.update({"13.8b": len(played.draws), "1.6": len(played.draws)})
            played.found = "\n    ".join(found[:3]) or None
            return played
        if what == "rare":
            scenario = SCENARIOS[index]
            played = Played(f"rare situation {index} ({scenario.name})")
            played.read(play_scenario(scenario, index, sampling=arg))
            return played
        players, rules = CONFIGS[index % len(CONFIGS)]
        played = Played(f"game {index} ({players} players, {rules})")
        game = gr.new_game(players=players, rules=rules, seed=index, first_player=index % players)
        rng = random.Random(index)
        prefer = PREFER_PLAYS[index % len(PREFER_PLAYS)]
        follower = follow_game(game, rng, MAX_DECISIONS, prefer_plays=prefer, sampling=arg)
        played.read(follower)
        if not game.is_over:
            played.found = "the game did not end (15.5)"
        else:
            played.exercised["15.5"] += 1
    except Disagreement as found:
        played.found = str(found)
    except Exception as exc:  # a crash is a failure of this task, reported with the others
        played.found = f"{type(exc).__name__}: {exc}"
    return played


def _spec_order(clause: str) -> tuple[int, int, str]:
    section, rule = clause.split(".")
    digits = "".join(c for c in rule if c.isdigit())
    return int(section), int(digits), rule[len(digits) :]


def coverage(exercised: Counter[str]) -> list[str]:
    """Print how often each clause of ``spec/`` was exercised; the clauses never exercised,
    but those no play can exercise."""
    clauses = sorted(spec_clauses(), key=_spec_order)
    print("clause  exercised")
    for clause in clauses:
        note = f"  (not by play: {NOT_BY_PLAY[clause]})" if clause in NOT_BY_PLAY else ""
        print(f"{clause:<7} {exercised.get(clause, 0):>9}{note}")
    stale = sorted(set(NOT_BY_PLAY) - set(clauses))
    if stale:
        print(f"NOT_BY_PLAY names clauses the spec does not have: {stale}", file=sys.stderr)
    missing = [c for c in clauses if not exercised.get(c) and c not in NOT_BY_PLAY]
    return missing + stale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--sampling",
        type=int,
        default=200,
        help="check a game sampled from the deciding seat's view every this many decisions "
        "(and from the thief's and his victims' when he chooses the card he keeps); 0: never",
    )
    parser.add_argument(
        "--coverage",
        action="store_true",
        help="print how often each clause was exercised; fail if one was not",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    tasks = [("rare", index, args.sampling) for index in range(len(SCENARIOS))]
    tasks += [
        ("tornado", start, min(start + TORNADO_CHUNK, TORNADO_SEEDS))
        for start in range(0, TORNADO_SEEDS, TORNADO_CHUNK)
    ]
    tasks += [("game", index, args.sampling) for index in range(args.games)]
    kinds: Counter[str] = Counter()
    exercised: Counter[str] = Counter()
    draws: list[tuple[int, int]] = []
    taken = failed = samples = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for played in pool.map(play, tasks, chunksize=4):
            kinds += played.kinds
            exercised += played.exercised
            draws += played.draws
            taken += played.taken
            samples += played.samples
            if played.found is not None:
                failed += 1
                if failed <= SHOWN:
                    print(f"{played.name}:", file=sys.stderr)
                    print(f"    {played.found[:2000]}", file=sys.stderr)
    seconds = time.perf_counter() - started
    statistic, degrees, counted = draw_uniformity(draws)
    uniform = degrees == 0 or statistic < critical_value(degrees)
    print(
        f"oracle: {args.games} games and {len(SCENARIOS)} rare situations, "
        f"{sum(kinds.values())} decisions' legal actions and {taken} decisions' effects "
        f"compared, {samples} sampled games checked, {seconds:.1f} s with {args.jobs} job(s)"
    )
    print(f"  decisions by kind: {dict(kinds.most_common())}")
    print(
        f"  random draws: {len(draws)}, each drawn again by the oracle from the seed; the "
        f"places of {counted} "
        f"(among 2 cards or more) against uniform: chi-square {statistic:.1f} with {degrees} "
        f"degrees of freedom, critical {critical_value(degrees) if degrees else 0:.1f} "
        f"(p = 0.001): {'uniform' if uniform else 'NOT UNIFORM (13.8b)'}"
    )
    missing: list[str] = []
    if args.coverage:
        missing = coverage(exercised)
        print(f"  clauses not exercised: {missing or 'none'} ({len(NOT_BY_PLAY)} not by play)")
    print(f"{len(tasks) - failed} agreed, {failed} disagreed")
    return 1 if failed or not uniform or missing else 0


if __name__ == "__main__":
    sys.exit(main())
