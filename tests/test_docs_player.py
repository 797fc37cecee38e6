"""The site teaches a player: how-to-play pages per level, drawn examples on the clauses
that decide play, engine rules marked and kept out of the rules a player reads, and pages
whose code says how it runs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.loading import load_hook
from tests.test_docs_examples import DOCS, pages, python_blocks

ROOT = Path(__file__).resolve().parent.parent
PLAY = DOCS / "play"
PICTURE = re.compile(r"^<!-- gaia:picture (?P<name>[\w-]+) -->$", re.M)

spec_pages = load_hook("spec_pages")
pictures = load_hook("pictures")
disagreements_page = load_hook("disagreements_page")
cards_page = load_hook("cards_page")

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


# -- the player's pages hold no code and no word of the repository ----------------------------

PLAYER_PAGES = (PLAY, DOCS / "rules")
"""The pages players read: how to play, and the rules as players read them (the chapters,
the glossary, the card faces, the disagreements, the edge cases)."""

CODE = re.compile(
    r"`"  # a code span or a code block
    r"|\bgaia_rules\b|\bgr\.|\bRules\.|\b\w+\(\)"  # the library's names, a call
    r"|\b[a-z]+(?:_[a-z]+)+\b"  # a name of the code (star_animals_on_sea)
    r"|\b(?:spec|tests?|src|docs)/|\.(?:py|json|toml)\b"  # the repository's files
    r"|\btest suite\b|\brepository\b|\bPositionBuilder\b|\bIllegalActionError\b"
    r"|\bRULINGS\b"  # a document the site does not have: a ruling gives its reasons itself
)
"""What a player's page never shows: code, the repository it is built from, and documents
the site does not have."""

HIDDEN = re.compile(
    r"<!--.*?-->"  # a marker the build fills
    r"|<[^>]+>"  # an HTML tag, with its attributes
    r"|\]\([^)]*\)"  # the target of a link
    r"|\{[^}]*\}",  # attributes of a heading or a block
    re.S,
)
"""What a reader does not see of a page's Markdown."""


def player_pages(spec: Any) -> dict[str, str]:
    """Every page a player reads, as the build writes it: the hand-written pages of
    ``play/`` and ``rules/``, the chapters of the rules, the glossary, the page of every
    disagreement, and the pictures' step-by-step text."""
    found = {
        path.relative_to(DOCS).as_posix(): path.read_text(encoding="utf-8")
        for folder in PLAYER_PAGES
        for path in sorted(folder.rglob("*.md"))
    }
    for section in spec.sections:
        found[section.uri] = spec_pages.section_markdown(spec, section)
    found["rules/glossary.md"] = spec_pages.glossary_markdown(spec)
    items = disagreements_page.read_items(ROOT / "spec" / "disagreements.toml")
    found[disagreements_page.PAGE] = disagreements_page.page_markdown(items, spec)
    found["rules/index.md: the sections"] = spec_pages.sections_table(spec, "rules/index.md")
    found["rules/cards.md: the cards"] = cards_page.cards_markdown()
    found["rules/card-counts.md: the counts"] = cards_page.card_counts_markdown()
    for name in pictures.SITUATIONS:
        found[f"picture {name}"] = pictures.story_markdown(pictures.tell(name), "play/x.md")
    return found


def code_on(markdown: str) -> list[str]:
    """The code and the repository's words a reader would see on a page."""
    return CODE.findall(HIDDEN.sub(" ", markdown))


def test_the_check_finds_code_and_the_repository() -> None:
    assert code_on("Use `Rules.basic()`.") == ["`", "Rules.", "basic()", "`"]
    assert code_on("the switch star_animals_on_sea") == ["star_animals_on_sea"]
    assert code_on("see spec/07-nature.md, its .py file and the test suite") == [
        "spec/",
        ".py",
        "test suite",
    ]
    assert code_on("[the clause](../rules/07-nature.md#clause-7.2) {: #sun }") == []
    assert code_on("Under EMPTY_AT_TWO the city stands empty.") == []
    assert code_on("Ruling: RULINGS 30.") == ["RULINGS"]


def test_the_players_pages_hold_no_code_and_no_word_of_the_repository(spec: Any) -> None:
    found = {
        uri: hits for uri, markdown in player_pages(spec).items() if (hits := code_on(markdown))
    }
    assert not found, (
        "code, the repository or a document the site does not have on a player's page (say it "
        "in words there; the code's names go in an Engine: note of the spec, which the rules "
        f"pages link to reference/specification.md): {found}"
    )
