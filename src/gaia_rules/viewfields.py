"""How a view is built: what one seat sees of a table, found field by field (spec 1.5).

`gaia_rules.views` defines the `View` value and hands the building of one here. Hot path:
every bot, server request and RL step builds a view at every decision, and this module
holds no value class, so the optional compiled build (`scripts/build_compiled.py`) compiles
it, where the value classes must stay interpreted; the classes it builds (`View`,
`CityState`) are passed in by the modules that define them, which import this one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from gaia_rules import constructors
from gaia_rules.cards import BACK_BY_LETTER, CardId, kind_of
from gaia_rules.decisions import ChooseKeptCard, ChooseProtection, PowerEffect, Step
from gaia_rules.naming import FaceIds, faced_step
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Land, Pos

if TYPE_CHECKING:
    from gaia_rules.state import CityState

__all__ = ["backs_of", "city_states", "new_view", "public_fields", "stolen_seen"]

V = TypeVar("V")

MakeCity = Callable[[CardId, tuple[int, ...], int], "CityState"]
"""How to make a city's state from its card, its pawns and its satisfaction (`CityState`)."""


def new_view(cls: type[V], table: Table, seat: int, make_city: MakeCity) -> V:
    """The view of ``seat``, an instance of ``cls`` (`View`), its cities made by
    ``make_city`` (spec 1.5).

    Hot path. What is derived from the world alone is kept in square order in the world's
    memo (copied into each view; the cities for the pawns they hold) and the backs of a hand
    are looked up by the hand. The value is written straight into its ``__dict__``, in the
    order of its fields: attrs' ``__init__`` is Python code, which the compiled build cannot
    speed up, and a view has no validator or converter to skip
    (``tests/test_views.py`` checks that the fields written are exactly the class's).
    """
    decision = table.decision
    tiles, animals, cities = _world(table, make_city)
    stolen = table.stolen
    # 1.14: outside the seat's hand and the stolen cards it sees, cards go by their face
    # ids; the table keeps its public piles by face id as it writes them (`Table.discard`)
    face_ids = table.cards.face_ids
    steps = table.steps
    # Hot path: most views follow no Power, so the steps are copied as they are, unless a
    # step names a card (the types checked in C, where a comprehension asked each step)
    shown_steps = (
        tuple(steps)
        if _NAMING_TYPES.isdisjoint(map(type, steps))
        else tuple(
            [_faced_step(step, face_ids) if isinstance(step, _NAMING) else step for step in steps]
        )
    )
    # Hot path: the backs of each hand are looked up by the hand with the dict's own get,
    # and only a hand not found (about one a turn; or an empty hand, whose backs are falsy)
    # through a call of `_known_backs`, which keeps its backs: a call for each hand cost a
    # view about a tenth
    hands = table.hands
    backs = tuple([_BACKS_GET(hand) or _known_backs(hand) for hand in hands])
    view = object.__new__(cls)
    object.__setattr__(  # the class is frozen
        view,
        "__dict__",
        {
            "seat": seat,
            "rules": table.rules,
            "players": table.players,
            "first_player": table.first_player,
            "active": table.active,
            "to_move": None if decision is None else decision.player,
            "decision": (
                _faced_step(decision, face_ids) if isinstance(decision, _NAMING) else decision
            ),
            "hand": hands[seat],
            "hand_backs": backs,
            "deck_sizes": table.deck_sizes.copy(),
            "displays": table.faced_displays.copy(),
            "discards": table.faced_discards.copy(),
            "tiles": tiles.copy(),
            "animals": animals.copy(),
            "cities": cities.copy(),
            "tile_supply": table.tile_supply.copy(),
            "bank": table.bank,
            "tableaux": tuple(table.faced_tableaux),
            "objectives": table.objectives,
            "objective_pawns": table.objective_pawns.copy(),
            "stolen": stolen_seen(table, seat) if stolen else (),
            "supply": tuple(table.supply),
            "total_pawns": table.total_pawns,
            "result": table.result,
            "steps": shown_steps,
            "reached_four": tuple(sorted(table.reached_four)) if table.reached_four else (),
        },
    )
    return view


