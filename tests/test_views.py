"""What one seat may see (spec 1.5): ``game.view(seat)`` and ``game.events_for(seat)``."""

from __future__ import annotations

import copy
import pickle
import random
import re

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import CardKind
from tests.strategies import games_at
from tests.test_satisfaction import scarce_world

CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")


def kind_of(card: str) -> CardKind:
    return {"N": CardKind.NATURE, "C": CardKind.LIFE, "A": CardKind.LIFE}.get(
        card[0], CardKind.POWER
    )


def hidden_from(state: gr.GameState, seat: int) -> set[str]:
    """The cards ``seat`` may not see: other hands, every deck, unrevealed Objectives."""
    hidden = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
    hidden |= {card for deck in state.decks.values() for card in deck}
    hidden |= {card for card in state.out_of_game if card.startswith("O")}
    return hidden


def faced(value: object, cards: gr.Manifest) -> str:
    """``repr(value)`` with every card id named by its face id (spec 1.11)."""
    return CARD_ID.sub(lambda m: cards.face_id(m.group(0)), repr(value))


def check_view(game: gr.Game, seat: int) -> None:
    state = game.state
    view = game.view(seat)
    cards = state.rules.cards
    face = cards.face_id
    assert view.seat == seat
    # its own hand in full, the others as backs only
    assert view.hand == state.hands[seat]
    order = list(gr.CardKind)  # backs sorted: the order cards came in stays hidden
    assert view.hand_backs == tuple(
        tuple(sorted((kind_of(c) for c in hand), key=order.index)) for hand in state.hands
    )
    # deck sizes, never the decks
    assert view.deck_sizes == {kind: len(deck) for kind, deck in state.decks.items()}
    names = {field.name for field in attrs.fields(type(view))}
    assert not names & {"hands", "decks", "seed", "out_of_game"}, names
    # everything public, as in the state, every card by its face id (1.14)
    assert view.displays == {k: tuple(map(face, pile)) for k, pile in state.displays.items()}
    assert view.discards == {k: tuple(map(face, pile)) for k, pile in state.discards.items()}
    assert view.tableaux == tuple(tuple(map(face, cards_)) for cards_ in state.tableaux)
    assert view.tiles == state.tiles
    assert view.animals == state.animals
    assert view.cities == state.cities
    assert view.tile_supply == state.tile_supply
    assert view.bank == state.bank
    assert view.objectives == state.objectives
    assert view.objective_pawns == state.objective_pawns
    assert view.supply == state.supply
    assert view.total_pawns == state.total_pawns
    assert view.active == state.active
    assert view.to_move == state.to_move
    assert faced(view.decision, cards) == faced(state.decision, cards)
    assert repr(view.decision) == faced(state.decision, cards)
    assert view.result == state.result
    # no id but a face id and its own cards anywhere in it, not even in a private field
    told = set(view.hand) | {card for _, _, card in view.stolen if card is not None}
    text = repr(view)
    leaked = sorted(
        card for card in set(CARD_ID.findall(text)) if face(card) != card and card not in told
    )
    assert not leaked, f"seat {seat} sees {leaked}"
    hidden = hidden_from(state, seat) - set(cards.face_ids.values())
    assert not [card for card in hidden if repr(card) in text]


def play(players: int, seed: int, steps: int, rules: gr.Rules | None = None) -> gr.Game:
    game = gr.new_game(players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.clause("1.5a", "1.5c")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_new_games_view_holds_only_what_the_seat_may_see(players: int) -> None:
    game = gr.new_game(players=players, seed=2024 + players)
    for seat in range(players):
        check_view(game, seat)
        view = game.view(seat)
        assert len(view.hand) == 3
        for other in range(players):
            assert sorted(view.hand_backs[other], key=lambda k: k.value) == sorted(
                (CardKind.NATURE, CardKind.NATURE, CardKind.LIFE), key=lambda k: k.value
            )


@pytest.mark.parametrize("seed", range(4))
def test_views_at_every_step_of_a_random_game(seed: int) -> None:
    rules = gr.Rules.basic(objectives="optional" if seed % 2 else "mandatory")
    game = gr.new_game(players=2 + seed, rules=rules, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        if steps % 3 == 0:
            for seat in range(game.players):
                check_view(game, seat)
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    for seat in range(game.players):
        check_view(game, seat)
        assert game.view(seat).result == game.result


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**63 - 1), steps=st.integers(0, 200))
def test_a_view_never_carries_a_hidden_card(players: int, seed: int, steps: int) -> None:
    game = play(players, seed, steps)
    for seat in range(players):
        check_view(game, seat)


