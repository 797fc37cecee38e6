"""Whole games played in a real headless Chromium (Debian's ``chromium``, driven by Playwright)
against a real server on a loopback port, asserted through the page's DOM.

- A powers game of two people, each in their own browser, with a spectator on a phone-sized
  screen: every card shows a picture face, the Power Objective names 4 Power cards, a
  Protection prompt outlines its target and says what the Power would do, an opponent's move
  is marked on the board, the end shows the result table and a working rematch.
- A disasters game of one person against two bots, created from the lobby: a whole turn taken
  with the keyboard alone, Eruption and Lightning previewed before they are confirmed, the
  replay page stepped back and forth as each seat saw it, the page in every language.

Every state message a page receives, every API answer it reads, and its DOM at each click are
checked: no card hidden from that seat reaches its page (by card id in what it receives, by
face in what it shows). axe-core, injected into the page, finds no serious or critical
violation in the lobby, a turn, a Protection prompt, the end or the replay.

Screenshots of each state are written to ``$GAIA_SCREENSHOTS`` (a folder; a temporary one
otherwise); ``GAIA_README_PICTURE=docs/assets/play-in-browser.png`` also writes the README's
picture. axe-core comes from the npm registry (``npm install --prefix .ci-node axe-core@4``);
its ``axe.min.js`` is found at ``$GAIA_AXE_CORE`` or under ``.ci-node``. Outside CI, the tests
are skipped without Debian's ``/usr/bin/chromium`` and the axe checks without axe-core.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import gaia_rules as gr  # noqa: E402
from gaia_rules.web.messages import seat_events, seat_view  # noqa: E402
from tests.browsing import CI, LANGUAGES, need_chromium  # noqa: E402
from tests.hidden import blind_to  # noqa: E402
from tests.replays import (  # noqa: E402
    BIG_SEED,
    a_game_of_a_big_seed,
    an_eruption_from_a_position,
    played_on,
)
from tests.web_server import Server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")
GAME_TIME = 600.0
"""Seconds a whole game may take on a busy machine before the test gives up."""
need_chromium()


def axe_script() -> str | None:
    """axe-core's ``axe.min.js``, from ``$GAIA_AXE_CORE`` or ``.ci-node``."""
    for candidate in (
        os.environ.get("GAIA_AXE_CORE"),
        str(ROOT / ".ci-node" / "node_modules" / "axe-core" / "axe.min.js"),
    ):
        if candidate and Path(candidate).is_file():
            return Path(candidate).read_text(encoding="utf-8")
    return None


# -- a seat's page -------------------------------------------------------------------------------


class Seat:
    """One page, and everything that reached it over the network."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[Any] = []
        """Each state message the page's WebSocket got, decoded."""
        self.errors: list[str] = []
        page.add_init_script(KEEP_ANSWERS)
        page.on("websocket", self._socket)
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # the browser logs every 4xx it receives (a refused stale action, no rematch yet):
        # those are the tests' own doing; anything else logged as an error is a fault
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def received(self) -> list[Any]:
        """Each state message, replay step and API answer the page got since the last call,
        decoded (read before the page leaves: its answers leave with it)."""
        answers: list[str] = self.page.evaluate("window.__answers.splice(0)")
        messages = [*self.frames]
        for text in answers:
            with contextlib.suppress(ValueError):  # a record downloaded is no message
                messages.append(json.loads(text))
        self.frames = []
        return messages

    @property
    def state(self) -> str:
        return str(self.page.evaluate("document.body.dataset.state || ''"))

    @property
    def moves(self) -> int:
        return int(self.page.evaluate("Number(document.body.dataset.moves || 0)"))

    def snapshot(self) -> tuple[int, str]:
        """The page's DOM and the number of actions it shows, read at one instant."""
        moves, dom = self.page.evaluate(
            "[Number(document.body.dataset.moves || 0), document.documentElement.outerHTML]"
        )
        return int(moves), str(dom)

    def shows(self) -> list[str]:
        """What the page's regions show that its view does not: [] when all is well."""
        found: list[str] = self.page.evaluate(SHOWS)
        return found

    def click_any(self, rng: random.Random, prefer_powers: float = 0.0) -> bool:
        """Click one highlighted choice (a Power card first, with ``prefer_powers``), or
        confirm a Power once its effect shows; ``False`` if the page changed under it."""
        page = self.page
        try:
            if page.locator("#confirm").count():
                page.wait_for_selector("#effect li", timeout=10000)
                page.click("#confirm", timeout=5000)
                return True
            choices = page.locator(".choosable")
            count = choices.count()
            if count == 0:
                return False
            powers = page.locator('.choosable[data-pick^="hand:"][data-pick*="power"]')
            held = powers.count()  # counted once: the page may change between two counts
            if held and rng.random() < prefer_powers:
                powers.nth(rng.randrange(held)).click(timeout=5000)
            else:
                choices.nth(rng.randrange(count)).click(timeout=5000)
        except sync_api.Error:
            return False
        return True


