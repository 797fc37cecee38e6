"""Every restriction the rules state for an action is named on the "How to play" page of its
level, so a player who learns only from those pages misses none.

``docs/play/restrictions.toml`` lists each clause of sections 5 to 15 that refuses
something, with the page of its level and the words that name it there. The clauses are
found twice over, independently of the list: in the specification, by the words that state a
prohibition, and in the engine, by the clauses its refusals cite. A new restriction is
therefore missed by the list, or by a page, only with a failing test.

Each restriction is also tried live on its page (``restriction-trials.json``, written by
``scripts/restriction_trials.py``): the engine the page runs, asked as the page asks it, refuses
each trial's move by the restriction's own clause. A restriction no move can break (one of the
few listed with the reason) is tried too: from a position where it is at stake, its move is
legal, and in the state after it the engine has kept the restriction.
"""

from __future__ import annotations

import html
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import gaia_rules as gr
from gaia_rules.serialization import from_json
from gaia_rules.web.inbrowser import Engine
from tests.loading import load_hook
from tests.spec_clauses import refusal_clauses

ROOT = Path(__file__).resolve().parent.parent
PLAY = ROOT / "docs" / "play"
LIST = PLAY / "restrictions.toml"
TRIALS = PLAY / "restriction-trials.json"

spec_pages = load_hook("spec_pages")

SECTIONS = frozenset(range(5, 16))
"""The sections whose clauses restrict actions: the turn ("exactly two actions"), drawing,
Nature, Objectives, Life, satisfaction ("one pawn per player per city"), feeding, the
advanced rules, the Powers, the disasters and the end."""

PROHIBITION = re.compile(
    r"\b(?:may not|cannot|may (?:be played|be placed|go) only|is not a legal action"
    r"|never played|must be|the restrictions of \d|at most one)",
    re.I,
)
"""The words with which the specification forbids something."""

LEVEL_PAGES = {
    "basic": "basic.md",
    "advanced": "advanced.md",
    "powers": "powers.md",
    "disasters": "disasters.md",
}
"""The "How to play" page of each rule level."""

ANCHORS = {
    "basic.md": (
        "setup",
        "drawing",
        "nature-card",
        "city-card",
        "animal-card",
        "objectives",
        "feeding",
        "the-end",
    ),
    "advanced.md": ("stealing", "four-needs", "falling-from-four-needs"),
    "powers.md": (
        "setup",
        "power-cards",
        "power-objectives",
        "sun",
        "rain",
        "earthquake",
        "tornado",
        "protection",
    ),
    "disasters.md": ("lightning", "eruption"),
}
"""The heading anchors that other pages (the browser table's card tooltips among them) link
to: one per kind of card and per Power. They must not change."""


def entries() -> list[dict[str, Any]]:
    return list(tomllib.loads(LIST.read_text(encoding="utf-8"))["restriction"])


@pytest.fixture(scope="module")
def spec() -> Any:
    return spec_pages.read_spec(ROOT / "spec")


def clauses_of(spec: Any) -> dict[str, Any]:
    """Every clause of the restricting sections, by id."""
    return {c.id: c for s in spec.sections if s.number in SECTIONS for c in s.clauses}


def stated_prohibitions(spec: Any) -> set[str]:
    """The clauses whose text forbids something."""
    return {id_ for id_, clause in clauses_of(spec).items() if PROHIBITION.search(clause.rule_text)}


def engine_refusals(spec: Any) -> set[str]:
    """The clauses of the restricting sections that the engine's refusals cite."""
    return set(refusal_clauses()) & set(clauses_of(spec))


def level_of(spec: Any, clause: str) -> str:
    """The rule level that brings a clause in (spec 1.2): its section's, or the powers level
    for a clause that says it holds from there."""
    section = next(s for s in spec.sections if any(c.id == clause for c in s.clauses))
    text = clauses_of(spec)[clause].rule_text
    return "powers" if text.startswith("From the powers level") else section.level


def _words(text: str) -> str:
    return " ".join(text.split())


