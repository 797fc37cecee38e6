"""``python_gaia``, the OpenSpiel game of the ``openspiel`` wing: OpenSpiel's own random
simulation test with serialization, explicit chance, states that pickle, observers that honour
``IIGObservationType``, tensors in numpy buffers, resampling, and OpenSpiel's own bots."""

from __future__ import annotations

import pickle
import random
import runpy
import sys
from collections import Counter
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

import gaia_rules as gr  # noqa: E402
import gaia_rules.openspiel  # noqa: E402 (registers python_gaia)
from gaia_rules import outcomes  # noqa: E402
from gaia_rules.information import public_log  # noqa: E402
from gaia_rules.openspiel import GaiaState  # noqa: E402
from gaia_rules.openspiel.chance import CHANCE_OUTCOMES  # noqa: E402
from gaia_rules.openspiel.observer import HIDDEN, HISTORY, PIECES, VIEW_SIZE  # noqa: E402
from gaia_rules.rl.encoding import CARD_CLASSES  # noqa: E402

EXAMPLE = Path(__file__).parent.parent / "examples" / "openspiel_ismcts.py"
LEVELS = ("basic", "advanced", "powers", "disasters")
PUBLIC = pyspiel.IIGObservationType(
    public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
)
PRIVATE = pyspiel.IIGObservationType(
    public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
)
PUBLIC_RECALL = pyspiel.IIGObservationType(
    public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
)
INFO_STATE = pyspiel.IIGObservationType(perfect_recall=True)


def _chance(state: GaiaState, rng: random.Random) -> int:
    outcomes = state.chance_outcomes()
    return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]


def _played(players: int = 2, level: str = "powers", moves: int = 40, seed: int = 0) -> GaiaState:
    """A state after the deal and ``moves`` random decisions, chance sampled as it says."""
    game = pyspiel.load_game("python_gaia", {"players": players, "level": level})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
        elif moves == 0:
            break
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves -= 1
    assert isinstance(state, GaiaState)
    return state


