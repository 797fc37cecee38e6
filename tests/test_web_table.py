"""The page's own routes and keys, through Starlette's TestClient: the card faces sheet, the
Power previews, the result table and the effect beside a Protection prompt, the replay of a
finished game and of a record file (one started from a position too), the rematch, and the
rules pages the page links to.

Skipped as a whole when the ``web`` extra is not installed.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import gaia_rules as gr
from gaia_rules.web import create_app
from gaia_rules.web import table as table_module
from gaia_rules.web.limits import Limits
from gaia_rules.web.presentation import standings
from gaia_rules.web.table import DOCS_URL, LANGUAGES, catalogue
from tests.hidden import blind_to
from tests.replays import an_eruption_from_a_position

CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # these tests play whole games at the machine's speed: no rate of requests in the way
    limits = Limits(requests_per_minute=1e9, requests_burst=10**9)
    with TestClient(create_app(tmp_path / "games.sqlite3", limits=limits)) as test_client:
        yield test_client


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def game_of(client: TestClient, game_id: str) -> gr.Game:
    game: gr.Game = client.app.state.lobby.rooms[game_id].game  # type: ignore[attr-defined]
    return game


def play_out(client: TestClient, game_id: str, tokens: list[str], seed: int) -> gr.Game:
    """Play the game's people seats at random until it ends."""
    rng = random.Random(seed)
    while not (game := game_of(client, game_id)).is_over:
        seat = game.to_move
        assert seat is not None
        action = rng.choice(list(game.legal_actions()))
        response = client.post(
            f"/api/games/{game_id}/actions", headers=auth(tokens[seat]), json=action.to_data()
        )
        assert response.status_code == 200, response.text
    return game


# -- the card faces ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_faces_sheet_draws_every_face_once_in_the_language_asked(
    client: TestClient, lang: str
) -> None:
    response = client.post(
        "/api/faces", json={"rules": gr.Rules.disasters().to_dict(), "lang": lang}
    )
    assert response.status_code == 200
    sheet = response.json()
    manifest = gr.Manifest.builtin(gr.Edition.THIRD)
    distinct = {json.dumps(e, sort_keys=True) for e in _faces_of(manifest)}
    assert {json.dumps(entry["face"], sort_keys=True) for entry in sheet["faces"]} == distinct
    assert len(sheet["faces"]) == len(distinct)  # a face once, however many copies
    assert set(sheet["backs"]) == {"nature", "life", "power"}
    words = catalogue(lang)
    sun = next(e for e in sheet["faces"] if e["face"].get("power") == "sun")
    assert words["card.power.sun"] in sun["svg"] and words["card.power.sun"] in sun["text"]
    power_objective = next(e for e in sheet["faces"] if "objective_powers" in e["face"])
    assert (
        words["card.objective.powers"].replace("{count}", "4")
        in sun["svg"] + power_objective["text"]
    )
    assert not CARD_ID.search(json.dumps(sheet))  # faces, never card ids


def _faces_of(manifest: gr.Manifest) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "id"} for e in manifest.to_dict()["cards"]]


def test_the_faces_sheet_refuses_what_it_cannot_draw(client: TestClient) -> None:
    assert client.post("/api/faces", json={"rules": {}, "lang": "la"}).status_code == 400
    assert client.post("/api/faces", json={"rules": {"level": "chess"}}).status_code == 400
    assert client.post("/api/faces", json=[1]).status_code == 400
    json_type = {"Content-Type": "application/json"}
    assert client.post("/api/faces", content=b"{", headers=json_type).status_code == 400
    assert client.post("/api/faces", content=b"{}").status_code == 415  # not declared JSON


def test_the_settings_say_where_the_rules_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GAIA_DOCS_URL", raising=False)
    declared = table_module._declared_docs() or DOCS_URL
    with TestClient(create_app(tmp_path / "a.sqlite3")) as client:
        answer = client.get("/api/table").json()
        assert answer == {"docs": declared.rstrip("/") + "/", "languages": list(LANGUAGES)}
    monkeypatch.setenv("GAIA_DOCS_URL", "http://docs.example/gaia")
    with TestClient(create_app(tmp_path / "b.sqlite3")) as client:
        assert client.get("/api/table").json()["docs"] == "http://docs.example/gaia/"
    with TestClient(create_app(tmp_path / "c.sqlite3", docs_url="/site/")) as client:
        assert client.get("/api/table").json()["docs"] == "/site/"


