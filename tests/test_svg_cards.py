"""Card faces and backs (:mod:`gaia_rules.svg_cards`): every card of both editions drawn as a
card in the colours of the box, from its face alone, with its full name and its pictograms."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from importlib.resources import files

import pytest

import gaia_rules as gr
from gaia_rules.cards import AnimalCard, CityCard, NatureCard, Objective, PowerCard
from gaia_rules.svg_cards import (
    BACK_FILL,
    CARD_WORDS,
    FACE_FILL,
    back_svg,
    describe_face,
    face_svg,
    fit_lines,
    icon,
)
from gaia_rules.vocabulary import ANIMALS, STAR, CardKind, Land, Power

SVG = "{http://www.w3.org/2000/svg}"
CARD_ID = re.compile(r"\b[NCAPO]\d\d\b")


def faces(edition: gr.Edition) -> list[gr.Face]:
    """Every distinct face of an edition's manifest, in manifest order."""
    found: list[gr.Face] = []
    for _, face in gr.Manifest.builtin(edition).cards:
        if face not in found:
            found.append(face)
    return found


ALL_FACES = [face for edition in gr.Edition for face in faces(edition)]


def with_class(root: ET.Element, *classes: str) -> list[ET.Element]:
    wanted = set(classes)
    return [e for e in root.iter() if wanted <= set(e.get("class", "").split())]


def texts(root: ET.Element) -> list[str]:
    return [e.text or "" for e in root.iter(f"{SVG}text")]


def frame_fill(root: ET.Element) -> str | None:
    card = with_class(root, "card")[0]
    first = card.find(f"{SVG}rect")
    assert first is not None
    return first.get("fill")


@pytest.mark.parametrize("face", ALL_FACES, ids=str)
def test_every_face_is_a_card_in_the_colour_of_its_kind(face: gr.Face) -> None:
    root = ET.fromstring(face_svg(face))
    assert root.get("viewBox") == "0 0 100 140"
    kind = {
        NatureCard: "nature",
        CityCard: "life",
        AnimalCard: "life",
        PowerCard: "power",
        Objective: "objective",
    }[type(face)]
    assert frame_fill(root) == FACE_FILL[kind]
    assert with_class(root, "card", "face", f"kind-{kind}")
    # drawn from the face: no card id anywhere, and the picture says what the face is
    assert not CARD_ID.search(face_svg(face))
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == describe_face(face)


def test_the_box_colours() -> None:
    assert FACE_FILL["nature"] == BACK_FILL[CardKind.NATURE] == "#2e7d32"  # green
    assert FACE_FILL["life"] == BACK_FILL[CardKind.LIFE] == "#1565c0"  # blue
    assert FACE_FILL["power"] == BACK_FILL[CardKind.POWER] == "#c62828"  # red
    assert FACE_FILL["objective"] == "#e8b100"  # yellow


def test_copies_of_a_face_are_one_picture() -> None:
    rules = gr.Rules.disasters()
    by_face: dict[gr.Face, set[str]] = {}
    for card, face in rules.cards.cards:
        by_face.setdefault(face, set()).add(face_svg(face))
        assert gr.svg.card_svg(rules, card).count(f'data-card="{card}"') == 1
    assert all(len(pictures) == 1 for pictures in by_face.values())
    assert max(len([c for c, f in rules.cards.cards if f == face]) for face in by_face) > 1


@pytest.mark.parametrize("city", [f for f in ALL_FACES if isinstance(f, CityCard)], ids=str)
def test_a_city_shows_its_full_name_its_site_and_every_need(city: CityCard) -> None:
    root = ET.fromstring(face_svg(city))
    names = with_class(root, "name")
    assert " ".join(e.text or "" for e in names) == city.name
    for name in names:  # the name fits the card's width at its size
        size = float(name.get("font-size", "0"))
        assert len(name.text or "") * size * 0.6 <= 84.1  # sizes are written to 2 decimals
        assert size >= 10
    site = "site-star" if city.site is STAR else f"land-{city.site.value}"
    assert with_class(root, "badge", site)
    needs = [e.get("data-need") for e in with_class(root, "need")]
    assert needs == [("animals" if n is ANIMALS else n.value) for n in city.needs]
    for need in with_class(root, "need"):  # a need is a pictogram, not a colour alone
        assert with_class(need, "icon")


