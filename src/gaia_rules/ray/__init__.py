"""Tournaments on a Ray cluster (the ``ray`` extra): ``gaia-rules simulate --backend ray``.

[`ray_map`][gaia_rules.ray.ray_map] runs a function over many items as Ray tasks, a batch of
items per task, and yields each result as its batch comes back. ``simulate`` gives it the
games to play; since each game depends on its index only, and the summary sorts the games by
index, the results are the same as in one process, whatever the number of workers.

Without an address, a local cluster is started for the run (``num_cpus`` workers, no
dashboard) and shut down after it; with one (``ray://host:10001`` or ``auto``), the run joins
that cluster, whose workers need the same version of gaia-rules installed.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import ray

__all__ = ["ray_map"]

T = TypeVar("T")
R = TypeVar("R")

BATCHES_PER_WORKER = 4
"""Enough batches to keep every worker busy to the end, few enough to keep Ray's cost per
task small beside the games'."""


def _run_batch(function: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [function(item) for item in batch]


def ray_map(
    function: Callable[[T], R],
    items: Sequence[T],
    *,
    address: str | None = None,
    num_cpus: int | None = None,
) -> Iterator[R]:
    """``function(item)`` for every item, on Ray, in the order the batches finish.

    Args:
        function: A module-level function (Ray sends it to the workers by name).
        items: What to run it on; sent to the workers in batches.
        address: The cluster to join; ``None`` starts a local one for this run.
        num_cpus: The workers of a local cluster (``None``: one per processor); ignored when
            joining a cluster.
    """
    started = not ray.is_initialized()
    if started:
        ray.init(
            address=address,
            num_cpus=None if address is not None else num_cpus,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    try:
        resources: dict[str, float] = ray.available_resources()  # type: ignore[no-untyped-call]
        workers = max(1, int(resources.get("CPU", 1)))
        size = max(1, math.ceil(len(items) / (workers * BATCHES_PER_WORKER)))
        task: Any = ray.remote(_run_batch)
        pending = [
            task.remote(function, items[start : start + size])
            for start in range(0, len(items), size)
        ]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        if started:
            ray.shutdown()