KEEP_ANSWERS = """
// the tests keep a copy of every answer of the API the page reads (the card faces aside)
window.__answers = [];
const fetched = window.fetch;
window.fetch = async (...args) => {
  const response = await fetched(...args);
  const url = String(args[0] && args[0].url ? args[0].url : args[0]);
  if (url.includes("/api/") && !url.includes("/api/faces")) {
    response.clone().text().then((text) => window.__answers.push(text));
  }
  return response;
};
"""

SHOWS = """() => {
  // every region of the page against the view the page holds: faces, never a hidden card
  const t = window.gaia.table.state ? window.gaia.table : null;
  const r = window.gaia.replay.message ? window.gaia.replay.message : null;
  const view = t ? t.state.view : r.view;
  const faces = t ? t.faces : r.faces;
  const key = (face) => JSON.stringify(
    Object.keys(face).filter((k) => k !== "id").sort().map((k) => [k, face[k]]));
  const shown = (sel) => [...document.querySelectorAll(sel)]
    .flatMap((n) => Array(Number(n.dataset.count || 1)).fill(n.dataset.face)).sort();
  const want = (ids) => ids.map((id) => key(faces[id])).sort();
  const wrong = [];
  const same = (a, b, what) => { if (JSON.stringify(a) !== JSON.stringify(b)) wrong.push(what); };
  same(shown("#hand [data-face]"), want(view.hand || []), "hand");
  const stolen = (view.stolen || []).filter((s) => s[2] !== null).map((s) => s[2]);
  same(shown("#stolen [data-face]"), want(stolen), "stolen");
  same(shown("#objectives [data-face]"), want(view.objectives), "objectives");
  for (let seat = 0; seat < view.players; seat++) {
    const player = `.player[data-seat="${seat}"]`;
    same(shown(`${player} .tableau [data-face]`), want(view.tableaux[seat]), `front ${seat}`);
    if (document.querySelector(`${player} .backs [data-face]`)) wrong.push(`backs ${seat}`);
  }
  const displayed = Object.values(view.displays).flat().concat(Object.values(view.discards).flat());
  same(shown("#displays [data-face]"), want(displayed), "displays");
  const hands = r && r.hands ? r.hands.flat() : [];
  same(shown("#all-hands [data-face]"), want(hands), "all hands");
  // every card is a picture
  for (const card of document.querySelectorAll(".card:not(.empty-deck)")) {
    const img = card.querySelector("img");
    if (!img || !img.src.startsWith("data:image/svg+xml")) wrong.push("a card without its picture");
  }
  // no card id anywhere in what the page shows or holds in its markup (a picture's data aside)
  const found = new Set();
  const walker = document.createTreeWalker(
    document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    const texts = node.nodeType === Node.TEXT_NODE ? [node.data]
      : [...node.attributes].filter((a) => a.name !== "src").map((a) => a.value);
    for (const text of texts) {
      for (const id of text.match(/\\b[NCAPO][0-9]{2}\\b/g) || []) found.add(id);
    }
  }
  if (found.size) wrong.push(`card ids in the page: ${[...found].join(" ")}`);
  return wrong;
}"""


class Shares:
    """What each seat may see after each number of actions, from the finished game's record:
    the cards its view and its log name, and the cards it never saw."""

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


def check_network(shares: Shares, seat: Seat, number: int | None) -> int:
    """Every state message and answer ``seat``'s page received names only what it may see;
    a replay step, only what the seat it shows could see then."""
    checked = 0
    for message in seat.received():
        if not isinstance(message, dict):
            continue
        if message.get("type") == "replay":
            info = message["replay"]
            if info["seat"] == "all":
                assert info["over"]  # every hand, once the game is over only
                continue
            who = None if info["seat"] == "spectator" else info["seat"]
            shares.check(who, info["step"], json.dumps(message), "replay")
            checked += 1
        elif "moves" in message and "rematch" not in message:
            shares.check(number, message["moves"], json.dumps(message), "network")
            checked += 1
    return checked


