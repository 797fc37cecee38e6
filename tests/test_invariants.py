"""The invariants of spec 16 hold after every step of random games (16.1-16.7), at every level.

Three ways to the same property: a fixed sweep of seeded games over every player count, every
level and every rule set of :data:`~tests.strategies.ALL_RULES` (reproducible by its test id),
a Hypothesis search over random walks, and a Hypothesis state machine that interleaves legal
actions, bursts of random play and refused (mutated) actions, checking the invariants after
each (and, in the sweep and the walks, how each city's pawns change, 10.3-12.4).

Then what the sweep's games at the higher levels show, replayed under one watcher: each
Protection window asks the right seats in the right order (13.9b, 13.9c); each Power's effect
is what its clause says (13.4-13.8, 14.2, 14.3); the Power actions listed are those the spec
allows, found independently; the games reach a Tornado, a Protection window, a Protection,
a Power Objective and every Power; and a city that falls from four needs keeps what
``four_need_drop`` says (12.3, 12.4).
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import gaia_rules as gr
from tests.strategies import (
    ALL_RULES,
    RAIN,
    SCORCHED,
    SUN,
    CityHistoryChecker,
    InvariantChecker,
    Walk,
    around,
    check_invariants,
    check_power_options,
    check_shown_options,
    check_transition,
    holds_power,
    left_of,
    mutated_actions,
    power_deck_counts,
    random_playout,
    rules_id,
    same_choice,
    spread,
    walk_strategy,
)

SWEEP = [
    Walk(
        players=players,
        rules=rules,
        seed=1000 + index,
        first_player=index % players,
        steps=10_000,
        walk_seed=index,
    )
    for index, (players, rules) in ((i, spread(i)) for i in range(64))
] + [
    Walk(
        players=players,
        rules=rules,
        seed=2000 + index,
        first_player=(index // 4) % players,
        steps=10_000,
        walk_seed=index,
        prefer_plays=0.9,
    )
    for index, (players, rules) in ((i, spread(i + 16)) for i in range(32))
]
"""64 uniformly random games, each level at each player count four times, every rule set of
:data:`ALL_RULES` at least once; and 32 games that prefer plays to draws (bigger worlds,
scarcer pawns, more Powers played), each level at each player count twice."""

LEVELS = tuple(gr.Level)


def _walk_id(walk: Walk) -> str:
    return (
        f"{walk.players}p-seed{walk.seed}-walk{walk.walk_seed}-"
        f"{'plays' if walk.prefer_plays else 'uniform'}-{rules_id(walk.rules)}"
    )


def _at(level: gr.Level) -> list[Walk]:
    return [walk for walk in SWEEP if walk.rules.level is level]


PLAY_INVARIANTS = (
    "12.1",
    "12.3",
    "12.4",
    "12.5",
    "13.1",
    "13.3",
    "13.6",
    "13.8",
    "13.8b",
    "13.8d",
    "13.9b",
    "13.10",
    "14.1",
    "14.3c",
    "15.5",
    "16.1",
    "16.2",
    "16.3",
    "16.4",
    "16.5",
    "16.6",
    "16.7",
    "16.9",
)
"""The clauses every whole-game property below checks after every step: the invariants of
spec 16 and the rules whose outcome they observe (stealing, pawn counts, Powers' effects)."""


@pytest.mark.clause("16.1", "1.2", "12.4", "14.1")
def test_the_sweep_covers_every_player_count_level_and_rule_set() -> None:
    assert {walk.rules for walk in SWEEP if not walk.prefer_plays} == set(ALL_RULES)
    for prefer_plays in (0.0, 0.9):
        walks = [walk for walk in SWEEP if walk.prefer_plays == prefer_plays]
        pairs = {(walk.players, walk.rules.level) for walk in walks}
        assert pairs == {(players, level) for players in range(2, 6) for level in LEVELS}
    assert {walk.rules.edition for walk in SWEEP} == set(gr.Edition)
    advanced = [walk.rules for walk in SWEEP if walk.rules.level >= gr.Level.ADVANCED]
    assert {rules.four_need_drop for rules in advanced} == set(gr.FourNeedDrop)
    disasters = [walk.rules for walk in SWEEP if walk.rules.level is gr.Level.DISASTERS]
    assert {rules.lightnings for rules in disasters} == {0, 2, 5}
    assert {rules.eruption_on_city for rules in disasters} == {True, False}


@pytest.mark.clause("10.3", "10.4", "12.2", *PLAY_INVARIANTS)
@pytest.mark.parametrize("walk", SWEEP, ids=_walk_id)
def test_invariants_hold_after_every_step_of_a_whole_game(walk: Walk) -> None:
    checker, history = InvariantChecker(), CityHistoryChecker()

    def check(game: gr.Game) -> None:
        checker(game)
        history(game)

    game = walk.play(after_each=check)
    assert game.is_over
    assert checker.states == len(game.actions) + 1


@pytest.mark.clause("10.3", "10.4", "12.2", *PLAY_INVARIANTS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(prefer_plays=(0.0, 0.9)))
def test_invariants_hold_after_every_step_of_a_random_walk(walk: Walk) -> None:
    checker, history = InvariantChecker(), CityHistoryChecker()

    def check(game: gr.Game) -> None:
        checker(game)
        history(game)

    walk.play(after_each=check)


# -- what the sweep exercises at the advanced, powers and disasters levels ---------------------
#
# The sweep's games at each level are replayed once (cached) under one watcher that follows
# every Protection window and every Power's effect, counts what happened, and follows each
# city from four needs down; the tests below then assert on what it saw.

_POWER_PLAYS = (
    gr.PlaySun,
    gr.PlayRain,
    gr.PlayEarthquake,
    gr.PlayTornado,
    gr.PlayLightning,
    gr.PlayEruption,
)


def _power_of(rules: gr.Rules, card: gr.CardId) -> gr.Power | None:
    face = rules.cards.face(card)
    return face.power if isinstance(face, gr.PowerCard) else None


@attrs.define
class Window:
    """One Power played in a game and its Protection window (13.3, 13.9b)."""

    action: gr.PowerPlay
    before: gr.GameState
    """The state before the card was played: the world its effect must start from."""
    expected: list[int]
    """The other seats holding a Power card when the card was played, from its player's left."""
    skipped: int
    """The other seats holding no Power card then, never to be asked."""
    asked: list[int] = attrs.field(factory=list)
    protector: int | None = None
    pass_only: int = 0
    """How many seats were asked though they could only pass (13.9c)."""

    def next_seat(self) -> int | None:
        """The seat to ask next, or ``None`` once the window is closed."""
        if self.protector is not None or len(self.asked) == len(self.expected):
            return None
        return self.expected[len(self.asked)]


def check_power_effect(action: gr.PowerPlay, before: gr.GameState, after: gr.GameState) -> str:
    """The world after a Power's effect is what its clause says (13.4, 13.5, 13.7, 14.2,
    14.3), from the world before the card was played; returns the Power's name.

    The step that carries out the effect may also begin the next turn, whose feeding can
    only take tokens away and discard cities: tokens are compared exactly only when no new
    turn began.
    """
    rules = before.rules
    same_turn = after.active == before.active
    tiles, now = before.tiles, after.tiles
    assert set(now) == set(tiles), f"16.5: {action!r} added or removed a square"
    changed = {pos for pos in tiles if now[pos] is not tiles[pos]}
    life = after.discards[gr.CardKind.LIFE]

    def cleared(pos: gr.Pos, clause: str) -> None:
        assert pos not in after.cities and pos not in after.animals, f"{clause}: {action!r}"
        if pos in before.cities:
            assert before.cities[pos].card in life, f"{clause}: {action!r} lost a city card"

    match action:
        case gr.PlaySun(pos=pos) | gr.PlayRain(pos=pos):
            change, clause = (SUN, "13.4") if isinstance(action, gr.PlaySun) else (RAIN, "13.5")
            assert pos not in before.cities, f"{clause}: {action!r} under a city"
            assert now[pos] is change[tiles[pos]], f"{clause}: {action!r} made {now[pos]}"
            assert changed == {pos}, f"{clause}: {action!r} changed {changed}"
            if same_turn:
                assert after.animals.get(pos) == before.animals.get(pos), f"{clause}: tokens"
        case gr.PlayEarthquake(first=first, second=second):
            assert first < second and second in around(first), f"13.7: {action!r}"
            assert (now[first], now[second]) == (tiles[second], tiles[first]), f"13.7: {action!r}"
            assert changed <= {first, second}, f"13.7: {action!r} changed {changed}"
            for source, target in ((first, second), (second, first)):
                if same_turn:
                    tokens = after.animals.get(target), before.animals.get(source)
                    assert tokens[0] == tokens[1], f"13.7: {action!r} tokens {tokens}"
                city = before.cities.get(source)
                moved = after.cities.get(target)
                if city is not None:  # the city moved with its tile, or fell to 0 there
                    assert (moved is not None and moved.card == city.card) or city.card in life, (
                        f"13.7: {action!r} lost the city {city.card}"
                    )
                if moved is not None:
                    assert city is not None and moved.card == city.card, f"13.7: {action!r}"
        case gr.PlayLightning(pos=pos):
            assert pos in tiles and not changed, f"14.2: {action!r} changed {changed}"
            cleared(pos, "14.2")
        case gr.PlayEruption(pos=mountain):
            assert tiles[mountain] is gr.Land.MOUNTAIN, f"14.3a: {action!r}"
            assert rules.eruption_on_city or mountain not in before.cities, f"14.3a: {action!r}"
            ring = [pos for pos in around(mountain) if pos in tiles]
            for pos in (mountain, *ring):
                cleared(pos, "14.3c")
            scorched = {pos for pos in ring if tiles[pos] in SCORCHED}
            assert changed == scorched, f"14.3c: {action!r} changed {changed}"
            assert all(now[pos] is gr.Land.DESERT for pos in scorched), f"14.3c: {action!r}"
        case gr.PlayTornado():
            assert not changed and after.animals.keys() <= before.animals.keys(), "13.8d"
    return type(action).__name__[4:].lower()


class SweepWatcher:
    """A walk's ``after_each`` that checks, step by step:

    * each Power played opens a window that asks exactly the other seats holding a Power
      card, one at a time from the active player's left, even those that can only pass, and
      no one after the first Protection (13.3, 13.9b, 13.9c, 16.9);
    * the effect of a Power no one cancelled is what its clause says, and a cancelled one
      changes nothing in the world (13.4-13.7, 13.9, 14.2, 14.3);
    * the Power actions listed are exactly those the spec allows (:func:`power_options`);
    * each city's pawns change as 10.3, 10.4 and 12.2-12.4 say (:class:`CityHistoryChecker`);

    and counts the situations it saw (decisions, steals, four-need cities, Powers played,
    Protections, Power Objectives fulfilled, cities after four needs).
    """

    def __init__(self) -> None:
        self.last: gr.GameState | None = None
        self.windows: list[Window] = []
        self.open: Window | None = None
        self.history = CityHistoryChecker()
        self.seen: Counter[str] = Counter()
        self.reached_four: set[gr.CardId] = set()

    def __call__(self, game: gr.Game) -> None:
        self.history(game)
        state, last = game.state, self.last
        self.last = state
        self._count(state)
        if state.rules.level >= gr.Level.POWERS:
            check_power_options(game)
        if last is not None:
            self._follow_window(game, game.actions[-1], last, state)

    def _count(self, state: gr.GameState) -> None:
        self.seen[type(state.decision).__name__] += 1
        settled = state.result is None and not isinstance(state.decision, gr.ChoosePawnCities)
        for city in state.cities.values():
            if len(city.pawns) == 2:
                self.seen["a city with two pawns of its owner (12.3)"] += 1
            if city.satisfaction == 4:
                self.reached_four.add(city.card)
            elif city.card in self.reached_four and settled:
                self.seen[f"{city.satisfaction} needs, {len(city.pawns)} pawns after four"] += 1

    def _follow_window(
        self, game: gr.Game, action: gr.Action, last: gr.GameState, state: gr.GameState
    ) -> None:
        window = self.open
        if isinstance(action, _POWER_PLAYS):
            assert window is None, f"13.9b: {action!r} played inside a window"
            seats = left_of(action.player, state.players)
            holders = [seat for seat in seats if holds_power(last, seat)]
            window = Window(action, last, holders, len(seats) - len(holders))
            self.windows.append(window)
        elif isinstance(action, gr.PassProtection | gr.Protect):
            assert window is not None and window.asked[-1] == action.player, action
            if isinstance(action, gr.Protect):
                window.protector = action.player
        else:
            assert window is None, f"13.9b: {action!r} answers a window"
            return
        seat, decision = window.next_seat(), state.decision
        if seat is None:
            assert not isinstance(decision, gr.ChooseProtection), (
                f"13.9b: {decision} after the window {window} closed"
            )
            self.open = None
            if window.protector is None:
                self.seen[f"{check_power_effect(window.action, window.before, state)} effect"] += 1
            else:
                assert state.tiles == window.before.tiles, f"13.9: {window.action!r} cancelled"
                self.seen["a Power cancelled (13.9)"] += 1
            return
        later = tuple(window.expected[len(window.asked) + 1 :])
        power = window.action
        assert decision == gr.ChooseProtection(seat, power.player, power.card, later), (
            f"13.9b: after {action!r} seat {seat} is to be asked, then {later}; the decision "
            f"is {decision}"
        )
        window.asked.append(seat)
        legal = game.legal_actions()
        check_shown_options(game, legal)
        window.pass_only += legal == [gr.PassProtection(seat)]
        self.open = window


@attrs.frozen
class Report:
    """What the sweep's games at one level showed."""

    windows: list[Window]
    seen: Counter[str]
    by_drop: dict[gr.FourNeedDrop, Counter[str]]
    """What was seen in the games under each value of ``four_need_drop``."""


@functools.cache
def _report(level: gr.Level) -> Report:
    """Replay the sweep's games at ``level`` under a :class:`SweepWatcher` (once per level)."""
    windows: list[Window] = []
    seen: Counter[str] = Counter()
    by_drop: dict[gr.FourNeedDrop, Counter[str]] = {drop: Counter() for drop in gr.FourNeedDrop}
    for walk in _at(level):
        watcher = SweepWatcher()
        game = walk.play(after_each=watcher)
        assert watcher.open is None, f"the game ended inside a window: {watcher.open}"
        windows += watcher.windows
        seen += watcher.seen + watcher.history.seen
        by_drop[walk.rules.four_need_drop] += watcher.seen + watcher.history.seen
        rules = walk.rules
        for event in game.events:
            match event:
                case gr.PowerPlayed(card=card):
                    power = _power_of(rules, card)
                    assert power is not None and power is not gr.Power.PROTECTION, event
                    seen[f"{power.value} played"] += 1
                case gr.ObjectiveFulfilled(objective=objective):
                    face = rules.cards.face(objective)
                    if isinstance(face, gr.Objective) and face.is_power:
                        seen["a Power Objective fulfilled (8.1)"] += 1
    return Report(windows, seen, by_drop)


@pytest.mark.clause("13.9b", "13.9c", "13.3", "13.3b", "13.10", "16.9", "5.4")
@pytest.mark.parametrize("level", [gr.Level.POWERS, gr.Level.DISASTERS], ids=lambda v: v.name)
def test_the_protection_window_asks_the_other_power_holders_in_seat_order(
    level: gr.Level,
) -> None:
    """Every Power played in the sweep's games at this level opens a window that asks, one at
    a time from the active player's left, exactly the other seats holding a Power card, even
    those that can only pass, and no one after the first Protection; and the games meet
    every case of it."""
    windows = _report(level).windows
    assert all(w.asked == w.expected for w in windows if w.protector is None)
    assert all(w.asked == w.expected[: len(w.asked)] for w in windows)
    assert any(not w.expected for w in windows), "no Power played with no one to ask"
    assert any(w.expected and w.skipped for w in windows), "no seat without Power skipped"
    assert any(len(w.asked) >= 2 and w.protector is None for w in windows), "none all passed"
    assert any(w.protector is not None and w.protector != w.expected[0] for w in windows), (
        "no Protection after a pass"
    )
    assert any(w.protector is not None and len(w.asked) < len(w.expected) for w in windows), (
        "no seat left unasked after a Protection"
    )
    assert sum(w.pass_only for w in windows) > 0, "13.9c: no seat asked that could only pass"


@pytest.mark.clause("13.3", "13.4", "13.5", "13.7", "13.8d", "13.9", "14.2", "14.3a", "14.3c")
@pytest.mark.parametrize("level", [gr.Level.POWERS, gr.Level.DISASTERS], ids=lambda v: v.name)
def test_each_power_played_does_what_its_clause_says(level: gr.Level) -> None:
    """In the sweep's games at this level, every Power that no one cancelled changed the
    world as its clause says, and every cancelled one changed nothing; each type took effect
    somewhere."""
    seen = _report(level).seen
    powers = [p for p in power_deck_counts(_at(level)[0].rules) if p is not gr.Power.PROTECTION]
    if level is gr.Level.DISASTERS:
        powers.append(gr.Power.LIGHTNING)
    missing = {f"{power.value} effect" for power in powers} - set(seen)
    assert not missing, f"never took effect: {missing}; seen {seen}"


@pytest.mark.clause("13.2", "13.4", "13.5", "13.7", "13.8a", "13.8c", "13.9a", "14.2", "14.3d")
@pytest.mark.parametrize("level", [gr.Level.POWERS, gr.Level.DISASTERS], ids=lambda v: v.name)
def test_the_power_actions_listed_are_those_the_spec_allows(level: gr.Level) -> None:
    """At every step of the sweep's games at this level, the Power plays, backs, kept cards
    and Protection answers listed are those the spec allows, found independently."""
    seen = _report(level).seen
    for decision in ("ChooseAction", "ChooseBack", "ChooseKeptCard", "ChooseProtection"):
        assert seen[decision] > 0, seen


ADVANCED_SITUATIONS = {
    "a city stolen",
    "a city with two pawns of its owner (12.3)",
    "ChooseFeeding",
    "ChooseLimitDiscard",
}
POWERS_SITUATIONS = ADVANCED_SITUATIONS | {
    "ChooseProtection",
    "ChooseBack",
    "ChooseKeptCard",
    "a Power cancelled (13.9)",
    "a Power Objective fulfilled (8.1)",
    *(
        f"{power.value} played"
        for power in power_deck_counts(gr.Rules.powers())
        if power is not gr.Power.PROTECTION
    ),
}
DISASTERS_SITUATIONS = POWERS_SITUATIONS | {"lightning played", "eruption played"}
SITUATIONS = {
    gr.Level.ADVANCED: ADVANCED_SITUATIONS,
    gr.Level.POWERS: POWERS_SITUATIONS,
    gr.Level.DISASTERS: DISASTERS_SITUATIONS,
}
"""What the sweep's games must reach at each level (a Protection is never played as an
action, so it shows as a Power cancelled)."""


@pytest.mark.clause(
    "12.2", "12.3", "13.3", "13.8", "13.8a", "13.8c", "13.9b", "13.9e", "8.1", "14.2", "14.3"
)
@pytest.mark.parametrize("level", list(SITUATIONS), ids=lambda v: v.name)
def test_the_sweep_reaches_every_situation_of_its_level(level: gr.Level) -> None:
    """The sweep's games at this level steal cities and fill them to four needs; from the
    powers level they also play every type of Power, reach a Tornado's choice of back and
    of kept card, a Protection window, a Protection and a Power Objective fulfilled."""
    seen = _report(level).seen
    missing = SITUATIONS[level] - set(seen)
    assert not missing, f"never reached at the {level.name} level: {missing}; seen {seen}"
    if level < gr.Level.POWERS:
        assert not {name for name in seen if name.endswith(" played")}, seen


@pytest.mark.clause("12.3", "12.4", "16.6")
@pytest.mark.parametrize("drop", list(gr.FourNeedDrop), ids=lambda v: v.value)
def test_a_city_that_fell_from_four_needs_keeps_what_its_switch_says(
    drop: gr.FourNeedDrop,
) -> None:
    """Some of the sweep's games bring a city to four needs and then down again. It keeps
    one pawn at three needs under both settings, and under KEEP_ONE also at two; under
    EMPTY_AT_TWO some city stands at two needs with no pawn after having had four, its
    pawns gone as it fell."""
    found: Counter[str] = Counter()
    for level in (gr.Level.ADVANCED, gr.Level.POWERS, gr.Level.DISASTERS):
        found += _report(level).by_drop[drop]
    assert found["3 needs, 1 pawns after four"] > 0, found
    assert found["kept one pawn at 3 after four"] > 0, found
    assert found["3 needs, 0 pawns after four"] == 0, found
    if drop is gr.FourNeedDrop.KEEP_ONE:
        assert found["2 needs, 1 pawns after four"] > 0, found
        assert found["2 needs, 0 pawns after four"] == 0, found
        assert found["emptied at two after four"] == 0, found
    else:
        assert found["2 needs, 0 pawns after four"] > 0, found
        assert found["emptied at two after four"] > 0, found


# -- the state machine -------------------------------------------------------------------------


class GameMachine(RuleBasedStateMachine):
    """A game driven by Hypothesis: legal actions, random bursts and refused mutations."""

    def __init__(self) -> None:
        super().__init__()
        self.game = gr.new_game(players=2, seed=0)
        self.last = self.game.state

    @initialize(walk=walk_strategy(max_steps=0))
    def start(self, walk: Walk) -> None:
        self.game = walk.new_game()
        self.last = self.game.state

    @precondition(lambda self: not self.game.is_over)
    @rule(index=st.integers(0, 2**16))
    def apply_a_legal_action(self, index: int) -> None:
        actions = self.game.legal_actions()
        check_shown_options(self.game, actions)
        self.game.apply(actions[index % len(actions)])

    @precondition(lambda self: not self.game.is_over)
    @rule(
        seed=st.integers(0, 2**32 - 1),
        count=st.integers(1, 30),
        prefer_plays=st.sampled_from((0.0, 0.9)),
    )
    def play_a_random_burst(self, seed: int, count: int, prefer_plays: float) -> None:
        def check(game: gr.Game) -> None:
            check_invariants(game)
            check_transition(self.last, game.state)
            self.last = game.state

        random_playout(self.game, random.Random(seed), count, check, prefer_plays=prefer_plays)

    @rule(index=st.integers(0, 2**16))
    def refuse_a_mutated_action(self, index: int) -> None:
        legal = self.game.legal_actions()
        mutations = [
            m
            for m in mutated_actions(self.game, legal)
            if m not in legal and same_choice(self.game, m) not in legal  # 1.12: the same choice
        ]
        if not mutations:
            return
        action = mutations[index % len(mutations)]
        before, logged = self.game.state, len(self.game.events)
        assert not self.game.is_legal(action), f"{action!r} is accepted but not listed"
        with pytest.raises(gr.IllegalActionError) as refused:
            self.game.apply(action)  # type: ignore[arg-type]
        assert isinstance(refused.value.clause, str)
        assert refused.value.clause
        assert self.game.state == before, f"1.7: refusing {action!r} changed the state"
        assert len(self.game.events) == logged, f"1.7: refusing {action!r} logged events"

    @invariant()
    def spec_16_holds(self) -> None:
        check_invariants(self.game)
        state = self.game.state
        if state != self.last:  # a refused action changes nothing, and is no transition
            check_transition(self.last, state)
        self.last = state


GameMachine.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.clause("1.7", "5.4", "13.9c", *PLAY_INVARIANTS)
class TestGameMachine(GameMachine.TestCase):  # type: ignore[misc,valid-type]
    """The state machine, run by pytest."""
