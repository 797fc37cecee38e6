"""``gaia-rules serve``: its options, its default file, and what it says without the extra."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from gaia_rules.cli import main
from gaia_rules.cli.serve import INSTALL_HINT, default_db


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, stdin=io.StringIO(""), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_serve_says_how_to_install_the_web_extra_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    status, out, err = run(["serve", "--port", "0"])
    assert status == 1 and out == ""
    assert INSTALL_HINT in err and "pip install 'gaia-rules[web]'" in err


def test_the_games_are_kept_in_the_users_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db() == tmp_path / "gaia-rules" / "games.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db() == tmp_path / ".local" / "share" / "gaia-rules" / "games.sqlite3"


def test_serve_has_its_options_in_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, _ = run(["serve", "--help"])
    out = capsys.readouterr().out  # argparse prints the help itself
    assert status == 0
    for option in ("--host", "--port", "--db", "127.0.0.1", "8000"):
        assert option in out


def test_serve_refuses_a_port_it_cannot_have() -> None:
    pytest.importorskip("uvicorn")
    status, _, err = run(["serve", "--port", "70000"])
    assert status == 1 and "--port" in err


def test_serve_prints_the_link_to_open(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from tests.web_server import running_server  # noqa: PLC0415 (needs the extra)

    with running_server(tmp_path / "games.sqlite3") as server:
        assert server.url.startswith("http://127.0.0.1:")
        status, answer = server.call("GET", "/api/games/none", token="x")
        assert status == 404 and answer["error"]["kind"] == "not_found"


def test_every_limit_flag_is_in_the_deploying_guide() -> None:
    from gaia_rules.cli.serve import LIMIT_FLAGS  # noqa: PLC0415

    guide = (Path(__file__).resolve().parent.parent / "docs" / "guides" / "server.md").read_text(
        "utf-8"
    )
    for flag, _, _ in LIMIT_FLAGS:
        assert f"| `{flag}` |" in guide, flag
    for flag in ("--access-log", "--db", "PGPASSWORD", "LimitNOFILE", "max_connections"):
        assert flag in guide, flag
