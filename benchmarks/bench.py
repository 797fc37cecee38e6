"""How fast gaia-rules plays, measured against python-chess in the same process and run.

    python benchmarks/bench.py              # the full run (a minute or two)
    python benchmarks/bench.py --quick      # a short run (about twenty seconds)
    python benchmarks/bench.py --json       # the figures as one JSON object
    python benchmarks/bench.py --check      # exit 1 when a target fails

Seven measurements, then the targets (see benchmarks/README.md for what each means):

1. uniform random playouts at every level for 2, 4 and 5 players: the cost of
   ``legal_actions()`` (with picking one action) and of ``apply()``, per decision;
2. ``Game.copy()`` on mid-game states;
3. the python-chess anchor: random playouts from the start position, and
   ``Board.copy(stack=False)`` on mid-game boards;
4. the cost per decision by world size (the tiles in the world when it is taken), from the
   4-player playouts of 1;
5. ``game.view(seat)`` of the seat to move, after every decision of 4-player playouts;
6. finished 4-player games' records: ``replay()``, ``to_json()`` and ``from_json()``;
7. ``SearchBot`` at its default budget: decisions per second (and, for reference, at the
   cheaper budget ``search:100:1``, which is not as strong: see ``search_strength.py``).

Every per-call figure is given twice: the raw mean, and a clipped mean that leaves out the
calls over 1 ms (a busy machine's preemptions: no call takes that long on its own); records
and search, which take milliseconds, are timed in CPU time. The targets use those, each
against an anchor from the same run.

The playouts are played in rounds: one game of every configuration, then one chess game, so a
machine that gets busier or quieter during the run weighs on every figure alike. Only the
engines' calls are timed; the bookkeeping between them (``is_over``, counting tiles, checking
the count against ``game.state``) is not. This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import array
import datetime
import functools
import json
import os
import platform
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import chess

import gaia_rules as gr
from gaia_rules.bots import SearchBot

LEVELS: tuple[tuple[str, Callable[[], gr.Rules]], ...] = (
    ("basic", gr.Rules.basic),
    ("advanced", gr.Rules.advanced),
    ("powers", gr.Rules.powers),
    ("disasters", gr.Rules.disasters),
)
PLAYER_COUNTS = (2, 4, 5)
TARGET_PLAYERS = 4
WORLD_TILES = 48
BUCKETS = ((0, 10), (11, 25), (26, 48))
"""World-size buckets, in tiles. The world starts empty, so the first decisions see 0 tiles."""
NEAR_10 = (6, 14)
NEAR_40 = (36, 44)
PLY_CAP = 400
CHESS_COPY = "chess (stack=False)"
MAX_DECISIONS = 5_000
"""A random game that lasts longer than this is a bug, not a benchmark figure."""

PER_PLY_LIMIT = 0.5
"""A decision at most half a python-chess ply."""
VIEW_LIMIT = 0.15
"""A view at most 0.15 of a python-chess ply."""
COPY_LIMIT = 1.5
"""A copy at most 1.5 times python-chess's ``copy(stack=False)``."""
GROWTH_LIMIT = 2.0
REPLAY_LIMIT_MS = 3.0
"""A finished game's ``replay()`` at most 3 ms."""
READ_LIMIT = 2.0
"""``GameRecord.from_json`` at most twice ``to_json``."""
SEARCH_LIMIT = 100.0
"""``SearchBot`` at its default budget: at least 100 decisions a second."""
SEARCH_BUDGETS: tuple[tuple[str, dict[str, int]], ...] = (
    ("search:100:8:8", {}),
    ("search:100:1", {"playouts": 100, "horizon": 1}),
)
"""The budgets section 7 times, as the command line spells them: the default first (target
g), then, for reference only, the cheapest budget measured that plays close to it (it won 42%
of 800 games against the default, 38.6-45.5% at 95%: see search_strength.py and the
README). No budget measured reaches 100 decisions a second at the default's strength."""
COPY_BATCH = 100
"""Copies are timed in batches of this many (one copy is too short for the clock)."""
CLIP_NS = 1_000_000
"""A call over 1 ms was interrupted by the system (no decision, ply, view or batch of copies
takes that long on its own): the clipped means leave such calls out."""


# -- settings and results ---------------------------------------------------------------------


@attrs.frozen
class Settings:
    """How much to measure: ``games`` rounds of playouts, ``mid_games`` mid-game states per
    level (and as many chess boards) to copy, ``copies`` copies of each; ``records`` finished
    games per level to replay and read, each ``repeats`` times; ``searches`` decisions of
    ``SearchBot`` per level."""

    seed: int
    games: int
    mid_games: int
    copies: int
    quick: bool
    records: int = 4
    repeats: int = 5
    searches: int = 20


