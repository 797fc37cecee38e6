"""The ``python_gaia`` game, its states and its observers (see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pyspiel

from gaia_rules.actions import (
    Action,
    DrawDeck,
    DrawDisplay,
    NameBack,
    PassProtection,
    PlayAnimals,
    PlayCity,
    PlayEruption,
    PlayLightning,
    PlayNature,
    PlayRain,
    PlaySun,
    PlayTornado,
)
from gaia_rules.decisions import ChooseKeptCard
from gaia_rules.determinize import determinize
from gaia_rules.events import Event
from gaia_rules.game import Game
from gaia_rules.information import (
    InformationSet,
    canonical_text,
    own_cards,
    public_fields,
    public_log,
)
from gaia_rules.legal import LegalActions
from gaia_rules.openspiel.chance import (
    CHANCE_OUTCOMES,
    Deal,
    Draw,
    draw_outcomes,
    draws_of,
    outcome_name,
    settle_draws,
)
from gaia_rules.openspiel.observer import (
    HIDDEN,
    HISTORY,
    TILES_AT,
    VIEW_SIZE,
    GaiaObserver,
    MoveCodes,
    PublicEntries,
    city_needs,
    dense,
    inverse_frame,
    private_part,
    private_values,
    public_entries,
    public_part,
)
from gaia_rules.position import Position
from gaia_rules.rl.encoding import ACTION_COUNT, ActionSpace, action_space, square_index
from gaia_rules.rules import Rules
from gaia_rules.vocabulary import CardKind

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
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2, "level": "basic"},
)


_MAY_DRAW: Final = (DrawDeck, DrawDisplay, PlayTornado, PassProtection, NameBack)
"""The actions after which the engine may draw a card (6.1, 6.2) or a Tornado take one
(13.8b): a Tornado's thefts follow its play, the last pass of its Protection window, or a
back named. Every other action is carried out at once."""


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
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, params)
        self.rules = _LEVELS[level]()
        self.level = level
        self.players = players
        self.space: ActionSpace = action_space(self.rules)
        self.needs = city_needs(self.space)
        self.first_deal = Deal.begin(self.rules, players)
        """The deal before its first card: where every state begins."""

    def new_initial_state(self) -> GaiaState:
        """The first chance node of the deal."""
        return GaiaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> GaiaObserver:
        """An observer of one seat (see `gaia_rules.openspiel.observer`)."""
        return GaiaObserver(iig_obs_type, params)


class _Prefix:
    """What the seats of a resampled state were told before it: the seat it was resampled for
    its own log and history, every other seat what no seat in particular was told."""

    __slots__ = ("codes", "events", "seat", "texts")

    def __init__(
        self,
        seat: int,
        events: tuple[tuple[Event, ...], tuple[Event, ...]],
        texts: tuple[tuple[str, ...], tuple[str, ...]],
        codes: tuple[tuple[int, ...], tuple[int, ...]],
    ) -> None:
        self.seat = seat
        self.events = events
        """The seat's log, then the public one."""
        self.texts = texts
        self.codes = codes
        """The seat's history, then the public one."""

    def pick(self, player: int) -> int:
        return 0 if player == self.seat else 1


