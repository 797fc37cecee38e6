"""Plain-text renderings: one line per event, and the world as a grid, for terminals and logs."""

from __future__ import annotations

import re

from gaia_rules.cards import AnimalCard, CardId, CityCard, NatureCard, Objective, PowerCard
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDiscarded,
    CardDrawn,
    CardKept,
    CardStolen,
    CityDiscarded,
    CityPlaced,
    CityTaken,
    DisplayRefilled,
    EndReason,
    Event,
    GameEnded,
    NatureCardPlayed,
    ObjectiveFulfilled,
    PawnPlaced,
    PawnReturned,
    PowerCancelled,
    PowerPlayed,
    SatisfactionChanged,
    StolenCardsSeen,
    TilePlaced,
    TileReplaced,
    TilesSwapped,
    TokensReturned,
    TurnBegan,
)
from gaia_rules.manifest import Manifest
from gaia_rules.notation import format_action
from gaia_rules.state import GameState
from gaia_rules.views import View
from gaia_rules.vocabulary import Land, Pos

__all__ = ["COLOURS", "REASONS", "describe", "face_words", "world_text"]

COLOURS = ("blue", "yellow", "green", "red", "white")
"""The pawn colours, in seat order (cosmetic, spec 1.4)."""

REASONS = {
    EndReason.ALL_PAWNS_PLACED: "all pawns placed",
    EndReason.EXHAUSTION: "a deck ran out",
}
"""Why a game ended, in words."""

_LAND_LETTER = {
    Land.DESERT: "D",
    Land.PLAIN: "P",
    Land.SWAMP: "S",
    Land.SEA: "W",
    Land.MOUNTAIN: "M",
    Land.FOREST: "F",
}


_CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")


def face_words(cards: Manifest, card: CardId) -> str:
    """What a card shows, in words, without its id: ``mountain``, ``city Akkad``, ``animals on
    forest``, ``tornado``, ``objective plain, plain, forest, forest``."""
    face = cards.face(card)
    match face:
        case NatureCard(land):
            return land.value
        case CityCard(name, _, _):
            return f"city {name}"
        case AnimalCard(site):
            return f"animals on {site.value}"
        case PowerCard(power):
            return power.value
        case Objective(lands, powers):
            if powers:
                return f"objective {powers} Power cards"
            return f"objective {', '.join(land.value for land in lands)}"
    raise AssertionError(face)  # pragma: no cover


def describe(event: Event, cards: Manifest | None = None, seat: int | None = None) -> str:
    """One line of text for an event.

    With the manifest ``cards``, the cards it names are shown by their faces, never their ids
    (a seat is told the id only of its own cards, spec 1.14; copies of a face look alike), but
    in an event of ``seat``'s own, whose cards it holds by their ids."""
    line = _describe(event)
    if cards is None or getattr(event, "player", None) == seat is not None:
        return line
    return _CARD_ID.sub(lambda found: face_words(cards, found.group(0)), line)


def _describe(event: Event) -> str:
    match event:
        case TurnBegan(player):
            return f"-- turn of seat {player} ({COLOURS[player]})"
        case ActionTaken(player, None, _):
            return f"{player}: (a choice hidden from this seat)"
        case ActionTaken(_, action, by_engine) if action is not None:
            return f"{format_action(action)}{'   (only option)' if by_engine else ''}"
        case CardDrawn(player, kind, card, from_display):
            source = "the display" if from_display else f"the {kind.value} deck"
            return f"   seat {player} takes {card or 'a ' + kind.value + ' card'} from {source}"
        case DisplayRefilled(kind, card):
            return f"   {card} turns face up in the {kind.value} display"
        case CardDiscarded(player, card):
            return f"   seat {player} discards {card}"
        case NatureCardPlayed(player, card):
            return f"   {card} goes in front of seat {player}"
        case TilePlaced(pos, land):
            return f"   a {land.value} tile goes on {pos}"
        case AnimalsPlaced(_, card, pos, count):
            return f"   {count} animals go on {pos} ({card} discarded)"
        case TokensReturned(pos, count):
            if count == 1:
                return f"   1 token from {pos} returns to the bank"
            return f"   {count} tokens from {pos} return to the bank"
        case CityPlaced(_, card, pos):
            return f"   city {card} is built on {pos}"
        case SatisfactionChanged(pos, before, after):
            return f"   the city on {pos} goes from {before} to {after} needs met"
        case CityDiscarded(card, pos):
            return f"   city {card} on {pos} is discarded"
        case PawnPlaced(player, pos):
            return f"   seat {player} puts a pawn on the city on {pos}"
        case PawnReturned(player, pos):
            return f"   seat {player}'s pawn returns from the city on {pos}"
        case ObjectiveFulfilled(player, objective, cards):
            return f"   seat {player} fulfils {objective} with {', '.join(cards)}"
        case CityTaken(player, pos, from_player):
            return f"   seat {player} takes the city on {pos} from seat {from_player}"
        case PowerPlayed(player, card):
            return f"   {card} goes in front of seat {player}"
        case PowerCancelled(player, card, cancelled):
            return f"   seat {player} plays Protection {card}: {cancelled} has no effect"
        case TileReplaced(pos, old, new):
            return f"   the {old.value} on {pos} becomes a {new.value}"
        case TilesSwapped(first, second):
            return f"   the tiles on {first} and {second} swap"
        case CardStolen(player, victim, kind, card):
            return (
                f"   seat {player} takes {card or 'a ' + kind.value + ' card'} from seat {victim}"
            )
        case StolenCardsSeen(player, cards):
            return f"   seat {player} looks at {', '.join(cards) if cards else 'the stolen cards'}"
        case CardKept(player, from_player, card):
            return f"   seat {player} keeps {card or 'a card'} taken from seat {from_player}"
        case GameEnded(result):
            return (
                f"== game over: seat {result.winner} wins ({REASONS[result.reason]}); "
                f"pawns placed {list(result.pawns_placed)}"
            )
    raise AssertionError(event)  # pragma: no cover


def world_text(state: GameState | View) -> str:
    """The world as a grid: one cell per square, ``P`` a plain, ``P4`` a plain with 4 tokens,
    ``P#`` a plain under a city, followed by a legend of the cities.

    The world is public, so a seat's :class:`~gaia_rules.views.View` draws the same grid as
    the full :class:`~gaia_rules.state.GameState`."""
    if not state.tiles:
        return "(the world is empty)"
    xs = [pos.x for pos in state.tiles]
    ys = [pos.y for pos in state.tiles]
    rows = []
    header = "      " + "".join(f"{x:>5}" for x in range(min(xs), max(xs) + 1))
    rows.append(header)
    for y in range(min(ys), max(ys) + 1):
        cells = []
        for x in range(min(xs), max(xs) + 1):
            pos = Pos(x, y)
            land = state.tiles.get(pos)
            if land is None:
                cells.append("    .")
                continue
            mark = "#" if pos in state.cities else str(state.animals.get(pos, ""))
            cells.append(f"{_LAND_LETTER[land] + mark:>5}")
        rows.append(f"{y:>5} " + "".join(cells))
    legend = [
        "",
        "D desert  P plain  S swamp  W sea  M mountain  F forest; # a city; digits tokens",
    ]
    for pos, city in state.cities.items():
        face = state.rules.cards.city(city.card)
        pawns = ", ".join(COLOURS[p] for p in city.pawns) or "empty"
        legend.append(
            f"  {pos}: {face.name} ({city.card}), needs met {city.satisfaction}/4, pawns: {pawns}"
        )
    return "\n".join(rows + legend)
