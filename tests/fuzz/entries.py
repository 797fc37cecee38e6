"""The public entry points the fuzz suite feeds, each with the error it must refuse with and
what must hold of what it accepts (spec 1.7, 1.10, 1.10a).

Every input is drawn by Hypothesis (:class:`Entry.draw`) and handed over
(:class:`Entry.attempt`). The entry point must answer, within the time limit, with a value or
with its own typed error; any other exception is a failure, and so is a refused ``apply`` that
changed the game. What is accepted must hold up: a record replays or names the action that
diverges, a position becomes a game that keeps every invariant (spec 16) and plays on, a view
samples a game that shows it back, an action applies only if it was listed, a value read
from JSON writes back to the same JSON.
"""

from __future__ import annotations

import random
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.invariants import violations
from gaia_rules.notation import NotationError, parse_action
from tests.fuzz.corpus import corpus
from tests.fuzz.mutations import mutate, random_json, render, twist
from tests.oracle.legal import accepted_actions
from tests.oracle.model import plain_of

__all__ = ["ENTRIES", "Entry", "Escaped", "apply_or_refuse"]


class Escaped(AssertionError):  # noqa: N818 (a failure of the contract, not an error of ours)
    """An entry point answered an input with something other than a value or its own error,
    or broke what must hold of what it accepts."""


@dataclass(frozen=True)
class Entry:
    """One entry point: how its inputs are drawn, and how one is handed over."""

    name: str
    error: type[gr.GaiaRulesError]
    draw: Callable[[st.DataObject], Any]
    attempt: Callable[[Any], bool]
    """Hands one input over; ``True`` if it was accepted, ``False`` if refused with
    ``error``; raises :class:`Escaped` for anything else."""


def _answer(call: Callable[[], Any], error: type[gr.GaiaRulesError], what: str) -> Any:
    """``call()``'s value, or ``None`` when it raised ``error``; :class:`Escaped` for any
    other exception."""
    try:
        return call()
    except error:
        return None
    except Escaped:
        raise
    except Exception as exc:  # the contract under test: nothing else may escape
        raise Escaped(f"{what}: {type(exc).__name__} escaped: {str(exc)[:300]}") from exc


# -- what must hold of what is accepted ------------------------------------------------------------


def _snapshot(game: gr.Game) -> tuple[object, ...]:
    return (game.state, len(game.events), game.actions)


def _exact(value: object) -> bool:
    """Whether an action holds values of exactly the types its class declares: a seat an
    ``int``, a card a ``str``, a square a ``Pos`` of two ``int``, a back a ``CardKind``
    (read here plainly, apart from the library's own rule)."""
    kind = type(value)
    if kind not in _ACTION_CLASSES:
        return False
    for name, wanted in typing.get_type_hints(kind).items():
        item = getattr(value, name)
        if type(item) is not wanted:
            return False
        if wanted is gr.Pos and not all(type(coordinate) is int for coordinate in item):
            return False
    return True


def _same_choice(game: gr.Game, action: object) -> gr.Action | None:
    """The listed action ``action`` is the same choice as: itself, or the one naming another
    copy of its card's face in the same place (1.12); ``None`` if none is."""
    legal = set(game.legal_actions())
    if not _exact(action) or game.decision is None:
        return None
    if action in legal:
        return action
    plain = plain_of(game.state)
    for listed in legal:
        if action in accepted_actions(plain, game.decision, {listed}):
            return listed
    return None


def apply_or_refuse(game: gr.Game, action: object) -> bool:
    """``action`` applies if ``legal_actions()`` lists it or another copy of its card's face
    in the same place, the same choice (1.12), and does what the listed one does (and it
    holds values of exactly its types: one equal to a listed action but of other types is
    not listed, 1.10a); otherwise it is refused with ``IllegalActionError`` and the game is
    exactly as it was (1.7)."""
    listed = _same_choice(game, action)
    twin = None if listed is None or listed == action else game.copy()
    before = _snapshot(game)
    try:
        events = game.apply(action)  # type: ignore[arg-type]
    except gr.IllegalActionError:
        if listed is not None:
            raise Escaped(f"{action!r} is listed (as {listed!r}) but refused") from None
        if _snapshot(game) != before:
            raise Escaped(f"refusing {action!r} changed the game") from None
        return False
    except Exception as exc:
        raise Escaped(f"apply({action!r}): {type(exc).__name__} escaped: {exc}") from exc
    if listed is None:
        raise Escaped(f"{action!r} applied but is not listed")
    if twin is not None and (twin.apply(listed) != events or twin.state != game.state):
        raise Escaped(f"{action!r} did not do what the listed {listed!r} does (1.12)")
    return True