class _Play:
    """Everything a state holds: the deal, then the game of Gaïa and a player's action waiting
    for chance to decide its draws. Copied cheaply when OpenSpiel clones the state (the game
    with ``Game.copy``), and pickled as the moves that made it, replayed on load."""

    __slots__ = (
        "codes",
        "deal",
        "game",
        "moves",
        "outcomes",
        "pending",
        "prefix",
        "public",
        "pygame",
        "start",
    )

    def __init__(self, pygame: GaiaGame) -> None:
        self.pygame = pygame
        """The ``python_gaia`` game, shared by every state of it."""
        self.moves: list[int] = []
        """Every move since the deal began (or since the start), chance outcomes included."""
        self.deal: Deal | None = None
        self.game: Game | None = None
        self.pending: tuple[Action, tuple[Draw, ...], list[int]] | None = None
        """A player's action, its draws and the classes chance chose for them so far."""
        self.outcomes: list[tuple[int, float]] | None = None
        """The outcomes of the pending action's next draw, once found."""
        self.codes: dict[int, MoveCodes] = {}
        """The history of each seat (-1: of no seat in particular), as far as it was read."""
        self.start: Game | None = None
        """For a state that did not begin with the deal: its game as it began (never changed)."""
        self.prefix: _Prefix | None = None
        self.public: tuple[tuple[int, int], Any, Any] | None = None
        """The public pieces of the tensor at one moment (see `GaiaState.public_values`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        new = _Play(self.pygame)
        new.moves = self.moves.copy()
        new.deal = self.deal
        new.game = None if self.game is None else self.game.copy()
        if self.pending is not None:
            action, draws, chosen = self.pending
            new.pending = (action, draws, chosen.copy())
        new.outcomes = self.outcomes
        new.codes = {seat: codes.copy() for seat, codes in self.codes.items()}
        new.start = self.start
        new.prefix = self.prefix
        return new  # its public pieces are found again: their moment names this game

    def __getstate__(self) -> dict[str, Any]:
        if self.prefix is not None:
            raise pyspiel.SpielError("a resampled state has no history to save")
        params = dict(self.pygame.get_parameters())
        start = None
        if self.start is not None:
            if self.start.is_over:
                raise pyspiel.SpielError("a state begun from a finished game has nothing to save")
            start = Position.from_game(self.start).to_json()
        return {"params": params, "start": start, "moves": self.moves}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        game = pyspiel.load_game("python_gaia", saved["params"])
        if saved["start"] is None:
            state = game.new_initial_state()
        else:
            state = GaiaState.from_game(game, Position.from_json(saved["start"]).to_game())
        for move in saved["moves"]:
            state.apply_action(move)
        for name in self.__slots__:
            setattr(self, name, getattr(state._play, name))
        self.public = None


class GaiaState(pyspiel.State):  # type: ignore[misc]
    """One moment of a game: the deal (chance nodes), then the game itself, a chance node
    before each random draw (see `gaia_rules.openspiel.chance`)."""

    def __init__(self, game: GaiaGame) -> None:
        super().__init__(game)
        self._play = _Play(game)
        self._play.deal = game.first_deal
        self._legal: _Legal | None = None

    @classmethod
    def from_game(cls, game: GaiaGame, held: Game) -> GaiaState:
        """A state of ``game`` playing the game of Gaïa ``held`` from where it is, with no
        history before it (a position set up by hand, a game sampled from a view)."""
        state = cls(game)
        state._play.deal = None
        state._play.game = held.copy()
        state._play.start = held.copy()
        return state

    def pygame(self) -> GaiaGame:
        """The ``python_gaia`` game of this state (``get_game()``, without a call into
        OpenSpiel: asked at every tensor)."""
        return self._play.pygame

    @property
    def game(self) -> Game:
        """The game of Gaïa being played (once dealt); never show it to a seat."""
        held = self._play.game
        assert held is not None, "the game is not dealt yet"
        return held

    # -- the OpenSpiel API ---------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or the chance player, or the terminal player."""
        play = self._play
        if play.game is None or play.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        to_move = play.game.to_move
        return int(pyspiel.PlayerId.TERMINAL) if to_move is None else to_move

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_chance_node():
            return [outcome for outcome, _ in self.chance_outcomes()]
        return self._legal_map().indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The faces the next card can have, each with its chance (see the chance module)."""
        play, space = self._play, self.get_game().space
        if play.game is None:
            assert play.deal is not None
            return play.deal.outcomes_now(space)
        if play.pending is None:
            return []
        return self._draw_outcomes()

    def _apply_action(self, action: int) -> None:
        play, pygame = self._play, self.get_game()
        self._legal = None
        if play.game is None:
            assert play.deal is not None
            if action not in dict(play.deal.outcomes_now(pygame.space)):
                raise pyspiel.SpielError(f"{action} is not an outcome of this chance node")
            play.deal = play.deal.then(pygame.space, action)
            if play.deal.done:
                play.game = play.deal.position(pygame.space).to_game()
        elif play.pending is not None:
            engine_action, draws, chosen = play.pending
            if action not in dict(self._draw_outcomes()):
                raise pyspiel.SpielError(f"{action} is not an outcome of this chance node")
            chosen.append(action)
            play.outcomes = None
            if len(chosen) == len(draws):
                play.pending = None
                settle_draws(pygame.space, play.game, engine_action, draws, chosen)
        else:
            chosen_action = self._legal_map().action(action)
            if chosen_action is None:
                raise pyspiel.SpielError(f"action {action} is not legal now")
            if type(chosen_action) not in _MAY_DRAW:
                play.game.apply(chosen_action)
            else:  # tried on a copy first: chance decides the cards it draws
                trial = play.game.copy()
                draws = draws_of(trial.apply(chosen_action))
                if draws:  # the game waits, unchanged, until they are decided
                    play.pending = (chosen_action, draws, [])
                    play.outcomes = None
                else:
                    play.game = trial
        play.moves.append(action)
        self._legal = None

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s information state tensor (the seat to move's by default), as
        OpenSpiel's own method gives it: a list of the observer's floats.

        Hot path: ``rl_environment`` asks it of every seat at every step. OpenSpiel's method
        for a Python game first asks the tensor's size, which builds a new initial state and
        fills a tensor for it, then fills this one and copies it out a new float per place.
        Here the list starts as one shared ``0.0`` (a new float for each of 7,459 places cost
        most of a call), and only what the observer would write is written: the public
        pieces, found once a moment in seat 0's frame (`public_places`: the tiles' rows but
        their pawns as one slice, the same in every frame, then each other place moved to
        the seat's frame), the seat's own pieces, and its history so far."""
        if player is None:
            player = self.current_player()
        pygame = self._play.pygame
        players = pygame.players
        if not 0 <= player < players:
            raise pyspiel.SpielError(f"player: expected 0 to {players - 1}, got {player}")
        values = [0.0] * (VIEW_SIZE + HISTORY)
        own = self.own_cards(player)
        if own is not None:
            places, found, tiles = self.public_places()
            values[TILES_AT : TILES_AT + len(tiles)] = tiles  # the same in every seat's frame
            if player:  # seat 0's frame is the public values' own
                moved = inverse_frame(player, players)
                for place, value in zip(places, found, strict=True):
                    values[moved[place]] = value
            else:
                for place, value in zip(places, found, strict=True):
                    values[place] = value
            hand, stolen = own
            at, counts = private_values(hand, stolen, player, players, pygame.space)
            for place, count in zip(at, counts, strict=True):
                values[place] = count
        codes = self._history(player)
        values[VIEW_SIZE : VIEW_SIZE + len(codes)] = codes
        return values

    def _action_to_string(self, player: int, action: int) -> str:
        space = self.get_game().space
        if player == pyspiel.PlayerId.CHANCE:
            return outcome_name(space, action)
        return str(space.describe(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        held = self._play.game
        return held is not None and self._play.pending is None and held.is_over

    def returns(self) -> list[float]:
        """1 to the winner, 0 to the others; all 0 until the end."""
        players = self.get_game().players
        held = self._play.game
        result = None if held is None else held.result
        return [float(result is not None and seat == result.winner) for seat in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> GaiaState:
        """A state ``player_id`` cannot tell from this one, the cards hidden from it dealt
        afresh ([`determinize`][gaia_rules.determinize.determinize]): its information state
        is this one's, and every other seat is told in it what no seat in particular was told
        before it, then what it is told there. It has no history, so it cannot be saved."""
        if self.is_chance_node():
            raise pyspiel.SpielError("resample at a player's decision, not a chance node")
        game = self.game
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = determinize(game.view(player_id), rng)
        state = GaiaState(self.get_game())
        state._play.deal = None
        state._play.game = sampled
        key = self.information(player_id)
        assert key is not None
        seat_events, seat_texts = self._told(player_id, key)
        public, public_texts = self._told_public()
        state._play.prefix = _Prefix(
            player_id,
            (seat_events, public),
            (seat_texts, public_texts),
            (
                tuple(int(code) for code in self.history_codes(player_id, True, True)),
                tuple(int(code) for code in self.history_codes(player_id, True, False)),
            ),
        )
        return state

    def __str__(self) -> str:
        play = self._play
        moves = " ".join(str(move) for move in play.moves)
        if play.prefix is not None:
            return f"resampled for seat {play.prefix.seat}; moves since: {moves}"
        start = "dealt" if play.start is None else "from a position"
        return f"{self.get_game().players} players, {self.get_game().level}, {start}: {moves}"

    def action_index(self, action: Action) -> int:
        """The index of one of the legal actions of the game (for bots of gaia-rules)."""
        found = self._legal_map().find(action)
        if found is not None:
            return found
        return int(self.get_game().space.encode(action, self.game.players))

    # -- what a seat is told -------------------------------------------------------------

    def information(self, player: int) -> InformationSet | None:
        """``player``'s information-set key, its log after what the seat was told before a
        resampled state began; ``None`` while the deal goes on."""
        held = self._play.game
        if held is None:
            return None
        key = held.information_set(player)
        prefix = self._play.prefix
        if prefix is None:
            return key
        which = prefix.pick(player)
        return key.after(prefix.events[which], prefix.texts[which])

    def own_cards(
        self, player: int
    ) -> tuple[tuple[str, ...], tuple[tuple[CardKind, int, str | None], ...]] | None:
        """What only ``player``'s key shows it, by face id (its hand, the stolen cards as it
        sees them); ``None`` while the deal goes on."""
        held = self._play.game
        return None if held is None else own_cards(held, player)

    def public_values(self) -> Any:
        """The public pieces of the tensor now, in seat 0's frame (see the observer module):
        found once per moment and shared by every seat's tensor."""
        public = self._public()
        if public[2] is None:
            array = dense(public[1])
            array.flags.writeable = False
            public = self._play.public = (public[0], public[1], array)
        return public[2]

    def public_places(self) -> PublicEntries:
        """`public_values` as what a tensor's list is written from (`public_entries`),
        found once per moment."""
        found: PublicEntries = self._public()[1]
        return found

    def _public(self) -> tuple[tuple[int, int], Any, Any]:
        play = self._play
        moment = (len(play.moves), id(play.game))
        if play.public is None or play.public[0] != moment:
            pygame = play.pygame
            fields = public_fields(self.game)  # every card by its face id (1.14)
            entries = public_entries(fields, pygame.space, pygame.needs, self.chancy())
            play.public = (moment, entries, None)
        return play.public

    def chancy(self) -> bool:
        """Whether chance is deciding the cards a player's action draws."""
        return self._play.pending is not None

    def history_codes(self, player: int, public: bool, private: bool) -> Any:
        """``player``'s history (see the observer module), as a numpy array: the deal, then
        every move of the game, as the observer sees it; with ``private`` only, its own part
        (every number the public history shares left at 0)."""
        if public and private:
            return np.array(self._history(player), np.float32)
        shared = np.array(self._history(-1), np.float32)
        if public:
            return shared
        own = np.array(self._history(player), np.float32)
        return np.where(own != shared, own, 0)

    def _history(self, player: int) -> list[float]:
        """``player``'s history (-1: no seat's), as floats: a list that may be the reader's
        own, never to be changed."""
        play = self._play
        pygame = play.pygame
        if play.game is None:  # the deal goes on
            return [float(code) for code in self._dealt(player)]
        reader = play.codes.get(player)
        if reader is None:
            reader = play.codes[player] = MoveCodes(
                pygame.space, pygame.players, player, self._dealt(player)
            )
        codes = reader.read(play.game)
        if play.pending is not None:
            pending = 1 + pygame.space.encode(play.pending[0], pygame.players)
            codes = [*codes, float(pending)]
        return codes

    def _dealt(self, player: int) -> list[int]:
        """What ``player`` saw of how the game began (-1: what everyone saw): each card of
        the deal, or what a resampled state's seat was told before it."""
        play = self._play
        if play.deal is not None:
            return [
                -1 - outcome if slot.seat is None or slot.seat == player else HIDDEN
                for slot, outcome in zip(play.deal.slots, play.deal.outcomes, strict=False)
            ]
        if play.prefix is not None:
            return list(play.prefix.codes[play.prefix.pick(player)])
        return []

    def observation_text(
        self, player: int, public: bool, private: bool, perfect_recall: bool
    ) -> str:
        """What ``player`` observes, as text: the canonical JSON of its key's view (public
        and private parts as asked), with its log when ``perfect_recall``."""
        play = self._play
        if play.game is None:
            seen = self._dealt(player if private else -1)
            return f"p{player}: the deal: {seen}"
        key = self.information(player)
        assert key is not None
        pending = ""
        if play.pending is not None:  # a player's action, public, waiting for its cards
            pygame = self.get_game()
            index = pygame.space.encode(play.pending[0], pygame.players)
            pending = f"\npending: {pygame.space.describe(index)}"
        if public and private and perfect_recall:
            return str(key) + pending
        view = key.view.to_data()
        data: dict[str, Any] = {}
        if public:
            data["public"] = public_part(view)
        if private:
            data["private"] = private_part(view)
        text = canonical_text(data)
        if perfect_recall:
            if public:
                text += "\n" + "\n".join(self._told_public()[1])
            if private:
                own = self._told(player, key)[1]
                shared = self._told_public()[1]
                text += "\n" + "\n".join(
                    f"{index}:{mine}"
                    for index, (mine, theirs) in enumerate(zip(own, shared, strict=True))
                    if mine != theirs
                )
        return text + pending

    def _told(self, player: int, key: InformationSet) -> tuple[tuple[Event, ...], tuple[str, ...]]:
        """``player``'s log and the text of each event (the key's)."""
        return key.events, key.event_texts()

    def _told_public(self) -> tuple[tuple[Event, ...], tuple[str, ...]]:
        """The log as no seat in particular saw it, every card by its face id, and the text of
        each event, after what came before a resampled state."""
        events, texts = public_log(self.game)
        prefix = self._play.prefix
        if prefix is not None:
            return prefix.events[1] + events, prefix.texts[1] + texts
        return events, texts

    # -- inside --------------------------------------------------------------------------

    def _draw_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the pending action's next draw, found once."""
        play = self._play
        if play.outcomes is None:
            assert play.game is not None and play.pending is not None
            _, draws, chosen = play.pending
            play.outcomes = draw_outcomes(play.pygame.space, play.game, draws, chosen)
        return play.outcomes

    def _legal_map(self) -> _Legal:
        """The legal actions of the seat to move, by index (kept until the next action)."""
        if self._legal is None:
            game = self.game
            to_move = game.to_move
            legal = game.legal_actions()
            assert isinstance(legal, LegalActions)
            stolen: Any = ()
            if to_move is not None and isinstance(game.decision, ChooseKeptCard):
                stolen = game.view(to_move).stolen
            self._legal = _Legal(self._play.pygame.space, legal, game.players, stolen)
        return self._legal


_ON_SQUARE: Final = frozenset(
    (PlayNature, PlayAnimals, PlayCity, PlaySun, PlayRain, PlayLightning, PlayEruption)
)
"""The plays of one card on one square: a part of them is one card on many squares."""


class _Legal:
    """The legal actions of a decision by index, each action built only when asked for.

    Hot path: a turn's action offers hundreds of plays (each card on each open square), and an
    environment asks for the indices at every step but plays one action. A part of the legal
    actions that plays one card on many squares (`LegalActions.parts`) is encoded by its first
    action: the others differ from it by their square's number alone."""

    __slots__ = ("_build",)

    def __init__(self, space: ActionSpace, legal: LegalActions, players: int, stolen: Any) -> None:
        self._build: dict[int, tuple[Callable[[Any], Action], Any]] = {}
        build = self._build
        if stolen:  # a kept card: its index says where it came from
            for index, action in space.legal(legal, players, stolen).items():
                build[index] = (_same, action)
            return
        for builder, targets in legal.parts():
            func = getattr(builder, "func", None)
            if func in _ON_SQUARE and targets:
                first = builder(targets[0])
                base = space.encode(first, players) - square_index(targets[0])
                for pos in targets:
                    build.setdefault(base + square_index(pos), (builder, pos))
            else:
                for index, action in space.legal([builder(t) for t in targets], players).items():
                    build.setdefault(index, (_same, action))

    def indices(self) -> list[int]:
        """Every legal index, in order."""
        return sorted(self._build)

    def action(self, index: int) -> Action | None:
        """The action of ``index``, or ``None`` if it is not legal."""
        found = self._build.get(index)
        if found is None:
            return None
        builder, target = found
        return builder(target)

    def find(self, action: Action) -> int | None:
        """The index of ``action``, if it is one of these."""
        for index in self._build:
            if self.action(index) == action:
                return index
        return None


def _same(action: Action) -> Action:
    return action


pyspiel.register_game(GAME_TYPE, GaiaGame)
