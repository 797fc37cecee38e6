"""How the game server holds up under many games at once: N games played concurrently over
HTTP on loopback against a real ``gaia-rules serve`` (uvicorn, SQLite), by random players.

    python benchmarks/web_load.py                   # 200 games for 20 s
    python benchmarks/web_load.py --games 50 --seconds 10
    python benchmarks/web_load.py --json

Each game is one client with its own keep-alive connection: it asks the seat to move for its
state (``GET /api/games/{game}?since=N``, its view, new events and legal actions), thinks
(``--think`` seconds on average, uniformly from half to one and a half times that), picks one
legal action at random and sends it (``POST .../actions``), and starts a new game when one
ends, so N games are always in play. With ``--think 0`` the clients play as fast as the
server answers, and the latency is then mostly their own queue: N requests wait in turn.

Printed: actions per second, and the latency of each kind of request (p50, p99, max),
measured from the client's first byte sent to the last byte read. Beside them, two anchors
measured in the same run: the same random play in-process (the engine alone, no HTTP, no
disk), and the latency of a static file (``GET /static/style.css``) at the same concurrency,
the server's floor.

The client runs on the same machine as the server and takes its share of the processors;
the figures are the whole system's. This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gaia_rules as gr

LINK = re.compile(r"open http://([^:/]+):(\d+)/ to play")


class Connection:
    """One keep-alive HTTP/1.1 connection, just enough for the server's JSON answers."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", "Host: loopback", f"Content-Length: {len(data)}"]
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


class Figures:
    """Latencies by kind of request, and the actions taken."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.actions = 0
        self.games = 0
        self.refused = 0
        self.counting = False

    def add(self, kind: str, seconds: float) -> None:
        if self.counting:
            self.latency.setdefault(kind, []).append(seconds)


async def timed(
    figures: Figures, kind: str, connection: Connection, *args: Any, **kwargs: Any
) -> tuple[int, bytes]:
    start = time.perf_counter()
    answer = await connection.request(*args, **kwargs)
    figures.add(kind, time.perf_counter() - start)
    return answer


async def player(
    host: str, port: int, number: int, args: argparse.Namespace, *, figures: Figures, stop: float
) -> None:
    """One client: plays game after game, every seat at random, until ``stop``."""
    rng = random.Random(args.seed * 1_000_003 + number)
    connection = await Connection.open(host, port)
    rules = {"format": 1, "level": args.level}
    try:
        while time.monotonic() < stop:
            status, body = await timed(
                figures,
                "create",
                connection,
                "POST",
                "/api/games",
                {"players": args.players, "rules": rules},
            )
            assert status == 201, body
            created = json.loads(body)
            game = created["game"]
            tokens = [seat["token"] for seat in created["seats"]]
            since = [0] * args.players
            to_move = 0
            while time.monotonic() < stop:
                path = f"/api/games/{game}?since={since[to_move]}"
                status, body = await timed(
                    figures, "state", connection, "GET", path, token=tokens[to_move]
                )
                assert status == 200, body
                message = json.loads(body)
                since[to_move] = message["since"] + len(message["events"])
                if args.think:
                    await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                action = rng.choice(message["legal"])
                status, body = await timed(
                    figures,
                    "action",
                    connection,
                    "POST",
                    f"/api/games/{game}/actions",
                    action,
                    token=tokens[to_move],
                )
                if status != 200:
                    figures.refused += 1
                    continue
                answer = json.loads(body)
                if figures.counting:
                    figures.actions += 1
                if answer["over"]:
                    if figures.counting:
                        figures.games += 1
                    break
                to_move = answer["to_move"]
    finally:
        connection.close()


async def static_floor(host: str, port: int, figures: Figures, stop: float) -> None:
    """A client that fetches a static file, over and over: the server's floor."""
    connection = await Connection.open(host, port)
    try:
        while time.monotonic() < stop:
            await timed(figures, "static file", connection, "GET", "/static/style.css")
            await asyncio.sleep(0.01)
    finally:
        connection.close()


async def load(host: str, port: int, args: argparse.Namespace) -> Figures:
    figures = Figures()
    start = time.monotonic()
    stop = start + args.warmup + args.seconds

    async def count_after_warmup() -> None:
        await asyncio.sleep(args.warmup)
        figures.counting = True

    clients = [player(host, port, n, args, figures=figures, stop=stop) for n in range(args.games)]
    await asyncio.gather(count_after_warmup(), static_floor(host, port, figures, stop), *clients)
    return figures


def in_process(args: argparse.Namespace, seconds: float) -> float:
    """Actions per second of the same random play in-process: the engine alone."""
    rng = random.Random(args.seed)
    rules = gr.Rules(level=gr.Level[args.level.upper()])
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = gr.new_game(args.players, rules, rng.randrange(2**32))
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


@contextlib.contextmanager
def server(db: Path, fsync: bool) -> Iterator[tuple[str, int]]:
    """A real ``gaia-rules serve`` on a free loopback port."""
    command = [sys.executable, "-m", "gaia_rules", "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(
        [*command, "--fsync"] if fsync else command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = LINK.search(line)
        if not match:
            raise SystemExit(f"the server did not start: {line}{process.stdout.read()}")
        time.sleep(0.5)  # its start-up: the store is opened and read
        yield match.group(1), int(match.group(2))
    finally:
        process.terminate()
        process.wait(timeout=30)


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "count": len(ordered),
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "max_ms": 1000 * ordered[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first (3)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds a player thinks (1.0)"
    )
    parser.add_argument("--players", type=int, default=2, help="seats per game (2)")
    parser.add_argument("--level", default="basic", help="rule level (basic)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fsync", action="store_true", help="run the server with --fsync (a disk wait per commit)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    anchor = in_process(args, 3.0)
    with (
        tempfile.TemporaryDirectory() as folder,
        server(Path(folder) / "load.sqlite3", args.fsync) as (
            host,
            port,
        ),
    ):
        figures = asyncio.run(load(host, port, args))
    summary: dict[str, Any] = {
        "games": args.games,
        "players": args.players,
        "level": args.level,
        "seconds": args.seconds,
        "think": args.think,
        "fsync": args.fsync,
        "processors": os.cpu_count(),
        "python": platform.python_version(),
        "actions_per_second": figures.actions / args.seconds,
        "games_finished": figures.games,
        "refused": figures.refused,
        "latency": {kind: quantiles(values) for kind, values in figures.latency.items()},
        "anchor_in_process_actions_per_second": anchor,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    print(
        f"{args.games} concurrent {args.players}-player {args.level} games over HTTP on loopback, "
        f"{args.seconds:g} s measured, {args.think:g} s thinking per decision, "
        f"{'fsync' if args.fsync else 'no fsync'} "
        f"({os.cpu_count()} processors, Python "
        f"{platform.python_version()})"
    )
    print(
        f"  actions: {summary['actions_per_second']:.0f}/s, games finished: {figures.games}, "
        f"refused: {figures.refused}"
    )
    print(f"  {'request':<12} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, q in summary["latency"].items():
        print(
            f"  {kind:<12} {q['count']:>7} {q['p50_ms']:>8.1f} {q['p99_ms']:>8.1f} "
            f"{q['max_ms']:>8.1f}"
        )
    print(f"  anchor: the same random play in-process, {anchor:.0f} actions/s (no HTTP, no disk)")


if __name__ == "__main__":
    main()
