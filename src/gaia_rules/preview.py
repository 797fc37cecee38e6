"""What a Power would do, worked out from one seat's view: for a front end to show before a
choice is confirmed, and beside a Protection prompt (spec 13.3, 13.9).

A Power's effect on the world depends on public things only: the tiles, tokens, cities and
pawns, the supplies of tiles and pawns (spec 1.5).
[`power_preview`][gaia_rules.preview.power_preview] reads them from a
[`View`][gaia_rules.views.View], never from a game: it carries the effect
out on a game sampled from the view ([`determinize`][gaia_rules.determinize.determinize]),
whose hidden cards are made up, so what it returns cannot depend on a hidden card. A
Tornado's draws are hidden and random: its preview names the seats it would take from, in
turn, and no card.

    >>> import gaia_rules as gr
    >>> from gaia_rules.preview import power_preview
    >>> position = (
    ...     gr.PositionBuilder(players=2, rules=gr.Rules.disasters())
    ...     .tile(0, 0, gr.Land.MOUNTAIN)
    ...     .tile(1, 0, gr.Land.PLAIN)
    ...     .tile(2, 0, gr.Land.SEA)
    ...     .tile(1, 1, gr.Land.FOREST)
    ...     .city(1, 0, "C04", pawns=[1])
    ...     .hand(0, "P29")
    ...     .build()
    ... )
    >>> game = position.to_game()
    >>> preview = power_preview(game.view(0), gr.PlayEruption(0, "P29", gr.Pos(0, 0)))
    >>> [type(event).__name__ for event in preview.events]
    ['SatisfactionChanged', 'PawnReturned', 'CityDiscarded', 'TileReplaced']
    >>> preview.squares
    (Pos(0, 0), Pos(1, 0))
"""

from __future__ import annotations

import random

import attrs

from gaia_rules.actions import PlayEarthquake, PlayEruption, PlayTornado, PowerPlay
from gaia_rules.decisions import ChooseProtection, PowerEffect
from gaia_rules.determinize import determinize
from gaia_rules.errors import GaiaRulesError, IllegalActionError
from gaia_rules.events import Event
from gaia_rules.powers import left_of, refuse_power, run_effect
from gaia_rules.table import Table
from gaia_rules.views import View
from gaia_rules.vocabulary import Pos

__all__ = ["PowerPreview", "pending_power", "power_preview"]

_SAMPLE_SEED = 0
"""The hidden cards of the sampled game: any will do, since the effect never reads them."""


@attrs.frozen
class PowerPreview:
    """What the effect of a Power card would do (spec 13.4-13.8, 14.2, 14.3).

    Attributes:
        action: The Power play previewed.
        squares: The squares the effect touches: its target, both tiles of an Earthquake,
            an erupting mountain and its neighbours in play.
        events: The events the effect would cause, oldest first: tiles replaced or swapped,
            cities discarded, tokens returned, satisfaction changed, pawns returned, placed
            and taken, and the end of the game if its player places his last pawn, as
            [`Game.apply`][gaia_rules.game.Game.apply] would log them once every Protection
            window has passed. Empty for a Tornado.
        victims: For a Tornado, the seats it takes a card from, in turn (spec 13.8a); empty
            for every other Power.
    """

    action: PowerPlay
    squares: tuple[Pos, ...]
    events: tuple[Event, ...]
    victims: tuple[int, ...]


def pending_power(view: View) -> PowerPlay | None:
    """The Power play whose effect waits under the Protection window the view's decision
    opens, or ``None`` when no Protection is being decided (spec 13.9b)."""
    if not isinstance(view.decision, ChooseProtection):
        return None
    for step in reversed(view.steps):
        if isinstance(step, PowerEffect):
            return step.action
    return None  # pragma: no cover (a Protection window always has its effect beneath it)


def power_preview(view: View, action: PowerPlay) -> PowerPreview:
    """What ``action`` would do, from what ``view`` shows.

    ``action`` is either a Power play the view's seat may make now, or the Power waiting
    under the Protection window the view's decision opens (see
    [`pending_power`][gaia_rules.preview.pending_power]), whoever played it.

    Raises:
        GaiaRulesError: ``action`` is not a Power play, or the view shows a game that is
            over.
        IllegalActionError: ``action`` is neither the pending Power nor a Power play the
            view's seat may make now; its clause is the rule it breaks.
    """
    if not isinstance(action, PowerPlay):
        raise GaiaRulesError(f"action: expected a Power play, got {type(action).__name__}")
    if view.result is not None:
        raise GaiaRulesError("the game is over: no Power will take effect")
    table: Table = determinize(view, random.Random(_SAMPLE_SEED))._table
    if action != pending_power(view):
        if view.to_move != view.seat or action.player != view.seat:
            raise IllegalActionError("5.4", f"seat {view.seat} is not deciding a Power play now")
        refused = refuse_power(table, action)
        if refused is not None:
            raise IllegalActionError(refused.clause, refused.reason)
    victims: tuple[int, ...] = ()
    if isinstance(action, PlayTornado):
        victims = tuple(
            seat for seat in left_of(action.player, view.players) if view.hand_backs[seat]
        )
        return PowerPreview(action, (), (), victims)
    start = table.log_length
    run_effect(table, PowerEffect(action))
    return PowerPreview(action, _squares(table, action), _newest(table, start), victims)


def _squares(table: Table, action: PowerPlay) -> tuple[Pos, ...]:
    match action:
        case PlayEarthquake(_, _, first, second):
            return (first, second)
        case PlayEruption(_, _, pos):
            return (pos, *(near for near in pos.neighbours() if near in table.tiles))
    target: Pos | None = getattr(action, "pos", None)  # Sun, Rain, Lightning
    return () if target is None else (target,)


def _newest(table: Table, start: int) -> tuple[Event, ...]:
    """The events logged since the log held ``start`` of them, oldest first."""
    found: list[Event] = []
    chain = table.log
    for _ in range(table.log_length - start):
        assert chain is not None
        event, chain = chain
        found.append(event)  # type: ignore[arg-type]
    return tuple(reversed(found))
