"""The readers that take a hot path read exactly what the generic readers read (spec 1.7, 2.8).

A record's actions are read by hand (``gaia_rules.actiondata``) and a record's shipped
manifest is recognised by comparison (``Manifest.from_dict``). Both must accept what the
generic path accepts, give equal values, and refuse the rest with the generic path's own
error: Python's ``==`` and ``int`` are laxer than JSON (``True == 1``, ``1.0 == 1``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import gaia_rules as gr
from gaia_rules.actiondata import ActionStructure
from gaia_rules.serialization import JsonError, converter, from_data


def _finished_records() -> list[gr.GameRecord]:
    records = []
    for level in (gr.Rules.basic(), gr.Rules.disasters()):
        game = gr.new_game(4, level, seed=7)
        rng = random.Random(7)
        while not game.is_over:
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        records.append(game.record())
    return records


RECORDS = _finished_records()
ACTIONS: dict[str, gr.Action] = {
    type(action).__name__: action for record in RECORDS for action in record.actions
}


def _generic(data: Any) -> Any:
    """The action ``data`` describes, read by cattrs' own tagged union."""
    hook = converter.get_structure_hook(gr.Action)
    assert isinstance(hook, ActionStructure)
    return hook.generic(data, gr.Action)


@pytest.mark.clause("1.7", "2.8")
def test_the_actions_of_whole_games_read_back_equal_through_both_paths() -> None:
    assert len(ACTIONS) >= 10, "the games play most kinds of action"
    for record in RECORDS:
        for action in record.actions:
            data = action.to_data()
            assert from_data(data, gr.Action) == action == _generic(data)
        assert gr.GameRecord.from_json(record.to_json()) == record


def _mutations(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Data one step away from an action's: each field missing, of another JSON type, or
    one field too many."""
    found: list[dict[str, Any]] = [{**data, "extra": 1}]
    for key, value in data.items():
        if key == "type":
            continue
        found.append({k: v for k, v in data.items() if k != key})
        for other in (True, 1.0, None, "1;2", [1], {"x": 1}, 1, "nature", str(value)):
            if other != value or type(other) is not type(value):
                found.append({**data, key: other})
    return found


@pytest.mark.clause("1.7", "2.8")
@pytest.mark.parametrize("kind", sorted(ACTIONS))
def test_a_mutated_action_is_refused_by_both_paths_alike(kind: str) -> None:
    for data in _mutations(ACTIONS[kind].to_data()):
        try:
            expected = _generic(data)
        except Exception as exc:  # whatever the generic path raises
            with pytest.raises(JsonError) as refused:
                from_data(data, gr.Action)
            with pytest.raises(type(exc)):
                _generic(data)
            assert refused.value.problems, data
        else:
            assert from_data(data, gr.Action) == expected, data


@pytest.mark.clause("1.7", "2.8")
def test_a_shipped_manifest_is_recognised_and_its_look_alikes_refused() -> None:
    shipped = gr.Manifest.builtin(gr.Edition.THIRD)
    data = shipped.to_dict()
    assert gr.Manifest.from_dict(data) is shipped
    bad_format = {**data, "format": True}
    with pytest.raises(gr.ManifestError, match="format"):
        gr.Manifest.from_dict(bad_format)
    power_objectives = [i for i, card in enumerate(data["cards"]) if "objective_powers" in card]
    assert power_objectives
    for other in (True, float(data["cards"][power_objectives[0]]["objective_powers"])):
        cards = [dict(card) for card in data["cards"]]
        cards[power_objectives[0]]["objective_powers"] = other
        with pytest.raises(gr.ManifestError):
            gr.Manifest.from_dict({**data, "cards": cards})
