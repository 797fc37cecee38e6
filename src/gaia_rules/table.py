"""The table: the whole mutable state of one game, kept flat so it copies cheaply.

Only the engine's rule modules change a :class:`Table`; everything that leaves the library
is a frozen snapshot of it (:mod:`gaia_rules.state`). Containers that change often in
small ways (the world) are dicts copied by :meth:`Table.copy`; containers that change
rarely (hands, decks, displays) are tuples replaced whole, so copying shares them.
The event log and the list of actions taken are persistent linked lists: appending and
copying cost the same however long the game has run.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from gaia_rules.cards import CardId
from gaia_rules.decisions import BeginTurn, PowerEffect
from gaia_rules.manifest import Manifest
from gaia_rules.naming import faced
from gaia_rules.squares import neighbours
from gaia_rules.vocabulary import CardKind, Land, Pos, Star

if TYPE_CHECKING:
    from gaia_rules.decisions import Decision, Step
    from gaia_rules.events import Event, Result
    from gaia_rules.legal import LegalActions
    from gaia_rules.position import Position
    from gaia_rules.rules import Rules
    from gaia_rules.state import CityState

__all__ = ["Chain", "Table", "WorldMemo", "chain_items"]

Chain = tuple[object, Any] | None
"""A persistent linked list, newest first: ``(item, rest)`` or ``None`` (``rest`` is a chain
again; spelled ``Any`` because mypyc recurses without end on a recursive type alias)."""


def chain_items(chain: Chain) -> list[object]:
    """The items of a chain, oldest first."""
    items: list[object] = []
    while chain is not None:
        items.append(chain[0])
        chain = chain[1]
    items.reverse()
    return items


class WorldMemo:
    """What the rules derive from the world alone, kept until the world next changes.

    Hot path: a turn's legal actions are recomputed at every decision, but the world
    (tiles, tokens, cities, the bank and the tile supply) changes only through
    :func:`gaia_rules.satisfaction.settle`, which drops the memo. Everything here is a pure
    function of the world, so copies of a table may share one memo until either changes
    its world.
    """

    __slots__ = (
        "free",
        "life_targets",
        "offered",
        "open",
        "pairs",
        "power_targets",
        "sites",
        "tile_count",
        "tile_squares",
        "view_animals",
        "view_cities",
        "view_tiles",
    )

    def __init__(self, tile_count: int) -> None:
        self.tile_count = tile_count
        """How many tiles the world holds. The squares that hold them, and so ``open``,
        ``tile_squares`` and ``pairs``, change only when this count does (see
        :meth:`Table.world_changed`)."""
        self.open: list[Pos] | None = None
        """The open squares, sorted (spec 7.2)."""
        self.tile_squares: list[Pos] | None = None
        """The squares that hold tiles, sorted."""
        self.pairs: list[tuple[Pos, Pos]] | None = None
        """Every two edge-adjacent tiles, the lower square first, in square order (13.7)."""
        self.free: dict[Land, frozenset[Pos]] | None = None
        """The free tiles of each land (spec 3.3): a City or Animal card of one land looks
        only at the tiles of that land."""
        self.offered: dict[Pos, int] = {}
        """The needs a free tile's surroundings would meet (spec 3.5), as the bits of
        ``gaia_rules.world.NEED_BITS``, for the free tiles asked about so far."""
        self.sites: dict[Land | Star, list[Pos]] = {}
        """The free tiles open to an Animal card of each site, as asked."""
        self.life_targets: dict[CardId, list[Pos]] = {}
        """Where each Life card may be played, as asked."""
        self.power_targets: dict[CardId, list[Any]] = {}
        """What each Power card may be played on, as asked."""
        self.view_tiles: dict[Pos, Land] | None = None
        """The tiles in square order, as every seat's view shows them; never handed out
        itself (each view gets a copy)."""
        self.view_animals: dict[Pos, int] | None = None
        """The animal tokens in square order, as every seat's view shows them (a copy each)."""
        self.view_cities: tuple[object, dict[Pos, CityState]] | None = None
        """The cities in square order, as every seat's view shows them (a copy each), with
        the ``Table.city_token`` of what they were built for: a pawn may go on a city while
        the world stands, and copies of a table sharing this memo may differ there, so the
        cities are kept only for that token, and built afresh for any other. Hot path: kept
        by the token, they outlive a change of the world (`Table.world_changed`): a view
        built them afresh at about half the turns, where their cities change at about a
        tenth."""


V = TypeVar("V")

_AUTOMATIC: Final[tuple[type[Any], ...]] = (BeginTurn, PowerEffect)
"""The steps the engine runs by itself. A tuple, which ``isinstance`` checks faster than a union
or two checks; typed of any length, which the compiled build keeps as it is, where it builds
a fixed-length one anew at each check (``Table.decision`` is asked at every decision)."""


