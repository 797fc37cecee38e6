"""Which store a server opens: [`open_store`][gaia_rules.web.stores.open_store], by the form
of ``--db``."""

from __future__ import annotations

from pathlib import Path

from gaia_rules.web.store import Store

__all__ = ["open_store"]


async def open_store(db: str | Path, *, fsync: bool = False) -> Store:
    """The store at ``db``: a ``postgresql://`` (or ``postgres://``) URL opens a
    [`PostgresStore`][gaia_rules.web.store_postgres.PostgresStore], anything else is the path
    of a SQLite file ([`SqliteStore`][gaia_rules.web.store_sqlite.SqliteStore]). ``fsync``:
    every commit waits until the disk has it (SQLite's ``synchronous=FULL``; PostgreSQL's
    durability is the database's own setting, ``synchronous_commit``)."""
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        from gaia_rules.web.store_postgres import PostgresStore  # noqa: PLC0415 (psycopg)

        return await PostgresStore.open(text)
    from gaia_rules.web.store_sqlite import SqliteStore  # noqa: PLC0415

    return await SqliteStore.open(db, fsync=fsync)
