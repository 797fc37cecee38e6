"""The action notation of :mod:`gaia_rules.notation` (spec 5.4: decisions and actions).

Every action prints to a text that parses back to it, every well-formed text parses to an
action that prints back to it, and any other text raises ``NotationError``, never anything
else.
"""

from __future__ import annotations

import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import CardKind, Land, Pos
from gaia_rules.notation import NotationError, format_action, parse_action
from gaia_rules.position import PositionBuilder

ACTION_TYPES: tuple[type[gr.Action], ...] = (
    gr.DrawDisplay,
    gr.DrawDeck,
    gr.PlayNature,
    gr.PlayAnimals,
    gr.PlayCity,
    gr.Feed,
    gr.Discard,
    gr.FulfillObjective,
    gr.DeclineObjectives,
    gr.PlaceCityPawn,
)
CARD_ID = re.compile(r"[NCAPO][0-9]{2}")


def check_round_trip(action: gr.Action) -> None:
    text = format_action(action)
    assert str(action) == text
    assert parse_action(text) == action, text
    assert format_action(parse_action(text)) == text


def card_ids(action: gr.Action) -> list[str]:
    """The card ids an action names."""
    return [
        value
        for field in attrs.fields(type(action))
        if isinstance(value := getattr(action, field.name), str)
    ]


# -- examples of the module docstring ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("1: draw N07", gr.DrawDisplay(1, "N07")),
        ("1: draw nature", gr.DrawDeck(1, CardKind.NATURE)),
        ("0: draw life", gr.DrawDeck(0, CardKind.LIFE)),
        ("4: draw power", gr.DrawDeck(4, CardKind.POWER)),
        ("1: play N07 2,-1", gr.PlayNature(1, "N07", Pos(2, -1))),
        ("2: play A03 0,0", gr.PlayAnimals(2, "A03", Pos(0, 0))),
        ("3: play C19 -4,12", gr.PlayCity(3, "C19", Pos(-4, 12))),
        ("1: feed 0,1 from 1,1", gr.Feed(1, Pos(0, 1), Pos(1, 1))),
        ("1: discard C04", gr.Discard(1, "C04")),
        ("1: fulfil O02", gr.FulfillObjective(1, "O02")),
        ("1: decline", gr.DeclineObjectives(1)),
        ("1: pawn 2,0", gr.PlaceCityPawn(1, Pos(2, 0))),
    ],
)
def test_the_documented_examples(text: str, action: gr.Action) -> None:
    assert parse_action(text) == action
    assert format_action(action) == text
    assert str(action) == text


# -- actions of random games -------------------------------------------------------------------


def scarce_pawn_game() -> gr.Game:
    """Seat 0 has one pawn left and a plain at (1, 0) raises two cities: a pawn decision."""
    return (
        PositionBuilder(players=3)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.SWAMP)
        .tile(1, 1, Land.SEA)
        .tile(2, 1, Land.DESERT)
        .tile(2, 0, Land.MOUNTAIN)
        .city(0, 0, "C10")  # Sparta: plain, swamp, forest, sea
        .city(2, 0, "C09")  # Cuzco: forest, plain, animals, desert
        .hand(0, "N07")
        .objectives(
            "O01",
            "O02",
            "O03",
            "O04",
            "O05",
            fulfilled={o: 0 for o in ("O01", "O02", "O03", "O04")},
        )
        .turn(0)
        .to_game()
    )


def test_a_pawn_decision_names_its_cities_in_notation() -> None:
    game = scarce_pawn_game()
    game.apply(gr.PlayNature(0, "N07", Pos(1, 0)))
    assert isinstance(game.decision, gr.ChoosePawnCities)
    actions = game.legal_actions()
    assert sorted(format_action(a) for a in actions) == ["0: pawn 0,0", "0: pawn 2,0"]
    for action in actions:
        check_round_trip(action)


def random_game_actions(games: int) -> list[gr.Action]:
    """Every legal action offered at every step of some random games, under varied rules."""
    found: list[gr.Action] = []
    for seed in range(games):
        rules = gr.Rules.basic(
            objectives="optional" if seed % 2 else "mandatory",
            feeding="every_city" if seed % 3 == 0 else "pawn_holder",
            edition="first" if seed % 5 == 4 else "third",
        )
        game = gr.new_game(players=2 + seed % 4, rules=rules, seed=seed, first_player=seed % 2)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            found += legal
            game.apply(rng.choice(legal))
        found += game.actions
    return found


