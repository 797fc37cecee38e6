"""What each play of a card on a square leads to, shown on the squares before a player chooses
(``GET /api/games/{game}/outcomes``): the same as the play itself does in the real game, read
from the seat's view only, and refused to spectators."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import gaia_rules as gr
from gaia_rules.events import CityPlaced, GameEnded, ObjectiveFulfilled, TurnBegan
from gaia_rules.web import create_app
from gaia_rules.web.outcomes import play_outcomes


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as test_client:
        yield test_client


def truth(game: gr.Game, seat: int, action: gr.Action) -> dict[str, Any]:
    """What ``action`` does in the real game, up to the next turn."""
    real = game.copy()
    events = real.apply(action)
    upto: list[Any] = []
    for event in events:
        if isinstance(event, TurnBegan):
            break
        upto.append(event)
    ends = next((e for e in upto if isinstance(e, GameEnded)), None)
    return {
        "objectives": [
            str(e.objective) for e in upto if isinstance(e, ObjectiveFulfilled) and e.player == seat
        ],
        "ends": None
        if ends is None
        else {"winner": ends.result.winner, "reason": ends.result.reason.value},
        "city": any(isinstance(e, CityPlaced) for e in upto),
    }


def test_each_outcome_is_what_the_play_does() -> None:
    counted = {"objectives": 0, "ends": 0, "city": 0}
    for seed in range(3):
        game = gr.new_game(3, gr.Rules.disasters(), seed)
        rng = random.Random(seed)
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            found = play_outcomes(game, seat)
            plays = {json_key(o["action"]): o for o in found}
            legal = list(game.legal_actions())
            for action in legal:
                if isinstance(action, (gr.PlayNature, gr.PlayCity, gr.PlayAnimals)):
                    said = plays[json_key(action.to_data())]
                    real = truth(game, seat, action)
                    assert said["objectives"] == real["objectives"]
                    assert said["ends"] == real["ends"]
                    assert (said["city"] is not None) == real["city"]
                    counted["objectives"] += bool(said["objectives"])
                    counted["ends"] += said["ends"] is not None
                    counted["city"] += said["city"] is not None
            assert len(plays) == sum(
                isinstance(a, (gr.PlayNature, gr.PlayCity, gr.PlayAnimals)) for a in legal
            )
            nature = [a for a in legal if isinstance(a, (gr.PlayNature, gr.PlayCity))]
            game.apply(rng.choice(nature) if nature and rng.random() < 0.7 else rng.choice(legal))
    assert all(counted.values()), counted


def json_key(data: dict[str, Any]) -> str:
    return repr(sorted(data.items()))


def test_the_route_answers_the_seat_to_move_and_refuses_spectators(client: TestClient) -> None:
    response = client.post(
        "/api/games", json={"players": 2, "rules": gr.Rules.basic().to_dict(), "seed": 3}
    )
    data = response.json()
    game_id = data["game"]
    first = data["seats"][0]["token"]
    second = data["seats"][1]["token"]
    answer = client.get(
        f"/api/games/{game_id}/outcomes", headers={"Authorization": f"Bearer {first}"}
    )
    assert answer.status_code == 200
    plays = answer.json()["plays"]
    assert plays and all(p["action"]["player"] == 0 for p in plays)
    other = client.get(
        f"/api/games/{game_id}/outcomes", headers={"Authorization": f"Bearer {second}"}
    )
    assert other.status_code == 200 and other.json()["plays"] == []
    watcher = data["spectator"]["token"]
    refused = client.get(
        f"/api/games/{game_id}/outcomes", headers={"Authorization": f"Bearer {watcher}"}
    )
    assert refused.status_code == 403
