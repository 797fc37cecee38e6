"""Determinism, replay, termination and the outcome of random games (spec 1.6, 5.4, 15, 16.8).

At every level: the same players, rules, seed and actions give the same events and state
(the cards a Tornado takes at random included), in this process and under another hash
seed; the actions a game records replay it; different seeds deal differently; every game
ends within a bound, with a result that agrees with the state; ``copy()`` is independent; a
decision with one option never reaches a player, except the Protection decision, which is
asked even when its one option is to pass; and every action logged ``by_engine`` is one no
player sent, never an answer to a Protection window.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import gaia_rules as gr
from tests.strategies import (
    Walk,
    check_shown_options,
    random_playout,
    rules_id,
    spread,
    walk_strategy,
)

ROOT = Path(__file__).resolve().parent.parent

MAX_DECISIONS = 5_000
"""A bound on the decisions of one game, far above what 15.5 allows."""

GAMES = [
    Walk(
        players=players,
        rules=rules,
        seed=31_337 + index,
        first_player=(index // 4) % players,
        steps=MAX_DECISIONS,
        walk_seed=index,
        prefer_plays=(0.0, 0.9)[(index // 2) % 2],
    )
    for index, (players, rules) in ((i, spread(3 * i)) for i in range(24))
]
"""24 seeded games: every level at every player count (the first 8 already meet every level),
both editions, uniform and play-first walks."""


def _walk_id(walk: Walk) -> str:
    plays = "plays" if walk.prefer_plays else "uniform"
    return (
        f"{walk.players}p-seed{walk.seed}-first{walk.first_player}-{plays}-{rules_id(walk.rules)}"
    )


@pytest.mark.clause("1.2", "16.8")
def test_the_games_meet_every_level_at_every_player_count() -> None:
    pairs = {(walk.players, walk.rules.level) for walk in GAMES}
    assert pairs == {(players, level) for players in range(2, 6) for level in gr.Level}
    for games in (GAMES[:8], GAMES[:6], GAMES[8:12]):
        assert {walk.rules.level for walk in games} >= {gr.Level.BASIC, gr.Level.DISASTERS}
    assert {walk.rules.level for walk in GAMES[:8]} == set(gr.Level)


def play(walk: Walk) -> tuple[gr.Game, list[gr.Action], list[tuple[gr.Event, ...]]]:
    """Play a walk; return the game, the actions sent and the events each ``apply`` returned."""
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    sent: list[gr.Action] = []
    batches: list[tuple[gr.Event, ...]] = []

    while not game.is_over and len(sent) < walk.steps:
        legal: Sequence[gr.Action] = game.legal_actions()
        if walk.prefer_plays and rng.random() < walk.prefer_plays:
            legal = [a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)] or legal
        action = rng.choice(legal)
        batches.append(game.apply(action))
        sent.append(action)
    return game, sent, batches


def replay(walk: Walk, actions: tuple[gr.Action, ...] | list[gr.Action]) -> gr.Game:
    """A new game of the walk's setup, with ``actions`` applied one by one."""
    game = walk.new_game()
    for action in actions:
        game.apply(action)
    return game


# -- 1.6: same inputs, same game -----------------------------------------------------------


@pytest.mark.clause("1.6", "16.8", "13.8b")
@pytest.mark.parametrize("walk", GAMES[:8], ids=_walk_id)
def test_the_same_setup_and_actions_give_the_same_events_and_state(walk: Walk) -> None:
    game, sent, batches = play(walk)
    again = walk.new_game()
    assert again.events == game.events[: len(again.events)]
    for action, batch in zip(sent, batches, strict=True):
        assert again.apply(action) == batch
    assert again.events == game.events
    assert again.state == game.state
    assert again.result == game.result


@pytest.mark.clause("1.6", "16.8", "5.4", "13.8b")
@pytest.mark.parametrize("walk", GAMES[:8], ids=_walk_id)
def test_a_game_replays_from_the_actions_it_records(walk: Walk) -> None:
    game, sent, _ = play(walk)
    assert game.actions == tuple(sent)
    first, second = replay(walk, game.actions), replay(walk, game.actions)
    for copy in (first, second):
        assert copy.state == game.state
        assert copy.events == game.events
        assert copy.actions == game.actions


