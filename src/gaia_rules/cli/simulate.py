"""``gaia-rules simulate``: many seeded games between bots, and who won them.

Game ``i`` is played with the seed ``derive_seed(S, i)`` (``S`` the base seed) and the
line-up rotated by ``i`` seats, so that every bot sits in every seat in turn. Each game
depends on its index only, so the results are the same whatever the number of processes,
and whatever the backend: local processes, or a Ray cluster (``--backend ray``, the ``ray``
extra, [`gaia_rules.ray`][gaia_rules.ray]).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from gaia_rules.cli.common import (
    CommandError,
    Console,
    UsageError,
    bots_for,
    derive_seed,
    play_out,
    split_bots,
)
from gaia_rules.events import EndReason
from gaia_rules.game import new_game
from gaia_rules.rules import Edition, Level, Rules

__all__ = ["GameOutcome", "GameSpec", "Summary", "play_one", "run", "summarize", "wilson"]


@attrs.frozen
class GameSpec:
    """One game to play: its index, seed, rules and the bot of each seat."""

    index: int
    seed: int
    players: int
    level: str
    edition: str
    lineup: tuple[str, ...]
    records: str | None
    """The folder to write the game's record in, if any."""
    width: int = 1
    """The digits of the largest index, for record file names that sort."""


@attrs.frozen
class GameOutcome:
    """How one game went: who won (a seat, never a tie), why, and in how many decisions."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    winner: int
    reason: str
    decisions: int
    error: str | None = None


@functools.cache
def _rules(level: str, edition: str) -> Rules:
    return Rules(level=Level[level.upper()], edition=Edition(edition))


def record_name(index: int, seed: int, width: int) -> str:
    """The file name of game ``index``'s record: ``game-0007-seed-1234.json``."""
    return f"game-{index:0{width}d}-seed-{seed}.json"


def play_one(spec: GameSpec) -> GameOutcome:
    """Play one game between bots (in any process); write its record if asked.

    Never raises: a failure (a bot's or the engine's, or an unwritable record) comes back
    in ``error``, since an exception does not always survive the way back from a worker.
    """
    try:
        game = new_game(spec.players, _rules(spec.level, spec.edition), spec.seed)
        decisions = play_out(game, bots_for(spec.lineup, spec.seed))
        result = game.result
        assert result is not None
        if spec.records is not None:
            path = Path(spec.records) / record_name(spec.index, spec.seed, spec.width)
            path.write_text(game.record().to_json() + "\n", encoding="utf-8")
    except Exception as exc:  # crosses a process boundary as text
        return GameOutcome(
            spec.index, spec.seed, spec.lineup, -1, "", 0, f"{type(exc).__name__}: {exc}"
        )
    return GameOutcome(
        index=spec.index,
        seed=spec.seed,
        lineup=spec.lineup,
        winner=result.winner,
        reason=result.reason.value,
        decisions=decisions,
    )


