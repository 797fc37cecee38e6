"""Explicit chance for ``python_gaia``: the deal and every random draw as chance nodes.

Every random outcome of a game of Gaïa is a card turned up or taken blind (spec 1.6): the
deal (4.2-4.5: each card dealt to a hand, each card turned face up in a display, each
Objective revealed), each draw from a deck (a blind draw, 6.1, or a display refilled, 6.2),
and each card a Tornado takes (13.8b). Here each is a chance node whose outcome is the *face*
of that card, with the chance of its copies among the cards it is drawn from: copies of one
face are one card (1.11), so a chance node never splits a game in two that no seat could tell
apart.

An outcome is a *class*: a card class of the action space
([`gaia_rules.rl.encoding`][gaia_rules.rl.encoding], a land, a city, an animal site, a Power),
or, for an Objective revealed, ``CARD_CLASSES`` plus its rank. A player's action that draws or
takes cards is held back until chance has decided them; the cards of those faces are then put
where the draws will find them ([`gaia_rules.outcomes`][gaia_rules.outcomes]) and the action
is carried out, so the game never holds an outcome before it is drawn: a copy of a state (what
a search clones) holds no future card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from gaia_rules.actions import Action
from gaia_rules.cards import CardId, Objective, kind_of
from gaia_rules.events import CardDrawn, CardStolen, DisplayRefilled, Event
from gaia_rules.game import Game
from gaia_rules.outcomes import deck, impose_takes, put_on_top
from gaia_rules.position import Position
from gaia_rules.rl.encoding import CARD_CLASSES, MAX_OBJECTIVES, ActionSpace, class_name
from gaia_rules.rules import Rules
from gaia_rules.setup import DEALT, DISPLAY_SIZES, cards_in_play
from gaia_rules.vocabulary import CardKind

__all__ = [
    "CHANCE_OUTCOMES",
    "Deal",
    "Draw",
    "Slot",
    "deal_slots",
    "draw_outcomes",
    "draws_of",
    "outcome_name",
    "settle_draws",
]

CHANCE_OUTCOMES = CARD_CLASSES + MAX_OBJECTIVES
"""How many outcomes a chance node can have: a card class, or an Objective's rank."""


@attrs.frozen
class Slot:
    """A place the deal fills with one card: a seat's hand (``seat``), a display (``seat``
    ``None``), or the row of revealed Objectives (``kind`` ``None``)."""

    kind: CardKind | None
    seat: int | None = None


def deal_slots(rules: Rules, players: int) -> tuple[Slot, ...]:
    """The deal in order (spec 4.2-4.5): for each back in play, its cards to each hand seat by
    seat, as many rounds as the back deals, then its display; then the Objectives."""
    slots: list[Slot] = []
    for kind, cards in cards_in_play(rules).items():
        if not cards:
            continue
        for _ in range(DEALT[kind]):
            slots += [Slot(kind, seat) for seat in range(players)]
        slots += [Slot(kind)] * DISPLAY_SIZES[kind]
    slots += [Slot(None)] * (players + 2)
    return tuple(slots)


def _objectives(rules: Rules) -> list[CardId]:
    """The Objectives in play: the Nature ones, and the Power ones from the powers level."""
    cards = rules.cards
    found = []
    for card in cards.ids(Objective):
        face = cards.face(card)
        assert isinstance(face, Objective)
        if rules.with_powers or not face.is_power:
            found.append(card)
    return found


