"""The game server's HTTP API, through Starlette's TestClient: every answer to a seat is that
seat's share of the game, every hostile request is refused with a 4xx and changes nothing,
and a server started again on its file resumes every game.

Skipped as a whole when the ``web`` extra is not installed.
"""

from __future__ import annotations

import importlib.resources
import json
import random
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import gaia_rules as gr
from gaia_rules.web import create_app
from gaia_rules.web.app import MAX_BODY
from gaia_rules.web.limits import Limits
from gaia_rules.web.messages import public_events, public_view, seat_view
from gaia_rules.web.rooms import Lobby
from gaia_rules.web.store import StoreError
from tests.hidden import blind_to

CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    # these tests play whole games at the machine's speed: no rate of requests in the way
    limits = Limits(requests_per_minute=1e9, requests_burst=10**9)
    with TestClient(create_app(db, limits=limits)) as test_client:
        yield test_client


SCHEMA = json.loads((importlib.resources.files("gaia_rules") / "schema.json").read_text("utf-8"))


def schema_check(kind: str, data: Any) -> None:
    """``data`` is valid as ``#/$defs/<kind>`` of the package's JSON Schema."""
    jsonschema = pytest.importorskip("jsonschema")
    entry = {key: value for key, value in SCHEMA.items() if key != "oneOf"}
    jsonschema.validate(data, {**entry, "$ref": f"#/$defs/{kind}"})


def lobby(client: TestClient) -> Lobby:
    found: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    return found


def game_of(client: TestClient, game_id: str) -> gr.Game:
    return lobby(client).rooms[game_id].game


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def state(client: TestClient, game_id: str, token: str, since: int = 0) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}?since={since}", headers=auth(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: TestClient, game_id: str, token: str | None, action: Any) -> Any:
    body = action if isinstance(action, str | bytes) else json.dumps(action)
    headers = {**auth(token), "Content-Type": "application/json"}
    return client.post(f"/api/games/{game_id}/actions", headers=headers, content=body)


