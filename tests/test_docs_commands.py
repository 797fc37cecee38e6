"""Every ``gaia-rules`` and ``python`` command of the documentation site runs (``docs/**/*.md``).

The commands are read from the ``console``, ``sh`` and ``bash`` blocks of each page (a
``console`` block's commands are its ``$`` lines, the lines after one its output) and run in
page order, in one fresh folder per page, so a later command finds the files an earlier one
wrote (``simulate --records`` then ``replay``; ``train_agent.py --out`` then ``--bots
policy:``). A page whose commands read files that Python examples write runs those examples
first (``FILES_FROM_EXAMPLES``). ``gaia-rules`` runs in-process through ``main``; ``python``
in a subprocess of this interpreter, a script named by its path in the repository.

Bounded: a run stays short, so the counts that set a command's length are lowered
(``BOUNDS``: at most 2 games, 1 job, 1 training update, ...), in place where the command
gives them and added to the scripts' command lines; what the command does is unchanged.
A command the docs show failing (its output starts ``gaia-rules:``) must fail with that
message; every other must succeed. The few that cannot run here are in ``NOT_RUN``, each
with its reason and the test that covers it; they are still parsed by the command line's
own parser, and the list may only name commands the docs hold.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from gaia_rules.cli import _parser, main
from gaia_rules.cli.common import split_bots
from tests.test_docs_examples import DOCS, pages, python_blocks, working_directory

ROOT = DOCS.parent

BLOCK = re.compile(
    r"^(?P<indent>[ \t]*)```(?P<kind>console|sh|bash)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.M | re.S,
)
COMMAND = re.compile(r"^(gaia-rules|python)\b")

BOUNDS = {
    "--games": 2,
    "--tables": 0,
    "--jobs": 1,
    "--updates": 1,
    "--envs": 2,
    "--steps": 8,
    "--simulations": 5,
    "--greedy-games": 0,
    "--search-games": 1,
}
"""The most each option may ask for in a run of the tests (the docs' counts are a reader's)."""

SCRIPT_BOUNDS = {
    "examples/train_agent.py": ("--updates", "--envs", "--steps", "--games", "--greedy-games"),
    "examples/openspiel_ismcts.py": ("--games", "--simulations"),
}
"""The bounds added to a script's command line where the docs leave the option out."""

NEEDS = {
    "examples/openspiel_ismcts.py": "pyspiel",
    "examples/train_agent.py": "numpy",
    "benchmarks/web_load.py": "websockets",
}
"""The module a script needs (an extra): without it the command is skipped, with its reason."""

FILES_FROM_EXAMPLES = {
    "guides/records.md": "guides/records.md",
    "guides/cli.md": "guides/records.md",
}
"""Pages whose commands read the files a page's Python examples write (``game.json``,
``edited.json``), and that page, whose examples run first."""

NOT_RUN = {
    "gaia-rules serve": "a server that runs until stopped: tests/test_web_cli.py starts it",
    "--backend ray": "starts Ray: tests/test_simulate_backends.py plays the ray backend",
    "--address ray://": "needs a Ray cluster at that address",
    "python -m mkdocs build": "builds the whole site with its table: the docs session builds "
    "it, and tests/test_web_static.py plays on the table it builds",
    "python -m http.server": "a file server that runs until stopped",
    "benchmarks/ratings.py --agent": "a round robin of five bots at every level and table size, "
    "minutes even at its fewest games: tests/test_ratings.py plays a small one",
}
"""Commands (by a part of their text) parsed but not run, each with why and where covered."""


class Command(NamedTuple):
    page: str
    line: str
    output: tuple[str, ...]


def _joined(lines: list[str]) -> Iterator[tuple[int, str]]:
    """The lines of a block with their continuations (a trailing backslash) joined."""
    held = ""
    start = 0
    for index, line in enumerate(lines):
        if not held:
            start = index
        if line.rstrip().endswith("\\"):
            held += line.rstrip()[:-1] + " "
            continue
        yield start, held + line
        held = ""


def commands(page: Path) -> list[Command]:
    """The ``gaia-rules`` and ``python`` commands of ``page``, in order, with the output
    a ``console`` block shows after each."""
    found: list[Command] = []
    name = page.relative_to(DOCS).as_posix()
    for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
        lines = [line.strip() for line in match.group("body").splitlines()]
        console = match.group("kind") == "console"
        entries = list(_joined(lines))
        for at, (index, line) in enumerate(entries):
            text = line[2:] if console and line.startswith("$ ") else None if console else line
            if text is None:
                continue
            text = re.sub(r"\s+#.*$", "", text).strip()
            if not COMMAND.match(text):
                continue
            output: list[str] = []
            if console:
                for _, later in entries[at + 1 :]:
                    if later.startswith("$ "):
                        break
                    output.append(later)
            found.append(Command(name, text, tuple(output)))
            del index
    return found


