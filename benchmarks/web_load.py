"""How the game server holds up under many games at once: N games played concurrently by
people-clients over HTTP and WebSocket against real ``gaia-rules serve`` processes, with bots
in some seats, on PostgreSQL (one process, then two behind the clients) or on SQLite; in two
mixes, the pushed one and the polling one; and where the processors' time went.

    python benchmarks/web_load.py                         # the whole table: 25-200 games,
                                                          # 1 and 2 processes, PostgreSQL,
                                                          # both mixes
    python benchmarks/web_load.py --games 50 --seconds 20 # a bounded run (about 3 minutes)
    python benchmarks/web_load.py --games 200 --processes 1 --mix push --seconds 30
    python benchmarks/web_load.py --db sqlite --games 100
    python benchmarks/web_load.py --json

PostgreSQL is a throwaway cluster started for the run (Debian's ``postgresql``, as the tests
start it, with its default durability: ``fsync`` on), unless ``GAIA_TEST_POSTGRES`` names a
server. The servers run with limits wide enough for one client address to play every game.

Each game has two seats. Seat 0 is a person; seat 1 is a person in every other game and a
bot (``--bot``, greedy by default) in the others. A person follows the game on a WebSocket
(``/live``, as the page does) and, when its seat is to move, thinks (``--think`` seconds on
average, from half to one and a half times that), then posts one of its legal actions at
random with the move number it answers and an ``Idempotency-Key``, over a keep-alive HTTP
connection. With two processes, seat 0 talks to the first and seat 1 to the second, so every
action crosses from one process to the other through PostgreSQL's LISTEN/NOTIFY. A game that
ends is replaced by a new one, so N games are always in play. That is the **push** mix.

The **poll** mix is bot-heavy and pushes nothing: every game has one person and one bot
(``--bot``), so half the seats are bots, and the person follows the game by polling ``GET
/api/games/{game}?since=S&moves=M`` every ``--poll`` seconds (the events it lacks, at the
move number it knows or later), and acts as above when it is to move. With two processes,
the person polls the second process and posts to the first, so every poll after an action
asks a process that may not have heard of it yet: ``moves`` makes it read the store first
(read-your-writes), and ``behind`` counts the polls that came back older than the client's
own action (it must be 0).

Measured, from the first byte sent to the last read, after a warm-up:

- ``action``: each POST of an action; ``create``: each game created;
- ``push``: from an action's POST to the frame that shows it on the other person's
  WebSocket (person-against-person games);
- ``page``: ``GET /`` on a new connection every 100 ms (a browser arriving while the server
  is under load);

- ``poll``: each poll of the poll mix;

with requests a second, p50/p95/p99/max, and how many waited over 1 s. Beside them, the
anchor: the same random play in-process (the engine alone), measured in the same run.

**Where the time goes**: the processor seconds each part used during the measured seconds,
per second measured (1.0 is one processor kept busy), read from ``/proc``: the server
processes themselves, their bots' worker processes, PostgreSQL (its every process), the
clients (this process), and the whole machine (with whatever else runs on it).

The clients run on the same machine as the servers and take their share of the processors:
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
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websockets

import gaia_rules as gr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/postgres.py

LINK = re.compile(r"open http://([^:/]+):(\d+)/ to play")
WIDE_LIMITS = [
    "--creations", "1000000",
    "--games-per-address", "1000000",
    "--connections-per-address", "1000000",
    "--bots-only-games", "0",
    "--requests", "1000000000",
    "--requests-burst", "1000000000",
    "--pending-per-address", "0",
    "--access-log", "off",
]  # fmt: skip
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class Connection:
    """One keep-alive HTTP/1.1 connection, just enough for the server's JSON answers."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        key: str | None = None,
    ) -> tuple[int, bytes]:
        """One request; sent again once on a new connection if the server had closed the
        kept-alive one before answering (as browsers do: the key makes it safe)."""
        try:
            return await self._request(method, path, body, token, key)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            self.writer = None
            return await self._request(method, path, body, token, key)

    async def _request(
        self, method: str, path: str, body: Any, token: str | None, key: str | None
    ) -> tuple[int, bytes]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", "Host: loopback", f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token is not None:
            head.append(f"Authorization: Bearer {token}")
        if key is not None:
            head.append(f"Idempotency-Key: {key}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            self.writer.close()
            self.writer = None
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Figures:
    """Latencies by kind, and counts."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.requests = 0
        self.actions = 0
        self.games = 0
        self.refused: dict[int, int] = {}
        self.errors: list[str] = []
        self.counting = False
        self.behind = 0
        """Polls that answered a state older than the client's own last action."""

    def add(self, kind: str, seconds: float) -> None:
        if self.counting:
            self.latency.setdefault(kind, []).append(seconds)
            if kind != "push":
                self.requests += 1


class Seat:
    """A person: a WebSocket that follows its seat, and a connection to act on."""

    def __init__(self, address: tuple[str, int], game: str, token: str) -> None:
        self.address, self.game, self.token = address, game, token
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.seen: dict[int, float] = {}
        """Move number to when this seat's frame showing it arrived."""

    async def follow(self) -> None:
        host, port = self.address
        url = f"ws://{host}:{port}/api/games/{self.game}/live"
        async with websockets.connect(url, max_size=None, open_timeout=60) as socket:
            await socket.send(json.dumps({"token": self.token, "since": 0}))
            async for text in socket:
                message = json.loads(text)
                if "error" in message:
                    raise RuntimeError(message["error"]["message"])
                self.seen[message["moves"]] = time.perf_counter()
                self.state = message
                self.changed.set()
                if message["over"]:
                    return


async def play_games(
    number: int,
    addresses: list[tuple[str, int]],
    args: argparse.Namespace,
    figures: Figures,
    stop: float,
) -> None:
    """One table: plays game after game until ``stop``."""
    rng = random.Random(args.seed * 1_000_003 + number)
    with_bot = number % 2 == 1
    connections = [Connection(*address) for address in addresses]
    try:
        while time.monotonic() < stop:
            start = time.perf_counter()
            body = {"players": 2, "bots": [None, args.bot if with_bot else None]}
            status, answer = await connections[0].request("POST", "/api/games", body)
            figures.add("create", time.perf_counter() - start)
            if status != 201:
                figures.refused[status] = figures.refused.get(status, 0) + 1
                await asyncio.sleep(1)
                continue
            created = json.loads(answer)
            seats = [
                Seat(addresses[i % len(addresses)], created["game"], seat["token"])
                for i, seat in enumerate(created["seats"])
                if seat["token"] is not None
            ]
            followers = [asyncio.create_task(seat.follow()) for seat in seats]
            try:
                await play_one(seats, connections, rng, args, figures, stop)
            finally:
                for task in followers:
                    task.cancel()
                await asyncio.gather(*followers, return_exceptions=True)
    finally:
        for connection in connections:
            connection.close()


async def play_one(  # noqa: PLR0917
    seats: list[Seat],
    connections: list[Connection],
    rng: random.Random,
    args: argparse.Namespace,
    figures: Figures,
    stop: float,
) -> None:
    while time.monotonic() < stop:
        for seat in seats:
            if seat.state is None:
                await seat.changed.wait()
        states = [seat.state for seat in seats]
        assert all(state is not None for state in states)
        if states[0]["over"]:  # type: ignore[index]
            if figures.counting:
                figures.games += 1
            return
        mover = next((s for s in seats if s.state and s.state["legal"]), None)
        if mover is None:  # a bot's seat is to move, or a frame is on its way
            for seat in seats:
                seat.changed.clear()
            await asyncio.wait(
                [asyncio.create_task(seat.changed.wait()) for seat in seats],
                timeout=5,
                return_when=asyncio.FIRST_COMPLETED,
            )
            continue
        state = mover.state
        assert state is not None
        await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
        moves = state["moves"]
        action = rng.choice(state["legal"])
        body = action if args.bare else {"move": moves, "action": action}
        connection = connections[seats.index(mover) % len(connections)]
        start = time.perf_counter()
        status, _ = await connection.request(
            "POST",
            f"/api/games/{mover.game}/actions",
            body,
            token=mover.token,
            key=None if args.bare else secrets.token_hex(8),
        )
        figures.add("action", time.perf_counter() - start)
        if status != 200:
            figures.refused[status] = figures.refused.get(status, 0) + 1
            await mover.changed.wait()
            continue
        if figures.counting:
            figures.actions += 1
        others = [seat for seat in seats if seat is not mover]
        for other in others:  # the push to the other person's page
            deadline = time.monotonic() + 30
            while moves + 1 not in other.seen and time.monotonic() < deadline:
                other.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(other.changed.wait(), 1)
            if moves + 1 in other.seen:
                figures.add("push", other.seen[moves + 1] - start)
        while mover.state is state:  # wait for the mover's own frame of its action
            mover.changed.clear()
            await mover.changed.wait()


async def poll_games(
    number: int,
    addresses: list[tuple[str, int]],
    args: argparse.Namespace,
    figures: Figures,
    stop: float,
) -> None:
    """One table of the poll mix: a person and a bot, game after game until ``stop``; the
    person polls (the last process) and posts (the first)."""
    rng = random.Random(args.seed * 1_000_003 + number)
    post, poll = Connection(*addresses[0]), Connection(*addresses[-1])
    try:
        while time.monotonic() < stop:
            start = time.perf_counter()
            body = {"players": 2, "bots": [None, args.bot]}
            status, answer = await post.request("POST", "/api/games", body)
            figures.add("create", time.perf_counter() - start)
            if status != 201:
                figures.refused[status] = figures.refused.get(status, 0) + 1
                await asyncio.sleep(1)
                continue
            created = json.loads(answer)
            game, token = created["game"], created["seats"][0]["token"]
            known, since = 0, 0
            while time.monotonic() < stop:
                start = time.perf_counter()
                path = f"/api/games/{game}?since={since}&moves={known}"
                status, answer = await poll.request("GET", path, token=token)
                figures.add("poll", time.perf_counter() - start)
                if status != 200:
                    figures.refused[status] = figures.refused.get(status, 0) + 1
                    await asyncio.sleep(args.poll)
                    continue
                state = json.loads(answer)
                if state["moves"] < known and figures.counting:
                    figures.behind += 1
                since = state["since"] + len(state["events"])
                if state["over"]:
                    if figures.counting:
                        figures.games += 1
                    break
                if not state["legal"]:
                    await asyncio.sleep(args.poll)
                    continue
                await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                action = {"move": state["moves"], "action": rng.choice(state["legal"])}
                start = time.perf_counter()
                path = f"/api/games/{game}/actions"
                status, answer = await post.request(
                    "POST", path, action, token=token, key=secrets.token_hex(8)
                )
                figures.add("action", time.perf_counter() - start)
                if status != 200:
                    figures.refused[status] = figures.refused.get(status, 0) + 1
                    continue
                known = json.loads(answer)["moves"]
                if figures.counting:
                    figures.actions += 1
    finally:
        post.close()
        poll.close()


async def page_client(host: str, port: int, figures: Figures, stop: float) -> None:
    """``GET /`` on a new connection every 100 ms: a browser arriving under load."""
    while time.monotonic() < stop:
        connection = Connection(host, port)
        start = time.perf_counter()
        try:
            status, _ = await connection.request("GET", "/")
            if status == 200:
                figures.add("page", time.perf_counter() - start)
        finally:
            connection.close()
        await asyncio.sleep(0.1)


async def load(
    addresses: list[tuple[str, int]], args: argparse.Namespace, cpu: CpuClock
) -> tuple[Figures, dict[str, float]]:
    figures = Figures()
    stop = time.monotonic() + args.warmup + args.seconds
    used: dict[str, float] = {}

    async def count_after_warmup() -> None:
        await asyncio.sleep(args.warmup)
        figures.counting = True
        first = cpu.sample()
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        last = cpu.sample()
        used.update({part: (last[part] - first[part]) / args.seconds for part in first})

    async def table(number: int) -> None:
        await asyncio.sleep(args.warmup * number / max(1, args.games) / 2)  # a ramp
        play = poll_games if args.mix == "poll" else play_games
        try:
            await play(number, addresses, args, figures, stop)
        except Exception as exc:
            figures.errors.append(f"{type(exc).__name__}: {exc}")

    await asyncio.gather(
        count_after_warmup(),
        page_client(*addresses[0], figures, stop),
        *(table(number) for number in range(args.games)),
    )
    return figures, used


class CpuClock:
    """Processor seconds used so far by each part of the system (from ``/proc``; Linux)."""

    def __init__(self, servers: list[int], postgres: int | None) -> None:
        self.servers = servers
        self.postgres = postgres

    @staticmethod
    def _stats() -> dict[int, tuple[int, float]]:
        """Every process's parent and processor seconds."""
        found: dict[int, tuple[int, float]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            found[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK)
        return found

    def sample(self) -> dict[str, float]:
        stats = self._stats()
        children: dict[int, list[int]] = {}
        for pid, (parent, _) in stats.items():
            children.setdefault(parent, []).append(pid)

        def below(root: int) -> float:
            todo, total = list(children.get(root, [])), 0.0
            while todo:
                pid = todo.pop()
                total += stats[pid][1]
                todo.extend(children.get(pid, []))
            return total

        def own(pid: int | None) -> float:
            return stats[pid][1] if pid is not None and pid in stats else 0.0

        try:
            line = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
            busy = sum(int(v) for i, v in enumerate(line[:8]) if i not in (3, 4)) / TICK
        except OSError:
            busy = 0.0
        return {
            "servers": sum(own(pid) for pid in self.servers),
            "bot_workers": sum(below(pid) for pid in self.servers),
            "postgresql": (own(self.postgres) + below(self.postgres)) if self.postgres else 0.0,
            "clients": time.process_time(),
            "machine": busy,
        }


def in_process(seconds: float, seed: int) -> float:
    """Actions per second of random 2-player play in-process: the engine alone."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = gr.new_game(2, gr.Rules.basic(), rng.randrange(2**32))
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


@contextlib.contextmanager
def servers(
    db: str, count: int, extra: list[str]
) -> Iterator[tuple[list[tuple[str, int]], list[int]]]:
    """``count`` real ``gaia-rules serve`` processes on free loopback ports over ``db``."""
    processes: list[subprocess.Popen[str]] = []
    addresses: list[tuple[str, int]] = []
    try:
        for _ in range(count):
            command = [sys.executable, "-m", "gaia_rules", "serve", "--port", "0", "--db", db]
            process = subprocess.Popen(
                [*command, *WIDE_LIMITS, *extra],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
            processes.append(process)
            assert process.stdout is not None
            line = process.stdout.readline()
            match = LINK.search(line)
            if not match:
                raise SystemExit(f"the server did not start: {line}{process.stdout.read()}")
            addresses.append((match.group(1), int(match.group(2))))
        yield addresses, [process.pid for process in processes]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=30)


def quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * q))]

    return {
        "count": len(ordered),
        "p50_ms": at(0.5),
        "p95_ms": at(0.95),
        "p99_ms": at(0.99),
        "max_ms": 1000 * ordered[-1],
        "over_1s": sum(1 for v in ordered if v > 1.0),
    }


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def run_one(  # noqa: PLR0917
    db: str, games: int, processes: int, mix: str, args: argparse.Namespace, pg: int | None
) -> dict[str, Any]:
    args.games, args.mix = games, mix
    before = load_average()
    if args.url:
        host, _, port = args.url.removeprefix("http://").rstrip("/").rpartition(":")
        figures, used = asyncio.run(load([(host, int(port))], args, CpuClock([], pg)))
    else:
        with servers(db, processes, args.server_flag or []) as (addresses, pids):
            figures, used = asyncio.run(load(addresses, args, CpuClock(pids, pg)))
    return {
        "mix": mix,
        "games": games,
        "processes": processes,
        "load_before": before,
        "load_after": load_average(),
        "requests_per_second": figures.requests / args.seconds,
        "actions_per_second": figures.actions / args.seconds,
        "games_finished": figures.games,
        "refused": figures.refused,
        "errors": figures.errors[:5],
        "behind": figures.behind,
        "cpu_per_second": used,
        "latency": {kind: quantiles(v) for kind, v in sorted(figures.latency.items())},
    }


def print_run(run: dict[str, Any]) -> None:
    print(
        f"\n{run['mix']} mix, {run['games']} games, {run['processes']} process(es): "
        f"{run['requests_per_second']:.0f} requests/s, {run['actions_per_second']:.0f} actions/s, "
        f"{run['games_finished']} games finished; load {run['load_before']} -> "
        f"{run['load_after']}"
    )
    if run["refused"] or run["errors"]:
        print(f"  refused: {run['refused']}  errors: {run['errors']}")
    if run["mix"] == "poll":
        print(f"  polls behind the client's own action: {run['behind']}")
    used = run["cpu_per_second"]
    if used:
        print(
            "  processor seconds a second: "
            + ", ".join(f"{part.replace('_', ' ')} {value:.2f}" for part, value in used.items())
        )
    columns = ("count", "p50 ms", "p95 ms", "p99 ms", "max ms")
    print(f"  {'':<8} " + " ".join(f"{c:>8}" for c in columns) + f" {'>1 s':>5}")
    for kind, q in run["latency"].items():
        print(
            f"  {kind:<8} {q['count']:>8} {q['p50_ms']:>8.1f} {q['p95_ms']:>8.1f} "
            f"{q['p99_ms']:>8.1f} {q['max_ms']:>8.1f} {q['over_1s']:>5}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, action="append", help="concurrent games (repeat; 25 50 100 200)"
    )
    parser.add_argument(
        "--processes", type=int, action="append", help="server processes (repeat; 1 2)"
    )
    parser.add_argument("--db", choices=["postgresql", "sqlite"], default="postgresql")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (20)")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured seconds first (5)")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a person thinks")
    parser.add_argument("--bot", default="greedy", help="the bot of every other game (greedy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--mix", action="append", choices=["push", "poll"], help="the mixes (repeat; both)"
    )
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between polls (0.5)")
    parser.add_argument(
        "--server-flag", action="append", help="one more flag for every server (repeat)"
    )
    parser.add_argument(
        "--url", help="measure the server already running there (http://host:port) instead"
    )
    parser.add_argument(
        "--bare",
        action="store_true",
        help="send bare actions, without move number or key (as clients did before them)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    counts = args.games or [25, 50, 100, 200]
    processes = args.processes or ([1, 2] if args.db == "postgresql" else [1])
    if args.url:
        args.db, processes = "sqlite", [1]  # whatever it runs on: nothing to start here
    if args.db == "sqlite" and processes != [1]:
        parser.error("SQLite serves one process: use --db postgresql for more")
    mixes = args.mix or ["push", "poll"]
    anchor = in_process(3.0, args.seed)
    runs = []
    pg: int | None = None
    with contextlib.ExitStack() as stack:
        if args.db == "postgresql":
            from tests.postgres import ENV, cluster, fresh_database  # noqa: PLC0415

            server = os.environ.get(ENV, "")
            if not server:
                running = stack.enter_context(cluster(durable=True))
                server = running.url
                pg = int((running.data / "postmaster.pid").read_text().split()[0])
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        if not args.json:
            print(
                f"web_load: 2-seat games, {args.think:g} s thinking, {args.seconds:g} s measured, "
                f"{args.url or args.db}, {os.cpu_count()} processors, "
                f"Python {platform.python_version()}, load average {load_average()}"
            )
        for mix in mixes:
            for count in counts:
                for number in processes:
                    if args.db == "postgresql":
                        db = fresh_database(server)
                    else:
                        db = str(Path(folder) / f"load-{mix}-{count}.sqlite3")
                    run = run_one(db, count, number, mix, args, pg)
                    runs.append(run)
                    if not args.json:
                        print_run(run)
    summary = {
        "db": args.db,
        "think": args.think,
        "seconds": args.seconds,
        "processors": os.cpu_count(),
        "python": platform.python_version(),
        "anchor_in_process_actions_per_second": anchor,
        "runs": runs,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"\nanchor: random 2-player play in-process, {anchor:.0f} actions/s (no HTTP)")


if __name__ == "__main__":
    main()