def _world(
    table: Table, make_city: MakeCity
) -> tuple[dict[Pos, Land], dict[Pos, int], dict[Pos, CityState]]:
    """The tiles, animals and cities of a view in square order, kept in the world's memo
    (the cities for the pawns they hold): the memo's own."""
    memo = table.world_memo()
    tiles = memo.view_tiles
    if tiles is None:
        tiles = memo.view_tiles = dict(sorted(table.tiles.items()))
    animals = memo.view_animals
    if animals is None:
        animals = memo.view_animals = dict(sorted(table.tokens.items()))
    token = table.city_token
    kept = memo.view_cities
    if kept is None or kept[0] is not token:
        kept = memo.view_cities = (token, city_states(table, make_city))
    return tiles, animals, kept[1]


def _shown_steps(steps: Sequence[Step], face_ids: FaceIds) -> tuple[Step, ...]:
    """The pending steps as a view shows them (as `new_view` finds them in its body).

    Hot path: most views follow no Power, so the steps are copied as they are, unless a
    step names a card (the types checked in C, where a comprehension asked each step)."""
    if _NAMING_TYPES.isdisjoint(map(type, steps)):
        return tuple(steps)
    return tuple(
        [_faced_step(step, face_ids) if isinstance(step, _NAMING) else step for step in steps]
    )


def public_fields(table: Table, make_city: MakeCity) -> dict[str, object]:
    """The fields of a view that every seat is told alike (spec 1.5), as `new_view` finds
    them, for a reader of those alone (the tensors of `gaia_rules.openspiel`): no seat, no
    hand, the stolen cards by back and source only.

    Hot path: the tensors of every seat are found from these at every step of an
    environment, so the containers are the table's own, not copies: never change them, nor
    keep them past a change of the table, but for the world's tiles, animals and cities
    (the memo's, never changed: a new memo holds new ones) and the piles (tuples the table
    replaces whole), which a reader may keep and compare."""
    decision = table.decision
    tiles, animals, cities = _world(table, make_city)
    face_ids = table.cards.face_ids
    return {
        "rules": table.rules,
        "players": table.players,
        "active": table.active,
        "decision": (
            _faced_step(decision, face_ids) if isinstance(decision, _NAMING) else decision
        ),
        "hand_backs": tuple([_BACKS_GET(hand) or _known_backs(hand) for hand in table.hands]),
        "deck_sizes": table.deck_sizes,
        "displays": table.faced_displays,
        "discards": table.faced_discards,
        "tiles": tiles,
        "animals": animals,
        "cities": cities,
        "tile_supply": table.tile_supply,
        "bank": table.bank,
        "tableaux": tuple(table.faced_tableaux),
        "objectives": table.objectives,
        "objective_pawns": table.objective_pawns,
        "stolen": tuple((kind_of(card), source, None) for card, source in table.stolen),
        "supply": tuple(table.supply),
        "total_pawns": table.total_pawns,
        "result": table.result,
        "steps": _shown_steps(table.steps, face_ids),
        "reached_four": tuple(sorted(table.reached_four)) if table.reached_four else (),
    }


_NAMING = (ChooseProtection, PowerEffect)
"""The steps that name a card (`faced_step` renames them). Hot path: the other steps are
shown as they are, without a call for each (which cost a view about a fifth)."""

_NAMING_TYPES: Final = frozenset(_NAMING)
"""The classes of `_NAMING` (final classes: a step names a card if its type is one)."""


def _faced_step(step: Step, face_ids: FaceIds) -> Step:
    """`faced_step`, for the steps every view shows.

    Hot path: a step that names a card waits under several decisions (a Power's effect under
    its Protection window and its Objective checks), and renaming it builds a new value
    (``attrs.evolve``), so the renaming of each such step is kept by the step's identity
    while it waits (the step itself is kept with it, so its id is not reused)."""
    known = _FACED_STEPS
    if known.face_ids is not face_ids or len(known.found) >= _FACED_STEPS_KEPT:
        known.face_ids, known.found = face_ids, {}
    found = known.found.get(id(step))
    if found is None or found[0] is not step:
        found = known.found[id(step)] = (step, faced_step(step, face_ids))
    return found[1]


class _Known:
    """The steps `_faced_step` renamed, by their ids, and the face ids they hold for."""

    __slots__ = ("face_ids", "found")

    def __init__(self) -> None:
        self.face_ids: FaceIds | None = None
        self.found: dict[int, tuple[Step, Step]] = {}


