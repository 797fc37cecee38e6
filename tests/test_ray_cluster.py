"""The ``ray`` wing against real clusters: shipping gaia-rules to the workers with a runtime
environment, joining a cluster through Ray Client (``ray://``), and one clean line when the
cluster cannot be reached."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")

import gaia_rules.ray
from gaia_rules.cli import main
from gaia_rules.ray import origin, ray_map, shipped

RAY = Path(sys.executable).parent / "ray"
UNAUTHENTICATED = {**os.environ, "RAY_AUTH_MODE": "disabled"}
"""A throwaway cluster on loopback, reached by this test alone: no token (Ray's default when
``~/.ray/auth_token`` exists is to ask for one; see the guide)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _gaia(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gaia_rules", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )


def test_an_unreachable_cluster_is_one_clean_line() -> None:
    address = f"ray://127.0.0.1:{_free_port()}"  # nothing listens there
    quick = {**UNAUTHENTICATED, "RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S": "1"}
    done = _gaia("simulate", "--games", "1", "--backend", "ray", "--address", address, env=quick)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"gaia-rules: cannot reach the Ray cluster at {address}: ")


def _failing_init(monkeypatch: pytest.MonkeyPatch, failures: list[str]) -> list[dict[str, object]]:
    """Ray's ``init`` as gaia_rules.ray calls it, failing with each of ``failures`` in turn
    (then joining): the calls it received. Ray Client's proxy failing to start a client's
    server cannot be provoked on purpose, so its message is raised here."""
    calls: list[dict[str, object]] = []

    def init(**kwargs: object) -> None:
        calls.append(kwargs)
        if len(calls) <= len(failures):
            raise ConnectionError(failures[len(calls) - 1])

    monkeypatch.setattr("ray.init", init)
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    return calls


def test_joining_is_tried_again_when_the_clients_server_failed_to_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failed = "Initialization failure from server: RuntimeError: Starting Ray client server failed"
    calls = _failing_init(monkeypatch, [failed, failed])
    gaia_rules.ray._start("ray://127.0.0.1:1", None, None)
    assert len(calls) == gaia_rules.ray.CLIENT_ATTEMPTS == 3
    calls = _failing_init(monkeypatch, [failed] * 3)
    with pytest.raises(gaia_rules.ray.ClusterError, match="Starting Ray client server failed"):
        gaia_rules.ray._start("ray://127.0.0.1:1", None, None)
    assert len(calls) == 3


def test_other_failures_to_join_are_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _failing_init(monkeypatch, ["Failed to connect to the cluster"])
    with pytest.raises(gaia_rules.ray.ClusterError, match="cannot reach the Ray cluster at"):
        gaia_rules.ray._start("ray://127.0.0.1:1", None, None)
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--runtime-env", "{not json"], "--runtime-env: --runtime-env is not JSON"),
        (["--runtime-env", "[1]"], "expected a JSON object"),
        (["--runtime-env", "@/no/such/file.json"], "cannot read /no/such/file.json"),
        (["--backend", "processes", "--ship"], "only with --backend ray"),
    ],
)
def test_bad_runtime_environments_are_refused(argv: list[str], said: str) -> None:
    err = io.StringIO()
    if "--backend" not in argv:
        argv = [*argv, "--backend", "ray"]
    assert main(["simulate", "--quiet", *argv], stdout=io.StringIO(), stderr=err) == 2
    assert said in err.getvalue()


def test_shipped_adds_this_copy_to_the_runtime_environment() -> None:
    env = shipped({"env_vars": {"A": "1"}, "py_modules": ["extra"]})
    assert env["env_vars"] == {"A": "1"}
    assert env["py_modules"][0] == "extra"
    assert env["py_modules"][1] == origin()
    assert Path(env["py_modules"][2]).name == "cattrs"
    assert shipped(env) == env  # shipping twice adds nothing


def test_the_workers_run_the_shipped_copy() -> None:
    where = set(ray_map(origin, [0, 1, 2, 3], num_cpus=1, runtime_env=shipped()))
    assert len(where) == 1
    (worker,) = where
    assert worker != origin() and "runtime_resources" in worker
    assert (Path(worker) / "rules.py").is_file()


@pytest.fixture
def head() -> Iterator[str]:
    """A one-CPU Ray head on loopback with its Ray Client server, stopped afterwards (its
    processes, started in a session of their own, by their process group)."""
    client = _free_port()
    folder = tempfile.mkdtemp(prefix="gaia-ray-", dir="/tmp")  # Ray's sockets need a short path
    argv = [str(RAY), "start", "--head", "--block", "--port", str(_free_port())]
    argv += ["--ray-client-server-port", str(client), "--num-cpus", "1"]
    argv += ["--include-dashboard", "false", "--temp-dir", folder, "--disable-usage-stats"]
    process = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=UNAUTHENTICATED,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", client), timeout=1).close()
                break
            except OSError:
                assert process.poll() is None, "ray start ended"
                assert time.monotonic() < deadline, "the Ray head did not start"
                time.sleep(0.5)
        yield f"ray://127.0.0.1:{client}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.mark.soak
def test_simulate_joins_a_cluster_through_ray_client_and_ships_itself(head: str) -> None:
    argv = ["simulate", "--json", "--quiet", "--games", "6", "--players", "3", "--seed", "4"]
    argv += ["--bots", "greedy,random,random"]
    alone = _gaia(*argv, env=UNAUTHENTICATED)
    assert alone.returncode == 0, alone.stderr
    joined = _gaia(*argv, "--backend", "ray", "--address", head, "--ship", env=UNAUTHENTICATED)
    assert joined.returncode == 0, joined.stderr
    expected, found = json.loads(alone.stdout), json.loads(joined.stdout)
    del expected["timing"], found["timing"]
    assert found == expected
