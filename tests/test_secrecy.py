"""Secrecy as a property (spec 1.5, 13.8c, 13.9c): what a seat is shown never depends on
what it may not see, and never names a card hidden from it.

Three families of tests, after OpenSpiel's and boardgame.io's leaks (STYLE.md):

- (a) *Hidden twins*: two games built with :class:`~gaia_rules.PositionBuilder` that differ
  only in what one seat cannot see (the other seats' hands, swapped for other cards of the
  same backs; the order of the decks; the seed) are driven in step with the same actions.
  While the spec says the seat may see the same thing in both, the engine must show it the
  same view, the same redacted log, the same ``to_move`` and ``decision``, and, when it is to
  move, the same legal actions.
- (b) *No hidden id*: over random games at every level, the JSON of every seat's view and
  log never names a card hidden from that seat at that moment, and a seat's log never
  changes in retrospect.
- (c) *Refusals*: actions from a stale copy, for the wrong seat or out of turn are refused
  with an :class:`~gaia_rules.IllegalActionError` that says why, and leave the game as it
  was.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gaia_rules as gr
from gaia_rules.events import StolenCardsSeen
from tests.spec_clauses import spec_clauses
from tests.strategies import Walk, walk_strategy

K = gr.CardKind
LEVELS = (gr.Rules.basic(), gr.Rules.advanced(), gr.Rules.powers(), gr.Rules.disasters())
LEVEL_IDS = ("basic", "advanced", "powers", "disasters")
CARD_ID = re.compile(r"[NCAPO][0-9]{2}")
FACE_IDS = set(gr.Rules.powers().cards.face_ids.values())
"""Ids that name a face when a seat sees them outside its hand (spec 1.14), not a card."""


def back(card: str) -> gr.CardKind:
    """The back of a card that a hand can hold, from its id (spec 2.9), written here on purpose."""
    return {"N": K.NATURE, "C": K.LIFE, "A": K.LIFE, "P": K.POWER}[card[0]]


def ids_in(text: str) -> set[str]:
    """Every card id a JSON text names, wherever it stands (a value, a key, inside a text)."""
    return set(CARD_ID.findall(text))


# -- what the spec lets a seat see (1.5), computed from the state, never from the views --------


def share(state: gr.GameState, seat: int) -> tuple[object, ...]:
    """Everything ``seat`` may know about the cards and the world, by spec 1.5 and RULINGS 6:
    the public places, its own hand, how many cards of each back every hand holds, deck sizes,
    and the stolen cards it may see (13.8c: the seat robbed, and the thief, the active player,
    who is shown them once the last is taken). Two games with equal shares for a seat must
    look the same to it."""
    backs = tuple(tuple(sum(back(c) is kind for c in hand) for kind in K) for hand in state.hands)
    stolen = tuple(
        (back(card), source, card if seat in (source, state.active) else None)
        for card, source in state.stolen
    )
    return (
        state.rules,
        state.players,
        state.first_player,
        state.tiles,
        state.animals,
        state.cities,
        state.tile_supply,
        state.bank,
        state.displays,
        state.discards,
        state.tableaux,
        state.objectives,
        state.objective_pawns,
        state.supply,
        {kind: len(deck) for kind, deck in state.decks.items()},
        state.hands[seat],
        backs,
        stolen,
    )


def view_difference(a: gr.View, b: gr.View) -> dict[str, tuple[object, object]]:
    return {
        field.name: (getattr(a, field.name), getattr(b, field.name))
        for field in attrs.fields(gr.View)
        if getattr(a, field.name) != getattr(b, field.name)
    }


def assert_seat_sees_the_same(a: gr.Game, b: gr.Game, seat: int) -> None:
    """The two games look the same to ``seat``: view, log, who moves, what is decided, and,
    when it is to move, its legal actions."""
    view_a, view_b = a.view(seat), b.view(seat)
    assert view_a == view_b, f"seat {seat} tells the games apart: {view_difference(view_a, view_b)}"
    assert view_a.to_json() == view_b.to_json()
    log_a, log_b = a.events_for(seat), b.events_for(seat)
    assert len(log_a) == len(log_b), f"seat {seat}: logs of {len(log_a)} and {len(log_b)} events"
    for index, (event_a, event_b) in enumerate(zip(log_a, log_b, strict=True)):
        assert event_a == event_b, f"seat {seat}, event {index}: {event_a} != {event_b}"
    assert a.to_move == b.to_move
    assert a.decision == b.decision, f"seat {seat}: {a.decision} != {b.decision}"
    if a.to_move == seat:
        assert a.legal_actions() == b.legal_actions()


def reveals_a_different_card(a: gr.Game, b: gr.Game, seat: int, action: gr.Action) -> bool:
    """Whether ``action`` would show ``seat`` a deck card that differs between the games: the
    card refilling a display slot, or the top card the seat draws itself."""
    if isinstance(action, gr.DrawDisplay):
        kind = back(action.card)
    elif isinstance(action, gr.DrawDeck) and action.player == seat:
        kind = action.kind
    else:
        return False
    return a.state.decks[kind][:1] != b.state.decks[kind][:1]


def next_actions(
    a: gr.Game, b: gr.Game, seat: int, rng: random.Random
) -> tuple[gr.Action, gr.Action] | None:
    """The action to apply to each game: the seat's own choice, or another seat's choice in
    the first game that is also legal in the second; one that keeps what the seat sees alike
    when there is one. A thief keeps the card taken from the same seat in both (what the
    others see of it is the seat it came from, 13.8c). ``None`` when the games cannot stay
    in step."""
    legal: Sequence[gr.Action] = a.legal_actions()
    if a.to_move != seat:
        legal = [action for action in legal if b.is_legal(action)]
    quiet = [action for action in legal if not reveals_a_different_card(a, b, seat, action)]
    if quiet or legal:
        action = rng.choice(quiet or legal)
        return action, action
    decision = a.decision
    if isinstance(decision, gr.ChooseKeptCard):
        card_a, source = rng.choice(a.state.stolen)
        card_b = next(card for card, src in b.state.stolen if src == source)
        return gr.KeepCard(decision.player, card_a), gr.KeepCard(decision.player, card_b)
    return None


def drive_in_step(
    a: gr.Game,
    b: gr.Game,
    seat: int,
    rng: random.Random,
    *,
    steps: int,
    script: Sequence[gr.Action] = (),
) -> int:
    """Play the two games in step, checking what ``seat`` sees before and after every action:
    first the scripted actions (applied to both), then ``steps`` chosen by
    :func:`next_actions`. Stops when the games may rightly look different to the seat (it
    drew different cards, say) or cannot stay in step. Returns the actions played."""
    assert share(a.state, seat) == share(b.state, seat), "the twins must start alike"
    played = 0
    for action in script:
        assert_seat_sees_the_same(a, b, seat)
        a.apply(action)
        b.apply(action)
        played += 1
        assert share(a.state, seat) == share(b.state, seat), f"the script diverged at {action}"
    for _ in range(steps):
        if share(a.state, seat) != share(b.state, seat):
            return played  # the seat may now rightly tell them apart
        assert_seat_sees_the_same(a, b, seat)
        if a.is_over:
            return played
        pair = next_actions(a, b, seat, rng)
        if pair is None:
            return played
        a.apply(pair[0])
        b.apply(pair[1])
        played += 1
    if share(a.state, seat) == share(b.state, seat):
        assert_seat_sees_the_same(a, b, seat)
    return played


# -- building the twins with PositionBuilder ---------------------------------------------------


def builder_for(
    position: gr.Position,
    hands: Sequence[Sequence[str]] | None = None,
    decks: dict[gr.CardKind, Sequence[str]] | None = None,
    seed: int | None = None,
) -> gr.PositionBuilder:
    """A builder that writes ``position`` out in full, with other hands, decks or seed."""
    builder = gr.PositionBuilder(
        players=position.players,
        rules=position.rules,
        seed=position.seed if seed is None else seed,
    )
    for pos, land in position.tiles.items():
        builder.tile(pos.x, pos.y, land, animals=position.animals.get(pos, 0))
    for pos, (card, pawns) in position.cities.items():
        builder.city(pos.x, pos.y, card, pawns=pawns)
    for player, hand in enumerate(position.hands if hands is None else hands):
        builder.hand(player, *hand)
    for player, tableau in enumerate(position.tableaux):
        builder.tableau(player, *tableau)
    for kind in K:
        deck = position.decks.get(kind, ()) if decks is None else decks[kind]
        builder.deck(kind, *deck)
        builder.display(kind, *position.displays.get(kind, ()))
        builder.discard_pile(kind, *position.discards.get(kind, ()))
    builder.objectives(*position.objectives, fulfilled=position.objective_pawns)
    builder.turn(position.active, position.turn_action, position.first_player)
    return builder


def hidden_twin(position: gr.Position, seat: int, rng: random.Random) -> gr.PositionBuilder:
    """``position`` as ``seat`` cannot tell it apart: each other seat's cards swapped, most
    of them, for cards of the same back from the decks; the decks reordered below their top
    few cards (kept, so that a display refill or a draw by the seat does not end the
    comparison at once); another seed."""
    decks = {kind: list(position.decks.get(kind, ())) for kind in K}
    kept = {kind: rng.randint(0, 3) for kind in K}
    hands = [list(hand) for hand in position.hands]
    for other, hand in enumerate(hands):
        if other == seat:
            continue
        for index, card in enumerate(hand):
            kind = back(card)
            below = range(kept[kind], len(decks[kind]))
            if below and rng.random() < 0.8:
                slot = rng.choice(below)
                hand[index], decks[kind][slot] = decks[kind][slot], card
    for kind, deck in decks.items():
        tail = deck[kept[kind] :]
        rng.shuffle(tail)
        decks[kind] = deck[: kept[kind]] + tail
    # the seed is hidden too (1.6); another whole number of the seeds' range (1.10)
    seed = (position.seed + 1 + rng.randrange(2**16)) % 2**63
    return builder_for(position, hands=hands, decks=dict(decks.items()), seed=seed)


def a_turn_position(walk: Walk) -> gr.Position:
    """The last position of the walk taken at a turn's action (a position is taken there)."""
    game = walk.new_game()
    positions = [gr.Position.from_game(game)]
    rng = random.Random(walk.walk_seed)
    for _ in range(walk.steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        if isinstance(game.decision, gr.ChooseAction):
            positions.append(gr.Position.from_game(game))
    return positions[-1]


def check_hidden_twins(position: gr.Position, seat: int, rng: random.Random, steps: int) -> int:
    first = builder_for(position).to_game()
    second = hidden_twin(position, seat, rng).to_game()
    return drive_in_step(first, second, seat, rng, steps=steps)


# -- (a) hidden twins ----------------------------------------------------------------------------


@pytest.mark.clause("1.5")
@pytest.mark.parametrize("rules", LEVELS, ids=LEVEL_IDS)
def test_hidden_twins_look_the_same_to_the_seat_at_every_level(rules: gr.Rules) -> None:
    played = 0
    for index in range(6):
        players = 2 + index % 4
        walk = Walk(
            players, rules, seed=700 + index, first_player=index % players, steps=0, walk_seed=index
        )
        for steps in (0, 15, 40):
            position = a_turn_position(attrs.evolve(walk, steps=steps))
            for seat in range(players):
                rng = random.Random(f"{index}/{steps}/{seat}")
                played += check_hidden_twins(position, seat, rng, steps=60)
    assert played > 400, f"the twins stayed in step for {played} actions only"


@pytest.mark.clause("1.5")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=120, prefer_plays=(0.0, 0.6)), data=st.data())
def test_hidden_twins_of_random_positions(walk: Walk, data: st.DataObject) -> None:
    position = a_turn_position(walk)
    seat = data.draw(st.integers(0, walk.players - 1), label="seat")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="rng"))
    check_hidden_twins(position, seat, rng, steps=80)


