"""The oracle's plain model of a game: lists, dicts and numbers, read from ``game.state``.

Nothing here is clever: a city's needs are counted by looking at its four neighbours every
time they are asked for (spec 3.5), the frontier by looking around every tile (3.2).
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

import gaia_rules as gr

__all__ = [
    "City",
    "Plain",
    "comparable",
    "kind_of",
    "needs_met",
    "neighbours",
    "plain_of",
]

HAND_LIMIT = 6
POWER_LIMIT = 2
TOKENS_PER_ANIMAL_CARD = 4
FOUR = 4


_FACES: dict[int, tuple[gr.Rules, dict[gr.CardId, gr.Face]]] = {}
"""Each rules' faces by card, read once (the rules kept alive with them)."""
_LOWEST: dict[int, tuple[object, dict[gr.CardId, gr.CardId]]] = {}
"""Each manifest's lowest id of each face, by card (the manifest kept alive with it)."""


def _lowest_ids(cards: gr.Manifest) -> dict[gr.CardId, gr.CardId]:
    """Each card of ``cards`` with the lowest id of its face, read once per manifest; a City
    card or an Objective is its own (1.11)."""
    known = _LOWEST.get(id(cards))
    if known is not None and known[0] is cards:
        return known[1]
    lowest: dict[gr.Face, gr.CardId] = {}
    for card, face in cards.cards:
        if face not in lowest or card < lowest[face]:
            lowest[face] = card
    found = {
        card: card if isinstance(face, gr.CityCard | gr.Objective) else lowest[face]
        for card, face in cards.cards
    }
    _LOWEST[id(cards)] = (cards, found)
    return found


def neighbours(pos: gr.Pos) -> list[gr.Pos]:
    """The four squares sharing an edge with ``pos`` (3.1)."""
    x, y = pos
    return [gr.Pos(x + 1, y), gr.Pos(x - 1, y), gr.Pos(x, y + 1), gr.Pos(x, y - 1)]


def kind_of(face: gr.Face) -> gr.CardKind:
    """The back of a card that can be held (3.8): Nature green, Life blue, Power red."""
    if isinstance(face, gr.NatureCard):
        return gr.CardKind.NATURE
    if isinstance(face, gr.CityCard | gr.AnimalCard):
        return gr.CardKind.LIFE
    if isinstance(face, gr.PowerCard):
        return gr.CardKind.POWER
    raise ValueError(f"{face} is not a card one can hold")


@dataclass
class City:
    """A city: its card, the seats of its pawns, its satisfaction as last settled."""

    card: gr.CardId
    pawns: list[int]
    satisfaction: int


@dataclass
class Plain:
    """Everything the oracle needs about a game, in plain containers."""

    rules: gr.Rules
    players: int
    active: int
    tiles: dict[gr.Pos, gr.Land]
    tokens: dict[gr.Pos, int]
    cities: dict[gr.Pos, City]
    tile_supply: dict[gr.Land, int]
    bank: int
    decks: dict[gr.CardKind, list[gr.CardId]]
    displays: dict[gr.CardKind, list[gr.CardId]]
    discards: dict[gr.CardKind, list[gr.CardId]]
    hands: list[list[gr.CardId]]
    tableaux: list[list[gr.CardId]]
    objectives: list[gr.CardId]
    objective_pawns: dict[gr.CardId, int]
    stolen: list[tuple[gr.CardId, int]]
    supply: list[int]
    result: gr.Result | None = None
    """How the game ended (15)."""
    reached_four: set[gr.CardId] = field(default_factory=set)
    """The cities (by card) that reached four needs and have not been emptied since (12.4):
    the oracle's own record, kept from the start of the game."""
    waiting: list[gr.Pos] = field(default_factory=list)
    """The raised cities still waiting for the credited player's last pawns (10.5, 12.5)."""
    seed: int = 0
    """The game's seed, which draws every random outcome (1.6)."""
    random_draws: int = 0
    """How many random draws the seed has made since the setup (1.6): the oracle's own count."""
    last_draw: tuple[int, int] | None = None
    """The last random draw the oracle made: how many cards it drew among, and the place of
    the one drawn (13.8b), for the test of their frequencies over many draws."""

    def face(self, card: gr.CardId) -> gr.Face:
        faces = _FACES.get(id(self.rules))
        if faces is None or faces[0] is not self.rules:
            faces = _FACES[id(self.rules)] = (self.rules, dict(self.rules.cards.cards))
        return faces[1][card]

    def copy(self) -> Plain:
        return copy.deepcopy(self)

    @property
    def level(self) -> gr.Level:
        return self.rules.level

    def kinds_in_play(self) -> list[gr.CardKind]:
        """Nature and Life, and Power from the powers level (6.1)."""
        kinds = [gr.CardKind.NATURE, gr.CardKind.LIFE]
        if self.level >= gr.Level.POWERS:
            kinds.append(gr.CardKind.POWER)
        return kinds

    def face_id(self, card: gr.CardId) -> gr.CardId:
        """The lowest id with the face of ``card``; a City card or an Objective is its own
        (1.11)."""
        return _lowest_ids(self.rules.cards).get(card, card)

    def one_per_face(self, cards: list[gr.CardId]) -> list[gr.CardId]:
        """The first card of each face among ``cards``, in their order: a choice between
        copies of one face in one place is one choice, and the copy that moves from a hand
        is the one that has been there longest (1.12, 1.13)."""
        faces: list[gr.Face] = []
        found: list[gr.CardId] = []
        for card in cards:
            face = self.face(card)
            if face not in faces or isinstance(face, gr.CityCard | gr.Objective):
                faces.append(face)
                found.append(card)
        return found

    def power_cards(self, cards: list[gr.CardId]) -> list[gr.CardId]:
        return [c for c in cards if isinstance(self.face(c), gr.PowerCard)]

    def is_free(self, pos: gr.Pos) -> bool:
        """A tile in play with no city and no tokens (3.3)."""
        return pos in self.tiles and pos not in self.cities and self.tokens.get(pos, 0) == 0

    def frontier(self) -> set[gr.Pos]:
        """The empty squares with a tile among their neighbours (3.2)."""
        return {n for pos in self.tiles for n in neighbours(pos) if n not in self.tiles}


