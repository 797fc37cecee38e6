"""The card faces drawn in a page's language: the sheet the page's tips and enlarged faces
show, which the server (``POST /api/faces``) and the in-browser engine both serve.

Needs no server (no Starlette), so the in-browser engine imports it as the server does.
"""

from __future__ import annotations

import functools
import json
from importlib.resources import files
from typing import Any

from gaia_rules.cards import Face
from gaia_rules.manifest import Manifest
from gaia_rules.svg_cards import back_svg, describe_face, face_svg
from gaia_rules.vocabulary import CardKind

__all__ = ["card_words", "face_sheet", "read_catalogue"]

_CARD_PREFIX = "card."


@functools.cache
def read_catalogue(lang: str) -> dict[str, str]:
    """The page's messages in ``lang``, by id (``static/i18n/<lang>.json``); the caller has
    checked that the page speaks ``lang``."""
    path = files("gaia_rules.web") / "static" / "i18n" / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text("utf-8"))
    return data


def card_words(lang: str) -> dict[str, str]:
    """The words printed on cards in ``lang``: the catalogue's ``card.`` messages."""
    return {
        key[len(_CARD_PREFIX) :]: text
        for key, text in read_catalogue(lang).items()
        if key.startswith(_CARD_PREFIX)
    }


@functools.lru_cache(maxsize=16)
def face_sheet(manifest: Manifest, lang: str) -> dict[str, Any]:
    """Every distinct face of ``manifest`` and the three card backs, drawn in ``lang``: each
    face as data (the manifest's JSON, no id), its picture and its description."""
    words = card_words(lang)
    sheet: list[dict[str, Any]] = []
    seen: list[Face] = []
    entries: list[dict[str, Any]] = manifest.to_dict()["cards"]
    for (_, face), entry in zip(manifest.cards, entries, strict=True):
        if face in seen:
            continue
        seen.append(face)
        sheet.append(
            {
                "face": {key: value for key, value in entry.items() if key != "id"},
                "svg": face_svg(face, width=100, words=words),
                "text": describe_face(face, words),
            }
        )
    backs = {kind.value: back_svg(kind, width=100, words=words) for kind in CardKind}
    return {"lang": lang, "faces": sheet, "backs": backs}
