"""What a player sees at a glance, in a real headless Chromium (Debian's ``chromium``, driven
by Playwright) against a real server: a 3-seat disasters game against two bots played for a
while through the page at 1366x768 and on a 390x844 touch phone, in the four languages.

- The cards in front of each player are at least 48 px wide with their name visible and the
  number of copies beside it, covering nothing; any card (hand, displays, in front, the log's
  mentions) shows its whole face, at least 150 px wide, on hover, on a long press and on "i".
- The Objectives are in sight beside the world, each with every seat's progress in words.
- No tip shows for a card the pointer did not move onto (the next one sliding under it).
- On a phone the prompt stays in sight, the decks' names show, and no keyboard hint.
- The title says whose move it is; the log is a polite live region; one h1 per page; the
  focus goes to the next choice after Escape.

Screenshots go to ``$GAIA_SCREENSHOTS`` (a folder; a temporary one otherwise).
"""

from __future__ import annotations

import json
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
from tests.browsing import LANGUAGES, need_chromium  # noqa: E402
from tests.web_server import Server  # noqa: E402

SEED = 11
STATIC = Path(__file__).resolve().parent.parent / "src" / "gaia_rules" / "web" / "static" / "i18n"
ENGLISH: dict[str, str] = json.loads((STATIC / "en.json").read_text(encoding="utf-8"))

need_chromium()


def new_game(server: Server, seed: int = SEED) -> str:
    """A 3-seat disasters game, seat 1 (0) a person, two greedy bots; its seat's link."""
    status, data = server.call(
        "POST",
        "/api/games",
        {
            "players": 3,
            "rules": gr.Rules.disasters().to_dict(),
            "bots": [None, "greedy", "greedy"],
            "seed": seed,
        },
    )
    assert status == 201
    url: str = data["seats"][0]["url"]
    return server.url.rstrip("/") + url


def choose_state(page: Any) -> None:
    page.wait_for_selector("body[data-state=choose], body[data-state=over]", timeout=60000)


def play_until_cards_in_front(page: Any, rng: random.Random, groups: int = 3) -> None:
    """Click choices (Nature cards first) until this seat has ``groups`` faces in front."""
    for _ in range(200):
        choose_state(page)
        if page.evaluate("document.body.dataset.state") == "over":
            return
        if page.locator('.player[data-seat="0"] .tableau .card').count() >= groups:
            return
        if page.locator("#confirm").count():
            page.wait_for_selector("#effect li")
            page.click("#confirm")
            continue
        nature = page.locator('.choosable[data-pick^="hand:"][data-pick*="nature"]')
        squares = page.locator("#world .choosable")
        choices = page.locator(".choosable")
        try:
            if squares.count():
                squares.nth(rng.randrange(squares.count())).click(timeout=5000)
            elif nature.count():
                nature.nth(0).click(timeout=5000)
            else:
                choices.nth(rng.randrange(choices.count())).click(timeout=5000)
        except sync_api.Error:
            continue
        page.wait_for_timeout(50)
    raise AssertionError("no cards in front after 200 clicks")


H1S = "[...document.querySelectorAll('h1')].filter((h) => !h.closest('[hidden]')).length"
"""The level-one headings of the page as it stands (those in a hidden part aside)."""


TINY_CARD_WORDS = """(() => {
  const found = [];
  for (const img of document.querySelectorAll('#table .card img')) {
    const width = img.getBoundingClientRect().width;
    if (!width || width >= 150 || !img.src.startsWith('data:image/svg+xml')) continue;
    const svg = decodeURIComponent(img.src.slice(img.src.indexOf(',') + 1));
    for (const match of svg.matchAll(/<text[^>]*font-size="([\\d.]+)"[^>]*>([^<]*)/g)) {
      const px = Number(match[1]) * width / 100;
      if (px < 9) found.push([match[2], Math.round(px * 10) / 10]);
    }
  }
  return found;
})()"""
"""Each word of a card's picture drawn below 9 px on the page, with its size."""


def shown_face_width(page: Any) -> float:
    """The width of the face the tip shows, 0 when it shows none."""
    width: float = page.evaluate(
        "(() => { const tip = document.getElementById('tip'); const img = tip.querySelector('img');"
        " return tip.hidden || !img ? 0 : img.getBoundingClientRect().width; })()"
    )
    return width