def test_a_long_city_name_is_drawn_whole_on_a_card_and_on_the_world() -> None:
    long = CityCard("Santa Maria de los Buenos Aires", Land.PLAIN, (Land.SEA, ANIMALS))
    root = ET.fromstring(face_svg(long))
    lines = [e.text for e in with_class(root, "name")]
    assert len(lines) == 2 and " ".join(str(line) for line in lines) == long.name
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, gr.Land.SWAMP)
        .tile(1, 0, gr.Land.SEA)
        .tile(0, 1, gr.Land.DESERT)
        .city(0, 0, "C08", pawns=[0])
        .build()
    )
    world = ET.fromstring(gr.svg.world_svg(position))
    assert [e.text for e in with_class(world, "name")] == ["Tenochtitlan"]


@pytest.mark.parametrize("power", list(Power), ids=lambda p: p.value)
def test_a_power_shows_its_pictogram_its_name_and_its_effect_in_one_line(power: Power) -> None:
    root = ET.fromstring(face_svg(PowerCard(power)))
    assert with_class(root, "icon", f"icon-{power.value}")
    assert [e.text for e in with_class(root, "name")] == [CARD_WORDS[f"power.{power.value}"]]
    effect = " ".join(e.text or "" for e in with_class(root, "effect"))
    assert effect == " ".join(CARD_WORDS[f"effect.{power.value}"].split())
    for line in with_class(root, "effect"):  # inside the card, above its bottom edge
        assert float(line.get("y", "0")) <= 130


def page_words(lang: str) -> dict[str, str]:
    """The words the page prints on cards in ``lang`` (its catalogue's ``card.`` messages)."""
    path = files("gaia_rules.web") / "static" / "i18n" / f"{lang}.json"
    catalogue: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return {key[5:]: text for key, text in catalogue.items() if key.startswith("card.")}


@pytest.mark.parametrize("lang", ["en", "de", "fr", "hu"])
@pytest.mark.parametrize("power", list(Power), ids=lambda p: p.value)
def test_a_powers_effect_stays_on_its_card_in_every_language(power: Power, lang: str) -> None:
    words = page_words(lang)
    root = ET.fromstring(face_svg(PowerCard(power), words=words))
    effect = with_class(root, "effect")
    assert " ".join(e.text or "" for e in effect) == " ".join(
        words[f"effect.{power.value}"].split()
    )
    for line in effect:  # the whole line, its descenders too, above the panel's edge (134)
        size = float(line.get("font-size", "0"))
        assert float(line.get("y", "0")) + 0.25 * size <= 134, (lang, line.text)


def test_an_objective_pictures_its_lands_or_four_power_cards() -> None:
    two_pairs = Objective(lands=(Land.DESERT, Land.DESERT, Land.SEA, Land.SEA))
    root = ET.fromstring(face_svg(two_pairs))
    pictured = [e.get("class", "").split()[-1] for e in with_class(root, "pictured")]
    assert pictured == ["land-desert", "land-desert", "land-sea", "land-sea"]
    six = Objective(lands=tuple(gr.Land))
    assert len(with_class(ET.fromstring(face_svg(six)), "pictured")) == 6
    powers = ET.fromstring(face_svg(Objective(powers=4)))
    assert " ".join(e.text or "" for e in with_class(powers, "effect")) == "4 Power cards"
    assert with_class(powers, "kind-objective", "objective-powers")


def test_animals_show_four_tokens_and_their_site() -> None:
    root = ET.fromstring(face_svg(AnimalCard(STAR)))
    assert len(with_class(root, "icon", "icon-animals")) == 4
    assert with_class(root, "badge", "site-star")
    assert CARD_WORDS["site.star.animals"] in texts(root)  # any land: the sea too


