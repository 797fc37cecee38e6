"""Copies of one face are one card (spec 1.11-1.16, RULINGS 30): face ids, one choice per face,
which copy moves, what a seat is told of ids, the one thing ids can still tell, and the
information-set key. The twin games of ``tests/test_twins.py`` check the same at every layer
over random games; these tests check each clause on positions set up for it."""

from __future__ import annotations

import pickle
import random
import re
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import gaia_rules as gr
from tests.strategies import Walk, walk_strategy

K = gr.CardKind
MOUNTAINS = ("N27", "N28", "N29", "N30", "N31", "N32")
CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")


# -- 1.11 face ids --------------------------------------------------------------------------------


@pytest.mark.clause("1.11")
@pytest.mark.parametrize("rules", [gr.Rules.disasters(), gr.Rules.basic(edition=gr.Edition.FIRST)])
def test_a_face_id_is_the_lowest_id_with_that_face(rules: gr.Rules) -> None:
    cards = rules.cards
    by_face: dict[object, list[str]] = {}
    for card, face in cards.cards:
        by_face.setdefault(face, []).append(card)
    for card, face in cards.cards:
        if isinstance(face, gr.CityCard | gr.Objective):
            assert cards.face_id(card) == card, "a city or an Objective is a face of its own"
        else:
            assert cards.face_id(card) == min(by_face[face])
            assert cards.face(cards.face_id(card)) == face
    assert [cards.face_id(c) for c in MOUNTAINS] == ["N27"] * 6
    # the two Power Objectives show the same thing and stay two faces (each takes a pawn)
    assert cards.face("O08") == cards.face("O09") and cards.face_id("O09") == "O09"
    assert Counter(cards.face_ids.values())["P16"] == 4  # the four Tornados


# -- 1.12 one choice per face, 1.13 which copy moves -----------------------------------------------


def _two_mountains() -> gr.Game:
    """Seat 0 to play, holding two mountains (N30 came first) and a plain; the world empty."""
    return (
        gr.PositionBuilder(2, seed=3)
        .hand(0, "N30", "N07", "N28")
        .hand(1, "N29", "N01")
        .display(K.NATURE, "N31", "N20", "N27")
        .to_game()
    )


@pytest.mark.clause("1.12", "1.13")
def test_copies_in_a_hand_are_one_choice_and_the_oldest_copy_moves() -> None:
    game = _two_mountains()
    plays = [a for a in game.legal_actions() if isinstance(a, gr.PlayNature)]
    assert sorted(a.card for a in plays) == ["N07", "N30"], "one play per face, the oldest copy"
    listed = gr.PlayNature(0, "N30", gr.Pos(0, 0))
    other = gr.PlayNature(0, "N28", gr.Pos(0, 0))
    assert other not in game.legal_actions() and game.is_legal(other)
    one, two = game.copy(), game.copy()
    assert one.apply(other) == two.apply(listed)
    assert one.state == two.state and one.actions == two.actions == (listed,)
    assert one.state.hands[0] == ("N07", "N28") and one.state.tableaux[0] == ("N30",)
    # a mountain that is not in this hand is no choice of its player's
    for elsewhere in ("N29", "N31", "N27", "N32"):
        with pytest.raises(gr.IllegalActionError) as refused:
            game.apply(gr.PlayNature(0, elsewhere, gr.Pos(0, 0)))
        assert refused.value.clause == "5.2"


@pytest.mark.clause("1.12", "1.13")
def test_a_record_naming_another_copy_in_the_hand_replays_as_the_listed_choice() -> None:
    game = _two_mountains()
    listed = gr.PlayNature(0, "N30", gr.Pos(0, 0))
    other = gr.PlayNature(0, "N28", gr.Pos(0, 0))
    game.apply(listed)
    written = game.record()
    assert written.actions == (listed,)
    edited = attrs.evolve(written, actions=(other,))
    replayed = edited.replay()
    # the same choice: the game keeps the action its legal actions list (1.12), whose copy
    # moved (1.13), so the replay's record names the copy that moved, not the one named
    assert replayed.actions == (listed,)
    assert replayed.state == game.state
    assert replayed.record() == written


