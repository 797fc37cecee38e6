"""The docs site's table with no server, and its live examples, in a real headless Chromium
(Debian's ``chromium``, driven by Playwright), offline: the site's ``table/`` (the Pyodide
runtime from the npm package, the wheels built from this tree) and the pages are served from a
local folder by a plain file server on a loopback port, and any request the page makes
elsewhere fails the test.

- "Try it" on three pages (a how-to-play page, the advanced rules, a rules chapter): the
  pictured position opens live, a move is applied in each, and back to the start; a
  restriction of ``docs/play/restrictions.toml`` tried, refused by the engine, the page
  showing its words and its clause, linked; an illegal move of the reader's own refused too.
- A restriction no move can break (a city's one owner) tried on its page: its move applied,
  the page saying it held, citing its clause; every restriction of the page with its "Try it".
- A whole game against a bot on the static table: created in the lobby, played by clicks to
  the end, the page reloaded mid-game and the game going on from where it was, the record
  downloaded, the game watched again, the page in every language.
- The start kept: a second start restores the memory snapshot the first kept in the browser
  (nothing imported, its own ids and seeds drawn), and a snapshot of other wheels, or one that
  is none, is refused for a fresh start that keeps a new one.

The Pyodide package is found as the site's hook finds it (``$GAIA_PYODIDE``, ``.ci-node``);
outside CI the tests are skipped without it or without Debian's ``/usr/bin/chromium``.
Screenshots go to ``$GAIA_SCREENSHOTS``.
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import json
import os
import random
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

from tests.browsing import CI, need_chromium  # noqa: E402
from tests.loading import load_hook  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAME_TIME = 600.0
"""Seconds a whole game may take on a busy machine before the test gives up."""
READY_TIME = 120_000
"""Milliseconds the engine may take to start on a busy machine (the budget is the
benchmark's to measure, not a test's)."""

pytestmark = pytest.mark.browser

need_chromium()

HOOKS = ROOT / "docs" / "hooks"


static_table = load_hook("static_table")


def _pyodide_here() -> bool:
    places = [os.environ.get("GAIA_PYODIDE", ""), str(ROOT / ".ci-node/node_modules/pyodide")]
    return any(p and static_table._version(Path(p)) == static_table.PYODIDE_VERSION for p in places)


if not _pyodide_here() and not CI:
    pytest.skip("the npm package pyodide is not installed", allow_module_level=True)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The docs site, built strictly, served from a folder: its address."""
    folder = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(folder)]
    built = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


class Page:
    """A page of the site, every request it makes checked to stay on the site."""

    def __init__(self, browser: Any, site: str) -> None:
        self.context = browser.new_context(accept_downloads=True)
        self.page = self.context.new_page()
        self.site = site
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith((self.site, "data:", "blob:")):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def open(self, path: str) -> None:
        self.page.goto(self.site + path)
        self.ready()

    def ready(self) -> None:
        self.page.wait_for_function(
            "document.documentElement.dataset.engine === 'ready'", timeout=READY_TIME
        )

    @property
    def state(self) -> str:
        return str(self.page.evaluate("document.body.dataset.state || ''"))

    @property
    def moves(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.moves || 0)"))

    def close(self) -> None:
        assert self.outside == [], f"requests outside the site: {self.outside}"
        assert self.errors == [], f"errors in the page: {self.errors}"
        self.context.close()


def click_any(page: Any, rng: random.Random) -> None:
    """Click one outlined choice, or confirm a Power once its effect shows."""
    try:
        if page.locator("#confirm").count():
            page.wait_for_selector("#effect li", timeout=10000)
            page.click("#confirm", timeout=5000)
            return
        choices = page.locator(".choosable")
        count = choices.count()
        if count:
            choices.nth(rng.randrange(count)).click(timeout=5000)
    except sync_api.Error:
        pass  # the page changed under the click: look again


def play_until(seat: Page, rng: random.Random, stop: Any) -> None:
    """Click until ``stop()`` is true, or the game is over."""
    deadline = time.monotonic() + GAME_TIME
    while seat.state != "over" and not stop():
        assert time.monotonic() < deadline, f"the game did not move on: {seat.state}"
        if seat.state == "choose":
            click_any(seat.page, rng)
        else:
            seat.page.wait_for_timeout(20)


