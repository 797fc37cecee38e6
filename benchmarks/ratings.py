"""A rating table of the bots: a seeded round robin at every level and table size, rated.

    python benchmarks/ratings.py --out ratings                  # 6 games per level and size
    python benchmarks/ratings.py --agent agent.npz --out ratings  # with a trained policy
    python benchmarks/ratings.py --games 40 --jobs 8 --backend ray --out ratings

The bots (``--bots``, named as ``gaia-rules simulate --bots`` names them; ``random``,
``greedy``, ``search`` and ``strong`` by default, and ``policy:FILE`` as ``agent`` when
``--agent FILE`` is given) meet at each level (``--levels``) and table size (``--seats``,
2 to 5). At one level and size the games go through every line-up of that many different
bots in turn (all of them, when there are fewer bots than seats, some seats twice), each
line-up turned one seat further each time it comes back, so every bot meets every other and
sits in every seat. Game ``i`` of the whole run is dealt with the seed ``derive_seed(seed,
i)`` and played by ``gaia_rules.cli.simulate.play_one``, as ``gaia-rules simulate`` plays
its games: the same command plays the same games on every machine, whatever ``--jobs`` and
``--backend`` (local processes, or Ray through ``gaia_rules.ray``).

The ratings are Bradley-Terry strengths on the Elo scale (400 points for odds of ten to
one, the random bot at 0), fitted by Hunter's MM algorithm to the pairs the games make: the
winner of a game beats each other bot at its table (two seats of one bot make no pair).
Every pair of bots is given one drawn game more (half a win each way), so that a bot that
never lost (or never won) still has a finite rating. The 95% intervals are bootstrap
percentiles: the games resampled with replacement ``--bootstrap`` times and rated again.
Ratings are given over all games, per level and per table size.

It writes ``ratings.json`` (every figure, and each game's line-up and winner),
``ratings.md`` (the tables) and ``ratings.svg`` (the overall ratings with their intervals,
and each level's, drawn without any plotting library) in ``--out``, and prints the tables.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from gaia_rules.cli.common import UsageError, derive_seed, split_bots
from gaia_rules.cli.simulate import GameOutcome, GameSpec, play_one

LEVELS = ("basic", "advanced", "powers", "disasters")
SEATS = (2, 3, 4, 5)
DEFAULT_BOTS = ("random", "greedy", "search", "strong")
ELO = 400 / math.log(10)
"""Elo points per unit of log-strength."""


def lineups(bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The line-ups of ``seats`` different bots, in order; all bots, some twice, when there
    are fewer bots than seats."""
    if seats <= len(bots):
        return list(itertools.combinations(bots, seats))
    return [tuple(bots[seat % len(bots)] for seat in range(seats))]


def schedule(
    bots: Sequence[str], levels: Sequence[str], seats: Sequence[int], games: int, seed: int
) -> list[GameSpec]:
    """Every game of the run, as ``simulate`` describes a game."""
    specs: list[GameSpec] = []
    for level in levels:
        for size in seats:
            tables = lineups(bots, size)
            for game in range(games):
                base = tables[game % len(tables)]
                turn = (game // len(tables)) % size
                lineup = tuple(base[(seat + turn) % size] for seat in range(size))
                index = len(specs)
                specs.append(
                    GameSpec(
                        index=index,
                        seed=derive_seed(seed, index),
                        players=size,
                        level=level,
                        edition="third",
                        lineup=lineup,
                        records=None,
                    )
                )
    return specs


def pairs(outcomes: Iterable[GameOutcome]) -> Iterator[tuple[str, str]]:
    """(winner, loser) for each other bot at each game's table."""
    for outcome in outcomes:
        winner = outcome.lineup[outcome.winner]
        for loser in dict.fromkeys(outcome.lineup):
            if loser != winner:
                yield winner, loser


def bradley_terry(
    bots: Sequence[str], outcomes: Sequence[GameOutcome], anchor: str | None
) -> dict[str, float]:
    """The Elo-scale rating of each bot (``anchor`` at 0, else their mean at 0), by Hunter's
    MM algorithm, every pair given half a win each way."""
    index = {bot: i for i, bot in enumerate(bots)}
    size = len(bots)
    wins = [[0.5 if i != j else 0.0 for j in range(size)] for i in range(size)]
    for winner, loser in pairs(outcomes):
        wins[index[winner]][index[loser]] += 1
    total_wins = [sum(row) for row in wins]
    games = [[wins[i][j] + wins[j][i] for j in range(size)] for i in range(size)]
    strength = [1.0] * size
    for _ in range(1000):
        fresh = []
        for i in range(size):
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(size) if j != i
            )
            fresh.append(total_wins[i] / denominator)
        mean = math.exp(sum(math.log(s) for s in fresh) / size)
        fresh = [s / mean for s in fresh]
        change = max(abs(math.log(a / b)) for a, b in zip(fresh, strength, strict=True))
        strength = fresh
        if change < 1e-10:
            break
    logs = [math.log(s) for s in strength]
    zero = logs[index[anchor]] if anchor in index else sum(logs) / size
    return {bot: ELO * (logs[index[bot]] - zero) for bot in bots}


