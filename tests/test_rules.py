"""``Rules``: levels, presets, switches and their defaults, JSON, and what ``new_game``
accepts (spec 1.1-1.3)."""

from __future__ import annotations

import enum
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import Level
from gaia_rules.manifest import Manifest

PRESETS = {
    Level.BASIC: gr.Rules.basic,
    Level.ADVANCED: gr.Rules.advanced,
    Level.POWERS: gr.Rules.powers,
    Level.DISASTERS: gr.Rules.disasters,
}

ENUM_SWITCHES: dict[str, type[enum.Enum]] = {
    "level": Level,
    "edition": gr.Edition,
    "feeding": gr.Feeding,
    "objectives": gr.Objectives,
    "four_need_drop": gr.FourNeedDrop,
}
"""The switches (and the level) that take an enum member; four_need_drop needs ADVANCED."""

DEFAULTS: dict[str, object] = {
    "level": Level.BASIC,
    "edition": gr.Edition.THIRD,
    "feeding": gr.Feeding.PAWN_HOLDER,
    "star_animals_on_sea": True,
    "objectives": gr.Objectives.MANDATORY,
    "four_need_drop": gr.FourNeedDrop.KEEP_ONE,
    "lightnings": 5,
    "eruption_on_city": True,
    "manifest": None,
}


def _level_for(switch: str) -> Level:
    return {"four_need_drop": Level.ADVANCED}.get(switch, Level.BASIC)


# -- 1.2 levels and presets --------------------------------------------------------------------


@pytest.mark.clause("1.2")
def test_levels_are_ordered_each_containing_the_one_before() -> None:
    assert list(Level) == [Level.BASIC, Level.ADVANCED, Level.POWERS, Level.DISASTERS]
    assert Level.BASIC < Level.ADVANCED < Level.POWERS < Level.DISASTERS
    assert sorted(Level, reverse=True)[0] is Level.DISASTERS


@pytest.mark.clause("1.2")
@pytest.mark.parametrize("level", list(Level))
def test_each_preset_sets_its_level_and_every_default(level: Level) -> None:
    rules = PRESETS[level]()
    assert rules.level is level
    for name, default in DEFAULTS.items():
        if name != "level":
            assert getattr(rules, name) == default, name
    assert rules == gr.Rules(level=level)
    assert rules.advanced_rules == (level >= Level.ADVANCED)
    assert rules.with_powers == (level >= Level.POWERS)
    assert rules.with_disasters == (level >= Level.DISASTERS)


@pytest.mark.clause("1.2")
def test_presets_take_switches_by_keyword() -> None:
    rules = gr.Rules.basic(feeding=gr.Feeding.EVERY_CITY, objectives="optional")
    assert rules.level is Level.BASIC
    assert rules.feeding is gr.Feeding.EVERY_CITY
    assert rules.objectives is gr.Objectives.OPTIONAL
    assert gr.Rules.disasters(lightnings=2).lightnings == 2
    assert gr.Rules.advanced(four_need_drop="empty_at_two").four_need_drop is (
        gr.FourNeedDrop.EMPTY_AT_TWO
    )


@pytest.mark.clause("1.2")
def test_rules_are_frozen_values() -> None:
    rules = gr.Rules.basic()
    with pytest.raises(AttributeError):
        rules.feeding = gr.Feeding.EVERY_CITY  # type: ignore[misc]
    assert hash(rules) == hash(gr.Rules.basic())
    assert rules == gr.Rules()
    assert rules != gr.Rules.advanced()


@pytest.mark.clause("1.2")
def test_the_basic_level_plays() -> None:
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=1)
    assert game.rules == gr.Rules.basic()
    assert not game.is_over
    assert gr.new_game(players=2, seed=1).rules == gr.Rules.basic()


@pytest.mark.clause("1.2", "13.1")
@pytest.mark.parametrize("level", [Level.ADVANCED, Level.POWERS, Level.DISASTERS])
def test_new_game_plays_every_level(level: Level) -> None:
    game = gr.new_game(players=3, rules=PRESETS[level](), seed=1)
    assert game.rules.level is level
    power_hands = [sum(c.startswith("P") for c in hand) for hand in game.state.hands]
    assert power_hands == ([1, 1, 1] if level >= Level.POWERS else [0, 0, 0])


