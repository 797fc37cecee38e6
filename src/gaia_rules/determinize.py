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
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import partial

import attrs

from gaia_rules import errors, flow
from gaia_rules.actions import Action
from gaia_rules.cards import CardId, kind_of
from gaia_rules.dealing import deal, deal_shuffled
from gaia_rules.decisions import ChooseProtection, PowerEffect, Step
from gaia_rules.errors import RulesError, ViewError
from gaia_rules.game import Game
from gaia_rules.manifest import TILE_COUNTS
from gaia_rules.position import Position, table_of, typed_position_problems, world_of
from gaia_rules.serialization import register_check
from gaia_rules.setup import TOKENS, cards_in_play, check_players, pawns_per_player
from gaia_rules.table import Table
from gaia_rules.untrusted import value_problems
from gaia_rules.views import View, backs_of, view_of
from gaia_rules.vocabulary import LANDS, CardKind
from gaia_rules.world import needs_met

__all__ = ["Determinizer", "determinize", "unseen_cards", "view_problems"]


def determinize(view: View, rng: random.Random) -> Game:
    """A game that shows ``view`` to its seat, its hidden cards drawn at random by ``rng``.

    Every other hand holds cards of the backs the view shows, the decks hold as many cards
    as the view says, in a random order, and the stolen cards the seat cannot see are of the
    backs it does see. The game's pending decision, the steps under it, the world, the
    displays, the discard piles, the cards in front of each player, the Objectives and the
    pawns are the view's own. To sample many games from one view, a
    [`Determinizer`][gaia_rules.determinize.Determinizer] reads the view once.

    Raises:
        ViewError: the view is not one a game can show its seat (for example a view read
            from JSON whose hand backs, deck sizes and visible cards do not add up to the
            box, or whose decision names a seat that is not in the game); its ``problems``
            list what does not add up (see
            [`view_problems`][gaia_rules.determinize.view_problems]).
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
        ViewError: as [`determinize`][gaia_rules.determinize.determinize].
    """

    __slots__ = ("_base", "_pools", "_position", "_seat", "_shared", "_view")

    def __init__(self, view: View) -> None:
        position, table, pools, problems = _position_of(view)
        if position is None or table is None or problems:
            raise ViewError(problems)
        self._view = view
        self._seat = view.seat
        self._pools = {kind: list(cards) for kind, cards in pools.items()}
        self._position = position
        self._base = table
        decision = table.decision
        self._shared = decision is not None and decision.player == view.seat

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of every sample while the view's seat is to move (an empty
        sequence while another seat is).

        What a seat may do depends only on what it sees (spec 1.8), so every sample offers
        its seat this same list, whatever cards were dealt, and the samples share this one
        sequence: an action it handed out is taken by a sample without being checked again.
        A search that plays the same few actions in many samples plays these.
        """
        if not self._shared:
            return ()
        return flow.legal_actions(self._base)

    def sample(self, rng: random.Random) -> Game:
        """A new game consistent with the view, its hidden cards and seed drawn by ``rng``.

        Its record starts from the position sampled (unless the view's game is over), so
        it replays.
        """
        hands, stolen, decks = deal_shuffled(self._view, self._pools, rng)
        table = self._base.copy()
        table.hands = list(hands)
        table.stolen = stolen
        # the table changes its dict; the start keeps its own (the decks' sizes are the
        # view's, as the base's are)
        table.decks = dict(decks)
        table.seed = rng.getrandbits(63)
        # the seat's own options are the same in every sample (see `legal_actions`); those
        # of another seat's decision read its hand
        table.options = flow.legal_actions(self._base) if self._shared else None
        if table.result is None:  # built only if the record is asked for: see Table.start
            position, seed = self._position, table.seed
            table.start = partial(
                attrs.evolve, position, hands=hands, stolen=stolen, decks=decks, seed=seed
            )
        return Game._from_table(table)


def view_problems(view: View) -> list[str]:
    """Everything that keeps ``view`` from being one a game could show its seat (spec 1.5,
    16); an empty list for a sound view.

    The view is checked as strictly as [`Position.to_game`][gaia_rules.position.Position.to_game]
    checks a position: its seats, its cards (each known, in one place, the hidden ones as many
    as the box leaves unseen), the world, the pawns, the pending steps, and what follows from
    them (the tile supply, the bank, the supplies, each city's satisfaction). It takes time
    bounded by the box, whatever the view holds. [`View.from_json`][gaia_rules.views.View]
    runs it too.
    """
    return _position_of(view)[3]


_Pools = dict[CardKind, tuple[CardId, ...]]
"""The cards a seat cannot see, by back, as ``unseen_cards`` finds them."""


def _position_of(view: View) -> tuple[Position | None, Table | None, _Pools, list[str]]:
    """The position of a game showing ``view``, its hidden cards dealt in id order, and its
    table (``None`` where the problems keep them from being built); the cards hidden from
    its seat; and the problems of the view."""
    broken = value_problems(view, View)  # 1.10a: the types first, exactly
    if broken:
        return None, None, {}, [f"{problem.where('view')}: {problem.message}" for problem in broken]
    try:
        check_players(view.players, view.first_player)
    except RulesError as exc:
        return None, None, {}, [str(exc)]
    seat, players = view.seat, view.players
    if not 0 <= seat < players:
        return None, None, {}, [f"seat: no seat {seat!r} in a {players}-player game (1.1)"]
    shaped = [
        f"{name}: expected one entry per seat, got {len(value)}"
        for name, value in (
            ("hand_backs", view.hand_backs),
            ("tableaux", view.tableaux),
            ("supply", view.supply),
        )
        if len(value) != players
    ]
    if shaped:
        return None, None, {}, shaped
    cards = view.rules.cards
    unknown = sorted({card for card in _seen(view) if card not in cards})
    if unknown:
        found = [f"{card!r}: no such card in the manifest (spec 2.9)" for card in unknown]
        return None, None, {}, found
    problems = [
        f"{card}: an Objective cannot be in a hand or set aside (2.6)"
        for card in (*view.hand, *(card for _, _, card in view.stolen if card is not None))
        if card[:1] not in ("N", "C", "A", "P")
    ]
    if problems:
        return None, None, {}, problems
    if view.hand_backs[seat] != backs_of(view.hand):
        problems.append("hand_backs: the seat's own backs are not those of its hand (1.5)")
    order = list(CardKind)
    problems += [
        f"hand_backs: seat {other}'s backs are listed by back, in the order "
        f"{', '.join(kind.value for kind in order)}, never as they came in (1.5)"
        for other, backs in enumerate(view.hand_backs)
        if list(backs) != sorted(backs, key=order.index)
    ]
    for kind, size in view.deck_sizes.items():
        if size < 0:
            problems.append(f"deck_sizes: {kind.value}: expected a whole number, got {size!r}")
    for back, _, card in view.stolen:
        if card is not None and kind_of(card) is not back:
            problems.append(f"stolen: {card} has not the back {back.value} (13.8b)")
    if problems:
        return None, None, {}, problems
    public, pools, problems = _named(view)
    if problems:
        return None, None, {}, problems
    wanted = _hidden_places(view)
    problems = [
        f"1.5: the seat cannot see {len(pools[kind])} {kind.value} card(s), "
        f"but the view hides {count}"
        for kind, count in wanted.items()
        if len(pools[kind]) != count
    ]
    if problems:
        return None, None, {}, problems
    hands, stolen, decks = deal(view, pools)
    position = Position(
        rules=view.rules,
        players=players,
        tiles=view.tiles,
        animals=view.animals,
        cities={pos: (city.card, city.pawns) for pos, city in view.cities.items()},
        hands=hands,
        tableaux=public.tableaux,
        decks=decks,
        displays=public.displays,
        discards=public.discards,
        objectives=view.objectives,
        objective_pawns=view.objective_pawns,
        out_of_game=_out_of_game(view, public, hands, stolen, decks),
        active=view.active,
        first_player=view.first_player,
        steps=public.steps,
        stolen=stolen,
        reached_four=view.reached_four,
    )
    # its values are the view's, checked above (1.10a), or found from them
    problems = typed_position_problems(position, over=view.result is not None)
    if not problems:
        problems = _derived_problems(view, position)
    if problems:
        return position, None, pools, problems
    table = table_of(position)
    table.steps = list(public.steps)  # a game that is over may have none left
    table.result = view.result
    return position, table, pools, _shown_problems(view, table)


def _shown_problems(view: View, table: Table) -> list[str]:
    """A view shows its seat the decision being asked, and all the rest follows from what
    it shows (spec 1.8): the game it describes, its hidden cards dealt, must ask that very
    decision and show the seat that very view."""
    if view.result is None:
        if not view.steps:
            return ["steps: a game that is not over has a decision pending (5.4)"]
        ahead = table.copy()
        flow.advance(ahead)
        if ahead.steps != table.steps or ahead.result is not None:
            return [
                f"decision: {view.decision!r} is not asked: it has no choice to make, and the "
                "engine takes or skips it (5.4)"
            ]
    # Built from a copy: a view keeps its world's squares in order in the table's memo,
    # which every game sampled from this table would share, and every change of their world
    # would then keep that order up to date for views a playout never builds.
    shown = view_of(table.copy(), view.seat)
    return [
        f"{field.name}: the view shows {errors.shown(getattr(view, field.name))}, but a game "
        f"with the rest of it shows {errors.shown(getattr(shown, field.name))} (1.8)"
        for field in attrs.fields(View)
        if getattr(view, field.name) != getattr(shown, field.name)
    ]


def _derived_problems(view: View, position: Position) -> list[str]:
    """What a view states that follows from the rest: it must be what the rest says."""
    problems: list[str] = []
    top = view.steps[-1] if view.steps else None
    decision = None if view.result is not None else top
    if view.decision != decision or view.to_move != getattr(decision, "player", None):
        problems.append("decision and to_move: they are the top pending step's (5.4)")
    for land in LANDS:
        placed = sum(1 for value in view.tiles.values() if value is land)
        if view.tile_supply.get(land) != TILE_COUNTS[land] - placed:
            problems.append(f"tile_supply: {land.value}: {placed} tiles are in the world (16.1)")
    if view.bank != TOKENS - sum(view.animals.values()):
        problems.append(f"bank: {view.bank} tokens, the world holds the rest of 20 (16.3)")
    total = pawns_per_player(view.players)
    placed_pawns = Counter(s for city in view.cities.values() for s in city.pawns)
    placed_pawns.update(view.objective_pawns.values())
    if view.total_pawns != total:
        problems.append(f"total_pawns: {view.players} players have {total} pawns each (2.3)")
    for seat, supply in enumerate(view.supply):
        if supply != total - placed_pawns[seat]:
            problems.append(f"supply: seat {seat} holds the pawns it has not placed (16.4)")
    world = world_of(position)
    for pos, city in view.cities.items():
        met = needs_met(world, pos, view.rules.cards.city(city.card))
        if city.satisfaction != met:
            problems.append(f"cities: {pos} counts {city.satisfaction} needs, meets {met} (10.1)")
    return problems


register_check(View, view_problems)


def unseen_cards(view: View) -> dict[CardKind, tuple[CardId, ...]]:
    """The cards in play that ``view``'s seat cannot see, by back, in id order: they are in
    the other hands, the decks, or a Tornado's hold, in some order the seat does not know.

    A view names every card outside its seat's hand, and the stolen cards it sees, by its
    face id (spec 1.14), so which copy of a face is where it does not say: the copies it shows
    are given, in its order of places, the lowest ids of their face it leaves free, and the
    ids left over are the unseen cards."""
    return _named(view)[1]


@attrs.frozen
class _Public:
    """The places a view shows, each card named by an id of its own."""

    displays: dict[CardKind, tuple[CardId, ...]]
    discards: dict[CardKind, tuple[CardId, ...]]
    tableaux: tuple[tuple[CardId, ...], ...]
    steps: tuple[Step, ...]


def _named(view: View) -> tuple[_Public, _Pools, list[str]]:
    """The places ``view`` shows with each card by an id of its own, the cards left for the
    places it hides (see `unseen_cards`), and what keeps them from adding up to the box."""
    face_ids = view.rules.cards.face_ids
    told = {*view.hand, *(card for _, _, card in view.stolen if card is not None)}
    shown = {city.card for city in view.cities.values()}
    free: dict[CardId, list[CardId]] = {}
    for ids in cards_in_play(view.rules).values():
        for card in ids:
            if card not in told and card not in shown:
                free.setdefault(face_ids[card], []).append(card)
    problems: list[str] = []

    def own(card: CardId, where: str) -> CardId:
        left = free.get(face_ids.get(card, card))
        if not left:
            problems.append(f"{where}: {card}: more cards of its face than the box holds (2.9)")
            return card
        return left.pop(0)

    displays = {
        kind: tuple(own(card, "displays") for card in pile) for kind, pile in view.displays.items()
    }
    discards = {
        kind: tuple(own(card, "discards") for card in pile) for kind, pile in view.discards.items()
    }
    tableaux = tuple(tuple(own(card, "tableaux") for card in cards) for cards in view.tableaux)
    steps = tuple(_step_named(step, tableaux, face_ids) for step in view.steps)
    left = {card for cards in free.values() for card in cards}
    pools = {
        kind: tuple(card for card in ids if card in left)
        for kind, ids in cards_in_play(view.rules).items()
    }
    return _Public(displays, discards, tableaux, steps), pools, problems


def _step_named(
    step: Step, tableaux: tuple[tuple[CardId, ...], ...], face_ids: Mapping[CardId, CardId]
) -> Step:
    """``step`` naming the Power card it waits on by the id its player's cards in front give
    it: the last card of that face there, the one just played (spec 13.3)."""
    if isinstance(step, ChooseProtection):
        card = _played(tableaux, step.power_player, step.against, face_ids)
        return step if card == step.against else attrs.evolve(step, against=card)
    if isinstance(step, PowerEffect):
        card = _played(tableaux, step.action.player, step.action.card, face_ids)
        if card != step.action.card:
            return PowerEffect(attrs.evolve(step.action, card=card))
    return step


def _played(
    tableaux: tuple[tuple[CardId, ...], ...],
    player: object,
    card: CardId,
    face_ids: Mapping[CardId, CardId],
) -> CardId:
    """The last card with the face of ``card`` in front of ``player``, or ``card``."""
    if type(player) is not int or not 0 <= player < len(tableaux):
        return card
    face = face_ids.get(card)
    for played in reversed(tableaux[player]):
        if face_ids.get(played) == face:
            return played
    return card


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
    public: _Public,
    hands: tuple[tuple[CardId, ...], ...],
    stolen: tuple[tuple[CardId, int], ...],
    decks: dict[CardKind, tuple[CardId, ...]],
) -> tuple[CardId, ...]:
    """The cards of the box left out of the game: Power cards not in play at this level and
    the Objectives not revealed (spec 2.7, 4.4)."""
    placed = {*view.objectives, *(city.card for city in view.cities.values())}
    for pile in (*public.displays.values(), *public.discards.values(), *public.tableaux):
        placed.update(pile)
    placed.update(card for hand in hands for card in hand)
    placed.update(card for card, _ in stolen)
    placed.update(card for deck in decks.values() for card in deck)
    return tuple(sorted(card for card, _ in view.rules.cards.cards if card not in placed))
