"""``gaia-rules serve``: run the game server and its page (needs the ``web`` extra).

The server's games live in a SQLite file, by default ``games.sqlite3`` in the user's data
folder (``$XDG_DATA_HOME/gaia-rules``, or ``~/.local/share/gaia-rules``), so that a server
started again finds every game where it was left; or in a PostgreSQL database
(``--db postgresql://...``), which several server processes may share. Every limit of
[`Limits`][gaia_rules.web.limits.Limits] has a flag.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

from gaia_rules.cli.common import CommandError, Console
from gaia_rules.web.limits import Limits

__all__ = ["DB_ENV", "INSTALL_HINT", "LIMIT_FLAGS", "add_arguments", "default_db", "run"]

DB_ENV = "GAIA_DB"
"""The environment variable ``--db`` defaults to (before the default SQLite file)."""

BACKLOG = 2048
"""Connections the system may queue before the server accepts them. A short queue (128) makes
a burst of new connections lose their first packet, and a client then waits a second or
more before it tries again (then three, seven, fifteen...)."""

LIMIT_FLAGS: tuple[tuple[str, str, str], ...] = (
    ("--creations", "creations_per_minute", "games one address may create a minute"),
    ("--games-per-address", "games_per_address", "games of one address in play at once"),
    ("--bots-only-games", "bots_only_games", "games of bots alone in play at once (0: none)"),
    ("--connections-per-token", "connections_per_token", "live connections of one token"),
    ("--connections-per-address", "connections_per_address", "live connections of one address"),
    ("--idle", "idle", "seconds before a game nobody uses leaves memory"),
    ("--header-timeout", "header_timeout", "seconds to send a request's headers"),
    ("--body-timeout", "body_timeout", "seconds to send a request's body"),
    ("--hello-timeout", "hello_timeout", "seconds for a WebSocket to send its hello"),
    ("--bot-workers", "bot_workers", "processes for the bots' decisions (0: a thread)"),
    ("--bot-budget", "bot_budget", "seconds a bot may think; then the random bot decides"),
    ("--abandon-after", "abandon_after", "seconds with no action before a game ends abandoned"),
    ("--clock", "clock", "seconds a person has per decision (0: no clock)"),
    ("--requests", "requests_per_minute", "requests of one address a minute, every route"),
    ("--requests-burst", "requests_burst", "requests of one address at once"),
    ("--pending-per-address", "pending_per_address", "connections of one address yet silent"),
)
"""Each limit's flag, its field of ``Limits`` and its help."""

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
    sock.listen(BACKLOG)
    return sock


