"""The figures a release's notes give, in one run: the suite's time on one core and on every
core, then ``bench.py`` on the pure-Python wheel and on the compiled wheel, each installed alone
in a fresh virtual environment.

    python benchmarks/compare_builds.py            # bench.py's full run on each wheel
    python benchmarks/compare_builds.py --quick    # bench.py --quick on each wheel

Run it from a clone with the dev extra installed (the suite runs in this interpreter's
environment) and a C compiler (for the compiled wheel). The machine's load is printed before
and after: figures from a busy machine are only comparable within the run, where
``bench.py``'s ratios to python-chess, measured beside them, are what to read. It takes about
as long as the suite twice plus two benchmark runs. This is a measurement, never a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load() -> str:
    """The load averages (1, 5, 15 minutes) and the number of cores."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def suite(workers: str) -> tuple[float, str]:
    """Run the suite with ``-n workers``: its wall time in seconds, and pytest's last line."""
    command = [sys.executable, "-m", "pytest", "-q", "-n", workers, "-p", "no:cacheprovider"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-3000:], sep="\n")
        raise SystemExit(f"the suite failed with -n {workers}")
    return seconds, lines[-1] if lines else ""


def installed(wheel: Path, folder: Path) -> Path:
    """A fresh virtual environment in ``folder`` holding ``wheel`` and python-chess; its
    Python."""
    venv.create(folder, with_pip=True)
    python = folder / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel), "chess>=1.10"], check=True
    )
    return python


def bench(python: Path, quick: bool) -> None:
    """Run bench.py with ``python`` (from outside the tree, so the installed wheel is read)."""
    check = "import gaia_rules.flow as f; print('gaia_rules.flow is', f.__file__)"
    subprocess.run([str(python), "-c", check], check=True, cwd=tempfile.gettempdir())
    command = [str(python), str(ROOT / "benchmarks" / "bench.py"), *(["--quick"] * quick)]
    subprocess.run(command, check=True, cwd=tempfile.gettempdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="bench.py --quick on each wheel")
    args = parser.parse_args()
    print(f"== start: {load()}", flush=True)
    one, one_line = suite("0")
    print(f"== the suite on one core (-n 0): {one:.0f} s ({one_line}); {load()}", flush=True)
    every, every_line = suite("auto")
    print(f"== the suite on every core (-n auto): {every:.0f} s ({every_line}); {load()}")
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(work / "pure"), str(ROOT)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "build_compiled.py"),
                "--outdir",
                str(work / "compiled"),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        for build in ("pure", "compiled"):
            (wheel,) = (work / build).glob("*.whl")
            python = installed(wheel, work / f"venv-{build}")
            print(f"== bench.py on the {build} wheel ({wheel.name}); {load()}", flush=True)
            bench(python, args.quick)
    print(f"== end: {load()}")


if __name__ == "__main__":
    main()