@attrs.frozen
class Deal:
    """The deal so far: the outcome of each slot dealt, in order, and the cards not dealt."""

    rules: Rules
    players: int
    slots: tuple[Slot, ...]
    outcomes: tuple[int, ...] = ()
    pools: tuple[tuple[CardKind, tuple[CardId, ...]], ...] = ()
    """The cards not dealt yet, by back, in id order."""
    objectives: tuple[CardId, ...] = ()
    """The Objectives not revealed yet, in id order."""

    @classmethod
    def begin(cls, rules: Rules, players: int) -> Deal:
        """The deal before its first card."""
        pools = tuple((kind, tuple(cards)) for kind, cards in cards_in_play(rules).items())
        return cls(rules, players, deal_slots(rules, players), (), pools, tuple(_objectives(rules)))

    def then(self, space: ActionSpace, outcome: int) -> Deal:
        """The deal once ``outcome`` is dealt too."""
        slot = self.slots[len(self.outcomes)]
        pools, objectives = self.pools, self.objectives
        if slot.kind is None:
            card = _objective(space, outcome)
            objectives = tuple(c for c in objectives if c != card)
        else:
            pools = tuple(
                (kind, _without(space, cards, outcome) if kind is slot.kind else cards)
                for kind, cards in pools
            )
        outcomes = (*self.outcomes, outcome)
        return Deal(self.rules, self.players, self.slots, outcomes, pools, objectives)

    @property
    def done(self) -> bool:
        return len(self.outcomes) == len(self.slots)

    def outcomes_now(self, space: ActionSpace) -> list[tuple[int, float]]:
        """The outcomes of the next slot, each with its chance."""
        slot = self.slots[len(self.outcomes)]
        if slot.kind is None:
            ranks = sorted(space.objective_rank[card] for card in self.objectives)
            return [(CARD_CLASSES + rank, 1.0 / len(ranks)) for rank in ranks]
        return _by_class(space, dict(self.pools)[slot.kind])

    def position(self, space: ActionSpace) -> Position:
        """The position the deal leaves: the first player's turn about to begin (spec 4.5);
        each face dealt is the copy of it with the lowest id left, and the decks hold the rest
        in id order (their order is drawn later, a card at a time)."""
        pools = {kind: list(cards) for kind, cards in cards_in_play(self.rules).items()}
        objectives = _objectives(self.rules)
        hands: list[list[CardId]] = [[] for _ in range(self.players)]
        displays: dict[CardKind, list[CardId]] = {kind: [] for kind in CardKind}
        revealed: list[CardId] = []
        for slot, outcome in zip(self.slots, self.outcomes, strict=True):
            if slot.kind is None:
                card = _objective(space, outcome)
                objectives.remove(card)
                revealed.append(card)
                continue
            card = _card_of(space, pools[slot.kind], outcome)
            pools[slot.kind].remove(card)
            if slot.seat is None:
                displays[slot.kind].append(card)
            else:
                hands[slot.seat].append(card)
        placed = {*revealed, *(c for pool in pools.values() for c in pool)}
        placed.update(card for hand in hands for card in hand)
        placed.update(card for shown in displays.values() for card in shown)
        out = tuple(sorted(card for card, _ in self.rules.cards.cards if card not in placed))
        return Position(
            rules=self.rules,
            players=self.players,
            tiles={},
            animals={},
            cities={},
            hands=tuple(tuple(hand) for hand in hands),
            tableaux=((),) * self.players,
            decks={kind: tuple(pool) for kind, pool in pools.items()},
            displays={kind: tuple(cards) for kind, cards in displays.items()},
            discards={kind: () for kind in CardKind},
            objectives=tuple(revealed),
            objective_pawns={},
            out_of_game=out,
            active=0,
        )


def _without(space: ActionSpace, cards: tuple[CardId, ...], outcome: int) -> tuple[CardId, ...]:
    """``cards`` without the first of class ``outcome``."""
    card = _card_of(space, cards, outcome)
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _objective(space: ActionSpace, outcome: int) -> CardId:
    rank = outcome - CARD_CLASSES
    return next(card for card, r in space.objective_rank.items() if r == rank)


def _card_of(space: ActionSpace, cards: Sequence[CardId], outcome: int) -> CardId:
    """The first of ``cards`` of class ``outcome``."""
    classes = space.card_class
    return next(card for card in cards if classes[card] == outcome)