def rated(
    bots: Sequence[str],
    outcomes: Sequence[GameOutcome],
    anchor: str | None,
    rounds: int,
    rng: random.Random,
) -> dict[str, dict[str, float]]:
    """Each bot's rating, its 95% bootstrap interval, its games and wins."""
    point = bradley_terry(bots, outcomes, anchor)
    samples: dict[str, list[float]] = {bot: [] for bot in bots}
    for _ in range(rounds if outcomes else 0):
        drawn = [outcomes[rng.randrange(len(outcomes))] for _ in outcomes]
        for bot, value in bradley_terry(bots, drawn, anchor).items():
            samples[bot].append(value)
    found: dict[str, dict[str, float]] = {}
    for bot in bots:
        ordered = sorted(samples[bot])
        low = ordered[int(0.025 * len(ordered))] if ordered else point[bot]
        high = ordered[min(len(ordered) - 1, int(0.975 * len(ordered)))] if ordered else point[bot]
        played = [o for o in outcomes if bot in o.lineup]
        won = sum(1 for o in played if o.lineup[o.winner] == bot)
        found[bot] = {
            "elo": point[bot],
            "low": low,
            "high": high,
            "games": len(played),
            "wins": won,
        }
    return found


def markdown(
    bots: Sequence[str],
    names: dict[str, str],
    groups: dict[str, dict[str, dict[str, float]]],
    counts: dict[str, int],
) -> str:
    """The ratings as a Markdown table: a row per bot, a column per group of games."""
    head = "| bot | " + " | ".join(groups) + " |"
    rule = "|---|" + "---|" * len(groups)
    rows = [head, rule]
    order = sorted(bots, key=lambda bot: -groups["all"][bot]["elo"])
    for bot in order:
        cells = []
        for group in groups.values():
            line = group[bot]
            cells.append(f"{line['elo']:.0f} [{line['low']:.0f}, {line['high']:.0f}]")
        rows.append(f"| {names[bot]} | " + " | ".join(cells) + " |")
    rows.append("| games | " + " | ".join(str(counts[group]) for group in groups) + " |")
    return "\n".join(rows)


