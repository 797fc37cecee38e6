"""The site's languages: the game's terms in each rulebook's words, the words of the
pictures, and the note on a page that another language reads in English.

The player's pages exist in English (``basic.md``) and in the rulebooks' languages beside it
(``basic.de.md``); the i18n plugin builds each language under its code (``de/play/basic/``).
A page with no translation (a numbered chapter, a guide, the API reference) is the English
one in every language, with a note that says so. A translated page's pictures speak its
language: the engine draws them with the words of the web table's catalogue
(``picture_words``), and their captions come from ``captions.toml``. The functions are pure,
so the build hook and the tests call them alike.
"""

from __future__ import annotations

import functools
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT_ONLY = ("reference/", "guides/", "changelog.md", "stability.md")
"""The programmers' pages, which only the English site builds: another language's site links
them there, at the site's root, instead of building them again in English under its code."""

TERMS = Path(__file__).resolve().parent / "terms.toml"
"""The table of the game's terms in the four languages."""

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "gaia_rules" / "web" / "static" / "i18n"
"""The web table's catalogues of words, one a language (``de.json``): the pictures of a
translated page speak the same words as the table."""

CAPTIONS = Path(__file__).resolve().parent / "captions.toml"
"""The captions and labels of the pictures of ``pictures.py`` in each translated language,
by their English text."""

LANGUAGES = ("en", "de", "fr", "hu")
"""The site's languages, English first: the default, at the site's root."""

TRANSLATED = ("de", "fr", "hu")
"""The languages of the German, French and Hungarian rulebooks."""

NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "hu": "Magyar"}

ENGLISH_ONLY = {
    "de": "Diese Seite gibt es nur auf Englisch. Die Spielanleitung, die Beispiele, das "
    "Glossar, die Kartenvorderseiten und die Abweichungen der Spielregeln sind auf Deutsch.",
    "fr": "Cette page n'existe qu'en anglais. Les règles du jeu, les exemples, le glossaire, "
    "les faces des cartes et les désaccords entre les règles sont en français.",
    "hu": "Ez az oldal csak angolul olvasható. A játékszabály, a példák, a szójegyzék, a "
    "kártyák előlapjai és a szabályok eltérései magyarul is megvannak.",
}
"""The note on top of an English page in another language's site."""

NOTE_TITLE = {"de": "Auf Englisch", "fr": "En anglais", "hu": "Angolul"}

STEPS_TITLE = {
    "de": "Schritt für Schritt",
    "fr": "Pas à pas",
    "hu": "Lépésről lépésre",
}
"""The title of a picture's fold of steps on a translated page, told in the page's language
(``narration.NARRATORS``)."""

REFUSED = {
    "de": "Die Regeln verbieten diesen Zug ({clause}).",
    "fr": "Les règles interdisent ce coup ({clause}).",
    "hu": "A szabályok tiltják ezt a lépést ({clause}).",
}
"""A refused move in the steps of a translated page, with the clause that forbids it."""

NOTHING = {"de": "Nichts geschieht.", "fr": "Il ne se passe rien.", "hu": "Nem történik semmi."}
"""The steps of a decision that changes nothing, on a translated page."""

BEFORE = {
    "de": "(vor jeder Entscheidung)",
    "fr": "(avant toute décision)",
    "hu": "(minden döntés előtt)",
}
"""The steps that come before any decision, on a translated page."""

TRY_OPEN = {"de": "Ausprobieren", "fr": "Essayer", "hu": "Kipróbálás"}
"""The button that opens a position to try (``assets/tryit.js``) on a translated page."""

TRY_HEADING = {
    "de": "Die Einschränkungen ausprobieren",
    "fr": "Essayer les restrictions",
    "hu": "A korlátozások kipróbálása",
}
"""The heading of the restrictions to try at the end of a translated level page."""

TRY_INTRO = {
    "de": "Jede Einschränkung dieser Seite, live: *Ausprobieren* öffnet ein Spiel, in dem sie "
    "greift, dann fragt *Den abgelehnten Zug ausprobieren* die Engine, die ihn ablehnt und "
    "sagt, warum, mit ihrem Abschnitt. Eine Einschränkung, die kein Zug brechen kann, öffnet dort, "
    "wo sie auf dem Spiel steht: *Den Zug ausprobieren* (oder ein eigener Zug) zeigt, wie die "
    "Engine sie einhält.",
    "fr": "Chaque restriction de cette page, en direct : *Essayer* ouvre une partie où elle "
    "s'applique, puis *Essayer le coup refusé* interroge le moteur, qui le refuse et dit "
    "pourquoi, en citant sa clause. Une restriction qu'aucun coup ne peut enfreindre s'ouvre là "
    "où elle est en jeu : *Essayer le coup* (ou un coup de votre choix) montre que le moteur la "
    "respecte.",
    "hu": "Az oldal minden korlátozása élőben: a *Kipróbálás* megnyit egy játékot, ahol "
    "érvényesül, aztán *A tiltott lépés kipróbálása* megkérdezi a motort, amely elutasítja, és "
    "megmondja, miért, a szabálypontjára hivatkozva. Az a korlátozás, amelyet egyetlen lépés "
    "sem szeghet meg, ott nyílik meg, ahol számít: *A lépés kipróbálása* (vagy egy saját "
    "lépés) megmutatja, hogy a motor betartja.",
}
"""The paragraph under ``TRY_HEADING``: the words of the buttons of ``assets/tryit.js`` in
the page's language."""


