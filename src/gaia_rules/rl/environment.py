"""Gaïa as a PettingZoo AEC environment, built as PettingZoo's classic games are.

``env()`` wraps ``raw_env()`` in PettingZoo's standard wrappers (an illegal action ends the game
with -1 for its agent, out-of-range actions are refused, the API's order is enforced). Agents
are ``player_0`` to ``player_{n-1}``, one per seat; ``agent_selection`` is always the seat the
game waits for, ``game.to_move``, which is not always the seat whose turn it is (a Protection
window asks the other seats, spec 13.9). Observations and masks: see
[`gaia_rules.rl.observation`][gaia_rules.rl.observation]; actions: see
[`gaia_rules.rl.encoding`][gaia_rules.rl.encoding].

Observations: ``observation="full"`` (the default) gives
[`observation`][gaia_rules.rl.observation.observation], ``observation="planes"`` the compact
[`planes_observation`][gaia_rules.rl.planes.planes_observation] (16 KB); either comes with
the action mask (``action_mask``, PettingZoo's convention, so its tests and any masked
learner play legal moves) unless ``action_mask=False`` leaves it out. Either way the info
of the agent to move holds its legal action indices, sorted, under ``"legal_actions"`` (an
empty array for the others), and
[`legal_actions()`][gaia_rules.rl.environment.GaiaEnv.legal_actions] gives them too.

Rewards: 1 to the winner and 0 to the others when the game ends (there is always one winner,
spec 15); ``rewards="win_loss"`` gives the others -1 instead. With ``shaping=True`` every seat
also receives, at each step, the change in the share of its pawns placed (pawns placed over
pawns per seat, spec 3.10), so over a game its shaped rewards add up to the share it placed by
the end, plus the result.

Truncation: with ``max_cycles=k`` a game that is not over when its turn ``k * players + 1``
begins (every seat has had ``k`` turns, a *cycle* being one turn of every seat) is truncated
for every agent, with no reward for the result. Seeds follow Gymnasium: ``reset(seed=s)``
deals the game of seed ``s`` and reseeds the environment's own sequence, so the resets after
it deal the same games every time.
"""

from __future__ import annotations

import random
import secrets
import sys
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from gaia_rules.actions import Action
from gaia_rules.decisions import ChooseKeptCard
from gaia_rules.errors import IllegalActionError, RulesError
from gaia_rules.events import TurnBegan
from gaia_rules.game import Game, new_game
from gaia_rules.rl.encoding import (
    ACTION_COUNT,
    CARD_CLASSES,
    MAX_SEATS,
    EncodingError,
    action_space,
)
from gaia_rules.rl.observation import OBSERVATION_SIZE, action_mask, observation
from gaia_rules.rl.planes import PLANES_SIZE, planes_observation
from gaia_rules.rules import Level, Rules
from gaia_rules.svg import world_svg
from gaia_rules.text import world_text

__all__ = ["GaiaEnv", "TerminateIllegalIndex", "env", "parallel_env", "raw_env"]

_RULES = {
    "basic": Rules.basic,
    "advanced": Rules.advanced,
    "powers": Rules.powers,
    "disasters": Rules.disasters,
}


