"""Card manifests: the shipped faces fit every stated fact, and bad manifests are refused
with one error listing every problem (spec 2.1-2.9)."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import Land
from gaia_rules.manifest import TILE_COUNTS, Manifest
from gaia_rules.position import PositionBuilder

EDITIONS = list(gr.Edition)
THIRD, FIRST = gr.Edition.THIRD, gr.Edition.FIRST

BOX_TILES = {
    Land.DESERT: 10,
    Land.PLAIN: 10,
    Land.SWAMP: 7,
    Land.SEA: 7,
    Land.MOUNTAIN: 6,
    Land.FOREST: 8,
}
NATURE = {
    Land.DESERT: 6,
    Land.PLAIN: 8,
    Land.SWAMP: 5,
    Land.SEA: 7,
    Land.MOUNTAIN: 6,
    Land.FOREST: 8,
}
POWERS = {
    gr.Power.SUN: 6,
    gr.Power.RAIN: 6,
    gr.Power.EARTHQUAKE: 3,
    gr.Power.TORNADO: 4,
    gr.Power.PROTECTION: 4,
    gr.Power.LIGHTNING: 5,
    gr.Power.ERUPTION: 2,
}
DRY_LANDS = [land for land in gr.LANDS if land is not Land.SEA]


def shipped(edition: gr.Edition) -> Manifest:
    return Manifest.builtin(edition)


def shipped_dict(edition: gr.Edition = THIRD) -> dict[str, Any]:
    """A fresh, mutable copy of the shipped manifest's JSON data."""
    return copy.deepcopy(shipped(edition).to_dict())


def card_entry(data: dict[str, Any], card: str) -> dict[str, Any]:
    entries: list[dict[str, Any]] = data["cards"]
    return next(entry for entry in entries if entry["id"] == card)


def problems_of(data: Any) -> tuple[str, ...]:
    """The problems a bad manifest is refused with (fails the test if it is accepted)."""
    with pytest.raises(gr.ManifestError) as caught:
        Manifest.from_dict(data)
    assert caught.value.problems, "a ManifestError must list at least one problem"
    return caught.value.problems


def faces(manifest: Manifest, face_type: type[Any]) -> list[Any]:
    return [face for _, face in manifest.cards if isinstance(face, face_type)]


# -- 2.1 tiles ---------------------------------------------------------------------------------


@pytest.mark.clause("2.1")
def test_tile_counts_are_the_48_tiles_of_the_box() -> None:
    assert dict(TILE_COUNTS) == BOX_TILES
    assert list(TILE_COUNTS) == list(gr.LANDS)  # listed in the order of 2.1
    assert sum(TILE_COUNTS.values()) == 48


