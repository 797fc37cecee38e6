"""Play a game beside the engine and compare the two at every decision and every action.

At each decision the engine's legal actions are compared with the oracle's, as sets (the
spec fixes no order, so the order is not compared; the engine must list no action twice).
After each action the oracle replays what the engine's log says was decided (the player's
action, then each decision the engine took alone, 5.4) on its own plain model, and the
model must equal the engine's next state. Between the two it also checks what the flow
asks next wherever the oracle can say: turns pass clockwise after two actions (5.1, 5.2);
the feeding asks while a city of the list the oracle fixed can be fed (11.2-11.4); a
Protection window asks the right seats in order (13.9b, 13.9c) and none opens after a
Protection (13.9d); a Tornado robs the right seats in order (13.8, 13.8d); scarce pawns ask
for the right cities (10.5, 12.5); an Objective decision comes only in a check (8.3), the
cancelled player's before the protector's (13.9f), and no one is left meeting an Objective
he must or may still fulfil when a turn's action is asked (8.4).

What it cannot see it checks by replaying states: the card a Tornado takes is drawn again
from the seed by the oracle (13.8b, 1.6); with ``sampling`` set, games sampled from a seat's
view (``determinize``) are checked against that view and the seat's log (1.8), and every
step is tallied by the clauses it exercised (:mod:`tests.oracle.coverage`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import gaia_rules as gr
from tests.oracle.chance import sample_problems, stolen_problems
from tests.oracle.coverage import (
    clauses_of_deal,
    clauses_of_decision,
    clauses_of_step,
    snapshot,
    state_problems,
)
from tests.oracle.effects import OracleError, Window, apply_action
from tests.oracle.legal import (
    accepted_actions,
    available_objectives,
    feeding_list,
    legal_actions,
    meets,
    still_fed,
)
from tests.oracle.model import HAND_LIMIT, POWER_LIMIT, Plain, comparable, plain_of
from tests.oracle.probes import probe_actions
from tests.oracle.setup import deal_problems

__all__ = ["EFFECT", "FLOW", "LEGAL", "SAMPLE", "Disagreement", "Follower", "follow_game"]

_TABLEAU_GAINS = (gr.PlayNature, gr.Protect, gr.PowerPlay)
"""The actions after which their player's Objectives are checked (8.3): a Nature card, a Power
card played, a Protection."""

_TURN_ACTIONS = (
    gr.DrawDeck,
    gr.DrawDisplay,
    gr.PlayNature,
    gr.PlayAnimals,
    gr.PlayCity,
    gr.PowerPlay,
)
"""The actions a turn is made of (5.2)."""


LEGAL, EFFECT, FLOW, SAMPLE = "legal", "effect", "flow", "sample"
"""What a disagreement is about: the legal actions of a decision (and the decisions the
engine took alone, 5.4, and the actions it takes when handed them, 1.7); the state the deal
or an action leaves; which decision comes next; a game sampled from a seat's view (1.8)."""

PROBES = 24
"""How many actions near the legal ones the engine is asked about at each decision (see
:mod:`tests.oracle.probes`), drawn at random from all of them."""


class Disagreement(AssertionError):  # noqa: N818 (what it is, not an error of ours)
    """The engine and the oracle disagree about ``category`` (:data:`LEGAL`, :data:`EFFECT`
    or :data:`FLOW`)."""

    def __init__(self, category: str, message: str) -> None:
        super().__init__(f"{category}: {message}")
        self.category = category


def _settled_piles(
    piles: dict[gr.CardKind, list[gr.CardId]], before: dict[gr.CardKind, int]
) -> dict[gr.CardKind, tuple[list[gr.CardId], list[gr.CardId]]]:
    """Each pile as what it held before the step, in order, and what the step added, sorted."""
    return {
        kind: (pile[: before.get(kind, 0)], sorted(pile[before.get(kind, 0) :]))
        for kind, pile in piles.items()
    }


def _diff(expected: dict[str, object], found: dict[str, object]) -> str:
    return "; ".join(
        f"{key}: oracle {expected[key]!r}, engine {found[key]!r}"
        for key in expected
        if expected[key] != found[key]
    )