def test_a_nature_card_shows_its_land_by_colour_pictogram_and_name() -> None:
    for land in gr.Land:
        root = ET.fromstring(face_svg(NatureCard(land)))
        assert len(with_class(root, "icon", f"icon-{land.value}")) == 2
        assert CARD_WORDS[f"land.{land.value}"] in texts(root)


def test_words_translate_what_a_card_prints() -> None:
    german = {"power.sun": "Sonne", "effect.sun": "Sumpf → Ebene oder Ebene → Wüste"}  # no break
    root = ET.fromstring(face_svg(PowerCard(Power.SUN), words=german))
    assert [e.text for e in with_class(root, "name")] == ["Sonne"]
    assert " ".join(e.text or "" for e in with_class(root, "effect")) == german["effect.sun"]
    objective = face_svg(Objective(powers=4), words={"objective.powers": "{count} Macht-Karten"})
    assert "4 Macht-Karten" in " ".join(texts(ET.fromstring(objective)))
    back = back_svg(CardKind.POWER, words={"kind.power": "Macht"})
    assert ">Macht<" in back


@pytest.mark.parametrize("kind", list(CardKind), ids=lambda k: k.value)
def test_a_back_shows_its_kind_in_its_colour_and_nothing_else(kind: CardKind) -> None:
    picture = back_svg(kind, width=60)
    root = ET.fromstring(picture)
    assert frame_fill(root) == BACK_FILL[kind]
    assert with_class(root, "card", "back", f"kind-{kind.value}")
    assert not CARD_ID.search(picture)
    assert root.get("width") == "60"


def test_faces_show_themselves_in_a_notebook() -> None:
    for face in ALL_FACES:
        assert face._repr_svg_() == face_svg(face)


def test_lines_fit_their_box() -> None:
    lines, size = fit_lines("Take a card from each other hand; keep one", 80, 11, 4, 34)
    assert 1 < len(lines) <= 4
    assert max(len(line) for line in lines) * size * 0.6 <= 80 + 1e-9
    assert len(lines) * size * 1.12 <= 34 + 1e-9
    assert fit_lines("", 80, 11, 2) == ([], 11)
    assert fit_lines("Ur", 80, 11, 2) == (["Ur"], 11)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: face_svg(NatureCard(Land.SEA), width=0), "width"),
        (lambda: face_svg("N01"), "face"),  # type: ignore[arg-type]
        (lambda: back_svg("nature"), "kind"),  # type: ignore[arg-type]
        (lambda: back_svg(CardKind.LIFE, width=True), "width"),
        (lambda: icon("volcano", 0, 0, 10), "pictogram"),
    ],
)
def test_bad_arguments_raise_a_typed_error(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(gr.GaiaRulesError, match=message):
        call()


def test_the_world_may_name_its_lands_and_needs_by_pictogram() -> None:
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, gr.Land.DESERT)
        .tile(1, 0, gr.Land.SEA, animals=2)
        .tile(0, 1, gr.Land.PLAIN)
        .city(0, 0, "C01", pawns=[1])
        .build()
    )
    lettered = ET.fromstring(gr.svg.world_svg(position))
    drawn = ET.fromstring(gr.svg.world_svg(position, pictograms=True))
    assert [e.text for e in with_class(lettered, "land")] == ["D", "W", "P"]
    lands = with_class(drawn, "land")
    assert [with_class(e, "icon")[0].get("class") for e in lands] == [
        "icon icon-desert",
        "icon icon-sea",
        "icon icon-plain",
    ]
    for need in with_class(drawn, "need"):  # each need by its pictogram, met or not
        assert with_class(need, "icon") and need.find(f"{SVG}text") is None
    assert len(with_class(drawn, "need", "met")) == len(with_class(lettered, "need", "met")) == 3
