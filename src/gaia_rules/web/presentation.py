"""What the page shows besides a seat's view and log, worked out from public things only: the
result table at the end of a game, and what a Power would do (beside a Protection prompt, and
before a player confirms a Power's target).

Each function returns JSON-ready data; [`state_message`][gaia_rules.web.messages.state_message]
adds the first two to every state a seat receives.
"""

from __future__ import annotations

from typing import Any

from gaia_rules.actions import PowerPlay
from gaia_rules.decisions import ChooseProtection
from gaia_rules.events import EndReason, Result
from gaia_rules.game import Game
from gaia_rules.preview import PowerPreview, pending_power, power_preview

__all__ = ["pending_effect", "preview_data", "standings"]


def standings(result: Result) -> dict[str, Any]:
    """The result table of a finished game (spec 15).

    ``rows``: one per seat, the winner first, then by pawns placed (cities, both pawns of a
    four-need city, Objectives), most first, seats with as many sharing a place, in seat
    order. ``tie_break`` is true when the game ended by exhaustion and another seat had
    placed as many pawns as the winner: the winner is then the first of them in seat order
    after the player who ended the game, who counts last (spec 15.4).
    """
    placed = result.pawns_placed
    best = placed[result.winner]
    tied = [seat for seat, count in enumerate(placed) if count == best]
    others = sorted(
        (seat for seat in range(len(placed)) if seat != result.winner),
        key=lambda seat: (-placed[seat], seat),
    )
    rows = [{"seat": result.winner, "pawns_placed": best, "place": 1, "winner": True}]
    for seat in others:
        ahead = sum(1 for other in others if placed[other] > placed[seat])
        rows.append(
            {"seat": seat, "pawns_placed": placed[seat], "place": 2 + ahead, "winner": False}
        )
    return {
        "reason": result.reason.value,
        "winner": result.winner,
        "ended_by": result.ended_by,
        "tie_break": result.reason is EndReason.EXHAUSTION and len(tied) > 1,
        "tied": tied if len(tied) > 1 else [],
        "rows": rows,
    }


def preview_data(preview: PowerPreview) -> dict[str, Any]:
    """A [`PowerPreview`][gaia_rules.preview.PowerPreview] as JSON-ready data: the action in
    the wire format, the squares (``"x,y"``), the events, the Tornado's victims."""
    return {
        "action": preview.action.to_data(),
        "squares": [str(square) for square in preview.squares],
        "events": [event.to_data() for event in preview.events],
        "victims": list(preview.victims),
    }


def pending_effect(game: Game, seat: int | None) -> dict[str, Any] | None:
    """What the Power waiting under the current Protection window would do, as data, or
    ``None`` when no Protection is being decided.

    It is worked out from ``seat``'s view (a spectator's: the view of the Power's player;
    either way only the public world, pawns and supplies are read, see
    [`power_preview`][gaia_rules.preview.power_preview]), so every seat is told the same.
    """
    decision = game.decision
    if not isinstance(decision, ChooseProtection):
        return None
    view = game.view(decision.power_player if seat is None else seat)
    action: PowerPlay | None = pending_power(view)
    if action is None:  # pragma: no cover (a Protection window always has its effect beneath)
        return None
    return preview_data(power_preview(view, action))
