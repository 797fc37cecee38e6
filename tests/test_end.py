"""The end of the game (spec 15), and its outcome (16.9)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

import gaia_rules as gr
from gaia_rules import CardKind, Land, Pos
from gaia_rules.position import PositionBuilder
from tests.strategies import Walk, walk_strategy


@pytest.mark.clause("15.1")
def test_the_last_pawn_wins_at_once_and_the_rest_of_the_turn_lapses() -> None:
    # Seat 1 (2 players, 6 pawns) has 3 on Objectives and 2 on cities: 1 left. His first
    # action fulfils O02 with his last pawn.
    objectives = ("O01", "O02", "O03", "O04")
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.MOUNTAIN)
        .tile(1, 0, Land.DESERT)
        .tile(0, 1, Land.FOREST)
        .tile(0, 2, Land.MOUNTAIN)
        .tile(1, 2, Land.SEA)
        .city(0, 0, "C11", pawns=[1])  # Lhasa: desert, forest
        .city(0, 2, "C10", pawns=[1])  # Sparta: forest, sea
        .tableau(1, "N07", "N33", "N34")
        .hand(1, "N08")
        .objectives(*objectives, fulfilled={"O01": 1, "O03": 1, "O04": 1})
        .turn(1, 1)
        .to_game()
    )
    assert game.state.supply[1] == 1
    game.apply(gr.PlayNature(1, "N08", Pos(2, 0)))
    assert game.is_over
    assert game.result == gr.Result(1, gr.EndReason.ALL_PAWNS_PLACED, (0, 6), ended_by=1)
    assert isinstance(game.events[-1], gr.GameEnded)
    assert game.to_move is None and game.decision is None
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.DrawDeck(1, CardKind.NATURE))
    assert refused.value.clause == "15.1"
    assert game.state == before


def exhausted(players: int, ender: int, placed: dict[int, int]) -> gr.Game:
    """Nature exhausted; seat ``ender`` to act; each seat with ``placed[seat]`` pawns on
    Objectives (fulfilled by that seat)."""
    revealed = ("O01", "O02", "O03", "O04", "O05", "O06", "O07")[: players + 2]
    owners = [seat for seat, n in sorted(placed.items()) for _ in range(n)]
    assert len(owners) <= len(revealed)
    return (
        PositionBuilder(players=players)
        .tile(0, 0, Land.PLAIN)
        .deck(CardKind.NATURE)
        .display(CardKind.NATURE)
        .objectives(*revealed, fulfilled=dict(zip(revealed, owners, strict=False)))
        .turn(ender, 1)
        .to_game()
    )


@pytest.mark.clause("15.2", "15.3", "3.10")
def test_the_exhaustion_end_counts_pawns_on_cities_and_objectives() -> None:
    game = exhausted(3, ender=0, placed={1: 2, 2: 1})
    game.apply(gr.DrawDeck(0, CardKind.NATURE))
    assert game.result == gr.Result(1, gr.EndReason.EXHAUSTION, (0, 2, 1), ended_by=0)


@pytest.mark.clause("15.4")
def test_the_tie_goes_to_the_first_after_the_ender_in_seat_order() -> None:
    # the spec's example: seat 2 ends; seats 0 and 2 tie: clockwise after 2 come 3, 0, 1, 2
    game = exhausted(4, ender=2, placed={0: 2, 2: 2, 1: 1})
    game.apply(gr.DrawDeck(2, CardKind.NATURE))
    assert game.result is not None
    assert game.result.winner == 0


@pytest.mark.clause("15.4")
def test_the_ender_counts_last_in_his_own_tie() -> None:
    game = exhausted(3, ender=1, placed={1: 2, 0: 2})
    game.apply(gr.DrawDeck(1, CardKind.NATURE))
    assert game.result is not None
    assert game.result.winner == 0
    game = exhausted(3, ender=1, placed={1: 2, 2: 2})
    game.apply(gr.DrawDeck(1, CardKind.NATURE))
    assert game.result is not None
    assert game.result.winner == 2


@pytest.mark.clause("15.2")
def test_nothing_but_the_choice_ends_the_game_every_deck_and_display_empty() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, Land.PLAIN)
        .deck(CardKind.NATURE)
        .display(CardKind.NATURE)
        .deck(CardKind.LIFE)
        .display(CardKind.LIFE)
        .turn(0, 1)
        .to_game()
    )
    assert not game.is_over
    assert set(game.legal_actions()) == {
        gr.DrawDeck(0, CardKind.NATURE),
        gr.DrawDeck(0, CardKind.LIFE),
    }


@pytest.mark.clause("16.9", "5.4", "15.5")
def test_one_decision_for_one_seat_until_the_end_then_none_and_one_winner() -> None:
    for seed in range(20):
        game = gr.new_game(players=2 + seed % 4, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over:
            decision = game.decision
            assert decision is not None
            assert game.to_move == decision.player
            assert 0 <= decision.player < game.players
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
            assert steps < 5_000
        assert game.decision is None and game.to_move is None
        assert game.legal_actions() == []
        result = game.result
        assert result is not None and 0 <= result.winner < game.players
        placed = game.state.total_pawns - min(game.state.supply)
        if result.reason is gr.EndReason.ALL_PAWNS_PLACED:
            assert game.state.supply[result.winner] == 0
        else:
            assert result.pawns_placed[result.winner] == max(result.pawns_placed)
        assert placed >= 0


SLOTS = {CardKind.NATURE: 3, CardKind.LIFE: 2, CardKind.POWER: 2}
"""The display slots of each kind (3.8)."""


def back_of(face: gr.Face) -> CardKind | None:
    """The kind a card's back shows (3.8); ``None`` for an Objective, which has no kind."""
    if isinstance(face, gr.NatureCard):
        return CardKind.NATURE
    if isinstance(face, gr.CityCard | gr.AnimalCard):
        return CardKind.LIFE
    if isinstance(face, gr.PowerCard):
        return CardKind.POWER
    return None


