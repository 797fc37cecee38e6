"""The flow of a game: who decides now, what, and what happens next (spec 5).

The table keeps a stack of pending steps, the top last. A step is either a decision (see
:mod:`gaia_rules.decisions`) or :class:`BeginTurn`, which the engine runs by itself.
:func:`advance` runs the automatic steps, takes every decision that has one legal option
(logged as an :class:`~gaia_rules.events.ActionTaken` ``by_engine``), and stops at the
first decision that is a real choice, or at the end of the game.

Every rule family offers, for the decisions it owns, the same three functions: the legal
options, the refusal of an action (with its clause), and the carrying out of a legal one.
This module only routes to them.
"""

from __future__ import annotations

import typing
from typing import Final

from gaia_rules import constructors, drawing, feeding, life, nature, objectives, powers
from gaia_rules.actions import (
    Action,
    DeclineObjectives,
    Discard,
    DrawDeck,
    DrawDisplay,
    Feed,
    FulfillObjective,
    KeepCard,
    NameBack,
    PassProtection,
    PlaceCityPawn,
    PlayAnimals,
    PlayCity,
    PlayEarthquake,
    PlayEruption,
    PlayLightning,
    PlayNature,
    PlayRain,
    PlaySun,
    PlayTornado,
    PowerPlay,
    Protect,
)
from gaia_rules.copies import distinct, listed
from gaia_rules.decisions import (
    BeginTurn,
    ChooseAction,
    ChooseBack,
    ChooseFeeding,
    ChooseKeptCard,
    ChooseLimitDiscard,
    ChooseObjective,
    ChoosePawnCities,
    ChooseProtection,
    Decision,
    PowerEffect,
)
from gaia_rules.errors import IllegalActionError
from gaia_rules.events import Event, TurnBegan
from gaia_rules.legal import LegalActions, ready
from gaia_rules.refusal import Refusal
from gaia_rules.satisfaction import pawns_wanted, take_city
from gaia_rules.setup import MAX_PLAYERS
from gaia_rules.table import Table
from gaia_rules.untrusted import value_problems
from gaia_rules.vocabulary import CardKind, Pos

__all__ = [
    "ACTIONS_PER_TURN",
    "advance",
    "carry_out",
    "legal_actions",
    "options",
    "play",
    "refusal",
    "take",
]

ACTIONS_PER_TURN: Final = 2

ALWAYS_ASKED: Final[tuple[type[ChooseProtection | ChooseLimitDiscard], ...]] = (
    ChooseProtection,
    ChooseLimitDiscard,
)
"""Decisions asked even with one option, since taking them would tell the other seats what
the backs hide: that a seat holds no Protection (spec 5.4, 13.9c), or that the cards it may
discard are all copies of one face (6.5c)."""

_POWER_PLAYS: Final[tuple[type[PowerPlay], ...]] = (
    PlaySun,
    PlayRain,
    PlayEarthquake,
    PlayTornado,
    PlayLightning,
    PlayEruption,
)
"""Typed of any length: the compiled build keeps such a tuple, where it builds a fixed-length
one anew at each ``isinstance`` check."""
_TURN_ACTIONS: Final[frozenset[type[Action]]] = frozenset(
    (DrawDisplay, DrawDeck, PlayNature, PlayAnimals, PlayCity)
)
"""The actions of a turn that are not Power plays (spec 5.2)."""

# Hot path: the step and action classes stay interpreted in the compiled build (see
# `hatch_build.py`), and there a function that names one looks it up in the module's dict at
# each use; a `Final` name is read as a C static instead. These are the ones named at every
# decision.
_BeginTurn: Final = BeginTurn
_PowerEffect: Final = PowerEffect
_ChooseAction: Final = ChooseAction
_DRAWS: Final[tuple[type[DrawDisplay | DrawDeck], ...]] = (DrawDisplay, DrawDeck)
_PlayNature: Final = PlayNature
_PlayAnimals: Final = PlayAnimals

# Hot path: a turn begins, and its actions are asked for, at about every other decision.
# Steps and events are immutable values, so one instance of each per seat serves every turn
# of every game.
_BEGIN_TURN: Final = tuple(BeginTurn(seat) for seat in range(MAX_PLAYERS))
_TURN_BEGAN: Final = tuple(TurnBegan(seat) for seat in range(MAX_PLAYERS))
_CHOOSE_ACTION: Final = {
    (seat, number): ChooseAction(seat, number)
    for seat in range(MAX_PLAYERS)
    for number in range(1, ACTIONS_PER_TURN + 1)
}


