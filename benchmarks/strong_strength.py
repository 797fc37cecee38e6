"""How the strong bot plays against SearchBot, and how fast each decides.

    python benchmarks/strong_strength.py                  # 100 two-player basic games, and
                                                          # 6 per level at 3, 4 and 5 seats
    python benchmarks/strong_strength.py --quick          # 20, and 2 per level and size
    python benchmarks/strong_strength.py --strong ismcts:300:32:8 --games 200 --tables 0
    python benchmarks/strong_strength.py --games 0 --tables 20 --levels disasters
    python benchmarks/strong_strength.py --games 0 --tables 20 --seats 5
    python benchmarks/strong_strength.py --json           # the figures as JSON
    python benchmarks/strong_strength.py --progress       # each game on stderr as it ends

A seeded match. First ``--games`` two-player games at the basic level, ``strong`` (or the
bot ``--strong`` names, as ``gaia-rules simulate --bots`` names it) against ``SearchBot()``
at its default budget, the seats swapping every game. Then, at each level and at 3, 4 and 5
seats, ``--tables`` games in which one seat is the strong bot and every other seat a
``SearchBot()``, the strong seat turning one seat a game: a bot no better than the search
bot wins its fair share, one game in as many as there are seats. Game ``i`` is dealt with the
seed ``derive_seed(seed, i)`` and each bot is seeded from the game's seed and its seat, as
``gaia-rules simulate`` does: the same command plays the same games on every machine,
whatever ``--jobs``.

``--levels`` and ``--seats`` keep some of the lines at 3-5 seats; a game keeps the seed of
its place in the whole run, so a screen of one level plays that level's games of the full
run with the same seed.

It prints each line's games, the strong bot's wins with the 95% Wilson interval of its share,
the fair share, and the decisions per second of each side: its real choices (more than one
legal action) over the CPU time of the thread they took, the search bot's being the anchor of
the same run. Then the same figures for the games at 3-5 seats together, per level, per
table size and in all. The last line is the one-line summary a changelog quotes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import attrs

import gaia_rules as gr
from gaia_rules.bots import SearchBot
from gaia_rules.cli.common import UsageError, bot_named, derive_seed, split_bots
from gaia_rules.cli.simulate import wilson

LEVELS = {
    "basic": gr.Rules.basic,
    "advanced": gr.Rules.advanced,
    "powers": gr.Rules.powers,
    "disasters": gr.Rules.disasters,
}

SEATS = (3, 4, 5)
"""The table sizes of the lines beyond two seats."""


@attrs.frozen
class Match:
    """One game: its line (level and seats), seed and the strong bot's seat."""

    line: str
    level: str
    players: int
    seed: int
    strong_seat: int
    strong: str


@attrs.frozen
class Played:
    """How one game went: whether the strong bot won, and each side's real choices and the
    CPU nanoseconds they took."""

    line: str
    won: bool
    strong_choices: int
    strong_ns: int
    search_choices: int
    search_ns: int
    strong_max_ns: int
    """The strong bot's slowest real choice."""


def play(match: Match) -> Played:
    """Play one game to its end, timing every real choice in the thread's CPU time."""
    game = gr.new_game(match.players, LEVELS[match.level](), match.seed)
    bots = [
        bot_named(match.strong, derive_seed(match.seed, seat))
        if seat == match.strong_seat
        else SearchBot(derive_seed(match.seed, seat))
        for seat in range(match.players)
    ]
    choices, spent, slowest = [0, 0], [0, 0], 0
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        view = game.view(seat)
        start = time.thread_time_ns()
        action = bots[seat].choose(view, legal)
        took = time.thread_time_ns() - start
        if len(legal) > 1:
            side = 0 if seat == match.strong_seat else 1
            choices[side] += 1
            spent[side] += took
            if side == 0:
                slowest = max(slowest, took)
        game.apply(action)
    result = game.result
    assert result is not None
    return Played(
        match.line,
        result.winner == match.strong_seat,
        choices[0],
        spent[0],
        choices[1],
        spent[1],
        slowest,
    )