def paragraphs(page: str) -> list[str]:
    """The paragraphs of a page (list items and headings included), whitespace collapsed."""
    return [_words(block) for block in re.split(r"\n\s*\n", page) if block.strip()]


def missing(pages: dict[str, str], listed: list[dict[str, Any]]) -> list[str]:
    """The restrictions of ``listed`` that their page does not name: the words of the list
    and the clause's link must stand in one paragraph."""
    problems = []
    for entry in listed:
        if "not_a_restriction" in entry:
            continue
        link = f"[[{entry['clause']}]]"
        words = [_words(w) for w in entry["named"]]
        found = any(
            link in paragraph and all(w in paragraph for w in words)
            for paragraph in paragraphs(pages[entry["page"]])
        )
        if not found:
            problems.append(f"{entry['page']}: {entry['clause']} ({'; '.join(words)})")
    return problems


def read_pages() -> dict[str, str]:
    return {page: (PLAY / page).read_text(encoding="utf-8") for page in LEVEL_PAGES.values()}


def test_the_clauses_are_found_both_ways(spec: Any) -> None:
    stated, refused = stated_prohibitions(spec), engine_refusals(spec)
    assert {"7.1", "9.1a", "13.4", "13.5", "13.9d", "14.3d"} <= stated
    assert {"6.1", "7.1", "9.3", "13.9a", "14.3a"} <= refused
    assert {"5.2", "10.4"} <= stated and {"5.2", "15.1"} <= refused


def test_every_restriction_of_the_rules_is_listed(spec: Any) -> None:
    listed = [entry["clause"] for entry in entries()]
    assert len(listed) == len(set(listed)), "a clause is listed twice"
    unknown = set(listed) - set(clauses_of(spec))
    assert not unknown, f"listed clauses that are no clause of sections 5-15: {unknown}"
    needed = stated_prohibitions(spec) | engine_refusals(spec)
    assert not needed - set(listed), (
        f"restrictions docs/play/ does not list: {needed - set(listed)}"
    )


def test_a_clause_that_forbids_nothing_says_why_and_is_no_refusal(spec: Any) -> None:
    for entry in entries():
        if "not_a_restriction" in entry:
            assert entry["not_a_restriction"].strip(), entry["clause"]
            assert entry["clause"] not in engine_refusals(spec), entry["clause"]
            assert "named" not in entry, entry["clause"]
        else:
            assert entry["named"] and all(w.strip() for w in entry["named"]), entry["clause"]


def test_each_restriction_is_listed_on_the_page_of_its_level(spec: Any) -> None:
    for entry in entries():
        if "not_a_restriction" not in entry:
            assert entry["page"] == LEVEL_PAGES[level_of(spec, entry["clause"])], entry


def test_each_how_to_play_page_names_every_restriction_of_its_level() -> None:
    assert missing(read_pages(), entries()) == []


@pytest.mark.parametrize(
    "entry",
    [entry for entry in entries() if "not_a_restriction" not in entry],
    ids=lambda entry: entry["clause"],
)
def test_a_restriction_taken_off_its_page_is_missed(entry: dict[str, Any]) -> None:
    pages = read_pages()
    page = pages[entry["page"]]
    without_words = re.sub(r"\s+".join(map(re.escape, entry["named"][0].split())), "", page)
    assert without_words != page
    assert missing({**pages, entry["page"]: without_words}, [entry]) != []
    without_link = page.replace(f"[[{entry['clause']}]]", "")
    assert missing({**pages, entry["page"]: without_link}, [entry]) != []


@pytest.mark.parametrize("page", sorted(ANCHORS))
def test_each_kind_of_card_and_each_power_keeps_its_anchor(page: str) -> None:
    text = (PLAY / page).read_text(encoding="utf-8")
    for anchor in ANCHORS[page]:
        assert re.search(rf"^#+ .+ \{{ #{anchor} \}}$", text, re.M), f"{page}#{anchor}"


