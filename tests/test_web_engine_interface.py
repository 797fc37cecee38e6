"""The page reaches its engine through one module: ``static/engine.js``. Every request to the
server's API and the WebSocket are made there, so that an engine running elsewhere (in the
browser, say) can stand in for the server by implementing the same methods."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

STATIC = Path(str(files("gaia_rules.web") / "static"))
METHODS = (
    "settings",
    "faces",
    "createGame",
    "state",
    "subscribe",
    "act",
    "preview",
    "rematch",
    "findRematch",
    "record",
    "openRecord",
    "replayStep",
    "outcomes",
    "openGames",
    "listGame",
    "joinGame",
)


def test_only_the_engine_module_speaks_to_the_api() -> None:
    talkers = []
    for path in sorted(STATIC.glob("*.js")):
        if path.name == "engine.js":
            continue
        text = path.read_text("utf-8")
        if re.search(r"/api/|new WebSocket\(", text):
            talkers.append(path.name)
    assert talkers == []


def test_the_server_engine_implements_every_documented_method() -> None:
    text = (STATIC / "engine.js").read_text("utf-8")
    base = text[text.index("export class Engine {") : text.index("export class ServerEngine")]
    server = text[text.index("export class ServerEngine") :]
    for method in METHODS:
        pattern = rf"\n  (?:async )?{method}\("
        assert re.search(pattern, base), method
        assert re.search(pattern, server), method
