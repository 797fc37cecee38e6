"""The pictured situations of the rules pages: positions set up, actions applied, the world
drawn before and after by :func:`gaia_rules.svg.world_svg`.

Each situation is a function registered under a name. It sets up a position with the
:class:`~gaia_rules.PositionBuilder`, applies the rulebook's actions through the engine
itself and records a frame (an SVG of the world, of the whole table, or of the cards that
matter) at each moment worth seeing, with the events of each step told in the players'
words (``narration.py``). So the pictures cannot drift from the engine: a change in the
rules changes them, and a position the engine refuses fails the build.

Each frame is drawn once in each of the site's languages: a translated page (``basic.de.md``)
shows the German drawing (``name-1.de.svg``), its words (labels, legends, the words on the
cards, the cities' names) taken from the web table's catalogue (``languages.picture_words``),
and its caption and labels from ``captions.toml``.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import languages
from narration import NARRATORS, Narrator, player, retold

import gaia_rules as gr
from gaia_rules import CardId, CardKind, Land, Pos
from gaia_rules.decisions import ChooseProtection
from gaia_rules.svg import card_svg, legend_svg, table_svg, world_svg

PICTURES_DIR = "rules/pictures"
"""Where the SVG files are written in the site."""

SIZE = 60
"""The side of a square, in pixels."""

Source = gr.Game | gr.Position

Step = tuple[str, list[str]]
"""One decision told in words, with what it caused (``narration.py``)."""


@dataclass(frozen=True)
class Frame:
    """One picture, with its caption."""

    caption: str
    svg: str
    width: str = "narrow"
    """How much of the page it takes: ``narrow`` (two a row), ``panel`` (a row of its own
    on a narrow page) or ``wide`` (always a row of its own)."""
    translations: Mapping[str, str] = field(default_factory=dict)
    """The picture drawn in each translated language (``de``), in that language's words."""

    def drawn(self, language: str) -> str:
        """The picture in ``language``'s words (English for ``en``)."""
        return self.translations.get(language, self.svg)


def say(text: str, language: str) -> str:
    """A caption or a label of a picture in ``language``: its translation in
    ``captions.toml``, else the English ``text`` itself."""
    if language == "en":
        return text
    return languages.captions(language).get(text, text)


def _drawn(caption: str, draw: Callable[[str], str], width: str = "narrow") -> Frame:
    """A frame drawn now in every language of the site (the game goes on after it)."""
    drawings = {language: draw(language) for language in languages.TRANSLATED}
    return Frame(caption, draw("en"), width, drawings)


@dataclass(frozen=True)
class Row:
    """One row of a cards panel: a label and its cards, face up (an id) or face down (a
    kind), with the pawns on some of them (a seat for each card that carries one)."""

    label: str
    cards: Sequence[CardId | CardKind] = ()
    pawns: Mapping[CardId, int] = field(default_factory=dict)
    note: str = ""


@dataclass
class Story:
    """The frames and the steps of one pictured situation, in order."""

    name: str
    frames: list[Frame] = field(default_factory=list)
    log: list[tuple[str, list[Step]]] = field(default_factory=list)
    start: str | None = None
    """The record (JSON) of the game before its first action: where "Try it" starts."""
    refusals: list[dict[str, str]] = field(default_factory=list)
    """Each refused move, to try: its heading, the record before it, the action, the clause."""
    told: list[tuple[str, Narrator | None, list[gr.Event], str]] = field(default_factory=list)
    """Each entry of ``log`` as it happened: its heading, a narrator from the world before it
    and its events (to tell them in another language), or no narrator and the refused
    move's clause."""

    def steps(self, language: str = "en") -> list[tuple[str, list[Step]]]:
        """The steps of ``log`` told in ``language`` (``log`` itself in English)."""
        if language == "en" or language not in NARRATORS:
            return self.log
        out: list[tuple[str, list[Step]]] = []
        for heading, narrator, events, clause in self.told:
            said = say(heading, language) if heading else ""
            if narrator is None:
                words = languages.REFUSED[language].format(clause=f"[[{clause}]]")
                out.append((said, [(words, [])]))
            else:
                out.append((said, retold(narrator, language).tell(events)))
        return out

    def _told(self, heading: str, narrator: Narrator, events: list[gr.Event]) -> None:
        self.told.append((heading, retold(narrator, "en"), events, ""))
        self.log.append((heading, narrator.tell(events)))

    def begin(self, game: gr.Game) -> None:
        """Remember ``game`` as the start of the situation, if it is the first played."""
        if self.start is None:
            self.start = game.record().to_json()

    def show(self, caption: str, source: Source, highlight: Iterable[Pos] = ()) -> None:
        """Draw the world of ``source`` now, outlining the squares ``highlight``."""
        squares = tuple(highlight)

        def draw(language: str) -> str:
            words = languages.picture_words(language)
            return world_svg(
                source, size=SIZE, highlight=squares, pictograms=words is not None, words=words
            )

        self.frames.append(_drawn(caption, draw))

    def table(self, caption: str, game: gr.Game, seat: int) -> None:
        """Draw the whole table as ``seat`` sees it now (:func:`gaia_rules.svg.table_svg`)."""
        view = game.view(seat)

        def draw(language: str) -> str:
            words = languages.picture_words(language)
            title = say(caption, language)
            return table_svg(view, title=title, pictograms=words is not None, words=words)

        self.frames.append(_drawn(caption, draw, "wide"))

    def cards(
        self,
        caption: str,
        rules: gr.Rules,
        rows: Sequence[Row],
        world: Source | None = None,
        highlight: Iterable[Pos] = (),
    ) -> None:
        """Draw the cards that matter now, row by row (:func:`cards_svg`), with the world of
        ``world`` below them if given, its squares ``highlight`` outlined."""
        squares, shown = tuple(highlight), tuple(rows)

        def draw(language: str) -> str:
            return cards_svg(rules, shown, world, squares, language)

        self.frames.append(_drawn(caption, draw, "panel"))

    def apply(self, game: gr.Game, action: gr.Action, heading: str = "") -> None:
        """Apply ``action`` and record what happened in words; every Protection window it
        opens is passed, seat by seat, unless the situation answers it itself."""
        self.begin(game)
        narrator = Narrator.of(game)
        events = list(game.apply(action))
        while isinstance(game.decision, ChooseProtection):
            seat = game.decision.player
            events += game.apply(gr.PassProtection(seat))
        self._told(heading, narrator, events)

    def play(self, game: gr.Game, actions: Iterable[gr.Action], heading: str = "") -> None:
        """Apply ``actions`` in order, answering every decision the situation answers
        itself (a Protection window among them), and record what happened in words."""
        self.begin(game)
        narrator = Narrator.of(game)
        events: list[gr.Event] = []
        for action in actions:
            events += game.apply(action)
        self._told(heading, narrator, events)

    def note(self, heading: str, before: Source, events: Iterable[gr.Event]) -> None:
        """Record, in words, events that happened to the world of ``before``."""
        self._told(heading, Narrator.of(before), list(events))

    def refuse(self, game: gr.Game, action: gr.Action, heading: str) -> None:
        """Record that the engine refuses ``action``, and the rule it cites; the game is
        unchanged.

        Raises ``AssertionError`` if the engine accepts it.
        """
        try:
            game.copy().apply(action)
        except gr.IllegalActionError as error:
            reason = re.sub(r"(-?\d+),(-?\d+)", r"(\1, \2)", error.reason)
            words = f"The engine refuses it: {reason} ([[{error.clause}]])."
            self.log.append((heading, [(words, [])]))
            self.told.append((heading, None, [], error.clause))
            self.refusals.append(
                {
                    "heading": heading,
                    "record": game.record().to_json(),
                    "action": action.to_json(),
                    "clause": error.clause,
                }
            )
            return
        raise AssertionError(f"{self.name}: the engine accepted {action}")