@pytest.mark.clause("1.5")
def test_the_builder_writes_a_position_out_in_full() -> None:
    """The twins are built from :func:`builder_for`; it must give the position back."""
    for index, rules in enumerate(LEVELS):
        walk = Walk(3, rules, seed=90 + index, first_player=1, steps=30, walk_seed=index)
        position = a_turn_position(walk)
        game = builder_for(position).to_game()
        assert gr.Position.from_game(game).hands == position.hands
        assert game.state.decks == {kind: position.decks.get(kind, ()) for kind in K}
        assert game.state.displays == {kind: position.displays.get(kind, ()) for kind in K}
        assert game.state.tiles == position.tiles


def pending(*games: gr.Game) -> set[gr.Decision | None]:
    """The decisions pending in the games: one element when they agree."""
    return {game.decision for game in games}


def protection_twins(protection_in_first: bool) -> tuple[gr.Game, gr.Game]:
    """Powers, three seats. Seat 0 holds a Sun and will play it on the plain at (1, 0); seat 1
    holds one Power card, a Protection in one game and a Rain in the other; seat 2 holds an
    Earthquake. Nothing else differs (the Protection and the Rain trade places with the deck)."""
    protection, rain = "P20", "P07"
    deck = ["P01", "P02", "P03", "P08", "P13", "P14", "P16"]

    def build(held: str, in_deck: str) -> gr.Game:
        return (
            gr.PositionBuilder(players=3, rules=gr.Rules.powers(), seed=3)
            .tile(0, 0, gr.Land.FOREST)
            .tile(1, 0, gr.Land.PLAIN)
            .hand(0, "P04", "N01")
            .hand(1, held, "C01")
            .hand(2, "P15", "N02")
            .deck(K.POWER, *deck[:3], in_deck, *deck[3:])
            .display(K.POWER, "P05", "P06")
            .turn(0, action=1)
            .to_game()
        )

    with_protection = build(protection, rain)
    without = build(rain, protection)
    if protection_in_first:
        return with_protection, without
    return without, with_protection