def check_places(game: gr.Game) -> None:
    """Every place of 3.8 holds what it may, at the game's level."""
    state = game.state
    faces = state.rules.cards
    in_play = [CardKind.NATURE, CardKind.LIFE]
    if state.rules.level >= gr.Level.POWERS:
        in_play.append(CardKind.POWER)
    # the tile supply: six stacks, one per land; the bank
    assert set(state.tile_supply) == set(Land), state.tile_supply
    assert all(count >= 0 for count in state.tile_supply.values())
    assert 0 <= state.bank <= 20
    # a deck, a display (3, 2, 2 slots) and a discard pile for each kind in play, and only
    # for those; each holds cards of its own back
    for kind in CardKind:
        deck, display = state.decks.get(kind, ()), state.displays.get(kind, ())
        pile = state.discards.get(kind, ())
        if kind not in in_play:
            assert (deck, display, pile) == ((), (), ()), f"{kind} cards below the powers level"
        assert len(display) <= SLOTS[kind], f"the {kind} display holds {display}"
        if deck:
            assert len(display) == SLOTS[kind], f"the {kind} display holds {display}"
        for card in (*deck, *display, *pile):
            assert back_of(faces.face(card)) is kind, f"{card} in a {kind} pile"
    # hands, the cards a Tornado set aside, tableaux: cards of a kind, never an Objective
    assert len(state.hands) == len(state.tableaux) == len(state.supply) == state.players
    held = [c for hand in state.hands for c in hand] + [c for c, _ in state.stolen]
    assert all(back_of(faces.face(card)) in in_play for card in held), held
    for tableau in state.tableaux:
        assert all(back_of(faces.face(c)) in (CardKind.NATURE, CardKind.POWER) for c in tableau)
    if state.rules.level < gr.Level.POWERS:
        assert not state.stolen
    # Objectives are revealed or out of the game, never drawn; out of the game are only
    # the Objectives not revealed and the Power cards not in the level's deck
    assert all(isinstance(faces.face(card), gr.Objective) for card in state.objectives)
    for card in state.out_of_game:
        face = faces.face(card)
        assert isinstance(face, gr.Objective | gr.PowerCard), card
        assert card not in state.objectives


@pytest.mark.clause("3.8")
@settings(max_examples=30, deadline=None, derandomize=True)
@given(walk=walk_strategy(max_steps=300, prefer_plays=(0.0, 0.9)))
def test_every_place_holds_only_what_it_may_at_every_step(walk: Walk) -> None:
    walk.play(check_places)
