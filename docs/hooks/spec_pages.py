"""The rules reference pages, written from ``spec/``: one page per section, the glossary.

Every clause (a paragraph that begins with its bold id, ``**7.2**``) becomes a block with
the anchor ``clause-7.2``; every clause id cited in the text ("(7.2)", "13.8b", "10.1(f)")
becomes a link to that anchor when the clause exists. The functions here are pure: they
read text and return Markdown, so the build hook and the tests call them alike.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

RULES_DIR = "rules"
"""Where the generated pages live in the site (``rules/07-nature.md``)."""

CLAUSE_LINE = re.compile(r"^\*\*(?P<id>\d{1,2}\.\d{1,2}[a-z]?)\*\*\s*(?P<text>.*)$")
"""The first line of a clause: its id in bold, then its text."""

CLAUSE_REF = re.compile(r"(?<![\w.#/-])(?P<id>\d{1,2}\.\d{1,2}[a-z]?)(?![\w-]|\.\d)")
"""A clause id cited in running text."""

SECTION_REF = re.compile(r"(?<![\w.])(?P<word>[Ss]ection) (?P<number>\d{1,2})(?![\w.]|–)")
"""A section cited alone ("section 13"), not a list or a range of them."""

SHORTHAND = re.compile(r"\[\[(?P<id>\d{1,2}\.\d{1,2}[a-z]?)\]\]")
"""``[[7.2]]`` in a hand-written rules page: a link to that clause."""

CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")

LABELS = ("Sources", "Ruling", "Switch", "Example", "Picture", "Engine")
"""The lines that may follow a clause's text (spec/README.md)."""

ENGINE_TAG = "[engine]"
"""The first word of an engine rule: a rule every implementation needs and a player may
skip (spec/README.md)."""

PICTURE_NAME = re.compile(r"^[\w-]+$")
"""A ``Picture:`` line names one pictured situation of the build (``docs/hooks/pictures.py``)."""

SWITCH_PAGES = {
    "edition": "edition.md",
    "feeding": "feeding.md",
    "star_animals_on_sea": "star-animals-on-sea.md",
    "objectives": "objectives.md",
    "four_need_drop": "four-need-drop.md",
    "lightnings": "lightnings.md",
    "eruption_on_city": "eruption-on-city.md",
}
"""Each ``Rules`` switch and its page under ``rules/disagreements/``."""

SWITCH_NAMES = {
    "edition": "the edition",
    "feeding": "the feeding",
    "star_animals_on_sea": "star animals on sea",
    "objectives": "the Objectives",
    "four_need_drop": "the fall from four needs",
    "lightnings": "the Lightnings",
    "eruption_on_city": "eruption on a city",
}
"""Each switch as the rules name it for players (spec 1.3), where the engine names it by
its ``Rules`` field."""

NOTES_PAGE = "reference/specification.md"
"""The programmers' page of the specification, where every ``Engine:`` note is listed by
clause (the rules pages link each note there instead of showing it)."""

ENGINE_NOTES_MARKER = "<!-- gaia:engine-notes -->"
"""The marker that page holds, which the build fills with every ``Engine:`` note."""

LEVELS = {
    12: "advanced",
    13: "powers",
    14: "disasters",
}
"""The sections that belong to a level above the basic one (spec 1.2)."""


class SpecError(ValueError):
    """The specification's text breaks a rule of its own format (spec/README.md)."""


@dataclass(frozen=True)
class Clause:
    """One clause: its id, its text, and the lines that follow it (Sources, Ruling, ...)."""

    id: str
    text: str
    notes: tuple[tuple[str, str], ...]

    @property
    def engine(self) -> bool:
        """Whether this is an engine rule, which a player may skip (spec/README.md)."""
        return self.text.startswith(ENGINE_TAG)

    @property
    def rule_text(self) -> str:
        """The clause's text without the engine tag."""
        return self.text.removeprefix(ENGINE_TAG).lstrip()

    @property
    def pictures(self) -> tuple[str, ...]:
        """The pictured situations that illustrate the clause, in order."""
        return tuple(text for label, text in self.notes if label == "Picture")


@dataclass(frozen=True)
class Section:
    """One file of ``spec/``: its number, file stem, title and clauses, in order."""

    number: int
    stem: str
    title: str
    summary: str
    clauses: tuple[Clause, ...]

    @property
    def uri(self) -> str:
        """The page of this section in the site, e.g. ``rules/07-nature.md``."""
        return f"{RULES_DIR}/{self.stem}.md"

    @property
    def level(self) -> str:
        """The rule level that brings this section in (spec 1.2)."""
        return LEVELS.get(self.number, "basic")


