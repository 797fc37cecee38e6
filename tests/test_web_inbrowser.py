"""The in-browser engine's answers (``gaia_rules.web.inbrowser``), run here under CPython: the
same module runs in the page's Web Worker under Pyodide (the browser tests drive it there)."""

from __future__ import annotations

import json
from typing import Any

import gaia_rules as gr
from gaia_rules.web.inbrowser import Engine
from gaia_rules.web.messages import state_message


def ask(engine: Engine, **request: Any) -> Any:
    return json.loads(engine.handle(json.dumps(request)))


def play_out(engine: Engine, game: str, person: int) -> int:
    """Play ``game`` to its end: the bots by ``bot``, the person by its first legal action."""
    moves = 0
    while True:
        state = ask(engine, op="state", game=game, seat=person)
        if state["over"]:
            return moves
        if state["to_move"] == person:
            action = state["legal"][0]
            answer = ask(
                engine, op="apply", game=game, seat=person, move=state["moves"], action=action
            )
        else:
            answer = ask(engine, op="bot", game=game)
        assert answer["ok"], answer
        moves += 1
        assert moves < 3000


def test_a_game_against_bots_to_its_end_then_its_record_and_replay() -> None:
    engine = Engine()
    created = ask(engine, op="create", players=3, bots=[None, "greedy", "random"], seed=7)
    game = created["game"]
    assert [seat["bot"] for seat in created["seats"]] == [None, "greedy", "random"]
    assert created["seats"][0]["token"] and created["seats"][1]["token"] is None
    refused = ask(engine, op="record", game=game)
    assert refused["error"]["kind"] == "not_over"
    moves = play_out(engine, game, 0)
    end = ask(engine, op="state", game=game, seat=0, world=True)
    assert end["over"] and end["standings"]["rows"] and end["world"].startswith("<svg")
    record = ask(engine, op="record", game=game)
    assert len(record["actions"]) == moves
    # the bots decided as the server's do: the record replays to the same end
    replayed = gr.GameRecord.from_json(json.dumps(record)).replay()
    assert (
        replayed.is_over and replayed.result == gr.GameRecord.from_json(json.dumps(record)).result
    )
    first = ask(engine, op="replay", record=record, step=0, seat="all")
    last = ask(engine, op="replay", record=record, seat=1)
    assert first["replay"]["step"] == 0 and first["type"] == "replay" and "hands" in first
    assert last["replay"]["step"] == moves and last["over"]
    assert last["view"] == replayed.view(1).to_data()
    by_game = ask(engine, op="replay", game=game, step=3, seat=0)
    assert by_game["game"] == game and by_game["replay"]["step"] == 3
    assert by_game["bots"] == [None, "greedy", "random"]
    assert by_game["view"] == ask(engine, op="replay", record=record, step=3, seat=0)["view"]
    assert ask(engine, op="replay", record=record, step=moves + 1)["error"]["status"] == 400


def test_the_state_is_the_servers_message_for_the_seat() -> None:
    engine = Engine()
    game = ask(engine, op="create", players=2, seed=11)["game"]
    state = ask(engine, op="state", game=game, seat=1)
    local = engine.games[game].game
    expected = json.loads(json.dumps(state_message(local, 1)))
    assert {k: state[k] for k in expected} == expected
    spectator = ask(engine, op="state", game=game, seat=None)
    assert "hand" not in spectator["view"] and spectator["legal"] is None