@attrs.frozen
class Header:
    """Where and how the figures were taken."""

    python: str
    platform: str
    cpus: int | None
    gaia_rules: str
    chess: str
    command: str
    date: str
    load: tuple[float | None, float | None]
    """The machine's 1-minute load average before and after the run (None where unknown)."""


@attrs.frozen
class PlayoutRow:
    """Random playouts of one configuration; times are means in microseconds."""

    level: str
    players: int
    games: int
    decisions: int
    decisions_per_game: float
    decisions_per_s: float
    legal_us: float
    apply_us: float
    decision_us: float
    clipped_us: float
    """The clipped mean of a decision (legal and apply together)."""


@attrs.frozen
class ChessRow:
    """Random chess playouts; ``moves_us`` is ``list(board.legal_moves)`` with the choice."""

    games: int
    plies: int
    plies_per_game: float
    plies_per_s: float
    moves_us: float
    push_us: float
    ply_us: float
    clipped_us: float
    """The clipped mean of a ply (moves and push together)."""


@attrs.frozen
class ViewRow:
    """``game.view(to_move)`` after each decision of one level's 4-player playouts."""

    level: str
    views: int
    mean_us: float
    clipped_us: float
    again_us: float
    """The clipped mean of a second view of the same seat, asked at once: what building the
    value costs when everything derived from the game is kept (the rest of a view's cost is
    finding what changed since the last decision)."""


@attrs.frozen
class RecordRow:
    """Finished 4-player games of one level: their records replayed, written and read."""

    level: str
    records: int
    actions_per_record: float
    replay_ms: float
    replay_cpu_ms: float
    to_json_us: float
    to_json_cpu_us: float
    from_json_us: float
    from_json_cpu_us: float


@attrs.frozen
class SearchRow:
    """``SearchBot`` at one budget choosing for seat 0 of 4-player games at one level, the
    other seats random; only decisions with a real choice are counted."""

    level: str
    budget: str
    decisions: int
    mean_ms: float
    cpu_ms: float
    decisions_per_s: float
    """From the CPU time."""


@attrs.frozen
class CopyRow:
    """Copies of mid-game states: the mean over every copy, and the dearest state's mean."""

    subject: str
    states: int
    copies: int
    mean_us: float
    worst_state_us: float
    clipped_us: float
    """The clipped mean over batches of ``COPY_BATCH`` copies, all states together."""


@attrs.frozen
class Cell:
    """The decisions taken with ``low`` to ``high`` tiles in the world, and their mean cost."""

    low: int
    high: int
    decisions: int
    decision_us: float | None


@attrs.frozen
class BucketRow:
    """The cost per decision of one level (at 4 players) by world size."""

    level: str
    buckets: tuple[Cell, ...]
    top_over_bottom: float | None
    near_10: Cell
    near_40: Cell
    growth: float | None


@attrs.frozen
class Target:
    """One target, checked on one subject: ``value`` against ``limit`` (lower is better)."""

    name: str
    subject: str
    value: float | None
    limit: float
    passed: bool
    note: str
    at_least: bool = False
    """Whether higher is better (the value must reach the limit)."""


@attrs.frozen
class Report:
    """Everything one run measured."""

    header: Header
    settings: Settings
    playouts: tuple[PlayoutRow, ...]
    chess_playouts: ChessRow
    copies: tuple[CopyRow, ...]
    buckets: tuple[BucketRow, ...]
    views: tuple[ViewRow, ...]
    records: tuple[RecordRow, ...]
    searches: tuple[SearchRow, ...]
    targets: tuple[Target, ...]
    seconds: float


# -- accumulators -----------------------------------------------------------------------------


@attrs.define
class Tally:
    """Running totals of one gaia-rules configuration, with the cost by world size."""

    games: int = 0
    decisions: int = 0
    legal_ns: int = 0
    apply_ns: int = 0
    count_by_tiles: list[int] = attrs.Factory(lambda: [0] * (WORLD_TILES + 1))
    samples: array.array[int] = attrs.Factory(lambda: array.array("q"))
    """The nanoseconds of every decision (legal and apply together)."""
    tiles_at: array.array[int] = attrs.Factory(lambda: array.array("b"))
    """The tiles in the world at every decision (beside ``samples``)."""
    views: array.array[int] = attrs.Factory(lambda: array.array("q"))
    """The nanoseconds of every view, in the games that take them."""
    views_again: array.array[int] = attrs.Factory(lambda: array.array("q"))
    """The nanoseconds of a second view of the same seat, asked at once after each view."""

    def cell(self, low: int, high: int) -> Cell:
        """The decisions taken with ``low`` to ``high`` tiles in the world (their clipped
        mean)."""
        count = sum(self.count_by_tiles[low : high + 1])
        within = [
            ns
            for ns, tiles in zip(self.samples, self.tiles_at, strict=True)
            if low <= tiles <= high
        ]
        return Cell(low, high, count, clipped_mean(within) / 1000 if count else None)