def _open_after(
    open_squares: list[Pos], squares: Sequence[Pos], tiles: dict[Pos, Land]
) -> list[Pos]:
    """The open squares (7.2), sorted, once tiles went on some of ``squares``: each such
    square leaves the list, and its neighbours without a tile join it.

    Hot path: a tile goes into the world at about every third decision, and patching the
    sorted list square by square costs a fraction of sorting the whole frontier again.
    """
    found = open_squares.copy()
    for square in squares:
        if square not in tiles:
            continue
        at = bisect_left(found, square)
        if at == len(found) or found[at] != square:
            continue  # it held a tile before this change
        del found[at]
        for near in neighbours(square):
            if near not in tiles:
                at = bisect_left(found, near)
                if at == len(found) or found[at] != near:
                    found.insert(at, near)
    return found


def _each_once(faces: tuple[CardId, ...]) -> tuple[CardId, ...]:
    """``faces`` with each face once, in their order: the faces a display shows (1.12).

    Hot path: a display changes at about every third decision; a loop over its few cards,
    where ``tuple(dict.fromkeys(faces))`` is a generic method call compiled."""
    once: list[CardId] = []
    for face in faces:
        if face not in once:
            once.append(face)
    return tuple(once)


def _in_square_order(kept: dict[Pos, V], squares: Sequence[Pos], now: dict[Pos, V]) -> dict[Pos, V]:
    """``now`` in square order, from ``kept``, which was that before a change on ``squares``
    only: the squares that joined are put in their place, those that left are taken out, and
    the others keep their place.

    Hot path: every view shows the world's tiles and animals in square order, and sorting
    squares again after each change cost a view as much as the rest of it together.
    """
    joined = [square for square in squares if square in now and square not in kept]
    left = [square for square in squares if square in kept and square not in now]
    if not joined and not left:
        patched = kept.copy()
        for square in squares:
            if square in now:
                patched[square] = now[square]
        return patched
    order = list(kept)
    for square in set(left):
        order.remove(square)
    for square in set(joined):
        insort(order, square)
    return {square: now[square] for square in order}