def wait_for(client: TestClient, game_id: str, ready: Any, timeout: float = 20.0) -> gr.Game:
    """Wait until ``ready(game)`` holds (bots play on the server's loop meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        game = game_of(client, game_id)
        if ready(game):
            return game
        assert time.monotonic() < deadline, "the bots did not move in time"
        time.sleep(0.01)


def stored_record(db: Path, game_id: str) -> tuple[str, list[Any], bool]:
    """The record the file holds for a game (its head and its actions, assembled), the
    actions as data, and whether the file marks the game over."""
    with sqlite3.connect(db) as conn:
        ((head, over),) = conn.execute("SELECT head, over FROM games WHERE id = ?", (game_id,))
        actions = [
            a
            for (a,) in conn.execute(
                "SELECT action FROM actions WHERE game = ? ORDER BY number", (game_id,)
            )
        ]
    record = head[:-1] + ',"actions":[' + ",".join(actions) + '],"result":null}'
    return record, [json.loads(a) for a in actions], bool(over)


def stored(db: Path) -> tuple[Any, ...]:
    """Everything the file holds, to show that a refused request wrote nothing."""
    with sqlite3.connect(db) as conn:
        return tuple(
            tuple(conn.execute(f"SELECT * FROM {name} ORDER BY 1, 2"))
            for name in ("games", "tokens", "actions")
        )


def two_people(client: TestClient, **body: Any) -> tuple[str, list[str], str]:
    data = create(client, players=2, seed=11, **body)
    tokens = [seat["token"] for seat in data["seats"]]
    return data["game"], tokens, data["spectator"]["token"]


# -- a seat's share ---------------------------------------------------------------------------


@pytest.mark.clause("1.5")
def test_each_token_opens_its_own_seat_and_gets_the_librarys_view_of_it(
    client: TestClient,
) -> None:
    game_id, tokens, _ = two_people(client)
    game = game_of(client, game_id)
    for seat, token in enumerate(tokens):
        message = state(client, game_id, token)
        assert message["seat"] == seat
        assert message["view"] == game.view(seat).to_data()
        assert message["events"] == [event.to_data() for event in game.events_for(seat)]
        assert message["log"] == [gr.text.describe(e) for e in game.events_for(seat)]
        # and in the wire format, as the package's JSON Schema describes it
        schema_check("View", message["view"])
        for event in message["events"]:
            schema_check("Event", event)
        for action in message["legal"] or []:
            schema_check("Action", action)
        mine = game.to_move == seat
        assert message["legal"] == (
            [action.to_data() for action in game.legal_actions()] if mine else None
        )
        # the faces of exactly the cards the message names, and never the whole manifest
        named = set(CARD_ID.findall(json.dumps({k: v for k, v in message.items() if k != "faces"})))
        assert set(message["faces"]) == named
        assert not set(message["faces"]) & {c for h in game.state.hands[1 - seat] for c in h}


@pytest.mark.clause("1.5")
def test_a_message_names_no_card_its_seat_may_not_see(client: TestClient) -> None:
    game_id, tokens, spectator = two_people(client, rules={"format": 1, "level": "advanced"})
    rng = random.Random(3)
    checked = 0
    while not game_of(client, game_id).is_over:
        game = game_of(client, game_id)
        for seat, token in [(0, tokens[0]), (1, tokens[1]), (None, spectator)]:
            text = json.dumps(state(client, game_id, token, 0))
            named = set(CARD_ID.findall(text))
            share = seat_view(game, seat)
            events = public_events(game) if seat is None else game.events_for(seat)
            library = json.dumps([share, [e.to_data() for e in events]])
            assert named <= set(CARD_ID.findall(library))  # nothing beyond the library's share
            assert not named & blind_to(game, seat)
            checked += 1
        seat = game.to_move
        assert seat is not None
        action = rng.choice(list(game.legal_actions()))
        assert act(client, game_id, tokens[seat], action.to_data()).status_code == 200
    assert checked > 100


@pytest.mark.clause("1.5")
def test_a_spectator_sees_no_hand_and_no_blind_draw(client: TestClient) -> None:
    game_id, tokens, spectator = two_people(client)
    game = game_of(client, game_id)
    deck_draw = gr.DrawDeck(0, gr.CardKind.NATURE)
    assert act(client, game_id, tokens[0], deck_draw.to_data()).status_code == 200
    message = state(client, game_id, spectator)
    assert message["seat"] is None and message["legal"] is None
    assert "hand" not in message["view"] and "seat" not in message["view"]
    game = game_of(client, game_id)
    assert message["view"] == public_view(game)
    drawn = [e for e in message["events"] if e["type"] == "CardDrawn"]
    assert drawn and all(e["card"] is None for e in drawn if not e["from_display"])
    assert message["events"] == [e.to_data() for e in public_events(game)]
    # the public view is each seat's view without its seat and hand
    for seat in range(2):
        view = game.view(seat).to_data()
        del view["seat"], view["hand"]
        assert view == message["view"]


def test_events_since_an_index_are_the_tail_of_the_seats_log(client: TestClient) -> None:
    game_id, tokens, _ = two_people(client)
    first = state(client, game_id, tokens[1])
    draw = {"type": "DrawDeck", "player": 0, "kind": "nature"}
    assert act(client, game_id, tokens[0], draw).status_code == 200
    later = state(client, game_id, tokens[1], since=len(first["events"]))
    assert later["since"] == len(first["events"])
    assert first["events"] + later["events"] == state(client, game_id, tokens[1])["events"]
    assert later["events"][1]["card"] is None  # seat 0's blind draw, as seat 1 saw it


# -- acting ----------------------------------------------------------------------------------


@pytest.mark.clause("1.7")
def test_an_accepted_action_answers_with_its_events_as_the_seat_saw_them(
    client: TestClient, db: Path
) -> None:
    game_id, tokens, _ = two_people(client)
    response = act(client, game_id, tokens[0], {"type": "DrawDeck", "player": 0, "kind": "life"})
    assert response.status_code == 200
    body = response.json()
    game = game_of(client, game_id)
    assert body["ok"] is True and body["moves"] == 1 and body["to_move"] == game.to_move
    assert body["events"][-1]["type"] == "CardDrawn" and body["events"][-1]["card"] is not None
    # and it is on the disk: one row, and the record assembled from it replays to the game
    record, actions, _ = stored_record(db, game_id)
    assert len(actions) == 1
    assert gr.GameRecord.from_json(record).replay().state == game.state


@pytest.mark.clause("1.6")
def test_the_stored_record_is_the_games_record_after_every_action_to_the_end(
    client: TestClient, db: Path
) -> None:
    game_id, tokens, _ = two_people(client, rules={"format": 1, "level": "disasters"})
    rng = random.Random(6)
    while True:
        game = game_of(client, game_id)
        record, actions, over = stored_record(db, game_id)
        assert gr.GameRecord.from_json(record).replay().record() == game.record()
        assert over == game.is_over
        assert actions == [action.to_data() for action in game.actions]
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        action = rng.choice(list(game.legal_actions()))
        assert act(client, game_id, tokens[seat], action.to_data()).status_code == 200
    assert gr.GameRecord.from_json(record).replay().result == game.result


@pytest.mark.clause("1.7", "5.2")
def test_an_illegal_action_is_refused_with_the_engines_clause_and_changes_nothing(
    client: TestClient, db: Path
) -> None:
    game_id, tokens, _ = two_people(client)
    before, on_disk = game_of(client, game_id).state, stored(db)
    response = act(
        client, game_id, tokens[0], {"type": "PlayNature", "player": 0, "card": "N99", "pos": "0,0"}
    )
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["kind"] == "illegal" and error["clause"] == "5.2"
    assert "N99" in error["message"]
    # out of turn: the engine names the clause too
    response = act(client, game_id, tokens[1], {"type": "DrawDeck", "player": 1, "kind": "life"})
    assert response.status_code == 409 and response.json()["error"]["clause"]
    assert game_of(client, game_id).state == before and stored(db) == on_disk


def test_bots_play_their_seats_until_a_person_must_move(client: TestClient) -> None:
    data = create(client, players=3, bots=[None, "random", "greedy"], seed=4)
    game_id, token = data["game"], data["seats"][0]["token"]
    assert [seat["token"] is None for seat in data["seats"]] == [False, True, True]
    rng = random.Random(4)
    while True:
        game = wait_for(client, game_id, lambda g: g.is_over or g.to_move == 0)
        if game.is_over:
            break
        message = state(client, game_id, token)
        action = rng.choice(message["legal"])
        assert act(client, game_id, token, action).status_code == 200
    assert game.result is not None
    assert {a.player for a in game.actions} == {0, 1, 2}
    final = state(client, game_id, token)
    assert final["over"] is True and final["view"]["result"] == game.result.to_data()


# -- refusals: who may do what ---------------------------------------------------------------


def test_tokens_open_only_their_own_seat_of_their_own_game(client: TestClient, db: Path) -> None:
    game_id, tokens, spectator = two_people(client)
    for secret in [*tokens, spectator]:
        assert len(secret) >= 32  # 24 random bytes
        for file in db.parent.glob(db.name + "*"):  # the file and its write-ahead log
            assert secret.encode() not in file.read_bytes()  # they keep hashes only
    other_id, other_tokens, _ = two_people(client)
    before, on_disk = game_of(client, game_id).state, stored(db)
    draw = {"type": "DrawDeck", "player": 0, "kind": "nature"}
    cases = [
        (tokens[1], draw, 403),  # seat 1 acting for seat 0
        (spectator, draw, 403),  # a spectator acting
        (other_tokens[0], draw, 403),  # seat 0 of another game
        ("not-a-token", draw, 403),
        (None, draw, 401),
    ]
    for token, action, status in cases:
        response = act(client, game_id, token, action)
        assert response.status_code == status, (token, response.text)
        assert response.json()["error"]["kind"] in ("forbidden", "unauthorized")
    for token, status in ((other_tokens[1], 403), ("x" * 40, 403), (None, 401)):
        for path in ("", "/stream", "/record"):
            response = client.get(f"/api/games/{game_id}{path}", headers=auth(token))
            assert response.status_code == status
    assert client.get("/api/games/nope", headers=auth(tokens[0])).status_code == 404
    response = client.get(f"/api/games/{game_id}", headers={"Authorization": tokens[0]})
    assert response.status_code == 401  # not a bearer token
    assert response.headers["www-authenticate"] == "Bearer"
    assert game_of(client, game_id).state == before and stored(db) == on_disk
    assert state(client, other_id, other_tokens[0])["moves"] == 0


@pytest.mark.clause("1.7")
def test_hostile_bodies_are_refused_and_change_nothing(client: TestClient, db: Path) -> None:
    game_id, tokens, _ = two_people(client)
    before, on_disk = game_of(client, game_id).state, stored(db)
    bodies: list[tuple[Any, int]] = [
        (b"{not json", 400),
        (b"\xff\xfe", 400),
        (b"[" * 100_000 + b"]" * 100_000, 413),
        (b"[" * 30_000 + b"]" * 30_000, 400),  # deep, and under the limit
        (json.dumps({"type": "DrawDeck", "player": 0, "kind": "nature", "x": 1}), 400),
        (json.dumps({"type": "DrawDeck", "player": True, "kind": "nature"}), 400),
        (json.dumps({"type": "Nothing", "player": 0}), 400),
        (json.dumps({"type": "PlayNature", "player": 0, "card": "N01", "pos": "0,0,1"}), 400),
        (json.dumps([1, 2, 3]), 400),
        (json.dumps("DrawDeck"), 400),
        (b"x" * (MAX_BODY + 1), 413),
    ]
    for body, status in bodies:
        response = act(client, game_id, tokens[0], body)
        assert response.status_code == status, (body[:40], response.text)
        assert response.json()["error"]["message"]
    # a body without a declared length, streamed past the limit
    chunks = (b"x" * 1024 for _ in range(MAX_BODY // 1024 + 2))
    json_headers = {**auth(tokens[0]), "Content-Type": "application/json"}
    response = client.post(f"/api/games/{game_id}/actions", headers=json_headers, content=chunks)
    assert response.status_code == 413
    response = client.post(
        f"/api/games/{game_id}/actions",
        headers={**json_headers, "Content-Length": "99999999999"},
        content=b"{}",
    )
    assert response.status_code in (400, 413)
    assert game_of(client, game_id).state == before and stored(db) == on_disk


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": 6}, "players"),
        ({"players": True}, "players"),
        ({"players": "2"}, "players"),
        ({"players": 2, "bots": ["random"]}, "bots"),
        ({"players": 2, "bots": [None, "nobody"]}, "nobody"),
        ({"players": 2, "rules": {"format": 1, "level": "basic", "lightnings": 2}}, "lightnings"),
        ({"players": 2, "rules": {"format": 2}}, "format"),
        ({"players": 2, "seed": "7"}, "seed"),
        ({"players": 2, "first_player": 5}, "first"),
        ({"players": 2, "colour": "red"}, "colour"),
        ([2], "object"),
    ],
)
def test_a_game_that_cannot_be_set_up_is_refused_with_the_reason(
    client: TestClient, db: Path, body: Any, words: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]["message"]
    assert stored(db) == ((), (), ())


@pytest.mark.clause("15.1")
def test_actions_for_a_finished_game_are_refused_and_the_record_is_then_given(
    client: TestClient, db: Path
) -> None:
    data = create(client, players=2, bots=[None, "greedy"], seed=2)
    game_id, token = data["game"], data["seats"][0]["token"]
    assert client.get(f"/api/games/{game_id}/record", headers=auth(token)).status_code == 409
    rng = random.Random(2)
    while True:
        game = wait_for(client, game_id, lambda g: g.is_over or g.to_move == 0)
        if game.is_over:
            break
        act(client, game_id, token, rng.choice(state(client, game_id, token)["legal"]))
    on_disk = stored(db)
    response = act(client, game_id, token, {"type": "DrawDeck", "player": 0, "kind": "nature"})
    assert response.status_code == 409
    assert response.json()["error"]["clause"] == "15.1"
    assert stored(db) == on_disk
    response = client.get(f"/api/games/{game_id}/record", headers=auth(token))
    assert response.status_code == 200
    assert gr.GameRecord.from_json(response.text).replay().state == game.state


@pytest.mark.clause("1.7")
def test_an_action_the_disk_refuses_is_not_taken(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, tokens, _ = two_people(client)
    before = game_of(client, game_id).state
    store = lobby(client).store

    async def full_disk(*args: Any, **kwargs: Any) -> None:
        raise StoreError("database or disk is full")

    monkeypatch.setattr(store, "append", full_disk)
    response = act(client, game_id, tokens[0], {"type": "DrawDeck", "player": 0, "kind": "life"})
    assert response.status_code == 503
    assert response.json()["error"]["kind"] == "unsaved"
    assert game_of(client, game_id).state == before
    assert state(client, game_id, tokens[0])["moves"] == 0


# -- live ------------------------------------------------------------------------------------


@pytest.mark.clause("13.9b", "13.9c")
def test_a_protection_window_prompts_the_asked_seat_at_once_over_its_websocket(
    client: TestClient,
) -> None:
    data = create(client, players=3, rules={"format": 1, "level": "powers"}, seed=7)
    game_id = data["game"]
    tokens = [seat["token"] for seat in data["seats"]]
    rng = random.Random(7)
    # play until the next action asks another seat whether to protect
    while True:
        game = game_of(client, game_id)
        assert not game.is_over, "no Protection window in this game"
        seat = game.to_move
        assert seat is not None
        legal = list(game.legal_actions())
        powers = [a for a in legal if isinstance(a, gr.PowerPlay)]
        asking = [a for a in powers if _asks_another(game, a)]
        if asking:
            break
        action = rng.choice([a for a in legal if a not in powers] or legal)
        assert act(client, game_id, tokens[seat], action.to_data()).status_code == 200
    probe = game.copy()
    probe.apply(asking[0])
    asked = probe.to_move
    assert asked is not None and asked != seat
    with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
        socket.send_json({"token": tokens[asked], "since": 0})
        first = socket.receive_json()
        assert first["legal"] is None and first["world"].startswith("<svg")
        assert act(client, game_id, tokens[seat], asking[0].to_data()).status_code == 200
        pushed = socket.receive_json()
    assert pushed["view"]["decision"]["type"] == "ChooseProtection"
    assert pushed["to_move"] == asked and pushed["legal"]
    assert {a["type"] for a in pushed["legal"]} <= {"Protect", "PassProtection"}
    assert pushed["since"] == len(first["events"])


def _asks_another(game: gr.Game, action: gr.Action) -> bool:
    probe = game.copy()
    probe.apply(action)
    return isinstance(probe.decision, gr.ChooseProtection)


def test_a_websocket_without_a_good_token_is_closed(client: TestClient) -> None:
    game_id, _, _ = two_people(client)
    _, other_tokens, _ = two_people(client)
    with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
        socket.send_json({"token": other_tokens[0]})
        assert socket.receive_json()["error"]["status"] == 401
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4401
    for hello in ("{broken", "[1]", '{"token": 5}', '{"token": "x", "since": "0"}'):
        with client.websocket_connect(f"/api/games/{game_id}/live") as socket:
            socket.send_text(hello)
            assert socket.receive_json()["error"]["status"] == 400
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4400


def test_the_stream_sends_the_state_as_a_line_of_json(client: TestClient) -> None:
    game_id, tokens, _ = two_people(client)
    # a stream never ends by itself: read the first line and hang up
    with client.stream("GET", f"/api/games/{game_id}/stream", headers=auth(tokens[1])) as stream:
        assert stream.headers["content-type"].startswith("application/x-ndjson")
        line = next(stream.iter_lines())
    message = json.loads(line)
    assert message["seat"] == 1 and message["moves"] == 0


# -- the page and the file -------------------------------------------------------------------


def test_the_page_and_its_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    for path in ("/", "/play/abc"):
        response = client.get(path)
        assert response.status_code == 200 and '<main id="table"' in response.text
        assert "default-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["referrer-policy"] == "no-referrer"
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_a_server_started_again_on_its_file_resumes_every_game(db: Path) -> None:
    rng = random.Random(9)
    with TestClient(create_app(db)) as client:
        games = [two_people(client) for _ in range(3)]
        for game_id, tokens, _ in games:
            for _ in range(rng.randrange(5, 40)):
                game = game_of(client, game_id)
                seat = game.to_move
                assert seat is not None
                act(client, game_id, tokens[seat], rng.choice(list(game.legal_actions())).to_data())
        before = {
            game_id: [state(client, game_id, token) for token in [*tokens, spectator]]
            for game_id, tokens, spectator in games
        }
    with TestClient(create_app(db)) as client:
        for game_id, tokens, spectator in games:
            after = [state(client, game_id, token) for token in [*tokens, spectator]]
            assert after == before[game_id]


def test_a_bot_stopped_by_the_store_plays_on_at_the_next_request(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = lobby(client).store
    working = store.append
    failures: list[str] = []

    async def full_disk(game: str, *args: Any, **kwargs: Any) -> None:
        failures.append(game)
        raise StoreError("database or disk is full")

    monkeypatch.setattr(store, "append", full_disk)
    data = create(client, players=2, bots=["random", None], seed=3)
    game_id, token = data["game"], data["seats"][1]["token"]
    deadline = time.monotonic() + 10
    while not failures:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    room = lobby(client).rooms[game_id]
    wait_for(client, game_id, lambda g: room.bot_task is not None and room.bot_task.done())
    assert state(client, game_id, token)["moves"] == 0  # the bot's move was not taken
    monkeypatch.setattr(store, "append", working)
    state(client, game_id, token)  # any request to the room starts its bots again
    game = wait_for(client, game_id, lambda g: g.to_move == 1)
    assert len(game.actions) >= 2 and {a.player for a in game.actions} == {0}
