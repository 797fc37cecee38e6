"""``examples/train_agent.py`` and the saved policies it writes: a short run trains, saves,
repeats exactly and is played by ``gaia-rules simulate --bots policy:FILE``; the gradients
written by hand are PyTorch's; a policy file of another version is refused."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np

import gaia_rules as gr
from gaia_rules.cli import main
from gaia_rules.rl.policy import Policy, PolicyBot, action_features, state_features
from gaia_rules.rl.vector import GaiaVectorEnv
from tests.loading import load_file

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_agent.py"


train_agent = load_file("train_agent", EXAMPLE)
SHORT = ["--updates", "2", "--envs", "4", "--steps", "16", "--minibatch", "32", "--epochs", "1"]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert train_agent.main([*argv, "--json"]) == 0
    figures: dict[str, Any] = json.loads(capsys.readouterr().out)
    return figures


def test_a_short_run_trains_saves_repeats_and_is_played_by_simulate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    argv = [*SHORT, "--backend", "numpy", "--games", "6", "--greedy-games", "2", "--seed", "3"]
    figures = _run([*argv, "--out", str(first)], capsys)
    assert figures["training"]["backend"] == "numpy"
    assert figures["training"]["decisions"] == 2 * 4 * 16
    against = {line["opponent"]: line for line in figures["evaluation"]}
    assert against["random"]["played"] == 6 and against["greedy"]["played"] == 2
    assert 0 <= against["random"]["ci95"][0] <= against["random"]["rate"]
    _run([*argv, "--out", str(second), "--greedy-games", "0"], capsys)
    one, other = Policy.load(first), Policy.load(second)
    for name in Policy.PARAMETERS:
        assert np.array_equal(one.weights[name], other.weights[name]), name
    assert one.meta["players"] == 2 and one.meta["format"] == "gaia-rules policy"
    out = io.StringIO()
    bots = f"policy:{first},random"
    argv = ["simulate", "--json", "--quiet", "--games", "4", "--players", "2", "--bots", bots]
    assert main(argv, stdout=out, stderr=io.StringIO()) == 0
    assert json.loads(out.getvalue())["bots"][f"policy:{first}"]["played"] == 4


def test_self_play_adds_the_learners_snapshots_to_a_league_of_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "agent.npz"
    argv = [*SHORT, "--updates", "3", "--backend", "numpy", "--games", "2", "--greedy-games", "0"]
    argv += ["--opponent", "greedy,random", "--self-play", "1", "--pool", "2", "--out", str(out)]
    figures = _run(argv, capsys)
    league = tmp_path / "agent.npz.league"
    assert sorted(p.name for p in league.iterdir()) == [f"update-{k}.npz" for k in (1, 2, 3)]
    snapshots = [f"policy:{league / f'update-{k}.npz'}" for k in (2, 3)]
    assert figures["training"]["opponents"] == ["greedy", "random", *snapshots]
    with pytest.raises(ValueError, match="opponents: no bot 'nobody'"):
        train_agent.main([*SHORT, "--opponent", "greedy,nobody", "--out", str(out)])


def test_each_game_of_the_league_is_dealt_its_opponent(tmp_path: Path) -> None:
    class Snapshot:
        def policy(self) -> Policy:
            return Policy.initial(8, seed=1)

    tables = GaiaVectorEnv(4, players=3)
    args = argparse.Namespace(self_play=2, pool=1, out=tmp_path / "a.npz", players=3, level="basic")
    league = train_agent.League(tables, ["greedy", "search:5"], args)
    assert [game.opponents for game in tables.envs] == [("greedy",) * 2, ("search:5",) * 2] * 2
    league.updated(1, Snapshot())
    assert league.pool() == ["greedy", "search:5"]  # not due yet
    league.updated(2, Snapshot())
    snapshot = f"policy:{tmp_path / 'a.npz.league' / 'update-2.npz'}"
    assert [game.opponents[0] for game in tables.envs][2] == snapshot
    tables.reset(seed=0)  # a game takes its new opponent when it is dealt
    assert {type(bot).__name__ for bot in tables.envs[2]._bots if bot} == {"PolicyBot"}
    assert {type(bot).__name__ for bot in tables.envs[1]._bots if bot} == {"SearchBot"}


def _batch(seed: int) -> Any:
    """A minibatch of a short rollout of a random policy, laid out as the example does."""
    tables = GaiaVectorEnv(3, players=3, level="powers")
    obs, info = tables.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states, actions, legal, chosen = [], [], [], []
    for _ in range(12):
        states.append(state_features(obs))
        actions.append(action_features(obs, info["legal_actions"], gr.Rules.powers()))
        legal.append(info["legal_actions"])
        pick = rng.integers(info["legal_counts"])
        chosen.append(pick)
        obs, _, _, _, info = tables.step(info["legal_actions"][np.arange(3), pick])
    data = train_agent._lay_out(actions, legal, chosen)
    count = len(data["counts"])
    data.update(
        state=np.concatenate(states),
        old_logp=rng.normal(-2, 0.3, count).astype(np.float32),
        advantage=rng.normal(0, 1, count).astype(np.float32),
        returns=rng.normal(0, 1, count).astype(np.float32),
    )
    return train_agent._minibatch(data, np.arange(count))


def test_the_gradients_by_hand_are_pytorchs() -> None:
    torch = pytest.importorskip("torch")
    args = train_agent.main.__globals__["argparse"].Namespace(
        lr=1e-3, clip=0.2, entropy=0.01, value_weight=0.5, max_grad_norm=1.0
    )
    start = Policy.initial(16, seed=5)
    batch = _batch(5)
    by_hand, _ = train_agent.NumpyLearner(start, args).gradients(batch)
    learner = train_agent.TorchLearner(start, args, torch)
    learner.backward(batch)
    for name, tensor in learner.w.items():
        expected = tensor.grad.numpy()
        scale = max(float(np.abs(expected).max()), 1e-6)
        assert np.allclose(by_hand[name], expected, rtol=1e-3, atol=1e-4 * scale), name
    assert float(np.abs(by_hand["Wa"]).max()) > 0


def test_the_batch_lays_out_every_legal_action_once() -> None:
    batch = _batch(2)
    counts = np.diff(np.append(batch.starts, len(batch.owner)))
    assert (counts >= 1).all() and len(batch.actions) == counts.sum()
    assert (batch.owner[batch.chosen] == np.arange(len(batch.chosen))).all()


def test_a_policy_bot_plays_legal_actions_from_the_view_alone() -> None:
    bot = PolicyBot(Policy.initial(8, seed=1), seed=4)
    game = gr.new_game(3, gr.Rules.disasters(), seed=8)
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        choice = bot.choose(game.view(seat), legal)
        assert choice in legal
        game.apply(choice)


def test_a_file_of_another_version_or_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.npz"
    Policy.initial(4).save(path, features=0)
    with pytest.raises(ValueError, match="features 0, expected 1"):
        Policy.load(path)
    junk = tmp_path / "junk.npz"
    np.savez(junk, weights=np.zeros(3))
    with pytest.raises(ValueError, match="is not a saved policy"):
        Policy.load(junk)
    err = io.StringIO()
    argv = ["simulate", "--quiet", "--games", "1", "--bots", f"policy:{path},random"]
    assert main([*argv, "--players", "2"], stdout=io.StringIO(), stderr=err) == 2
    assert "features 0, expected 1" in err.getvalue()
    err = io.StringIO()
    argv = ["simulate", "--quiet", "--games", "1", "--bots", "policy:nowhere.npz"]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 2
    assert "no saved policy at 'nowhere.npz'" in err.getvalue()
