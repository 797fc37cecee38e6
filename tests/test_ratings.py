"""The rating table's script (``benchmarks/ratings.py``): its Bradley-Terry fit orders bots by
their results, and a small seeded round robin writes its tables, each game counted once."""

from __future__ import annotations

import json
from pathlib import Path

from gaia_rules.cli.simulate import GameOutcome
from tests.loading import load_file

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "ratings.py"


def _game(index: int, lineup: tuple[str, ...], winner: int) -> GameOutcome:
    return GameOutcome(index, index, lineup, winner, "pawns", 10)


def test_a_bot_that_wins_more_is_rated_higher_and_the_anchor_at_zero() -> None:
    ratings = load_file("gaia_ratings", SCRIPT)
    games = [_game(i, ("a", "b"), 0) for i in range(6)] + [_game(6, ("a", "b"), 1)]
    games += [_game(7 + i, ("b", "c"), 0) for i in range(6)] + [_game(13, ("b", "c"), 1)]
    elo = ratings.bradley_terry(["a", "b", "c"], games, "c")
    assert elo["c"] == 0
    assert elo["a"] > elo["b"] > elo["c"]
    more = ratings.bradley_terry(["a", "b", "c"], [*games, _game(14, ("a", "b"), 0)], "c")
    assert more["a"] > elo["a"]  # one more win over b lifts a


def test_even_results_rate_two_bots_alike() -> None:
    ratings = load_file("gaia_ratings", SCRIPT)
    games = [_game(i, ("a", "b"), i % 2) for i in range(8)]
    elo = ratings.bradley_terry(["a", "b"], games, None)
    assert abs(elo["a"] - elo["b"]) < 1e-6


def test_a_small_round_robin_writes_its_tables(tmp_path: Path) -> None:
    ratings = load_file("gaia_ratings", SCRIPT)
    out = tmp_path / "ratings"
    argv = ["--bots", "random,greedy", "--levels", "basic", "--seats", "2", "--games", "2"]
    assert ratings.main([*argv, "--bootstrap", "5", "--out", str(out)]) == 0
    data = json.loads((out / "ratings.json").read_text("utf-8"))
    assert data["games"]["all"] == 2 == len(data["outcomes"])
    lines = data["ratings"]["all"]
    assert lines["random"]["elo"] == 0  # the anchor
    assert lines["random"]["wins"] + lines["greedy"]["wins"] == 2
    for line in lines.values():
        assert line["low"] <= line["elo"] <= line["high"] or line["games"] == 0
    assert "greedy" in (out / "ratings.md").read_text("utf-8")
    assert (out / "ratings.svg").read_text("utf-8").startswith("<svg")
