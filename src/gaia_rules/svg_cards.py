"""Card faces and backs as SVG: every card of the box drawn as a card, in the colours of the
box (Nature green, Life blue, Power red, Objectives yellow), with a pictogram for each land,
the animals, the star site and each Power, so that no card is told apart by colour alone.

[`face_svg`][gaia_rules.svg_cards.face_svg] draws a face (a value of
[`gaia_rules.cards`][gaia_rules.cards]), [`back_svg`][gaia_rules.svg_cards.back_svg] a card
back; [`card_parts`][gaia_rules.svg_cards.card_parts] draws either inside a larger picture
(the table of ``gaia_rules.svg``). A face is drawn from the face alone, never from a card id:
two copies of one face give the same picture (RULINGS 30), so a front end that shows these
pictures shows faces. City names are drawn in full, on two lines or smaller when long.

The words printed on a card (a land's name, a Power's name and its effect in one line, "4
Power cards", the kinds on the backs) come from ``words``, a mapping from the keys of
[`CARD_WORDS`][gaia_rules.svg_cards.CARD_WORDS] to text: English by default, so a front end
in another language passes its own. City names are the manifest's, as printed on the card.

    >>> from gaia_rules.cards import PowerCard
    >>> from gaia_rules.vocabulary import Power
    >>> picture = face_svg(PowerCard(Power.SUN), width=100)
    >>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), "Sun" in picture
    (True, True)
    >>> "Sonne" in face_svg(PowerCard(Power.SUN), words={"power.sun": "Sonne"})
    True
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping

from gaia_rules import hooks
from gaia_rules.cards import AnimalCard, CityCard, Face, NatureCard, Objective, PowerCard
from gaia_rules.errors import GaiaRulesError
from gaia_rules.vocabulary import ANIMALS, STAR, CardKind, Land, Need, Power, Site

__all__ = [
    "BACK_FILL",
    "CARD_WORDS",
    "FACE_FILL",
    "LAND_FILL",
    "LAND_INK",
    "back_svg",
    "card_parts",
    "describe_face",
    "face_svg",
    "icon",
    "standalone_card",
]

LAND_FILL = {
    Land.DESERT: "#f3dc8f",
    Land.PLAIN: "#b9dd77",
    Land.SWAMP: "#8a7b55",
    Land.SEA: "#3d85c6",
    Land.MOUNTAIN: "#a3a3a3",
    Land.FOREST: "#2d6a36",
}
"""Land colours, chosen to differ in lightness too; each land's pictogram settles any doubt."""

LAND_INK = {
    Land.DESERT: "#1a1a1a",
    Land.PLAIN: "#1a1a1a",
    Land.SWAMP: "#ffffff",
    Land.SEA: "#ffffff",
    Land.MOUNTAIN: "#1a1a1a",
    Land.FOREST: "#ffffff",
}
"""The colour of a pictogram or a letter drawn on each land."""

BACK_FILL = {CardKind.NATURE: "#2e7d32", CardKind.LIFE: "#1565c0", CardKind.POWER: "#c62828"}
"""The card backs, as in the box (spec 2.3): Nature green, Life blue, Power red."""

FACE_FILL = {
    "nature": BACK_FILL[CardKind.NATURE],
    "life": BACK_FILL[CardKind.LIFE],
    "power": BACK_FILL[CardKind.POWER],
    "objective": "#e8b100",
}
"""The frame of each kind of face: the colour of its back; Objectives yellow."""

ANIMAL_FILL = "#d9480f"
"""The animal tokens and the animal need."""

LINE = "#222222"
_PAPER = "#fdfbf5"
_POWER_PANEL = "#fde9e7"
_POWER_INK = "#8e1b1b"
_OBJECTIVE_PANEL = "#fff6d1"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

