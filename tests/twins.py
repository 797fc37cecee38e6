"""Twin games (spec 1.11-1.16): two games that differ only in which copies of a face are where.

A twin pair is built from one game: its position (:meth:`gaia_rules.Position.from_game`), and
the same position with the ids of two copies of one face swapped, both outside what one seat
is told (its hand and the stolen cards it sees, spec 1.14). The two games are then driven in
step: the action chosen among the first's legal actions is played in the second at the same
place of its own legal actions, which must be the same choices, copies named by their face
(a play of a swapped copy names the other copy there). Half of the choices, when they can, play or
discard a card of the swapped face, so the public plays of hidden copies are among them.

What the seat is told is then compared layer by layer (the information-set key, its view and
log, the RL observation, OpenSpiel's strings and tensors, the web frames). The ids a seat is
told may differ between the twins (a swapped copy can reach its hand): :func:`masked` names
those by their face ids, the same mapping for both twins, and leaves every other value as it
is, so any other id that differs between them is a difference the seat can see.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import attrs
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.position import Position

__all__ = [
    "LEVELS",
    "Twins",
    "Walk",
    "faced",
    "masked",
    "swapped",
    "twin_walks",
    "twins_of",
]

LEVELS = {
    "basic": gr.Rules.basic,
    "advanced": gr.Rules.advanced,
    "powers": gr.Rules.powers,
    "disasters": gr.Rules.disasters,
}
CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")


def _replace(data: Any, change: Callable[[str], str]) -> Any:
    """``data`` (JSON-ready) with every text changed by ``change``, keys included."""
    if isinstance(data, str):
        return change(data)
    if isinstance(data, dict):
        return {_replace(k, change): _replace(v, change) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_replace(item, change) for item in data]
    return data


def _swap_text(swap: dict[str, str]) -> Callable[[str], str]:
    def change(text: str) -> str:
        return CARD_ID.sub(lambda m: swap.get(m.group(0), m.group(0)), text)

    return change


def swapped(action: gr.Action, swap: dict[str, str]) -> gr.Action:
    """``action`` with the two swapped ids exchanged."""
    data = _replace(action.to_data(), _swap_text(swap))
    result: gr.Action = gr.from_data(data, gr.Action)
    return result


def faced(action: gr.Action, manifest: gr.Manifest) -> str:
    """``action`` as text with every card named by its face id."""
    return CARD_ID.sub(lambda m: manifest.face_id(m.group(0)), str(action))


def masked(data: Any, told: set[str], manifest: gr.Manifest) -> Any:
    """``data`` (JSON-ready, texts included) with each id in ``told`` named by its face id."""

    def change(text: str) -> str:
        return CARD_ID.sub(
            lambda m: manifest.face_id(m.group(0)) if m.group(0) in told else m.group(0), text
        )

    return _replace(data, change)


@attrs.define
class Twins:
    """Two games that differ only in which copies of one face are where, for one seat."""

    first: gr.Game
    second: gr.Game
    seat: int
    swap: dict[str, str]
    face: str
    """The face id of the two swapped copies."""
    told: tuple[set[str], set[str]] = attrs.field(factory=lambda: (set(), set()))
    """The ids each twin has told the seat so far (its hand, the stolen cards it sees)."""

    def games(self) -> Iterator[gr.Game]:
        yield self.first
        yield self.second

    def remember(self) -> None:
        """Add what each twin tells the seat now to ``told``."""
        for game, told in zip(self.games(), self.told, strict=True):
            view = game.view(self.seat)
            told.update(view.hand)
            told.update(card for _, _, card in view.stolen if card is not None)

    def step(self, rng: random.Random) -> bool:
        """Play one choice in both games; ``False`` once the game is over."""
        if self.first.is_over:
            return False
        legal = list(self.first.legal_actions())
        faces = self.first.rules.cards
        hidden_plays = [
            action
            for action in legal
            if isinstance(card := getattr(action, "card", None), str)
            and faces.face_id(card) == self.face
        ]
        action = rng.choice(hidden_plays if hidden_plays and rng.random() < 0.5 else legal)
        index = legal.index(action)
        twin = list(self.second.legal_actions())
        # the twins offer the same choices in the same order, copies named by their face
        assert [faced(a, faces) for a in legal] == [faced(a, faces) for a in twin]
        self.first.apply(action)
        self.second.apply(twin[index])
        self.remember()
        return True


def _untold(game: gr.Game, seat: int) -> list[str]:
    """The cards of the game whose ids the seat is not told now (spec 1.14): every card in
    a hand, deck, display, discard pile, in front of a player or set aside, but its own hand
    and the stolen cards it sees."""
    state, view = game.state, game.view(seat)
    told = set(view.hand) | {card for _, _, card in view.stolen if card is not None}
    places = [*state.hands, *state.tableaux, *state.decks.values(), *state.displays.values()]
    places += [*state.discards.values(), tuple(card for card, _ in state.stolen)]
    return [card for place in places for card in place if card not in told]


def twins_of(game: gr.Game, seat: int, rng: random.Random) -> Twins | None:
    """A twin pair from ``game`` for ``seat``, or ``None`` if every face has one untold copy.

    The two copies swapped are drawn at random among the faces with two untold copies, a
    copy in another seat's hand preferred (so that its public play can follow)."""
    state = game.state
    manifest = game.rules.cards
    by_face: dict[str, list[str]] = {}
    for card in _untold(game, seat):
        by_face.setdefault(manifest.face_id(card), []).append(card)
    faces = sorted(face for face, cards in by_face.items() if len(cards) > 1)
    if not faces:
        return None
    in_hands = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
    held = [face for face in faces if any(card in in_hands for card in by_face[face])]
    face = rng.choice(held or faces)
    copies = sorted(by_face[face])
    first = rng.choice([card for card in copies if card in in_hands] or copies)
    second = rng.choice([card for card in copies if card != first])
    swap = {first: second, second: first}
    position = Position.from_game(game)
    data = _replace(position.to_data(), _swap_text(swap))
    twin = Position.from_data(data)
    pair = Twins(position.to_game(), twin.to_game(), seat, swap, face)
    pair.remember()
    return pair


@attrs.frozen
class Walk:
    """A recipe for a twin pair and the play that follows (what Hypothesis draws)."""

    level: str
    players: int
    seed: int
    prefix: int
    """How many random actions are played before the twins are built."""
    seat: int
    walk_seed: int
    steps: int

    def twins(self) -> tuple[Twins | None, random.Random]:
        rng = random.Random(self.walk_seed)
        game = gr.new_game(self.players, LEVELS[self.level](), self.seed)
        for _ in range(self.prefix):
            if game.is_over:
                break
            game.apply(rng.choice(list(game.legal_actions())))
        if game.is_over:
            return None, rng
        return twins_of(game, self.seat % self.players, rng), rng


def twin_walks(max_prefix: int = 80, steps: int = 40) -> st.SearchStrategy[Walk]:
    """Walks over every level and 2-5 players."""
    return st.builds(
        Walk,
        level=st.sampled_from(sorted(LEVELS)),
        players=st.integers(2, 5),
        seed=st.integers(0, 2**31),
        prefix=st.integers(0, max_prefix),
        seat=st.integers(0, 4),
        walk_seed=st.integers(0, 2**31),
        steps=st.just(steps),
    )


def as_text(data: Any) -> str:
    """JSON-ready data as canonical text, for comparisons that print well."""
    return json.dumps(data, sort_keys=True)
