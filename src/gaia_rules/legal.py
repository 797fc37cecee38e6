"""The legal actions of a decision as a lazy sequence: each action is built when it is read.

A turn's action can offer a hundred plays late in a game (each Nature card on each open
square, each City card on each tile it may stand on), while a bot or a random playout
reads one of them. :class:`LegalActions` holds them as *parts*: a builder and the targets
it is applied to (``PlayNature`` of one card, over the open squares). Its length is the
sum of the parts' lengths, so ``len()`` and ``random.choice`` cost nothing per action;
indexing builds one action; iterating builds them in order. It is a
:class:`~collections.abc.Sequence` and compares equal to a list or tuple of the same
actions.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from gaia_rules.actions import Action

__all__ = ["LegalActions", "Part", "ready"]

Part = tuple[Callable[[Any], Action], Sequence[Any]]
"""A builder and its targets: the part holds ``builder(target)`` for each target, in order."""


def _same(action: Action) -> Action:
    return action


def ready(actions: Sequence[Action]) -> Part:
    """A part of actions already built."""
    return (_same, actions)


class LegalActions(Sequence[Action]):
    """Every legal action of one decision, in the engine's order, built on demand.

    Immutable as a sequence (it only remembers the actions it built): the engine shares one
    instance between a game and its copies, and returns it from
    [`legal_actions`][gaia_rules.game.Game.legal_actions] as is.
    """

    __slots__ = ("_built", "_ends", "_issued", "_parts", "_size")

    def __init__(self, parts: Sequence[Part]) -> None:
        # Hot path: built at every decision. The parts are kept as they are: a part with no
        # target ends where the one before it does, and `bisect_right` passes over it; a
        # plain loop, which measured faster than summing in C (`accumulate`) for a few parts.
        ends: list[int] = []
        total = 0
        for _, targets in parts:
            total += len(targets)
            ends.append(total)
        self._parts = parts
        self._ends = ends
        self._size = total
        self._built: list[Action] | None = None
        self._issued: dict[int, Action] = {}
        """Every action built so far, by ``id`` (the objects are kept, so ids are not reused)."""

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Action: ...
    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...
    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        built = self._built
        if built is not None:
            return built[index]
        if isinstance(index, slice):
            return self._all()[index]
        ends = self._ends
        size = self._size
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("legal action index out of range")
        which = bisect_right(ends, index)
        start = ends[which - 1] if which else 0
        build, targets = self._parts[which]
        action = build(targets[index - start])
        self._issued[id(action)] = action
        return action

    def __iter__(self) -> Iterator[Action]:
        return iter(self._all())

    def __contains__(self, value: object) -> bool:
        return value in self._all()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions | list | tuple):
            return self._all() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, so unhashable like them

    def __repr__(self) -> str:
        return repr(self._all())

    def parts(self) -> tuple[Part, ...]:
        """The parts of the sequence, in order: each a builder and the targets it is applied
        to. For code that maps a whole part at once, such as an encoder of actions to indices,
        without building each action."""
        return tuple(part for part in self._parts if part[1])

    def issued(self, action: object) -> bool:
        """Whether ``action`` is one of the very objects this sequence handed out: such an
        action is legal as long as this sequence is its decision's (the engine drops it as
        soon as the decision is taken)."""
        return action is not None and self._issued.get(id(action)) is action

    def _all(self) -> list[Action]:
        """Every action, built once and kept (the instance never changes)."""
        built = self._built
        if built is None:
            built = self._built = [build(t) for build, targets in self._parts for t in targets]
            self._issued.update((id(action), action) for action in built)
        return built
