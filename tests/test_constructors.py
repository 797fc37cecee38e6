"""The hot path's constructors make the very values their classes make: equal, of the exact
class, with every field set. The suite runs on the pure and the compiled wheel alike, so the
functions are tested both as the interpreter runs them and as mypyc compiled them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest

from gaia_rules import constructors
from gaia_rules.actions import DrawDeck, DrawDisplay, Feed, PlayAnimals, PlayCity, PlayNature
from gaia_rules.decisions import ChooseFeeding
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDrawn,
    CityPlaced,
    DisplayRefilled,
    NatureCardPlayed,
    PawnPlaced,
    SatisfactionChanged,
    TilePlaced,
    TokensReturned,
)
from gaia_rules.vocabulary import CardKind, Land, Pos

PLAY = PlayNature(2, "N07", Pos(1, -1))

# each public name, the function behind it, its class and arguments for every field
MADE: list[tuple[str, Callable[..., Any], type[Any], tuple[Any, ...]]] = [
    ("action_taken", constructors._action_taken, ActionTaken, (2, PLAY, True)),
    ("action_taken", constructors._action_taken, ActionTaken, (1, None, False)),
    ("card_drawn", constructors._card_drawn, CardDrawn, (3, CardKind.LIFE, "L12", True)),
    ("card_drawn", constructors._card_drawn, CardDrawn, (0, CardKind.NATURE, None, False)),
    ("display_refilled", constructors._display_refilled, DisplayRefilled, (CardKind.POWER, "P3")),
    ("nature_card_played", constructors._nature_card_played, NatureCardPlayed, (1, "N07")),
    ("tile_placed", constructors._tile_placed, TilePlaced, (Pos(0, 2), Land.SEA)),
    ("tokens_returned", constructors._tokens_returned, TokensReturned, (Pos(-1, 0), 2)),
    (
        "satisfaction_changed",
        constructors._satisfaction_changed,
        SatisfactionChanged,
        (Pos(2, 2), 1, 3),
    ),
    ("animals_placed", constructors._animals_placed, AnimalsPlaced, (2, "A05", Pos(1, 0), 4)),
    ("city_placed", constructors._city_placed, CityPlaced, (0, "C11", Pos(-2, 1))),
    ("pawn_placed", constructors._pawn_placed, PawnPlaced, (3, Pos(0, -1))),
    ("draw_display", constructors._draw_display, DrawDisplay, (4, "L12")),
    ("draw_deck", constructors._draw_deck, DrawDeck, (0, CardKind.NATURE)),
    ("play_nature", constructors._play_nature, PlayNature, (2, "N07", Pos(1, -1))),
    ("play_animals", constructors._play_animals, PlayAnimals, (1, "A05", Pos(2, -1))),
    ("play_city", constructors._play_city, PlayCity, (3, "C11", Pos(0, 0))),
    ("feed", constructors._feed, Feed, (1, Pos(0, 1), Pos(1, 1))),
    ("choose_feeding", constructors._choose_feeding, ChooseFeeding, (3, (Pos(0, 1), Pos(2, 0)))),
]


def test_every_public_constructor_is_listed() -> None:
    assert {name for name, *_ in MADE} == set(constructors.__all__) - {"COMPILED"}


@pytest.mark.parametrize(
    ("name", "make", "cls", "args"), MADE, ids=[f"{name}-{i}" for i, (name, *_) in enumerate(MADE)]
)
def test_a_constructor_makes_the_value_its_class_makes(
    name: str, make: Callable[..., Any], cls: type[Any], args: tuple[Any, ...]
) -> None:
    expected = cls(*args)
    for made in (make(*args), getattr(constructors, name)(*args)):
        assert type(made) is cls
        # every field set (a field left out would raise AttributeError here), to its argument
        assert [getattr(made, field.name) for field in attrs.fields(cls)] == list(args)
        assert made == expected
        assert hash(made) == hash(expected)
        assert repr(made) == repr(expected)
        assert made.to_json() == expected.to_json()
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            made.player = 9


def test_the_public_names_are_the_compiled_functions_or_else_the_classes() -> None:
    for name, make, cls, _ in MADE:
        public = getattr(constructors, name)
        assert public is (make if constructors.COMPILED else cls), name