SITUATIONS: dict[str, Callable[[Story], None]] = {}
"""Every pictured situation by name."""


def situation(name: str) -> Callable[[Callable[[Story], None]], Callable[[Story], None]]:
    """Register a situation under ``name``."""

    def register(function: Callable[[Story], None]) -> Callable[[Story], None]:
        SITUATIONS[name] = function
        return function

    return register


def tell(name: str) -> Story:
    """Set up and play the situation ``name``; raises ``KeyError`` if there is none."""
    story = Story(name)
    SITUATIONS[name](story)
    return story


def svg_files(story: Story, language: str = "en") -> dict[str, str]:
    """The SVG file of each frame of ``story`` in ``language``, by its path in the site."""
    return {
        _frame_uri(story.name, i, language): frame.drawn(language)
        for i, frame in enumerate(story.frames, 1)
    }


TRY_DIR = "rules/try"
"""Where the positions to try are written in the site (``try_files``)."""


def try_files(story: Story) -> dict[str, str]:
    """The position to try of ``story`` (and its refused moves), as JSON, by its path in the
    site: none when the situation plays nothing."""
    if story.start is None and not story.refusals:
        return {}
    data = {"name": story.name, "start": story.start, "refusals": story.refusals}
    return {f"{TRY_DIR}/{story.name}.json": json.dumps(data)}


def try_markdown(story: Story, from_uri: str, language: str = "en") -> str:
    """The "Try it" control of ``story`` for a page at ``from_uri`` in ``language``
    (``assets/tryit.js`` makes it live, on the engine of the site's ``table/``), or nothing
    when it has no position to try. Every language's page opens the position, the script and
    the table at the site's root, where the default build writes them."""
    if not try_files(story):
        return ""
    # raw HTML: its links are not rewritten by mkdocs, so they go from the page's address
    # (``play/basic.md`` is served at ``play/basic/``, ``play/basic.de.md`` at
    # ``de/play/basic/``)
    stem = from_uri.removesuffix(".md")
    if language != "en":
        stem = f"{language}/{stem.removesuffix(f'.{language}')}"
    here = posixpath.dirname(stem) if posixpath.basename(stem) == "index" else stem
    src = posixpath.relpath(f"{TRY_DIR}/{story.name}.json", here)
    table = posixpath.relpath("table", here) + "/"
    script = posixpath.relpath("assets/tryit.js", here)
    label = languages.TRY_OPEN.get(language, "Try it")
    return (
        f'<div class="gaia-try" data-try="{story.name}" data-src="{src}" data-table="{table}">'
        f'<button type="button" class="md-button gaia-try-open" data-try-open>{label}</button>'
        f'</div>\n<script type="module" src="{script}"></script>\n'
    )


def _frame_uri(name: str, number: int, language: str = "en") -> str:
    suffix = "" if language == "en" else f".{language}"
    return f"{PICTURES_DIR}/{name}-{number}{suffix}.svg"


def story_markdown(story: Story, from_uri: str, language: str = "en") -> str:
    """The Markdown that shows the frames of ``story`` side by side, with its steps told in
    words in a fold below them, for a page at ``from_uri`` in ``language`` (its pictures and
    captions in that language's words, its steps told in them by ``narration.py``). A refused
    move cites its clause as ``[[7.2]]``, which the build turns into a link."""
    out = ['<div class="gaia-frames" markdown>', ""] if story.frames else []
    for number, frame in enumerate(story.frames, 1):
        uri = _frame_uri(story.name, number, language)
        link = posixpath.relpath(uri, posixpath.dirname(from_uri))
        kind = "gaia-frame" if frame.width == "narrow" else f"gaia-frame {frame.width}"
        caption = say(frame.caption, language)
        english = ' lang="en"' if language != "en" and caption == frame.caption else ""
        out += [
            f'<figure{english} class="{kind}" markdown>',
            "",
            f"![{caption}]({link})",
            "",
            f"<figcaption>{caption}</figcaption>",
            "",
            "</figure>",
            "",
        ]
    if story.frames:
        out += ["</div>", ""]
    tried = try_markdown(story, from_uri, language)
    if tried:
        out += [tried, ""]
    if story.log:
        fold = "???" if story.frames else "???+"
        told = language in NARRATORS and language != "en"
        title = languages.STEPS_TITLE[language] if told else "Step by step"
        out += [f'{fold} note "{title}"', ""]
        nothing = languages.NOTHING[language] if told else "Nothing happens."
        before = languages.BEFORE[language] if told else "(before any decision)"
        for heading, steps in story.steps(language):
            if heading:
                out += [f"    **{heading}**", ""]
            for decision, consequences in steps or [(nothing, [])]:
                out.append(f"    - {decision}" if decision else f"    - {before}")
                out += [f"        - {line}" for line in consequences]
            out.append("")
    return "\n".join(out)


# -- a panel of cards --------------------------------------------------------------------------

CARD_W = 50
"""A card's width in a panel, in pixels (its height is 1.4 times that)."""

PAWN_FILLS = ("#1f5fd1", "#f2c200", "#2a9d3a", "#d62828", "#ffffff")
"""The pawns' colours in seat order, as the world pictures draw them."""


