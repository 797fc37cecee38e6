"""The ``python_gaia`` game, its states and its observer (see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from gaia_rules.actions import Action
from gaia_rules.determinize import determinize
from gaia_rules.game import Game, new_game
from gaia_rules.record import GameRecord
from gaia_rules.rl.encoding import ACTION_COUNT, action_space
from gaia_rules.rl.observation import OBSERVATION_SIZE, observation
from gaia_rules.rules import Rules

__all__ = ["GAME_TYPE", "MAX_GAME_LENGTH", "GaiaGame", "GaiaObserver", "GaiaState"]

_LEVELS: dict[str, Callable[[], Rules]] = {
    "basic": Rules.basic,
    "advanced": Rules.advanced,
    "powers": Rules.powers,
    "disasters": Rules.disasters,
}

MAX_GAME_LENGTH = 5_000
"""A bound on the decisions of a game, as OpenSpiel asks for one, far above what games take:
every turn's two actions draw or play cards of a finite box, and the longest of 900 random
games (basic, powers and disasters, 2 and 5 players) took 236 decisions."""

GAME_TYPE = pyspiel.GameType(
    short_name="python_gaia",
    long_name="Gaïa (gaia-rules)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "level": "basic", "rng_seed": 0},
)


class _Held:
    """A game inside a state: copied with ``Game.copy`` when OpenSpiel clones the state, and
    pickled as its record (replayed on load) when OpenSpiel serializes it."""

    __slots__ = ("game", "resampled")

    def __init__(self, game: Game, resampled: bool = False) -> None:
        self.game = game
        self.resampled = resampled

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.game.copy(), self.resampled)

    def __getstate__(self) -> str:
        if self.resampled:
            raise pyspiel.SpielError("a resampled state has no history, so no record to save")
        return self.game.record().to_json()

    def __setstate__(self, text: str) -> None:
        self.game = GameRecord.from_json(text).replay()
        self.resampled = False


class GaiaGame(pyspiel.Game):  # type: ignore[misc]
    """``python_gaia``: Gaïa for 2 to 5 players at one level (see the package docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        players = int(params["players"])
        if not 2 <= players <= 5:
            raise pyspiel.SpielError(f"players: expected 2 to 5, got {players}")
        level = str(params["level"])
        if level not in _LEVELS:
            raise pyspiel.SpielError(f"level: expected one of {', '.join(_LEVELS)}, got {level}")
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=1,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = _LEVELS[level]()
        self.players = players
        self.space = action_space(self.rules)
        self._seeds = random.Random(int(params["rng_seed"]))

    def new_initial_state(self) -> GaiaState:
        """The chance node that deals a game."""
        return GaiaState(self)

    def next_seed(self) -> int:
        """The seed of the next game dealt (from ``rng_seed``)."""
        return self._seeds.getrandbits(63)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GaiaObserver:
        """An observer of what one seat sees (with perfect recall for information states)."""
        return GaiaObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class GaiaState(pyspiel.State):  # type: ignore[misc]
    """One moment of a game: before the deal (a chance node), then the game itself."""

    def __init__(self, game: GaiaGame) -> None:
        super().__init__(game)
        self._held: _Held | None = None
        self._legal: dict[int, Action] | None = None
        self._prefix = ""
        """The log before a resampled game's start, as the resampling seat saw it."""

    @property
    def game(self) -> Game:
        """The game of Gaïa being played (after the deal)."""
        assert self._held is not None, "the game is not dealt yet"
        return self._held.game

    # -- the OpenSpiel API ---------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or the chance or terminal player."""
        if self._held is None:
            return int(pyspiel.PlayerId.CHANCE)
        to_move = self._held.game.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal_map())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """One outcome: the deal, its seed drawn from the game's random source."""
        return [(0, 1.0)]

    def _apply_action(self, action: int) -> None:
        if self._held is None:
            seed = self.get_game().next_seed()
            pygame = self.get_game()
            self._held = _Held(new_game(pygame.players, pygame.rules, seed))
            return
        chosen = self._legal_map().get(action)
        if chosen is None:
            raise pyspiel.SpielError(f"action {action} is not legal now")
        self._legal = None
        self._held.game.apply(chosen)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "deal"
        return str(self.get_game().space.describe(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._held is not None and self._held.game.is_over

    def returns(self) -> list[float]:
        """1 to the winner, 0 to the others; all 0 until the end."""
        players = self.get_game().players
        result = None if self._held is None else self._held.game.result
        return [float(result is not None and seat == result.winner) for seat in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GaiaState:
        """A state the seat cannot tell from this one, its hidden cards dealt afresh."""
        game = self.game
        rng = random.Random(int(probability_sampler() * 2**53))
        clone = GaiaState(self.get_game())
        clone._held = _Held(determinize(game.view(player_id), rng), resampled=True)
        clone._prefix = self._prefix + _log_text(game, player_id)
        return clone

    def __str__(self) -> str:
        if self._held is None:
            return "chance: the deal"
        game = self._held.game
        actions = " ".join(str(action) for action in game.actions)
        return f"seed {game.seed}; {game.players} players; {actions}"

    def action_index(self, action: Action) -> int:
        """The index of one of the legal actions of the game (for bots of gaia-rules)."""
        for index, legal in self._legal_map().items():
            if legal == action:
                return index
        space = self.get_game().space
        return int(space.encode(action, self.game.players))

    # -- inside --------------------------------------------------------------------------

    def _legal_map(self) -> dict[int, Action]:
        """The legal actions of the seat to move, by index (kept until the next action)."""
        if self._legal is None:
            game = self.game
            to_move = game.to_move
            stolen = game.view(to_move).stolen if to_move is not None else ()
            self._legal = self.get_game().space.legal(game.legal_actions(), game.players, stolen)
        return self._legal


def _log_text(game: Game, seat: int) -> str:
    """The game's log as ``seat`` saw it, one event per line."""
    return "".join(f"{event!r}\n" for event in game.events_for(seat))


class GaiaObserver:
    """What one seat sees, as a tensor and a string (OpenSpiel's PyObserver interface)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GaiaState, player: int) -> None:
        """The tensor of ``player``'s view (zeros before the deal)."""
        if state._held is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = observation(state.game.view(player))

    def string_from(self, state: GaiaState, player: int) -> str:
        """``player``'s view as JSON; with perfect recall, the log as the seat saw it first."""
        if state._held is None:
            return f"p{player}: before the deal"
        view = state.game.view(player).to_json()
        if not self.perfect_recall:
            return view
        return f"{state._prefix}{_log_text(state.game, player)}{view}"


pyspiel.register_game(GAME_TYPE, GaiaGame)
