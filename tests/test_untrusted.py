"""The one rule for reading untrusted input (spec 1.10, 1.10a): types exactly, before anything
is built, bounded, in linear time; for JSON and for the objects handed to the engine alike.

Each reproduction here is a value that an earlier engine believed: a square whose
coordinates are floats or booleans, an instance of a subclass of an action class, a text
read as a list of its characters. The fuzz suite (``tests/test_fuzz.py``) throws random
inputs of every kind at every entry point; these are the cases it must never find again.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import gaia_rules as gr

LEVELS = (gr.Rules.basic(), gr.Rules.advanced(), gr.Rules.powers(), gr.Rules.disasters())


def snapshot(game: gr.Game) -> tuple[object, ...]:
    return (game.state, game.events, game.actions, game.decision, list(game.legal_actions()))


def games_at_every_level(
    count: int = 8, seed: int = 300
) -> Iterator[tuple[gr.Game, random.Random]]:
    """Seeded games at every level, each with the generator that plays it on."""
    for index in range(count):
        rules = LEVELS[index % len(LEVELS)]
        game = gr.new_game(players=2 + index % 4, rules=rules, seed=seed + index)
        yield game, random.Random(index)


def refused(game: gr.Game, action: object, clause: str) -> None:
    """``action`` is refused with ``clause``, ``is_legal`` says no, and nothing changed."""
    before = snapshot(game)
    assert not game.is_legal(action), action
    with pytest.raises(gr.IllegalActionError) as error:
        game.apply(action)  # type: ignore[arg-type]
    assert error.value.clause == clause, error.value
    assert snapshot(game) == before


# -- actions handed to apply and is_legal ---------------------------------------------------------

SQUARE_FIELDS: dict[type, list[str]] = {
    kind: [field.name for field in attrs.fields(kind) if field.type in (gr.Pos, "Pos")]
    for kind in (
        gr.PlayNature,
        gr.PlayAnimals,
        gr.PlayCity,
        gr.Feed,
        gr.PlaceCityPawn,
        gr.PlaySun,
        gr.PlayRain,
        gr.PlayEarthquake,
        gr.PlayLightning,
        gr.PlayEruption,
    )
}


def twisted_squares(pos: gr.Pos) -> list[gr.Pos]:
    """Squares equal to ``pos`` whose coordinates are not ``int``: Python compares them equal,
    and a record would write them as ``"1.0,0"``."""
    x, y = pos
    near: list[tuple[object, object]] = [
        (float(x), y),
        (x, float(y)),
        (x, -0.0) if y == 0 else (x, float(y)),
        (bool(x), y) if x in (0, 1) else (x + 0.0, y),
        (x, y + 0j),
    ]
    return [gr.Pos(*square) for square in near]  # type: ignore[arg-type]


@pytest.mark.clause("1.7", "1.10a", "3.1")
def test_a_square_whose_coordinates_are_not_ints_is_refused_and_changes_nothing() -> None:
    """``Pos(1.0, 0)``, ``Pos(True, 0)``, ``Pos(1, -0.0)`` equal a legal square, so an engine
    that compares squares would apply them, and the record would no longer read back."""
    tried: set[str] = set()
    for game, rng in games_at_every_level():
        while not game.is_over:
            legal = game.legal_actions()
            for action in rng.sample(list(legal), min(4, len(legal))):
                for name in SQUARE_FIELDS.get(type(action), []):
                    for square in twisted_squares(getattr(action, name)):
                        change: dict[str, Any] = {name: square}
                        twisted = attrs.evolve(action, **change)
                        assert twisted == action
                        refused(game, twisted, "3.1")
                        tried.add(type(action).__name__)
            game.apply(rng.choice(legal))
    assert tried >= {"PlayNature", "PlayAnimals", "PlayCity", "Feed", "PlaySun", "PlayEarthquake"}
    assert game.record() == gr.GameRecord.from_json(game.record().to_json())


def _subclass(kind: type) -> type:
    return attrs.frozen(type(f"My{kind.__name__}", (kind,), {}))


@pytest.mark.clause("1.7", "1.10a")
def test_an_instance_of_a_subclass_of_an_action_class_is_refused() -> None:
    """A subclass of ``DrawDeck`` is not a ``DrawDeck``: the engine takes only its own
    classes, whose fields it knows (an earlier engine raised ``KeyError`` in its dispatch)."""
    tried: set[str] = set()
    for game, rng in games_at_every_level(count=8):
        for _ in range(60):
            if game.is_over:
                break
            legal = game.legal_actions()
            for action in {type(a): a for a in legal}.values():
                mine = _subclass(type(action))(*attrs.astuple(action, recurse=False))
                assert isinstance(mine, type(action))
                refused(game, mine, "1.10a")
                tried.add(type(action).__name__)
            game.apply(rng.choice(legal))
    assert len(tried) >= 8, tried
