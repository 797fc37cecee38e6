"""The ``gaia-rules`` command line, run in-process through ``main`` with captured streams:
every command's output, exit statuses, and that a seat's printout hides what it may not see."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import select
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import gaia_rules as gr
from gaia_rules.actions import Action
from gaia_rules.bots import BOTS, SearchBot
from gaia_rules.cli import main
from gaia_rules.events import CardDrawn
from gaia_rules.views import View

CARD_ID = re.compile(r"\b[NCAPO][0-9]{2}\b")


def run(argv: Sequence[str], stdin: str = "") -> tuple[int, str, str]:
    """Run the command line; its exit status, output and error output."""
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def hidden_from(game: gr.Game, seat: int) -> set[str]:
    """The cards in the other seats' hands at the end that came from the deal or a deck
    and so were never shown to ``seat`` (basic level: no card changes hands unseen)."""
    dealt = gr.new_game(game.players, game.rules, game.seed, game.first_player).state.hands
    blind = {card for other, hand in enumerate(dealt) if other != seat for card in hand}
    blind |= {
        event.card
        for event in game.events
        if isinstance(event, CardDrawn)
        and not event.from_display
        and event.player != seat
        and event.card is not None
    }
    held = {card for other, hand in enumerate(game.state.hands) if other != seat for card in hand}
    return held & blind


# -- demo -------------------------------------------------------------------------------


def test_demo_is_the_same_game_for_the_same_seed() -> None:
    first = run(["demo", "--players", "3", "--seed", "7"])
    second = run(["demo", "--players", "3", "--seed", "7"])
    other = run(["demo", "--players", "3", "--seed", "8"])
    assert first == second
    status, out, err = first
    assert status == 0 and err == ""
    assert "game over" in out
    assert out.startswith("Gaïa, 3 players, basic rules")
    assert other[1] != out


def test_demo_refuses_an_unknown_bot() -> None:
    status, out, err = run(["demo", "--bots", "nobody"])
    assert status == 2 and out == ""
    assert err.startswith("gaia-rules: demo: --bots: no bot 'nobody'")


@pytest.mark.parametrize("name", ["search:0", "search:x", "search:", "random:5", "search:١٢"])
def test_demo_refuses_a_bad_budget(name: str) -> None:
    status, out, err = run(["demo", "--bots", name])
    assert status == 2 and out == ""
    assert "--bots:" in err and repr(name) in err


def test_a_search_bot_takes_its_budget_from_its_name() -> None:
    from gaia_rules.cli.common import bots_for, split_bots  # noqa: PLC0415

    names = split_bots("search:3,search", 2)
    small, default = bots_for(names, seed=1)
    assert isinstance(small, SearchBot) and isinstance(default, SearchBot)
    assert (small.playouts, default.playouts) == (3, SearchBot().playouts)


def test_a_search_budget_may_name_the_horizon_and_the_width() -> None:
    from gaia_rules.cli.common import bots_for, split_bots  # noqa: PLC0415

    names = split_bots("search:100:2,search:30:0:4,search:7", 3)
    short, narrow, few = bots_for(names, seed=1)
    assert isinstance(short, SearchBot) and isinstance(narrow, SearchBot)
    assert isinstance(few, SearchBot)
    default = SearchBot()
    assert (short.playouts, short.horizon, short.width) == (100, 2, default.width)
    assert (narrow.playouts, narrow.horizon, narrow.width) == (30, 0, 4)
    assert (few.playouts, few.horizon, few.width) == (7, default.horizon, default.width)


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("search:100:-1", "the horizon must be a whole number from 0, got '-1'"),
        ("search:100:2:0", "the width must be a whole number from 1, got '0'"),
        ("search:0:2", "the playouts must be a whole number from 1, got '0'"),
        ("search:100::8", "the horizon must be a whole number from 0, got ''"),
        ("search:100:2:", "the width must be a whole number from 1, got ''"),
        ("search:100:2:8:1", "at most three parts, playouts:horizon:width"),
        ("search:100:x", "the horizon must be a whole number from 0, got 'x'"),
        ("greedy:100:2", "only search and ismcts take a budget"),
    ],
)
def test_simulate_refuses_a_bad_search_budget_and_says_which_part(name: str, says: str) -> None:
    status, out, err = run(["simulate", "--games", "1", "--bots", name])
    assert status == 2 and out == ""
    assert f"--bots: {name!r}" in err and says in err


# -- simulate ---------------------------------------------------------------------------


def _summary(argv: Sequence[str]) -> dict[str, Any]:
    status, out, err = run(["simulate", "--json", "--quiet", *argv])
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_simulate_counts_add_up() -> None:
    data = _summary(["--games", "7", "--players", "3", "--seed", "11"])
    assert data["games"] == 7
    assert sum(data["wins_by_seat"]) == 7
    assert sum(line["wins"] for line in data["bots"].values()) == 7
    assert sum(line["played"] for line in data["bots"].values()) == 7 * 3
    assert sum(data["endings"].values()) == 7
    lengths = data["decisions"]
    assert 0 < lengths["min"] <= lengths["median"] <= lengths["max"]
    assert lengths["min"] <= lengths["mean"] <= lengths["max"]
    low, high = data["bots"]["random"]["ci95"]
    assert low <= data["bots"]["random"]["rate"] <= high


def test_simulate_gives_the_same_results_whatever_the_jobs() -> None:
    argv = ["--games", "4", "--players", "2", "--seed", "5"]
    one = _summary([*argv, "--jobs", "1"])
    two = _summary([*argv, "--jobs", "2"])
    del one["timing"], two["timing"]
    assert one == two


def test_simulate_prints_a_readable_summary() -> None:
    status, out, err = run(["simulate", "--games", "3", "--players", "2", "--quiet"])
    assert status == 0
    assert err == ""  # no progress bar when the error stream is not a terminal
    assert "wins by bot" in out and "95% interval" in out
    assert "wins by seat" in out and "how the games ended" in out
    assert "decisions in" in out and "per second" in out


class _Terminal(io.StringIO):
    """An error stream that is a terminal."""

    def isatty(self) -> bool:
        return True


def test_simulate_shows_progress_on_a_terminal_only() -> None:
    argv = ["simulate", "--games", "3", "--players", "2", "--json"]
    out, err = io.StringIO(), _Terminal()
    assert main(argv, stdout=out, stderr=err) == 0
    assert "3/3 games" in err.getvalue()
    shown = json.loads(out.getvalue())
    quiet = _summary(["--games", "3", "--players", "2"])
    del shown["timing"], quiet["timing"]
    assert shown == quiet
    err = _Terminal()
    assert main([*argv, "--quiet"], stdout=io.StringIO(), stderr=err) == 0
    assert err.getvalue() == ""


class _FirstBot:
    """Always the first legal action; notes the seats it sat in."""

    name = "first"
    seats: set[int] = set()  # noqa: RUF012 (shared on purpose: every instance notes here)

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        _FirstBot.seats.add(view.seat)
        return legal[0]


def test_simulate_rotates_the_bots_through_the_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "first", _FirstBot)
    _FirstBot.seats = set()
    data = _summary(["--games", "3", "--players", "3", "--bots", "first,random,random"])
    assert _FirstBot.seats == {0, 1, 2}
    assert data["bots"]["first"]["played"] == 3
    assert data["bots"]["random"]["played"] == 6
    assert data["lineup"] == ["first", "random", "random"]


def test_simulate_repeats_a_short_line_up_around_the_table() -> None:
    # as the guides show: gaia-rules simulate --players 4 --bots greedy,random
    data = _summary(["--games", "2", "--players", "4", "--bots", "greedy,random"])
    assert data["lineup"] == ["greedy", "random", "greedy", "random"]
    assert data["bots"]["greedy"]["played"] == data["bots"]["random"]["played"] == 4
    assert (
        _summary(["--games", "1", "--players", "3", "--bots", "greedy"])["lineup"] == ["greedy"] * 3
    )
    status, _, err = run(["simulate", "--players", "2", "--bots", "greedy,random,search"])
    assert status == 2 and "at most 2 names" in err


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    status, _, err = run(
        ["simulate", "--games", "3", "--players", "2", "--seed", "9", "--records", str(folder)]
    )
    assert status == 0, err
    files = sorted(folder.iterdir())
    assert [f.name.split("-seed-")[0] for f in files] == ["game-0", "game-1", "game-2"]
    for file in files:
        game = gr.GameRecord.from_json(file.read_text(encoding="utf-8")).replay()
        assert game.is_over
        assert file.name == f"{file.name.split('-seed-')[0]}-seed-{game.seed}.json"
        assert run(["replay", str(file)])[0] == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "0"],
        ["--jobs", "-1"],
        ["--bots", "random,random,random", "--players", "2"],
        ["--players", "6"],
    ],
)
def test_simulate_refuses_bad_usage(argv: list[str]) -> None:
    assert run(["simulate", "--quiet", *argv])[0] == 2


# -- replay -----------------------------------------------------------------------------


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[Path, gr.Game]:
    """A finished 3-player basic game between random bots, and its record on disk."""
    game = gr.new_game(3, gr.Rules.basic(), seed=42)
    bots = [BOTS["random"](seat) for seat in range(3)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(game.record().to_json(), encoding="utf-8")
    return path, game


def test_replay_prints_a_good_record(record_file: tuple[Path, gr.Game]) -> None:
    path, game = record_file
    status, out, err = run(["replay", str(path)])
    assert status == 0 and err == ""
    assert out.startswith(f"Gaïa record: 3 players, basic rules, third edition, seed {game.seed}")
    assert game.result is not None
    assert f"result: seat {game.result.winner} wins" in out
    assert str(game.actions[0]) in out


@pytest.mark.clause("16.8")
def test_replay_reads_a_record_that_starts_from_a_position() -> None:
    path = Path(__file__).parent / "golden" / "records" / "powers-4p-from-a-protection-window.json"
    status, out, err = run(["replay", str(path)])
    assert status == 0 and err == ""
    assert ", from a position at seat " in out.splitlines()[0]
    assert "ChooseProtection" in out.splitlines()[0]
    assert "result: seat " in out


def test_replay_names_the_diverging_action(
    record_file: tuple[Path, gr.Game], tmp_path: Path
) -> None:
    path, _ = record_file
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"][5], data["actions"][6] = data["actions"][6], data["actions"][5]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(["replay", str(bad)])
    assert status == 1 and out == ""
    assert err.startswith(f"gaia-rules: {bad}: action ")
    index = int(err.split("action ")[1].split()[0])
    assert index in (5, 6)
    assert err.count("\n") == 1


@pytest.mark.parametrize("content", [None, b"{", b"\xff\xfe", b"[]", b'{"format": 1}'])
def test_replay_reports_a_bad_file(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    status, out, err = run(["replay", str(path)])
    assert status == 1 and out == ""
    assert err.startswith(f"gaia-rules: {path}: ") and err.count("\n") == 1


@pytest.fixture
def unfinished_record_file(tmp_path: Path) -> tuple[Path, gr.Game]:
    """A 3-player basic game between random bots stopped after 40 decisions, while every
    hand still holds cards dealt or drawn blind, and its record on disk."""
    game = gr.new_game(3, gr.Rules.basic(), seed=42)
    bots = [BOTS["random"](seat) for seat in range(3)]
    for _ in range(40):
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(game.record().to_json(), encoding="utf-8")
    return path, game


@pytest.mark.clause("1.5")
def test_replay_as_a_seat_hides_the_others_cards(
    unfinished_record_file: tuple[Path, gr.Game],
) -> None:
    path, game = unfinished_record_file
    _, whole, _ = run(["replay", str(path)])
    faces = game.rules.cards
    dealt = gr.new_game(game.players, game.rules, game.seed, game.first_player).state.hands
    for seat in range(game.players):
        # the others' cards drawn blind, which the whole record names
        hidden = hidden_from(game, seat) & set(CARD_ID.findall(whole))
        assert hidden  # the test means something: the others hold unseen cards
        status, out, _ = run(["replay", str(path), "--seat", str(seat)])
        assert status == 0
        # the seat is told the ids of its own cards alone, every other card by its face (1.14)
        own = set(dealt[seat]) | {
            e.card for e in game.events if isinstance(e, CardDrawn) and e.player == seat
        }
        named = set(CARD_ID.findall(out))
        assert not {card for card in named if faces.face_id(card) != card} - own
        assert not (hidden - set(faces.face_ids.values())) & named
        assert "seed" not in out
        for card in game.state.hands[seat]:
            assert card in out  # its own hand is shown


def test_replay_refuses_a_seat_the_record_lacks(record_file: tuple[Path, gr.Game]) -> None:
    status, _, err = run(["replay", str(record_file[0]), "--seat", "3"])
    assert status == 1 and "--seat" in err


def test_replay_writes_the_world_as_svg(record_file: tuple[Path, gr.Game], tmp_path: Path) -> None:
    out = tmp_path / "world.svg"
    assert run(["replay", str(record_file[0]), "--svg", str(out)])[0] == 0
    assert out.read_text(encoding="utf-8").lstrip().startswith("<svg")


# -- play -------------------------------------------------------------------------------


@pytest.mark.clause("1.5")
def test_play_by_numbers_reaches_the_end(tmp_path: Path) -> None:
    record = tmp_path / "played.json"
    status, out, err = run(["play", "--seed", "3", "--record", str(record)], stdin="1\n" * 2000)
    assert status == 0, err
    assert "game over:" in out and "seed 3" in out
    game = gr.GameRecord.from_json(record.read_text(encoding="utf-8")).replay()
    assert game.is_over
    # what seat 0 was shown never names a card the other seat kept hidden
    hidden = hidden_from(game, 0)
    assert hidden
    assert not hidden & set(CARD_ID.findall(out))


def test_play_takes_numbers_notation_and_shrugs_off_garbage() -> None:
    script = "\n".join(
        [
            "",  # an empty line
            "xyzzy",  # not a word of the notation
            "0: draw N99",  # a card not on offer
            "1: draw nature",  # another seat's action
            "0",  # a number out of range
            "9" * 5000,  # a number too long to read
            "²",  # a digit that is not a number
            "help",
            "view",
            "\x1b[A",  # a stray keystroke
            "draw nature",  # the notation without the seat
            "0:  draw   life",  # with extra spaces
            "3",  # a number
        ]
    )
    status, out, err = run(["play", "--players", "3", "--seed", "5"], stdin=script + "\n")
    assert status == 0 and err == ""
    assert "type a number from 1 to" in out
    assert "not understood" in out
    assert "0: draw N99: not legal now" in out
    assert "you play seat 0" in out
    assert "Type the number of an action" in out
    assert "0: draw nature\n" in out and "0: draw life\n" in out
    assert out.rstrip().endswith("you left the game (seed 5)")
    assert "end of input" in out


def test_play_leaves_on_quit_and_eof() -> None:
    assert run(["play", "--seed", "1"], stdin="quit\n")[1].rstrip().endswith("(seed 1)")
    status, out, _ = run(["play", "--seed", "1"], stdin="")
    assert status == 0 and "end of input" in out


class _Interrupted:
    """An input where the person presses Ctrl-C at every prompt."""

    def readline(self) -> str:
        raise KeyboardInterrupt


def test_play_survives_ctrl_c() -> None:
    out = io.StringIO()
    status = main(["play", "--seed", "1"], stdin=_Interrupted(), stdout=out, stderr=io.StringIO())
    assert status == 0
    assert "press it again" in out.getvalue() and "interrupted" in out.getvalue()


def test_play_as_another_seat_waits_for_the_bots() -> None:
    status, out, _ = run(["play", "--players", "3", "--seat", "2", "--seed", "4"], stdin="q\n")
    assert status == 0
    assert out.index("-- turn of seat 0") < out.index("seat 2> ")


@pytest.mark.parametrize(
    "argv", [["--seat", "2"], ["--players", "3", "--bots", "random,random,random"]]
)
def test_play_refuses_bad_usage(argv: list[str]) -> None:
    status, _, err = run(["play", *argv])
    assert status == 2 and err.startswith("gaia-rules: play: ")


# -- the command as a whole ---------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [[], ["demo"], ["simulate"], ["replay"], ["play"], ["serve"], ["schema"]]
)
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--help"]) == 0
    text = capsys.readouterr().out
    assert "usage: gaia-rules" in text and "example" in text


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["fly"]) == 2
    assert main(["demo", "--players", "9"]) == 2
    assert "usage:" in capsys.readouterr().err


class _ClosedPipe(io.StringIO):
    """An output whose reader went away, like ``| head``."""

    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_a_closed_pipe_ends_quietly() -> None:
    err = io.StringIO()
    assert main(["demo"], stdout=_ClosedPipe(), stderr=err) == 0
    assert err.getvalue() == ""


def test_schema_prints_json() -> None:
    status, out, _ = run(["schema"])
    assert status == 0 and json.loads(out)["title"].startswith("gaia-rules")


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gaia_rules", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0
    assert "simulate" in done.stdout and "replay" in done.stdout


class _CheatBot:
    """Answers with an action that is never legal."""

    name = "cheat"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return gr.DrawDisplay(view.seat, "N99")


def test_simulate_reports_a_game_that_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "cheat", _CheatBot)
    status, out, err = run(["simulate", "--games", "2", "--bots", "cheat", "--quiet"])
    assert status == 1 and out == ""
    assert err.startswith("gaia-rules: game 0 (seed ") and "IllegalActionError" in err


@pytest.mark.clause("1.10")
def test_replay_refuses_a_file_larger_than_any_record(tmp_path: Path) -> None:
    from gaia_rules.limits import MAX_RECORD_CHARS  # noqa: PLC0415

    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(MAX_RECORD_CHARS * 3)  # sparse: costs nothing on disk
    status, out, err = run(["replay", str(huge)])
    assert status == 1 and out == ""
    assert "1.10" in err


# -- play: what it prints, and what it reads --------------------------------------------


def test_play_shows_the_whole_table_once_then_what_changed_and_view_shows_it_again() -> None:
    _, out, _ = run(["play", "--seed", "3"], stdin="1\n1\n1\nquit\n")
    assert out.count("nature display:") == 1
    assert out.count("your hand:") == 4  # the table's, then one before each later decision
    _, out, _ = run(["play", "--seed", "3"], stdin="1\nview\n1\nquit\n")
    assert out.count("nature display:") == 2


def test_play_reads_card_ids_in_any_case() -> None:
    display = gr.new_game(2, seed=3).view(0).displays[gr.CardKind.NATURE]
    card = display[0]
    _, out, _ = run(["play", "--seed", "3"], stdin=f"draw {card.lower()}\nquit\n")
    assert f"0: draw {card}\n   seat 0 takes {card} from the display" in out


def test_play_ends_in_words() -> None:
    _, out, _ = run(["play", "--seed", "3"], stdin="1\n" * 2000)
    ending = next(line for line in out.splitlines() if line.startswith("game over:"))
    assert "_" not in ending
    assert "all pawns placed" in ending or "a deck ran out" in ending
    assert "token(s)" not in out


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_play_on_a_terminal_edits_lines_and_keeps_a_history() -> None:
    import pty  # noqa: PLC0415 (not on every platform)

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        os.execv(sys.executable, [sys.executable, "-m", "gaia_rules", "play", "--seed", "3"])
    out = b""

    def read_until(marker: bytes, count: int) -> None:
        nonlocal out
        while out.count(marker) < count:
            ready, _, _ = select.select([fd], [], [], 30)
            assert ready, out[-500:]
            out += os.read(fd, 65536)

    try:
        read_until(b"seat 0> ", 1)
        os.write(fd, b"vew\x1b[D\x1b[Di\r")  # a typo mended with the arrow keys: "view"
        read_until(b"nature display:", 2)
        read_until(b"seat 0> ", 2)
        os.write(fd, b"\x1b[A\r")  # the arrow up: the last line, "view", again
        read_until(b"nature display:", 3)
        read_until(b"seat 0> ", 3)
        os.write(fd, b"quit\r")
        with contextlib.suppress(OSError):  # the terminal closes with the command
            while chunk := os.read(fd, 65536):
                out += chunk
    finally:
        os.close(fd)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"you left the game (seed 3)" in out