def shoot(page: Any, path: Path, *, full_page: bool = False) -> None:
    """A screenshot of the page as a player sees it: no tip left by the pointer."""
    page.mouse.move(1, 1)
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=full_page)


def accessible(page: Any, where: str) -> None:
    """axe-core finds no serious or critical violation in the page as it stands."""
    script = axe_script()
    if script is None:
        if CI:
            pytest.fail("CI installs axe-core (.ci/run): axe.min.js is missing")
        return
    if not page.evaluate("typeof window.axe === 'object'"):
        # through the debugger, as the page's policy allows no inline script (and no eval)
        page.evaluate(f"{script}\n;0")
    result = page.evaluate("async () => (await axe.run(document)).violations")
    grave = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in result
        if v["impact"] in ("serious", "critical")
    ]
    assert grave == [], f"{where}: {grave}"


STATIC = ROOT / "src" / "gaia_rules" / "web" / "static" / "i18n"

SAID = """() => {
  // each text the page shows or names a control with, one piece per node or attribute
  const said = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest("[hidden], script, style, option")) continue;
    if (node.data.trim()) said.push(node.data.trim());
  }
  for (const node of document.querySelectorAll("[aria-label],[alt],[title]")) {
    for (const name of ["aria-label", "alt", "title"]) {
      const value = (node.getAttribute(name) || "").trim();
      if (value) said.push(value);
    }
  }
  return said;
}"""


def no_untranslated(page: Any, lang: str) -> None:
    """No message missing from ``lang``'s catalogue, and none left in the language the page
    was in before: every text is a whole message of the catalogue chosen, never another's."""
    said: list[str] = page.evaluate(SAID)
    text = " ".join(said)
    assert "⟦" not in text, f"{lang}: {re.findall(r'⟦[^⟧]*⟧', text)[:5]}"
    assert page.evaluate("document.documentElement.lang") == lang
    mine = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))
    stale = set()
    for other in LANGUAGES:
        catalogue = json.loads((STATIC / f"{other}.json").read_text(encoding="utf-8"))
        stale |= {
            words
            for key, words in catalogue.items()
            if "{" not in words and words != mine[key] and words not in mine.values()
        }
    left = sorted({piece for piece in said if piece in stale})
    assert left == [], f"{lang}: words of another language left on the page: {left}"


def play_to_the_end(
    seats: list[Seat], rng: random.Random, on_step: Any = None, prefer_powers: float = 0.0
) -> list[tuple[int, int, list[str]]]:
    """Click until every page shows the end; what each clicking page showed wrong (nothing,
    when all is well) at each click."""
    found: list[tuple[int, int, list[str]]] = []
    deadline = time.monotonic() + GAME_TIME
    moved = (time.monotonic(), -1)
    while not all(seat.state == "over" for seat in seats):
        assert time.monotonic() < deadline, "the game did not end in time"
        moves = seats[0].moves
        if moves != moved[1]:
            moved = (time.monotonic(), moves)
        assert time.monotonic() - moved[0] < 90, f"stuck after {moves} actions: {stuck(seats)}"
        ready = [i for i, seat in enumerate(seats) if seat.state == "choose"]
        if not ready:
            seats[0].page.wait_for_timeout(20)
            continue
        index = ready[0]
        seat = seats[index]
        if on_step is not None:
            on_step(index, seat)
        found.append((index, seat.moves, seat.shows()))
        seat.click_any(rng, prefer_powers)
    return found


def stuck(seats: list[Seat]) -> list[Any]:
    """What each page shows and offers, to say why a game does not move."""
    return [
        seat.page.evaluate(
            "[document.body.dataset.state, document.getElementById('prompt').innerText,"
            " [...document.querySelectorAll('.choosable')].map((n) => n.dataset.pick).slice(0, 8)]"
        )
        for seat in seats
    ]


