"""Pictures of the world: [`world_svg`][gaia_rules.svg.world_svg] draws the tiles, tokens,
cities and pawns as SVG.

It draws what every seat may see (spec 1.5), so a [`Game`][gaia_rules.game.Game], its
[`GameState`][gaia_rules.state.GameState], a seat's [`View`][gaia_rules.views.View] and a
[`Position`][gaia_rules.position.Position] of the same world give the same picture. y grows
downwards, as in ``gaia_rules.text.world_text``, so the text and the picture agree. Each
element carries a stable ``class`` (``tile land-sea``, ``animals``, ``city``, ``need met``,
``need unmet``, ``pawn seat-2``, ``frontier``, ``highlight``, ``coord``) for tests and
style sheets, and each square a ``data-pos="x,y"``. The output is deterministic: the same
world gives the same string, byte for byte. Games, positions and views show the picture in
a notebook by themselves (``_repr_svg_``):

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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from gaia_rules import hooks
from gaia_rules.cards import CardId, CityCard
from gaia_rules.errors import GaiaRulesError
from gaia_rules.game import Game
from gaia_rules.position import Position
from gaia_rules.rules import Rules
from gaia_rules.state import GameState
from gaia_rules.table import Table
from gaia_rules.text import COLOURS
from gaia_rules.views import View
from gaia_rules.vocabulary import ANIMALS, Land, Need, Pos
from gaia_rules.world import ORIGIN, count_met, neighbours, surroundings

__all__ = ["world_svg"]

_FILL = {
    Land.DESERT: "#f3dc8f",
    Land.PLAIN: "#b9dd77",
    Land.SWAMP: "#8a7b55",
    Land.SEA: "#3d85c6",
    Land.MOUNTAIN: "#a3a3a3",
    Land.FOREST: "#2d6a36",
}
"""Land colours, chosen to differ in lightness too; the letter settles any doubt."""

_INK = {
    Land.DESERT: "#1a1a1a",
    Land.PLAIN: "#1a1a1a",
    Land.SWAMP: "#ffffff",
    Land.SEA: "#ffffff",
    Land.MOUNTAIN: "#1a1a1a",
    Land.FOREST: "#ffffff",
}
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

_ANIMAL_FILL = "#d9480f"
_PAWN_FILL = {
    "blue": "#1f5fd1",
    "yellow": "#f2c200",
    "green": "#2a9d3a",
    "red": "#d62828",
    "white": "#ffffff",
}
_HIGHLIGHT = "#e6007e"
_LINE = "#222222"
_NAME_LENGTH = 9
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

_City = tuple[CardId, tuple[int, ...]]


def world_svg(
    source: Game | Position | View | GameState,
    *,
    size: int = 48,
    coordinates: bool = True,
    highlight: Iterable[Pos] = (),
    title: str | None = None,
) -> str:
    """The world of ``source`` as a standalone SVG document.

    ``size`` is the side of a square in pixels; ``coordinates`` writes each column's x and
    each row's y along the top and left edges; ``highlight`` outlines squares (say, those an
    action changed); ``title`` is a caption drawn above the world. The picture spans the
    tiles, the highlighted squares and one square around them, so the frontier shows; an
    empty world draws only the origin square, outlined. Each need of a city is a marker,
    filled when met and hollow and crossed out when not (spec 3.5).

    Args:
        source: The game, full state, seat's view or position whose world to draw.
        size: The side of a square, in pixels.
        coordinates: Whether to write the coordinates along the edges.
        highlight: Squares to outline.
        title: A caption above the world, or ``None``.

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
    return _Drawing(size, rules, tiles, animals, cities).draw(
        coordinates, sorted(squares, key=_reading_order), title
    )


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


def _short(name: str) -> str:
    """A city's name, cut to fit its square."""
    return name if len(name) <= _NAME_LENGTH else name[: _NAME_LENGTH - 1] + "…"