_NO_ACTIONS: Final = LegalActions([])
"""What a game that is over offers."""


# Hot path: `Game.legal_actions` and `Game.apply` are the two calls of every decision. They
# hand over to these functions at once, so that the compiled build
# (`scripts/build_compiled.py`) runs the whole decision in compiled code while `Game`, whose
# docstrings and argument checks are the public API, stays a plain Python class.


def legal_actions(table: Table) -> LegalActions:
    """The legal actions of the pending decision, found once and kept on the table until the
    decision is taken; none once the game is over."""
    decision = table.decision
    if decision is None:
        return _NO_ACTIONS
    found = table.options
    if found is None:
        found = table.options = options(table, decision)
    return found


def play(table: Table, action: object) -> tuple[Event, ...]:
    """Carry out ``action`` and every step the engine takes by itself after it (spec 5.4);
    the events, oldest first. ``IllegalActionError``, and nothing changed, if it is not
    legal now (spec 1.7)."""
    start = table.log_length
    carry_out(table, action)
    return _newest(table, table.log_length - start)


def carry_out(table: Table, action: object) -> None:
    """:func:`play` without gathering the events (they are in the log): for the playouts of
    a search, which never read them."""
    decision = table.decision
    found = table.options
    # an action this decision's legal actions handed out is legal by construction (1.7
    # holds for them: exactness is tested), so it is not checked again
    if found is None or not found.issued(action):
        refused = refusal(table, decision, action)
        if refused is not None:
            raise IllegalActionError(refused.clause, refused.reason)
        # 1.12: another copy of the face, or a face id, names the choice the list names
        action = listed(table, typing.cast(Action, action))
    assert decision is not None
    take(table, decision, typing.cast(Action, action))
    advance(table)


def _newest(table: Table, count: int) -> tuple[Event, ...]:
    """The last ``count`` events of the log, oldest first."""
    chain = table.log
    items: list[Event] = []
    while count > 0 and chain is not None:
        event, chain = chain
        items.append(event)  # type: ignore[arg-type]
        count -= 1
    items.reverse()
    return tuple(items)


def advance(table: Table) -> None:
    """Run the flow up to the next real choice or the end of the game (spec 5.4)."""
    while table.result is None and table.steps:
        step = table.steps[-1]
        if isinstance(step, _BeginTurn):
            table.steps.pop()
            _begin_turn(table, step.player)
            continue
        if isinstance(step, _PowerEffect):
            table.steps.pop()
            powers.run_effect(table, step)
            continue
        turn_action = isinstance(step, _ChooseAction)
        if turn_action and drawing.two_draws(table):
            # Hot path: a turn's action is a real choice as soon as two draws are open, so
            # its plays are not looked for here; legal_actions() builds them when asked, and
            # apply() checks an action it did not hand out by its own rule (a replay).
            table.options = None
            return
        if turn_action:
            choices: list[Action] | LegalActions = options(table, step)
        else:
            # Hot path: most steps here are checks (a feeding, the Objectives) that offer
            # nothing or one action, taken at once: the plain list serves, and the lazy
            # sequence is built only for a real choice.
            choices = _other_options(table, step)
        count = len(choices)
        if count == 0:  # nothing left to decide here (a feeding or a check is over)
            table.steps.pop()
        elif count == 1 and not isinstance(step, ALWAYS_ASKED):
            take(table, step, choices[0], by_engine=True)
        else:
            # kept for legal_actions(): the same list, not recomputed
            table.options = choices if isinstance(choices, LegalActions) else _ready(choices)
            return


def _begin_turn(table: Table, player: int) -> None:
    table.active = player
    table.emit(_TURN_BEGAN[player])
    table.steps.append(_CHOOSE_ACTION[player, 1])
    feeding.begin_feeding(table, player)


def options(table: Table, decision: Decision) -> LegalActions:
    """Every legal action for ``decision``, and only those, built as they are read."""
    if isinstance(decision, _ChooseAction):
        player = decision.player
        # 1.12: one choice per face, the copy that has been in the hand longest (1.13);
        # found once for the three kinds of card played
        hand = distinct(table.hands[player], table.cards.face_ids)
        return LegalActions(
            [
                *drawing.draw_options(table, player),
                *nature.nature_options(table, player, hand),
                *life.life_options(table, player, hand),
                *powers.power_options(table, player, hand),
            ]
        )
    return _ready(_other_options(table, decision))


