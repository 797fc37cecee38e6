"""Open games in the lobby: a creator lists a game's free seats, anyone sees how many seats are
free (never a token) and takes one with one click; a seat is handed out once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import gaia_rules as gr
from gaia_rules.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def created(client: TestClient, bots: list[str | None]) -> dict[str, Any]:
    body = {"players": len(bots), "rules": gr.Rules.powers().to_dict(), "bots": bots}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201
    data: dict[str, Any] = response.json()
    return data


def test_a_listed_game_hands_out_each_free_seat_once(client: TestClient) -> None:
    data = created(client, [None, None, None, "greedy"])
    game = data["game"]
    mine, *free = [s["token"] for s in data["seats"] if s["token"] is not None]
    assert client.get("/api/games/open").json() == {"games": []}  # private until listed
    listed = client.post(f"/api/games/{game}/listing", json={"tokens": free}, headers=bearer(mine))
    assert listed.status_code == 201
    listing = client.get("/api/games/open")
    assert listing.json() == {
        "games": [
            {
                "game": game,
                "players": 4,
                "level": "powers",
                "free": 2,
                "bots": [None, None, None, "greedy"],
            }
        ]
    }
    text = listing.text
    assert all(s["token"] not in text for s in data["seats"] if s["token"])
    assert data["spectator"]["token"] not in text
    first = client.post(f"/api/games/{game}/join").json()
    second = client.post(f"/api/games/{game}/join").json()
    assert (first["seat"], second["seat"]) == (1, 2)
    assert first["url"].endswith(free[0]) and second["url"].endswith(free[1])
    assert client.get("/api/games/open").json() == {"games": []}
    assert client.post(f"/api/games/{game}/join").status_code == 404


def test_only_a_seat_lists_and_only_free_seats_of_people(client: TestClient) -> None:
    data = created(client, [None, None, "random"])
    game = data["game"]
    mine, other = [s["token"] for s in data["seats"] if s["token"] is not None]
    watcher = data["spectator"]["token"]
    spectator = client.post(
        f"/api/games/{game}/listing", json={"tokens": [other]}, headers=bearer(watcher)
    )
    assert spectator.status_code == 403
    own = client.post(f"/api/games/{game}/listing", json={"tokens": [mine]}, headers=bearer(mine))
    assert own.status_code == 400
    wrong = client.post(
        f"/api/games/{game}/listing", json={"tokens": ["nope"]}, headers=bearer(mine)
    )
    assert wrong.status_code in (400, 403)
    assert client.get("/api/games/open").json() == {"games": []}
