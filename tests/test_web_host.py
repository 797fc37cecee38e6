"""What a host would trip over, each shown not to happen: an abandoned game ends (its seats are
told, its creator may create again), a client reads its own writes through another process,
silent sockets are capped per address, a database restart fails no request, a refused
creation takes nothing from the rate, a killed server leaves no traceback in its bots'
workers; and the health route, the rate of requests on every route, the access log (with
no token in it), and no database password on the command line.

Skipped as a whole when the ``web`` extra is not installed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import pickle
import random
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import gaia_rules as gr
from gaia_rules.web import create_app
from gaia_rules.web.access import ACCESS_LOGGER
from gaia_rules.web.botpool import _serve
from gaia_rules.web.limits import Limits
from gaia_rules.web.rooms import Lobby
from gaia_rules.web.store import ABANDONED
from gaia_rules.web.stores import open_store
from tests.web_server import running_server

DRAW = {"type": "DrawDeck", "player": 0, "kind": "nature"}
UNRATED = {"requests_per_minute": 1e9, "requests_burst": 10**9}


def serve(db: Path | str, **limits: Any) -> TestClient:
    app = create_app(db, limits=Limits(**{**UNRATED, **limits}))
    return TestClient(app, raise_server_exceptions=False)


def lobby(client: TestClient) -> Lobby:
    found: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return found


def create(client: TestClient, **body: Any) -> Any:
    return client.post("/api/games", json={"players": 2, "seed": 11, **body})


def new_game(client: TestClient, **body: Any) -> tuple[str, list[str], str]:
    response = create(client, **body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["game"], [seat["token"] for seat in data["seats"]], data["spectator"]["token"]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def closed_with(socket_: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            socket_.receive_text()
    return closed.value.code


# -- D1: abandoned games end ----------------------------------------------------------------


def test_a_game_with_no_action_ends_abandoned_and_frees_its_creators_quota(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with serve(db, abandon_after=0.5, games_per_address=2) as client:
        game, tokens, spectator = new_game(client)
        new_game(client)
        refused = create(client)
        assert refused.status_code == 429 and refused.json()["error"]["kind"] == "too_many"
        with client.websocket_connect(f"/api/games/{game}/live") as ws:
            ws.send_json({"token": tokens[0], "since": 0})
            first = ws.receive_json()
            assert first["over"] is False and "ended" not in first
            frames: list[Any] = []
            reader = threading.Thread(target=lambda: frames.append(ws.receive_json()), daemon=True)
            reader.start()
            reader.join(timeout=10)  # pushed when the server ends it
            assert frames, "the seat was not told"
            told = frames[0]
        assert told["over"] is True and told["ended"] == ABANDONED and told["legal"] is None
        state = client.get(f"/api/games/{game}", headers=auth(spectator)).json()
        assert state["over"] is True and state["ended"] == ABANDONED
        action = client.post(
            f"/api/games/{game}/actions", json={"move": 0, "action": DRAW}, headers=auth(tokens[0])
        )
        assert action.status_code == 409 and action.json()["error"]["kind"] == "abandoned"
        record = client.get(f"/api/games/{game}/record", headers=auth(tokens[1]))
        assert record.status_code == 200 and record.headers["gaia-ended"] == ABANDONED
        replay = client.get(f"/api/games/{game}/replay?step=0", headers=auth(tokens[0]))
        assert replay.status_code == 200 and replay.json()["replay"]["step"] == 0
        assert create(client).status_code == 201  # the quota is free again
    with sqlite3.connect(db) as conn:  # the store's record of the game says so
        assert conn.execute("SELECT over, ended FROM games WHERE id = ?", (game,)).fetchone() == (
            1,
            ABANDONED,
        )


def test_a_game_that_is_played_is_not_abandoned(tmp_path: Path) -> None:
    with serve(tmp_path / "games.sqlite3", abandon_after=0.6) as client:
        game, tokens, _ = new_game(client)
        for _ in range(4):  # an action every 0.3 s: never 0.6 s without one
            time.sleep(0.3)
            state = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()
            assert not state["over"], state
            seat = state["to_move"]
            state = client.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
            body = {"move": state["moves"], "action": state["legal"][0]}
            answer = client.post(
                f"/api/games/{game}/actions", json=body, headers=auth(tokens[seat])
            )
            assert answer.status_code == 200, answer.text


# -- D2: read-your-writes across processes -------------------------------------------------


def test_a_client_reads_its_own_action_through_another_process(tmp_path: Path) -> None:
    """Two servers over one file, and no news from one to the other (SQLite has none: the
    slowest a notification can be): the client's move number is what brings the other up."""
    db = tmp_path / "games.sqlite3"
    with serve(db) as one, serve(db) as other:
        game, tokens, _ = new_game(one)
        assert other.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["moves"] == 0
        answer = one.post(
            f"/api/games/{game}/actions", json={"move": 0, "action": DRAW}, headers=auth(tokens[0])
        ).json()
        moves = answer["moves"]
        seat = answer["to_move"]
        # a GET that says which move the client knows of is at that move, or later
        state = other.get(f"/api/games/{game}?moves={moves}", headers=auth(tokens[seat])).json()
        assert state["moves"] == moves and state["legal"]
        # and an action answering it is judged against it, not refused as stale
        body = {"move": moves, "action": state["legal"][0]}
        again = one.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
        assert again["moves"] == moves
        other_lobby = lobby(other)
        other_lobby.rooms.pop(game)  # and from a process that holds the old state in memory:
        assert other.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["moves"] == moves
        next_move = one.post(
            f"/api/games/{game}/actions", json=body, headers=auth(tokens[seat])
        ).json()
        assert next_move["moves"] == moves + 1
        seat = next_move["to_move"]
        state = one.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
        body = {"move": moves + 1, "action": state["legal"][0]}
        taken = other.post(f"/api/games/{game}/actions", json=body, headers=auth(tokens[seat]))
        assert taken.status_code == 200, taken.text
        assert taken.json()["moves"] == moves + 2


