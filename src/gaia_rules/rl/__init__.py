"""Gaïa for reinforcement learning: a PettingZoo environment (the ``rl`` extra).

    from gaia_rules.rl import env

    table = env(players=3, level="advanced", seed=7)
    table.reset()
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, info = table.last()
        ...

[`env`][gaia_rules.rl.environment.env] and [`raw_env`][gaia_rules.rl.environment.raw_env]
need PettingZoo and Gymnasium and are loaded when first asked for; the action space
([`gaia_rules.rl.encoding`][gaia_rules.rl.encoding], pure Python) and the observations
([`gaia_rules.rl.observation`][gaia_rules.rl.observation], numpy) do not need them, so the
OpenSpiel game uses them too. The core never imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gaia_rules.rl.encoding import (
    ACTION_COUNT,
    ACTION_SPACE_VERSION,
    ActionSpace,
    EncodingError,
    action_space,
    square_index,
    square_of,
)

if TYPE_CHECKING:
    from gaia_rules.rl.environment import GaiaEnv, env, raw_env

__all__ = [
    "ACTION_COUNT",
    "ACTION_SPACE_VERSION",
    "ActionSpace",
    "EncodingError",
    "GaiaEnv",
    "action_space",
    "env",
    "raw_env",
    "square_index",
    "square_of",
]


def __getattr__(name: str) -> Any:
    if name in ("env", "raw_env", "GaiaEnv"):
        import gaia_rules.rl.environment as module  # noqa: PLC0415 (needs PettingZoo)

        return getattr(module, name)
    raise AttributeError(f"module 'gaia_rules.rl' has no attribute {name!r}")