_RENDER_MODES = ("human", "ansi", "svg", "rgb_array")
_OBSERVATIONS = ("full", "planes")
_REWARDS = ("win", "win_loss")
_NO_LEGAL = np.zeros(0, dtype=np.int64)
_NO_LEGAL.flags.writeable = False


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
            seed ``s`` itself and reseeds the sequence. ``None``: fresh seeds.
        render_mode: ``"human"`` (prints the text), ``"ansi"`` (the world and the status as
            text), ``"svg"`` or ``"rgb_array"`` (the SVG as an image; needs the cairo
            library, as ``cairosvg`` does).
        shaping: Add the change in each seat's share of pawns placed to its reward at each
            step (see the module docstring).
        observation: ``"full"`` or ``"planes"`` (the compact layout).
        action_mask: Whether the observation carries the action mask (194,321 bytes, every
            layout by default); ``False`` leaves it out, and an index that is not legal
            still ends the game in ``env()``.
        rewards: ``"win"`` (1 and 0) or ``"win_loss"`` (1 and -1).
        max_cycles: Truncate a game after this many turns of every seat; ``None``: never.
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
        "render_fps": 1,
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
        observation: Literal["full", "planes"] = "full",
        action_mask: bool = True,
        rewards: Literal["win", "win_loss"] = "win",
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise RulesError(f"players: expected 2 to 5, got {players!r}")
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(
                f"render_mode: expected {', '.join(_RENDER_MODES)} or None, got {render_mode!r}"
            )
        if observation not in _OBSERVATIONS:
            raise ValueError(f"observation: expected full or planes, got {observation!r}")
        if rewards not in _REWARDS:
            raise ValueError(f"rewards: expected win or win_loss, got {rewards!r}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles: expected a whole number from 1, got {max_cycles!r}")
        self.rules = _rules_of(level, rules)
        self.players = players
        self.render_mode = render_mode
        self.shaping = shaping
        self.layout = observation
        self.with_mask = bool(action_mask)
        self.loss = -1.0 if rewards == "win_loss" else 0.0
        self.max_cycles = max_cycles
        self.space = action_space(self.rules)
        self._seeds = random.Random(secrets.randbits(63) if seed is None else seed)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self.action_spaces = {name: spaces.Discrete(ACTION_COUNT) for name in self.agents}
        size = OBSERVATION_SIZE if observation == "full" else PLANES_SIZE
        parts: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(low=-128, high=127, shape=(size,), dtype=np.int8)
        }
        if self.with_mask:
            parts["action_mask"] = spaces.Box(low=0, high=1, shape=(ACTION_COUNT,), dtype=np.int8)
        self.observation_spaces = {name: spaces.Dict(parts) for name in self.agents}
        self.state_space = spaces.Box(
            low=-128, high=127, shape=(size + MAX_SEATS * CARD_CLASSES,), dtype=np.int8
        )
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
        """Deal a new game: of seed ``seed`` if given (and the environment's sequence goes on
        from ``seed``), else of the next seed of the environment's own sequence."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game = new_game(self.players, self.rules, game_seed)
        self._start()

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.int8]]:
        """``agent``'s observation (and action mask, if asked for), from its information-set
        key alone (spec 1.16: its view, every card by its face); the mask is all zeros unless
        the agent is to move."""
        seat = self._seat(agent)
        view = self.game.information_set(seat).view
        if self.layout == "full":
            found = {"observation": observation(view)}
        else:
            found = {"observation": planes_observation(view)}
        if self.with_mask:
            if self.game.to_move == seat and not self._truncated():
                found["action_mask"] = action_mask(self._legal_now())
            else:
                found["action_mask"] = np.zeros(ACTION_COUNT, dtype=np.int8)
        return found

    def legal_actions(self) -> npt.NDArray[np.int64]:
        """The legal action indices of the agent to move, sorted (a new array); empty once
        the game is over or truncated."""
        if self.game.is_over or self._truncated():
            return _NO_LEGAL.copy()
        return np.fromiter(sorted(self._legal_now()), dtype=np.int64)

    def state(self) -> npt.NDArray[np.int8]:
        """The whole table for a centralised critic: seat 0's observation in the chosen layout,
        then every seat's hand by card class (``MAX_SEATS`` rows of 39 counts, seat 0 first).
        Nothing hidden from every seat (the order of the decks) is in it."""
        view = self.game.view(0)
        seen = observation(view) if self.layout == "full" else planes_observation(view)
        hands = np.zeros((MAX_SEATS, CARD_CLASSES), dtype=np.int8)
        classes = self.space.card_class
        for seat, hand in enumerate(self.game.state.hands):
            for card in hand:
                hands[seat, classes[card]] += 1
        return np.concatenate([seen, hands.reshape(-1)])

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
        self.play(self._chosen(agent, action))

    def play(self, action: Action) -> None:
        """The agent to move takes ``action``, an action of the game (one of
        ``game.legal_actions()``), as ``step`` takes an index: how the bots of the single-agent
        and vector environments move.

        Raises:
            IllegalActionError: the game refuses the action; nothing changes.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise IllegalActionError("5.4", f"{agent} has no decision: the game is over")
        events = self.game.apply(action)
        self._cumulative_rewards[agent] = 0
        self._turns += sum(1 for event in events if type(event) is TurnBegan)
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
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] += 1.0 if seat == result.winner else self.loss
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {
                name: {"result": result, "legal_actions": _NO_LEGAL} for name in self.agents
            }
        else:
            to_move = self.game.to_move
            assert to_move is not None
            self.agent_selection = self.possible_agents[to_move]
            if self._truncated():
                self.truncations = dict.fromkeys(self.agents, True)
                self.infos = {name: {"legal_actions": _NO_LEGAL} for name in self.agents}
            else:
                self._infos()
        self._accumulate_rewards()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The world and who is to move: as text (``"ansi"``, printed by ``"human"``), SVG
        (``"svg"``) or an RGB image (``"rgb_array"``, ``height x width x 3`` bytes)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "svg":
            return world_svg(self.game)
        if self.render_mode == "rgb_array":
            from gaia_rules.rl.pictures import rgb_array  # noqa: PLC0415 (needs cairosvg)

            return rgb_array(world_svg(self.game))
        game = self.game
        status = (
            f"game over: player_{game.result.winner} wins ({game.result.reason.value})"
            if game.result is not None
            else f"player_{game.to_move} to move: {type(game.decision).__name__}"
        )
        text = f"{world_text(game.state)}\n{status}"
        if self.render_mode == "human":
            print(text, file=sys.stdout)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain Python."""

    # -- inside --------------------------------------------------------------------------

    def _start(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._legal = None
        self._placed = [0] * self.players
        self._total_pawns = self.game.state.total_pawns
        self._turns = sum(1 for event in self.game.events if type(event) is TurnBegan)
        to_move = self.game.to_move
        assert to_move is not None
        self.agent_selection = self.possible_agents[to_move]
        self._infos()

    def _infos(self) -> None:
        """Every agent's info: the legal action indices of the agent to move, sorted."""
        self.infos = {name: {"legal_actions": _NO_LEGAL} for name in self.agents}
        self.infos[self.agent_selection] = {"legal_actions": self.legal_actions()}

    def _truncated(self) -> bool:
        """Whether the game has run past ``max_cycles`` turns of every seat."""
        return self.max_cycles is not None and self._turns > self.max_cycles * self.players

    def _chosen(self, agent: str, action: int | None) -> Action:
        """The action index ``action`` stands for now: looked up among the legal actions
        (built for the info at every step), else decoded from the seat's view, so that the
        game's ``apply`` refuses it naming the rule it breaks."""
        index = -1 if action is None else int(action)
        chosen = self._legal_now().get(index)
        if chosen is not None:
            return chosen
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