def wilson(wins: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for the default ``z``)."""
    if trials == 0:
        return (0.0, 1.0)
    p = wins / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


@attrs.frozen
class BotLine:
    """One bot's share of the wins: ``played`` counts the seats it held over all games."""

    name: str
    seats: int
    played: int
    wins: int

    @property
    def rate(self) -> float:
        """Wins per seat played."""
        return self.wins / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate`."""
        return wilson(self.wins, self.played)


@attrs.frozen
class Summary:
    """What a simulation found (everything but the timing depends on the games only)."""

    games: int
    players: int
    level: str
    edition: str
    seed: int
    lineup: tuple[str, ...]
    bots: tuple[BotLine, ...]
    wins_by_seat: tuple[int, ...]
    endings: dict[str, int]
    lengths: tuple[int, ...]
    wall_seconds: float
    jobs: int

    def to_data(self) -> dict[str, Any]:
        """The summary as JSON-ready data; timing apart under ``"timing"``."""
        total = sum(self.lengths)
        return {
            "games": self.games,
            "players": self.players,
            "level": self.level,
            "edition": self.edition,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "bots": {
                line.name: {
                    "seats": line.seats,
                    "played": line.played,
                    "wins": line.wins,
                    "rate": line.rate,
                    "ci95": list(line.interval),
                }
                for line in self.bots
            },
            "fair_rate": 1 / self.players,
            "wins_by_seat": list(self.wins_by_seat),
            "endings": self.endings,
            "decisions": {
                "total": total,
                "min": min(self.lengths, default=0),
                "median": statistics.median(self.lengths) if self.lengths else 0,
                "mean": statistics.fmean(self.lengths) if self.lengths else 0.0,
                "max": max(self.lengths, default=0),
            },
            "timing": {
                "wall_seconds": self.wall_seconds,
                "decisions_per_second": total / self.wall_seconds if self.wall_seconds else 0.0,
                "jobs": self.jobs,
            },
        }


def summarize(
    outcomes: Sequence[GameOutcome], args: argparse.Namespace, lineup: tuple[str, ...], wall: float
) -> Summary:
    """Count the wins by seat and by bot, the endings and the game lengths."""
    players: int = args.players
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    by_seat = [0] * players
    endings: Counter[str] = Counter({reason.value: 0 for reason in EndReason})
    for outcome in outcomes:
        played.update(outcome.lineup)
        wins[outcome.lineup[outcome.winner]] += 1
        by_seat[outcome.winner] += 1
        endings[outcome.reason] += 1
    names = dict.fromkeys(lineup)
    return Summary(
        games=len(outcomes),
        players=players,
        level=args.level,
        edition=args.edition,
        seed=args.seed,
        lineup=lineup,
        bots=tuple(BotLine(name, lineup.count(name), played[name], wins[name]) for name in names),
        wins_by_seat=tuple(by_seat),
        endings=dict(endings),
        lengths=tuple(outcome.decisions for outcome in outcomes),
        wall_seconds=wall,
        jobs=args.jobs,
    )


def summary_text(summary: Summary) -> str:
    """The summary for a person: the bots' win rates first, since that is the question."""
    data = summary.to_data()
    games = summary.games
    lines = [
        f"{games} games, {summary.players} players, {summary.level} rules, "
        f"{summary.edition} edition, base seed {summary.seed}",
        f"line-up (game 0, seat 0 first): {', '.join(summary.lineup)}; "
        "it rotates one seat per game",
        "",
        f"wins by bot (rate = wins per seat played; a fair share is {1 / summary.players:.1%})",
        f"  {'bot':<12}{'seats':>6}{'played':>8}{'wins':>7}{'rate':>8}   95% interval",
    ]
    for line in summary.bots:
        low, high = line.interval
        lines.append(
            f"  {line.name:<12}{line.seats:>6}{line.played:>8}{line.wins:>7}"
            f"{line.rate:>8.1%}   {low:.1%} - {high:.1%}"
        )
    lines += ["", "wins by seat (95% interval)"]
    for seat, count in enumerate(summary.wins_by_seat):
        low, high = wilson(count, games)
        lines.append(
            f"  seat {seat}  {count:>6}  {count / games if games else 0:>6.1%}   "
            f"{low:.1%} - {high:.1%}"
        )
    lines += ["", "how the games ended"]
    for reason, count in summary.endings.items():
        lines.append(f"  {reason:<18}{count:>6}  {count / games if games else 0:>6.1%}")
    decisions = data["decisions"]
    timing = data["timing"]
    lines += [
        "",
        f"game length in decisions: min {decisions['min']}, median {decisions['median']}, "
        f"mean {decisions['mean']:.1f}, max {decisions['max']}",
        f"{decisions['total']} decisions in {timing['wall_seconds']:.2f} s "
        f"({timing['decisions_per_second']:,.0f} per second, {summary.jobs} job(s))",
    ]
    return "\n".join(lines)


class _Progress:
    """A one-line progress bar on the error stream (never on the output): games done, the
    rate in games per second and the time left at that rate."""

    def __init__(self, console: Console, total: int, shown: bool) -> None:
        self._err = console.err
        self._total = total
        self._shown = shown and total > 0
        self._start = time.perf_counter()
        self._last = -1.0

    def update(self, done: int) -> None:
        if not self._shown:
            return
        now = time.perf_counter()
        if done < self._total and now - self._last < 0.1:
            return
        self._last = now
        filled = 30 * done // self._total
        elapsed = now - self._start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f"{(self._total - done) / rate:6.1f} s left" if rate > 0 else "   ... s left"
        self._err.write(
            f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{self._total} games "
            f"{elapsed:6.1f} s, {rate:7.1f} games/s, {left}"
        )
        if done == self._total:
            self._err.write("\n")
        self._err.flush()


BACKENDS = ("processes", "ray")
"""Where the games are played: local processes (``--jobs`` of them, one: this process), or
a Ray cluster."""


def _outcomes(
    specs: Sequence[GameSpec],
    jobs: int,
    progress: _Progress,
    backend: str = "processes",
    address: str | None = None,
    *,
    runtime_env: dict[str, Any] | None = None,
) -> Iterator[GameOutcome]:
    if backend == "ray":
        try:
            from gaia_rules.ray import ray_map  # noqa: PLC0415 (the optional ray extra)
        except ImportError as exc:
            raise CommandError(
                f"--backend ray needs Ray: pip install 'gaia-rules[ray]' ({exc})"
            ) from None
        outcomes = ray_map(play_one, specs, address=address, num_cpus=jobs, runtime_env=runtime_env)
        for done, outcome in enumerate(outcomes, 1):
            yield outcome
            progress.update(done)
        return
    if jobs == 1:
        for done, spec in enumerate(specs, 1):
            yield play_one(spec)
            progress.update(done)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(play_one, spec) for spec in specs]
        for done, future in enumerate(as_completed(futures), 1):
            yield future.result()
            progress.update(done)


def _runtime_env(args: argparse.Namespace) -> dict[str, Any] | None:
    """The runtime environment of ``--runtime-env`` (JSON, or ``@FILE`` of JSON) and
    ``--ship``, or ``None`` when neither is given."""
    text: str | None = getattr(args, "runtime_env", None)
    env: dict[str, Any] | None = None
    if text is not None:
        source = "--runtime-env"
        if text.startswith("@"):
            source = text[1:]
            try:
                text = Path(source).read_text(encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"--runtime-env: cannot read {source}: {exc.strerror}") from None
        try:
            env = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--runtime-env: {source} is not JSON: {exc}") from None
        if not isinstance(env, dict):
            raise UsageError("--runtime-env: expected a JSON object, as Ray's runtime_env")
    if getattr(args, "ship", False):
        try:
            from gaia_rules.ray import shipped  # noqa: PLC0415 (the optional ray extra)
        except ImportError as exc:
            raise CommandError(
                f"--backend ray needs Ray: pip install 'gaia-rules[ray]' ({exc})"
            ) from None
        env = shipped(env)
    return env


def run(args: argparse.Namespace, console: Console) -> int:
    """Play the games, then print the summary (as text, or as JSON with ``--json``)."""
    if args.games < 1:
        raise UsageError("--games: expected at least 1")
    if args.jobs < 0:
        raise UsageError("--jobs: expected 0 (one per processor) or more")
    backend = getattr(args, "backend", "processes")
    address = getattr(args, "address", None)
    if address is not None and backend != "ray":
        raise UsageError("--address: only with --backend ray")
    runtime_env = _runtime_env(args) if backend == "ray" else None
    if backend != "ray" and (getattr(args, "runtime_env", None) or getattr(args, "ship", False)):
        raise UsageError("--runtime-env and --ship: only with --backend ray")
    jobs = args.jobs or os.cpu_count() or 1
    args = argparse.Namespace(**{**vars(args), "jobs": jobs})
    lineup = split_bots(args.bots, args.players)
    records: str | None = None
    if args.records is not None:
        try:
            Path(args.records).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OSError(f"--records: cannot make the folder {args.records}: {exc}") from None
        records = str(args.records)
    width = len(str(args.games - 1))
    specs = [
        GameSpec(
            index=index,
            seed=derive_seed(args.seed, index),
            players=args.players,
            level=args.level,
            edition=args.edition,
            lineup=tuple(lineup[(seat + index) % args.players] for seat in range(args.players)),
            records=records,
            width=width,
        )
        for index in range(args.games)
    ]
    shown = not args.quiet and console.err.isatty()
    progress = _Progress(console, len(specs), shown)
    start = time.perf_counter()
    outcomes = sorted(
        _outcomes(specs, jobs, progress, backend, address, runtime_env=runtime_env),
        key=lambda outcome: outcome.index,
    )
    wall = time.perf_counter() - start
    for outcome in outcomes:
        if outcome.error is not None:
            console.err.write(
                f"gaia-rules: game {outcome.index} (seed {outcome.seed}, bots "
                f"{','.join(outcome.lineup)}) failed: {outcome.error}\n"
            )
            return 1
    summary = summarize(outcomes, args, lineup, wall)
    if args.json:
        console.print(json.dumps(summary.to_data(), indent=2))
    else:
        console.print(summary_text(summary))
    return 0
