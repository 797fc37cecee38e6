"""The mkdocs build hooks of the site: the rules pages, pictures and card tables, generated
from ``spec/`` and the library at build time.

``on_files`` adds the virtual pages (one per spec section, the glossary) and the SVG
pictures; ``on_page_markdown`` fills the markers of the hand-written rules pages:
``<!-- gaia:sections -->`` (the table of sections), ``<!-- gaia:cards -->`` (every card
of both manifests), ``<!-- gaia:picture NAME -->`` (a pictured situation of
``pictures.py``) and ``[[7.2]]`` (a link to a clause), on the rules pages and on the
how-to-play pages (``play/``), and ``<!-- gaia:engine-notes -->`` (every ``Engine:`` note
of the specification) on the programmers' page of the specification. A marker that names
nothing fails the build; so does a ``Picture:`` line of a clause (spec/README.md) that
names no situation.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cards_page
import disagreements_page
import languages
import pictures
import spec_pages
from generated import AFTER_I18N, build_language, generated
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files, InclusionLevel
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[2]
SPEC_DIR = ROOT / "spec"

SECTIONS_MARKER = "<!-- gaia:sections -->"
CARDS_MARKER = "<!-- gaia:cards -->"
COUNTS_MARKER = "<!-- gaia:card-counts -->"
PICTURE_MARKER = re.compile(r"^<!-- gaia:picture (?P<name>[\w-]+) -->$", re.M)

_state: dict[str, Any] = {}


def _spec() -> spec_pages.Spec:
    spec = _state.get("spec")
    if not isinstance(spec, spec_pages.Spec):
        spec = spec_pages.read_spec(SPEC_DIR)
        _state["spec"] = spec
    return spec


@event_priority(AFTER_I18N)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated rules pages and every picture's SVG files."""
    try:
        spec = spec_pages.read_spec(SPEC_DIR)
    except spec_pages.SpecError as error:
        raise PluginError(f"spec/: {error}") from error
    _state["spec"] = spec
    for section in spec.sections:
        content = spec_pages.section_markdown(spec, section)
        files.append(generated(config, section.uri, content))
    glossary = spec_pages.glossary_markdown(spec)
    files.append(generated(config, f"{spec_pages.RULES_DIR}/glossary.md", glossary))
    try:
        items = disagreements_page.read_items(SPEC_DIR / "disagreements.toml")
        for item in items:
            for clause in item.clauses:
                if clause not in spec.clause_pages:
                    raise ValueError(f"{item.id} cites {clause}, which is no clause of spec/")
    except (KeyError, ValueError) as error:
        raise PluginError(f"spec/disagreements.toml: {error}") from error
    page = disagreements_page.page_markdown(items, spec)
    files.append(generated(config, disagreements_page.PAGE, page))
    language = build_language(config)
    for uri, svg in cards_page.card_files(language or "en").items():
        files.append(generated(config, uri, svg))
    told: dict[str, pictures.Story] = _state.get("stories", {})
    stories = {}
    for name in pictures.SITUATIONS:
        # another language's build draws the stories the default build just played
        known = told.get(name) if language is not None else None
        story = known if known is not None else pictures.tell(name)
        stories[name] = story
        for uri, svg in pictures.svg_files(story).items():
            files.append(generated(config, uri, svg))
        if language is not None:  # the translated pages' drawings, beside the English
            for uri, svg in pictures.svg_files(story, language).items():
                files.append(generated(config, uri, svg))
        if language is None:  # every language's "Try it" opens the root's copy
            for uri, text in pictures.try_files(story).items():
                files.append(generated(config, uri, text))
    _state["stories"] = stories
    if language is not None:
        for file in files.documentation_pages():
            if languages.root_only(file.src_uri):  # linked at the English site's root
                file.inclusion = InclusionLevel.EXCLUDED
                file.dest_uri = file.dest_uri.removeprefix(f"{language}/")
                file.__dict__.pop("url", None)  # mkdocs caches the url of the old dest_uri
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill the markers of a hand-written rules page (see the module docstring)."""
    uri = page.file.src_uri
    language = build_language(config)
    if language is not None and languages.localization(uri) is None:
        markdown = languages.english_only_note(markdown, language)
    if languages.TERMS_MARKER in markdown:
        table = languages.terms_markdown(language or "en", languages.read_terms())
        markdown = markdown.replace(languages.TERMS_MARKER, table)
    if uri == spec_pages.NOTES_PAGE:
        notes = spec_pages.engine_notes_markdown(_spec(), uri)
        return markdown.replace(spec_pages.ENGINE_NOTES_MARKER, notes)
    if not uri.startswith((f"{spec_pages.RULES_DIR}/", "play/")):
        return markdown
    spec = _spec()
    if page.file.generated_by is not None:  # a section's page: only its pictures to draw
        return _pictures(markdown, uri)
    try:
        markdown = spec_pages.expand_shorthand(markdown, spec, uri)
    except spec_pages.SpecError as error:
        raise PluginError(str(error)) from error
    if SECTIONS_MARKER in markdown:
        markdown = markdown.replace(SECTIONS_MARKER, spec_pages.sections_table(spec, uri))
    if CARDS_MARKER in markdown:
        pictured = languages.localization(uri) or "en"
        markdown = markdown.replace(CARDS_MARKER, cards_page.cards_markdown(pictured))
    if COUNTS_MARKER in markdown:
        markdown = markdown.replace(COUNTS_MARKER, cards_page.card_counts_markdown())
    return _pictures(markdown, uri)


def _pictures(markdown: str, uri: str) -> str:
    """Each ``<!-- gaia:picture NAME -->`` of ``markdown`` replaced by its frames."""
    stories: dict[str, pictures.Story] = _state.get("stories", {})

    def picture(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in stories:
            raise PluginError(f"{uri}: no pictured situation named {name!r} in pictures.py")
        language = languages.localization(uri)
        told = pictures.story_markdown(stories[name], uri, language or "en")
        return spec_pages.expand_shorthand(told, _spec(), uri)  # a refusal cites its clause

    return PICTURE_MARKER.sub(picture, markdown)
