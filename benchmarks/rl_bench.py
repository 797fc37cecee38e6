"""How fast the research wings are, beside the engine and PettingZoo's classic games
measured in the same run, and how strong the trained agent is.

    python benchmarks/rl_bench.py              # the full run (ten minutes or so)
    python benchmarks/rl_bench.py --quick      # a short run
    python benchmarks/rl_bench.py --json       # the figures as one JSON object
    python benchmarks/rl_bench.py --policy agent.npz   # measure that agent, train none
    python benchmarks/rl_bench.py --openspiel-only     # section 7 alone (a minute or so)

Needs the ``rl`` extra (``ray`` for the Ray row; PettingZoo's ``texas_holdem_v4`` and
``connect_four_v3`` need ``rlcard`` and ``pygame-ce``, the ``bench`` extra; section 7 the
``openspiel`` extra). Seven measurements (see benchmarks/README.md):

1. uniform random playouts, per decision, at every level for 4 players: the raw engine
   (``legal_actions()``, pick one, ``apply()``, as ``bench.py`` times it) against the
   PettingZoo environment's ``step()`` on an index chosen outside it (it decodes the index
   from the seat's view and applies it). The target: a step costs at most 1.5 raw decisions;
2. an agent's whole loop: the legal actions by index and the mask array (what
   ``observe()`` builds), the observation (the seat's view and its array), and ``step()``
   after them (it looks the index up among the legal actions the mask came from);
3. ``gaia-rules simulate`` in games per second on each backend: one process, two processes,
   and a local Ray cluster of two workers (its start-up timed apart);
4. an agent's steps per second through PettingZoo's API (``last()``, a random legal index,
   ``step()``) on Gaïa in both layouts, beside ``texas_holdem_v4`` and ``connect_four_v3``,
   in alternating rounds;
5. the vector environment's learner decisions per second (16 games of 2 players against
   random bots, a random legal index each);
6. the agent trained by ``examples/train_agent.py`` (its default run), its win rates
   against random and greedy with their 95% intervals;
7. OpenSpiel's ``python_gaia`` (4 players, disasters): one ``information_state_tensor`` call
   at decisions of random games (the target: at most 0.2 ms), and a random agent's steps per
   second through OpenSpiel's ``rl_environment`` beside ``hearts`` (4 players) in
   alternating rounds (the target: at least 25% of hearts' rate).

Only the calls named are timed; choosing the action is not. This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import gaia_rules as gr
from gaia_rules.cli import main as cli
from gaia_rules.rl.environment import GaiaEnv, env, raw_env
from gaia_rules.rl.observation import action_mask, observation
from gaia_rules.rl.vector import GaiaVectorEnv

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


def _agent_steps(table: Any, steps: int, rng: np.random.Generator) -> float:
    """Seconds for ``steps`` steps of a random legal agent through PettingZoo's API (the
    legal indices from the mask, or from the info where there is no mask)."""
    taken = 0
    start = time.perf_counter()
    while taken < steps:
        table.reset(seed=int(rng.integers(2**31)))
        for _agent in table.agent_iter():
            obs, _, terminated, truncated, info = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = info["legal_actions"] if "action_mask" not in obs else None
            if legal is None:
                legal = np.flatnonzero(obs["action_mask"])
            table.step(int(legal[rng.integers(len(legal))]))
            taken += 1
            if taken >= steps:
                break
    return time.perf_counter() - start


def anchors(steps: int, rounds: int, seed: int) -> list[dict[str, Any]]:
    """An agent's steps per second on Gaïa (2 players, basic; both layouts) and on PettingZoo's
    ``texas_holdem_v4`` and ``connect_four_v3``, in alternating rounds."""
    tables: dict[str, Any] = {
        "gaia (full, mask)": env(2),
        "gaia (planes, legal in info)": env(2, observation="planes"),
    }
    try:
        from pettingzoo.classic import (  # noqa: PLC0415 (rlcard and pygame-ce)
            connect_four_v3,
            texas_holdem_v4,
        )
    except ImportError as exc:
        print(f"(no PettingZoo classic games: pip install rlcard pygame-ce; {exc})")
    else:
        tables["texas_holdem_v4"] = texas_holdem_v4.env()
        tables["connect_four_v3"] = connect_four_v3.env()
    seconds = dict.fromkeys(tables, 0.0)
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        for name, table in tables.items():
            seconds[name] += _agent_steps(table, steps, rng)
    return [
        {"env": name, "steps": steps * rounds, "steps_per_s": steps * rounds / spent}
        for name, spent in seconds.items()
    ]


TENSOR_TARGET_MS = 0.2
"""Section 7: the most one ``information_state_tensor`` call may cost."""
HEARTS_SHARE = 0.25
"""Section 7: the least share of hearts' ``rl_environment`` steps per second."""


