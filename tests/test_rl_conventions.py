"""The conventions a lab expects of the ``rl`` wing: PettingZoo's own tests (API, seeds,
rendering, the parallel API, the state) at every level and player count, in both observation
layouts; Gymnasium's ``check_env`` on the single-agent environment and the same checks on the
vector environment; truncation, rewards, seeds and the legal indices."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env, data_equivalence
from gymnasium.utils.passive_env_checker import env_reset_passive_checker
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test
from pettingzoo.test.state_test import state_test
from pettingzoo.utils.conversions import aec_to_parallel

import gaia_rules as gr
from gaia_rules.rl import env, raw_env
from gaia_rules.rl.encoding import ACTION_COUNT
from gaia_rules.rl.environment import GaiaEnv, parallel_env
from gaia_rules.rl.planes import PLANES_SIZE
from gaia_rules.rl.single import ENV_ID, GaiaSingleEnv
from gaia_rules.rl.vector import GaiaVectorEnv

LEVELS = ("basic", "advanced", "powers", "disasters")
PLAYERS = (2, 3, 4, 5)
every_table = pytest.mark.parametrize(
    ("level", "players"), [(level, players) for level in LEVELS for players in PLAYERS]
)


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's notes on illegal moves and dict spaces
        yield


@every_table
def test_pettingzoo_api_test_in_the_compact_layout(
    level: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the compact layout carries the mask by default, so PettingZoo's test samples legal
    # moves from it: count the moves the game played, each one a legal action
    table = env(players, level=level, seed=players, observation="planes")
    raw: GaiaEnv = table.unwrapped
    played: list[gr.Action] = []
    play = raw.play

    def counted(action: gr.Action) -> None:
        assert action in raw.game.legal_actions()
        played.append(action)
        play(action)

    monkeypatch.setattr(raw, "play", counted)
    api_test(table, num_cycles=300 // players)
    assert len(played) > 0
    assert -1 not in raw.rewards.values()  # no game ended on an illegal index


def test_every_layout_carries_the_mask_by_default() -> None:
    for layout in ("full", "planes"):
        table = raw_env(2, observation=layout)
        table.reset(seed=1)
        seen = table.observe(table.agent_selection)
        assert seen["action_mask"].shape == (ACTION_COUNT,)
        assert np.array_equal(np.flatnonzero(seen["action_mask"]), table.legal_actions())
        assert "action_mask" in table.observation_space(table.agent_selection).spaces  # type: ignore[attr-defined]
    assert "action_mask" not in raw_env(2, observation="planes", action_mask=False).observe(
        "player_0"
    )


def test_pettingzoo_api_test_without_a_mask() -> None:
    # no mask to sample from: PettingZoo's test plays any index, and an illegal one ends the game
    api_test(env(3, level="powers", seed=1, observation="planes", action_mask=False), num_cycles=50)
    table = env(2, observation="planes", action_mask=False)
    table.reset(seed=3)
    table.step(0)  # DrawDisplay of a desert nobody can take at the start
    assert sorted(table.rewards.values()) == [-1, 0]


@every_table
def test_pettingzoo_seed_test(level: str, players: int) -> None:
    seed_test(lambda: env(players, level=level, observation="planes"), 60)
    seed_test(lambda: env(players, level=level), 30)


@every_table
def test_pettingzoo_render_test(level: str, players: int) -> None:
    def made(render_mode: str | None = None) -> Any:
        return env(players, level=level, seed=players, render_mode=render_mode)

    with_svg: dict[str, Callable[[Any], bool]] = {
        "svg": lambda picture: picture.startswith("<svg"),
        "ansi": lambda text: "to move" in text,
    }
    render_test(made, custom_tests=with_svg)


def test_the_picture_is_the_world_drawn() -> None:
    table = raw_env(2, render_mode="rgb_array")
    table.reset(seed=5)
    rng = random.Random(5)
    while len(table.game.state.tiles) < 6:
        table.step(int(rng.choice(table.legal_actions())))
    picture = table.render()
    assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8
    assert picture.ndim == 3 and picture.shape[2] == 3
    # the land colours of the SVG are in it: sea blue #3d85c6, say, wherever there is sea
    colours = {tuple(int(c) for c in pixel) for pixel in picture.reshape(-1, 3)[::7]}
    assert len(colours) > 5
    empty = raw_env(2, render_mode="rgb_array")
    assert empty.render().shape != picture.shape  # type: ignore[union-attr]


@every_table
def test_pettingzoo_parallel_tests(level: str, players: int) -> None:
    def made() -> Any:
        return parallel_env(players, level=level, observation="planes", action_mask=True)

    parallel_api_test(made(), num_cycles=200)
    parallel_seed_test(made)
    state_test(env(players, level=level, observation="planes"), made())


def test_aec_to_parallel_is_refused_and_the_turn_based_conversion_used() -> None:
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env(2))
    table = parallel_env(3, level="powers", action_mask=True)
    observations, infos = table.reset(seed=2)
    rng = np.random.default_rng(0)
    moved = 0
    while table.agents:
        actions = {}
        for agent in table.agents:
            mask = observations[agent]["action_mask"]
            actions[agent] = int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
        active = table.aec_env.agent_selection
        observations, _, _, _, infos = table.step(actions)
        moved += 1
        if table.agents:
            assert infos[table.agents[0]]["active_agent"] == table.aec_env.agent_selection
        assert active.startswith("player_")
    assert moved > 30


@every_table
def test_max_cycles_truncates_after_that_many_turns_of_every_seat(level: str, players: int) -> None:
    # PettingZoo's max_cycles_test, with masked actions (an unmasked one is illegal here)
    table = raw_env(players, level=level, max_cycles=3, observation="planes", action_mask=True)
    table.reset(seed=players)
    rng = np.random.default_rng(players)
    turns_begun = 1
    for _agent in table.agent_iter():
        _, reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            table.step(None)
            continue
        assert turns_begun <= 3 * players
        events = len(table.game.events)
        table.step(int(rng.choice(info["legal_actions"])))
        turns_begun += sum(type(e) is gr.TurnBegan for e in table.game.events[events:])
    assert turns_begun == 3 * players + 1
    assert not table.game.is_over and table.agents == []


def test_win_loss_rewards() -> None:
    table = raw_env(3, rewards="win_loss")
    table.reset(seed=4)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    rng = random.Random(4)
    for agent in table.agent_iter():
        _, reward, terminated, truncated, info = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
        else:
            table.step(int(rng.choice(info["legal_actions"])))
    result = table.game.result
    assert result is not None
    assert totals == {f"player_{s}": 1.0 if s == result.winner else -1.0 for s in range(3)}


def test_reset_with_a_seed_reseeds_the_sequence_as_gymnasium_does() -> None:
    def after(table: GaiaEnv, seed: int) -> list[int]:
        table.reset(seed=seed)
        found = [table.game.seed]
        for _ in range(3):
            table.reset()
            found.append(table.game.seed)
        return found

    one, other = raw_env(seed=1), raw_env(seed=2)
    assert after(one, 7) == after(other, 7) == after(one, 7)
    assert after(one, 7)[0] == 7 and after(one, 8) != after(one, 7)


@pytest.mark.parametrize("layout", ["full", "planes"])
def test_legal_indices_agree_with_the_mask_and_the_game(layout: str) -> None:
    table = raw_env(3, level="disasters", observation=layout, action_mask=True)
    table.reset(seed=9)
    rng = random.Random(9)
    for agent in table.agent_iter():
        obs, _, terminated, truncated, info = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        legal = info["legal_actions"]
        assert np.array_equal(legal, np.flatnonzero(obs["action_mask"]))
        assert np.array_equal(legal, table.legal_actions())
        assert list(legal) == sorted(legal) and legal.dtype == np.int64
        for other in table.agents:
            if other != agent:
                assert table.infos[other]["legal_actions"].size == 0
        seat = table.possible_agents.index(agent)
        game_actions = table.space.legal(
            table.game.legal_actions(), 3, table.game.view(seat).stolen
        )
        assert set(legal) == set(game_actions)
        table.step(int(rng.choice(legal)))


def test_state_is_seat_zeros_observation_and_every_hand() -> None:
    table = raw_env(3, level="powers", observation="planes")
    table.reset(seed=1)
    state = table.state()
    assert state in table.state_space
    seen = table.observe("player_0")["observation"]
    assert np.array_equal(state[: seen.size], seen)
    hands = state[seen.size :].reshape(5, 39)
    for seat in range(3):
        assert hands[seat].sum() == len(table.game.state.hands[seat])
    assert not hands[3:].any()


# -- Gymnasium ------------------------------------------------------------------------------


@every_table
def test_the_single_agent_environment_passes_check_env(level: str, players: int) -> None:
    made = gymnasium.make(ENV_ID, players=players, level=level, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not even a warning
        check_env(made.unwrapped)


def test_the_single_agent_environment_plays_to_the_end_against_any_opponent() -> None:
    chosen: list[int] = []

    def first(view: gr.View, legal: Sequence[gr.Action]) -> gr.Action:
        chosen.append(view.seat)
        return legal[0]

    table = GaiaSingleEnv(3, level="advanced", opponents=["greedy", first], seat=1, shaping=True)
    obs, info = table.reset(seed=3)
    total, steps = 0.0, 0
    rng = np.random.default_rng(3)
    while True:
        assert obs in table.observation_space
        assert table.table.game.to_move == 1
        assert np.array_equal(np.flatnonzero(info["action_mask"]), table.legal_actions())
        choice = int(rng.choice(table.legal_actions()))
        obs, reward, terminated, truncated, info = table.step(choice)
        total += reward
        steps += 1
        if terminated or truncated:
            break
    result = info["result"]
    share = result.pawns_placed[1] / table.table.game.state.total_pawns
    assert total == pytest.approx(share + (result.winner == 1))
    assert set(chosen) == {0}  # the callable played the seat after the greedy one
    with pytest.raises(gymnasium.error.ResetNeeded):
        table.step(0)


def test_an_illegal_index_ends_the_learners_game() -> None:
    table = GaiaSingleEnv(2, opponents="random")
    _, info = table.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, truncated, info = table.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, illegal)
    with pytest.raises(ValueError, match="opponents"):
        GaiaSingleEnv(3, opponents=["random"])
    with pytest.raises(ValueError, match="opponents: no bot 'nobody'"):
        GaiaSingleEnv(2, opponents="nobody")


def test_the_registration_keeps_gymnasiums_env_checker_on() -> None:
    assert gymnasium.spec(ENV_ID).disable_env_checker is False
    made = gymnasium.make(ENV_ID, players=2)
    wrappers = []
    layer: Any = made
    while layer is not made.unwrapped:
        wrappers.append(type(layer).__name__)
        layer = layer.env
    assert "PassiveEnvChecker" in wrappers
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker finds nothing to warn about
        _, info = made.reset(seed=2)
        made.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_importing_the_rl_package_registers_the_environment() -> None:
    """``import gaia_rules.rl`` is all ``gymnasium.make_vec`` needs, in a fresh interpreter:
    the package names the environment, whose module loads only when one is made."""
    script = (
        "import sys, gymnasium, gaia_rules.rl\n"
        "assert 'gaia_rules.rl.single' not in sys.modules\n"
        "tables = gymnasium.make_vec('gaia_rules/Gaia-v1', num_envs=2)\n"
        "obs, info = tables.reset(seed=1)\n"
        "print(obs.shape[0], info['action_mask'].shape[0])\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["2", "2"]


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_make_vec_plays_in_sync_and_async_mode(mode: str) -> None:
    """Gymnasium's own vector environments stack the games' infos: the mask in the info has
    one size at every step, so they can (legal indices of changing count could not)."""
    tables: Any = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode)
    try:
        obs, info = tables.reset(seed=4)
        assert obs.shape == (2, PLANES_SIZE)
        rng = np.random.default_rng(4)
        ended = 0
        for _ in range(400):
            assert info["action_mask"].shape == (2, ACTION_COUNT)
            actions = []
            for game in range(2):
                legal = np.flatnonzero(info["action_mask"][game])
                # NEXT_STEP autoreset: after a game ends, the next step only deals again
                actions.append(int(rng.choice(legal)) if legal.size else 0)
            obs, _, terminated, truncated, info = tables.step(np.array(actions))
            ended += int(terminated.sum() + truncated.sum())
            if ended >= 2:
                break
        assert ended >= 2
        alone = gymnasium.make(ENV_ID)
        first, first_info = alone.reset(seed=4)
        again, again_info = tables.reset(seed=4)
        assert np.array_equal(first, again[0])  # game 0 is the single game of seed 4
        assert np.array_equal(first_info["action_mask"], again_info["action_mask"][0])
        legal = tables.call("legal_actions")
        assert np.array_equal(legal[0], np.flatnonzero(again_info["action_mask"][0]))
    finally:
        tables.close()


@every_table
def test_the_vector_environment_passes_gymnasiums_checks(level: str, players: int) -> None:
    """Gymnasium's ``check_env`` takes one environment (``gymnasium.Env``), so it runs on
    the vector environment's games; and its checks are applied to the batch: spaces, reset
    and step returns, seeded determinism, fresh data every call."""
    tables = GaiaVectorEnv(4, players=players, level=level)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(tables.envs[0], skip_render_check=True)  # rendered one by one, above
        env_reset_passive_checker(tables.envs[1])
    obs, info = tables.reset(seed=5)
    assert obs in tables.observation_space and obs.shape == (4, PLANES_SIZE)
    again, info_again = GaiaVectorEnv(4, players=players, level=level).reset(seed=5)
    assert data_equivalence(obs, again, exact=True) and data_equivalence(info, info_again)
    for game in range(4):  # game i is the single environment reset with seed 5 + i
        alone = GaiaSingleEnv(players, level=level)
        alone_obs, alone_info = alone.reset(seed=5 + game)
        assert np.array_equal(alone_obs, obs[game])
        count = info["legal_counts"][game]
        assert np.array_equal(alone.legal_actions(), info["legal_actions"][game][:count])
        assert np.array_equal(np.flatnonzero(alone_info["action_mask"]), alone.legal_actions())
    rng = np.random.default_rng(0)
    seen = []
    for _ in range(3):
        legal, counts = info["legal_actions"], info["legal_counts"]
        actions = legal[np.arange(4), rng.integers(counts)]
        obs, rewards, terminated, truncated, info = tables.step(actions)
        assert obs in tables.observation_space
        assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
        seen.append(obs)
    assert not np.shares_memory(seen[0], seen[1])
    assert np.array_equal(tables.legal_actions(), info["legal_actions"])


def test_the_vector_environment_deals_again_in_the_same_step() -> None:
    tables = GaiaVectorEnv(3, players=2, max_cycles=2)
    obs, info = tables.reset(seed=0)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(60):
        actions = info["legal_actions"][np.arange(3), rng.integers(info["legal_counts"])]
        obs, _, terminated, truncated, info = tables.step(actions)
        assert not terminated.any()  # two turns each never finish a game
        for game in np.flatnonzero(truncated):
            assert info["_final_obs"][game]
            assert info["final_obs"][game].shape == obs[game].shape
            assert info["legal_counts"][game] > 0  # the new game's first decision
            ended += 1
    assert ended >= 3
