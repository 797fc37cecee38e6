"""Fixtures shared by several test modules, and the markers the suite gives by itself: every
test of a module that drives a browser through Playwright is marked ``browser``, and every test
that uses the ``postgres`` fixture (a PostgreSQL server) ``postgres``, so that ``-m browser``
and ``-m postgres`` run them alone (``nox -s browser``, ``nox -s postgres``) and
``-m 'not browser and not postgres'`` leaves them to those jobs where there is no chromium or
PostgreSQL (the hosted CI's macOS and Windows runners, the tests of a built wheel). And the
fuzz suite's figures, printed at the end of a run that had any (``pytest -m soak``)."""

from __future__ import annotations

import json
import types
from collections.abc import Iterator

import pytest

from tests.browsing import browser, server, shots  # noqa: F401 (fixtures of the suite)
from tests.fuzz import Figures


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL server for this test session (see ``tests/postgres.py``)."""
    from tests.postgres import postgres_server  # noqa: PLC0415 (only its tests need it)

    with postgres_server() as url:
        yield url


def _drives_a_browser(module: types.ModuleType) -> bool:
    """Whether the module holds anything of Playwright's (its API module, a class of it)."""
    for value in vars(module).values():
        origin = getattr(value, "__module__", None) or getattr(value, "__name__", None)
        if isinstance(origin, str) and origin.split(".")[0] == "playwright":
            return True
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        module = getattr(item, "module", None)
        uses = getattr(item, "fixturenames", ())
        if "browser" in uses or (module is not None and _drives_a_browser(module)):
            item.add_marker(pytest.mark.browser)
        if "postgres" in uses:
            item.add_marker(pytest.mark.postgres)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The fuzz suite's figures, added up over every test (and worker) that ran some."""
    figures = Figures()
    found = False
    failed = 0
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if name != "fuzz":
                    continue
                data = json.loads(value)
                figures.merge(Figures.from_data(data))
                found = True
                failed += outcome == "failed"
    if found:
        terminalreporter.section("fuzz")
        for line in figures.lines(failed):
            terminalreporter.write_line(line)
