"""What the seed draws, checked against its distribution over many seeds (spec 1.6, 1.8,
13.8b).

The spec says which outcomes are possible and that each is equally likely; it fixes no
algorithm. So the oracle checks each outcome it is shown, and, over many seeds, how often
each came: a chi-square statistic against the uniform distribution, compared with its
critical value at p = 0.001. The seeds are fixed, so a test that passes always passes; an
engine that draws one outcome too often fails by far more than that.

- A Tornado's card (13.8b): taken from the hand of the seat named, of the back named, each
  card of that back equally likely.
- A sample of a view (1.8): the cards the seat cannot see are exactly the cards of the box it
  does not see placed, each hidden place filled with a card of its back, every such card
  equally likely in each place; the sample shows the seat that very view, and offers the
  legal actions the oracle finds for its decision.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import gaia_rules as gr
from tests.oracle.legal import legal_actions
from tests.oracle.model import kind_of, plain_of

__all__ = [
    "chi_square",
    "critical_value",
    "draw_uniformity",
    "sample_problems",
    "stolen_problems",
    "top_of_decks",
    "tornado_draws",
    "unseen",
]


def chi_square(counts: Mapping[Any, int], outcomes: Iterable[object]) -> float:
    """Pearson's statistic of ``counts`` against the uniform distribution on ``outcomes``,
    or, when ``outcomes`` is a mapping, on its keys weighted by its values (copies of one
    face are one outcome, as likely as they are many)."""
    weights = dict(outcomes) if isinstance(outcomes, Mapping) else dict.fromkeys(outcomes, 1)
    total, whole = sum(counts.values()), sum(weights.values())
    found = 0.0
    for outcome, weight in weights.items():
        expected = total * weight / whole
        found += (counts.get(outcome, 0) - expected) ** 2 / expected
    return found


def critical_value(degrees: int) -> float:
    """The chi-square value a uniform draw exceeds with probability 0.001 (Wilson-Hilferty:
    within 3% of the tables from 2 degrees of freedom, closer above)."""
    z = 3.0902  # the standard normal's 0.999 quantile
    k = float(degrees)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


def tornado_draws(
    hand: tuple[gr.CardId, ...], back: gr.CardKind, seeds: range
) -> Counter[gr.CardId]:
    """The card a Tornado takes from seat 1's ``hand``, naming ``back``, in a game of each
    seed: seat 0 plays it with his first action (no one holds a Power card to answer it)."""
    taken: Counter[gr.CardId] = Counter()
    for seed in seeds:
        game = (
            gr.PositionBuilder(players=2, rules=gr.Rules.powers(), seed=seed)
            .tile(0, 0, gr.Land.PLAIN)
            .hand(0, "P16", "N02")
            .hand(1, *hand)
            .turn(0, action=1)
            .to_game()
        )
        game.apply(gr.PlayTornado(0, "P16"))
        if isinstance(game.decision, gr.ChooseBack):
            game.apply(gr.NameBack(0, 1, back))
        stolen = [e for e in game.events if isinstance(e, gr.CardStolen)]
        assert len(stolen) == 1, stolen
        card = stolen[0].card
        assert card in hand and card is not None, card
        assert kind_of(game.rules.cards.face(card)) is back, (card, back)  # 13.8b
        taken[card] += 1
    return taken


def unseen(view: gr.View) -> dict[gr.CardKind, Counter[gr.CardId]]:
    """The cards the seat cannot see, by back (1.5, 1.8), each by its face id (1.11), as
    many as its copies: every card of the manifest but those the view shows, the Power cards
    the level leaves out, and the Objectives (the revealed ones are shown, the others are out
    of the game, 4.4). The view names every card outside the seat's hand by its face id
    (1.14), so only faces can be subtracted."""
    rules = view.rules
    face_id = rules.cards.face_id
    shown: Counter[gr.CardId] = Counter(face_id(card) for card in view.hand)
    for pile in (*view.displays.values(), *view.discards.values(), *view.tableaux):
        shown.update(face_id(card) for card in pile)
    shown.update(face_id(city.card) for city in view.cities.values())
    shown.update(face_id(card) for _, _, card in view.stolen if card is not None)
    hidden: dict[gr.CardKind, Counter[gr.CardId]] = {kind: Counter() for kind in gr.CardKind}
    box = dict(rules.cards.cards)
    lightnings = sorted(c for c, f in box.items() if f == gr.PowerCard(gr.Power.LIGHTNING))
    for card, face in box.items():
        if isinstance(face, gr.Objective):
            continue
        if isinstance(face, gr.PowerCard):
            disaster = face.power in (gr.Power.LIGHTNING, gr.Power.ERUPTION)
            level = gr.Level.DISASTERS if disaster else gr.Level.POWERS
            if rules.level < level:
                continue
            if face.power is gr.Power.LIGHTNING and card not in lightnings[: rules.lightnings]:
                continue  # 2.7: the level's deck holds the first ``lightnings`` of them
        hidden[kind_of(face)][face_id(card)] += 1
    for pool in hidden.values():
        pool.subtract({face: count for face, count in shown.items() if face in pool})
        assert min(pool.values(), default=0) >= 0, "the view shows more copies than the box has"
    return {kind: +pool for kind, pool in hidden.items()}


def _hidden_places(view: gr.View, sample: gr.Game) -> list[tuple[str, gr.CardKind, gr.CardId]]:
    """Every place of the sample the seat cannot see, with the back it shows and the card
    the sample put there."""
    state = sample.state
    places: list[tuple[str, gr.CardKind, gr.CardId]] = []
    for seat, hand in enumerate(state.hands):
        if seat != view.seat:
            places += [(f"hand {seat}", kind_of(state.rules.cards.face(c)), c) for c in hand]
    for kind, deck in state.decks.items():
        places += [(f"{kind.value} deck {i}", kind, c) for i, c in enumerate(deck)]
    for (back, _, shown_card), (card, _) in zip(view.stolen, state.stolen, strict=True):
        if shown_card is None:
            places.append(("stolen", back, card))
    return places


def sample_problems(view: gr.View, sample: gr.Game) -> list[str]:
    """What the sample of ``view`` holds that 1.8 does not allow."""
    problems: list[str] = []
    if sample.view(view.seat) != view:
        problems.append("1.8: the sample shows its seat another view")
    places = _hidden_places(view, sample)
    pools = unseen(view)
    dealt: dict[gr.CardKind, Counter[gr.CardId]] = {kind: Counter() for kind in gr.CardKind}
    for where, back, card in places:
        if kind_of(sample.rules.cards.face(card)) is not back:
            problems.append(f"1.8: {card} in {where} has not the back {back.value}")
        dealt[back][sample.rules.cards.face_id(card)] += 1
    for kind in gr.CardKind:
        if dealt[kind] != pools[kind]:
            problems.append(
                f"1.8: the {kind.value} cards hidden from the seat are "
                f"{sorted(pools[kind].elements())}, the sample hides "
                f"{sorted(dealt[kind].elements())}"
            )
    decision = sample.decision
    if decision is not None:
        plain = plain_of(sample.state)
        if isinstance(decision, gr.ChoosePawnCities):
            plain.waiting = list(decision.cities)
        expected = legal_actions(plain, decision)
        if set(sample.legal_actions()) != expected:
            problems.append(f"1.8, 1.7: the sample's legal actions at {decision!r} differ")
    return problems


def stolen_problems(game: gr.Game, seat: int, sample: gr.Game) -> list[str]:
    """What the sample of ``seat``'s view holds of the cards set aside by a Tornado that the
    seat's log does not allow (1.8, 1.5d, 13.8c): read from the log alone, the cards set
    aside now are those taken since the last card kept, in order, each from the seat named;
    the seat knows the face of a card taken from it, and, once the last is taken, the thief
    knows them all. The sample must set aside as many, from the same seats, and keep every
    card the seat knows, by its own id (1.14)."""
    known: list[tuple[gr.CardId | None, int]] = []
    for event in game.events_for(seat):
        if isinstance(event, gr.CardStolen):
            known.append((event.card, event.victim))
        elif isinstance(event, gr.StolenCardsSeen) and event.cards is not None:
            known = [(card, source) for card, (_, source) in zip(event.cards, known, strict=True)]
        elif isinstance(event, gr.CardKept):
            known = []
    found = list(sample.state.stolen)
    if [source for _, source in known] != [source for _, source in found]:
        return [f"1.8: the log sets aside cards from {known}, the sample {found}"]
    return [
        f"1.8, 1.5d: the seat saw {card} set aside from seat {source}, the sample has {other}"
        for (card, source), (other, _) in zip(known, found, strict=True)
        if card is not None and card != other
    ]


def draw_uniformity(draws: Iterable[tuple[int, int]]) -> tuple[float, int, int]:
    """Pearson's statistic of the places drawn, each draw among ``k`` cards against the
    uniform distribution on its ``k`` places, summed over every ``k`` drawn among often
    enough (five expected per place), with its degrees of freedom and the draws counted:
    the sum of independent chi-squares is one."""
    by_count: dict[int, Counter[int]] = {}
    for count, place in draws:
        if count > 1:
            by_count.setdefault(count, Counter())[place] += 1
    statistic, degrees, counted = 0.0, 0, 0
    for count, places in by_count.items():
        if sum(places.values()) >= 5 * count:
            statistic += chi_square(places, range(count))
            degrees += count - 1
            counted += sum(places.values())
    return statistic, degrees, counted


def top_of_decks(view: gr.View, rngs: Iterable[int]) -> dict[gr.CardKind, Counter[gr.CardId]]:
    """Which face (by its face id) each sample of ``view`` puts on top of each deck the seat
    cannot see, one sample per seed of ``rngs``; each is checked by :func:`sample_problems`
    first."""
    sampler = gr.Determinizer(view)
    tops: dict[gr.CardKind, Counter[gr.CardId]] = {kind: Counter() for kind in gr.CardKind}
    for seed in rngs:
        sample = sampler.sample(random.Random(seed))
        problems = sample_problems(view, sample)
        assert not problems, problems
        for kind, deck in sample.state.decks.items():
            if deck:
                tops[kind][sample.rules.cards.face_id(deck[0])] += 1
    return tops