@pytest.mark.clause("1.5", "13.9c")
@pytest.mark.parametrize("observer", [0, 2])
@pytest.mark.parametrize("protection_in_first", [True, False])
def test_being_asked_about_protection_reveals_nothing(
    observer: int, protection_in_first: bool
) -> None:
    """RULINGS 24: a seat holding a Protection and one holding another Power card are asked
    the same decision; the Power's player and a third seat cannot tell which it holds."""
    a, b = protection_twins(protection_in_first)
    sun = gr.PlaySun(0, "P04", gr.Pos(1, 0))
    drive_in_step(a, b, observer, random.Random(0), steps=0, script=[sun])
    asked = gr.ChooseProtection(1, power_player=0, against="P04", later=(2,))
    assert pending(a, b) == {asked}
    holder_of_rain = b if protection_in_first else a
    assert holder_of_rain.legal_actions() == [gr.PassProtection(1)], "13.9c: asked all the same"
    drive_in_step(a, b, observer, random.Random(1), steps=0, script=[gr.PassProtection(1)])
    assert pending(a, b) == {gr.ChooseProtection(2, 0, "P04", ())}
    drive_in_step(a, b, observer, random.Random(2), steps=0, script=[gr.PassProtection(2)])
    assert a.state.tiles[gr.Pos(1, 0)] is b.state.tiles[gr.Pos(1, 0)] is gr.Land.DESERT
    assert pending(a, b) == {gr.ChooseAction(0, 2)}
    assert_seat_sees_the_same(a, b, observer)


