"""Builds of the engine side by side, each in its own processes, in interleaved rounds.

    python benchmarks/interleaved.py OLD NEW               # five rounds: about a minute
    python benchmarks/interleaved.py OLD NEW --rounds 9

Each FOLDER holds a package ``gaia_rules`` (a source tree's ``src``, or a wheel unpacked:
pure or compiled) and is put first on ``PYTHONPATH`` of a fresh interpreter, which runs one
workload and prints its CPU time. The rounds run every folder in turn, so a busy spell of the
machine falls on all of them alike; the minimum over the rounds is the figure to compare (the
median beside it shows the spread), and the first folder is the anchor of the ratios. Two
workloads, the same games for every folder (the builds must play the same games: the script
checks they make the same choices):

- ``decisions``: random 4-player games, 100 at the basic level and 100 at disasters, timing
  ``legal_actions()`` and ``apply()`` of a random choice;
- ``search``: ``SearchBot`` at its default budget for seat 0 of two 4-player basic games,
  the others random, timing its choices among more than one legal action.

Where ``versus.py`` sets a build beside a baseline in one process, this compares two builds of
one engine (a change against its parent, the pure package against the compiled wheel) with
nothing else in the process. This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import gaia_rules as gr
from gaia_rules.bots import SearchBot

WORKLOADS = ("decisions", "search")
GAMES = 100
"""Random games per level of the ``decisions`` workload."""


def decisions() -> tuple[float, str]:
    """CPU seconds of the random games' decisions, and a digest of the actions taken."""
    rng = random.Random(5)
    taken = hashlib.sha256()
    spent = 0.0
    for rules in (gr.Rules.basic(), gr.Rules.disasters()):
        for seed in range(GAMES):
            game = gr.new_game(4, rules, seed=100 + seed)
            while not game.is_over:
                start = time.process_time()
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal))]
                game.apply(action)
                spent += time.process_time() - start
                taken.update(repr(action).encode())
    return spent, taken.hexdigest()[:12]


def search() -> tuple[float, str]:
    """CPU seconds of SearchBot's choices, and a digest of the actions taken."""
    bot = SearchBot(1)
    rng = random.Random(5)
    taken = hashlib.sha256()
    spent = 0.0
    for seed in range(2):
        game = gr.new_game(4, gr.Rules.basic(), seed=100 + seed)
        while not game.is_over:
            legal = game.legal_actions()
            if game.to_move == 0 and len(legal) > 1:
                view = game.view(0)
                start = time.process_time()
                action = bot.choose(view, legal)
                spent += time.process_time() - start
            else:
                action = rng.choice(legal)
            game.apply(action)
            taken.update(repr(action).encode())
    return spent, taken.hexdigest()[:12]


def child(workload: str) -> None:
    """Run one workload here and print its seconds and digest."""
    spent, digest = decisions() if workload == "decisions" else search()
    print(f"{spent:.4f} {digest}")


def run(folder: Path, workload: str) -> tuple[float, str]:
    """One fresh interpreter with ``folder`` first on its path: its seconds and digest."""
    env = dict(os.environ, PYTHONPATH=str(folder), PYTHONHASHSEED="0")
    done = subprocess.run(
        [sys.executable, __file__, "--child", workload],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    spent, digest = done.stdout.split()
    return float(spent), digest


def compiled(folder: Path) -> str:
    """Whether the package in ``folder`` is compiled (its rules are extension modules)."""
    return "compiled" if any((folder / "gaia_rules").glob("flow.*.so")) else "pure"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="folders holding gaia_rules")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--child", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if len(args.folders) < 2:
        parser.error("name at least two folders, the anchor first")
    for folder in args.folders:
        if not (folder / "gaia_rules" / "__init__.py").is_file():
            parser.error(f"{folder} holds no package gaia_rules")
    one, five, fifteen = os.getloadavg()
    print(f"load {one:.2f} {five:.2f} {fifteen:.2f} before; {args.rounds} rounds")
    for workload in WORKLOADS:
        seconds: dict[Path, list[float]] = {folder: [] for folder in args.folders}
        digests: set[str] = set()
        for _ in range(args.rounds):
            for folder in args.folders:
                spent, digest = run(folder, workload)
                seconds[folder].append(spent)
                digests.add(digest)
        if len(digests) != 1:
            raise SystemExit(f"{workload}: the builds played different games ({digests})")
        anchor = min(seconds[args.folders[0]])
        print(f"{workload} (CPU seconds, minimum and median over the rounds)")
        for folder in args.folders:
            best = min(seconds[folder])
            print(
                f"  {best:7.3f}  median {statistics.median(seconds[folder]):7.3f}  "
                f"{best / anchor:5.2f}x  {folder} ({compiled(folder)})"
            )
    one, five, fifteen = os.getloadavg()
    print(f"load {one:.2f} {five:.2f} {fifteen:.2f} after")


if __name__ == "__main__":
    main()
