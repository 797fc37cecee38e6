"""The PettingZoo environment of the ``rl`` wing: PettingZoo's own API test at every level
and player count, observations from the view alone, rewards, the seat to move, rendering."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("numpy")

import numpy as np
from pettingzoo.test import api_test

import gaia_rules as gr
from gaia_rules.determinize import determinize
from gaia_rules.rl import env, raw_env
from gaia_rules.rl.encoding import ACTION_COUNT, action_space
from gaia_rules.rl.environment import GaiaEnv
from gaia_rules.rl.observation import (
    FEATURES,
    GRID,
    GRID_SIZE,
    OBSERVATION_SIZE,
    action_mask,
    mask_from_view,
    observation,
)

LEVELS = ("basic", "advanced", "powers", "disasters")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("level", LEVELS)
def test_pettingzoo_api_test(level: str, players: int) -> None:
    table = env(players=players, level=level, seed=players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the warnings chess and connect four give too
        # 500 steps: a random game usually ends within them, so the end is tested too
        api_test(table, num_cycles=500 // players)


def _mask_of(game: gr.Game, seat: int) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The mask the environment gives: the game's legal actions, for the seat to move."""
    if game.to_move != seat:
        return np.zeros(ACTION_COUNT, dtype=np.int8)
    view = game.view(seat)
    space = action_space(game.rules)
    return action_mask(space.legal(game.legal_actions(), game.players, view.stolen))


def _walk(level: str, players: int, seed: int) -> list[gr.Game]:
    game = gr.new_game(players, getattr(gr.Rules, level)(), seed=seed)
    rng = random.Random(seed)
    states = []
    while not game.is_over:
        if rng.random() < 0.15:
            states.append(game.copy())
        game.apply(rng.choice(game.legal_actions()))
    return [*states, game]


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("level", LEVELS)
def test_observations_do_not_change_when_hidden_cards_are_permuted(level: str) -> None:
    differed = 0
    for game in _walk(level, 3, seed=11):
        for seat in range(game.players):
            view = game.view(seat)
            seen = observation(view)
            mask = _mask_of(game, seat)
            for sample_seed in range(3):
                other = determinize(view, random.Random(sample_seed))
                differed += other.state.hands != game.state.hands
                assert np.array_equal(observation(other.view(seat)), seen)
                assert np.array_equal(_mask_of(other, seat), mask)
    assert differed > 0  # the hidden cards really were dealt otherwise


@pytest.mark.clause("1.5")
def test_the_observation_is_a_function_of_the_view_value() -> None:
    for game in _walk("disasters", 4, seed=5)[::3]:
        for seat in range(game.players):
            view = game.view(seat)
            again = gr.View.from_json(view.to_json())
            assert np.array_equal(observation(again), observation(view))
            if view.to_move == seat:
                assert np.array_equal(mask_from_view(again), _mask_of(game, seat))


def test_the_observation_shows_the_world_and_the_hand() -> None:
    game = _walk("advanced", 2, seed=3)[-1]
    seat = 1
    view = game.view(seat)
    seen = observation(view)
    assert seen.shape == (OBSERVATION_SIZE,) and seen.dtype == np.int8
    grid = seen[:GRID_SIZE].reshape(GRID, GRID, -1)
    lands = grid[:, :, :6]
    assert int(lands.sum()) == len(view.tiles)
    for (x, y), land in view.tiles.items():
        assert lands[y + 47, x + 47, list(gr.LANDS).index(land)] == 1
    tokens = grid[:, :, 6]
    assert int(tokens.sum()) == sum(view.animals.values())
    pawns = grid[:, :, 15:20]
    # the observing seat is seat +0: its pawns on cities are in the first pawn channel
    assert int(pawns[:, :, 0].sum()) == sum(c.pawns.count(seat) for c in view.cities.values())
    section = _sections(seen)
    assert section["hand"].sum() == len(view.hand)
    assert list(section["hand backs"].reshape(5, 3).sum(axis=1)[:2]) == [
        len(view.hand_backs[seat]),
        len(view.hand_backs[1 - seat]),
    ]
    assert section["displays"].sum() == sum(len(p) for p in view.displays.values())
    assert section["discards"].sum() == sum(len(p) for p in view.discards.values())
    assert list(section["deck sizes"]) == [view.deck_sizes[k] for k in gr.CardKind]
    in_front = section["cards in front"].reshape(5, -1).sum(axis=1)
    assert list(in_front[:2]) == [len(view.tableaux[seat]), len(view.tableaux[1 - seat])]
    assert section["bank"][0] == view.bank


