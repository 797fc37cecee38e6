"""The bots (``gaia_rules.bots``): each answers every decision of every level with a legal
action from its seat's view alone, reproducibly from its seed; the greedy bot places pawns
when it can, and both greedy and search take a win that is on the table."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

import gaia_rules as gr
from gaia_rules.bots import BOTS, Bot, GreedyBot, IsmctsBot, RandomBot, SearchBot
from gaia_rules.bots.greedy import greedy_scores
from gaia_rules.bots.search import greedy_candidates, playout_value
from gaia_rules.determinize import Determinizer
from tests.matches import play

LEVELS = {
    "basic": gr.Rules.basic(),
    "advanced": gr.Rules.advanced(),
    "powers": gr.Rules.powers(),
    "disasters": gr.Rules.disasters(),
}


def cheap(name: str, seed: int) -> Bot:
    """A bot of the registry, the search bot on a small budget to keep the tests quick."""
    if name == "search":
        return SearchBot(seed, playouts=12, horizon=4, width=4)
    return BOTS[name](seed)


def test_the_registry_names_every_bot() -> None:
    assert set(BOTS) == {"random", "greedy", "search", "strong"}
    for name, make in BOTS.items():
        bot = make(0)
        assert bot.name == name
        assert isinstance(bot, RandomBot | GreedyBot | SearchBot | IsmctsBot)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_every_bot_plays_every_level_with_legal_actions(level: str, name: str) -> None:
    players = 3
    bots: list[Bot] = [cheap(name, 0)] + [RandomBot(seat) for seat in range(1, players)]
    game = play(bots, LEVELS[level], seed=7, limit=120 if name == "search" else 10_000)
    if name != "search":
        assert game.is_over


@pytest.mark.parametrize("name", ["random", "greedy", "search"])
def test_a_game_between_bots_is_reproducible_from_the_seeds(name: str) -> None:
    def game() -> gr.Game:
        return play([cheap(name, 1), RandomBot(2)], gr.Rules.powers(), seed=3, limit=60)

    assert game().actions == game().actions


def test_greedy_beats_random_in_seeded_two_player_games() -> None:
    wins = 0
    for seed in range(10):
        bots: list[Bot] = [GreedyBot(seed), RandomBot(seed)]
        if seed % 2:
            bots.reverse()
        result = play(bots, gr.Rules.basic(), seed).result
        assert result is not None
        wins += isinstance(bots[result.winner], GreedyBot)
    assert wins >= 8


def decisions(rules: gr.Rules, seeds: range) -> Iterator[gr.Game]:
    """Every decision of seeded random games, each as a copy of the game at that moment."""
    for seed in seeds:
        game = gr.new_game(players=2 + seed % 4, rules=rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            yield game.copy()
            game.apply(rng.choice(game.legal_actions()))


def winning_moments(rules: gr.Rules, seeds: range) -> Iterator[gr.Game]:
    """The moments just before a random game's last action, when that action won it."""
    for seed in seeds:
        game = gr.new_game(players=2 + seed % 4, rules=rules, seed=seed)
        rng = random.Random(seed)
        before = game.copy()
        while not game.is_over:
            before = game.copy()
            game.apply(rng.choice(game.legal_actions()))
        assert game.result is not None
        if game.result.winner == before.to_move:
            yield before


def wins_at_once(game: gr.Game, action: gr.Action) -> bool:
    after = game.copy()
    after.apply(action)
    return after.result is not None and after.result.winner == game.to_move


@pytest.mark.parametrize(
    "make",
    [GreedyBot, lambda seed: SearchBot(seed, playouts=16, horizon=2)],
    ids=["greedy", "search"],
)
def test_a_bot_takes_a_win_on_the_table(make: Callable[[int], Bot]) -> None:
    found = 0
    for game in winning_moments(gr.Rules.advanced(), range(12)):
        seat = game.to_move
        assert seat is not None
        choice = make(0).choose(game.view(seat), game.legal_actions())
        assert wins_at_once(game, choice), (game, choice)
        found += 1
    assert found >= 3


