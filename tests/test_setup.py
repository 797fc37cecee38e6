"""Setup (spec 4), seats and turn order (1.4), and the seed (1.6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import CardKind, Land

PLAYERS = [2, 3, 4, 5]
EDITIONS = list(gr.Edition)
BOX_TILES = {
    Land.DESERT: 10,
    Land.PLAIN: 10,
    Land.SWAMP: 7,
    Land.SEA: 7,
    Land.MOUNTAIN: 6,
    Land.FOREST: 8,
}
LIFE_CARDS = {gr.Edition.THIRD: 31, gr.Edition.FIRST: 30}


def setups() -> list[tuple[int, gr.Edition, int]]:
    """(players, edition, seed): every count, both editions, a few seeds each."""
    return [(p, e, s) for p in PLAYERS for e in EDITIONS for s in (0, 1, 77)]


def new(players: int, edition: gr.Edition = gr.Edition.THIRD, seed: int = 0) -> gr.Game:
    return gr.new_game(players=players, rules=gr.Rules.basic(edition=edition), seed=seed)


def kind_of(card: str) -> CardKind:
    return {"N": CardKind.NATURE, "C": CardKind.LIFE, "A": CardKind.LIFE}.get(
        card[0], CardKind.POWER
    )


def play_randomly(game: gr.Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_actions()))


# -- 4.1 -------------------------------------------------------------------------------------


@pytest.mark.clause("4.1", "2.1", "2.2")
@pytest.mark.parametrize(("players", "edition", "seed"), setups())
def test_the_world_is_empty_and_every_component_in_its_place(
    players: int, edition: gr.Edition, seed: int
) -> None:
    state = new(players, edition, seed).state
    assert state.tiles == {}
    assert state.animals == {}
    assert state.cities == {}
    assert state.tile_supply == BOX_TILES
    assert state.bank == 20
    assert state.tableaux == ((),) * players
    assert state.objective_pawns == {}
    assert all(pile == () for pile in state.discards.values())
    assert state.result is None


@pytest.mark.clause("4.1", "2.3")
@pytest.mark.parametrize(("players", "pawns"), [(2, 6), (3, 5), (4, 5), (5, 5)])
def test_every_supply_holds_the_players_pawns(players: int, pawns: int) -> None:
    for first_player in range(players):
        state = gr.new_game(players=players, seed=9, first_player=first_player).state
        assert state.total_pawns == pawns
        assert state.supply == (pawns,) * players
    # 27 pawns in the box: enough for every count
    assert players * pawns <= 27


@pytest.mark.clause("4.1", "2.3")
def test_the_view_shows_the_same_supplies() -> None:
    game = new(3)
    for seat in range(3):
        view = game.view(seat)
        assert view.supply == (5, 5, 5)
        assert view.total_pawns == 5
        assert view.bank == 20
        assert view.tile_supply == BOX_TILES


# -- 4.2 / 4.3 ---------------------------------------------------------------------------------


@pytest.mark.clause("4.2", "2.4")
@pytest.mark.parametrize(("players", "edition", "seed"), setups())
def test_two_nature_cards_per_hand_and_three_in_the_display(
    players: int, edition: gr.Edition, seed: int
) -> None:
    state = new(players, edition, seed).state
    for hand in state.hands:
        assert sum(kind_of(card) is CardKind.NATURE for card in hand) == 2
    assert len(state.displays[CardKind.NATURE]) == 3
    assert len(state.decks[CardKind.NATURE]) == 40 - 2 * players - 3
    nature = [c for hand in state.hands for c in hand if kind_of(c) is CardKind.NATURE]
    nature += [*state.displays[CardKind.NATURE], *state.decks[CardKind.NATURE]]
    assert sorted(nature) == [f"N{n:02d}" for n in range(1, 41)]


@pytest.mark.clause("4.3", "2.5")
@pytest.mark.parametrize(("players", "edition", "seed"), setups())
def test_one_life_card_per_hand_and_two_in_the_display(
    players: int, edition: gr.Edition, seed: int
) -> None:
    state = new(players, edition, seed).state
    for hand in state.hands:
        assert sum(kind_of(card) is CardKind.LIFE for card in hand) == 1
        assert len(hand) == 3
    assert len(state.displays[CardKind.LIFE]) == 2
    assert len(state.decks[CardKind.LIFE]) == LIFE_CARDS[edition] - players - 2
    manifest = gr.Manifest.builtin(edition)
    life = [c for hand in state.hands for c in hand if kind_of(c) is CardKind.LIFE]
    life += [*state.displays[CardKind.LIFE], *state.decks[CardKind.LIFE]]
    assert sorted(life) == sorted(manifest.ids(gr.CityCard) + manifest.ids(gr.AnimalCard))


@pytest.mark.clause("4.5", "2.7")
@pytest.mark.parametrize("players", PLAYERS)
def test_no_power_card_is_in_play_at_the_basic_level(players: int) -> None:
    state = new(players).state
    assert state.decks.get(CardKind.POWER, ()) == ()
    assert state.displays.get(CardKind.POWER, ()) == ()
    assert not any(card.startswith("P") for hand in state.hands for card in hand)
    powers = [card for card in state.out_of_game if card.startswith("P")]
    assert powers == [f"P{n:02d}" for n in range(1, 31)]


@pytest.mark.clause("4.2", "4.3", "4.5")
def test_the_deal_differs_between_seats_and_is_shuffled() -> None:
    hands = {new(4, seed=seed).state.hands for seed in range(10)}
    assert len(hands) > 1
    deck = new(2, seed=5).state.decks[CardKind.NATURE]
    assert list(deck) != sorted(deck)


# -- 4.4 ---------------------------------------------------------------------------------------


@pytest.mark.clause("4.4", "2.6")
@pytest.mark.parametrize(("players", "edition", "seed"), setups())
def test_players_plus_two_nature_objectives_revealed_the_rest_out(
    players: int, edition: gr.Edition, seed: int
) -> None:
    state = new(players, edition, seed).state
    manifest = state.rules.cards
    assert len(state.objectives) == players + 2
    assert len(set(state.objectives)) == players + 2
    for card in state.objectives:
        face = manifest.face(card)
        assert isinstance(face, gr.Objective)
        assert not face.is_power
    all_objectives = set(manifest.ids(gr.Objective))
    out = {card for card in state.out_of_game if card in all_objectives}
    assert out == all_objectives - set(state.objectives)
    assert {"O08", "O09"} <= out
    if players == 5:
        assert sorted(state.objectives) == [f"O0{n}" for n in range(1, 8)]


@pytest.mark.clause("4.4")
def test_the_revealed_objectives_vary_with_the_seed() -> None:
    revealed = {new(2, seed=seed).state.objectives for seed in range(20)}
    assert len(revealed) > 1
    assert not any({"O08", "O09"} & set(objectives) for objectives in revealed)


@pytest.mark.clause("4.4")
@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**63 - 1), walk=st.integers(0, 2**32))
def test_the_objectives_stay_as_revealed(players: int, seed: int, walk: int) -> None:
    game = gr.new_game(players=players, seed=seed)
    revealed = game.state.objectives
    play_randomly(game, random.Random(walk), 60)
    assert game.state.objectives == revealed


# -- 4.5 ---------------------------------------------------------------------------------------


@pytest.mark.clause("4.5", "1.4", "5.1")
@pytest.mark.parametrize("players", PLAYERS)
def test_seat_0_moves_first_by_default(players: int) -> None:
    game = gr.new_game(players=players, seed=4)
    assert game.first_player == 0
    assert game.decision == gr.ChooseAction(0, 1)
    assert game.to_move == 0
    assert game.active == 0
    assert game.events == (gr.TurnBegan(0),)
    assert game.actions == ()


@pytest.mark.clause("4.5", "1.4", "5.1")
@pytest.mark.parametrize(("players", "first_player"), [(p, f) for p in PLAYERS for f in range(p)])
def test_the_first_player_argument_moves_first(players: int, first_player: int) -> None:
    game = gr.new_game(players=players, seed=4, first_player=first_player)
    assert game.first_player == first_player
    assert game.state.first_player == first_player
    assert game.decision == gr.ChooseAction(first_player, 1)
    assert game.to_move == first_player
    assert game.active == first_player
    # nothing happens before the first turn
    assert game.events == (gr.TurnBegan(first_player),)
    # the first player changes who moves, not the deal (4.5 deals from seat 0)
    assert game.state.hands == gr.new_game(players=players, seed=4).state.hands


@pytest.mark.clause("4.5", "5.2")
def test_the_first_turn_has_two_actions_then_passes_on() -> None:
    game = gr.new_game(players=3, seed=12, first_player=1)
    draw = gr.DrawDeck(1, CardKind.NATURE)
    game.apply(draw)
    assert game.decision == gr.ChooseAction(1, 2)
    game.apply(gr.DrawDeck(1, CardKind.LIFE))
    assert game.active == 2
    assert game.to_move == 2


# -- 1.4 seats and turn order --------------------------------------------------------------------


@pytest.mark.clause("1.4", "5.1", "5.5")
@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**63 - 1),
    first=st.integers(0, 4),
    walk=st.integers(0, 2**32),
)
def test_turns_pass_in_seat_order_from_the_first_player(
    players: int, seed: int, first: int, walk: int
) -> None:
    first_player = first % players
    game = gr.new_game(players=players, seed=seed, first_player=first_player)
    play_randomly(game, random.Random(walk), 400)
    turns = [event.player for event in game.events if isinstance(event, gr.TurnBegan)]
    assert turns, "the first turn begins"
    assert turns == [(first_player + i) % players for i in range(len(turns))]
    # every action of a turn is taken by its active player
    active = None
    for event in game.events:
        if isinstance(event, gr.TurnBegan):
            active = event.player
        elif isinstance(event, gr.ActionTaken) and isinstance(
            event.action,
            gr.DrawDeck | gr.DrawDisplay | gr.PlayNature | gr.PlayAnimals | gr.PlayCity,
        ):
            assert event.player == active


@pytest.mark.clause("1.4", "5.1")
def test_seat_0_follows_the_last_seat() -> None:
    game = gr.new_game(players=4, seed=3, first_player=3)
    for _ in range(2):
        game.apply(gr.DrawDeck(3, CardKind.NATURE))
    assert game.active == 0
    assert [e for e in game.events if isinstance(e, gr.TurnBegan)] == [
        gr.TurnBegan(3),
        gr.TurnBegan(0),
    ]


# -- 1.6 the seed --------------------------------------------------------------------------------


@pytest.mark.clause("1.6")
@pytest.mark.parametrize(("players", "edition", "seed"), setups())
def test_the_same_seed_gives_the_same_deal(players: int, edition: gr.Edition, seed: int) -> None:
    one, two = new(players, edition, seed).state, new(players, edition, seed).state
    assert one == two
    assert one.hands == two.hands
    assert one.decks == two.decks
    assert one.displays == two.displays
    assert one.objectives == two.objectives
    assert one.seed == seed


@pytest.mark.clause("1.6")
def test_twenty_seeds_do_not_all_give_the_same_deal() -> None:
    deals = {
        (state.hands, state.decks[CardKind.NATURE], state.decks[CardKind.LIFE], state.objectives)
        for state in (new(3, seed=seed).state for seed in range(100, 120))
    }
    assert len(deals) > 1
    # in fact nearly every seed gives a deal of its own
    assert len(deals) >= 18


@pytest.mark.clause("1.6", "16.8")
@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**63 - 1), walk=st.integers(0, 2**32))
def test_the_same_seed_and_actions_give_the_same_game(players: int, seed: int, walk: int) -> None:
    game = gr.new_game(players=players, seed=seed)
    play_randomly(game, random.Random(walk), 120)
    again = gr.new_game(players=players, seed=seed)
    for action in game.actions:
        again.apply(action)
    assert again.events == game.events
    assert again.state == game.state


@pytest.mark.clause("1.6")
def test_the_deal_is_a_permutation_of_the_box() -> None:
    counts: Counter[str] = Counter()
    for seed in range(20):
        state = new(2, seed=seed).state
        counts.update(state.hands[0])
    # over twenty deals seat 0 received many different cards
    assert len(counts) > 20


def test_a_game_comes_from_new_game_or_a_position_never_from_its_class() -> None:
    with pytest.raises(TypeError, match="new_game"):
        gr.Game()
    with pytest.raises(TypeError):
        gr.Game(gr.new_game(players=2, seed=1).state)  # type: ignore[call-arg]
    game = gr.new_game(players=2, seed=1)
    assert type(game) is gr.Game and type(game.copy()) is gr.Game
