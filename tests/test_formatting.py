"""The code is formatted by ``ruff format``, as ``nox -s lint`` and pre-commit check: held here
too, so the suite a change must pass says so before CI does (black's suite holds its own source
the same way)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORMATTED = ["src", "tests", "scripts", "benchmarks", "examples", "noxfile.py", "hatch_build.py"]
"""The paths ``nox -s lint`` formats (its ``LINTED``)."""


def test_the_source_is_formatted() -> None:
    pytest.importorskip("ruff", reason="ruff (the dev extra) formats the source")
    paths = [name for name in FORMATTED if (ROOT / name).exists()]
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"run `ruff format {' '.join(paths)}`:\n{done.stdout}"
