"""The state is the whole game (spec 1.9): a game rebuilt from its position, directly or
through JSON, is the same game from there on, at every decision of every level.

The property is checked at every decision of random games: the rebuilt game has the same
state, the same view for every seat and the same legal actions in the same order; at a sample
of decisions the original and both rebuilt games are played on to the end with the same
actions, and must give the same events, random draws included. The records of rebuilt games
start from their positions and replay (16.8).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.limits import MAX_DOCUMENT_CHARS, MAX_RECORD_ACTIONS, MAX_RECORD_CHARS
from gaia_rules.position import Position, PositionBuilder

LEVELS = (gr.Rules.basic, gr.Rules.advanced, gr.Rules.powers, gr.Rules.disasters)
PLAY_ON_EVERY = 9
"""Every how many decisions the rebuilt games are played on to the end."""


@dataclass
class Restored:
    """What one game's check went through."""

    decisions: int = 0
    played_on: int = 0


def rebuilt(game: gr.Game) -> tuple[gr.Game, gr.Game]:
    """The game rebuilt from its position, from the object and through JSON."""
    position = Position.from_game(game)
    from_json = Position.from_json(position.to_json())
    assert from_json == position
    return position.to_game(), from_json.to_game()


def assert_same_game(game: gr.Game, other: gr.Game) -> None:
    assert other.state == game.state
    assert list(other.legal_actions()) == list(game.legal_actions())
    for seat in range(game.players):
        assert other.view(seat) == game.view(seat)


def play_on(games: tuple[gr.Game, ...], seed: int) -> None:
    """Play every game to the end with the same random actions: the same events each step."""
    rng = random.Random(seed)
    first = games[0]
    while not first.is_over:
        action = rng.choice(first.legal_actions())
        events = [game.apply(action) for game in games]
        assert all(e == events[0] for e in events), f"the games part at {action}"
    assert all(game.state == first.state for game in games)