@dataclass
class Follower:
    """Follows one game from its start (``game`` must be fresh from ``new_game``).

    The deal is checked against the spec from the game's parameters (4, 2.7), then read
    once: its deck order is the seed's, which the spec does not fix. From there the oracle
    plays the game on its own model, and reads from the engine only what the seed draws
    later (the card a Tornado takes, from the log, checked against 13.8b) and the order of
    the cards one step discards together, which the spec leaves open (6.4); the engine's
    state is read only to be compared with the model.
    """

    game: gr.Game
    decisions: int = 0
    """Decisions whose legal actions were compared."""
    taken: int = 0
    """Decisions taken, by the players or by the engine, whose effects were compared."""
    kinds: dict[str, int] = field(default_factory=dict)
    """Compared decisions, by kind."""
    reached_four: set[gr.CardId] = field(default_factory=set)
    """The oracle's own record of 12.4, by city card."""
    window: Window | None = None
    """The Protection window open now, if any (13.9b)."""
    to_feed: list[gr.Pos] = field(default_factory=list)
    """The cities still to be fed this turn, listed when the feeding began (11.2)."""
    checked: set[int] = field(default_factory=set)
    """The seats whose Objective check is open (8.3)."""
    checks: frozenset[str] = frozenset({LEGAL, EFFECT, FLOW})
    """What to compare; a disagreement about anything else is ignored (and the model is read
    again from the engine when its effects are not compared, so that the rest still is)."""
    turn_actions: int | None = None
    """The actions taken in this turn (5.2); unknown before the first turn the oracle sees."""
    victims: list[int] = field(default_factory=list)
    """The seats a Tornado has still to rob, in order (13.8)."""
    protected: tuple[int, int] | None = None
    """The cancelled player and the protector of the last Protection, until the next action."""
    protector_checked: bool = False
    """Whether the protector's Objective check has begun (13.9f)."""

    model: Plain = field(init=False)
    """The oracle's own game, played on by its own reading of the spec."""
    probing: random.Random = field(default_factory=lambda: random.Random(0))
    """Draws the probes of each decision (seeded: a run is reproducible)."""
    sampling: int = 0
    """Every how many decisions a game is sampled from the deciding seat's view and checked
    (1.8); also whenever a thief chooses the stolen card he keeps, from his view and those of
    the seats robbed. 0: never."""
    samples: int = 0
    """The sampled games checked."""
    draws: list[tuple[int, int]] = field(default_factory=list)
    """The random draws of the game: how many cards each drew among, and the place drawn."""
    exercised: Counter[str] = field(default_factory=Counter)
    """How often each clause was exercised, by the steps and decisions compared."""

    def __post_init__(self) -> None:
        fresh = not self.game.actions and self.game.record().start is None
        if fresh:  # a deal: what the spec says of it (4, 2.7, 13.1)
            for problem in deal_problems(self.game):
                self._fail(EFFECT, f"the deal: {problem}")
            self.exercised.update(clauses_of_deal(self.game))
        else:  # a position: its record of 12.4 is where the oracle's own begins
            state = self.game.state
            self.reached_four = {state.cities[pos].card for pos in state.reached_four}
        self.model = self._read()

    def _fail(self, category: str, message: str) -> None:
        if category in self.checks:
            raise Disagreement(category, message)

    def _read(self) -> Plain:
        """The model read from the engine's state (at the start, or when effects are not
        compared)."""
        state = self.game.state
        plain = plain_of(state, self.reached_four)
        if isinstance(state.decision, gr.ChoosePawnCities):
            plain.waiting = list(state.decision.cities)
        return plain

    def plain(self) -> Plain:
        """The oracle's own model of the game now."""
        return self.model

    # -- at a decision -----------------------------------------------------------------------

    def check_decision(self) -> None:
        """The engine's legal actions are the oracle's (as sets), and the decision is the one
        the oracle expects where it can tell."""
        game = self.game
        decision = game.decision
        if decision is None:
            if len(game.legal_actions()) != 0:
                self._fail(LEGAL, f"15.1: actions after the end {list(game.legal_actions())}")
            return
        plain = self.plain()
        listed = list(game.legal_actions())
        if len(set(listed)) != len(listed):
            self._fail(LEGAL, f"the engine lists an action twice at {decision}: {listed}")
        expected = legal_actions(plain, decision, self._feeding_for(decision))
        if set(listed) != expected:
            self._fail(
                LEGAL,
                f"legal actions at {decision!r}: listed, not allowed "
                f"{sorted(map(str, set(listed) - expected))}; allowed, not listed "
                f"{sorted(map(str, expected - set(listed)))}",
            )
        always_asked = isinstance(decision, gr.ChooseProtection | gr.ChooseLimitDiscard)
        if len(listed) < 2 and not always_asked:
            self._fail(LEGAL, f"5.4: {decision} asked with one option {listed}")
        if LEGAL in self.checks:
            self._probe(plain, decision, expected)
        self._check_flow(plain, decision)
        self.exercised.update(clauses_of_decision(plain, decision, listed))
        kept = isinstance(decision, gr.ChooseKeptCard)
        if self.sampling and (kept or self.decisions % self.sampling == 0):
            self._check_samples(decision)
        self.decisions += 1
        name = type(decision).__name__
        self.kinds[name] = self.kinds.get(name, 0) + 1

    def _check_samples(self, decision: gr.Decision) -> None:
        """1.8: a game sampled from a seat's view shows it that view, hides exactly what it
        cannot see, keeps the stolen cards its log showed it, and offers the oracle's legal
        actions: the deciding seat's view, and when the thief chooses the card he keeps
        (having seen them all) each robbed seat's, which saw its own."""
        game = self.game
        seats = {decision.player}
        if isinstance(decision, gr.ChooseKeptCard):  # the thief has seen them all
            seats |= {source for _, source in game.state.stolen}
        for seat in sorted(seats):
            view = game.view(seat)
            sample = gr.determinize(view, random.Random(self.samples))
            self.samples += 1
            problems = sample_problems(view, sample) + stolen_problems(game, seat, sample)
            if problems:
                raise Disagreement(
                    SAMPLE, f"a sample of seat {seat}'s view at {decision!r}: {problems}"
                )
            self.exercised.update(("1.8", "1.5", "1.5a", "1.5b", "1.5c"))
            if view.stolen:
                self.exercised.update(("1.5d", "1.14"))

    def _probe(self, plain: Plain, decision: gr.Decision, expected: set[gr.Action]) -> None:
        """1.7: the engine takes exactly the actions the oracle allows, listed or not."""
        probes = probe_actions(plain, decision)
        accepted = accepted_actions(plain, decision, expected)  # other copies: 1.12
        for action in self.probing.sample(probes, min(PROBES, len(probes))):
            taken = action in accepted
            if self.game.is_legal(action) != taken:
                said = "takes" if not taken else "refuses"
                self._fail(LEGAL, f"1.7: at {decision!r} the engine {said} {action}")
            if not taken:
                self.exercised["1.7"] += 1

    def _feeding_for(self, decision: gr.Decision) -> list[gr.Pos] | None:
        if isinstance(decision, gr.ChooseFeeding):
            if set(decision.cities) != set(self.to_feed):
                self._fail(
                    FLOW,
                    f"11.2: the cities to feed are {sorted(self.to_feed)}, the engine has "
                    f"{sorted(decision.cities)}",
                )
            return self.to_feed
        return None

    def _check_flow(self, plain: Plain, decision: gr.Decision) -> None:
        window = self.window
        if window is not None:
            expected = gr.ChooseProtection(
                window.asked[0], window.play.player, window.play.card, tuple(window.asked[1:])
            )
            if decision != expected:
                self._fail(FLOW, f"13.9b: the window asks {expected}, the engine {decision}")
        elif isinstance(decision, gr.ChooseProtection):
            self._fail(FLOW, f"13.9b: {decision} with no window open")
        if isinstance(decision, gr.ChooseAction):
            for seat in range(plain.players):
                hand = plain.hands[seat]
                if len(hand) > HAND_LIMIT or len(plain.power_cards(hand)) > POWER_LIMIT:
                    self._fail(FLOW, f"6.5: seat {seat} holds {hand} at a turn's action")
            feedable = legal_actions(plain, gr.ChooseFeeding(plain.active, ()), self.to_feed)
            if feedable and decision.number == 1:
                self._fail(FLOW, f"11.3: the feeding ended with {sorted(map(str, feedable))}")
            # 8.4: under MANDATORY no one is left meeting an Objective; under OPTIONAL a
            # player whose check opened and who declined nothing was offered all he meets
            mandatory = plain.rules.objectives is gr.Objectives.MANDATORY
            for seat in range(plain.players) if mandatory else sorted(self.checked):
                met = [o for o in available_objectives(plain) if meets(plain, seat, o)]
                if met:
                    self._fail(FLOW, f"8.4: seat {seat} still meets {met} at {decision}")
        if isinstance(decision, gr.ChooseAction) and self.turn_actions is not None:
            self._check_action_number(plain, decision)
        if isinstance(decision, gr.ChooseBack):
            expected_back = (self.victims[:1], tuple(self.victims[1:]))
            if ([decision.victim], decision.later) != expected_back:
                self._fail(FLOW, f"13.8, 13.8d: {decision}; the victims are {self.victims}")
        if isinstance(decision, gr.ChooseKeptCard) and (self.victims or len(plain.stolen) < 2):
            self._fail(FLOW, f"13.8c, 13.10: {decision} with {plain.stolen}, {self.victims} left")
        if isinstance(decision, gr.ChooseObjective) and self.protected is not None:
            cancelled, protector = self.protected
            mandatory = plain.rules.objectives is gr.Objectives.MANDATORY
            met = [o for o in available_objectives(plain) if meets(plain, cancelled, o)]
            if decision.player == protector and mandatory and met:
                self._fail(FLOW, f"13.9f: the protector asked while seat {cancelled} meets {met}")
        if isinstance(decision, gr.ChooseObjective) and decision.player not in self.checked:
            self._fail(FLOW, f"8.3: {decision} with no check open for him")

    def _check_action_number(self, plain: Plain, decision: gr.ChooseAction) -> None:
        """5.2: the active player's first, then second action."""
        assert self.turn_actions is not None
        if (decision.number, decision.player) != (self.turn_actions + 1, plain.active):
            self._fail(FLOW, f"5.2: {decision} after {self.turn_actions} actions")

    # -- an action -----------------------------------------------------------------------------

    def apply(self, action: gr.Action) -> None:
        """Apply ``action`` to the game and the same decisions to the oracle; compare."""
        game = self.game
        plain = self.plain()
        before_piles = {kind: len(pile) for kind, pile in plain.discards.items()}
        logged = len(game.events)
        game.apply(action)
        events = game.events[logged:]
        window = self.window
        for index, event in enumerate(events):
            if isinstance(event, gr.TurnBegan):
                self._turn_begins(plain, event.player)
                plain.active = event.player
                self.to_feed = feeding_list(plain, event.player)  # 11.2: fixed now
                self.checked = set()
            if not isinstance(event, gr.ActionTaken) or event.action is None:
                continue
            taken = event.action
            if event.by_engine:
                self._check_alone(plain, taken)
            stolen = next((e.card for e in events[index:] if isinstance(e, gr.CardStolen)), None)
            opened = window
            step = snapshot(plain)
            plain.last_draw = None
            try:
                window = apply_action(plain, taken, window, stolen)
            except OracleError as error:
                self._fail(EFFECT, f"after {taken}: {error}")
            if plain.last_draw is not None:
                self.draws.append(plain.last_draw)
            self.exercised.update(clauses_of_step(step, plain, taken, opened, window))
            self._after(plain, taken, opened, window)
            self.taken += 1
        self.window = window if plain.result is None else None
        state = game.state
        found = plain_of(state, {state.cities[pos].card for pos in state.reached_four})
        expected_view, found_view = comparable(plain), comparable(found)
        # The spec orders the discard piles card by card (6.4) but not the cards that one
        # change discards together (the cities an Eruption clears, those at 0 in 10.1(c)):
        # what this step added to a pile is compared as a multiset, the rest in order.
        for view in (expected_view, found_view):
            view["discards"] = _settled_piles(view["discards"], before_piles)  # type: ignore[arg-type]
        if expected_view != found_view:
            self._fail(EFFECT, f"after {action} ({events}): {_diff(expected_view, found_view)}")
        for problem in state_problems(state):  # section 16, read plainly
            self._fail(EFFECT, f"after {action}: {problem}")
        self.reached_four = plain.reached_four
        if EFFECT in self.checks:
            # the model agreed: it plays on, taking only the order the spec leaves open
            for kind, pile in found.discards.items():
                plain.discards[kind] = list(pile)
        else:  # its effects unchecked, the model is not vouched for: read it again
            self.model = self._read()
        if plain.waiting and plain.result is None:
            decision = game.decision
            if not isinstance(decision, gr.ChoosePawnCities) or set(decision.cities) != set(
                plain.waiting
            ):
                self._fail(FLOW, f"10.5: {plain.waiting} wait for pawns; engine {decision}")

    def _turn_begins(self, plain: Plain, seat: int) -> None:
        """5.1, 5.2, 5.5: the next seat clockwise, once two actions are complete."""
        if self.turn_actions is not None:
            following = (plain.active + 1) % plain.players
            if seat != following or self.turn_actions != 2:
                self._fail(
                    FLOW,
                    f"5.1, 5.2: seat {seat}'s turn after {self.turn_actions} actions of seat "
                    f"{plain.active}",
                )
        if self.victims or plain.stolen:
            self._fail(FLOW, f"13.8: a turn begins with {self.victims} to rob, {plain.stolen}")
        self.turn_actions = 0

    def _after(
        self, plain: Plain, taken: gr.Action, opened: Window | None, window: Window | None
    ) -> None:
        if isinstance(taken, _TURN_ACTIONS):
            self.turn_actions = (self.turn_actions or 0) + 1
        effect: gr.Action | None = None  # the Power whose effect ran just now, if any
        if isinstance(taken, gr.PowerPlay) and window is None:
            effect = taken
        if isinstance(taken, gr.PassProtection) and opened is not None and window is None:
            effect = opened.play
        if isinstance(effect, gr.PlayTornado):  # 13.8, 13.8d: each other hand holding cards
            order = [(effect.player + k) % plain.players for k in range(1, plain.players)]
            self.victims = [seat for seat in order if plain.hands[seat]]
        if isinstance(taken, gr.NameBack):
            if not self.victims or taken.victim != self.victims[0]:
                self._fail(FLOW, f"13.8: {taken} when the victims are {self.victims}")
            self.victims = self.victims[1:]
        self._after_protection(plain, taken, opened)
        if isinstance(taken, gr.KeepCard) and self.victims:
            self._fail(FLOW, f"13.8c: {taken} before {self.victims} were robbed")
        if isinstance(taken, gr.Feed):
            self.to_feed.remove(taken.city)
        if isinstance(taken, _TURN_ACTIONS):
            self.checked = set()  # a new action: the checks of the last one are over
        if isinstance(taken, _TABLEAU_GAINS):
            self.checked.add(taken.player)
        if isinstance(taken, gr.DeclineObjectives):
            self.checked.discard(taken.player)

    def _after_protection(self, plain: Plain, taken: gr.Action, opened: Window | None) -> None:
        """13.9f: after a Protection the cancelled player's Objectives are checked first."""
        if isinstance(taken, gr.Protect) and opened is not None:
            self.protected = (opened.play.player, taken.player)
            self.protector_checked = False
        elif isinstance(taken, _TURN_ACTIONS):
            self.protected = None
        if self.protected is None:
            return
        cancelled, protector = self.protected
        if isinstance(taken, gr.FulfillObjective | gr.DeclineObjectives):
            if taken.player == protector:
                self.protector_checked = True
            elif taken.player == cancelled and self.protector_checked:
                self._fail(FLOW, f"13.9f: {taken} after the protector's check")

    def _check_alone(self, plain: Plain, taken: gr.Action) -> None:
        """A decision the engine took alone had exactly that one option (5.4)."""
        decision: gr.Decision | None = None
        match taken:
            case gr.Feed(player=seat):
                decision = gr.ChooseFeeding(seat, tuple(self.to_feed))
            case gr.FulfillObjective(player=seat) | gr.DeclineObjectives(player=seat):
                decision = gr.ChooseObjective(seat)
            case gr.PlaceCityPawn(player=seat):
                decision = gr.ChoosePawnCities(seat, tuple(plain.waiting))
            case gr.NameBack(player=seat, victim=victim):
                decision = gr.ChooseBack(seat, victim, ())
            case gr.KeepCard(player=seat):
                decision = gr.ChooseKeptCard(seat)
            case _:
                self._fail(LEGAL, f"5.4: the engine took {taken} alone")
                return
        options = legal_actions(plain, decision, self.to_feed)
        if options != {taken}:
            self._fail(
                LEGAL,
                f"5.4: the engine took {taken} alone; the options were {sorted(map(str, options))}",
            )
        if isinstance(taken, gr.Feed) and not still_fed(plain, taken.player, taken.city):
            self._fail(LEGAL, f"11.2: fed {taken.city}, which no longer qualifies")


def follow_game(
    game: gr.Game,
    rng: random.Random,
    max_steps: int,
    *,
    prefer_plays: float = 0.0,
    after_each: Callable[[gr.Game], None] | None = None,
    checks: frozenset[str] = frozenset({LEGAL, EFFECT, FLOW}),
    sampling: int = 0,
    forced: tuple[gr.Action, ...] = (),
) -> Follower:
    """Play up to ``max_steps`` random legal actions, comparing engine and oracle at each
    (only ``checks``); the ``forced`` actions first, each of which must be legal."""
    follower = Follower(game, checks=checks, sampling=sampling)
    follower.check_decision()
    for action in forced:
        follower.apply(action)
        follower.check_decision()
    for _ in range(max_steps):
        if game.is_over:
            break
        legal = game.legal_actions()
        choices: list[gr.Action] = list(legal)
        if prefer_plays and rng.random() < prefer_plays:
            plays: list[gr.Action] = [
                a for a in choices if not isinstance(a, gr.DrawDeck | gr.DrawDisplay)
            ]
            choices = plays or choices
        follower.apply(rng.choice(choices))
        follower.check_decision()
        if after_each is not None:
            after_each(game)
    return follower