def test_a_view_is_a_value_that_does_not_change_with_the_game() -> None:
    game = gr.new_game(players=2, seed=5)
    view = game.view(0)
    again = game.view(0)
    assert view == again
    game.apply(gr.DrawDeck(0, CardKind.NATURE))
    assert view == again
    assert game.view(0) != view
    assert len(game.view(0).hand) == 4
    assert len(game.view(1).hand_backs[0]) == 4


@pytest.mark.clause("1.5b")
def test_the_views_of_two_seats_differ_only_in_what_is_private() -> None:
    game = play(3, seed=31, steps=25)
    views = [game.view(seat) for seat in range(3)]
    for view in views:
        assert attrs.evolve(view, seat=0, hand=()) == attrs.evolve(views[0], seat=0, hand=())
    assert len({view.hand for view in views}) == 3


# -- events_for ------------------------------------------------------------------------------------


OUT_OF_HAND = (
    gr.ActionTaken,
    gr.CardDrawn,
    gr.CardDiscarded,
    gr.NatureCardPlayed,
    gr.AnimalsPlaced,
    gr.PowerPlayed,
    gr.CityPlaced,
)
"""The events that take a card of their player's into or out of his hand (1.14)."""


def check_events_for(game: gr.Game) -> tuple[int, int, int]:
    """Checks every seat's log; returns (hidden draws, own draws, face-up draws) seen.

    Each event is shown as it happened, every card by its face id but the cards of the
    seat's own hand (and the stolen cards it sees), which it is told by their ids (1.14)."""
    events = game.events
    cards = game.rules.cards
    counts = [0, 0, 0]
    for seat in range(game.players):
        seen = game.events_for(seat)
        assert len(seen) == len(events)
        for full, shown in zip(events, seen, strict=True):
            if isinstance(full, gr.CardDrawn) and not full.from_display and full.player != seat:
                assert shown == attrs.evolve(full, card=None)
                assert full.card is not None
                counts[0] += 1
            elif isinstance(full, gr.CardStolen | gr.StolenCardsSeen | gr.CardKept):
                pass  # the Tornado's own rules (13.8c): tests/test_secrecy.py
            elif isinstance(full, gr.ActionTaken) and isinstance(full.action, gr.KeepCard):
                pass
            else:
                assert faced(shown, cards) == faced(full, cards)
                own = getattr(full, "player", None) == seat and isinstance(full, OUT_OF_HAND)
                if not isinstance(full, gr.PowerCancelled):  # its two cards: one is its own
                    assert repr(shown) == (repr(full) if own else faced(full, cards))
                if isinstance(full, gr.CardDrawn):
                    assert isinstance(shown, gr.CardDrawn)
                    assert shown.card is not None
                    counts[1 if full.player == seat and not full.from_display else 2] += 1
    return counts[0], counts[1], counts[2]


@pytest.mark.clause("1.5", "1.5c")
def test_a_face_down_draw_shows_only_its_kind_to_the_others() -> None:
    game = gr.new_game(players=3, seed=17)
    game.apply(gr.DrawDeck(0, CardKind.LIFE))
    full = [e for e in game.events if isinstance(e, gr.CardDrawn)]
    assert len(full) == 1
    drawn = full[0]
    assert drawn.player == 0
    assert drawn.kind is CardKind.LIFE
    assert drawn.card is not None
    assert drawn.card in game.state.hands[0]
    assert drawn in game.events_for(0)
    for seat in (1, 2):
        shown = [e for e in game.events_for(seat) if isinstance(e, gr.CardDrawn)]
        assert shown == [gr.CardDrawn(0, CardKind.LIFE, None, from_display=False)]
        assert repr(drawn.card) not in repr(game.events_for(seat))


