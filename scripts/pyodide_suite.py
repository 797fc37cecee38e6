"""The suite's core modules under Pyodide (CPython 3.14 compiled to WebAssembly), in node.

The wheels the docs site ships (gaia-rules built from this tree, attrs, cattrs,
typing_extensions) and those of the test tools (pytest and its dependencies, made from the installed
distributions) are unpacked into Pyodide, the repository is mounted into its file system, and
pytest runs ``CORE`` there: the rules' modules, the golden games and the in-browser engine,
the same files as the suite, on the interpreter the browser runs.

    python scripts/pyodide_suite.py            # CORE
    python scripts/pyodide_suite.py tests/test_turn.py -x

Pyodide is the npm package the site's hook finds (``$GAIA_PYODIDE`` or ``.ci-node``); node
runs it. Exits with pytest's status.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ROOT / "docs" / "hooks"

CORE = [
    "tests/test_turn.py",
    "tests/test_drawing.py",
    "tests/test_nature.py",
    "tests/test_satisfaction.py",
    "tests/test_feeding.py",
    "tests/test_objectives.py",
    "tests/test_advanced.py",
    "tests/test_powers.py",
    "tests/test_protection.py",
    "tests/test_chance.py",
    "tests/test_golden.py",
    "tests/test_web_inbrowser.py",
    "tests/test_strong_bot.py",
]
"""The modules run under Pyodide: the rules section by section, the golden games and the
in-browser engine (no server, no process pool, no numpy; and no hypothesis, whose compiled part
Pyodide does not have: so pytest runs without ``tests/conftest.py``, which imports it)."""

TOOLS = ("pytest", "pluggy", "iniconfig", "packaging", "pygments")
"""The test tools' distributions, unpacked beside the library."""


def _hook(name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, HOOKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(HOOKS))
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str]) -> int:
    table = _hook("static_table")
    runtime: Path = table.pyodide_folder()  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as folder:
        wheels = Path(folder)
        made = [table.installed_wheel(name) for name in table.DEPENDENCIES]  # type: ignore[attr-defined]
        made += [table.installed_wheel(name, natives=True) for name in TOOLS]  # type: ignore[attr-defined]
        made.append(table.own_wheel())  # type: ignore[attr-defined]
        for name, content in made:
            (wheels / name).write_bytes(content)
        script = ROOT / "scripts" / "pyodide_suite.mjs"
        command = ["node", str(script), str(runtime), str(wheels), str(ROOT), *(argv or CORE)]
        return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
