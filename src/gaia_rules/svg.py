"""Pictures of the game as SVG: [`world_svg`][gaia_rules.svg.world_svg] draws the tiles,
tokens, cities and pawns; [`table_svg`][gaia_rules.svg.table_svg] draws the whole table as
one seat sees it; [`card_svg`][gaia_rules.svg.card_svg] draws one card's face or back, and
[`legend_svg`][gaia_rules.svg.legend_svg] the key to the pictures.

It draws what every seat may see (spec 1.5), so a [`Game`][gaia_rules.game.Game], its
[`GameState`][gaia_rules.state.GameState], a seat's [`View`][gaia_rules.views.View] and a
[`Position`][gaia_rules.position.Position] of the same world give the same picture. y grows
downwards, as in ``gaia_rules.text.world_text``, so the text and the picture agree. Each
element carries a stable ``class`` (``tile land-sea``, ``animals``, ``city``, ``need met``,
``need unmet``, ``pawn seat-2``, ``frontier``, ``highlight``, ``coord``) for tests and
style sheets, and each square a ``data-pos="x,y"``. The output is deterministic: the same
world gives the same string, byte for byte. Games, positions and views show the picture in
a notebook by themselves (``_repr_svg_``). The words a picture shows (its labels, legends,
city names and the words on its cards) are English unless ``words`` says otherwise: a
mapping from the keys of [`PICTURE_WORDS`][gaia_rules.svg.PICTURE_WORDS] and of
[`CARD_WORDS`][gaia_rules.svg_cards.CARD_WORDS] to text, as a front end in another language
passes its own:

    >>> from gaia_rules.position import PositionBuilder
    >>> from gaia_rules.svg import world_svg
    >>> from gaia_rules.vocabulary import Land, Pos
    >>> position = (
    ...     PositionBuilder(players=2)
    ...     .tile(0, 0, Land.DESERT)
    ...     .tile(1, 0, Land.SEA, animals=2)
    ...     .tile(0, 1, Land.PLAIN)
    ...     .city(0, 0, "C01", pawns=[1])
    ...     .build()
    ... )
    >>> picture = world_svg(position, size=40, highlight=[Pos(1, 0)], title="Alexandria")
    >>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    >>> picture.count('class="need met"'), picture.count('class="need unmet"')
    (3, 1)
    >>> "Alexandrie" in world_svg(position, words={"city.Alexandria": "Alexandrie"})
    True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from gaia_rules import hooks
from gaia_rules.cards import CardId, CityCard, NatureCard, PowerCard
from gaia_rules.errors import GaiaRulesError
from gaia_rules.game import Game
from gaia_rules.position import Position
from gaia_rules.rules import Rules
from gaia_rules.state import GameState
from gaia_rules.svg_cards import (
    ANIMAL_FILL,
    LAND_FILL,
    LAND_INK,
    back_svg,
    card_parts,
    describe_face,
    fit_lines,
    icon,
    standalone_card,
)
from gaia_rules.table import Table
from gaia_rules.text import COLOURS
from gaia_rules.views import View
from gaia_rules.vocabulary import ANIMALS, LANDS, CardKind, Land, Need, Pos
from gaia_rules.world import ORIGIN, count_met, neighbours, surroundings

__all__ = ["PICTURE_WORDS", "card_svg", "legend_svg", "table_svg", "world_svg"]

_FILL = LAND_FILL
"""Land colours, chosen to differ in lightness too; the letter settles any doubt."""

_INK = LAND_INK
"""The colour of a letter drawn on each land."""

_LETTER = {
    Land.DESERT: "D",
    Land.PLAIN: "P",
    Land.SWAMP: "S",
    Land.SEA: "W",
    Land.MOUNTAIN: "M",
    Land.FOREST: "F",
}
"""The letters of ``gaia_rules.text.world_text``."""

_ANIMAL_FILL = ANIMAL_FILL
_PAWN_FILL = {
    "blue": "#1f5fd1",
    "yellow": "#f2c200",
    "green": "#2a9d3a",
    "red": "#d62828",
    "white": "#ffffff",
}
_HIGHLIGHT = "#e6007e"
_LINE = "#222222"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

_City = tuple[CardId, tuple[int, ...]]

Words = Mapping[str, str] | None
"""The words a picture shows, by key; ``None`` for English."""

PICTURE_WORDS: Mapping[str, str] = {
    "world.summary": "Gaïa world: {tiles} tiles, {cities} cities",
    "world.tokens": "{count} animal token(s)",
    "world.city": "{name} ({card}): {met}/{count} needs met; {owners}",
    "world.no_pawns": "no pawns",
    "legend.title": "Key to the pictures",
    "legend.tokens": "animal tokens on a tile (how many)",
    "legend.met": "a need of a city, met (W sea, A animals)",
    "legend.unmet": "a need not met (hollow, crossed out)",
    "legend.seat": "seat {seat}",
    "legend.highlight": "a square the example is about",
    "legend.frontier": "the frontier: a free square where a tile may go",
    "table.title": "Seat {seat} ({colour}): turn of seat {active}, seat {to_move} to move",
    "table.title.over": "Seat {seat} ({colour}): the game is over",
    "table.summary": "Gaïa table as seat {seat} sees it",
    "table.deck": "deck {count}",
    "table.discards": "discards {count}",
    "table.objectives": "Objectives",
    "table.tiles": "Tiles in the supply: {tiles}.",
    "table.tile": "{land} {count}",
    "table.bank": "Animal tokens in the bank: {bank}.",
    "table.seat": "seat {seat} ({colour})",
    "table.seat.you": "seat {seat} ({colour}): you",
    "table.pawns": "{count} pawns in supply",
    "table.hand": "hand",
    "table.in_front": "in front",
    "table.stolen": "held by a Tornado, from seat {seat}:",
}
"""The words the pictures of this module show around the cards, in English, by key (the
cards' own words are [`CARD_WORDS`][gaia_rules.svg_cards.CARD_WORDS]). ``words`` arguments
override any of them, and name lands (``land.desert``), kinds (``kind.nature``), the seats'
colours (``colour.blue``) and cities (``city.<name>``, the manifest's name) as the cards do;
``{name}``-style fields are filled in by the drawing. Without ``words`` a land, a kind or a
colour is named by its lower-case value."""


def _say(words: Words, key: str, default: str | None = None, **fields: object) -> str:
    """The text of ``key`` in ``words``, else ``default``, else English, its fields filled."""
    text = (words or {}).get(key) or (default if default is not None else PICTURE_WORDS[key])
    for name, value in fields.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def _city_name(name: str, words: Words) -> str:
    """A city's name in ``words`` (``city.<name>``), else as the manifest gives it."""
    return (words or {}).get(f"city.{name}") or name


def world_svg(
    source: Game | Position | View | GameState,
    *,
    size: int = 64,
    coordinates: bool = True,
    highlight: Iterable[Pos] = (),
    title: str | None = None,
    pictograms: bool = False,
    words: Mapping[str, str] | None = None,
) -> str:
    """The world of ``source`` as a standalone SVG document.

    ``size`` is the side of a square in pixels; ``coordinates`` writes each column's x and
    each row's y along the top and left edges; ``highlight`` outlines squares (say, those an
    action changed); ``title`` is a caption drawn above the world. The picture spans the
    tiles, the highlighted squares and one square around them, so the frontier shows; an
    empty world draws only the origin square, outlined. Each need of a city is a marker,
    filled when met and hollow and crossed out when not (spec 3.5). Lands are told apart by
    colour and by a letter (``D`` desert, ``W`` sea, as in the text world), or, with
    ``pictograms``, by the pictograms of the cards ([`gaia_rules.svg_cards`][gaia_rules.svg_cards]),
    which read the same in every language.

    Args:
        source: The game, full state, seat's view or position whose world to draw.
        size: The side of a square, in pixels.
        coordinates: Whether to write the coordinates along the edges.
        highlight: Squares to outline.
        title: A caption above the world, or ``None``.
        pictograms: Whether lands and needs show pictograms instead of letters.
        words: The words to show, by the keys of
            [`PICTURE_WORDS`][gaia_rules.svg.PICTURE_WORDS] and ``city.<name>`` (English
            where missing).

    Returns:
        The SVG document, as text; the same world always gives the same text.

    Raises:
        GaiaRulesError: ``source`` is none of those types, ``size`` is not a positive whole
            number, a highlighted square is not a [`Pos`][gaia_rules.vocabulary.Pos],
            ``title`` is not text, or a city's card is not a City card of the manifest (an
            unchecked [`Position`][gaia_rules.position.Position] may hold anything). The
            error is the base class itself, not one of its subclasses.
    """
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise GaiaRulesError(f"size: expected a positive whole number of pixels, got {size!r}")
    if title is not None and not isinstance(title, str):
        raise GaiaRulesError(f"title: expected text or None, got {type(title).__name__}")
    squares: set[Pos] = set()
    for square in highlight:
        if not isinstance(square, Pos):
            raise GaiaRulesError(f"highlight: expected squares (Pos), got {square!r}")
        squares.add(square)
    rules, tiles, animals, cities = _world_of(source)
    drawing = _Drawing(size, rules, tiles, animals, cities, pictograms=pictograms, words=words)
    return drawing.draw(coordinates, sorted(squares, key=_reading_order), title)


def _world_of(
    source: object,
) -> tuple[Rules, Mapping[Pos, Land], Mapping[Pos, int], dict[Pos, _City]]:
    """The rules and the public world of any source: tiles, tokens, cities with their pawns."""
    if isinstance(source, Game):
        source = source.state
    if isinstance(source, GameState | View):
        cities = {pos: (city.card, city.pawns) for pos, city in source.cities.items()}
        return source.rules, source.tiles, source.animals, cities
    if isinstance(source, Position):
        return source.rules, source.tiles, source.animals, dict(source.cities)
    raise GaiaRulesError(
        f"world_svg draws a Game, Position, View or GameState, not a {type(source).__name__}"
    )


def _reading_order(pos: Pos) -> tuple[int, int]:
    """Row by row, as the world is read (and drawn)."""
    return (pos.y, pos.x)


def _n(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _escape(text: str) -> str:
    """Text safe in XML content and in double-quoted attributes."""
    text = _NOT_XML.sub("\ufffd", text)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _name_text(name: str, s: float) -> str:
    """A city's name in full on its square: smaller when long, and squeezed to the card's
    width when even the smallest legible size would not fit."""
    width = s * 0.9
    _, size = fit_lines(name, width, s * 0.15, 1)
    squeeze = ""
    if size < s * 0.125:
        size = s * 0.125
        squeeze = f' textLength="{_n(width)}" lengthAdjust="spacingAndGlyphs"'
    return (
        f'<text class="name" x="{_n(s / 2)}" y="{_n(s * 0.375)}" font-size="{_n(size)}" '
        f'font-weight="bold" text-anchor="middle" fill="{_LINE}"{squeeze}>{_escape(name)}</text>'
    )


def _seat_name(seat: int) -> str:
    """The colour of a seat's pawns (spec 1.4)."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


def _colour(seat: int, words: Words) -> str:
    """The colour of a seat's pawns in ``words``."""
    if 0 <= seat < len(COLOURS):
        return _say(words, f"colour.{COLOURS[seat]}", COLOURS[seat])
    return _say(words, "legend.seat", seat=seat)


def _need_label(need: Need) -> str:
    """The word for a need."""
    return "animals" if need is ANIMALS else need.value


class _Drawing:
    """One picture being drawn: the world, its box in squares and the output parts."""

    def __init__(
        self,
        size: int,
        rules: Rules,
        tiles: Mapping[Pos, Land],
        animals: Mapping[Pos, int],
        cities: dict[Pos, _City],
        *,
        pictograms: bool = False,
        words: Words = None,
    ) -> None:
        self.s = size
        self.pictograms = pictograms
        self.words = words
        self.rules = rules
        self.tiles = tiles
        self.animals = animals
        self.cities = cities
        # only the world, enough for the library's own count of the needs met (spec 3.5)
        world = Table.__new__(Table)
        world.tiles = dict(tiles)
        world.tokens = dict(animals)
        world.cities = {pos: card for pos, (card, _) in cities.items()}
        self.world = world
        self.parts: list[str] = []

    def draw(self, coordinates: bool, highlight: list[Pos], title: str | None) -> str:
        """The whole document."""
        s, out = self.s, self.parts
        shown = [*(self.tiles or [ORIGIN]), *highlight]
        margin = 1 if self.tiles else 0
        xs = [pos.x for pos in shown]
        ys = [pos.y for pos in shown]
        left, right = min(xs) - margin, max(xs) + margin
        top, bottom = min(ys) - margin, max(ys) + margin
        pad = max(2.0, s * 0.06)
        caption = s * 0.55 if title is not None else 0.0
        gutter_x = s * 0.55 if coordinates else 0.0
        gutter_y = s * 0.4 if coordinates else 0.0
        ox, oy = pad + gutter_x, pad + caption + gutter_y
        width = ox + (right - left + 1) * s + pad
        if title is not None:  # room for the caption, at a generous 0.6 em a character
            width = max(width, len(title) * s * 0.32 * 0.6 + 2 * pad)
        height = oy + (bottom - top + 1) * s + pad
        summary = _say(self.words, "world.summary", tiles=len(self.tiles), cities=len(self.cities))
        out.append(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
            f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" role="img" '
            f'font-family="sans-serif">'
            f"<title>{_escape(summary if title is None else f'{title} ({summary})')}</title>"
            f'<rect class="background" width="100%" height="100%" fill="#ffffff"/>'
        )
        if title is not None:
            out.append(
                f'<text class="caption" x="{_n(width / 2)}" y="{_n(pad + s * 0.38)}" '
                f'font-size="{_n(s * 0.32)}" text-anchor="middle" fill="{_LINE}">'
                f"{_escape(title)}</text>"
            )
        if coordinates:
            self._coordinates(ox, oy, range(left, right + 1), range(top, bottom + 1))
        # the world's own frame: the square (x, y) has its corner at (x * size, y * size)
        out.append(
            f'<g class="world" transform="translate({_n(ox - left * s)},{_n(oy - top * s)})">'
        )
        if not self.tiles:
            self._outline("origin", ORIGIN, "#999999", "4 3")
        frontier = sorted(
            {near for pos in self.tiles for near in neighbours(pos) if near not in self.tiles},
            key=_reading_order,
        )
        for pos in frontier:
            self._outline("frontier", pos, "#c8c8c8", "3 3")
        for pos in sorted(self.tiles, key=_reading_order):
            self._square(pos)
        for pos in highlight:
            self._outline("highlight", pos, _HIGHLIGHT, None)
        out.append("</g></svg>")
        return "".join(out)

    def _coordinates(self, ox: float, oy: float, columns: range, rows: range) -> None:
        """Each column's x above it and each row's y left of it."""
        s, left, top = self.s, columns.start, rows.start
        self.parts.append(f'<g class="coordinates" font-size="{_n(s * 0.26)}" fill="#555555">')
        for x in columns:
            cx = ox + (x - left + 0.5) * s
            self.parts.append(
                f'<text class="coord x" x="{_n(cx)}" y="{_n(oy - s * 0.1)}" '
                f'text-anchor="middle">{x}</text>'
            )
        for y in rows:
            cy = oy + (y - top + 0.5) * s + s * 0.09
            self.parts.append(
                f'<text class="coord y" x="{_n(ox - s * 0.08)}" y="{_n(cy)}" '
                f'text-anchor="end">{y}</text>'
            )
        self.parts.append("</g>")

    def _outline(self, kind: str, pos: Pos, colour: str, dashes: str | None) -> None:
        """An empty square's outline: the origin, the frontier or a highlight."""
        s = self.s
        stroke = max(2.0, s * 0.08) if kind == "highlight" else 1.0
        inset = stroke / 2
        dash = f' stroke-dasharray="{dashes}"' if dashes else ""
        self.parts.append(
            f'<rect class="{kind}" data-pos="{pos}" x="{_n(pos.x * s + inset)}" '
            f'y="{_n(pos.y * s + inset)}" width="{_n(s - stroke)}" '
            f'height="{_n(s - stroke)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_n(stroke)}"{dash}/>'
        )

    def _square(self, pos: Pos) -> None:
        """A tile, its land letter, its tokens and its city."""
        s, out = self.s, self.parts
        land = self.tiles[pos]
        out.append(
            f'<g class="square" data-pos="{pos}" '
            f'transform="translate({pos.x * s},{pos.y * s})">'
            f'<rect class="tile land-{land.value}" width="{s}" height="{s}" '
            f'fill="{_FILL[land]}" stroke="#ffffff" stroke-width="1"/>' + self._land_mark(land)
        )
        count = self.animals.get(pos)
        if count:
            out.append(
                f'<g class="animals"><title>'
                f"{_escape(_say(self.words, 'world.tokens', count=count))}</title>"
                f'<circle cx="{_n(s / 2)}" cy="{_n(s * 0.56)}" r="{_n(s * 0.2)}" '
                f'fill="{_ANIMAL_FILL}" stroke="{_LINE}"/>'
                f'<text x="{_n(s / 2)}" y="{_n(s * 0.645)}" font-size="{_n(s * 0.24)}" '
                f'font-weight="bold" text-anchor="middle" fill="#ffffff">{count}</text></g>'
            )
        if pos in self.cities:
            self._city(pos)
        out.append("</g>")

    def _land_mark(self, land: Land) -> str:
        """What names a tile's land beside its colour: its letter, or its pictogram."""
        s = self.s
        if self.pictograms:
            return (
                f'<g class="land">{icon(land.value, s * 0.04, s * 0.04, s * 0.22, _INK[land])}</g>'
            )
        return (
            f'<text class="land" x="{_n(s * 0.05)}" y="{_n(s * 0.19)}" '
            f'font-size="{_n(s * 0.18)}" font-weight="bold" fill="{_INK[land]}">'
            f"{_LETTER[land]}</text>"
        )

    def _city(self, pos: Pos) -> None:
        """A city card on its tile: its name, a marker per need, a disc per pawn."""
        s, out = self.s, self.parts
        card, pawns = self.cities[pos]
        face = self.rules.cards.face(card) if card in self.rules.cards else None
        if not isinstance(face, CityCard):
            raise GaiaRulesError(f"city at {pos}: {card!r} is not a City card of the manifest")
        lands, animals = surroundings(self.world, pos)
        met = [count_met((need,), lands, animals) == 1 for need in face.needs]
        words = self.words
        owners = ", ".join(_colour(seat, words) for seat in pawns)
        name = _city_name(face.name, words)
        told = _say(
            words,
            "world.city",
            name=name,
            card=card,
            met=sum(met),
            count=len(met),
            owners=owners or _say(words, "world.no_pawns"),
        )
        out.append(
            f'<g class="city" data-card="{_escape(card)}"><title>'
            f"{_escape(told)}"
            f'</title><rect x="{_n(s * 0.03)}" y="{_n(s * 0.22)}" width="{_n(s * 0.94)}" '
            f'height="{_n(s * 0.75)}" rx="{_n(s * 0.06)}" fill="#ffffff" '
            f'fill-opacity="0.92" stroke="{_LINE}"/>' + _name_text(name, s)
        )
        # the needs fill the card's width, so their letters read at the default size
        side, gap = s * 0.215, s * 0.01
        start = (s - len(face.needs) * side - (len(face.needs) - 1) * gap) / 2
        for index, (need, is_met) in enumerate(zip(face.needs, met, strict=True)):
            self._need(need, is_met, start + index * (side + gap), s * 0.42, side)
        step = s * 0.2
        first = s / 2 - (len(pawns) - 1) * step / 2
        for index, seat in enumerate(pawns):
            fill = _PAWN_FILL.get(_seat_name(seat), "#888888")
            out.append(
                f'<circle class="pawn seat-{seat}" cx="{_n(first + index * step)}" '
                f'cy="{_n(s * 0.82)}" r="{_n(s * 0.085)}" fill="{fill}" '
                f'stroke="{_LINE}"/>'
            )
        out.append("</g>")

    def _need(self, need: Need, met: bool, x: float, y: float, side: float) -> None:
        """One need of a city: filled when met, hollow and crossed out when not."""
        out = self.parts
        state = "met" if met else "unmet"
        if need is ANIMALS:
            fill, ink, letter = _ANIMAL_FILL, "#ffffff", "A"
            shape = f'<circle cx="{_n(x + side / 2)}" cy="{_n(y + side / 2)}" r="{_n(side / 2)}"'
        else:
            fill, ink, letter = _FILL[need], _INK[need], _LETTER[need]
            shape = (
                f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}" '
                f'rx="{_n(side * 0.15)}"'
            )
        cross = ""
        if met:
            shape += f' fill="{fill}" stroke="{_LINE}"/>'
        else:
            ink = "#555555"
            shape += ' fill="#ffffff" stroke="#777777" stroke-dasharray="2 1"/>'
            cross = f'<path d="M{_n(x)} {_n(y + side)}L{_n(x + side)} {_n(y)}" stroke="#bbbbbb"/>'
        if self.pictograms:
            name = "animals" if need is ANIMALS else need.value
            pad = side * 0.14
            mark = icon(name, x + pad, y + pad, side - 2 * pad, ink)
        else:
            mark = (
                f'<text x="{_n(x + side / 2)}" y="{_n(y + side * 0.78)}" '
                f'font-size="{_n(side * 0.8)}" font-weight="bold" text-anchor="middle" '
                f'fill="{ink}">{letter}</text>'
            )
        out.append(
            f'<g class="need {state}" data-need="{_need_label(need)}">{shape}{cross}{mark}</g>'
        )


# -- cards, the legend and the table -----------------------------------------------------------

_CARD_W = 54
"""A card's width in the table, in pixels; its height is 1.4 times that."""


def _card_h(width: float) -> float:
    return width * 1.4


def _card_parts(
    rules: Rules,
    card: CardId | None,
    kind: CardKind,
    *,
    x: float,
    y: float,
    w: float,
    words: Words = None,
) -> str:
    """One card, face up (``card`` given) or face down (``card`` is ``None``), at (x, y),
    drawn by ``gaia_rules.svg_cards`` from its face."""
    if card is None:
        return card_parts(None, kind, x=x, y=y, w=w, words=words)
    face = rules.cards.face(card) if card in rules.cards else None
    if face is None:
        raise GaiaRulesError(f"card: {card!r} is not a card of the manifest")
    attributes = f'data-card="{_escape(card)}"'
    return card_parts(face, kind, x=x, y=y, w=w, words=words, attributes=attributes)


def _need_mark(need: Need, x: float, y: float, side: float, pictograms: bool = False) -> str:
    """A need (or an Objective's land) as a filled marker with its letter (or pictogram)."""
    if need is ANIMALS:
        shape = f'<circle cx="{_n(x + side / 2)}" cy="{_n(y + side / 2)}" r="{_n(side / 2)}" '
        fill, ink, letter = _ANIMAL_FILL, "#ffffff", "A"
    else:
        shape = f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(side)}" height="{_n(side)}" '
        shape += f'rx="{_n(side * 0.15)}" '
        fill, ink, letter = _FILL[need], _INK[need], _LETTER[need]
    if pictograms:
        pad = side * 0.14
        name = "animals" if need is ANIMALS else need.value
        return f'{shape}fill="{fill}" stroke="{_LINE}"/>' + icon(
            name, x + pad, y + pad, side - 2 * pad, ink
        )
    return (
        f'{shape}fill="{fill}" stroke="{_LINE}"/><text x="{_n(x + side / 2)}" '
        f'y="{_n(y + side * 0.78)}" font-size="{_n(side * 0.8)}" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}">{letter}</text>'
    )


def _document(width: float, height: float, title: str, body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" font-family="sans-serif">'
        f"<title>{_escape(title)}</title>"
        f'<rect class="background" width="100%" height="100%" fill="#ffffff"/>{body}</svg>'
    )


def card_svg(
    rules: Rules,
    card: CardId | CardKind,
    *,
    width: int = 80,
    words: Mapping[str, str] | None = None,
) -> str:
    """One card as a standalone SVG document: its face, or its back when ``card`` is a
    [`CardKind`][gaia_rules.vocabulary.CardKind]. The face is drawn by
    [`face_svg`][gaia_rules.svg_cards.face_svg] from what is printed on the card; the card's
    id is only in the ``data-card`` attribute, never drawn (copies of a face look alike).

    Args:
        rules: The rules whose card manifest gives the face.
        card: A card id of the manifest, or a kind to draw its back.
        width: The card's width in pixels; its height is 1.4 times that.
        words: The words printed on the card, by the keys of
            [`CARD_WORDS`][gaia_rules.svg_cards.CARD_WORDS] (English where missing).

    Returns:
        The SVG document, as text.

    Raises:
        GaiaRulesError: ``card`` is not a card of the manifest nor a kind, or ``width``
            is not a positive whole number.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width <= 0:
        raise GaiaRulesError(f"width: expected a positive whole number of pixels, got {width!r}")
    if isinstance(card, CardKind):
        return back_svg(card, width=width, words=words)
    if not (isinstance(card, str) and card in rules.cards):
        raise GaiaRulesError(f"card: {card!r} is neither a card of the manifest nor a kind")
    face = rules.cards.face(card)
    body = card_parts(
        face, CardKind.LIFE, x=0, y=0, w=100, words=words, attributes=f'data-card="{card}"'
    )
    return standalone_card(body, width=width, title=describe_face(face, words))


def _kind_of_face(rules: Rules, card: CardId) -> CardKind:
    match rules.cards.face(card):
        case NatureCard():
            return CardKind.NATURE
        case PowerCard():
            return CardKind.POWER
        case _:
            return CardKind.LIFE


def legend_svg(*, pictograms: bool = False, words: Mapping[str, str] | None = None) -> str:
    """The key to the pictures: each land with its letter, animal tokens, a need met and a
    need not met, and the colour of each seat's pawns.

    Args:
        pictograms: Whether lands and needs show the pictograms of the cards, as
            [`world_svg`][gaia_rules.svg.world_svg] draws them with ``pictograms``,
            instead of letters.
        words: The words to show, by the keys of
            [`PICTURE_WORDS`][gaia_rules.svg.PICTURE_WORDS] and ``land.<land>``
            (English where missing).

    Returns:
        The SVG document, as text.
    """
    s = 34
    parts: list[str] = []
    y = 8.0

    def text(x: float, ty: float, words: str) -> None:
        parts.append(
            f'<text x="{_n(x)}" y="{_n(ty)}" font-size="14" fill="{_LINE}">{_escape(words)}</text>'
        )

    for i, land in enumerate(LANDS):
        x = 8 + (i % 3) * 150
        ty = y + (i // 3) * (s + 8)
        square = (
            f'<g class="legend land-{land.value}"><rect x="{x}" y="{_n(ty)}" width="{s}" '
            f'height="{s}" fill="{_FILL[land]}" stroke="{_LINE}"/>'
        )
        if pictograms:
            square += icon(land.value, x + 2, ty + 2, s * 0.5, _INK[land]) + "</g>"
        else:
            square += (
                f'<text x="{x + 4}" y="{_n(ty + 13)}" font-size="12" font-weight="bold" '
                f'fill="{_INK[land]}">{_LETTER[land]}</text></g>'
            )
        parts.append(square)
        name = _say(words, f"land.{land.value}", land.value)
        text(x + s + 8, ty + s * 0.65, name if pictograms else f"{name} ({_LETTER[land]})")
    y += 2 * (s + 8) + 4
    parts.append(
        f'<g class="legend animals"><circle cx="{8 + s / 2}" cy="{_n(y + s / 2)}" r="{s * 0.4}" '
        f'fill="{_ANIMAL_FILL}" stroke="{_LINE}"/><text x="{8 + s / 2}" y="{_n(y + s * 0.66)}" '
        f'font-size="15" font-weight="bold" text-anchor="middle" fill="#ffffff">3</text></g>'
    )
    text(8 + s + 8, y + s * 0.65, _say(words, "legend.tokens"))
    y += s + 8
    for need, x in ((Land.SEA, 8), (ANIMALS, 34)):
        mark = _need_mark(need, x, y, 22, pictograms)
        parts.append('<g class="legend need met">' + mark + "</g>")
    text(64, y + 16, _say(words, "legend.met"))
    y += 30
    unmet = (
        f'<g class="legend need unmet"><rect x="8" y="{_n(y)}" width="22" height="22" rx="3" '
        f'fill="#ffffff" stroke="#777777" stroke-dasharray="2 1"/><path d="M8 {_n(y + 22)}'
        f'L30 {_n(y)}" stroke="#bbbbbb"/>'
    )
    if pictograms:
        unmet += icon(Land.MOUNTAIN.value, 11, y + 3, 16, "#555555") + "</g>"
    else:
        unmet += (
            f'<text x="19" y="{_n(y + 17)}" font-size="17" '
            f'font-weight="bold" text-anchor="middle" fill="#555555">M</text></g>'
        )
    parts.append(unmet)
    text(64, y + 16, _say(words, "legend.unmet"))
    y += 34
    for seat, colour in enumerate(COLOURS):
        x = 8 + seat * 90
        parts.append(
            f'<circle class="legend pawn seat-{seat}" cx="{x + 9}" cy="{_n(y + 9)}" r="8" '
            f'fill="{_PAWN_FILL[colour]}" stroke="{_LINE}"/>'
        )
        text(x + 22, y + 14, _say(words, "legend.seat", seat=seat, colour=_colour(seat, words)))
    y += 26
    parts.append(
        f'<rect class="legend highlight" x="8" y="{_n(y)}" width="22" height="22" fill="none" '
        f'stroke="{_HIGHLIGHT}" stroke-width="3"/><rect class="legend frontier" x="8" '
        f'y="{_n(y + 30)}" width="22" height="22" fill="none" stroke="#999999" '
        f'stroke-dasharray="3 3"/>'
    )
    text(38, y + 16, _say(words, "legend.highlight"))
    text(38, y + 46, _say(words, "legend.frontier"))
    # wider for longer words than the English ones, at a generous 0.6 em a character
    lines = ("legend.tokens", "legend.met", "legend.unmet", "legend.highlight", "legend.frontier")
    longest = max(len(_say(words, key)) for key in lines)
    width = max(470.0, 64 + longest * 14 * 0.6 + 8)
    return _document(width, y + 62, _say(words, "legend.title"), "".join(parts))


def table_svg(
    view: View,
    *,
    title: str | None = None,
    pictograms: bool = False,
    words: Mapping[str, str] | None = None,
) -> str:
    """The whole table as the seat of ``view`` sees it: its own hand face up, the backs of
    the other hands, the decks (their sizes), the displays, the discard piles (their sizes
    and top cards), the cards in front of every player, the Objectives with their pawns,
    every supply of pawns, tokens and tiles, and the world.

    It is drawn from the view alone, so it shows nothing the seat may not see (spec 1.5).

    Args:
        view: One seat's view ([`Game.view`][gaia_rules.game.Game.view]).
        title: A caption, or ``None`` for one that names the seat and the player to move.
        pictograms: Whether the world's lands and needs show pictograms instead of letters
            (see [`world_svg`][gaia_rules.svg.world_svg]).
        words: The words to show, by the keys of
            [`PICTURE_WORDS`][gaia_rules.svg.PICTURE_WORDS] and of
            [`CARD_WORDS`][gaia_rules.svg_cards.CARD_WORDS] (English where missing).

    Returns:
        The SVG document, as text; the same view always gives the same text.

    Raises:
        GaiaRulesError: ``view`` is not a [`View`][gaia_rules.views.View].
    """
    if not isinstance(view, View):
        raise GaiaRulesError(f"table_svg draws a View, not a {type(view).__name__}")
    if title is not None and not isinstance(title, str):
        raise GaiaRulesError(f"title: expected text or None, got {type(title).__name__}")
    rules, w, h = view.rules, _CARD_W, _card_h(_CARD_W)
    gap = 6.0
    parts: list[str] = []

    def text(x: float, y: float, words: str, size: float = 14, bold: bool = False) -> None:
        weight = ' font-weight="bold"' if bold else ""
        parts.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{weight} fill="{_LINE}">'
            f"{_escape(words)}</text>"
        )

    def row(x: float, y: float, cards: Iterable[tuple[CardId | None, CardKind]]) -> float:
        for card, kind in cards:
            parts.append(_card_parts(rules, card, kind, x=x, y=y, w=w, words=words))
            x += w + gap
        return x

    if title is None:
        colour = _colour(view.seat, words)
        if view.result is not None:
            title = _say(words, "table.title.over", seat=view.seat, colour=colour)
        else:
            title = _say(
                words,
                "table.title",
                seat=view.seat,
                colour=colour,
                active=view.active,
                to_move=view.to_move,
            )
    y = 24.0
    text(10, y, title, 17, bold=True)
    y += 16
    # the middle of the table: a deck, its display and its discard pile per kind
    for kind, size in view.deck_sizes.items():
        if kind is CardKind.POWER and not rules.with_powers:
            continue  # no Power cards below the powers level (spec 1.2)
        label = _say(words, f"kind.{kind.value}", kind.value)
        text(10, y + 14, label, min(13, 66 / (len(label) * 0.65)), bold=True)  # clear of the deck
        parts.append(f'<g class="deck kind-{kind.value}" data-size="{size}">')
        if size:
            parts.append(_card_parts(rules, None, kind, x=80, y=y, w=w, words=words))
        else:
            parts.append(
                f'<rect x="80" y="{_n(y)}" width="{w}" height="{_n(h)}" rx="4" fill="none" '
                f'stroke="#999999" stroke-dasharray="4 3"/>'
            )
        parts.append(
            f'<text x="{_n(80 + w / 2)}" y="{_n(y + h + 14)}" font-size="12" '
            f'text-anchor="middle" fill="{_LINE}">'
            f"{_escape(_say(words, 'table.deck', count=size))}</text></g>"
        )
        parts.append(f'<g class="display kind-{kind.value}">')
        end = row(80 + w + 3 * gap, y, ((c, kind) for c in view.displays.get(kind, ())))
        parts.append("</g>")
        pile = view.discards.get(kind, ())
        x = max(end, 80 + w + 3 * gap + 3 * (w + gap)) + 2 * gap
        parts.append(f'<g class="discards kind-{kind.value}" data-size="{len(pile)}">')
        if pile:
            parts.append(_card_parts(rules, pile[-1], kind, x=x, y=y, w=w, words=words))
        parts.append(
            f'<text x="{_n(x + w / 2)}" y="{_n(y + h + 14)}" font-size="12" '
            f'text-anchor="middle" fill="{_LINE}">'
            f"{_escape(_say(words, 'table.discards', count=len(pile)))}</text></g>"
        )
        y += h + 24
    # the Objectives, with the pawns on them
    text(10, y + 14, _say(words, "table.objectives"), 13, bold=True)
    x = 100.0
    parts.append('<g class="objectives">')
    for objective in view.objectives:
        parts.append(_card_parts(rules, objective, CardKind.LIFE, x=x, y=y, w=w, words=words))
        seat = view.objective_pawns.get(objective)
        if seat is not None:
            parts.append(
                f'<circle class="pawn seat-{seat}" cx="{_n(x + w / 2)}" cy="{_n(y + h * 0.86)}" '
                f'r="7" fill="{_PAWN_FILL.get(_seat_name(seat), "#888888")}" stroke="{_LINE}"/>'
            )
        x += w + gap
    parts.append("</g>")
    y += h + 18
    supplies = ", ".join(
        _say(words, "table.tile", land=_say(words, f"land.{land.value}", land.value), count=count)
        for land, count in view.tile_supply.items()
    )
    supply_line = _say(words, "table.tiles", tiles=supplies)
    text(10, y, supply_line, 13)
    text(10, y + 18, _say(words, "table.bank", bank=view.bank), 13)
    y += 32
    # each seat: its pawns, its hand (faces for the viewer, backs for the others), its tableau
    widest = 0.0
    for seat in range(view.players):
        y += 12
        mine = seat == view.seat
        name = _say(
            words,
            "table.seat.you" if mine else "table.seat",
            seat=seat,
            colour=_colour(seat, words),
        )
        text(10, y + 14, name, 14, bold=True)
        supply = view.supply[seat]
        parts.append(f'<g class="supply seat-{seat}" data-pawns="{supply}">')
        for i in range(supply):
            parts.append(
                f'<circle class="pawn seat-{seat}" cx="{_n(200 + i * 16)}" cy="{_n(y + 9)}" '
                f'r="6.5" fill="{_PAWN_FILL.get(_seat_name(seat), "#888888")}" '
                f'stroke="{_LINE}"/>'
            )
        parts.append("</g>")
        pawns = _say(words, "table.pawns", count=supply)
        text(200 + max(supply, 1) * 16 + 6, y + 14, pawns, 12)
        y += 24
        text(10, y + 14, _say(words, "table.hand"), 12)
        if mine:
            cards: list[tuple[CardId | None, CardKind]] = [
                (c, _kind_of_face(rules, c)) for c in view.hand
            ]
        else:
            cards = [(None, kind) for kind in view.hand_backs[seat]]
        parts.append(f'<g class="hand seat-{seat}">')
        end = row(60, y, cards)
        parts.append("</g>")
        in_front = view.tableaux[seat]
        x = max(end, 60 + 6 * (w + gap)) + 2 * gap
        label = _say(words, "table.in_front")
        text(x, y + 14, label, 12)
        parts.append(f'<g class="tableau seat-{seat}">')
        room = max(60.0, len(label) * 12 * 0.5 + 8)  # a longer word pushes the cards right
        end = row(x + room, y, ((c, _kind_of_face(rules, c)) for c in in_front))
        parts.append("</g>")
        widest = max(widest, end)
        y += h + 6
    for back, victim, stolen in view.stolen:
        text(
            10, y + 14, _say(words, "table.stolen", seat=victim, colour=_colour(victim, words)), 12
        )
        stolen_card = _card_parts(rules, stolen, back, x=230, y=y, w=w, words=words)
        parts.append('<g class="stolen">' + stolen_card + "</g>")
        y += h + 6
    y += 10
    world = world_svg(view, size=56, pictograms=pictograms, words=words)
    match = re.match(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"', world)
    assert match is not None  # world_svg always writes its size first
    world_w, world_h = float(match[1]), float(match[2])
    parts.append(f'<g class="world-of-table" transform="translate(10,{_n(y)})">{world}</g>')
    y += world_h + 10
    line_w = 10 + len(supply_line) * 13 * 0.6  # the supply line, at about 0.6 em a character
    width = max(widest, 80 + w + 3 * gap + 5 * (w + gap) + 2 * gap, world_w + 20, line_w) + 10
    summary = _say(words, "table.summary", seat=view.seat, colour=_colour(view.seat, words))
    return _document(width, y, summary, "".join(parts))


hooks.world_svg = world_svg