def prompt_says_what_is_asked(page: Any, asked: set[str]) -> None:
    """The prompt names what is decided: a discard its limit, an Objective the word."""
    # read in one call: between two calls a new state may arrive and the status change
    decision, status = page.evaluate(
        "[window.gaia.table.state.view.decision.type, document.getElementById('status').innerText]"
    )
    if decision == "ChooseLimitDiscard":
        assert "limit" in status and ("6" in status or "2" in status), status
        asked.add(decision)
    elif decision == "ChooseObjective":
        assert "Objective" in status, status
        asked.add(decision)
    elif decision == "ChooseBack":
        assert "Tornado" in status, status
        asked.add(decision)


def last_turns_say_everything(page: Any, lang: str = "en") -> int:
    """Each other player's "last turn" names what each of its actions concerned: no summary is
    left without its card, city or square ("fulfilled" alone). The number of summaries read."""
    words = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))
    bare = {
        re.sub(r"\{\w+\}", "", text).strip()
        for key, text in words.items()
        if key.startswith("summary.") and "{" in text
    }
    said: list[str] = page.evaluate(
        "[...document.querySelectorAll('.last-turn')]"
        ".map((p) => p.innerText.slice(p.querySelector('strong').innerText.length))"
    )
    parts = [part.strip() for text in said for part in text.split(";")]
    empty = [part for part in parts if part in bare]
    assert empty == [], f"{lang}: last turns with a word missing: {said}"
    return len(parts)


def assert_shows_nothing_wrong(found: list[tuple[int, int, list[str]]]) -> None:
    wrong = sorted({what for _, _, shown in found for what in shown})
    assert wrong == [], f"{len([f for f in found if f[2]])} of {len(found)} clicks: {wrong}"


# -- the powers game: two people, a spectator -----------------------------------------------------


def two_people_powers(server: Server) -> tuple[str, list[str], str]:
    """A 2-player powers game whose Objectives include a Power Objective (the seed chosen
    here, where the deal is known; one game created, within the server's limits)."""
    rules = gr.Rules.powers()
    seed = next(
        seed
        for seed in range(1000)
        if any(
            getattr(rules.cards.face(card), "is_power", False)
            for card in gr.new_game(2, rules, seed).view(0).objectives
        )
    )
    status, data = server.call(
        "POST", "/api/games", {"players": 2, "rules": rules.to_dict(), "seed": seed}
    )
    assert status == 201
    return data["game"], [s["token"] for s in data["seats"]], data["spectator"]["token"]


