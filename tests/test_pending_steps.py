"""The pending steps of a position or a view are checked as strictly as its world (spec 1.9,
16): the Power effect waiting under a Protection window, the cities waiting for the last
pawns, the decision asked; and a position's steps are read only once its cards are sound.

Each position here is a real one, taken from a seeded game at the decision it needs, then
changed in one way that no game reaches; the engine must refuse it with a ``PositionError``
(or, for a view, a ``ViewError``) and never start a game that breaks later.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

import gaia_rules as gr
from gaia_rules import Pos
from gaia_rules.position import Position
from tests.strategies import games_at

DECISIONS = (
    "ChooseProtection",
    "ChoosePawnCities",
    "ChooseObjective",
    "ChooseKeptCard",
    "ChooseBack",
    "ChooseAction",
)


def positions_at(kind: str, count: int = 3) -> tuple[Position, ...]:
    """Positions of seeded games where a decision of ``kind`` is asked."""
    return tuple(Position.from_game(game) for game in games_at(kind, count))


def refused(position: Position, *words: str) -> None:
    """``position`` is refused as a game, directly and through JSON, by a ``PositionError``
    whose problems name ``words``."""
    for attempt in (position, Position.from_json(position.to_json())):
        with pytest.raises(gr.PositionError) as error:
            attempt.to_game()
        text = str(error.value)
        assert all(word in text for word in words), text


@pytest.mark.clause("16.2", "13.9b")
def test_an_objective_in_a_hand_at_a_protection_window_is_a_position_error() -> None:
    """The seats a window asks are read from the backs of the hands, which an Objective does
    not have: a position must be refused for its misplaced card before they are read (an
    earlier engine raised ``KeyError: 'O'``)."""
    for position in positions_at("ChooseProtection"):
        assert position.to_game().decision == position.steps[-1]
        objective = next(card for card in position.out_of_game if card.startswith("O"))
        for seat in range(position.players):
            hands = list(position.hands)
            hands[seat] = (objective, *hands[seat])
            bad = attrs.evolve(
                position,
                hands=tuple(hands),
                out_of_game=tuple(c for c in position.out_of_game if c != objective),
            )
            refused(bad, objective, "Objective cannot be in a hand")


# -- the Power effect under a Protection window (13.3, 13.9b) --------------------------------------

SUN_CARD, RAIN_CARD, QUAKE_CARD, TORNADO_CARD, PROTECTION_CARD = "P01", "P07", "P13", "P16", "P20"
LIGHTNING_CARD, ERUPTION_CARD = "P24", "P29"


def window(play: gr.PowerPlay, rules: gr.Rules | None = None) -> gr.PositionBuilder:
    """Seat 0 has just played ``play`` with its first action; seat 1, who holds a Protection,
    is asked. The world: a plain at (0, 0), a mountain at (1, 0), a swamp at (0, 1), a desert
    at (1, 1)."""
    return (
        gr.PositionBuilder(players=2, rules=rules or gr.Rules.disasters(), seed=3)
        .tile(0, 0, gr.Land.PLAIN)
        .tile(1, 0, gr.Land.MOUNTAIN)
        .tile(0, 1, gr.Land.SWAMP)
        .tile(1, 1, gr.Land.DESERT)
        .tableau(0, play.card)
        .hand(1, PROTECTION_CARD)
        .turn(0)
        .steps(
            gr.ChooseAction(0, 2),
            gr.ChooseObjective(0),
            gr.PowerEffect(play),
            gr.ChooseProtection(1, 0, play.card, ()),
        )
    )


LEGAL_PLAYS: tuple[gr.PowerPlay, ...] = (
    gr.PlaySun(0, SUN_CARD, Pos(0, 0)),
    gr.PlaySun(0, SUN_CARD, Pos(0, 1)),
    gr.PlayRain(0, RAIN_CARD, Pos(1, 1)),
    gr.PlayEarthquake(0, QUAKE_CARD, Pos(0, 0), Pos(1, 0)),
    gr.PlayTornado(0, TORNADO_CARD),
    gr.PlayLightning(0, LIGHTNING_CARD, Pos(1, 1)),
    gr.PlayEruption(0, ERUPTION_CARD, Pos(1, 0)),
)

IMPOSSIBLE_PLAYS: dict[str, gr.PowerPlay] = {
    "a Sun on an empty square": gr.PlaySun(0, SUN_CARD, Pos(5, 5)),
    "a Sun on a mountain": gr.PlaySun(0, SUN_CARD, Pos(1, 0)),
    "a Rain on a swamp": gr.PlayRain(0, RAIN_CARD, Pos(0, 1)),
    "an Earthquake with an empty square": gr.PlayEarthquake(0, QUAKE_CARD, Pos(0, 0), Pos(-1, 0)),
    "an Earthquake of diagonal tiles": gr.PlayEarthquake(0, QUAKE_CARD, Pos(0, 0), Pos(1, 1)),
    "an Earthquake named higher square first": gr.PlayEarthquake(
        0, QUAKE_CARD, Pos(1, 0), Pos(0, 0)
    ),
    "a Lightning on an empty square": gr.PlayLightning(0, LIGHTNING_CARD, Pos(0, 2)),
    "an Eruption on a plain": gr.PlayEruption(0, ERUPTION_CARD, Pos(0, 0)),
    "a Sun card played as a Rain": gr.PlayRain(0, SUN_CARD, Pos(1, 1)),
}


@pytest.mark.clause("1.9", "13.3", "13.4", "13.5", "13.7", "14.2", "14.3a", "13.9b")
@pytest.mark.parametrize("play", LEGAL_PLAYS, ids=lambda play: type(play).__name__)
def test_a_power_effect_the_world_allows_waits_under_its_window(play: gr.PowerPlay) -> None:
    """The base of the cases below: each play is legal on this world, and its effect runs
    when the window closes."""
    game = window(play).to_game()
    assert game.decision == gr.ChooseProtection(1, 0, play.card, ())
    game.apply(gr.PassProtection(1))
    assert game.is_over or game.decision is not None


@pytest.mark.clause("1.9", "13.3", "13.4", "13.5", "13.7", "14.2", "14.3a", "13.2")
@pytest.mark.parametrize("fault", list(IMPOSSIBLE_PLAYS))
def test_a_power_effect_the_world_does_not_allow_is_a_position_error(fault: str) -> None:
    """An earlier engine accepted these, and broke the game when the window closed: a
    ``KeyError`` with the game already changed, or a world left in two pieces (16.5)."""
    play = IMPOSSIBLE_PLAYS[fault]
    refused(window(play).build(), "PowerEffect")


@pytest.mark.clause("1.9", "13.3", "13.9b")
def test_a_power_effect_of_a_real_window_aimed_elsewhere_is_a_position_error() -> None:
    """Positions of real games at a Protection window, the waiting effect aimed at a square
    with no tile: refused, where the window would otherwise close on a ``KeyError``."""
    tried = 0
    for position in positions_at("ChooseProtection", 6):
        effect = next(step for step in position.steps if isinstance(step, gr.PowerEffect))
        play = effect.action
        if not hasattr(play, "pos"):
            continue
        change: dict[str, Any] = {"pos": Pos(40, 40)}
        far = attrs.evolve(play, **change)
        steps = tuple(gr.PowerEffect(far) if s == effect else s for s in position.steps)
        refused(attrs.evolve(position, steps=steps), "PowerEffect")
        tried += 1
    assert tried


@pytest.mark.clause("1.8", "16.8", "13.3", "13.9b")
@pytest.mark.parametrize("fault", list(IMPOSSIBLE_PLAYS))
def test_a_power_effect_the_world_does_not_allow_is_refused_in_a_view_and_a_record(
    fault: str,
) -> None:
    """The same effect reaches the engine through a view (``determinize``, ``View.from_json``)
    and through a record that starts from the position: each is refused as the position is,
    where an earlier engine sampled or replayed a game that broke when the window closed."""
    play = IMPOSSIBLE_PLAYS[fault]
    sound = next(legal for legal in LEGAL_PLAYS if legal.card == play.card)
    game = window(sound).to_game()

    def aimed_wrong(steps: tuple[gr.Step, ...]) -> tuple[gr.Step, ...]:
        assert gr.PowerEffect(sound) in steps
        return tuple(
            gr.PowerEffect(play) if step == gr.PowerEffect(sound) else step for step in steps
        )

    for seat in range(game.players):
        view = game.view(seat)
        views_refused(attrs.evolve(view, steps=aimed_wrong(view.steps)), "PowerEffect")
    record = game.record()
    assert record.start is not None and record.replay().state == game.state
    bad = attrs.evolve(
        record, start=attrs.evolve(record.start, steps=aimed_wrong(record.start.steps))
    )
    with pytest.raises(gr.RecordError, match="PowerEffect"):
        bad.replay()
    with pytest.raises(gr.GaiaRulesError, match="PowerEffect"):
        gr.GameRecord.from_json(bad.to_json()).replay()


@pytest.mark.clause("13.9b", "1.9")
def test_a_power_effect_without_its_window_above_it_is_a_position_error() -> None:
    play = LEGAL_PLAYS[0]
    no_window = window(play).steps(
        gr.ChooseAction(0, 2), gr.ChooseObjective(0), gr.PowerEffect(play), gr.ChooseObjective(0)
    )
    refused(no_window.build(), "window")


# -- the cities waiting for the last pawns (10.5, 12.5) --------------------------------------------


@pytest.mark.clause("10.4", "10.5", "12.5", "16.6")
def test_a_city_listed_for_pawns_that_takes_none_is_a_position_error() -> None:
    """Every city listed for the player's last pawns is one he raised to two needs or more
    and that takes a pawn of his: an earlier engine took a city with one need met, and one
    action later the game held a pawn on it (16.6)."""
    tried: set[str] = set()
    for position in positions_at("ChoosePawnCities", 6):
        game = position.to_game()
        waiting = position.steps[-1]
        assert isinstance(waiting, gr.ChoosePawnCities) and game.decision == waiting
        state = game.state
        for pos, city in state.cities.items():
            if pos in waiting.cities:
                continue
            fault = None
            if city.satisfaction < 2:
                fault = "one need"
            elif waiting.player in city.pawns and city.satisfaction < 4:
                fault = "his pawn already"
            if fault is None:
                continue
            listed = attrs.evolve(waiting, cities=(*waiting.cities, pos))
            refused(attrs.evolve(position, steps=(*position.steps[:-1], listed)), "takes no pawn")
            tried.add(fault)
        repeated = attrs.evolve(waiting, cities=(*waiting.cities, waiting.cities[0]))
        refused(attrs.evolve(position, steps=(*position.steps[:-1], repeated)), "listed once")
    assert tried == {"one need", "his pawn already"}, tried


@pytest.mark.clause("10.5")
def test_pawn_cities_below_another_step_are_a_position_error() -> None:
    position = positions_at("ChoosePawnCities")[0]
    waiting = position.steps[-1]
    assert isinstance(waiting, gr.ChoosePawnCities)
    active = position.active
    under = (*position.steps[:-1], waiting, gr.ChooseObjective(active))
    refused(attrs.evolve(position, steps=under), "settled before")


# -- a view shows the decision asked (5.4, 1.8) ----------------------------------------------------


def views_refused(view: gr.View, *words: str) -> None:
    """``view`` is refused by ``determinize`` and by ``View.from_json``, naming ``words``."""
    with pytest.raises(gr.ViewError) as error:
        gr.determinize(view, random.Random(0))
    assert all(word in str(error.value) for word in words), str(error.value)
    with pytest.raises(gr.JsonError) as read:
        gr.View.from_json(view.to_json())
    assert all(word in str(read.value) for word in words), str(read.value)


@pytest.mark.clause("1.8", "5.4", "16.9")
@pytest.mark.parametrize("kind", DECISIONS)
def test_a_view_of_a_game_under_way_with_no_decision_is_refused(kind: str) -> None:
    """An earlier engine sampled from it a game that was not over and had no legal action,
    whose record replayed to another game."""
    for position in positions_at(kind, 2):
        game = position.to_game()
        for seat in range(game.players):
            view = game.view(seat)
            assert gr.View.from_json(view.to_json()) == view
            emptied = attrs.evolve(view, decision=None, to_move=None, steps=())
            # cities waiting for pawns are unsettled without their step: refused for that first
            views_refused(emptied, *(() if kind == "ChoosePawnCities" else ("steps", "5.4")))


@pytest.mark.clause("1.8", "5.4", "8.4")
def test_a_view_asking_an_objective_choice_with_nothing_to_fulfil_is_refused() -> None:
    for position in positions_at("ChooseAction", 3):
        game = position.to_game()
        decision = game.decision
        assert isinstance(decision, gr.ChooseAction)
        check = gr.ChooseObjective(decision.player)
        for seat in range(game.players):
            view = game.view(seat)
            asked = attrs.evolve(
                view, decision=check, to_move=check.player, steps=(*view.steps, check)
            )
            views_refused(asked, "is not asked", "5.4")


@pytest.mark.clause("1.8", "5.4")
def test_every_view_of_real_games_is_read_back_and_sampled() -> None:
    """The base of the cases above: a real view at each kind of decision is accepted, and a
    sample of it shows its seat that very view and asks the same decision."""
    for kind in DECISIONS:
        for position in positions_at(kind, 2):
            game = position.to_game()
            for seat in range(game.players):
                view = game.view(seat)
                sample = gr.determinize(view, random.Random(seat))
                assert sample.view(seat) == view
                assert sample.view(seat).decision == view.decision
                assert sample.to_move == game.to_move
                assert len(sample.legal_actions()) > 0
                replayed = sample.record().replay()
                assert replayed.state == sample.state
