"""The strong bot (``gaia_rules.bots.ismcts``): an information-set search that answers every
decision of every level with a legal action from its seat's view alone, reproducibly from its
seed, blind to what the seat cannot see; and its names on the command line."""

from __future__ import annotations

import random
import time

import pytest

import gaia_rules as gr
from gaia_rules.bots import BOTS, IsmctsBot, RandomBot, strong_bot
from gaia_rules.bots.ismcts import STRONG, values
from gaia_rules.bots.search import playout_value
from gaia_rules.cli.common import UsageError, bot_named, split_bots
from gaia_rules.determinize import determinize
from gaia_rules.information import keyed_events
from gaia_rules.playouts import _PAWN_DECISIONS, _PAWN_NOW
from gaia_rules.views import View
from tests.matches import play

LEVELS = {
    "basic": gr.Rules.basic(),
    "advanced": gr.Rules.advanced(),
    "powers": gr.Rules.powers(),
    "disasters": gr.Rules.disasters(),
}


def small(seed: int) -> IsmctsBot:
    """The search on a small budget, to keep the tests quick."""
    return IsmctsBot(seed, iterations=16, horizon=4, width=4)


def midgame(rules: gr.Rules, players: int, seed: int, moves: int) -> gr.Game:
    """A game after ``moves`` random decisions (fewer if it ends first)."""
    game = gr.new_game(players=players, rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("level", LEVELS)
def test_it_plays_every_level_with_legal_actions_from_the_view(level: str) -> None:
    play([small(0), RandomBot(1), RandomBot(2)], LEVELS[level], seed=11, limit=90)


def test_its_choices_are_the_same_from_the_same_seed() -> None:
    def actions(seed: int) -> tuple[gr.Action, ...]:
        game = gr.new_game(players=2, rules=gr.Rules.powers(), seed=5)
        bots = [small(seed), small(seed + 1)]
        for _ in range(30):
            if game.is_over:
                break
            seat = game.to_move
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
        return game.actions

    assert actions(1) == actions(1)
    assert actions(1) != actions(40)  # the seed matters: the test could fail


def test_it_cannot_tell_games_apart_that_differ_in_hidden_cards_only() -> None:
    """Two games that show the seat the same view, their hidden cards dealt otherwise, get
    the same choice: the bot receives the view and nothing else, here read back from JSON."""
    differed = 0
    for seed in range(4):
        game = midgame(gr.Rules.advanced(), 3, seed, 12)
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        one = determinize(view, random.Random(1))
        two = determinize(view, random.Random(2))
        assert one.view(seat) == two.view(seat) == view
        differed += one.state.hands != two.state.hands
        shown = View.from_json(view.to_json())
        first = small(seed).choose(shown, one.legal_actions())
        second = small(seed).choose(one.view(seat), two.legal_actions())
        assert first == second
    assert differed  # the hidden cards did differ


def test_its_tree_keys_merge_what_the_seat_cannot_see() -> None:
    """The key of a node is the seat's log since the root: two sampled games whose hidden
    cards differ reach one node after the same action of the seat."""
    game = midgame(gr.Rules.basic(), 2, 3, 10)
    seat = game.to_move
    assert seat is not None
    view = game.view(seat)
    one = determinize(view, random.Random(1))
    two = determinize(view, random.Random(2))
    assert one.state.hands != two.state.hands
    merged = split = 0
    for action in one.legal_actions():
        after_one, after_two = one.copy(), two.copy()
        after_one.apply(action)
        after_two.apply(action)
        same = keyed_events(after_one, seat) == keyed_events(after_two, seat)
        assert same == (after_one.information_set(seat) == after_two.information_set(seat))
        merged += same
        split += not same  # a draw shows the seat a card that differs between the samples
    assert merged and split


def test_it_takes_a_win_on_the_table() -> None:
    found = 0
    for seed in range(40):
        game = gr.new_game(players=2 + seed % 4, rules=gr.Rules.advanced(), seed=seed)
        rng = random.Random(seed)
        before = game.copy()
        while not game.is_over:
            before = game.copy()
            game.apply(rng.choice(game.legal_actions()))
        assert game.result is not None
        if game.result.winner != before.to_move:
            continue
        seat = before.to_move
        choice = small(0).choose(before.view(seat), before.legal_actions())
        after = before.copy()
        after.apply(choice)
        assert after.result is not None and after.result.winner == seat
        found += 1
    assert found >= 3


@pytest.mark.parametrize("level", LEVELS)
def test_its_playouts_look_for_pawns_only_where_a_pawn_can_be_placed(level: str) -> None:
    """The playout builds the legal list only at the decisions that can offer a pawn at
    once: every decision that offers one is one of them."""
    offered = 0
    for seed in range(6):
        game = gr.new_game(players=2 + seed % 4, rules=LEVELS[level], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            if any(isinstance(action, _PAWN_NOW) for action in legal):
                assert isinstance(game.decision, _PAWN_DECISIONS)
                offered += 1
            game.apply(rng.choice(legal))
    assert offered > 0


def test_its_values_are_the_search_bots_for_every_seat() -> None:
    for players in (2, 5):
        game = midgame(gr.Rules.basic(), players, players, 40)
        assert values(game) == [playout_value(game, seat) for seat in range(players)]


def test_strong_is_ismcts_at_its_budget() -> None:
    bot = BOTS["strong"](3)
    assert isinstance(bot, IsmctsBot)
    assert bot.name == "strong"
    assert (bot.iterations, bot.horizon, bot.width) == tuple(STRONG.values())
    spelled = bot_named("ismcts:{iterations}:{horizon}:{width}".format(**STRONG), 3)
    assert isinstance(spelled, IsmctsBot)
    game = midgame(gr.Rules.basic(), 2, 8, 6)
    seat = game.to_move
    assert seat is not None
    legal = game.legal_actions()
    assert len(legal) > 1
    cheap = IsmctsBot(3, 24, 4, 4)
    assert cheap.choose(game.view(seat), legal) == IsmctsBot(3, 24, 4, 4).choose(
        game.view(seat), legal
    )
    assert strong_bot(3).name == "strong"


def test_the_command_line_names_it_with_its_budget() -> None:
    assert split_bots("strong,ismcts:10:2:3", 2) == ("strong", "ismcts:10:2:3")
    bot = bot_named("ismcts:10:2:3", 0)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iterations, bot.horizon, bot.width) == (10, 2, 3)
    short = bot_named("ismcts:10", 0)
    assert isinstance(short, IsmctsBot)
    assert (short.iterations, short.horizon) == (10, STRONG["horizon"])
    assert isinstance(bot_named("ismcts", 0), IsmctsBot)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("ismcts:0", "iterations must be a whole number from 1"),
        ("ismcts:10:x", "horizon must be a whole number from 0"),
        ("ismcts:10:2:3:4", "at most three parts"),
        ("strong:10", "only search and ismcts take a budget"),
        ("strongest", "no bot 'strongest'"),
    ],
)
def test_a_bad_name_or_budget_is_refused_with_its_reason(text: str, says: str) -> None:
    with pytest.raises(UsageError, match=says):
        split_bots(text, 2)


def test_a_bad_budget_is_refused_by_the_bot() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        IsmctsBot(0, iterations=0)


def test_its_cap_stops_a_search_short_of_its_budget() -> None:
    """A budget that would take minutes, and no time at all allowed: the search stops after
    its first round of iterations, with a legal action."""
    game = midgame(gr.Rules.basic(), 2, 8, 6)
    seat = game.to_move
    assert seat is not None
    legal = game.legal_actions()
    bot = IsmctsBot(0, iterations=10**7, cap=0.0)
    assert bot.choose(game.view(seat), legal) in legal


def test_its_cap_reads_the_process_clock_where_there_is_none_per_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python in WebAssembly (the docs site's table) has no ``time.thread_time``: the strong
    bot still decides there, its cap read from the process's clock."""
    monkeypatch.delattr(time, "thread_time", raising=False)  # (none to take in WebAssembly)
    game = midgame(gr.Rules.basic(), 2, 8, 6)
    seat = game.to_move
    assert seat is not None
    legal = game.legal_actions()
    assert IsmctsBot(0, iterations=10**7, cap=0.0).choose(game.view(seat), legal) in legal
