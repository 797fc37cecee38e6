"""The build hooks of the docs site (``docs/hooks/``): every clause of ``spec/`` gets its
anchor, the cited clause ids become links that resolve, every card of both manifests is on
the card faces page, and every pictured situation plays. Building the whole site is the
job of CI (``.ci/run``), not of these tests."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

import pytest

import gaia_rules as gr
from tests.loading import load_hook
from tests.spec_clauses import spec_clauses

ROOT = Path(__file__).resolve().parent.parent
HOOKS = ROOT / "docs" / "hooks"
RULES_PAGES = ROOT / "docs" / "rules"


spec_pages = load_hook("spec_pages")
cards_page = load_hook("cards_page")
pictures = load_hook("pictures")


@pytest.fixture(scope="module")
def spec() -> Any:
    return spec_pages.read_spec(ROOT / "spec")


@pytest.fixture(scope="module")
def pages(spec: Any) -> dict[str, str]:
    """Every generated rules page, by its path in the site."""
    generated = {s.uri: spec_pages.section_markdown(spec, s) for s in spec.sections}
    generated["rules/glossary.md"] = spec_pages.glossary_markdown(spec)
    return generated


def test_every_clause_of_the_spec_gets_exactly_one_anchor_on_its_sections_page(
    spec: Any, pages: dict[str, str]
) -> None:
    clauses = spec_clauses()
    assert set(spec.clause_pages) == set(clauses)
    for clause, file in clauses.items():
        uri = f"rules/{file.removesuffix('.md')}.md"
        assert spec.clause_pages[clause] == uri
        for page, markdown in pages.items():
            expected = 1 if page == uri else 0
            assert markdown.count(f'id="clause-{clause}"') == expected, (clause, page)


def test_one_page_per_section_in_order_with_its_title(spec: Any) -> None:
    stems = [path.stem for path in sorted((ROOT / "spec").glob("[0-9][0-9]-*.md"))]
    assert [s.stem for s in spec.sections] == stems
    assert [s.number for s in spec.sections] == list(range(1, len(stems) + 1))
    assert spec.sections[6].title == "7. Nature"
    assert spec_pages.section_markdown(spec, spec.sections[6]).startswith("# 7. Nature\n")


def test_every_clause_link_on_the_generated_pages_resolves_to_an_anchor(
    pages: dict[str, str],
) -> None:
    links = 0
    for page, markdown in pages.items():
        for match in re.finditer(r"\]\((?P<target>[^)#\s]*)#clause-(?P<id>[0-9.a-z]+)\)", markdown):
            target = match["target"]
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
            resolved = page if not target else resolved
            assert resolved in pages, (page, match.group(0))
            assert f'id="clause-{match["id"]}"' in pages[resolved], (page, match.group(0))
            links += 1
    assert links > 500  # the spec cites itself densely: the links are really made


def test_every_clause_id_cited_in_the_spec_text_becomes_a_link(
    spec: Any, pages: dict[str, str]
) -> None:
    for section in spec.sections:
        for clause in section.clauses:
            texts = [clause.text] + [text for label, text in clause.notes if label != "Switch"]
            for text in texts:
                linked = spec_pages.link_clauses(text, spec, section.uri)
                plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", "", linked)
                plain = re.sub(r"`[^`]*`", "", plain)
                left = [
                    m["id"]
                    for m in spec_pages.CLAUSE_REF.finditer(plain)
                    if m["id"] in spec_clauses()
                ]
                assert left == [], (clause.id, left)


def test_cross_references_link_only_clauses_that_exist_and_leave_code_alone(spec: Any) -> None:
    text = "See (7.2), 13.8b and 10.1(f); not 99.1, 601.2 or `Rules.edition` 7.1."
    linked = spec_pages.link_clauses(text, spec, "rules/07-nature.md")
    assert linked == (
        "See ([7.2](#clause-7.2)), [13.8b](13-powers.md#clause-13.8b) and "
        "[10.1](10-satisfaction.md#clause-10.1)(f); not 99.1, 601.2 or `Rules.edition` "
        "[7.1](#clause-7.1)."
    )
    elsewhere = spec_pages.link_clauses("(section 13)", spec, "rules/disagreements/x.md")
    assert elsewhere == "([section 13](../13-powers.md))"


def test_the_shorthand_of_hand_written_pages_links_a_clause_and_refuses_an_unknown_one(
    spec: Any,
) -> None:
    page = "rules/disagreements/feeding.md"
    assert spec_pages.expand_shorthand("[[11.2]]", spec, page) == (
        "[11.2](../11-feeding.md#clause-11.2)"
    )
    with pytest.raises(spec_pages.SpecError, match=r"\[\[11\.9\]\] names no clause"):
        spec_pages.expand_shorthand("[[11.9]]", spec, page)


def test_every_shorthand_on_the_hand_written_rules_pages_names_a_clause(spec: Any) -> None:
    for path in sorted(RULES_PAGES.rglob("*.md")):
        uri = path.relative_to(ROOT / "docs").as_posix()
        spec_pages.expand_shorthand(path.read_text(encoding="utf-8"), spec, uri)


def test_each_switch_line_links_to_the_page_of_its_switch(spec: Any, pages: dict[str, str]) -> None:
    switches = {
        re.match(r"`Rules\.(\w+)`", text).group(1)  # type: ignore[union-attr]
        for section in spec.sections
        for clause in section.clauses
        for label, text in clause.notes
        if label == "Switch"
    }
    assert switches == set(spec_pages.SWITCH_PAGES)
    assert switches == {f.name for f in gr.Rules.__attrs_attrs__} - {"level", "manifest"}
    for name, page in spec_pages.SWITCH_PAGES.items():
        assert (RULES_PAGES / "disagreements" / page).is_file(), name
        assert any(f"disagreements/{page})" in markdown for markdown in pages.values()), name


def test_the_glossary_gives_each_term_an_anchor_and_the_rulebooks_words(spec: Any) -> None:
    glossary = spec_pages.glossary_markdown(spec)
    terms = {t.term: t for t in spec.glossary}
    raw = (ROOT / "spec" / "glossary.md").read_text(encoding="utf-8")
    assert len(terms) == raw.count("\n**")
    for term in terms.values():
        assert glossary.count(f'id="{term.slug}"') == 1
    assert dict(terms["action"].words) == {"DE": "Aktion", "FR": "action", "HU": "akció"}
    assert dict(terms["face"].words)["DE"] == "offen, verdeckt"
    assert terms["frontier"].missing() == ("DE", "FR", "HU")
    assert "(see [5.2](05-turn.md#clause-5.2))" in glossary


def test_the_sections_table_lists_every_section_with_its_level(spec: Any) -> None:
    table = spec_pages.sections_table(spec, "rules/index.md")
    for section in spec.sections:
        assert f"[{section.title}]({section.stem}.md) | {section.level} |" in table
    assert "| advanced |" in table and "| disasters |" in table


@pytest.mark.parametrize("edition", list(gr.Edition))
def test_every_card_of_each_manifest_is_on_the_cards_page(edition: gr.Edition) -> None:
    page = cards_page.cards_markdown()
    tab = page.split(f'=== "{edition.name} edition')[1].split("\n=== ")[0]
    manifest = gr.Manifest.builtin(edition)
    rows = re.findall(r"^    \| ([NCAPO]\d\d) \|", tab, re.M)
    assert sorted(rows) == sorted(card for card, _ in manifest.cards)
    assert ("| C19 | Venice | sea |" in tab) is (edition is gr.Edition.THIRD)


def test_the_cards_page_says_which_faces_are_reconstructed() -> None:
    tables = cards_page.edition_markdown(gr.Manifest.builtin(gr.Edition.THIRD))
    rows = {
        line.split(" | ")[0].strip("| "): line
        for line in tables.splitlines()
        if re.match(r"\| [NCAPO]\d\d \|", line)
    }
    assert rows["N01"].endswith("| stated |")
    assert rows["P24"].endswith("| disasters | stated |")
    assert rows["O08"].endswith("| stated |")
    assert rows["C01"].endswith("| reconstructed |")
    assert rows["A10"].endswith("| reconstructed |")
    assert rows["O01"].endswith("| reconstructed |")
    assert "site stated (EN)" in rows["C19"]


def test_every_pictured_situation_plays_and_every_picture_marker_names_one(spec: Any) -> None:
    used = set()
    for path in sorted([*RULES_PAGES.rglob("*.md"), *(ROOT / "docs" / "play").rglob("*.md")]):
        used |= set(re.findall(r"<!-- gaia:picture ([\w-]+) -->", path.read_text("utf-8")))
    used |= {name for s in spec.sections for c in s.clauses for name in c.pictures}
    assert used == set(pictures.SITUATIONS)
    for name in sorted(pictures.SITUATIONS):
        story = pictures.tell(name)
        files = pictures.svg_files(story)
        assert all(svg.startswith("<svg") for svg in files.values())
        markdown = pictures.story_markdown(story, "rules/edge-cases.md")
        for uri in files:
            assert f"]({uri.removeprefix('rules/')})" in markdown
        assert story.frames or story.log, name
