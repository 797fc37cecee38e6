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
from tests.strategies import games_at

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


@pytest.mark.clause("1.10a", "3.1", "10.5")
def test_a_pawn_placed_on_a_square_whose_coordinates_are_not_ints_is_refused() -> None:
    """The same for ``PlaceCityPawn``, whose decision only a player short of pawns meets."""
    tried = 0
    for found in games_at("ChoosePawnCities", 2):
        game = found.copy()
        for action in game.legal_actions():
            assert isinstance(action, gr.PlaceCityPawn)
            for square in twisted_squares(action.city):
                twisted = attrs.evolve(action, city=square)
                assert twisted == action
                refused(game, twisted, "3.1")
                tried += 1
    assert tried


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


# -- JSON: the rule is checked before anything is built -------------------------------------------


def documents() -> dict[str, tuple[Any, Any]]:
    """A real document of each kind, as JSON-ready data, with its reader."""
    game = gr.new_game(players=3, rules=gr.Rules.powers(), seed=5)
    rng = random.Random(5)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    return {
        "record": (game.record().to_data(), gr.GameRecord.from_data),
        "position": (gr.Position.from_game(game).to_data(), gr.Position.from_data),
        "view": (game.view(1).to_data(), gr.View.from_data),
        "state": (game.state.to_data(), gr.GameState.from_data),
    }