@pytest.mark.clause("1.2")
@pytest.mark.parametrize("rules", ["basic", 3, {"level": "basic"}, gr.Level.BASIC])
def test_new_game_refuses_rules_that_are_not_rules(rules: object) -> None:
    with pytest.raises(gr.RulesError):
        gr.new_game(players=2, rules=rules, seed=1)  # type: ignore[arg-type]


# -- 1.3 switches -------------------------------------------------------------------------------


@pytest.mark.clause("1.3")
def test_every_switch_exists_with_the_rulings_default() -> None:
    rules = gr.Rules()
    for name, default in DEFAULTS.items():
        assert getattr(rules, name) == default, name
    assert rules.edition is gr.Edition.THIRD
    assert rules.feeding is gr.Feeding.PAWN_HOLDER
    assert rules.star_animals_on_sea is True
    assert rules.objectives is gr.Objectives.MANDATORY
    assert rules.four_need_drop is gr.FourNeedDrop.KEEP_ONE
    assert rules.lightnings == 5
    assert rules.eruption_on_city is True
    assert set(gr.Rules.basic().to_dict()) == {"format", *DEFAULTS}


@pytest.mark.clause("1.3")
def test_each_switch_has_exactly_its_two_readings() -> None:
    assert list(gr.Edition) == [gr.Edition.THIRD, gr.Edition.FIRST]
    assert list(gr.Feeding) == [gr.Feeding.PAWN_HOLDER, gr.Feeding.EVERY_CITY]
    assert list(gr.Objectives) == [gr.Objectives.MANDATORY, gr.Objectives.OPTIONAL]
    assert list(gr.FourNeedDrop) == [gr.FourNeedDrop.KEEP_ONE, gr.FourNeedDrop.EMPTY_AT_TWO]


@pytest.mark.clause("1.3")
@pytest.mark.parametrize(
    ("switch", "member"),
    [(name, member) for name, kind in ENUM_SWITCHES.items() for member in kind],
)
def test_an_enum_switch_accepts_its_member_name_or_value(switch: str, member: enum.Enum) -> None:
    level = _level_for(switch)
    extra: dict[str, Any] = {} if switch == "level" else {"level": level}
    spellings: list[object] = [
        member,
        member.name,
        member.name.lower(),
        str(member.value).upper(),
    ]
    if isinstance(member.value, str):
        spellings.append(member.value)
    for spelling in spellings:
        switches: dict[str, Any] = {switch: spelling, **extra}
        rules = gr.Rules(**switches)
        assert getattr(rules, switch) is member, spelling


@pytest.mark.clause("1.3")
@pytest.mark.parametrize("switch", ["star_animals_on_sea", "eruption_on_city"])
@pytest.mark.parametrize("value", [True, False])
def test_a_bool_switch_takes_true_or_false(switch: str, value: bool) -> None:
    level = Level.DISASTERS if switch == "eruption_on_city" else Level.BASIC
    switches: dict[str, Any] = {"level": level, switch: value}
    assert getattr(gr.Rules(**switches), switch) is value


@pytest.mark.clause("1.3", "2.7")
@pytest.mark.parametrize("lightnings", [0, 1, 2, 3, 4, 5])
def test_lightnings_0_to_5(lightnings: int) -> None:
    assert gr.Rules.disasters(lightnings=lightnings).lightnings == lightnings


@pytest.mark.clause("1.3", "1.2")
@pytest.mark.parametrize(
    ("switch", "value"),
    [
        ("level", "expert"),
        ("level", None),
        ("edition", "second"),
        ("edition", 3),
        ("feeding", "nobody"),
        ("feeding", None),
        ("feeding", gr.Objectives.OPTIONAL),  # a member of another switch
        ("objectives", "sometimes"),
        ("objectives", True),
        ("four_need_drop", "keep_two"),
        ("star_animals_on_sea", "yes"),
        ("star_animals_on_sea", 1),
        ("star_animals_on_sea", None),
        ("eruption_on_city", "false"),
        ("eruption_on_city", 0),
        ("lightnings", "3"),
        ("lightnings", 2.0),
        ("lightnings", True),
        ("lightnings", None),
        ("manifest", "third"),
        ("manifest", {"format": 1}),
    ],
)
def test_a_bad_switch_value_raises_rules_error(switch: str, value: object) -> None:
    level = Level.DISASTERS if switch in ("lightnings", "eruption_on_city") else Level.ADVANCED
    switches: dict[str, Any] = {switch: value}
    if switch != "level":
        switches["level"] = level
    with pytest.raises(gr.RulesError):
        gr.Rules(**switches)


