"""Train a policy for Gaïa through the environment, save it, and measure it.

    pip install 'gaia-rules[rl]'            # and torch, if you want it to do the learning
    python examples/train_agent.py --out agent.npz
    gaia-rules simulate --bots policy:agent.npz,random --players 2 --games 400

The learner plays one seat of ``--envs`` games at once
([`GaiaVectorEnv`][gaia_rules.rl.vector.GaiaVectorEnv]: the compact observation, the legal
indices in the info) against ``--opponent`` bots, and learns by PPO: every ``--steps``
decisions of each game, the policy of
[`gaia_rules.rl.policy`][gaia_rules.rl.policy] is improved on what it just played (clipped
ratio, advantages by GAE over a learned value, an entropy bonus). Its reward is the change in
its share of pawns placed at each decision, and 1 for a win or -1 for a loss at the end, so
placing pawns is rewarded at once and winning on top of it.

Self-play and a league: ``--opponent`` may name several bots (``greedy,search``), and game
``i`` is played against the ``i``-th of the pool, round the pool; with ``--self-play N`` the
learner's own policy is saved every ``N`` updates (``<out>.league/update-K.npz``) and joins
the pool as ``policy:FILE``, the ``--pool`` newest snapshots kept in it. A game takes its
new opponent when it is dealt next, so the pool changes between games, never in one.

The learning runs on PyTorch where it is installed and on numpy otherwise (``--backend``);
both compute the same gradients, one by autograd and one by hand. Every random choice comes
from ``--seed``, and each backend runs on one thread, so a run repeats exactly on the same
machine. When it is done the policy is saved (``--out``) and played against ``random`` and
``greedy`` by ``gaia-rules simulate``, whose win rates are printed with their 95% intervals;
``--check`` exits with status 1 unless the lower bound against random is above 0.5.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

import gaia_rules as gr
from gaia_rules.cli import main as cli
from gaia_rules.rl.policy import Policy, action_features, state_features
from gaia_rules.rl.single import opponent_bot
from gaia_rules.rl.vector import GaiaVectorEnv

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]


class Learner(Protocol):
    """What the training loop asks of a backend."""

    def scores(self, state: Floats, actions: Floats, legal: Ints) -> Floats: ...

    def value(self, state: Floats) -> Floats: ...

    def update(self, batch: Batch) -> dict[str, float]: ...

    def policy(self) -> Policy: ...


class Batch:
    """A minibatch of decisions, their legal actions laid end to end: ``actions[k]`` is a
    legal action of decision ``owner[k]``, whose actions begin at ``starts[i]``;
    ``chosen[i]`` is the one taken (an index into ``actions``)."""

    def __init__(self, **arrays: Any) -> None:
        self.state: Floats = arrays["state"]
        self.actions: Floats = arrays["actions"]
        self.owner: Ints = arrays["owner"]
        self.starts: Ints = arrays["starts"]
        self.chosen: Ints = arrays["chosen"]
        self.old_logp: Floats = arrays["old_logp"]
        self.advantage: Floats = arrays["advantage"]
        self.returns: Floats = arrays["returns"]


# -- the numpy backend: the gradients by hand ---------------------------------------------


class NumpyLearner:
    """PPO on the policy's weights, with the gradients written out and Adam."""

    def __init__(self, start: Policy, args: argparse.Namespace) -> None:
        self.w = {name: value.copy() for name, value in start.weights.items()}
        self.args = args
        self.m = {name: np.zeros_like(value) for name, value in self.w.items()}
        self.s = {name: np.zeros_like(value) for name, value in self.w.items()}
        self.t = 0

    def policy(self) -> Policy:
        return Policy(self.w, {})

    def scores(self, state: Floats, actions: Floats, legal: Ints) -> Floats:
        return self.policy().scores(state, actions, legal)

    def value(self, state: Floats) -> Floats:
        return self.policy().value(state)

    def update(self, batch: Batch) -> dict[str, float]:
        grads, progress = self.gradients(batch)
        self._adam(grads)
        return progress

    def gradients(self, batch: Batch) -> tuple[dict[str, Floats], dict[str, float]]:
        """The gradient of the loss on ``batch`` for every weight, and how the batch went."""
        w, args = self.w, self.args
        n, owner, starts = len(batch.chosen), batch.owner, batch.starts
        # forward: each legal action's score, and the softmax within its decision
        z = batch.state @ w["Wg"]
        h = np.tanh(z[owner] + batch.actions @ w["Wa"] + w["b"])
        scores = h @ w["v"] + batch.actions @ w["u"]
        top = np.maximum.reduceat(scores, starts)[owner]
        total = np.add.reduceat(np.exp(scores - top), starts)
        logp_all = scores - top - np.log(total)[owner]
        p = np.exp(logp_all)
        ratio = np.exp(logp_all[batch.chosen] - batch.old_logp)
        adv = batch.advantage
        clipped = np.clip(ratio, 1 - args.clip, 1 + args.clip)
        unclipped = ratio * adv <= clipped * adv  # where the minimum is the unclipped term
        entropy = -np.add.reduceat(p * logp_all, starts)
        hv = np.tanh(batch.state @ w["Vg"] + w["vb"])
        value = hv @ w["vv"] + w["vc"]
        # backward: the loss is -mean(min(ratio A, clip A)) - beta H + c (V - R)^2
        coef = np.where(unclipped, ratio * adv, 0.0) / n
        g_scores = p * coef[owner]
        g_scores[batch.chosen] -= coef
        g_scores += args.entropy / n * p * (logp_all + entropy[owner])
        g_scores = g_scores.astype(np.float32)
        grads = {"u": batch.actions.T @ g_scores, "v": h.T @ g_scores}
        g_pre = (g_scores[:, None] * w["v"]) * (1 - h * h)
        grads["Wa"] = batch.actions.T @ g_pre
        grads["b"] = g_pre.sum(axis=0)
        grads["Wg"] = batch.state.T @ np.add.reduceat(g_pre, starts)
        g_value = 2 * args.value_weight * (value - batch.returns) / n
        grads["vv"] = hv.T @ g_value
        grads["vc"] = np.asarray(g_value.sum(), dtype=np.float32)
        g_hv = g_value[:, None] * w["vv"] * (1 - hv * hv)
        grads["Vg"] = batch.state.T @ g_hv
        grads["vb"] = g_hv.sum(axis=0)
        error = float(((value - batch.returns) ** 2).mean())
        return grads, {"entropy": float(entropy.mean()), "value_error": error}

    def _adam(self, grads: dict[str, Floats]) -> None:
        self.t += 1
        rate, beta1, beta2 = self.args.lr, 0.9, 0.999
        norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads.values())))
        scale = min(1.0, self.args.max_grad_norm / (norm + 1e-6))
        for name, grad in grads.items():
            step = grad * scale
            self.m[name] = beta1 * self.m[name] + (1 - beta1) * step
            self.s[name] = beta2 * self.s[name] + (1 - beta2) * step * step
            m_hat = self.m[name] / (1 - beta1**self.t)
            s_hat = self.s[name] / (1 - beta2**self.t)
            self.w[name] = (self.w[name] - rate * m_hat / (np.sqrt(s_hat) + 1e-8)).astype(
                np.float32
            )