def cards_svg(
    rules: gr.Rules,
    rows: Sequence[Row],
    world: Source | None = None,
    highlight: tuple[Pos, ...] = (),
    language: str = "en",
) -> str:
    """A panel of cards: each row a label and its cards (faces drawn by
    :func:`gaia_rules.svg.card_svg`), a pawn on the cards that carry one, and the world of
    ``world`` below the rows if given, its squares ``highlight`` outlined; its words in
    ``language``."""
    words = languages.picture_words(language)
    w, h, gap, left = CARD_W, CARD_W * 1.4, 6, 150
    parts: list[str] = []
    y = 8.0
    widest = 300.0
    for row in rows:
        parts.append(
            f'<text x="8" y="{y + h / 2 + 5:.0f}" font-size="14" font-weight="bold" '
            f'fill="#222222">{_escape(say(row.label, language))}</text>'
        )
        x = float(left)
        if not row.cards:
            parts.append(
                f'<text x="{x:.0f}" y="{y + h / 2 + 5:.0f}" font-size="13" fill="#666666">'
                f"{_escape(say('(none)', language))}</text>"
            )
            x += 60
        for card in row.cards:
            parts.append(
                f'<g transform="translate({x:.0f},{y:.0f})">'
                f"{card_svg(rules, card, width=w, words=words)}</g>"
            )
            seat = row.pawns.get(card) if isinstance(card, str) else None
            if seat is not None:
                parts.append(
                    f'<circle cx="{x + 2 + w / 2:.1f}" cy="{y + 2 + h * 0.86:.1f}" r="8" '
                    f'fill="{PAWN_FILLS[seat]}" stroke="#222222"/>'
                )
            x += w + 4 + gap
        if row.note:
            note = say(row.note, language)
            parts.append(
                f'<text x="{x + 4:.0f}" y="{y + h / 2 + 5:.0f}" font-size="13" fill="#222222">'
                f"{_escape(note)}</text>"
            )
            x += 8 + 7 * len(note)
        widest = max(widest, x)
        y += h + 14
    if world is not None:
        drawn = world_svg(
            world, size=44, highlight=highlight, pictograms=words is not None, words=words
        )
        size = re.match(r'<svg [^>]*width="([\d.]+)" height="([\d.]+)"', drawn)
        assert size is not None  # world_svg writes its size first
        parts.append(f'<g transform="translate(8,{y:.0f})">{drawn}</g>')
        widest = max(widest, 8 + float(size[1]))
        y += float(size[2]) + 8
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{widest + 8:.0f}" height="{y:.0f}" '
        f'viewBox="0 0 {widest + 8:.0f} {y:.0f}" role="img" font-family="sans-serif">'
        f'<rect width="100%" height="100%" fill="#ffffff"/>{"".join(parts)}</svg>'
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def hand_rows(game: gr.Game, seats: Iterable[int], *, hands: bool = True) -> list[Row]:
    """For each seat: his hand face up (when ``hands``) and the cards in front of him."""
    state = game.state
    rows = []
    for seat in seats:
        if hands:
            rows.append(Row(f"{player(seat)}'s hand", state.hands[seat]))
        rows.append(Row(f"in front of {player(seat)}", state.tableaux[seat]))
    return rows


def objective_row(game: gr.Game, label: str = "Objectives") -> Row:
    """The revealed Objectives, with the pawns on them."""
    state = game.state
    return Row(label, state.objectives, dict(state.objective_pawns))


# -- the rulebooks' illustrated examples -------------------------------------------------------

BLUE, YELLOW, GREEN, RED = 0, 1, 2, 3


@situation("basic-example")
def _basic_example(story: Story) -> None:
    """The basic illustrated example (spec 10.1, 11.3), as tests/test_example_basic.py."""
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(2, 0, Land.DESERT)
        .tile(3, 0, Land.SEA)
        .tile(0, 1, Land.MOUNTAIN)
        .tile(1, 1, Land.DESERT, animals=1)
        .city(0, 1, "C11", pawns=[YELLOW])
        .city(2, 0, "C03", pawns=[BLUE])
        .tableau(YELLOW, "N07", "N33", "N34")
        .hand(YELLOW, "N08", "A09")
        .objectives("O02", "O01", "O03", "O04")
        .turn(YELLOW)
        .build()
    )
    story.show("Before: Yellow's turn begins", position, [Pos(1, 1)])
    game = position.to_game()
    story.note("a) The feeding", position, game.events)
    story.show("a) Lhasa is fed the last token and falls to 1", game, [Pos(1, 1)])
    in_front, objectives = game.state.tableaux[YELLOW], objective_row(game)
    plain = gr.PlayNature(YELLOW, "N08", Pos(2, 1))
    story.apply(game, plain, "b) and c) First action: a plain card, then the Objective")
    story.show("b) the plain raises Petra to 3", game, [Pos(2, 1)])
    rules = game.rules
    story.cards(
        "c) the plain card joins the cards in front of Yellow: they show an Objective",
        rules,
        [Row("in front of Yellow", (*in_front, plain.card)), objectives],
    )
    story.cards(
        "c) Yellow discards the four cards and puts a pawn on the Objective",
        rules,
        [
            Row("in front of Yellow", game.state.tableaux[YELLOW]),
            objective_row(game),
            Row("Nature discards", game.state.discards[CardKind.NATURE]),
        ],
    )
    story.apply(game, gr.PlayAnimals(YELLOW, "A09", Pos(1, 1)), "d) Second action: an Animal card")
    story.show("d) the animals raise Lhasa to 2 again", game, [Pos(1, 1)])


@situation("advanced-example")
def _advanced_example(story: Story) -> None:
    """The advanced illustrated example (spec 13.7), as tests/test_advanced.py."""
    position = (
        gr.PositionBuilder(players=3, rules=gr.Rules.powers())
        .tile(0, 0, Land.SEA, animals=2)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(-1, 0, Land.FOREST)
        .tile(-1, -1, Land.DESERT)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(3, 0, Land.PLAIN)
        .tile(2, -1, Land.FOREST)
        .tile(1, 1, Land.PLAIN)
        .tile(0, 1, Land.DESERT)
        .tile(2, 1, Land.FOREST)
        .tile(1, 2, Land.PLAIN, animals=2)
        .city(-1, 0, "C14", pawns=[YELLOW])
        .city(2, 0, "C10", pawns=[BLUE])
        .city(1, 1, "C04", pawns=[GREEN])
        .hand(GREEN, "P13")
        .turn(GREEN, 1)
        .build()
    )
    swap = (Pos(0, 0), Pos(1, 0))
    story.show("Before: Green's Earthquake", position, swap)
    game = position.to_game()
    story.apply(game, gr.PlayEarthquake(GREEN, "P13", *swap))
    story.show("After: Sparta stolen, Carthage at 4", game, swap)


# -- edge cases --------------------------------------------------------------------------------