# -- OpenSpiel's own checks --------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_random_sim_test_with_serialization(level: str, players: int) -> None:
    game = pyspiel.load_game("python_gaia", {"players": players, "level": level})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_states_its_nature() -> None:
    game = pyspiel.load_game("python_gaia", {"players": 3, "level": "disasters"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 194_321
    assert game.max_chance_outcomes() == CHANCE_OUTCOMES
    assert game.information_state_tensor_size() == VIEW_SIZE + HISTORY
    assert game.observation_tensor_size() == VIEW_SIZE
    with pytest.raises(pyspiel.SpielError, match="players"):
        pyspiel.load_game("python_gaia", {"players": 6})
    with pytest.raises(pyspiel.SpielError, match="level"):
        pyspiel.load_game("python_gaia", {"level": "expert"})


# -- explicit chance ---------------------------------------------------------------------------


@pytest.mark.clause("1.6", "4.2", "13.8b")
def test_the_deal_is_chance_and_each_outcome_is_a_face_with_its_share() -> None:
    game = pyspiel.load_game("python_gaia", {"players": 2, "level": "basic"})
    state = game.new_initial_state()
    assert state.is_chance_node()
    first = dict(state.chance_outcomes())
    # the first card dealt is a Nature card: each land with its share of the 40 (spec 2.4)
    assert sum(first.values()) == pytest.approx(1.0)
    assert sorted(first.values()) == sorted(n / 40 for n in (6, 8, 5, 7, 6, 8))
    rng = random.Random(1)
    dealt = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(0 <= o < CHANCE_OUTCOMES for o, _ in outcomes)
        state.apply_action(_chance(state, rng))
        dealt += 1
    assert dealt == 2 * 2 + 3 + 2 * 1 + 2 + 4  # Nature, Life, then the Objectives (4.2-4.4)
    assert state.current_player() == 0


@pytest.mark.clause("1.5c", "6.1")
def test_a_card_is_decided_only_when_it_is_drawn() -> None:
    """A state holds no card before it is drawn: a draw from a deck is a chance node whose
    outcomes are the faces the deck holds, each with its share, and its copies draw what
    chance says. So a searcher's clone cannot know the next card."""
    state = _played(players=2, level="basic", moves=6, seed=3)
    draw = next(
        index
        for index in state.legal_actions()
        if "DrawDeck" in state.action_to_string(state.current_player(), index)
        and "nature" in state.action_to_string(state.current_player(), index)
    )
    seat = state.current_player()
    deck = outcomes.deck(state.game, gr.CardKind.NATURE)
    state.apply_action(draw)
    assert state.is_chance_node()
    shares = dict(state.chance_outcomes())
    space = state.get_game().space
    expected = Counter(space.card_class[card] for card in deck)
    assert shares == {c: n / len(deck) for c, n in expected.items()}
    drawn = set()
    for outcome in shares:
        copy = state.clone()
        copy.apply_action(outcome)
        hand = copy.game.view(seat).hand
        drawn.add(space.card_class[hand[-1]])
        assert space.card_class[hand[-1]] == outcome
    assert drawn == set(shares)


@pytest.mark.clause("13.8b")
def test_a_tornado_takes_a_card_chance_decides() -> None:
    rng = random.Random(5)
    for seed in range(200):
        state = _played(players=3, level="powers", moves=0, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_chance(state, rng))
                continue
            if state.chancy():
                break
            legal = state.legal_actions()
            names = [state.action_to_string(state.current_player(), a) for a in legal]
            tornado = [a for a, n in zip(legal, names, strict=True) if n.startswith("PlayTornado")]
            state.apply_action(tornado[0] if tornado else rng.choice(legal))
            if tornado and state.is_chance_node():
                return  # a Tornado's card waits for chance, like a card drawn
    pytest.fail("no Tornado took a card in 200 games")


# -- saving -------------------------------------------------------------------------------------


def test_a_state_pickles_and_serializes_as_its_moves() -> None:
    state = _played(players=4, level="disasters", moves=80, seed=7)
    for copy in (
        pickle.loads(pickle.dumps(state)),
        pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(state.get_game(), state)
        )[1],
    ):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.legal_actions() == state.legal_actions()
        assert copy.information_state_string(1) == state.information_state_string(1)
        assert copy.game.state == state.game.state
    game = pickle.loads(pickle.dumps(state.get_game()))
    assert str(game) == str(state.get_game())


def test_a_state_waiting_for_chance_pickles_too() -> None:
    rng = random.Random(2)
    state = _played(players=2, level="basic", moves=3, seed=2)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.chance_outcomes() == state.chance_outcomes() and str(copy) == str(state)


# -- observers ------------------------------------------------------------------------------------


@pytest.mark.clause("1.5", "1.16")
def test_the_information_state_string_is_the_seats_key() -> None:
    state = _played(players=3, moves=50)
    for seat in range(3):
        key = state.game.information_set(seat)
        assert state.information_state_string(seat) == str(key)
        assert gr.InformationSet.from_json(state.information_state_string(seat)) == key


@pytest.mark.clause("1.5")
def test_public_observers_show_every_seat_the_same_and_no_hand() -> None:
    """What is public is the same for every seat, and the same in a state whose hidden cards
    are dealt afresh: it holds no card hidden from anyone."""
    state = _played(players=4, level="powers", moves=60, seed=4)
    game = state.get_game()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled = [state.resample_from_infostate(state.current_player(), sampler) for _ in range(3)]
    for obs_type in (PUBLIC, PUBLIC_RECALL):
        observer = game.make_py_observer(obs_type)
        texts = {observer.string_from(state, seat) for seat in range(4)}
        assert len(texts) == 1, "what is public is the same for every seat"
        observer.set_from(state, 0)
        assert observer.tensor is not None
        assert not observer.pieces["hand"].any()
        assert not observer.pieces["stolen cards seen"].any()
        if obs_type is PUBLIC:
            tensor = observer.tensor.copy()
            for other in resampled:
                assert observer.string_from(other, 0) in texts
                observer.set_from(other, 0)
                assert np.array_equal(observer.tensor, tensor)


@pytest.mark.clause("1.5b")
def test_a_private_observer_shows_the_hand_alone() -> None:
    state = _played(players=3, level="advanced", moves=30, seed=6)
    game = state.get_game()
    observer = game.make_py_observer(PRIVATE)
    observer.set_from(state, 1)
    assert observer.tensor is not None
    hand = state.game.view(1).hand
    assert observer.pieces["hand"].sum() == len(hand)
    assert not observer.pieces["displays"].any() and not observer.pieces["tiles"].any()
    text = observer.string_from(state, 1)
    faces = state.game.rules.cards
    assert all(faces.face_id(card) in text for card in hand)
    assert '"tiles"' not in text
    nothing = game.make_py_observer(
        pyspiel.IIGObservationType(
            public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    assert nothing.string_from(state, 1) == "" and nothing.tensor is None


def test_an_observer_of_every_hand_is_not_provided() -> None:
    game = pyspiel.load_game("python_gaia")
    every = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="every seat"):
        game.make_py_observer(every)


def test_tensors_are_filled_in_their_numpy_buffers() -> None:
    state = _played(players=3, moves=40)
    observer = state.get_game().make_py_observer(INFO_STATE)
    buffer = observer.tensor
    assert buffer is not None and buffer.dtype == np.float32
    observer.set_from(state, 2)
    assert observer.tensor is buffer and observer.dict["observation"] is buffer
    assert all(np.shares_memory(piece, buffer) for piece in observer.pieces.values())
    assert sum(size for _, size, _ in PIECES) == VIEW_SIZE
    assert np.array_equal(np.asarray(state.information_state_tensor(2), np.float32), buffer)


@pytest.mark.parametrize("players", [2, 5])
def test_the_tensor_asked_from_python_is_openspiels_own(players: int) -> None:
    rng = random.Random(players)
    state = _played(players=players, level="disasters", moves=0, seed=players)
    own = pyspiel.State.information_state_tensor  # OpenSpiel's method, through its observer
    asked = 0
    while not state.is_terminal() and asked < 60:
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
            continue
        for seat in range(players):
            values = state.information_state_tensor(seat)
            assert values == own(state, seat)
            assert all(type(value) is float for value in values)
        assert state.information_state_tensor() == own(state, state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        asked += 1
    assert asked == 60
    with pytest.raises(pyspiel.SpielError, match="player"):
        state.information_state_tensor(players)


def test_each_seat_is_counted_from_itself_in_the_tensor() -> None:
    state = _played(players=4, level="advanced", moves=90, seed=8)
    observer = state.get_game().make_py_observer(INFO_STATE)
    view = state.game.view(0)
    for seat in range(4):
        observer.set_from(state, seat)
        supply = observer.pieces["pawns in supply"][:4]
        assert list(supply) == [view.supply[(seat + k) % 4] for k in range(4)]
        fronts = observer.pieces["cards in front"].reshape(5, -1)
        assert [int(fronts[k].sum()) for k in range(4)] == [
            len(view.tableaux[(seat + k) % 4]) for k in range(4)
        ]
        assert observer.pieces["active seat"][(view.active - seat) % 4] == 1


@pytest.mark.clause("1.16")
def test_the_history_gives_back_every_move_the_seat_saw() -> None:
    rng = random.Random(9)
    state = _played(players=2, level="basic", moves=0, seed=9)
    observer = state.get_game().make_py_observer(INFO_STATE)
    seen: list[float] = []
    for _ in range(40):
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
            continue
        observer.set_from(state, 0)
        history = observer.pieces["history"]
        codes = history[: int(np.count_nonzero(history))]
        assert list(codes[: len(seen)]) == seen, "a seat's history never changes in retrospect"
        seen = list(codes)
        state.apply_action(rng.choice(state.legal_actions()))
    assert any(code > 0 for code in seen) and any(code < 0 for code in seen)
    assert HIDDEN in seen  # the other seat's hand was dealt face down
    assert all(code >= HIDDEN or code < -CARD_CLASSES for code in seen)


# -- resampling ---------------------------------------------------------------------------------


@pytest.mark.clause("1.5", "1.8")
def test_a_resampled_state_looks_the_same_to_its_seat_and_tells_the_others_nothing() -> None:
    state = _played(players=3, moves=30, seed=2)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    own = set(state.game.information_set(seat).event_texts())
    public = set(public_log(state.game)[1])
    private = own - public
    assert private  # the seat drew or was dealt something blind
    differed = 0
    for _ in range(5):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        differed += other.game.state.hands != state.game.state.hands
        for others in range(3):
            if others != seat:
                text = other.information_state_string(others)
                assert not any(event in text for event in private)
        with pytest.raises(pyspiel.SpielError, match="resampled"):
            other.serialize()
    assert differed


def test_openspiel_ismcts_plays_against_a_bot_of_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--games", "1", "--simulations", "3"])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert done.value.code == 0


# -- the history and its reading -----------------------------------------------------------------


def _codes_of_key(state: GaiaState, events: tuple[gr.Event, ...]) -> list[int]:
    """The numbers of a seat's history found afresh from its key's log (every event redacted
    for the seat and renamed by face id), as the module docstring of the observer defines
    them: what `MoveCodes` finds from the events as the engine logged them must equal it."""
    from gaia_rules.actions import KeepCard  # noqa: PLC0415
    from gaia_rules.events import (  # noqa: PLC0415
        ActionTaken,
        CardDiscarded,
        CardDrawn,
        CardKept,
        CardStolen,
        DisplayRefilled,
        StolenCardsSeen,
    )

    space, players = state.get_game().space, state.get_game().players
    classes = space.card_class
    codes: list[int] = []
    stolen = 0
    for event in events:
        match event:
            case ActionTaken(action=action, by_engine=False) if action is not None:
                if not isinstance(action, KeepCard):
                    codes.append(1 + space.encode(action, players))
            case CardDrawn(card=card, from_display=False):
                codes.append(HIDDEN if card is None else -1 - classes[card])
            case DisplayRefilled(card=card) | CardDiscarded(card=card):
                codes.append(-1 - classes[card])
            case CardStolen(card=card):
                codes.append(HIDDEN if card is None else -1 - classes[card])
                stolen += 1
            case StolenCardsSeen(cards=cards):
                codes += [HIDDEN] * stolen if cards is None else [-1 - classes[c] for c in cards]
                stolen = 0
            case CardKept(player=thief, from_player=source, card=card):
                if card is None:
                    codes.append(HIDDEN - (source - thief) % players)
                else:
                    codes.append(1 + space.encode_keep(KeepCard(thief, card), source, players))
    return codes


GAMES = [("basic", 2, 1), ("advanced", 3, 2), ("powers", 4, 3), ("disasters", 4, 4)]
GAMES += [("disasters", 5, 5), ("disasters", 2, 6)]


@pytest.mark.clause("1.5", "1.14", "1.16")
@pytest.mark.parametrize(("level", "players", "seed"), GAMES)
def test_the_history_is_the_keys_log_by_number(level: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = _played(players=players, level=level, moves=0, seed=seed)
    asked = 0
    while not state.is_terminal() and asked < 150:
        if state.is_chance_node():
            state.apply_action(_chance(state, rng))
            continue
        for seat in rng.sample(range(-1, players), rng.randint(1, players + 1)):
            found = state.history_codes(seat, True, seat != -1)
            dealt = found[: len(state._dealt(seat))]
            if seat == -1:
                events = public_log(state.game)[0]
            else:
                key = state.information(seat)
                assert key is not None
                events = key.events
            expected = [*dealt, *_codes_of_key(state, events)]
            assert found.tolist() == expected
        state.apply_action(rng.choice(state.legal_actions()))
        asked += 1


@pytest.mark.parametrize(("level", "players", "seed"), GAMES)
def test_a_tensor_is_the_same_however_the_state_was_reached(
    level: str, players: int, seed: int
) -> None:
    """Asked move by move (some seats skipped, in any order), on a clone carried along from an
    earlier moment, on a clone of it, and on the state replayed from its moves (every seat's
    history read from the start): the same tensors, and a clone's moves never change the
    state it was cloned from."""
    rng = random.Random(seed)
    state = _played(players=players, level=level, moves=0, seed=seed)
    game = state.get_game()
    recall = game.make_py_observer(PUBLIC_RECALL)
    carried: GaiaState | None = None
    parted: list[tuple[GaiaState, int, list[float]]] = []  # clones gone another way
    asked = 0
    while not state.is_terminal() and asked < 120:
        if state.is_chance_node():
            action = _chance(state, rng)
        else:
            for seat in rng.sample(range(players), rng.randint(1, players)):
                state.information_state_tensor(seat)
            action = rng.choice(state.legal_actions())
            asked += 1
        if asked % 25 == 10 and not state.is_chance_node():
            seat = rng.randrange(players)
            replayed = pickle.loads(pickle.dumps(state))
            tensors = [state.information_state_tensor(s) for s in range(players)]
            assert [replayed.information_state_tensor(s) for s in range(players)] == tensors
            assert carried is not None
            assert [carried.information_state_tensor(s) for s in range(players)] == tensors
            again = carried.clone()
            again.apply_action(rng.choice(again.legal_actions()))
            if not again.is_chance_node():  # the clone's histories read further
                parted.append((again, seat, again.information_state_tensor(seat)))
            assert state.information_state_tensor(seat) == tensors[seat]
            assert carried.information_state_tensor(seat) == tensors[seat]
            for other, other_seat, other_tensor in parted:  # after the state's reading on
                assert other.information_state_tensor(other_seat) == other_tensor
            recall.set_from(state, seat)
            public = recall.tensor.copy()
            recall.set_from(replayed, seat)
            assert np.array_equal(recall.tensor, public)
        if carried is None and asked == 3:
            carried = state.clone()
        state.apply_action(action)
        if carried is not None:
            carried.apply_action(action)
    assert asked >= 30 and parted