def test_refusals_name_what_is_wrong_and_change_nothing() -> None:
    engine = Engine()
    game = ask(engine, op="create", players=2, seed=3)["game"]
    state = ask(engine, op="state", game=game, seat=0)
    seat = state["to_move"]
    other = 1 - seat
    legal = ask(engine, op="state", game=game, seat=seat)["legal"]
    # an action of the seat not to move is refused by the rules, with its clause
    wrong = dict(legal[0], player=other)
    refused = ask(engine, op="apply", game=game, seat=other, action=wrong)
    assert refused["error"]["status"] == 409 and refused["error"]["kind"] == "illegal"
    assert refused["error"]["clause"]
    stale = ask(engine, op="apply", game=game, seat=seat, move=5, action=legal[0])
    assert stale["error"]["kind"] == "stale" and stale["state"]["moves"] == 0
    assert ask(engine, op="apply", game=game, seat=None, action=legal[0])["error"]["status"] == 403
    assert ask(engine, op="state", game="nope", seat=0)["error"]["status"] == 404
    assert ask(engine, op="create", players=6)["error"]["status"] == 400
    assert ask(engine, op="create", players=2, bots=["nobody", None])["error"]["status"] == 400
    assert json.loads(engine.handle("{"))["error"]["status"] == 400
    assert ask(engine, op="nothing")["error"]["status"] == 404
    assert ask(engine, op="state", game=game, seat=0)["moves"] == 0


def test_a_game_in_progress_continues_from_its_kept_record() -> None:
    engine = Engine()
    game = ask(engine, op="create", players=4, bots=[None, "greedy", "greedy", "greedy"], seed=5)
    game_id = game["game"]
    for _ in range(12):
        state = ask(engine, op="state", game=game_id, seat=0)
        if state["to_move"] == 0:
            ask(
                engine,
                op="apply",
                game=game_id,
                seat=0,
                move=state["moves"],
                action=state["legal"][-1],
            )
        else:
            ask(engine, op="bot", game=game_id)
    kept = ask(engine, op="record", game=game_id, force=True, text=True)["text"]
    assert json.loads(kept)["seed"] == engine.games[game_id].game.seed
    fresh = Engine()
    opened = ask(
        fresh, op="open", record=kept, bots=[None, "greedy", "greedy", "greedy"], game=game_id
    )
    assert opened["moves"] == 12 and opened["game"] == game_id
    unfinished = ask(fresh, op="replay", game=game_id, seat="all")
    assert unfinished["error"]["kind"] == "not_over"
    assert ask(fresh, op="open", record=kept, game="no/slash")["error"]["status"] == 400
    before = ask(engine, op="state", game=game_id, seat=0)
    after = ask(fresh, op="state", game=opened["game"], seat=0)
    assert after["view"] == before["view"] and after["legal"] == before["legal"]
    assert ask(fresh, op="bot", game=opened["game"])["ok"] == (before["to_move"] != 0)


def test_faces_in_each_language() -> None:
    engine = Engine()
    sheets = [ask(engine, op="faces", lang=lang) for lang in ("en", "de", "fr", "hu")]
    assert all(sheet["faces"] and set(sheet["backs"]) for sheet in sheets)
    assert sheets[0]["faces"][0]["svg"] != sheets[1]["faces"][0]["svg"]
    assert ask(engine, op="faces", lang="xx")["error"]["status"] == 400


def test_a_position_tried_outlines_its_choices_and_refuses_with_the_clause() -> None:
    engine = Engine()
    game = gr.new_game(2, seed=21)
    opened = ask(engine, op="open", record=game.record().to_json())
    board = ask(engine, op="board", game=opened["game"])
    assert board["to_move"] == game.to_move and board["hand"]
    assert board["choices"] and all(choice["words"] for choice in board["choices"])
    assert 'class="highlight"' in board["world"] or "highlight" in board["world"]
    nature = next(c for c in board["hand"] if c["card"].startswith("N"))
    # a Nature card far from every tile: refused by the rules, with their words and clause
    far = ask(engine, op="attempt", game=opened["game"], card=nature["card"], square="9,9")
    assert far["error"]["kind"] == "illegal" and far["error"]["clause"]
    assert ask(engine, op="board", game=opened["game"])["moves"] == 0
    legal = next(c for c in board["choices"] if c["card"] == nature["card"] and c["squares"])
    done = ask(
        engine, op="attempt", game=opened["game"], card=nature["card"], square=legal["squares"][0]
    )
    assert done["ok"] and done["moves"] == 1
    after = ask(engine, op="board", game=opened["game"], since=board["events"])
    assert after["moves"] == 1 and after["log"]
    assert ask(engine, op="attempt", game=opened["game"], square="x")["error"]["status"] == 400
