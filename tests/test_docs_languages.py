"""The player's part of the site in the rulebooks' four languages: every page of the English
player's part has its German, French and Hungarian page, each says what the English one says
(the same clauses, pictures and anchors), and each names the game's concepts with its own
rulebook's words.

The words are those of ``docs/hooks/terms.toml``, a table taken from the German, French and
Hungarian rulebooks: the test carries the terms it checks, not the rulebooks.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.loading import load_hook

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

languages = load_hook("languages")

PLAYER_PART = (
    "play/index.md",
    "play/turn.md",
    "play/basic.md",
    "play/advanced.md",
    "play/powers.md",
    "play/disasters.md",
    "play/examples.md",
    "play/glossary.md",
    "rules/cards.md",
    "rules/card-counts.md",
    "rules/disagreements/index.md",
    "rules/disagreements/edition.md",
    "rules/disagreements/levels.md",
    "rules/disagreements/objectives.md",
    "rules/disagreements/star-animals-on-sea.md",
    "rules/disagreements/feeding.md",
    "rules/disagreements/four-need-drop.md",
    "rules/disagreements/lightnings.md",
    "rules/disagreements/eruption-on-city.md",
)
"""The English player's part that each language translates: the how-to-play pages, the
illustrated examples (with the restrictions they name), the glossary, the card faces and
counts, and the disagreements."""

CLAUSE = re.compile(r"\[\[(\d{1,2}\.\d{1,2}[a-z]?)\]\]")
PICTURE = re.compile(r"^<!-- gaia:[\w-]+(?: [\w-]+)? -->$", re.M)
ANCHOR = re.compile(r"\{ #([\w-]+) \}")
RULING = re.compile(r"disagreements/all\.md#([ad]\d+)")
HIDDEN = re.compile(r"<!--.*?-->|\]\([^)]*\)|\{[^}]*\}", re.S)
"""What a reader does not see of a page: markers, link targets, heading attributes."""

QUOTED = re.compile(
    r'"\s*[^"\s]+\s+[^"\s]+\s+[^"\s][^"\n]*"|“\s*[^”\s]+\s+[^”\s]+\s+[^”\s][^”\n]*”'
    r"|„\s*[^“\s]+\s+[^“\s]+\s+[^“\s][^“\n]*“|«\s*[^»\s]+\s+[^»\s]+\s+[^»\s][^»\n]*»"
)
"""A rulebook quoted in its own words (three words or more), which are not the page's; a
word or two in quotation marks (variante « Désastres ») is the page's own."""


def translated(uri: str, language: str) -> Path:
    """The file of a page's translation: ``play/basic.de.md``."""
    return DOCS / f"{uri.removesuffix('.md')}.{language}.md"


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def visible(text: str) -> str:
    """The words a reader sees of a page's Markdown."""
    return HIDDEN.sub(" ", text)


def _find(pattern: str, text: str, case: bool) -> list[str]:
    flags = 0 if case else re.IGNORECASE
    return re.findall(rf"(?<!\w)(?:{pattern})", text, flags)


def term_problems(english: str, page: str, language: str, terms: Any) -> list[str]:
    """Where ``page``, the ``language`` translation of ``english``, departs from its
    rulebook's words: a concept the English page names and the translation does not name
    with its rulebook's word, or a word the rulebook does not use for a concept."""
    problems = []
    english, page = QUOTED.sub(" ", visible(english)), QUOTED.sub(" ", visible(page))
    for term in terms:
        if _find(term.patterns["en"], english, term.case) and not _find(
            term.patterns[language], page, term.case
        ):
            problems.append(f"{term.words['en']}: no {term.words[language]!r}")
        for word in term.forbidden[language]:
            if _find(word, page, False):
                problems.append(f"{term.words['en']}: {word!r} for {term.words[language]!r}")
    return problems


def missing_pages(root: Path) -> list[str]:
    """The translations of the player's part that ``root`` (a docs folder) lacks."""
    return [
        f"{uri} ({language})"
        for uri in PLAYER_PART
        for language in languages.TRANSLATED
        if not (root / f"{uri.removesuffix('.md')}.{language}.md").is_file()
    ]


