"""Importing the project's files that are no module of a package: the docs site's hooks, the
scripts, the benchmarks and the examples, which the tests read as modules."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ROOT / "docs" / "hooks"


def load_file(name: str, path: Path, *, folder_on_path: bool = False) -> ModuleType:
    """The file at ``path`` imported as the module ``name``, once a test session. With
    ``folder_on_path`` its folder is on ``sys.path`` while it loads, so that it imports its
    neighbours as it does where it runs (mkdocs puts a hook's folder there)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if folder_on_path:
        sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        if folder_on_path:
            sys.path.remove(str(path.parent))
    return module


def load_hook(name: str) -> ModuleType:
    """One of the docs site's hooks, imported as mkdocs imports it."""
    return load_file(name, HOOKS / f"{name}.py", folder_on_path=True)
