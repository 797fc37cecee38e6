"""The turn: feeding, then exactly two actions; decisions and who takes them (spec 5)."""

from __future__ import annotations

import random

import pytest

import gaia_rules as gr
from gaia_rules import CardKind, Land, Pos
from gaia_rules.position import PositionBuilder


@pytest.mark.clause("5.1", "5.5")
def test_turns_pass_in_seat_order_from_the_first_player() -> None:
    game = gr.new_game(players=4, seed=11, first_player=2)
    rng = random.Random(1)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    turns = [e.player for e in game.events if isinstance(e, gr.TurnBegan)]
    assert turns == [(2 + i) % 4 for i in range(len(turns))]


@pytest.mark.clause("5.2", "5.5")
def test_exactly_two_actions_then_the_next_seat() -> None:
    game = gr.new_game(players=3, seed=5)
    assert game.decision == gr.ChooseAction(0, 1)
    game.apply(gr.DrawDeck(0, CardKind.NATURE))
    assert game.decision == gr.ChooseAction(0, 2)
    game.apply(gr.DrawDeck(0, CardKind.LIFE))
    assert game.active == 1
    assert game.decision == gr.ChooseAction(1, 1)


@pytest.mark.clause("5.2")
def test_there_is_no_passing_a_draw_is_always_offered() -> None:
    for seed in range(10):
        game = gr.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            actions = game.legal_actions()
            if isinstance(game.decision, gr.ChooseAction):
                assert any(isinstance(a, gr.DrawDeck | gr.DrawDisplay) for a in actions)
            game.apply(rng.choice(actions))


@pytest.mark.clause("5.3")
def test_fulfilling_an_objective_inside_an_action_is_not_an_action() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .tableau(0, "N07", "N33", "N34")
        .hand(0, "N08")
        .objectives("O02", "O01", "O03", "O04")
        .turn(0, action=1)
        .to_game()
    )
    events = game.apply(gr.PlayNature(0, "N08", Pos(1, 0)))
    assert any(isinstance(e, gr.ObjectiveFulfilled) for e in events)
    assert game.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("5.4")
def test_a_decision_with_one_option_is_taken_by_the_engine_and_logged() -> None:
    for seed in range(8):
        game = gr.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            actions = game.legal_actions()
            assert len(actions) >= 2
            assert game.to_move == game.decision.player  # type: ignore[union-attr]
            game.apply(rng.choice(actions))
        taken = [e for e in game.events if isinstance(e, gr.ActionTaken)]
        assert [e.action for e in taken if not e.by_engine] == list(game.actions)


@pytest.mark.clause("5.4")
def test_an_action_for_another_seat_or_another_decision_is_refused() -> None:
    game = gr.new_game(players=3, seed=2)
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.DrawDeck(1, CardKind.NATURE))
    assert refused.value.clause == "5.4"
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.Discard(0, game.state.hands[0][0]))
    assert refused.value.clause == "5.4"
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply("draw nature")  # type: ignore[arg-type]
    assert refused.value.clause == "5.4"
    assert game.state == before