@pytest.fixture(scope="module")
def terms() -> Any:
    return languages.read_terms()


PAGES = [(uri, language) for uri in PLAYER_PART for language in languages.TRANSLATED]


def test_every_page_of_the_players_part_is_translated() -> None:
    assert missing_pages(DOCS) == []


def test_a_missing_translation_is_found(tmp_path: Path) -> None:
    for uri in PLAYER_PART:
        for language in ("", *(f".{lang}" for lang in languages.TRANSLATED)):
            path = tmp_path / f"{uri.removesuffix('.md')}{language}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("# x\n", encoding="utf-8")
    assert missing_pages(tmp_path) == []
    (tmp_path / "play" / "powers.hu.md").unlink()
    assert missing_pages(tmp_path) == ["play/powers.md (hu)"]


def test_every_how_to_play_page_is_in_the_players_part() -> None:
    english = {
        p.relative_to(DOCS).as_posix()
        for p in (DOCS / "play").glob("*.md")
        if languages.localization(p.relative_to(DOCS).as_posix()) is None
    }
    assert english <= set(PLAYER_PART)


def test_every_translation_is_of_a_page_of_the_players_part() -> None:
    strays = [
        path.relative_to(DOCS).as_posix()
        for path in DOCS.rglob("*.md")
        if languages.localization(path.name) is not None
        and re.sub(r"\.\w\w\.md$", ".md", path.relative_to(DOCS).as_posix()) not in PLAYER_PART
    ]
    assert strays == []


@pytest.mark.parametrize(("uri", "language"), PAGES)
def test_a_translation_cites_every_clause_picture_anchor_and_ruling_of_its_page(
    uri: str, language: str
) -> None:
    english, page = read(DOCS / uri), read(translated(uri, language))
    for pattern in (CLAUSE, PICTURE, ANCHOR, RULING):
        lost = sorted(set(pattern.findall(english)) - set(pattern.findall(page)))
        assert not lost, f"{translated(uri, language).name} lacks {lost}"


@pytest.mark.parametrize(("uri", "language"), PAGES)
def test_a_translation_uses_its_rulebooks_words(uri: str, language: str, terms: Any) -> None:
    english, page = read(DOCS / uri), read(translated(uri, language))
    assert term_problems(english, page, language, terms) == []


def test_a_word_the_rulebook_does_not_use_is_found(terms: Any) -> None:
    english = read(DOCS / "play" / "powers.md")
    page = read(translated("play/powers.md", "de"))
    assert term_problems(english, page, "de", terms) == []
    assert term_problems(english, page.replace("Abwehr", "Schutz"), "de", terms) != []
    assert term_problems(english, page + "\nEine Spielfigur.\n", "de", terms) != []
    french = read(translated("play/basic.md", "fr"))
    assert term_problems(read(DOCS / "play" / "basic.md"), french + " une ville", "fr", terms)


def test_a_term_is_given_in_each_language_and_on_the_glossary_pages(terms: Any) -> None:
    assert len(terms) >= 30
    for language in languages.LANGUAGES:
        table = languages.terms_markdown(language, terms)
        assert table.splitlines()[0].startswith(f"| {languages.NAMES[language]} |")
        for term in terms:
            assert term.words[language] in table
    for uri in ("play/glossary.md", *(f"play/glossary.{lang}.md" for lang in languages.TRANSLATED)):
        assert languages.TERMS_MARKER in read(DOCS / uri), uri


def test_each_rulebook_word_is_found_by_its_own_pattern(terms: Any) -> None:
    for term in terms:
        for language in languages.LANGUAGES:
            word = term.words[language]
            assert _find(term.patterns[language], word, term.case), word


def test_an_english_page_in_another_language_says_it_is_english() -> None:
    page = languages.english_only_note("# Title\n\nText.\n", "fr")
    assert page.startswith("# Title\n\n!!! note")
    assert "anglais" in page
    assert languages.localization("play/basic.de.md") == "de"
    assert languages.localization("play/basic.md") is None
    assert languages.localization("rules/05-turn.md") is None
    assert languages.root_only("reference/game.md") and languages.root_only("guides/cli.md")
    assert not languages.root_only("rules/05-turn.md") and not languages.root_only("play/basic.md")