def _ready(actions: list[Action]) -> LegalActions:
    """The legal actions of a decision other than a turn's action, all built already."""
    return LegalActions([ready(actions)])


def _other_options(table: Table, decision: Decision) -> list[Action]:
    """Every legal action for a decision other than a turn's action."""
    player = decision.player
    match decision:
        case ChooseFeeding():
            return feeding.feeding_options(table, decision)
        case ChooseLimitDiscard():
            return drawing.discard_options(table, player)
        case ChooseObjective():
            return objectives.objective_options(table, decision)
        case ChoosePawnCities():
            return [
                PlaceCityPawn(player, pos)
                for pos in decision.cities
                if pawns_wanted(table, player, pos)
            ]
        case ChooseProtection():
            return powers.protection_options(table, decision)
        case ChooseBack():
            return powers.back_options(table, decision)
        case ChooseKeptCard():
            return powers.keep_options(table, decision)
        case ChooseAction():
            raise AssertionError(decision)  # pragma: no cover
    raise AssertionError(decision)  # pragma: no cover


_ACCEPTS: Final[dict[type[Decision], tuple[type[Action], ...]]] = {
    ChooseAction: (DrawDisplay, DrawDeck, PlayNature, PlayAnimals, PlayCity, *_POWER_PLAYS),
    ChooseFeeding: (Feed,),
    ChooseLimitDiscard: (Discard,),
    ChooseObjective: (FulfillObjective, DeclineObjectives),
    ChoosePawnCities: (PlaceCityPawn,),
    ChooseProtection: (Protect, PassProtection),
    ChooseBack: (NameBack,),
    ChooseKeptCard: (KeepCard,),
}


_ACTION_CLASSES: Final = frozenset(kind for kinds in _ACCEPTS.values() for kind in kinds)

_WRONG_FIELD: Final[dict[object, str]] = {Pos: "3.1", str: "2.9", int: "5.4", CardKind: "3.8"}
"""The clause a field holding a value of the wrong type breaks, by the type it must have."""


def _malformed(action: object) -> Refusal | None:
    """``action`` broken by the rule for untrusted input (spec 1.10a): not an instance of
    exactly one of the action classes, or a field of the wrong type.

    Actions are frozen values, but Python does not check what they are built with, and an
    action that reaches the engine from outside may hold anything. A square equals the plain
    tuple of its coordinates, ``Pos(1.0, 0)`` equals ``Pos(1, 0)`` and ``True`` equals the
    seat 1, so such values would pass the rules' comparisons and then stand in the game
    where a square or a seat belongs.
    """
    kind = type(action)
    if kind not in _ACTION_CLASSES:
        if isinstance(action, tuple(_ACTION_CLASSES)):
            return Refusal(
                "1.10a", f"{kind.__name__} is a subclass, not one of the library's actions"
            )
        return None  # not an action at all: it answers no decision (5.4)
    problems = value_problems(action, kind)
    if not problems:
        return None
    first = problems[0]
    clause = _WRONG_FIELD.get(first.expected, "1.10a")
    return Refusal(clause, f"{first.where('action')}: {first.message}")