def _spiel_states(game: Any, states: int, rng: np.random.Generator) -> list[Any]:
    """``states`` decision states of random games of ``game`` (chance sampled)."""
    found: list[Any] = []
    while len(found) < states:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < states:
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            found.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    return found


def _rl_steps(environment: Any, steps: int, rng: np.random.Generator) -> float:
    """Seconds for ``steps`` steps of a random legal agent through ``rl_environment``."""
    taken = 0
    start = time.perf_counter()
    while taken < steps:
        time_step = environment.reset()
        while not time_step.last() and taken < steps:
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = environment.step([int(legal[rng.integers(len(legal))])])
            taken += 1
    return time.perf_counter() - start


def openspiel(states: int, steps: int, rounds: int, seed: int) -> dict[str, Any] | None:
    """Section 7: the information-state tensor's cost and ``rl_environment`` beside hearts."""
    try:
        import pyspiel  # noqa: PLC0415 (the openspiel extra)
        from open_spiel.python import rl_environment  # noqa: PLC0415

        import gaia_rules.openspiel  # noqa: F401, PLC0415 (registers python_gaia)
    except ImportError as exc:
        print(f"(no OpenSpiel: pip install 'gaia-rules[openspiel]'; {exc})")
        return None
    rng = np.random.default_rng(seed)
    game = pyspiel.load_game("python_gaia", {"players": 4, "level": "disasters"})
    in_play, calls = 0.0, 0
    while calls < states:  # as an agent meets them: a seat's history is extended move by move
        state = game.new_initial_state()
        while not state.is_terminal() and calls < states:
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            start = time.perf_counter()
            state.information_state_tensor(state.current_player())
            in_play += time.perf_counter() - start
            calls += 1
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    tensor_ms = in_play / calls * 1000
    sampled = _spiel_states(game, states, rng)  # fresh clones: each history read from the start
    start = time.perf_counter()
    for state in sampled:
        state.information_state_tensor(state.current_player())
    cold_ms = (time.perf_counter() - start) / len(sampled) * 1000
    environments = {
        "python_gaia": rl_environment.Environment(
            "python_gaia",
            chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed),
            players=4,
            level="disasters",
        ),
        "hearts": rl_environment.Environment(
            "hearts", chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed)
        ),
    }
    seconds = dict.fromkeys(environments, 0.0)
    for _ in range(rounds):
        for name, environment in environments.items():
            seconds[name] += _rl_steps(environment, steps, rng)
    rates = {name: steps * rounds / spent for name, spent in seconds.items()}
    share = rates["python_gaia"] / rates["hearts"]
    return {
        "tensor_calls": calls,
        "tensor_size": game.information_state_tensor_size(),
        "ms_per_tensor": tensor_ms,
        "ms_per_tensor_fresh_clone": cold_ms,
        "tensor_target_met": tensor_ms <= TENSOR_TARGET_MS,
        "rl_steps": steps * rounds,
        "rl_steps_per_s": rates,
        "gaia_share_of_hearts": share,
        "share_target_met": share >= HEARTS_SHARE,
    }


def vector(steps: int, seed: int, games: int = 16) -> dict[str, Any]:
    """The vector environment's learner decisions per second (random legal indices)."""
    tables = GaiaVectorEnv(games, players=2, opponents="random")
    rng = np.random.default_rng(seed)
    _, info = tables.reset(seed=seed)
    ended = 0
    start = time.perf_counter()
    for _ in range(steps):
        chosen = rng.integers(info["legal_counts"])
        actions = info["legal_actions"][np.arange(games), chosen]
        _, _, terminated, truncated, info = tables.step(actions)
        ended += int((terminated | truncated).sum())
    spent = time.perf_counter() - start
    return {
        "games_at_once": games,
        "calls": steps,
        "learner_decisions_per_s": steps * games / spent,
        "calls_per_s": steps / spent,
        "games_ended_per_s": ended / spent,
    }