def lightning_twins(differs: int) -> tuple[gr.Game, gr.Game]:
    """Disasters, three seats. Seat 0 holds a Lightning and will play it on (1, 0); seats 1
    and 2 each hold one Power card. Seat ``differs`` holds a Protection in the first game and
    a Rain in the second (the two trade places in the Power deck); nothing else differs."""

    def build(held: str, in_deck: str) -> gr.Game:
        powers = {1: "P13", 2: "P14", differs: held}
        return (
            gr.PositionBuilder(players=3, rules=gr.Rules.disasters(), seed=8)
            .tile(0, 0, gr.Land.MOUNTAIN)
            .tile(1, 0, gr.Land.PLAIN)
            .hand(0, "P24", "N03")
            .hand(1, powers[1], "C02")
            .hand(2, powers[2], "A03")
            .deck(K.POWER, "P01", "P09", in_deck, "P10", "P17")
            .display(K.POWER, "P05", "P06")
            .turn(0, action=1)
            .to_game()
        )

    return build("P22", "P08"), build("P08", "P22")


@pytest.mark.clause("1.5", "13.9c")
@pytest.mark.parametrize(("differs", "observer"), [(1, 0), (1, 2), (2, 0), (2, 1)])
def test_every_seat_is_asked_the_same_whatever_the_others_hold(differs: int, observer: int) -> None:
    """Seen by every seat but the one whose hand differs, the asked seats included: the
    window asks seat 1, then seat 2, in both games, the same decision each time."""
    a, b = lightning_twins(differs)
    lightning = gr.PlayLightning(0, "P24", gr.Pos(1, 0))
    drive_in_step(a, b, observer, random.Random(observer), steps=0, script=[lightning])
    assert pending(a, b) == {gr.ChooseProtection(1, 0, "P24", (2,))}
    drive_in_step(a, b, observer, random.Random(1), steps=0, script=[gr.PassProtection(1)])
    assert pending(a, b) == {gr.ChooseProtection(2, 0, "P24", ())}
    drive_in_step(a, b, observer, random.Random(2), steps=0, script=[gr.PassProtection(2)])
    assert pending(a, b) == {gr.ChooseAction(0, 2)}
    assert_seat_sees_the_same(a, b, observer)


def tornado_twins() -> tuple[gr.Game, gr.Game]:
    """Powers, four seats. Seat 0 holds a Tornado. Seat 1 holds a Nature and a Life card:
    N01 and C01 in the first game, N09 and C03 in the second (they trade places with the
    decks). Seat 2 holds nothing, so it is not robbed; seat 3 holds N20 in both."""

    def build(seat_1: tuple[str, str], nature: tuple[str, ...], life: tuple[str, ...]) -> gr.Game:
        return (
            gr.PositionBuilder(players=4, rules=gr.Rules.powers(), seed=21)
            .tile(0, 0, gr.Land.PLAIN)
            .hand(0, "P16", "C05")
            .hand(1, *seat_1)
            .hand(3, "N20")
            .deck(K.NATURE, "N30", "N31", *nature)
            .deck(K.LIFE, "C06", "C07", *life)
            .display(K.NATURE, "N33", "N34", "N35")
            .display(K.LIFE, "A01", "A02")
            .turn(0, action=1)
            .to_game()
        )

    first = build(("N01", "C01"), ("N09", "N10", "N11"), ("C03", "C09", "C10"))
    second = build(("N09", "C03"), ("N11", "N01", "N10"), ("C01", "C09", "C10"))
    return first, second