def test_a_whole_game_against_a_bot_on_the_static_table(
    browser: Any, site: str, shots: Path
) -> None:
    seat = Page(browser, site)
    page = seat.page
    seat.open("table/")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.evaluate("document.documentElement.dataset.engine") == "ready"
    page.screenshot(path=str(shots / "static-lobby.png"))
    page.select_option("#players", "2")
    page.select_option("#seat-1", "greedy")
    page.click("#create")
    page.wait_for_function("['choose', 'wait'].includes(document.body.dataset.state)")
    assert page.url.split("#")[1].startswith("play:")
    rng = random.Random(31)
    play_until(seat, rng, lambda: seat.moves >= 12 and seat.state == "choose")
    page.screenshot(path=str(shots / "static-mid-game.png"))

    # a reload mid-game: the game goes on from where it was, the same seat to move
    before = page.evaluate("[window.gaia.table.state.moves, window.gaia.table.state.legal]")
    page.reload()
    seat.ready()
    page.wait_for_function("document.body.dataset.state === 'choose'", timeout=READY_TIME)
    after = page.evaluate("[window.gaia.table.state.moves, window.gaia.table.state.legal]")
    assert after == before
    page.screenshot(path=str(shots / "static-after-reload.png"))

    play_until(seat, rng, lambda: False)
    page.wait_for_selector("#result:not([hidden])")
    page.screenshot(path=str(shots / "static-over.png"))
    moves = seat.moves
    rows = page.locator("#result-table tbody tr").count()
    assert rows == 2

    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text("utf-8"))
    assert len(record["actions"]) == moves and record["result"] is not None

    # watched again: every step, as each seat saw it
    page.click("#watch-again")
    page.wait_for_function("document.body.dataset.state === 'replay'", timeout=READY_TIME)
    assert page.evaluate("window.gaia.replay.message.replay.steps") == moves
    page.click("#replay-first")
    page.wait_for_function("window.gaia.replay.message.replay.step === 0")
    page.click("#replay-next")
    page.wait_for_function("window.gaia.replay.message.replay.step === 1")
    page.screenshot(path=str(shots / "static-replay.png"))

    # the page in every language, the engine's words among them
    for lang in ("de", "fr", "hu", "en"):
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        page.screenshot(path=str(shots / f"static-replay-{lang}.png"))
    seat.close()


def test_a_record_dropped_on_the_static_table_keeps_its_63_bit_seed(
    browser: Any, site: str, tmp_path: Path
) -> None:
    """A record whose seed is above 2**53, which a JavaScript number would round, opened from
    the lobby: the engine in the page replays the file's text, so the replay is the recorded
    game (named by the digest of that very text), all its steps."""
    from tests.replays import a_game_of_a_big_seed  # noqa: PLC0415 (after the site's build)

    game = a_game_of_a_big_seed()
    text = game.record().to_json()
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    seat = Page(browser, site)
    page = seat.page
    seat.open("table/")
    page.wait_for_selector("#lobby:not([hidden])")
    page.set_input_files("#record-file", str(path))
    page.wait_for_function("document.body.dataset.state === 'replay'", timeout=READY_TIME)
    name = hashlib.sha256(text.encode()).hexdigest()[:24]
    assert page.url.endswith(f"#record:{name}")
    assert page.evaluate("window.gaia.replay.message.replay.steps") == len(game.actions)
    seat.close()


def try_open(seat: Page, path: str, name: str) -> Any:
    """The "Try it" of the situation ``name`` on the page ``path``, opened: its box."""
    page = seat.page
    page.goto(seat.site + path)
    # the page starts its engine once drawn, before the reader reaches for "Try it"
    page.wait_for_function("document.documentElement.dataset.engine", timeout=READY_TIME)
    box = page.locator(f'[data-try="{name}"]')
    box.locator("[data-try-open]").click()
    page.wait_for_selector(f'[data-try="{name}"] .gaia-try-world svg', timeout=READY_TIME)
    assert page.evaluate("document.documentElement.dataset.engine") == "ready"
    return box


def apply_a_legal_move(box: Any) -> None:
    """Take the first outlined choice: a card then an outlined square, or a button."""
    assert box.locator(".gaia-try-world .choosable[data-pick^='sq:']").count() > 0
    hand = box.locator(".gaia-try-hand button.choosable")
    buttons = box.locator(".gaia-try-choices button.choosable")
    if hand.count():
        hand.first.click()
        box.page.wait_for_function(
            "(b) => b.querySelector('.gaia-try-hand [aria-pressed=\"true\"]')",
            arg=box.element_handle(),
        )
        box.locator(".gaia-try-world .choosable[data-pick^='sq:']").first.click()
    else:
        buttons.first.click()
    box.page.wait_for_function("(b) => b.dataset.moves === '1'", arg=box.element_handle())


RESTRICTIONS = ROOT / "docs" / "play" / "restrictions.toml"


