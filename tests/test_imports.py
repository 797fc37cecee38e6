"""The package's modules import one another without a circle, and values know nothing of the
converter, the notation, records or the drawing (the layers of STYLE.md: they never point up).

Every ``import`` and ``from ... import`` of every module under ``src/gaia_rules`` is read
with ``ast``, those inside functions included (a late import is still a dependency); only
imports under ``if TYPE_CHECKING:`` are left out, as they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "gaia_rules"

VALUES = (
    "actions",
    "cards",
    "decisions",
    "events",
    "information",
    "manifest",
    "rules",
    "state",
    "views",
    "vocabulary",
    "wire",
)
"""The modules of values that cross the API (with ``to_json()``, ``str()`` and the like)."""

ABOVE_VALUES = (
    "serialization",
    "actiondata",
    "notation",
    "record",
    "svg",
    "svg_cards",
    "schema",
)
"""The modules that read, write or draw values: they know the values, never the reverse."""


def _module_names() -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["gaia_rules", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


MODULES = _module_names()


def _without_type_checking(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []


def imports_of(name: str) -> set[str]:
    """The package's modules that module ``name`` imports (its parent packages left out:
    importing any module runs them first, which is no dependency of the module's own)."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    _without_type_checking(tree)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            named = [f"{module}.{alias.name}" for alias in node.names]
            submodules = [sub for sub in named if sub in MODULES]
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(module)
    return {
        module
        for module in found
        if module in MODULES and module != name and not name.startswith(module + ".")
    }


GRAPH = {name: imports_of(name) for name in MODULES}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph``, as the modules along it, or ``None``."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == 1:
                return [*path[path.index(imported) :], imported]
            if imported not in state and (found := visit(imported)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for imported in graph[todo.pop()]:
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return seen


def test_the_reader_sees_late_imports_and_the_core_modules() -> None:
    assert "gaia_rules.game" in GRAPH["gaia_rules.record"]
    assert {"gaia_rules.hooks", "gaia_rules.wire"} <= _reach(GRAPH, "gaia_rules.actions")
    late = ast.parse("def f():\n    from gaia_rules import notation\n")
    assert any(isinstance(node, ast.ImportFrom) for node in ast.walk(late))


def test_the_package_has_no_import_circle() -> None:
    assert _cycle(GRAPH) is None, " -> ".join(_cycle(GRAPH) or [])


def test_a_circle_would_be_found() -> None:
    graph = {name: set(imported) for name, imported in GRAPH.items()}
    graph["gaia_rules.wire"].add("gaia_rules.serialization")  # what Wire did before
    found = _cycle(graph)
    assert found is not None
    assert found[0] == found[-1]


@pytest.mark.parametrize("value", VALUES)
def test_a_value_module_knows_nothing_of_the_modules_that_read_and_write_values(
    value: str,
) -> None:
    reached = _reach(GRAPH, f"gaia_rules.{value}")
    above = {f"gaia_rules.{name}" for name in ABOVE_VALUES}
    assert not reached & above, sorted(reached & above)
