"""Fixtures shared by several test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """The URL of a PostgreSQL server for this test session (see ``tests/postgres.py``)."""
    from tests.postgres import postgres_server  # noqa: PLC0415 (only its tests need it)

    with postgres_server() as url:
        yield url
