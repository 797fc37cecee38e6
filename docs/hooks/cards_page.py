"""The card faces page: every card of each edition's manifest, as tables per kind.

The tables are written from the manifests the library ships (``gaia_rules.manifest``), so
the page always shows the faces the engine plays with, and says which of them are
reconstructed (spec 2.8) and which the rulebooks state.
"""

from __future__ import annotations

import languages

from gaia_rules import (
    AnimalCard,
    CardId,
    CityCard,
    Edition,
    Face,
    Manifest,
    NatureCard,
    Objective,
    PowerCard,
)
from gaia_rules.rules import Rules
from gaia_rules.svg import card_svg
from gaia_rules.svg_cards import describe_face
from gaia_rules.vocabulary import Power

CARDS_DIR = "rules/cards"
"""Where the drawing of each card is written in the site, one folder per edition."""

RECONSTRUCTED = "reconstructed"
STATED = "stated"

POWER_LEVELS = {
    Power.LIGHTNING: "disasters",
    Power.ERUPTION: "disasters",
}
"""The Power cards that join the deck only at the disasters level (spec 2.7)."""


def _name(value: object) -> str:
    """The lower-case name of a land, need, site or Power, as the manifests write it."""
    return str(getattr(value, "value", value))


def _source_of(card: CardId, face: Face) -> str:
    """Whether the face of ``card`` is stated by the rulebooks or reconstructed (spec 2.8)."""
    match face:
        case NatureCard() | PowerCard():
            return STATED
        case Objective(powers=powers) if powers:
            return STATED
        case CityCard(name="Venice"):
            return "site stated (EN), needs reconstructed"
    return RECONSTRUCTED


def _rows(manifest: Manifest, face_type: type[Face]) -> list[tuple[CardId, Face]]:
    return [(card, face) for card, face in manifest.cards if isinstance(face, face_type)]


def edition_markdown(manifest: Manifest) -> str:
    """The tables of one manifest's cards, one per kind, each card on a row of its own."""
    out: list[str] = []
    nature = _rows(manifest, NatureCard)
    out += [f"#### Nature cards ({len(nature)})", "", "| id | land | face |", "|---|---|---|"]
    for card, face in nature:
        assert isinstance(face, NatureCard)
        out.append(f"| {card} | {_name(face.land)} | {_source_of(card, face)} |")
    cities = _rows(manifest, CityCard)
    out += ["", f"#### City cards ({len(cities)})", ""]
    out += ["| id | city | site | needs | face |", "|---|---|---|---|---|"]
    for card, face in cities:
        assert isinstance(face, CityCard)
        needs = ", ".join(_name(n) for n in face.needs)
        out.append(
            f"| {card} | {face.name} | {_name(face.site)} | {needs} | {_source_of(card, face)} |"
        )
    animals = _rows(manifest, AnimalCard)
    out += ["", f"#### Animal cards ({len(animals)})", ""]
    out += ["| id | site | face |", "|---|---|---|"]
    for card, face in animals:
        assert isinstance(face, AnimalCard)
        out.append(f"| {card} | {_name(face.site)} | {_source_of(card, face)} |")
    powers = _rows(manifest, PowerCard)
    out += ["", f"#### Power cards ({len(powers)})", ""]
    out += ["| id | power | from the level | face |", "|---|---|---|---|"]
    for card, face in powers:
        assert isinstance(face, PowerCard)
        level = POWER_LEVELS.get(face.power, "powers")
        out.append(f"| {card} | {_name(face.power)} | {level} | {_source_of(card, face)} |")
    objectives = _rows(manifest, Objective)
    out += ["", f"#### Objective cards ({len(objectives)})", ""]
    out += ["| id | pictures | face |", "|---|---|---|"]
    for card, face in objectives:
        assert isinstance(face, Objective)
        if face.powers:
            pictured = f"any {face.powers} Power cards (Power Objective, powers level)"
        else:
            pictured = ", ".join(_name(land) for land in face.lands)
        out.append(f"| {card} | {pictured} | {_source_of(card, face)} |")
    out.append("")
    return "\n".join(out)


