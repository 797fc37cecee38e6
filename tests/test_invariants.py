"""The invariants of spec 16 hold after every step of random games (16.1-16.7).

Three ways to the same property: a fixed sweep of seeded games over every player count and
every basic rule set (reproducible by its test id), a Hypothesis search over random walks,
and a Hypothesis state machine that interleaves legal actions, bursts of random play and
refused (mutated) actions, checking the invariants after each.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import gaia_rules as gr
from tests.strategies import (
    ALL_BASIC_RULES,
    InvariantChecker,
    Walk,
    check_invariants,
    check_transition,
    mutated_actions,
    random_playout,
    walk_strategy,
)

_PLAN = list(itertools.product(range(2, 6), range(len(ALL_BASIC_RULES))))
SWEEP = [
    Walk(
        players=players,
        rules=ALL_BASIC_RULES[rules],
        seed=1000 + index,
        first_player=index % players,
        steps=10_000,
        walk_seed=index,
    )
    for index, (players, rules) in ((i, _PLAN[(i * 23) % len(_PLAN)]) for i in range(40))
] + [
    Walk(
        players=2 + index % 4,
        rules=ALL_BASIC_RULES[(index * 7) % len(ALL_BASIC_RULES)],
        seed=2000 + index,
        first_player=0,
        steps=10_000,
        walk_seed=index,
        prefer_plays=0.9,
    )
    for index in range(16)
]
"""40 uniformly random games, 10 at each player count, every basic rule set at least twice;
and 16 games that prefer plays to draws (bigger worlds, scarcer pawns)."""


def _walk_id(walk: Walk) -> str:
    rules = walk.rules
    return (
        f"{walk.players}p-seed{walk.seed}-walk{walk.walk_seed}-"
        f"{'plays' if walk.prefer_plays else 'uniform'}-{rules.edition.value}-"
        f"{rules.feeding.value}-{rules.objectives.value}-"
        f"{'star_sea' if rules.star_animals_on_sea else 'no_star_sea'}"
    )


@pytest.mark.clause("16.1")
def test_the_sweep_covers_every_player_count_and_rule_set() -> None:
    assert {walk.players for walk in SWEEP} == {2, 3, 4, 5}
    assert {walk.rules for walk in SWEEP} == set(ALL_BASIC_RULES)
    assert {walk.rules.edition for walk in SWEEP} == set(gr.Edition)


@pytest.mark.clause("16.1", "16.2", "16.3", "16.4", "16.5", "16.6", "16.7", "16.9", "15.5")
@pytest.mark.parametrize("walk", SWEEP, ids=_walk_id)
def test_invariants_hold_after_every_step_of_a_whole_game(walk: Walk) -> None:
    checker = InvariantChecker()
    game = walk.play(after_each=checker)
    assert game.is_over
    assert checker.states == len(game.actions) + 1


@pytest.mark.clause("16.1", "16.2", "16.3", "16.4", "16.5", "16.6", "16.7", "16.9", "15.5")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(prefer_plays=(0.0, 0.9)))
def test_invariants_hold_after_every_step_of_a_random_walk(walk: Walk) -> None:
    walk.play(after_each=InvariantChecker())


class GameMachine(RuleBasedStateMachine):
    """A game driven by Hypothesis: legal actions, random bursts and refused mutations."""

    def __init__(self) -> None:
        super().__init__()
        self.game = gr.new_game(players=2, seed=0)
        self.last = self.game.state

    @initialize(walk=walk_strategy(max_steps=0))
    def start(self, walk: Walk) -> None:
        self.game = walk.new_game()
        self.last = self.game.state

    @precondition(lambda self: not self.game.is_over)
    @rule(index=st.integers(0, 2**16))
    def apply_a_legal_action(self, index: int) -> None:
        actions = self.game.legal_actions()
        assert len(actions) >= 2, "5.4: a decision with one option reached the player"
        self.game.apply(actions[index % len(actions)])

    @precondition(lambda self: not self.game.is_over)
    @rule(
        seed=st.integers(0, 2**32 - 1),
        count=st.integers(1, 30),
        prefer_plays=st.sampled_from((0.0, 0.9)),
    )
    def play_a_random_burst(self, seed: int, count: int, prefer_plays: float) -> None:
        def check(game: gr.Game) -> None:
            check_invariants(game)
            check_transition(self.last, game.state)
            self.last = game.state

        random_playout(self.game, random.Random(seed), count, check, prefer_plays=prefer_plays)

    @rule(index=st.integers(0, 2**16))
    def refuse_a_mutated_action(self, index: int) -> None:
        legal = self.game.legal_actions()
        mutations = [m for m in mutated_actions(self.game, legal) if m not in legal]
        if not mutations:
            return
        action = mutations[index % len(mutations)]
        before, logged = self.game.state, len(self.game.events)
        assert not self.game.is_legal(action), f"{action!r} is accepted but not listed"
        with pytest.raises(gr.IllegalActionError) as refused:
            self.game.apply(action)  # type: ignore[arg-type]
        assert isinstance(refused.value.clause, str)
        assert refused.value.clause
        assert self.game.state == before, f"1.7: refusing {action!r} changed the state"
        assert len(self.game.events) == logged, f"1.7: refusing {action!r} logged events"

    @invariant()
    def spec_16_holds(self) -> None:
        check_invariants(self.game)
        state = self.game.state
        if state != self.last:  # a refused action changes nothing, and is no transition
            check_transition(self.last, state)
        self.last = state


GameMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.clause(
    "16.1", "16.2", "16.3", "16.4", "16.5", "16.6", "16.7", "16.9", "15.5", "1.7", "5.4"
)
class TestGameMachine(GameMachine.TestCase):  # type: ignore[misc,valid-type]
    """The state machine, run by pytest."""