def trained_agent(policy: Path | None, quick: bool, seed: int) -> dict[str, Any]:
    """``examples/train_agent.py --json``: its default training (unless ``policy`` is given)
    and its evaluation against random and greedy."""
    example = Path(__file__).resolve().parent.parent / "examples" / "train_agent.py"
    argv = [sys.executable, str(example), "--json", "--seed", str(seed), "--jobs", "2"]
    if policy is not None:
        argv += ["--evaluate", str(policy)]
    else:
        argv += ["--out", str(Path(os.environ.get("TMPDIR", "/tmp")) / "rl_bench_agent.npz")]
    if quick:
        argv += ["--updates", "5", "--games", "100", "--greedy-games", "40"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed:\n{done.stderr}")
    figures: dict[str, Any] = json.loads(done.stdout)
    figures["command"] = " ".join(argv[1:])
    return figures


def _print_openspiel(spiel: dict[str, Any]) -> None:
    print("7. OpenSpiel: python_gaia (4 players, disasters) beside hearts (4 players)")
    print(
        f"   information_state_tensor ({spiel['tensor_size']} floats): "
        f"{spiel['ms_per_tensor']:.3f} ms a call over {spiel['tensor_calls']} decisions in "
        f"play   <= {TENSOR_TARGET_MS} ms: {'PASS' if spiel['tensor_target_met'] else 'FAIL'}"
    )
    print(
        f"   on a fresh clone (the seat's history read from the whole log): "
        f"{spiel['ms_per_tensor_fresh_clone']:.3f} ms a call"
    )
    rates = spiel["rl_steps_per_s"]
    print(
        f"   rl_environment, {spiel['rl_steps']} random steps each: python_gaia "
        f"{rates['python_gaia']:.0f} steps/s, hearts {rates['hearts']:.0f} steps/s, "
        f"{spiel['gaia_share_of_hearts']:.0%} of hearts   >= {HEARTS_SHARE:.0%}: "
        f"{'PASS' if spiel['share_target_met'] else 'FAIL'}"
    )


def _print(figures: dict[str, Any]) -> None:
    print("gaia-rules research wings benchmark")
    for key, value in figures["setting"].items():
        print(f"  {key:<10}  {value}")
    print()
    if "playouts" not in figures:  # --openspiel-only
        if figures.get("openspiel") is not None:
            _print_openspiel(figures["openspiel"])
        return
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
    print()
    print("4. An agent's steps through PettingZoo's API (last, a random legal index, step)")
    rows = figures["anchors"]
    gaia = rows[0]["steps_per_s"]
    for row in rows:
        print(
            f"{row['env']:<30} {row['steps_per_s']:9.0f} steps/s"
            f"   gaia (full) / this: {gaia / row['steps_per_s']:5.2f}"
        )
    print()
    v = figures["vector"]
    print(f"5. The vector environment: {v['games_at_once']} games of 2 players against random")
    print(
        f"   {v['learner_decisions_per_s']:.0f} learner decisions/s "
        f"({v['calls_per_s']:.0f} calls/s, {v['games_ended_per_s']:.1f} games ended/s)"
    )
    agent = figures.get("agent")
    if agent is not None:
        print()
        print(f"6. The trained agent (examples/train_agent.py, {agent['command']})")
        training = agent.get("training")
        if training is not None:
            print(
                f"   trained on {training['backend']}: {training['decisions']} decisions, "
                f"{training['games']} games in {training['seconds']:.0f} s"
            )
        for line in agent["evaluation"]:
            low, high = line["ci95"]
            print(
                f"   against {line['opponent']:<7} {line['wins']:>4} wins of {line['played']:<4}"
                f" {line['rate']:6.1%}   95% interval {low:.1%} - {high:.1%}"
            )
    if figures.get("openspiel") is not None:
        print()
        _print_openspiel(figures["openspiel"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How fast the research wings are.")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, help="playouts per level (default 60, quick 10)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--policy", type=Path, help="measure this saved agent, train none")
    parser.add_argument("--no-agent", action="store_true", help="leave out the trained agent")
    parser.add_argument(
        "--openspiel-only", action="store_true", help="measure OpenSpiel's python_gaia alone"
    )
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
    }
    spiel_size = (300, 1000, 3) if args.quick else (2000, 4000, 5)
    if args.openspiel_only:
        figures["openspiel"] = openspiel(*spiel_size, args.seed)
        return _report(figures, args.json)
    figures |= {
        "playouts": playouts(games, args.seed),
        "simulate_games": simulate_games,
        "backends": backends(simulate_games, args.seed),
        "anchors": anchors(1000 if args.quick else 4000, 3 if args.quick else 5, args.seed),
        "vector": vector(100 if args.quick else 500, args.seed),
    }
    if not args.no_agent:
        figures["agent"] = trained_agent(args.policy, args.quick, args.seed)
    figures["openspiel"] = openspiel(*spiel_size, args.seed)
    return _report(figures, args.json)


def _report(figures: dict[str, Any], as_json: bool) -> int:
    if hasattr(os, "getloadavg"):
        figures["setting"]["load"] += f", {os.getloadavg()[0]:.2f} after (1-minute average)"
    if as_json:
        print(json.dumps(figures, indent=2))
    else:
        _print(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
