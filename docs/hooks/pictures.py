"""The pictured situations of the rules pages: positions set up, actions applied, the world
drawn before and after by :func:`gaia_rules.svg.world_svg`.

Each situation is a function registered under a name. It sets up a position with the
:class:`~gaia_rules.PositionBuilder`, applies the rulebook's actions through the engine
itself and records a frame (an SVG of the world) at each moment worth seeing, with the
events of each action in words (:func:`gaia_rules.text.describe`). So the pictures cannot
drift from the engine: a change in the rules changes them, and a position the engine
refuses fails the build.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.decisions import ChooseProtection
from gaia_rules.svg import legend_svg, table_svg, world_svg
from gaia_rules.text import describe

PICTURES_DIR = "rules/pictures"
"""Where the SVG files are written in the site."""

SIZE = 60
"""The side of a square, in pixels."""

Source = gr.Game | gr.Position


@dataclass(frozen=True)
class Frame:
    """One picture of the world, with its caption."""

    caption: str
    svg: str
    wide: bool = False
    """A picture of the whole table, drawn on a row of its own."""


@dataclass
class Story:
    """The frames and the event lines of one pictured situation, in order."""

    name: str
    frames: list[Frame] = field(default_factory=list)
    log: list[tuple[str, list[str]]] = field(default_factory=list)

    def show(self, caption: str, source: Source, highlight: Iterable[Pos] = ()) -> None:
        """Draw the world of ``source`` now, outlining the squares ``highlight``."""
        svg = world_svg(source, size=SIZE, highlight=tuple(highlight))
        self.frames.append(Frame(caption, svg))

    def table(self, caption: str, game: gr.Game, seat: int) -> None:
        """Draw the whole table as ``seat`` sees it now (:func:`gaia_rules.svg.table_svg`)."""
        self.frames.append(Frame(caption, table_svg(game.view(seat), title=caption), wide=True))

    def apply(self, game: gr.Game, action: gr.Action, heading: str | None = None) -> None:
        """Apply ``action`` and record what happened; every Protection window it opens is
        passed, seat by seat, unless the situation answers it itself."""
        events = list(game.apply(action))
        while isinstance(game.decision, ChooseProtection):
            seat = game.decision.player
            events += game.apply(gr.PassProtection(seat))
        self.note(heading or "", events)

    def note(self, heading: str, events: Iterable[gr.Event]) -> None:
        """Record the events of one step in words, under ``heading`` (may be empty)."""
        self.log.append((heading, [describe(event) for event in events]))

    def refuse(self, game: gr.Game, action: gr.Action, heading: str) -> None:
        """Record that the engine refuses ``action`` (and why); the game is unchanged.

        Raises ``AssertionError`` if the engine accepts it.
        """
        try:
            game.copy().apply(action)
        except gr.IllegalActionError as error:
            self.log.append((heading, [f"refused: {error}"]))
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


def svg_files(story: Story) -> dict[str, str]:
    """The SVG file of each frame of ``story``, by its path in the site."""
    return {_frame_uri(story.name, i): frame.svg for i, frame in enumerate(story.frames, 1)}


def _frame_uri(name: str, number: int) -> str:
    return f"{PICTURES_DIR}/{name}-{number}.svg"


def story_markdown(story: Story, from_uri: str) -> str:
    """The Markdown that shows the frames of ``story`` side by side, with the events of
    each step in a fold below them, for a page at ``from_uri``."""
    out = ['<div class="gaia-frames" markdown>', ""] if story.frames else []
    for number, frame in enumerate(story.frames, 1):
        link = posixpath.relpath(_frame_uri(story.name, number), posixpath.dirname(from_uri))
        kind = "gaia-frame wide" if frame.wide else "gaia-frame"
        out += [
            f'<figure class="{kind}" markdown>',
            "",
            f"![{frame.caption}]({link})",
            "",
            f"<figcaption>{frame.caption}</figcaption>",
            "",
            "</figure>",
            "",
        ]
    if story.frames:
        out += ["</div>", ""]
    if story.log:
        fold = "???" if story.frames else "???+"
        out.append(f'{fold} note "What the engine did, step by step"')
        out.append("")
        for heading, lines in story.log:
            if heading:
                out += [f"    {heading}:", ""]
            out.append("    ```text")
            out += [f"    {line}" for line in lines] or ["    (nothing happened)"]
            out += ["    ```", ""]
    return "\n".join(out)


# -- the rulebooks' illustrated examples -------------------------------------------------------

BLUE, YELLOW, GREEN = 0, 1, 2


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
    story.note("a) the feeding", game.events)
    story.show("a) Lhasa is fed the last token", game, [Pos(1, 1)])
    story.apply(game, gr.PlayNature(YELLOW, "N08", Pos(2, 1)), "b) c) a plain")
    story.show("b) a plain raises Petra", game, [Pos(2, 1)])
    story.apply(game, gr.PlayAnimals(YELLOW, "A09", Pos(1, 1)), "d) Animals on the desert")
    story.show("d) animals raise Lhasa again", game, [Pos(1, 1)])


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
    story.show("Before: Blue's Sun on the plain", position, [Pos(1, 0)])
    game = position.to_game()
    events = list(game.apply(gr.PlaySun(0, "P01", Pos(1, 0))))
    events += game.apply(gr.PassProtection(1))
    events += game.apply(gr.Protect(2, "P20"))
    story.note("Sun; Yellow passes; Green plays Protection", events)
    story.show("After: nothing changed in the world", game, [Pos(1, 0)])


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
        gr.PositionBuilder(players=3, rules=gr.Rules.powers(), seed=3)
        .tile(0, 0, Land.PLAIN)
        .hand(0, "P16", "N01")
        .hand(1, "N07", "C01")
        .hand(2, "A01")
        .turn(0, 1)
        .to_game()
    )
    start = len(game.events)
    game.apply(gr.PlayTornado(0, "P16"))
    game.apply(gr.NameBack(0, 1, gr.CardKind.LIFE))
    kept = next(a for a in game.legal_actions() if isinstance(a, gr.KeepCard))
    game.apply(kept)
    for seat, who in ((0, "the thief, seat 0"), (1, "seat 1, robbed"), (2, "seat 2, robbed")):
        story.note(f"as {who} saw it", game.events_for(seat)[start:])


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
    story.note("PAWN_HOLDER: the feeding", game.events)
    story.show("PAWN_HOLDER: Cuzco alone is fed", game, [Pos(1, 0)])
    game = position(gr.Feeding.EVERY_CITY).to_game()
    start = len(game.events)
    game.apply(gr.Feed(1, Pos(2, 0), Pos(1, 0)))
    story.note("EVERY_CITY: the feeding", game.events[start:])
    story.show("EVERY_CITY: Alexandria is fed too", game, [Pos(1, 0)])


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
    story.apply(before, play, "star_animals_on_sea=True")
    story.show("True: the animals go on the sea", before, [Pos(1, 0)])
    story.refuse(game(False), play, "star_animals_on_sea=False")


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
    story.apply(before, play, "eruption_on_city=True")
    story.show("True: Cuzco is destroyed", before, around)
    story.refuse(game(False), play, "eruption_on_city=False")


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

RED = 3


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
    story.table("Before: Blue has a plain, two forests and a sea in front", game, BLUE)
    story.apply(game, gr.PlayNature(BLUE, "N08", Pos(1, 0)), "Blue plays his second plain")
    story.table("After: the Objective O02 carries Blue's pawn", game, BLUE)


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
    story.table("Before: Blue holds 5 cards, 2 of them Powers", game, BLUE)
    story.apply(game, gr.DrawDisplay(BLUE, "P13"), "Blue takes the Earthquake P13")
    story.apply(game, gr.Discard(BLUE, "P07"), "Blue holds 3 Power cards: he discards the Rain")
    story.table("After: 6 cards, 2 Powers; the Rain on the Power discards", game, BLUE)


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
    story.frames.append(Frame("The key to the pictures", legend_svg()))


@situation("a-table")
def _a_table(story: Story) -> None:
    """A three-player game after a few turns, as seat 0 sees it (spec 1.5, 3.8)."""
    game = gr.new_game(players=3, rules=gr.Rules.basic(), seed=2024)
    for _ in range(14):  # the first legal action each time: draws and plays, seeded
        actions = game.legal_actions()
        plays = [a for a in actions if isinstance(a, gr.PlayNature | gr.PlayCity)]
        game.apply((plays or actions)[0])
    story.table("A three-player game, as Blue (seat 0) sees the table", game, BLUE)


@situation("turn")
def _turn(story: Story) -> None:
    """One whole turn: the feeding, then two actions (spec 5.2, 11)."""
    game = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tile(1, 0, Land.FOREST, animals=2)
        .tile(0, 1, Land.SEA)
        .tile(-1, 0, Land.DESERT)
        .city(0, 0, "C04", pawns=[BLUE])  # Carthage: sea, desert, animals, forest; 4 met
        .hand(BLUE, "N27")
        .display(gr.CardKind.LIFE, "C10", "A03")
        .turn(BLUE)
        .to_game()
    )
    story.note("The turn begins: Blue feeds Carthage from the forest", game.events)
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
