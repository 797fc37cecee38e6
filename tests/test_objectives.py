"""Objectives: meeting, fulfilling, choosing and declining them (spec 8, 3.9).

Shipped Objectives: O01 two deserts two seas, O02 two plains two forests, O03 two mountains
two swamps, O04 two plains two seas, O05 two forests two mountains, O06 two deserts two
swamps, O07 one of each land. Nature ids: N01-06 desert, N07-14 plain, N15-19 swamp,
N20-26 sea, N27-32 mountain, N33-40 forest.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder

NEXT = Pos(1, 0)


def table(*tableau: str, hand: tuple[str, ...], rules: gr.Rules | None = None) -> gr.Game:
    return (
        PositionBuilder(players=2, rules=rules)
        .tile(0, 0, Land.MOUNTAIN)
        .tableau(0, *tableau)
        .hand(0, *hand)
        .objectives("O01", "O02", "O04", "O07")
        .turn(0, 1)
        .to_game()
    )


def fulfilled(events: tuple[gr.Event, ...]) -> list[gr.ObjectiveFulfilled]:
    return [e for e in events if isinstance(e, gr.ObjectiveFulfilled)]


@pytest.mark.clause("8.1")
def test_an_objective_counts_lands_with_repetition() -> None:
    game = table("N07", "N33", "N34", hand=("N35", "N08"))
    assert not fulfilled(game.apply(gr.PlayNature(0, "N35", NEXT)))  # P F F F: one plain
    assert fulfilled(game.apply(gr.PlayNature(0, "N08", Pos(2, 0))))  # P P F F F


@pytest.mark.clause("8.2", "3.9")
def test_only_the_pictured_cards_go_the_oldest_first_and_the_objective_is_gone() -> None:
    game = table("N33", "N07", "N01", "N34", "N35", hand=("N08",))
    events = game.apply(gr.PlayNature(0, "N08", NEXT))
    assert fulfilled(events) == [gr.ObjectiveFulfilled(0, "O02", ("N33", "N07", "N34", "N08"))]
    state = game.state
    assert state.tableaux[0] == ("N01", "N35")
    assert state.objective_pawns == {"O02": 0}
    assert state.supply[0] == 5
    assert set(state.discards[gr.CardKind.NATURE]) == {"N33", "N07", "N34", "N08"}
    # seat 1 can no longer meet O02 (3.9): it is not available
    assert "O02" in state.objectives


@pytest.mark.clause("8.3")
def test_objectives_are_checked_after_a_nature_play_not_after_a_draw() -> None:
    rules = gr.Rules.basic(objectives=gr.Objectives.OPTIONAL)
    game = table("N07", "N08", "N33", hand=("N34",), rules=rules)
    game.apply(gr.PlayNature(0, "N34", NEXT))
    assert game.decision == gr.ChooseObjective(0)
    game.apply(gr.DeclineObjectives(0))
    assert game.state.decision == gr.ChooseAction(0, 2)
    game.apply(gr.DrawDeck(0, gr.CardKind.LIFE))  # a draw: no check
    assert not isinstance(game.decision, gr.ChooseObjective)


@pytest.mark.clause("8.4", "1.3")
def test_mandatory_when_two_objectives_need_the_same_cards_the_player_chooses() -> None:
    # D D W P P in front, a sea played: O01 (D D W W) and O04 (P P W W) are both met, but
    # together they need four seas.
    game = table("N01", "N02", "N20", "N07", "N08", hand=("N21",))
    game.apply(gr.PlayNature(0, "N21", NEXT))
    assert game.decision == gr.ChooseObjective(0)
    assert set(game.legal_actions()) == {
        gr.FulfillObjective(0, "O01"),
        gr.FulfillObjective(0, "O04"),
    }
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(gr.DeclineObjectives(0))
    assert refused.value.clause == "8.4"
    game.apply(gr.FulfillObjective(0, "O04"))
    assert game.state.objective_pawns == {"O04": 0}
    assert game.state.tableaux[0] == ("N01", "N02")
    assert game.state.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("8.4")
def test_mandatory_objectives_that_can_all_be_fulfilled_are_fulfilled_without_asking() -> None:
    # D D W W P P W in front (as a position), a sea played: O01 and O04 together need W x 4.
    game = table("N01", "N02", "N20", "N21", "N07", "N08", "N22", hand=("N23",))
    events = game.apply(gr.PlayNature(0, "N23", NEXT))
    assert [e.objective for e in fulfilled(events)] == ["O01", "O04"]
    assert game.state.tableaux[0] == ()


@pytest.mark.clause("8.4", "1.3")
def test_optional_objectives_may_be_declined_and_are_offered_again_at_the_next_check() -> None:
    rules = gr.Rules.basic(objectives=gr.Objectives.OPTIONAL)
    game = table("N07", "N08", "N33", hand=("N34", "N27"), rules=rules)
    game.apply(gr.PlayNature(0, "N34", NEXT))
    assert set(game.legal_actions()) == {gr.FulfillObjective(0, "O02"), gr.DeclineObjectives(0)}
    game.apply(gr.DeclineObjectives(0))
    assert game.state.objective_pawns == {}
    game.apply(gr.PlayNature(0, "N27", Pos(-1, 0)))  # next check: offered again
    assert set(game.legal_actions()) == {gr.FulfillObjective(0, "O02"), gr.DeclineObjectives(0)}
    game.apply(gr.FulfillObjective(0, "O02"))
    assert game.state.objective_pawns == {"O02": 0}


@pytest.mark.clause("8.5", "4.4")
def test_objectives_are_never_replaced() -> None:
    game = table("N07", "N33", "N34", hand=("N08",))
    before = game.state.objectives
    game.apply(gr.PlayNature(0, "N08", NEXT))
    assert game.state.objectives == before
    assert len(before) == 4


def fulfilled_o02(rules: gr.Rules, players: int = 2) -> gr.Game:
    """Seat 0 has fulfilled O02 (two plains, two forests); both seats hold what would meet it
    again, and seat 0 also what meets O04 (two plains, two seas)."""
    return (
        PositionBuilder(players=players, rules=rules)
        .tile(0, 0, Land.MOUNTAIN)
        .tableau(0, "N07", "N08", "N33", "N20", "N21")
        .tableau(1, "N09", "N10", "N34")
        .hand(0, "N35", "N01")
        .hand(1, "N36", "N02")
        .objectives("O01", "O02", "O04", "O07", fulfilled={"O02": 0})
        .turn(0, 1)
        .to_game()
    )


@pytest.mark.clause("3.9")
@pytest.mark.parametrize("objectives", list(gr.Objectives), ids=lambda o: o.value)
def test_a_fulfilled_objective_is_available_to_no_one_its_fulfiller_included(
    objectives: gr.Objectives,
) -> None:
    """Seat 0 completes O02's picture again and seat 1 completes it too: neither fulfils it,
    it is never offered, and naming it is refused; its pawn stays seat 0's."""
    game = fulfilled_o02(gr.Rules.basic(objectives=objectives))
    events = game.apply(gr.PlayNature(0, "N35", NEXT))  # seat 0: plains 2, forests 2, seas 2
    # O04 (plains and seas) is met and available: mandatory fulfils it alone, optional asks
    if objectives is gr.Objectives.OPTIONAL:
        assert set(game.legal_actions()) == {
            gr.FulfillObjective(0, "O04"),
            gr.DeclineObjectives(0),
        }
        with pytest.raises(gr.IllegalActionError) as refused:
            game.apply(gr.FulfillObjective(0, "O02"))
        assert refused.value.clause == "8.1"
        events = game.apply(gr.FulfillObjective(0, "O04"))
    assert [e.objective for e in fulfilled(events)] == ["O04"]
    assert game.state.tableaux[0] == ("N33", "N35")  # the forests O02 pictures stay in front
    game.apply(gr.PlayNature(0, "N01", Pos(-1, 0)))
    events = game.apply(gr.PlayNature(1, "N36", Pos(0, 1)))  # seat 1: plains 2, forests 2
    assert not fulfilled(events)
    assert isinstance(game.decision, gr.ChooseAction)
    assert game.state.objective_pawns == {"O02": 0, "O04": 0}