@situation("city-falls-to-zero")
def _city_falls_to_zero(story: Story) -> None:
    """A city placed on the only land another city met (spec 9.4, 10.1)."""
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.FOREST)
        .tile(2, 0, Land.PLAIN)
        .tile(3, 0, Land.DESERT)
        .tile(0, 1, Land.MOUNTAIN)
        .tile(1, 1, Land.DESERT)
        .tile(2, 1, Land.SEA)
        .city(1, 0, "C12")  # Troy: plain, sea, mountain, animals; meets the plain only
        .city(1, 1, "C03", pawns=[1])  # Petra: mountain, plain, sea, forest; 2 met
        .hand(0, "C04")  # Carthage: sea, desert, animals, forest
        .turn(0, 1)
        .build()
    )
    story.show("Before: Carthage goes on the plain", position, [Pos(2, 0)])
    game = position.to_game()
    story.apply(game, gr.PlayCity(0, "C04", Pos(2, 0)))
    story.show("After: Troy discarded, Petra raised", game, [Pos(2, 0), Pos(1, 0)])


@situation("sun-lowers-and-raises")
def _sun_lowers_and_raises(story: Story) -> None:
    """One Sun lowers one city and raises (steals) another (spec 13.4, 10.1, 12.2)."""
    position = (
        gr.PositionBuilder(players=2, rules=gr.Rules.powers())
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(2, 0, Land.FOREST)
        .tile(3, 0, Land.MOUNTAIN)
        .tile(-1, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.SEA)
        .tile(2, 1, Land.SEA)
        .city(0, 0, "C17", pawns=[1])  # Nineveh: animals, plain, mountain, sea; 3 met
        .city(2, 0, "C14", pawns=[1])  # Kyoto: mountain, sea, swamp, desert; 2 met
        .hand(0, "P01")
        .turn(0, 1)
        .build()
    )
    story.show("Before: a Sun on the plain", position, [Pos(1, 0)])
    game = position.to_game()
    story.apply(game, gr.PlaySun(0, "P01", Pos(1, 0)))
    story.show("After: Nineveh lowered, Kyoto stolen", game, [Pos(1, 0)])


@situation("stealing")
def _stealing(story: Story) -> None:
    """An Animal card raises a rival's city from 2 to 3 and steals it (spec 12.2)."""
    position = (
        gr.PositionBuilder(players=2, rules=gr.Rules.advanced())
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.PLAIN)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .city(0, 0, "C12", pawns=[1])  # Troy: plain, sea, mountain, animals; 2 met
        .hand(0, "A09")
        .turn(0, 1)
        .build()
    )
    story.show("Before: Blue's Animals on the desert", position, [Pos(1, 0)])
    game = position.to_game()
    story.apply(game, gr.PlayAnimals(0, "A09", Pos(1, 0)))
    story.show("After: Troy at 3, now Blue's", game, [Pos(1, 0)])


@situation("shared-last-token")
def _shared_last_token(story: Story) -> None:
    """Two cities fed from one tile with one token (spec 11.3, 11.4)."""
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.FOREST, animals=1)
        .tile(2, 0, Land.MOUNTAIN)
        .city(0, 0, "C05", pawns=[0])  # Rome: forest, mountain, animals, swamp; 2 met
        .city(2, 0, "C09", pawns=[0])  # Cuzco: forest, plain, animals, desert; 2 met
        .turn(0)
        .build()
    )
    story.show("Before: Blue must feed Rome and Cuzco", position, [Pos(1, 0)])
    game = position.to_game()
    story.apply(game, gr.Feed(0, Pos(0, 0), Pos(1, 0)), "Blue feeds Rome first")
    story.show("After: both fall to 1; Cuzco is skipped", game, [Pos(1, 0)])


@situation("protection")
def _protection(story: Story) -> None:
    """A Protection out of turn and the Power Objective's priority (spec 13.9f)."""
    position = (
        gr.PositionBuilder(players=3, rules=gr.Rules.powers())
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.MOUNTAIN)
        .city(0, 0, "C17", pawns=[2])  # Nineveh: animals, plain, mountain, sea; 3 met
        .hand(0, "P01")
        .hand(1, "P10")
        .hand(2, "P20")
        .tableau(0, "P02", "P03", "P07")
        .tableau(2, "P08", "P09", "P13")
        .objectives("O01", "O02", "O03", "O04", "O08")
        .turn(0, 1)
        .build()
    )
    game = position.to_game()

    def rows(**notes: str) -> list[Row]:
        state = game.state
        return [
            Row("Blue's hand", state.hands[BLUE], note=notes.get("blue", "")),
            Row("in front of Blue", state.tableaux[BLUE], note=notes.get("front", "")),
            Row("Yellow's hand", state.hands[YELLOW], note=notes.get("yellow", "")),
            Row("Green's hand", state.hands[GREEN], note=notes.get("green", "")),
            Row("in front of Green", state.tableaux[GREEN], note=notes.get("green_front", "")),
            objective_row(game),
            Row("Power discards", state.discards[CardKind.POWER]),
        ]

    plain = [Pos(1, 0)]
    story.cards(
        "Before: Blue is to play his Sun on the plain at (1, 0), beside Green's Nineveh",
        game.rules,
        rows(yellow="no Protection", green="a Protection"),
        game,
        plain,
    )
    story.play(
        game,
        [gr.PlaySun(BLUE, "P01", Pos(1, 0)), gr.PassProtection(YELLOW), gr.Protect(GREEN, "P20")],
        "The Sun, Yellow asked, Green's Protection",
    )
    story.cards(
        "After: the plain is still a plain; Blue, checked first, takes the Power Objective",
        game.rules,
        rows(
            front="his four Power cards fulfilled the Objective",
            green_front="four, but no Power Objective left",
        ),
        game,
        plain,
    )


@situation("eruption")
def _eruption(story: Story) -> None:
    """An Eruption next to a city, and the city two squares away (spec 14.3c)."""
    position = (
        gr.PositionBuilder(players=3, rules=gr.Rules.disasters())
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.FOREST, animals=2)
        .tile(-1, 0, Land.SEA)
        .tile(1, 1, Land.SWAMP)
        .tile(2, 0, Land.FOREST)
        .tile(3, 0, Land.MOUNTAIN)
        .tile(2, 1, Land.SWAMP)
        .city(1, 0, "C05", pawns=[1])  # Rome: forest, mountain, animals, swamp; 2 met
        .city(2, 0, "C14", pawns=[2])  # Kyoto: mountain, sea, swamp, desert; 2 met
        .hand(0, "P29")
        .turn(0, 1)
        .build()
    )
    around = [Pos(0, 0), Pos(1, 0), Pos(0, 1), Pos(-1, 0)]
    story.show("Before: an Eruption on the mountain", position, around)
    game = position.to_game()
    story.apply(game, gr.PlayEruption(0, "P29", Pos(0, 0)))
    story.show("After: Rome gone, Kyoto stolen", game, around)