def pages_with_commands() -> list[str]:
    return [path.relative_to(DOCS).as_posix() for path in pages() if commands(path)]


def every_command() -> list[Command]:
    return [command for path in pages() for command in commands(path)]


def bounded(words: list[str], script: str | None) -> list[str]:
    """``words`` with the counts of ``BOUNDS`` lowered, and a script's bounds added."""
    out = list(words)
    for index, word in enumerate(out[:-1]):
        if word in BOUNDS and out[index + 1].isdigit():
            limit = BOUNDS[word]
            value = int(out[index + 1])
            out[index + 1] = str(limit if word == "--jobs" and value == 0 else min(value, limit))
    for option in SCRIPT_BOUNDS.get(script or "", ()):
        if option not in out:
            out += [option, str(BOUNDS[option])]
    return out


def not_run(command: Command) -> str | None:
    return next((why for part, why in NOT_RUN.items() if part in command.line), None)


def run(command: Command) -> tuple[int, str, str]:
    """Run one command in the working directory: its status, output and error output."""
    text, _, target = command.line.partition(" > ")
    words = shlex.split(text)
    if words[0] == "gaia-rules":
        out, err = io.StringIO(), io.StringIO()
        stdin = io.StringIO("quit\n")  # play: leave at the first prompt
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):  # argparse's
            status = main(bounded(words[1:], None), stdin=stdin, stdout=out, stderr=err)
        found = (status, out.getvalue(), err.getvalue())
    else:
        script = words[1] if not words[1].startswith("-") else None
        if script is not None and script in NEEDS:
            pytest.importorskip(NEEDS[script])
        argv = bounded(words[1:], script)
        if script is not None:
            argv[0] = str(ROOT / script)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, *argv],
            check=False,
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
        )
        found = (done.returncode, done.stdout, done.stderr)
    if target:
        Path(target.strip()).write_text(found[1], encoding="utf-8")
    return found


def test_the_docs_have_commands_and_not_run_names_only_theirs() -> None:
    every = every_command()
    assert any(c.line.startswith("gaia-rules simulate") for c in every)
    assert any(c.line.startswith("python") for c in every)
    for part in NOT_RUN:
        assert any(part in c.line for c in every), f"NOT_RUN names {part!r}, which no page has"


@pytest.mark.parametrize("line", sorted({c.line for c in every_command() if not_run(c)}))
def test_the_commands_not_run_are_valid_command_lines(line: str) -> None:
    words = shlex.split(line.partition(" > ")[0], comments=True)
    if words[0] == "python":  # a script of the repository, or a module, that answers --help
        target = ["-m", words[2]] if words[1] == "-m" else [str(ROOT / words[1])]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        done = subprocess.run(
            [sys.executable, *target, "--help"], check=False, capture_output=True, env=env
        )
        assert done.returncode == 0, f"{line}: --help exits {done.returncode}"
        return
    if words[1] == "serve":
        pytest.importorskip("starlette")
    args = _parser().parse_args(words[1:])  # exits 2 on an unknown option or a bad value
    if words[1] == "simulate":
        split_bots(args.bots, args.players)  # the line-up fits the table (or raises)


@pytest.mark.parametrize("page", pages_with_commands())
def test_the_commands_of_a_page_run_in_order(page: str, tmp_path: Path) -> None:
    with working_directory(tmp_path):
        if page in FILES_FROM_EXAMPLES:
            source = FILES_FROM_EXAMPLES[page]
            namespace: dict[str, object] = {"__name__": "__main__"}
            with contextlib.redirect_stdout(io.StringIO()):
                for index, block in enumerate(python_blocks(DOCS / source)):
                    exec(compile(block, f"docs/{source} block {index}", "exec"), namespace)
        for command in commands(DOCS / page):
            if not_run(command):
                continue
            status, out, err = run(command)
            failure = next((line for line in command.output if line.startswith("gaia-rules:")), "")
            where = f"docs/{page}: {command.line}"
            if failure:
                assert status != 0, f"{where}: the docs show it failing, it succeeded"
                assert failure in err, f"{where}: expected {failure!r}, got {err!r}"
            else:
                assert status == 0, f"{where}: exit status {status}\n{err[-2000:]}"
                shown = [line for line in command.output if line and not line.startswith("...")]
                if shown and "--games" not in command.line:  # a shorter run prints other counts
                    assert shown[0] in out, f"{where}: expected {shown[0]!r} in\n{out[:2000]}"
