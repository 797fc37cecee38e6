"""What the page needs besides the state of its game: the card faces drawn in its language,
where the rules pages are, and what a Power would do before its player confirms it.

Routes (registered in ``gaia_rules.web.app``):

- ``GET /api/table``: the page's settings: the base address of the rules pages (``docs``)
  and the languages of the page;
- ``POST /api/faces``: every face of a game's cards drawn by the library
  ([`face_svg`][gaia_rules.svg_cards.face_svg]) and the three card backs, in one of the
  page's languages; the body is ``{"rules": <Rules>, "lang": "de"}``. Faces, never card
  ids: copies of a face are one picture;
- ``GET /api/games/{game}/preview?action=<JSON>``: what a Power play of the token's seat
  would do ([`power_preview`][gaia_rules.preview.power_preview]), from that seat's view.

The words on the cards come from the page's own catalogues (``static/i18n/<lang>.json``, the
keys under ``card.``), so the pictures and the page speak the same language.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from importlib import metadata

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from gaia_rules.actions import Action, PowerPlay
from gaia_rules.errors import GaiaRulesError, IllegalActionError
from gaia_rules.preview import power_preview
from gaia_rules.rules import Rules
from gaia_rules.serialization import JsonError, from_data
from gaia_rules.web.facesheet import face_sheet, read_catalogue
from gaia_rules.web.presentation import preview_data
from gaia_rules.web.reading import json_body, seat_of
from gaia_rules.web.refusal import WebError

__all__ = [
    "DOCS_URL",
    "LANGUAGES",
    "catalogue",
    "docs_url",
    "face_sheet",
    "faces",
    "preview",
    "settings",
]

LANGUAGES = ("en", "de", "fr", "hu")
"""The page's languages: those of the rulebooks (English, German, French, Hungarian)."""

DOCS_URL = "https://gaia-rules.readthedocs.io/en/latest/"
"""Where the rules pages are read when nothing else says: the documentation site the installed
package declares (its ``Documentation`` project URL), else this address. ``gaia-rules serve
--docs-url`` (or ``GAIA_DOCS_URL``) points the page elsewhere, for instance at a copy of the
site built with ``mkdocs build`` and served beside the game."""


@functools.cache
def _declared_docs() -> str | None:
    """The ``Documentation`` project URL of the installed package, if it declares one."""
    try:
        urls: list[str] = metadata.metadata("gaia-rules").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "documentation" and url.strip():
            return url.strip()
    return None


_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def docs_url(request: Request) -> str:
    """The base address of the rules pages: the app's setting, ``GAIA_DOCS_URL``, the
    package's declared documentation site, or [`DOCS_URL`][gaia_rules.web.table.DOCS_URL];
    always ending with ``/``."""
    url = getattr(request.app.state, "docs_url", None) or os.environ.get("GAIA_DOCS_URL")
    url = url or _declared_docs() or DOCS_URL
    return url if url.endswith("/") else url + "/"


def catalogue(lang: str) -> Mapping[str, str]:
    """The page's messages in ``lang``, by id (``static/i18n/<lang>.json``).

    Raises:
        WebError: 400 for a language the page does not speak.
    """
    if lang not in LANGUAGES:
        raise WebError(400, "bad_request", f"lang: one of {', '.join(LANGUAGES)}, not {lang!r}")
    return read_catalogue(lang)


async def faces(request: Request) -> Response:
    """``POST /api/faces``: the face sheet of the rules in the body, in its language."""
    data = await json_body(request)
    if not isinstance(data, dict) or set(data) - {"rules", "lang"}:
        raise WebError(400, "bad_request", 'expected {"rules": <rules>, "lang": "en"}')
    lang = data.get("lang", "en")
    if not isinstance(lang, str):
        raise WebError(400, "bad_request", "lang: expected text")
    catalogue(lang)  # refuses a language the page does not speak
    try:
        rules = Rules.from_dict(data.get("rules", {"format": 1}))
    except GaiaRulesError as exc:
        raise WebError(400, "bad_request", f"rules: {exc}") from None
    return JSONResponse(face_sheet(rules.cards, lang), headers=_HEADERS)


async def settings(request: Request) -> Response:
    """``GET /api/table``: where the rules pages are, and the page's languages."""
    return JSONResponse({"docs": docs_url(request), "languages": list(LANGUAGES)})


async def preview(request: Request) -> Response:
    """``GET /api/games/{game}/preview?action=<JSON>``: what the Power play would do."""
    _, room, seat = await seat_of(request)
    if seat is None:
        raise WebError(403, "forbidden", "a spectator plays no Power")
    text = request.query_params.get("action", "")
    try:
        action = from_data(json.loads(text), Action)
    except (ValueError, RecursionError):
        raise WebError(400, "bad_request", "action: expected an action in JSON") from None
    except JsonError as exc:
        raise WebError(400, "bad_request", f"not an action: {'; '.join(exc.problems)}") from None
    if not isinstance(action, PowerPlay):
        raise WebError(400, "bad_request", f"{type(action).__name__} is not a Power play")
    game = room.game
    try:
        found = power_preview(game.view(seat), action)
    except IllegalActionError as exc:
        raise WebError(409, "illegal", str(exc), exc.clause) from None
    except GaiaRulesError as exc:
        raise WebError(409, "over", str(exc)) from None
    return JSONResponse({"moves": len(game.actions), **preview_data(found)}, headers=_HEADERS)