def _by_class(space: ActionSpace, cards: Sequence[CardId]) -> list[tuple[int, float]]:
    """Each class among ``cards`` with its share of them, in class order."""
    counts = Counter(space.card_class[card] for card in cards)
    total = len(cards)
    return [(outcome, count / total) for outcome, count in sorted(counts.items())]


def outcome_name(space: ActionSpace, outcome: int) -> str:
    """A chance outcome in words: ``nature:mountain``, ``objective:O03``."""
    if outcome >= CARD_CLASSES:
        return f"objective:{_objective(space, outcome)}"
    return class_name(space.manifest, outcome)


# -- the draws of a player's action -----------------------------------------------------------


@attrs.frozen
class Draw:
    """A random draw an action makes: from the deck of ``kind`` (``victim`` ``None``), or a
    card of back ``kind`` that a Tornado takes from ``victim``'s hand."""

    kind: CardKind
    victim: int | None = None
    blind_for: int | None = None
    """For a blind draw from a deck, the seat that draws (the only one to see it); ``None``
    for a display refilled (seen by all) and for a Tornado's card."""


def draws_of(events: Sequence[Event]) -> tuple[Draw, ...]:
    """The random draws among ``events``, in order."""
    found: list[Draw] = []
    for event in events:
        if isinstance(event, CardDrawn) and not event.from_display:
            found.append(Draw(event.kind, blind_for=event.player))
        elif isinstance(event, DisplayRefilled):
            found.append(Draw(event.kind))
        elif isinstance(event, CardStolen):
            found.append(Draw(event.kind, event.victim))
    return tuple(found)


def _drawn_from(game: Game, draw: Draw) -> list[CardId]:
    """The cards ``draw`` draws from, in the order the engine reads them."""
    if draw.victim is None:
        return list(deck(game, draw.kind))
    hand = game.state.hands[draw.victim]
    return [card for card in hand if kind_of(card) is draw.kind]


def draw_outcomes(
    space: ActionSpace, game: Game, draws: Sequence[Draw], chosen: Sequence[int]
) -> list[tuple[int, float]]:
    """The outcomes of the next of ``draws``, the earlier ones having drawn ``chosen``."""
    draw = draws[len(chosen)]
    cards = _drawn_from(game, draw)
    for earlier, outcome in zip(draws, chosen, strict=False):
        if earlier.victim is None and draw.victim is None and earlier.kind is draw.kind:
            cards.remove(_card_of(space, cards, outcome))
    return _by_class(space, cards)


def settle_draws(
    space: ActionSpace, game: Game, action: Action, draws: Sequence[Draw], chosen: Sequence[int]
) -> tuple[Event, ...]:
    """Carry out ``action`` in ``game``, its draws turning up the classes ``chosen``: each
    deck's cards of those classes are put on its top in the order they are drawn, and each
    Tornado takes a card of its class (`gaia_rules.outcomes`)."""
    on_top: dict[CardKind, list[CardId]] = {}
    places: list[int] = []
    for draw, outcome in zip(draws, chosen, strict=True):
        cards = _drawn_from(game, draw)
        if draw.victim is None:
            left = [card for card in cards if card not in on_top.get(draw.kind, [])]
            on_top.setdefault(draw.kind, []).append(_card_of(space, left, outcome))
        else:
            card = _card_of(space, cards, outcome)
            places.append(cards.index(card))
    for kind, cards in on_top.items():
        put_on_top(game, kind, cards)
    impose_takes(game, places)
    events = game.apply(action)
    drawn = _drawn_classes(space, events)
    if drawn != list(chosen):  # the action drew otherwise than its trial run said
        raise AssertionError(f"{action}: drew {drawn}, chance chose {list(chosen)}")
    return events


def _drawn_classes(space: ActionSpace, events: Sequence[Event]) -> list[int]:
    found: list[int] = []
    for event in events:
        if (isinstance(event, CardDrawn) and not event.from_display) or isinstance(
            event, DisplayRefilled | CardStolen
        ):
            card = event.card
            assert card is not None
            found.append(space.card_class[card])
    return found
