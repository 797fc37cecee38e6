"""What the browser tests share: Debian's chromium, driven headless through Playwright and
launched once a module, the folder their screenshots go to, and the game server the table's
pages talk to. The fixtures are the suite's (``conftest.py``), so nothing here imports
Playwright or the web wing before a test asks for them; a module of browser tests calls
:func:`need_chromium` at import."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Nothing reached outside the machine, nothing drawn on a screen."""
LANGUAGES = ("en", "de", "fr", "hu")
CI = os.environ.get("CI") == "true"


def need_chromium() -> None:
    """Skip the calling module without Debian's chromium, except under CI, where its tests fail
    instead (.ci/run installs it)."""
    if not CHROMIUM.exists() and not CI:
        pytest.skip("Debian's chromium is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The screenshots' folder: ``$GAIA_SCREENSHOTS``, or a temporary one."""
    folder = os.environ.get("GAIA_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless."""
    from playwright import sync_api  # noqa: PLC0415 (the browser tests only)

    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A game server of its own for the module, on a free loopback port."""
    from tests.web_server import running_server  # noqa: PLC0415 (the web wing's tests only)

    with running_server(tmp_path_factory.mktemp("web") / "games.sqlite3") as running:
        yield running
