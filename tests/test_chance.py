"""The draws of `gaia_rules.chance` are the very numbers of ``random.Random``'s own methods,
so the seeded samples and playouts of a search stay what they were."""

from __future__ import annotations

import random

import pytest

from gaia_rules import chance


@pytest.mark.parametrize("seed", range(30))
def test_shuffle_is_random_shuffle(seed: int) -> None:
    for size in (0, 1, 2, 3, 7, 64, 100, 300):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(size)), list(range(size))
        chance.shuffle(ours, mine)
        theirs.shuffle(reference)
        assert mine == reference
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(30))
def test_below_is_randrange(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in (1, 2, 3, 5, 8, 9, 63, 64, 65, 1000, 2**40 + 1):
        assert chance.below(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


class _Counting(random.Random):
    """A generator of its own: its methods are the ones used."""

    calls = 0

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        self.calls += 1
        x.reverse()

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        self.calls += 1
        return 0


def test_another_generator_draws_its_own_way() -> None:
    rng = _Counting(1)
    items = [1, 2, 3]
    chance.shuffle(rng, items)
    assert items == [3, 2, 1]
    assert chance.below(rng, 10) == 0
    assert rng.calls == 2


def test_below_nothing_is_refused_as_randrange_refuses_it() -> None:
    with pytest.raises(ValueError, match="empty range"):
        chance.below(random.Random(1), 0)