def matches(
    games: int,
    tables: int,
    seed: int,
    strong: str,
    *,
    levels: Sequence[str] = tuple(LEVELS),
    seats: Sequence[int] = SEATS,
) -> list[Match]:
    """The games of the run: the two-player basic line first, then each of ``levels`` at
    each of ``seats`` (3-5). A game's seed is that of its place in the run of every level and
    size, so a run of one level or size plays the very games a run of all of them plays
    there."""
    found = [
        Match("basic, 2 seats", "basic", 2, derive_seed(seed, index), index % 2, strong)
        for index in range(games)
    ]
    for rank, level in enumerate(LEVELS):
        for size, players in enumerate(SEATS):
            for game in range(tables):
                index = games + (len(SEATS) * rank + size) * tables + game
                if level not in levels or players not in seats:
                    continue
                found.append(
                    Match(
                        f"{level}, {players} seats",
                        level,
                        players,
                        derive_seed(seed, index),
                        game % players,
                        strong,
                    )
                )
    return found


def per_second(choices: int, ns: int) -> float:
    """Decisions a second from a count and the CPU nanoseconds they took."""
    return choices * 1e9 / ns if ns else 0.0


def figures(line: str, fair: float, played: Sequence[Played]) -> dict[str, Any]:
    """A line's figures."""
    wins = sum(p.won for p in played)
    low, high = wilson(wins, len(played))
    return {
        "line": line,
        "games": len(played),
        "wins": wins,
        "rate": wins / len(played) if played else 0.0,
        "low": low,
        "high": high,
        "fair": fair,
        "strong_per_s": per_second(
            sum(p.strong_choices for p in played), sum(p.strong_ns for p in played)
        ),
        "search_per_s": per_second(
            sum(p.search_choices for p in played), sum(p.search_ns for p in played)
        ),
        "strong_slowest_s": max((p.strong_max_ns for p in played), default=0) / 1e9,
    }


