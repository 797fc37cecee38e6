"""The fuzz suite: every public entry point of untrusted input, fed hostile input (spec 1.7,
1.10, 1.10a).

The inputs are drawn by Hypothesis from a seed: mutations of real documents of every kind,
taken from games at every level stopped at every kind of decision (:mod:`tests.fuzz.corpus`,
:mod:`tests.fuzz.mutations`), objects of the wrong types handed to every entry point, and
random values and texts. Each entry point (:mod:`tests.fuzz.entries`) must answer every input
within :data:`SECONDS` of CPU time, with a value or with its own typed error, and what it
accepts must hold up.

``tests/test_fuzz.py`` runs a bounded sample in the plain suite and a long run marked
``soak``; ``python scripts/fuzz.py`` runs any number of inputs and prints the figures.

A seed fixes the inputs only together with the modules the process has loaded: Hypothesis
also draws, now and then, constants it finds in the project's loaded modules. So the soak
tests and ``scripts/fuzz.py`` use the same seeds but not always the very same inputs, and the
counts accepted vary slightly between runs of the whole suite; a failing input is reported in
full.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as seeded
from hypothesis import strategies as st

from tests.fuzz.entries import ENTRIES, Entry, Escaped

__all__ = ["ENTRIES", "SECONDS", "Entry", "Escaped", "Figures", "no_hang", "run"]

SECONDS = 1.0
"""No input may take more CPU time than this (a hang is a failure too)."""

HANG = 20.0
"""Wall-clock seconds after which an input is stopped as a hang."""


@dataclass
class Figures:
    """What a run did: inputs handed over and accepted, by entry point, the slowest, and the
    wall-clock time the runs took."""

    inputs: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    slowest: tuple[float, str, str] = (0.0, "", "")
    """CPU seconds, entry point, and the input (cut short)."""
    wall: float = 0.0
    """Wall-clock seconds of the runs, added up (over the workers, when several ran)."""

    def add(self, entry: str, accepted: bool, seconds: float, shown: str) -> None:
        self.inputs[entry] += 1
        self.accepted[entry] += accepted
        if seconds > self.slowest[0]:
            self.slowest = (seconds, entry, shown)

    def merge(self, other: Figures) -> None:
        self.inputs.update(other.inputs)
        self.accepted.update(other.accepted)
        if other.slowest[0] > self.slowest[0]:
            self.slowest = other.slowest
        self.wall += other.wall

    def to_data(self) -> dict[str, object]:
        """The figures as JSON-ready data (a test passes them on to the end of the run)."""
        return {
            "inputs": dict(self.inputs),
            "accepted": dict(self.accepted),
            "slowest": list(self.slowest),
            "wall": self.wall,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Figures:
        seconds, entry, shown = data["slowest"]
        return cls(
            Counter(data["inputs"]),
            Counter(data["accepted"]),
            (seconds, entry, shown),
            data["wall"],
        )

    def lines(self, failed: int = 0) -> list[str]:
        """The figures as lines of text; ``failed``: how many runs stopped at a failure (an
        input answered by an error that is not the entry point's own, a wrong answer, or an
        input over :data:`SECONDS`)."""
        total, accepted = sum(self.inputs.values()), sum(self.accepted.values())
        seconds, entry, shown = self.slowest
        failures = f"{failed} run(s) stopped at a failing input" if failed else "none failed"
        found = [
            f"fuzz: {total} inputs, {accepted} accepted, {total - accepted} refused by a typed "
            f"error, {failures}"
        ]
        found += [
            f"  {name:<20} {self.inputs[name]:>8} inputs {self.accepted[name]:>8} accepted"
            f" {self.inputs[name] - self.accepted[name]:>8} refused"
            for name in sorted(self.inputs)
        ]
        found.append(f"  slowest input: {seconds * 1000:.1f} ms CPU, {entry}: {shown}")
        found.append(f"  {self.wall:.0f} s of wall-clock time in the runs (added up over workers)")
        return found


@contextlib.contextmanager
def no_hang(seconds: float) -> Iterator[None]:
    """Fail with ``TimeoutError`` if the block runs longer than ``seconds`` of wall time."""

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else f"{text[:157]}..."


def run(entry: Entry, inputs: int, seed: int, figures: Figures, *, shrink: bool = False) -> None:
    """Hand ``inputs`` inputs drawn from ``seed`` to ``entry``, adding to ``figures``; fails
    (with Hypothesis's report of the input) on the first input not answered as it must be.
    ``shrink``: let Hypothesis shrink a failing input first (slow on large documents)."""
    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]

    @seeded(seed)
    @settings(
        max_examples=inputs,
        database=None,
        deadline=None,
        phases=phases,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        value = entry.draw(data)
        # The collector's passes are kept out of the timing: their cost grows with what
        # Hypothesis keeps of the inputs run so far, not with the input.
        gc.disable()
        started = time.process_time()
        try:
            with no_hang(HANG):
                accepted = entry.attempt(value)
        except TimeoutError:
            raise Escaped(f"{entry.name}: no answer within {HANG} s") from None
        finally:
            seconds = time.process_time() - started
            gc.enable()
        figures.add(entry.name, accepted, seconds, _shown(value))
        assert seconds <= SECONDS, f"{entry.name}: {seconds:.2f} s of CPU for {_shown(value)}"

    started = time.perf_counter()
    try:
        one()
    finally:
        figures.wall += time.perf_counter() - started
