"""Every Python example of the documentation site runs (``docs/**/*.md``).

The ```` ```python ```` blocks of a page are run in order in one namespace, so a later block
may use what an earlier one defined, as a reader following the page would. They run in a
fresh temporary folder (an example may write files) with their output captured. A block is a
script, not a doctest: no line of it starts with ``>>>``.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
SKIPPED = ("hooks",)
"""Folders of ``docs/`` that hold no pages (the site's build code)."""
EXTRAS = {"guides/agents.md": ("pettingzoo", "pyspiel")}
"""Pages whose examples need optional extras: they run where the extras are installed."""

FENCE = re.compile(
    r"^(?P<indent>[ \t]*)```python[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.M | re.S,
)
"""A fenced Python block, perhaps indented (inside an admonition or a tab)."""


def pages() -> list[Path]:
    """Every Markdown page of the site, outside the skipped folders, in a fixed order."""
    return sorted(
        path
        for path in DOCS.rglob("*.md")
        if not any(part in SKIPPED for part in path.relative_to(DOCS).parts)
    )


def python_blocks(page: Path) -> list[str]:
    """The Python blocks of ``page``, in order, with their indentation removed."""
    text = page.read_text(encoding="utf-8")
    return [textwrap.dedent(match.group("body")) for match in FENCE.finditer(text)]


def pages_with_examples() -> list[str]:
    """The pages that hold at least one Python block, as paths relative to ``docs/``."""
    return [path.relative_to(DOCS).as_posix() for path in pages() if python_blocks(path)]


@contextlib.contextmanager
def working_directory(path: Path) -> Iterator[None]:
    """Run the body with ``path`` as the working directory, then go back."""
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def test_the_site_has_pages_with_examples() -> None:
    assert pages(), f"no Markdown pages under {DOCS}"
    assert pages_with_examples(), "no page of the site has a Python example"


def test_no_example_is_written_as_a_doctest() -> None:
    prompts = [
        f"{path.relative_to(DOCS).as_posix()} block {index}"
        for path in pages()
        for index, block in enumerate(python_blocks(path))
        if any(line.lstrip().startswith(">>>") for line in block.splitlines())
    ]
    assert not prompts, f"examples are scripts, not doctests; '>>>' found in: {prompts}"


@pytest.mark.parametrize("page", pages_with_examples())
def test_the_examples_of_a_page_run_in_order(page: str, tmp_path: Path) -> None:
    for module in EXTRAS.get(page, ()):
        pytest.importorskip(module)
    namespace: dict[str, object] = {"__name__": "__main__"}
    output = io.StringIO()
    with working_directory(tmp_path), contextlib.redirect_stdout(output):
        for index, block in enumerate(python_blocks(DOCS / page)):
            code = compile(block, f"docs/{page} block {index}", "exec")
            try:
                exec(code, namespace)
            except Exception as exc:
                raise AssertionError(
                    f"docs/{page}, Python block {index} failed: {type(exc).__name__}: {exc}"
                ) from exc