@situation("tornado")
def _tornado(story: Story) -> None:
    """A Tornado: the world does not change; who sees which card does (spec 13.8)."""
    game = (
        gr.PositionBuilder(players=4, rules=gr.Rules.powers(), seed=3)
        .tile(0, 0, Land.PLAIN)
        .hand(BLUE, "P16", "N33")  # a Tornado, a forest
        .hand(YELLOW, "N07", "C01", "A03")  # a plain, Alexandria, Animals on a plain
        .hand(RED, "A01")  # Animals on a forest; Green's hand is empty
        .turn(BLUE, 1)
        .to_game()
    )

    def rows(*notes: str) -> list[Row]:
        state = game.state
        hands = [
            Row(f"{player(seat)}'s hand", state.hands[seat], note=note)
            for seat, note in zip(range(4), notes or ("",) * 4, strict=True)
        ]
        return [
            *hands,
            Row("in front of Blue", state.tableaux[BLUE]),
            Row("Life discards", state.discards[CardKind.LIFE]),
        ]

    story.cards(
        "Before: Blue holds a Tornado (every hand shown face up)",
        game.rules,
        rows("", "a Nature back, two Life backs", "empty", "one Life back"),
    )
    story.play(
        game,
        [gr.PlayTornado(BLUE, "P16"), gr.NameBack(BLUE, YELLOW, CardKind.LIFE)],
        "Blue plays the Tornado and names Life for Yellow; Green's empty hand is skipped",
    )
    stolen = [card for card, _ in game.state.stolen]
    keep = next(card for card in stolen if card in ("C01", *stolen[-1:]))
    story.play(game, [gr.KeepCard(BLUE, keep)], "Blue looks at the two cards and keeps one")
    story.cards(
        "After: Blue keeps one card and discards the other",
        game.rules,
        rows("kept one", "one Life card taken at random", "skipped", "his only card taken"),
    )


# -- the disagreements -------------------------------------------------------------------------


@situation("feeding-switch")
def _feeding_switch(story: Story) -> None:
    """PAWN_HOLDER against EVERY_CITY (spec 11.2)."""

    def position(feeding: gr.Feeding) -> gr.Position:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.basic(feeding=feeding))
            .tile(0, 0, Land.DESERT)
            .tile(1, 0, Land.FOREST, animals=2)
            .tile(2, 0, Land.MOUNTAIN)
            .city(0, 0, "C01")  # Alexandria: sea, plain, animals, mountain; 1 met, empty
            .city(2, 0, "C09", pawns=[1])  # Cuzco: forest, plain, animals, desert; 2 met
            .turn(1)
            .build()
        )

    story.show("Before: Yellow's turn begins", position(gr.Feeding.PAWN_HOLDER), [Pos(1, 0)])
    game = position(gr.Feeding.PAWN_HOLDER).to_game()
    story.note("PAWN_HOLDER: the feeding", position(gr.Feeding.PAWN_HOLDER), game.events)
    story.show("PAWN_HOLDER: Cuzco alone is fed", game, [Pos(1, 0)])
    start = position(gr.Feeding.EVERY_CITY)
    game = start.to_game()
    story.note("EVERY_CITY: the feeding", start, game.events)
    story.apply(game, gr.Feed(1, Pos(2, 0), Pos(1, 0)))
    story.show("EVERY_CITY: Alexandria is fed too", game, [Pos(1, 0)])


@situation("objectives-switch")
def _objectives_switch(story: Story) -> None:
    """Two Objectives that need the same cards, MANDATORY against OPTIONAL (spec 8.4)."""

    def game(objectives: gr.Objectives) -> gr.Game:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.basic(objectives=objectives))
            .tile(0, 0, Land.DESERT)
            .tableau(BLUE, "N01", "N02", "N20", "N21", "N07")  # desert, desert, sea, sea, plain
            .hand(BLUE, "N08")  # a plain
            .objectives("O01", "O04", "O02", "O03")
            .turn(BLUE, 1)
            .to_game()
        )

    def rows(of: gr.Game) -> list[Row]:
        return [Row("in front of Blue", of.state.tableaux[BLUE]), objective_row(of)]

    play = gr.PlayNature(BLUE, "N08", Pos(1, 0))
    must = game(gr.Objectives.MANDATORY)
    story.cards("Before: Blue is to play his second plain card", must.rules, rows(must))
    story.apply(must, play, "MANDATORY: Blue plays the plain card")
    story.refuse(must, gr.DeclineObjectives(BLUE), "MANDATORY: Blue tries to decline both")
    story.apply(must, gr.FulfillObjective(BLUE, "O04"), "MANDATORY: Blue chooses one")
    story.cards(
        "MANDATORY: Blue must fulfil one; he chooses the plains and seas", must.rules, rows(must)
    )
    may = game(gr.Objectives.OPTIONAL)
    story.apply(may, play, "OPTIONAL: Blue plays the plain card")
    story.apply(may, gr.DeclineObjectives(BLUE), "OPTIONAL: Blue declines both")
    story.cards("OPTIONAL: Blue may wait; both Objectives stay available", may.rules, rows(may))


@situation("star-animals-on-sea")
def _star_animals_on_sea(story: Story) -> None:
    """A star Animal card on sea (spec 9.1b)."""

    def game(allowed: bool) -> gr.Game:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.basic(star_animals_on_sea=allowed))
            .tile(0, 0, Land.PLAIN)
            .tile(1, 0, Land.SEA)
            .tile(2, 0, Land.FOREST)
            .city(2, 0, "C17", pawns=[1])  # Nineveh: animals, plain, mountain, sea
            .tile(3, 0, Land.MOUNTAIN)
            .hand(0, "A10")
            .turn(0, 1)
            .to_game()
        )

    play = gr.PlayAnimals(0, "A10", Pos(1, 0))
    before = game(True)
    story.show("Before: a star Animal card, a free sea", before, [Pos(1, 0)])
    story.apply(before, play, "True: the star animals go on the sea")
    story.show("True: the animals go on the sea", before, [Pos(1, 0)])
    story.refuse(game(False), play, "False: the same play")