# -- the rules pages the page links to ----------------------------------------------------------


def _anchor(heading: str) -> str:
    """The anchor mkdocs gives a heading: its ``{ #id }``, else its text slugified as the
    default ``toc`` slugify does."""
    given = re.search(r"\{\s*#([\w-]+)\s*\}\s*$", heading)
    if given:
        return given.group(1)
    text = re.sub(r"[^\w\s-]", "", heading.lower()).strip()
    return re.sub(r"[-\s]+", "-", text)


def test_every_rules_link_of_the_page_names_a_page_and_a_heading_that_exist() -> None:
    links: dict[str, str] = json.loads(
        (ROOT / "src" / "gaia_rules" / "web" / "static" / "links.json").read_text("utf-8")
    )
    assert links
    for what, link in links.items():
        page, _, anchor = link.partition("#")
        source = ROOT / "docs" / (page.rstrip("/") + ".md")
        assert source.is_file(), f"{what}: no page {source}"
        if anchor:
            headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", source.read_text("utf-8"), re.M)
            assert anchor in {_anchor(h) for h in headings}, (
                f"{what}: no heading #{anchor} in {page}"
            )


# -- what a Power would do -----------------------------------------------------------------------


def _protection_window(client: TestClient) -> tuple[str, list[str], str, gr.Game]:
    """A 3-player powers game played to its first Protection window."""
    data = create(client, players=3, rules={"format": 1, "level": "disasters"}, seed=4)
    game_id = data["game"]
    tokens = [seat["token"] for seat in data["seats"]]
    rng = random.Random(4)
    while not isinstance((game := game_of(client, game_id)).decision, gr.ChooseProtection):
        assert not game.is_over
        seat = game.to_move
        assert seat is not None
        legal = list(game.legal_actions())
        powers = [a for a in legal if isinstance(a, gr.PowerPlay)]
        action = rng.choice(powers or legal)
        client.post(
            f"/api/games/{game_id}/actions", headers=auth(tokens[seat]), json=action.to_data()
        )
    return game_id, tokens, data["spectator"]["token"], game


@pytest.mark.clause("13.9b")
def test_every_seat_is_told_what_the_power_under_a_protection_window_would_do(
    client: TestClient,
) -> None:
    game_id, tokens, spectator, game = _protection_window(client)
    trial = game.copy()
    events: list[gr.Event] = []
    while isinstance(trial.decision, gr.ChooseProtection):
        events += trial.apply(gr.PassProtection(trial.decision.player))
    effects = []
    dealt = gr.new_game(game.players, game.rules, game.seed, game.first_player).state.hands
    for seat, token in [*enumerate(tokens), (None, spectator)]:
        message = client.get(f"/api/games/{game_id}", headers=auth(token)).json()
        effect = message["effect"]
        effects.append(effect)
        # no card the seat may not see, and the faces of the cities it names
        named = set(CARD_ID.findall(json.dumps(effect)))
        assert not named & blind_to(game, seat, dealt)
        assert named <= set(message["faces"])
    assert all(effect == effects[0] for effect in effects)  # the same for everyone
    shown = [gr.from_data(e, gr.Event) for e in effects[0]["events"]]
    assert [e for e in events if not isinstance(e, gr.ActionTaken)][: len(shown)] == shown
    decision = game.decision
    assert isinstance(decision, gr.ChooseProtection)
    assert effects[0]["action"]["card"] == decision.against


