"""``python_gaia``, the OpenSpiel game of the ``openspiel`` wing: OpenSpiel's own random
simulation test, observations from the view, resampling, and one of OpenSpiel's own bots."""

from __future__ import annotations

import random
import runpy
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

import gaia_rules.openspiel  # noqa: E402, F401 (registers python_gaia)
from gaia_rules.openspiel import GaiaState  # noqa: E402
from gaia_rules.rl.observation import observation  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"


@pytest.mark.parametrize(
    ("level", "players"),
    [("basic", 2), ("advanced", 3), ("powers", 4), ("disasters", 5)],
)
def test_openspiel_random_sim_test(level: str, players: int) -> None:
    game = pyspiel.load_game("python_gaia", {"players": players, "level": level})
    # serialize=False: OpenSpiel cannot save the random source of a sampled stochastic game
    # written in Python; the state's own serialization is tested below
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _dealt(players: int = 2, level: str = "powers", moves: int = 40, seed: int = 0) -> GaiaState:
    game = pyspiel.load_game("python_gaia", {"players": players, "level": level})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1.0)]
    state.apply_action(0)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, GaiaState)
    return state


def test_the_game_states_its_nature() -> None:
    game = pyspiel.load_game("python_gaia", {"players": 3, "level": "disasters"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 194_321
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game("python_gaia", {"players": 6})
    with pytest.raises(pyspiel.SpielError, match="level"):
        pyspiel.load_game("python_gaia", {"level": "expert"})


def test_games_repeat_from_the_rng_seed() -> None:
    def seeds(rng_seed: int) -> list[str]:
        game = pyspiel.load_game("python_gaia", {"rng_seed": rng_seed})
        found = []
        for _ in range(2):
            state = game.new_initial_state()
            state.apply_action(0)
            found.append(str(state))
        return found

    assert seeds(3) == seeds(3) != seeds(4)


def test_a_state_serializes_as_its_record() -> None:
    state = _dealt(moves=60)
    again = state.get_game().deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


@pytest.mark.clause("1.5")
def test_observations_are_the_view() -> None:
    state = _dealt(players=3, moves=50)
    for seat in range(3):
        view = state.game.view(seat)
        assert state.observation_string(seat) == view.to_json()
        assert np.array_equal(
            np.asarray(state.observation_tensor(seat)), observation(view).astype(np.float32)
        )
        assert state.information_state_string(seat).endswith(view.to_json())
        assert len(state.information_state_tensor(seat)) == len(observation(view))


@pytest.mark.clause("1.5", "1.8")
def test_a_resampled_state_looks_the_same_to_its_seat() -> None:
    state = _dealt(players=3, moves=30, seed=2)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(5):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        differed += other.game.state.hands != state.game.state.hands
        with pytest.raises(pyspiel.SpielError, match="resampled"):
            other.serialize()
    assert differed


def test_openspiel_ismcts_plays_against_a_bot_of_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--games", "1", "--simulations", "3"])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert done.value.code == 0