@attrs.define
class ChessTally:
    """Running totals of the chess playouts."""

    games: int = 0
    plies: int = 0
    moves_ns: int = 0
    push_ns: int = 0
    samples: array.array[int] = attrs.Factory(lambda: array.array("q"))
    """The nanoseconds of every ply (moves and push together)."""


def clipped_mean(samples: Sequence[float]) -> float:
    """The mean of ``samples`` without those over ``CLIP_NS`` (all of them if every one is).

    Not a trimmed mean: leaving out a share of the dearest calls would leave out real work
    too, and more of it from the engine whose costs spread wider, which biases a ratio."""
    kept = [ns for ns in samples if ns <= CLIP_NS] or list(samples)
    return sum(kept) / len(kept) if kept else 0.0


# -- 1 and 4: gaia-rules playouts -------------------------------------------------------------


def play_gaia(game: gr.Game, rng: random.Random, tally: Tally, *, views: bool = False) -> None:
    """Play ``game`` to its end, choosing uniformly among the legal actions with ``rng``.

    ``legal_actions()`` (with reading its length and the chosen action) and ``apply()`` are
    timed apart. The world's size is followed through the ``TilePlaced`` events, outside the
    timed calls, and checked against ``game.state`` once the game is over. With ``views``,
    only ``game.view(to_move)`` after each decision is timed (what a bot or a server asks
    for), and the decisions are not counted.
    """
    if views:
        _play_with_views(game, rng, tally)
        return
    clock = time.perf_counter_ns
    tiles = len(game.state.tiles)
    decisions = 0
    samples = tally.samples
    while not game.is_over:
        start = clock()
        actions = game.legal_actions()
        n = len(actions)
        action = actions[rng.randrange(n)]
        chosen = clock()
        events = game.apply(action)
        done = clock()
        tally.legal_ns += chosen - start
        tally.apply_ns += done - chosen
        tally.count_by_tiles[tiles] += 1
        samples.append(done - start)
        tally.tiles_at.append(tiles)
        tiles += sum(1 for event in events if isinstance(event, gr.TilePlaced))
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{game!r} lasted more than {MAX_DECISIONS} decisions")
    if tiles != len(game.state.tiles):
        raise RuntimeError(f"{game!r}: counted {tiles} tiles, the state has a different count")
    tally.games += 1
    tally.decisions += decisions


def _play_with_views(game: gr.Game, rng: random.Random, tally: Tally) -> None:
    clock = time.perf_counter_ns
    views, views_again = tally.views, tally.views_again
    decisions = 0
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        seat = game.to_move
        if seat is not None:
            start = clock()
            game.view(seat)
            done = clock()
            game.view(seat)
            views.append(done - start)
            views_again.append(clock() - done)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(f"{game!r} lasted more than {MAX_DECISIONS} decisions")


def playout_row(level: str, players: int, tally: Tally) -> PlayoutRow:
    """The figures of one configuration's playouts."""
    per = max(tally.decisions, 1) * 1000
    decision_us = (tally.legal_ns + tally.apply_ns) / per
    return PlayoutRow(
        level=level,
        players=players,
        games=tally.games,
        decisions=tally.decisions,
        decisions_per_game=tally.decisions / max(tally.games, 1),
        decisions_per_s=1e6 / decision_us if decision_us else 0.0,
        legal_us=tally.legal_ns / per,
        apply_us=tally.apply_ns / per,
        decision_us=decision_us,
        clipped_us=clipped_mean(tally.samples) / 1000,
    )


def bucket_row(level: str, tally: Tally) -> BucketRow:
    """The cost per decision of one configuration by world size."""
    cells = tuple(tally.cell(low, high) for low, high in BUCKETS)
    near_10, near_40 = tally.cell(*NEAR_10), tally.cell(*NEAR_40)
    return BucketRow(
        level=level,
        buckets=cells,
        top_over_bottom=ratio(cells[-1].decision_us, cells[0].decision_us),
        near_10=near_10,
        near_40=near_40,
        growth=ratio(near_40.decision_us, near_10.decision_us),
    )


def ratio(top: float | None, bottom: float | None) -> float | None:
    """``top / bottom``, or ``None`` when either is missing."""
    return None if top is None or not bottom else top / bottom


# -- 3: python-chess playouts -----------------------------------------------------------------


def play_chess(rng: random.Random, tally: ChessTally) -> list[chess.Move]:
    """Play one random game from the start position; returns its moves.

    ``list(board.legal_moves)`` with the choice, and ``push()``, are timed apart; the game
    ends when ``is_game_over(claim_draw=False)`` says so (not timed) or at ``PLY_CAP`` plies.
    """
    clock = time.perf_counter_ns
    board = chess.Board()
    while len(board.move_stack) < PLY_CAP and not board.is_game_over(claim_draw=False):
        start = clock()
        moves = list(board.legal_moves)
        move = rng.choice(moves)
        chosen = clock()
        board.push(move)
        done = clock()
        tally.moves_ns += chosen - start
        tally.push_ns += done - chosen
        tally.samples.append(done - start)
    tally.games += 1
    tally.plies += len(board.move_stack)
    return board.move_stack