def needs_met(plain: Plain, card: gr.CardId, pos: gr.Pos) -> int:
    """How many needs of the City card ``card`` standing (or to stand) at ``pos`` are met (3.5).

    A land need: an uncovered neighbour of that land. The animal need: a neighbour carrying
    a token. The square itself never counts.
    """
    face = plain.face(card)
    assert isinstance(face, gr.CityCard)
    lands = set()
    animals = False
    for near in neighbours(pos):
        if near not in plain.tiles:
            continue
        if near not in plain.cities:
            lands.add(plain.tiles[near])
        if plain.tokens.get(near, 0) > 0:
            animals = True
    met = 0
    for need in face.needs:
        if need is gr.ANIMALS:
            met += 1 if animals else 0
        elif need in lands:
            met += 1
    return met


def plain_of(state: gr.GameState, reached_four: set[gr.CardId] | None = None) -> Plain:
    """The plain model of ``state``, with the oracle's own record of 12.4."""
    return Plain(
        rules=state.rules,
        players=state.players,
        active=state.active,
        tiles=dict(state.tiles),
        tokens=dict(state.animals),
        cities={
            pos: City(city.card, list(city.pawns), city.satisfaction)
            for pos, city in state.cities.items()
        },
        tile_supply=dict(state.tile_supply),
        bank=state.bank,
        decks={kind: list(cards) for kind, cards in state.decks.items()},
        displays={kind: list(cards) for kind, cards in state.displays.items()},
        discards={kind: list(cards) for kind, cards in state.discards.items()},
        hands=[list(hand) for hand in state.hands],
        tableaux=[list(cards) for cards in state.tableaux],
        objectives=list(state.objectives),
        objective_pawns=dict(state.objective_pawns),
        stolen=list(state.stolen),
        supply=list(state.supply),
        result=state.result,
        reached_four=set(reached_four or ()),
        seed=state.seed,
        random_draws=state.random_draws,
    )


def comparable(plain: Plain) -> dict[str, object]:
    """The facts an action decides, in a form two models can be compared by.

    Hands are compared as multisets (no rule orders a hand); city pawns likewise (the pawns
    of several players on one basic city have no order). Decks, displays, discard piles and
    tableaux keep their order: the display is never rearranged (6.2), the deck's order is
    the shuffle's, and which tableau cards an Objective takes depends on their order (8.2).
    """
    return {
        "active": plain.active,
        "tiles": dict(sorted(plain.tiles.items())),
        "tokens": {pos: n for pos, n in sorted(plain.tokens.items()) if n},
        "cities": {
            pos: (city.card, sorted(city.pawns), city.satisfaction)
            for pos, city in sorted(plain.cities.items())
        },
        "tile supply": dict(plain.tile_supply),
        "bank": plain.bank,
        "decks": {k: list(v) for k, v in plain.decks.items() if v},
        "displays": {k: list(v) for k, v in plain.displays.items() if v},
        "discards": {k: list(v) for k, v in plain.discards.items() if v},
        "hands": [sorted(hand) for hand in plain.hands],
        "tableaux": [list(cards) for cards in plain.tableaux],
        "reached four": sorted(
            pos for pos, city in plain.cities.items() if city.card in plain.reached_four
        ),
        "objectives": list(plain.objectives),
        "objective pawns": dict(sorted(plain.objective_pawns.items())),
        "stolen": sorted(plain.stolen),
        "pawn supply": list(plain.supply),
        "result": plain.result,
        "random draws": plain.random_draws,
    }


def counts(cards: list[gr.CardId], plain: Plain) -> Counter[gr.Land]:
    """The lands of the Nature cards among ``cards``."""
    found: Counter[gr.Land] = Counter()
    for card in cards:
        face = plain.face(card)
        if isinstance(face, gr.NatureCard):
            found[face.land] += 1
    return found