_ACTION_CLASSES = frozenset(typing.get_args(gr.Action))


def _plays_on(game: gr.Game, seed: int, steps: int = 4) -> None:
    """A game the library made keeps every invariant (spec 16) and plays on."""
    rng = random.Random(seed)
    for _ in range(steps + 1):
        broken = violations(game)
        if broken:
            raise Escaped(f"an accepted input made a game that breaks {broken[:3]}")
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


def _game_of(value: Any) -> gr.Game:
    return corpus().games[len(repr(value)) % len(corpus().games)].copy()


def _replays(record: gr.GameRecord) -> bool:
    game = _answer(record.replay, gr.RecordError, "replay")
    if game is not None:
        if game.actions != record.actions:
            raise Escaped("a record replayed to other actions")
        _plays_on(game, len(record.actions), steps=2)
    return game is not None


def _starts(position: gr.Position) -> bool:
    game = _answer(position.to_game, gr.PositionError, "to_game")
    if game is not None:
        _plays_on(game, len(position.tiles))
    return game is not None


def _samples(view: gr.View) -> bool:
    sample = _answer(lambda: gr.determinize(view, random.Random(0)), gr.ViewError, "determinize")
    if sample is None:
        return False
    if sample.view(view.seat) != view:
        raise Escaped("an accepted view samples a game that shows its seat another view")
    _plays_on(sample, view.seat, steps=2)
    return True


def _round_trip(kind: Any) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        if gr.from_json(gr.to_json(value), kind) != value:
            raise Escaped(f"{value!r} does not read back as itself")
        return True

    return check


# -- JSON text ---------------------------------------------------------------------------------


SEEDS = st.integers(0, 2**64 - 1)
"""The seed of an input's fine choices (which place of a document, which value)."""

PAYLOAD_KINDS = (
    "action",
    "event",
    "manifest",
    "position",
    "record",
    "rules",
    "state",
    "step",
    "view",
)


def _fine(data: st.DataObject) -> random.Random:
    """The generator of an input's fine choices, from a seed Hypothesis draws: an input is a
    handful of draws (each costs Hypothesis some tens of microseconds), and Hypothesis still
    shrinks a failing one by its seed, its document and its number of changes."""
    return random.Random(data.draw(SEEDS, label="seed"))


def _json_text(payload: str) -> Callable[[st.DataObject], str]:
    """Draws JSON text for a reader: mostly a real payload of its kind with one to three
    mutations, sometimes a payload of another kind, a random JSON value or random text."""

    def draw(data: st.DataObject) -> str:
        rng = _fine(data)
        choice = data.draw(SOURCES, label="source")
        if choice == 0:
            return "".join(rng.choice('{}[]":,0123456789-.eE naflsrtu\\■') for _ in range(40))
        if choice == 1:
            return render(random_json(rng))
        payloads = corpus().payloads
        kind = payload if choice > 3 else rng.choice(PAYLOAD_KINDS)
        value = data.draw(st.sampled_from(payloads[kind]), label=kind)
        for _ in range(data.draw(MUTATIONS, label="mutations")):
            value = mutate(rng, value)
        return render(value, ascii_only=rng.random() < 0.5)

    return draw


SOURCES = st.integers(0, 19)
MUTATIONS = st.integers(1, 3)


def _reader(
    read: Callable[[str], Any],
    error: type[gr.GaiaRulesError],
    check: Callable[[Any], bool],
) -> Callable[[Any], bool]:
    def attempt(text: Any) -> bool:
        value = _answer(lambda: read(text), error, "reading")
        return value is not None and check(value)

    return attempt


def _applies(value: Any) -> bool:
    apply_or_refuse(_game_of(value), value)
    return True


def _json_action(value: Any) -> bool:
    _round_trip(gr.Action)(value)
    apply_or_refuse(_game_of(value), value)
    return True