def test_two_people_play_a_powers_game_to_the_end_and_a_rematch(
    server: Server, browser: Any, shots: Path
) -> None:
    started = time.monotonic()
    game_id, tokens, watch = two_people_powers(server)
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}) for _ in tokens]
    seats = [Seat(context.new_page()) for context in contexts]
    for seat, token in zip(seats, tokens, strict=True):
        seat.page.goto(f"{server.url}play/{game_id}#{token}")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    spectator = Seat(phone.new_page())
    spectator.page.goto(f"{server.url}play/{game_id}#{watch}")
    seats[0].page.wait_for_selector("body[data-state=choose]")
    page = seats[0].page

    # the Power Objective names its 4 Power cards, in its picture's words and its tip
    power_objective = page.locator('#objectives [data-face*="objective_powers"]').first
    assert "4 Power cards" in (power_objective.get_attribute("aria-label") or "")
    power_objective.hover()
    page.wait_for_selector("#tip:not([hidden])")  # once the pointer rests on it
    assert "4 Power cards" in page.inner_text("#tip")
    assert "play/powers/" in (page.get_attribute("#tip a", "href") or "")
    page.mouse.move(0, 0)
    page.evaluate("window.scrollTo(0, 0)")  # the tip's hover scrolled the Objectives into view
    shoot(page, shots / "turn.png")
    accessible(page, "a turn")
    stale = page.evaluate("window.gaia.table.state.legal[0]")

    seen: dict[str, bool] = {"protection": False, "marked": False}
    asked: set[str] = set()

    def on_step(index: int, seat: Seat) -> None:
        page = seat.page
        prompt_says_what_is_asked(page, asked)
        last_turns_say_everything(page)
        decision = page.evaluate("window.gaia.table.state.view.decision.type")
        if decision == "ChooseProtection" and not seen["protection"]:
            # the card played, its target outlined, what it would do in words
            page.wait_for_selector("#effect li")
            squares, outlined = page.evaluate(  # one call: a state may arrive between two
                "[window.gaia.table.state.effect.squares,"
                " [...document.querySelectorAll('#world rect.preview')].map((r) => r.dataset.at)]"
            )
            if squares:
                assert sorted(outlined) == sorted(squares)
                seen["protection"] = True
                assert page.locator("#buttons [data-pick='btn:pass']").count() == 1
                shoot(page, shots / "protection.png")
                accessible(page, "a Protection prompt")
        if (
            not seen["marked"]
            and page.locator("#world rect.mark").count()
            and not page.locator("#world rect.preview").count()  # a mark alone, for its picture
        ):
            # the opponent's last move is marked where it happened
            log, marked = page.evaluate(  # one call: a state may arrive between two
                "[window.gaia.table.log,"
                " [...document.querySelectorAll('#world rect.mark')].map((r) => r.dataset.at)]"
            )
            # the tiles the other seat placed since this seat's last action
            mine = max(
                (
                    i
                    for i, e in enumerate(log)
                    if e["type"] == "ActionTaken" and e["player"] == index
                ),
                default=-1,
            )
            actor, theirs = index, []
            for event in log[mine + 1 :]:
                if event["type"] == "ActionTaken":
                    actor = event["player"]
                elif event["type"] == "TilePlaced" and actor != index:
                    theirs.append(event)
            if theirs:
                assert {e["pos"] for e in theirs} <= set(marked)
                seen["marked"] = True
                page.evaluate("window.scrollTo(0, 0)")
                shoot(page, shots / "opponent-marked.png")

    found = play_to_the_end(seats, random.Random(5), on_step, prefer_powers=0.6)
    assert_shows_nothing_wrong(found)
    assert seen["protection"], "no Protection prompt with a target came up"
    assert asked, "no discard, Objective or Tornado prompt came up"
    assert seen["marked"], "no opponent's tile was marked"
    spectator.page.wait_for_selector("body[data-state=over]")
    assert spectator.page.locator("#hand [data-face]").count() == 0
    assert spectator.page.evaluate("document.documentElement.scrollWidth") <= 390
    spectator.page.evaluate("document.getElementById('world').scrollIntoView()")
    shoot(spectator.page, shots / "phone-spectator.png")

    # the end: the result table, the record, and a stale action refused with its clause
    status, record = server.call("GET", f"/api/games/{game_id}/record", token=tokens[0])
    assert status == 200
    result = record["result"]
    for seat in seats:
        table = seat.page.locator("#result-table tbody tr")
        assert table.count() == 2
        assert (
            table.first.locator("th").inner_text().startswith(("Blue", "Yellow")[result["winner"]])
        )
        cells = [int(table.nth(i).locator("td").nth(1).inner_text()) for i in range(2)]
        assert sorted(cells, reverse=True) == sorted(result["pawns_placed"], reverse=True)
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, shots / "end.png", full_page=True)
    accessible(page, "the end")
    page.evaluate("(action) => window.gaia.submit(action)", stale)
    page.locator("#refusal").wait_for(state="visible")
    assert "15.1" in page.inner_text("#refusal")
    shares = Shares(gr.GameRecord.from_data(record))
    checked = sum(
        check_network(shares, seat, n)
        for seat, n in zip([*seats, spectator], [0, 1, None], strict=True)
    )
    assert checked > 100
    for seat in [*seats, spectator]:
        assert not seat.errors, seat.errors

    # a rematch: same seats, a new deal; the other seat is offered its own link
    with page.expect_navigation():
        page.click("#rematch")
    page.wait_for_selector("body[data-state]:not([data-state=loading])")
    new_game = page.url.split("/play/")[1].split("#")[0]
    assert new_game != game_id and page.evaluate("window.gaia.table.state.seat") == 0
    # a new deal, under way: a fresh hand, no pawn placed, no result
    page.locator("#hand [data-face]").first.wait_for()
    assert page.evaluate("window.gaia.table.state.moves") == 0
    assert not page.locator("#result").is_visible()
    ready = seats[1].page.locator("#rematch-ready")
    ready.wait_for(state="visible", timeout=15000)
    assert f"/play/{new_game}#" in (ready.get_attribute("href") or "")
    shoot(page, shots / "rematch.png")
    seats[1].page.evaluate("window.scrollTo(0, 0)")
    shoot(seats[1].page, shots / "rematch-offered.png")
    for context in [*contexts, phone]:
        context.close()
    print(f"\n[the powers game took {time.monotonic() - started:.0f} s]")


# -- the disasters game: one person, two bots, from the lobby -------------------------------------


