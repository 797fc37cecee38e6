"""Determinization: a whole game consistent with what one seat sees (spec 1.5, 1.8).

A seat does not see the other hands (only their backs), the order of the decks, the cards
a Tornado holds for someone else, or the seed's future.
[`determinize`][gaia_rules.determinize.determinize] fills those in at random, from the
cards the seat cannot see, and returns a game that agrees with the view on everything the
view shows. Searching many such games is how a bot for a game of hidden
cards looks ahead without cheating; a front end's "hint" button can do the same.

The sampled game knows nothing the seat does not: its hidden cards are drawn by ``rng``
from the cards of the box that the view does not place, and its own future draws (a
Tornado's random card) come from a new seed drawn from ``rng`` too. It has no history: its
log and its actions start empty, so its record does not replay the real game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from gaia_rules.cards import CardId
from gaia_rules.errors import PositionError
from gaia_rules.game import Game
from gaia_rules.position import Position, table_of
from gaia_rules.setup import cards_in_play
from gaia_rules.views import View
from gaia_rules.vocabulary import CardKind

__all__ = ["Determinizer", "determinize", "unseen_cards"]


def determinize(view: View, rng: random.Random) -> Game:
    """A game that shows ``view`` to its seat, its hidden cards drawn at random by ``rng``.

    Every other hand holds cards of the backs the view shows, the decks hold as many cards
    as the view says, in a random order, and the stolen cards the seat cannot see are of the
    backs it does see. The game's pending decision, the steps under it, the world, the
    displays, the discard piles, the cards in front of each player, the Objectives and the
    pawns are the view's own. To sample many games from one view, a
    [`Determinizer`][gaia_rules.determinize.Determinizer] reads the view once.

    Raises:
        PositionError: the view is not one a game can show (for example a view read from
            JSON whose hand backs, deck sizes and visible cards do not add up to the box).
    """
    return Determinizer(view).sample(rng)


class Determinizer:
    """Samples games from one view, reading the view once (see
    [`determinize`][gaia_rules.determinize.determinize]).

    The samples are copies of one game built from the view, with the hidden cards dealt
    afresh each time, so they share what the rules derived from the world: sampling costs
    about what [`Game.copy`][gaia_rules.game.Game.copy] costs, and the first sample's legal
    actions warm the next.

    Raises:
        PositionError: as [`determinize`][gaia_rules.determinize.determinize].
    """

    __slots__ = ("_base", "_pools", "_seat", "_view")

    def __init__(self, view: View) -> None:
        self._view = view
        self._seat = view.seat
        self._pools = {kind: list(cards) for kind, cards in unseen_cards(view).items()}
        wanted = _hidden_places(view)
        problems = [
            f"1.5: the seat cannot see {len(self._pools[kind])} {kind.value} card(s), "
            f"but the view hides {count}"
            for kind, count in wanted.items()
            if len(self._pools[kind]) != count
        ]
        if problems:
            raise PositionError(problems)
        hidden = {kind: iter(pool) for kind, pool in self._pools.items()}
        hands, stolen, decks = _deal(view, hidden)
        position = Position(
            rules=view.rules,
            players=view.players,
            tiles=view.tiles,
            animals=view.animals,
            cities={pos: (city.card, city.pawns) for pos, city in view.cities.items()},
            hands=hands,
            tableaux=view.tableaux,
            decks=decks,
            displays=view.displays,
            discards=view.discards,
            objectives=view.objectives,
            objective_pawns=view.objective_pawns,
            out_of_game=_out_of_game(view, hands, stolen, decks),
            active=view.active,
            first_player=view.first_player,
        )
        table = table_of(position)
        table.steps = list(view.steps)
        table.stolen = stolen
        table.reached_four = set(view.reached_four)
        table.result = view.result
        self._base = table

    def sample(self, rng: random.Random) -> Game:
        """A new game consistent with the view, its hidden cards and seed drawn by ``rng``."""
        pools = {kind: pool.copy() for kind, pool in self._pools.items()}
        for pool in pools.values():
            rng.shuffle(pool)
        hands, stolen, decks = _deal(self._view, {kind: iter(p) for kind, p in pools.items()})
        table = self._base.copy()
        table.hands = list(hands)
        table.stolen = stolen
        table.decks = decks
        table.seed = rng.getrandbits(63)
        table.options = None  # the options of another seat's decision read its hand
        return Game._from_table(table)


def _deal(
    view: View, hidden: dict[CardKind, Iterator[CardId]]
) -> tuple[
    tuple[tuple[CardId, ...], ...],
    tuple[tuple[CardId, int], ...],
    dict[CardKind, tuple[CardId, ...]],
]:
    """The hands, stolen cards and decks of a game showing ``view``, the hidden cards dealt
    from ``hidden`` by back: the other hands, then the stolen cards, then the decks."""
    hands = tuple(
        view.hand if seat == view.seat else tuple(next(hidden[back]) for back in backs)
        for seat, backs in enumerate(view.hand_backs)
    )
    stolen = tuple(
        (card if card is not None else next(hidden[back]), source)
        for back, source, card in view.stolen
    )
    decks = {
        kind: tuple(next(hidden[kind]) for _ in range(view.deck_sizes.get(kind, 0)))
        for kind in CardKind
    }
    return hands, stolen, decks


def unseen_cards(view: View) -> dict[CardKind, tuple[CardId, ...]]:
    """The cards in play that ``view``'s seat cannot see, by back, in id order: they are in
    the other hands, the decks, or a Tornado's hold, in some order the seat does not know."""
    seen = set(_seen(view))
    return {
        kind: tuple(sorted(card for card in ids if card not in seen))
        for kind, ids in cards_in_play(view.rules).items()
    }


def _seen(view: View) -> Iterator[CardId]:
    """Every card the view shows, wherever it is."""
    yield from view.hand
    for pile in (*view.displays.values(), *view.discards.values(), *view.tableaux):
        yield from pile
    yield from (city.card for city in view.cities.values())
    yield from (card for _, _, card in view.stolen if card is not None)


def _hidden_places(view: View) -> dict[CardKind, int]:
    """How many hidden cards of each back the view accounts for."""
    count = {kind: view.deck_sizes.get(kind, 0) for kind in CardKind}
    for seat, backs in enumerate(view.hand_backs):
        if seat != view.seat:
            for back in backs:
                count[back] += 1
    for back, _, card in view.stolen:
        if card is None:
            count[back] += 1
    return count


def _out_of_game(
    view: View,
    hands: tuple[tuple[CardId, ...], ...],
    stolen: tuple[tuple[CardId, int], ...],
    decks: dict[CardKind, tuple[CardId, ...]],
) -> tuple[CardId, ...]:
    """The cards of the box left out of the game: Power cards not in play at this level and
    the Objectives not revealed (spec 2.7, 4.4)."""
    placed = {*_seen(view), *view.objectives}
    placed.update(card for hand in hands for card in hand)
    placed.update(card for card, _ in stolen)
    placed.update(card for deck in decks.values() for card in deck)
    return tuple(sorted(card for card, _ in view.rules.cards.cards if card not in placed))