@dataclass(frozen=True)
class Term:
    """One glossary entry: the term, its meaning (with its clause references) and the words
    of the DE, FR and HU rulebooks that the glossary gives (a language it gives no word
    for is missing from ``words``)."""

    term: str
    meaning: str
    words: tuple[tuple[str, str], ...]

    @property
    def slug(self) -> str:
        """The anchor of the entry on the glossary page, e.g. ``term-active-player``."""
        return "term-" + re.sub(r"[^a-z0-9]+", "-", self.term.lower()).strip("-")

    def missing(self) -> tuple[str, ...]:
        """The languages among DE, FR and HU for which the glossary gives no word."""
        have = {language for language, _ in self.words}
        return tuple(language for language in ("DE", "FR", "HU") if language not in have)


@dataclass(frozen=True)
class Spec:
    """The whole specification: its sections, glossary and the page of every clause."""

    sections: tuple[Section, ...]
    glossary: tuple[Term, ...]
    glossary_intro: str

    @property
    def clause_pages(self) -> dict[str, str]:
        """Every clause id and the site page that holds it."""
        return {c.id: s.uri for s in self.sections for c in s.clauses}

    def clause_link(self, clause: str, from_uri: str) -> str:
        """The link from the page ``from_uri`` to the anchor of ``clause``.

        Raises ``KeyError`` if there is no such clause.
        """
        target = self.clause_pages[clause]
        anchor = f"#clause-{clause}"
        return anchor if target == from_uri else relative(from_uri, target) + anchor


def relative(from_uri: str, to_uri: str) -> str:
    """The relative link from one page of the site to another (both given from the root)."""
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")


# -- reading ---------------------------------------------------------------------------------


def read_spec(spec_dir: Path) -> Spec:
    """Read every section file and the glossary of ``spec_dir``.

    Raises :class:`SpecError` when a file breaks the clause format, or when a clause id is
    used twice.
    """
    summaries = _summaries((spec_dir / "README.md").read_text(encoding="utf-8"))
    sections = []
    for path in sorted(spec_dir.glob("[0-9][0-9]-*.md")):
        sections.append(_read_section(path, summaries.get(path.name, "")))
    seen: dict[str, str] = {}
    for section in sections:
        for clause in section.clauses:
            if clause.id in seen:
                raise SpecError(f"clause {clause.id} is in {seen[clause.id]} and {section.stem}")
            seen[clause.id] = section.stem
    intro, terms = _read_glossary((spec_dir / "glossary.md").read_text(encoding="utf-8"))
    return Spec(tuple(sections), terms, intro)


def _summaries(readme: str) -> dict[str, str]:
    """The one-line summary of each section file, from the README's table of contents."""
    found = {}
    for match in re.finditer(
        r"^\| \[(?P<file>[^\]]+)\]\([^)]*\) \| (?P<what>.+) \|$", readme, re.M
    ):
        found[match["file"]] = match["what"]
    return found


