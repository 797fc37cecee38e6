"""Two ``gaia-rules serve`` processes on two ports over one PostgreSQL database (a real
server: see ``tests/postgres.py``) serve the same games: a seat connected to one is pushed,
within seconds, an action posted through the other (LISTEN/NOTIFY), an action is taken once
whichever process it goes through, and a SIGKILL of either loses no accepted action.

Skipped as a whole when the ``web`` extra is not installed; under CI a missing PostgreSQL
fails these tests, never skips them.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests.postgres import fresh_database, wait_until
from tests.web_server import Server, running_server

websockets_client = pytest.importorskip("websockets.sync.client")


@contextlib.contextmanager
def watch(server: Server, game: str, token: str) -> Iterator[list[dict[str, Any]]]:
    """A WebSocket on ``server`` for ``token``: the frames it receives, as they come."""
    url = server.url.replace("http://", "ws://").rstrip("/") + f"/api/games/{game}/live"
    with websockets_client.connect(url, open_timeout=10) as connection:
        connection.send(json.dumps({"token": token, "since": 0}))
        frames: list[dict[str, Any]] = []

        def read() -> None:
            with contextlib.suppress(Exception):  # until it closes
                for text in connection:
                    frames.append(json.loads(text))

        threading.Thread(target=read, daemon=True).start()
        wait_until(lambda: frames, what="the first frame")
        yield frames


def arrived(frames: list[dict[str, Any]], moves: int) -> bool:
    return bool(frames) and frames[-1]["moves"] == moves


def at_move(server: Server, game: str, token: str, moves: int) -> bool:
    """``server`` says the game is at move ``moves`` (or past it)."""
    status, state = server.call("GET", f"/api/games/{game}", token=token)
    return status == 200 and int(state["moves"]) >= moves


def test_a_seat_on_one_process_is_pushed_an_action_posted_through_the_other(
    postgres: str,
) -> None:
    db = fresh_database(postgres)
    with running_server(db) as one, running_server(db) as other:
        status, created = one.call("POST", "/api/games", {"players": 2, "seed": 5})
        assert status == 201
        game = created["game"]
        tokens = [seat["token"] for seat in created["seats"]]
        with watch(other, game, tokens[1]) as frames:
            assert frames[0]["moves"] == 0
            rng = random.Random(5)
            for moves in range(1, 8):
                seat = frames[-1]["to_move"]
                status, state = one.call("GET", f"/api/games/{game}", token=tokens[seat])
                assert status == 200 and state["moves"] == moves - 1
                action = rng.choice(state["legal"])
                started = time.monotonic()
                status, answer = one.call(
                    "POST",
                    f"/api/games/{game}/actions",
                    {"move": moves - 1, "action": action},
                    tokens[seat],
                )
                assert status == 200 and answer["moves"] == moves
                wait_until(partial(arrived, frames, moves), 10, "the other's frame")
                assert time.monotonic() - started < 5  # at once: pushed, not polled
            # the frames follow on: each frame's events start where the last ones ended
            count = 0
            for frame in frames:
                assert frame["since"] == count
                count += len(frame["events"])
            # and the other process answers the same state as the first
            for token in tokens:
                assert one.call("GET", f"/api/games/{game}", token=token) == other.call(
                    "GET", f"/api/games/{game}", token=token
                )


def test_an_action_is_taken_once_whichever_process_it_goes_through(postgres: str) -> None:
    db = fresh_database(postgres)
    with running_server(db) as one, running_server(db) as other:
        status, created = one.call("POST", "/api/games", {"players": 2, "seed": 8})
        assert status == 201
        game, token = created["game"], created["seats"][0]["token"]
        other.call("GET", f"/api/games/{game}", token=token)  # loaded there too
        draw = {"type": "DrawDeck", "player": 0, "kind": "nature"}
        path = f"/api/games/{game}/actions"
        servers = [one, other] * 4
        with ThreadPoolExecutor(8) as pool:
            # the same key through both processes at once
            keyed = list(pool.map(lambda s: s.call("POST", path, draw, token, key="k"), servers))
            # the same move number through both at once, after it
            status, state = one.call("GET", f"/api/games/{game}", token=token)
            body = {"move": 1, "action": state["legal"][0]} if state["to_move"] == 0 else None
            moved = (
                list(pool.map(lambda s: s.call("POST", path, body, token), servers))
                if body is not None
                else []
            )
        assert {status for status, _ in keyed} == {200}
        assert len({json.dumps(answer, sort_keys=True) for _, answer in keyed}) == 1
        assert {status for status, _ in moved} <= {200}
        assert len({json.dumps(answer, sort_keys=True) for _, answer in moved}) <= 1
        expected = 2 if body is not None else 1
        for server in (one, other):
            wait_until(partial(at_move, server, game, token, expected), 10, "both agreeing")
            assert server.call("GET", f"/api/games/{game}", token=token)[1]["moves"] == expected


@pytest.mark.parametrize("killed", [0, 1])
def test_a_sigkill_of_either_process_loses_no_accepted_action(postgres: str, killed: int) -> None:
    db = fresh_database(postgres)
    rng = random.Random(killed)
    with running_server(db) as one, running_server(db) as other:
        servers = [one, other]
        status, created = one.call(
            "POST", "/api/games", {"players": 3, "bots": [None, "random", None], "seed": 4}
        )
        assert status == 201
        game = created["game"]
        tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if seat["token"]}
        answered: list[int] = []
        failed: list[BaseException] = []

        def keep_playing() -> None:
            turn = 0
            try:
                while True:
                    server = servers[turn % 2]  # alternate between the processes
                    turn += 1
                    for token in tokens.values():
                        status, state = server.call("GET", f"/api/games/{game}", token=token)
                        assert status == 200, state
                        if state["over"]:
                            return
                        if state["legal"]:
                            body = {"move": state["moves"], "action": rng.choice(state["legal"])}
                            status, answer = server.call(
                                "POST", f"/api/games/{game}/actions", body, token
                            )
                            if status == 200:
                                answered.append(answer["moves"])
                            break
                    else:
                        time.sleep(0.01)
            except BaseException as exc:  # the connection dies with the server
                failed.append(exc)

        player = threading.Thread(target=keep_playing)
        player.start()
        wait_until(lambda: len(answered) >= 10 or not player.is_alive(), 60, "ten actions")
        servers[killed].kill()
        player.join(timeout=60)
        assert failed and answered, failed
        survivor = servers[1 - killed]
        token = next(iter(tokens.values()))
        wait_until(partial(at_move, survivor, game, token, answered[-1]), 10, "the survivor")
    # and a fresh process on the same database has them all, and plays on
    with running_server(db) as fresh:
        status, state = fresh.call("GET", f"/api/games/{game}", token=token)
        assert status == 200 and state["moves"] >= answered[-1]