def totals(specs: Sequence[Match], played: Sequence[Played]) -> list[dict[str, Any]]:
    """The games at 3-5 seats together: per level and per table size (where that is more
    than one line and fewer than all), then all of them. A group's fair share is the mean of its
    games' (one in as many as there are seats)."""
    meta = {spec.line: spec for spec in specs}
    many = [p for p in played if meta[p.line].players > 2]
    groups: dict[str, list[Played]] = {}
    for level in dict.fromkeys(meta[p.line].level for p in many):
        groups[f"{level}, 3-5 seats"] = [p for p in many if meta[p.line].level == level]
    for players in dict.fromkeys(meta[p.line].players for p in many):
        groups[f"{players} seats, all levels"] = [
            p for p in many if meta[p.line].players == players
        ]

    def fair(group: Sequence[Played]) -> float:
        return sum(1 / meta[p.line].players for p in group) / len(group)

    found = [
        figures(label, fair(group), group)
        for label, group in groups.items()
        if len({p.line for p in group}) > 1 and len(group) < len(many)
    ]
    if many:
        every = len({p.line for p in many}) == len(LEVELS) * len(SEATS)
        label = f"3-5 seats, {'all levels' if every else 'all lines'}"
        found.append(figures(label, fair(many), many))
    return found


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options from the command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--strong", default="strong", help="the bot under test (strong)")
    parser.add_argument("--games", type=int, help="two-player basic games (100, quick 20)")
    parser.add_argument("--tables", type=int, help="games per level at 3-5 seats (6, quick 2)")
    parser.add_argument(
        "--levels",
        default=",".join(LEVELS),
        help="the levels played at 3-5 seats, separated by commas (all four)",
    )
    parser.add_argument(
        "--seats",
        default="3,4,5",
        help="the table sizes played at every level, separated by commas (3,4,5)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the base seed of the games (1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in (1)")
    parser.add_argument("--quick", action="store_true", help="20 games, and 2 per table")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--progress", action="store_true", help="print each game's outcome to stderr as it ends"
    )
    args = parser.parse_args(argv)
    if args.games is None:
        args.games = 20 if args.quick else 100
    if args.tables is None:
        args.tables = 2 if args.quick else 6
    if args.games < 0 or args.tables < 0 or args.games + args.tables == 0 or args.jobs < 1:
        parser.error("--games and --tables: 0 or more, not both 0; --jobs at least 1")
    args.levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    unknown = [level for level in args.levels if level not in LEVELS]
    if unknown or not args.levels:
        named = ", ".join(unknown) or "none"
        parser.error(
            f"--levels: one or more of {', '.join(LEVELS)}, separated by commas, not {named}"
        )
    try:
        args.seats = [int(size) for size in args.seats.split(",") if size.strip()]
    except ValueError:
        args.seats = []
    if not args.seats or any(size not in SEATS for size in args.seats):
        parser.error("--seats: one or more of 3, 4 and 5, separated by commas")
    try:
        split_bots(args.strong, 1)
    except UsageError as exc:
        parser.error(str(exc).replace("--bots", "--strong"))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Play the match and print its figures."""
    args = parse(argv)
    specs = matches(
        args.games, args.tables, args.seed, args.strong, levels=args.levels, seats=args.seats
    )
    start = time.perf_counter()
    played: list[Played] = []
    with ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else _Inline() as pool:
        for game in pool.map(play, specs, chunksize=1):
            played.append(game)
            if args.progress:
                print(
                    f"game {len(played)}/{len(specs)} ({game.line}): "
                    f"{'won' if game.won else 'lost'}, slowest {game.strong_max_ns / 1e9:.2f} s",
                    file=sys.stderr,
                    flush=True,
                )
    seconds = time.perf_counter() - start
    order = list(dict.fromkeys(spec.line for spec in specs))
    seats = {spec.line: spec.players for spec in specs}
    lines = [
        figures(line, 1 / seats[line], [p for p in played if p.line == line]) for line in order
    ]
    lines.extend(totals(specs, played))
    load = _load()
    if args.json:
        data = {
            "strong": args.strong,
            "seed": args.seed,
            "seconds": seconds,
            "jobs": args.jobs,
            "load": load,
            "lines": lines,
        }
        print(json.dumps(data, indent=2))
        return 0
    print(
        f"{args.strong} against SearchBot() (search:100:8:8), seed {args.seed}; "
        f"decisions per second in the thread's CPU time"
    )
    print()
    print(
        f"{'games':<24}{'games':>6}{'wins':>6}{'rate':>8}   {'95% interval':<16}{'fair':>6}"
        f"{'dec/s strong':>14}{'dec/s search':>14}{'slowest s':>11}"
    )
    for row in lines:
        interval = f"{row['low']:.1%} - {row['high']:.1%}"
        print(
            f"{row['line']:<24}{row['games']:>6}{row['wins']:>6}{row['rate']:>8.1%}   "
            f"{interval:<16}{row['fair']:>6.1%}{row['strong_per_s']:>14.1f}"
            f"{row['search_per_s']:>14.1f}{row['strong_slowest_s']:>11.2f}"
        )
    total = figures("all", 0.0, played)
    first = lines[0]
    print()
    print(
        f"{seconds:.0f} s in all ({args.jobs} job(s)), load {load}: {args.strong} "
        f"{total['strong_per_s']:.1f} decisions/s (slowest {total['strong_slowest_s']:.2f} s) "
        f"beside search's {total['search_per_s']:.1f}; "
        f"{first['line']}: {first['wins']}/{first['games']} = {first['rate']:.1%} "
        f"[{first['low']:.1%}, {first['high']:.1%}]"
    )
    return 0


class _Inline:
    """Plays the games in this process, one after the other, as the pool's ``map`` would."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *_: object) -> None:
        return None

    def map(self, play: Any, specs: Sequence[Match], chunksize: int = 1) -> Any:
        """``play`` of each spec, in order, each as it is asked for."""
        return (play(spec) for spec in specs)


def _load() -> str:
    """The machine's load averages, as ``/proc/loadavg`` gives them (where it does)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])
    except OSError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