@pytest.mark.clause("2.1", "4.1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_new_game_has_every_tile_in_the_supply(players: int) -> None:
    game = gr.new_game(players=players, seed=players)
    assert game.state.tile_supply == BOX_TILES
    assert game.state.tiles == {}


# -- 2.4 Nature cards --------------------------------------------------------------------------


@pytest.mark.clause("2.4")
@pytest.mark.parametrize("edition", EDITIONS)
def test_40_nature_cards_by_land(edition: gr.Edition) -> None:
    nature = Counter(face.land for face in faces(shipped(edition), gr.NatureCard))
    assert dict(nature) == NATURE
    assert sum(nature.values()) == 40


@pytest.mark.clause("2.4", "2.8")
def test_a_manifest_with_a_wrong_nature_count_is_refused() -> None:
    data = shipped_dict()
    card_entry(data, "N01")["nature"] = "forest"  # 5 deserts, 9 forests
    problems = problems_of(data)
    assert any("desert" in p and "Nature" in p for p in problems), problems
    assert any("forest" in p and "Nature" in p for p in problems), problems


# -- 2.5 Life cards ----------------------------------------------------------------------------


@pytest.mark.clause("2.5")
def test_third_edition_has_19_cities_and_venice_alone_on_sea() -> None:
    manifest = shipped(THIRD)
    cities = faces(manifest, gr.CityCard)
    assert len(cities) == 19
    assert [city.name for city in cities if city.site is Land.SEA] == ["Venice"]
    assert len(faces(manifest, gr.AnimalCard)) == 12
    assert len(cities) + len(faces(manifest, gr.AnimalCard)) == 31


@pytest.mark.clause("2.5")
def test_first_edition_has_18_cities_none_on_sea() -> None:
    manifest = shipped(FIRST)
    cities = faces(manifest, gr.CityCard)
    assert len(cities) == 18
    assert [city for city in cities if city.site is Land.SEA] == []
    assert "Venice" not in {city.name for city in cities}
    assert len(faces(manifest, gr.AnimalCard)) == 12


@pytest.mark.clause("2.5", "4.3")
@pytest.mark.parametrize(("edition", "life"), [(THIRD, 31), (FIRST, 30)])
def test_a_game_deals_the_life_cards_of_its_edition(edition: gr.Edition, life: int) -> None:
    state = gr.new_game(players=2, rules=gr.Rules.basic(edition=edition), seed=3).state
    in_play = list(state.decks[gr.CardKind.LIFE]) + list(state.displays[gr.CardKind.LIFE])
    in_play += [card for hand in state.hands for card in hand if card[0] in "CA"]
    assert len(in_play) == life
    assert set(in_play) == set(shipped(edition).ids(gr.CityCard)) | set(
        shipped(edition).ids(gr.AnimalCard)
    )


@pytest.mark.clause("2.5", "2.8")
def test_a_third_edition_manifest_with_a_second_sea_city_is_refused() -> None:
    data = shipped_dict(THIRD)
    card_entry(data, "C01")["site"] = "sea"
    problems = problems_of(data)
    assert any("sea" in p and "Venice" in p for p in problems), problems


@pytest.mark.clause("2.5", "2.8")
def test_a_third_edition_manifest_without_venice_on_sea_is_refused() -> None:
    data = shipped_dict(THIRD)
    venice = next(e for e in data["cards"] if e.get("city") == "Venice")
    venice["site"] = "star"
    problems = problems_of(data)
    assert any("sea" in p for p in problems), problems


@pytest.mark.clause("2.5", "2.8")
def test_a_first_edition_manifest_with_a_sea_city_is_refused() -> None:
    data = shipped_dict(FIRST)
    card_entry(data, "C01")["site"] = "sea"
    problems = problems_of(data)
    assert any("first edition" in p and "sea" in p for p in problems), problems


@pytest.mark.clause("2.5", "2.8")
@pytest.mark.parametrize("edition", EDITIONS)
def test_a_manifest_with_the_other_editions_city_count_is_refused(edition: gr.Edition) -> None:
    data = shipped_dict(edition)
    if edition is THIRD:  # 18 cities: drop one that is not Venice
        data["cards"].remove(card_entry(data, "C01"))
    else:  # 19 cities: add one
        extra = copy.deepcopy(card_entry(data, "C01"))
        extra["id"], extra["city"] = "C19", "Atlantis"
        data["cards"].append(extra)
    problems = problems_of(data)
    assert any("City cards" in p for p in problems), problems


@pytest.mark.clause("2.5", "2.5b", "2.8")
def test_a_manifest_with_11_animal_cards_is_refused() -> None:
    data = shipped_dict()
    data["cards"].remove(card_entry(data, "A12"))
    problems = problems_of(data)
    assert any("Animal cards" in p and "12" in p for p in problems), problems


# -- 2.5a City cards ---------------------------------------------------------------------------


@pytest.mark.clause("2.5a")
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_city_has_a_name_a_site_and_four_distinct_needs(edition: gr.Edition) -> None:
    cities = faces(shipped(edition), gr.CityCard)
    assert len({city.name for city in cities}) == len(cities)
    for city in cities:
        assert city.name
        assert isinstance(city.site, Land) or city.site is gr.STAR
        assert len(city.needs) == 4
        assert len(set(city.needs)) == 4, city
        assert all(isinstance(n, Land) or n is gr.ANIMALS for n in city.needs), city
        assert city.needs_animals == (gr.ANIMALS in city.needs)


@pytest.mark.clause("2.4", "2.5a", "2.7")
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_quick_lookups_agree_with_the_faces(edition: gr.Edition) -> None:
    manifest = shipped(edition)
    for card, face in manifest.cards:
        assert manifest.land(card) == (face.land if isinstance(face, gr.NatureCard) else None)
        assert manifest.power(card) == (face.power if isinstance(face, gr.PowerCard) else None)
        assert manifest.needs_animals(card) == (
            isinstance(face, gr.CityCard) and gr.ANIMALS in face.needs
        )
    assert manifest.land("X99") is None
    assert manifest.power("X99") is None
    assert not manifest.needs_animals("X99")


@pytest.mark.clause("2.5a", "2.8")
@pytest.mark.parametrize("edition", EDITIONS)
def test_a_city_that_repeats_a_need_is_refused(edition: gr.Edition) -> None:
    data = shipped_dict(edition)
    entry = card_entry(data, "C02")
    entry["needs"] = [entry["needs"][0], entry["needs"][0], entry["needs"][1], entry["needs"][2]]
    problems = problems_of(data)
    assert any("C02" in p and "distinct" in p for p in problems), problems


@pytest.mark.clause("2.5a", "2.8")
def test_a_city_that_repeats_the_animal_need_is_refused() -> None:
    data = shipped_dict()
    entry = card_entry(data, "C01")  # Alexandria: sea, plain, animals, mountain
    entry["needs"] = ["animals", "animals", "sea", "plain"]
    problems = problems_of(data)
    assert any("C01" in p and "distinct" in p for p in problems), problems


@pytest.mark.clause("2.5a", "2.8")
@pytest.mark.parametrize(
    "needs",
    [
        ["sea", "plain", "animals"],
        ["sea", "plain", "animals", "mountain", "forest"],
        [],
    ],
)
def test_a_city_without_exactly_four_needs_is_refused(needs: list[str]) -> None:
    data = shipped_dict()
    card_entry(data, "C01")["needs"] = needs
    problems = problems_of(data)
    assert any("C01" in p and "4 needs" in p for p in problems), problems


@pytest.mark.clause("2.5a", "2.8")
@pytest.mark.parametrize(
    ("key", "value", "word"),
    [
        ("site", "volcano", "site"),
        ("site", "animals", "site"),
        ("needs", ["sea", "plain", "lava", "forest"], "needs"),
        ("needs", "sea", "needs"),
        ("city", "", "city"),
        ("city", 7, "city"),
    ],
)
def test_a_city_face_that_is_not_a_name_a_site_and_needs_is_refused(
    key: str, value: object, word: str
) -> None:
    data = shipped_dict()
    card_entry(data, "C03")[key] = value
    problems = problems_of(data)
    assert any("C03" in p and word in p for p in problems), problems


# -- 2.5b Animal cards -------------------------------------------------------------------------


@pytest.mark.clause("2.5b")
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_animal_card_has_a_land_or_star_site(edition: gr.Edition) -> None:
    animals = faces(shipped(edition), gr.AnimalCard)
    assert len(animals) == 12
    for card in animals:
        assert isinstance(card.site, Land) or card.site is gr.STAR


@pytest.mark.clause("2.5b", "2.8")
@pytest.mark.parametrize("site", ["animals", "volcano", None, 3, ["sea"]])
def test_an_animal_card_with_a_bad_site_is_refused(site: object) -> None:
    data = shipped_dict()
    card_entry(data, "A01")["animals"] = site
    problems = problems_of(data)
    assert any("A01" in p and "animals" in p for p in problems), problems


# -- 2.6 Objectives ----------------------------------------------------------------------------


def _is_two_pairs(lands: tuple[Land, ...]) -> bool:
    counts = Counter(lands)
    return len(lands) == 4 and len(counts) == 2 and set(counts.values()) == {2}


@pytest.mark.clause("2.6")
@pytest.mark.parametrize("edition", EDITIONS)
def test_seven_nature_objectives_two_pairs_or_one_of_each(edition: gr.Edition) -> None:
    objectives = faces(shipped(edition), gr.Objective)
    assert len(objectives) == 9
    nature = [o for o in objectives if not o.is_power]
    assert len(nature) == 7
    for objective in nature:
        one_of_each = sorted(objective.lands, key=gr.LANDS.index) == list(gr.LANDS)
        assert _is_two_pairs(objective.lands) or one_of_each, objective
        assert objective.powers == 0


@pytest.mark.clause("2.6")
@pytest.mark.parametrize("edition", EDITIONS)
def test_two_power_objectives_of_four_power_cards(edition: gr.Edition) -> None:
    power = [o for o in faces(shipped(edition), gr.Objective) if o.is_power]
    assert len(power) == 2
    assert all(o.powers == 4 and o.lands == () for o in power)


@pytest.mark.clause("2.6", "2.8")
@pytest.mark.parametrize(
    "lands",
    [
        ["desert", "desert", "desert", "desert"],  # one land four times, not two pairs
        ["desert", "desert", "sea"],
        ["desert", "plain", "swamp", "sea"],
        ["desert", "plain", "swamp", "sea", "mountain", "mountain"],
        ["desert", "desert", "sea", "sea", "plain", "plain"],
        [],
    ],
)
def test_a_nature_objective_of_another_shape_is_refused(lands: list[str]) -> None:
    data = shipped_dict()
    card_entry(data, "O01")["objective"] = lands
    problems = problems_of(data)
    assert any("O01" in p and "two pairs" in p for p in problems), problems


@pytest.mark.clause("2.6", "2.8")
@pytest.mark.parametrize("powers", [3, 5])
def test_a_power_objective_not_of_four_is_refused(powers: int) -> None:
    data = shipped_dict()
    card_entry(data, "O08")["objective_powers"] = powers
    problems = problems_of(data)
    assert any("O08" in p and "4 Power" in p for p in problems), problems


@pytest.mark.clause("2.6", "2.8")
def test_a_manifest_with_a_third_power_objective_is_refused() -> None:
    data = shipped_dict()
    del card_entry(data, "O07")["objective"]
    card_entry(data, "O07")["objective_powers"] = 4
    problems = problems_of(data)
    assert any("Power Objectives" in p for p in problems), problems
    assert any("Nature Objectives" in p for p in problems), problems


# -- 2.7 Power cards ---------------------------------------------------------------------------


@pytest.mark.clause("2.7")
@pytest.mark.parametrize("edition", EDITIONS)
def test_power_cards_6_6_3_4_4_5_2(edition: gr.Edition) -> None:
    counts = Counter(face.power for face in faces(shipped(edition), gr.PowerCard))
    assert dict(counts) == POWERS
    assert sum(counts.values()) == 30
    disasters = (gr.Power.LIGHTNING, gr.Power.ERUPTION)
    assert sum(n for power, n in counts.items() if power not in disasters) == 23


@pytest.mark.clause("2.7", "2.8")
def test_a_manifest_with_wrong_power_counts_is_refused() -> None:
    data = shipped_dict()
    card_entry(data, "P01")["power"] = "rain"  # 5 Sun, 7 Rain
    problems = problems_of(data)
    assert any("sun" in p and "Power" in p for p in problems), problems
    assert any("rain" in p and "Power" in p for p in problems), problems


@pytest.mark.clause("2.7", "2.8")
def test_a_power_card_of_no_known_power_is_refused() -> None:
    data = shipped_dict()
    card_entry(data, "P01")["power"] = "flood"
    problems = problems_of(data)
    assert any("P01" in p and "flood" in p for p in problems), problems


# -- 2.8 manifests as data ---------------------------------------------------------------------


@pytest.mark.clause("2.8")
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_shipped_files_load_and_validate(edition: gr.Edition) -> None:
    text = (
        resources.files("gaia_rules.manifests")
        .joinpath(f"{edition.value}.json")
        .read_text(encoding="utf-8")
    )
    manifest = Manifest.from_json(text)
    assert manifest.edition is edition
    assert manifest == Manifest.builtin(edition)
    assert len(manifest.cards) == 40 + (31 if edition is THIRD else 30) + 30 + 9
    # the docs of the data say which faces are reconstructed
    assert manifest.reconstructed
    assert gr.Rules.basic(edition=edition).cards == manifest


@pytest.mark.clause("2.8")
@pytest.mark.parametrize("edition", EDITIONS)
def test_to_json_and_from_json_round_trip(edition: gr.Edition) -> None:
    manifest = shipped(edition)
    text = manifest.to_json()
    assert isinstance(json.loads(text), dict)
    again = Manifest.from_json(text)
    assert again == manifest
    assert again.to_json() == text
    assert Manifest.from_dict(manifest.to_dict()) == manifest
    for card, face in manifest.cards:
        assert again.face(card) == face


@pytest.mark.clause("2.8")
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_shipped_reconstructions_are_plausible(edition: gr.Edition) -> None:
    manifest = shipped(edition)
    cities = faces(manifest, gr.CityCard)
    sites = Counter(city.site for city in cities)
    for land in DRY_LANDS:
        assert sites[land] >= 2, f"city sites should spread over the dry lands: {sites}"
    assert 1 <= sites[gr.STAR] <= 5
    needs = Counter(need for city in cities for need in city.needs)
    for need in [*gr.LANDS, gr.ANIMALS]:
        assert needs[need] >= 3, f"{need} should be needed by several cities: {needs}"
    animal_sites = Counter(card.site for card in faces(manifest, gr.AnimalCard))
    assert len([land for land in gr.LANDS if animal_sites[land]]) >= 5, animal_sites
    assert 1 <= animal_sites[gr.STAR] <= 4
    for objective in faces(manifest, gr.Objective):
        for land, n in Counter(objective.lands).items():
            assert n <= NATURE[land]


@pytest.mark.clause("2.8")
def test_three_faults_are_all_listed_in_one_error() -> None:
    data = shipped_dict()
    card_entry(data, "C01")["needs"] = ["sea", "sea", "plain", "animals"]  # repeated need
    card_entry(data, "O01")["objective"] = ["desert", "sea", "sea"]  # bad Objective shape
    card_entry(data, "P01")["power"] = "rain"  # wrong Power counts
    with pytest.raises(gr.ManifestError) as caught:
        Manifest.from_dict(data)
    problems = caught.value.problems
    assert any("C01" in p and "distinct" in p for p in problems), problems
    assert any("O01" in p for p in problems), problems
    assert any("sun" in p and "Power" in p for p in problems), problems
    assert len(problems) >= 3
    for problem in problems:
        assert problem in str(caught.value)


@pytest.mark.clause("2.8")
def test_faults_of_shape_and_faults_of_fact_are_listed_together() -> None:
    """2.8: "one error that lists every problem found, not only the first". A card whose
    land is unknown or whose id is malformed must not hide a city's repeated need."""
    data = shipped_dict()
    card_entry(data, "N01")["nature"] = "lava"  # not a land
    card_entry(data, "C02")["id"] = "C2"  # not an id
    card_entry(data, "C01")["needs"] = ["sea", "sea", "plain", "animals"]  # repeated need
    problems = problems_of(data)
    assert any("lava" in p for p in problems), problems
    assert any("'C2'" in p for p in problems), problems
    assert any("C01" in p and "distinct" in p for p in problems), problems


@pytest.mark.clause("2.8")
@pytest.mark.parametrize(
    "text",
    ["", "{", "not json", '{"format": 1,}', "[1, 2", "{'format': 1}", "\x00"],
)
def test_malformed_json_is_refused(text: str) -> None:
    with pytest.raises(gr.ManifestError) as caught:
        Manifest.from_json(text)
    assert any("JSON" in p for p in caught.value.problems)


@pytest.mark.clause("2.8")
def test_deeply_nested_json_is_refused_not_crashing() -> None:
    with pytest.raises(gr.ManifestError):
        Manifest.from_json("[" * 100_000 + "]" * 100_000)


@pytest.mark.clause("2.8")
@pytest.mark.parametrize("value", [[], "third", 3, None, True, [{"format": 1}]])
def test_a_manifest_that_is_not_an_object_is_refused(value: object) -> None:
    problems = problems_of(value)
    assert any("object" in p for p in problems), problems
    with pytest.raises(gr.ManifestError):
        Manifest.from_json(json.dumps(value))


@pytest.mark.clause("2.8")
def test_an_unknown_top_level_key_is_refused() -> None:
    data = shipped_dict()
    data["colour"] = "red"
    problems = problems_of(data)
    assert any("colour" in p for p in problems), problems


@pytest.mark.clause("2.8")
def test_an_unknown_key_in_a_card_is_refused() -> None:
    data = shipped_dict()
    card_entry(data, "A01")["site"] = "desert"  # a typo for "animals": silently ignored?
    problems = problems_of(data)
    assert any("A01" in p and "site" in p for p in problems), problems


@pytest.mark.clause("2.8")
def test_a_card_with_no_face_key_is_refused() -> None:
    data = shipped_dict()
    del card_entry(data, "N05")["nature"]
    problems = problems_of(data)
    assert any("N05" in p and "keys" in p for p in problems), problems


@pytest.mark.clause("2.8", "2.5")
@pytest.mark.parametrize("edition", ["second", "", None, 3, ["third"]])
def test_a_wrong_edition_is_refused(edition: object) -> None:
    data = shipped_dict()
    data["edition"] = edition
    problems = problems_of(data)
    assert any("edition" in p for p in problems), problems


@pytest.mark.clause("2.8")
def test_a_missing_edition_or_cards_or_format_is_refused() -> None:
    for key in ("edition", "cards", "format"):
        data = shipped_dict()
        del data[key]
        problems = problems_of(data)
        assert any(key in p for p in problems), (key, problems)


@pytest.mark.clause("2.8")
@pytest.mark.parametrize("fmt", [0, 2, "1", None])
def test_a_wrong_format_is_refused(fmt: object) -> None:
    data = shipped_dict()
    data["format"] = fmt
    problems = problems_of(data)
    assert any("format" in p for p in problems), problems


@pytest.mark.clause("2.8")
def test_a_manifest_that_swaps_editions_is_refused_on_counts() -> None:
    data = shipped_dict(FIRST)
    data["edition"] = "third"  # 18 cities, no Venice: not a third edition box
    problems = problems_of(data)
    assert any("City cards" in p and "19" in p for p in problems), problems
    assert any("Venice" in p for p in problems), problems


@pytest.mark.clause("2.8")
def test_an_empty_manifest_lists_every_missing_kind() -> None:
    data = {"format": 1, "edition": "third", "cards": []}
    problems = problems_of(data)
    for word in ("Nature cards", "City cards", "Animal cards", "Power cards", "Objectives"):
        assert any(word in p for p in problems), (word, problems)


def _user_manifest() -> Manifest:
    """A third-edition box of one's own: every Animal card shows a mountain, cities renamed."""
    data = shipped_dict(THIRD)
    for entry in data["cards"]:
        if "animals" in entry:
            entry["animals"] = "mountain"
        if "city" in entry and entry["city"] != "Venice":
            entry["city"] = "New " + entry["city"]
    return Manifest.from_dict(data)


@pytest.mark.clause("2.8")
def test_a_user_manifest_is_the_one_a_game_plays_with() -> None:
    mine = _user_manifest()
    assert mine != shipped(THIRD)
    rules = gr.Rules(manifest=mine)
    assert rules.cards is mine
    game = gr.new_game(players=3, rules=rules, seed=11)
    assert game.rules.cards is mine
    city = game.rules.cards.face("C01")
    assert isinstance(city, gr.CityCard)
    assert city.name.startswith("New ")

    def animal_plays(rules: gr.Rules) -> list[gr.Action]:
        game = (
            PositionBuilder(players=2, rules=rules)
            .tile(0, 0, Land.FOREST)
            .tile(1, 0, Land.MOUNTAIN)
            .hand(0, "A01")
            .turn(0)
            .to_game()
        )
        return [a for a in game.legal_actions() if isinstance(a, gr.PlayAnimals)]

    # the shipped A01 is a forest card; the user's A01 is a mountain card
    assert shipped(THIRD).face("A01") == gr.AnimalCard(Land.FOREST)
    assert animal_plays(gr.Rules.basic()) == [gr.PlayAnimals(0, "A01", gr.Pos(0, 0))]
    assert animal_plays(rules) == [gr.PlayAnimals(0, "A01", gr.Pos(1, 0))]


@pytest.mark.clause("2.8", "1.3")
def test_a_manifest_of_the_other_edition_is_refused_by_rules() -> None:
    with pytest.raises(gr.RulesError):
        gr.Rules(manifest=shipped(FIRST))
    with pytest.raises(gr.RulesError):
        gr.Rules.basic(edition="first", manifest=shipped(THIRD))
    assert gr.Rules(edition=FIRST, manifest=shipped(FIRST)).cards is shipped(FIRST)


@pytest.mark.clause("2.8")
def test_the_json_of_rules_carries_a_user_manifest() -> None:
    rules = gr.Rules(manifest=_user_manifest())
    again = gr.Rules.from_json(rules.to_json())
    assert again == rules
    assert again.cards == _user_manifest()


# -- 2.9 ids ------------------------------------------------------------------------------------

ID = re.compile(r"[NCAPO][0-9]{2}")
LETTER = {
    gr.NatureCard: "N",
    gr.CityCard: "C",
    gr.AnimalCard: "A",
    gr.PowerCard: "P",
    gr.Objective: "O",
}


@pytest.mark.clause("2.9")
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_id_is_a_letter_and_two_digits_matching_its_face(edition: gr.Edition) -> None:
    manifest = shipped(edition)
    ids = [card for card, _ in manifest.cards]
    assert len(set(ids)) == len(ids)
    for card, face in manifest.cards:
        assert ID.fullmatch(card), card
        assert card[0] == LETTER[type(face)], (card, face)
        assert card in manifest
        assert manifest.face(card) == face
    assert "N41" not in manifest
    with pytest.raises(KeyError):
        manifest.face("N41")


@pytest.mark.clause("2.9")
@pytest.mark.parametrize("edition", EDITIONS)
def test_ids_are_numbered_as_the_spec_says(edition: gr.Edition) -> None:
    manifest = shipped(edition)

    def numbered(letter: str, first: int, last: int) -> list[str]:
        return [f"{letter}{n:02d}" for n in range(first, last + 1)]

    nature_order = [land for land in gr.LANDS for _ in range(NATURE[land])]
    assert list(manifest.ids(gr.NatureCard)) == numbered("N", 1, 40)
    for card, land in zip(numbered("N", 1, 40), nature_order, strict=True):
        assert manifest.face(card) == gr.NatureCard(land)
    cities = 19 if edition is THIRD else 18
    assert list(manifest.ids(gr.CityCard)) == numbered("C", 1, cities)
    assert list(manifest.ids(gr.AnimalCard)) == numbered("A", 1, 12)
    power_order = [power for power in gr.Power for _ in range(POWERS[power])]
    assert list(manifest.ids(gr.PowerCard)) == numbered("P", 1, 30)
    for card, power in zip(numbered("P", 1, 30), power_order, strict=True):
        assert manifest.face(card) == gr.PowerCard(power)
    objectives = list(manifest.ids(gr.Objective))
    assert objectives == numbered("O", 1, 9)
    for card in objectives:
        face = manifest.face(card)
        assert isinstance(face, gr.Objective)
        assert face.is_power == (card in ("O08", "O09"))


@pytest.mark.clause("2.9", "2.8")
@pytest.mark.parametrize(("card", "new_id"), [("N01", "C50"), ("C01", "A50"), ("O08", "P50")])
def test_an_id_whose_letter_does_not_match_its_face_is_refused(card: str, new_id: str) -> None:
    data = shipped_dict()
    card_entry(data, card)["id"] = new_id
    problems = problems_of(data)
    assert any(new_id in p and "must start with" in p for p in problems), problems


@pytest.mark.clause("2.9", "2.8")
@pytest.mark.parametrize("bad", ["N1", "N001", "X01", "n01", "", 7, None, "N01 ", "N0a"])
def test_an_id_that_is_not_a_letter_and_two_digits_is_refused(bad: object) -> None:
    data = shipped_dict()
    card_entry(data, "N02")["id"] = bad
    problems = problems_of(data)
    assert any(".id" in p and repr(bad) in p for p in problems), problems


@pytest.mark.clause("2.9", "2.8")
def test_an_id_used_twice_is_refused() -> None:
    data = shipped_dict()
    card_entry(data, "N02")["id"] = "N01"  # two deserts named N01
    problems = problems_of(data)
    assert any("N01" in p and "2 times" in p for p in problems), problems


@pytest.mark.clause("2.9", "2.8", "1.11")
@pytest.mark.parametrize(("card", "twin"), [("P01", "A01"), ("N40", "N01")])
def test_an_id_used_twice_by_two_faces_is_refused(card: str, twin: str) -> None:
    """Two faces under one id (a Power and an Animal card, a forest and a desert) are refused
    like any id used twice, though faces of different kinds cannot be put in order (1.11)."""
    data = shipped_dict()
    card_entry(data, card)["id"] = twin
    problems = problems_of(data)
    assert any(twin in p and "2 times" in p for p in problems), problems


@pytest.mark.clause("2.9", "2.8")
def test_a_nature_card_numbered_outside_n01_n40_is_refused() -> None:
    """2.8 validates every manifest against 2.9, and 2.9 numbers the Nature cards N01-N40
    in the land order of 2.1: a desert card N41 is not a card of any box."""
    data = shipped_dict()
    card_entry(data, "N01")["id"] = "N41"
    problems_of(data)


# -- property: mutated manifests never crash the loader ---------------------------------------

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 50)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=6)
    | st.sampled_from(
        [
            *(land.value for land in gr.LANDS),
            "star",
            "animals",
            "third",
            "first",
            "N01",
            "C01",
            "A01",
            "P01",
            "O01",
            "sun",
        ]
    )
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
SHIPPED_DICTS = {edition: shipped(edition).to_dict() for edition in EDITIONS}


