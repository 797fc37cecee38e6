"""Card manifests: every card of an edition, as data, validated on load (spec 2.4-2.9).

No rulebook lists the printed faces (city sites and needs, animal sites, the Nature
Objectives), so the manifests shipped with the library are reconstructed to fit every
stated fact; a player with the physical cards can load a manifest of his own
([`Manifest.from_json`][gaia_rules.manifest.Manifest.from_json]). A manifest that breaks a
stated fact raises one [`ManifestError`][gaia_rules.errors.ManifestError] listing every
problem.
"""

from __future__ import annotations

import enum
import functools
import json
import re
from collections import Counter
from collections.abc import Mapping
from importlib import resources
from typing import Any

import attrs

from gaia_rules.cards import (
    AnimalCard,
    CardId,
    CityCard,
    Face,
    NatureCard,
    Objective,
    PowerCard,
)
from gaia_rules.errors import ManifestError
from gaia_rules.jsonshape import non_text_key
from gaia_rules.vocabulary import ANIMALS, LANDS, STAR, Land, Need, Power, Site

__all__ = ["NATURE_COUNTS", "POWER_COUNTS", "TILE_COUNTS", "Edition", "Manifest"]

MANIFEST_FORMAT = 1


class Edition(enum.Enum):
    """Which rulebook's Life cards are in the box (spec 2.5)."""

    THIRD = "third"
    """EN third edition: 31 Life cards, 19 cities, Venice the only city on sea."""
    FIRST = "first"
    """DE/FR/HU: 30 Life cards, 18 cities, no city on sea."""

    def __repr__(self) -> str:
        return f"Edition.{self.name}"


TILE_COUNTS: dict[Land, int] = {
    Land.DESERT: 10,
    Land.PLAIN: 10,
    Land.SWAMP: 7,
    Land.SEA: 7,
    Land.MOUNTAIN: 6,
    Land.FOREST: 8,
}
"""The 48 land tiles (spec 2.1)."""

NATURE_COUNTS: dict[Land, int] = {
    Land.DESERT: 6,
    Land.PLAIN: 8,
    Land.SWAMP: 5,
    Land.SEA: 7,
    Land.MOUNTAIN: 6,
    Land.FOREST: 8,
}
"""The 40 Nature cards (spec 2.4)."""

POWER_COUNTS: dict[Power, int] = {
    Power.SUN: 6,
    Power.RAIN: 6,
    Power.EARTHQUAKE: 3,
    Power.TORNADO: 4,
    Power.PROTECTION: 4,
    Power.LIGHTNING: 5,
    Power.ERUPTION: 2,
}
"""The 30 Power cards of the box (spec 2.7)."""

CITY_COUNTS = {Edition.THIRD: 19, Edition.FIRST: 18}
ANIMAL_CARDS = 12
NATURE_OBJECTIVES = 7
POWER_OBJECTIVES = 2
POWERS_PER_OBJECTIVE = 4

BOX_CARDS = (
    sum(NATURE_COUNTS.values())
    + max(CITY_COUNTS.values())
    + ANIMAL_CARDS
    + sum(POWER_COUNTS.values())
    + NATURE_OBJECTIVES
    + POWER_OBJECTIVES
)
"""The 110 cards of the largest edition (2.4-2.8): no manifest holds more (1.10)."""

MAX_MANIFEST_CHARS = 1024 * 1024
"""The longest JSON text of a manifest a reader accepts (1.10); the shipped ones are about
6,000 characters."""

_ID = re.compile(r"[NCAPO][0-9]{2}")
_TOP_KEYS = {"format", "edition", "reconstructed", "note", "cards"}
_CARD_KEYS = {
    "nature": {"id", "nature"},
    "city": {"id", "city", "site", "needs"},
    "animals": {"id", "animals"},
    "power": {"id", "power"},
    "objective": {"id", "objective"},
    "objective_powers": {"id", "objective_powers"},
}
_LETTER = {NatureCard: "N", CityCard: "C", AnimalCard: "A", PowerCard: "P", Objective: "O"}


