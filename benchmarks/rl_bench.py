"""How fast the research wings are, beside the engine measured in the same run.

    python benchmarks/rl_bench.py              # the full run (a few minutes)
    python benchmarks/rl_bench.py --quick      # a short run
    python benchmarks/rl_bench.py --json       # the figures as one JSON object

Needs the ``rl`` extra (and ``ray`` for the Ray row). Three measurements (see
benchmarks/README.md):

1. uniform random playouts, per decision, at every level for 4 players: the raw engine
   (``legal_actions()``, pick one, ``apply()``, as ``bench.py`` times it) against the
   PettingZoo environment's ``step()`` on an index chosen outside it (it decodes the index
   from the seat's view and applies it). The target: a step costs at most 1.5 raw decisions;
2. an agent's whole loop: the legal actions by index and the mask array (what
   ``observe()`` builds), the observation (the seat's view and its array), and ``step()``
   after them (it looks the index up among the legal actions the mask came from);
3. ``gaia-rules simulate`` in games per second on each backend: one process, two processes,
   and a local Ray cluster of two workers (its start-up timed apart).

Only the calls named are timed; choosing the action is not. This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import gaia_rules as gr
from gaia_rules.cli import main as cli
from gaia_rules.rl.environment import GaiaEnv, raw_env
from gaia_rules.rl.observation import action_mask, observation

LEVELS: tuple[tuple[str, Callable[[], gr.Rules]], ...] = (
    ("basic", gr.Rules.basic),
    ("advanced", gr.Rules.advanced),
    ("powers", gr.Rules.powers),
    ("disasters", gr.Rules.disasters),
)
PLAYERS = 4
TARGET = 1.5
"""An environment step may cost at most this many raw decisions."""


def _raw(level: Callable[[], gr.Rules], seed: int, times: dict[str, int]) -> int:
    game = gr.new_game(PLAYERS, level(), seed=seed)
    rng = random.Random(seed)
    decisions = 0
    clock = time.perf_counter_ns
    while not game.is_over:
        start = clock()
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        times["raw"] += clock() - start
        decisions += 1
    return decisions


def _env_loop(table: GaiaEnv, seed: int, times: dict[str, int]) -> int:
    """An agent's loop: the legal actions by index, the mask, the observation, then step()."""
    table.reset(seed=seed)
    rng = random.Random(seed)
    decisions = 0
    clock = time.perf_counter_ns
    while not table.game.is_over:
        agent = table.agent_selection
        seat = table.possible_agents.index(agent)
        t0 = clock()
        legal = table._legal_now()  # what observe() builds the mask from
        t1 = clock()
        action_mask(legal)
        t2 = clock()
        observation(table.game.view(seat))
        t3 = clock()
        index = list(legal)[rng.randrange(len(legal))]
        t4 = clock()
        table.step(index)
        t5 = clock()
        times["legal"] += t1 - t0
        times["mask"] += t2 - t1
        times["observation"] += t3 - t2
        times["step after mask"] += t5 - t4
        decisions += 1
    return decisions


def _env_step(table: GaiaEnv, seed: int, times: dict[str, int]) -> int:
    """step() alone, on an index chosen without the environment (not timed)."""
    table.reset(seed=seed)
    rng = random.Random(seed)
    decisions = 0
    clock = time.perf_counter_ns
    space = table.space
    while not table.game.is_over:
        game = table.game
        seat = game.to_move
        assert seat is not None
        stolen = game.view(seat).stolen if isinstance(game.decision, gr.ChooseKeptCard) else ()
        by_index = space.legal(game.legal_actions(), game.players, stolen)
        index = list(by_index)[rng.randrange(len(by_index))]
        start = clock()
        table.step(index)
        times["step"] += clock() - start
        decisions += 1
    return decisions


