"""The page's words: one catalogue per language (English, German, French, Hungarian), by message
id. Every id the page uses is in every catalogue, with the same fields; no catalogue holds an
id the page never uses; the game's terms are each rulebook's own; the page's code and markup
hold no words of their own.

The words on the cards (``card.`` ids) are the library's (``gaia_rules.svg_cards.CARD_WORDS``),
and so are the words of the documentation's pictures (``picture.`` ids,
``gaia_rules.svg.PICTURE_WORDS``).
"""

from __future__ import annotations

import json
import re
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

import gaia_rules as gr
from gaia_rules.bots import BOTS
from gaia_rules.svg import PICTURE_WORDS
from gaia_rules.svg_cards import CARD_WORDS

STATIC = Path(str(files("gaia_rules.web") / "static"))
LANGUAGES = ("en", "de", "fr", "hu")
ID = re.compile(r"""["'`]([a-z_]+(?:\.[a-z0-9_]+)+)["'`]""")
FIELD = re.compile(r"\{(\w+)\}")
NOT_IDS = {"gaia.lang", "g.square", "rect.tile"}
"""Strings of the page's code that look like ids and are not (a storage key, selectors)."""

ROOT = Path(__file__).resolve().parent.parent
QUOTATIONS = Path(__file__).resolve().parent / "rulebooks" / "terms.toml"
"""Each rulebook's words for the terms, quoted (in the repository: a clone needs nothing else)."""
SEEDS = Path("shared") / "seeds"
RULEBOOK = {
    "en": "002_42d6d6ad0e7f3173.txt",
    "de": "000_1059d96be1408022.txt",
    "fr": "004_ce685e4034aad0bb.txt",
    "hu": "003_605916bbca5de8b7.txt",
}
"""Each language's rulebook (shared/seeds/README.md, beside a clone on the project's own
machines): where it is there, each quotation is checked against it too."""


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


CATALOGUES = {lang: catalogue(lang) for lang in LANGUAGES}


def code() -> str:
    return "\n".join(path.read_text("utf-8") for path in sorted(STATIC.glob("*.js")))


def literal_ids() -> set[str]:
    """Every string of the page's code that reads as a message id."""
    return {found for found in ID.findall(code()) if found not in NOT_IDS}


def dynamic_ids() -> set[str]:
    """The ids the page builds from the game's data (a colour, a land, a Power, ...)."""
    lands = [land.value for land in gr.Land]
    powers = [power.value for power in gr.Power]
    kinds = [kind.value for kind in gr.CardKind]
    levels = ["basic", "advanced", "powers", "disasters"]
    switches = {
        "edition": ["third", "first"],
        "objectives": ["mandatory", "optional"],
        "feeding": ["pawn_holder", "every_city"],
        "star_animals_on_sea": ["true", "false"],
        "four_need_drop": ["keep_one", "empty_at_two"],
        "eruption_on_city": ["true", "false"],
        "lightnings": [],
    }
    ids = {f"colour.{colour}" for colour in ("blue", "yellow", "green", "red", "white")}
    ids |= {f"land.{land}" for land in lands} | {f"kind.{kind}" for kind in kinds}
    ids |= {f"card.power.{power}" for power in powers} | {f"tip.power.{p}" for p in powers}
    ids |= {f"level.{level}" for level in levels} | {f"level.{level}.help" for level in levels}
    ids |= {f"bot.{name}" for name in BOTS}
    ids |= {f"lobby.seat.{who}" for who in ("you", "person", *BOTS)}
    ids |= {f"reason.{reason.value}" for reason in gr.EndReason}
    ids |= {f"result.how.{reason.value}" for reason in gr.EndReason}
    ids |= {f"displays.{kind}" for kind in kinds} | {f"tip.back.{kind}" for kind in kinds}
    for name, values in switches.items():
        ids |= {f"switch.{name}", f"switch.{name}.help"}
        ids |= {f"switch.{name}.{value}" for value in values}
    for prompt in ("action", "feeding", "pawns", "back", "keep"):
        ids |= {f"prompt.{prompt}.mine", f"prompt.{prompt}.other"}
    for side in ("mine", "other"):
        ids |= {f"prompt.limit.{side}.{which}" for which in ("hand", "power", "both")}
        ids |= {f"prompt.objective.{side}", f"prompt.objective.{side}_optional"}
        ids |= {f"prompt.protection.{side}", f"prompt.protection.{side}_alone"}
    ids |= {f"card.{key}" for key in CARD_WORDS}
    ids |= {f"picture.{key}" for key in PICTURE_WORDS}  # the documentation's pictures
    return ids


def markup_ids() -> set[str]:
    html = (STATIC / "index.html").read_text("utf-8")
    return set(re.findall(r'data-i18n(?:-label|-title)?="([^"]+)"', html))


def used_ids() -> set[str]:
    return literal_ids() | dynamic_ids() | markup_ids()