def _notation(data: st.DataObject) -> str:
    rng = _fine(data)
    text = data.draw(st.sampled_from(corpus().notations), label="notation")
    for _ in range(data.draw(EDITS, label="edits")):
        at = rng.randint(0, len(text))
        char = rng.choice([*" :,-0123456789NCAPO", chr(rng.randrange(0x110000))])
        match rng.choice(["insert", "delete", "replace", "number"]):
            case "insert":
                text = text[:at] + char + text[at:]
            case "delete":
                text = text[:at] + text[at + 1 :]
            case "replace":
                text = text[:at] + char + text[at + 1 :]
            case _:
                text = text[:at] + "9" * rng.choice([2, 19, 4300, 4301, 20000]) + text[at:]
    return text


EDITS = st.integers(0, 3)


# -- objects -----------------------------------------------------------------------------------


TWISTS = st.integers(0, 2)


def _objects(source: Callable[[], tuple[Any, ...]]) -> Callable[[st.DataObject], Any]:
    """Draws a real object and twists one value inside it (sometimes two, sometimes none);
    the object itself stays of its class, whose method is called."""

    def draw(data: st.DataObject) -> Any:
        rng = _fine(data)
        value = data.draw(st.sampled_from(source()), label="object")
        for _ in range(data.draw(TWISTS, label="twists")):
            value = twist(rng, value, inside=True)
        return value

    return draw


def _views(data: st.DataObject) -> Any:
    """A real view with a value inside it twisted, or, now and then, not a view at all."""
    view = _objects(lambda: corpus().views)(data)
    return twist(random.Random(len(repr(view))), view) if data.draw(SOURCES) == 0 else view


def _action_input(data: st.DataObject) -> tuple[gr.Game, object]:
    rng = _fine(data)
    game = data.draw(st.sampled_from(corpus().games), label="game").copy()
    source = data.draw(SOURCES, label="source")
    if source < 2:
        action: object = random_json(rng)
    elif source < 8:
        legal = list(game.legal_actions())
        action = rng.choice(legal)
        if game.decision is not None and rng.random() < 0.5:  # another copy: the same choice
            plain = plain_of(game.state)
            same = accepted_actions(plain, game.decision, set(legal)) - set(legal)
            copies = sorted(same, key=repr)
            action = rng.choice(copies) if copies else action
    else:
        action = rng.choice(corpus().actions)
    for _ in range(data.draw(TWISTS, label="twists")):
        action = twist(rng, action)
    return game, action


def _apply(value: tuple[gr.Game, object]) -> bool:
    game, action = value
    return apply_or_refuse(game, action)


def _is_legal(value: tuple[gr.Game, object]) -> bool:
    game, action = value
    try:
        said = game.is_legal(action)
    except Exception as exc:
        raise Escaped(f"is_legal({action!r}): {type(exc).__name__} escaped: {exc}") from exc
    if type(said) is not bool:
        raise Escaped(f"is_legal({action!r}) answered {said!r}")
    if said != apply_or_refuse(game.copy(), action):
        raise Escaped(f"is_legal({action!r}) says {said}, apply says otherwise")
    return said


_BUILDER_CALLS = (
    ("tile", (0, 1, gr.Land.PLAIN, 0)),
    ("city", (0, 1, "C01", (0,))),
    ("hand", (0, "N01", "C02")),
    ("tableau", (1, "N07")),
    ("deck", (gr.CardKind.NATURE, "N02", "N03")),
    ("display", (gr.CardKind.LIFE, "C05")),
    ("discard_pile", (gr.CardKind.NATURE, "N04")),
    ("objectives", ("O01", "O02", "O03", "O04")),
    ("turn", (1, 1, 0)),
    ("steps", (gr.ChooseAction(0, 1),)),
    ("set_aside", ("N05", 1)),
    ("reached_four", (0, 1)),
    ("random_draws", (3,)),
)
"""Each method of the builder with arguments of the right types, to twist."""


