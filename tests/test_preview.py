"""What a Power would do, worked out from a seat's view (:mod:`gaia_rules.preview`): at every
decision of random games where a Power may be played, and at every Protection window, the
preview is exactly what the game then logs, and it reads nothing but the view."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules import preview as preview_module
from gaia_rules.preview import PowerPreview, pending_power, power_preview
from tests.strategies import Walk, random_playout, walk_strategy

EFFECT_EVENTS = (
    gr.TileReplaced,
    gr.TilesSwapped,
    gr.TokensReturned,
    gr.CityDiscarded,
    gr.SatisfactionChanged,
    gr.PawnReturned,
    gr.PawnPlaced,
    gr.CityTaken,
    gr.GameEnded,  # its player placed his last pawn (spec 15.1)
)
"""The events a Power's effect can cause."""

SCARCE = (gr.PlaySun, gr.PlayRain, gr.PlayEarthquake, gr.PlayLightning, gr.PlayEruption)


def pass_protections(game: gr.Game) -> list[gr.Event]:
    """Every seat asked passes; the events that follows."""
    events: list[gr.Event] = []
    while isinstance(game.decision, gr.ChooseProtection):
        events += game.apply(gr.PassProtection(game.decision.player))
    return events


def effect_of(events: list[gr.Event]) -> tuple[gr.Event, ...]:
    """The effect's events in a log that begins after the Power went in front (and after the
    last Protection window passed): the run of world events it starts with."""
    start = 0
    while start < len(events) and isinstance(events[start], gr.ActionTaken):
        start += 1  # the passes
    end = start
    while end < len(events) and isinstance(events[end], EFFECT_EVENTS):
        end += 1
    return tuple(events[start:end])


def real_effect(game: gr.Game, action: gr.PowerPlay) -> tuple[gr.Event, ...]:
    """The effect ``action`` has when played on a copy of ``game`` and nobody protects."""
    trial = game.copy()
    events = list(trial.apply(action))
    played = next(i for i, e in enumerate(events) if isinstance(e, gr.PowerPlayed))
    return effect_of(events[played + 1 :] + pass_protections(trial))


def check_every_power_play(game: gr.Game, rng: random.Random, limit: int = 6) -> int:
    """The previews of (a sample of) the Power plays legal now match the game's effects."""
    seat = game.to_move
    if seat is None:
        return 0
    plays = [a for a in game.legal_actions() if isinstance(a, gr.PowerPlay)]
    checked = 0
    view = game.view(seat)
    for action in rng.sample(plays, min(limit, len(plays))):
        seen = power_preview(view, action)
        if isinstance(action, gr.PlayTornado):
            assert seen.events == () and seen.squares == ()
            trial = game.copy()
            events = [*trial.apply(action), *pass_protections(trial)]
            while isinstance(trial.decision, gr.ChooseBack):  # (one back left: named alone)
                events += trial.apply(trial.legal_actions()[0])
            taken = [e.victim for e in events if isinstance(e, gr.CardStolen)]
            assert list(seen.victims) == taken
        else:
            assert seen.events == real_effect(game, action), action
            assert seen.victims == ()
            assert seen.squares and all(pos in view.tiles for pos in seen.squares)
        checked += 1
    return checked


WALKS = [
    Walk(3, gr.Rules.disasters(), seed, 0, steps=140, walk_seed=seed, prefer_plays=0.8)
    for seed in range(4)
] + [Walk(5, gr.Rules.powers(), 9, 2, steps=160, walk_seed=9, prefer_plays=0.8)]


@pytest.mark.clause("13.4", "13.5", "13.7", "13.8a", "14.2", "14.3a")
@pytest.mark.parametrize("walk", WALKS, ids=lambda w: f"{w.rules.level.value}-{w.seed}")
def test_a_preview_is_what_the_power_then_does(walk: Walk) -> None:
    rng = random.Random(walk.seed)
    checked = 0

    def check(game: gr.Game) -> None:
        nonlocal checked
        checked += check_every_power_play(game, rng)

    walk.play(after_each=check)
    assert checked > 40


