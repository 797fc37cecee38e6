"""The table as one seat sees it, the cards and the key (:mod:`gaia_rules.svg`): drawn from
a view alone, the table never shows a card the seat may not see (spec 1.5)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

import gaia_rules as gr
from gaia_rules.svg import card_svg, legend_svg, table_svg, world_svg
from gaia_rules.vocabulary import CardKind
from tests.strategies import Walk

SVG = "{http://www.w3.org/2000/svg}"
CARD_ID = re.compile(r'data-card="([A-Z]\d\d)"')

WALKS = (
    Walk(4, gr.Rules.basic(), 11, 0, steps=60, walk_seed=1, prefer_plays=0.8),
    Walk(3, gr.Rules.powers(), 13, 2, steps=90, walk_seed=3, prefer_plays=0.8),
    Walk(5, gr.Rules.disasters(), 14, 0, steps=120, walk_seed=4, prefer_plays=0.8),
)


def with_class(root: ET.Element, *classes: str) -> list[ET.Element]:
    wanted = set(classes)
    return [e for e in root.iter() if wanted <= set(e.get("class", "").split())]


def hidden_from(game: gr.Game, seat: int) -> set[str]:
    """The cards ``seat`` may not see: the other hands, every deck, the stolen cards it is
    not told of (spec 1.5, 13.8c)."""
    state = game.state
    hidden = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
    hidden |= {card for deck in state.decks.values() for card in deck}
    hidden |= {card for card, _ in state.stolen}
    hidden -= {card for _, _, card in game.view(seat).stolen if card is not None}
    # a face id names a face outside the seat's hand (spec 1.14), not the card of that id
    return hidden - set(game.rules.cards.face_ids.values())


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("walk", WALKS, ids=["basic-4", "powers-3", "disasters-5"])
def test_the_table_never_shows_a_card_hidden_from_its_seat(walk: Walk) -> None:
    checked = 0

    def check(game: gr.Game) -> None:
        nonlocal checked
        for seat in range(game.players):
            picture = table_svg(game.view(seat))
            shown = set(CARD_ID.findall(picture))
            hidden = hidden_from(game, seat)
            assert hidden  # the decks at least: the check is never empty
            leaked = shown & hidden
            assert not leaked, (seat, leaked)
            checked += 1

    walk.play(after_each=check)
    assert checked > 100


@pytest.mark.clause("1.5")
def test_the_table_shows_the_own_hand_the_backs_of_the_others_and_every_public_pile() -> None:
    game = WALKS[1].play()
    view = game.view(1)
    root = ET.fromstring(table_svg(view))
    assert root.tag == f"{SVG}svg"
    own = with_class(root, "hand", "seat-1")[0]
    assert [e.get("data-card") for e in with_class(own, "card", "face")] == list(view.hand)
    for seat in (0, 2):
        hand = with_class(root, "hand", f"seat-{seat}")[0]
        assert not with_class(hand, "face")
        backs = [
            next(c.split("-", 1)[1] for c in e.get("class", "").split() if c.startswith("kind-"))
            for e in with_class(hand, "back")
        ]
        assert Counter(backs) == Counter(kind.value for kind in view.hand_backs[seat])
        tableau = with_class(root, "tableau", f"seat-{seat}")[0]
        faces = [e.get("data-card") for e in with_class(tableau, "face")]
        assert faces == list(view.tableaux[seat])
        supply = with_class(root, "supply", f"seat-{seat}")[0]
        assert supply.get("data-pawns") == str(view.supply[seat])
    for kind, size in view.deck_sizes.items():
        if kind is CardKind.POWER and not view.rules.with_powers:
            assert not with_class(root, "deck", "kind-power")
            continue
        deck = with_class(root, "deck", f"kind-{kind.value}")[0]
        assert deck.get("data-size") == str(size)
        display = with_class(root, "display", f"kind-{kind.value}")[0]
        faces = [e.get("data-card") for e in with_class(display, "face")]
        assert faces == list(view.displays[kind])
    objectives = with_class(root, "objectives")[0]
    assert [e.get("data-card") for e in with_class(objectives, "face")] == list(view.objectives)
    assert with_class(root, "world-of-table")


def test_the_table_is_a_function_of_the_view() -> None:
    game = WALKS[0].play()
    assert table_svg(game.view(2)) == table_svg(gr.View.from_json(game.view(2).to_json()))
    with pytest.raises(gr.GaiaRulesError, match="View"):
        table_svg(game)  # type: ignore[arg-type]


def test_every_card_of_both_editions_is_drawn_as_a_card() -> None:
    for edition in gr.Edition:
        rules = gr.Rules.disasters(edition=edition)
        for card, _ in rules.cards.cards:
            root = ET.fromstring(card_svg(rules, card))
            faces = with_class(root, "card", "face")
            assert [e.get("data-card") for e in faces] == [card]
    back = ET.fromstring(card_svg(gr.Rules.basic(), CardKind.LIFE))
    assert with_class(back, "card", "back", "kind-life")
    assert not CARD_ID.search(card_svg(gr.Rules.basic(), CardKind.LIFE))
    with pytest.raises(gr.GaiaRulesError, match="card"):
        card_svg(gr.Rules.basic(), "X99")
    with pytest.raises(gr.GaiaRulesError, match="width"):
        card_svg(gr.Rules.basic(), "N01", width=0)


def test_the_key_names_every_land_and_both_states_of_a_need() -> None:
    root = ET.fromstring(legend_svg())
    for land in gr.Land:
        assert with_class(root, "legend", f"land-{land.value}")
    assert with_class(root, "legend", "need", "met")
    assert with_class(root, "legend", "need", "unmet")
    assert len(with_class(root, "legend", "pawn")) == 5


def test_need_letters_are_legible_at_the_default_size() -> None:
    position = (
        gr.PositionBuilder(players=2)
        .tile(0, 0, gr.Land.DESERT)
        .tile(1, 0, gr.Land.SEA)
        .city(0, 0, "C01", pawns=[1])
        .build()
    )
    root = ET.fromstring(world_svg(position))
    for need in with_class(root, "need"):
        letter = need.find(f"{SVG}text")
        assert letter is not None
        assert float(letter.get("font-size", "0")) >= 10  # pixels, at the default size