class Table:
    """Everything about one game at one moment (see the module docstring)."""

    __slots__ = (
        "actions",
        "active",
        "bank",
        "cards",
        "cities",
        "city_token",
        "deck_sizes",
        "decks",
        "discards",
        "displays",
        "faced_discards",
        "faced_displays",
        "faced_tableaux",
        "faces_shown",
        "first_player",
        "frontier",
        "hands",
        "imposed",
        "keyed",
        "log",
        "log_length",
        "memo",
        "named_copies",
        "objective_pawns",
        "objectives",
        "options",
        "out_of_game",
        "pawns",
        "players",
        "random_draws",
        "reached_four",
        "result",
        "rules",
        "satisfaction",
        "seed",
        "start",
        "steps",
        "stolen",
        "supply",
        "tableaux",
        "tile_supply",
        "tiles",
        "tokens",
        "total_pawns",
    )

    rules: Rules
    cards: Manifest
    players: int
    first_player: int
    seed: int
    # the world (spec 3)
    tiles: dict[Pos, Land]
    tokens: dict[Pos, int]
    cities: dict[Pos, CardId]
    pawns: dict[Pos, tuple[int, ...]]
    satisfaction: dict[Pos, int]
    city_token: object
    """A new object at each change of ``cities``, ``pawns`` or ``satisfaction``
    (`cities_changed`), shared by copies until either changes them: the cities a view shows
    are kept by it (``WorldMemo.view_cities``), where comparing what the cities hold cost a
    view about a tenth."""
    reached_four: set[Pos]
    """Cities that reached four needs and have not been emptied since (advanced, spec 12.4)."""
    frontier: set[Pos]
    memo: WorldMemo | None
    """What the rules derived from the world as it is now; ``None`` once it changes."""
    tile_supply: dict[Land, int]
    bank: int
    # the cards (spec 3.8): decks are top-first
    decks: dict[CardKind, tuple[CardId, ...]]
    deck_sizes: dict[CardKind, int]
    """How many cards each deck holds, as every view shows it, written with the deck
    (`set_deck`, `name_piles`). Hot path: counting the decks at each view cost a view 4%
    interpreted, where a deck changes at about every other decision."""
    displays: dict[CardKind, tuple[CardId, ...]]
    discards: dict[CardKind, tuple[CardId, ...]]
    hands: list[tuple[CardId, ...]]
    tableaux: list[tuple[CardId, ...]]
    faced_displays: dict[CardKind, tuple[CardId, ...]]
    faced_discards: dict[CardKind, tuple[CardId, ...]]
    faced_tableaux: list[tuple[CardId, ...]]
    """The displays, discard piles and cards in front by their face ids, as every view shows
    them (spec 1.14), written with the piles themselves: only the methods below (and
    `name_piles`) write a pile, so the two never part (the tests of views check them at
    every step of random games). Hot path: renaming the piles at each view cost a view as
    much as the rest of it, where a write renames the one card or pile it changes, about
    once a turn."""
    faces_shown: dict[CardKind, tuple[CardId, ...]]
    """Each display's faces, by face id, once each in the display's order: the draws offered
    (spec 1.12), written with the display (`set_display`), where each turn's action looked
    them up by the display."""
    objectives: tuple[CardId, ...]
    objective_pawns: dict[CardId, int]
    out_of_game: tuple[CardId, ...]
    random_draws: int
    """How many random draws (Tornado) the seed has made so far (spec 1.6)."""
    imposed: tuple[int, ...]
    """The places, among the cards of the named back, of the cards the next Tornado takes,
    when a caller decides them (`gaia_rules.outcomes`); empty when the seed does (1.6)."""
    named_copies: bool
    """Whether an action naming one of several copies of a face moves the copy it names, as
    in records written before spec 1.12 (format 1), which a replay must follow; otherwise
    the copy of 1.13 moves."""
    stolen: tuple[tuple[CardId, int], ...]
    """The cards a Tornado took, each with the seat it came from, until one is kept (13.8)."""
    # the players
    supply: list[int]
    total_pawns: int
    # the flow (spec 5): the pending steps, top last
    active: int
    steps: list[Step]
    options: LegalActions | None
    """The legal actions of the pending decision, as the flow found them when it stopped
    there; ``None`` until asked. Never changed in place: copies share it."""
    log: Chain
    log_length: int
    keyed: dict[int, Any]
    """Each seat's log as its information-set key names it, as far as it was asked for
    (`gaia_rules.information`): extended, never changed, so copies share its entries."""
    actions: Chain
    start: Position | Callable[[], Position] | None
    """The position the game started from, or ``None`` for a game dealt from its seed: the
    record replays from it (never changed, so copies share it). A game sampled from a view
    keeps how to build it instead, since most samples never have their record asked for."""
    result: Result | None

    def copy(self) -> Table:
        """An independent table: what changes in place is copied, the rest shared."""
        new = Table.__new__(Table)
        new.rules = self.rules
        new.cards = self.cards
        new.players = self.players
        new.first_player = self.first_player
        new.seed = self.seed
        new.tiles = self.tiles.copy()
        new.tokens = self.tokens.copy()
        new.cities = self.cities.copy()
        new.pawns = self.pawns.copy()
        new.satisfaction = self.satisfaction.copy()
        new.city_token = self.city_token
        new.reached_four = self.reached_four.copy()
        new.random_draws = self.random_draws
        new.named_copies = self.named_copies
        new.imposed = self.imposed
        new.frontier = self.frontier.copy()
        new.memo = self.memo
        new.tile_supply = self.tile_supply.copy()
        new.bank = self.bank
        new.decks = self.decks.copy()
        new.deck_sizes = self.deck_sizes.copy()
        new.displays = self.displays.copy()
        new.discards = self.discards.copy()
        new.hands = self.hands.copy()
        new.tableaux = self.tableaux.copy()
        new.faced_displays = self.faced_displays.copy()
        new.faced_discards = self.faced_discards.copy()
        new.faced_tableaux = self.faced_tableaux.copy()
        new.faces_shown = self.faces_shown.copy()
        new.objectives = self.objectives
        new.objective_pawns = self.objective_pawns.copy()
        new.out_of_game = self.out_of_game
        new.stolen = self.stolen
        new.supply = self.supply.copy()
        new.total_pawns = self.total_pawns
        new.active = self.active
        new.steps = self.steps.copy()
        new.options = self.options
        new.log = self.log
        new.keyed = self.keyed.copy()
        new.log_length = self.log_length
        new.actions = self.actions
        new.start = self.start
        new.result = self.result
        return new

    def world_memo(self) -> WorldMemo:
        """The memo of the world as it is now, started if there is none."""
        memo = self.memo
        if memo is None:
            memo = self.memo = WorldMemo(len(self.tiles))
        return memo

    def world_changed(self, squares: Sequence[Pos]) -> None:
        """Forget what was derived from the world, which changed on ``squares`` only.

        Every change of the world passes here (through the settlement of 10.1). Whether a
        tile is free (3.3), and its land, change only on the changed squares, and a
        square's surroundings depend on its four neighbours alone, so the free tiles are
        updated there (their surroundings forgotten) and kept elsewhere; the rest is
        derived afresh when next asked.
        """
        old = self.memo
        if old is None:
            return
        memo = self.memo = WorldMemo(len(self.tiles))
        # The squares that hold tiles change only when a tile goes on an open square, and
        # then the world holds one tile more: no tile ever leaves it, and a tile that
        # replaces another or an Earthquake keeps every square occupied (16.5). So while the
        # count stands, what depends on those squares alone is kept; the lists are never
        # changed in place, so they are shared as they are.
        if old.tile_count == memo.tile_count:
            memo.open, memo.tile_squares, memo.pairs = old.open, old.tile_squares, old.pairs
        elif old.open is not None:  # asked for at every turn's action: patched, not rebuilt
            memo.open = _open_after(old.open, squares, self.tiles)
        if old.view_tiles is not None:
            memo.view_tiles = _in_square_order(old.view_tiles, squares, self.tiles)
        if old.view_animals is not None:
            memo.view_animals = _in_square_order(old.view_animals, squares, self.tokens)
        memo.view_cities = old.view_cities  # kept by their token, checked at each view
        if old.free is None:
            return
        # copies of the table may share the old memo: never change its containers (the
        # sets are frozen, and replaced)
        free, offered = old.free.copy(), old.offered.copy()
        tiles, cities, tokens = self.tiles, self.cities, self.tokens
        for square in squares:
            free_now = square in tiles and square not in cities and square not in tokens
            land_now = tiles[square] if free_now else None  # maybe another tile (13.7)
            for land, found in old.free.items():
                if square in found:  # free before on one land at most (a tile has one)
                    if land is not land_now:
                        free[land] = free[land] - {square}
                    break
            if land_now is not None and square not in free[land_now]:
                free[land_now] = free[land_now] | {square}
            # `del` after `in`, not `pop(square, None)`: compiled, `pop` is a generic method call
            if square in offered:
                del offered[square]
            for near in neighbours(square):  # their surroundings changed
                if near in offered:
                    del offered[near]
        memo.free, memo.offered = free, offered

    def name_piles(self) -> None:
        """Name the displays, discard piles and cards in front by their face ids afresh, and
        count the decks, once they were all written (a new table)."""
        self.deck_sizes = {kind: len(deck) for kind, deck in self.decks.items()}
        face_ids = self.cards.face_ids
        self.faced_displays = {kind: faced(pile, face_ids) for kind, pile in self.displays.items()}
        self.faced_discards = {kind: faced(pile, face_ids) for kind, pile in self.discards.items()}
        self.faced_tableaux = [faced(pile, face_ids) for pile in self.tableaux]
        self.faces_shown = {kind: _each_once(pile) for kind, pile in self.faced_displays.items()}

    def set_deck(self, kind: CardKind, deck: tuple[CardId, ...]) -> None:
        """Make ``deck`` the deck of ``kind`` (top first)."""
        self.decks[kind] = deck
        self.deck_sizes[kind] = len(deck)

    def set_display(self, kind: CardKind, pile: tuple[CardId, ...]) -> None:
        """Make ``pile`` the display of ``kind``."""
        self.displays[kind] = pile
        named = self.faced_displays[kind] = faced(pile, self.cards.face_ids)
        self.faces_shown[kind] = _each_once(named)

    def discard(self, kind: CardKind, card: CardId) -> None:
        """Put ``card`` on top of the discard pile of ``kind``."""
        self.discards[kind] += (card,)
        self.faced_discards[kind] += (self.cards.face_ids[card],)

    def set_tableau(self, player: int, pile: tuple[CardId, ...]) -> None:
        """Make ``pile`` the cards in front of ``player``."""
        self.tableaux[player] = pile
        self.faced_tableaux[player] = faced(pile, self.cards.face_ids)

    def put_in_front(self, player: int, card: CardId) -> None:
        """Put ``card`` in front of ``player``, after the cards there."""
        self.tableaux[player] += (card,)
        self.faced_tableaux[player] += (self.cards.face_ids[card],)

    def cities_changed(self) -> None:
        """Note that a city's card, pawns or satisfaction changed: every write to
        ``cities``, ``pawns`` or ``satisfaction`` calls this (``WorldMemo.view_cities``)."""
        self.city_token = object()

    def emit(self, event: Event) -> None:
        """Append an event to the log."""
        self.log = (event, self.log)
        self.log_length += 1

    @property
    def decision(self) -> Decision | None:
        """The pending decision, or ``None`` once the game is over."""
        if self.result is not None or not self.steps:
            return None
        step = self.steps[-1]
        if isinstance(step, _AUTOMATIC):
            return None
        return step  # type: ignore[return-value]  # every other step is a decision

    def pawns_placed(self, player: int) -> int:
        """How many of a player's pawns are on cities and Objectives (spec 3.10)."""
        return self.total_pawns - self.supply[player]