CARD_WORDS: Mapping[str, str] = {
    "land.desert": "Desert",
    "land.plain": "Plain",
    "land.swamp": "Swamp",
    "land.sea": "Sea",
    "land.mountain": "Mountain",
    "land.forest": "Forest",
    "site.star": "any land but sea",
    "site.star.animals": "any land",
    "animals": "Animals",
    "animals.token": "animal tokens",
    "power.sun": "Sun",
    "power.rain": "Rain",
    "power.earthquake": "Earthquake",
    "power.tornado": "Tornado",
    "power.protection": "Protection",
    "power.lightning": "Lightning",
    "power.eruption": "Eruption",
    "effect.sun": "Swamp → plain\nor plain → desert",
    "effect.rain": "Desert → plain\nor plain → swamp",
    "effect.earthquake": "Swap two neighbouring tiles",
    "effect.tornado": "Take a card from each other hand; keep one",
    "effect.protection": "Cancel a Power another player just played",
    "effect.lightning": "Clear one tile: city, animals, pawns",
    "effect.eruption": "Clear a mountain and its neighbours; plains, forests, swamps → desert",
    "objective": "Objective",
    "objective.powers": "{count} Power cards",
    "kind.nature": "Nature",
    "kind.life": "Life",
    "kind.power": "Power",
    "title.nature": "Nature card: {land}",
    "title.city": "{name}: a city on {site}, needs {needs}",
    "title.animals": "Animal card: 4 animal tokens on {site}",
    "title.power": "Power card: {power}. {effect}",
    "title.objective": "Objective: {lands}",
    "title.objective.powers": "Power Objective: {count} Power cards",
    "title.back": "A {kind} card, face down",
    # the cities of the shipped manifests, by the name the manifest gives them
    "city.Alexandria": "Alexandria",
    "city.Athens": "Athens",
    "city.Babylon": "Babylon",
    "city.Carthage": "Carthage",
    "city.Cuzco": "Cuzco",
    "city.Jericho": "Jericho",
    "city.Kyoto": "Kyoto",
    "city.Lhasa": "Lhasa",
    "city.Memphis": "Memphis",
    "city.Nineveh": "Nineveh",
    "city.Petra": "Petra",
    "city.Rome": "Rome",
    "city.Sparta": "Sparta",
    "city.Tenochtitlan": "Tenochtitlan",
    "city.Thebes": "Thebes",
    "city.Troy": "Troy",
    "city.Ur": "Ur",
    "city.Uruk": "Uruk",
    "city.Venice": "Venice",
}
"""The words a card shows, in English, by key. ``words`` arguments override any of them;
``{name}``-style fields are filled in by the drawing, and a line break (``\\n``) says where a
line of the card ends."""


