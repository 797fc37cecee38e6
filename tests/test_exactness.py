"""``legal_actions()`` is exact, and a refused action changes nothing (spec 1.7, 5.4).

(a) Every listed action applies, and the Power actions listed are those the spec allows,
found independently. (b) Actions near the legal ones (another seat's, a card not held, not
in the box or of another Power, a square one step off, an Earthquake's squares reversed, a
back named for another seat, an answer to another decision, another seat's own options)
are refused with an :class:`~gaia_rules.IllegalActionError` naming a clause, and
leave the state and the log as they were. (c) Over a large candidate set (every card that a
play could take on every square of the grown bounding box, every Earthquake of neighbours in
both orders, every Tornado, Protection, pass, back and kept card, every draw, feeding,
discard, Objective choice and pawn placement), ``is_legal`` accepts exactly the listed
actions. Checked at sampled states of seeded random games at every level and player count,
at every kind of decision, and of random walks drawn by Hypothesis.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

import gaia_rules as gr
from tests.oracle.legal import accepted_actions
from tests.oracle.model import plain_of
from tests.oracle.probes import probe_actions
from tests.strategies import (
    ALL_RULES,
    Walk,
    candidate_actions,
    check_invariants,
    check_power_options,
    check_shown_options,
    mutated_actions,
    rules_id,
    same_choice,
    spread,
    walk_strategy,
)

GAMES = [
    Walk(
        players=players,
        rules=rules,
        seed=7000 + index,
        first_player=index % players,
        steps=10_000,
        walk_seed=index,
    )
    for index, (players, rules) in ((i, spread(i * 5)) for i in range(16))
]
"""One seeded game at each level and player count, both editions, varied switches."""

ONE_PER_LEVEL = [
    next(walk for walk in GAMES if walk.rules.level is level and walk.players == 2 + number)
    for number, level in enumerate(gr.Level)
]
"""A game at each level, at 2, 3, 4 and 5 players in turn."""

CLAUSE_ID = re.compile(r"[0-9]+\.[0-9]+[a-z]?")
"""The form of a spec clause id (``"7.2"``, ``"9.1b"``)."""

EVERY = 12
"""Check every 12th state of a game (and its first and last)."""


def _walk_id(walk: Walk) -> str:
    return f"{walk.players}p-seed{walk.seed}-{rules_id(walk.rules)}"


def sampled_states(walk: Walk, every: int = EVERY) -> Iterator[gr.Game]:
    """The game of ``walk`` at its start, at every ``every``-th action, and at its end."""
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    step = 0
    while True:
        if step % every == 0 or game.is_over:
            yield game
        if game.is_over or step >= walk.steps:
            return
        game.apply(rng.choice(game.legal_actions()))
        step += 1


# -- (a) every listed action applies -----------------------------------------------------------


def check_listed_actions_apply(game: gr.Game) -> None:
    legal = game.legal_actions()
    assert len(legal) == len(set(legal)), f"duplicates in legal_actions(): {legal}"
    if game.is_over:
        assert legal == []
        return
    check_shown_options(game, legal)
    check_power_options(game, legal)
    before, logged = game.state, len(game.events)
    for action in legal:
        assert action.player == game.to_move
        assert game.is_legal(action), f"{action!r} is listed but is_legal says no"
        copy = game.copy()
        events = copy.apply(action)
        assert isinstance(events[0], gr.ActionTaken)
        assert events[0] == gr.ActionTaken(action.player, action, by_engine=False)
        check_invariants(copy)
    assert game.state == before and len(game.events) == logged, "playing on a copy changed it"


@pytest.mark.clause("1.7", "5.4", "13.2", "13.8a", "13.8c", "13.9a", "13.9b", "13.9c")
@pytest.mark.parametrize("walk", GAMES, ids=_walk_id)
def test_every_listed_action_applies(walk: Walk) -> None:
    for game in sampled_states(walk):
        check_listed_actions_apply(game)


# -- (b) mutated actions are refused and change nothing ----------------------------------------


def assert_refused(game: gr.Game, action: object) -> str:
    """``action`` is refused naming a clause, and the game is unchanged; returns the clause."""
    before, logged = game.state, len(game.events)
    assert not game.is_legal(action), f"{action!r} is accepted but not in legal_actions()"
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(action)  # type: ignore[arg-type]
    clause = refused.value.clause
    assert isinstance(clause, str), f"{action!r}: clause {clause!r}"
    assert CLAUSE_ID.fullmatch(clause), f"{action!r}: refused with clause {clause!r}"
    assert game.state == before, f"1.7: refusing {action!r} changed the state"
    assert len(game.events) == logged, f"1.7: refusing {action!r} logged events"
    return clause


def check_same_choice(game: gr.Game, action: object, listed: gr.Action) -> None:
    """``action`` names another copy of the face ``listed`` names, in the same place: it is
    that choice, with the same events and the same game after it (spec 1.12)."""
    assert game.is_legal(action), f"{action!r} is the choice {listed!r} but is refused"
    one, two = game.copy(), game.copy()
    assert one.apply(action) == two.apply(listed)  # type: ignore[arg-type]
    assert one.state == two.state and one.actions == two.actions


def check_mutations_refused(game: gr.Game) -> Counter[str]:
    legal = game.legal_actions()
    clauses: Counter[str] = Counter()
    for action in mutated_actions(game, legal):
        if action in legal:
            continue
        listed = same_choice(game, action)
        if listed is not None and listed in legal:
            check_same_choice(game, action, listed)
        else:
            clauses[assert_refused(game, action)] += 1
    return clauses


@pytest.mark.clause(
    "1.7", "5.4", "13.2", "13.8a", "13.8c", "13.9a", "13.9b", "13.9c", "13.7", "13.8"
)
@pytest.mark.parametrize("walk", GAMES, ids=_walk_id)
def test_mutated_actions_are_refused_and_change_nothing(walk: Walk) -> None:
    clauses: Counter[str] = Counter()
    for game in sampled_states(walk):
        clauses += check_mutations_refused(game)
    assert clauses["5.4"] > 0  # another seat's action, or an answer to another decision


@pytest.mark.clause("1.7", "5.4", "15.1")
@pytest.mark.parametrize("walk", ONE_PER_LEVEL, ids=_walk_id)
def test_every_seat_is_refused_once_the_game_is_over(walk: Walk) -> None:
    game = walk.play()
    assert game.is_over
    assert game.legal_actions() == []
    for action in [*candidate_actions(game, seats=[0])][::97]:
        assert_refused(game, action)


@pytest.mark.clause("1.7", "13.1", "14.1")
@pytest.mark.parametrize("rules", ALL_RULES[::3], ids=rules_id)
def test_taking_a_card_that_is_not_face_up_is_refused(rules: gr.Rules) -> None:
    """Every card of the box that is not in a display, Objectives and the Power cards out of
    the game included, is refused, but the face id of a card face up (spec 1.12)."""
    game = gr.new_game(players=3, rules=rules, seed=1)
    shown = {card for display in game.state.displays.values() for card in display}
    faces = {game.rules.cards.face_id(card) for card in shown}
    for card, _ in game.rules.cards.cards:
        if card not in shown and card not in faces:
            assert_refused(game, gr.DrawDisplay(0, card))


WRONG_TYPES: tuple[object, ...] = (None, "x", "", 5, -1, 1.5, (0, 0), [0], "nature", b"N01")
"""Field values of the wrong type (or meaning) that a careless or hostile client may send."""


@pytest.mark.clause("1.7")
@pytest.mark.parametrize("walk", ONE_PER_LEVEL, ids=_walk_id)
def test_an_action_with_a_field_of_the_wrong_type_is_refused(walk: Walk) -> None:
    """Each field of each listed action, replaced by a value of the wrong type, is refused."""
    for game in sampled_states(walk, every=EVERY * 3):
        legal = game.legal_actions()
        for action in {type(a): a for a in legal}.values():
            for field in attrs.fields(type(action)):
                for value in WRONG_TYPES:
                    change: dict[str, Any] = {field.name: value}
                    wrong = attrs.evolve(action, **change)
                    if wrong not in legal:
                        assert_refused(game, wrong)


# -- (c) is_legal accepts exactly the listed actions -------------------------------------------


def check_exactness(game: gr.Game) -> None:
    legal = game.legal_actions()
    seats = [] if game.to_move is None else [game.to_move, (game.to_move + 1) % game.players]
    candidates = set(candidate_actions(game, seats=seats))
    missing = set(legal) - candidates
    assert not missing, f"the candidate set misses listed actions: {missing}"
    accepted = {action for action in candidates if game.is_legal(action)}
    # 1.12: another copy of a face in the same place is the listed choice, and applies alike
    copies = {action for action in accepted - set(legal) if same_choice(game, action) in legal}
    for action in sorted(copies, key=repr)[:5]:
        listed = same_choice(game, action)
        assert listed is not None
        check_same_choice(game, action, listed)
    assert accepted - copies == set(legal), (
        f"accepted but not listed: {sorted(map(repr, accepted - copies - set(legal)))[:10]}; "
        f"listed but refused: {sorted(map(repr, set(legal) - accepted))[:10]}"
    )


@pytest.mark.clause(
    "1.7", "5.4", "13.2", "13.8a", "13.8c", "13.9a", "13.9b", "13.9c", "13.7", "14.3a"
)
@pytest.mark.parametrize("walk", GAMES, ids=_walk_id)
def test_is_legal_accepts_exactly_the_listed_actions(walk: Walk) -> None:
    for game in sampled_states(walk, every=EVERY * 3):
        check_exactness(game)


def _decision_key(game: gr.Game) -> str:
    decision = game.decision
    name = type(decision).__name__
    match decision:
        case gr.ChooseObjective():
            name += f"/{game.rules.objectives.value}"
        case gr.ChooseAction() if game.rules.level >= gr.Level.POWERS:
            name += "/powers"
        case gr.ChooseProtection():
            name += "/pass-only" if len(game.legal_actions()) == 1 else "/protect-or-pass"
        case gr.ChoosePawnCities():
            name += "/basic" if game.rules.level is gr.Level.BASIC else "/advanced"
    return name


DECISION_KINDS = {
    "ChooseAction",
    "ChooseAction/powers",
    "ChooseFeeding",
    "ChooseLimitDiscard",
    "ChooseObjective/mandatory",
    "ChooseObjective/optional",
    "ChoosePawnCities/basic",
    "ChoosePawnCities/advanced",
    "ChooseProtection/pass-only",
    "ChooseProtection/protect-or-pass",
    "ChooseBack",
    "ChooseKeptCard",
}


def states_at_every_kind_of_decision(
    per_kind: int = 2, games: int = 400
) -> dict[str, list[gr.Game]]:
    """Copies of states where each kind of decision reaches a player, from play-first walks."""
    found: dict[str, list[gr.Game]] = {kind: [] for kind in DECISION_KINDS}
    for index in range(games):
        players, rules = spread(index)
        walk = Walk(
            players=players,
            rules=rules,
            seed=90_000 + index,
            first_player=index % players,
            steps=10_000,
            walk_seed=index,
            prefer_plays=0.9,
        )
        seen: set[str] = set()

        def keep(game: gr.Game, seen: set[str] = seen) -> None:
            key = _decision_key(game)
            if key in found and key not in seen and len(found[key]) < per_kind:
                seen.add(key)  # one state per kind and game
                found[key].append(game.copy())

        walk.play(after_each=keep)
        if all(len(states) >= per_kind for states in found.values()):
            break
    return found


@pytest.mark.clause(
    "1.7",
    "5.4",
    "13.2",
    "13.8a",
    "13.8c",
    "13.9a",
    "13.9b",
    "13.9c",
    "6.5",
    "8.4",
    "10.5",
    "11.3",
    "12.5",
    "13.8",
    "13.10",
)
def test_legal_actions_are_exact_at_every_kind_of_decision() -> None:
    found = states_at_every_kind_of_decision()
    assert {kind for kind, states in found.items() if states} == DECISION_KINDS, {
        kind: len(states) for kind, states in found.items()
    }
    for states in found.values():
        for game in states:
            check_listed_actions_apply(game)
            check_mutations_refused(game)
            check_exactness(game)


# -- all three, at the end of random walks -----------------------------------------------------


@pytest.mark.clause("1.7", "5.4", "13.2", "13.8a", "13.8c", "13.9a", "13.9b", "13.9c")
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=300))
def test_legal_actions_are_exact_after_a_random_walk(walk: Walk) -> None:
    game = walk.play()
    check_listed_actions_apply(game)
    check_mutations_refused(game)
    check_exactness(game)


# -- both ways, after every action of random walks --------------------------------------------


def check_both_ways(game: gr.Game) -> int:
    """Every listed action applies to a copy of ``game``, and every action near them that is
    not listed (:func:`tests.oracle.probes.probe_actions`: each card in hand on every square
    around the world, every pair an Earthquake could name, every feeding, pawn, discard,
    back, Protection and kept card) is refused by another copy, which stays as it was.
    Returns how many actions were refused."""
    decision = game.decision
    if decision is None:
        return 0
    legal = game.legal_actions()
    for action in legal:
        game.copy().apply(action)
    probe = game.copy()
    before = probe.state
    plain = plain_of(before)
    listed = set(legal)
    accepted = accepted_actions(plain, decision, listed)
    refused = 0
    for action in probe_actions(plain, decision):
        if action in listed:
            continue
        if action in accepted:  # another copy of a listed card's face: the same choice (1.12)
            assert game.is_legal(action), action
            continue
        with pytest.raises(gr.IllegalActionError):
            probe.apply(action)
        refused += 1
    assert probe.state == before, "1.7: a refused action changed the game"
    return refused


@pytest.mark.clause("1.7", "5.4", "7.2", "9.1", "9.2", "11.3", "13.7", "13.8a", "13.9a", "14.2")
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(walk=walk_strategy(max_steps=120, prefer_plays=(0.0, 0.9)))
def test_after_every_action_of_a_random_walk_exactly_the_listed_actions_apply(walk: Walk) -> None:
    """Exactness both ways, at every decision of the walk rather than at sampled ones: what
    ``legal_actions()`` lists applies, and what it does not list is refused, so an engine
    whose refusal disagrees with its list (a tile accepted diagonally after tiles have been
    played, for one) is caught at the first decision that shows it."""
    game = walk.new_game()
    rng = random.Random(walk.walk_seed)
    refused = 0
    for _ in range(walk.steps + 1):
        refused += check_both_ways(game)
        if game.is_over:
            break
        legal = list(game.legal_actions())
        plays = [a for a in legal if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)]
        game.apply(rng.choice(plays if plays and rng.random() < walk.prefer_plays else legal))
    assert refused or walk.steps == 0
