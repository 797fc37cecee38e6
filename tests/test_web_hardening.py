"""The server put on the internet: malformed input gets a 4xx or a close code (never a 500 or
a dropped socket), an action is taken exactly once, every limit answers 429 with
Retry-After, idle games leave memory, a change is built once per seat, bots think in other
processes, and an action is one appended row.

Skipped as a whole when the ``web`` extra is not installed.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import gaia_rules as gr
from gaia_rules.web import create_app
from gaia_rules.web.messages import public_view
from gaia_rules.web.rooms import Lobby
from tests.web_server import running_server

DRAW = {"type": "DrawDeck", "player": 0, "kind": "nature"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def serve(db: Path, **limits: Any) -> TestClient:
    """A test client whose server errors come back as 500s, as a real server's would."""
    if not limits:
        return TestClient(create_app(db), raise_server_exceptions=False)
    from gaia_rules.web.limits import Limits  # noqa: PLC0415

    app = create_app(db, limits=Limits(**limits))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with serve(db) as test_client:
        yield test_client


@pytest.fixture
def unrated(db: Path) -> Iterator[TestClient]:
    """A client of a server with no rate of requests in the way (for the tests that send
    hundreds of requests, each of which must be judged on its own)."""
    with serve(db, requests_per_minute=1e9, requests_burst=10**9) as test_client:
        yield test_client


def lobby(client: TestClient) -> Lobby:
    found: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return found


