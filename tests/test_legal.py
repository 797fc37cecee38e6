"""``legal_actions()`` is a lazy sequence: reading one action builds one, and every way of
reading it (index, slice, iteration, ``in``, ``==``) agrees with the list of its actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.legal import LegalActions, ready

LEVELS = [gr.Rules.basic(), gr.Rules.advanced(), gr.Rules.powers(), gr.Rules.disasters()]


def _built(seen: list[int]) -> LegalActions:
    def build(n: int) -> gr.Action:
        seen.append(n)
        return gr.DrawDeck(n, gr.CardKind.NATURE)

    return LegalActions(
        [(build, [0, 1, 2]), (build, []), ready([gr.DrawDeck(3, gr.CardKind.LIFE)])]
    )


def test_reading_one_action_builds_only_that_one() -> None:
    seen: list[int] = []
    legal = _built(seen)
    assert len(legal) == 4
    assert seen == []
    assert legal[1] == gr.DrawDeck(1, gr.CardKind.NATURE)
    assert seen == [1]
    assert legal[-1] == gr.DrawDeck(3, gr.CardKind.LIFE)
    assert seen == [1]


def test_every_way_of_reading_agrees_with_the_list() -> None:
    legal = _built([])
    expected = [*(gr.DrawDeck(n, gr.CardKind.NATURE) for n in range(3))]
    expected.append(gr.DrawDeck(3, gr.CardKind.LIFE))
    assert list(legal) == expected
    assert legal == expected
    assert legal == tuple(expected)
    assert legal != expected[:-1]
    assert legal[1:3] == expected[1:3]
    assert [legal[i] for i in range(-4, 4)] == expected + expected
    assert gr.DrawDeck(2, gr.CardKind.NATURE) in legal
    assert gr.DrawDeck(2, gr.CardKind.LIFE) not in legal
    assert legal.index(expected[3]) == 3
    assert repr(legal) == repr(expected)
    assert isinstance(legal, Sequence)
    for index in (4, -5):
        with pytest.raises(IndexError):
            legal[index]


def test_a_legal_action_sequence_is_unhashable_like_the_list_it_equals() -> None:
    with pytest.raises(TypeError):
        hash(_built([]))


def test_a_game_that_is_over_offers_an_empty_sequence() -> None:
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.legal_actions() == []
    assert len(game.legal_actions()) == 0


@pytest.mark.clause("1.7")
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), level=st.sampled_from(LEVELS), players=st.integers(2, 5))
def test_indexing_and_iterating_give_the_same_actions_throughout_a_game(
    seed: int, level: gr.Rules, players: int
) -> None:
    """At every decision, the actions read one by one by index are those iterated, and each
    one read by index applies (the lazy sequence is exact, 1.7)."""
    game = gr.new_game(players=players, rules=level, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        by_index = [legal[i] for i in range(len(legal))]
        assert by_index == list(legal)
        assert game.legal_actions() is legal  # asked again: the same immutable sequence
        choice = legal[rng.randrange(len(legal))]
        copy = game.copy()
        copy.apply(choice)
        game.apply(choice)


@pytest.mark.clause("1.7")
def test_an_action_handed_out_for_an_earlier_decision_is_checked_again() -> None:
    """An action the legal actions built is taken without a second check only while its
    decision is pending; applied later, it is refused like any other."""
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=3)
    legal = game.legal_actions()
    play = next(a for a in legal if isinstance(a, gr.PlayNature))
    twin = game.copy()
    game.apply(play)
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(play)  # the card is no longer in the hand
    assert refused.value.clause in {"5.2", "5.4"}
    assert game.state == before
    twin.apply(play)  # the copy is still at that decision: the same action is legal there
    assert twin.state == before


def test_an_action_handed_out_applies_to_a_copy_at_the_same_decision() -> None:
    game = gr.new_game(players=3, rules=gr.Rules.powers(), seed=4)
    rng = random.Random(4)
    for _ in range(30):
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        twin = game.copy()
        assert twin.apply(action) == game.apply(action)
        assert twin.state == game.state
