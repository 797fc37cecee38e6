"""Drawing, displays, exhaustion and the hand limits (spec 6)."""

from __future__ import annotations

import random

import pytest

import gaia_rules as gr
from gaia_rules import CardKind, Land, drawing
from gaia_rules.decisions import ChooseLimitDiscard
from gaia_rules.position import PositionBuilder
from gaia_rules.setup import deal

NATURE, LIFE = CardKind.NATURE, CardKind.LIFE


def table_game(**decks: tuple[str, ...]) -> PositionBuilder:
    builder = PositionBuilder(players=2).tile(0, 0, Land.PLAIN).turn(0, action=1)
    for kind, cards in decks.items():
        builder.deck(CardKind[kind.upper()], *cards)
    return builder


@pytest.mark.clause("6.1")
def test_a_face_up_card_goes_to_hand_and_the_deck_top_refills_its_slot() -> None:
    game = table_game(nature=("N20", "N21")).display(NATURE, "N01", "N07", "N15").to_game()
    events = game.apply(gr.DrawDisplay(0, "N07"))
    assert gr.CardDrawn(0, NATURE, "N07", from_display=True) in events
    assert gr.DisplayRefilled(NATURE, "N20") in events
    state = game.state
    assert "N07" in state.hands[0]
    assert state.displays[NATURE] == ("N01", "N20", "N15")
    assert state.decks[NATURE] == ("N21",)


@pytest.mark.clause("6.1")
def test_a_deck_draw_takes_the_top_card() -> None:
    game = table_game(life=("C05", "A01")).display(LIFE, "C01", "C02").to_game()
    game.apply(gr.DrawDeck(0, LIFE))
    assert game.state.hands[0][-1] == "C05"
    assert game.state.decks[LIFE] == ("A01",)


@pytest.mark.clause("6.2")
def test_with_an_empty_deck_the_slot_stays_empty_and_face_up_cards_can_still_be_taken() -> None:
    game = table_game(nature=()).display(NATURE, "N01", "N07", "N15").to_game()
    events = game.apply(gr.DrawDisplay(0, "N07"))
    assert not any(isinstance(e, gr.DisplayRefilled) for e in events)
    assert game.state.displays[NATURE] == ("N01", "N15")
    assert gr.DrawDisplay(0, "N15") in game.legal_actions()


@pytest.mark.clause("6.3")
def test_an_empty_deck_with_cards_face_up_is_not_exhausted() -> None:
    game = table_game(nature=()).display(NATURE, "N01").to_game()
    assert gr.DrawDeck(0, NATURE) not in game.legal_actions()
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.DrawDeck(0, NATURE))
    assert refused.value.clause == "6.3"
    assert game.state == before


@pytest.mark.clause("6.3", "15.2", "5.2")
def test_drawing_from_an_exhausted_kind_is_legal_and_ends_the_game_at_once() -> None:
    game = table_game(nature=()).display(NATURE).to_game()
    assert game.state.decks[LIFE], "the Life cards are not exhausted"
    assert gr.DrawDeck(0, NATURE) in game.legal_actions()
    events = game.apply(gr.DrawDeck(0, NATURE))
    assert game.is_over
    assert isinstance(events[-1], gr.GameEnded)
    assert game.result is not None
    assert game.result.reason is gr.EndReason.EXHAUSTION
    assert game.result.ended_by == 0


@pytest.mark.clause("6.4")
def test_discards_are_face_up_and_no_discarded_card_is_ever_drawn_again() -> None:
    for seed in range(12):
        game = gr.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        gone: set[str] = set()
        while not game.is_over:
            for event in game.apply(rng.choice(game.legal_actions())):
                if isinstance(event, gr.CardDiscarded | gr.CityDiscarded):
                    gone.add(event.card)
                if isinstance(event, gr.ObjectiveFulfilled):
                    gone.update(event.cards)
                if isinstance(event, gr.CardDrawn | gr.DisplayRefilled):
                    assert event.card not in gone
        state = game.state
        piles = {c for pile in state.discards.values() for c in pile}
        assert gone <= piles


@pytest.mark.clause("6.5")
def test_a_seventh_card_means_discarding_any_one_of_the_seven() -> None:
    hand = ("N01", "N02", "N07", "N08", "C01", "A01")
    game = table_game(life=("C09", "C10")).display(LIFE, "C11", "C12").hand(0, *hand).to_game()
    game.apply(gr.DrawDeck(0, LIFE))
    assert game.decision == gr.ChooseLimitDiscard(0)
    # one discard per face (spec 1.12): N01 and N02 are deserts, N07 and N08 plains
    faces = ("N01", "N07", "C01", "A01", "C09")
    assert set(game.legal_actions()) == {gr.Discard(0, c) for c in faces}
    assert all(game.is_legal(gr.Discard(0, c)) for c in (*hand, "C09"))
    events = game.apply(gr.Discard(0, "C09"))  # the new card itself may go
    assert gr.CardDiscarded(0, "C09") in events
    assert game.state.hands[0] == hand
    assert game.state.discards[LIFE][-1] == "C09"
    assert game.state.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("6.5")
