"""The glossary (``spec/glossary.md``) is complete: every term the specification defines or
uses in a special sense has an entry, and every entry points to the clause that states it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.spec_clauses import spec_clauses

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
ENTRY = re.compile(r"^\*\*(?P<term>[^*]+)\*\*: (?P<meaning>.+)$", re.M)
CITED = re.compile(r"\b\d{1,2}\.\d{1,2}[a-z]?\b")

SPECIAL_TERMS = (
    "active player",
    "available",
    "cancelled player",
    "change",
    "covered",
    "credited",
    "emptied",
    "empty city",
    "engine rule",
    "exhausted",
    "free tile",
    "frontier",
    "kind in play",
    "out of the game",
    "pawns placed",
    "player to move",
    "position",
    "Power's player",
    "protector",
    "reached four needs",
    "record",
    "rival",
    "satisfaction",
    "settle",
    "slot",
    "state of a game",
    "stealing",
    "thief",
    "view",
    "wants",
)
"""Words the specification uses in a sense of its own; each must have an entry."""

ORDINARY_PLAYERS = {"next", "same", "green", "drawing", "other"}
"""Words before "player" that keep their everyday sense ("the next player")."""

POWERS = {"Sun", "Rain", "Earthquake", "Tornado", "Protection", "Lightning", "Eruption"}


def glossary() -> dict[str, str]:
    text = (SPEC / "glossary.md").read_text(encoding="utf-8")
    return {m["term"].lower(): m["meaning"] for m in ENTRY.finditer(text)}


def rules_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(SPEC.glob("[0-9][0-9]-*.md")))


@pytest.mark.parametrize("term", SPECIAL_TERMS)
def test_every_special_term_has_an_entry(term: str) -> None:
    assert term.lower() in glossary(), f"the glossary lacks {term!r}"


def test_the_special_terms_are_the_specifications_own_words() -> None:
    text = rules_text().lower()
    missing = [t for t in SPECIAL_TERMS if t.lower() not in text and t != "engine rule"]
    assert not missing, f"terms the spec no longer uses: {missing}"


def test_every_named_player_role_has_an_entry() -> None:
    # "the credited player", "the cancelled player", "the Power's player": a role the rules
    # give a player is a term of theirs, and the glossary must say what it means
    terms = glossary()
    roles = set(re.findall(r"\bthe ([A-Za-z']+) player\b", rules_text()))
    missing = []
    for found in sorted(roles):
        if found.lower() in ORDINARY_PLAYERS:
            continue
        role = "Power's" if found.removesuffix("'s") in POWERS else found
        if f"{role} player".lower() not in terms and role.lower() not in terms:
            missing.append(found)
    assert not missing, f"player roles without a glossary entry: {missing}"


def test_every_entry_points_to_a_clause_that_exists() -> None:
    clauses = spec_clauses()
    for term, meaning in glossary().items():
        cited = CITED.findall(meaning)
        assert cited, f"{term!r} cites no clause"
        unknown = [c for c in cited if c not in clauses]
        assert not unknown, f"{term!r} cites clauses the spec does not have: {unknown}"


def test_the_entries_are_in_alphabetical_order() -> None:
    terms = list(glossary())
    assert terms == sorted(terms)
