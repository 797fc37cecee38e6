"""This tree against an earlier commit, in one process, each figure beside its anchor.

    python benchmarks/versus.py                  # against 32dcf00: about a minute
    python benchmarks/versus.py --quick          # a short run: about fifteen seconds
    python benchmarks/versus.py --baseline REV   # against another commit
    python benchmarks/versus.py --json           # the figures as one JSON object
    python benchmarks/versus.py --tensor-only    # section 3 alone: about ten seconds

The baseline is the package ``gaia_rules`` of commit ``REV`` (by default 32dcf00, main before
copies of one face became one card), taken from git (``git archive``) into a temporary
folder and imported under another name (``gaia_rules_<rev>``: its imports renamed), so both
run in this interpreter, pure Python; ``gaia_rules`` is what is installed here, pure or
compiled (the header says which). Three sections, each against an anchor of the same run:

1. a seat's view and a decision through the public API, per python-chess ply: random
   4-player games of this tree and the baseline and random chess games, in rounds (one game
   of each, in turn), timing ``game.view(game.to_move)`` after each decision and
   ``legal_actions()`` with ``apply()`` of a random choice (the decision);
2. ``SearchBot`` at its default budget, and the strong bot if ``gaia_rules.bots.BOTS`` has
   one (``STRONG``): decisions a second in CPU time, seat 0 of 4-player basic games (the
   others random), only the decisions with more than one legal action, the baseline's
   SearchBot in the same games' rounds;
3. OpenSpiel's ``information_state_tensor`` of ``python_gaia`` (4 players, disasters) in play,
   in rounds with ``hearts``' (4 players), when the ``openspiel`` extra is installed;
4. with ``--strong-games N`` and a strong bot: its wins against SearchBot in ``N`` 2-player
   basic games (``gaia-rules simulate``, the seats rotating), with the 95% interval.

Only the engines' calls are timed; the clipped means leave out calls over 1 ms (a busy
machine's preemptions). This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import chess

import gaia_rules

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "32dcf00"
"""main before copies of one face became one card (the views' face ids, 1.11-1.14)."""
PLAYERS = 4
LEVELS = ("basic", "disasters")
STRONG = "strong"
"""The name of the strong bot in ``gaia_rules.bots.BOTS``; measured when it is there."""
CLIP_NS = 1_000_000
PLY_CAP = 400
VIEW_LIMIT = 0.15
"""Compiled, a view at most 0.15 of a python-chess ply."""
DECISION_LIMIT = 0.5
"""Compiled, a decision at most half a python-chess ply."""
SEARCH_LIMIT = 100.0
"""Compiled, SearchBot at its default budget: at least 100 decisions a second."""


# -- the baseline -------------------------------------------------------------------------


def load_baseline(revision: str, into: Path) -> ModuleType:
    """The package ``gaia_rules`` of ``revision`` as ``gaia_rules_<revision>``, pure Python:
    its files from git, every ``gaia_rules`` in its Python files renamed."""
    name = "gaia_rules_" + re.sub(r"\W", "_", revision)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src/gaia_rules"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    package = into / name
    (into / "src" / "gaia_rules").rename(package)
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\bgaia_rules\b", name, text), encoding="utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module(name)


def compiled(package: ModuleType) -> bool:
    """Whether the package's view module is the compiled build's."""
    viewfields = importlib.import_module(f"{package.__name__}.viewfields")
    return not str(viewfields.__file__).endswith(".py")


# -- 1: views and decisions ---------------------------------------------------------------


def clipped_mean_us(samples: Sequence[int]) -> float:
    kept = [ns for ns in samples if ns < CLIP_NS]
    return sum(kept) / len(kept) / 1000 if kept else 0.0


def play_timed(gr: Any, level: str, seed: int, views: list[int], decisions: list[int]) -> None:
    """One random game of ``gr``: the view of the seat to move before each decision, then
    the decision (``legal_actions()``, a random pick, ``apply``), each timed."""
    clock = time.perf_counter_ns
    game = gr.new_game(PLAYERS, getattr(gr.Rules, level)(), seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_move
        start = clock()
        game.view(seat)
        viewed = clock()
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
        views.append(viewed - start)
        decisions.append(clock() - viewed)


def play_chess(seed: int, plies: list[int]) -> None:
    """One random chess game: each ply ``list(board.legal_moves)`` and a push, timed."""
    clock = time.perf_counter_ns
    rng = random.Random(seed)
    board = chess.Board()
    for _ in range(PLY_CAP):
        start = clock()
        moves = list(board.legal_moves)
        board.push(rng.choice(moves))
        plies.append(clock() - start)
        if board.is_game_over(claim_draw=False):
            break


def views_and_decisions(
    engines: dict[str, Any], rounds: int, seed: int
) -> tuple[float, dict[str, dict[str, float]]]:
    """Section 1: the chess ply in µs, and each engine's view and decision in µs."""
    times: dict[str, tuple[list[int], list[int]]] = {name: ([], []) for name in engines}
    plies: list[int] = []
    order = list(engines)
    for r in range(rounds):
        progress("views and decisions", r, rounds)
        for name in order if r % 2 == 0 else order[::-1]:  # neither always goes first
            for level in LEVELS:
                play_timed(engines[name], level, seed * 1000 + r, *times[name])
        play_chess(seed * 1000 + r, plies)
    ply = clipped_mean_us(plies)
    return ply, {
        name: {"view_us": clipped_mean_us(views), "decision_us": clipped_mean_us(decisions)}
        for name, (views, decisions) in times.items()
    }


# -- 2: the search bots -------------------------------------------------------------------


def decisions_per_second(
    gr: Any, make: Callable[[int], Any], games: int, decisions: int, seed: int
) -> tuple[int, float]:
    """How many decisions a second (CPU time) the bot ``make(seed)`` takes for seat 0 of
    ``games`` 4-player basic games (the other seats random), timing only its choices among
    more than one legal action, at most ``decisions`` of them a game."""
    taken, spent = 0, 0
    for index in range(games):
        game = gr.new_game(PLAYERS, gr.Rules.basic(), seed + index)
        bot = make(seed + index)
        rng = random.Random(seed + index)
        mine = 0
        while not game.is_over and mine < decisions:
            legal = game.legal_actions()
            if game.to_move == 0 and len(legal) > 1:
                view = game.view(0)
                start = time.process_time_ns()
                action = bot.choose(view, legal)
                spent += time.process_time_ns() - start
                mine += 1
            else:
                action = legal[rng.randrange(len(legal))]
            game.apply(action)
        taken += mine
    return taken, taken / (spent / 1e9) if spent else 0.0


def search_bots(engines: dict[str, Any], games: int, decisions: int, seed: int) -> dict[str, Any]:
    """Section 2: each engine's SearchBot, and this tree's strong bot if it has one."""
    found: dict[str, Any] = {}
    for name, gr in engines.items():
        bots = importlib.import_module(f"{gr.__name__}.bots")
        count, rate = decisions_per_second(gr, bots.SearchBot, games, decisions, seed)
        found[f"search ({name})"] = {"decisions": count, "per_second": rate}
    bots = importlib.import_module("gaia_rules.bots")
    if STRONG in bots.BOTS:
        strong = bots.BOTS[STRONG]
        count, rate = decisions_per_second(gaia_rules, strong, games, decisions, seed)
        found[f"{STRONG} (this tree)"] = {"decisions": count, "per_second": rate}
    return found


def strong_against_search(games: int, seed: int) -> dict[str, Any] | None:
    """Section 4: the strong bot's line of ``gaia-rules simulate --bots strong,search``
    (wins, rate and 95% interval), or ``None`` without a strong bot or games."""
    bots = importlib.import_module("gaia_rules.bots")
    if not games or STRONG not in bots.BOTS:
        return None
    from gaia_rules.cli import main as cli  # noqa: PLC0415

    out = io.StringIO()
    argv = ["simulate", "--json", "--quiet", "--games", str(games), "--players", "2"]
    argv += ["--seed", str(seed), "--jobs", "1", "--bots", f"{STRONG},search"]
    if cli(argv, stdout=out, stderr=sys.stderr) != 0:
        raise SystemExit(f"gaia-rules {' '.join(argv)} failed")
    line: dict[str, Any] = json.loads(out.getvalue())["bots"][STRONG]
    return line


# -- 3: OpenSpiel -------------------------------------------------------------------------


def tensors(calls: int, rounds: int, seed: int) -> dict[str, float] | None:
    """Section 3: ms per ``information_state_tensor`` of the seat to move, in play, for
    python_gaia and hearts in rounds; ``None`` without the openspiel extra."""
    try:
        import numpy as np  # noqa: PLC0415
        import pyspiel  # noqa: PLC0415 (the openspiel extra)

        import gaia_rules.openspiel  # noqa: F401, PLC0415 (registers python_gaia)
    except ImportError as exc:
        print(f"(no OpenSpiel: pip install 'gaia-rules[openspiel]'; {exc})", file=sys.stderr)
        return None
    games = {
        "python_gaia": pyspiel.load_game("python_gaia", {"players": 4, "level": "disasters"}),
        "hearts": pyspiel.load_game("hearts"),
    }
    rng = np.random.default_rng(seed)
    spent = dict.fromkeys(games, 0)
    counted = dict.fromkeys(games, 0)
    for _ in range(rounds):
        for name, game in games.items():
            state = game.new_initial_state()
            for _ in range(calls):
                if state.is_terminal():
                    state = game.new_initial_state()
                if state.is_chance_node():
                    outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(outcomes, p=chances)))
                    continue
                start = time.perf_counter_ns()
                state.information_state_tensor(state.current_player())
                spent[name] += time.perf_counter_ns() - start
                counted[name] += 1
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
    return {name: spent[name] / counted[name] / 1e6 for name in games}