@functools.cache
def catalogue(language: str) -> dict[str, str]:
    """The web table's catalogue of ``language``: its words by message id."""
    data: dict[str, str] = json.loads((CATALOGUES / f"{language}.json").read_text("utf-8"))
    return data


@functools.cache
def picture_words(language: str) -> dict[str, str] | None:
    """The words of the engine's pictures in ``language`` (``words`` of ``gaia_rules.svg``),
    from the table's catalogue: the words on the cards and the cities' names (``card.``),
    the pictures' labels and legend (``picture.``), the lands, kinds and colours; ``None``
    for English, which the pictures speak by themselves."""
    if language == "en":
        return None
    messages = catalogue(language)
    words = {key: text for key, text in messages.items() if key.startswith(_PLAIN)}
    for prefix in ("card.", "picture."):
        words |= {
            key.removeprefix(prefix): text
            for key, text in messages.items()
            if key.startswith(prefix)
        }
    return words


_PLAIN = ("land.", "kind.", "colour.")
"""The catalogue's ids that the pictures take as they are."""


@functools.cache
def captions(language: str) -> dict[str, str]:
    """The captions and labels of the pictures in ``language``, by their English text."""
    table: dict[str, dict[str, str]] = tomllib.loads(CAPTIONS.read_text(encoding="utf-8"))
    return dict(table.get(language, {}))


TERMS_MARKER = "<!-- gaia:terms -->"
"""The marker of a glossary page, which the build fills with the table of terms."""


@dataclass(frozen=True)
class Term:
    """One game concept: its word in each language, the patterns that find it on a page, and
    the words a translation must not use for it."""

    words: dict[str, str]
    patterns: dict[str, str]
    forbidden: dict[str, tuple[str, ...]]
    case: bool


def read_terms(path: Path = TERMS) -> tuple[Term, ...]:
    """Every term of the table, in its order.

    Raises ``ValueError`` for a term that lacks a language's word.
    """
    terms = []
    for raw in tomllib.loads(path.read_text(encoding="utf-8"))["term"]:
        missing = [lang for lang in LANGUAGES if not str(raw.get(lang, "")).strip()]
        if missing:
            raise ValueError(f"term {raw.get('en')!r} has no word for {missing}")
        words = {lang: str(raw[lang]) for lang in LANGUAGES}
        terms.append(
            Term(
                words=words,
                patterns={lang: str(raw.get(f"{lang}_match", words[lang])) for lang in LANGUAGES},
                forbidden={lang: tuple(raw.get(f"not_{lang}", ())) for lang in TRANSLATED},
                case=bool(raw.get("case", False)),
            )
        )
    return tuple(terms)


def terms_markdown(language: str, terms: tuple[Term, ...]) -> str:
    """The table of a glossary page: the page's language first, then the others."""
    order = (language, *(lang for lang in LANGUAGES if lang != language))
    head = "| " + " | ".join(NAMES[lang] for lang in order) + " |"
    rule = "|" + "---|" * len(order)
    rows = ["| " + " | ".join(term.words[lang] for lang in order) + " |" for term in terms]
    return "\n".join([head, rule, *rows])


def localization(src_uri: str) -> str | None:
    """The language of a translated page's file (``play/basic.de.md``), or None."""
    parts = src_uri.rsplit(".", 2)
    return parts[1] if len(parts) == 3 and parts[1] in TRANSLATED else None


def english_only_note(markdown: str, language: str) -> str:
    """An English page as another language's site shows it: a note on top, after its title."""
    note = f'!!! note "{NOTE_TITLE[language]}"\n\n    {ENGLISH_ONLY[language]}\n'
    lines = markdown.split("\n")
    if lines and lines[0].startswith("# "):
        return "\n".join([lines[0], "", note, *lines[1:]])
    return f"{note}\n{markdown}"


def root_only(src_uri: str) -> bool:
    """Whether a page is one of the programmers' pages only the English site builds."""
    return src_uri.startswith(ROOT_ONLY)