@pytest.mark.clause("1.5", "13.8c", "1.5d")
@pytest.mark.parametrize("observer", [2, 3])
def test_a_third_seat_never_learns_a_stolen_card(observer: int) -> None:
    """13.8c: the seats that neither played the Tornado nor lost the card see its back and
    where it came from, the discards face up, and whose card was kept, but never its face."""
    a, b = tornado_twins()
    script: list[gr.Action] = [gr.PlayTornado(0, "P16"), gr.NameBack(0, 1, K.NATURE)]
    drive_in_step(a, b, observer, random.Random(0), steps=0, script=script)
    assert isinstance(a.decision, gr.ChooseKeptCard) and a.decision == b.decision
    for game, taken in ((a, "N01"), (b, "N09")):
        assert game.state.stolen == ((taken, 1), ("N20", 3))
        view = game.view(observer)
        own = "N20" if observer == 3 else None
        assert view.stolen == ((K.NATURE, 1, None), (K.NATURE, 3, own))
        thief = game.view(0)
        assert thief.stolen == ((K.NATURE, 1, taken), (K.NATURE, 3, "N20"))
        seen = [e for e in game.events_for(observer) if isinstance(e, StolenCardsSeen)]
        assert seen == [StolenCardsSeen(0, None)]
        assert taken not in ids_in(game.view(observer).to_json()) - FACE_IDS
    # the thief keeps seat 1's card: another card in each game, the same decision to the others
    keep_a, keep_b = gr.KeepCard(0, "N01"), gr.KeepCard(0, "N09")
    assert_seat_sees_the_same(a, b, observer)
    a.apply(keep_a)
    b.apply(keep_b)
    assert a.state.discards == b.state.discards
    assert a.state.discards[K.NATURE][-1] == "N20"
    assert_seat_sees_the_same(a, b, observer)
    for game, taken in ((a, "N01"), (b, "N09")):
        assert taken in game.state.hands[0]
        log = "".join(event.to_json() for event in game.events_for(observer))
        assert taken not in ids_in(log + game.view(observer).to_json()) - FACE_IDS
    assert_seat_sees_the_same(a, b, observer)


@pytest.mark.clause("1.5", "13.8c", "1.5d")
def test_the_thief_sees_no_stolen_card_before_the_last_is_taken() -> None:
    game = (
        gr.PositionBuilder(players=3, rules=gr.Rules.powers(), seed=5)
        .tile(0, 0, gr.Land.PLAIN)
        .hand(0, "P16")
        .hand(1, "N01", "C01")
        .hand(2, "N02", "A01")
        .turn(0, action=1)
        .to_game()
    )
    game.apply(gr.PlayTornado(0, "P16"))
    game.apply(gr.NameBack(0, 1, K.LIFE))
    assert isinstance(game.decision, gr.ChooseBack)
    ((taken, _),) = game.state.stolen
    thief = game.view(0)
    assert thief.stolen == ((K.LIFE, 1, None),)
    assert taken not in ids_in(thief.to_json())
    assert taken not in ids_in("".join(e.to_json() for e in game.events_for(0)))
    assert game.view(1).stolen == ((K.LIFE, 1, "C01"),)


@pytest.mark.clause("1.5", "13.8b")
def test_which_card_of_a_back_the_tornado_took_is_not_shown_by_the_order_of_the_backs() -> None:
    """The seed is hidden from every seat, and so is every outcome it decides (1.5): which of
    seat 1's two Nature cards the Tornado takes. Two games that differ only in their seed (the
    decks and displays are given, so nothing public depends on it) must look the same to
    seat 2, who is not robbed, once the card is taken. Backs shown in the order the cards
    came in tell seat 2 which Nature card went, the older or the newer; had one of them been
    taken face up from a display, seat 2 would know the face of the stolen card, and of the
    card the thief keeps (13.8c)."""

    def robbed(seed: int) -> gr.Game:
        game = (
            gr.PositionBuilder(players=3, rules=gr.Rules.powers(), seed=seed)
            .tile(0, 0, gr.Land.PLAIN)
            .hand(0, "P16")
            .hand(1, "N01", "C01", "N07")
            .deck(K.NATURE, "N08", "N09", "N10")
            .deck(K.LIFE, "C02", "C03")
            .deck(K.POWER, "P01", "P02")
            .display(K.NATURE, "N11", "N12", "N13")
            .display(K.LIFE, "A01", "A02")
            .display(K.POWER, "P03", "P07")
            .objectives("O01", "O02", "O03", "O08", "O09")
            .turn(0, action=1)
            .to_game()
        )
        game.apply(gr.PlayTornado(0, "P16"))
        game.apply(gr.NameBack(0, 1, K.NATURE))
        return game

    games = [robbed(seed) for seed in range(8)]
    taken = {game.state.hands[0][-1] for game in games}
    assert taken == {"N01", "N07"}, "the seeds should take each card at least once"
    first = games[0]
    for game in games[1:]:
        assert share(game.state, 2) == share(first.state, 2)
        assert_seat_sees_the_same(first, game, 2)