def test_every_action_of_random_games_round_trips() -> None:
    actions = random_game_actions(16)
    scarce = scarce_pawn_game()
    scarce.apply(gr.PlayNature(0, "N07", Pos(1, 0)))
    actions += scarce.legal_actions()
    kinds = {type(action) for action in actions}
    assert kinds == set(ACTION_TYPES), set(ACTION_TYPES) - kinds
    for action in dict.fromkeys(actions):
        check_round_trip(action)


def test_actions_taken_by_the_engine_round_trip_too() -> None:
    game = gr.new_game(players=2, seed=8)
    rng = random.Random(8)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    taken = [e.action for e in game.events if isinstance(e, gr.ActionTaken) and e.action]
    assert any(e.by_engine for e in game.events if isinstance(e, gr.ActionTaken))
    for action in taken:
        check_round_trip(action)


# -- hypothesis: any action, any well-formed text ---------------------------------------------

seats = st.integers(0, 9)
cards = st.from_regex(CARD_ID, fullmatch=True)
squares = st.builds(Pos, st.integers(-(10**9), 10**9), st.integers(-(10**9), 10**9))


def _played(prefix: str) -> st.SearchStrategy[str]:
    return st.from_regex(rf"{prefix}[0-9]{{2}}", fullmatch=True)


actions: st.SearchStrategy[gr.Action] = st.one_of(
    st.builds(gr.DrawDisplay, seats, cards),
    st.builds(gr.DrawDeck, seats, st.sampled_from(CardKind)),
    st.builds(gr.PlayNature, seats, _played("N"), squares),
    st.builds(gr.PlayAnimals, seats, _played("A"), squares),
    st.builds(gr.PlayCity, seats, _played("C"), squares),
    st.builds(gr.Feed, seats, squares, squares),
    st.builds(gr.Discard, seats, cards),
    st.builds(gr.FulfillObjective, seats, cards),
    st.builds(gr.DeclineObjectives, seats),
    st.builds(gr.PlaceCityPawn, seats, squares),
)


@settings(max_examples=400, deadline=None)
@given(action=actions)
def test_parse_of_format_is_the_action(action: gr.Action) -> None:
    check_round_trip(action)


seat_texts = st.integers(0, 9).map(str)
square_texts = st.tuples(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6)).map(
    lambda xy: f"{xy[0]},{xy[1]}"
)
card_texts = st.from_regex(CARD_ID, fullmatch=True)


@st.composite
def well_formed_texts(draw: st.DrawFn) -> str:
    """A text from the grammar of the module docstring."""
    seat = draw(seat_texts)
    verb = draw(st.sampled_from(["draw", "draw deck", "play", "feed", "discard", "fulfil"]))
    verb = draw(st.sampled_from([verb, "decline", "pawn"]))
    if verb == "draw":
        rest = f"draw {draw(card_texts)}"
    elif verb == "draw deck":
        rest = f"draw {draw(st.sampled_from(['nature', 'life', 'power']))}"
    elif verb == "play":
        card = draw(st.sampled_from("NAC")) + draw(st.from_regex(r"[0-9]{2}", fullmatch=True))
        rest = f"play {card} {draw(square_texts)}"
    elif verb == "feed":
        rest = f"feed {draw(square_texts)} from {draw(square_texts)}"
    elif verb == "pawn":
        rest = f"pawn {draw(square_texts)}"
    elif verb == "decline":
        rest = "decline"
    else:
        rest = f"{verb} {draw(card_texts)}"
    return f"{seat}: {rest}"


@settings(max_examples=400, deadline=None)
@given(text=well_formed_texts())
def test_format_of_parse_is_the_text(text: str) -> None:
    action = parse_action(text)
    assert isinstance(action, ACTION_TYPES)
    assert format_action(action) == text
    assert str(action) == text


# -- malformed texts ---------------------------------------------------------------------------

