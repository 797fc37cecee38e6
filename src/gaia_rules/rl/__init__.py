"""Gaïa for reinforcement learning: a PettingZoo environment (the ``rl`` extra).

    from gaia_rules.rl import env

    table = env(players=3, level="advanced", seed=7)
    table.reset()
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, info = table.last()
        ...

[`env`][gaia_rules.rl.environment.env], [`raw_env`][gaia_rules.rl.environment.raw_env],
[`parallel_env`][gaia_rules.rl.environment.parallel_env], the Gymnasium
[`GaiaSingleEnv`][gaia_rules.rl.single.GaiaSingleEnv] and
[`GaiaVectorEnv`][gaia_rules.rl.vector.GaiaVectorEnv] need PettingZoo and Gymnasium and are
loaded when first asked for; the action space ([`gaia_rules.rl.encoding`][gaia_rules.rl.encoding],
pure Python; [`gaia_rules.rl.codec`][gaia_rules.rl.codec] decodes it as arrays), the
observations ([`gaia_rules.rl.observation`][gaia_rules.rl.observation],
[`gaia_rules.rl.planes`][gaia_rules.rl.planes], numpy) and saved policies
([`gaia_rules.rl.policy`][gaia_rules.rl.policy]) do not need them, so the OpenSpiel game uses
them too. The core never imports this package.
"""

from __future__ import annotations

import importlib
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
    from gaia_rules.rl.environment import GaiaEnv, env, parallel_env, raw_env
    from gaia_rules.rl.single import GaiaSingleEnv
    from gaia_rules.rl.vector import GaiaVectorEnv

__all__ = [
    "ACTION_COUNT",
    "ACTION_SPACE_VERSION",
    "ENV_ID",
    "ActionSpace",
    "EncodingError",
    "GaiaEnv",
    "GaiaSingleEnv",
    "GaiaVectorEnv",
    "action_space",
    "env",
    "parallel_env",
    "raw_env",
    "square_index",
    "square_of",
]


_LAZY = {
    "env": "environment",
    "raw_env": "environment",
    "parallel_env": "environment",
    "GaiaEnv": "environment",
    "GaiaSingleEnv": "single",
    "GaiaVectorEnv": "vector",
}
"""The names that need PettingZoo and Gymnasium, and their modules."""


ENV_ID = "gaia_rules/Gaia-v1"
"""The id of [`GaiaSingleEnv`][gaia_rules.rl.single.GaiaSingleEnv] in Gymnasium's registry."""


def _register() -> None:
    """Names ``gaia_rules/Gaia-v1`` in Gymnasium's registry when Gymnasium is installed, so
    that ``import gaia_rules.rl`` is enough before ``gymnasium.make`` or ``make_vec``; the
    entry point is a string, so the environment's module loads only when one is made."""
    try:
        import gymnasium  # noqa: PLC0415 (the rl extra may be absent)
    except ImportError:  # the rl extra is not installed: the pure-Python parts still work
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="gaia_rules.rl.single:GaiaSingleEnv")


_register()


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module = importlib.import_module(f"gaia_rules.rl.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module 'gaia_rules.rl' has no attribute {name!r}")