@pytest.mark.clause("1.5")
def test_playing_a_card_does_not_tell_which_card_was_drawn_face_down() -> None:
    """Seat 1 draws the top Nature card face down, N07 in one game; in the other it held N07
    already and draws N01, which it held in the first. It then plays N07 in both. Seat 0 may
    not learn what the face-down draw was (1.5), so the two games must look the same to it;
    backs shown in the order the cards came in tell it whether the card played was the one
    just drawn."""

    def build(hand: tuple[str, str], deck: tuple[str, str]) -> gr.Game:
        return (
            gr.PositionBuilder(players=2, rules=gr.Rules.basic(), seed=1)
            .tile(0, 0, gr.Land.FOREST)
            .hand(0, "N20", "C02")
            .hand(1, *hand)
            .deck(K.NATURE, *deck, "N08")
            .display(K.NATURE, "N30", "N31", "N32")
            .turn(1, action=1)
            .to_game()
        )

    a = build(("N01", "C01"), ("N07", "N09"))
    b = build(("N07", "C01"), ("N01", "N09"))
    script: list[gr.Action] = [gr.DrawDeck(1, K.NATURE), gr.PlayNature(1, "N07", gr.Pos(1, 0))]
    drive_in_step(a, b, 0, random.Random(0), steps=0, script=script)
    assert_seat_sees_the_same(a, b, 0)


@pytest.mark.clause("1.5", "13.8c")
def test_a_seats_log_never_learns_later_which_card_another_thief_kept() -> None:
    """Three Tornados pass one card around. Seat 0 robs seat 1 of N01 and keeps it; seat 2
    is not robbed, so it sees only that seat 0 kept seat 1's card (13.8c). Seat 2 then robs
    seat 0 of it, and seat 0 robs seat 2 of it. Seat 2's log of the first Tornado must stay
    as seat 2 saw it: it never learns which card seat 0 kept from seat 1 then."""
    game = (
        gr.PositionBuilder(players=3, rules=gr.Rules.powers(), seed=0)
        .tile(0, 0, gr.Land.PLAIN)
        .hand(0, "P16", "C01")
        .hand(1, "N01")
        .display(K.POWER, "P17", "P18")
        .turn(0, action=1)
        .to_game()
    )
    game.apply(gr.PlayTornado(0, "P16"))  # seat 1's only card is taken and kept by the engine
    first_keep = next(
        index
        for index, event in enumerate(game.events)
        if isinstance(event, gr.ActionTaken) and isinstance(event.action, gr.KeepCard)
    )
    assert game.events[first_keep] == gr.ActionTaken(0, gr.KeepCard(0, "N01"), by_engine=True)
    assert game.events_for(1)[first_keep] == game.events[first_keep]  # robbed: sees it
    assert game.events_for(2)[first_keep] == gr.ActionTaken(0, None, by_engine=True)
    script: list[gr.Action] = [
        gr.DrawDeck(0, K.LIFE),
        gr.DrawDeck(1, K.LIFE),
        gr.DrawDeck(1, K.LIFE),
        gr.DrawDisplay(2, "P17"),
        gr.PlayTornado(2, "P17"),
        gr.NameBack(2, 0, K.NATURE),  # seat 0's only Nature card: N01
        gr.KeepCard(2, "N01"),
        gr.DrawDisplay(0, "P18"),
        gr.PlayTornado(0, "P18"),  # seat 2's only card, N01, is taken
    ]
    for action in script:
        game.apply(action)
    assert game.state.stolen[-1] == ("N01", 2)
    assert game.events_for(2)[first_keep] == gr.ActionTaken(0, None, by_engine=True)


# -- (b) no hidden id in any JSON a seat receives --------------------------------------------------


class Sight:
    """What each seat has seen face up so far, tracked from the state after every step."""

    def __init__(self, players: int) -> None:
        self.seen: list[set[str]] = [set() for _ in range(players)]

    def update(self, state: gr.GameState) -> None:
        public: set[str] = set()
        for piles in (state.displays, state.discards):
            for pile in piles.values():
                public.update(pile)
        for tableau in state.tableaux:
            public.update(tableau)
        public.update(city.card for city in state.cities.values())
        public.update(state.objectives)
        for seat, seen in enumerate(self.seen):
            seen.update(public, state.hands[seat])
            seen.update(card for card, source in state.stolen if source == seat)
        if isinstance(state.decision, gr.ChooseKeptCard):  # the thief looks at them (13.8c)
            self.seen[state.decision.player].update(card for card, _ in state.stolen)

    def hidden(self, state: gr.GameState, seat: int) -> set[str]:
        """The cards hidden from ``seat`` now: in another hand or set aside by a Tornado,
        unless it saw them face up; every card in a deck; the unrevealed Objectives."""
        held = {card for other, hand in enumerate(state.hands) if other != seat for card in hand}
        held |= {card for card, _ in state.stolen}
        decks = {card for deck in state.decks.values() for card in deck}
        unrevealed = {card for card in state.out_of_game if card.startswith("O")}
        return (held - self.seen[seat]) | decks | unrevealed


def log_json(events: Iterable[gr.Event]) -> str:
    return "\n".join(event.to_json() for event in events)


