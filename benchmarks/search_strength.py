"""How a SearchBot budget plays against the default budget, and how fast each decides.

    python benchmarks/search_strength.py                       # 200 games per level
    python benchmarks/search_strength.py --quick               # 20 games per level
    python benchmarks/search_strength.py --budget 100:2 --levels basic --games 400
    python benchmarks/search_strength.py --json                # the figures as JSON

A seeded tournament: at each level, ``--games`` games of ``--players`` seats (4 by default),
half the seats the budget under test (``--budget``, spelled as on the command line,
``playouts[:horizon[:width]]``), half ``SearchBot()`` at its default budget, the seats
alternating and the line-up turning one seat a game, so that each side sits in every seat
equally often. Game ``i`` is dealt with the seed ``derive_seed(seed, i)`` and each bot is
seeded from the game's seed and its seat, as ``gaia-rules simulate`` does: the same command
plays the same games on every machine, whatever ``--jobs``.

It prints, per level and over all levels, the games the budget won (a seat of it won the
game) with the 95% Wilson interval of that share (a budget as strong as the default wins
half), and the decisions per second of each side: its real choices (more than one legal
action) over the thread's CPU time they took, as ``bench.py`` times them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import attrs

import gaia_rules as gr
from gaia_rules.bots import SearchBot
from gaia_rules.cli.common import UsageError, derive_seed, search_budget
from gaia_rules.cli.simulate import wilson

LEVELS: dict[str, Callable[[], gr.Rules]] = {
    "basic": gr.Rules.basic,
    "advanced": gr.Rules.advanced,
    "powers": gr.Rules.powers,
    "disasters": gr.Rules.disasters,
}
DEFAULT_BUDGET = "100:1"
"""The budget played when ``--budget`` is not given: the fastest of those measured that
lost least (see benchmarks/README.md)."""


@attrs.frozen
class Game:
    """One game of the tournament: its level, index and seed, and which seats the budget
    under test holds."""

    level: str
    index: int
    seed: int
    players: int
    budget: tuple[tuple[str, int], ...]
    tested: tuple[bool, ...]


@attrs.frozen
class Played:
    """How one game went: whether the budget won, and each side's real choices and the CPU
    nanoseconds they took."""

    level: str
    won: bool
    tested_choices: int
    tested_ns: int
    default_choices: int
    default_ns: int


@attrs.frozen
class Line:
    """A level's figures (or all levels', ``level == "all"``)."""

    level: str
    games: int
    wins: int
    rate: float
    low: float
    high: float
    tested_per_s: float
    default_per_s: float


def play(spec: Game) -> Played:
    """Play one game to its end, timing every real choice of each bot in CPU time."""
    game = gr.new_game(spec.players, LEVELS[spec.level](), spec.seed)
    budget = dict(spec.budget)
    bots = [
        SearchBot(derive_seed(spec.seed, seat), **budget)
        if tested
        else SearchBot(derive_seed(spec.seed, seat))
        for seat, tested in enumerate(spec.tested)
    ]
    choices, spent = [0, 0], [0, 0]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        view = game.view(seat)
        start = time.thread_time_ns()
        action = bots[seat].choose(view, legal)
        took = time.thread_time_ns() - start
        if len(legal) > 1:
            side = 0 if spec.tested[seat] else 1
            choices[side] += 1
            spent[side] += took
        game.apply(action)
    result = game.result
    assert result is not None
    return Played(
        spec.level, spec.tested[result.winner], choices[0], spent[0], choices[1], spent[1]
    )


def games(levels: Sequence[str], count: int, seed: int, players: int, budget: str) -> list[Game]:
    """The tournament's games: the seats alternate between the budget and the default, and
    the line-up turns one seat a game."""
    parts = tuple(search_budget(budget).items())
    return [
        Game(
            level=level,
            index=index,
            seed=derive_seed(seed, index),
            players=players,
            budget=parts,
            tested=tuple((seat + index) % 2 == 0 for seat in range(players)),
        )
        for level in levels
        for index in range(count)
    ]


def per_second(choices: int, ns: int) -> float:
    """Decisions a second from a count and the CPU nanoseconds they took."""
    return choices * 1e9 / ns if ns else 0.0


def line(level: str, played: Sequence[Played]) -> Line:
    """The figures of ``played``."""
    wins = sum(p.won for p in played)
    low, high = wilson(wins, len(played))
    return Line(
        level=level,
        games=len(played),
        wins=wins,
        rate=wins / len(played) if played else 0.0,
        low=low,
        high=high,
        tested_per_s=per_second(
            sum(p.tested_choices for p in played), sum(p.tested_ns for p in played)
        ),
        default_per_s=per_second(
            sum(p.default_choices for p in played), sum(p.default_ns for p in played)
        ),
    )


def render(lines: Sequence[Line], budget: str, args: argparse.Namespace, seconds: float) -> str:
    """The table for a person."""
    rows = [
        f"SearchBot search:{budget} against SearchBot() (search:100:8:8), {args.players} players, "
        f"seed {args.seed}, {args.games} games per level, seats alternating and turning",
        "",
        f"{'level':<10}{'games':>6}{'wins':>6}{'rate':>8}   {'95% interval':<15}"
        f"{'dec/s ' + budget:>14}{'dec/s default':>15}",
    ]
    for row in lines:
        rows.append(
            f"{row.level:<10}{row.games:>6}{row.wins:>6}{row.rate:>8.1%}   "
            f"{f'{row.low:.1%} - {row.high:.1%}':<15}{row.tested_per_s:>14.1f}"
            f"{row.default_per_s:>15.1f}"
        )
    rows += ["", f"{seconds:.0f} s in all ({args.jobs} job(s))"]
    return "\n".join(rows)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options from the command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--budget",
        default=DEFAULT_BUDGET,
        help=f"the budget under test, playouts[:horizon[:width]] (default {DEFAULT_BUDGET})",
    )
    parser.add_argument("--games", type=int, help="games per level (default 200, quick 20)")
    parser.add_argument("--seed", type=int, default=1, help="the base seed of the games (1)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 4), help="seats (4)")
    parser.add_argument(
        "--levels",
        default=",".join(LEVELS),
        help=f"the levels, separated by commas (default {','.join(LEVELS)})",
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (1)")
    parser.add_argument("--quick", action="store_true", help="20 games per level")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    args.games = args.games if args.games is not None else 20 if args.quick else 200
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    args.levels = [level.strip() for level in args.levels.split(",")]
    unknown = [level for level in args.levels if level not in LEVELS]
    if unknown:
        parser.error(f"--levels: no level {unknown[0]!r}; the levels are {', '.join(LEVELS)}")
    try:
        search_budget(args.budget)
    except UsageError as exc:
        parser.error(str(exc).replace("--bots", "--budget"))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Play the tournament and print its figures."""
    args = parse(argv)
    specs = games(args.levels, args.games, args.seed, args.players, args.budget)
    start = time.perf_counter()
    if args.jobs == 1:
        played = [play(spec) for spec in specs]
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            played = list(pool.map(play, specs, chunksize=4))
    seconds = time.perf_counter() - start
    lines = [line(level, [p for p in played if p.level == level]) for level in args.levels]
    if len(lines) > 1:
        lines.append(line("all", played))
    if args.json:
        data: dict[str, Any] = {
            "budget": args.budget,
            "budget_parts": search_budget(args.budget),
            "players": args.players,
            "seed": args.seed,
            "games_per_level": args.games,
            "seconds": seconds,
            "jobs": args.jobs,
            "levels": [attrs.asdict(row) for row in lines],
        }
        print(json.dumps(data, indent=2))
    else:
        print(render(lines, args.budget, args, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
