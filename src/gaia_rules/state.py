"""``GameState``: a full, read-only snapshot of a game, for servers and tests.

It holds everything the game's future depends on (spec 1.9): every hand, deck order, the
seed and the count of its draws, the pending steps of the flow. So it must never be sent to a
seat: a seat gets [`Game.view`][gaia_rules.game.Game.view]. Each access to ``game.state``
builds a new snapshot; changing one (its dicts are plain dicts) never changes the game.
"""

from __future__ import annotations

import attrs

from gaia_rules.cards import CardId
from gaia_rules.decisions import Decision, Step
from gaia_rules.events import Result
from gaia_rules.rules import Rules
from gaia_rules.table import Table
from gaia_rules.viewfields import city_states
from gaia_rules.vocabulary import CardKind, Land, Pos
from gaia_rules.wire import Wire

__all__ = ["CityState", "GameState", "cities_of", "snapshot"]


@attrs.frozen
class CityState(Wire):
    """A city in the world: its card, the pawns on it (one seat per pawn) and its satisfaction."""

    card: CardId
    pawns: tuple[int, ...]
    satisfaction: int


@attrs.frozen(hash=False)
class GameState(Wire):
    """Everything about a game at one moment (see the module docstring)."""

    rules: Rules
    players: int
    first_player: int
    seed: int
    active: int
    """Whose turn it is."""
    to_move: int | None
    decision: Decision | None
    steps: tuple[Step, ...]
    """The flow's pending steps, the top last (spec 1.9): ``decision`` is the top one, and
    under it wait what it interrupted (the turn's action, a Power effect under its Protection
    window, an Objective check, the next turn)."""
    tiles: dict[Pos, Land]
    animals: dict[Pos, int]
    cities: dict[Pos, CityState]
    tile_supply: dict[Land, int]
    bank: int
    decks: dict[CardKind, tuple[CardId, ...]]
    """Top card first."""
    displays: dict[CardKind, tuple[CardId, ...]]
    discards: dict[CardKind, tuple[CardId, ...]]
    hands: tuple[tuple[CardId, ...], ...]
    tableaux: tuple[tuple[CardId, ...], ...]
    """The cards in front of each player, in the order played."""
    objectives: tuple[CardId, ...]
    """The revealed Objectives."""
    objective_pawns: dict[CardId, int]
    """Which seat's pawn stands on each fulfilled Objective."""
    out_of_game: tuple[CardId, ...]
    stolen: tuple[tuple[CardId, int], ...]
    """The cards a Tornado took, each with the seat it came from, until one is kept (13.8)."""
    reached_four: tuple[Pos, ...]
    """The cities that reached four needs and were not emptied since (spec 12.4), in square
    order."""
    random_draws: int
    """How many random draws the seed has made since the setup (spec 1.6): the next draw
    depends on it."""
    supply: tuple[int, ...]
    """Each player's pawns not yet placed."""
    total_pawns: int
    result: Result | None


def cities_of(table: Table) -> dict[Pos, CityState]:
    """Every city in the world, in square order: public in every view (spec 1.5)."""
    return city_states(table, CityState)


def snapshot(table: Table) -> GameState:
    """Freeze a table into a `GameState`."""
    decision = table.decision
    return GameState(
        rules=table.rules,
        players=table.players,
        first_player=table.first_player,
        seed=table.seed,
        active=table.active,
        to_move=None if decision is None else decision.player,
        decision=decision,
        steps=tuple(table.steps),
        tiles=dict(sorted(table.tiles.items())),
        animals=dict(sorted(table.tokens.items())),
        cities=cities_of(table),
        tile_supply=dict(table.tile_supply),
        bank=table.bank,
        decks=dict(table.decks),
        displays=dict(table.displays),
        discards=dict(table.discards),
        hands=tuple(table.hands),
        tableaux=tuple(table.tableaux),
        objectives=table.objectives,
        objective_pawns=dict(table.objective_pawns),
        out_of_game=table.out_of_game,
        stolen=table.stolen,
        reached_four=tuple(sorted(table.reached_four)),
        random_draws=table.random_draws,
        supply=tuple(table.supply),
        total_pawns=table.total_pawns,
        result=table.result,
    )
