"""The fuzz suite (spec 1.7, 1.10, 1.10a): every public entry point of untrusted input answers
every input drawn for it, within a second of CPU time, with a value or its own typed error,
and what it accepts holds up (see ``tests/fuzz``).

The plain suite runs a bounded sample of each entry point, derandomized; the soak run
(``pytest -m soak``) hands each 12,000 inputs drawn from fixed seeds, over 200,000 in all,
and prints the figures at the end of the run. ``python scripts/fuzz.py`` runs any number.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.fuzz import ENTRIES, Entry, Figures, run
from tests.fuzz.corpus import corpus
from tests.fuzz.entries import apply_or_refuse
from tests.oracle.legal import accepted_actions
from tests.oracle.model import plain_of

SAMPLE = 30
"""Inputs per entry point in the plain suite."""
SOAK = 12_000
"""Inputs per entry point in the soak run (17 entry points: 204,000 inputs)."""
SHARDS = 3
"""The soak run's inputs of each entry point are drawn from this many seeds, in as many
tests, so that they spread over the cores."""

BY_NAME = {entry.name: entry for entry in ENTRIES}


def test_the_corpus_holds_documents_at_every_kind_of_decision_and_level() -> None:
    found = corpus()
    assert found.kinds == {
        "ChooseAction",
        "ChooseFeeding",
        "ChooseLimitDiscard",
        "ChooseObjective",
        "ChoosePawnCities",
        "ChooseProtection",
        "ChooseBack",
        "ChooseKeptCard",
    }
    assert {game.rules.level for game in found.games} == {
        game.rules.level for game in found.finished
    } | {game.rules.level for game in found.games}
    levels = {record["rules"]["level"] for record in found.payloads["record"]}
    assert levels == {"basic", "advanced", "powers", "disasters"}
    assert any(record["start"] is not None for record in found.payloads["record"])
    assert all(found.payloads.values())


@pytest.mark.clause("1.12", "1.7")
def test_every_other_copy_of_a_listed_card_in_the_corpus_is_the_same_choice() -> None:
    """What the apply entry point checks of an action naming another copy of a listed card's
    face, at every decision of the corpus that offers one: it applies, with the listed
    action's events and game (the fuzzed inputs reach few of them)."""
    tried = 0
    for game in corpus().games:
        if game.decision is None:
            continue
        legal = set(game.legal_actions())
        others = accepted_actions(plain_of(game.state), game.decision, legal) - legal
        for action in sorted(others, key=repr):
            assert apply_or_refuse(game.copy(), action), action
            tried += 1
    assert tried >= 50


@pytest.mark.clause("1.7", "1.10", "1.10a")
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_a_sample_of_hostile_inputs_is_answered_by_each_entry_point(name: str) -> None:
    figures = Figures()
    run(BY_NAME[name], SAMPLE, seed=0, figures=figures, shrink=True)
    assert figures.inputs[name] == SAMPLE


def test_the_soak_run_hands_over_at_least_two_hundred_thousand_inputs() -> None:
    """The long run's budget, which the soak step of CI runs: 200,000 inputs or more, every
    entry point its share, split evenly over the seeds."""
    assert SOAK % SHARDS == 0
    assert SOAK * len(ENTRIES) >= 200_000


def test_the_figures_name_what_was_refused_and_survive_the_trip_between_workers() -> None:
    figures = Figures()
    run(BY_NAME["Action JSON"], 20, seed=0, figures=figures)
    back = Figures.from_data(json.loads(json.dumps(figures.to_data())))
    assert back == figures and back.wall > 0
    refused = figures.inputs["Action JSON"] - figures.accepted["Action JSON"]
    assert refused > 0
    assert f"{refused} refused by a typed error" in figures.lines()[0]


@pytest.mark.soak
@pytest.mark.clause("1.7", "1.10", "1.10a")
@pytest.mark.parametrize("shard", range(SHARDS))
@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_twelve_thousand_hostile_inputs_are_answered_by_each_entry_point(
    name: str, shard: int, record_property: Callable[[str, object], None]
) -> None:
    entry: Entry = BY_NAME[name]
    figures = Figures()
    inputs = SOAK // SHARDS
    try:
        run(entry, inputs, seed=1_000 + shard, figures=figures)
    finally:
        record_property("fuzz", json.dumps(figures.to_data()))
    assert figures.inputs[name] == inputs
