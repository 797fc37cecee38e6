"""The values a decision makes most often, made without attrs' interpreted ``__init__``.

Hot path. A random decision makes about four events, actions and decision steps (an
``ActionTaken`` at each, a ``CardDrawn`` at about every second, and so on). Their classes are
attrs classes and stay interpreted in the compiled build (see ``hatch_build.py``), so each
``ActionTaken(...)`` there runs attrs' generated ``__init__`` in the interpreter. The
functions here make the same frozen value with ``object.__new__`` and ``object.__setattr__``
(which is what that ``__init__`` does), and compiled they run without the interpreter: 0.16 µs
a value against 0.41 measured alone, and 7% fewer instructions a random decision compiled
(``benchmarks/README.md``). Interpreted, the classes' own ``__init__`` is the quicker, so in
the pure wheel the public names below are the classes themselves.

Each function takes its class's fields in their order and sets every one of them; the value
is equal to the class's own, and ``tests/test_constructors.py`` checks that for each, on both
wheels, and that each sets every field its class has.
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType
from typing import Final

from gaia_rules.actions import (
    Action,
    DrawDeck,
    DrawDisplay,
    Feed,
    PlayAnimals,
    PlayCity,
    PlayNature,
)
from gaia_rules.cards import CardId
from gaia_rules.decisions import ChooseFeeding
from gaia_rules.events import (
    ActionTaken,
    AnimalsPlaced,
    CardDrawn,
    CityPlaced,
    DisplayRefilled,
    NatureCardPlayed,
    PawnPlaced,
    SatisfactionChanged,
    TilePlaced,
    TokensReturned,
)
from gaia_rules.vocabulary import CardKind, Land, Pos

__all__ = [
    "COMPILED",
    "action_taken",
    "animals_placed",
    "card_drawn",
    "choose_feeding",
    "city_placed",
    "display_refilled",
    "draw_deck",
    "draw_display",
    "feed",
    "nature_card_played",
    "pawn_placed",
    "play_animals",
    "play_city",
    "play_nature",
    "satisfaction_changed",
    "tile_placed",
    "tokens_returned",
]

# Each body is written out: ``object.__new__`` and ``object.__setattr__`` named in the call
# itself are what mypyc compiles to C calls (through a module-level alias they are generic
# calls again, measured 1.8 times slower).

# -- events -------------------------------------------------------------------------------


def _action_taken(player: int, action: Action | None, by_engine: bool) -> ActionTaken:
    """``ActionTaken(player, action, by_engine)``."""
    made = object.__new__(ActionTaken)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "action", action)
    object.__setattr__(made, "by_engine", by_engine)
    return made


def _card_drawn(player: int, kind: CardKind, card: CardId | None, from_display: bool) -> CardDrawn:
    """``CardDrawn(player, kind, card, from_display)``."""
    made = object.__new__(CardDrawn)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "kind", kind)
    object.__setattr__(made, "card", card)
    object.__setattr__(made, "from_display", from_display)
    return made


def _display_refilled(kind: CardKind, card: CardId) -> DisplayRefilled:
    """``DisplayRefilled(kind, card)``."""
    made = object.__new__(DisplayRefilled)
    object.__setattr__(made, "kind", kind)
    object.__setattr__(made, "card", card)
    return made


def _nature_card_played(player: int, card: CardId) -> NatureCardPlayed:
    """``NatureCardPlayed(player, card)``."""
    made = object.__new__(NatureCardPlayed)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    return made


def _tile_placed(pos: Pos, land: Land) -> TilePlaced:
    """``TilePlaced(pos, land)``."""
    made = object.__new__(TilePlaced)
    object.__setattr__(made, "pos", pos)
    object.__setattr__(made, "land", land)
    return made


def _tokens_returned(pos: Pos, count: int) -> TokensReturned:
    """``TokensReturned(pos, count)``."""
    made = object.__new__(TokensReturned)
    object.__setattr__(made, "pos", pos)
    object.__setattr__(made, "count", count)
    return made


def _satisfaction_changed(pos: Pos, before: int, after: int) -> SatisfactionChanged:
    """``SatisfactionChanged(pos, before, after)``."""
    made = object.__new__(SatisfactionChanged)
    object.__setattr__(made, "pos", pos)
    object.__setattr__(made, "before", before)
    object.__setattr__(made, "after", after)
    return made


def _animals_placed(player: int, card: CardId, pos: Pos, count: int) -> AnimalsPlaced:
    """``AnimalsPlaced(player, card, pos, count)``."""
    made = object.__new__(AnimalsPlaced)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    object.__setattr__(made, "pos", pos)
    object.__setattr__(made, "count", count)
    return made


def _city_placed(player: int, card: CardId, pos: Pos) -> CityPlaced:
    """``CityPlaced(player, card, pos)``."""
    made = object.__new__(CityPlaced)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    object.__setattr__(made, "pos", pos)
    return made


def _pawn_placed(player: int, pos: Pos) -> PawnPlaced:
    """``PawnPlaced(player, pos)``."""
    made = object.__new__(PawnPlaced)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "pos", pos)
    return made


# -- actions ------------------------------------------------------------------------------


def _draw_display(player: int, card: CardId) -> DrawDisplay:
    """``DrawDisplay(player, card)``."""
    made = object.__new__(DrawDisplay)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    return made


def _draw_deck(player: int, kind: CardKind) -> DrawDeck:
    """``DrawDeck(player, kind)``."""
    made = object.__new__(DrawDeck)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "kind", kind)
    return made


def _play_nature(player: int, card: CardId, pos: Pos) -> PlayNature:
    """``PlayNature(player, card, pos)``."""
    made = object.__new__(PlayNature)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    object.__setattr__(made, "pos", pos)
    return made


def _play_animals(player: int, card: CardId, pos: Pos) -> PlayAnimals:
    """``PlayAnimals(player, card, pos)``."""
    made = object.__new__(PlayAnimals)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    object.__setattr__(made, "pos", pos)
    return made


def _play_city(player: int, card: CardId, pos: Pos) -> PlayCity:
    """``PlayCity(player, card, pos)``."""
    made = object.__new__(PlayCity)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "card", card)
    object.__setattr__(made, "pos", pos)
    return made


def _feed(player: int, city: Pos, source: Pos) -> Feed:
    """``Feed(player, city, source)``."""
    made = object.__new__(Feed)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "city", city)
    object.__setattr__(made, "source", source)
    return made


# -- decisions ----------------------------------------------------------------------------


def _choose_feeding(player: int, cities: tuple[Pos, ...]) -> ChooseFeeding:
    """``ChooseFeeding(player, cities)``."""
    made = object.__new__(ChooseFeeding)
    object.__setattr__(made, "player", player)
    object.__setattr__(made, "cities", cities)
    return made


# -- the names the rules call ---------------------------------------------------------


def _compiled() -> bool:
    """Whether this module was compiled (mypyc makes its functions built-in functions)."""
    return not isinstance(_action_taken, FunctionType)


COMPILED: Final = _compiled()
"""Whether the rules run compiled (the compiled wheel compiles this module with them), for
the few hot paths whose quickest code differs between the two wheels."""

# Compiled, the functions above; interpreted (the pure wheel), the classes themselves, whose
# attrs ``__init__`` is the quicker there (measured 0.34 µs against 0.43 for ``_action_taken``
# run by the interpreter).

action_taken: Final[Callable[[int, Action | None, bool], ActionTaken]] = (
    _action_taken if COMPILED else ActionTaken
)
card_drawn: Final[Callable[[int, CardKind, CardId | None, bool], CardDrawn]] = (
    _card_drawn if COMPILED else CardDrawn
)
display_refilled: Final[Callable[[CardKind, CardId], DisplayRefilled]] = (
    _display_refilled if COMPILED else DisplayRefilled
)
nature_card_played: Final[Callable[[int, CardId], NatureCardPlayed]] = (
    _nature_card_played if COMPILED else NatureCardPlayed
)
tile_placed: Final[Callable[[Pos, Land], TilePlaced]] = _tile_placed if COMPILED else TilePlaced
tokens_returned: Final[Callable[[Pos, int], TokensReturned]] = (
    _tokens_returned if COMPILED else TokensReturned
)
animals_placed: Final[Callable[[int, CardId, Pos, int], AnimalsPlaced]] = (
    _animals_placed if COMPILED else AnimalsPlaced
)
city_placed: Final[Callable[[int, CardId, Pos], CityPlaced]] = (
    _city_placed if COMPILED else CityPlaced
)
pawn_placed: Final[Callable[[int, Pos], PawnPlaced]] = _pawn_placed if COMPILED else PawnPlaced
satisfaction_changed: Final[Callable[[Pos, int, int], SatisfactionChanged]] = (
    _satisfaction_changed if COMPILED else SatisfactionChanged
)
draw_display: Final[Callable[[int, CardId], DrawDisplay]] = (
    _draw_display if COMPILED else DrawDisplay
)
draw_deck: Final[Callable[[int, CardKind], DrawDeck]] = _draw_deck if COMPILED else DrawDeck
play_nature: Final[Callable[[int, CardId, Pos], PlayNature]] = (
    _play_nature if COMPILED else PlayNature
)
play_animals: Final[Callable[[int, CardId, Pos], PlayAnimals]] = (
    _play_animals if COMPILED else PlayAnimals
)
play_city: Final[Callable[[int, CardId, Pos], PlayCity]] = _play_city if COMPILED else PlayCity
feed: Final[Callable[[int, Pos, Pos], Feed]] = _feed if COMPILED else Feed
choose_feeding: Final[Callable[[int, tuple[Pos, ...]], ChooseFeeding]] = (
    _choose_feeding if COMPILED else ChooseFeeding
)