def list_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every list in ``data``."""
    if isinstance(data, list):
        yield path
        for index, item in enumerate(data):
            yield from list_paths(item, (*path, index))
    elif isinstance(data, dict):
        for key, item in data.items():
            yield from list_paths(item, (*path, key))


def replaced(data: Any, path: tuple[Any, ...], value: object) -> Any:
    if not path:
        return value
    head, *rest = path
    copy: Any = list(data) if isinstance(data, list) else dict(data)
    copy[head] = replaced(data[head], tuple(rest), value)
    return copy


@pytest.mark.clause("1.10", "1.10a")
@pytest.mark.parametrize("kind", ["record", "position", "view", "state"])
def test_a_text_where_a_list_belongs_is_refused_as_a_text(kind: str) -> None:
    """An empty text is not an empty list (``"actions": ""`` read as a record of no action),
    and a long one is not a list of its characters: each is refused for its type, before
    any entry is read, with one problem however long it is (an earlier reader took 50 µs a
    character, and went past the limit of 20,300 actions)."""
    data, reader = documents()[kind]
    paths = list(list_paths(data))
    assert len(paths) > 10
    for path in paths:
        for text in ("", "N01", "x" * 200_000):
            with pytest.raises(gr.GaiaRulesError) as error:
                reader(replaced(data, path, text))
            message = str(error.value)
            assert "expected a list" in message, (path, message[:300])
            assert len(message) < 1000, (path, len(message))


# -- the builder and the objects of a position ----------------------------------------------------

PLAIN_SQUARE: Any = (0, 0)
TWO_AS_TEXT: Any = ("2",)
RULES_AS_TEXT: Any = ("basic",)

BAD_ARGUMENTS: dict[str, Any] = {
    "a land that is None": lambda b: b.tile(1, 0, None),
    "a land given as its text": lambda b: b.tile(1, 0, "sea"),
    "a card back for a land": lambda b: b.tile(1, 0, gr.CardKind.NATURE),
    "tokens given as a text": lambda b: b.tile(1, 0, gr.Land.PLAIN, animals="2"),
    "tokens given as true": lambda b: b.tile(1, 0, gr.Land.PLAIN, animals=True),
    "a coordinate that is a float": lambda b: b.tile(1.0, 0, gr.Land.PLAIN),
    "a card that is a number": lambda b: b.hand(0, 7),
    "pawns given as a text": lambda b: b.city(0, 0, "C01", pawns="0"),
    "a seat that is true": lambda b: b.turn(True),
    "a kind that is a text": lambda b: b.deck("nature", "N01"),
    "a step that is not a step": lambda b: b.steps(gr.DrawDeck(0, gr.CardKind.NATURE)),
    "a square of a step that is a tuple": lambda b: b.steps(gr.ChooseFeeding(0, (PLAIN_SQUARE,))),
    "fulfilled Objectives given as a list": lambda b: b.objectives("O01", fulfilled=[("O01", 0)]),
    "a number of players that is a text": lambda b: gr.PositionBuilder(*TWO_AS_TEXT),
    "rules that are not Rules": lambda b: gr.PositionBuilder(2, *RULES_AS_TEXT),
}


def base_builder() -> gr.PositionBuilder:
    return gr.PositionBuilder(players=2, seed=4).tile(0, 0, gr.Land.DESERT).turn(0, action=1)


@pytest.mark.clause("1.10a", "16.1")
@pytest.mark.parametrize("fault", list(BAD_ARGUMENTS))
def test_the_builder_refuses_an_argument_of_the_wrong_type_at_once(fault: str) -> None:
    """An earlier builder took a land that was ``None``, a text or a card back and let
    ``to_game()`` start a game with it, and raised ``TypeError`` for tokens given as a
    text. Each method now checks its arguments by the rule, naming the one at fault."""
    base_builder().to_game()
    with pytest.raises(gr.PositionError) as error:
        BAD_ARGUMENTS[fault](base_builder())
    assert "expected" in str(error.value), str(error.value)


POSITION_FAULTS: dict[str, Any] = {
    "tiles": lambda p: {**p.tiles, gr.Pos(1, 0): None},
    "animals": lambda p: {**p.animals, gr.Pos(0, 0): 1.0},
    "hands": lambda p: [list(hand) for hand in p.hands],
    "decks": lambda p: {**p.decks, "nature": ()},
    "active": lambda p: 0.0,
    "steps": lambda p: [gr.ChooseAction(0, 1)],
    "rules": lambda p: p.rules.to_dict(),
    "objective_pawns": lambda p: {"O01": True},
    "seed": lambda p: "4",
}


@pytest.mark.clause("1.10a", "16.1")
@pytest.mark.parametrize("field", list(POSITION_FAULTS))
def test_a_position_built_with_a_field_of_the_wrong_type_is_refused(field: str) -> None:
    """A ``Position`` built directly is checked by the same rule before anything is read
    from it: each field of exactly its type."""
    position = base_builder().build()
    change = {field: POSITION_FAULTS[field](position)}
    with pytest.raises(gr.PositionError, match=f"position.{field}"):
        attrs.evolve(position, **change).to_game()


@pytest.mark.clause("1.10a", "1.8")
@pytest.mark.parametrize("field", ["seat", "hand", "deck_sizes", "steps", "cities", "stolen"])
def test_a_view_handed_to_determinize_with_a_field_of_the_wrong_type_is_refused(
    field: str,
) -> None:
    game = gr.new_game(players=3, rules=gr.Rules.powers(), seed=9)
    view = game.view(1)
    wrong: dict[str, Any] = {
        "seat": True,
        "hand": list(view.hand),
        "deck_sizes": {kind.value: size for kind, size in view.deck_sizes.items()},
        "steps": "",
        "cities": {(0, 0): None},
        "stolen": ((gr.CardKind.NATURE, 0.0, None),),
    }
    bad = attrs.evolve(view, **{field: wrong[field]})
    with pytest.raises(gr.ViewError, match=f"view.{field}"):
        gr.determinize(bad, random.Random(0))
    with pytest.raises(gr.ViewError):
        gr.determinize(view.to_data(), random.Random(0))


@pytest.mark.clause("1.10a", "16.8")
def test_a_record_built_with_a_field_of_the_wrong_type_is_refused_by_its_replay() -> None:
    game = gr.new_game(players=2, seed=3)
    game.apply(game.legal_actions()[0])
    record = game.record()
    for change in (
        {"actions": list(record.actions)},
        {"seed": 3.0},
        {"players": True},
        {"actions": ("0: draw nature",)},
    ):
        with pytest.raises(gr.RecordError, match="record"):
            attrs.evolve(record, **change).replay()
    assert record.replay().state == game.state


# -- whole numbers beyond any game -----------------------------------------------------------------

HUGE = 10**4299 * 9  # 4300 digits: as many as Python reads from a text
"""A number JSON text can carry, which a sum of two of turns into one Python cannot write."""


@pytest.mark.clause("1.10", "1.10a", "1.6")
def test_a_whole_number_beyond_the_64_bit_range_is_refused_everywhere() -> None:
    """No seat, count or seed a game makes goes beyond 2**63; a position whose tokens were
    such numbers was read, and the check of its tokens' sum raised a bare ``ValueError``
    (Python writes no number of more than 4300 digits, not even in an error message)."""
    game = gr.new_game(players=2, seed=7)
    while not game.state.animals:
        game.apply(random.Random(len(game.events)).choice(game.legal_actions()))
    position = gr.Position.from_game(game)
    data = position.to_data()
    data["animals"] = {square: HUGE for square in data["animals"]}
    text = gr.to_json(position).replace('"animals":{', '"animals":{"9,9":' + str(HUGE) + ",")
    with pytest.raises(gr.PositionError, match="from -2"):
        gr.Position.from_data(data)
    with pytest.raises(gr.PositionError, match="from -2"):
        gr.Position.from_json(text)
    huge_tokens = attrs.evolve(position, animals={square: HUGE for square in position.animals})
    with pytest.raises(gr.PositionError, match="from -2"):
        huge_tokens.to_game()
    for seed in (2**63, -(2**63) - 1, 10**5000):
        with pytest.raises(gr.RulesError, match="seed"):
            gr.new_game(players=2, seed=seed)
    assert gr.new_game(players=2, seed=2**63 - 1).seed == 2**63 - 1
    with pytest.raises(gr.RulesError):
        gr.new_game(players=10**5000)
    with pytest.raises(gr.RulesError):
        gr.Rules.disasters(lightnings=10**5000)
    with pytest.raises(gr.SeatError):
        game.view(10**5000)
    keyed = {**data, "tiles": {10**5000: "sea"}}  # parsed by another library: any key
    with pytest.raises(gr.PositionError, match="4300 digits"):
        gr.Position.from_data(keyed)
    refused(game, gr.DrawDeck(2**64, gr.CardKind.NATURE), "5.4")
