"""Hostile input (spec 1.7, 2.8): every reader of untrusted input answers with a value or with
the library's own typed error, and nothing else escapes.

The readers: ``gr.from_json(text, gr.Action | gr.Event | gr.View)``, ``gr.View.from_json``,
``gr.GameRecord.from_json``, ``gr.Position.from_json``, ``gr.Manifest.from_json``,
``gr.Rules.from_json`` and ``gaia_rules.notation.parse_action``. They are fed random JSON
values and random texts, and valid payloads taken from random games at every level, then
mutated: a key deleted or added, a value replaced by a random one or by another type,
nesting thousands of levels deep, huge numbers, NaN and Infinity, unicode look-alikes. A
failure must be a :class:`~gaia_rules.GaiaRulesError` of the reader's own kind (no
``KeyError``, ``TypeError``, ``AttributeError``, ``RecursionError``, ``ValueError``, no
hang). What parses must hold up: a record replays or raises ``RecordError`` at the first bad
action; a position becomes a game that keeps every invariant, or raises ``PositionError``;
an action applies or is refused, and a refused action leaves the game as it was.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.naming import faced_action
from gaia_rules.notation import NotationError, parse_action
from gaia_rules.serialization import from_data
from tests import fuzz
from tests.fuzz import mutations
from tests.fuzz.mutations import CARD_ID, CARD_IDS, KEYS, TRICKY_TEXTS, render
from tests.strategies import check_invariants

K = gr.CardKind
LEVELS = (gr.Rules.basic(), gr.Rules.advanced(), gr.Rules.powers(), gr.Rules.disasters())
SECONDS = 10.0
"""No reader may take longer than this on any input (a hang is a failure too)."""

Reader = Callable[[str], object]

READERS: dict[str, tuple[Reader, type[gr.GaiaRulesError]]] = {
    "action": (lambda text: gr.from_json(text, gr.Action), gr.JsonError),
    "event": (lambda text: gr.from_json(text, gr.Event), gr.JsonError),
    "view": (lambda text: gr.from_json(text, gr.View), gr.JsonError),
    "View.from_json": (gr.View.from_json, gr.JsonError),
    "record": (gr.GameRecord.from_json, gr.RecordError),
    "position": (gr.Position.from_json, gr.PositionError),
    "manifest": (gr.Manifest.from_json, gr.ManifestError),
    "rules": (gr.Rules.from_json, gr.RulesError),
    "notation": (parse_action, NotationError),
}
"""Each reader of untrusted text, and the typed error it must raise when it refuses."""


def no_hang(seconds: float = SECONDS) -> contextlib.AbstractContextManager[None]:
    """Fail with ``TimeoutError`` if the block runs longer than ``seconds``."""
    return fuzz.no_hang(seconds)


def attempt(what: str, call: Callable[[], Any], expected: type[gr.GaiaRulesError]) -> Any:
    """``call()``'s value, or ``None`` when it raised ``expected``; any other exception fails
    the test, naming what escaped."""
    try:
        with no_hang():
            return call()
    except expected:
        return None
    except Exception as exc:  # the contract under test: nothing else may escape
        pytest.fail(f"{what}: {type(exc).__name__} escaped: {str(exc)[:300]}")


def read(name: str, text: str) -> Any:
    reader, expected = READERS[name]
    return attempt(f"{name} reading {text[:120]!r}", lambda: reader(text), expected)


# -- the corpus: valid payloads from random games at every level --------------------------------


@attrs.frozen
class Corpus:
    """Valid payloads of every reader, and games part-way through to apply actions to."""

    payloads: dict[str, tuple[Any, ...]]
    notations: tuple[str, ...]
    games: tuple[gr.Game, ...]


@functools.cache
def corpus() -> Corpus:
    records: list[Any] = []
    positions: list[Any] = []
    views: list[Any] = []
    events: list[Any] = []
    actions: list[gr.Action] = []
    games: list[gr.Game] = []
    kinds_seen: set[type] = set()
    for index in range(16):
        game = gr.new_game(players=2 + index % 4, rules=LEVELS[index % 4], seed=index)
        rng = random.Random(index)
        stop = rng.randrange(20, 200)
        while not game.is_over and len(game.actions) < stop:
            game.apply(rng.choice(game.legal_actions()))
            if not game.is_over and rng.random() < 0.05:  # at any decision (1.9)
                positions.append(gr.Position.from_game(game).to_data())
        records.append(game.record().to_data())
        if not game.is_over and index % 4 == 1:  # a record that starts from a position
            restarted = gr.Position.from_game(game).to_game()
            for _ in range(10):
                if not restarted.is_over:
                    restarted.apply(rng.choice(restarted.legal_actions()))
            records.append(restarted.record().to_data())
        views.extend(game.view(seat).to_data() for seat in range(game.players))
        for event in game.events:
            if type(event) not in kinds_seen or rng.random() < 0.02:
                kinds_seen.add(type(event))
                events.append(event.to_data())
        actions.extend(game.actions[-10:])
        actions.extend(game.legal_actions())
        if not game.is_over:
            games.append(game)
    every_rules = (
        *LEVELS,
        gr.Rules.basic(edition="first", feeding="every_city", objectives="optional"),
        gr.Rules.disasters(lightnings=2, eruption_on_city=False, four_need_drop="empty_at_two"),
    )
    action_data = tuple(action.to_data() for action in actions)
    return Corpus(
        payloads={
            "action": action_data,
            "event": tuple(events),
            "view": tuple(views),
            "View.from_json": tuple(views),
            "record": tuple(records),
            "position": tuple(positions),
            "manifest": tuple(gr.Manifest.builtin(e).to_dict() for e in gr.Edition),
            "rules": tuple(rules.to_dict() for rules in every_rules),
        },
        notations=tuple(sorted({str(action) for action in actions})),
        games=tuple(games),
    )


def test_the_corpus_covers_every_reader_and_level() -> None:
    found = corpus()
    for name, payloads in found.payloads.items():
        assert payloads, f"no valid {name} payload"
        for payload in payloads:  # every payload is valid as taken
            assert read(name, json.dumps(payload)) is not None, name
    levels = {record["rules"]["level"] for record in found.payloads["record"]}
    assert levels == {"basic", "advanced", "powers", "disasters"}
    kinds = {event["type"] for event in found.payloads["event"]}
    assert {"CardStolen", "PowerPlayed", "CardDrawn", "ObjectiveFulfilled"} <= kinds
    assert len(found.notations) > 100
    assert {game.rules.level for game in found.games} == set(gr.Level)


# -- what must hold of whatever parses -------------------------------------------------------------


def snapshot(game: gr.Game) -> tuple[object, ...]:
    return (game.state, game.events, game.actions, game.decision, game.legal_actions())


def apply_or_refuse(game: gr.Game, action: gr.Action) -> None:
    """``action`` applies if it is legal; otherwise it is refused with an
    :class:`~gaia_rules.IllegalActionError` and the game is exactly as it was (1.7)."""
    legal = game.legal_actions()
    before = snapshot(game)
    twin = game.copy()
    try:
        with no_hang():
            game.apply(action)
    except gr.IllegalActionError as exc:
        assert action not in legal, f"{action} is listed as legal but refused: {exc}"
        assert exc.clause and exc.reason, f"{action} refused without saying why"
        assert snapshot(game) == before, f"{action} was refused but changed the game"
        if legal:  # nothing hidden moved either: the same choice has the same future
            assert game.copy().apply(legal[-1]) == twin.apply(legal[-1])
        return
    except Exception as exc:
        pytest.fail(f"apply({action!r}): {type(exc).__name__} escaped: {exc}")
    assert action in legal, f"{action} applied but is not among the legal actions"


def play_a_little(game: gr.Game, seed: int, steps: int = 20) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))
        check_invariants(game)


def check_record(record: gr.GameRecord) -> None:
    """A record replays, or raises :class:`RecordError` with ``index`` at a real action (or at
    the end, when the result differs)."""
    try:
        with no_hang():
            game = record.replay()
    except gr.RecordError as exc:
        assert exc.index is None or 0 <= exc.index <= len(record.actions), exc.index
        return
    except Exception as exc:
        pytest.fail(f"replay: {type(exc).__name__} escaped: {exc}")
    # 1.12: an action naming another copy of a face in the same place is the choice the legal
    # actions list, and the game keeps that one (with the copy that moved, 1.13): the replay
    # takes each of the record's actions, as the same choice
    face_ids = record.rules.cards.face_ids
    assert [faced_action(action, face_ids) for action in game.actions] == [
        faced_action(action, face_ids) for action in record.actions
    ]


def check_position(position: gr.Position) -> None:
    """A position becomes a game that keeps every invariant (spec 16), or is refused."""
    game = attempt("to_game", position.to_game, gr.PositionError)
    if game is not None:
        check_invariants(game)
        play_a_little(game, seed=len(position.tiles))


def check_parsed(name: str, value: Any) -> None:
    """What a reader accepted is a sound value of its kind."""
    found = corpus()
    match name:
        case "action":
            assert gr.from_json(gr.to_json(value), gr.Action) == value
            game = found.games[len(str(value)) % len(found.games)].copy()
            apply_or_refuse(game, value)
        case "event":
            assert gr.from_json(gr.to_json(value), gr.Event) == value
        case "view" | "View.from_json":
            assert isinstance(value, gr.View)
            assert gr.View.from_json(value.to_json()) == value
        case "record":
            assert isinstance(value, gr.GameRecord)
            check_record(value)
        case "position":
            assert isinstance(value, gr.Position)
            check_position(value)
        case "manifest":
            assert isinstance(value, gr.Manifest)
            rules = gr.Rules.powers(edition=value.edition, manifest=value)
            play_a_little(gr.new_game(players=3, rules=rules, seed=1), seed=1)
        case "rules":
            assert isinstance(value, gr.Rules)
            assert gr.Rules.from_json(value.to_json()) == value
            play_a_little(gr.new_game(players=2, rules=value, seed=2), seed=2)
        case "notation":
            assert isinstance(value, gr.Action)
            game = found.games[len(str(value)) % len(found.games)].copy()
            apply_or_refuse(game, value)


# -- (1) random JSON values and random texts -------------------------------------------------------

json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10),
    st.integers(),
    st.floats(),
    st.text(max_size=10),
    st.sampled_from(TRICKY_TEXTS),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), inner, max_size=5),
    ),
    max_leaves=25,
)

JSON_READERS = tuple(name for name in READERS if name != "notation")


@pytest.mark.clause("1.7", "2.8")
@pytest.mark.parametrize("name", JSON_READERS)
@settings(max_examples=150, deadline=None)
@given(value=json_values)
def test_random_json_values_are_read_or_refused_with_a_typed_error(name: str, value: Any) -> None:
    parsed = read(name, json.dumps(value))
    if parsed is not None:
        check_parsed(name, parsed)


@pytest.mark.clause("1.7", "2.8")
@pytest.mark.parametrize("name", JSON_READERS)
@settings(max_examples=100, deadline=None)
@given(value=json_values, kind=st.sampled_from(sorted(KEYS[:2])), tag=st.sampled_from(TRICKY_TEXTS))
def test_random_objects_that_look_like_documents_are_refused(
    name: str, value: Any, kind: str, tag: str
) -> None:
    """Random objects that carry a plausible ``type`` or ``format``, to get past the first
    check of each reader."""
    document = {"type": tag, "format": 1, kind: value} if kind == "type" else {"format": 1}
    if isinstance(value, dict):
        document.update(value)
    parsed = read(name, json.dumps(document))
    if parsed is not None:
        check_parsed(name, parsed)


@pytest.mark.clause("1.7", "2.8")
@pytest.mark.parametrize("name", list(READERS))
@settings(max_examples=150, deadline=None)
@given(text=st.one_of(st.text(), st.text(alphabet='{}[]":,0123456789-.eE naflsrtu\\')))
def test_random_texts_are_read_or_refused_with_a_typed_error(name: str, text: str) -> None:
    parsed = read(name, text)
    if parsed is not None:
        check_parsed(name, parsed)


# -- (2) mutations of valid payloads ---------------------------------------------------------------

OPERATIONS = (
    "delete",
    "add",
    "replace",
    "retype",
    "deep",
    "huge",
    "nan",
    "unicode",
    "card",
    "nudge",
)


def retyped(draw: st.DrawFn, value: Any) -> Any:
    """``value`` as another JSON type, or in another form of its own type."""
    return mutations.retyped(random.Random(draw(st.integers(0, 2**32))), value)


def card_piles(data: Any) -> list[list[Any]]:
    """Every list of card ids in ``data``: the hands, decks, displays, discard piles and
    other places of a position or a view."""
    piles: list[list[Any]] = []
    if isinstance(data, list):
        if data and all(isinstance(c, str) and CARD_ID.fullmatch(c) for c in data):
            piles.append(data)
        for value in data:
            piles.extend(card_piles(value))
    elif isinstance(data, dict):
        for value in data.values():
            piles.extend(card_piles(value))
    return piles


def move_a_card(draw: st.DrawFn, data: Any) -> bool:
    """Move a card from one place to another (a semantic mutation, which keeps the JSON well
    typed); ``False`` when ``data`` has no place of cards."""
    piles = card_piles(data)
    if not piles:
        return False
    source = draw(st.sampled_from(piles))
    card = source.pop(draw(st.integers(0, len(source) - 1)))
    if draw(st.booleans()):  # or another card takes its place
        source.append(draw(st.sampled_from(CARD_IDS)))
    target = draw(st.sampled_from(piles))
    target.insert(draw(st.integers(0, len(target))), card)
    return True


def mutate(draw: st.DrawFn, data: Any) -> Any:
    """``data`` with one mutation at a random place in it."""
    if draw(st.integers(0, 2)) == 0 and move_a_card(draw, data):
        return data
    path: list[Any] = []
    node = data
    while isinstance(node, dict | list) and node and draw(st.integers(0, 4)) > 0:
        key = draw(st.sampled_from(list(node))) if isinstance(node, dict) else None
        if key is None:
            key = draw(st.integers(0, len(node) - 1))
        path.append(key)
        node = node[key]
    operation = draw(st.sampled_from(OPERATIONS))
    if not path:
        if operation == "add" and isinstance(data, dict):
            data[draw(st.sampled_from(KEYS))] = draw(json_values)
            return data
        return draw(json_values) if operation == "replace" else retyped(draw, data)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    value = parent[key]
    match operation:
        case "delete":
            del parent[key]
        case "add":
            target = value if isinstance(value, dict | list) else parent
            if isinstance(target, dict):
                target[draw(st.one_of(st.sampled_from(KEYS), st.text(max_size=5)))] = draw(
                    json_values
                )
            else:
                target.insert(draw(st.integers(0, len(target))), draw(json_values))
        case "replace":
            parent[key] = draw(json_values)
        case "retype":
            parent[key] = retyped(draw, value)
        case "deep":
            shape = draw(st.sampled_from(["deep-list", "deep-dict"]))
            parent[key] = f"@@{shape}-{draw(st.sampled_from([30, 900, 3000, 50000]))}@@"
        case "huge":
            sign = draw(st.sampled_from(["huge", "negative"]))
            parent[key] = f"@@{sign}-{draw(st.sampled_from([19, 40, 400, 4300, 4301, 20000]))}@@"
        case "nan":
            parent[key] = draw(st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e308]))
        case "unicode":
            text = value if isinstance(value, str) else str(value)
            parent[key] = draw(st.sampled_from(mutations.look_alikes(text)))
        case "card":
            parent[key] = draw(st.sampled_from(CARD_IDS))
        case _:  # nudge a number
            if isinstance(value, int) and not isinstance(value, bool):
                parent[key] = value + draw(st.sampled_from([-1, 1, -7, 100, 2**63]))
            else:
                parent[key] = draw(json_scalars)
    return data


@st.composite
def mutated_texts(draw: st.DrawFn, name: str) -> str:
    data = copy.deepcopy(draw(st.sampled_from(corpus().payloads[name])))
    for _ in range(draw(st.integers(1, 3))):
        data = mutate(draw, data)
    return render(data, ascii_only=draw(st.booleans()))


@pytest.mark.clause("1.7", "2.8")
@pytest.mark.parametrize("name", JSON_READERS)
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(data=st.data())
def test_mutated_payloads_are_read_or_refused_with_a_typed_error(
    name: str, data: st.DataObject
) -> None:
    text = data.draw(mutated_texts(name), label="text")
    parsed = read(name, text)
    if parsed is not None:
        check_parsed(name, parsed)


NOTATION_OPERATIONS = ("insert", "delete", "replace", "number", "number", "space")


@st.composite
def mutated_notations(draw: st.DrawFn, most_digits: int = 20000) -> str:
    text = draw(st.sampled_from(corpus().notations))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        operation = draw(st.sampled_from(NOTATION_OPERATIONS))
        char = draw(st.one_of(st.characters(), st.sampled_from(list(" :,-0123456789NCAPO"))))
        if operation == "insert":
            text = text[:at] + char + text[at:]
        elif operation == "delete":
            text = text[:at] + text[at + 1 :]
        elif operation == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif operation == "number":
            numbers = list(re.finditer(r"[0-9]+", text))
            if numbers:
                number = draw(st.sampled_from(numbers))
                digits = draw(
                    st.sampled_from([d for d in (2, 19, 4300, 4301, 20000) if d <= most_digits])
                )
                text = text[: number.start()] + "9" * digits + text[number.end() :]
        else:
            text = text[:at] + " " + text[at:]
    return text


@pytest.mark.clause("1.7")
@settings(max_examples=200, deadline=None)
@given(text=mutated_notations())
def test_mutated_notations_are_read_or_refused_with_a_typed_error(text: str) -> None:
    parsed = read("notation", text)
    if parsed is not None:
        assert str(parsed) == text, "a text that parses prints back as itself"
        check_parsed("notation", parsed)


STRANGE_KEYS = (0, 1, -1, None, True, 1.5, (1, 2))


def non_str_keys(rng: random.Random, data: Any) -> Any:
    """``data`` with some keys of its objects turned into keys JSON cannot have."""
    if isinstance(data, dict):
        out: dict[Any, Any] = {}
        for key, value in data.items():
            strange = rng.random() < 0.2
            out[rng.choice(STRANGE_KEYS) if strange else key] = non_str_keys(rng, value)
        if rng.random() < 0.5:
            out[rng.choice(STRANGE_KEYS)] = rng.choice(TRICKY_TEXTS)
        return out
    if isinstance(data, list):
        return [non_str_keys(rng, value) for value in data]
    return data


DATA_READERS: dict[str, Callable[[Any], object]] = {
    "action": lambda data: from_data(data, gr.Action),
    "event": lambda data: from_data(data, gr.Event),
    "view": gr.View.from_data,
    "record": gr.GameRecord.from_data,
    "position": gr.Position.from_data,
    "manifest": gr.Manifest.from_dict,
    "rules": gr.Rules.from_dict,
}
"""The readers of JSON-ready data (already parsed, perhaps by another JSON library, whose
objects may have keys that are not texts)."""


@pytest.mark.clause("1.7", "2.8")
@pytest.mark.parametrize("name", list(DATA_READERS))
def test_data_with_keys_json_cannot_have_is_refused_with_a_typed_error(name: str) -> None:
    """Seeded, not drawn by Hypothesis: the payloads are large, and shrinking them is slow."""
    rng = random.Random(name)
    reader = DATA_READERS[name]
    payloads = corpus().payloads[name]
    for index in range(40):
        strange = non_str_keys(rng, copy.deepcopy(payloads[index % len(payloads)]))
        what = f"{name} reading {str(strange)[:300]}"
        attempt(what, functools.partial(reader, strange), gr.GaiaRulesError)


@pytest.mark.clause("1.7")
def test_a_key_that_is_not_a_text_is_a_typed_error() -> None:
    """The smallest cases of the test above."""
    action = {"type": "DrawDeck", "player": 0, "kind": "nature", 1: "extra"}
    attempt("from_data(Action)", lambda: from_data(action, gr.Action), gr.JsonError)
    record = {**gr.new_game(players=2, seed=1).record().to_data(), 1: "extra"}
    attempt("GameRecord.from_data", lambda: gr.GameRecord.from_data(record), gr.RecordError)
    rules = {"format": 1, 5: "x", "y": 1}
    attempt("Rules.from_dict", lambda: gr.Rules.from_dict(rules), gr.RulesError)


# -- records: the first bad action is named ------------------------------------------------


@pytest.mark.clause("1.7")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_record_that_does_not_replay_names_its_first_bad_action(data: st.DataObject) -> None:
    record = gr.GameRecord.from_data(data.draw(st.sampled_from(corpus().payloads["record"])))
    assume(record.actions)
    index = data.draw(st.integers(0, len(record.actions) - 1), label="index")
    if record.start is None:
        game = gr.new_game(record.players, record.rules, record.seed, record.first_player)
    else:
        game = record.start.to_game()
    for action in record.actions[:index]:
        game.apply(action)
    candidates = [
        *(gr.from_json(json.dumps(a), gr.Action) for a in corpus().payloads["action"][::5]),
        *(attrs.evolve(a, player=(a.player + 1) % record.players) for a in game.legal_actions()),
    ]
    bad = data.draw(st.sampled_from(candidates), label="bad")
    assume(bad not in game.legal_actions())
    broken = attrs.evolve(record, actions=(*record.actions[:index], bad, *record.actions[index:]))
    text = broken.to_json()
    parsed = read("record", text)
    assert parsed == broken
    with pytest.raises(gr.RecordError) as error:
        parsed.replay()
    assert error.value.index == index, str(error.value)
    assert f"action {index}" in str(error.value)


@pytest.mark.clause("1.7")
def test_a_record_whose_result_differs_is_refused_at_its_end() -> None:
    for payload in corpus().payloads["record"]:
        record = gr.GameRecord.from_data(payload)
        if record.result is None:
            continue
        cut = attrs.evolve(record, actions=record.actions[:-1])
        with pytest.raises(gr.RecordError) as error:
            cut.replay()
        assert error.value.index == len(cut.actions)
        return
    pytest.fail("the corpus has no finished game")


@pytest.mark.clause("1.7", "2.8")
def test_a_record_whose_manifest_is_of_another_edition_than_its_rules_is_a_record_error() -> None:
    """The record parses; its manifest is the FIRST edition's while its rules say THIRD. The
    replay must refuse it as a bad record, not let the ``RulesError`` of the setup escape."""
    record = gr.new_game(players=2, seed=1).record()
    text = record.to_json().replace('"edition":"third"', '"edition":"first"', 1)
    parsed = read("record", text)
    assert parsed is not None and parsed.rules.edition is gr.Edition.FIRST
    with pytest.raises(gr.RecordError):
        parsed.replay()
    other = attrs.evolve(record, manifest=gr.Manifest.builtin(gr.Edition.FIRST))
    with pytest.raises(gr.RecordError):
        other.replay()


# -- positions: impossible ones are refused -----------------------------------------------------


def base_position(rules: gr.Rules | None = None) -> gr.Position:
    return (
        gr.PositionBuilder(players=3, rules=rules or gr.Rules.powers(), seed=4)
        .tile(0, 0, gr.Land.PLAIN)
        .hand(0, "N01", "C01")
        .hand(1, "N02")
        .turn(1, action=1)
        .build()
    )


def moved(position: gr.Position, card: str, **places: Any) -> gr.Position:
    """``position`` with ``card`` taken out of wherever it was and the places replaced."""

    def without(pile: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(c for c in pile if c != card)

    stripped = attrs.evolve(
        position,
        hands=tuple(without(hand) for hand in position.hands),
        decks={kind: without(pile) for kind, pile in position.decks.items()},
        displays={kind: without(pile) for kind, pile in position.displays.items()},
        discards={kind: without(pile) for kind, pile in position.discards.items()},
        objectives=without(position.objectives),
        out_of_game=without(position.out_of_game),
    )
    return attrs.evolve(stripped, **{name: place(stripped) for name, place in places.items()})


def impossible_positions() -> dict[str, gr.Position]:
    p = base_position()
    nature, power = p.decks[K.NATURE][0], p.decks[K.POWER][0]
    hidden_objective = next(c for c in p.out_of_game if c.startswith("O"))
    basic = base_position(gr.Rules.basic())
    first = basic.objectives[0]
    return {
        "a card in two places (16.2)": attrs.evolve(p, hands=((*p.hands[0], nature), *p.hands[1:])),
        "a card in no place (16.2)": moved(p, nature),
        "seven cards in a hand (16.7)": attrs.evolve(
            p,
            hands=((*p.hands[0], *p.decks[K.NATURE][:5]), *p.hands[1:]),
            decks={**p.decks, K.NATURE: p.decks[K.NATURE][5:]},
        ),
        "an Objective in a hand (16.2)": moved(
            p, hidden_objective, hands=lambda q: ((*q.hands[0], hidden_objective), *q.hands[1:])
        ),
        "an Objective in a deck (16.2)": moved(
            p,
            hidden_objective,
            decks=lambda q: {**q.decks, K.LIFE: (*q.decks[K.LIFE], hidden_objective)},
        ),
        "an Objective in a discard pile (16.2)": moved(
            p,
            hidden_objective,
            discards=lambda q: {**q.discards, K.NATURE: (hidden_objective,)},
        ),
        "a Nature card out of the game (16.2)": moved(
            p, nature, out_of_game=lambda q: (*q.out_of_game, nature)
        ),
        "a Power card of the level's deck out of the game (16.2)": moved(
            p, power, out_of_game=lambda q: (*q.out_of_game, power)
        ),
        "a display with more cards than its slots (3.8, 6.1)": moved(
            p, nature, displays=lambda q: {**q.displays, K.NATURE: (*q.displays[K.NATURE], nature)}
        ),
        "fewer revealed Objectives than players + 2 (4.4)": moved(
            p, p.objectives[0], out_of_game=lambda q: (*q.out_of_game, p.objectives[0])
        ),
        "a Power Objective revealed below the powers level (4.4)": moved(
            moved(basic, basic.objectives[0], out_of_game=lambda q: (*q.out_of_game, first)),
            "O08",
            objectives=lambda q: (*q.objectives, "O08"),
        ),
    }


IMPOSSIBLE = impossible_positions()


@pytest.mark.clause("1.7", "16.2")
@pytest.mark.parametrize("fault", list(IMPOSSIBLE))
def test_an_impossible_position_is_refused_with_a_position_error(fault: str) -> None:
    position = IMPOSSIBLE[fault]
    text = position.to_json()
    parsed = read("position", text)
    assert parsed == position
    with no_hang(), pytest.raises(gr.PositionError):
        parsed.to_game()


@pytest.mark.clause("1.7")
def test_the_base_of_the_impossible_positions_is_possible() -> None:
    for rules in (gr.Rules.powers(), gr.Rules.basic()):
        game = base_position(rules).to_game()
        check_invariants(game)


# -- notation ------------------------------------------------------------------------------


@pytest.mark.clause("1.7")
@pytest.mark.parametrize("digits", [19, 4300, 4301, 20000])
def test_a_square_with_a_huge_number_is_a_notation_error_or_a_square(digits: int) -> None:
    """Python refuses to read integers of more than 4300 digits; that refusal must reach the
    caller as a :class:`NotationError`, not as a bare ``ValueError``."""
    number = "9" * digits
    for text in (f"0: play N01 {number},0", f"0: feed 0,0 from 1,-{number}", f"1: pawn {number},1"):
        parsed = read("notation", text)
        assert parsed is None or str(parsed) == text


# -- (3) a refused input leaves the game as it was -------------------------------------------


@pytest.mark.clause("1.7")
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_a_game_that_refuses_a_parsed_action_is_unchanged(data: st.DataObject) -> None:
    found = corpus()
    game = data.draw(st.sampled_from(found.games), label="game").copy()
    source = data.draw(st.sampled_from(["json", "mutated json", "notation"]), label="source")
    if source == "json":
        action = gr.from_json(
            json.dumps(data.draw(st.sampled_from(found.payloads["action"]))), gr.Action
        )
    elif source == "mutated json":
        action = read("action", data.draw(mutated_texts("action"), label="text"))
        assume(action is not None)
    else:
        # numbers Python can read: the longer ones are the notation fuzzer's business
        action = read("notation", data.draw(mutated_notations(most_digits=4300), label="text"))
        assume(action is not None)
    apply_or_refuse(game, action)


def _with_plain_tuples(action: gr.Action) -> gr.Action | None:
    """``action`` with each square replaced by the plain tuple of its coordinates; ``None``
    when it names no square."""
    squares: dict[str, Any] = {
        field.name: (value.x, value.y)
        for field in attrs.fields(type(action))
        if isinstance(value := getattr(action, field.name), gr.Pos)
    }
    return attrs.evolve(action, **squares) if squares else None


@pytest.mark.clause("1.7", "3.1")
def test_a_plain_tuple_in_place_of_a_square_is_refused_and_changes_nothing() -> None:
    # A square equals the tuple of its coordinates, so such an action equals a legal one:
    # only its type tells it apart, and it must never stand in the world.
    tried: set[str] = set()
    for index in range(24):
        game = gr.new_game(players=2 + index % 4, rules=LEVELS[index % 4], seed=100 + index)
        rng = random.Random(index)
        while not game.is_over:
            legal = game.legal_actions()
            for action in rng.sample(list(legal), min(3, len(legal))):
                twisted = _with_plain_tuples(action)
                if twisted is None:
                    continue
                assert twisted == action
                assert not game.is_legal(twisted)
                before = snapshot(game)
                with pytest.raises(gr.IllegalActionError) as refused:
                    game.apply(twisted)
                assert refused.value.clause == "3.1", refused.value
                assert snapshot(game) == before
                tried.add(type(action).__name__)
            game.apply(rng.choice(legal))
    assert tried >= {
        "PlayNature",
        "PlayAnimals",
        "PlayCity",
        "Feed",
        "PlaySun",
        "PlayRain",
        "PlayEarthquake",
        "PlayLightning",
        "PlayEruption",
    }, tried


@pytest.mark.clause("1.7", "3.1")
@pytest.mark.parametrize("place", ["tiles", "animals", "cities"])
def test_a_position_with_a_plain_tuple_for_a_square_is_a_position_error(place: str) -> None:
    position = (
        gr.PositionBuilder(players=2, rules=gr.Rules.basic(), seed=4)
        .tile(0, 0, gr.Land.DESERT)
        .tile(1, 0, gr.Land.FOREST, animals=2)
        .tile(0, 1, gr.Land.SEA)
        .tile(1, 1, gr.Land.PLAIN)
        .city(0, 0, "C01", pawns=[0])  # Alexandria: sea and animals met
        .hand(0, "N01")
        .turn(0, action=1)
        .build()
    )
    position.to_game()
    squares = getattr(position, place)
    assert squares, place
    plain: dict[str, Any] = {place: {(p.x, p.y): v for p, v in squares.items()}}
    twisted = attrs.evolve(position, **plain)
    assert twisted == position  # a square equals its tuple: only the type tells
    with pytest.raises(gr.PositionError, match=r"expected a square, Pos\(x, y\) .*\(3\.1\)"):
        twisted.to_game()
