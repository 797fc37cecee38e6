"""Build the compiled wheel here the way cibuildwheel builds it on the hosted CI, without a
container: the environment of ``[tool.cibuildwheel.environment]`` in ``pyproject.toml``
(``GAIA_RULES_USE_MYPYC=1``, which makes the build hook in ``hatch_build.py`` compile the rules
with mypyc), ``python -m build --wheel``, then on Linux ``auditwheel repair`` (cibuildwheel's
repair step, which gives the wheel its manylinux tag) when auditwheel is installed.

    python scripts/build_compiled.py --outdir dist-compiled

``nox -s compiled`` runs it and then cibuildwheel's test command (the suite) on the wheel;
``hatch_build.py`` says which modules are compiled and why the others stay pure Python. A C
compiler is needed; the build installs mypy and setuptools in its own environment.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cibuildwheel_environment() -> dict[str, str]:
    """The variables cibuildwheel sets for every build (``[tool.cibuildwheel.environment]``)."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        config = tomllib.load(file)["tool"]["cibuildwheel"]
    return {str(name): str(value) for name, value in config.get("environment", {}).items()}


def build(outdir: Path) -> Path:
    """Build the compiled wheel into ``outdir``; its path."""
    outdir.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, **cibuildwheel_environment()}
    with tempfile.TemporaryDirectory() as temp:
        built = Path(temp) / "built"
        subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--outdir", str(built), str(ROOT)],
            check=True,
            env=environment,
        )
        (wheel,) = built.glob("*.whl")
        if "-none-any" in wheel.name:
            raise SystemExit(f"the build gave a pure wheel ({wheel.name}): the hook did not run")
        if sys.platform == "linux" and importlib.util.find_spec("auditwheel") is not None:
            repaired = Path(temp) / "repaired"
            subprocess.run(
                [sys.executable, "-m", "auditwheel", "repair", "-w", str(repaired), str(wheel)],
                check=True,
            )
            (wheel,) = repaired.glob("*.whl")
        target = outdir / wheel.name
        shutil.copy2(wheel, target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", type=Path, default=ROOT / "dist-compiled")
    args = parser.parse_args()
    print(build(args.outdir))


if __name__ == "__main__":
    main()