def test_cards_objectives_and_cues_at_1366(server: Server, browser: Any, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(new_game(server))
    choose_state(page)
    # the title says it is this seat's move
    assert page.title() == "● Your move · Gaïa"
    # one h1 on the table's page; the log a polite live region
    assert page.evaluate(H1S) == 1
    assert page.locator("#log").get_attribute("aria-live") == "polite"
    rng = random.Random(3)
    play_until_cards_in_front(page, rng)
    choose_state(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.move(1, 1)

    # every card in front: at least 48 px wide, its name visible, its count covering nothing
    fronts = page.evaluate(
        """[...document.querySelectorAll('.tableau li')].map((li) => {
          const card = li.querySelector('.card').getBoundingClientRect();
          const name = li.querySelector('.name-caption .name');
          const count = li.querySelector('.count');
          const box = count ? count.getBoundingClientRect() : null;
          const over = box && box.left < card.right && box.right > card.left
            && box.top < card.bottom && box.bottom > card.top;
          return { width: card.width, name: name ? name.innerText : '',
                   nameWidth: name ? name.getBoundingClientRect().width : 0,
                   clipped: name ? name.scrollWidth > name.clientWidth + 1 : true,
                   face: li.querySelector('.card').dataset.face || '', over: Boolean(over) };
        })"""
    )
    assert fronts, "no card in front"
    for front in fronts:
        assert front["width"] >= 48, front
        assert front["name"] and front["nameWidth"] > 0 and not front["clipped"], front
        assert not front["over"], front
        assert front["face"], front
    # every card element keeps its face's key
    assert page.evaluate(
        "[...document.querySelectorAll('.card:not(.back):not(.empty-deck)')]"
        ".every((c) => c.dataset.face)"
    )

    # the whole face, enlarged, on hover: a card in front, in the hand, on display, an Objective
    for selector in (
        ".tableau .card",
        "#hand .card",
        "#displays .display-row .card:not(.back)",
        "#objectives .card",
    ):
        card = page.locator(selector).first
        card.scroll_into_view_if_needed()
        card.hover()
        page.wait_for_timeout(600)
        assert shown_face_width(page) >= 150, selector
        page.mouse.move(1, 1)
        page.wait_for_timeout(400)
    # and by key: "i" on a focused card
    page.locator(".tableau .card").first.focus()
    assert page.evaluate("document.activeElement.matches('.tableau .card')")  # reachable by keys
    page.keyboard.press("i")
    page.wait_for_selector("#tip:not([hidden]) img", timeout=3000)
    assert shown_face_width(page) >= 150
    page.keyboard.press("Escape")
    page.evaluate("window.scrollTo(0, 0)")

    # the Objectives in sight during a turn, each with every seat's progress in words
    box = page.locator("#objectives").bounding_box()
    assert box is not None and box["y"] + 40 < 768 and box["y"] >= 0
    rows = page.locator("#objectives > li").count()
    lines = page.locator("#objectives .progress li").all_inner_texts()
    open_objectives = page.evaluate(
        "window.gaia.table.state.view.objectives.filter("
        "(id) => !(id in window.gaia.table.state.view.objective_pawns)).length"
    )
    assert rows >= 1 and len(lines) == 3 * open_objectives
    assert all(" of " in line for line in lines), lines
    page.screenshot(path=str(shots / "look-1366-en.png"))

    # no stray tip: a choice clicked, the card drawn under the still pointer shows nothing
    hand = page.locator('#hand .choosable[data-pick^="hand:"]')
    if hand.count():
        hand.first.click()
        page.wait_for_timeout(700)
        assert page.locator("#tip").is_hidden()
        # Escape: the choice undone, the focus on the next sensible control, not the page
        page.keyboard.press("Escape")
        page.wait_for_timeout(100)
        focused = page.evaluate(
            "document.activeElement.matches('[data-pick], button')"
            " ? 'choice' : document.activeElement.tagName"
        )
        assert focused == "choice"
        assert page.locator("#tip").is_hidden()  # the page moved the focus: no tip with it
    # an action taken with the keys: once its state is drawn, the focus is on the next choice
    draw = page.locator("#displays .choosable")
    assert draw.count()
    moves = page.evaluate("window.gaia.table.state.moves")
    draw.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => window.gaia.table.state.moves > {moves}"
        " && document.body.dataset.state === 'choose'",
        timeout=60000,
    )
    page.wait_for_timeout(200)
    assert page.evaluate("document.activeElement.matches('.choosable, #buttons button')")

    # the four languages: nothing below 9 px, the Objectives' progress in each one's words
    for lang in ("de", "fr", "hu", "en"):
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'")
        # no word of a card's picture drawn below 9 px (the enlarged face has them all)
        small = page.evaluate(TINY_CARD_WORDS)
        assert small == [], (lang, small[:5])
        tiny = page.evaluate(
            """[...document.querySelectorAll('#table *')].filter((n) => n.childNodes.length
              && [...n.childNodes].some((c) => c.nodeType === 3 && c.data.trim())
              && n.offsetParent !== null
              && parseFloat(getComputedStyle(n).fontSize) < 9).map((n) => n.className)"""
        )
        assert tiny == [], (lang, tiny)
        page.mouse.move(1, 1)
        page.screenshot(path=str(shots / f"look-1366-{lang}.png"))
        page.screenshot(path=str(shots / f"look-1366-{lang}-full.png"), full_page=True)
    assert errors == []
    context.close()


def test_a_phone_keeps_the_prompt_in_sight(server: Server, browser: Any, shots: Path) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="en-GB"
    )
    page = context.new_page()
    page.goto(new_game(server))
    choose_state(page)
    # no keyboard hint on a touch screen
    assert page.locator("#world-keys").is_hidden()
    # the decks' names readable: nothing covers the name of a deck's kind
    heads = page.evaluate(
        """[...document.querySelectorAll('.display h3')].map((h) => {
          h.scrollIntoView({ block: 'center' });
          const r = h.getBoundingClientRect();
          const at = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
          return { text: h.innerText, clear: h.contains(at) || at === h };
        })"""
    )
    assert heads and all(h["text"] and h["clear"] for h in heads), heads
    # a deck's count stands clear of the kind's name, printed at the foot of its back
    decks = page.evaluate(
        """[...document.querySelectorAll('#displays .card.back')].map((card) => {
          const img = card.querySelector('img').getBoundingClientRect();
          const count = card.querySelector('.count').getBoundingClientRect();
          return count.bottom <= img.top + img.height * 0.4;
        })"""
    )
    assert decks and all(decks), decks
    # the prompt stays in sight when the page scrolls to the cards
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(200)
    prompt = page.locator("#prompt").bounding_box()
    assert prompt is not None and prompt["y"] >= 0 and prompt["y"] < 200, prompt
    # a long press on a card shows its face, enlarged, and chooses nothing
    card = page.locator("#hand .card").first
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    assert box is not None
    before = page.evaluate("window.gaia.table.picked.length")
    cdp = context.new_cdp_session(page)
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(800)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(200)
    assert shown_face_width(page) >= 150
    assert page.evaluate("window.gaia.table.picked.length") == before
    assert page.locator("#world-keys").is_hidden()  # a finger has no keys
    for lang in LANGUAGES:
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"() => document.body.dataset.lang === '{lang}'")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(shots / f"look-phone-{lang}.png"))
        page.screenshot(path=str(shots / f"look-phone-{lang}-full.png"), full_page=True)
    context.close()