def card_files(language: str = "en") -> dict[str, str]:
    """The drawing of every card of both shipped manifests, by its path in the site, in the
    words of ``language`` (the table's catalogue)."""
    words = languages.picture_words(language)
    files = {}
    for edition in (Edition.THIRD, Edition.FIRST):
        rules = Rules.disasters(edition=edition)
        for card, _ in rules.cards.cards:
            drawn = card_svg(rules, card, width=84, words=words)
            files[f"{CARDS_DIR}/{edition.value}/{card}.svg"] = drawn
    return files


def _gallery(manifest: Manifest, edition: Edition, language: str = "en") -> list[str]:
    """Every card of ``manifest`` drawn as a card, in rows by kind, for the cards page; the
    text of each picture in ``language``."""
    words = languages.picture_words(language)
    out = ['<div class="gaia-cards" markdown>', ""]
    for card, face in manifest.cards:
        told = _describe(face) if words is None else describe_face(face, words)
        out.append(f"![{card}: {told}](cards/{edition.value}/{card}.svg)")
    out += ["", "</div>", ""]
    return out


def _describe(face: Face) -> str:
    """A face in words, for the picture's text."""
    match face:
        case NatureCard(land=land):
            return f"Nature card, {_name(land)}"
        case CityCard(name=name, site=site, needs=needs):
            return f"{name}, on {_name(site)}, needs {', '.join(_name(n) for n in needs)}"
        case AnimalCard(site=site):
            return f"Animal card, on {_name(site)}"
        case PowerCard(power=power):
            return f"Power card, {_name(power)}"
        case Objective(lands=lands, powers=powers):
            return (
                f"Objective, {powers} Powers"
                if powers
                else f"Objective, {', '.join(_name(x) for x in lands)}"
            )
    return "card"


def cards_markdown(language: str = "en") -> str:
    """Both shipped manifests in content tabs, the default edition (THIRD) first, the cards'
    pictures in ``language`` (the tables are English)."""
    out: list[str] = []
    for edition in (Edition.THIRD, Edition.FIRST):
        manifest = Manifest.builtin(edition)
        count = len(manifest.cards)
        label = f"{edition.name} edition ({count} cards)"
        out += [f'=== "{label}"', ""]
        listed = ", ".join(manifest.reconstructed) or "nothing"
        out.append(f"    Reconstructed in this set of cards: {listed}.")
        out.append("")
        gallery = _gallery(manifest, edition, language)
        out += [f"    {line}" if line else "" for line in gallery]
        out += [f"    {line}" if line else "" for line in edition_markdown(manifest).split("\n")]
        out.append("")
    return "\n".join(out)


def card_counts_markdown() -> str:
    """The number of cards of each kind and type in both manifests, counted from them."""
    third, first = Manifest.builtin(Edition.THIRD), Manifest.builtin(Edition.FIRST)

    def count(manifest: Manifest, wanted: type[Face]) -> int:
        return len(_rows(manifest, wanted))

    out = [
        "| cards | THIRD edition (EN) | FIRST edition (DE, FR, HU) |",
        "|---|---|---|",
    ]
    for label, face_type in (
        ("Nature cards", NatureCard),
        ("City cards", CityCard),
        ("Animal cards", AnimalCard),
    ):
        out.append(f"| {label} | {count(third, face_type)} | {count(first, face_type)} |")
    life = count(third, CityCard) + count(third, AnimalCard)
    life_first = count(first, CityCard) + count(first, AnimalCard)
    out.append(f"| **Life cards** (City + Animal) | **{life}** | **{life_first}** |")
    out.append(f"| Objective cards | {count(third, Objective)} | {count(first, Objective)} |")
    powers_in_box = (count(third, PowerCard), count(first, PowerCard))
    out.append(f"| Power cards in the box | {powers_in_box[0]} | {powers_in_box[1]} |")
    out += ["", "| Power | cards | in the deck from |", "|---|---|---|"]
    powers = [face.power for _, face in third.cards if isinstance(face, PowerCard)]
    for power in dict.fromkeys(powers):
        level = POWER_LEVELS.get(power, "powers")
        out.append(f"| {_name(power)} | {powers.count(power)} | the {level} level |")
    return "\n".join(out)