@pytest.mark.clause("1.6", "16.8", "13.8b")
@pytest.mark.parametrize("walk", GAMES[8:12], ids=_walk_id)
def test_a_game_replays_from_any_point(walk: Walk) -> None:
    game, sent, _ = play(walk)
    for cut in range(0, len(sent), max(1, len(sent) // 7)):
        prefix = replay(walk, sent[:cut])
        assert prefix.actions == tuple(sent[:cut])
        for action in sent[cut:]:
            prefix.apply(action)
        assert prefix.state == game.state and prefix.events == game.events


@pytest.mark.clause("1.6", "4.2", "13.1")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("edition", list(gr.Edition), ids=lambda e: e.value)
@pytest.mark.parametrize("level", list(gr.Level), ids=lambda v: v.name.lower())
def test_different_seeds_deal_differently(
    players: int, edition: gr.Edition, level: gr.Level
) -> None:
    rules = gr.Rules(level=level, edition=edition)
    deals = set()
    for seed in range(20):
        state = gr.new_game(players=players, rules=rules, seed=seed).state
        deal = (state.hands, tuple(state.decks.items()), tuple(state.displays.items()))
        assert gr.new_game(players=players, rules=rules, seed=seed).state == state
        deals.add((deal, state.objectives))
    assert len(deals) == 20


def _digest(walks: list[Walk]) -> str:
    digest = hashlib.sha256()
    for walk in walks:
        game, _, _ = play(walk)
        digest.update(repr(game.events).encode())
        digest.update(repr(game.state).encode())
    return digest.hexdigest()


_CHILD = """
import sys
sys.path.insert(0, {root!r})
from tests.test_determinism import GAMES, _digest
print(_digest(GAMES[:6]))
"""


@pytest.mark.clause("1.6", "16.8", "13.8b")
def test_games_do_not_depend_on_the_hash_seed() -> None:
    """The same games under other ``PYTHONHASHSEED`` values (set and enum iteration orders)."""
    here = _digest(GAMES[:6])
    for hash_seed in ("0", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        child = subprocess.run(
            [sys.executable, "-c", _CHILD.format(root=str(ROOT))],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        assert child.stdout.strip() == here, f"PYTHONHASHSEED={hash_seed}: {child.stderr}"


# -- 15, 16.8: every game ends, with a result that agrees with the state --------------------


def check_result(game: gr.Game) -> None:
    assert game.is_over
    assert game.to_move is None and game.decision is None and game.legal_actions() == []
    result, state = game.result, game.state
    assert result is not None and state.result == result
    assert game.events[-1] == gr.GameEnded(result)
    assert sum(isinstance(event, gr.GameEnded) for event in game.events) == 1
    players = game.players
    assert 0 <= result.winner < players
    assert 0 <= result.ended_by < players
    assert result.pawns_placed == tuple(state.total_pawns - s for s in state.supply)
    placed = result.pawns_placed
    if result.reason is gr.EndReason.ALL_PAWNS_PLACED:
        assert state.supply[result.winner] == 0
        assert placed[result.winner] == state.total_pawns
        assert result.ended_by == result.winner
        assert all(state.supply[seat] > 0 for seat in range(players) if seat != result.winner)
    else:
        assert result.reason is gr.EndReason.EXHAUSTION
        assert all(supply > 0 for supply in state.supply)
        assert placed[result.winner] == max(placed)
        order = [(result.ended_by + step) % players for step in range(1, players + 1)]
        tied = [seat for seat in order if placed[seat] == max(placed)]
        assert result.winner == tied[0], f"15.4: {result}; tied in order after the ender: {tied}"
        ender = game.actions[-1]
        assert isinstance(ender, gr.DrawDeck) and ender.player == result.ended_by
        kind = ender.kind
        assert not state.decks[kind] and not state.displays[kind], "15.2: the kind is not exhausted"


@pytest.mark.clause("15.1", "15.2", "15.3", "15.4", "15.5", "16.8", "16.9", "12.6", "13.1")
@pytest.mark.parametrize("walk", GAMES, ids=_walk_id)
def test_every_game_ends_with_a_result_that_agrees_with_the_state(walk: Walk) -> None:
    game, sent, _ = play(walk)
    assert game.is_over, f"15.5: not over after {len(sent)} decisions"
    check_result(game)


@pytest.mark.clause("15.5", "16.8", "16.9", "12.6", "13.1")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=0, prefer_plays=(0.0, 0.5, 0.9)))
def test_every_random_game_ends_within_the_bound(walk: Walk) -> None:
    game = attrs.evolve(walk, steps=MAX_DECISIONS).play()
    assert game.is_over, f"15.5: not over after {MAX_DECISIONS} decisions"
    check_result(game)


@pytest.mark.clause("15.4")
def test_the_tie_break_is_checked_on_real_ties() -> None:
    """Exhaustion ends with a tie for the most pawns placed occur in the games above."""
    ties = 0
    for walk in GAMES:
        game, _, _ = play(walk)
        result = game.result
        assert result is not None
        if result.reason is gr.EndReason.EXHAUSTION:
            ties += result.pawns_placed.count(max(result.pawns_placed)) > 1
    assert ties > 0


# -- copies ------------------------------------------------------------------------------------


@pytest.mark.clause("1.7", "16.8")
@pytest.mark.parametrize("walk", GAMES[:8], ids=_walk_id)
def test_a_copy_is_independent(walk: Walk) -> None:
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    while not game.is_over:
        before, events = game.state, game.events
        copy = game.copy()
        assert copy.state == before and copy.events == events
        random_playout(copy, random.Random(rng.random()), 40)
        assert game.state == before, "playing on a copy changed the original"
        assert game.events == events, "playing on a copy changed the original's log"
        action = rng.choice(game.legal_actions())
        other = game.copy()
        assert other.apply(action) == game.apply(action)
        assert other.state == game.state
        random_playout(game, rng, 5)


# -- 5.4: one-option decisions are the engine's ------------------------------------------------


@pytest.mark.clause("5.4", "13.9c", "13.10")
@pytest.mark.parametrize("walk", GAMES, ids=_walk_id)
def test_a_decision_with_one_option_never_reaches_a_player(walk: Walk) -> None:
    """Only the Protection decision reaches a seat with one option, and then it is to pass."""
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    while not game.is_over:
        legal = game.legal_actions()
        check_shown_options(game, legal)
        game.apply(rng.choice(legal))


@pytest.mark.clause("13.9c", "13.10", "5.4")
def test_a_seat_that_can_only_pass_is_asked_all_the_same() -> None:
    """The walks above at the powers and disasters levels do ask seats holding Power cards
    but no Protection, which can only pass (13.9c)."""
    asked = 0
    for walk in GAMES:
        if walk.rules.level < gr.Level.POWERS:
            continue
        game = walk.new_game()
        rng = random.Random(walk.walk_seed)
        while not game.is_over:
            legal, decision = game.legal_actions(), game.decision
            if isinstance(decision, gr.ChooseProtection):
                asked += legal == [gr.PassProtection(decision.player)]
            if walk.prefer_plays and rng.random() < walk.prefer_plays:
                legal = [
                    a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)
                ] or legal
            game.apply(rng.choice(legal))
    assert asked > 0


@pytest.mark.clause("5.4", "13.9c", "13.10")
@pytest.mark.parametrize("walk", GAMES, ids=_walk_id)
def test_actions_taken_by_the_engine_are_the_ones_no_player_sent(walk: Walk) -> None:
    fresh = walk.new_game()
    setup = fresh.events
    assert all(e.by_engine for e in setup if isinstance(e, gr.ActionTaken))
    game, sent, batches = play(walk)
    assert game.events[: len(setup)] == setup
    engine_took = sum(1 for e in setup if isinstance(e, gr.ActionTaken))
    for action, batch in zip(sent, batches, strict=True):
        taken = [event for event in batch if isinstance(event, gr.ActionTaken)]
        assert taken, f"{action!r} logged no ActionTaken"
        assert taken[0] == gr.ActionTaken(action.player, action, by_engine=False)
        assert batch[0] == taken[0], "the action sent is the first thing its apply logs"
        assert all(event.by_engine for event in taken[1:]), f"after {action!r}: {taken}"
        engine_took += len(taken) - 1
    logged = [event for event in game.events if isinstance(event, gr.ActionTaken)]
    assert [e.action for e in logged if not e.by_engine] == sent == list(game.actions)
    assert sum(e.by_engine for e in logged) == engine_took
    for event in logged:  # the omniscient log names every action, and who took it
        assert event.action is not None and event.player == event.action.player, event
        if event.by_engine:  # 13.9c: the engine never answers a Protection window
            assert not isinstance(event.action, gr.Protect | gr.PassProtection), event