@pytest.mark.clause("8.2", "3.9")
@pytest.mark.parametrize("objectives", list(gr.Objectives), ids=lambda o: o.value)
def test_an_objective_fulfilled_in_play_is_never_fulfilled_again(objectives: gr.Objectives) -> None:
    """Seat 0 fulfils O02 (two plains, two forests) with four plains and four forests in
    front: the pawn goes on it once, the other two plains and forests stay, and neither he
    (at the same check or a later one) nor seat 1 fulfils it again (8.2: the pawn stays,
    the Objective is no longer available, to him or to anyone)."""
    rules = gr.Rules.basic(objectives=objectives)
    game = (
        PositionBuilder(players=2, rules=rules)
        .tile(0, 0, Land.MOUNTAIN)
        .tableau(0, "N07", "N09", "N10", "N33", "N34", "N36", "N37")
        .tableau(1, "N11", "N12", "N38")
        .hand(0, "N08", "N13")
        .hand(1, "N39", "N02")
        .objectives("O01", "O02", "O04", "O07")
        .turn(0, 1)
        .to_game()
    )
    events = game.apply(gr.PlayNature(0, "N08", NEXT))  # plains 4, forests 4
    if objectives is gr.Objectives.OPTIONAL:
        assert set(game.legal_actions()) == {
            gr.FulfillObjective(0, "O02"),
            gr.DeclineObjectives(0),
        }
        events = game.apply(gr.FulfillObjective(0, "O02"))
    assert [e.objective for e in fulfilled(events)] == ["O02"]
    state = game.state
    assert state.objective_pawns == {"O02": 0}
    assert state.supply[0] == 5  # one pawn placed, once
    assert state.tableaux[0] == ("N10", "N36", "N37", "N08")  # the two left still picture O02
    assert state.decision == gr.ChooseAction(0, 2)  # no second fulfilment is asked
    events = game.apply(gr.PlayNature(0, "N13", Pos(-1, 0)))  # a new check: plains 3
    assert not fulfilled(events)
    assert isinstance(game.decision, gr.ChooseAction)
    events = game.apply(gr.PlayNature(1, "N39", Pos(0, 1)))  # seat 1: plains 2, forests 2
    assert not fulfilled(events)
    assert isinstance(game.decision, gr.ChooseAction)
    if objectives is gr.Objectives.OPTIONAL:
        assert gr.FulfillObjective(1, "O02") not in game.legal_actions()
    state = game.state
    assert state.objective_pawns == {"O02": 0}
    assert state.supply == (5, 6)


