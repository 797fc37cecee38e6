"""Traceability between ``spec/`` and the tests, both ways (spec README).

Run it to print which tests encode each clause, example tests and property tests (a
Hypothesis ``@given`` test or a state machine) apart::

    python tests/spec_clauses.py

A citation means "encodes": a test cites, with ``@pytest.mark.clause(...)`` on the test
itself, the clauses its assertions check. Module-wide marks (``pytestmark``) are not counted
and are refused by the traceability test.

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


def _is_given(decorator: ast.expr) -> bool:
    """Whether a decorator is Hypothesis's ``@given(...)``."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(func, ast.Name) and func.id == "given") or (
        isinstance(func, ast.Attribute) and func.attr == "given"
    )


def _is_state_machine(node: ast.ClassDef) -> bool:
    """Whether a class is a Hypothesis state machine's test case (``Machine.TestCase``)."""
    return any(isinstance(base, ast.Attribute) and base.attr == "TestCase" for base in node.bases)


def _module_marks(tree: ast.Module, named: dict[str, list[str]]) -> list[str]:
    """The clause ids a module-wide ``pytestmark`` cites (none are allowed: a citation says
    what one test's assertions check)."""
    ids: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            values = node.value.elts if isinstance(node.value, ast.List) else [node.value]
            for value in values:
                ids += _clause_ids(value, named) or []
    return ids


def modules_of_tests() -> list[Path]:
    """Every test module, in every folder under ``tests/`` (new ones included)."""
    return sorted(TESTS.rglob("test_*.py"))


def citations() -> dict[str, dict[str, list[str]]]:
    """Every clause id cited by a test, with the tests citing it (``file::name``), split into
    ``"property"`` tests (a Hypothesis ``@given`` test, or a state machine) and ``"example"``
    tests (every other test)."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: {"example": [], "property": []})
    for path in modules_of_tests():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named = _named_id_tuples(tree)
        name = path.relative_to(TESTS).as_posix()
        for item in ast.walk(tree):
            if isinstance(item, ast.FunctionDef | ast.ClassDef):
                ids = [i for d in item.decorator_list for i in (_clause_ids(d, named) or [])]
                if isinstance(item, ast.ClassDef):
                    prop = _is_state_machine(item)
                else:
                    prop = any(_is_given(d) for d in item.decorator_list)
                for clause in ids:
                    found[clause]["property" if prop else "example"].append(f"{name}::{item.name}")
    return dict(found)


def cited_clauses() -> dict[str, list[str]]:
    """Every clause id cited by a test, with the tests citing it (``file::name``)."""
    return {
        clause: sorted(tests["example"] + tests["property"])
        for clause, tests in citations().items()
    }


def module_wide_marks() -> dict[str, list[str]]:
    """Each test module that cites clauses module-wide, with the ids it cites."""
    found: dict[str, list[str]] = {}
    for path in modules_of_tests():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        ids = _module_marks(tree, _named_id_tuples(tree))
        if ids:
            found[path.relative_to(TESTS).as_posix()] = ids
    return found


def refusal_clauses() -> dict[str, list[str]]:
    """Every clause id the engine's refusals name, with the modules naming it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SOURCE.rglob("*.py")):
        for clause in REFUSAL_CLAUSE.findall(path.read_text(encoding="utf-8")):
            found[clause].append(path.name)
    return dict(found)


def main() -> int:
    clauses = spec_clauses()
    cited = citations()
    width = max((len(c) for c in clauses), default=6)
    uncovered = by_property = 0
    print(f"{'clause':<{width}}  example  property  tests (property tests marked *)")
    for clause in sorted(clauses, key=_order):
        tests = cited.get(clause, {"example": [], "property": []})
        examples, properties = sorted(set(tests["example"])), sorted(set(tests["property"]))
        uncovered += not (examples or properties)
        by_property += bool(properties)
        shown = ", ".join([f"*{t}" for t in properties] + examples) or "-- no test --"
        print(f"{clause:<{width}}  {len(examples):>7}  {len(properties):>8}  {shown}")
    print(
        f"\n{len(clauses)} clauses, {len(clauses) - uncovered} covered, {uncovered} without a "
        f"test; {by_property} encoded by a property test"
    )
    return 0


def _order(clause: str) -> tuple[int, int, str]:
    section, rule = clause.split(".")
    digits = re.match(r"\d+", rule)
    assert digits is not None
    return int(section), int(digits.group()), rule[digits.end() :]


if __name__ == "__main__":
    sys.exit(main())