@situation("four-need-drop")
def _four_need_drop(story: Story) -> None:
    """A city with four needs falls to two (spec 12.4), as tests/test_advanced.py."""

    def game(drop: gr.FourNeedDrop) -> gr.Game:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.powers(four_need_drop=drop))
            .tile(0, 0, Land.FOREST)
            .tile(-1, 0, Land.PLAIN)
            .tile(0, -1, Land.MOUNTAIN)
            .tile(1, 0, Land.SEA, animals=3)
            .tile(2, 0, Land.DESERT)
            .city(0, 0, "C12", pawns=[1, 1])  # Troy: plain, sea, mountain, animals; 4 met
            .hand(0, "P13")
            .turn(0, 1)
            .to_game()
        )

    swap = (Pos(1, 0), Pos(2, 0))
    keep = game(gr.FourNeedDrop.KEEP_ONE)
    story.show("Before: Troy at 4, Yellow's two pawns", keep, swap)
    story.apply(keep, gr.PlayEarthquake(0, "P13", *swap), "KEEP_ONE")
    story.show("KEEP_ONE: Troy at 2 keeps one pawn", keep, swap)
    empty = game(gr.FourNeedDrop.EMPTY_AT_TWO)
    story.apply(empty, gr.PlayEarthquake(0, "P13", *swap), "EMPTY_AT_TWO")
    story.show("EMPTY_AT_TWO: Troy at 2 stands empty", empty, swap)


@situation("eruption-on-city")
def _eruption_on_city(story: Story) -> None:
    """An Eruption on a mountain that carries a city (spec 14.3a)."""

    def game(on_city: bool) -> gr.Game:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.disasters(eruption_on_city=on_city))
            .tile(0, 0, Land.MOUNTAIN)
            .tile(1, 0, Land.FOREST)
            .tile(0, 1, Land.PLAIN)
            .tile(-1, 0, Land.SEA)
            .city(0, 0, "C09", pawns=[1])  # Cuzco: forest, plain, animals, desert; 2 met
            .hand(0, "P29")
            .turn(0, 1)
            .to_game()
        )

    play = gr.PlayEruption(0, "P29", Pos(0, 0))
    before = game(True)
    around = [Pos(0, 0), Pos(1, 0), Pos(0, 1), Pos(-1, 0)]
    story.show("Before: Cuzco on the mountain", before, around)
    story.apply(before, play, "True: the Eruption on Cuzco's mountain")
    story.show("True: Cuzco is destroyed", before, around)
    story.refuse(game(False), play, "False: the same play")


@situation("venice")
def _venice(story: Story) -> None:
    """Venice on a sea tile, in the THIRD edition (spec 2.5, 9.2c)."""
    game = (
        gr.PositionBuilder(players=2, rules=gr.Rules.basic(edition=gr.Edition.THIRD))
        .tile(0, 0, Land.SEA)
        .tile(1, 0, Land.PLAIN)
        .tile(0, 1, Land.FOREST)
        .tile(-1, 0, Land.SEA)
        .hand(0, "C19")
        .turn(0, 1)
        .to_game()
    )
    story.show("Before: Venice in hand, a free sea", game, [Pos(0, 0)])
    story.apply(game, gr.PlayCity(0, "C19", Pos(0, 0)))
    story.show("THIRD: Venice stands on the sea", game, [Pos(0, 0)])


# -- the rules chapters ------------------------------------------------------------------------


@situation("tile-placement")
def _tile_placement(story: Story) -> None:
    """A Nature card's tile goes on the frontier, by an edge (spec 7.2, 7.4)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .hand(BLUE, "N07", "N20")
        .turn(BLUE, 1)
        .to_game()
    )
    story.show("Before: one tile; the dashed squares are the frontier", game)
    story.apply(game, gr.PlayNature(BLUE, "N07", Pos(1, 0)), "Blue plays a plain card")
    story.show("After: the plain tile beside the desert", game, [Pos(1, 0)])
    story.refuse(game, gr.PlayNature(BLUE, "N20", Pos(2, 1)), "a sea touching by a corner only")


@situation("city-placement")
def _city_placement(story: Story) -> None:
    """A City card on a free tile of its site, with two needs met or more (spec 9.2-9.4)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.FOREST)
        .tile(0, 1, Land.PLAIN)
        .tile(-1, 0, Land.DESERT)
        .hand(BLUE, "C09", "C10")
        .turn(BLUE, 1)
        .to_game()
    )
    story.show("Before: Cuzco (a mountain city) in Blue's hand", game, [Pos(0, 0)])
    story.refuse(game, gr.PlayCity(BLUE, "C09", Pos(1, 0)), "Cuzco on the forest")
    story.apply(game, gr.PlayCity(BLUE, "C09", Pos(0, 0)), "Cuzco on the mountain")
    story.show("After: 3 needs met, Blue's pawn on it", game, [Pos(0, 0)])


@situation("animals-raise")
def _animals_raise(story: Story) -> None:
    """An Animal card's four tokens meet a city's animal need (spec 9.1, 10.4)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .city(0, 0, "C04", pawns=[YELLOW])  # Carthage: sea, desert, animals, forest; 3 met
        .hand(BLUE, "A01")
        .turn(BLUE, 1)
        .to_game()
    )
    story.show("Before: Carthage at 3, Yellow's pawn", game, [Pos(0, 1)])
    story.apply(game, gr.PlayAnimals(BLUE, "A01", Pos(0, 1)), "Animals on the forest")
    story.show("After: Carthage at 4; Blue's pawn beside Yellow's", game, [Pos(0, 1)])


@situation("objective-fulfilled")
def _objective_fulfilled(story: Story) -> None:
    """A Nature card completes an Objective: its cards are discarded, a pawn goes on it
    (spec 8.1-8.4)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tableau(BLUE, "N07", "N33", "N34", "N20")
        .hand(BLUE, "N08")
        .objectives("O02", "O01", "O03", "O04")
        .turn(BLUE, 1)
        .to_game()
    )
    rules = game.rules
    rows = [Row("in front of Blue", game.state.tableaux[BLUE]), objective_row(game)]
    story.cards("Before: a plain, two forests and a sea in front of Blue", rules, rows)
    story.apply(game, gr.PlayNature(BLUE, "N08", Pos(1, 0)), "Blue plays his second plain card")
    rows = [Row("in front of Blue", game.state.tableaux[BLUE]), objective_row(game)]
    story.cards(
        "After: the plains and forests discarded, the sea stays; Blue's pawn on the Objective",
        rules,
        rows,
    )


