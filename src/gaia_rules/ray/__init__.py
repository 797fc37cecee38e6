"""Tournaments on a Ray cluster (the ``ray`` extra): ``gaia-rules simulate --backend ray``.

[`ray_map`][gaia_rules.ray.ray_map] runs a function over many items as Ray tasks, a batch of
items per task, and yields each result as its batch comes back. ``simulate`` gives it the
games to play; since each game depends on its index only, and the summary sorts the games by
index, the results are the same as in one process, whatever the number of workers.

Without an address, a local cluster is started for the run (``num_cpus`` workers, no
dashboard) and shut down after it; with one (``ray://host:10001``, through Ray Client, which
the ``ray`` extra brings, or ``auto``), the run joins that cluster. Its workers need
gaia-rules: installed there, or shipped with the run by a *runtime environment*
([`shipped`][gaia_rules.ray.shipped] sends this very copy, ``simulate --ship`` asks for it).
A cluster that cannot be reached is a [`ClusterError`][gaia_rules.ray.ClusterError] whose
message is one line.
"""

from __future__ import annotations

import logging
import math
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import cattrs
import ray

import gaia_rules
from gaia_rules.errors import GaiaRulesError

__all__ = ["ClusterError", "origin", "ray_map", "shipped"]

T = TypeVar("T")
R = TypeVar("R")

BATCHES_PER_WORKER = 4
"""Enough batches to keep every worker busy to the end, few enough to keep Ray's cost per
task small beside the games'."""


class ClusterError(GaiaRulesError, ConnectionError):
    """The Ray cluster could not be reached or started; the message says which and why."""


def shipped(runtime_env: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``runtime_env`` with this copy of gaia-rules and of cattrs added to its ``py_modules``,
    so that workers with Ray alone (Ray's own dependencies bring attrs) run the same code as
    this process. A compiled gaia-rules only runs on workers of the same platform."""
    env = dict(runtime_env or {})
    modules = list(env.get("py_modules", []))
    for module in (gaia_rules, cattrs):
        folder = str(Path(module.__file__ or "").parent)
        if folder not in modules:
            modules.append(folder)
    env["py_modules"] = modules
    return env


def origin(_: object = None) -> str:
    """The folder this process imports gaia-rules from: ``ray_map(origin, range(4))`` tells
    what a cluster's workers run (a shipped copy lies in Ray's runtime resources)."""
    return str(Path(gaia_rules.__file__ or "").parent)


def _run_batch(function: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    return [function(item) for item in batch]


CLIENT_ATTEMPTS = 3
"""How many times joining a cluster through Ray Client is tried when the cluster's server
for this client failed to start (see `_start`)."""


def _start(address: str | None, num_cpus: int | None, runtime_env: dict[str, Any] | None) -> None:
    """Joins the cluster at ``address`` (or starts a local one). Ray Client's proxy starts a
    server process for each client that connects; when that process fails to start (Ray
    says "Initialization failure from server"), a new connection gets a new one, so the
    join is tried again, up to `CLIENT_ATTEMPTS` times. Any other failure, such as nothing
    listening at the address, is reported at once."""
    where = "a local Ray cluster" if address is None else f"the Ray cluster at {address}"
    for attempt in range(1, CLIENT_ATTEMPTS + 1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # Ray Client warns before it raises
                ray.init(
                    address=address,
                    num_cpus=None if address is not None else num_cpus,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    runtime_env=runtime_env,
                )
            return
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            if attempt < CLIENT_ATTEMPTS and "Initialization failure from server" in reason:
                ray.shutdown()
                time.sleep(attempt)
                continue
            raise ClusterError(f"cannot reach {where}: {reason}") from None


def ray_map(
    function: Callable[[T], R],
    items: Sequence[T],
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    runtime_env: Mapping[str, Any] | None = None,
) -> Iterator[R]:
    """``function(item)`` for every item, on Ray, in the order the batches finish.

    Args:
        function: A module-level function (Ray sends it to the workers by name).
        items: What to run it on; sent to the workers in batches.
        address: The cluster to join; ``None`` starts a local one for this run.
        num_cpus: The workers of a local cluster (``None``: one per processor); ignored when
            joining a cluster.
        runtime_env: Ray's runtime environment for the workers of this run (``py_modules``,
            ``pip``, ``env_vars``, ...; see [`shipped`][gaia_rules.ray.shipped]).

    Raises:
        ClusterError: the cluster cannot be reached (or a local one started).
    """
    started = not ray.is_initialized()
    if started:
        _start(address, num_cpus, None if runtime_env is None else dict(runtime_env))
    try:
        resources: dict[str, float] = ray.available_resources()  # type: ignore[no-untyped-call]
        workers = max(1, int(resources.get("CPU", 1)))
        size = max(1, math.ceil(len(items) / (workers * BATCHES_PER_WORKER)))
        task: Any = ray.remote(_run_batch)
        if not started and runtime_env is not None:  # Ray was started by the caller
            task = task.options(runtime_env=dict(runtime_env))
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