def test_try_it_on_three_pages_a_move_applied_in_each_and_a_restriction_refused(
    browser: Any, site: str, shots: Path
) -> None:
    seat = Page(browser, site)
    page = seat.page
    for path, name in (
        ("play/basic/", "city-placement"),
        ("play/advanced/", "stealing"),
        ("rules/07-nature/", "tile-placement"),
    ):
        box = try_open(seat, path, name)
        assert box.locator("[data-pick].choosable").count() > 0
        apply_a_legal_move(box)
        assert box.locator(".gaia-try-said li").count() > 0  # what the move did, in words
        box.screenshot(path=str(shots / f"try-{name}.png"))
        box.locator("[data-try-reset]").click()
        page.wait_for_function("(b) => b.dataset.moves === '0'", arg=box.element_handle())

    # on the last page, a restriction tried: the engine refuses the move, the page says why
    # and cites the clause
    listed = {entry["clause"] for entry in tomllib.loads(RESTRICTIONS.read_text())["restriction"]}
    box.locator("[data-try-refused]").first.click()
    refusal = box.locator(".gaia-try-refused")
    refusal.wait_for(timeout=30000)
    clause = refusal.get_attribute("data-clause")
    assert clause == "7.2" and clause in listed
    assert "not open" in refusal.inner_text() and f"clause {clause}" in refusal.inner_text()
    moves = box.evaluate(
        "(b) => b.gaiaTrial.engine.ask('board', {game: b.gaiaTrial.game}).then((x) => x.moves)"
    )
    assert str(moves) == box.get_attribute("data-moves")  # nothing was applied
    href = refusal.locator("a").get_attribute("href")
    assert href is not None and href.endswith(f"#clause-{clause}")
    box.screenshot(path=str(shots / "try-refused.png"))
    # and a move of the reader's own: a Nature card on a tile already in play
    box.locator("[data-try-reset]").click()
    page.wait_for_function("(b) => !b.querySelector('.gaia-try-refused')", arg=box.element_handle())
    box.locator(".gaia-try-hand button").first.click()
    box.locator(".gaia-try-world g.square[data-pos]").first.click()
    refusal.wait_for(timeout=30000)
    assert refusal.get_attribute("data-clause") == "7.2"
    page.goto(href)
    assert page.locator(f'[id="clause-{clause}"]').count() == 1
    seat.close()


def test_restrictions_tried_from_positions_set_up_for_them_are_refused_in_the_page(
    browser: Any, site: str
) -> None:
    """A trial whose record starts from a set-up position, on each page that has one: the
    engine in the page refuses the move by the restriction's clause, and says so."""
    seat = Page(browser, site)
    for path, clause, words in (
        ("play/basic/", "8.4", "mandatory"),
        ("play/powers/", "13.8d", "holds no card"),
        ("play/disasters/", "14.3d", "not enough deserts"),
    ):
        box = try_open(seat, path, f"restriction-{clause}")
        box.locator("[data-try-refused]").first.click()
        refusal = box.locator(".gaia-try-refused")
        refusal.wait_for(timeout=30000)
        assert refusal.get_attribute("data-clause") == clause
        assert words in refusal.inner_text() and f"clause {clause}" in refusal.inner_text()
    # on a translated page the page's own words are in its language, the engine's in English
    box = try_open(seat, "de/play/basic/", "restriction-8.4")
    assert "Den abgelehnten Zug ausprobieren" in box.inner_text()
    box.locator("[data-try-refused]").first.click()
    refusal = box.locator(".gaia-try-refused")
    refusal.wait_for(timeout=30000)
    assert refusal.get_attribute("data-clause") == "8.4"
    said = refusal.inner_text()
    assert "Abgelehnt:" in said and "Abschnitt 8.4" in said and "mandatory" in said
    seat.close()


def test_a_restriction_no_move_breaks_is_tried_and_the_page_says_it_held(
    browser: Any, site: str, shots: Path
) -> None:
    """Every restriction of a page has its "Try it"; one no move can break (12.1, a city's
    one owner) opens where it is at stake, its move applied, and the page says it held, citing
    its clause: the stolen city carries the thief's pawn alone."""
    seat = Page(browser, site)
    box = try_open(seat, "play/advanced/", "restriction-12.1")
    listed = tomllib.loads(RESTRICTIONS.read_text())["restriction"]
    advanced = [e["clause"] for e in listed if e.get("page") == "advanced.md"]
    tries = seat.page.locator("[data-try^='restriction-']")
    assert sorted(tries.evaluate_all("(boxes) => boxes.map((b) => b.dataset.try)")) == sorted(
        f"restriction-{clause}" for clause in advanced
    )
    assert box.locator("[data-pick].choosable").count() > 0  # the legal choices outlined
    box.locator("[data-try-kept]").first.click()
    held = box.locator(".gaia-try-kept")
    held.wait_for(timeout=30000)
    assert held.get_attribute("data-kept") == "12.1"
    text = held.inner_text()
    assert "Nothing can break this: A city now has one owner" in text and "clause 12.1" in text
    assert box.get_attribute("data-moves") == "1"
    city = box.evaluate(
        "(b) => b.gaiaTrial.engine.ask('state', {game: b.gaiaTrial.game, seat: null})"
        ".then((s) => s.view.cities['0,0'])"
    )
    assert city == {"card": "C12", "pawns": [0], "satisfaction": 3}
    box.screenshot(path=str(shots / "try-kept.png"))
    seat.close()