# -- the run ------------------------------------------------------------------------------


def progress(section: str, done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{section}: {done}/{total}", end="", file=sys.stderr, flush=True)


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text(encoding="utf-8").split()[:3])
    except OSError:
        return "unknown"


def run(args: argparse.Namespace) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "baseline": args.baseline,
        "compiled": compiled(gaia_rules),
        "python": sys.version.split()[0],
        "load_before": load_average(),
        "command": "python benchmarks/versus.py " + " ".join(sys.argv[1:]),
    }
    if args.tensor_only:
        figures["tensor_ms"] = tensors(args.tensor_calls, args.tensor_rounds, args.seed)
        figures["load_after"] = load_average()
        return figures
    with tempfile.TemporaryDirectory() as folder:
        old = load_baseline(args.baseline, Path(folder))
        engines = {"this tree": gaia_rules, args.baseline: old}
        ply, engine_figures = views_and_decisions(engines, args.rounds, args.seed)
        figures["chess_ply_us"] = ply
        for found in engine_figures.values():
            found["view_per_ply"] = found["view_us"] / ply
            found["decision_per_ply"] = found["decision_us"] / ply
        figures["engines"] = engine_figures
        figures["bots"] = search_bots(engines, args.search_games, args.search_decisions, args.seed)
    figures["tensor_ms"] = tensors(args.tensor_calls, args.tensor_rounds, args.seed)
    figures["strong_against_search"] = strong_against_search(args.strong_games, args.seed)
    figures["load_after"] = load_average()
    return figures


