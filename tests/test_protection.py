"""Protection, the one decision taken out of turn (spec 13.9, 13.10, 5.4).

Powers: P01-06 Sun, P07-12 Rain, P13-15 Earthquake, P16-19 Tornado, P20-23 Protection.
Objectives O08 and O09 are the Power Objectives (any four Power cards in front).
"""

from __future__ import annotations

import pytest

import gaia_rules as gr
from gaia_rules import Land, Pos
from gaia_rules.position import PositionBuilder

PLAIN = Pos(1, 0)


def sun_table(
    hands: dict[int, tuple[str, ...]],
    tableaux: dict[int, tuple[str, ...]] | None = None,
    active: int = 0,
    objectives: tuple[str, ...] = ("O01", "O02", "O03", "O04", "O05"),
    fulfilled: dict[str, int] | None = None,
) -> gr.Game:
    """Three players; a plain at (1, 0) a Sun can turn into a desert."""
    builder = (
        PositionBuilder(players=3, rules=gr.Rules.powers())
        .tile(0, 0, Land.FOREST)
        .tile(1, 0, Land.PLAIN)
        .objectives(*objectives, fulfilled=fulfilled or {})
        .turn(active, 1)
    )
    for seat, cards in hands.items():
        builder.hand(seat, *cards)
    for seat, cards in (tableaux or {}).items():
        builder.tableau(seat, *cards)
    return builder.to_game()


@pytest.mark.clause("13.9b", "13.9c", "13.10", "5.4")
def test_every_other_seat_holding_a_power_card_is_asked_in_order_even_to_pass() -> None:
    game = sun_table({0: ("P01",), 1: ("P07",), 2: ("P20",)})
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    assert game.decision == gr.ChooseProtection(1, 0, "P01", (2,))
    assert game.to_move == 1 and game.active == 0
    assert game.legal_actions() == [gr.PassProtection(1)]  # one option, asked all the same
    game.apply(gr.PassProtection(1))
    assert game.decision == gr.ChooseProtection(2, 0, "P01", ())
    assert set(game.legal_actions()) == {gr.Protect(2, "P20"), gr.PassProtection(2)}
    game.apply(gr.PassProtection(2))
    assert game.state.tiles[PLAIN] is Land.DESERT  # no Protection: the Sun takes effect
    assert game.state.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("13.9b")
def test_the_window_starts_at_the_active_players_left_and_skips_empty_power_hands() -> None:
    game = sun_table({1: ("P01",), 0: ("P21",), 2: ("N01",)}, active=1)
    game.apply(gr.PlaySun(1, "P01", PLAIN))
    assert game.decision == gr.ChooseProtection(0, 1, "P01", ())  # seat 2 holds no Power


@pytest.mark.clause("13.9b")
def test_with_no_other_power_card_held_no_one_is_asked() -> None:
    game = sun_table({0: ("P01",), 1: ("N01",)})
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    assert game.state.tiles[PLAIN] is Land.DESERT
    assert not any(
        isinstance(e, gr.ActionTaken) and isinstance(e.action, gr.PassProtection)
        for e in game.events
    )


@pytest.mark.clause("13.9c", "1.5")
def test_being_asked_reveals_nothing() -> None:
    # Two games that differ only in which of seats 1 and 2 holds the Protection.
    def game(protector: int) -> gr.Game:
        other = 3 - protector
        built = sun_table({0: ("P01",), protector: ("P20",), other: ("P07",)})
        built.apply(gr.PlaySun(0, "P01", PLAIN))
        return built

    first, second = game(protector=1), game(protector=2)
    assert first.decision == second.decision == gr.ChooseProtection(1, 0, "P01", (2,))
    assert first.view(0) == second.view(0)
    assert first.events_for(0) == second.events_for(0)


@pytest.mark.clause("13.9", "13.9e", "13.2")
def test_a_protection_cancels_the_effect_and_both_cards_stay_in_front() -> None:
    game = sun_table({0: ("P01",), 1: ("P20",), 2: ("P21",)})
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    events = game.apply(gr.Protect(1, "P20"))
    assert gr.PowerCancelled(1, "P20", "P01") in events
    state = game.state
    assert state.tiles[PLAIN] is Land.PLAIN
    assert state.tableaux[0] == ("P01",)
    assert state.tableaux[1] == ("P20",)
    assert state.hands[2] == ("P21",)  # no one after the protector is asked
    assert game.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("13.9a")