KEPT = "document.documentElement.dataset.engineKept === 'snapshot'"
CACHE = "gaia-table-engine"
"""The Cache Storage where the worker keeps its snapshot (worker.js)."""


UNSEEDED = """async () => {
  const engine = window.gaia.engine;
  const created = await engine.ask("create", { players: 2 });
  const { text } = await engine.ask("record", { game: created.game, force: true, text: true });
  return [created.game, text.match(/"seed": *([0-9]+)/)[1]];
}"""
"""A new game with no seed given: its id and the seed drawn for it."""


def _start(seat: Page) -> dict[str, Any]:
    """How the page's engine started (its timings), once it has a game's board drawn."""
    page = seat.page
    seat.ready()
    board = page.evaluate(
        """async () => {
          const engine = window.gaia.engine;
          const bots = [null, "greedy", "search"];
          const created = await engine.ask("create", { players: 3, bots, seed: 5 });
          return engine.ask("board", { game: created.game });
        }"""
    )
    assert board["to_move"] == 0 and "<svg" in board["world"] and board["choices"]
    timings: dict[str, Any] = page.evaluate("window.gaia.engine.timings")
    assert page.evaluate("document.documentElement.dataset.engineStart") == timings["start"]
    return timings


def test_a_second_start_restores_the_snapshot_and_a_stale_one_falls_back(
    browser: Any, site: str
) -> None:
    seat = Page(browser, site)
    page = seat.page
    index = json.loads(page.request.get(site + "table/wheels/index.json").text())
    key = f"{site}table/snapshot/pyodide-{index['pyodide']}-{index['digest']}.bin"
    keys = f"caches.open('{CACHE}').then((c) => c.keys()).then((k) => k.map((r) => r.url))"

    # the first start: from nothing, and it keeps its snapshot
    page.goto(site + "table/")
    first = _start(seat)
    assert first["start"] == "fresh" and "imports" in first and "fallback" not in first
    page.wait_for_function(KEPT, timeout=READY_TIME)
    assert page.evaluate(keys) == [key]

    # the next: the snapshot restored, nothing imported; and each restored start draws its own
    # seeds and ids (secrets come from the browser, not from the snapshot's memory)
    drawn = []
    for _ in range(2):
        page.reload()
        second = _start(seat)
        assert second["start"] == "snapshot" and "imports" not in second, second
        drawn.append(page.evaluate(UNSEEDED))
    assert drawn[0][0] != drawn[1][0] and drawn[0][1] != drawn[1][1], drawn

    # new wheels whose snapshot's name is taken by the former wheels' snapshot: not restored
    # (it says whose it is), a fresh start, and the snapshot of the new wheels kept alone
    other = {**index, "digest": "0" * 16}
    stale = f"{site}table/snapshot/pyodide-{index['pyodide']}-{other['digest']}.bin"
    page.evaluate(
        """async ([key, stale, cache]) => {
          const kept = await caches.open(cache);
          await kept.put(stale, await kept.match(key));
        }""",
        [key, stale, CACHE],
    )
    page.route("**/table/wheels/index.json", lambda route: route.fulfill(json=other))
    page.reload()
    third = _start(seat)
    assert third["start"] == "fresh" and index["digest"] in third["fallback"], third
    page.wait_for_function(KEPT, timeout=READY_TIME)
    assert page.evaluate(keys) == [stale]
    page.reload()
    assert _start(seat)["start"] == "snapshot"
    page.unroute("**/table/wheels/index.json")

    # a snapshot that is none (a broken storage, another runtime's): a fresh start
    page.evaluate(
        """async ([key, cache]) => {
          const kept = await caches.open(cache);
          await kept.put(key, new Response(new Uint8Array(4096).fill(7)));
        }""",
        [key, CACHE],
    )
    page.reload()
    fourth = _start(seat)
    assert fourth["start"] == "fresh" and "not restored" in fourth["fallback"], fourth
    page.wait_for_function(KEPT, timeout=READY_TIME)
    assert page.evaluate(keys) == [key]
    seat.close()
