"""The spec and the tests point at each other, and neither points at nothing (spec README).

A citation means "encodes": each test cites, on itself, the clauses its assertions check, so
no module cites clauses for all its tests at once; and most clauses are encoded by a property
test (Hypothesis, or a state machine), not only by examples.
"""

from __future__ import annotations

import pytest

from tests.spec_clauses import citations, module_wide_marks, refusal_clauses, spec_clauses

PROPERTY_CLAUSES_AT_LEAST = 90
"""How many clauses must be encoded by at least one property test."""


def test_the_spec_has_clauses() -> None:
    assert len(spec_clauses()) > 50


def test_every_cited_clause_exists() -> None:
    clauses = spec_clauses()
    unknown = {c: tests for c, tests in citations().items() if c not in clauses}
    assert not unknown, f"tests cite clauses the spec does not have: {unknown}"


@pytest.mark.clause("1.7")
def test_every_refusal_names_a_clause_of_the_spec() -> None:
    clauses = spec_clauses()
    unknown = {c: where for c, where in refusal_clauses().items() if c not in clauses}
    assert not unknown, f"the engine refuses with clauses the spec does not have: {unknown}"


def test_every_clause_has_a_test() -> None:
    cited = citations()
    missing = sorted(c for c in spec_clauses() if c not in cited)
    assert not missing, f"clauses no test encodes: {missing}"


def test_no_module_cites_clauses_for_all_its_tests() -> None:
    assert module_wide_marks() == {}, "cite clauses on each test, not with pytestmark"


def test_most_clauses_are_encoded_by_a_property_test() -> None:
    cited = citations()
    by_property = sorted(c for c in spec_clauses() if cited.get(c, {}).get("property"))
    assert len(by_property) >= PROPERTY_CLAUSES_AT_LEAST, (
        f"{len(by_property)} clauses encoded by a property test: {by_property}"
    )