def _logsumexp(scores: Floats) -> Floats:
    top = scores.max(axis=1, keepdims=True)
    found: Floats = top + np.log(np.exp(scores - top).sum(axis=1, keepdims=True))
    return found


# -- the torch backend: the same loss, by autograd -----------------------------------------


class TorchLearner:
    """PPO on the same weights with PyTorch's autograd and Adam."""

    def __init__(self, start: Policy, args: argparse.Namespace, torch: Any) -> None:
        self.torch = torch
        self.args = args
        self.w = {
            name: torch.tensor(value, requires_grad=True) for name, value in start.weights.items()
        }
        self.optimiser = torch.optim.Adam(self.w.values(), lr=args.lr, eps=1e-8)

    def policy(self) -> Policy:
        return Policy({name: t.detach().numpy().copy() for name, t in self.w.items()}, {})

    def scores(self, state: Floats, actions: Floats, legal: Ints) -> Floats:
        return self.policy().scores(state, actions, legal)

    def value(self, state: Floats) -> Floats:
        return self.policy().value(state)

    def update(self, batch: Batch) -> dict[str, float]:
        progress = self.backward(batch)
        self.torch.nn.utils.clip_grad_norm_(list(self.w.values()), self.args.max_grad_norm)
        self.optimiser.step()
        return progress

    def backward(self, batch: Batch) -> dict[str, float]:
        """The loss on ``batch`` differentiated into every weight's ``.grad``."""
        torch, w, args = self.torch, self.w, self.args
        n = len(batch.chosen)
        state = torch.from_numpy(batch.state)
        actions = torch.from_numpy(batch.actions)
        owner = torch.from_numpy(batch.owner)
        h = torch.tanh((state @ w["Wg"])[owner] + actions @ w["Wa"] + w["b"])
        scores = h @ w["v"] + actions @ w["u"]
        top = torch.zeros(n).scatter_reduce(0, owner, scores.detach(), "amax", include_self=False)
        shifted = scores - top[owner]
        total = torch.zeros(n).index_add(0, owner, shifted.exp())
        logp_all = shifted - total.log()[owner]
        ratio = torch.exp(
            logp_all[torch.from_numpy(batch.chosen)] - torch.from_numpy(batch.old_logp)
        )
        adv = torch.from_numpy(batch.advantage)
        surrogate = torch.minimum(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv)
        entropy = -torch.zeros(n).index_add(0, owner, logp_all.exp() * logp_all)
        value = torch.tanh(state @ w["Vg"] + w["vb"]) @ w["vv"] + w["vc"]
        returns = torch.from_numpy(batch.returns)
        loss = (
            -surrogate.mean()
            - args.entropy * entropy.mean()
            + args.value_weight * ((value - returns) ** 2).mean()
        )
        self.optimiser.zero_grad()
        loss.backward()
        error = float(((value - returns) ** 2).mean().detach())
        return {"entropy": float(entropy.mean().detach()), "value_error": error}


