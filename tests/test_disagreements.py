"""Every disagreement of the rulebooks that the specification decides is on the site.

``spec/disagreements.toml`` lists each numbered item of the comparison of the rulebooks
(D: a disagreement or a point one rulebook alone adds; A: a point they leave open) with the
clauses that decide it; the docs build writes the page of every disagreement from it. These
tests check the file against the specification, the page against the file, and the file against
the comparison's list of items (``tests/rulebooks/comparison-items.txt``; where the comparison
itself sits beside the repository, ``shared/notes/rulebook-comparison.md``, the list against it).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import attrs

import gaia_rules as gr
from tests.loading import load_hook
from tests.spec_clauses import spec_clauses

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "spec" / "disagreements.toml"
COMPARISON = Path("shared") / "notes" / "rulebook-comparison.md"
ITEMS = ROOT / "tests" / "rulebooks" / "comparison-items.txt"
"""The comparison's numbered items, one a line (in the repository: a clone needs nothing else)."""

spec_pages = load_hook("spec_pages")
disagreements_page = load_hook("disagreements_page")


def items() -> list[dict[str, Any]]:
    return list(tomllib.loads(DATA.read_text(encoding="utf-8"))["item"])


def comparison() -> Path | None:
    """The comparison of the rulebooks, in ``shared/`` beside the repository, if there."""
    for folder in (ROOT.parent, ROOT.parent.parent):
        if (folder / COMPARISON).is_file():
            return folder / COMPARISON
    return None


def test_every_item_names_clauses_of_the_spec_and_real_switches() -> None:
    clauses = spec_clauses()
    switches = {f.name for f in attrs.fields(gr.Rules)} - {"level", "manifest"}
    seen = set()
    for item in items():
        assert re.fullmatch(r"[DA]\d+", item["id"]), item
        assert item["id"] not in seen, f"{item['id']} is listed twice"
        seen.add(item["id"])
        assert item["clauses"], f"{item['id']} names no clause"
        unknown = [c for c in item["clauses"] if c not in clauses]
        assert not unknown, f"{item['id']} cites clauses the spec does not have: {unknown}"
        assert item["answer"].strip(), item["id"]
        if "switch" in item:
            assert item["switch"] in switches, f"{item['id']}: no switch {item['switch']!r}"


def test_every_d_item_is_listed() -> None:
    ids = {item["id"] for item in items()}
    assert {f"D{n}" for n in range(1, 64)} <= ids


def test_the_page_shows_every_item_with_its_number_readings_default_and_switch() -> None:
    spec = spec_pages.read_spec(ROOT / "spec")
    parsed = disagreements_page.read_items(DATA)
    page = disagreements_page.page_markdown(parsed, spec)
    for item in parsed:
        block = page.split(f'id="{item.anchor}"', 1)[1].split("</div>", 1)[0]
        assert f"**{item.id}**" in block
        assert item.answer.rstrip(".") in block
        for clause in item.clauses:
            assert f"[{clause}](" in block
        for source, quote, _ in item.readings:
            assert f"- {source}: “{quote}”" in block
        if item.switch:
            name = disagreements_page.switch_name(item.switch)
            switch_page = spec_pages.SWITCH_PAGES[item.switch]
            assert f"Switch: [{name}]({switch_page})." in block
    assert page.count('<div class="disagreement"') == len(parsed)


def test_the_switch_items_quote_the_rulebooks() -> None:
    for item in items():
        if item["id"].startswith("D") and "switch" in item:
            assert len(item.get("readings", [])) >= 2, item["id"]


def comparison_items() -> set[str]:
    """The numbers of the comparison's items, from its list in the repository."""
    lines = ITEMS.read_text(encoding="utf-8").splitlines()
    return {line.split()[0] for line in lines if re.match(r"[DA]\d+ ", line)}


def test_the_file_matches_the_comparison_of_the_rulebooks() -> None:
    in_comparison = comparison_items()
    path = comparison()
    if path is not None:
        text = path.read_text(encoding="utf-8")
        notes = set(re.findall(r"^\*\*(D\d+) ", text, re.M))
        notes |= set(re.findall(r"^- \*\*(A\d+)\*\* ", text, re.M))
        assert in_comparison == notes, in_comparison ^ notes
    listed = {item["id"] for item in items()}
    d_items = {i for i in in_comparison if i.startswith("D")}
    assert d_items <= listed, f"disagreements missing from the site: {sorted(d_items - listed)}"
    assert listed <= in_comparison, f"items the comparison does not have: {listed - in_comparison}"
