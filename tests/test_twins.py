"""Exact information sets, layer by layer (spec 1.11-1.16, RULINGS 30): twin games that differ
only in which copies of a face are where, outside what a seat is told, tell that seat the
same thing at every step, whatever is played, the public plays of the swapped copies among it.

The layers: the information-set key; the view and the log (the ids the seat is told masked
by their face ids, every other value compared as it is); the RL observation; OpenSpiel's
observation and information-state strings and tensors, for every observer the game offers;
and the frames the web server sends the seat. See ``tests/twins.py`` for how the pairs are
built and driven. A plain run checks a few dozen pairs per layer; ``pytest -m soak`` checks
hundreds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

from gaia_rules.web.messages import state_message
from tests.twins import Twins, Walk, as_text, masked, twin_walks

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
SOAK = settings(SETTINGS, max_examples=150)

Check = Callable[[Twins], None]


def _drive(walk: Walk, check: Check) -> None:
    pair, rng = walk.twins()
    assume(pair is not None)
    assert pair is not None
    for _ in range(walk.steps):
        check(pair)
        if not pair.step(rng):
            break
    check(pair)


# -- the layers ------------------------------------------------------------------------------


def check_key(pair: Twins) -> None:
    keys = [game.information_set(pair.seat) for game in pair.games()]
    assert keys[0] == keys[1]
    assert hash(keys[0]) == hash(keys[1])
    assert str(keys[0]) == str(keys[1])


def check_view_and_log(pair: Twins) -> None:
    manifest = pair.first.rules.cards
    shares = [
        (
            as_text(masked(game.view(pair.seat).to_data(), told, manifest)),
            [as_text(masked(e.to_data(), told, manifest)) for e in game.events_for(pair.seat)],
        )
        for game, told in zip(pair.games(), pair.told, strict=True)
    ]
    assert shares[0][0] == shares[1][0]
    assert shares[0][1] == shares[1][1]


def check_rl(pair: Twins) -> None:
    np = pytest.importorskip("numpy")
    from gaia_rules.rl.observation import observation  # noqa: PLC0415 (the rl extra)

    for arrays in (
        [observation(game.view(pair.seat)) for game in pair.games()],
        [observation(game.information_set(pair.seat)) for game in pair.games()],
    ):
        assert np.array_equal(arrays[0], arrays[1])


def check_web(pair: Twins) -> None:
    manifest = pair.first.rules.cards
    frames = [
        as_text(masked(state_message(game, pair.seat), told, manifest))
        for game, told in zip(pair.games(), pair.told, strict=True)
    ]
    assert frames[0] == frames[1]


def check_openspiel(pair: Twins) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    np = pytest.importorskip("numpy")
    observers, state_of = _openspiel()
    game = pyspiel.load_game(
        "python_gaia",
        {"players": pair.first.players, "level": pair.first.rules.level.name.lower()},
    )
    states = [state_of(game, twin) for twin in pair.games()]
    for observer in observers(game):
        strings = [observer.string_from(state, pair.seat) for state in states]
        assert strings[0] == strings[1], observer
        if observer.tensor is not None:
            tensors = []
            for state in states:
                observer.set_from(state, pair.seat)
                tensors.append(np.array(observer.tensor, copy=True))
            assert np.array_equal(tensors[0], tensors[1]), observer


def _openspiel() -> tuple[Callable[..., list[Any]], Callable[..., Any]]:
    from tests.openspiel_twins import observers, state_of  # noqa: PLC0415 (needs pyspiel)

    return observers, state_of


LAYERS: dict[str, Check] = {
    "key": check_key,
    "view and log": check_view_and_log,
    "rl": check_rl,
    "openspiel": check_openspiel,
    "web": check_web,
}


@pytest.mark.clause("1.16")
@SETTINGS
@given(walk=twin_walks())
def test_twins_give_a_seat_equal_information_set_keys(walk: Walk) -> None:
    _drive(walk, check_key)


@pytest.mark.clause("1.14", "1.15")
@SETTINGS
@given(walk=twin_walks())
def test_twins_show_a_seat_the_same_view_and_log(walk: Walk) -> None:
    _drive(walk, check_view_and_log)


@pytest.mark.clause("1.16")
@SETTINGS
@given(walk=twin_walks())
def test_twins_give_a_seat_equal_rl_observations(walk: Walk) -> None:
    _drive(walk, check_rl)


@pytest.mark.clause("1.16")
@SETTINGS
@given(walk=twin_walks())
def test_twins_give_a_seat_equal_openspiel_strings_and_tensors(walk: Walk) -> None:
    _drive(walk, check_openspiel)


@pytest.mark.clause("1.14")
@SETTINGS
@given(walk=twin_walks())
def test_twins_send_a_seat_the_same_web_frames(walk: Walk) -> None:
    _drive(walk, check_web)


@pytest.mark.soak
@pytest.mark.clause("1.14", "1.15", "1.16")
@SOAK
@given(walk=twin_walks(max_prefix=150, steps=50))
def test_twins_tell_a_seat_the_same_at_every_layer_soak(walk: Walk) -> None:
    def every_layer(pair: Twins) -> None:
        for check in LAYERS.values():
            check(pair)

    _drive(walk, every_layer)


def test_a_twin_pair_differs_in_the_ids_it_swapped() -> None:
    # the harness itself: the twins are not the same game, and they stay twins in step
    walk = Walk("powers", 3, seed=11, prefix=20, seat=0, walk_seed=3, steps=30)
    pair, _ = walk.twins()
    assert pair is not None
    first, second = pair.first.state, pair.second.state
    assert first.to_json() != second.to_json()
    a, b = pair.swap
    swap_text = first.to_json().replace(a, "\0").replace(b, a).replace("\0", b)
    assert swap_text == second.to_json()
    for _ in range(walk.steps):
        if not pair.step(random.Random(0)):
            break
    assert pair.first.result == pair.second.result
