"""A real ``gaia-rules serve`` for the tests that need one: a uvicorn process on a loopback
port the system chose, and a small HTTP client built on the standard library."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

LINK = re.compile(r"open (http://\S+/) to play")


class Server:
    """A server process and its address."""

    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.url = url
        self.output: list[str] = []
        """What the server printed after its link (warnings, errors)."""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Keep the server's output pipe from filling up."""
        assert self.process.stdout is not None
        with contextlib.suppress(ValueError, OSError):
            for line in self.process.stdout:
                self.output.append(line)

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        *,
        key: str | None = None,
    ) -> tuple[int, Any]:
        """One request (``key``: its Idempotency-Key); the status and the decoded JSON
        answer."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        if key is not None:
            request.add_header("Idempotency-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)


@contextlib.contextmanager
def running_server(db: Path | str, flags: Sequence[str] = ()) -> Iterator[Server]:
    """``gaia-rules serve`` on a free loopback port, with its games in ``db`` (a SQLite
    file or a PostgreSQL URL) and more ``flags``."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "gaia_rules", "serve", "--port", "0", "--db", str(db), *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = LINK.search(line)
        assert match, f"the server did not print its link: {line!r}"
        yield Server(process, match.group(1))
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