def test_a_seat_previews_its_power_plays_and_nothing_else(client: TestClient) -> None:
    data = create(client, players=2, rules={"format": 1, "level": "disasters"}, seed=1)
    game_id, tokens = data["game"], [s["token"] for s in data["seats"]]
    rng = random.Random(1)
    previewed = 0
    while previewed < 5:
        game = game_of(client, game_id)
        assert not game.is_over
        seat = game.to_move
        assert seat is not None
        legal = list(game.legal_actions())
        for play in [a for a in legal if isinstance(a, gr.PowerPlay)][:3]:
            query = json.dumps(play.to_data())
            answer = client.get(
                f"/api/games/{game_id}/preview",
                params={"action": query},
                headers=auth(tokens[seat]),
            )
            assert answer.status_code == 200, answer.text
            body = answer.json()
            assert body["action"] == play.to_data() and body["moves"] == len(game.actions)
            other = client.get(
                f"/api/games/{game_id}/preview",
                params={"action": query},
                headers=auth(tokens[1 - seat]),
            )
            assert other.status_code == 409  # not the other seat's play to preview
            previewed += 1
        action = rng.choice(legal)
        client.post(
            f"/api/games/{game_id}/actions", headers=auth(tokens[seat]), json=action.to_data()
        )
    draw = json.dumps({"type": "DrawDeck", "player": 0, "kind": "nature"})
    assert (
        client.get(
            f"/api/games/{game_id}/preview", params={"action": draw}, headers=auth(tokens[0])
        ).status_code
        == 400
    )
    assert (
        client.get(
            f"/api/games/{game_id}/preview", params={"action": "{"}, headers=auth(tokens[0])
        ).status_code
        == 400
    )
    spectator = data["spectator"]["token"]
    assert (
        client.get(
            f"/api/games/{game_id}/preview", params={"action": draw}, headers=auth(spectator)
        ).status_code
        == 403
    )
    assert client.get(f"/api/games/{game_id}/preview", params={"action": draw}).status_code == 401


# -- the result table ---------------------------------------------------------------------------


@pytest.mark.clause("15.3", "15.4")
def test_the_result_table_ranks_the_seats_and_says_when_the_tie_break_decided() -> None:
    tied = gr.Result(
        winner=2, reason=gr.EndReason.EXHAUSTION, pawns_placed=(3, 1, 3, 3), ended_by=1
    )
    table = standings(tied)
    assert table["tie_break"] and table["tied"] == [0, 2, 3]
    assert [(r["seat"], r["place"]) for r in table["rows"]] == [(2, 1), (0, 2), (3, 2), (1, 4)]
    clear = gr.Result(
        winner=1, reason=gr.EndReason.ALL_PAWNS_PLACED, pawns_placed=(2, 5, 2), ended_by=1
    )
    table = standings(clear)
    assert not table["tie_break"] and table["tied"] == []
    assert [(r["seat"], r["pawns_placed"], r["winner"]) for r in table["rows"]] == [
        (1, 5, True),
        (0, 2, False),
        (2, 2, False),
    ]
    ahead = gr.Result(winner=0, reason=gr.EndReason.EXHAUSTION, pawns_placed=(4, 3), ended_by=0)
    assert not standings(ahead)["tie_break"]


def test_the_end_of_a_game_comes_with_its_result_table(client: TestClient) -> None:
    data = create(client, players=2, seed=3)
    tokens = [s["token"] for s in data["seats"]]
    game = play_out(client, data["game"], tokens, 3)
    message = client.get(f"/api/games/{data['game']}", headers=auth(tokens[1])).json()
    assert message["standings"] == standings(game.result)  # type: ignore[arg-type]
    assert client.get(f"/api/games/{data['game']}", headers=auth(tokens[0])).json()["over"]


# -- replays ------------------------------------------------------------------------------------