def chess_row(tally: ChessTally) -> ChessRow:
    """The figures of the chess playouts."""
    per = max(tally.plies, 1) * 1000
    ply_us = (tally.moves_ns + tally.push_ns) / per
    return ChessRow(
        games=tally.games,
        plies=tally.plies,
        plies_per_game=tally.plies / max(tally.games, 1),
        plies_per_s=1e6 / ply_us if ply_us else 0.0,
        moves_us=tally.moves_ns / per,
        push_us=tally.push_ns / per,
        ply_us=ply_us,
        clipped_us=clipped_mean(tally.samples) / 1000,
    )


# -- the rounds of playouts -------------------------------------------------------------------


def configurations() -> list[tuple[str, int, Callable[[], gr.Rules]]]:
    """Every level with every player count."""
    return [(name, players, rules) for name, rules in LEVELS for players in PLAYER_COUNTS]


def run_playouts(settings: Settings) -> tuple[dict[tuple[str, int], Tally], ChessTally]:
    """``settings.games`` rounds: one game of every configuration, then one chess game; every
    fourth round also plays one 4-player game of each level that times views.

    Every configuration has its own ``random.Random(seed)``; game ``r`` of a round is dealt
    with seed ``seed * 1_000_000 + r``. The games that time views have their own generators
    (and ``Tally``'s ``views``), so the decisions measured are the same with or without them.
    """
    configs = configurations()
    tallies = {(name, players): Tally() for name, players, _ in configs}
    rngs = {key: random.Random(settings.seed) for key in tallies}
    view_rngs = {name: random.Random(settings.seed + 1) for name, _ in LEVELS}
    rules = {name: make() for name, make in LEVELS}
    chess_tally, chess_rng = ChessTally(), random.Random(settings.seed)
    for r in range(settings.games):
        progress("playouts", r, settings.games)
        for name, players, _ in configs:
            key = (name, players)
            game = gr.new_game(players=players, rules=rules[name], seed=game_seed(settings, r))
            play_gaia(game, rngs[key], tallies[key])
        if r % 4 == 0:
            for name, _ in LEVELS:
                game = gr.new_game(TARGET_PLAYERS, rules[name], seed=game_seed(settings, r))
                play_gaia(game, view_rngs[name], tallies[name, TARGET_PLAYERS], views=True)
        play_chess(chess_rng, chess_tally)
    return tallies, chess_tally


def view_row(level: str, tally: Tally) -> ViewRow:
    """The figures of one level's views."""
    views = tally.views
    mean = sum(views) / len(views) / 1000 if views else 0.0
    again = clipped_mean(tally.views_again) / 1000
    return ViewRow(level, len(views), mean, clipped_mean(views) / 1000, again)


def game_seed(settings: Settings, index: int) -> int:
    """The seed of the ``index``-th game of a configuration."""
    return settings.seed * 1_000_000 + index


# -- 2: copies of mid-game states -------------------------------------------------------------


