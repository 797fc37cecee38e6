"""The spec and the tests point at each other, and neither points at nothing (spec README)."""

from __future__ import annotations

import pytest

from tests.spec_clauses import cited_clauses, refusal_clauses, spec_clauses

pytestmark = pytest.mark.clause("1.7")


def test_the_spec_has_clauses() -> None:
    assert len(spec_clauses()) > 50


def test_every_cited_clause_exists() -> None:
    clauses = spec_clauses()
    unknown = {c: tests for c, tests in cited_clauses().items() if c not in clauses}
    assert not unknown, f"tests cite clauses the spec does not have: {unknown}"


def test_every_refusal_names_a_clause_of_the_spec() -> None:
    clauses = spec_clauses()
    unknown = {c: where for c, where in refusal_clauses().items() if c not in clauses}
    assert not unknown, f"the engine refuses with clauses the spec does not have: {unknown}"


def test_every_clause_has_a_test() -> None:
    cited = cited_clauses()
    missing = sorted(c for c in spec_clauses() if c not in cited)
    assert not missing, f"clauses no test encodes: {missing}"
