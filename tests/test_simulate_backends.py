"""``gaia-rules simulate`` on its backends: the same tournament on Ray as in one process,
and a progress line with the rate and the time left on every backend."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from gaia_rules.cli import main


class _Terminal(io.StringIO):
    """An error stream that is a terminal, so the progress line is shown."""

    def isatty(self) -> bool:
        return True


def _simulate(argv: Sequence[str]) -> tuple[dict[str, Any], str]:
    out, err = io.StringIO(), _Terminal()
    status = main(["simulate", "--json", *argv], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    data: dict[str, Any] = json.loads(out.getvalue())
    del data["timing"]
    return data, err.getvalue()


def test_progress_shows_the_rate_and_the_time_left() -> None:
    _, progress = _simulate(["--games", "4", "--players", "2"])
    assert "4/4 games" in progress
    assert "games/s" in progress and "s left" in progress


def test_the_ray_backend_plays_the_same_tournament_as_one_process() -> None:
    pytest.importorskip("ray")
    argv = ["--games", "12", "--players", "3", "--seed", "21", "--bots", "greedy,random,random"]
    one, _ = _simulate([*argv, "--jobs", "1"])
    on_ray, progress = _simulate([*argv, "--backend", "ray", "--jobs", "2"])
    assert on_ray == one
    assert "12/12 games" in progress and "games/s" in progress and "s left" in progress


@pytest.mark.parametrize(
    "argv",
    [["--address", "auto"], ["--backend", "spark"]],
)
def test_bad_backend_options_are_refused(argv: list[str]) -> None:
    assert main(["simulate", "--quiet", *argv], stdout=io.StringIO(), stderr=io.StringIO()) == 2


def test_without_ray_the_backend_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "gaia_rules.ray", raising=False)
    err = io.StringIO()
    argv = ["simulate", "--quiet", "--games", "1", "--backend", "ray"]
    assert main(argv, stdout=io.StringIO(), stderr=err) == 1
    assert "pip install 'gaia-rules[ray]'" in err.getvalue()