def check_game(players: int, rules: gr.Rules, seed: int) -> Restored:
    """Play a random game, checking its position at every decision (see the module)."""
    done = Restored()
    game = gr.new_game(players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        restored, through_json = rebuilt(game)
        assert_same_game(game, restored)
        assert_same_game(game, through_json)
        done.decisions += 1
        if done.decisions % PLAY_ON_EVERY == 0:
            replayed = restored.record().replay()  # the record starts from the position
            play_on((game.copy(), restored, through_json, replayed), seed + done.decisions)
            done.played_on += 1
        game.apply(rng.choice(game.legal_actions()))
    return done


@pytest.mark.clause("1.9", "16.8")
@settings(max_examples=16, deadline=None)
@given(
    players=st.integers(2, 5),
    level=st.sampled_from(LEVELS),
    seed=st.integers(0, 2**32),
)
def test_every_decision_of_a_random_game_is_restored_from_its_position(
    players: int, level: object, seed: int
) -> None:
    assert callable(level)
    done = check_game(players, level(), seed)
    assert done.decisions > 0


@pytest.mark.soak
@pytest.mark.clause("1.9", "16.8")
@pytest.mark.parametrize("block", range(8))
def test_two_hundred_games_are_restored_at_every_decision(block: int) -> None:
    """The full run: 200 games, every level, 2-5 players, 25 to a block."""
    for index in range(block * 25, block * 25 + 25):
        players, level = 2 + index % 4, LEVELS[index // 4 % 4]
        check_game(players, level(), 10_000 + index)


# -- what the state holds ----------------------------------------------------------------------


def _walk_until(
    players: int, rules: gr.Rules, seed: int, wanted: type, tries: int = 400
) -> gr.Game:
    """A random game walked until its decision is a ``wanted``."""
    for attempt in range(tries):
        game = gr.new_game(players=players, rules=rules, seed=seed + attempt)
        rng = random.Random(seed + attempt)
        while not game.is_over:
            if isinstance(game.decision, wanted):
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no {wanted.__name__} in {tries} games")


@pytest.mark.clause("1.9", "13.8b", "1.6")
def test_a_tornado_half_taken_steals_the_same_cards_after_a_rebuild() -> None:
    game = _walk_until(4, gr.Rules.powers(), 70, gr.ChooseBack)
    assert game.state.random_draws >= 0
    for copy in rebuilt(game):
        assert copy.state.random_draws == game.state.random_draws
        assert copy.state.stolen == game.state.stolen
        play_on((game.copy(), copy), 5)


@pytest.mark.clause("1.9", "12.4")
def test_the_reached_four_mark_survives_a_rebuild() -> None:
    """A city that reached four needs and fell to three keeps its mark: under EMPTY_AT_TWO a
    later fall to two empties it in the rebuilt game as in the original."""
    rules = gr.Rules.advanced(four_need_drop=gr.FourNeedDrop.EMPTY_AT_TWO)
    for seed in range(400):
        game = gr.new_game(players=3, rules=rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            state = game.state
            marked = [p for p in state.reached_four if state.cities[p].satisfaction < 4]
            if marked:
                for copy in rebuilt(game):
                    assert copy.state.reached_four == state.reached_four
                    play_on((game.copy(), copy), seed)
                return
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError("no city fell from four needs in 400 games")


@pytest.mark.clause("1.9", "13.9b")
def test_a_protection_window_is_written_by_hand_and_plays() -> None:
    cards = gr.Rules.powers().cards
    sun = next(c for c, f in cards.cards if getattr(f, "power", None) is gr.Power.SUN)
    protection = next(c for c, f in cards.cards if getattr(f, "power", None) is gr.Power.PROTECTION)
    play = gr.PlaySun(0, sun, gr.Pos(0, 0))
    builder = (
        PositionBuilder(players=2, rules=gr.Rules.powers(), seed=3)
        .tile(0, 0, gr.Land.SWAMP)
        .tile(1, 0, gr.Land.PLAIN)
        .tableau(0, sun)
        .hand(1, protection, "N01")
        .turn(0)
        .steps(
            gr.ChooseAction(0, 2),
            gr.ChooseObjective(0),
            gr.PowerEffect(play),
            gr.ChooseProtection(1, 0, sun, ()),
        )
    )
    game = builder.to_game()
    assert game.decision == gr.ChooseProtection(1, 0, sun, ())
    assert list(game.legal_actions()) == [gr.Protect(1, protection), gr.PassProtection(1)]
    passed = game.copy()
    passed.apply(gr.PassProtection(1))
    assert passed.state.tiles[gr.Pos(0, 0)] is gr.Land.PLAIN  # the Sun took effect (13.4)
    events = game.apply(gr.Protect(1, protection))
    assert gr.PowerCancelled(1, protection, sun) in events
    assert game.state.tiles[gr.Pos(0, 0)] is gr.Land.SWAMP
    # the same position, through JSON
    assert Position.from_json(builder.build().to_json()).to_game().state == builder.to_game().state


@pytest.mark.clause("1.9", "5.4")
@pytest.mark.parametrize(
    ("steps", "active", "fault"),
    [
        ((gr.ChooseObjective(0),), 0, "bottom step"),
        ((gr.ChooseAction(0, 1), gr.ChooseLimitDiscard(0)), 0, "within its limits"),
        ((gr.ChooseAction(0, 3),), 0, "action 1 or 2"),
        ((gr.ChooseAction(0, 1), gr.ChooseFeeding(1, ())), 0, "feeds before"),
        ((gr.ChooseAction(0, 1), gr.ChooseBack(0, 7, ())), 0, "no seat 7"),
        ((gr.ChooseAction(1, 1),), 0, "active seat"),
        ((gr.BeginTurn(1), gr.ChooseObjective(0)), 1, "turn begins"),
    ],
)
def test_pending_steps_that_no_game_stacks_are_refused(
    steps: tuple[gr.Step, ...], active: int, fault: str
) -> None:
    builder = PositionBuilder(players=2).tile(0, 0, gr.Land.DESERT).turn(active).steps(*steps)
    with pytest.raises(gr.PositionError, match=fault):
        builder.to_game()


@pytest.mark.clause("1.9")
def test_steps_and_a_turn_action_together_are_refused() -> None:
    builder = PositionBuilder(players=2).turn(0, 1).steps(gr.ChooseAction(0, 1))
    with pytest.raises(gr.PositionError, match="not both"):
        builder.to_game()


@pytest.mark.clause("1.9", "12.4")
def test_a_reached_four_mark_on_no_city_is_refused() -> None:
    builder = PositionBuilder(players=2).tile(0, 0, gr.Land.DESERT).reached_four(0, 0)
    with pytest.raises(gr.PositionError, match="reached_four"):
        builder.to_game()


@pytest.mark.clause("1.9", "1.6")
def test_the_count_of_random_draws_is_kept() -> None:
    game = PositionBuilder(players=2).tile(0, 0, gr.Land.DESERT).random_draws(4).to_game()
    assert game.state.random_draws == 4
    with pytest.raises(gr.PositionError, match="random_draws"):
        PositionBuilder(players=2).random_draws(-1).to_game()


@pytest.mark.clause("2.5a")
def test_a_card_is_found_by_its_name() -> None:
    cards = gr.Rules.basic().cards
    assert cards.named("Venice") == "C19"
    assert cards.named("petra") == "C03"
    assert cards.city(cards.named("Rome")).name == "Rome"
    with pytest.raises(KeyError, match="Paris"):
        cards.named("Paris")
    with pytest.raises(KeyError):
        gr.Rules.basic(edition=gr.Edition.FIRST).cards.named("Venice")  # third edition only


@pytest.mark.clause("2.5a", "2.9")
def test_the_builder_takes_a_city_by_its_name() -> None:
    game = (
        PositionBuilder(players=2)
        .tile(0, 0, gr.Land.SEA)
        .tile(1, 0, gr.Land.PLAIN)
        .city(0, 0, "Venice")
        .hand(0, "Petra", "N01")
        .to_game()
    )
    assert game.state.cities[gr.Pos(0, 0)].card == "C19"
    assert game.state.hands[0] == ("C03", "N01")
    with pytest.raises(gr.PositionError, match="'Paris': no such card"):
        PositionBuilder(players=2).hand(0, "Paris").to_game()


# -- records start anywhere (16.8) -------------------------------------------------------------


@pytest.mark.clause("16.8", "1.9")
def test_the_record_of_a_game_from_a_position_replays() -> None:
    game = _walk_until(3, gr.Rules.powers(), 11, gr.ChooseProtection)
    start = Position.from_game(game)
    restored = start.to_game()
    rng = random.Random(2)
    for _ in range(30):
        if restored.is_over:
            break
        restored.apply(rng.choice(restored.legal_actions()))
    record = restored.record()
    assert record.start == start
    again = gr.GameRecord.from_json(record.to_json()).replay()
    assert again.state == restored.state
    assert again.record() == record


@pytest.mark.clause("16.8", "1.8")
def test_the_record_of_a_sampled_game_replays() -> None:
    game = _walk_until(4, gr.Rules.disasters(), 5, gr.ChooseAction)
    sample = gr.determinize(game.view(1), random.Random(3))
    rng = random.Random(4)
    for _ in range(20):
        if sample.is_over:
            break
        sample.apply(rng.choice(sample.legal_actions()))
    assert sample.record().replay().state == sample.state


@pytest.mark.clause("16.8")
def test_a_record_whose_start_disagrees_with_it_is_refused() -> None:
    game = _walk_until(2, gr.Rules.basic(), 1, gr.ChooseAction)
    record = Position.from_game(game).to_game().record()
    assert record.start is not None
    far_tile = attrs.evolve(record.start, tiles={gr.Pos(5, 5): gr.Land.SEA})
    for changed in (
        attrs.evolve(record, seed=record.seed + 1),
        attrs.evolve(record, players=3),
        attrs.evolve(record, start=far_tile),
    ):
        with pytest.raises(gr.RecordError, match="setup is refused"):
            changed.replay()


# -- untrusted input (1.7, 1.10) -----------------------------------------------------------------


@pytest.mark.clause("1.7", "5.4", "3.1", "2.9", "3.8")
@pytest.mark.parametrize(
    ("action", "clause"),
    [
        (None, "5.4"),
        (7, "5.4"),
        ("0: draw nature", "5.4"),
        (gr.DrawDeck(True, gr.CardKind.NATURE), "5.4"),
        (gr.DrawDeck(0, "nature"), "3.8"),  # type: ignore[arg-type]
        (gr.DrawDisplay(0, 7), "2.9"),  # type: ignore[arg-type]
        (gr.PlayNature(0, "N01", (0, 0)), "3.1"),  # type: ignore[arg-type]
    ],
)
def test_apply_refuses_what_it_cannot_check_and_changes_nothing(
    action: object, clause: str
) -> None:
    game = gr.new_game(players=2, seed=5)
    before = game.state
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(action)  # type: ignore[arg-type]
    assert refused.value.clause == clause
    assert game.state == before
    assert not game.is_legal(action)
    game.apply(game.legal_actions()[0])  # the game goes on


def _view_of_some_game() -> gr.View:
    return _walk_until(3, gr.Rules.powers(), 8, gr.ChooseAction).view(0)


@pytest.mark.clause("1.8", "1.5", "1.10")
@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (lambda v: attrs.evolve(v, hand=(*v.hand, "Z99")), "no such card"),
        (lambda v: attrs.evolve(v, hand=(*v.hand, "O04")), "Objective"),
        (lambda v: attrs.evolve(v, players=2**63), "players"),
        (lambda v: attrs.evolve(v, seat=7), "no seat 7"),
        (lambda v: attrs.evolve(v, decision=gr.ChooseAction(7, 1)), "decision"),
        (
            lambda v: attrs.evolve(v, steps=(*v.steps, gr.ChooseBack(v.active, 9, ()))),
            "no seat 9",
        ),
        (lambda v: attrs.evolve(v, bank=v.bank + 1), "bank"),
        (lambda v: attrs.evolve(v, supply=tuple(s + 1 for s in v.supply)), "supply"),
        (lambda v: attrs.evolve(v, hand_backs=v.hand_backs[:-1]), "hand_backs"),
        (
            lambda v: attrs.evolve(v, tiles={**v.tiles, gr.Pos(40, 40): gr.Land.SEA}),
            r"\(3\.1\)|16\.5",
        ),
    ],
)
def test_a_view_that_does_not_add_up_is_refused_by_name(change: object, fault: str) -> None:
    view = _view_of_some_game()
    assert callable(change)
    bad = change(view)
    with pytest.raises(gr.ViewError, match=fault):
        gr.determinize(bad, random.Random(0))
    with pytest.raises(gr.JsonError, match=fault):
        gr.View.from_json(bad.to_json())
    assert gr.View.from_json(view.to_json()) == view


@pytest.mark.clause("1.10")
def test_documents_over_their_limits_are_refused_before_they_are_read() -> None:
    game = gr.new_game(players=2, seed=1)
    record = game.record()
    # a record of one action too many: refused by its count, before any action is read
    data = record.to_data()
    draw = {"type": "DrawDeck", "player": 0, "kind": "nature"}
    data["actions"] = [draw] * (MAX_RECORD_ACTIONS + 1)
    with pytest.raises(gr.RecordError, match=r"at most 20300 \(1\.10\)"):
        gr.GameRecord.from_data(data)
    data["actions"] = data["actions"][:MAX_RECORD_ACTIONS]  # at the limit: it is read
    assert len(gr.GameRecord.from_data(data).actions) == MAX_RECORD_ACTIONS
    data["actions"] = [{"type": "Nonsense"}] * 1000  # each fault named, the list kept short
    with pytest.raises(gr.RecordError) as refused:
        gr.GameRecord.from_data(data)
    assert len(str(refused.value)) < 5000 and "more" in str(refused.value)
    # a text over the limit is refused by its length
    with pytest.raises(gr.RecordError, match=r"1\.10"):
        gr.GameRecord.from_json(" " * (MAX_RECORD_CHARS + 1))
    # a position of a million tiles
    position = Position.from_game(game).to_data()
    position["tiles"] = {f"{x},0": "sea" for x in range(1_000_000)}
    with pytest.raises(gr.PositionError, match="at most 48"):
        Position.from_data(position)
    position["tiles"] = {f"{x},0": "sea" for x in range(48)}  # at the limit: read, then checked
    with pytest.raises(gr.PositionError, match=r"16\.1|tiles"):
        Position.from_data(position).to_game()
    for reader in (gr.View.from_json, gr.GameState.from_json, Position.from_json):
        with pytest.raises(gr.GaiaRulesError, match=r"1\.10"):
            reader(" " * (MAX_DOCUMENT_CHARS + 1))
    with pytest.raises(gr.ManifestError, match=r"1\.10"):
        gr.Manifest.from_json(" " * (MAX_DOCUMENT_CHARS + 1))
    with pytest.raises(gr.RulesError, match=r"1\.10"):
        gr.Rules.from_json(" " * (MAX_DOCUMENT_CHARS + 1))
    with pytest.raises(gr.JsonError, match=r"1\.10"):
        gr.from_json(" " * (MAX_DOCUMENT_CHARS + 1), gr.Action)


# -- the invariants check the state (1.9) ------------------------------------------------------


@pytest.mark.clause("1.9", "12.4", "13.8", "1.6")
def test_the_invariants_see_a_state_that_does_not_add_up() -> None:
    from gaia_rules.invariants import violations  # noqa: PLC0415 (the checker under test)

    game = _walk_until(3, gr.Rules.powers(), 21, gr.ChooseAction)
    assert violations(game) == []
    table = game._table  # corrupting the engine's own state is what this test is about
    table.stolen = (("N01", 1),)
    assert any(line.startswith("13.8:") for line in violations(game))
    table.stolen = ()
    table.reached_four = {gr.Pos(30, 30)}
    assert any("no city stands" in line for line in violations(game))
    table.reached_four = set()
    table.random_draws = -1
    assert any(line.startswith("1.6:") for line in violations(game))


def _window(asked: int, later: tuple[int, ...]) -> PositionBuilder:
    """Seat 0 played a Sun; seats 1 and 2 hold a Protection, seat 3 a Rain."""
    play = gr.PlaySun(0, "P01", gr.Pos(0, 0))
    return (
        PositionBuilder(players=4, rules=gr.Rules.powers(), seed=3)
        .tile(0, 0, gr.Land.SWAMP)
        .tableau(0, "P01")
        .hand(1, "P20")
        .hand(2, "P21")
        .hand(3, "P07")
        .turn(0)
        .steps(
            gr.ChooseAction(0, 2),
            gr.ChooseObjective(0),
            gr.PowerEffect(play),
            gr.ChooseProtection(asked, 0, "P01", later),
        )
    )


@pytest.mark.clause("13.9b", "1.9")
@pytest.mark.parametrize(
    ("asked", "later", "sound"),
    [
        (1, (2, 3), True),
        (2, (3,), True),
        (3, (), True),
        (1, (2,), False),  # seat 3 holds a Power card too
        (1, (3, 2), False),  # not in seat order
        (2, (1, 3), False),  # seat 1 was asked before seat 2
    ],
)
def test_a_protection_window_asks_each_power_holder_in_turn(
    asked: int, later: tuple[int, ...], sound: bool
) -> None:
    builder = _window(asked, later)
    if sound:
        assert builder.to_game().decision == gr.ChooseProtection(asked, 0, "P01", later)
    else:
        with pytest.raises(gr.PositionError, match=r"13\.9b"):
            builder.to_game()