def _n(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def escape(text: str) -> str:
    """Text safe in XML content and in double-quoted attributes."""
    text = _NOT_XML.sub("\ufffd", text)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _word(words: Mapping[str, str] | None, key: str, **fields: object) -> str:
    """The text of ``key`` in ``words`` (else in English), its fields filled in."""
    text = (words or {}).get(key) or CARD_WORDS[key]
    for name, value in fields.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _city_name(name: str, words: Mapping[str, str] | None) -> str:
    """A city's name in ``words`` (``city.<name>``), else as the manifest gives it."""
    return (words or {}).get(f"city.{name}") or name


def _site_word(site: Site, words: Mapping[str, str] | None, *, animals: bool = False) -> str:
    """A site in words: a land, or the star (a city's: any land but sea; animals': any)."""
    if site is STAR:
        return _word(words, "site.star.animals" if animals else "site.star")
    return _word(words, f"land.{site.value}")


def _need_word(need: Need, words: Mapping[str, str] | None) -> str:
    return _word(words, "animals") if need is ANIMALS else _word(words, f"land.{need.value}")


# -- pictograms ---------------------------------------------------------------------------------

_ICONS: dict[str, str] = {
    # lands
    "desert": (
        '<circle cx="17" cy="6.5" r="3.6" fill="{ink}"/>'
        '<path d="M1 21.5V17C4.5 12 9 12 13 16.5C16.5 13.5 20 13.5 23 16V21.5Z" fill="{ink}"/>'
    ),
    "plain": (
        '<path d="M6 22V9M12 22V5M18 22V9" stroke="{ink}" stroke-width="1.4"/>'
        '<path d="M6 9l-2.2-2.6M6 9l2.2-2.6M6 13l-2.4-2.4M6 13l2.4-2.4M12 5L9.8 2.4M12 5l2.2-2.6'
        "M12 9l-2.4-2.4M12 9l2.4-2.4M12 13l-2.4-2.4M12 13l2.4-2.4M18 9l-2.2-2.6M18 9l2.2-2.6"
        'M18 13l-2.4-2.4M18 13l2.4-2.4" stroke="{ink}" stroke-width="1.7" '
        'stroke-linecap="round"/>'
    ),
    "swamp": (
        '<path d="M7 17V6.5M12 17V4M17 17V7.5" stroke="{ink}" stroke-width="1.5"/>'
        '<rect x="5.6" y="6.5" width="2.8" height="6" rx="1.4" fill="{ink}"/>'
        '<rect x="10.6" y="4" width="2.8" height="6" rx="1.4" fill="{ink}"/>'
        '<rect x="15.6" y="7.5" width="2.8" height="6" rx="1.4" fill="{ink}"/>'
        '<path d="M1.5 20.5q2.6-2.4 5.2 0t5.2 0t5.2 0t5.2 0" fill="none" stroke="{ink}" '
        'stroke-width="1.8" stroke-linecap="round"/>'
    ),
    "sea": (
        '<path d="M1.5 7.5q2.6-3 5.2 0t5.2 0t5.2 0t5.2 0M1.5 13q2.6-3 5.2 0t5.2 0t5.2 0t5.2 0'
        'M1.5 18.5q2.6-3 5.2 0t5.2 0t5.2 0t5.2 0" fill="none" stroke="{ink}" '
        'stroke-width="2" stroke-linecap="round"/>'
    ),
    "mountain": (
        '<path d="M1 21L9 5.5L13.5 13.5L16.5 9L23 21Z" fill="none" stroke="{ink}" '
        'stroke-width="2" stroke-linejoin="round"/>'
        '<path d="M9 5.5L6.2 10.9L8.2 10L9.8 11.6L11.6 10.2Z" fill="{ink}"/>'
    ),
    "forest": (
        '<path d="M7.5 2.5L12.5 10H10L14 16H8.5V21.5H6.5V16H1L5 10H2.5Z" fill="{ink}"/>'
        '<path d="M17 6L21.5 13H19.3L23 18.5H18V21.5H16V18.5H11.2L14.8 13H12.6Z" fill="{ink}"/>'
    ),
    # the animals (the rulebook's paw), the star site, a city
    "animals": (
        '<ellipse cx="12" cy="16" rx="5.2" ry="4.6" fill="{ink}"/>'
        '<ellipse cx="5" cy="10.5" rx="2.2" ry="2.8" fill="{ink}"/>'
        '<ellipse cx="9.4" cy="6" rx="2.2" ry="2.9" fill="{ink}"/>'
        '<ellipse cx="14.6" cy="6" rx="2.2" ry="2.9" fill="{ink}"/>'
        '<ellipse cx="19" cy="10.5" rx="2.2" ry="2.8" fill="{ink}"/>'
    ),
    "star": (
        '<path d="M12 1.8L14.9 8.9L22.5 9.4L16.7 14.3L18.5 21.7L12 17.7L5.5 21.7L7.3 14.3'
        'L1.5 9.4L9.1 8.9Z" fill="{ink}"/>'
    ),
    "city": (
        '<path d="M2 22V12H6V8H9V3.5H10V2H11V3.5H12V8H15V11H18.5V6.5L20.5 4.5L22.5 6.5V22Z" '
        'fill="{ink}"/>'
        '<path d="M4 14h1.2v1.6H4ZM7 10.5h1.2v1.6H7ZM10 6h1.2v1.6H10ZM10 10.5h1.2v1.6H10Z'
        "M13 10.5h1.2v1.6H13ZM16.3 13h1.2v1.6h-1.2ZM20 8.5h1.2v1.6H20ZM20 13h1.2v1.6H20Z"
        'M7 14h1.2v1.6H7ZM13 14h1.2v1.6H13ZM10 17.5h3v4.5h-3Z" fill="#ffffff" '
        'fill-opacity="0.85"/>'
    ),
    # the Powers
    "sun": (
        '<circle cx="12" cy="12" r="5" fill="{ink}"/>'
        '<path d="M12 1.5V4.5M12 19.5V22.5M1.5 12H4.5M19.5 12H22.5M4.6 4.6L6.7 6.7M17.3 17.3'
        'L19.4 19.4M4.6 19.4L6.7 17.3M17.3 6.7L19.4 4.6" stroke="{ink}" stroke-width="2" '
        'stroke-linecap="round"/>'
    ),
    "rain": (
        '<path d="M6.5 13.5H18A4 4 0 0 0 18 5.6A5.6 5.6 0 0 0 7.4 5.2A4.2 4.2 0 0 0 6.5 13.5Z" '
        'fill="{ink}"/>'
        '<path d="M7.5 16.5L6 20.5M12.5 16.5L11 20.5M17.5 16.5L16 20.5" stroke="{ink}" '
        'stroke-width="2" stroke-linecap="round"/>'
    ),
    "earthquake": (
        '<path d="M1.5 13H6L8 8.5L10.5 18L13 5L15.5 16.5L17.5 11L18.5 13H22.5" fill="none" '
        'stroke="{ink}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"/>'
        '<path d="M3 21.5H10M14 21.5H21" stroke="{ink}" stroke-width="2" '
        'stroke-linecap="round"/>'
    ),
    "tornado": (
        '<path d="M2.5 4H21.5M4.5 8.2H19M6.8 12.4H16.2M9 16.6H14.8M10.8 20.8H13" '
        'stroke="{ink}" stroke-width="2.2" stroke-linecap="round"/>'
    ),
    "protection": (
        '<path d="M12 1.5L21 5.2V11.5C21 16.8 17.3 20.8 12 22.5C6.7 20.8 3 16.8 3 11.5V5.2Z" '
        'fill="{ink}"/>'
        '<path d="M7.8 11.8L10.8 14.8L16.4 8.8" fill="none" stroke="#ffffff" '
        'stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>'
    ),
    "lightning": '<path d="M13.5 1L4 13.8H10.8L8.8 23L20 9.6H13.2Z" fill="{ink}"/>',
    "eruption": (
        '<path d="M1.5 22.5L8.5 11.5H15.5L22.5 22.5Z" fill="{ink}"/>'
        '<path d="M12 9V2.5M8.6 8.6L5.5 4M15.4 8.6L18.5 4" stroke="{ink}" stroke-width="2" '
        'stroke-linecap="round"/>'
    ),
}
"""Each pictogram in a 24-unit box, drawn in one colour (``{ink}``)."""


def icon(name: str, x: float, y: float, size: float, ink: str = LINE) -> str:
    """The pictogram ``name`` (a land, ``animals``, ``star``, ``city`` or a Power) as SVG,
    filling the square of side ``size`` at (``x``, ``y``), in the colour ``ink``.

    Raises:
        GaiaRulesError: there is no pictogram of that name.
    """
    body = _ICONS.get(name)
    if body is None:
        raise GaiaRulesError(f"no pictogram {name!r}; the pictograms are {sorted(_ICONS)}")
    scale = size / 24
    return (
        f'<g class="icon icon-{name}" transform="translate({_n(x)},{_n(y)}) '
        f'scale({_n(scale)})">{body.replace("{ink}", ink)}</g>'
    )


def badge(need: Need | Site, x: float, y: float, size: float) -> str:
    """A land (its colour and pictogram), the animals (a token with the paw) or the star
    site, as a small square badge: how a city's needs and sites are shown."""
    radius = size * 0.18
    pad = size * 0.13
    if need is ANIMALS:
        shape = (
            f'<circle cx="{_n(x + size / 2)}" cy="{_n(y + size / 2)}" r="{_n(size / 2)}" '
            f'fill="{ANIMAL_FILL}" stroke="{LINE}" stroke-width="0.8"/>'
        )
        return (
            f'<g class="badge need-animals">{shape}'
            f"{icon('animals', x + pad, y + pad, size - 2 * pad, '#ffffff')}</g>"
        )
    if need is STAR:
        shape = (
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" '
            f'rx="{_n(radius)}" fill="#ffffff" stroke="{LINE}" stroke-width="0.8"/>'
        )
        return (
            f'<g class="badge site-star">{shape}'
            f"{icon('star', x + pad, y + pad, size - 2 * pad, '#c98a00')}</g>"
        )
    assert isinstance(need, Land)
    shape = (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" '
        f'rx="{_n(radius)}" fill="{LAND_FILL[need]}" stroke="{LINE}" stroke-width="0.8"/>'
    )
    return (
        f'<g class="badge land-{need.value}">{shape}'
        f"{icon(need.value, x + pad, y + pad, size - 2 * pad, LAND_INK[need])}</g>"
    )


# -- text that fits -----------------------------------------------------------------------------

_EM = 0.6
"""The width of an average character of a bold sans-serif face, in ems (a generous
estimate: a line measured with it fits)."""

_LEADING = 1.12
"""The distance between two lines, in ems."""


def fit_lines(
    text: str, width: float, size: float, lines: int, height: float | None = None
) -> tuple[list[str], float]:
    """``text`` broken at spaces into at most ``lines`` lines (at its line breaks, if it has
    any), and the largest font size up to ``size`` at which the longest of them fits ``width``
    (and all of them ``height``)."""
    words = text.split()
    if not words:
        return [], size
    if "\n" in text:
        given = [" ".join(line.split()) for line in text.split("\n") if line.strip()]
        fitting = min(size, width / (max(map(len, given)) * _EM))
        if height is not None:
            fitting = min(fitting, height / (len(given) * _LEADING))
        return given, fitting
    tries: list[tuple[list[str], float]] = []
    for count in range(1, max(1, lines) + 1):
        broken = _balanced(words, count)
        longest = max(len(line) for line in broken)
        fitting = min(size, width / (longest * _EM))
        if height is not None:
            fitting = min(fitting, height / (len(broken) * _LEADING))
        tries.append((broken, fitting))
    largest = max(fitting for _, fitting in tries)
    # fewer lines read better: take the fewest that lose less than a tenth of the size
    return next(found for found in tries if found[1] >= largest * 0.9)


def _balanced(words: list[str], count: int) -> list[str]:
    """``words`` on at most ``count`` lines, the longest line as short as it can be."""
    best = [" ".join(words)]
    # every way to cut the words into ``count`` lines or fewer (a card's few words)
    for lines in range(2, min(count, len(words)) + 1):
        for cuts in itertools.combinations(range(1, len(words)), lines - 1):
            bounds = [0, *cuts, len(words)]
            broken = [" ".join(words[a:b]) for a, b in itertools.pairwise(bounds)]
            if max(map(len, broken)) < max(map(len, best)):
                best = broken
    return best


def _text_block(
    text: str,
    cx: float,
    top: float,
    *,
    width: float,
    size: float,
    lines: int,
    ink: str,
    height: float | None = None,
    bold: bool = True,
    css: str = "",
) -> str:
    """``text`` centred on ``cx``, its first line's top at ``top``, fitted to ``width`` (and
    ``height``)."""
    broken, fitted = fit_lines(text, width, size, lines, height)
    weight = ' font-weight="bold"' if bold else ""
    klass = f' class="{css}"' if css else ""
    out = []
    for index, line in enumerate(broken):
        y = top + fitted * (0.85 + index * _LEADING)
        out.append(
            f'<text{klass} x="{_n(cx)}" y="{_n(y)}" font-size="{_n(fitted)}"{weight} '
            f'text-anchor="middle" fill="{ink}">{escape(line)}</text>'
        )
    return "".join(out)


# -- faces --------------------------------------------------------------------------------------

_W, _H = 100.0, 140.0
"""A card is drawn in a 100 by 140 box, then scaled."""


def _frame(fill: str, panel: str) -> str:
    return (
        f'<rect x="1" y="1" width="98" height="138" rx="8" fill="{fill}" stroke="{LINE}" '
        f'stroke-width="1.2"/><rect x="6" y="6" width="88" height="128" rx="4.5" '
        f'fill="{panel}"/>'
    )


def _nature(land: Land, words: Mapping[str, str] | None) -> str:
    ink = LAND_INK[land]
    return (
        _frame(FACE_FILL["nature"], LAND_FILL[land])
        + icon(land.value, 10, 10, 16, ink)
        + icon(land.value, 22, 32, 56, ink)
        + '<rect x="6" y="104" width="88" height="30" fill="#ffffff" fill-opacity="0.88"/>'
        + _text_block(
            _word(words, f"land.{land.value}"),
            50,
            110,
            width=80,
            size=15,
            lines=1,
            ink=LINE,
            css="name",
        )
    )


def _city(face: CityCard, words: Mapping[str, str] | None) -> str:
    out = [_frame(FACE_FILL["life"], _PAPER), badge(face.site, 10, 10, 22)]
    out.append(
        _text_block(
            _city_name(face.name, words),
            50,
            36,
            width=84,
            size=15,
            lines=2,
            height=20,
            ink=LINE,
            css="name",
        )
    )
    out.append(icon("city", 32, 55, 36, "#5b6b7f"))
    count = len(face.needs)
    side, gap = 19.5, 2.2
    start = (_W - count * side - (count - 1) * gap) / 2
    out.append(
        '<rect x="6" y="92" width="88" height="42" fill="#e3ecf7"/>'
        '<path d="M6 92H94" stroke="#9fb4cf" stroke-width="0.8"/>'
    )
    for index, need in enumerate(face.needs):
        out.append(
            f'<g class="need" data-need="{"animals" if need is ANIMALS else need.value}">'
            + badge(need, start + index * (side + gap), 103, side)
            + "</g>"
        )
    return "".join(out)


def _animals(site: Site, words: Mapping[str, str] | None) -> str:
    out = [_frame(FACE_FILL["life"], _PAPER), badge(site, 10, 10, 22)]
    for index in range(4):
        cx = 37 + (index % 2) * 26
        cy = 50 + (index // 2) * 26
        out.append(
            f'<circle cx="{cx}" cy="{cy}" r="11.5" fill="{ANIMAL_FILL}" stroke="{LINE}" '
            f'stroke-width="0.8"/>' + icon("animals", cx - 7.5, cy - 7.5, 15, "#ffffff")
        )
    out.append(
        _text_block(
            _word(words, "animals"), 50, 100, width=80, size=14, lines=1, ink=LINE, css="name"
        )
    )
    out.append(
        _text_block(
            _site_word(site, words, animals=True),
            50,
            118,
            width=80,
            size=9.5,
            lines=1,
            ink="#555555",
            bold=False,
        )
    )
    return "".join(out)


def _power(power: Power, words: Mapping[str, str] | None) -> str:
    name = _word(words, f"power.{power.value}")
    effect = _word(words, f"effect.{power.value}")
    return (
        _frame(FACE_FILL["power"], _POWER_PANEL)
        + _text_block(name, 50, 10, width=82, size=15, lines=1, ink=_POWER_INK, css="name")
        + icon(power.value, 28, 33, 44, _POWER_INK)
        + '<path d="M14 86H86" stroke="#e7b5b0" stroke-width="1"/>'
        + _text_block(
            effect,
            50,
            92,
            width=82,
            size=10,
            lines=4,
            height=40,  # down to the panel's edge (134), descenders included
            ink=LINE,
            bold=False,
            css="effect",
        )
    )


def _mini_card(kind: str, x: float, y: float, w: float, inner: str) -> str:
    """A small card drawn on an Objective, as the box pictures the cards it asks for."""
    h = w * 1.4
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(w * 0.12)}" '
        f'fill="{FACE_FILL[kind]}" stroke="{LINE}" stroke-width="0.7"/>{inner}'
    )