def _link(sock: socket.socket) -> str:
    """The address to open in a browser."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "localhost"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``gaia-rules serve``."""
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000; 0: any)")
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help="the SQLite file of the games (default: $GAIA_DB, else games.sqlite3 in "
        "$XDG_DATA_HOME/gaia-rules or ~/.local/share/gaia-rules), or a PostgreSQL URL "
        "(postgresql://user@host/db), which several server processes may share; never with "
        "a password in it (it would show in ps): the password comes from PGPASSWORD or the "
        "pass file (~/.pgpass, or PGPASSFILE)",
    )
    parser.add_argument(
        "--access-log",
        metavar="FILE",
        default="-",
        help="where the access log goes, one JSON line per request (default -: standard "
        "error; off: nowhere)",
    )
    parser.add_argument(
        "--fsync",
        action="store_true",
        help="SQLite: wait for the disk at every action, so that a power cut loses none "
        "either (slower; an action always survives a killed server)",
    )
    parser.add_argument(
        "--proxy",
        metavar="ADDRESSES",
        help="the reverse proxies (comma-separated addresses, or *) whose X-Forwarded-For "
        "and X-Forwarded-Proto the server believes: the limits then count the client's "
        "address, not the proxy's",
    )
    parser.add_argument(
        "--allow-origin",
        metavar="ORIGIN",
        action="append",
        default=[],
        help="a page of another origin (https://example.org) allowed to open the "
        "WebSocket; the server's own always is (repeat for several)",
    )
    parser.add_argument(
        "--docs-url",
        metavar="URL",
        help="where the page links the rules pages (default: $GAIA_DOCS_URL, else the "
        "project's documentation site)",
    )
    limits = parser.add_argument_group("limits (over one: 429 with Retry-After)")
    defaults = Limits()
    for flag, field, words in LIMIT_FLAGS:
        default = getattr(defaults, field)
        limits.add_argument(
            flag,
            dest=field,
            type=type(default),
            default=default,
            metavar="N",
            help=f"{words} (default {default:g})",
        )


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
    from gaia_rules.web.timeouts import timed_http  # noqa: PLC0415 (an optional extra)

    limits = Limits(**{field: getattr(args, field) for _, field, _ in LIMIT_FLAGS})
    for _, field, _ in LIMIT_FLAGS:
        if getattr(limits, field) < 0:
            raise CommandError(f"--{field.replace('_', '-')}: expected 0 or more")
    db: Path | str
    given: str | None = args.db if args.db is not None else os.environ.get(DB_ENV) or None
    if given is not None and given.startswith(("postgresql://", "postgres://")):
        db = _postgres_url(given)
        where = "PostgreSQL at " + given.split("@")[-1].split("?")[0]
    else:
        db = Path(given) if given is not None else default_db()
        try:
            db.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"--db: cannot create {db.parent}: {exc.strerror or exc}") from None
        where = str(db)
    sock = _listen(args.host, port)
    _access_log(args.access_log)
    proxies = frozenset(p.strip() for p in (args.proxy or "").split(",") if p.strip())
    config = uvicorn.Config(
        create_app(
            db,
            fsync=args.fsync,
            limits=limits,
            origins=args.allow_origin,
            docs_url=getattr(args, "docs_url", None),
        ),
        log_level="warning",
        http=timed_http(limits.header_timeout, pending=limits.pending_per_address, trusted=proxies),
        ws_max_size=limits.max_body,
        timeout_graceful_shutdown=2,
        backlog=BACKLOG,
        proxy_headers=args.proxy is not None,
        forwarded_allow_ips=args.proxy,
    )
    console.print(f"Gaïa server: open {_link(sock)} to play (games are kept in {where})")
    console.print("press Ctrl-C to stop it")
    console.out.flush()
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _postgres_url(url: str) -> str:
    """``url``, refused if it holds a password (an argument shows in ``ps`` to every user
    of the machine, and in the shell's history).

    Raises:
        CommandError: It holds one.
    """
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError as exc:
        raise CommandError(f"--db: not a PostgreSQL URL: {exc}") from None
    query = {k.strip().lower() for k, _, _ in (p.partition("=") for p in parts.query.split("&"))}
    if password is not None or "password" in query:
        raise CommandError(
            "--db: the URL holds a password, which every user of this machine can read "
            "(ps, the shell's history): give it in PGPASSWORD or a pass file "
            "(~/.pgpass, or PGPASSFILE) instead, and the URL without it"
        )
    return url


def _access_log(where: str) -> None:
    """Send the access log (one JSON line per request) to ``where``: ``-`` standard error,
    ``off`` nowhere, else a file (appended to)."""
    from gaia_rules.web.access import ACCESS_LOGGER  # noqa: PLC0415 (an optional extra)

    logger = logging.getLogger(ACCESS_LOGGER)
    logger.propagate = False
    if where == "off":
        logger.setLevel(logging.WARNING)
        return
    try:
        handler: logging.Handler = (
            logging.StreamHandler(sys.stderr) if where == "-" else logging.FileHandler(where)
        )
    except OSError as exc:
        raise CommandError(f"--access-log: cannot open {where}: {exc.strerror or exc}") from None
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