def playouts(games: int, seed: int) -> list[dict[str, Any]]:
    """Random playouts, raw and through the environment, in rounds of one game each."""
    rows = []
    for name, level in LEVELS:
        times = dict.fromkeys(("raw", "step", "legal", "mask", "observation", "step after mask"), 0)
        raw_decisions = step_decisions = loop_decisions = 0
        table = raw_env(PLAYERS, level=name)
        for game in range(games):
            game_seed = seed * 1_000_000 + game
            raw_decisions += _raw(level, game_seed, times)
            step_decisions += _env_step(table, game_seed, times)
            loop_decisions += _env_loop(table, game_seed, times)
        raw = times["raw"] / raw_decisions / 1000
        step = times["step"] / step_decisions / 1000
        legal, mask, seen, after = (
            times[part] / loop_decisions / 1000
            for part in ("legal", "mask", "observation", "step after mask")
        )
        loop = legal + mask + seen + after
        rows.append(
            {
                "level": name,
                "games": games,
                "decisions": {"raw": raw_decisions, "step": step_decisions, "loop": loop_decisions},
                "us_raw_decision": raw,
                "us_env_step": step,
                "us_legal_by_index": legal,
                "us_mask": mask,
                "us_observation": seen,
                "us_step_after_mask": after,
                "us_env_loop": loop,
                "step_over_raw": step / raw,
                "loop_over_raw": loop / raw,
                "target_met": step / raw <= TARGET,
            }
        )
    return rows


def _games_per_second(argv: list[str]) -> float:
    out = io.StringIO()
    status = cli(["simulate", "--json", "--quiet", *argv], stdout=out, stderr=io.StringIO())
    if status != 0:
        raise RuntimeError(f"simulate {' '.join(argv)} failed")
    data = json.loads(out.getvalue())
    return float(data["games"] / data["timing"]["wall_seconds"])


def backends(games: int, seed: int) -> list[dict[str, Any]]:
    """``simulate`` in games per second: one process, two, and Ray with two workers."""
    argv = ["--games", str(games), "--players", str(PLAYERS), "--seed", str(seed)]
    rows: list[dict[str, Any]] = [
        {"backend": "processes", "jobs": 1, "games_per_s": _games_per_second([*argv])},
        {
            "backend": "processes",
            "jobs": 2,
            "games_per_s": _games_per_second([*argv, "--jobs", "2"]),
        },
    ]
    try:
        import ray  # noqa: PLC0415 (the optional ray extra)
    except ImportError:
        return rows
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter() - start
    try:
        per_second = _games_per_second([*argv, "--backend", "ray", "--jobs", "2"])
    finally:
        ray.shutdown()
    rows.append({"backend": "ray", "jobs": 2, "games_per_s": per_second, "startup_s": started})
    return rows


def _print(figures: dict[str, Any]) -> None:
    print("gaia-rules research wings benchmark")
    for key, value in figures["setting"].items():
        print(f"  {key:<10}  {value}")
    print()
    print(f"1. Uniform random playouts, {PLAYERS} players (µs are means per decision)")
    print(f"level      games  µs raw  µs step  step/raw  step <= {TARGET}")
    for row in figures["playouts"]:
        print(
            f"{row['level']:<9}  {row['games']:>5}  {row['us_raw_decision']:>6.1f}  "
            f"{row['us_env_step']:>7.1f}  {row['step_over_raw']:>8.2f}  "
            f"{'PASS' if row['target_met'] else 'FAIL'}"
        )
    print()
    print("2. An agent's loop: legal actions by index, mask, observation, step() after the mask")
    print("level      µs legal  µs mask  µs obs  µs step  µs loop  loop/raw")
    for row in figures["playouts"]:
        print(
            f"{row['level']:<9}  {row['us_legal_by_index']:>8.1f}  {row['us_mask']:>7.1f}  "
            f"{row['us_observation']:>6.1f}  {row['us_step_after_mask']:>7.1f}  "
            f"{row['us_env_loop']:>7.1f}  {row['loop_over_raw']:>8.2f}"
        )
    print()
    print(f"3. gaia-rules simulate, {figures['simulate_games']} random games of {PLAYERS} players")
    for row in figures["backends"]:
        extra = (
            f"  (cluster start-up {row['startup_s']:.1f} s, not counted)"
            if "startup_s" in row
            else ""
        )
        print(f"{row['backend']:<10} jobs {row['jobs']}  {row['games_per_s']:7.1f} games/s{extra}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How fast the research wings are.")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, help="playouts per level (default 60, quick 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    games = args.games or (10 if args.quick else 60)
    simulate_games = 100 if args.quick else 400
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    figures: dict[str, Any] = {
        "setting": {
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "platform": f"{platform.platform()} ({os.cpu_count()} CPUs)",
            "gaia_rules": gr.__version__,
            "command": " ".join([sys.executable, *sys.argv]),
            "load": f"{load:.2f} before",
        },
        "playouts": playouts(games, args.seed),
        "simulate_games": simulate_games,
        "backends": backends(simulate_games, args.seed),
    }
    if hasattr(os, "getloadavg"):
        figures["setting"]["load"] += f", {os.getloadavg()[0]:.2f} after (1-minute average)"
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