def raw_env(players: int = 2, **options: Any) -> GaiaEnv:
    """The environment without wrappers (see [`GaiaEnv`][gaia_rules.rl.environment.GaiaEnv]
    for the options)."""
    return GaiaEnv(players, **options)


def env(players: int = 2, **options: Any) -> AECEnv:
    """The environment in PettingZoo's standard wrappers, as its classic games are: an
    illegal action ends the game with a reward of -1 for its agent (and 0 for the others).
    The options are [`GaiaEnv`][gaia_rules.rl.environment.GaiaEnv]'s."""
    raw = raw_env(players, **options)
    wrapped: AECEnv = (
        wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
        if raw.with_mask
        else TerminateIllegalIndex(raw, illegal_reward=-1)
    )
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class TerminateIllegalIndex(wrappers.BaseWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper`` for observations without a mask: an action
    index that is not among the legal ones ends the game, with ``illegal_reward`` for the
    agent that took it and 0 for the others."""

    def __init__(self, env: GaiaEnv, illegal_reward: float) -> None:
        super().__init__(env)
        self._illegal_reward = float(illegal_reward)
        self._terminated = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (see [`GaiaEnv.reset`][gaia_rules.rl.environment.GaiaEnv.reset])."""
        self._terminated = False
        super().reset(seed=seed, options=options)

    def step(self, action: int | None) -> None:
        """Take ``action``, or end the game if it is not legal."""
        raw: GaiaEnv = self.env.unwrapped
        agent = self.agent_selection
        if self._terminated and (self.terminations[agent] or self.truncations[agent]):
            raw._was_dead_step(action)
        elif (
            not self.terminations[agent]
            and not self.truncations[agent]
            and (action is None or int(action) not in raw._legal_now())
        ):
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.agents, 0.0)
            raw.rewards[agent] = self._illegal_reward
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            super().step(action)


def parallel_env(players: int = 2, **options: Any) -> ParallelEnv:
    """The environment as a PettingZoo parallel environment, the way PettingZoo converts its
    turn-based games: every live agent sends an action at each step and only that of the agent
    to move (``infos[agent]["active_agent"]``) is played; the others' are ignored. Gaïa is a
    game of turns (and of Protection windows between them), so no two seats ever decide at
    once: ``aec_to_parallel`` refuses it, as it refuses chess."""
    return turn_based_aec_to_parallel(env(players, **options))
