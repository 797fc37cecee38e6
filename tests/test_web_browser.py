"""Whole games played by clicking in a real headless Chromium (Debian's ``chromium``, driven by
Playwright) against a real server on a loopback port.

- Two people, one browser context each, play a game to its end from the links the lobby
  hands out.
- One person plays a 3-player game against two bots, created from the lobby's defaults.

Every state message a page receives over its WebSocket, every API answer it reads, and its
DOM as it stands at each click are checked: no card hidden from that seat ever reaches its
page. A stale submission shows the engine's refusal with its clause.

Set ``GAIA_SCREENSHOT=docs/assets/play-in-browser.png`` to write the README's picture.
Skipped when the ``web`` extra or Playwright is missing, or outside CI when there is no
``/usr/bin/chromium``.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import gaia_rules as gr  # noqa: E402
from gaia_rules.web.messages import seat_events, seat_view  # noqa: E402
from tests.hidden import blind_to  # noqa: E402
from tests.web_server import Server, running_server  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")
GAME_TIME = 600.0
"""Seconds a whole game may take on a busy machine before the test gives up."""

if not CHROMIUM.exists() and not os.environ.get("CI"):
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("web") / "games.sqlite3") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Seat:
    """One seat's page, and everything that reached it over the network."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.received: list[Any] = []
        """Each state message and API answer the page got, decoded."""
        self.errors: list[str] = []
        page.on("websocket", self._socket)
        page.on("response", self._response)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

    def _response(self, response: Any) -> None:
        if "/api/" in response.url:
            self.received.append(json.loads(response.text()))

    @property
    def state(self) -> str:
        return str(self.page.evaluate("document.body.dataset.state || ''"))

    @property
    def moves(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.moves || 0)"))

    def snapshot(self) -> tuple[int, str]:
        """The page's DOM and the number of actions it shows, read at one instant (a state
        arriving between two reads would pair a DOM with the wrong count)."""
        moves, dom = self.page.evaluate(
            "[Number(document.body.dataset.moves || 0), document.documentElement.outerHTML]"
        )
        return int(moves), str(dom)

    def click_any(self, rng: random.Random) -> bool:
        """Click one of the highlighted choices; ``False`` if the page changed under it."""
        choices = self.page.locator(".choosable")
        count = choices.count()
        if count == 0:
            return False
        try:
            choices.nth(rng.randrange(count)).click(timeout=5000)
        except sync_api.Error:
            return False
        return True


class Shares:
    """What each seat may see after each number of actions, from the finished game's record:
    the cards its view and its log name, and the cards it never saw (in a deck, or in
    another hand since it was dealt or drawn blind)."""

    def __init__(self, record: gr.GameRecord) -> None:
        self.rules, self.players = record.rules, record.players
        game = gr.new_game(record.players, record.rules, record.seed, record.first_player)
        dealt = game.state.hands
        self.visible: list[list[set[str]]] = []
        self.blind: list[list[set[str]]] = []
        for count in range(len(record.actions) + 1):
            if count:
                game.apply(record.actions[count - 1])
            seats: list[int | None] = [*range(game.players), None]  # None: a spectator
            self.visible.append([self._named(game, seat) for seat in seats])
            self.blind.append([blind_to(game, seat, dealt) for seat in seats])

    @staticmethod
    def _named(game: gr.Game, seat: int | None) -> set[str]:
        view, events = seat_view(game, seat), seat_events(game, seat)
        return set(CARD_ID.findall(json.dumps([view, [e.to_data() for e in events]])))

    def check(self, seat: int | None, moves: int, text: str, where: str) -> None:
        """No card in ``text``, received by ``seat`` (``None``: a spectator) after ``moves``
        actions, is one it may not see."""
        index = self.players if seat is None else seat
        named = set(CARD_ID.findall(text))
        leaked = named - self.visible[moves][index]
        assert not leaked, f"{where}: seat {seat} was shown {sorted(leaked)} after {moves} actions"
        hidden = named & self.blind[moves][index]
        assert not hidden, f"{where}: seat {seat} was shown {sorted(hidden)} after {moves} actions"


def play_to_the_end(seats: list[Seat], rng: random.Random) -> list[tuple[int, int, str]]:
    """Click until every page shows the end; each clicking page's DOM at each click."""
    doms: list[tuple[int, int, str]] = []
    deadline = time.monotonic() + GAME_TIME
    while not all(seat.state == "over" for seat in seats):
        assert time.monotonic() < deadline, "the game did not end in time"
        ready = [i for i, seat in enumerate(seats) if seat.state == "choose"]
        if not ready:
            seats[0].page.wait_for_timeout(20)
            continue
        index = ready[0]
        doms.append((index, *seats[index].snapshot()))
        seats[index].click_any(rng)
    return doms