def _mutate(data: st.DataObject, doc: Any) -> Any:
    """One random change somewhere in the tree: delete, replace or add a value."""
    path: list[Any] = []
    node = doc
    while isinstance(node, dict | list) and node and data.draw(st.integers(0, 3)) > 0:
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
    if not path:
        if isinstance(doc, dict) and data.draw(st.booleans()):
            doc[data.draw(st.text(max_size=8))] = data.draw(JSON_VALUES)
            return doc
        return data.draw(JSON_VALUES) if data.draw(st.integers(0, 9)) == 0 else doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    op = data.draw(st.sampled_from(["delete", "replace", "replace", "add"]))
    if op == "delete":
        del parent[path[-1]]
    elif op == "add" and isinstance(node, dict):
        node[data.draw(st.text(max_size=8))] = data.draw(JSON_VALUES)
    elif op == "add" and isinstance(node, list):
        node.insert(data.draw(st.integers(0, len(node))), data.draw(JSON_VALUES))
    else:
        parent[path[-1]] = data.draw(JSON_VALUES)
    return doc


def _loads_or_refuses(load: Any, payload: Any) -> None:
    try:
        manifest = load(payload)
    except gr.ManifestError as exc:
        assert exc.problems
        assert all(isinstance(p, str) and p for p in exc.problems)
        return
    assert isinstance(manifest, Manifest)
    # whatever was accepted is a valid manifest: it reloads as itself
    assert Manifest.from_dict(manifest.to_dict()) == manifest
    assert sum(isinstance(f, gr.NatureCard) for _, f in manifest.cards) == 40