@attrs.frozen
class Manifest:
    """Every card of one box: its id and its face (spec 2.8).

    Build one with `builtin`, `from_json` or `from_dict`; each validates.
    """

    edition: Edition
    cards: tuple[tuple[CardId, Face], ...]
    reconstructed: tuple[str, ...] = ()
    _faces: dict[CardId, Face] = attrs.field(init=False, eq=False, hash=False, repr=False)
    _needing_animals: frozenset[CardId] = attrs.field(init=False, eq=False, hash=False, repr=False)
    _lands: dict[CardId, Land] = attrs.field(init=False, eq=False, hash=False, repr=False)
    _powers: dict[CardId, Power] = attrs.field(init=False, eq=False, hash=False, repr=False)
    _ids: dict[type[Face], tuple[CardId, ...]] = attrs.field(
        init=False, eq=False, hash=False, repr=False
    )
    face_ids: Mapping[CardId, CardId] = attrs.field(init=False, eq=False, hash=False, repr=False)
    """Every card's face id, by card id (spec 1.11): one mapping shared by every caller,
    never to be changed. Hot path: every view and every turn's legal actions read it, so it
    is an attribute, not a property (a property's call cost a decision about 4%)."""

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_faces", dict(self.cards))
        object.__setattr__(self, "face_ids", _face_ids(self.cards))
        object.__setattr__(
            self,
            "_needing_animals",
            frozenset(c for c, f in self.cards if isinstance(f, CityCard) and f.needs_animals),
        )
        object.__setattr__(
            self, "_lands", {c: f.land for c, f in self.cards if isinstance(f, NatureCard)}
        )
        object.__setattr__(
            self, "_powers", {c: f.power for c, f in self.cards if isinstance(f, PowerCard)}
        )
        object.__setattr__(self, "_ids", {})
        problems = _problems(self.edition, self.cards)
        if problems:
            raise ManifestError(problems)

    # -- lookups -------------------------------------------------------------------------

    def face(self, card: CardId) -> Face:
        """The face of a card.

        Raises:
            KeyError: The box has no such card.
        """
        return self._faces[card]

    def land(self, card: CardId) -> Land | None:
        """The land of a Nature card (spec 2.4); ``None`` for any other card. Hot path: the
        Objectives read the land of every card in front at every check, so it is one dict
        lookup."""
        return self._lands.get(card)

    def power(self, card: CardId) -> Power | None:
        """The Power of a Power card (spec 2.7); ``None`` for anything else. Hot path: the
        turn's actions read it of every card in hand."""
        return self._powers.get(card)

    def needs_animals(self, card: CardId) -> bool:
        """Whether ``card`` is a City card with the animal need (spec 11.2); ``False`` for any
        other card. Hot path: asked of every city at every turn's feeding, so it is one set
        lookup."""
        return card in self._needing_animals

    def face_id(self, card: CardId) -> CardId:
        """The face id of a card: the lowest id among the cards with its face; a card with no
        copy (every City card and every Objective) is its own face id (spec 1.11).

        Raises:
            KeyError: The box has no such card.
        """
        return self.face_ids[card]

    def __contains__(self, card: object) -> bool:
        return card in self._faces

    def ids(self, face_type: type[Face]) -> tuple[CardId, ...]:
        """The ids of every card with faces of ``face_type``, in id order. Hot path: a
        setup and every sample of a search ask for them, so each is found once per manifest
        (which never changes)."""
        found = self._ids.get(face_type)
        if found is None:
            found = self._ids[face_type] = tuple(
                sorted(c for c, f in self.cards if isinstance(f, face_type))
            )
        return found

    def named(self, name: str) -> CardId:
        """The id of the City card called ``name`` (``"Venice"``, ``"petra"``): the card
        faces name only the cities (spec 2.5a); case does not matter.

        Raises:
            KeyError: No City card of this manifest has that name; the message lists them.
        """
        wanted = name.casefold() if isinstance(name, str) else None
        for card, face in self.cards:
            if isinstance(face, CityCard) and face.name.casefold() == wanted:
                return card
        names = sorted(face.name for _, face in self.cards if isinstance(face, CityCard))
        raise KeyError(f"no City card named {name!r} in this manifest; there are {names}")

    def city(self, card: CardId) -> CityCard:
        """The face of a City card.

        Raises:
            KeyError: The box has no such card, or it is not a City card.
        """
        face = self._faces[card]
        if not isinstance(face, CityCard):
            raise KeyError(f"{card!r} is not a City card")
        return face

    # -- construction --------------------------------------------------------------------

    @staticmethod
    def builtin(edition: Edition) -> Manifest:
        """The reconstructed manifest shipped for ``edition`` (spec 2.8), read once and cached.

        The shipped files are checked by the tests, so this raises nothing in practice; a
        broken file would raise [`ManifestError`][gaia_rules.errors.ManifestError].
        """
        return _builtin(edition)

    @classmethod
    def from_json(cls, text: str | bytes) -> Manifest:
        """Parse and validate a manifest from its JSON text (the format of the shipped files).

        Args:
            text: The JSON text, as in ``gaia_rules/manifests/third.json``.

        Raises:
            ManifestError: ``text`` is not JSON, is not a manifest (unknown keys, a wrong
                ``"format"`` or edition, a card without a known face), or is one that breaks
                the stated facts (counts, ids, faces: spec 2.4-2.9). Its ``problems`` list
                every problem found, not only the first.
        """
        if isinstance(text, str | bytes) and len(text) > MAX_MANIFEST_CHARS:
            raise ManifestError(
                [f"{len(text)} characters; a manifest has at most {MAX_MANIFEST_CHARS} (1.10)"]
            )
        try:
            data = json.loads(text)
        except (ValueError, TypeError, RecursionError) as exc:
            raise ManifestError([f"not JSON: {exc}"]) from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Manifest:
        """Validate a manifest from already-parsed JSON.

        Args:
            data: The parsed JSON object, as [`to_dict`][gaia_rules.manifest.Manifest.to_dict]
                writes it.

        Raises:
            ManifestError: ``data`` is not a manifest or breaks the stated facts, as for
                [`from_json`][gaia_rules.manifest.Manifest.from_json].
        """
        problems: list[str] = []
        if type(data) is not dict:
            raise ManifestError(["the manifest must be a JSON object"])
        shipped = _shipped(data)
        if shipped is not None:
            return shipped
        problem = non_text_key(data)
        if problem is not None:
            raise ManifestError([problem])
        unknown = sorted(str(k) for k in data if k not in _TOP_KEYS)
        if unknown:
            problems.append(f"unknown key(s) {unknown}; expected {sorted(_TOP_KEYS)}")
        if type(data.get("format")) is not int or data.get("format") != MANIFEST_FORMAT:
            problems.append(f"format: expected {MANIFEST_FORMAT}, got {data.get('format')!r}")
        try:
            edition = Edition(data.get("edition"))
        except ValueError:
            problems.append(
                f"edition: expected one of {[e.value for e in Edition]}, "
                f"got {data.get('edition')!r}"
            )
            edition = Edition.THIRD
        reconstructed = data.get("reconstructed", [])
        if type(reconstructed) is not list or not all(type(r) is str for r in reconstructed):
            problems.append("reconstructed: expected a list of strings")
            reconstructed = []
        raw_cards = data.get("cards")
        cards: list[tuple[CardId, Face]] = []
        if type(raw_cards) is not list:  # no card to count: the facts would say nothing
            raise ManifestError(
                [*problems, f"cards: expected a list, got {type(raw_cards).__name__}"]
            )
        if len(raw_cards) > BOX_CARDS:
            raise ManifestError(
                [f"cards: {len(raw_cards)} cards; a box holds at most {BOX_CARDS} (1.10)"]
            )
        for index, raw in enumerate(raw_cards):
            parsed = _parse_card(raw, f"cards[{index}]", problems)
            if parsed is not None:
                cards.append(parsed)
        if problems:  # list the facts the parsed cards break too: one error says everything
            raise ManifestError(problems + _problems(edition, tuple(cards)))
        return cls(edition, tuple(cards), tuple(reconstructed))

    def to_dict(self) -> dict[str, Any]:
        """The manifest as JSON-ready data (the shipped files' format)."""
        return {
            "format": MANIFEST_FORMAT,
            "edition": self.edition.value,
            "reconstructed": list(self.reconstructed),
            "cards": [_unparse_card(card, face) for card, face in self.cards],
        }

    def to_json(self) -> str:
        """The manifest as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False)


def _face_ids(cards: tuple[tuple[CardId, Face], ...]) -> dict[CardId, CardId]:
    """Each card's face id (spec 1.11): the lowest id with its face. City cards and
    Objectives are faces of their own, whatever they show."""
    first: dict[Face, CardId] = {}
    found: dict[CardId, CardId] = {}
    for card, face in sorted(cards, key=lambda pair: pair[0]):  # by id alone: faces have no order
        if isinstance(face, CityCard | Objective):
            found[card] = card
        else:
            found[card] = first.setdefault(face, card)
    return found


@functools.cache
def _builtin(edition: Edition) -> Manifest:
    text = (
        resources.files("gaia_rules.manifests")
        .joinpath(f"{edition.value}.json")
        .read_text(encoding="utf-8")
    )
    manifest = Manifest.from_json(text)
    _SHIPPED[edition] = (manifest.to_dict(), manifest)
    return manifest


def _shipped(data: dict[Any, Any]) -> Manifest | None:
    """The shipped manifest that ``data`` describes exactly, if it is one.

    Hot path: every record carries its manifest, almost always a shipped one, and comparing
    the data with the shipped manifest's own costs a fraction of parsing and checking it
    again. Python's ``==`` takes ``true`` and ``1.0`` for ``1``; JSON does not, so the only
    numbers a manifest holds are checked to be whole numbers as well.
    """
    edition = data.get("edition")
    if type(edition) is not str or edition not in _EDITION_VALUES:
        return None
    known = _SHIPPED.get(Edition(edition))
    if known is None or data != known[0] or type(data["format"]) is not int:
        return None
    for card in data["cards"]:
        powers = card.get("objective_powers")
        if powers is not None and type(powers) is not int:
            return None
    return known[1]


_EDITION_VALUES = frozenset(edition.value for edition in Edition)
_SHIPPED: dict[Edition, tuple[dict[str, Any], Manifest]] = {}
"""The data and the manifest of each shipped edition read so far (see `_builtin`)."""


# -- parsing ------------------------------------------------------------------------------


def parse_need(value: Any) -> Need | None:
    """The need a wire value names (a land's value, or ``"animals"``), or ``None``."""
    if type(value) is not str:
        return None
    if value == ANIMALS.value:
        return ANIMALS
    try:
        return Land(value)
    except ValueError:
        return None


def parse_site(value: Any) -> Site | None:
    """The site a wire value names (a land's value, or ``"star"``), or ``None``."""
    if type(value) is not str:
        return None
    if value == STAR.value:
        return STAR
    try:
        return Land(value)
    except ValueError:
        return None


def _parse_card(raw: Any, where: str, problems: list[str]) -> tuple[CardId, Face] | None:
    if type(raw) is not dict:
        problems.append(f"{where}: expected an object")
        return None
    card = raw.get("id")
    if type(card) is not str or not _ID.fullmatch(card):
        problems.append(
            f"{where}.id: expected a letter N, C, A, P or O and two digits, got {card!r}"
        )
        return None
    where = f"{where} ({card})"
    face: Face | None = None
    kind = next((key for key in _CARD_KEYS if key in raw), None)
    if kind is not None and set(raw) - _CARD_KEYS[kind]:
        extra = sorted(str(k) for k in set(raw) - _CARD_KEYS[kind])
        problems.append(f"{where}: unknown key(s) {extra} for a {kind} card")
        return None
    if "nature" in raw:
        try:
            face = NatureCard(Land(raw["nature"]))
        except ValueError:
            problems.append(f"{where}.nature: not a land: {raw['nature']!r}")
    elif "city" in raw:
        name, site, needs = raw.get("city"), parse_site(raw.get("site")), raw.get("needs")
        if type(name) is not str or not name:
            problems.append(f"{where}.city: expected the city's name")
        elif site is None:
            problems.append(f"{where}.site: expected a land or 'star', got {raw.get('site')!r}")
        elif type(needs) is not list or not all(parse_need(n) is not None for n in needs):
            problems.append(f"{where}.needs: expected a list of lands or 'animals'")
        else:
            parsed = tuple(n for n in (parse_need(v) for v in needs) if n is not None)
            face = CityCard(name, site, parsed)
    elif "animals" in raw:
        site = parse_site(raw["animals"])
        if site is None:
            problems.append(f"{where}.animals: expected a land or 'star', got {raw['animals']!r}")
        else:
            face = AnimalCard(site)
    elif "power" in raw:
        try:
            face = PowerCard(Power(raw["power"]))
        except ValueError:
            problems.append(f"{where}.power: not a Power: {raw['power']!r}")
    elif "objective" in raw:
        lands = raw["objective"]
        try:
            if type(lands) is not list:  # a text is not a list of its letters
                raise TypeError(lands)
            face = Objective(lands=tuple(Land(v) for v in lands))
        except (ValueError, TypeError):
            problems.append(f"{where}.objective: expected a list of lands")
    elif "objective_powers" in raw:
        count = raw["objective_powers"]
        if type(count) is not int:
            problems.append(f"{where}.objective_powers: expected a number")
        else:
            face = Objective(powers=count)
    else:
        problems.append(
            f"{where}: expected one of the keys nature, city, animals, power, objective, "
            "objective_powers"
        )
    return None if face is None else (card, face)


def _unparse_card(card: CardId, face: Face) -> dict[str, Any]:
    match face:
        case NatureCard(land):
            return {"id": card, "nature": land.value}
        case CityCard(name, site, needs):
            return {"id": card, "city": name, "site": site.value, "needs": [n.value for n in needs]}
        case AnimalCard(site):
            return {"id": card, "animals": site.value}
        case PowerCard(power):
            return {"id": card, "power": power.value}
        case Objective(lands, powers) if powers:
            return {"id": card, "objective_powers": powers}
        case Objective(lands, powers):
            return {"id": card, "objective": [land.value for land in lands]}
    raise AssertionError(face)  # pragma: no cover


# -- validation (spec 2.4-2.9) ------------------------------------------------------------


def _problems(edition: Edition, all_cards: tuple[tuple[CardId, Face], ...]) -> list[str]:
    problems: list[str] = []
    seen: Counter[str] = Counter(card for card, _ in all_cards)
    problems += [f"{card}: the id is used {n} times" for card, n in sorted(seen.items()) if n > 1]
    for card, face in all_cards:
        letter = _LETTER[type(face)]
        if not card.startswith(letter):
            problems.append(f"{card}: a {type(face).__name__} id must start with {letter!r}")

    def count(face_type: type[Face]) -> list[Face]:
        return [f for _, f in all_cards if isinstance(f, face_type)]

    problems += _numbering(all_cards)
    nature = Counter(f.land for f in count(NatureCard) if isinstance(f, NatureCard))
    for land in LANDS:
        if nature[land] != NATURE_COUNTS[land]:
            problems.append(
                f"Nature cards: expected {NATURE_COUNTS[land]} {land.value} cards, "
                f"got {nature[land]} (spec 2.4)"
            )
    cities = [(c, f) for c, f in all_cards if isinstance(f, CityCard)]
    expected_cities = CITY_COUNTS[edition]
    if len(cities) != expected_cities:
        problems.append(
            f"City cards: the {edition.value} edition has {expected_cities}, "
            f"got {len(cities)} (spec 2.5)"
        )
    for card, city in cities:
        if len(city.needs) != 4:
            problems.append(f"{card} ({city.name}): a city has 4 needs, got {len(city.needs)}")
        if len(set(city.needs)) != len(city.needs):
            problems.append(f"{card} ({city.name}): a city's needs must be distinct (spec 2.5a)")
    on_sea = [city.name for _, city in cities if city.site is Land.SEA]
    if edition is Edition.THIRD and len(on_sea) != 1:
        problems.append(
            f"the third edition has exactly one city with a sea site (Venice), got {on_sea} "
            "(spec 2.5)"
        )
    if edition is Edition.FIRST and on_sea:
        problems.append(f"the first edition has no city with a sea site, got {on_sea} (spec 2.5)")
    if len(count(AnimalCard)) != ANIMAL_CARDS:
        problems.append(
            f"Animal cards: expected {ANIMAL_CARDS}, got {len(count(AnimalCard))} (spec 2.5)"
        )
    powers = Counter(f.power for f in count(PowerCard) if isinstance(f, PowerCard))
    for power, expected in POWER_COUNTS.items():
        if powers[power] != expected:
            problems.append(
                f"Power cards: expected {expected} {power.value} cards, got {powers[power]} "
                "(spec 2.7)"
            )
    objectives = [(c, f) for c, f in all_cards if isinstance(f, Objective)]
    nature_objectives = [(c, o) for c, o in objectives if not o.is_power]
    power_objectives = [(c, o) for c, o in objectives if o.is_power]
    if len(nature_objectives) != NATURE_OBJECTIVES:
        problems.append(
            f"Nature Objectives: expected {NATURE_OBJECTIVES}, got {len(nature_objectives)} "
            "(spec 2.6)"
        )
    if len(power_objectives) != POWER_OBJECTIVES:
        problems.append(
            f"Power Objectives: expected {POWER_OBJECTIVES}, got {len(power_objectives)} (spec 2.6)"
        )
    for card, objective in nature_objectives:
        pictured = Counter(objective.lands)
        two_pairs = len(objective.lands) == 4 and sorted(pictured.values()) == [2, 2]
        one_of_each = sorted(objective.lands, key=LANDS.index) == list(LANDS)
        if not (two_pairs or one_of_each):
            problems.append(
                f"{card}: a Nature Objective pictures two pairs of lands or one of each land "
                f"(spec 2.6), got {[land.value for land in objective.lands]}"
            )
    for card, objective in power_objectives:
        if objective.powers != POWERS_PER_OBJECTIVE or objective.lands:
            problems.append(f"{card}: a Power Objective asks for 4 Power cards (spec 2.6)")
    return problems


def _numbering(all_cards: tuple[tuple[CardId, Face], ...]) -> list[str]:
    """The ids of spec 2.9: Nature by land order, Power by type, Objectives Nature first,
    City and Animal cards numbered from 01 without gaps."""

    problems: list[str] = []
    groups: dict[str, list[tuple[CardId, Face]]] = {}
    for card, face in all_cards:
        groups.setdefault(_LETTER[type(face)], []).append((card, face))
    orders: dict[str, Any] = {  # the rank of a face within its letter's numbering
        "N": lambda face: LANDS.index(face.land),
        "P": lambda face: list(POWER_COUNTS).index(face.power),
        "O": lambda face: face.is_power,
    }
    for letter, faces in groups.items():
        ids = sorted(card for card, _ in faces)
        wanted = [f"{letter}{n:02d}" for n in range(1, len(faces) + 1)]
        if ids != wanted:
            problems.append(f"{letter} cards: ids must run {wanted[0]}-{wanted[-1]} (spec 2.9)")
            continue
        if letter in orders:
            by_id = [face for _, face in sorted(faces)]
            sorted_faces = sorted(by_id, key=orders[letter])
            if by_id != sorted_faces:
                what = {
                    "N": "lands in the order of 2.1",
                    "P": "Powers by type",
                    "O": "the Nature Objectives before the Power Objectives",
                }[letter]
                problems.append(f"{letter} cards: ids must follow {what} (spec 2.9)")
    return problems