@pytest.mark.clause("13.9b")
@settings(max_examples=25, deadline=None)
@given(walk=walk_strategy(max_steps=160, prefer_plays=(0.8,), levels=(gr.Level.DISASTERS,)))
def test_a_protection_prompt_previews_the_power_it_would_cancel(walk: Walk) -> None:
    def check(game: gr.Game) -> None:
        decision = game.decision
        if not isinstance(decision, gr.ChooseProtection):
            return
        for seat in (decision.player, decision.power_player):
            view = game.view(seat)
            pending = pending_power(view)
            # the card as the seat is told it: by its face id (1.14)
            told = view.decision
            assert isinstance(told, gr.ChooseProtection)
            assert pending is not None and pending.card == told.against
            seen = power_preview(view, pending)
            if isinstance(pending, gr.PlayTornado):
                continue
            trial = game.copy()
            assert seen.events == effect_of(pass_protections(trial))

    walk.play(after_each=check)


def test_only_a_protection_window_has_a_pending_power() -> None:
    game = gr.new_game(3, gr.Rules.disasters(), seed=1)
    assert pending_power(game.view(0)) is None


def test_the_preview_reads_the_view_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the hidden cards of the game sampled from the view, the same preview."""
    game = WALKS[0].new_game()
    rng = random.Random(0)
    plays: list[gr.PowerPlay] = []
    while len(game.events) < 150 or not plays:  # a world of some size, with Powers to play
        random_playout(game, rng, 1, prefer_plays=0.8)
        assert not game.is_over
        plays = [a for a in game.legal_actions() if isinstance(a, gr.PowerPlay)]
    seat = game.to_move
    assert seat is not None
    view = gr.View.from_json(game.view(seat).to_json())  # the view alone, through JSON
    first = [power_preview(view, action) for action in plays]
    monkeypatch.setattr(preview_module, "_SAMPLE_SEED", 12345)
    assert [power_preview(view, action) for action in plays] == first


def test_an_eruption_names_what_it_destroys() -> None:
    position = (
        gr.PositionBuilder(players=2, rules=gr.Rules.disasters())
        .tile(0, 0, gr.Land.MOUNTAIN)
        .tile(1, 0, gr.Land.PLAIN)
        .tile(2, 0, gr.Land.SEA)
        .tile(1, 1, gr.Land.FOREST)
        .tile(0, 1, gr.Land.FOREST, animals=3)
        .city(1, 0, "C04", pawns=[1])
        .hand(0, "P29")
        .build()
    )
    view = position.to_game().view(0)
    seen = power_preview(view, gr.PlayEruption(0, "P29", gr.Pos(0, 0)))
    assert isinstance(seen, PowerPreview)
    assert seen.squares == (gr.Pos(0, 0), gr.Pos(1, 0), gr.Pos(0, 1))
    assert gr.CityDiscarded("C04", gr.Pos(1, 0)) in seen.events
    assert gr.PawnReturned(1, gr.Pos(1, 0)) in seen.events
    assert gr.TokensReturned(gr.Pos(0, 1), 3) in seen.events
    assert gr.TileReplaced(gr.Pos(0, 1), gr.Land.FOREST, gr.Land.DESERT) in seen.events


@pytest.mark.parametrize(
    ("action", "error", "clause"),
    [
        (gr.PlayEruption(0, "P29", gr.Pos(5, 5)), gr.IllegalActionError, "14.3a"),
        (gr.PlayEruption(1, "P29", gr.Pos(0, 0)), gr.IllegalActionError, "5.4"),
        (gr.PlayLightning(0, "P24", gr.Pos(0, 0)), gr.IllegalActionError, "5.2"),
        (gr.DrawDeck(0, gr.CardKind.NATURE), gr.GaiaRulesError, None),
    ],
)
def test_a_preview_of_what_cannot_be_played_is_refused(
    action: gr.Action, error: type[gr.GaiaRulesError], clause: str | None
) -> None:
    position = (
        gr.PositionBuilder(players=2, rules=gr.Rules.disasters())
        .tile(0, 0, gr.Land.MOUNTAIN)
        .hand(0, "P29")
        .build()
    )
    view = position.to_game().view(0)
    with pytest.raises(error) as raised:
        power_preview(view, action)  # type: ignore[arg-type]
    if clause is not None:
        assert isinstance(raised.value, gr.IllegalActionError)
        assert raised.value.clause == clause


@given(st.integers(0, 3))
@settings(max_examples=4, deadline=None)
def test_no_preview_once_the_game_is_over(seed: int) -> None:
    game = Walk(2, gr.Rules.disasters(), seed, 0, steps=2000, walk_seed=seed).play()
    assert game.is_over
    with pytest.raises(gr.GaiaRulesError, match="over"):
        power_preview(game.view(0), gr.PlayLightning(0, "P24", gr.Pos(0, 0)))