@pytest.mark.clause("1.12", "1.13", "6.2")
def test_copies_face_up_are_one_choice_named_by_the_face_id() -> None:
    game = _two_mountains()
    draws = [a for a in game.legal_actions() if isinstance(a, gr.DrawDisplay)]
    nature = [a.card for a in draws if a.card[0] == "N"]
    assert nature == ["N27", "N20"], "one draw per face, by its face id"
    before = game.state.decks[K.NATURE][0]
    results = []
    for named in ("N27", "N31"):  # the face id, and the leftmost copy itself
        copy = game.copy()
        events = copy.apply(gr.DrawDisplay(0, named))
        results.append((events, copy.state))
        assert copy.state.hands[0][-1] == "N31", "the leftmost copy moves (1.13)"
        assert copy.state.displays[K.NATURE] == (before, "N20", "N27")
    assert results[0] == results[1]
    assert game.copy().apply(gr.DrawDisplay(0, "N27"))[0] == gr.ActionTaken(
        0, gr.DrawDisplay(0, "N27")
    )
    with pytest.raises(gr.IllegalActionError):
        game.apply(gr.DrawDisplay(0, "N28"))  # a mountain in a hand, not face up


@pytest.mark.clause("1.12", "6.5", "13.9")
def test_discards_and_protections_are_one_choice_per_face() -> None:
    game = (
        gr.PositionBuilder(2, rules=gr.Rules.powers(), seed=2)
        .hand(0, "N27", "N28", "N07", "N08", "N01", "N33")
        .hand(1, "P20", "P21")
        .deck(K.NATURE, "N29", "N02", "N03")
        .display(K.NATURE, "N04", "N05", "N06")
        .to_game()
    )
    game.apply(gr.DrawDeck(0, K.NATURE))
    assert isinstance(game.decision, gr.ChooseLimitDiscard)
    discards = sorted(a.card for a in game.legal_actions() if isinstance(a, gr.Discard))
    assert discards == ["N01", "N07", "N27", "N33"]  # N29 drawn is a third mountain
    assert game.is_legal(gr.Discard(0, "N29")) and game.is_legal(gr.Discard(0, "N28"))
    protecting = (
        gr.PositionBuilder(2, rules=gr.Rules.powers(), seed=2)
        .hand(0, "P01", "N07")
        .hand(1, "P21", "P20")
        .tile(0, 0, gr.Land.SWAMP)
        .to_game()
    )
    protecting.apply(gr.PlaySun(0, "P01", gr.Pos(0, 0)))
    assert protecting.legal_actions() == [gr.Protect(1, "P21"), gr.PassProtection(1)]
    assert protecting.is_legal(gr.Protect(1, "P20"))


@pytest.mark.clause("6.5c", "5.4", "1.12", "1.13")
def test_a_limit_discard_among_copies_of_one_face_is_asked_all_the_same() -> None:
    """Three Lightnings in a hand make one choice; taking it alone would tell the other
    seat that they are alike, so the player is asked, and may name any of them."""

    def third_lightning(second: str) -> gr.Game:
        game = (
            gr.PositionBuilder(2, rules=gr.Rules.disasters(), seed=5)
            .hand(0, "P25", second, "N07")
            .hand(1, "N01", "P01")
            .display(gr.CardKind.POWER, "P26", "P02")
            .to_game()
        )
        game.apply(gr.DrawDisplay(0, "P24"))  # the face id names the Lightning face up
        return game

    game, mixed = third_lightning("P27"), third_lightning("P03")
    assert game.decision == mixed.decision == gr.ChooseLimitDiscard(0) and game.to_move == 0
    assert game.legal_actions() == [gr.Discard(0, "P25")], "one choice: the oldest copy"
    assert len(mixed.legal_actions()) == 2
    # the other seat is told the same whether the three are alike or not
    assert game.view(1).decision == mixed.view(1).decision
    assert game.events_for(1) == mixed.events_for(1)
    named = game.copy()
    named.apply(gr.Discard(0, "P26"))  # the newest copy named: the same choice
    game.apply(gr.Discard(0, "P25"))
    assert named.state == game.state and game.state.hands[0] == ("P27", "N07", "P26")