def _objective(face: Objective, words: Mapping[str, str] | None) -> str:
    out = [_frame(FACE_FILL["objective"], _OBJECTIVE_PANEL)]
    out.append(
        _text_block(
            _word(words, "objective"), 50, 10, width=82, size=11, lines=1, ink="#6b5200", css="name"
        )
    )
    if face.is_power:
        w = 25.0
        for index in range(face.powers):
            x = 14.0 + index * 15
            y = 38.0 + (index % 2) * 4
            inner = (
                f'<rect x="{_n(x + 2.5)}" y="{_n(y + 2.5)}" width="{_n(w - 5)}" '
                f'height="{_n(w * 1.4 - 5)}" rx="2" fill="{_POWER_PANEL}"/>'
            )
            out.append(_mini_card("power", x, y, w, inner))
        label = _word(words, "objective.powers", count=face.powers)
        out.append(
            _text_block(label, 50, 88, width=80, size=13, lines=2, ink=_POWER_INK, css="effect")
        )
        return "".join(out)
    lands = face.lands
    columns = 2 if len(lands) <= 4 else 3
    w = 30.0 if columns == 2 else 24.0
    gap = 5.0
    rows = (len(lands) + columns - 1) // columns
    left = (_W - columns * w - (columns - 1) * gap) / 2
    top = 50.0 if rows < 2 else 30.0
    for index, land in enumerate(lands):
        x = left + (index % columns) * (w + gap)
        y = top + (index // columns) * (w * 1.4 + gap)
        inner = (
            f'<rect x="{_n(x + 2.5)}" y="{_n(y + 2.5)}" width="{_n(w - 5)}" '
            f'height="{_n(w * 1.4 - 5)}" rx="2" fill="{LAND_FILL[land]}"/>'
            + icon(land.value, x + w * 0.17, y + w * 0.37, w * 0.66, LAND_INK[land])
        )
        out.append(f'<g class="pictured land-{land.value}">' + _mini_card("nature", x, y, w, inner))
        out.append("</g>")
    return "".join(out)


def _back(kind: CardKind, words: Mapping[str, str] | None) -> str:
    fill = BACK_FILL[kind]
    return (
        f'<rect x="1" y="1" width="98" height="138" rx="8" fill="{fill}" stroke="{LINE}" '
        f'stroke-width="1.2"/><rect x="7" y="7" width="86" height="126" rx="5" fill="none" '
        f'stroke="#ffffff" stroke-opacity="0.55" stroke-width="1.5"/>'
        f'<circle cx="50" cy="60" r="24" fill="#ffffff" fill-opacity="0.16" stroke="#ffffff" '
        f'stroke-opacity="0.7" stroke-width="1.5"/>'
        f'<text x="50" y="67" font-size="20" font-weight="bold" text-anchor="middle" '
        f'fill="#ffffff" font-style="italic">Gaïa</text>'
        + _text_block(
            _word(words, f"kind.{kind.value}"), 50, 100, width=80, size=14, lines=1, ink="#ffffff"
        )
    )


def _kind_class(face: Face) -> str:
    match face:
        case NatureCard(land=land):
            return f"kind-nature land-{land.value}"
        case CityCard():
            return "kind-life city"
        case AnimalCard():
            return "kind-life animals"
        case PowerCard(power=power):
            return f"kind-power power-{power.value}"
        case Objective(powers=powers):
            return "kind-objective" + (" objective-powers" if powers else "")
    raise GaiaRulesError(f"not a card face: {face!r}")  # pragma: no cover


def describe_face(face: Face, words: Mapping[str, str] | None = None) -> str:
    """A face in one sentence, in the words of ``words``: a picture's title and a front
    end's text for it.

    Raises:
        GaiaRulesError: ``face`` is not a card face.
    """
    match face:
        case NatureCard(land=land):
            return _word(words, "title.nature", land=_word(words, f"land.{land.value}"))
        case CityCard(name=name, site=site, needs=needs):
            listed = ", ".join(_need_word(need, words) for need in needs)
            return _word(
                words,
                "title.city",
                name=_city_name(name, words),
                site=_site_word(site, words),
                needs=listed,
            )
        case AnimalCard(site=site):
            return _word(words, "title.animals", site=_site_word(site, words, animals=True))
        case PowerCard(power=power):
            return _word(
                words,
                "title.power",
                power=_word(words, f"power.{power.value}"),
                effect=" ".join(_word(words, f"effect.{power.value}").split()),
            )
        case Objective(lands=lands, powers=powers) if powers:
            return _word(words, "title.objective.powers", count=powers)
        case Objective(lands=lands):
            listed = ", ".join(_word(words, f"land.{land.value}") for land in lands)
            return _word(words, "title.objective", lands=listed)
    raise GaiaRulesError(f"not a card face: {face!r}")


def _body(face: Face, words: Mapping[str, str] | None) -> str:
    match face:
        case NatureCard(land=land):
            return _nature(land, words)
        case CityCard():
            return _city(face, words)
        case AnimalCard(site=site):
            return _animals(site, words)
        case PowerCard(power=power):
            return _power(power, words)
        case Objective():
            return _objective(face, words)
    raise GaiaRulesError(f"not a card face: {face!r}")


def card_parts(
    face: Face | None,
    kind: CardKind,
    *,
    x: float,
    y: float,
    w: float,
    words: Mapping[str, str] | None = None,
    attributes: str = "",
) -> str:
    """One card inside a larger picture: ``face`` face up, or the back of ``kind`` when
    ``face`` is ``None``, ``w`` wide (and 1.4 times as high) with its corner at (x, y).
    ``attributes`` are written into the card's group as they are (say, a ``data-`` attribute).

    Raises:
        GaiaRulesError: ``face`` is not a card face.
    """
    scale = _n(w / _W)
    place = f'transform="translate({_n(x)},{_n(y)}) scale({scale})"'
    extra = f" {attributes}" if attributes else ""
    if face is None:
        return f'<g class="card back kind-{kind.value}"{extra} {place}>{_back(kind, words)}</g>'
    body = _body(face, words)
    return f'<g class="card face {_kind_class(face)}"{extra} {place}>{body}</g>'


def standalone_card(body: str, *, width: int, title: str) -> str:
    """A standalone SVG document, ``width`` pixels wide, of one card drawn by
    [`card_parts`][gaia_rules.svg_cards.card_parts] at (0, 0), 100 wide."""
    height = width * 1.4
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(_W)} {_n(_H)}" role="img" font-family="sans-serif">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