@pytest.mark.clause("10.4")
def test_greedy_places_the_most_pawns_it_can_now() -> None:
    checked = 0
    for game in decisions(gr.Rules.basic(), range(6)):
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        real = greedy_scores(game, seat, legal)
        if max(score[1] for score in real) <= 0:
            continue
        choice = GreedyBot(checked).choose(game.view(seat), legal)
        assert real[list(legal).index(choice)] == max(real)
        checked += 1
    assert checked >= 10


def test_the_candidates_are_the_greedy_best_in_one_sample() -> None:
    checked = 0
    for game in decisions(gr.Rules.advanced(), range(4)):
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        sampler = Determinizer(game.view(seat))
        if len(legal) <= 4:
            assert greedy_candidates(sampler, seat, legal, 4, random.Random(0)) == list(legal)
            continue
        chosen = greedy_candidates(sampler, seat, legal, 4, random.Random(checked))
        # the same generator draws the same sample first
        scores = greedy_scores(sampler.sample(random.Random(checked)), seat, legal)
        ranked = [scores[legal.index(action)] for action in chosen]
        left = [s for a, s in zip(legal, scores, strict=True) if a not in chosen]
        assert len(set(chosen)) == 4 and ranked == sorted(ranked, reverse=True)
        assert min(ranked) >= max(left)
        checked += 1
    assert checked >= 10


def test_a_playout_is_worth_one_won_zero_lost_and_the_pawn_lead_between() -> None:
    game = gr.new_game(players=2, rules=gr.Rules.basic(), seed=4)
    assert playout_value(game, 0) == playout_value(game, 1) == 0.5
    rng = random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.result is not None
    winner = game.result.winner
    assert playout_value(game, winner) == 1.0
    assert playout_value(game, 1 - winner) == 0.0


def test_the_search_budget_is_checked() -> None:
    for bad in ({"playouts": 0}, {"width": 0}, {"horizon": -1}):
        with pytest.raises(ValueError, match="at least"):
            SearchBot(0, **bad)


@pytest.mark.clause("1.5")
def test_a_bot_is_given_the_view_never_the_game() -> None:
    """The protocol itself keeps a bot to its seat's view (spec 1.5)."""
    game = gr.new_game(players=2, rules=gr.Rules.powers(), seed=8)
    view = game.view(0)
    for name in BOTS:
        action = cheap(name, 0).choose(view, game.legal_actions())
        assert game.is_legal(action)


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        (
            gr.Rules.basic(),
            [
                "draw C03",
                "play N27 0,0",
                "play N06 3,1",
                "play C03 3,1",
                "draw C18",
                "play C18 4,0",
            ],
        ),
        (
            gr.Rules.disasters(),
            ["draw N07", "draw N07", "play N14 0,1", "play N06 2,0", "draw C08", "draw N07"],
        ),
    ],
    ids=["basic", "disasters"],
)
def test_the_default_search_makes_the_choices_it_always_made(
    rules: gr.Rules, expected: list[str]
) -> None:
    """``SearchBot(5)`` at its default budget, seat 0 of a seeded 4-player game (the others
    uniformly random from their own seeded generator): its first six real choices, as
    recorded when copies of one face became one choice (spec 1.12), which changed the legal
    actions it searches. Seeded bot games replay only while they stay the same."""
    game = gr.new_game(players=4, rules=rules, seed=3)
    bot, rng = SearchBot(seed=5), random.Random(5)
    chosen: list[str] = []
    while len(chosen) < len(expected):
        legal = game.legal_actions()
        if game.to_move == 0 and len(legal) > 1:
            action = bot.choose(game.view(0), legal)
            chosen.append(str(action).removeprefix("0: "))
        else:
            action = legal[rng.randrange(len(legal))]
        game.apply(action)
    assert chosen == expected
