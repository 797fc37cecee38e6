"""``gaia_rules.web``: a game server and the page to play on it (the ``web`` extra).

Install it with ``pip install 'gaia-rules[web]'`` and run ``gaia-rules serve``. The server
hosts many games at once, keeps them in a SQLite file or a PostgreSQL database (which several
server processes may share), gives every seat a secret link that shows that seat's share of
the game and nothing more, lets bots play any seat, and pushes every change to the pages as
it happens. The guide "Run a game server" documents its HTTP API and its limits. The
library's core never imports this package.

``create_app`` is imported when first used, so that ``gaia_rules.web.limits`` (the limits
and their defaults, which the command line shows) is readable without the extra installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gaia_rules.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from gaia_rules.web.app import create_app  # noqa: PLC0415 (needs the extra)

        return create_app
    raise AttributeError(f"module 'gaia_rules.web' has no attribute {name!r}")
