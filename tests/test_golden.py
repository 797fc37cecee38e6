"""Golden records and playthroughs: committed seeded games that must replay identically.

After a deliberate change of behaviour, rewrite them with ``python -m tests.golden`` and let
the diff of the golden files show what changed.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

import gaia_rules as gr
from gaia_rules.record import RECORD_FORMAT
from tests.golden import (
    FORMAT_1,
    GOLDEN,
    PLAYTHROUGHS,
    RECORDS,
    STARTED_RECORDS,
    playthrough,
    record_json,
    started_record_json,
)

HINT = "behaviour changed; if deliberately, run: python -m tests.golden"


def _diff(expected: str, actual: str, name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), f"committed {name}", f"now {name}", lineterm=""
    )
    return "\n".join(list(lines)[:80])


@pytest.mark.clause("1.6", "16.8")
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_committed_record_replays_to_its_committed_final_state(name: str) -> None:
    text = (GOLDEN / "records" / f"{name}.json").read_text(encoding="utf-8")
    record = gr.GameRecord.from_json(text)
    game = record.replay()
    assert game.is_over and game.result == record.result
    expected = (GOLDEN / "records" / f"{name}.state.json").read_text(encoding="utf-8")
    assert game.state.to_json() + "\n" == expected, HINT


@pytest.mark.clause("1.9", "16.8")
@pytest.mark.parametrize("name", sorted(STARTED_RECORDS))
def test_a_committed_record_from_a_position_replays_to_its_final_state(name: str) -> None:
    players, rules, seed, wanted = STARTED_RECORDS[name]
    text = (GOLDEN / "records" / f"{name}.json").read_text(encoding="utf-8")
    record = gr.GameRecord.from_json(text)
    assert record.start is not None
    assert isinstance(record.start.to_game().decision, wanted)
    game = record.replay()
    assert game.is_over and game.result == record.result
    expected = (GOLDEN / "records" / f"{name}.state.json").read_text(encoding="utf-8")
    assert game.state.to_json() + "\n" == expected, HINT
    again = gr.GameRecord.from_json(started_record_json(players, rules, seed, wanted)[0])
    assert (again.start, again.actions) == (record.start, record.actions), HINT


@pytest.mark.clause("1.6")
@pytest.mark.parametrize("name", sorted(RECORDS))
def test_the_seeded_game_still_writes_the_committed_record(name: str) -> None:
    players, rules, seed = RECORDS[name]
    record, _ = record_json(players, rules, seed)
    expected = (GOLDEN / "records" / f"{name}.json").read_text(encoding="utf-8")
    # the library version may move on; everything else must not
    assert gr.GameRecord.from_json(record).actions == gr.GameRecord.from_json(expected).actions, (
        HINT
    )


@pytest.mark.clause("1.5", "1.6", "5.4")
@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_a_playthrough_prints_exactly_as_committed(name: str) -> None:
    players, rules, seed = PLAYTHROUGHS[name]
    actual = playthrough(players, rules, seed)
    expected = (GOLDEN / "playthroughs" / f"{name}.txt").read_text(encoding="utf-8")
    assert actual == expected, f"{HINT}\n{_diff(expected, actual, name)}"


@pytest.mark.clause("1.12", "16.8")
@pytest.mark.parametrize(
    "path",
    sorted(p for p in FORMAT_1.glob("*.json") if not p.name.endswith(".state.json")),
    ids=lambda p: p.stem,
)
def test_a_record_of_format_1_still_replays_to_its_final_state(path: Path) -> None:
    """A record written before copies of one face became one choice names, in each action,
    the very copy that moved; its replay moves that copy, and reaches the state it recorded,
    card for card. A game replayed from it records itself in format 1 again."""
    record = gr.GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.format == 1
    game = record.replay()
    assert game.is_over and game.result == record.result
    expected = path.with_name(f"{path.stem}.state.json").read_text(encoding="utf-8")
    assert game.state.to_json() + "\n" == expected
    again = game.record()
    assert again.format == 1 and again.actions == record.actions
    assert gr.GameRecord.from_json(again.to_json()).replay().state == game.state


@pytest.mark.clause("1.12")
def test_the_records_written_now_are_of_format_2() -> None:
    name = sorted(RECORDS)[0]
    record = gr.GameRecord.from_json((GOLDEN / "records" / f"{name}.json").read_text("utf-8"))
    assert record.format == RECORD_FORMAT == 2
    assert '"format":2' in record.to_json().replace(" ", "")[:20]


@pytest.mark.clause("1.7")
def test_a_record_that_diverges_names_the_first_bad_action() -> None:
    text = (GOLDEN / "records" / "powers-3p.json").read_text(encoding="utf-8")
    record = gr.GameRecord.from_json(text)
    broken = gr.GameRecord.from_data(
        {
            **record.to_data(),
            "actions": [a.to_data() for a in record.actions[:7]]
            + [a.to_data() for a in record.actions[8:]],
        }
    )
    with pytest.raises(gr.RecordError) as diverged:
        broken.replay()
    assert diverged.value.index is not None and diverged.value.index >= 7
