"""The server's SQLite store: writes that arrive together share one commit, and one that fails
fails alone, leaving nothing of itself behind."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from gaia_rules.web.store import Store, token_hash


def test_actions_written_together_succeed_or_fail_one_by_one(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[BaseException | None], list[tuple[str, int]]]:
        store = await Store.open(tmp_path / "games.sqlite3")
        try:
            for game in ("a", "b", "c"):
                await store.create(game, (None, None), "{}", {token_hash(game): 0})
            outcomes = await asyncio.gather(
                store.add_action("a", 0, 0, '{"x":1}', record="A1", over=False),
                store.add_action("b", 5, 0, '{"x":2}', record="B6", over=False),  # not at 5
                store.add_action("c", 0, 1, '{"x":3}', record="C1", over=True),
                store.add_action("a", 0, 0, '{"x":4}', record="A1", over=False),  # twice
                return_exceptions=True,
            )
            stored = [(game.record, game.moves) for game in await store.games()]
            return list(outcomes), stored
        finally:
            await store.close()

    outcomes, stored = asyncio.run(scenario())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], sqlite3.IntegrityError)
    assert isinstance(outcomes[3], sqlite3.IntegrityError)
    assert stored == [("A1", 1), ("{}", 0), ("C1", 1)]


@pytest.mark.parametrize(("fsync", "level"), [(False, 1), (True, 2)])
def test_fsync_makes_every_commit_wait_for_the_disk(
    tmp_path: Path, fsync: bool, level: int
) -> None:
    async def scenario() -> tuple[str, int]:
        store = await Store.open(tmp_path / "games.sqlite3", fsync=fsync)
        try:
            conn = store._conn
            return conn.execute("PRAGMA journal_mode").fetchone()[0], conn.execute(
                "PRAGMA synchronous"
            ).fetchone()[0]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == ("wal", level)  # NORMAL is 1, FULL is 2
