"""The README's examples run, and its two set-up commands are the ones CI relies on."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


@pytest.mark.clause("5.4", "15.1")
@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_the_readme_examples_run(index: int) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(python_blocks()[index], f"README.md block {index}", "exec"), {})
    assert "Result(" in out.getvalue()


def test_the_readme_has_exactly_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    shell = re.findall(r"```sh\n(.*?)```", text, re.S)
    assert len(shell) == 2
    assert "gaia-rules demo" in shell[0]
    assert "pytest" in shell[1]