class HiddenIdCheck:
    """Called after every step of a walk: checks every seat's view and log (the new events at
    each step, the whole log every ``every`` steps and at the end)."""

    def __init__(self, players: int, every: int = 12) -> None:
        self.sight = Sight(players)
        self.logs: list[tuple[gr.Event, ...]] = [() for _ in range(players)]
        self.every = every
        self.step = 0

    def __call__(self, game: gr.Game, full: bool = False) -> None:
        full = full or game.is_over or self.step % self.every == 0
        self.step += 1
        state = game.state
        self.sight.update(state)
        # a face id names a face, not a card (spec 1.14): it says nothing of where its own
        # copy is, and the twin tests check that nothing does
        faces = set(state.rules.cards.face_ids.values())
        for seat in range(game.players):
            hidden = self.sight.hidden(state, seat) - faces
            leaked = ids_in(game.view(seat).to_json()) & hidden
            assert not leaked, f"seat {seat}'s view names hidden cards {sorted(leaked)}"
            log = game.events_for(seat)
            new = log if full else log[len(self.logs[seat]) :]
            leaked = ids_in(log_json(new)) & hidden
            assert not leaked, f"seat {seat}'s log names hidden cards {sorted(leaked)}"
            self.logs[seat] = log


def play_and_check(walk: Walk, every: int = 12) -> gr.Game:
    check = HiddenIdCheck(walk.players, every)
    game = walk.play(check)
    check(game, full=True)
    return game


@pytest.mark.clause("1.5", "13.8c")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=200, prefer_plays=(0.0, 0.5, 0.8)))
def test_no_json_a_seat_receives_names_a_card_hidden_from_it(walk: Walk) -> None:
    play_and_check(walk)


@pytest.mark.clause("1.5", "13.8c")
@pytest.mark.parametrize("rules", LEVELS, ids=LEVEL_IDS)
def test_whole_games_never_name_a_hidden_card(rules: gr.Rules) -> None:
    for seed in range(4):
        walk = Walk(
            2 + seed,
            rules,
            seed,
            first_player=seed % 2,
            steps=400,
            walk_seed=seed,
            prefer_plays=0.6,
        )
        assert play_and_check(walk, every=25).is_over


class LogHistory:
    """Called after every step of a walk: no seat's log changes in retrospect."""

    def __init__(self, players: int) -> None:
        self.logs: list[tuple[gr.Event, ...]] = [() for _ in range(players)]

    def __call__(self, game: gr.Game) -> None:
        for seat, before in enumerate(self.logs):
            log = game.events_for(seat)
            changed = [
                (index, old, now)
                for index, (old, now) in enumerate(zip(before, log, strict=False))
                if old != now
            ]
            assert len(log) >= len(before) and not changed, (
                f"seat {seat}'s log changed in retrospect after {game.actions[-1]}: {changed}"
            )
            self.logs[seat] = log


@pytest.mark.clause("1.5", "13.8c")
@pytest.mark.parametrize("rules", LEVELS, ids=LEVEL_IDS)
def test_a_seats_log_never_changes_in_retrospect(rules: gr.Rules) -> None:
    """The log a seat was shown stays as it was shown: later events add to it, and never
    reveal (nor hide again) what an earlier one showed."""
    for seed in range(8):
        walk = Walk(
            3 + seed % 3, rules, seed, first_player=0, steps=400, walk_seed=seed, prefer_plays=0.6
        )
        assert walk.play(LogHistory(walk.players)).is_over


@pytest.mark.clause("1.5")
def test_the_hidden_set_is_not_empty_and_the_check_would_see_a_leak() -> None:
    """The check of (b) is not vacuous: the omniscient log and the state name hidden cards."""
    game = gr.new_game(players=3, rules=gr.Rules.powers(), seed=12)
    sight = Sight(3)
    sight.update(game.state)
    hidden = sight.hidden(game.state, 0)
    assert set(game.state.hands[1]) <= hidden
    assert ids_in(game.state.to_json()) & hidden
    game.apply(gr.DrawDeck(0, K.NATURE))
    game.apply(gr.DrawDeck(0, K.LIFE))
    drawn = [e for e in game.events if isinstance(e, gr.CardDrawn)]
    sight.update(game.state)
    assert {e.card for e in drawn} <= sight.hidden(game.state, 1)
    assert ids_in(log_json(game.events)) & sight.hidden(game.state, 1)


# -- (c) refusals leave the game as it was ---------------------------------------------------------


def fingerprint(game: gr.Game) -> tuple[object, ...]:
    return (
        game.state,
        game.events,
        game.actions,
        game.to_move,
        game.decision,
        game.legal_actions(),
        tuple(game.view(seat) for seat in range(game.players)),
        tuple(game.events_for(seat) for seat in range(game.players)),
        game.record(),
    )