UNTRIABLE = frozenset({"9.1c", "10.4", "12.1", "12.2", "13.9d"})
"""The restrictions no move can break, each said so in the list with the reason. The engine
holds four itself: where an Animal card's four tokens go (9.1c), the pawns put on the cities a
change raises (10.4), a city's one owner (12.1), and a city with four needs met raised by
nothing (12.2); no move names a tile for a token, a pawn beyond 10.5's choice, or an owner.
And a Protection has nothing to cancel a Protection in: the window Protection answers opens
only after a Power played as an action, which a Protection never is (13.9d; 13.9a is tried)."""


def trials() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads(TRIALS.read_text(encoding="utf-8"))
    return data


def test_each_restriction_is_tried_or_says_why_no_move_breaks_it(spec: Any) -> None:
    listed = [entry for entry in entries() if "not_a_restriction" not in entry]
    untriable = {entry["clause"] for entry in listed if "untriable" in entry}
    assert untriable == UNTRIABLE
    for entry in listed:
        if entry["clause"] in untriable:
            assert entry["untriable"].strip(), entry["clause"]
    assert set(trials()) == {entry["clause"] for entry in listed}
    # a clause the engine cites in a refusal has a move that breaks it: it must be tried
    assert not UNTRIABLE & engine_refusals(spec)


def ask(engine: Engine, **request: Any) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine.handle(json.dumps(request)))
    return answer


@pytest.mark.parametrize("clause", [clause for clause in trials() if clause not in UNTRIABLE])
def test_each_trial_is_refused_by_its_own_clause(clause: str) -> None:
    """As the page asks: the record opened as its JSON text, the move applied for its player;
    refused as illegal, citing the clause, and nothing applied."""
    trial = trials()[clause]
    engine = Engine()
    opened = ask(engine, op="open", record=trial["record"])
    assert "error" not in opened, opened
    action = json.loads(trial["action"])
    before = ask(engine, op="board", game=opened["game"])["moves"]
    answer = ask(engine, op="apply", game=opened["game"], seat=action["player"], action=action)
    assert answer.get("error", {}).get("kind") == "illegal", answer
    assert answer["error"]["clause"] == clause, answer["error"]
    assert ask(engine, op="board", game=opened["game"])["moves"] == before
    # and the game the record replays refuses it the same way
    game = gr.GameRecord.from_json(trial["record"]).replay()
    with pytest.raises(gr.IllegalActionError) as refused:
        game.apply(from_json(trial["action"], gr.Action))
    assert refused.value.clause == clause


def kept_state(clause: str) -> tuple[gr.GameState, gr.GameState, gr.Action, list[dict[str, Any]]]:
    """A restriction no move can break, tried as the page tries it: the trial's record opened
    in the page's engine, its move applied for its player. The states before and after, the
    move, and the legal choices the page outlined before it."""
    trial = trials()[clause]
    engine = Engine()
    opened = ask(engine, op="open", record=trial["record"])
    assert "error" not in opened, opened
    before = engine.games[opened["game"]].game.state
    choices = ask(engine, op="board", game=opened["game"])["choices"]
    action = json.loads(trial["action"])
    answer = ask(engine, op="apply", game=opened["game"], seat=action["player"], action=action)
    assert "error" not in answer, answer
    assert action in [choice["action"] for choice in choices]  # a legal choice, outlined
    after = engine.games[opened["game"]].game.state
    return before, after, from_json(trial["action"], gr.Action), choices


def test_an_animal_card_puts_its_four_tokens_on_its_one_tile() -> None:
    """9.1c: every square the card is offered is a whole tile; once played, the four tokens
    lie on the one tile its move named, none elsewhere."""
    before, after, action, choices = kept_state("9.1c")
    assert isinstance(action, gr.PlayAnimals)
    offered = [
        square
        for choice in choices
        if choice["card"] == action.card
        for square in choice["squares"]
    ]
    assert len(offered) >= 2 and all(square in map(str, before.tiles) for square in offered)
    assert not before.animals
    assert after.animals == {action.pos: 4}
    assert after.bank == before.bank - 4