def report(figures: dict[str, Any]) -> str:
    build = "compiled" if figures["compiled"] else "pure"
    against_baseline = "" if "engines" not in figures else f" against {figures['baseline']} (pure)"
    lines = [
        f"this tree ({build}){against_baseline}, CPython {figures['python']}, "
        f"load {figures['load_before']} before, {figures['load_after']} after",
        f"command: {figures['command']}",
    ]
    if "engines" in figures:  # not with --tensor-only
        lines += engine_lines(figures)
    lines += ["", "3. OpenSpiel information_state_tensor in play, ms a call (same run)"]
    found_tensors = figures["tensor_ms"]
    if found_tensors is None:
        lines.append("   (no OpenSpiel installed)")
    else:
        gaia, hearts = found_tensors["python_gaia"], found_tensors["hearts"]
        lines.append(
            f"   python_gaia (4p disasters) {gaia:.3f} ms, hearts (4p) {hearts:.3f} ms: "
            f"{gaia / hearts:.2f}x hearts"
        )
    against = figures.get("strong_against_search")
    if against is not None:
        low, high = against["ci95"]
        lines += [
            "",
            f"4. {STRONG} against search, 2-player basic games (gaia-rules simulate)",
            f"   {against['wins']} wins of {against['played']}: {against['rate']:.1%} "
            f"(95% interval {low:.1%} - {high:.1%}; a fair share is 50%)",
        ]
    return "\n".join(lines)


def engine_lines(figures: dict[str, Any]) -> list[str]:
    """Sections 1 and 2 of the report."""
    lines = [
        "",
        f"1. per python-chess ply ({figures['chess_ply_us']:.1f} µs, clipped mean, same run)",
    ]
    engines = figures["engines"]
    for name, found in engines.items():
        lines.append(
            f"   {name:<12} view {found['view_us']:6.1f} µs = {found['view_per_ply']:.3f} ply   "
            f"decision {found['decision_us']:6.1f} µs = {found['decision_per_ply']:.3f} ply"
        )
    new, old = engines["this tree"], engines[figures["baseline"]]
    lines.append(
        f"   this tree / {figures['baseline']}: view {new['view_us'] / old['view_us']:.2f}x, "
        f"decision {new['decision_us'] / old['decision_us']:.2f}x (below 1: faster)"
    )
    if figures["compiled"]:
        view_met = new["view_per_ply"] <= VIEW_LIMIT
        decision_met = new["decision_per_ply"] <= DECISION_LIMIT
        lines.append(
            f"   targets (compiled): view <= {VIEW_LIMIT} ply {'met' if view_met else 'NOT met'}, "
            f"decision <= {DECISION_LIMIT} ply {'met' if decision_met else 'NOT met'}"
        )
    lines += ["", "2. bots at their default budget, decisions a second (CPU time, 4p basic)"]
    for name, found in figures["bots"].items():
        lines.append(
            f"   {name:<24} {found['per_second']:6.1f}/s over {found['decisions']} decisions"
        )
    if STRONG not in " ".join(figures["bots"]):
        lines.append(f"   ({STRONG}: no such bot in gaia_rules.bots.BOTS yet)")
    return lines


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"the commit (default {BASELINE})")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    parser.add_argument(
        "--strong-games",
        type=int,
        default=0,
        help="2-player games of the strong bot against SearchBot (0: none; slow)",
    )
    parser.add_argument(
        "--tensor-only", action="store_true", help="section 3 alone (OpenSpiel's tensor)"
    )
    args = parser.parse_args(argv)
    scale = 1 if args.quick else 4
    args.rounds = 10 * scale
    args.search_games = 2 * scale
    args.search_decisions = 15
    args.tensor_calls = 300
    args.tensor_rounds = 2 * scale * (5 if args.tensor_only else 1)  # alone: steadier
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    figures = run(args)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