# -- D3: silent sockets per address --------------------------------------------------------


def test_websockets_that_have_not_said_hello_count_against_their_address(tmp_path: Path) -> None:
    with serve(tmp_path / "games.sqlite3", connections_per_address=2, hello_timeout=2) as client:
        game, _, _ = new_game(client)
        path = f"/api/games/{game}/live"
        with (
            client.websocket_connect(path),
            client.websocket_connect(path),
            client.websocket_connect(path) as third,
        ):
            assert closed_with(third) == 4429
        with client.websocket_connect(path) as fourth:  # the first two went: room again
            fourth.send_json({"token": "nobody", "since": 0})
            assert closed_with(fourth) == 4401


def test_connections_that_send_nothing_are_capped_per_address(tmp_path: Path) -> None:
    flags = ["--pending-per-address", "3", "--header-timeout", "3", "--access-log", "off"]
    with running_server(tmp_path / "games.sqlite3", flags) as server:
        host, port = server.url.removeprefix("http://").rstrip("/").split(":")
        silent = [socket.create_connection((host, int(port))) for _ in range(3)]
        try:
            with socket.create_connection((host, int(port)), timeout=2) as fourth:
                answer = fourth.recv(200)
            assert answer.startswith(b"HTTP/1.1 429") and b"retry-after" in answer.lower()
        finally:
            for sock in silent:
                sock.close()
        # once they are gone, a connection of the address is served again
        deadline = time.monotonic() + 5
        while status_of(server.url + "api/health") != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)


# -- D4: a database restart fails no request -----------------------------------------------


@pytest.mark.postgres
def test_a_postgresql_restart_fails_no_request_and_health_says_when_it_is_down() -> None:
    from tests.postgres import fresh_database, own_cluster  # noqa: PLC0415

    with own_cluster() as cluster:
        db = fresh_database(cluster.url)
        with serve(db) as client:
            games = [new_game(client) for _ in range(3)]
            for game, tokens, _ in games:  # every pooled connection used once
                assert client.get(f"/api/games/{game}", headers=auth(tokens[0])).status_code == 200
            assert client.get("/api/health").json()["store"]["kind"] == "postgresql"
            cluster.stop()
            down = client.get("/api/health")
            assert down.status_code == 503 and down.json()["ok"] is False
            cluster.start()
            statuses = []
            for round_ in range(10):  # more requests than pooled connections, all broken
                game, tokens, _ = games[round_ % 3]
                lobby(client).rooms.pop(game, None)  # read from the store each time
                statuses.append(
                    client.get(f"/api/games/{game}", headers=auth(tokens[0])).status_code
                )
                statuses.append(create(client).status_code)
            assert statuses == [200, 201] * 10
            health = client.get("/api/health")
            assert health.status_code == 200 and health.json()["store"]["in_play"] == 13