def test_a_raise_puts_one_pawn_of_its_player_beside_the_pawns_there() -> None:
    """10.4: the city the move raises takes the mover's pawn beside the rival's already
    there, one pawn per player."""
    before, after, action, _ = kept_state("10.4")
    (pos,) = before.cities
    assert before.cities[pos].pawns == (1,) and before.cities[pos].satisfaction == 3
    city = after.cities[pos]
    assert city.satisfaction == 4
    assert sorted(city.pawns) == [0, 1]
    assert after.supply[action.player] == before.supply[action.player] - 1
    assert after.supply[1] == before.supply[1]


def test_a_stolen_city_has_one_owner_the_rival_pawns_off() -> None:
    """12.1: the raise steals the rival's city: his pawns come off (back to his supply), the
    thief's alone stand on it."""
    before, after, action, _ = kept_state("12.1")
    (pos,) = before.cities
    assert before.cities[pos].pawns == (1,)
    city = after.cities[pos]
    assert city.satisfaction == before.cities[pos].satisfaction + 1
    assert set(city.pawns) == {action.player}
    assert after.supply[1] == before.supply[1] + 1


def test_a_city_at_four_needs_is_not_raised_by_a_card_beside_it() -> None:
    """12.2: a rival's card beside a city with its four needs met: the city stays at four,
    its owner's two pawns on it, no one's added, nothing stolen."""
    before, after, action, _ = kept_state("12.2")
    (pos,) = before.cities
    assert isinstance(action, gr.PlayNature)
    assert abs(action.pos.x - pos.x) + abs(action.pos.y - pos.y) == 1  # beside it
    assert before.cities[pos].satisfaction == 4
    assert after.cities[pos] == before.cities[pos]
    assert after.cities[pos].pawns == (1, 1)
    assert after.supply == before.supply


def test_no_protection_is_offered_against_a_protection() -> None:
    """13.9d: the Sun's player holds a Protection too, but once the Sun is cancelled by the
    other's Protection, he is offered none against it: his turn goes on, his Protection in
    hand, the Sun's target unchanged."""
    before, after, action, choices = kept_state("13.9d")
    assert isinstance(action, gr.Protect)
    assert [choice["action"]["type"] for choice in choices] == ["Protect", "PassProtection"]
    assert "P21" in before.hands[0]
    assert after.to_move == 0 and not isinstance(after.decision, gr.ChooseProtection)
    assert "P21" in after.hands[0]
    assert after.tiles == before.tiles  # the Sun cancelled


@pytest.mark.parametrize("page", sorted(LEVEL_PAGES.values()))
def test_every_restriction_of_a_page_has_its_try_it(page: str) -> None:
    """The site's build checks each trial again (the refused move refused by its clause, the
    kept one legal) and gives every restriction of the page its "Try it"; one no move can
    break keeps the reason beside its words, and opens at its position with its move."""
    static_table = load_hook("static_table")
    trials = static_table.restriction_trials()
    static_table._state["trials"] = trials
    stub = type("Stub", (), {})()
    stub.file = type("Stub", (), {"src_uri": f"play/{page}"})()
    markdown = static_table.on_page_markdown("", stub, None, None)
    listed = [e for e in entries() if e.get("page") == page and "not_a_restriction" not in e]
    tried = re.findall(r'data-try="restriction-([0-9a-z.]+)"', markdown)
    assert tried == [entry["clause"] for entry in listed]
    for entry in listed:
        data = static_table.try_data(entry["clause"], trials[entry["clause"]])
        if "untriable" in entry:
            assert f"- {entry['named'][0]} ([" in markdown and entry["untriable"] in markdown
            assert data["start"] == trials[entry["clause"]]["record"] and not data["refusals"]
            assert data["kept"][0]["words"] == entry["named"][0]
        else:
            assert data["refusals"][0]["clause"] == entry["clause"] and "kept" not in data


languages = load_hook("languages")