@pytest.mark.clause("1.5")
def test_a_finished_game_is_watched_again_as_each_seat_saw_it(client: TestClient) -> None:
    data = create(client, players=3, rules={"format": 1, "level": "powers"}, seed=5)
    game_id = data["game"]
    tokens = [s["token"] for s in data["seats"]]
    before = client.get(f"/api/games/{game_id}/replay", headers=auth(tokens[0]))
    assert before.status_code == 409 and before.json()["error"]["kind"] == "not_over"
    game = play_out(client, game_id, tokens, 5)
    record = game.record()
    steps = len(record.actions)
    replayed = gr.new_game(game.players, game.rules, game.seed, game.first_player)
    dealt = replayed.state.hands
    turns = 1
    for step in range(0, steps + 1, max(1, steps // 12)):
        while len(replayed.actions) < step:
            replayed.apply(record.actions[len(replayed.actions)])
        for seat in ("0", "2", "spectator"):
            answer = client.get(
                f"/api/games/{game_id}/replay",
                params={"step": step, "seat": seat},
                headers=auth(tokens[1]),
            )
            assert answer.status_code == 200
            message = answer.json()
            who = None if seat == "spectator" else int(seat)
            assert message["type"] == "replay" and message["replay"]["step"] == step
            if who is not None:  # the seat's view and log at that step
                assert gr.View.from_data(message["view"]) == replayed.view(who)
                assert message["events"] == [e.to_data() for e in replayed.events_for(who)]
            hidden = blind_to(replayed, who, dealt)
            assert not set(CARD_ID.findall(json.dumps(message))) & hidden
            assert "hands" not in message
        turns = len(message["replay"]["turns"])
    assert turns == sum(isinstance(e, gr.TurnBegan) for e in game.events)
    everyone = client.get(
        f"/api/games/{game_id}/replay", params={"seat": "all", "step": 3}, headers=auth(tokens[2])
    ).json()
    assert len(everyone["hands"]) == 3 and everyone["replay"]["step"] == 3
    for bad in ({"step": steps + 1}, {"seat": "9"}, {"seat": "x"}, {"step": "²"}):
        assert (
            client.get(
                f"/api/games/{game_id}/replay", params=bad, headers=auth(tokens[0])
            ).status_code
            == 400
        )


def test_a_record_file_is_watched_again_even_one_started_from_a_position(
    client: TestClient,
) -> None:
    game = an_eruption_from_a_position()
    record = game.record()
    json_type = {"Content-Type": "application/json"}
    posted = client.post("/api/replays", content=record.to_json(), headers=json_type)
    assert posted.status_code == 201
    key = posted.json()["replay"]
    assert posted.json()["steps"] == 1 and not posted.json()["over"]
    start = client.get(f"/api/replays/{key}", params={"step": 0, "seat": "1"}).json()
    assert "1,0" in start["view"]["cities"] and start["view"]["hand"] == ["N02"]
    after = client.get(f"/api/replays/{key}", params={"step": 1, "seat": "1"}).json()
    assert after["view"]["cities"] == {}
    assert after["replay"]["last"] < len(after["events"])
    assert client.get(f"/api/replays/{key}", params={"seat": "all"}).status_code == 409  # not over
    assert client.get("/api/replays/nothing").json()["error"]["kind"] == "expired"
    broken = json.loads(record.to_json())
    broken["actions"][0]["pos"] = "5,5"
    refused = client.post("/api/replays", json=broken)
    assert refused.status_code == 400 and refused.json()["error"]["kind"] == "bad_record"
    assert client.post("/api/replays", content=b"[]", headers=json_type).status_code == 400


# -- rematches ----------------------------------------------------------------------------------


def test_a_rematch_gives_every_seat_its_own_seat_of_a_new_deal(client: TestClient) -> None:
    data = create(
        client,
        players=3,
        rules={"format": 1, "level": "advanced"},
        bots=[None, "random", None],
        seed=9,
    )
    game_id = data["game"]
    tokens = [s["token"] for s in data["seats"]]
    spectator = data["spectator"]["token"]
    assert client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0])).status_code == 409
    people = [tokens[0], "", tokens[2]]
    rng = random.Random(9)
    while not (game := game_of(client, game_id)).is_over:
        seat = game.to_move
        if seat is None or seat == 1:
            continue  # the bot's turn: it plays on the server's loop
        action = rng.choice(list(game.legal_actions()))
        client.post(
            f"/api/games/{game_id}/actions", headers=auth(people[seat]), json=action.to_data()
        )
    assert client.get(f"/api/games/{game_id}/rematch", headers=auth(tokens[2])).status_code == 404
    assert client.post(f"/api/games/{game_id}/rematch", headers=auth(spectator)).status_code == 403
    first = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[2])).json()
    again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[2])).json()
    found = client.get(f"/api/games/{game_id}/rematch", headers=auth(tokens[0])).json()
    watch = client.get(f"/api/games/{game_id}/rematch", headers=auth(spectator)).json()
    assert first == again and first["game"] == found["game"] == watch["game"] != game_id
    new_id = first["game"]
    links = {first["url"], found["url"], watch["url"]}
    assert len(links) == 3  # each its own seat
    new = game_of(client, new_id)
    assert new.rules == game.rules and new.players == 3
    assert new.first_player == (game.first_player + 1) % 3
    assert client.app.state.lobby.rooms[new_id].bots == (None, "random", None)  # type: ignore[attr-defined]
    for url, seat in ((first["url"], 2), (found["url"], 0)):
        token = url.split("#")[1]
        assert client.get(f"/api/games/{new_id}", headers=auth(token)).json()["seat"] == seat
    assert (
        client.get(f"/api/games/{new_id}", headers=auth(watch["url"].split("#")[1])).json()["seat"]
        is None
    )
