"""The integer action space of the ``rl`` wing: fixed, versioned, one index per action."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import attrs
import pytest

import gaia_rules as gr
from gaia_rules.rl.encoding import (
    ACTION_COUNT,
    BLOCKS,
    RADIUS,
    SQUARES,
    EncodingError,
    action_space,
    class_name,
    square_index,
    square_of,
)

LEVELS = ("basic", "advanced", "powers", "disasters")
GUIDE = Path(__file__).parent.parent / "docs" / "guides" / "agents.md"


def _random_states() -> list[tuple[gr.View, list[gr.Action]]]:
    """The view of the seat to move and the legal actions, at every decision of one random
    game per level and player count."""
    found = []
    for level in LEVELS:
        for players in range(2, 6):
            game = gr.new_game(players, getattr(gr.Rules, level)(), seed=players)
            rng = random.Random(players)
            while not game.is_over:
                legal = list(game.legal_actions())
                found.append((game.view(game.to_move), legal))  # type: ignore[arg-type]
                game.apply(rng.choice(legal))
    return found


def test_the_space_has_its_documented_size() -> None:
    assert SQUARES == 2 * RADIUS * (RADIUS + 1) + 1 == 4513
    assert sum(block.size for block in BLOCKS) == ACTION_COUNT == 194_321
    starts = [block.start for block in BLOCKS]
    assert starts == sorted(starts) and starts[0] == 0
    for block, after in itertools.pairwise(BLOCKS):
        assert block.start + block.size == after.start


@pytest.mark.clause("3.1", "7.2")
def test_squares_cover_the_reach_of_48_tiles_and_no_more() -> None:
    for index in range(SQUARES):
        assert square_index(square_of(index)) == index
    # 48 tiles in a line put the last one 47 steps away, in any direction
    line = gr.PositionBuilder(players=2)
    for x in range(48):
        line = line.tile(x, 0, gr.Land.PLAIN if x % 2 else gr.Land.DESERT)
    assert square_index(gr.Pos(47, 0)) < SQUARES
    assert square_index(gr.Pos(-20, 27)) < SQUARES
    for beyond in (gr.Pos(48, 0), gr.Pos(24, -24), gr.Pos(0, -48)):
        with pytest.raises(EncodingError, match="beyond 47 steps"):
            square_index(beyond)
    with pytest.raises(EncodingError):
        square_of(SQUARES)


@pytest.mark.clause("5.4")
def test_every_legal_action_has_one_index_and_only_equal_cards_share_one() -> None:
    checked = 0
    for view, legal in _random_states():
        space = action_space(view.rules)
        faces = view.rules.cards
        by_index = space.legal(legal, view.players, view.stolen)
        assert all(0 <= index < ACTION_COUNT for index in by_index)
        assert set(by_index.values()) <= set(legal)
        for index, action in by_index.items():
            assert space.decode(index, view) == action  # the first the engine lists
        groups: dict[int, list[gr.Action]] = {}
        source = {card: seat for _, seat, card in view.stolen if card is not None}
        for action in legal:
            index = (
                space.encode_keep(action, source[action.card], view.players)
                if isinstance(action, gr.KeepCard)
                else space.encode(action, view.players)
            )
            groups.setdefault(index, []).append(action)
            checked += 1
        for index, actions in groups.items():
            assert by_index[index] == actions[0]  # the first the engine lists
            for other in actions[1:]:
                # only the card differs, and it has the face of the first one's card
                first = actions[0]
                assert type(other) is type(first)
                assert faces.face(other.card) == faces.face(first.card)  # type: ignore[union-attr]
                assert {**vars_of(other), "card": None} == {**vars_of(first), "card": None}
    assert checked > 10_000


def vars_of(action: gr.Action) -> dict[str, object]:
    return attrs.asdict(action, recurse=False)


def test_the_index_means_the_same_action_whatever_the_seat() -> None:
    space = action_space(gr.Rules.powers())
    one = space.encode(gr.PlayNature(0, "N07", gr.Pos(1, -2)), 3)
    assert one == space.encode(gr.PlayNature(2, "N08", gr.Pos(1, -2)), 3)  # both plain
    assert space.describe(one) == "PlayNature land=plain square=1,-2"
    back = space.encode(gr.NameBack(4, 0, gr.CardKind.POWER), 5)
    assert back == space.encode(gr.NameBack(1, 2, gr.CardKind.POWER), 5)  # one seat on
    assert space.describe(back) == "NameBack victim=+1 back=power"
    quake = space.encode(gr.PlayEarthquake(0, "P13", gr.Pos(0, 0), gr.Pos(0, 1)), 2)
    assert space.describe(quake) == "PlayEarthquake second_tile=south first=0,0"


def test_bad_actions_and_indices_are_refused() -> None:
    space = action_space(gr.Rules.basic())
    with pytest.raises(EncodingError, match="beyond"):
        space.encode(gr.PlayNature(0, "N01", gr.Pos(30, 30)), 2)
    with pytest.raises(EncodingError, match="not a neighbour"):
        space.encode(gr.Feed(0, gr.Pos(0, 0), gr.Pos(2, 0)), 2)
    with pytest.raises(EncodingError, match="not a card"):
        space.encode(gr.Discard(0, "X99"), 2)
    with pytest.raises(EncodingError):
        space.describe(ACTION_COUNT)
    with pytest.raises(EncodingError, match="where it came from"):
        space.legal([gr.KeepCard(0, "N01")], 2)
    view = gr.new_game(2, gr.Rules.basic(), seed=1).view(0)
    nature = next(c for c in view.hand if c.startswith("N"))
    index = space.encode(gr.PlayNature(0, nature, gr.Pos(0, 0)), 2)
    assert space.decode(index, view) == gr.PlayNature(0, nature, gr.Pos(0, 0))
    with pytest.raises(EncodingError, match="names a card the seat does not have"):
        space.decode(space.encode(gr.PlayCity(0, "C01", gr.Pos(0, 0)), 2), view)
    with pytest.raises(EncodingError):
        space.decode(-1, view)


def test_card_classes_follow_the_manifest() -> None:
    for edition in gr.Edition:
        manifest = gr.Rules(edition=edition).cards
        space = action_space(manifest)
        cities = manifest.ids(gr.CityCard)
        assert [space.card_class[c] for c in cities] == list(range(6, 6 + len(cities)))
        assert class_name(manifest, 6) == f"city:{cities[0]}"
    assert class_name(gr.Rules.basic().cards, 0) == "nature:desert"


def test_the_guide_table_is_the_space() -> None:
    """The encoding table of the guide is the layout itself, so the two cannot drift."""
    text = GUIDE.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` +\| +([\d,]+) +\| +([\d,]+) +\| (.+?) +\|$", text, re.M)
    assert [
        (name, int(start.replace(",", "")), int(size.replace(",", "")), layout)
        for name, start, size, layout in rows
    ] == [(block.name, block.start, block.size, " x ".join(block.axes) or "-") for block in BLOCKS]
    assert f"{ACTION_COUNT:,}" in text
