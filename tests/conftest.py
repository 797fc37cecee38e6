"""The fuzz suite's figures, printed at the end of a run that had any (``pytest -m soak``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tests.fuzz import Figures


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    figures = Figures()
    found = False
    failed = 0
    for outcome in ("passed", "failed"):
        for report in terminalreporter.stats.get(outcome, []):
            for name, value in getattr(report, "user_properties", ()):
                if name != "fuzz":
                    continue
                data = json.loads(value)
                part = Figures(Counter(data["inputs"]), Counter(data["accepted"]))
                part.slowest = (data["slowest"][0], data["slowest"][1], data["slowest"][2])
                figures.merge(part)
                found = True
                failed += outcome == "failed"
    if found:
        terminalreporter.section("fuzz")
        for line in figures.lines(failed):
            terminalreporter.write_line(line)