@pytest.fixture(scope="module")
def checked() -> dict[str, dict[str, str]]:
    static_table = load_hook("static_table")
    found: dict[str, dict[str, str]] = static_table.restriction_trials()
    return found


def section(page: str, language: str, found: dict[str, dict[str, str]]) -> str:
    """What the build adds to the end of ``page`` (``basic.md``) in ``language``."""
    static_table = load_hook("static_table")
    static_table._state["trials"] = found
    uri = f"play/{page}" if language == "en" else f"play/{page.removesuffix('.md')}.{language}.md"
    stub = type("Stub", (), {})()
    stub.file = type("Stub", (), {"src_uri": uri})()
    markdown: str = static_table.on_page_markdown("", stub, None, None)
    return markdown


@pytest.mark.parametrize("language", languages.TRANSLATED)
@pytest.mark.parametrize("page", sorted(LEVEL_PAGES.values()))
def test_a_translated_level_page_tries_each_restriction_in_its_language(
    page: str, language: str, checked: dict[str, dict[str, str]]
) -> None:
    """A German, French or Hungarian level page ends with the restrictions of its level to
    try, as the English page does: its heading and its words in the page's language (the
    restriction's ``words_de``..., the reason ``why_de``... of one no move can break, its
    move's ``tried_de``... on the box), each clause linked to the specification, a "Try it"
    box per restriction with its label translated, and no English intro."""
    static_table = load_hook("static_table")
    spec = spec_pages.read_spec(ROOT / "spec")
    markdown = section(page, language, checked)
    uri = f"play/{page.removesuffix('.md')}.{language}.md"
    listed = [e for e in entries() if e.get("page") == page and "not_a_restriction" not in e]
    assert f"## {languages.TRY_HEADING[language]}\n" in markdown
    assert languages.TRY_INTRO[language] in markdown
    english = section(page, "en", checked)
    for sentence in (static_table.TRY_HEADING, static_table.TRY_INTRO, ">Try it<"):
        assert sentence in english and sentence not in markdown
    tried = re.findall(r'data-try="restriction-([0-9a-z.]+)"', markdown)
    assert tried == [entry["clause"] for entry in listed]
    boxes = re.findall(r"<div [^>]*data-try=[^>]*>(.*?)</div>", markdown)
    assert boxes == [
        f'<button type="button" class="md-button gaia-try-open" '
        f"data-try-open>{languages.TRY_OPEN[language]}</button>"
    ] * len(listed)
    for entry in listed:
        clause = entry["clause"]
        words = entry[f"words_{language}"]
        link = spec.clause_link(clause, uri)
        assert link.startswith("../rules/") and f"#clause-{clause}" in link
        why = f": {entry[f'why_{language}']}" if "untriable" in entry else ""
        assert f"- {words} ([{clause}]({link})){why}\n" in markdown
        move = entry[f"tried_{language}"] if "untriable" in entry else words
        box = re.search(rf'<div [^>]*data-try="restriction-{re.escape(clause)}"[^>]*>', markdown)
        assert box is not None
        assert f'data-heading="{html.escape(move)}"' in box.group(0)
        assert f'data-words="{html.escape(words)}"' in box.group(0)
    # the positions, the table and the script are the root's, from de/play/basic/
    assert 'data-src="../../../rules/try/restriction-' in markdown
    assert 'data-table="../../../table/"' in markdown
    assert '<script type="module" src="../../../assets/tryit.js"></script>' in markdown


def test_a_restriction_without_its_translation_fails_the_build() -> None:
    """The build refuses a restriction that lacks a translated language's words, or, for one
    no move can break, its reason or its move's words."""
    static_table = load_hook("static_table")
    by_clause = {entry["clause"]: entry for entry in entries()}
    for clause, key in (("9.1", "words_fr"), ("12.2", "why_hu"), ("13.9d", "tried_de")):
        entry = dict(by_clause[clause])
        assert static_table.translations(entry)[key] == entry[key]
        del entry[key]
        with pytest.raises(static_table.PluginError, match=f"{re.escape(clause)} has no {key}"):
            static_table.translations(entry)