def learner_for(args: argparse.Namespace, start: Policy) -> tuple[str, Learner]:
    """The backend asked for: torch where installed (``auto``), else numpy."""
    if args.backend in ("auto", "torch"):
        try:
            # imported by name: the example type-checks the same with or without torch
            torch: Any = importlib.import_module("torch")
        except ImportError:
            if args.backend == "torch":
                raise SystemExit("--backend torch: PyTorch is not installed") from None
        else:
            torch.manual_seed(args.seed)
            torch.set_num_threads(1)
            torch.use_deterministic_algorithms(True)
            return "torch", TorchLearner(start, args, torch)
    return "numpy", NumpyLearner(start, args)


# -- the training loop ---------------------------------------------------------------------


def _lay_out(actions: list[Floats], legal: list[Ints], chosen: list[Ints]) -> dict[str, Any]:
    """The legal actions of every decision laid end to end (see ``Batch``)."""
    live = np.concatenate([row >= 0 for step in legal for row in step])
    width = [step.shape[1] for step in actions]
    flat = np.concatenate([step.reshape(-1, step.shape[2]) for step in actions])
    counts = np.concatenate([(step >= 0).sum(axis=1) for step in legal])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    picked = np.concatenate(chosen)
    assert len(flat) == sum(len(step) * w for step, w in zip(actions, width, strict=True))
    return {"actions": flat[live], "counts": counts, "starts": starts, "chosen": starts + picked}


def _minibatch(data: dict[str, Any], rows: Ints) -> Batch:
    """The decisions ``rows`` of the laid-out data, with their legal actions."""
    counts = data["counts"][rows]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    owner = np.repeat(np.arange(len(rows)), counts)
    pairs = data["starts"][rows][owner] + (np.arange(counts.sum()) - starts[owner])
    return Batch(
        state=data["state"][rows],
        actions=data["actions"][pairs],
        owner=owner,
        starts=starts,
        chosen=starts + (data["chosen"][rows] - data["starts"][rows]),
        old_logp=data["old_logp"][rows],
        advantage=data["advantage"][rows],
        returns=data["returns"][rows],
    )