def test_protection_is_never_played_as_an_action() -> None:
    game = sun_table({0: ("P20", "P01")})
    assert not any(getattr(a, "card", None) == "P20" for a in game.legal_actions())
    before = game.state
    for action in (gr.PlayTornado(0, "P20"), gr.PlaySun(0, "P20", PLAIN)):
        with pytest.raises(gr.IllegalActionError) as refused:
            game.apply(action)
        assert refused.value.clause == "13.9a"
    assert game.state == before


@pytest.mark.clause("13.9a")
def test_only_a_protection_card_protects() -> None:
    game = sun_table({0: ("P01",), 1: ("P07", "P20")})
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    before = game.state
    for card in ("P07", "P21", "N01"):
        with pytest.raises(gr.IllegalActionError) as refused:
            game.apply(gr.Protect(1, card))
        assert refused.value.clause == "13.9a"
    assert game.state == before


@pytest.mark.clause("13.9f", "8.3", "8.1")
def test_the_cancelled_player_checks_his_objectives_first() -> None:
    # Only one Power Objective (O08) is revealed. Both players reach four Power cards in
    # front at once: the Sun's player, whose Sun is cancelled, takes it.
    game = sun_table(
        {0: ("P01",), 1: ("P20",)},
        tableaux={0: ("P02", "P03", "P07"), 1: ("P08", "P09", "P10")},
        objectives=("O01", "O02", "O03", "O04", "O08"),
    )
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    events = game.apply(gr.Protect(1, "P20"))
    fulfilled = [e for e in events if isinstance(e, gr.ObjectiveFulfilled)]
    assert fulfilled == [gr.ObjectiveFulfilled(0, "O08", ("P02", "P03", "P07", "P01"))]
    assert game.state.tableaux[1] == ("P08", "P09", "P10", "P20")


@pytest.mark.clause("13.9f", "15.1")
def test_a_protection_can_win_out_of_turn() -> None:
    done = ("O01", "O02", "O03", "O04")
    game = sun_table(
        {0: ("P01",), 2: ("P20",)},
        tableaux={2: ("P08", "P09", "P10")},
        objectives=(*done, "O08"),
        fulfilled={o: 2 for o in done},
    )
    assert game.state.supply[2] == 1
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    assert game.to_move == 2
    game.apply(gr.Protect(2, "P20"))
    assert game.is_over
    assert game.result == gr.Result(2, gr.EndReason.ALL_PAWNS_PLACED, (0, 0, 5), ended_by=2)
    assert game.state.tiles[PLAIN] is Land.PLAIN


@pytest.mark.clause("13.9b", "13.8")
def test_a_cancelled_tornado_steals_nothing() -> None:
    game = sun_table({0: ("P16",), 1: ("P20", "N01"), 2: ("C01",)})
    game.apply(gr.PlayTornado(0, "P16"))
    game.apply(gr.Protect(1, "P20"))
    state = game.state
    assert state.hands[1] == ("N01",) and state.hands[2] == ("C01",)
    assert state.stolen == ()
    assert game.decision == gr.ChooseAction(0, 2)


@pytest.mark.clause("13.1")
def test_the_powers_setup() -> None:
    revealed_power_objectives = 0
    for seed in range(30):
        state = gr.new_game(players=4, rules=gr.Rules.powers(), seed=seed).state
        assert [sum(c[0] == "P" for c in hand) for hand in state.hands] == [1, 1, 1, 1]
        assert len(state.displays[gr.CardKind.POWER]) == 2
        assert len(state.decks[gr.CardKind.POWER]) == 23 - 4 - 2
        assert len(state.objectives) == 6
        revealed_power_objectives += sum(o in ("O08", "O09") for o in state.objectives)
    assert revealed_power_objectives > 0


@pytest.mark.clause("13.9d")
def test_no_window_opens_after_a_protection_and_it_may_shield_a_third_player() -> None:
    # Seat 0's Sun would lower nobody's city but seat 2's land; seat 1, who holds a
    # Protection, may cancel it all the same. Seat 2 holds a Protection too, but no one is
    # asked whether to answer seat 1's Protection: a Protection cannot be answered.
    game = sun_table({0: ("P01",), 1: ("P20",), 2: ("P21",)})
    game.apply(gr.PlaySun(0, "P01", PLAIN))
    events = game.apply(gr.Protect(1, "P20"))
    assert not any(
        isinstance(e, gr.ActionTaken)
        and isinstance(e.action, gr.PassProtection | gr.Protect)
        and e.player == 2
        for e in events
    )
    assert not isinstance(game.decision, gr.ChooseProtection)
    assert game.state.hands[2] == ("P21",)