LOBBY_SEED = 1
"""The seed of the game created from the lobby: one in which the person plays Powers of
several kinds, each previewed before it is confirmed."""


def with_seed(seed: int) -> Any:
    """A route handler that adds ``seed`` to the lobby's request to create a game."""

    def handle(route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        body = json.loads(request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": seed}))

    return handle


def keyboard_turn(page: Any, shots: Path) -> None:
    """Draw from the Nature deck, then play a Nature card on a square: keys only."""
    start = int(page.evaluate("Number(document.body.dataset.moves)"))

    def tab_to(selector: str) -> None:
        for _ in range(200):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches({json.dumps(selector)})"):
                return
        raise AssertionError(f"Tab never reached {selector}")

    page.evaluate("document.activeElement && document.activeElement.blur()")
    tab_to('[data-pick="deck:nature"]')
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {start}")
    page.wait_for_selector("body[data-state=choose]")
    tab_to('#hand [data-pick*="nature"].choosable')
    page.keyboard.press("Enter")
    # the focus went to the first square the card may go on: arrow keys move, Enter plays
    page.wait_for_function("() => document.activeElement.matches('[data-pos].choosable')")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / "keyboard.png"))  # the focus ring on the square
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.body.dataset.moves) >= {start + 2}")


def test_a_person_plays_bots_at_the_disasters_level_from_the_lobby(
    server: Server, browser: Any, shots: Path
) -> None:
    started = time.monotonic()
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    seat = Seat(context.new_page())
    page = seat.page
    page.goto(server.url)
    page.wait_for_selector("body[data-state=lobby]")
    page.select_option("#level", "disasters")
    page.click("#more-rules summary")
    # each switch explained in a line, with the page where the rulebooks disagree
    for name in ("edition", "objectives", "feeding", "eruption_on_city", "lightnings"):
        help_line = page.locator(f"#switch-{name}-help")
        assert len(help_line.inner_text()) > 30
        assert "rules/disagreements/" in (help_line.locator("a").get_attribute("href") or "")
    shoot(page, shots / "lobby.png", full_page=True)
    accessible(page, "the lobby")
    for lang in (*LANGUAGES[1:], "en"):  # the lobby's words, each switch's help included
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'")
        no_untranslated(page, lang)
        if lang != "en":
            shoot(page, shots / f"lobby-{lang}.png", full_page=True)
    # the game's seed fixed, so that every run plays the same game (the clicks are drawn from a
    # seeded generator, and each bot decision is seeded from the game's seed)
    page.route("**/api/games", with_seed(LOBBY_SEED))
    page.click("#create")  # 3 players: you, and two greedy bots
    page.wait_for_url("**/play/**")
    page.unroute("**/api/games")
    page.wait_for_selector("body[data-state=choose]")
    # seats count from 1 on the page, each with its colour and name
    names = page.locator(".player-name").all_inner_texts()
    assert [n.split()[:3] for n in names] == [
        ["Seat", "1", "Blue"],
        ["Seat", "2", "Yellow"],
        ["Seat", "3", "Green"],
    ]
    keyboard_turn(page, shots)

    rng = random.Random(8)
    previews: set[str] = set()
    asked: set[str] = set()
    picture = os.environ.get("GAIA_README_PICTURE")
    taken = {"any": False, "best": False}

    def on_step(_: int, seat: Seat) -> None:
        page = seat.page
        prompt_says_what_is_asked(page, asked)
        last_turns_say_everything(page)
        cities = page.locator("#world g.city").count()
        if page.locator("#confirm").count():
            # a Power's target chosen: what it would do, in words and outlined, before confirming
            page.wait_for_selector("#effect li")
            action = page.evaluate("window.gaia.table.confirm.action.type")
            outlined = page.locator("#world rect.preview").count()
            assert outlined >= (0 if action == "PlayTornado" else 1)
            previews.add(action)
            effect = page.evaluate("window.gaia.table.confirm.preview.events.length")
            if picture and not taken["best"] and cities and effect:
                # the README's picture: a Power shown before it is confirmed, cities around
                page.evaluate("window.scrollTo(0, 0)")
                shoot(page, Path(picture))
                taken["best"] = taken["any"] = True
        elif picture and not taken["any"] and cities and page.locator("#world rect.mark").count():
            page.evaluate("window.scrollTo(0, 0)")
            shoot(page, Path(picture))  # until a better moment comes
            taken["any"] = True

    found = play_to_the_end([seat], rng, on_step, prefer_powers=0.7)
    assert_shows_nothing_wrong(found)
    assert previews, "no Power was previewed"
    assert not picture or taken["any"], "no moment for the README's picture came"
    assert page.locator("#result").is_visible()
    log = page.locator("#log li")
    assert log.count() > 50
    # the log in plain words, newest last and in sight
    assert not CARD_ID.search(page.inner_text("#log"))
    assert page.evaluate(
        "(() => { const l = document.getElementById('log');"
        " return l.scrollTop + l.clientHeight >= l.scrollHeight - 2; })()"
    )
    box = page.locator("#log").bounding_box()
    assert box is not None and box["y"] < 768 - 40  # visible on a 1366x768 screen
    game_id = page.url.split("/play/")[1].split("#")[0]
    token = page.url.split("#")[1]
    status, record = server.call("GET", f"/api/games/{game_id}/record", token=token)
    assert status == 200
    shares = Shares(gr.GameRecord.from_data(record))
    assert check_network(shares, seat, 0) > 50

    # the replay: step back and forth, as each seat saw it, every hand once over
    page.goto(f"{server.url}replay/{game_id}#{token}")
    page.wait_for_selector("body[data-state=replay]")
    steps = len(record["actions"])
    assert page.evaluate("Number(document.body.dataset.step)") == steps
    page.click("#replay-first")
    page.wait_for_selector("body[data-step='0']")
    # three clicks before the first step arrives still go three steps on
    page.evaluate(
        "() => { for (let i = 0; i < 3; i++) document.getElementById('replay-next').click(); }"
    )
    page.wait_for_selector("body[data-step='3']")
    page.click("#replay-back")
    page.wait_for_selector("body[data-step='2']")
    replayed = check_network(shares, seat, 0)  # each step as that seat saw it then
    middle = steps // 2
    for who in ("1", "2", "spectator", "0"):
        page.goto(f"{server.url}replay/{game_id}?step={middle}&seat={who}#{token}")
        page.wait_for_selector(f"body[data-step='{middle}']")
        replayed += check_network(shares, seat, 0)
        assert seat.shows() == []
        shown = page.locator("#hand [data-face]").count()
        held = len(shares.visible) and page.evaluate(
            "(window.gaia.replay.message.view.hand || []).length"
        )
        assert shown == held
        assert page.locator("#all-hands [data-face]").count() == 0  # no other hand before the end
    shoot(page, shots / "replay.png", full_page=True)
    accessible(page, "the replay")
    assert replayed >= 8
    page.select_option("#replay-turn", index=3)
    page.wait_for_function("() => Number(document.body.dataset.step) > 0")
    page.select_option("#replay-seat", "all")
    page.wait_for_selector("#all-hands:not([hidden])")
    assert seat.shows() == []
    link = page.get_attribute("#replay-link", "href") or ""
    assert "seat=all" in link and "step=" in link
    for lang in ("de", "en"):  # the replay's own words follow the switch too
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'")
        no_untranslated(page, lang)
    shoot(page, shots / "replay-all-hands.png", full_page=True)

    # the page in each language: no message missing, the cards in its words
    page.goto(f"{server.url}play/{game_id}#{token}")
    page.wait_for_selector("body[data-state=over]")
    for lang in LANGUAGES:
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'")
        no_untranslated(page, lang)
        assert last_turns_say_everything(page, lang) > 0
        shoot(page, shots / f"end-{lang}.png", full_page=True)
    page.select_option("#lang-switch", "en")

    # a phone-sized screen: nothing wider than it
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, shots / "phone.png")
    shoot(page, shots / "phone-whole.png", full_page=True)
    assert not seat.errors, seat.errors
    context.close()
    print(f"\n[the disasters game took {time.monotonic() - started:.0f} s]")