def _sections(seen: np.ndarray[Any, np.dtype[np.int8]]) -> dict[str, Any]:
    found, start = {}, GRID_SIZE
    for name, size in FEATURES:
        found[name] = seen[start : start + size].astype(int)
        start += size
    return found


def _play(table: GaiaEnv, rng: random.Random) -> dict[str, float]:
    totals: dict[str, float] = {}
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        table.step(int(rng.choice(legal)))
    return totals


def test_the_winner_gets_one_and_the_others_nothing() -> None:
    table = raw_env(players=3, level="powers", seed=4)
    table.reset(seed=4)
    totals = _play(table, random.Random(0))
    result = table.game.result
    assert result is not None
    assert totals == {f"player_{s}": float(s == result.winner) for s in range(3)}


def test_shaping_adds_each_seats_share_of_pawns_placed() -> None:
    table = raw_env(players=2, level="basic", shaping=True)
    table.reset(seed=8)
    totals = _play(table, random.Random(1))
    result = table.game.result
    assert result is not None
    total_pawns = table.game.state.total_pawns
    for seat in range(2):
        share = result.pawns_placed[seat] / total_pawns
        assert totals[f"player_{seat}"] == pytest.approx(share + (seat == result.winner))


def test_a_seeded_environment_plays_the_same_games() -> None:
    def seeds(table: GaiaEnv) -> list[int]:
        found = []
        for _ in range(3):
            table.reset()
            found.append(table.game.seed)
        return found

    assert seeds(raw_env(seed=1)) == seeds(raw_env(seed=1)) != seeds(raw_env(seed=2))
    table = raw_env()
    table.reset(seed=99)
    assert table.game.seed == 99


@pytest.mark.clause("13.9")
def test_the_agent_to_move_follows_the_game_into_a_protection_window() -> None:
    seen = 0
    for seed in range(40):
        table = raw_env(players=3, level="powers")
        table.reset(seed=seed)
        rng = random.Random(seed)
        for agent in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            game = table.game
            assert agent == f"player_{game.to_move}"
            if isinstance(game.decision, gr.ChooseProtection):
                assert game.to_move != game.active
                seen += 1
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if seen:
            break
    assert seen


def test_only_the_agent_to_move_has_a_mask() -> None:
    table = raw_env(players=4)
    table.reset(seed=3)
    for agent in table.agents:
        mask = table.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == table.agent_selection)


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    table = raw_env(players=2)
    table.reset(seed=5)
    before = table.game.state
    mask = table.observe(table.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(gr.IllegalActionError, match="not a legal action"):
        table.step(illegal)
    assert table.game.state == before
    wrapped = env(players=2)
    wrapped.reset(seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(illegal)  # the standard wrapper ends the game with -1 instead
    assert wrapped.rewards[wrapped.possible_agents[0]] == -1


@pytest.mark.clause("7.2")
def test_an_index_that_is_not_legal_is_decoded_and_the_game_names_the_rule() -> None:
    table = raw_env(players=2, level="advanced")
    table.reset(seed=6)
    seat = table.game.to_move
    assert seat is not None
    view = table.game.view(seat)
    space = action_space(table.rules)
    nature = next(card for card in view.hand if card.startswith("N"))
    before = table.game.state
    far = space.encode(gr.PlayNature(seat, nature, gr.Pos(5, 5)), 2)
    with pytest.raises(gr.IllegalActionError) as refused:
        table.step(far)  # not a legal index: decoded, then refused by the rules
    assert refused.value.clause == "7.2"
    assert table.game.state == before
    twin = raw_env(players=2, level="advanced")
    twin.reset(seed=6)
    legal = twin.observe(twin.agent_selection)["action_mask"]
    index = int(np.flatnonzero(legal)[-1])
    table.step(index)
    twin.step(index)
    assert table.game.state == twin.game.state


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(gr.RulesError, match="players"):
        raw_env(players=6)
    with pytest.raises(gr.RulesError, match="level"):
        raw_env(level="expert")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")
    with pytest.raises(ValueError, match="observation"):
        raw_env(observation="grid")
    with pytest.raises(ValueError, match="rewards"):
        raw_env(rewards="score")
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env(max_cycles=0)


def test_render_gives_text_or_svg() -> None:
    text = raw_env(players=2, render_mode="ansi", seed=1)
    text.reset(seed=1)
    assert "player_0 to move" in str(text.render())
    picture = raw_env(players=2, render_mode="svg", level="advanced")
    picture.reset(seed=1)
    for _ in range(10):
        mask = picture.observe(picture.agent_selection)["action_mask"]
        picture.step(int(np.flatnonzero(mask)[-1]))
    assert str(picture.render()).startswith("<svg")
