"""``Game``: the public face of one game in progress, and
[`new_game`][gaia_rules.game.new_game].

A game answers three questions at every moment: who decides now
([`Game.to_move`][gaia_rules.game.Game.to_move]), what is being decided
([`Game.decision`][gaia_rules.game.Game.decision]), and what the legal choices are
([`Game.legal_actions`][gaia_rules.game.Game.legal_actions]).
[`Game.apply`][gaia_rules.game.Game.apply] carries out one choice, atomically.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gaia_rules import flow, hooks
from gaia_rules._version import __version__
from gaia_rules.actions import Action
from gaia_rules.decisions import Decision
from gaia_rules.errors import RulesError, SeatError, shown
from gaia_rules.events import Event, Result
from gaia_rules.information import InformationSet, information_set_of
from gaia_rules.limits import WHOLE_NUMBERS
from gaia_rules.rules import Level, Rules
from gaia_rules.setup import deal
from gaia_rules.state import GameState, snapshot
from gaia_rules.table import Table, chain_items
from gaia_rules.views import View, log_for, view_of

if TYPE_CHECKING:  # the record module imports this one: the annotation only
    from gaia_rules.record import GameRecord

__all__ = ["Game", "new_game"]

SUPPORTED_LEVELS = (Level.BASIC, Level.ADVANCED, Level.POWERS, Level.DISASTERS)


def new_game(
    players: int,
    rules: Rules | None = None,
    seed: int | None = None,
    first_player: int = 0,
) -> Game:
    """Set up a new game (spec 4) and run it to the first player's first decision.

    Args:
        players: The number of seats, 2 to 5 (spec 1.1, 1.4).
        rules: The rules to play by; defaults to
            [`Rules.basic()`][gaia_rules.rules.Rules.basic].
        seed: The seed of every random choice of the game (spec 1.6); defaults to a fresh
            random number. Either way it is kept in [`Game.seed`][gaia_rules.game.Game.seed]
            (and the record), so the game can be replayed.
        first_player: The seat that plays first (spec 1.4).

    Returns:
        The game, at the first decision of the first player's first turn.

    Raises:
        RulesError: ``players`` is not a whole number from 2 to 5, ``first_player`` is not
            one of the seats, ``rules`` is not a [`Rules`][gaia_rules.rules.Rules] value, or
            ``seed`` is not a whole number from -2**63 to 2**63 - 1 (spec 1.6, 1.10).
    """
    rules = Rules.basic() if rules is None else rules
    if not isinstance(rules, Rules):
        raise RulesError(f"rules: expected a Rules value, got {type(rules).__name__}")
    if rules.level not in SUPPORTED_LEVELS:
        raise RulesError(f"the {rules.level.name.lower()} level is not yet supported")
    if seed is None:
        seed = secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed not in WHOLE_NUMBERS:
        raise RulesError(f"seed: expected a whole number from -2**63 to 2**63-1, got {shown(seed)}")
    table = deal(rules, players, seed, first_player)
    flow.advance(table)
    return Game._from_table(table)


class Game:
    """One game of Gaïa. Create it with [`new_game`][gaia_rules.game.new_game] or from a
    position ([`Position.to_game`][gaia_rules.position.Position.to_game]).

    The constructor is not public: calling ``Game()`` raises ``TypeError``.
    """

    __slots__ = ("_table",)

    _table: Table

    def __init__(self) -> None:
        raise TypeError("create a game with gaia_rules.new_game() or a Position")

    @classmethod
    def _from_table(cls, table: Table) -> Game:
        game = object.__new__(cls)
        game._table = table
        return game

    # -- who decides now, and what (spec 5.4) --------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is pending; ``None`` once the game is over."""
        decision = self._table.decision
        return None if decision is None else decision.player

    @property
    def decision(self) -> Decision | None:
        """What is being decided now; ``None`` once the game is over."""
        return self._table.decision

    @property
    def active(self) -> int:
        """The seat whose turn it is (not always the seat to move)."""
        return self._table.active

    def pawns_placed(self, player: int) -> int:
        """How many of ``player``'s pawns are on cities and Objectives now (spec 3.10): the
        count that wins the game when it reaches the seat's whole supply. Public, and cheap
        enough to ask at every node of a search.

        Raises:
            SeatError: ``player`` is not a seat of this game (also a ``ValueError``).
        """
        return self._table.pawns_placed(self._seat(player))

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of [`to_move`][gaia_rules.game.Game.to_move], and only those;
        empty once the game is over.

        Each listed action applies; any other raises
        [`IllegalActionError`][gaia_rules.errors.IllegalActionError]. The result is an
        immutable ``collections.abc.Sequence`` in a fixed order, equal to the list of the same
        actions. It is lazy: ``len()`` and indexing are cheap and build only the actions
        read, so ``random.choice(game.legal_actions())`` costs one action however many
        there are; iterating or ``in`` builds them all once.
        """
        return flow.legal_actions(self._table)

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` would be accepted by [`apply`][gaia_rules.game.Game.apply] now.

        Never raises: anything that is not a legal action, whatever its type, is ``False``.
        """
        return flow.refusal(self._table, self._table.decision, action) is None

    def apply(self, action: Action) -> tuple[Event, ...]:
        """Carry out ``action`` and every step the engine takes by itself after it.

        The engine runs on to the next decision with more than one option, taking each
        decision with a single option itself and logging it (spec 5.4), except those it must
        ask all the same (a Protection window, spec 13.9c).

        Args:
            action: One of [`legal_actions()`][gaia_rules.game.Game.legal_actions].

        Returns:
            The events the action caused, oldest first, with those of the steps the engine
            took after it.

        Raises:
            IllegalActionError: ``action`` is not legal now: it answers another decision,
                names another seat than [`to_move`][gaia_rules.game.Game.to_move], names a
                square by anything but a [`Pos`][gaia_rules.vocabulary.Pos] (even the equal
                tuple ``(x, y)``), breaks a rule, is not an action at all, or the game is
                over. The error's ``clause``
                names the clause it breaks, and the game is left exactly as it was
                (spec 1.7).
        """
        return flow.play(self._table, action)

    # -- the game as a whole ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (spec 15)."""
        return self._table.result is not None

    @property
    def result(self) -> Result | None:
        """The winner, why the game ended and the pawns each seat placed; ``None`` until then."""
        return self._table.result

    @property
    def rules(self) -> Rules:
        """The rules this game is played by."""
        return self._table.rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._table.players

    @property
    def first_player(self) -> int:
        """The seat that played first."""
        return self._table.first_player

    @property
    def seed(self) -> int:
        """The seed every random choice of this game came from (spec 1.6)."""
        return self._table.seed

    def copy(self) -> Game:
        """An independent copy, cheap enough for tree search."""
        return Game._from_table(self._table.copy())

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event since the setup, omniscient: never send it to a seat."""
        return tuple(chain_items(self._table.log))  # type: ignore[arg-type]

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions players took (not those the engine took for them), oldest first."""
        return tuple(chain_items(self._table.actions))  # type: ignore[arg-type]

    @property
    def state(self) -> GameState:
        """The full state: every hand and deck order. For servers and tests, never a seat."""
        return snapshot(self._table)

    def record(self) -> GameRecord:
        """The record of this game so far: replaying it gives this game back, however the
        game was created (a game started from a position is recorded from that position).

        See [`GameRecord.replay`][gaia_rules.record.GameRecord.replay].
        """
        table = self._table
        start = table.start() if callable(table.start) else table.start
        return hooks.new_record(  # GameRecord, installed by gaia_rules.record
            rules=table.rules,
            players=table.players,
            seed=table.seed,
            first_player=table.first_player,
            actions=self.actions,
            manifest=table.cards,
            library=__version__,
            result=table.result,
            start=start,
            format=1 if table.named_copies else 2,
        )

    # -- one seat's share (spec 1.5) --------------------------------------------------------

    def view(self, player: int) -> View:
        """What ``player`` may see now (spec 1.5).

        Args:
            player: A seat, 0 to ``players - 1``.

        Returns:
            The seat's [`View`][gaia_rules.views.View]: a plain value that never carries a
            card hidden from that seat.

        Raises:
            SeatError: ``player`` is not a seat of this game (also a ``ValueError``).
        """
        return view_of(self._table, self._seat(player))

    def events_for(self, player: int) -> tuple[Event, ...]:
        """The event log as ``player`` saw it (spec 1.5).

        A face-down draw by another seat shows only its back; the cards a Tornado takes are
        shown only to the seats that may see them (spec 13.8c).

        Args:
            player: A seat, 0 to ``players - 1``.

        Returns:
            Every event since the setup, each redacted for ``player``.

        Raises:
            SeatError: ``player`` is not a seat of this game (also a ``ValueError``).
        """
        seat = self._seat(player)
        return log_for(self.events, seat, self._table.cards.face_ids)

    def information_set(self, player: int) -> InformationSet:
        """The information-set key of ``player`` now (spec 1.16): what the seat has been
        told, its view and its log, with every card named by its face id, its own hand
        included.

        Two moments of two games give a seat equal keys exactly when it has been shown the
        same faces in the same order; in particular two games that differ only in which
        copies of a face are where, outside what the seat is told, give it equal keys step by
        step. Search trees, caches and learning agents key on it: it is a frozen, hashable
        value that reads and writes JSON, and ``str(key)`` is its canonical JSON.

        Args:
            player: A seat, 0 to ``players - 1``.

        Returns:
            The seat's [`InformationSet`][gaia_rules.information.InformationSet].

        Raises:
            SeatError: ``player`` is not a seat of this game (also a ``ValueError``).
        """
        return information_set_of(self._table, self._seat(player))

    def _seat(self, player: object) -> int:
        if (
            isinstance(player, bool)
            or not isinstance(player, int)
            or not 0 <= player < self._table.players
        ):
            raise SeatError(f"no seat {shown(player)} in a {self._table.players}-player game")
        return player

    def __repr__(self) -> str:
        table = self._table
        status = "over" if table.result is not None else f"seat {self.to_move} to move"
        return (
            f"<Game {table.players} players, {table.rules.level.name.lower()}, "
            f"seed {table.seed}, {status}>"
        )

    def _repr_svg_(self) -> str:
        """The world as SVG, for notebooks (`gaia_rules.svg.world_svg`)."""
        return hooks.world_svg(self)  # installed by gaia_rules.svg