def assert_refused(game: gr.Game, action: gr.Action, because: str | None = None) -> None:
    """``action`` is refused with a clause of the spec and a reason, and changes nothing:
    not the state, the logs, the views, nor what the seed will decide next."""
    before = fingerprint(game)
    twin = game.copy()
    assert not game.is_legal(action)
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(action)
    error = refused.value
    assert error.clause in spec_clauses(), f"{action}: refused by no clause: {error.clause}"
    assert error.reason.strip(), f"{action}: refused without a reason"
    assert f"spec {error.clause}" in str(error)
    if because is not None:
        assert because in error.reason, f"{action}: {error.reason!r} does not say {because!r}"
    assert fingerprint(game) == before, f"{action} was refused but changed the game"
    after, rng = game.copy(), random.Random(str(action))
    for _ in range(12):  # the same future: nothing hidden (the seed's draws) moved either
        if after.is_over:
            break
        choice = rng.choice(after.legal_actions())
        assert after.apply(choice) == twin.apply(choice)
    assert after.state == twin.state


def other_seat(seat: int, players: int, rng: random.Random) -> int:
    return rng.choice([s for s in range(players) if s != seat])


OUT_OF_PLACE: dict[type[gr.PassProtection | gr.DeclineObjectives], type[gr.Decision]] = {
    gr.PassProtection: gr.ChooseProtection,
    gr.DeclineObjectives: gr.ChooseObjective,
}
"""Actions that answer one decision only: sent at any other, they are out of place (5.4)."""


@pytest.mark.clause("1.7", "1.5")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(walk=walk_strategy(max_steps=150, prefer_plays=(0.0, 0.6)), data=st.data())
def test_stale_wrong_seat_and_out_of_turn_actions_are_refused(
    walk: Walk, data: st.DataObject
) -> None:
    game = walk.play()
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="rng"))
    if game.is_over:
        for action in rng.sample(walk.new_game().legal_actions(), 3):
            assert_refused(game, action, because="the game is over")
        return
    # a stale copy: the actions it still offers that the game no longer takes
    stale = game.copy()
    ahead = data.draw(st.integers(1, 6), label="ahead")
    for _ in range(ahead):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    legal = game.legal_actions()
    outdated = [action for action in stale.legal_actions() if action not in legal]
    for action in rng.sample(outdated, min(4, len(outdated))):
        assert_refused(game, action)
    if game.is_over:
        return
    # the wrong seat: each legal action sent in another seat's name
    seat = game.to_move
    assert seat is not None
    for action in rng.sample(legal, min(3, len(legal))):
        wrong = attrs.evolve(action, player=other_seat(seat, game.players, rng))
        assert_refused(game, wrong, because=f"seat {seat} is to move")
    # out of turn: a seat that is not to move acts as if it were; a decision answered by
    # an action that belongs to another moment
    other = other_seat(seat, game.players, rng)
    if isinstance(game.decision, gr.ChooseAction):
        assert_refused(game, gr.DrawDeck(other, K.NATURE), because=f"seat {seat} is to move")
    else:
        assert_refused(game, gr.DrawDeck(other, K.NATURE), because="does not answer")
    for kind, answers in OUT_OF_PLACE.items():
        if not isinstance(game.decision, answers):
            assert_refused(game, kind(seat), because="does not answer")
    for card in game.state.hands[other]:
        if card.startswith("P"):
            assert_refused(game, gr.Protect(other, card))


@pytest.mark.clause("1.7", "13.9a")
def test_protection_out_of_its_window_is_refused() -> None:
    a, _ = protection_twins(protection_in_first=True)
    assert_refused(a, gr.Protect(1, "P20"), because="does not answer")
    assert_refused(a, gr.Protect(0, "P04"), because="does not answer")
    a.apply(gr.PlaySun(0, "P04", gr.Pos(1, 0)))
    assert_refused(a, gr.Protect(2, "P20"), because="seat 1 is to move")
    assert_refused(a, gr.Protect(1, "P21"))
    assert_refused(a, gr.PassProtection(2), because="seat 1 is to move")
    stale = a.copy()
    a.apply(gr.Protect(1, "P20"))
    for action in stale.legal_actions():
        if action not in a.legal_actions():
            assert_refused(a, action)


@pytest.mark.clause("1.7")
def test_actions_from_a_stale_copy_after_a_tornado_are_refused() -> None:
    a, _ = tornado_twins()
    stale = a.copy()
    a.apply(gr.PlayTornado(0, "P16"))
    a.apply(gr.NameBack(0, 1, K.LIFE))
    assert isinstance(a.decision, gr.ChooseKeptCard)
    for action in stale.legal_actions():
        assert_refused(a, action)
    kept_stale = a.copy()
    a.apply(a.legal_actions()[0])
    for action in kept_stale.legal_actions():
        if action not in a.legal_actions():
            assert_refused(a, action)
    assert_refused(a, gr.KeepCard(0, "C01"))
