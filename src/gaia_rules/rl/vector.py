"""Many games stepped in one call: a Gymnasium vector environment, numpy in and numpy out.

    from gaia_rules.rl.vector import GaiaVectorEnv

    tables = GaiaVectorEnv(16, players=2, opponents="random")
    obs, info = tables.reset(seed=0)                 # obs: (16, PLANES_SIZE) int8
    legal = info["legal_actions"]                    # (16, L) int64, -1 past each count
    actions = legal[:, 0]                            # any legal index of each game
    obs, rewards, terminated, truncated, info = tables.step(actions)

Each of the ``num_envs`` games is a [`GaiaSingleEnv`][gaia_rules.rl.single.GaiaSingleEnv]:
one learner against bots, with the same options. ``reset(seed=s)`` seeds game ``i`` with
``s + i``, as Gymnasium's vector environments do. A game that ends is dealt again in the same
step (Gymnasium's ``SAME_STEP`` autoreset): the step returns the first observation of the new
game, and the last observation and info of the one that ended under ``info["final_obs"]`` and
``info["final_info"]`` (where ``info["_final_obs"]`` is true).

``info["legal_actions"]`` holds every game's legal indices in one ``int64`` array, padded
with ``-1`` to the longest list of the step (``info["legal_counts"]`` gives each count);
[`legal_actions()`][gaia_rules.rl.vector.GaiaVectorEnv.legal_actions] gives the same array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from gaia_rules.rl.single import GaiaSingleEnv

__all__ = ["GaiaVectorEnv", "pad_legal"]


def pad_legal(
    lists: Sequence[npt.NDArray[np.int64]],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Lists of legal indices as one array padded with ``-1``, and the count of each."""
    counts = np.array([len(found) for found in lists], dtype=np.int64)
    padded = np.full((len(lists), max(1, int(counts.max(initial=0)))), -1, dtype=np.int64)
    for row, found in enumerate(lists):
        padded[row, : len(found)] = found
    return padded, counts


class GaiaVectorEnv(VectorEnv[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of one learner against bots, stepped together (see the module
    docstring). The options are those of
    [`GaiaSingleEnv`][gaia_rules.rl.single.GaiaSingleEnv]."""

    metadata = {  # noqa: RUF012 (Gymnasium reads it from the class)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(self, num_envs: int, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs: expected a whole number from 1, got {num_envs!r}")
        if options.get("render_mode") is not None:
            raise ValueError("render_mode: a vector of games does not render; render one game")
        self.envs = [GaiaSingleEnv(**options) for _ in range(num_envs)]
        self.num_envs = num_envs
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self._legal: list[npt.NDArray[np.int64]] = [np.zeros(0, dtype=np.int64)] * num_envs

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        """Deal every game: game ``i`` of seed ``seed + i`` (or ``seed[i]``)."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: expected {self.num_envs} seeds, got {len(seeds)}")
        observations = []
        infos = []
        for game, game_seed in zip(self.envs, seeds, strict=True):
            obs, info = game.reset(seed=game_seed, options=options)
            observations.append(obs)
            infos.append(info)
        return np.stack(observations), self._batch_info(infos)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.int8],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Every game takes its action (one index per game); the games that end are dealt
        again at once (see the module docstring)."""
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions: expected {self.num_envs} indices, got {chosen.shape}")
        observations = []
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=np.bool_)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        infos = []
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info = np.full(self.num_envs, None, dtype=object)
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        for i, game in enumerate(self.envs):
            obs, reward, terminated[i], truncated[i], info = game.step(int(chosen[i]))
            rewards[i] = reward
            if terminated[i] or truncated[i]:
                final_obs[i], final_info[i], ended[i] = obs, info, True
                obs, info = game.reset()
            observations.append(obs)
            infos.append(info)
        batched = self._batch_info(infos)
        if ended.any():
            batched.update(
                final_obs=final_obs, _final_obs=ended, final_info=final_info, _final_info=ended
            )
        return np.stack(observations), rewards, terminated, truncated, batched

    def legal_actions(self) -> npt.NDArray[np.int64]:
        """Every game's legal indices, padded with ``-1`` (a new array)."""
        return pad_legal(self._legal)[0]

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games are plain Python."""

    def _batch_info(self, infos: list[dict[str, Any]]) -> dict[str, Any]:
        self._legal = [game.legal_actions() for game in self.envs]
        padded, counts = pad_legal(self._legal)
        every = np.ones(self.num_envs, dtype=np.bool_)
        return {
            "legal_actions": padded,
            "_legal_actions": every,
            "legal_counts": counts,
            "_legal_counts": every.copy(),
            "seat": np.array([info["seat"] for info in infos], dtype=np.int64),
            "_seat": every.copy(),
        }