@situation("scarce-pawns")
def _scarce_pawns(story: Story) -> None:
    """Two cities raised, one pawn left: the player chooses, and wins at once (spec 10.5,
    15.1)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(-1, 0, Land.SEA)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.DESERT)
        .tile(2, 0, Land.DESERT)
        .tile(3, 0, Land.PLAIN)
        .tile(3, 1, Land.MOUNTAIN)
        .tile(4, 1, Land.DESERT)
        .city(0, 0, "C01")  # Alexandria: sea, plain, animals, mountain; 1 met, empty
        .city(2, 0, "C02")  # Babylon: plain, swamp, forest, animals; 1 met, empty
        .city(3, 1, "C09", pawns=[BLUE])  # Cuzco: forest, plain, animals, desert; 2 met
        .objectives("O01", "O02", "O03", "O04", fulfilled={"O01": 0, "O02": 0, "O03": 0, "O04": 0})
        .hand(BLUE, "A09")
        .turn(BLUE, 1)
        .to_game()
    )
    story.show("Before: Blue has 1 pawn left", game, [Pos(1, 0)])
    story.apply(game, gr.PlayAnimals(BLUE, "A09", Pos(1, 0)), "Animals between two cities")
    story.apply(game, gr.PlaceCityPawn(BLUE, Pos(2, 0)), "Blue chooses Babylon")
    story.show("After: Babylon takes the last pawn; Blue wins", game, [Pos(1, 0)])


@situation("four-needs")
def _four_needs(story: Story) -> None:
    """A city raised to four needs takes two pawns: its owner's second, or a rival's two
    (spec 12.2, 12.3)."""

    def game(player: int) -> gr.Game:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.advanced())
            .tile(0, 0, Land.FOREST)
            .tile(-1, 0, Land.PLAIN)
            .tile(1, 0, Land.SEA)
            .tile(0, -1, Land.MOUNTAIN)
            .city(0, 0, "C12", pawns=[BLUE])  # Troy: plain, sea, mountain, animals; 3 met
            .hand(player, "A05")
            .turn(player, 1)
            .to_game()
        )

    own = game(BLUE)
    story.show("Before: Troy at 3, Blue's pawn", own, [Pos(1, 0)])
    story.apply(own, gr.PlayAnimals(BLUE, "A05", Pos(1, 0)), "Blue's Animals on the sea")
    story.show("Blue raises his own Troy: his second pawn", own, [Pos(1, 0)])
    rival = game(YELLOW)
    story.apply(rival, gr.PlayAnimals(YELLOW, "A05", Pos(1, 0)), "Yellow's Animals instead")
    story.show("Yellow raises it instead: steals it with two", rival, [Pos(1, 0)])


@situation("hand-limits")
def _hand_limits(story: Story) -> None:
    """A third Power card in hand: one Power card is discarded at once (spec 6.5a)."""
    game = (
        gr.PositionBuilder(players=2, rules=gr.Rules.powers())
        .tile(0, 0, Land.PLAIN)
        .hand(BLUE, "P01", "P07", "N01", "N20", "C01")
        .display(gr.CardKind.POWER, "P13", "P16")
        .turn(BLUE, 1)
        .to_game()
    )

    def rows() -> list[Row]:
        state = game.state
        return [
            Row("Blue's hand", state.hands[BLUE]),
            Row("Power display", state.displays[CardKind.POWER]),
            Row("Power discards", state.discards[CardKind.POWER]),
        ]

    story.cards("Before: Blue holds 5 cards, 2 of them Power cards", game.rules, rows())
    story.apply(game, gr.DrawDisplay(BLUE, "P13"), "Blue takes the Earthquake")
    story.apply(game, gr.Discard(BLUE, "P07"), "Blue holds 3 Power cards: he discards the Rain")
    story.cards("After: 6 cards, 2 of them Power cards; the Rain discarded", game.rules, rows())


@situation("exhaustion-end")
def _exhaustion_end(story: Story) -> None:
    """A player draws from an exhausted kind: the game ends, and the tie goes to the first
    tied player after him (spec 6.3, 15.2-15.4)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(0, 1, Land.PLAIN)
        .city(0, 0, "C01", pawns=[BLUE, YELLOW])  # Alexandria: 2 met
        .deck(gr.CardKind.LIFE)
        .display(gr.CardKind.LIFE)
        .turn(BLUE, 1)
        .to_game()
    )
    story.table("Before: no Life card left, face up or face down", game, BLUE)
    story.apply(game, gr.DrawDeck(BLUE, gr.CardKind.LIFE), "Blue chooses to draw a Life card")


@situation("rain")
def _rain(story: Story) -> None:
    """A Rain turns a desert into a plain, which raises a rival's city (spec 13.5, 12.2)."""
    game = (
        gr.PositionBuilder(players=2, rules=gr.Rules.powers())
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.DESERT)
        .city(0, 0, "C03", pawns=[YELLOW])  # Petra: mountain, plain, sea, forest; 2 met
        .hand(BLUE, "P07")
        .turn(BLUE, 1)
        .to_game()
    )
    story.show("Before: Petra at 2, Yellow's", game, [Pos(-1, 0)])
    story.apply(game, gr.PlayRain(BLUE, "P07", Pos(-1, 0)), "Rain on the desert")
    story.show("After: a plain; Petra at 3, now Blue's", game, [Pos(-1, 0)])


@situation("lightning")
def _lightning(story: Story) -> None:
    """A Lightning destroys a city; the tile it uncovers raises its neighbour (spec 14.2)."""
    game = (
        gr.PositionBuilder(players=2, rules=gr.Rules.disasters())
        .tile(0, 0, Land.FOREST)
        .tile(-1, 0, Land.SEA)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, 0, Land.PLAIN)
        .tile(2, 0, Land.MOUNTAIN)
        .tile(1, 1, Land.SWAMP)
        .city(0, 0, "C12", pawns=[YELLOW])  # Troy: plain, sea, mountain, animals; 2 met
        .city(1, 0, "C05", pawns=[YELLOW])  # Rome: forest, mountain, animals, swamp; 2 met
        .hand(BLUE, "P24")
        .turn(BLUE, 1)
        .to_game()
    )
    story.show("Before: Rome covers a plain that Troy needs", game, [Pos(1, 0)])
    story.apply(game, gr.PlayLightning(BLUE, "P24", Pos(1, 0)), "Lightning on Rome")
    story.show("After: Rome gone; Troy at 3, now Blue's", game, [Pos(1, 0)])


# -- how to play -------------------------------------------------------------------------------


@situation("legend")
def _legend(story: Story) -> None:
    """The key to every picture of the site."""

    def draw(language: str) -> str:
        words = languages.picture_words(language)
        return legend_svg(pictograms=words is not None, words=words)

    story.frames.append(_drawn("The key to the pictures", draw))


