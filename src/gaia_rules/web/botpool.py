"""Bots think in worker processes, never on the server's event loop.

[`BotPool`][gaia_rules.web.botpool.BotPool]: a bot's decision (a search can take a second or
more) runs in one of a few worker processes, so it holds neither the event loop nor its
interpreter lock: a person's request is answered while every bot of the server thinks. Each
decision has a time budget; a worker that overruns it is stopped and replaced, and the
decision is taken by the cheapest bot, the random one, with the same seed (logged), so that
no game waits on a bot for ever.

A decision is a pure function of the bot's name, its seed, the seat's view and the legal
actions: the same in a worker as in the server, and the same after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import pickle
import time
from collections.abc import Sequence
from typing import Any

from gaia_rules.actions import Action
from gaia_rules.bots import BOTS, RandomBot
from gaia_rules.views import View

__all__ = ["BotPool", "decide"]

logger = logging.getLogger("gaia_rules.web")


def decide(name: str, seed: int, view: View, legal: Sequence[Action]) -> Action:
    """The decision of bot ``name`` made from ``seed``: what a worker computes."""
    return BOTS[name](seed).choose(view, legal)


def _serve(connection: multiprocessing.connection.Connection) -> None:
    """A worker's life: decide what it is asked, until its pipe closes. The server killed
    (SIGKILL), its end of the pipe closes: reading it then says EOF, and writing it a broken
    pipe (a decision that was under way); either ends the worker quietly."""
    with contextlib.suppress(EOFError, BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        while True:
            name, seed, view, legal = pickle.loads(connection.recv_bytes())
            try:
                answer: Any = decide(name, seed, view, legal)
            except Exception as exc:
                answer = RuntimeError(f"{type(exc).__name__}: {exc}")
            connection.send_bytes(pickle.dumps(answer))


def _context() -> Any:
    """``forkserver`` where there is one (a worker starts in milliseconds from a process that
    has imported the library, and inherits none of the server's threads or sockets), else
    ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        context.set_forkserver_preload(["gaia_rules.web.botpool"])
    return context


class _Worker:
    def __init__(self) -> None:
        ours, theirs = _context().Pipe()
        self.connection: multiprocessing.connection.Connection = ours
        self.process = _context().Process(
            target=_serve, args=(theirs,), daemon=True, name="gaia-bot"
        )
        self.process.start()
        theirs.close()

    async def ask(self, request: bytes) -> Any:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[bytes] = loop.create_future()
        fd = self.connection.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if answer.done():
                return
            try:
                answer.set_result(self.connection.recv_bytes())
            except (EOFError, OSError) as exc:
                answer.set_exception(exc)

        self.connection.send_bytes(request)
        loop.add_reader(fd, readable)
        try:
            return pickle.loads(await answer)
        finally:
            loop.remove_reader(fd)

    def stop(self) -> None:
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)


class BotPool:
    """``workers`` processes that take bot decisions, each within ``budget`` seconds.

    ``workers=0`` decides on a thread of the server's process instead (for tests and small
    machines: the loop stays free, but a search shares the interpreter lock with it).
    """

    def __init__(self, workers: int = 1, budget: float = 10.0) -> None:
        self.workers = workers
        self.budget = budget
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: list[_Worker] = []
        self._closed = False
        self.overruns = 0
        """Decisions that overran the budget (and were taken by the random bot)."""

    async def decide(self, name: str, seed: int, view: View, legal: Sequence[Action]) -> Action:
        """Bot ``name``'s decision from ``seed``, ``view`` and ``legal``, within the budget.

        Raises:
            RuntimeError: The bot failed (its message says how).
        """
        if self.workers == 0:
            return await asyncio.wait_for(
                asyncio.to_thread(decide, name, seed, view, legal), self.budget
            )
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.workers):
                await self._start()
        request = pickle.dumps((name, seed, view, list(legal)))
        worker = await self._idle.get()
        started = time.monotonic()
        try:
            answer = await asyncio.wait_for(worker.ask(request), self.budget)
        except TimeoutError:
            self.overruns += 1
            logger.warning(
                "bot %s overran its budget of %.1f s: the random bot decides instead",
                name,
                time.monotonic() - started,
            )
            await self._replace(worker)
            return RandomBot(seed).choose(view, legal)
        except (EOFError, OSError) as exc:
            await self._replace(worker)
            raise RuntimeError(f"the bot's worker died: {exc}") from None
        except BaseException:  # cancelled: the worker's answer would come to the next ask
            await asyncio.shield(self._replace(worker))
            raise
        self._idle.put_nowait(worker)
        if isinstance(answer, Exception):
            raise RuntimeError(f"bot {name} failed: {answer}")
        assert isinstance(answer, Action)
        return answer

    async def _start(self) -> None:
        worker = await asyncio.to_thread(_Worker)
        self._all.append(worker)
        assert self._idle is not None
        self._idle.put_nowait(worker)

    async def _replace(self, worker: _Worker) -> None:
        if worker in self._all:
            self._all.remove(worker)
        await asyncio.to_thread(worker.stop)
        if not self._closed:
            await self._start()

    async def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        workers, self._all = self._all, []
        for worker in workers:
            await asyncio.to_thread(worker.stop)