def mid_game(rules: gr.Rules, seed: int, rng: random.Random) -> gr.Game:
    """The state at half the length of a random 4-player game dealt with ``seed``."""
    game = gr.new_game(players=TARGET_PLAYERS, rules=rules, seed=seed)
    chosen: list[gr.Action] = []
    while not game.is_over:
        actions = game.legal_actions()
        chosen.append(actions[rng.randrange(len(actions))])
        game.apply(chosen[-1])
    game = gr.new_game(players=TARGET_PLAYERS, rules=rules, seed=seed)
    for action in chosen[: len(chosen) // 2]:
        game.apply(action)
    return game


def mid_board(rng: random.Random) -> chess.Board:
    """The board at half the length of a random chess game."""
    moves = play_chess(rng, ChessTally())
    board = chess.Board()
    for move in moves[: len(moves) // 2]:
        board.push(move)
    return board


def time_copies(copy: Callable[[], object], count: int) -> list[float]:
    """Nanoseconds per copy of each batch of ``COPY_BATCH`` calls of ``copy`` (``count``
    calls in all), by the wall clock."""
    clock = time.perf_counter_ns
    batches: list[float] = []
    for _ in range(max(count // COPY_BATCH, 1)):
        start = clock()
        for _ in range(COPY_BATCH):
            copy()
        batches.append((clock() - start) / COPY_BATCH)
    return batches


def copy_row(subject: str, per_state: Sequence[Sequence[float]]) -> CopyRow:
    """The figures of the copies of each state, from each state's batches."""
    means = [sum(batches) / len(batches) / 1000 for batches in per_state]
    every = [ns for batches in per_state for ns in batches]
    return CopyRow(
        subject=subject,
        states=len(per_state),
        copies=len(every) * COPY_BATCH,
        mean_us=sum(means) / len(means),
        worst_state_us=max(means),
        clipped_us=clipped_mean(every) / 1000,
    )


def run_copies(settings: Settings) -> list[CopyRow]:
    """Mid-game copies: ``settings.mid_games`` states per level at 4 players, and as many
    chess boards, each copied ``settings.copies`` times; the levels and chess take turns,
    state by state."""
    rng = random.Random(settings.seed)
    seeds = [game_seed(settings, 900_000 + k) for k in range(settings.mid_games)]
    copiers: dict[str, list[Callable[[], object]]] = {
        name: [mid_game(make(), seed, rng).copy for seed in seeds] for name, make in LEVELS
    }
    boards = [mid_board(rng) for _ in seeds]
    copiers[CHESS_COPY] = [functools.partial(board.copy, stack=False) for board in boards]
    per_state: dict[str, list[list[float]]] = {subject: [] for subject in copiers}
    for k in range(settings.mid_games):
        progress("copies", k, settings.mid_games)
        for subject, states in copiers.items():
            per_state[subject].append(time_copies(states[k], settings.copies))
    return [copy_row(subject, batches) for subject, batches in per_state.items()]


# -- 6: records -------------------------------------------------------------------------------


def finished_record(rules: gr.Rules, seed: int, rng: random.Random) -> gr.GameRecord:
    """The record of a random 4-player game played to its end."""
    game = gr.new_game(players=TARGET_PLAYERS, rules=rules, seed=seed)
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    return game.record()


@attrs.define
class Timed:
    """The nanoseconds of each call: on the wall clock, and of this thread's CPU time."""

    wall: list[int] = attrs.Factory(list)
    cpu: list[int] = attrs.Factory(list)

    def wall_mean(self) -> float:
        return sum(self.wall) / len(self.wall)

    def cpu_mean(self) -> float:
        return sum(self.cpu) / len(self.cpu)


def time_calls(call: Callable[[], object], count: int, into: Timed) -> None:
    """Time ``count`` calls of ``call`` into ``into``. Hot path of nothing: the calls timed
    so take milliseconds, so the CPU clock's microsecond cost does not matter."""
    wall, cpu = time.perf_counter_ns, time.thread_time_ns
    for _ in range(count):
        start, start_cpu = wall(), cpu()
        call()
        into.cpu.append(cpu() - start_cpu)
        into.wall.append(wall() - start)


def run_records(settings: Settings) -> list[RecordRow]:
    """``settings.records`` finished 4-player games per level: each record replayed, written
    and read ``settings.repeats`` times, the levels taking turns record by record."""
    rng = random.Random(settings.seed)
    seeds = [game_seed(settings, 800_000 + k) for k in range(settings.records)]
    records = {
        name: [finished_record(make(), seed, rng) for seed in seeds] for name, make in LEVELS
    }
    texts = {name: [record.to_json() for record in kept] for name, kept in records.items()}
    for name, kept in records.items():  # what is timed below is checked once, untimed
        for record, text in zip(kept, texts[name], strict=True):
            if gr.GameRecord.from_json(text) != record or record.replay().result != record.result:
                raise RuntimeError(f"a {name} record does not read back or replay")
    timed = {name: (Timed(), Timed(), Timed()) for name in records}
    for k in range(settings.records):
        progress("records", k, settings.records)
        for name, kept in records.items():
            replays, writes, reads = timed[name]
            record, text = kept[k], texts[name][k]
            time_calls(record.replay, settings.repeats, replays)
            time_calls(record.to_json, settings.repeats, writes)
            time_calls(functools.partial(gr.GameRecord.from_json, text), settings.repeats, reads)
    rows = []
    for name, (replays, writes, reads) in timed.items():
        kept = records[name]
        rows.append(
            RecordRow(
                level=name,
                records=len(kept),
                actions_per_record=sum(len(r.actions) for r in kept) / len(kept),
                replay_ms=replays.wall_mean() / 1e6,
                replay_cpu_ms=replays.cpu_mean() / 1e6,
                to_json_us=writes.wall_mean() / 1000,
                to_json_cpu_us=writes.cpu_mean() / 1000,
                from_json_us=reads.wall_mean() / 1000,
                from_json_cpu_us=reads.cpu_mean() / 1000,
            )
        )
    return rows


# -- 7: SearchBot -----------------------------------------------------------------------------


def run_searches(settings: Settings) -> list[SearchRow]:
    """``SearchBot`` at each of ``SEARCH_BUDGETS`` choosing for seat 0 until it has made
    ``settings.searches`` real choices per level (games as needed, the other seats uniformly
    random); the budgets play the same games."""
    rows: list[SearchRow] = []
    runs = [(level, budget) for level in LEVELS for budget in SEARCH_BUDGETS]
    for (name, make), (spelled, budget) in runs:
        progress("search", len(rows), len(runs))
        rng = random.Random(settings.seed)
        bot = SearchBot(seed=settings.seed, **budget)
        timed = Timed()
        index = 0
        while len(timed.cpu) < settings.searches:
            seed = game_seed(settings, 700_000 + index)
            game = gr.new_game(players=TARGET_PLAYERS, rules=make(), seed=seed)
            index += 1
            while not game.is_over and len(timed.cpu) < settings.searches:
                legal = game.legal_actions()
                if game.to_move == 0 and len(legal) > 1:
                    chosen: list[gr.Action] = []
                    choose = functools.partial(bot.choose, game.view(0), legal)
                    time_calls(lambda: chosen.append(choose()), 1, timed)  # noqa: B023 (called at once)
                    action = chosen[0]
                else:
                    action = legal[rng.randrange(len(legal))]
                game.apply(action)
        cpu_ms = timed.cpu_mean() / 1e6
        rows.append(
            SearchRow(
                level=name,
                budget=spelled,
                decisions=len(timed.cpu),
                mean_ms=timed.wall_mean() / 1e6,
                cpu_ms=cpu_ms,
                decisions_per_s=1000 / cpu_ms if cpu_ms else 0.0,
            )
        )
    return rows


# -- 5: the targets ---------------------------------------------------------------------------


def target(
    *, name: str, subject: str, value: float | None, limit: float, note: str, at_least: bool = False
) -> Target:
    """A target checked: ``value`` must be at most ``limit`` (at least, with ``at_least``)."""
    passed = value is not None and (value >= limit if at_least else value <= limit)
    return Target(name, subject, value, limit, passed, note, at_least)


def targets(
    *,
    playouts: Sequence[PlayoutRow],
    chess_playouts: ChessRow,
    copies: Sequence[CopyRow],
    buckets: Sequence[BucketRow],
    views: Sequence[ViewRow],
    records: Sequence[RecordRow],
    searches: Sequence[SearchRow],
) -> list[Target]:
    """(a) per decision against chess per ply, (b) copy against chess copy, (c) growth with
    the world, (d) a view against chess per ply, (e) replay, (f) reading against writing a
    record, (g) SearchBot's decisions per second. Clipped means and CPU time throughout."""
    found: list[Target] = []
    ply = chess_playouts.clipped_us
    for row in playouts:
        if row.players != TARGET_PLAYERS:
            continue
        value = row.clipped_us / ply
        found.append(
            target(
                name="a: decision / chess ply",
                subject=row.level,
                value=value,
                limit=PER_PLY_LIMIT,
                note=f"{row.clipped_us:.1f} / {ply:.1f} µs (raw means "
                f"{row.decision_us:.1f} / {chess_playouts.ply_us:.1f})",
            )
        )
    chess_copy = next(row for row in copies if row.subject == CHESS_COPY)
    for copied in (row for row in copies if row.subject != CHESS_COPY):
        value = copied.clipped_us / chess_copy.clipped_us
        found.append(
            target(
                name="b: copy() / chess copy",
                subject=copied.subject,
                value=value,
                limit=COPY_LIMIT,
                note=f"{copied.clipped_us:.2f} / {chess_copy.clipped_us:.2f} µs "
                f"(stack=False); dearest state {copied.worst_state_us:.2f} µs",
            )
        )
    for bucket in buckets:
        found.append(
            target(
                name="c: ~40 tiles / ~10",
                subject=bucket.level,
                value=bucket.growth,
                limit=GROWTH_LIMIT,
                note=f"{cell_text(bucket.near_40)} / {cell_text(bucket.near_10)}",
            )
        )
    for view in views:
        value = view.clipped_us / ply
        found.append(
            target(
                name="d: view / chess ply",
                subject=view.level,
                value=value,
                limit=VIEW_LIMIT,
                note=(
                    f"{view.clipped_us:.1f} / {ply:.1f} µs (raw mean {view.mean_us:.1f}; "
                    f"asked again at once {view.again_us / ply:.2f} of a ply)"
                ),
            )
        )
    for record in records:
        found.append(
            target(
                name="e: replay() ms",
                subject=record.level,
                value=record.replay_cpu_ms,
                limit=REPLAY_LIMIT_MS,
                note=f"{record.actions_per_record:.0f} actions a record "
                f"(wall clock {record.replay_ms:.2f} ms)",
            )
        )
    for record in records:
        value = record.from_json_cpu_us / record.to_json_cpu_us
        found.append(
            target(
                name="f: from_json / to_json",
                subject=record.level,
                value=value,
                limit=READ_LIMIT,
                note=f"{record.from_json_cpu_us:.0f} / {record.to_json_cpu_us:.0f} µs",
            )
        )
    for search in searches:
        if search.budget != SEARCH_BUDGETS[0][0]:
            continue  # the other budgets are shown for reference: none is as strong
        found.append(
            target(
                name="g: SearchBot decisions/s",
                subject=search.level,
                value=search.decisions_per_s,
                limit=SEARCH_LIMIT,
                note=f"{search.budget}: {search.cpu_ms:.1f} ms a decision (wall clock "
                f"{search.mean_ms:.1f}); {search.decisions} decisions",
                at_least=True,
            )
        )
    return found


# -- printing ---------------------------------------------------------------------------------


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """An aligned text table: the first column to the left, the others to the right."""
    widths = [max(len(line[i]) for line in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return [line(headers), rule, *(line(row) for row in rows)]


def number(value: float | None, digits: int = 1) -> str:
    """A figure with ``digits`` decimals, or ``n/a``."""
    return "n/a" if value is None else f"{value:,.{digits}f}"


def cell_text(cell: Cell) -> str:
    """A bucket's mean cost with its count of decisions."""
    return f"{number(cell.decision_us)} µs (n={cell.decisions:,})"


def render(report: Report) -> str:
    """The report as readable text."""
    h, s = report.header, report.settings
    lines = [
        "gaia-rules benchmark",
        f"  python      {h.python}",
        f"  platform    {h.platform} ({h.cpus} CPUs)",
        f"  gaia_rules  {h.gaia_rules}",
        f"  chess       {h.chess}",
        f"  command     {h.command}",
        f"  date        {h.date}",
        f"  load        {number(h.load[0], 2)} before, {number(h.load[1], 2)} after "
        f"(1-minute load average)",
        f"  settings    seed {s.seed}, {s.games} games per configuration, {s.mid_games} "
        f"mid-game states per level, {s.copies:,} copies of each, {s.records} records per "
        f"level {s.repeats} times, {s.searches} SearchBot decisions per level",
        "",
        "1. Uniform random playouts (µs are means per call; clip: calls over 1 ms left out)",
    ]
    lines += table(
        [
            "level",
            "players",
            "games",
            "dec/game",
            "dec/s",
            "µs legal",
            "µs apply",
            "µs dec",
            "µs dec clip",
        ],
        [
            [
                row.level,
                str(row.players),
                f"{row.games:,}",
                number(row.decisions_per_game),
                number(row.decisions_per_s, 0),
                number(row.legal_us),
                number(row.apply_us),
                number(row.decision_us),
                number(row.clipped_us),
            ]
            for row in report.playouts
        ],
    )
    c = report.chess_playouts
    lines += ["", "2. copy() of mid-game states (4 players; chess: board at half its game)"]
    lines += table(
        ["subject", "states", "copies", "µs mean", "µs clip", "µs dearest state"],
        [
            [
                row.subject,
                str(row.states),
                f"{row.copies:,}",
                number(row.mean_us, 2),
                number(row.clipped_us, 2),
                number(row.worst_state_us, 2),
            ]
            for row in report.copies
        ],
    )
    lines += ["", f"3. python-chess anchor: random playouts (ply cap {PLY_CAP})"]
    lines += table(
        ["engine", "games", "plies/game", "plies/s", "µs moves", "µs push", "µs ply", "µs clip"],
        [
            [
                "chess",
                f"{c.games:,}",
                number(c.plies_per_game),
                number(c.plies_per_s, 0),
                number(c.moves_us),
                number(c.push_us),
                number(c.ply_us),
                number(c.clipped_us),
            ]
        ],
    )
    lines += ["", "4. µs per decision by tiles in the world (4 players)"]
    lines += table(
        [
            "level",
            *(f"{low}-{high} tiles" for low, high in BUCKETS),
            "top/bottom",
            "{}-{} tiles".format(*NEAR_10),
            "{}-{} tiles".format(*NEAR_40),
            "~40/~10",
        ],
        [
            [
                row.level,
                *(cell_text(cell) for cell in row.buckets),
                number(row.top_over_bottom, 2),
                cell_text(row.near_10),
                cell_text(row.near_40),
                number(row.growth, 2),
            ]
            for row in report.buckets
        ],
    )
    lines += ["", "5. view(to_move) after each decision (4 players)"]
    lines += table(
        ["level", "views", "µs mean", "µs clip", "µs again"],
        [
            [
                row.level,
                f"{row.views:,}",
                number(row.mean_us),
                number(row.clipped_us),
                number(row.again_us),
            ]
            for row in report.views
        ],
    )
    lines += ["", "6. Records of finished 4-player games"]
    lines += table(
        [
            "level",
            "records",
            "actions",
            "ms replay",
            "ms cpu",
            "µs to_json",
            "µs cpu",
            "µs from_json",
            "µs cpu",
        ],
        [
            [
                row.level,
                str(row.records),
                number(row.actions_per_record, 0),
                number(row.replay_ms, 2),
                number(row.replay_cpu_ms, 2),
                number(row.to_json_us, 0),
                number(row.to_json_cpu_us, 0),
                number(row.from_json_us, 0),
                number(row.from_json_cpu_us, 0),
            ]
            for row in report.records
        ],
    )
    lines += [
        "",
        "7. SearchBot, seat 0 of 4 (real choices only): its default budget (target g), and a",
        "   cheaper budget for reference (it wins 42% against the default: search_strength.py)",
    ]
    lines += table(
        ["level", "budget", "decisions", "ms mean", "ms cpu", "dec/s"],
        [
            [
                row.level,
                row.budget,
                str(row.decisions),
                number(row.mean_ms),
                number(row.cpu_ms),
                number(row.decisions_per_s),
            ]
            for row in report.searches
        ],
    )
    lines += ["", "8. Targets (per-call figures: clipped means; records and search: CPU time)"]
    lines += table(
        ["target", "subject", "value", "limit", "", "note"],
        [
            [
                t.name,
                t.subject,
                number(t.value, 2),
                f"{'>=' if t.at_least else '<='} {t.limit:g}",
                "PASS" if t.passed else "FAIL",
                t.note,
            ]
            for t in report.targets
        ],
    )
    passed = sum(t.passed for t in report.targets)
    lines += ["", f"{passed}/{len(report.targets)} targets pass; {report.seconds:.0f} s in all"]
    return "\n".join(lines)


def progress(section: str, done: int, total: int) -> None:
    """A progress line on a terminal's stderr, never in the report."""
    if sys.stderr.isatty():
        print(f"\r{section}: {done}/{total}   ", end="", file=sys.stderr, flush=True)


# -- the run ----------------------------------------------------------------------------------


def load_average() -> float | None:
    """The machine's 1-minute load average, where the system tells it."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def header(load_before: float | None) -> Header:
    """The interpreter, the machine, the libraries' versions and the command line."""
    return Header(
        python=f"{platform.python_implementation()} {platform.python_version()}",
        platform=platform.platform(),
        cpus=os.cpu_count(),
        gaia_rules=gr.__version__,
        chess=chess.__version__,
        command=shlex.join([sys.executable, *sys.argv]),
        date=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        load=(load_before, load_average()),
    )


def run(settings: Settings) -> Report:
    """Every measurement, in one process."""
    began, load_before = time.perf_counter(), load_average()
    tallies, chess_tally = run_playouts(settings)
    copies = run_copies(settings)
    records = run_records(settings)
    searches = run_searches(settings)
    views = [view_row(name, tallies[name, TARGET_PLAYERS]) for name, _ in LEVELS]
    playouts = [
        playout_row(name, players, tallies[name, players]) for name, players, _ in configurations()
    ]
    buckets = [bucket_row(name, tallies[name, TARGET_PLAYERS]) for name, _ in LEVELS]
    chess_playouts = chess_row(chess_tally)
    if sys.stderr.isatty():
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr, flush=True)
    return Report(
        header=header(load_before),
        settings=settings,
        playouts=tuple(playouts),
        chess_playouts=chess_playouts,
        copies=tuple(copies),
        buckets=tuple(buckets),
        views=tuple(views),
        records=tuple(records),
        searches=tuple(searches),
        targets=tuple(
            targets(
                playouts=playouts,
                chess_playouts=chess_playouts,
                copies=copies,
                buckets=buckets,
                views=views,
                records=records,
                searches=searches,
            )
        ),
        seconds=time.perf_counter() - began,
    )


@attrs.frozen
class Options:
    """The command line: what to measure, and how to report it."""

    settings: Settings
    as_json: bool
    check: bool


def parse(argv: Sequence[str] | None) -> Options:
    """The options from the command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (about 20 s)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target fails")
    parser.add_argument("--seed", type=int, default=1, help="the seed of everything (1)")
    parser.add_argument(
        "--games", type=int, help="games per configuration (default 600, quick 150)"
    )
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else 150 if args.quick else 600
    if games < 1:
        parser.error("--games must be at least 1")
    settings = Settings(
        seed=args.seed,
        games=games,
        mid_games=3 if args.quick else 8,
        copies=5_000 if args.quick else 20_000,
        quick=args.quick,
        records=2 if args.quick else 4,
        repeats=3 if args.quick else 5,
        searches=10 if args.quick else 25,
    )
    return Options(settings=settings, as_json=args.json, check=args.check)


def main(argv: Sequence[str] | None = None) -> int:
    """Run, print the report (text or JSON), and with ``--check`` say whether all passed."""
    options = parse(argv)
    report = run(options.settings)
    if options.as_json:
        data: dict[str, Any] = attrs.asdict(report)
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(render(report))
    failed = not all(target.passed for target in report.targets)
    return 1 if options.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
