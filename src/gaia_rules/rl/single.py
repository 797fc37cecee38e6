"""Gaïa as a Gymnasium environment for one learner: the other seats are played by bots.

    import gymnasium
    import numpy as np
    import gaia_rules.rl  # registers gaia_rules/Gaia-v1

    table = gymnasium.make("gaia_rules/Gaia-v1", players=2, opponents="random")
    obs, info = table.reset(seed=7)
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])  # any of the legal indices
        obs, reward, terminated, truncated, info = table.step(action)
        if terminated or truncated:
            break

The learner holds one seat (``seat``; by default a seat drawn at each reset, so a policy
learns every seat); every other seat is played by an *opponent*: a bot of gaia-rules by name
(``"random"``, ``"greedy"``, ``"search"``, ``"policy:agent.npz"``), a
[`Bot`][gaia_rules.bots.Bot], or any callable ``(view, legal_actions) -> action``. Opponents
named by a string are dealt a seed from the game's at every reset, so ``reset(seed=s)``
replays the same game for the same actions.

Observations are the array of [`GaiaEnv`][gaia_rules.rl.environment.GaiaEnv]'s layout (the
compact ``"planes"`` by default). The info holds the legal actions as a mask of the whole
space, ``info["action_mask"]`` (``bool``, ``ACTION_COUNT`` entries): of one size at every
step, so Gymnasium's vector environments (``gymnasium.make_vec``, sync or async) stack the
infos of their games into one array. The sorted legal indices are not in the info (their
count changes from step to step); ``legal_actions()`` gives them, and ``action_masks()`` the
mask, to learners that ask (in a vector environment, ``envs.call("legal_actions")``). A step
is one decision of the learner; the reward is what the learner received since its previous
decision (the opponents' moves included). An action index that is not legal ends the game
with ``illegal_reward`` (-1), as PettingZoo's classic games do, and ``info["illegal"]`` says
so.

Importing ``gaia_rules.rl`` registers the environment as ``ENV_ID``,
``"gaia_rules/Gaia-v1"``, when Gymnasium is installed. The registration leaves Gymnasium's
environment checker on: ``gymnasium.make`` wraps the environment in its
``PassiveEnvChecker``, and the environment passes ``check_env``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from gaia_rules.actions import Action
from gaia_rules.bots import Bot
from gaia_rules.cli.common import UsageError, bot_named, derive_seed
from gaia_rules.rl import ENV_ID
from gaia_rules.rl.encoding import ACTION_COUNT
from gaia_rules.rl.environment import GaiaEnv
from gaia_rules.rules import Level, Rules
from gaia_rules.views import View

__all__ = ["ENV_ID", "GaiaSingleEnv", "Opponent", "opponent_bot"]

Opponent = str | Bot | Callable[[View, Sequence[Action]], Action]
"""Who plays a seat that is not the learner's: a bot's name, a Bot, or a callable."""


class _CallableBot:
    """A callable ``(view, legal) -> action`` as a Bot."""

    name = "callable"

    def __init__(self, function: Callable[[View, Sequence[Action]], Action]) -> None:
        self._function = function

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return self._function(view, legal)


def opponent_bot(opponent: Opponent, seed: int) -> Bot:
    """The bot that plays for ``opponent``: a named bot made from ``seed``, a Bot as it is,
    a callable wrapped as a Bot."""
    if isinstance(opponent, str):
        try:
            return bot_named(opponent, seed)
        except UsageError as exc:
            raise ValueError(f"opponents: {str(exc).removeprefix('--bots: ')}") from None
    if hasattr(opponent, "choose"):
        return opponent  # type: ignore[return-value]
    if callable(opponent):
        return _CallableBot(opponent)
    raise TypeError(f"opponents: expected a bot's name, a Bot or a callable, got {opponent!r}")


class GaiaSingleEnv(gymnasium.Env[npt.NDArray[np.int8], int]):
    """One learner against bots (see the module docstring).

    Args:
        players: The number of seats, 2 to 5.
        level: The rule level; ignored when ``rules`` is given.
        rules: The rules to play by.
        opponents: One opponent for every other seat, or a sequence of ``players - 1``
            opponents for the other seats in play order from the learner's.
        seat: The learner's seat; ``None``: drawn at each reset.
        observation: ``"planes"`` (the compact layout) or ``"full"``.
        rewards: ``"win"`` (1 and 0) or ``"win_loss"`` (1 and -1).
        shaping: Add the change in the learner's share of pawns placed to each reward.
        max_cycles: Truncate a game after this many turns of every seat.
        illegal_reward: The reward of an action index that is not legal (the game ends).
        render_mode: ``"human"``, ``"ansi"``, ``"svg"`` or ``"rgb_array"``.
    """

    metadata = {  # noqa: RUF012 (Gymnasium reads it from the class)
        "render_modes": ["human", "ansi", "svg", "rgb_array"],
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 2,
        *,
        level: str | Level = "basic",
        rules: Rules | None = None,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int | None = None,
        observation: Literal["full", "planes"] = "planes",
        rewards: Literal["win", "win_loss"] = "win",
        shaping: bool = False,
        max_cycles: int | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.table = GaiaEnv(
            players,
            level=level,
            rules=rules,
            seed=0,
            render_mode=render_mode,
            shaping=shaping,
            observation=observation,
            action_mask=False,
            rewards=rewards,
            max_cycles=max_cycles,
        )
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat: expected 0 to {players - 1} or None, got {seat!r}")
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            self.opponents: tuple[Opponent, ...] = (opponents,) * (players - 1)
        else:
            self.opponents = tuple(opponents)
        if len(self.opponents) != players - 1:
            raise ValueError(f"opponents: expected one or {players - 1}, got {len(self.opponents)}")
        for opponent in self.opponents:
            opponent_bot(opponent, 0)  # refuses a bad one now, not at the first reset
        self.players = players
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        parts = self.table.observation_space("player_0")
        assert isinstance(parts, spaces.Dict)
        self.observation_space = parts["observation"]
        self.action_space = spaces.Discrete(ACTION_COUNT)  # type: ignore[assignment]
        self._bots: list[Bot | None] = [None] * players

    # -- the Gymnasium API --------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.int8], dict[str, Any]]:
        """Deal a new game (of a seed drawn from ``seed`` if given, else from the
        environment's generator) and let the opponents move until the learner is to."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63))
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(self.players))
        self.table.reset(seed=game_seed)
        self._bots = [None] * self.players
        for offset, opponent in enumerate(self.opponents, 1):
            other = (self.seat + offset) % self.players
            self._bots[other] = opponent_bot(opponent, derive_seed(game_seed, other))
        self._opponents_move()
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[npt.NDArray[np.int8], float, bool, bool, dict[str, Any]]:
        """The learner takes action index ``action``; then the opponents move until the
        learner is to move again or the game ends."""
        table = self.table
        learner = table.possible_agents[self.seat]
        if table.terminations[learner] or table.truncations[learner]:
            raise gymnasium.error.ResetNeeded("the game is over: call reset()")
        chosen = table._legal_now().get(int(action))
        if chosen is None:
            table.terminations = dict.fromkeys(table.agents, True)
            info = {
                "action_mask": np.zeros(ACTION_COUNT, dtype=np.bool_),
                "seat": self.seat,
                "illegal": int(action),
            }
            return self._observe(), self.illegal_reward, True, False, info
        table._cumulative_rewards[learner] = 0.0
        table.play(chosen)
        self._opponents_move()
        reward = float(table._cumulative_rewards[learner])
        table._cumulative_rewards[learner] = 0.0
        terminated = bool(table.terminations[learner])
        truncated = bool(table.truncations[learner]) and not terminated
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self) -> Any:
        """The table rendered in ``render_mode`` (see
        [`GaiaEnv.render`][gaia_rules.rl.environment.GaiaEnv.render])."""
        return self.table.render()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as a mask of the whole space (what maskable learners ask for)."""
        mask = np.zeros(ACTION_COUNT, dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The learner's legal action indices, sorted (empty once the game is over)."""
        table = self.table
        learner = table.possible_agents[self.seat]
        if table.terminations[learner] or table.truncations[learner]:
            return np.zeros(0, dtype=np.int64)
        return table.legal_actions()

    # -- inside --------------------------------------------------------------------------

    def _opponents_move(self) -> None:
        table = self.table
        game = table.game
        while not (game.is_over or table.truncations[table.agent_selection]):
            seat = game.to_move
            assert seat is not None
            bot = self._bots[seat]
            if bot is None:
                return
            table.play(bot.choose(game.view(seat), game.legal_actions()))

    def _observe(self) -> npt.NDArray[np.int8]:
        return self.table.observe(self.table.possible_agents[self.seat])["observation"]

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "seat": self.seat}
        result = self.table.game.result
        if result is not None:
            info["result"] = result
        return info