def test_an_action_whose_answer_was_lost_with_its_connection_is_not_taken_twice(
    postgres: str,
) -> None:
    """The retry after a broken connection finds its own row, and answers as stored."""
    from gaia_rules.web.store import StoredAction  # noqa: PLC0415
    from gaia_rules.web.store_postgres import PostgresStore, _stored  # noqa: PLC0415
    from tests.postgres import fresh_database  # noqa: PLC0415
    from tests.test_web_store import game  # noqa: PLC0415

    db = fresh_database(postgres)

    async def scenario() -> bool:
        store = await open_store(db)
        assert isinstance(store, PostgresStore)
        try:
            await store.create(game("a"))
            mine = StoredAction(0, 0, '{"x":1}', "k")
            await store.append("a", mine, over=False)
            connection = store._connections[0]
            # a second attempt of the same write: the row is the same, so it was stored
            return await _stored(connection, "a", mine) and not await _stored(
                connection, "a", StoredAction(0, 1, '{"x":1}', "k")
            )
        finally:
            await store.close()

    assert asyncio.run(scenario())


# -- D5: a refused creation is not counted -------------------------------------------------


def test_a_creation_refused_for_its_body_takes_nothing_from_the_rate(tmp_path: Path) -> None:
    with serve(tmp_path / "games.sqlite3", creations_per_minute=2) as client:
        for _ in range(3):
            big = client.post(
                "/api/games",
                content=b'{"players": 2, "x": "' + b"a" * 70_000 + b'"}',
                headers={"Content-Type": "application/json"},
            )
            assert big.status_code == 413
            bad = client.post("/api/games", json={"players": 9})
            assert bad.status_code == 400
        assert create(client).status_code == 201
        assert create(client).status_code == 201
        over = create(client)
        assert over.status_code == 429 and int(over.headers["retry-after"]) >= 1


# -- D6: a killed server leaves its bots' workers quiet ------------------------------------


def test_a_worker_whose_server_died_mid_decision_ends_quietly() -> None:
    ours, theirs = multiprocessing.Pipe()
    game = gr.new_game(2, gr.Rules(), seed=3)
    legal = list(game.legal_actions())
    ours.send_bytes(pickle.dumps(("random", 1, game.view(0), legal)))
    ours.close()  # the server is gone before the answer: writing it breaks the pipe
    _serve(theirs)  # no BrokenPipeError


# -- health, rates, the access log ----------------------------------------------------------


def test_health_answers_the_stores_state(tmp_path: Path) -> None:
    with serve(tmp_path / "games.sqlite3") as client:
        new_game(client)
        answer = client.get("/api/health")
        assert answer.status_code == 200
        assert answer.json() == {
            "ok": True,
            "store": {"kind": "sqlite", "in_play": 1},
            "in_memory": 1,
        }


def test_every_route_is_rate_limited_per_address(tmp_path: Path) -> None:
    with serve(tmp_path / "games.sqlite3", requests_per_minute=60, requests_burst=4) as client:
        game, tokens, _ = new_game(client)  # 1
        for path in ("/", "/static/app.js", f"/api/games/{game}"):  # 2, 3, 4
            assert client.get(path, headers=auth(tokens[0])).status_code == 200
        for path in ("/", "/api/health", f"/api/games/{game}", "/static/app.js"):
            refused = client.get(path, headers=auth(tokens[0]))
            assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
            assert refused.json()["error"]["kind"] == "rate_limited"
        with client.websocket_connect(f"/api/games/{game}/live") as ws:
            assert closed_with(ws) == 4429


