"""The fuzz suite's long run, with its figures: every public entry point of untrusted input
fed hostile inputs drawn by Hypothesis from fixed seeds (see ``tests/fuzz``).

    python scripts/fuzz.py                      # 12,000 inputs per entry point: 204,000
    python scripts/fuzz.py --inputs 1000 --jobs 2

Each entry point must answer every input within a second of CPU time with a value or its
own typed error, and what it accepts must hold up. Prints the inputs run and accepted by
entry point, the slowest input and the time taken; on a failure, Hypothesis's report of the
input. Exits 1 if an input failed. ``pytest -m soak`` runs the same seeds as tests.

A seed fixes the inputs only in processes that loaded the same modules (see ``tests/fuzz``):
a failing input is reproduced from Hypothesis's report of it.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the suite lives in tests/

from tests.fuzz import ENTRIES, Figures, run

SHARDS = 3
"""Each entry point's inputs are drawn from this many seeds (those of the soak tests)."""


def _shard(task: tuple[str, int, int]) -> tuple[Figures, str | None]:
    name, inputs, shard = task
    entry = next(entry for entry in ENTRIES if entry.name == name)
    figures = Figures()
    try:
        run(entry, inputs, seed=1_000 + shard, figures=figures)
    except BaseException as exc:  # reported with the others, the run goes on
        return figures, f"{name}, seed {1_000 + shard}: {type(exc).__name__}: {exc}"
    return figures, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=12_000, help="inputs per entry point")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    tasks = [
        (entry.name, args.inputs // SHARDS + (shard < args.inputs % SHARDS), shard)
        for entry in ENTRIES
        for shard in range(SHARDS)
    ]
    figures = Figures()
    failures: list[str] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for found, failure in pool.map(_shard, tasks):
            figures.merge(found)
            if failure is not None:
                failures.append(failure)
    print("\n".join(figures.lines(len(failures))))
    print(f"  {time.perf_counter() - started:.0f} s with {args.jobs} job(s)")
    for failure in failures:
        print(failure[:3000], file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