# -- the table's rule links open the page in the table's language ---------------------------

STATIC = ROOT / "src" / "gaia_rules" / "web" / "static"

LINKS_IN_LANGUAGE = """
globalThis.window = {};
globalThis.document = { documentElement: {} };
globalThis.fetch = async () => ({ ok: true, json: async () => ({}) });
const i18n = await import("./i18n.js");
const tips = await import("./tips.js");
tips.setRulesSite("https://rules.example/", { nature: "play/basic/#nature-card" });
const links = {};
for (const lang of ["en", "de", "fr", "hu"]) {
  await i18n.loadLanguage(lang);
  links[lang] = tips.rulesLink("nature");
}
console.log(JSON.stringify(links));
"""


def test_the_tables_rule_links_open_the_page_in_the_tables_language() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run(
        [node, "--input-type=module", "-e", LINKS_IN_LANGUAGE],
        cwd=STATIC,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    links = json.loads(done.stdout)
    assert links == {
        "en": "https://rules.example/play/basic/#nature-card",
        "de": "https://rules.example/de/play/basic/#nature-card",
        "fr": "https://rules.example/fr/play/basic/#nature-card",
        "hu": "https://rules.example/hu/play/basic/#nature-card",
    }


@pytest.mark.parametrize("language", languages.TRANSLATED)
def test_every_rule_link_of_the_table_has_its_heading_in_each_language(language: str) -> None:
    """A link of the table lands on the same heading in each language: on the translation of
    its page where there is one, else on the English page the site shows there."""
    links: dict[str, str] = json.loads(read(STATIC / "links.json"))
    for what, link in links.items():
        page, _, anchor = link.partition("#")
        english = DOCS / (page.rstrip("/") + ".md")
        source = translated(english.relative_to(DOCS).as_posix(), language)
        text = read(source if source.is_file() else english)
        if anchor:
            assert f"{{ #{anchor} }}" in text or f"{{#{anchor}}}" in text, f"{what}: {source}"


# -- the pictures of a translated page speak its language ------------------------------------

pictures = load_hook("pictures")
cards_page = load_hook("cards_page")

SVG_TEXT = re.compile(r"<(text|title)\b[^>]*>(.*?)</\1>", re.S)
WORD = re.compile(r"[^\W\d_]{3,}")


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


def _english_vocabulary() -> set[str]:
    """Every word the English pictures may show: the table's English catalogue of the cards'
    and the pictures' words, the colours, and the captions and labels of ``pictures.py``."""
    texts = [
        text
        for key, text in languages.catalogue("en").items()
        if key.startswith(("card.", "picture.", "colour.", "land.", "kind."))
    ]
    texts += list(languages.captions("de"))  # the captions' English texts are its keys
    return set().union(*map(_words, texts))


def _own_vocabulary(language: str) -> set[str]:
    """Every word of ``language``'s catalogue and captions: a word both languages share
    (Tornado, Hand, Nature, a city's name) is the page's own."""
    texts = [*languages.catalogue(language).values(), *languages.captions(language).values()]
    return set().union(*map(_words, texts))


def english_words(svg: str, language: str) -> list[str]:
    """The English words among the texts and titles a picture shows on a ``language`` page."""
    english = _english_vocabulary() - _own_vocabulary(language)
    shown = " ".join(match[2] for match in SVG_TEXT.finditer(svg))
    return sorted(_words(shown) & english)


@pytest.fixture(scope="module")
def stories() -> list[Any]:
    return [pictures.tell(name) for name in pictures.SITUATIONS]


@pytest.mark.parametrize("language", languages.TRANSLATED)
def test_the_pictures_of_a_translated_page_speak_its_language(
    language: str, stories: list[Any]
) -> None:
    """Every picture of the situations and every card, as a ``language`` page shows them:
    no English word in their labels, legends, card words or city names."""
    drawn = {
        uri: svg for story in stories for uri, svg in pictures.svg_files(story, language).items()
    }
    drawn |= cards_page.card_files(language)
    assert all(uri.endswith(f".{language}.svg") for uri in drawn if "/pictures/" in uri)
    found = {uri: english_words(svg, language) for uri, svg in drawn.items()}
    assert {uri: words for uri, words in found.items() if words} == {}


@pytest.mark.parametrize("language", languages.TRANSLATED)
def test_every_caption_and_label_of_the_pictures_is_translated(
    language: str, stories: list[Any]
) -> None:
    captions = languages.captions(language)
    missing = [frame.caption for story in stories for frame in story.frames]
    assert [caption for caption in missing if caption not in captions] == []
    assert sorted(set(captions) - set(languages.captions("de"))) == []
    for story in stories:
        told = pictures.story_markdown(story, "play/basic.de.md", language)
        assert 'lang="en"' not in told
        for frame in story.frames:
            assert f"<figcaption>{captions[frame.caption]}</figcaption>" in told


def test_a_picture_with_an_english_word_on_a_german_page_is_found(stories: list[Any]) -> None:
    legend = next(story for story in stories if story.name == "legend")
    german = pictures.svg_files(legend, "de")["rules/pictures/legend-1.de.svg"]
    assert english_words(german, "de") == []
    assert "Wüste" in german and "Legende" in german
    assert english_words(german.replace("Wüste", "desert"), "de") == ["desert"]
    assert english_words(pictures.svg_files(legend)["rules/pictures/legend-1.svg"], "de")
    table = next(story for story in stories if story.name == "a-table")
    german = pictures.svg_files(table, "de")["rules/pictures/a-table-1.de.svg"]
    assert english_words(german, "de") == []
    assert english_words(german.replace("Karthago", "Carthage"), "de") == ["carthage"]
    assert english_words(german.replace(">Ziele<", ">Objectives<"), "de") == ["objectives"]


def test_a_translated_page_links_its_own_pictures_and_cities(stories: list[Any]) -> None:
    story = next(story for story in stories if story.name == "advanced-example")
    told = pictures.story_markdown(story, "play/examples.de.md", "de")
    assert "(../rules/pictures/advanced-example-1.de.svg)" in told
    assert "Nachher: Sparta übernommen, Karthago bei 4" in told
    english = pictures.story_markdown(story, "play/examples.md")
    assert "(../rules/pictures/advanced-example-1.svg)" in english and "Carthage" in english
    svg = pictures.svg_files(story, "de")["rules/pictures/advanced-example-2.de.svg"]
    assert ">Karthago<" in svg and ">Carthage<" not in svg
    assert "Carthage" in pictures.svg_files(story)["rules/pictures/advanced-example-2.svg"]
    cards = cards_page.cards_markdown("fr")
    assert "Carte cité" not in cards and "Sparte : une" in cards


ENGLISH_NARRATION = re.compile(
    r"\b(the|and|from|into|goes|go|plays|takes|draws|discards|his|him|card|cards|tile|"
    r"tokens?|needs?|met|turn|begins|back|refuses|engine|nothing|happens|before|front|"
    r"wins|over|keeps|builds|feeds|fulfils|chooses|pawn|covers|becomes)\b"
)
"""Words of the English narration (``narration.py``) that no German step may say."""


def english_steps_of(told: str) -> list[str]:
    """The English words of the fold of steps of a picture's Markdown (none if no fold)."""
    fold = told.partition(' note "')[2]
    return sorted(set(ENGLISH_NARRATION.findall(fold)))


@pytest.mark.parametrize("language", languages.TRANSLATED)
def test_the_steps_of_a_translated_page_are_told_in_its_language(
    language: str, stories: list[Any]
) -> None:
    """Every fold of steps of a ``language`` page is told in its words (``narration.py``),
    its headings (``captions.toml``) and refused moves too."""
    captions = languages.captions(language)
    for story in stories:
        told = pictures.story_markdown(story, f"play/basic.{language}.md", language)
        if not story.log:
            continue
        assert f'note "{languages.STEPS_TITLE[language]}"' in told, story.name
        assert "Step by step" not in told and "English" not in languages.STEPS_TITLE[language]
        named = [h for h, _ in story.log if h and not re.fullmatch(r"[A-Z_]+", h)]  # a switch
        assert [heading for heading in named if heading not in captions] == [], story.name
        assert english_steps_of(told) == [], story.name


def test_an_english_sentence_in_german_steps_is_found(stories: list[Any]) -> None:
    story = next(story for story in stories if story.name == "protection")
    german = pictures.story_markdown(story, "play/powers.de.md", "de")
    assert english_steps_of(german) == []
    assert "Grün spielt eine Abwehr." in german
    broken = german.replace("Grün spielt eine Abwehr.", "Green plays a Protection.")
    assert english_steps_of(broken) == ["plays"]
    english = pictures.story_markdown(story, "play/powers.md")
    assert "Green plays a Protection." in english and 'note "Step by step"' in english


RESTRICTIONS = DOCS / "play" / "restrictions.toml"


def restriction_texts(language: str) -> list[tuple[str, str, str]]:
    """Each text a level page's restrictions to try show, in English and in ``language``:
    the words (``tried``, or ``named`` first, as the English page shows them), and for one no
    move can break, its reason and its move's words; each named by its clause and key."""
    import tomllib  # noqa: PLC0415

    out = []
    for entry in tomllib.loads(read(RESTRICTIONS))["restriction"]:
        if "named" not in entry:
            continue
        clause = entry["clause"]
        if "untriable" in entry:
            pairs = [("words", entry["named"][0]), ("why", entry["untriable"])]
            pairs.append(("tried", entry["tried"]))
        else:
            pairs = [("words", entry.get("tried", entry["named"][0]))]
        out += [
            (f"{clause} {key}_{language}", english, entry[f"{key}_{language}"])
            for key, english in pairs
        ]
    return out


VERBS = {"9.2 words": "need"}
"""Where the English words use a term's word as a verb, not for the concept ("A City card
needs a free tile"): no translation of the concept is looked for there."""


@pytest.mark.parametrize("language", languages.TRANSLATED)
def test_the_restrictions_to_try_use_the_rulebooks_words(language: str, terms: Any) -> None:
    """The translated words of each restriction a level page tries (``restrictions.toml``)
    name the game's concepts with the page's rulebook's words, as the pages do."""
    problems = [
        f"{name}: {problem}"
        for name, english, translated in restriction_texts(language)
        for problem in term_problems(english, translated, language, terms)
        if not problem.startswith(f"{VERBS.get(name.removesuffix(f'_{language}'))}: no ")
    ]
    assert not problems


TRYIT = DOCS / "assets" / "tryit.js"


def tryit_words() -> dict[str, dict[str, str]]:
    """The words of ``assets/tryit.js`` in each language (its ``WORDS``): each one's source,
    by its name."""
    table = read(TRYIT).split("const WORDS = {", 1)[1].split("\n};", 1)[0]
    blocks = re.findall(r"^  (\w+): \{\n(.*?)^  \},", table, re.M | re.S)
    return {
        language: dict(re.findall(r"^    (\w+): (.*),$", body, re.M)) for language, body in blocks
    }


SAME_WORD = {"de": ["hand"], "fr": ["clause"]}
"""The words of the script that a language writes as English does ("Hand:", "clause 5.2")."""


def test_try_it_speaks_each_language_of_the_site() -> None:
    """The "Try it" script has each of its words in each language of the site, none left in
    English on a translated page, and the intro of a translated page's restrictions names its
    buttons as the script labels them."""
    words = tryit_words()
    assert list(words) == list(languages.LANGUAGES)
    for language in languages.TRANSLATED:
        assert words[language].keys() == words["en"].keys(), language
        same = [name for name, text in words[language].items() if text == words["en"][name]]
        assert same == SAME_WORD.get(language, []), (language, same)
        intro = languages.TRY_INTRO[language]
        assert f"*{languages.TRY_OPEN[language]}*" in intro
        for name in ("tryRefused", "tryKept"):
            label = re.search(r"`(.+?) ?: \$\{heading\}`", words[language][name])
            assert label is not None and f"*{label.group(1)}*" in intro, (language, name)