_FACED_STEPS: Final = _Known()
_FACED_STEPS_KEPT: Final = 1024


def backs_of(hand: tuple[CardId, ...]) -> tuple[CardKind, ...]:
    """The backs of a hand, sorted by back: a seat learns how many cards of each back a hand
    holds, never the order they came in, which would tell which card left it (spec 1.5)."""
    # Hot path: a view asks this of each hand changed since the last view, about one a
    # decision. Compiled, the cards of each back are counted in a loop that runs in C, where
    # the sort with a key below makes a call per card; interpreted, the sort runs in C and
    # the loop would not (each measured 3% of a view slower the other way round).
    if _COMPILED:
        nature = life = power = 0
        for card in hand:
            back = BACK_BY_LETTER[card[0]]
            if back is _NATURE:
                nature += 1
            elif back is _LIFE:
                life += 1
            else:
                power += 1
        return _NATURE_BACK * nature + _LIFE_BACK * life + _POWER_BACK * power
    kinds = [BACK_BY_LETTER[card[0]] for card in hand]
    kinds.sort(key=_BACK_RANK.__getitem__)
    return tuple(kinds)


_COMPILED: Final = constructors.COMPILED
_NATURE: Final = CardKind.NATURE
_LIFE: Final = CardKind.LIFE
_NATURE_BACK: Final = (_NATURE,)
_LIFE_BACK: Final = (_LIFE,)
_POWER_BACK: Final = (CardKind.POWER,)
_BACK_RANK: Final = {back: rank for rank, back in enumerate(CardKind)}
"""The order of the backs in a hand's backs: the order of `CardKind`."""

_BACKS: dict[tuple[CardId, ...], tuple[CardKind, ...]] = {}
"""The backs of the hands seen so far (see `_known_backs`)."""
_BACKS_GET: Final = _BACKS.get
"""`_BACKS`' own get: `_BACKS` is cleared, never replaced, so this stays its method."""
_BACKS_KEPT = 4096
"""How many hands `_BACKS` keeps before it starts afresh."""


def _known_backs(hand: tuple[CardId, ...]) -> tuple[CardKind, ...]:
    """`backs_of` a hand of the engine's own.

    Hot path: every view asks this of every hand, and hands change about once a turn, so
    the answer is looked up by the hand (a pure function of it; the table is bounded)."""
    found = _BACKS.get(hand)
    if found is None:
        if len(_BACKS) >= _BACKS_KEPT:
            _BACKS.clear()
        found = _BACKS[hand] = backs_of(hand)
    return found


def stolen_seen(table: Table, seat: int) -> tuple[tuple[CardKind, int, CardId | None], ...]:
    """The cards a Tornado holds as ``seat`` sees them: back, the seat it came from, and the
    card itself only for the thief and that seat (spec 13.8c)."""
    return tuple(
        (kind_of(card), source, card if _sees_stolen(table, seat, source) else None)
        for card, source in table.stolen
    )


def _sees_stolen(table: Table, seat: int, source: int) -> bool:
    """A stolen card is seen by the seat it came from, and by the thief once every card is
    taken (spec 13.8c)."""
    decision = table.decision
    return seat == source or (isinstance(decision, ChooseKeptCard) and decision.player == seat)


def city_states(table: Table, make_city: MakeCity) -> dict[Pos, CityState]:
    """Every city in the world, in square order, each made by ``make_city``: public in every
    view (spec 1.5)."""
    # Hot path: every view shows every city, and a city changes far less often than views
    # are built, so the (immutable) states are looked up by what they hold.
    pawns, satisfaction, known = table.pawns, table.satisfaction, _CITY_STATES
    cities: dict[Pos, CityState] = {}
    for pos, card in sorted(table.cities.items()):
        key = (card, pawns[pos], satisfaction[pos])
        city = known.get(key)
        if city is None:
            if len(known) >= _CITY_STATES_KEPT:
                known.clear()
            city = known[key] = make_city(*key)
        cities[pos] = city
    return cities


_CITY_STATES: dict[tuple[CardId, tuple[int, ...], int], CityState] = {}
"""The city states built so far, by what they hold (see `city_states`)."""
_CITY_STATES_KEPT = 4096
"""How many city states `_CITY_STATES` keeps before it starts afresh."""
