"""The action notation: a short text for every action, printed and parsed by the library.

An action is written as its seat, a colon, one space, a verb and its words, separated by
single spaces. A square is ``x,y`` without leading zeros; a card is its id.

| action | notation |
| --- | --- |
| take a face-up card | ``1: draw N07`` |
| draw from a deck | ``1: draw nature`` (``life``, ``power``) |
| play a card on a square | ``1: play N07 2,-1`` (Nature, Animals, City) |
| feed a city | ``1: feed 0,1 from 1,1`` |
| discard over a limit | ``1: discard C04`` |
| fulfil an Objective | ``1: fulfil O02`` |
| decline Objectives | ``1: decline`` |
| a last pawn on a city | ``1: pawn 2,0`` |
| a Sun, Rain, Lightning or Eruption | ``1: sun P01 2,0`` (``rain``, ``lightning``, ``eruption``) |
| an Earthquake | ``1: earthquake P13 0,0 1,0`` |
| a Tornado | ``1: tornado P16`` |
| play Protection | ``2: protect P20`` |
| let the Power take effect | ``2: pass`` |
| name a back to steal | ``1: steal 2 life`` (from seat 2) |
| keep a stolen card | ``1: keep C04`` |

``parse_action(format_action(a)) == a`` for every action, and
``format_action(parse_action(s)) == s`` for every well-formed text. ``str(action)`` is
``format_action(action)``.
"""

from __future__ import annotations

import re

from gaia_rules import hooks
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
    Protect,
)
from gaia_rules.errors import GaiaRulesError
from gaia_rules.vocabulary import CardKind, Pos

__all__ = ["NotationError", "format_action", "parse_action"]


class NotationError(GaiaRulesError, ValueError):
    """A text that is not an action in the notation; says what is wrong.

    A [`GaiaRulesError`][gaia_rules.errors.GaiaRulesError] and a ``ValueError``. It is not
    re-exported by ``gaia_rules``: import it from ``gaia_rules.notation``.
    """


_PLAYS: dict[str, type[PlayNature] | type[PlayAnimals] | type[PlayCity]] = {
    "N": PlayNature,
    "A": PlayAnimals,
    "C": PlayCity,
}
_POWER_VERBS: dict[type, str] = {
    PlaySun: "sun",
    PlayRain: "rain",
    PlayLightning: "lightning",
    PlayEruption: "eruption",
}
_ON_A_SQUARE: dict[
    str, type[PlaySun] | type[PlayRain] | type[PlayLightning] | type[PlayEruption]
] = {verb: cls for cls, verb in _POWER_VERBS.items()}
_CARD = re.compile(r"[NCAPO][0-9]{2}")
_NUMBER = r"(0|-?[1-9][0-9]*)"  # written one way only: no leading zeros, no -0
_SQUARE = re.compile(rf"{_NUMBER},{_NUMBER}")


def format_action(action: Action) -> str:
    """The notation of an action, for example ``"1: play N07 2,-1"``.

    Raises:
        NotationError: ``action`` is not one of the library's actions.
    """
    seat = f"{getattr(action, 'player', '?')}:"
    match action:
        case DrawDisplay(_, card):
            return f"{seat} draw {card}"
        case DrawDeck(_, kind):
            return f"{seat} draw {kind.value}"
        case PlayNature(_, card, pos) | PlayAnimals(_, card, pos) | PlayCity(_, card, pos):
            return f"{seat} play {card} {pos}"
        case Feed(_, city, source):
            return f"{seat} feed {city} from {source}"
        case Discard(_, card):
            return f"{seat} discard {card}"
        case FulfillObjective(_, objective):
            return f"{seat} fulfil {objective}"
        case DeclineObjectives():
            return f"{seat} decline"
        case PlaceCityPawn(_, city):
            return f"{seat} pawn {city}"
        case (
            PlaySun(_, card, pos)
            | PlayRain(_, card, pos)
            | PlayLightning(_, card, pos)
            | (PlayEruption(_, card, pos))
        ):
            return f"{seat} {_POWER_VERBS[type(action)]} {card} {pos}"
        case PlayEarthquake(_, card, first, second):
            return f"{seat} earthquake {card} {first} {second}"
        case PlayTornado(_, card):
            return f"{seat} tornado {card}"
        case Protect(_, card):
            return f"{seat} protect {card}"
        case PassProtection():
            return f"{seat} pass"
        case NameBack(_, victim, kind):
            return f"{seat} steal {victim} {kind.value}"
        case KeepCard(_, card):
            return f"{seat} keep {card}"
    raise NotationError(f"not an action: {action!r}")


