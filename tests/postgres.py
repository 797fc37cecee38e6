"""A throwaway PostgreSQL server for the tests and the load benchmark.

``GAIA_TEST_POSTGRES`` (a ``postgresql://`` URL) names a server to use instead; without it,
[`throwaway_cluster`][tests.postgres.throwaway_cluster] runs Debian's (or any) PostgreSQL
binaries: ``initdb`` in a temporary folder, ``postgres`` on a free loopback port, and removes
it all at the end. As root it runs them as the ``postgres`` user (PostgreSQL refuses to run
as root). Each test gets a database of its own (``fresh_database``).

Under CI (``CI`` set) a missing PostgreSQL fails the tests that need it, never skips them.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ENV = "GAIA_TEST_POSTGRES"

_SEARCH = [Path("/usr/lib/postgresql") / v / "bin" for v in ("17", "16", "15", "14", "13")]


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``, if PostgreSQL is installed."""
    for folder in _SEARCH:
        if (folder / "initdb").exists():
            return folder
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _as_owner(command: list[str], owner: str | None) -> list[str]:
    return command if owner is None else ["runuser", "-u", owner, "--", *command]


class Cluster:
    """A throwaway PostgreSQL server: its URL, and how to stop and start it again (a
    database restart, as its host would do one)."""

    def __init__(self, folder: Path, data: Path, options: str, owner: str | None, url: str) -> None:
        self.folder = folder
        self.data = data
        self.options = options
        self.owner = owner
        self.url = url

    def _ctl(self, *command: str) -> None:
        subprocess.run(
            _as_owner([str(self.folder / "pg_ctl"), "-D", str(self.data), *command], self.owner),
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        """Start the server, and wait until it takes connections."""
        self._ctl("-o", self.options, "-l", str(self.data.parent / "log"), "-w", "start")

    def reload(self) -> None:
        """Read the configuration again (``pg_hba.conf``)."""
        self._ctl("reload")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: every connection is ended, as a restart does)."""
        self._ctl("-m", mode, "-w", "stop")


@contextlib.contextmanager
def cluster(*, durable: bool = False) -> Iterator[Cluster]:
    """A PostgreSQL server on a free loopback port for the duration (see
    [`throwaway_cluster`][tests.postgres.throwaway_cluster]), to stop and start at will."""
    folder = binaries()
    if folder is None:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    owner = None
    if os.geteuid() == 0:
        owner = "postgres"
        pwd.getpwnam(owner)  # KeyError: no such user
    base = Path(tempfile.mkdtemp(prefix="gaia-pg-"))
    data = base / "data"
    try:
        if owner is not None:
            entry = pwd.getpwnam(owner)
            os.chown(base, entry.pw_uid, entry.pw_gid)
        subprocess.run(
            _as_owner(
                [
                    str(folder / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "gaia",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                ],
                owner,
            ),
            check=True,
            capture_output=True,
        )
        port = _free_port()
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        running = Cluster(
            folder, data, options, owner, f"postgresql://gaia@127.0.0.1:{port}/postgres"
        )
        running.start()
        try:
            yield running
        finally:
            with contextlib.suppress(subprocess.SubprocessError):
                running.stop("immediate")
    finally:
        shutil.rmtree(base, ignore_errors=True)


@contextlib.contextmanager
def throwaway_cluster(*, durable: bool = False) -> Iterator[str]:
    """A PostgreSQL server on a free loopback port for the duration; its URL (to the
    ``postgres`` database, as its superuser, no password: trust on loopback only).

    ``durable=False`` turns ``fsync`` off: the tests kill server processes, never the
    database, and run faster so; the load benchmark asks for the defaults."""
    with cluster(durable=durable) as running:
        yield running.url


def own_cluster() -> contextlib.AbstractContextManager[Cluster]:
    """A cluster of the test's own, to stop and start (never ``GAIA_TEST_POSTGRES``'s);
    skipped, or under CI failed, where PostgreSQL is not installed."""
    if binaries() is None or (shutil.which("runuser") is None and os.geteuid() == 0):
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed, and CI must run the PostgreSQL tests")
        pytest.skip("PostgreSQL is not installed")
    return cluster()


def fresh_database(server: str) -> str:
    """A new, empty database on ``server``; its URL."""
    import psycopg  # noqa: PLC0415 (the web extra)

    name = "gaia_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


@contextlib.contextmanager
def postgres_server() -> Iterator[str]:
    """``GAIA_TEST_POSTGRES`` if set, else a throwaway cluster; under CI, never a skip."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    if binaries() is None or (shutil.which("runuser") is None and os.geteuid() == 0):
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not installed, and CI must run the PostgreSQL tests")
        pytest.skip(f"PostgreSQL is not installed (or set {ENV})")
    with throwaway_cluster() as url:
        yield url


def wait_until(ready: Callable[[], object], timeout: float = 20.0, what: str = "it") -> None:
    """Poll ``ready()`` until it is true."""
    deadline = time.monotonic() + timeout
    while not ready():
        assert time.monotonic() < deadline, f"{what} did not happen in time"
        time.sleep(0.02)
