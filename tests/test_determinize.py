"""Determinization (spec 1.8): a game sampled from one seat's view agrees with that view on
everything it shows, asks the same decision, offers the same legal actions, keeps every
invariant, and knows nothing the seat does not."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.bots.search import as_sampled
from gaia_rules.determinize import Determinizer, determinize, unseen_cards, view_problems
from tests.strategies import Walk, check_invariants, walk_strategy

K = gr.CardKind


def walked(walk: Walk) -> gr.Game:
    """The game of a walk, stopped before its end when the walk reaches it."""
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    for _ in range(walk.steps):
        legal = game.legal_actions()
        if game.is_over or (len(legal) and rng.random() < 0.02):
            break
        game.apply(rng.choice(legal))
    return game


@pytest.mark.clause("1.8")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=250), sample_seed=st.integers(0, 2**32 - 1))
def test_a_sample_shows_every_seat_its_own_view(walk: Walk, sample_seed: int) -> None:
    game = walked(walk)
    for seat in range(game.players):
        view = game.view(seat)
        sample = determinize(view, random.Random(sample_seed))
        assert sample.view(seat) == view
        assert sample.to_move == game.to_move
        if game.to_move == seat:
            assert list(sample.legal_actions()) == list(game.legal_actions())
        check_invariants(sample)


@pytest.mark.clause("1.8")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=250), sample_seed=st.integers(0, 2**32 - 1))
def test_the_samples_share_their_seats_legal_actions(walk: Walk, sample_seed: int) -> None:
    game = walked(walk)
    rng = random.Random(sample_seed)
    for seat in range(game.players):
        sampler = Determinizer(game.view(seat))
        shared = sampler.legal_actions()
        if game.to_move != seat:
            assert list(shared) == []
            continue
        assert list(shared) == list(game.legal_actions())
        first, second = sampler.sample(rng), sampler.sample(rng)
        assert first.legal_actions() is shared and second.legal_actions() is shared
        # taken unchecked, an action the shared list handed out does what the equal action
        # of the real game, checked, does in the same sample
        pick = rng.randrange(len(shared))
        twin = first.copy()
        assert first.apply(shared[pick]) == twin.apply(game.legal_actions()[pick])
        assert first.view(seat) == twin.view(seat)
        assert first.legal_actions() == twin.legal_actions()
        check_invariants(first)


def test_as_sampled_names_the_shared_actions_and_keeps_others() -> None:
    game = gr.new_game(3, gr.Rules.basic(), seed=4)
    seat = game.to_move
    assert seat is not None
    sampler = Determinizer(game.view(seat))
    legal = list(game.legal_actions())
    stranger = gr.DrawDeck(seat + 1, K.NATURE)  # another seat's: not among them
    found = as_sampled(sampler, [legal[-1], stranger, legal[0]])
    shared = sampler.legal_actions()
    assert found == [legal[-1], stranger, legal[0]]
    assert found[0] is shared[len(legal) - 1] and found[2] is shared[0]
    assert found[1] is stranger


@pytest.mark.clause("1.8")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=250), sample_seed=st.integers(0, 2**32 - 1))
def test_a_sample_plays_on_like_a_real_game(walk: Walk, sample_seed: int) -> None:
    """The steps under the decision are the real ones: a sample plays to its end."""
    game = walked(walk)
    if game.is_over:
        return
    seat = game.to_move
    assert seat is not None
    sample = determinize(game.view(seat), random.Random(sample_seed))
    rng = random.Random(sample_seed)
    while not sample.is_over:
        sample.apply(rng.choice(sample.legal_actions()))
    check_invariants(sample)


@pytest.mark.clause("1.5", "1.8")
def test_hidden_cards_are_drawn_from_what_the_seat_cannot_see() -> None:
    game = gr.new_game(players=4, rules=gr.Rules.powers(), seed=11)
    view = game.view(0)
    unseen = unseen_cards(view)
    hands = {tuple(sorted(determinize(view, random.Random(i)).state.hands[1])) for i in range(20)}
    assert len(hands) > 1, "the other hands are sampled, not copied from the real game"
    for hand in hands:
        assert all(card in unseen[card_kind(card)] for card in hand)
    state = determinize(view, random.Random(0)).state
    assert state.hands[0] == game.state.hands[0]
    assert [Counter(map(card_kind, hand)) for hand in state.hands] == [
        Counter(map(card_kind, hand)) for hand in game.state.hands
    ]
    for kind in K:
        assert len(state.decks[kind]) == len(game.state.decks[kind])


def card_kind(card: str) -> gr.CardKind:
    """The back of a card a hand can hold, from its id (spec 2.9), written here on purpose."""
    return {"N": K.NATURE, "C": K.LIFE, "A": K.LIFE, "P": K.POWER}[card[0]]


@pytest.mark.clause("1.8")
def test_the_sample_depends_on_the_view_and_the_generator_only() -> None:
    game = gr.new_game(players=3, rules=gr.Rules.disasters(), seed=5)
    rng = random.Random(5)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(1)
    one = determinize(view, random.Random(99))
    again = determinize(gr.View.from_json(view.to_json()), random.Random(99))
    assert one.state == again.state
    assert one.seed == again.seed != game.seed


@pytest.mark.clause("1.8")
def test_a_sample_waits_in_a_protection_window_like_the_real_game() -> None:
    """Seat 1 decides a Protection: under it wait the Sun's effect and seat 0's turn."""
    game = (
        gr.PositionBuilder(players=2, rules=gr.Rules.powers(), seed=3)
        .tile(0, 0, gr.Land.FOREST)
        .tile(1, 0, gr.Land.PLAIN)
        .hand(0, "P01")
        .hand(1, "P20")
        .turn(0, 1)
        .build()
        .to_game()
    )
    game.apply(gr.PlaySun(0, "P01", gr.Pos(1, 0)))
    assert isinstance(game.decision, gr.ChooseProtection)
    view = game.view(1)
    assert any(type(step).__name__ == "PowerEffect" for step in view.steps)
    sample = determinize(view, random.Random(1))
    # the same decision, as seat 1 is told it: the Sun by its face id (1.14)
    assert sample.view(1).decision == view.decision == gr.ChooseProtection(1, 0, "P01", ())
    assert sample.view(1) == view
    for real in (game, sample):
        real.apply(gr.PassProtection(1))
    assert sample.view(0).tiles == game.view(0).tiles
    assert sample.to_move == game.to_move


@pytest.mark.clause("1.8")
def test_a_view_that_does_not_add_up_is_refused() -> None:
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=1)
    view = game.view(0)
    sizes = dict(view.deck_sizes)
    sizes[K.NATURE] += 1
    bad = attrs.evolve(view, deck_sizes=sizes)
    with pytest.raises(gr.PositionError, match=r"1\.5.*nature"):
        determinize(bad, random.Random(0))
    assert bad.deck_sizes[K.NATURE] == view.deck_sizes[K.NATURE] + 1


@pytest.mark.clause("3.8")
def test_a_view_whose_hand_holds_an_objective_is_refused_with_a_typed_error() -> None:
    view = gr.new_game(players=2, rules=gr.Rules.basic(), seed=1).view(0)
    bad = attrs.evolve(view, hand=(*view.hand[:-1], view.objectives[0]))
    assert any("Objective cannot be in a hand" in problem for problem in view_problems(bad))
    with pytest.raises(gr.PositionError, match="Objective"):
        determinize(bad, random.Random(0))
    with pytest.raises(gr.GaiaRulesError):
        gr.View.from_json(bad.to_json())


def test_a_finished_game_samples_as_finished() -> None:
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=2)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    sample = determinize(game.view(0), random.Random(0))
    assert sample.is_over and sample.result == game.result
    assert list(sample.legal_actions()) == []


@pytest.mark.clause("1.5", "1.8")
def test_a_view_listing_another_seats_backs_out_of_order_is_refused() -> None:
    """A hand's backs are shown sorted by back, never in the order the cards came in (1.5);
    a view listing them otherwise is one no game shows, and an earlier engine sampled from
    it a game showing the seat another view than the one it was given."""
    tried = 0
    for seed in range(6):
        game = gr.new_game(players=3, rules=gr.Rules.powers(), seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            game.apply(rng.choice(game.legal_actions()))
        view = game.view(0)
        for seat, backs in enumerate(view.hand_backs):
            if seat == 0 or len(set(backs)) < 2:
                continue
            shuffled = list(view.hand_backs)
            shuffled[seat] = tuple(reversed(backs))
            bad = attrs.evolve(view, hand_backs=tuple(shuffled))
            with pytest.raises(gr.ViewError, match=f"seat {seat}'s backs"):
                determinize(bad, random.Random(0))
            with pytest.raises(gr.JsonError, match=f"seat {seat}'s backs"):
                gr.View.from_json(bad.to_json())
            tried += 1
    assert tried


@pytest.mark.clause("1.8")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=250), data=st.data())
def test_a_view_is_read_only_if_its_sample_shows_it_back(walk: Walk, data: st.DataObject) -> None:
    """Whatever order or value a view states, it is accepted only if a game sampled from it
    shows its seat that very view (the promise of 1.8): each field of a real view, replaced
    by the same field of another seat's view, is refused or shown back as it is."""
    game = walked(walk)
    seat = data.draw(st.integers(0, game.players - 1), label="seat")
    other = data.draw(st.integers(0, game.players - 1), label="other")
    view, theirs = game.view(seat), game.view(other)
    field = data.draw(st.sampled_from([f.name for f in attrs.fields(gr.View)]), label="field")
    changed = attrs.evolve(view, **{field: getattr(theirs, field)})
    try:
        sample = determinize(changed, random.Random(0))
    except gr.ViewError:
        return
    assert sample.view(changed.seat) == changed