MALFORMED = [
    "",
    "1",
    "1:",
    "1: ",
    ":draw nature",
    "1:draw nature",
    "1:  draw nature",
    "1: draw  nature",
    "1: draw nature ",
    " 1: draw nature",
    "1 : draw nature",
    "10: draw nature",
    "-1: decline",
    "a: decline",
    "one: decline",
    "1: Draw nature",
    "1: DRAW NATURE",
    "1: draw Nature",
    "1: draw",
    "1: draw nature life",
    "1: draw cards",
    "1: draw N7",
    "1: draw n07",
    "1: draw N007",
    "1: draw X01",
    "1: play P01 0,0",
    "1: play O01 0,0",
    "1: play N07",
    "1: play N07 0 0",
    "1: play N07 0,",
    "1: play N07 ,0",
    "1: play N07 (0,0)",
    "1: play N07 0,0,0",
    "1: play N07 0;0",
    "1: play N07 +1,0",
    "1: play N07 1.5,0",
    "1: play 0,0 N07",
    "1: feed 0,1 to 1,1",
    "1: feed 0,1 1,1",
    "1: feed 0,1 from",
    "1: feed from 1,1",
    "1: discard",
    "1: discard nature",
    "1: fulfil",
    "1: fulfil O1",
    "1: decline now",
    "1: pawn",
    "1: pawn x,y",
    "1: pawn 0,0 1,1",
    "1: pass now",
    "1: sun P01",
    "1: earthquake P13 0,0",
    "1: steal two life",
    "1: steal 2 lives",
    "1: keep",
    "1: draw nature\t",
    "1:\tdraw nature",
    "1: draw\u00a0nature",
    "\u0661: decline",  # an Arabic-Indic digit one
    "1\uff1a draw nature",  # a full-width colon
]


@pytest.mark.parametrize("text", MALFORMED)
def test_a_malformed_text_raises_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text)


def test_notation_error_is_a_gaia_rules_error() -> None:
    assert issubclass(NotationError, gr.GaiaRulesError)
    with pytest.raises(gr.GaiaRulesError):
        parse_action("1: wait")


@pytest.mark.parametrize("value", [None, 1, b"1: decline", ["1: decline"], gr.DeclineObjectives(1)])
def test_a_value_that_is_not_text_raises_notation_error(value: object) -> None:
    with pytest.raises(NotationError):
        parse_action(value)  # type: ignore[arg-type]


def _parses_or_refuses(text: str) -> None:
    try:
        action = parse_action(text)
    except NotationError as exc:
        assert str(exc)
        return
    assert isinstance(action, ACTION_TYPES)
    assert parse_action(format_action(action)) == action


@settings(max_examples=500, deadline=None)
@given(text=st.text())
def test_random_text_parses_or_raises_notation_error_only(text: str) -> None:
    _parses_or_refuses(text)


@settings(max_examples=500, deadline=None)
@given(
    text=well_formed_texts(),
    at=st.integers(0, 40),
    drop=st.integers(0, 3),
    insert=st.text(max_size=3),
)
def test_mutated_texts_parse_or_raise_notation_error_only(
    text: str, at: int, drop: int, insert: str
) -> None:
    at = min(at, len(text))
    _parses_or_refuses(text[:at] + insert + text[at + drop :])


# -- a text that parses must be the text of its action ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "0: pawn 01,2",  # leading zero
        "0: pawn -0,2",  # negative zero
        "0: play N07 007,-03",
        "0: feed 1,2 from 1,3\n",  # a trailing newline
        "0: pawn 1,2\n",
    ],
)
def test_a_text_that_parses_prints_back_as_itself(text: str) -> None:
    """The module docstring: ``format_action(parse_action(s)) == s`` for every well-formed
    text. A text that parses to an action printing differently must be refused instead."""
    try:
        action = parse_action(text)
    except NotationError:
        return
    assert format_action(action) == text, f"{text!r} parsed as {action!r}"


@pytest.mark.parametrize(
    "text",
    ["0: discard C04\n", "0: draw N07\n", "0: fulfil O01\n", "0: play N07\n 0,0"],
)
def test_a_parsed_card_id_is_a_card_id(text: str) -> None:
    """A card id is a letter and two digits; a trailing newline is not part of one."""
    try:
        action = parse_action(text)
    except NotationError:
        return
    for card in card_ids(action):
        assert CARD_ID.fullmatch(card), f"{text!r} parsed as {action!r}"


@pytest.mark.parametrize(
    "rules",
    [gr.Rules.advanced(), gr.Rules.powers(), gr.Rules.disasters()],
    ids=["advanced", "powers", "disasters"],
)
def test_every_action_of_every_level_round_trips(rules: gr.Rules) -> None:
    seen: set[type] = set()
    for seed in range(12):
        game = gr.new_game(players=2 + seed % 4, rules=rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            actions = game.legal_actions()
            for action in actions:
                check_round_trip(action)
                seen.add(type(action))
            game.apply(rng.choice(actions))
    if rules.with_powers:
        assert {
            gr.PlaySun,
            gr.PlayRain,
            gr.PlayEarthquake,
            gr.PlayTornado,
            gr.PassProtection,
        } <= seen