@pytest.mark.clause("2.8")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edition=st.sampled_from(EDITIONS), mutations=st.integers(1, 4), data=st.data())
def test_a_mutated_manifest_loads_or_raises_manifest_error(
    edition: gr.Edition, mutations: int, data: st.DataObject
) -> None:
    doc: Any = copy.deepcopy(SHIPPED_DICTS[edition])
    for _ in range(mutations):
        doc = _mutate(data, doc)
    _loads_or_refuses(Manifest.from_dict, doc)
    _loads_or_refuses(Manifest.from_json, json.dumps(doc))


@pytest.mark.clause("2.8")
@settings(max_examples=200, deadline=None)
@given(
    edition=st.sampled_from(EDITIONS),
    cut=st.integers(0, 10_000),
    insert=st.text(max_size=4),
    drop=st.integers(0, 5),
)
def test_a_mutated_manifest_text_loads_or_raises_manifest_error(
    edition: gr.Edition, cut: int, insert: str, drop: int
) -> None:
    text = json.dumps(SHIPPED_DICTS[edition])
    at = cut % (len(text) + 1)
    _loads_or_refuses(Manifest.from_json, text[:at] + insert + text[at + drop :])


def test_city_looks_up_city_cards_only() -> None:
    cards = gr.Manifest.builtin(gr.Edition.THIRD)
    assert isinstance(cards.city("C01"), gr.CityCard)
    for other in ("N01", "A01", "X99"):
        with pytest.raises(KeyError):
            cards.city(other)