@situation("a-table")
def _a_table(story: Story) -> None:
    """A three-player game in the middle, as Blue sees the table (spec 1.5, 3.8)."""
    game = (
        gr.PositionBuilder(players=3, seed=2024)
        .tile(-1, -1, Land.FOREST)
        .tile(0, -1, Land.MOUNTAIN)
        .tile(1, -1, Land.PLAIN)
        .tile(-2, 0, Land.SEA)
        .tile(-1, 0, Land.SWAMP)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(2, 0, Land.PLAIN)
        .tile(-1, 1, Land.PLAIN)
        .tile(0, 1, Land.FOREST, animals=3)
        .tile(1, 1, Land.DESERT)
        .tile(2, 1, Land.MOUNTAIN)
        .tile(0, 2, Land.SEA)
        .tile(1, 2, Land.PLAIN)
        .city(0, 0, "C02", pawns=[YELLOW, BLUE])  # Babylon: swamp, forest, animals met
        .city(0, -1, "C10", pawns=[GREEN])  # Sparta: plain, forest met
        .city(1, 2, "C04", pawns=[BLUE])  # Carthage: sea, desert met
        .tableau(BLUE, "N07", "N20", "N35")
        .tableau(YELLOW, "N01")
        .tableau(GREEN, "N29", "N30", "N36")
        .hand(BLUE, "N03", "C05", "A07", "N22")
        .hand(YELLOW, "N15", "C13", "N09")
        .hand(GREEN, "N16", "A11", "C16", "N23", "N10")
        .discard_pile(CardKind.NATURE, "N33", "N34", "N27", "N28")
        .discard_pile(CardKind.LIFE, "A01")
        .objectives("O03", "O05", "O01", "O07", "O04", fulfilled={"O05": YELLOW})
        .turn(BLUE, 1)
        .to_game()
    )
    story.table("A three-player game in the middle, as Blue sees the table", game, BLUE)


@situation("setup-four-players")
def _setup_four_players(story: Story) -> None:
    """The rulebooks' setup example: four players, as Blue sees the table (spec 4)."""
    game = gr.new_game(players=4, rules=gr.Rules.basic(), seed=4)
    story.table("Setup with four players, as Blue sees the table", game, BLUE)


@situation("bga-objective")
def _bga_objective(story: Story) -> None:
    """The example of the Board Game Arena page: two deserts and two seas (spec 8.1, 8.2)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.DESERT)
        .tableau(BLUE, "N01", "N02", "N20")
        .hand(BLUE, "N21")
        .objectives("O01", "O02", "O03", "O04")
        .turn(BLUE, 1)
        .to_game()
    )
    rules = game.rules
    rows = [Row("in front of Blue", game.state.tableaux[BLUE]), objective_row(game)]
    story.cards("Before: two deserts and a sea in front of Blue", rules, rows)
    story.apply(game, gr.PlayNature(BLUE, "N21", Pos(2, 0)), "Blue plays his second sea card")
    rows = [
        Row("in front of Blue", game.state.tableaux[BLUE]),
        objective_row(game),
        Row("Nature discards", game.state.discards[CardKind.NATURE]),
    ]
    story.cards("After: the four cards discarded, Blue's pawn on the Objective", rules, rows)


@situation("bga-city-animals")
def _bga_city_animals(story: Story) -> None:
    """The example of the Board Game Arena page: another player's animals raise a city,
    and his pawn joins the builder's (spec 10.4)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(-1, 0, Land.FOREST)
        .tile(0, 1, Land.SWAMP)
        .tile(1, 0, Land.MOUNTAIN)
        .city(0, 0, "C02", pawns=[BLUE])  # Babylon: plain, swamp, forest, animals
        .hand(YELLOW, "A01")
        .turn(YELLOW, 1)
        .to_game()
    )
    story.show("Before: Babylon meets forest and swamp (2), Blue's", game, [Pos(-1, 0)])
    story.apply(game, gr.PlayAnimals(YELLOW, "A01", Pos(-1, 0)), "Yellow's Animals on the forest")
    story.show("After: Babylon at 3, Yellow's pawn beside Blue's", game, [Pos(-1, 0)])


@situation("turn")
def _turn(story: Story) -> None:
    """One whole turn: the feeding, then two actions (spec 5.2, 11)."""
    start = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.FOREST, animals=2)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.DESERT)
        .city(0, 0, "C04", pawns=[BLUE])  # Carthage: sea, desert, animals, forest; 4 met
        .hand(BLUE, "N27")
        .display(gr.CardKind.LIFE, "C10", "A03")
        .turn(BLUE)
        .build()
    )
    game = start.to_game()
    story.note("1. The turn begins: Blue feeds Carthage from the forest", start, game.events)
    story.show("1. Feeding: one token eaten", game, [Pos(1, 0)])
    story.apply(game, gr.PlayNature(BLUE, "N27", Pos(0, -1)), "2. First action: a mountain")
    story.show("2. First action: a mountain tile", game, [Pos(0, -1)])
    story.apply(game, gr.DrawDisplay(BLUE, "C10"), "3. Second action: Blue draws Sparta")


@situation("power-example-a")
def _power_example_a(story: Story) -> None:
    """The rulebooks' Power example A: a Sun lowers a city, a Rain raises it again
    (spec 13.3, 13.4, 13.5, 12.2)."""
    game = (
        gr.PositionBuilder(players=2, rules=gr.Rules.powers())
        .tile(0, 0, Land.SWAMP)
        .tile(-1, 0, Land.PLAIN)
        .tile(1, 0, Land.SEA)
        .tile(0, -1, Land.FOREST)
        .city(0, 0, "C07", pawns=[BLUE])  # Ur: plain, forest, animals, sea; 3 met
        .hand(YELLOW, "P01", "P07")
        .turn(YELLOW, 1)
        .to_game()
    )
    story.show("Before: Ur at 3, Blue's", game, [Pos(-1, 0)])
    story.apply(game, gr.PlaySun(YELLOW, "P01", Pos(-1, 0)), "1st action: a Sun on the plain")
    story.show("Sun: a desert; Ur falls to 2", game, [Pos(-1, 0)])
    story.apply(game, gr.PlayRain(YELLOW, "P07", Pos(-1, 0)), "2nd action: a Rain on the desert")
    story.show("Rain: a plain again; Ur at 3, now Yellow's", game, [Pos(-1, 0)])


@situation("needs-met")
def _needs_met(story: Story) -> None:
    """Needs met by the neighbours, never by a covered tile nor by a diagonal (spec 3.1,
    3.4, 3.5)."""
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA)
        .tile(-1, 0, Land.MOUNTAIN)
        .tile(0, 1, Land.PLAIN)
        .tile(1, 1, Land.FOREST, animals=2)
        .tile(-1, 1, Land.MOUNTAIN)
        .city(0, 0, "C01", pawns=[YELLOW])  # Alexandria: sea, plain, animals, mountain
        .city(0, 1, "C05", pawns=[BLUE])  # Rome: forest, mountain, animals, swamp
        .build()
    )
    story.show(
        "Alexandria (top) meets sea and mountain: its plain is covered by Rome, and the "
        "animals touch it only at a corner",
        position,
        [Pos(0, 1), Pos(1, 1)],
    )