def drop_record(server: Server, browser: Any, folder: Path, text: str) -> tuple[Any, Seat]:
    """A new page of the lobby, a record file of ``text`` dropped on it, and the replay it
    opens: the page's context (to close) and its seat."""
    path = folder / "record.json"
    path.write_text(text, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    seat = Seat(context.new_page())
    seat.page.goto(server.url)
    seat.page.wait_for_selector("body[data-state=lobby]")
    seat.page.set_input_files("#record-file", str(path))
    seat.page.wait_for_url("**/replay#record=*")
    return context, seat


def test_a_record_file_dropped_in_the_lobby_is_replayed(
    server: Server, browser: Any, shots: Path, tmp_path: Path
) -> None:
    """A record that starts from a position, opened from the lobby."""
    game = played_on(an_eruption_from_a_position(), 11, 3)
    context, seat = drop_record(server, browser, tmp_path, game.record().to_json())
    page = seat.page
    page.wait_for_selector("body[data-state=replay]")
    assert page.evaluate("Number(document.body.dataset.step)") == len(game.actions)
    page.click("#replay-first")
    page.wait_for_selector("body[data-step='0']")
    assert page.locator("#world g.city").count() == 1  # Carthage, before the Eruption
    page.click("#replay-next")
    page.wait_for_selector("body[data-step='1']")
    assert page.locator("#world g.city").count() == 0  # destroyed
    assert page.locator("#world rect.mark").count() >= 1
    assert "Carthage" in page.inner_text("#log")
    assert seat.shows() == []
    assert not seat.errors, seat.errors
    context.close()


def test_a_dropped_record_keeps_its_63_bit_seed_to_the_digit(
    server: Server, browser: Any, tmp_path: Path
) -> None:
    """A record's seed above 2**53, which a JavaScript number would round: the lobby sends the
    file's text as it is, so the replay is the recorded game (the server names a replay by
    the digest of its record, and the game dealt from a rounded seed would refuse the
    recorded moves or be another game)."""
    game = a_game_of_a_big_seed()
    text = game.record().to_json()
    assert f'"seed":{BIG_SEED}' in text
    name = hashlib.sha256(gr.GameRecord.from_json(text).to_json().encode()).hexdigest()[:32]
    context, seat = drop_record(server, browser, tmp_path, text)
    page = seat.page
    assert page.url.endswith(f"#record={name}")  # the server replays this very record
    page.wait_for_selector("body[data-state=replay]")
    assert page.evaluate("Number(document.body.dataset.step)") == len(game.actions)
    kept = page.evaluate(f"sessionStorage.getItem('gaia.record.{name}')")
    assert kept == text  # kept as the file's text, posted again as it is if the server forgets
    assert not seat.errors, seat.errors
    context.close()


# -- an accepted action whose state is slow to come ----------------------------------------------


class HeldPushes:
    """A page's WebSocket, routed through the test: the server's pushes reach the page at once,
    or, while ``holding``, when ``release`` lets them go (in the order they came)."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[Any] = []
        self.socket: Any = None

    def route(self, socket: Any) -> None:
        self.socket = socket
        upstream = socket.connect_to_server()
        upstream.on_message(self._pushed)
        socket.on_message(upstream.send)

    def _pushed(self, message: Any) -> None:
        if self.holding:
            self.held.append(message)
        else:
            self.socket.send(message)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.socket.send(message)
        self.held.clear()


def test_a_page_offers_nothing_between_an_accepted_action_and_its_state(
    server: Server, browser: Any, shots: Path
) -> None:
    """Once the server accepts an action, the state the page holds is behind: the page waits
    for the state the push brings rather than offering the old choices again (an action chosen
    on them would answer a move the game has left)."""
    status, data = server.call("POST", "/api/games", {"players": 2, "seed": 3})
    assert status == 201
    pushes = HeldPushes()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    seat = Seat(context.new_page())
    page = seat.page
    page.route_web_socket("**/live", pushes.route)
    page.goto(f"{server.url}play/{data['game']}#{data['seats'][0]['token']}")
    page.wait_for_selector("body[data-state=choose]")
    pushes.holding = True
    with page.expect_response(lambda response: response.url.endswith("/actions")) as answer:
        page.click('[data-pick="deck:nature"]')  # the first of the seat's two actions
    assert answer.value.status == 200
    page.wait_for_timeout(500)  # the answer is in; its state is held back
    assert seat.state == "wait"
    assert seat.moves == 0
    assert page.locator(".choosable").count() == 0
    assert page.inner_text("#hint") == "Sending…"
    shoot(page, shots / "sending.png")
    assert pushes.held, "the server pushed no state"
    pushes.release()
    page.wait_for_selector("body[data-state=choose][data-moves='1']")
    assert page.locator(".choosable").count() > 0
    assert seat.shows() == []
    assert not seat.errors, seat.errors
    context.close()