def train(args: argparse.Namespace) -> tuple[Policy, dict[str, Any]]:
    """Train a policy as the module docstring says; return it and how the training went."""
    rules = getattr(gr.Rules, args.level)()
    rng = np.random.default_rng(args.seed)
    backend, learner = learner_for(args, Policy.initial(args.hidden, seed=args.seed))
    bots = [name.strip() for name in args.opponent.split(",")]
    tables = GaiaVectorEnv(
        args.envs,
        players=args.players,
        level=args.level,
        opponents=bots[0],
        shaping=True,
        rewards="win_loss",
    )
    league = League(tables, bots, args)
    obs, info = tables.reset(seed=args.seed)
    started = time.perf_counter()
    wins = games = 0
    shown = (0, 0)
    steps = 0
    for update in range(args.updates):
        record: dict[str, list[npt.NDArray[Any]]] = {
            key: [] for key in ("state", "actions", "legal", "chosen", "logp", "value")
        }
        rewards, dones = [], []
        for _ in range(args.steps):
            legal = info["legal_actions"]
            state = state_features(obs)
            actions = action_features(obs, legal, rules)
            scores = learner.scores(state, actions, legal)
            logp = scores - _logsumexp(scores)
            p = np.exp(logp)
            draws = rng.random(len(legal))[:, None]
            chosen = np.minimum((p.cumsum(axis=1) < draws).sum(axis=1), info["legal_counts"] - 1)
            for key, value in (
                ("state", state),
                ("actions", actions),
                ("legal", legal),
                ("chosen", chosen),
                ("logp", logp[np.arange(len(chosen)), chosen]),
                ("value", learner.value(state)),
            ):
                record[key].append(value)
            obs, reward, terminated, truncated, info = tables.step(
                legal[np.arange(len(chosen)), chosen]
            )
            ended = terminated | truncated
            rewards.append(reward.astype(np.float32))
            dones.append(ended)
            for final in info["final_info"][ended] if ended.any() else []:
                if "result" in final:
                    games += 1
                    wins += int(final["result"].winner == final["seat"])
            steps += len(chosen)
        # advantages by GAE(lambda) over the learned value, bootstrapped at the last state
        values = np.stack(record["value"])
        last = learner.value(state_features(obs))
        advantage = np.zeros_like(values)
        running = np.zeros(args.envs, dtype=np.float32)
        for t in reversed(range(args.steps)):
            following = last if t == args.steps - 1 else values[t + 1]
            live = ~dones[t]
            delta = rewards[t] + args.gamma * following * live - values[t]
            running = delta + args.gamma * args.lam * live * running
            advantage[t] = running
        returns = (advantage + values).reshape(-1)
        flat_adv = advantage.reshape(-1)
        flat_adv = (flat_adv - flat_adv.mean()) / (flat_adv.std() + 1e-8)
        data = _lay_out(record["actions"], record["legal"], record["chosen"])
        data.update(
            state=np.concatenate(record["state"]),
            old_logp=np.concatenate(record["logp"]).astype(np.float32),
            advantage=flat_adv.astype(np.float32),
            returns=returns.astype(np.float32),
        )
        progress: dict[str, float] = {}
        for _ in range(args.epochs):
            for rows in _minibatches(len(flat_adv), args.minibatch, rng):
                progress = learner.update(_minibatch(data, rows))
        league.updated(update + 1, learner)
        if args.verbose and (update + 1) % 5 == 0:
            recent = wins - shown[0], games - shown[1]
            shown = (wins, games)
            print(
                f"update {update + 1}/{args.updates}: {steps} decisions, {games} games, "
                f"won {recent[0]} of the last {recent[1]}, entropy {progress['entropy']:.2f}, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    summary = {
        "backend": backend,
        "decisions": steps,
        "games": games,
        "training_win_rate": wins / max(games, 1),
        "seconds": time.perf_counter() - started,
        "opponents": league.pool(),
    }
    return learner.policy(), summary