def _seat_name(seat: int) -> str:
    """The colour of a seat's pawns (spec 1.4)."""
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"seat {seat}"


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
    ) -> None:
        self.s = size
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
        summary = f"Gaïa world: {len(self.tiles)} tiles, {len(self.cities)} cities"
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
            f'fill="{_FILL[land]}" stroke="#ffffff" stroke-width="1"/>'
            f'<text class="land" x="{_n(s * 0.06)}" y="{_n(s * 0.2)}" '
            f'font-size="{_n(s * 0.18)}" fill="{_INK[land]}">{_LETTER[land]}</text>'
        )
        count = self.animals.get(pos)
        if count:
            out.append(
                f'<g class="animals"><title>{count} animal token(s)</title>'
                f'<circle cx="{_n(s / 2)}" cy="{_n(s * 0.56)}" r="{_n(s * 0.2)}" '
                f'fill="{_ANIMAL_FILL}" stroke="{_LINE}"/>'
                f'<text x="{_n(s / 2)}" y="{_n(s * 0.645)}" font-size="{_n(s * 0.24)}" '
                f'font-weight="bold" text-anchor="middle" fill="#ffffff">{count}</text></g>'
            )
        if pos in self.cities:
            self._city(pos)
        out.append("</g>")

    def _city(self, pos: Pos) -> None:
        """A city card on its tile: its name, a marker per need, a disc per pawn."""
        s, out = self.s, self.parts
        card, pawns = self.cities[pos]
        face = self.rules.cards.face(card) if card in self.rules.cards else None
        if not isinstance(face, CityCard):
            raise GaiaRulesError(f"city at {pos}: {card!r} is not a City card of the manifest")
        lands, animals = surroundings(self.world, pos)
        met = [count_met((need,), lands, animals) == 1 for need in face.needs]
        owners = ", ".join(_seat_name(seat) for seat in pawns) or "no pawns"
        out.append(
            f'<g class="city" data-card="{_escape(card)}"><title>'
            f"{_escape(f'{face.name} ({card}): {sum(met)}/{len(met)} needs met; {owners}')}"
            f'</title><rect x="{_n(s * 0.04)}" y="{_n(s * 0.25)}" width="{_n(s * 0.92)}" '
            f'height="{_n(s * 0.71)}" rx="{_n(s * 0.06)}" fill="#ffffff" '
            f'fill-opacity="0.9" stroke="{_LINE}"/>'
            f'<text class="name" x="{_n(s / 2)}" y="{_n(s * 0.41)}" font-size="{_n(s * 0.16)}" '
            f'text-anchor="middle" fill="{_LINE}">{_escape(_short(face.name))}</text>'
        )
        side, gap = s * 0.19, s * 0.03
        start = (s - len(face.needs) * side - (len(face.needs) - 1) * gap) / 2
        for index, (need, is_met) in enumerate(zip(face.needs, met, strict=True)):
            self._need(need, is_met, start + index * (side + gap), s * 0.47, side)
        step = s * 0.18
        first = s / 2 - (len(pawns) - 1) * step / 2
        for index, seat in enumerate(pawns):
            fill = _PAWN_FILL.get(_seat_name(seat), "#888888")
            out.append(
                f'<circle class="pawn seat-{seat}" cx="{_n(first + index * step)}" '
                f'cy="{_n(s * 0.81)}" r="{_n(s * 0.075)}" fill="{fill}" '
                f'stroke="{_LINE}"/>'
            )
        out.append("</g>")

    def _need(self, need: Need, met: bool, x: float, y: float, side: float) -> None:
        """One need of a city: filled when met, hollow and crossed out when not."""
        s, out = self.s, self.parts
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
            cross = f'<path d="M{_n(x)} {_n(y + side)}L{_n(x + side)} {_n(y)}" stroke="#aaaaaa"/>'
        out.append(
            f'<g class="need {state}" data-need="{_need_label(need)}">{shape}{cross}'
            f'<text x="{_n(x + side / 2)}" y="{_n(y + side * 0.75)}" '
            f'font-size="{_n(s * 0.14)}" text-anchor="middle" fill="{ink}">{letter}</text></g>'
        )


hooks.world_svg = world_svg