def _square(text: str) -> Pos:
    match = _SQUARE.fullmatch(text)
    if not match:
        raise NotationError(
            f"{text!r} is not a square: write x,y without leading zeros (for example 2,-1)"
        )
    try:
        return Pos(int(match.group(1)), int(match.group(2)))
    except ValueError:  # more digits than Python converts
        raise NotationError(f"{text[:40]!r}...: a coordinate too long to read") from None


def _card(text: str) -> str:
    if not _CARD.fullmatch(text):
        raise NotationError(f"{text!r} is not a card id (a letter N, C, A, P or O and 2 digits)")
    return text


def parse_action(text: str) -> Action:
    """The action a notation text names.

    Only the form is checked: whether the action is legal is for
    [`Game.apply`][gaia_rules.game.Game.apply] to say.

    Args:
        text: One action in the notation, such as ``"1: feed 0,1 from 1,1"``.

    Raises:
        NotationError: ``text`` is not a text, or not an action in the notation (a missing
            seat, a wrong spacing, an unknown verb, a wrong number of words, a bad card id
            or square); the message says what is wrong.
    """
    if not isinstance(text, str):
        raise NotationError(f"expected a text, got {type(text).__name__}")
    head, colon, rest = text.partition(":")
    if not colon or not re.fullmatch(r"[0-9]", head):
        raise NotationError(f"{text!r}: an action starts with its seat, like '1: draw nature'")
    seat = int(head)
    words = rest.split(" ")
    if not rest.startswith(" ") or "" in words[1:]:
        raise NotationError(f"{text!r}: write one space after the colon and between words")
    verb, args = words[1], words[2:]
    arity = {
        "draw": 1,
        "play": 2,
        "feed": 3,
        "discard": 1,
        "fulfil": 1,
        "decline": 0,
        "pawn": 1,
        **{verb: 2 for verb in _ON_A_SQUARE},
        "earthquake": 3,
        "tornado": 1,
        "protect": 1,
        "pass": 0,
        "steal": 2,
        "keep": 1,
    }
    if verb not in arity:
        raise NotationError(f"{text!r}: unknown verb {verb!r}; expected one of {sorted(arity)}")
    if len(args) != arity[verb]:
        raise NotationError(f"{text!r}: {verb!r} takes {arity[verb]} word(s)")
    if verb == "draw":
        kinds = {kind.value: kind for kind in CardKind}
        if args[0] in kinds:
            return DrawDeck(seat, kinds[args[0]])
        return DrawDisplay(seat, _card(args[0]))
    if verb == "play":
        card = _card(args[0])
        if card[0] not in _PLAYS:
            raise NotationError(f"{text!r}: {card} is not played on a square")
        return _PLAYS[card[0]](seat, card, _square(args[1]))
    if verb == "feed":
        if args[1] != "from":
            raise NotationError(f"{text!r}: write 'feed CITY from SOURCE'")
        return Feed(seat, _square(args[0]), _square(args[2]))
    if verb == "discard":
        return Discard(seat, _card(args[0]))
    if verb == "fulfil":
        return FulfillObjective(seat, _card(args[0]))
    if verb == "decline":
        return DeclineObjectives(seat)
    if verb == "pawn":
        return PlaceCityPawn(seat, _square(args[0]))
    if verb in _ON_A_SQUARE:
        return _ON_A_SQUARE[verb](seat, _card(args[0]), _square(args[1]))
    if verb == "earthquake":
        return PlayEarthquake(seat, _card(args[0]), _square(args[1]), _square(args[2]))
    if verb == "tornado":
        return PlayTornado(seat, _card(args[0]))
    if verb == "protect":
        return Protect(seat, _card(args[0]))
    if verb == "pass":
        return PassProtection(seat)
    if verb == "steal":
        kinds = {kind.value: kind for kind in CardKind}
        if not re.fullmatch(r"[0-9]", args[0]) or args[1] not in kinds:
            raise NotationError(f"{text!r}: write 'steal SEAT BACK', like 'steal 2 life'")
        return NameBack(seat, int(args[0]), kinds[args[1]])
    return KeepCard(seat, _card(args[0]))


hooks.format_action = format_action