@pytest.mark.clause("1.14")
def test_a_face_up_draw_is_shown_to_every_seat_by_its_face() -> None:
    game = gr.new_game(players=3, seed=18)
    card = game.state.displays[CardKind.NATURE][0]
    face = game.rules.cards.face_id(card)
    game.apply(gr.DrawDisplay(0, card))
    for seat in range(3):
        shown = [e for e in game.events_for(seat) if isinstance(e, gr.CardDrawn)]
        told = card if seat == 0 else face  # the drawer holds it: he is told its id
        assert shown == [gr.CardDrawn(0, CardKind.NATURE, told, from_display=True)]
        # the refill of the display is public too, by its face
        refills = [e for e in game.events_for(seat) if isinstance(e, gr.DisplayRefilled)]
        assert refills == [
            attrs.evolve(e, card=game.rules.cards.face_id(e.card))
            for e in game.events
            if isinstance(e, gr.DisplayRefilled)
        ]


@pytest.mark.parametrize("seed", range(3))
def test_every_seats_log_of_a_random_game(seed: int) -> None:
    game = play(3 + seed % 3, seed=seed + 40, steps=10_000)
    hidden, own, face_up = check_events_for(game)
    assert hidden > 0
    assert own > 0
    assert face_up > 0


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**63 - 1), steps=st.integers(0, 150))
def test_events_for_redacts_only_the_others_face_down_draws(
    players: int, seed: int, steps: int
) -> None:
    check_events_for(play(players, seed, steps))


# -- bad seats -----------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, 5, "0", 1.0, True, None])
def test_a_bad_seat_raises_seat_error(seat: object) -> None:
    game = gr.new_game(players=3, seed=1)
    for ask in (game.view, game.events_for, game.pawns_placed):
        with pytest.raises(gr.SeatError, match="no seat") as raised:
            ask(seat)  # type: ignore[arg-type]
        assert isinstance(raised.value, ValueError | gr.GaiaRulesError)


@pytest.mark.clause("1.5")
@settings(max_examples=25, deadline=None)
@given(
    level=st.sampled_from(["basic", "advanced", "powers", "disasters"]),
    seed=st.integers(0, 2**63 - 1),
    steps=st.integers(0, 150),
    apart=st.integers(1, 12),
)
def test_copies_sharing_what_views_keep_each_see_their_own_game(
    level: str, seed: int, steps: int, apart: int
) -> None:
    # A copy shares what the engine keeps for views of the world until its world changes,
    # but a pawn may go on a city while the world stands: each game's views must show its
    # own pawns, whichever game asked first.
    game = play(4, seed, steps, getattr(gr.Rules, level)())
    other = game.copy()
    rng = random.Random(seed)
    for _ in range(apart):
        for seat in range(4):
            check_view(game, seat)
            check_view(other, seat)
        if other.is_over:
            break
        other.apply(rng.choice(other.legal_actions()))
    for seat in range(4):
        check_view(other, seat)
        check_view(game, seat)


@pytest.mark.clause("1.5", "10.5")
def test_a_pawn_placed_while_the_world_stands_shows_in_the_next_view() -> None:
    # Where the pawns go when they are scarce is chosen after the world changed: a pawn goes
    # on a city while the world stands, and every view must show it there.
    game = scarce_world()
    game.apply(gr.PlayNature(0, "N20", gr.Pos(1, 0)))
    assert isinstance(game.decision, gr.ChoosePawnCities)
    for seat in range(game.players):
        check_view(game, seat)
    game.apply(gr.PlaceCityPawn(0, gr.Pos(1, 1)))
    for seat in range(game.players):
        check_view(game, seat)
        assert game.view(seat).cities[gr.Pos(1, 1)].pawns == (0,)


