"""``gaia-rules serve``: run the game server and its page (needs the ``web`` extra).

The server's games live in a SQLite file, by default ``games.sqlite3`` in the user's data
folder (``$XDG_DATA_HOME/gaia-rules``, or ``~/.local/share/gaia-rules``), so that a server
started again finds every game where it was left.
"""

from __future__ import annotations

import argparse
import os
import socket
from pathlib import Path

from gaia_rules.cli.common import CommandError, Console

__all__ = ["INSTALL_HINT", "default_db", "run"]

INSTALL_HINT = "the server needs the web extra: pip install 'gaia-rules[web]'"


def default_db() -> Path:
    """The default file for the server's games, in the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gaia-rules" / "games.sqlite3"


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port``, so that the link printed is one that answers."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CommandError(f"--host: cannot resolve {host!r}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise CommandError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    return sock


def _link(sock: socket.socket) -> str:
    """The address to open in a browser."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "localhost"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def run(args: argparse.Namespace, console: Console) -> int:
    """Serve until interrupted; returns 0."""
    try:
        import uvicorn  # noqa: PLC0415 (an optional extra)

        from gaia_rules.web import create_app  # noqa: PLC0415 (an optional extra)
    except ImportError:
        raise CommandError(INSTALL_HINT) from None
    port: int = args.port
    if not 0 <= port <= 65535:
        raise CommandError(f"--port: expected 0-65535, got {port}")
    db = Path(args.db) if args.db is not None else default_db()
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"--db: cannot create {db.parent}: {exc.strerror or exc}") from None
    sock = _listen(args.host, port)
    config = uvicorn.Config(
        create_app(db, fsync=args.fsync, docs_url=getattr(args, "docs_url", None)),
        log_level="warning",
        ws_max_size=64 * 1024,
        timeout_graceful_shutdown=2,
    )
    console.print(f"Gaïa server: open {_link(sock)} to play (games are kept in {db})")
    console.print("press Ctrl-C to stop it")
    console.out.flush()
    uvicorn.Server(config).run(sockets=[sock])
    return 0