def _read_section(path: Path, summary: str) -> Section:
    blocks = [b.strip() for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    heading = re.fullmatch(r"# (?P<number>\d+)\. (?P<title>.+)", blocks[0])
    if heading is None:
        raise SpecError(f"{path.name}: expected '# N. Title' first, got {blocks[0][:40]!r}")
    number = int(heading["number"])
    clauses = []
    for block in blocks[1:]:
        lines = block.split("\n")
        first = CLAUSE_LINE.match(lines[0])
        if first is None:
            raise SpecError(f"{path.name}: a paragraph that is not a clause: {lines[0][:60]!r}")
        if not first["id"].startswith(f"{number}."):
            raise SpecError(f"{path.name}: clause {first['id']} is not of section {number}")
        notes = []
        for line in lines[1:]:
            label, _, rest = line.partition(": ")
            if label not in LABELS:
                raise SpecError(f"{path.name}: {first['id']}: unexpected line {line[:60]!r}")
            if label == "Picture" and not PICTURE_NAME.match(rest):
                raise SpecError(f"{path.name}: {first['id']}: a picture's name, not {rest!r}")
            notes.append((label, rest))
        clauses.append(Clause(first["id"], first["text"], tuple(notes)))
    return Section(number, path.stem, f"{number}. {heading['title']}", summary, tuple(clauses))


_TERM_LINE = re.compile(r"^\*\*(?P<term>[^*]+)\*\*: (?P<rest>.+)$")
_WORDS_TAIL = re.compile(r"^(?P<meaning>.*\(see [^)]*\)\.)\s*(?P<tail>.*)$")
_LANGUAGE = re.compile(r"(?:^|[,;]\s*)(DE|FR|HU)\s+")


def _read_glossary(text: str) -> tuple[str, tuple[Term, ...]]:
    blocks = [b.strip() for b in text.split("\n\n") if b.strip()]
    intro = "\n\n".join(b for b in blocks[1:] if not b.startswith("**"))
    terms = []
    for block in blocks:
        match = _TERM_LINE.match(block)
        if match is None:
            continue
        terms.append(parse_term(match["term"], match["rest"]))
    return intro, tuple(terms)


def parse_term(term: str, rest: str) -> Term:
    """Split a glossary entry's text into its meaning and the DE, FR and HU words after it."""
    split = _WORDS_TAIL.match(rest)
    if split is None or not split["tail"]:
        return Term(term, rest, ())
    parts = _LANGUAGE.split(split["tail"])
    if parts[0].strip():  # the tail is not a list of words: keep it in the meaning
        return Term(term, rest, ())
    words = []
    for language, word in zip(parts[1::2], parts[2::2], strict=True):
        words.append((language, word.strip().rstrip(".").strip()))
    return Term(term, split["meaning"], tuple(words))


# -- links -----------------------------------------------------------------------------------


def _outside_code(text: str, replace: re.Pattern[str], make: Callable[[re.Match[str]], str]) -> str:
    """Apply ``replace.sub(make, ...)`` to the text outside code spans and existing links."""
    protected = re.compile(f"{CODE_SPAN.pattern}|{MARKDOWN_LINK.pattern}")
    out = []
    position = 0
    for match in protected.finditer(text):
        out.append(replace.sub(make, text[position : match.start()]))
        out.append(match.group(0))
        position = match.end()
    out.append(replace.sub(make, text[position:]))
    return "".join(out)


def link_clauses(text: str, spec: Spec, from_uri: str) -> str:
    """Turn every clause id cited in ``text`` into a link to its anchor, and every single
    section cited ("section 13") into a link to its page. Ids that are not clauses of the
    specification stay plain text; code spans and existing links are left alone."""
    pages = spec.clause_pages

    def clause(match: re.Match[str]) -> str:
        ident = match["id"]
        if ident not in pages:
            return ident
        return f"[{ident}]({spec.clause_link(ident, from_uri)})"

    numbers = {s.number: s.uri for s in spec.sections}

    def section(match: re.Match[str]) -> str:
        number = int(match["number"])
        if number not in numbers:
            return match.group(0)
        return f"[{match['word']} {number}]({relative(from_uri, numbers[number])})"

    text = _outside_code(text, CLAUSE_REF, clause)
    return _outside_code(text, SECTION_REF, section)


def expand_shorthand(markdown: str, spec: Spec, from_uri: str) -> str:
    """Replace each ``[[7.2]]`` of a hand-written page with a link to clause 7.2.

    Raises :class:`SpecError` naming the page for an id that is not a clause.
    """

    def link(match: re.Match[str]) -> str:
        ident = match["id"]
        if ident not in spec.clause_pages:
            raise SpecError(f"{from_uri}: [[{ident}]] names no clause of spec/")
        return f"[{ident}]({spec.clause_link(ident, from_uri)})"

    return SHORTHAND.sub(link, markdown)


# -- pages -----------------------------------------------------------------------------------


def section_markdown(spec: Spec, section: Section) -> str:
    """The Markdown of one section's page: every clause in a block with its anchor."""
    uri = section.uri
    out = [
        f"# {section.title}",
        "",
        f'<p class="spec-source">Level: <strong>{section.level}</strong> · '
        f"{len(section.clauses)} clauses</p>",
        "",
    ]
    engine = sum(clause.engine for clause in section.clauses)
    if engine:
        out += [
            f'<p class="spec-engine-note">{engine} of these clauses are <span '
            'class="engine-badge">engine rules</span>: what every implementation needs and '
            "no rulebook states. A player may skip them.</p>",
            "",
        ]
    for clause in section.clauses:
        out += clause_markdown(spec, clause, uri)
    return "\n".join(out)


def clause_markdown(spec: Spec, clause: Clause, uri: str) -> list[str]:
    """The lines of one clause's block: anchor, id, text and its notes.

    An engine rule gets the class ``engine`` and says that a player may skip it; an
    ``Engine:`` note, which names the engine's code, stays off the players' page: a link
    leads to it on the programmers' page of the specification (:data:`NOTES_PAGE`); a
    ``Switch:`` line names the switch and its readings in words; a ``Picture:`` line
    becomes the marker of its pictured situation, which the build fills in
    (``gaia_site.py``).
    """
    kind = "clause engine" if clause.engine else "clause"
    badge = (
        '<span class="engine-badge" title="A rule of the engine: a player may skip it">'
        "engine rule</span> "
        if clause.engine
        else ""
    )
    out = [
        f'<div class="{kind}" id="clause-{clause.id}" markdown>',
        "",
        f'[{clause.id}](#clause-{clause.id}){{ .clause-id title="Clause {clause.id}" }} '
        + badge
        + link_clauses(clause.rule_text, spec, uri),
        "",
    ]
    for label, text in clause.notes:
        if label == "Picture":
            continue  # drawn after every other note
        if label == "Engine":
            continue  # on the programmers' page, linked below
        body = _switch_text(text, uri) if label == "Switch" else link_clauses(text, spec, uri)
        out += [f"**{label}:** {body}", f"{{ .clause-{label.lower()} }}", ""]
    for name in clause.pictures:
        out += [f"<!-- gaia:picture {name} -->", ""]
    if any(label == "Engine" for label, _ in clause.notes):
        link = relative(uri, NOTES_PAGE) + f"#engine-{clause.id}"
        out += [
            f"[How the engine names this, for programmers]({link}){{ .clause-engine-link }}",
            "",
        ]
    out += ["</div>", ""]
    return out


SWITCH_LINE = re.compile(r"^`Rules\.(?P<name>\w+)` = (?P<values>.+)$")
"""A ``Switch:`` line of the specification (spec/README.md)."""


def switch_words(text: str) -> str:
    """A ``Switch:`` line in words: the switch as the rules name it (spec 1.3) and its
    readings, the default first, e.g. "the Objectives: MANDATORY (the default) or
    OPTIONAL". Raises :class:`SpecError` for a line that names no switch."""
    match = SWITCH_LINE.match(text)
    if match is None or match["name"] not in SWITCH_NAMES:
        raise SpecError(f"not a switch line: {text!r}")
    values = [v.strip().replace("(default)", "(the default)") for v in match["values"].split("|")]
    readings = ", ".join(values[:-1]) + " or " + values[-1] if len(values) > 1 else values[0]
    name = SWITCH_NAMES[match["name"]]
    return f"{name[0].upper()}{name[1:]}: {readings}"


def _switch_text(text: str, uri: str) -> str:
    """A Switch line in words, with the switch linked to its disagreement page."""
    match = SWITCH_LINE.match(text)
    if match is None or match["name"] not in SWITCH_PAGES:
        raise SpecError(f"a Switch line that names no switch: {text!r}")
    page = relative(uri, f"{RULES_DIR}/disagreements/{SWITCH_PAGES[match['name']]}")
    return f"{switch_words(text)} ([the readings side by side]({page}))"


def engine_notes_markdown(spec: Spec, from_uri: str = NOTES_PAGE) -> str:
    """Every ``Engine:`` note of the specification, by clause, each with the anchor
    ``engine-<id>`` that the clause's block on the rules pages links to."""
    out = []
    for section in spec.sections:
        for clause in section.clauses:
            notes = [text for label, text in clause.notes if label == "Engine"]
            if not notes:
                continue
            link = f"[{clause.id}]({spec.clause_link(clause.id, from_uri)})"
            out += [f'<div class="engine-note" id="engine-{clause.id}" markdown>', ""]
            for note in notes:
                out += [f"**{link}** {link_clauses(note, spec, from_uri)}", ""]
            out += ["</div>", ""]
    return "\n".join(out)


def glossary_markdown(spec: Spec) -> str:
    """The Markdown of the glossary page: each term with its anchor, meaning and words."""
    uri = f"{RULES_DIR}/glossary.md"
    out = [
        "# Glossary",
        "",
        link_clauses(spec.glossary_intro, spec, uri),
        "",
        "A dash means that no rulebook word is given in that language.",
        "",
    ]
    for term in spec.glossary:
        words = dict(term.words)
        line = " · ".join(
            f"{language} {_italic(words[language]) if language in words else '—'}"
            for language in ("DE", "FR", "HU")
        )
        out += [
            f'<div class="glossary-term" id="{term.slug}" markdown>',
            "",
            f"**{term.term}**: {link_clauses(term.meaning, spec, uri)}",
            "",
            line,
            "{ .glossary-words }",
            "",
            "</div>",
            "",
        ]
    return "\n".join(out)


def _italic(word: str) -> str:
    return f"*{word}*"


def sections_table(spec: Spec, from_uri: str) -> str:
    """A table of every section: its page, level, number of clauses and what it covers."""
    out = ["| section | level | clauses | what it covers |", "|---|---|---|---|"]
    for section in spec.sections:
        what = section.summary.split(": ", 1)[-1] if section.summary else ""
        link = relative(from_uri, section.uri)
        out.append(
            f"| [{section.title}]({link}) | {section.level} | {len(section.clauses)} | {what} |"
        )
    return "\n".join(out)