FIND_PLAY = """(kind) => {
  // a play of the outcomes the page holds that leads to ``kind``, and the pick of its card
  const table = window.gaia.table;
  const known = table.outcomes;
  if (!known || !table.state || known.moves !== table.state.moves) return null;
  const key = (face) => JSON.stringify(
    Object.keys(face).filter((k) => k !== 'id').sort().map((k) => [k, face[k]]));
  const play = known.plays.find((p) => kind === 'city' ? p.city
    : (p.objectives.length || p.offered || p.ends));
  return play ? { pick: `hand:${key(table.faces[play.action.card])}`, pos: play.action.pos } : null;
}"""


def drive_to_a_notable_play(server: Server, game: str, tokens: list[str], seed: int) -> str:
    """Play both seats through the API (seat 0 playing its Nature cards, seat 1 at random)
    until seat 0 may play a card that fulfils an Objective or ends the game; the kind found
    ("objective"), or "" if the game ended first."""
    rng = random.Random(seed)
    for _ in range(600):
        states = [server.call("GET", f"/api/games/{game}", token=token)[1] for token in tokens]
        if states[0]["over"]:
            return ""
        seat = next(seat for seat, state in enumerate(states) if state["legal"])
        state, token = states[seat], tokens[seat]
        legal = state["legal"]
        if seat == 0:
            _, found = server.call("GET", f"/api/games/{game}/outcomes", token=token)
            if any(p["objectives"] or p["offered"] or p["ends"] for p in found["plays"]):
                return "objective"
            nature = [a for a in legal if a["type"] == "PlayNature"]
            draws = [a for a in legal if a["type"] == "DrawDeck" and a.get("kind") == "nature"]
            action = (nature or draws or legal)[0] if rng.random() < 0.9 else rng.choice(legal)
        else:
            action = rng.choice(legal)
        status, _ = server.call(
            "POST", f"/api/games/{game}/actions", {"move": state["moves"], "action": action}, token
        )
        assert status == 200
    return ""


