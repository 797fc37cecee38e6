"""The search bots' playouts run the engine's own calls on the table: they must play the very
games the loop through ``Game``'s public methods plays, drawing the same random numbers."""

from __future__ import annotations

import math
import random

import attrs
import pytest

import gaia_rules as gr
from gaia_rules.chance import below
from gaia_rules.determinize import Determinizer
from gaia_rules.playouts import _PAWN_DECISIONS, _PAWN_NOW, bandit_playouts, play_out, seat_values

LEVELS = [gr.Rules.basic(), gr.Rules.advanced(), gr.Rules.powers(), gr.Rules.disasters()]
RULES = [
    *LEVELS,
    # Objectives that may be declined: the one decision where only some actions place a pawn
    attrs.evolve(gr.Rules.disasters(), objectives=gr.Objectives.OPTIONAL),
]


def through_the_game(game: gr.Game, rng: random.Random, horizon: int, pawns_first: bool) -> None:
    """The playout as a bot wrote it with the public API."""
    for _ in range(horizon):
        if game.is_over:
            break
        legal = game.legal_actions()
        pool = legal
        if pawns_first and isinstance(game.decision, _PAWN_DECISIONS):
            pool = [action for action in legal if isinstance(action, _PAWN_NOW)] or legal
        game.apply(pool[below(rng, len(pool))])


@pytest.mark.parametrize(
    "rules", RULES, ids=lambda rules: f"{rules.level.name}-{rules.objectives.value}"
)
@pytest.mark.parametrize("pawns_first", [False, True])
def test_a_playout_plays_what_the_public_loop_plays(rules: gr.Rules, pawns_first: bool) -> None:
    for seed in range(8):
        players = 2 + seed % 4
        start = gr.new_game(players, rules, seed=seed)
        warm = random.Random(seed)
        for _ in range(seed * 7):  # from the first decision, and from later ones
            if start.is_over:
                break
            start.apply(warm.choice(start.legal_actions()))
        ours, theirs = start.copy(), start.copy()
        ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
        play_out(ours, ours_rng, 40, pawns_first=pawns_first)
        through_the_game(theirs, theirs_rng, 40, pawns_first)
        assert ours.actions == theirs.actions
        assert ours.events == theirs.events
        assert ours_rng.getstate() == theirs_rng.getstate()


def test_a_playout_stops_at_the_horizon_or_the_end() -> None:
    game = gr.new_game(3, seed=4)
    play_out(game, random.Random(4), 5, pawns_first=False)
    assert len(game.actions) == 5
    while not game.is_over:
        play_out(game, random.Random(5), 50, pawns_first=False)
    ended = game.copy()
    play_out(game, random.Random(6), 50, pawns_first=False)
    assert game.actions == ended.actions


def test_a_game_is_worth_one_to_its_winner_and_nothing_to_the_others() -> None:
    game = gr.new_game(4, seed=9)
    while not game.is_over:
        play_out(game, random.Random(9), 100, pawns_first=True)
    assert game.result is not None
    winner = game.result.winner
    assert seat_values(game) == [1.0 if seat == winner else 0.0 for seat in range(4)]


def bandit_through_the_game(
    sampler: Determinizer, candidates: list[gr.Action], seat: int, rng: random.Random
) -> tuple[list[float], list[int]]:
    """SearchBot's loop of playouts as a bot writes it with the public API: UCB1 over the
    candidates (each once first, the first among equals), each played in a new sample."""
    totals, visits = [0.0] * len(candidates), [0] * len(candidates)
    for done in range(60):
        if done < len(candidates):
            pick = done
        else:
            bounds = [
                totals[i] / visits[i] + math.sqrt(2) * math.sqrt(math.log(done) / visits[i])
                for i in range(len(candidates))
            ]
            pick = bounds.index(max(bounds))
        game = sampler.sample(rng)
        game.apply(candidates[pick])
        through_the_game(game, rng, 8, pawns_first=False)
        totals[pick] += seat_values(game)[seat]
        visits[pick] += 1
    return totals, visits


@pytest.mark.parametrize("rules", LEVELS, ids=lambda rules: rules.level.name)
def test_searchbots_playouts_are_what_the_public_loop_plays(rules: gr.Rules) -> None:
    for seed in range(4):
        game = gr.new_game(2 + seed % 4, rules, seed=seed)
        warm = random.Random(seed)
        for _ in range(5 + seed * 9):
            if game.is_over:
                break
            game.apply(warm.choice(game.legal_actions()))
        seat = game.to_move
        assert seat is not None
        sampler = Determinizer(game.view(seat))
        candidates = list(game.legal_actions())[:5]
        ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
        ours = bandit_playouts(
            sampler.sample,
            candidates,
            seat=seat,
            rng=ours_rng,
            playouts=60,
            horizon=8,
            exploration=math.sqrt(2),
        )
        assert ours == bandit_through_the_game(sampler, candidates, seat, theirs_rng)
        assert ours_rng.getstate() == theirs_rng.getstate()