@pytest.mark.clause("1.3", "1.2", "2.7")
@pytest.mark.parametrize("lightnings", [-1, 6, 10, 2**70])
def test_lightnings_outside_0_to_5_raises(lightnings: int) -> None:
    with pytest.raises(gr.RulesError, match="lightnings"):
        gr.Rules.disasters(lightnings=lightnings)


@pytest.mark.clause("1.3", "1.2")
@pytest.mark.parametrize(
    ("level", "switch", "value"),
    [
        (Level.BASIC, "four_need_drop", gr.FourNeedDrop.EMPTY_AT_TWO),
        (Level.BASIC, "lightnings", 3),
        (Level.BASIC, "eruption_on_city", False),
        (Level.ADVANCED, "lightnings", 0),
        (Level.ADVANCED, "eruption_on_city", False),
        (Level.POWERS, "lightnings", 4),
        (Level.POWERS, "eruption_on_city", False),
    ],
)
def test_a_higher_level_switch_away_from_its_default_below_its_level_raises(
    level: Level, switch: str, value: object
) -> None:
    with pytest.raises(gr.RulesError, match=switch):
        PRESETS[level](**{switch: value})
    # at its default it is allowed at every level
    assert getattr(PRESETS[level](**{switch: DEFAULTS[switch]}), switch) == DEFAULTS[switch]


@pytest.mark.clause("1.3")
def test_higher_level_switches_are_allowed_from_their_level() -> None:
    advanced = gr.Rules.advanced(four_need_drop=gr.FourNeedDrop.EMPTY_AT_TWO)
    assert advanced.four_need_drop is gr.FourNeedDrop.EMPTY_AT_TWO
    assert gr.Rules.disasters(four_need_drop="empty_at_two").four_need_drop is (
        gr.FourNeedDrop.EMPTY_AT_TWO
    )
    disasters = gr.Rules.disasters(lightnings=0, eruption_on_city=False)
    assert (disasters.lightnings, disasters.eruption_on_city) == (0, False)


@pytest.mark.clause("1.3")
def test_evolve_revalidates() -> None:
    assert gr.Rules.basic().evolve(feeding="every_city").feeding is gr.Feeding.EVERY_CITY
    with pytest.raises(gr.RulesError):
        gr.Rules.basic().evolve(lightnings=2)
    with pytest.raises(gr.RulesError):
        gr.Rules.disasters().evolve(lightnings=7)


# -- 1.3 JSON ----------------------------------------------------------------------------------


@st.composite
def rules_values(draw: st.DrawFn) -> gr.Rules:
    """Any valid Rules, with switches given as members or as strings of any case."""

    def spelled(member: enum.Enum) -> object:
        style = draw(st.integers(0, 3))
        if style == 0:
            return member
        if style == 1:
            return member.name
        if style == 2:
            return member.name.lower()
        return str(member.value)

    level = draw(st.sampled_from(Level))
    edition = draw(st.sampled_from(gr.Edition))
    switches: dict[str, Any] = {
        "level": spelled(level),
        "edition": spelled(edition),
        "feeding": spelled(draw(st.sampled_from(gr.Feeding))),
        "objectives": spelled(draw(st.sampled_from(gr.Objectives))),
        "star_animals_on_sea": draw(st.booleans()),
    }
    if level >= Level.ADVANCED:
        switches["four_need_drop"] = spelled(draw(st.sampled_from(gr.FourNeedDrop)))
    if level >= Level.DISASTERS:
        switches["lightnings"] = draw(st.integers(0, 5))
        switches["eruption_on_city"] = draw(st.booleans())
    if draw(st.booleans()):
        switches["manifest"] = Manifest.builtin(edition)
    return gr.Rules(**switches)


@pytest.mark.clause("1.3")
@settings(max_examples=150, deadline=None)
@given(rules=rules_values())
def test_rules_round_trip_through_json(rules: gr.Rules) -> None:
    text = rules.to_json()
    data = json.loads(text)
    assert data["format"] == 1
    again = gr.Rules.from_json(text)
    assert again == rules
    assert again.to_json() == text
    assert gr.Rules.from_dict(rules.to_dict()) == rules
    assert again.cards == rules.cards


