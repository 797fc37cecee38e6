"""A real server, killed mid-game with SIGKILL and started again on the same file, has lost
no accepted action: every game is where the last answered action left it, and plays on.

Skipped as a whole when the ``web`` extra is not installed.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from tests.web_server import Server, running_server


def play(server: Server, game: str, tokens: list[str], rng: random.Random) -> dict[str, Any]:
    """One random legal action by the seat to move, once one whose token is known is (the
    bots play the others); its answer."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for token in tokens:
            status, message = server.call("GET", f"/api/games/{game}", token=token)
            assert status == 200, message
            assert not message["over"], "the game ended"
            if message["legal"]:
                status, answer = server.call(
                    "POST", f"/api/games/{game}/actions", rng.choice(message["legal"]), token
                )
                assert status == 200, answer
                return dict(answer)
        time.sleep(0.01)
    raise AssertionError("no seat with a known token came to move")


def shares(server: Server, game: str, tokens: list[str]) -> list[Any]:
    """Every seat's state, and the spectators'."""
    answers = [server.call("GET", f"/api/games/{game}", token=token) for token in tokens]
    assert all(status == 200 for status, _ in answers)
    return [message for _, message in answers]


@pytest.mark.clause("1.7")
def test_a_killed_server_comes_back_with_every_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    rng = random.Random(13)
    with running_server(db) as server:
        status, quiet = server.call("POST", "/api/games", {"players": 3, "seed": 1})
        assert status == 201
        quiet_tokens = [seat["token"] for seat in quiet["seats"]]
        status, busy = server.call(
            "POST", "/api/games", {"players": 3, "bots": [None, "random", "greedy"], "seed": 2}
        )
        assert status == 201
        busy_tokens = [busy["seats"][0]["token"], busy["spectator"]["token"]]
        for _ in range(25):
            play(server, quiet["game"], quiet_tokens, rng)
        before = shares(server, quiet["game"], [*quiet_tokens, quiet["spectator"]["token"]])
        # one thread keeps acting in the busy game (its bots answer each action) while the
        # server is killed under it: every answered action must survive
        answered: list[int] = []
        failed: list[BaseException] = []

        def keep_playing() -> None:
            try:
                while True:
                    answered.append(play(server, busy["game"], busy_tokens[:1], rng)["moves"])
            except BaseException as exc:  # the connection dies with the server
                failed.append(exc)

        player = threading.Thread(target=keep_playing)
        player.start()
        while len(answered) < 8:
            assert player.is_alive(), failed
            time.sleep(0.01)
        server.kill()
        player.join(timeout=30)
        assert failed and answered
    with running_server(db) as server:
        after = shares(server, quiet["game"], [*quiet_tokens, quiet["spectator"]["token"]])
        assert after == before
        status, message = server.call("GET", f"/api/games/{busy['game']}", token=busy_tokens[0])
        assert status == 200
        # the last answered action, and perhaps the one in flight when the server died
        assert message["moves"] >= answered[-1]
        # the game plays on to its end: the bots resume by themselves
        while not message["over"]:
            if message["legal"]:
                status, _ = server.call(
                    "POST",
                    f"/api/games/{busy['game']}/actions",
                    rng.choice(message["legal"]),
                    busy_tokens[0],
                )
                assert status == 200
            else:
                time.sleep(0.02)
            status, message = server.call("GET", f"/api/games/{busy['game']}", token=busy_tokens[0])
        status, record = server.call(
            "GET", f"/api/games/{busy['game']}/record", token=busy_tokens[1]
        )
        assert status == 200 and record["result"] == message["view"]["result"]