def _check_width(width: int) -> None:
    if isinstance(width, bool) or not isinstance(width, int) or width <= 0:
        raise GaiaRulesError(f"width: expected a positive whole number of pixels, got {width!r}")


def face_svg(face: Face, *, width: int = 100, words: Mapping[str, str] | None = None) -> str:
    """A card face as a standalone SVG document, ``width`` pixels wide (1.4 times as high).

    Args:
        face: What is printed on the card: a ``NatureCard``, ``CityCard``, ``AnimalCard``,
            ``PowerCard`` or ``Objective``.
        width: The card's width in pixels.
        words: The words to print, by the keys of
            [`CARD_WORDS`][gaia_rules.svg_cards.CARD_WORDS] (English where missing).

    Returns:
        The SVG document; the same face gives the same text, byte for byte.

    Raises:
        GaiaRulesError: ``face`` is not a card face, or ``width`` is not a positive whole
            number.
    """
    _check_width(width)
    if not isinstance(face, NatureCard | CityCard | AnimalCard | PowerCard | Objective):
        raise GaiaRulesError(f"face: expected a card face, got {type(face).__name__}")
    body = card_parts(face, CardKind.LIFE, x=0, y=0, w=_W, words=words)
    return standalone_card(body, width=width, title=describe_face(face, words))


def back_svg(kind: CardKind, *, width: int = 100, words: Mapping[str, str] | None = None) -> str:
    """The back of a card of ``kind`` as a standalone SVG document (see
    [`face_svg`][gaia_rules.svg_cards.face_svg]).

    Raises:
        GaiaRulesError: ``kind`` is not a [`CardKind`][gaia_rules.vocabulary.CardKind], or
            ``width`` is not a positive whole number.
    """
    _check_width(width)
    if not isinstance(kind, CardKind):
        raise GaiaRulesError(f"kind: expected a CardKind, got {kind!r}")
    title = _word(words, "title.back", kind=_word(words, f"kind.{kind.value}"))
    body = card_parts(None, kind, x=0, y=0, w=_W, words=words)
    return standalone_card(body, width=width, title=title)


hooks.face_svg = face_svg