@pytest.mark.clause("1.12a", "13.8c")
def test_stolen_copies_from_two_seats_are_two_choices() -> None:
    game = (
        gr.PositionBuilder(3, rules=gr.Rules.powers(), seed=4)
        .hand(0, "P16", "N07")
        .hand(1, "N27")
        .hand(2, "N28")
        .to_game()
    )
    game.apply(gr.PlayTornado(0, "P16"))
    while not isinstance(game.decision, gr.ChooseKeptCard):
        game.apply(game.legal_actions()[0])
    kept_cards = [a.card for a in game.legal_actions() if isinstance(a, gr.KeepCard)]
    assert sorted(kept_cards) == ["N27", "N28"]
    kept = game.copy()
    kept.apply(gr.KeepCard(0, "N28"))
    assert kept.events[-2:][0] == gr.CardKept(0, 2, "N28") or any(
        e == gr.CardKept(0, 2, "N28") for e in kept.events
    )


@pytest.mark.clause("1.13")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=250))
def test_the_copy_that_leaves_a_hand_is_the_oldest_of_its_face(walk: Walk) -> None:
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    faces = game.rules.cards
    for _ in range(walk.steps):
        if game.is_over:
            break
        before = game.state.hands
        action = rng.choice(list(game.legal_actions()))
        card = getattr(action, "card", None)
        player = action.player
        named_from_hand = (
            isinstance(card, str)
            and card in before[player]
            and not isinstance(action, gr.DrawDisplay | gr.KeepCard)
        )
        if not named_from_hand:
            game.apply(action)
            continue
        assert isinstance(card, str)
        # another copy of the same face, if the hand holds one, is the same choice
        copies = [c for c in before[player] if faces.face_id(c) == faces.face_id(card)]
        if named_from_hand and len(copies) > 1 and not isinstance(action, gr.KeepCard):
            action = gr.from_data({**action.to_data(), "card": copies[-1]}, gr.Action)
        game.apply(action)
        if named_from_hand and not isinstance(action, gr.KeepCard):
            after = Counter(game.state.hands[player])
            left = Counter(before[player]) - after
            if left:
                assert copies[0] in left, f"{action}: {copies[0]} must leave, not {left}"


# -- 1.14 what a seat is told -------------------------------------------------------------------


@pytest.mark.clause("1.14", "1.5")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=200))
def test_a_seat_is_told_an_id_only_of_its_own_cards(walk: Walk) -> None:
    """Every id a seat is shown is a face id, or names a card that was once in its hand or
    among the stolen cards it saw; and another seat's plays show it face ids only."""
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    faces = game.rules.cards
    told: list[set[str]] = [set() for _ in range(game.players)]
    for step in range(walk.steps + 1):
        for seat in range(game.players):
            view = game.view(seat)
            told[seat] |= set(view.hand) | {c for _, _, c in view.stolen if c}
            text = view.to_json()
            if step % 20 == 0 or game.is_over or step == walk.steps:  # the log is kept whole
                text += "".join(e.to_json() for e in game.events_for(seat))
            for card in set(CARD_ID.findall(text)):
                assert faces.face_id(card) == card or card in told[seat], (seat, card)
        if game.is_over or step == walk.steps:
            break
        game.apply(rng.choice(list(game.legal_actions())))