def test_a_play_is_previewed_on_its_square(server: Server, browser: Any, shots: Path) -> None:
    """A city shows the needs it would meet, and a play fulfilling an Objective (or ending
    the game) says so on its square and in the prompt, before the square is chosen."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    seen: set[str] = set()
    for seed in range(20, 40):
        status, data = server.call(
            "POST",
            "/api/games",
            {"players": 2, "rules": gr.Rules.basic().to_dict(), "seed": seed},
        )
        assert status == 201
        tokens = [s["token"] for s in data["seats"]]
        if drive_to_a_notable_play(server, data["game"], tokens, seed):
            break
    else:
        raise AssertionError("no game reached a play fulfilling an Objective")
    page.goto(server.url.rstrip("/") + data["seats"][0]["url"])
    choose_state(page)
    page.wait_for_function("() => window.gaia.table.outcomes !== null")
    for kind in ("objective", "city"):
        found = page.evaluate(FIND_PLAY, kind)
        if not found:
            continue
        clicked = page.evaluate(
            "(pick) => { const card = [...document.querySelectorAll('#hand .choosable')]"
            ".find((node) => node.dataset.pick === pick); if (card) card.click();"
            " return Boolean(card); }",
            found["pick"],
        )
        assert clicked
        square = f'#world [data-pos="{found["pos"]}"]'
        page.wait_for_selector(f"{square}[data-outcome]")
        words = page.locator(square).get_attribute("data-outcome") or ""
        label = page.locator(square).get_attribute("aria-label") or ""
        assert words in label
        if kind == "city":
            assert " needs met" in words or " need met" in words
            assert page.locator("#world g.outcome-city").count() >= 1
        else:
            assert "this play" in words
            assert page.locator("#world g.outcome-objective, #world g.outcome-win").count() >= 1
            lines = page.locator("#outcomes li").all_inner_texts()
            assert any(words in line for line in lines), lines
            page.mouse.move(1, 1)
            page.screenshot(path=str(shots / "look-outcome-objective.png"))
        seen.add(kind)
        page.keyboard.press("Escape")
    assert "objective" in seen, seen
    context.close()


def test_the_log_names_squares_and_cards_and_jumps_in_the_replay(
    server: Server, browser: Any, shots: Path
) -> None:
    """A line of the log marks the squares and the cards it names on hover or focus; in the
    replay, a click on a line goes to the step of the action it tells of."""
    game = gr.new_game(3, gr.Rules.disasters(), 7)
    rng = random.Random(7)
    for _ in range(40):
        game.apply(rng.choice(list(game.legal_actions())))
    while not game.is_over:
        game.apply(rng.choice(list(game.legal_actions())))
    status, opened = server.call("POST", "/api/replays", json.loads(game.record().to_json()))
    assert status in (200, 201), opened
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.url.rstrip('/')}/replay?step=30&seat=0#record={opened['replay']}")
    page.wait_for_selector("body[data-state=replay]")
    page.wait_for_function("() => document.body.dataset.step === '30'")
    # a line naming a square: the square marked on the board while the pointer is on it
    line = page.locator("#log li[data-squares]").last
    line.scroll_into_view_if_needed()
    line.hover()
    squares = (line.get_attribute("data-squares") or "").split()
    assert squares
    marked = page.evaluate(
        "[...document.querySelectorAll('#world rect.named')].map((r) => r.dataset.at)"
    )
    assert set(marked) == set(squares)
    page.mouse.move(1, 1)
    assert page.locator("#world rect.named").count() == 0
    # a line naming a card: its face, enlarged, on focus from the keyboard
    named = page.locator("#log li[data-names]").last
    named.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("document.activeElement.matches('#log li.linked')")
    assert focused
    # a line of an earlier action: the replay goes to its step
    target = page.evaluate(
        """(() => {
          const events = window.gaia.replay.message.events;
          const lines = [...document.querySelectorAll('#log li[data-event]')];
          let step = 0; const steps = [];
          events.forEach((e) => { if (e.type === 'ActionTaken' && !e.by_engine) step += 1;
                                  steps.push(step); });
          const line = lines.find((l) => steps[Number(l.dataset.event)] === 12);
          return line ? Number(line.dataset.event) : null;
        })()"""
    )
    assert target is not None
    page.click(f'#log li[data-event="{target}"]')
    page.wait_for_function("() => document.body.dataset.step === '12'")
    page.mouse.move(1, 1)
    page.screenshot(path=str(shots / "look-replay-jump.png"))
    context.close()


def test_the_lobby_lists_open_games_takes_a_seed_and_copies_links(
    server: Server, browser: Any, shots: Path
) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector("body[data-state=lobby]")
    assert page.evaluate(H1S) == 1
    page.select_option("#players", "3")
    page.select_option("#seat-1", "person")
    page.select_option("#seat-2", "greedy")
    page.click("#more-rules summary")
    page.fill("#seed", "4242")
    sent: list[Any] = []
    page.on(
        "request",
        lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/games") else None,
    )
    page.click("#create")
    page.wait_for_selector("#links:not([hidden])")
    assert sent and sent[0]["seed"] == 4242
    # each link copied with one click
    copy = page.locator("#link-list button.copy").nth(1)
    url = copy.get_attribute("data-url")
    copy.click()
    page.wait_for_function(
        "() => document.querySelectorAll('#link-list button.copy')[1].textContent === 'Copied'"
    )
    assert page.evaluate("navigator.clipboard.readText()") == url
    page.screenshot(path=str(shots / "look-lobby-links.png"), full_page=True)
    # another person sees the game among the open ones, and joins it with one click
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    visitor = other.new_page()
    visitor.goto(server.url)
    visitor.wait_for_selector("#open-list button.join")
    words = visitor.locator("#open-list li").first.inner_text()
    assert "1 free seat" in words, words
    assert "#" not in (visitor.locator("#open-list").inner_html())  # no link, no token
    visitor.screenshot(path=str(shots / "look-phone-lobby.png"), full_page=True)
    visitor.locator("#open-list button.join").first.click()
    visitor.wait_for_url("**/play/**")
    visitor.wait_for_selector("body[data-state=choose], body[data-state=wait]")
    assert visitor.evaluate("window.gaia.table.state.seat") == 1
    assert visitor.url.split("#")[1] == (url or "").split("#")[1]
    other.close()
    # a private game is not listed
    page.goto(server.url)
    page.wait_for_selector("body[data-state=lobby]")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "person")
    page.check("#private")
    page.click("#create")
    page.wait_for_selector("#links:not([hidden])")
    status, listed = server.call("GET", "/api/games/open")
    assert status == 200 and listed["games"] == []
    context.close()


POWER_PLAYS = {"PlaySun", "PlayRain", "PlayEarthquake", "PlayTornado", "PlayLightning"}


def drive_to_a_power_against(server: Server, game: str, tokens: list[str]) -> dict[str, Any]:
    """Play both seats through the API until seat 1 may play a Power while seat 0 holds a
    Power card (so seat 0 is asked about Protection); that Power play, not made yet."""
    for _ in range(400):
        states = [server.call("GET", f"/api/games/{game}", token=token)[1] for token in tokens]
        if states[0]["over"]:
            break
        seat = next(seat for seat, state in enumerate(states) if state["legal"])
        state, legal = states[seat], states[seat]["legal"]
        holds = "power" in states[1]["view"]["hand_backs"][0]
        powers = [a for a in legal if a["type"] in POWER_PLAYS]
        if seat == 1 and holds and powers and state["view"]["decision"]["type"] == "ChooseAction":
            power: dict[str, Any] = powers[0]
            return power
        draws = [a for a in legal if a["type"] == "DrawDeck" and a.get("kind") == "power"]
        passes = [a for a in legal if a["type"] == "PassProtection"]
        action = (passes or draws or legal)[0]
        status, _ = server.call(
            "POST",
            f"/api/games/{game}/actions",
            {"move": state["moves"], "action": action},
            tokens[seat],
        )
        assert status == 200
    return {}


@pytest.mark.clause("13.11")
def test_a_quick_pass_answers_a_protection_window_after_one_delay(
    server: Server, browser: Any
) -> None:
    """With the quick pass on, a Protection window of the seat is answered with a pass after
    the fixed delay (4 s), not before, whatever the seat holds; the player may act before."""
    for seed in range(50, 70):
        status, data = server.call(
            "POST", "/api/games", {"players": 2, "rules": gr.Rules.powers().to_dict(), "seed": seed}
        )
        assert status == 201
        tokens = [s["token"] for s in data["seats"]]
        power = drive_to_a_power_against(server, data["game"], tokens)
        if power:
            break
    else:
        raise AssertionError("no game reached a Power played against a holder")
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    context.add_init_script("window.localStorage.setItem('gaia.quickPass', '1')")
    page = context.new_page()
    page.goto(server.url.rstrip("/") + data["seats"][0]["url"])
    page.wait_for_selector("body[data-state=wait]")
    assert page.is_checked("#quick-pass")
    posted: list[float] = []
    page.on(
        "request",
        lambda r: posted.append(time.monotonic()) if r.url.endswith("/actions") else None,
    )
    _, state = server.call("GET", f"/api/games/{data['game']}", token=tokens[1])
    status, _ = server.call(
        "POST",
        f"/api/games/{data['game']}/actions",
        {"move": state["moves"], "action": power},
        tokens[1],
    )
    assert status == 200
    page.wait_for_function(
        "() => window.gaia.table.state.view.decision"
        " && window.gaia.table.state.view.decision.type === 'ChooseProtection'"
        " && window.gaia.table.state.legal"
    )
    shown = time.monotonic()
    holds = page.evaluate("window.gaia.table.state.legal.some((a) => a.type === 'Protect')")
    assert "Quick pass" in page.locator("#hint").inner_text()
    page.wait_for_timeout(3000)
    assert posted == []  # not before the delay
    page.wait_for_function(
        "() => window.gaia.table.state.view.decision.type !== 'ChooseProtection'"
        " || !window.gaia.table.state.legal",
        timeout=10000,
    )
    assert len(posted) == 1
    assert 3.5 <= posted[0] - shown <= 6.0, (posted[0] - shown, holds)
    context.close()


CITY_NAMES = """() => [...document.querySelectorAll('#world text.name')]
  .map((n) => [n.dataset.name, n.textContent])"""


def test_city_names_are_in_the_page_s_language(server: Server, browser: Any, shots: Path) -> None:
    """The cities' names on the board, the cards and the log come from the catalogue."""
    game = gr.new_game(3, gr.Rules.disasters(), 9)
    rng = random.Random(9)
    while not game.is_over:
        legal = list(game.legal_actions())
        cities = [a for a in legal if isinstance(a, gr.PlayCity)]
        game.apply(rng.choice(cities) if cities else rng.choice(legal))
    status, opened = server.call("POST", "/api/replays", json.loads(game.record().to_json()))
    assert status in (200, 201)
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{server.url.rstrip('/')}/replay?seat=all#record={opened['replay']}")
    page.wait_for_selector("body[data-state=replay]")
    page.wait_for_function("() => window.gaia.replay.message !== null")  # the last step
    assert page.evaluate(CITY_NAMES), "no city on the board"
    for lang in ("de", "fr", "hu"):
        words = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))
        page.select_option("#lang-switch", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        expected = {
            key.split(".", 2)[2]: text
            for key, text in words.items()
            if key.startswith("card.city.")
        }
        # the faces of the language come after its words: the page is drawn again then
        page.wait_for_function(
            f"(expected) => ({CITY_NAMES})().every(([name, shown]) => expected[name] === shown)",
            arg=expected,
            timeout=10000,
        )
        for name, shown in page.evaluate(CITY_NAMES):
            assert shown == words[f"card.city.{name}"], (lang, name, shown)
        # no English name that the language says otherwise, in the log or on a card's label
        english = {
            name: words[key]
            for key, name in ENGLISH.items()
            if key.startswith("card.city.") and words[key] != name
        }
        text = page.locator("#log").inner_text() + " ".join(
            page.evaluate(
                "[...document.querySelectorAll('.card[aria-label]')]"
                ".map((c) => c.getAttribute('aria-label'))"
            )
        )
        left = sorted(name for name in english if re.search(rf"\b{name}\b", text))
        assert left == [], (lang, left)
        page.mouse.move(1, 1)
        page.screenshot(path=str(shots / f"look-replay-cities-{lang}.png"))
    context.close()
