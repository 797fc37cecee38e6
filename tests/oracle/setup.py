"""The deal, read from the spec and the game's parameters alone (spec 2, 4, 13.1, 14.1).

The shuffles are the seed's (1.6), and the spec fixes no algorithm for them, so the oracle
cannot say which card lands where; it says everything else: which cards make each deck, how
many each seat and each display receive, which cards leave the game, how many Objectives
are revealed and from which cards, and that the world, the tokens, the pawns and the flow
are as setup leaves them.
"""

from __future__ import annotations

from collections import Counter

import gaia_rules as gr
from tests.oracle.model import kind_of

__all__ = ["deal_problems"]

HAND = {gr.CardKind.NATURE: 2, gr.CardKind.LIFE: 1, gr.CardKind.POWER: 1}
"""4.2, 4.3, 13.1: what each seat is dealt of each kind."""
DISPLAY = {gr.CardKind.NATURE: 3, gr.CardKind.LIFE: 2, gr.CardKind.POWER: 2}
"""4.2, 4.3, 13.1: the slots of each display."""
BOX_TILES = {
    gr.Land.DESERT: 10,
    gr.Land.PLAIN: 10,
    gr.Land.SWAMP: 7,
    gr.Land.SEA: 7,
    gr.Land.MOUNTAIN: 6,
    gr.Land.FOREST: 8,
}
"""2.1: the 48 tiles of the box, by land (the oracle reads the spec, not the other tests)."""
TOKENS = 20
"""2.2."""
DISASTERS = (gr.Power.LIGHTNING, gr.Power.ERUPTION)


def _decks(rules: gr.Rules) -> tuple[dict[gr.CardKind, set[gr.CardId]], set[gr.CardId]]:
    """The cards each deck is made of before it is dealt (2.4-2.7, 13.1, 14.1), but the
    Lightnings; and the box's Lightnings, of which ``lightnings`` join the disasters deck
    (the spec says how many, not which)."""
    decks: dict[gr.CardKind, set[gr.CardId]] = {kind: set() for kind in gr.CardKind}
    lightnings: set[gr.CardId] = set()
    for card, face in rules.cards.cards:
        if isinstance(face, gr.NatureCard):
            decks[gr.CardKind.NATURE].add(card)
        elif isinstance(face, gr.CityCard | gr.AnimalCard):
            decks[gr.CardKind.LIFE].add(card)
        elif isinstance(face, gr.PowerCard) and face.power is gr.Power.LIGHTNING:
            lightnings.add(card)
        elif isinstance(face, gr.PowerCard) and rules.level >= (
            gr.Level.DISASTERS if face.power in DISASTERS else gr.Level.POWERS
        ):
            decks[gr.CardKind.POWER].add(card)
    return decks, lightnings


def deal_problems(game: gr.Game) -> list[str]:
    """Everything about a game fresh from ``new_game`` that the spec does not allow, given
    its players, first player and rules; an empty list for a sound deal."""
    state, rules, players = game.state, game.rules, game.players
    face = rules.cards.face
    decks, lightnings = _decks(rules)
    in_play = gr.CardKind.POWER if rules.level >= gr.Level.POWERS else None
    problems: list[str] = []
    for kind in gr.CardKind:
        held = [c for hand in state.hands for c in hand if kind_of(face(c)) is kind]
        placed = [*held, *state.displays.get(kind, ()), *state.decks.get(kind, ())]
        if kind is gr.CardKind.POWER:
            chosen = [card for card in placed if card in lightnings]
            wanted = rules.lightnings if rules.level >= gr.Level.DISASTERS else 0
            if len(chosen) != wanted:
                problems.append(f"2.7, 14.1: {len(chosen)} Lightnings in play, not {wanted}")
            placed = [card for card in placed if card not in lightnings]
        if Counter(placed) != Counter(decks[kind]):
            missing = sorted(decks[kind] - set(placed))
            extra = sorted(set(placed) - decks[kind])
            problems.append(
                f"2.4-2.7, 4.2-4.5: {kind.value} cards missing {missing}, extra {extra}"
            )
        played = kind is not gr.CardKind.POWER or kind is in_play
        slots = DISPLAY[kind] if played else 0
        if len(state.displays.get(kind, ())) != slots:
            problems.append(f"4.2-4.5: the {kind.value} display holds not {slots} cards")
        for seat in range(players):
            count = sum(1 for card in state.hands[seat] if kind_of(face(card)) is kind)
            if count != (HAND[kind] if played else 0):
                problems.append(f"4.2-4.5: seat {seat} holds {count} {kind.value} cards")
        if state.discards.get(kind):
            problems.append(f"4.1: the {kind.value} discard pile is not empty")
    objectives = [card for card, f in rules.cards.cards if isinstance(f, gr.Objective)]
    allowed = {
        card
        for card in objectives
        if rules.level >= gr.Level.POWERS or not getattr(face(card), "is_power", False)
    }
    revealed = state.objectives
    if len(revealed) != players + 2 or len(set(revealed)) != len(revealed):
        problems.append(f"4.4: {len(revealed)} Objectives revealed, not {players + 2}")
    if not set(revealed) <= allowed:
        problems.append(f"4.4: {sorted(set(revealed) - allowed)} revealed below the powers level")
    powers = {card for card, f in rules.cards.cards if isinstance(f, gr.PowerCard)}
    power_in_play = {
        card
        for card in powers
        if any(card in hand for hand in state.hands)
        or card in state.displays.get(gr.CardKind.POWER, ())
        or card in state.decks.get(gr.CardKind.POWER, ())
    }
    expected_out = (set(objectives) - set(revealed)) | (powers - power_in_play)
    if set(state.out_of_game) != expected_out or len(state.out_of_game) != len(expected_out):
        wrong = sorted(set(state.out_of_game) ^ expected_out)
        problems.append(f"2.7, 4.4: out of the game, {wrong} differ from the spec")
    total = 6 if players == 2 else 5
    setup = {
        "4.1: the world is empty": not state.tiles and not state.animals and not state.cities,
        "4.1: every tile in the supply": state.tile_supply == BOX_TILES,
        "4.1: every token in the bank": state.bank == TOKENS,
        "2.3, 4.1: every pawn in its supply": list(state.supply) == [total] * players,
        "4.1: nothing in front of a player": not any(state.tableaux),
        "4.4: no pawn on an Objective": not state.objective_pawns,
        "4.5: the first player's first action": (
            state.active == game.first_player
            and state.decision == gr.ChooseAction(game.first_player, 1)
        ),
        "1.6: no random draw yet": state.random_draws == 0 and not state.stolen,
    }
    problems += [what for what, holds in setup.items() if not holds]
    return problems