@pytest.mark.clause("1.3")
def test_rules_json_uses_plain_values() -> None:
    data = json.loads(gr.Rules.advanced(feeding="every_city").to_json())
    assert data == {
        "format": 1,
        "level": "advanced",
        "edition": "third",
        "feeding": "every_city",
        "star_animals_on_sea": True,
        "objectives": "mandatory",
        "four_need_drop": "keep_one",
        "lightnings": 5,
        "eruption_on_city": True,
        "manifest": None,
    }
    # a JSON text that leaves switches out takes their defaults
    assert gr.Rules.from_json('{"format": 1}') == gr.Rules()


def _normalized(text: str) -> str:
    return text.lower().replace("_", "")


@pytest.mark.clause("1.3")
@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("not json", "json"),
        ("", "json"),
        ('{"format": 1,', "json"),
        ("[]", "rules"),
        ('"basic"', "rules"),
        ("null", "rules"),
        ("{}", "format"),
        ('{"format": 2}', "format"),
        ('{"format": 1, "colour": "red"}', "colour"),
        ('{"format": 1, "level": "expert"}', "level"),
        ('{"format": 1, "edition": "second"}', "edition"),
        ('{"format": 1, "feeding": 3}', "feeding"),
        ('{"format": 1, "objectives": "sometimes"}', "objectives"),
        ('{"format": 1, "level": "advanced", "four_need_drop": "x"}', "four_need_drop"),
        ('{"format": 1, "level": "disasters", "lightnings": "x"}', "lightnings"),
        ('{"format": 1, "level": "disasters", "lightnings": 9}', "lightnings"),
        ('{"format": 1, "lightnings": 3}', "lightnings"),
        ('{"format": 1, "star_animals_on_sea": "yes"}', "star_animals_on_sea"),
        ('{"format": 1, "level": "disasters", "eruption_on_city": 1}', "eruption_on_city"),
        ('{"format": 1, "manifest": 5}', "manifest"),
        ('{"format": 1, "manifest": {"format": 1, "edition": "third"}}', "manifest"),
    ],
)
def test_malformed_rules_json_raises_rules_error_naming_the_field(text: str, field: str) -> None:
    with pytest.raises(gr.RulesError) as caught:
        gr.Rules.from_json(text)
    assert _normalized(field) in _normalized(str(caught.value)), str(caught.value)


@pytest.mark.clause("1.3", "2.8")
def test_rules_json_with_a_manifest_of_the_other_edition_is_refused() -> None:
    data = gr.Rules.basic().to_dict()
    data["manifest"] = Manifest.builtin(gr.Edition.FIRST).to_dict()
    with pytest.raises(gr.RulesError, match="edition"):
        gr.Rules.from_dict(data)


# -- 1.1 players --------------------------------------------------------------------------------


@pytest.mark.clause("1.1", "1.4")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players(players: int) -> None:
    game = gr.new_game(players=players, seed=0)
    assert game.players == players
    assert len(game.state.hands) == players


@pytest.mark.clause("1.1")
@pytest.mark.parametrize("players", [-1, 0, 1, 6, 27])
def test_a_player_count_outside_2_to_5_raises(players: int) -> None:
    with pytest.raises(gr.RulesError, match="players"):
        gr.new_game(players=players, seed=0)


@pytest.mark.clause("1.1")
@pytest.mark.parametrize("players", ["3", 3.0, True, None, [3]])
def test_a_player_count_that_is_not_an_int_raises(players: object) -> None:
    with pytest.raises(gr.RulesError, match="players"):
        gr.new_game(players=players, seed=0)  # type: ignore[arg-type]


@pytest.mark.clause("1.1", "1.4")
@pytest.mark.parametrize(
    ("players", "first_player"),
    [(2, 2), (2, -1), (3, 3), (5, 5), (5, 17), (4, "0"), (4, True), (4, 1.0), (4, None)],
)
def test_a_first_player_outside_the_seats_raises(players: int, first_player: object) -> None:
    with pytest.raises(gr.RulesError, match="first_player"):
        gr.new_game(players=players, seed=0, first_player=first_player)  # type: ignore[arg-type]


@pytest.mark.clause("1.6")
@pytest.mark.parametrize("seed", ["1", 1.5, True, [1]])
def test_a_seed_that_is_not_a_whole_number_raises(seed: object) -> None:
    with pytest.raises(gr.RulesError, match="seed"):
        gr.new_game(players=2, seed=seed)  # type: ignore[arg-type]


@pytest.mark.clause("1.6")
def test_without_a_seed_a_game_keeps_the_one_it_drew() -> None:
    game = gr.new_game(players=3)
    assert isinstance(game.seed, int)
    again = gr.new_game(players=3, seed=game.seed)
    assert again.state == game.state