def check_everything(
    shares: Shares,
    seats: list[Seat],
    seat_numbers: list[int | None],
    doms: list[tuple[int, int, str]],
) -> int:
    checked = 0
    for seat, number in zip(seats, seat_numbers, strict=True):
        assert not seat.errors, seat.errors
        for message in seat.received:
            if "moves" in message:  # a state, or the answer to an action
                shares.check(number, message["moves"], json.dumps(message), "network")
                checked += 1
    for index, moves, dom in doms:
        shares.check(seat_numbers[index], moves, dom, "page")
        checked += 1
    return checked


def test_two_people_play_a_whole_game_each_in_their_own_browser(
    server: Server, browser: Any
) -> None:
    lobby = browser.new_context()
    page = lobby.new_page()
    page.goto(server.url)
    page.select_option("#players", "2")
    page.select_option("#level", "powers")
    page.select_option("select[data-seat='1']", "person")
    page.click("#create")
    page.wait_for_selector("#links:not([hidden])")
    links = [page.get_attribute(f"a.seat-link[data-seat='{s}']", "href") for s in (0, 1)]
    watch = page.get_attribute("a.spectator-link", "href")
    lobby.close()
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in links]
    seats = [Seat(context.new_page()) for context in contexts]
    for seat, link in zip(seats, links, strict=True):
        seat.page.goto(link)
    spectators = browser.new_context(viewport={"width": 390, "height": 844})
    spectator = Seat(spectators.new_page())
    spectator.page.goto(watch)
    seats[0].page.wait_for_selector("body[data-state=choose]")
    stale = seats[0].page.evaluate("window.gaia.table.state.legal[0]")

    doms = play_to_the_end(seats, random.Random(5))
    spectator.page.wait_for_selector("body[data-state=over]")
    assert spectator.page.locator("#hand .card").count() == 0
    doms.append((2, *spectator.snapshot()))

    # both pages show the same end, in words
    texts = [seat.page.inner_text("#status") for seat in seats]
    assert all(text.startswith("Game over") for text in texts)
    token = links[0].split("#")[1]
    game_id = links[0].split("/play/")[1].split("#")[0]
    status, record = server.call("GET", f"/api/games/{game_id}/record", token=token)
    assert status == 200
    result = record["result"]
    assert ("you win" in texts[result["winner"]]) and ("you win" not in texts[1 - result["winner"]])
    # a submission the game has moved past is refused, with the engine's clause shown
    seats[0].page.evaluate("(action) => window.gaia.submit(action)", stale)
    refusal = seats[0].page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert "clause 15.1" in refusal.inner_text()
    shares = Shares(gr.GameRecord.from_data(record))
    assert check_everything(shares, [*seats, spectator], [0, 1, None], doms) > 100
    for context in [*contexts, spectators]:
        context.close()


def test_a_person_plays_two_bots_to_the_end_from_the_lobby(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    seat = Seat(context.new_page())
    page = seat.page
    page.goto(server.url)
    page.select_option("#level", "advanced")
    page.click("#create")  # 3 players: you, and two greedy bots
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-state=choose]")
    rng = random.Random(8)
    doms: list[tuple[int, int, str]] = []
    shot = os.environ.get("GAIA_SCREENSHOT")
    taken = False
    deadline = time.monotonic() + GAME_TIME
    while seat.state != "over":
        assert time.monotonic() < deadline, "the game did not end in time"
        if seat.state != "choose":
            page.wait_for_timeout(20)
            continue
        doms.append((0, *seat.snapshot()))
        seat.click_any(rng)
        picked = page.evaluate("window.gaia.table.picked.length && !window.gaia.table.busy")
        if shot and seat.moves >= 24 and picked and not taken:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=shot, full_page=True)  # a card chosen, its squares outlined
            taken = True
    status_line = page.inner_text("#status")
    assert status_line.startswith("Game over")
    assert page.locator("#log li").count() > 50
    # the phone-sized screen: nothing wider than it
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    game_id = page.url.split("/play/")[1].split("#")[0]
    token = page.url.split("#")[1]
    status, record = server.call("GET", f"/api/games/{game_id}/record", token=token)
    assert status == 200
    shares = Shares(gr.GameRecord.from_data(record))
    assert check_everything(shares, [seat], [0], doms) > 50
    context.close()