def _meets(rules: gr.Rules, tableau: list[str], objectives: list[str]) -> bool:
    """8.1 read plainly: the cards in front hold every land these Objectives picture, as
    many times as they picture it, and as many Power cards as they ask, all at once."""
    cards = rules.cards
    lands = Counter(
        face.land for face in map(cards.face, tableau) if isinstance(face, gr.NatureCard)
    )
    powers = sum(1 for face in map(cards.face, tableau) if isinstance(face, gr.PowerCard))
    wanted: Counter[Land] = Counter()
    wanted_powers = 0
    for objective in objectives:
        face = cards.face(objective)
        assert isinstance(face, gr.Objective)
        wanted.update(face.lands)
        wanted_powers += face.powers
    return not (wanted - lands) and powers >= wanted_powers


@pytest.mark.clause("8.4", "8.1", "8.3")
def test_an_objective_check_reached_in_play_asks_exactly_when_the_order_matters() -> None:
    """Checks reached by playing, at the powers level: at each check, the Objectives met
    are fulfilled by the engine alone only if one is met or all of them can be fulfilled
    together, Nature and Power cards alike; otherwise the player is asked, and offered every
    one of them."""
    asked = alone = powers_asked = 0
    for seed in range(40):
        rules = gr.Rules.powers()
        game = gr.new_game(players=3, rules=rules, seed=800 + seed)
        rng = random.Random(seed)
        while not game.is_over:
            state = game.state
            decision = game.decision
            if isinstance(decision, gr.ChooseObjective):
                met = [
                    o
                    for o in state.objectives
                    if o not in state.objective_pawns
                    and _meets(rules, list(state.tableaux[decision.player]), [o])
                ]
                assert len(met) > 1 and not _meets(
                    rules, list(state.tableaux[decision.player]), met
                )
                assert set(game.legal_actions()) == {
                    gr.FulfillObjective(decision.player, o) for o in met
                }
                asked += 1
                powers_asked += {"O08", "O09"} <= set(met)
            legal = game.legal_actions()
            plays = [a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)]
            events = game.apply(rng.choice(plays if plays and rng.random() < 0.8 else legal))
            by_engine: dict[int, list[tuple[str, tuple[str, ...]]]] = {}
            taking: str | None = None
            for event in events:
                if isinstance(event, gr.ActionTaken) and isinstance(
                    event.action, gr.FulfillObjective
                ):
                    taking = event.action.objective if event.by_engine else None
                elif isinstance(event, gr.ObjectiveFulfilled) and taking == event.objective:
                    by_engine.setdefault(event.player, []).append((event.objective, event.cards))
            after = game.state
            for seat, taken in by_engine.items():
                tableau = [*after.tableaux[seat], *(c for _, cards in taken for c in cards)]
                free = [o for o in after.objectives if o not in after.objective_pawns]
                available = free + [o for o, _ in taken]
                met = [o for o in available if _meets(rules, tableau, [o])]
                assert {o for o, _ in taken} == set(met), (taken, met)
                assert len(met) == 1 or _meets(rules, tableau, met), (taken, tableau)
                alone += 1
    # both Power Objectives met at once (O08, O09): the player chooses, however many lands
    assert asked and alone and powers_asked, (asked, alone, powers_asked)