def present(cat: dict[str, str], id_: str) -> bool:
    """An id is there as a message, or as its plural forms (``.one`` and ``.other``)."""
    return id_ in cat or (f"{id_}.one" in cat and f"{id_}.other" in cat)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_id_the_page_uses_is_in_every_catalogue(lang: str) -> None:
    missing = sorted(i for i in used_ids() if not present(CATALOGUES[lang], i))
    assert not missing, f"{lang}: missing {missing}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_catalogue_holds_the_same_ids_with_the_same_fields(lang: str) -> None:
    english, other = CATALOGUES["en"], CATALOGUES[lang]
    assert sorted(set(english) ^ set(other)) == []
    for key, text in english.items():
        assert set(FIELD.findall(other[key])) == set(FIELD.findall(text)), (lang, key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_is_empty_or_left_in_english(lang: str) -> None:
    cat = CATALOGUES[lang]
    assert all(isinstance(text, str) and text.strip() for text in cat.values())
    if lang == "en":
        return
    same = {
        k
        for k, text in cat.items()
        if text == CATALOGUES["en"][k] and FIELD.sub("", text).strip(" :;·,/✓→()")
    }
    # the same in both languages, and rightly: names, a word shared by the two languages
    allowed = {"page.title", "card.power.tornado", "card.power.protection", "kind.nature"}
    allowed |= {"card.kind.nature", "card.effect.protection"} if lang == "fr" else set()
    allowed |= {"level.powers"} if lang == "en" else set()
    allowed |= (
        {"tip.title.objective", "card.objective", "objectives.title"} if lang == "fr" else set()
    )
    allowed |= {"connection.live"} if lang == "en" else set()
    allowed |= {key for key in cat if key.startswith("card.city.")}  # names, some the same
    assert sorted(same - allowed) == []


def test_no_catalogue_holds_an_id_the_page_never_uses() -> None:
    used = used_ids()
    stale = sorted(
        key
        for key in CATALOGUES["en"]
        if key not in used and re.sub(r"\.(one|other)$", "", key) not in used
    )
    assert stale == []


def test_the_card_words_are_the_librarys_in_english() -> None:
    for key, text in CARD_WORDS.items():
        assert CATALOGUES["en"][f"card.{key}"] == text


def test_the_picture_words_are_the_librarys_in_english() -> None:
    for key, text in PICTURE_WORDS.items():
        assert CATALOGUES["en"][f"picture.{key}"] == text


def test_the_code_holds_no_words_of_its_own() -> None:
    """Text shown to a player comes from a catalogue: no string literal of the page's code
    that is a sentence or a word of English (a few letters or a space) is shown as text."""
    suspicious = []
    for path in sorted(STATIC.glob("*.js")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip().startswith("//"):
                continue
            for literal in re.findall(
                r'(?:text|textContent|title|alt|"aria-label")\s*[:=]\s*"([^"]+)"', line
            ):
                if re.search(r"[A-Za-z]{3}", literal):
                    suspicious.append((path.name, literal))
    assert suspicious == []
    html = (STATIC / "index.html").read_text("utf-8")
    body = re.sub(r"<(script|style|option)[^>]*>.*?</\1>", "", html, flags=re.S)
    body = re.sub(r"<title>.*?</title>", "", body, flags=re.S)
    words = [w.strip() for w in re.findall(r">([^<]+)<", body) if w.strip()]
    assert [w for w in words if re.search(r"[A-Za-z]{2}", w) and w != "Gaïa"] == []


# -- the rulebooks' own terms ----------------------------------------------------------------

TERMS = (
    *(f"card.land.{land.value}" for land in gr.Land),
    *(f"card.power.{power.value}" for power in gr.Power),
    "kind.nature",
    "kind.life",
    "kind.power",
)
"""The game's terms on the page: each must be its rulebook's word."""

INFLECTED = {("de", "card.land.forest"): "Wälder"}
"""Terms a rulebook writes only inflected (DE has forests, "Wälder", never one "Wald")."""


def rulebook(lang: str) -> str | None:
    """The whole rulebook of ``lang``, where the texts are beside the clone."""
    for folder in (ROOT.parent, ROOT.parent.parent):
        path = folder / SEEDS / RULEBOOK[lang]
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def quotations(lang: str) -> dict[str, str]:
    """The quotations of ``lang``'s rulebook, by message id."""
    data: dict[str, dict[str, str]] = tomllib.loads(QUOTATIONS.read_text(encoding="utf-8"))
    return data[lang]


def plain(text: str) -> str:
    """Text as the quotations give it: without Markdown bold, spaces collapsed."""
    return " ".join(text.replace("**", "").split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_terms_are_the_rulebooks_own(lang: str) -> None:
    quoted = quotations(lang)
    assert set(quoted) == set(TERMS), set(quoted) ^ set(TERMS)
    absent = [
        (key, CATALOGUES[lang][key])
        for key in TERMS
        if INFLECTED.get((lang, key), CATALOGUES[lang][key]).casefold()
        not in quoted[key].casefold()
    ]
    assert absent == []
    text = rulebook(lang)
    if text is not None:
        whole = plain(text)
        assert [key for key in TERMS if quoted[key] not in whole] == []