def refusal(table: Table, decision: Decision | None, action: object) -> Refusal | None:
    """Why ``action`` is not legal now, or ``None`` when it is (spec 1.7)."""
    if decision is None:
        return Refusal("15.1", "the game is over")
    malformed = _malformed(action)
    if malformed is not None:
        return malformed
    accepted = _ACCEPTS[type(decision)]
    if type(action) not in accepted:
        wanted = ", ".join(t.__name__ for t in accepted)
        return Refusal(
            "5.4",
            f"{type(action).__name__} does not answer {type(decision).__name__} "
            f"(it takes {wanted})",
        )
    assert isinstance(action, accepted)
    if action.player != decision.player:
        return Refusal("5.4", f"seat {decision.player} is to move, not seat {action.player!r}")
    if isinstance(action, _POWER_PLAYS):
        return powers.refuse_power(table, action)
    match action:
        case DrawDisplay() | DrawDeck():
            return drawing.refuse_draw(table, action)
        case PlayNature():
            return nature.refuse_nature(table, action)
        case PlayAnimals():
            return life.refuse_animals(table, action)
        case PlayCity():
            return life.refuse_city(table, action)
        case Feed():
            assert isinstance(decision, ChooseFeeding)
            return feeding.refuse_feed(table, decision, action)
        case Discard():
            return drawing.refuse_discard(table, action)
        case FulfillObjective() | DeclineObjectives():
            assert isinstance(decision, ChooseObjective)
            return objectives.refuse_objective(table, decision, action)
        case PlaceCityPawn():
            assert isinstance(decision, ChoosePawnCities)
            if action.city not in decision.cities or not pawns_wanted(
                table, action.player, action.city
            ):
                return Refusal("10.5", f"{action.city} is not a raised city that takes a pawn")
            return None
        case Protect():
            return powers.refuse_protect(table, action)
        case PassProtection():
            return None
        case NameBack():
            assert isinstance(decision, ChooseBack)
            if action not in powers.back_options(table, decision):
                victim = action.victim
                seats = range(len(table.hands))
                if victim != action.player and victim in seats and not table.hands[victim]:
                    why = f"seat {victim} holds no card: a player with an empty hand is skipped"
                    return Refusal("13.8d", why)
                return Refusal("13.8a", "name a back of a card in that player's hand")
            return None
        case KeepCard():
            if action.card not in [card for card, _ in table.stolen]:
                return Refusal("13.8c", f"{action.card!r} is not one of the stolen cards")
            return None
    raise AssertionError(action)  # pragma: no cover


def take(table: Table, decision: Decision, action: Action, *, by_engine: bool = False) -> None:
    """Carry out a legal ``action`` for the pending ``decision`` (the top step)."""
    table.options = None
    table.steps.pop()
    table.emit(constructors.action_taken(action.player, action, by_engine))
    if not by_engine:
        table.actions = (action, table.actions)
    # Hot path: a turn's action, most decisions, found by its exact type (an action is of
    # exactly one of the library's classes: 1.10a) with one set look-up, where the patterns
    # below are tried one by one
    if type(action) in _TURN_ACTIONS:
        assert isinstance(decision, _ChooseAction)
        _after_action(table, decision)
        _turn_action(table, action)
        return
    match action:
        case _ if isinstance(action, _POWER_PLAYS):
            assert isinstance(decision, ChooseAction)
            _after_action(table, decision)
            powers.play_power(table, action)
        case Protect():
            assert isinstance(decision, ChooseProtection)
            powers.protect(table, decision, action)
        case PassProtection():
            assert isinstance(decision, ChooseProtection)
            powers.pass_protection(table, decision)
        case NameBack():
            assert isinstance(decision, ChooseBack)
            powers.name_back(table, decision, action)
        case KeepCard():
            powers.keep_card(table, action)
        case Feed():
            assert isinstance(decision, ChooseFeeding)
            feeding.feed(table, decision, action)
        case Discard():
            drawing.limit_discard(table, action)
        case FulfillObjective():
            objectives.fulfil(table, action)
        case DeclineObjectives():
            pass  # 8.4: offered again at the next check
        case PlaceCityPawn():
            assert isinstance(decision, ChoosePawnCities)
            player, city = action.player, action.city
            take_city(
                table, player, city, min(pawns_wanted(table, player, city), table.supply[player])
            )
            if table.result is None:
                rest = tuple(c for c in decision.cities if c != city)
                table.steps.append(ChoosePawnCities(player, rest))


def _after_action(table: Table, decision: ChooseAction) -> None:
    """What follows the action: the turn's next action, or the next seat's turn (5.2, 5.5)."""
    if decision.number < ACTIONS_PER_TURN:
        table.steps.append(_CHOOSE_ACTION[decision.player, decision.number + 1])
    else:
        table.steps.append(_BEGIN_TURN[(decision.player + 1) % table.players])


def _turn_action(table: Table, action: Action) -> None:
    if isinstance(action, _DRAWS):
        drawing.draw(table, action)
    elif isinstance(action, _PlayNature):
        nature.play_nature(table, action)
    elif isinstance(action, _PlayAnimals):
        life.play_animals(table, action)
    else:
        assert isinstance(action, PlayCity)  # one of `_TURN_ACTIONS`
        life.play_city(table, action)
