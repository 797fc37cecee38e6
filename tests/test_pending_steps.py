"""The pending steps of a position or a view are checked as strictly as its world (spec 1.9,
16): the Power effect waiting under a Protection window, the cities waiting for the last
pawns, the decision asked; and a position's steps are read only once its cards are sound.

Each position here is a real one, taken from a seeded game at the decision it needs, then
changed in one way that no game reaches; the engine must refuse it with a ``PositionError``
(or, for a view, a ``ViewError``) and never start a game that breaks later.
"""

from __future__ import annotations

import functools
import random

import attrs
import pytest

import gaia_rules as gr
from gaia_rules.position import Position
from tests.strategies import Walk, spread

DECISIONS = (
    "ChooseProtection",
    "ChoosePawnCities",
    "ChooseObjective",
    "ChooseKeptCard",
    "ChooseBack",
    "ChooseAction",
)


@functools.cache
def positions_at(kind: str, count: int = 3) -> tuple[Position, ...]:
    """Positions of seeded games (preferring plays, so that pawns run short) where a decision
    of ``kind`` is asked, at most one a game."""
    found: list[Position] = []
    for index in range(600):
        players, rules = spread(index)
        if kind in ("ChooseProtection", "ChooseKeptCard", "ChooseBack") and not rules.with_powers:
            continue
        walk = Walk(
            players=players,
            rules=rules,
            seed=40_000 + index,
            first_player=index % players,
            steps=5_000,
            walk_seed=index,
            prefer_plays=0.9,
        )
        game = walk.new_game()
        rng = random.Random(walk.walk_seed)
        while not game.is_over:
            if type(game.decision).__name__ == kind:
                found.append(Position.from_game(game))
                break
            legal = list(game.legal_actions())
            plays = [a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)]
            game.apply(rng.choice(plays if plays and rng.random() < 0.9 else legal))
        if len(found) == count:
            return tuple(found)
    raise AssertionError(f"no {kind} in 600 games")


def refused(position: Position, *words: str) -> None:
    """``position`` is refused as a game, directly and through JSON, by a ``PositionError``
    whose problems name ``words``."""
    for attempt in (position, Position.from_json(position.to_json())):
        with pytest.raises(gr.PositionError) as error:
            attempt.to_game()
        text = str(error.value)
        assert all(word in text for word in words), text


@pytest.mark.clause("16.2", "13.9b")
def test_an_objective_in_a_hand_at_a_protection_window_is_a_position_error() -> None:
    """The seats a window asks are read from the backs of the hands, which an Objective does
    not have: a position must be refused for its misplaced card before they are read (an
    earlier engine raised ``KeyError: 'O'``)."""
    for position in positions_at("ChooseProtection"):
        assert position.to_game().decision == position.steps[-1]
        objective = next(card for card in position.out_of_game if card.startswith("O"))
        for seat in range(position.players):
            hands = list(position.hands)
            hands[seat] = (objective, *hands[seat])
            bad = attrs.evolve(
                position,
                hands=tuple(hands),
                out_of_game=tuple(c for c in position.out_of_game if c != objective),
            )
            refused(bad, objective, "Objective cannot be in a hand")
