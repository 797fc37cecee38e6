"""``gaia_rules.web``: a game server and the page to play on it (the ``web`` extra).

Install it with ``pip install 'gaia-rules[web]'`` and run ``gaia-rules serve``. The server
hosts many games at once, keeps them in a SQLite file, gives every seat a secret link that
shows that seat's share of the game and nothing more, lets bots play any seat, and pushes
every change to the pages as it happens. The guide "Run a game server" documents its HTTP
API. The library's core never imports this package.
"""

from __future__ import annotations

from gaia_rules.web.app import create_app

__all__ = ["create_app"]