def test_the_access_log_has_a_line_per_request_and_no_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    with serve(tmp_path / "games.sqlite3") as client:
        answer = create(client).json()
        game = answer["game"]
        tokens = [seat["token"] for seat in answer["seats"]] + [answer["spectator"]["token"]]
        client.get(f"/api/games/{game}?since=0", headers=auth(tokens[0]))
        client.get(f"/api/games/{game}?token={tokens[1]}", headers=auth(tokens[1]))
        client.post(
            f"/api/games/{game}/actions",
            json={"move": 0, "action": DRAW},
            headers={**auth(tokens[0]), "Idempotency-Key": tokens[2]},
        )
        with client.websocket_connect(f"/api/games/{game}/live") as ws:
            ws.send_json({"token": tokens[2], "since": 0})
            ws.receive_json()
    lines = [r.getMessage() for r in caplog.records if r.name == ACCESS_LOGGER]
    entries = [json.loads(line) for line in lines]
    assert [(e["method"], e["path"], e["status"]) for e in entries] == [
        ("POST", "/api/games", 201),
        ("GET", f"/api/games/{game}", 200),
        ("GET", f"/api/games/{game}", 200),
        ("POST", f"/api/games/{game}/actions", 200),
        ("WS", f"/api/games/{game}/live", 101),
    ]
    for entry in entries:
        assert set(entry) <= {"time", "address", "method", "path", "status", "bytes", "ms", "close"}
        assert entry["address"] == "testclient" and entry["ms"] >= 0
    assert entries[0]["bytes"] > 0
    for token in tokens:
        assert token not in caplog.text


# -- the password never on the command line -------------------------------------------------


def test_serve_refuses_a_password_in_the_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_web_cli import run  # noqa: PLC0415

    for url in (
        "postgresql://gaia:s3cret@localhost/gaia",
        "postgresql://gaia@localhost/gaia?password=s3cret",
    ):
        status, out, err = run(["serve", "--port", "0", "--db", url])
        assert status == 1 and "PGPASSWORD" in err and "s3cret" not in err + out
    monkeypatch.setenv("GAIA_DB", "postgresql://gaia:s3cret@localhost/gaia")
    status, _, err = run(["serve", "--port", "0"])
    assert status == 1 and "PGPASSWORD" in err


# -- the clock (spec 1.17) ----------------------------------------------------------------


@pytest.mark.clause("1.17")
def test_a_timed_out_seat_declines_where_it_may_else_the_seeded_random_bot_decides() -> None:
    from gaia_rules.bots import RandomBot  # noqa: PLC0415
    from gaia_rules.cli.common import derive_seed  # noqa: PLC0415
    from gaia_rules.web.clock import DECLINES, timed_out  # noqa: PLC0415

    rules = gr.Rules(level=gr.Level.POWERS, objectives=gr.Objectives.OPTIONAL)
    declined = chosen = 0
    for seed in range(40):
        game = gr.new_game(3, rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.actions) < 150:
            seat = game.to_move
            assert seat is not None
            legal = list(game.legal_actions())
            taken = timed_out(game, seat)
            assert taken in legal and taken.player == seat
            declines = [action for action in legal if isinstance(action, DECLINES)]
            if declines:
                assert taken == declines[0]
                declined += 1
            else:
                bot = RandomBot(derive_seed(game.seed, seat, len(game.actions)))
                assert taken == bot.choose(game.view(seat), legal)
                chosen += 1
            game.apply(rng.choice(legal))
        if declined >= 3:
            break
    assert declined >= 3 and chosen > 0


@pytest.mark.clause("1.17")
def test_with_a_clock_a_seat_that_does_not_decide_in_time_has_its_decision_taken(
    tmp_path: Path,
) -> None:
    from gaia_rules.web.clock import timed_out  # noqa: PLC0415

    with serve(tmp_path / "games.sqlite3", clock=1.0) as client:
        game, tokens, _ = new_game(client)
        state = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()
        assert state["clock"]["seconds"] == 1.0 and 0 < state["clock"]["left"] <= 1.0
        room = lobby(client).rooms[game]
        expected = timed_out(room.game, 0)
        deadline = time.monotonic() + 10
        while room.moves < 1:
            assert time.monotonic() < deadline, "the clock did not run out"
            time.sleep(0.02)
        assert room.game.actions[0] == expected
        # a seat that decides in time keeps its own decision, and the clock starts again
        seat = room.game.to_move
        assert seat is not None
        state = client.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()
        body = {"move": state["moves"], "action": state["legal"][-1]}
        answer = client.post(f"/api/games/{game}/actions", json=body, headers=auth(tokens[seat]))
        assert answer.status_code == 200 and answer.json()["moves"] == 2
        assert room.game.actions[1].to_data() == state["legal"][-1]