def svg(
    bots: Sequence[str], names: dict[str, str], groups: dict[str, dict[str, dict[str, float]]]
) -> str:
    """The overall ratings with their intervals (black) and each level's (coloured), one row
    per bot, as an SVG document."""
    levels = [name for name in groups if name in LEVELS]
    colours = dict(zip(LEVELS, ("#1b9e77", "#d95f02", "#7570b3", "#e7298a"), strict=True))
    order = sorted(bots, key=lambda bot: -groups["all"][bot]["elo"])
    values = [
        value
        for name in ["all", *levels]
        for bot in bots
        for value in (groups[name][bot]["low"], groups[name][bot]["high"])
    ]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    span = high - low or 1.0
    left, width, top, row = 110, 560, 40, 44
    height = top + row * len(order) + 60

    def x(value: float) -> float:
        return left + (value - low) / span * width

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" '
        f'height="{height}" font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{left}" y="20" font-size="14">Bradley-Terry ratings (Elo scale, random = 0) '
        "with 95% bootstrap intervals</text>",
    ]
    step = 10 ** math.floor(math.log10(span / 2)) if span > 0 else 100
    tick = math.ceil(low / step) * step
    axis = top + row * len(order)
    while tick <= high:
        parts.append(
            f'<line x1="{x(tick):.1f}" y1="{top - 10}" x2="{x(tick):.1f}" y2="{axis}" '
            'stroke="#ddd"/>'
        )
        parts.append(
            f'<text x="{x(tick):.1f}" y="{axis + 15}" text-anchor="middle">{tick:.0f}</text>'
        )
        tick += step
    for place, bot in enumerate(order):
        y = top + row * place + row / 2
        parts.append(
            f'<text x="{left - 10}" y="{y + 4:.1f}" text-anchor="end">{escape(names[bot])}</text>'
        )
        line = groups["all"][bot]
        parts.append(
            f'<line x1="{x(line["low"]):.1f}" y1="{y:.1f}" x2="{x(line["high"]):.1f}" '
            f'y2="{y:.1f}" stroke="black" stroke-width="2"/>'
        )
        parts.append(f'<circle cx="{x(line["elo"]):.1f}" cy="{y:.1f}" r="5" fill="black"/>')
        for shift, level in enumerate(levels, 1):
            mark = groups[level][bot]
            yy = y + 4 * shift
            parts.append(
                f'<line x1="{x(mark["low"]):.1f}" y1="{yy:.1f}" x2="{x(mark["high"]):.1f}" '
                f'y2="{yy:.1f}" stroke="{colours[level]}" stroke-opacity="0.6"/>'
            )
            parts.append(
                f'<circle cx="{x(mark["elo"]):.1f}" cy="{yy:.1f}" r="2.5" fill="{colours[level]}"/>'
            )
    legend_y = axis + 35
    parts.append(f'<text x="{left}" y="{legend_y}">all games</text>')
    for shift, level in enumerate(levels):
        parts.append(
            f'<text x="{left + 90 + 110 * shift}" y="{legend_y}" fill="{colours[level]}">'
            f"{level}</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def play(specs: Sequence[GameSpec], jobs: int, backend: str) -> list[GameOutcome]:
    """Every game's outcome, in the order of ``specs``."""
    if backend == "ray":
        from gaia_rules.ray import ray_map  # noqa: PLC0415 (the optional ray extra)

        found = list(ray_map(play_one, specs, num_cpus=jobs))
    elif jobs == 1:
        found = [play_one(spec) for spec in specs]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            found = list(pool.map(play_one, specs, chunksize=1))
    return sorted(found, key=lambda outcome: outcome.index)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The options from the command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS), help="the bots, by name")
    parser.add_argument("--agent", type=Path, help="a saved policy, rated as 'agent'")
    parser.add_argument("--levels", default=",".join(LEVELS), help="the levels (all four)")
    parser.add_argument("--seats", default="2,3,4,5", help="the table sizes (2,3,4,5)")
    parser.add_argument("--games", type=int, default=6, help="games per level and size (6)")
    parser.add_argument("--seed", type=int, default=1, help="the base seed of the games (1)")
    parser.add_argument("--bootstrap", type=int, default=200, help="bootstrap rounds (200)")
    parser.add_argument("--jobs", type=int, default=1, help="processes or Ray workers (1)")
    parser.add_argument("--backend", choices=("processes", "ray"), default="processes")
    parser.add_argument("--out", type=Path, help="the folder to write the files in")
    args = parser.parse_args(argv)
    args.bots = [name.strip() for name in args.bots.split(",")]
    if args.agent is not None:
        args.bots.append(f"policy:{args.agent}")
    args.levels = [level.strip() for level in args.levels.split(",")]
    if any(level not in LEVELS for level in args.levels):
        parser.error(f"--levels: the levels are {', '.join(LEVELS)}")
    try:
        args.seats = [int(size) for size in args.seats.split(",")]
    except ValueError:
        parser.error("--seats: whole numbers from 2 to 5, separated by commas")
    if any(size not in SEATS for size in args.seats):
        parser.error("--seats: whole numbers from 2 to 5, separated by commas")
    if args.games < 1 or args.jobs < 1 or args.bootstrap < 0:
        parser.error("--games and --jobs must be at least 1, --bootstrap at least 0")
    if len(set(args.bots)) != len(args.bots) or len(args.bots) < 2:
        parser.error("--bots: at least two different bots")
    try:
        split_bots(",".join(args.bots), len(args.bots))
    except UsageError as exc:
        parser.error(str(exc))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Play the round robin, rate the bots, print the tables and write the files."""
    args = parse(argv)
    names = {bot: "agent" if bot.startswith("policy:") else bot for bot in args.bots}
    specs = schedule(args.bots, args.levels, args.seats, args.games, args.seed)
    start = time.perf_counter()
    outcomes = play(specs, args.jobs, args.backend)
    seconds = time.perf_counter() - start
    failed = [outcome for outcome in outcomes if outcome.error is not None]
    if failed:
        print(f"game {failed[0].index} failed: {failed[0].error}", file=sys.stderr)
        return 1
    rng = random.Random(args.seed)
    anchor = "random" if "random" in args.bots else None
    chosen: dict[str, list[GameOutcome]] = {"all": list(outcomes)}
    by_level = {spec.index: spec.level for spec in specs}
    for level in args.levels:
        chosen[level] = [o for o in outcomes if by_level[o.index] == level]
    for size in args.seats:
        chosen[f"{size} seats"] = [o for o in outcomes if len(o.lineup) == size]
    groups: dict[str, dict[str, dict[str, float]]] = {}
    for name, games in chosen.items():
        groups[name] = rated(args.bots, games, anchor, args.bootstrap, rng)
    counts = {name: len(games) for name, games in chosen.items()}
    table = markdown(args.bots, names, groups, counts)
    command = "python benchmarks/ratings.py " + " ".join(sys.argv[1:] if argv is None else argv)
    header = (
        f"{len(outcomes)} games ({args.games} per level and table size), seed {args.seed}, "
        f"{seconds:.0f} s on {args.jobs} {args.backend} job(s); load {_load()}"
    )
    print(header)
    print()
    print(table)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        clean = {
            group: {names[bot]: line for bot, line in lines.items()}
            for group, lines in groups.items()
        }
        data: dict[str, Any] = {
            "command": command,
            "bots": [names[bot] for bot in args.bots],
            "specs": {names[bot]: bot for bot in args.bots},
            "levels": args.levels,
            "seats": args.seats,
            "games_per_configuration": args.games,
            "seed": args.seed,
            "bootstrap": args.bootstrap,
            "seconds": seconds,
            "jobs": args.jobs,
            "backend": args.backend,
            "games": counts,
            "ratings": clean,
            "outcomes": [
                {
                    "index": o.index,
                    "level": by_level[o.index],
                    "lineup": [names[bot] for bot in o.lineup],
                    "winner": o.winner,
                    "decisions": o.decisions,
                }
                for o in outcomes
            ],
        }
        (args.out / "ratings.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        (args.out / "ratings.md").write_text(
            f"`{command}`\n\n{header}\n\n{table}\n", encoding="utf-8"
        )
        (args.out / "ratings.svg").write_text(svg(args.bots, names, groups), encoding="utf-8")
    return 0


def _load() -> str:
    """The machine's load averages, as ``/proc/loadavg`` gives them (where it does)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])
    except OSError:
        return f"unknown ({os.cpu_count()} processors)"


if __name__ == "__main__":
    sys.exit(main())
