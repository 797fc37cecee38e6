"""The SVG pictures of the world (:mod:`gaia_rules.svg`): well-formed, faithful, deterministic."""

from __future__ import annotations

import doctest
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

import attrs
import pytest

import gaia_rules as gr
from gaia_rules import svg
from gaia_rules.cards import CityCard
from gaia_rules.manifest import Manifest
from gaia_rules.position import Position, PositionBuilder
from gaia_rules.svg import world_svg
from gaia_rules.svg_cards import CARD_WORDS
from gaia_rules.text import world_text
from gaia_rules.vocabulary import Land, Pos
from tests.strategies import Walk

SVG = "{http://www.w3.org/2000/svg}"

# seeded random games played part way, one per level, biased towards plays to build cities
WALKS = {
    "basic": Walk(4, gr.Rules.basic(), 11, 0, steps=90, walk_seed=1, prefer_plays=0.8),
    "advanced": Walk(3, gr.Rules.advanced(), 19, 1, steps=110, walk_seed=2, prefer_plays=0.8),
    "powers": Walk(5, gr.Rules.powers(), 13, 2, steps=120, walk_seed=3, prefer_plays=0.8),
    "disasters": Walk(2, gr.Rules.disasters(), 14, 0, steps=140, walk_seed=4, prefer_plays=0.8),
}


@pytest.fixture(scope="module", params=list(WALKS))
def walk(request: pytest.FixtureRequest) -> Walk:
    return WALKS[request.param]


@pytest.fixture(scope="module")
def game(walk: Walk) -> gr.Game:
    played = walk.play()
    assert played.state.cities, "the walk should build cities"
    assert not played.is_over
    return played


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, *classes: str) -> list[ET.Element]:
    """Every element whose class attribute holds all of ``classes``."""
    wanted = set(classes)
    return [e for e in root.iter() if wanted <= set(e.get("class", "").split())]


def squares(root: ET.Element) -> Iterator[tuple[Pos, ET.Element]]:
    for group in with_class(root, "square"):
        x, y = group.get("data-pos", "").split(",")
        yield Pos(int(x), int(y)), group


def check_faithful(picture: str, state: gr.GameState) -> None:
    """The picture shows exactly the world of ``state``."""
    root = parse(picture)
    tiles = with_class(root, "tile")
    assert len(tiles) == len(state.tiles)
    drawn = dict(squares(root))
    assert set(drawn) == set(state.tiles)
    for pos, group in drawn.items():
        assert with_class(group, "tile", f"land-{state.tiles[pos].value}")
        badges = with_class(group, "animals")
        assert len(badges) == (pos in state.animals)
        if badges:
            assert "".join(badges[0].itertext()).endswith(str(state.animals[pos]))
        cities = with_class(group, "city")
        assert len(cities) == (pos in state.cities)
        if cities:
            city = state.cities[pos]
            assert cities[0].get("data-card") == city.card
            assert len(with_class(group, "need", "met")) == city.satisfaction
            assert len(with_class(group, "need", "unmet")) == 4 - city.satisfaction
            pawns = Counter(
                int(c.split("-")[1])
                for e in with_class(group, "pawn")
                for c in e.get("class", "").split()
                if c.startswith("seat-")
            )
            assert pawns == Counter(city.pawns)


@pytest.mark.clause("3.5")
def test_a_game_is_drawn_faithfully_at_every_level(game: gr.Game) -> None:
    check_faithful(world_svg(game), game.state)


@pytest.mark.clause("3.5")
def test_the_picture_follows_every_change_of_a_game() -> None:
    def check(game: gr.Game) -> None:
        check_faithful(world_svg(game, size=16), game.state)

    WALKS["disasters"].play(after_each=check)


def test_game_state_and_every_view_give_the_same_picture(game: gr.Game) -> None:
    picture = world_svg(game)
    assert world_svg(game.state) == picture
    for seat in range(game.players):
        assert world_svg(game.view(seat)) == picture
    assert game._repr_svg_() == picture
    assert game.view(0)._repr_svg_() == picture


def test_a_position_taken_from_a_game_gives_the_same_picture(game: gr.Game) -> None:
    probe = game.copy()
    while not isinstance(probe.decision, gr.ChooseAction) and not probe.is_over:
        probe.apply(probe.legal_actions()[0])
    assert not probe.is_over
    position = Position.from_game(probe)
    assert world_svg(position) == world_svg(probe)
    assert position._repr_svg_() == world_svg(probe)


def test_the_picture_is_deterministic(walk: Walk, game: gr.Game) -> None:
    again = walk.play()
    first = world_svg(game, size=30, highlight=[Pos(0, 0)], title="t")
    assert world_svg(again, size=30, highlight=[Pos(0, 0)], title="t") == first
    assert world_svg(game.copy(), size=30, highlight=[Pos(0, 0)], title="t") == first