class League:
    """The opponents of the training games: the named bots, and with ``--self-play N`` the
    learner's own snapshots, saved every ``N`` updates (the ``--pool`` newest kept). Game
    ``i`` plays the ``i``-th opponent of the pool (round the pool), from its next deal."""

    def __init__(self, tables: GaiaVectorEnv, bots: list[str], args: argparse.Namespace) -> None:
        self.tables = tables
        self.bots = bots
        self.every: int = args.self_play
        self.kept: int = args.pool
        self.folder = Path(f"{args.out}.league")
        self.snapshots: list[str] = []
        self.players: int = args.players
        self.level: str = args.level
        for name in bots:
            opponent_bot(name, 0)  # a bad name stops the run now, not at a game's deal
        self._deal()

    def pool(self) -> list[str]:
        """Every opponent the games are dealt now."""
        return [*self.bots, *self.snapshots]

    def updated(self, update: int, learner: Learner) -> None:
        """After update ``update``: a snapshot of the learner joins the pool when it is due."""
        if not self.every or update % self.every:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"update-{update}.npz"
        learner.policy().save(path, players=self.players, level=self.level)
        self.snapshots = [*self.snapshots, f"policy:{path}"][-self.kept :]
        self._deal()

    def _deal(self) -> None:
        pool = self.pool()
        for index, game in enumerate(self.tables.envs):
            # read at the game's next reset (GaiaSingleEnv builds its bots there)
            game.opponents = (pool[index % len(pool)],) * (self.players - 1)


def _minibatches(size: int, length: int, rng: np.random.Generator) -> Iterator[Ints]:
    order = rng.permutation(size)
    for start in range(0, size, length):
        yield order[start : start + length]


def evaluate(path: Path, opponent: str, args: argparse.Namespace, games: int) -> dict[str, Any]:
    """``gaia-rules simulate`` of the saved policy against ``opponent``: its wins, rate and
    95% interval."""
    out = io.StringIO()
    argv = [
        "simulate", "--json", "--quiet",
        "--games", str(games),
        "--players", str(args.players),
        "--level", args.level,
        "--seed", str(args.seed + 1),
        "--jobs", str(args.jobs),
        "--bots", ",".join([f"policy:{path}"] + [opponent] * (args.players - 1)),
    ]  # fmt: skip
    if cli(argv, stdout=out, stderr=sys.stderr) != 0:
        raise SystemExit(f"gaia-rules {' '.join(argv)} failed")
    line = json.loads(out.getvalue())["bots"][f"policy:{path}"]
    return {"opponent": opponent, **line}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=range(2, 6))
    parser.add_argument(
        "--level", default="basic", choices=("basic", "advanced", "powers", "disasters")
    )
    parser.add_argument(
        "--opponent",
        default="random",
        help="the bots trained against, separated by commas (a league: game i plays the i-th)",
    )
    parser.add_argument(
        "--self-play",
        type=int,
        default=0,
        metavar="N",
        help="every N updates the learner's own policy joins the opponents (0: never)",
    )
    parser.add_argument("--pool", type=int, default=4, help="self-play snapshots kept (4)")
    parser.add_argument("--search-games", type=int, default=0, help="games against search")
    parser.add_argument("--updates", type=int, default=60, help="PPO updates (default 60)")
    parser.add_argument("--envs", type=int, default=16, help="games played at once")
    parser.add_argument("--steps", type=int, default=64, help="decisions per game per update")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--value-weight", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--backend", default="auto", choices=("auto", "torch", "numpy"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("agent.npz"))
    parser.add_argument("--evaluate", type=Path, help="measure this saved policy, no training")
    parser.add_argument("--games", type=int, default=400, help="games against random")
    parser.add_argument("--greedy-games", type=int, default=100, help="games against greedy")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the evaluation")
    parser.add_argument("--check", action="store_true", help="exit 1 unless it beats random")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--verbose", action="store_true", help="print the training's progress")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    path = args.evaluate
    if path is None:
        policy, figures["training"] = train(args)
        path = args.out
        policy.save(path, players=args.players, level=args.level, **figures["training"])
    figures["evaluation"] = [evaluate(path, "random", args, args.games)]
    if args.greedy_games:
        figures["evaluation"].append(evaluate(path, "greedy", args, args.greedy_games))
    if args.search_games:
        figures["evaluation"].append(evaluate(path, "search", args, args.search_games))
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        if "training" in figures:
            t = figures["training"]
            print(
                f"trained on {t['backend']}: {t['decisions']} decisions, {t['games']} games "
                f"in {t['seconds']:.0f} s, saved to {path}"
            )
        for line in figures["evaluation"]:
            low, high = line["ci95"]
            print(
                f"against {line['opponent']}: {line['wins']} wins of {line['played']} "
                f"({line['rate']:.1%}, 95% interval {low:.1%} - {high:.1%})"
            )
    if args.check and figures["evaluation"][0]["ci95"][0] <= 0.5:
        print("the lower 95% bound against random is not above 0.5", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