def _builder_input(data: st.DataObject) -> tuple[int, list[tuple[str, tuple[Any, ...]]]]:
    rng = _fine(data)
    players: Any = rng.choice([2, 3, 4, 5, 1, 6, True, 2.0, "2"])
    calls = []
    for _ in range(data.draw(st.integers(1, 6), label="calls")):
        name, arguments = rng.choice(_BUILDER_CALLS)
        if rng.random() < 0.5:
            at = rng.randrange(len(arguments))
            arguments = (*arguments[:at], twist(rng, arguments[at]), *arguments[at + 1 :])
        calls.append((name, arguments))
    return players, calls


def _builds(value: tuple[Any, list[tuple[str, tuple[Any, ...]]]]) -> bool:
    players, calls = value

    def build() -> gr.Position:
        builder = gr.PositionBuilder(players, rules=gr.Rules.powers(), seed=1)
        builder.tile(0, 0, gr.Land.DESERT)
        for name, arguments in calls:
            getattr(builder, name)(*arguments)
        return builder.build()

    position = _answer(build, gr.PositionError, "the builder")
    return position is not None and _starts(position)


def _seats_input(data: st.DataObject) -> tuple[gr.Game, str, object]:
    rng = _fine(data)
    game = data.draw(st.sampled_from(corpus().games), label="game")
    method = rng.choice(["view", "events_for", "pawns_placed", "new_game"])
    value = rng.choice([rng.randint(-3, 8), random_json(rng), True, 1.0, gr.Pos(0, 0)])
    return game, method, value


def _seats(value: tuple[gr.Game, str, object]) -> bool:
    game, method, argument = value
    if method == "new_game":
        made = _answer(lambda: gr.new_game(argument, seed=1), gr.RulesError, "new_game")  # type: ignore[arg-type]
        if made is not None:
            _plays_on(made, 1, steps=2)
        return made is not None
    call: Callable[[], Any] = lambda: getattr(game, method)(argument)  # noqa: E731
    return _answer(call, gr.SeatError, method) is not None


ENTRIES: tuple[Entry, ...] = (
    Entry(
        "Action JSON",
        gr.JsonError,
        _json_text("action"),
        _reader(lambda t: gr.from_json(t, gr.Action), gr.JsonError, _json_action),
    ),
    Entry(
        "Event JSON",
        gr.JsonError,
        _json_text("event"),
        _reader(lambda t: gr.from_json(t, gr.Event), gr.JsonError, _round_trip(gr.Event)),
    ),
    Entry(
        "Step JSON",
        gr.JsonError,
        _json_text("step"),
        _reader(lambda t: gr.from_json(t, gr.Step), gr.JsonError, _round_trip(gr.Step)),
    ),
    Entry(
        "View JSON",
        gr.JsonError,
        _json_text("view"),
        _reader(gr.View.from_json, gr.JsonError, _samples),
    ),
    Entry(
        "GameState JSON",
        gr.JsonError,
        _json_text("state"),
        _reader(gr.GameState.from_json, gr.JsonError, _round_trip(gr.GameState)),
    ),
    Entry(
        "GameRecord JSON",
        gr.RecordError,
        _json_text("record"),
        _reader(gr.GameRecord.from_json, gr.RecordError, _replays),
    ),
    Entry(
        "Position JSON",
        gr.PositionError,
        _json_text("position"),
        _reader(gr.Position.from_json, gr.PositionError, _starts),
    ),
    Entry(
        "Manifest JSON",
        gr.ManifestError,
        _json_text("manifest"),
        _reader(gr.Manifest.from_json, gr.ManifestError, lambda m: True),
    ),
    Entry(
        "Rules JSON",
        gr.RulesError,
        _json_text("rules"),
        _reader(gr.Rules.from_json, gr.RulesError, _round_trip(gr.Rules)),
    ),
    Entry("notation", NotationError, _notation, _reader(parse_action, NotationError, _applies)),
    Entry("Game.apply", gr.IllegalActionError, _action_input, _apply),
    Entry("Game.is_legal", gr.IllegalActionError, _action_input, _is_legal),
    Entry("PositionBuilder", gr.PositionError, _builder_input, _builds),
    Entry("Position.to_game", gr.PositionError, _objects(lambda: corpus().positions), _starts),
    Entry("determinize", gr.ViewError, _views, _samples),
    Entry("GameRecord.replay", gr.RecordError, _objects(lambda: corpus().records), _replays),
    Entry("seats and new_game", gr.SeatError, _seats_input, _seats),
)
"""Every public entry point of untrusted input, by name."""