@pytest.mark.clause("1.5")
def test_a_view_is_a_value_unhashable_like_the_dicts_it_holds_and_it_pickles() -> None:
    game = play(3, 11, 40, gr.Rules.powers())
    view = game.view(1)
    with pytest.raises(TypeError):
        hash(view)
    assert pickle.loads(pickle.dumps(view)) == view
    assert copy.deepcopy(view) == view
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        view.seat = 2  # type: ignore[misc]


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("level", ["basic", "disasters"])
def test_a_view_holds_exactly_its_fields_in_order_as_its_constructor_builds_it(
    level: str,
) -> None:
    # Views are written straight into their __dict__ (a hot path): the same fields, in the
    # same order, with the same values, as the class's own constructor makes.
    game = play(4, 23, 120, getattr(gr.Rules, level)())
    for seat in range(4):
        view = game.view(seat)
        names = [field.name for field in attrs.fields(gr.View)]
        assert list(vars(view)) == names
        rebuilt = gr.View(**{name: getattr(view, name) for name in names})
        assert vars(rebuilt) == vars(view)
        assert rebuilt == view


RESTORED_AT = (
    "ChooseKeptCard",
    "ChooseBack",
    "ChooseProtection",
    "ChooseObjective",
    "ChooseFeeding",
    "ChoosePawnCities",
    "ChooseLimitDiscard",
    "ChooseAction",
)


@pytest.mark.clause("1.9", "1.5", "1.5d", "13.8c")
@pytest.mark.parametrize("kind", RESTORED_AT)
def test_a_game_restored_from_a_position_shows_each_seat_the_originals_log(kind: str) -> None:
    """A position keeps none of the log (1.9): from the position on, each seat's log in the
    restored game is the original's, event by event. An earlier engine hid the kept card of
    a Tornado from the seat it was stolen from in a game restored while the Tornado was
    under way: it judged the keep by a theft logged before the position."""
    for found in games_at(kind, 3):
        original = found.copy()
        restored = gr.Position.from_game(original).to_game()
        start = len(original.events)
        rng = random.Random(start)
        for _ in range(60):
            if original.is_over:
                break
            action = rng.choice(original.legal_actions())
            assert original.apply(action) == restored.apply(action)
            for seat in range(original.players):
                assert restored.events_for(seat) == original.events_for(seat)[start:], seat


def games_between_two_thefts(count: int) -> list[gr.Game]:
    """Seeded games of three or more players stopped while a Tornado is under way, once its
    first card is set aside and its thief names the back to take from the next seat."""
    found: list[gr.Game] = []
    for seed in range(400):
        game = gr.new_game(players=3 + seed % 3, rules=gr.Rules.powers(), seed=50_000 + seed)
        rng = random.Random(seed)
        while not game.is_over and not (
            isinstance(game.decision, gr.ChooseBack) and game.state.stolen
        ):
            legal = game.legal_actions()
            plays = [a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)]
            game.apply(rng.choice(plays if plays and rng.random() < 0.9 else legal))
        if not game.is_over:
            found.append(game)
            if len(found) == count:
                return found
    raise AssertionError("no Tornado with a second theft in 400 games")


@pytest.mark.clause("1.9", "1.5d", "13.8c")
def test_a_game_restored_between_two_thefts_shows_the_first_victim_the_kept_card() -> None:
    """A Tornado among three or more players takes a card from each other seat in turn. A
    game restored once the first card is set aside, and played on to the keep, shows each
    seat the original's log, event by event: when the thief keeps the card taken before the
    position, its victim sees which card it was (an earlier engine showed that seat the keep
    without its card, having judged it by a theft logged before the position)."""
    kept_from_before = 0
    for original in games_between_two_thefts(6):
        set_aside = dict(original.state.stolen)
        restored = gr.Position.from_game(original).to_game()
        start = len(original.events)
        rng = random.Random(start)
        while isinstance(original.decision, gr.ChooseBack | gr.ChooseKeptCard):
            legal = original.legal_actions()
            keeps = [a for a in legal if isinstance(a, gr.KeepCard) and a.card in set_aside]
            action = keeps[0] if keeps else rng.choice(legal)
            kept_from_before += bool(keeps)
            assert original.apply(action) == restored.apply(action)
        for seat in range(original.players):
            assert restored.events_for(seat) == original.events_for(seat)[start:], seat
    assert kept_from_before >= 3, kept_from_before