def new_game(client: TestClient, **body: Any) -> tuple[str, list[str], str]:
    response = client.post("/api/games", json={"players": 2, "seed": 11, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["game"], [seat["token"] for seat in data["seats"]], data["spectator"]["token"]


def headers(token: str, **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json", **more}


def raw(token: str, **more: str) -> list[tuple[bytes, bytes]]:
    """``headers(...)`` as bytes, each value UTF-8 (what a client may send)."""
    return [(k.lower().encode(), v.encode()) for k, v in headers(token, **more).items()]


def post(client: TestClient, game: str, token: str, body: Any, **more: str) -> Any:
    return client.post(
        f"/api/games/{game}/actions", headers=headers(token, **more), content=json.dumps(body)
    )


def closed_with(socket: Any) -> int:
    """The code the server closed ``socket`` with, after any error message."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            socket.receive_text()
    return closed.value.code


# -- malformed input: a 4xx or a close code ------------------------------------------------


def test_a_unicode_digit_in_since_is_a_400_not_a_500(client: TestClient) -> None:
    game, tokens, _ = new_game(client)
    for path in (f"/api/games/{game}?since=%C2%B2", f"/api/games/{game}/stream?since=%C2%B2"):
        response = client.get(path, headers=headers(tokens[0]))
        assert response.status_code == 400, (path, response.text)
        assert response.json()["error"]["kind"] == "bad_request"
    for declared in ("²", "١٢", "+5", " 5", "0x10"):
        response = client.post(
            f"/api/games/{game}/actions",
            headers=raw(tokens[0], **{"Content-Length": declared}),
            content=json.dumps(DRAW),
        )
        assert 400 <= response.status_code < 500, declared


def test_a_binary_hello_gets_a_close_code(client: TestClient) -> None:
    game, tokens, _ = new_game(client)
    with client.websocket_connect(f"/api/games/{game}/live") as ws:
        ws.send_bytes(b"\xff\xfe not text")
        assert closed_with(ws) == 4400
    # the same hello as UTF-8 bytes is read as the text hello it is
    with client.websocket_connect(f"/api/games/{game}/live") as ws:
        ws.send_bytes(json.dumps({"token": tokens[0], "since": 0}).encode())
        assert ws.receive_json()["seat"] == 0


def test_a_token_that_is_not_text_gets_a_close_code(client: TestClient) -> None:
    game, _, _ = new_game(client)
    for token in ("\ud800", "\udcff" * 3, "é" * 40, "x" * 500, ""):
        with client.websocket_connect(f"/api/games/{game}/live") as ws:
            ws.send_text(json.dumps({"token": token, "since": 0}))  # JSON escapes a surrogate
            assert closed_with(ws) == 4401, repr(token)


QUERY = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
FRAME = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=64),
    st.builds(
        lambda token, since: json.dumps({"token": token, "since": since}),
        st.text(max_size=40),
        st.one_of(st.integers(), st.text(max_size=5), st.none(), st.booleans()),
    ),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    since=QUERY,
    world=QUERY,
    token=st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=255), max_size=40),
    key=st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=255), max_size=140),
    body=st.one_of(st.binary(max_size=200), st.from_type(type(None))),
    frame=FRAME,
)
def test_no_query_header_body_or_frame_gets_a_500_or_a_dropped_socket(  # noqa: PLR0917
    unrated: TestClient,
    since: str,
    world: str,
    token: str,
    key: str,
    body: bytes | None,
    frame: str | bytes,
) -> None:
    client = unrated
    rooms = lobby(client).rooms  # one game for every example (creating is rate-limited)
    game = next(iter(rooms)) if rooms else new_game(client)[0]
    room = lobby(client).rooms[game]
    before = len(room.game.actions)
    raw_token = token.encode("latin-1")
    for path in (f"/api/games/{game}", f"/api/games/{game}/record"):
        response = client.get(
            path,
            params={"since": since, "world": world},
            headers=[(b"authorization", b"Bearer " + raw_token)],
        )
        assert response.status_code < 500, response.text
    response = client.post(
        f"/api/games/{game}/actions",
        headers=[
            (b"authorization", b"Bearer " + raw_token),
            (b"idempotency-key", key.encode("latin-1")),
            (b"content-type", b"application/json"),
        ],
        content=body if body is not None else json.dumps({"move": 0, "action": DRAW}),
    )
    assert response.status_code < 500, response.text
    assert len(room.game.actions) == before  # no token of the game: nothing taken
    with client.websocket_connect(f"/api/games/{game}/live") as ws:
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        assert closed_with(ws) in (4400, 4401)


# -- exactly once --------------------------------------------------------------------------


def test_two_identical_posts_at_once_draw_once(tmp_path: Path) -> None:
    with running_server(tmp_path / "games.sqlite3") as server:
        status, created = server.call("POST", "/api/games", {"players": 2, "seed": 3})
        assert status == 201
        game, token = created["game"], created["seats"][0]["token"]
        path = f"/api/games/{game}/actions"

        def draw(body: Any, key: str | None) -> tuple[int, Any]:
            return server.call("POST", path, body, token, key=key)

        with ThreadPoolExecutor(4) as pool:
            # a double click: the same key twice, then the same move number twice
            answers = list(pool.map(draw, [DRAW, DRAW], ["click-1", "click-1"]))
            assert [status for status, _ in answers] == [200, 200]
            assert answers[0][1] == answers[1][1] and answers[0][1]["moves"] == 1
            status, state = server.call("GET", f"/api/games/{game}", token=token)
            seat = state["to_move"]
            follow = {"move": 1, "action": state["legal"][0]} if seat == 0 else None
            if follow is not None:
                again = list(pool.map(draw, [follow, follow], [None, None]))
                assert [status for status, _ in again] == [200, 200]
                assert again[0][1] == again[1][1] and again[0][1]["moves"] == 2
        status, state = server.call("GET", f"/api/games/{game}", token=token)
        assert state["moves"] == (2 if follow is not None else 1)


def test_a_stale_move_is_refused_with_the_state_and_a_retry_answers_the_same(
    client: TestClient,
) -> None:
    game, tokens, _ = new_game(client)
    first = post(client, game, tokens[0], {"move": 0, "action": DRAW}, **{"Idempotency-Key": "a"})
    assert first.status_code == 200 and first.json()["moves"] == 1
    # a retry: the same key, or the same move number and action, answers the first answer
    assert post(client, game, tokens[0], DRAW, **{"Idempotency-Key": "a"}).json() == first.json()
    assert post(client, game, tokens[0], {"move": 0, "action": DRAW}).json() == first.json()
    # the key with another action, or move 0 with another action: stale, with the state now
    life = {"type": "DrawDeck", "player": 0, "kind": "life"}
    for body, more in (
        ({"move": 1, "action": life}, {"Idempotency-Key": "a"}),
        ({"move": 0, "action": life}, {}),
        ({"move": 7, "action": DRAW}, {}),
    ):
        response = post(client, game, tokens[0], body, **more)
        assert response.status_code == 409, response.text
        data = response.json()
        assert data["error"]["kind"] == "stale"
        assert data["state"]["moves"] == 1 and data["state"]["seat"] == 0
    assert lobby(client).rooms[game].moves == 1
    # a bad key or move number is a bad request
    for body, more in (
        ({"move": -1, "action": DRAW}, {}),
        ({"move": True, "action": DRAW}, {}),
        ({"move": 1, "action": DRAW, "x": 1}, {}),
        ({"move": 1, "action": DRAW}, {"Idempotency-Key": "é"}),
        ({"move": 1, "action": DRAW}, {"Idempotency-Key": "k" * 129}),
    ):
        response = client.post(
            f"/api/games/{game}/actions",
            headers=raw(tokens[0], **more),
            content=json.dumps(body),
        )
        assert response.status_code == 400, (body, more, response.text)


# -- limits --------------------------------------------------------------------------------


def test_by_default_an_address_creates_twenty_games_a_minute(client: TestClient) -> None:
    statuses = [client.post("/api/games", json={"players": 2}).status_code for _ in range(21)]
    assert statuses == [201] * 20 + [429]


def test_by_default_two_games_of_bots_alone_are_in_play_at_once(client: TestClient) -> None:
    body = {"players": 2, "bots": ["search", "search"], "seed": 1}
    statuses = [client.post("/api/games", json=body).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]


def test_by_default_a_token_holds_eight_live_connections(client: TestClient) -> None:
    game, tokens, _ = new_game(client)
    with contextlib.ExitStack() as stack:
        for _ in range(8):
            ws = stack.enter_context(client.websocket_connect(f"/api/games/{game}/live"))
            ws.send_json({"token": tokens[1]})
            assert ws.receive_json()["seat"] == 1
        with client.websocket_connect(f"/api/games/{game}/live") as ninth:
            ninth.send_json({"token": tokens[1]})
            assert ninth.receive_json()["error"]["status"] == 429
            assert closed_with(ninth) == 4429


def test_creating_games_is_limited_per_address_with_retry_after(db: Path) -> None:
    with serve(db, creations_per_minute=3, games_per_address=4) as client:
        statuses = [client.post("/api/games", json={"players": 2}).status_code for _ in range(4)]
        assert statuses == [201, 201, 201, 429]
        refused = client.post("/api/games", json={"players": 2})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["error"]["kind"] == "rate_limited"
    with serve(db, games_per_address=3) as client:  # three in play already, from this address
        refused = client.post("/api/games", json={"players": 2})
        assert refused.status_code == 429 and refused.json()["error"]["kind"] == "too_many"
        assert refused.headers["retry-after"]


def test_a_post_must_be_json_so_no_other_page_can_send_one(client: TestClient) -> None:
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        response = client.post(
            "/api/games",
            content=json.dumps({"players": 2}),
            headers={} if kind is None else {"Content-Type": kind},
        )
        assert response.status_code == 415, kind
    assert not lobby(client).rooms
    assert client.post("/api/games", json={"players": 2}).status_code == 201


def test_games_of_bots_alone_are_capped(db: Path) -> None:
    with serve(db, bots_only_games=1) as client:
        body = {"players": 2, "bots": ["random", "random"], "seed": 1}
        assert client.post("/api/games", json=body).status_code == 201
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 429 and refused.json()["error"]["kind"] == "too_many"
        body["bots"] = [None, "random"]  # a person seated: allowed
        assert client.post("/api/games", json=body).status_code == 201
    with serve(db, bots_only_games=0) as client:
        body = {"players": 2, "bots": ["random", "random"]}
        assert client.post("/api/games", json=body).status_code == 429


def test_live_connections_are_limited_per_token_and_per_address(db: Path) -> None:
    with serve(db, connections_per_token=2, connections_per_address=3) as client:
        game, tokens, spectator = new_game(client)
        path = f"/api/games/{game}/live"
        with client.websocket_connect(path) as a, client.websocket_connect(path) as b:
            for ws in (a, b):
                ws.send_json({"token": tokens[1]})
                assert ws.receive_json()["seat"] == 1
            with client.websocket_connect(path) as c:
                c.send_json({"token": tokens[1]})
                assert c.receive_json()["error"]["status"] == 429
                assert closed_with(c) == 4429
            with client.websocket_connect(path) as d:
                d.send_json({"token": spectator})
                assert d.receive_json()["seat"] is None
                with client.websocket_connect(path) as e:  # a fourth from this address
                    e.send_json({"token": tokens[0]})
                    assert e.receive_json()["error"]["status"] == 429
                    assert closed_with(e) == 4429
                response = client.get(f"/api/games/{game}/stream", headers=headers(tokens[0]))
                assert response.status_code == 429 and response.headers["retry-after"]
        # all gone: the counts are back to nothing
        with client.websocket_connect(path) as f:
            f.send_json({"token": tokens[1]})
            assert f.receive_json()["seat"] == 1


def test_a_websocket_from_another_origin_is_refused(db: Path) -> None:
    app = create_app(db, origins=["https://friend.example"])
    with TestClient(app) as client:
        game, tokens, _ = new_game(client)
        path = f"/api/games/{game}/live"
        for origin, code in (
            ("https://evil.example", 4403),
            ("http://testserver", None),
            ("https://friend.example", None),
        ):
            with client.websocket_connect(path, headers={"Origin": origin}) as ws:
                ws.send_json({"token": tokens[0]})
                if code is None:
                    assert ws.receive_json()["seat"] == 0
                else:
                    assert ws.receive_json()["error"]["status"] == 403
                    assert closed_with(ws) == code


def _raw(url: str) -> socket.socket:
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def test_a_body_or_headers_that_do_not_come_are_answered_408(tmp_path: Path) -> None:
    flags = ["--body-timeout", "0.5", "--header-timeout", "0.5"]
    with running_server(tmp_path / "games.sqlite3", flags) as server:
        status, created = server.call("POST", "/api/games", {"players": 2})
        assert status == 201
        game, token = created["game"], created["seats"][0]["token"]
        with _raw(server.url) as body_never:
            body_never.sendall(
                f"POST /api/games/{game}/actions HTTP/1.1\r\nHost: x\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                "Content-Length: 100\r\n\r\n{".encode()
            )
            started = time.monotonic()
            answer = body_never.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408"), answer
            assert time.monotonic() - started < 5
        with _raw(server.url) as headers_never:
            headers_never.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            started = time.monotonic()
            answer = headers_never.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408"), answer
            assert headers_never.recv(4096) == b""  # and closed
            assert time.monotonic() - started < 5
        with _raw(server.url) as silent:  # not a byte sent
            assert silent.recv(4096).startswith(b"HTTP/1.1 408")
        assert server.call("GET", f"/api/games/{game}", token=token)[0] == 200


# -- memory --------------------------------------------------------------------------------


def test_start_up_reads_no_game_and_an_idle_game_leaves_memory(db: Path) -> None:
    with serve(db) as client:
        games = [new_game(client) for _ in range(3)]
        for game, tokens, _ in games:
            assert post(client, game, tokens[0], DRAW).status_code == 200
        before = {
            game: client.get(f"/api/games/{game}", headers=headers(t[1])).json()
            for game, t, _ in games
        }
    with serve(db) as client:
        assert lobby(client).rooms == {}  # nothing read at start-up
    with serve(db, idle=0.2) as client:
        game, tokens, _ = games[0]
        assert client.get(f"/api/games/{game}", headers=headers(tokens[1])).json() == before[game]
        assert list(lobby(client).rooms) == [game]  # loaded on demand, alone
        deadline = time.monotonic() + 10
        while lobby(client).rooms:
            assert time.monotonic() < deadline, "the idle game stayed in memory"
            time.sleep(0.05)
        for game, tokens, _ in games:  # and back, as it was
            assert (
                client.get(f"/api/games/{game}", headers=headers(tokens[1])).json() == before[game]
            )
        # a game someone watches stays
        game, tokens, _ = games[1]
        with client.websocket_connect(f"/api/games/{game}/live") as ws:
            ws.send_json({"token": tokens[0]})
            ws.receive_json()
            time.sleep(0.6)
            assert game in lobby(client).rooms


# -- fan-out -------------------------------------------------------------------------------


def test_a_change_is_built_once_per_seat_and_the_world_sent_when_it_changed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gaia_rules.web.app as app_module  # noqa: PLC0415
    import gaia_rules.web.rooms as rooms_module  # noqa: PLC0415

    game, tokens, spectator = new_game(client)
    built: list[int | None] = []
    drawn: list[int] = []
    for module in (app_module, rooms_module):
        if hasattr(module, "state_message"):
            real = module.state_message

            def counting(game: gr.Game, seat: int | None, *a: Any, _r: Any = real, **k: Any) -> Any:
                built.append(seat)
                return _r(game, seat, *a, **k)

            monkeypatch.setattr(module, "state_message", counting)
        if hasattr(module, "world_svg"):
            real_svg = module.world_svg

            def drawing(*a: Any, _r: Any = real_svg, **k: Any) -> Any:
                drawn.append(1)
                return _r(*a, **k)

            monkeypatch.setattr(module, "world_svg", drawing)
    path = f"/api/games/{game}/live"
    watchers = [(tokens[1], 1)] * 4 + [(spectator, None)] * 3
    sockets = [client.websocket_connect(path) for _ in watchers]
    try:
        opened = [ws.__enter__() for ws in sockets]
        for ws, (token, _) in zip(opened, watchers, strict=True):
            ws.send_json({"token": token})
            assert "world" in ws.receive_json()  # a connection's first frame has the world
        built.clear()
        drawn.clear()
        assert post(client, game, tokens[0], DRAW).status_code == 200
        frames = [ws.receive_json() for ws in opened]
        # one state per seat that watches (seat 1, the spectators), not one per connection
        assert sorted(built, key=str) == sorted([1, None], key=str)
        assert len(drawn) <= 1
        for frame, (_, seat) in zip(frames, watchers, strict=True):
            assert frame["seat"] == seat and frame["moves"] == 1
            assert "world" not in frame  # a draw leaves the world as it was
            assert frame["since"] > 0 and len(frame["events"]) < 10  # this change's events
        # a tile placed changes the world: the frame carries it
        state = client.get(f"/api/games/{game}", headers=headers(tokens[0])).json()
        while state["to_move"] == 0:
            plays = [a for a in state["legal"] if a["type"] == "PlayNature"]
            action = plays[0] if plays else state["legal"][0]
            answer = post(client, game, tokens[0], action)
            assert answer.status_code == 200
            frames = [ws.receive_json() for ws in opened]
            if plays:
                assert all(frame["world"].startswith("<svg") for frame in frames)
                break
            state = client.get(f"/api/games/{game}", headers=headers(tokens[0])).json()
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_a_spectator_sees_the_allowed_public_fields_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _, spectator = new_game(client)
    game = lobby(client).rooms[game_id].game
    real = gr.View.to_data

    def with_a_secret(view: gr.View) -> dict[str, Any]:
        data: dict[str, Any] = real(view)
        data["secret_plans"] = list(view.hand)  # a private field added to View one day
        return data

    monkeypatch.setattr(gr.View, "to_data", with_a_secret)
    assert "secret_plans" in game.view(0).to_data()
    assert "secret_plans" not in public_view(game)
    message = client.get(f"/api/games/{game_id}", headers=headers(spectator)).json()
    assert "secret_plans" not in message["view"] and "hand" not in message["view"]


def test_every_field_of_a_view_is_public_or_named_private() -> None:
    import attrs  # noqa: PLC0415

    from gaia_rules.web.messages import PUBLIC_FIELDS  # noqa: PLC0415

    fields = {field.name for field in attrs.fields(gr.View)}
    assert fields - set(PUBLIC_FIELDS) == {"seat", "hand"}


# -- bots and the store --------------------------------------------------------------------


def test_bots_decide_in_another_process(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gaia_rules.bots as bots_module  # noqa: PLC0415

    here: list[int] = []

    class Spy(bots_module.RandomBot):
        def choose(self, view: gr.View, legal: Any) -> gr.Action:
            here.append(threading.get_ident())
            return super().choose(view, legal)

    monkeypatch.setitem(bots_module.BOTS, "greedy", Spy)
    response = client.post("/api/games", json={"players": 2, "bots": [None, "greedy"], "seed": 5})
    game, token = response.json()["game"], response.json()["seats"][0]["token"]
    state = client.get(f"/api/games/{game}", headers=headers(token)).json()
    while state["to_move"] == 0:
        assert post(client, game, token, state["legal"][0]).status_code == 200
        state = client.get(f"/api/games/{game}", headers=headers(token)).json()
    deadline = time.monotonic() + 30
    while lobby(client).rooms[game].game.to_move != 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert {a.player for a in lobby(client).rooms[game].game.actions} == {0, 1}
    assert here == []  # the greedy bot of this process was never asked


def test_a_bot_over_its_budget_is_replaced_by_the_random_bot_with_its_seed() -> None:
    import asyncio  # noqa: PLC0415

    from gaia_rules.bots import RandomBot  # noqa: PLC0415
    from gaia_rules.web.botpool import BotPool  # noqa: PLC0415

    game = gr.new_game(4, gr.Rules.disasters(), seed=9)
    view, legal = game.view(0), list(game.legal_actions())

    async def scenario() -> tuple[gr.Action, gr.Action, int, int]:
        pool = BotPool(workers=1, budget=0.001)
        try:
            slow = await pool.decide("search", 17, view, legal)
            pool.budget = 60.0
            quick = await pool.decide("random", 17, view, legal)
            return slow, quick, pool.overruns, len(pool._all)
        finally:
            await pool.close()

    slow, quick, overruns, workers = asyncio.run(scenario())
    assert overruns == 1 and workers == 1
    assert slow == quick == RandomBot(17).choose(view, legal)


def test_an_action_is_one_appended_row(unrated: TestClient, db: Path) -> None:
    client = unrated
    game, tokens, _ = new_game(client)

    def file() -> tuple[list[Any], list[Any]]:
        with sqlite3.connect(db) as conn:
            games = list(conn.execute("SELECT * FROM games WHERE id = ?", (game,)))
            actions = list(conn.execute("SELECT * FROM actions WHERE game = ?", (game,)))
        return games, actions

    games, actions = file()
    assert post(client, game, tokens[0], DRAW).status_code == 200
    games_after, actions_after = file()
    assert games_after == games  # the game's row is not rewritten
    assert actions_after[:-1] == actions and len(actions_after) == len(actions) + 1
    assert json.loads(actions_after[-1][3]) == DRAW
