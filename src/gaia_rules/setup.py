"""Setting up a game from its rules, player count, first player and seed (spec 4)."""

from __future__ import annotations

import random

from gaia_rules.cards import AnimalCard, CardId, CityCard, NatureCard, Objective, PowerCard
from gaia_rules.decisions import BeginTurn
from gaia_rules.errors import RulesError, shown
from gaia_rules.manifest import TILE_COUNTS
from gaia_rules.rules import Rules
from gaia_rules.table import Table
from gaia_rules.vocabulary import CardKind, Power

__all__ = [
    "DISPLAY_SIZES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TOKENS",
    "cards_in_play",
    "deal",
    "pawns_per_player",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 5
TOKENS = 20
DEALT = {CardKind.NATURE: 2, CardKind.LIFE: 1, CardKind.POWER: 1}
DISPLAY_SIZES = {CardKind.NATURE: 3, CardKind.LIFE: 2, CardKind.POWER: 2}


def pawns_per_player(players: int) -> int:
    """6 pawns each with 2 players, 5 with 3-5 (spec 2.3)."""
    return 6 if players == MIN_PLAYERS else 5


def check_players(players: object, first_player: object) -> None:
    """2-5 seats; the first player is one of them (spec 1.1, 1.4)."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError(f"players: expected a whole number 2-5, got {shown(players)}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"players: Gaïa is for 2 to 5 players, got {shown(players)} (spec 1.1)")
    if (
        isinstance(first_player, bool)
        or not isinstance(first_player, int)
        or not 0 <= first_player < players
    ):
        raise RulesError(
            f"first_player: expected a seat 0-{players - 1}, got {shown(first_player)}"
        )


def power_deck(rules: Rules) -> list[CardId]:
    """The Power cards in play: the 23 of the powers level, with disasters the Eruptions and
    ``rules.lightnings`` Lightnings (spec 2.7)."""
    if not rules.with_powers:
        return []
    cards = rules.cards
    chosen: list[CardId] = []
    lightnings = 0
    for card in cards.ids(PowerCard):
        power = cards.face(card)
        assert isinstance(power, PowerCard)
        if power.power is Power.LIGHTNING:
            if rules.with_disasters and lightnings < rules.lightnings:
                chosen.append(card)
                lightnings += 1
        elif power.power is Power.ERUPTION:
            if rules.with_disasters:
                chosen.append(card)
        else:
            chosen.append(card)
    return chosen


def cards_in_play(rules: Rules) -> dict[CardKind, list[CardId]]:
    """The cards each deck is made of at setup, by back, in id order: every Nature card,
    every City and Animal card, and the level's Power cards (spec 2.7, 4.2)."""
    cards = rules.cards
    return {
        CardKind.NATURE: list(cards.ids(NatureCard)),
        CardKind.LIFE: [*cards.ids(CityCard), *cards.ids(AnimalCard)],
        CardKind.POWER: power_deck(rules),
    }


def deal(rules: Rules, players: int, seed: int, first_player: int) -> Table:
    """A table set up for the first player's first turn (spec 4.1-4.5)."""
    check_players(players, first_player)
    cards = rules.cards
    rng = random.Random(seed)
    table = Table.__new__(Table)
    table.rules = rules
    table.cards = cards
    table.players = players
    table.first_player = first_player
    table.seed = seed
    # 4.1: the world is empty, the tiles in the supply, the tokens in the bank
    table.tiles, table.tokens, table.cities = {}, {}, {}
    table.cities_changed()
    table.pawns, table.satisfaction, table.frontier = {}, {}, set()
    table.memo = None
    table.reached_four = set()
    table.tile_supply = dict(TILE_COUNTS)
    table.bank = TOKENS
    table.total_pawns = pawns_per_player(players)
    table.supply = [table.total_pawns] * players
    # 4.2-4.4: shuffle, deal seat by seat from seat 0, then reveal the display
    decks = cards_in_play(rules)
    hands: list[list[CardId]] = [[] for _ in range(players)]
    table.decks, table.displays, table.discards = {}, {}, {}
    out_of_game: list[CardId] = [c for c in cards.ids(PowerCard) if c not in decks[CardKind.POWER]]
    for kind, deck in decks.items():
        rng.shuffle(deck)
        if deck:
            for _ in range(DEALT[kind]):
                for hand in hands:
                    hand.append(deck.pop(0))
        table.displays[kind] = tuple(deck[: DISPLAY_SIZES[kind]] if deck else ())
        table.decks[kind] = tuple(deck[DISPLAY_SIZES[kind] :] if deck else ())
        table.discards[kind] = ()
    table.hands = [tuple(hand) for hand in hands]
    table.tableaux = [() for _ in range(players)]
    table.name_piles()
    objectives = []
    for card in cards.ids(Objective):
        face = cards.face(card)
        assert isinstance(face, Objective)
        if face.is_power and not rules.with_powers:
            out_of_game.append(card)
        else:
            objectives.append(card)
    rng.shuffle(objectives)
    revealed = players + 2
    table.objectives = tuple(objectives[:revealed])
    out_of_game.extend(objectives[revealed:])
    table.out_of_game = tuple(sorted(out_of_game))
    table.objective_pawns = {}
    # 4.5: the first player's turn begins
    table.active = first_player
    table.steps = [BeginTurn(first_player)]
    table.log, table.log_length, table.actions, table.result = None, 0, None, None
    table.start = None
    table.random_draws = 0
    table.named_copies = False
    table.imposed = ()
    table.keyed = {}
    table.options = None
    table.stolen = ()
    return table