def test_the_discard_is_not_an_action() -> None:
    hand = ("N01", "N02", "N07", "N08", "C01", "A01")
    game = (
        table_game(life=("C09",)).display(LIFE, "C11", "C12").hand(0, *hand).turn(0, action=2)
    ).to_game()
    game.apply(gr.DrawDeck(0, LIFE))
    game.apply(gr.Discard(0, "N01"))
    assert game.active == 1


@pytest.mark.clause("6.5a", "6.5b")
def test_the_power_limit_one_power_discard_settles_both_limits() -> None:
    table = deal(gr.Rules.powers(), 2, seed=3, first_player=0)
    table.hands[0] = ("N01", "N02", "C01", "A01", "P01", "P07")
    drawing.gain(table, 0, "P13")  # a 7th card and a 3rd Power card
    assert table.steps[-1] == ChooseLimitDiscard(0)
    options = drawing.discard_options(table, 0)
    assert options == [gr.Discard(0, c) for c in ("P01", "P07", "P13")]
    refusal = drawing.refuse_discard(table, gr.Discard(0, "N01"))
    assert refusal is not None and refusal.clause == "6.5a"
    table.steps.pop()
    drawing.limit_discard(table, gr.Discard(0, "P07"))
    assert table.hands[0] == ("N01", "N02", "C01", "A01", "P01", "P13")
    assert not drawing.over_a_limit(table, 0)
    assert not table.steps or table.steps[-1] != ChooseLimitDiscard(0)


@pytest.mark.clause("6.5b")
def test_the_limits_hold_for_any_gain_not_only_a_draw() -> None:
    table = deal(gr.Rules.basic(), 3, seed=4, first_player=0)
    table.hands[1] = ("N01", "N02", "N03", "N07", "N08", "C01")
    drawing.gain(table, 1, "C02")
    assert table.steps[-1] == ChooseLimitDiscard(1)
    # seven cards, four faces: deserts N01-N03, plains N07-N08, two cities (spec 1.12)
    assert len(drawing.discard_options(table, 1)) == 4


BACKS = {"N": NATURE, "C": LIFE, "A": LIFE, "P": CardKind.POWER}
"""The back of a card by the letter of its id (2.9)."""


@pytest.mark.clause("6.2", "6.1", "16.10", "1.13")
@pytest.mark.parametrize("rules", [gr.Rules.basic(), gr.Rules.powers()], ids=["basic", "powers"])
def test_each_face_up_card_taken_in_play_is_replaced_in_its_own_slot(rules: gr.Rules) -> None:
    """Displays reached by playing, from the deal, not built: whenever a player takes a
    face-up card, the top card of its deck goes into that very slot (the others keep theirs)
    and leaves the deck, or, the deck empty, the slot is gone and the others keep their
    order; the cards taken from every slot of every display, until the decks run out."""
    taken_from: set[tuple[CardKind, int]] = set()
    emptied = 0
    for seed in range(4):
        game = gr.new_game(players=3, rules=rules, seed=500 + seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            takes = [a for a in legal if isinstance(a, gr.DrawDisplay)]
            if not takes or rng.random() < 0.3:
                game.apply(rng.choice(legal))
                continue
            action = rng.choice(takes)
            before = game.state
            kind = BACKS[action.card[0]]
            display, deck = before.displays[kind], before.decks[kind]
            # the legal action names the face; its leftmost copy is taken (1.12, 1.13)
            face_ids = rules.cards.face_ids
            slot = next(i for i, card in enumerate(display) if face_ids[card] == action.card)
            game.apply(action)
            after = game.state
            if deck:
                expected = (*display[:slot], deck[0], *display[slot + 1 :])
                assert after.decks[kind] == deck[1:]
            else:
                expected = (*display[:slot], *display[slot + 1 :])
                emptied += 1
            assert after.displays[kind] == expected, (action, display, deck[:1])
            taken_from.add((kind, slot))
    kinds = (NATURE, LIFE, gr.CardKind.POWER) if rules.with_powers else (NATURE, LIFE)
    slots = {NATURE: 3, LIFE: 2, gr.CardKind.POWER: 2}
    assert taken_from >= {(kind, slot) for kind in kinds for slot in range(slots[kind])}
    assert emptied > 0
