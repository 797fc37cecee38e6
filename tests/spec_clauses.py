"""Traceability between ``spec/`` and the tests, both ways (spec README).

Run it to print which tests encode each clause::

    python tests/spec_clauses.py

The checks themselves are tests in ``tests/test_traceability.py``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
TESTS = ROOT / "tests"
SOURCE = ROOT / "src" / "gaia_rules"

CLAUSE_LINE = re.compile(r"^\*\*(\d+\.\d+[a-z]?)\*\*")
REFUSAL_CLAUSE = re.compile(r"Refusal\(\s*\"([^\"]+)\"")


def spec_clauses() -> dict[str, str]:
    """Every clause id of the spec, with the file it is in."""
    clauses: dict[str, str] = {}
    for path in sorted(SPEC.glob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            match = CLAUSE_LINE.match(line)
            if match:
                clauses[match.group(1)] = path.name
    return clauses


def _clause_ids(decorator: ast.expr, named: dict[str, list[str]]) -> list[str] | None:
    """The ids of a ``pytest.mark.clause(...)`` call, or ``None`` if it is not one.

    An argument is a literal id, or ``*NAME`` where ``NAME`` is a module-level tuple of
    literal ids (``named``), so a long list cited by several tests is written once.
    """
    if not isinstance(decorator, ast.Call):
        return None
    func = decorator.func
    if not (isinstance(func, ast.Attribute) and func.attr == "clause"):
        return None
    ids: list[str] = []
    for arg in decorator.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            ids.append(arg.value)
        elif isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name):
            ids += named.get(arg.value.id, [])
    return ids


def _named_id_tuples(tree: ast.Module) -> dict[str, list[str]]:
    """Module-level ``NAME = ("1.2", "3.4", ...)`` assignments of literal clause ids."""
    named: dict[str, list[str]] = {}
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if not isinstance(value, ast.Tuple):
            continue
        ids = [e.value for e in value.elts if isinstance(e, ast.Constant)]
        texts = [i for i in ids if isinstance(i, str)]
        if len(texts) != len(value.elts):
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                named[target.id] = texts
    return named


def cited_clauses() -> dict[str, list[str]]:
    """Every clause id cited by a test, with the tests citing it (``file::name``)."""
    cited: dict[str, list[str]] = defaultdict(list)
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = _named_id_tuples(tree)
        module_ids: list[str] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
            ):
                values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
                for value in values:
                    module_ids += _clause_ids(value, named) or []
        for item in ast.walk(tree):
            if isinstance(item, ast.FunctionDef | ast.ClassDef):
                ids = [i for d in item.decorator_list for i in (_clause_ids(d, named) or [])]
                if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                    ids += module_ids
                for clause in ids:
                    cited[clause].append(f"{path.name}::{item.name}")
    return dict(cited)


def refusal_clauses() -> dict[str, list[str]]:
    """Every clause id the engine's refusals name, with the modules naming it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SOURCE.rglob("*.py")):
        for clause in REFUSAL_CLAUSE.findall(path.read_text(encoding="utf-8")):
            found[clause].append(path.name)
    return dict(found)


def main() -> int:
    clauses = spec_clauses()
    cited = cited_clauses()
    width = max((len(c) for c in clauses), default=6)
    uncovered = 0
    for clause in sorted(clauses, key=_order):
        tests = sorted(set(cited.get(clause, [])))
        uncovered += not tests
        shown = ", ".join(tests) if tests else "-- no test --"
        print(f"{clause:<{width}}  {len(tests):>3}  {shown}")
    print(
        f"\n{len(clauses)} clauses, {len(clauses) - uncovered} covered, {uncovered} without a test"
    )
    return 0


def _order(clause: str) -> tuple[int, int, str]:
    section, rule = clause.split(".")
    digits = re.match(r"\d+", rule)
    assert digits is not None
    return int(section), int(digits.group()), rule[digits.end() :]


if __name__ == "__main__":
    sys.exit(main())
