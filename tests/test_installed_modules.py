"""The modules of the installed package, pure or compiled, are where they say they are: every
module's ``__file__`` names a file that exists, and the compiled wheel's extension modules are
exactly the ones ``hatch_build.py`` compiles (the suite runs on both wheels)."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import pkgutil
import sys
from pathlib import Path

import gaia_rules

HATCH_BUILD = Path(__file__).resolve().parents[1] / "hatch_build.py"
"""The wheel's build hook, beside the tests in a clone and in the sdist."""

EXTENSION = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _core_modules() -> list[str]:
    """The modules directly in ``gaia_rules`` (the wings are packages, with extras of their
    own), each imported."""
    names = [
        f"gaia_rules.{info.name}"
        for info in pkgutil.iter_modules(gaia_rules.__path__)
        if not info.ispkg and info.name != "__main__"
    ]
    for name in names:
        importlib.import_module(name)
    return names


def _compiled_by_the_hook() -> set[str]:
    """The COMPILED tuple of ``hatch_build.py``, read without running the hook."""
    tree = ast.parse(HATCH_BUILD.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets
        ):
            return {f"gaia_rules.{name}" for name in ast.literal_eval(node.value)}
    raise AssertionError(f"{HATCH_BUILD} has no COMPILED")


def test_every_module_file_exists() -> None:
    """A module's ``__file__`` is the file it was loaded from: tools (coverage, debuggers,
    ``inspect``, importlib.resources) open it. mypyc derives it for a module imported from
    another compiled one, and a shared library in the wrong place gave paths that do not exist.
    """
    _core_modules()
    loaded = {
        name: module
        for name, module in sys.modules.items()
        if name == "gaia_rules" or name.startswith("gaia_rules.")
    }
    missing = {
        name: module.__file__
        for name, module in loaded.items()
        if module.__file__ is None or not Path(module.__file__).is_file()
    }
    assert not missing, missing


def test_the_compiled_modules_are_the_ones_the_hook_compiles() -> None:
    """In the compiled wheel, COMPILED are extension modules and nothing else is; in the pure
    wheel (and a clone) no module is."""
    names = _core_modules()
    compiled = {name for name in names if str(sys.modules[name].__file__).endswith(EXTENSION)}
    assert compiled in (set(), _compiled_by_the_hook()), compiled