@pytest.mark.postgres
def test_the_database_password_comes_from_the_environment_or_a_pass_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg  # noqa: PLC0415 (the web extra)

    from gaia_rules.web.store import StoreError  # noqa: PLC0415
    from tests.postgres import own_cluster  # noqa: PLC0415

    async def opens(url: str) -> bool:
        try:
            store = await open_store(url)
        except StoreError:
            return False
        await store.close()
        return True

    with own_cluster() as cluster:
        with psycopg.connect(cluster.url, autocommit=True) as connection:
            connection.execute("CREATE ROLE player LOGIN PASSWORD 's3cret'")
            connection.execute("CREATE DATABASE played OWNER player")
        (cluster.data / "pg_hba.conf").write_text(
            "host all player 127.0.0.1/32 scram-sha-256\n"
            "host all all 127.0.0.1/32 trust\n"
            "local all all trust\n"
        )
        cluster.reload()
        url = cluster.url.replace("//gaia@", "//player@").rsplit("/", 1)[0] + "/played"
        port = url.rsplit(":", 1)[1].split("/")[0]
        monkeypatch.delenv("PGPASSWORD", raising=False)
        monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
        assert not asyncio.run(opens(url))  # no password: refused
        monkeypatch.setenv("PGPASSWORD", "s3cret")
        assert asyncio.run(opens(url))
        monkeypatch.delenv("PGPASSWORD")
        passfile = tmp_path / "pgpass"
        passfile.write_text(f"127.0.0.1:{port}:played:player:s3cret\n")
        passfile.chmod(0o600)
        monkeypatch.setenv("PGPASSFILE", str(passfile))
        assert asyncio.run(opens(url))


@pytest.mark.clause("1.17")
def test_the_clock_does_not_play_on_a_game_nobody_follows(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with serve(db, clock=0.1, idle=0.5) as client:
        game, _, _ = new_game(client)
        deadline = time.monotonic() + 10
        while game in lobby(client).rooms:  # nobody asks for it: it leaves memory
            assert time.monotonic() < deadline, "the clock kept the game in memory"
            time.sleep(0.05)

        def stored() -> int:
            with sqlite3.connect(db) as conn:
                (count,) = conn.execute(
                    "SELECT count(*) FROM actions WHERE game = ?", (game,)
                ).fetchone()
                return int(count)

        played = stored()
        time.sleep(0.5)
        assert stored() == played > 0  # it ran while the game was held, and stopped with it


@pytest.mark.clause("1.17")
def test_a_game_asks_for_its_own_clock_at_its_creation(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with serve(db) as client:  # no clock on the server
        timed, tokens, _ = new_game(client, clock=0.3)
        untimed, _, _ = new_game(client)
        state = client.get(f"/api/games/{timed}", headers=auth(tokens[0])).json()
        assert state["clock"]["seconds"] == 0.3
        rooms = lobby(client).rooms
        deadline = time.monotonic() + 10
        while rooms[timed].moves < 1:
            assert time.monotonic() < deadline, "the game's clock did not run out"
            time.sleep(0.02)
        assert rooms[untimed].moves == 0 and rooms[untimed].deadline is None
        for wrong in (-1, True, "60", 10**9):
            refused = create(client, clock=wrong)
            assert refused.status_code == 400 and "clock" in refused.json()["error"]["message"]
    with serve(db, clock=100) as client:  # read back from the store: its own clock still
        state = client.get(f"/api/games/{timed}", headers=auth(tokens[0])).json()
        assert state["clock"]["seconds"] == 0.3