@pytest.mark.clause("1.14", "1.15")
def test_a_mountain_taken_face_up_then_played_shows_a_mountain_whichever_it_was() -> None:
    """The example of 1.14: Blue took a mountain face up, holds another drawn blind, and plays
    a mountain; Yellow is told the same whichever copy was taken and whichever was played."""
    shown = []
    for face_up, blind in (("N31", "N28"), ("N28", "N31"), ("N29", "N32")):
        game = (
            gr.PositionBuilder(2, seed=5)
            .hand(0, blind, "N07")
            .hand(1, "N01", "N02")
            .display(K.NATURE, face_up, "N20", "N33")
            .to_game()
        )
        game.apply(gr.DrawDisplay(0, face_up))
        game.apply(gr.PlayNature(0, face_up, gr.Pos(0, 0)))  # names the copy taken face up
        shown.append((game.view(1), game.events_for(1), game.information_set(1)))
        assert game.state.tableaux[0] == (blind,), "the oldest copy moved: the blind one"
    assert shown[0] == shown[1] == shown[2]
    assert gr.NatureCardPlayed(0, "N27") in shown[0][1]


# -- 1.15a the one thing ids can still tell -----------------------------------------------------


def _tornado(game: gr.Game) -> None:
    """Play out the Tornado just played: every window passed, Nature named, the first card
    kept."""
    while isinstance(game.decision, gr.ChooseProtection | gr.ChooseBack | gr.ChooseKeptCard):
        legal = game.legal_actions()
        named = [a for a in legal if getattr(a, "kind", None) is K.NATURE]
        passes = [a for a in legal if isinstance(a, gr.PassProtection)]
        game.apply((named or passes or list(legal))[0])


@pytest.mark.clause("1.15a", "1.16")
def test_a_card_that_comes_back_shows_its_old_id_but_not_in_the_key() -> None:
    """Red loses his mountain to Blue's Tornado, Blue plays a mountain, and Red's Tornado takes
    a mountain back: Red's hand shows the id he held before (the exception of 1.15a), and his
    key names it by its face id, as it names every card."""
    game = (
        gr.PositionBuilder(2, rules=gr.Rules.powers(), seed=6)
        .hand(0, "P16", "N30")
        .hand(1, "N28", "P17")
        .to_game()
    )
    game.apply(gr.PlayTornado(0, "P16"))
    _tornado(game)
    assert game.state.hands[0] == ("N30", "N28") and game.state.hands[1] == ("P17",)
    game.apply(gr.PlayNature(0, "N28", gr.Pos(0, 0)))  # names Red's: the oldest, N30, moves
    assert game.state.tableaux[0] == ("P16", "N30") and game.to_move == 1
    game.apply(gr.PlayTornado(1, "P17"))
    _tornado(game)
    key = game.information_set(1)
    assert "N28" in game.view(1).hand, "Red sees again the id he held (1.15a)"
    assert "N28" not in str(key) and "N27" in key.view.hand


# -- 1.16 the key -------------------------------------------------------------------------------


@pytest.mark.clause("1.16")
def test_the_key_is_a_hashable_value_with_a_stable_text() -> None:
    game = gr.new_game(3, gr.Rules.powers(), seed=12)
    rng = random.Random(12)
    for _ in range(60):
        game.apply(rng.choice(list(game.legal_actions())))
    key = game.information_set(1)
    assert isinstance(key, gr.InformationSet) and key.seat == 1
    text = str(key)
    assert text == key.to_json() or gr.InformationSet.from_json(text) == key
    again = gr.InformationSet.from_json(text)
    assert again == key and hash(again) == hash(key) and str(again) == text
    assert pickle.loads(pickle.dumps(key)) == key
    assert {key: 1}[again] == 1
    assert text == game.copy().information_set(1).text()
    assert all(gr.Rules.powers().cards.face_id(c) == c for c in CARD_ID.findall(text)), (
        "the key names every card by its face id"
    )
    assert key != game.information_set(0)
    later = game.copy()
    later.apply(later.legal_actions()[0])
    assert later.information_set(1) != key, "a seat told something new is in another set"
    with pytest.raises(gr.SeatError):
        game.information_set(3)