ALEXANDRIA = (  # C01 Alexandria: needs sea, plain, animals, mountain
    PositionBuilder(players=3)
    .tile(0, 0, Land.DESERT)
    .tile(1, 0, Land.SEA, animals=2)
    .tile(0, 1, Land.PLAIN)
    .tile(-1, 0, Land.FOREST)
    .tile(0, -1, Land.DESERT)
    .city(0, 0, "C01", pawns=[0, 2])
    .turn(1, action=1)
    .build()
)


@pytest.mark.clause("3.5")
def test_each_need_of_a_city_is_met_or_unmet() -> None:
    root = parse(world_svg(ALEXANDRIA))
    needs = {e.get("data-need"): e.get("class") for e in with_class(root, "need")}
    assert needs == {
        "sea": "need met",
        "plain": "need met",
        "animals": "need met",
        "mountain": "need unmet",
    }
    assert [e.get("class") for e in with_class(root, "pawn")] == ["pawn seat-0", "pawn seat-2"]
    check_faithful(world_svg(ALEXANDRIA), ALEXANDRIA.to_game().state)


def test_y_grows_downwards_as_in_the_world_text() -> None:
    root = parse(world_svg(ALEXANDRIA, coordinates=False))
    corner = {}
    for pos, group in squares(root):
        x, y = group.get("transform", "")[len("translate(") : -1].split(",")
        corner[pos] = (float(x), float(y))
    assert corner[Pos(0, -1)][1] < corner[Pos(0, 0)][1] < corner[Pos(0, 1)][1]
    assert corner[Pos(-1, 0)][0] < corner[Pos(0, 0)][0] < corner[Pos(1, 0)][0]
    text_rows = [
        line.split()[0] for line in world_text(ALEXANDRIA.to_game().state).split("\n")[1:4]
    ]
    assert text_rows == ["-1", "0", "1"]


def test_the_coordinates_span_the_tiles_and_one_square_around() -> None:
    root = parse(world_svg(ALEXANDRIA))
    xs = [e.text for e in with_class(root, "coord", "x")]
    ys = [e.text for e in with_class(root, "coord", "y")]
    assert xs == ["-2", "-1", "0", "1", "2"]
    assert ys == ["-2", "-1", "0", "1", "2"]
    assert not with_class(parse(world_svg(ALEXANDRIA, coordinates=False)), "coord")
    frontier = {e.get("data-pos") for e in with_class(root, "frontier")}
    assert "2,0" in frontier and "1,1" in frontier and "0,0" not in frontier


def test_highlights_outline_their_squares_and_widen_the_picture() -> None:
    root = parse(world_svg(ALEXANDRIA, highlight=[Pos(1, 0), Pos(1, 0), Pos(5, 0)]))
    assert [e.get("data-pos") for e in with_class(root, "highlight")] == ["1,0", "5,0"]
    assert [e.text for e in with_class(root, "coord", "x")][-1] == "6"


def test_text_is_escaped() -> None:
    cards = gr.Rules.basic().cards
    renamed = tuple(
        (card, attrs.evolve(face, name='<Ur & "Co">') if isinstance(face, CityCard) else face)
        for card, face in cards.cards
    )
    rules = gr.Rules.basic(manifest=Manifest(cards.edition, renamed))
    position = attrs.evolve(ALEXANDRIA, rules=rules)
    title = "a < b & 'c' > \"d\"\x01"
    root = parse(world_svg(position, title=title))
    assert with_class(root, "caption")[0].text == "a < b & 'c' > \"d\"\ufffd"
    names = [e.text for e in with_class(root, "name")]
    assert names == ['<Ur & "Co">']
    city_title = with_class(root, "city")[0].find(f"{SVG}title")
    assert city_title is not None and (city_title.text or "").startswith('<Ur & "Co"> (C01)')


def test_an_empty_world_draws_the_origin_outlined() -> None:
    position = PositionBuilder(players=2).build()
    root = parse(world_svg(position))
    assert not with_class(root, "tile")
    assert [e.get("data-pos") for e in with_class(root, "origin")] == ["0,0"]
    assert [e.text for e in with_class(root, "coord")] == ["0", "0"]


def test_an_empty_world_keeps_the_origin_in_the_picture_beside_a_highlight() -> None:
    root = parse(world_svg(PositionBuilder(players=2).build(), highlight=[Pos(2, -1)]))
    assert [e.text for e in with_class(root, "coord", "x")] == ["0", "1", "2"]
    assert [e.text for e in with_class(root, "coord", "y")] == ["-1", "0"]
    assert [e.get("data-pos") for e in with_class(root, "origin")] == ["0,0"]


def test_a_city_card_that_is_not_a_city_raises_a_typed_error() -> None:
    position = attrs.evolve(ALEXANDRIA, cities={Pos(0, 0): ("A01", ())})
    with pytest.raises(gr.GaiaRulesError, match="not a City card"):
        world_svg(position)


