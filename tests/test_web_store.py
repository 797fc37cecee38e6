"""The server's stores, one suite run against each: SQLite (the embedded default) and
PostgreSQL (a real server: see ``tests/postgres.py``). An action is one appended row; two
appends at one move number, or with one idempotency key, store one; a failed write leaves
nothing behind."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from gaia_rules.web.store import (
    ABANDONED,
    ENDED,
    SPECTATOR,
    MoveTakenError,
    NewGame,
    Store,
    StoredAction,
    token_hash,
)
from gaia_rules.web.stores import open_store

HEAD = '{"format":1,"players":2}'


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store lives: a SQLite file, or a fresh database on the PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    from tests.postgres import fresh_database  # noqa: PLC0415

    server: str = request.getfixturevalue("postgres")
    return fresh_database(server)


def run(where: str, scenario: Callable[[Store], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        store = await open_store(where)
        try:
            return await scenario(store)
        finally:
            await store.close()

    return asyncio.run(main())


def game(game_id: str, creator: str = "1.2.3.4") -> NewGame:
    tokens = {token_hash(game_id + "0"): 0, token_hash(game_id + "s"): SPECTATOR}
    return NewGame(game_id, 2, (None, "greedy"), HEAD, tokens, creator)


def test_a_game_is_its_head_and_its_actions_one_row_each(where: str) -> None:
    async def scenario(store: Store) -> Any:
        await store.create(game("a"))
        for number in range(3):
            action = StoredAction(number, number % 2, f'{{"n":{number}}}')
            await store.append("a", action, over=False)
        return await store.load("a"), await store.load("a", after=2), await store.load("zz")

    whole, tail, missing = run(where, scenario)
    assert whole.head == HEAD and whole.bots == (None, "greedy") and whole.players == 2
    assert whole.tokens == {token_hash("a0"): 0, token_hash("as"): SPECTATOR}
    assert [a.action for a in whole.actions] == ['{"n":0}', '{"n":1}', '{"n":2}']
    assert whole.record_text() == (
        '{"format":1,"players":2,"actions":[{"n":0},{"n":1},{"n":2}],"result":null}'
    )
    assert [a.number for a in tail.actions] == [2]
    assert missing is None


def test_appends_at_one_number_or_with_one_key_store_one(where: str) -> None:
    async def scenario(store: Store) -> Any:
        for game_id in ("a", "b", "c"):
            await store.create(game(game_id))
        outcomes = await asyncio.gather(
            store.append("a", StoredAction(0, 0, "{}", key="k1"), over=False),
            store.append("b", StoredAction(5, 0, "{}"), over=False),  # not at 5: a gap
            store.append("c", StoredAction(0, 1, "{}"), over=True),
            store.append("a", StoredAction(0, 0, "{}", key="k1"), over=False),  # at 0 again
            return_exceptions=True,
        )
        again = await asyncio.gather(
            store.append("a", StoredAction(1, 0, "{}", key="k1"), over=False),  # key again
            store.append("b", StoredAction(0, 0, "{}", key="k1"), over=False),  # another game
            return_exceptions=True,
        )
        loaded = [await store.load(g) for g in ("a", "b", "c")]
        return outcomes, again, [len(g.actions) for g in loaded if g is not None]

    outcomes, again, counts = run(where, scenario)
    # one of the two appends at game a's move 0 is stored, whichever came first
    assert sorted(type(o).__name__ for o in (outcomes[0], outcomes[3])) == [
        "MoveTakenError",
        "NoneType",
    ]
    assert outcomes[2] is None
    assert isinstance(outcomes[1], MoveTakenError)
    assert isinstance(again[0], MoveTakenError) and again[1] is None
    assert counts == [1, 1, 1]


def test_games_in_play_are_counted_by_creator_until_they_end(where: str) -> None:
    async def scenario(store: Store) -> list[int]:
        await store.create(game("a", creator="x"))
        await store.create(game("b", creator="x"))
        await store.create(game("c", creator="y"))
        counts = [await store.games_in_play("x"), await store.games_in_play("y")]
        await store.append("a", StoredAction(0, 0, "{}"), over=True)
        return [*counts, await store.games_in_play("x"), await store.games_in_play("z")]

    assert run(where, scenario) == [2, 1, 1, 0]


def test_a_game_with_no_action_for_long_ends_abandoned_and_counts_no_more(where: str) -> None:
    async def scenario(store: Store) -> list[Any]:
        await store.create(game("idle", creator="x"))
        await store.create(game("busy", creator="x"))
        await asyncio.sleep(0.05)
        cut = time.time()
        await store.append("busy", StoredAction(0, 0, "{}"), over=False)  # acted since
        before = await store.games_in_play("x")
        swept = await store.abandon(cut)
        again = await store.abandon(cut)  # once only
        loaded = await store.load("idle")
        busy = await store.load("busy")
        assert loaded is not None and busy is not None
        with pytest.raises(MoveTakenError):  # an ended game takes no more actions
            await store.append("idle", StoredAction(0, 0, "{}"), over=False)
        return [before, swept, again, loaded.ended, busy.ended, await store.games_in_play("x")]

    assert run(where, scenario) == [2, ["idle"], [], ABANDONED, None, 1]


def test_the_postgres_store_tells_the_other_processes_of_each_action(postgres: str) -> None:
    from tests.postgres import fresh_database  # noqa: PLC0415

    where = fresh_database(postgres)

    async def scenario() -> list[tuple[str, int]]:
        writer, reader = await open_store(where), await open_store(where)
        heard: list[tuple[str, int]] = []
        try:
            await reader.listen(lambda game_id, moves: heard.append((game_id, moves)))
            await writer.create(game("a"))
            await writer.append("a", StoredAction(0, 0, '{"secret":"never"}'), over=False)
            await writer.append("a", StoredAction(1, 1, "{}"), over=False)
            for _ in range(200):
                if len(heard) == 2:
                    break
                await asyncio.sleep(0.01)
            return heard
        finally:
            await writer.close()
            await reader.close()

    assert asyncio.run(scenario()) == [("a", 1), ("a", 2)]  # ids and numbers, nothing else


def test_the_postgres_store_tells_the_other_processes_of_an_abandoned_game(
    postgres: str,
) -> None:
    from tests.postgres import fresh_database  # noqa: PLC0415

    where = fresh_database(postgres)

    async def scenario() -> list[tuple[str, int]]:
        sweeper, reader = await open_store(where), await open_store(where)
        heard: list[tuple[str, int]] = []
        try:
            await reader.listen(lambda game_id, moves: heard.append((game_id, moves)))
            await sweeper.create(game("a"))
            assert await sweeper.abandon(time.time() + 1) == ["a"]
            for _ in range(200):
                if heard:
                    break
                await asyncio.sleep(0.01)
            return heard
        finally:
            await sweeper.close()
            await reader.close()

    assert asyncio.run(scenario()) == [("a", ENDED)]


@pytest.mark.parametrize(("fsync", "level"), [(False, 1), (True, 2)])
def test_fsync_makes_every_sqlite_commit_wait_for_the_disk(
    tmp_path: Path, fsync: bool, level: int
) -> None:
    from gaia_rules.web.store_sqlite import SqliteStore  # noqa: PLC0415

    async def scenario() -> tuple[str, int]:
        store = await SqliteStore.open(tmp_path / "games.sqlite3", fsync=fsync)
        try:
            conn = store._conn
            return conn.execute("PRAGMA journal_mode").fetchone()[0], conn.execute(
                "PRAGMA synchronous"
            ).fetchone()[0]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == ("wal", level)  # NORMAL is 1, FULL is 2
