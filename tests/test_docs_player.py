"""The site teaches a player: how-to-play pages per level, drawn examples on the clauses
that decide play, engine rules marked and kept out of the rules a player reads, and pages
whose code says how it runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_docs_examples import DOCS, pages, python_blocks
from tests.test_docs_site import _load

ROOT = Path(__file__).resolve().parent.parent
PLAY = DOCS / "play"
PICTURE = re.compile(r"^<!-- gaia:picture (?P<name>[\w-]+) -->$", re.M)

spec_pages = _load("spec_pages")
pictures = _load("pictures")

DECIDING = ("8.3", "10.1", "10.5", "15.1", "15.2", "6.5a", "13.9b", "7.2", "9.2", "11.3", "12.2")
"""The clauses that decide play most; each has an example or a picture."""

PICTURED_SECTIONS = (6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
"""The sections whose rules are spatial or stepwise; each carries drawn examples."""

ENGINE_RULES = ("1.6", "1.7", "1.8", "1.9", "1.10", "2.9", "5.4", "13.10", "15.5")
ENGINE_WORDS = re.compile(r"to_move|\bseeds?\b|IllegalActionError|determiniz", re.I)


@pytest.fixture(scope="module")
def spec() -> Any:
    return spec_pages.read_spec(ROOT / "spec")


def clauses(spec: Any) -> dict[str, Any]:
    return {c.id: c for s in spec.sections for c in s.clauses}


@pytest.mark.parametrize("clause", DECIDING)
def test_the_clauses_that_decide_play_have_an_example(spec: Any, clause: str) -> None:
    labels = {label for label, _ in clauses(spec)[clause].notes}
    assert labels & {"Example", "Picture"}, f"{clause} has neither an example nor a picture"


@pytest.mark.parametrize("number", PICTURED_SECTIONS)
def test_every_spatial_or_stepwise_chapter_is_pictured(spec: Any, number: int) -> None:
    section = next(s for s in spec.sections if s.number == number)
    names = [name for clause in section.clauses for name in clause.pictures]
    assert names, f"section {number} has no picture"
    assert set(names) <= set(pictures.SITUATIONS)


def test_the_example_7_4_points_at_is_pictured(spec: Any) -> None:
    found = clauses(spec)
    assert "illustrated example under 10.1" in dict(found["7.4"].notes)["Example"]
    assert "basic-example" in found["10.1"].pictures


def test_engine_rules_are_marked(spec: Any) -> None:
    found = clauses(spec)
    for clause in ENGINE_RULES:
        assert found[clause].engine, clause
    assert all(c.engine for s in spec.sections if s.number == 16 for c in s.clauses)


def test_the_rules_a_player_reads_have_no_engine_words(spec: Any) -> None:
    words = {
        clause.id: ENGINE_WORDS.findall(clause.rule_text)
        for section in spec.sections
        for clause in section.clauses
        if not clause.engine
    }
    found = {clause: hits for clause, hits in words.items() if hits}
    assert not found, f"engine words in player rules (move them into Engine: notes): {found}"


def test_an_engine_rule_is_drawn_as_one(spec: Any) -> None:
    section = next(s for s in spec.sections if s.number == 16)
    markdown = spec_pages.section_markdown(spec, section)
    assert markdown.count('class="clause engine"') == len(section.clauses)
    assert "[engine]" not in markdown


LEVEL_PAGES = ("basic.md", "advanced.md", "powers.md", "disasters.md")


@pytest.mark.parametrize("page", LEVEL_PAGES)
def test_each_level_has_a_page_shown_by_pictures(page: str) -> None:
    text = (PLAY / page).read_text(encoding="utf-8")
    names = PICTURE.findall(text)
    assert names, f"play/{page} shows no position"
    assert set(names) <= set(pictures.SITUATIONS)
    assert "```python" not in text  # a player's page, not a programmer's


def test_the_turn_summary_and_the_illustrated_examples_are_there() -> None:
    turn = (PLAY / "turn.md").read_text(encoding="utf-8")
    for clause in ("[[11.1]]", "[[5.2]]", "[[10.1]]", "[[8.3]]", "[[15.1]]", "[[15.2]]"):
        assert clause in turn
    examples = set(PICTURE.findall((PLAY / "examples.md").read_text(encoding="utf-8")))
    assert {"basic-example", "advanced-example", "power-example-a", "lightning"} <= examples


def test_every_page_with_code_says_how_its_blocks_run() -> None:
    silent = []
    for page in pages():
        count = len(python_blocks(page))
        text = page.read_text(encoding="utf-8")
        if count > 1 and "run in order" not in text:
            silent.append(page.relative_to(DOCS).as_posix())
        if count == 1 and "runs alone" not in text and "run in order" not in text:
            silent.append(page.relative_to(DOCS).as_posix())
    assert not silent, f"pages that do not say how their examples run: {silent}"


def test_the_build_code_is_not_published() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^exclude_docs: \|\n  hooks/$", config, re.M)
