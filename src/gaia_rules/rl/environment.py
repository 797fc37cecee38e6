"""Gaïa as a PettingZoo AEC environment, built as PettingZoo's classic games are.

``env()`` wraps ``raw_env()`` in PettingZoo's standard wrappers (an illegal action ends the game
with -1 for its agent, out-of-range actions are refused, the API's order is enforced). Agents
are ``player_0`` to ``player_{n-1}``, one per seat; ``agent_selection`` is always the seat the
game waits for, ``game.to_move``, which is not always the seat whose turn it is (a Protection
window asks the other seats, spec 13.9). Observations and masks: see
[`gaia_rules.rl.observation`][gaia_rules.rl.observation]; actions: see
[`gaia_rules.rl.encoding`][gaia_rules.rl.encoding].

Rewards: 1 to the winner and 0 to the others when the game ends (there is always one winner,
spec 15). With ``shaping=True`` every seat also receives, at each step, the change in the share
of its pawns placed (pawns placed over pawns per seat, spec 3.10), so over a game its shaped
rewards add up to the share it placed by the end, plus 1 for the win.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from gaia_rules.actions import Action
from gaia_rules.decisions import ChooseKeptCard
from gaia_rules.errors import IllegalActionError, RulesError
from gaia_rules.game import Game, new_game
from gaia_rules.rl.encoding import ACTION_COUNT, EncodingError, action_space
from gaia_rules.rl.observation import OBSERVATION_SIZE, action_mask, observation
from gaia_rules.rules import Level, Rules
from gaia_rules.svg import world_svg
from gaia_rules.text import world_text

__all__ = ["GaiaEnv", "env", "raw_env"]

_RULES = {
    "basic": Rules.basic,
    "advanced": Rules.advanced,
    "powers": Rules.powers,
    "disasters": Rules.disasters,
}


_RENDER_MODES = ("ansi", "svg")


def _rules_of(level: str | Level, rules: Rules | None) -> Rules:
    if rules is not None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected a Rules value, got {type(rules).__name__}")
        return rules
    name = level.name.lower() if isinstance(level, Level) else str(level)
    if name not in _RULES:
        raise RulesError(f"level: expected one of {', '.join(_RULES)}, got {level!r}")
    return _RULES[name]()


class GaiaEnv(AECEnv[str, dict[str, npt.NDArray[np.int8]], int]):  # type: ignore[misc]
    """One table of Gaïa as a PettingZoo AEC environment (see the module docstring).

    Args:
        players: The number of seats, 2 to 5.
        level: ``"basic"``, ``"advanced"``, ``"powers"`` or ``"disasters"`` (or a
            [`Level`][gaia_rules.rules.Level]); ignored when ``rules`` is given.
        rules: The rules to play by, every switch included.
        seed: The seed of the games: game ``k`` after it is dealt with a seed drawn from it,
            so a seeded environment plays the same games; ``reset(seed=s)`` deals the game of
            seed ``s`` itself. ``None``: fresh seeds.
        render_mode: ``"ansi"`` (the world and the status as text) or ``"svg"``.
        shaping: Add the change in each seat's share of pawns placed to its reward at each
            step (see the module docstring).
    """

    agent_selection: str
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    _total_pawns: int

    metadata = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": list(_RENDER_MODES),
        "name": "gaia_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        *,
        level: str | Level = "basic",
        rules: Rules | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        shaping: bool = False,
    ) -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise RulesError(f"players: expected 2 to 5, got {players!r}")
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode: expected ansi, svg or None, got {render_mode!r}")
        self.rules = _rules_of(level, rules)
        self.players = players
        self.render_mode = render_mode
        self.shaping = shaping
        self.space = action_space(self.rules)
        self._seeds = random.Random(secrets.randbits(63) if seed is None else seed)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self.action_spaces = {name: spaces.Discrete(ACTION_COUNT) for name in self.agents}
        self.observation_spaces = {
            name: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0, high=127, shape=(OBSERVATION_SIZE,), dtype=np.int8
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_COUNT,), dtype=np.int8),
                }
            )
            for name in self.agents
        }
        self.game: Game = new_game(players, self.rules, self._seeds.getrandbits(63))
        self._legal: dict[int, Action] | None = None
        self._placed = [0] * players
        self._start()

    # -- the PettingZoo API ----------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: of seed ``seed`` if given, else of the next seed of the
        environment's own sequence."""
        game_seed = self._seeds.getrandbits(63) if seed is None else seed
        self.game = new_game(self.players, self.rules, game_seed)
        self._start()

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.int8]]:
        """``agent``'s observation and action mask: the observation from its information-set
        key alone (spec 1.16: every card by its face), the mask all zeros unless the agent is
        to move."""
        seat = self._seat(agent)
        key = self.game.information_set(seat)
        if self.game.to_move == seat:
            mask = action_mask(self._legal_now())
        else:
            mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        return {"observation": observation(key), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The agent to move takes action index ``action`` (``None`` once it is done).

        Raises:
            IllegalActionError: no legal action has that index now: clause 5.4 when the
                index names nothing the seat could do, the broken rule's clause when the game
                refuses the action; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._chosen(agent, action)
        self._cumulative_rewards[agent] = 0
        self.game.apply(chosen)
        self._legal = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.shaping:
            total = self._total_pawns
            for seat, name in enumerate(self.possible_agents):
                placed = self.game.pawns_placed(seat)
                self.rewards[name] += (placed - self._placed[seat]) / total
                self._placed[seat] = placed
        result = self.game.result
        if result is not None:
            self.rewards[self.possible_agents[result.winner]] += 1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {name: {"result": result} for name in self.agents}
        else:
            to_move = self.game.to_move
            assert to_move is not None
            self.agent_selection = self.possible_agents[to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The world and who is to move, as text (``"ansi"``) or SVG (``"svg"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "svg":
            return world_svg(self.game)
        game = self.game
        status = (
            f"game over: player_{game.result.winner} wins ({game.result.reason.value})"
            if game.result is not None
            else f"player_{game.to_move} to move: {type(game.decision).__name__}"
        )
        return f"{world_text(game.state)}\n{status}"

    def close(self) -> None:
        """Nothing to release: the game is plain Python."""

    # -- inside --------------------------------------------------------------------------

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {name: {} for name in self.agents}
        self._legal = None
        self._placed = [0] * self.players
        self._total_pawns = self.game.state.total_pawns
        to_move = self.game.to_move
        assert to_move is not None
        self.agent_selection = self.possible_agents[to_move]

    def _chosen(self, agent: str, action: int | None) -> Action:
        """The action index ``action`` stands for now. After an observation it is looked up
        among the legal actions the mask came from; otherwise it is decoded from the seat's
        view, and the game's ``apply`` says whether it is legal (without building every
        legal action, which only the mask needs)."""
        index = -1 if action is None else int(action)
        if self._legal is not None:
            chosen = self._legal.get(index)
            if chosen is not None:
                return chosen
        else:
            try:
                return self.space.decode(index, self.game.view(self._seat(agent)))
            except EncodingError:
                pass
        raise IllegalActionError(
            "5.4", f"action index {action!r} is not a legal action of {agent} now"
        )

    def _legal_now(self) -> dict[int, Action]:
        """The legal actions of the seat to move, by index (kept until the next step)."""
        if self._legal is None:
            game = self.game
            to_move = game.to_move
            assert to_move is not None
            stolen = game.view(to_move).stolen if _keeps(game) else ()
            self._legal = self.space.legal(game.legal_actions(), self.players, stolen)
        return self._legal

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r}: the agents are {self.possible_agents}") from None


def _keeps(game: Game) -> bool:
    return isinstance(game.decision, ChooseKeptCard)


def raw_env(
    players: int = 2,
    *,
    level: str | Level = "basic",
    rules: Rules | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    shaping: bool = False,
) -> GaiaEnv:
    """The environment without wrappers (see [`GaiaEnv`][gaia_rules.rl.environment.GaiaEnv])."""
    return GaiaEnv(
        players, level=level, rules=rules, seed=seed, render_mode=render_mode, shaping=shaping
    )


def env(
    players: int = 2,
    *,
    level: str | Level = "basic",
    rules: Rules | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
    shaping: bool = False,
) -> AECEnv:
    """The environment in PettingZoo's standard wrappers, as its classic games are: an
    illegal action ends the game with a reward of -1 for its agent (and 0 for the others)."""
    wrapped: AECEnv = raw_env(
        players, level=level, rules=rules, seed=seed, render_mode=render_mode, shaping=shaping
    )
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
