"""The table: the whole mutable state of one game, kept flat so it copies cheaply.

Only the engine's rule modules change a :class:`Table`; everything that leaves the library
is a frozen snapshot of it (:mod:`gaia_rules.state`). Containers that change often in
small ways (the world) are dicts copied by :meth:`Table.copy`; containers that change
rarely (hands, decks, displays) are tuples replaced whole, so copying shares them.
The event log and the list of actions taken are persistent linked lists: appending and
copying cost the same however long the game has run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gaia_rules.cards import CardId
from gaia_rules.decisions import BeginTurn, PowerEffect
from gaia_rules.manifest import Manifest
from gaia_rules.vocabulary import CardKind, Land, Pos

if TYPE_CHECKING:
    from gaia_rules.actions import Action
    from gaia_rules.decisions import Decision, Step
    from gaia_rules.events import Event, Result
    from gaia_rules.rules import Rules

__all__ = ["Chain", "Table", "chain_items"]

Chain = tuple[object, "Chain"] | None
"""A persistent linked list, newest first: ``(item, rest)`` or ``None``."""


def chain_items(chain: Chain) -> list[object]:
    """The items of a chain, oldest first."""
    items: list[object] = []
    while chain is not None:
        items.append(chain[0])
        chain = chain[1]
    items.reverse()
    return items


class Table:
    """Everything about one game at one moment (see the module docstring)."""

    __slots__ = (
        "actions",
        "active",
        "bank",
        "cards",
        "cities",
        "decks",
        "discards",
        "displays",
        "first_player",
        "frontier",
        "hands",
        "log",
        "log_length",
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
    reached_four: set[Pos]
    """Cities that reached four needs and have not been emptied since (advanced, spec 12.4)."""
    frontier: set[Pos]
    tile_supply: dict[Land, int]
    bank: int
    # the cards (spec 3.8): decks are top-first
    decks: dict[CardKind, tuple[CardId, ...]]
    displays: dict[CardKind, tuple[CardId, ...]]
    discards: dict[CardKind, tuple[CardId, ...]]
    hands: list[tuple[CardId, ...]]
    tableaux: list[tuple[CardId, ...]]
    objectives: tuple[CardId, ...]
    objective_pawns: dict[CardId, int]
    out_of_game: tuple[CardId, ...]
    random_draws: int
    """How many random draws (Tornado) the seed has made so far (spec 1.6)."""
    stolen: tuple[tuple[CardId, int], ...]
    """The cards a Tornado took, each with the seat it came from, until one is kept (13.8)."""
    # the players
    supply: list[int]
    total_pawns: int
    # the flow (spec 5): the pending steps, top last
    active: int
    steps: list[Step]
    options: list[Action] | None
    """The legal actions of the pending decision, as the flow found them when it stopped
    there; ``None`` until asked. Never changed in place: copies share it."""
    log: Chain
    log_length: int
    actions: Chain
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
        new.reached_four = self.reached_four.copy()
        new.random_draws = self.random_draws
        new.frontier = self.frontier.copy()
        new.tile_supply = self.tile_supply.copy()
        new.bank = self.bank
        new.decks = self.decks.copy()
        new.displays = self.displays.copy()
        new.discards = self.discards.copy()
        new.hands = self.hands.copy()
        new.tableaux = self.tableaux.copy()
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
        new.log_length = self.log_length
        new.actions = self.actions
        new.result = self.result
        return new

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
        return None if isinstance(step, BeginTurn | PowerEffect) else step

    def pawns_placed(self, player: int) -> int:
        """How many of a player's pawns are on cities and Objectives (spec 3.10)."""
        return self.total_pawns - self.supply[player]