def test_the_size_scales_the_picture() -> None:
    small = parse(world_svg(ALEXANDRIA, size=20, coordinates=False))
    big = parse(world_svg(ALEXANDRIA, size=40, coordinates=False))
    assert float(big.get("width", "")) > 1.9 * float(small.get("width", ""))
    assert with_class(small, "tile")[0].get("width") == "20"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"size": 0}, "size"),
        ({"size": True}, "size"),
        ({"highlight": [(0, 0)]}, "highlight"),
        ({"title": 3}, "title"),
    ],
)
def test_bad_arguments_raise_a_typed_error(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(gr.GaiaRulesError, match=message):
        world_svg(ALEXANDRIA, **arguments)  # type: ignore[arg-type]


def test_a_source_without_a_world_raises_a_typed_error() -> None:
    with pytest.raises(gr.GaiaRulesError, match="draws a Game"):
        world_svg("world")  # type: ignore[arg-type]


def test_the_module_example_runs() -> None:
    failures, tried = doctest.testmod(svg)
    assert tried > 0 and failures == 0


# -- the words of a picture in another language -------------------------------------------------

GERMAN = {
    **{key: f"«{key}»" for key in CARD_WORDS},
    **{key: f"«{key}»" for key in svg.PICTURE_WORDS},
    "city.Alexandria": "Alexandrien",
    "land.desert": "Wüste",
    "land.plain": "Ebene",
    "land.swamp": "Sumpf",
    "land.sea": "Meer",
    "land.mountain": "Gebirge",
    "land.forest": "Wald",
    "kind.nature": "Natur",
    "kind.life": "Leben",
    "kind.power": "Macht",
    "colour.blue": "Blau",
    "colour.yellow": "Gelb",
    "colour.green": "Grün",
    "colour.red": "Rot",
    "colour.white": "Weiß",
}
"""German names of the lands and the colours, and every other word of the pictures marked, so
that a word left in English shows."""


def _texts(picture: str) -> list[str]:
    """The words a picture shows or tells: its text elements and its titles."""
    root = ET.fromstring(picture)
    return [
        "".join(node.itertext())
        for node in root.iter()
        if node.tag in (f"{SVG}text", f"{SVG}title") and "".join(node.itertext()).strip()
    ]


def _english(texts: list[str]) -> list[str]:
    """The texts that hold an English word of the pictures."""
    english = {"desert", "plain", "swamp", "sea", "mountain", "forest", "nature", "life"}
    english |= {"power", "blue", "yellow", "green", "red", "white", "seat", "needs", "tiles"}
    english |= {"deck", "discards", "hand", "front", "pawns", "animal", "objectives", "world"}
    seen = [re.sub("«[^»]*»", " ", text) for text in texts]  # a marked word is not English
    return [t for t in seen if set(re.findall(r"[a-z]+", t.lower())) & english]


def test_a_world_speaks_the_words_it_is_given() -> None:
    position = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.DESERT)
        .tile(1, 0, Land.SEA, animals=2)
        .tile(0, 1, Land.PLAIN)
        .city(0, 0, "C01", pawns=[1])
        .build()
    )
    english = world_svg(position)
    assert "Alexandria" in english and "animal token(s)" in english
    for pictograms in (False, True):
        german = world_svg(position, pictograms=pictograms, words=GERMAN)
        assert "Alexandrien" in german and "Alexandria" not in german
        assert "«world.tokens»" in german and "«world.city»" in german
        assert _english(_texts(german)) == []
    assert world_svg(position, words={}) == english  # no words: English, byte for byte


def test_the_legend_speaks_the_words_it_is_given() -> None:
    english = svg.legend_svg()
    assert _english(_texts(english))  # the check finds English words
    assert svg.legend_svg(words={}) == english
    german = svg.legend_svg(pictograms=True, words=GERMAN)
    assert _english(_texts(german)) == []
    assert "Wüste" in german and "«legend.frontier»" in german and 'class="icon' in german
    assert "Wüste (D)" in svg.legend_svg(words=GERMAN)  # beside its letter when drawn with one


def test_a_table_speaks_the_words_it_is_given() -> None:
    game = WALKS["powers"].play()
    view = game.view(0)
    english = svg.table_svg(view)
    assert svg.table_svg(view, words={}) == english
    words = {**GERMAN, **{f"city.{face.name}": f"«{face.name}»" for face in _cities()}}
    german = svg.table_svg(view, pictograms=True, words=words)
    assert _english(_texts(german)) == []
    assert _english(_texts(english))


def _cities() -> list[CityCard]:
    return [
        face for _, face in Manifest.builtin(gr.Edition.THIRD).cards if isinstance(face, CityCard)
    ]
